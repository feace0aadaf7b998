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

/* The uid owning the TCP socket whose own address is local:local_port and whose peer is
 * remote:remote_port (addresses in network order, 4 bytes for AF_INET, 16 for AF_INET6;
 * ports in host order), asked through sock_diag netlink. 0 and *uid set when found, 1 when
 * there is no such socket, -1 when the kernel cannot be asked. */
extern int contactsd_tcp_socket_owner(int family, const void *local, unsigned short local_port, const void *remote,
                                      unsigned short remote_port, unsigned int *uid);

#endif
