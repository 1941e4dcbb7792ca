// detok_api.c — the public streaming detokenizer over text/detok.c.
#include <stdlib.h>

#include "core/err.h"
#include "engine/engine.h"
#include "text/detok.h"

struct frink_detok {
    struct detok *d;
};

frink_status frink_detok_create(const frink_model *fm, unsigned flags, frink_detok **out) {
    *out = NULL;
    if (!fm->tok) return frink_fail(FRINK_ERR_STATE, "the model was opened without its tokenizer");
    frink_status st;
    frink_detok *d = calloc(1, sizeof *d);
    if (!d) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    if ((st = detok_create(fm->tok, flags & FRINK_DETOK_SPECIAL, flags & FRINK_DETOK_CONTINUE, &d->d))) {
        free(d);
        return st;
    }
    *out = d;
    return FRINK_OK;
}

void frink_detok_free(frink_detok *d) {
    if (!d) return;
    detok_free(d->d);
    free(d);
}

frink_status frink_detok_push(frink_detok *d, frink_token t, const char **text, size_t *len) {
    return detok_push(d->d, t, text, len);
}

frink_status frink_detok_flush(frink_detok *d, const char **text, size_t *len) { return detok_flush(d->d, text, len); }

