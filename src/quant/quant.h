// quant.h — GGUF block formats, exact scalar conversions, and the matvec API the forward uses.
//
// Every block struct below is byte-for-byte the on-disk layout (packed, little-endian, no
// padding); each size is pinned with a _Static_assert. The numbers and the decode rules are
// those of ggml (see specs/formats-and-tokenizers.md §3); llama.cpp is the numerical reference.
//
// How a weight row is multiplied by an activation, in short:
//   1. the activation x (f32) is converted ONCE per matvec input to the format the weight type
//      pairs with (quant_act_from_float): F16, BF16, Q8_0, Q8_1, Q8_K or plain F32;
//   2. each output y[r] = vec_dot(row r of W, xq), an integer dot inside each block, scaled.
// The kernels are picked from a per-type table by the kernel set each call names (enum
// quant_isa_id): an executor resolves its set once, when its context is made (scalar for the
// reference kernels, else the CPU's best), and passes it down, so contexts with different
// choices in one process never see each other's. quant_active_isa() is the process-wide choice
// for callers without a context (frink bench --kernels, the kernel tests).
#ifndef FRINK_QUANT_H
#define FRINK_QUANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "quant/types.h"

// The kernel sets, slowest first. SCALAR is the reference twins (the oracle); the others need
// the CPU features quant.c checks, and a set without its own kernel for a type falls back to the
// next lower one.
enum quant_isa_id { QUANT_ISA_SCALAR, QUANT_ISA_AVX2, QUANT_ISA_AVX512, QUANT_ISA_COUNT };

// The best set this CPU runs, capped by the environment's FRINK_ISA ("scalar", "avx2": to
// compare the sets on one machine; never raised). Both read once.
enum quant_isa_id quant_cpu_isa(void);
// "scalar", "avx2" or "avx512vnni".
const char *quant_isa_name(enum quant_isa_id isa);

typedef uint16_t ggml_half; // IEEE binary16 bits
typedef uint16_t ggml_bf16; // top half of a binary32

#define QK_K 256   // K-quant super-block
#define QK8_0 32
#define QK8_1 32
#define QK4_0 32
#define QK4_1 32
#define QK5_0 32
#define QK5_1 32
#define QK4_NL 32
#define QK_MXFP4 32
#define QK1_0 128
#define QK2_0 64
#define K_SCALE_SIZE 12

// ---- 32-element blocks ------------------------------------------------------------------------

// Q8_0: y = d * qs[e]. Also the main activation format.
typedef struct {
    ggml_half d;
    int8_t qs[QK8_0];
} block_q8_0;
_Static_assert(sizeof(block_q8_0) == 34, "block_q8_0");

// Q8_1 (activation only): s = fp16(d_f32 * sum(qs)) lets Q4_1/Q5_1 apply their min in one product.
typedef struct {
    ggml_half d;
    ggml_half s;
    int8_t qs[QK8_1];
} block_q8_1;
_Static_assert(sizeof(block_q8_1) == 36, "block_q8_1");

// The 4-bit nibble split shared by Q4_0, Q4_1, Q5_*, IQ4_NL, MXFP4 (and each IQ4_XS sub-block):
//
//   qs[j] = | hi nibble: element j+16 | lo nibble: element j |     j = 0..15
//
// so the first 16 elements are the low nibbles and the last 16 the high nibbles.

// Q4_0: y = (q - 8) * d
typedef struct {
    ggml_half d;
    uint8_t qs[QK4_0 / 2];
} block_q4_0;
_Static_assert(sizeof(block_q4_0) == 18, "block_q4_0");

// Q4_1: y = q * d + m
typedef struct {
    ggml_half d;
    ggml_half m;
    uint8_t qs[QK4_1 / 2];
} block_q4_1;
_Static_assert(sizeof(block_q4_1) == 20, "block_q4_1");

// Q5_0: y = (q - 16) * d; bit e of qh (u32 LE) is the 5th bit of element e.
typedef struct {
    ggml_half d;
    uint8_t qh[4];
    uint8_t qs[QK5_0 / 2];
} block_q5_0;
_Static_assert(sizeof(block_q5_0) == 22, "block_q5_0");

// Q5_1: y = q * d + m
typedef struct {
    ggml_half d;
    ggml_half m;
    uint8_t qh[4];
    uint8_t qs[QK5_1 / 2];
} block_q5_1;
_Static_assert(sizeof(block_q5_1) == 24, "block_q5_1");

// IQ4_NL: y = d * kvalues_iq4nl[nibble]
typedef struct {
    ggml_half d;
    uint8_t qs[QK4_NL / 2];
} block_iq4_nl;
_Static_assert(sizeof(block_iq4_nl) == 18, "block_iq4_nl");

// MXFP4: y = kvalues_mxfp4[nibble] * E8M0_half(e); the table holds E2M1 values doubled.
typedef struct {
    uint8_t e;
    uint8_t qs[QK_MXFP4 / 2];
} block_mxfp4;
_Static_assert(sizeof(block_mxfp4) == 17, "block_mxfp4");

// ---- sign / ternary-ish small formats -------------------------------------------------------

// Q1_0: 128 elements, y = bit ? d : -d, element e = bit (e%8) of qs[e/8] (LSB first).
// Pairs with FOUR consecutive Q8_0 activation blocks.
typedef struct {
    ggml_half d;
    uint8_t qs[QK1_0 / 8];
} block_q1_0;
_Static_assert(sizeof(block_q1_0) == 18, "block_q1_0");

// Q2_0: 64 elements, y = (q - 1) * d, element e = bits 2(e%4)..+1 of qs[e/4].
// Pairs with TWO consecutive Q8_0 activation blocks.
typedef struct {
    ggml_half d;
    uint8_t qs[QK2_0 / 4];
} block_q2_0;
_Static_assert(sizeof(block_q2_0) == 18, "block_q2_0");

// ---- K-quants (super-block of 256) ----------------------------------------------------------
//
// The 2-bit field layout shared by Q2_K, Q3_K (low bits) and TQ2_0:
//
//   each 128-element half h uses 32 bytes qs[32h .. 32h+31];
//   byte l holds  | e=96+l | e=64+l | e=32+l | e=l |   (bits 7..6, 5..4, 3..2, 1..0)
//                 relative to element 128h.

// Q2_K: y = (d * (sc & 15)) * q - dmin * (sc >> 4), one (sc,min) nibble pair per 16 elements.
typedef struct {
    uint8_t scales[QK_K / 16];
    uint8_t qs[QK_K / 4];
    ggml_half d;
    ggml_half dmin;
} block_q2_K;
_Static_assert(sizeof(block_q2_K) == 84, "block_q2_K");

// Q3_K: q = low2 - (hmask bit ? 0 : 4), y = (d * S) * q with 16 signed 6-bit scales S.
typedef struct {
    uint8_t hmask[QK_K / 8];
    uint8_t qs[QK_K / 4];
    uint8_t scales[12];
    ggml_half d;
} block_q3_K;
_Static_assert(sizeof(block_q3_K) == 110, "block_q3_K");

// Q4_K / Q5_K scales[12]: 8 (scale, min) pairs of 6 bits, one per 32-element sub-block:
//
//   byte  0..3  (j=0..3): | bits 5..4 of scale j+4 | scale j, 6 bits |
//   byte  4..7  (j=0..3): | bits 5..4 of min j+4   | min j, 6 bits   |
//   byte  8..11 (j=0..3): | bits 3..0 of min j+4   | bits 3..0 of scale j+4 |
//
// Q4_K: y = (d * sc) * q - dmin * m, q the nibble; sub-block pair c uses qs[32c..32c+31],
// low nibbles for sub-block 2c and high nibbles for 2c+1. Q5_K adds bit (2c + hi) of qh[l].
typedef struct {
    ggml_half d;
    ggml_half dmin;
    uint8_t scales[K_SCALE_SIZE];
    uint8_t qs[QK_K / 2];
} block_q4_K;

// (scale, min) of sub-block j from the 12 packed bytes above.
static inline void k45_scale_min(int j, const uint8_t *q, uint8_t *sc, uint8_t *m) {
    if (j < 4) {
        *sc = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *sc = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4));
    }
}
_Static_assert(sizeof(block_q4_K) == 144, "block_q4_K");

typedef struct {
    ggml_half d;
    ggml_half dmin;
    uint8_t scales[K_SCALE_SIZE];
    uint8_t qh[QK_K / 8];
    uint8_t qs[QK_K / 2];
} block_q5_K;
_Static_assert(sizeof(block_q5_K) == 176, "block_q5_K");

// Q6_K: q = (low4 | high2 << 4) - 32, y = (d * scales[e/16]) * q (in that order: it can round).
typedef struct {
    uint8_t ql[QK_K / 2];
    uint8_t qh[QK_K / 4];
    int8_t scales[QK_K / 16];
    ggml_half d;
} block_q6_K;
_Static_assert(sizeof(block_q6_K) == 210, "block_q6_K");

// Q8_K (activation only): d is f32; bsums[j] = sum of qs[16j..16j+15] (for the K-quant mins).
typedef struct {
    float d;
    int8_t qs[QK_K];
    int16_t bsums[QK_K / 16];
} block_q8_K;
_Static_assert(sizeof(block_q8_K) == 292, "block_q8_K");

// IQ4_XS: 8 sub-blocks of 32, 6-bit scale ls = lo4 | hi2 << 4, y = d*(ls-32)*kvalues_iq4nl[n].
typedef struct {
    ggml_half d;
    uint16_t scales_h;
    uint8_t scales_l[QK_K / 64];
    uint8_t qs[QK_K / 2];
} block_iq4_xs;
_Static_assert(sizeof(block_iq4_xs) == 136, "block_iq4_xs");
// the 6-bit scale ls of sub-block ib (the element scale is d * (ls - 32))
static inline int iq4_xs_ls(const block_iq4_xs *b, int ib) {
    return ((b->scales_l[ib / 2] >> 4 * (ib % 2)) & 0xf) | (((b->scales_h >> 2 * ib) & 3) << 4);
}

// TQ1_0: ternary in base 3. qs[0..31] hold 5 trits each (elements 0..159),
// qs[32..47] hold 5 trits each (160..239), qh[0..3] hold 4 trits each (240..255).
// A byte b stores trits as a fixed-point fraction: trit n = ((uint8)(b * 3^n) * 3) >> 8.
typedef struct {
    uint8_t qs[(QK_K - 4 * QK_K / 64) / 5];
    uint8_t qh[QK_K / 64];
    ggml_half d;
} block_tq1_0;
_Static_assert(sizeof(block_tq1_0) == 54, "block_tq1_0");

// TQ2_0: y = (q - 1) * d, 2-bit fields laid out like Q2_K.
typedef struct {
    uint8_t qs[QK_K / 4];
    ggml_half d;
} block_tq2_0;
_Static_assert(sizeof(block_tq2_0) == 66, "block_tq2_0");

// ---- value tables ----------------------------------------------------------------------------
extern const int8_t kvalues_iq4nl[16];
extern const int8_t kvalues_mxfp4[16];

// ---- exact scalar conversions (spec §2) ------------------------------------------------------

static inline uint32_t quant_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline float quant_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, 4);
    return f;
}

// binary16 -> binary32, exact for every input. NaN keeps its payload with the quiet bit set,
// as F16C (vcvtph2ps) and ggml's software path both produce.
static inline float fp16_to_fp32(ggml_half h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f)
        return quant_bits_f32(sign | 0x7f800000 | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        if (man == 0) return quant_bits_f32(sign);
        // subnormal: man * 2^-24 is exact in binary32
        float v = (float)man * 0x1p-24f;
        return sign ? -v : v;
    }
    return quant_bits_f32(sign | ((exp + 112) << 23) | (man << 13));
}

// binary32 -> binary16, round to nearest even; overflow -> inf. Same bits as F16C vcvtps2ph,
// which is what ggml's x86 CPU backend converts activations with, for EVERY input: a NaN keeps
// the top 10 payload bits and gets the quiet bit (ggml's portable software path instead gives
// sign | 0x7E00; only NaN inputs tell the two apart).
static inline ggml_half fp32_to_fp16(float f) {
    uint32_t x = quant_f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000, ax = x & 0x7fffffff;
    if (ax > 0x7f800000) return (ggml_half)(sign | 0x7e00 | ((ax >> 13) & 0x3ff));
    if (ax >= 0x477ff000) return (ggml_half)(sign | 0x7c00); // >= 65520 rounds to inf
    if (ax < 0x38800000) {                                   // below 2^-14: subnormal half
        if (ax <= 0x33000000) return (ggml_half)sign;         // <= 2^-25: ties to even -> 0
        uint32_t e = ax >> 23, m = (ax & 0x7fffff) | 0x800000;
        uint32_t shift = 126 - e; // 14..24: value / 2^-24 = m >> shift
        uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1))) q++;
        return (ggml_half)(sign | q);
    }
    uint32_t r = ax + 0xfff + ((ax >> 13) & 1); // round the 13 dropped bits to even
    return (ggml_half)(sign | ((r - 0x38000000) >> 13));
}

static inline float bf16_to_fp32(ggml_bf16 h) { return quant_bits_f32((uint32_t)h << 16); }

// ggml's reference f32 -> bf16: NaN forced quiet, otherwise round to nearest even.
static inline ggml_bf16 fp32_to_bf16(float f) {
    uint32_t u = quant_f32_bits(f);
    if ((u & 0x7fffffff) > 0x7f800000) return (ggml_bf16)((u >> 16) | 64);
    return (ggml_bf16)((u + (0x7fff + ((u >> 16) & 1))) >> 16);
}

// E8M0 exponent byte -> HALF its value (ggml's FP4 table is doubled). No NaN for e = 255.
static inline float e8m0_to_fp32_half(uint8_t e) {
    uint32_t bits = e < 2 ? 0x00200000u << e : (uint32_t)(e - 1) << 23;
    return quant_bits_f32(bits);
}

// ---- e^x for the online softmax ----------------------------------------------------------------
// frink's own e^x, used by every attention path (it replaces libm's expf there, whose bits no
// vector code could reproduce): in double, x clamped to [-200, 200] (NaN passes), k = nearest
// integer of x / ln 2 (by the 1.5 * 2^52 shift), r = x - k ln 2, e^r by its Taylor polynomial to
// r^8 (Horner), times 2^k, rounded once to float. |r| <= 0.35 leaves the polynomial 2^-32 off, so
// the float is within 0.51 ulp of e^x (correctly rounded but near ties; libm's expf is too) and
// subnormal and zero results come out of the one rounding. Plain multiplies and adds (no FMA,
// -ffp-contract=off): the AVX2 twin (attn_avx2.c, eight at once) gives the same bits on every
// input, which test_attn_f16 pins.
#define QUANT_EXP_LOG2E 0x1.71547652b82fep+0
#define QUANT_EXP_LN2 0x1.62e42fefa39efp-1
#define QUANT_EXP_SHIFT 0x1.8p52
// 1/k! for k = 8 .. 2 (then r and 1)
#define QUANT_EXP_C8 (1.0 / 40320.0)
#define QUANT_EXP_C7 (1.0 / 5040.0)
#define QUANT_EXP_C6 (1.0 / 720.0)
#define QUANT_EXP_C5 (1.0 / 120.0)
#define QUANT_EXP_C4 (1.0 / 24.0)
#define QUANT_EXP_C3 (1.0 / 6.0)
#define QUANT_EXP_C2 0.5
static inline float quant_expf(float x) {
    x = x < -200.0f ? -200.0f : x;
    x = x > 200.0f ? 200.0f : x;
    double xd = (double)x;
    double t = xd * QUANT_EXP_LOG2E + QUANT_EXP_SHIFT;
    double kd = t - QUANT_EXP_SHIFT;
    double r = xd - kd * QUANT_EXP_LN2;
    double p = QUANT_EXP_C8;
    p = p * r + QUANT_EXP_C7;
    p = p * r + QUANT_EXP_C6;
    p = p * r + QUANT_EXP_C5;
    p = p * r + QUANT_EXP_C4;
    p = p * r + QUANT_EXP_C3;
    p = p * r + QUANT_EXP_C2;
    p = p * r + 1.0;
    p = p * r + 1.0;
    uint64_t tb, sb, shift = 0;
    double sh = QUANT_EXP_SHIFT;
    memcpy(&tb, &t, 8);
    memcpy(&shift, &sh, 8);
    sb = (tb - shift + 1023) << 52; // 2^k
    double s;
    memcpy(&s, &sb, 8);
    return (float)(p * s);
}

// SiLU on quant_expf: x / (1 + e^-x). quant_silu_mul: dst[i] = silu(g[i]) * u[i] (u NULL: silu(g[i]))
// for n values, eight at a time when isa has AVX2 (the same bits as the scalar loop); dst may be
// g or u.
static inline float quant_silu(float x) { return x / (1.0f + quant_expf(-x)); }
void quant_silu_mul(enum quant_isa_id isa, float *dst, const float *g, const float *u, int n);

// ---- the API the forward pass uses -----------------------------------------------------------
// Each kernel entry point takes `isa`, the kernel set to run (see the top of this file); the
// results of the activation converters, the attention and Gated DeltaNet kernels do not depend
// on it, those of the products do (float accumulation order), which is what the reference set
// is for.

// True when `type` has a dequantizer and a matvec kernel (weights of this type can be used).
bool quant_supported(uint32_t type);

// Activation prep: converts x[n] to the activation format weight type `wt` pairs with
// (F16 for F16, BF16 for BF16, Q8_0 for Q4_0/Q5_0/Q8_0/IQ4_NL/MXFP4/Q1_0/Q2_0, Q8_1 for
// Q4_1/Q5_1, Q8_K for K-quants/IQ4_XS/TQ*, F32 for F32), bit-for-bit as ggml's x86 CPU backend
// does (Q8_0/Q8_1: id = 127/amax, round half to even; Q8_K: the reference quantizer).
// n must be a multiple of the activation block (32 or 256) and of the weight block.
size_t quant_act_size(uint32_t wt, int64_t n); // bytes quant_act_from_float writes
// Every set writes the same bytes (the tests pin it); isa only picks the fastest code.
void quant_act_from_float(enum quant_isa_id isa, uint32_t wt, const float *x, void *xq, int64_t n);

// y[r - r0] = dot(row r of W, x) for r in [r0, r1); rows are row_bytes apart; n = row length.
// xq comes from quant_act_from_float(wt, ...).
void quant_matvec(enum quant_isa_id isa, uint32_t wt, const void *W, size_t row_bytes, const void *xq, int64_t n,
                  float *y, int64_t r0, int64_t r1);

// Batched: xq holds n_tok activations, each quant_act_size(wt, n) bytes apart; y is
// [n_tok][ldy] with y[t*ldy + (r - r0)] for r in [r0, r1). Results equal quant_matvec's exactly.
void quant_matmul(enum quant_isa_id isa, uint32_t wt, const void *W, size_t row_bytes, const void *xq, int64_t n,
                  int64_t n_tok, float *y, int64_t ldy, int64_t r0, int64_t r1);

// Weights repacked at load ("packed"): groups of 8 rows interleaved so that a vector holds the
// same elements of 8 rows, in the layout of kernel set isa (each set has its own, or none).
// quant_packed_size is 0 when the type has no such layout in that set (then nothing changes).
// The packed copy covers rows [0, rows / 8 * 8); quant_matmul_packed, given P packed for the
// same isa, computes exactly what quant_matmul does on the original (bit for bit), using P for
// those rows and W for the rest. A P packed for another set must not be passed (the caller
// keeps the set it packed for: model.packed_isa); the scalar set ignores P.
size_t quant_packed_size(enum quant_isa_id isa, uint32_t type, int64_t n, int64_t rows);
void quant_pack(enum quant_isa_id isa, uint32_t type, const void *W, size_t row_bytes, int64_t n, int64_t rows,
                void *P);
void quant_matmul_packed(enum quant_isa_id isa, uint32_t type, const void *P, const void *W, size_t row_bytes,
                         const void *xq, int64_t n, int64_t n_tok, float *y, int64_t ldy, int64_t r0, int64_t r1);

// Dequantizes n elements (a multiple of the block size) of `type` into dst; bit-exact with ggml.
// Also accepts the activation-only types Q8_0 and Q8_K.
void quant_dequant_row(uint32_t type, const void *src, float *dst, int64_t n);

// Attention over an F16 cache, in the reference's order of operations (attn_f16.c):
// q . k; acc = f16(v * s + acc); acc = f16(acc * s). The three as function pointers for
// kernel set isa (fetch once per task, not per call, in hot loops); every set gives the same bits.
struct quant_f16_ops {
    float (*dot)(const uint16_t *x, const uint16_t *y, int n);
    void (*mad)(uint16_t *acc, const uint16_t *v, float s, int n);
    void (*scale)(uint16_t *acc, float s, int n);
};
void quant_f16_get_ops(enum quant_isa_id isa, struct quant_f16_ops *ops);

// One tile of attention over an F16 cache: nq query tokens of one sequence x nh query heads that
// share one KV head (state i = query * nh + head). Each state walks its query's cells
// [lo, hi) in increasing order with the online softmax above (the order of attn.c's per-row
// path): s = (k . q) * scale, softcap * tanhf(s) when softcap != 0, the running max m and sum l,
// acc = f16(acc * ms), acc = f16(v * vs + acc). It leaves m, l and acc (F16 values held in
// floats); the caller adds a sink and normalizes. The kernel in use reads each K/V row once per
// tile; every kernel set gives the same bits.
#define QUANT_ATTN_TILE_FLOATS 8192 // nq * nh * max(d, dv) at most
#define QUANT_ATTN_TILE_STATES 64   // nq * nh at most
#define QUANT_ATTN_TILE_DIM 1024    // d, dv at most
struct quant_attn_tile {
    const uint16_t *k, *v;     // cell 0's row of the KV head
    size_t k_stride, v_stride; // elements from one cell's row to the next
    int d, dv, nq, nh;
    const uint16_t *q;         // [nq * nh][d] queries rounded to F16
    const int *lo, *hi;        // [nq] cells of each query
    float scale, softcap;
    float *m, *l, *acc;        // [nq * nh], [nq * nh], [nq * nh][dv] (results)
};
void quant_attn_f16_tile(enum quant_isa_id isa, const struct quant_attn_tile *t);

// One token of the Gated DeltaNet delta rule for one value head, on its state S stored [dk][dv]
// (gdn_kernels.c): decay, the delta update and the output column by column, in the reference's
// order; every kernel set gives identical results.
void gdn_rule_token(enum quant_isa_id isa, float *S, int dk, int dv, const float *q, const float *k, const float *v,
                    float decay, float beta, float qs, float *o);

// One row of the Mamba-2 selective scan for one token (ssm_kernels.c): s [ds] becomes
// s * dA + B * x_dt and the row's output s . C is returned, in the reference's order of
// operations; every kernel set gives identical results.
float ssm_scan_row(enum quant_isa_id isa, float *s, const float *B, const float *C, int ds, float dA, float x_dt);
// One token of a causal depthwise convolution over n channels (the SSM conv):
//   out[k] = ((((0 + tap[0][k] * w[0][k]) + tap[1][k] * w[1][k]) + ...) + tap[Kc-1][k] * w[Kc-1][k]) + bias[k]
// each product and sum rounded, in tap order, as the reference's ssm_conv then its bias add;
// tap[i] is the input row i - (Kc - 1) tokens back, w [Kc][n] the weights transposed. out may be
// the last tap's row; bias NULL adds nothing. Every kernel set gives identical results.
void ssm_conv_token(enum quant_isa_id isa, float *out, const float *const *tap, const float *w, const float *bias, int Kc, int n);

// The kernel ssm_scan_row calls for this kernel set and d_state, for callers that run many rows.
typedef float (*ssm_scan_row_fn)(float *s, const float *B, const float *C, int ds, float dA, float x_dt);
ssm_scan_row_fn ssm_scan_row_kernel(enum quant_isa_id isa, int ds);

// ---- the process-wide kernel set: for callers without a context ----------------------------
// (frink bench --kernels, the kernel tests). No executor reads it: a context's set is its own.

// true: quant_active_isa() is the scalar reference set (the oracle); false: the CPU's best.
void quant_set_reference(bool on);
// quant_cpu_isa(), or scalar after quant_set_reference(true), capped by quant_cap_isa (tests).
enum quant_isa_id quant_active_isa(void);

// "avx512vnni", "avx2" or "scalar": quant_isa_name(quant_active_isa()).
const char *quant_isa(void);

#endif
