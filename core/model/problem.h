// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace ServeScope {

enum class Severity : quint8 { Error, Warning };

/// A reason as the sources write it: a C-locale template, marked with
/// `QT_TRANSLATE_NOOP(context, ...)` (by default "ServeScope::Problem") so that the window can show
/// it translated, and the arguments for its %1, %2, ... (paths, numbers, names: never translated).
struct Reason {
    Reason() = default;
    Reason(const char *source, QStringList args = {})
        : source(source)
        , args(std::move(args))
    {
    }
    /// A template marked in another translation context.
    static Reason in(const char *context, const char *source, QStringList args)
    {
        Reason r(source, std::move(args));
        r.context = context;
        return r;
    }
    /// `in(context, source, args).translated()`: a message written for people, in the application's language.
    static QString shown(const char *context, const char *source, QStringList args = {})
    {
        return in(context, source, std::move(args)).translated();
    }
    const char *source = nullptr;
    QStringList args;
    const char *context = "ServeScope::Problem";

    bool isEmpty() const noexcept { return !source; }
    QString text() const; ///< C locale: what the CLI prints and tests compare
    QString translated() const; ///< in the application's language (the template's translation, if any)
};

/// A result's messages in the application's language: the translated line of each C-locale line
/// that has one (the CLI's stdout and the tests use the C lines; stderr and the window show these).
struct ShownLines {
    QHash<QString, QString> shown;
    /// `line` in the application's language where it has a translation, else `line` itself.
    QString shownLine(const QString &line) const { return shown.value(line, line); }
    QStringList shownLines(const QStringList &lines) const;
};

/// One finding about an experiment: `path` is a file path such as `load.points[2].concurrency`,
/// `reason` a C-locale sentence such as `must be at least 1` (printed as "path: reason").
struct Problem {
    Problem() = default;
    Problem(QString path, QString reason, Severity severity = Severity::Error, int variant = -1, Reason source = {})
        : path(std::move(path))
        , reason(std::move(reason))
        , severity(severity)
        , variant(variant)
        , source(std::move(source))
    {
    }

    QString path;
    QString reason;
    Severity severity = Severity::Error;
    int variant = -1; ///< the variant it concerns, -1 when it concerns the whole experiment
    Reason source; ///< what `reason` was made from; empty for a reason with no template

    static Problem of(const QString &path, const Reason &why, Severity severity = Severity::Error, int variant = -1);
    bool isError() const noexcept { return severity == Severity::Error; }
    /// "path: reason"
    QString toString() const;
    /// "path: reason" with the reason in the application's language (the path stays as written)
    QString translatedString() const;
    QString translatedReason() const;
    bool operator==(const Problem &o) const
    {
        return path == o.path && reason == o.reason && severity == o.severity && variant == o.variant;
    }
};

bool hasErrors(const QList<Problem> &problems);

} // namespace ServeScope

Q_DECLARE_METATYPE(ServeScope::Problem)
