// spec.c — speculative decoding for the commands that decode (run, chat): the flags as the
// reference spells them, the draft model opened beside the target, and the token stream the
// commands read one token at a time whether a step yields one token or many.
//
//   cli_spec_flag     --spec / --spec-type, -md, --draft-max, --draft-min, --draft-p-min, ...
//   cli_spec_open     the draft model and its context (-md); a refusal named (MTP, EAGLE-3)
//   cli_spec_start    a new reply on a sequence whose prompt was just evaluated
//   cli_spec_next     the next token: the prompt's logits sampled first, then each token of a
//                     step in turn, a new step when they are used up
//   cli_spec_end      the sequence cut back to what the command used (a step may run ahead)
//   cli_spec_report   acceptance and draft length, a line on stderr or a JSON member
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char cli_spec_flags_help[] =
    "speculative decoding (the output is the same tokens as without it, greedy or sampled):\n"
    "  --spec KIND              none, lookup (prompt lookup: n-grams of the context, no second model), or\n"
    "                           draft (a draft model, -md); --spec-type takes the reference's names too\n"
    "                           (ngram-simple, ngram-map-k, ngram-mod, ngram-cache: lookup; draft-simple: draft)\n"
    "  -md, --model-draft FILE  the draft model (same vocabulary; implies --spec draft)\n"
    "  --draft-max N            most drafted tokens a step verifies (default 16; --draft, --draft-n)\n"
    "  --draft-min N            fewer drafted tokens than N: a plain step (default 0)\n"
    "  --draft-p-min P          the draft model drafts while it is this sure (default 0.75)\n"
    "  --spec-ngram-size-n N    the longest n-gram prompt lookup matches (default 4; it tries down to 2)\n"
    "  --draft-fixed            draft --draft-max tokens every step (default: the length adapts to the\n"
    "                           acceptance rate and the measured cost, down to none)\n"
    "  -cd, --ctx-size-draft N, -td, --threads-draft N   the draft model's context and threads\n";

void cli_spec_opts_init(struct cli_spec_opts *o) {
    *o = (struct cli_spec_opts){.p = frink_spec_default_params()};
}

// The reference's --spec-type names (a comma list: the first one frink runs is used).
static int spec_kind(struct cli_spec_opts *o, const char *flag, const char *v) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        frink_spec_kind k;
        if (frink_spec_kind_parse(t, &k) && k != FRINK_SPEC_CUSTOM) o->p.kind = k;
        else if (!strncmp(t, "ngram-", 6)) o->p.kind = FRINK_SPEC_LOOKUP;
        else if (!strcmp(t, "draft-simple")) o->p.kind = FRINK_SPEC_DRAFT;
        else if (!strcmp(t, "mtp") || !strcmp(t, "draft-mtp"))
            return cli_die("%s %s: MTP / NextN heads are not implemented (the model's nextn layers are refused by "
                           "name); use lookup or a draft model", flag, t), -1;
        else if (!strcmp(t, "draft-eagle3") || !strcmp(t, "draft-dflash") || !strcmp(t, "draft-dspark"))
            return cli_die("%s %s: that drafter is not implemented; use lookup or a draft model", flag, t), -1;
        else
            return cli_die("%s: unknown kind '%s' (none, lookup, draft)", flag, t), -1;
        o->kind_set = true;
        return 0;
    }
    return cli_die("%s needs a kind", flag), -1;
}

int cli_spec_flag(struct cli_spec_opts *o, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    long n;
    double d;
#define IS(x) (!strcmp(a, x))
    bool takes = IS("--spec") || IS("--spec-type") || IS("-md") || IS("--model-draft") || IS("--spec-draft-model") ||
                 IS("--draft-max") || IS("--draft") || IS("--draft-n") || IS("--spec-draft-n-max") || IS("--draft-min") ||
                 IS("--draft-n-min") || IS("--spec-draft-n-min") || IS("--draft-p-min") || IS("--spec-draft-p-min") ||
                 IS("--spec-ngram-size-n") || IS("-cd") || IS("--ctx-size-draft") || IS("-td") || IS("--threads-draft") ||
                 IS("--spec-draft-threads");
    if (IS("--draft-fixed")) return o->p.fixed = true, 1;
    if (!takes) return 0;
    if (!v) return cli_die("%s needs a value", a), -1;
    if (IS("--spec") || IS("--spec-type")) return spec_kind(o, a, v) ? -1 : 2;
    if (IS("-md") || IS("--model-draft") || IS("--spec-draft-model")) {
        o->draft_path = v;
        if (!o->kind_set) o->p.kind = FRINK_SPEC_DRAFT;
        return 2;
    }
    if (IS("--draft-p-min") || IS("--spec-draft-p-min")) {
        if (!cli_float(a, v, 0, 1, &d)) return -1;
        o->p.draft_p_min = (float)d;
        return 2;
    }
    if (IS("-cd") || IS("--ctx-size-draft")) return cli_int(a, v, 0, 1 << 24, &o->draft_ctx) ? 2 : -1;
    if (IS("-td") || IS("--threads-draft") || IS("--spec-draft-threads")) return cli_int(a, v, 0, 1024, &o->draft_threads) ? 2 : -1;
    if (!cli_int(a, v, IS("--spec-ngram-size-n") ? 1 : 0, IS("--spec-ngram-size-n") ? 64 : FRINK_SPEC_DRAFT_MAX, &n)) return -1;
    if (IS("--draft-min") || IS("--draft-n-min") || IS("--spec-draft-n-min")) o->p.draft_min = (int)n;
    else if (IS("--spec-ngram-size-n")) o->p.ngram_max = (int)n, o->p.ngram_min = n < 2 ? (int)n : 2;
    else if (n == 0) o->p.kind = FRINK_SPEC_NONE, o->kind_set = true; // the reference's --draft-max 0: no drafting
    else o->p.draft_max = (int)n;
    return 2;
#undef IS
}

int cli_spec_open(const struct cli_spec_opts *so, const struct cli_model_opts *mo, const frink_model *m, struct cli_spec *cs) {
    *cs = (struct cli_spec){.p = so->p};
    if (so->p.draft_min > so->p.draft_max)
        return cli_die("--draft-min %d is more than --draft-max %d", so->p.draft_min, so->p.draft_max), 2;
    if (so->p.kind == FRINK_SPEC_DRAFT && !so->draft_path) return cli_die("--spec draft needs the draft model (-md FILE)"), 2;
    if (so->p.kind != FRINK_SPEC_DRAFT && so->draft_path && so->p.kind != FRINK_SPEC_NONE)
        return cli_die("-md goes with --spec draft (this run asks for %s)", frink_spec_kind_name(so->p.kind)), 2;
    if (!(cs->logits = malloc((size_t)frink_model_n_vocab(m) * sizeof(float)))) return cli_die("out of memory"), 1;
    if (so->p.kind != FRINK_SPEC_DRAFT) return 0;
    frink_model_params mp = frink_model_default_params();
    mp.path = so->draft_path;
    mp.allow_unread = mo->allow_unread;
    if (frink_model_open(&mp, &cs->dm)) return cli_die("-md %s: %s", so->draft_path, frink_errmsg()), 1;
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = so->draft_threads ? (int)so->draft_threads : (int)mo->threads;
    cp.n_ctx = so->draft_ctx ? (int)so->draft_ctx : cli_ctx_size(mo, m);
    cp.n_batch = (int)mo->batch;
    if (frink_context_create(cs->dm, &cp, &cs->dc)) return cli_die("-md %s: %s", so->draft_path, frink_errmsg()), 1;
    cs->p.draft_ctx = cs->dc;
    return 0;
}

int cli_spec_start(struct cli_spec *cs, frink_seq *seq, frink_sampler *smp) {
    frink_spec_free(cs->sp);
    cs->sp = NULL;
    cs->seq = seq, cs->smp = smp;
    cs->qn = cs->qi = 0;
    cs->started = false;
    cs->start_len = frink_seq_len(seq);
    cs->used = 0;
    if (cs->p.kind != FRINK_SPEC_NONE && frink_spec_create(seq, &cs->p, &cs->sp)) return cli_die("%s", frink_errmsg()), 1;
    return 0;
}

frink_status cli_spec_next(struct cli_spec *cs, const float *prompt_logits, int budget, frink_token *tok) {
    if (cs->qi < cs->qn) {
        *tok = cs->q[cs->qi++];
        cs->used++;
        return FRINK_OK;
    }
    frink_status st;
    if (!cs->started) {
        // The prompt's logits: the first token is sampled as plain decoding samples it.
        if ((st = frink_sampler_sample(cs->smp, prompt_logits, tok))) return st;
        cs->started = true;
    } else if (!cs->sp) {
        if ((st = frink_seq_eval(cs->seq, &cs->pending, 1, cs->logits, 0))) return st;
        if ((st = frink_sampler_sample(cs->smp, cs->logits, tok))) return st;
    } else {
        int n = 0;
        if (budget < 1) budget = 1;
        if (budget > FRINK_SPEC_DRAFT_MAX + 1) budget = FRINK_SPEC_DRAFT_MAX + 1;
        if ((st = frink_spec_step(cs->sp, cs->pending, cs->smp, cs->q, budget, &n))) return st;
        cs->qn = n, cs->qi = 1;
        *tok = cs->q[0];
        cs->pending = cs->q[n - 1];
        cs->used++;
        return FRINK_OK;
    }
    cs->pending = *tok;
    cs->used++;
    return FRINK_OK;
}

int cli_spec_end(struct cli_spec *cs, bool keep_last) {
    // Plain decoding leaves every token the command used but the last in the sequence; with
    // keep_last, the last one too.
    if (!cs->seq || !cs->used) return 0;
    int want = cs->start_len + cs->used - (keep_last ? 0 : 1), have = frink_seq_len(cs->seq);
    frink_status st = FRINK_OK;
    if (have > want) st = frink_seq_truncate(cs->seq, want, NULL);
    else if (have < want) st = frink_seq_eval(cs->seq, &cs->pending, 1, cs->logits, 0);
    cs->qn = cs->qi = 0;
    cs->used = 0;
    return st ? cli_die("%s", frink_errmsg()), 1 : 0;
}

void cli_spec_report(const struct cli_spec *cs, FILE *f, bool json) {
    if (!cs->sp) {
        if (json) fprintf(f, ",\"spec\":{\"kind\":\"none\"}");
        return;
    }
    frink_spec_stats st;
    frink_spec_get_stats(cs->sp, &st);
    double rate = st.drafted ? (double)st.accepted / (double)st.drafted : 0;
    double per_step = st.steps ? (double)st.tokens / (double)st.steps : 0;
    if (json) {
        fprintf(f,
                ",\"spec\":{\"kind\":\"%s\",\"steps\":%llu,\"plain_steps\":%llu,\"drafted\":%llu,\"accepted\":%llu,"
                "\"acceptance\":%.4f,\"tokens_per_step\":%.3f,\"replayed\":%llu,\"draft_len\":%d}",
                frink_spec_kind_name(cs->p.kind), (unsigned long long)st.steps, (unsigned long long)st.plain_steps,
                (unsigned long long)st.drafted, (unsigned long long)st.accepted, rate, per_step,
                (unsigned long long)st.replayed, st.draft_len);
        return;
    }
    fprintf(f, "frink: spec %s: %llu drafted, %llu accepted (%.1f%%), %.2f tokens per step over %llu steps (%llu plain)",
            frink_spec_kind_name(cs->p.kind), (unsigned long long)st.drafted, (unsigned long long)st.accepted, 100 * rate,
            per_step, (unsigned long long)st.steps, (unsigned long long)st.plain_steps);
    if (st.replayed) fprintf(f, ", %llu replayed", (unsigned long long)st.replayed);
    fprintf(f, "\n");
}

void cli_spec_close(struct cli_spec *cs) {
    frink_spec_free(cs->sp);
    frink_context_free(cs->dc);
    frink_model_free(cs->dm);
    free(cs->logits);
    *cs = (struct cli_spec){0};
}
