// SPDX-License-Identifier: MIT
#pragma once

#include "io/jsontree.h"
#include "model/problem.h"

#include <QHash>
#include <QStringList>

namespace ServeScope {

/// Typed access to a JsonNode tree that records "path: reason (line N)" for every mismatch and
/// never quotes string values (they could be secrets). Used by the JSON, TOML and flat readers.
class TreeReader {
public:
    QStringList errors;
    QStringList warnings;
    /// The line in the application's language of each message recorded from a Reason, keyed by its
    /// C-locale line in `errors` or `warnings` (the CLI prints those; the window shows these).
    QHash<QString, QString> shown;
    /// Imported layouts (files written for other tools) warn about keys they do not know and
    /// ignore them; the native schema refuses them.
    bool warnUnknownKeys = false;

    void error(const JsonNode *node, const QString &path, const QString &reason);
    void warning(const JsonNode *node, const QString &path, const QString &reason);
    /// The same for a reason marked for translation (context "ServeScope::Problem").
    void error(const JsonNode *node, const QString &path, const Reason &why);
    void warning(const JsonNode *node, const QString &path, const Reason &why);
    /// Checks node is an object and reports each member not in allowed as an unknown key (an
    /// error, or with warnUnknownKeys a warning "unknown key; ignored").
    bool object(const JsonNode *node, const QString &path, std::initializer_list<const char *> allowed);
    /// Checks node is an object whose member names are free (table names, parameter names).
    bool anyObject(const JsonNode *node, const QString &path);
    bool array(const JsonNode *node, const QString &path);
    bool string(const JsonNode *node, const QString &path, QString *out);
    bool boolean(const JsonNode *node, const QString &path, bool *out);
    /// Integers within [min, max] (defaults: the int32 range).
    bool integer(
        const JsonNode *node, const QString &path, int *out, double min = -2147483648.0, double max = 2147483647.0);
    bool integer64(const JsonNode *node, const QString &path, qint64 *out, double min, double max);
    /// Finite numbers; with allowInf also the string "inf" (and a TOML inf) as +infinity.
    bool number(const JsonNode *node, const QString &path, double *out, bool allowInf = false);

    // Member helpers: do nothing and return true when obj has no member key.
    bool stringAt(const JsonNode &obj, const char *key, const QString &base, QString *out);
    bool boolAt(const JsonNode &obj, const char *key, const QString &base, bool *out);
    bool intAt(const JsonNode &obj, const char *key, const QString &base, int *out, double min = -2147483648.0,
        double max = 2147483647.0);
    bool numberAt(const JsonNode &obj, const char *key, const QString &base, double *out, bool allowInf = false);
    bool stringListAt(const JsonNode &obj, const char *key, const QString &base, QStringList *out);

    static QString join(const QString &base, const char *key);
};

/// False (with one error per finding) when the tree holds a literal credential: a non-empty
/// value under a key such as api_key, apiKey, authorization or x-api-key, an `--api-key VALUE`
/// pair in an argv list, or a "Bearer ..." string. Messages name the path, never the value;
/// `shown`, when given, receives each one's translated line keyed by it.
bool scanForSecrets(const JsonNode &root, QStringList *errors, QHash<QString, QString> *shown = nullptr);

} // namespace ServeScope
