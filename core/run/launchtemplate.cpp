// SPDX-License-Identifier: MIT
#include "launchtemplate.h"

#include <QJsonValue>
#include <QLocale>
#include <QRegularExpression>

namespace ServeScope {

namespace {

bool renderValue(const QJsonValue &value, QString *out)
{
    if (value.isBool()) {
        *out = value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    } else if (value.isDouble()) {
        const double d = value.toDouble();
        *out = d == qint64(d) ? QString::number(qint64(d)) : QString::number(d, 'g', QLocale::FloatingPointShortest);
    } else if (value.isString()) {
        *out = value.toString();
    } else {
        return false;
    }
    return true;
}

bool placeholderValue(const Experiment &resolved, const QUrl &base, const QString &name, QString *out, QString *why)
{
    if (name == QLatin1String("port")) {
        *out = QString::number(base.port(base.scheme() == QLatin1String("https") ? 443 : 80));
        return true;
    }
    if (name == QLatin1String("endpoint.model")) {
        *out = resolved.endpoint.model;
        return true;
    }
    if (!name.startsWith(QLatin1String("server.args."))) {
        *why = QStringLiteral("is not server.args.NAME, endpoint.model or port");
        return false;
    }
    const QString arg = name.mid(12);
    if (!resolved.server.args.contains(arg)) {
        *why = QStringLiteral("names no server.args value in this variant");
        return false;
    }
    if (!renderValue(resolved.server.args.value(arg), out)) {
        *why = QStringLiteral("has a value that is not one string, number or boolean");
        return false;
    }
    return true;
}

} // namespace

namespace {

/// The words of the launch argv rendered; with `preview`, a placeholder that cannot be rendered stands
/// as `<unset>` and the rest goes on, else the first one ends it with *error.
bool renderWords(const Experiment &resolved, const QUrl &base, bool preview, QStringList *argv, QString *error)
{
    static const QRegularExpression placeholder(QStringLiteral("\\{([^{}]*)\\}"));
    argv->clear();
    for (qsizetype i = 0; i < resolved.server.launchArgv.size(); ++i) {
        const QString &word = resolved.server.launchArgv.at(i);
        QString rendered;
        qsizetype from = 0;
        auto it = placeholder.globalMatch(word);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            QString value, why;
            if (!placeholderValue(resolved, base, m.captured(1), &value, &why)) {
                if (!preview) {
                    *error
                        = QStringLiteral("server.launch.argv[%1]: placeholder {%2} %3").arg(i).arg(m.captured(1), why);
                    return false;
                }
                value = QStringLiteral("<unset>");
            }
            rendered += word.mid(from, m.capturedStart() - from) + value;
            from = m.capturedEnd();
        }
        *argv << rendered + word.mid(from);
    }
    return true;
}

} // namespace

bool renderLaunchArgv(const Experiment &resolved, const QUrl &base, QStringList *argv, QString *error)
{
    if (!renderWords(resolved, base, false, argv, error))
        return false;
    if (argv->isEmpty() || argv->first().trimmed().isEmpty()) {
        *error = QStringLiteral("server.launch.argv[0] must name a program");
        return false;
    }
    return true;
}

QStringList previewLaunchArgv(const Experiment &resolved, const QUrl &base)
{
    QStringList argv;
    renderWords(resolved, base, true, &argv, nullptr);
    return argv;
}

} // namespace ServeScope
