// jinja.c — the public functions of jinja.h: parsing (normalize, lex, parse, check) and the
// template's memory. Rendering is jinja_eval.c's; the pieces are described in jinja_int.h.
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "template/jinja_int.h"

// ---- arena: everything a parsed template holds, freed at once ----------------------------------

struct jarena_blk {
    struct jarena_blk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *jarena_alloc(struct jinja_tmpl *t, size_t n) {
    n = (n + 15) & ~(size_t)15;
    struct jarena_blk *b = t->arena;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = jx_alloc(sizeof *b + cap);
        b->cap = cap;
        b->next = t->arena;
        t->arena = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

void jarena_free(struct jinja_tmpl *t) {
    for (struct jarena_blk *b = t->arena, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    t->arena = NULL;
}

void jinja_linecol(const struct jinja_tmpl *t, uint32_t pos, int *line, int *col) {
    int l = 1;
    size_t start = 0;
    if (pos > t->len) pos = (uint32_t)t->len;
    for (size_t i = 0; i < pos; i++)
        if (t->src[i] == '\n') l++, start = i + 1;
    *line = l;
    *col = (int)(pos - start) + 1;
}

// ---- parse --------------------------------------------------------------------------------------

static frink_status parse(const char *src, size_t len, struct jinja_tmpl **out);

frink_status jinja_parse(const char *src, size_t len, struct jinja_tmpl **out) {
    *out = NULL;
    jmp_buf j;
    jmp_buf *prev = jx_oom_escape(&j);
    if (setjmp(j)) {
        jx_oom_escape(prev);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory parsing a template");
    }
    frink_status st = parse(src, len, out);
    jx_oom_escape(prev);
    return st;
}

static frink_status parse(const char *src, size_t len, struct jinja_tmpl **out) {
    if (!src && len) return frink_fail(FRINK_ERR_ARG, "jinja_parse: no source");
    if (len >= (size_t)1 << 31) return frink_fail(FRINK_ERR_UNSUPPORTED, "jinja_parse: a template of %zu bytes is too large", len);
    struct jinja_tmpl *t = jx_alloc(sizeof *t);
    // jinja2 reads \r\n, \r and \n alike as "\n", and drops one trailing newline
    // (keep_trailing_newline off).
    t->src = jx_alloc(len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (src[i] == '\r') {
            t->src[n++] = '\n';
            if (i + 1 < len && src[i + 1] == '\n') i++;
        } else {
            t->src[n++] = src[i];
        }
    }
    if (n && t->src[n - 1] == '\n') n--;
    t->src[n] = 0;
    t->len = n;
    size_t ntok;
    struct jtok *tok = jinja_lex(t, &ntok);
    frink_status st = jinja_parse_tokens(t, tok, ntok);
    free(tok);
    if (st != FRINK_OK) {
        jinja_free(t);
        return st;
    }
    *out = t;
    return FRINK_OK;
}

void jinja_free(struct jinja_tmpl *t) {
    if (!t) return;
    jarena_free(t);
    free(t->src);
    free(t);
}
