// SPDX-License-Identifier: MIT
#include "fdlimit.h"

#include <sys/resource.h>

namespace ServeScope {

qint64 raiseOpenFileLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    return openFileLimit();
}

qint64 openFileLimit()
{
    rlimit rl {};
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return -1;
    return rl.rlim_cur == RLIM_INFINITY ? qint64(1) << 30 : qint64(rl.rlim_cur);
}

} // namespace ServeScope
