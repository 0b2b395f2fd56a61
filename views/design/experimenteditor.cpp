// SPDX-License-Identifier: MIT
#include "experimenteditor.h"

#include "apichoice.h"
#include "endpointprofiles.h"
#include "experimentdocument.h"
#include "formbinder.h"
#include "keyvaluetable.h"
#include "loadtab.h"
#include "run/durationestimate.h"
#include "servertab.h"
#include "variantstab.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ServeScope {

ExperimentEditor::ExperimentEditor(ExperimentDocument *document, ProfileStore *profiles, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_profiles(profiles)
    , m_binder(new FormBinder(document, this))
    , m_tabs(new QTabWidget(this))
    , m_server(new ServerTab(document))
    , m_load(new LoadTab(document))
    , m_variants(new VariantsTab(document))
    , m_summary(new QLabel(this))
{
    m_tabs->setObjectName(QStringLiteral("editorTabs"));
    // Every page scrolls, so the editor fits a laptop screen whatever a page holds.
    const auto scrolled = [](QWidget *page) {
        auto *area = new QScrollArea;
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(page);
        return area;
    };
    m_tabs->addTab(scrolled(endpointTab()), tr("Endpoint"));
    m_tabs->addTab(scrolled(m_server), tr("Server && environment"));
    m_tabs->addTab(scrolled(m_load), tr("Load"));
    m_tabs->addTab(scrolled(metricsTab()), tr("Metrics"));
    m_tabs->addTab(scrolled(m_variants), tr("Variants"));
    m_summary->setObjectName(QStringLiteral("editorSummary"));
    m_summary->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_summary);
    connect(document, &ExperimentDocument::changed, this, &ExperimentEditor::refresh);
    connect(profiles, &ProfileStore::changed, this, &ExperimentEditor::reloadProfiles);
    reloadProfiles();
    refresh();
}

void ExperimentEditor::showTab(QWidget *page)
{
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (auto *area = qobject_cast<QScrollArea *>(m_tabs->widget(i)); area && area->widget() == page)
            m_tabs->setCurrentIndex(i);
    }
}

void ExperimentEditor::setTimeScale(double scale)
{
    m_timeScale = scale;
    refresh();
}

QWidget *ExperimentEditor::endpointTab()
{
    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->addLayout(profileRow());
    auto *box = new QGroupBox(tr("Endpoint of this experiment"));
    auto *form = new QFormLayout(box);
    addAddressRows(form);
    addAccessRows(form);
    layout->addWidget(box);
    // The same check as the profiles dialog's and the one a run makes first, on this experiment's endpoint.
    auto *testRow = new QHBoxLayout;
    m_test = new QPushButton(tr("Test connection"));
    m_test->setObjectName(QStringLiteral("endpointTestButton"));
    m_testResult = new QLabel;
    m_testResult->setObjectName(QStringLiteral("endpointTestResult"));
    m_testResult->setWordWrap(true);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    testRow->addWidget(m_test, 0, Qt::AlignTop);
    testRow->addWidget(m_testResult, 1);
    connect(m_test, &QPushButton::clicked, this, &ExperimentEditor::testConnectionRequested);
    layout->addLayout(testRow);
    layout->addStretch();
    return page;
}

void ExperimentEditor::showConnectionResult(const QString &text, bool works)
{
    m_test->setEnabled(!text.isEmpty());
    m_testResult->setText(text.isEmpty() ? tr("Testing the connection…") : text);
    m_testResult->setStyleSheet(text.isEmpty() || works ? QString() : QStringLiteral("color: #b00020;"));
}

QHBoxLayout *ExperimentEditor::profileRow()
{
    auto *row = new QHBoxLayout;
    m_profileCombo = new QComboBox;
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    auto *apply = new QPushButton(tr("Use profile"));
    apply->setObjectName(QStringLiteral("useProfileButton"));
    m_useProfile = apply;
    connect(m_profileCombo, &QComboBox::currentIndexChanged, this,
        [this] { m_useProfile->setEnabled(!m_profileCombo->currentData().toString().isEmpty()); });
    auto *manage = new QPushButton(tr("Manage profiles…"));
    row->addWidget(new QLabel(tr("Profile")));
    row->addWidget(m_profileCombo, 1);
    row->addWidget(apply);
    row->addWidget(manage);
    connect(apply, &QPushButton::clicked, this, &ExperimentEditor::applyProfile);
    connect(manage, &QPushButton::clicked, this, &ExperimentEditor::manageProfilesRequested);
    return row;
}

void ExperimentEditor::addLineRow(QFormLayout *form, const QString &label, const char *name, const char *path,
    const QString &undo, QString Endpoint::*field, const QString &placeholder)
{
    auto *w = new QLineEdit;
    w->setObjectName(QString::fromLatin1(name));
    w->setPlaceholderText(placeholder);
    form->addRow(label,
        m_binder->bindLine(
            w, QString::fromLatin1(path), undo, [field](const Experiment &e) { return e.endpoint.*field; },
            [field](Experiment &e, const QString &v) { e.endpoint.*field = v.trimmed(); }));
}

void ExperimentEditor::addAddressRows(QFormLayout *form)
{
    auto *name = new QLineEdit;
    name->setObjectName(QStringLiteral("experimentName"));
    form->addRow(tr("Experiment name"),
        m_binder->bindLine(
            name, QStringLiteral("name"), tr("Rename experiment"), [](const Experiment &e) { return e.name; },
            [](Experiment &e, const QString &v) { e.name = v; }));
    addLineRow(form, tr("Base URL"), "baseUrl", "endpoint.base_url", tr("Change base URL"), &Endpoint::baseUrl,
        tr("http://host:8000, or sim: for the local simulator"));
    auto *api = new QComboBox;
    api->setObjectName(QStringLiteral("api"));
    api->setToolTip(tr("The API the requests speak: it sets the path, whose end names it."));
    addApiItems(api);
    form->addRow(tr("API"),
        m_binder->bindCombo(
            api, QStringLiteral("endpoint.api"), tr("Change API"),
            [](const Experiment &e) { return apiName(e.endpoint.api()); },
            [](Experiment &e, const QString &v) {
                Api a;
                if (parseApi(v, &a))
                    e.endpoint.path = pathWithApi(e.endpoint.path, a);
            }));
    addLineRow(form, tr("Path"), "path", "endpoint.path", tr("Change path"), &Endpoint::path);
    addLineRow(form, tr("Model"), "model", "endpoint.model", tr("Change model"), &Endpoint::model);
    auto *dialect = new QComboBox;
    dialect->addItem(QStringLiteral("vLLM"), QStringLiteral("vllm"));
    dialect->addItem(QStringLiteral("SGLang"), QStringLiteral("sglang"));
    dialect->addItem(tr("OpenAI (strict)"), QStringLiteral("openai-strict"));
    form->addRow(tr("Dialect"),
        m_binder->bindCombo(
            dialect, QStringLiteral("endpoint.dialect"), tr("Change dialect"),
            [](const Experiment &e) { return dialectName(e.endpoint.dialect); },
            [](Experiment &e, const QString &v) { parseDialect(v, &e.endpoint.dialect); }));
    auto *protocol = new QComboBox;
    protocol->addItem(QStringLiteral("HTTP/1.1"), QStringLiteral("http1"));
    protocol->addItem(QStringLiteral("HTTP/2"), QStringLiteral("http2"));
    form->addRow(tr("Protocol"),
        m_binder->bindCombo(
            protocol, QStringLiteral("endpoint.protocol"), tr("Change protocol"),
            [](const Experiment &e) { return protocolName(e.endpoint.protocol); },
            [](Experiment &e, const QString &v) { parseProtocol(v, &e.endpoint.protocol); }));
}

void ExperimentEditor::addAccessRows(QFormLayout *form)
{
    addLineRow(form, tr("Proxy"), "proxy", "endpoint.proxy", tr("Change proxy"), &Endpoint::proxy,
        tr("host:port (empty: none)"));
    addLineRow(form, tr("CA file"), "caFile", "endpoint.ca_file", tr("Change CA file"), &Endpoint::caFile,
        tr("https: PEM file of the certificate authorities to trust (empty: the system's)"));
    auto *skipVerify = new QCheckBox(tr("Do not verify the server's certificate (said in every report)"));
    skipVerify->setObjectName(QStringLiteral("tlsSkipVerify"));
    form->addRow(QString(),
        m_binder->bindCheck(
            skipVerify, QStringLiteral("endpoint.tls_skip_verify"), tr("Toggle certificate verification"),
            [](const Experiment &e) { return e.endpoint.tlsSkipVerify; },
            [](Experiment &e, bool v) { e.endpoint.tlsSkipVerify = v; }));
    addLineRow(form, tr("API key variable"), "apiKeyEnv", "endpoint.api_key_env", tr("Change API key variable"),
        &Endpoint::apiKeyEnv, tr("name of an environment variable, e.g. OPENAI_API_KEY"));
    m_keyLabel = new QLabel;
    m_keyLabel->setWordWrap(true);
    form->addRow(tr("Keychain"), m_keyLabel);
    m_headers = new KeyValueTable(tr("Header"), tr("Value"));
    form->addRow(tr("Extra headers"), m_binder->problemSlot(m_headers, QStringLiteral("endpoint.headers")));
    connect(m_headers, &KeyValueTable::valuesEdited, this, [this](const OrderedValues &v) {
        Experiment e = m_document->experiment();
        e.endpoint.headers.clear();
        for (const auto &item : v.items())
            e.endpoint.headers.append({ item.first, KeyValueTable::formatValue(item.second) });
        m_document->apply(e, tr("Edit extra headers"));
    });
}

QWidget *ExperimentEditor::metricsTab()
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    auto *percentiles = new QLineEdit;
    percentiles->setObjectName(QStringLiteral("percentiles"));
    form->addRow(tr("Percentiles"),
        m_binder->bindLine(
            percentiles, QStringLiteral("metrics.percentiles"), tr("Change percentiles"),
            [](const Experiment &e) {
                QStringList parts;
                for (double p : e.metrics.percentiles)
                    parts << formatNumber(p);
                return parts.join(QStringLiteral(", "));
            },
            [](Experiment &e, const QString &v) {
                QList<double> out;
                for (const QString &part : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    bool ok = false;
                    const double p = part.trimmed().toDouble(&ok);
                    if (ok)
                        out.append(p);
                }
                e.metrics.percentiles = out;
            }));
    struct Slo {
        const char *path;
        QString label;
        std::optional<double> Goodput::*field;
    };
    for (const Slo &slo : { Slo { "metrics.goodput.ttft_ms", tr("Goodput SLO: TTFT"), &Goodput::ttftMs },
             Slo { "metrics.goodput.tpot_ms", tr("Goodput SLO: TPOT"), &Goodput::tpotMs },
             Slo { "metrics.goodput.e2el_ms", tr("Goodput SLO: E2EL"), &Goodput::e2elMs } }) {
        auto *spin = new QDoubleSpinBox;
        spin->setRange(0, 1e7);
        spin->setDecimals(1);
        spin->setSuffix(tr(" ms"));
        spin->setSpecialValueText(tr("none"));
        auto field = slo.field;
        form->addRow(slo.label,
            m_binder->bindDouble(
                spin, QString::fromLatin1(slo.path), tr("Change goodput SLO"),
                [field](const Experiment &e) { return (e.metrics.goodput.*field).value_or(0.0); },
                [field](Experiment &e, double v) {
                    e.metrics.goodput.*field = v > 0 ? std::optional<double>(v) : std::nullopt;
                }));
    }
    auto *definitions = new QComboBox;
    definitions->addItem(tr("vLLM (vllm bench serve)"), QStringLiteral("vllm"));
    definitions->addItem(tr("SGLang (bench_serving)"), QStringLiteral("sglang"));
    form->addRow(tr("Definitions profile"),
        m_binder->bindCombo(
            definitions, QStringLiteral("metrics.definitions"), tr("Change definitions profile"),
            [](const Experiment &e) { return definitionsName(e.metrics.definitions); },
            [](Experiment &e, const QString &v) { parseDefinitions(v, &e.metrics.definitions); }));
    return page;
}

void ExperimentEditor::reloadProfiles()
{
    m_profileCombo->clear();
    // The first entry stands for an endpoint no profile holds, so the box never names a profile
    // the experiment does not use.
    m_profileCombo->addItem(tr("Choose a profile…"), QString());
    for (const EndpointProfile &p : m_profiles->profiles())
        m_profileCombo->addItem(p.name, p.id);
    showMatchingProfile();
}

void ExperimentEditor::showMatchingProfile()
{
    const Endpoint &now = m_document->experiment().endpoint;
    int match = 0;
    for (int i = 1; i < m_profileCombo->count() && match == 0; ++i) {
        const Endpoint p = m_profiles->profile(m_profileCombo->itemData(i).toString()).endpoint;
        if (p.baseUrl == now.baseUrl && p.model == now.model && p.keychainEntry == now.keychainEntry)
            match = i;
    }
    m_profileCombo->setCurrentIndex(match); // Use profile follows the selection (currentIndexChanged)
}

void ExperimentEditor::applyProfile()
{
    const EndpointProfile p = m_profiles->profile(m_profileCombo->currentData().toString());
    if (p.id.isEmpty())
        return;
    Experiment e = m_document->experiment();
    e.endpoint = p.endpoint;
    m_document->apply(e, tr("Use endpoint profile \"%1\"").arg(p.name));
}

void ExperimentEditor::refresh()
{
    const Experiment &e = m_document->experiment();
    m_binder->refresh();
    m_binder->showProblems(m_document->problems());
    showMatchingProfile();
    m_server->refresh();
    m_load->refresh();
    m_variants->refresh();
    OrderedValues headers;
    for (const auto &h : e.endpoint.headers)
        headers.set(h.first, QJsonValue(h.second));
    m_headers->setValues(headers);
    m_keyLabel->setText(e.endpoint.keychainEntry.isEmpty()
            ? tr("no key in the keychain (use a profile to attach one)")
            : tr("key stored in the OS keychain as \"%1\"").arg(e.endpoint.keychainEntry));
    int errors = 0, warnings = 0;
    for (const Problem &p : m_document->problems())
        (p.isError() ? errors : warnings)++;
    const DurationEstimate est = estimateDuration(e, e.endpoint.isLocalSimulator() ? m_timeScale : 1.0);
    QStringList parts;
    if (errors > 0)
        parts << tr("<span style=\"color:#b00020\">%n problem(s) to fix before running</span>", nullptr, errors);
    if (warnings > 0)
        parts << tr("<span style=\"color:#8a5a00\">%n warning(s)</span>", nullptr, warnings);
    if (errors == 0 && warnings == 0)
        parts << tr("Ready to run");
    if (e.load.capacity) // the levels, and so the time, depend on where the capacity lies
        parts << tr("capacity search: at most %n level(s) per variant", nullptr, e.load.capacity->maxPoints);
    else if (e.load.settle.enabled()) // a point ends once settled: the plan is the most it sends
        parts << tr("at most about %1 for %n measured request(s); points stop once settled", nullptr, int(est.requests))
                     .arg(formatDuration(est.seconds));
    else
        parts << tr("about %1 for %n measured request(s)", nullptr, int(est.requests)).arg(formatDuration(est.seconds));
    if (!e.load.capacity && est.seconds > kWorkingDaySeconds)
        parts << tr("<span style=\"color:#8a5a00\">longer than a working day (8 h): fewer points, repeats or prompts "
                    "shorten it</span>");
    if (!est.underSampledPoints.isEmpty())
        parts << tr("<span style=\"color:#8a5a00\">%n point(s) have fewer than 5 × concurrency prompts</span>", nullptr,
            int(est.underSampledPoints.size()));
    m_summary->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace ServeScope
