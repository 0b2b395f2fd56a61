// SPDX-License-Identifier: MIT
#include "leantransport.h"

#include "epolldispatcher.h"
#include "httpconnection.h"
#include "model/clock.h"
#include "tlsclient.h"

#include <QLoggingCategory>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <sys/epoll.h>
#include <unistd.h>

namespace ServeScope {

Q_DECLARE_LOGGING_CATEGORY(lcLean)

namespace {
constexpr qsizetype kReadBytes = 256 * 1024; ///< one read takes everything a socket has, as a rule
// Connections warm() opens at once. A server's handshakes (TLS above all) then queue in waves
// instead of all at once, so each finishes within the connect timeout however many are asked.
constexpr int kOpensInFlight = 256;
// How long the first HTTPS connection may open alone before the others start without its session.
constexpr qint64 kFirstAloneNs = 1'000'000'000;

// Every address of host:port in the resolver's order (an IP literal resolves to itself).
std::vector<PeerAddress> resolve(const QString &host, int port)
{
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo *list = nullptr;
    std::vector<PeerAddress> out;
    if (getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(), &hints, &list) != 0)
        return out;
    for (const addrinfo *a = list; a; a = a->ai_next) {
        PeerAddress p;
        std::memcpy(&p.addr, a->ai_addr, a->ai_addrlen);
        p.len = a->ai_addrlen;
        out.push_back(p);
    }
    freeaddrinfo(list);
    return out;
}
} // namespace

struct LeanTransport::Warming {
    QVector<HttpConnection *> queue; ///< the connections to open, in order
    qsizetype next = 0; ///< the first of `queue` not yet asked to open
    int inFlight = 0;
    int opened = 0;
    qint64 progressNs = 0; ///< when the last connection opened or failed (or the warm() began)
    bool opening = false;
    bool firstAlone = false; ///< https without a session: the first connection opens alone (openMore)
    std::function<void(int)> ready;
};

LeanTransport::LeanTransport(QObject *parent)
    : StreamTransport(parent)
{
    m_sweep.setInterval(20);
    m_sweep.setTimerType(Qt::CoarseTimer);
    connect(&m_sweep, &QTimer::timeout, this, &LeanTransport::sweep);
    m_warmWatch.setInterval(100);
    connect(&m_warmWatch, &QTimer::timeout, this, [this] {
        const double limit = m_endpoint.timeouts.connectS > 0 ? m_endpoint.timeouts.connectS : 10;
        if (m_warming && monotonicNs() - m_warming->progressNs > qint64(limit * 1e9)) {
            endWarming(); // a peer that stopped answering: start anyway
        } else if (m_warming && m_warming->firstAlone
            && (m_warming->opened > 0 || monotonicNs() - m_warming->progressNs > kFirstAloneNs)) {
            // Opened without a session to resume, or still not open: the rest go without one.
            m_warming->firstAlone = false;
            openMore(m_warming);
        }
    });
}

LeanTransport::~LeanTransport()
{
    for (auto &[c, s] : m_active)
        c->abortRequest();
    m_active.clear();
    qDeleteAll(m_connections);
    if (m_ring)
        m_ring->setSink(nullptr);
    if (m_loop)
        m_loop->setSink({});
}

void LeanTransport::configure(const EndpointConfig &endpoint)
{
    if (!m_loop) {
        // Here, on the worker's thread: its sockets go into the set that thread blocks in. Without
        // that set (no descriptor was left) every connect fails with that reason.
        m_loop = EpollDispatcher::current();
        if (!m_loop)
            qFatal("LeanTransport: configured on a thread whose event loop is not an EpollDispatcher");
        m_loop->setSink([this](const epoll_event *events, int count) { dispatch(events, count); });
        m_readBuffer.resize(kReadBytes);
        QString why;
        m_ring = m_loop->receiveRing(&why);
        if (m_ring)
            m_ring->setSink(this);
        m_receivePath = m_ring ? QStringLiteral("io_uring") : QStringLiteral("epoll (%1)").arg(why);
        qCInfo(lcLean).noquote() << "receiving through" << m_receivePath;
    }
    const bool https = endpoint.url.scheme() == QLatin1String("https");
    const int port = endpoint.url.port(https ? 443 : 80);
    const bool samePeer = endpoint.url.host() == m_endpoint.url.host()
        && endpoint.url.scheme() == m_endpoint.url.scheme() && port == m_endpoint.url.port(https ? 443 : 80)
        && endpoint.caFile == m_endpoint.caFile && endpoint.tlsSkipVerify == m_endpoint.tlsSkipVerify;
    if (!samePeer) {
        cancelAll();
        qDeleteAll(m_connections);
        m_connections.clear();
        m_idle.clear();
    }
    if (!samePeer || m_peers.empty())
        m_peers = resolve(endpoint.url.host(), port);
    if (!https) {
        m_tls.reset();
    } else if (!samePeer || !m_tls) {
        // A context that cannot be made (unreadable CA file) fails each request's handshake with the reason.
        m_tls = TlsContext::make(endpoint.caFile, endpoint.tlsSkipVerify, &m_tlsError);
        if (m_tls) {
            // A warm-up whose first connection waits for a session goes on once one is kept: later,
            // from the loop, as this is called from inside OpenSSL.
            m_tls->setSessionKept([this] {
                if (!m_warming || !m_warming->firstAlone)
                    return;
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        if (m_warming && m_warming->firstAlone) {
                            m_warming->firstAlone = false;
                            openMore(m_warming);
                        }
                    },
                    Qt::QueuedConnection);
            });
        }
    }
    m_endpoint = endpoint;
    m_api = endpoint.api();
    m_redactor = endpointRedactor(endpoint);
    QByteArray path = endpoint.url.path(QUrl::FullyEncoded).toLatin1();
    if (path.isEmpty())
        path = "/";
    if (endpoint.url.hasQuery())
        path += '?' + endpoint.url.query(QUrl::FullyEncoded).toLatin1();
    m_head = "POST " + path + " HTTP/1.1\r\nHost: " + endpoint.url.host().toLatin1() + ':' + QByteArray::number(port)
        + "\r\nUser-Agent: ServeScope/" SERVESCOPE_VERSION "\r\n";
}

void LeanTransport::dispatch(const epoll_event *events, int count)
{
    for (int i = 0; i < count; ++i) {
        const quint64 key = events[i].data.u64;
        const size_t index = size_t(key >> 32);
        if (index < m_connections.size())
            m_connections[index]->onEvents(quint32(key), events[i].events);
    }
    digestRead();
}

// Every ready socket of the batch was read and its events stamped; now their JSON.
void LeanTransport::digestRead()
{
    for (HttpConnection *c : m_unparsed)
        c->digest();
    m_unparsed.clear();
}

void LeanTransport::onPiece(const ReceivedPiece &piece)
{
    const size_t index = size_t(piece.key >> 32);
    if (index < m_connections.size())
        m_connections[index]->onPiece(quint32(piece.key), piece);
}

void LeanTransport::onBatchEnd()
{
    digestRead();
}

// Many streams in flight: a wait of the ring gathers a quarter as many pieces (or
// ReceiveRing::kBatchWaitNs) before it returns. Few: each piece as it comes.
void LeanTransport::setBatch()
{
    if (m_ring)
        m_ring->setBatch(m_active.size() >= 32 ? unsigned(m_active.size() / 4) : 1);
}

HttpConnection *LeanTransport::newConnection()
{
    auto *c = new HttpConnection(
        m_loop ? m_loop->epollFd() : -1, m_ring, quint32(m_connections.size()), &m_peers, &m_readBuffer, &m_unparsed);
    c->tap = &m_tap;
    if (m_endpoint.url.scheme() == QLatin1String("https"))
        c->setTls(m_tls, m_endpoint.url.host().toUtf8());
    c->finished = [this](HttpConnection *conn, StreamState *s, const StreamEnd &end) { onFinished(conn, s, end); };
    c->eventsFramed = [this](int n) { countEvents(n); };
    m_connections.push_back(c);
    m_idle.push_back(c);
    return c;
}

void LeanTransport::release(HttpConnection *c)
{
    m_idle.push_back(c);
}

// The most recently freed connected idle connection, else an unconnected one, else a new one.
HttpConnection *LeanTransport::idleConnection()
{
    if (m_idle.empty())
        newConnection();
    auto it = m_idle.end();
    while (it != m_idle.begin() && !(*(it - 1))->isConnected())
        --it;
    auto pick = it == m_idle.begin() ? m_idle.end() - 1 : it - 1;
    HttpConnection *c = *pick;
    *pick = m_idle.back();
    m_idle.pop_back();
    return c;
}

bool LeanTransport::tlsBroken() const
{
    return m_endpoint.url.scheme() == QLatin1String("https") && !m_tls;
}

void LeanTransport::warm(int connections, std::function<void(int)> ready)
{
    endWarming(); // a warm() still under way reports what it opened
    if (tlsBroken()) {
        ready(0); // every request then fails with the reason
        return;
    }
    int idleConnected = 0;
    for (HttpConnection *c : m_connections)
        idleConnected += !c->isBusy() && c->isConnected();
    QVector<HttpConnection *> toOpen;
    for (HttpConnection *c : m_connections) {
        if (idleConnected + toOpen.size() >= connections)
            break;
        if (!c->isBusy() && !c->isConnected())
            toOpen.append(c);
    }
    while (idleConnected + toOpen.size() < connections)
        toOpen.append(newConnection());
    if (toOpen.isEmpty()) {
        ready(0);
        return;
    }
    m_warming = std::make_shared<Warming>();
    m_warming->queue = std::move(toOpen);
    m_warming->ready = std::move(ready);
    m_warming->progressNs = monotonicNs();
    m_warming->firstAlone = m_tls && !m_tls->resumable() && m_warming->queue.size() > 1;
    m_warmWatch.start();
    openMore(m_warming);
}

// Opens queued connections while fewer than kOpensInFlight are opening; each one that opens (or
// fails to) lets the next start. The last one ends the warm(). Over HTTPS without a session to
// resume, the first opens alone until the server hands it one (or it failed, or the warm watch saw
// it open without one, or not open within kFirstAloneNs): the others then resume it instead of all
// doing a full handshake at once.
void LeanTransport::openMore(const std::shared_ptr<Warming> &w)
{
    if (w->opening)
        return; // a connection that reported at once, from inside the loop below
    w->opening = true;
    while (m_warming == w && w->inFlight < kOpensInFlight && w->next < w->queue.size()
        && !(w->firstAlone && w->next > 0)) {
        HttpConnection *c = w->queue[w->next++];
        ++w->inFlight;
        c->opened = [this, w](HttpConnection *, bool ok) {
            if (m_warming != w)
                return; // that warm() ended (timed out or cancelled)
            --w->inFlight;
            w->opened += ok;
            if (!ok)
                w->firstAlone = false;
            w->progressNs = monotonicNs();
            openMore(w);
        };
        c->open();
    }
    w->opening = false;
    if (m_warming == w && w->inFlight == 0 && w->next == w->queue.size())
        endWarming();
}

void LeanTransport::endWarming()
{
    if (!m_warming)
        return;
    const std::shared_ptr<Warming> w = std::exchange(m_warming, nullptr);
    m_warmWatch.stop();
    if (w->ready)
        std::exchange(w->ready, nullptr)(w->opened);
}

void LeanTransport::start(StreamRequest req)
{
    std::unique_ptr<StreamState> s = newStream(req);
    s->parser.setMaxEventBytes(m_endpoint.maxEventBytes);
    s->parser.setApi(m_api);
    RequestRecord &r = s->record;
    r.protocol = QStringLiteral("http/1.1");
    r.eventNs.reserve(req.prepared.targetOutputLen + 8);
    r.eventKinds.reserve(req.prepared.targetOutputLen + 8);

    QByteArray bytes;
    bytes.reserve(m_head.size() + 512 + req.prepared.body.size());
    bytes += m_head;
    for (const auto &[k, v] : requestHeaders(m_endpoint, s->requestId))
        bytes += k + ": " + v + "\r\n";
    bytes += "Content-Length: " + QByteArray::number(req.prepared.body.size()) + "\r\n\r\n";
    bytes += req.prepared.body;

    if (tlsBroken()) {
        // Reported from the event loop, as a failed connect is, never from inside start().
        auto failed = std::make_shared<std::unique_ptr<StreamState>>(std::move(s));
        QMetaObject::invokeMethod(
            this,
            [this, failed] {
                (*failed)->record.endNs = monotonicNs();
                complete(std::move(*failed), StreamEnd { ErrorClass::Tls, m_tlsError, false });
            },
            Qt::QueuedConnection);
        return;
    }
    HttpConnection *c = idleConnection();
    StreamState *raw = s.get();
    m_active.emplace(c, std::move(s));
    setBatch();
    if (!m_sweep.isActive())
        m_sweep.start();
    c->send(raw, bytes);
}

void LeanTransport::onFinished(HttpConnection *c, StreamState *, const StreamEnd &end)
{
    auto it = m_active.find(c);
    if (it == m_active.end())
        return;
    std::unique_ptr<StreamState> s = std::move(it->second);
    m_active.erase(it);
    release(c);
    complete(std::move(s), end);
}

void LeanTransport::complete(std::unique_ptr<StreamState> s, const StreamEnd &end)
{
    if (!s->record.endNs)
        s->record.endNs = monotonicNs();
    if (m_freed)
        m_freed(s->record.slot, s->record.endNs);
    finalizeRecord(*s, end, m_redactor);
    setBatch();
    if (m_active.empty())
        m_sweep.stop();
    if (m_done)
        m_done(std::move(s->record));
}

void LeanTransport::sweep()
{
    const qint64 now = monotonicNs();
    std::vector<std::pair<HttpConnection *, StreamEnd>> expired;
    for (auto &[c, s] : m_active) {
        QString text;
        const ErrorClass e = expiredTimeout(*s, m_endpoint.timeouts, now, &text);
        if (e != ErrorClass::None)
            expired.push_back({ c, StreamEnd { e, text, false } });
    }
    for (auto &[c, end] : expired) {
        auto it = m_active.find(c);
        std::unique_ptr<StreamState> s = std::move(it->second);
        m_active.erase(it);
        c->abortRequest();
        release(c);
        s->record.endNs = now;
        complete(std::move(s), end);
    }
}

void LeanTransport::cancelAll()
{
    endWarming();
    const qint64 now = monotonicNs();
    auto active = std::move(m_active);
    m_active.clear();
    for (auto &[c, s] : active) {
        c->abortRequest();
        release(c);
        s->record.endNs = now;
        complete(std::move(s), StreamEnd { ErrorClass::Cancelled, QStringLiteral("cancelled"), false });
    }
}

int LeanTransport::reopened() const
{
    int n = 0;
    for (const HttpConnection *c : m_connections)
        n += c->reopened();
    return n;
}

} // namespace ServeScope
