// SPDX-License-Identifier: MIT
// Experiment readers (native JSON, bench_config, env snapshot, both TOML layouts): any input is
// read or refused with a reason, and what is read validates and survives a write and re-read.
#include "fuzztargets.h"
#include "io/experimentfile.h"
#include "model/validation.h"

namespace ServeScope::Fuzz {

namespace {

QString checkRead(const ExperimentReadResult &r, ExperimentFormat asked)
{
    if (!r.ok)
        return r.errors.isEmpty() ? QStringLiteral("refused without a reason (%1)").arg(experimentFormatName(asked))
                                  : QString();
    (void)validate(r.experiment);
    const ExperimentReadResult again = readExperimentJson(writeExperimentJson(r.experiment));
    if (!again.ok)
        return QStringLiteral("the written JSON of a %1 read does not read back: %2")
            .arg(experimentFormatName(r.format), again.errors.value(0));
    if (!(again.experiment == r.experiment))
        return QStringLiteral("a write and re-read changed a %1 read").arg(experimentFormatName(r.format));
    return QString();
}

QString readAs(const QByteArray &bytes, std::initializer_list<ExperimentFormat> formats)
{
    for (const ExperimentFormat f : formats) {
        if (QString broken = checkRead(importExperiment(bytes, f, QStringLiteral("fuzz")), f); !broken.isEmpty())
            return broken;
    }
    return QString();
}

} // namespace

QString experimentJson(QByteArrayView input)
{
    const QByteArray bytes = input.toByteArray();
    if (QString broken = checkRead(readExperimentJson(bytes), ExperimentFormat::Json); !broken.isEmpty())
        return broken;
    return readAs(bytes, { ExperimentFormat::Auto, ExperimentFormat::BenchConfig, ExperimentFormat::EnvSnapshot });
}

QString experimentToml(QByteArrayView input)
{
    return readAs(
        input.toByteArray(), { ExperimentFormat::Auto, ExperimentFormat::TomlBench, ExperimentFormat::TomlLoadMatrix });
}

} // namespace ServeScope::Fuzz
