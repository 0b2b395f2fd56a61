// SPDX-License-Identifier: MIT
// The table of known variables and the value checks; reading and writing them is in variables.cpp.
#include "variables.h"

#include <QJsonArray>

#include <cmath>

namespace ServeScope {

namespace {

constexpr double kMaxInt = 2147483647.0;

VariableInfo v(const char *path, VariableType type, const char *description, double min = -1e300, double max = 1e300)
{
    VariableInfo info;
    info.path = QString::fromLatin1(path);
    info.type = type;
    info.min = min;
    info.max = max;
    info.description = QString::fromLatin1(description);
    return info;
}

VariableInfo e(const char *path, QStringList choices, const char *description)
{
    VariableInfo info = v(path, VariableType::Enum, description);
    info.choices = std::move(choices);
    return info;
}

// Longer than convention 3's function size (docs/style.md) on purpose: a pure data table with no
// logic, one entry a line, which reads best whole and in its order.
QList<VariableInfo> buildRegistry()
{
    using T = VariableType;
    QList<VariableInfo> r;
    r << v("endpoint.base_url", T::String, "scheme://host:port, or sim: for the embedded simulator")
      << v("endpoint.path", T::String, "request path, e.g. /v1/chat/completions")
      << v("endpoint.model", T::String, "model ID sent with each request")
      << e("endpoint.dialect", { QStringLiteral("vllm"), QStringLiteral("sglang"), QStringLiteral("openai-strict") },
             "which request fields may be sent")
      << e("endpoint.protocol", { QStringLiteral("http1"), QStringLiteral("http2") }, "HTTP version")
      << v("endpoint.proxy", T::String, "proxy URL, empty for none")
      << v("endpoint.api_key_env", T::String, "environment variable holding the API key")
      << v("endpoint.keychain_entry", T::String, "keychain entry holding the API key")
      << v("endpoint.headers.*", T::String, "an extra request header")
      << e("server.engine",
             { QStringLiteral("vllm"), QStringLiteral("sglang"), QStringLiteral("sim"), QStringLiteral("other") },
             "serving engine")
      << v("server.launch.argv", T::StringList, "launch command template")
      << v("server.launch.ready", T::String, "readiness probe path")
      << v("server.gpus", T::Int, "GPUs serving the endpoint (0: from the parallel sizes)", 0, 100000)
      << v("server.gpu_hour_price", T::Double, "price of one GPU for an hour", 0, 1000000)
      // vLLM flags
      << v("server.args.max_num_seqs", T::Int, "vLLM: concurrent sequences", 1, 1048576)
      << v("server.args.max_num_batched_tokens", T::Int, "vLLM: token budget per step", 1, kMaxInt)
      << v("server.args.gpu_memory_utilization", T::Double, "vLLM: fraction of GPU memory", 0.01, 1)
      << v("server.args.tensor_parallel_size", T::Int, "vLLM: tensor parallel GPUs", 1, 1024)
      << v("server.args.pipeline_parallel_size", T::Int, "vLLM: pipeline stages", 1, 1024)
      << v("server.args.max_model_len", T::Int, "vLLM: context length", 1, kMaxInt)
      << v("server.args.block_size", T::Int, "vLLM: KV block size in tokens", 1, 4096)
      << v("server.args.enable_prefix_caching", T::Bool, "vLLM: prefix cache")
      << v("server.args.enable_chunked_prefill", T::Bool, "vLLM: chunked prefill")
      << v("server.args.enforce_eager", T::Bool, "vLLM: disable CUDA graphs")
      << v("server.args.swap_space", T::Double, "vLLM: CPU swap space in GiB", 0, 1e6)
      << e("server.args.dtype",
             { QStringLiteral("auto"), QStringLiteral("half"), QStringLiteral("float16"), QStringLiteral("bfloat16"),
                 QStringLiteral("float"), QStringLiteral("float32") },
             "weights and activations type")
      << v("server.args.kv_cache_dtype", T::String, "KV cache type")
      << v("server.args.quantization", T::String, "quantization method")
      // SGLang flags
      << v("server.args.max_running_requests", T::Int, "SGLang: concurrent requests", 1, 1048576)
      << v("server.args.chunked_prefill_size", T::Int, "SGLang: prefill chunk (-1 disables)", -1, kMaxInt)
      << v("server.args.mem_fraction_static", T::Double, "SGLang: static memory fraction", 0.01, 1)
      << v("server.args.tp_size", T::Int, "SGLang: tensor parallel GPUs", 1, 1024)
      << v("server.args.dp_size", T::Int, "SGLang: data parallel replicas", 1, 1024)
      << v("server.args.context_length", T::Int, "SGLang: context length", 1, kMaxInt)
      << e("server.args.schedule_policy",
             { QStringLiteral("lpm"), QStringLiteral("random"), QStringLiteral("fcfs"), QStringLiteral("dfs-weight") },
             "SGLang: scheduling policy")
      << v("server.args.disable_radix_cache", T::Bool, "SGLang: disable prefix cache")
      << v("server.args.*", T::Any, "any other server flag")
      << e("dataset.name",
             { QStringLiteral("random"), QStringLiteral("sonnet"), QStringLiteral("sharegpt"), QStringLiteral("custom"),
                 QStringLiteral("shared_prefix"), QStringLiteral("trace"), QStringLiteral("multi_turn") },
             "prompt source")
      << v("dataset.seed", T::Int, "prompt and schedule seed", 0, 9007199254740991.0)
      << v("dataset.ignore_eos", T::Bool, "ask the server to ignore EOS")
      << v("dataset.range_ratio", T::Double, "length spread of the random dataset", 0, 0.999999)
      << v("dataset.path", T::String, "dataset file for sonnet/sharegpt/custom/trace")
      << v("dataset.prefix_len", T::Int,
             "sonnet, shared_prefix: tokens of the shared prefix; multi_turn: of the system prompt", 0, 10000000)
      << v("dataset.groups", T::Int, "shared_prefix: number of prefixes", 1, 1000000)
      << v("dataset.zipf", T::Double, "shared_prefix: Zipf exponent of the group choice (0: uniform)", 0, 100)
      << v("dataset.trace_format", T::String, "trace: mooncake, azure or burstgpt (empty: told from the file)")
      << v("dataset.block_size", T::Int, "trace: tokens of a Mooncake hash_ids block", 1, 1000000)
      << v("dataset.turns", T::Int, "multi_turn: turns of one session", 1, 1000)
      << v("dataset.think_time_s", T::Double, "multi_turn: pause before each later turn, seconds", 0, 3600)
      << v("sampling.temperature", T::Double, "sampling temperature", 0, 100)
      << v("sampling.top_p", T::Double, "nucleus sampling", 0.000001, 1)
      << v("sampling.top_k", T::Int, "top-k (-1 disables)", -1, kMaxInt)
      << v("sampling.min_p", T::Double, "min-p", 0, 1)
      << v("sampling.repetition_penalty", T::Double, "repetition penalty", 0.000001, 100)
      << v("sampling.presence_penalty", T::Double, "presence penalty", -2, 2)
      << v("sampling.frequency_penalty", T::Double, "frequency penalty", -2, 2)
      << v("sampling.seed", T::Int, "server-side sampling seed", 0, 9007199254740991.0)
      << v("sampling.*", T::Any, "any other sampling parameter")
      << v("load.input_len", T::Int, "prompt tokens, every point", 1, 10000000)
      << v("load.output_len", T::Int, "output tokens, every point", 1, 10000000)
      << v("load.num_prompts", T::Int, "measured requests, every point", 0, 100000000)
      << v("load.max_seconds", T::Double, "time limit, every point", 0, 1e7)
      << v("load.concurrency", T::Int, "concurrency, every point", 1, 1048576);
    VariableInfo rate = v("load.request_rate", T::Double, "requests/s, every point", 1e-9, 1e300);
    rate.allowInfinity = true;
    VariableInfo burst = v("load.burstiness", T::Double, "gamma shape, every point", 1e-9, 1e300);
    burst.allowInfinity = true;
    r << rate << burst << v("load.max_concurrency", T::Int, "open-loop cap, every point (0: none)", 0, 1048576)
      << v("load.warmup_requests", T::Int, "warmup requests per point", 0, 10000000)
      << v("load.discard_ratio", T::Double, "share discarded at each end for the steady window", 0, 0.49)
      << v("load.repeat", T::Int, "repeats per point", 1, 1000)
      << v("load.reset_prefix_cache", T::Bool, "reset the server's prefix cache between points")
      << v("load.max_event_bytes", T::Int, "longest SSE line or event a stream may send", 1024, 1 << 30)
      << v("load.stop_when_settled.width", T::Double,
             "stop a point once its medians' 95% intervals are narrower than this share (0: off)", 0, 1)
      << v("load.stop_when_settled.verdict", T::Bool, "capacity search: stop a level once its SLO verdict is decided")
      << v("load.stop_when_settled.min_requests", T::Int, "successful requests before a point may stop early", 10,
             100000000)
      << v("load.timeouts.connect_s", T::Double, "connect timeout (0: none)", 0, 1e7)
      << v("load.timeouts.first_token_s", T::Double, "first-token timeout (0: none)", 0, 1e7)
      << v("load.timeouts.idle_s", T::Double, "idle timeout between events (0: none)", 0, 1e7)
      << v("load.timeouts.total_s", T::Double, "total timeout per request (0: none)", 0, 1e7);
    return r;
}

bool isFamily(const QString &path)
{
    return path.endsWith(QLatin1String(".*"));
}

QString familyOf(const QString &path)
{
    for (const char *prefix : { "server.args.", "sampling.", "endpoint.headers." }) {
        const QLatin1String p(prefix);
        if (path.startsWith(p) && path.size() > p.size())
            return p + QLatin1Char('*');
    }
    return QString();
}

} // namespace

const QList<VariableInfo> &knownVariables()
{
    static const QList<VariableInfo> registry = buildRegistry();
    return registry;
}

std::optional<VariableInfo> lookupVariable(const QString &path)
{
    if (isFamily(path))
        return std::nullopt;
    for (const VariableInfo &info : knownVariables()) {
        if (info.path == path)
            return info;
    }
    const QString family = familyOf(path);
    if (family.isEmpty())
        return std::nullopt;
    const QString name = path.mid(family.size() - 1);
    for (QChar c : name) {
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char('-')) || c.unicode() > 127)
            return std::nullopt;
    }
    for (const VariableInfo &info : knownVariables()) {
        if (info.path == family) {
            VariableInfo concrete = info;
            concrete.path = path;
            return concrete;
        }
    }
    return std::nullopt;
}

static Reason checkNumber(const VariableInfo &info, const QJsonValue &value)
{
    double d = 0;
    if (info.allowInfinity && value.isString() && value.toString() == QLatin1String("inf"))
        d = std::numeric_limits<double>::infinity();
    else if (!value.isDouble())
        return info.type == VariableType::Int
            ? Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an integer") }
            : Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a number") };
    else
        d = value.toDouble();
    if (std::isnan(d) || (std::isinf(d) && !info.allowInfinity))
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a finite number") };
    if (info.type == VariableType::Int && d != std::floor(d))
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an integer") };
    if (d < info.min)
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at least %1"), { formatNumber(info.min) } };
    if (d > info.max && !std::isinf(d))
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be at most %1"), { formatNumber(info.max) } };
    return {};
}

Reason checkVariableValue(const VariableInfo &info, const QJsonValue &value)
{
    if (value.isUndefined())
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must have a value") };
    // null removes a member of a family (an arg, a sampling parameter, a header)
    if (value.isNull() && !familyOf(info.path).isEmpty())
        return {};
    switch (info.type) {
    case VariableType::Int:
    case VariableType::Double:
        return checkNumber(info, value);
    case VariableType::Bool:
        return value.isBool() ? Reason {}
                              : Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be true or false") };
    case VariableType::String:
        return value.isString() ? Reason {} : Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a string") };
    case VariableType::StringList: {
        if (!value.isArray())
            return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a list of strings") };
        const QJsonArray a = value.toArray();
        for (const QJsonValue &item : a) {
            if (!item.isString())
                return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a list of strings") };
        }
        return {};
    }
    case VariableType::Enum:
        if (value.isString() && info.choices.contains(value.toString()))
            return {};
        return Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of %1"),
            { info.choices.join(QLatin1String(", ")) } };
    case VariableType::Any:
        return {};
    }
    return {};
}

QString equivalentServerArg(const QString &argName, const QString &engine)
{
    static const char *const pairs[][2] = {
        { "max_num_seqs", "max_running_requests" },
        { "max_num_batched_tokens", "chunked_prefill_size" },
        { "gpu_memory_utilization", "mem_fraction_static" },
        { "tensor_parallel_size", "tp_size" },
        { "max_model_len", "context_length" },
    };
    const bool toSglang = engine == QLatin1String("sglang");
    for (const auto &pair : pairs) {
        if (toSglang && argName == QLatin1String(pair[0]))
            return QString::fromLatin1(pair[1]);
        if (!toSglang && argName == QLatin1String(pair[1]))
            return QString::fromLatin1(pair[0]);
    }
    return QString();
}

} // namespace ServeScope
