#include "ResolvShim.h"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>
#include <string.h>

/* One query of `type` for `name`; the answer's length, or -1. */
static int query(const char *name, const char *server, int port, int type, unsigned char *answer, int size) {
    struct __res_state state;
    memset(&state, 0, sizeof state);
    if (res_ninit(&state) != 0) return -1;
    if (server != NULL) {
        struct sockaddr_in addr;
        memset(&addr, 0, sizeof addr);
        addr.sin_family = AF_INET;
        addr.sin_port = htons((unsigned short)port);
        if (inet_pton(AF_INET, server, &addr.sin_addr) != 1) {
            res_nclose(&state);
            return -1;
        }
        state.nsaddr_list[0] = addr;
        state.nscount = 1;
    }
    state.retrans = 2;
    state.retry = 1;
    int n = res_nquery(&state, name, ns_c_in, type, answer, size);
    int nxdomain = n < 0 && (state.res_h_errno == HOST_NOT_FOUND || state.res_h_errno == NO_DATA);
    res_nclose(&state);
    if (nxdomain) return 0;
    return n;
}

int resolv_srv(const char *name, const char *server, int port, resolv_srv_record *out, int max) {
    unsigned char answer[4096];
    int n = query(name, server, port, ns_t_srv, answer, sizeof answer);
    if (n <= 0) return n;
    ns_msg msg;
    if (ns_initparse(answer, n, &msg) != 0) return -1;
    int found = 0;
    for (int i = 0; i < ns_msg_count(msg, ns_s_an) && found < max; i++) {
        ns_rr rr;
        if (ns_parserr(&msg, ns_s_an, i, &rr) != 0) return -1;
        if (ns_rr_type(rr) != ns_t_srv || ns_rr_rdlen(rr) < 7) continue;
        const unsigned char *rdata = ns_rr_rdata(rr);
        resolv_srv_record *r = &out[found];
        r->priority = ns_get16(rdata);
        r->weight = ns_get16(rdata + 2);
        r->port = ns_get16(rdata + 4);
        if (dn_expand(ns_msg_base(msg), ns_msg_end(msg), rdata + 6, r->target, sizeof r->target) < 0) return -1;
        found++;
    }
    return found;
}

int resolv_txt(const char *name, const char *server, int port, const char *key, char *out, int size) {
    unsigned char answer[4096];
    int n = query(name, server, port, ns_t_txt, answer, sizeof answer);
    if (n <= 0) return n;
    ns_msg msg;
    if (ns_initparse(answer, n, &msg) != 0) return -1;
    size_t keylen = strlen(key);
    for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
        ns_rr rr;
        if (ns_parserr(&msg, ns_s_an, i, &rr) != 0) return -1;
        if (ns_rr_type(rr) != ns_t_txt) continue;
        const unsigned char *p = ns_rr_rdata(rr), *end = p + ns_rr_rdlen(rr);
        /* Each record holds length-prefixed strings. */
        while (p < end) {
            int len = *p++;
            if (p + len > end) break;
            if ((size_t)len > keylen && memcmp(p, key, keylen) == 0 && p[keylen] == '=') {
                int value = len - (int)keylen - 1;
                if (value >= size) value = size - 1;
                memcpy(out, p + keylen + 1, (size_t)value);
                out[value] = 0;
                return value;
            }
            p += len;
        }
    }
    return 0;
}
