#ifndef CONTACTSD_SQLITE_MEMORY_H
#define CONTACTSD_SQLITE_MEMORY_H

/* SQLite's heap, counted without a lock.
 *
 * SQLite counts the memory it holds (sqlite3_memory_used) under a global mutex that every
 * allocation and free takes, and asks malloc for each block's size to do so. This build has
 * no lookaside, so each row written or read takes that mutex a dozen times. These calls hand
 * SQLite allocator functions that keep the same count in one atomic integer instead, and turn
 * its own count off. */

/* Installs the counting allocator. Must come before SQLite is first used; returns 0 when it
 * is in place, else SQLite's error code (then sqlite3_memory_used counts as before). */
int contactsd_sqlite_count_memory(void);

/* Bytes SQLite holds now (what it asked for), or -1 when the counting allocator is not in
 * place. */
long long contactsd_sqlite_memory_used(void);

#endif
