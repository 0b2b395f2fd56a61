// SPDX-License-Identifier: MIT
#pragma once

#include "metrics/requestmetrics.h"
#include "model/experiment.h"

#include <QString>

#include <vector>

namespace ServeScope {

/// Watches a running point's finished requests for the experiment's SettleRule (docs/metrics.md, "Points that stop
/// once settled"): settled once at least rule.minRequests requests succeeded and the 95% order-statistic interval
/// of each of the TTFT, TPOT and E2EL medians is narrower than rule.width times the median. Checked as requests
/// arrive, each time the successful count has grown by 5% (at least 10 requests) since the last check, so the
/// cost stays linear in the point's requests.
class SettleWatch {
public:
    SettleWatch(const SettleRule &rule, DefinitionsProfile profile);

    /// Adds one finished measured request; true when the point has just settled (once).
    bool add(const RequestRecord &record);
    bool settled() const { return m_settled; }
    /// Successful requests when it settled, and the widest of the three intervals then, as a share of its median.
    int requests() const { return m_requestsAtSettle; }
    double widest() const { return m_widest; }

private:
    bool check();

    SettleRule m_rule;
    DefinitionsProfile m_profile;
    std::vector<double> m_ttft, m_tpot, m_e2el;
    std::size_t m_nextCheck;
    bool m_settled = false;
    int m_requestsAtSettle = 0;
    double m_widest = 0;
};

/// The widest relative width, (high - low) / median, of the 95% intervals of the medians of `series` (each
/// reordered; an empty one is left out: TPOT of one-token outputs); +inf when all are empty, or an interval cannot
/// be had, or a median is 0.
double widestMedianInterval(std::initializer_list<std::vector<double> *> series);

} // namespace ServeScope
