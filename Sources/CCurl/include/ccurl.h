#ifndef CONTACTSD_CCURL_H
#define CONTACTSD_CCURL_H
#include <curl/curl.h>
#include <stddef.h>

/* libcurl, loaded when the first request is made rather than when the program starts: the
 * TLS, LDAP, SSH and Kerberos libraries it brings keep some 5 MiB resident, which a daemon
 * that never syncs has no use for. Swift calls the ccurl_ functions alone (libcurl's own are
 * not linked); curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call,
 * so there is one plain function for each kind of argument. */

/* Loads libcurl and sets up its global state, once; later calls answer as the first did.
 * Returns 0, or -1 with what went wrong in `error` (at most `size` bytes with its NUL). */
int ccurl_load(char *error, size_t size);

/* libcurl's functions of the same names; ccurl_load must have returned 0. */
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *h);
void ccurl_easy_reset(CURL *h);
CURLcode ccurl_easy_perform(CURL *h);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);

typedef size_t (*ccurl_data_fn)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_fn)(void *context, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total, curl_off_t up_now);

CURLcode ccurl_set_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_set_size(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_set_pointer(CURL *h, CURLoption o, const void *v);
CURLcode ccurl_set_function(CURL *h, CURLoption o, ccurl_data_fn f);
CURLcode ccurl_set_progress(CURL *h, ccurl_progress_fn f);
CURLcode ccurl_get_long(CURL *h, CURLINFO i, long *v);

#endif
