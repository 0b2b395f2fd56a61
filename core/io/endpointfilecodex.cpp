// SPDX-License-Identifier: MIT
// Codex's files: auth.json (the key, and what gateways' setup guides add beside it) and config.toml (the model,
// the provider and how to reach it).
#include "endpointfilereaders.h"

#include "model/validation.h"

#include <QCoreApplication>

namespace ServeScope::EndpointFiles {

namespace {

// Codex's own default provider: OpenAI's Responses API, the key in OPENAI_API_KEY.
void builtInOpenAi(Reading &r)
{
    r.setOpenAiBase(QStringLiteral("https://api.openai.com/v1"), Api::Responses, QString());
}

struct ProviderChoice {
    QString name;
    const JsonNode *table = nullptr; ///< [model_providers.NAME]; nullptr for the built-in provider
    QString model;
};

// model and model_provider, from the active [profiles.NAME] when `profile` names one.
bool chooseProvider(const JsonNode &root, Reading &r, ProviderChoice *out)
{
    bool bad = false;
    const JsonNode *model = stringMember(root, "model", QString(), r, &bad);
    const JsonNode *provider = stringMember(root, "model_provider", QString(), r, &bad);
    const JsonNode *profile = stringMember(root, "profile", QString(), r, &bad);
    if (bad)
        return false;
    if (!stringOf(profile).isEmpty()) {
        const JsonNode *profiles = root.member(QLatin1String("profiles"));
        const JsonNode *p = profiles && profiles->isObject() ? profiles->member(stringOf(profile)) : nullptr;
        if (p && p->isObject()) {
            const QString at = QLatin1String("profiles.") + stringOf(profile) + QLatin1Char('.');
            if (const JsonNode *m = stringMember(*p, "model", at, r, &bad))
                model = m;
            if (const JsonNode *m = stringMember(*p, "model_provider", at, r, &bad))
                provider = m;
            if (bad)
                return false;
        } else {
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                       "profile %1 has no [profiles.%1] table: the top-level settings are used"),
                { stringOf(profile) });
        }
    }
    out->model = stringOf(model);
    out->name = stringOf(provider);
    const JsonNode *providers = root.member(QLatin1String("model_providers"));
    if (providers && !providers->isObject()) {
        r.fail(
            QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 must be a table"), { QStringLiteral("model_providers") });
        return false;
    }
    if (out->name.isEmpty() && providers && providers->keys.size() == 1) {
        out->name = providers->keys.front();
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                   "model_provider is not set: the only provider, [model_providers.%1], is used (Codex itself would "
                   "use its built-in OpenAI provider)"),
            { out->name });
    }
    if (out->name.isEmpty())
        out->name = QStringLiteral("openai");
    out->table = providers ? providers->member(out->name) : nullptr;
    if (out->table && !out->table->isObject()) {
        r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 must be a table"),
            { QLatin1String("model_providers.") + out->name });
        return false;
    }
    if (!out->table && out->name != QLatin1String("openai")) {
        r.fail(QT_TRANSLATE_NOOP(
                   "ServeScope::EndpointFile", "model_provider is %1, but the file has no [model_providers.%1] table"),
            { out->name });
        return false;
    }
    return true;
}

bool readProvider(const ProviderChoice &choice, Reading &r)
{
    const JsonNode &t = *choice.table;
    const QString at = QLatin1String("model_providers.") + choice.name + QLatin1Char('.');
    bool bad = false;
    const JsonNode *baseUrl = stringMember(t, "base_url", at, r, &bad);
    const JsonNode *wireApi = stringMember(t, "wire_api", at, r, &bad);
    const JsonNode *envKey = stringMember(t, "env_key", at, r, &bad);
    const JsonNode *bearer = stringMember(t, "experimental_bearer_token", at, r, &bad);
    if (bad)
        return false;
    Api api = Api::Chat;
    if (const QString wire = stringOf(wireApi); wire == QLatin1String("responses")) {
        api = Api::Responses;
    } else if (!wire.isEmpty() && wire != QLatin1String("chat")) {
        r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 must be chat or responses"),
            { at + QLatin1String("wire_api") });
        return false;
    }
    if (stringOf(baseUrl).isEmpty()) {
        r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 is not set"), { at + QLatin1String("base_url") });
        return false;
    }
    if (!r.setOpenAiBase(baseUrl->string, api, at + QLatin1String("base_url")))
        return false;
    QList<Reading::KeyCandidate> keys;
    if (bearer)
        keys.append({ at + QLatin1String("experimental_bearer_token"), bearer->string, {} });
    if (const QString name = stringOf(envKey); !name.isEmpty()) {
        if (!isValidEnvironmentName(name)) {
            // Often the key itself pasted in the wrong place: never repeated.
            r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "%1 is not an environment variable name"),
                { at + QLatin1String("env_key") });
            return false;
        }
        keys.append({ at + QLatin1String("env_key"), QString(), name });
    }
    r.chooseKey(keys);
    for (const char *ignored : { "query_params", "http_headers", "env_http_headers" }) {
        if (t.member(QLatin1String(ignored)))
            r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
                       "%1 is not imported: add what the provider needs to the endpoint by hand"),
                { at + QLatin1String(ignored) });
    }
    return true;
}

} // namespace

EndpointFileRead readCodexConfig(const JsonNode &root)
{
    Reading r(EndpointFileKind::CodexConfig);
    ProviderChoice choice;
    if (!chooseProvider(root, r, &choice))
        return r.result;
    if (choice.table) {
        if (!readProvider(choice, r))
            return r.result;
    } else {
        builtInOpenAi(r);
        r.result.endpoint.apiKeyEnv = QStringLiteral("OPENAI_API_KEY");
        r.result.keySource = QStringLiteral("OPENAI_API_KEY");
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "Codex's built-in OpenAI provider: https://api.openai.com/v1, the Responses API, the key from "
            "environment variable OPENAI_API_KEY"));
    }
    r.result.endpoint.model = choice.model;
    if (choice.model.isEmpty())
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model not set in the file"));
    return r.finish();
}

EndpointFileRead readCodexAuth(const JsonNode &root)
{
    Reading r(EndpointFileKind::CodexAuth);
    bool bad = false;
    const JsonNode *openAiKey = stringMember(root, "OPENAI_API_KEY", QString(), r, &bad);
    const JsonNode *apiKey = stringMember(root, "api_key", QString(), r, &bad);
    const JsonNode *baseUrl = stringMember(root, "base_url", QString(), r, &bad);
    const JsonNode *openAiBase = stringMember(root, "OPENAI_BASE_URL", QString(), r, &bad);
    const JsonNode *model = stringMember(root, "model", QString(), r, &bad);
    if (bad)
        return r.result;
    if (!openAiKey && !apiKey && root.member(QLatin1String("tokens")))
        return r.fail(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "the file holds a ChatGPT sign-in, not an API key: there is nothing to import"));
    const JsonNode *base = !stringOf(baseUrl).isEmpty() ? baseUrl : openAiBase;
    if (!stringOf(base).isEmpty()) {
        if (!r.setOpenAiBase(base->string, Api::Chat,
                base == baseUrl ? QStringLiteral("base_url") : QStringLiteral("OPENAI_BASE_URL")))
            return r.result;
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "auth.json does not name the API: chat is assumed (Codex's config.toml names it with wire_api)"));
    } else {
        builtInOpenAi(r);
        r.note(QT_TRANSLATE_NOOP("ServeScope::EndpointFile",
            "no base_url: Codex's built-in OpenAI provider is used (https://api.openai.com/v1, the Responses API)"));
    }
    QList<Reading::KeyCandidate> keys;
    if (openAiKey)
        keys.append({ QStringLiteral("OPENAI_API_KEY"), openAiKey->string, {} });
    if (apiKey)
        keys.append({ QStringLiteral("api_key"), apiKey->string, {} });
    r.chooseKey(keys);
    r.result.endpoint.model = stringOf(model);
    if (r.result.endpoint.model.isEmpty())
        r.note(
            QT_TRANSLATE_NOOP("ServeScope::EndpointFile", "model not set in the file (Codex keeps it in config.toml)"));
    return r.finish();
}

} // namespace ServeScope::EndpointFiles
