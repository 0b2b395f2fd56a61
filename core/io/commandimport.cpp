// SPDX-License-Identifier: MIT
// importCommand(): server launches and benchmark clients pasted from a shell, as experiments.
#include "commandimport.h"

#include "shellwords.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>

namespace ServeScope {

using namespace CommandImport;

namespace CommandImport {

QList<Flag> parseFlags(const QStringList &words, qsizetype from, QStringList *positionals)
{
    static const QRegularExpression number(QStringLiteral("^-[0-9.]+$"));
    QList<Flag> flags;
    for (qsizetype i = from; i < words.size(); ++i) {
        const QString &w = words.at(i);
        if (!w.startsWith(QLatin1Char('-')) || number.match(w).hasMatch() || w == QLatin1String("-")) {
            if (flags.isEmpty())
                positionals->append(w);
            else
                flags.last().values << w;
            continue;
        }
        Flag f;
        f.name = w.mid(w.startsWith(QLatin1String("--")) ? 2 : 1);
        if (const qsizetype eq = f.name.indexOf(QLatin1Char('=')); eq > 0) {
            f.values << f.name.mid(eq + 1);
            f.name.truncate(eq);
            flags << f;
            flags << Flag { QString(), {} }; // what follows "--a=b" is positional, not a value of a
            continue;
        }
        flags << f;
    }
    QList<Flag> out;
    for (const Flag &f : flags) {
        if (!f.name.isEmpty())
            out << f;
        else if (positionals)
            *positionals += f.values;
    }
    return out;
}

QJsonValue typedValue(const QStringList &values)
{
    if (values.isEmpty())
        return true;
    if (values.size() > 1) {
        QJsonArray list;
        for (const QString &v : values)
            list.append(typedValue({ v }));
        return list;
    }
    const QString &v = values.first();
    bool ok = false;
    const qlonglong i = v.toLongLong(&ok);
    if (ok)
        return double(i);
    const double d = v.toDouble(&ok);
    if (ok)
        return d;
    if (v == QLatin1String("true") || v == QLatin1String("false"))
        return v == QLatin1String("true");
    return v;
}

} // namespace CommandImport

namespace {

enum class Kind { None, VllmServer, SglangServer, VllmBench, LegacyBench, SglangBench };

/// What the command is and where its flags start.
Kind classify(const QStringList &w, qsizetype *from)
{
    const auto word = [&w](qsizetype i) { return i < w.size() ? w.at(i) : QString(); };
    if (word(0) == QLatin1String("vllm") && word(1) == QLatin1String("serve"))
        return *from = 2, Kind::VllmServer;
    if (word(0) == QLatin1String("vllm") && word(1) == QLatin1String("bench") && word(2) == QLatin1String("serve"))
        return *from = 3, Kind::VllmBench;
    if (!word(0).startsWith(QLatin1String("python")))
        return Kind::None;
    if (word(1).endsWith(QLatin1String("benchmark_serving.py")))
        return *from = 2, Kind::LegacyBench;
    if (word(1) != QLatin1String("-m"))
        return Kind::None;
    *from = 3;
    const QString module = word(2);
    if (module == QLatin1String("vllm.entrypoints.openai.api_server"))
        return Kind::VllmServer;
    if (module == QLatin1String("sglang.launch_server"))
        return Kind::SglangServer;
    if (module == QLatin1String("sglang.bench_serving"))
        return Kind::SglangBench;
    return Kind::None;
}

QString argName(const QString &flag, bool sglang)
{
    static const QHash<QString, QString> vllm { { QStringLiteral("tp"), QStringLiteral("tensor_parallel_size") },
        { QStringLiteral("pp"), QStringLiteral("pipeline_parallel_size") },
        { QStringLiteral("dp"), QStringLiteral("data_parallel_size") } };
    static const QHash<QString, QString> sgl { { QStringLiteral("tp"), QStringLiteral("tp_size") },
        { QStringLiteral("dp"), QStringLiteral("dp_size") }, { QStringLiteral("pp"), QStringLiteral("pp_size") } };
    const QString alias = (sglang ? sgl : vllm).value(flag);
    return alias.isEmpty() ? QString(flag).replace(QLatin1Char('-'), QLatin1Char('_')) : alias;
}

bool isKeyFlag(const QString &flag)
{
    return flag == QLatin1String("api-key") || flag == QLatin1String("hf-token") || flag == QLatin1String("api_key");
}

constexpr const char *kCtx = "ServeScope::Command";

Reason why(const char *source, const QStringList &args = {})
{
    return Reason::in(kCtx, source, args);
}

/// A server launch: engine, args under their registry names, endpoint (model, host, port) and
/// the argv with `{server.args.NAME}` placeholders for the scalar values.
void readServer(const ShellCommand &c, qsizetype from, bool sglang, Experiment *x, const Messages &warnings)
{
    Server &s = x->server;
    s.engine = sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
    x->endpoint.dialect = sglang ? Dialect::Sglang : Dialect::Vllm;
    s.readyPath = QStringLiteral("/v1/models");
    QStringList positionals;
    const QList<Flag> flags = parseFlags(c.words, from, &positionals);
    s.launchArgv = c.words.mid(0, from) + positionals;
    if (!sglang && !positionals.isEmpty())
        x->endpoint.model = positionals.first();
    QString host = QStringLiteral("127.0.0.1"), port = sglang ? QStringLiteral("30000") : QStringLiteral("8000");
    QString served;
    for (const Flag &f : flags) {
        const QString value = f.values.value(0);
        if (isKeyFlag(f.name)) {
            x->endpoint.apiKeyEnv = shellVariableName(value);
            warnings.add(c.line, f.name,
                why(x->endpoint.apiKeyEnv.isEmpty()
                        ? QT_TRANSLATE_NOOP("ServeScope::Command", "the key is not kept; name it with api_key_env")
                        : QT_TRANSLATE_NOOP("ServeScope::Command",
                            "left out of the launch argv; the key's variable is kept as endpoint.api_key_env")));
            continue;
        }
        if (f.name == QLatin1String("model") || f.name == QLatin1String("model-path"))
            x->endpoint.model = value;
        else if (f.name == QLatin1String("served-model-name"))
            served = value;
        else if (f.name == QLatin1String("host"))
            host = value == QLatin1String("0.0.0.0") || value.isEmpty() ? QStringLiteral("127.0.0.1") : value;
        else if (f.name == QLatin1String("port"))
            port = value;
        if (QStringList { QStringLiteral("model"), QStringLiteral("model-path"), QStringLiteral("served-model-name"),
                QStringLiteral("host"), QStringLiteral("port") }
                .contains(f.name)) {
            s.launchArgv << QLatin1String("--") + f.name << f.values;
            continue;
        }
        const QString name = argName(f.name, sglang);
        const QJsonValue v = typedValue(f.values);
        s.args.set(name, v);
        s.launchArgv << QLatin1String("--") + f.name;
        if (f.values.size() == 1)
            s.launchArgv << QLatin1String("{server.args.") + name + QLatin1Char('}');
        else
            s.launchArgv << f.values;
    }
    if (!served.isEmpty())
        x->endpoint.model = served;
    x->endpoint.baseUrl = QLatin1String("http://") + host + QLatin1Char(':') + port;
}

/// `--a 1 --b 2 3`: SGLang flags tuned one at a time, one variant each.
void readTuningFlags(const ShellCommand &c, Experiment *x, const Messages &warnings)
{
    QStringList positionals;
    x->server.engine = QStringLiteral("sglang");
    for (const Flag &f : parseFlags(c.words, 0, &positionals)) {
        if (isKeyFlag(f.name)) {
            warnings.add(c.line, f.name,
                why(QT_TRANSLATE_NOOP("ServeScope::Command", "the key is not kept; name it with api_key_env")));
            continue;
        }
        const QString name = argName(f.name, true);
        Variant v;
        v.name = sanitizeName(name + QLatin1Char('-') + f.values.join(QLatin1Char('_')));
        v.changes.set(QLatin1String("server.args.") + name, typedValue(f.values));
        x->variants << v;
    }
}

QString keyVariable(const QList<ShellCommand> &commands)
{
    for (const ShellCommand &c : commands) {
        for (qsizetype i = 0; i < c.assignedNames.size(); ++i) {
            const QString &n = c.assignedNames[i];
            // OPENAI_API_KEY="$TEAM_KEY": the key lives in TEAM_KEY.
            if (n.contains(QLatin1String("KEY")) || n.contains(QLatin1String("TOKEN")))
                return c.assignedFrom.value(i).isEmpty() ? n : c.assignedFrom.value(i);
        }
    }
    return QString();
}

} // namespace

void CommandImport::Messages::add(const Reason &why) const
{
    const QString line = why.text();
    lines->append(line);
    const QString translated = why.translated();
    if (shown && translated != line)
        shown->insert(line, translated);
}

void CommandImport::Messages::add(int line, const QString &flag, const Reason &why) const
{
    Reason at = Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Command", "line %1: --%2: %3"),
        { QString::number(line), flag, why.text() });
    const QString text = at.text();
    lines->append(text);
    at.args.last() = why.translated();
    const QString translated = at.translated();
    if (shown && translated != text)
        shown->insert(text, translated);
}

CommandImportResult importCommand(const QString &text, const QString &name)
{
    CommandImportResult r;
    const Messages warnings { &r.warnings, &r.shown }, errors { &r.errors, &r.shown };
    Experiment &x = r.experiment;
    x.name = name;
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    const QList<ShellCommand> commands = splitShellCommands(text);
    bool server = false, bench = false;
    for (const ShellCommand &c : commands) {
        if (c.words.isEmpty() || c.exported)
            continue;
        qsizetype from = 0;
        const Kind kind = classify(c.words, &from);
        if (kind == Kind::VllmServer || kind == Kind::SglangServer) {
            if (server)
                errors.add(why(
                    QT_TRANSLATE_NOOP("ServeScope::Command", "line %1: a second server command; import one at a time"),
                    { QString::number(c.line) }));
            readServer(c, from, kind == Kind::SglangServer, &x, warnings);
            server = true;
        } else if (kind != Kind::None) {
            if (bench)
                errors.add(why(QT_TRANSLATE_NOOP(
                                   "ServeScope::Command", "line %1: a second benchmark command; import one at a time"),
                    { QString::number(c.line) }));
            QStringList positionals;
            const QString tool = kind == Kind::SglangBench ? QStringLiteral("sglang.bench_serving")
                : kind == Kind::LegacyBench                ? QStringLiteral("benchmark_serving.py")
                                                           : QStringLiteral("vllm bench serve");
            const Endpoint launched = x.endpoint;
            readBenchFlags(parseFlags(c.words, from, &positionals), tool, c.line, &x, warnings, errors);
            if (server && x.endpoint.baseUrl.isEmpty())
                x.endpoint.baseUrl = launched.baseUrl;
            bench = true;
        } else if (c.words.first().startsWith(QLatin1String("--"))) {
            readTuningFlags(c, &x, warnings);
            server = true;
        } else if (c.words.first() != QLatin1String("tail") && c.words.first() != QLatin1String("sleep")
            && c.words.first() != QLatin1String("wait") && c.words.first() != QLatin1String("cd")) {
            // The word itself is not repeated: a pasted line may be a key.
            warnings.add(
                why(QT_TRANSLATE_NOOP("ServeScope::Command", "line %1: not a server or benchmark command; ignored"),
                    { QString::number(c.line) }));
        }
    }
    if (!server && !bench)
        errors.add(why(QT_TRANSLATE_NOOP("ServeScope::Command",
            "no vllm serve, sglang.launch_server, vllm bench serve, benchmark_serving.py or sglang.bench_serving "
            "command "
            "found")));
    if (x.endpoint.apiKeyEnv.isEmpty())
        x.endpoint.apiKeyEnv = keyVariable(commands);
    r.ok = r.errors.isEmpty();
    r.hasServer = server;
    r.hasBench = bench;
    return r;
}

Experiment mergeImportedCommand(const Experiment &current, const CommandImportResult &imported)
{
    Experiment out = current;
    const Experiment &x = imported.experiment;
    if (imported.hasServer) {
        out.server = x.server;
        if (x.variants.size() > 1)
            out.variants = x.variants;
    }
    if (imported.hasBench) {
        // What a benchmark command says about the endpoint; headers, proxy and the key's keychain
        // entry are the window's and stay.
        Endpoint &e = out.endpoint;
        if (!x.endpoint.baseUrl.isEmpty())
            e.baseUrl = x.endpoint.baseUrl;
        if (!x.endpoint.model.isEmpty())
            e.model = x.endpoint.model;
        e.path = x.endpoint.path;
        e.dialect = x.endpoint.dialect;
        if (!x.endpoint.apiKeyEnv.isEmpty())
            e.apiKeyEnv = x.endpoint.apiKeyEnv;
        out.dataset = x.dataset;
        out.load = x.load;
        out.metrics = x.metrics;
        if (!x.sampling.isEmpty())
            out.sampling = x.sampling;
    }
    return out;
}

} // namespace ServeScope
