// SPDX-License-Identifier: MIT
// A burst of 1,024 connections against a real simulator child: every first byte within 250 ms.
#include "simtestclient.h"

#include <QRegularExpression>
#include <QTest>

using namespace SimTest;

class TestSimBurst final : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { raiseFdLimit(); }
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void burstOf1024GetsFirstBytesFast()
    {
        rlimit rl {};
        getrlimit(RLIMIT_NOFILE, &rl);
        if (rl.rlim_cur < 1200)
            QSKIP("open-file limit below 1,200");
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("20") }));
        const int n = 1024;
        // Connect everything first, so the burst measures request handling, not the handshake.
        std::vector<std::unique_ptr<QTcpSocket>> sockets;
        for (int i = 0; i < n; ++i) {
            sockets.push_back(std::make_unique<QTcpSocket>());
            sockets.back()->connectToHost(QStringLiteral("127.0.0.1"), sim.port);
        }
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(sockets.begin(), sockets.end(),
                                     [](const auto &s) { return s->state() == QAbstractSocket::ConnectedState; }),
            10000);
        const QByteArray request = httpRequest("POST", "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4,\"ignore_eos\":true,"
            "\"stream\":true}");
        std::vector<Response> responses(static_cast<size_t>(n));
        std::vector<qint64> sent(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) {
            QTcpSocket *s = sockets[size_t(i)].get();
            QObject::connect(s, &QTcpSocket::readyRead, s,
                [s, r = &responses[size_t(i)]] { r->feed(s->readAll(), ServeScope::monotonicNs()); });
        }
        for (int i = 0; i < n; ++i) {
            sent[size_t(i)] = ServeScope::monotonicNs();
            sockets[size_t(i)]->write(request);
            sockets[size_t(i)]->flush();
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(responses.begin(), responses.end(), [](const Response &r) { return r.complete; }), 30000);
        qint64 worst = 0;
        for (int i = 0; i < n; ++i) {
            worst = std::max(worst, responses[size_t(i)].firstByteNs - sent[size_t(i)]);
            QCOMPARE(responses[size_t(i)].status, 200);
            QCOMPARE(responses[size_t(i)].events.last().data, QByteArray("[DONE]"));
        }
        QVERIFY2(worst <= 250'000'000, qPrintable(QStringLiteral("worst first byte %1 ms").arg(worst / 1e6)));
    }
};

QTEST_GUILESS_MAIN(TestSimBurst)
#include "tst_simburst.moc"
