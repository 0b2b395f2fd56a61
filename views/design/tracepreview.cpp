// SPDX-License-Identifier: MIT
#include "tracepreview.h"

#include "backgroundjob.h"

#include <QDateTime>

#include <algorithm>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QResizeEvent>
#include <QThread>
#include <QVBoxLayout>

namespace ServeScope {

/// Three small bar charts side by side, each with its caption.
class TracePreview::Strip final : public QWidget {
public:
    using QWidget::QWidget;
    void setProfile(const TraceProfile &p)
    {
        m_profile = p;
        update();
    }
    QSize sizeHint() const override { return { 360, 4 * fontMetrics().height() }; }
    QSize minimumSizeHint() const override { return { 180, 4 * fontMetrics().height() }; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        if (m_profile.requests == 0)
            return;
        QPainter p(this);
        const int gap = fontMetrics().height() / 2, caption = fontMetrics().height();
        const int w = (width() - 2 * gap) / 3;
        const QString captions[3]
            = { TracePreview::tr("Requests over time"), TracePreview::tr("Input tokens (0–%1)").arg(m_profile.inputMax),
                  TracePreview::tr("Output tokens (0–%1)").arg(m_profile.outputMax) };
        const QVector<int> *series[3] = { &m_profile.overTime, &m_profile.inputLengths, &m_profile.outputLengths };
        for (int k = 0; k < 3; ++k) {
            const QRect area(k * (w + gap), 0, w, height());
            p.setPen(palette().color(QPalette::WindowText));
            p.drawText(area.adjusted(0, 0, 0, -(height() - caption)), Qt::AlignLeft | Qt::AlignVCenter,
                fontMetrics().elidedText(captions[k], Qt::ElideRight, w));
            const QRect plot = area.adjusted(0, caption + 2, 0, 0);
            p.fillRect(plot, palette().color(QPalette::AlternateBase));
            const QVector<int> &bins = *series[k];
            const int most = bins.isEmpty() ? 0 : *std::max_element(bins.begin(), bins.end());
            if (most == 0)
                continue;
            const double bw = double(plot.width()) / bins.size();
            for (int i = 0; i < bins.size(); ++i) {
                const int h = int(double(bins[i]) / most * (plot.height() - 1));
                p.fillRect(QRectF(plot.left() + i * bw, plot.bottom() - h + 1, qMax(1.0, bw - 1), h),
                    palette().color(QPalette::Highlight));
            }
        }
    }

private:
    TraceProfile m_profile;
};

TracePreview::TracePreview(QWidget *parent)
    : QWidget(parent)
    , m_text(new QLabel)
    , m_strip(new Strip)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_text->setWordWrap(true);
    m_text->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_text->setObjectName(QStringLiteral("traceSummary"));
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_strip);
    layout->addWidget(m_text);
    m_strip->hide(); // until a trace is read
}

TracePreview::~TracePreview()
{
    for (const QPointer<QThread> &t : std::as_const(m_readers)) {
        if (t)
            t->wait(); // a trace is read in seconds at most; its result is dropped
    }
}

// The form lays the row out by its size hint, and a wrapped label's own hint is a narrow, tall guess: the row is
// sized for the lines the text takes at the width it has.
QSize TracePreview::sizeHint() const
{
    const int w = width() > 50 ? width() : 480;
    const int strip = m_strip->isVisibleTo(this) ? m_strip->sizeHint().height() + layout()->spacing() : 0;
    return { w, strip + m_text->heightForWidth(w) };
}

QSize TracePreview::minimumSizeHint() const
{
    return { 120, sizeHint().height() };
}

void TracePreview::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        updateGeometry();
}

QString TracePreview::summary() const
{
    return m_text->text();
}

void TracePreview::preview(const QString &path, const QString &format, int blockSize)
{
    const QFileInfo info(path);
    const QString key = QStringList { path, format, QString::number(blockSize), QString::number(info.size()),
        info.lastModified().toString(Qt::ISODateWithMs) }
                            .join(QChar(0));
    if (key == m_key)
        return;
    m_key = key;
    const quint64 generation = ++m_generation;
    if (path.isEmpty()) {
        show({}, tr("Name the trace file to see what it holds."));
        return;
    }
    m_text->setText(tr("Reading the trace…"));
    auto result = std::make_shared<std::pair<TraceProfile, QString>>();
    const auto read = [path, format, blockSize, result] {
        Trace trace;
        Reason why;
        if (readTrace(path, format, kMaxTraceRows, &trace, &why))
            result->first = traceProfile(trace, blockSize);
        else
            result->second = why.translated();
    };
    m_readers.removeAll(nullptr); // the finished ones
    m_readers << runInBackground(this, QStringLiteral("trace-preview"), read, [this, result, generation] {
        if (generation == m_generation)
            show(result->first, result->second);
    });
}

void TracePreview::show(const TraceProfile &p, const QString &error)
{
    m_strip->setProfile(p);
    m_strip->setVisible(p.requests > 0);
    updateGeometry();
    if (!error.isEmpty()) {
        m_text->setText(error);
    } else {
        const QLocale l;
        QStringList parts;
        const QString kind = p.format == TraceFormat::Mooncake ? tr("Mooncake trace")
            : p.format == TraceFormat::Azure                   ? tr("Azure trace")
                                                               : tr("BurstGPT trace");
        parts << tr("%1: %2 requests over %3 s (%4 req/s)")
                     .arg(kind, l.toString(p.requests), l.toString(p.durationSeconds, 'f', 1),
                         l.toString(p.rate, 'g', 4));
        parts << tr("input median %1, p90 %2 tokens")
                     .arg(l.toString(p.inputMedian, 'f', 0), l.toString(p.inputP90, 'f', 0));
        parts << tr("output median %1, p90 %2 tokens")
                     .arg(l.toString(p.outputMedian, 'f', 0), l.toString(p.outputP90, 'f', 0));
        parts << tr("%1% of prompt tokens in repeated blocks").arg(l.toString(100 * p.repeatedShare, 'f', 1));
        if (p.skipped > 0)
            parts << tr("%1 without tokens left out").arg(l.toString(p.skipped));
        m_text->setText(parts.join(QStringLiteral(" · ")));
    }
    Q_EMIT updated();
}

} // namespace ServeScope
