#ifndef CONTACTSD_SCAN_KERNEL_H
#define CONTACTSD_SCAN_KERNEL_H
#include <stddef.h>

/* The first position i < length - 1 where text[i] == first and text[i + 1] == second, or
 * -1. Sixteen positions are compared at a time (SSE2, which every x86-64 has); elsewhere a
 * plain loop. The search scan looks for a needle's rarest pair of bytes with it: a pair
 * stops the scan far less often than a single byte does. */
long scan_find_pair(const unsigned char *text, size_t length, unsigned char first, unsigned char second);

#endif
