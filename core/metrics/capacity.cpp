// SPDX-License-Identifier: MIT
#include "capacity.h"

#include "metrics/noisefloor.h"
#include "metrics/numpystats.h"
#include "model/clock.h"

#include <algorithm>
#include <cmath>

namespace ServeScope {

namespace {

// More than this share of failed requests fails a level whatever its latencies: errors are not capacity.
constexpr double kMaxFailedShare = 0.01;
// A refinement lands inside the bracket's middle, so each one narrows it by at least this share.
constexpr double kMinStep = 0.2;

double sampleMs(const RequestSample &s, const QString &metric)
{
    if (metric == QLatin1String("ttft"))
        return s.ttft * 1000;
    if (metric == QLatin1String("ttfo"))
        return s.ttfo * 1000;
    if (metric == QLatin1String("tpot"))
        return s.tpot * 1000;
    return s.e2el * 1000;
}

// Seconds, as the point's summary computes its percentiles (then ms).
std::vector<double> valuesOf(const std::vector<RequestSample> &pooled, const QString &metric)
{
    std::vector<double> v;
    if (metric == QLatin1String("itl")) {
        for (const RequestSample &s : pooled)
            for (qint64 ns : s.itlNs)
                v.push_back(nsToSeconds(ns));
        return v;
    }
    v.reserve(pooled.size());
    for (const RequestSample &s : pooled) {
        const double ms = sampleMs(s, metric);
        if (std::isfinite(ms))
            v.push_back(ms / 1000);
    }
    return v;
}

// Wilson's 95% interval of a proportion.
Interval wilson(double met, double n)
{
    if (n <= 0)
        return {};
    constexpr double z = 1.959963984540054;
    const double p = met / n, z2 = z * z;
    const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    return { std::max(0.0, centre - half), std::min(1.0, centre + half), true };
}

// Lower is better for latencies, higher for the attainment.
// Without an interval (too few requests for one) a whole level is judged by its estimate, a level in progress not.
SloVerdict verdictOf(const SloReading &r, bool higherIsBetter, bool needInterval)
{
    const bool meets = higherIsBetter ? r.value >= r.bound : r.value <= r.bound;
    if (!r.ci.valid)
        return needInterval ? SloVerdict::Undecided : meets ? SloVerdict::Meets : SloVerdict::Fails;
    const double worst = higherIsBetter ? r.ci.low : r.ci.high;
    const double best = higherIsBetter ? r.ci.high : r.ci.low;
    const bool surelyMeets = higherIsBetter ? worst >= r.bound : worst <= r.bound;
    const bool surelyFails = higherIsBetter ? best < r.bound : best > r.bound;
    if (meets && surelyMeets)
        return SloVerdict::Meets;
    if (!meets && surelyFails)
        return SloVerdict::Fails;
    return SloVerdict::Undecided;
}

QString num(double v)
{
    return formatNumber(std::abs(v) >= 100 ? std::round(v) : std::round(v * 100) / 100);
}

} // namespace

CapacitySearcher::CapacitySearcher(const CapacitySearch &spec, LoadMode mode)
    : m_spec(spec)
    , m_mode(mode)
{
}

double CapacitySearcher::roundLevel(double load) const
{
    if (m_mode == LoadMode::Concurrency)
        return std::max(1.0, std::round(load));
    return load;
}

CapacityLevel *CapacitySearcher::levelAt(double load)
{
    for (CapacityLevel &l : m_levels) {
        if (l.load == load)
            return &l;
    }
    return nullptr;
}

int CapacitySearcher::reusedLevels() const
{
    return int(std::count_if(m_levels.cbegin(), m_levels.cend(), [](const CapacityLevel &l) { return l.point < 0; }));
}

void CapacitySearcher::add(double load, int point, const std::vector<RequestSample> &samples, qint64 attempted)
{
    if (point >= 0)
        ++m_measurements;
    CapacityLevel *level = levelAt(load);
    if (!level || load != m_last)
        m_pooled.clear();
    if (!level) {
        CapacityLevel fresh;
        fresh.load = load;
        fresh.point = point;
        const auto at = std::lower_bound(
            m_levels.begin(), m_levels.end(), load, [](const CapacityLevel &l, double v) { return l.load < v; });
        level = &*m_levels.insert(at, fresh);
    } else if (level->point < 0) {
        level->point = point; // a reused level measured again
    }
    m_last = load;
    m_pooled.insert(m_pooled.end(), samples.begin(), samples.end());
    ++level->repeats;
    level->attempted += attempted;
    level->failed += std::max<qint64>(0, attempted - qint64(samples.size()));
    judge(*level, m_pooled);
    if (level->verdict != SloVerdict::Undecided)
        m_pooled.clear(); // decided: its requests are no longer needed
}

void CapacitySearcher::reuse(double load, const std::vector<RequestSample> &samples, qint64 attempted)
{
    add(load, -1, samples, attempted);
    m_last = 0; // not a level to repeat
    m_pooled.clear();
}

void CapacitySearcher::judge(CapacityLevel &level, const std::vector<RequestSample> &pooled)
{
    judgeLevel(m_spec, level, pooled, false);
    if (level.verdict == SloVerdict::Undecided && level.repeats >= m_spec.maxRepeats)
        settle(level);
}

void judgeLevel(
    const CapacitySearch &spec, CapacityLevel &level, const std::vector<RequestSample> &pooled, bool needIntervals)
{
    level.readings.clear();
    for (const Slo &slo : spec.slos) {
        std::vector<double> v = valuesOf(pooled, slo.metric);
        SloReading r { slo.key(), 0, slo.maxMs, {}, SloVerdict::Fails };
        if (!v.empty()) {
            std::sort(v.begin(), v.end());
            r.value = Stats::percentileSorted(v, slo.percentile) * 1000;
            const Interval ci = percentileInterval(v, slo.percentile);
            // One run's requests say nothing of the next run's: the reading spans the run-to-run noise
            // of its repeats as well (metrics/noisefloor.h); a whole level without a requests' interval
            // has that alone.
            const double half = r.value * runToRunHalfWidth(r.key, level.repeats);
            if (ci.valid)
                r.ci = { std::min(ci.low * 1000, r.value - half), std::max(ci.high * 1000, r.value + half), true };
            else if (!needIntervals)
                r.ci = { r.value - half, r.value + half, true };
            r.verdict = verdictOf(r, false, needIntervals);
        } else {
            r.value = std::numeric_limits<double>::quiet_NaN();
        }
        level.readings << r;
    }
    if (spec.attainment > 0) {
        double met = 0;
        for (const RequestSample &s : pooled) {
            bool ok = true;
            for (const Slo &slo : spec.slos) {
                if (slo.metric == QLatin1String("itl")) { // the request's mean gap, as AIPerf's goodput reads ITL
                    if (!s.itlNs.isEmpty())
                        ok = ok && Stats::mean(s.itlSeconds()) * 1000 <= slo.maxMs;
                } else {
                    const double ms = sampleMs(s, slo.metric);
                    // No TPOT (one token) breaks no bound; no answer after the reasoning misses TTFO's.
                    ok = ok && (std::isfinite(ms) ? ms <= slo.maxMs : slo.metric != QLatin1String("ttfo"));
                }
            }
            met += ok;
        }
        const double n = double(level.attempted);
        SloReading r { QStringLiteral("attainment"), n > 0 ? met / n : 0, spec.attainment, wilson(met, n),
            SloVerdict::Fails };
        r.verdict = verdictOf(r, true, needIntervals);
        level.readings << r;
    }
    const bool erroring = level.attempted == 0 || double(level.failed) > kMaxFailedShare * double(level.attempted);
    level.verdict = erroring ? SloVerdict::Fails : SloVerdict::Meets;
    for (const SloReading &r : std::as_const(level.readings)) {
        if (r.verdict == SloVerdict::Fails)
            level.verdict = SloVerdict::Fails;
        else if (r.verdict == SloVerdict::Undecided && level.verdict == SloVerdict::Meets)
            level.verdict = SloVerdict::Undecided;
    }
}

// Out of repeats: the estimates decide.
void CapacitySearcher::settle(CapacityLevel &level)
{
    level.byEstimate = true;
    level.verdict = SloVerdict::Meets;
    for (const SloReading &r : std::as_const(level.readings)) {
        const bool meets = r.key == QLatin1String("attainment") ? r.value >= r.bound : r.value <= r.bound;
        if (!meets)
            level.verdict = SloVerdict::Fails;
    }
}

bool CapacitySearcher::converged(double low, double high) const
{
    const double width = high - low;
    if (m_mode == LoadMode::Concurrency)
        return width <= std::max(1.0, std::floor(m_spec.resolution * low));
    return width <= m_spec.resolution * low;
}

// Where a line through the two levels' readings crosses the tightest bound the high level fails.
double CapacitySearcher::refine(const CapacityLevel &low, const CapacityLevel &high) const
{
    double t = 0.5;
    bool any = false;
    for (qsizetype i = 0; i < high.readings.size() && i < low.readings.size(); ++i) {
        const SloReading &a = low.readings[i], &b = high.readings[i];
        if (b.verdict != SloVerdict::Fails || !std::isfinite(a.value) || !std::isfinite(b.value) || a.value == b.value)
            continue;
        const double crossing = (a.bound - a.value) / (b.value - a.value);
        if (std::isfinite(crossing)) {
            t = any ? std::min(t, crossing) : crossing;
            any = true;
        }
    }
    t = std::clamp(t, kMinStep, 1 - kMinStep);
    double x = roundLevel(low.load + t * (high.load - low.load));
    if (m_mode == LoadMode::Concurrency)
        x = std::clamp(x, low.load + 1, high.load - 1);
    return x;
}

double CapacitySearcher::midpoint(const CapacityLevel &low, const CapacityLevel &high) const
{
    if (m_mode == LoadMode::Concurrency)
        return std::floor((low.load + high.load) / 2);
    return (low.load + high.load) / 2;
}

std::pair<const CapacityLevel *, const CapacityLevel *> CapacitySearcher::bracket() const
{
    const CapacityLevel *meet = nullptr, *fail = nullptr;
    for (const CapacityLevel &l : m_levels) { // sorted by load
        if (l.verdict == SloVerdict::Fails) {
            fail = &l;
            break;
        }
        if (l.verdict == SloVerdict::Meets)
            meet = &l;
    }
    return { meet, fail };
}

CapacitySearcher::Next CapacitySearcher::next(bool outOfTime)
{
    if (m_levels.isEmpty())
        return { false, roundLevel(m_spec.start), false, {} };
    if (CapacityLevel *last = levelAt(m_last); last && last->verdict == SloVerdict::Undecided) {
        if (!outOfTime)
            return { false, last->load, true, {} };
        settle(*last);
    }
    const auto [meet, fail] = bracket();
    if (outOfTime)
        return { true, 0, false, QStringLiteral("time") };
    const double max = roundLevel(m_spec.max);
    if (!fail && meet && meet->load >= max)
        return { true, 0, false, QStringLiteral("max") };
    const double floor = m_mode == LoadMode::Concurrency ? 1 : m_spec.start / 1024;
    if (!meet && fail && fail->load <= floor)
        return { true, 0, false, QStringLiteral("none") };
    if (meet && fail && converged(meet->load, fail->load))
        return { true, 0, false, QStringLiteral("converged") };
    if (m_levels.size() - reusedLevels() >= m_spec.maxPoints)
        return { true, 0, false, QStringLiteral("points") };
    if (!fail) // bracket upwards
        return { false, std::min(max, roundLevel(meet->load * 2)), false, {} };
    if (!meet) { // bracket downwards
        double x = std::max(floor, roundLevel(fail->load / 2));
        if (x >= fail->load)
            x = fail->load - 1;
        return { false, x, false, {} };
    }
    // A line through a curve that bends upward (queueing) lands on the same side each time: every
    // other refinement halves the bracket instead.
    const bool bisect = m_refinements++ % 2 == 1;
    return { false, bisect ? midpoint(*meet, *fail) : refine(*meet, *fail), false, {} };
}

CapacityResult CapacitySearcher::result(const QString &variant, const QString &stop) const
{
    CapacityResult r;
    r.variant = variant;
    r.stop = stop;
    r.levels = int(m_levels.size());
    r.reused = reusedLevels();
    r.measurements = m_measurements;
    const auto [meet, fail] = bracket();
    if (meet)
        r.capacity = meet->load;
    if (fail)
        r.upper = fail->load;
    return r;
}

QString CapacitySearcher::describe(const CapacityLevel &level)
{
    QStringList parts;
    for (const SloReading &r : level.readings) {
        const QString verdict = r.verdict == SloVerdict::Meets ? QStringLiteral("meets")
            : r.verdict == SloVerdict::Fails                   ? QStringLiteral("fails")
                                                               : QStringLiteral("undecided");
        const bool share = r.key == QLatin1String("attainment");
        QString line = r.key + u' ' + num(r.value);
        if (r.ci.valid)
            line += u" (" + num(r.ci.low) + u".." + num(r.ci.high) + u')';
        line += (share ? QStringLiteral(" >= ") : QStringLiteral(" <= ")) + num(r.bound) + u' ' + verdict;
        parts << line;
    }
    if (level.attempted > 0 && level.failed > 0)
        parts << QStringLiteral("failed %1 of %2").arg(level.failed).arg(level.attempted);
    if (level.byEstimate)
        parts << QStringLiteral("decided by the estimates after %1 repeats").arg(level.repeats);
    return parts.join(QStringLiteral("; "));
}

PointEstimate storedCapacity(qint64 runId, const CapacityResult &result)
{
    PointEstimate e;
    e.runId = runId;
    e.variant = result.variant;
    e.point = -1;
    e.metric = QString::fromLatin1(kCapacityKey);
    e.repeats = result.levels;
    e.cv = result.reused;
    e.median = e.min = e.ciLow = result.capacity;
    e.max = e.ciHigh = std::isfinite(result.upper) ? result.upper : 0;
    e.ciMethod = QStringLiteral("capacity-") + result.stop;
    return e;
}

std::optional<CapacityResult> capacityOf(const PointEstimate &stored)
{
    if (stored.metric != QLatin1String(kCapacityKey) || !stored.ciMethod.startsWith(QLatin1String("capacity-")))
        return std::nullopt;
    CapacityResult r;
    r.variant = stored.variant;
    r.capacity = stored.median;
    r.upper = stored.max > 0 ? stored.max : std::numeric_limits<double>::infinity();
    r.levels = stored.repeats;
    r.reused = int(stored.cv);
    r.stop = stored.ciMethod.mid(int(qstrlen("capacity-")));
    return r;
}

MetricEstimate capacityEstimate(const CapacityResult &result)
{
    MetricEstimate e;
    e.key = QStringLiteral("capacity");
    e.repeats.n = 1;
    e.repeats.median = e.repeats.min = e.repeats.max = result.capacity;
    if (std::isfinite(result.upper)) {
        e.ci = { result.capacity, result.upper, true };
        e.method = QStringLiteral("bracket");
    }
    return e;
}

RunFinding capacityFinding(const CapacityResult &r, LoadMode mode)
{
    RunFinding f;
    f.code = QStringLiteral("capacity");
    f.kind = RunFinding::Kind::Info;
    f.variant = r.variant;
    const auto label = [mode](double level) {
        return mode == LoadMode::Concurrency ? QLatin1Char('c') + formatNumber(level)
                                             : QLatin1Char('r') + formatNumber(level);
    };
    if (r.found())
        f.points << label(r.capacity);
    if (std::isfinite(r.upper))
        f.points << label(r.upper);
    f.evidence = { { QStringLiteral("capacity"), r.capacity },
        { QStringLiteral("upper"), std::isfinite(r.upper) ? r.upper : -1.0 },
        { QStringLiteral("levels"), double(r.levels) }, { QStringLiteral("reused"), double(r.reused) },
        { QStringLiteral("rate"), mode == LoadMode::Rate ? 1.0 : 0.0 } };
    return f;
}

QString capacitySentence(const CapacityResult &r, LoadMode mode)
{
    const QString unit = mode == LoadMode::Concurrency ? QStringLiteral("concurrency") : QStringLiteral("req/s");
    QString upper = std::isfinite(r.upper) ? num(r.upper) : QStringLiteral("not reached");
    QString line = QStringLiteral("capacity %1 %2 (next level failing: %3; stop: %4; %5 levels")
                       .arg(unit, num(r.capacity), upper, r.stop)
                       .arg(r.levels);
    if (r.reused > 0)
        line += QStringLiteral(", %1 reused").arg(r.reused);
    if (r.measurements > 0)
        line += QStringLiteral(", %1 measurements").arg(r.measurements);
    return line + u')';
}

} // namespace ServeScope
