// SPDX-License-Identifier: MIT
#include "keytext.h"

namespace ServeScope {

bool isKeyPadding(QChar c)
{
    switch (c.unicode()) {
    case 0x200B: // zero-width space
    case 0x200C: // zero-width non-joiner
    case 0x200D: // zero-width joiner
    case 0x2060: // word joiner
    case 0xFEFF: // byte-order mark / zero-width no-break space
        return true;
    default:
        return c.isSpace();
    }
}

QStringView trimmedKeyText(QStringView text)
{
    qsizetype begin = 0;
    qsizetype end = text.size();
    while (begin < end && isKeyPadding(text[begin]))
        ++begin;
    while (end > begin && isKeyPadding(text[end - 1]))
        --end;
    return text.mid(begin, end - begin);
}

} // namespace ServeScope
