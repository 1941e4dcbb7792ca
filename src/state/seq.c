// seq.c — sequence state: lifetime, KV rows in the cache type, checkpoints of
// the recurrent state, append / truncate / fork. See seq.h for the policy.
#include "seq.h"

#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "quant/quant.h"

// ---- KV rows ------------------------------------------------------------------------

static const char *const kv_names[] = {"f16", "f32", "q8_0"};

const char *seq_kv_type_name(enum kv_type t) { return (unsigned)t < 3 ? kv_names[t] : "?"; }

bool seq_kv_type_parse(const char *s, enum kv_type *out) {
    for (int t = 0; t < 3; t++)
        if (!strcasecmp(s, kv_names[t])) {
            *out = (enum kv_type)t;
            return true;
        }
    return false;
}

size_t seq_kv_row_bytes(enum kv_type t, int64_t n) {
    switch (t) {
    case KV_F32: return (size_t)n * 4;
    case KV_Q8_0: return (size_t)(n / QK8_0) * sizeof(block_q8_0);
    default: return (size_t)n * 2;
    }
}

void seq_kv_store_row(struct seq *s, int il, int which, int pos, const float *x) {
    const struct seq_layer_shape *L = &s->shape->layer[il];
    size_t rb = which == KV_K ? s->k_row[il] : s->v_row[il];
    uint8_t *dst = (which == KV_K ? s->k[il] : s->v[il]) + (size_t)pos * rb;
    int64_t n = which == KV_K ? L->k_len : L->v_len;
    switch (s->kv_type) {
    case KV_F32: memcpy(dst, x, (size_t)n * sizeof(float)); break;
    // ggml's set_rows quantizes with the same x86 from_float as activations. Every kernel set
    // writes the same bytes, so the CPU's best serves every context, reference ones included.
    case KV_Q8_0: quant_act_from_float(quant_cpu_isa(), GGML_TYPE_Q8_0, x, dst, n); break;
    default: {
        uint16_t *h = (uint16_t *)dst;
        for (int64_t i = 0; i < n; i++) h[i] = fp32_to_fp16(x[i]);
    }
    }
}

void seq_kv_load_row(const struct seq *s, int il, int which, int pos, int off, int n, float *dst) {
    size_t rb = which == KV_K ? s->k_row[il] : s->v_row[il];
    const uint8_t *src = (which == KV_K ? s->k[il] : s->v[il]) + (size_t)pos * rb;
    switch (s->kv_type) {
    case KV_F32: memcpy(dst, (const float *)src + off, (size_t)n * sizeof(float)); break;
    case KV_Q8_0: {
        const block_q8_0 *b = (const block_q8_0 *)src;
        for (int i = 0; i < n;) {
            int e = off + i, bi = e / QK8_0, j0 = e % QK8_0;
            float d = fp16_to_fp32(b[bi].d);
            for (int j = j0; j < QK8_0 && i < n; j++, i++) dst[i] = d * (float)b[bi].qs[j];
        }
        break;
    }
    default: {
        const uint16_t *h = (const uint16_t *)src + off;
        for (int i = 0; i < n; i++) dst[i] = fp16_to_fp32(h[i]);
    }
    }
}

// ---- lifetime -----------------------------------------------------------------------

// n zeroed floats (at least one) on a 64-byte boundary: the recurrent kernels read a state's rows
// in 64-byte vectors, and a row split across two cache lines costs each load twice. Freed by free().
static float *zalloc_floats(int64_t n) {
    size_t bytes = ((size_t)(n > 0 ? n : 1) * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

void seq_opts_default(struct seq_opts *o) {
    *o = (struct seq_opts){.cap = 512, .kv_type = KV_F16, .ckpt_every = 256, .ckpt_keep_recent = 4, .ckpt_keep_marked = 8};
}

bool seq_is_hybrid(const struct seq *s) { return s->shape->n_recurrent > 0; }

frink_status seq_create(const struct seq_shape *sh, int cap, struct seq **out) {
    struct seq_opts o;
    seq_opts_default(&o);
    o.cap = cap;
    return seq_create_opts(sh, &o, out);
}

frink_status seq_create_opts(const struct seq_shape *sh, const struct seq_opts *o, struct seq **out) {
    *out = NULL;
    int nl = sh->n_layer;
    if ((unsigned)o->kv_type > KV_Q8_0) return frink_fail(FRINK_ERR_ARG, "unknown KV cache type %d", (int)o->kv_type);
    if (o->kv_type == KV_Q8_0)
        for (int il = 0; il < nl; il++) {
            const struct seq_layer_shape *L = &sh->layer[il];
            if (!L->k_len) continue;
            int nk = (int)L->k_len, nv = (int)L->v_len;
            if (nk % QK8_0 || nv % QK8_0)
                return frink_fail(FRINK_ERR_UNSUPPORTED,
                                  "KV cache type q8_0 needs rows that are a multiple of 32; layer %d has K rows of %d and V rows of %d",
                                  il, nk, nv);
        }
    struct seq *s = calloc(1, sizeof *s);
    if (!s) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    s->shape = sh;
    s->kv_type = o->kv_type;
    s->ckpt_every = o->ckpt_every > 0 ? o->ckpt_every : 0;
    s->ckpt_keep_recent = o->ckpt_keep_recent > 0 ? o->ckpt_keep_recent : 0;
    s->ckpt_keep_marked = o->ckpt_keep_marked > 0 ? o->ckpt_keep_marked : 0;
    s->k = calloc((size_t)nl, sizeof *s->k);
    s->v = calloc((size_t)nl, sizeof *s->v);
    s->k_row = calloc((size_t)nl, sizeof *s->k_row);
    s->v_row = calloc((size_t)nl, sizeof *s->v_row);
    s->conv = calloc((size_t)nl, sizeof *s->conv);
    s->ssm = calloc((size_t)nl, sizeof *s->ssm);
    if (!s->k || !s->v || !s->k_row || !s->v_row || !s->conv || !s->ssm) goto oom;
    for (int il = 0; il < nl; il++) {
        const struct seq_layer_shape *L = &sh->layer[il];
        if (L->kind == SEQ_LAYER_RECURRENT) {
            // (a mixer may keep only one of the two: a short convolution has no ssm state)
            s->conv[il] = zalloc_floats(L->conv_floats);
            s->ssm[il] = zalloc_floats(L->ssm_floats);
            if (!s->conv[il] || !s->ssm[il]) goto oom;
        }
        if (L->k_len > 0) { // (a recurrent layer may also attend: falcon-h1)
            s->k_row[il] = seq_kv_row_bytes(s->kv_type, L->k_len);
            s->v_row[il] = seq_kv_row_bytes(s->kv_type, L->v_len);
        }
    }
    if (seq_reserve(s, o->cap < 1 ? 1 : o->cap)) goto oom;
    *out = s;
    return FRINK_OK;
oom:
    seq_free(s);
    return frink_fail(FRINK_ERR_NOMEM, "out of memory creating a sequence of %d tokens", o->cap);
}

frink_status seq_reserve(struct seq *s, int n) {
    if (n <= s->cap) return FRINK_OK;
    int cap = s->cap ? s->cap : 16;
    while (cap < n) cap = cap > (1 << 29) ? n : cap * 2;
    int32_t *t = realloc(s->tokens, (size_t)cap * sizeof *t);
    if (!t) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing a sequence to %d tokens", cap);
    s->tokens = t;
    for (int il = 0; il < s->shape->n_layer; il++) {
        if (!s->k_row[il]) continue;
        uint8_t *k = realloc(s->k[il], (size_t)cap * s->k_row[il]);
        if (!k) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing the KV cache to %d tokens", cap);
        s->k[il] = k;
        uint8_t *v = realloc(s->v[il], (size_t)cap * s->v_row[il]);
        if (!v) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing the KV cache to %d tokens", cap);
        s->v[il] = v;
    }
    s->cap = cap;
    return FRINK_OK;
}

static void ckpt_clear(struct seq *s) {
    for (int i = 0; i < s->n_ckpt; i++) seq_ckpt_release(s->ckpt[i].c);
    s->n_ckpt = 0;
}

static void state_zero(struct seq *s) {
    for (int il = 0; il < s->shape->n_layer; il++) {
        const struct seq_layer_shape *L = &s->shape->layer[il];
        if (s->conv[il]) memset(s->conv[il], 0, (size_t)L->conv_floats * sizeof(float));
        if (s->ssm[il]) memset(s->ssm[il], 0, (size_t)L->ssm_floats * sizeof(float));
    }
}

void seq_reset(struct seq *s) {
    s->n_past = 0;
    state_zero(s);
    ckpt_clear(s);
}

void seq_free(struct seq *s) {
    if (!s) return;
    int nl = s->shape->n_layer;
    for (int il = 0; il < nl; il++) {
        if (s->k) free(s->k[il]);
        if (s->v) free(s->v[il]);
        if (s->conv) free(s->conv[il]);
        if (s->ssm) free(s->ssm[il]);
    }
    ckpt_clear(s);
    free(s->ckpt);
    free(s->k);
    free(s->v);
    free(s->k_row);
    free(s->v_row);
    free(s->conv);
    free(s->ssm);
    free(s->tokens);
    free(s);
}

size_t seq_bytes(const struct seq *s) {
    const struct seq_shape *sh = s->shape;
    size_t b = (size_t)s->n_past * sizeof(int32_t);
    for (int il = 0; il < sh->n_layer; il++) b += (size_t)s->n_past * (s->k_row[il] + s->v_row[il]);
    size_t st = (size_t)sh->state_floats * sizeof(float);
    return b + st * (size_t)(1 + s->n_ckpt);
}

// ---- commits and the checkpoint policy -------------------------------------------------

void seq_commit(struct seq *s, const int32_t *tokens, int n) {
    memcpy(s->tokens + s->n_past, tokens, (size_t)n * sizeof *tokens);
    s->n_past += n;
}

int seq_ckpt_boundary(const struct seq *s) {
    int every = seq_is_hybrid(s) ? s->ckpt_every : 0;
    return every ? (s->n_past / every + 1) * every : 0;
}

bool seq_ckpt_due(const struct seq *s) {
    return seq_is_hybrid(s) && s->ckpt_every && s->n_past > 0 && s->n_past % s->ckpt_every == 0;
}

// ---- checkpoints --------------------------------------------------------------------

void seq_ckpt_retain(struct seq_ckpt *c) { __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED); }

void seq_ckpt_release(struct seq_ckpt *c) {
    if (c && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(c->data);
        free(c);
    }
}

void seq_state_copy_out(const struct seq *s, float *buf) {
    const struct seq_shape *sh = s->shape;
    float *p = buf;
    for (int il = 0; il < sh->n_layer; il++) {
        if (!s->conv[il]) continue;
        size_t nc = (size_t)sh->layer[il].conv_floats, ns = (size_t)sh->layer[il].ssm_floats;
        memcpy(p, s->conv[il], nc * sizeof(float));
        memcpy(p + nc, s->ssm[il], ns * sizeof(float));
        p += nc + ns;
    }
}

static void state_copy_in(struct seq *s, const float *buf) {
    const struct seq_shape *sh = s->shape;
    const float *p = buf;
    for (int il = 0; il < sh->n_layer; il++) {
        if (!s->conv[il]) continue;
        size_t nc = (size_t)sh->layer[il].conv_floats, ns = (size_t)sh->layer[il].ssm_floats;
        memcpy(s->conv[il], p, nc * sizeof(float));
        memcpy(s->ssm[il], p + nc, ns * sizeof(float));
        p += nc + ns;
    }
}

void seq_ckpt_apply(struct seq *s, const struct seq_ckpt *c) { state_copy_in(s, c->data); }

void seq_state_put_back(struct seq *s, const float *buf, int pos) {
    while (s->n_ckpt && s->ckpt[s->n_ckpt - 1].c->pos > pos) seq_ckpt_release(s->ckpt[--s->n_ckpt].c);
    if (seq_is_hybrid(s)) state_copy_in(s, buf);
    s->n_past = pos;
}

// Drops the oldest checkpoints of one class beyond its quota.
static void ckpt_evict(struct seq *s, bool marked, int keep) {
    int have = 0;
    for (int i = 0; i < s->n_ckpt; i++) have += s->ckpt[i].marked == marked;
    for (int i = 0; i < s->n_ckpt && have > keep;) {
        if (s->ckpt[i].marked != marked) {
            i++;
            continue;
        }
        seq_ckpt_release(s->ckpt[i].c);
        memmove(s->ckpt + i, s->ckpt + i + 1, (size_t)(s->n_ckpt - i - 1) * sizeof *s->ckpt);
        s->n_ckpt--;
        have--;
    }
}

frink_status seq_checkpoint(struct seq *s, bool mark) {
    if (!seq_is_hybrid(s)) return FRINK_OK;
    if (s->n_ckpt && s->ckpt[s->n_ckpt - 1].c->pos == s->n_past) {
        // Already there: only the class can change (a marked one stays marked).
        struct seq_cp *cp = &s->ckpt[s->n_ckpt - 1];
        if (mark && !cp->marked) {
            cp->marked = true;
            ckpt_evict(s, true, s->ckpt_keep_marked);
        }
        return FRINK_OK;
    }
    if (!(mark ? s->ckpt_keep_marked : s->ckpt_keep_recent)) return FRINK_OK;
    const struct seq_shape *sh = s->shape;
    struct seq_ckpt *c = calloc(1, sizeof *c);
    if (c) c->data = malloc((size_t)sh->state_floats * sizeof(float));
    if (s->n_ckpt == s->cap_ckpt) {
        int cap = s->cap_ckpt ? 2 * s->cap_ckpt : 8;
        struct seq_cp *nv = realloc(s->ckpt, (size_t)cap * sizeof *nv);
        if (nv) {
            s->ckpt = nv;
            s->cap_ckpt = cap;
        }
    }
    if (!c || !c->data || s->n_ckpt == s->cap_ckpt) {
        if (c) free(c->data);
        free(c);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory taking a recurrent-state checkpoint");
    }
    c->refs = 1;
    c->pos = s->n_past;
    seq_state_copy_out(s, c->data);
    // Positions only grow between truncations (which drop later ones), so the
    // list stays sorted by appending.
    s->ckpt[s->n_ckpt++] = (struct seq_cp){c, mark};
    ckpt_evict(s, mark, mark ? s->ckpt_keep_marked : s->ckpt_keep_recent);
    return FRINK_OK;
}

int seq_restore_point(const struct seq *s, int n) {
    if (!seq_is_hybrid(s) || n >= s->n_past) return n;
    for (int i = s->n_ckpt - 1; i >= 0; i--)
        if (s->ckpt[i].c->pos <= n) return s->ckpt[i].c->pos;
    return 0;
}

int seq_rewind(struct seq *s, int n) {
    if (!seq_is_hybrid(s)) {
        s->n_past = n;
        return n;
    }
    while (s->n_ckpt && s->ckpt[s->n_ckpt - 1].c->pos > n) seq_ckpt_release(s->ckpt[--s->n_ckpt].c);
    int base = 0;
    if (s->n_ckpt) {
        base = s->ckpt[s->n_ckpt - 1].c->pos;
        seq_ckpt_apply(s, s->ckpt[s->n_ckpt - 1].c);
    } else {
        state_zero(s);
    }
    s->n_past = base;
    return base;
}

frink_status seq_fork(const struct seq *s, struct seq **out) {
    struct seq_opts o = {.cap = s->n_past > 0 ? s->n_past : 1,
                         .kv_type = s->kv_type,
                         .ckpt_every = s->ckpt_every,
                         .ckpt_keep_recent = s->ckpt_keep_recent,
                         .ckpt_keep_marked = s->ckpt_keep_marked};
    struct seq *d;
    frink_status st = seq_create_opts(s->shape, &o, &d);
    if (st) return st;
    if (s->n_ckpt) {
        d->ckpt = malloc((size_t)s->n_ckpt * sizeof *d->ckpt);
        if (!d->ckpt) {
            seq_free(d);
            return frink_fail(FRINK_ERR_NOMEM, "out of memory forking a sequence");
        }
        d->cap_ckpt = s->n_ckpt;
    }
    const struct seq_shape *sh = s->shape;
    d->n_past = s->n_past;
    memcpy(d->tokens, s->tokens, (size_t)s->n_past * sizeof *d->tokens);
    for (int il = 0; il < sh->n_layer; il++) {
        if (s->k_row[il]) {
            memcpy(d->k[il], s->k[il], (size_t)s->n_past * s->k_row[il]);
            memcpy(d->v[il], s->v[il], (size_t)s->n_past * s->v_row[il]);
        }
        if (s->conv[il]) {
            memcpy(d->conv[il], s->conv[il], (size_t)sh->layer[il].conv_floats * sizeof(float));
            memcpy(d->ssm[il], s->ssm[il], (size_t)sh->layer[il].ssm_floats * sizeof(float));
        }
    }
    for (int i = 0; i < s->n_ckpt; i++) {
        seq_ckpt_retain(s->ckpt[i].c);
        d->ckpt[d->n_ckpt++] = s->ckpt[i];
    }
    *out = d;
    return FRINK_OK;
}

frink_status seq_copy_prefix(struct seq *dst, const struct seq *src, int n, int *r_out) {
    *r_out = 0;
    if (dst->shape != src->shape) return frink_fail(FRINK_ERR_ARG, "restoring a sequence from another model's state");
    if (dst->kv_type != src->kv_type)
        return frink_fail(FRINK_ERR_ARG, "restoring a %s KV cache into a %s one", seq_kv_type_name(src->kv_type),
                          seq_kv_type_name(dst->kv_type));
    if (n < 0 || n > src->n_past)
        return frink_fail(FRINK_ERR_ARG, "cannot restore %d tokens from a sequence of %d", n, src->n_past);
    const struct seq_shape *sh = src->shape;
    bool hybrid = seq_is_hybrid(src);
    int r = seq_restore_point(src, n);
    seq_reset(dst);
    frink_status st = seq_reserve(dst, n > 0 ? n : 1);
    if (st) return st;
    memcpy(dst->tokens, src->tokens, (size_t)n * sizeof *dst->tokens);
    for (int il = 0; il < sh->n_layer; il++)
        if (src->k_row[il]) {
            memcpy(dst->k[il], src->k[il], (size_t)r * src->k_row[il]);
            memcpy(dst->v[il], src->v[il], (size_t)r * src->v_row[il]);
        }
    if (hybrid) {
        if (r == src->n_past) {
            for (int il = 0; il < sh->n_layer; il++)
                if (src->conv[il]) {
                    memcpy(dst->conv[il], src->conv[il], (size_t)sh->layer[il].conv_floats * sizeof(float));
                    memcpy(dst->ssm[il], src->ssm[il], (size_t)sh->layer[il].ssm_floats * sizeof(float));
                }
        }
        for (int i = 0; i < src->n_ckpt && src->ckpt[i].c->pos <= r; i++) {
            if (dst->n_ckpt == dst->cap_ckpt) {
                int cap = dst->cap_ckpt ? 2 * dst->cap_ckpt : 8;
                struct seq_cp *nv = realloc(dst->ckpt, (size_t)cap * sizeof *nv);
                if (!nv) {
                    seq_reset(dst);
                    return frink_fail(FRINK_ERR_NOMEM, "out of memory restoring a sequence");
                }
                dst->ckpt = nv;
                dst->cap_ckpt = cap;
            }
            seq_ckpt_retain(src->ckpt[i].c);
            dst->ckpt[dst->n_ckpt++] = src->ckpt[i];
            if (r < src->n_past && src->ckpt[i].c->pos == r) seq_ckpt_apply(dst, src->ckpt[i].c);
        }
    }
    dst->n_past = r;
    *r_out = r;
    return FRINK_OK;
}
