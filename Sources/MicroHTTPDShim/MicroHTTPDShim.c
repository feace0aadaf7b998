#include "MicroHTTPDShim.h"

#include <netinet/in.h>
#include <stddef.h>

struct MHD_Daemon *contactsd_mhd_start(int listen_fd, const struct sockaddr *address, unsigned threads, size_t memory_limit,
                                       unsigned timeout_seconds, MHD_AccessHandlerCallback handler, void *handler_cls,
                                       MHD_RequestCompletedCallback completed, void *completed_cls) {
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
    if (listen_fd >= 0) {
        return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
                                MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                                MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_NOTIFY_COMPLETED, completed,
                                completed_cls, MHD_OPTION_END);
    }
    if (address == NULL) return NULL;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    uint16_t port = address->sa_family == AF_INET6 ? ntohs(((const struct sockaddr_in6 *)address)->sin6_port)
                                                   : ntohs(((const struct sockaddr_in *)address)->sin_port);
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls, MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, MHD_OPTION_NOTIFY_COMPLETED, completed,
                            completed_cls, MHD_OPTION_END);
}

const struct sockaddr *contactsd_mhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

int contactsd_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : (int)info->connect_fd;
}

int contactsd_mhd_listen_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
    return info == NULL ? -1 : (int)info->listen_fd;
}
