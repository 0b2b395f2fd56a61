// SPDX-License-Identifier: MIT
#include "trace.h"

#include "metrics/numpystats.h"
#include "model/clock.h"

#include <QDate>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <unordered_set>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Dataset";
constexpr int kMaxTokens = 10000000;

Reason why(const char *source, const QStringList &args = {})
{
    return Reason::in(kCtx, source, args);
}

QString lineArg(int line)
{
    return QString::number(line);
}

// "2023-11-16 18:15:46.6805900" (the Azure traces' form; a 'T' is read as the space): µs since the epoch.
std::optional<qint64> azureMicros(QByteArrayView s)
{
    s = s.trimmed();
    if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':')
        return std::nullopt;
    const auto digits = [&](int from, int n) -> int {
        int v = 0;
        for (int i = from; i < from + n; ++i) {
            if (s[i] < '0' || s[i] > '9')
                return -1;
            v = v * 10 + (s[i] - '0');
        }
        return v;
    };
    const QDate date(digits(0, 4), digits(5, 2), digits(8, 2));
    const int h = digits(11, 2), m = digits(14, 2), sec = digits(17, 2);
    if (!date.isValid() || h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 60)
        return std::nullopt;
    qint64 micros = 0;
    qsizetype i = 19;
    if (i < s.size()) {
        if (s[i] != '.')
            return std::nullopt;
        qint64 scale = 100000;
        for (++i; i < s.size(); ++i) {
            if (s[i] < '0' || s[i] > '9')
                return std::nullopt;
            micros += (s[i] - '0') * scale;
            scale /= 10;
        }
    }
    return ((date.toJulianDay() * 24 + h) * 60 + m) * 60'000'000LL + sec * 1'000'000LL + micros;
}

struct Reader {
    Trace *out = nullptr;
    qsizetype maxRows = 0;
    Reason *error = nullptr;
    qint64 firstUs = 0;
    qint64 lastUs = 0;
    int lastLine = 0; ///< 0 before the first request

    bool fail(const Reason &r)
    {
        *error = r;
        return false;
    }

    // A time in the file's unit as µs, refused when negative or beyond any trace (about 3,000 years).
    bool micros(int line, double value, double usPerUnit, qint64 *us)
    {
        const double v = value * usPerUnit;
        if (!std::isfinite(v) || v < 0 || v > 1e17)
            return fail(
                why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: the timestamp is negative or out of range"),
                    { lineArg(line) }));
        *us = qint64(std::llround(v));
        return true;
    }

    // A request's time and lengths, checked; rows without tokens are counted and left out.
    bool add(int line, qint64 us, double in, double outLen, const std::vector<quint64> &blocks)
    {
        for (const double n : { in, outLen }) {
            if (!std::isfinite(n) || n < 0 || n != std::floor(n))
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                                    "line %1: a length is not a whole number of tokens at least 0"),
                    { lineArg(line) }));
            if (n > kMaxTokens)
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                                    "line %1: a length of %2 tokens is beyond the 10000000 ServeScope sends"),
                    { lineArg(line), QString::number(qint64(n)) }));
        }
        if (lastLine > 0 && us < lastUs)
            return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                                "line %1: the timestamp is earlier than line %2's; a trace must be in time order"),
                { lineArg(line), lineArg(lastLine) }));
        lastUs = us;
        lastLine = line;
        if (in < 1 || outLen < 1) {
            ++out->skipped;
            return true;
        }
        if (out->rows.empty())
            firstUs = us;
        TraceRow row;
        row.atUs = us - firstUs;
        row.inputLen = int(in);
        row.outputLen = int(outLen);
        row.line = line;
        row.firstBlock = quint32(out->blocks.size());
        row.blockCount = quint32(blocks.size());
        out->blocks.insert(out->blocks.end(), blocks.begin(), blocks.end());
        out->rows.push_back(row);
        return true;
    }

    bool mooncake(int line, QByteArrayView bytes)
    {
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(bytes.toByteArray(), &pe);
        if (!doc.isObject())
            return fail(doc.isNull()
                    ? why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: %2"), { lineArg(line), pe.errorString() })
                    : why(
                        QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: must be a JSON object"), { lineArg(line) }));
        const QJsonObject o = doc.object();
        double values[3];
        const char *keys[3] = { "timestamp", "input_length", "output_length" };
        for (int k = 0; k < 3; ++k) {
            const QJsonValue v = o.value(QLatin1String(keys[k]));
            if (!v.isDouble())
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: needs a number \"%2\""),
                    { lineArg(line), QString::fromLatin1(keys[k]) }));
            values[k] = v.toDouble();
        }
        std::vector<quint64> blocks;
        const QJsonValue ids = o.value(QLatin1String("hash_ids"));
        if (!ids.isUndefined() && !ids.isNull()) {
            if (!ids.isArray())
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: \"hash_ids\" must be a list"),
                    { lineArg(line) }));
            const QJsonArray a = ids.toArray();
            blocks.reserve(size_t(a.size()));
            for (const QJsonValue &id : a) {
                const double d = id.toDouble(-1);
                if (!id.isDouble() || d < 0 || d != std::floor(d) || d > 9007199254740991.0)
                    return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                                        "line %1: \"hash_ids\" must hold whole numbers at least 0"),
                        { lineArg(line) }));
                blocks.push_back(quint64(d));
            }
        }
        qint64 us = 0;
        return micros(line, values[0], 1000.0, &us) && add(line, us, values[1], values[2], blocks);
    }

    // The CSV formats: a header naming the columns, then one request per line (no quoted commas in these traces).
    QList<int> columns; // time, input, output
    bool header(int line, QByteArrayView bytes)
    {
        const QList<QByteArray> names = bytes.toByteArray().split(',');
        QList<QByteArray> trimmed;
        for (const QByteArray &n : names)
            trimmed << QByteArray(n.trimmed()).replace('"', "");
        const QList<const char *> wanted = out->format == TraceFormat::Azure
            ? QList<const char *> { "TIMESTAMP", "ContextTokens", "GeneratedTokens" }
            : QList<const char *> { "Timestamp", "Request tokens", "Response tokens" };
        columns.clear();
        for (const char *w : wanted) {
            const qsizetype at = trimmed.indexOf(QByteArray(w));
            if (at < 0)
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: the header has no column \"%2\""),
                    { lineArg(line), QString::fromLatin1(w) }));
            columns << int(at);
        }
        return true;
    }

    bool csvRow(int line, QByteArrayView bytes)
    {
        const QList<QByteArray> cells = bytes.toByteArray().split(',');
        const int need = *std::max_element(columns.begin(), columns.end()) + 1;
        if (cells.size() < need)
            return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: has %2 columns; the header names %3"),
                { lineArg(line), QString::number(cells.size()), QString::number(need) }));
        std::optional<qint64> us = 0;
        if (out->format == TraceFormat::Azure) {
            us = azureMicros(cells.at(columns[0]));
            if (!us)
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                                    "line %1: TIMESTAMP is not a date and time such as 2023-11-16 18:15:46.68"),
                    { lineArg(line) }));
        }
        double values[3];
        for (int k = out->format == TraceFormat::Azure ? 1 : 0; k < 3; ++k) {
            bool ok = false;
            values[k] = cells.at(columns[k]).trimmed().toDouble(&ok);
            if (!ok)
                return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: column %2 is not a number"),
                    { lineArg(line), QString::number(columns[k] + 1) }));
        }
        if (out->format == TraceFormat::BurstGpt && !micros(line, values[0], 1e6, &*us))
            return false;
        return add(line, *us, values[1], values[2], {});
    }

    std::optional<TraceFormat> kind; // as named, else told from the first line
    bool headerRead = false;

    // Told from the first line: a JSON object, or one of the CSV headers.
    bool tellFormat(QByteArrayView bytes)
    {
        if (bytes.startsWith('{'))
            kind = TraceFormat::Mooncake;
        else if (bytes.contains(QByteArrayView("ContextTokens")))
            kind = TraceFormat::Azure;
        else if (bytes.contains(QByteArrayView("Request tokens")))
            kind = TraceFormat::BurstGpt;
        else
            return fail(why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                "is not a trace ServeScope reads: Mooncake JSONL, or a CSV with the Azure trace's or "
                "BurstGPT's header")));
        return true;
    }

    // A line of the file in its format: a JSONL request, or a CSV's header and then its requests.
    bool readLine(int line, QByteArrayView bytes)
    {
        if (*kind == TraceFormat::Mooncake)
            return mooncake(line, bytes);
        if (!headerRead) {
            headerRead = true;
            return header(line, bytes);
        }
        return csvRow(line, bytes);
    }
};

} // namespace

QString traceFormatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::Mooncake:
        return QStringLiteral("mooncake");
    case TraceFormat::Azure:
        return QStringLiteral("azure");
    case TraceFormat::BurstGpt:
        return QStringLiteral("burstgpt");
    }
    return {};
}

std::optional<TraceFormat> traceFormatFromName(const QString &name)
{
    for (const TraceFormat f : { TraceFormat::Mooncake, TraceFormat::Azure, TraceFormat::BurstGpt })
        if (traceFormatName(f) == name)
            return f;
    return std::nullopt;
}

double Trace::durationSeconds() const
{
    return rows.empty() ? 0.0 : double(rows.back().atUs) / 1e6;
}

double Trace::rate() const
{
    const double d = durationSeconds();
    return rows.size() < 2 || d <= 0 ? 0.0 : double(rows.size() - 1) / d;
}

bool readTrace(const QString &path, const QString &format, qsizetype maxRows, Trace *out, Reason *error)
{
    *out = Trace();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "cannot read the trace file: %1"), { f.errorString() });
        return false;
    }
    Reader r;
    r.out = out;
    r.maxRows = qMin(maxRows, kMaxTraceRows);
    r.error = error;
    if (!format.isEmpty()) {
        r.kind = traceFormatFromName(format);
        if (!r.kind) {
            *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                             "the trace format %1 is not one ServeScope reads (mooncake, azure, burstgpt)"),
                { format });
            return false;
        }
    }
    int line = 0;
    // One buffer for every line: readLine(maxSize) would allocate the whole limit for each.
    QByteArray buffer(kMaxTraceLineBytes + 2, Qt::Uninitialized);
    while (!f.atEnd()) {
        const qint64 n = f.readLine(buffer.data(), buffer.size());
        ++line;
        if (n < 0) {
            *error
                = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "cannot read the trace file: %1"), { f.errorString() });
            return false;
        }
        const QByteArrayView raw(buffer.constData(), n);
        if (n > kMaxTraceLineBytes || (!raw.endsWith('\n') && !f.atEnd())) {
            *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "line %1: is longer than 1 MiB"), { lineArg(line) });
            return false;
        }
        const QByteArrayView bytes = raw.trimmed();
        if (bytes.isEmpty())
            continue;
        if (!r.kind && !r.tellFormat(bytes))
            return false;
        out->format = *r.kind;
        if (qsizetype(out->rows.size()) >= r.maxRows) {
            // A request beyond those asked for: the rest of the file is not read.
            if (maxRows < kMaxTraceRows) {
                out->truncated = true;
                return true;
            }
            *error = why(QT_TRANSLATE_NOOP("ServeScope::Dataset",
                             "line %1: the trace has more than %2 requests; replay part of it with num_prompts"),
                { lineArg(line), QString::number(kMaxTraceRows) });
            return false;
        }
        if (!r.readLine(line, bytes))
            return false;
    }
    if (out->rows.empty()) {
        *error = out->skipped > 0
            ? why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "the trace has no request with prompt and output tokens"))
            : why(QT_TRANSLATE_NOOP("ServeScope::Dataset", "the trace has no requests"));
        return false;
    }
    return true;
}

QVector<qint64> traceOffsetsNs(const Trace &trace, int count, double rate)
{
    count = qBound(0, count, int(trace.rows.size()));
    QVector<qint64> out(count, 0);
    if (count < 2 || std::isinf(rate) || !(rate > 0))
        return out;
    const double span = double(trace.rows[size_t(count - 1)].atUs);
    if (span <= 0)
        return out;
    const double scale = (double(count - 1) / rate) * 1e9 / span; // ns per trace µs
    for (int i = 0; i < count; ++i)
        out[i] = scheduleNs(double(trace.rows[size_t(i)].atUs) * scale);
    return out;
}

double traceRepeatedShare(const Trace &trace, int count, int blockSize)
{
    count = qBound(0, count, int(trace.rows.size()));
    std::unordered_set<quint64> seen;
    qint64 tokens = 0, repeated = 0;
    for (int i = 0; i < count; ++i) {
        const TraceRow &row = trace.rows[size_t(i)];
        tokens += row.inputLen;
        bool prefix = true; // a block is reused only behind a reused prefix
        for (quint32 b = 0; b < row.blockCount; ++b) {
            const qint64 begin = qint64(b) * blockSize;
            if (begin >= row.inputLen)
                break;
            const qint64 len = qMin<qint64>(blockSize, row.inputLen - begin);
            const quint64 id = trace.blocks[row.firstBlock + b];
            prefix = prefix && len == blockSize && seen.count(id) > 0;
            if (prefix)
                repeated += len;
            seen.insert(id);
        }
    }
    return tokens > 0 ? double(repeated) / double(tokens) : 0.0;
}

TraceProfile traceProfile(const Trace &trace, int blockSize, int bins)
{
    TraceProfile p;
    p.format = trace.format;
    p.requests = int(trace.rows.size());
    p.skipped = trace.skipped;
    p.durationSeconds = trace.durationSeconds();
    p.rate = trace.rate();
    p.repeatedShare = traceRepeatedShare(trace, p.requests, blockSize);
    bins = qMax(1, bins);
    p.overTime = p.inputLengths = p.outputLengths = QVector<int>(bins, 0);
    if (trace.rows.empty())
        return p;
    std::vector<double> in, out;
    in.reserve(trace.rows.size());
    out.reserve(trace.rows.size());
    for (const TraceRow &r : trace.rows) {
        in.push_back(r.inputLen);
        out.push_back(r.outputLen);
        p.inputMax = qMax(p.inputMax, r.inputLen);
        p.outputMax = qMax(p.outputMax, r.outputLen);
    }
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    p.inputMedian = Stats::percentileSorted(in, 50);
    p.inputP90 = Stats::percentileSorted(in, 90);
    p.outputMedian = Stats::percentileSorted(out, 50);
    p.outputP90 = Stats::percentileSorted(out, 90);
    const auto bin = [bins](double v, double max) { return max > 0 ? qMin(bins - 1, int(v / max * bins)) : 0; };
    const double span = double(trace.rows.back().atUs);
    for (const TraceRow &r : trace.rows) {
        ++p.overTime[bin(double(r.atUs), span)];
        ++p.inputLengths[bin(r.inputLen, p.inputMax)];
        ++p.outputLengths[bin(r.outputLen, p.outputMax)];
    }
    return p;
}

} // namespace ServeScope
