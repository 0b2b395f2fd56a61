// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableWidget;

namespace ServeScope {

class ExperimentDocument;
class FormBinder;
class KeyValueTable;

/// Server (engine, args, launch argv template and how it would run) and the environment snapshot,
/// each snapshot field with its source (typed, captured from the server, or from the env probe).
class ServerTab final : public QWidget {
    Q_OBJECT
public:
    explicit ServerTab(ExperimentDocument *document, QWidget *parent = nullptr);
    void refresh();

    /// The launch argv with `{server.args.NAME}` placeholders filled in, exactly as it would run.
    static QStringList renderLaunch(const Experiment &experiment);
    /// Env snapshot entries from pasted JSON: an object (nested keys joined with '.'), an array of
    /// [key, value] pairs, or of {key, value, source} objects. Empty with `error` set on failure.
    static EnvSnapshot parseEnvJson(const QByteArray &json, EnvSource source, QString *error);

signals:
    /// "Capture from server": the window runs a connection test and fills in what the server told.
    void captureRequested();

private:
    /// Engine, arguments, the launch command as it would run, and the readiness probe.
    QWidget *serverBox();
    void addGpuRows(QFormLayout *form);
    /// The snapshot's table with Add, Remove, Paste JSON… and Capture from server.
    QWidget *envBox();
    void envEdited();
    void pasteEnv();
    void addEnvRow();
    void removeEnvRow();

    ExperimentDocument *m_document;
    FormBinder *m_binder;
    KeyValueTable *m_args;
    QPlainTextEdit *m_argv;
    QLabel *m_rendered;
    QTableWidget *m_env;
    bool m_loading = false;
};

} // namespace ServeScope
