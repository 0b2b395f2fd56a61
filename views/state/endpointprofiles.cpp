// SPDX-License-Identifier: MIT
#include "endpointprofiles.h"

#include <QSettings>
#include <QUuid>

namespace ServeScope {

ProfileStore::ProfileStore(QObject *parent)
    : QObject(parent)
{
    load();
}

EndpointProfile ProfileStore::localSimulator()
{
    EndpointProfile p;
    p.id = QStringLiteral("local-simulator");
    p.name = tr("Local simulator");
    p.endpoint.baseUrl = QString::fromLatin1(kSimulatorBaseUrl);
    p.endpoint.model = QStringLiteral("sim-7b");
    p.builtIn = true;
    return p;
}

QString ProfileStore::keychainEntryFor(const QString &profileId)
{
    return QStringLiteral("profile/") + profileId;
}

QList<EndpointProfile> ProfileStore::profiles() const
{
    QList<EndpointProfile> all { localSimulator() };
    all.append(m_profiles);
    return all;
}

EndpointProfile ProfileStore::profile(const QString &id) const
{
    for (const EndpointProfile &p : profiles()) {
        if (p.id == id)
            return p;
    }
    return {};
}

QString ProfileStore::save(EndpointProfile profile)
{
    if (profile.builtIn)
        return profile.id;
    if (profile.id.isEmpty())
        profile.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    bool replaced = false;
    for (EndpointProfile &p : m_profiles) {
        if (p.id == profile.id) {
            p = profile;
            replaced = true;
        }
    }
    if (!replaced)
        m_profiles.append(profile);
    store();
    emit changed();
    return profile.id;
}

void ProfileStore::remove(const QString &id)
{
    m_profiles.removeIf([&](const EndpointProfile &p) { return p.id == id; });
    store();
    emit changed();
}

void ProfileStore::load()
{
    QSettings s;
    const int n = s.beginReadArray(QStringLiteral("profiles"));
    for (int i = 0; i < n; ++i) {
        s.setArrayIndex(i);
        EndpointProfile p;
        p.id = s.value(QStringLiteral("id")).toString();
        p.name = s.value(QStringLiteral("name")).toString();
        Endpoint &e = p.endpoint;
        e.baseUrl = s.value(QStringLiteral("baseUrl")).toString();
        e.path = s.value(QStringLiteral("path"), e.path).toString();
        e.model = s.value(QStringLiteral("model")).toString();
        parseDialect(s.value(QStringLiteral("dialect")).toString(), &e.dialect);
        parseProtocol(s.value(QStringLiteral("protocol")).toString(), &e.protocol);
        e.proxy = s.value(QStringLiteral("proxy")).toString();
        e.caFile = s.value(QStringLiteral("caFile")).toString();
        e.tlsSkipVerify = s.value(QStringLiteral("tlsSkipVerify")).toBool();
        e.apiKeyEnv = s.value(QStringLiteral("apiKeyEnv")).toString();
        e.keychainEntry = s.value(QStringLiteral("keychainEntry")).toString();
        const QStringList headers = s.value(QStringLiteral("headers")).toStringList();
        for (int h = 0; h + 1 < headers.size(); h += 2)
            e.headers.append({ headers.at(h), headers.at(h + 1) });
        if (!p.id.isEmpty())
            m_profiles.append(p);
    }
    s.endArray();
}

void ProfileStore::store() const
{
    QSettings s;
    s.remove(QStringLiteral("profiles"));
    s.beginWriteArray(QStringLiteral("profiles"), int(m_profiles.size()));
    for (int i = 0; i < m_profiles.size(); ++i) {
        const EndpointProfile &p = m_profiles.at(i);
        s.setArrayIndex(i);
        s.setValue(QStringLiteral("id"), p.id);
        s.setValue(QStringLiteral("name"), p.name);
        s.setValue(QStringLiteral("baseUrl"), p.endpoint.baseUrl);
        s.setValue(QStringLiteral("path"), p.endpoint.path);
        s.setValue(QStringLiteral("model"), p.endpoint.model);
        s.setValue(QStringLiteral("dialect"), dialectName(p.endpoint.dialect));
        s.setValue(QStringLiteral("protocol"), protocolName(p.endpoint.protocol));
        s.setValue(QStringLiteral("proxy"), p.endpoint.proxy);
        s.setValue(QStringLiteral("caFile"), p.endpoint.caFile);
        s.setValue(QStringLiteral("tlsSkipVerify"), p.endpoint.tlsSkipVerify);
        s.setValue(QStringLiteral("apiKeyEnv"), p.endpoint.apiKeyEnv);
        s.setValue(QStringLiteral("keychainEntry"), p.endpoint.keychainEntry);
        QStringList headers;
        for (const auto &h : p.endpoint.headers)
            headers << h.first << h.second;
        s.setValue(QStringLiteral("headers"), headers);
    }
    s.endArray();
    s.sync();
}

} // namespace ServeScope
