// SPDX-License-Identifier: MIT
// File → Merge shards…: the shard runs of a sharded load (`run --shard I/N`) joined into one run.
#include "mainwindow.h"

#include "projectsession.h"
#include "run/shardmerge.h"
#include "runsession.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <QThread>

#include <memory>

namespace ServeScope {

void MainWindow::mergeShardFiles(const QStringList &files)
{
    if (files.isEmpty())
        return;
    if (m_run->isRunning()) {
        showWarning(tr("Merge shards"), tr("Shards can be merged when the run in progress has ended."));
        return;
    }
    if (needsProjectFirst([this, files] { mergeShardFiles(files); }))
        return;
    QList<ShardSource> sources;
    for (const QString &f : files)
        sources << ShardSource { f, QString() };
    statusBar()->showMessage(tr("Merging %n shard(s)…", nullptr, int(files.size())));
    auto merge = std::make_shared<ShardMerge>();
    QThread *thread = QThread::create(
        [merge, sources, target = m_session->path()] { *merge = mergeShards(sources, target, QString()); });
    connect(thread, &QThread::finished, this, [this, thread, merge] {
        thread->deleteLater();
        if (!merge->ok) {
            statusBar()->showMessage(tr("The shards were not merged."), 6000);
            showWarning(tr("Merge shards"), tr("The shards were not merged: %1").arg(merge->error));
            return;
        }
        // The merged run is listed, then selected.
        auto *once = new QObject(this);
        connect(m_session, &ProjectSession::runsListed, once, [this, once, id = merge->runId] {
            once->deleteLater();
            compareRuns({ id });
        });
        m_session->listRuns();
        QString text = tr("%n shard(s) merged into run %1: %2 requests completed, %3 failed.", nullptr, merge->shards)
                           .arg(merge->runId)
                           .arg(merge->completed)
                           .arg(merge->failed);
        text += u'\n'
            + tr("The shards' first requests were %1 ms apart; at the widest point (%2) %3 ms.")
                  .arg(QString::number(merge->startSpreadMs, 'f', 1), merge->pointSpreadAt,
                      QString::number(merge->pointSpreadMs, 'f', 1));
        if (!merge->findings.isEmpty()) {
            text += u'\n' + tr("Findings:");
            for (const Reason &f : std::as_const(merge->findings))
                text += u'\n' + f.translated();
        }
        statusBar()->showMessage(tr("Shards merged into run %1.").arg(merge->runId), 6000);
        auto *box = new QMessageBox(merge->findings.isEmpty() ? QMessageBox::Information : QMessageBox::Warning,
            tr("Merge shards"), text, QMessageBox::Ok, this);
        box->setObjectName(QStringLiteral("mergeShardsResult"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    thread->start();
}

} // namespace ServeScope
