// arch.h — the architecture table: one row per GGUF `general.architecture`.
//
// A row says which features the family uses; the loader turns it (with the
// hparams and the tensors present) into per-layer feature bits. Adding a family
// that only recombines existing features is a new row, not new forward code.
#ifndef FRINK_ARCH_H
#define FRINK_ARCH_H

#include <stdbool.h>
#include <stdint.h>

// Feature flags of a row (enum arch_flag in spirit; 64 bits, so macros).
#define AF(n) ((uint64_t)1 << (n))
#define AF_QK_NORM             AF(0)   // per-head RMSNorm of q and k
#define AF_HYBRID_GDN          AF(1)   // Gated DeltaNet + gated attention layers
#define AF_GATED_ATTN          AF(2)   // double-width q with a sigmoid output gate
#define AF_TIED_OK             AF(3)   // output.weight may be absent (tied to token_embd)
#define AF_MOE_NORM_W          AF(4)   // routed weights always renormalized
#define AF_MOE_NORM_KEY        AF(5)   // renormalization from <arch>.expert_weights_norm
#define AF_SHEXP_GATE          AF(6)   // shared expert scaled by sigmoid(ffn_gate_inp_shexp . x)
#define AF_OUTPUT_BIAS         AF(7)   // output.bias added to the logits when present
#define AF_FFN_SCALES          AF(8)   // `.scale` tensors of dense FFN weights are applied
#define AF_EXP_SCALES          AF(9)   // `.scale` of routed expert weights are applied
#define AF_SHEXP_SCALES        AF(10)  // `.scale` of shared expert weights are applied
#define AF_GDN_GROUPED_V       AF(11)  // qwen3next V-head order (grouped); else tiled (qwen35)
#define AF_GDN_BA_FUSED        AF(12)  // ssm_ba instead of ssm_beta/ssm_alpha
#define AF_GDN_SCALES          AF(13)  // `.scale` of GDN projections are applied
#define AF_EXP_DOWN_SCALE_ONLY AF(14)  // only ffn_down_exps.scale is applied among expert scales
// Norms
#define AF_LAYERNORM           AF(15)  // LayerNorm (+ bias) everywhere, eps from attention.layer_norm_epsilon
#define AF_NO_PRE_NORM         AF(16)  // no attn_norm / ffn_norm: post-norms only (olmo2)
#define AF_POST_NORMS          AF(17)  // post_attention_norm and post_ffw_norm on the block outputs
#define AF_FFN_NORM_PA         AF(18)  // the pre-FFN norm is named post_attention_norm
#define AF_QK_NORM_FULL        AF(19)  // RMSNorm over the whole q and k rows (all heads)
#define AF_QK_LN_OPT           AF(20)  // LayerNorm over whole q/k rows when attn_q_norm is present (mpt)
#define AF_TOK_NORM            AF(21)  // token_embd_norm (LayerNorm) after the embedding lookup
#define AF_POS_EMBD            AF(22)  // learned absolute positions (position_embd) when present
// Embedding / output / residual scales
#define AF_EMB_SQRT            AF(23)  // embedding * sqrt(D), and gemma's query scale rule (q_scale_n_layer)
#define AF_GRANITE             AF(24)  // embedding/residual/attention/logit scales from metadata; rope.scaling.finetuned
#define AF_ALWAYS_TIED         AF(25)  // output is token_embd even when output.weight exists (gemma2)
#define AF_FINAL_SOFTCAP       AF(26)  // final_logit_softcapping (default: the row's final_softcap)
// Attention
#define AF_ATTN_SOFTCAP        AF(27)  // attn_logit_softcapping (default 50)
#define AF_Q_PRESCALE          AF(28)  // q multiplied by the attention scale before attention, kq scale 1
#define AF_SWA                 AF(29)  // sliding-window layers (attention.sliding_window + pattern)
#define AF_SWA_ROPE_UNSCALED   AF(30)  // SWA layers use freq_scale 1 (gemma3, olmo2)
#define AF_SINKS               AF(31)  // attn_sinks per head
#define AF_ALIBI_8             AF(32)  // ALiBi with max bias 8 (bloom; the key is not read)
#define AF_ALIBI_KEY           AF(33)  // ALiBi from attention.max_alibi_bias (mpt; 0 = off)
#define AF_CLAMP_KQV           AF(34)  // attention.clamp_kqv clamps q, k, v after projection
#define AF_MLA                 AF(35)  // multi-head latent attention (deepseek2)
// FFN / residual
#define AF_GELU                AF(36)  // FFN activation GELU (gated: GeGLU)
#define AF_FFN_UNGATED         AF(37)  // y = W_d act(W_u x + b_u) + b_d
#define AF_SWIGLU_OAI          AF(38)  // gpt-oss clamped SwiGLU
#define AF_MOE_SOFTMAX_K       AF(39)  // top-k on raw router logits, softmax over the k (gpt-oss)
#define AF_MOE_BIASES          AF(40)  // router and expert biases are applied
#define AF_PARALLEL            AF(41)  // x + attn(n) + ffn(n): falcon
#define AF_PARALLEL_KEY        AF(42)  // parallel residual from use_parallel_residual (gptneox)
#define AF_DEEPSEEK_MOE        AF(43)  // gating func, groups, weight norm/scale, leading dense blocks from metadata
#define AF_FFN_ACT_SCALES      AF(44)  // ungated FFN: act(u) divided elementwise by blk.N.ffn.act.scales when present (AWQ; mpt)
#define AF_ROPE_SECTIONS       AF(45)  // rope.dimension_sections required; only their plain-text (NEOX-equivalent) form runs
// >>> encoders (bits 46-52 of the first word)
#define AF_ENCODER             AF(46)  // an encoder: attention.causal must be false (non-causal attention over the whole
                                       // input); no vocabulary head: embeddings only (pooling_type from the file)
#define AF_ENC_BERT            AF(47)  // BERT's graph: token_types row 0 added to the embedding, post-norm blocks
                                       // x = LN(x + attn(x)) with attn_output_norm, x = LN(x + ffn(x)) with
                                       // layer_output_norm; no output norm (bert, nomic-bert)
#define AF_ENC_CLS             AF(48)  // a reranker's head when present: cls (tanh(W h + b)) and cls.output on the
                                       // first token (bert, neo-bert; jina-bert-v2's and modern-bert's forms
                                       // by their own flags)
#define AF_ENC_OUT_NORM        AF(49)  // the last block's state through output_norm (eurobert)
#define AF_ENC_OUT_NORM_ENC    AF(50)  // the same, the norm named enc.output_norm (neo-bert)
#define AF_ENC_MODERN          AF(51)  // modern-bert's rules: LayerNorms without bias, layer 0 without attn_norm (its
                                       // input unnormed), sliding layers il % P != 0 (the first of each period
                                       // global) with a symmetric window, the FFN's GLU from hidden_activation
#define AF_ENC_JINA2           AF(52)  // jina-bert-v2's rules: attn_norm_2 after attn_output_norm re-adds the block
                                       // input, an ffn_up of n_ff rows without ffn_gate is an ungated GELU FFN
// <<<

// The second word of a row's flags (arch_info.flags2): the families added per group, each
// group with its own range of bits so that rows of different groups never collide.
#define AX(n) ((uint64_t)1 << (n))
// >>> ssm (bits 0-9)
#define AX_MAMBA2              AX(0)   // every layer is a Mamba-2 mixer and nothing else (no FFN): mamba2
#define AX_MAMBA2_KV0          AX(1)   // a layer whose attention.head_count_kv is 0 is a Mamba-2 mixer (granite 4)
#define AX_ROPE_FINETUNED      AX(2)   // rope.scaling.finetuned (default true) false turns RoPE off (granite 4)
#define AX_NEMOTRON_H          AX(3)   // a layer is Mamba-2 (no KV heads, no FFN), attention alone (no FFN) or a ReLU^2 FFN alone
#define AX_FALCON_H1           AX(4)   // attention and Mamba-2 side by side on attn_norm's output, summed; ffn_norm without .weight;
                                       // no rope_freqs (the reference creates them and does not apply them)
// <<<
// >>> conv and linear attention (bits 10-17)
#define AX_MAMBA               AX(10)  // every layer is a Mamba-1 mixer with no FFN (mamba.c)
#define AX_JAMBA               AX(11)  // layers with head_count_kv 0 are Mamba-1 (+ FFN), the rest attention;
                                       // a layer is MoE iff it has ffn_gate_inp
#define AX_SHORTCONV           AX(12)  // recurrent_layers are LFM2 gated short convolutions (shortconv.c)
#define AX_OUT_NORM_TOK        AX(13)  // the output norm is the tensor named token_embd_norm (lfm2)
#define AX_SWA_ALL_ATTN        AX(14)  // attention.sliding_window > 0 makes every attention layer sliding,
                                       // RoPE base unchanged (lfm2)
#define AX_PLAMO2              AX(15)  // PLaMo-2: its Mamba (head_count_kv 0) or attention, post-norms (plamo2.c)
// <<<
// >>> MLA and sparse attention (bits 18-25)
#define AX_DSA         AX(18) // DeepSeek sparse attention: lightning indexer tensors and top_k (model/dsa.c)
#define AX_MINICPM3    AX(20) // minicpm3: MHA-form latent attention; embedding x12, residual branches x1.4/sqrt(L),
                              // logits / (D/256) (the reference's fixed scales)
#define AX_KIMI_LINEAR AX(21) // kimi-linear: KDA layers where head_count_kv is 0 (model/kda.c), MLA without RoPE elsewhere
#define AX_MINIMAX01   AX(22) // minimax-01: lightning attention layers (model/lightning.c), DeepNorm residuals
#define AX_KDA_SIGMOID_GATE AX(23) // bailingmoe3: KDA as kimi-linear's with the safe sigmoid gate (kda.c); MLA layers
                                   // gated per head, their wo unscaled
#define AX_DOTS3       AX(24) // dots3note: latent attention with its own dims on sliding layers, the shared rope key
                              // RMS-normed (attn_k_norm), heads gated; the indexer on the full layers only
#define AX_DSA_TYPES   AX(19) // glm-dsa: attention.indexer.types, indexers optional per layer, sigmoid routing default
// <<<
// >>> chat-format and sliding-window families (bits 26-35)
#define AX_MROPE_TEXT    AX(26) // rope.dimension_sections with s0, s1 > 0: M-RoPE (NEOX pairs) on text positions (glm4)
#define AX_GATING_KEY    AX(27) // expert_gating_func may select sigmoid routing (minimax-m2)
#define AX_MOE_KEYS      AX(28) // sigmoid routing unless expert_gating_func says otherwise, leading_dense_block_count,
                                // expert_weights_norm / expert_weights_scale from metadata (glm4moe, cohere2moe)
#define AX_LOGIT_MUL     AX(29) // logits multiplied by logit_scale (command-r, cohere2; granite's divides)
#define AX_SWA_ROPE_ONLY AX(30) // only the sliding layers (and leading dense blocks) rotate, with rope.freq_base;
                                // the other full layers have no RoPE (cohere2, cohere2moe, exaone4)
#define AX_QK_NORM_OPT   AX(31) // per-head q/k RMSNorms when the file has both (glm4moe)
// Bits 32-35 are a number, not flags: which one family's own quirks chatfam.c applies.
#define AX_FAM_MASK      (AX(32) | AX(33) | AX(34) | AX(35))
#define AX_FAM(n)        ((uint64_t)(n) << 32)
#define AX_FAM_IS(f2, fam) (((f2) & AX_FAM_MASK) == (fam))
#define AX_COHERE2MOE    AX_FAM(1) // RMSNorm when attention.layer_norm_rms_epsilon is set (else LayerNorm), a period P
                                   // of sliding_window_pattern slides layer L iff L % P != 0, (routed + shared) * 0.5
#define AX_EXAONE4_SWA   AX_FAM(2) // sliding layers only in the 64-block model (the reference's rule); else none
#define AX_GRANITE_SWA   AX_FAM(3) // per-layer RoPE from attention.rope_pattern, sliding layers rotate with
                                   // rope.freq_base, deepstack inputs and routed experts refused
#define AX_MIMO2         AX_FAM(4) // q/k/v without bias or scale, optional sinks, attention.value_scale, sigmoid
                                   // routing whatever the file says, a layer's FFN routed iff it has a router
#define AX_AFMOE         AX_FAM(5) // a separate sigmoid output gate (attn_gate), no RoPE on every 4th layer
#define AX_MAPLE         AX_FAM(6) // only the sliding layers rotate (rope.freq_base_swa), clamped expert SwiGLU
                                   // from swiglu_clamp_exp
#define AX_SPARK2_5      AX_FAM(7) // a sigmoid output gate per head (attn_gate [D -> H])
#define AX_MUSE_GLIMMER  AX_FAM(8) // afmoe's output gate, RoPE on the sliding layers only, post-norms with eps 1e-8,
                                   // a weightless RMSNorm after the embedding
#define AX_LAGUNA        AX_FAM(9) // a softplus output gate (per head or per element), a dense-first sliding
                                   // pattern whose layers rotate plainly (no YaRN) over rope.dimension_count_swa
#define AX_COMMAND_R     AX_FAM(10) // per-head q/k LayerNorms, a weight row per head, in models of 64 blocks or more
// <<<
// >>> dense families (bits 36-45)
#define AX_DENSE_RULES        AX(36) // the family's metadata and binding rules are in model/dense.c's table
#define AX_QK_NORM_POST_ROPE  AX(37) // the per-head q/k RMSNorm is applied after RoPE (maincoder, hunyuan)
#define AX_RELU_SQR           AX(38) // the ungated FFN's activation is relu(x)^2 (arcee, nemotron)
#define AX_NORM_NONPARAM      AX(39) // every norm has no weight or bias (olmo, talkie; with AF_NO_PRE_NORM)
#define AX_TOK_RMS_BARE       AX(40) // a weightless norm of the embedding, which every layer adds back scaled (talkie)
// <<<
// >>> MoE families (bits 46-54)
// Bits 46-49 name the family (AX_MOE_FAM_IS), for the switches that are one family's own; the
// others are switches families may share.
#define AX_MOE_FAM_MASK        (AX(46) | AX(47) | AX(48) | AX(49))
#define AX_MOE_FAM(n)          ((uint64_t)(n) << 46)
#define AX_MOE_FAM_IS(f2, fam) (((f2) & AX_MOE_FAM_MASK) == (fam))
#define AX_MOE_BESIDE_DENSE AX_MOE_FAM(1) // arctic: a dense FFN (n_embd wide) on the usual path and the routed experts on
                                          // ffn_norm_exps(block input), both added to the residual
#define AX_FFN_NORM_AON     AX_MOE_FAM(2) // dbrx: the pre-FFN norm is named attn_output_norm (a LayerNorm without bias)
#define AX_GROK             AX_MOE_FAM(3) // grok: embedding/attention-output/logit multipliers and softcaps from metadata
                                          // (the reference's defaults when absent), attn_output_norm and
                                          // layer_output_norm (or ffn_post_norm) as post-norms, a dense FFN beside the
                                          // experts: (dense + moe) / sqrt 2
#define AX_RMS_NORM_BIAS    AX_MOE_FAM(4) // phimoe: RMSNorms carry a bias added after the weight
#define AX_MOE_STEP         AX_MOE_FAM(5) // ernie4_5-moe: layer il is routed iff il >= leading_dense_block_count and
                                          // (il + 1) % interleave_moe_layer_step == 0; the others are dense
#define AX_MOE_NORM_KEYS    AX_MOE_FAM(6) // bailingmoe: expert_weights_norm / expert_weights_scale from metadata, softmax
                                          // routing on every layer (leading_dense_block_count has no effect)
#define AX_ROPE_SWA_ONLY    AX_MOE_FAM(7) // exaone-moe: only the sliding layers rotate, with rope.freq_base (the
                                          // reference's graph does not use rope.freq_base_swa); the full layers are NoPE
#define AX_SMALLTHINKER     AX_MOE_FAM(8) // smallthinker: router on the block input, ReLU-gated experts, gating from
                                          // metadata; with a sliding window: window 4096 (the reference's), layer il
                                          // slides iff il % P != 0 (P = pattern, 4), the others are NoPE
#define AX_GROVE            AX_MOE_FAM(9) // grovemoe: chunk ("adjugate") experts on the routed output, routed by the
                                          // same logits, added times expert_group_scale
#define AX_HUNYUAN_MOE      AX_MOE_FAM(10) // hunyuan-moe: the per-head q/k norms come after RoPE
#define AX_HY_V3            AX_MOE_FAM(11) // hy_v3: a layer is routed iff it has ffn_gate_inp; sigmoid routing unless
                                           // expert_gating_func says otherwise, weight norm/scale from metadata,
                                           // the selection bias named blk.N.exp_probs_b
#define AX_WO_NO_BIAS       AX(50)        // attn_output.bias is not applied (left unread): ernie4_5-moe, exaone-moe
// <<<
// >>> GPT-2 style, vision-language towers and the rest (bits 55-63)
#define AX_POS_EMBD_REQ        AX(55)  // position_embd.weight is required (gpt2, starcoder)
#define AX_VL_MROPE            AX(56)  // M-RoPE (sequential sections), text form: rope.dimension_sections required
#define AX_VL_IMROPE           AX(57)  // interleaved M-RoPE (qwen3vl), text form: rope.dimension_sections required
// hunyuan_vl: with AX_VL_MROPE, sections optional (M-RoPE only when the first two are > 0, else
// NeoX); the per-head q/k norms (AF_QK_NORM) after RoPE; rope.scaling.alpha > 0 raises the base
// to base * alpha^(d/(d-2)) (its NTK form)
#define AX_HUNYUAN_VL          AX(58)
#define AX_FFN_UNBIASED        AX(59)  // the reference adds no FFN bias: ffn_{gate,up,down}.bias stay unread
// (bit 60 is free; attn_output.bias left unread is the shared AX_WO_NO_BIAS of the MoE section)
#define AX_NO_EXPERTS          AX(61)  // expert_count is not used: every layer is dense (paddleocr)
#define AX_COGVLM              AX(62)  // cogvlm: the language expert (text tokens), ggml_rope's fixed RoPE
#define AX_NO_ROPE_FREQS       AX(63)  // the graph applies no frequency factors: rope_freqs.weight stays unread
// <<<

struct arch_info {
    const char *name;
    const char *refused;  // NULL: runs; else why frink refuses it
    int rope_mode;        // ROPE_NORM / ROPE_NEOX / ROPE_NONE (model.h)
    uint64_t flags;       // enum arch_flag
    int swa_pattern;      // AF_SWA: default period P (layer L slides iff L % P < P-1)
    // Defaults of the family where its file may leave a key out (0: none / the generic default).
    int swa_window;       // AF_SWA: attention.sliding_window when absent (0: no window)
    float swa_rope_base;  // AF_SWA: rope.freq_base_swa when absent (0: rope.freq_base)
    float final_softcap;  // AF_FINAL_SOFTCAP: final_logit_softcapping when absent (0: none)
    int q_scale_n_layer;  // AF_EMB_SQRT: the block count whose query scale is 1/sqrt(D/H) instead of
                          // 1/sqrt(head_dim) (the 27B models); 0: none
    uint64_t flags2;      // AX_* flags (the groups' second word)
};

// Row for `name`, or NULL when the name is not in the table at all.
const struct arch_info *arch_find(const char *name);
// Iterates the table (for `frink archs`): returns NULL past the end.
const struct arch_info *arch_at(int i);

#endif
