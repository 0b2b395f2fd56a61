// SPDX-License-Identifier: MIT
#include "import/resultpoint.h"

#include "import/resultrecompute.h"
#include "metrics/estimates.h"
#include "metrics/numpystats.h"
#include "metrics/requestmetrics.h"
#include "model/clock.h"
#include "storage/storewriter.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace ServeScope {

namespace {

constexpr double kLadder[] = { 1, 10, 25, 50, 75, 90, 99 };

// Any monotonic origin works for rebuilt times: 1,000 s keeps every offset positive.
constexpr qint64 kOriginNs = 1'000'000'000'000;

const DistributionField *distributionField(QStringView code)
{
    for (const DistributionField &f : distributionFields()) {
        if (code == QLatin1String(f.code))
            return &f;
    }
    return nullptr;
}

void setStatistic(Distribution &d, const QString &stat, double v)
{
    if (stat == QLatin1String("mean"))
        d.mean = v;
    else if (stat == QLatin1String("median"))
        d.median = v;
    else if (stat == QLatin1String("std"))
        d.std = v;
    else if (stat.startsWith(u'p')) {
        const double p = stat.mid(1).toDouble();
        double *ladder[] = { &d.p1, &d.p10, &d.p25, &d.p50, &d.p75, &d.p90, &d.p99 };
        for (int i = 0; i < 7; ++i) {
            if (kLadder[i] == p) {
                *ladder[i] = v;
                return;
            }
        }
        for (auto &e : d.extra) {
            if (e.first == p) {
                e.second = v;
                return;
            }
        }
        d.extra.append({ p, v });
    }
}

// The percentiles the file gives that are not on ServeScope's ladder (SGLang's p95), so the
// recomputed distributions carry them too.
std::vector<double> extraPercentiles(const ResultRun &run)
{
    std::vector<double> out;
    for (auto it = run.numbers.cbegin(); it != run.numbers.cend(); ++it) {
        QString stat, metric;
        if (!distributionKey(it.key(), &stat, &metric) || !stat.startsWith(u'p'))
            continue;
        const double p = stat.mid(1).toDouble();
        if (std::find(std::begin(kLadder), std::end(kLadder), p) == std::end(kLadder)
            && std::find(out.begin(), out.end(), p) == out.end())
            out.push_back(p);
    }
    return out;
}

void fromArrays(const ResultRun &run, PointSummary &s)
{
    ArrayStats c = recomputeArrays(run);
    const std::vector<double> extra = extraPercentiles(run);
    s.completed = c.completed;
    s.failed = c.failed;
    s.totalInputTokens = c.totalIn;
    s.totalOutputTokens = c.totalOut;
    s.maxOutputTokensPerS = c.maxTokensPerS;
    s.maxConcurrentRequests = c.maxConcurrent;
    s.ttft = Stats::describeSeconds(c.ttft, extra);
    s.tpot = Stats::describeSeconds(c.tpot, extra);
    s.itl = Stats::describeSeconds(c.itl, extra);
    s.e2el = Stats::describeSeconds(c.e2el, extra);
    if (s.duration > 0) {
        s.requestThroughput = s.completed / s.duration;
        s.outputThroughput = double(s.totalOutputTokens) / s.duration;
        s.totalTokenThroughput = double(s.totalInputTokens + s.totalOutputTokens) / s.duration;
        s.averageConcurrency = c.e2elSum / s.duration;
    }
}

// The file's own figures over the recomputed ones (result-file key -> summary field).
void overlayFile(const ResultRun &run, PointSummary &s)
{
    const auto num = [&](const char *key, auto *field) {
        const auto it = run.numbers.constFind(QLatin1String(key));
        if (it != run.numbers.cend() && std::isfinite(it.value()))
            *field = std::remove_pointer_t<decltype(field)>(it.value());
    };
    num("completed", &s.completed);
    num("failed", &s.failed);
    num("total_input_tokens", &s.totalInputTokens);
    num("total_output_tokens", &s.totalOutputTokens);
    num("request_throughput", &s.requestThroughput);
    num("output_throughput", &s.outputThroughput);
    num("total_throughput", &s.totalTokenThroughput);
    num("total_token_throughput", &s.totalTokenThroughput);
    num("request_goodput", &s.requestGoodput);
    num("max_output_tokens_per_s", &s.maxOutputTokensPerS);
    num("max_concurrent_requests", &s.maxConcurrentRequests);
    num("concurrency", &s.averageConcurrency);
    num("servescope_concurrency", &s.averageConcurrency);
    num("servescope_success_rate", &s.successRate);
    num("servescope_warmup_requests", &s.warmup);
    num("servescope_cancelled_requests", &s.cancelled);
    num("servescope_discarded_requests", &s.discarded);
    num("servescope_output_estimated", &s.outputEstimated);
    num("servescope_input_estimated", &s.inputEstimated);
    num("servescope_rate_limited", &s.rateLimited);
    num("servescope_short_outputs", &s.shortOutputs);
    num("servescope_role_gap_ms", &s.roleGapMs);
    num("servescope_reasoning_tokens", &s.reasoningTokens);
    num("servescope_reasoning_estimated", &s.reasoningEstimated);
    num("servescope_cached_tokens", &s.cachedTokens);
    num("servescope_cached_prompt_tokens", &s.cachedPromptTokens);
    for (auto it = run.numbers.cbegin(); it != run.numbers.cend(); ++it) {
        QString key = it.key();
        for (const auto &[prefix, map] : { std::pair { "servescope_steady_", &s.steady },
                 { "servescope_server_", &s.server }, { "servescope_client_", &s.client } }) {
            if (key.startsWith(QLatin1String(prefix)))
                map->insert(key.mid(int(qstrlen(prefix))), it.value());
        }
        if (key.startsWith(QLatin1String("servescope_")) && isTurnKey(key.mid(11)))
            s.turns.insert(key.mid(11), it.value());
        if (key.startsWith(QLatin1String("servescope_")))
            key = key.mid(11); // ServeScope's own distributions (ttfc, ttfo, citl)
        static const QRegularExpression re(QStringLiteral("^(mean|median|std|p[0-9]+(?:\\.[0-9]+)?)_([a-z0-9]+)_ms$"));
        const QRegularExpressionMatch m = re.match(key);
        const DistributionField *f = m.hasMatch() ? distributionField(m.capturedView(2)) : nullptr;
        if (f && f->vllmKey != it.key().startsWith(QLatin1String("servescope_")) && std::isfinite(it.value()))
            setStatistic(s.*f->member, m.captured(1), it.value());
    }
}

} // namespace

PointSummary importedSummary(const ResultRun &run, const PointPlace &place, const QString &definitions)
{
    PointSummary s;
    s.setKey(place.key());
    s.runId = place.runId;
    s.repeat = 1;
    s.definitions = definitions;
    s.duration = run.number(QStringLiteral("duration"), 0);
    if (run.hasArrays) {
        fromArrays(run, s);
    } else {
        // Without arrays a statistic the file does not give is unknown (NaN, shown as a gap), not 0 ms.
        const double unknown = std::numeric_limits<double>::quiet_NaN();
        for (const DistributionField &field : distributionFields()) {
            Distribution &d = s.*field.member;
            for (double *f : { &d.mean, &d.median, &d.std, &d.p1, &d.p10, &d.p25, &d.p50, &d.p75, &d.p90, &d.p99 })
                *f = unknown;
        }
        s.ttft.count = s.e2el.count = int(run.number(QStringLiteral("completed"), 0));
    }
    overlayFile(run, s);
    for (const DistributionField &f : distributionFields()) {
        Distribution &d = s.*f.member;
        if (!run.hasArrays && std::isnan(d.p50))
            d.p50 = d.median;
    }
    const int finished = s.completed + s.failed;
    if (!run.numbers.contains(QStringLiteral("servescope_success_rate")))
        s.successRate = finished > 0 ? double(s.completed) / finished : 0.0;
    return s;
}

namespace {

// A time from a file as nanoseconds; what is no time (NaN, negative, beyond int64's nanoseconds) reads 0 —
// a failed request's times are not checked before the import (checkResultCounts checks the rest).
qint64 nsOf(double seconds)
{
    return std::isfinite(seconds) && seconds >= 0 && seconds < 1e9 ? secondsToNs(seconds) : 0;
}

} // namespace

QVector<RequestRecord> importedRecords(const ResultRun &run, const PointPlace &place, qsizetype from, qsizetype count)
{
    QVector<RequestRecord> out;
    if (!run.hasArrays)
        return out;
    const qsizetype n = run.ttfts.size();
    const qsizetype to = count < 0 ? n : std::min(n, from + count);
    out.reserve(std::max<qsizetype>(0, to - from));
    for (qsizetype i = from; i < to; ++i) {
        RequestRecord r;
        r.runId = place.runId;
        r.variant = place.variant;
        r.point = place.point;
        r.repeat = 1;
        r.index = int(i);
        r.startNs = kOriginNs + (i < run.startTimes.size() ? nsOf(run.startTimes.at(i)) : 0);
        r.slotNs = r.startNs;
        r.scheduledNs = r.startNs - (i < run.queueTimes.size() ? nsOf(run.queueTimes.at(i)) : 0);
        const QString error = run.errors.value(i);
        r.status = error.isEmpty() ? RequestStatus::Ok : RequestStatus::Failed;
        r.errorClass = error.isEmpty() ? ErrorClass::None : ErrorClass::Protocol;
        r.errorText = error;
        r.httpStatus = error.isEmpty() ? 200 : 0;
        r.promptTokens = int(run.inputLens.value(i));
        r.completionTokens = int(run.outputLens.value(i));
        r.targetInputLen = place.inputLen;
        r.targetOutputLen = place.outputLen;
        if (i < run.generatedTexts.size())
            r.generatedText = run.generatedTexts.utf8(i).toByteArray();
        qint64 t = 0;
        if (error.isEmpty()) {
            t = nsOf(run.ttfts.at(i));
            r.eventNs.append(t);
            r.eventKinds.append(EventKind::Content);
            for (double gap : run.itls.value(i)) {
                t += nsOf(gap);
                r.eventNs.append(t);
                r.eventKinds.append(EventKind::Content);
            }
        }
        r.endNs = r.startNs + (i < run.latencies.size() ? std::max(t, nsOf(run.latencies.at(i))) : t);
        out.append(r);
    }
    return out;
}

void storeImportedPoint(StoreWriter &writer, const ResultRun &run, const PointPlace &place, const QString &definitions)
{
    // The writer's commit (StoreWriter::Options::commitRows): a batch is one transaction's worth.
    constexpr qsizetype kBatch = 2000;
    const PointSummary summary = importedSummary(run, place, definitions);
    const DefinitionsProfile profile = definitionsFromCode(definitions);
    const qsizetype n = run.hasArrays ? run.ttfts.size() : 0;
    std::vector<RequestSample> samples;
    samples.reserve(size_t(n)); // at most one a request: grown by doubling, it would peak at three times that
    for (qsizetype from = 0; from < n; from += kBatch) {
        QVector<RequestRecord> records = importedRecords(run, place, from, kBatch);
        std::vector<RequestSample> some = requestSamples(records, profile);
        samples.insert(samples.end(), std::make_move_iterator(some.begin()), std::make_move_iterator(some.end()));
        writer.enqueue(std::move(records));
        writer.catchUp();
    }
    writer.enqueue(summary);
    PointRepeats repeats;
    addRepeat(&repeats, summary, std::move(samples));
    for (const PointEstimate &e : estimateRepeats(place.runId, repeats).stored)
        writer.enqueue(e);
}

} // namespace ServeScope
