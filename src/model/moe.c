// moe.c — the MoE families' extras: binding what their rows add (moe_bind_extras) and the host
// FFN of the layers whose block differs from "norm, then dense or routed experts".
//
//   arctic:  h = x + attn(norm(x))
//            x' = h + dense(ffn_norm(h)) + experts(ffn_norm_exps(x))
//            (the experts read the block input, not h; the dense FFN is n_embd wide)
#include "model/moe.h"

#include <math.h>
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
    if ((ax & AX_MOE_STEP) && L->n_expert > 0) {
        int lead = hp_int(ld, "leading_dense_block_count", 0), step = hp_int(ld, "interleave_moe_layer_step", NAN);
        if (!ld->st && step <= 0)
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.interleave_moe_layer_step' = %d must be positive", ld->arch, step);
        if (il < lead || (il + 1) % (step > 0 ? step : 1) != 0) {
            L->n_expert = L->n_expert_used = 0;
            int n_total = m->hp.n_layer + hp_int(ld, "nextn_predict_layers", 0);
            L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, n_total);
        }
    }
    // (the reference rotates its sliding layers with the global base: rope.freq_base_swa, read
    // by bind_layer_hparams, changes nothing there)
    if (ax & AX_ROPE_SWA_ONLY) L->rope_base = m->hp.rope_base;
    if (ax & AX_GROK) {
        snprintf(b, sizeof b, "blk.%d.attn_output_norm.weight", il);
        L->post_attn_norm = vec_take(ld, b, D, true);
        snprintf(b, sizeof b, "blk.%d.layer_output_norm.weight", il);
        if (gguf_tensor_index(ld->f, b) < 0) snprintf(b, sizeof b, "blk.%d.ffn_post_norm.weight", il);
        L->post_ffn_norm = vec_take(ld, b, D, true);
        feat_set(&L->feat, LF_POST_ATTN_NORM);
        feat_set(&L->feat, LF_POST_FFN_NORM);
        // The dense FFN beside the experts is optional (feed_forward_length wide), without
        // biases or scales in the reference.
        snprintf(b, sizeof b, "blk.%d.ffn_up.weight", il);
        if (gguf_tensor_index(ld->f, b) >= 0) {
            int F = m->hp.n_ff;
            L->n_ff_dense = F;
            snprintf(b, sizeof b, "blk.%d.ffn_gate", il);
            L->ffn_gate = mat_take_b(ld, b, D, F, 0, true, false, false);
            snprintf(b, sizeof b, "blk.%d.ffn_up", il);
            L->ffn_up = mat_take_b(ld, b, D, F, 0, true, false, false);
            snprintf(b, sizeof b, "blk.%d.ffn_down", il);
            L->ffn_down = mat_take_b(ld, b, F, D, 0, true, false, false);
            feat_set(&L->feat, LF_MOE_DENSE_RSQRT2);
        }
    }
    if (ax & AX_FFN_NORM_AON) {
        // dbrx: a LayerNorm without bias (the reference reads no attn_output_norm.bias)
        snprintf(b, sizeof b, "blk.%d.attn_output_norm", il);
        L->ffn_norm = norm_take(ld, b, D, true, NULL);
    }
}

void moe_read_hparams_grok(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    hp->f_emb_scale = (float)hp_num(ld, "embedding_scale", 78.38367176906169);
    hp->f_attn_scale = (float)hp_num(ld, "attention.output_scale", 0.08838834764831845);
    hp->attn_softcap = (float)hp_num(ld, "attn_logit_softcapping", 30.0);
    hp->final_softcap = (float)hp_num(ld, "final_logit_softcapping", 0);
    // The reference multiplies the logits by logit_scale; MF_LOGIT_SCALE divides by
    // f_logit_scale, so it holds the reciprocal (a last-bit difference at most).
    double ls = hp_num(ld, "logit_scale", 0.5773502691896257);
    if (ld->st) return;
    if (ls == 0 || hp->attn_softcap == 0 || hp->f_attn_scale == 0)
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s': logit_scale, attention.output_scale and attn_logit_softcapping must be non-zero", ld->arch);
    hp->f_logit_scale = (float)(1.0 / ls);
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
    if (feat_has(L->feat, LF_MOE_DENSE_RSQRT2)) {
        const float s = (float)(1.4142135623730951 / 2); // the reference's std::sqrt(2) / 2
        for (size_t i = 0; i < n; i++) y[i] *= s;
    }
}
