// SPDX-License-Identifier: MIT
#include "profiledialog.h"

#include "secrets/secretheaders.h"

#include "apichoice.h"
#include "diagnosistext.h"
#include "filedialogs.h"
#include "io/endpointfiles.h"
#include "keyvaluetable.h"
#include "screenfit.h"
#include "secrets/apikey.h"
#include "secrets/keychainsecretstore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QUrl>
#include <QVBoxLayout>

namespace ServeScope {

ProfileDialog::ProfileDialog(ProfileStore *profiles, SecretStore *secrets, QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles)
    , m_secrets(secrets)
    , m_list(new QListWidget)
    , m_name(new QLineEdit)
    , m_baseUrl(new QLineEdit)
    , m_path(new QLineEdit)
    , m_model(new QLineEdit)
    , m_proxy(new QLineEdit)
    , m_caFile(new QLineEdit)
    , m_keyEnv(new QLineEdit)
    , m_key(new QLineEdit)
    , m_api(new QComboBox)
    , m_dialect(new QComboBox)
    , m_protocol(new QComboBox)
    , m_skipVerify(new QCheckBox(tr("Do not verify the server's certificate (said in every report)")))
    , m_headers(new KeyValueTable(tr("Header"), tr("Value")))
    , m_keyState(new QLabel)
    , m_status(new QLabel)
    , m_result(new QPlainTextEdit)
    , m_save(new QPushButton(tr("Save profile")))
    , m_test(new QPushButton(tr("Test connection")))
    , m_delete(new QPushButton(tr("Delete")))
{
    setWindowTitle(tr("Endpoint profiles"));
    setUpFields();
    QWidget *left = buildListPane();
    // The form scrolls when the screen is shorter than it: the Close button stays on screen.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("profileFormScroll"));
    scroll->setWidget(buildForm());
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *split = new QSplitter;
    split->setChildrenCollapsible(false);
    split->addWidget(left);
    split->addWidget(scroll);
    split->setStretchFactor(1, 3);
    auto *close = new QDialogButtonBox(QDialogButtonBox::Close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(close);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_delete, &QPushButton::clicked, this, &ProfileDialog::deleteCurrent);
    connect(m_save, &QPushButton::clicked, this, &ProfileDialog::saveCurrent);
    connect(m_test, &QPushButton::clicked, this, &ProfileDialog::testConnection);
    // The path's end names the API: choosing an API rewrites the path, editing the path moves the choice.
    connect(m_api, &QComboBox::activated, this, [this] {
        Api a;
        if (parseApi(m_api->currentData().toString(), &a))
            m_path->setText(pathWithApi(m_path->text().trimmed(), a));
    });
    connect(m_path, &QLineEdit::textChanged, this, [this](const QString &path) {
        const QSignalBlocker block(m_api);
        m_api->setCurrentIndex(m_api->findData(apiName(apiForPath(path.trimmed()))));
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (QListWidgetItem *item = m_list->item(row))
            showProfile(item->data(Qt::UserRole).toString());
    });
    reloadList();
    fitWindowToScreen(this, QSize(860, 680));
}

void ProfileDialog::setUpFields()
{
    const QList<QPair<QWidget *, const char *>> names { { m_name, "profileName" }, { m_baseUrl, "profileBaseUrl" },
        { m_path, "profilePath" }, { m_model, "profileModel" }, { m_key, "profileKey" },
        { m_save, "saveProfileButton" }, { m_test, "testConnectionButton" }, { m_list, "profileList" },
        { m_keyEnv, "profileKeyEnv" }, { m_result, "testResult" }, { m_api, "profileApi" } };
    for (const auto &n : names)
        n.first->setObjectName(QString::fromLatin1(n.second));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("paste a new key to store it in the keychain"));
    m_baseUrl->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000"));
    m_proxy->setPlaceholderText(tr("host:port (empty: none)"));
    m_keyEnv->setPlaceholderText(tr("or read the key from this environment variable"));
    addApiItems(m_api);
    m_api->setToolTip(tr("The API the requests speak: it sets the path, whose end names it."));
    m_dialect->addItem(QStringLiteral("vLLM"), QStringLiteral("vllm"));
    m_dialect->addItem(QStringLiteral("SGLang"), QStringLiteral("sglang"));
    m_dialect->addItem(tr("OpenAI (strict)"), QStringLiteral("openai-strict"));
    m_protocol->addItem(QStringLiteral("HTTP/1.1"), QStringLiteral("http1"));
    m_protocol->addItem(QStringLiteral("HTTP/2"), QStringLiteral("http2"));
    m_keyState->setWordWrap(true);
    m_status->setWordWrap(true);
    m_result->setReadOnly(true);
    m_result->setPlaceholderText(tr("Connection test results appear here."));
    // Every answer of a test comes with its meaning and fix: the result gets the room, the header table a few rows.
    m_result->setMinimumHeight(fontMetrics().lineSpacing() * 11);
    m_headers->setMaximumHeight(fontMetrics().lineSpacing() * 10);
    m_caFile->setPlaceholderText(tr("https: PEM file of the certificate authorities to trust (empty: the system's)"));
}

QWidget *ProfileDialog::buildListPane()
{
    auto *left = new QWidget;
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list);
    auto *add = new QPushButton(tr("New profile"));
    auto *import = new QPushButton(tr("Import…"));
    import->setObjectName(QStringLiteral("importEndpointButton"));
    import->setToolTip(tr("A new profile from Claude Code's settings.json, Codex's auth.json or config.toml, or a "
                          ".env file: the base URL, API, model and key they hold"));
    auto *leftButtons = new QHBoxLayout;
    leftButtons->addWidget(add);
    leftButtons->addWidget(import);
    leftButtons->addWidget(m_delete);
    leftLayout->addLayout(leftButtons);
    connect(add, &QPushButton::clicked, this, &ProfileDialog::newProfile);
    connect(import, &QPushButton::clicked, this, [this] {
        chooseFile(this, false, tr("Import endpoint"), tr("Endpoint files (*.json *.toml *.env .env*);;All files (*)"),
            [this](const QString &path) { importEndpointFile(path); });
    });
    return left;
}

QWidget *ProfileDialog::buildForm()
{
    auto *right = new QWidget;
    auto *form = new QFormLayout(right);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Base URL"), m_baseUrl);
    form->addRow(tr("API"), m_api);
    form->addRow(tr("Path"), m_path);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Dialect"), m_dialect);
    form->addRow(tr("Protocol"), m_protocol);
    form->addRow(tr("Proxy"), m_proxy);
    form->addRow(tr("CA file"), m_caFile);
    form->addRow(QString(), m_skipVerify);
    form->addRow(tr("Extra headers"), m_headers);
    form->addRow(tr("API key"), m_key);
    form->addRow(QString(), m_keyState);
    form->addRow(tr("Key variable"), m_keyEnv);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_save);
    actions->addWidget(m_test);
    actions->addStretch();
    form->addRow(actions);
    form->addRow(m_status);
    form->addRow(m_result);
    return right;
}

void ProfileDialog::reloadList()
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const EndpointProfile &p : m_profiles->profiles()) {
        auto *item = new QListWidgetItem(p.name, m_list);
        item->setData(Qt::UserRole, p.id);
        if (p.id == m_currentId)
            m_list->setCurrentItem(item);
    }
    if (m_currentId.isEmpty() && m_list->count() > 0) {
        m_list->setCurrentRow(0);
        showProfile(m_list->item(0)->data(Qt::UserRole).toString());
    }
}

void ProfileDialog::selectProfile(const QString &id)
{
    m_currentId = id;
    reloadList();
    showProfile(id);
}

void ProfileDialog::showProfile(const QString &id)
{
    const EndpointProfile p = m_profiles->profile(id);
    m_currentId = p.id;
    const Endpoint &e = p.endpoint;
    m_name->setText(p.name);
    m_baseUrl->setText(e.baseUrl);
    m_path->setText(e.path);
    m_model->setText(e.model);
    m_dialect->setCurrentIndex(m_dialect->findData(dialectName(e.dialect)));
    m_protocol->setCurrentIndex(m_protocol->findData(protocolName(e.protocol)));
    m_proxy->setText(e.proxy);
    m_caFile->setText(e.caFile);
    m_skipVerify->setChecked(e.tlsSkipVerify);
    m_keyEnv->setText(e.apiKeyEnv);
    OrderedValues headers;
    for (const auto &h : e.headers)
        headers.set(h.first, QJsonValue(h.second));
    m_headers->setValues(headers);
    m_key->clear();
    m_keyState->setText(p.builtIn       ? tr("The local simulator needs no key: ServeScope starts it for each run.")
            : e.keychainEntry.isEmpty() ? tr("No key stored.")
            : m_secrets->availability() == SecretAvailability::SessionOnly
            ? tr("A key is kept in memory for this profile, for this session only.")
            : tr("A key is stored in the system keychain for this profile."));
    for (QWidget *w : std::initializer_list<QWidget *> { m_name, m_baseUrl, m_api, m_path, m_model, m_dialect,
             m_protocol, m_proxy, m_caFile, m_skipVerify, m_keyEnv, m_key, m_headers, m_save, m_delete })
        w->setEnabled(!p.builtIn);
    m_result->clear();
    setStatus({});
}

void ProfileDialog::newProfile()
{
    EndpointProfile p;
    p.name = tr("New endpoint");
    p.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:8000");
    m_currentId = m_profiles->save(p);
    reloadList();
    showProfile(m_currentId);
    m_name->setFocus();
    m_name->selectAll();
}

void ProfileDialog::importEndpointFile(const QString &path)
{
    const EndpointFileRead read = readEndpointFile(path);
    const QString file = QFileInfo(path).fileName();
    if (!read.ok) {
        setStatus(tr("%1 was not imported: %2").arg(file, read.shownLine(read.error)), true);
        return;
    }
    EndpointProfile p;
    const QString host = QUrl(read.endpoint.baseUrl).host();
    p.name = tr("%1 (from %2)").arg(host.isEmpty() ? read.endpoint.baseUrl : host, file);
    p.endpoint = read.endpoint;
    m_currentId = m_profiles->save(p);
    p.id = m_currentId;
    reloadList();
    showProfile(m_currentId);
    QStringList notes = read.shownLines(read.notes);
    if (read.keyIsPlaceholder)
        notes << tr("The key in the file is a placeholder: paste the real key below and save.");
    else if (!read.endpoint.apiKeyEnv.isEmpty())
        notes << tr("The key is read from the environment variable %1 when a run starts.").arg(read.endpoint.apiKeyEnv);
    m_result->setPlainText(notes.join(u'\n'));
    if (read.key.isEmpty())
        setStatus(tr("Imported from %1.").arg(file));
    else
        storeKey(p, read.key, false, notes); // says where the key went
}

void ProfileDialog::deleteCurrent()
{
    const EndpointProfile p = m_profiles->profile(m_currentId);
    if (p.id.isEmpty() || p.builtIn)
        return;
    if (!p.endpoint.keychainEntry.isEmpty())
        m_secrets->remove(p.endpoint.keychainEntry, this, [](const SecretResult &) {});
    m_profiles->remove(p.id);
    m_currentId.clear();
    reloadList();
}

bool ProfileDialog::hasUnsavedEdits() const
{
    if (m_currentId.isEmpty())
        return false;
    const EndpointProfile stored = m_profiles->profile(m_currentId);
    if (stored.builtIn)
        return false;
    const EndpointProfile shown = formProfile();
    return !m_key->text().isEmpty() || shown.name != stored.name || !(shown.endpoint == stored.endpoint);
}

void ProfileDialog::reject()
{
    if (!hasUnsavedEdits()) {
        QDialog::reject();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Unsaved profile"),
        tr("The profile \"%1\" has changes that are not saved.").arg(m_name->text()),
        QMessageBox::Discard | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("unsavedProfileBox"));
    box->setInformativeText(tr("Discard them? Save profile keeps them (and a typed key goes to the keychain)."));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box] {
        if (box->standardButton(box->clickedButton()) == QMessageBox::Discard) {
            m_key->clear();
            QDialog::reject();
        }
    });
    box->open();
}

EndpointProfile ProfileDialog::formProfile() const
{
    EndpointProfile p = m_profiles->profile(m_currentId);
    p.name = m_name->text().trimmed();
    Endpoint &e = p.endpoint;
    e.baseUrl = m_baseUrl->text().trimmed();
    e.path = m_path->text().trimmed();
    e.model = m_model->text().trimmed();
    parseDialect(m_dialect->currentData().toString(), &e.dialect);
    parseProtocol(m_protocol->currentData().toString(), &e.protocol);
    e.proxy = m_proxy->text().trimmed();
    e.caFile = m_caFile->text().trimmed();
    e.tlsSkipVerify = m_skipVerify->isChecked();
    e.apiKeyEnv = m_keyEnv->text().trimmed();
    e.headers.clear();
    const OrderedValues headers = m_headers->values();
    for (const auto &item : headers.items())
        e.headers.append({ item.first, KeyValueTable::formatValue(item.second) });
    return p;
}

void ProfileDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void ProfileDialog::saveCurrent()
{
    EndpointProfile p = formProfile();
    if (p.builtIn || p.id.isEmpty())
        return;
    const TrimmedKey key = trimKey(QStringView(m_key->text()));
    m_key->clear(); // the key leaves the widget at once; only the keychain keeps it
    if (key.key.isEmpty()) {
        m_profiles->save(p);
        reloadList();
        emit saved(p.id, QString());
        return;
    }
    storeKey(p, key.key, key.trimmed);
}

void ProfileDialog::storeKey(
    const EndpointProfile &profile, const QByteArray &key, bool trimmed, const QStringList &notes)
{
    const QString entry = ProfileStore::keychainEntryFor(profile.id);
    setStatus(tr("Storing the key in the system keychain…"));
    m_secrets->write(entry, key, this, [this, profile, key, trimmed, entry, notes](const SecretResult &r) {
        if (!r.ok && (r.error == SecretError::Unavailable || r.error == SecretError::Timeout)) {
            offerSessionOnly(profile, key, secretErrorText(r.error));
            return;
        }
        EndpointProfile p = profile;
        QString outcome;
        if (r.ok) {
            p.endpoint.keychainEntry = entry;
            outcome = r.sessionOnly ? tr("The key is kept in memory for this session only.")
                                    : tr("The key is stored in the system keychain.");
            if (trimmed)
                outcome += QLatin1Char(' ') + tr("Spaces or line breaks around the pasted key were removed.");
        } else {
            outcome = tr("The key could not be stored: %1").arg(secretErrorText(r.error));
        }
        m_profiles->save(p);
        reloadList();
        showProfile(p.id);
        m_result->setPlainText(notes.join(u'\n'));
        setStatus(outcome, !r.ok);
        emit saved(p.id, outcome);
    });
}

void ProfileDialog::offerSessionOnly(const EndpointProfile &profile, const QByteArray &key, const QString &why)
{
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Keychain not available"),
        tr("%1\n\nServeScope never writes keys to disk. Keep this key in memory for this session only? "
           "You will need to enter it again after restarting.")
            .arg(why),
        QMessageBox::Yes | QMessageBox::No, this);
    box->setObjectName(QStringLiteral("sessionOnlyBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, box, profile, key, why](int) {
        if (box->clickedButton() == box->button(QMessageBox::Yes)) {
            if (auto *keychain = qobject_cast<KeychainSecretStore *>(m_secrets))
                keychain->useSessionOnly(why);
            storeKey(profile, key, false);
        } else {
            m_profiles->save(profile);
            setStatus(tr("The profile was saved without a key."), true);
            emit saved(profile.id, m_status->text());
        }
    });
    box->open();
}

void ProfileDialog::testConnection()
{
    const EndpointProfile p = formProfile();
    if (p.endpoint.isLocalSimulator()) {
        m_result->setPlainText(
            tr("The local simulator is started by ServeScope when a run begins, so there is nothing to test."));
        return;
    }
    const TrimmedKey typed = trimKey(QStringView(m_key->text()));
    if (!typed.key.isEmpty()) {
        runPreflight(p, typed.key, typed.trimmed, true);
        return;
    }
    const KeyReference ref = KeyReference::forEndpoint(p.endpoint);
    if (ref.isNull()) {
        runPreflight(p, {}, false);
        return;
    }
    setStatus(tr("Reading the key…"));
    resolveApiKey(ref, *m_secrets, this, [this, p](const SecretResult &r) {
        if (!r.ok) {
            setStatus(secretErrorText(r.error), true);
            return;
        }
        runPreflight(p, r.secret, r.trimmed);
    });
}

void ProfileDialog::runPreflight(const EndpointProfile &profile, const QByteArray &key, bool trimmed, bool typed)
{
    if (m_preflight)
        m_preflight->abort();
    // The endpoint reached as a run reaches it (PreflightRequest::of, the run's reading).
    PreflightRequest req = PreflightRequest::of(profile.endpoint, key);
    req.keyHadWhitespace = trimmed;
    req.smoke = true; // /tokenize, /metrics and ignore_eos too: each answer says what it means for a run
    QString headerError;
    SecretHeaders headers;
    if (!readSecretHeaders(
            profile.endpoint.headerEnv, QStringLiteral("endpoint.header_env."), &headers, &headerError)) {
        setStatus(connectionOutcome(false), true);
        m_result->setPlainText(headerError);
        return;
    }
    addSecretHeaders(&req.endpoint, headers);
    auto *preflight = new Preflight(req, this);
    m_preflight = preflight;
    m_test->setEnabled(false);
    setStatus(tr("Testing the connection…"));
    connect(preflight, &Preflight::finished, this, [this, preflight, typed](const PreflightResult &r) {
        m_test->setEnabled(true);
        setStatus(connectionOutcome(r.usable), !r.usable);
        QString summary = preflightSummary(r);
        // The test used the key in the field, not a stored one: say so.
        if (typed && r.diagnosis == Diagnosis::Auth)
            summary.replace(diagnosisText(Diagnosis::Auth),
                tr("The server refused the key typed in the key field (it is not saved yet). Check it, then save "
                   "the profile to keep it in the keychain."));
        m_result->setPlainText(summary);
        preflight->deleteLater();
        emit testFinished(r);
    });
    preflight->start();
}

} // namespace ServeScope
