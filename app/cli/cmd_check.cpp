// SPDX-License-Identifier: MIT
// servescope-cli check: models list and one tiny streamed request, with a diagnosis and a fix.
#include "clitext.h"
#include "command.h"

#include "diagnosis/capabilities.h"
#include "diagnosis/preflight.h"
#include "model/validation.h"
#include "secrets/apikey.h"
#include "secrets/secretheaders.h"

#include <QCommandLineParser>
#include <QRegularExpression>
#include <QTextStream>
#include <QUrl>

#include <cstdio>

namespace {

using namespace ServeScope;
using namespace ServeScope::Cli;

QString triState(int v)
{
    return v < 0 ? QStringLiteral("unknown") : v ? QStringLiteral("yes") : QStringLiteral("no");
}

/// One capability answer: `key  value`, then what it means for a run and, when something can be done, the fix.
void printCapability(QTextStream &out, const char *key, int value)
{
    out << key << '\t' << triState(value) << '\n';
    const CapabilityNote note = capabilityNote(QString::fromLatin1(key), value);
    if (!note.means.isEmpty())
        out << key << ".means\t" << note.means << '\n';
    if (!note.fix.isEmpty())
        out << key << ".fix\t" << note.fix << '\n';
}

bool isHeaderName(const QString &name)
{
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    return token.match(name).hasMatch();
}

/// --header 'Name: value' and --header-env Name=VAR into `request`; false prints why. A value read from
/// the environment is a secret: trimmed like a key, scrubbed from every detail, never printed.
bool addHeaders(const QCommandLineParser &parser, PreflightRequest *request, QTextStream &err)
{
    for (const QString &spec : parser.values(QStringLiteral("header"))) {
        const qsizetype colon = spec.indexOf(u':');
        const QString name = spec.left(colon).trimmed();
        if (colon <= 0 || !isHeaderName(name)) {
            err << "servescope-cli check: " << CliText::tr("--header needs 'Name: value' with a valid header name")
                << '\n';
            return false;
        }
        request->endpoint.extraHeaders.append({ name.toLatin1(), spec.mid(colon + 1).trimmed().toUtf8() });
    }
    for (const QString &spec : parser.values(QStringLiteral("header-env"))) {
        const qsizetype eq = spec.indexOf(u'=');
        const QString name = spec.left(eq).trimmed();
        const QString var = spec.mid(eq + 1).trimmed();
        if (eq <= 0 || !isHeaderName(name)) {
            err << "servescope-cli check: " << CliText::tr("--header-env needs Name=VAR with a valid header name")
                << '\n';
            return false;
        }
        if (!isValidEnvironmentName(var)) { // never echoed: it may be the secret pasted in the wrong place
            err << "servescope-cli check: "
                << CliText::tr("--header-env %1 must name an environment variable ([A-Za-z_][A-Za-z0-9_]*), not "
                               "hold its value")
                       .arg(name)
                << '\n';
            return false;
        }
        SecretHeaders secret;
        QString error;
        if (!readSecretHeaders({ { name, var } }, QStringLiteral("--header-env "), &secret, &error)) {
            err << "servescope-cli check: " << error << '\n';
            return false;
        }
        addSecretHeaders(&request->endpoint, secret);
    }
    const QStringList names = [&] {
        QStringList n;
        for (const auto &h : std::as_const(request->endpoint.extraHeaders))
            n << QString::fromLatin1(h.first).toLower();
        return n;
    }();
    for (const QString &n : names) {
        if (n == QLatin1String("authorization")) {
            err << "servescope-cli check: "
                << CliText::tr("send the key with --api-key-env, not as an Authorization header") << '\n';
            return false;
        }
        if (names.count(n) > 1) {
            err << "servescope-cli check: " << CliText::tr("header %1 is given twice").arg(n) << '\n';
            return false;
        }
    }
    return true;
}

void addCheckOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(CliText::tr("Checks that an endpoint is usable for a benchmark."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("base-url"), CliText::tr("Base URL, e.g. http://127.0.0.1:8000"), QStringLiteral("URL") },
        { QStringLiteral("model"), CliText::tr("Model ID"), QStringLiteral("ID") },
        { QStringLiteral("path"),
            CliText::tr("Request path; it names the API (default: the --api's usual path, /v1/chat/completions)"),
            QStringLiteral("P") },
        { QStringLiteral("api"),
            CliText::tr("API without --path: chat, completions, responses, messages or sglang-generate (default chat)"),
            QStringLiteral("NAME"), QStringLiteral("chat") },
        { QStringLiteral("api-key-env"), CliText::tr("Environment variable holding the API key"),
            QStringLiteral("VAR") },
        { QStringLiteral("timeout"), CliText::tr("Seconds per request (default 15)"), QStringLiteral("S"),
            QStringLiteral("15") },
        { QStringLiteral("header"), CliText::tr("Extra header on every request, 'Name: value' (repeatable)"),
            QStringLiteral("H") },
        { QStringLiteral("header-env"),
            CliText::tr("Extra header whose value is a secret read from an environment variable, Name=VAR "
                        "(repeatable)"),
            QStringLiteral("NAME=VAR") },
        { QStringLiteral("smoke"),
            CliText::tr("Also probe /tokenize, /metrics, ignore_eos and whether the stream arrives buffered") },
        { QStringLiteral("ca-file"), CliText::tr("https: trust the certificate authorities in this PEM file"),
            QStringLiteral("FILE") },
        { QStringLiteral("tls-skip-verify"), CliText::tr("https: do not check the server's certificate") },
    });
}

// The machine lines of a check: the diagnosis, its detail and fix, what the server said, and with
// --smoke the capability probes.
void printResult(const PreflightResult &r, bool smoke)
{
    QTextStream out(stdout);
    out << "diagnosis\t" << diagnosisCode(r.diagnosis) << '\n';
    if (!r.detail.isEmpty())
        out << "detail\t" << r.detail << '\n';
    if (!r.usable)
        out << "fix\t" << diagnosisFix(r.diagnosis) << '\n';
    if (!r.answeringApi.isEmpty())
        out << "answering_api\t" << r.answeringApi << '\n';
    if (!r.answeringPath.isEmpty())
        out << "answering_path\t" << r.answeringPath << '\n';
    if (!r.models.isEmpty())
        out << "models\t" << r.models.join(QLatin1Char(',')) << '\n';
    if (r.modelsRefused > 0)
        out << "models_refused\t" << r.modelsRefused << '\n';
    if (r.maxModelLen > 0)
        out << "max_model_len\t" << r.maxModelLen << '\n';
    if (r.streamed) {
        printCapability(out, "usage_sent", r.usageSent ? 1 : 0);
        printCapability(out, "role_chunk_first", r.roleChunkFirst ? 1 : 0);
    }
    if (r.runStreams > 0)
        out << "streams_read\t" << r.runStreams << '\n';
    if (smoke && r.usable) {
        printCapability(out, "tokenize", r.tokenizeAvailable);
        printCapability(out, "metrics", r.metricsAvailable);
        printCapability(out, "ignore_eos", r.ignoreEosHonoured);
        printCapability(out, "stream_buffered", r.streamBuffered);
        if (r.streamBuffered >= 0)
            out << "events_per_read\t" << QString::number(r.eventsPerRead, 'f', 1) << '\n';
    }
}

int runCheck(const QStringList &args)
{
    QCommandLineParser parser;
    addCheckOptions(parser);
    QTextStream err(stderr);
    if (const std::optional<int> done = parseCommand(parser, args, "check", Positional::None))
        return *done;
    if (!parser.isSet(QStringLiteral("base-url")) || !parser.isSet(QStringLiteral("model"))) {
        err << "servescope-cli check: " << CliText::tr("--base-url and --model are required") << '\n';
        return ExitUsage;
    }
    bool ok = false;
    const double timeoutS = parser.value(QStringLiteral("timeout")).toDouble(&ok);
    if (!ok || timeoutS <= 0) {
        err << "servescope-cli check: " << CliText::tr("--timeout must be a positive number of seconds") << '\n';
        return ExitUsage;
    }

    // The endpoint as an experiment would hold it, reached as a run reaches it.
    Endpoint endpoint;
    endpoint.baseUrl = parser.value(QStringLiteral("base-url"));
    endpoint.model = parser.value(QStringLiteral("model"));
    Api api = Api::Chat;
    if (!parseApi(parser.value(QStringLiteral("api")), &api)) {
        err << "servescope-cli check: "
            << CliText::tr("--api takes chat, completions, responses, messages or sglang-generate") << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("api")) && parser.isSet(QStringLiteral("path"))
        && apiForPath(parser.value(QStringLiteral("path"))) != api) {
        err << "servescope-cli check: " << CliText::tr("--path names another API than --api") << '\n';
        return ExitUsage;
    }
    endpoint.path = parser.isSet(QStringLiteral("path")) ? parser.value(QStringLiteral("path")) : defaultPath(api);
    endpoint.caFile = parser.value(QStringLiteral("ca-file"));
    endpoint.tlsSkipVerify = parser.isSet(QStringLiteral("tls-skip-verify"));
    QByteArray apiKey;
    bool keyTrimmed = false;
    if (parser.isSet(QStringLiteral("api-key-env"))) {
        // The library's reading, as `run` does: same trimming, and a pasted key is refused unechoed.
        const SecretResult key = readApiKeyFromEnvironment(parser.value(QStringLiteral("api-key-env")));
        if (!key.ok) {
            err << "servescope-cli check: --api-key-env: " << key.message << '\n';
            return ExitUsage;
        }
        apiKey = key.secret;
        keyTrimmed = key.trimmed;
        if (key.trimmed)
            err << "servescope-cli check: " << CliText::tr("whitespace around the API key was trimmed") << '\n';
    }
    PreflightRequest request = PreflightRequest::of(endpoint, apiKey);
    request.keyHadWhitespace = keyTrimmed;
    request.smoke = parser.isSet(QStringLiteral("smoke"));
    request.timeoutMs = int(timeoutS * 1000);
    if (!addHeaders(parser, &request, err))
        return ExitUsage;

    const PreflightResult r = runPreflight(request);
    printResult(r, request.smoke);
    return r.usable ? ExitOk : ExitFailed;
}

const CommandRegistration reg({ "check",
    QT_TRANSLATE_NOOP("ServeScope::Cli", "Check an endpoint: models, one streamed request, diagnosis"), &runCheck });

} // namespace
