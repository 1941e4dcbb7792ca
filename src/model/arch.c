#include "arch.h"

#include <string.h>

#include "model.h"

// What the reference applies was measured per family (zeroing each optional
// tensor and watching the logits); the flags below follow those measurements,
// so a per-tensor `.scale` is applied exactly where the reference applies it
// and otherwise left unread — which the loader then refuses by name.
static const struct arch_info table[] = {
    {"llama", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W | AF_FFN_SCALES | AF_EXP_SCALES},
    {"mistral3", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W | AF_FFN_SCALES | AF_EXP_SCALES},
    {"smollm3", NULL, ROPE_NORM, AF_TIED_OK},
    {"qwen2", NULL, ROPE_NEOX, AF_TIED_OK | AF_OUTPUT_BIAS},
    {"qwen3", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_FFN_SCALES},
    {"qwen3moe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_MOE_NORM_W | AF_EXP_SCALES},
    {"qwen2moe", NULL, ROPE_NEOX, AF_SHEXP_GATE},
    {"qwen35", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_FFN_SCALES | AF_GDN_SCALES},
    {"qwen35moe", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_MOE_NORM_W | AF_SHEXP_GATE |
         AF_SHEXP_SCALES | AF_EXP_DOWN_SCALE_ONLY | AF_GDN_SCALES},
    {"qwen3next", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_MOE_NORM_W | AF_SHEXP_GATE |
         AF_SHEXP_SCALES | AF_EXP_DOWN_SCALE_ONLY | AF_GDN_GROUPED_V | AF_GDN_BA_FUSED},
    {"olmoe", "not implemented yet (routed MoE with full-width QK-norm)", 0, 0},
    {"olmo2", "not implemented yet (post-norms, full-width QK-norm)", 0, 0},
    {"gemma", "not implemented yet (GeGLU, embedding scale)", 0, 0},
    {"gemma2", "not implemented yet (softcaps, sliding window, sandwich norms)", 0, 0},
    {"gemma3", "not implemented yet (sliding window with its own RoPE base, sandwich norms)", 0, 0},
    {"gpt-oss", "not implemented yet (attention sinks, MXFP4 experts, YaRN)", 0, 0},
    {"deepseek2", "not implemented yet (multi-head latent attention)", 0, 0},
    {"granite", "not implemented yet (embedding, residual, attention and logit scales)", 0, 0},
    {"granitemoe", "not implemented yet (granite scales with routed experts)", 0, 0},
    {"phi3", "not implemented yet (fused QKV and gate-up, LongRoPE)", 0, 0},
    {"falcon", "not implemented yet (LayerNorm, parallel attention and FFN)", 0, 0},
    {"gptneox", "not implemented yet (LayerNorm, parallel residual, partial rotary)", 0, 0},
    {"starcoder2", "not implemented yet (LayerNorm with biases, GELU)", 0, 0},
    {"bloom", "not implemented yet (ALiBi, LayerNorm with biases)", 0, 0},
    {"mpt", "not implemented yet (ALiBi, clamp)", 0, 0},
};

const struct arch_info *arch_find(const char *name) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, name)) return &table[i];
    return NULL;
}

const struct arch_info *arch_at(int i) {
    if (i < 0 || (size_t)i >= sizeof table / sizeof table[0]) return NULL;
    return &table[i];
}
