// SPDX-License-Identifier: MIT
#include "model/promptlist.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtEndian>

namespace ServeScope {

std::optional<PromptContent> promptOf(const PreparedRequest &request)
{
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
    const QJsonValue prompt = messages.isEmpty() ? body.value(QStringLiteral("prompt"))
                                                 : messages.last().toObject().value(QStringLiteral("content"));
    PromptContent content { request.promptHash, {}, {} };
    if (prompt.isString()) {
        content.text = prompt.toString();
        return content;
    }
    if (!prompt.isArray())
        return std::nullopt;
    const QJsonArray ids = prompt.toArray();
    content.tokens.reserve(ids.size() * 4);
    for (const QJsonValue &id : ids) {
        const qint32 v = qToLittleEndian(qint32(id.toInt()));
        content.tokens.append(reinterpret_cast<const char *>(&v), sizeof v);
    }
    return content;
}

PromptList::~PromptList() = default;

std::optional<PromptContent> PromptList::prompt(int index) const
{
    return promptOf(at(index));
}

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
    std::optional<PromptContent> prompt(int index) const override { return m_all->prompt(m_indices.at(index)); }

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
