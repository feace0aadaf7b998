#ifndef CONTACTSD_MICROHTTPD_SHIM_H
#define CONTACTSD_MICROHTTPD_SHIM_H

/* What Swift cannot call in libmicrohttpd: its variadic functions, behind fixed signatures. */

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Starts a daemon with its own polling thread and a pool of `threads`, serving `listen_fd`
 * when it is a socket passed in (socket activation), else binding `address` (IPv4 or
 * IPv6). Each connection may use `memory_limit` bytes of buffers and is closed after
 * `timeout_seconds` idle. NULL when it could not start (errno says why). */
struct MHD_Daemon *contactsd_mhd_start(int listen_fd, const struct sockaddr *address, unsigned threads, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler, void *handler_cls,
                                       MHD_RequestCompletedCallback completed, void *completed_cls);

/* The peer's address of a connection, or NULL. */
const struct sockaddr *contactsd_mhd_client_address(struct MHD_Connection *connection);

/* The daemon's listening socket, or -1. */
int contactsd_mhd_listen_fd(struct MHD_Daemon *daemon);

/* The socket of a connection, or -1. */
int contactsd_mhd_connection_fd(struct MHD_Connection *connection);

#endif
