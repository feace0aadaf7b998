#ifndef CONTACTSD_MICROHTTPD_SHIM_H
#define CONTACTSD_MICROHTTPD_SHIM_H

/* GNU libmicrohttpd behind fixed signatures, loaded when the first listener starts (not when
 * contactsd does: it brings GnuTLS and its libraries, which a daemon that serves no CardDAV
 * need not map). Its header gives the types; every call goes through these functions. */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Loads the library once; 0, or -1 with why in `error`. */
int contactsd_mhd_load(char *error, size_t size);

/* How a daemon serves: a pool of `threads`; each connection may use `memory_limit` bytes of
 * buffers and is closed after `timeout_seconds` idle; at most `connection_limit` connections
 * in all and `per_address_limit` from one address (0: libmicrohttpd's defaults). With a
 * certificate and key (PEM), it speaks TLS only, with the GnuTLS `priorities` given. */
struct contactsd_mhd_settings {
    unsigned threads;
    size_t memory_limit;
    unsigned timeout_seconds;
    unsigned connection_limit;
    unsigned per_address_limit;
    const char *tls_certificate;
    const char *tls_key;
    const char *tls_priorities;
};

/* Starts a daemon with its own polling thread, serving `listen_fd` when it is a socket
 * passed in (socket activation), else binding `address` (IPv4 or IPv6). NULL when it could
 * not start (errno says why). */
struct MHD_Daemon *contactsd_mhd_start(int listen_fd, const struct sockaddr *address, const struct contactsd_mhd_settings *settings,
                                       MHD_AccessHandlerCallback handler, void *handler_cls, MHD_RequestCompletedCallback completed,
                                       void *completed_cls);
void contactsd_mhd_stop(struct MHD_Daemon *daemon);

/* The daemon's listening socket, or -1. */
int contactsd_mhd_listen_fd(struct MHD_Daemon *daemon);

/* The peer's address of a connection, or NULL; the connection's socket, or -1. */
const struct sockaddr *contactsd_mhd_client_address(struct MHD_Connection *connection);
int contactsd_mhd_connection_fd(struct MHD_Connection *connection);

/* Each request header, to `iterator`. */
int contactsd_mhd_headers(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *cls);

/* Calls `iterator` with each argument of the URL's query, decoded. */
int contactsd_mhd_arguments(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *cls);

/* Queues an answer: the status, the headers (`count` names and values), the body (copied). */
enum MHD_Result contactsd_mhd_respond(struct MHD_Connection *connection, unsigned status, const char *const *names,
                                      const char *const *values, size_t count, const void *body, size_t length);

#endif
