// SPDX-License-Identifier: MIT
// servescope-cli check: models list and one tiny streamed request, with a diagnosis and a fix.
#include "command.h"

#include "diagnosis/preflight.h"

#include <QCommandLineParser>
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

int runCheck(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Checks that an endpoint is usable for a benchmark."));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("base-url"), QStringLiteral("Base URL, e.g. http://127.0.0.1:8000"), QStringLiteral("URL") },
        { QStringLiteral("model"), QStringLiteral("Model ID"), QStringLiteral("ID") },
        { QStringLiteral("path"), QStringLiteral("Request path (default /v1/chat/completions)"), QStringLiteral("P"),
            QStringLiteral("/v1/chat/completions") },
        { QStringLiteral("api-key-env"), QStringLiteral("Environment variable holding the API key"),
            QStringLiteral("VAR") },
        { QStringLiteral("timeout"), QStringLiteral("Seconds per request (default 15)"), QStringLiteral("S"),
            QStringLiteral("15") },
        { QStringLiteral("smoke"), QStringLiteral("Also probe /tokenize, /metrics and ignore_eos") },
    });
    QTextStream err(stderr);
    if (!parser.parse(args)) {
        err << "servescope-cli check: " << parser.errorText() << '\n';
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "servescope-cli check: unexpected argument '" << parser.positionalArguments().first() << "'\n";
        return ExitUsage;
    }
    if (!parser.isSet(QStringLiteral("base-url")) || !parser.isSet(QStringLiteral("model"))) {
        err << "servescope-cli check: --base-url and --model are required\n";
        return ExitUsage;
    }
    bool ok = false;
    const double timeoutS = parser.value(QStringLiteral("timeout")).toDouble(&ok);
    if (!ok || timeoutS <= 0) {
        err << "servescope-cli check: --timeout must be a positive number of seconds\n";
        return ExitUsage;
    }

    PreflightRequest request;
    request.baseUrl = QUrl(parser.value(QStringLiteral("base-url")));
    request.model = parser.value(QStringLiteral("model"));
    request.path = parser.value(QStringLiteral("path"));
    request.smoke = parser.isSet(QStringLiteral("smoke"));
    request.timeoutMs = int(timeoutS * 1000);
    if (parser.isSet(QStringLiteral("api-key-env"))) {
        const QString var = parser.value(QStringLiteral("api-key-env"));
        if (!qEnvironmentVariableIsSet(qPrintable(var))) {
            err << "servescope-cli check: environment variable " << var << " is not set\n";
            return ExitUsage;
        }
        const QByteArray raw = qgetenv(qPrintable(var));
        request.apiKey = raw.trimmed();
        request.keyHadWhitespace = request.apiKey.size() != raw.size();
        if (request.keyHadWhitespace)
            err << "servescope-cli check: whitespace around the key in " << var << " was trimmed\n";
    }

    const PreflightResult r = runPreflight(request);
    QTextStream out(stdout);
    out << "diagnosis\t" << diagnosisCode(r.diagnosis) << '\n';
    if (!r.detail.isEmpty())
        out << "detail\t" << r.detail << '\n';
    if (!r.usable)
        out << "fix\t" << diagnosisFix(r.diagnosis) << '\n';
    if (!r.models.isEmpty())
        out << "models\t" << r.models.join(QLatin1Char(',')) << '\n';
    if (r.maxModelLen > 0)
        out << "max_model_len\t" << r.maxModelLen << '\n';
    if (r.streamed) {
        out << "usage_sent\t" << (r.usageSent ? "yes" : "no") << '\n';
        out << "role_chunk_first\t" << (r.roleChunkFirst ? "yes" : "no") << '\n';
    }
    if (request.smoke && r.usable) {
        out << "tokenize\t" << triState(r.tokenizeAvailable) << '\n';
        out << "metrics\t" << triState(r.metricsAvailable) << '\n';
        out << "ignore_eos\t" << triState(r.ignoreEosHonoured) << '\n';
    }
    return r.usable ? ExitOk : ExitFailed;
}

const CommandRegistration reg({ "check", "Check an endpoint: models, one streamed request, diagnosis", &runCheck });

} // namespace
