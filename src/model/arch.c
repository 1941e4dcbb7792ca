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
    // kimi-linear: Kimi Delta Attention (model/kda.c) where attention.head_count_kv is 0, latent
    // attention without RoPE elsewhere; renormalized routing with shared experts. Only the
    // attention output's `.scale` of the MLA layers is applied, as in the reference.
    {"kimi-linear", NULL, ROPE_NONE, AF_MLA | AF_DEEPSEEK_MOE | AF_MOE_NORM_W, 0, .flags2 = AX_KIMI_LINEAR},
    // minimax-01: lightning attention (model/lightning.c) on attention.recurrent_layers (else all
    // but every full_attention_interval-th), NeoX attention with scaled, biased q/k/v elsewhere,
    // DeepNorm residuals, renormalized softmax routing (expert scales not applied).
    {"minimax-01", NULL, ROPE_NEOX, AF_TIED_OK | AF_MOE_NORM_W, 0, .flags2 = AX_MINIMAX01},
    // deepseek (v1): llama attention (q/k/v biases and scales applied), leading dense blocks,
    // softmax routing with shared experts; the FFN and expert `.scale` tensors are not applied by
    // the reference (left unread).
    {"deepseek", NULL, ROPE_NORM, AF_TIED_OK | AF_DEEPSEEK_MOE, 0},
    // deepseek32, glm-dsa: deepseek2's latent attention with the dense and expert FFN scales
    // applied, and the lightning indexer of DeepSeek sparse attention bound but not computed:
    // frink runs them only while a sequence holds at most attention.indexer.top_k positions,
    // where the indexer selects every position (model/dsa.c); a longer sequence is refused.
    {"deepseek32", NULL, ROPE_NORM,
     AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE | AF_FFN_SCALES | AF_EXP_SCALES | AF_SHEXP_SCALES, 0, .flags2 = AX_DSA},
    {"glm-dsa", NULL, ROPE_NORM,
     AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE | AF_FFN_SCALES | AF_EXP_SCALES | AF_SHEXP_SCALES, 0,
     .flags2 = AX_DSA | AX_DSA_TYPES},
    // minicpm3: the MHA form of latent attention (model/minicpm3.c) and the reference's fixed
    // scales. (Known wart: the reference scales the normed output rows by 256/D before the head;
    // frink divides the logits by D/256, equal to rounding, exact at D = 256. As for phi3, the
    // short RoPE factors serve; rope_factors_long stays unread: the reference switches to it
    // past rope.scaling.original_context_length.)
    {"minicpm3", NULL, ROPE_NEOX, AF_TIED_OK, 0, .flags2 = AX_MINICPM3},
    // mistral4: the reference runs it as deepseek2 (same hparams, tensors and graph).
    {"mistral4", NULL, ROPE_NORM, AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE, 0},
    {"kimi-k3", "Kimi K3's cross-layer attention residuals (attn_res.block_size, attn_res_score / ffn_res_score), routed experts in a latent space (expert_latent_length, ffn_routed_down/up) and the SiTU activation are not implemented", ROPE_NONE, 0, 0},
    // bailingmoe3: kimi-linear's KDA with the safe sigmoid gate where head_count_kv is 0, latent
    // attention gated per head elsewhere; FFN, expert and output scales are not applied.
    {"bailingmoe3", NULL, ROPE_NORM, AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE, 0, .flags2 = AX_KIMI_LINEAR | AX_KDA_SIGMOID_GATE},
    {"hy_v4", "Hunyuan v4's independent hyper-connections (hyper_connection.count residual streams mixed by hc_attn / hc_ffn / hc_head) are not implemented", ROPE_NONE, 0, 0},
    // dots3note: deepseek32's latent attention (same indexer condition: positions <= top_k) on the
    // full layers, a window on the sliding ones (their own MLA dims and RoPE base), k_pe
    // RMS-normed before RoPE, heads gated by sigmoid(attn_gate x); FFN and expert scales applied.
    {"dots3note", NULL, ROPE_NORM,
     AF_TIED_OK | AF_MLA | AF_DEEPSEEK_MOE | AF_FFN_SCALES | AF_EXP_SCALES | AF_SHEXP_SCALES | AF_SWA, 0,
     .flags2 = AX_DSA | AX_DOTS3},
    {"deepseek4", "DeepSeek V4's hyper-connections (Sinkhorn-mixed residual streams), compressed attention (attention.compress_ratios) and hash-routed leading layers are not implemented", ROPE_NONE, 0, 0},
    {"qwen4exp", "Qwen4's hyper-connection residual streams, block-sparse attention over compressed key blocks (attention.compress_ratios with a mean-pooled indexer) and n-gram hash embeddings are not implemented", ROPE_NONE, 0, 0},
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
    // gpt2, starcoder: learned positions, LayerNorm, fused qkv with bias, ungated GELU FFN; the
    // reference applies the attention matrices' `.scale` and not the FFN's (left unread).
    {"gpt2", NULL, ROPE_NONE, AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_POS_EMBD, 0,
     .flags2 = AX_POS_EMBD_REQ},
    {"starcoder", NULL, ROPE_NONE, AF_TIED_OK | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_POS_EMBD, 0,
     .flags2 = AX_POS_EMBD_REQ},
    // codeshell: gpt2's block with NeoX RoPE instead of learned positions; output.weight required.
    {"codeshell", NULL, ROPE_NEOX, AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED, 0, .flags2 = AX_NO_ROPE_FREQS},
    // phi2: parallel block (x + attn(n) + ffn(n), one LayerNorm), partial NeoX RoPE, q scaled after
    // RoPE with kq scale 1, biased projections and an output bias.
    {"phi2", NULL, ROPE_NEOX,
     AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_PARALLEL | AF_Q_PRESCALE | AF_OUTPUT_BIAS, 0,
     .flags2 = AX_NO_ROPE_FREQS},
    // chatglm: RMSNorm llama blocks with biased q/k/v, NORM RoPE over rope.dimension_count (half the
    // head in the real models), and ffn_up holding [gate | up] for SwiGLU.
    {"chatglm", NULL, ROPE_NORM, AF_TIED_OK, 0, .flags2 = AX_FFN_UNBIASED | AX_WO_NO_BIAS | AX_NO_ROPE_FREQS},
    // The vision-language text towers, text tokens only (what frink feeds them): M-RoPE in its
    // text form is NeoX RoPE with the fourth stream's pairs unrotated (vlm.h); image inputs (and
    // qwen3vl's deepstack embeddings, which add zeros to text rows) are not part of a language
    // model's input here. None of this section's graphs applies RoPE frequency factors (hunyuan_vl
    // asks for them, but its layers bind none): AX_NO_ROPE_FREQS.
    // qwen2vl: qwen2's blocks with sequential M-RoPE sections; the reference loads output.bias and
    // does not add it (it stays unread).
    {"qwen2vl", NULL, ROPE_NEOX, AF_TIED_OK, 0, .flags2 = AX_VL_MROPE | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // qwen3vl, qwen3vlmoe: qwen3's / qwen3moe's blocks with interleaved M-RoPE sections; no
    // per-tensor FFN or expert scales (the reference passes none).
    {"qwen3vl", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM, 0,
     .flags2 = AX_VL_IMROPE | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    {"qwen3vlmoe", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM | AF_MOE_NORM_W, 0,
     .flags2 = AX_VL_IMROPE | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // hunyuan_vl: llama blocks with biased q/k/v, per-head q/k RMSNorms after RoPE, M-RoPE (text
    // form) when its sections say so, else NeoX; rope.scaling.alpha raises the base (XDRoPE).
    {"hunyuan_vl", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM, 0,
     .flags2 = AX_VL_MROPE | AX_HUNYUAN_VL | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // paddleocr: ernie4_5's dense blocks (biased q/k/v/o) with M-RoPE; the reference builds no
    // experts for it whatever expert_count says.
    {"paddleocr", NULL, ROPE_NEOX, AF_TIED_OK, 0,
     .flags2 = AX_VL_MROPE | AX_NO_EXPERTS | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // cogvlm: text tokens run the language expert only (vlm.h); NeoX RoPE with ggml_rope's fixed
    // base 10000 (rope_freqs.weight and the file's RoPE base and scaling are not used).
    {"cogvlm", NULL, ROPE_NEOX, AF_TIED_OK, 0, .flags2 = AX_COGVLM | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // qwen3tts: qwen3vl's text tower; the reference's codec-head form (an output of 3072 rows
    // under a larger token table, the rest of the logits -inf) fails the output's shape check.
    {"qwen3tts", NULL, ROPE_NEOX, AF_TIED_OK | AF_QK_NORM, 0,
     .flags2 = AX_VL_IMROPE | AX_FFN_UNBIASED | AX_NO_ROPE_FREQS},
    // pockettts: the text model of Pocket TTS runs as a language model: LayerNorm blocks with
    // biased q/k/v, NORM RoPE, an ungated GELU FFN, the output tied to token_embd.
    {"pockettts", NULL, ROPE_NORM, AF_ALWAYS_TIED | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED, 0,
     .flags2 = AX_FFN_UNBIASED | AX_WO_NO_BIAS | AX_NO_ROPE_FREQS},
    // (the reference's own batch and token-by-token logits of these fixtures differ by nmse ~2e-4)
    {"dream",
     "diffusion language model: non-causal attention (a token's logits depend on later tokens of its batch) and "
     "generation by iterative unmasking are not implemented",
     ROPE_NONE, 0, 0},
    {"llada",
     "diffusion language model: non-causal attention (a token's logits depend on later tokens of its batch) and "
     "generation by iterative unmasking are not implemented",
     ROPE_NONE, 0, 0},
    {"llada-moe",
     "diffusion language model: non-causal attention (a token's logits depend on later tokens of its batch) and "
     "generation by iterative unmasking are not implemented",
     ROPE_NONE, 0, 0},
    {"rnd1",
     "diffusion language model: non-causal attention (a token's logits depend on later tokens of its batch) and "
     "generation by iterative unmasking are not implemented",
     ROPE_NONE, 0, 0},
    {"bitnet", "BitNet's sub-norms (attn_sub_norm before attn_output, ffn_sub_norm before ffn_down) are not "
     "implemented", ROPE_NONE, 0, 0},
    {"gemma3n", "Gemma 3n's per-layer embeddings, AltUp and LAuReL blocks are not implemented", ROPE_NONE, 0, 0},
    {"t5", "encoder-decoder model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    {"t5encoder", "encoder-only model: frink runs decoder-only language models", ROPE_NONE, 0, 0},
    // <<<
    // >>> encoders: BERT and the families built on its graph
    // bert: learned absolute positions, token types, the embedding LayerNorm, post-norm blocks,
    // a GELU FFN with biases; non-causal attention over each whole input.
    {"bert", NULL, ROPE_NONE,
     AF_ENCODER | AF_ENC_BERT | AF_ENC_CLS | AF_LAYERNORM | AF_GELU | AF_FFN_UNGATED | AF_TOK_NORM | AF_POS_EMBD |
         AF_NO_PRE_NORM, 0, .flags2 = AX_POS_EMBD_REQ},
    // nomic-bert: BERT's post-norm graph with NEOX RoPE on q and k instead of learned positions and
    // a SiLU-gated FFN whose biases the reference loads and does not add (left unread); no
    // classification head is read (cls tensors stay unread).
    {"nomic-bert", NULL, ROPE_NEOX, AF_ENCODER | AF_ENC_BERT | AF_LAYERNORM | AF_TOK_NORM | AF_NO_PRE_NORM, 0,
     .flags2 = AX_FFN_UNBIASED},
    // neo-bert: RMSNorm pre-norm blocks, a fused qkv, NORM RoPE (consecutive pairs), SwiGLU on
    // ffn_up's [gate | up] halves, no biases on the output or the FFN, the final RMSNorm
    // enc.output_norm; cls / cls.output as a reranker's head.
    {"neo-bert", NULL, ROPE_NORM, AF_ENCODER | AF_ENC_CLS | AF_ENC_OUT_NORM_ENC, 0,
     .flags2 = AX_FFN_UNBIASED | AX_WO_NO_BIAS},
    // eurobert: Llama's blocks (q/k/v biases when present) with non-causal attention and NEOX
    // RoPE, the final RMSNorm output_norm; no classification head.
    {"eurobert", NULL, ROPE_NEOX, AF_ENCODER | AF_ENC_OUT_NORM, 0, .flags2 = AX_FFN_UNBIASED | AX_WO_NO_BIAS},
    // modern-bert: LayerNorm pre-norm blocks without biases (layer 0's input unnormed), a fused
    // qkv, NEOX RoPE, a symmetric window (attention.sliding_window / 2 each side) on layers
    // il % P != 0 (P = sliding_window_pattern, 3) rotating with rope.freq_base_swa (10000 when
    // absent, unscaled), GeGLU (or SwiGLU, from hidden_activation) on ffn_up's halves, the final
    // output_norm; a reranker's head pools the mean, then cls (no bias), GELU, cls.norm, cls.output.
    {"modern-bert", NULL, ROPE_NEOX,
     AF_ENCODER | AF_ENC_CLS | AF_ENC_MODERN | AF_ENC_OUT_NORM | AF_LAYERNORM | AF_GELU | AF_TOK_NORM | AF_SWA | AF_SWA_ROPE_UNSCALED, 3,
     .swa_rope_base = 10000, .flags2 = AX_FFN_UNBIASED | AX_WO_NO_BIAS},
    // jina-bert-v2: BERT's post-norm graph with ALiBi (max bias 8, the mask -|i - j| both ways)
    // instead of positions, LayerNorms of the whole q and k rows when attn_q_norm is present, an
    // optional attn_norm_2 re-adding the block input, a GELU FFN (gated by ffn_gate, or GeGLU on a
    // 2 n_ff ffn_up, or ungated); a reranker's head is cls alone, one row, tanh(W h + b).
    {"jina-bert-v2", NULL, ROPE_NONE,
     AF_ENCODER | AF_ENC_BERT | AF_ENC_CLS | AF_ENC_JINA2 | AF_LAYERNORM | AF_GELU | AF_TOK_NORM | AF_NO_PRE_NORM | AF_ALIBI_8 |
         AF_QK_LN_OPT, 0},
    // The other encoders of the reference, refused until each is pinned to it (what each lacks):
    {"nomic-bert-moe",
     "nomic-bert with ungated GELU experts (softmax top-k) on the layers il % moe_every_n_layers == 1 and a biased "
     "GELU FFN on the others: the encoder's expert layers are not implemented (nor its models' XLM-RoBERTa UGM "
     "tokenizer)",
     ROPE_NONE, 0, 0},
    {"jina-bert-v3",
     "XLM-RoBERTa encoder with NEOX RoPE and a UGM (SentencePiece unigram) tokenizer: neither is implemented for encoders",
     ROPE_NONE, 0, 0},
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
