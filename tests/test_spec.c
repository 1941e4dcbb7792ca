// test_spec.c — speculative decoding gives plain decoding's tokens, bit for bit.
//
// For every fixture that opens (dense, MoE, MLA, sliding-window, and the hybrids: Gated
// DeltaNet, Mamba, Mamba-2, short conv, ...), greedy and at temperature 0.8 with a fixed seed:
//   - plain decoding (one token per step) is the reference: its tokens, and the logits after
//     the last of them;
//   - prompt lookup (fixed length and adaptive), an oracle drafter that drafts the reference's
//     own continuation (every draft accepted), the oracle wrong at each of the first drafted
//     positions (a rejection there, a rollback for hybrids), and the model as its own draft
//     model each give the same tokens, and the sequence they leave gives the same next logits.
// The same step in halves, four sequences verified in one frink_decode a step. Then: the
// chunked delta rule's context, and the edge cases (bad parameters, a draft model
// of another vocabulary, the end of generation inside a step, a full context, max_out).
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"

enum { N_GEN = 24, MAXT = 96, N_PROMPT = 18 };

static frink_context *ctx_make(const frink_model *m, int gdn_chunk) {
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = 2;
    cp.n_ctx = MAXT + 8;
    cp.gdn_chunk = gdn_chunk;
    frink_context *c = NULL;
    if (frink_context_create(m, &cp, &c)) fprintf(stderr, "context: %s\n", frink_errmsg());
    return c;
}

// A prompt that repeats itself (so that prompt lookup finds n-grams): 7 random ids twice, then 4.
static int make_prompt(frink_token *t, int V, uint32_t seed) {
    uint32_t x = seed * 2654435761u + 7u;
    for (int i = 0; i < 7; i++) {
        x = x * 1664525u + 1013904223u;
        t[i] = 1 + (frink_token)((x >> 8) % (uint32_t)(V - 1));
    }
    for (int i = 7; i < N_PROMPT; i++) t[i] = t[i % 7];
    return N_PROMPT;
}

static frink_sampler *sampler_make(const frink_model *m, float temp) {
    frink_sampler_params sp = frink_sampler_default_params();
    sp.temp = temp;
    sp.seed = 4242;
    frink_sampler *s = NULL;
    frink_sampler_create(m, &sp, &s);
    return s;
}

struct run_result {
    frink_token out[N_GEN];
    int n;
    float *next;         // logits after the last token (evaluated once generation ended)
    frink_spec_stats st;
    bool failed;
};

// Plain decoding: the prompt, then sample, evaluate, sample, ... N_GEN tokens (or to an EOG).
static void run_plain(const frink_model *m, frink_context *c, const frink_token *p, int np, float temp,
                      struct run_result *r) {
    int V = frink_model_n_vocab(m);
    frink_seq *s = NULL;
    frink_sampler *smp = sampler_make(m, temp);
    float *lg = malloc((size_t)V * sizeof(float));
    r->next = malloc((size_t)V * sizeof(float));
    r->n = 0;
    r->failed = frink_seq_create(c, &s) || frink_seq_eval(s, p, np, lg, 0);
    for (int i = 0; i < np; i++) frink_sampler_accept(smp, p[i]);
    while (!r->failed && r->n < N_GEN) {
        frink_token t;
        if (frink_sampler_sample(smp, lg, &t)) { r->failed = true; break; }
        r->out[r->n++] = t;
        if (frink_seq_eval(s, &t, 1, lg, 0)) { r->failed = true; break; }
        if (frink_token_is_eog(m, t)) break;
    }
    memcpy(r->next, lg, (size_t)V * sizeof(float));
    free(lg);
    frink_sampler_free(smp);
    frink_seq_free(s);
}

// The same through frink_spec_step (max_out varied so that steps end on it too).
static void run_spec(const frink_model *m, frink_context *c, const frink_token *p, int np, float temp,
                     const frink_spec_params *spp, struct run_result *r) {
    int V = frink_model_n_vocab(m);
    frink_seq *s = NULL;
    frink_spec *sp = NULL;
    frink_sampler *smp = sampler_make(m, temp);
    float *lg = malloc((size_t)V * sizeof(float));
    r->next = malloc((size_t)V * sizeof(float));
    r->n = 0;
    r->failed = frink_seq_create(c, &s) || frink_seq_eval(s, p, np, lg, 0) || frink_spec_create(s, spp, &sp);
    if (r->failed) fprintf(stderr, "spec setup: %s\n", frink_errmsg());
    for (int i = 0; i < np; i++) frink_sampler_accept(smp, p[i]);
    frink_token pending = -1;
    if (!r->failed) {
        if (frink_sampler_sample(smp, lg, &pending)) r->failed = true;
        else r->out[r->n++] = pending;
    }
    int step = 0;
    while (!r->failed && !frink_token_is_eog(m, pending) && r->n < N_GEN) {
        frink_token got[FRINK_SPEC_DRAFT_MAX];
        int n = 0, left = N_GEN - r->n, max_out = step % 5 == 4 ? 1 + step % 3 : left;
        if (max_out > left) max_out = left;
        if (frink_spec_step(sp, pending, smp, got, max_out, &n) || n < 1 || n > max_out) {
            fprintf(stderr, "spec step: %s\n", frink_errmsg());
            r->failed = true;
            break;
        }
        memcpy(r->out + r->n, got, (size_t)n * sizeof *got);
        r->n += n;
        pending = got[n - 1];
        step++;
    }
    // The state the steps leave: pending evaluated, its logits as plain decoding's.
    if (!r->failed && frink_seq_len(s) != np + r->n - 1) r->failed = true;
    if (!r->failed && frink_seq_eval(s, &pending, 1, r->next, 0)) r->failed = true;
    if (sp) frink_spec_get_stats(sp, &r->st);
    free(lg);
    frink_spec_free(sp);
    frink_sampler_free(smp);
    frink_seq_free(s);
}

// The step in halves (frink_spec_begin / _finish) as a server runs it: NB sequences of the same
// prompt in one context, their drafts (and a plain sequence's one token, spp[i].kind NONE
// without a frink_spec) verified together in one frink_decode a step; each must give plain
// decoding's tokens whatever the others add to the batch.
enum { NB = 4 };
static void run_batched(const frink_model *m, frink_context *c, const frink_token *p, int np, float temp,
                        const frink_spec_params *spp, struct run_result *r) {
    int V = frink_model_n_vocab(m);
    frink_seq *s[NB] = {0};
    frink_spec *sp[NB] = {0};
    frink_sampler *smp[NB] = {0};
    frink_token pending[NB];
    bool live[NB];
    int idx[NB], nt[NB];
    frink_batch *b = NULL;
    bool failed = frink_batch_create(NB * (FRINK_SPEC_DRAFT_MAX + 1), &b) != FRINK_OK;
    float *lg = malloc((size_t)V * sizeof(float));
    for (int j = 0; j < NB; j++) {
        r[j] = (struct run_result){.next = malloc((size_t)V * sizeof(float))};
        smp[j] = sampler_make(m, temp);
        failed = failed || frink_seq_create(c, &s[j]) || frink_seq_eval(s[j], p, np, lg, 0) ||
                 (spp[j].kind != FRINK_SPEC_NONE && frink_spec_create(s[j], &spp[j], &sp[j]));
        for (int i = 0; i < np; i++) frink_sampler_accept(smp[j], p[i]);
        failed = failed || frink_sampler_sample(smp[j], lg, &pending[j]);
        if (!failed) r[j].out[r[j].n++] = pending[j];
        live[j] = !failed && !frink_token_is_eog(m, pending[j]) && r[j].n < N_GEN;
    }
    if (failed) fprintf(stderr, "batched setup: %s\n", frink_errmsg());
    for (int step = 0; !failed; step++) {
        bool any = false;
        for (int j = 0; j < NB && !failed; j++) {
            idx[j] = -1;
            if (!live[j]) continue;
            any = true;
            const frink_token *toks = &pending[j];
            nt[j] = 1;
            int left = N_GEN - r[j].n, max_out = (step + j) % 5 == 4 ? 1 + step % 3 : left;
            if (max_out > left) max_out = left;
            if (sp[j] && frink_spec_begin(sp[j], pending[j], max_out, &toks, &nt[j])) failed = true;
            for (int i = 0; i < nt[j] && !failed; i++) {
                int at = frink_batch_add(b, s[j], toks[i], true);
                if (!i) idx[j] = at;
                failed = at < 0;
            }
        }
        if (!any || failed || frink_decode(c, b)) break;
        for (int j = 0; j < NB && !failed; j++) {
            if (idx[j] < 0) continue;
            frink_token got[FRINK_SPEC_DRAFT_MAX + 1];
            int n = 1;
            if (sp[j]) {
                const float *rows[FRINK_SPEC_DRAFT_MAX + 1];
                for (int i = 0; i < nt[j]; i++) rows[i] = frink_batch_logits(b, idx[j] + i);
                failed = frink_spec_finish(sp[j], smp[j], rows, got, &n) || n < 1;
            } else {
                failed = frink_sampler_sample(smp[j], frink_batch_logits(b, idx[j]), &got[0]);
            }
            if (failed) break;
            memcpy(r[j].out + r[j].n, got, (size_t)n * sizeof *got);
            r[j].n += n;
            pending[j] = got[n - 1];
            live[j] = !frink_token_is_eog(m, pending[j]) && r[j].n < N_GEN;
        }
    }
    if (failed) fprintf(stderr, "batched step: %s\n", frink_errmsg());
    for (int j = 0; j < NB; j++) {
        r[j].failed = failed || frink_seq_len(s[j]) != np + r[j].n - 1 || frink_seq_eval(s[j], &pending[j], 1, r[j].next, 0);
        if (sp[j]) frink_spec_get_stats(sp[j], &r[j].st);
        frink_spec_free(sp[j]);
        frink_sampler_free(smp[j]);
        frink_seq_free(s[j]);
    }
    frink_batch_free(b);
    free(lg);
}

// The oracle drafter: the reference's continuation after the history, wrong at `wrong_at`.
struct oracle {
    const frink_token *ref; // prompt then the reference's output
    int n_ref, V, wrong_at;
};

static int oracle_draft(void *ud, const frink_token *h, int nh, frink_token *d, int max) {
    const struct oracle *o = ud;
    int n = 0;
    for (int i = nh; i < o->n_ref && n < max; i++, n++) d[n] = n == o->wrong_at ? (o->ref[i] + 1) % o->V : o->ref[i];
    (void)h;
    return n;
}

static int n_models, n_hybrid_rollbacks;

static void compare(const char *what, const char *name, int V, const struct run_result *want, const struct run_result *got) {
    CHECK(!got->failed, "%s: %s: the speculative run failed", name, what);
    if (got->failed) return;
    bool same = got->n == want->n && !memcmp(got->out, want->out, (size_t)want->n * sizeof *want->out);
    int at = 0;
    while (at < got->n && at < want->n && got->out[at] == want->out[at]) at++;
    CHECK(same, "%s: %s: %d tokens, plain decoding %d; first difference at %d", name, what, got->n, want->n, at);
    CHECK(!memcmp(got->next, want->next, (size_t)V * sizeof(float)), "%s: %s: the logits after the output differ from plain decoding's", name, what);
}

static void check_model(const char *path) {
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    mp.allow_unread = true;
    mp.no_tokenizer = strncmp(path, "models/", 7) != 0; // the fixtures' vocabularies are placeholders
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) return; // refused by name: test_parity_archs checks that
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    int V = frink_model_n_vocab(m);
    frink_context *c = ctx_make(m, 0), *dc = ctx_make(m, 0);
    if (!c || !dc) {
        CHECK(0, "%s: no context", name);
        goto done;
    }
    n_models++;
    frink_token p[N_PROMPT];
    int np = make_prompt(p, V, (uint32_t)strlen(path) * 31u + (uint32_t)V);
    for (int ti = 0; ti < 2; ti++) {
        float temp = ti ? 0.8f : 0.0f;
        struct run_result want = {0};
        run_plain(m, c, p, np, temp, &want);
        CHECK(!want.failed && want.n > 0, "%s: plain decoding failed: %s", name, frink_errmsg());
        if (want.failed) {
            free(want.next);
            continue;
        }
        frink_token ref[N_PROMPT + N_GEN];
        memcpy(ref, p, sizeof p);
        memcpy(ref + np, want.out, (size_t)want.n * sizeof *ref);
        struct oracle o = {ref, np + want.n, V, -1};
        char what[96];
        for (int v = 0; v < 8; v++) {
            frink_spec_params sp = frink_spec_default_params();
            sp.draft_max = 4;
            if (v == 0) sp.kind = FRINK_SPEC_LOOKUP, sp.fixed = true, snprintf(what, sizeof what, "lookup fixed T=%.1f", temp);
            if (v == 1) sp.kind = FRINK_SPEC_LOOKUP, sp.ngram_min = 1, snprintf(what, sizeof what, "lookup adaptive T=%.1f", temp);
            if (v >= 2 && v <= 6) {
                sp.kind = FRINK_SPEC_CUSTOM, sp.fixed = true, sp.draft_fn = oracle_draft, sp.draft_ud = &o;
                o.wrong_at = v - 3; // -1: right everywhere, then wrong at 0..3
                snprintf(what, sizeof what, "oracle wrong at %d T=%.1f", o.wrong_at, temp);
            }
            if (v == 7) {
                sp.kind = FRINK_SPEC_DRAFT, sp.fixed = true, sp.draft_ctx = dc, sp.draft_p_min = 0;
                snprintf(what, sizeof what, "itself as draft model T=%.1f", temp);
            }
            struct run_result got = {0};
            run_spec(m, c, p, np, temp, &sp, &got);
            compare(what, name, V, &want, &got);
            if (v == 2) CHECK((got.st.accepted == got.st.drafted && got.st.drafted > 0) || want.n < 3,
                              "%s: %s: %llu of %llu drafts kept", name, what, (unsigned long long)got.st.accepted,
                              (unsigned long long)got.st.drafted);
            if (v == 7 && ti == 0)
                CHECK(got.st.accepted == got.st.drafted, "%s: %s: the model drafting for itself had %llu of %llu kept", name,
                      what, (unsigned long long)got.st.accepted, (unsigned long long)got.st.drafted);
            if (v >= 3 && v <= 6 && got.st.replayed) n_hybrid_rollbacks++;
            free(got.next);
        }
        // The halves, four sequences a step: lookup, the oracle right and wrong at 1, plain.
        frink_spec_params bp[NB];
        struct oracle ob[NB] = {{ref, np + want.n, V, -1}, {ref, np + want.n, V, -1}, {ref, np + want.n, V, 1}, {0}};
        for (int j = 0; j < NB; j++) {
            bp[j] = frink_spec_default_params();
            bp[j].draft_max = 4;
            bp[j].fixed = true;
        }
        bp[0].kind = FRINK_SPEC_LOOKUP;
        for (int j = 1; j < 3; j++) bp[j].kind = FRINK_SPEC_CUSTOM, bp[j].draft_fn = oracle_draft, bp[j].draft_ud = &ob[j];
        struct run_result got[NB];
        run_batched(m, c, p, np, temp, bp, got);
        for (int j = 0; j < NB; j++) {
            snprintf(what, sizeof what, "batched, sequence %d of %d T=%.1f", j, NB, temp);
            compare(what, name, V, &want, &got[j]);
            free(got[j].next);
        }
        CHECK(got[1].st.accepted == got[1].st.drafted, "%s: batched: the right oracle had %llu of %llu kept", name,
              (unsigned long long)got[1].st.accepted, (unsigned long long)got[1].st.drafted);
        free(want.next);
    }
done:
    frink_context_free(dc);
    frink_context_free(c);
    frink_model_free(m);
}

// A chunked delta rule prefills the prompt in chunks; the verify steps still agree with plain
// decoding's one-token steps.
static void check_gdn_chunk(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "tests/data/archs/qwen35-dense.gguf";
    mp.allow_unread = true;
    mp.no_tokenizer = true;
    frink_model *m = NULL;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "qwen35-dense: %s", frink_errmsg());
        return;
    }
    int V = frink_model_n_vocab(m);
    frink_context *c = ctx_make(m, 8);
    frink_token p[N_PROMPT];
    int np = make_prompt(p, V, 99);
    struct run_result want = {0}, got = {0};
    run_plain(m, c, p, np, 0, &want);
    frink_token ref[N_PROMPT + N_GEN];
    memcpy(ref, p, sizeof p);
    memcpy(ref + np, want.out, (size_t)want.n * sizeof *ref);
    struct oracle o = {ref, np + want.n, V, 2};
    frink_spec_params sp = frink_spec_default_params();
    sp.kind = FRINK_SPEC_CUSTOM, sp.fixed = true, sp.draft_max = 6, sp.draft_fn = oracle_draft, sp.draft_ud = &o;
    run_spec(m, c, p, np, 0, &sp, &got);
    compare("gdn_chunk 8, oracle wrong at 2", "qwen35-dense", V, &want, &got);
    CHECK(got.st.replayed > 0, "gdn_chunk 8: no rollback happened");
    free(want.next);
    free(got.next);
    frink_context_free(c);
    frink_model_free(m);
}

static int drafts_eos(void *ud, const frink_token *h, int nh, frink_token *d, int max) {
    (void)h, (void)nh;
    int n = 0;
    for (; n < max && n < 4; n++) d[n] = *(const frink_token *)ud;
    return n;
}

static void check_edges(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "models/stories260K.gguf";
    frink_model *m = NULL, *other = NULL;
    CHECK(frink_model_open(&mp, &m) == FRINK_OK, "%s", frink_errmsg());
    if (!m) return;
    mp.path = "tests/data/archs/llama-dense.gguf";
    mp.allow_unread = true;
    mp.no_tokenizer = true;
    frink_model_open(&mp, &other);
    frink_context *c = ctx_make(m, 0), *oc = other ? ctx_make(other, 0) : NULL;
    frink_seq *s = NULL;
    frink_seq_create(c, &s);
    frink_spec *sp = NULL;
    frink_spec_params p = frink_spec_default_params();
    struct { const char *what; int field; int value; } bad[] = {
        {"draft_max", 0, 0}, {"draft_max", 0, FRINK_SPEC_DRAFT_MAX + 1}, {"draft_min", 1, 17}, {"draft_min", 1, -1},
        {"ngram", 2, 0}, {"ngram", 3, 65}, {"kind", 4, 9},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        frink_spec_params q = p;
        q.kind = FRINK_SPEC_LOOKUP;
        if (bad[i].field == 0) q.draft_max = bad[i].value;
        if (bad[i].field == 1) q.draft_min = bad[i].value;
        if (bad[i].field == 2) q.ngram_min = bad[i].value;
        if (bad[i].field == 3) q.ngram_max = bad[i].value;
        if (bad[i].field == 4) q.kind = (frink_spec_kind)bad[i].value;
        CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && !sp && strstr(frink_errmsg(), bad[i].what),
              "%s = %d was taken (%s)", bad[i].what, bad[i].value, frink_errmsg());
    }
    frink_spec_params q = p;
    q.kind = FRINK_SPEC_LOOKUP, q.draft_p_min = 1.5f;
    CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && strstr(frink_errmsg(), "draft_p_min"), "p_min 1.5: %s", frink_errmsg());
    q = p, q.kind = FRINK_SPEC_DRAFT;
    CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && strstr(frink_errmsg(), "draft_ctx"), "no draft_ctx: %s", frink_errmsg());
    q.draft_ctx = c;
    CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && strstr(frink_errmsg(), "own context"), "own ctx: %s", frink_errmsg());
    if (oc) {
        q.draft_ctx = oc;
        CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && strstr(frink_errmsg(), "vocabulary"), "another vocabulary: %s",
              frink_errmsg());
    }
    q = p, q.kind = FRINK_SPEC_CUSTOM;
    CHECK(frink_spec_create(s, &q, &sp) == FRINK_ERR_ARG && strstr(frink_errmsg(), "draft_fn"), "no draft_fn: %s", frink_errmsg());
    frink_spec_kind k;
    CHECK(frink_spec_kind_parse("lookup", &k) && k == FRINK_SPEC_LOOKUP && frink_spec_kind_parse("ngram", &k) &&
              k == FRINK_SPEC_LOOKUP && frink_spec_kind_parse("draft", &k) && k == FRINK_SPEC_DRAFT &&
              !frink_spec_kind_parse("mtp", &k) && !strcmp(frink_spec_kind_name(FRINK_SPEC_NONE), "none") &&
              !frink_spec_kind_name((frink_spec_kind)7),
          "kind names");

    // The end of generation inside a step ends it: the drafts after it are not kept.
    frink_token eos = frink_token_eos(m), bos = frink_token_bos(m);
    frink_logit_bias lb = {eos, 1e9f};
    frink_sampler_params smpp = frink_sampler_default_params();
    smpp.temp = 0;
    smpp.logit_bias = &lb, smpp.n_logit_bias = 1;
    frink_sampler *smp = NULL;
    frink_sampler_create(m, &smpp, &smp);
    q = p, q.kind = FRINK_SPEC_CUSTOM, q.fixed = true, q.draft_max = 4, q.draft_fn = drafts_eos, q.draft_ud = &eos;
    CHECK(frink_spec_create(s, &q, &sp) == FRINK_OK, "%s", frink_errmsg());
    frink_token out[8];
    int n = -1;
    CHECK(frink_spec_step(sp, bos, smp, out, 8, &n) == FRINK_OK && n == 1 && out[0] == eos && frink_seq_len(s) == 1,
          "an EOG in a step: n %d, len %d", n, frink_seq_len(s));
    CHECK(frink_spec_step(sp, bos, smp, out, 0, &n) == FRINK_ERR_ARG && n == 0, "max_out 0 was taken");
    CHECK(frink_spec_step(sp, 1 << 30, smp, out, 4, &n) == FRINK_ERR_ARG && n == 0, "a token out of range was taken");
    CHECK(frink_spec_logits(sp, 0) != NULL && frink_spec_logits(sp, 1) == NULL, "the rows of the last step");
    // A full context: the drafts shrink to fit, then a step that cannot fit fails evaluating nothing.
    frink_seq_reset(s);
    frink_token fill[MAXT + 8];
    for (int i = 0; i < MAXT + 8; i++) fill[i] = 1 + i % 50;
    CHECK(frink_seq_eval(s, fill, MAXT + 6, NULL, 0) == FRINK_OK, "%s", frink_errmsg());
    frink_sampler_free(smp);
    smpp.n_logit_bias = 0;
    frink_sampler_create(m, &smpp, &smp);
    frink_token pend = 5;
    frink_status st = FRINK_OK;
    int steps = 0, len_ok = 1;
    while (steps++ < 8 && (st = frink_spec_step(sp, pend, smp, out, 8, &n)) == FRINK_OK) {
        len_ok &= frink_seq_len(s) <= MAXT + 8 && n >= 1;
        pend = out[n - 1];
    }
    CHECK(st == FRINK_ERR_STATE && n == 0 && len_ok && frink_seq_len(s) == MAXT + 8,
          "filling the context: %s, n %d, len %d", frink_status_name(st), n, frink_seq_len(s));
    frink_spec_free(sp);
    frink_sampler_free(smp);
    frink_seq_free(s);
    frink_context_free(oc);
    frink_context_free(c);
    frink_model_free(other);
    frink_model_free(m);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void) {
    check_edges();
    check_gdn_chunk();
    const char *extra[] = {"models/stories260K.gguf", "tests/data/archs/q/llama-dense-Q4_K_M.gguf",
                           "tests/data/archs/q/qwen35-dense-Q4_K_M.gguf", "tests/data/archs/q/mamba-dense-Q8_0.gguf"};
    for (size_t i = 0; i < sizeof extra / sizeof *extra; i++) check_model(extra[i]);
    DIR *d = opendir("tests/data/archs");
    CHECK(d != NULL, "tests/data/archs: no fixtures (make fixtures)");
    char *names[512];
    int nn = 0;
    for (struct dirent *e; d && (e = readdir(d)) && nn < 512;) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".gguf")) {
            names[nn] = malloc(l + 20);
            snprintf(names[nn++], l + 20, "tests/data/archs/%s", e->d_name);
        }
    }
    if (d) closedir(d);
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (int i = 0; i < nn; i++) {
        check_model(names[i]);
        free(names[i]);
    }
    CHECK(n_models >= 100, "only %d fixtures opened", n_models);
    CHECK(n_hybrid_rollbacks >= 10, "only %d hybrid runs rolled back", n_hybrid_rollbacks);
    printf("test_spec: %d models, %d hybrid runs rolled back\n", n_models, n_hybrid_rollbacks);
    return TEST_DONE();
}
