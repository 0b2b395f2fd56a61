// SPDX-License-Identifier: MIT
#include "sim/dcgmexporter.h"

#include "model/clock.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

#include <algorithm>
#include <cmath>

namespace ServeScope::Sim {

GpuActivity::GpuActivity(const ModelParams &model, double timeScale)
    : m_model(model)
    , m_timeScale(timeScale > 0 ? timeScale : 1.0)
{
}

void GpuActivity::addStep(qint64 startNs, const StepResult &step)
{
    if (step.idle || step.seconds <= 0)
        return;
    const double memory = (m_model.weightBytes + step.sumContext * m_model.kvBytesPerToken) / m_model.memoryBandwidth;
    const double compute = 2.0 * m_model.activeParams * step.scheduledTokens / m_model.peakFlops;
    const qint64 endNs = startNs + qint64(step.seconds * 1e9 / m_timeScale);
    m_steps.push_back({ startNs, endNs, std::min(1.0, memory / step.seconds), std::min(1.0, compute / step.seconds) });
    // Two seconds is all a scrape window reads.
    while (!m_steps.empty() && m_steps.front().endNs < startNs - 2'000'000'000)
        m_steps.pop_front();
}

GpuActivity::Sample GpuActivity::over(qint64 nowNs, qint64 windowNs) const
{
    const qint64 from = nowNs - windowNs;
    double busy = 0, memory = 0, compute = 0;
    for (const Step &s : m_steps) {
        const double overlap = double(std::max<qint64>(0, std::min(s.endNs, nowNs) - std::max(s.startNs, from)));
        busy += overlap;
        memory += overlap * s.memoryShare;
        compute += overlap * s.computeShare;
    }
    Sample out;
    const double w = double(std::max<qint64>(1, windowNs));
    out.util = std::min(100.0, 100.0 * busy / w);
    out.dramActive = std::min(1.0, memory / w);
    out.smActive = std::min(1.0, compute / w);
    out.powerW = kIdleWatts + (kMaxWatts - kIdleWatts) * std::max(out.dramActive, out.smActive);
    return out;
}

DcgmExporter::DcgmExporter(const GpuActivity &activity, const QString &gpuName, QObject *parent)
    : QObject(parent)
    , m_activity(activity)
    , m_gpuName(gpuName)
{
}

bool DcgmExporter::listen(const QString &host, quint16 port, QString *error)
{
    m_tcp = new QTcpServer(this);
    connect(m_tcp, &QTcpServer::newConnection, this, &DcgmExporter::onConnection);
    QHostAddress address;
    if (!address.setAddress(host))
        address = QHostAddress(QHostAddress::LocalHost);
    if (!m_tcp->listen(address, port)) {
        *error = m_tcp->errorString();
        return false;
    }
    return true;
}

quint16 DcgmExporter::port() const
{
    return m_tcp ? m_tcp->serverPort() : 0;
}

QByteArray DcgmExporter::metricsText() const
{
    const GpuActivity::Sample s = m_activity.over(monotonicNs());
    const QByteArray labels = "{gpu=\"0\",UUID=\"GPU-00000000-servescope-sim\",device=\"nvidia0\",modelName=\""
        + m_gpuName.toUtf8() + "\",Hostname=\"servescope-sim\"}";
    QByteArray out;
    auto gauge = [&](const char *name, const char *help, const QByteArray &value) {
        out += QByteArray("# HELP ") + name + ' ' + help + "\n# TYPE " + name + " gauge\n" + name + labels + ' ' + value
            + '\n';
    };
    gauge("DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", QByteArray::number(qint64(std::lround(s.util))));
    gauge("DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", QByteArray::number(s.powerW, 'f', 3));
    gauge("DCGM_FI_PROF_SM_ACTIVE", "The ratio of cycles an SM has at least 1 warp assigned (in %).",
        QByteArray::number(s.smActive, 'f', 6));
    gauge("DCGM_FI_PROF_DRAM_ACTIVE",
        "Ratio of cycles the device memory interface is active sending or receiving data (in %).",
        QByteArray::number(s.dramActive, 'f', 6));
    return out;
}

void DcgmExporter::onConnection()
{
    while (QTcpSocket *socket = m_tcp->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
            const QByteArray head = socket->property("head").toByteArray() + socket->readAll();
            if (!head.contains("\r\n\r\n")) {
                if (head.size() > 16384)
                    socket->abort();
                else
                    socket->setProperty("head", head);
                return;
            }
            const bool metrics = head.startsWith("GET /metrics ") || head.startsWith("GET /metrics?");
            const QByteArray body = metrics ? metricsText() : QByteArrayLiteral("404 page not found\n");
            socket->write(QByteArray(metrics ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n")
                + "content-type: text/plain; version=0.0.4; charset=utf-8\r\ncontent-length: "
                + QByteArray::number(body.size()) + "\r\nconnection: close\r\n\r\n" + body);
            socket->disconnectFromHost();
        });
    }
}

} // namespace ServeScope::Sim
