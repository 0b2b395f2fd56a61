// SPDX-License-Identifier: MIT
// File → Publish run… and File → Team runs… against a real PostgreSQL (a throwaway cluster,
// tests/integration/teamdb/pgcluster.h): publishing with the password from a variable or the keychain,
// a wrong password shown, listing with filters, and opening a published run into the project.
#include "../../integration/teamdb/teamdbfixture.h"
#include "guitesthelpers.h"
#include "mainwindow.h"
#include "projectsession.h"
#include "publishrundialog.h"
#include "secrets/memorysecretstore.h"
#include "storage/projectstore.h"
#include "teamdbfields.h"
#include "teamrunsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace ServeScope;

namespace {

QPushButton *button(QWidget *dialog, const QString &text)
{
    for (QPushButton *b : dialog->findChildren<QPushButton *>()) {
        if (b->text() == text)
            return b;
    }
    return nullptr;
}

int runCount(const QString &project)
{
    ProjectStore store;
    QVector<RunListing> runs;
    return store.open(project) && store.listRuns(&runs) ? int(runs.size()) : -1;
}

} // namespace

class TestTeamDbDialogs final : public QObject {
    Q_OBJECT

    TeamDbFixture m_fx;
    MemorySecretStore m_secrets;
    QString m_uid;

    void fill(TeamDbFields *fields, const QString &password)
    {
        fields->urlEdit()->setText(m_fx.url());
        fields->passwordEdit()->setText(password);
    }

private Q_SLOTS:
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        const QString problem = m_fx.setUp();
        if (problem.startsWith(QLatin1String("skip: ")))
            QSKIP(qPrintable(problem.mid(6)));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qputenv("TEAM_PW", m_fx.alicePassword.toUtf8());
        qputenv("TEAM_BAD_PW", "not-the-password");
    }

    void publishDialogPublishes()
    {
        PublishRunDialog dialog(m_fx.project, 1, &m_secrets);
        fill(dialog.fields(), QStringLiteral("env:TEAM_PW"));
        dialog.tagsEdit()->setText(QStringLiteral("nightly gui"));
        QSignalSpy published(&dialog, &PublishRunDialog::published);
        button(&dialog, QStringLiteral("&Publish"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(published.size(), 1, 30000);
        m_uid = published.first().first().toString();
        QCOMPARE(m_uid.size(), 64);
        QCOMPARE(dialog.idEdit()->text(), m_uid);
        QVERIFY2(dialog.statusLabel()->text().startsWith(QLatin1String("Published 104 request(s) in 1 try(s)")),
            qPrintable(dialog.statusLabel()->text()));
        QCOMPARE(m_fx.sql(QStringLiteral("SELECT string_agg(tag, ',' ORDER BY tag) FROM run_tags")),
            QStringLiteral("gui,nightly"));
        // Only the reference is remembered.
        QCOMPARE(QSettings().value(QStringLiteral("teamdb/password")).toString(), QStringLiteral("env:TEAM_PW"));
    }

    void keychainPasswordAndWrongPassword()
    {
        QVERIFY(writeSecretBlocking(m_secrets, QStringLiteral("team-db"), m_fx.alicePassword.toUtf8()).ok);
        PublishRunDialog dialog(m_fx.project, 1, &m_secrets);
        fill(dialog.fields(), QStringLiteral("keychain:team-db"));
        QSignalSpy published(&dialog, &PublishRunDialog::published);
        button(&dialog, QStringLiteral("&Publish"))->click();
        QTRY_COMPARE_WITH_TIMEOUT(published.size(), 1, 30000);
        QCOMPARE(published.first().first().toString(), m_uid);
        QVERIFY(dialog.statusLabel()->text().contains(QLatin1String("published before")));

        fill(dialog.fields(), QStringLiteral("env:TEAM_BAD_PW"));
        button(&dialog, QStringLiteral("&Publish"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog.statusLabel()->text().contains(QLatin1String("password authentication failed")), 30000);
        QVERIFY(!dialog.statusLabel()->text().contains(QLatin1String("not-the-password")));
        fill(dialog.fields(), QStringLiteral("hunter2"));
        button(&dialog, QStringLiteral("&Publish"))->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            dialog.statusLabel()->text().contains(QLatin1String("env:VARIABLE or keychain:ENTRY")), 5000);
        QCOMPARE(published.size(), 1);
    }

    void teamRunsListAndOpen()
    {
        const QString target = m_fx.dir.filePath(QStringLiteral("gui-target.servescope"));
        QVERIFY(ProjectStore::create(target, nullptr));
        TeamRunsDialog dialog(target, &m_secrets);
        fill(dialog.fields(), QStringLiteral("env:TEAM_PW"));
        dialog.filterEdit(QStringLiteral("experiment"))->setText(QStringLiteral("nope"));
        dialog.refresh();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.statusLabel()->text() == u"0 published run(s).", 30000);
        dialog.filterEdit(QStringLiteral("experiment"))->clear();
        dialog.filterEdit(QStringLiteral("tags"))->setText(QStringLiteral("gui"));
        dialog.filterEdit(QStringLiteral("since"))->setText(QDate::currentDate().addDays(-1).toString(Qt::ISODate));
        dialog.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(dialog.runsTree()->topLevelItemCount(), 1, 30000);
        QCOMPARE(dialog.runsTree()->topLevelItem(0)->text(8), m_uid);
        QCOMPARE(dialog.runsTree()->topLevelItem(0)->text(2), QStringLiteral("tiny"));
        dialog.runsTree()->topLevelItem(0)->setSelected(true);
        QVERIFY(dialog.openButton()->isEnabled());
        QSignalSpy opened(&dialog, &TeamRunsDialog::opened);
        dialog.openButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 30000);
        QCOMPARE(opened.first().first().toLongLong(), 1);
        QCOMPARE(runCount(target), 1);
        // Opened again: the project holds it already.
        dialog.openButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 2, 30000);
        QCOMPARE(opened.last().first().toLongLong(), 1);
        QCOMPARE(runCount(target), 1);
    }

    void mainWindowOpensIntoTheProject()
    {
        const QString project = m_fx.dir.filePath(QStringLiteral("gui-window.servescope"));
        QVERIFY(ProjectStore::create(project, nullptr));
        MainWindow w(&m_secrets);
        w.show();
        w.openProject(project);
        QTRY_COMPARE_WITH_TIMEOUT(w.session()->path(), project, 10000);
        QAction *teamRuns = nullptr;
        for (QAction *a : w.findChildren<QAction *>()) {
            if (a->text() == u"&Team runs…")
                teamRuns = a;
        }
        QVERIFY(teamRuns);
        teamRuns->trigger();
        auto *dialog = w.findChild<TeamRunsDialog *>();
        QVERIFY(dialog);
        QCOMPARE(dialog->fields()->passwordEdit()->text(), QStringLiteral("env:TEAM_PW")); // remembered
        dialog->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(dialog->runsTree()->topLevelItemCount(), 1, 30000);
        dialog->runsTree()->topLevelItem(0)->setSelected(true);
        dialog->openSelected();
        QTRY_COMPARE_WITH_TIMEOUT(runCount(project), 1, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(w.lastRunId(), 1, 10000);
        dialog->close();
    }
};

QTEST_MAIN(TestTeamDbDialogs)
#include "tst_teamdbdialogs.moc"
