// End to end on the embedded default model: tokenize a prompt, prefill, then
// greedy-decode 200 tokens, and compare the ids with the reference's greedy
// generation (tests/data/golden/stories260K.gen, from scripts/make-golden.sh).
// Also: the prompt's ids equal the reference tokenizer's, and sampling with a
// seed is reproducible.
#include <stdlib.h>
#include <string.h>

#include "core/gguf.h"
#include "core/pool.h"
#include "model/forward.h"
#include "text/sampler.h"
#include "text/tokenizer.h"
#include "test.h"

static int greedy(struct exec *ex, struct seq *s, const struct tokenizer *tok, const int32_t *p, size_t np, int n,
                  int32_t *out, const struct sampler_params *sp) {
    int V = s->m->hp.n_vocab;
    float *lg = malloc((size_t)V * sizeof(float));
    struct sampler *smp;
    sampler_create(sp, V, &smp);
    int k = 0;
    if (exec_forward(ex, s, p, (int)np, lg, false) == FRINK_OK) {
        for (; k < n; k++) {
            int32_t t = sampler_sample(smp, lg);
            if (tokenizer_is_eog(tok, t)) break;
            out[k] = t;
            if (exec_forward(ex, s, &t, 1, lg, false)) break;
        }
    }
    sampler_free(smp);
    free(lg);
    return k;
}

int main(void) {
    struct gguf_file *f;
    CHECK(gguf_open("models/stories260K.gguf", &f) == FRINK_OK, "%s", frink_errmsg());
    struct tokenizer *tok;
    CHECK(tokenizer_load(f, &tok) == FRINK_OK, "%s", frink_errmsg());
    struct model *m;
    CHECK(model_load(f, NULL, &m) == FRINK_OK, "%s", frink_errmsg());
    struct pool *pool = pool_create(2);
    struct exec *ex;
    exec_create(m, pool, 64, &ex); // batch 64: long prompts would split, as in real use
    struct seq *s;
    seq_create(m, 256, &s);
    struct sampler_params greedy_p;
    sampler_defaults(&greedy_p);
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
        CHECK(tokenizer_encode(tok, line, strlen(line), true, true, &ids, &np) == FRINK_OK, "%s", frink_errmsg());
        seq_reset(s);
        int32_t got[256];
        int ng = greedy(ex, s, tok, ids, np, 200, got, &greedy_p);
        int same = ng == nw;
        for (int i = 0; same && i < ng; i++) same = got[i] == want[i];
        int first = 0;
        while (first < ng && first < nw && got[first] == want[first]) first++;
        CHECK(same, "'%s': %d tokens vs reference %d, first difference at %d", line, ng, nw, first);
        printf("  '%s': %d greedy tokens, identical to the reference: %s\n", line, ng, same ? "yes" : "no");
        free(ids);
        cases++;
    }
    if (g) fclose(g);
    CHECK(cases == 5, "expected 5 golden prompts, found %d", cases);

    // Seeded sampling is reproducible and differs from greedy.
    struct sampler_params sp;
    sampler_defaults(&sp);
    sp.temp = 1.0f;
    sp.seed = 42;
    int32_t p1[] = {1, 403, 407, 261, 378}, a[64], b[64], c[64];
    seq_reset(s);
    int na = greedy(ex, s, tok, p1, 5, 64, a, &sp);
    seq_reset(s);
    int nb = greedy(ex, s, tok, p1, 5, 64, b, &sp);
    CHECK(na == nb && !memcmp(a, b, (size_t)na * sizeof *a), "same seed, different samples");
    sp.seed = 43;
    seq_reset(s);
    int nc = greedy(ex, s, tok, p1, 5, 64, c, &sp);
    CHECK(nc != na || memcmp(a, c, (size_t)na * sizeof *a), "different seeds, same samples");

    seq_free(s);
    exec_free(ex);
    pool_free(pool);
    tokenizer_free(tok);
    model_free(m);
    return TEST_DONE();
}
