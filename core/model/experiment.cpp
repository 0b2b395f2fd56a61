// SPDX-License-Identifier: MIT
#include "experiment.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ServeScope {

namespace {

template<typename E, size_t N> QString nameOf(const std::array<const char *, N> &names, E e)
{
    return QString::fromLatin1(names[size_t(e)]);
}

template<typename E, size_t N> bool parseName(const std::array<const char *, N> &names, QStringView s, E *out)
{
    for (size_t i = 0; i < N; ++i) {
        if (s == QLatin1String(names[i])) {
            *out = E(i);
            return true;
        }
    }
    return false;
}

constexpr std::array<const char *, 3> kDialects = { "vllm", "sglang", "openai-strict" };
constexpr std::array<const char *, 5> kApis = { "chat", "completions", "responses", "messages", "sglang-generate" };
constexpr std::array<const char *, 5> kApiPaths
    = { "/v1/chat/completions", "/v1/completions", "/v1/responses", "/v1/messages", "/generate" };
constexpr std::array<const char *, 2> kProtocols = { "http1", "http2" };
constexpr std::array<const char *, 3> kSources = { "typed", "captured", "probe" };
constexpr std::array<const char *, 2> kModes = { "concurrency", "rate" };
constexpr std::array<const char *, 2> kDefinitions = { "vllm", "sglang" };

} // namespace

QString dialectName(Dialect d)
{
    return nameOf(kDialects, d);
}
bool parseDialect(QStringView s, Dialect *out)
{
    return parseName(kDialects, s, out);
}
QString apiName(Api a)
{
    return nameOf(kApis, a);
}
bool parseApi(QStringView s, Api *out)
{
    return parseName(kApis, s, out);
}
Api apiForPath(QStringView path)
{
    while (path.endsWith(u'/'))
        path.chop(1);
    if (path.endsWith(u"/chat/completions"))
        return Api::Chat;
    if (path.endsWith(u"/completions"))
        return Api::Completions;
    if (path.endsWith(u"/responses"))
        return Api::Responses;
    if (path.endsWith(u"/messages"))
        return Api::Messages;
    if (path.endsWith(u"/generate"))
        return Api::SglangGenerate;
    return Api::Chat;
}
QString defaultPath(Api a)
{
    return nameOf(kApiPaths, a);
}
QString pathWithApi(const QString &path, Api a)
{
    const QString own = defaultPath(apiForPath(path));
    QString prefix = path.endsWith(own) ? path.chopped(own.size()) : QString();
    return prefix + defaultPath(a);
}
QString protocolName(HttpProtocol p)
{
    return nameOf(kProtocols, p);
}
bool parseProtocol(QStringView s, HttpProtocol *out)
{
    return parseName(kProtocols, s, out);
}
QString envSourceName(EnvSource s)
{
    return nameOf(kSources, s);
}
bool parseEnvSource(QStringView s, EnvSource *out)
{
    return parseName(kSources, s, out);
}
QString loadModeName(LoadMode m)
{
    return nameOf(kModes, m);
}
bool parseLoadMode(QStringView s, LoadMode *out)
{
    return parseName(kModes, s, out);
}
QString definitionsName(Definitions d)
{
    return nameOf(kDefinitions, d);
}
bool parseDefinitions(QStringView s, Definitions *out)
{
    return parseName(kDefinitions, s, out);
}

bool Endpoint::isLocalSimulator() const
{
    return baseUrl.startsWith(QLatin1String(kSimulatorBaseUrl));
}

QList<LoadPoint> ConcurrencyGradient::expand() const
{
    QList<LoadPoint> out;
    out.reserve(levels.size());
    for (int level : levels) {
        LoadPoint p;
        p.concurrency = level;
        p.inputLen = inputLen;
        p.outputLen = outputLen;
        const qint64 scaled = qint64(promptsPerConcurrency) * level;
        p.numPrompts = int(std::min<qint64>(std::max<qint64>(numPrompts, scaled), std::numeric_limits<int>::max()));
        p.maxSeconds = maxSeconds;
        out << p;
    }
    return out;
}

QString Slo::key() const
{
    return QLatin1Char('p') + formatNumber(percentile) + u'_' + metric + QStringLiteral("_ms");
}

bool parseSloKey(QStringView key, Slo *out)
{
    static const QRegularExpression re(QStringLiteral("^p([0-9]+(?:\\.[0-9]+)?)_(ttft|ttfo|tpot|itl|e2el)_ms$"));
    const QRegularExpressionMatch m = re.match(key.toString());
    if (!m.hasMatch())
        return false;
    const double percentile = m.captured(1).toDouble();
    if (!(percentile > 0 && percentile < 100))
        return false;
    out->percentile = percentile;
    out->metric = m.captured(2);
    return true;
}

LoadPoint CapacitySearch::at(LoadMode mode, double level) const
{
    LoadPoint p = point;
    p.label.clear();
    if (mode == LoadMode::Concurrency) {
        p.concurrency = std::max(1, int(std::lround(level)));
        const qint64 scaled = qint64(promptsPerLevel) * p.concurrency;
        p.numPrompts
            = int(std::min<qint64>(std::max<qint64>(point.numPrompts, scaled), std::numeric_limits<int>::max()));
    } else {
        p.requestRate = level;
    }
    return p;
}

bool LoadMatrix::pointsFromGradient() const
{
    return !gradient.isEmpty() && mode == LoadMode::Concurrency && points == gradient.expand();
}

bool LoadMatrix::operator==(const LoadMatrix &o) const
{
    return mode == o.mode && points == o.points && capacity == o.capacity && warmupRequests == o.warmupRequests
        && discardRatio == o.discardRatio && repeat == o.repeat && timeouts == o.timeouts
        && resetPrefixCache == o.resetPrefixCache && maxEventBytes == o.maxEventBytes && settle == o.settle;
}

int Experiment::baselineIndex() const
{
    for (int i = 0; i < variants.size(); ++i) {
        if (variants.at(i).baseline)
            return i;
    }
    return variants.isEmpty() ? -1 : 0;
}

int Experiment::variantIndex(const QString &name) const
{
    for (int i = 0; i < variants.size(); ++i) {
        if (variants.at(i).name == name)
            return i;
    }
    return -1;
}

QString Experiment::pointLabel(int index) const
{
    if (index < 0 || index >= load.points.size())
        return QString();
    const LoadPoint &p = load.points.at(index);
    if (!p.label.isEmpty())
        return sanitizeName(p.label);
    if (load.mode == LoadMode::Concurrency)
        return QLatin1Char('c') + QString::number(p.concurrency);
    return sanitizeName(QLatin1Char('r') + formatNumber(p.requestRate));
}

QString sanitizeName(const QString &name)
{
    QString out;
    out.reserve(name.size());
    for (QChar c : name) {
        const ushort u = c.unicode();
        const bool ok = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '.'
            || u == '_' || u == '-';
        out += ok ? c : QLatin1Char('_');
    }
    if (out.isEmpty() || out == QLatin1String(".") || out == QLatin1String(".."))
        return QStringLiteral("_");
    return out;
}

QString formatNumber(double v)
{
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    if (std::isnan(v))
        return QStringLiteral("nan");
    return QString::number(v, 'g', 15);
}

} // namespace ServeScope
