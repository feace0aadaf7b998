#ifndef CONTACTSD_CSYSTEM_H
#define CONTACTSD_CSYSTEM_H

/* System calls and C library functions the Glibc module leaves out (GNU extensions),
 * declared for Swift. */

/* syncfs(2): flushes everything unwritten on the file system that holds fd. */
extern int syncfs(int fd);

/* From <malloc.h>: how large a block really is, and giving free memory back. */
#include <stddef.h>
extern size_t malloc_usable_size(void *ptr);
extern int malloc_trim(size_t pad);

/* Lowers the calling thread alone to nice 10 (Linux keeps a nice value per thread). */
extern void contactsd_lower_thread_priority(void);

#endif
