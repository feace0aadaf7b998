#ifndef CONTACTSD_SHA256_KERNEL_H
#define CONTACTSD_SHA256_KERNEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this processor has the x86 SHA extensions (and the SSE4.1 they are used with). */
bool sha256_kernel_available(void);

/* Compresses `blocks` 64-byte blocks at `data` into the eight state words `state` (A..H),
 * with the SHA extensions. Only to be called when sha256_kernel_available() said yes. */
void sha256_kernel_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
