// SPDX-License-Identifier: MIT
#pragma once
// The reader result files had before the streaming one: the whole object parsed into a
// nlohmann::json document, then its keys read. Kept here only as the reference the streaming
// reader must agree with, key for key and entry for entry.

#include "resultfiles/resultfile.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

namespace ServeScope::Test {

namespace dom {

using Json = nlohmann::json;

inline QByteArray quoteNonFinite(const QByteArray &in)
{
    QByteArray out;
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
        QByteArrayView word;
        for (const char *w : { "-Infinity", "Infinity", "NaN" }) {
            if (!inString && word.isEmpty() && QByteArrayView(in).sliced(i).startsWith(QByteArrayView(w)))
                word = QByteArrayView(w);
        }
        if (word.isEmpty()) {
            out.append(c);
            continue;
        }
        out.append('"').append(word.data(), word.size()).append('"');
        i += word.size() - 1;
    }
    return out;
}

inline double toNumber(const Json &v, bool *ok)
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

inline QString normaliseKey(QString k)
{
    if (k.endsWith(u':'))
        k.chop(1);
    for (const char *old : { "_e2e_latency_ms", "_latency_ms" }) {
        const QLatin1String o(old);
        if (k.endsWith(o) && !k.startsWith(QLatin1String("servescope_"))) {
            k.chop(o.size());
            return k + QLatin1String("_e2el_ms");
        }
    }
    return k;
}

// True: absent or read; false: of the wrong type.
template<typename T> bool readArray(const Json &obj, const char *key, QVector<T> &out)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return true;
    if (!it->is_array())
        return false;
    for (const auto &v : *it) {
        bool ok = false;
        const double d = toNumber(v, &ok);
        if (!ok && !v.is_null())
            return false;
        if constexpr (std::is_integral_v<T>)
            ok = ok && std::isfinite(d) && std::fabs(d) < 9.2e18;
        out.append(ok ? T(d) : T(0));
    }
    return true;
}

inline bool readStrings(const Json &obj, const char *key, TextColumn &out)
{
    const auto it = obj.find(key);
    if (it == obj.end())
        return true;
    if (!it->is_array())
        return false;
    for (const auto &v : *it)
        out.append(v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString());
    return true;
}

inline bool readGaps(const Json &obj, GapColumn &out)
{
    const auto it = obj.find("itls");
    if (it == obj.end())
        return true;
    if (!it->is_array())
        return false;
    for (const auto &row : *it) {
        QVector<double> gaps;
        if (row.is_array()) {
            for (const auto &g : row) {
                bool ok = false;
                gaps.append(toNumber(g, &ok));
                if (!ok && !g.is_null())
                    return false;
            }
        } else if (!row.is_null()) {
            return false;
        }
        out << gaps;
    }
    return true;
}

// The key of the first per-request array of the wrong type, or empty.
inline QString readArrays(const Json &obj, ResultRun &run)
{
    run.hasArrays = obj.contains("ttfts") && obj.at("ttfts").is_array();
    const std::pair<const char *, bool> read[] = { { "ttfts", readArray(obj, "ttfts", run.ttfts) },
        { "input_lens", readArray(obj, "input_lens", run.inputLens) },
        { "output_lens", readArray(obj, "output_lens", run.outputLens) },
        { "latencies", readArray(obj, "latencies", run.latencies) },
        { "start_times", readArray(obj, "start_times", run.startTimes) },
        { "queue_times", readArray(obj, "queue_times", run.queueTimes) },
        { "generated_texts", readStrings(obj, "generated_texts", run.generatedTexts) },
        { "errors", readStrings(obj, "errors", run.errors) }, { "itls", readGaps(obj, run.itls) } };
    for (const auto &[key, ok] : read) {
        if (!ok)
            return QLatin1String(key);
    }
    return {};
}

} // namespace dom

/// What the document reader made of one JSON text: "not valid JSON", "not an object", the key of a
/// wrong array, or empty with *run read.
inline QString domReadObject(const QByteArray &json, int line, ResultRun *run)
{
    using dom::Json;
    const QByteArray text = dom::quoteNonFinite(json);
    const Json obj = Json::parse(text.constBegin(), text.constEnd(), nullptr, false);
    if (obj.is_discarded())
        return QStringLiteral("not valid JSON");
    if (!obj.is_object())
        return QStringLiteral("not an object");
    ResultRun r;
    r.line = line;
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const QString key = dom::normaliseKey(QString::fromStdString(it.key()));
        bool ok = false;
        const double d = dom::toNumber(it.value(), &ok);
        if (ok && (it->is_number() || key == QLatin1String("request_rate")))
            r.numbers.insert(key, d);
        else if (it->is_string())
            r.strings.insert(key, QString::fromStdString(it->get<std::string>()));
        else if (it->is_null())
            r.nullKeys.append(key);
    }
    r.hasFailedKey = obj.contains("failed");
    r.requestRate = r.number(QStringLiteral("request_rate"));
    const bool sglang = r.strings.value(QStringLiteral("backend")).startsWith(QLatin1String("sglang"))
        || obj.contains("total_output_tokens_retokenized") || obj.contains("server_info");
    r.source = sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
    const QString wrong = dom::readArrays(obj, r);
    if (wrong.isEmpty())
        *run = std::move(r);
    return wrong;
}

} // namespace ServeScope::Test
