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
    // The families added per group, each group between its two markers (so that groups never
    // touch the same lines). A refused row says, in a sentence, what frink lacks for it.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    {"mamba2", NULL, ROPE_NONE, AF_TIED_OK, 0, .flags2 = AX_MAMBA2},
    // granitehybrid: the granite scales; a layer with no KV heads is Mamba-2. The reference's
    // FFN applies no per-tensor `.scale` (they stay unread), its attention applies them.
    {"granitehybrid", NULL, ROPE_NORM, AF_TIED_OK | AF_GRANITE | AF_MOE_NORM_W, 0, .flags2 = AX_MAMBA2_KV0 | AX_ROPE_FINETUNED},
    // nemotron_h(_moe): Mamba-2, attention (no RoPE) and ReLU^2 FFN layers, each alone in its block.
    {"nemotron_h", NULL, ROPE_NONE, AF_TIED_OK | AF_FFN_UNGATED | AF_FFN_SCALES, 0, .flags2 = AX_NEMOTRON_H},
    {"nemotron_h_moe", NULL, ROPE_NONE, AF_TIED_OK | AF_FFN_UNGATED | AF_FFN_SCALES, 0, .flags2 = AX_NEMOTRON_H},
    // falcon-h1: its FFN applies no per-tensor `.scale` (they stay unread); its attention does.
    {"falcon-h1", NULL, ROPE_NEOX, AF_TIED_OK, 0, .flags2 = AX_FALCON_H1 | AX_WO_NO_BIAS},
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    {"mamba", NULL, ROPE_NONE, AF_TIED_OK, 0, .flags2 = AX_MAMBA},
    {"jamba", NULL, ROPE_NONE, AF_TIED_OK, 0, .flags2 = AX_JAMBA},
    {"plamo2", NULL, ROPE_NEOX, AF_TIED_OK, 0, .flags2 = AX_PLAMO2},
    // lfm2, lfm2moe: the output norm is the tensor named token_embd_norm (the reference's name
    // fix); lfm2moe routes by sigmoid, always renormalized, with leading dense blocks.
    {"lfm2", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM, 0, .flags2 = AX_SHORTCONV | AX_OUT_NORM_TOK | AX_SWA_ALL_ATTN},
    {"lfm2moe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_DEEPSEEK_MOE | AF_MOE_NORM_W, 0,
     .flags2 = AX_SHORTCONV | AX_OUT_NORM_TOK},
    {"rwkv6", "the RWKV-6 time mix (data-dependent token shift through LoRAs, the WKV6 recurrence, per-head GroupNorm) and channel mix are not implemented", ROPE_NONE, 0, 0},
    {"rwkv7", "the RWKV-7 time mix (the WKV7 generalized delta rule with LoRA decay, in-context learning rate, value residual and gate) and channel mix are not implemented", ROPE_NONE, 0, 0},
    // <<<
    // >>> MLA and sparse-attention families
    {"kimi-linear", "Kimi Delta Attention (KDA) layers are not implemented", ROPE_NONE, 0, 0},
    {"minimax-01", "lightning (linear) attention layers are not implemented", ROPE_NONE, 0, 0},
    {"deepseek", "DeepSeek (v1) MoE layout is not verified", ROPE_NONE, 0, 0},
    {"deepseek32", "DeepSeek sparse attention (lightning indexer) is not implemented", ROPE_NONE, 0, 0},
    {"glm-dsa", "DeepSeek sparse attention (lightning indexer) is not implemented", ROPE_NONE, 0, 0},
    {"minicpm3", "MiniCPM3 latent attention is not verified", ROPE_NONE, 0, 0},
    {"mistral4", "Mistral 4 latent attention is not verified", ROPE_NONE, 0, 0},
    {"kimi-k3", "Kimi K3 attention is not implemented", ROPE_NONE, 0, 0},
    {"bailingmoe3", "Ling 3 linear attention layers are not implemented", ROPE_NONE, 0, 0},
    {"hy_v4", "Hunyuan v4 hyper-connections and sparse attention are not implemented", ROPE_NONE, 0, 0},
    {"dots3note", "dots3 sliding-window latent attention with an indexer is not implemented", ROPE_NONE, 0, 0},
    {"deepseek4", "DeepSeek V4 compressed attention and hyper-connections are not implemented", ROPE_NONE, 0, 0},
    {"qwen4exp", "Qwen4 hyper-connections and sparse attention are not implemented", ROPE_NONE, 0, 0},
    // <<<
    // >>> chat-format and sliding-window families
    // glm4: sandwich post-norms, fused [gate | up]; NORM RoPE, or M-RoPE (NEOX pairs) when the file
    // has rope sections (chatfam.c).
    {"glm4", NULL, ROPE_NORM, AF_TIED_OK | AF_POST_NORMS, 0, .flags2 = AX_MROPE_TEXT},
    // glm4moe: the pre-FFN norm is post_attention_norm; MTP (nextn) blocks are skipped by name.
    {"glm4moe", NULL, ROPE_NEOX, AF_TIED_OK | AF_FFN_NORM_PA, 0, .flags2 = AX_MROPE_TEXT | AX_MOE_KEYS | AX_QK_NORM_OPT},
    {"minimax-m2", NULL, ROPE_NEOX, AF_QK_NORM_FULL | AF_MOE_NORM_W, 0, .flags2 = AX_GATING_KEY},
    {"seed_oss", NULL, ROPE_NEOX, AF_TIED_OK | AF_FFN_NORM_PA, 0},
    // cohere2 (Command R7B): parallel LayerNorm block, SWA layers with RoPE, full layers without.
    {"cohere2", NULL, ROPE_NORM, AF_ALWAYS_TIED | AF_LAYERNORM | AF_PARALLEL | AF_FFN_SCALES | AF_SWA, 4,
     .flags2 = AX_LOGIT_MUL | AX_SWA_ROPE_ONLY},
    {"cohere2moe", NULL, ROPE_NORM,
     AF_TIED_OK | AF_LAYERNORM | AF_PARALLEL | AF_FFN_SCALES | AF_EXP_SCALES | AF_SHEXP_SCALES | AF_SWA, 4,
     .flags2 = AX_MOE_KEYS | AX_LOGIT_MUL | AX_SWA_ROPE_ONLY | AX_COHERE2MOE},
    // command-r: per-head q/k LayerNorms in the models of 64 blocks or more (as the reference reads them).
    {"command-r", NULL, ROPE_NORM, AF_ALWAYS_TIED | AF_LAYERNORM | AF_PARALLEL, 0, .flags2 = AX_LOGIT_MUL | AX_COMMAND_R},
    // exaone4: post-norms only (olmo2's block) with per-head q/k norms; the 64-block model slides.
    {"exaone4", NULL, ROPE_NEOX, AF_TIED_OK | AF_NO_PRE_NORM | AF_POST_NORMS | AF_QK_NORM | AF_SWA, 4, .swa_window = 4096,
     .flags2 = AX_SWA_ROPE_ONLY | AX_EXAONE4_SWA},
    // granite_swa: granite's scales, attention sinks, a per-layer sliding pattern (array) and RoPE pattern.
    {"granite_swa", NULL, ROPE_NORM, AF_TIED_OK | AF_GRANITE | AF_SINKS | AF_SWA, 0, .flags2 = AX_GRANITE_SWA},
    // mimo2: the sliding layers rotate unscaled with rope.freq_base_swa (10000 when absent).
    {"mimo2", NULL, ROPE_NEOX, AF_MOE_NORM_W | AF_SWA | AF_SWA_ROPE_UNSCALED, 0, .swa_rope_base = 10000, .flags2 = AX_MIMO2},
    {"maple", NULL, ROPE_NEOX, AF_QK_NORM | AF_MOE_NORM_W | AF_SWA, 0, .flags2 = AX_MAPLE},
    {"spark2_5", NULL, ROPE_NEOX, AF_TIED_OK | AF_GELU | AF_SWA, 0, .flags2 = AX_SPARK2_5},
    {"muse-glimmer", NULL, ROPE_NORM, AF_POST_NORMS | AF_SWA | AF_SWA_ROPE_UNSCALED | AF_FINAL_SOFTCAP, 4,
     .flags2 = AX_LOGIT_MUL | AX_MUSE_GLIMMER},
    {"afmoe", NULL, ROPE_NEOX, AF_TIED_OK | AF_EMB_SQRT | AF_POST_NORMS | AF_SWA, 4, .flags2 = AX_MOE_KEYS | AX_AFMOE},
    {"minimax-m3", "MiniMax sparse attention (the indexer's per-query top-k selection of key blocks, with its own key cache) is not implemented",
     ROPE_NONE, 0, 0},
    {"laguna", NULL, ROPE_NEOX, AF_TIED_OK | AF_SWA | AF_SWA_ROPE_UNSCALED, 4, .flags2 = AX_MOE_KEYS | AX_LAGUNA},
    // <<<
    // >>> dense families
    // llama4: chunked attention on the layers of the sliding pattern (period 4), NoPE with
    // temperature tuning every 4th layer, MoE every interleave_moe_layer_step (model/dense.c).
    {"llama4", NULL, ROPE_NORM, AF_TIED_OK, 4, .flags2 = AX_DENSE_RULES},
    // The families with AX_DENSE_RULES have their metadata rules in model/dense.c (baichuan's
    // positions by block count, nanbeige's loops, ...). Where a row lacks AF_FFN_SCALES, the
    // reference's graph passes no `.scale` to its FFN: they stay unread.
    {"baichuan", NULL, ROPE_NORM, 0, 0, .flags2 = AX_DENSE_RULES},
    {"internlm2", NULL, ROPE_NORM, 0, 0},
    {"xverse", NULL, ROPE_NORM, 0, 0},
    {"orion", NULL, ROPE_NEOX, AF_LAYERNORM, 0},
    {"refact", NULL, ROPE_NONE, AF_TIED_OK, 0, .flags2 = AX_DENSE_RULES},
    {"minicpm", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W, 0, .flags2 = AX_DENSE_RULES},
    // stablelm: a layer without ffn_norm (its FFN reading attn_norm's output) is refused by name.
    {"stablelm", NULL, ROPE_NEOX, AF_LAYERNORM, 0, .flags2 = AX_DENSE_RULES},
    {"qwen", NULL, ROPE_NEOX, 0, 0, .flags2 = AX_DENSE_RULES},
    {"exaone", NULL, ROPE_NEOX, AF_TIED_OK, 0},
    {"nanbeige", NULL, ROPE_NORM, AF_TIED_OK | AF_FFN_SCALES, 0, .flags2 = AX_DENSE_RULES},
    {"hunyuan-dense", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM, 0, .flags2 = AX_DENSE_RULES | AX_QK_NORM_POST_ROPE},
    {"ernie4_5", NULL, ROPE_NORM, AF_TIED_OK, 0, .flags2 = AX_DENSE_RULES},
    {"mellum", NULL, ROPE_NEOX, AF_QK_NORM | AF_MOE_NORM_W | AF_EXP_SCALES | AF_SWA | AF_SWA_ROPE_UNSCALED, 4,
     .flags2 = AX_DENSE_RULES},
    {"maincoder", NULL, ROPE_NORM, AF_TIED_OK | AF_QK_NORM, 0, .flags2 = AX_QK_NORM_POST_ROPE},
    {"arcee", NULL, ROPE_NORM, AF_TIED_OK | AF_FFN_UNGATED, 0, .flags2 = AX_RELU_SQR},
    {"deci", NULL, ROPE_NORM, AF_TIED_OK, 0, .flags2 = AX_DENSE_RULES},
    {"nemotron", NULL, ROPE_NEOX, AF_LAYERNORM | AF_FFN_UNGATED, 0, .flags2 = AX_RELU_SQR},
    {"openelm", NULL, ROPE_NEOX, AF_ALWAYS_TIED | AF_QK_NORM, 0, .flags2 = AX_DENSE_RULES},
    {"olmo", NULL, ROPE_NORM, AF_TIED_OK | AF_LAYERNORM | AF_NO_PRE_NORM | AF_CLAMP_KQV, 0, .flags2 = AX_NORM_NONPARAM},
    {"plamo", NULL, ROPE_NEOX, AF_PARALLEL, 0, .flags2 = AX_DENSE_RULES},
    {"plamo3", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_SWA, 8, .flags2 = AX_DENSE_RULES},
    {"jais", NULL, ROPE_NONE, AF_LAYERNORM | AF_ALIBI_KEY, 0, .flags2 = AX_DENSE_RULES},
    {"jais2", NULL, ROPE_NEOX, AF_TIED_OK | AF_LAYERNORM | AF_FFN_UNGATED, 0, .flags2 = AX_RELU_SQR},
    {"pangu-embedded", NULL, ROPE_NEOX, AF_TIED_OK | AF_OUTPUT_BIAS, 0},
    {"talkie", NULL, ROPE_NEOX, AF_NO_PRE_NORM | AF_FFN_SCALES, 0, .flags2 = AX_DENSE_RULES | AX_NORM_NONPARAM | AX_TOK_RMS_BARE},
    {"hrm_text", "the HRM's hierarchical H/L cycles (stacks of shared layers re-run on z_H + z_L from hrm_z_l_init, gated attention, weightless norms) are not implemented", ROPE_NONE, 0, 0},
    // <<<
    // >>> MoE families
    {"arctic", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W, 0, .flags2 = AX_MOE_BESIDE_DENSE},
    {"dbrx", NULL, ROPE_NEOX, AF_LAYERNORM | AF_CLAMP_KQV | AF_MOE_NORM_W, 0, .flags2 = AX_FFN_NORM_AON},
    {"grok", NULL, ROPE_NEOX, AF_TIED_OK | AF_GELU | AF_MOE_NORM_W, 0, .flags2 = AX_GROK},
    // phimoe: phi3's block (q scaled after RoPE, LongRoPE's short factors) with biased RMSNorms and
    // softmax top-2 experts (its sparsemixer routing at training time is that at inference).
    {"phimoe", NULL, ROPE_NEOX, AF_Q_PRESCALE | AF_OUTPUT_BIAS | AF_MOE_NORM_W, 0, .flags2 = AX_RMS_NORM_BIAS},
    // dots1: DeepSeek-style routing metadata (leading dense blocks, gating function, weight
    // norm/scale, exp_probs_b) on a plain attention block with per-head q/k norms.
    {"dots1", NULL, ROPE_NEOX, AF_QK_NORM | AF_DEEPSEEK_MOE, 0},
    {"ernie4_5-moe", NULL, ROPE_NORM, AF_TIED_OK | AF_MOE_NORM_W, 0, .flags2 = AX_MOE_STEP | AX_WO_NO_BIAS},
    {"hunyuan-moe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_MOE_NORM_W, 0, .flags2 = AX_HUNYUAN_MOE},
    {"hy_v3", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_EXP_DOWN_SCALE_ONLY | AF_SHEXP_SCALES | AF_FFN_SCALES, 0,
     .flags2 = AX_HY_V3},
    {"bailingmoe", NULL, ROPE_NORM, 0, 0, .flags2 = AX_MOE_NORM_KEYS},
    // bailingmoe2: fused qkv, per-head q/k norms, DeepSeek-style routing metadata (sigmoid, groups,
    // exp_probs_b, leading dense blocks); its MTP blocks are named and skipped.
    {"bailingmoe2", NULL, ROPE_NEOX, AF_QK_NORM | AF_DEEPSEEK_MOE, 0},
    // exaone-moe: 3 sliding layers of 4 (window 128 unless the file says) rotate, the fourth is NoPE;
    // DeepSeek-style routing metadata; attn_output.bias not applied; MTP blocks skipped by name.
    {"exaone-moe", NULL, ROPE_NEOX, AF_QK_NORM | AF_DEEPSEEK_MOE | AF_SWA, 4, .swa_window = 128,
     .flags2 = AX_WO_NO_BIAS | AX_ROPE_SWA_ONLY},
    {"grovemoe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_MOE_NORM_W, 0, .flags2 = AX_GROVE},
    {"smallthinker", NULL, ROPE_NEOX, AF_TIED_OK | AF_MOE_NORM_W, 0, .flags2 = AX_SMALLTHINKER},
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    {"gpt2", "'gpt2' is not verified against the reference", ROPE_NONE, 0, 0},
    {"starcoder", "'starcoder' is not verified against the reference", ROPE_NONE, 0, 0},
    {"codeshell", "'codeshell' is not verified against the reference", ROPE_NONE, 0, 0},
    {"phi2", "'phi2' is not verified against the reference", ROPE_NONE, 0, 0},
    {"chatglm", "'chatglm' is not verified against the reference", ROPE_NONE, 0, 0},
    {"qwen2vl", "multi-section RoPE (M-RoPE) of the text tower is not implemented", ROPE_NONE, 0, 0},
    {"qwen3vl", "multi-section RoPE (M-RoPE) and deepstack inputs are not implemented", ROPE_NONE, 0, 0},
    {"qwen3vlmoe", "multi-section RoPE (M-RoPE) and deepstack inputs are not implemented", ROPE_NONE, 0, 0},
    {"hunyuan_vl", "Hunyuan-VL text tower is not verified", ROPE_NONE, 0, 0},
    {"paddleocr", "PaddleOCR-VL text tower is not verified", ROPE_NONE, 0, 0},
    {"cogvlm", "CogVLM visual experts are not implemented", ROPE_NONE, 0, 0},
    {"qwen3tts", "text-to-speech codec heads are not implemented: frink runs language models", ROPE_NONE, 0, 0},
    {"pockettts", "text-to-speech model: frink runs language models", ROPE_NONE, 0, 0},
    {"dream", "diffusion language model (non-causal decoding) is not implemented", ROPE_NONE, 0, 0},
    {"llada", "diffusion language model (non-causal decoding) is not implemented", ROPE_NONE, 0, 0},
    {"llada-moe", "diffusion language model (non-causal decoding) is not implemented", ROPE_NONE, 0, 0},
    {"rnd1", "diffusion language model (non-causal decoding) is not implemented", ROPE_NONE, 0, 0},
    {"bitnet", "BitNet sub-norms and ternary scaling are not implemented", ROPE_NONE, 0, 0},
    {"gemma3n", "per-layer embeddings and AltUp are not implemented", ROPE_NONE, 0, 0},
    {"bert", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"nomic-bert", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"t5", "encoder-decoder model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"t5encoder", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    // <<<
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
