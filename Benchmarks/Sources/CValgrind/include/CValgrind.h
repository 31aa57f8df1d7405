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

/// 1 when this process is the lab's instruction pass, 2 when it is its allocation pass
/// (`SWIFTREX_LAB_SERIAL_ALLOCATIONS=1`), and runs every Swift job on its main thread; else 0.
///
/// valgrind 3.19 crashes as soon as a process starts a second thread, and the Swift runtime starts
/// one the first time a job goes to the global executor, or when the main task first suspends
/// (libdispatch then hands the main queue to a worker thread). So when the process runs under
/// valgrind with the pass's output variable set, a constructor installs the runtime's executor
/// hooks before `main` runs: jobs for the main executor and for the global executor go into one
/// first-in-first-out queue, and the main thread runs them one after the other. An asynchronous
/// operation then interleaves the same way in every run, and its instructions can be counted.
/// Jobs enqueued with a delay or a deadline (sleeps) still go to the runtime: the instruction pass
/// stops with a message if it ever waits for one (the queue ran dry); the allocation pass, which
/// runs without valgrind, waits up to 10 s for one.
///
/// The allocation pass serializes the jobs the same way, so that an asynchronous scenario's
/// allocations do not depend on scheduling: libdispatch's continuations for each hop, served from
/// one thread's cache or allocated depending on which thread runs what, are then not counted, and
/// the library's own allocations are counted exactly.
int swiftrex_lab_jobs_run_on_main_thread(void);

/// Adds "change the directory to `path`" to the `posix_spawn_file_actions_t` at `actions`, so the
/// instruction pass starts in a directory of its own; 0 on success, an error number otherwise.
int swiftrex_lab_spawn_add_chdir(void *actions, const char *path);
#endif
