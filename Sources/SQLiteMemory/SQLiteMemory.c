#include "SQLiteMemory.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <stdlib.h>

static atomic_llong held;
static atomic_int installed;

/* Each block carries its size in the eight bytes before it (SQLite needs eight-byte
 * alignment, which that keeps): asking malloc for a block's size cost more than the count. */
enum { header = 8 };

static void *count_malloc(int n) {
    long long *p = malloc((size_t)n + header);
    if (!p) return 0;
    *p = n;
    atomic_fetch_add_explicit(&held, n, memory_order_relaxed);
    return p + 1;
}

static void count_free(void *block) {
    if (!block) return;
    long long *p = (long long *)block - 1;
    atomic_fetch_sub_explicit(&held, *p, memory_order_relaxed);
    free(p);
}

static void *count_realloc(void *block, int n) {
    if (!block) return count_malloc(n);
    long long *p = (long long *)block - 1;
    long long before = *p;
    long long *q = realloc(p, (size_t)n + header);
    /* A failed realloc leaves the old block as it was. */
    if (!q) return 0;
    *q = n;
    atomic_fetch_add_explicit(&held, n - before, memory_order_relaxed);
    return q + 1;
}

static int count_size(void *block) { return block ? (int)((long long *)block)[-1] : 0; }

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
