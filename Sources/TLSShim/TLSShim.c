#include "TLSShim.h"

#include <arpa/inet.h>
#include <LateLibrary.h>
#include <gnutls/abstract.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

/* The soname of Debian's libgnutls30, the package libgnutls28-dev's headers are for. */
#define TLS_LIBRARY "libgnutls.so.30"

static struct {
    int (*global_init)(void);
    const char *(*strerror)(int error);
    gnutls_free_function *free;
    int (*privkey_init)(gnutls_x509_privkey_t *key);
    void (*privkey_deinit)(gnutls_x509_privkey_t key);
    int (*privkey_generate)(gnutls_x509_privkey_t key, gnutls_pk_algorithm_t algo, unsigned int bits, unsigned int flags);
    int (*privkey_export2_pkcs8)(gnutls_x509_privkey_t key, gnutls_x509_crt_fmt_t format, const char *password, unsigned int flags,
                                 gnutls_datum_t *out);
    int (*crt_init)(gnutls_x509_crt_t *cert);
    void (*crt_deinit)(gnutls_x509_crt_t cert);
    int (*crt_import)(gnutls_x509_crt_t cert, const gnutls_datum_t *data, gnutls_x509_crt_fmt_t format);
    int (*crt_export2)(gnutls_x509_crt_t cert, gnutls_x509_crt_fmt_t format, gnutls_datum_t *out);
    int (*crt_set_version)(gnutls_x509_crt_t crt, unsigned int version);
    int (*crt_set_serial)(gnutls_x509_crt_t cert, const void *serial, size_t serial_size);
    int (*crt_set_activation_time)(gnutls_x509_crt_t cert, time_t act_time);
    int (*crt_set_expiration_time)(gnutls_x509_crt_t cert, time_t exp_time);
    int (*crt_set_dn_by_oid)(gnutls_x509_crt_t crt, const char *oid, unsigned int raw_flag, const void *name, unsigned int sizeof_name);
    int (*crt_set_key)(gnutls_x509_crt_t crt, gnutls_x509_privkey_t key);
    int (*crt_set_subject_alt_name)(gnutls_x509_crt_t crt, gnutls_x509_subject_alt_name_t type, const void *data,
                                    unsigned int data_size, unsigned int flags);
    int (*crt_set_key_purpose_oid)(gnutls_x509_crt_t cert, const void *oid, unsigned int critical);
    int (*crt_set_key_usage)(gnutls_x509_crt_t crt, unsigned int usage);
    int (*crt_set_basic_constraints)(gnutls_x509_crt_t crt, unsigned int ca, int pathLenConstraint);
    int (*crt_get_key_id)(gnutls_x509_crt_t crt, unsigned int flags, unsigned char *output_data, size_t *output_data_size);
    int (*crt_set_subject_key_id)(gnutls_x509_crt_t cert, const void *id, size_t id_size);
    int (*crt_sign2)(gnutls_x509_crt_t crt, gnutls_x509_crt_t issuer, gnutls_x509_privkey_t issuer_key, gnutls_digest_algorithm_t dig,
                     unsigned int flags);
    int (*crt_get_fingerprint)(gnutls_x509_crt_t cert, gnutls_digest_algorithm_t algo, void *buf, size_t *buf_size);
    time_t (*crt_get_activation_time)(gnutls_x509_crt_t cert);
    time_t (*crt_get_expiration_time)(gnutls_x509_crt_t cert);
    int (*crt_get_subject_alt_name)(gnutls_x509_crt_t cert, unsigned int seq, void *san, size_t *san_size, unsigned int *critical);
    int (*certificate_allocate_credentials)(gnutls_certificate_credentials_t *res);
    void (*certificate_free_credentials)(gnutls_certificate_credentials_t sc);
    int (*certificate_set_x509_key_mem2)(gnutls_certificate_credentials_t res, const gnutls_datum_t *cert, const gnutls_datum_t *key,
                                         gnutls_x509_crt_fmt_t type, const char *pass, unsigned int flags);
} tls;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static struct contactsd_library library = {TLS_LIBRARY, NULL, {0}};

#define BIND(field, name) *(void **)&tls.field = contactsd_library_symbol(&library, name)

static void load(void) {
    if (contactsd_library_open(&library) != 0) return;
    BIND(global_init, "gnutls_global_init");
    BIND(strerror, "gnutls_strerror");
    BIND(free, "gnutls_free");
    BIND(privkey_init, "gnutls_x509_privkey_init");
    BIND(privkey_deinit, "gnutls_x509_privkey_deinit");
    BIND(privkey_generate, "gnutls_x509_privkey_generate");
    BIND(privkey_export2_pkcs8, "gnutls_x509_privkey_export2_pkcs8");
    BIND(crt_init, "gnutls_x509_crt_init");
    BIND(crt_deinit, "gnutls_x509_crt_deinit");
    BIND(crt_import, "gnutls_x509_crt_import");
    BIND(crt_export2, "gnutls_x509_crt_export2");
    BIND(crt_set_version, "gnutls_x509_crt_set_version");
    BIND(crt_set_serial, "gnutls_x509_crt_set_serial");
    BIND(crt_set_activation_time, "gnutls_x509_crt_set_activation_time");
    BIND(crt_set_expiration_time, "gnutls_x509_crt_set_expiration_time");
    BIND(crt_set_dn_by_oid, "gnutls_x509_crt_set_dn_by_oid");
    BIND(crt_set_key, "gnutls_x509_crt_set_key");
    BIND(crt_set_subject_alt_name, "gnutls_x509_crt_set_subject_alt_name");
    BIND(crt_set_key_purpose_oid, "gnutls_x509_crt_set_key_purpose_oid");
    BIND(crt_set_key_usage, "gnutls_x509_crt_set_key_usage");
    BIND(crt_set_basic_constraints, "gnutls_x509_crt_set_basic_constraints");
    BIND(crt_get_key_id, "gnutls_x509_crt_get_key_id");
    BIND(crt_set_subject_key_id, "gnutls_x509_crt_set_subject_key_id");
    BIND(crt_sign2, "gnutls_x509_crt_sign2");
    BIND(crt_get_fingerprint, "gnutls_x509_crt_get_fingerprint");
    BIND(crt_get_activation_time, "gnutls_x509_crt_get_activation_time");
    BIND(crt_get_expiration_time, "gnutls_x509_crt_get_expiration_time");
    BIND(crt_get_subject_alt_name, "gnutls_x509_crt_get_subject_alt_name");
    BIND(certificate_allocate_credentials, "gnutls_certificate_allocate_credentials");
    BIND(certificate_free_credentials, "gnutls_certificate_free_credentials");
    BIND(certificate_set_x509_key_mem2, "gnutls_certificate_set_x509_key_mem2");
    if (library.failure[0] == 0 && tls.global_init() < 0)
        snprintf(library.failure, sizeof library.failure, "%s did not initialise", TLS_LIBRARY);
}

int contactsd_tls_load(char *error, size_t size) {
    pthread_once(&loaded, load);
    return contactsd_library_result(&library, error, size);
}

/* Says why a GnuTLS call failed, with what it was doing; always -1. */
static int fail(char *error, size_t size, const char *doing, int code) {
    if (error != NULL && size > 0) snprintf(error, size, "%s: %s", doing, tls.strerror(code));
    return -1;
}

/* A datum GnuTLS allocated, as a NUL-terminated string of the caller's heap. */
static char *take(gnutls_datum_t *datum) {
    char *text = malloc(datum->size + 1);
    if (text != NULL) {
        memcpy(text, datum->data, datum->size);
        text[datum->size] = 0;
    }
    (*tls.free)(datum->data);
    datum->data = NULL;
    return text;
}

#define CHECK(call, doing)                                      \
    do {                                                        \
        int code_ = (call);                                     \
        if (code_ < 0) {                                        \
            result = fail(error, size, doing, code_);           \
            goto done;                                          \
        }                                                       \
    } while (0)

int contactsd_tls_make_certificate(const char *common_name, const char *const *dns_names, size_t dns_count,
                                   const char *const *ip_addresses, size_t ip_count, unsigned days, char **certificate_pem,
                                   char **key_pem, char *error, size_t size) {
    if (contactsd_tls_load(error, size) != 0) return -1;
    int result = 0;
    gnutls_x509_privkey_t key = NULL;
    gnutls_x509_crt_t crt = NULL;
    gnutls_datum_t out = {NULL, 0};
    *certificate_pem = NULL;
    *key_pem = NULL;
    CHECK(tls.privkey_init(&key), "making a key");
    CHECK(tls.privkey_generate(key, GNUTLS_PK_ECDSA, GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0), "making a key");
    CHECK(tls.crt_init(&crt), "making a certificate");
    CHECK(tls.crt_set_version(crt, 3), "making a certificate");
    unsigned char serial[16];
    if (getrandom(serial, sizeof serial, 0) != (ssize_t)sizeof serial) {
        snprintf(error, size, "no random bytes for the serial number");
        result = -1;
        goto done;
    }
    serial[0] &= 0x7f; /* a positive number */
    serial[0] |= 0x01; /* of the full length */
    CHECK(tls.crt_set_serial(crt, serial, sizeof serial), "setting the serial number");
    time_t now = time(NULL);
    CHECK(tls.crt_set_activation_time(crt, now - 60), "setting the validity");
    CHECK(tls.crt_set_expiration_time(crt, now + (time_t)days * 86400), "setting the validity");
    CHECK(tls.crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, common_name, (unsigned)strlen(common_name)), "naming it");
    CHECK(tls.crt_set_key(crt, key), "setting its key");
    for (size_t i = 0; i < dns_count; i++) {
        CHECK(tls.crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, dns_names[i], (unsigned)strlen(dns_names[i]), GNUTLS_FSAN_APPEND),
              "adding a name");
    }
    for (size_t i = 0; i < ip_count; i++) {
        unsigned char address[16];
        unsigned length = 0;
        if (inet_pton(AF_INET, ip_addresses[i], address) == 1) {
            length = 4;
        } else if (inet_pton(AF_INET6, ip_addresses[i], address) == 1) {
            length = 16;
        } else {
            snprintf(error, size, "'%s' is not an IP address", ip_addresses[i]);
            result = -1;
            goto done;
        }
        CHECK(tls.crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS, address, length, GNUTLS_FSAN_APPEND), "adding an address");
    }
    CHECK(tls.crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0), "setting its purpose");
    CHECK(tls.crt_set_key_usage(crt, GNUTLS_KEY_DIGITAL_SIGNATURE), "setting its key usage");
    CHECK(tls.crt_set_basic_constraints(crt, 0, -1), "setting it is no CA");
    unsigned char id[32];
    size_t id_size = sizeof id;
    CHECK(tls.crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA1, id, &id_size), "naming its key");
    CHECK(tls.crt_set_subject_key_id(crt, id, id_size), "naming its key");
    CHECK(tls.crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0), "signing it");
    CHECK(tls.crt_export2(crt, GNUTLS_X509_FMT_PEM, &out), "writing it");
    *certificate_pem = take(&out);
    CHECK(tls.privkey_export2_pkcs8(key, GNUTLS_X509_FMT_PEM, NULL, GNUTLS_PKCS_PLAIN, &out), "writing its key");
    *key_pem = take(&out);
    if (*certificate_pem == NULL || *key_pem == NULL) {
        snprintf(error, size, "out of memory");
        result = -1;
    }
done:
    if (result != 0) {
        free(*certificate_pem);
        free(*key_pem);
        *certificate_pem = NULL;
        *key_pem = NULL;
    }
    if (crt != NULL) tls.crt_deinit(crt);
    if (key != NULL) tls.privkey_deinit(key);
    return result;
}

/* The subjectAltName entries, one a line: DNS names as they are, addresses as text. */
static char *alt_names(gnutls_x509_crt_t crt) {
    size_t capacity = 256, used = 0;
    char *text = malloc(capacity);
    if (text == NULL) return NULL;
    text[0] = 0;
    for (unsigned seq = 0; seq < 64; seq++) {
        unsigned char value[256];
        size_t value_size = sizeof value - 1;
        int type = tls.crt_get_subject_alt_name(crt, seq, value, &value_size, NULL);
        if (type == GNUTLS_E_REQUESTED_DATA_NOT_AVAILABLE) break;
        char line[INET6_ADDRSTRLEN + 256];
        if (type == GNUTLS_SAN_DNSNAME) {
            value[value_size] = 0;
            snprintf(line, sizeof line, "%s\n", (const char *)value);
        } else if (type == GNUTLS_SAN_IPADDRESS && (value_size == 4 || value_size == 16)) {
            char address[INET6_ADDRSTRLEN];
            inet_ntop(value_size == 4 ? AF_INET : AF_INET6, value, address, sizeof address);
            snprintf(line, sizeof line, "%s\n", address);
        } else {
            continue;
        }
        size_t length = strlen(line);
        if (used + length + 1 > capacity) {
            capacity = (used + length + 1) * 2;
            char *larger = realloc(text, capacity);
            if (larger == NULL) break;
            text = larger;
        }
        memcpy(text + used, line, length + 1);
        used += length;
    }
    return text;
}

int contactsd_tls_inspect(const char *certificate_pem, const char *key_pem, unsigned char fingerprint[32], long long *activation,
                          long long *expiration, char **names, char *error, size_t size) {
    if (contactsd_tls_load(error, size) != 0) return -1;
    int result = 0;
    gnutls_x509_crt_t crt = NULL;
    gnutls_certificate_credentials_t credentials = NULL;
    *names = NULL;
    gnutls_datum_t pem = {(unsigned char *)certificate_pem, (unsigned)strlen(certificate_pem)};
    CHECK(tls.crt_init(&crt), "reading the certificate");
    CHECK(tls.crt_import(crt, &pem, GNUTLS_X509_FMT_PEM), "reading the certificate");
    size_t fingerprint_size = 32;
    CHECK(tls.crt_get_fingerprint(crt, GNUTLS_DIG_SHA256, fingerprint, &fingerprint_size), "reading its fingerprint");
    *activation = (long long)tls.crt_get_activation_time(crt);
    *expiration = (long long)tls.crt_get_expiration_time(crt);
    if (key_pem != NULL) {
        gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned)strlen(key_pem)};
        CHECK(tls.certificate_allocate_credentials(&credentials), "reading the key");
        CHECK(tls.certificate_set_x509_key_mem2(credentials, &pem, &key, GNUTLS_X509_FMT_PEM, NULL, 0),
              "reading the key with the certificate");
    }
    *names = alt_names(crt);
done:
    if (credentials != NULL) tls.certificate_free_credentials(credentials);
    if (crt != NULL) tls.crt_deinit(crt);
    return result;
}
