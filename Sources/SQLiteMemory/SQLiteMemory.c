#include "SQLiteMemory.h"

#include <malloc.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>

static atomic_llong held;
static atomic_int installed;

static void *count_malloc(int n) {
    void *p = malloc((size_t)n);
    if (p) atomic_fetch_add_explicit(&held, (long long)malloc_usable_size(p), memory_order_relaxed);
    return p;
}

static void count_free(void *p) {
    if (!p) return;
    atomic_fetch_sub_explicit(&held, (long long)malloc_usable_size(p), memory_order_relaxed);
    free(p);
}

static void *count_realloc(void *p, int n) {
    long long before = p ? (long long)malloc_usable_size(p) : 0;
    void *q = realloc(p, (size_t)n);
    /* A failed realloc leaves the old block as it was. */
    if (q) atomic_fetch_add_explicit(&held, (long long)malloc_usable_size(q) - before, memory_order_relaxed);
    return q;
}

static int count_size(void *p) { return p ? (int)malloc_usable_size(p) : 0; }

static int count_roundup(int n) { return (n + 7) & ~7; }

static int count_init(void *unused) {
    (void)unused;
    return SQLITE_OK;
}

static void count_shutdown(void *unused) { (void)unused; }

int contactsd_sqlite_count_memory(void) {
    static const sqlite3_mem_methods methods = {
        count_malloc, count_free, count_realloc, count_size, count_roundup, count_init, count_shutdown, 0,
    };
    int rc = sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
    if (rc != SQLITE_OK) return rc;
    rc = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    if (rc != SQLITE_OK) return rc;
    atomic_store(&installed, 1);
    return SQLITE_OK;
}

long long contactsd_sqlite_memory_used(void) { return atomic_load(&installed) ? atomic_load_explicit(&held, memory_order_relaxed) : -1; }
