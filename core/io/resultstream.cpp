// SPDX-License-Identifier: MIT
#include "io/resultstream.h"

namespace ServeScope {

bool ResultFileStream::open(const QString &path, QString *error)
{
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read: %1").arg(m_file.errorString());
        return false;
    }
    m_line = 0;
    m_items = 0;
    m_whole = false;
    m_done = false;
    return true;
}

ResultFileStream::Item ResultFileStream::readWhole(ResultRun *run, QString *error)
{
    m_done = true;
    ++m_items;
    if (m_file.size() > kMaxObjectBytes) {
        *error = QStringLiteral("line 1: not a JSON object on one line, and larger than %1 bytes to read whole")
                     .arg(kMaxObjectBytes);
        return Item::Error;
    }
    m_file.seek(0);
    QString why;
    if (readResultObject(m_file.readAll(), 0, run, &why))
        return Item::Run;
    *error = QStringLiteral("line 1: %1").arg(why);
    return Item::Error;
}

ResultFileStream::Item ResultFileStream::next(ResultRun *run, QString *error)
{
    while (!m_done && !m_file.atEnd()) {
        const QByteArray line = m_file.readLine().trimmed();
        ++m_line;
        if (line.isEmpty())
            continue;
        QString why;
        if (readResultObject(line, m_line, run, &why)) {
            ++m_items;
            return Item::Run;
        }
        // vLLM writes one object per line; an object that opens a file and does not close on its
        // line is a single pretty-printed object.
        if (m_items == 0 && line.startsWith('{') && !line.endsWith('}'))
            return readWhole(run, error);
        ++m_items;
        *error = QStringLiteral("line %1: %2").arg(m_line).arg(why);
        return Item::Error;
    }
    if (m_items == 0 && !m_done) {
        m_done = true;
        *error = QStringLiteral("empty result file");
        return Item::Error;
    }
    m_done = true;
    return Item::End;
}

} // namespace ServeScope
