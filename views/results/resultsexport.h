// SPDX-License-Identifier: MIT
#pragma once

#include "charts/chartexporter.h"

#include <QObject>
#include <QSize>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace ServeScope {

class ProjectSession;
class ResultsView;

/// Everything that leaves the Results page: File → Export results (chart, report, table, copy
/// chart, the chart size), the chart's context menu, and a point's prompts as a dataset. It says
/// what happened through status() (the window's status bar), logged() and warning().
class ResultsExport final : public QObject {
    Q_OBJECT
public:
    /// Dialogs open over `window`, which owns this object.
    ResultsExport(ResultsView *results, ProjectSession *session, QWidget *window);

    /// Adds the Export results submenu to `file` and the chart's context-menu actions.
    void createActions(QMenu *file);
    /// Export chart, report, table, copy chart: enabled while the Results page shows something.
    const QList<QAction *> &actions() const { return m_actions; }

    /// Exports of what the Results page shows; false with *error when there is nothing or writing failed.
    bool exportChart(const QString &path, QString *error);
    bool exportReport(const QString &path, QString *error);
    bool exportTable(const QString &path, QString *error);
    void copyChart();
    /// Charts are exported and copied at least this large unless the user types a smaller custom size.
    static constexpr QSize kMinimumChartSize { 1200, 700 };
    /// The size and scale a chart is exported and copied at (File → Export results → Chart size).
    Report::ExportOptions chartExportOptions() const;
    /// Chart size → Custom size…: exports and copies at exactly `size` from now on.
    void setCustomChartSize(const QSize &size);

signals:
    /// A message for the status bar; `timeoutMs` 0 keeps it until the next one (empty clears it).
    void status(const QString &text, int timeoutMs);
    void logged(const QString &level, const QString &text);
    void warning(const QString &title, const QString &text);

private:
    void choosePromptsFolder(qint64 runId, const QString &variant, int point, int repeat, const QString &label);
    void showExportedPrompts(
        const QStringList &files, const QStringList &commands, const QStringList &warnings, const QString &error);
    void chooseCustomChartSize();
    void syncChartSizeMenu();
    /// A save dialog in the last export's folder (else the project's) with a suggested name
    /// (suggestedName); choosing another file type changes the name's suffix.
    void chooseExportFile(const QString &title, const QString &filter, const QString &suffix, const QString &kind,
        std::function<void(const QString &)> done);
    /// "<project>-run1-vs-run2-<kind>.<suffix>" for the runs shown.
    QString suggestedName(const QString &kind, const QString &suffix) const;
    /// The saved project's folder; empty for an unsaved one.
    QString projectFolder() const;
    void reportExport(bool ok, const QString &path);
    void exportReportWithProgress(const QString &path);

    ResultsView *m_results;
    ProjectSession *m_session;
    QWidget *m_window;
    QList<QAction *> m_actions;
    QAction *m_custom = nullptr;
    QString m_exportError;
};

} // namespace ServeScope
