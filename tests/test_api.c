// test_api.c — the public API as a client sees it: opening models and their
// facts, tokens and detokenizing, sequences, the sampler chain with logit bias
// and a constraint, the prefix cache, and errors as values for bad input.
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

static frink_model *open_default(void) {
    frink_model_params mp = frink_model_default_params();
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) fprintf(stderr, "open: %s\n", frink_errmsg());
    return m;
}

static void check_models(void) {
    frink_model *m = open_default();
    CHECK(m != NULL, "the embedded model opens");
    if (!m) return;
    CHECK(!strcmp(frink_model_arch(m), "llama"), "arch %s", frink_model_arch(m));
    CHECK(frink_model_n_vocab(m) == 512 && frink_model_n_layer(m) == 5 && frink_model_n_embd(m) == 64, "facts");
    CHECK(frink_model_n_ctx_train(m) > 0, "context length");
    CHECK(frink_model_size(m) == 1171200, "tensor bytes %llu", (unsigned long long)frink_model_size(m));
    CHECK(frink_model_n_params(m) > 200000, "params");
    CHECK(frink_token_bos(m) == 1 && frink_token_eos(m) == 2 && frink_token_is_eog(m, 2) && !frink_token_is_eog(m, 5), "special tokens");
    CHECK(frink_model_meta(m, "general.architecture") && !strcmp(frink_model_meta(m, "general.architecture"), "llama"), "meta");
    CHECK(frink_model_meta(m, "no.such.key") == NULL, "absent key");
    CHECK(frink_model_meta_count(m) > 5, "meta count");
    const char *type;
    CHECK(frink_model_meta_key(m, 0, &type) && type, "meta key 0");
    CHECK(frink_model_meta_key(m, 100000, &type) == NULL, "meta key out of range");
    frink_tensor_info ti;
    CHECK(frink_model_tensor(m, 0, &ti) == FRINK_OK && ti.name && ti.bytes > 0, "tensor 0");
    CHECK(frink_model_tensor(m, -1, &ti) == FRINK_ERR_ARG, "tensor -1");
    frink_layer_info li;
    CHECK(frink_model_layer(m, 0, &li) == FRINK_OK && !strcmp(li.path, "host") && !strcmp(li.kind, "attention"), "layer 0");
    CHECK(frink_model_layer(m, 5, &li) == FRINK_ERR_ARG, "layer out of range");
    CHECK(frink_model_identity(m) != 0, "identity");
    frink_model_free(m);

    // Errors are values, with messages naming the problem.
    frink_model_params mp = frink_model_default_params();
    mp.path = "/nonexistent/model.gguf";
    CHECK(frink_model_open(&mp, &m) == FRINK_ERR_IO && m == NULL && strstr(frink_errmsg(), "/nonexistent/model.gguf"), "missing file: %s",
          frink_errmsg());
    mp.path = "tests/data/archs/qwen35-dense.gguf";
    mp.no_tokenizer = true;
    CHECK(frink_model_open(&mp, &m) == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "input_scale"), "unread tensor refused: %s",
          frink_errmsg());
    mp.allow_unread = true;
    CHECK(frink_model_open(&mp, &m) == FRINK_OK && frink_model_unread(m) > 0 && frink_model_unread_name(m, 0), "allow_unread lists them");
    frink_token *ids;
    size_t n;
    CHECK(frink_tokenize(m, "x", 1, 0, &ids, &n) == FRINK_ERR_STATE, "no tokenizer: tokenize refused");
    frink_model_free(m);
    mp = frink_model_default_params();
    mp.vocab_only = true;
    CHECK(frink_model_open(&mp, &m) == FRINK_OK, "vocab only");
    frink_context *c;
    CHECK(frink_context_create(m, NULL, &c) == FRINK_ERR_STATE && c == NULL, "no context without weights");
    CHECK(frink_model_n_vocab(m) == 512, "vocab-only n_vocab");
    frink_model_free(m);
    mp = frink_model_default_params();
    mp.file_only = true;
    mp.path = "tests/data/archs/qwen35-dense.gguf";
    CHECK(frink_model_open(&mp, &m) == FRINK_OK && !strcmp(frink_model_arch(m), "qwen35"), "file only opens anything well-formed");
    frink_model_free(m);
}

static void check_text(void) {
    frink_model *m = open_default();
    frink_token *ids;
    size_t n;
    CHECK(frink_tokenize(m, "Once upon a time", 16, FRINK_TOKENIZE_ADD_SPECIAL, &ids, &n) == FRINK_OK && n == 5 && ids[0] == 1 &&
              ids[1] == 403,
          "tokenize");
    char *s = frink_detokenize(m, ids + 1, n - 1, false);
    CHECK(s && !strcmp(s, "Once upon a time"), "detokenize: '%s'", s);
    frink_free(s);
    frink_detok *d;
    CHECK(frink_detok_create(m, 0, &d) == FRINK_OK, "detok");
    char acc[256] = "";
    const char *t;
    size_t len;
    for (size_t i = 1; i < n; i++)
        if (frink_detok_push(d, ids[i], &t, &len) == FRINK_OK) strncat(acc, t, len);
    if (frink_detok_flush(d, &t, &len) == FRINK_OK) strncat(acc, t, len);
    CHECK(!strcmp(acc, "Once upon a time"), "streamed: '%s'", acc);
    CHECK(frink_detok_push(d, 100000, &t, &len) == FRINK_ERR_ARG, "bad id");
    frink_detok_free(d);
    char buf[16];
    CHECK(frink_token_piece(m, 403, buf, sizeof buf, false) > 0, "piece");
    CHECK(frink_token_piece(m, -1, buf, sizeof buf, false) == -1, "bad piece");
    frink_free(ids);
    frink_model_free(m);
}

// A constraint allowing only token ids in [lo, hi).
struct range {
    int lo, hi, accepted, masks;
};
static bool range_allows(void *ud, frink_token t) {
    struct range *r = ud;
    return t >= r->lo && t < r->hi;
}
static void range_mask(void *ud, float *logits, int n) {
    struct range *r = ud;
    r->masks++;
    for (int i = 0; i < n; i++)
        if (i < r->lo || i >= r->hi) logits[i] = -INFINITY;
}
static void range_accept(void *ud, frink_token t) {
    struct range *r = ud;
    r->accepted++;
    (void)t;
}

static void check_sampler(void) {
    frink_model *m = open_default();
    int V = frink_model_n_vocab(m);
    float *lg = malloc((size_t)V * sizeof(float));
    for (int i = 0; i < V; i++) lg[i] = (float)((i * 37) % 101) / 10.0f;
    int best = 0;
    for (int i = 1; i < V; i++)
        if (lg[i] > lg[best]) best = i;
    frink_sampler_params sp = frink_sampler_default_params();
    sp.temp = 0;
    frink_sampler *s;
    CHECK(frink_sampler_create(m, &sp, &s) == FRINK_OK, "greedy sampler");
    frink_token t;
    CHECK(frink_sampler_sample(s, lg, &t) == FRINK_OK && t == best, "greedy picks the argmax: %d vs %d", t, best);
    // A constraint that allows the argmax costs no mask; one that refuses it masks.
    struct range r = {0, V, 0, 0};
    frink_constraint con = {&r, range_allows, range_mask, range_accept};
    frink_sampler_set_constraint(s, &con);
    CHECK(frink_sampler_sample(s, lg, &t) == FRINK_OK && t == best && r.masks == 0 && r.accepted == 1, "allowed argmax: no mask");
    r = (struct range){best + 1, V, 0, 0};
    int best2 = best + 1;
    for (int i = best + 1; i < V; i++)
        if (lg[i] > lg[best2]) best2 = i;
    CHECK(frink_sampler_sample(s, lg, &t) == FRINK_OK && t == best2 && r.masks == 1, "refused argmax: masked argmax %d vs %d", t,
          best2);
    r = (struct range){0, 0, 0, 0};
    CHECK(frink_sampler_sample(s, lg, &t) == FRINK_ERR_STATE, "nothing allowed is an error");
    frink_sampler_free(s);
    // Drawing at a temperature: only allowed tokens, ever.
    sp = frink_sampler_default_params();
    sp.temp = 1.5f;
    sp.top_k = 0;
    sp.top_p = 1;
    sp.min_p = 0;
    sp.seed = 3;
    CHECK(frink_sampler_create(m, &sp, &s) == FRINK_OK, "sampler");
    r = (struct range){100, 110, 0, 0};
    frink_sampler_set_constraint(s, &con);
    int bad = 0;
    for (int i = 0; i < 200; i++) bad += frink_sampler_sample(s, lg, &t) != FRINK_OK || t < 100 || t >= 110;
    CHECK(bad == 0 && r.masks == 200, "constrained draws: %d outside", bad);
    frink_sampler_set_constraint(s, NULL);
    frink_sampler_free(s);
    // Logit bias: a ban and a push.
    frink_logit_bias lb[2] = {{best, -INFINITY}, {7, 1000.0f}};
    sp = frink_sampler_default_params();
    sp.temp = 0;
    sp.logit_bias = lb;
    sp.n_logit_bias = 2;
    CHECK(frink_sampler_create(m, &sp, &s) == FRINK_OK && frink_sampler_sample(s, lg, &t) == FRINK_OK && t == 7, "logit bias");
    frink_sampler_free(s);
    lb[0].token = V;
    CHECK(frink_sampler_create(m, &sp, &s) == FRINK_ERR_ARG && strstr(frink_errmsg(), "outside the vocabulary"), "bad bias id");
    sp = frink_sampler_default_params();
    sp.top_p = 0;
    CHECK(frink_sampler_create(m, &sp, &s) == FRINK_ERR_ARG && strstr(frink_errmsg(), "top-p"), "bad top-p: %s", frink_errmsg());
    // Same seed, same draws.
    sp = frink_sampler_default_params();
    frink_sampler *a, *b;
    frink_sampler_create(m, &sp, &a);
    frink_sampler_create(m, &sp, &b);
    int same = 1;
    for (int i = 0; i < 50; i++) {
        frink_token x, y;
        frink_sampler_sample(a, lg, &x);
        frink_sampler_sample(b, lg, &y);
        same &= x == y;
    }
    CHECK(same, "seeded samplers agree");
    frink_sampler_free(a);
    frink_sampler_free(b);
    free(lg);
    frink_model_free(m);
}

static void check_sequences(void) {
    frink_model *m = open_default();
    int V = frink_model_n_vocab(m);
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 2;
    cp.n_ctx = 256;
    cp.prefix_cache_bytes = 64 << 20;
    frink_context *c;
    CHECK(frink_context_create(m, &cp, &c) == FRINK_OK, "%s", frink_errmsg());
    CHECK(frink_context_model(c) == m && frink_context_threads(c) == 2 && frink_context_kernels(c)[0], "context facts");
    frink_token p[40];
    for (int i = 0; i < 40; i++) p[i] = 1 + (i * 13) % (V - 1);
    float *l1 = malloc((size_t)V * 4), *l2 = malloc((size_t)V * 4);
    frink_seq *s, *f;
    frink_seq_create(c, &s);
    CHECK(frink_seq_eval(s, p, 40, l1, FRINK_EVAL_CHECKPOINT) == FRINK_OK && frink_seq_len(s) == 40, "eval");
    CHECK(frink_seq_tokens(s)[39] == p[39] && frink_seq_bytes(s) > 0, "tokens");
    CHECK(frink_seq_fork(s, &f) == FRINK_OK && frink_seq_len(f) == 40, "fork");
    frink_token nx = 5;
    frink_seq_eval(s, &nx, 1, l1, 0);
    frink_seq_eval(f, &nx, 1, l2, 0);
    CHECK(!memcmp(l1, l2, (size_t)V * 4), "a fork continues exactly as the original");
    CHECK(frink_seq_truncate(s, 20, NULL) == FRINK_OK && frink_seq_len(s) == 20, "truncate");
    CHECK(frink_seq_truncate(s, 30, NULL) == FRINK_ERR_ARG, "truncate past the end");
    // Slot files.
    const char *path = "/tmp/frink-test-api.slot";
    remove(path);
    CHECK(frink_seq_load(s, path) == FRINK_ERR_IO && errno == ENOENT, "missing slot file");
    CHECK(frink_seq_save(f, path) == FRINK_OK, "save: %s", frink_errmsg());
    frink_seq *g;
    frink_seq_create(c, &g);
    CHECK(frink_seq_load(g, path) == FRINK_OK && frink_seq_len(g) == 41, "load");
    frink_seq_eval(g, &nx, 1, l1, 0);
    frink_seq_eval(f, &nx, 1, l2, 0);
    CHECK(!memcmp(l1, l2, (size_t)V * 4), "a restored slot continues exactly");
    remove(path);
    // Prefix cache owned by the context.
    CHECK(frink_cache_store(c, f) == FRINK_OK && frink_cache_entries(c) == 1 && frink_cache_bytes(c) > 0, "cache store");
    frink_seq *h;
    frink_seq_create(c, &h);
    int np = 0;
    CHECK(frink_cache_lookup(c, h, p, 40, 40, &np, NULL) == FRINK_OK && np == 40 && frink_seq_len(h) == 40, "cache hit %d", np);
    frink_token other[3] = {9, 9, 9};
    CHECK(frink_cache_lookup(c, h, other, 3, 3, &np, NULL) == FRINK_OK && np == 0 && frink_seq_len(h) == 0, "cache miss");
    // Sequences of another context are refused.
    frink_context *c2;
    frink_context_create(m, &cp, &c2);
    CHECK(frink_cache_store(c2, f) == FRINK_ERR_ARG, "foreign sequence in the cache");
    frink_context_free(c2);
    // Bad context parameters.
    cp.n_batch = 0;
    CHECK(frink_context_create(m, &cp, &c2) == FRINK_ERR_ARG && strstr(frink_errmsg(), "n_batch"), "n_batch 0");
    cp = frink_context_default_params();
    cp.kv_type = (frink_kv_type)9;
    CHECK(frink_context_create(m, &cp, &c2) == FRINK_ERR_ARG, "bad kv type");
    free(l1);
    free(l2);
    frink_context_free(c);
    frink_model_free(m);
}

// Generates up to n tokens after `prompt` under grammar g (sampler sp); the text in out.
static int constrained(frink_model *m, frink_context *c, frink_grammar *g, const frink_sampler_params *sp, const char *prompt,
                       int n, char *out, size_t cap) {
    frink_seq *s;
    frink_sampler *smp;
    frink_detok *d;
    float *lg = malloc((size_t)frink_model_n_vocab(m) * sizeof(float));
    frink_token *ids;
    size_t np, at = 0;
    int rc = -1;
    out[0] = 0;
    if (frink_seq_create(c, &s) || frink_sampler_create(m, sp, &smp) || frink_detok_create(m, FRINK_DETOK_CONTINUE, &d)) return -1;
    frink_constraint con = frink_grammar_constraint(g);
    frink_sampler_set_constraint(smp, &con);
    frink_tokenize(m, prompt, strlen(prompt), FRINK_TOKENIZE_ADD_SPECIAL, &ids, &np);
    if (frink_seq_eval(s, ids, (int)np, lg, 0) == FRINK_OK) {
        rc = 0;
        for (int i = 0; i < n; i++) {
            frink_token t;
            if (frink_sampler_sample(smp, lg, &t)) { rc = -1; break; }
            if (frink_token_is_eog(m, t)) break;
            const char *p;
            size_t k;
            frink_detok_push(d, t, &p, &k);
            if (at + k < cap) memcpy(out + at, p, k), at += k;
            if (frink_seq_eval(s, &t, 1, lg, 0)) { rc = -1; break; }
        }
        const char *p;
        size_t k;
        frink_detok_flush(d, &p, &k);
        if (at + k < cap) memcpy(out + at, p, k), at += k;
        out[at] = 0;
    }
    frink_free(ids);
    free(lg);
    frink_detok_free(d);
    frink_sampler_free(smp);
    frink_seq_free(s);
    return rc;
}

static void check_grammars(void) {
    frink_model *m = open_default();
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 1;
    cp.n_ctx = 512;
    frink_context *c;
    frink_context_create(m, &cp, &c);
    frink_grammar *g;
    const char *gb = "root ::= \" there was a \" [a-z]+ \" named \" [A-Z] [a-z]+ \".\"";
    CHECK(frink_grammar_create(m, gb, strlen(gb), NULL, &g) == FRINK_OK, "grammar: %s", frink_errmsg());
    frink_sampler_params sp = frink_sampler_default_params();
    char out[4096];
    int bad = 0;
    for (int k = 0; k < 10; k++) {
        sp.seed = (uint64_t)k;
        sp.temp = k ? 1.0f : 0;
        frink_grammar_reset(g);
        bad += constrained(m, c, g, &sp, "Once upon a time", 120, out, sizeof out) != 0 || !frink_grammar_complete(g) ||
               strncmp(out, " there was a ", 13) || out[strlen(out) - 1] != '.' || !strstr(out, " named ");
    }
    CHECK(bad == 0, "GBNF-constrained outputs follow the grammar: %d of 10 do not (last: '%s')", bad, out);
    frink_grammar_free(g);
    const char *schema = "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"},\"n\":{\"type\":\"integer\","
                         "\"minimum\":0,\"maximum\":99},\"tag\":{\"enum\":[\"a\",\"b\",\"c\"]}},\"required\":[\"ok\",\"n\",\"tag\"],"
                         "\"additionalProperties\":false}";
    CHECK(frink_grammar_from_json_schema(m, schema, strlen(schema), &g) == FRINK_OK && frink_grammar_source(g)[0], "schema: %s",
          frink_errmsg());
    bad = 0;
    for (int k = 0; k < 10; k++) {
        sp.seed = 100u + (uint64_t)k;
        sp.temp = 1.0f;
        frink_grammar_reset(g);
        int rc = constrained(m, c, g, &sp, "Once upon a time", 200, out, sizeof out);
        json_error_t e;
        json_t *v = rc == 0 && frink_grammar_complete(g) ? json_loads(out, 0, &e) : NULL;
        json_t *n = json_object_get(v, "n"), *tag = json_object_get(v, "tag");
        bool ok = v && json_object_size(v) == 3 && json_is_boolean(json_object_get(v, "ok")) && json_is_integer(n) &&
                  json_integer_value(n) >= 0 && json_integer_value(n) <= 99 && json_is_string(tag) &&
                  strchr("abc", json_string_value(tag)[0]) && strlen(json_string_value(tag)) == 1;
        bad += !ok;
        json_decref(v);
    }
    CHECK(bad == 0, "schema-constrained outputs validate: %d of 10 do not (last: '%s')", bad, out);
    frink_grammar_free(g);
    const char *broken = "root ::= (\"a\" | \"b\"\n";
    CHECK(frink_grammar_create(m, broken, strlen(broken), NULL, &g) == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "line"),
          "a broken grammar names the place: %s", frink_errmsg());
    const char *unsup = "{\"type\":\"integer\",\"multipleOf\":3}";
    CHECK(frink_grammar_from_json_schema(m, unsup, strlen(unsup), &g) == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "multipleOf"),
          "a keyword nothing enforces is refused by name: %s", frink_errmsg());
    frink_context_free(c);
    frink_model_free(m);
}

int main(void) {
    CHECK(frink_version()[0] != 0 && strcmp(frink_status_name(FRINK_ERR_IO), "i/o error") == 0, "version, status names");
    check_models();
    check_text();
    check_sampler();
    check_sequences();
    check_grammars();
    return TEST_DONE();
}
