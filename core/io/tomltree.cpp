// SPDX-License-Identifier: MIT
// TOML (toml++) to JsonNode, so the TOML layouts share the readers, limits and secret scan.
#include "importers.h"

#define TOML_HEADER_ONLY 1
#ifdef SERVESCOPE_FUZZ_BUILD
// The fuzz build keeps assertions on, but toml++'s are no-ops in the build ServeScope ships
// (NDEBUG, and g++ 12 has no __builtin_assume); with them off the sanitizers check the code
// path that really runs after one would fail.
#define TOML_ASSERT(expr) static_assert(true)
#endif
#include <toml++/toml.h>

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ServeScope {

namespace {

constexpr const char *kCtx = "ServeScope::Syntax";

// "line L, column C: reason" in the C locale and in the application's language.
void located(const toml::source_region &at, const Reason &why, QString *error, QString *shown)
{
    Reason line = Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1, column %2: %3"),
        { QString::number(at.begin.line), QString::number(at.begin.column), why.text() });
    *error = line.text();
    line.args.last() = why.translated();
    if (shown)
        *shown = line.translated();
}

struct Converter {
    QString error;
    QString shown;

    bool fail(const toml::node &n, const char *reason)
    {
        if (error.isEmpty())
            located(n.source(), Reason::in(kCtx, reason, {}), &error, &shown);
        return false;
    }

    bool convert(const toml::node &n, JsonNode *out, int depth)
    {
        if (depth > 64)
            return fail(n, QT_TRANSLATE_NOOP("ServeScope::Syntax", "nesting deeper than 64 levels"));
        out->line = int(n.source().begin.line);
        out->column = int(n.source().begin.column);
        if (const toml::table *t = n.as_table())
            return convertTable(*t, out, depth);
        if (const toml::array *a = n.as_array()) {
            out->type = JsonNode::Type::Array;
            for (const toml::node &item : *a) {
                JsonNode child;
                if (!convert(item, &child, depth + 1))
                    return false;
                out->children.push_back(std::move(child));
            }
            return true;
        }
        if (const auto *s = n.as_string()) {
            out->type = JsonNode::Type::String;
            out->string = utf8Text(QByteArrayView(s->get().data(), qsizetype(s->get().size())));
            return true;
        }
        if (const auto *i = n.as_integer()) {
            out->type = JsonNode::Type::Number;
            out->number = double(i->get());
            return true;
        }
        if (const auto *f = n.as_floating_point()) {
            if (std::isnan(f->get()))
                return fail(n, QT_TRANSLATE_NOOP("ServeScope::Syntax", "nan is not a number ServeScope accepts"));
            out->type = JsonNode::Type::Number;
            out->number = f->get();
            return true;
        }
        if (const auto *b = n.as_boolean()) {
            *out = JsonNode::makeBool(b->get());
            out->line = int(n.source().begin.line);
            return true;
        }
        return fail(n, QT_TRANSLATE_NOOP("ServeScope::Syntax", "dates and times are not supported here"));
    }

    bool convertTable(const toml::table &t, JsonNode *out, int depth)
    {
        out->type = JsonNode::Type::Object;
        // toml++ keeps tables sorted by key; restore the file order, which is the point order.
        std::vector<std::pair<QString, const toml::node *>> members;
        for (auto &&[key, value] : t)
            members.emplace_back(QString::fromStdString(std::string(key.str())), &value);
        std::stable_sort(members.begin(), members.end(), [](const auto &a, const auto &b) {
            const auto &sa = a.second->source().begin;
            const auto &sb = b.second->source().begin;
            return sa.line != sb.line ? sa.line < sb.line : sa.column < sb.column;
        });
        for (const auto &m : members) {
            JsonNode child;
            if (!convert(*m.second, &child, depth + 1))
                return false;
            out->add(m.first, std::move(child));
        }
        return true;
    }
};

} // namespace

bool parseTomlTree(const QByteArray &bytes, JsonNode *out, QString *error, QString *shown)
{
    if (bytes.size() > kMaxExperimentFileBytes)
        return syntaxFailure(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "file is larger than %1 bytes"),
                                 { QString::number(kMaxExperimentFileBytes) }),
            error, shown);
    if (const int line = firstInvalidUtf8Line(bytes))
        return syntaxFailure(Reason::in(kCtx, QT_TRANSLATE_NOOP("ServeScope::Syntax", "line %1: invalid UTF-8"),
                                 { QString::number(line) }),
            error, shown);
    if (!checkTomlForParser(bytes, error, shown))
        return false;
    try {
        const toml::table table = toml::parse(std::string_view(bytes.constData(), size_t(bytes.size())));
        Converter c;
        if (!c.convert(table, out, 0)) {
            *error = c.error;
            if (shown)
                *shown = c.shown;
            return false;
        }
        out->line = 0;
        return true;
    } catch (const toml::parse_error &e) {
        // toml++'s description names the problem but not the offending value.
        const QString description = QString::fromUtf8(e.description().data(), qsizetype(e.description().size()));
        located(e.source(), Reason::in(kCtx, "%1", { description }), error, shown);
        return false;
    }
}

} // namespace ServeScope
