// SPDX-License-Identifier: MIT
#pragma once

#include "workload/trace.h"

#include <QPointer>
#include <QWidget>

#include <memory>

class QLabel;
class QThread;

namespace ServeScope {

/// What a trace dataset's file holds, before it is replayed: its requests, duration and rate, its lengths, the
/// share of prompt tokens in repeated blocks, and small histograms of requests over time and of input and output
/// lengths; or why the file cannot be replayed, with its line. The file is read on a thread of its own.
class TracePreview final : public QWidget {
    Q_OBJECT
public:
    explicit TracePreview(QWidget *parent = nullptr);
    ~TracePreview() override;

    /// Reads `path` again when it, the format, the block size or the file changed since the last call.
    void preview(const QString &path, const QString &format, int blockSize);
    /// The line under the histograms (tests read it).
    QString summary() const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// The preview shows the file asked for last.
    void updated();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    class Strip;
    void show(const TraceProfile &profile, const QString &error);

    QLabel *m_text;
    Strip *m_strip;
    QString m_key;
    quint64 m_generation = 0;
    QList<QPointer<QThread>> m_readers;
};

} // namespace ServeScope
