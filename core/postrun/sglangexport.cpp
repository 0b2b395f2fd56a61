// SPDX-License-Identifier: MIT
#include "sglangexport.h"
#include "compare/storedrun.h"

#include "io/experimentfile.h"
#include "metrics/aggregate.h"
#include "model/variables.h"
#include "resultfiles/sglangresult.h"
#include "run/runtext.h"
#include "storage/projectstore.h"

#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

// SGLang's figures of one stored point: its records under the sglang definitions, the clock
// placed so the duration is the stored one (throughputs then divide by the same seconds).
PointSummary sglangSummary(const PointSummary &stored, const QVector<RequestRecord> &records)
{
    AggregateOptions opts;
    opts.profile = DefinitionsProfile::Sglang;
    opts.percentiles = { 95, 99 };
    opts.targetInputLen = stored.inputLen;
    opts.targetOutputLen = stored.outputLen;
    qint64 lastEnd = 0;
    for (const RequestRecord &r : records) {
        if (r.measured())
            lastEnd = std::max(lastEnd, r.endNs);
    }
    opts.measuredStartNs = lastEnd - qint64(std::llround(stored.duration * 1e9));
    PointSummary s = aggregatePoint(records, opts).summary;
    s.label = stored.label;
    return s;
}

} // namespace

bool writeSglangJsonl(ProjectStore &store, qint64 runId, const QString &path, QString *error)
{
    const std::optional<StoredRun> run = StoredRun::read(store, runId);
    const RunRow *row = run ? &run->row() : nullptr;
    QVector<PointSummary> points;
    if (!row || !store.pointSummaries(runId, &points)) {
        *error = store.errorString();
        return false;
    }
    QByteArray out;
    for (const PointSummary &p : std::as_const(points)) {
        RequestFilter filter;
        filter.variant = p.variant;
        filter.point = p.point;
        filter.repeat = p.repeat;
        QVector<RequestRecord> records;
        if (!store.requests(runId, filter, &records)) {
            *error = store.errorString();
            return false;
        }
        if (records.isEmpty()) {
            *error = RunText::tr("run %1, %2 %3: no stored requests (imported without per-request arrays), so "
                                 "SGLang's figures cannot be computed")
                         .arg(runId)
                         .arg(p.variant, p.label);
            return false;
        }
        SglangLineSetup setup;
        setup.tag = row->name + u'/' + p.variant;
        setup.requestRate = p.mode == QLatin1String("rate") ? p.requestRate : std::numeric_limits<double>::infinity();
        setup.maxConcurrency = p.concurrency;
        double spread = 0;
        if (const Experiment *variant = run->variantOrRun(p.variant)) {
            const Experiment &x = *variant;
            setup.datasetName = x.dataset.name;
            spread = x.dataset.rangeRatio;
            if (x.endpoint.api() != Api::Chat)
                setup.backend = QStringLiteral("sglang-oai");
        }
        sglangRandomLengths(p.inputLen, p.outputLen, spread, &setup);
        out += writeSglangResultLine(setup, sglangSummary(p, records));
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(out) != out.size() || !f.commit()) {
        *error = RunText::tr("cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

} // namespace ServeScope
