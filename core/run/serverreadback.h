// SPDX-License-Identifier: MIT
#pragma once

#include "model/orderedvalues.h"

#include <QByteArray>
#include <QUrl>

#include <functional>
#include <QMap>
#include <QString>
#include <QStringList>

namespace ServeScope {

class EndpointCalls;

/// What a launched server says it runs with, by the vLLM name of each setting (max_num_seqs,
/// max_model_len, max_num_batched_tokens, block_size, enable_prefix_caching, max_prefill_tokens,
/// mem_fraction_static), and where each was read.
struct EffectiveConfig {
    QMap<QString, QString> values;
    QMap<QString, QString> sources; ///< setting -> "/get_server_info", "/v1/models" or "/metrics"
    bool isEmpty() const { return values.isEmpty(); }
};

/// SGLang's `/get_server_info` (max_running_requests, context_length, chunked_prefill_size,
/// max_prefill_tokens, mem_fraction_static, page_size), else vLLM's `/v1/models` (max_model_len) and
/// `/metrics` info gauges (`vllm:cache_config_info`'s block_size and enable_prefix_caching; the
/// simulator's `servescope_sim:scheduler_config_info`). Blocks: run thread only.
EffectiveConfig readEffectiveConfig(EndpointCalls &calls);
/// The parts of readEffectiveConfig that parse an answer, for tests.
void readServerInfo(const QByteArray &json, EffectiveConfig *out);
void readModelsInfo(const QByteArray &json, EffectiveConfig *out);
void readMetricsInfo(const QByteArray &text, EffectiveConfig *out);

/// One line per setting both the variant's server.args (under its vLLM or SGLang name) and the server
/// state that differ, e.g. "server.args.max_num_seqs is 8 but the server runs with 4 (/get_server_info)".
QStringList configMismatches(const OrderedValues &args, const EffectiveConfig &config);

struct Experiment;

/// Reads back what a launched server runs with: `*info` says what it reports; false with `*error`
/// when it does not run with the variant's server.args. Blocks: run thread only.
bool checkLaunchedConfig(const Experiment &resolved, EndpointCalls &calls, QString *info, QString *error);
/// Warnings for the routes the run would use and `base` lacks: /tokenize (it sizes text prompts)
/// and /metrics' running gauge (it ends the drain after warmup). Blocks: run thread only.
QStringList missingRouteWarnings(const Experiment &resolved, EndpointCalls &calls, const QString &base);
/// Everything above before a variant's first point, said through `say(level, line)`: the launched
/// server's settings (`launched`; false with `*error` on a mismatch), the missing routes (when
/// `firstVisit` of this base URL: the same warnings for every variant say nothing new) and a shared
/// host. Blocks: run thread only.
bool reviewEndpoint(const Experiment &resolved, EndpointCalls &calls, const QUrl &base, bool launched, bool firstVisit,
    const std::function<void(const QString &, const QString &)> &say, QString *error);
/// A warning when the server at `base` runs on this host (a loopback name or address, not the
/// simulator) and so shares its CPUs with the client; empty otherwise.
QString sharedHostWarning(const Experiment &resolved, const QUrl &base);

} // namespace ServeScope
