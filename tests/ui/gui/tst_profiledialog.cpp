// SPDX-License-Identifier: MIT
// Creates an endpoint profile through the dialog: the key reaches the real keychain (a throwaway
// gnome-keyring, see KEYCHAIN in tests/CMakeLists.txt) and its bytes appear nowhere in the project.
#include "designpagecontroller.h"
#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "guitesthelpers.h"
#include "mainwindow.h"
#include "profiledialog.h"
#include "projectcontroller.h"
#include "runpagecontroller.h"
#include "secrets/keychainsecretstore.h"
#include "secrets/memorysecretstore.h"
#include "simchild.h"

#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

using namespace ServeScope;

class TestProfileDialog final : public QObject {
    Q_OBJECT
private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral("^(?!This plugin does not support).*"))); }
    void initTestCase()
    {
        TestHelpers::initGuiTest();
        QSettings().clear();
    }
    void keyGoesToKeychainOnly();
    void lockedKeyringOffersSessionOnly();
    void testConnectionExplainsRefusal();
    void testConnectionSaysWhatAnswersMean();
    void closeAsksBeforeDroppingEdits();
    void importsAnEndpointFile();
};

static void fillProfile(ProfileDialog *d, const QString &key)
{
    auto set = [d](const char *name, const QString &text) {
        auto *edit = d->findChild<QLineEdit *>(QString::fromLatin1(name));
        QVERIFY(edit);
        edit->clear();
        QTest::keyClicks(edit, text);
    };
    set("profileName", QStringLiteral("staging vLLM"));
    set("profileBaseUrl", QStringLiteral("http://127.0.0.1:9"));
    set("profileModel", QStringLiteral("Qwen2-7B-Instruct"));
    set("profileKey", key);
}

void TestProfileDialog::keyGoesToKeychainOnly()
{
    KeychainSecretStore secrets(
        QStringLiteral("servescope-test-") + QUuid::createUuid().toString(QUuid::WithoutBraces));
    MainWindow w(&secrets);
    w.project()->newProject(ProjectController::blankExperiment());
    QSignalSpy opened(&w, &MainWindow::projectOpened);
    QTRY_COMPARE_WITH_TIMEOUT(opened.size(), 1, 10000);

    ProfileDialog *d = w.design()->showProfiles();
    d->newProfile();
    const QString key = QStringLiteral("sk-test-") + QUuid::createUuid().toString(QUuid::Id128);
    fillProfile(d, QStringLiteral("  ") + key + QStringLiteral("  "));
    QSignalSpy saved(d, &ProfileDialog::saved);
    QTest::mouseClick(d->findChild<QPushButton *>(QStringLiteral("saveProfileButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 15000);
    QVERIFY2(
        saved.at(0).at(1).toString().contains(QStringLiteral("keychain")), qPrintable(saved.at(0).at(1).toString()));
    QVERIFY(d->findChild<QLineEdit *>(QStringLiteral("profileKey"))->text().isEmpty());

    // The keychain holds the trimmed key under the profile's entry.
    const EndpointProfile profile = w.profiles()->profile(d->currentProfileId());
    QCOMPARE(profile.endpoint.keychainEntry, ProfileStore::keychainEntryFor(profile.id));
    QVERIFY(secrets.availability() == SecretAvailability::Available);
    QByteArray stored;
    bool done = false;
    secrets.read(profile.endpoint.keychainEntry, this, [&](const SecretResult &r) {
        stored = r.secret;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    QCOMPARE(stored, key.toUtf8());

    // Use the profile in the experiment, save the project, and look for the key's bytes anywhere.
    auto *combo = w.findChild<QComboBox *>(QStringLiteral("profileCombo"));
    combo->setCurrentIndex(combo->findData(profile.id));
    QTest::mouseClick(w.findChild<QPushButton *>(QStringLiteral("useProfileButton")), Qt::LeftButton);
    QCOMPARE(w.document()->experiment().endpoint.keychainEntry, profile.endpoint.keychainEntry);
    // The box names the profile the experiment uses, and none once the endpoint is edited away from it.
    QCOMPARE(combo->currentData().toString(), profile.id);
    auto *use = w.findChild<QPushButton *>(QStringLiteral("useProfileButton"));
    QVERIFY(use->isEnabled());
    Experiment edited = w.document()->experiment();
    edited.endpoint.baseUrl = QStringLiteral("http://gateway.example:8080");
    w.document()->apply(edited, QStringLiteral("edit"));
    QCOMPARE(combo->currentData().toString(), QString());
    QVERIFY(!use->isEnabled());
    w.document()->undoStack()->undo();
    QCOMPARE(combo->currentData().toString(), profile.id);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("p.servescope"));
    QSignalSpy projectSaved(&w, &MainWindow::projectSaved);
    w.project()->saveProjectAs(path);
    QTRY_VERIFY_WITH_TIMEOUT(!projectSaved.isEmpty() && projectSaved.constLast().at(0).toString() == path, 15000);
    QCOMPARE(projectSaved.constLast().at(1).toString(), QString());
    QVERIFY(QFile(path).size() > 0);
    QSettings().sync();
    QStringList checked;
    for (const QString &root : { dir.path(), QFileInfo(QSettings().fileName()).absolutePath() }) {
        QDirIterator it(root, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            QFile f(it.next());
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray bytes = f.readAll();
            QVERIFY2(!bytes.contains(key.toUtf8()), qPrintable(f.fileName()));
            checked << f.fileName();
        }
    }
    QVERIFY(checked.size() >= 2); // the project and the settings file
    QVERIFY(QFile(path).open(QIODevice::ReadOnly));
}

void TestProfileDialog::lockedKeyringOffersSessionOnly()
{
    MemorySecretStore secrets;
    secrets.setForcedError(SecretError::Unavailable, QStringLiteral("locked"));
    ProfileStore profiles;
    ProfileDialog d(&profiles, &secrets);
    d.show();
    d.newProfile();
    fillProfile(&d, QStringLiteral("sk-locked"));
    QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("saveProfileButton")), Qt::LeftButton);
    QMessageBox *box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((box = d.findChild<QMessageBox *>(QStringLiteral("sessionOnlyBox"))) != nullptr, 5000);
    QVERIFY(box->text().contains(QStringLiteral("session")));
    QSignalSpy saved(&d, &ProfileDialog::saved);
    secrets.setForcedError(SecretError::None);
    secrets.setAvailability(SecretAvailability::SessionOnly);
    QTest::mouseClick(box->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 5000);
    QVERIFY(secrets.contains(ProfileStore::keychainEntryFor(d.currentProfileId())));
}

void TestProfileDialog::testConnectionExplainsRefusal()
{
    MemorySecretStore secrets;
    ProfileStore profiles;
    ProfileDialog d(&profiles, &secrets);
    d.newProfile();
    fillProfile(&d, QString());
    QSignalSpy tested(&d, &ProfileDialog::testFinished);
    QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("testConnectionButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    const auto r = tested.at(0).at(0).value<PreflightResult>();
    QCOMPARE(r.diagnosis, Diagnosis::ConnectionRefused);
    QVERIFY(!r.usable);
}

// Against a gateway-like simulator (no /tokenize, no /metrics) each answer comes with its meaning and fix.
void TestProfileDialog::testConnectionSaysWhatAnswersMean()
{
    QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
    SimChild sim;
    QVERIFY(sim.start({ QStringLiteral("--model"), QStringLiteral("Qwen2-7B-Instruct"), QStringLiteral("--no-tokenize"),
        QStringLiteral("--no-metrics") }));
    MemorySecretStore secrets;
    ProfileStore profiles;
    ProfileDialog d(&profiles, &secrets);
    d.newProfile();
    fillProfile(&d, QString());
    auto *url = d.findChild<QLineEdit *>(QStringLiteral("profileBaseUrl"));
    url->setText(sim.url().toString());
    QSignalSpy tested(&d, &ProfileDialog::testFinished);
    QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("testConnectionButton")), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    const auto r = tested.at(0).at(0).value<PreflightResult>();
    QVERIFY(r.usable);
    QCOMPARE(r.tokenizeAvailable, 0);
    const QStringList lines = d.findChild<QPlainTextEdit *>(QStringLiteral("testResult"))->toPlainText().split(u'\n');
    const qsizetype tokenize = lines.indexOf(QStringLiteral("/tokenize available: no"));
    QVERIFY2(tokenize >= 0, qPrintable(lines.join(u'\n')));
    QVERIFY2(lines.value(tokenize + 1).contains(QStringLiteral("calibration requests")), qPrintable(lines.join(u'\n')));
    QVERIFY(lines.value(tokenize + 2).trimmed().startsWith(QStringLiteral("Fix: serve /tokenize")));
    const qsizetype metrics = lines.indexOf(QStringLiteral("/metrics available: no"));
    QVERIFY(metrics > tokenize);
    QVERIFY(lines.value(metrics + 2).trimmed().startsWith(QStringLiteral("Fix: ")));
    // A yes answer says what it means and needs no fix.
    const qsizetype usage = lines.indexOf(QStringLiteral("Token usage reported: yes"));
    QVERIFY(usage >= 0);
    QVERIFY(lines.value(usage + 1).contains(QStringLiteral("usage chunk")));
    QVERIFY(!lines.value(usage + 2).trimmed().startsWith(QStringLiteral("Fix:")));
}

void TestProfileDialog::closeAsksBeforeDroppingEdits()
{
    MemorySecretStore secrets;
    ProfileStore profiles;
    ProfileDialog d(&profiles, &secrets);
    d.show();
    d.newProfile();
    QVERIFY(!d.hasUnsavedEdits());
    fillProfile(&d, QStringLiteral("sk-typed-not-saved"));
    QVERIFY(d.hasUnsavedEdits());
    d.reject();
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = d.findChild<QMessageBox *>(QStringLiteral("unsavedProfileBox"))) != nullptr && box->isVisible());
    box->button(QMessageBox::Cancel)->click();
    QTRY_VERIFY(d.findChild<QMessageBox *>(QStringLiteral("unsavedProfileBox")) == nullptr);
    QVERIFY(d.isVisible());
    d.reject();
    QTRY_VERIFY((box = d.findChild<QMessageBox *>(QStringLiteral("unsavedProfileBox"))) != nullptr && box->isVisible());
    box->button(QMessageBox::Discard)->click();
    QTRY_VERIFY(!d.isVisible());
    QVERIFY(d.findChild<QLineEdit *>(QStringLiteral("profileKey"))->text().isEmpty());
}

// Claude Code's settings.json becomes a Messages profile whose key is only in the keychain; choosing another API
// rewrites the path under the gateway's prefix; a placeholder key is not stored and is said.
void TestProfileDialog::importsAnEndpointFile()
{
    KeychainSecretStore secrets(
        QStringLiteral("servescope-test-") + QUuid::createUuid().toString(QUuid::WithoutBraces));
    ProfileStore profiles;
    ProfileDialog d(&profiles, &secrets);
    QSignalSpy saved(&d, &ProfileDialog::saved);
    d.importEndpointFile(QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/claude-settings.json"));
    QTRY_COMPARE_WITH_TIMEOUT(saved.size(), 1, 15000);
    const EndpointProfile p = profiles.profile(d.currentProfileId());
    QCOMPARE(p.endpoint.baseUrl, QStringLiteral("https://gateway.example.com/anthropic"));
    QCOMPARE(p.endpoint.path, QStringLiteral("/v1/messages"));
    QCOMPARE(p.endpoint.model, QStringLiteral("claude-sonnet-4-5"));
    QCOMPARE(p.endpoint.keychainEntry, ProfileStore::keychainEntryFor(p.id));
    QByteArray stored;
    bool done = false;
    secrets.read(p.endpoint.keychainEntry, this, [&](const SecretResult &r) {
        stored = r.secret;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    QCOMPARE(stored, QByteArray("sk-ant-test-0123456789abcdef"));
    auto *api = d.findChild<QComboBox *>(QStringLiteral("profileApi"));
    auto *path = d.findChild<QLineEdit *>(QStringLiteral("profilePath"));
    QCOMPARE(api->currentData().toString(), QStringLiteral("messages"));
    api->setCurrentIndex(api->findData(QStringLiteral("chat")));
    emit api->activated(api->currentIndex());
    QCOMPARE(path->text(), QStringLiteral("/v1/chat/completions"));
    path->setText(QStringLiteral("/gw/v1/responses"));
    QCOMPARE(api->currentData().toString(), QStringLiteral("responses"));

    const qsizetype before = profiles.profiles().size();
    d.importEndpointFile(QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/claude-placeholder.json"));
    QCOMPARE(profiles.profiles().size(), before + 1);
    const EndpointProfile placeholder = profiles.profile(d.currentProfileId());
    QVERIFY(placeholder.endpoint.keychainEntry.isEmpty());
    QVERIFY2(d.findChild<QPlainTextEdit *>(QStringLiteral("testResult"))
                 ->toPlainText()
                 .contains(QStringLiteral("placeholder")),
        qPrintable(d.findChild<QPlainTextEdit *>(QStringLiteral("testResult"))->toPlainText()));

    d.importEndpointFile(QStringLiteral(SERVESCOPE_TEST_DATA "/endpoint-files/unrelated.json"));
    QCOMPARE(profiles.profiles().size(), before + 1);
}

QTEST_MAIN(TestProfileDialog)
#include "tst_profiledialog.moc"
