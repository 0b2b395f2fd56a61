// SPDX-License-Identifier: MIT
// The one redaction rule: every form of a secret a server could echo is replaced, ordinary text is not.
#include "model/redaction.h"

#include <QRegularExpression>
#include <QTest>
#include <QUrl>

using namespace ServeScope;

namespace {
const QByteArray kKey = "sk-live/AbC+dEf=gh1234567890zz";

QString jsonEscapedSlash(const QString &s)
{
    QString out = s;
    return out.replace(u'/', QStringLiteral("\\/"));
}

QString jsonUnicode(const QString &s)
{
    QString out;
    for (const QChar c : s)
        out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
    return out;
}
} // namespace

class TestRedaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void eachFormIsReplaced_data()
    {
        QTest::addColumn<QString>("form");
        const QString key = QString::fromUtf8(kKey);
        QTest::newRow("raw") << key;
        QTest::newRow("json \\/") << jsonEscapedSlash(key);
        QTest::newRow("json \\u002f") << QString(key).replace(u'/', QStringLiteral("\\u002f"));
        QTest::newRow("json \\u002F") << QString(key).replace(u'/', QStringLiteral("\\u002F"));
        QTest::newRow("json all \\uXXXX") << jsonUnicode(key);
        QTest::newRow("percent-encoded") << QString::fromLatin1(QUrl::toPercentEncoding(key));
        QTest::newRow("percent-encoded, lower-case hex") << QString(key)
                                                                .replace(u'/', QStringLiteral("%2f"))
                                                                .replace(u'+', QStringLiteral("%2b"))
                                                                .replace(u'=', QStringLiteral("%3d"));
        QTest::newRow("percent every char") << QString::fromLatin1(QUrl::toPercentEncoding(key, {}, key.toLatin1()));
        QTest::newRow("minus last 4") << key.left(key.size() - 4);
        QTest::newRow("first 8") << key.left(8);
        QTest::newRow("last 8") << key.right(8);
        QTest::newRow("last 12 percent-encoded") << QString::fromLatin1(QUrl::toPercentEncoding(key.right(12)));
        QTest::newRow("base64") << QString::fromLatin1(kKey.toBase64());
        QTest::newRow("base64 url") << QString::fromLatin1(kKey.toBase64(QByteArray::Base64UrlEncoding));
        QTest::newRow("base64 of 'user:key'") << QString::fromLatin1(QByteArray("user:" + kKey).toBase64());
        QTest::newRow("base64 offset 2") << QString::fromLatin1(QByteArray("ab" + kKey + "x").toBase64());
    }
    void eachFormIsReplaced()
    {
        QFETCH(QString, form);
        const Redactor r({ kKey });
        const QString text = QStringLiteral("error: invalid key \"") + form + QStringLiteral("\" (see docs)");
        const QString out = r.apply(text);
        QVERIFY2(out.contains(Redactor::kPlaceholder), qPrintable(out));
        QVERIFY2(!out.contains(form), qPrintable(out));
        // Nothing of the secret of 8 or more characters in a row survives, raw or decoded.
        const QString decoded = QUrl::fromPercentEncoding(out.toUtf8());
        const QString key = QString::fromUtf8(kKey);
        for (int i = 0; i + 8 <= key.size(); ++i) {
            if (i == 0 || i + 8 == key.size())
                QVERIFY2(!decoded.contains(key.mid(i, 8)), qPrintable(decoded));
        }
        QVERIFY(out.startsWith(QStringLiteral("error: invalid key \"")));
        QVERIFY(out.endsWith(QStringLiteral("\" (see docs)")));
    }

    void bearerAndBasicCredentialsAreReplaced()
    {
        const Redactor none;
        QCOMPARE(none.apply(QStringLiteral("Authorization: Bearer abc.def-ghi")),
            QStringLiteral("Authorization: Bearer ***"));
        QCOMPARE(none.apply(QStringLiteral("authorization: basic dXNlcjpwdw==, next")),
            QStringLiteral("authorization: basic ***, next"));
    }

    void ordinaryTextIsLeftAlone()
    {
        const Redactor r({ kKey, "hdr-secret-value" });
        const QString text = QStringLiteral("HTTP 401: Incorrect API key provided. sk-live is a prefix; 12345678 no.");
        QCOMPARE(r.apply(text), text);
        QCOMPARE(r.apply(QString()), QString());
    }

    void shortAndTrimmedSecrets()
    {
        // Shorter than 4 characters: not looked for. Whitespace around a secret is trimmed too.
        QCOMPARE(Redactor({ "ab" }).apply(QStringLiteral("ab cab")), QStringLiteral("ab cab"));
        QCOMPARE(redactSecret(QStringLiteral("a sk-1 b sk-1"), "sk-1"), QStringLiteral("a *** b ***"));
        QCOMPARE(redactSecret(QStringLiteral("x sk-1 y"), " sk-1\n"), QStringLiteral("x *** y"));
    }

    // Code points outside ASCII and the BMP: still one valid rule, the secret replaced as written
    // and in its \uXXXX form.
    void nonAsciiSecret()
    {
        const QString text = QStringLiteral("cl\u00e9-\U0001F511-\u0441\u0435\u043a\u0440\u0435\u0442-42");
        const Redactor r({ text.toUtf8() });
        QCOMPARE(r.apply(QStringLiteral("k=") + text + QStringLiteral(" ok")), QStringLiteral("k=*** ok"));
        const QString escaped = QStringLiteral("cl\\u00e9-\U0001F511-\\u0441\\u0435\\u043a\\u0440\\u0435\\u0442-42");
        QCOMPARE(r.apply(QStringLiteral("k=") + escaped), QStringLiteral("k=***"));
    }

    void everySecretAndTheBytesForm()
    {
        const Redactor r({ kKey, "header-secret-42" });
        QCOMPARE(r.apply(QByteArray("k=" + kKey + " h=header-secret-42")), QByteArray("k=*** h=***"));
    }
};

QTEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
