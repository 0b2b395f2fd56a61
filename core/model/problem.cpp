// SPDX-License-Identifier: MIT
#include "problem.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {

// One pass over the template, so an argument that itself holds "%2" stays as it is.
QString fill(const QString &text, const QStringList &args)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const int n = i + 1 < text.size() ? text[i + 1].digitValue() : -1;
        if (text[i] == u'%' && n >= 1 && n <= args.size()) {
            out += args[n - 1];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace

QString Reason::text() const
{
    return source ? fill(QString::fromUtf8(source), args) : QString();
}

QStringList ShownLines::shownLines(const QStringList &lines) const
{
    QStringList out;
    out.reserve(lines.size());
    for (const QString &l : lines)
        out << shownLine(l);
    return out;
}

QString Reason::translated() const
{
    return source ? fill(QCoreApplication::translate(context, source), args) : QString();
}

Problem Problem::of(const QString &path, const Reason &why, Severity severity, int variant)
{
    return Problem { path, why.text(), severity, variant, why };
}

QString Problem::toString() const
{
    return path.isEmpty() ? reason : path + QLatin1String(": ") + reason;
}

QString Problem::translatedReason() const
{
    return source.isEmpty() ? reason : source.translated();
}

QString Problem::translatedString() const
{
    return path.isEmpty() ? translatedReason() : path + QLatin1String(": ") + translatedReason();
}

bool hasErrors(const QList<Problem> &problems)
{
    for (const Problem &p : problems) {
        if (p.isError())
            return true;
    }
    return false;
}

} // namespace ServeScope
