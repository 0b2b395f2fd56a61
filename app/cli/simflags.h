// SPDX-License-Identifier: MIT
#pragma once

#include "sim/simconfig.h"

#include <QCommandLineOption>
#include <QList>

class QCommandLineParser;

namespace ServeScope::Cli {

/// `sim --flavor` and the scheduler flags under each flavour's names: vLLM's (--max-num-seqs,
/// --max-num-batched-tokens, --max-model-len, --block-size, --enable-prefix-caching,
/// --gpu-memory-utilization) and SGLang's (--max-running-requests, --chunked-prefill-size,
/// --context-length, --page-size, --disable-radix-cache, --mem-fraction-static, --max-prefill-tokens).
QList<QCommandLineOption> schedulerOptions();
/// Applies them to `cfg`: a flag of the other flavour is refused with its own name. The memory share
/// sets the KV cache ((GPU memory x share - weights) / KV bytes per token) unless `kvTokensGiven`.
bool applySchedulerFlags(const QCommandLineParser &parser, bool kvTokensGiven, Sim::SimConfig *cfg, QString *error);

} // namespace ServeScope::Cli
