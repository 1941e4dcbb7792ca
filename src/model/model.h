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
#include "model/features.h"
#include "quant/quant.h"

struct mm_backend;

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
    const void *packed; // the same weights repacked at load for model.packed_isa (in the
                        // model's packed arena; quant_pack), NULL when none: data stays valid
    const struct mm_backend *mm; // what computes products with it (forward_impl.h): set by the
                        // plan from the path of its layer (path.h), the host's for the rest
};

// Layer and model features (LF_*, MF_*) and their set type: features.h, the one list.

enum ffn_act { ACT_SILU = 0, ACT_GELU, ACT_SWIGLU_OAI, ACT_RELU };
enum norm_kind { NORM_RMS = 0, NORM_LAYER };
enum gating_func { GATING_SOFTMAX = 1, GATING_SIGMOID = 2, GATING_SOFTMAX_WEIGHT = 3 };

struct layer_path;

struct layer {
    struct featset feat;    // LF_* features (features.h)
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
    char gate_inp_shexp_name[64];                      // its tensor's name (the importance matrix names it)

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

    // The recurrent state this layer's mixer keeps per sequence, in floats (state/seq.h: a
    // layer with either > 0 is SEQ_LAYER_RECURRENT): a conv window and a recurrence state.
    // Set by the mixer's binder; shape.c reads nothing else.
    int64_t rec_conv_floats, rec_ssm_floats;
    int scratch_w;          // the widest intermediate row its mixer needs in ex->hb* (0: the usual)

    // Fields of the families added per group, each group between its two markers.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    // Mamba-2 (mamba2.c; with ssm_conv1d [conv_dim][d_conv], ssm_dt_b [n_head], ssm_a [n_head],
    // ssm_norm [d_inner] (n_group rows of d_inner / n_group) and ssm_out [d_inner -> D] above)
    struct weight ssm_in;        // [D -> d_inner | conv_dim | n_head]: z | xBC | dt
    const float *ssm_conv1d_b;   // [conv_dim]
    const float *ssm_d;          // [n_head] skip: y += x * D[h]
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    // Mamba-1 (LF_MAMBA, mamba.c): di = mb_inner channels, ds = mb_state, r = mb_dt_rank.
    struct weight mb_in;        // [D -> 2*di]: x | z
    struct weight mb_x;         // [di -> r + 2*ds]: dt | B | C
    struct weight mb_dt;        // [r -> di], with its bias (ssm_dt.bias)
    struct weight mb_out;       // [di -> D]
    const float *mb_conv;       // [di][Kc] conv1d weight
    const float *mb_conv_b;     // [di]
    const float *mb_a;          // [di][ds] (already -exp(A_log))
    const float *mb_d;          // [di] skip
    const float *mb_dt_norm, *mb_b_norm, *mb_c_norm; // [r], [ds], [ds] (LF_MAMBA_DBC_NORM; NULL: unweighted)
    int mb_inner, mb_state, mb_dt_rank, mb_kc;
    // PLaMo-2's Mamba (LF_PLAMO2_MAMBA, plamo2.c) uses the same fields with its own shapes: mb_in
    // [D -> nh*(z_h | x_h)], mb_x [di -> B | C | dt] (mb_dt_rank = dt width), mb_dt [dt -> nh],
    // mb_a, mb_d [nh], no conv bias; nh = mb_heads, head width di / nh.
    int mb_heads;
    // LFM2 short convolution (LF_SHORTCONV, shortconv.c): D channels, kernel sc_l.
    struct weight sc_in;        // [D -> 3*D]: b | c | x
    struct weight sc_out;       // [D -> D]
    const float *sc_conv;       // [D][sc_l]
    int sc_l;
    // <<<
    // >>> MLA and sparse-attention families
    // The lightning indexer of DeepSeek sparse attention (LF_DSA_ALL: bound, not computed).
    struct weight idx_q_b;      // [q_lora -> Hi*di]
    struct weight idx_k;        // [D -> di]
    struct weight idx_proj;     // [D -> Hi] per-head weights of the scores
    const float *idx_k_norm, *idx_k_norm_b; // [di] LayerNorm of the indexer key
    struct weight wkv_b;        // LF_MLA_MHA: [kv_lora -> H*(d_nope + dv_mla)], per head [k_nope | v]
    // Kimi Delta Attention (LF_KDA, kda.c): q/k/v in wq/wk/wv, beta in ssm_beta, A in ssm_a,
    // dt_bias in ssm_dt_b [H*d], the output norm in ssm_norm [d], the output in wo.
    const float *kda_conv_q, *kda_conv_k, *kda_conv_v; // [H*d][Kc] each
    struct weight kda_f_a, kda_f_b; // decay: [D -> d], [d -> H*d]
    struct weight kda_g_a, kda_g_b; // output gate: [D -> d], [d -> H*d]
    // Lightning attention (LF_LIGHTNING, lightning.c): [q|k|v] per head in wqkv, the output in wo.
    struct weight la_gate;      // [D -> H*d] sigmoid output gate
    struct weight mla_gate;     // LF_MLA_HEAD_GATE: [D -> H] one sigmoid gate per head of the MLA output
    const float *mla_kpe_norm;  // LF_MLA_KPE_NORM: [n_rot] RMSNorm of the shared rope key before RoPE
    float swiglu_lim_exp, swiglu_lim_shexp; // LF_SWIGLU_LIMIT: the experts' / shared expert's SwiGLU
                                // limit c (0: none; ffn.c glu_limited)
    const float *la_norm;       // [H*d] RMSNorm of the attention output
    // <<<
    // >>> chat-format and sliding-window families
    bool chat_no_rope;      // a layer without RoPE (cohere2's full layers, afmoe's every 4th, ...)
    struct weight chat_wgate; // [D -> H*d] the attention output gate (LF_ATTN_GATE_SEP; [D -> H]: _HEAD)
    float chat_swiglu_limit;  // maple: the experts' SwiGLU clamp c (LF_SWIGLU_CLAMP)
    float chat_post_norm_eps; // muse-glimmer: the post-norms' epsilon (LF_POST_NORM_EPS)
    bool chat_rope_plain;     // laguna's sliding layers: RoPE without YaRN (LF_ROPE_PLAIN)
    // <<<
    // >>> dense families
    int attn_chunk;         // LF_ATTN_CHUNKED: chunk length in positions
    float emb_skip_scale;   // LF_EMB_SKIP: layer_output_scale, times the normed embedding added to x
    // <<<
    // >>> MoE families
    const float *ffn_norm_exps; // [D] arctic: RMSNorm of the block input the routed experts read
    int n_ff_dense;             // arctic, grok: width of the dense FFN beside the experts
    bool moe_nope;              // exaone-moe, smallthinker: this (full-attention) layer has no RoPE
    struct weight gate_chexps, up_chexps, down_chexps; // grovemoe: chunk experts [D -> Fc] x E/G, [Fc -> D]
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    // <<<
    // >>> encoders
    const float *enc_attn_out_norm, *enc_attn_out_norm_b;   // [D] LayerNorm of x + attn(x) (LF_POST_RESIDUAL_NORM)
    const float *enc_layer_out_norm, *enc_layer_out_norm_b; // [D] LayerNorm of x + ffn(x)
    const float *enc_attn_norm_2, *enc_attn_norm_2_b;       // [D] jina-bert-v2: LayerNorm of that + the block input
                                                            // (LF_ENC_READD_NORM), NULL when absent
    // <<<
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

    // Hyperparameters of the families added per group, each group between its two markers.
    // >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
    // <<<
    // >>> conv and linear attention: short convolutions, KDA, lightning attention
    // <<<
    // >>> MLA and sparse-attention families
    int dsa_n_head, dsa_head_dim; // lightning indexer heads and key length (AX_DSA)
    int dsa_top_k;             // positions the indexer selects; 0: no indexer (model/dsa.c)
    int mla_q_lora, mla_kv_lora; // AX_MINICPM3: the latent ranks (minicpm3.c)
    int kda_head_dim, kda_conv;  // AX_KIMI_LINEAR: KDA head size and conv kernel (kda.c)
    float mm01_residual_scale;   // AX_MINIMAX01: the normed input's weight in both residuals
    float kda_gate_lower_bound;  // AX_KDA_SIGMOID_GATE: g = lower_bound * sigmoid(.)
    int mla_kv_lora_swa, mla_dqk_swa, mla_dv_swa; // AX_DOTS3: the sliding layers' MLA rank and head sizes
    // <<<
    // >>> chat-format and sliding-window families
    float chat_attn_out_scale; // mimo2: attention.value_scale (0: none), applied after wo
    // <<<
    // >>> dense families
    int attn_temp_floor;       // LF_ATTN_TEMP: positions per temperature step
    float attn_temp_scale, attn_temp_offset;
    // <<<
    // >>> MoE families
    bool rms_norm_bias;        // RMSNorm weights have an optional `.bias` added after them (phimoe)
    float grove_group_scale;   // grovemoe: expert_group_scale, the chunk experts' output factor
    int grove_per_group;       // grovemoe: experts_per_group (G): chunk expert c serves experts c*G ..
    // <<<
    // >>> GPT-2 style, vision-language text towers and the rest
    // M-RoPE (vlm.h): rope.dimension_sections, the layout (0: none, 1: sequential, 2: interleaved),
    // and whether some rotary pair falls on the fourth stream (unrotated for text tokens)
    int mrope_sections[4], mrope_mode;
    bool mrope_extra;
    // <<<
};

enum { ROPE_NONE = -1, ROPE_NORM = 0, ROPE_NEOX = 2 };

struct seq_shape;

struct model {
    const struct arch_info *arch;
    struct featset feat;        // MF_* features (features.h)
    struct gguf_file *gguf;
    struct hparams hp;
    struct weight tok_embd;     // [D x V]
    struct weight output;       // [D x V] (== tok_embd when tied)
    const float *output_norm, *output_norm_b;
    const float *output_bias;   // [V]
    int pooling;                // <arch>.pooling_type (llama_pooling_type's numbers), -1 when absent
    struct weight cls_out;      // [D x n_cls_out] a reranker's classification head (cls.output), data
                                // NULL when absent; read only where the reference reads it (qwen3,
                                // the encoders, with its bias there)
    struct weight cls;          // [D x D] the encoders' pooler before it (cls, with bias: tanh(W x + b)),
                                // data NULL when absent; jina-bert-v2's is [D x 1] and the head itself
                                // (no cls.output); modern-bert's has no bias and a GELU
    const float *cls_norm;      // [D] modern-bert: LayerNorm of the pooler's output (cls.norm), NULL when absent
    const float *type_row;      // [D] token_types row 0 (MF_TOKEN_TYPE), NULL when absent
    const float *tok_norm, *tok_norm_b; // [D] LayerNorm right after the embedding (bloom)
    struct weight pos_embd;     // [D x n_ctx_train] learned positions (mpt), data NULL when absent
    const float *rope_freqs;    // [n_rot/2] frequency factors (llama3; phi3's short factors), NULL
    struct layer *layers;
    int n_gdn_layers, n_attn_layers;
    void *packed_arena;         // weights repacked at load (weight.packed points inside), or NULL
    size_t packed_bytes;
    bool on_cuda;               // the model's device is cuda (path_plan: model_load_opts.device,
                                // else FRINK_DEVICE): its plan may place layers there
    enum quant_isa_id packed_isa; // the kernel set whose layout the packed copies are in (the
                                  // CPU's best at load): only an executor on that set uses them
    void **owned;               // F32 copies of small tensors (norms, biases, conv, scales)
    int n_owned, cap_owned;
    int *unread;                // tensors nothing reads (loaded with allow_unread): indices in gguf
    int n_unread;
    char name[128];
    struct seq_shape *seq_shape; // what its sequences hold (model/shape.h), built at load
};

// Every matrix a layer may hold (absent ones have data == NULL), as initializer lists for walks
// over all of them: the plain and per-head products, and the routed experts. A new matrix goes
// in its group's lines (packing at load, weight bytes and the path's backend all walk these).
#define LAYER_MATRICES(L)                                                                                   \
    &(L)->wq, &(L)->wk, &(L)->wv, &(L)->wo, &(L)->wqkv, &(L)->wq_a, &(L)->wq_b, &(L)->wkv_a, &(L)->wk_b,   \
        &(L)->wv_b, &(L)->ffn_gate, &(L)->ffn_up, &(L)->ffn_down, &(L)->gate_inp, &(L)->gate_shexp,         \
        &(L)->up_shexp, &(L)->down_shexp, &(L)->ssm_qkv, &(L)->ssm_gate, &(L)->ssm_beta, &(L)->ssm_alpha,   \
        &(L)->ssm_ba, &(L)->ssm_out                                                                          \
        /* >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them (each line ", &(L)->name") */ \
        , &(L)->ssm_in \
        /* <<< */ \
        /* >>> conv and linear attention: short convolutions, KDA, lightning attention (each line ", &(L)->name") */ \
        , &(L)->mb_in, &(L)->mb_x, &(L)->mb_dt, &(L)->mb_out \
        , &(L)->sc_in, &(L)->sc_out \
        /* <<< */ \
        /* >>> MLA and sparse-attention families (each line ", &(L)->name") */ \
        , &(L)->wkv_b, &(L)->kda_f_a, &(L)->kda_f_b, &(L)->kda_g_a, &(L)->kda_g_b, &(L)->la_gate, &(L)->mla_gate \
        /* <<< */ \
        /* >>> chat-format and sliding-window families (each line ", &(L)->name") */ \
        , &(L)->chat_wgate \
        /* <<< */ \
        /* >>> dense families (each line ", &(L)->name") */ \
        /* <<< */ \
        /* >>> MoE families (each line ", &(L)->name") */ \
        /* (grovemoe's chunk experts: stacks, never packed; weight bytes count them whole) */ \
        , &(L)->gate_chexps, &(L)->up_chexps, &(L)->down_chexps \
        /* <<< */ \
        /* >>> GPT-2 style, vision-language text towers and the rest (each line ", &(L)->name") */ \
        /* <<< */ \
        /* (end) */
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
