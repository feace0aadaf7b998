#ifndef CONTACTSD_MAIL_SHIM_H
#define CONTACTSD_MAIL_SHIM_H

/* GMime (libgmime-3.0.so.0, the MIME library notmuch uses) behind three functions, loaded when
 * the first message is read: address headers and dates as mail clients write them, broken
 * ones too. GMime's types are opaque here (pointers only), so building needs no GLib headers. */

#include <stddef.h>

/* One mailbox of an address header: the address and the name beside it (empty when none),
 * both UTF-8, both allocated with malloc. */
struct contactsd_mail_mailbox {
    char *address;
    char *name;
};

/* The mailboxes of an address header's value (From, To, Cc, ...), groups opened into their
 * members, in order: RFC 2047 encoded words in any charset GMime knows, raw 8-bit text read as
 * UTF-8 or else Windows-1252, comments and quoting as RFC 5322 has them, and what is broken
 * read as well as it can be. `*mailboxes` (with `*count` entries) is freed by
 * contactsd_mail_mailboxes_free. 0, or -1 with why in `error` (GMime cannot be loaded). */
int contactsd_mail_parse_addresses(const char *value, struct contactsd_mail_mailbox **mailboxes, size_t *count, char *error,
                                   size_t size);

void contactsd_mail_mailboxes_free(struct contactsd_mail_mailbox *mailboxes, size_t count);

/* A Date header's value in seconds since 1970: 0, or -1 when it names no date (or GMime cannot
 * be loaded). */
int contactsd_mail_parse_date(const char *value, long long *seconds);

#endif
