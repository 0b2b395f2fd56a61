// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QList>
#include <QObject>
#include <QString>

namespace ServeScope {

/// A saved endpoint. The key is never part of it: endpoint.keychainEntry names the keychain entry
/// (or endpoint.apiKeyEnv an environment variable).
struct EndpointProfile {
    QString id; ///< stable, also the keychain entry suffix
    QString name;
    Endpoint endpoint;
    bool builtIn = false; ///< the "Local simulator" profile: not editable, not removable
};

/// Saved endpoint profiles in QSettings (group "profiles"), plus the built-in local simulator.
class ProfileStore final : public QObject {
    Q_OBJECT
public:
    explicit ProfileStore(QObject *parent = nullptr);

    QList<EndpointProfile> profiles() const;
    EndpointProfile profile(const QString &id) const;
    /// Inserts or replaces by id; a profile without id gets a new one. Returns the id.
    QString save(EndpointProfile profile);
    void remove(const QString &id);

    static EndpointProfile localSimulator();
    static QString keychainEntryFor(const QString &profileId);

signals:
    void changed();

private:
    QList<EndpointProfile> m_profiles;
    void load();
    void store() const;
};

} // namespace ServeScope
