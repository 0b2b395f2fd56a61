// SPDX-License-Identifier: MIT
#include "treereader.h"

#include <QCoreApplication>

#include <cmath>

namespace ServeScope {

QString TreeReader::join(const QString &base, const char *key)
{
    return base.isEmpty() ? QString::fromLatin1(key) : base + QLatin1Char('.') + QLatin1String(key);
}

namespace {

QString compose(const JsonNode *node, const QString &path, const QString &reason, bool translated)
{
    QString line = path.isEmpty() ? reason : path + QLatin1String(": ") + reason;
    if (node && node->line > 0)
        line += (translated ? QCoreApplication::translate("ServeScope::Problem", " (line %1)")
                            : QStringLiteral(" (line %1)"))
                    .arg(node->line);
    return line;
}

} // namespace

void TreeReader::error(const JsonNode *node, const QString &path, const QString &reason)
{
    errors << compose(node, path, reason, false);
}

void TreeReader::warning(const JsonNode *node, const QString &path, const QString &reason)
{
    warnings << compose(node, path, reason, false);
}

void TreeReader::error(const JsonNode *node, const QString &path, const Reason &why)
{
    errors << compose(node, path, why.text(), false);
    shown.insert(errors.last(), compose(node, path, why.translated(), true));
}

void TreeReader::warning(const JsonNode *node, const QString &path, const Reason &why)
{
    warnings << compose(node, path, why.text(), false);
    shown.insert(warnings.last(), compose(node, path, why.translated(), true));
}

bool TreeReader::anyObject(const JsonNode *node, const QString &path)
{
    if (node->isObject())
        return true;
    error(node, path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an object") });
    return false;
}

bool TreeReader::object(const JsonNode *node, const QString &path, std::initializer_list<const char *> allowed)
{
    if (!anyObject(node, path))
        return false;
    for (size_t i = 0; i < node->keys.size(); ++i) {
        bool known = false;
        for (const char *key : allowed)
            known = known || node->keys[i] == QLatin1String(key);
        if (known)
            continue;
        const QString at = path.isEmpty() ? node->keys[i] : path + QLatin1Char('.') + node->keys[i];
        if (warnUnknownKeys)
            warning(
                &node->children[i], at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "unknown key; ignored") });
        else
            error(&node->children[i], at, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "unknown key") });
    }
    return true;
}

bool TreeReader::array(const JsonNode *node, const QString &path)
{
    if (node->isArray())
        return true;
    error(node, path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a list") });
    return false;
}

bool TreeReader::string(const JsonNode *node, const QString &path, QString *out)
{
    if (!node->isString()) {
        error(node, path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a string") });
        return false;
    }
    *out = node->string;
    return true;
}

bool TreeReader::boolean(const JsonNode *node, const QString &path, bool *out)
{
    if (!node->isBool()) {
        error(node, path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be true or false") });
        return false;
    }
    *out = node->boolean;
    return true;
}

bool TreeReader::integer64(const JsonNode *node, const QString &path, qint64 *out, double min, double max)
{
    if (!node->isNumber() || node->number != std::floor(node->number)) {
        error(node, path, Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an integer") });
        return false;
    }
    if (node->number < min || node->number > max) {
        error(node, path,
            Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be an integer from %1 to %2"),
                { QString::number(qint64(min)), QString::number(qint64(max)) } });
        return false;
    }
    *out = qint64(node->number);
    return true;
}

bool TreeReader::integer(const JsonNode *node, const QString &path, int *out, double min, double max)
{
    qint64 v = 0;
    if (!integer64(node, path, &v, min, max))
        return false;
    *out = int(v);
    return true;
}

bool TreeReader::number(const JsonNode *node, const QString &path, double *out, bool allowInf)
{
    if (allowInf
        && ((node->isString() && node->string == QLatin1String("inf"))
            || (node->isNumber() && std::isinf(node->number) && node->number > 0))) {
        *out = std::numeric_limits<double>::infinity();
        return true;
    }
    if (!node->isNumber() || !std::isfinite(node->number)) {
        error(node, path,
            allowInf ? Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a number or \"inf\"") }
                     : Reason { QT_TRANSLATE_NOOP("ServeScope::Problem", "must be a number") });
        return false;
    }
    *out = node->number;
    return true;
}

bool TreeReader::stringAt(const JsonNode &obj, const char *key, const QString &base, QString *out)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    return !n || string(n, join(base, key), out);
}

bool TreeReader::boolAt(const JsonNode &obj, const char *key, const QString &base, bool *out)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    return !n || boolean(n, join(base, key), out);
}

bool TreeReader::intAt(const JsonNode &obj, const char *key, const QString &base, int *out, double min, double max)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    return !n || integer(n, join(base, key), out, min, max);
}

bool TreeReader::numberAt(const JsonNode &obj, const char *key, const QString &base, double *out, bool allowInf)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    return !n || number(n, join(base, key), out, allowInf);
}

bool TreeReader::stringListAt(const JsonNode &obj, const char *key, const QString &base, QStringList *out)
{
    const JsonNode *n = obj.member(QLatin1String(key));
    if (!n)
        return true;
    const QString path = join(base, key);
    if (!array(n, path))
        return false;
    out->clear();
    bool ok = true;
    for (size_t i = 0; i < n->children.size(); ++i) {
        QString s;
        ok = string(&n->children[i], path + QStringLiteral("[%1]").arg(i), &s) && ok;
        *out << s;
    }
    return ok;
}

namespace {

bool isSecretKeyName(const QString &key)
{
    QString k;
    for (QChar c : key) {
        if (c != QLatin1Char('_') && c != QLatin1Char('-'))
            k += c.toLower();
    }
    static const char *const names[] = { "apikey", "xapikey", "authorization", "apitoken", "accesstoken", "bearertoken",
        "openaiapikey", "secretkey", "password" };
    for (const char *n : names) {
        if (k == QLatin1String(n))
            return true;
    }
    return false;
}

bool holdsValue(const JsonNode &n)
{
    return !(n.isNull() || (n.isString() && n.string.trimmed().isEmpty()) || (n.isObject() && n.children.empty()));
}

const char *const kBearer = QT_TRANSLATE_NOOP(
    "ServeScope::Problem", "holds a literal bearer token; files may only name the key (api_key_env or keychain_entry)");
const char *const kLiteralKey = QT_TRANSLATE_NOOP("ServeScope::Problem",
    "a literal API key is not allowed; files may only name the key (api_key_env or keychain_entry)");

void scan(const JsonNode &n, const QString &path, QStringList *errors, QHash<QString, QString> *shown)
{
    const QString where = path.isEmpty() ? QStringLiteral("(top)") : path;
    auto refuse = [&](const JsonNode &at, const QString &p, const char *what) {
        const Reason why(what);
        errors->append(compose(&at, p, why.text(), false));
        if (shown)
            shown->insert(errors->last(), compose(&at, p, why.translated(), true));
    };
    if (n.isString() && n.string.trimmed().startsWith(QLatin1String("Bearer "), Qt::CaseInsensitive)) {
        refuse(n, where, kBearer);
        return;
    }
    if (n.isObject()) {
        for (size_t i = 0; i < n.keys.size(); ++i) {
            const QString p = path.isEmpty() ? n.keys[i] : path + QLatin1Char('.') + n.keys[i];
            if (isSecretKeyName(n.keys[i]) && holdsValue(n.children[i]))
                refuse(n.children[i], p, kLiteralKey);
            else
                scan(n.children[i], p, errors, shown);
        }
        return;
    }
    if (!n.isArray())
        return;
    for (size_t i = 0; i < n.children.size(); ++i) {
        const JsonNode &c = n.children[i];
        const QString p = where + QStringLiteral("[%1]").arg(i);
        // ["--api-key", "VALUE"] in an argv, or ["api_key", "VALUE"] as an env snapshot pair
        if (c.isString() && i + 1 < n.children.size()) {
            const QString flag = c.string.trimmed();
            const JsonNode &next = n.children[i + 1];
            const bool flagLike = isSecretKeyName(flag.startsWith(QLatin1String("--")) ? flag.mid(2) : flag);
            if (flagLike && holdsValue(next) && !(next.isString() && next.string.startsWith(QLatin1Char('{')))) {
                refuse(next, where + QStringLiteral("[%1]").arg(i + 1), kLiteralKey);
                ++i;
                continue;
            }
        }
        if (c.isString() && c.string.startsWith(QLatin1String("--api-key="))) {
            refuse(c, p, kLiteralKey);
            continue;
        }
        scan(c, p, errors, shown);
    }
}

} // namespace

bool scanForSecrets(const JsonNode &root, QStringList *errors, QHash<QString, QString> *shown)
{
    const qsizetype before = errors->size();
    scan(root, QString(), errors, shown);
    return errors->size() == before;
}

} // namespace ServeScope
