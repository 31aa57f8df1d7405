// glibc declares posix_spawn_file_actions_addchdir_np only under _GNU_SOURCE, which Swift's Glibc
// module does not define: this file does, and hands the call on.
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>

#include "CValgrind.h"

int swiftrex_lab_spawn_add_chdir(void *actions, const char *path) {
#if defined(__GLIBC__) || defined(__APPLE__)
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}
