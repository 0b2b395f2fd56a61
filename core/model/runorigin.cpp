// SPDX-License-Identifier: MIT
#include "model/runorigin.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace ServeScope {

QByteArray RunOrigin::toJson() const
{
    if (!isImported())
        return {};
    QJsonArray l;
    for (int line : lines)
        l.append(line);
    QJsonObject o { { QStringLiteral("kind"), QStringLiteral("import") }, { QStringLiteral("format"), format },
        { QStringLiteral("file"), file }, { QStringLiteral("lines"), l }, { QStringLiteral("arrays"), arrays },
        { QStringLiteral("note"), note } };
    if (!toolVersion.isEmpty())
        o.insert(QStringLiteral("tool_version"), toolVersion);
    if (pointsWithoutArrays >= 0)
        o.insert(QStringLiteral("points_without_arrays"), pointsWithoutArrays);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

RunOrigin RunOrigin::fromJson(const QByteArray &json)
{
    RunOrigin r;
    if (json.isEmpty())
        return r;
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    r.format = o.value(QLatin1String("format")).toString();
    r.file = o.value(QLatin1String("file")).toString();
    r.toolVersion = o.value(QLatin1String("tool_version")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("lines")).toArray())
        r.lines.append(v.toInt());
    r.arrays = o.value(QLatin1String("arrays")).toBool();
    r.pointsWithoutArrays = o.value(QLatin1String("points_without_arrays")).toInt(-1);
    r.note = o.value(QLatin1String("note")).toString();
    return r;
}

QString RunOrigin::describe() const
{
    if (!isImported())
        return {};
    QString out = QStringLiteral("imported from %1 (%2)")
                      .arg(file, toolVersion.isEmpty() ? format : format + u' ' + toolVersion);
    QList<int> numbered;
    std::copy_if(lines.cbegin(), lines.cend(), std::back_inserter(numbered), [](int l) { return l > 0; });
    if (numbered.size() == 1)
        out += QStringLiteral(", line %1").arg(numbered.first());
    else if (numbered.size() > 1) {
        QStringList parts;
        for (int l : std::as_const(numbered))
            parts << QString::number(l);
        out += QStringLiteral(", lines ") + parts.join(QLatin1Char(','));
    }
    return out;
}

} // namespace ServeScope
