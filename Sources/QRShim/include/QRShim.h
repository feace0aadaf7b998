#ifndef CONTACTSD_QR_SHIM_H
#define CONTACTSD_QR_SHIM_H

/* libqrencode behind one function, loaded when a QR code is first asked for (contactsctl
 * serve device add), not when contactsctl starts. */

#include <stddef.h>

/* The QR code of `text` (error correction level M, 8-bit data, the smallest version that
 * holds it): `width` by `width` modules, one byte each, 1 for dark, in rows from the top
 * (`*modules` is allocated with malloc). 0, or -1 with why in `error`. */
int contactsd_qr_encode(const char *text, unsigned char **modules, int *width, char *error, size_t size);

#endif
