// SPDX-License-Identifier: MIT
#include "diagnosistext.h"

#include "diagnosis/capabilities.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {
/// Translation context of the diagnosis texts.
class DiagnosisWords {
    Q_DECLARE_TR_FUNCTIONS(DiagnosisWords)
};
} // namespace

QString diagnosisText(Diagnosis d)
{
    switch (d) {
    case Diagnosis::Ok:
        return DiagnosisWords::tr("The endpoint answered a streamed request correctly.");
    case Diagnosis::BadUrl:
        return DiagnosisWords::tr("The base URL is not a valid http:// or https:// address.");
    case Diagnosis::DoubledV1:
        return DiagnosisWords::tr(
            "The address contains /v1 twice. Remove /v1 from the base URL; the path already has it.");
    case Diagnosis::ConnectionRefused:
        return DiagnosisWords::tr(
            "Nothing is listening at that address and port. Is the server running, and is the port right?");
    case Diagnosis::HostNotFound:
        return DiagnosisWords::tr("The host name could not be resolved. Check the spelling, or your DNS and VPN.");
    case Diagnosis::Tls:
        return DiagnosisWords::tr(
            "The secure connection failed (certificate or TLS version). Check https:// versus http://.");
    case Diagnosis::Timeout:
        return DiagnosisWords::tr(
            "The server did not answer in time. It may be overloaded, still loading the model, or behind a firewall.");
    case Diagnosis::Auth:
        return DiagnosisWords::tr("The server refused the API key. Check the key stored for this profile.");
    case Diagnosis::AuthKeyWhitespace:
        return DiagnosisWords::tr(
            "The server refused the API key, and the pasted key had spaces or line breaks around it. Paste it again.");
    case Diagnosis::RouteNotFound:
        return DiagnosisWords::tr("The server has no such route. Check the path (for example /v1/chat/completions).");
    case Diagnosis::ModelNotFound:
        return DiagnosisWords::tr("The server does not serve this model. Pick one of the models it lists.");
    case Diagnosis::Redirect:
        return DiagnosisWords::tr("The server redirected the request. Use the final address as the base URL.");
    case Diagnosis::RateLimited:
        return DiagnosisWords::tr("The server is rate limiting this key. Wait, or use a key with a higher limit.");
    case Diagnosis::ServerError:
        return DiagnosisWords::tr("The server failed with an internal error. Its logs will say why.");
    case Diagnosis::ErrorBody:
        return DiagnosisWords::tr("The server answered with an error message instead of tokens.");
    case Diagnosis::NoChoices:
        return DiagnosisWords::tr("The stream carried no choices. This endpoint may not be OpenAI-compatible.");
    case Diagnosis::NoTokens:
        return DiagnosisWords::tr("The stream ended without any token.");
    case Diagnosis::StreamTruncated:
        return DiagnosisWords::tr("Streams end before their end. Every request of a run would fail.");
    case Diagnosis::StreamStalled:
        return DiagnosisWords::tr("The stream stopped after its first tokens and sent nothing more in time. A run's "
                                  "requests would fail on the idle timeout: check the server's load and any gateway's "
                                  "buffering.");
    case Diagnosis::LengthMismatch:
        return DiagnosisWords::tr("Responses do not match their Content-Length. Every request of a run would fail.");
    case Diagnosis::StreamFailed:
        return DiagnosisWords::tr("A stream sent the way a run sends it failed; see the details.");
    case Diagnosis::Compressed:
        return DiagnosisWords::tr("The answer came compressed although none was asked for. A run cannot time a "
                                  "compressed stream: turn compression off for this route.");
    case Diagnosis::NotStreamed:
        return DiagnosisWords::tr("The server ignored stream: true and sent the whole answer at once. Time to first "
                                  "token and the gaps between tokens cannot be measured on this route.");
    case Diagnosis::Other:
        break;
    }
    return DiagnosisWords::tr("The connection test failed for another reason; see the details.");
}

QString connectionOutcome(bool works)
{
    return works ? DiagnosisWords::tr("Connection works.") : DiagnosisWords::tr("Connection test failed.");
}

static QString yesNo(int v)
{
    return v < 0 ? DiagnosisWords::tr("unknown") : v > 0 ? DiagnosisWords::tr("yes") : DiagnosisWords::tr("no");
}

QString preflightSummary(const PreflightResult &r)
{
    QStringList lines { diagnosisText(r.diagnosis) };
    // A model the server does not list: the models it does, in the window's language (the detail is the CLI's).
    if (r.diagnosis == Diagnosis::ModelNotFound && !r.models.isEmpty())
        lines << DiagnosisWords::tr("The server lists: %1").arg(r.models.join(QStringLiteral(", ")));
    else if (!r.detail.isEmpty())
        lines << DiagnosisWords::tr("Details: %1").arg(r.detail);
    if (!r.answeringPath.isEmpty())
        lines << DiagnosisWords::tr("This server answers the %1 API at %2: choose that API (the path follows).")
                     .arg(r.answeringApi, r.answeringPath);
    else if (!r.answeringApi.isEmpty())
        lines << DiagnosisWords::tr("The answer is in the %1 API's format: choose that API.").arg(r.answeringApi);
    if (!r.models.isEmpty())
        lines << DiagnosisWords::tr("Models served: %1").arg(r.models.join(QStringLiteral(", ")));
    if (r.modelsRefused > 0)
        lines << DiagnosisWords::tr("The model list (/v1/models) answered HTTP %1; the key was judged on the API's own "
                                    "route instead, with its own headers.")
                     .arg(r.modelsRefused);
    if (r.maxModelLen > 0)
        lines << DiagnosisWords::tr("Longest context (max_model_len): %1 tokens").arg(r.maxModelLen);
    // Each answer with what it means for a run and, when something can be done, the fix.
    const auto answer = [&lines](const QString &line, const char *key, int value) {
        lines << line;
        const CapabilityNote note = capabilityNote(QString::fromLatin1(key), value, true);
        if (!note.means.isEmpty())
            lines << QStringLiteral("    ") + note.means;
        if (!note.fix.isEmpty())
            lines << QStringLiteral("    ") + DiagnosisWords::tr("Fix: %1").arg(note.fix);
    };
    if (r.streamed) {
        answer(DiagnosisWords::tr("Token usage reported: %1").arg(yesNo(r.usageSent ? 1 : 0)), "usage_sent",
            r.usageSent ? 1 : 0);
        answer(DiagnosisWords::tr("Role chunk before the first token: %1").arg(yesNo(r.roleChunkFirst ? 1 : 0)),
            "role_chunk_first", r.roleChunkFirst ? 1 : 0);
    }
    if (r.tokenizeAvailable >= 0)
        answer(DiagnosisWords::tr("/tokenize available: %1").arg(yesNo(r.tokenizeAvailable)), "tokenize",
            r.tokenizeAvailable);
    if (r.metricsAvailable >= 0)
        answer(
            DiagnosisWords::tr("/metrics available: %1").arg(yesNo(r.metricsAvailable)), "metrics", r.metricsAvailable);
    if (r.ignoreEosHonoured >= 0)
        answer(DiagnosisWords::tr("ignore_eos honoured: %1").arg(yesNo(r.ignoreEosHonoured)), "ignore_eos",
            r.ignoreEosHonoured);
    return lines.join(QLatin1Char('\n'));
}

QString secretErrorText(SecretError e)
{
    switch (e) {
    case SecretError::None:
        return {};
    case SecretError::NotFound:
        return DiagnosisWords::tr("No key is stored for this profile yet.");
    case SecretError::Unavailable:
        return DiagnosisWords::tr("The system keychain is locked or not available.");
    case SecretError::Timeout:
        return DiagnosisWords::tr("The system keychain did not answer (it may be waiting for a password prompt).");
    case SecretError::Other:
        break;
    }
    return DiagnosisWords::tr("The system keychain reported an error.");
}

} // namespace ServeScope
