// forward_impl.h — what the host-path files (forward.c, attn.c, gdn.c) share.
#ifndef FRINK_FORWARD_IMPL_H
#define FRINK_FORWARD_IMPL_H

#include <stdint.h>

#include "model/forward.h"

struct layer_path;

// A run: the rows [t0, t0 + n) of a step that extend one sequence, from position p0.
struct exec_run {
    struct seq *s;
    int t0, n, p0;
};

// A sequence's tokens in a batch of exec_batch, in the order they were given.
struct batch_seq {
    struct seq *s;
    int n, done;   // its tokens; how many are evaluated
    int *idx;      // [n] their indices in the batch (into the caller's array)
};

// A backend for matrix products: y_k[t][0..n_out) = W_k[mat] x_t for the n <= 4 weights
// w[0..n) (one type, one input width, all of this backend; mat > 0, an expert matrix, only
// with n == 1), T rows of x [T][ldx] into y_k [T][ldy]; the caller adds bias and scale
// (exec_mm's epilogue). Every weight points at its backend (weight.mm), set by the plan: so a
// path decides where its layers' products run and exec_mm does not branch on it.
struct mm_backend {
    const char *name;
    void (*mm)(struct exec *ex, int n, const struct weight *const *w, int mat, const float *x, int64_t ldx, int T,
               float *const *y, int64_t ldy);
};

// The host backend (ops.c): quant_matmul / quant_matmul_packed over the pool's threads.
extern const struct mm_backend mm_host;

// The per-executor state of one path of the plan (path.h: path_ops.state_create), made by
// exec_create for every path other than the host's that the model's layers are planned on.
struct exec_path_state {
    const struct layer_path *p;
    void *state;
};
#define EXEC_PATHS_MAX 8

struct exec {
    const struct model *m;
    struct pool *pool;
    int max_T;          // batch capacity of the scratch buffers
    int gdn_chunk;      // chunk size of the chunked delta rule (<= 1: token recurrence)
    enum quant_isa_id isa; // the kernel set of every call into src/quant (exec_set_kernels)
    bool packed;        // weight.packed is in isa's layout (else products read weight.data)
    int ldh;            // row stride of hb* (widest intermediate)
    // The step being evaluated: its runs (one per sequence, rows grouped by sequence) and,
    // per row, its run and position. Planned for max_T rows at creation.
    struct exec_run *run; // [max_T]
    int n_run;
    int *tok_run;       // [T] run of each row
    int *pos;           // [T] position of each row in its sequence
    int *out, *out_dst; // [T] rows whose logits are wanted, and where they go
    float *step_logits; // [step_logits_cap] output rows (logits or hidden) of one step of exec_batch
    size_t step_logits_cap;
    bool out_hidden;    // output rows are the normed final hidden state [D], not logits (exec_set_hidden_out)
    int32_t *step_ids;  // [max_T] token ids of one step of exec_batch
    struct batch_seq *bat_seq; // [bat_cap] exec_batch's grouping of the batch by sequence
    int *bat_idx;       // [2 * bat_cap]: batch indices grouped by sequence | logits row per token
    size_t bat_cap;
    float *x;           // [T][D] residual stream
    float *xn;          // [T][D] normed input of the current block
    float *y;           // [T][D] block output
    float *xg, *yg;     // [T][D] gathered rows (experts), scratch outputs
    float *y2;          // [T][D] FFN output of a parallel block
    float *xn2;         // [T][D] attention input when it has its own norm (falcon attn_norm_2)
    float *x0;          // [T][D] the normed embedding, kept for the layers' skips (LF_EMB_SKIP; talkie)
    float *hb, *hb2;    // [T][ldh] intermediates (FFN hidden, q, ...)
    float *hb3, *hb4;   // [T][ldh]
    float *router;      // [T][E]
    int *sel;           // [T][K] chosen experts
    float *selw;        // [T][K] their weights
    int *tok_idx;       // [T*K] token of each gathered row
    float *tok_w;       // [T*K]
    uint16_t *acc16;    // [threads][16][1024] F16 attention accumulators
    float *accf;        // [threads][16][1024] F32 attention accumulators (F32/Q8_0 caches)
    uint8_t *xq;        // quantized activations
    size_t xq_cap;
    // which activation xq holds (so q/k/v share one conversion)
    struct exec_path_state paths[EXEC_PATHS_MAX]; // [n_paths]
    int n_paths;
    const float *act_x;
    uint32_t act_type;
    int act_T;
    int64_t act_n, act_ldx;
    exec_observe_fn observe; // sees each product's input rows before it runs (exec_set_observer)
    void *observe_ud;
};

// ops.c: products and small ops (the building blocks of every block; they call back into
// nothing of forward.c or the mixers).
// exec_act: T rows of x converted to w's activation format, cached until the input changes
// (exec_act_invalidate after writing to a buffer that was an input).
const uint8_t *exec_act(struct exec *ex, const struct weight *w, const float *x, int64_t ldx, int T);
void exec_act_invalidate(struct exec *ex);
// y_k[t] = (W_k x_t) * scale + bias for n <= 4 weights sharing one input, one pass over the threads.
void exec_mm_multi(struct exec *ex, int n, const struct weight *const *w, const float *x, int64_t ldx, int T,
                   float *const *y, int64_t ldy);
// y[t] = (W[mat] x_t) * scale + bias, for T rows of x.
void exec_mm(struct exec *ex, const struct weight *w, int mat, const float *x, int64_t ldx, int T, float *y, int64_t ldy);
// Shows the observer (exec_set_observer), when there is one, a product's input rows.
static inline void exec_observe(struct exec *ex, const void *key, const char *name, int64_t n_in, int64_t n_mat,
                                int mat, const float *x, int64_t ldx, int T) {
    if (ex->observe) ex->observe(ex->observe_ud, key, name, n_in, n_mat, mat, x, ldx, T);
}
void exec_rms_norm(float *y, const float *x, const float *w, int n, float eps);
void exec_layer_norm(float *y, const float *x, const float *w, const float *b, int n, float eps);
// The causal depthwise convolution (causal_conv.c) of channels [c0, c1) of one sequence's rows
// x [T][ld], in place: out(t, c) = sum_i raw(t - Kc + 1 + i, c) * w_c[i], summed in i order from 0
// (then + bias_c when bias is not NULL) as the reference's ssm_conv, then SiLU when silu.
// raw(t < 0) comes from state [C][Kc - 1] (indexed by absolute channel), which ends up holding
// the last Kc - 1 raw inputs. w points at channel c0's weight row [Kc] (rows of consecutive
// channels follow), bias at c0's bias. Kc <= 16.
void exec_causal_conv(enum quant_isa_id isa, float *x, int64_t ld, int T, float *state, const float *w, const float *bias, int Kc,
                      int64_t c0, int64_t c1, bool silu);
float exec_silu(float x);
float exec_sigmoid(float x);

// The host block of layer il on rows x [T][D] of the step (forward.c): x += mixer, x += ffn,
// the state of layer il of every sequence of the step updated. What a path that keeps its
// activations on the host (a test's shadow device) may call for the layers it runs.
void exec_host_block(struct exec *ex, int il, float *x, int T);

// Mixers: read xn [T][D], write y [T][D], update the state of layer il of every
// sequence of the step (ex->run): products over all T rows, attention and the
// recurrence per sequence.
void attn_layer(struct exec *ex, int il, const float *xn, int T, float *y);
void gdn_layer(struct exec *ex, int il, const float *xn, int T, float *y);
void attn_mla_layer(struct exec *ex, int il, const float *xn, int T, float *y);
// attn.c's pieces for the mixers in other files: RoPE of layer L (its n_rot, mode, base,
// scaling, frequency factors) on the first n_rot floats at v, for position pos; and the
// attention of the step's T query rows q [T][H][head_dim] (stride ldq) over the K/V rows of
// layer il already stored in each row's sequence, into o [T][H * head_dim_v].
void attn_rope(const struct model *m, const struct layer *L, float *v, int pos);
void attn_attend(struct exec *ex, const struct layer *L, const float *q, int64_t ldq, int il, int T, float *o);
// The groups' mixers (each in its own file), same contract.
// >>> ssm: Mamba / Mamba-2 mixers and the hybrids built on them
void mamba2_layer(struct exec *ex, int il, const float *xn, int T, float *y); // mamba2.c
void relu2_ffn_layer(struct exec *ex, int il, const float *xn, int T, float *y); // mamba2.c
// <<<
// >>> conv and linear attention: short convolutions, KDA, lightning attention
void mamba_layer(struct exec *ex, int il, const float *xn, int T, float *y);     // mamba.c
void shortconv_layer(struct exec *ex, int il, const float *xn, int T, float *y); // shortconv.c
void plamo2_mamba_layer(struct exec *ex, int il, const float *xn, int T, float *y); // plamo2.c
// <<<
// >>> MLA and sparse-attention families
// FRINK_OK, or the refusal of a sequence reaching n_end positions past the lightning
// indexer's top_k (dsa.c): checked before a step evaluates anything.
frink_status dsa_check_positions(const struct model *m, int64_t n_end);
// minicpm3's latent attention in the MHA form (minicpm3.c).
void mla_mha_layer(struct exec *ex, int il, const float *xn, int T, float *y);
// Kimi Delta Attention (kda.c): each sequence's run in order, its conv and S state updated.
void kda_layer(struct exec *ex, int il, const float *xn, int T, float *y);
// bailingmoe3 (kda.c): o [T][H*dv] (packed) *= sigmoid(W_gate xn) per head; uses ex->hb3.
void mla_head_gate(struct exec *ex, const struct layer *L, const float *xn, int T, float *o);
// MiniMax-01 (lightning.c): its lightning attention mixer, and its whole block (LF_NORM_RESIDUAL:
// exec_host_block hands it x [T][D] in and out).
void lightning_layer(struct exec *ex, int il, const float *xn, int T, float *y);
void mm01_block(struct exec *ex, int il, float *x, int T);
// <<<
// >>> chat-format and sliding-window families
// <<<
// >>> dense families
// <<<
// >>> MoE families
// moe.c: the FFN of an LF_MOE_BESIDE_DENSE or LF_MOE_DENSE_RSQRT2 layer: y = dense(xn) +
// experts(xe) (arctic: xe = ffn_norm_exps(block input)), times sqrt(2)/2 for the latter (grok:
// xe = xn); xn the normed residual after the mixer; all [T][D].
// moe.c: grovemoe's FFN, y = experts(xn) + expert_group_scale * chunk_experts(experts(xn)), both
// routed by the same router logits of xn; xn, y [T][D].
void moe_ffn_grove(struct exec *ex, const struct layer *L, const float *xn, int T, float *y);
void moe_ffn_beside_dense(struct exec *ex, const struct layer *L, const float *xn, const float *xe, int T, float *y);
// <<<
// >>> GPT-2 style, vision-language text towers and the rest
// <<<

// FFN blocks (ffn.c): read xn [T][D], write y [T][D]. ffn_init builds the GELU table once.
void ffn_init(void);
void ffn_dense(struct exec *ex, const struct layer *L, const float *xn, int T, float *y);
void ffn_moe(struct exec *ex, const struct layer *L, const float *xn, int T, float *y);

#endif
