/* The owner of a TCP socket on this machine, asked of the kernel by its addresses through
 * sock_diag netlink (an exact lookup, as `ss` makes): no table is read. */
#define _GNU_SOURCE
#include "CSystem.h"

#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

int contactsd_tcp_socket_owner(int family, const void *local, unsigned short local_port, const void *remote,
                               unsigned short remote_port, unsigned int *uid) {
    if (family != AF_INET && family != AF_INET6) return 1;
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
    if (fd < 0) return -1;
    struct timeval wait = {.tv_sec = 1};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);

    struct {
        struct nlmsghdr header;
        struct inet_diag_req_v2 request;
    } message;
    memset(&message, 0, sizeof message);
    message.header.nlmsg_len = sizeof message;
    message.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    message.header.nlmsg_flags = NLM_F_REQUEST;
    message.request.sdiag_family = (unsigned char)family;
    message.request.sdiag_protocol = IPPROTO_TCP;
    message.request.idiag_states = ~0U;
    size_t length = family == AF_INET ? 4 : 16;
    memcpy(message.request.id.idiag_src, local, length);
    memcpy(message.request.id.idiag_dst, remote, length);
    message.request.id.idiag_sport = htons(local_port);
    message.request.id.idiag_dport = htons(remote_port);
    message.request.id.idiag_cookie[0] = INET_DIAG_NOCOOKIE;
    message.request.id.idiag_cookie[1] = INET_DIAG_NOCOOKIE;

    struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
    if (sendto(fd, &message, sizeof message, 0, (struct sockaddr *)&kernel, sizeof kernel) < 0) {
        close(fd);
        return -1;
    }
    long buffer[2048];
    ssize_t received;
    do {
        received = recv(fd, buffer, sizeof buffer, 0);
    } while (received < 0 && errno == EINTR);
    close(fd);
    if (received < 0) return -1;
    int left = (int)received;
    for (struct nlmsghdr *h = (struct nlmsghdr *)buffer; NLMSG_OK(h, left); h = NLMSG_NEXT(h, left)) {
        if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY && h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg))) {
            const struct inet_diag_msg *found = NLMSG_DATA(h);
            *uid = found->idiag_uid;
            return 0;
        }
        if (h->nlmsg_type == NLMSG_ERROR) {
            const struct nlmsgerr *e = NLMSG_DATA(h);
            /* No such socket: an answer. Anything else: sock_diag cannot tell. */
            return e->error == -ENOENT ? 1 : -1;
        }
    }
    return 1;
}
