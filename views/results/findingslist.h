// SPDX-License-Identifier: MIT
#pragma once

#include <QListWidget>

namespace ServeScope {

namespace Report {
struct ReportInput;
} // namespace Report

/// The Results page's Findings tab: what the shown runs' curves say, worded as the report words
/// them, lettered when runs are compared; the numbers behind each finding in its tooltip.
class FindingsList final : public QListWidget {
    Q_OBJECT
public:
    explicit FindingsList(QWidget *parent = nullptr);

    /// Shows the findings of `input`'s runs; returns how many there are.
    int showFindings(const Report::ReportInput &input);
};

} // namespace ServeScope
