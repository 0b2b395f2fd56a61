// SPDX-License-Identifier: MIT
#include "pooltransport.h"

#include "model/clock.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace ServeScope {

namespace {
StreamEnd endFromReply(QNetworkReply *reply, const StreamState &s)
{
    using E = QNetworkReply::NetworkError;
    const E e = reply->error();
    const QString text = reply->errorString();
    switch (e) {
    case E::NoError:
        return {};
    case E::ConnectionRefusedError:
    case E::HostNotFoundError:
    case E::TimeoutError:
    case E::UnknownNetworkError:
    case E::NetworkSessionFailedError:
    case E::TemporaryNetworkFailureError:
        if (!s.record.httpStatus)
            return { ErrorClass::Connect, QStringLiteral("connect failed: ") + text, false };
        break;
    case E::SslHandshakeFailedError:
        return { ErrorClass::Tls, QStringLiteral("TLS handshake failed: ") + text, false };
    case E::ProxyConnectionRefusedError:
    case E::ProxyConnectionClosedError:
    case E::ProxyNotFoundError:
    case E::ProxyTimeoutError:
    case E::ProxyAuthenticationRequiredError:
        return { ErrorClass::Connect, QStringLiteral("proxy: ") + text, false };
    default:
        break;
    }
    if (s.record.httpStatus >= 300)
        return {}; // an HTTP error status: classified from the status and body
    if (s.record.httpStatus == 0)
        return { ErrorClass::Protocol, QStringLiteral("no response: ") + text, false };
    return { ErrorClass::None, QStringLiteral("stream truncated: ") + text, true };
}
} // namespace

PoolTransport::PoolTransport(QObject *parent)
    : StreamTransport(parent)
{
    m_sweep.setInterval(20);
    connect(&m_sweep, &QTimer::timeout, this, &PoolTransport::sweep);
}

PoolTransport::~PoolTransport()
{
    for (auto &[reply, a] : m_active) {
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
    for (Manager &m : m_managers)
        delete m.nam;
}

void PoolTransport::configure(const EndpointConfig &endpoint)
{
    m_endpoint = endpoint;
    m_api = endpoint.api();
    m_redactor = endpointRedactor(endpoint);
    for (Manager &m : m_managers)
        m.nam->setProxy(endpoint.useProxy ? endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
}

int PoolTransport::addManager()
{
    auto *nam = new QNetworkAccessManager();
    nam->setProxy(m_endpoint.useProxy ? m_endpoint.proxy : QNetworkProxy(QNetworkProxy::NoProxy));
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    nam->setAutoDeleteReplies(false);
    m_managers.push_back({ nam, 0 });
    return int(m_managers.size()) - 1;
}

int PoolTransport::freeManager()
{
    int best = -1;
    for (int i = 0; i < int(m_managers.size()); ++i) {
        if (m_managers[i].live < kStreamsPerManager && (best < 0 || m_managers[i].live < m_managers[best].live))
            best = i;
    }
    if (best < 0 && int(m_managers.size()) < kMaxManagers)
        best = addManager();
    return best;
}

void PoolTransport::warm(int connections, std::function<void(int)> ready)
{
    const int wanted = (connections + kStreamsPerManager - 1) / kStreamsPerManager;
    while (int(m_managers.size()) < std::min(wanted, kMaxManagers))
        addManager();
    const QUrl &u = m_endpoint.url;
    int opened = 0;
    for (int i = 0; i < int(m_managers.size()) && opened < connections; ++i) {
        for (int k = 0; k < kStreamsPerManager && opened < connections; ++k, ++opened) {
            if (u.scheme() == QLatin1String("https"))
                m_managers[i].nam->connectToHostEncrypted(u.host(), quint16(u.port(443)));
            else
                m_managers[i].nam->connectToHost(u.host(), quint16(u.port(80)));
        }
    }
    // The manager gives no signal when a pre-connect completes: allow a short settling time.
    QTimer::singleShot(opened ? 200 + opened / 4 : 0, this, [ready = std::move(ready), opened] { ready(opened); });
}

void PoolTransport::start(StreamRequest req)
{
    std::unique_ptr<StreamState> s = newStream(req);
    s->parser.setMaxEventBytes(m_endpoint.maxEventBytes);
    s->parser.setApi(m_api);
    const int m = freeManager();
    if (m < 0) {
        m_queue.emplace_back(std::move(s), req.prepared.body);
        return;
    }
    send(m, std::move(s), req.prepared.body);
}

void PoolTransport::send(int m, std::unique_ptr<StreamState> s, const QByteArray &body)
{
    QNetworkRequest request(m_endpoint.url);
    for (const auto &[k, v] : requestHeaders(m_endpoint, s->requestId))
        request.setRawHeader(k, v);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, m_endpoint.http2);
    request.setAttribute(
        QNetworkRequest::Http2DirectAttribute, m_endpoint.http2 && m_endpoint.url.scheme() == QLatin1String("http"));
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::CacheSaveControlAttribute, false);
    request.setTransferTimeout(0);
    applyTls(&request, m_endpoint);
    ++m_managers[m].live;
    s->record.startNs = monotonicNs();
    QNetworkReply *reply = m_managers[m].nam->post(request, body);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
    m_active.emplace(reply, Active { std::move(s), m, {} });
    if (!m_sweep.isActive())
        m_sweep.start();
}

void PoolTransport::onReadyRead(QNetworkReply *reply)
{
    const qint64 now = monotonicNs();
    auto it = m_active.find(reply);
    if (it == m_active.end())
        return;
    StreamState &s = *it->second.state;
    if (!s.record.httpStatus) {
        s.record.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        s.record.protocol = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool()
            ? QStringLiteral("h2")
            : QStringLiteral("http/1.1");
    }
    const int n = s.onBody(reply->readAll(), now, m_tap);
    countEvents(n);
    if (s.overflowed())
        complete(reply, s.overflowEnd(), now);
}

void PoolTransport::onFinished(QNetworkReply *reply)
{
    const qint64 now = monotonicNs();
    auto it = m_active.find(reply);
    if (it == m_active.end())
        return;
    StreamState &s = *it->second.state;
    if (reply->bytesAvailable())
        countEvents(s.onBody(reply->readAll(), now, m_tap));
    s.record.httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    s.record.protocol = reply->attribute(QNetworkRequest::Http2WasUsedAttribute).toBool() ? QStringLiteral("h2")
                                                                                          : QStringLiteral("http/1.1");
    StreamEnd end = s.overflowed() ? s.overflowEnd() : endFromReply(reply, s);
    if (end.transportError == ErrorClass::None && s.record.httpStatus >= 300 && s.record.httpStatus < 400)
        end = { ErrorClass::Protocol,
            QStringLiteral("redirect not followed (HTTP %1) to %2")
                .arg(s.record.httpStatus)
                .arg(QString::fromLatin1(reply->rawHeader("Location"))),
            false };
    complete(reply, end, now);
}

void PoolTransport::complete(QNetworkReply *reply, const StreamEnd &end, qint64 endNs)
{
    auto it = m_active.find(reply);
    Active a = std::move(it->second);
    m_active.erase(it);
    reply->disconnect(this);
    if (end.transportError != ErrorClass::None && !reply->isFinished())
        reply->abort();
    reply->deleteLater();
    --m_managers[a.manager].live;
    a.state->record.endNs = endNs;
    if (m_freed)
        m_freed(a.state->record.slot, endNs);
    finalizeRecord(*a.state, end, m_redactor);
    drainQueue();
    if (m_active.empty())
        m_sweep.stop();
    if (m_done)
        m_done(std::move(a.state->record));
}

void PoolTransport::drainQueue()
{
    while (!m_queue.empty()) {
        const int m = freeManager();
        if (m < 0)
            return;
        auto [s, body] = std::move(m_queue.front());
        m_queue.pop_front();
        send(m, std::move(s), body);
    }
}

void PoolTransport::sweep()
{
    const qint64 now = monotonicNs();
    std::vector<std::pair<QNetworkReply *, StreamEnd>> expired;
    for (auto &[reply, a] : m_active) {
        QString text;
        const ErrorClass e = expiredTimeout(*a.state, m_endpoint.timeouts, now, &text);
        if (e != ErrorClass::None)
            expired.push_back({ reply, StreamEnd { e, text, false } });
    }
    for (auto &[reply, end] : expired)
        complete(reply, end, now);
}

void PoolTransport::cancelAll()
{
    const qint64 now = monotonicNs();
    std::vector<QNetworkReply *> replies;
    for (auto &[reply, a] : m_active)
        replies.push_back(reply);
    auto queued = std::move(m_queue);
    m_queue.clear();
    for (QNetworkReply *reply : replies)
        complete(reply, StreamEnd { ErrorClass::Cancelled, QStringLiteral("cancelled"), false }, now);
    // Queued requests held a slot but were never sent: cancelled at the moment of cancelling.
    for (auto &[s, body] : queued) {
        s->record.startNs = s->record.endNs = now;
        finalizeRecord(
            *s, StreamEnd { ErrorClass::Cancelled, QStringLiteral("cancelled before sending"), false }, m_redactor);
        if (m_done)
            m_done(std::move(s->record));
    }
}

} // namespace ServeScope
