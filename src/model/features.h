// features.h — the one list of layer features and of model features, and the set type that
// holds them.
//
// A layer feature is set where a layer departs from the plain one: RMSNorm pre-norms without
// bias, RoPE in the normal pair order, unscaled and over the whole head, softmax attention with
// no extras, a SiLU-gated dense FFN or softmax-routed experts, a sequential unscaled residual.
// model.c derives a layer's set once at load (from the arch table, the hparams and the tensors
// present); the host path branches on it with plain ifs (values such as eps, scales and window
// sizes stay in struct layer, the feature saying that one is on); a path implementing a subset
// refuses every layer holding a feature it lacks (path.h), so a feature added later is refused
// by default instead of being dropped.
//
// Adding a feature is one line at the end of LAYER_FEATURES:
//
//     X(ID, "name", HOST, "meaning")
//
//   ID       the enum constant LF_ID, the feature's index in a struct featset
//   name     stable lowercase name: `frink inspect`, frink_model_layer and refusal messages
//            print it, so it never changes once released
//   HOST     HOST when the host path (forward.c, attn.c, gdn.c, ffn.c) computes it, NONE when
//            it does not (yet)
//   meaning  one line, for the reader (and the lists in the docs)
//
// Why a column rather than a separate host list: the host's set must stay an explicit list and
// not "every feature" (a feature the loader can describe but no path computes must be refused
// at load, by name, not run wrongly), and the column is that list with the decision written on
// the same line as the feature, so that adding one cannot leave a second list behind. A line
// marked NONE loads as a refusal: "layer 3 (attention): no path implements it (host: missing
// NAME)". Only the host path reads the column; every other path lists what it implements
// itself (path.c), since it implements a subset.
//
// Order is index order, and feature strings print lowest index first: new lines go at the end of
// their group (the >>> / <<< markers), the groups in the order the families were added.
#ifndef FRINK_FEATURES_H
#define FRINK_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

// clang-format off
#define LAYER_FEATURES(X)                                                                                         \
    X(ATTN,              "attn",              HOST, "softmax attention mixer (one of attn / gdn per layer)")      \
    X(GDN,               "gdn",               HOST, "Gated DeltaNet mixer")                                       \
    X(QK_NORM,           "qk_norm",           HOST, "per-head RMSNorm on q and k before RoPE")                    \
    X(ATTN_GATE,         "attn_gate",         HOST, "q is [q_h | gate_h] per head; o *= sigmoid(gate)")           \
    X(FFN_DENSE,         "ffn_dense",         HOST, "dense FFN (one of ffn_dense / ffn_moe per layer)")           \
    X(FFN_MOE,           "ffn_moe",           HOST, "routed experts")                                             \
    X(FFN_SHEXP,         "ffn_shexp",         HOST, "shared expert (always SiLU-gated) added to the routed output") \
    X(FFN_SHEXP_GATE,    "ffn_shexp_gate",    HOST, "sigmoid gate on the shared expert")                          \
    X(ATTN_BIAS,         "attn_bias",         HOST, "a bias on some mixer matrix (attention, MLA or Gated DeltaNet)") \
    X(FFN_BIAS,          "ffn_bias",          HOST, "a bias on some FFN matrix (dense, router, expert, shared expert)") \
    X(FUSED_QKV,         "fused_qkv",         HOST, "attn_qkv instead of q/k/v")                                  \
    X(POST_ATTN_NORM,    "post_attn_norm",    HOST, "true post-norm on the mixer output (sandwich)")              \
    X(POST_FFN_NORM,     "post_ffn_norm",     HOST, "post-norm on the FFN output")                                \
    X(WSCALE,            "wscale",            HOST, "some weight carries a per-tensor scale != 1")                \
    X(MOE_NORM_W,        "moe_norm_w",        HOST, "routed weights renormalized to sum 1")                       \
    X(FFN_GATE_UP_FUSED, "ffn_gate_up_fused", HOST, "[gate | up] in one matrix (dense ffn_up 2F wide, or ffn_gate_up_exps)") \
    X(ATTN_SINKS,        "attn_sinks",        HOST, "a sink logit per head joins the softmax denominator (gpt-oss)") \
    X(SWA,               "swa",               HOST, "sliding-window attention (swa_window)")                      \
    X(QK_NORM_FULL,      "qk_norm_full",      HOST, "RMSNorm (or LayerNorm, qk_ln) over the whole q / k rows")    \
    X(QK_LN,             "qk_ln",             HOST, "the full-row q/k norm is a LayerNorm with bias (mpt)")       \
    X(Q_PRESCALE,        "q_prescale",        HOST, "q *= kq_scale after RoPE, attention scale 1 (gemma, phi3)")  \
    X(ALIBI,             "alibi",             HOST, "ALiBi position bias (hp.alibi_max_bias)")                    \
    X(CLAMP_KQV,         "clamp_kqv",         HOST, "q, k, v clamped to [-hp.clamp_kqv, hp.clamp_kqv]")           \
    X(PARALLEL,          "parallel",          HOST, "x + attn(n) + ffn(n') instead of sequential residuals")      \
    X(FFN_UNGATED,       "ffn_ungated",       HOST, "y = W_d act(W_u x + b_u) + b_d")                             \
    X(MLA,               "mla",               HOST, "multi-head latent attention, with attn (attn.c: attn_mla_layer)") \
    X(NO_ROPE,           "no_rope",           HOST, "no rotary embedding in this layer")                          \
    X(ATTN_SOFTCAP,      "attn_softcap",      HOST, "s = c tanh(s / c) on the attention logits (hp.attn_softcap)") \
    X(LAYERNORM,         "layernorm",         HOST, "the block's norms are LayerNorms (else RMSNorm)")            \
    X(NORM_BIAS,         "norm_bias",         HOST, "attn_norm, attn_norm_2 or ffn_norm carries a bias")          \
    X(NO_ATTN_NORM,      "no_attn_norm",      HOST, "no pre-attention norm: the mixer reads x (olmo2)")           \
    X(ATTN_NORM_2,       "attn_norm_2",       HOST, "the mixer reads its own norm attn_norm_2 of x (falcon-40B)") \
    X(NO_FFN_NORM,       "no_ffn_norm",       HOST, "no pre-FFN norm: the FFN reads x (olmo2) or attn_norm's output (falcon)") \
    X(ACT_GELU,          "act_gelu",          HOST, "GELU (gated: GeGLU) instead of SiLU")                        \
    X(ACT_SWIGLU_OAI,    "act_swiglu_oai",    HOST, "gpt-oss's clamped SwiGLU instead of SiLU")                   \
    X(ACT_SCALES,        "act_scales",        HOST, "ungated FFN: act(u) divided by ffn_act_scales (AWQ; mpt)")   \
    X(RESIDUAL_SCALE,    "residual_scale",    HOST, "sequential: both branch outputs times hp.f_residual_scale (granite)") \
    X(ROPE_NEOX,         "rope_neox",         HOST, "rotary pairs (i, i + n_rot/2) instead of (2i, 2i + 1)")      \
    X(ROPE_YARN,         "rope_yarn",         HOST, "YaRN ramp and magnitude scale (hp.rope_ext_factor, rope_n_ctx_orig)") \
    X(ROPE_FREQS,        "rope_freqs",        HOST, "per-pair frequency factors (m->rope_freqs)")                 \
    X(ROPE_SCALED,       "rope_scaled",       HOST, "rope_scale != 1 or hp.rope_attn_factor != 1")                \
    X(ROPE_PARTIAL,      "rope_partial",      HOST, "n_rot < head_dim: the last head_dim - n_rot dims are not rotated") \
    X(MOE_PROBS_BIAS,    "moe_probs_bias",    HOST, "exp_probs_b added to the selection scores (not the weights)") \
    X(MOE_SIGMOID,       "moe_sigmoid",       HOST, "expert probabilities by sigmoid instead of softmax")         \
    X(MOE_SOFTMAX_K,     "moe_softmax_k",     HOST, "top-k on raw router logits, softmax over the k (gpt-oss)")   \
    X(MOE_GROUPS,        "moe_groups",        HOST, "group-limited routing (hp.expert_groups, expert_groups_used)") \
    X(MOE_W_SCALE,       "moe_w_scale",       HOST, "routed weights times hp.expert_weights_scale")               \
    X(MLA_Q_LORA,        "mla_q_lora",        HOST, "MLA: q through the low-rank wq_a, q_a_norm, wq_b (else one wq)") \
    X(GDN_BA_FUSED,      "gdn_ba_fused",      HOST, "one ssm_ba [b | a per key head] instead of ssm_beta / ssm_alpha (qwen3next)") \
    X(GDN_GROUPED_V,     "gdn_grouped_v",     HOST, "value head h reads key head h / (nv/nk) (else h % nk)")      \
    /* >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them */                                                                                  \
    X(MAMBA2,            "mamba2",            HOST, "Mamba-2 mixer: ssm_in, causal conv1d + bias + SiLU, selective scan (per-head dt, A; D skip), SiLU(z) gate, grouped RMSNorm, ssm_out") \
    X(FFN_MIXER,         "ffn_mixer",         HOST, "the layer's one branch is an ungated FFN on the attn_norm output (nemotron_h)") \
    X(ACT_RELU2,         "act_relu2",         HOST, "FFN activation relu(x)^2 (nemotron_h)") \
    X(ATTN_SSM_SUM,      "attn_ssm_sum",      HOST, "attention and Mamba-2 both read the attn_norm output; the mixer is their sum (falcon-h1)") \
    /* <<< */                                                                                                 \
    /* >>> conv and linear attention: short convolutions, KDA, lightning attention */                                                                                  \
    X(NO_FFN,            "no_ffn",            HOST, "the block has no FFN: x += mixer(norm(x)) only (mamba)")    \
    X(MAMBA,             "mamba",             HOST, "Mamba-1 mixer: conv1d, selective scan with A [d_inner][d_state], D skip, SiLU gate") \
    X(MAMBA_DBC_NORM,    "mamba_dbc_norm",    HOST, "Mamba-1: RMSNorm of dt, B and C before the scan (jamba)")   \
    X(SHORTCONV,         "shortconv",         HOST, "LFM2 gated short convolution mixer: (c * conv(b * x)) out-projected") \
    X(PLAMO2_MAMBA,      "plamo2_mamba",      HOST, "PLaMo-2 Mamba mixer: per-head [z | x] in-proj, B|C|dt RMSNorms, a scalar A per head") \
    X(QK_NORM_PER_HEAD,  "qk_norm_per_head",  HOST, "qk_norm with weights per head: [H][d] and [Hkv][d] (plamo2)") \
    /* <<< */                                                                                                 \
    /* >>> MLA and sparse-attention families */                                                                                  \
    X(MLA_MHA,           "mla_mha",           HOST, "latent attention in the MHA form: per-head k_nope | v from W_kv_b, RoPE on the trailing n_rot dims (minicpm3)") \
    X(KDA,               "kda",               HOST, "Kimi Delta Attention mixer: gated delta rule with a decay per key channel, q/k/v convs, sigmoid-gated norm") \
    X(LIGHTNING,         "lightning",         HOST, "lightning (linear) attention mixer with per-head slope decay and a sigmoid-gated norm (minimax-01)") \
    X(NORM_RESIDUAL,     "norm_residual",     HOST, "both residuals add the normed input times hp.mm01_residual_scale, not the input (minimax-01)") \
    X(KDA_SIGMOID_GATE,  "kda_sigmoid_gate",  HOST, "KDA decay lower_bound * sigmoid((W_f x + dt_bias) A) and a one-matrix output gate (bailingmoe3)") \
    X(MLA_HEAD_GATE,     "mla_head_gate",     HOST, "MLA output of each head times sigmoid(W_gate x)_h before wo (bailingmoe3)") \
    X(SWIGLU_LIMIT,      "swiglu_limit",      HOST, "experts / shared expert: min(silu(g), c) * clamp(u, -c, c), c = swiglu_lim_* (bailingmoe3)") \
    X(MLA_KPE_NORM,      "mla_kpe_norm",      HOST, "MLA: the shared rope key RMS-normed (attn_k_norm) before RoPE (dots3note)") \
    X(DSA_ALL,           "dsa_all",           HOST, "DeepSeek sparse attention while its indexer selects every cell (positions <= hp.dsa_top_k; longer refused)") \
    /* <<< */                                                                                                 \
    /* >>> chat-format and sliding-window families */                                                                                  \
    X(SHEXP_HALF,        "shexp_half",        HOST, "(routed experts + shared expert) * 0.5 (cohere2moe)")        \
    X(ATTN_OUT_SCALE,    "attn_out_scale",    HOST, "attention output (after wo) times hp.chat_attn_out_scale (mimo2)") \
    X(ATTN_GATE_SEP,     "attn_gate_sep",     HOST, "o *= sigmoid(W_gate xn) before wo, the gate its own matrix (afmoe)") \
    X(ATTN_GATE_HEAD,    "attn_gate_head",    HOST, "attn_gate_sep with one gate per head, W_gate [D -> H] (spark2_5)") \
    X(SWIGLU_CLAMP,      "swiglu_clamp",      HOST, "routed experts: silu(min(g, c)) * clamp(u, -c, c), c = chat_swiglu_limit (maple)") \
    X(POST_NORM_EPS,     "post_norm_eps",     HOST, "the post-norms use the layer's chat_post_norm_eps, not the model's (muse-glimmer)") \
    X(ATTN_GATE_SOFTPLUS, "attn_gate_softplus", HOST, "attn_gate_sep with softplus(g) instead of sigmoid(g) (laguna)") \
    X(ROPE_PLAIN,        "rope_plain",        HOST, "this layer's RoPE without the model's YaRN and attention factor (laguna's sliding layers)") \
    X(QK_LN_HEAD,        "qk_ln_head",        HOST, "per-head LayerNorm (no bias) on q and k before RoPE, a weight row per head (command-r)") \
    /* <<< */                                                                                                 \
    /* >>> dense families */                                                                                  \
    X(ACT_RELU_SQR,      "act_relu_sqr",      HOST, "ungated FFN activation relu(x)^2 instead of SiLU (arcee, nemotron)") \
    X(QK_LN_HEADS,       "qk_ln_heads",       HOST, "per-head LayerNorm (no bias) of q and/or k before RoPE, one weight row per head (stablelm)") \
    X(ATTN_CHUNKED,      "attn_chunked",      HOST, "a query sees only the cells of its own chunk of attn_chunk positions (llama4)") \
    X(ATTN_TEMP,         "attn_temp",         HOST, "q times log(floor((pos + offset) / floor) + 1) * scale + 1 (llama4's NoPE layers)") \
    X(QK_RMS_UNWEIGHTED, "qk_rms_unweighted", HOST, "weightless per-head RMSNorm of q and k after RoPE (llama4)") \
    X(MOE_WEIGHT_INPUT,  "moe_weight_input",  HOST, "top-k on the raw router logits; an expert reads its weight times the input, its output added unweighted (llama4)") \
    X(FFN_ACT_ONLY,      "ffn_act_only",      HOST, "the FFN is silu(x) with no matrices (refact with experts, as its reference builds it)") \
    X(EMB_SKIP,          "emb_skip",          HOST, "x += normed embedding * emb_skip_scale after the block (talkie)") \
    X(Q_HEAD_SCALE,      "q_head_scale",      HOST, "q head h times attn_q_norm[h] after its weightless norm (talkie)") \
    X(NORM_NONPARAM,     "norm_nonparam",     HOST, "the pre-attention and pre-FFN norms are LayerNorms without weight or bias (olmo)") \
    /* <<< */                                                                                                 \
    /* >>> MoE families */                                                                                  \
    X(MOE_BESIDE_DENSE,  "moe_beside_dense",  HOST, "a dense FFN (n_ff_dense) on ffn_norm(h) plus the experts on ffn_norm_exps(block input) (arctic)") \
    X(MOE_ROUTER_IN,     "moe_router_in",     HOST, "the router reads the block input, not the pre-FFN norm's output (smallthinker)") \
    X(ACT_RELU,          "act_relu",          HOST, "ReLU-gated experts: relu(g) * u (smallthinker)")             \
    X(MOE_GROVE,         "moe_grove",         HOST, "chunk experts on the routed output, routed by the same logits, times expert_group_scale (grovemoe)") \
    X(QK_NORM_POST_ROPE, "qk_norm_post_rope", HOST, "qk_norm's per-head RMSNorms after RoPE instead of before (hunyuan-moe)") \
    X(MOE_DENSE_RSQRT2,  "moe_dense_rsqrt2",  HOST, "a dense FFN (n_ff_dense) beside the experts on the same input, (dense + experts) * sqrt(2)/2 (grok)") \
    /* <<< */                                                                                                 \
    /* >>> GPT-2 style, vision-language text towers and the rest */                                                                                  \
    /* (qk_norm_post_rope, hunyuan_vl's too, is in the MoE section) */                                          \
    X(MROPE_EXTRA,       "mrope_extra",       HOST, "M-RoPE pairs on the fourth stream stay unrotated for text (rope_freqs +inf there)") \
    /* <<< */                                                                                                 \
    /* >>> encoders */                                                                                        \
    X(NON_CAUSAL,        "non_causal",        HOST, "a query sees every cell of its sequence, later ones too: each input whole in one step (encoders)") \
    X(POST_RESIDUAL_NORM, "post_residual_norm", HOST, "x = LayerNorm(x + branch) after each branch: attn_output_norm, layer_output_norm (bert)") \
    X(SWA_SYMMETRIC,     "swa_symmetric",     HOST, "the sliding window reaches swa_window / 2 cells each side of the query, later ones too (modern-bert)") \
    X(ENC_READD_NORM,    "enc_readd_norm",    HOST, "after attn_output_norm, x = LayerNorm(x + block input; attn_norm_2) (jina-bert-v2)") \
    /* <<< */                                                                                                 \
    /* (end of the list) */

// Features of the model outside its layers (embedding and output), derived once at load into
// m->feat: X(ID, "name", "meaning"), index order. No path takes part: the host computes them all.
#define MODEL_FEATURES(X)                                                                                         \
    X(EMB_SQRT,      "emb_sqrt",      "embedding times sqrt(D), computed in float (gemma)")                        \
    X(EMB_SCALE,     "emb_scale",     "embedding times hp.f_emb_scale (granite)")                                  \
    X(POS_EMBD,      "pos_embd",      "learned absolute position rows added to the embedding (mpt)")               \
    X(TOK_NORM,      "tok_norm",      "norm right after the embedding (bloom)")                                    \
    X(LAYERNORM,     "layernorm",     "token and output norms are LayerNorms (else RMSNorm)")                      \
    X(NORM_BIAS,     "norm_bias",     "the token or the output norm carries a bias")                               \
    X(OUTPUT_BIAS,   "output_bias",   "output.bias added to the logits")                                           \
    X(LOGIT_SCALE,   "logit_scale",   "logits divided by hp.f_logit_scale (granite)")                              \
    X(FINAL_SOFTCAP, "final_softcap", "logits = c tanh(logits / c), c = hp.final_softcap")                         \
    X(TIED_OUTPUT,   "tied_output",   "the output head is the token table (same weights)")                         \
    X(TOKEN_TYPE,    "token_type",    "token_types row 0 (sentence A) added to every embedding (bert)")            \
    X(ENCODER,       "encoder",       "no vocabulary head: the last block's state is the embedding (bert)")        \
    X(ENC_OUT_NORM,  "enc_out_norm",  "an encoder's embedding through its final norm (eurobert, neo-bert; bert has none)") \
    X(RANK_MEAN_GELU, "rank_mean_gelu", "rank pools the mean of the rows, the pooler's GELU then cls.norm (modern-bert)")
// clang-format on

// The HOST column's values.
#define FEAT_HOST 1
#define FEAT_NONE 0

#define FEAT_ENUM_LF(id, name, host, meaning) LF_##id,
#define FEAT_ENUM_MF(id, name, meaning) MF_##id,
enum layer_feature { LAYER_FEATURES(FEAT_ENUM_LF) LF_COUNT };
enum model_feature { MODEL_FEATURES(FEAT_ENUM_MF) MF_COUNT };
#undef FEAT_ENUM_LF
#undef FEAT_ENUM_MF

// ---- the set ------------------------------------------------------------------------------

// A set of feature indices (LF_* or MF_*): bit f % 64 of word f / 64. 256 features, room for the
// layer kinds to come; the list growing past it is a compile error below, not a silent wrap.
#define FEAT_MAX 256
struct featset {
    uint64_t w[FEAT_MAX / 64];
};
_Static_assert(LF_COUNT <= FEAT_MAX && MF_COUNT <= FEAT_MAX, "the feature lists outgrew struct featset");

#define FEAT_WORDS ((int)(sizeof(struct featset) / sizeof(uint64_t)))

// True when f is in s. f in [0, FEAT_MAX).
static inline bool feat_has(struct featset s, int f) { return (s.w[f >> 6] >> (f & 63)) & 1; }

// Adds f to *s / removes it.
static inline void feat_set(struct featset *s, int f) { s->w[f >> 6] |= (uint64_t)1 << (f & 63); }
static inline void feat_clear(struct featset *s, int f) { s->w[f >> 6] &= ~((uint64_t)1 << (f & 63)); }

// a | b, a & ~b (what a holds that b lacks).
static inline struct featset feat_union(struct featset a, struct featset b) {
    for (int i = 0; i < FEAT_WORDS; i++) a.w[i] |= b.w[i];
    return a;
}
static inline struct featset feat_andnot(struct featset a, struct featset b) {
    for (int i = 0; i < FEAT_WORDS; i++) a.w[i] &= ~b.w[i];
    return a;
}

static inline bool feat_empty(struct featset s) {
    uint64_t any = 0;
    for (int i = 0; i < FEAT_WORDS; i++) any |= s.w[i];
    return !any;
}

static inline bool feat_eq(struct featset a, struct featset b) {
    uint64_t diff = 0;
    for (int i = 0; i < FEAT_WORDS; i++) diff |= a.w[i] ^ b.w[i];
    return !diff;
}

// The lowest index in s at or above `from`, or -1: `for (f = feat_next(s, 0); f >= 0; f =
// feat_next(s, f + 1))` walks s in index order. feat_next(feat_andnot(a, b), 0) is the first
// feature of a that b lacks.
static inline int feat_next(struct featset s, int from) {
    for (int i = from >> 6; from < FEAT_MAX && i < FEAT_WORDS; i++) {
        uint64_t w = s.w[i] & (i == from >> 6 ? ~(uint64_t)0 << (from & 63) : ~(uint64_t)0);
        if (w) return i * 64 + __builtin_ctzll(w);
    }
    return -1;
}

// The number of features in s.
static inline int feat_count(struct featset s) {
    int n = 0;
    for (int i = 0; i < FEAT_WORDS; i++) n += __builtin_popcountll(s.w[i]);
    return n;
}

// The set of the n indices f[0..n).
static inline struct featset feat_of_list(const int *f, int n) {
    struct featset s = {{0}};
    for (int i = 0; i < n; i++) feat_set(&s, f[i]);
    return s;
}
// FEATS(LF_ATTN, LF_SWA): the set of its arguments (one or more).
#define FEATS(...) feat_of_list((const int[]){__VA_ARGS__}, (int)(sizeof((const int[]){__VA_ARGS__}) / sizeof(int)))

#endif
