#ifndef CONTACTSD_CSQLITE_SHIM_H
#define CONTACTSD_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro that Swift cannot import. */
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

/* syncfs(2) is a GNU extension the Glibc module leaves out; the store syncs a batch of
 * photo files with one call before the transaction that refers to them commits. */
extern int syncfs(int fd);

#endif
