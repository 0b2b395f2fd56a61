// SPDX-License-Identifier: MIT
#include "settle.h"

#include "intervals.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ServeScope {

double widestMedianInterval(std::initializer_list<std::vector<double> *> series)
{
    double widest = -1;
    for (std::vector<double> *values : series) {
        if (values->empty())
            continue;
        const Interval ci = percentileInterval(*values, 50);
        const auto middle = values->begin() + std::ptrdiff_t(values->size() / 2);
        std::nth_element(values->begin(), middle, values->end());
        const double median = *middle; // a check, not a report: the upper middle value is near enough
        if (!ci.valid || !(median > 0))
            return std::numeric_limits<double>::infinity();
        widest = std::max(widest, (ci.high - ci.low) / median);
    }
    return widest < 0 ? std::numeric_limits<double>::infinity() : widest;
}

SettleWatch::SettleWatch(const SettleRule &rule, DefinitionsProfile profile, const std::optional<CapacitySearch> &slos)
    : m_rule(rule)
    , m_profile(profile)
    , m_slos(rule.verdict ? slos : std::nullopt)
    , m_nextCheck(std::size_t(std::max(10, rule.minRequests)))
{
}

bool SettleWatch::add(const RequestRecord &record)
{
    if (!m_rule.enabled() || m_settled || record.warmup)
        return false;
    const RequestMetrics m = deriveRequest(record, m_profile);
    if (m.cancelled)
        return false;
    ++m_finished; // a capacity level's failures count against it
    if (!m.counted) {
        ++m_failed;
        return false;
    }
    if (m_slos) {
        if (std::optional<RequestSample> s = requestSample(record, m_profile))
            m_samples.push_back(std::move(*s));
    }
    m_ttft.push_back(m.ttft);
    m_e2el.push_back(m.e2el);
    if (m.hasTpot)
        m_tpot.push_back(m.tpot);
    if (m_ttft.size() < m_nextCheck)
        return false;
    m_nextCheck = m_ttft.size() + std::max<std::size_t>(10, m_ttft.size() / 20);
    return check();
}

bool SettleWatch::check()
{
    const double widest = widestMedianInterval({ &m_ttft, &m_tpot, &m_e2el });
    if (m_slos) {
        CapacityLevel level;
        level.repeats = 1;
        level.attempted = m_finished;
        level.failed = m_failed;
        judgeLevel(*m_slos, level, m_samples, true);
        m_verdict = level.verdict;
    }
    if (!(m_rule.width > 0 && widest < m_rule.width) && m_verdict == SloVerdict::Undecided)
        return false;
    m_settled = true;
    m_requestsAtSettle = int(m_ttft.size());
    m_widest = widest;
    return true;
}

} // namespace ServeScope
