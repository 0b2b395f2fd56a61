// SPDX-License-Identifier: MIT
// What the OS says about a process (ours or a child) from /proc: CPU per thread, resident memory,
// threads and descriptors. Used by the engine benchmark; Linux only.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QList>
#include <QString>

#include <algorithm>
#include <unistd.h>
#include <vector>

namespace ServeScope::Testing {

/// CPU seconds (user + system) and name of one thread.
struct ThreadCpu {
    qint64 tid = 0;
    QByteArray name;
    double seconds = 0;
    qint64 sleeps = 0; ///< voluntary context switches: times the thread went to sleep
};

/// user + system seconds of a /proc/.../stat line (fields 14 and 15, counted after the comm).
inline double statCpuSeconds(const QByteArray &stat)
{
    const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 12 ? (fields[11].toDouble() + fields[12].toDouble()) / double(sysconf(_SC_CLK_TCK)) : 0;
}

inline QByteArray readProc(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Every live thread of `pid` with its name and CPU so far (0: this process).
inline std::vector<ThreadCpu> threadCpu(qint64 pid = 0)
{
    const QString base = pid > 0 ? QStringLiteral("/proc/%1/task").arg(pid) : QStringLiteral("/proc/self/task");
    std::vector<ThreadCpu> out;
    for (const QString &tid : QDir(base).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QByteArray stat = readProc(base + QLatin1Char('/') + tid + QStringLiteral("/stat"));
        const qsizetype open = stat.indexOf('('), close = stat.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        qint64 sleeps = 0;
        const QByteArray status = readProc(base + QLatin1Char('/') + tid + QStringLiteral("/status"));
        const qsizetype at = status.indexOf("\nvoluntary_ctxt_switches:");
        if (at >= 0)
            sleeps = status.mid(at + 26, status.indexOf('\n', at + 1) - at - 26).trimmed().toLongLong();
        out.push_back({ tid.toLongLong(), stat.mid(open + 1, close - open - 1), statCpuSeconds(stat), sleeps });
    }
    return out;
}

/// Sleeps (voluntary context switches) of the threads whose name starts with `prefix`.
inline qint64 sleepsOfThreads(const std::vector<ThreadCpu> &threads, const QByteArray &prefix)
{
    qint64 n = 0;
    for (const ThreadCpu &t : threads)
        n += t.name.startsWith(prefix) ? t.sleeps : 0;
    return n;
}

/// CPU of the threads whose name starts with `prefix`.
inline double cpuOfThreads(const std::vector<ThreadCpu> &threads, const QByteArray &prefix)
{
    double s = 0;
    for (const ThreadCpu &t : threads)
        s += t.name.startsWith(prefix) ? t.seconds : 0;
    return s;
}

/// CPU and sleeps the threads named `prefix`* spent between two samples, thread by thread: a thread
/// that ended between them (an earlier section's) must not subtract its whole life from the sum.
struct ThreadDelta {
    double seconds = 0;
    qint64 sleeps = 0;
};
inline ThreadDelta deltaOfThreads(
    const std::vector<ThreadCpu> &before, const std::vector<ThreadCpu> &after, const QByteArray &prefix)
{
    ThreadDelta d;
    for (const ThreadCpu &t : after) {
        if (!t.name.startsWith(prefix))
            continue;
        const auto was
            = std::find_if(before.cbegin(), before.cend(), [&t](const ThreadCpu &b) { return b.tid == t.tid; });
        d.seconds += t.seconds - (was != before.cend() ? was->seconds : 0);
        d.sleeps += t.sleeps - (was != before.cend() ? was->sleeps : 0);
    }
    return d;
}

inline double processCpuSeconds(qint64 pid = 0)
{
    return statCpuSeconds(
        readProc(pid > 0 ? QStringLiteral("/proc/%1/stat").arg(pid) : QStringLiteral("/proc/self/stat")));
}

/// A `Name: value` field of /proc/.../status as a number (kB figures stay in kB).
inline qint64 statusField(const char *name, qint64 pid = 0)
{
    const QByteArray status
        = readProc(pid > 0 ? QStringLiteral("/proc/%1/status").arg(pid) : QStringLiteral("/proc/self/status"));
    const QByteArray key = QByteArray(name) + ':';
    for (const QByteArray &line : status.split('\n'))
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

inline int descriptorCount(qint64 pid = 0)
{
    const QString dir = pid > 0 ? QStringLiteral("/proc/%1/fd").arg(pid) : QStringLiteral("/proc/self/fd");
    return int(QDir(dir).entryList(QDir::NoDotAndDotDot | QDir::System).size());
}

/// numpy's linear percentile of `v` (sorted in place).
template<typename T> double percentile(std::vector<T> &v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double h = (double(v.size()) - 1) * p / 100.0;
    const size_t i = size_t(h);
    const double a = double(v[i]), b = double(v[std::min(i + 1, v.size() - 1)]);
    return a + (b - a) * (h - double(i));
}

} // namespace ServeScope::Testing
