#define _GNU_SOURCE
#include <unistd.h>
#include <sys/prctl.h>
#include "VipsShim.h"

#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;
static __thread char last_error[512];

static void remember_error(const char *fallback) {
    const char *message = vips_error_buffer();
    if (message == NULL || message[0] == '\0') message = fallback;
    snprintf(last_error, sizeof last_error, "%s", message);
    /* One line: libvips ends each message with a newline and may stack several. */
    size_t n = strlen(last_error);
    while (n > 0 && (last_error[n - 1] == '\n' || last_error[n - 1] == ' ')) last_error[--n] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (last_error[i] == '\n') last_error[i] = ';';
    }
    vips_error_clear();
}

/* libvips warns on stderr about each damaged tile; the caller gets the error itself. */
static void quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

static void start(void) {
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, quiet, NULL);
    if (VIPS_INIT("contactsd") != 0) {
        remember_error("libvips did not start");
        return;
    }
    /* Operations are cached by argument; a buffer argument would keep our memory alive. */
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(TRUE);
    start_result = 0;
}

int cvips_start(void) {
    pthread_once(&start_once, start);
    return start_result;
}

static int load_header(const void *buf, size_t len, cvips_format format, VipsImage **out) {
    void *b = (void *)buf;
    switch (format) {
    case CVIPS_JPEG: return vips_jpegload_buffer(b, len, out, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    case CVIPS_PNG: return vips_pngload_buffer(b, len, out, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    case CVIPS_WEBP: return vips_webpload_buffer(b, len, out, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    case CVIPS_HEIF: return vips_heifload_buffer(b, len, out, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    case CVIPS_GIF: return vips_gifload_buffer(b, len, out, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    }
    vips_error("contactsd", "unknown image format %d", (int)format);
    return -1;
}

int cvips_read_header(const void *buf, size_t len, cvips_format format, cvips_header *out) {
    if (cvips_start() != 0) return -1;
    VipsImage *image = NULL;
    if (load_header(buf, len, format, &image) != 0) {
        remember_error("the image header cannot be read");
        return -1;
    }
    out->width = vips_image_get_width(image);
    out->height = vips_image_get_height(image);
    out->orientation = vips_image_get_orientation(image);
    g_object_unref(image);
    return 0;
}

int cvips_thumbnail(const void *buf, size_t len, int size, int crop, int quality,
                    void **out, size_t *out_len, int *width, int *height) {
    if (cvips_start() != 0) return -1;
    VipsImage *thumb = NULL;
    if (vips_thumbnail_buffer((void *)buf, len, &thumb, size,
                              "height", size,
                              "size", VIPS_SIZE_DOWN,
                              "crop", crop ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE,
                              "option_string", "fail_on=error",
                              NULL) != 0) {
        remember_error("the image cannot be decoded");
        return -1;
    }
    VipsImage *ready = thumb;
    if (vips_image_hasalpha(thumb)) {
        VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
        VipsImage *flat = NULL;
        int r = vips_flatten(thumb, &flat, "background", white, NULL);
        vips_area_unref(VIPS_AREA(white));
        if (r != 0) {
            g_object_unref(thumb);
            remember_error("the image cannot be flattened");
            return -1;
        }
        ready = flat;
    }
    int r = vips_jpegsave_buffer(ready, out, out_len, "Q", quality, "strip", TRUE, "optimize_coding", TRUE, NULL);
    if (r == 0) {
        *width = vips_image_get_width(ready);
        *height = vips_image_get_height(ready);
    } else {
        remember_error("the thumbnail cannot be written");
    }
    if (ready != thumb) g_object_unref(ready);
    g_object_unref(thumb);
    return r == 0 ? 0 : -1;
}

int cvips_synthesize(int width, int height, cvips_format format, int orientation, int seed,
                     void **out, size_t *out_len) {
    if (cvips_start() != 0) return -1;
    VipsImage *noise = NULL, *bands = NULL, *pixels = NULL;
    int r = -1;
    /* Smooth gradients with noise on top: realistic for a codec, cheap to make. */
    if (vips_gaussnoise(&noise, width, height, "mean", 128.0, "sigma", 40.0, "seed", seed, NULL) != 0) goto done;
    VipsImage *planes[3] = {noise, noise, noise};
    if (vips_bandjoin(planes, &bands, 3, NULL) != 0) goto done;
    if (vips_cast_uchar(bands, &pixels, NULL) != 0) goto done;
    if (orientation > 1) vips_image_set_int(pixels, VIPS_META_ORIENTATION, orientation);
    switch (format) {
    case CVIPS_JPEG: r = vips_jpegsave_buffer(pixels, out, out_len, "Q", 90, NULL); break;
    case CVIPS_PNG: r = vips_pngsave_buffer(pixels, out, out_len, "compression", 1, NULL); break;
    case CVIPS_WEBP: r = vips_webpsave_buffer(pixels, out, out_len, "Q", 80, NULL); break;
    case CVIPS_HEIF: r = vips_heifsave_buffer(pixels, out, out_len, "Q", 50, NULL); break;
    case CVIPS_GIF: r = vips_gifsave_buffer(pixels, out, out_len, NULL); break;
    default: vips_error("contactsd", "cannot synthesize format %d", (int)format); break;
    }
done:
    if (r != 0) remember_error("the image cannot be made");
    if (pixels) g_object_unref(pixels);
    if (bands) g_object_unref(bands);
    if (noise) g_object_unref(noise);
    return r == 0 ? 0 : -1;
}

void cvips_free(void *p) { g_free(p); }

const char *cvips_last_error(void) { return last_error; }

void cvips_confine(void) {
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    /* Nothing of the daemon's but the socket it was given (standard input and output). */
    close_range(3, ~0U, 0);
}
