// SPDX-License-Identifier: MIT
#pragma once

#include "runbundle.h"
#include "teamdburl.h"

#include <QStringList>

#include <functional>

namespace ServeScope {

struct PublishOptions {
    QStringList tags; ///< stored with the run; added to a run published before
    int attempts = 3; ///< tries when the connection is lost during the transaction
    int retryDelayMs = 1000; ///< wait before the second try, doubled for each further one
    /// Called with a plain C-locale line for each failed try that is retried.
    std::function<void(const QString &)> note;
};

struct PublishResult {
    bool ok = false;
    QString error;
    QString uid; ///< the run's stable id (stableRunId)
    bool existed = false; ///< the run was published before: nothing but new tags was written
    int attempts = 0; ///< tries made
    qint64 requests = 0; ///< requests written (0 when it existed)
};

/// Publishes a run in one transaction: schema (created on first use), run row with tags, variants,
/// summaries, statistics across repeats, requests with their event blobs, prompts, server series and
/// logs. A run whose stable id is there already is not written again. A lost connection rolls the
/// transaction back and is retried up to `attempts` times; a refused connection (wrong password,
/// unreachable host) is not.
PublishResult publishRun(
    const TeamDbUrl &url, const QByteArray &password, const RunBundle &bundle, const PublishOptions &options);

} // namespace ServeScope
