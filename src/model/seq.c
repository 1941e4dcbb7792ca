#include "seq.h"

#include <stdlib.h>
#include <string.h>

int64_t seq_conv_floats(const struct model *m) {
    const struct hparams *hp = &m->hp;
    int64_t C = 2LL * hp->ssm_n_group * hp->ssm_d_state + hp->ssm_d_inner;
    return C * (hp->ssm_conv_kernel - 1);
}

int64_t seq_ssm_floats(const struct model *m) {
    const struct hparams *hp = &m->hp;
    return (int64_t)hp->ssm_d_state * hp->ssm_d_inner;
}

static size_t kv_row(const struct layer *L) { return (size_t)L->n_head_kv * (size_t)L->head_dim; }
static size_t kv_row_v(const struct layer *L) { return (size_t)L->n_head_kv * (size_t)L->head_dim_v; }

frink_status seq_create(const struct model *m, int cap, struct seq **out) {
    *out = NULL;
    if (cap < 1) cap = 1;
    struct seq *s = calloc(1, sizeof *s);
    if (!s) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    s->m = m;
    int nl = m->hp.n_layer;
    s->k = calloc((size_t)nl, sizeof *s->k);
    s->v = calloc((size_t)nl, sizeof *s->v);
    s->conv = calloc((size_t)nl, sizeof *s->conv);
    s->ssm = calloc((size_t)nl, sizeof *s->ssm);
    if (!s->k || !s->v || !s->conv || !s->ssm) goto oom;
    for (int il = 0; il < nl; il++) {
        const struct layer *L = &m->layers[il];
        if (L->feat & LF_GDN) {
            s->conv[il] = calloc((size_t)seq_conv_floats(m), sizeof(float));
            s->ssm[il] = calloc((size_t)seq_ssm_floats(m), sizeof(float));
            if (!s->conv[il] || !s->ssm[il]) goto oom;
        }
    }
    if (seq_reserve(s, cap)) goto oom;
    *out = s;
    return FRINK_OK;
oom:
    seq_free(s);
    return frink_fail(FRINK_ERR_NOMEM, "out of memory creating a sequence of %d tokens", cap);
}

frink_status seq_reserve(struct seq *s, int n) {
    if (n <= s->cap) return FRINK_OK;
    int cap = s->cap ? s->cap : 16;
    while (cap < n) cap = cap > (1 << 29) ? n : cap * 2;
    int32_t *t = realloc(s->tokens, (size_t)cap * sizeof *t);
    if (!t) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing a sequence to %d tokens", cap);
    s->tokens = t;
    for (int il = 0; il < s->m->hp.n_layer; il++) {
        const struct layer *L = &s->m->layers[il];
        if (!(L->feat & LF_ATTN)) continue;
        uint16_t *k = realloc(s->k[il], (size_t)cap * kv_row(L) * sizeof(uint16_t));
        if (!k) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing the KV cache to %d tokens", cap);
        s->k[il] = k;
        uint16_t *v = realloc(s->v[il], (size_t)cap * kv_row_v(L) * sizeof(uint16_t));
        if (!v) return frink_fail(FRINK_ERR_NOMEM, "out of memory growing the KV cache to %d tokens", cap);
        s->v[il] = v;
    }
    s->cap = cap;
    return FRINK_OK;
}

void seq_reset(struct seq *s) {
    s->n_past = 0;
    for (int il = 0; il < s->m->hp.n_layer; il++) {
        if (s->conv[il]) memset(s->conv[il], 0, (size_t)seq_conv_floats(s->m) * sizeof(float));
        if (s->ssm[il]) memset(s->ssm[il], 0, (size_t)seq_ssm_floats(s->m) * sizeof(float));
    }
}

void seq_free(struct seq *s) {
    if (!s) return;
    int nl = s->m->hp.n_layer;
    for (int il = 0; il < nl; il++) {
        if (s->k) free(s->k[il]);
        if (s->v) free(s->v[il]);
        if (s->conv) free(s->conv[il]);
        if (s->ssm) free(s->ssm[il]);
    }
    free(s->k);
    free(s->v);
    free(s->conv);
    free(s->ssm);
    free(s->tokens);
    free(s);
}
