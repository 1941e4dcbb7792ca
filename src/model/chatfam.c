// chatfam.c — loader hooks of the chat-format and sliding-window families.
//
// These families mostly recombine what the host path computes (post-norms, fused gate/up,
// q/k norms, sigmoid routing with a selection bias, shared experts, sliding windows, sinks);
// what differs is where their files keep the switches and which of their tensors the
// reference's graph really uses. Read here, per row flag (arch.h's AX_*; bits 32-35 name one
// family's own quirks):
//
//   glm4, glm4moe  rope.dimension_sections with s0, s1 > 0 make the reference's RoPE M-RoPE;
//                  on text the t/h/w positions all equal the token's and the fourth is 0, so
//                  it is NEOX-paired RoPE as long as every rotary pair falls in t/h/w.
//   glm4moe,       sigmoid routing unless expert_gating_func says otherwise, leading dense
//   cohere2moe,    blocks, weight norm and scale from metadata (AX_MOE_KEYS); glm4moe's
//   afmoe, laguna  optional per-head q/k norms (GLM-4.5 355B has them).
//   minimax-m2    the routing function from expert_gating_func (sigmoid in its files).
//   command-r,    logits *times* logit_scale (the host divides by hp.f_logit_scale: it gets a
//   cohere2,      reciprocal that divides back to the file's value exactly, or a refusal);
//   muse-glimmer  command-r's per-head q/k LayerNorms in its 64-block models.
//   cohere2,      only the sliding layers rotate, with rope.freq_base (freq_base_swa is read
//   cohere2moe,   and not used, as in the reference), the full layers not at all; exaone4
//   exaone4       slides only in its 64-block model; cohere2moe: RMSNorm or LayerNorm by the
//                 epsilon the file sets, a dense-first pattern, RoPE on the leading dense
//                 blocks too, (routed + shared expert) * 0.5.
//   granite_swa   per-layer RoPE from attention.rope_pattern; deepstack inputs and experts refused.
//   mimo2         q/k/v products without the biases and scales its files carry, optional
//                 sinks, attention.value_scale on the attention output, a layer routed iff it
//                 has a router.
//   afmoe,        a separate output gate before wo: sigmoid per element (afmoe, muse-glimmer),
//   spark2_5,     sigmoid per head (spark2_5), softplus per head or element (laguna); afmoe
//   muse-glimmer, skips RoPE on every fourth layer, muse-glimmer rotates only its sliding
//   laguna        layers and post-norms with eps 1e-8, laguna's sliding layers rotate without
//                 YaRN over their own dimension count.
//   maple         only the sliding layers rotate; the experts' SwiGLU clamped (swiglu_clamp_exp).
#include "model/chatfam.h"

#include <math.h>
#include <stdio.h>

// Which rope mode the file's sections give (AX_MROPE_TEXT); refuses sections that leave a
// rotary pair on the fourth (extra) position stream.
static void read_mrope_sections(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    const struct gguf_kv *sec = kv_take(ld, "rope.dimension_sections");
    if (!sec) return;
    if (sec->type != GGUF_VT_ARRAY || sec->v.arr.type == GGUF_VT_STRING || sec->v.arr.n > 4) {
        ld_fail(ld, FRINK_ERR_FORMAT, "'%s.rope.dimension_sections' must be a numeric array of at most 4", ld->arch);
        return;
    }
    int64_t s[4] = {0, 0, 0, 0};
    for (uint64_t i = 0; i < sec->v.arr.n; i++) s[i] = gguf_arr_i64(sec, i);
    if (!(s[0] > 0 && s[1] > 0)) return; // the reference's use_mrope(): plain RoPE of the row's mode
    int64_t sum = s[0] + s[1] + s[2] + s[3];
    for (int j = 0; j < hp->n_rot / 2; j++)
        if (j % sum >= s[0] + s[1] + s[2]) {
            ld_fail(ld, FRINK_ERR_UNSUPPORTED,
                    "rope.dimension_sections put rotary pair %d on M-RoPE's fourth position stream: not plain text RoPE", j);
            return;
        }
    hp->rope_mode = ROPE_NEOX; // M-RoPE rotates NEOX pairs
}

// The routing keys of the rows that read them (the generic loader read expert_gating_func
// and let AX_GATING_KEY rows choose sigmoid).
static void read_routing(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    if (hp->n_expert == 0) return;
    const struct gguf_kv *g = kv_take(ld, "expert_gating_func");
    bool unset = !g || (kv_is_num(g) && kv_num(g) == 0);
    if (m->arch->flags2 & AX_MOE_KEYS) {
        if (unset) hp->gating = GATING_SIGMOID; // the reference's default for these rows
        // (the shared expert is the tensors': these sizes only restate them)
        hp_int(ld, "expert_shared_count", 0);
        hp_int(ld, "expert_shared_feed_forward_length", 0);
        hp->moe_norm_w = hp_int(ld, "expert_weights_norm", 0) != 0;
        hp->expert_weights_scale = (float)hp_num(ld, "expert_weights_scale", 0);
    } else if (unset) {
        // minimax-m2: the reference has no default routing function (it aborts).
        ld_fail(ld, FRINK_ERR_FORMAT, "required metadata '%s.expert_gating_func' is missing", ld->arch);
    }
}

// logit_scale as the reciprocal the host divides by (AX_LOGIT_MUL): of 1/s and its two float
// neighbours, one whose 1.0f / f is s exactly, so that the product is the reference's x * s.
static void read_logit_mul(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    float s = (float)hp_num(ld, "logit_scale", 0);
    if (s == 0 || s == 1) return; // (the reference skips 0; times 1 changes nothing)
    float f = 1.0f / s, c[3] = {f, nextafterf(f, 0), nextafterf(f, INFINITY)};
    for (int i = 0; i < 3; i++)
        if (1.0f / c[i] == s) {
            hp->f_logit_scale = c[i];
            return;
        }
    ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.logit_scale' = %g: no float divides the logits to the same products", ld->arch, s);
}

// RMSNorm when the file sets attention.layer_norm_rms_epsilon (non-zero), else the row's
// LayerNorm with attention.layer_norm_epsilon (AX_COHERE2MOE; the row has AF_LAYERNORM, so
// the generic reader required and read that one).
static void read_norm_kind(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    float rms = (float)hp_num(ld, "attention.layer_norm_rms_epsilon", 0);
    if (rms == 0) return;
    hp->norm_kind = NORM_RMS;
    hp->norm_eps = rms;
}

// granite_swa's refusals: the Granite Vision deepstack inputs (a layer il > 0 adding an input
// stream) and the routed experts (with their fused shared expert).
static void read_granite_swa(struct loader *ld) {
    const struct gguf_kv *ds = kv_take(ld, "deepstack_mapping");
    if (ds && ds->type == GGUF_VT_ARRAY && ds->v.arr.type != GGUF_VT_STRING)
        for (uint64_t il = 1; il < ds->v.arr.n && il < (uint64_t)ld->m->hp.n_layer; il++)
            if (gguf_arr_i64(ds, il) >= 0) {
                ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.deepstack_mapping' adds an input stream at layer %d: deepstack inputs are not implemented", ld->arch, (int)il);
                return;
            }
    if (ld->m->hp.n_expert > 0)
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s' with routed experts (and its fused shared expert) is not implemented", ld->arch);
}

// mimo2: routing is sigmoid whatever expert_gating_func says (the reference hard-codes it and
// reads no such key); attention.value_scale scales the attention output when not 1.
static void read_mimo2(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    kv_take(ld, "expert_gating_func");
    if (hp->n_expert > 0) hp->gating = GATING_SIGMOID;
    float vs = (float)hp_num(ld, "attention.value_scale", 0);
    hp->chat_attn_out_scale = vs != 0 && vs != 1 ? vs : 0;
}

// The sliding layers' head and rotary sizes, when the file gives them, must be the full
// layers': per-layer head sizes are not implemented.
static void check_swa_dims(struct loader *ld) {
    const struct hparams *hp = &ld->m->hp;
    static const char *keys[] = {"attention.key_length_swa", "attention.value_length_swa", "rope.dimension_count_swa"};
    const int full[] = {hp->head_dim, hp->head_dim_v, hp->n_rot};
    // (laguna's sliding layers rotate over their own dimension count, bound per layer)
    int n = AX_FAM_IS(ld->m->arch->flags2, AX_LAGUNA) ? 2 : 3;
    for (int i = 0; i < n; i++) {
        int v = hp_int(ld, keys[i], full[i]);
        if (v != full[i]) {
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.%s' = %d differs from the full layers' %d: per-layer head sizes are not implemented",
                    ld->arch, keys[i], v, full[i]);
            return;
        }
    }
}

void chatfam_read_hparams(struct loader *ld) {
    uint64_t ax = ld->m->arch->flags2;
    if (ld->m->arch->flags & AF_SWA) check_swa_dims(ld);
    if (ax & AX_MROPE_TEXT) read_mrope_sections(ld);
    if (ax & (AX_GATING_KEY | AX_MOE_KEYS)) read_routing(ld);
    if (ax & AX_LOGIT_MUL) read_logit_mul(ld);
    if (AX_FAM_IS(ax, AX_COHERE2MOE)) read_norm_kind(ld);
    if (AX_FAM_IS(ax, AX_GRANITE_SWA)) read_granite_swa(ld);
    if (AX_FAM_IS(ax, AX_MIMO2)) read_mimo2(ld);
    if (AX_FAM_IS(ax, AX_MUSE_GLIMMER)) {
        // The embedding's RMSNorm has no weight: the token norm with weights 1 (x * 1 is x).
        struct model *m = ld->m;
        float *ones = owned_alloc(m, (size_t)m->hp.n_embd * sizeof(float));
        if (!ones) {
            ld_fail(ld, FRINK_ERR_NOMEM, "out of memory");
            return;
        }
        for (int i = 0; i < m->hp.n_embd; i++) ones[i] = 1.0f;
        m->tok_norm = ones;
    }
}

// Whether layer il slides under a dense-first pattern (AX_COHERE2MOE): the per-layer
// array when the file has one, else the period P (default 4): L % P != 0.
static bool swa_dense_first(struct loader *ld, int il) {
    const struct gguf_kv *kv = kv_take(ld, "attention.sliding_window_pattern");
    // (the generic binder checked the array's length; a failed load may not have)
    if (kv && kv->type == GGUF_VT_ARRAY) return (uint64_t)il < kv->v.arr.n && layer_is_swa(ld, il, (int)kv->v.arr.n);
    int P = kv && kv_is_num(kv) ? (int)kv_num(kv) : 4;
    return P == 0 || il % P != 0;
}

// The sliding pattern and RoPE of layer il for the rows that differ from the generic rule.
static void bind_swa_rope(struct loader *ld, struct layer *L, int il, int n_swa, int n_dense_lead) {
    const struct model *m = ld->m;
    uint64_t ax = m->arch->flags2;
    bool swa_model = n_swa > 0;
    if ((AX_FAM_IS(ax, AX_COHERE2MOE) || AX_FAM_IS(ax, AX_LAGUNA)) && n_swa > 0) {
        // (the generic binder applied the other convention: redo the layer's choice)
        feat_clear(&L->feat, LF_SWA);
        L->swa_window = 0;
        if (swa_dense_first(ld, il)) {
            feat_set(&L->feat, LF_SWA);
            L->swa_window = n_swa;
        }
    }
    if (AX_FAM_IS(ax, AX_EXAONE4_SWA) && m->hp.n_layer != 64) {
        feat_clear(&L->feat, LF_SWA);
        L->swa_window = 0;
        swa_model = false;
    }
    if ((ax & AX_SWA_ROPE_ONLY) || AX_FAM_IS(ax, AX_GRANITE_SWA)) L->rope_base = m->hp.rope_base;
    if (ax & AX_SWA_ROPE_ONLY) L->chat_no_rope = swa_model && !feat_has(L->feat, LF_SWA) && il >= n_dense_lead;
    if (AX_FAM_IS(ax, AX_GRANITE_SWA)) {
        const struct gguf_kv *rp = kv_take(ld, "attention.rope_pattern");
        // (a scalar is not read by the reference: every layer rotates)
        if (rp && rp->type == GGUF_VT_ARRAY && rp->v.arr.type != GGUF_VT_STRING && (uint64_t)il < rp->v.arr.n)
            L->chat_no_rope = gguf_arr_i64(rp, (uint64_t)il) == 0;
    }
}

// How a family's own attention binder takes its tensors (bind_own_attention).
struct own_attn {
    bool qkv_extras; // q/k/v biases and scales applied (else left unread, as mimo2's reference ignores them)
    bool qk_norm;    // per-head q/k RMSNorms (required)
    bool gate;       // a separate output gate attn_gate [D -> H*d] (afmoe), its .scale not applied
    bool gate_head;  // ... with one gate per head, [D -> H] (spark2_5)
    bool gate_auto;  // ... per head or per element by the tensor's width, softplus (laguna)
    bool sinks_opt;  // attention sinks when the layer has them (mimo2)
};

// The attention of layer il for the rows whose reference reads it differently from the
// generic binder: q, k, v (or the fused qkv), wo with its scale and no bias, and o's options.
static void bind_own_attention(struct loader *ld, struct layer *L, int il, struct own_attn o) {
    struct model *m = ld->m;
    int D = m->hp.n_embd, H = L->n_head, Hkv = L->n_head_kv, d = L->head_dim, dv = L->head_dim_v;
    char b[64];
    if (H <= 0 || Hkv <= 0 || H % Hkv || d <= 0 || d > 1024 || dv <= 0 || dv > 1024 || L->n_rot > d || L->n_rot % 2 ||
        (o.gate && dv != d)) {
        ld_fail(ld, FRINK_ERR_FORMAT, "layer %d: attention dims are inconsistent (heads %d, kv heads %d, head dim %d/%d, rot %d)", il, H, Hkv, d, dv, L->n_rot);
        return;
    }
    feat_set(&L->feat, LF_ATTN);
    bool x = o.qkv_extras;
    snprintf(b, sizeof b, "blk.%d.attn_qkv.weight", il);
    if (gguf_tensor_index(ld->f, b) >= 0) {
        snprintf(b, sizeof b, "blk.%d.attn_qkv", il);
        L->wqkv = mat_take_b(ld, b, D, (int64_t)(H + Hkv) * d + (int64_t)Hkv * dv, 0, true, x, x);
        feat_set(&L->feat, LF_FUSED_QKV);
    } else {
        snprintf(b, sizeof b, "blk.%d.attn_q", il);
        L->wq = mat_take_b(ld, b, D, (int64_t)H * d, 0, true, x, x);
        snprintf(b, sizeof b, "blk.%d.attn_k", il);
        L->wk = mat_take_b(ld, b, D, (int64_t)Hkv * d, 0, true, x, x);
        snprintf(b, sizeof b, "blk.%d.attn_v", il);
        L->wv = mat_take_b(ld, b, D, (int64_t)Hkv * dv, 0, true, x, x);
    }
    snprintf(b, sizeof b, "blk.%d.attn_output", il);
    L->wo = mat_take_b(ld, b, (int64_t)H * dv, D, 0, true, true, false);
    if (o.qk_norm) {
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, d, true);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->k_norm = vec_take(ld, b, d, true);
        feat_set(&L->feat, LF_QK_NORM);
    }
    if (o.gate) {
        snprintf(b, sizeof b, "blk.%d.attn_gate.weight", il);
        const struct gguf_tensor *gt = gguf_find_tensor(ld->f, b);
        bool per_head = o.gate_head || (o.gate_auto && gt && gt->ne[1] == H);
        snprintf(b, sizeof b, "blk.%d.attn_gate", il);
        L->chat_wgate = mat_take_b(ld, b, D, per_head ? H : (int64_t)H * d, 0, true, false, false);
        feat_set(&L->feat, LF_ATTN_GATE_SEP);
        if (per_head) feat_set(&L->feat, LF_ATTN_GATE_HEAD);
        if (o.gate_auto) feat_set(&L->feat, LF_ATTN_GATE_SOFTPLUS);
    }
    snprintf(b, sizeof b, "blk.%d.attn_sinks.weight", il);
    if (o.sinks_opt && gguf_tensor_index(ld->f, b) >= 0) {
        L->attn_sinks = vec_take(ld, b, H, true);
        feat_set(&L->feat, LF_ATTN_SINKS);
    }
    if (m->hp.chat_attn_out_scale != 0) feat_set(&L->feat, LF_ATTN_OUT_SCALE);
    m->n_attn_layers++;
}

// mimo2's layer: its attention (q/k/v products without their biases or scales, which its
// reference loads and ignores: here they stay unread and refuse the file), and its FFN routed
// iff the layer has a router (layers may be dense, e.g. the first).
static void bind_mimo2(struct loader *ld, struct layer *L, int il) {
    bind_own_attention(ld, L, il, (struct own_attn){.sinks_opt = true});
    char b[64];
    snprintf(b, sizeof b, "blk.%d.ffn_gate_inp.weight", il);
    if (L->n_expert > 0 && gguf_tensor_index(ld->f, b) < 0) {
        L->n_expert = L->n_expert_used = 0;
        L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, hp_int(ld, "block_count", 0));
    }
}

// maple: swiglu_clamp_exp for layer il (a scalar or one per block), 0 when absent.
static float swiglu_limit(struct loader *ld, int il) {
    const struct gguf_kv *kv = kv_take(ld, "swiglu_clamp_exp");
    if (!kv) return 0;
    if (kv_is_num(kv)) return (float)kv_num(kv);
    if (kv->type != GGUF_VT_ARRAY || kv->v.arr.type == GGUF_VT_STRING || (uint64_t)il >= kv->v.arr.n) {
        ld_fail(ld, FRINK_ERR_FORMAT, "metadata '%s.swiglu_clamp_exp' must be a number or one per block", ld->arch);
        return 0;
    }
    return (float)gguf_arr_f64(kv, (uint64_t)il);
}

bool chatfam_bind_layer(struct loader *ld, struct layer *L, int il, int n_swa, int n_dense_lead) {
    uint64_t ax = ld->m->arch->flags2;
    bind_swa_rope(ld, L, il, n_swa, n_dense_lead);
    if (AX_FAM_IS(ax, AX_MIMO2)) {
        bind_mimo2(ld, L, il);
        return true;
    }
    if (AX_FAM_IS(ax, AX_AFMOE)) {
        // (the reference's n_no_rope_layer_step: 4, which afmoe's files do not set)
        L->chat_no_rope = (il + 1) % 4 == 0;
        bind_own_attention(ld, L, il, (struct own_attn){.qkv_extras = true, .qk_norm = true, .gate = true});
        return true;
    }
    if (AX_FAM_IS(ax, AX_SPARK2_5)) {
        bind_own_attention(ld, L, il, (struct own_attn){.qkv_extras = true, .gate = true, .gate_head = true});
        return true;
    }
    if (AX_FAM_IS(ax, AX_MUSE_GLIMMER)) {
        L->chat_no_rope = !feat_has(L->feat, LF_SWA);
        L->chat_post_norm_eps = 1e-8f; // (hard-coded in the reference's graph)
        bind_own_attention(ld, L, il, (struct own_attn){.qkv_extras = true, .qk_norm = true, .gate = true});
        return true;
    }
    if (AX_FAM_IS(ax, AX_LAGUNA)) {
        if (feat_has(L->feat, LF_SWA)) {
            L->chat_rope_plain = true;
            L->n_rot = hp_int(ld, "rope.dimension_count_swa", L->n_rot);
        }
        bind_own_attention(ld, L, il, (struct own_attn){.qkv_extras = true, .qk_norm = true, .gate = true, .gate_auto = true});
        return true;
    }
    if (AX_FAM_IS(ax, AX_COMMAND_R) && ld->m->hp.n_layer >= 64) {
        // (the reference reads them only there; elsewhere they stay unread and refuse the file)
        char b[64];
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, (int64_t)L->head_dim * L->n_head, true);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->k_norm = vec_take(ld, b, (int64_t)L->head_dim * L->n_head_kv, true);
        feat_set(&L->feat, LF_QK_LN_HEAD);
        return false;
    }
    if (AX_FAM_IS(ax, AX_MAPLE)) {
        L->chat_no_rope = !feat_has(L->feat, LF_SWA);
        L->chat_swiglu_limit = swiglu_limit(ld, il);
        return false;
    }
    if (!(ax & AX_QK_NORM_OPT)) return false;
    // Both norms or neither: a lone one stays unread, and so refuses the file by name.
    char qn[64], kn[64];
    snprintf(qn, sizeof qn, "blk.%d.attn_q_norm.weight", il);
    snprintf(kn, sizeof kn, "blk.%d.attn_k_norm.weight", il);
    if (gguf_tensor_index(ld->f, qn) < 0 || gguf_tensor_index(ld->f, kn) < 0) return false;
    L->q_norm = vec_take(ld, qn, L->head_dim, true);
    L->k_norm = vec_take(ld, kn, L->head_dim, true);
    feat_set(&L->feat, LF_QK_NORM);
    return false;
}

void chatfam_layer_features(const struct model *m, struct layer *L) {
    uint64_t ax = m->arch->flags2;
    if (L->chat_no_rope && feat_has(L->feat, LF_ATTN)) {
        static const int rope_feats[] = {LF_ROPE_NEOX, LF_ROPE_YARN, LF_ROPE_FREQS, LF_ROPE_SCALED, LF_ROPE_PARTIAL};
        for (size_t i = 0; i < sizeof rope_feats / sizeof rope_feats[0]; i++) feat_clear(&L->feat, rope_feats[i]);
        feat_set(&L->feat, LF_NO_ROPE);
    }
    if (L->chat_post_norm_eps != 0) feat_set(&L->feat, LF_POST_NORM_EPS);
    if (L->chat_rope_plain && feat_has(L->feat, LF_ATTN)) {
        feat_set(&L->feat, LF_ROPE_PLAIN);
        feat_clear(&L->feat, LF_ROPE_YARN);
        if (L->rope_scale == 1.0f) feat_clear(&L->feat, LF_ROPE_SCALED);
    }
    if (!feat_has(L->feat, LF_FFN_MOE)) return;
    if ((ax & AX_MOE_KEYS) && m->hp.moe_norm_w) feat_set(&L->feat, LF_MOE_NORM_W);
    if (L->chat_swiglu_limit > 1e-6f) feat_set(&L->feat, LF_SWIGLU_CLAMP); // (the reference's threshold)
    if (AX_FAM_IS(ax, AX_COHERE2MOE) && feat_has(L->feat, LF_FFN_SHEXP)) feat_set(&L->feat, LF_SHEXP_HALF);
}
