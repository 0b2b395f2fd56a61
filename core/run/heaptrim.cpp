// SPDX-License-Identifier: MIT
#include "heaptrim.h"

#include <cstdlib> // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ServeScope {

void releaseFreedHeap()
{
#if defined(__GLIBC__)
    malloc_trim(0); // also the free pages inside each arena, not only its top
#endif
}

void setUpHeap()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}

} // namespace ServeScope
