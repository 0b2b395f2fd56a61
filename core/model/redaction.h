// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

namespace ServeScope {

/// The one redaction rule (docs/secrets.md#redaction). Every text a server, a launched process or
/// the user could see — request errors, stored generated text, launched servers' log lines,
/// diagnoses, keychain and team-database messages, the CLI's failure lines — passes through it
/// before it is kept or shown. For each secret (the API key and every secret header value, and each
/// with surrounding whitespace trimmed) it replaces with kPlaceholder:
/// - the secret as written, JSON-escaped (`\/`, `\u002f`, any `\uXXXX`) or percent-encoded, in any
///   mix of the three per character;
/// - any run of 8 or more of its leading or trailing characters (a key cut short, or its tail), in
///   the same encodings;
/// - its base64 (standard and URL-safe alphabets, at any alignment within a longer base64 text).
/// And, whatever the secrets, the credential after `Bearer ` or `Basic `. A secret shorter than 4
/// characters is not looked for (it would erase ordinary text).
class Redactor final {
public:
    static constexpr QStringView kPlaceholder = u"***";

    /// Only the rule for `Bearer` and `Basic` credentials.
    Redactor();
    explicit Redactor(const QList<QByteArray> &secrets);

    QString apply(const QString &text) const;
    QByteArray apply(const QByteArray &utf8) const;

private:
    QRegularExpression m_pattern;
};

/// `Redactor({secret}).apply(text)`.
QString redactSecret(const QString &text, const QByteArray &secret);

} // namespace ServeScope
