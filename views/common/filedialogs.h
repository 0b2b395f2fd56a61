// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <functional>

class QFileDialog;
class QWidget;

namespace ServeScope {

/// Opens a file dialog with open() instead of exec(): no nested event loop, so a running benchmark keeps
/// flowing. `done` gets the chosen path; the dialog deletes itself. It opens in `proposed` when that is
/// a whole path, else in the folder a file was last chosen in (the home folder at first, never the
/// folder the window was started from) with `proposed` as the file's name.
QFileDialog *chooseFile(QWidget *parent, bool save, const QString &title, const QString &filter,
    std::function<void(const QString &)> done, const QString &proposed = {});
/// One or more existing files, as chooseFile.
void chooseFiles(
    QWidget *parent, const QString &title, const QString &filter, std::function<void(const QStringList &)> done);
/// `name` made a file name: what a file system or a shell would stumble on replaced by '-', never empty.
QString fileNameFor(const QString &name, const QString &suffix);
/// A warning that must be seen but must not stop a scripted run: non-modal, deleted on close,
/// named `projectWarning`.
void showWarning(QWidget *parent, const QString &title, const QString &text);

} // namespace ServeScope
