#ifndef SWIFTREX_LAB_CVALGRIND_H
#define SWIFTREX_LAB_CVALGRIND_H
// Callgrind client requests for the lab's instruction counts. Each is a real function (not a
// macro) so Swift can call it; the request itself is valgrind's magic instruction sequence, a
// no-op when the process does not run under valgrind. When the lab is built without valgrind's
// headers every function is a stub and `swiftrex_lab_callgrind_compiled_in` returns 0.

/// 1 when the lab was built with valgrind's client-request headers, else 0.
int swiftrex_lab_callgrind_compiled_in(void);
/// Non-zero when the process runs under valgrind (any tool).
unsigned swiftrex_lab_running_on_valgrind(void);
/// Starts callgrind's instrumentation (flushes its translations; counting starts here).
void swiftrex_lab_callgrind_start_instrumentation(void);
/// Stops callgrind's instrumentation (nothing is counted until the next start).
void swiftrex_lab_callgrind_stop_instrumentation(void);
/// Zeroes callgrind's counters.
void swiftrex_lab_callgrind_zero_stats(void);
/// Writes callgrind's counters since the last zero or dump to the next numbered output file,
/// with `reason` as its trigger, and zeroes them.
void swiftrex_lab_callgrind_dump_stats(const char *reason);
#endif
