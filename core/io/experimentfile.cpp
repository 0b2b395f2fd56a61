// SPDX-License-Identifier: MIT
// Format detection and file access for experiment files.
#include "experimentfile.h"
#include "importers.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace ServeScope {

QString experimentFormatName(ExperimentFormat f)
{
    switch (f) {
    case ExperimentFormat::Auto:
        return QStringLiteral("auto");
    case ExperimentFormat::Json:
        return QStringLiteral("json");
    case ExperimentFormat::BenchConfig:
        return QStringLiteral("bench_config");
    case ExperimentFormat::TomlLoadMatrix:
        return QStringLiteral("toml-load-matrix");
    case ExperimentFormat::TomlBench:
        return QStringLiteral("toml-bench");
    case ExperimentFormat::EnvSnapshot:
        return QStringLiteral("env-snapshot");
    }
    return QString();
}

// `shown` is the error in the application's language, when it has one.
static ExperimentReadResult failure(ExperimentFormat format, const QString &error, const QString &shown = QString())
{
    ExperimentReadResult r;
    r.format = format;
    r.errors << error;
    if (!shown.isEmpty() && shown != error)
        r.shown.insert(error, shown);
    return r;
}

static ExperimentReadResult failure(ExperimentFormat format, const Reason &why)
{
    return failure(format, why.text(), why.translated());
}

// "file is larger than N bytes", after "PATH: " when a path is given.
static Reason fileTooLarge(const QString &path)
{
    const QString limit = QString::number(kMaxExperimentFileBytes);
    return path.isEmpty()
        ? Reason::in(
            "ServeScope::Syntax", QT_TRANSLATE_NOOP("ServeScope::Syntax", "file is larger than %1 bytes"), { limit })
        : Reason::in("ServeScope::Syntax", QT_TRANSLATE_NOOP("ServeScope::Syntax", "%1: file is larger than %2 bytes"),
            { path, limit });
}

static ExperimentReadResult importToml(const QByteArray &bytes, ExperimentFormat format, const QString &name)
{
    JsonNode root;
    QString error;
    QString shown;
    if (!parseTomlTree(bytes, &root, &error, &shown))
        return failure(format, error, shown);
    if (format == ExperimentFormat::Auto) {
        if (root.member(QLatin1String("bench")))
            format = ExperimentFormat::TomlBench;
        else if (root.member(QLatin1String("client")) || root.member(QLatin1String("load_matrix")))
            format = ExperimentFormat::TomlLoadMatrix;
        else
            return failure(format,
                Reason::in("ServeScope::Syntax",
                    QT_TRANSLATE_NOOP("ServeScope::Syntax",
                        "unrecognised TOML layout: expected [bench] or [client] and [load_matrix.NAME]"),
                    {}));
    }
    return format == ExperimentFormat::TomlBench ? importBenchToml(root, name) : importLoadMatrixToml(root, name);
}

static bool startsLikeJsonObject(const QByteArray &bytes)
{
    const QByteArray head = bytes.left(64).trimmed();
    return head.startsWith('{') || head.startsWith("\xEF\xBB\xBF{");
}

// JSON only: native, env snapshot or bench_config by content (format Auto), else the forced
// layout. `syntaxHint` is appended to a JSON syntax error.
static ExperimentReadResult importJson(
    const QByteArray &bytes, ExperimentFormat format, const QString &name, const char *syntaxHint = nullptr)
{
    JsonNode root;
    QString error;
    QString shown;
    if (!parseJsonTree(bytes, &root, &error, JsonLimits { kMaxExperimentFileBytes, 64 }, &shown))
        return failure(format == ExperimentFormat::Auto ? ExperimentFormat::Json : format,
            syntaxHint ? error + QLatin1String(syntaxHint) : error,
            syntaxHint ? shown + QCoreApplication::translate("ServeScope::Syntax", syntaxHint) : shown);
    if (format == ExperimentFormat::Auto) {
        // bench_config.json has a string "endpoint" (the path); the native file has an object.
        const JsonNode *endpoint = root.isObject() ? root.member(QLatin1String("endpoint")) : nullptr;
        const bool native = root.isObject()
            && (root.member(QLatin1String("load")) || root.member(QLatin1String("variants"))
                || (endpoint && endpoint->isObject()));
        format = native               ? ExperimentFormat::Json
            : isEnvSnapshotOnly(root) ? ExperimentFormat::EnvSnapshot
                                      : ExperimentFormat::BenchConfig;
    }
    if (format == ExperimentFormat::EnvSnapshot)
        return importEnvSnapshotTree(root, name);
    if (format == ExperimentFormat::BenchConfig)
        return importBenchConfigTree(root, name);
    return readExperimentTree(root);
}

ExperimentReadResult importExperiment(const QByteArray &bytes, ExperimentFormat format, const QString &name)
{
    if (bytes.size() > kMaxExperimentFileBytes)
        return failure(format, fileTooLarge(QString()));
    if (format == ExperimentFormat::TomlBench || format == ExperimentFormat::TomlLoadMatrix)
        return importToml(bytes, format, name);
    if (format == ExperimentFormat::Auto && !startsLikeJsonObject(bytes))
        return importToml(bytes, format, name);
    return importJson(bytes, format, name);
}

static bool hasSuffix(const QFileInfo &info, const char *suffix)
{
    return info.suffix().compare(QLatin1String(suffix), Qt::CaseInsensitive) == 0;
}

ExperimentReadResult loadExperimentFile(const QString &path, ExperimentFormat format)
{
    const QFileInfo info(path);
    if (!info.exists())
        return failure(format,
            Reason::in("ServeScope::Syntax", QT_TRANSLATE_NOOP("ServeScope::Syntax", "%1: no such file"), { path }));
    if (info.size() > kMaxExperimentFileBytes)
        return failure(format, fileTooLarge(path));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failure(format, path + QLatin1String(": ") + file.errorString());
    // Read one byte past the limit so a file that grew after the size check is still refused.
    const QByteArray bytes = file.read(kMaxExperimentFileBytes + 1);
    if (bytes.size() > kMaxExperimentFileBytes)
        return failure(format, fileTooLarge(path));
    // The extension decides the syntax when it names one: a .json file that is not JSON gets a
    // JSON error, not a TOML one for text it was never meant to be; other names go by content.
    const QString name = info.completeBaseName();
    if (format == ExperimentFormat::Auto && hasSuffix(info, "toml"))
        return importToml(bytes, format, name);
    if (format == ExperimentFormat::Auto && hasSuffix(info, "json"))
        return importJson(bytes, format, name,
            startsLikeJsonObject(bytes)
                ? nullptr
                : QT_TRANSLATE_NOOP("ServeScope::Syntax", " (a .json file is read as JSON only; TOML needs .toml)"));
    return importExperiment(bytes, format, name);
}

} // namespace ServeScope
