// SPDX-License-Identifier: MIT
#pragma once

#include "model/experiment.h"

#include <QStringList>
#include <QUrl>

namespace ServeScope {

/// The launch argv of a resolved variant: every `{server.args.NAME}` replaced by that value (numbers in
/// C locale, integers without a fraction, booleans as true/false), `{endpoint.model}` by the model and
/// `{port}` by the base URL's port (80/443 when it names none). Each element stays one argument: no
/// shell, no splitting. False with `error` for a placeholder whose value is missing, null or a list.
bool renderLaunchArgv(const Experiment &resolved, const QUrl &base, QStringList *argv, QString *error);
/// The launch argv as the editor previews it before a run: as renderLaunchArgv, but a placeholder that
/// cannot be rendered stands as `<unset>` and the rest is still rendered.
QStringList previewLaunchArgv(const Experiment &resolved, const QUrl &base);

} // namespace ServeScope
