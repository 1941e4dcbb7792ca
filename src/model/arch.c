#include "arch.h"

#include <string.h>

#include "model.h"

// What the reference applies was measured per family (zeroing each optional
// tensor and watching the logits); the flags below follow those measurements,
// so a per-tensor `.scale` is applied exactly where the reference applies it
// and otherwise left unread — which the loader then refuses by name.
// A row names only the defaults it changes (the fields after swa_pattern), by designator; the
// rest are 0, which -Wextra would otherwise report for every row.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct arch_info table[] = {
    {"llama", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W | AF_FFN_SCALES | AF_EXP_SCALES, 0},
    {"mistral3", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W | AF_FFN_SCALES | AF_EXP_SCALES, 0},
    {"smollm3", NULL, ROPE_NORM, AF_TIED_OK, 0},
    {"qwen2", NULL, ROPE_NEOX, AF_TIED_OK | AF_OUTPUT_BIAS, 0},
    {"qwen3", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_FFN_SCALES, 0},
    {"qwen3moe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_MOE_NORM_W | AF_EXP_SCALES, 0},
    {"qwen2moe", NULL, ROPE_NEOX, AF_SHEXP_GATE, 0},
    {"qwen35", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_FFN_SCALES | AF_GDN_SCALES | AF_FFN_NORM_PA |
         AF_ROPE_SECTIONS, 0},
    {"qwen35moe", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_MOE_NORM_W | AF_SHEXP_GATE | AF_SHEXP_SCALES |
         AF_EXP_DOWN_SCALE_ONLY | AF_GDN_SCALES | AF_FFN_NORM_PA | AF_ROPE_SECTIONS, 0},
    {"qwen3next", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_QK_NORM | AF_HYBRID_GDN | AF_GATED_ATTN | AF_MOE_NORM_W | AF_SHEXP_GATE | AF_SHEXP_SCALES |
         AF_EXP_DOWN_SCALE_ONLY | AF_GDN_GROUPED_V | AF_GDN_BA_FUSED | AF_FFN_NORM_PA, 0},
    {"olmoe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM_FULL, 0},
    {"olmo2", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_NO_PRE_NORM | AF_POST_NORMS | AF_QK_NORM_FULL | AF_SWA | AF_SWA_ROPE_UNSCALED, 4},
    // gemma, gemma2: the output head is always token_embd (an output.weight stays unread).
    // The 27B models (46 blocks gemma2, 62 gemma3) scale queries by 1/sqrt(D/H).
    {"gemma", NULL, ROPE_NEOX, AF_ALWAYS_TIED | AF_GELU | AF_EMB_SQRT | AF_Q_PRESCALE, 0},
    {"gemma2", NULL, ROPE_NEOX,
     AF_ALWAYS_TIED | AF_GELU | AF_EMB_SQRT | AF_Q_PRESCALE | AF_POST_NORMS | AF_ATTN_SOFTCAP | AF_FINAL_SOFTCAP | AF_SWA, 2,
     .swa_window = 4096, .final_softcap = 30, .q_scale_n_layer = 46},
    {"gemma3", NULL, ROPE_NEOX,
     AF_TIED_OK | AF_GELU | AF_EMB_SQRT | AF_Q_PRESCALE | AF_POST_NORMS | AF_QK_NORM | AF_FINAL_SOFTCAP | AF_SWA |
         AF_SWA_ROPE_UNSCALED, 6, .swa_rope_base = 10000, .q_scale_n_layer = 62},
    {"gpt-oss", NULL, ROPE_NEOX,
     AF_FFN_NORM_PA | AF_SINKS | AF_SWA | AF_SWIGLU_OAI | AF_MOE_SOFTMAX_K | AF_MOE_BIASES, 2},
    {"deepseek2", NULL, ROPE_NORM, AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE, 0},
    {"granite", NULL, ROPE_NORM, AF_TIED_OK | AF_GRANITE, 0},
    {"granitemoe", NULL, ROPE_NORM, AF_TIED_OK | AF_GRANITE | AF_MOE_NORM_W, 0},
    {"phi3", NULL, ROPE_NEOX, AF_TIED_OK | AF_Q_PRESCALE, 0},
    {"falcon", NULL, ROPE_NEOX, AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_PARALLEL, 0},
    {"gptneox", NULL, ROPE_NEOX, AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_PARALLEL_KEY, 0},
    {"starcoder2", NULL, ROPE_NEOX, AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED, 0},
    {"bloom", NULL, ROPE_NONE, AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_TOK_NORM | AF_ALIBI_8, 0},
    // mpt: blk.N.ffn.act.scales (AWQ) divide the GELU output, as in the reference.
    {"mpt", NULL, ROPE_NONE,
     AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_ALIBI_KEY | AF_CLAMP_KQV | AF_QK_LN_OPT | AF_POS_EMBD |
         AF_FFN_ACT_SCALES, 0},
    // Families people run that frink does not implement yet: named, with the reason.
    {"mamba", "selective state-space (Mamba) layers are not implemented", ROPE_NONE, 0, 0},
    {"mamba2", "selective state-space (Mamba-2) layers are not implemented", ROPE_NONE, 0, 0},
    {"rwkv6", "RWKV time-mix layers are not implemented", ROPE_NONE, 0, 0},
    {"rwkv7", "RWKV time-mix layers are not implemented", ROPE_NONE, 0, 0},
    {"bitnet", "BitNet sub-norms and ternary scaling are not implemented", ROPE_NONE, 0, 0},
    {"command-r", "parallel blocks with LayerNorm and logit scale are not verified", ROPE_NONE, 0, 0},
    {"cohere2", "sliding-window interleave of Command R7B is not implemented", ROPE_NONE, 0, 0},
    {"gemma3n", "per-layer embeddings and AltUp are not implemented", ROPE_NONE, 0, 0},
    {"glm4moe", "GLM-4.5 MoE routing and its MTP layout are not verified", ROPE_NONE, 0, 0},
    {"bert", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"nomic-bert", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"t5", "encoder-decoder model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"t5encoder", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
};
#pragma GCC diagnostic pop

const struct arch_info *arch_find(const char *name) {
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(table[i].name, name)) return &table[i];
    return NULL;
}

const struct arch_info *arch_at(int i) {
    if (i < 0 || (size_t)i >= sizeof table / sizeof table[0]) return NULL;
    return &table[i];
}
