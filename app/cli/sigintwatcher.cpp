// SPDX-License-Identifier: MIT
#include "sigintwatcher.h"

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace ServeScope::Cli {

namespace {

int g_pipe[2] = { -1, -1 };

void onSignal(int sig)
{
    const char c = char(sig);
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &c, 1);
    if (sig == SIGINT)
        std::signal(SIGINT, SIG_DFL); // a second Ctrl-C ends the process at once
}

} // namespace

SigintWatcher::SigintWatcher(QObject *parent)
    : QObject(parent)
{
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    m_notifier = std::make_unique<QSocketNotifier>(g_pipe[0], QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, [this] {
        char buf[16];
        while (::read(g_pipe[0], buf, sizeof buf) > 0) { }
        Q_EMIT interrupted();
    });
    struct sigaction sa { };
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

SigintWatcher::~SigintWatcher()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

} // namespace ServeScope::Cli
