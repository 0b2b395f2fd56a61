// SPDX-License-Identifier: MIT
// Test helper: writes requests to a project as fast as it can and prints every acknowledgement
// ("acked N": the first N requests are committed) until it is killed.
#include "recordfactory.h"
#include "storage/storewriter.h"

#include <QCoreApplication>

#include <cstdio>

using namespace ServeScope;

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: storage_writer_child PROJECT\n");
        return 2;
    }
    StoreWriter writer;
    writer.setCommittedCallback([](quint64, quint64 requests) {
        std::printf("acked %llu\n", static_cast<unsigned long long>(requests));
        std::fflush(stdout);
    });
    QString error;
    if (!writer.open(QString::fromLocal8Bit(argv[1]), &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    RunRow run;
    run.name = QStringLiteral("killed");
    run.variants = { QStringLiteral("baseline") };
    const qint64 runId = writer.createRun(run, &error);
    std::printf("run %lld\n", static_cast<long long>(runId));
    std::fflush(stdout);
    for (int i = 0;; ++i) {
        writer.enqueue(TestData::makeRequest(runId, QStringLiteral("baseline"), 0, 1, i, 64));
        if (i % 1000 == 999 && writer.enqueuedSequence() > writer.committedSequence() + 20000)
            writer.flush(); // keep the queue bounded; the parent kills us at a random moment anyway
    }
}
