#ifndef CONTACTSD_CCURL_SHIM_H
#define CONTACTSD_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one plain
   function for each kind of argument. */
typedef size_t (*ccurl_data_fn)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_set_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_set_size(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_set_pointer(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode ccurl_set_function(CURL *h, CURLoption o, ccurl_data_fn f) { return curl_easy_setopt(h, o, f); }
static inline CURLcode ccurl_get_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }

typedef int (*ccurl_progress_fn)(void *context, curl_off_t down_total, curl_off_t down_now, curl_off_t up_total, curl_off_t up_now);
static inline CURLcode ccurl_set_progress(CURL *h, ccurl_progress_fn f) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f); }

#endif
