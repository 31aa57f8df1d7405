#ifndef SWIFTREX_LAB_CJEMALLOC_SHIM_H
#define SWIFTREX_LAB_CJEMALLOC_SHIM_H
// Debian's libjemalloc is built without a symbol prefix: `mallctl`,
// `mallctlnametomib` and `mallctlbymib` are the exported names, and linking
// the library replaces malloc/free for the whole executable.
#include <jemalloc/jemalloc.h>
#include <stdio.h>

// `setbuf(stdout, NULL)` without touching the C global `stdout` from Swift
// (strict concurrency rejects references to mutable C globals).
static inline void swiftrex_lab_unbuffer_stdout(void) { setbuf(stdout, NULL); }
#endif
