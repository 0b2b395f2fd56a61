// SPDX-License-Identifier: MIT
// What `check` prints for each diagnosis: its stable code for scripts and a one-line fix in English.
#include "preflight.h"

#include <iterator>

namespace ServeScope {

namespace {

struct DiagnosisText {
    Diagnosis d;
    const char *code;
    const char *fix;
};

constexpr DiagnosisText kTexts[] = {
    { Diagnosis::Ok, "ok", "" },
    { Diagnosis::BadUrl, "bad_url", "Use a base URL such as http://host:8000 (scheme, host and port)." },
    { Diagnosis::DoubledV1, "doubled_v1",
        "Remove the trailing /v1 from the base URL; the path already starts with /v1." },
    { Diagnosis::ConnectionRefused, "connection_refused",
        "Nothing listens there: start the server or correct the host and port." },
    { Diagnosis::HostNotFound, "host_not_found",
        "The host name does not resolve: check the spelling or use an IP address." },
    { Diagnosis::Tls, "tls", "TLS failed: check https vs http and the server's certificate." },
    { Diagnosis::Timeout, "timeout",
        "The server did not answer in time: check it is up, not overloaded, and reachable through any proxy." },
    { Diagnosis::Auth, "auth", "The server rejected the API key: check the key and that it belongs to this endpoint." },
    { Diagnosis::AuthKeyWhitespace, "auth_key_whitespace",
        "The key had whitespace around it (trimmed); re-copy the key without spaces or line breaks." },
    { Diagnosis::RouteNotFound, "route_not_found",
        "The path does not exist on this server: use the path of an API it serves (answering_api and "
        "answering_path say one when the check found it)." },
    { Diagnosis::ModelNotFound, "model_not_found",
        "The server does not serve this model: use one of the model ids it lists." },
    { Diagnosis::Redirect, "redirect",
        "The server redirects: use the final URL (often https, or without a trailing slash)." },
    { Diagnosis::RateLimited, "rate_limited",
        "The server is rate limiting (HTTP 429): lower the load or raise the limit." },
    { Diagnosis::ServerError, "server_error", "The server failed (HTTP 5xx): check its logs." },
    { Diagnosis::ErrorBody, "error_body",
        "The server answered 200 with an error body: read the message; often a gateway rejecting the request." },
    { Diagnosis::NoChoices, "no_choices",
        "The stream has no choices: the path is probably not an OpenAI completions endpoint." },
    { Diagnosis::NoTokens, "no_tokens", "The stream ended without any token: check max_tokens and the model." },
    { Diagnosis::StreamTruncated, "stream_truncated",
        "Streams end before their end (connection closed, or no [DONE] and no finish_reason): every request of a "
        "run would fail as protocol; check the server or proxy for response timeouts and buffering limits." },
    { Diagnosis::StreamStalled, "stream_stalled",
        "The stream stopped after its first tokens and sent nothing more in time: a run's requests would fail on "
        "the idle timeout; check the server's load, and a gateway or proxy for response buffering or timeouts." },
    { Diagnosis::LengthMismatch, "length_mismatch",
        "Responses do not match their Content-Length: every request of a run would fail as protocol; a proxy or "
        "gateway is rewriting bodies without fixing the header, or sends a stream with a length." },
    { Diagnosis::StreamFailed, "stream_failed",
        "A stream sent as a run sends it failed (see the detail): a run would fail the same way." },
    { Diagnosis::Compressed, "compressed",
        "The answer came compressed although identity was asked: a run cannot time a compressed stream; turn "
        "compression off for this route in the gateway or proxy." },
    { Diagnosis::NotStreamed, "not_streamed",
        "The server ignored stream: true and sent the whole answer at once: TTFT, TPOT and ITL cannot be measured; "
        "use a server or gateway route that streams." },
    { Diagnosis::Other, "other", "Unexpected answer: see the detail." },
};

const DiagnosisText &textOf(Diagnosis d)
{
    for (const auto &t : kTexts) {
        if (t.d == d)
            return t;
    }
    return kTexts[std::size(kTexts) - 1];
}

} // namespace

QString diagnosisCode(Diagnosis d)
{
    return QString::fromLatin1(textOf(d).code);
}

QString diagnosisFix(Diagnosis d)
{
    return QString::fromLatin1(textOf(d).fix);
}

} // namespace ServeScope
