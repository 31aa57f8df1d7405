#include "CValgrind.h"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

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

// The instruction pass's executor: see `swiftrex_lab_jobs_run_on_main_thread` in CValgrind.h.
//
// The hooks, `swift_job_run` and `swift_task_getMainExecutor` are exported by the Swift runtime
// (libswift_Concurrency; declared in its ConcurrencyHooks.def and Concurrency.h, not in a public
// header) and use the Swift calling convention. A job is a heap object whose two words after the
// object header are reserved for the executor that holds it: the queue links through the first.
#define SWIFTREX_LAB_SWIFTCC __attribute__((swiftcall))

typedef struct {
    void *identity;
    uintptr_t implementation;
} swiftrex_lab_serial_executor;

typedef SWIFTREX_LAB_SWIFTCC void (*swiftrex_lab_enqueue_original)(void *job);
typedef SWIFTREX_LAB_SWIFTCC void (*swiftrex_lab_drain_original)(void);

extern SWIFTREX_LAB_SWIFTCC void (*swift_task_enqueueGlobal_hook)(void *job, swiftrex_lab_enqueue_original original);
extern SWIFTREX_LAB_SWIFTCC void (*swift_task_enqueueMainExecutor_hook)(void *job, swiftrex_lab_enqueue_original original);
extern SWIFTREX_LAB_SWIFTCC void (*swift_task_asyncMainDrainQueue_hook)(swiftrex_lab_drain_original original, void *override);
extern SWIFTREX_LAB_SWIFTCC void swift_job_run(void *job, swiftrex_lab_serial_executor executor);
extern SWIFTREX_LAB_SWIFTCC swiftrex_lab_serial_executor swift_task_getMainExecutor(void);

// libdispatch's run-loop interface to the main queue (what Foundation's RunLoop drains it with):
// the main actor's executor may hand a job straight to the main queue, bypassing the hook.
extern void *_dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

// 0: the runtime's executors; otherwise which pass serializes the jobs.
#define SWIFTREX_LAB_SERIAL_INSTRUCTIONS 1
#define SWIFTREX_LAB_SERIAL_ALLOCATIONS 2
static int swiftrex_lab_serial = 0;
static pthread_mutex_t swiftrex_lab_jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static void *swiftrex_lab_jobs_head = NULL;
static void *swiftrex_lab_jobs_tail = NULL;

static void **swiftrex_lab_job_link(void *job) { return (void **)((char *)job + 2 * sizeof(void *)); }

// Each queued job remembers the executor it was enqueued on, in the low bit of its link (a job is
// a heap object, aligned to at least 16 bytes): a global job runs as the generic executor's, a
// main job as the main executor's. Run as the main executor's, a global job's nonisolated async
// code would find itself on the wrong executor and hop again (one extra job per hop).
static void swiftrex_lab_push(void *job, uintptr_t on_main) {
    *swiftrex_lab_job_link(job) = NULL;
    void *tagged = (void *)((uintptr_t)job | on_main);
    pthread_mutex_lock(&swiftrex_lab_jobs_lock);
    if (swiftrex_lab_jobs_tail) {
        *swiftrex_lab_job_link(swiftrex_lab_jobs_tail) = tagged;
    } else {
        swiftrex_lab_jobs_head = tagged;
    }
    swiftrex_lab_jobs_tail = job;
    pthread_mutex_unlock(&swiftrex_lab_jobs_lock);
}

static SWIFTREX_LAB_SWIFTCC void swiftrex_lab_enqueue_global(void *job, swiftrex_lab_enqueue_original original) {
    (void)original;
    swiftrex_lab_push(job, 0);
}

static SWIFTREX_LAB_SWIFTCC void swiftrex_lab_enqueue_main(void *job, swiftrex_lab_enqueue_original original) {
    (void)original;
    swiftrex_lab_push(job, 1);
}

// The next job (its executor's bit cleared), and whether it was enqueued on the main executor.
static void *swiftrex_lab_dequeue(int *on_main) {
    pthread_mutex_lock(&swiftrex_lab_jobs_lock);
    uintptr_t tagged = (uintptr_t)swiftrex_lab_jobs_head;
    void *job = (void *)(tagged & ~(uintptr_t)1);
    if (job) {
        swiftrex_lab_jobs_head = *swiftrex_lab_job_link(job);
        if (!swiftrex_lab_jobs_head) swiftrex_lab_jobs_tail = NULL;
    }
    pthread_mutex_unlock(&swiftrex_lab_jobs_lock);
    *on_main = (int)(tagged & 1);
    return job;
}

// Runs on the main thread in place of the runtime's drain (which calls `dispatch_main`) and never
// returns: the pass ends with `exit`.
static SWIFTREX_LAB_SWIFTCC void swiftrex_lab_drain(swiftrex_lab_drain_original original, void *override) {
    (void)original;
    (void)override;
    swiftrex_lab_serial_executor main_executor = swift_task_getMainExecutor();
    swiftrex_lab_serial_executor generic_executor = { NULL, 0 };
    int main_queue = (int)(intptr_t)_dispatch_get_main_queue_handle_4CF();
    for (;;) {
        int on_main = 0;
        void *job = swiftrex_lab_dequeue(&on_main);
        if (job) {
            swift_job_run(job, on_main ? main_executor : generic_executor);
            continue;
        }
        // The instruction pass cannot wait (valgrind runs one thread); the allocation pass waits
        // up to 10 s, a millisecond at a time, for a timer or another thread to enqueue a job.
        int wait_ms = swiftrex_lab_serial == SWIFTREX_LAB_SERIAL_ALLOCATIONS ? 1 : 0;
        int waited_ms = 0;
        for (;;) {
            struct pollfd pending = { .fd = main_queue, .events = POLLIN, .revents = 0 };
            if (main_queue >= 0 && poll(&pending, 1, wait_ms) > 0) {
                eventfd_t ignored;
                (void)eventfd_read(main_queue, &ignored);
                _dispatch_main_queue_callback_4CF(NULL);
                break;
            }
            if (main_queue < 0 && wait_ms > 0) poll(NULL, 0, wait_ms);
            pthread_mutex_lock(&swiftrex_lab_jobs_lock);
            int queued = swiftrex_lab_jobs_head != NULL;
            pthread_mutex_unlock(&swiftrex_lab_jobs_lock);
            if (queued) break;
            waited_ms += wait_ms;
            if (wait_ms == 0 || waited_ms >= 10000) {
                fputs("swiftrex-lab: serialized pass: no job is left to run, yet the program has not ended "
                      "(an operation waits for a timer or another thread, which the pass cannot run)\n", stderr);
                exit(70);
            }
        }
    }
}

static void swiftrex_lab_install_hooks(int mode) {
    swift_task_enqueueGlobal_hook = swiftrex_lab_enqueue_global;
    swift_task_enqueueMainExecutor_hook = swiftrex_lab_enqueue_main;
    swift_task_asyncMainDrainQueue_hook = swiftrex_lab_drain;
    swiftrex_lab_serial = mode;
}

__attribute__((constructor)) static void swiftrex_lab_install_serial_executor(void) {
    const char *allocations = getenv("SWIFTREX_LAB_SERIAL_ALLOCATIONS");
    if (allocations && allocations[0] == '1') {
        swiftrex_lab_install_hooks(SWIFTREX_LAB_SERIAL_ALLOCATIONS);
        return;
    }
#ifdef SWIFTREX_LAB_HAS_CALLGRIND
    if (!RUNNING_ON_VALGRIND) return;
    const char *output = getenv("SWIFTREX_LAB_CALLGRIND_OUT");
    if (!output || !*output) return;
    swiftrex_lab_install_hooks(SWIFTREX_LAB_SERIAL_INSTRUCTIONS);
#endif
}

int swiftrex_lab_jobs_run_on_main_thread(void) { return swiftrex_lab_serial; }
