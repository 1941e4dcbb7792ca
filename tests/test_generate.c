// End to end on the embedded default model: tokenize a prompt, prefill, then
// greedy-decode 200 tokens, and compare the ids with the reference's greedy
// generation (tests/data/golden/stories260K.gen, from scripts/make-golden.sh).
// Also: the prompt's ids equal the reference tokenizer's, and sampling with a
// seed is reproducible.
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

static int greedy(frink_seq *s, const frink_model *m, const int32_t *p, size_t np, int n, int32_t *out,
                  const frink_sampler_params *sp) {
    int V = frink_model_n_vocab(m);
    float *lg = malloc((size_t)V * sizeof(float));
    frink_sampler *smp;
    frink_sampler_create(m, sp, &smp);
    int k = 0;
    if (frink_seq_eval(s, p, (int)np, lg, 0) == FRINK_OK) {
        for (; k < n; k++) {
            frink_token t;
            if (frink_sampler_sample(smp, lg, &t)) break;
            if (frink_token_is_eog(m, t)) break;
            out[k] = t;
            if (frink_seq_eval(s, &t, 1, lg, 0)) break;
        }
    }
    frink_sampler_free(smp);
    free(lg);
    return k;
}

int main(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "models/stories260K.gguf";
    frink_model *m;
    CHECK(frink_model_open(&mp, &m) == FRINK_OK, "%s", frink_errmsg());
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 2;
    cp.n_batch = 64; // long prompts would split, as in real use
    cp.n_ctx = 256;
    frink_context *ctx;
    frink_seq *s;
    CHECK(frink_context_create(m, &cp, &ctx) == FRINK_OK && frink_seq_create(ctx, &s) == FRINK_OK, "%s", frink_errmsg());
    frink_sampler_params greedy_p = frink_sampler_default_params();
    greedy_p.temp = 0;

    FILE *g = fopen("tests/data/golden/stories260K.gen", "r");
    CHECK(g != NULL, "golden generations missing");
    char line[8192];
    int cases = 0;
    while (g && fgets(line, sizeof line, g)) {
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        int32_t want[256];
        int nw = 0;
        for (char *p = tab + 1; *p && *p != '\n' && nw < 256;) {
            want[nw++] = (int32_t)strtol(p, &p, 10);
            if (*p == ',') p++;
        }
        int32_t *ids;
        size_t np;
        CHECK(frink_tokenize(m, line, strlen(line), FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL, &ids, &np) == FRINK_OK,
              "%s", frink_errmsg());
        frink_seq_reset(s);
        int32_t got[256];
        int ng = greedy(s, m, ids, np, 200, got, &greedy_p);
        int same = ng == nw;
        for (int i = 0; same && i < ng; i++) same = got[i] == want[i];
        int first = 0;
        while (first < ng && first < nw && got[first] == want[first]) first++;
        CHECK(same, "'%s': %d tokens vs reference %d, first difference at %d", line, ng, nw, first);
        printf("  '%s': %d greedy tokens, identical to the reference: %s\n", line, ng, same ? "yes" : "no");
        frink_free(ids);
        cases++;
    }
    if (g) fclose(g);
    CHECK(cases == 5, "expected 5 golden prompts, found %d", cases);

    // Seeded sampling is reproducible and differs from greedy.
    frink_sampler_params sp = frink_sampler_default_params();
    sp.temp = 1.0f;
    sp.seed = 42;
    int32_t p1[] = {1, 403, 407, 261, 378}, a[64], b[64], c[64];
    frink_seq_reset(s);
    int na = greedy(s, m, p1, 5, 64, a, &sp);
    frink_seq_reset(s);
    int nb = greedy(s, m, p1, 5, 64, b, &sp);
    CHECK(na == nb && !memcmp(a, b, (size_t)na * sizeof *a), "same seed, different samples");
    sp.seed = 43;
    frink_seq_reset(s);
    int nc = greedy(s, m, p1, 5, 64, c, &sp);
    CHECK(nc != na || memcmp(a, c, (size_t)na * sizeof *a), "different seeds, same samples");

    frink_context_free(ctx);
    frink_model_free(m);
    return TEST_DONE();
}
