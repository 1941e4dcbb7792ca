// grammar_api.c — grammars as sampler constraints: GBNF or a JSON Schema compiled
// to GBNF (text/jsonschema.c), matched by text/grammar.c against the bytes of each
// candidate token.
//
// A token is allowed when its bytes can continue the grammar from the current
// position; an end-of-generation token when the grammar may end there; a token
// with no bytes (a control token rendered as nothing) never, since it would let
// the model spend tokens that change nothing the grammar sees. The full mask
// checks every token of the vocabulary (the sampler asks for it only when the
// token it would pick otherwise is refused, or when it draws at a temperature).
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "engine/engine.h"
#include "text/grammar.h"
#include "text/jsonschema.h"
#include "text/tokenizer.h"

struct frink_grammar {
    const frink_model *m;
    struct grammar *g;
    struct grammar_state *s;
    char *src;
    int V;
    char **piece;   // [V] each token's bytes (NULL: none)
    int *plen;      // [V]
};

frink_status frink_grammar_create(const frink_model *m, const char *gbnf, size_t len, const char *root,
                                  frink_grammar **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_grammar_create: no place for the result");
    *out = NULL;
    if (!m->tok) return frink_fail(FRINK_ERR_STATE, "a grammar needs the model's tokenizer");
    if (!gbnf && len) return frink_fail(FRINK_ERR_ARG, "frink_grammar_create: NULL source");
    frink_grammar *g = calloc(1, sizeof *g);
    if (!g) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    g->m = m;
    g->V = frink_model_n_vocab(m);
    frink_status st = grammar_parse(gbnf ? gbnf : "", len, root, &g->g);
    if (!st) st = grammar_state_create(g->g, &g->s);
    if (!st && !(g->src = malloc(len + 1))) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
    if (!st) {
        if (len) memcpy(g->src, gbnf, len);
        g->src[len] = 0;
        g->piece = calloc((size_t)g->V, sizeof *g->piece);
        g->plen = calloc((size_t)g->V, sizeof *g->plen);
        if (!g->piece || !g->plen) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    char buf[512];
    for (int t = 0; !st && t < g->V; t++) {
        int n = tokenizer_piece(m->tok, t, buf, sizeof buf, false);
        if (n <= 0 || n >= (int)sizeof buf) continue; // no bytes (or none this short buffer holds): never allowed
        if (!(g->piece[t] = malloc((size_t)n))) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        else memcpy(g->piece[t], buf, (size_t)n), g->plen[t] = n;
    }
    if (st) {
        frink_grammar_free(g);
        return st;
    }
    *out = g;
    return FRINK_OK;
}

frink_status frink_grammar_from_json_schema(const frink_model *m, const char *schema, size_t len, frink_grammar **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_grammar_from_json_schema: no place for the result");
    *out = NULL;
    json_error_t e;
    json_t *v = schema ? json_loadb(schema, len, JSON_DECODE_ANY, &e) : NULL;
    if (!v) return frink_fail(FRINK_ERR_FORMAT, "JSON Schema: line %d, column %d: %s", e.line, e.column, e.text);
    char *gbnf = NULL;
    frink_status st = jsonschema_to_gbnf(v, &gbnf);
    json_decref(v);
    if (st) return frink_fail_ctx(st, "JSON Schema: ");
    st = frink_grammar_create(m, gbnf, strlen(gbnf), NULL, out);
    free(gbnf);
    return st;
}

void frink_grammar_free(frink_grammar *g) {
    if (!g) return;
    if (g->piece)
        for (int t = 0; t < g->V; t++) free(g->piece[t]);
    free(g->piece);
    free(g->plen);
    grammar_state_free(g->s);
    grammar_free(g->g);
    free(g->src);
    free(g);
}

const char *frink_grammar_source(const frink_grammar *g) { return g->src; }

frink_status frink_grammar_reset(frink_grammar *g) {
    struct grammar_state *s;
    frink_status st = grammar_state_create(g->g, &s);
    if (st) return st;
    grammar_state_free(g->s);
    g->s = s;
    return FRINK_OK;
}

bool frink_grammar_complete(const frink_grammar *g) { return grammar_state_can_end(g->s); }

static bool g_allows(void *ud, frink_token t) {
    frink_grammar *g = ud;
    if (t < 0 || t >= g->V) return false;
    if (frink_token_is_eog(g->m, t)) return grammar_state_can_end(g->s);
    return g->piece[t] && grammar_state_accepts(g->s, g->piece[t], (size_t)g->plen[t]);
}

static void g_mask(void *ud, float *logits, int n) {
    frink_grammar *g = ud;
    for (int t = 0; t < n; t++)
        if (logits[t] > -INFINITY && !g_allows(g, t)) logits[t] = -INFINITY;
}

static void g_accept(void *ud, frink_token t) {
    frink_grammar *g = ud;
    if (t < 0 || t >= g->V || frink_token_is_eog(g->m, t) || !g->piece[t]) return;
    grammar_state_advance(g->s, g->piece[t], (size_t)g->plen[t]); // allowed, so it advances
}

frink_constraint frink_grammar_constraint(frink_grammar *g) { return (frink_constraint){g, g_allows, g_mask, g_accept}; }
