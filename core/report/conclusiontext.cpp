// SPDX-License-Identifier: MIT
#include "report/conclusiontext.h"

#include "report/findingtext.h"
#include "report/metricnames.h"

#include <cmath>

namespace ServeScope::Report {

namespace {

QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("ServeScope::Report", text, disambiguation, n);
}

QString percent(double fraction)
{
    return QString::number(std::round(fraction * 100)) + u'%';
}

// "−79.6%" or, from twice the baseline on, "×17.0".
QString sizeOf(double relative, double ratio)
{
    if (std::isfinite(ratio) && ratio >= 2)
        return QStringLiteral("×") + QString::number(ratio, 'f', 1);
    if (!std::isfinite(relative))
        return tr("from nothing");
    return MetricName::formatPercent(relative) + u'%';
}

QString whereOf(const Conclusion::Change &ch, int points)
{
    if (ch.points.size() == 1)
        return tr("at %1").arg(ch.at);
    // Where the change was about the same everywhere, no point stands out.
    const bool even = std::isfinite(ch.relative) && std::abs(ch.relative) - ch.least <= 0.01 * std::abs(ch.relative);
    const QString where = ch.points.size() == points ? tr("at all %1 points").arg(points)
                                                     : tr("at %1").arg(ch.points.join(QStringLiteral(", ")));
    return even ? where : tr("%1 (largest at %2)").arg(where, ch.at);
}

// "Output throughput" reads "output throughput" inside a sentence; "TTFT p50" stays as it is.
QString inSentence(QString name)
{
    if (name.size() > 1 && name[0].isUpper() && name[1].isLower())
        name[0] = name[0].toLower();
    return name;
}

// The problems found in a variant, titled: what the decided changes come from.
QString problemsOf(const QString &variant, const QList<RunFinding> &findings)
{
    QStringList titles;
    for (const RunFinding &f : findings) {
        if (f.variant != variant || f.kind != RunFinding::Kind::Problem)
            continue;
        titles << (f.confirmation == RunFinding::Confirmation::Confirmed
                ? tr("%1, confirmed by the server's metrics").arg(findingTitle(f))
                : findingTitle(f));
    }
    titles.removeDuplicates();
    return titles.join(QStringLiteral("; "));
}

// "A and B ran different models (qwen3-4b, glm-4.6)…", or empty when they ran the same model at the same endpoint.
QString differenceOf(const ReportRun &a, const ReportRun &b)
{
    const QString modelA = a.servedModel.isEmpty() ? a.model : a.servedModel;
    const QString modelB = b.servedModel.isEmpty() ? b.model : b.servedModel;
    if (!modelA.isEmpty() && !modelB.isEmpty() && modelA != modelB)
        return tr("A and B ran different models (%1, %2): the changes compare the models, not one change of "
                  "configuration.")
            .arg(modelA, modelB);
    if (!a.baseUrl.isEmpty() && !b.baseUrl.isEmpty() && a.baseUrl != b.baseUrl)
        return tr("A and B ran against different endpoints (%1, %2): the changes include whatever differs "
                  "between them.")
            .arg(a.baseUrl, b.baseUrl);
    return {};
}

bool nothingDecided(const Conclusion &c)
{
    return c.outcome == QLatin1String("noise") || c.outcome == QLatin1String("statistics-only")
        || c.outcome == QLatin1String("no-verdict");
}

} // namespace

QString oneRunLimit(const NoiseFloors &f, int rerunPairs)
{
    const QString limit
        = tr("one run each: a change under %1 in throughput, %2 in TPOT/ITL, %3 in TTFT or %4 in a p99 cannot be "
             "told from run-to-run noise; rerun with 3 repeats to tell smaller ones")
              .arg(percent(f.throughput), percent(f.decode), percent(f.ttft), percent(f.tail));
    return rerunPairs > 0 ? limit + tr(" (the noise this project's own reruns showed)") : limit;
}

QString conclusionSentence(const Conclusion &c)
{
    if (c.outcome == QLatin1String("statistics-only"))
        return tr("%1: no verdict: statistics only (a side has no per-request data to judge a change by)")
            .arg(c.variant);
    if (c.outcome == QLatin1String("no-verdict"))
        return tr("%1: no verdict: no metric has a value on both sides that compares").arg(c.variant);
    if (c.outcome == QLatin1String("noise"))
        return tr("%1: no change beyond run-to-run noise at any point").arg(c.variant);
    // Changes decided at the same points say where once, at the end.
    const bool samePlaces
        = c.changes.size() > 1 && std::all_of(c.changes.cbegin(), c.changes.cend(), [&c](const Conclusion::Change &ch) {
              return ch.points == c.changes.first().points && ch.at == c.changes.first().at;
          });
    QStringList parts;
    for (const Conclusion::Change &ch : c.changes) {
        const QString where = samePlaces ? QString() : QStringLiteral(" ") + whereOf(ch, c.points);
        if (ch.metric == QLatin1String("success_rate"))
            parts << (c.failureClass.isEmpty() ? tr("%1 of requests failed").arg(percent(c.worstFailedShare))
                                               : tr("%1 of requests failed: %2")
                                                     .arg(percent(c.worstFailedShare), failureWords(c.failureClass)))
                    + where;
        else
            parts << tr("%1 %2").arg(inSentence(MetricName::of(ch.metric).name), sizeOf(ch.relative, ch.ratio)) + where;
    }
    if (samePlaces)
        parts.last() += QStringLiteral(" ") + whereOf(c.changes.first(), c.points);
    const QString outcome = c.outcome == QLatin1String("worse") ? tr("worse")
        : c.outcome == QLatin1String("better")                  ? tr("better")
                                                                : tr("mixed");
    if (parts.isEmpty()) // decided only beyond the metrics a conclusion names (the delta table lists them)
        return tr("%1: %2").arg(c.variant, outcome);
    const QString last = parts.takeLast();
    const QString changes = parts.isEmpty() ? last : parts.join(tr(", ")) + tr(" and ") + last;
    return tr("%1: %2 — %3").arg(c.variant, outcome, changes);
}

QList<ConclusionBlock> conclusionBlocks(const QList<DeltaSection> &sections, const QList<ReportRun> &runs)
{
    const bool lettered = runs.size() > 1;
    QList<ConclusionBlock> out;
    for (qsizetype k = 0; k < sections.size(); ++k) {
        const DeltaSection &section = sections[k];
        const QList<Conclusion> conclusions = concludeVariants(section.rows);
        const QList<RunFinding> findings = runs.value(lettered ? k + 1 : 0).findings;
        ConclusionBlock block;
        block.title = lettered ? section.title : QString();
        if (lettered && k + 1 < runs.size())
            block.caution = differenceOf(runs[0], runs[k + 1]);
        for (qsizetype i = 0; i < conclusions.size();) {
            // Variants alike with nothing decided: one sentence naming them all.
            qsizetype j = i + 1;
            QStringList names { conclusions[i].variant };
            while (nothingDecided(conclusions[i]) && j < conclusions.size()
                && conclusions[j].outcome == conclusions[i].outcome) {
                names << conclusions[j].variant;
                ++j;
            }
            Conclusion c = conclusions[i];
            c.variant = names.join(QStringLiteral(", "));
            QString sentence = conclusionSentence(c);
            if (!nothingDecided(c))
                if (const QString problems = problemsOf(c.variant, findings); !problems.isEmpty())
                    sentence += QStringLiteral(" — ") + problems;
            block.sentences << sentence;
            i = j;
        }
        if (!block.sentences.isEmpty())
            out << block;
    }
    // One run's variants, each against the first: their sentences read as one list.
    if (!lettered && out.size() > 1) {
        ConclusionBlock merged;
        for (const ConclusionBlock &b : std::as_const(out))
            merged.sentences << b.sentences;
        out = { merged };
    }
    return out;
}

bool oneRunCompared(const QList<DeltaSection> &sections)
{
    for (const DeltaSection &section : sections) {
        for (const DeltaRow &r : section.rows) {
            // Only rows the noise floors judged: a blank or incomparable row says nothing of one run each.
            const bool judged = r.decided() || r.verdict == Verdict::Noise;
            if (judged && std::min(r.a.repeats.n, r.b.repeats.n) < kRepeatsForSpread)
                return true;
        }
    }
    return false;
}

QString conclusionsHtml(const QList<DeltaSection> &sections, const QList<ReportRun> &runs)
{
    QStringList lines;
    for (const ConclusionBlock &b : conclusionBlocks(sections, runs)) {
        if (!b.title.isEmpty())
            lines << QStringLiteral("<b>%1</b>").arg(b.title.toHtmlEscaped());
        if (!b.caution.isEmpty())
            lines << QStringLiteral("<span style=\"color: #995500\">%1</span>").arg(b.caution.toHtmlEscaped());
        for (const QString &sentence : b.sentences)
            lines << sentence.toHtmlEscaped();
    }
    if (!lines.isEmpty() && oneRunCompared(sections)) {
        QString limit = oneRunLimit(sections.first().floors, sections.first().rerunPairs);
        limit[0] = limit[0].toUpper();
        lines << QStringLiteral("<span style=\"color: #777777\">%1.</span>").arg(limit.toHtmlEscaped());
    }
    return lines.join(QStringLiteral("<br>\n"));
}

QString foldedRows(int noise, int undecided)
{
    QStringList parts;
    if (noise > 0)
        parts << tr("%n within noise", nullptr, noise);
    if (undecided > 0)
        parts << tr("%n undecided", nullptr, undecided);
    return parts.join(QStringLiteral(", "));
}

QString failureWords(const QString &errorClass)
{
    static const std::pair<const char *, const char *> words[] = {
        { "auth", QT_TRANSLATE_NOOP("ServeScope::Report", "key refused (HTTP 401/403)") },
        { "not_found", QT_TRANSLATE_NOOP("ServeScope::Report", "not found (HTTP 404)") },
        { "rate_limited", QT_TRANSLATE_NOOP("ServeScope::Report", "rate-limited (HTTP 429)") },
        { "server_error", QT_TRANSLATE_NOOP("ServeScope::Report", "server error (HTTP 5xx)") },
        { "connect", QT_TRANSLATE_NOOP("ServeScope::Report", "connection refused or unreachable") },
        { "tls", QT_TRANSLATE_NOOP("ServeScope::Report", "TLS handshake failed") },
        { "timeout_connect", QT_TRANSLATE_NOOP("ServeScope::Report", "timed out connecting") },
        { "timeout_first_token", QT_TRANSLATE_NOOP("ServeScope::Report", "timed out before the first token") },
        { "timeout_idle", QT_TRANSLATE_NOOP("ServeScope::Report", "stream stalled") },
        { "timeout_total", QT_TRANSLATE_NOOP("ServeScope::Report", "timed out in all") },
        { "protocol", QT_TRANSLATE_NOOP("ServeScope::Report", "broken or truncated stream") },
    };
    for (const auto &[code, text] : words) {
        if (errorClass == QLatin1String(code))
            return tr(text);
    }
    return errorClass;
}

QString verdictText(const DeltaRow &r)
{
    switch (r.verdict) {
    case Verdict::Better:
        return tr("better");
    case Verdict::Worse:
        if (r.reason != QLatin1String("failures-rose"))
            return tr("worse");
        return r.failureClass.isEmpty()
            ? tr("worse: %1 failed").arg(percent(1 - r.b.repeats.median))
            : tr("worse: %1 failed (%2)").arg(percent(1 - r.b.repeats.median), failureWords(r.failureClass));
    case Verdict::Noise:
        // Short, for a narrow column: the conclusions above the tables say what the noise is.
        if (r.reason == QLatin1String("below-noise-floor") && std::isfinite(r.floor))
            return tr("within noise (<%1)").arg(percent(r.floor));
        if (r.reason == QLatin1String("below-jitter"))
            return tr("within noise (<%1 ms)").arg(kJitterMs);
        return tr("within noise");
    case Verdict::NotComparable:
        return r.reason.startsWith(QLatin1String("after-recompute"))
            ? tr("no verdict: defined differently (comparable after recompute)")
            : tr("no verdict: not comparable");
    case Verdict::Undecided:
        break;
    }
    if (r.reason == QLatin1String("censored"))
        return tr("—: no successful request in B");
    if (r.reason == QLatin1String("censored-baseline"))
        return tr("—: no successful request in A");
    if (r.reason == QLatin1String("statistics-only"))
        return tr("no verdict: statistics only");
    return tr("—: no value on one side");
}

} // namespace ServeScope::Report
