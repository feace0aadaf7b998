#ifndef CONTACTSD_TLS_SHIM_H
#define CONTACTSD_TLS_SHIM_H

/* GnuTLS's certificate calls behind fixed signatures, loaded when first used (the LAN face's
 * certificate is made or read), not when contactsd starts. Every string it returns is
 * allocated with malloc: the caller frees it. */

#include <stddef.h>

/* Loads the library once; 0, or -1 with why in `error`. */
int contactsd_tls_load(char *error, size_t size);

/* Makes an ECDSA P-256 key and a certificate it signs itself for a TLS server: valid from a
 * minute ago for `days`, named `common_name`, with `dns_names` and `ip_addresses` (written as
 * text) in subjectAltName, extendedKeyUsage serverAuth and no CA rights. Both PEM. 0, or -1
 * with why in `error`. */
int contactsd_tls_make_certificate(const char *common_name, const char *const *dns_names, size_t dns_count,
                                   const char *const *ip_addresses, size_t ip_count, unsigned days, char **certificate_pem,
                                   char **key_pem, char *error, size_t size);

/* What a PEM certificate says: the SHA-256 of its DER form, when it starts and ends (seconds
 * since 1970), and its subjectAltName entries (DNS names and addresses, one a line). With a
 * key, also that the key is the certificate's. 0, or -1 with why in `error`. */
int contactsd_tls_inspect(const char *certificate_pem, const char *key_pem, unsigned char fingerprint[32], long long *activation,
                          long long *expiration, char **names, char *error, size_t size);

#endif
