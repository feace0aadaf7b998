#ifndef CONTACTSD_LATE_LIBRARY_H
#define CONTACTSD_LATE_LIBRARY_H

/* A shared library loaded when it is first needed rather than when the program starts (libcurl
 * at the first sync, libmicrohttpd at the first CardDAV client, GnuTLS for the first
 * certificate, libqrencode for the first QR code), its functions looked up by name, and why it
 * could not be, said once. */

#include <stddef.h>

struct contactsd_library {
    const char *soname;
    void *handle;
    /* Why it cannot be used: empty while all is well. */
    char failure[256];
};

/* Opens it: bound at once, kept to itself, never unloaded (libraries that keep state for the
 * process's life). 0, or -1 with why in `failure`. */
int contactsd_library_open(struct contactsd_library *library);

/* One of its functions by name; NULL when it lacks it (the first such name is the failure). */
void *contactsd_library_symbol(struct contactsd_library *library, const char *name);

/* 0 when it can be used; else -1, with why copied into `error` when one is given. */
int contactsd_library_result(const struct contactsd_library *library, char *error, size_t size);

#endif
