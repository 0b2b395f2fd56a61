// SPDX-License-Identifier: MIT
// Replays every fuzz target's seeds (tests/fuzz/corpora.txt) and the inputs the fuzzers once
// crashed on (tests/data/fuzz-regressions/<target>/) through the fuzz targets' own code, in the
// normal build: a crash that was fixed stays fixed without clang or libFuzzer.
#include "fuzztargets.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace ServeScope;

namespace {

const QString kRoot = QStringLiteral(SERVESCOPE_SOURCE_DIR);

// "tests/data/sse/*.sse" -> the files it matches, sorted.
QStringList expand(const QString &glob)
{
    const qsizetype slash = glob.lastIndexOf(u'/');
    const QDir dir(kRoot + u'/' + glob.first(slash));
    QStringList files;
    for (const QString &name : dir.entryList({ glob.sliced(slash + 1) }, QDir::Files, QDir::Name))
        files << dir.filePath(name);
    return files;
}

// Target name -> its seed globs, from corpora.txt.
QMap<QString, QStringList> seedGlobs()
{
    QMap<QString, QStringList> globs;
    QFile f(kRoot + QStringLiteral("/tests/fuzz/corpora.txt"));
    if (!f.open(QIODevice::ReadOnly))
        return globs;
    for (const QByteArray &raw : f.readAll().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        QStringList words = line.split(u' ', Qt::SkipEmptyParts);
        const QString target = words.takeFirst();
        globs[target] << words;
    }
    return globs;
}

} // namespace

class TestFuzzRegressions final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void everyTargetHasSeeds()
    {
        const QMap<QString, QStringList> globs = seedGlobs();
        QCOMPARE(globs.size(), qsizetype(Fuzz::targets().size()));
        for (const Fuzz::Target &t : Fuzz::targets()) {
            QStringList files;
            for (const QString &g : globs.value(QLatin1String(t.name)))
                files << expand(g);
            QVERIFY2(files.size() >= 2, t.name);
        }
    }

    void replay_data()
    {
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("file");
        const QMap<QString, QStringList> globs = seedGlobs();
        for (qsizetype i = 0; i < qsizetype(Fuzz::targets().size()); ++i) {
            const QString name = QLatin1String(Fuzz::targets()[i].name);
            QStringList files;
            for (const QString &g : globs.value(name))
                files << expand(g);
            files << expand(QStringLiteral("tests/data/fuzz-regressions/") + name + QStringLiteral("/*"));
            for (const QString &file : files) {
                QTest::addRow("%s %s", qPrintable(name), qPrintable(QDir(kRoot).relativeFilePath(file)))
                    << int(i) << file;
            }
        }
    }
    void replay()
    {
        QFETCH(int, target);
        QFETCH(QString, file);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(Fuzz::targets()[target].run(bytes), QString());
    }

    // The split-dependence checks cut inputs into reads of 1..64 bytes, the same way each time.
    void splitterIsDeterministic()
    {
        Fuzz::Splitter a("data: x\n\n"), b("data: x\n\n"), c("data: y\n\n");
        QSet<qsizetype> seen;
        bool differs = false;
        for (int i = 0; i < 2000; ++i) {
            const qsizetype n = a.next();
            QCOMPARE(b.next(), n);
            differs |= c.next() != n;
            QVERIFY(n >= 1 && n <= 64);
            seen.insert(n);
        }
        QCOMPARE(seen.size(), 64);
        QVERIFY(differs);
    }
};

QTEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzzregressions.moc"
