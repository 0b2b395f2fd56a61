// SPDX-License-Identifier: MIT
#include "freeport.h"
#include "scriptedserver.h"
#include "simchild.h"

#include <QObject>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using ServeScope::Testing::ScriptedServer;

class TestCliCheck final : public QObject {
    Q_OBJECT

    static constexpr char kKey[] = "check-secret-4f1d2a9b8c7e";
    SimChild m_sim;

    struct Outcome {
        int exitCode = -1;
        QByteArray out;
    };

    static Outcome cli(const QStringList &args, const QProcessEnvironment &env)
    {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(SimChild::cli(), args);
        p.waitForFinished(60000);
        return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            p.readAllStandardOutput() + p.readAllStandardError() };
    }

    Outcome check(const QStringList &args, const QByteArray &key,
        const QProcessEnvironment &base = QProcessEnvironment::systemEnvironment())
    {
        QProcessEnvironment env = base;
        env.insert(QStringLiteral("TEST_CHECK_KEY"), QString::fromUtf8(key));
        return cli(QStringList { QStringLiteral("check") } + args, env);
    }

    static QStringList target(const SimChild &sim, const QString &path = QStringLiteral("/v1/chat/completions"))
    {
        return { QStringLiteral("--base-url"), sim.url().toString(), QStringLiteral("--model"),
            QStringLiteral("servescope-sim-7b"), QStringLiteral("--path"), path, QStringLiteral("--timeout"),
            QStringLiteral("10") };
    }

    /// GET /metrics from a simulator, with extra raw header lines.
    static QByteArray simMetrics(const SimChild &sim, const QByteArray &headers)
    {
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), quint16(sim.url().port()));
        if (!s.waitForConnected(3000))
            return {};
        s.write("GET /metrics HTTP/1.1\r\nhost: x\r\nconnection: close\r\n" + headers + "\r\n");
        QByteArray all;
        while (s.waitForReadyRead(3000))
            all += s.readAll();
        return all;
    }
    static double routeMetric(const QByteArray &text, const QByteArray &name, const QByteArray &route)
    {
        for (const QByteArray &line : text.split('\n'))
            if (line.startsWith(QByteArray(name + '{')) && line.contains(QByteArray("route=\"" + route + "\"")))
                return line.mid(line.lastIndexOf(' ') + 1).toDouble();
        return -1;
    }

private Q_SLOTS:

    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }
    void initTestCase()
    {
        QVERIFY2(!SimChild::cli().isEmpty(), "SERVESCOPE_CLI is not set");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SIM_KEY"), QString::fromLatin1(kKey));
        QVERIFY(m_sim.start({ QStringLiteral("--api-key-env"), QStringLiteral("SIM_KEY"), QStringLiteral("--model"),
                                QStringLiteral("m1"), QStringLiteral("--time-scale"), QStringLiteral("20") },
            env));
    }

    void diagnosis_data()
    {
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("code");

        const QString base = m_sim.url().toString();
        QTest::newRow("healthy chat") << base << "m1"
                                      << "/v1/chat/completions" << QByteArray(kKey) << 0 << "ok";
        QTest::newRow("healthy completions") << base << "m1"
                                             << "/v1/completions" << QByteArray(kKey) << 0 << "ok";
        QTest::newRow("wrong key") << base << "m1"
                                   << "/v1/chat/completions" << QByteArray("wrong-key-123456") << 1 << "auth";
        QTest::newRow("key with whitespace is trimmed") << base << "m1"
                                                        << "/v1/chat/completions" << QByteArray(" ") + kKey + "\n"
                                                        << 0 << "ok";
        // As `run` trims (the key library): a zero-width space pasted after the key goes too.
        QTest::newRow("key with a trailing zero-width space")
            << base << "m1"
            << "/v1/chat/completions" << QByteArray(kKey) + "\xe2\x80\x8b" << 0 << "ok";
        QTest::newRow("wrong model") << base << "nope"
                                     << "/v1/chat/completions" << QByteArray(kKey) << 1 << "model_not_found";
        QTest::newRow("wrong path") << base << "m1"
                                    << "/v1/chat/complete" << QByteArray(kKey) << 1 << "route_not_found";
        QTest::newRow("doubled v1") << base + QStringLiteral("/v1") << "m1"
                                    << "/v1/chat/completions" << QByteArray(kKey) << 1 << "doubled_v1";
        const quint16 port = ServeScope::Testing::unusedPort();
        QTest::newRow("closed port") << QStringLiteral("http://127.0.0.1:%1").arg(port) << "m1"
                                     << "/v1/chat/completions" << QByteArray(kKey) << 1 << "connection_refused";
    }

    void diagnosis()
    {
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, path);
        QFETCH(QByteArray, key);
        QFETCH(int, exitCode);
        QFETCH(QString, code);
        const Outcome o
            = check({ QStringLiteral("--base-url"), baseUrl, QStringLiteral("--model"), model, QStringLiteral("--path"),
                        path, QStringLiteral("--api-key-env"), QStringLiteral("TEST_CHECK_KEY"),
                        QStringLiteral("--timeout"), QStringLiteral("10") },
                key);
        QVERIFY2(o.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), o.out.constData());
        QCOMPARE(o.exitCode, exitCode);
        QVERIFY2(!o.out.contains(QByteArray(key).replace("\xe2\x80\x8b", "").trimmed()), "the key was echoed");
    }

    // Framings a real gateway sends: each gets the diagnosis that names what happened, not "other" or
    // "not an OpenAI endpoint". The server answers the models list, then the streamed request as the row says.
    void awkwardFramings_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("detail");
        QTest::newRow("103 Early Hints first") << "103" << 0 << "ok"
                                               << "interim HTTP 103 came before the answer";
        QTest::newRow("100 Continue first") << "100" << 0 << "ok" << QString(); // Qt's reader reads past it itself
        QTest::newRow("reset after the headers") << "reset" << 1 << "stream_truncated"
                                                 << "HTTP 200 headers and 0 token events (0 bytes) arrived, then";
        QTest::newRow("redirect") << "307" << 1 << "redirect"
                                  << "HTTP 307 on /v1/chat/completions to https://gateway.example/v1/chat/completions";
        QTest::newRow("stall after 3 tokens") << "stall-after" << 1 << "stream_stalled"
                                              << "headers and 3 token events";
        QTest::newRow("stall before any token") << "stall-before" << 1 << "timeout"
                                                << "HTTP 200 headers arrived, then nothing more within 2000 ms";
    }

    void awkwardFramings()
    {
        QFETCH(QString, mode);
        QFETCH(int, exitCode);
        QFETCH(QString, code);
        QFETCH(QString, detail);
        const auto token = [](int i) {
            return ScriptedServer::chunk("data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"model\":\"m1\","
                                         "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t"
                + QByteArray::number(i) + "\"},\"finish_reason\":null}]}\n\n");
        };
        ScriptedServer server([&](int fd, const QByteArray &line) {
            const QByteArray interim = mode == QLatin1String("103")
                ? QByteArray("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
                : mode == QLatin1String("100") ? QByteArray("HTTP/1.1 100 Continue\r\n\r\n")
                                               : QByteArray();
            if (line.contains("/v1/models")) {
                const QByteArray body = "{\"object\":\"list\",\"data\":[{\"id\":\"m1\",\"object\":\"model\"}]}";
                ScriptedServer::send(fd,
                    interim + "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                        + QByteArray::number(body.size()) + "\r\n\r\n" + body);
                return true;
            }
            if (!line.contains("/v1/chat/completions")) {
                ScriptedServer::send(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
                return true;
            }
            if (mode == QLatin1String("307")) {
                ScriptedServer::send(fd,
                    "HTTP/1.1 307 Temporary Redirect\r\nLocation: https://gateway.example/v1/chat/completions\r\n"
                    "Content-Length: 0\r\n\r\n");
                return true;
            }
            ScriptedServer::send(fd,
                interim + "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            if (mode == QLatin1String("reset")) {
                ScriptedServer::reset(fd);
                return false;
            }
            if (mode == QLatin1String("stall-before")) {
                ScriptedServer::hang(fd);
                return false;
            }
            for (int i = 0; i < 3; ++i)
                ScriptedServer::send(fd, token(i));
            if (mode == QLatin1String("stall-after")) {
                ScriptedServer::hang(fd);
                return false;
            }
            ScriptedServer::send(fd,
                ScriptedServer::chunk("data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"model\":\"m1\","
                                      "\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],"
                                      "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3}}\n\n")
                    + ScriptedServer::chunk("data: [DONE]\n\n") + "0\r\n\r\n");
            return true;
        });
        QVERIFY(server.port() != 0);
        const Outcome o = check(
            { QStringLiteral("--base-url"), QStringLiteral("http://127.0.0.1:%1").arg(server.port()),
                QStringLiteral("--model"), QStringLiteral("m1"), QStringLiteral("--timeout"), QStringLiteral("2") },
            QByteArray());
        QVERIFY2(o.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), o.out.constData());
        QVERIFY2(o.out.contains(detail.toUtf8()), o.out.constData());
        QCOMPARE(o.exitCode, exitCode);
    }

    // A compressed answer and one that is not streamed: `check` and `run` name them alike.
    void runNamesWhatCheckNames_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("runSays");
        QTest::newRow("gzip") << "gzip"
                              << "compressed"
                              << "first: compressed: HTTP 200 with Content-Encoding: gzip although Accept-Encoding: "
                                 "identity was sent";
        QTest::newRow("one JSON answer") << "json"
                                         << "not_streamed"
                                         << "first: not streamed: HTTP 200 with one JSON answer instead of an event "
                                            "stream";
    }

    void runNamesWhatCheckNames()
    {
        QFETCH(QString, mode);
        QFETCH(QString, code);
        QFETCH(QString, runSays);
        ScriptedServer server([&](int fd, const QByteArray &line) {
            if (!line.contains("/v1/chat/completions")) {
                ScriptedServer::send(fd, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
                return true;
            }
            // gzip of "data: [DONE]\n\n" is not needed: the header alone must stop the reader.
            const QByteArray body = mode == QLatin1String("gzip")
                ? QByteArray("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10)
                : QByteArray("{\"id\":\"x\",\"object\":\"chat.completion\",\"model\":\"m1\",\"choices\":[{\"index\":0,"
                             "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
                             "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1}}");
            ScriptedServer::send(fd,
                "HTTP/1.1 200 OK\r\nContent-Type: "
                    + QByteArray(mode == QLatin1String("gzip") ? "text/event-stream\r\nContent-Encoding: gzip"
                                                               : "application/json")
                    + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body);
            return true;
        });
        const QString base = QStringLiteral("http://127.0.0.1:%1").arg(server.port());
        const Outcome checked = check({ QStringLiteral("--base-url"), base, QStringLiteral("--model"),
                                          QStringLiteral("m1"), QStringLiteral("--timeout"), QStringLiteral("5") },
            QByteArray());
        QVERIFY2(checked.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), checked.out.constData());

        QTemporaryDir dir;
        const QString exp = dir.filePath(QStringLiteral("awkward.json"));
        QFile f(exp);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            QStringLiteral("{\"name\":\"awkward\",\"endpoint\":{\"base_url\":\"%1\",\"path\":"
                           "\"/v1/chat/completions\",\"model\":\"m1\"},\"dataset\":{\"name\":\"random\",\"seed\":1},"
                           "\"load\":{\"mode\":\"concurrency\",\"points\":[{\"concurrency\":2,\"input_len\":8,"
                           "\"output_len\":4,\"num_prompts\":6}]},\"variants\":[{\"name\":\"baseline\"}]}")
                .arg(base)
                .toUtf8());
        f.close();
        const Outcome ran = cli({ QStringLiteral("run"), exp, QStringLiteral("--project"),
                                    dir.filePath(QStringLiteral("awkward.servescope")) },
            QProcessEnvironment::systemEnvironment());
        QCOMPARE(ran.exitCode, 1);
        QVERIFY2(ran.out.contains(QByteArray("  protocol\t6\t" + runSays.toUtf8() + "\n")), ran.out.constData());
    }

    // The key is judged on the chosen API's own route with that API's auth: /v1/models takes only a bearer key
    // here, so an Anthropic Messages endpoint (x-api-key) is refused there and accepted on /v1/messages, as the
    // run then is. A wrong key is refused on the API's route, and says so.
    void keyJudgedOnTheApisOwnRoute_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("key");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QByteArray>("evidence");
        QTest::newRow("messages, right key")
            << QStringLiteral("/v1/messages") << QByteArray(kKey) << QStringLiteral("ok") << QByteArray();
        QTest::newRow("messages, wrong key") << QStringLiteral("/v1/messages") << QByteArray("wrong-key-123456")
                                             << QStringLiteral("auth") << QByteArray("HTTP 401 on /v1/messages: ");
        QTest::newRow("chat, wrong key") << QStringLiteral("/v1/chat/completions") << QByteArray("wrong-key-123456")
                                         << QStringLiteral("auth") << QByteArray("HTTP 401 on /v1/chat/completions: ");
    }
    void keyJudgedOnTheApisOwnRoute()
    {
        QFETCH(QString, path);
        QFETCH(QByteArray, key);
        QFETCH(QString, code);
        QFETCH(QByteArray, evidence);
        const Outcome o
            = check({ QStringLiteral("--base-url"), m_sim.url().toString(), QStringLiteral("--model"),
                        QStringLiteral("m1"), QStringLiteral("--path"), path, QStringLiteral("--api-key-env"),
                        QStringLiteral("TEST_CHECK_KEY"), QStringLiteral("--timeout"), QStringLiteral("10") },
                key);
        QVERIFY2(o.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), o.out.constData());
        QCOMPARE(o.exitCode, code == QLatin1String("ok") ? 0 : 1);
        QVERIFY2(o.out.contains("models_refused\t401\n"), o.out.constData());
        if (!evidence.isEmpty())
            QVERIFY2(o.out.contains(QByteArray("detail\t").append(evidence)), o.out.constData());
        QVERIFY2(!o.out.contains("on /v1/models"), o.out.constData());
    }

    // `check` reads two streams to their end the way `run` does and fails when `run` would.
    void predictsRun_data()
    {
        QTest::addColumn<QStringList>("simFlags");
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("code");
        QTest::newRow("quiet sim") << QStringList() << "/v1/chat/completions" << 0 << "ok";
        QTest::newRow("quiet sim, completions") << QStringList() << "/v1/completions" << 0 << "ok";
        QTest::newRow("streams closed mid-way") << QStringList { QStringLiteral("--close-streams-midway") }
                                                << "/v1/chat/completions" << 1 << "stream_truncated";
        QTest::newRow("wrong content-length") << QStringList { QStringLiteral("--wrong-content-length") }
                                              << "/v1/chat/completions" << 1 << "length_mismatch";
        QTest::newRow("wrong content-length, completions")
            << QStringList { QStringLiteral("--wrong-content-length") } << "/v1/completions" << 1 << "length_mismatch";
        QTest::newRow("chat-only gateway asked for completions")
            << QStringList { QStringLiteral("--no-completions") } << "/v1/completions" << 1 << "route_not_found";
    }

    void predictsRun()
    {
        QFETCH(QStringList, simFlags);
        QFETCH(QString, path);
        QFETCH(int, exitCode);
        QFETCH(QString, code);
        SimChild sim;
        QVERIFY(sim.start(QStringList { QStringLiteral("--time-scale"), QStringLiteral("50") } + simFlags));
        const Outcome o = check(target(sim, path), QByteArray());
        QVERIFY2(o.out.contains(QByteArray("diagnosis\t" + code.toLatin1() + "\n")), o.out.constData());
        QCOMPARE(o.exitCode, exitCode);
        QCOMPARE(o.out.contains("streams_read\t2\n"), exitCode == 0);
        if (exitCode != 0)
            QVERIFY2(o.out.contains("\nfix\t"), o.out.constData());
    }

    // Every preflight request goes under the base URL's own path, probes included.
    void underTheBasePath()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--root-path"),
            QStringLiteral("/gw") }));
        QStringList args = target(sim) << QStringLiteral("--smoke");
        args[1] += QStringLiteral("/gw");
        const Outcome o = check(args, QByteArray());
        QVERIFY2(o.exitCode == 0, o.out.constData());
        for (const char *key : { "tokenize", "metrics", "ignore_eos" })
            QVERIFY2(o.out.contains(QByteArray(QByteArray(key) + "\tyes\n")), o.out.constData());
        args[1] = sim.url().toString(); // the root itself is not the gateway
        QCOMPARE(check(args, QByteArray()).exitCode, 1);
    }

    // A chat-only gateway without /tokenize, /metrics or ignore_eos: each answer says what it means and the fix.
    void smokeOnAChatOnlyGateway()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--no-completions"),
            QStringLiteral("--no-tokenize"), QStringLiteral("--no-metrics"), QStringLiteral("--drop-ignore-eos"),
            QStringLiteral("--eos-mean-tokens"), QStringLiteral("2"), QStringLiteral("--no-usage") }));
        const Outcome o = check(target(sim) << QStringLiteral("--smoke"), QByteArray());
        QCOMPARE(o.exitCode, 0);
        for (const char *key : { "tokenize", "metrics", "ignore_eos", "usage_sent" }) {
            QVERIFY2(o.out.contains(QByteArray(QByteArray(key) + "\tno\n")), o.out.constData());
            QVERIFY2(o.out.contains(QByteArray(QByteArray(key) + ".means\t")), key);
            QVERIFY2(o.out.contains(QByteArray(QByteArray(key) + ".fix\t")), key);
        }
        QVERIFY(o.out.contains("ignore-eos-not-honoured"));

        // The same probes on a server that has everything: yes, with a meaning and no fix.
        SimChild full;
        QVERIFY(
            full.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--no-completions") }));
        const Outcome y = check(target(full) << QStringLiteral("--smoke"), QByteArray());
        QCOMPARE(y.exitCode, 0);
        for (const char *key : { "tokenize", "metrics", "ignore_eos", "usage_sent" }) {
            QVERIFY2(y.out.contains(QByteArray(QByteArray(key) + "\tyes\n")), y.out.constData());
            QVERIFY2(y.out.contains(QByteArray(QByteArray(key) + ".means\t")), key);
            QVERIFY2(!y.out.contains(QByteArray(QByteArray(key) + ".fix\t")), key);
        }
    }

    // Headers reach every request of check: models, the streams, /tokenize, /metrics and the ignore_eos probe.
    void headersReachEveryCall()
    {
        SimChild sim;
        QVERIFY(sim.start({ QStringLiteral("--time-scale"), QStringLiteral("50"), QStringLiteral("--require-header"),
            QStringLiteral("X-Route: pool-7"), QStringLiteral("--require-header"),
            QStringLiteral("X-Gateway-Token: gw-secret-93f1c2") }));
        const Outcome without = check(target(sim) << QStringLiteral("--smoke"), QByteArray());
        QCOMPARE(without.exitCode, 1);
        QVERIFY2(without.out.contains("x-route"), without.out.constData());

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GW_TOKEN"), QStringLiteral(" gw-secret-93f1c2\n"));
        const QByteArray good = "x-route: pool-7\r\nx-gateway-token: gw-secret-93f1c2\r\n";
        const QByteArray before = simMetrics(sim, good);
        const Outcome o = check(target(sim)
                << QStringLiteral("--smoke") << QStringLiteral("--header") << QStringLiteral("X-Route: pool-7")
                << QStringLiteral("--header-env") << QStringLiteral("X-Gateway-Token=GW_TOKEN"),
            QByteArray(), env);
        QVERIFY2(o.exitCode == 0, o.out.constData());
        QVERIFY(o.out.contains("tokenize\tyes\n") && o.out.contains("metrics\tyes\n"));
        QVERIFY(o.out.contains("ignore_eos\tyes\n"));
        QVERIFY2(!o.out.contains("gw-secret"), "a secret header value was printed");
        const QByteArray after = simMetrics(sim, good);
        for (const QByteArray &route : { QByteArray("/v1/models"), QByteArray("/v1/chat/completions"),
                 QByteArray("/tokenize"), QByteArray("/metrics") }) {
            const double calls = routeMetric(after, "servescope_sim:route_requests_total", route)
                - routeMetric(before, "servescope_sim:route_requests_total", route);
            const double rejected = routeMetric(after, "servescope_sim:header_rejected_total", route)
                - routeMetric(before, "servescope_sim:header_rejected_total", route);
            QVERIFY2(calls >= 1, route.constData());
            QCOMPARE(rejected, 0.0);
        }
        // The first stream, two streams as a run sends them, the ignore_eos probe and the 32-token
        // stream that tells whether the route buffers.
        QCOMPARE(routeMetric(after, "servescope_sim:route_requests_total", "/v1/chat/completions")
                - routeMetric(before, "servescope_sim:route_requests_total", "/v1/chat/completions"),
            5.0);
    }

    // A key (or secret) pasted where a variable name belongs is refused, and never echoed, by every command.
    void pastedSecretRefusedUnechoed_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        const QString pasted = QStringLiteral("sk-live-7Hq2pZ9xW4");
        QTest::newRow("check --api-key-env")
            << "check"
            << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"), QStringLiteral("--model"),
                   QStringLiteral("m"), QStringLiteral("--api-key-env"), pasted };
        QTest::newRow("check --header-env")
            << "check"
            << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"), QStringLiteral("--model"),
                   QStringLiteral("m"), QStringLiteral("--header-env"), QStringLiteral("X-T=") + pasted };
        QTest::newRow("sim --api-key-env")
            << "sim"
            << QStringList { QStringLiteral("--port"), QStringLiteral("0"), QStringLiteral("--api-key-env"), pasted };
        QTest::newRow("run: api_key_env") << "run" << QStringList();
        QTest::newRow("validate: api_key_env") << "validate" << QStringList();
    }

    void pastedSecretRefusedUnechoed()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        const QByteArray pasted = "7Hq2pZ9xW4";
        QTemporaryDir dir;
        if (args.isEmpty()) {
            const QString path = dir.filePath(QStringLiteral("pasted.json"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"name\":\"p\",\"endpoint\":{\"base_url\":\"http://127.0.0.1:9\",\"model\":\"m\","
                    "\"api_key_env\":\"sk-live-7Hq2pZ9xW4\"},\"load\":{\"mode\":\"concurrency\",\"points\":"
                    "[{\"concurrency\":1,\"input_len\":8,\"output_len\":2,\"num_prompts\":5}]},"
                    "\"variants\":[{\"name\":\"b\"},{\"name\":\"v\",\"changes\":"
                    "{\"endpoint.api_key_env\":\"sk-live-7Hq2pZ9xW4\"}}]}");
            f.close();
            args << path;
            if (command == QLatin1String("run"))
                args << QStringLiteral("--project") << dir.filePath(QStringLiteral("p.servescope"));
        }
        const Outcome o = cli(QStringList { command } + args, QProcessEnvironment::systemEnvironment());
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(!o.out.contains(pasted), o.out.constData());
        QVERIFY2(!o.out.isEmpty(), "no reason was given");
    }

    void smokeReportsCapabilities()
    {
        const Outcome o = check(
            { QStringLiteral("--base-url"), m_sim.url().toString(), QStringLiteral("--model"), QStringLiteral("m1"),
                QStringLiteral("--api-key-env"), QStringLiteral("TEST_CHECK_KEY"), QStringLiteral("--smoke") },
            kKey);
        QCOMPARE(o.exitCode, 0);
        QVERIFY2(o.out.contains("usage_sent\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("role_chunk_first\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("tokenize\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("metrics\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("ignore_eos\tyes\n"), o.out.constData());
        QVERIFY2(o.out.contains("models\tm1\n"), o.out.constData());
    }

    void badUsageExits2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("no arguments") << QStringList {};
        QTest::newRow("unknown option") << QStringList { QStringLiteral("--bogus") };
        QTest::newRow("missing model") << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x") };
        QTest::newRow("bad timeout") << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"),
            QStringLiteral("--model"), QStringLiteral("m"), QStringLiteral("--timeout"), QStringLiteral("-1") };
        const QStringList base { QStringLiteral("--base-url"), QStringLiteral("http://x"), QStringLiteral("--model"),
            QStringLiteral("m") };
        QTest::newRow("header without a colon")
            << (base + QStringList { QStringLiteral("--header"), QStringLiteral("X-A") });
        QTest::newRow("header with a bad name")
            << (base + QStringList { QStringLiteral("--header"), QStringLiteral("X A: 1") });
        QTest::newRow("authorization header")
            << (base + QStringList { QStringLiteral("--header"), QStringLiteral("Authorization: Bearer x") });
        QTest::newRow("header twice") << (base
            + QStringList { QStringLiteral("--header"), QStringLiteral("X-A: 1"), QStringLiteral("--header"),
                QStringLiteral("x-a: 2") });
        QTest::newRow("header-env without a variable")
            << (base + QStringList { QStringLiteral("--header-env"), QStringLiteral("X-A") });
        QTest::newRow("header-env variable unset")
            << (base + QStringList { QStringLiteral("--header-env"), QStringLiteral("X-A=SERVESCOPE_UNSET_VARIABLE") });
        QTest::newRow("unset key variable")
            << QStringList { QStringLiteral("--base-url"), QStringLiteral("http://x"), QStringLiteral("--model"),
                   QStringLiteral("m"), QStringLiteral("--api-key-env"), QStringLiteral("SERVESCOPE_UNSET_VARIABLE") };
    }

    void badUsageExits2()
    {
        QFETCH(QStringList, args);
        QCOMPARE(check(args, QByteArray()).exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliCheck)
#include "tst_clicheck.moc"
