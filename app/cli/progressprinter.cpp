// SPDX-License-Identifier: MIT
#include "progressprinter.h"

#include "clitext.h"

#include <cstdio>
#include <unistd.h>

namespace ServeScope::Cli {

namespace {

QString duration(double seconds)
{
    if (seconds < 0)
        return QStringLiteral("?");
    const int s = int(seconds + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// The run's phase words in the user's language, for the bar on a terminal only.
QString phaseText(const QString &phase)
{
    static const struct {
        const char *phase;
        const char *text;
    } phases[] = {
        { "measuring", QT_TRANSLATE_NOOP("ServeScope::Cli", "measuring") },
        { "preparing prompts", QT_TRANSLATE_NOOP("ServeScope::Cli", "preparing prompts") },
        { "saving", QT_TRANSLATE_NOOP("ServeScope::Cli", "saving") },
        { "starting server", QT_TRANSLATE_NOOP("ServeScope::Cli", "starting server") },
        { "waiting for start-at", QT_TRANSLATE_NOOP("ServeScope::Cli", "waiting for start-at") },
        { "warmup", QT_TRANSLATE_NOOP("ServeScope::Cli", "warmup") },
    };
    for (const auto &p : phases) {
        if (phase == QLatin1String(p.phase))
            return CliText::tr(p.text);
    }
    return phase;
}

} // namespace

ProgressPrinter::ProgressPrinter(QObject *parent)
    : QObject(parent)
    , m_tty(::isatty(STDERR_FILENO))
{
    m_sinceLine.start();
}

QString ProgressPrinter::line(const RunSnapshot &s, bool forPeople) const
{
    const double fraction = s.fraction;
    // The plain `progress:` line is machine output (C locale); the bar on a terminal is for people.
    const QString text = forPeople
        ? CliText::tr(
            "%1% %2 [%3/%4] %5 r%6/%7 %8 | in-flight %9 ok %10 fail %11 | %12 tok/s ttft p50 %13 ms | ETA %14")
        : QStringLiteral(
            "%1% %2 [%3/%4] %5 r%6/%7 %8 | in-flight %9 ok %10 fail %11 | %12 tok/s ttft p50 %13 ms | ETA %14");
    return text.arg(int(fraction * 100), 3)
        .arg(s.variant)
        .arg(s.point + 1)
        .arg(s.pointCount)
        .arg(s.pointLabel)
        .arg(s.repeat)
        .arg(s.repeatCount)
        .arg(forPeople ? phaseText(s.phase) : s.phase)
        .arg(s.inFlight)
        .arg(s.completed)
        .arg(s.failed)
        .arg(s.outputTokensPerS, 0, 'f', 0)
        .arg(s.ttftP50Ms, 0, 'f', 1)
        .arg(duration(s.etaSeconds));
}

void ProgressPrinter::update(const RunSnapshot &s)
{
    const QString point = s.variant + QLatin1Char('/') + s.pointLabel + QLatin1Char('/') + QString::number(s.repeat);
    if (m_tty) {
        const double fraction = s.fraction;
        const int width = 24;
        const int filled = int(fraction * width);
        const QString bar = QString(filled, QLatin1Char('#')) + QString(width - filled, QLatin1Char('.'));
        std::fprintf(stderr, "\r\033[K[%s] %s", qPrintable(bar), qPrintable(line(s, true)));
        std::fflush(stderr);
        m_barShown = true;
    } else if (point != m_lastPoint || m_sinceLine.elapsed() >= 2000) {
        std::fprintf(stderr, "progress: %s\n", qPrintable(line(s, false)));
        m_sinceLine.restart();
    }
    m_lastPoint = point;
}

void ProgressPrinter::clearBar()
{
    if (m_barShown) {
        std::fprintf(stderr, "\r\033[K");
        m_barShown = false;
    }
}

void ProgressPrinter::log(const QString &level, const QString &text)
{
    clearBar();
    std::fprintf(stderr, "%s: %s\n", qPrintable(level), qPrintable(text));
}

void ProgressPrinter::done()
{
    if (m_barShown)
        std::fprintf(stderr, "\n");
    m_barShown = false;
}

} // namespace ServeScope::Cli
