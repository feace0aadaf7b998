#ifndef CONTACTSD_CJEMALLOC_SHIM_H
#define CONTACTSD_CJEMALLOC_SHIM_H
/* jemalloc serves malloc and free for the whole daemon once it is linked in; the daemon
 * itself only asks it to give memory back (mallctl). */
#include <jemalloc/jemalloc.h>
#endif
