// SPDX-License-Identifier: MIT
#pragma once

#include "sim/enginemodel.h"
#include "sim/simconfig.h"

#include <QObject>
#include <QString>

#include <deque>

class QTcpServer;

namespace ServeScope::Sim {

/// What the simulated GPU did over the latest second, from the roofline of each step: busy share
/// (GPU utilisation), memory-time share (DRAM active) and FLOP-time share (SM active) of wall time.
class GpuActivity {
public:
    GpuActivity(const ModelParams &model, double timeScale);
    /// A step that runs from `startNs` (monotonic wall time) for its model seconds / time scale.
    void addStep(qint64 startNs, const StepResult &step);

    struct Sample {
        double util = 0; ///< percent, 0..100
        double dramActive = 0; ///< ratio, 0..1
        double smActive = 0; ///< ratio, 0..1
        double powerW = 0;
    };
    /// The shares over [nowNs - windowNs, nowNs]; power is idle plus the busiest unit's share of the rest.
    Sample over(qint64 nowNs, qint64 windowNs = 1'000'000'000) const;

    static constexpr double kIdleWatts = 60.0;
    static constexpr double kMaxWatts = 400.0;

private:
    struct Step {
        qint64 startNs, endNs;
        double memoryShare, computeShare;
    };
    ModelParams m_model;
    double m_timeScale;
    std::deque<Step> m_steps;
};

/// `sim --dcgm-port`: a DCGM-exporter-style `GET /metrics` on its own port, one GPU (`gpu="0"`), with
/// DCGM_FI_DEV_GPU_UTIL, DCGM_FI_PROF_DRAM_ACTIVE, DCGM_FI_PROF_SM_ACTIVE and DCGM_FI_DEV_POWER_USAGE
/// from GpuActivity. One answer per connection, then it closes.
class DcgmExporter final : public QObject {
    Q_OBJECT
public:
    DcgmExporter(const GpuActivity &activity, const QString &gpuName, QObject *parent = nullptr);

    bool listen(const QString &host, quint16 port, QString *error);
    quint16 port() const;
    QByteArray metricsText() const;

private:
    void onConnection();

    const GpuActivity &m_activity;
    QString m_gpuName;
    QTcpServer *m_tcp = nullptr;
};

} // namespace ServeScope::Sim
