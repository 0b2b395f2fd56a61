// SPDX-License-Identifier: MIT
// `servescope-cli sim`: the simulated vLLM-like server (docs/simulator.md).
#include "clitext.h"
#include "command.h"
#include "simflags.h"

#include "model/experiment.h"
#include "secrets/apikey.h"
#include "sim/simconfig.h"
#include "sim/simserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QRegularExpression>
#include <QSocketNotifier>
#include <QThread>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <sys/socket.h>
#include <unistd.h>

using namespace ServeScope;
using namespace ServeScope::Cli;

namespace {

int g_signalPipe[2] = { -1, -1 };

void onSignal(int sig)
{
    const char c = char(sig);
    [[maybe_unused]] const auto n = ::write(g_signalPipe[1], &c, 1);
}

/// The GPU a preset models, as DCGM names it.
QString gpuName(const QString &preset)
{
    return preset.startsWith(QLatin1String("h100")) ? QStringLiteral("NVIDIA H100 80GB HBM3")
                                                    : QStringLiteral("NVIDIA A100-SXM4-80GB");
}

int usage(const QString &message)
{
    std::fprintf(stderr, "servescope-cli sim: %s\n", qPrintable(message));
    return ExitUsage;
}

/// The misbehaviour switches (docs/simulator.md, "Misbehaviour"); false fills `error`.
bool applyMisbehaviour(const QCommandLineParser &parser, Sim::SimConfig *cfg, QString *error)
{
    Sim::MisbehaviourParams &m = cfg->misbehaviour;
    m.noTokenize = parser.isSet(QStringLiteral("no-tokenize"));
    m.noMetrics = parser.isSet(QStringLiteral("no-metrics"));
    m.noCompletions = parser.isSet(QStringLiteral("no-completions"));
    for (const QString &name : parser.values(QStringLiteral("only-api"))) {
        Api api;
        if (!parseApi(name, &api)) {
            *error = CliText::tr("--only-api takes chat, completions, responses, messages or sglang-generate");
            return false;
        }
        m.onlyApiPaths << defaultPath(api).toLatin1();
    }
    m.dropIgnoreEos = parser.isSet(QStringLiteral("drop-ignore-eos"));
    m.closeStreamsMidway = parser.isSet(QStringLiteral("close-streams-midway"));
    m.wrongContentLength = parser.isSet(QStringLiteral("wrong-content-length"));
    cfg->stream.echoPrompt = parser.isSet(QStringLiteral("echo-prompt"));
    if (parser.isSet(QStringLiteral("root-path"))) {
        QString root = parser.value(QStringLiteral("root-path"));
        while (root.endsWith(u'/'))
            root.chop(1);
        if (!root.startsWith(u'/') || root.contains(u'?')) {
            *error = CliText::tr("--root-path needs a path such as /gw");
            return false;
        }
        m.rootPath = root.toUtf8();
    }
    for (const QString &spec : parser.values(QStringLiteral("require-header"))) {
        const qsizetype colon = spec.indexOf(u':');
        const QByteArray name = spec.left(colon).trimmed().toLatin1().toLower();
        static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
        if (colon <= 0 || !token.match(QString::fromLatin1(name)).hasMatch()) {
            *error = CliText::tr("--require-header needs 'Name: value' with a valid header name");
            return false;
        }
        m.requiredHeaders.append({ name, spec.mid(colon + 1).trimmed().toUtf8() });
    }
    return true;
}

// The simulator's numeric options, read into these and into the config.
struct SimNumbers {
    double port = 8000, seed = 0, overheadMs = 0, rateLimit = -1, maxBody = 16 << 20, kvTokens = -1, tokensPerChunk = 1,
           stallMs = 0, chunkChars = 0, firstEventDelayMs = 0, hugeEventBytes = 0, listenDelayMs = 0, dcgmPort = -1,
           reasoningTokens = 0;
};

struct NumberOption {
    const char *name, *help;
    double *target;
    double minimum;
};

QList<QCommandLineOption> simFlagOptions()
{
    return {
        { QStringLiteral("host"), CliText::tr("Address to listen on (default 127.0.0.1)."), QStringLiteral("addr") },
        { QStringLiteral("model"), CliText::tr("Model ID served (default servescope-sim-7b)."),
            QStringLiteral("name") },
        { QStringLiteral("tls-cert"), CliText::tr("Serve HTTPS with this PEM certificate (with --tls-key)."),
            QStringLiteral("file") },
        { QStringLiteral("tls-key"), CliText::tr("PEM private key of --tls-cert (unencrypted)."),
            QStringLiteral("file") },
        { QStringLiteral("api-key-env"),
            CliText::tr("Require `Authorization: Bearer <key>` on /v1, the key read from "
                        "this environment variable."),
            QStringLiteral("var") },
        { QStringLiteral("preset"), CliText::tr("Hardware/model preset: a100-7b (default), h100-7b, moe-3b-active."),
            QStringLiteral("name") },
        { QStringLiteral("early-role-chunk"),
            CliText::tr("Send the role-only chat delta on arrival (as some gateways).") },
        { QStringLiteral("no-usage"), CliText::tr("Never send the usage chunk.") },
        { QStringLiteral("wrong-usage"),
            CliText::tr("Report usage that contradicts the stream: zero (0 prompt and output tokens) or tenth (a "
                        "tenth of the output tokens)."),
            QStringLiteral("kind") },
        { QStringLiteral("ignore-ignore-eos"), CliText::tr("Stop at the seeded EOS point even with ignore_eos.") },
        { QStringLiteral("stamp"), CliText::tr("Write `: t=<monotonic ns>` before every data event.") },
        { QStringLiteral("no-tokenize"), CliText::tr("Answer /tokenize with 404 (most gateways).") },
        { QStringLiteral("no-metrics"), CliText::tr("Answer /metrics with 404.") },
        { QStringLiteral("no-completions"), CliText::tr("Answer /v1/completions with 404 (a chat-only gateway).") },
        { QStringLiteral("only-api"),
            CliText::tr("Serve only this API's generation route, the others answer 404 (repeatable)."),
            QStringLiteral("api") },
        { QStringLiteral("echo-prompt"), CliText::tr("Start every answer with the prompt text.") },
        { QStringLiteral("require-header"),
            CliText::tr("Answer 400 to any request without this exact header (repeatable)."),
            QStringLiteral("Name: value") },
        { QStringLiteral("root-path"),
            CliText::tr("Serve every route under this path prefix, e.g. /gw (as behind a gateway); 404 elsewhere."),
            QStringLiteral("path") },
        { QStringLiteral("drop-ignore-eos"),
            CliText::tr("Drop ignore_eos and min_tokens from every request, as a strict gateway.") },
        { QStringLiteral("close-streams-midway"),
            CliText::tr("Close every stream's connection after half of its tokens.") },
        { QStringLiteral("wrong-content-length"),
            CliText::tr("Send generation answers unchunked with content-length: 256, whatever their length.") },
    };
}

QList<NumberOption> simNumberOptions(SimNumbers &n, Sim::SimConfig &cfg)
{
    return {
        { "port", QT_TRANSLATE_NOOP("ServeScope::Cli", "TCP port; 0 picks a free one (default 8000)."), &n.port, 0 },
        { "seed", QT_TRANSLATE_NOOP("ServeScope::Cli", "Seed of every random draw (default 0)."), &n.seed, 0 },
        { "kv-cache-tokens", QT_TRANSLATE_NOOP("ServeScope::Cli", "KV cache size in tokens (preset default)."),
            &n.kvTokens, 1 },
        { "weight-bytes", QT_TRANSLATE_NOOP("ServeScope::Cli", "Bytes of weights read per step."),
            &cfg.model.weightBytes, 0 },
        { "kv-bytes-per-token", QT_TRANSLATE_NOOP("ServeScope::Cli", "KV bytes per token of context."),
            &cfg.model.kvBytesPerToken, 0 },
        { "memory-bandwidth", QT_TRANSLATE_NOOP("ServeScope::Cli", "Effective memory bandwidth, bytes/s."),
            &cfg.model.memoryBandwidth, 1 },
        { "peak-flops", QT_TRANSLATE_NOOP("ServeScope::Cli", "Effective FLOP/s."), &cfg.model.peakFlops, 1 },
        { "active-params", QT_TRANSLATE_NOOP("ServeScope::Cli", "Parameters active per token."),
            &cfg.model.activeParams, 0 },
        { "step-overhead-ms", QT_TRANSLATE_NOOP("ServeScope::Cli", "Fixed cost of every step, ms."), &n.overheadMs, 0 },
        { "tokens-per-chunk", QT_TRANSLATE_NOOP("ServeScope::Cli", "Tokens per SSE event (default 1)."),
            &n.tokensPerChunk, 1 },
        { "chunk-chars",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Content events of exactly N characters, splitting words (0 = off)."),
            &n.chunkChars, 0 },
        { "reasoning-tokens",
            QT_TRANSLATE_NOOP("ServeScope::Cli",
                "Start every chat answer with N reasoning tokens (of its output), as a thinking model (default 0)."),
            &n.reasoningTokens, 0 },
        { "huge-event-bytes",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Start every stream with one content event (one line) of N bytes."),
            &n.hugeEventBytes, 0 },
        { "dcgm-port",
            QT_TRANSLATE_NOOP(
                "ServeScope::Cli", "Also serve a DCGM-exporter-style /metrics on this port (0 picks one)."),
            &n.dcgmPort, 0 },
        { "listen-delay-ms",
            QT_TRANSLATE_NOOP(
                "ServeScope::Cli", "Wait this long before listening, as a server loading its weights (wall clock)."),
            &n.listenDelayMs, 0 },
        { "first-event-delay-ms",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Hold every stream's first token event this long (wall clock)."),
            &n.firstEventDelayMs, 0 },
        { "eos-mean-tokens",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Mean output length without ignore_eos (default 256)."),
            &cfg.stream.eosMeanTokens, 1 },
        { "time-scale",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Run the model this many times faster than real time (default 1)."),
            &cfg.server.timeScale, 1e-6 },
        { "keep-alive-timeout", QT_TRANSLATE_NOOP("ServeScope::Cli", "Idle keep-alive timeout, seconds (default 5)."),
            &cfg.server.keepAliveSeconds, 0.01 },
        { "max-body-bytes",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Largest request body (default 16 MiB); larger gets 413."), &n.maxBody,
            1 },
        { "fail-rate", QT_TRANSLATE_NOOP("ServeScope::Cli", "Share of requests answered 500."), &cfg.faults.failRate,
            0 },
        { "rate-limit",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Answer 429 (Retry-After: 1) when this many requests already wait."),
            &n.rateLimit, 0 },
        { "disconnect-rate", QT_TRANSLATE_NOOP("ServeScope::Cli", "Share of streams cut mid-way."),
            &cfg.faults.disconnectRate, 0 },
        { "malformed-rate", QT_TRANSLATE_NOOP("ServeScope::Cli", "Share of streams with one truncated JSON event."),
            &cfg.faults.malformedRate, 0 },
        { "stall-ms",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Pause a stream this long (wall clock) once, at a seeded token."),
            &n.stallMs, 0 },
        { "stall-rate",
            QT_TRANSLATE_NOOP("ServeScope::Cli", "Share of streams that stall when --stall-ms is set (default 1)."),
            &cfg.faults.stallRate, 0 },
    };
}

// Every number given, checked against its minimum, into `n` and `cfg`; the usage error otherwise.
std::optional<int> applyNumbers(
    const QCommandLineParser &parser, const QList<NumberOption> &nums, SimNumbers &n, Sim::SimConfig &cfg)
{
    n.overheadMs = cfg.model.overheadSeconds * 1000;
    for (const NumberOption &o : nums) {
        const QString name = QString::fromLatin1(o.name);
        if (!parser.isSet(name))
            continue;
        bool ok = false;
        const double v = parser.value(name).toDouble(&ok);
        if (!ok || !std::isfinite(v) || v < o.minimum)
            return usage(
                CliText::tr("--%1 needs a number >= %2, got '%3'").arg(name).arg(o.minimum).arg(parser.value(name)));
        *o.target = v;
    }
    const auto setInt = [](double v, int *target) {
        if (v >= 0)
            *target = int(std::min(v, 2e9));
    };
    setInt(n.kvTokens, &cfg.scheduler.kvCacheTokens);
    if (QString error; !applySchedulerFlags(parser, n.kvTokens >= 0, &cfg, &error))
        return usage(error);
    setInt(n.tokensPerChunk, &cfg.stream.tokensPerChunk);
    setInt(n.stallMs, &cfg.faults.stallMs);
    setInt(n.rateLimit, &cfg.faults.rateLimit);
    setInt(n.chunkChars, &cfg.stream.chunkChars);
    setInt(n.reasoningTokens, &cfg.stream.reasoningTokens);
    if (cfg.stream.reasoningTokens > 0 && cfg.stream.chunkChars > 0)
        return usage(CliText::tr("--reasoning-tokens and --chunk-chars cannot be combined"));
    setInt(n.firstEventDelayMs, &cfg.misbehaviour.firstEventDelayMs);
    cfg.misbehaviour.hugeEventBytes = qint64(std::min(n.hugeEventBytes, 1e12));
    if (n.port > 65535)
        return usage(CliText::tr("--port must be 0..65535"));
    cfg.server.port = quint16(n.port);
    cfg.server.seed = quint64(n.seed);
    cfg.server.maxBodyBytes = qint64(n.maxBody);
    cfg.model.overheadSeconds = n.overheadMs / 1000.0;
    return std::nullopt;
}

// The switches and texts into `cfg`, and the checks across options; the usage error otherwise.
std::optional<int> applyFlags(const QCommandLineParser &parser, Sim::SimConfig &cfg)
{
    cfg.stream.earlyRoleChunk = parser.isSet(QStringLiteral("early-role-chunk"));
    cfg.stream.noUsage = parser.isSet(QStringLiteral("no-usage"));
    if (parser.isSet(QStringLiteral("wrong-usage"))) {
        const QString kind = parser.value(QStringLiteral("wrong-usage"));
        if (kind != QLatin1String("zero") && kind != QLatin1String("tenth"))
            return usage(CliText::tr("--wrong-usage takes zero or tenth"));
        cfg.stream.wrongUsage = kind == QLatin1String("zero") ? Sim::StreamParams::WrongUsage::Zero
                                                              : Sim::StreamParams::WrongUsage::Tenth;
    }
    cfg.stream.ignoreIgnoreEos = parser.isSet(QStringLiteral("ignore-ignore-eos"));
    cfg.server.stamp = parser.isSet(QStringLiteral("stamp"));
    if (parser.isSet(QStringLiteral("host")))
        cfg.server.host = parser.value(QStringLiteral("host"));
    if (parser.isSet(QStringLiteral("model")))
        cfg.server.model = parser.value(QStringLiteral("model"));
    cfg.server.tlsCert = parser.value(QStringLiteral("tls-cert"));
    cfg.server.tlsKey = parser.value(QStringLiteral("tls-key"));
    if (cfg.server.tlsCert.isEmpty() != cfg.server.tlsKey.isEmpty())
        return usage(CliText::tr("--tls-cert and --tls-key go together"));
    for (double rate :
        { cfg.faults.failRate, cfg.faults.disconnectRate, cfg.faults.malformedRate, cfg.faults.stallRate })
        if (rate > 1)
            return usage(CliText::tr("rates must be between 0 and 1"));
    if (cfg.scheduler.maxModelLen > cfg.scheduler.kvCacheTokens)
        return usage(CliText::tr("--max-model-len (%1) exceeds --kv-cache-tokens (%2): a long request could never run")
                         .arg(cfg.scheduler.maxModelLen)
                         .arg(cfg.scheduler.kvCacheTokens));
    if (QString error; !applyMisbehaviour(parser, &cfg, &error))
        return usage(error);
    if (parser.isSet(QStringLiteral("api-key-env"))) {
        // The library's reading: same trimming as `run`, and a key pasted here is refused unechoed.
        const SecretResult key = readApiKeyFromEnvironment(parser.value(QStringLiteral("api-key-env")));
        if (!key.ok)
            return usage(CliText::tr("--api-key-env: %1").arg(key.message));
        cfg.server.apiKey = key.secret;
    }
    return std::nullopt;
}

// Serves until SIGINT or SIGTERM, after `listenDelayMs` of refusing connections.
int serveSim(const Sim::SimConfig &cfg, double listenDelayMs, double dcgmPort)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return usage(CliText::tr("cannot create the signal pipe"));
    QSocketNotifier notifier(g_signalPipe[0], QSocketNotifier::Read);
    int received = 0;
    QObject::connect(&notifier, &QSocketNotifier::activated, [&received] {
        char c = 0;
        if (::read(g_signalPipe[0], &c, 1) == 1)
            received = c;
        QCoreApplication::quit();
    });
    struct sigaction sa { };
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    // A loading server: the port refuses connections until it is up. TERM still ends it promptly.
    for (QDeadlineTimer loading(qint64(std::min(listenDelayMs, 1e9))); !loading.hasExpired() && received == 0;) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(10);
    }
    if (received != 0)
        return received == SIGINT ? ExitInterrupted : ExitOk;
    Sim::SimServer server(cfg);
    QObject::connect(&server, &Sim::SimServer::acceptFailed,
        [](const QString &m) { std::fprintf(stderr, "servescope-cli sim: accept failed: %s\n", qPrintable(m)); });
    QString error;
    if (!server.listen(&error)) {
        std::fprintf(stderr, "servescope-cli sim: cannot listen on %s:%d: %s\n", qPrintable(cfg.server.host),
            int(cfg.server.port), qPrintable(error));
        return ExitFailed;
    }
    const QString shownHost = cfg.server.host.contains(u':') ? u'[' + cfg.server.host + u']' : cfg.server.host;
    std::printf("listening %s://%s:%d\n", cfg.server.tlsCert.isEmpty() ? "http" : "https", qPrintable(shownHost),
        int(server.port()));
    Sim::DcgmExporter dcgm(server.gpuActivity(), gpuName(cfg.preset));
    if (dcgmPort >= 0) {
        if (dcgmPort > 65535 || !dcgm.listen(cfg.server.host, quint16(dcgmPort), &error)) {
            std::fprintf(stderr, "servescope-cli sim: cannot serve --dcgm-port %g: %s\n", dcgmPort, qPrintable(error));
            return ExitFailed;
        }
        std::printf("dcgm listening http://%s:%d\n", qPrintable(shownHost), int(dcgm.port()));
    }
    std::fflush(stdout);
    const bool sglang = cfg.server.flavor == Sim::Flavor::Sglang;
    std::fprintf(stderr, "servescope-cli sim: flavor %s, preset %s, model %s, %s %d, time-scale %g\n",
        sglang ? "sglang" : "vllm", qPrintable(cfg.preset), qPrintable(cfg.server.model),
        sglang ? "max-running-requests" : "max-num-seqs", cfg.scheduler.maxNumSeqs, cfg.server.timeScale);
    QCoreApplication::exec();
    server.shutdown();
    std::fprintf(stderr, "servescope-cli sim: stopped\n");
    return received == SIGINT ? ExitInterrupted : ExitOk;
}

} // namespace

static int runSim(const QStringList &args)
{
    Sim::SimConfig cfg;
    SimNumbers n;
    const QList<NumberOption> nums = simNumberOptions(n, cfg);
    QCommandLineParser parser;
    parser.setApplicationDescription(CliText::tr("Simulated vLLM- or SGLang-like OpenAI-compatible server."));
    parser.addHelpOption();
    parser.addOptions(simFlagOptions());
    parser.addOptions(schedulerOptions());
    for (const NumberOption &o : nums)
        parser.addOption({ QString::fromLatin1(o.name), CliText::tr(o.help), QStringLiteral("x") });
    if (const std::optional<int> done = parseCommand(parser, args, "sim", Positional::None))
        return *done;
    const QString preset
        = parser.isSet(QStringLiteral("preset")) ? parser.value(QStringLiteral("preset")) : QStringLiteral("a100-7b");
    if (!Sim::applyPreset(preset, &cfg))
        return usage(CliText::tr("unknown preset '%1' (known: %2)").arg(preset, Sim::presetNames().join(u", ")));
    if (const std::optional<int> refused = applyNumbers(parser, nums, n, cfg))
        return *refused;
    if (const std::optional<int> refused = applyFlags(parser, cfg))
        return *refused;
    return serveSim(cfg, n.listenDelayMs, n.dcgmPort);
}

static const CommandRegistration reg(
    { "sim", QT_TRANSLATE_NOOP("ServeScope::Cli", "Run the simulated OpenAI-compatible server"), &runSim });
