#include "CValgrind.h"

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define SWIFTREX_LAB_HAS_CALLGRIND 1
#endif
#endif

#ifdef SWIFTREX_LAB_HAS_CALLGRIND
int swiftrex_lab_callgrind_compiled_in(void) { return 1; }
unsigned swiftrex_lab_running_on_valgrind(void) { return (unsigned)RUNNING_ON_VALGRIND; }
void swiftrex_lab_callgrind_start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
void swiftrex_lab_callgrind_stop_instrumentation(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void swiftrex_lab_callgrind_zero_stats(void) { CALLGRIND_ZERO_STATS; }
void swiftrex_lab_callgrind_dump_stats(const char *reason) { CALLGRIND_DUMP_STATS_AT(reason); }
#else
int swiftrex_lab_callgrind_compiled_in(void) { return 0; }
unsigned swiftrex_lab_running_on_valgrind(void) { return 0; }
void swiftrex_lab_callgrind_start_instrumentation(void) {}
void swiftrex_lab_callgrind_stop_instrumentation(void) {}
void swiftrex_lab_callgrind_zero_stats(void) {}
void swiftrex_lab_callgrind_dump_stats(const char *reason) { (void)reason; }
#endif
