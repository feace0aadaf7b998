#ifndef CONTACTSD_JEMALLOC_SETTINGS_H
#define CONTACTSD_JEMALLOC_SETTINGS_H
/* The daemon's settings for jemalloc, in `malloc_conf`, which jemalloc reads at its start.
 * Linked into contactsd alone; inert where another allocator serves malloc. */
extern const char *malloc_conf;
#endif
