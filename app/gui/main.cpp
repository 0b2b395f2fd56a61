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
#include "run/heaptrim.h"
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

// The command line's options, added to `parser`.
struct GuiOptions {
    QCommandLineOption demo { QStringLiteral("demo"),
        GuiText::tr("Open the demo experiment in a new unsaved project.") };
    QCommandLineOption lang { QStringLiteral("lang"),
        GuiText::tr(
            "UI language, e.g. zh_CN (default: SERVESCOPE_LANG, then View > Language, then the system locale)."),
        QStringLiteral("locale") };
    QCommandLineOption scale { QStringLiteral("time-scale"),
        GuiText::tr("Run the local simulator this many times faster than real time (default 1, demo 8)."),
        QStringLiteral("x") };
    QCommandLineOption runNow { QStringLiteral("run"),
        GuiText::tr("Start the run as soon as the experiment is loaded.") };
    QCommandLineOption quitAfter { QStringLiteral("quit-after-run"),
        GuiText::tr("Quit when the run ends; with SERVESCOPE_STALL_PROBE=1 print the longest GUI-thread stall.") };
    QCommandLineOption allowLaunch { QStringLiteral("allow-launch"),
        GuiText::tr("Start the experiment's server launch commands without asking.") };

    explicit GuiOptions(QCommandLineParser &parser)
    {
        parser.setApplicationDescription(
            GuiText::tr("ServeScope: benchmark experiments for OpenAI-compatible LLM endpoints"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({ demo, lang, scale, runNow, quitAfter, allowLaunch });
        parser.addPositionalArgument(QStringLiteral("file"),
            GuiText::tr("A project (.servescope) or experiment file (.json, .toml) to open; vLLM or SGLang result "
                        "files are imported into a new project."),
            GuiText::tr("file..."));
    }
};

// The demo, a project, result files (imported into a new project) or an experiment file. Returns why an
// experiment file was refused (empty otherwise: a project or result files answer later, by signal).
QString openGiven(MainWindow &window, bool demo, const QStringList &files)
{
    QString refused;
    if (demo) {
        window.openDemo();
    } else if (!files.isEmpty()) {
        if (files.constFirst().endsWith(QLatin1String(".servescope"))) {
            window.project()->openProject(files.constFirst());
        } else if (std::all_of(files.cbegin(), files.cend(), &ResultImportDialog::isResultFile)) {
            window.imports()->importResults(files);
        } else {
            // It makes the project itself; one made here too would race it (two temporary projects being
            // created, the experiment applied to the first and the window left on the second, not yet there).
            window.imports()->importExperimentFile(files.constFirst(), &refused);
        }
    }
    return refused;
}

// With SERVESCOPE_STALL_PROBE=1, a 5 ms timer: the longest gap between its ticks is the GUI thread's
// longest stall.
struct StallProbe final : QTimer {
    explicit StallProbe(QObject *parent)
        : QTimer(parent)
    {
        if (qEnvironmentVariableIntValue("SERVESCOPE_STALL_PROBE") != 1)
            return;
        tick.start();
        connect(this, &QTimer::timeout, this, [this] { longestMs = std::max(longestMs, tick.restart()); });
        start(5);
    }
    QElapsedTimer tick;
    qint64 longestMs = 0;
};

// --run starts the run once the experiment is loaded; a scripted run (--quit-after-run) must end:
// a refused file or experiment exits 2, a run that did not finish exits non-zero.
void scriptRun(QApplication &app, MainWindow &window, bool runNow, bool scripted)
{
    auto *probe = new StallProbe(&window);
    if (runNow) {
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
        QObject::connect(&window, &MainWindow::runFinished, &app, [&app, probe](const RunResult &r) {
            if (probe->isActive())
                std::fprintf(stderr,
                    "servescope: run %lld ended (%d completed, %d failed); longest GUI-thread stall %lld ms\n",
                    static_cast<long long>(r.runId), r.completed, r.failed, static_cast<long long>(probe->longestMs));
            const int code = r.status == RunResult::Status::Finished ? 0
                : r.status == RunResult::Status::Cancelled           ? 130
                                                                     : 1;
            if (code != 0)
                std::fprintf(
                    stderr, "servescope: %s\n", qPrintable(GuiText::tr("the run did not finish: %1").arg(r.message)));
            QTimer::singleShot(200, &app, [code] { QApplication::exit(code); });
        });
    }
}

} // namespace

int main(int argc, char *argv[])
{
    raiseOpenFileLimit();
    setUpHeap();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ServeScope"));
    QApplication::setApplicationName(QStringLiteral("ServeScope"));
    QApplication::setApplicationVersion(QStringLiteral(SERVESCOPE_VERSION));
    // The installed desktop entry's id (packaging/): Wayland compositors match windows to it for the icon.
    QApplication::setDesktopFileName(QStringLiteral("io.github.servescope.ServeScope"));
    installTranslations(chosenLanguage(QApplication::arguments()));

    QCommandLineParser parser;
    const GuiOptions options(parser);
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
    if (parser.isSet(options.scale)) {
        const double timeScale = parser.value(options.scale).toDouble(&ok);
        if (!ok || timeScale <= 0) {
            std::fprintf(stderr, "servescope: %s\n", qPrintable(GuiText::tr("--time-scale needs a positive number")));
            return 2;
        }
        window.project()->setTimeScale(timeScale);
    }
    window.runs()->setLaunchPolicy(parser.isSet(options.allowLaunch) ? RunPageController::LaunchPolicy::Allow
            : parser.isSet(options.quitAfter)                        ? RunPageController::LaunchPolicy::Never
                                                                     : RunPageController::LaunchPolicy::Ask);
    window.show();
    const QString refused = openGiven(window, parser.isSet(options.demo), parser.positionalArguments());
    if (!refused.isEmpty() && parser.isSet(options.quitAfter)) {
        // A scripted run of a file that does not read ends at once, saying why.
        std::fprintf(stderr, "servescope: %s\n%s\n",
            qPrintable(GuiText::tr("cannot import %1:").arg(parser.positionalArguments().constFirst())),
            qPrintable(refused));
        return 2;
    }
    scriptRun(app, window, parser.isSet(options.runNow), parser.isSet(options.quitAfter));
    return QApplication::exec();
}
