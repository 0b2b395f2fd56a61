// SPDX-License-Identifier: MIT
#include "redaction.h"

#include <QStringList>

namespace ServeScope {

namespace {

constexpr qsizetype kMinSecret = 4;
constexpr qsizetype kMinRun = 8;

// One character (code point) of a secret in every form it may take in text: itself, `\` + itself
// (JSON's `\/`), `\uXXXX` (in the BMP) and `%XX` (ASCII; either case).
QString charPattern(char32_t c)
{
    const QString self = QRegularExpression::escape(QString::fromUcs4(&c, 1));
    QStringList forms { self, QStringLiteral("\\\\") + self };
    if (c <= 0xFFFF)
        forms << QStringLiteral("\\\\u(?i:%1)").arg(uint(c), 4, 16, QLatin1Char('0'));
    if (c < 0x80)
        forms << QStringLiteral("%(?i:%1)").arg(uint(c), 2, 16, QLatin1Char('0'));
    return QStringLiteral("(?:") + forms.join(u'|') + u')';
}

// The secret's longest leading run, at least kMinRun characters (the whole secret when shorter):
// c0 c1 ... c7 (?:c8 (?:c9 ...)?)?
QString leadingRuns(const QList<QString> &chars)
{
    const qsizetype first = std::min<qsizetype>(kMinRun, chars.size());
    QString tail;
    for (qsizetype i = chars.size() - 1; i >= first; --i)
        tail = QStringLiteral("(?:") + chars[i] + tail + QStringLiteral(")?");
    QString head;
    for (qsizetype i = 0; i < first; ++i)
        head += chars[i];
    return head + tail;
}

// The secret's longest trailing run of at least kMinRun characters: (?:(?:c0)? c1)? ... c(n-8) ... c(n-1)
QString trailingRuns(const QList<QString> &chars)
{
    const qsizetype last = chars.size() - kMinRun; // the first character every trailing run holds
    if (last <= 0)
        return {};
    QString head;
    for (qsizetype i = 0; i < last; ++i)
        head = QStringLiteral("(?:") + head + chars[i] + QStringLiteral(")?");
    for (qsizetype i = last; i < chars.size(); ++i)
        head += chars[i];
    return head;
}

// The characters of the secret's base64 that do not depend on what surrounds it, at each of the three
// alignments a longer encoded text may give it, in both alphabets.
QStringList base64Forms(const QByteArray &secret)
{
    QStringList out;
    for (int offset = 0; offset < 3; ++offset) {
        const QByteArray padded = QByteArray(offset, '\0') + secret;
        for (auto alphabet : { QByteArray::Base64Encoding, QByteArray::Base64UrlEncoding }) {
            QByteArray b = padded.toBase64(alphabet | QByteArray::OmitTrailingEquals);
            const qsizetype lead = (offset * 8 + 5) / 6; // characters holding bits of the padding
            const qsizetype trail = padded.size() % 3 == 0 ? 0 : 1; // the last one also holds what follows
            b = b.mid(lead, b.size() - lead - trail);
            if (b.size() >= kMinRun && !out.contains(QString::fromLatin1(b)))
                out << QString::fromLatin1(b);
        }
    }
    return out;
}

} // namespace

Redactor::Redactor()
    : Redactor(QList<QByteArray> {})
{
}

Redactor::Redactor(const QList<QByteArray> &secrets)
{
    QStringList alternatives;
    for (const QByteArray &raw : secrets) {
        for (const QByteArray &secret : { raw, raw.trimmed() }) {
            const QString text = QString::fromUtf8(secret);
            if (text.size() < kMinSecret)
                continue;
            QList<QString> chars;
            for (const char32_t c : text.toUcs4())
                chars << charPattern(c);
            alternatives << leadingRuns(chars);
            if (const QString t = trailingRuns(chars); !t.isEmpty())
                alternatives << t;
            for (const QString &b : base64Forms(secret))
                alternatives << QRegularExpression::escape(b);
        }
    }
    alternatives.removeDuplicates();
    // Longest alternatives first, so a whole secret wins over a run of it at the same position.
    std::stable_sort(alternatives.begin(), alternatives.end(),
        [](const QString &a, const QString &b) { return a.size() > b.size(); });
    alternatives.prepend(QStringLiteral("(?<=\\b(?i:bearer) |\\b(?i:basic) )[^\\s\"',;]+"));
    m_pattern.setPattern(alternatives.join(u'|'));
    if (!m_pattern.isValid()) {
        // Cannot happen for UTF-8 secrets; should it, the secrets as written are still replaced.
        QStringList literal;
        for (const QByteArray &raw : secrets)
            if (raw.trimmed().size() >= kMinSecret)
                literal << QRegularExpression::escape(QString::fromUtf8(raw.trimmed()));
        m_pattern.setPattern(literal.isEmpty() ? QStringLiteral("(?!)") : literal.join(u'|'));
    }
    m_pattern.optimize();
}

QString Redactor::apply(const QString &text) const
{
    if (text.isEmpty())
        return text;
    QString out = text;
    out.replace(m_pattern, kPlaceholder.toString());
    return out;
}

QByteArray Redactor::apply(const QByteArray &utf8) const
{
    if (utf8.isEmpty())
        return utf8;
    return apply(QString::fromUtf8(utf8)).toUtf8();
}

QString redactSecret(const QString &text, const QByteArray &secret)
{
    return Redactor({ secret }).apply(text);
}

} // namespace ServeScope
