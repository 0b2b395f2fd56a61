// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace ServeScope {

/// What `k8s-job` puts into its manifest (docs/shards.md).
struct K8sJobSpec {
    QString name; ///< DNS-1123 name of the Job; the ConfigMap is `<name>-config`
    QString namespaceName; ///< empty: none written (kubectl's current namespace)
    QString image;
    int shards = 1;
    QString startAt; ///< ISO-8601 UTC, the same for every pod
    QString pointSlot; ///< seconds for every pod's `--point-slot`; empty: none
    QString resultsClaim; ///< PersistentVolumeClaim mounted at /results
    QString secret; ///< Secret holding the key variables; empty when none are needed
    QStringList secretVariables; ///< api_key_env and header_env variables, each a key of `secret`
    QByteArray experimentJson; ///< the experiment as /config/experiment.json
};

/// A DNS-1123 label from an experiment name: lowercase letters, digits and '-', at most 52 characters
/// (room for "-config" and the Job's pod suffixes).
QString k8sName(const QString &experimentName);
/// A v1 List with the ConfigMap and the Indexed Job.
QJsonObject k8sJobManifest(const K8sJobSpec &spec);
/// Block-style YAML of a JSON tree: strings double-quoted, multi-line strings as `|` blocks.
QByteArray toYaml(const QJsonObject &object);

} // namespace ServeScope
