// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QList>

#include <memory>
#include <optional>

namespace ServeScope {

/// The prompt a request sends, as a project keeps it once per hash: the user message or the completion
/// prompt, text or token IDs.
struct PromptContent {
    PromptHash hash;
    QString text;
    QByteArray tokens; ///< token IDs as little-endian int32, empty for a text prompt
};

/// The prompt `request`'s body sends; nullopt when the body holds none (neither text nor token IDs).
std::optional<PromptContent> promptOf(const PreparedRequest &request);

/// The requests of one point, read by index from any thread (the engine's workers): bodies built before the
/// point, or built as each is sent where they are cheap to build and costly to keep (a million random prompts).
class PromptList {
public:
    virtual ~PromptList();
    virtual int size() const = 0;
    /// Request `index`, 0 <= index < size().
    virtual PreparedRequest at(int index) const = 0;
    /// The prompt request `index` sends: promptOf(at(index)), or the same without building the body where
    /// the list builds bodies as they are sent.
    virtual std::optional<PromptContent> prompt(int index) const;
};

/// Requests whose bodies are all built.
std::shared_ptr<const PromptList> builtPrompts(QList<PreparedRequest> requests);
/// The requests of `all` at `indices`, in that order (a shard's share).
std::shared_ptr<const PromptList> somePrompts(std::shared_ptr<const PromptList> all, QList<int> indices);

} // namespace ServeScope
