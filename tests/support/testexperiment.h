// SPDX-License-Identifier: MIT
// A valid experiment the model tests mutate.
#pragma once

#include "model/experiment.h"

namespace ServeScope::Testing {

inline Experiment validExperiment()
{
    Experiment x;
    x.name = QStringLiteral("sweep");
    x.endpoint.baseUrl = QStringLiteral("http://127.0.0.1:8000");
    x.endpoint.model = QStringLiteral("Qwen2-7B-Instruct");
    x.endpoint.apiKeyEnv = QStringLiteral("TAOTOKEN_API_KEY");
    x.server.args.set(QStringLiteral("max_num_seqs"), 256);
    x.server.launchArgv = QStringList { QStringLiteral("vllm"), QStringLiteral("serve"), QStringLiteral("m"),
        QStringLiteral("--max-num-seqs"), QStringLiteral("{server.args.max_num_seqs}") };
    x.server.readyPath = QStringLiteral("/v1/models");
    x.sampling.set(QStringLiteral("temperature"), 0.0);
    for (int c : { 1, 8, 16 }) {
        LoadPoint p;
        p.concurrency = c;
        p.inputLen = 128;
        p.outputLen = 64;
        p.numPrompts = 200;
        x.load.points << p;
    }
    x.load.warmupRequests = 10;
    x.load.repeat = 3;
    x.variants << Variant { QStringLiteral("baseline"), {}, QString(), false };
    x.variants << Variant { QStringLiteral("seqs-64"), { { QStringLiteral("server.args.max_num_seqs"), 64 } },
        QString(), false };
    return x;
}

} // namespace ServeScope::Testing
