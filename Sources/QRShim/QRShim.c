#include "QRShim.h"

#include <LateLibrary.h>
#include <errno.h>
#include <pthread.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname of Debian's libqrencode4, the package libqrencode-dev's header is for. */
#define QR_LIBRARY "libqrencode.so.4"

static QRcode *(*encode_8bit)(const char *string, int version, QRecLevel level);
static void (*code_free)(QRcode *code);
static pthread_once_t loaded = PTHREAD_ONCE_INIT;
static struct contactsd_library library = {QR_LIBRARY, NULL, {0}};

static void load(void) {
    if (contactsd_library_open(&library) != 0) return;
    *(void **)&encode_8bit = contactsd_library_symbol(&library, "QRcode_encodeString8bit");
    *(void **)&code_free = contactsd_library_symbol(&library, "QRcode_free");
}

int contactsd_qr_encode(const char *text, unsigned char **modules, int *width, char *error, size_t size) {
    pthread_once(&loaded, load);
    if (contactsd_library_result(&library, error, size) != 0) return -1;
    QRcode *code = encode_8bit(text, 0, QR_ECLEVEL_M);
    if (code == NULL) {
        snprintf(error, size, "cannot encode it: %s", strerror(errno));
        return -1;
    }
    size_t count = (size_t)code->width * (size_t)code->width;
    *modules = malloc(count);
    if (*modules == NULL) {
        code_free(code);
        snprintf(error, size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) (*modules)[i] = code->data[i] & 1;
    *width = code->width;
    code_free(code);
    return 0;
}
