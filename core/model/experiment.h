// SPDX-License-Identifier: MIT
#pragma once

#include "model/orderedvalues.h"

#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

namespace ServeScope {

/// Which request fields an endpoint accepts (docs/metrics.md, "Request payloads").
enum class Dialect : quint8 { Vllm, Sglang, OpenAiStrict };
/// Which API the requests speak: the body, the authentication and the stream format (docs/metrics.md, "APIs").
enum class Api : quint8 { Chat, Completions, Responses, Messages, SglangGenerate };
enum class HttpProtocol : quint8 { Http1, Http2 };
/// Where an environment-snapshot field came from.
enum class EnvSource : quint8 { Typed, Captured, Probe };
/// Closed loop (concurrency slots) or open loop (request rate).
enum class LoadMode : quint8 { Concurrency, Rate };
/// Metric definitions profile.
enum class Definitions : quint8 { Vllm, Sglang };

/// File spellings: "vllm", "sglang", "openai-strict", "http1", "http2", "typed", "captured",
/// "probe", "concurrency", "rate". The parse functions return false for an unknown spelling.
QString dialectName(Dialect d);
bool parseDialect(QStringView s, Dialect *out);
/// "chat", "completions", "responses", "messages", "sglang-generate".
QString apiName(Api a);
bool parseApi(QStringView s, Api *out);
/// The API a request path names by its last segments (/chat/completions, /completions, /responses, /messages,
/// /generate); chat for any other path.
Api apiForPath(QStringView path);
/// The path an API is served at by vLLM, SGLang and the vendors (/v1/chat/completions, /v1/messages, /generate, ...).
QString defaultPath(Api a);
/// `path` switched to API `a`: the prefix before its own API's usual path (a gateway's /anthropic) kept, that
/// API's usual path replaced by a's.
QString pathWithApi(const QString &path, Api a);
QString protocolName(HttpProtocol p);
bool parseProtocol(QStringView s, HttpProtocol *out);
QString envSourceName(EnvSource s);
bool parseEnvSource(QStringView s, EnvSource *out);
QString loadModeName(LoadMode m);
bool parseLoadMode(QStringView s, LoadMode *out);
QString definitionsName(Definitions d);
bool parseDefinitions(QStringView s, Definitions *out);

/// The base URL that stands for the embedded simulator: the runner starts `servescope-cli sim`
/// itself (with server.args as engine flags), so no launch command is needed to reach it.
inline constexpr const char kSimulatorBaseUrl[] = "sim:";

/// Where requests go. The API key itself is never part of it: only the name of an environment
/// variable or the id of a keychain entry.
struct Endpoint {
    QString baseUrl;
    QString path = QStringLiteral("/v1/chat/completions");
    QString model;
    Dialect dialect = Dialect::Vllm;
    HttpProtocol protocol = HttpProtocol::Http1;
    QString proxy; ///< empty: no proxy
    QList<QPair<QString, QString>> headers; ///< extra request headers, in order
    /// Extra headers whose values are secrets: header name -> environment variable read when a run starts.
    QList<QPair<QString, QString>> headerEnv;
    QString apiKeyEnv; ///< name of an environment variable holding the key
    QString keychainEntry; ///< id of a keychain entry holding the key
    /// https: a PEM file of the certificate authorities to trust instead of the system's.
    QString caFile;
    /// https without verifying the server's certificate or name; said in every report and log.
    bool tlsSkipVerify = false;

    /// True when baseUrl starts with "sim:" (the embedded simulator).
    bool isLocalSimulator() const;
    /// The API the path names (apiForPath): the path is the one home of that choice.
    Api api() const { return apiForPath(path); }
    bool operator==(const Endpoint &) const = default;
};

struct EnvEntry {
    QString key;
    QString value;
    EnvSource source = EnvSource::Typed;
    bool operator==(const EnvEntry &) const = default;
};
using EnvSnapshot = QList<EnvEntry>;

/// Server settings: args are rendered into the argv template's `{server.args.NAME}` placeholders.
struct Server {
    QString engine = QStringLiteral("vllm"); ///< vllm | sglang | sim | other
    OrderedValues args;
    QStringList launchArgv; ///< empty: the server is started by someone else
    QString readyPath; ///< readiness probe path, e.g. /v1/models
    /// Added to (or replacing in) the launched server's environment, in order. Stored in the file:
    /// never a secret (a key reaches the server through a variable already set for ServeScope).
    QList<QPair<QString, QString>> launchEnv;
    QString launchCwd; ///< working folder of the launched server; empty: ServeScope's
    double readyTimeoutS = 600; ///< how long the readiness probe waits for 200
    /// A DCGM exporter's metrics URL (GPU utilisation, DRAM and SM activity, power), scraped beside
    /// the endpoint's /metrics; empty: none.
    QString dcgmUrl;
    /// GPUs serving the endpoint; 0: from the server arguments' parallel sizes, else the environment
    /// snapshot's gpu_count, else 1 (servingGpus(), core/metrics/servingcost.h).
    int gpus = 0;
    /// Price of one GPU for an hour (any currency, the same for every variant compared); 0: no cost
    /// figures.
    double gpuHourPrice = 0;
    bool operator==(const Server &) const = default;
};

struct Dataset {
    /// random | sonnet | sharegpt | custom | shared_prefix | trace | multi_turn
    QString name = QStringLiteral("random");
    qint64 seed = 0;
    bool ignoreEos = true;
    double rangeRatio = 0.0;
    QString path; ///< file for sonnet (optional: the built-in sonnet.txt), sharegpt, custom, trace
    /// sonnet: prompt tokens of the fixed prefix every prompt starts with (vLLM's --sonnet-prefix-len);
    /// shared_prefix: the tokens of each group's prefix (the rest of input_len is the request's own suffix);
    /// multi_turn: the tokens of the system prompt every session starts with (0: none).
    int prefixLen = 200;
    /// shared_prefix: how many prefixes (groups) the requests share, and the Zipf exponent a request's group
    /// is drawn with (0: every group equally often, in a seeded order, as vLLM's prefix_repetition).
    int groups = 8;
    double zipf = 0.0;
    /// trace: mooncake | azure | burstgpt (empty: told from the file), and the tokens of one Mooncake hash_ids
    /// block (512 in Mooncake's published traces).
    QString traceFormat;
    int blockSize = 512;
    /// multi_turn: the turns of one session (each a new user message of input_len tokens after the conversation
    /// so far, the server's own answers included) and the pause between a turn's answer and the next turn.
    int turns = 4;
    double thinkTimeS = 0;
    /// Turns of one session for the engine: `turns` for multi_turn, 1 for every other dataset.
    int sessionTurns() const { return name == QLatin1String("multi_turn") ? turns : 1; }
    /// The tokenizer the file's author counted lengths with (vLLM's --tokenizer). Recorded only:
    /// ServeScope counts with the server's /tokenize.
    QString tokenizer;
    bool operator==(const Dataset &) const = default;
};

/// One load point. Closed loop uses concurrency; open loop uses requestRate (may be +inf),
/// burstiness (may be +inf) and an optional cap maxConcurrency (0 = none).
struct LoadPoint {
    QString label; ///< optional; see Experiment::pointLabel()
    int concurrency = 0;
    double requestRate = 0.0;
    double burstiness = 1.0;
    int maxConcurrency = 0;
    int inputLen = 0;
    int outputLen = 0;
    int numPrompts = 0; ///< 0: no count limit (then maxSeconds must be set)
    double maxSeconds = 0.0; ///< 0: no time limit
    bool operator==(const LoadPoint &) const = default;

    /// A point read with one concurrency figure becomes open loop: that figure is its cap.
    void moveConcurrencyToCap()
    {
        maxConcurrency = concurrency;
        concurrency = 0;
    }
};

/// The `concurrency_gradient` shorthand, kept so a file writes back the way it was read.
/// Each level gets num_prompts = max(numPrompts, promptsPerConcurrency x level).
struct ConcurrencyGradient {
    QList<int> levels;
    int inputLen = 0;
    int outputLen = 0;
    int numPrompts = 0;
    int promptsPerConcurrency = 0;
    double maxSeconds = 0.0;

    bool isEmpty() const noexcept { return levels.isEmpty(); }
    QList<LoadPoint> expand() const;
    bool operator==(const ConcurrencyGradient &) const = default;
};

/// A service-level objective on one latency: its `percentile`-th percentile at most `maxMs`.
struct Slo {
    QString metric; ///< ttft | ttfo | tpot | itl | e2el
    double percentile = 90;
    double maxMs = 0;
    /// The result-file key it bounds: "p90_ttft_ms".
    QString key() const;
    bool operator==(const Slo &) const = default;
};
/// Reads an SLO key ("p90_ttft_ms", "p99.9_itl_ms"); false for any other spelling.
bool parseSloKey(QStringView key, Slo *out);

/// `load.mode: "capacity"`: instead of a list of points, the run searches each variant for the
/// largest load that meets the SLOs (docs/capacity.md). The loop it searches over is LoadMatrix::mode.
struct CapacitySearch {
    QList<Slo> slos;
    /// 0: none; else the share of requests (0..1] that must meet every SLO's bound at once (goodput).
    double attainment = 0;
    double start = 1; ///< the first level measured (concurrency, or requests/s)
    double max = 1024; ///< the largest level measured; capacity at it reads "at least"
    double resolution = 0.05; ///< the search stops when the bracket is narrower than this share of its low end
    int maxPoints = 12; ///< distinct levels measured per variant, at most
    int maxRepeats = 3; ///< measurements of a level whose interval straddles an SLO, at most
    double maxTotalSeconds = 0; ///< per variant; 0: no limit
    /// Every level's load: lengths, stop rule, burstiness, open-loop cap; the level sets its
    /// concurrency (closed loop) or request rate (open loop).
    LoadPoint point;
    /// Closed loop: a level's num_prompts is max(point.numPrompts, promptsPerLevel x level).
    int promptsPerLevel = 0;

    /// The point measured at `level` in `mode`.
    LoadPoint at(LoadMode mode, double level) const;
    bool operator==(const CapacitySearch &) const = default;
};

/// Seconds; 0 means no limit.
struct Timeouts {
    double connectS = 10;
    double firstTokenS = 120;
    double idleS = 60;
    double totalS = 0;
    bool operator==(const Timeouts &) const = default;
};

/// A point that stops once settled (docs/metrics.md, "Points that stop once settled"): off while width is 0 and
/// verdict false. After at least minRequests successful requests, a point stops sending once the 95% interval of
/// each of its TTFT, TPOT and E2EL medians is narrower than `width` times the median, or (verdict, a capacity
/// search's level) once its verdict on the SLOs is decided; requests in flight finish.
struct SettleRule {
    double width = 0;
    bool verdict = false;
    int minRequests = 200;
    bool enabled() const { return width > 0 || verdict; }
    bool operator==(const SettleRule &) const = default;
};

struct LoadMatrix {
    LoadMode mode = LoadMode::Concurrency;
    /// Always expanded (gradient included). With a capacity search: the levels a run measured, in
    /// the order measured (empty before the run).
    QList<LoadPoint> points;
    std::optional<CapacitySearch> capacity; ///< set: the points are found by a capacity search
    ConcurrencyGradient gradient; ///< how points were written, when they came from a gradient
    int warmupRequests = 0;
    double discardRatio = 0.0;
    int repeat = 1;
    Timeouts timeouts;
    bool resetPrefixCache = false;
    int maxEventBytes = 1 << 20; ///< longest SSE line or event a stream may send; longer fails the request (protocol)
    SettleRule settle;

    /// True when points are exactly the gradient's expansion (so the writer uses the shorthand).
    bool pointsFromGradient() const;
    /// Semantic: compares expanded points, not how they were spelled.
    bool operator==(const LoadMatrix &other) const;
};

struct Goodput {
    std::optional<double> ttftMs, tpotMs, e2elMs;
    bool isEmpty() const { return !ttftMs && !tpotMs && !e2elMs; }
    bool operator==(const Goodput &) const = default;
};

struct MetricsConfig {
    QList<double> percentiles { 50, 90, 99 };
    Goodput goodput;
    Definitions definitions = Definitions::Vllm;
    /// vLLM's --percentile-metrics (ttft, tpot, itl, e2el) as the author listed them; empty when
    /// not stated. Recorded: ServeScope computes the percentiles of all four metrics regardless.
    QStringList percentileMetrics;
    bool operator==(const MetricsConfig &) const = default;
};

/// A variant changes variables (registry paths, see variables.h) relative to the baseline.
struct Variant {
    QString name;
    OrderedValues changes;
    QString reason; ///< required when more than one variable differs
    bool baseline = false;
    bool operator==(const Variant &) const = default;
};

struct Experiment {
    QString name;
    Endpoint endpoint;
    EnvSnapshot envSnapshot;
    Server server;
    Dataset dataset;
    OrderedValues sampling; ///< sent explicitly with every request
    LoadMatrix load;
    MetricsConfig metrics;
    QList<Variant> variants;

    /// The variant marked baseline, else the first; -1 when there are no variants.
    int baselineIndex() const;
    /// Index of the variant with this name, or -1.
    int variantIndex(const QString &name) const;
    /// The point's label, else "c<N>" (closed loop) or "r<rate>" (open loop), sanitised.
    QString pointLabel(int index) const;
    bool operator==(const Experiment &) const = default;
};

/// Replaces every character outside [A-Za-z0-9._-] with '_' (names used in file paths);
/// an empty result or "." / ".." becomes "_".
QString sanitizeName(const QString &name);

/// Compact C-locale number for labels and messages: 8, 2.5, inf.
QString formatNumber(double v);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::Endpoint)
Q_DECLARE_METATYPE(ServeScope::EnvEntry)
Q_DECLARE_METATYPE(ServeScope::Server)
Q_DECLARE_METATYPE(ServeScope::Dataset)
Q_DECLARE_METATYPE(ServeScope::LoadPoint)
Q_DECLARE_METATYPE(ServeScope::LoadMatrix)
Q_DECLARE_METATYPE(ServeScope::MetricsConfig)
Q_DECLARE_METATYPE(ServeScope::Variant)
Q_DECLARE_METATYPE(ServeScope::Experiment)
