// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace ServeScope::Yaml {

/// Reads the block-style YAML subset that llm-d Benchmark Reports use into JSON values: mappings
/// and sequences by indentation (sequences at their key's indent too), `- key: value` items,
/// plain, single- and double-quoted scalars, `#` comments, JSON-style flow collections on one
/// line, null/~/empty, true/false, integers and floats (.inf, .nan). Anything else — block
/// scalars (| >), anchors and aliases (& *), tags (!!), several documents, tabs in indentation —
/// is refused: *error says what and *errorLine where (1-based); the value is then null.
/// Timestamps and other scalars stay strings.
QJsonValue parse(const QByteArray &text, QString *error, int *errorLine = nullptr);

} // namespace ServeScope::Yaml
