// model_util.h — opening a model file for a test, with the error printed.
#ifndef FRINK_MODEL_UTIL_H
#define FRINK_MODEL_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#include "core/gguf.h"
#include "model/model.h"

// Opens and binds `path`; allow_unread as the --allow-unread flag (the
// fixtures carry tensors the reference ignores). NULL, message printed, on failure.
static inline struct model *test_model_load(const char *path, bool allow_unread) {
    struct gguf_file *f;
    if (gguf_open(path, &f)) {
        fprintf(stderr, "%s\n", frink_errmsg());
        return NULL;
    }
    struct model *m;
    struct model_load_opts lo = {.allow_unread = allow_unread};
    if (model_load(f, &lo, &m)) {
        fprintf(stderr, "%s: %s\n", path, frink_errmsg());
        gguf_close(f);
        return NULL;
    }
    return m;
}

#endif
