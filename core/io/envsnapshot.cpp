// SPDX-License-Identifier: MIT
// The environment snapshot in either spelling: the native list of [field, value, source] and the
// JSON object engineers keep ({"gpu": "A100", "power_cap_w": 300, ...}).
#include "importers.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ServeScope {

namespace {

bool scalarText(const JsonNode &v, QString *out)
{
    if (v.isString())
        *out = v.string;
    else if (v.isNumber())
        *out = formatNumber(v.number);
    else if (v.isBool())
        *out = v.boolean ? QStringLiteral("true") : QStringLiteral("false");
    else
        return false;
    return true;
}

void readPairs(TreeReader &r, const JsonNode &n, const QString &p, EnvSnapshot *env)
{
    for (size_t i = 0; i < n.children.size(); ++i) {
        const JsonNode &pair = n.children[i];
        const QString at = p + QStringLiteral("[%1]").arg(i);
        if (!pair.isArray() || pair.children.size() < 2 || pair.children.size() > 3) {
            r.error(&pair, at,
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be [name, value] or [name, value, source]") });
            continue;
        }
        EnvEntry entry;
        r.string(&pair.children[0], at + QLatin1String("[0]"), &entry.key);
        if (!scalarText(pair.children[1], &entry.value))
            r.error(&pair.children[1], at + QLatin1String("[1]"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a string, number or boolean") });
        QString source;
        if (pair.children.size() == 3 && r.string(&pair.children[2], at + QLatin1String("[2]"), &source)
            && !parseEnvSource(source, &entry.source))
            r.error(&pair.children[2], at + QLatin1String("[2]"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of typed, captured, probe") });
        env->append(entry);
    }
}

// {"field": value}; a value {"value": v, "source": s} carries its own source; other nested
// objects are flattened to dotted names ("gpu.name"), lists kept as their JSON text.
void readObject(
    TreeReader &r, const JsonNode &n, const QString &p, const QString &prefix, EnvSource source, EnvSnapshot *env)
{
    for (size_t i = 0; i < n.keys.size(); ++i) {
        const JsonNode &v = n.children[i];
        const QString key = prefix.isEmpty() ? n.keys[i] : prefix + QLatin1Char('.') + n.keys[i];
        const QString at = p + QLatin1Char('.') + n.keys[i];
        EnvEntry entry { key, QString(), source };
        if (scalarText(v, &entry.value)) {
            env->append(entry);
        } else if (v.isObject() && v.member(QLatin1String("value"))) {
            if (!scalarText(*v.member(QLatin1String("value")), &entry.value))
                r.error(v.member(QLatin1String("value")), at + QLatin1String(".value"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a string, number or boolean") });
            QString s;
            if (r.stringAt(v, "source", at, &s) && !s.isEmpty() && !parseEnvSource(s, &entry.source))
                r.error(v.member(QLatin1String("source")), at + QLatin1String(".source"),
                    Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be one of typed, captured, probe") });
            env->append(entry);
        } else if (v.isObject()) {
            readObject(r, v, at, key, source, env);
        } else if (v.isArray()) {
            entry.value = QString::fromUtf8(QJsonDocument(v.toJsonValue().toArray()).toJson(QJsonDocument::Compact));
            env->append(entry);
        } else {
            r.warning(&v, at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "has no value; ignored") });
        }
    }
}

} // namespace

void readEnvSnapshotNode(
    TreeReader &r, const JsonNode &n, const QString &path, EnvSource objectSource, EnvSnapshot *env)
{
    if (n.isArray())
        readPairs(r, n, path, env);
    else if (n.isObject())
        readObject(r, n, path, QString(), objectSource, env);
    else
        r.error(&n, path,
            Reason { QT_TRANSLATE_NOOP(
                "ServeScope::Problem", "must be an object of fields or a list of [name, value, source]") });
}

bool isEnvSnapshotOnly(const JsonNode &root)
{
    return root.isObject() && root.keys.size() == 1 && root.keys.front() == QLatin1String("env_snapshot");
}

ExperimentReadResult importEnvSnapshotTree(const JsonNode &root, const QString &name)
{
    ExperimentReadResult result;
    result.format = ExperimentFormat::EnvSnapshot;
    Experiment &x = result.experiment;
    x.name = name;
    x.variants = { Variant { QStringLiteral("baseline"), {}, QString(), false } };
    if (!scanForSecrets(root, &result.errors, &result.shown))
        return result;
    TreeReader r;
    r.warnUnknownKeys = true;
    if (r.object(&root, QString(), { "env_snapshot" })) {
        if (const JsonNode *n = root.member(QLatin1String("env_snapshot")))
            // A file holding only the snapshot is what the env-probe script prints on the server host.
            readEnvSnapshotNode(r, *n, QStringLiteral("env_snapshot"), EnvSource::Probe, &x.envSnapshot);
        else
            r.error(nullptr, QStringLiteral("env_snapshot"),
                Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "is required") });
    }
    result.errors = r.errors;
    result.warnings = r.warnings;
    result.shown = r.shown;
    result.ok = result.errors.isEmpty();
    return result;
}

} // namespace ServeScope
