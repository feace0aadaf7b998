#ifndef CONTACTSD_GOA_SHIM_H
#define CONTACTSD_GOA_SHIM_H

/* GNOME Online Accounts over the session bus (sd-bus, from libsystemd, which contactsd links
 * already): the Google accounts it has, and an access token of one. GOA keeps and refreshes
 * the tokens; contactsd keeps nothing. */

#include <stddef.h>

struct contactsd_goa_account {
    /* The account's object, e.g. /org/gnome/OnlineAccounts/Accounts/account_1700000000_0. */
    char path[256];
    /* The address it signs in as (PresentationIdentity, else Identity). */
    char identity[256];
    /* Contacts switched off for it in Settings, or GOA needs the user's attention (sign in again). */
    int contacts_disabled;
    int attention_needed;
};

/* GOA's Google accounts, at most `capacity` of them: how many, or -1 with why in `error`
 * (no session bus, no GOA). */
int contactsd_goa_google_accounts(struct contactsd_goa_account *accounts, int capacity, char *error, size_t size);

/* An access token of the account at `path` (`*token` allocated with malloc) and the seconds it
 * lasts: 0, or -1 with why in `error`. */
int contactsd_goa_access_token(const char *path, char **token, int *expires_in, char *error, size_t size);

#endif
