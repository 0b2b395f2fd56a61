// SPDX-License-Identifier: MIT
#include "sonnet.h"

#include "model/problem.h"

#include <QRegularExpression>

#include <algorithm>
#include <numeric>

#include <cmath>
#include <random>

namespace ServeScope {

namespace {

quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int words(const QString &text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return int(text.split(space, Qt::SkipEmptyParts).size());
}

} // namespace

SonnetPrompts::SonnetPrompts(const QStringList &lines, int prefixLen, const TokenCounter &counter)
    : m_lines(lines)
    , m_prefixLen(prefixLen)
    , m_counter(counter)
{
    calibrate();
}

QList<int> SonnetPrompts::count(const QStringList &texts) const
{
    if (!m_counter)
        return QList<int>(texts.size(), -1);
    return m_counter(texts);
}

void SonnetPrompts::calibrate()
{
    // vLLM: the mean token count of a line, and the instruction's length in the chat template.
    const QString all = m_lines.join(QString());
    const QList<int> c = count({ QLatin1String(kBasePrompt), all, QString() });
    m_counted = c.size() == 3 && c[0] > 0 && c[1] > 0 && c[2] >= 0 && c[1] > c[2];
    if (m_counted) {
        m_baseOffset = c[0];
        m_avgLen = double(c[1] - c[2]) / double(m_lines.size());
    } else {
        m_baseOffset = words(QLatin1String(kBasePrompt));
        m_avgLen = std::max(1.0, double(words(all)) / double(m_lines.size()));
    }
}

int SonnetPrompts::prefixLines() const
{
    return std::max(int(std::lround((m_prefixLen - m_baseOffset) / m_avgLen)), 0);
}

int SonnetPrompts::inputLines(int inputLen) const
{
    return int(std::lround((inputLen - m_baseOffset) / m_avgLen));
}

QString SonnetPrompts::draw(quint64 seed, int inputLines) const
{
    const int prefix = std::min(prefixLines(), int(m_lines.size()));
    QString prompt = QLatin1String(kBasePrompt);
    for (int i = 0; i < prefix; ++i)
        prompt += m_lines.at(i);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<qsizetype> pick(0, m_lines.size() - 1);
    for (int i = prefixLines(); i < inputLines; ++i)
        prompt += m_lines.at(pick(rng));
    return prompt;
}

bool SonnetPrompts::build(
    quint64 seed, int inputLen, int count, QStringList *prompts, QList<int> *lengths, QString *error) const
{
    if (inputLen <= m_baseOffset) {
        *error = Reason::shown("ServeScope::Dataset",
            QT_TRANSLATE_NOOP(
                "ServeScope::Dataset", "sonnet: input_len %1 must be greater than the instruction's %2 tokens"),
            { QString::number(inputLen), QString::number(m_baseOffset) });
        return false;
    }
    const int lines = inputLines(inputLen);
    if (prefixLines() > lines) {
        *error = Reason::shown("ServeScope::Dataset",
            QT_TRANSLATE_NOOP("ServeScope::Dataset", "sonnet: prefix_len %1 is longer than input_len %2"),
            { QString::number(m_prefixLen), QString::number(inputLen) });
        return false;
    }
    prompts->clear();
    lengths->clear();
    for (int i = 0; i < count; ++i) {
        *prompts << draw(mix(seed ^ mix(quint64(i))), lines);
        *lengths << -1;
    }
    // Draw again those the server counts longer than the input length, as vLLM does.
    QList<int> pending(count);
    std::iota(pending.begin(), pending.end(), 0);
    for (int attempt = 1; m_counted && !pending.isEmpty(); ++attempt) {
        QStringList texts;
        for (int i : std::as_const(pending))
            texts << prompts->at(i);
        const QList<int> counts = this->count(texts);
        QList<int> longer;
        for (qsizetype k = 0; k < pending.size(); ++k) {
            (*lengths)[pending[k]] = counts.value(k, -1);
            if (counts.value(k, -1) > inputLen)
                longer << pending[k];
        }
        if (!longer.isEmpty() && attempt == kMaxDraws) {
            *error = Reason::shown("ServeScope::Dataset",
                QT_TRANSLATE_NOOP(
                    "ServeScope::Dataset", "sonnet: %1 of %2 prompts stayed longer than input_len %3 after %4 draws"),
                { QString::number(longer.size()), QString::number(count), QString::number(inputLen),
                    QString::number(kMaxDraws) });
            return false;
        }
        for (int i : std::as_const(longer))
            (*prompts)[i] = draw(mix(seed ^ mix(quint64(i)) ^ mix(quint64(attempt) << 32)), lines);
        pending = longer;
    }
    return true;
}

} // namespace ServeScope
