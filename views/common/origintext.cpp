// SPDX-License-Identifier: MIT
#include "origintext.h"

#include <QCoreApplication>

namespace ServeScope {

namespace {

class OriginWords {
    Q_DECLARE_TR_FUNCTIONS(OriginWords)
public:
    static QString lacking(const RunOrigin &o)
    {
        if (o.arrays)
            return {};
        const int points = int(o.lines.size());
        if (o.pointsWithoutArrays < 0 || points == 0)
            return o.note; // stored before the count was: the C-locale sentence
        if (o.pointsWithoutArrays >= points)
            return tr("The file has no per-request arrays for its %n point(s): only the statistics it gives are "
                      "stored (no requests, so no bands, scatter or recomputed percentiles).",
                nullptr, points);
        return tr("The file has no per-request arrays for %1 of its %n point(s): only the statistics it gives are "
                  "stored for those (no requests, so no bands, scatter or recomputed percentiles).",
            nullptr, points)
            .arg(o.pointsWithoutArrays);
    }
    static QString from(const RunOrigin &o)
    {
        // "guidellm 0.8.0.dev18, report v2": another tool's file names its version.
        const QString format = o.toolVersion.isEmpty() ? o.format : o.format + u' ' + o.toolVersion;
        QStringList numbered;
        for (int l : o.lines) {
            if (l > 0)
                numbered << QString::number(l);
        }
        if (numbered.isEmpty())
            return tr("Imported from %1 (%2)").arg(o.file, format);
        return tr("Imported from %1 (%2), line(s) %3", nullptr, int(numbered.size()))
            .arg(o.file, format, numbered.join(tr(", ")));
    }
};

} // namespace

QString importedFromText(const RunOrigin &origin)
{
    if (!origin.isImported())
        return {};
    const QString lacking = OriginWords::lacking(origin);
    return OriginWords::from(origin) + (lacking.isEmpty() ? QString() : u'\n' + lacking);
}

} // namespace ServeScope
