// spec_api.c — speculative decoding: drafts verified in one step, exactly plain decoding's tokens.
//
//   step(pending):
//     draft   k tokens after the history (the sequence's tokens and pending): prompt lookup,
//             a draft model (greedy, its own sequence kept in step), or the caller's drafter;
//             k from the acceptance rate and step costs measured so far (spec_len)
//     verify  [pending, d1..dk] in one frink_seq_eval with every row's logits; hybrids snapshot
//             their recurrent state first, and run the delta rule token by token (a chunked
//             rule would give other bits than plain decoding's one-token steps)
//     sample  row 0, then row i while the token sampled from row i-1 equals d_i: the sampler
//             sees plain decoding's rows in plain decoding's order, so it draws what plain
//             decoding would
//     keep    pending and the accepted drafts; a hybrid rejected part way puts its snapshot
//             back and replays what it keeps (attention rows past the length are overwritten
//             later)
//
// The draft model's sequence holds the target's history plus the drafts of the last step; the
// next step keeps what the histories share (a hybrid draft from its own snapshot at the last
// step's history) and evaluates the rest in one call.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "engine/engine.h"
#include "model/forward.h"
#include "model/replay.h"
#include "state/seq.h"

enum {
    PROBE_EVERY = 16,    // plain steps between probes once drafting stopped paying
    REMEASURE_EVERY = 128, // steps between plain steps that re-measure the cost of one
};

struct frink_spec {
    frink_seq *fs;
    frink_spec_params p;
    int V;
    float *rows;           // [(draft_max + 1) * V] the verified rows of the last step
    int n_rows;            // rows of the last step that out[] was sampled from
    float *snap;           // [state_floats] a hybrid's recurrent state before a verify step
    frink_token *hist;     // the history: the sequence's tokens and the pending one
    int hist_cap;
    frink_token draft[FRINK_SPEC_DRAFT_MAX + 1]; // [0]: pending, then the drafts
    // DRAFT: the draft model's sequence, its last logits, its snapshot at dsnap_pos
    frink_seq *dseq;
    float *dlogits, *dsnap;
    int dsnap_pos;         // -1: no snapshot
    double catchup_ms;     // this step's time spent bringing the draft model to a new history
    // Adaptation: decayed counts of accepted drafts and of rejections; the measured cost of a
    // plain step and of each drafted token on top of it (ms).
    double acc, rej, t_plain, t_draft;
    int since_probe, since_plain;
    frink_spec_stats st;
    // The step begun (frink_spec_begin) and not yet finished: the sequence's length before it,
    // the draft length asked and drafted, the output room, the time it began.
    bool open;
    int n0, asked, nd, max_out;
    double t0;
};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

frink_spec_params frink_spec_default_params(void) {
    return (frink_spec_params){.kind = FRINK_SPEC_NONE, .draft_max = 16, .draft_min = 0, .draft_p_min = 0.75f,
                               .ngram_min = 2, .ngram_max = 4};
}

const char *frink_spec_kind_name(frink_spec_kind k) {
    static const char *names[] = {"none", "lookup", "draft", "custom"};
    return (unsigned)k < 4 ? names[k] : NULL;
}

bool frink_spec_kind_parse(const char *s, frink_spec_kind *out) {
    if (!s) return false;
    for (int k = 0; k < 4; k++)
        if (!strcmp(s, frink_spec_kind_name((frink_spec_kind)k))) return *out = (frink_spec_kind)k, true;
    if (!strcmp(s, "ngram")) return *out = FRINK_SPEC_LOOKUP, true;
    return false;
}

// The draft model must read and write the target's tokens: the reference's rule (sizes within
// 128, every shared id the same text), with drafted ids past the target's vocabulary cut off.
static frink_status spec_check_vocab(const frink_model *t, const frink_model *d) {
    int vt = frink_model_n_vocab(t), vd = frink_model_n_vocab(d);
    if (abs(vt - vd) > 128)
        return frink_fail(FRINK_ERR_ARG, "the draft model's vocabulary has %d tokens, the target's %d: they differ by more than 128", vd, vt);
    int n = vt < vd ? vt : vd;
    for (int i = 0; i < n; i++) {
        size_t la, lb;
        const char *a = frink_token_text(t, i, &la), *b = frink_token_text(d, i, &lb);
        if (!a && !b) continue; // neither has a tokenizer: the ids are all there is
        if (!a || !b || la != lb || memcmp(a, b, la))
            return frink_fail(FRINK_ERR_ARG, "the draft model's token %d is '%.*s', the target's '%.*s': not the same vocabulary", i,
                              b ? (int)(lb > 32 ? 32 : lb) : 0, b ? b : "", a ? (int)(la > 32 ? 32 : la) : 0, a ? a : "");
    }
    return FRINK_OK;
}

static frink_status spec_check(const frink_spec_params *p) {
    if ((unsigned)p->kind > FRINK_SPEC_CUSTOM) return frink_fail(FRINK_ERR_ARG, "unknown speculative decoding kind %d", (int)p->kind);
    if (p->draft_max < 1 || p->draft_max > FRINK_SPEC_DRAFT_MAX)
        return frink_fail(FRINK_ERR_ARG, "draft_max must be in [1, %d], got %d", FRINK_SPEC_DRAFT_MAX, p->draft_max);
    if (p->draft_min < 0 || p->draft_min > p->draft_max)
        return frink_fail(FRINK_ERR_ARG, "draft_min must be in [0, draft_max = %d], got %d", p->draft_max, p->draft_min);
    if (!(p->draft_p_min >= 0 && p->draft_p_min <= 1))
        return frink_fail(FRINK_ERR_ARG, "draft_p_min must be in [0, 1], got %g", (double)p->draft_p_min);
    if (p->ngram_min < 1 || p->ngram_max > 64 || p->ngram_min > p->ngram_max)
        return frink_fail(FRINK_ERR_ARG, "the n-gram lengths must satisfy 1 <= ngram_min <= ngram_max <= 64, got %d and %d",
                          p->ngram_min, p->ngram_max);
    if (p->kind == FRINK_SPEC_DRAFT && !p->draft_ctx) return frink_fail(FRINK_ERR_ARG, "draft speculation needs draft_ctx, a context of the draft model");
    if (p->kind == FRINK_SPEC_CUSTOM && !p->draft_fn) return frink_fail(FRINK_ERR_ARG, "custom speculation needs draft_fn");
    return FRINK_OK;
}

frink_status frink_spec_create(frink_seq *fs, const frink_spec_params *pp, frink_spec **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_spec_create: no place for the result");
    *out = NULL;
    if (!fs) return frink_fail(FRINK_ERR_ARG, "frink_spec_create: no sequence");
    frink_spec_params p = pp ? *pp : frink_spec_default_params();
    frink_status st = spec_check(&p);
    if (st) return st;
    const frink_model *fm = fs->c->fm;
    if (p.kind == FRINK_SPEC_DRAFT) {
        if (p.draft_ctx == fs->c) return frink_fail(FRINK_ERR_ARG, "draft_ctx is the target's own context: give the draft model a context of its own");
        if ((st = spec_check_vocab(fm, p.draft_ctx->fm))) return st;
    }
    frink_spec *sp = calloc(1, sizeof *sp);
    if (!sp) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    sp->fs = fs;
    sp->p = p;
    sp->V = frink_model_n_vocab(fm);
    sp->dsnap_pos = -1;
    sp->acc = 1, sp->rej = 1; // a prior of one half
    sp->rows = malloc((size_t)(p.draft_max + 1) * (size_t)sp->V * sizeof(float));
    int64_t nsf = fs->s->shape->state_floats;
    if (nsf) sp->snap = malloc((size_t)nsf * sizeof(float));
    bool ok = sp->rows && (!nsf || sp->snap);
    if (ok && p.kind == FRINK_SPEC_DRAFT) {
        if ((st = frink_seq_create(p.draft_ctx, &sp->dseq))) {
            frink_spec_free(sp);
            return st;
        }
        int64_t dnsf = sp->dseq->s->shape->state_floats;
        sp->dlogits = malloc((size_t)frink_model_n_vocab(p.draft_ctx->fm) * sizeof(float));
        if (dnsf) sp->dsnap = malloc((size_t)dnsf * sizeof(float));
        ok = sp->dlogits && (!dnsf || sp->dsnap);
    }
    if (!ok) {
        frink_spec_free(sp);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    sp->st.draft_len = p.kind == FRINK_SPEC_NONE ? 0 : p.draft_max;
    *out = sp;
    return FRINK_OK;
}

void frink_spec_free(frink_spec *sp) {
    if (!sp) return;
    frink_seq_free(sp->dseq);
    free(sp->rows);
    free(sp->snap);
    free(sp->hist);
    free(sp->dlogits);
    free(sp->dsnap);
    free(sp);
}

void frink_spec_get_stats(const frink_spec *sp, frink_spec_stats *out) { *out = sp->st; }

const float *frink_spec_logits(const frink_spec *sp, int i) {
    return i >= 0 && i < sp->n_rows ? sp->rows + (size_t)i * sp->V : NULL;
}

// ---- drafters -------------------------------------------------------------------------------

// Prompt lookup: the tokens after the latest earlier occurrence of the history's last n tokens,
// for n from ngram_max down to ngram_min.
static int draft_lookup(const frink_spec *sp, const frink_token *h, int nh, frink_token *d, int k) {
    for (int n = sp->p.ngram_max < nh - 1 ? sp->p.ngram_max : nh - 1; n >= sp->p.ngram_min; n--) {
        const frink_token *key = h + nh - n;
        for (int at = nh - n - 1; at >= 0; at--) {
            if (h[at] != key[0] || memcmp(h + at, key, (size_t)n * sizeof *h)) continue;
            // The continuation, read on into the drafts themselves where it reaches the end of
            // the history (a cycle of the last few tokens repeats as long as k asks).
            int from = at + n;
            for (int i = 0; i < k; i++) d[i] = from + i < nh ? h[from + i] : d[from + i - nh];
            return k;
        }
    }
    return 0;
}

// The argmax of logits[0..n) and its softmax probability.
static frink_token argmax_p(const float *l, int n, float *p) {
    int best = 0;
    for (int i = 1; i < n; i++)
        if (l[i] > l[best]) best = i;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += exp((double)l[i] - (double)l[best]);
    *p = (float)(1.0 / sum);
    return best;
}

// The draft model: its sequence brought to the history (what the two share kept), then greedy
// tokens while the draft model is at least draft_p_min sure of them.
static frink_status draft_model(frink_spec *sp, const frink_token *h, int nh, frink_token *d, int k, int *n_out) {
    *n_out = 0;
    frink_seq *ds = sp->dseq;
    struct seq *s = ds->s;
    int have = s->n_past, c = 0;
    while (c < have && c < nh && s->tokens[c] == h[c]) c++;
    if (c == nh) c = nh - 1; // the last token is evaluated again for its logits
    frink_status st;
    if (c < have) {
        if (seq_is_hybrid(s) && sp->dsnap_pos >= 0 && sp->dsnap_pos <= c) {
            seq_state_put_back(s, sp->dsnap, sp->dsnap_pos);
            c = sp->dsnap_pos;
        } else if ((st = frink_seq_truncate(ds, c, NULL))) {
            return st;
        }
    }
    if (nh > ds->c->p.n_ctx) return FRINK_OK; // the draft's context is full: no drafts
    // More than a step's new tokens (a new prompt, or a history the caller changed) is catching
    // up, not a step's cost: the adaptation leaves it out.
    double t0 = nh - c > sp->p.draft_max + 1 ? now_ms() : 0;
    if ((st = frink_seq_eval(ds, h + c, nh - c, sp->dlogits, 0))) return st;
    if (t0) sp->catchup_ms = now_ms() - t0;
    if (sp->dsnap) {
        seq_state_copy_out(s, sp->dsnap);
        sp->dsnap_pos = nh;
    }
    int dv = frink_model_n_vocab(ds->c->fm), vmin = dv < sp->V ? dv : sp->V;
    int room = ds->c->p.n_ctx - nh;
    for (int i = 0; i < k; i++) {
        float pr;
        frink_token t = argmax_p(sp->dlogits, dv, &pr);
        if (pr < sp->p.draft_p_min || t >= vmin) break;
        d[(*n_out)++] = t;
        if (i + 1 == k || i + 1 > room) break;
        if ((st = frink_seq_eval(ds, &t, 1, sp->dlogits, 0))) return st;
    }
    return FRINK_OK;
}

// Up to k drafted tokens after h[0..nh) into d; returns how many, or -1 (failure set).
static int spec_draft(frink_spec *sp, const frink_token *h, int nh, frink_token *d, int k) {
    if (k <= 0) return 0;
    switch (sp->p.kind) {
    case FRINK_SPEC_LOOKUP:
        return draft_lookup(sp, h, nh, d, k);
    case FRINK_SPEC_DRAFT: {
        int n;
        return draft_model(sp, h, nh, d, k, &n) ? -1 : n;
    }
    case FRINK_SPEC_CUSTOM: {
        int n = sp->p.draft_fn(sp->p.draft_ud, h, nh, d, k), i = 0;
        if (n > k) n = k;
        while (i < n && d[i] >= 0 && d[i] < sp->V) i++; // drafts stop at an id out of range
        return i;
    }
    default:
        return 0;
    }
}

// ---- adaptation ------------------------------------------------------------------------------

// The draft length for this step: with acceptance a per drafted token (each kept while the
// ones before it were), k drafts give (1 - a^(k+1)) / (1 - a) tokens for t_plain + k t_draft
// ms; the k in [0, draft_max] with the most tokens per ms. 0 (a plain step) when drafting does
// not pay, with a probe of one length every PROBE_EVERY plain steps; a plain step every
// REMEASURE_EVERY steps keeps t_plain current (a step's cost grows with the context).
static int spec_len(frink_spec *sp) {
    const frink_spec_params *p = &sp->p;
    if (p->kind == FRINK_SPEC_NONE) return 0;
    if (p->fixed) return p->draft_max;
    if (sp->t_plain <= 0 || sp->since_plain >= REMEASURE_EVERY) return 0;
    double a = sp->acc / (sp->acc + sp->rej);
    double td = sp->t_draft > 0 ? sp->t_draft : 0.1 * sp->t_plain;
    int best = 0;
    double best_rate = 1 / sp->t_plain, ak = a;
    for (int k = 1; k <= p->draft_max; k++) {
        ak *= a; // a^(k+1) after the update below: tokens = 1 + a + ... + a^k
        double tokens = a < 1 ? (1 - ak) / (1 - a) : k + 1;
        double rate = tokens / (sp->t_plain + k * td);
        if (rate > best_rate) best_rate = rate, best = k;
    }
    if (best < p->draft_min && best) best = p->draft_min;
    if (!best && sp->since_probe >= PROBE_EVERY) best = p->draft_min > 2 ? p->draft_min : 2;
    return best;
}

static void spec_learn(frink_spec *sp, int asked, int k, int accepted, bool rejected, double ms) {
    const double decay = 0.9;
    if (k == 0 && asked > 0 && sp->p.kind != FRINK_SPEC_LOOKUP) {
        // A draft model (or the caller's drafter) that ran and proposed nothing cost a step's
        // drafting for no token: as a draft rejected at once, so that drafting stops paying.
        sp->since_plain++;
        sp->since_probe = 0;
        sp->acc = decay * sp->acc;
        sp->rej = decay * sp->rej + 1;
        return;
    }
    if (k == 0) {
        sp->t_plain = sp->t_plain > 0 ? 0.8 * sp->t_plain + 0.2 * ms : ms;
        sp->since_plain = 0;
        sp->since_probe++;
        return;
    }
    sp->since_plain++;
    sp->since_probe = 0;
    sp->acc = decay * sp->acc + accepted;
    sp->rej = decay * sp->rej + (rejected ? 1 : 0);
    if (sp->t_plain > 0) {
        double per = (ms - sp->t_plain) / k;
        if (per < 0) per = 0;
        sp->t_draft = sp->t_draft > 0 ? 0.8 * sp->t_draft + 0.2 * per : per;
    }
}

// ---- the step --------------------------------------------------------------------------------

// The history (the sequence's tokens, then pending) in sp->hist; its length, or -1.
static int spec_history(frink_spec *sp, frink_token pending) {
    int n = sp->fs->s->n_past + 1;
    if (n > sp->hist_cap) {
        int cap = n * 2;
        frink_token *h = realloc(sp->hist, (size_t)cap * sizeof *h);
        if (!h) return frink_fail(FRINK_ERR_NOMEM, "out of memory"), -1;
        sp->hist = h, sp->hist_cap = cap;
    }
    memcpy(sp->hist, sp->fs->s->tokens, (size_t)(n - 1) * sizeof *sp->hist);
    sp->hist[n - 1] = pending;
    return n;
}

// Evaluates the n tokens of sp->draft (every row's logits when want_rows) with the delta rule
// token by token: plain decoding's one-token steps give the same bits only so.
static frink_status spec_eval(frink_spec *sp, int n, float *rows) {
    frink_context *c = sp->fs->c;
    bool chunked = c->p.gdn_chunk > 1 && n > 1;
    if (chunked) exec_set_gdn_chunk(c->ex, 1);
    frink_status st = frink_seq_eval(sp->fs, sp->draft, n, rows, rows ? FRINK_EVAL_ALL : 0);
    if (chunked) exec_set_gdn_chunk(c->ex, c->p.gdn_chunk);
    return st;
}

// Keeps the first n0 + keep tokens of the sequence after a verify step of n0 + n_eval.
static frink_status spec_keep(frink_spec *sp, int n0, int keep, int n_eval) {
    if (keep == n_eval) return FRINK_OK;
    struct seq *s = sp->fs->s;
    if (!seq_is_hybrid(s)) {
        seq_rewind(s, n0 + keep);
        return FRINK_OK;
    }
    seq_state_put_back(s, sp->snap, n0);
    sp->st.replayed += (uint64_t)keep;
    return keep ? spec_eval(sp, keep, NULL) : FRINK_OK;
}

frink_status frink_spec_begin(frink_spec *sp, frink_token pending, int max_out, const frink_token **tokens, int *n_tokens) {
    if (tokens) *tokens = NULL;
    if (n_tokens) *n_tokens = 0;
    sp->open = false;
    if (!tokens || !n_tokens || max_out < 1) return frink_fail(FRINK_ERR_ARG, "frink_spec_begin: no place for the tokens or max_out < 1");
    frink_context *c = sp->fs->c;
    struct seq *s = sp->fs->s;
    if (pending < 0 || pending >= sp->V) return frink_fail(FRINK_ERR_ARG, "token id %d out of range [0, %d)", pending, sp->V);
    int n0 = s->n_past;
    if (n0 + 1 > c->p.n_ctx)
        return frink_fail(FRINK_ERR_STATE, "the sequence is full: %d tokens + 1 more exceed n_ctx = %d", n0, c->p.n_ctx);
    sp->n_rows = 0;
    sp->catchup_ms = 0;
    sp->t0 = now_ms();
    int k = spec_len(sp);
    if (k > max_out - 1) k = max_out - 1;
    if (k > c->p.n_ctx - n0 - 1) k = c->p.n_ctx - n0 - 1;
    int nd = 0;
    if (k > 0) {
        int nh = spec_history(sp, pending);
        if (nh < 0) return FRINK_ERR_NOMEM;
        nd = spec_draft(sp, sp->hist, nh, sp->draft + 1, k);
        if (nd < 0) return frink_fail(FRINK_ERR_STATE, "the draft model failed: %s", frink_errmsg());
        if (nd < sp->p.draft_min) nd = 0;
    }
    sp->draft[0] = pending;
    if (nd && sp->snap) seq_state_copy_out(s, sp->snap);
    sp->open = true;
    sp->n0 = n0, sp->asked = k, sp->nd = nd, sp->max_out = max_out;
    *tokens = sp->draft;
    *n_tokens = 1 + nd;
    return FRINK_OK;
}

frink_status frink_spec_finish(frink_spec *sp, frink_sampler *smp, const float *const *rows, frink_token *out, int *n_out) {
    if (n_out) *n_out = 0;
    if (!sp->open) return frink_fail(FRINK_ERR_STATE, "frink_spec_finish: no frink_spec_begin before it");
    if (!smp || !rows || !out || !n_out) return frink_fail(FRINK_ERR_ARG, "frink_spec_finish: no sampler, rows or output room");
    struct seq *s = sp->fs->s;
    const frink_model *fm = sp->fs->c->fm;
    int n0 = sp->n0, nd = sp->nd, n_eval = 1 + nd, max_out = sp->max_out;
    if (s->n_past != n0 + n_eval)
        return frink_fail(FRINK_ERR_STATE, "frink_spec_finish: the sequence holds %d tokens, not the %d + %d of the step", s->n_past, n0, n_eval);
    for (int i = 0; i < n_eval; i++)
        if (!rows[i]) return frink_fail(FRINK_ERR_ARG, "frink_spec_finish: no logits for the step's token %d", i);
    sp->open = false;
    frink_status st = FRINK_OK;
    int n = 0;
    bool rejected = false;
    for (int i = 0; i < n_eval; i++) {
        frink_token t;
        float *row = sp->rows + (size_t)i * sp->V;
        if (rows[i] != row) memcpy(row, rows[i], (size_t)sp->V * sizeof *row);
        sp->n_rows = i + 1;
        if ((st = frink_sampler_sample(smp, row, &t))) break;
        out[n++] = t;
        if (i + 1 == n_eval || frink_token_is_eog(fm, t) || n == max_out) break;
        if (t != sp->draft[i + 1]) {
            rejected = true;
            break;
        }
    }
    // The sequence keeps pending and the drafts the sampled tokens confirmed: n of them after a
    // sample, n + 1 when the sampler failed at row n (its token is still pending there).
    int keep = st ? n + 1 : n;
    frink_status kst = spec_keep(sp, n0, keep, n_eval);
    *n_out = n;
    sp->st.steps++;
    sp->st.plain_steps += nd == 0;
    sp->st.drafted += (uint64_t)nd;
    sp->st.accepted += (uint64_t)(keep - 1);
    sp->st.tokens += (uint64_t)n;
    spec_learn(sp, sp->asked, nd, keep - 1, rejected, now_ms() - sp->t0 - sp->catchup_ms);
    sp->st.draft_len = spec_len(sp);
    return st ? st : kst;
}

frink_status frink_spec_step(frink_spec *sp, frink_token pending, frink_sampler *smp, frink_token *out, int max_out,
                             int *n_out) {
    if (n_out) *n_out = 0;
    if (!smp || !out || !n_out || max_out < 1) return frink_fail(FRINK_ERR_ARG, "frink_spec_step: no sampler, no output room or max_out < 1");
    const frink_token *toks;
    int n_eval;
    frink_status st = frink_spec_begin(sp, pending, max_out, &toks, &n_eval);
    if (st) return st;
    if ((st = spec_eval(sp, n_eval, sp->rows))) return sp->open = false, st;
    const float *rows[FRINK_SPEC_DRAFT_MAX + 1];
    for (int i = 0; i < n_eval; i++) rows[i] = sp->rows + (size_t)i * sp->V;
    return frink_spec_finish(sp, smp, rows, out, n_out);
}
