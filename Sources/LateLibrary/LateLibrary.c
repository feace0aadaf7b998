#include "LateLibrary.h"

#include <dlfcn.h>
#include <stdio.h>

int contactsd_library_open(struct contactsd_library *library) {
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library->handle != NULL) return 0;
    const char *why = dlerror();
    snprintf(library->failure, sizeof library->failure, "cannot load %s: %s", library->soname, why ? why : "unknown error");
    return -1;
}

void *contactsd_library_symbol(struct contactsd_library *library, const char *name) {
    void *f = library->handle == NULL ? NULL : dlsym(library->handle, name);
    if (f == NULL && library->failure[0] == 0)
        snprintf(library->failure, sizeof library->failure, "%s has no %s", library->soname, name);
    return f;
}

int contactsd_library_result(const struct contactsd_library *library, char *error, size_t size) {
    if (library->failure[0] == 0) return 0;
    if (error != NULL && size > 0) snprintf(error, size, "%s", library->failure);
    return -1;
}
