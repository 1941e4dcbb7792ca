// panel_avx2.c — matrix products on panels of eight weight rows, rows in vector lanes.
//
// Compiled twice: as it is for AVX2, and by panel_avx512.c with QUANT_X86_VNNI (AVX-512 VL +
// VNNI), where dpbusd / dpwssd below are single instructions. Under AVX2 they are maddubs +
// madd + add, which give the same integers wherever no pair sum reaches maddubs' int16
// saturation: true for every unsigned operand here (codes up to 63, bits as 0/2) except Q8_0's
// +128-biased weights, so the AVX2 build has its own Q8_0 panel (int16 weights, vpmaddwd). The
// AVX2 Q4_K, Q6_K and Q1_0 kernels go further: they add maddubs results as int16 while the bound
// allows, and widen once.
//
// A one-token kernel walks one weight row with its elements spread over the vector lanes. For
// many tokens that repeats the weight unpacking and the per-block scale work for every token.
// Here eight rows are first repacked into a panel whose vector lanes are the ROWS: a 32-byte
// vector holds the same four consecutive elements of each of the eight rows. One vpdpbusd with
// four activation bytes broadcast to every lane then advances all eight rows at once, and the
// per-block float work (scale, convert, FMA) is shared by the eight rows.
//
// A panel is built once per call (or stored at load: the packed layouts) and reused by every
// token, so it costs nothing per token. Results: every output equals the one-token kernel of the
// same type (quant_avx2.c, either build) bit for bit. That is what lets prefill and decode agree
// exactly:
//   - Q8_0's one-token kernel reduces each block to an exact integer and keeps four float
//     accumulators, block b in accumulator b mod 4; the panel keeps them too, as four vectors per
//     token with rows in lanes, reduced at the end in the one-token kernel's order (0+2) + (1+3);
//   - Q4_K, Q5_K, Q6_K and IQ4_XS reduce each block to an exact integer first, Q1_0 each
//     activation block: one float accumulator per row (Q1_0: four, one per activation block of a
//     weight block), i.e. one vector (four);
//   - the float formats (F32, F16, BF16) are the exception to rows in lanes: their one-token
//     kernel keeps one 8-lane chain per row, and the panel keeps that chain for two rows and six
//     tokens at once (elements in lanes, rows and tokens in registers).
// Signed weights are biased by +128 to make vpdpbusd's unsigned operand; the bias times the
// activation sum is subtracted exactly through the accumulator's starting value.
#include <immintrin.h>
#include <math.h>
#include <stdlib.h>

#include "quant/quant_impl.h"

static inline float h2f(ggml_half h) { return _cvtsh_ss(h); }

#ifdef QUANT_X86_VNNI
#define PANEL(name) name##_avx512
enum { TOK = 4 }; // tokens per pass over a panel (32 vector registers)
static inline __m256i dpbusd(__m256i acc, __m256i u, __m256i s) { return _mm256_dpbusd_epi32(acc, u, s); }
static inline __m256i dpwssd(__m256i acc, __m256i a, __m256i b) { return _mm256_dpwssd_epi32(acc, a, b); }
#else
#define PANEL(name) name##_avx2
enum { TOK = 2 }; // 16 vector registers
static inline __m256i dpbusd(__m256i acc, __m256i u, __m256i s) {
    return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)));
}
static inline __m256i dpwssd(__m256i acc, __m256i a, __m256i b) { return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b)); }
#endif

static inline int32_t load_i32(const void *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

// A kernel's run entry: passes of `tok` tokens through NAME_runT, then one pass of what is
// left (runT is inlined with T constant, so each pass keeps its accumulators in registers; each
// token's outputs are the same in any pass).
#define PANEL_RUN_REST(name, tok, k)                                                                      \
    case k: /* unreachable for k >= tok, and compiled away */                                            \
        if ((k) < (tok)) name##_runT((k) < (tok) ? (k) : 1, panel, x, xs, e, es, n, o);                  \
        break;
#define PANEL_RUN(name, tok)                                                                              \
    static void name##_run(const void *panel, const void *xq, size_t xs, const void *prep, size_t es, int nt, \
                           int64_t n, float *out) {                                                      \
        int t = 0;                                                                                        \
        for (; t + (tok) <= nt; t += (tok))                                                               \
            name##_runT((tok), panel, (const uint8_t *)xq + t * xs, xs, (const uint8_t *)prep + t * es, es, n, \
                        out + 8 * t);                                                                     \
        const uint8_t *x = (const uint8_t *)xq + t * xs, *e = (const uint8_t *)prep + t * es;            \
        float *o = out + 8 * t;                                                                           \
        switch (nt - t) {                                                                                 \
            PANEL_RUN_REST(name, tok, 1)                                                                  \
            PANEL_RUN_REST(name, tok, 2)                                                                  \
            PANEL_RUN_REST(name, tok, 3)                                                                  \
            PANEL_RUN_REST(name, tok, 4)                                                                  \
            PANEL_RUN_REST(name, tok, 5)                                                                  \
            PANEL_RUN_REST(name, tok, 6)                                                                  \
            PANEL_RUN_REST(name, tok, 7)                                                                  \
        default: break;                                                                                   \
        }                                                                                                 \
    }

// four bytes broadcast: vbroadcastss is a bare load on Zen (vpbroadcastd adds a shuffle uop)
static inline __m256i bcast32(const void *p) { return _mm256_castps_si256(_mm256_broadcast_ss((const float *)p)); }

// n int8 (a multiple of 16) widened to int16
static inline void widen16(const int8_t *src, int16_t *dst, int n) {
    for (int k = 0; k < n; k += 16)
        _mm256_storeu_si256((__m256i *)(dst + k), _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(src + k))));
}

// Holds a running sum as one chain: without it gcc reassociates the int16 sums of a sub-block
// into a tree whose products are all live at once, and spills most of them.
static inline void keep_chain(__m256i *v) { __asm__("" : "+x"(*v)); }

// 8 rows x 8 dwords (row r at src + r * stride) -> out[l] = dword l of each row, rows in lanes.
static inline void transpose8x8(const uint8_t *src, size_t stride, __m256i out[8]) {
    __m256i r[8];
    for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_si256((const __m256i *)(src + (size_t)i * stride));
    const __m256i t0 = _mm256_unpacklo_epi32(r[0], r[1]), t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    const __m256i t2 = _mm256_unpacklo_epi32(r[2], r[3]), t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    const __m256i t4 = _mm256_unpacklo_epi32(r[4], r[5]), t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    const __m256i t6 = _mm256_unpacklo_epi32(r[6], r[7]), t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    const __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    const __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    const __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    const __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    out[0] = _mm256_permute2x128_si256(u0, u4, 0x20);
    out[1] = _mm256_permute2x128_si256(u1, u5, 0x20);
    out[2] = _mm256_permute2x128_si256(u2, u6, 0x20);
    out[3] = _mm256_permute2x128_si256(u3, u7, 0x20);
    out[4] = _mm256_permute2x128_si256(u0, u4, 0x31);
    out[5] = _mm256_permute2x128_si256(u1, u5, 0x31);
    out[6] = _mm256_permute2x128_si256(u2, u6, 0x31);
    out[7] = _mm256_permute2x128_si256(u3, u7, 0x31);
}


// ---- byte panels: Q4_0, and Q8_0 under VNNI -------------------------------------------------------
//
// As the one-token kernels: each row's exact block sum S, scaled once into one of four lanes
// (block b into lane b mod 4), reduced (0+2) + (1+3). Panel block: w[l] = unsigned codes
// c = q + bias of elements 4l..4l+3 of every row (rows in lanes), d[r] the rows' scales;
// activation extras: neg = -bias * (sum of the block's activation bytes) and yd, so that
// sum c y started from neg is S. Q4_0's codes are its nibbles (bias 8); Q8_0's are q XOR 0x80
// (bias 128), which only vpdpbusd takes: under AVX2 maddubs would saturate (Q8_0 has its own
// panel below), while Q4_0's eight maddubs of a block add as int16 (each at most 2 * 15 * 127 =
// 3810, their sum 30480 < 2^15) and widen once.

struct panel_u8 {
    __m256i w[8];
    __m256 d;
};

struct prep_u8 {
    int32_t neg;
    float yd;
};

static size_t u8_panel_bytes(int64_t n) { return (size_t)(n / 32) * sizeof(struct panel_u8); }
static size_t u8_prep_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct prep_u8); }

static void u8_prep(const void *xq, int64_t n, void *prep, int32_t bias) {
    const block_q8_0 *y = xq;
    struct prep_u8 *p = prep;
    for (int64_t b = 0; b < n / QK8_0; b++) {
        int32_t sum = 0;
        for (int k = 0; k < QK8_0; k++) sum += y[b].qs[k];
        p[b].neg = -bias * sum;
        p[b].yd = h2f(y[b].d);
    }
}

// One block of T tokens: every row's exact S as int32 lanes, s[t]. Under VNNI each code vector
// is loaded once for the T tokens.
static inline __attribute__((always_inline)) void u8_sums(int T, const struct panel_u8 *p, const block_q8_0 *const *y,
                                                          const struct prep_u8 *const *e, __m256i *s) {
#ifdef QUANT_X86_VNNI
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) s[t] = _mm256_set1_epi32(e[t]->neg);
    _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
        const __m256i w = _mm256_load_si256(p->w + l);
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) s[t] = dpbusd(s[t], w, bcast32(y[t]->qs + 4 * l));
    }
#else // codes up to 15 only (Q4_0); token by token measured faster here (16 registers)
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
        __m256i s16 = _mm256_maddubs_epi16(p->w[0], bcast32(y[t]->qs));
        _Pragma("GCC unroll 8") for (int l = 1; l < 8; l++) {
            s16 = _mm256_add_epi16(s16, _mm256_maddubs_epi16(p->w[l], bcast32(y[t]->qs + 4 * l)));
            keep_chain(&s16);
        }
        s[t] = _mm256_add_epi32(_mm256_set1_epi32(e[t]->neg), _mm256_madd_epi16(s16, _mm256_set1_epi16(1)));
    }
#endif
}

static inline __attribute__((always_inline)) void u8_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                          const uint8_t *prep, size_t es, int64_t n, float *out) {
    const struct panel_u8 *p = panel;
    const int64_t nb = n / 32;
    __m256 acc[TOK][4];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        for (int k = 0; k < 4; k++) acc[t][k] = _mm256_setzero_ps();
#define U8_BLOCK(b, k)                                                                                            \
    {                                                                                                            \
        const block_q8_0 *y[TOK];                                                                                \
        const struct prep_u8 *e[TOK];                                                                            \
        __m256i s[TOK];                                                                                          \
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {                                                   \
            y[t] = (const block_q8_0 *)(xq + t * xs) + (b);                                                      \
            e[t] = (const struct prep_u8 *)(prep + t * es) + (b);                                                \
        }                                                                                                        \
        u8_sums(T, p + (b), y, e, s);                                                                            \
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t][k] = _mm256_fmadd_ps(                        \
            _mm256_mul_ps(p[b].d, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(s[t]), acc[t][k]);               \
    }
    int64_t b = 0;
    for (; b + 4 <= nb; b += 4) {
        U8_BLOCK(b, 0)
        U8_BLOCK(b + 1, 1)
        U8_BLOCK(b + 2, 2)
        U8_BLOCK(b + 3, 3)
    }
    if (b < nb) U8_BLOCK(b, 0)
    if (b + 1 < nb) U8_BLOCK(b + 1, 1)
    if (b + 2 < nb) U8_BLOCK(b + 2, 2)
#undef U8_BLOCK
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(_mm256_add_ps(acc[t][0], acc[t][2]), _mm256_add_ps(acc[t][1], acc[t][3])));
}

PANEL_RUN(u8, TOK)

static void q4_0_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_u8 *p = panel;
    _Alignas(32) uint8_t codes[8][QK4_0]; // [row][element]
    const __m128i m4 = _mm_set1_epi8(0x0F);
    for (int64_t b = 0; b < n / QK4_0; b++, p++) {
        float *d = (float *)&p->d;
        for (int r = 0; r < 8; r++) {
            const block_q4_0 *x = (const block_q4_0 *)(W + (size_t)r * row_bytes) + b;
            d[r] = h2f(x->d);
            const __m128i q = _mm_loadu_si128((const __m128i *)x->qs);
            _mm_store_si128((__m128i *)codes[r], _mm_and_si128(q, m4));
            _mm_store_si128((__m128i *)codes[r] + 1, _mm_and_si128(_mm_srli_epi16(q, 4), m4));
        }
        transpose8x8((const uint8_t *)codes, sizeof codes[0], p->w);
    }
}

static void q4_0_prep(const void *xq, int64_t n, void *prep) { u8_prep(xq, n, prep, 8); }

#ifdef QUANT_X86_VNNI
static void q8_0_prep(const void *xq, int64_t n, void *prep) { u8_prep(xq, n, prep, 128); }


#else // AVX2
// ---- Q8_0 without vpdpbusd ------------------------------------------------------------------------
//
// maddubs saturates with the +128 bias, and the sign trick (maddubs(|w|, sign(y, w))) costs a
// sign per product vector. Widened to int16 instead, the weights need no trick: one vpmaddwd of
// a weight pair with a broadcast activation pair gives w0 y0 + w1 y1 exactly for every row, and
// sixteen of them added give each row's exact block sum. Each weight vector is loaded once for
// four tokens, so a block costs four tokens 16 weight loads, 64 broadcasts, 64 vpmaddwd, 60 adds
// and four conversions and FMAs: the float work is per block, not per group of four products.
//
// Panel block: w[j] = elements 2j, 2j+1 of the block as int16 for each row (rows in lanes),
// d[r] = the row's block scale. Activation extras per block: the bytes as int16, and yd.
// Twice the bytes of the file's rows, which costs nothing: the panel is built per call, kept in
// L1 by walking it in chunks of Q8_0_CHUNK blocks for every token (the accumulators wait in
// memory between chunks; each still sums its blocks in order, so the result is the same).

struct panel_q8_0 {
    __m256i w[16];
    __m256 d;
};

static size_t q8_0_panel_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct panel_q8_0); }

struct prep_q8_0 {
    int16_t y[QK8_0];
    float yd;
};

static size_t q8_0_prep_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct prep_q8_0); }

static void q8_0_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_0 *y = xq;
    struct prep_q8_0 *e = prep;
    for (int64_t b = 0; b < n / QK8_0; b++) {
        widen16(y[b].qs, e[b].y, QK8_0);
        e[b].yd = h2f(y[b].d);
    }
}


enum { Q8_0_CHUNK = 16, Q8_0_TOK = 4 }; // blocks: 8.5 KiB of panel, 1.1 KiB of extras per token

// Blocks [b0, b1) of T tokens into their accumulators keep[t][b mod 4] (the one-token kernel's four
// block lanes; rows in vector lanes), which wait in memory: each is touched once every four blocks.
// Each weight pair vector w[j] is loaded once and used by all T tokens; the sixteen products of a
// block add up as int32 to each row's exact block sum, converted and scaled once.
static inline __attribute__((always_inline)) void q8_0_blocksT(int T, const struct panel_q8_0 *p,
                                                               const uint8_t *prep, size_t es, int64_t b0,
                                                               int64_t b1, __m256 (*keep)[4]) {
    for (int64_t b = b0; b < b1; b++) {
        const __m256i *w = p[b].w;
        const struct prep_q8_0 *e[Q8_0_TOK];
        __m256i s[Q8_0_TOK];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            e[t] = (const struct prep_q8_0 *)(prep + (size_t)t * es) + b;
            s[t] = _mm256_madd_epi16(w[0], bcast32(e[t]->y));
        }
        _Pragma("GCC unroll 16") for (int j = 1; j < 16; j++) {
            const __m256i wj = _mm256_load_si256(w + j);
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                s[t] = _mm256_add_epi32(s[t], _mm256_madd_epi16(wj, bcast32(e[t]->y + 2 * j)));
                keep_chain(&s[t]);
            }
        }
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) keep[t][b & 3] = _mm256_fmadd_ps(
            _mm256_mul_ps(p[b].d, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(s[t]), keep[t][b & 3]);
    }
}

static void q8_0_run(const void *panel, const void *xq, size_t xs, const void *prep, size_t es, int nt, int64_t n,
                     float *out) {
    (void)xq, (void)xs;
    const int64_t nb = n / QK8_0;
    for (int t0 = 0; t0 < nt; t0 += 16) {
        const int tn = nt - t0 < 16 ? nt - t0 : 16;
        __m256 keep[16][4]; // [token][block mod 4]: the accumulators
        for (int t = 0; t < tn; t++)
            for (int k = 0; k < 4; k++) keep[t][k] = _mm256_setzero_ps();
        for (int64_t b0 = 0; b0 < nb; b0 += Q8_0_CHUNK) {
            const int64_t b1 = b0 + Q8_0_CHUNK < nb ? b0 + Q8_0_CHUNK : nb;
            for (int t = 0; t < tn; t += Q8_0_TOK) {
                const uint8_t *e = (const uint8_t *)prep + (size_t)(t0 + t) * es;
                switch (tn - t < Q8_0_TOK ? tn - t : Q8_0_TOK) {
                case 1: q8_0_blocksT(1, panel, e, es, b0, b1, keep + t); break;
                case 2: q8_0_blocksT(2, panel, e, es, b0, b1, keep + t); break;
                case 3: q8_0_blocksT(3, panel, e, es, b0, b1, keep + t); break;
                default: q8_0_blocksT(4, panel, e, es, b0, b1, keep + t); break;
                }
            }
        }
        for (int t = 0; t < tn; t++)
            _mm256_storeu_ps(out + 8 * (t0 + t), _mm256_add_ps(_mm256_add_ps(keep[t][0], keep[t][2]),
                                                               _mm256_add_ps(keep[t][1], keep[t][3])));
    }
}

#endif

// 16 bytes of nibble pairs through a 16-entry table: elements 0..15 the low nibbles, 16..31 the high.
static inline void codes_table(const uint8_t qs[16], const int8_t table[16], int8_t q[32]) {
    const __m128i t = _mm_loadu_si128((const __m128i *)table), v = _mm_loadu_si128((const __m128i *)qs);
    const __m128i m4 = _mm_set1_epi8(0x0f);
    _mm_storeu_si128((__m128i *)q, _mm_shuffle_epi8(t, _mm_and_si128(v, m4)));
    _mm_storeu_si128((__m128i *)(q + 16), _mm_shuffle_epi8(t, _mm_and_si128(_mm_srli_epi16(v, 4), m4)));
}

// ---- signed-code panels: Q8_0, Q5_0, IQ4_NL, MXFP4 ---------------------------------------------------
//
// Each block decodes to 32 signed codes (element order) and a float scale, and runs as Q8_0:
// under VNNI the byte panel above (codes XOR 0x80, bias 128), under AVX2 the int16 panel above.
// The one-token kernels (quant_avx2.c, LANES4_KERNELS) sum the same codes the same way.

typedef float (*codes_fn)(const uint8_t *blk, int8_t q[32]);

static float codes_q8_0(const uint8_t *blk, int8_t q[32]) {
    const block_q8_0 *x = (const block_q8_0 *)blk;
    memcpy(q, x->qs, 32);
    return h2f(x->d);
}

static float codes_q5_0(const uint8_t *blk, int8_t q[32]) {
    const block_q5_0 *x = (const block_q5_0 *)blk;
    uint32_t qh;
    memcpy(&qh, x->qh, sizeof qh);
    for (int j = 0; j < 16; j++) {
        q[j] = (int8_t)(((x->qs[j] & 0x0f) | (((qh >> j) & 1) << 4)) - 16);
        q[j + 16] = (int8_t)(((x->qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4)) - 16);
    }
    return h2f(x->d);
}

static float codes_iq4_nl(const uint8_t *blk, int8_t q[32]) {
    const block_iq4_nl *x = (const block_iq4_nl *)blk;
    codes_table(x->qs, kvalues_iq4nl, q);
    return h2f(x->d);
}

static float codes_mxfp4(const uint8_t *blk, int8_t q[32]) {
    const block_mxfp4 *x = (const block_mxfp4 *)blk;
    codes_table(x->qs, kvalues_mxfp4, q);
    return e8m0_to_fp32_half(x->e);
}

static inline __attribute__((always_inline)) void i8_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel,
                                                          size_t bsz, codes_fn codes) {
    for (int64_t b = 0; b < n / 32; b++) {
        _Alignas(32) int8_t q[8][32]; // [row][element]
        float d[8];
        for (int r = 0; r < 8; r++) d[r] = codes(W + (size_t)r * row_bytes + (size_t)b * bsz, q[r]);
#ifdef QUANT_X86_VNNI
        struct panel_u8 *p = (struct panel_u8 *)panel + b;
        transpose8x8((const uint8_t *)q, sizeof q[0], p->w);
        for (int l = 0; l < 8; l++) p->w[l] = _mm256_xor_si256(p->w[l], _mm256_set1_epi8((char)0x80));
#else
        struct panel_q8_0 *p = (struct panel_q8_0 *)panel + b;
        _Alignas(32) int16_t wide[8][32];
        for (int r = 0; r < 8; r++) widen16(q[r], wide[r], 32);
        transpose8x8((const uint8_t *)wide, sizeof wide[0], p->w);
        transpose8x8((const uint8_t *)wide + 32, sizeof wide[0], p->w + 8);
#endif
        memcpy(&p->d, d, sizeof d);
    }
}

#ifdef QUANT_X86_VNNI
#define I8_KERNELS(fmt) {u8_panel_bytes, fmt##_pack, u8_prep_bytes, q8_0_prep, u8_run, NULL, NULL}
#else
#define I8_KERNELS(fmt) {q8_0_panel_bytes, fmt##_pack, q8_0_prep_bytes, q8_0_prep, q8_0_run, NULL, NULL}
#endif
#define I8_PANEL(fmt, block_t)                                                                       \
    static void fmt##_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {             \
        i8_pack(W, row_bytes, n, panel, sizeof(block_t), codes_##fmt);                               \
    }                                                                                                \
    static const struct quant_panel fmt##_panel_kernels = I8_KERNELS(fmt);
I8_PANEL(q8_0, block_q8_0)
I8_PANEL(q5_0, block_q5_0)
I8_PANEL(iq4_nl, block_iq4_nl)
I8_PANEL(mxfp4, block_mxfp4)
#undef I8_PANEL
#undef I8_KERNELS

// ---- IQ4_XS ----------------------------------------------------------------------------------------
//
// As the one-token kernel: each row's exact super-block sum S = sum (ls - 32) * kvalues[code] * y
// over its 256 elements, then one FMA a super-block. Panel super-block: w[j] = elements 2j, 2j+1
// of every row as int16 with their sub-block scale applied ((ls - 32) * kvalues[code]: at most
// 32 * 127 = 4064), rows in lanes; d[r] the rows' scales. Activation extras: the bytes as int16
// and the float scale. One vpmaddwd (VNNI: vpdpwssd) of a weight pair with a broadcast activation
// pair advances eight rows; each weight vector serves four tokens. The sums stay below
// 256 * 4064 * 128 < 2^31.

#ifdef QUANT_X86_VNNI
// With vpdpbusd: codes as bytes (kvalues XOR 0x80), eight vpdpbusd per sub-block from
// -128 * (the sub-block's activation sum, from Q8_K's bsums), then the sub-block's exact sum times
// each row's ls - 32 (vpmulld) into the super-block sum: |sub-block sum| <= 32 * 128 * 128.
struct panel_iq4_xs {
    __m256i w[QK_K / 32][8]; // [sub-block][l]: codes of elements 32 ib + 4l .. + 3, rows in lanes
    __m256i ls[QK_K / 32];   // ls - 32 per row
    __m256 d;
};

static size_t iq4_xs_panel_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct panel_iq4_xs); }

static void iq4_xs_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_iq4_xs *p = panel;
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        _Alignas(32) uint8_t codes[8][QK_K]; // [row][element]
        float *d = (float *)&p->d;
        for (int r = 0; r < 8; r++) {
            const block_iq4_xs *x = (const block_iq4_xs *)(W + (size_t)r * row_bytes) + b;
            d[r] = h2f(x->d);
            for (int ib = 0; ib < QK_K / 32; ib++) {
                ((int32_t *)&p->ls[ib])[r] = iq4_xs_ls(x, ib) - 32;
                codes_table(x->qs + 16 * ib, kvalues_iq4nl, (int8_t *)codes[r] + 32 * ib);
            }
        }
        for (int ib = 0; ib < QK_K / 32; ib++) {
            transpose8x8(codes[0] + 32 * ib, sizeof codes[0], p->w[ib]);
            for (int l = 0; l < 8; l++) p->w[ib][l] = _mm256_xor_si256(p->w[ib][l], _mm256_set1_epi8((char)0x80));
        }
    }
}

struct prep_iq4_xs {
    int32_t neg[QK_K / 32];
    float yd;
};

static size_t iq4_xs_prep_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct prep_iq4_xs); }

static void iq4_xs_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_K *y = xq;
    struct prep_iq4_xs *e = prep;
    for (int64_t b = 0; b < n / QK_K; b++) {
        for (int ib = 0; ib < QK_K / 32; ib++) e[b].neg[ib] = -128 * (y[b].bsums[2 * ib] + y[b].bsums[2 * ib + 1]);
        e[b].yd = y[b].d;
    }
}

static inline __attribute__((always_inline)) void iq4_xs_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                              const uint8_t *prep, size_t es, int64_t n, float *out) {
    const struct panel_iq4_xs *p = panel;
    __m256 acc[TOK];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const block_q8_K *y[TOK];
        const struct prep_iq4_xs *e[TOK];
        __m256i S[TOK];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            y[t] = (const block_q8_K *)(xq + t * xs) + b;
            e[t] = (const struct prep_iq4_xs *)(prep + t * es) + b;
            S[t] = _mm256_setzero_si256();
        }
        for (int ib = 0; ib < QK_K / 32; ib++) {
            __m256i s[TOK];
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) s[t] = _mm256_set1_epi32(e[t]->neg[ib]);
            _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
                const __m256i w = _mm256_load_si256(&p->w[ib][l]);
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) s[t] = dpbusd(s[t], w, bcast32(y[t]->qs + 32 * ib + 4 * l));
            }
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) S[t] = _mm256_add_epi32(S[t], _mm256_mullo_epi32(s[t], p->ls[ib]));
        }
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(p->d, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(S[t]), acc[t]);
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, acc[t]);
}

PANEL_RUN(iq4_xs, TOK)

#else // AVX2
struct panel_iq4_xs {
    __m256i w[QK_K / 2];
    __m256 d;
};

static size_t iq4_xs_panel_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct panel_iq4_xs); }

static void iq4_xs_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_iq4_xs *p = panel;
    _Alignas(32) int16_t wide[8][QK_K]; // [row][element]
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        float *d = (float *)&p->d;
        for (int r = 0; r < 8; r++) {
            const block_iq4_xs *x = (const block_iq4_xs *)(W + (size_t)r * row_bytes) + b;
            d[r] = h2f(x->d);
            for (int ib = 0; ib < QK_K / 32; ib++) {
                const int ls = iq4_xs_ls(x, ib);
                _Alignas(32) int8_t q[32];
                codes_table(x->qs + 16 * ib, kvalues_iq4nl, q);
                const __m256i v = _mm256_load_si256((const __m256i *)q), sc = _mm256_set1_epi16((short)(ls - 32));
                _mm256_store_si256((__m256i *)(wide[r] + 32 * ib), _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm256_castsi256_si128(v)), sc));
                _mm256_store_si256((__m256i *)(wide[r] + 32 * ib + 16),
                                   _mm256_mullo_epi16(_mm256_cvtepi8_epi16(_mm256_extracti128_si256(v, 1)), sc));
            }
        }
        for (int c = 0; c < QK_K / 16; c++) transpose8x8((const uint8_t *)wide + 32 * c, sizeof wide[0], p->w + 8 * c);
    }
}

struct prep_iq4_xs {
    int16_t y[QK_K];
    float yd;
};

static size_t iq4_xs_prep_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct prep_iq4_xs); }

static void iq4_xs_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_K *y = xq;
    struct prep_iq4_xs *e = prep;
    for (int64_t b = 0; b < n / QK_K; b++) {
        widen16(y[b].qs, e[b].y, QK_K);
        e[b].yd = y[b].d;
    }
}

enum { IQ4XS_TOK = 4 };

static inline __attribute__((always_inline)) void iq4_xs_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                              const uint8_t *prep, size_t es, int64_t n, float *out) {
    (void)xq, (void)xs;
    const struct panel_iq4_xs *p = panel;
    __m256 acc[IQ4XS_TOK];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const struct prep_iq4_xs *e[IQ4XS_TOK];
        __m256i s[IQ4XS_TOK];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            e[t] = (const struct prep_iq4_xs *)(prep + t * es) + b;
            s[t] = _mm256_setzero_si256();
        }
        _Pragma("GCC unroll 16") for (int j = 0; j < QK_K / 2; j++) {
            const __m256i wj = _mm256_load_si256(p->w + j);
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                s[t] = dpwssd(s[t], wj, bcast32(e[t]->y + 2 * j));
                keep_chain(&s[t]);
            }
        }
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(p->d, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(s[t]), acc[t]);
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, acc[t]);
}

PANEL_RUN(iq4_xs, IQ4XS_TOK)
#endif

// ---- Q1_0 ------------------------------------------------------------------------------------------
//
// The one-token kernel reduces each 32-element activation block k to the exact integer
// S_k = sum of (bit ? -y : y), and keeps four float accumulators, one per k = 0..3 of a weight
// block: acc_k = fma(-dx * dy, S_k, acc_k), result (acc_0 + acc_2) + (acc_1 + acc_3). Here
// S_k = sum(y) + sum(2 bit * -y): eight vpdpbusd of the weight bits as bytes 0/2 with the negated
// activation bytes, started from the block's activation sum.

struct panel_q1_0 {
    __m256i w[4][8]; // [activation block k][l]: bytes 0 or 2, elements 32k+4l..32k+4l+3
    __m256 nd;       // -d per row
};

static size_t q1_0_panel_bytes(int64_t n) { return (size_t)(n / QK1_0) * sizeof(struct panel_q1_0); }

static void q1_0_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_q1_0 *p = panel;
    _Alignas(32) uint8_t codes[8 * QK1_0];
    const __m256i shuf = _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
    const __m256i bitsel = _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe), all = _mm256_set1_epi64x(-1), two = _mm256_set1_epi8(2);
    for (int64_t b = 0; b < n / QK1_0; b++, p++) {
        float *nd = (float *)&p->nd;
        for (int r = 0; r < 8; r++) {
            const block_q1_0 *x = (const block_q1_0 *)(W + (size_t)r * row_bytes) + b;
            nd[r] = -h2f(x->d);
            for (int k = 0; k < 4; k++) {
                const __m256i bits = _mm256_shuffle_epi8(_mm256_set1_epi32(load_i32(x->qs + 4 * k)), shuf);
                const __m256i set = _mm256_cmpeq_epi8(_mm256_or_si256(bits, bitsel), all);
                _mm256_store_si256((__m256i *)(codes + r * QK1_0 + 32 * k), _mm256_and_si256(set, two));
            }
        }
        for (int k = 0; k < 4; k++) transpose8x8(codes + 32 * k, QK1_0, p->w[k]);
    }
}

struct prep_q1_0 {
    int8_t negy[32];
    int32_t sum;
    float yd;
};

static size_t q1_0_prep_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct prep_q1_0); }

static void q1_0_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_0 *y = xq;
    struct prep_q1_0 *e = prep;
    for (int64_t b = 0; b < n / QK8_0; b++) {
        const __m256i q = _mm256_loadu_si256((const __m256i *)y[b].qs);
        _mm256_storeu_si256((__m256i *)e[b].negy, _mm256_sub_epi8(_mm256_setzero_si256(), q));
        const __m256i s4 = dpbusd(_mm256_setzero_si256(), _mm256_set1_epi8(1), q);
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(s4), _mm256_extracti128_si256(s4, 1));
        s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
        e[b].sum = _mm_cvtsi128_si32(s);
        e[b].yd = h2f(y[b].d);
    }
}

#ifdef QUANT_X86_VNNI
static inline __attribute__((always_inline)) void q1_0_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                            const uint8_t *prep, size_t es, int64_t n, float *out) {
    (void)xq, (void)xs;
    const struct panel_q1_0 *p = panel;
    __m256 acc[4][4];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        for (int k = 0; k < 4; k++) acc[t][k] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK1_0; b++, p++) {
        _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
            __m256i S[4];
            const struct prep_q1_0 *e[4];
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                e[t] = (const struct prep_q1_0 *)(prep + t * es) + 4 * b + k;
                S[t] = _mm256_set1_epi32(e[t]->sum);
            }
            _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
                const __m256i w = _mm256_load_si256(&p->w[k][l]);
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                    S[t] = dpbusd(S[t], w, _mm256_set1_epi32(load_i32(e[t]->negy + 4 * l)));
            }
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                acc[t][k] = _mm256_fmadd_ps(_mm256_mul_ps(p->nd, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(S[t]), acc[t][k]);
        }
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(_mm256_add_ps(acc[t][0], acc[t][2]), _mm256_add_ps(acc[t][1], acc[t][3])));
}

PANEL_RUN(q1_0, TOK)

#else // AVX2
// Without vpdpbusd the widening madd would cost as much as the product. The bytes are 0 or 2
// against |y| <= 128, so a maddubs pair is at most 2 * 2 * 128 = 512 and the eight of a block
// sum exactly as int16 (<= 4096): eight maddubs, seven adds, then one widening madd per
// activation block. The four accumulators of a token (one per activation block k of a weight
// block) are independent chains, each summed over the blocks in order, so the panel is walked
// once per k: four tokens then need four float and four int16 registers, not sixteen floats.
enum { Q1_TOK = 4 };

static inline __attribute__((always_inline)) void q1_0_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                            const uint8_t *prep, size_t es, int64_t n, float *out) {
    (void)xq, (void)xs;
    const __m256i ones = _mm256_set1_epi16(1);
    __m256 acc[4][Q1_TOK]; // [k][token]
    _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
        __m256 a[Q1_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) a[t] = _mm256_setzero_ps();
        const struct panel_q1_0 *p = panel;
        for (int64_t b = 0; b < n / QK1_0; b++, p++) {
            const struct prep_q1_0 *e[Q1_TOK];
            __m256i S[Q1_TOK];
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) e[t] = (const struct prep_q1_0 *)(prep + t * es) + 4 * b + k;
            _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
                const __m256i w = _mm256_load_si256(&p->w[k][l]);
                _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
                    const __m256i m = _mm256_maddubs_epi16(w, _mm256_set1_epi32(load_i32(e[t]->negy + 4 * l)));
                    S[t] = l ? _mm256_add_epi16(S[t], m) : m;
                    keep_chain(&S[t]);
                }
            }
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
                const __m256i St = _mm256_add_epi32(_mm256_set1_epi32(e[t]->sum), _mm256_madd_epi16(S[t], ones));
                a[t] = _mm256_fmadd_ps(_mm256_mul_ps(p->nd, _mm256_set1_ps(e[t]->yd)), _mm256_cvtepi32_ps(St), a[t]);
            }
        }
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) acc[k][t] = a[t];
    }
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++)
        _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(_mm256_add_ps(acc[0][t], acc[2][t]), _mm256_add_ps(acc[1][t], acc[3][t])));
}

PANEL_RUN(q1_0, Q1_TOK)
#endif

// ---- Q4_K packed at load time (decode and prefill) ------------------------------------------------
//
// The one-token kernel reduces each block to exact integers, S = sum_s sc_s * P_s with P_s the
// 32-element dot of sub-block s, and M = sum_s m_s * (activation sum of sub-block s), then
// acc = fma(d, S, acc) and acc_m = fma(dmin, M, acc_m); the result is acc + acc_m. Here P_s comes
// from vpdpbusd of the unpacked nibbles with broadcast activation bytes, S from vpmulld by the
// rows' scales, M from vpdpwssd of the rows' (m, m') pairs with the activation's pair sums.
// The layout keeps the nibbles packed, so it can replace the file's weights for good (about 3%
// larger), and is also what prefill packs on the fly for unpacked weights: per 8-row block, the 32 dwords of
// quants transposed (rows in lanes; the low nibbles of dword k of chunk c are elements 64c+4k..
// +3 of sub-block 2c, the high nibbles the same of sub-block 2c+1), then the scales and mins as
// bytes and the two fp16 scales, widened per use.

enum { PACKED_PREFETCH = 2048 }; // bytes ahead of the block being computed

struct packed_q4_K {
    __m256i qs[32];       // [8c + k]
    uint8_t sc[8][8];     // [sub-block][row]
    uint8_t mn[4][8][2];  // [pair j][row]: (m_2j, m_2j+1)
    ggml_half d[8], dmin[8];
};
_Static_assert(sizeof(struct packed_q4_K) == 1184, "packed_q4_K");

// per token: the activation sums of sub-block pairs, for the mins
struct prep_q4_K {
    int32_t pair[4]; // int16 pairs (sum of sub-block 2p, sum of sub-block 2p+1)
};

static size_t q4_K_prep_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct prep_q4_K); }

static void q4_K_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_K *y = xq;
    struct prep_q4_K *e = prep;
    for (int64_t b = 0; b < n / QK_K; b++)
        for (int j = 0; j < 4; j++) {
            const int16_t s0 = (int16_t)(y[b].bsums[4 * j] + y[b].bsums[4 * j + 1]);
            const int16_t s1 = (int16_t)(y[b].bsums[4 * j + 2] + y[b].bsums[4 * j + 3]);
            e[b].pair[j] = (int32_t)(uint16_t)s0 | (int32_t)((uint32_t)(uint16_t)s1 << 16);
        }
}

static size_t q4_K_packed_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct packed_q4_K); }

static void q4_K_packed_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *dst) {
    struct packed_q4_K *p = dst;
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const uint8_t *blk = W + (size_t)b * sizeof(block_q4_K);
        for (int r = 0; r < 8; r++) {
            const block_q4_K *x = (const block_q4_K *)(blk + (size_t)r * row_bytes);
            uint8_t s8[8], m8[8];
            for (int j = 0; j < 8; j++) k45_scale_min(j, x->scales, &s8[j], &m8[j]);
            for (int j = 0; j < 8; j++) p->sc[j][r] = s8[j];
            for (int j = 0; j < 4; j++) p->mn[j][r][0] = m8[2 * j], p->mn[j][r][1] = m8[2 * j + 1];
            p->d[r] = x->d;
            p->dmin[r] = x->dmin;
        }
        for (int c = 0; c < 4; c++) transpose8x8(blk + offsetof(block_q4_K, qs) + 32 * c, row_bytes, p->qs + 8 * c);
    }
}

#ifdef QUANT_X86_VNNI
enum { Q4K_TOK = TOK };
static inline __attribute__((always_inline)) void q4_K_packed_runT(int T, const struct packed_q4_K *p, const uint8_t *xq,
                                                                   size_t xs, const uint8_t *prep, size_t es, int64_t n,
                                                                   float *out) {
    const __m256i m4 = _mm256_set1_epi8(0xF);
    __m256 acc[4], acc_m[4];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t] = acc_m[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const block_q8_K *y[4];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) y[t] = (const block_q8_K *)(xq + t * xs) + b;
        __m256i S[4];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) S[t] = _mm256_setzero_si256();
        _Pragma("GCC unroll 4") for (int c = 0; c < 4; c++) {
            // the hardware prefetcher restarts at every 4 KiB page; keep a steady distance ahead
            for (int l = 0; l < 5; l++) __builtin_prefetch((const char *)p + PACKED_PREFETCH + 64 * (5 * c + l), 0, 3);
            __m256i Pl[4], Ph[4];
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) Pl[t] = Ph[t] = _mm256_setzero_si256();
            _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) {
                const __m256i v = _mm256_load_si256(&p->qs[8 * c + k]);
                const __m256i lo = _mm256_and_si256(v, m4), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m4);
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                    Pl[t] = dpbusd(Pl[t], lo, _mm256_set1_epi32(load_i32(y[t]->qs + 64 * c + 4 * k)));
                    Ph[t] = dpbusd(Ph[t], hi, _mm256_set1_epi32(load_i32(y[t]->qs + 64 * c + 32 + 4 * k)));
                }
            }
            const __m256i scl = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[2 * c]));
            const __m256i sch = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[2 * c + 1]));
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                S[t] = _mm256_add_epi32(S[t], _mm256_add_epi32(_mm256_mullo_epi32(Pl[t], scl), _mm256_mullo_epi32(Ph[t], sch)));
        }
        const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->d));
        const __m256 dmin = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->dmin));
        __m256i mn[4];
        for (int j = 0; j < 4; j++) mn[j] = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p->mn[j]));
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            const struct prep_q4_K *e = (const struct prep_q4_K *)(prep + t * es) + b;
            __m256i M = _mm256_setzero_si256();
            for (int j = 0; j < 4; j++) M = dpwssd(M, mn[j], _mm256_set1_epi32(e->pair[j]));
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(y[t]->d), d), _mm256_cvtepi32_ps(S[t]), acc[t]);
            acc_m[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(-y[t]->d), dmin), _mm256_cvtepi32_ps(M), acc_m[t]);
        }
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(acc[t], acc_m[t]));
}

#else // AVX2
// Without vpdpbusd each 32-byte step is maddubs (int16 pair sums) + a widening madd + an add,
// and the widening costs as much as the product. The products of a Q4_K sub-block fit in int16
// all together: 8 maddubs of nibbles (<= 15) with int8 activations are each at most
// 2 * 15 * 128 = 3840 in magnitude, 30720 summed, below 32767. So each sub-block's 8 steps are
// summed as int16 and widened once, by a madd with the rows' scale (in both halves of each row's
// dword), which also replaces the per-sub-block vpmulld. Still the same exact integers S and M.
enum { Q4K_TOK = 4 }; // 8 int16 sums + the unpacked vectors fill the 16 registers

// the int16 in the low half of each dword copied into its high half
static inline __m256i dup_lo16(__m256i x) {
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(0, 1, 0, 1, 4, 5, 4, 5, 8, 9, 8, 9, 12, 13, 12, 13, 0, 1, 0, 1, 4, 5,
                                                   4, 5, 8, 9, 8, 9, 12, 13, 12, 13));
}

static inline __attribute__((always_inline)) void q4_K_packed_runT(int T, const struct packed_q4_K *p, const uint8_t *xq,
                                                                   size_t xs, const uint8_t *prep, size_t es, int64_t n,
                                                                   float *out) {
    const __m256i m4 = _mm256_set1_epi8(0xF);
    __m256 acc[Q4K_TOK], acc_m[Q4K_TOK];
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) acc[t] = acc_m[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const int8_t *yq[Q4K_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) yq[t] = ((const block_q8_K *)(xq + t * xs) + b)->qs;
        __m256i S[Q4K_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) S[t] = _mm256_setzero_si256();
        _Pragma("GCC unroll 4") for (int c = 0; c < 4; c++) {
            // the hardware prefetcher restarts at every 4 KiB page; keep a steady distance ahead
            for (int l = 0; l < 5; l++) __builtin_prefetch((const char *)p + PACKED_PREFETCH + 64 * (5 * c + l), 0, 3);
            __m256i Pl[Q4K_TOK], Ph[Q4K_TOK];
            _Pragma("GCC unroll 8") for (int k = 0; k < 8; k++) {
                const __m256i v = _mm256_load_si256(&p->qs[8 * c + k]);
                const __m256i lo = _mm256_and_si256(v, m4), hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), m4);
                _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
                    const __m256i pl = _mm256_maddubs_epi16(lo, _mm256_set1_epi32(load_i32(yq[t] + 64 * c + 4 * k)));
                    const __m256i ph = _mm256_maddubs_epi16(hi, _mm256_set1_epi32(load_i32(yq[t] + 64 * c + 32 + 4 * k)));
                    Pl[t] = k ? _mm256_add_epi16(Pl[t], pl) : pl;
                    Ph[t] = k ? _mm256_add_epi16(Ph[t], ph) : ph;
                    keep_chain(&Pl[t]), keep_chain(&Ph[t]);
                }
            }
            const __m256i scl = dup_lo16(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[2 * c])));
            const __m256i sch = dup_lo16(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[2 * c + 1])));
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++)
                S[t] = _mm256_add_epi32(S[t], _mm256_add_epi32(_mm256_madd_epi16(Pl[t], scl), _mm256_madd_epi16(Ph[t], sch))),
                keep_chain(&S[t]);
        }
        const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->d));
        const __m256 dmin = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->dmin));
        __m256i mn[4];
        for (int j = 0; j < 4; j++) mn[j] = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p->mn[j]));
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
            const struct prep_q4_K *e = (const struct prep_q4_K *)(prep + t * es) + b;
            const float yd = ((const block_q8_K *)(xq + t * xs) + b)->d;
            __m256i M = _mm256_setzero_si256();
            for (int j = 0; j < 4; j++) M = dpwssd(M, mn[j], _mm256_set1_epi32(e->pair[j]));
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(yd), d), _mm256_cvtepi32_ps(S[t]), acc[t]);
            acc_m[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(-yd), dmin), _mm256_cvtepi32_ps(M), acc_m[t]);
        }
    }
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(acc[t], acc_m[t]));
}
#endif

PANEL_RUN(q4_K_packed, Q4K_TOK)

// ---- Q5_K ------------------------------------------------------------------------------------------
//
// As the one-token kernel, and Q4_K's panel: per row the exact integers S = sum_s sc_s * P_s and
// M = sum_s m_s * (activation sum of sub-block s), then acc = fma(d, S, acc), acc_m = fma(dmin, M,
// acc_m), the result acc + acc_m. Panel super-block: the 5-bit codes as bytes, w[s][l] = elements
// 32s + 4l .. +3 of every row (rows in lanes); each row's sub-block scales (VNNI: an int32 for
// vpmulld; AVX2: the int16 in both halves of the dword, for a widening madd); the (m, m') pairs and
// the activation extras as Q4_K's; the fp16 scales converted. Under AVX2 a maddubs pair of codes
// (<= 31) with activation bytes is at most 2 * 31 * 128 = 7936, so four steps add as int16
// (31744 < 2^15) before each widening.

struct panel_q5_K {
    __m256i w[QK_K / 32][8];
    __m256i sc[QK_K / 32];
    __m256i mn[4];
    __m256 d, dmin;
};

static size_t q5_K_panel_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct panel_q5_K); }

static void q5_K_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_q5_K *p = panel;
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        _Alignas(32) uint8_t codes[8][QK_K]; // [row][element]
        float *d = (float *)&p->d, *dmin = (float *)&p->dmin;
        for (int r = 0; r < 8; r++) {
            const block_q5_K *x = (const block_q5_K *)(W + (size_t)r * row_bytes) + b;
            d[r] = h2f(x->d);
            dmin[r] = h2f(x->dmin);
            for (int j = 0; j < 8; j++) {
                uint8_t sc, m;
                k45_scale_min(j, x->scales, &sc, &m);
#ifdef QUANT_X86_VNNI
                ((int32_t *)&p->sc[j])[r] = sc;
#else
                ((int32_t *)&p->sc[j])[r] = sc | (int32_t)sc << 16;
#endif
                ((int16_t *)&p->mn[j / 2])[2 * r + (j & 1)] = m;
            }
            for (int c = 0; c < 4; c++)
                for (int l = 0; l < 32; l++) {
                    const uint8_t q = x->qs[32 * c + l], h = x->qh[l];
                    codes[r][64 * c + l] = (uint8_t)((q & 0xF) | ((h >> (2 * c)) & 1) << 4);
                    codes[r][64 * c + 32 + l] = (uint8_t)((q >> 4) | ((h >> (2 * c + 1)) & 1) << 4);
                }
        }
        for (int s = 0; s < QK_K / 32; s++) transpose8x8(codes[0] + 32 * s, sizeof codes[0], p->w[s]);
    }
}

enum { Q5K_TOK = 4 };

static inline __attribute__((always_inline)) void q5_K_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                            const uint8_t *prep, size_t es, int64_t n, float *out) {
    const struct panel_q5_K *p = panel;
    __m256 acc[Q5K_TOK], acc_m[Q5K_TOK];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t] = acc_m[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const block_q8_K *y[Q5K_TOK];
        __m256i S[Q5K_TOK];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            y[t] = (const block_q8_K *)(xq + t * xs) + b;
            S[t] = _mm256_setzero_si256();
        }
        for (int s = 0; s < QK_K / 32; s++) {
            __builtin_prefetch((const char *)p + PACKED_PREFETCH + 256 * s, 0, 3);
            __builtin_prefetch((const char *)p + PACKED_PREFETCH + 256 * s + 64, 0, 3);
            __builtin_prefetch((const char *)p + PACKED_PREFETCH + 256 * s + 128, 0, 3);
            __builtin_prefetch((const char *)p + PACKED_PREFETCH + 256 * s + 192, 0, 3);
#ifdef QUANT_X86_VNNI
            __m256i P[Q5K_TOK];
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) P[t] = _mm256_setzero_si256();
            _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
                const __m256i w = _mm256_load_si256(&p->w[s][l]);
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) P[t] = dpbusd(P[t], w, bcast32(y[t]->qs + 32 * s + 4 * l));
            }
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) S[t] = _mm256_add_epi32(S[t], _mm256_mullo_epi32(P[t], p->sc[s]));
#else
            _Pragma("GCC unroll 2") for (int h = 0; h < 2; h++) {
                __m256i P[Q5K_TOK];
                _Pragma("GCC unroll 4") for (int l = 0; l < 4; l++) {
                    const __m256i w = _mm256_load_si256(&p->w[s][4 * h + l]);
                    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                        const __m256i pl = _mm256_maddubs_epi16(w, bcast32(y[t]->qs + 32 * s + 16 * h + 4 * l));
                        P[t] = l ? _mm256_add_epi16(P[t], pl) : pl;
                        keep_chain(&P[t]);
                    }
                }
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                    S[t] = _mm256_add_epi32(S[t], _mm256_madd_epi16(P[t], p->sc[s]));
                    keep_chain(&S[t]);
                }
            }
#endif
        }
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            const struct prep_q4_K *e = (const struct prep_q4_K *)(prep + t * es) + b;
            __m256i M = _mm256_setzero_si256();
            for (int j = 0; j < 4; j++) M = dpwssd(M, p->mn[j], _mm256_set1_epi32(e->pair[j]));
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(y[t]->d), p->d), _mm256_cvtepi32_ps(S[t]), acc[t]);
            acc_m[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(-y[t]->d), p->dmin), _mm256_cvtepi32_ps(M), acc_m[t]);
        }
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(acc[t], acc_m[t]));
}

PANEL_RUN(q5_K, Q5K_TOK)

// ---- Q6_K packed at load time ----------------------------------------------------------------------
//
// Per 8-row block: the 32 dwords of ql and the 16 dwords of qh transposed (rows in lanes), the
// 16 scales as bytes [sub-block][row], the fp16 scales. Element 128h + 32q + 4j + i (i < 4) of
// each row is low nibble (q < 2) or high nibble (q >= 2) of ql dword 16h + 8(q & 1) + j, with
// bits 2q, 2q+1 of qh dword 8h + j on top; it belongs to sub-block 8h + 2q + (j >= 4). The -32 of
// the codes enters each sub-block's integer through its starting value, -32 * bsum (prep).

struct packed_q6_K {
    __m256i ql[32], qh[16];
    int8_t sc[16][8]; // [sub-block][row]
    ggml_half d[8];
    uint8_t pad[16];  // keeps the next block's vectors aligned
};
_Static_assert(sizeof(struct packed_q6_K) == 1696, "packed_q6_K");

static size_t q6_K_packed_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct packed_q6_K); }

static void q6_K_packed_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *dst) {
    struct packed_q6_K *p = dst;
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const uint8_t *blk = W + (size_t)b * sizeof(block_q6_K);
        for (int r = 0; r < 8; r++) {
            const block_q6_K *x = (const block_q6_K *)(blk + (size_t)r * row_bytes);
            for (int j = 0; j < 16; j++) p->sc[j][r] = x->scales[j];
            p->d[r] = x->d;
        }
        memset(p->pad, 0, sizeof p->pad);
        for (int c = 0; c < 4; c++) transpose8x8(blk + offsetof(block_q6_K, ql) + 32 * c, row_bytes, p->ql + 8 * c);
        for (int c = 0; c < 2; c++) transpose8x8(blk + offsetof(block_q6_K, qh) + 32 * c, row_bytes, p->qh + 8 * c);
    }
}

#ifdef QUANT_X86_VNNI
enum { Q6K_TOK = TOK };

struct prep_q6_K {
    int32_t negb[16]; // -32 * bsum of each 16-element sub-block
};

static size_t q6_K_packed_prep_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct prep_q6_K); }

static void q6_K_packed_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_K *y = xq;
    struct prep_q6_K *e = prep;
    for (int64_t b = 0; b < n / QK_K; b++)
        for (int j = 0; j < 16; j++) e[b].negb[j] = -32 * y[b].bsums[j];
}

static inline __attribute__((always_inline)) void q6_K_packed_runT(int T, const struct packed_q6_K *p, const uint8_t *xq,
                                                                   size_t xs, const uint8_t *prep, size_t es, int64_t n,
                                                                   float *out) {
    const __m256i m4 = _mm256_set1_epi8(0xF), m30 = _mm256_set1_epi8(0x30);
    __m256 acc[4];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const block_q8_K *y[4];
        const struct prep_q6_K *e[4];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
            y[t] = (const block_q8_K *)(xq + t * xs) + b;
            e[t] = (const struct prep_q6_K *)(prep + t * es) + b;
        }
        __m256i S[4];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) S[t] = _mm256_setzero_si256();
        _Pragma("GCC unroll 2") for (int h = 0; h < 2; h++) {
            for (int l = 0; l < 14; l++) __builtin_prefetch((const char *)p + PACKED_PREFETCH + 64 * (14 * h + l), 0, 3);
            _Pragma("GCC unroll 4") for (int q = 0; q < 4; q++) {
                _Pragma("GCC unroll 2") for (int half = 0; half < 2; half++) { // sub-block 8h + 2q + half
                    const int sb = 8 * h + 2 * q + half;
                    __m256i P[4];
                    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) P[t] = _mm256_set1_epi32(e[t]->negb[sb]);
                    _Pragma("GCC unroll 4") for (int jj = 0; jj < 4; jj++) {
                        const int j = 4 * half + jj;
                        const __m256i l = _mm256_load_si256(&p->ql[16 * h + 8 * (q & 1) + j]);
                        const __m256i hb = _mm256_load_si256(&p->qh[8 * h + j]);
                        const __m256i lo = q < 2 ? _mm256_and_si256(l, m4) : _mm256_and_si256(_mm256_srli_epi16(l, 4), m4);
                        const __m256i hi = q == 0 ? _mm256_slli_epi16(hb, 4)
                                           : q == 1 ? _mm256_slli_epi16(hb, 2)
                                           : q == 2 ? hb
                                                    : _mm256_srli_epi16(hb, 2);
                        const __m256i code = _mm256_or_si256(lo, _mm256_and_si256(hi, m30));
                        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                            P[t] = dpbusd(P[t], code, _mm256_set1_epi32(load_i32(y[t]->qs + 128 * h + 32 * q + 4 * j)));
                    }
                    const __m256i sc = _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[sb]));
                    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) S[t] = _mm256_add_epi32(S[t], _mm256_mullo_epi32(P[t], sc));
                }
            }
        }
        const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->d));
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(y[t]->d), d), _mm256_cvtepi32_ps(S[t]), acc[t]);
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, acc[t]);
}

#else // AVX2
// As for Q4_K: the int16 pair sums of maddubs are added as int16 before one widening madd by
// the rows' scales. Codes are at most 63, so a maddubs is at most 2 * 63 * 128 = 16128 in
// magnitude and two of them fit in int16: each 16-element sub-block (four steps) is two such
// sums. The -32 of the codes comes once per block: S -= 32 * sum_s sc_s * bsum_s, from madds of
// the rows' scale pairs with the activation's pairs of bsums (the one-token kernel's integer).
enum { Q6K_TOK = 4 }; // four int16 sums, four int32 sums and the unpacking in 16 registers

struct prep_q6_K {
    int32_t pair[8]; // int16 pairs (bsum of sub-block 2j, bsum of sub-block 2j+1)
};

static size_t q6_K_packed_prep_bytes(int64_t n) { return (size_t)(n / QK_K) * sizeof(struct prep_q6_K); }

static void q6_K_packed_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_K *y = xq;
    struct prep_q6_K *e = prep;
    for (int64_t b = 0; b < n / QK_K; b++)
        for (int j = 0; j < 8; j++)
            e[b].pair[j] = (int32_t)(uint16_t)y[b].bsums[2 * j] | (int32_t)((uint32_t)(uint16_t)y[b].bsums[2 * j + 1] << 16);
}

static inline __attribute__((always_inline)) void q6_K_packed_runT(int T, const struct packed_q6_K *p, const uint8_t *xq,
                                                                   size_t xs, const uint8_t *prep, size_t es, int64_t n,
                                                                   float *out) {
    const __m256i m4 = _mm256_set1_epi8(0xF), m30 = _mm256_set1_epi8(0x30);
    // bytes (sc[2j][r], sc[2j+1][r]) side by side, to be sign-extended into int16 pairs
    const __m128i interleave = _mm_setr_epi8(0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
    __m256 acc[Q6K_TOK];
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) acc[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK_K; b++, p++) {
        const int8_t *yq[Q6K_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) yq[t] = ((const block_q8_K *)(xq + t * xs) + b)->qs;
        __m256i S[Q6K_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) S[t] = _mm256_setzero_si256();
        _Pragma("GCC unroll 2") for (int h = 0; h < 2; h++) {
            for (int l = 0; l < 14; l++) __builtin_prefetch((const char *)p + PACKED_PREFETCH + 64 * (14 * h + l), 0, 3);
            _Pragma("GCC unroll 4") for (int q = 0; q < 4; q++) {
                _Pragma("GCC unroll 2") for (int half = 0; half < 2; half++) { // sub-block 8h + 2q + half
                    const int sb = 8 * h + 2 * q + half;
                    const __m256i sc = dup_lo16(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)p->sc[sb])));
                    __m256i P[Q6K_TOK];
                    _Pragma("GCC unroll 4") for (int jj = 0; jj < 4; jj++) {
                        const int j = 4 * half + jj;
                        const __m256i l = _mm256_load_si256(&p->ql[16 * h + 8 * (q & 1) + j]);
                        const __m256i hb = _mm256_load_si256(&p->qh[8 * h + j]);
                        const __m256i lo = q < 2 ? _mm256_and_si256(l, m4) : _mm256_and_si256(_mm256_srli_epi16(l, 4), m4);
                        const __m256i hi = q == 0 ? _mm256_slli_epi16(hb, 4)
                                           : q == 1 ? _mm256_slli_epi16(hb, 2)
                                           : q == 2 ? hb
                                                    : _mm256_srli_epi16(hb, 2);
                        const __m256i code = _mm256_or_si256(lo, _mm256_and_si256(hi, m30));
                        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
                            const __m256i m = _mm256_maddubs_epi16(code, _mm256_set1_epi32(load_i32(yq[t] + 128 * h + 32 * q + 4 * j)));
                            if (jj & 1) {
                                S[t] = _mm256_add_epi32(S[t], _mm256_madd_epi16(_mm256_add_epi16(P[t], m), sc));
                                keep_chain(&S[t]);
                            } else {
                                P[t] = m;
                            }
                        }
                    }
                }
            }
        }
        __m256i B[Q6K_TOK];
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) B[t] = _mm256_setzero_si256();
        for (int j = 0; j < 8; j++) {
            const __m256i scp = _mm256_cvtepi8_epi16(_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p->sc[2 * j]), interleave));
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++)
                B[t] = dpwssd(B[t], scp, _mm256_set1_epi32(((const struct prep_q6_K *)(prep + t * es) + b)->pair[j]));
        }
        const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->d));
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
            const float yd = ((const block_q8_K *)(xq + t * xs) + b)->d;
            const __m256i St = _mm256_sub_epi32(S[t], _mm256_slli_epi32(B[t], 5));
            acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_set1_ps(yd), d), _mm256_cvtepi32_ps(St), acc[t]);
        }
    }
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) _mm256_storeu_ps(out + 8 * t, acc[t]);
}
#endif

PANEL_RUN(q6_K_packed, Q6K_TOK)

// ---- Q1_0 packed at load time ----------------------------------------------------------------------
//
// Per 8-row block of 128 elements (the file's size, 144 bytes): for activation block k and lane
// position l a 32-bit word whose bit 4r + i is element 32k + 4l + i of row r, so that the word
// is the byte mask of a vector with rows in lanes; and the eight fp16 scales. Each word negates
// the set bytes of four broadcast activation bytes (one masked subtraction with AVX-512; a
// compare-built mask with AVX2), summed by vpdpbusd against ones: the one-token kernel's S_k.

struct packed_q1_0 {
    uint32_t bits[4][8];
    ggml_half d[8];
};
_Static_assert(sizeof(struct packed_q1_0) == 144, "packed_q1_0");

static size_t q1_0_packed_bytes(int64_t n) { return (size_t)(n / QK1_0) * sizeof(struct packed_q1_0); }

static void q1_0_packed_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *dst) {
    struct packed_q1_0 *p = dst;
    for (int64_t b = 0; b < n / QK1_0; b++, p++) {
        memset(p->bits, 0, sizeof p->bits);
        for (int r = 0; r < 8; r++) {
            const block_q1_0 *x = (const block_q1_0 *)(W + (size_t)r * row_bytes) + b;
            p->d[r] = x->d;
            for (int k = 0; k < 4; k++)
                for (int l = 0; l < 8; l++)
                    p->bits[k][l] |= (uint32_t)((x->qs[4 * k + l / 2] >> (4 * (l % 2))) & 0xF) << (4 * r);
        }
    }
}

// the activation blocks' scales as f32, converted once per token instead of once per row panel
static size_t q1_0_packed_prep_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(float); }
static void q1_0_packed_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_0 *y = xq;
    float *yd = prep;
    for (int64_t b = 0; b < n / QK8_0; b++) yd[b] = h2f(y[b].d);
}

// y with the bytes whose bit is set in `bits` negated
static inline __m256i negate_where(uint32_t bits, __m256i y) {
#ifdef QUANT_X86_VNNI
    return _mm256_mask_sub_epi8(y, (__mmask32)bits, _mm256_setzero_si256(), y);
#else
    const __m256i shuf = _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
    const __m256i m = _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_shuffle_epi8(_mm256_set1_epi32((int)bits), shuf),
                                                        _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe)),
                                        _mm256_set1_epi64x(-1));
    return _mm256_sub_epi8(_mm256_xor_si256(y, m), m);
#endif
}

static inline __attribute__((always_inline)) void q1_0_packed_runT(int T, const struct packed_q1_0 *p, const uint8_t *xq,
                                                                   size_t xs, const uint8_t *prep, size_t es, int64_t n,
                                                                   float *out) {
    const __m256i ones = _mm256_set1_epi8(1);
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 acc[4][4];
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        for (int k = 0; k < 4; k++) acc[t][k] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK1_0; b++, p++) {
        __builtin_prefetch((const char *)p + 1024, 0, 3);
        __builtin_prefetch((const char *)p + 1024 + 64, 0, 3);
        __builtin_prefetch((const char *)p + 1024 + 128, 0, 3);
        const __m256 nd = _mm256_xor_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p->d)), sign);
        _Pragma("GCC unroll 4") for (int k = 0; k < 4; k++) {
            const block_q8_0 *y[4];
            __m256i S[4][2]; // two partial sums (even / odd l): half the dependency chain, same integer
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) {
                y[t] = (const block_q8_0 *)(xq + t * xs) + 4 * b + k;
                S[t][0] = S[t][1] = _mm256_setzero_si256();
            }
            _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
                const uint32_t bits = p->bits[k][l];
                _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                    S[t][l & 1] = dpbusd(S[t][l & 1], ones, negate_where(bits, _mm256_set1_epi32(load_i32(y[t]->qs + 4 * l))));
            }
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
                acc[t][k] = _mm256_fmadd_ps(_mm256_mul_ps(nd, _mm256_set1_ps(((const float *)(prep + t * es))[4 * b + k])),
                                            _mm256_cvtepi32_ps(_mm256_add_epi32(S[t][0], S[t][1])), acc[t][k]);
        }
    }
    _Pragma("GCC unroll 4") for (int t = 0; t < T; t++)
        _mm256_storeu_ps(out + 8 * t, _mm256_add_ps(_mm256_add_ps(acc[t][0], acc[t][2]), _mm256_add_ps(acc[t][1], acc[t][3])));
}

PANEL_RUN(q1_0_packed, TOK)

// ---- the table ----------------------------------------------------------------------------------

// Q1_0 prefill: its byte panel (one load per vpdpbusd) beats the masked subtractions of the
// packed layout once several tokens share a panel, so the packed blocks are widened into it.
static void q1_0_packed_to_panel(const void *packed, int64_t n, void *panel) {
    const struct packed_q1_0 *src = packed;
    struct panel_q1_0 *p = panel;
    const __m256i two = _mm256_set1_epi8(2);
    for (int64_t b = 0; b < n / QK1_0; b++, p++, src++) {
        p->nd = _mm256_xor_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)src->d)), _mm256_set1_ps(-0.0f));
        for (int k = 0; k < 4; k++)
            for (int l = 0; l < 8; l++) // 2 - (set ? -2 : 2) = 4 or 0, halved: 2 where the bit is set
                p->w[k][l] = _mm256_srli_epi16(_mm256_sub_epi8(two, negate_where(src->bits[k][l], two)), 1);
    }
}

#ifndef QUANT_X86_VNNI // the float formats have AVX2 kernels only
// ---- F32, F16, BF16 ----------------------------------------------------------------------------------
//
// As float_tile (quant_avx2.c): per row and token one 8-lane accumulator, lane l taking
// fma(w, x, acc) of elements l, l + 8, ... in turn, its sum in hsum_f32_8's order, then the tail
// elements by fma. The panel is the eight rows converted to F32 (row after row), the activation
// extras the activation as F32. Blocked as two rows x FLOAT_TOK tokens: per eight elements two
// weight loads and FLOAT_TOK activation loads feed 2 * FLOAT_TOK independent FMAs.

enum { FLOAT_TOK = 6, FLOAT_CHUNK = 256 }; // tokens a pass; elements a chunk (6 KiB of activations)

static size_t float_panel_bytes(int64_t n) { return (size_t)n * 8 * sizeof(float); }
static size_t float_prep_bytes(int64_t n) { return (size_t)n * sizeof(float); }

static inline __m256 ld8_f32(const void *p) { return _mm256_loadu_ps(p); }
static inline __m256 ld8_f16(const void *p) { return _mm256_cvtph_ps(_mm_loadu_si128(p)); }
static inline __m256 ld8_bf16(const void *p) {
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(p)), 16));
}

// n elements of one float format (es bytes each) to F32; ld8 converts eight.
static inline __attribute__((always_inline)) void float_row(const uint8_t *src, int64_t n, float *dst, size_t es,
                                                            __m256 (*ld8)(const void *)) {
    int64_t k = 0;
    for (; k + 8 <= n; k += 8) _mm256_storeu_ps(dst + k, ld8(src + (size_t)k * es));
    for (; k < n; k++) {
        _Alignas(32) uint8_t e[32] = {0};
        memcpy(e, src + (size_t)k * es, es);
        dst[k] = _mm256_cvtss_f32(ld8(e));
    }
}

// as quant_avx2.c's hsum_f32_8: (lo + hi), then (t0 + t2) + (t1 + t3)
static inline float hsum8(__m256 x) {
    __m128 r = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
    r = _mm_add_ps(r, _mm_movehl_ps(r, r));
    return _mm_cvtss_f32(_mm_add_ss(r, _mm_movehdup_ps(r)));
}

static inline __attribute__((always_inline)) void float_runT(int T, const void *panel, const uint8_t *xq, size_t xs,
                                                             const uint8_t *prep, size_t es, int64_t n, float *out) {
    (void)xq, (void)xs;
    const float *x[FLOAT_TOK];
    _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) x[t] = (const float *)(prep + t * es);
    const int64_t n8 = n & ~(int64_t)7;
    // Elements in chunks, all eight rows over a chunk before the next, so that the chunk's
    // activations stay in L1; the accumulators wait in acc between chunks.
    __m256 acc[4][2][FLOAT_TOK];
    for (int q = 0; q < 4; q++)
        _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) acc[q][0][t] = acc[q][1][t] = _mm256_setzero_ps();
    for (int64_t c = 0; c < n8; c += FLOAT_CHUNK) {
        const int64_t ce = c + FLOAT_CHUNK < n8 ? c + FLOAT_CHUNK : n8;
        for (int q = 0; q < 4; q++) {
            const float *w0 = (const float *)panel + (size_t)(2 * q) * n, *w1 = w0 + n;
            __m256 a0[FLOAT_TOK], a1[FLOAT_TOK];
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) a0[t] = acc[q][0][t], a1[t] = acc[q][1][t];
            for (int64_t i = c; i < ce; i += 8) {
                const __m256 v0 = _mm256_loadu_ps(w0 + i), v1 = _mm256_loadu_ps(w1 + i);
                _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) {
                    __m256 xt = _mm256_loadu_ps(x[t] + i);
                    __asm__("" : "+x"(xt)); // one load for both rows (gcc would fold it into each FMA)
                    a0[t] = _mm256_fmadd_ps(v0, xt, a0[t]);
                    a1[t] = _mm256_fmadd_ps(v1, xt, a1[t]);
                }
            }
            _Pragma("GCC unroll 8") for (int t = 0; t < T; t++) acc[q][0][t] = a0[t], acc[q][1][t] = a1[t];
        }
    }
    for (int r = 0; r < 8; r++) {
        const float *w = (const float *)panel + (size_t)r * n;
        for (int t = 0; t < T; t++) {
            float sum = hsum8(acc[r / 2][r % 2][t]);
            for (int64_t k = n8; k < n; k++) sum = fmaf(w[k], x[t][k], sum);
            out[8 * t + r] = sum;
        }
    }
}

PANEL_RUN(float, FLOAT_TOK)

#define FLOAT_PANEL(fmt, es)                                                                                   \
    static void fmt##_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {                       \
        for (int r = 0; r < 8; r++) float_row(W + (size_t)r * row_bytes, n, (float *)panel + (size_t)r * n, es, ld8_##fmt); \
    }                                                                                                          \
    static void fmt##_prep(const void *xq, int64_t n, void *prep) { float_row(xq, n, prep, es, ld8_##fmt); }   \
    static const struct quant_panel fmt##_panel_kernels = {float_panel_bytes, fmt##_pack, float_prep_bytes,     \
                                                           fmt##_prep, float_run, NULL, NULL};
FLOAT_PANEL(f32, 4)
FLOAT_PANEL(f16, 2)
FLOAT_PANEL(bf16, 2)
#endif

static const struct quant_panel q4_0_panel_kernels = {u8_panel_bytes, q4_0_pack, u8_prep_bytes, q4_0_prep, u8_run, NULL, NULL};
static const struct quant_panel iq4_xs_panel_kernels = {iq4_xs_panel_bytes, iq4_xs_pack, iq4_xs_prep_bytes, iq4_xs_prep,
                                                       iq4_xs_run, NULL, NULL};
static const struct quant_panel q1_0_panel_kernels = {q1_0_panel_bytes, q1_0_pack, q1_0_prep_bytes, q1_0_prep, q1_0_run, NULL, NULL};
static const struct quant_panel q5_K_panel_kernels = {q5_K_panel_bytes, q5_K_pack, q4_K_prep_bytes, q4_K_prep, q5_K_run, NULL, NULL};
static const struct quant_panel q4_K_packed_kernels = {q4_K_packed_bytes, q4_K_packed_pack, q4_K_prep_bytes, q4_K_prep,
                                                       q4_K_packed_run, NULL, NULL};
static const struct quant_panel q6_K_packed_kernels = {q6_K_packed_bytes, q6_K_packed_pack, q6_K_packed_prep_bytes,
                                                       q6_K_packed_prep, q6_K_packed_run, NULL, NULL};
static const struct quant_panel q1_0_packed_kernels = {q1_0_packed_bytes, q1_0_packed_pack, q1_0_packed_prep_bytes,
                                                       q1_0_packed_prep, q1_0_packed_run, q1_0_packed_to_panel,
                                                       &q1_0_panel_kernels};

// Panels built per call from the file's rows (prefill of weights not packed at load): Q4_K and
// Q6_K use their packed layouts, which are compact and cheap to build.
const struct quant_panel *PANEL(quant_panel)(uint32_t type) {
    switch (type) {
    case GGML_TYPE_Q8_0: return &q8_0_panel_kernels;
    case GGML_TYPE_Q4_0: return &q4_0_panel_kernels;
    case GGML_TYPE_Q5_0: return &q5_0_panel_kernels;
    case GGML_TYPE_IQ4_NL: return &iq4_nl_panel_kernels;
    case GGML_TYPE_MXFP4: return &mxfp4_panel_kernels;
    case GGML_TYPE_IQ4_XS: return &iq4_xs_panel_kernels;
    case GGML_TYPE_Q1_0: return &q1_0_panel_kernels;
    case GGML_TYPE_Q4_K: return &q4_K_packed_kernels;
    case GGML_TYPE_Q5_K: return &q5_K_panel_kernels;
    case GGML_TYPE_Q6_K: return &q6_K_packed_kernels;
#ifndef QUANT_X86_VNNI
    case GGML_TYPE_F32: return &f32_panel_kernels;
    case GGML_TYPE_F16: return &f16_panel_kernels;
    case GGML_TYPE_BF16: return &bf16_panel_kernels;
#endif
    default: return NULL;
    }
}

// Layouts that replace a matrix's weights at load (quant_pack): the same pack/prep/run shape as
// the panels, but the panel bytes are the stored weights themselves.
const struct quant_panel *PANEL(quant_packed)(uint32_t type) {
    switch (type) {
    case GGML_TYPE_Q4_K: return &q4_K_packed_kernels;
    case GGML_TYPE_Q6_K: return &q6_K_packed_kernels;
    case GGML_TYPE_Q1_0: return &q1_0_packed_kernels;
    default: return NULL;
    }
}
