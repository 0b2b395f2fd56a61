// SPDX-License-Identifier: MIT
#include "apichoice.h"

#include "model/experiment.h"

#include <QComboBox>
#include <QCoreApplication>

namespace ServeScope {

namespace {
class ApiWords {
    Q_DECLARE_TR_FUNCTIONS(ServeScope::ApiWords)
};
} // namespace

void addApiItems(QComboBox *combo)
{
    const QList<QPair<Api, QString>> items {
        { Api::Chat, ApiWords::tr("Chat completions") },
        { Api::Completions, ApiWords::tr("Completions") },
        { Api::Responses, ApiWords::tr("Responses (OpenAI)") },
        { Api::Messages, ApiWords::tr("Messages (Anthropic)") },
        { Api::SglangGenerate, ApiWords::tr("SGLang generate") },
    };
    for (const auto &[api, label] : items)
        combo->addItem(QStringLiteral("%1 — %2").arg(label, defaultPath(api)), apiName(api));
}

} // namespace ServeScope
