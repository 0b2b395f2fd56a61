// SPDX-License-Identifier: MIT
// The desktop app: translations, the keychain store and the main window.
#include "designpagecontroller.h"
#include "engine/fdlimit.h"
#include "experimentdocument.h"
#include "importflow.h"
#include "mainwindow.h"
#include "model/problem.h"
#include "projectcontroller.h"
#include "resultimportdialog.h"
#include "runpagecontroller.h"
#include "secrets/keychainsecretstore.h"
#include "translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QLocale>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <cstdio>

using namespace ServeScope;

namespace {

/// Text for people on the terminal: --help and the scripted run's messages on stderr.
class GuiText {
    Q_DECLARE_TR_FUNCTIONS(ServeScope::Gui)
};

// The UI language: --lang, then SERVESCOPE_LANG, then View → Language, then the system locale. It is
// read before the command line is parsed, so that --help is written in it too.
QString chosenLanguage(const QStringList &args)
{
    for (qsizetype i = 1; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == QLatin1String("--"))
            break;
        if (a.startsWith(QLatin1String("--lang=")))
            return a.mid(7);
        if (a == QLatin1String("--lang"))
            return args.value(i + 1);
    }
    const QString fromEnv = qEnvironmentVariable("SERVESCOPE_LANG");
    return fromEnv.isEmpty() ? QSettings().value(QStringLiteral("ui/language")).toString() : fromEnv;
}

void installTranslations(const QString &override)
{
    const QLocale locale = override.isEmpty() ? QLocale::system() : QLocale(override);
    if (override.isEmpty() && locale.language() == QLocale::English)
        return;
    QLocale::setDefault(locale);
    installTranslators(locale);
}

} // namespace

int main(int argc, char *argv[])
{
    raiseOpenFileLimit();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ServeScope"));
    QApplication::setApplicationName(QStringLiteral("ServeScope"));
    QApplication::setApplicationVersion(QStringLiteral(SERVESCOPE_VERSION));
    // The installed desktop entry's id (packaging/): Wayland compositors match windows to it for the icon.
    QApplication::setDesktopFileName(QStringLiteral("io.github.servescope.ServeScope"));
    installTranslations(chosenLanguage(QApplication::arguments()));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        GuiText::tr("ServeScope: benchmark experiments for OpenAI-compatible LLM endpoints"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption demo(
        QStringLiteral("demo"), GuiText::tr("Open the demo experiment in a new unsaved project."));
    const QCommandLineOption lang(QStringLiteral("lang"),
        GuiText::tr(
            "UI language, e.g. zh_CN (default: SERVESCOPE_LANG, then View > Language, then the system locale)."),
        QStringLiteral("locale"));
    const QCommandLineOption scale(QStringLiteral("time-scale"),
        GuiText::tr("Run the local simulator this many times faster than real time (default 1, demo 8)."),
        QStringLiteral("x"));
    const QCommandLineOption runNow(
        QStringLiteral("run"), GuiText::tr("Start the run as soon as the experiment is loaded."));
    const QCommandLineOption quitAfter(QStringLiteral("quit-after-run"),
        GuiText::tr("Quit when the run ends; with SERVESCOPE_STALL_PROBE=1 print the longest GUI-thread stall."));
    const QCommandLineOption allowLaunch(
        QStringLiteral("allow-launch"), GuiText::tr("Start the experiment's server launch commands without asking."));
    parser.addOptions({ demo, lang, scale, runNow, quitAfter, allowLaunch });
    parser.addPositionalArgument(QStringLiteral("file"),
        GuiText::tr("A project (.servescope) or experiment file (.json, .toml) to open; vLLM or SGLang result files "
                    "are imported into a new project."),
        GuiText::tr("file..."));
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "servescope: %s\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return 0;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        std::printf("servescope %s\n", SERVESCOPE_VERSION);
        return 0;
    }
    KeychainSecretStore secrets;
    MainWindow window(&secrets);
    bool ok = true;
    // Without --time-scale the window picks it: the demo at ProjectController::kDemoTimeScale, the rest at 1.
    if (parser.isSet(scale)) {
        const double timeScale = parser.value(scale).toDouble(&ok);
        if (!ok || timeScale <= 0) {
            std::fprintf(stderr, "servescope: %s\n", qPrintable(GuiText::tr("--time-scale needs a positive number")));
            return 2;
        }
        window.project()->setTimeScale(timeScale);
    }
    window.runs()->setLaunchPolicy(parser.isSet(allowLaunch) ? RunPageController::LaunchPolicy::Allow
            : parser.isSet(quitAfter)                        ? RunPageController::LaunchPolicy::Never
                                                             : RunPageController::LaunchPolicy::Ask);
    window.show();
    const QStringList files = parser.positionalArguments();
    if (parser.isSet(demo)) {
        window.openDemo();
    } else if (!files.isEmpty()) {
        if (files.constFirst().endsWith(QLatin1String(".servescope"))) {
            window.project()->openProject(files.constFirst());
        } else if (std::all_of(files.cbegin(), files.cend(), &ResultImportDialog::isResultFile)) {
            window.imports()->importResults(files);
        } else {
            window.project()->newProject(ProjectController::blankExperiment());
            window.imports()->importExperimentFile(files.constFirst());
        }
    }
    // Responsiveness probe: a 5 ms timer; the longest gap between ticks is the longest stall.
    QElapsedTimer tick;
    qint64 longestStallMs = 0;
    QTimer probe;
    if (qEnvironmentVariableIntValue("SERVESCOPE_STALL_PROBE") == 1) {
        tick.start();
        QObject::connect(
            &probe, &QTimer::timeout, &app, [&] { longestStallMs = std::max(longestStallMs, tick.restart()); });
        probe.start(5);
    }
    const bool scripted = parser.isSet(quitAfter);
    if (parser.isSet(runNow)) {
        QObject::connect(&window, &MainWindow::projectOpened, &window, [&window, scripted] {
            QTimer::singleShot(500, &window, [&window, scripted] {
                if (window.runs()->start() || !scripted)
                    return;
                std::fprintf(stderr, "servescope: %s\n", qPrintable(GuiText::tr("the experiment cannot run:")));
                for (const Problem &p : window.document()->problems()) {
                    if (p.isError())
                        std::fprintf(stderr, "  %s\n", qPrintable(p.translatedString()));
                }
                QApplication::exit(2);
            });
        });
    }
    if (scripted) {
        // A scripted run must end: a refused file exits 2, a run that did not finish exits non-zero.
        QObject::connect(&window, &MainWindow::projectOpenFailed, &app, [](const QString &, const QString &error) {
            std::fprintf(stderr, "servescope: %s\n", qPrintable(error));
            QApplication::exit(2);
        });
        QObject::connect(&window, &MainWindow::runFinished, &app, [&](const RunResult &r) {
            if (probe.isActive())
                std::fprintf(stderr,
                    "servescope: run %lld ended (%d completed, %d failed); longest GUI-thread stall %lld ms\n",
                    static_cast<long long>(r.runId), r.completed, r.failed, static_cast<long long>(longestStallMs));
            const int code = r.status == RunResult::Status::Finished ? 0
                : r.status == RunResult::Status::Cancelled           ? 130
                                                                     : 1;
            if (code != 0)
                std::fprintf(
                    stderr, "servescope: %s\n", qPrintable(GuiText::tr("the run did not finish: %1").arg(r.message)));
            QTimer::singleShot(200, &app, [code] { QApplication::exit(code); });
        });
    }
    return QApplication::exec();
}
