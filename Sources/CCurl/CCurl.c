#include "ccurl.h"

#include <LateLibrary.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The soname of libcurl4 (OpenSSL), the package libcurl4-openssl-dev's headers are for. */
#define CCURL_LIBRARY "libcurl.so.4"

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *h);
    void (*easy_reset)(CURL *h);
    CURLcode (*easy_perform)(CURL *h);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *h, CURLoption o, ...);
    CURLcode (*easy_getinfo)(CURL *h, CURLINFO i, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
} curl;

static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static struct contactsd_library library = {CCURL_LIBRARY, NULL, {0}};

static void load(void) {
    /* The library stays loaded: it keeps state (TLS, handlers at exit) for the process's life. */
    if (contactsd_library_open(&library) != 0) return;
    *(void **)&curl.global_init = contactsd_library_symbol(&library, "curl_global_init");
    *(void **)&curl.easy_init = contactsd_library_symbol(&library, "curl_easy_init");
    *(void **)&curl.easy_cleanup = contactsd_library_symbol(&library, "curl_easy_cleanup");
    *(void **)&curl.easy_reset = contactsd_library_symbol(&library, "curl_easy_reset");
    *(void **)&curl.easy_perform = contactsd_library_symbol(&library, "curl_easy_perform");
    *(void **)&curl.easy_strerror = contactsd_library_symbol(&library, "curl_easy_strerror");
    *(void **)&curl.easy_setopt = contactsd_library_symbol(&library, "curl_easy_setopt");
    *(void **)&curl.easy_getinfo = contactsd_library_symbol(&library, "curl_easy_getinfo");
    *(void **)&curl.slist_append = contactsd_library_symbol(&library, "curl_slist_append");
    *(void **)&curl.slist_free_all = contactsd_library_symbol(&library, "curl_slist_free_all");
    if (library.failure[0] != 0) return;
    if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        snprintf(library.failure, sizeof library.failure, "%s could not set itself up", CCURL_LIBRARY);
}

int ccurl_load(char *error, size_t size) {
    pthread_once(&loaded, load);
    return contactsd_library_result(&library, error, size);
}

CURL *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(CURL *h) { curl.easy_cleanup(h); }
void ccurl_easy_reset(CURL *h) { curl.easy_reset(h); }
CURLcode ccurl_easy_perform(CURL *h) { return curl.easy_perform(h); }
const char *ccurl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) { return curl.slist_append(list, line); }
void ccurl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLcode ccurl_set_long(CURL *h, CURLoption o, long v) { return curl.easy_setopt(h, o, v); }
CURLcode ccurl_set_size(CURL *h, CURLoption o, curl_off_t v) { return curl.easy_setopt(h, o, v); }
CURLcode ccurl_set_pointer(CURL *h, CURLoption o, const void *v) { return curl.easy_setopt(h, o, v); }
CURLcode ccurl_set_function(CURL *h, CURLoption o, ccurl_data_fn f) { return curl.easy_setopt(h, o, f); }
CURLcode ccurl_set_progress(CURL *h, ccurl_progress_fn f) { return curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }
CURLcode ccurl_get_long(CURL *h, CURLINFO i, long *v) { return curl.easy_getinfo(h, i, v); }
