#ifndef CONTACTSD_RESOLV_SHIM_H
#define CONTACTSD_RESOLV_SHIM_H

/* DNS service records (RFC 2782) through the C library's resolver, for RFC 6764 discovery.
 * The resolver's macros and structures stay here: Swift sees plain functions. */

typedef struct {
    int priority;
    int weight;
    int port;
    char target[256];
} resolv_srv_record;

/* The SRV records of `name`, at most `max` of them, from the system's resolver, or from the
 * name server at the IPv4 address `server` and `port` when `server` is not NULL. Returns how
 * many there are (0 when the name has none), or -1 when the lookup failed. */
int resolv_srv(const char *name, const char *server, int port, resolv_srv_record *out, int max);

/* The value of the first TXT record of `name` that reads `key=value`, into `out` (at most
 * `size` bytes with its terminating NUL). Returns its length, 0 when there is none, -1 when
 * the lookup failed. */
int resolv_txt(const char *name, const char *server, int port, const char *key, char *out, int size);

#endif
