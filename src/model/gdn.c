// gdn.c — Gated DeltaNet mixer (host path), for qwen35 / qwen35moe / qwen3next.
//
//   mixed = W_qkv xn                     [T][C]   C = 2*nk*dk + nv*dv, laid out [Q | K | V]
//   z     = W_gate xn                    [T][nv*dv]
//   b, a  = W_beta xn, W_alpha xn        [T][nv]  (qwen3next: one W_ba, grouped per key head)
//   conv  = silu(causal depthwise conv over [state | mixed], kernel Kc)    per channel
//   q, k  = l2norm per key head; v per value head
//   beta  = sigmoid(b); g = ssm_a * softplus(a + dt_bias)     (ssm_a is already -exp(A_log))
//   per value head h (key head kh = h % nk, or h / (nv/nk) for qwen3next):
//     S = exp(g) S;  u = S k;  S += k (beta (v - u))^T;  o = S q / sqrt(dk)
//   o_h   = rms_norm(o_h; ssm_norm) * silu(z_h)
//   y     = W_out o
//
// State per sequence and layer: conv window [C][Kc-1] (raw inputs, oldest
// first) and S [nv][dk][dv] (key-major: the transpose of the reference's
// layout, so that value columns are contiguous and run in vector lanes).
//
// Two forms of the delta rule live here: the token recurrence (decode, and by
// default prefill: the reference computes exactly this) and the chunked form
// (exec_set_gdn_chunk / --gdn-chunk), which computes the same thing for a
// chunk of tokens at once and agrees with it to float rounding.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/forward_impl.h"
#include "quant/quant.h"

static float softplus(float x) { return x > 20.0f ? x : logf(1.0f + expf(x)); }

struct gdn_dims {
    int nk, dk, nv, dv, C, Kc, r;
    bool grouped;
};

static struct gdn_dims dims_of(const struct model *m) {
    const struct hparams *hp = &m->hp;
    struct gdn_dims g;
    g.nk = hp->ssm_n_group;
    g.dk = hp->ssm_d_state;
    g.nv = hp->ssm_dt_rank;
    g.dv = hp->ssm_d_inner / hp->ssm_dt_rank;
    g.C = 2 * g.nk * g.dk + hp->ssm_d_inner;
    g.Kc = hp->ssm_conv_kernel;
    g.r = g.nv / g.nk;
    g.grouped = hp->gdn_grouped_v;
    return g;
}

// ---- causal conv + SiLU, parallel over channels --------------------------------

struct conv_job {
    struct gdn_dims g;
    const float *w;   // [C][Kc]
    const struct exec_run *run; // the step's sequences: rows [t0, t0 + n) use run's conv state
    int n_run, il;
    float *mixed;     // [T][ld] in: projections; out: silu(conv)
    int64_t ld;
    enum quant_isa_id isa; // the executor's kernel set
};

// Causal depthwise convolution, in place: out(t, c) = silu(sum_i raw(t - Kc + 1 + i, c) w[c][i])
// (exec_causal_conv, no bias).
static void conv_run(const struct conv_job *j, int r, int64_t c0, int64_t c1) {
    exec_causal_conv(j->isa, j->mixed + (size_t)j->run[r].t0 * j->ld, j->ld, j->run[r].n, j->run[r].s->conv[j->il], j->w + c0 * j->g.Kc,
                     NULL, j->g.Kc, c0, c1, true);
}

// Every sequence of the step over this thread's channels: one barrier for the step.
static void conv_task(void *p, int ith, int nth) {
    struct conv_job *j = p;
    int64_t c0, c1;
    pool_range(j->g.C, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) conv_run(j, r, c0, c1);
}

// ---- delta rule ------------------------------------------------------------------

// The delta rule over the rows [t0, t0 + T) of one sequence (rule_task sets the
// pointers of each run of the step in turn).
struct rule_job {
    struct gdn_dims g;
    const float *mixed;  // [T][ld]: q | k | v after conv (q, k l2-normalized)
    const float *beta;   // [T][nv]
    const float *gdecay; // [T][nv] log decay
    float *S;            // [nv][dk][dv]: per value head, row i holds S[.][i] for every value column
    float *o;            // [T][nv*dv]
    int64_t ld;
    int T, chunk;
    float *scratch;      // per thread workspace (chunked form)
    size_t scratch_per_thread;
    const float *z, *norm; // the output gate [T][ld] and the per-head RMSNorm weight [dv]
    float eps;
    const struct exec_run *run; // the step's sequences (rows of the whole step above)
    int n_run, il;
    enum quant_isa_id isa; // the executor's kernel set
};

static int key_head(const struct gdn_dims *g, int h) { return g->grouped ? h / g->r : h % g->nk; }

// Token recurrence for value head h over all T tokens. Per value column jv, in the reference's
// order (sequential sums over i, products rounded before each add):
//   S[jv][i] *= decay; u = sum_i S[jv][i] k[i]; delta = beta (v[jv] - u);
//   S[jv][i] += k[i] delta; o[jv] = (sum_i S[jv][i] q[i]) / sqrt(dk).
// The state is stored transposed ([i][jv]) so that the columns are the contiguous dimension:
// the kernel (gdn_rule_token, gdn_kernels.c) runs the jv independently in vector lanes, each
// lane doing exactly the scalar sequence above.
static void rule_recurrent(const struct rule_job *j, int h) {
    const struct gdn_dims *g = &j->g;
    int dk = g->dk, dv = g->dv, kh = key_head(g, h);
    float *S = j->S + (size_t)h * dv * dk;
    float qs = 1.0f / sqrtf((float)dk);
    for (int t = 0; t < j->T; t++) {
        const float *row = j->mixed + (size_t)t * j->ld;
        const float *q = row + (size_t)kh * dk;
        const float *k = row + (size_t)g->nk * dk + (size_t)kh * dk;
        const float *v = row + (size_t)2 * g->nk * dk + (size_t)h * dv;
        float decay = expf(j->gdecay[(size_t)t * g->nv + h]), beta = j->beta[(size_t)t * g->nv + h];
        float *o = j->o + (size_t)t * g->nv * dv + (size_t)h * dv;
        gdn_rule_token(j->isa, S, dk, dv, q, k, v, decay, beta, qs, o);
    }
}

// Chunked form (prefill). Within a chunk of n tokens with cumulative log
// decays G_t = g_1 + ... + g_t, the recurrence unrolls to
//
//   W = (I + tril(diag(beta) (K K^T) ∘ Γ, -1))^-1 diag(beta) (V - (K S0^T) ∘ e^G)
//       with Γ_ts = e^(G_t - G_s): solved by forward substitution, row by row
//   O = (Q S0^T) ∘ e^G + (tril(Q K^T ∘ Γ)) W
//   S = e^(G_n) S0 + sum_s e^(G_n - G_s) W_s k_s^T
//
// (rows of W are the per-token updates delta_t). It costs matrix products
// instead of n sequential state sweeps, and equals the token recurrence up to
// float rounding; the test suite pins the two together.
static void rule_chunked(const struct rule_job *j, int h, float *ws) {
    const struct gdn_dims *g = &j->g;
    int dk = g->dk, dv = g->dv, kh = key_head(g, h), C = j->chunk;
    float *S = j->S + (size_t)h * dv * dk;
    float qs = 1.0f / sqrtf((float)dk);
    float *G = ws;                 // [C] cumulative log decay
    float *KK = G + C;             // [C][C] k_t . k_s
    float *QK = KK + (size_t)C * C;// [C][C] q_t . k_s
    float *W = QK + (size_t)C * C; // [C][dv] per-token deltas
    for (int t0 = 0; t0 < j->T; t0 += C) {
        int n = j->T - t0 < C ? j->T - t0 : C;
        const float *rows = j->mixed + (size_t)t0 * j->ld;
#define QV(t) (rows + (size_t)(t) * j->ld + (size_t)kh * dk)
#define KV(t) (rows + (size_t)(t) * j->ld + (size_t)g->nk * dk + (size_t)kh * dk)
#define VV(t) (rows + (size_t)(t) * j->ld + (size_t)2 * g->nk * dk + (size_t)h * dv)
        float acc = 0;
        for (int t = 0; t < n; t++) {
            acc += j->gdecay[(size_t)(t0 + t) * g->nv + h];
            G[t] = acc;
        }
        for (int t = 0; t < n; t++)
            for (int s2 = 0; s2 <= t; s2++) {
                const float *kt = KV(t), *ks = KV(s2), *qt = QV(t);
                float a = 0, b = 0;
                for (int i = 0; i < dk; i++) {
                    a += kt[i] * ks[i];
                    b += qt[i] * ks[i];
                }
                KK[(size_t)t * C + s2] = a;
                QK[(size_t)t * C + s2] = b;
            }
        // W_t = beta_t (v_t - e^G_t S0 k_t - sum_{s<t} e^(G_t - G_s) (k_t . k_s) W_s)
        for (int t = 0; t < n; t++) {
            float beta = j->beta[(size_t)(t0 + t) * g->nv + h], eg = expf(G[t]);
            const float *kt = KV(t), *vt = VV(t);
            float *Wt = W + (size_t)t * dv;
            for (int jv = 0; jv < dv; jv++) {
                float u = 0;
                for (int i = 0; i < dk; i++) u += S[(size_t)i * dv + jv] * kt[i];
                Wt[jv] = vt[jv] - eg * u;
            }
            for (int s2 = 0; s2 < t; s2++) {
                float c = expf(G[t] - G[s2]) * KK[(size_t)t * C + s2];
                const float *Ws = W + (size_t)s2 * dv;
                for (int jv = 0; jv < dv; jv++) Wt[jv] -= c * Ws[jv];
            }
            for (int jv = 0; jv < dv; jv++) Wt[jv] *= beta;
        }
        // o_t = (e^G_t S0 q_t + sum_{s<=t} e^(G_t - G_s) (q_t . k_s) W_s) / sqrt(dk)
        for (int t = 0; t < n; t++) {
            const float *qt = QV(t);
            float eg = expf(G[t]);
            float *o = j->o + (size_t)(t0 + t) * g->nv * dv + (size_t)h * dv;
            for (int jv = 0; jv < dv; jv++) {
                float u = 0;
                for (int i = 0; i < dk; i++) u += S[(size_t)i * dv + jv] * qt[i];
                o[jv] = eg * u;
            }
            for (int s2 = 0; s2 <= t; s2++) {
                float c = expf(G[t] - G[s2]) * QK[(size_t)t * C + s2];
                const float *Ws = W + (size_t)s2 * dv;
                for (int jv = 0; jv < dv; jv++) o[jv] += c * Ws[jv];
            }
            for (int jv = 0; jv < dv; jv++) o[jv] *= qs;
        }
        // S = e^G_n S0 + sum_s e^(G_n - G_s) W_s k_s^T
        float egn = expf(G[n - 1]);
        for (size_t e = 0; e < (size_t)dv * dk; e++) S[e] *= egn;
        for (int s2 = 0; s2 < n; s2++) {
            float c = expf(G[n - 1] - G[s2]);
            const float *ks = KV(s2), *Ws = W + (size_t)s2 * dv;
            for (int jv = 0; jv < dv; jv++) {
                float wv = c * Ws[jv];
                for (int i = 0; i < dk; i++) S[(size_t)i * dv + jv] += wv * ks[i];
            }
        }
#undef QV
#undef KV
#undef VV
    }
}

static void rule_heads(const struct rule_job *j, int ith, int64_t h0, int64_t h1) {
    for (int64_t h = h0; h < h1; h++) {
        if (j->chunk > 1 && j->T > 1) rule_chunked(j, (int)h, j->scratch + (size_t)ith * j->scratch_per_thread);
        else rule_recurrent(j, (int)h);
        // gated RMSNorm of this head's outputs, by the thread that just wrote them
        const int dv = j->g.dv;
        for (int t = 0; t < j->T; t++) {
            float *oh = j->o + (size_t)t * j->g.nv * dv + (size_t)h * dv;
            const float *zh = j->z + (size_t)t * j->ld + (size_t)h * dv;
            exec_rms_norm(oh, oh, j->norm, dv, j->eps);
            quant_silu_mul(j->isa, oh, zh, oh, dv);
        }
    }
}

// This thread's value heads, for every sequence of the step in turn: one barrier.
static void rule_task(void *p, int ith, int nth) {
    const struct rule_job *all = p;
    int64_t h0, h1;
    pool_range(all->g.nv, ith, nth, 1, &h0, &h1);
    const size_t nv = (size_t)all->g.nv, ov = nv * (size_t)all->g.dv;
    for (int r = 0; r < all->n_run; r++) {
        const struct exec_run *R = &all->run[r];
        struct rule_job j = *all;
        j.mixed = all->mixed + (size_t)R->t0 * all->ld;
        j.z = all->z + (size_t)R->t0 * all->ld;
        j.beta = all->beta + (size_t)R->t0 * nv;
        j.gdecay = all->gdecay + (size_t)R->t0 * nv;
        j.o = all->o + (size_t)R->t0 * ov;
        j.S = R->s->ssm[all->il];
        j.T = R->n;
        rule_heads(&j, ith, h0, h1);
    }
}

void gdn_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    struct gdn_dims g = dims_of(m);
    int D = m->hp.n_embd;
    float eps = m->hp.norm_eps;
    int64_t ld = ex->ldh;
    float *mixed = ex->hb;  // [T][ld]
    float *z = ex->hb2;     // [T][ld]
    float *ba = ex->hb3;    // [T][ld]: beta | alpha (nv each), then decay
    float *o = ex->hb4;     // [T][ld]
    if (!feat_has(L->feat, LF_GDN_BA_FUSED)) {
        // One pass for the four projections of xn (q|k|v, z, beta, alpha).
        const struct weight *w4[4] = {&L->ssm_qkv, &L->ssm_gate, &L->ssm_beta, &L->ssm_alpha};
        float *y4[4] = {mixed, z, ba, ba + g.nv};
        exec_mm_multi(ex, 4, w4, xn, D, T, y4, ld);
    } else {
        const struct weight *w2[2] = {&L->ssm_qkv, &L->ssm_gate};
        float *y2[2] = {mixed, z};
        exec_mm_multi(ex, 2, w2, xn, D, T, y2, ld);
    }
    if (feat_has(L->feat, LF_GDN_BA_FUSED)) {
        // qwen3next: [b(r) | a(r)] per key head; regroup to [b(nv) | a(nv)].
        exec_mm(ex, &L->ssm_ba, 0, xn, D, T, o, ld);
        for (int t = 0; t < T; t++) {
            const float *src = o + (size_t)t * ld;
            float *dst = ba + (size_t)t * ld;
            for (int gk = 0; gk < g.nk; gk++)
                for (int jj = 0; jj < g.r; jj++) {
                    dst[gk * g.r + jj] = src[gk * 2 * g.r + jj];
                    dst[g.nv + gk * g.r + jj] = src[gk * 2 * g.r + g.r + jj];
                }
        }
    }
    // Gates: beta = sigmoid(b), g = ssm_a * softplus(a + dt_bias). Stored as
    // beta [T][nv] then g [T][nv] packed at the front of xg (free here).
    float *beta = ex->xg, *gdecay = ex->yg;
    for (int t = 0; t < T; t++)
        for (int h = 0; h < g.nv; h++) {
            const float *r = ba + (size_t)t * ld;
            beta[(size_t)t * g.nv + h] = exec_sigmoid(r[h]);
            gdecay[(size_t)t * g.nv + h] = L->ssm_a[h] * softplus(r[g.nv + h] + L->ssm_dt_b[h]);
        }
    struct conv_job cj = {g, L->ssm_conv1d, ex->run, ex->n_run, il, mixed, ld, ex->isa};
    pool_run_sized(ex->pool, conv_task, &cj, (int64_t)g.C * g.Kc * T);
    // L2-normalize q and k per key head.
    for (int t = 0; t < T; t++) {
        float *row = mixed + (size_t)t * ld;
        for (int hh = 0; hh < 2 * g.nk; hh++) {
            float *v = row + (size_t)hh * g.dk;
            // The reference's l2_norm: squares in float summed in double,
            // x / max(sqrt(sum), eps).
            double ss = 0;
            for (int i = 0; i < g.dk; i++) ss += (double)(v[i] * v[i]);
            float sc = 1.0f / fmaxf(sqrtf((float)ss), eps);
            for (int i = 0; i < g.dk; i++) v[i] *= sc;
        }
    }
    int chunk = ex->gdn_chunk;
    size_t per_thread = chunk > 1 ? (size_t)chunk + 2 * (size_t)chunk * chunk + (size_t)chunk * g.dv : 0;
    float *scratch = NULL;
    if (per_thread && T > 1) {
        scratch = malloc(per_thread * (size_t)pool_threads(ex->pool) * sizeof(float));
        if (!scratch) chunk = 1; // fall back to the recurrence: same result, no workspace
    }
    struct rule_job rj = {g, mixed, beta, gdecay, NULL, o, ld, T, chunk, scratch, per_thread, z, L->ssm_norm, eps,
                          ex->run, ex->n_run, il, ex->isa};
    pool_run_sized(ex->pool, rule_task, &rj, (int64_t)g.nv * g.dk * g.dv * 4 * T);
    free(scratch);
    // (the gated RMSNorm per value head ran in rule_task); the output projection. o is
    // [T][nv*dv] packed.
    exec_act_invalidate(ex);
    exec_mm(ex, &L->ssm_out, 0, o, (int64_t)g.nv * g.dv, T, y, D);
}
