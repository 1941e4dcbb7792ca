// simple.c — the smallest complete use of libfrink: open a model, tokenize a
// prompt, generate a continuation and stream it as it is produced.
//
//   cc simple.c $(pkg-config --cflags --libs frink) -o simple
//   ./simple [MODEL.gguf] [PROMPT] [N]     (no model: the embedded stories260K)
#include <frink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
    fprintf(stderr, "simple: %s: %s\n", what, frink_errmsg());
    return 1;
}

int main(int argc, char **argv) {
    frink_model_params mp = frink_model_default_params();
    mp.path = argc > 1 && argv[1][0] ? argv[1] : NULL;
    const char *prompt = argc > 2 ? argv[2] : "Once upon a time";
    int n_predict = argc > 3 ? atoi(argv[3]) : 48;

    frink_model *model;
    if (frink_model_open(&mp, &model)) return fail("open");
    frink_context_params cp = frink_context_default_params();
    cp.n_ctx = 512;
    frink_context *ctx;
    frink_seq *seq;
    if (frink_context_create(model, &cp, &ctx) || frink_seq_create(ctx, &seq)) return fail("context");

    frink_token *ids;
    size_t n;
    if (frink_tokenize(model, prompt, strlen(prompt), FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL, &ids, &n))
        return fail("tokenize");
    float *logits = malloc((size_t)frink_model_n_vocab(model) * sizeof *logits);
    if (!logits || frink_seq_eval(seq, ids, (int)n, logits, 0)) return fail("prefill");

    frink_sampler_params sp = frink_sampler_default_params();
    sp.temp = 0; // greedy: the same text every run
    frink_sampler *smp;
    frink_detok *dt;
    if (frink_sampler_create(model, &sp, &smp) || frink_detok_create(model, FRINK_DETOK_CONTINUE, &dt)) return fail("sampler");

    printf("%s", prompt);
    const char *text;
    size_t len;
    for (int i = 0; i < n_predict; i++) {
        frink_token t;
        if (frink_sampler_sample(smp, logits, &t)) return fail("sample");
        if (frink_token_is_eog(model, t)) break;
        if (frink_detok_push(dt, t, &text, &len)) return fail("detokenize");
        fwrite(text, 1, len, stdout); // whole UTF-8 characters only
        fflush(stdout);
        if (frink_seq_eval(seq, &t, 1, logits, 0)) return fail("decode");
    }
    if (!frink_detok_flush(dt, &text, &len)) fwrite(text, 1, len, stdout);
    printf("\n");

    frink_detok_free(dt);
    frink_sampler_free(smp);
    free(logits);
    frink_free(ids);
    frink_context_free(ctx); // frees seq too
    frink_model_free(model);
    return 0;
}
