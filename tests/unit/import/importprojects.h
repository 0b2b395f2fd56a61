// SPDX-License-Identifier: MIT
// What the import tests share: each import goes into a new project file of a temporary folder,
// through a real store writer, and its stored summaries read back.
#pragma once

#include "import/resultimport.h"
#include "storage/projectstore.h"
#include "storage/storewriter.h"

#include <QFile>
#include <QtDebug>
#include <QTemporaryDir>

namespace ServeScope::Testing {

inline QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

class ImportProjects {
public:
    struct Imported {
        QString project;
        ImportOutcome outcome;
    };

    QString newProject() { return m_dir.filePath(QStringLiteral("p%1.servescope").arg(++m_projects)); }

    static ImportOutcome importInto(const QString &project, const QString &file)
    {
        StoreWriter writer;
        QString error;
        if (!writer.open(project, &error))
            qWarning() << error;
        ResultImporter importer(writer);
        ImportOutcome o = importer.importFile(file);
        writer.close();
        return o;
    }

    Imported importNew(const QString &file)
    {
        Imported r;
        r.project = newProject();
        r.outcome = importInto(r.project, file);
        return r;
    }

    QString write(const QString &name, const QByteArray &text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qWarning() << path << f.errorString();
        return path;
    }

    static QVector<PointSummary> summaries(const QString &project, qint64 run)
    {
        ProjectStore store;
        QVector<PointSummary> out;
        if (!store.open(project) || !store.pointSummaries(run, &out))
            qWarning() << store.errorString();
        return out;
    }

private:
    QTemporaryDir m_dir;
    int m_projects = 0;
};

} // namespace ServeScope::Testing
