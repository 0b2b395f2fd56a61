// SPDX-License-Identifier: MIT
// Request routing and the non-streaming endpoints of SimServer.
#include "sim/simserver.h"

#include "sim/simconnection.h"
#include "sim/simflavour.h"
#include "sim/simtokenizer.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpSocket>

#include <cmath>

namespace ServeScope::Sim {

namespace {

QByteArray detail(const char *text)
{
    return QByteArray("{\"detail\":\"") + text + "\"}";
}

} // namespace

bool SimServer::authorized(const HttpRequest &request, bool anthropic) const
{
    if (m_config.server.apiKey.isEmpty())
        return true;
    const QByteArray expected = "Bearer " + m_config.server.apiKey;
    if (request.authorization.size() == expected.size() && request.authorization == expected)
        return true;
    // Anthropic's clients send the key as x-api-key.
    return anthropic && request.header("x-api-key") == m_config.server.apiKey;
}

namespace {

struct Route {
    const char *path;
    bool post;
};
// The order is the index of the per-route counters on /metrics.
constexpr Route kRouteTable[] = { { "/v1/models", false }, { "/version", false }, { "/health", false },
    { "/metrics", false }, { "/tokenize", true }, { "/reset_prefix_cache", true }, { "/v1/chat/completions", true },
    { "/v1/completions", true }, { "/get_server_info", false }, { "/flush_cache", true }, { "/v1/messages", true },
    { "/v1/responses", true }, { "/generate", true } };

Endpoint endpointOf(const QByteArray &path)
{
    return path == "/v1/completions" ? Endpoint::Completion
        : path == "/v1/messages"     ? Endpoint::Messages
        : path == "/v1/responses"    ? Endpoint::Responses
        : path == "/generate"        ? Endpoint::Generate
                                     : Endpoint::Chat;
}

} // namespace

bool SimServer::requiredHeadersPresent(Connection *c, const HttpRequest &request)
{
    for (const auto &[name, value] : m_config.misbehaviour.requiredHeaders) {
        if (request.header(name) == value)
            continue;
        // As a gateway that routes on a header: name it, never echo the expected value.
        sendError(
            c, 400, "BadRequestError", QStringLiteral("Missing or wrong header '%1'.").arg(QString::fromLatin1(name)));
        return false;
    }
    return true;
}

bool SimServer::routeDisabled(const QByteArray &path) const
{
    const MisbehaviourParams &m = m_config.misbehaviour;
    // Each flavour has only its own server's routes.
    const bool sglang = m_config.server.flavor == Flavor::Sglang;
    if (sglang ? path == "/reset_prefix_cache" : (path == "/get_server_info" || path == "/flush_cache"))
        return true;
    const bool generation = path == "/v1/chat/completions" || path == "/v1/completions" || path == "/v1/responses"
        || path == "/v1/messages" || path == "/generate";
    if (generation && !m.onlyApiPaths.isEmpty() && !m.onlyApiPaths.contains(path))
        return true;
    return (m.noTokenize && path == "/tokenize") || (m.noMetrics && path == "/metrics")
        || (m.noCompletions && path == "/v1/completions");
}

void SimServer::route(Connection *c, const HttpRequest &request)
{
    const qsizetype query = request.target.indexOf('?');
    QByteArray path = query < 0 ? request.target : request.target.left(query);
    if (const QByteArray &root = m_config.misbehaviour.rootPath; !root.isEmpty()) {
        // Behind a gateway's path: only what is under it reaches a route.
        path = path.startsWith(root) && path.size() > root.size() && path.at(root.size()) == '/'
            ? path.mid(root.size())
            : QByteArray("/outside-root");
    }
    const bool get = request.method == "GET", post = request.method == "POST";
    static_assert(std::size(kRouteTable) == kRouteCount);
    int found = -1;
    for (int i = 0; i < kRouteCount; ++i)
        if (path == kRouteTable[i].path)
            found = i;
    if (found >= 0)
        ++m_routeRequests[found];
    if (!requiredHeadersPresent(c, request)) {
        if (found >= 0)
            ++m_routeHeaderRejected[found];
        return;
    }
    // As vLLM's --api-key middleware: only the /v1 routes are protected.
    if (const bool anthropic = path == "/v1/messages"; path.startsWith("/v1") && !authorized(request, anthropic)) {
        sendJson(c, 401,
            anthropic ? errorBody(Endpoint::Messages, { 401, "", QStringLiteral("invalid x-api-key"), QString() })
                      : QByteArray("{\"error\":\"Unauthorized\"}"));
        return;
    }
    if (found < 0 || routeDisabled(path)) {
        sendJson(c, 404, detail("Not Found"));
        return;
    }
    if ((kRouteTable[found].post && !post) || (!kRouteTable[found].post && !get)) {
        sendJson(c, 405, detail("Method Not Allowed"));
        return;
    }
    if (path == "/v1/models")
        handleModels(c);
    else if (path == "/version")
        sendJson(c, 200, "{\"version\":\"" SERVESCOPE_VERSION "-sim\"}");
    else if (path == "/health")
        sendResponse(c, 200, "application/json", QByteArray());
    else if (path == "/metrics")
        sendResponse(c, 200, "text/plain; version=0.0.4; charset=utf-8", metricsText());
    else if (path == "/tokenize")
        handleTokenize(c, request);
    else if (path == "/reset_prefix_cache") {
        m_engine.resetPrefixCache();
        sendResponse(c, 200, "application/json", QByteArray());
    } else if (path == "/flush_cache") {
        m_engine.resetPrefixCache();
        sendResponse(c, 200, "text/plain; charset=utf-8", QByteArrayLiteral("Cache flushed.\n"));
    } else if (path == "/get_server_info")
        sendJson(c, 200, serverInfoJson(m_config, port(), m_log.genThroughput()));
    else
        startGeneration(c, endpointOf(path), request);
}

void SimServer::handleModels(Connection *c)
{
    const QString id = m_config.server.model;
    const QJsonObject model { { QStringLiteral("id"), id }, { QStringLiteral("object"), QStringLiteral("model") },
        { QStringLiteral("created"), QDateTime::currentSecsSinceEpoch() },
        { QStringLiteral("owned_by"), QStringLiteral("vllm") }, { QStringLiteral("root"), id },
        { QStringLiteral("parent"), QJsonValue() }, { QStringLiteral("max_model_len"), m_config.scheduler.maxModelLen },
        { QStringLiteral("permission"), QJsonArray() } };
    const QJsonObject list { { QStringLiteral("object"), QStringLiteral("list") },
        { QStringLiteral("data"), QJsonArray { model } } };
    sendJson(c, 200, QJsonDocument(list).toJson(QJsonDocument::Compact));
}

void SimServer::handleTokenize(Connection *c, const HttpRequest &request)
{
    std::vector<qint64> ids;
    ApiError error;
    if (!parseTokenize(request.body, m_config, &ids, &error)) {
        sendJson(c, error.status, errorBody(error));
        return;
    }
    QByteArray body = "{\"count\":" + QByteArray::number(qsizetype(ids.size()))
        + ",\"max_model_len\":" + QByteArray::number(m_config.scheduler.maxModelLen) + ",\"tokens\":[";
    for (size_t i = 0; i < ids.size(); ++i) {
        if (i)
            body += ',';
        appendNumber(body, ids[i]);
    }
    body += "],\"token_strs\":null}";
    sendJson(c, 200, body);
}

int SimServer::drawOutputTokens(const GenerationRequest &request)
{
    if (request.ignoreEos && !m_config.stream.ignoreIgnoreEos)
        return request.maxTokens;
    // A seeded geometric stop point (an EOS with probability 1/mean per token), kept inside
    // [max(1, min_tokens), max_tokens].
    const double p = 1.0 / std::max(1.0, m_config.stream.eosMeanTokens);
    const double u = m_rng.generateDouble();
    const double len = p >= 1.0 ? 1.0 : std::ceil(std::log1p(-u) / std::log1p(-p));
    const int lo = std::max(1, request.minTokens);
    return int(std::clamp(len, double(lo), double(std::max(lo, request.maxTokens))));
}

FaultPlan SimServer::drawFaults(const GenerationRequest &request, int outputTokens)
{
    const FaultParams &f = m_config.faults;
    FaultPlan plan;
    // Every draw happens whatever the rates, so one fault's rate does not shift another's requests.
    const double d = m_rng.generateDouble(), m = m_rng.generateDouble(), s = m_rng.generateDouble();
    const quint64 where = m_rng.generate();
    if (!request.stream)
        return plan;
    const int events = (outputTokens + std::max(1, m_config.stream.tokensPerChunk) - 1)
        / std::max(1, m_config.stream.tokensPerChunk);
    if (d < f.disconnectRate)
        plan.disconnectAfter = int(where % quint64(outputTokens));
    if (m < f.malformedRate)
        plan.malformedAt = int((where >> 20) % quint64(events));
    if (f.stallMs > 0 && s < f.stallRate)
        plan.stallAt = int((where >> 40) % quint64(outputTokens));
    if (m_config.misbehaviour.closeStreamsMidway)
        plan.closeAt = outputTokens / 2;
    return plan;
}

void SimServer::startGeneration(Connection *c, Endpoint endpoint, const HttpRequest &request)
{
    GenerationRequest gen;
    ApiError error;
    if (endpoint == Endpoint::Messages && request.header("anthropic-version").isNull())
        error.message = QStringLiteral("anthropic-version: header is required");
    if (!error.message.isEmpty() || !parseGeneration(endpoint, request.body, m_config, &gen, &error)) {
        sendJson(c, error.status, errorBody(endpoint, error));
        return;
    }
    ++m_requests;
    const double failDraw = m_rng.generateDouble();
    // "More than N wait": the new request would be the (N+1)th without a free slot.
    const int queued = m_engine.running() + m_engine.waiting() - m_config.scheduler.maxNumSeqs;
    if (m_config.faults.rateLimit >= 0 && queued >= m_config.faults.rateLimit) {
        ++m_rejected;
        sendJson(c, 429,
            errorBody(endpoint, { 429, "RateLimitError", QStringLiteral("Too many requests waiting."), QString() }),
            "retry-after: 1\r\n");
        return;
    }
    if (failDraw < m_config.faults.failRate) {
        ++m_rejected;
        sendJson(c, 500,
            errorBody(endpoint,
                { 500, "InternalServerError", QStringLiteral("Simulated internal server error."), QString() }));
        return;
    }
    const int outputTokens = drawOutputTokens(gen);
    const SonnetText &text = SonnetText::instance();
    // Greedy decoding continues the same prompt the same way; sampling starts anywhere.
    const std::vector<quint64> hashes = SimTokenizer::blockHashes(gen.promptIds, m_config.scheduler.blockSize);
    qint64 start = qint64(m_rng.bounded(quint64(text.size())));
    if (gen.temperature == 0.0) {
        const std::vector<quint64> all = SimTokenizer::blockHashes(gen.promptIds, 1);
        start = all.empty() ? 0 : qint64(all.back() % quint64(text.size()));
    }
    const quint64 id = ++m_nextId;
    c->stream = std::make_unique<SimStream>(
        id, gen, outputTokens, start, m_modelJson, m_config.stream, m_config.server.stamp, m_config.server.flavor);
    c->stream->faults = drawFaults(gen, outputTokens);
    m_streams.insert(id, c);
    c->rawBody = gen.stream && m_config.misbehaviour.wrongContentLength;
    if (gen.stream) {
        QByteArray head = "HTTP/1.1 200 OK\r\nserver: servescope-sim\r\ncontent-type: text/event-stream; "
                          "charset=utf-8\r\n";
        // A declared length that cannot match: the client either stops early or waits for bytes that
        // never come. The connection closes after the stream, since its framing is lost.
        head += c->rawBody ? QByteArray("content-length: 256\r\n") : QByteArray("transfer-encoding: chunked\r\n");
        if (c->rawBody)
            c->keepAlive = false;
        else if (!c->keepAlive)
            head += "connection: close\r\n";
        writeRaw(c, head + "\r\n");
        // Responses opens its stream at once, as OpenAI and vLLM do; Messages when admitted (onStep).
        if ((m_config.stream.earlyRoleChunk && endpoint == Endpoint::Chat) || endpoint == Endpoint::Responses) {
            m_out.resize(0);
            c->stream->appendRole(m_out);
            c->stream->appendHead(m_out);
            writeBody(c, m_out);
        }
    }
    m_engine.add(SeqSpec { id, gen.promptTokens(), outputTokens, hashes });
    kick();
}

void SimServer::vllmMetrics(QByteArray &out, const QByteArray &label) const
{
    auto metric = [&](const char *name, const char *type, const char *help, double value, const char *suffix = "") {
        out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n' + name + suffix
            + label + ' ' + QByteArray::number(value, 'g', 17) + '\n';
    };
    const EngineCounters &k = m_engine.counters();
    metric("vllm:num_requests_running", "gauge", "Number of requests in model execution batches.", m_engine.running());
    metric("vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.", m_engine.waiting());
    metric("vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.", m_engine.kvUsage());
    metric("vllm:gpu_cache_usage_perc", "gauge", "GPU KV-cache usage (older name).", m_engine.kvUsage());
    metric("vllm:num_preemptions", "counter", "Cumulative number of preemptions.", double(k.preemptions), "_total");
    metric(
        "vllm:prefix_cache_queries", "counter", "Prefix cache queries, in tokens.", double(k.prefixQueries), "_total");
    metric("vllm:prefix_cache_hits", "counter", "Prefix cache hits, in tokens.", double(k.prefixHits), "_total");
    metric("vllm:prompt_tokens", "counter", "Number of prefill tokens processed.", double(k.promptTokens), "_total");
    metric("vllm:generation_tokens", "counter", "Number of generation tokens processed.", double(k.generationTokens),
        "_total");
    metric(
        "vllm:request_success", "counter", "Count of successfully processed requests.", double(k.finished), "_total");
}

QByteArray SimServer::metricsText() const
{
    QByteArray out;
    const QByteArray label = "{model_name=" + m_modelJson + "}";
    auto metric = [&](const char *name, const char *type, const char *help, double value, const char *suffix = "") {
        out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + ' ' + type + '\n' + name + suffix
            + label + ' ' + QByteArray::number(value, 'g', 17) + '\n';
    };
    const EngineCounters &k = m_engine.counters();
    if (m_config.server.flavor == Flavor::Sglang) {
        out += sglangMetricsText(m_engine, label, m_log.genThroughput(), m_log.cacheHitRate());
    } else {
        vllmMetrics(out, label);
        out += vllmInfoMetricsText(m_config, label);
    }
    metric("servescope_sim:steps", "counter", "Engine steps run.", double(k.steps), "_total");
    metric("servescope_sim:events", "counter", "SSE writes of token events (one per stream per step).",
        double(m_events), "_total");
    metric("servescope_sim:requests_rejected", "counter", "Requests answered 429 or 500 by fault injection.",
        double(m_rejected), "_total");
    metric("servescope_sim:disconnects", "counter",
        "Streams ended by the client, --disconnect-rate or --close-streams-midway.", double(m_disconnects), "_total");
    metric("servescope_sim:connections", "counter", "Connections accepted.", double(m_connectionsTotal), "_total");
    if (m_tls) {
        metric(
            "servescope_sim:tls_handshakes", "counter", "TLS handshakes completed.", double(m_tlsHandshakes), "_total");
        metric("servescope_sim:tls_resumed_handshakes", "counter",
            "TLS handshakes that resumed a session this server handed out.", double(m_tlsResumed), "_total");
    }
    for (int i = 0; i < kRouteCount; ++i) {
        const QByteArray routeLabel = label.chopped(1) + ",route=\"" + kRouteTable[i].path + "\"}";
        out += "servescope_sim:route_requests_total" + routeLabel + ' ' + QByteArray::number(m_routeRequests[i]) + '\n';
        out += "servescope_sim:header_rejected_total" + routeLabel + ' ' + QByteArray::number(m_routeHeaderRejected[i])
            + '\n';
    }
    metric("servescope_sim:step_lag_seconds_max", "gauge", "Largest delay of a step past its deadline.", m_lag.max);
    out += "# HELP servescope_sim:step_lag_seconds Delay of each step past its absolute deadline.\n"
           "# TYPE servescope_sim:step_lag_seconds histogram\n";
    for (int i = 0; i < StepLagStats::kBuckets; ++i)
        out += "servescope_sim:step_lag_seconds_bucket{le=\"" + QByteArray::number(StepLagStats::kBounds[i]) + "\","
            + label.mid(1) + ' ' + QByteArray::number(m_lag.buckets[i]) + '\n';
    out += "servescope_sim:step_lag_seconds_bucket{le=\"+Inf\"," + label.mid(1) + ' ' + QByteArray::number(m_lag.count)
        + '\n';
    out += "servescope_sim:step_lag_seconds_sum" + label + ' ' + QByteArray::number(m_lag.sum, 'g', 17) + '\n';
    out += "servescope_sim:step_lag_seconds_count" + label + ' ' + QByteArray::number(m_lag.count) + '\n';
    return out;
}

} // namespace ServeScope::Sim
