#include "MailShim.h"

#include <LateLibrary.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname of Debian's libgmime-3.0-0, the library libgmime-3.0-dev is for. */
#define MAIL_LIBRARY "libgmime-3.0.so.0"

/* GMime's and GLib's types as its public headers have them; only pointers cross here. */
typedef struct opaque_options options_t;
typedef struct opaque_list list_t;
typedef struct opaque_address address_t;
typedef struct opaque_date date_t;
typedef unsigned long gtype_t;
enum { RFC_COMPLIANCE_LOOSE = 0 };

static void (*mime_init)(void);
static options_t *(*options_new)(void);
static void (*options_set_fallback_charsets)(options_t *options, const char **charsets);
static void (*options_set_address_mode)(options_t *options, int mode);
static void (*options_set_rfc2047_mode)(options_t *options, int mode);
static list_t *(*list_parse)(options_t *options, const char *text);
static int (*list_length)(list_t *list);
static address_t *(*list_get)(list_t *list, int index);
static const char *(*address_name)(address_t *address);
static const char *(*mailbox_addr)(address_t *mailbox);
static list_t *(*group_members)(address_t *group);
static gtype_t (*group_type)(void);
static int (*instance_is_a)(void *instance, gtype_t type);
static void (*object_unref)(void *object);
static date_t *(*decode_date)(const char *text);
static int64_t (*date_to_unix)(date_t *date);
static void (*date_unref)(date_t *date);

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static struct contactsd_library library = {MAIL_LIBRARY, NULL, {0}};
/* Made once, read by every parse after. */
static options_t *options;

#define FIND(variable, name) *(void **)&variable = contactsd_library_symbol(&library, name)

static void load(void) {
    if (contactsd_library_open(&library) != 0) return;
    FIND(mime_init, "g_mime_init");
    FIND(options_new, "g_mime_parser_options_new");
    FIND(options_set_fallback_charsets, "g_mime_parser_options_set_fallback_charsets");
    FIND(options_set_address_mode, "g_mime_parser_options_set_address_compliance_mode");
    FIND(options_set_rfc2047_mode, "g_mime_parser_options_set_rfc2047_compliance_mode");
    FIND(list_parse, "internet_address_list_parse");
    FIND(list_length, "internet_address_list_length");
    FIND(list_get, "internet_address_list_get_address");
    FIND(address_name, "internet_address_get_name");
    FIND(mailbox_addr, "internet_address_mailbox_get_addr");
    FIND(group_members, "internet_address_group_get_members");
    FIND(group_type, "internet_address_group_get_type");
    /* GObject's and GLib's, found through GMime, which links them. */
    FIND(instance_is_a, "g_type_check_instance_is_a");
    FIND(object_unref, "g_object_unref");
    FIND(decode_date, "g_mime_utils_header_decode_date");
    FIND(date_to_unix, "g_date_time_to_unix");
    FIND(date_unref, "g_date_time_unref");
    if (contactsd_library_result(&library, NULL, 0) != 0) return;
    mime_init();
    options = options_new();
    static const char *charsets[] = {"UTF-8", "windows-1252", NULL};
    options_set_fallback_charsets(options, charsets);
    options_set_address_mode(options, RFC_COMPLIANCE_LOOSE);
    options_set_rfc2047_mode(options, RFC_COMPLIANCE_LOOSE);
}

static char *copy(const char *text) { return strdup(text != NULL ? text : ""); }

/* Appends the mailboxes of `list` (groups' members in their place); -1 when memory runs out. */
static int append(list_t *list, struct contactsd_mail_mailbox **out, size_t *count, size_t *capacity, int depth) {
    int n = list_length(list);
    for (int i = 0; i < n; i++) {
        address_t *a = list_get(list, i);
        if (a == NULL) continue;
        if (instance_is_a(a, group_type())) {
            list_t *members = group_members(a);
            /* A group inside a group is not mail as RFC 5322 has it; one level is read. */
            if (members != NULL && depth == 0 && append(members, out, count, capacity, 1) != 0) return -1;
            continue;
        }
        const char *addr = mailbox_addr(a);
        if (addr == NULL || addr[0] == '\0') continue;
        if (*count == *capacity) {
            size_t more = *capacity == 0 ? 4 : *capacity * 2;
            struct contactsd_mail_mailbox *grown = realloc(*out, more * sizeof **out);
            if (grown == NULL) return -1;
            *out = grown;
            *capacity = more;
        }
        (*out)[*count].address = copy(addr);
        (*out)[*count].name = copy(address_name(a));
        if ((*out)[*count].address == NULL || (*out)[*count].name == NULL) return -1;
        *count += 1;
    }
    return 0;
}

int contactsd_mail_parse_addresses(const char *value, struct contactsd_mail_mailbox **mailboxes, size_t *count, char *error,
                                   size_t size) {
    pthread_once(&loaded, load);
    *mailboxes = NULL;
    *count = 0;
    if (contactsd_library_result(&library, error, size) != 0) return -1;
    list_t *list = list_parse(options, value);
    if (list == NULL) return 0;
    size_t capacity = 0;
    int rc = append(list, mailboxes, count, &capacity, 0);
    object_unref(list);
    if (rc != 0) {
        contactsd_mail_mailboxes_free(*mailboxes, *count);
        *mailboxes = NULL;
        *count = 0;
        snprintf(error, size, "out of memory");
        return -1;
    }
    return 0;
}

void contactsd_mail_mailboxes_free(struct contactsd_mail_mailbox *mailboxes, size_t count) {
    for (size_t i = 0; i < count; i++) {
        free(mailboxes[i].address);
        free(mailboxes[i].name);
    }
    free(mailboxes);
}

int contactsd_mail_parse_date(const char *value, long long *seconds) {
    pthread_once(&loaded, load);
    if (contactsd_library_result(&library, NULL, 0) != 0) return -1;
    date_t *date = decode_date(value);
    if (date == NULL) return -1;
    *seconds = (long long)date_to_unix(date);
    date_unref(date);
    return 0;
}
