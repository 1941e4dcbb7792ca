// mamba2.c — the Mamba-2 mixer (host path), for mamba2 and the hybrids built on it (granite 4,
// nemotron_h, falcon-h1 beside attention), and nemotron_h's FFN-only layers.
//
//   zxBCdt = W_in xn                       [T][d_inner + conv_dim + n_head]   (* ssm_in.scale)
//            z [d_inner] | xBC [conv_dim] | dt [n_head],   conv_dim = d_inner + 2 n_group d_state
//   xBC    = silu(causal depthwise conv over [state | xBC], kernel d_conv, + conv1d bias)
//            x [n_head][head_dim] | B [n_group][d_state] | C [n_group][d_state]
//   per head h (group g = h / (n_head / n_group)):
//     dt_h = softplus(dt[h] + dt_bias[h]);  dA = exp(dt_h A[h])
//     per row i of the head:  S[i][.] = S[i][.] dA + B_g[.] (x[i] dt_h);  y[i] = S[i][.] . C_g
//     y[i] += x[i] D[h]
//   y      = silu(z) * y;  then RMSNorm over each of n_group slices of d_inner / n_group (ssm_norm)
//   out    = W_out y                        [T][D]   (* ssm_out.scale)
//
// State per sequence and layer: the conv window [conv_dim][d_conv-1] (raw inputs, oldest first)
// and S [n_head][head_dim][d_state], both in the reference's layout.
//
// Order of operations: the reference's CPU kernels (ggml_compute_forward_ssm_conv_f32 and
// ggml_compute_forward_ssm_scan_f32). The scan's state update is a product, a product and a sum,
// each rounded; its dot product with C runs, in the reference's SIMD build, in 4 x 16 float lanes
// (one fused multiply-add per element into lane i % 64), reduced as GGML_F32x16_REDUCE does, with
// the d_state % 64 tail added in order after: ssm_scan_row (quant/ssm_kernels.c, a scalar twin
// and AVX2 / AVX-512 kernels giving the same bits).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/forward_impl.h"
#include "model/mamba2.h"
#include "quant/quant.h"

// ---- binding ---------------------------------------------------------------------------

void mamba2_read_hparams(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    hp->ssm_conv_kernel = hp_int(ld, "ssm.conv_kernel", NAN);
    hp->ssm_d_inner = hp_int(ld, "ssm.inner_size", NAN);
    hp->ssm_d_state = hp_int(ld, "ssm.state_size", NAN);
    hp->ssm_dt_rank = hp_int(ld, "ssm.time_step_rank", NAN);
    hp->ssm_n_group = hp_int(ld, "ssm.group_count", NAN);
    if (ld->st) return;
    int nh = hp->ssm_dt_rank, ng = hp->ssm_n_group;
    if (hp->ssm_conv_kernel < 1 || hp->ssm_conv_kernel > 16 || hp->ssm_d_state < 1 || hp->ssm_d_state > 4096 ||
        hp->ssm_d_inner < 1 || nh < 1 || ng < 1 || hp->ssm_d_inner % nh || hp->ssm_d_inner % ng || nh % ng) {
        ld_fail(ld, FRINK_ERR_FORMAT, "Mamba-2 dims are inconsistent (conv %d, inner %d, state %d, heads %d, groups %d)",
                hp->ssm_conv_kernel, hp->ssm_d_inner, hp->ssm_d_state, nh, ng);
        return;
    }
    if (m->arch->flags2 & AX_ROPE_FINETUNED) {
        // granite 4: the reference rotates only when rope.scaling.finetuned (default true) holds.
        const struct gguf_kv *kv = kv_take(ld, "rope.scaling.finetuned");
        if (kv && kv_is_num(kv) && kv_num(kv) == 0) hp->rope_mode = ROPE_NONE;
    }
}

bool mamba2_layer_is_mamba(struct loader *ld, const struct layer *L) {
    uint64_t f2 = ld->m->arch->flags2;
    return (f2 & AX_MAMBA2) || ((f2 & AX_MAMBA2_KV0) && L->n_head_kv == 0) ||
           ((f2 & AX_NEMOTRON_H) && L->n_head_kv == 0 && L->n_ff == 0);
}

void mamba2_bind(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    char b[64];
    int D = hp->n_embd, di = hp->ssm_d_inner, nh = hp->ssm_dt_rank, Kc = hp->ssm_conv_kernel;
    int64_t conv_dim = di + 2LL * hp->ssm_n_group * hp->ssm_d_state, d_in_proj = di + conv_dim + nh;
    feat_set(&L->feat, LF_MAMBA2);
    if (ld->m->arch->flags2 & (AX_MAMBA2 | AX_NEMOTRON_H)) feat_set(&L->feat, LF_NO_FFN);
    // (the reference has no bias on either projection: a .bias stays unread and is refused)
    snprintf(b, sizeof b, "blk.%d.ssm_in", il);
    L->ssm_in = mat_take_b(ld, b, D, d_in_proj, 0, true, true, false);
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.weight", il);
    L->ssm_conv1d = vec_take(ld, b, conv_dim * Kc, true);
    snprintf(b, sizeof b, "blk.%d.ssm_conv1d.bias", il);
    L->ssm_conv1d_b = vec_take(ld, b, conv_dim, true);
    snprintf(b, sizeof b, "blk.%d.ssm_dt.bias", il);
    L->ssm_dt_b = vec_take(ld, b, nh, true);
    snprintf(b, sizeof b, "blk.%d.ssm_a", il);
    L->ssm_a = vec_take(ld, b, nh, true);
    snprintf(b, sizeof b, "blk.%d.ssm_d", il);
    L->ssm_d = vec_take(ld, b, nh, true);
    snprintf(b, sizeof b, "blk.%d.ssm_norm.weight", il);
    L->ssm_norm = vec_take(ld, b, di, true);
    snprintf(b, sizeof b, "blk.%d.ssm_out", il);
    L->ssm_out = mat_take_b(ld, b, di, D, 0, true, true, false);
    L->rec_conv_floats = conv_dim * (Kc - 1);
    L->rec_ssm_floats = (int64_t)hp->ssm_d_state * di;
    L->scratch_w = (int)d_in_proj;
}

// ---- forward ---------------------------------------------------------------------------

struct m2_dims {
    int di, ds, nh, hd, ng, Kc;
    int64_t conv_dim, d_in_proj;
};

static struct m2_dims dims_of(const struct model *m) {
    const struct hparams *hp = &m->hp;
    struct m2_dims d;
    d.di = hp->ssm_d_inner;
    d.ds = hp->ssm_d_state;
    d.nh = hp->ssm_dt_rank;
    d.hd = d.di / d.nh;
    d.ng = hp->ssm_n_group;
    d.Kc = hp->ssm_conv_kernel;
    d.conv_dim = d.di + 2LL * d.ng * d.ds;
    d.d_in_proj = d.di + d.conv_dim + d.nh;
    return d;
}

// The causal conv of every sequence of the step, over channels of xBC, in place.
struct m2_conv_job {
    struct m2_dims d;
    const float *w, *bias;       // [conv_dim][Kc], [conv_dim]
    const struct exec_run *run;  // rows [t0, t0 + n) of run r use its sequence's conv state
    int n_run, il;
    float *xbc;                  // [T][ld]: in the raw xBC, out silu(conv + bias)
    int64_t ld;
    enum quant_isa_id isa;
};

// out(t, c) = silu(sum_i raw(t - Kc + 1 + i, c) w[c][i] + bias[c]) (exec_causal_conv).
static void conv_run(const struct m2_conv_job *j, int r, int64_t c0, int64_t c1) {
    exec_causal_conv(j->isa, j->xbc + (size_t)j->run[r].t0 * j->ld, j->ld, j->run[r].n, j->run[r].s->conv[j->il], j->w + c0 * j->d.Kc,
                     j->bias + c0, j->d.Kc, c0, c1, true);
}

static void conv_task(void *p, int ith, int nth) {
    const struct m2_conv_job *j = p;
    int64_t c0, c1;
    pool_range(j->d.conv_dim, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) conv_run(j, r, c0, c1);
}

// The scan of every sequence of the step over this thread's rows (head, row of the head): each
// row is independent of the others given its head's dt, so a thread runs its rows through all
// of a sequence's tokens in order, with no barrier.
struct m2_scan_job {
    struct m2_dims d;
    const float *zx;             // [T][ld]: z | silu(conv) xBC | dt (raw)
    const float *dtv, *dA;       // [T][nh]: softplus(dt + bias), exp(dt A)
    const float *Dskip;          // [nh]
    float *y;                    // [T][ld] scan output + x D
    int64_t ld;
    const struct exec_run *run;
    int n_run, il;
    enum quant_isa_id isa;
};

// Rows per block of the scan's loop (a block never crosses a head): a block's states (16 rows of d_state floats: 8 KiB at 128)
// stay in L1 through all of a run's tokens, and each token's B and C rows are read once per
// block rather than once per row. Rows are independent, so the blocking changes no bits.
#define SCAN_ROW_BLOCK 16

static void scan_task(void *p, int ith, int nth) {
    const struct m2_scan_job *j = p;
    const struct m2_dims *d = &j->d;
    int64_t r0, r1;
    pool_range((int64_t)d->nh * d->hd, ith, nth, 1, &r0, &r1);
    const int hpg = d->nh / d->ng;
    const ssm_scan_row_fn row = ssm_scan_row_kernel(j->isa, d->ds);
    for (int r = 0; r < j->n_run; r++) {
        const struct exec_run *R = &j->run[r];
        float *S = R->s->ssm[j->il];
        for (int64_t b0 = r0; b0 < r1;) {
            // a block of rows within one head (one dt, dA and group)
            const int h = (int)(b0 / d->hd), g = h / hpg;
            int64_t b1 = b0 + SCAN_ROW_BLOCK < r1 ? b0 + SCAN_ROW_BLOCK : r1;
            b1 = b1 < (int64_t)(h + 1) * d->hd ? b1 : (int64_t)(h + 1) * d->hd;
            for (int t = R->t0; t < R->t0 + R->n; t++) {
                const float *x = j->zx + (size_t)t * j->ld + d->di; // xBC
                const float *Bg = x + d->di + (size_t)g * d->ds, *Cg = x + d->di + (size_t)(d->ng + g) * d->ds;
                float *y = j->y + (size_t)t * j->ld;
                const float dt = j->dtv[(size_t)t * d->nh + h], dA = j->dA[(size_t)t * d->nh + h], Dh = j->Dskip[h];
                for (int64_t ii = b0; ii < b1; ii++) {
                    float v = row(S + (size_t)ii * d->ds, Bg, Cg, d->ds, dA, x[ii] * dt);
                    y[ii] = v + x[ii] * Dh; // (the reference: ggml_mul, then ggml_add)
                }
            }
            b0 = b1;
        }
    }
}

// y = silu(z) * y, then the grouped RMSNorm, over this thread's tokens (each token's row is
// independent of the others).
struct m2_gate_job {
    struct m2_dims d;
    const float *zx; // [T][ld]: z first
    float *y;        // [T][ld]: the scan's output, gated and normalized in place
    int64_t ld;
    const float *norm; // [d_inner]
    float eps;
    int T;
    enum quant_isa_id isa;
};

static void gate_task(void *p, int ith, int nth) {
    const struct m2_gate_job *j = p;
    const int gs = j->d.di / j->d.ng;
    int64_t t0, t1;
    pool_range(j->T, ith, nth, 1, &t0, &t1);
    for (int64_t t = t0; t < t1; t++) {
        float *yt = j->y + (size_t)t * j->ld;
        quant_silu_mul(j->isa, yt, j->zx + (size_t)t * j->ld, yt, j->d.di);
        for (int g = 0; g < j->d.ng; g++) exec_rms_norm(yt + (size_t)g * gs, yt + (size_t)g * gs, j->norm + (size_t)g * gs, gs, j->eps);
    }
}

void mamba2_layer(struct exec *ex, int il, const float *xn, int T, float *out) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    const struct m2_dims d = dims_of(m);
    const int D = m->hp.n_embd;
    const int64_t ld = ex->ldh;
    float *zx = ex->hb;   // [T][ld]: z | xBC | dt
    float *y = ex->hb2;   // [T][ld]: [d_inner]
    float *dtv = ex->hb3; // [T][nh] packed, then dA [T][nh] after it (T * 2 nh <= T * ld)
    float *dA = ex->hb3 + (size_t)T * d.nh;
    exec_mm(ex, &L->ssm_in, 0, xn, D, T, zx, ld);
    struct m2_conv_job cj = {d, L->ssm_conv1d, L->ssm_conv1d_b, ex->run, ex->n_run, il, zx + d.di, ld, ex->isa};
    pool_run_sized(ex->pool, conv_task, &cj, d.conv_dim * d.Kc * T);
    // dt = softplus(dt + bias) (the reference's ggml_compute_softplus_f32), dA = exp(dt A).
    for (int t = 0; t < T; t++)
        for (int h = 0; h < d.nh; h++) {
            float v = zx[(size_t)t * ld + d.di + d.conv_dim + h] + L->ssm_dt_b[h];
            float sp = v > 20.0f ? v : logf(1 + expf(v));
            dtv[(size_t)t * d.nh + h] = sp;
            dA[(size_t)t * d.nh + h] = expf(sp * L->ssm_a[h]);
        }
    struct m2_scan_job sj = {d, zx, dtv, dA, L->ssm_d, y, ld, ex->run, ex->n_run, il, ex->isa};
    pool_run_sized(ex->pool, scan_task, &sj, (int64_t)d.di * d.ds * 4 * T);
    struct m2_gate_job gj = {d, zx, y, ld, L->ssm_norm, m->hp.norm_eps, T, ex->isa};
    pool_run_sized(ex->pool, gate_task, &gj, (int64_t)d.di * 8 * T);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->ssm_out, 0, y, ld, T, out, D);
}

// ---- the FFN as a layer's one branch (nemotron_h) ---------------------------------------

// u = relu(u)^2 in place over this thread's tokens of u [T][ld] (the first F of each row).
struct relu2_job {
    float *u;
    int64_t ld;
    int T, F;
};

static void relu2_task(void *p, int ith, int nth) {
    const struct relu2_job *j = p;
    int64_t t0, t1;
    pool_range(j->T, ith, nth, 1, &t0, &t1);
    for (int64_t t = t0; t < t1; t++) {
        float *u = j->u + (size_t)t * j->ld;
        for (int i = 0; i < j->F; i++) {
            float r = u[i] > 0 ? u[i] : 0;
            u[i] = r * r;
        }
    }
}

// y = W_down relu(W_up xn + b_up)^2 + b_down (each product's bias, then its scale, as the
// reference's build_ffn): relu, then the square, each rounded, as ggml_relu and ggml_sqr.
void relu2_ffn_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct layer *L = &ex->m->layers[il];
    const int D = ex->m->hp.n_embd, F = L->n_ff;
    const int64_t ld = ex->ldh;
    exec_mm(ex, &L->ffn_up, 0, xn, D, T, ex->hb, ld);
    struct relu2_job rj = {ex->hb, ld, T, F};
    pool_run_sized(ex->pool, relu2_task, &rj, (int64_t)T * F);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->ffn_down, 0, ex->hb, ld, T, y, D);
}
