// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <functional>

class QFileDialog;
class QWidget;

namespace ServeScope {

/// Opens a file dialog with open() instead of exec(): no nested event loop, so a running benchmark keeps
/// flowing. `done` gets the chosen path; the dialog deletes itself.
QFileDialog *chooseFile(
    QWidget *parent, bool save, const QString &title, const QString &filter, std::function<void(const QString &)> done);
/// One or more existing files, as chooseFile.
void chooseFiles(
    QWidget *parent, const QString &title, const QString &filter, std::function<void(const QStringList &)> done);
/// A warning that must be seen but must not stop a scripted run: non-modal, deleted on close,
/// named `projectWarning`.
void showWarning(QWidget *parent, const QString &title, const QString &text);

} // namespace ServeScope
