// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/capacity.h"
#include "metrics/estimates.h"
#include "metrics/requestmetrics.h"
#include "model/experiment.h"

#include <optional>

#include <QString>

#include <vector>

namespace ServeScope {

/// Watches a running point's finished requests for the experiment's SettleRule (docs/metrics.md, "Points that stop
/// once settled"): settled once at least rule.minRequests requests succeeded and the 95% order-statistic interval
/// of each of the TTFT, TPOT and E2EL medians is narrower than rule.width times the median. Checked as requests
/// arrive, each time the successful count has grown by 5% (at least 10 requests) since the last check, so the
/// cost stays linear in the point's requests. With rule.verdict and a capacity search's `slos`, it is also settled
/// once judgeLevel() decides the level's verdict on the requests so far.
class SettleWatch {
public:
    SettleWatch(
        const SettleRule &rule, DefinitionsProfile profile, const std::optional<CapacitySearch> &slos = std::nullopt);

    /// Adds one finished measured request; true when the point has just settled (once).
    bool add(const RequestRecord &record);
    bool settled() const { return m_settled; }
    /// Successful requests when it settled, and the widest of the three intervals then, as a share of its median.
    int requests() const { return m_requestsAtSettle; }
    double widest() const { return m_widest; }
    /// What settled it: Undecided for the width rule, else the level's verdict.
    SloVerdict verdict() const { return m_verdict; }

private:
    bool check();

    SettleRule m_rule;
    DefinitionsProfile m_profile;
    std::optional<CapacitySearch> m_slos; ///< set when the verdict rule applies
    std::vector<double> m_ttft, m_tpot, m_e2el;
    std::vector<RequestSample> m_samples; ///< for the verdict rule
    qint64 m_finished = 0, m_failed = 0;
    std::size_t m_nextCheck;
    bool m_settled = false;
    int m_requestsAtSettle = 0;
    double m_widest = 0;
    SloVerdict m_verdict = SloVerdict::Undecided;
};

/// The widest relative width, (high - low) / median, of the 95% intervals of the medians of `series` (each
/// reordered; an empty one is left out: TPOT of one-token outputs); +inf when all are empty, or an interval cannot
/// be had, or a median is 0.
double widestMedianInterval(std::initializer_list<std::vector<double> *> series);

} // namespace ServeScope
