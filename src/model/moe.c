// moe.c — the MoE families' extras: binding what their rows add (moe_bind_extras) and the host
// FFN of the layers whose block differs from "norm, then dense or routed experts".
//
//   arctic:  h = x + attn(norm(x))
//            x' = h + dense(ffn_norm(h)) + experts(ffn_norm_exps(x))
//            (the experts read the block input, not h; the dense FFN is n_embd wide)
#include "model/moe.h"

#include <stdio.h>
#include <string.h>

#include "model/forward_impl.h"

void moe_bind_extras(struct loader *ld, struct layer *L, int il) {
    const struct model *m = ld->m;
    uint64_t ax = m->arch->flags2;
    int D = m->hp.n_embd;
    char b[64];
    if (ax & AX_MOE_BESIDE_DENSE) {
        // The reference applies neither biases nor `.scale`s in this FFN: left unread.
        snprintf(b, sizeof b, "blk.%d.ffn_norm_exps", il);
        L->ffn_norm_exps = norm_take(ld, b, D, true, NULL);
        L->n_ff_dense = D;
        snprintf(b, sizeof b, "blk.%d.ffn_gate", il);
        L->ffn_gate = mat_take_b(ld, b, D, D, 0, true, false, false);
        snprintf(b, sizeof b, "blk.%d.ffn_up", il);
        L->ffn_up = mat_take_b(ld, b, D, D, 0, true, false, false);
        snprintf(b, sizeof b, "blk.%d.ffn_down", il);
        L->ffn_down = mat_take_b(ld, b, D, D, 0, true, false, false);
    }
    if (ax & AX_FFN_NORM_AON) {
        // dbrx: a LayerNorm without bias (the reference reads no attn_output_norm.bias)
        snprintf(b, sizeof b, "blk.%d.attn_output_norm", il);
        L->ffn_norm = norm_take(ld, b, D, true, NULL);
    }
}

// y = dense(xn) + experts(xe), xn, xe, y [T][D]. The dense FFN is ffn_dense's on a copy of
// the layer that says its width is n_ff_dense (the layer's n_ff is the experts' width).
void moe_ffn_beside_dense(struct exec *ex, const struct layer *L, const float *xn, const float *xe, int T, float *y) {
    const size_t n = (size_t)T * ex->m->hp.n_embd;
    struct layer dense = *L;
    dense.n_ff = L->n_ff_dense;
    ffn_dense(ex, &dense, xn, T, y);
    float *ye = ex->hb3; // [T][D] (hb3 is [T][ldh], ldh >= D; ffn_moe uses hb and hb2 only)
    exec_act_invalidate(ex);
    ffn_moe(ex, L, xe, T, ye);
    for (size_t i = 0; i < n; i++) y[i] += ye[i];
}
