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
#include "quant/quant.h"

// smallthinker's sliding window, as the reference decides it: only when attention.sliding_window
// is set and positive, and then the window is 4096 whatever the file says; layer il slides per
// sliding_window_pattern's array, or iff il % P != 0 for its period P (default 4; 0: every
// layer); the other layers are NoPE (their use_rope rule coincides with that period's).
static void bind_smallthinker_swa(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    int n_swa = hp_int(ld, "attention.sliding_window", 0);
    if (n_swa <= 0) return;
    const struct gguf_kv *kv = kv_take(ld, "attention.sliding_window_pattern");
    bool swa;
    if (kv && kv->type == GGUF_VT_ARRAY) {
        int n_total = hp->n_layer + hp_int(ld, "nextn_predict_layers", 0);
        if (kv->v.arr.type == GGUF_VT_STRING || kv->v.arr.n < (uint64_t)n_total) {
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.attention.sliding_window_pattern' must have %d entries", ld->arch, n_total);
            return;
        }
        swa = gguf_arr_i64(kv, (uint64_t)il) != 0;
    } else {
        int P = kv && kv_is_num(kv) ? (int)kv_num(kv) : 4;
        swa = P == 0 || il % P != 0;
    }
    if (swa) {
        feat_set(&L->feat, LF_SWA);
        L->swa_window = 4096;
        L->rope_base = (float)hp_num(ld, "rope.freq_base_swa", hp->rope_base);
    } else {
        L->moe_nope = il % 4 == 0; // the reference's use_rope: il % n_no_rope_layer_step (4) != 0
    }
}

// grovemoe's chunk experts: E / G stacks of [D -> Fc] gate and up, [Fc -> D] down, without
// biases or scales in the reference.
static void bind_grove(struct loader *ld, struct layer *L, int il) {
    const struct hparams *hp = &ld->m->hp;
    int D = hp->n_embd, E = L->n_expert, G = hp->grove_per_group;
    char b[64];
    if (G <= 0 || E % G) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s.experts_per_group' = %d does not divide %d experts", ld->arch, G, E);
        return;
    }
    snprintf(b, sizeof b, "blk.%d.ffn_gate_chexps", il);
    L->gate_chexps = mat_take_b(ld, b, D, 0, E / G, true, false, false);
    int Fc = (int)L->gate_chexps.n_out;
    snprintf(b, sizeof b, "blk.%d.ffn_up_chexps", il);
    L->up_chexps = mat_take_b(ld, b, D, Fc, E / G, true, false, false);
    snprintf(b, sizeof b, "blk.%d.ffn_down_chexps", il);
    L->down_chexps = mat_take_b(ld, b, Fc, D, E / G, true, false, false);
    feat_set(&L->feat, LF_MOE_GROVE);
    if (2 * Fc > L->scratch_w) L->scratch_w = 2 * Fc;
}

void moe_bind_extras(struct loader *ld, struct layer *L, int il) {
    const struct model *m = ld->m;
    uint64_t ax = m->arch->flags2;
    int D = m->hp.n_embd;
    char b[64];
    if AX_MOE_FAM_IS(ax, AX_MOE_BESIDE_DENSE) {
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
    if (AX_MOE_FAM_IS(ax, AX_MOE_STEP) && L->n_expert > 0) {
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
    if (AX_MOE_FAM_IS(ax, AX_ROPE_SWA_ONLY)) {
        L->rope_base = m->hp.rope_base;
        L->moe_nope = !feat_has(L->feat, LF_SWA);
    }
    if (AX_MOE_FAM_IS(ax, AX_SMALLTHINKER)) bind_smallthinker_swa(ld, L, il);
    if (AX_MOE_FAM_IS(ax, AX_HY_V3) && L->n_expert > 0) {
        snprintf(b, sizeof b, "blk.%d.ffn_gate_inp.weight", il);
        if (gguf_tensor_index(ld->f, b) < 0) { // a dense block (first_k_dense_replace)
            int n_total = m->hp.n_layer + hp_int(ld, "nextn_predict_layers", 0);
            L->n_expert = L->n_expert_used = 0;
            L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, n_total);
        } else {
            snprintf(b, sizeof b, "blk.%d.exp_probs_b", il);
            L->exp_probs_b = vec_take(ld, b, L->n_expert, false);
        }
    }
    if (AX_MOE_FAM_IS(ax, AX_GROVE) && L->n_expert > 0) bind_grove(ld, L, il);
    if AX_MOE_FAM_IS(ax, AX_GROK) {
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
    if AX_MOE_FAM_IS(ax, AX_FFN_NORM_AON) {
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

// ---- grovemoe -----------------------------------------------------------------------------

// As the reference's soft_max (ffn.c's): exponentials summed in double, then every value times
// the float reciprocal of the sum. v [n] in place.
static void grove_softmax(float *v, int n) {
    float mx = -INFINITY;
    for (int i = 0; i < n; i++) mx = v[i] > mx ? v[i] : mx;
    double sum = 0;
    for (int i = 0; i < n; i++) {
        v[i] = expf(v[i] - mx);
        sum += v[i];
    }
    const float inv = (float)(1.0 / sum);
    for (int i = 0; i < n; i++) v[i] *= inv;
}

// One token's choice of k experts among E by score [E] (highest first, lowest index on ties),
// their indices divided by G (the chunk an expert belongs to, G = 1: itself) in sel [k], their
// weights probs[sel] renormalized (the reference clamps the sum at 2^-14) in wt [k].
static void grove_pick(const float *score, const float *probs, int E, int k, int G, int *sel, float *wt) {
    float s = 0;
    for (int j = 0; j < k; j++) {
        int best = -1;
        for (int e = 0; e < E; e++) {
            bool taken = false;
            for (int q = 0; q < j; q++) taken |= sel[q] == e;
            if (!taken && (best < 0 || score[e] > score[best])) best = e;
        }
        sel[j] = best;
    }
    // The reference divides the indices in float and truncates, then takes the weights at the
    // divided index (not the expert's): what it computes for G > 1, reproduced as it is.
    for (int j = 0; j < k; j++) {
        if (G > 1) sel[j] = (int)((float)sel[j] * (1.0f / (float)G));
        wt[j] = probs[sel[j]];
        s += wt[j];
    }
    if (s < 6.103515625e-5f) s = 6.103515625e-5f;
    for (int j = 0; j < k; j++) wt[j] /= s;
}

// y = sum_j wt[t][j] * expert_{sel[t][j]}(x_t) over the K choices of each row in ex->sel / ex->selw,
// with the SiLU-gated experts gate/up/down [D -> F] x n_exp, [F -> D]; x, y [T][D]. Each expert's
// rows are gathered and computed once, as ffn_moe does.
static void grove_experts(struct exec *ex, const struct weight *gate, const struct weight *up, const struct weight *down,
                          int n_exp, int K, const float *x, int T, float *y) {
    const int D = ex->m->hp.n_embd, F = (int)gate->n_out;
    memset(y, 0, (size_t)T * D * sizeof(float));
    for (int e = 0; e < n_exp; e++) {
        int n = 0;
        for (int t = 0; t < T; t++)
            for (int k = 0; k < K; k++)
                if (ex->sel[(size_t)t * K + k] == e) {
                    ex->tok_idx[n] = t;
                    ex->tok_w[n] = ex->selw[(size_t)t * K + k];
                    memcpy(ex->xg + (size_t)n * D, x + (size_t)t * D, (size_t)D * sizeof(float));
                    n++;
                }
        if (!n) continue;
        exec_act_invalidate(ex);
        exec_mm(ex, gate, e, ex->xg, D, n, ex->hb, ex->ldh);
        exec_mm(ex, up, e, ex->xg, D, n, ex->hb2, ex->ldh);
        for (int i = 0; i < n; i++)
            quant_silu_mul(ex->isa, ex->hb + (size_t)i * ex->ldh, ex->hb + (size_t)i * ex->ldh, ex->hb2 + (size_t)i * ex->ldh, F);
        exec_mm(ex, down, e, ex->hb, ex->ldh, n, ex->yg, D);
        for (int i = 0; i < n; i++) {
            float *dst = y + (size_t)ex->tok_idx[i] * D, *src = ex->yg + (size_t)i * D;
            for (int c = 0; c < D; c++) dst[c] += ex->tok_w[i] * src[c];
        }
    }
}

// The reference: probs = softmax(logits), selection by sigmoid(logits) (the same order unless
// sigmoid saturates), weights renormalized; the chunk experts take the first experts' output
// as input, k' = min(K, E / G) of them chosen by the same scores.
void moe_ffn_grove(struct exec *ex, const struct layer *L, const float *xn, int T, float *y) {
    const struct model *m = ex->m;
    const int D = m->hp.n_embd, E = L->n_expert, K = L->n_expert_used, G = m->hp.grove_per_group;
    const int Ec = E / G, Kc = K < Ec ? K : Ec;
    float *router = ex->router; // [T][E]
    exec_mm(ex, &L->gate_inp, 0, xn, D, T, router, E);
    float probs[1024], score[1024];
    for (int t = 0; t < T; t++) {
        const float *lg = router + (size_t)t * E;
        for (int e = 0; e < E; e++) {
            probs[e] = lg[e];
            score[e] = exec_sigmoid(lg[e]);
        }
        grove_softmax(probs, E);
        grove_pick(score, probs, E, K, 1, ex->sel + (size_t)t * K, ex->selw + (size_t)t * K);
    }
    grove_experts(ex, &L->gate_exps, &L->up_exps, &L->down_exps, E, K, xn, T, y);
    // The chunk experts' choices, from the same logits (router still holds them).
    for (int t = 0; t < T; t++) {
        const float *lg = router + (size_t)t * E;
        for (int e = 0; e < E; e++) {
            probs[e] = lg[e];
            score[e] = exec_sigmoid(lg[e]);
        }
        grove_softmax(probs, E);
        grove_pick(score, probs, E, Kc, Ec != E ? G : 1, ex->sel + (size_t)t * Kc, ex->selw + (size_t)t * Kc);
    }
    float *yc = ex->hb3; // [T][D] (hb3 is [T][ldh], ldh >= D; the experts use hb and hb2 only)
    exec_act_invalidate(ex);
    grove_experts(ex, &L->gate_chexps, &L->up_chexps, &L->down_chexps, Ec, Kc, y, T, yc);
    const float s = m->hp.grove_group_scale;
    for (size_t i = 0; i < (size_t)T * D; i++) y[i] += yc[i] * s;
}
