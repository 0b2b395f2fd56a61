// SPDX-License-Identifier: MIT
#include "servertab.h"

#include "experimentdocument.h"
#include "formbinder.h"
#include "keyvaluetable.h"
#include "run/launchtemplate.h"

#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace ServeScope {

ServerTab::ServerTab(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FormBinder(document, this))
    , m_args(new KeyValueTable(tr("Argument"), tr("Value"), this))
    , m_argv(new QPlainTextEdit(this))
    , m_rendered(new QLabel(this))
    , m_env(new QTableWidget(0, 3, this))
{
    QWidget *server = serverBox();
    QWidget *env = envBox();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(server);
    layout->addWidget(env, 1);
}

QWidget *ServerTab::serverBox()
{
    auto *box = new QGroupBox(tr("Server"), this);
    auto *form = new QFormLayout(box);
    auto *engine = new QComboBox;
    engine->setObjectName(QStringLiteral("engineCombo"));
    for (const char *name : { "vllm", "sglang", "sim", "other" })
        engine->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    form->addRow(tr("Engine"),
        m_binder->bindCombo(
            engine, QStringLiteral("server.engine"), tr("Change engine"),
            [](const Experiment &e) { return e.server.engine; },
            [](Experiment &e, const QString &v) { e.server.engine = v; }));
    m_args->setObjectName(QStringLiteral("serverArgs"));
    form->addRow(tr("Arguments"), m_binder->problemSlot(m_args, QStringLiteral("server.args")));
    connect(m_args, &KeyValueTable::valuesEdited, this, [this](const OrderedValues &v) {
        Experiment e = m_document->experiment();
        e.server.args = v;
        m_document->apply(e, tr("Edit server arguments"));
    });
    m_argv->setPlaceholderText(
        tr("One argument per line, "
           "e.g.\nvllm\nserve\nQwen/Qwen2-7B-Instruct\n--max-num-seqs\n{server.args.max_num_seqs}"));
    m_argv->setMaximumHeight(110);
    form->addRow(tr("Launch command"), m_binder->problemSlot(m_argv, QStringLiteral("server.launch")));
    connect(m_argv, &QPlainTextEdit::textChanged, this, [this] {
        if (m_loading)
            return;
        Experiment e = m_document->experiment();
        e.server.launchArgv = m_argv->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        m_document->apply(e, tr("Edit launch command"), QStringLiteral("server.launch.argv"));
    });
    m_rendered->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_rendered->setWordWrap(true);
    m_rendered->setStyleSheet(QStringLiteral("font-family: monospace;"));
    form->addRow(tr("Runs as"), m_rendered);
    auto *ready = new QLineEdit;
    // Not a default: a launched server has no readiness probe until one is given.
    ready->setPlaceholderText(tr("required, e.g. /v1/models"));
    form->addRow(tr("Readiness probe"),
        m_binder->bindLine(
            ready, QStringLiteral("server.launch.ready"), tr("Edit readiness probe"),
            [](const Experiment &e) { return e.server.readyPath; },
            [](Experiment &e, const QString &v) { e.server.readyPath = v.trimmed(); }));
    addGpuRows(form);
    return box;
}

// What the server runs on: GPU telemetry, the GPU count and their price.
void ServerTab::addGpuRows(QFormLayout *form)
{
    auto *dcgm = new QLineEdit;
    dcgm->setObjectName(QStringLiteral("dcgmUrl"));
    dcgm->setPlaceholderText(QStringLiteral("http://gpu-host:9400/metrics"));
    dcgm->setToolTip(tr("A DCGM exporter's metrics URL: GPU utilisation, DRAM and SM activity and power are scraped "
                        "beside the server's /metrics during every point. Empty: none."));
    form->addRow(tr("GPU telemetry (DCGM)"),
        m_binder->bindLine(
            dcgm, QStringLiteral("server.dcgm_url"), tr("Edit DCGM exporter URL"),
            [](const Experiment &e) { return e.server.dcgmUrl; },
            [](Experiment &e, const QString &v) { e.server.dcgmUrl = v.trimmed(); }));
    auto *gpus = intSpin(0, 100000);
    gpus->setObjectName(QStringLiteral("gpus"));
    gpus->setSpecialValueText(tr("from the server arguments"));
    gpus->setToolTip(tr("GPUs serving the endpoint, for throughput per GPU and cost. 0: tensor × pipeline × data "
                        "parallel sizes of the server arguments, else the environment's gpu_count, else 1."));
    form->addRow(tr("GPUs"),
        m_binder->bindInt(
            gpus, QStringLiteral("server.gpus"), tr("Edit GPU count"),
            [](const Experiment &e) { return e.server.gpus; }, [](Experiment &e, int v) { e.server.gpus = v; }));
    auto *price = doubleSpin(0, 1000000, 2);
    price->setObjectName(QStringLiteral("gpuHourPrice"));
    price->setSpecialValueText(tr("no price"));
    price->setToolTip(tr("Price of one GPU for an hour, in the currency you compare in: the report and the charts "
                         "then give the price of a million output tokens at each point."));
    form->addRow(tr("Price per GPU-hour"),
        m_binder->bindDouble(
            price, QStringLiteral("server.gpu_hour_price"), tr("Edit GPU-hour price"),
            [](const Experiment &e) { return e.server.gpuHourPrice; },
            [](Experiment &e, double v) { e.server.gpuHourPrice = v; }));
}

QWidget *ServerTab::envBox()
{
    auto *box = new QGroupBox(tr("Environment snapshot"), this);
    auto *envLayout = new QVBoxLayout(box);
    m_env->setObjectName(QStringLiteral("envTable"));
    m_env->setHorizontalHeaderLabels({ tr("Field"), tr("Value"), tr("Source") });
    m_env->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_env->verticalHeader()->hide();
    envLayout->addWidget(m_binder->problemSlot(m_env, QStringLiteral("env_snapshot")));
    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("Add field"));
    auto *remove = new QPushButton(tr("Remove"));
    auto *paste = new QPushButton(tr("Paste JSON…"));
    paste->setToolTip(tr("Paste the JSON printed by the env-probe script on the server host"));
    auto *capture = new QPushButton(tr("Capture from server"));
    for (QPushButton *b : { add, remove, paste, capture })
        buttons->addWidget(b);
    buttons->addStretch();
    envLayout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, &ServerTab::addEnvRow);
    connect(remove, &QPushButton::clicked, this, &ServerTab::removeEnvRow);
    connect(paste, &QPushButton::clicked, this, &ServerTab::pasteEnv);
    connect(capture, &QPushButton::clicked, this, &ServerTab::captureRequested);
    connect(m_env, &QTableWidget::itemChanged, this, &ServerTab::envEdited);
    return box;
}

static QString sourceText(EnvSource s)
{
    switch (s) {
    case EnvSource::Typed:
        return ServerTab::tr("typed");
    case EnvSource::Captured:
        return ServerTab::tr("captured from server");
    case EnvSource::Probe:
        return ServerTab::tr("env probe");
    }
    return {};
}

void ServerTab::refresh()
{
    m_loading = true;
    const Experiment &e = m_document->experiment();
    m_binder->refresh();
    m_binder->showProblems(m_document->problems());
    m_args->setValues(e.server.args);
    const QString argv = e.server.launchArgv.join(QLatin1Char('\n'));
    if (m_argv->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts) != e.server.launchArgv)
        m_argv->setPlainText(argv);
    const QStringList rendered = renderLaunch(e);
    QStringList quoted;
    for (const QString &a : rendered)
        quoted << (a.contains(QRegularExpression(QStringLiteral("[\\s'\"]")))
                ? QLatin1Char('\'') + a + QLatin1Char('\'')
                : a);
    m_rendered->setText(rendered.isEmpty() ? tr("(started by someone else)") : quoted.join(QLatin1Char(' ')));
    m_env->setRowCount(int(e.envSnapshot.size()));
    for (int i = 0; i < e.envSnapshot.size(); ++i) {
        const EnvEntry &entry = e.envSnapshot.at(i);
        m_env->setItem(i, 0, new QTableWidgetItem(entry.key));
        m_env->setItem(i, 1, new QTableWidgetItem(entry.value));
        auto *src = new QTableWidgetItem(sourceText(entry.source));
        src->setData(Qt::UserRole, int(entry.source));
        src->setFlags(src->flags() & ~Qt::ItemIsEditable);
        m_env->setItem(i, 2, src);
    }
    m_loading = false;
}

QStringList ServerTab::renderLaunch(const Experiment &experiment)
{
    // As the run renders it ({port} from the endpoint's address), the baseline's values in place.
    return previewLaunchArgv(experiment, QUrl(experiment.endpoint.baseUrl));
}

void ServerTab::envEdited()
{
    if (m_loading)
        return;
    Experiment e = m_document->experiment();
    EnvSnapshot env;
    for (int row = 0; row < m_env->rowCount(); ++row) {
        const QTableWidgetItem *k = m_env->item(row, 0);
        const QTableWidgetItem *v = m_env->item(row, 1);
        const QTableWidgetItem *s = m_env->item(row, 2);
        EnvEntry entry;
        entry.key = k ? k->text().trimmed() : QString();
        entry.value = v ? v->text() : QString();
        entry.source = s ? EnvSource(s->data(Qt::UserRole).toInt()) : EnvSource::Typed;
        // A field typed over by hand is no longer what the server or probe said.
        if (row < e.envSnapshot.size() && e.envSnapshot.at(row).value != entry.value)
            entry.source = EnvSource::Typed;
        if (!entry.key.isEmpty())
            env.append(entry);
    }
    e.envSnapshot = env;
    m_document->apply(e, tr("Edit environment snapshot"));
}

void ServerTab::addEnvRow()
{
    m_loading = true;
    const int row = m_env->rowCount();
    m_env->insertRow(row);
    m_env->setItem(row, 0, new QTableWidgetItem);
    m_env->setItem(row, 1, new QTableWidgetItem);
    auto *src = new QTableWidgetItem(sourceText(EnvSource::Typed));
    src->setData(Qt::UserRole, int(EnvSource::Typed));
    m_env->setItem(row, 2, src);
    m_loading = false;
    m_env->editItem(m_env->item(row, 0));
}

void ServerTab::removeEnvRow()
{
    if (m_env->currentRow() < 0)
        return;
    m_env->removeRow(m_env->currentRow());
    envEdited();
}

static void flatten(const QString &prefix, const QJsonValue &v, EnvSnapshot *out, EnvSource source)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            flatten(prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key(), it.value(), out, source);
        return;
    }
    out->append({ prefix, KeyValueTable::formatValue(v), source });
}

EnvSnapshot ServerTab::parseEnvJson(const QByteArray &json, EnvSource source, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    EnvSnapshot out;
    if (doc.isNull()) {
        *error = pe.errorString();
        return out;
    }
    if (doc.isObject()) {
        flatten(QString(), doc.object(), &out, source);
        return out;
    }
    for (const QJsonValue &item : doc.array()) {
        if (item.isArray() && item.toArray().size() >= 2) {
            out.append({ item.toArray().at(0).toString(), KeyValueTable::formatValue(item.toArray().at(1)), source });
        } else if (item.isObject() && item.toObject().contains(QLatin1String("key"))) {
            const QJsonObject o = item.toObject();
            EnvEntry e { o.value(QLatin1String("key")).toString(),
                KeyValueTable::formatValue(o.value(QLatin1String("value"))), source };
            parseEnvSource(o.value(QLatin1String("source")).toString(), &e.source);
            out.append(e);
        }
    }
    if (out.isEmpty())
        *error = tr("no fields found");
    return out;
}

void ServerTab::pasteEnv()
{
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Paste environment JSON"));
    auto *text = new QPlainTextEdit(dialog);
    text->setPlainText(QGuiApplication::clipboard()->text());
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(new QLabel(tr("JSON from the env-probe script (an object, or a list of [field, value] pairs):")));
    layout->addWidget(text);
    auto *error = new QLabel(dialog);
    error->setStyleSheet(QStringLiteral("color: #b00020;"));
    layout->addWidget(error);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, dialog, [this, dialog, text, error] {
        QString reason;
        const EnvSnapshot pasted = parseEnvJson(text->toPlainText().toUtf8(), EnvSource::Probe, &reason);
        if (pasted.isEmpty()) {
            error->setText(tr("This is not usable JSON: %1").arg(reason));
            return;
        }
        Experiment e = m_document->experiment();
        for (const EnvEntry &entry : pasted) {
            e.envSnapshot.removeIf([&](const EnvEntry &x) { return x.key == entry.key; });
            e.envSnapshot.append(entry);
        }
        m_document->apply(e, tr("Paste environment snapshot"));
        dialog->accept();
    });
    dialog->resize(520, 360);
    dialog->open();
}

} // namespace ServeScope
