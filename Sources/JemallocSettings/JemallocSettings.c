#include "JemallocSettings.h"

/* jemalloc reads this string before the first allocation (it overrides the library's own
 * empty one; MALLOC_CONF in the environment still goes over it).
 *
 * percpu_arena:percpu: an arena for each CPU, taken by whichever thread runs there, rather
 * than four arenas for each core handed round to threads as they start. Every arena keeps
 * its own partly used slabs of every size and its own bookkeeping; with eight of them on two
 * cores, the daemon's long-lived threads, each bound to its own arena, pinned pages in most
 * of them. At rest after the bench's 100k import, gets and export: 50-51 -> 48-49 MiB
 * resident, the import and the searches as fast (docs/decisions.md, "Memory"). Smaller
 * thread caches (tcache_max:4096 and fewer slots) took one more MiB and made listing every
 * match 15-20 % slower. */
const char *malloc_conf = "percpu_arena:percpu";
