// model.h — a loaded model: hyperparameters, per-layer shapes, weight handles.
//
// Loading binds every tensor of the file to a handle and marks it read; a
// tensor left unread, or a metadata scale/option nothing applies, makes the
// load fail with a message naming it (see model_load). Kernels never see this
// struct: the forward passes them pointers, sizes and types.
#ifndef FRINK_MODEL_H
#define FRINK_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/err.h"
#include "core/gguf.h"
#include "model/arch.h"

// A matrix (or stack of expert matrices) in the file, viewed in place.
struct weight {
    const void *data;   // NULL: absent
    uint32_t type;      // enum ggml_type
    int64_t n_in;       // ne[0]: row length (input features)
    int64_t n_out;      // ne[1]: rows (output features)
    int64_t n_mat;      // ne[2]: experts (1 for a plain matrix)
    size_t row_bytes;
    size_t mat_bytes;   // bytes per expert matrix
    const float *scale; // `.scale` multiplying the output: [1] or one per expert [n_mat]; NULL = 1
    int n_scale;        // entries in scale (1 or n_mat)
    const float *bias;  // [n_out] or [n_mat][n_out] (F32 copy), NULL when absent
    bool bias_first;    // (x W + bias) * scale, as the reference's FFN; else x W * scale + bias
    const char *name;   // tensor name, for messages
    const void *packed; // the same weights repacked at load for the kernels in use (in the
                        // model's packed arena; quant_pack), NULL when none: data stays valid
};

// Features of one layer, derived once at load (model.c) from the arch table, the hparams and
// the tensors present. A bit is set where the layer departs from the plain one: RMSNorm
// pre-norms without bias, RoPE in the normal pair order, unscaled and over the whole head,
// softmax attention with no extras, a SiLU-gated dense FFN or softmax-routed experts, a
// sequential unscaled residual. So a path implementing a subset (path.h) refuses every layer
// with a bit it lacks, and a bit added later is refused by default. The host path branches on
// these bits; values (eps, scales, window sizes) stay in the struct, the bit saying the feature
// is on. Stable lowercase names: path_feature_name (path.c). 64 bits, so macros.
#define LF(n) ((uint64_t)1 << (n))
// Kind: one of LF_ATTN / LF_GDN per layer (LF_MLA comes with LF_ATTN); one of LF_FFN_DENSE / LF_FFN_MOE.
#define LF_ATTN              LF(0)   // softmax attention mixer
#define LF_GDN               LF(1)   // Gated DeltaNet mixer
#define LF_MLA               LF(25)  // multi-head latent attention (attn.c: attn_mla_layer)
#define LF_FFN_DENSE         LF(4)   // dense FFN
#define LF_FFN_MOE           LF(5)   // routed experts
// Norms
#define LF_LAYERNORM         LF(28)  // the block's norms are LayerNorms (else RMSNorm)
#define LF_NORM_BIAS         LF(29)  // attn_norm, attn_norm_2 or ffn_norm carries a bias
#define LF_NO_ATTN_NORM      LF(30)  // no pre-attention norm: the mixer reads x (olmo2)
#define LF_ATTN_NORM_2       LF(31)  // the mixer reads its own norm attn_norm_2 of x (falcon-40B)
#define LF_NO_FFN_NORM       LF(32)  // no pre-FFN norm: the FFN reads x (olmo2) or attn_norm's output (falcon)
#define LF_POST_ATTN_NORM    LF(11)  // true post-norm on the mixer output (sandwich)
#define LF_POST_FFN_NORM     LF(12)  // post-norm on the FFN output
// Attention
#define LF_QK_NORM           LF(2)   // per-head RMSNorm on q and k before RoPE
#define LF_QK_NORM_FULL      LF(18)  // RMSNorm (or LayerNorm, LF_QK_LN) over the whole q / k rows
#define LF_QK_LN             LF(19)  // the full-row q/k norm is a LayerNorm with bias (mpt)
#define LF_ATTN_GATE         LF(3)   // q is [q_h | gate_h] per head; o *= sigmoid(gate)
#define LF_ATTN_BIAS         LF(8)   // a bias on some mixer matrix (attention, MLA or Gated DeltaNet)
#define LF_FUSED_QKV         LF(10)  // attn_qkv instead of q/k/v
#define LF_ATTN_SINKS        LF(16)  // a sink logit per head joins the softmax denominator (gpt-oss)
#define LF_SWA               LF(17)  // sliding-window attention (swa_window)
#define LF_Q_PRESCALE        LF(20)  // q *= kq_scale after RoPE, attention scale 1 (gemma, phi3)
#define LF_ALIBI             LF(21)  // ALiBi position bias (hp.alibi_max_bias)
#define LF_CLAMP_KQV         LF(22)  // q, k, v clamped to [-hp.clamp_kqv, hp.clamp_kqv]
#define LF_ATTN_SOFTCAP      LF(27)  // s = c tanh(s / c) on the attention logits (hp.attn_softcap)
#define LF_MLA_Q_LORA        LF(47)  // MLA: q through the low-rank wq_a, q_a_norm, wq_b (else one wq)
// RoPE (attention layers)
#define LF_NO_ROPE           LF(26)  // no rotary embedding in this layer
#define LF_ROPE_NEOX         LF(37)  // rotary pairs (i, i + n_rot/2) instead of (2i, 2i + 1)
#define LF_ROPE_YARN         LF(38)  // YaRN ramp and magnitude scale (hp.rope_ext_factor, rope_n_ctx_orig)
#define LF_ROPE_FREQS        LF(39)  // per-pair frequency factors (m->rope_freqs)
#define LF_ROPE_SCALED       LF(40)  // rope_scale != 1 or hp.rope_attn_factor != 1
#define LF_ROPE_PARTIAL      LF(41)  // n_rot < head_dim: the last head_dim - n_rot dims are not rotated
// Gated DeltaNet
#define LF_GDN_BA_FUSED      LF(48)  // one ssm_ba [b | a per key head] instead of ssm_beta / ssm_alpha (qwen3next)
#define LF_GDN_GROUPED_V     LF(49)  // value head h reads key head h / (nv/nk) (else h % nk)
// FFN
#define LF_FFN_UNGATED       LF(24)  // y = W_d act(W_u x + b_u) + b_d
#define LF_FFN_GATE_UP_FUSED LF(15)  // [gate | up] in one matrix (dense ffn_up 2F wide, or ffn_gate_up_exps)
#define LF_FFN_BIAS          LF(9)   // a bias on some FFN matrix (dense, router, expert, shared expert)
#define LF_ACT_GELU          LF(33)  // GELU (gated: GeGLU) instead of SiLU
#define LF_ACT_SWIGLU_OAI    LF(34)  // gpt-oss's clamped SwiGLU instead of SiLU
#define LF_ACT_SCALES        LF(35)  // ungated FFN: act(u) divided by ffn_act_scales (AWQ; mpt)
#define LF_FFN_SHEXP         LF(6)   // shared expert (always SiLU-gated) added to the routed output
#define LF_FFN_SHEXP_GATE    LF(7)   // sigmoid gate on the shared expert
#define LF_MOE_NORM_W        LF(14)  // routed weights renormalized to sum 1
#define LF_MOE_PROBS_BIAS    LF(42)  // exp_probs_b added to the selection scores (not the weights)
#define LF_MOE_SIGMOID       LF(43)  // expert probabilities by sigmoid instead of softmax
#define LF_MOE_SOFTMAX_K     LF(44)  // top-k on raw router logits, softmax over the k (gpt-oss)
#define LF_MOE_GROUPS        LF(45)  // group-limited routing (hp.expert_groups, expert_groups_used)
#define LF_MOE_W_SCALE       LF(46)  // routed weights times hp.expert_weights_scale
// Whole block
#define LF_WSCALE            LF(13)  // some weight carries a per-tensor scale != 1
#define LF_PARALLEL          LF(23)  // x + attn(n) + ffn(n') instead of sequential residuals
#define LF_RESIDUAL_SCALE    LF(36)  // sequential: both branch outputs times hp.f_residual_scale (granite)

// Features of the model outside its layers (embedding and output), derived once at load: m->feat.
// Names: path_model_feature_name (path.c).
#define MF(n) ((uint64_t)1 << (n))
#define MF_EMB_SQRT          MF(0)   // embedding times sqrt(D), computed in float (gemma)
#define MF_EMB_SCALE         MF(1)   // embedding times hp.f_emb_scale (granite)
#define MF_POS_EMBD          MF(2)   // learned absolute position rows added to the embedding (mpt)
#define MF_TOK_NORM          MF(3)   // norm right after the embedding (bloom)
#define MF_LAYERNORM         MF(4)   // token and output norms are LayerNorms (else RMSNorm)
#define MF_NORM_BIAS         MF(5)   // the token or the output norm carries a bias
#define MF_OUTPUT_BIAS       MF(6)   // output.bias added to the logits
#define MF_LOGIT_SCALE       MF(7)   // logits divided by hp.f_logit_scale (granite)
#define MF_FINAL_SOFTCAP     MF(8)   // logits = c tanh(logits / c), c = hp.final_softcap
#define MF_TIED_OUTPUT       MF(9)   // the output head is the token table (same weights)

enum ffn_act { ACT_SILU = 0, ACT_GELU, ACT_SWIGLU_OAI };
enum norm_kind { NORM_RMS = 0, NORM_LAYER };
enum gating_func { GATING_SOFTMAX = 1, GATING_SIGMOID = 2, GATING_SOFTMAX_WEIGHT = 3 };

struct layer_path;

struct layer {
    uint64_t feat;          // LF_* bits
    const struct layer_path *path; // the path the plan chose (path.h), NULL before planning
    char *path_refused;     // "path: missing a b; ..." for the paths before it that refused, or
                            // NULL; owned by the model
    int n_head, n_head_kv;  // attention heads (query, kv)
    int head_dim, head_dim_v;
    int n_ff;               // dense FFN width, or routed expert width
    int n_ff_shexp;
    int n_expert, n_expert_used;
    float rope_base, rope_scale; // per layer (SWA layers may differ)
    int n_rot;
    int swa_window;         // 0: full attention
    float kq_scale;         // attention logit scale (applied to q instead when LF_Q_PRESCALE)

    const float *attn_norm, *attn_norm_b;  // [D] pre-norm (NULL: none, olmo2)
    const float *attn_norm_2, *attn_norm_2_b; // [D] falcon-40B: separate attention-input norm
    struct weight wq, wk, wv, wo, wqkv;    // attention projections
    const float *q_norm, *k_norm;          // [head_dim], or [H*d] / [Hkv*d] when LF_QK_NORM_FULL
    const float *q_norm_b, *k_norm_b;      // LayerNorm biases (LF_QK_LN)
    const float *post_attn_norm;           // [D] sandwich post-norm
    const float *attn_sinks;               // [n_head]

    const float *ffn_norm, *ffn_norm_b;    // [D] pre-FFN norm
    const float *post_ffn_norm;
    struct weight ffn_gate, ffn_up, ffn_down;         // dense
    const float *ffn_act_scales;                       // [n_ff] ungated: act(u) / s (AF_FFN_ACT_SCALES)
    struct weight gate_inp;                            // router [D -> E]
    const float *exp_probs_b;                          // [E]
    struct weight gate_exps, up_exps, down_exps, gate_up_exps;
    struct weight gate_shexp, up_shexp, down_shexp;
    const float *gate_inp_shexp;                       // [D] shared-expert gate row (F32 copy)

    // Multi-head latent attention (LF_MLA). K cache rows are [kv_cmpr | k_pe]
    // (head_dim = kv_lora + n_rot), V rows kv_cmpr (head_dim_v = kv_lora).
    struct weight wq_a, wq_b;   // [D -> q_lora], [q_lora -> H*(d_nope+n_rot)] (or wq when no q_lora)
    struct weight wkv_a;        // [D -> kv_lora + n_rot]
    struct weight wk_b, wv_b;   // per head: [d_nope -> kv_lora], [kv_lora -> dv_mla]
    const float *q_a_norm, *kv_a_norm;
    int kv_lora, d_nope, dv_mla;

    // Gated DeltaNet
    struct weight ssm_qkv;     // conv-input projection [D -> C]
    struct weight ssm_gate;    // z [D -> value_dim]
    struct weight ssm_beta, ssm_alpha, ssm_ba;
    const float *ssm_conv1d;   // [C][Kc]
    const float *ssm_dt_b;     // [nv]
    const float *ssm_a;        // [nv]
    const float *ssm_norm;     // [dv]
    struct weight ssm_out;     // [value_dim -> D]
};

struct hparams {
    int n_vocab, n_embd, n_layer, n_ctx_train;
    int n_head, n_head_kv, head_dim, head_dim_v, n_ff, n_rot; // globals (layers may differ)
    float norm_eps;
    float rope_base, rope_freq_scale, rope_attn_factor;
    int rope_mode;             // ROPE_NORM / ROPE_NEOX / ROPE_NONE
    int n_expert, n_expert_used;
    int gating;                // enum gating_func
    float expert_weights_scale;
    // Gated DeltaNet
    int ssm_conv_kernel, ssm_d_state, ssm_n_group, ssm_dt_rank, ssm_d_inner;
    bool gdn_grouped_v;        // qwen3next: value head h uses key head h / r (else h % nk)
    float f_emb_scale, f_logit_scale, f_residual_scale, f_attn_scale;
    float attn_softcap, final_softcap;
    int norm_kind;             // enum norm_kind
    int ffn_act;               // enum ffn_act
    float alibi_max_bias;      // 0: no ALiBi
    float clamp_kqv;           // 0: no clamp
    // YaRN (ext_factor 1) on every RoPE layer; n_ctx_orig sets the ramp
    float rope_ext_factor;
    int rope_n_ctx_orig;
    bool moe_norm_w;           // from expert_weights_norm (deepseek2)
    int expert_groups, expert_groups_used;
};

enum { ROPE_NONE = -1, ROPE_NORM = 0, ROPE_NEOX = 2 };

struct seq_shape;

struct model {
    const struct arch_info *arch;
    uint64_t feat;              // MF_* bits
    struct gguf_file *gguf;
    struct hparams hp;
    struct weight tok_embd;     // [D x V]
    struct weight output;       // [D x V] (== tok_embd when tied)
    const float *output_norm, *output_norm_b;
    const float *output_bias;   // [V]
    const float *tok_norm, *tok_norm_b; // [D] LayerNorm right after the embedding (bloom)
    struct weight pos_embd;     // [D x n_ctx_train] learned positions (mpt), data NULL when absent
    const float *rope_freqs;    // [n_rot/2] frequency factors (llama3; phi3's short factors), NULL
    struct layer *layers;
    int n_gdn_layers, n_attn_layers;
    void *packed_arena;         // weights repacked at load (weight.packed points inside), or NULL
    size_t packed_bytes;
    void **owned;               // F32 copies of small tensors (norms, biases, conv, scales)
    int n_owned, cap_owned;
    int *unread;                // tensors nothing reads (loaded with allow_unread): indices in gguf
    int n_unread;
    char name[128];
    struct seq_shape *seq_shape; // what its sequences hold (model/shape.h), built at load
};

// Every matrix a layer may hold (absent ones have data == NULL), as initializer lists for walks
// over all of them: the plain and per-head products, and the routed experts.
#define LAYER_MATRICES(L)                                                                                   \
    &(L)->wq, &(L)->wk, &(L)->wv, &(L)->wo, &(L)->wqkv, &(L)->wq_a, &(L)->wq_b, &(L)->wkv_a, &(L)->wk_b,   \
        &(L)->wv_b, &(L)->ffn_gate, &(L)->ffn_up, &(L)->ffn_down, &(L)->gate_inp, &(L)->gate_shexp,         \
        &(L)->up_shexp, &(L)->down_shexp, &(L)->ssm_qkv, &(L)->ssm_gate, &(L)->ssm_beta, &(L)->ssm_alpha,   \
        &(L)->ssm_ba, &(L)->ssm_out
#define LAYER_EXPERT_MATRICES(L) &(L)->gate_exps, &(L)->up_exps, &(L)->down_exps, &(L)->gate_up_exps

struct model_load_opts {
    bool allow_unread;   // accept tensors nothing reads (listed on stderr), as the reference does
    bool keep_layout;    // leave the weights in the file's layout (no repacking at load): for
                         // callers that only inspect the model
    const char *device;  // "cpu" or "cuda" for the plan (path_plan); NULL: FRINK_DEVICE, else cpu
};

// Binds `f` (ownership passes to the model on success) and validates it. Fails,
// naming the reason, for an unknown architecture, a tensor nothing reads, a
// metadata scale or option nothing applies, a missing or misshapen tensor.
frink_status model_load(struct gguf_file *f, const struct model_load_opts *opts, struct model **out);
void model_free(struct model *m);

// Bytes of all weights the forward reads per token (for GB/s figures).
uint64_t model_weight_bytes(const struct model *m);

#endif
