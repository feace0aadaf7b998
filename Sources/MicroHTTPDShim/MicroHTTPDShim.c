#include "MicroHTTPDShim.h"

#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>

/* The soname of Debian's libmicrohttpd12, the package libmicrohttpd-dev's header is for. */
#define MHD_LIBRARY "libmicrohttpd.so.12"

static struct {
    struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, void *apc_cls,
                                       MHD_AccessHandlerCallback dh, void *dh_cls, ...);
    void (*stop_daemon)(struct MHD_Daemon *daemon);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *daemon, enum MHD_DaemonInfoType info_type, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type,
                                                           ...);
    int (*get_connection_values)(struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIterator iterator,
                                 void *iterator_cls);
    struct MHD_Response *(*create_response_from_buffer)(size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
    enum MHD_Result (*add_response_header)(struct MHD_Response *response, const char *header, const char *content);
    enum MHD_Result (*queue_response)(struct MHD_Connection *connection, unsigned int status_code, struct MHD_Response *response);
    void (*destroy_response)(struct MHD_Response *response);
} mhd;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static char failure[256];

static void *symbol(void *library, const char *name) {
    void *f = dlsym(library, name);
    if (f == NULL && failure[0] == 0) snprintf(failure, sizeof failure, "%s has no %s", MHD_LIBRARY, name);
    return f;
}

static void load(void) {
    void *library = dlopen(MHD_LIBRARY, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(failure, sizeof failure, "cannot load %s: %s", MHD_LIBRARY, why ? why : "unknown error");
        return;
    }
    *(void **)&mhd.start_daemon = symbol(library, "MHD_start_daemon");
    *(void **)&mhd.stop_daemon = symbol(library, "MHD_stop_daemon");
    *(void **)&mhd.get_daemon_info = symbol(library, "MHD_get_daemon_info");
    *(void **)&mhd.get_connection_info = symbol(library, "MHD_get_connection_info");
    *(void **)&mhd.get_connection_values = symbol(library, "MHD_get_connection_values");
    *(void **)&mhd.create_response_from_buffer = symbol(library, "MHD_create_response_from_buffer");
    *(void **)&mhd.add_response_header = symbol(library, "MHD_add_response_header");
    *(void **)&mhd.queue_response = symbol(library, "MHD_queue_response");
    *(void **)&mhd.destroy_response = symbol(library, "MHD_destroy_response");
}

int contactsd_mhd_load(char *error, size_t size) {
    pthread_once(&loaded, load);
    if (failure[0] == 0) return 0;
    if (error != NULL && size > 0) snprintf(error, size, "%s", failure);
    return -1;
}

struct MHD_Daemon *contactsd_mhd_start(int listen_fd, const struct sockaddr *address, unsigned threads, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler, void *handler_cls,
                                       MHD_RequestCompletedCallback completed, void *completed_cls) {
    if (contactsd_mhd_load(NULL, 0) != 0) return NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    if (listen_fd >= 0) {
        return mhd.start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                                MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_NOTIFY_COMPLETED, completed,
                                completed_cls, MHD_OPTION_END);
    }
    if (address == NULL) return NULL;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    uint16_t port = address->sa_family == AF_INET6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                                                   : ntohs(((const struct sockaddr_in *)address)->sin_port);
    return mhd.start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_SOCK_ADDR, address, MHD_OPTION_THREAD_POOL_SIZE,
                            threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit, MHD_OPTION_CONNECTION_TIMEOUT,
                            timeout_seconds, MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls, MHD_OPTION_END);
}

void contactsd_mhd_stop(struct MHD_Daemon *daemon) {
    if (daemon != NULL && mhd.stop_daemon != NULL) mhd.stop_daemon(daemon);
}

int contactsd_mhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : (int)info->listen_fd;
}

const struct sockaddr *contactsd_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int contactsd_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

int contactsd_mhd_headers(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *cls) {
    return mhd.get_connection_values(connection, MHD_HEADER_KIND, iterator, cls);
}

enum MHD_Result contactsd_mhd_respond(struct MHD_Connection *connection, unsigned status, const char *const *names,
                                      const char *const *values, size_t count, const void *body, size_t length) {
    struct MHD_Response *response = mhd.create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    for (size_t i = 0; i < count; i++) mhd.add_response_header(response, names[i], values[i]);
    enum MHD_Result result = mhd.queue_response(connection, status, response);
    mhd.destroy_response(response);
    return result;
}
