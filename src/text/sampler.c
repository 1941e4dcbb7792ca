#include "sampler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cand {
    int32_t id;
    float logit;
    float p;
};

struct sampler {
    frink_sampler_params p;
    int n_vocab;
    int32_t *recent; // ring of the last penalty_last_n tokens
    int n_recent, head;
    int *count;      // [n_vocab] scratch counts
    struct cand *c;  // [n_vocab]
    uint64_t rng[4];
};

void sampler_defaults(frink_sampler_params *p) {
    *p = (frink_sampler_params){.temp = 0.8f, .top_k = 40, .top_p = 0.95f, .min_p = 0.05f,
                                 .repeat_penalty = 1.0f, .penalty_last_n = 64, .seed = 0xF12C};
}

// xoshiro256** seeded through splitmix64: small, fast, reproducible.
static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t next_u64(uint64_t *s) {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return r;
}
static double next_unit(uint64_t *s) { return (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0); }

frink_status sampler_create(const frink_sampler_params *p, int n_vocab, struct sampler **out) {
    *out = NULL;
    if (!(p->temp >= 0 || p->temp < 0) || isnan(p->temp)) return frink_fail(FRINK_ERR_ARG, "temperature is not a number");
    if (isnan(p->top_p) || p->top_p <= 0) return frink_fail(FRINK_ERR_ARG, "top-p must be in (0, 1], got %g", p->top_p);
    if (isnan(p->min_p) || p->min_p < 0 || p->min_p > 1) return frink_fail(FRINK_ERR_ARG, "min-p must be in [0, 1], got %g", p->min_p);
    if (isnan(p->repeat_penalty) || p->repeat_penalty <= 0) return frink_fail(FRINK_ERR_ARG, "repeat penalty must be > 0, got %g", p->repeat_penalty);
    if (p->penalty_last_n < 0) return frink_fail(FRINK_ERR_ARG, "penalty window must be >= 0");
    if (n_vocab <= 0) return frink_fail(FRINK_ERR_ARG, "empty vocabulary");
    struct sampler *s = calloc(1, sizeof *s);
    if (!s) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    s->p = *p;
    s->n_vocab = n_vocab;
    s->recent = calloc((size_t)(p->penalty_last_n ? p->penalty_last_n : 1), sizeof *s->recent);
    s->count = calloc((size_t)n_vocab, sizeof *s->count);
    s->c = malloc((size_t)n_vocab * sizeof *s->c);
    if (!s->recent || !s->count || !s->c) {
        sampler_free(s);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    uint64_t x = p->seed;
    for (int i = 0; i < 4; i++) s->rng[i] = splitmix(&x);
    *out = s;
    return FRINK_OK;
}

void sampler_free(struct sampler *s) {
    if (!s) return;
    free(s->recent);
    free(s->count);
    free(s->c);
    free(s);
}

void sampler_accept(struct sampler *s, int32_t tok) {
    if (s->p.penalty_last_n <= 0) return;
    s->recent[s->head] = tok;
    s->head = (s->head + 1) % s->p.penalty_last_n;
    if (s->n_recent < s->p.penalty_last_n) s->n_recent++;
}

// Candidates in descending logit, ties by ascending id: the order a stable sort of the
// vocabulary gives, stated outright so it does not depend on the C library's qsort.
static bool cand_before(const struct cand *a, const struct cand *b) {
    return a->logit > b->logit || (a->logit == b->logit && a->id < b->id);
}
static int cmp_desc(const void *a, const void *b) {
    const struct cand *x = a, *y = b;
    return cand_before(x, y) ? -1 : cand_before(y, x) ? 1 : 0;
}

// The k first candidates of that order, sorted, in c[0..k): a heap of the k best so far whose
// root is the worst of them, so a 152k-token vocabulary costs O(V log k), not a full sort.
static void select_top_k(struct cand *c, const float *logits, int n_vocab, int k) {
    int n = 0;
    for (int i = 0; i < n_vocab; i++) {
        struct cand x = {i, logits[i], 0};
        if (n == k && !cand_before(&x, &c[0])) continue;
        int j;
        if (n < k) { // sift up from the end
            j = n++;
            while (j > 0 && cand_before(&c[(j - 1) / 2], &x)) {
                c[j] = c[(j - 1) / 2];
                j = (j - 1) / 2;
            }
        } else { // replace the root, sift down
            j = 0;
            for (;;) {
                int l = 2 * j + 1, r = l + 1, w = j;
                const struct cand *wc = &x;
                if (l < n && cand_before(wc, &c[l])) w = l, wc = &c[l];
                if (r < n && cand_before(wc, &c[r])) w = r;
                if (w == j) break;
                c[j] = c[w];
                j = w;
            }
        }
        c[j] = x;
    }
    qsort(c, (size_t)n, sizeof *c, cmp_desc);
}

static void apply_penalties(struct sampler *s, float *logits) {
    const frink_sampler_params *p = &s->p;
    if (s->n_recent == 0 || (p->repeat_penalty == 1.0f && p->presence_penalty == 0 && p->frequency_penalty == 0)) return;
    for (int i = 0; i < s->n_recent; i++) {
        int32_t t = s->recent[i];
        if (t >= 0 && t < s->n_vocab) s->count[t]++;
    }
    for (int i = 0; i < s->n_recent; i++) {
        int32_t t = s->recent[i];
        if (t < 0 || t >= s->n_vocab || s->count[t] == 0) continue;
        // Repetition penalty divides positive logits and multiplies negative ones.
        if (logits[t] > 0) logits[t] /= p->repeat_penalty;
        else logits[t] *= p->repeat_penalty;
        logits[t] -= (float)s->count[t] * p->frequency_penalty + p->presence_penalty;
        s->count[t] = 0; // each distinct token once
    }
}

void sampler_penalize(struct sampler *s, float *logits) { apply_penalties(s, logits); }

int32_t sampler_sample(struct sampler *s, float *logits) {
    apply_penalties(s, logits);
    return sampler_pick(s, logits);
}

int32_t sampler_pick(struct sampler *s, const float *logits) {
    const frink_sampler_params *p = &s->p;
    if (p->temp <= 0) {
        int32_t best = 0;
        for (int i = 1; i < s->n_vocab; i++)
            if (logits[i] > logits[best]) best = i;
        return best;
    }
    int n = s->n_vocab;
    if (p->top_k > 0 && p->top_k < n) {
        select_top_k(s->c, logits, n, p->top_k);
        n = p->top_k;
    } else {
        for (int i = 0; i < n; i++) s->c[i] = (struct cand){i, logits[i], 0};
        qsort(s->c, (size_t)n, sizeof *s->c, cmp_desc);
    }
    // Probabilities at temperature 1 for top-p and min-p, as the reference's chain does.
    double sum = 0;
    float mx = s->c[0].logit;
    for (int i = 0; i < n; i++) sum += (s->c[i].p = expf(s->c[i].logit - mx));
    if (p->top_p < 1.0f) {
        double cum = 0;
        int keep = n;
        for (int i = 0; i < n; i++) {
            cum += s->c[i].p / sum;
            if (cum >= p->top_p) { keep = i + 1; break; }
        }
        n = keep;
    }
    if (p->min_p > 0) {
        float thr = logf(p->min_p);
        int keep = 1;
        while (keep < n && s->c[keep].logit - mx >= thr) keep++;
        n = keep;
    }
    sum = 0;
    for (int i = 0; i < n; i++) sum += (s->c[i].p = expf((s->c[i].logit - mx) / p->temp));
    double r = next_unit(s->rng) * sum, acc = 0;
    for (int i = 0; i < n; i++) {
        acc += s->c[i].p;
        if (r < acc) return s->c[i].id;
    }
    return s->c[n - 1].id;
}
