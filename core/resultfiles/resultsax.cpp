// SPDX-License-Identifier: MIT
#include "resultfiles/resultsax.h"

#include <cmath>
#include <istream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace ServeScope {

namespace {

using Json = nlohmann::json;

// The per-request arrays in the order a line of the wrong type is reported by.
enum Column { Ttfts, InputLens, OutputLens, Latencies, StartTimes, QueueTimes, GeneratedTexts, Errors, Itls, None };
constexpr const char *kColumnKeys[] = { "ttfts", "input_lens", "output_lens", "latencies", "start_times", "queue_times",
    "generated_texts", "errors", "itls" };

// A per-request array as read: absent, read, or of the wrong type (not an array, or an entry that is
// neither a number nor null), which refuses the line naming the key.
enum class ArrayRead { Absent, Read, WrongType };

// A top-level value other than a per-request array's entries; the last of a repeated key wins.
struct TopValue {
    enum class Kind { Number, String, Null, Other } kind = Kind::Other;
    double number = 0;
    std::string text;
};

// "inf", "Infinity", "-inf", "-Infinity", "NaN", "nan" as numbers; false for any other string.
bool numberOfText(const std::string &s, double *d)
{
    if (s == "inf" || s == "Infinity")
        *d = std::numeric_limits<double>::infinity();
    else if (s == "-inf" || s == "-Infinity")
        *d = -std::numeric_limits<double>::infinity();
    else if (s == "NaN" || s == "nan")
        *d = std::numeric_limits<double>::quiet_NaN();
    else
        return false;
    return true;
}

// A length that is NaN, infinite or beyond 2^63 is no count: read as 0, like a null (converting it
// would be undefined behaviour).
qint64 lengthOf(double d)
{
    return std::isfinite(d) && std::fabs(d) < 9.2e18 ? qint64(d) : 0;
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

// The SAX events of one result object: depth 1 is the object's keys, depth 2 a per-request array's
// entries, depth 3 the gaps of one itls entry. Anything deeper, or inside another key's value, is skipped.
class RunReader final {
public:
    explicit RunReader(ResultRun *run)
        : m_run(*run)
    {
    }

    bool null() { return scalar(TopValue { TopValue::Kind::Null, 0, {} }, Entry::Null, 0); }
    bool boolean(bool) { return scalar(TopValue {}, Entry::Wrong, 0); }
    bool number_integer(Json::number_integer_t v) { return number(double(v)); }
    bool number_unsigned(Json::number_unsigned_t v) { return number(double(v)); }
    bool number_float(Json::number_float_t v, const Json::string_t &) { return number(v); }
    bool string(Json::string_t &s);
    bool binary(Json::binary_t &) { return scalar(TopValue {}, Entry::Wrong, 0); }
    bool start_object(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool start_array(std::size_t) { return open(true); }
    bool end_array() { return close(); }
    bool key(Json::string_t &k);
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) { return false; }

    bool isObject() const { return m_object; }
    /// The run's keys from the values kept; the key of the first array of the wrong type, or empty.
    QString finish(int line);

private:
    enum class Entry { Number, Null, Text, Wrong };
    bool number(double d) { return scalar(TopValue { TopValue::Kind::Number, d, {} }, Entry::Number, d); }
    bool scalar(TopValue top, Entry entry, double d);
    bool open(bool array);
    bool close();
    void entry(Entry kind, double d, const std::string *text);
    void startColumn();
    void wrong() { m_read[m_column] = ArrayRead::WrongType; }
    bool reading() const { return m_column != None && m_read[m_column] == ArrayRead::Read; }

    ResultRun &m_run;
    std::map<std::string, TopValue> m_top;
    std::string m_key;
    int m_depth = 0; ///< containers open
    bool m_started = false;
    bool m_object = false; ///< the value is an object
    Column m_column = None; ///< the per-request array of the current key
    ArrayRead m_read[None] = {};
    qsizetype m_rows = 0; ///< entries of the longest array so far: the next is reserved as long
};

bool RunReader::scalar(TopValue top, Entry kind, double d)
{
    if (!m_started) {
        m_started = true; // a bare value: not an object
        return true;
    }
    if (m_depth == 1) {
        m_top[m_key] = std::move(top);
        if (m_column != None)
            wrong();
    } else if (m_depth >= 2 && reading()) {
        entry(kind, d, nullptr);
    }
    return true;
}

bool RunReader::string(Json::string_t &s)
{
    if (m_depth == 1 && m_started) {
        m_top[m_key] = TopValue { TopValue::Kind::String, 0, s };
        if (m_column != None)
            wrong();
        return true;
    }
    if (m_depth < 2 || !reading())
        return scalar(TopValue {}, Entry::Wrong, 0);
    double d = 0;
    if (m_column == GeneratedTexts || m_column == Errors)
        entry(Entry::Text, 0, &s);
    else if (numberOfText(s, &d))
        entry(Entry::Number, d, nullptr);
    else
        entry(Entry::Wrong, 0, nullptr);
    return true;
}

bool RunReader::key(Json::string_t &k)
{
    if (m_depth != 1)
        return true;
    m_key = k;
    m_column = None;
    for (int c = 0; c < None; ++c) {
        if (m_key == kColumnKeys[c])
            m_column = Column(c);
    }
    return true;
}

// One entry of the current per-request array at depth 2 (or a gap of itls at depth 3).
void RunReader::entry(Entry kind, double d, const std::string *text)
{
    switch (m_column) {
    case GeneratedTexts:
    case Errors: {
        if (m_depth != 2)
            return; // inside an entry that is itself an array or object: one empty text for it
        TextColumn &out = m_column == Errors ? m_run.errors : m_run.generatedTexts;
        out.append(text ? QByteArrayView(text->data(), qsizetype(text->size())) : QByteArrayView());
        return;
    }
    case Itls:
        if (kind == Entry::Wrong || (m_depth == 2 && kind != Entry::Null))
            wrong();
        else if (m_depth == 2)
            m_run.itls.appendRow(); // null: no gaps
        else
            m_run.itls.appendToLastRow(kind == Entry::Null ? 0 : d);
        return;
    case InputLens:
    case OutputLens:
        if (kind == Entry::Wrong)
            wrong();
        else
            (m_column == InputLens ? m_run.inputLens : m_run.outputLens).append(lengthOf(kind == Entry::Null ? 0 : d));
        return;
    default:
        break;
    }
    QVector<double> *out[] = { &m_run.ttfts, nullptr, nullptr, &m_run.latencies, &m_run.startTimes, &m_run.queueTimes };
    if (kind == Entry::Wrong)
        wrong();
    else
        out[m_column]->append(kind == Entry::Null ? 0 : d);
}

void RunReader::startColumn()
{
    m_read[m_column] = ArrayRead::Read;
    switch (m_column) {
    case GeneratedTexts:
    case Errors:
        (m_column == Errors ? m_run.errors : m_run.generatedTexts).clear();
        (m_column == Errors ? m_run.errors : m_run.generatedTexts).reserve(m_rows);
        return;
    case Itls:
        m_run.itls.clear();
        m_run.itls.reserve(m_rows);
        return;
    case InputLens:
    case OutputLens: {
        QVector<qint64> &out = m_column == InputLens ? m_run.inputLens : m_run.outputLens;
        out.clear();
        out.reserve(m_rows);
        return;
    }
    default:
        break;
    }
    QVector<double> *out[] = { &m_run.ttfts, nullptr, nullptr, &m_run.latencies, &m_run.startTimes, &m_run.queueTimes };
    out[m_column]->clear();
    out[m_column]->reserve(m_rows);
}

bool RunReader::open(bool array)
{
    if (!m_started) {
        m_started = true;
        m_object = !array;
    } else if (m_depth == 1) {
        m_top[m_key] = TopValue {};
        if (m_column != None && array)
            startColumn();
        else if (m_column != None)
            wrong();
    } else if (m_depth >= 2 && reading()) {
        if (m_column == Itls && m_depth == 2 && array)
            m_run.itls.appendRow();
        else
            entry(Entry::Wrong, 0, nullptr);
    }
    ++m_depth;
    return true;
}

bool RunReader::close()
{
    --m_depth;
    if (m_depth == 1 && m_column != None) {
        const qsizetype rows[] = { m_run.ttfts.size(), m_run.inputLens.size(), m_run.outputLens.size(),
            m_run.latencies.size(), m_run.startTimes.size(), m_run.queueTimes.size(), m_run.generatedTexts.size(),
            m_run.errors.size(), m_run.itls.size() };
        m_rows = std::max(m_rows, rows[m_column]);
        m_column = None;
    }
    return true;
}

QString RunReader::finish(int line)
{
    ResultRun &run = m_run;
    run.line = line;
    for (const auto &[rawKey, value] : m_top) {
        const QString key = normaliseKey(QString::fromStdString(rawKey));
        double d = value.number;
        const bool isText = value.kind == TopValue::Kind::String;
        const bool ok = value.kind == TopValue::Kind::Number || (isText && numberOfText(value.text, &d));
        if (ok && (!isText || key == QLatin1String("request_rate")))
            run.numbers.insert(key, d);
        else if (isText)
            run.strings.insert(key, QString::fromStdString(value.text));
        else if (value.kind == TopValue::Kind::Null)
            run.nullKeys.append(key);
    }
    run.hasFailedKey = m_top.count("failed") > 0;
    run.requestRate = run.number(QStringLiteral("request_rate"));
    const QString backend = run.strings.value(QStringLiteral("backend"));
    const bool sglang = backend.startsWith(QLatin1String("sglang")) || m_top.count("total_output_tokens_retokenized")
        || m_top.count("server_info");
    run.source = sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
    run.hasArrays = m_read[Ttfts] == ArrayRead::Read;
    // Columns grow by doubling while they are read: what they reserved beyond their entries goes back.
    for (QVector<qint64> *v : { &run.inputLens, &run.outputLens })
        v->squeeze();
    for (QVector<double> *v : { &run.ttfts, &run.latencies, &run.startTimes, &run.queueTimes })
        v->squeeze();
    run.itls.squeeze();
    run.errors.squeeze();
    run.generatedTexts.squeeze();
    for (int c = 0; c < None; ++c) {
        if (m_read[c] == ArrayRead::WrongType)
            return QLatin1String(kColumnKeys[c]);
    }
    return {};
}

// Looks for keys among an object's own keys, keeping nothing else.
class KeyFinder final {
public:
    KeyFinder(const QList<QByteArray> &keys, QList<QByteArray> *found)
        : m_keys(keys)
        , m_found(*found)
    {
    }
    bool null() { return value(); }
    bool boolean(bool) { return value(); }
    bool number_integer(Json::number_integer_t) { return value(); }
    bool number_unsigned(Json::number_unsigned_t) { return value(); }
    bool number_float(Json::number_float_t, const Json::string_t &) { return value(); }
    bool string(Json::string_t &) { return value(); }
    bool binary(Json::binary_t &) { return value(); }
    bool start_object(std::size_t)
    {
        m_object = m_object || m_depth == 0;
        ++m_depth;
        return true;
    }
    bool start_array(std::size_t)
    {
        ++m_depth;
        return true;
    }
    bool end_object() { return --m_depth, true; }
    bool end_array() { return --m_depth, true; }
    bool key(Json::string_t &k)
    {
        const QByteArray name = QByteArray::fromStdString(k);
        if (m_depth == 1 && m_keys.contains(name) && !m_found.contains(name))
            m_found.append(name);
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) { return false; }
    bool isObject() const { return m_object; }

private:
    bool value() { return true; }
    const QList<QByteArray> &m_keys;
    QList<QByteArray> &m_found;
    int m_depth = 0;
    bool m_object = false;
};

} // namespace

ObjectRead parseResultObject(std::streambuf &in, int line, ResultRun *run, QString *wrongArray)
{
    ResultRun read;
    RunReader reader(&read);
    std::istream stream(&in);
    if (!Json::sax_parse(stream, &reader))
        return ObjectRead::NotJson;
    if (!reader.isObject())
        return ObjectRead::NotObject;
    *wrongArray = reader.finish(line);
    if (!wrongArray->isEmpty())
        return ObjectRead::WrongArray;
    *run = std::move(read);
    return ObjectRead::Run;
}

bool firstObjectKeys(std::streambuf &in, const QList<QByteArray> &keys, QList<QByteArray> *found)
{
    found->clear();
    KeyFinder finder(keys, found);
    std::istream stream(&in);
    return Json::sax_parse(stream, &finder, Json::input_format_t::json, false) && finder.isObject();
}

bool parseIsObject(std::streambuf &in)
{
    std::istream stream(&in);
    int first = stream.peek();
    while (first == ' ' || first == '\t' || first == '\n' || first == '\r') {
        stream.get();
        first = stream.peek();
    }
    return first == '{' && Json::accept(stream);
}

} // namespace ServeScope
