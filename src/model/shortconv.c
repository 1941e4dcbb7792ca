// shortconv.c — LFM2's gated short convolution mixer (host path), for lfm2 and lfm2moe.
//
//   bcx = W_in xn                          [T][3*D]   b | c | x
//   bx  = b * x                            [T][D]
//   v   = conv(bx)                         causal depthwise, kernel Lc (shortconv.l_cache)
//   y   = c * v
//   out = W_out y                          [T][D]
//
// State per sequence and layer: the conv window [D][Lc-1] of past bx (oldest first), the
// reference's layout; no recurrence state. The conv sums its Lc products in kernel order, as
// the reference's ggml_compute_forward_ssm_conv_f32 does.
#include <math.h>
#include <stdio.h>

#include "model/convmix.h"
#include "model/forward_impl.h"

void bind_shortconv(struct loader *ld, struct layer *L, int il) {
    const int D = ld->m->hp.n_embd;
    const int Lc = hp_int(ld, "shortconv.l_cache", NAN);
    if (ld->st) return;
    if (Lc < 2 || Lc > 16) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s.shortconv.l_cache' = %d is out of range (2..16)", ld->arch, Lc);
        return;
    }
    char b[64];
    feat_set(&L->feat, LF_SHORTCONV);
    L->sc_l = Lc;
    // The reference applies no bias and no per-tensor scale to these (left unread: refused).
    snprintf(b, sizeof b, "blk.%d.shortconv.in_proj", il);
    L->sc_in = mat_take_b(ld, b, D, 3 * D, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.shortconv.out_proj", il);
    L->sc_out = mat_take_b(ld, b, D, D, 0, true, false, false);
    snprintf(b, sizeof b, "blk.%d.shortconv.conv.weight", il);
    L->sc_conv = vec_take(ld, b, (int64_t)Lc * D, true);
    L->rec_conv_floats = (int64_t)D * (Lc - 1);
    L->rec_ssm_floats = 0;
    L->scratch_w = 3 * D;
}

struct sc_job {
    const struct layer *L;
    const struct exec_run *run;
    int n_run, il, D;
    float *bcx;         // [T][ld]: b | c | x; b's columns become b * x, then the output c * v
    int64_t ld;
    enum quant_isa_id isa;
};

// Channels [c0, c1) of run r. First bx = b * x in place of b for every token, then the causal
// conv of bx (exec_causal_conv: v(t, c) = sum_i bx(t - Lc + 1 + i, c) w[c][i], bx(t < 0) from the
// state, which ends up holding the last Lc - 1 bx), then y = c * v over b's columns.
static void sc_run(const struct sc_job *j, int r, int64_t c0, int64_t c1) {
    const struct layer *L = j->L;
    const int T = j->run[r].n, D = j->D;
    float *const rows = j->bcx + (size_t)j->run[r].t0 * j->ld;
    for (int t = 0; t < T; t++) {
        float *row = rows + (size_t)t * j->ld;
        for (int64_t c = c0; c < c1; c++) row[c] = row[c] * row[2 * D + c];
    }
    exec_causal_conv(j->isa, rows, j->ld, T, j->run[r].s->conv[j->il], L->sc_conv + c0 * L->sc_l, NULL, L->sc_l, c0, c1, false);
    for (int t = 0; t < T; t++) {
        float *row = rows + (size_t)t * j->ld;
        for (int64_t c = c0; c < c1; c++) row[c] = row[D + c] * row[c];
    }
}

static void sc_task(void *p, int ith, int nth) {
    struct sc_job *j = p;
    int64_t c0, c1;
    pool_range(j->D, ith, nth, 8, &c0, &c1);
    for (int r = 0; r < j->n_run; r++) sc_run(j, r, c0, c1);
}

void shortconv_layer(struct exec *ex, int il, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const struct layer *L = &m->layers[il];
    const int D = m->hp.n_embd;
    const int64_t ld = ex->ldh;
    float *bcx = ex->hb; // [T][ld]
    exec_mm(ex, &L->sc_in, 0, xn, D, T, bcx, ld);
    struct sc_job j = {L, ex->run, ex->n_run, il, D, bcx, ld, ex->isa};
    pool_run_sized(ex->pool, sc_task, &j, (int64_t)D * L->sc_l * T);
    exec_act_invalidate(ex);
    exec_mm(ex, &L->sc_out, 0, bcx, ld, T, y, D);
}
