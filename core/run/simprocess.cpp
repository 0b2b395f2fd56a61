// SPDX-License-Identifier: MIT
#include "simprocess.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFileInfo>
#include <QJsonValue>
#include <QLocale>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>

#include <csignal>
#include <sys/prctl.h>

namespace ServeScope {

namespace {

constexpr char kKeyVariable[] = "SERVESCOPE_SIM_API_KEY";

/// The same setting under vLLM's and SGLang's names: the simulator takes its flavour's.
constexpr std::pair<const char *, const char *> kVllmSglang[] = { { "max_num_seqs", "max_running_requests" },
    { "max_num_batched_tokens", "chunked_prefill_size" }, { "max_model_len", "context_length" },
    { "block_size", "page_size" }, { "gpu_memory_utilization", "mem_fraction_static" } };

QString flavourName(const QString &name, bool sglang)
{
    for (const auto &[vllm, sgl] : kVllmSglang) {
        if (name == QLatin1String(sglang ? vllm : sgl))
            return QLatin1String(sglang ? sgl : vllm);
    }
    return name;
}

} // namespace

SimProcess::SimProcess() = default;

SimProcess::~SimProcess()
{
    stop();
}

QStringList SimProcess::flagsFor(const OrderedValues &serverArgs, bool sglang)
{
    QStringList flags;
    if (sglang)
        flags << QStringLiteral("--flavor") << QStringLiteral("sglang");
    for (const auto &[name, value] : serverArgs.items()) {
        if (sglang && name == QLatin1String("enable_prefix_caching") && value.isBool()) {
            // SGLang caches prefixes unless told not to.
            if (!value.toBool())
                flags << QStringLiteral("--disable-radix-cache");
            continue;
        }
        const QString flag
            = QLatin1String("--") + flavourName(name, sglang).replace(QLatin1Char('_'), QLatin1Char('-'));
        if (value.isBool()) {
            if (value.toBool())
                flags << flag;
        } else if (value.isDouble()) {
            const double d = value.toDouble();
            flags << flag
                  << (d == qint64(d) ? QString::number(qint64(d))
                                     : QString::number(d, 'g', QLocale::FloatingPointShortest));
        } else if (value.isString()) {
            flags << flag << value.toString();
        }
    }
    return flags;
}

namespace {
// The child gets what a process needs to start and format numbers, plus its own key: never the
// user's other variables (API keys among them).
QProcessEnvironment childEnvironment(const QByteArray &key)
{
    static const char *const kPassed[]
        = { "PATH", "HOME", "TMPDIR", "LD_LIBRARY_PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "TZ" };
    const QProcessEnvironment system = QProcessEnvironment::systemEnvironment();
    QProcessEnvironment env;
    for (const char *name : kPassed) {
        const QString n = QString::fromLatin1(name);
        if (system.contains(n))
            env.insert(n, system.value(n));
    }
    env.insert(QString::fromLatin1(kKeyVariable), QString::fromLatin1(key));
    return env;
}
} // namespace

QString SimProcess::defaultProgram()
{
    const QString dir = QCoreApplication::applicationDirPath();
    const QStringList candidates { dir + QLatin1String("/servescope-cli"), dir + QLatin1String("/../servescope-cli") };
    for (const QString &candidate : candidates) {
        if (QFileInfo(candidate).isExecutable())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return QStringLiteral("servescope-cli");
}

bool SimProcess::start(const QString &program, const OrderedValues &serverArgs, bool sglang, const QString &model,
    double timeScale, int timeoutMs)
{
    stop();
    m_key = QByteArrayLiteral("sim-") + QByteArray::number(QRandomGenerator::system()->generate64(), 16);
    m_arguments = QStringList { QStringLiteral("sim"), QStringLiteral("--port"), QStringLiteral("0"),
        QStringLiteral("--api-key-env"), QString::fromLatin1(kKeyVariable) };
    if (!model.isEmpty())
        m_arguments << QStringLiteral("--model") << model;
    if (timeScale > 0 && timeScale != 1.0)
        m_arguments << QStringLiteral("--time-scale") << QString::number(timeScale, 'g', 17);
    m_arguments << flagsFor(serverArgs, sglang);

    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(childEnvironment(m_key));
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    // The simulator must not outlive us, even when we are killed.
    m_process->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    m_process->start(program, m_arguments);
    if (!m_process->waitForStarted(timeoutMs)) {
        m_error = QStringLiteral("cannot start %1: %2").arg(program, m_process->errorString());
        return false;
    }
    QDeadlineTimer deadline(timeoutMs);
    QByteArray line;
    while (!deadline.hasExpired()) {
        if (!m_process->canReadLine() && !m_process->waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())))) {
            if (m_process->state() != QProcess::Running)
                break;
            continue;
        }
        line = m_process->readLine().trimmed();
        if (line.startsWith("listening ")) {
            m_baseUrl = QUrl(QString::fromLatin1(line.mid(10)));
            return m_baseUrl.isValid();
        }
    }
    m_error = QStringLiteral("the simulator did not start listening: %1")
                  .arg(QString::fromUtf8(m_process->readAllStandardError()).trimmed().left(500));
    stop();
    return false;
}

void SimProcess::stop()
{
    if (!m_process)
        return;
    if (m_process->state() != QProcess::NotRunning) {
        m_process->terminate();
        if (!m_process->waitForFinished(3000)) {
            m_process->kill();
            m_process->waitForFinished(1000);
        }
    }
    m_process.reset();
}

} // namespace ServeScope
