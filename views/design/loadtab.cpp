// SPDX-License-Identifier: MIT
#include "loadtab.h"

#include "capacityform.h"
#include "experimentdocument.h"
#include "formbinder.h"
#include "keyvaluetable.h"
#include "loadpointsmodel.h"
#include "model/variables.h"
#include "tracepreview.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace ServeScope {

LoadTab::LoadTab(ExperimentDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_binder(new FormBinder(document, this))
    , m_model(new LoadPointsModel(document, this))
    , m_view(new QTableView(this))
    , m_sampling(new KeyValueTable(tr("Parameter"), tr("Value"), this))
{
    m_datasetBox = datasetBox();
    m_runBox = runBox();
    m_boxes = new QBoxLayout(QBoxLayout::LeftToRight);
    m_boxes->addWidget(m_datasetBox, 1);
    m_boxes->addWidget(m_runBox, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(matrixBox(), 1);
    layout->addLayout(m_boxes);
}

void LoadTab::arrangeBoxes()
{
    // In a scroll area the page is never narrower than its minimum: the view it is shown in decides.
    const QWidget *view = parentWidget() ? parentWidget() : this;
    const int sideBySide = m_datasetBox->minimumSizeHint().width() + m_runBox->minimumSizeHint().width()
        + m_boxes->spacing() + layout()->contentsMargins().left() + layout()->contentsMargins().right();
    const auto direction = view->width() >= sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (m_boxes->direction() != direction)
        m_boxes->setDirection(direction);
}

void LoadTab::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (parentWidget())
        parentWidget()->installEventFilter(this); // the scroll area's view: its width decides
    arrangeBoxes();
}

bool LoadTab::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        arrangeBoxes();
    return QWidget::eventFilter(watched, event);
}

namespace {

// Numbers are typed as text: a spin box would silently cut 9999999999 to its last fitting digits,
// while the model refuses a value beyond its column's limit and says which limit.
class PointDelegate final : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget *createEditor(QWidget *parent, const QStyleOptionViewItem &, const QModelIndex &) const override
    {
        auto *edit = new QLineEdit(parent);
        edit->setFrame(false);
        return edit;
    }
    void setEditorData(QWidget *editor, const QModelIndex &index) const override
    {
        static_cast<QLineEdit *>(editor)->setText(index.data(Qt::EditRole).toString());
    }
    void setModelData(QWidget *editor, QAbstractItemModel *model, const QModelIndex &index) const override
    {
        model->setData(index, static_cast<QLineEdit *>(editor)->text(), Qt::EditRole);
    }
};

} // namespace

QWidget *LoadTab::datasetBox()
{
    auto *box = new QGroupBox(tr("Prompts and sampling"));
    auto *form = new QFormLayout(box);
    auto *dataset = new QComboBox;
    dataset->setObjectName(QStringLiteral("datasetCombo"));
    dataset->addItem(tr("Random tokens"), QStringLiteral("random"));
    dataset->addItem(tr("Sonnet"), QStringLiteral("sonnet"));
    dataset->addItem(tr("ShareGPT file"), QStringLiteral("sharegpt"));
    dataset->addItem(tr("Custom file"), QStringLiteral("custom"));
    dataset->addItem(tr("Shared prefixes (groups)"), QStringLiteral("shared_prefix"));
    dataset->addItem(tr("Trace replay (Mooncake, Azure, BurstGPT)"), QStringLiteral("trace"));
    dataset->addItem(tr("Multi-turn sessions (chat)"), QStringLiteral("multi_turn"));
    form->addRow(tr("Dataset"),
        m_binder->bindCombo(
            dataset, QStringLiteral("dataset.name"), tr("Change dataset"),
            [](const Experiment &e) { return e.dataset.name; },
            [](Experiment &e, const QString &v) { e.dataset.name = v; }));
    auto *path = new QLineEdit;
    path->setObjectName(QStringLiteral("datasetPath"));
    m_datasetPath = path;
    QWidget *pathRow = m_binder->bindLine(
        path, QStringLiteral("dataset.path"), tr("Change dataset file"),
        [](const Experiment &e) { return e.dataset.path; },
        [](Experiment &e, const QString &v) { e.dataset.path = v; });
    form->addRow(tr("Dataset file"), pathRow);
    m_datasetRows << DatasetRow { pathRow,
        { QStringLiteral("sonnet"), QStringLiteral("sharegpt"), QStringLiteral("custom"), QStringLiteral("trace"),
            QStringLiteral("multi_turn") } };
    auto *format = new QComboBox;
    format->setObjectName(QStringLiteral("traceFormatCombo"));
    format->addItem(tr("Told from the file"), QString());
    format->addItem(tr("Mooncake JSONL"), QStringLiteral("mooncake"));
    format->addItem(tr("Azure LLM inference CSV"), QStringLiteral("azure"));
    format->addItem(tr("BurstGPT CSV"), QStringLiteral("burstgpt"));
    QWidget *formatRow = m_binder->bindCombo(
        format, QStringLiteral("dataset.trace_format"), tr("Change trace format"),
        [](const Experiment &e) { return e.dataset.traceFormat; },
        [](Experiment &e, const QString &v) { e.dataset.traceFormat = v; });
    form->addRow(tr("Trace format"), formatRow);
    auto *blockSize = intSpin(1, 1000000);
    blockSize->setObjectName(QStringLiteral("traceBlockSpin"));
    blockSize->setToolTip(tr("Tokens of one Mooncake hash_ids block: requests that name the same blocks share "
                             "those tokens exactly (512 in Mooncake's published traces)."));
    QWidget *blockRow = m_binder->bindInt(
        blockSize, QStringLiteral("dataset.block_size"), tr("Change trace block size"),
        [](const Experiment &e) { return e.dataset.blockSize; }, [](Experiment &e, int v) { e.dataset.blockSize = v; });
    form->addRow(tr("Block size (tokens)"), blockRow);
    m_tracePreview = new TracePreview;
    m_tracePreview->setObjectName(QStringLiteral("tracePreview"));
    form->addRow(QString(), m_tracePreview);
    for (QWidget *row : { formatRow, blockRow, static_cast<QWidget *>(m_tracePreview) })
        m_datasetRows << DatasetRow { row, { QStringLiteral("trace") } };
    addPromptShapeRows(form);
    auto *ignoreEos = new QCheckBox(tr("Ask the server to ignore end-of-sequence (exact output lengths)"));
    form->addRow(QString(),
        m_binder->bindCheck(
            ignoreEos, QStringLiteral("dataset.ignore_eos"), tr("Toggle ignore_eos"),
            [](const Experiment &e) { return e.dataset.ignoreEos; },
            [](Experiment &e, bool v) { e.dataset.ignoreEos = v; }));
    m_sampling->setObjectName(QStringLiteral("samplingTable"));
    form->addRow(tr("Sampling"), m_binder->problemSlot(m_sampling, QStringLiteral("sampling")));
    connect(m_sampling, &KeyValueTable::valuesEdited, this, [this](const OrderedValues &v) {
        Experiment e = m_document->experiment();
        e.sampling = v;
        m_document->apply(e, tr("Edit sampling parameters"));
    });
    return box;
}

void LoadTab::addPromptShapeRows(QFormLayout *form)
{
    auto *seed = intSpin(0, std::numeric_limits<int>::max());
    seed->setObjectName(QStringLiteral("seedSpin"));
    form->addRow(tr("Seed"),
        m_binder->bindInt(
            seed, QStringLiteral("dataset.seed"), tr("Change seed"),
            [](const Experiment &e) { return int(e.dataset.seed); }, [](Experiment &e, int v) { e.dataset.seed = v; }));
    auto *range = doubleSpin(0, 1, 2);
    range->setSingleStep(0.05);
    QWidget *rangeRow = m_binder->bindDouble(
        range, QStringLiteral("dataset.range_ratio"), tr("Change range ratio"),
        [](const Experiment &e) { return e.dataset.rangeRatio; },
        [](Experiment &e, double v) { e.dataset.rangeRatio = v; });
    form->addRow(tr("Length range ratio"), rangeRow);
    m_datasetRows << DatasetRow { rangeRow, { QStringLiteral("random"), QStringLiteral("multi_turn") } };
    auto *prefix = intSpin(0, 10000000);
    prefix->setObjectName(QStringLiteral("prefixLenSpin"));
    prefix->setToolTip(tr("Sonnet and shared prefixes: the tokens every prompt (of a group) starts with; the rest of "
                          "the input length is the prompt's own. Multi-turn sessions: the tokens of the system prompt "
                          "every session starts with (0: none)."));
    QWidget *prefixRow = m_binder->bindInt(
        prefix, QStringLiteral("dataset.prefix_len"), tr("Change prefix length"),
        [](const Experiment &e) { return e.dataset.prefixLen; }, [](Experiment &e, int v) { e.dataset.prefixLen = v; });
    form->addRow(tr("Prefix length (tokens)"), prefixRow);
    m_prefixRow = prefixRow;
    m_datasetRows << DatasetRow { prefixRow,
        { QStringLiteral("sonnet"), QStringLiteral("shared_prefix"), QStringLiteral("multi_turn") } };
    auto *turns = intSpin(1, 1000);
    turns->setObjectName(QStringLiteral("sessionTurnsSpin"));
    turns->setToolTip(tr("Multi-turn sessions: the turns of one session. Each turn sends the conversation so far, "
                         "the server's own answers included, and a new message: of the point's input length, or with "
                         "a ShareGPT file as the dataset file, the user's next message of a conversation; concurrency "
                         "counts sessions in flight."));
    QWidget *turnsRow = m_binder->bindInt(
        turns, QStringLiteral("dataset.turns"), tr("Change turns per session"),
        [](const Experiment &e) { return e.dataset.turns; }, [](Experiment &e, int v) { e.dataset.turns = v; });
    form->addRow(tr("Turns per session"), turnsRow);
    m_datasetRows << DatasetRow { turnsRow, { QStringLiteral("multi_turn") } };
    auto *think = doubleSpin(0, 3600, 3, tr(" s"));
    think->setObjectName(QStringLiteral("thinkTimeSpin"));
    think->setSingleStep(0.1);
    think->setToolTip(tr("Multi-turn sessions: how long a user reads an answer before the next turn is sent."));
    QWidget *thinkRow = m_binder->bindDouble(
        think, QStringLiteral("dataset.think_time_s"), tr("Change think time"),
        [](const Experiment &e) { return e.dataset.thinkTimeS; },
        [](Experiment &e, double v) { e.dataset.thinkTimeS = v; });
    form->addRow(tr("Think time between turns"), thinkRow);
    m_datasetRows << DatasetRow { thinkRow, { QStringLiteral("multi_turn") } };
    auto *groups = intSpin(1, 1000000);
    groups->setObjectName(QStringLiteral("prefixGroupsSpin"));
    groups->setToolTip(tr("Shared prefixes: how many different prefixes the prompts share."));
    QWidget *groupsRow = m_binder->bindInt(
        groups, QStringLiteral("dataset.groups"), tr("Change prefix groups"),
        [](const Experiment &e) { return e.dataset.groups; }, [](Experiment &e, int v) { e.dataset.groups = v; });
    form->addRow(tr("Prefix groups"), groupsRow);
    m_datasetRows << DatasetRow { groupsRow, { QStringLiteral("shared_prefix") } };
    auto *zipf = doubleSpin(0, 100, 2);
    zipf->setSingleStep(0.1);
    zipf->setToolTip(tr("Shared prefixes: 0 uses every group equally often; above 0 a request's group is drawn with "
                        "this Zipf exponent, so the first groups are the most popular."));
    QWidget *zipfRow = m_binder->bindDouble(
        zipf, QStringLiteral("dataset.zipf"), tr("Change group skew"),
        [](const Experiment &e) { return e.dataset.zipf; }, [](Experiment &e, double v) { e.dataset.zipf = v; });
    form->addRow(tr("Group skew (Zipf exponent)"), zipfRow);
    m_datasetRows << DatasetRow { zipfRow, { QStringLiteral("shared_prefix") } };
}

void LoadTab::copyCommand(int point, BenchTool tool)
{
    const Experiment &x = m_document->experiment();
    if (point < 0 || point >= x.load.points.size())
        return;
    QStringList warnings;
    const QString command = benchCommandFor(resolveVariant(x, x.baselineIndex()), point, tool, &warnings);
    QGuiApplication::clipboard()->setText(command);
    emit commandCopied(command, warnings);
}

QWidget *LoadTab::matrixBox()
{
    auto *box = new QGroupBox(tr("Load matrix"));
    auto *layout = new QVBoxLayout(box);
    auto *head = new QHBoxLayout;
    auto *mode = new QComboBox;
    mode->setObjectName(QStringLiteral("loadModeCombo"));
    mode->addItem(tr("Closed loop (concurrency)"), QStringLiteral("concurrency"));
    mode->addItem(tr("Open loop (request rate)"), QStringLiteral("rate"));
    mode->addItem(tr("Capacity search (largest load within SLOs)"), QStringLiteral("capacity"));
    head->addWidget(m_binder->bindCombo(
        mode, QStringLiteral("load.mode"), tr("Change load mode"),
        [](const Experiment &e) { return e.load.capacity ? QStringLiteral("capacity") : loadModeName(e.load.mode); },
        &LoadTab::setMode));
    head->addStretch();
    m_pointTools = pointTools();
    head->addWidget(m_pointTools);
    layout->addLayout(head);
    m_pointsPanel = new QWidget;
    auto *points = new QVBoxLayout(m_pointsPanel);
    points->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_pointsPanel, 1);
    m_capacity = new CapacityForm(m_document, m_binder);
    layout->addWidget(m_capacity);
    m_view->setObjectName(QStringLiteral("loadPointsView"));
    m_view->setModel(m_model);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setMinimumHeight(170);
    m_view->setItemDelegate(new PointDelegate(m_view));
    points->addWidget(m_binder->problemSlot(m_view, QStringLiteral("load.points")));
    auto *refused = new QLabel;
    refused->setObjectName(QStringLiteral("pointRefusal"));
    refused->setWordWrap(true);
    refused->setStyleSheet(QStringLiteral("color: #b00020;"));
    refused->hide();
    points->addWidget(refused);
    connect(m_model, &LoadPointsModel::valueRefused, refused, [refused](int row, int, const QString &message) {
        refused->setText(tr("Point %1: %2").arg(row + 1).arg(message));
        refused->show();
    });
    connect(m_document, &ExperimentDocument::changed, refused, &QLabel::hide);
    // Any point as the command that replays it with vLLM's or SGLang's client (the baseline variant).
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    for (const auto &[text, tool] : { std::pair { tr("Copy as vllm bench serve command"), BenchTool::Vllm },
             std::pair { tr("Copy as sglang.bench_serving command"), BenchTool::Sglang } }) {
        auto *action = new QAction(text, m_view);
        action->setObjectName(
            tool == BenchTool::Vllm ? QStringLiteral("copyVllmCommand") : QStringLiteral("copySglangCommand"));
        connect(action, &QAction::triggered, this, [this, tool = tool] { copyCommand(selectedPoint(), tool); });
        m_view->addAction(action);
    }
    return box;
}

QWidget *LoadTab::pointTools()
{
    auto *bar = new QWidget;
    auto *tools = new QHBoxLayout(bar);
    tools->setContentsMargins(0, 0, 0, 0);
    auto *add = new QPushButton(tr("Add point"));
    add->setObjectName(QStringLiteral("addPointButton"));
    auto *remove = new QPushButton(tr("Remove"));
    auto *up = new QPushButton(tr("Move up"));
    auto *down = new QPushButton(tr("Move down"));
    auto *presets = new QToolButton;
    presets->setText(tr("Presets"));
    presets->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(presets);
    const QList<QList<int>> gradients { { 1, 4, 8, 16, 32, 64 }, { 1, 2, 4, 8, 16, 32, 64, 128 },
        { 1, 8, 64, 256, 1024 } };
    for (const QList<int> &g : gradients) {
        QStringList parts;
        for (int v : g)
            parts << QString::number(v);
        menu->addAction(tr("Concurrency gradient %1").arg(parts.join(QLatin1Char('-'))), this,
            [this, g] { m_model->applyGradient(g); });
    }
    presets->setMenu(menu);
    for (QWidget *w : std::initializer_list<QWidget *> { add, remove, up, down, presets })
        tools->addWidget(w);
    connect(add, &QPushButton::clicked, m_model, &LoadPointsModel::addPoint);
    connect(remove, &QPushButton::clicked, this, [this] { m_model->removePoint(selectedPoint()); });
    connect(up, &QPushButton::clicked, this, [this] {
        const int r = selectedPoint();
        m_model->movePoint(r, -1);
        m_view->setCurrentIndex(m_model->index(qMax(0, r - 1), 0));
    });
    connect(down, &QPushButton::clicked, this, [this] {
        const int r = selectedPoint();
        m_model->movePoint(r, 1);
        m_view->setCurrentIndex(m_model->index(qMin(m_model->rowCount() - 1, r + 1), 0));
    });
    return bar;
}

int LoadTab::selectedPoint() const
{
    return m_view->currentIndex().isValid() ? m_view->currentIndex().row() : -1;
}

QWidget *LoadTab::runBox()
{
    auto *box = new QGroupBox(tr("Warmup, repeats and timeouts"));
    auto *form = new QFormLayout(box);
    auto *warmup = intSpin(0, 100000);
    warmup->setObjectName(QStringLiteral("warmupSpin"));
    form->addRow(tr("Warmup requests per point"),
        m_binder->bindInt(
            warmup, QStringLiteral("load.warmup_requests"), tr("Change warmup"),
            [](const Experiment &e) { return e.load.warmupRequests; },
            [](Experiment &e, int v) { e.load.warmupRequests = v; }));
    auto *discard = doubleSpin(0, 0.49, 2);
    discard->setSingleStep(0.05);
    form->addRow(tr("Discard ratio (steady window)"),
        m_binder->bindDouble(
            discard, QStringLiteral("load.discard_ratio"), tr("Change discard ratio"),
            [](const Experiment &e) { return e.load.discardRatio; },
            [](Experiment &e, double v) { e.load.discardRatio = v; }));
    auto *repeat = intSpin(1, 100);
    repeat->setObjectName(QStringLiteral("repeatSpin"));
    m_repeat = repeat;
    form->addRow(tr("Repeats"),
        m_binder->bindInt(
            repeat, QStringLiteral("load.repeat"), tr("Change repeats"),
            [](const Experiment &e) { return e.load.repeat; }, [](Experiment &e, int v) { e.load.repeat = v; }));
    // Shown in percent; the file holds the share (0.05).
    auto *settle = doubleSpin(0, 100, 1, QStringLiteral(" %"));
    settle->setObjectName(QStringLiteral("settleWidthSpin"));
    settle->setSpecialValueText(tr("off (every planned request)"));
    settle->setToolTip(tr("Stop a point once the 95% intervals of its TTFT, TPOT and E2EL medians are narrower than "
                          "this share of the median; requests in flight finish, and the point's findings say it "
                          "stopped early."));
    form->addRow(tr("Stop once medians are known within"),
        m_binder->bindDouble(
            settle, QStringLiteral("load.stop_when_settled.width"), tr("Change when a point stops early"),
            [](const Experiment &e) { return 100 * e.load.settle.width; },
            [](Experiment &e, double v) { e.load.settle.width = v / 100; }));
    auto *settleMin = intSpin(10, 100000000);
    settleMin->setObjectName(QStringLiteral("settleMinSpin"));
    form->addRow(tr("…after at least (successful requests)"),
        m_binder->bindInt(
            settleMin, QStringLiteral("load.stop_when_settled.min_requests"), tr("Change the early stop's minimum"),
            [](const Experiment &e) { return e.load.settle.minRequests; },
            [](Experiment &e, int v) { e.load.settle.minRequests = v; }));
    m_settleMin = settleMin;
    auto *verdict = new QCheckBox(tr("In a capacity search, stop a level once its SLO verdict is decided"));
    verdict->setObjectName(QStringLiteral("settleVerdictCheck"));
    m_settleVerdict = m_binder->bindCheck(
        verdict, QStringLiteral("load.stop_when_settled.verdict"), tr("Toggle stopping a level once decided"),
        [](const Experiment &e) { return e.load.settle.verdict; },
        [](Experiment &e, bool v) { e.load.settle.verdict = v; });
    form->addRow(QString(), m_settleVerdict);
    struct T {
        const char *path;
        QString label;
        double Timeouts::*field;
    };
    const QList<T> timeouts { { "load.timeouts.connect_s", tr("Connect timeout"), &Timeouts::connectS },
        { "load.timeouts.first_token_s", tr("First-token timeout"), &Timeouts::firstTokenS },
        { "load.timeouts.idle_s", tr("Idle timeout"), &Timeouts::idleS },
        { "load.timeouts.total_s", tr("Total timeout"), &Timeouts::totalS } };
    for (const T &t : timeouts) {
        auto *spin = doubleSpin(0, 86400, 1, tr(" s"));
        spin->setSpecialValueText(tr("no limit"));
        auto field = t.field;
        form->addRow(t.label,
            m_binder->bindDouble(
                spin, QString::fromLatin1(t.path), tr("Change %1").arg(t.label),
                [field](const Experiment &e) { return e.load.timeouts.*field; },
                [field](Experiment &e, double v) { e.load.timeouts.*field = v; }));
    }
    auto *reset = new QCheckBox(tr("Reset the server's prefix cache between points"));
    form->addRow(QString(),
        m_binder->bindCheck(
            reset, QStringLiteral("load.reset_prefix_cache"), tr("Toggle prefix-cache reset"),
            [](const Experiment &e) { return e.load.resetPrefixCache; },
            [](Experiment &e, bool v) { e.load.resetPrefixCache = v; }));
    return box;
}

void LoadTab::setMode(Experiment &e, const QString &mode)
{
    if (mode == QLatin1String("capacity")) {
        if (e.load.capacity)
            return;
        // A search that starts from what the first point loaded, bounded where most chat services are.
        CapacitySearch c;
        const LoadPoint first = e.load.points.value(0);
        c.point.inputLen = first.inputLen > 0 ? first.inputLen : 512;
        c.point.outputLen = first.outputLen > 0 ? first.outputLen : 128;
        c.point.numPrompts = 100;
        c.promptsPerLevel = 5;
        c.point.burstiness = first.burstiness;
        c.slos = { Slo { QStringLiteral("ttft"), 90, 500 }, Slo { QStringLiteral("tpot"), 90, 50 } };
        e.load.capacity = c;
        e.load.points.clear();
        e.load.gradient = {};
        return;
    }
    parseLoadMode(mode, &e.load.mode);
    if (e.load.capacity && e.load.points.isEmpty()) // the search's first level as the one point
        e.load.points << e.load.capacity->at(e.load.mode, e.load.capacity->start);
    e.load.capacity.reset();
}

void LoadTab::refresh()
{
    const bool capacity = m_document->experiment().load.capacity.has_value();
    m_pointsPanel->setVisible(!capacity);
    m_pointTools->setVisible(!capacity);
    m_capacity->setVisible(capacity);
    // A capacity search repeats a level only where its interval straddles a bound (its own cap).
    m_repeat->setEnabled(!capacity);
    m_repeat->setToolTip(capacity ? tr("A capacity search measures a level again only when its interval straddles a "
                                       "bound; set how often in the search's settings.")
                                  : QString());
    m_capacity->refresh();
    m_settleMin->setEnabled(m_document->experiment().load.settle.enabled());
    if (auto *form = qobject_cast<QFormLayout *>(m_settleVerdict->parentWidget()->layout()))
        form->setRowVisible(m_settleVerdict, capacity); // only a capacity search's levels have SLOs
    // Only the settings the chosen dataset reads.
    const Dataset &d = m_document->experiment().dataset;
    for (const DatasetRow &row : std::as_const(m_datasetRows))
        if (auto *form = qobject_cast<QFormLayout *>(row.field->parentWidget()->layout()))
            form->setRowVisible(row.field, row.datasets.contains(d.name));
    if (auto *form = qobject_cast<QFormLayout *>(m_prefixRow->parentWidget()->layout()))
        if (auto *label = qobject_cast<QLabel *>(form->labelForField(m_prefixRow)))
            label->setText(
                d.name == QLatin1String("multi_turn") ? tr("System prompt (tokens)") : tr("Prefix length (tokens)"));
    m_datasetPath->setPlaceholderText(d.name == QLatin1String("multi_turn")
            ? tr("empty: generated sessions; or a ShareGPT file, whose conversations are the sessions")
            : d.name == QLatin1String("sonnet") ? tr("empty: the built-in sonnet")
                                                : QString());
    if (d.name == QLatin1String("trace"))
        m_tracePreview->preview(d.path, d.traceFormat, d.blockSize);
    m_binder->refresh();
    m_binder->showProblems(m_document->problems());
    m_sampling->setValues(m_document->experiment().sampling);
}

} // namespace ServeScope
