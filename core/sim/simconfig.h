// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace ServeScope::Sim {

/// Hardware and model constants of the roofline step time (docs/simulator.md).
struct ModelParams {
    double weightBytes = 13.5e9; ///< bytes of weights read once per step
    double kvBytesPerToken = 524288.0; ///< K+V bytes per token of context (all layers)
    double memoryBandwidth = 1.2e12; ///< effective bytes/s
    double peakFlops = 1.9e14; ///< effective FLOP/s
    double activeParams = 6.7e9; ///< parameters touched per token (2 FLOPs each)
    double overheadSeconds = 0.0065; ///< fixed per-step cost (scheduling, sampling, launch)
    double gpuMemoryBytes = 80e9; ///< what --gpu-memory-utilization / --mem-fraction-static take a share of
};

/// Continuous-batching scheduler and KV cache settings (vLLM's flag names).
struct SchedulerParams {
    int maxNumSeqs = 256;
    int maxNumBatchedTokens = 8192;
    int kvCacheTokens = 111616; ///< rounded down to whole blocks
    int blockSize = 16;
    bool prefixCaching = false;
    int maxModelLen = 4096;
    int maxPrefillTokens = 0; ///< SGLang's budget of new requests' tokens per step; 0: none beyond the step's
    double memoryFraction = 0.9; ///< reported share of GPU memory (vLLM's gpu_memory_utilization)
};

/// How results are streamed back.
struct StreamParams {
    int tokensPerChunk = 1;
    bool earlyRoleChunk = false;
    bool noUsage = false;
    /// Usage that contradicts the stream, as some gateways report it: `Zero` says 0 prompt and 0 output
    /// tokens, `Tenth` a tenth of the output tokens (rounded down) and the true prompt (--wrong-usage).
    enum class WrongUsage : quint8 { None, Zero, Tenth } wrongUsage = WrongUsage::None;
    bool ignoreIgnoreEos = false;
    double eosMeanTokens = 256.0; ///< mean of the seeded geometric stop point without ignore_eos
    int chunkChars = 0; ///< > 0: content events of exactly this many characters, words split (last one shorter)
    bool echoPrompt = false; ///< the first content event starts with the prompt text
    /// Chat answers start with this many reasoning tokens (of the request's output), sent under the
    /// flavour's field name: vLLM's `reasoning`, SGLang's `reasoning_content`; 0: none.
    int reasoningTokens = 0;
};

/// Seeded faults; rates are probabilities per request.
struct FaultParams {
    double failRate = 0.0;
    int rateLimit = -1; ///< 429 when more than this many requests wait; < 0 disables
    double disconnectRate = 0.0;
    double malformedRate = 0.0;
    int stallMs = 0;
    double stallRate = 1.0;
};

/// Ways real servers and gateways depart from vLLM, one switch each (docs/simulator.md, "Misbehaviour").
struct MisbehaviourParams {
    bool noTokenize = false; ///< /tokenize answers 404
    bool noMetrics = false; ///< /metrics answers 404
    bool noCompletions = false; ///< /v1/completions answers 404 (a chat-only gateway)
    /// Non-empty: only these generation routes are served (--only-api), the others answer 404 (a gateway that
    /// speaks one API).
    QList<QByteArray> onlyApiPaths;
    QList<QPair<QByteArray, QByteArray>> requiredHeaders; ///< lower-case name, exact value; 400 otherwise
    int firstEventDelayMs = 0; ///< wall-clock hold before a stream's first token event
    bool dropIgnoreEos = false; ///< ignore_eos and min_tokens removed from every request
    bool closeStreamsMidway = false; ///< every stream closed (FIN) after half its tokens
    bool wrongContentLength = false; ///< generation answers declare content-length 256, unchunked
    qint64 hugeEventBytes = 0; ///< > 0: each stream starts with one content event of this many bytes
    QByteArray rootPath; ///< non-empty: every route lives under this prefix (a gateway at /gw), others 404
};

/// Which server the simulator poses as: argument names, metric names, extra routes, log lines.
enum class Flavor : quint8 { Vllm, Sglang };

/// Listener and process-wide settings.
struct ServerParams {
    Flavor flavor = Flavor::Vllm;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 8000;
    QString model = QStringLiteral("servescope-sim-7b");
    QByteArray apiKey; ///< empty: no authentication
    quint64 seed = 0;
    double timeScale = 1.0;
    bool stamp = false;
    double keepAliveSeconds = 5.0; ///< uvicorn's timeout_keep_alive
    qint64 maxBodyBytes = 16 * 1024 * 1024;
    int maxHeaderBytes = 16 * 1024;
    /// PEM files: with both set the server speaks HTTPS only (TLS on every connection).
    QString tlsCert, tlsKey;
};

struct SimConfig {
    QString preset = QStringLiteral("a100-7b");
    ModelParams model;
    SchedulerParams scheduler;
    StreamParams stream;
    FaultParams faults;
    MisbehaviourParams misbehaviour;
    ServerParams server;
};

/// Names of the built-in presets, default first.
QStringList presetNames();
/// Applies a preset's model and scheduler values; false when the name is unknown.
bool applyPreset(const QString &name, SimConfig *config);

} // namespace ServeScope::Sim
