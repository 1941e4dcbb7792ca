// grammar_api.c — grammars as sampler constraints: GBNF or a JSON Schema compiled
// to GBNF (grammar/jsonschema.c), matched by grammar/grammar.c against the bytes of each
// candidate token.
//
// A token is allowed when its bytes can continue the grammar from the current
// position; an end-of-generation token when the grammar may end there; a token
// with no bytes (a control token rendered as nothing) never, since it would let
// the model spend tokens that change nothing the grammar sees. The full mask
// walks a trie of the vocabulary's pieces with a memo of grammar steps, and
// keeps the last masks by grammar state (grammar/grammar.c); the sampler asks for
// it only when the token it would pick otherwise is refused (allows(): a few
// memo lookups), or when it draws at a temperature. If the memo outgrows its
// cap within one mask, that mask is made token by token instead (slow, exact).
// bench/grammar-speed.c measures both against the token-by-token mask.
//
// The trie is built once per model, by its first grammar, and shared by every grammar over it
// from then on; it lives on the model (frink_model.vocab, built under frink_model.vocab_lock,
// so grammars may be made on any threads at once) and is freed with it. A grammar only borrows
// it: freeing a grammar touches nothing of the model.
#include <jansson.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "engine/engine.h"
#include "grammar/grammar.h"
#include "grammar/jsonschema.h"
#include "text/tokenizer.h"

struct frink_grammar {
    const frink_model *m;
    struct grammar *g;
    struct grammar_state *s;
    struct grammar_dfa *dfa;
    const struct grammar_vocab *v; // the model's trie (frink_model.vocab)
    char *src;
    int V;
    int32_t *eog;            // [n_eog] the end-of-generation tokens
    int n_eog;
    uint8_t *allowed;        // [V] the mask's scratch
};

// The trie of m's first V tokens' pieces: a token with no bytes (or more than 511) gets an
// empty piece, which no grammar step accepts.
static frink_status vocab_build(const frink_model *m, int V, struct grammar_vocab **out) {
    size_t cap = 1 << 20, used = 0;
    char *blob = malloc(cap);
    uint32_t *off = malloc(((size_t)V + 1) * sizeof *off);
    if (!blob || !off) return free(blob), free(off), frink_fail(FRINK_ERR_NOMEM, "out of memory");
    for (int t = 0; t < V; t++) {
        off[t] = (uint32_t)used;
        if (cap - used < 512) {
            char *b = realloc(blob, cap *= 2);
            if (!b) return free(blob), free(off), frink_fail(FRINK_ERR_NOMEM, "out of memory");
            blob = b;
        }
        int n = tokenizer_piece(m->tok, t, blob + used, 512, false);
        if (n > 0 && n < 512) used += (size_t)n;
    }
    off[V] = (uint32_t)used;
    return grammar_vocab_build(V, blob, off, out); // takes blob and off
}

// m's trie, built on first use. The model is immutable to its users; the trie is a cache of
// what its tokenizer already says, so it is written through a cast, under the model's lock.
static frink_status model_vocab(const frink_model *m, int V, const struct grammar_vocab **out) {
    frink_model *mm = (frink_model *)m;
    frink_status st = FRINK_OK;
    pthread_mutex_lock(&mm->vocab_lock);
    if (!mm->vocab) st = vocab_build(m, V, &mm->vocab); // under the lock: built once per model
    *out = mm->vocab;
    pthread_mutex_unlock(&mm->vocab_lock);
    return st;
}

frink_status frink_grammar_create(const frink_model *m, const char *gbnf, size_t len, const char *root,
                                  frink_grammar **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_grammar_create: no place for the result");
    *out = NULL;
    if (!m) return frink_fail(FRINK_ERR_ARG, "frink_grammar_create: no model");
    if (!m->tok) return frink_fail(FRINK_ERR_STATE, "a grammar needs the model's tokenizer");
    if (!gbnf && len) return frink_fail(FRINK_ERR_ARG, "frink_grammar_create: NULL source");
    frink_grammar *g = calloc(1, sizeof *g);
    if (!g) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    g->m = m;
    g->V = frink_model_n_vocab(m);
    frink_status st = grammar_parse(gbnf ? gbnf : "", len, root, &g->g);
    if (!st) st = grammar_state_create(g->g, &g->s);
    if (!st) st = grammar_dfa_create(g->g, &g->dfa);
    if (!st && !(g->src = malloc(len + 1))) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
    if (!st) {
        if (len) memcpy(g->src, gbnf, len);
        g->src[len] = 0;
        for (int t = 0; t < g->V; t++) g->n_eog += frink_token_is_eog(m, t);
        g->eog = malloc(((size_t)g->n_eog + 1) * sizeof *g->eog);
        g->allowed = malloc((size_t)g->V + 1);
        if (!g->eog || !g->allowed) st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    if (!st) {
        g->n_eog = 0;
        for (int t = 0; t < g->V; t++)
            if (frink_token_is_eog(m, t)) g->eog[g->n_eog++] = t;
        st = model_vocab(m, g->V, &g->v);
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
    if (st) return st; // the message already starts "JSON Schema: "
    st = frink_grammar_create(m, gbnf, strlen(gbnf), NULL, out);
    free(gbnf);
    return st;
}

void frink_grammar_free(frink_grammar *g) {
    if (!g) return;
    grammar_dfa_free(g->dfa);
    grammar_state_free(g->s);
    grammar_free(g->g);
    free(g->eog);
    free(g->allowed);
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

frink_status frink_grammar_accept_text(frink_grammar *g, const char *text, size_t len) {
    if (!g) return frink_fail(FRINK_ERR_ARG, "frink_grammar_accept_text: no grammar");
    if (!text && len) return frink_fail(FRINK_ERR_ARG, "frink_grammar_accept_text: NULL text");
    size_t bad = 0;
    frink_status st = grammar_state_advance_at(g->s, text, len, &bad);
    if (st == FRINK_ERR_ARG) return frink_fail_ctx(st, "frink_grammar_accept_text: byte offset %zu of %zu: ", bad, len);
    if (st) return frink_fail_ctx(st, "frink_grammar_accept_text: ");
    return FRINK_OK;
}

static bool g_allows(void *ud, frink_token t) {
    frink_grammar *g = ud;
    if (t < 0 || t >= g->V) return false;
    if (frink_token_is_eog(g->m, t)) return grammar_state_can_end(g->s);
    return grammar_vocab_accepts(g->v, g->dfa, g->s, t);
}

void grammar_api_allowed(frink_grammar *g, uint8_t *allowed, bool naive) {
    if (naive || grammar_vocab_mask(g->v, g->dfa, g->s, allowed)) grammar_vocab_mask_naive(g->v, g->s, allowed);
    bool end = grammar_state_can_end(g->s);
    for (int i = 0; i < g->n_eog; i++) allowed[g->eog[i]] = end;
}

static void g_mask(void *ud, float *logits, int n) {
    frink_grammar *g = ud;
    grammar_api_allowed(g, g->allowed, false);
    int k = n < g->V ? n : g->V;
    for (int t = 0; t < k; t++) logits[t] = g->allowed[t] ? logits[t] : -INFINITY;  // a select: no branch to mispredict
    for (int t = k; t < n; t++) logits[t] = -INFINITY;
}

static void g_accept(void *ud, frink_token t) {
    frink_grammar *g = ud;
    size_t len;
    const char *p = t >= 0 && t < g->V && !frink_token_is_eog(g->m, t) ? grammar_vocab_piece(g->v, t, &len) : NULL;
    if (p) grammar_state_advance(g->s, p, len);  // allowed, so it advances
}

frink_constraint frink_grammar_constraint(frink_grammar *g) { return (frink_constraint){g, g_allows, g_mask, g_accept}; }
