// SPDX-License-Identifier: MIT
#include "teamdbfields.h"

#include "teamdb/teamdbpassword.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QPointer>
#include <QSettings>
#include <QTimer>

namespace ServeScope {

namespace {
const char kUrlKey[] = "teamdb/url";
const char kPasswordKey[] = "teamdb/password";
} // namespace

TeamDbFields::TeamDbFields(QObject *parent)
    : QObject(parent)
    , m_url(new QLineEdit)
    , m_password(new QLineEdit)
{
    QSettings settings;
    m_url->setPlaceholderText(tr("postgresql://USER@HOST:5432/DBNAME?sslmode=verify-full&sslrootcert=CA.pem"));
    m_url->setText(settings.value(QLatin1String(kUrlKey)).toString());
    m_password->setPlaceholderText(tr("env:VARIABLE or keychain:ENTRY (empty: none)"));
    m_password->setToolTip(tr("Where the database password is, never the password itself"));
    m_password->setText(settings.value(QLatin1String(kPasswordKey)).toString());
}

void TeamDbFields::addRows(QFormLayout *form)
{
    form->addRow(tr("Team database:"), m_url);
    form->addRow(tr("Password from:"), m_password);
}

void TeamDbFields::resolve(SecretStore *secrets, QObject *context, Resolved done)
{
    QString error;
    const std::optional<TeamDbUrl> url = TeamDbUrl::parse(m_url->text(), &error);
    const QString reference = m_password->text().trimmed();
    const std::optional<KeyReference> ref = reference.isEmpty() ? KeyReference() : KeyReference::parse(reference);
    if (url && !ref)
        error = tr("The password must be given as env:VARIABLE or keychain:ENTRY, never itself.");
    QPointer<QObject> guard(context);
    const auto later = [guard, done](const TeamDbUrl &u, const QByteArray &p, const QString &e) {
        QTimer::singleShot(0, guard, [guard, done, u, p, e] {
            if (guard)
                done(u, p, e);
        });
    };
    if (!url || !ref) {
        later({}, {}, error);
        return;
    }
    QSettings settings;
    settings.setValue(QLatin1String(kUrlKey), url->toString());
    settings.setValue(QLatin1String(kPasswordKey), reference);
    if (ref->isNull()) {
        later(*url, {}, {});
    } else if (ref->kind == KeyReference::Kind::Environment) {
        const SecretResult r = resolveDbPasswordBlocking(*ref); // a variable needs no event loop
        later(*url, r.secret, r.ok ? QString() : r.message);
    } else if (!secrets) {
        later(*url, {}, tr("No keychain is available."));
    } else {
        resolveApiKey(*ref, *secrets, context,
            [done, u = *url](const SecretResult &r) { done(u, r.secret, r.ok ? QString() : r.message); });
    }
}

} // namespace ServeScope
