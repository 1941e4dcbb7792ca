// dense.c — what the dense llama-like families add to the generic loader: the metadata rules
// the reference applies per family, read where the row says AX_DENSE_RULES, and the layer
// features of the group's AX_* flags. The rules are a table by architecture name, so a family
// that needs one more rule adds a bit here, not in the shared flag words.
#include "model/dense.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
    DR_BAICHUAN_SIZE = 1 << 0,  // RoPE only at 32 blocks, ALiBi (max bias 8) at 40, neither otherwise
    DR_LOOPS = 1 << 1,          // <arch>.num_loops > 1 (the stack run again) is refused
    DR_NO_EXPERTS = 1 << 2,     // expert_count is ignored: every layer has the dense FFN
    DR_WO_BIAS_UNUSED = 1 << 3, // attn_output.bias is loaded by the reference and never added
    DR_ROPE_ALPHA = 1 << 4,     // rope.scaling.alpha raises the RoPE base
    DR_MELLUM = 1 << 5,         // expert width default F / K, unscaled RoPE on the sliding layers
    DR_HALF_FF = 1 << 6,        // the FFN is feed_forward_length / 2 wide (qwen)
    DR_QK_LN_HEADS = 1 << 7,    // optional attn_q_norm [d][H] / attn_k_norm [d][Hkv]: per-head LayerNorms
    DR_MINICPM_SCALES = 1 << 8, // embedding / residual / logit scales with MiniCPM's defaults
    DR_WQKV_SCALE_UNUSED = 1 << 9, // attn_qkv.scale is loaded by the reference and never applied
    DR_ROT_FULL_HEAD = 1 << 10, // RoPE over the whole head whatever rope.dimension_count says (plamo)
    DR_KQ_SCALE_1_D = 1 << 11,  // attention logits scaled by 1 / head_dim, not 1 / sqrt(head_dim) (jais)
    DR_POST_NORMS_BARE = 1 << 12, // post_attention_norm / post_ffw_norm without ".weight" (plamo3)
    DR_LLAMA4 = 1 << 13,        // chunked / NoPE layers, temperature tuning, interleaved sigmoid MoE
    DR_DECI = 1 << 14,          // per-layer widths; attention-free, linear or FFN-free layers refused
    DR_REFACT = 1 << 15,        // ALiBi 8; FFN biases unapplied; layers with experts: silu(x) only
    DR_TALKIE = 1 << 16,        // logits times logit_scale, per-head q scales, embedding skips, down scale only
};

static const struct {
    const char *arch;
    unsigned rules;
} dense_rules[] = {
    {"baichuan", DR_BAICHUAN_SIZE},
    {"nanbeige", DR_LOOPS},
    {"ernie4_5", DR_NO_EXPERTS | DR_WO_BIAS_UNUSED},
    {"hunyuan-dense", DR_ROPE_ALPHA},
    {"mellum", DR_MELLUM},
    {"qwen", DR_HALF_FF},
    {"stablelm", DR_QK_LN_HEADS},
    {"minicpm", DR_MINICPM_SCALES},
    {"openelm", DR_WQKV_SCALE_UNUSED},
    {"plamo", DR_ROT_FULL_HEAD},
    {"jais", DR_KQ_SCALE_1_D},
    {"plamo3", DR_WQKV_SCALE_UNUSED | DR_POST_NORMS_BARE},
    {"llama4", DR_LLAMA4},
    {"deci", DR_DECI},
    {"refact", DR_REFACT | DR_WO_BIAS_UNUSED},
    {"talkie", DR_TALKIE},
};

// The rules of m's family (0 when it has none).
static unsigned rules_of(const struct model *m) {
    if (!(m->arch->flags2 & AX_DENSE_RULES)) return 0;
    for (size_t i = 0; i < sizeof dense_rules / sizeof dense_rules[0]; i++)
        if (!strcmp(dense_rules[i].arch, m->arch->name)) return dense_rules[i].rules;
    return 0;
}

// llama4's rules (the reference's load_arch_hparams): attention.sliding_window present and 0
// would turn the chunks and temperature tuning off, a form whose temperature scale the
// reference leaves at 0 (it asserts): refused. Otherwise chunks of 8192 whatever the key says,
// temperature floor 8192, scale 0.1, offset 1; sigmoid routing of interleaved MoE layers.
static void read_hparams_llama4(struct loader *ld) {
    struct hparams *hp = &ld->m->hp;
    const struct gguf_kv *sw = kv_take(ld, "attention.sliding_window");
    if (sw && kv_is_num(sw) && kv_num(sw) == 0) {
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s.attention.sliding_window' = 0 (llama4 without chunked attention) is not implemented", ld->arch);
        return;
    }
    // The reference fixes 0.1 and reads no temperature key: a file saying otherwise is refused.
    double ts = hp_num(ld, "attention.temperature_scale", 0);
    if (ts != 0 && (float)ts != 0.1f)
        ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.attention.temperature_scale' = %g: the reference fixes 0.1", ld->arch, ts);
    hp->attn_temp_floor = 8192;
    hp->attn_temp_scale = 0.1f;
    hp->attn_temp_offset = 1.0f;
    if (hp->n_expert > 0) {
        hp->gating = GATING_SIGMOID;
        if (hp_int(ld, "interleave_moe_layer_step", NAN) <= 0 && !ld->st)
            ld_fail(ld, FRINK_ERR_FORMAT, "'%s.interleave_moe_layer_step' must be positive", ld->arch);
    }
}

// llama4's layer il: chunked when the sliding pattern says so (RoPE base rope.freq_base_swa),
// NoPE with temperature tuning every 4th layer, else the weightless q/k norm after RoPE (not
// for the 128-expert model); MoE only every interleave_moe_layer_step layers.
static void layer_llama4(struct loader *ld, struct layer *L, int il) {
    struct hparams *hp = &ld->m->hp;
    int n_total = hp->n_layer + hp_int(ld, "nextn_predict_layers", 0);
    if (layer_is_swa(ld, il, n_total)) {
        feat_set(&L->feat, LF_ATTN_CHUNKED);
        L->attn_chunk = 8192;
        L->rope_base = (float)hp_num(ld, "rope.freq_base_swa", hp->rope_base);
    }
    if ((il + 1) % 4 == 0) feat_set(&L->feat, LF_ATTN_TEMP);
    else if (hp->n_expert != 128) feat_set(&L->feat, LF_QK_RMS_UNWEIGHTED);
    int step = hp_int(ld, "interleave_moe_layer_step", 0);
    if (L->n_expert > 0 && step > 0 && (il + 1) % step != 0) {
        L->n_expert = L->n_expert_used = 0;
        L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, n_total);
    }
}

void read_hparams_dense(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    unsigned r = rules_of(m);
    if (r & DR_BAICHUAN_SIZE) {
        // The reference decides by the block count alone (its model type): 32 blocks (7B) rotate,
        // 40 (13B) use ALiBi with max bias 8 and no RoPE, any other count neither.
        if (hp->n_layer != 32) hp->rope_mode = ROPE_NONE;
        if (hp->n_layer == 40) hp->alibi_max_bias = 8;
    }
    if (r & DR_LOOPS) {
        // A looped stack runs the physical layers num_loops times with output_norm between the
        // loops: not implemented, so refused by name.
        int loops = hp_int(ld, "num_loops", 1);
        if (loops > 1)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.num_loops' = %d: a looped layer stack is not implemented", ld->arch, loops);
    }
    if (r & DR_ROT_FULL_HEAD) hp->n_rot = hp->head_dim;
    if ((r & DR_KQ_SCALE_1_D) && hp->head_dim > 0) hp->f_attn_scale = 1.0f / (float)hp->head_dim;
    if (r & DR_NO_EXPERTS) hp->n_expert = hp->n_expert_used = 0;
    if (r & DR_ROPE_ALPHA) {
        // (rope.dimension_sections switch the reference to ggml_rope_multi, but with its NEOX
        // mode, which has no M-RoPE bit, that is the plain rotation: the sections do nothing.)
        // NTK-aware alpha: base * alpha^(d / (d - 2)), in float as the reference computes it.
        float alpha = (float)hp_num(ld, "rope.scaling.alpha", 0);
        int dim = hp->head_dim;
        if (alpha > 0 && dim > 2) hp->rope_base = hp->rope_base * powf(alpha, (float)dim / (float)(dim - 2));
    }
    if (r & DR_MINICPM_SCALES) {
        // Granite's graph with MiniCPM's defaults: embedding x12, residual 1.4 / sqrt(blocks),
        // logits / (256 / D), each overridden by its key when present.
        hp->f_emb_scale = (float)hp_num(ld, "embedding_scale", 12.0f);
        hp->f_residual_scale = (float)hp_num(ld, "residual_scale", 1.4f / sqrtf((float)hp->n_layer));
        hp->f_logit_scale = (float)hp_num(ld, "logit_scale", hp->n_embd ? 256.0f / (float)hp->n_embd : 1.0f);
    }
    if (r & DR_LLAMA4) read_hparams_llama4(ld);
    if (r & DR_TALKIE) {
        // The logits are multiplied by logit_scale; the output divides by hp.f_logit_scale (as
        // its reciprocal's product), so the reciprocal is kept only where that is the same float.
        float s = (float)hp_num(ld, "logit_scale", NAN);
        if (ld->st) return;
        hp->f_logit_scale = 1.0f / s;
        if (!(s > 0) || 1.0f / hp->f_logit_scale != s)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.logit_scale' = %g: a logit multiplier whose reciprocal does not round back to it is not implemented", ld->arch, s);
    }
    if (r & DR_REFACT) {
        // The reference fixes ALiBi's max bias at 8 and reads no key: one saying otherwise is refused.
        double mb = hp_num(ld, "attention.max_alibi_bias", 8);
        if (mb != 8 && mb != 0)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.attention.max_alibi_bias' = %g: the reference fixes 8", ld->arch, mb);
        hp->alibi_max_bias = 8;
    }
    if (r & DR_MELLUM) {
        // Its sliding layers rotate with freq_scale 1, no YaRN and attn_factor 1: only the
        // unscaled freq_scale is per layer here.
        if (hp->rope_ext_factor != 0 || hp->rope_attn_factor != 1.0f)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "'%s' with YaRN or a RoPE attention factor (unscaled on its sliding layers) is not implemented", ld->arch);
    }
}

void dense_layer_adjust(struct loader *ld, struct layer *L, int il) {
    unsigned r = rules_of(ld->m);
    if (r & DR_HALF_FF) L->n_ff /= 2;
    if (r & DR_LLAMA4) layer_llama4(ld, L, il);
    if (r & DR_TALKIE) {
        // q: RoPE, a weightless RMSNorm, one scale per head (attn_q_norm [1][H]); k: RoPE, the
        // weightless norm; the layer adds the normed embedding times layer_output_scale.
        char b[64];
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, L->n_head, true);
        snprintf(b, sizeof b, "blk.%d.layer_output_scale.weight", il);
        const float *os = vec_take(ld, b, 1, true);
        L->emb_skip_scale = os ? os[0] : 0;
        feat_set(&L->feat, LF_QK_RMS_UNWEIGHTED);
        feat_set(&L->feat, LF_Q_HEAD_SCALE);
        feat_set(&L->feat, LF_EMB_SKIP);
    }
    if ((r & DR_DECI) && (L->n_head == 0 || L->n_head_kv == 0 || L->n_ff == 0))
        // (per-layer head counts and FFN widths that are not 0 run as any attention layer)
        ld_fail(ld, FRINK_ERR_UNSUPPORTED,
                "layer %d: deci's attention-free (head_count 0), linear-attention (head_count_kv 0) and FFN-free (feed_forward_length 0) layers are not implemented",
                il);
    if (r & DR_POST_NORMS_BARE) {
        // The sandwich norms of the mixer and FFN outputs, named without a ".weight" suffix.
        char b[64];
        int D = ld->m->hp.n_embd;
        snprintf(b, sizeof b, "blk.%d.post_attention_norm", il);
        L->post_attn_norm = vec_take(ld, b, D, true);
        snprintf(b, sizeof b, "blk.%d.post_ffw_norm", il);
        L->post_ffn_norm = vec_take(ld, b, D, true);
        feat_set(&L->feat, LF_POST_ATTN_NORM);
        feat_set(&L->feat, LF_POST_FFN_NORM);
    }
    if (r & DR_QK_LN_HEADS) {
        char b[64];
        snprintf(b, sizeof b, "blk.%d.attn_q_norm.weight", il);
        L->q_norm = vec_take(ld, b, (int64_t)L->head_dim * L->n_head, false);
        snprintf(b, sizeof b, "blk.%d.attn_k_norm.weight", il);
        L->k_norm = vec_take(ld, b, (int64_t)L->head_dim * L->n_head_kv, false);
        if (L->q_norm || L->k_norm) feat_set(&L->feat, LF_QK_LN_HEADS);
    }
    if ((r & DR_MELLUM) && L->n_expert > 0 && L->n_expert_used > 0) {
        // Without expert_feed_forward_length an expert is feed_forward_length / experts used wide.
        int n_total = ld->m->hp.n_layer + hp_int(ld, "nextn_predict_layers", 0);
        if (hp_layer_int(ld, "expert_feed_forward_length", 0, il, n_total) == 0)
            L->n_ff = hp_layer_int(ld, "feed_forward_length", 0, il, n_total) / L->n_expert_used;
    }
}

bool dense_attention_untakes(const struct model *m) { return (rules_of(m) & (DR_WO_BIAS_UNUSED | DR_WQKV_SCALE_UNUSED)) != 0; }

// Marks blk.il.<suffix> unread again (when the file has it).
static void untake(struct loader *ld, int il, const char *suffix) {
    char name[96];
    snprintf(name, sizeof name, "blk.%d.%s", il, suffix);
    int64_t i = gguf_tensor_index(ld->f, name);
    if (i >= 0) ld->t_used[i] = 0;
}

void dense_attention_untake(struct loader *ld, struct layer *L, int il) {
    unsigned r = rules_of(ld->m);
    if (r & DR_WO_BIAS_UNUSED) {
        untake(ld, il, "attn_output.bias");
        L->wo.bias = NULL;
    }
    if (r & DR_WQKV_SCALE_UNUSED) {
        untake(ld, il, "attn_qkv.scale");
        L->wqkv.scale = NULL;
        L->wqkv.n_scale = 0;
    }
}

bool dense_ffn_bare(const struct model *m, const struct layer *L) { return (rules_of(m) & DR_REFACT) && L->n_expert > 0; }

void dense_layer_after_ffn(struct loader *ld, struct layer *L, int il) {
    unsigned r = rules_of(ld->m);
    if (r & DR_TALKIE) {
        // Only ffn_down's `.scale` is applied by its reference.
        untake(ld, il, "ffn_gate.scale");
        untake(ld, il, "ffn_up.scale");
        L->ffn_gate.scale = L->ffn_up.scale = NULL;
        L->ffn_gate.n_scale = L->ffn_up.n_scale = 0;
    }
    if (!(r & DR_REFACT)) return;
    if (L->n_expert > 0) {
        // Its router and experts stay unread: the reference's graph never reads them.
        L->n_expert = L->n_expert_used = 0;
        feat_set(&L->feat, LF_FFN_DENSE);
        feat_set(&L->feat, LF_FFN_ACT_ONLY);
        return;
    }
    static const char *const bias[] = {"ffn_gate.bias", "ffn_up.bias", "ffn_down.bias"};
    struct weight *w[] = {&L->ffn_gate, &L->ffn_up, &L->ffn_down};
    for (int i = 0; i < 3; i++) {
        untake(ld, il, bias[i]);
        w[i]->bias = NULL;
    }
}

bool dense_attn_dims_ok(const struct layer *L) {
    return L->n_head > 0 && L->n_head_kv > 0 && L->n_head % L->n_head_kv == 0 && L->head_dim > 0 && L->head_dim <= 1024 &&
           L->head_dim_v > 0 && L->head_dim_v <= 1024 && L->n_rot <= L->head_dim && L->n_rot % 2 == 0;
}

void dense_layer_features(const struct model *m, struct layer *L) {
    uint64_t ax = m->arch->flags2;
    if (feat_has(L->feat, LF_ATTN_TEMP)) {
        // llama4's NoPE layers: no rotation at all (so none of its variants either)
        static const int rope_feats[] = {LF_ROPE_NEOX, LF_ROPE_YARN, LF_ROPE_FREQS, LF_ROPE_SCALED, LF_ROPE_PARTIAL};
        for (size_t i = 0; i < sizeof rope_feats / sizeof rope_feats[0]; i++) feat_clear(&L->feat, rope_feats[i]);
        feat_set(&L->feat, LF_NO_ROPE);
    }
    if ((rules_of(m) & DR_LLAMA4) && feat_has(L->feat, LF_FFN_MOE)) feat_set(&L->feat, LF_MOE_WEIGHT_INPUT);
    if ((ax & AX_QK_NORM_POST_ROPE) && feat_has(L->feat, LF_QK_NORM)) feat_set(&L->feat, LF_QK_NORM_POST_ROPE);
    if ((ax & AX_RELU_SQR) && feat_has(L->feat, LF_FFN_UNGATED)) feat_set(&L->feat, LF_ACT_RELU_SQR);
    if (ax & AX_NORM_NONPARAM) {
        // The pre-norms exist but carry no tensors: norm_rows with a NULL weight is the
        // weightless LayerNorm, so the layer no longer skips them.
        feat_clear(&L->feat, LF_NO_ATTN_NORM);
        feat_clear(&L->feat, LF_NO_FFN_NORM);
        feat_set(&L->feat, LF_NORM_NONPARAM);
    }
}
