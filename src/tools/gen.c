// gen.c — random-weight GGUF files with the real shapes of named models
// (frink_gen_model), for parity and speed checks at sizes no fixture has.
// `frink gen` is the command-line front end.
//
// The file is what the reference's converter would write for that model, with
// the weights replaced by random ones:
//   matrices      N(0, 1/sqrt(fan_in)), fan_in = ne[0]             F16
//   norms         N(1, 0.1) (the +1 of zero-centred norms folded)   F32
//   ssm_a         -exp(A_log), A_log ~ U(0, 2)                       F32
//   ssm_dt.bias   N(0, 0.1)                                          F32
//   ssm_conv1d    N(0, 1/sqrt(Kc))                                   F32 (as the converter keeps it)
//   ffn_gate_inp  router, N(0, 1/sqrt(D))                            F32 (ditto)
//   rope_freqs    the Llama-3 frequency factors (llama presets)      F32
// and every `tokenizer.*` key copied from a vocabulary GGUF (the vocabulary
// size is that file's token count).
//
// Weights are drawn per row from a generator seeded by (seed, tensor name,
// row of the *Hugging Face* layout). The Gated DeltaNet tensors whose value
// heads the qwen35 converter reorders (grouped -> tiled, architectures.md
// §1.4e) are written through the same permutation, so `qwen35moe-tiny` and
// `qwen3next-tiny` with one seed are the same network in the two orderings:
// their logits must agree, which pins the head mapping of both.
//
// Tensors are streamed row by row: memory stays at one row whatever the size.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/gguf.h"
#include "frink_tools.h"
#include "quant/quant.h"
#include "quant/types.h"

#define GEN_ALIGN 32

// ---- presets -------------------------------------------------------------------------

// FAM_SSM2: Mamba-2 hybrids, one letter of `pattern` a layer — 'M' Mamba-2, '*' attention,
// '-' an FFN alone (nemotron_h); granitehybrid puts an FFN after every mixer.
// FAM_BERT: BERT encoders in the converter's names (biases everywhere, post-norms, learned
// positions, token types); FAM_BERT_RANK adds a reranker's head (cls, cls.output of one class).
// The other encoders, as their converters write them: FAM_NOMIC (BERT's post-norm graph, a fused
// qkv, RoPE, a SiLU-gated FFN, no biases), FAM_NEOBERT (RMSNorm pre-norms, a fused qkv, ffn_up
// holding [gate | up], enc.output_norm, and a reranker's head), FAM_EUROBERT (Llama's blocks with
// grouped KV heads, output_norm), FAM_MODERN (LayerNorm pre-norms without biases, none before layer
// 0's attention, a fused qkv, ffn_up holding [gate | up] for GeGLU, a sliding window on two layers
// of three, output_norm), FAM_JINA2 (BERT's post-norm graph without positions, biases as the
// converter writes them; layer 0 with q/k LayerNorms and a separate ffn_gate, layer 1 with
// attn_norm_2 and a GeGLU ffn_up of 2 n_ff rows, layer 2 ungated, so that one file holds each
// variant; a one-row cls head). FAM_MODERN and FAM_NEOBERT carry their rerankers' heads too.
enum gen_family { FAM_LLAMA, FAM_HYBRID, FAM_SSM2, FAM_BERT, FAM_BERT_RANK, FAM_NOMIC, FAM_NEOBERT, FAM_EUROBERT, FAM_MODERN,
                  FAM_JINA2 };
#define FAM_IS_ENCODER(f) ((f) >= FAM_BERT)

struct gen_preset {
    const char *name, *arch, *vocab, *about;
    enum gen_family fam;
    int D, n_layer, n_head, n_head_kv, head_dim, n_ff, n_rot, ctx;
    float rope_base, eps;
    int nk, nv, dk, dv, Kc, interval;         // Gated DeltaNet (hybrid family)
    int n_expert, n_expert_used, n_ff_exp, n_ff_shexp; // MoE FFN when n_expert > 0
    bool llama3_rope;                          // rope_freqs.weight (Llama 3.1+ scaling)
    // FAM_SSM2: nk = groups, nv = heads, dk = state size, dv = head dim, Kc = conv kernel
    const char *pattern;                       // one letter per layer (see enum gen_family)
    float emb_scale, residual_scale, attn_scale, logit_scale; // granite's multipliers (0: none)
    const char *hidden_act;                    // FAM_MODERN: <arch>.hidden_activation (NULL: none, GeGLU)
    bool qk_norm;                              // FAM_LLAMA: per-head attn_q_norm / attn_k_norm (qwen3)
    int pooling;                               // FAM_LLAMA: <arch>.pooling_type written (3 last); 0: none
};

// Shapes from the models' config.json files. Qwen3.5-2B's real vocabulary has
// 248 320 entries; here the vocabulary is whatever --vocab holds. The MTP block
// the Qwen3.5 converter can append is not written (no engine runs it in the
// main forward).
static const struct gen_preset presets[] = {
    {"qwen35-2b", "qwen35", "tests/data/vocab/ggml-vocab-qwen35.gguf", "Qwen3.5-2B shape (dense, hybrid GDN)",
     FAM_HYBRID, 2048, 24, 8, 2, 256, 6144, 64, 262144, 1e7f, 1e-6f, 16, 16, 128, 128, 4, 4, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"llama-1b", "llama", "tests/data/vocab/ggml-vocab-llama-bpe.gguf", "Llama-3.2-1B shape",
     FAM_LLAMA, 2048, 16, 32, 8, 64, 8192, 64, 131072, 500000.0f, 1e-5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, true, NULL, 0, 0, 0, 0, NULL, false, 0},
    // Qwen3-Embedding-0.6B's config.json: Qwen3's blocks (per-head q/k RMSNorms), tied
    // embeddings, last-token pooling. Its tokenizer is Qwen2's BPE (pre-tokenizer "qwen2",
    // 151 669 entries in the real file; the qwen2 vocabulary here has 151 936).
    {"qwen3-embedding-0.6b", "qwen3", "tests/data/vocab/ggml-vocab-qwen2.gguf", "Qwen3-Embedding-0.6B shape (last pooling)",
     FAM_LLAMA, 1024, 28, 16, 8, 128, 3072, 128, 32768, 1e6f, 1e-6f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL,
     true, 3},
    // Tiny hybrids with nv = 2 nk, so the value-head ordering matters (tests). Their vocabulary
    // (NULL) is the embedded model's 512-token Llama tokenizer: the file runs anywhere, where the
    // fixture tests/data/archs/qwen35-dense.gguf (--vocab) has the reference's "test" tokenizer.
    {"qwen35-tiny", "qwen35", NULL, "tiny dense hybrid, nk=2 nv=4",
     FAM_HYBRID, 64, 4, 2, 1, 32, 128, 8, 4096, 1e7f, 1e-6f, 2, 4, 16, 16, 4, 4, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"qwen35moe-tiny", "qwen35moe", NULL, "tiny MoE hybrid, tiled value heads",
     FAM_HYBRID, 64, 4, 2, 1, 32, 128, 8, 4096, 1e7f, 1e-6f, 2, 4, 16, 16, 4, 4, 4, 2, 32, 64, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"qwen3next-tiny", "qwen3next", NULL, "tiny MoE hybrid, grouped value heads",
     FAM_HYBRID, 64, 4, 2, 1, 32, 128, 8, 4096, 1e7f, 1e-6f, 2, 4, 16, 16, 4, 4, 4, 2, 32, 64, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    // Granite-4.0-H-350M's config.json: 28 Mamba-2 layers (48 heads of 32, one group, state 128)
    // and attention (12 heads, 4 KV, NoPE) at layers 10, 13, 17, 27, each followed by a SwiGLU
    // FFN of 2048; its multipliers. The real vocabulary has 100 352 entries (GPT-2 style BPE).
    {"granite4-h-350m", "granitehybrid", "tests/data/vocab/ggml-vocab-gpt-2.gguf", "Granite-4.0-H-350M shape (Mamba-2 hybrid)",
     FAM_SSM2, 768, 32, 12, 4, 64, 2048, 64, 32768, 10000.0f, 1e-5f, 1, 48, 128, 32, 4, 0, 0, 0, 0, 0, false,
     "MMMMMMMMMM*MM*MMM*MMMMMMMMM*MMMM", 12.0f, 0.246f, 0.015625f, 3.0f, NULL, false, 0},
    // Nemotron-H-4B: 52 layers — 24 Mamba-2 (112 heads of 64, 8 groups, state 128), 4 attention
    // (32 heads, 8 KV, 128 wide, NoPE), 24 squared-ReLU FFNs of 12288 — in its published pattern.
    // The real vocabulary has 131 072 entries.
    {"nemotron-h-4b", "nemotron_h", "tests/data/vocab/ggml-vocab-llama-bpe.gguf", "Nemotron-H-4B shape (Mamba-2 hybrid)",
     FAM_SSM2, 3072, 52, 32, 8, 128, 12288, 128, 8192, 10000.0f, 1e-5f, 8, 112, 128, 64, 4, 0, 0, 0, 0, 0, false,
     "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-", 0, 0, 0, 0, NULL, false, 0},
    // Tiny BERT encoders on bge-small's real WordPiece vocabulary (30 522 entries): the test
    // fixtures of the encoder family (tests/test_embed.c), CLS pooling as bge's, and a reranker
    // (rank pooling) with its classification head.
    {"bert-tiny", "bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny BERT encoder (bge vocabulary, CLS pooling)",
     FAM_BERT, 64, 2, 4, 4, 16, 128, 0, 512, 0, 1e-12f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    // bge-small-en-v1.5's config.json: 12 post-norm layers of 384 (12 heads of 32), GELU FFN of
    // 1536, 512 learned positions, CLS pooling.
    {"bge-small", "bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "bge-small-en-v1.5 shape (BERT encoder, CLS pooling)",
     FAM_BERT, 384, 12, 12, 12, 32, 1536, 0, 512, 0, 1e-12f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"bert-rank-tiny", "bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny BERT reranker (bge vocabulary, rank pooling)",
     FAM_BERT_RANK, 64, 2, 4, 4, 16, 128, 0, 512, 0, 1e-12f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    // The rotary encoders on the same vocabulary, each in its family's real layout and pooling
    // (nomic-embed's mean and RoPE base 1000, NeoBERT's CLS with a reranker's head, EuroBERT's
    // grouped KV heads and RoPE base 250 000, ModernBERT's global RoPE base 160 000 and 10 000 on
    // its sliding layers, with a window of 8 here, so that the longer inputs see its edges).
    {"nomic-bert-tiny", "nomic-bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny nomic-bert encoder (bge vocabulary, mean pooling)",
     FAM_NOMIC, 64, 2, 4, 4, 16, 128, 0, 2048, 1000.0f, 1e-12f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"neo-bert-tiny", "neo-bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny NeoBERT encoder, rank head (bge vocabulary, CLS pooling)",
     FAM_NEOBERT, 64, 2, 4, 4, 16, 96, 0, 4096, 10000.0f, 1e-5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"eurobert-tiny", "eurobert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny EuroBERT encoder (bge vocabulary, mean pooling)",
     FAM_EUROBERT, 64, 2, 4, 2, 16, 128, 0, 8192, 250000.0f, 1e-5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    {"modern-bert-tiny", "modern-bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny ModernBERT encoder, rank head (bge vocabulary, mean pooling)",
     FAM_MODERN, 64, 3, 4, 4, 16, 96, 0, 8192, 160000.0f, 1e-5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
    // (as Granite Embedding R2: SwiGLU by hidden_activation "silu")
    {"modern-bert-swiglu-tiny", "modern-bert", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny ModernBERT encoder, SwiGLU, rank head (bge vocabulary, mean)",
     FAM_MODERN, 64, 3, 4, 4, 16, 96, 0, 8192, 160000.0f, 1e-5f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, "silu", false, 0},
    {"jina-bert-v2-tiny", "jina-bert-v2", "tests/data/vocab/ggml-vocab-bert-bge.gguf", "tiny Jina BERT v2 encoder, ALiBi, rank head (bge vocabulary, mean)",
     FAM_JINA2, 64, 3, 4, 4, 16, 128, 0, 8192, 0, 1e-12f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, NULL, 0, 0, 0, 0, NULL, false, 0},
};

// ---- deterministic random numbers ------------------------------------------------------

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t fnv1a(const char *s) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static double uniform01(uint64_t *s) { return ((splitmix64(s) >> 11) + 0.5) * 0x1p-53; } // (0, 1)

// n standard normals (Box-Muller).
static void normals(uint64_t *s, float *x, int64_t n) {
    for (int64_t i = 0; i < n; i += 2) {
        double r = sqrt(-2.0 * log(uniform01(s))), th = 6.283185307179586 * uniform01(s);
        x[i] = (float)(r * cos(th));
        if (i + 1 < n) x[i + 1] = (float)(r * sin(th));
    }
}

// ---- tensor plan -----------------------------------------------------------------------

enum gen_init { INIT_MATRIX, INIT_NORM, INIT_SSM_A, INIT_DT_BIAS, INIT_CONV, INIT_ROPE_FREQS };

// Value-head reordering of one axis, grouped (HF) -> tiled (qwen35): indices
// >= off are heads of `unit` elements; file head j*nk + g holds HF head g*r + j.
struct gen_perm {
    int64_t off, unit; // unit 0: identity
};

struct gen_tensor {
    char name[GGUF_MAX_NAME];
    char rng[GGUF_MAX_NAME]; // weights are drawn under this name (= name, except fused ssm_ba)
    uint32_t n_dims, type;
    int64_t ne[3];
    enum gen_init init;
    struct gen_perm rows, cols;
    bool ba;                 // qwen3next ssm_ba: rows from ssm_beta / ssm_alpha, grouped per key head
    uint64_t nbytes, offset;
};

struct gen_plan {
    const struct gen_preset *p;
    int n_layer, n_vocab;
    uint64_t seed;
    struct gen_tensor *t;
    int n, cap;
};

static struct gen_tensor *plan_add(struct gen_plan *pl, enum gen_init init, uint32_t n_dims, int64_t ne0, int64_t ne1,
                                   int64_t ne2, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static struct gen_tensor *plan_add(struct gen_plan *pl, enum gen_init init, uint32_t n_dims, int64_t ne0, int64_t ne1,
                                   int64_t ne2, const char *fmt, ...) {
    if (pl->n == pl->cap) {
        int cap = pl->cap ? 2 * pl->cap : 256;
        struct gen_tensor *t = realloc(pl->t, (size_t)cap * sizeof *t);
        if (!t) return NULL;
        pl->t = t;
        pl->cap = cap;
    }
    struct gen_tensor *t = &pl->t[pl->n++];
    memset(t, 0, sizeof *t);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->name, sizeof t->name, fmt, ap);
    va_end(ap);
    memcpy(t->rng, t->name, sizeof t->rng);
    t->n_dims = n_dims;
    t->ne[0] = ne0;
    t->ne[1] = ne1;
    t->ne[2] = ne2;
    t->init = init;
    // F16 matrices; vectors, conv weights and the router stay F32 as the converter keeps them.
    bool f32 = n_dims == 1 || init != INIT_MATRIX || strstr(t->name, "ffn_gate_inp.");
    t->type = f32 ? GGML_TYPE_F32 : GGML_TYPE_F16;
    t->nbytes = (uint64_t)(ne0 * ne1 * ne2) * (f32 ? 4 : 2);
    return t;
}

#define MAT(...) plan_add(pl, INIT_MATRIX, 2, __VA_ARGS__)
#define NORM(n, ...) plan_add(pl, INIT_NORM, 1, n, 1, 1, __VA_ARGS__)

// Offsets of the tensors, in order, each aligned.
static void plan_offsets(struct gen_plan *pl) {
    uint64_t off = 0;
    for (int i = 0; i < pl->n; i++) {
        pl->t[i].offset = off;
        off += (pl->t[i].nbytes + GEN_ALIGN - 1) / GEN_ALIGN * GEN_ALIGN;
    }
}

// The Mamba-2 hybrids (FAM_SSM2), in the converter's names and shapes: ssm_in rows are
// [z (d_inner) | x B C (d_inner + 2 groups state) | dt (heads)], A and D are [1, heads], the
// gated norm [d_inner / groups, groups].
static bool plan_build_ssm2(struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    int D = p->D, V = pl->n_vocab, H = p->n_head, Hkv = p->n_head_kv, d = p->head_dim;
    int64_t nh = p->nv, di = (int64_t)p->nv * p->dv, xbc = di + 2LL * p->nk * p->dk;
    bool nemo = !strcmp(p->arch, "nemotron_h");
    struct gen_tensor *t;
#define CHK(x) do { if (!(t = (x))) return false; } while (0)
    CHK(MAT(D, V, 1, "token_embd.weight"));
    CHK(NORM(D, "output_norm.weight"));
    if (nemo) CHK(MAT(D, V, 1, "output.weight")); // granite ties its head; nemotron does not
    for (int il = 0; il < pl->n_layer; il++) {
        char kind = p->pattern[il % (int)strlen(p->pattern)];
        CHK(NORM(D, "blk.%d.attn_norm.weight", il));
        if (kind == 'M') {
            CHK(MAT(D, di + xbc + nh, 1, "blk.%d.ssm_in.weight", il));
            CHK(plan_add(pl, INIT_CONV, 2, p->Kc, xbc, 1, "blk.%d.ssm_conv1d.weight", il));
            CHK(plan_add(pl, INIT_DT_BIAS, 1, xbc, 1, 1, "blk.%d.ssm_conv1d.bias", il));
            CHK(plan_add(pl, INIT_DT_BIAS, 1, nh, 1, 1, "blk.%d.ssm_dt.bias", il));
            CHK(plan_add(pl, INIT_SSM_A, 2, 1, nh, 1, "blk.%d.ssm_a", il));
            CHK(plan_add(pl, INIT_NORM, 2, 1, nh, 1, "blk.%d.ssm_d", il));
            CHK(plan_add(pl, INIT_NORM, 2, di / p->nk, p->nk, 1, "blk.%d.ssm_norm.weight", il));
            CHK(MAT(di, D, 1, "blk.%d.ssm_out.weight", il));
        } else if (kind == '*') {
            CHK(MAT(D, (int64_t)H * d, 1, "blk.%d.attn_q.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_k.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_v.weight", il));
            CHK(MAT((int64_t)H * d, D, 1, "blk.%d.attn_output.weight", il));
        }
        if (nemo && kind == '-') {
            CHK(MAT(D, p->n_ff, 1, "blk.%d.ffn_up.weight", il));
            CHK(MAT(p->n_ff, D, 1, "blk.%d.ffn_down.weight", il));
        } else if (!nemo) {
            CHK(NORM(D, "blk.%d.ffn_norm.weight", il));
            CHK(MAT(D, p->n_ff, 1, "blk.%d.ffn_gate.weight", il));
            CHK(MAT(D, p->n_ff, 1, "blk.%d.ffn_up.weight", il));
            CHK(MAT(p->n_ff, D, 1, "blk.%d.ffn_down.weight", il));
        }
    }
#undef CHK
    plan_offsets(pl);
    return true;
}

// The BERT encoders (FAM_BERT*): matrices F16, vectors F32 (token_types too, small values as a
// bias's), every projection with its bias, the norms with theirs.
static bool plan_build_bert(struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    int D = p->D, V = pl->n_vocab, F = p->n_ff;
    struct gen_tensor *t;
#define CHK(x) do { if (!(t = (x))) return false; } while (0)
#define BIAS(n, ...) plan_add(pl, INIT_DT_BIAS, 1, n, 1, 1, __VA_ARGS__)
    CHK(MAT(D, V, 1, "token_embd.weight"));
    CHK(plan_add(pl, INIT_DT_BIAS, 2, D, 2, 1, "token_types.weight"));
    CHK(MAT(D, p->ctx, 1, "position_embd.weight"));
    CHK(NORM(D, "token_embd_norm.weight"));
    CHK(BIAS(D, "token_embd_norm.bias"));
    static const char *const proj[] = {"attn_q", "attn_k", "attn_v", "attn_output"};
    for (int il = 0; il < pl->n_layer; il++) {
        for (int k = 0; k < 4; k++) {
            CHK(MAT(D, D, 1, "blk.%d.%s.weight", il, proj[k]));
            CHK(BIAS(D, "blk.%d.%s.bias", il, proj[k]));
        }
        CHK(NORM(D, "blk.%d.attn_output_norm.weight", il));
        CHK(BIAS(D, "blk.%d.attn_output_norm.bias", il));
        CHK(MAT(D, F, 1, "blk.%d.ffn_up.weight", il));
        CHK(BIAS(F, "blk.%d.ffn_up.bias", il));
        CHK(MAT(F, D, 1, "blk.%d.ffn_down.weight", il));
        CHK(BIAS(D, "blk.%d.ffn_down.bias", il));
        CHK(NORM(D, "blk.%d.layer_output_norm.weight", il));
        CHK(BIAS(D, "blk.%d.layer_output_norm.bias", il));
    }
    if (p->fam == FAM_BERT_RANK) {
        CHK(MAT(D, D, 1, "cls.weight"));
        CHK(BIAS(D, "cls.bias"));
        CHK(MAT(D, 1, 1, "cls.output.weight"));
        CHK(BIAS(1, "cls.output.bias"));
    }
#undef BIAS
#undef CHK
    plan_offsets(pl);
    return true;
}

// The rotary encoders (FAM_NOMIC, FAM_NEOBERT, FAM_EUROBERT, FAM_MODERN): matrices F16, norms F32,
// no biases but the nomic-bert LayerNorms' (as the models ship).
static bool plan_build_rotary_encoder(struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    int D = p->D, V = pl->n_vocab, F = p->n_ff, Hd = p->n_head * p->head_dim, Hkv = p->n_head_kv * p->head_dim;
    bool nomic = p->fam == FAM_NOMIC, neo = p->fam == FAM_NEOBERT, modern = p->fam == FAM_MODERN;
    struct gen_tensor *t;
#define CHK(x) do { if (!(t = (x))) return false; } while (0)
#define BIAS(n, ...) plan_add(pl, INIT_DT_BIAS, 1, n, 1, 1, __VA_ARGS__)
    CHK(MAT(D, V, 1, "token_embd.weight"));
    if (nomic) {
        CHK(plan_add(pl, INIT_DT_BIAS, 2, D, 2, 1, "token_types.weight"));
        CHK(NORM(D, "token_embd_norm.weight"));
        CHK(BIAS(D, "token_embd_norm.bias"));
    }
    if (modern) CHK(NORM(D, "token_embd_norm.weight"));
    for (int il = 0; il < pl->n_layer; il++) {
        if (!nomic && !(modern && il == 0)) CHK(NORM(D, "blk.%d.attn_norm.weight", il));
        if (p->fam == FAM_EUROBERT) {
            CHK(MAT(D, Hd, 1, "blk.%d.attn_q.weight", il));
            CHK(MAT(D, Hkv, 1, "blk.%d.attn_k.weight", il));
            CHK(MAT(D, Hkv, 1, "blk.%d.attn_v.weight", il));
        } else {
            CHK(MAT(D, Hd + 2 * Hkv, 1, "blk.%d.attn_qkv.weight", il));
        }
        CHK(MAT(Hd, D, 1, "blk.%d.attn_output.weight", il));
        if (nomic) {
            CHK(NORM(D, "blk.%d.attn_output_norm.weight", il));
            CHK(BIAS(D, "blk.%d.attn_output_norm.bias", il));
        } else {
            CHK(NORM(D, "blk.%d.ffn_norm.weight", il));
        }
        if (neo || modern) {
            CHK(MAT(D, 2 * F, 1, "blk.%d.ffn_up.weight", il)); // [gate | up]
        } else {
            CHK(MAT(D, F, 1, "blk.%d.ffn_gate.weight", il));
            CHK(MAT(D, F, 1, "blk.%d.ffn_up.weight", il));
        }
        CHK(MAT(F, D, 1, "blk.%d.ffn_down.weight", il));
        if (nomic) {
            CHK(NORM(D, "blk.%d.layer_output_norm.weight", il));
            CHK(BIAS(D, "blk.%d.layer_output_norm.bias", il));
        }
    }
    if (neo) {
        CHK(NORM(D, "enc.output_norm.weight"));
        CHK(MAT(D, D, 1, "cls.weight"));
        CHK(BIAS(D, "cls.bias"));
        CHK(MAT(D, 1, 1, "cls.output.weight"));
        CHK(BIAS(1, "cls.output.bias"));
    }
    if (p->fam == FAM_EUROBERT || modern) CHK(NORM(D, "output_norm.weight"));
    if (modern) { // (a reranker's head: the pooler without bias, its LayerNorm, one class)
        CHK(MAT(D, D, 1, "cls.weight"));
        CHK(NORM(D, "cls.norm.weight"));
        CHK(MAT(D, 1, 1, "cls.output.weight"));
        CHK(BIAS(1, "cls.output.bias"));
    }
#undef BIAS
#undef CHK
    plan_offsets(pl);
    return true;
}

// Jina BERT v2 (FAM_JINA2): BERT's tensors without positions, every projection and norm with its
// bias but the gate's; the optional parts on one layer each (see enum gen_family).
static bool plan_build_jina2(struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    int D = p->D, V = pl->n_vocab, F = p->n_ff;
    struct gen_tensor *t;
#define CHK(x) do { if (!(t = (x))) return false; } while (0)
#define BIAS(n, ...) plan_add(pl, INIT_DT_BIAS, 1, n, 1, 1, __VA_ARGS__)
    CHK(MAT(D, V, 1, "token_embd.weight"));
    CHK(plan_add(pl, INIT_DT_BIAS, 2, D, 2, 1, "token_types.weight"));
    CHK(NORM(D, "token_embd_norm.weight"));
    CHK(BIAS(D, "token_embd_norm.bias"));
    static const char *const proj[] = {"attn_q", "attn_k", "attn_v", "attn_output"};
    for (int il = 0; il < pl->n_layer; il++) {
        int kind = il % 3; // 0: q/k norms, ffn_gate; 1: attn_norm_2, [gate | up]; 2: ungated
        for (int k = 0; k < 4; k++) {
            CHK(MAT(D, D, 1, "blk.%d.%s.weight", il, proj[k]));
            CHK(BIAS(D, "blk.%d.%s.bias", il, proj[k]));
        }
        if (kind == 0) {
            CHK(NORM(D, "blk.%d.attn_q_norm.weight", il));
            CHK(BIAS(D, "blk.%d.attn_q_norm.bias", il));
            CHK(NORM(D, "blk.%d.attn_k_norm.weight", il));
            CHK(BIAS(D, "blk.%d.attn_k_norm.bias", il));
        }
        CHK(NORM(D, "blk.%d.attn_output_norm.weight", il));
        CHK(BIAS(D, "blk.%d.attn_output_norm.bias", il));
        if (kind == 1) {
            CHK(NORM(D, "blk.%d.attn_norm_2.weight", il));
            CHK(BIAS(D, "blk.%d.attn_norm_2.bias", il));
        }
        if (kind == 0) CHK(MAT(D, F, 1, "blk.%d.ffn_gate.weight", il));
        CHK(MAT(D, kind == 1 ? 2 * F : F, 1, "blk.%d.ffn_up.weight", il));
        CHK(BIAS(kind == 1 ? 2 * F : F, "blk.%d.ffn_up.bias", il));
        CHK(MAT(F, D, 1, "blk.%d.ffn_down.weight", il));
        CHK(BIAS(D, "blk.%d.ffn_down.bias", il));
        CHK(NORM(D, "blk.%d.layer_output_norm.weight", il));
        CHK(BIAS(D, "blk.%d.layer_output_norm.bias", il));
    }
    CHK(MAT(D, 1, 1, "cls.weight")); // (a reranker's head of one row, as jina-reranker-v1's)
    CHK(BIAS(1, "cls.bias"));
#undef BIAS
#undef CHK
    plan_offsets(pl);
    return true;
}

static bool plan_build(struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    if (p->fam == FAM_JINA2) return plan_build_jina2(pl);
    if (p->fam == FAM_SSM2) return plan_build_ssm2(pl);
    if (p->fam == FAM_BERT || p->fam == FAM_BERT_RANK) return plan_build_bert(pl);
    if (FAM_IS_ENCODER(p->fam)) return plan_build_rotary_encoder(pl);
    int D = p->D, V = pl->n_vocab, H = p->n_head, Hkv = p->n_head_kv, d = p->head_dim;
    int nk = p->nk, nv = p->nv, dk = p->dk, dv = p->dv;
    int64_t key_dim = (int64_t)nk * dk, value_dim = (int64_t)nv * dv, C = 2 * key_dim + value_dim;
    bool tiled = strcmp(p->arch, "qwen3next") != 0; // qwen35, qwen35moe reorder value heads
    struct gen_perm vrows = {2 * key_dim, tiled ? dv : 0}, vheads = {0, tiled ? dv : 0}, vone = {0, tiled ? 1 : 0};
    struct gen_tensor *t;
#define CHK(x) do { if (!(t = (x))) return false; } while (0)
    CHK(MAT(D, V, 1, "token_embd.weight"));
    if (p->llama3_rope) CHK(plan_add(pl, INIT_ROPE_FREQS, 1, p->n_rot / 2, 1, 1, "rope_freqs.weight"));
    CHK(NORM(D, "output_norm.weight"));
    // Tied output (no output.weight), as both real models ship.
    for (int il = 0; il < pl->n_layer; il++) {
        CHK(NORM(D, "blk.%d.attn_norm.weight", il));
        bool gdn = p->fam == FAM_HYBRID && (il + 1) % p->interval != 0;
        if (p->fam == FAM_LLAMA) {
            CHK(MAT(D, (int64_t)H * d, 1, "blk.%d.attn_q.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_k.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_v.weight", il));
            if (p->qk_norm) {
                CHK(NORM(d, "blk.%d.attn_q_norm.weight", il));
                CHK(NORM(d, "blk.%d.attn_k_norm.weight", il));
            }
            CHK(MAT((int64_t)H * d, D, 1, "blk.%d.attn_output.weight", il));
            CHK(NORM(D, "blk.%d.ffn_norm.weight", il));
        } else if (gdn) {
            CHK(MAT(D, C, 1, "blk.%d.attn_qkv.weight", il));
            t->rows = vrows;
            CHK(MAT(D, value_dim, 1, "blk.%d.attn_gate.weight", il));
            t->rows = vheads;
            if (tiled) {
                CHK(MAT(D, nv, 1, "blk.%d.ssm_beta.weight", il));
                t->rows = vone;
                CHK(MAT(D, nv, 1, "blk.%d.ssm_alpha.weight", il));
                t->rows = vone;
            } else {
                CHK(MAT(D, 2 * nv, 1, "blk.%d.ssm_ba.weight", il));
                t->ba = true;
            }
            CHK(plan_add(pl, INIT_CONV, 2, p->Kc, C, 1, "blk.%d.ssm_conv1d.weight", il));
            t->rows = vrows;
            CHK(plan_add(pl, INIT_DT_BIAS, 1, nv, 1, 1, "blk.%d.ssm_dt.bias", il));
            t->cols = vone;
            CHK(plan_add(pl, INIT_SSM_A, 1, nv, 1, 1, "blk.%d.ssm_a", il));
            t->cols = vone;
            CHK(NORM(dv, "blk.%d.ssm_norm.weight", il));
            CHK(MAT(value_dim, D, 1, "blk.%d.ssm_out.weight", il));
            t->cols = vheads;
        } else {
            // gated attention: attn_q rows are [q_h | gate_h] per head
            CHK(MAT(D, 2 * (int64_t)H * d, 1, "blk.%d.attn_q.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_k.weight", il));
            CHK(MAT(D, (int64_t)Hkv * d, 1, "blk.%d.attn_v.weight", il));
            CHK(NORM(d, "blk.%d.attn_q_norm.weight", il));
            CHK(NORM(d, "blk.%d.attn_k_norm.weight", il));
            CHK(MAT((int64_t)H * d, D, 1, "blk.%d.attn_output.weight", il));
        }
        if (p->fam == FAM_HYBRID) CHK(NORM(D, "blk.%d.post_attention_norm.weight", il));
        if (p->n_expert) {
            int E = p->n_expert, Fe = p->n_ff_exp, Fs = p->n_ff_shexp;
            CHK(MAT(D, E, 1, "blk.%d.ffn_gate_inp.weight", il));
            CHK(plan_add(pl, INIT_MATRIX, 3, D, Fe, E, "blk.%d.ffn_gate_exps.weight", il));
            CHK(plan_add(pl, INIT_MATRIX, 3, D, Fe, E, "blk.%d.ffn_up_exps.weight", il));
            CHK(plan_add(pl, INIT_MATRIX, 3, Fe, D, E, "blk.%d.ffn_down_exps.weight", il));
            CHK(plan_add(pl, INIT_MATRIX, 1, D, 1, 1, "blk.%d.ffn_gate_inp_shexp.weight", il));
            CHK(MAT(D, Fs, 1, "blk.%d.ffn_gate_shexp.weight", il));
            CHK(MAT(D, Fs, 1, "blk.%d.ffn_up_shexp.weight", il));
            CHK(MAT(Fs, D, 1, "blk.%d.ffn_down_shexp.weight", il));
        } else {
            CHK(MAT(D, p->n_ff, 1, "blk.%d.ffn_gate.weight", il));
            CHK(MAT(D, p->n_ff, 1, "blk.%d.ffn_up.weight", il));
            CHK(MAT(p->n_ff, D, 1, "blk.%d.ffn_down.weight", il));
        }
    }
#undef CHK
    plan_offsets(pl);
    return true;
}

// File index -> HF index along a permuted axis (see struct gen_perm).
static int64_t perm_hf(const struct gen_preset *p, struct gen_perm pm, int64_t x) {
    if (!pm.unit || x < pm.off) return x;
    int64_t k = x - pm.off, hf = k / pm.unit, e = k % pm.unit;
    int64_t g = hf % p->nk, j = hf / p->nk, r = p->nv / p->nk;
    return pm.off + (g * r + j) * pm.unit + e;
}

// Fills one row of tensor t (file row `row`, n = ne[0] floats) in file order.
static void gen_row(const struct gen_plan *pl, const struct gen_tensor *t, int64_t row, float *x, float *tmp) {
    const struct gen_preset *p = pl->p;
    int64_t n = t->ne[0];
    const char *rng_name = t->rng;
    char ba_name[GGUF_MAX_NAME];
    int64_t hf_row = perm_hf(p, t->rows, row);
    if (t->ba) {
        // qwen3next ssm_ba: per key head g, [beta(r) | alpha(r)] of value heads g*r..g*r+r-1.
        int64_t r = p->nv / p->nk, g = row / (2 * r), w = row % (2 * r);
        int il = atoi(t->name + 4);
        snprintf(ba_name, sizeof ba_name, "blk.%d.ssm_%s.weight", il, w < r ? "beta" : "alpha");
        rng_name = ba_name;
        hf_row = g * r + (w < r ? w : w - r);
    }
    uint64_t s = pl->seed ^ fnv1a(rng_name);
    s ^= splitmix64(&s) + (uint64_t)hf_row * 0xd1342543de82ef95ull;
    float *h = t->cols.unit ? tmp : x;
    switch (t->init) {
    case INIT_MATRIX: {
        float sd = 1.0f / sqrtf((float)n);
        normals(&s, h, n);
        for (int64_t i = 0; i < n; i++) h[i] *= sd;
        break;
    }
    case INIT_CONV: {
        float sd = 1.0f / sqrtf((float)p->Kc);
        normals(&s, h, n);
        for (int64_t i = 0; i < n; i++) h[i] *= sd;
        break;
    }
    case INIT_NORM:
        normals(&s, h, n);
        for (int64_t i = 0; i < n; i++) h[i] = 1.0f + 0.1f * h[i];
        break;
    case INIT_DT_BIAS:
        normals(&s, h, n);
        for (int64_t i = 0; i < n; i++) h[i] *= 0.1f;
        break;
    case INIT_SSM_A:
        for (int64_t i = 0; i < n; i++) h[i] = -expf((float)(2.0 * uniform01(&s)));
        break;
    case INIT_ROPE_FREQS: {
        // Llama 3.1 rope scaling as the converter precomputes it: factor 32,
        // low/high frequency factors 1 and 4, original context 8192.
        const double factor = 32, lo = 1, hi = 4, old_ctx = 8192;
        for (int64_t i = 0; i < n; i++) {
            double freq = pow(p->rope_base, -2.0 * (double)i / p->n_rot), wavelen = 6.283185307179586 / freq;
            if (wavelen < old_ctx / hi) h[i] = 1.0f;
            else if (wavelen > old_ctx / lo) h[i] = (float)factor;
            else {
                double smooth = (old_ctx / wavelen - lo) / (hi - lo);
                h[i] = (float)(1.0 / ((1 - smooth) / factor + smooth));
            }
        }
        break;
    }
    }
    if (t->cols.unit)
        for (int64_t i = 0; i < n; i++) x[i] = tmp[perm_hf(p, t->cols, i)];
}

// ---- GGUF writing ------------------------------------------------------------------------

struct gbuf {
    uint8_t *d;
    size_t n, cap;
    bool oom;
};

static void gb_put(struct gbuf *b, const void *p, size_t n) {
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 1 << 16;
        while (cap < b->n + n) cap *= 2;
        uint8_t *d = realloc(b->d, cap);
        if (!d) { b->oom = true; return; }
        b->d = d;
        b->cap = cap;
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}
static void gb_u32(struct gbuf *b, uint32_t v) { gb_put(b, &v, 4); }
static void gb_u64(struct gbuf *b, uint64_t v) { gb_put(b, &v, 8); }
static void gb_strn(struct gbuf *b, const char *s, uint64_t n) { gb_u64(b, n); gb_put(b, s, (size_t)n); }
static void gb_str(struct gbuf *b, const char *s) { gb_strn(b, s, strlen(s)); }

struct gen_meta {
    struct gbuf b;
    uint64_t n_kv;
    const char *arch;
};

static void key(struct gen_meta *m, const char *k, enum gguf_vtype t) {
    char full[128];
    if (!strncmp(k, "general.", 8) || !strncmp(k, "tokenizer.", 10)) snprintf(full, sizeof full, "%s", k);
    else snprintf(full, sizeof full, "%s.%s", m->arch, k);
    gb_str(&m->b, full);
    gb_u32(&m->b, t);
    m->n_kv++;
}
static void kv_u32(struct gen_meta *m, const char *k, uint32_t v) { key(m, k, GGUF_VT_UINT32); gb_u32(&m->b, v); }
static void kv_f32(struct gen_meta *m, const char *k, float v) { key(m, k, GGUF_VT_FLOAT32); gb_put(&m->b, &v, 4); }
static void kv_str(struct gen_meta *m, const char *k, const char *v) { key(m, k, GGUF_VT_STRING); gb_str(&m->b, v); }
static void kv_i32s(struct gen_meta *m, const char *k, const int32_t *v, uint64_t n) {
    key(m, k, GGUF_VT_ARRAY);
    gb_u32(&m->b, GGUF_VT_INT32);
    gb_u64(&m->b, n);
    gb_put(&m->b, v, n * 4);
}

static void kv_bool(struct gen_meta *m, const char *k, bool v) {
    uint8_t b = v;
    key(m, k, GGUF_VT_BOOL);
    gb_put(&m->b, &b, 1);
}

static size_t vtype_size(enum gguf_vtype t) {
    static const size_t sz[GGUF_VT_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
    return t < GGUF_VT_COUNT ? sz[t] : 0;
}

// Re-serializes a key/value pair read from another file, unchanged.
static void kv_copy(struct gen_meta *m, const struct gguf_kv *kv) {
    struct gbuf *b = &m->b;
    gb_strn(b, kv->key.ptr, kv->key.len);
    gb_u32(b, kv->type);
    m->n_kv++;
    switch (kv->type) {
    case GGUF_VT_STRING: gb_strn(b, kv->v.str.ptr, kv->v.str.len); break;
    case GGUF_VT_ARRAY:
        gb_u32(b, kv->v.arr.type);
        gb_u64(b, kv->v.arr.n);
        if (kv->v.arr.type == GGUF_VT_STRING)
            for (uint64_t i = 0; i < kv->v.arr.n; i++) gb_strn(b, kv->v.arr.strs[i].ptr, kv->v.arr.strs[i].len);
        else gb_put(b, kv->v.arr.data, (size_t)(kv->v.arr.n * vtype_size(kv->v.arr.type)));
        break;
    case GGUF_VT_FLOAT32: { float f = (float)kv->v.f64; gb_put(b, &f, 4); break; }
    case GGUF_VT_FLOAT64: gb_put(b, &kv->v.f64, 8); break;
    default: gb_put(b, &kv->v.u64, vtype_size(kv->type)); break; // little-endian: low bytes first
    }
}

// FAM_SSM2's keys, as the converters write them: per-layer KV head counts (0 on the layers
// without attention: the reference's test for a recurrent layer), nemotron_h's per-layer FFN
// widths (0 where there is none), the Mamba-2 sizes; NoPE (granite: rope.scaling.finetuned
// false; nemotron_h ropes nothing).
static void write_metadata_ssm2(struct gen_meta *m, const struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    bool nemo = !strcmp(p->arch, "nemotron_h");
    int32_t kv[512], ff[512];
    int plen = (int)strlen(p->pattern);
    for (int il = 0; il < pl->n_layer; il++) {
        char kind = p->pattern[il % plen];
        kv[il] = kind == '*' ? p->n_head_kv : 0;
        ff[il] = kind == '-' ? p->n_ff : 0;
    }
    kv_i32s(m, "attention.head_count_kv", kv, (uint64_t)pl->n_layer);
    if (nemo) {
        kv_i32s(m, "feed_forward_length", ff, (uint64_t)pl->n_layer);
        kv_f32(m, "attention.layer_norm_epsilon", p->eps);
    } else {
        kv_u32(m, "feed_forward_length", (uint32_t)p->n_ff);
        kv_bool(m, "rope.scaling.finetuned", false);
        kv_f32(m, "embedding_scale", p->emb_scale);
        kv_f32(m, "residual_scale", p->residual_scale);
        kv_f32(m, "attention.scale", p->attn_scale);
        kv_f32(m, "logit_scale", p->logit_scale);
    }
    kv_u32(m, "ssm.conv_kernel", (uint32_t)p->Kc);
    kv_u32(m, "ssm.state_size", (uint32_t)p->dk);
    kv_u32(m, "ssm.group_count", (uint32_t)p->nk);
    kv_u32(m, "ssm.time_step_rank", (uint32_t)p->nv);
    kv_u32(m, "ssm.inner_size", (uint32_t)(p->nv * p->dv));
}

// The BERT encoders' keys, as the converter writes them: LayerNorm epsilon, non-causal, the
// pooling (CLS 2, RANK 4: llama_pooling_type's numbers).
// The rotary encoders add their RoPE base, LayerNorm (nomic-bert, modern-bert) or RMSNorm epsilon,
// grouped KV heads (eurobert), modern-bert's window and sliding RoPE base, and pool by mean
// (nomic-bert, eurobert, modern-bert) or CLS (neo-bert).
static void write_metadata_bert(struct gen_meta *m, const struct gen_plan *pl) {
    const struct gen_preset *p = pl->p;
    bool bert = p->fam == FAM_BERT || p->fam == FAM_BERT_RANK || p->fam == FAM_JINA2; // (no RoPE)
    kv_u32(m, "feed_forward_length", (uint32_t)p->n_ff);
    kv_u32(m, "attention.head_count", (uint32_t)p->n_head);
    if (p->fam == FAM_EUROBERT) kv_u32(m, "attention.head_count_kv", (uint32_t)p->n_head_kv);
    if (bert || p->fam == FAM_NOMIC || p->fam == FAM_MODERN) kv_f32(m, "attention.layer_norm_epsilon", p->eps);
    else kv_f32(m, "attention.layer_norm_rms_epsilon", p->eps);
    if (!bert) kv_f32(m, "rope.freq_base", p->rope_base);
    // (their converters say "none" for neo-bert, eurobert and modern-bert; the last adds its
    // window, period and vocabulary size)
    if (!bert && p->fam != FAM_NOMIC) kv_str(m, "rope.scaling.type", "none");
    if (p->fam == FAM_MODERN) {
        kv_u32(m, "attention.sliding_window", 8);
        kv_u32(m, "attention.sliding_window_pattern", 3);
        kv_f32(m, "rope.freq_base_swa", 10000.0f);
        kv_u32(m, "vocab_size", (uint32_t)pl->n_vocab);
        if (p->hidden_act) kv_str(m, "hidden_activation", p->hidden_act);
    }
    kv_bool(m, "attention.causal", false);
    kv_u32(m, "pooling_type", p->fam == FAM_BERT_RANK ? 4 : p->fam == FAM_NEOBERT || p->fam == FAM_BERT ? 2 : 1);
}

static void write_metadata(struct gen_meta *m, const struct gen_plan *pl, const struct gguf_file *vocab) {
    const struct gen_preset *p = pl->p;
    char name[96];
    snprintf(name, sizeof name, "frink-gen %s (random weights, seed %" PRIu64 ")", p->name, pl->seed);
    kv_str(m, "general.architecture", p->arch);
    kv_str(m, "general.name", name);
    kv_u32(m, "general.alignment", GEN_ALIGN);
    kv_u32(m, "general.file_type", 1); // MOSTLY_F16
    kv_u32(m, "general.quantization_version", 2);
    kv_u32(m, "context_length", (uint32_t)p->ctx);
    kv_u32(m, "embedding_length", (uint32_t)p->D);
    kv_u32(m, "block_count", (uint32_t)pl->n_layer);
    if (FAM_IS_ENCODER(p->fam)) {
        write_metadata_bert(m, pl);
        goto tokenizer;
    }
    if (p->fam != FAM_SSM2) kv_u32(m, "feed_forward_length", (uint32_t)p->n_ff);
    kv_u32(m, "attention.head_count", (uint32_t)p->n_head);
    if (p->fam != FAM_SSM2) kv_u32(m, "attention.head_count_kv", (uint32_t)p->n_head_kv);
    kv_u32(m, "attention.key_length", (uint32_t)p->head_dim);
    kv_u32(m, "attention.value_length", (uint32_t)p->head_dim);
    kv_f32(m, "attention.layer_norm_rms_epsilon", p->eps);
    kv_f32(m, "rope.freq_base", p->rope_base);
    kv_u32(m, "rope.dimension_count", (uint32_t)p->n_rot);
    if (p->fam == FAM_LLAMA) kv_u32(m, "vocab_size", (uint32_t)pl->n_vocab);
    if (p->pooling) kv_u32(m, "pooling_type", (uint32_t)p->pooling);
    if (p->fam == FAM_SSM2) write_metadata_ssm2(m, pl);
    if (p->fam == FAM_HYBRID) {
        if (strcmp(p->arch, "qwen3next")) {
            static const int32_t sections[4] = {11, 11, 10, 0};
            kv_i32s(m, "rope.dimension_sections", sections, 4);
        }
        kv_u32(m, "ssm.conv_kernel", (uint32_t)p->Kc);
        kv_u32(m, "ssm.state_size", (uint32_t)p->dk);
        kv_u32(m, "ssm.group_count", (uint32_t)p->nk);
        kv_u32(m, "ssm.time_step_rank", (uint32_t)p->nv);
        kv_u32(m, "ssm.inner_size", (uint32_t)(p->nv * p->dv));
        kv_u32(m, "full_attention_interval", (uint32_t)p->interval);
    }
    if (p->n_expert) {
        kv_u32(m, "expert_count", (uint32_t)p->n_expert);
        kv_u32(m, "expert_used_count", (uint32_t)p->n_expert_used);
        kv_u32(m, "expert_feed_forward_length", (uint32_t)p->n_ff_exp);
        kv_u32(m, "expert_shared_feed_forward_length", (uint32_t)p->n_ff_shexp);
    }
tokenizer:
    for (uint64_t i = 0; i < vocab->n_kv; i++)
        if (vocab->kv[i].key.len > 10 && !memcmp(vocab->kv[i].key.ptr, "tokenizer.", 10)) kv_copy(m, &vocab->kv[i]);
}

// ---- the public entry points -------------------------------------------------------------

#define N_PRESETS ((int)(sizeof presets / sizeof presets[0]))

// Row i of the preset table: its name, architecture and one line about it; NULL past
// the end (or for a negative i). The strings are static.
const char *frink_gen_preset_name(int i) { return i >= 0 && i < N_PRESETS ? presets[i].name : NULL; }
const char *frink_gen_preset_arch(int i) { return i >= 0 && i < N_PRESETS ? presets[i].arch : NULL; }
const char *frink_gen_preset_about(int i) { return i >= 0 && i < N_PRESETS ? presets[i].about : NULL; }

// Hands one progress report to the caller's callback, if there is one.
static void gen_report(const frink_gen_params *gp, frink_gen_progress *pr, int percent, const char *tensor) {
    if (!gp->progress) return;
    pr->percent = percent;
    pr->tensor = tensor;
    gp->progress(gp->progress_ud, pr);
}

extern const unsigned char frink_default_model_data[];
extern const unsigned char frink_default_model_end[];

// The vocabulary file *path names, parsed into *vf. A preset's default (a path into frink's
// source tree) that is missing, because frink runs outside the checkout, and a NULL path both
// fall back to the embedded model's tokenizer, so that `frink gen --preset P` works anywhere;
// *path then names it for the report. A --vocab the caller gave is never replaced.
static frink_status gen_vocab_open(const char **path, bool given, struct gguf_file **vf) {
    static const char embedded[] = "the embedded stories260K tokenizer";
    if (given || (*path && !access(*path, R_OK))) return gguf_open(*path, vf);
    *path = embedded;
    return gguf_parse(frink_default_model_data, (size_t)(frink_default_model_end - frink_default_model_data), vf);
}

// Writes the file frink_gen_params describes (see frink.h): validates the parameters,
// reads the vocabulary, then streams header and tensors to out_path. Returns FRINK_OK,
// or a status with frink_errmsg() naming the problem: FRINK_ERR_ARG for a bad parameter
// or an unknown preset; gguf_open's status, its message behind "vocabulary: ", when the
// vocabulary cannot be read; FRINK_ERR_FORMAT when it holds no token list; FRINK_ERR_IO
// when out_path cannot be created or written (a partly written file is left in place);
// FRINK_ERR_NOMEM. Prints nothing: progress goes to the caller's callback.
frink_status frink_gen_model(const frink_gen_params *gp) {
    if (!gp || !gp->preset || !gp->out_path) return frink_fail(FRINK_ERR_ARG, "preset and out_path are required");
    if (gp->n_layers < 0 || gp->n_layers > 512)
        return frink_fail(FRINK_ERR_ARG, "n_layers %d is outside [0, 512]", gp->n_layers);
    const struct gen_preset *p = NULL;
    for (int i = 0; i < N_PRESETS; i++)
        if (!strcmp(presets[i].name, gp->preset)) p = &presets[i];
    if (!p) return frink_fail(FRINK_ERR_ARG, "unknown preset '%s'", gp->preset);
    const char *vocab_path = gp->vocab_path ? gp->vocab_path : p->vocab, *out = gp->out_path;
    struct gguf_file *vf;
    frink_status st = gen_vocab_open(&vocab_path, gp->vocab_path != NULL, &vf);
    if (st != FRINK_OK) return frink_fail_ctx(st, "vocabulary: ");
    const struct gguf_kv *toks = gguf_find(vf, "tokenizer.ggml.tokens");
    if (!toks || toks->type != GGUF_VT_ARRAY || toks->v.arr.type != GGUF_VT_STRING || toks->v.arr.n == 0) {
        gguf_close(vf);
        return frink_fail(FRINK_ERR_FORMAT, "'%s' has no tokenizer.ggml.tokens string array", vocab_path);
    }
    struct gen_plan pl = {.p = p, .n_layer = gp->n_layers ? gp->n_layers : p->n_layer,
                          .n_vocab = (int)toks->v.arr.n, .seed = gp->seed};
    struct gen_meta meta = {.arch = p->arch};
    FILE *f = NULL;
    float *row = NULL, *tmp = NULL;
    uint16_t *h16 = NULL;
    if (!plan_build(&pl)) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }
    write_metadata(&meta, &pl, vf);
    // header | kv | tensor infos | pad
    struct gbuf hdr = {0};
    gb_put(&hdr, "GGUF", 4);
    gb_u32(&hdr, 3);
    gb_u64(&hdr, (uint64_t)pl.n);
    gb_u64(&hdr, meta.n_kv);
    gb_put(&hdr, meta.b.d, meta.b.n);
    uint64_t total = 0, max_row = 0;
    for (int i = 0; i < pl.n; i++) {
        const struct gen_tensor *t = &pl.t[i];
        gb_str(&hdr, t->name);
        gb_u32(&hdr, t->n_dims);
        for (uint32_t d = 0; d < t->n_dims; d++) gb_u64(&hdr, (uint64_t)t->ne[d]);
        gb_u32(&hdr, t->type);
        gb_u64(&hdr, t->offset);
        total += t->nbytes;
        if ((uint64_t)t->ne[0] > max_row) max_row = (uint64_t)t->ne[0];
    }
    static const uint8_t zeros[GEN_ALIGN];
    gb_put(&hdr, zeros, (GEN_ALIGN - hdr.n % GEN_ALIGN) % GEN_ALIGN);
    if (hdr.oom || meta.b.oom) { free(hdr.d); st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }
    f = fopen(out, "wb");
    if (!f) {
        free(hdr.d);
        st = frink_fail(FRINK_ERR_IO, "cannot write '%s': %s", out, strerror(errno));
        goto done;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 22);
    size_t hw = fwrite(hdr.d, 1, hdr.n, f);
    free(hdr.d);
    if (hw != hdr.n) goto io_error;
    frink_gen_progress pr = {.preset = p->name, .arch = p->arch, .vocab_path = vocab_path, .out_path = out,
                             .n_layers = pl.n_layer, .n_vocab = pl.n_vocab, .n_tensors = pl.n,
                             .total_bytes = total};
    gen_report(gp, &pr, -1, NULL);
    row = malloc(max_row * sizeof *row);
    tmp = malloc(max_row * sizeof *tmp);
    h16 = malloc(max_row * sizeof *h16);
    if (!row || !tmp || !h16) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto done; }
    uint64_t done_bytes = 0;
    int last_pct = -1;
    for (int i = 0; i < pl.n; i++) {
        const struct gen_tensor *t = &pl.t[i];
        int64_t n = t->ne[0], rows = t->ne[1] * t->ne[2];
        for (int64_t r = 0; r < rows; r++) {
            gen_row(&pl, t, r, row, tmp);
            size_t ok;
            if (t->type == GGML_TYPE_F16) {
                for (int64_t k = 0; k < n; k++) h16[k] = fp32_to_fp16(row[k]);
                ok = fwrite(h16, 2, (size_t)n, f);
            } else ok = fwrite(row, 4, (size_t)n, f);
            if (ok != (size_t)n) goto io_error;
            done_bytes += (uint64_t)n * (t->type == GGML_TYPE_F16 ? 2 : 4);
            // Reported at each multiple of 5% the writing reaches, and at 100%.
            int pct = (int)(100 * done_bytes / (total ? total : 1));
            if (pct != last_pct && (pct % 5 == 0 || pct == 100)) {
                gen_report(gp, &pr, pct, t->name);
                last_pct = pct;
            }
        }
        size_t pad = (size_t)((GEN_ALIGN - t->nbytes % GEN_ALIGN) % GEN_ALIGN);
        if (fwrite(zeros, 1, pad, f) != pad) goto io_error;
    }
    if (fclose(f)) { f = NULL; goto io_error; }
    f = NULL;
    st = FRINK_OK;
    goto done;
io_error:
    st = frink_fail(FRINK_ERR_IO, "writing '%s' failed: %s", out, strerror(errno));
done:
    if (f) fclose(f);
    free(row);
    free(tmp);
    free(h16);
    free(meta.b.d);
    free(pl.t);
    gguf_close(vf);
    return st;
}
