// SPDX-License-Identifier: MIT
#include "model/problem.h"
#include "resultfiles/resultfile.h"

#include <QCoreApplication>
#include <QFile>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

namespace ServeScope {

namespace {

using Json = nlohmann::json;

// Python's json.dumps writes bare Infinity, -Infinity and NaN (SGLang's request_rate); strict
// parsers reject them. Outside strings they become the strings "Infinity", "-Infinity", "NaN".
QByteArrayView nonFiniteAt(QByteArrayView rest)
{
    for (const char *word : { "-Infinity", "Infinity", "NaN" }) {
        if (rest.startsWith(QByteArrayView(word)))
            return QByteArrayView(word);
    }
    return {};
}

QByteArray quoteNonFinite(const QByteArray &in)
{
    QByteArray out;
    out.reserve(in.size() + 64);
    bool inString = false;
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in.at(i);
        if (inString) {
            out.append(c);
            if (c == '\\' && i + 1 < in.size())
                out.append(in.at(++i));
            else if (c == '"')
                inString = false;
            continue;
        }
        inString = c == '"';
        const QByteArrayView w = inString ? QByteArrayView() : nonFiniteAt(QByteArrayView(in).sliced(i));
        if (w.isEmpty()) {
            out.append(c);
            continue;
        }
        out.append('"').append(w.data(), w.size()).append('"');
        i += w.size() - 1;
    }
    return out;
}

double toNumber(const Json &v, bool *ok)
{
    *ok = true;
    if (v.is_number())
        return v.get<double>();
    if (v.is_string()) {
        const std::string s = v.get<std::string>();
        if (s == "inf" || s == "Infinity")
            return std::numeric_limits<double>::infinity();
        if (s == "-inf" || s == "-Infinity")
            return -std::numeric_limits<double>::infinity();
        if (s == "NaN" || s == "nan")
            return std::numeric_limits<double>::quiet_NaN();
    }
    *ok = false;
    return 0;
}

// Current vLLM key names for older vLLM and SGLang spellings.
QString normaliseKey(QString k)
{
    if (k.endsWith(u':'))
        k.chop(1); // "request_goodput:" in older vLLM
    for (const char *old : { "_e2e_latency_ms", "_latency_ms" }) {
        const QLatin1String o(old);
        if (k.endsWith(o) && !k.startsWith(QLatin1String("servescope_"))) {
            k.chop(o.size());
            return k + QLatin1String("_e2el_ms");
        }
    }
    return k;
}

// A per-request array as read: absent, read, or of the wrong type (not an array, or an entry that is
// neither a number nor null), which refuses the line naming the key.
enum class ArrayRead { Absent, Read, WrongType };

template<typename T> ArrayRead readArray(const Json &obj, const char *key, QVector<T> &out)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return ArrayRead::Absent;
    if (!it->is_array())
        return ArrayRead::WrongType;
    out.reserve(qsizetype(it->size()));
    for (const auto &v : *it) {
        bool ok = false;
        const double d = toNumber(v, &ok);
        if (!ok && !v.is_null())
            return ArrayRead::WrongType;
        if constexpr (std::is_integral_v<T>) {
            // A length that is NaN, infinite or beyond 2^63 is no count: read as 0, like a
            // null (converting it would be undefined behaviour).
            ok = ok && std::isfinite(d) && std::fabs(d) < 9.2e18;
        }
        out.append(ok ? T(d) : T(0));
    }
    return ArrayRead::Read;
}

ArrayRead readStrings(const Json &obj, const char *key, QStringList &out)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return ArrayRead::Absent;
    if (!it->is_array())
        return ArrayRead::WrongType;
    for (const auto &v : *it)
        out.append(v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString());
    return ArrayRead::Read;
}

ArrayRead readGaps(const Json &obj, QVector<QVector<double>> &out)
{
    const auto it = obj.find("itls");
    if (it == obj.end())
        return ArrayRead::Absent;
    if (!it->is_array())
        return ArrayRead::WrongType;
    for (const auto &row : *it) {
        QVector<double> gaps;
        if (row.is_array()) {
            gaps.reserve(qsizetype(row.size()));
            for (const auto &g : row) {
                bool ok = false;
                gaps.append(toNumber(g, &ok));
                if (!ok && !g.is_null())
                    return ArrayRead::WrongType;
            }
        } else if (!row.is_null()) {
            return ArrayRead::WrongType;
        }
        out.append(gaps);
    }
    return ArrayRead::Read;
}

// The per-request arrays; the key of the first one of the wrong type, or empty.
QString readArrays(const Json &obj, ResultRun &run)
{
    const auto wrong = [](ArrayRead r) { return r == ArrayRead::WrongType; };
    const ArrayRead ttfts = readArray(obj, "ttfts", run.ttfts);
    run.hasArrays = ttfts == ArrayRead::Read;
    const std::pair<const char *, ArrayRead> read[]
        = { { "ttfts", ttfts }, { "input_lens", readArray(obj, "input_lens", run.inputLens) },
              { "output_lens", readArray(obj, "output_lens", run.outputLens) },
              { "latencies", readArray(obj, "latencies", run.latencies) },
              { "start_times", readArray(obj, "start_times", run.startTimes) },
              { "queue_times", readArray(obj, "queue_times", run.queueTimes) },
              { "generated_texts", readStrings(obj, "generated_texts", run.generatedTexts) },
              { "errors", readStrings(obj, "errors", run.errors) }, { "itls", readGaps(obj, run.itls) } };
    for (const auto &[key, result] : read) {
        if (wrong(result))
            return QLatin1String(key);
    }
    return {};
}

ResultRun readRun(const Json &obj, int line, QString *wrongArray)
{
    ResultRun run;
    run.line = line;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString key = normaliseKey(QString::fromStdString(it.key()));
        bool ok = false;
        const double d = toNumber(it.value(), &ok);
        if (ok && (it->is_number() || key == QLatin1String("request_rate")))
            run.numbers.insert(key, d);
        else if (it->is_string())
            run.strings.insert(key, QString::fromStdString(it->get<std::string>()));
        else if (it->is_null())
            run.nullKeys.append(key);
    }
    run.hasFailedKey = obj.contains("failed");
    run.requestRate = run.number(QStringLiteral("request_rate"));
    const QString backend = run.strings.value(QStringLiteral("backend"));
    const bool sglang = backend.startsWith(QLatin1String("sglang")) || obj.contains("total_output_tokens_retokenized")
        || obj.contains("server_info");
    run.source = sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
    *wrongArray = readArrays(obj, run);
    return run;
}

Reason wrongArrayReason(const QString &key)
{
    return Reason::in("ServeScope::Import",
        QT_TRANSLATE_NOOP("ServeScope::Import",
            "\"%1\" is not an array of per-request values (numbers; for itls, arrays of numbers)"),
        { key });
}

} // namespace

bool readResultObject(const QByteArray &json, int line, ResultRun *out, QString *error, QString *shown)
{
    const QByteArray text = quoteNonFinite(json);
    Json obj = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (obj.is_discarded() || !obj.is_object()) {
        const Reason why = Reason::in("ServeScope::Import",
            obj.is_discarded() ? QT_TRANSLATE_NOOP("ServeScope::Import", "not valid JSON")
                               : QT_TRANSLATE_NOOP("ServeScope::Import", "the JSON value is not an object"),
            {});
        if (error)
            *error = why.text();
        if (shown)
            *shown = why.translated();
        return false;
    }
    QString wrongArray;
    ResultRun run = readRun(obj, line, &wrongArray);
    if (!wrongArray.isEmpty()) {
        const Reason why = wrongArrayReason(wrongArray);
        if (error)
            *error = why.text();
        if (shown)
            *shown = why.translated();
        return false;
    }
    *out = std::move(run);
    return true;
}

bool isJsonObject(const QByteArray &json)
{
    const QByteArray text = quoteNonFinite(json);
    const Json value = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    return !value.is_discarded() && value.is_object();
}

QVector<ResultRun> readResultFile(const QByteArray &data, QString *error)
{
    const QByteArray text = quoteNonFinite(data);
    QVector<ResultRun> runs;
    Json whole = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (!whole.is_discarded()) {
        if (!whole.is_object()) {
            if (error)
                *error = Reason::shown("ServeScope::Import",
                    QT_TRANSLATE_NOOP("ServeScope::Import", "not a result file: the JSON value is not an object"));
            return {};
        }
        QString wrongArray;
        runs.append(readRun(whole, 0, &wrongArray));
        if (!wrongArray.isEmpty()) {
            if (error)
                *error = wrongArrayReason(wrongArray).translated();
            return {};
        }
        return runs;
    }
    const QList<QByteArray> lines = text.split('\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        Json obj = Json::parse(line.constBegin(), line.constEnd(), nullptr, false);
        if (obj.is_discarded() || !obj.is_object()) {
            if (error)
                *error = Reason::shown("ServeScope::Import",
                    QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: not a JSON object"), { QString::number(i + 1) });
            return {};
        }
        QString wrongArray;
        runs.append(readRun(obj, i + 1, &wrongArray));
        if (!wrongArray.isEmpty()) {
            if (error)
                *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "line %1: %2"),
                    { QString::number(i + 1), wrongArrayReason(wrongArray).translated() });
            return {};
        }
    }
    if (runs.isEmpty() && error)
        *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "empty result file"));
    return runs;
}

QVector<ResultRun> readResultFilePath(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = Reason::shown("ServeScope::Import", QT_TRANSLATE_NOOP("ServeScope::Import", "cannot read %1: %2"),
                { path, f.errorString() });
        return {};
    }
    return readResultFile(f.readAll(), error);
}

} // namespace ServeScope
