#include "MicroHTTPDShim.h"

#include <LateLibrary.h>
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
static struct contactsd_library library = {MHD_LIBRARY, NULL, {0}};

static void load(void) {
    if (contactsd_library_open(&library) != 0) return;
    *(void **)&mhd.start_daemon = contactsd_library_symbol(&library, "MHD_start_daemon");
    *(void **)&mhd.stop_daemon = contactsd_library_symbol(&library, "MHD_stop_daemon");
    *(void **)&mhd.get_daemon_info = contactsd_library_symbol(&library, "MHD_get_daemon_info");
    *(void **)&mhd.get_connection_info = contactsd_library_symbol(&library, "MHD_get_connection_info");
    *(void **)&mhd.get_connection_values = contactsd_library_symbol(&library, "MHD_get_connection_values");
    *(void **)&mhd.create_response_from_buffer = contactsd_library_symbol(&library, "MHD_create_response_from_buffer");
    *(void **)&mhd.add_response_header = contactsd_library_symbol(&library, "MHD_add_response_header");
    *(void **)&mhd.queue_response = contactsd_library_symbol(&library, "MHD_queue_response");
    *(void **)&mhd.destroy_response = contactsd_library_symbol(&library, "MHD_destroy_response");
}

int contactsd_mhd_load(char *error, size_t size) {
    pthread_once(&loaded, load);
    return contactsd_library_result(&library, error, size);
}

struct MHD_Daemon *contactsd_mhd_start(int listen_fd, const struct sockaddr *address, const struct contactsd_mhd_settings *settings,
                                       MHD_AccessHandlerCallback handler, void *handler_cls, MHD_RequestCompletedCallback completed,
                                       void *completed_cls) {
    if (contactsd_mhd_load(NULL, 0) != 0) return NULL;
    /* Errors are logged on loopback, where only the owner connects; on the network, what
     * strangers send (a plain-HTTP probe, a broken handshake) would only fill the journal. */
    int tls = settings->tls_certificate != NULL && settings->tls_key != NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | (tls ? 0 : MHD_USE_ERROR_LOG);
    struct MHD_OptionItem options[16];
    size_t n = 0;
    uint16_t port = 0;
    if (listen_fd >= 0) {
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_LISTEN_SOCKET, (intptr_t)listen_fd, NULL};
    } else {
        if (address == NULL) return NULL;
        if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
        port = address->sa_family == AF_INET6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                                              : ntohs(((const struct sockaddr_in *)address)->sin_port);
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_SOCK_ADDR, 0, (void *)address};
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)settings->threads, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)settings->memory_limit, NULL};
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)settings->timeout_seconds, NULL};
    if (settings->connection_limit > 0)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_CONNECTION_LIMIT, (intptr_t)settings->connection_limit, NULL};
    if (settings->per_address_limit > 0)
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)settings->per_address_limit, NULL};
    if (tls) {
        flags |= MHD_USE_TLS;
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)settings->tls_certificate};
        options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)settings->tls_key};
        if (settings->tls_priorities != NULL)
            options[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)settings->tls_priorities};
    }
    options[n++] = (struct MHD_OptionItem){MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls};
    options[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return mhd.start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
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

int contactsd_mhd_arguments(struct MHD_Connection *connection, MHD_KeyValueIterator iterator, void *cls) {
    return mhd.get_connection_values(connection, MHD_GET_ARGUMENT_KIND, iterator, cls);
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
