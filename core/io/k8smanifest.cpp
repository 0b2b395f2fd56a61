// SPDX-License-Identifier: MIT
#include "k8smanifest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace ServeScope {

QString k8sName(const QString &experimentName)
{
    static const QRegularExpression other(QStringLiteral("[^a-z0-9]+"));
    QString part = experimentName.toLower().replace(other, QStringLiteral("-"));
    while (part.startsWith(QLatin1Char('-')))
        part.remove(0, 1);
    QString name = QStringLiteral("servescope-") + part;
    name.truncate(52);
    while (name.endsWith(QLatin1Char('-')))
        name.chop(1);
    return name;
}

namespace {

QJsonObject metadata(const QString &name, const QString &ns)
{
    QJsonObject o { { QStringLiteral("name"), name } };
    if (!ns.isEmpty())
        o.insert(QStringLiteral("namespace"), ns);
    return o;
}

QJsonObject container(const K8sJobSpec &spec)
{
    const QString index = QStringLiteral("$(JOB_COMPLETION_INDEX)");
    QJsonArray args { QStringLiteral("run"), QStringLiteral("/config/experiment.json"), QStringLiteral("--shard"),
        QStringLiteral("%1/%2").arg(index).arg(spec.shards), QStringLiteral("--start-at"), spec.startAt,
        QStringLiteral("--project"), QStringLiteral("/results/shard-%1.servescope").arg(index) };
    if (!spec.pointSlot.isEmpty())
        args << QStringLiteral("--point-slot") << spec.pointSlot;
    // Keys come from the Secret by reference: their values never appear in the manifest.
    QJsonArray env;
    for (const QString &variable : spec.secretVariables) {
        const QJsonObject ref { { QStringLiteral("name"), spec.secret }, { QStringLiteral("key"), variable } };
        env << QJsonObject { { QStringLiteral("name"), variable },
            { QStringLiteral("valueFrom"), QJsonObject { { QStringLiteral("secretKeyRef"), ref } } } };
    }
    const QJsonArray mounts {
        QJsonObject { { QStringLiteral("name"), QStringLiteral("config") },
            { QStringLiteral("mountPath"), QStringLiteral("/config") }, { QStringLiteral("readOnly"), true } },
        QJsonObject { { QStringLiteral("name"), QStringLiteral("results") },
            { QStringLiteral("mountPath"), QStringLiteral("/results") } },
    };
    QJsonObject c { { QStringLiteral("name"), QStringLiteral("servescope") }, { QStringLiteral("image"), spec.image },
        { QStringLiteral("command"), QJsonArray { QStringLiteral("servescope-cli") } },
        { QStringLiteral("args"), args }, { QStringLiteral("volumeMounts"), mounts } };
    if (!env.isEmpty())
        c.insert(QStringLiteral("env"), env);
    return c;
}

QJsonObject job(const K8sJobSpec &spec)
{
    const QJsonArray volumes {
        QJsonObject { { QStringLiteral("name"), QStringLiteral("config") },
            { QStringLiteral("configMap"),
                QJsonObject { { QStringLiteral("name"), QString(spec.name + QStringLiteral("-config")) } } } },
        QJsonObject { { QStringLiteral("name"), QStringLiteral("results") },
            { QStringLiteral("persistentVolumeClaim"),
                QJsonObject { { QStringLiteral("claimName"), spec.resultsClaim } } } },
    };
    const QJsonObject podSpec { { QStringLiteral("restartPolicy"), QStringLiteral("Never") },
        { QStringLiteral("containers"), QJsonArray { container(spec) } }, { QStringLiteral("volumes"), volumes } };
    // A retried pod would start after the common time and measure alone: no retries.
    const QJsonObject jobSpec { { QStringLiteral("completionMode"), QStringLiteral("Indexed") },
        { QStringLiteral("completions"), spec.shards }, { QStringLiteral("parallelism"), spec.shards },
        { QStringLiteral("backoffLimit"), 0 },
        { QStringLiteral("template"), QJsonObject { { QStringLiteral("spec"), podSpec } } } };
    return QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("batch/v1") },
        { QStringLiteral("kind"), QStringLiteral("Job") },
        { QStringLiteral("metadata"), metadata(spec.name, spec.namespaceName) }, { QStringLiteral("spec"), jobSpec } };
}

QByteArray scalar(const QJsonValue &v)
{
    if (v.isString())
        return QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    if (v.isBool())
        return v.toBool() ? "true" : "false";
    if (v.isDouble())
        return QByteArray::number(v.toDouble(), 'g', 17);
    return "null";
}

QByteArray key(const QString &k)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z][A-Za-z0-9._-]*$"));
    return plain.match(k).hasMatch() ? k.toUtf8() : scalar(k);
}

void writeYaml(QByteArray *out, const QJsonValue &v, int indent);

void emitEntry(QByteArray *out, const QByteArray &head, const QJsonValue &v, int indent)
{
    const QByteArray pad(indent, ' ');
    const bool container = v.isObject() || v.isArray();
    if (container && (v.isObject() ? v.toObject().isEmpty() : v.toArray().isEmpty())) {
        *out += pad + head + (v.isObject() ? " {}\n" : " []\n");
    } else if (container) {
        *out += pad + head + '\n';
        writeYaml(out, v, indent + 2);
    } else if (v.isString() && v.toString().contains(QLatin1Char('\n')) && !v.toString().startsWith(QLatin1Char(' '))) {
        // A literal block keeps every line, blank ones included; `|-` when there is no final newline.
        QString text = v.toString();
        const bool finalNewline = text.endsWith(QLatin1Char('\n'));
        if (finalNewline)
            text.chop(1);
        *out += pad + head + (finalNewline ? " |\n" : " |-\n");
        for (const QString &line : text.split(QLatin1Char('\n')))
            *out += line.isEmpty() ? QByteArray("\n") : QByteArray(indent + 2, ' ') + line.toUtf8() + '\n';
    } else {
        *out += pad + head + ' ' + scalar(v) + '\n';
    }
}

void writeYaml(QByteArray *out, const QJsonValue &v, int indent)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            emitEntry(out, key(it.key()) + ':', it.value(), indent);
        return;
    }
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isObject() || item.toObject().isEmpty()) {
            emitEntry(out, "-", item, indent);
            continue;
        }
        // The item's first line carries the dash; the rest line up under it.
        QByteArray body;
        writeYaml(&body, item, indent + 2);
        body.replace(indent, 1, "-");
        *out += body;
    }
}

} // namespace

QJsonObject k8sJobManifest(const K8sJobSpec &spec)
{
    const QJsonObject config { { QStringLiteral("apiVersion"), QStringLiteral("v1") },
        { QStringLiteral("kind"), QStringLiteral("ConfigMap") },
        { QStringLiteral("metadata"), metadata(QString(spec.name + QStringLiteral("-config")), spec.namespaceName) },
        { QStringLiteral("data"),
            QJsonObject { { QStringLiteral("experiment.json"), QString::fromUtf8(spec.experimentJson) } } } };
    return QJsonObject { { QStringLiteral("apiVersion"), QStringLiteral("v1") },
        { QStringLiteral("kind"), QStringLiteral("List") },
        { QStringLiteral("items"), QJsonArray { config, job(spec) } } };
}

QByteArray toYaml(const QJsonObject &object)
{
    QByteArray out;
    writeYaml(&out, object, 0);
    return out;
}

} // namespace ServeScope
