// SPDX-License-Identifier: MIT
#include "model/promptlist.h"

namespace ServeScope {

PromptList::~PromptList() = default;

namespace {

class BuiltPrompts final : public PromptList {
public:
    explicit BuiltPrompts(QList<PreparedRequest> requests)
        : m_requests(std::move(requests))
    {
    }
    int size() const override { return int(m_requests.size()); }
    PreparedRequest at(int index) const override { return m_requests.at(index); }

private:
    const QList<PreparedRequest> m_requests;
};

class SomePrompts final : public PromptList {
public:
    SomePrompts(std::shared_ptr<const PromptList> all, QList<int> indices)
        : m_all(std::move(all))
        , m_indices(std::move(indices))
    {
    }
    int size() const override { return int(m_indices.size()); }
    PreparedRequest at(int index) const override { return m_all->at(m_indices.at(index)); }

private:
    const std::shared_ptr<const PromptList> m_all;
    const QList<int> m_indices;
};

} // namespace

std::shared_ptr<const PromptList> builtPrompts(QList<PreparedRequest> requests)
{
    return std::make_shared<const BuiltPrompts>(std::move(requests));
}

std::shared_ptr<const PromptList> somePrompts(std::shared_ptr<const PromptList> all, QList<int> indices)
{
    return std::make_shared<const SomePrompts>(std::move(all), std::move(indices));
}

} // namespace ServeScope
