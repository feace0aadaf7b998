#include "GOAShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define GOA_NAME "org.gnome.OnlineAccounts"
#define GOA_ACCOUNT "org.gnome.OnlineAccounts.Account"

static int fail(sd_bus_error *e, int r, const char *doing, char *error, size_t size) {
    snprintf(error, size, "cannot %s GNOME Online Accounts: %s", doing,
             e && sd_bus_error_is_set(e) ? (e->message ? e->message : e->name) : strerror(-r));
    if (e) sd_bus_error_free(e);
    return -1;
}

/* Reads one `sv` entry of the Account interface's properties into `a`. */
static int read_property(sd_bus_message *m, struct contactsd_goa_account *a, int *google) {
    const char *name = NULL;
    int r = sd_bus_message_read(m, "s", &name);
    if (r < 0) return r;
    const char *text = NULL;
    int flag = 0;
    if (strcmp(name, "ProviderType") == 0 || strcmp(name, "PresentationIdentity") == 0 || strcmp(name, "Identity") == 0) {
        if ((r = sd_bus_message_read(m, "v", "s", &text)) < 0) return r;
        if (strcmp(name, "ProviderType") == 0) {
            *google = strcmp(text, "google") == 0;
        } else if (strcmp(name, "PresentationIdentity") == 0 || a->identity[0] == 0) {
            snprintf(a->identity, sizeof a->identity, "%s", text);
        }
        return 0;
    }
    if (strcmp(name, "ContactsDisabled") == 0 || strcmp(name, "AttentionNeeded") == 0) {
        if ((r = sd_bus_message_read(m, "v", "b", &flag)) < 0) return r;
        if (strcmp(name, "ContactsDisabled") == 0) a->contacts_disabled = flag;
        else a->attention_needed = flag;
        return 0;
    }
    return sd_bus_message_skip(m, "v");
}

/* Reads one object's `a{sa{sv}}`; 1 when it is a Google account (then `a` says what it is). */
static int read_object(sd_bus_message *m, struct contactsd_goa_account *a) {
    int google = 0, r;
    if ((r = sd_bus_message_enter_container(m, 'a', "{sa{sv}}")) < 0) return r;
    while ((r = sd_bus_message_enter_container(m, 'e', "sa{sv}")) > 0) {
        const char *interface = NULL;
        if ((r = sd_bus_message_read(m, "s", &interface)) < 0) return r;
        if (strcmp(interface, GOA_ACCOUNT) == 0) {
            if ((r = sd_bus_message_enter_container(m, 'a', "{sv}")) < 0) return r;
            while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
                if ((r = read_property(m, a, &google)) < 0) return r;
                if ((r = sd_bus_message_exit_container(m)) < 0) return r;
            }
            if (r < 0) return r;
            if ((r = sd_bus_message_exit_container(m)) < 0) return r;
        } else if ((r = sd_bus_message_skip(m, "a{sv}")) < 0) {
            return r;
        }
        if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    }
    if (r < 0) return r;
    if ((r = sd_bus_message_exit_container(m)) < 0) return r;
    return google;
}

int contactsd_goa_google_accounts(struct contactsd_goa_account *accounts, int capacity, char *error, size_t size) {
    sd_bus *bus = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = sd_bus_open_user(&bus);
    if (r < 0) return fail(NULL, r, "reach the session bus for", error, size);
    r = sd_bus_call_method(bus, GOA_NAME, "/org/gnome/OnlineAccounts", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects",
                           &e, &reply, "");
    if (r < 0) {
        sd_bus_flush_close_unref(bus);
        return fail(&e, r, "ask", error, size);
    }
    int count = 0;
    if ((r = sd_bus_message_enter_container(reply, 'a', "{oa{sa{sv}}}")) >= 0) {
        while ((r = sd_bus_message_enter_container(reply, 'e', "oa{sa{sv}}")) > 0) {
            const char *path = NULL;
            struct contactsd_goa_account a;
            memset(&a, 0, sizeof a);
            if ((r = sd_bus_message_read(reply, "o", &path)) < 0) break;
            snprintf(a.path, sizeof a.path, "%s", path);
            int google = read_object(reply, &a);
            if (google < 0) {
                r = google;
                break;
            }
            if (google && count < capacity) accounts[count++] = a;
            if ((r = sd_bus_message_exit_container(reply)) < 0) break;
        }
    }
    sd_bus_message_unref(reply);
    sd_bus_flush_close_unref(bus);
    if (r < 0) return fail(NULL, r, "read the accounts of", error, size);
    return count;
}

int contactsd_goa_access_token(const char *path, char **token, int *expires_in, char *error, size_t size) {
    sd_bus *bus = NULL;
    sd_bus_message *reply = NULL;
    sd_bus_error e = SD_BUS_ERROR_NULL;
    int r = sd_bus_open_user(&bus);
    if (r < 0) return fail(NULL, r, "reach the session bus for", error, size);
    r = sd_bus_call_method(bus, GOA_NAME, path, "org.gnome.OnlineAccounts.OAuth2Based", "GetAccessToken", &e, &reply, "");
    if (r < 0) {
        sd_bus_flush_close_unref(bus);
        return fail(&e, r, "get an access token from", error, size);
    }
    const char *text = NULL;
    int seconds = 0;
    r = sd_bus_message_read(reply, "si", &text, &seconds);
    if (r >= 0) {
        *token = strdup(text);
        *expires_in = seconds;
    }
    sd_bus_message_unref(reply);
    sd_bus_flush_close_unref(bus);
    if (r < 0) return fail(NULL, r, "read the access token of", error, size);
    if (*token == NULL) {
        snprintf(error, size, "out of memory");
        return -1;
    }
    return 0;
}
