#ifndef CONTACTSD_VIPS_SHIM_H
#define CONTACTSD_VIPS_SHIM_H

/* A small, non-variadic face of libvips for Swift. Nothing here exposes a libvips or GLib
 * type, so Swift never parses their headers. Every call is thread-safe; errors are kept per
 * thread and read with cvips_last_error. */

#include <stddef.h>

/* The formats contactsd accepts, each read by its own loader (never libvips' guess). */
typedef enum {
    CVIPS_JPEG = 1,
    CVIPS_PNG = 2,
    CVIPS_WEBP = 3,
    CVIPS_HEIF = 4,
    CVIPS_GIF = 5,
} cvips_format;

typedef struct {
    int width;
    int height;
    /* EXIF orientation 1..8 (1 when absent). */
    int orientation;
} cvips_header;

/* Starts libvips once: no operation cache (it would keep references to caller buffers),
 * untrusted loaders blocked. Returns 0 on success. */
int cvips_start(void);

/* Reads only the header of an image in `format`. Returns 0 on success. */
int cvips_read_header(const void *buf, size_t len, cvips_format format, cvips_header *out);

/* A JPEG no larger than `size` on its longer side (never enlarged), EXIF orientation applied,
 * transparency flattened onto white, square-cropped at the centre when `crop` is non-zero.
 * Truncated or corrupt input fails. The bytes go to *out (free with cvips_free). */
int cvips_thumbnail(const void *buf, size_t len, int size, int crop, int quality,
                    void **out, size_t *out_len, int *width, int *height);

/* A synthetic noisy image for tests and benchmarks, encoded in `format`, with an EXIF
 * orientation tag when `orientation` > 1 (JPEG only). The same seed gives the same pixels. */
int cvips_synthesize(int width, int height, cvips_format format, int orientation, int seed,
                     void **out, size_t *out_len);

void cvips_free(void *p);

/* For the image helper process: it can gain no privileges through exec, and closes every
 * descriptor but standard input, output and error. (It ends when the
 * daemon's end of its socket closes, which the kernel does if the daemon dies. A parent-death
 * signal would not do: it fires when the *thread* that started the helper ends.) */
void cvips_confine(void);

/* The calling thread's last libvips error message, after a call returned -1. */
const char *cvips_last_error(void);

#endif
