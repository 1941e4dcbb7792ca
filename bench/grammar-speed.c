// grammar-speed.c — the cost of the grammar constraint per token: the full mask by the
// vocabulary trie against the per-token check it replaces, and the sampler's "check the
// sampled token first" path, along a real JSON text generated token by token.
//
//   grammar-speed [--no-naive] [VOCAB.gguf] [GRAMMAR.gbnf] [TEXT-FILE]
//
// Defaults: the Qwen vocabulary (151,936 tokens), the JSON grammar and a 200-byte object.
// At every token of the text it times one full mask each way (checking the two agree), one
// allows() of that token, then advances by it. Pass 1 runs on a fresh grammar (an empty memo,
// as for each request of the server); pass 2 resets the same grammar (memo warm).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "frink.h"
#include "grammar/grammar.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *d = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) free(d), d = NULL;
    fclose(f);
    if (d) d[n] = 0, *len = (size_t)n;
    return d;
}

static const char default_text[] =
    "{\"id\": \"call_8f3a2b\", \"name\": \"get_weather\", \"arguments\": {\"city\": \"San Francisco\", "
    "\"unit\": \"celsius\", \"days\": 3, \"hourly\": false, \"coords\": [37.7749, -122.4194]}, "
    "\"note\": \"caf\xc3\xa9 \\u00e9 \\\"quoted\\\"\", \"ok\": true}";

int main(int argc, char **argv) {
    bool naive_too = !(argc > 1 && !strcmp(argv[1], "--no-naive"));
    if (!naive_too) argv++, argc--;
    const char *vocab = argc > 1 ? argv[1] : "tests/data/vocab/ggml-vocab-qwen35.gguf";
    const char *gpath = argc > 2 ? argv[2] : "tests/data/grammars/json.gbnf";
    size_t glen = 0, tlen = sizeof default_text - 1;
    char *gsrc = read_file(gpath, &glen), *text = argc > 3 ? read_file(argv[3], &tlen) : NULL;
    if (!gsrc || (argc > 3 && !text)) return fprintf(stderr, "grammar-speed: cannot read %s\n", gsrc ? argv[3] : gpath), 1;
    frink_model_params mp = frink_model_default_params();
    mp.path = vocab, mp.vocab_only = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) return fprintf(stderr, "grammar-speed: %s\n", frink_errmsg()), 1;
    int V = frink_model_n_vocab(m);
    const char *t = text ? text : default_text;
    frink_token *ids;
    size_t n;
    if (frink_tokenize(m, t, tlen, 0, &ids, &n)) return fprintf(stderr, "grammar-speed: %s\n", frink_errmsg()), 1;

    frink_grammar *g, *g2;
    double t0 = now_ms();
    if (frink_grammar_create(m, gsrc, glen, NULL, &g)) return fprintf(stderr, "grammar-speed: %s\n", frink_errmsg()), 1;
    double t1 = now_ms();
    for (int i = 0; i < 10; i++) {  // as the server does per request, the trie shared
        if (frink_grammar_create(m, gsrc, glen, NULL, &g2)) return fprintf(stderr, "grammar-speed: %s\n", frink_errmsg()), 1;
        frink_grammar_free(g2);
    }
    double t2 = now_ms();
    printf("vocab %s: %d tokens; grammar %s; text %zu bytes, %zu tokens\n", vocab, V, gpath, tlen, n);
    printf("create: first %.2f ms (builds the shared trie), then %.2f ms each\n", t1 - t0, (t2 - t1) / 10);

    uint8_t *a = malloc((size_t)V), *b = malloc((size_t)V);
    float *logits = malloc((size_t)V * sizeof *logits);
    frink_constraint c = frink_grammar_constraint(g);
    int bad = 0;
    for (int pass = 1; pass <= 2; pass++) {
        double naive = 0, trie = 0, allows = 0, worst = 0;
        size_t n_allowed = 0;
        frink_grammar_reset(g);
        for (size_t i = 0; i < n; i++) {
            double s0 = now_ms();
            if (pass == 1 && naive_too) grammar_api_allowed(g, a, true);
            double s1 = now_ms();
            for (int k = 0; k < V; k++) logits[k] = 0;
            double s2 = now_ms();
            c.mask(c.ud, logits, V);
            double s3 = now_ms();
            bool ok = c.allows(c.ud, ids[i]);
            double s4 = now_ms();
            for (int k = 0; k < V; k++) b[k] = logits[k] > -INFINITY, n_allowed += b[k];
            if (pass == 1 && naive_too && memcmp(a, b, (size_t)V)) bad++;
            if (!ok) return fprintf(stderr, "grammar-speed: token %zu of the text refused\n", i), 1;
            naive += s1 - s0, trie += s3 - s2, allows += s4 - s3;
            if (s3 - s2 > worst) worst = s3 - s2;
            c.accept(c.ud, ids[i]);
        }
        if (pass == 1 && naive_too) printf("pass 1 (fresh memo): naive %.3f ms/token\n", naive / n);
        printf("pass %d (%s memo): trie mask %.3f ms/token (worst %.3f), allows(sampled) %.4f ms/token, %.0f allowed/token\n",
               pass, pass == 1 ? "fresh" : "warm", trie / n, worst, allows / n, (double)n_allowed / n);
    }
    if (naive_too) printf("%s\n", bad ? "MISMATCH between trie and naive masks" : "trie and naive masks identical at every token");
    frink_grammar_free(g);
    frink_model_free(m);
    frink_free(ids);
    free(a), free(b), free(logits), free(gsrc), free(text);
    return bad != 0;
}
