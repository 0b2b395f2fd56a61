// SPDX-License-Identifier: MIT
#pragma once

#include "model/records.h"

#include <QList>

#include <memory>

namespace ServeScope {

/// The requests of one point, read by index from any thread (the engine's workers): bodies built before the
/// point, or built as each is sent where they are cheap to build and costly to keep (a million random prompts).
class PromptList {
public:
    virtual ~PromptList();
    virtual int size() const = 0;
    /// Request `index`, 0 <= index < size().
    virtual PreparedRequest at(int index) const = 0;
};

/// Requests whose bodies are all built.
std::shared_ptr<const PromptList> builtPrompts(QList<PreparedRequest> requests);
/// The requests of `all` at `indices`, in that order (a shard's share).
std::shared_ptr<const PromptList> somePrompts(std::shared_ptr<const PromptList> all, QList<int> indices);

} // namespace ServeScope
