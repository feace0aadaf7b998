/* Declarations, and the little that needs C: see include/CSystem.h. */
#define _GNU_SOURCE
#include "CSystem.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

void contactsd_lower_thread_priority(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    if (getpriority(PRIO_PROCESS, (id_t)tid) < 10) setpriority(PRIO_PROCESS, (id_t)tid, 10);
}
