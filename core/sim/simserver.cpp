// SPDX-License-Identifier: MIT
#include "sim/simserver.h"

#include "model/clock.h"
#include "sim/simconnection.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <cmath>

#include <sys/socket.h>

namespace ServeScope::Sim {

void StepLagStats::add(double seconds)
{
    ++count;
    sum += seconds;
    max = std::max(max, seconds);
    for (int i = 0; i < kBuckets; ++i)
        if (seconds <= kBounds[i])
            ++buckets[i];
}

SimServer::SimServer(const SimConfig &config, QObject *parent)
    : QObject(parent)
    , m_config(config)
    , m_engine(config.model, config.scheduler)
    , m_rng(config.server.seed)
    , m_log(config)
    , m_gpu(config.model, config.server.timeScale)
{
    m_modelJson = '"' + config.server.model.toUtf8().replace('\\', "\\\\").replace('"', "\\\"") + '"';
    m_stepTimer.setSingleShot(true);
    m_stepTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_stepTimer, &QTimer::timeout, this, &SimServer::onStep);
    const int sweepMs = int(std::clamp(m_config.server.keepAliveSeconds * 250.0, 10.0, 1000.0));
    m_sweepTimer.setInterval(sweepMs);
    connect(&m_sweepTimer, &QTimer::timeout, this, &SimServer::sweepIdle);
    m_out.reserve(1 << 16);
    m_frame.reserve(1 << 16);
    m_startedNs = monotonicNs();
}

SimServer::~SimServer()
{
    shutdown();
}

bool SimServer::listen(QString *error)
{
    if (!m_config.server.tlsCert.isEmpty()) {
        m_tls = SimTlsContext::load(m_config.server.tlsCert, m_config.server.tlsKey, error);
        if (!m_tls)
            return false;
    }
    m_tcp = new QTcpServer(this);
    connect(m_tcp, &QTcpServer::newConnection, this, &SimServer::onNewConnections);
    m_tcp->setListenBacklogSize(4096);
    m_tcp->setMaxPendingConnections(4096);
    connect(m_tcp, &QTcpServer::acceptError, this,
        [this](QAbstractSocket::SocketError) { emit acceptFailed(m_tcp->errorString()); });
    QHostAddress address;
    if (!address.setAddress(m_config.server.host))
        address = m_config.server.host == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost)
                                                                     : QHostAddress(QHostAddress::Any);
    if (!m_tcp->listen(address, m_config.server.port)) {
        *error = m_tcp->errorString();
        return false;
    }
    m_sweepTimer.start();
    return true;
}

quint16 SimServer::port() const
{
    return m_tcp ? m_tcp->serverPort() : 0;
}

void SimServer::shutdown()
{
    m_stepTimer.stop();
    m_sweepTimer.stop();
    if (m_tcp)
        m_tcp->close();
    const auto conns = m_connections;
    for (Connection *c : conns) {
        c->socket->disconnect(this);
        c->socket->abort();
        c->socket->deleteLater();
    }
    m_connections.clear();
    m_streams.clear();
}

void SimServer::onNewConnections()
{
    while (QTcpSocket *s = m_tcp->nextPendingConnection()) {
        s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        auto *c = new Connection(s, m_config.server);
        if (m_tls)
            c->tls = std::make_unique<SimTlsSession>(*m_tls);
        c->lastActivityNs = monotonicNs();
        m_connections.insert(s, c);
        ++m_connectionsTotal;
        connect(s, &QTcpSocket::readyRead, this, [this, c] { onReadyRead(c); });
        connect(s, &QTcpSocket::disconnected, this, [this, c] { onDisconnected(c); });
    }
}

void SimServer::onReadyRead(Connection *c)
{
    QByteArray bytes = c->socket->readAll();
    c->lastActivityNs = monotonicNs();
    if (c->tls) {
        QByteArray plain;
        m_tlsOut.resize(0);
        const bool alive = c->tls->receive(bytes, &plain, &m_tlsOut);
        if (c->tls->takeHandshakeDone()) {
            ++m_tlsHandshakes;
            m_tlsResumed += c->tls->resumed();
        }
        if (!m_tlsOut.isEmpty())
            transmit(c, m_tlsOut);
        if (!alive) { // a failed handshake, a broken record, or the client's close_notify
            c->closing = true;
            c->socket->disconnectFromHost();
            return;
        }
        bytes = std::move(plain);
    }
    c->parser.feed(bytes);
    processRequests(c);
}

// Every byte of a response goes to the socket through here: as it is, or as TLS records.
void SimServer::send(Connection *c, const QByteArray &bytes)
{
    if (!c->tls) {
        transmit(c, bytes);
        return;
    }
    m_tlsOut.resize(0);
    c->tls->send(bytes, &m_tlsOut);
    transmit(c, m_tlsOut);
}

// Bytes go to the kernel now, as far as it takes them; only a rest waits, after what already
// waits, in the socket's buffer for Qt to send when it is writable. Writing through the buffer
// instead made every event a copy and two changes of the socket's write notifier, which the
// simulator paid at 1,024 streams as much as the send itself (docs/simulator.md).
void SimServer::transmit(Connection *c, const QByteArray &bytes)
{
    const char *data = bytes.constData();
    qsizetype size = bytes.size();
    if (c->socket->bytesToWrite() == 0 && size > 0) {
        const ssize_t sent
            = ::send(int(c->socket->socketDescriptor()), data, size_t(size), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent == size)
            return;
        if (sent > 0) {
            data += sent;
            size -= sent;
        }
        // EAGAIN: all of it waits. A broken connection: Qt's own write finds the error and says so.
    }
    c->socket->write(data, size);
}

// A clean close after what was written: close_notify first on HTTPS, then the FIN.
void SimServer::closeGracefully(Connection *c)
{
    if (c->tls) {
        m_tlsOut.resize(0);
        c->tls->close(&m_tlsOut);
        transmit(c, m_tlsOut);
    }
    c->socket->disconnectFromHost();
}

void SimServer::onDisconnected(Connection *c)
{
    // A client that goes away mid-stream frees its slot (and KV blocks) at once.
    if (c->stream) {
        m_engine.abort(c->stream->id());
        m_streams.remove(c->stream->id());
        c->stream.reset();
        ++m_disconnects;
    }
    c->closing = true;
    if (m_connections.remove(c->socket))
        c->socket->deleteLater();
}

void SimServer::processRequests(Connection *c)
{
    while (!c->busy && !c->closing) {
        HttpRequest request;
        const auto state = c->parser.next(&request);
        if (state == HttpRequestParser::State::NeedMore)
            return;
        c->busy = true;
        if (state == HttpRequestParser::State::Error) {
            c->keepAlive = false;
            sendError(c, c->parser.errorStatus(), "BadRequestError", QString::fromLatin1(c->parser.errorMessage()));
            return;
        }
        c->keepAlive = request.keepAlive;
        route(c, request);
    }
}

static const char *reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    default:
        return "Error";
    }
}

void SimServer::sendResponse(Connection *c, int status, const QByteArray &contentType, const QByteArray &body,
    const QByteArray &extraHeaders, qint64 declaredLength)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status)
        + "\r\nserver: servescope-sim\r\ncontent-type: " + contentType + "\r\ncontent-length: "
        + QByteArray::number(declaredLength >= 0 ? declaredLength : body.size()) + "\r\n" + extraHeaders;
    if (declaredLength >= 0)
        c->keepAlive = false; // the framing is lost: close after the body
    if (!c->keepAlive)
        head += "connection: close\r\n";
    writeRaw(c, head + "\r\n" + body);
    completeResponse(c);
}

void SimServer::sendJson(Connection *c, int status, const QByteArray &json, const QByteArray &extraHeaders)
{
    sendResponse(c, status, "application/json", json, extraHeaders);
}

void SimServer::sendError(Connection *c, int status, const QByteArray &type, const QString &message)
{
    sendJson(c, status, errorBody(ApiError { status, type, message, QString() }));
}

void SimServer::writeRaw(Connection *c, const QByteArray &bytes)
{
    if (c->stalled) {
        c->held.append(bytes);
        return;
    }
    send(c, bytes);
}

void SimServer::writeChunk(Connection *c, const QByteArray &payload)
{
    m_frame.resize(0);
    m_frame.append(QByteArray::number(payload.size(), 16));
    m_frame.append("\r\n", 2);
    m_frame.append(payload);
    m_frame.append("\r\n", 2);
    writeRaw(c, m_frame);
}

void SimServer::writeBody(Connection *c, const QByteArray &payload)
{
    if (c->rawBody)
        writeRaw(c, payload);
    else
        writeChunk(c, payload);
}

void SimServer::completeResponse(Connection *c)
{
    if (c->stalled) {
        c->completeAfterStall = true;
        return;
    }
    if (c->stream) {
        m_streams.remove(c->stream->id());
        c->stream.reset();
    }
    c->busy = false;
    c->lastActivityNs = monotonicNs();
    if (!c->keepAlive) {
        c->closing = true;
        closeGracefully(c);
        return;
    }
    if (c->parser.hasBufferedBytes()) // pipelined requests wait for the previous response
        QMetaObject::invokeMethod(
            this,
            [this, s = c->socket] {
                if (Connection *conn = m_connections.value(s))
                    processRequests(conn);
            },
            Qt::QueuedConnection);
}

void SimServer::dropStream(Connection *c)
{
    if (c->stream) {
        m_engine.abort(c->stream->id());
        m_streams.remove(c->stream->id());
        c->stream.reset();
    }
    c->closing = true;
    // What was written so far reaches the client before the connection goes: abort() alone drops
    // Qt's write buffer, so under load the client could see no response at all.
    c->socket->flush();
    c->socket->abort();
}

void SimServer::closeStream(Connection *c)
{
    // A clean close (FIN after what was written), as a server or proxy that ends the stream early.
    if (c->stalled)
        endStall(c);
    if (c->stream) {
        m_engine.abort(c->stream->id());
        m_streams.remove(c->stream->id());
        c->stream.reset();
    }
    c->closing = true;
    closeGracefully(c);
}

void SimServer::writeHugeEvent(Connection *c)
{
    static const QByteArray piece(1 << 20, 'x');
    const QByteArray head = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"";
    const QByteArray tail = "\"},\"finish_reason\":null}]}\n\n";
    const qint64 size = m_config.misbehaviour.hugeEventBytes;
    if (!c->rawBody)
        writeRaw(c, QByteArray::number(head.size() + size + tail.size(), 16) + "\r\n");
    writeRaw(c, head);
    for (qint64 left = size; left > 0; left -= piece.size())
        writeRaw(c, left >= piece.size() ? piece : piece.left(left));
    writeRaw(c, c->rawBody ? tail : tail + "\r\n");
}

void SimServer::startStall(Connection *c, int ms)
{
    c->stalled = true;
    QTimer::singleShot(ms, this, [this, s = c->socket] {
        if (Connection *conn = m_connections.value(s))
            endStall(conn);
    });
}

void SimServer::endStall(Connection *c)
{
    c->stalled = false;
    if (!c->held.isEmpty()) {
        send(c, c->held);
        c->held.clear();
    }
    if (c->completeAfterStall) {
        c->completeAfterStall = false;
        completeResponse(c);
    }
}

void SimServer::sweepIdle()
{
    const qint64 now = monotonicNs();
    const qint64 limit = qint64(m_config.server.keepAliveSeconds * 1e9);
    const auto conns = m_connections;
    for (Connection *c : conns) {
        if (!c->busy && !c->closing && now - c->lastActivityNs > limit) {
            c->closing = true;
            closeGracefully(c);
        }
    }
}

void SimServer::kick()
{
    if (m_stepPending || m_kickQueued)
        return;
    // Queued, so that requests arriving in the same event-loop turn join the same first step.
    m_kickQueued = true;
    QMetaObject::invokeMethod(this, &SimServer::onStep, Qt::QueuedConnection);
}

void SimServer::onStep()
{
    m_kickQueued = false;
    const qint64 now = monotonicNs();
    qint64 base = now;
    if (m_stepPending) {
        m_stepPending = false;
        m_lag.add(double(std::max<qint64>(0, now - m_deadline)) / 1e9);
        base = m_deadline;
        // The result of the step that just ended is still the engine's current one.
        deliver(m_engine.lastResult());
    }
    const StepResult &r = m_engine.step();
    if (r.idle)
        return;
    for (const Emission &em : r.admissions) { // Anthropic's message_start leaves when the request starts
        Connection *c = m_streams.value(em.id);
        if (!c || !c->stream || !c->stream->request().stream)
            continue;
        m_out.resize(0);
        c->stream->setCachedTokens(em.cachedTokens);
        c->stream->appendHead(m_out);
        if (!m_out.isEmpty())
            writeBody(c, m_out);
    }
    m_log.onStep(r, m_engine, now);
    const qint64 duration = qint64(r.seconds * 1e9 / m_config.server.timeScale);
    m_deadline = base + duration;
    if (m_deadline < now - 100'000'000) // more than 100 ms behind: start again rather than burst
        m_deadline = now + duration;
    m_gpu.addStep(m_deadline - duration, r);
    m_stepPending = true;
    const qint64 waitNs = m_deadline - monotonicNs();
    m_stepTimer.start(int(std::max<qint64>(0, (waitNs + 999'999) / 1'000'000)));
}

void SimServer::deliver(const StepResult &result)
{
    const int stallMs = m_config.faults.stallMs;
    const int firstDelayMs = m_config.misbehaviour.firstEventDelayMs;
    for (const Emission &em : result.emissions) {
        Connection *c = m_streams.value(em.id);
        if (!c || !c->stream)
            continue;
        SimStream &s = *c->stream;
        if (s.request().stream && s.faults.closeAt >= 0 && s.generated() >= s.faults.closeAt) {
            ++m_disconnects;
            closeStream(c);
            continue;
        }
        if (firstDelayMs > 0 && !c->stalled && s.generated() == 0 && s.request().stream)
            startStall(c, firstDelayMs);
        if (m_config.misbehaviour.hugeEventBytes > 0 && s.generated() == 0 && s.request().stream)
            writeHugeEvent(c);
        if (stallMs > 0 && !c->stalled && s.faults.stallAt == s.generated()) {
            s.faults.stallAt = -1;
            startStall(c, stallMs);
        }
        m_out.resize(0);
        s.setCachedTokens(em.cachedTokens);
        s.appendTokens(m_out, em.tokens, em.finished);
        if (s.request().stream) {
            if (!m_out.isEmpty()) {
                ++m_events;
                writeBody(c, m_out);
            }
            if (s.faults.disconnectAfter >= 0 && s.generated() > s.faults.disconnectAfter) {
                ++m_disconnects;
                dropStream(c);
                continue;
            }
            if (em.finished) {
                if (!c->rawBody)
                    writeRaw(c, QByteArrayLiteral("0\r\n\r\n"));
                completeResponse(c);
            }
        } else if (em.finished) {
            sendResponse(c, 200, "application/json", s.fullResponse(), QByteArray(),
                m_config.misbehaviour.wrongContentLength ? 256 : -1);
        }
    }
}

} // namespace ServeScope::Sim
