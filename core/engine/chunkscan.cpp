// SPDX-License-Identifier: MIT
#include "chunkscan.h"

#include <cstring>

namespace ServeScope {

namespace {

constexpr int kMaxDepth = 64;
constexpr int kMaxIntegerDigits = 15; // far from where QJsonDocument's integer/double choice matters
constexpr int kMaxCountDigits = 9; // always within int

// The objects whose members a record reads, and those members in the order of their slot.
enum class Ctx : quint8 { Other, Top, Usage, Details, PromptDetails, Choice0, Delta };

int memberSlot(Ctx ctx, QByteArrayView key) noexcept
{
    static constexpr QByteArrayView top[] = { "model", "system_fingerprint", "usage", "choices" };
    static constexpr QByteArrayView usage[]
        = { "prompt_tokens", "completion_tokens", "completion_tokens_details", "prompt_tokens_details" };
    static constexpr QByteArrayView details[] = { "reasoning_tokens" };
    static constexpr QByteArrayView promptDetails[] = { "cached_tokens" };
    static constexpr QByteArrayView choice[] = { "finish_reason", "text", "delta" };
    static constexpr QByteArrayView delta[] = { "content", "reasoning_content", "reasoning" };
    auto find = [key](const auto &names) {
        for (int i = 0; i < int(std::size(names)); ++i)
            if (key.size() == names[i].size() && std::memcmp(key.data(), names[i].data(), size_t(key.size())) == 0)
                return i;
        return -1;
    };
    switch (ctx) {
    case Ctx::Top:
        return find(top);
    case Ctx::Usage:
        return find(usage);
    case Ctx::Details:
        return find(details);
    case Ctx::PromptDetails:
        return find(promptDetails);
    case Ctx::Choice0:
        return find(choice);
    case Ctx::Delta:
        return find(delta);
    case Ctx::Other:
        break;
    }
    return -1;
}

bool isNonCharacter(char32_t cp) noexcept
{
    return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

int hexValue(char c) noexcept
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// Four hex digits at p (bounds checked by the caller).
int hex4(const char *p) noexcept
{
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0)
            return -1;
        v = v << 4 | h;
    }
    return v;
}

bool isDigit(char c) noexcept
{
    return c >= '0' && c <= '9';
}

class Scanner {
public:
    Scanner(QByteArrayView json, ChunkFields *out)
        : m_p(json.data())
        , m_end(json.data() + json.size())
        , m_out(out)
    {
    }

    bool document()
    {
        skipSpace();
        if (!at('{') || !object(Ctx::Top, 1))
            return false;
        skipSpace();
        return m_p == m_end;
    }

private:
    const char *m_p;
    const char *m_end;
    ChunkFields *m_out;

    bool at(char c) const noexcept { return m_p != m_end && *m_p == c; }
    void skipSpace() noexcept
    {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }

    bool value(int depth)
    {
        skipSpace();
        if (m_p == m_end)
            return false;
        switch (*m_p) {
        case '{':
            return object(Ctx::Other, depth + 1);
        case '[':
            return array(false, depth + 1);
        case '"': {
            QByteArrayView ignored;
            return string(&ignored, nullptr);
        }
        case 't':
            return literal("true");
        case 'f':
            return literal("false");
        case 'n':
            return literal("null");
        default:
            return number(nullptr);
        }
    }

    // Enters the container at m_p ('{' or '['): false past the depth limit, *empty when `close`
    // follows at once (then consumed).
    bool open(char close, int depth, bool *empty)
    {
        if (depth > kMaxDepth)
            return false;
        ++m_p;
        skipSpace();
        *empty = at(close);
        if (*empty)
            ++m_p;
        return true;
    }

    // After a member or an element: a ',' (*more) or the container's `close` (consumed); false otherwise.
    bool next(char close, bool *more)
    {
        skipSpace();
        *more = at(',');
        if (!*more && !at(close))
            return false;
        ++m_p;
        return true;
    }

    bool object(Ctx ctx, int depth)
    {
        bool empty = false;
        if (!open('}', depth, &empty))
            return false;
        if (empty)
            return true;
        unsigned seen = 0;
        for (bool more = true; more;) {
            skipSpace();
            QByteArrayView key;
            bool escaped = false;
            if (!at('"') || !string(&key, &escaped) || escaped)
                return false;
            skipSpace();
            if (!at(':'))
                return false;
            ++m_p;
            const int slot = memberSlot(ctx, key);
            if (slot >= 0) {
                if (seen & (1u << slot))
                    return false;
                seen |= 1u << slot;
                if (!member(ctx, slot, depth))
                    return false;
            } else if (!value(depth)) {
                return false;
            }
            if (!next('}', &more))
                return false;
        }
        if (ctx == Ctx::Usage)
            m_out->usage = true; // at least one member
        return true;
    }

    // A member the record reads: its value is taken only when it has the type the reading needs.
    bool member(Ctx ctx, int slot, int depth)
    {
        skipSpace();
        switch (ctx) {
        case Ctx::Top:
            if (slot == 0 && at('"'))
                return string(&m_out->model, nullptr);
            if (slot == 1 && at('"'))
                return string(&m_out->systemFingerprint, nullptr);
            if (slot == 2 && at('{'))
                return object(Ctx::Usage, depth + 1);
            if (slot == 3 && at('['))
                return array(true, depth + 1);
            break;
        case Ctx::Usage:
            if (slot >= 2)
                return at('{') ? object(slot == 2 ? Ctx::Details : Ctx::PromptDetails, depth + 1) : value(depth);
            return count(slot == 0 ? &m_out->promptTokens : &m_out->completionTokens, depth);
        case Ctx::Details:
            return count(&m_out->reasoningTokens, depth); // left at -1 when it is not a number
        case Ctx::PromptDetails:
            return count(&m_out->cachedTokens, depth);
        case Ctx::Choice0:
            if (slot == 0 && at('"')) {
                QByteArrayView ignored;
                m_out->finishReason = true;
                return string(&ignored, nullptr);
            }
            if (slot == 1 && at('"'))
                return string(&m_out->text, nullptr);
            if (slot == 2 && at('{'))
                return object(Ctx::Delta, depth + 1);
            break;
        case Ctx::Delta:
            if (at('"'))
                return string(slot == 0 ? &m_out->content
                        : slot == 1     ? &m_out->reasoningContent
                                        : &m_out->reasoning,
                    nullptr);
            break;
        case Ctx::Other:
            break;
        }
        return value(depth);
    }

    bool array(bool choices, int depth)
    {
        bool empty = false;
        if (!open(']', depth, &empty))
            return false;
        for (bool first = true, more = !empty; more; first = false) {
            skipSpace();
            if (choices && first && at('{')) {
                if (!object(Ctx::Choice0, depth + 1))
                    return false;
            } else if (!value(depth)) {
                return false;
            }
            if (!next(']', &more))
                return false;
        }
        return true;
    }

    // A token count as QJsonValue::toInt() reads it: a number's value, 0 for any other type.
    bool count(int *out, int depth)
    {
        if (m_p == m_end || (*m_p != '-' && !isDigit(*m_p)))
            return value(depth);
        const char *start = m_p;
        bool fraction = false;
        if (!number(&fraction) || fraction)
            return false;
        const bool negative = *start == '-';
        const char *digits = start + (negative ? 1 : 0);
        if (m_p - digits > kMaxCountDigits)
            return false;
        int v = 0;
        for (const char *d = digits; d != m_p; ++d)
            v = v * 10 + (*d - '0');
        *out = negative ? -v : v;
        return true;
    }

    bool number(bool *fraction)
    {
        if (at('-'))
            ++m_p;
        const char *digits = m_p;
        if (at('0')) {
            ++m_p;
        } else if (m_p != m_end && *m_p >= '1' && *m_p <= '9') {
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
        } else {
            return false;
        }
        if (m_p - digits > kMaxIntegerDigits)
            return false;
        if (at('.')) {
            ++m_p;
            if (m_p == m_end || !isDigit(*m_p))
                return false;
            while (m_p != m_end && isDigit(*m_p))
                ++m_p;
            if (fraction)
                *fraction = true;
        }
        return !(at('e') || at('E'));
    }

    bool literal(const char *word)
    {
        const size_t n = std::strlen(word);
        if (size_t(m_end - m_p) < n || std::memcmp(m_p, word, n) != 0)
            return false;
        m_p += n;
        return true;
    }

    bool string(QByteArrayView *raw, bool *escaped)
    {
        const char *start = ++m_p; // after '"'
        while (m_p != m_end) {
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                *raw = QByteArrayView(start, m_p - start);
                ++m_p;
                return true;
            }
            if (c == '\\') {
                if (escaped)
                    *escaped = true;
                if (!escape())
                    return false;
            } else if (c < 0x20) {
                return false;
            } else if (c < 0x80) {
                ++m_p;
            } else if (!utf8()) {
                return false;
            }
        }
        return false;
    }

    bool escape()
    {
        ++m_p; // '\'
        if (m_p == m_end)
            return false;
        switch (*m_p++) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            return true;
        case 'u':
            break;
        default:
            return false;
        }
        if (m_end - m_p < 4)
            return false;
        const int unit = hex4(m_p);
        m_p += 4;
        if (unit <= 0 || (unit >= 0xDC00 && unit <= 0xDFFF))
            return false;
        char32_t cp = char32_t(unit);
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            if (m_end - m_p < 6 || m_p[0] != '\\' || m_p[1] != 'u')
                return false;
            const int low = hex4(m_p + 2);
            if (low < 0xDC00 || low > 0xDFFF)
                return false;
            m_p += 6;
            cp = 0x10000 + ((char32_t(unit) - 0xD800) << 10) + (char32_t(low) - 0xDC00);
        }
        return !isNonCharacter(cp);
    }

    // One well-formed UTF-8 sequence (no overlong form, surrogate or value past U+10FFFF).
    bool utf8()
    {
        const auto *s = reinterpret_cast<const unsigned char *>(m_p);
        const unsigned char lead = s[0];
        int n;
        char32_t cp;
        if (lead >= 0xC2 && lead <= 0xDF) {
            n = 2;
            cp = lead & 0x1F;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            n = 3;
            cp = lead & 0x0F;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            n = 4;
            cp = lead & 0x07;
        } else {
            return false;
        }
        if (m_end - m_p < n)
            return false;
        for (int i = 1; i < n; ++i) {
            if ((s[i] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i] & 0x3F);
        }
        if (n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)))
            return false;
        if (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))
            return false;
        if (isNonCharacter(cp))
            return false;
        m_p += n;
        return true;
    }
};

void appendUnescaped(QString &out, const char *from, const char *to)
{
    const QByteArrayView run(from, to - from);
    for (const char c : run) {
        if (static_cast<unsigned char>(c) >= 0x80) {
            out += QString::fromUtf8(run);
            return;
        }
    }
    out += QLatin1StringView(run);
}

} // namespace

bool scanChunk(QByteArrayView json, ChunkFields *out)
{
    *out = ChunkFields();
    return Scanner(json, out).document();
}

void appendJsonString(QString &out, QByteArrayView raw)
{
    const char *p = raw.data();
    const char *end = p + raw.size();
    while (p != end) {
        const char *slash = static_cast<const char *>(std::memchr(p, '\\', size_t(end - p)));
        if (!slash) {
            appendUnescaped(out, p, end);
            return;
        }
        appendUnescaped(out, p, slash);
        const char kind = slash[1];
        p = slash + 2;
        switch (kind) {
        case 'b':
            out += QChar(u'\b');
            break;
        case 'f':
            out += QChar(u'\f');
            break;
        case 'n':
            out += QChar(u'\n');
            break;
        case 'r':
            out += QChar(u'\r');
            break;
        case 't':
            out += QChar(u'\t');
            break;
        case 'u':
            out += QChar(char16_t(hex4(p))); // a surrogate pair is two escapes, appended one by one
            p += 4;
            break;
        default: // '"', '\\', '/'
            out += QChar(char16_t(kind));
            break;
        }
    }
}

} // namespace ServeScope
