// SPDX-License-Identifier: MIT
// The team database from the window, against a throwaway PostgreSQL cluster: a run published from
// the project, listed with filters in File → Team runs…, and opened into another project with the
// same statistics; a wrong password is refused without being shown.
#include "requireservice.h"
#include "secrets/memorysecretstore.h"
#include "storage/projectstore.h"
#include "teamdbfixture.h"
#include "teamdbjobs.h"
#include "teamrunsdialog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace ServeScope;

class TestTeamRuns final : public QObject {
    Q_OBJECT

    TeamDbFixture m_fx;
    TeamDbUrl m_url;
    MemorySecretStore m_secrets;

    QVector<PointSummary> summaries(const QString &project, qint64 run)
    {
        ProjectStore store;
        QVector<PointSummary> out;
        if (!store.open(project) || !store.pointSummaries(run, &out))
            qWarning("%s: %s", qPrintable(project), qPrintable(store.errorString()));
        return out;
    }

    static QString status(const TeamRunsDialog &d)
    {
        QString longest;
        for (const QLabel *l : d.findChildren<QLabel *>()) {
            if (l->wordWrap())
                longest = l->text();
        }
        return longest;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("teamdb"));
        const QString problem = m_fx.setUp();
        SERVESCOPE_REQUIRE_SERVICE(!problem.startsWith(QLatin1String("skip: ")), problem.mid(6));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QString error;
        m_url = *TeamDbUrl::parse(m_fx.url(), &error);
        TeamDbJobs jobs(&m_secrets);
        QSignalSpy stored(&jobs, &TeamDbJobs::passwordStored);
        jobs.storePassword(m_url, m_fx.alicePassword.toUtf8());
        QVERIFY(stored.wait(5000));
        QVERIFY(stored.first().at(0).toBool());
    }

    // Publishing from the window's jobs: the stable id, every request, and once only.
    void publishOnceWithEveryRequest()
    {
        TeamDbJobs jobs(&m_secrets);
        QSignalSpy published(&jobs, &TeamDbJobs::published);
        jobs.publish(m_url, m_fx.project, 1);
        QVERIFY(published.wait(60000));
        QCOMPARE(published.first().at(3).toString(), QString());
        const QString uid = published.first().at(0).toString();
        QCOMPARE(uid.size(), 64);
        QCOMPARE(published.first().at(1).toBool(), false);
        QCOMPARE(QString::number(published.first().at(2).toLongLong()),
            m_fx.sql(QStringLiteral("SELECT count(*) FROM requests")));
        jobs.publish(m_url, m_fx.project, 1);
        QVERIFY(published.wait(60000));
        QCOMPARE(published.at(1).at(0).toString(), uid);
        QCOMPARE(published.at(1).at(1).toBool(), true);
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT count(*) FROM runs")), QStringLiteral("1"));
    }

    // The dialog lists what the filters match and opens the chosen run into a project, where its
    // statistics are those of the run that was published.
    void listFilterAndOpen()
    {
        TeamDbJobs::saveUrl(m_fx.url());
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("mine.servescope"));
        TeamRunsDialog dialog(&m_secrets, target);
        auto *table = dialog.findChild<QTableView *>();
        QAbstractItemModelTester sorted(table->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto *sorter = qobject_cast<QSortFilterProxyModel *>(table->model());
        QVERIFY(sorter);
        QAbstractItemModelTester listed(sorter->sourceModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QAbstractItemModel *rows = table->model();
        const auto cell = [rows](int r, int c) { return rows->index(r, c).data().toString(); };
        auto *experiment = dialog.findChildren<QLineEdit *>().at(1);
        QCOMPARE(dialog.findChildren<QLineEdit *>().at(0)->text(), m_fx.url());

        experiment->setText(QStringLiteral("no such experiment"));
        dialog.list();
        QTRY_VERIFY_WITH_TIMEOUT(status(dialog).contains(QStringLiteral("No published run matches")), 30000);
        QCOMPARE(rows->rowCount(), 0);

        // Both runs published: listed oldest first, and sorted by request count as numbers.
        TeamDbJobs jobs(&m_secrets);
        QSignalSpy published(&jobs, &TeamDbJobs::published);
        jobs.publish(m_url, m_fx.project, 2);
        QVERIFY(published.wait(60000));
        experiment->clear();
        dialog.list();
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 2, 30000);
        QCOMPARE(cell(0, TeamRunsModel::Experiment), QStringLiteral("tiny"));
        QCOMPARE(cell(1, TeamRunsModel::Experiment), QStringLiteral("other"));
        table->sortByColumn(TeamRunsModel::Requests, Qt::AscendingOrder);
        QVERIFY2(cell(0, TeamRunsModel::Requests).toLongLong() < cell(1, TeamRunsModel::Requests).toLongLong(),
            qPrintable(cell(0, TeamRunsModel::Requests) + u' ' + cell(1, TeamRunsModel::Requests)));
        QCOMPARE(cell(0, TeamRunsModel::Experiment), QStringLiteral("other"));

        experiment->setText(QStringLiteral("tiny"));
        dialog.list();
        QTRY_COMPARE_WITH_TIMEOUT(rows->rowCount(), 1, 30000);
        QCOMPARE(cell(0, TeamRunsModel::Experiment), QStringLiteral("tiny"));
        QCOMPARE(cell(0, TeamRunsModel::Model), QStringLiteral("m"));
        QCOMPARE(cell(0, TeamRunsModel::Engine), QStringLiteral("vllm"));
        QCOMPARE(cell(0, TeamRunsModel::PublishedBy), QStringLiteral("alice"));

        QSignalSpy pulled(&dialog, &TeamRunsDialog::runsPulled);
        table->selectRow(0);
        QPushButton *open = nullptr;
        for (QPushButton *b : dialog.findChildren<QPushButton *>()) {
            if (b->text().contains(QStringLiteral("Open")))
                open = b;
        }
        QVERIFY(open && open->isEnabled());
        open->click();
        QVERIFY(pulled.wait(60000));
        const QList<qint64> ids = pulled.first().at(0).value<QList<qint64>>();
        QCOMPARE(ids.size(), 1);
        const QVector<PointSummary> mine = summaries(target, ids.first());
        const QVector<PointSummary> theirs = summaries(m_fx.project, 1);
        QCOMPARE(mine.size(), theirs.size());
        QVERIFY(!mine.isEmpty());
        for (int i = 0; i < mine.size(); ++i) {
            QCOMPARE(mine[i].completed, theirs[i].completed);
            QCOMPARE(mine[i].ttft.median, theirs[i].ttft.median);
            QCOMPARE(mine[i].tpot.p99, theirs[i].tpot.p99);
            QCOMPARE(mine[i].outputThroughput, theirs[i].outputThroughput);
        }

        // Opened again: the project has that run already (same stable id), so no second copy.
        open->click();
        QVERIFY(pulled.wait(60000));
        QCOMPARE(pulled.at(1).at(0).value<QList<qint64>>(), ids);
    }

    void wrongPasswordIsRefusedUnshown()
    {
        const QByteArray wrong = "not-alices-password-123";
        TeamDbJobs jobs(&m_secrets);
        QSignalSpy stored(&jobs, &TeamDbJobs::passwordStored);
        jobs.storePassword(m_url, wrong);
        QVERIFY(stored.wait(5000));
        TeamRunsDialog dialog(&m_secrets, QString());
        dialog.list();
        QTRY_VERIFY_WITH_TIMEOUT(status(dialog).contains(QStringLiteral("could not be read")), 30000);
        QVERIFY2(!status(dialog).contains(QString::fromLatin1(wrong)), qPrintable(status(dialog)));
        QCOMPARE(dialog.findChild<QTableView *>()->model()->rowCount(), 0);
        jobs.storePassword(m_url, m_fx.alicePassword.toUtf8());
        QVERIFY(stored.wait(5000));
    }
};

QTEST_MAIN(TestTeamRuns)
#include "tst_teamruns.moc"
