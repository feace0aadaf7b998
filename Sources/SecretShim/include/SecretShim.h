#ifndef CONTACTSD_SECRET_SHIM_H
#define CONTACTSD_SECRET_SHIM_H

/* The Secret Service (GNOME Keyring, KWallet) through libsecret, behind three functions,
 * loaded when an account's secret is first stored or read. Secrets are kept under the
 * schema `org.contactsd.Account` with two attributes: `account` (the account's name) and
 * `kind` (what the secret is, e.g. `google-refresh-token`). */

#include <stddef.h>

/* Stores `secret` (replacing the one kept), labelled `label` in the keyring's view. 0, or -1
 * with why in `error`. */
int contactsd_secret_store(const char *account, const char *kind, const char *label, const char *secret, char *error,
                           size_t size);

/* The secret kept (in `*secret`, allocated with malloc, to be wiped and freed by the caller):
 * 1; none kept: 0; or -1 with why in `error`. */
int contactsd_secret_lookup(const char *account, const char *kind, char **secret, char *error, size_t size);

/* Forgets it. 0 (also when there was none), or -1 with why in `error`. */
int contactsd_secret_clear(const char *account, const char *kind, char *error, size_t size);

#endif
