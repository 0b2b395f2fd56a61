// SPDX-License-Identifier: MIT
#include "capacityform.h"

#include "experimentdocument.h"
#include "formbinder.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>

#include <limits>

namespace ServeScope {

namespace {

// Every setter works on the search, which exists whenever this form is shown.
CapacitySearch &search(Experiment &e)
{
    if (!e.load.capacity)
        e.load.capacity.emplace();
    return *e.load.capacity;
}

const CapacitySearch &search(const Experiment &e)
{
    static const CapacitySearch none;
    return e.load.capacity ? *e.load.capacity : none;
}

Slo *sloOf(CapacitySearch &s, const QString &metric)
{
    for (Slo &slo : s.slos) {
        if (slo.metric == metric)
            return &slo;
    }
    return nullptr;
}

} // namespace

CapacityForm::CapacityForm(ExperimentDocument *document, FormBinder *binder, QWidget *parent)
    : QGroupBox(tr("Capacity search"), parent)
    , m_document(document)
    , m_binder(binder)
{
    setObjectName(QStringLiteral("capacityForm"));
    auto *form = new QFormLayout(this);
    auto *intro = new QLabel(tr("Each variant is searched for the largest load that meets every bound below: "
                                "doubling until a level misses, then refining between the last level that meets "
                                "and the first that misses."));
    intro->setWordWrap(true);
    form->addRow(intro);
    auto *over = new QComboBox;
    over->setObjectName(QStringLiteral("capacityOverCombo"));
    over->addItem(tr("Concurrency (closed loop)"), QStringLiteral("concurrency"));
    over->addItem(tr("Request rate (open loop)"), QStringLiteral("rate"));
    form->addRow(tr("Search over"),
        m_binder->bindCombo(
            over, QStringLiteral("load.mode"), tr("Change what the search varies"),
            [](const Experiment &e) { return loadModeName(e.load.mode); },
            [](Experiment &e, const QString &v) { parseLoadMode(v, &e.load.mode); }));
    form->addRow(tr("Bounds"), m_binder->problemSlot(sloGrid(), QStringLiteral("load.capacity.slo")));
    auto *attainment = doubleSpin(0, 100, 1, tr(" %"));
    attainment->setSpecialValueText(tr("not required"));
    attainment->setToolTip(tr("The share of all requests (failed ones included) that must meet every bound at once."));
    form->addRow(tr("Requests meeting all bounds"),
        m_binder->bindDouble(
            attainment, QStringLiteral("load.capacity.attainment"), tr("Change attainment"),
            [](const Experiment &e) { return search(e).attainment * 100; },
            [](Experiment &e, double v) { search(e).attainment = v / 100; }));
    addLevelRows(form);
    addPointRows(form);
}

// Where the search starts and ends, how fine it gets, and its caps on levels, repeats and time.
void CapacityForm::addLevelRows(QFormLayout *form)
{
    auto *start = doubleSpin(0.001, 1048576, 3);
    start->setObjectName(QStringLiteral("capacityStartSpin"));
    form->addRow(tr("First level"),
        m_binder->bindDouble(
            start, QStringLiteral("load.capacity.start"), tr("Change first level"),
            [](const Experiment &e) { return search(e).start; }, [](Experiment &e, double v) { search(e).start = v; }));
    auto *max = doubleSpin(0.001, 1048576, 3);
    form->addRow(tr("Largest level"),
        m_binder->bindDouble(
            max, QStringLiteral("load.capacity.max"), tr("Change largest level"),
            [](const Experiment &e) { return search(e).max; }, [](Experiment &e, double v) { search(e).max = v; }));
    auto *resolution = doubleSpin(0.1, 100, 1, tr(" %"));
    resolution->setToolTip(tr("The search ends when the level that meets and the one that misses are this close."));
    form->addRow(tr("Resolution"),
        m_binder->bindDouble(
            resolution, QStringLiteral("load.capacity.resolution"), tr("Change resolution"),
            [](const Experiment &e) { return search(e).resolution * 100; },
            [](Experiment &e, double v) { search(e).resolution = v / 100; }));
    auto *points = intSpin(2, 100);
    form->addRow(tr("At most, levels"),
        m_binder->bindInt(
            points, QStringLiteral("load.capacity.max_points"), tr("Change the cap on levels"),
            [](const Experiment &e) { return search(e).maxPoints; },
            [](Experiment &e, int v) { search(e).maxPoints = v; }));
    auto *repeats = intSpin(1, 20);
    repeats->setToolTip(tr("A level whose interval straddles a bound is measured again, up to this many times."));
    form->addRow(tr("At most, measurements of a level"),
        m_binder->bindInt(
            repeats, QStringLiteral("load.capacity.max_repeats"), tr("Change the cap on repeats"),
            [](const Experiment &e) { return search(e).maxRepeats; },
            [](Experiment &e, int v) { search(e).maxRepeats = v; }));
    auto *time = doubleSpin(0, 1e7, 0, tr(" s"));
    time->setSpecialValueText(tr("no limit"));
    form->addRow(tr("Time cap per variant"),
        m_binder->bindDouble(
            time, QStringLiteral("load.capacity.max_total_s"), tr("Change the time cap"),
            [](const Experiment &e) { return search(e).maxTotalSeconds; },
            [](Experiment &e, double v) { search(e).maxTotalSeconds = v; }));
}

// What each level sends: the lengths, how many prompts, and for how long at most.
void CapacityForm::addPointRows(QFormLayout *form)
{
    struct IntField {
        const char *path;
        QString label;
        int LoadPoint::*field;
    };
    for (const IntField &f : { IntField { "load.capacity.input_len", tr("Input tokens"), &LoadPoint::inputLen },
             IntField { "load.capacity.output_len", tr("Output tokens"), &LoadPoint::outputLen },
             IntField { "load.capacity.num_prompts", tr("Prompts per level, at least"), &LoadPoint::numPrompts } }) {
        auto *spin = intSpin(0, 10000000);
        const auto field = f.field;
        form->addRow(f.label,
            m_binder->bindInt(
                spin, QString::fromLatin1(f.path), tr("Change %1").arg(f.label),
                [field](const Experiment &e) { return search(e).point.*field; },
                [field](Experiment &e, int v) { search(e).point.*field = v; }));
    }
    auto *perLevel = intSpin(0, 1000000);
    perLevel->setSpecialValueText(tr("none"));
    perLevel->setToolTip(tr("Closed loop: a level sends at least this many prompts per concurrent request."));
    form->addRow(tr("Prompts per concurrent request"),
        m_binder->bindInt(
            perLevel, QStringLiteral("load.capacity.prompts_per_level"), tr("Change prompts per level"),
            [](const Experiment &e) { return search(e).promptsPerLevel; },
            [](Experiment &e, int v) { search(e).promptsPerLevel = v; }));
    auto *seconds = doubleSpin(0, 1e7, 0, tr(" s"));
    seconds->setSpecialValueText(tr("no limit"));
    form->addRow(tr("Time limit per level"),
        m_binder->bindDouble(
            seconds, QStringLiteral("load.capacity.max_seconds"), tr("Change time limit per level"),
            [](const Experiment &e) { return search(e).point.maxSeconds; },
            [](Experiment &e, double v) { search(e).point.maxSeconds = v; }));
}

QWidget *CapacityForm::sloGrid()
{
    auto *grid = new QWidget;
    auto *layout = new QGridLayout(grid);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Latency")), 0, 0);
    layout->addWidget(new QLabel(tr("Percentile")), 0, 1);
    layout->addWidget(new QLabel(tr("At most")), 0, 2);
    const QList<QPair<QString, QString>> metrics { { QStringLiteral("ttft"), tr("TTFT") },
        { QStringLiteral("ttfo"), tr("TTFO (reasoning models)") }, { QStringLiteral("tpot"), tr("TPOT") },
        { QStringLiteral("itl"), tr("ITL") }, { QStringLiteral("e2el"), tr("E2E latency") } };
    int row = 1;
    for (const auto &[metric, name] : metrics) {
        layout->addWidget(new QLabel(name), row, 0);
        auto *percentile = doubleSpin(0.1, 99.9, 1);
        percentile->setPrefix(QStringLiteral("p"));
        percentile->setObjectName(QStringLiteral("sloPercentile_") + metric);
        auto *bound = doubleSpin(0, 1e9, 1, tr(" ms"));
        bound->setSpecialValueText(tr("no bound"));
        bound->setObjectName(QStringLiteral("sloBound_") + metric);
        // Problems of the bounds show once, under the grid (its slot covers load.capacity.slo); each box has
        // a path of its own so that its edits merge only with its own.
        const QString path = QStringLiteral("load.capacity.slo_") + metric;
        layout->addWidget(
            m_binder->bindDouble(
                percentile, path + QStringLiteral("_percentile"), tr("Change the %1 percentile").arg(name),
                [metric](const Experiment &e) {
                    for (const Slo &s : search(e).slos) {
                        if (s.metric == metric)
                            return s.percentile;
                    }
                    return 90.0;
                },
                [metric](Experiment &e, double v) {
                    if (Slo *s = sloOf(search(e), metric))
                        s->percentile = v;
                }),
            row, 1);
        layout->addWidget(m_binder->bindDouble(
                              bound, path + QStringLiteral("_bound"), tr("Change the %1 bound").arg(name),
                              [metric](const Experiment &e) {
                                  for (const Slo &s : search(e).slos) {
                                      if (s.metric == metric)
                                          return s.maxMs;
                                  }
                                  return 0.0;
                              },
                              [metric](Experiment &e, double v) {
                                  CapacitySearch &c = search(e);
                                  if (v <= 0) {
                                      c.slos.removeIf([&metric](const Slo &s) { return s.metric == metric; });
                                  } else if (Slo *s = sloOf(c, metric)) {
                                      s->maxMs = v;
                                  } else {
                                      Slo fresh;
                                      fresh.metric = metric;
                                      fresh.maxMs = v;
                                      c.slos << fresh;
                                  }
                              }),
            row, 2);
        m_percentiles << qMakePair(metric, percentile);
        ++row;
    }
    return grid;
}

void CapacityForm::refresh()
{
    const Experiment &e = m_document->experiment();
    for (const auto &[metric, box] : std::as_const(m_percentiles)) {
        const QList<Slo> &slos = search(e).slos;
        box->setEnabled(
            std::any_of(slos.cbegin(), slos.cend(), [&metric = metric](const Slo &s) { return s.metric == metric; }));
    }
}

} // namespace ServeScope
