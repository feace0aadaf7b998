#include "SecretShim.h"

#include <LateLibrary.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname of Debian's libsecret-1-0. Its public types, as libsecret's secret-schema.h and
 * GLib's gerror.h declare them (a stable ABI), are repeated here so that building needs no
 * GLib headers. */
#define SECRET_LIBRARY "libsecret-1.so.0"

typedef struct {
    const char *name;
    int type; /* SECRET_SCHEMA_ATTRIBUTE_STRING = 0 */
} schema_attribute;

typedef struct {
    const char *name;
    int flags; /* SECRET_SCHEMA_NONE = 0 */
    schema_attribute attributes[32];
    int reserved;
    void *reserved1, *reserved2, *reserved3, *reserved4, *reserved5, *reserved6, *reserved7;
} secret_schema;

typedef struct {
    unsigned int domain;
    int code;
    char *message;
} gerror;

static const secret_schema schema = {
    "org.contactsd.Account", 0, {{"account", 0}, {"kind", 0}, {NULL, 0}}, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

static int (*password_store_sync)(const secret_schema *schema, const char *collection, const char *label, const char *password,
                                  void *cancellable, gerror **error, ...);
static char *(*password_lookup_sync)(const secret_schema *schema, void *cancellable, gerror **error, ...);
static int (*password_clear_sync)(const secret_schema *schema, void *cancellable, gerror **error, ...);
static void (*password_free)(char *password);
static void (*error_free)(gerror *error);

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static struct contactsd_library library = {SECRET_LIBRARY, NULL, {0}};

static void load(void) {
    if (contactsd_library_open(&library) != 0) return;
    *(void **)&password_store_sync = contactsd_library_symbol(&library, "secret_password_store_sync");
    *(void **)&password_lookup_sync = contactsd_library_symbol(&library, "secret_password_lookup_sync");
    *(void **)&password_clear_sync = contactsd_library_symbol(&library, "secret_password_clear_sync");
    *(void **)&password_free = contactsd_library_symbol(&library, "secret_password_free");
    /* GLib comes with libsecret. */
    *(void **)&error_free = contactsd_library_symbol(&library, "g_error_free");
}

static int failed(gerror *e, const char *doing, char *error, size_t size) {
    snprintf(error, size, "cannot %s the Secret Service: %s", doing, e && e->message ? e->message : "no reason given");
    if (e) error_free(e);
    return -1;
}

int contactsd_secret_store(const char *account, const char *kind, const char *label, const char *secret, char *error,
                           size_t size) {
    pthread_once(&loaded, load);
    if (contactsd_library_result(&library, error, size) != 0) return -1;
    gerror *e = NULL;
    if (!password_store_sync(&schema, "default", label, secret, NULL, &e, "account", account, "kind", kind, NULL))
        return failed(e, "store a secret in", error, size);
    return 0;
}

int contactsd_secret_lookup(const char *account, const char *kind, char **secret, char *error, size_t size) {
    pthread_once(&loaded, load);
    if (contactsd_library_result(&library, error, size) != 0) return -1;
    gerror *e = NULL;
    char *found = password_lookup_sync(&schema, NULL, &e, "account", account, "kind", kind, NULL);
    if (e) return failed(e, "read a secret from", error, size);
    if (found == NULL) return 0;
    *secret = strdup(found);
    /* Wiped as it is freed. */
    password_free(found);
    if (*secret == NULL) {
        snprintf(error, size, "out of memory");
        return -1;
    }
    return 1;
}

int contactsd_secret_clear(const char *account, const char *kind, char *error, size_t size) {
    pthread_once(&loaded, load);
    if (contactsd_library_result(&library, error, size) != 0) return -1;
    gerror *e = NULL;
    password_clear_sync(&schema, NULL, &e, "account", account, "kind", kind, NULL);
    if (e) return failed(e, "clear a secret in", error, size);
    return 0;
}
