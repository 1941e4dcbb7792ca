// quant_avx2.c — AVX2 / FMA / F16C kernels. Compiled with -mavx2 -mfma -mf16c (Makefile rule
// for *_avx2.c) and only called after quant.c has seen those features on the CPU.
//
// Each kernel computes the same integer block sums as its scalar twin in quant_ref*.c; only
// the float accumulation is reassociated (8-wide vectors, FMA), which the tests bound.
//
// The integer core is the usual x86 trick: _mm256_maddubs_epi16 multiplies UNSIGNED bytes by
// SIGNED bytes and adds adjacent pairs into int16; a second _mm256_madd_epi16 (by 1, or by a
// sub-block scale) widens to int32. For signed x signed, |x| and sign(y, x) make the left side
// unsigned. Every pair sum below stays under 2^15 (largest: 2 * 128 * 127 = 32512).
//
// quant_avx512.c compiles this file a second time with QUANT_X86_VNNI defined (and AVX-512 VL +
// VNNI enabled): the helpers dot_us8 and madd16_acc then use vpdpbusd / vpdpwssd on 256-bit
// vectors, which fuse the widening multiply-adds with the accumulation. Every int32 lane they
// produce is the same as the AVX2 sequence's (no pair sum here saturates), and all the float
// arithmetic is shared, so the two kernel sets give bit-identical results; test_quant pins that.
// Kernels that gain nothing from VNNI (float formats, activation converters, the attention
// ops) are compiled only for AVX2; the table falls back to them.
#include <immintrin.h>
#include <math.h>

#include "quant/quant_impl.h"

#ifdef QUANT_X86_VNNI
#define KERNEL(name) name##_avx512
#else
#define KERNEL(name) name##_avx2
#endif

// ---- helpers ----------------------------------------------------------------------------------

static inline float hsum_f32_4(__m128 r) {
    r = _mm_add_ps(r, _mm_movehl_ps(r, r));
    return _mm_cvtss_f32(_mm_add_ss(r, _mm_movehdup_ps(r)));
}

static inline float hsum_f32_8(__m256 x) {
    return hsum_f32_4(_mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1)));
}

static inline int hsum_i32_4(__m128i s) {
    s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
    return _mm_cvtsi128_si32(s);
}

static inline int hsum_i32_8(__m256i a) {
    return hsum_i32_4(_mm_add_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1)));
}

static inline float h2f(ggml_half h) { return _cvtsh_ss(h); }

// Four vectors of 8 int32 -> their four sums (exact), in order.
static inline __m128i hsum4x8_i32(__m256i s0, __m256i s1, __m256i s2, __m256i s3) {
    const __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
    return _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
}

static inline __m256i combine128(__m128i lo, __m128i hi) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// unsigned bytes x signed bytes -> 8 int32 sums of 4 products each (no pair here reaches the
// int16 saturation of maddubs, so VNNI's vpdpbusd gives the same lanes).
static inline __m256i dot_us8(__m256i u, __m256i s) {
#ifdef QUANT_X86_VNNI
    return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s);
#else
    return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
#endif
}

// acc + (int16 pairs a*b summed into int32): madd then add, or VNNI's vpdpwssd in one.
static inline __m256i madd16_acc(__m256i acc, __m256i a, __m256i b) {
#ifdef QUANT_X86_VNNI
    return _mm256_dpwssd_epi32(acc, a, b);
#else
    return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
#endif
}

// signed bytes x signed bytes -> 8 int32 sums
static inline __m256i dot_ss8(__m256i x, __m256i y) {
    return dot_us8(_mm256_sign_epi8(x, x), _mm256_sign_epi8(y, x));
}

// 16 bytes of nibble pairs -> 32 bytes: lanes 0..15 the low nibbles, 16..31 the high nibbles
// (exactly the element order of the Q4_0-style split).
static inline __m256i nibbles_32(const uint8_t *p) {
    const __m128i t = _mm_loadu_si128((const __m128i *)p);
    return _mm256_and_si256(combine128(t, _mm_srli_epi16(t, 4)), _mm256_set1_epi8(0x0F));
}

// 32 bits -> 32 bytes, 0xFF where bit j is set (byte j <-> bit j).
static inline __m256i bytes_from_bits_32(const uint8_t *p) {
    uint32_t x32;
    memcpy(&x32, p, 4);
    const __m256i shuf = _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202,
                                           0x0101010101010101, 0x0000000000000000);
    __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32((int)x32), shuf);
    bytes = _mm256_or_si256(bytes, _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe));
    return _mm256_cmpeq_epi8(bytes, _mm256_set1_epi64x(-1));
}

// 16-entry int8 table lookup of 32 nibbles (IQ4_NL / MXFP4 / IQ4_XS)
static inline __m256i lookup_nibbles_32(__m128i table, const uint8_t *p) {
    const __m128i t = _mm_loadu_si128((const __m128i *)p), m4 = _mm_set1_epi8(0x0F);
    const __m128i lo = _mm_shuffle_epi8(table, _mm_and_si128(t, m4));
    const __m128i hi = _mm_shuffle_epi8(table, _mm_and_si128(_mm_srli_epi16(t, 4), m4));
    return combine128(lo, hi);
}


#ifndef QUANT_X86_VNNI // float formats: nothing for VNNI to fuse
// ---- float formats ----------------------------------------------------------------------------

// The float formats (F32, F16, BF16) share one order, which the panels (panel_avx2.c) keep with
// several rows and tokens in registers: lane l of one accumulator, from zero, takes
// fma(w, x, acc) of elements l, l + 8, l + 16, ... in turn over the row's n & ~7 elements; the
// row's sum is hsum_f32_8 of it, then sum = fma(w, x, sum) over the tail elements one by one.
typedef __m256 (*load8_fn)(const void *p, int64_t i);
typedef float (*load1_fn)(const void *p, int64_t i);

// R rows (a[r]) against T activations (b[t]): out[r * T + t]. One accumulator per pair, so R x T
// independent chains; each weight vector is converted once for the T activations.
static inline __attribute__((always_inline)) void float_tile(int R, int T, int64_t n, const void *const *a,
                                                             const void *const *b, load8_fn l8, load1_fn l1, float *out) {
    __m256 acc[4][4];
    _Pragma("GCC unroll 4") for (int r = 0; r < R; r++)
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[r][t] = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 x[4];
        _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) x[t] = l8(b[t], i);
        _Pragma("GCC unroll 4") for (int r = 0; r < R; r++) {
            const __m256 w = l8(a[r], i);
            _Pragma("GCC unroll 4") for (int t = 0; t < T; t++) acc[r][t] = _mm256_fmadd_ps(w, x[t], acc[r][t]);
        }
    }
    for (int r = 0; r < R; r++)
        for (int t = 0; t < T; t++) {
            float sum = hsum_f32_8(acc[r][t]);
            for (int64_t k = i; k < n; k++) sum = fmaf(l1(a[r], k), l1(b[t], k), sum);
            out[r * T + t] = sum;
        }
}

static inline __m256 load8_f32(const void *p, int64_t i) { return _mm256_loadu_ps((const float *)p + i); }
static inline float load1_f32(const void *p, int64_t i) { return ((const float *)p)[i]; }
static inline __m256 load8_f16(const void *p, int64_t i) {
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)((const ggml_half *)p + i)));
}
static inline float load1_f16(const void *p, int64_t i) { return h2f(((const ggml_half *)p)[i]); }
static inline __m256 load8_bf16(const void *p, int64_t i) {
    const __m256i v = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)((const ggml_bf16 *)p + i)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(v, 16));
}
static inline float load1_bf16(const void *p, int64_t i) { return bf16_to_fp32(((const ggml_bf16 *)p)[i]); }

// One-token kernels, and four rows (decode) or four activations (prefill) at a time: the same
// chains, so every result is the one-token kernel's.
#define FLOAT_KERNELS(fmt)                                                                                    \
    float KERNEL(dot_##fmt##_##fmt)(int64_t n, const void *w, const void *xq) {                                \
        float o;                                                                                               \
        float_tile(1, 1, n, &w, &xq, load8_##fmt, load1_##fmt, &o);                                           \
        return o;                                                                                              \
    }                                                                                                          \
    void KERNEL(rows4_##fmt##_##fmt)(int64_t n, const void *w, size_t row_bytes, const void *xq, float out[4]) { \
        const void *a[4];                                                                                      \
        for (int r = 0; r < 4; r++) a[r] = (const uint8_t *)w + (size_t)r * row_bytes;                         \
        float_tile(4, 1, n, a, &xq, load8_##fmt, load1_##fmt, out);                                           \
    }                                                                                                          \
    void KERNEL(dot4_##fmt##_##fmt)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) { \
        const void *b[4];                                                                                      \
        for (int t = 0; t < 4; t++) b[t] = (const uint8_t *)xq + (size_t)t * act_stride;                       \
        float_tile(1, 4, n, &w, b, load8_##fmt, load1_##fmt, out);                                            \
    }
FLOAT_KERNELS(f32)
FLOAT_KERNELS(f16)
FLOAT_KERNELS(bf16)

#endif

// ---- 32-element blocks against Q8_0 / Q8_1 -------------------------------------------------------

// The 32-element formats against Q8_0 (Q8_0, Q4_0, Q5_0, IQ4_NL, MXFP4): each block reduced to
// its exact integer sum S of signed codes times activation bytes, then scaled and accumulated in
// four float lanes, block b into lane b mod 4: lane = fma(dx * dy, S, lane), in block order; the
// result is (lane 0 + lane 2) + (lane 1 + lane 3). Four blocks share one reduction of their sums
// and one conversion of their scales. (The reference scales every group of four products
// instead; the sums here are the scalar kernels'.) The panel kernels (panel_avx2.c) keep the same
// four chains per row with rows in vector lanes, so they need no per-element-group float work.

// The scales of four consecutive blocks (each block's ggml_half d first, `stride` bytes apart).
static inline __m128 scales4(const void *blocks, size_t stride) {
    const uint8_t *p = blocks;
    ggml_half d[4];
    for (int k = 0; k < 4; k++) memcpy(&d[k], p + (size_t)k * stride, sizeof d[k]);
    return _mm_cvtph_ps(_mm_setr_epi16((short)d[0], (short)d[1], (short)d[2], (short)d[3], 0, 0, 0, 0));
}

// Each format's signed codes (element order) and weight scale, one block and four.
static inline __m256i codes_q8_0(const block_q8_0 *x) { return _mm256_loadu_si256((const __m256i *)x->qs); }
static inline __m256i codes_q4_0(const block_q4_0 *x) { return _mm256_sub_epi8(nibbles_32(x->qs), _mm256_set1_epi8(8)); }
// q - 16 as int8: a clear 5th bit means the byte is nibble | 0xF0 = nibble - 16
static inline __m256i codes_q5_0(const block_q5_0 *x) {
    return _mm256_or_si256(nibbles_32(x->qs), _mm256_andnot_si256(bytes_from_bits_32(x->qh), _mm256_set1_epi8((char)0xF0)));
}
static inline __m256i codes_iq4_nl(const block_iq4_nl *x) {
    return lookup_nibbles_32(_mm_loadu_si128((const __m128i *)kvalues_iq4nl), x->qs);
}
static inline __m256i codes_mxfp4(const block_mxfp4 *x) {
    return lookup_nibbles_32(_mm_loadu_si128((const __m128i *)kvalues_mxfp4), x->qs);
}
#define HALF_SCALES(fmt, block_t)                                                                  \
    static inline float scale_##fmt(const block_t *x) { return h2f(x->d); }                        \
    static inline __m128 scales4_##fmt(const block_t *x) { return scales4(x, sizeof *x); }
HALF_SCALES(q8_0, block_q8_0)
HALF_SCALES(q4_0, block_q4_0)
HALF_SCALES(q5_0, block_q5_0)
HALF_SCALES(iq4_nl, block_iq4_nl)
#undef HALF_SCALES
static inline float scale_mxfp4(const block_mxfp4 *x) { return e8m0_to_fp32_half(x->e); }
static inline __m128 scales4_mxfp4(const block_mxfp4 *x) {
    return _mm_setr_ps(e8m0_to_fp32_half(x[0].e), e8m0_to_fp32_half(x[1].e), e8m0_to_fp32_half(x[2].e),
                       e8m0_to_fp32_half(x[3].e));
}

// The last nb % 4 blocks' sums and scale products into lanes 0..left-1: the missing lanes add
// fma(0, 0, lane) = lane (never -0: lanes start at +0).
static inline __m128 lanes_tail(const int32_t si[4], const float d[4], __m128 acc) {
    return _mm_fmadd_ps(_mm_loadu_ps(d), _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)si)), acc);
}

// Four blocks i..i+3 of signed codes qx (scales xd) against four activations, into each one's
// four block lanes (the one-token step, the codes decoded once).
static inline __attribute__((always_inline)) void lanes4_dot4(const __m256i qx[4], __m128 xd, const block_q8_0 *const y[4],
                                                              int64_t i, __m128 acc[4]) {
    __m256i ax[4];
    for (int k = 0; k < 4; k++) ax[k] = _mm256_sign_epi8(qx[k], qx[k]);
    _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {
        __m256i s[4];
        for (int k = 0; k < 4; k++)
            s[k] = dot_us8(ax[k], _mm256_sign_epi8(_mm256_loadu_si256((const __m256i *)y[t][i + k].qs), qx[k]));
        acc[t] = _mm_fmadd_ps(_mm_mul_ps(xd, scales4_q8_0(y[t] + i)), _mm_cvtepi32_ps(hsum4x8_i32(s[0], s[1], s[2], s[3])),
                              acc[t]);
    }
}

// dot_FMT_q8_0 and dot4_FMT_q8_0 from codes_FMT, scale_FMT and scales4_FMT.
#define LANES4_KERNELS(fmt, block_t)                                                                             \
    static inline __m256i bsum_##fmt(const block_t *x, const block_q8_0 *y) {                                   \
        return dot_ss8(codes_##fmt(x), _mm256_loadu_si256((const __m256i *)y->qs));                             \
    }                                                                                                            \
    static inline __m128 tail_##fmt(const block_t *x, const block_q8_0 *y, int64_t left, __m128 acc) {           \
        int32_t si[4] = {0};                                                                                     \
        float d[4] = {0};                                                                                        \
        for (int64_t k = 0; k < left; k++) {                                                                     \
            si[k] = hsum_i32_8(bsum_##fmt(x + k, y + k));                                                       \
            d[k] = scale_##fmt(x + k) * h2f(y[k].d);                                                             \
        }                                                                                                        \
        return lanes_tail(si, d, acc);                                                                           \
    }                                                                                                            \
    float KERNEL(dot_##fmt##_q8_0)(int64_t n, const void *w, const void *xq) {                                   \
        const block_t *x = w;                                                                                    \
        const block_q8_0 *y = xq;                                                                                \
        const int64_t nb = n / QK8_0;                                                                            \
        __m128 acc = _mm_setzero_ps();                                                                           \
        int64_t i = 0;                                                                                           \
        for (; i + 4 <= nb; i += 4) {                                                                            \
            const __m128i si = hsum4x8_i32(bsum_##fmt(x + i, y + i), bsum_##fmt(x + i + 1, y + i + 1),         \
                                           bsum_##fmt(x + i + 2, y + i + 2), bsum_##fmt(x + i + 3, y + i + 3)); \
            acc = _mm_fmadd_ps(_mm_mul_ps(scales4_##fmt(x + i), scales4_q8_0(y + i)), _mm_cvtepi32_ps(si), acc); \
        }                                                                                                        \
        if (i < nb) acc = tail_##fmt(x + i, y + i, nb - i, acc);                                                 \
        return hsum_f32_4(acc);                                                                                  \
    }                                                                                                            \
    void KERNEL(dot4_##fmt##_q8_0)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {  \
        const block_t *x = w;                                                                                    \
        const block_q8_0 *y[4];                                                                                  \
        for (int t = 0; t < 4; t++) y[t] = (const block_q8_0 *)((const uint8_t *)xq + (size_t)t * act_stride);    \
        const int64_t nb = n / QK8_0;                                                                            \
        __m128 acc[4] = {_mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps(), _mm_setzero_ps()};                \
        int64_t i = 0;                                                                                           \
        for (; i + 4 <= nb; i += 4) {                                                                            \
            const __m256i qx[4] = {codes_##fmt(x + i), codes_##fmt(x + i + 1), codes_##fmt(x + i + 2),           \
                                   codes_##fmt(x + i + 3)};                                                      \
            lanes4_dot4(qx, scales4_##fmt(x + i), y, i, acc);                                                    \
        }                                                                                                        \
        for (int t = 0; t < 4; t++) {                                                                            \
            if (i < nb) acc[t] = tail_##fmt(x + i, y[t] + i, nb - i, acc[t]);                                    \
            out[t] = hsum_f32_4(acc[t]);                                                                         \
        }                                                                                                        \
    }
LANES4_KERNELS(q8_0, block_q8_0)
LANES4_KERNELS(q4_0, block_q4_0)
LANES4_KERNELS(q5_0, block_q5_0)
LANES4_KERNELS(iq4_nl, block_iq4_nl)
LANES4_KERNELS(mxfp4, block_mxfp4)
#undef LANES4_KERNELS

float KERNEL(dot_q4_1_q8_1)(int64_t n, const void *w, const void *xq) {
    const block_q4_1 *x = w;
    const block_q8_1 *y = xq;
    __m256 acc = _mm256_setzero_ps();
    float summs = 0;
    for (int64_t i = 0; i < n / QK8_1; i++) {
        summs += h2f(x[i].m) * h2f(y[i].s);
        const __m256 d = _mm256_set1_ps(h2f(x[i].d) * h2f(y[i].d));
        const __m256i qy = _mm256_loadu_si256((const __m256i *)y[i].qs);
        acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dot_us8(nibbles_32(x[i].qs), qy)), acc);
    }
    return hsum_f32_8(acc) + summs;
}

float KERNEL(dot_q5_1_q8_1)(int64_t n, const void *w, const void *xq) {
    const block_q5_1 *x = w;
    const block_q8_1 *y = xq;
    __m256 acc = _mm256_setzero_ps();
    float summs = 0;
    for (int64_t i = 0; i < n / QK8_1; i++) {
        summs += h2f(x[i].m) * h2f(y[i].s);
        const __m256 d = _mm256_set1_ps(h2f(x[i].d) * h2f(y[i].d));
        const __m256i hi = _mm256_and_si256(bytes_from_bits_32(x[i].qh), _mm256_set1_epi8(0x10));
        const __m256i qx = _mm256_or_si256(nibbles_32(x[i].qs), hi);
        const __m256i qy = _mm256_loadu_si256((const __m256i *)y[i].qs);
        acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dot_us8(qx, qy)), acc);
    }
    return hsum_f32_8(acc) + summs;
}

// Q1_0: each weight block covers 4 activation blocks; bit set -> +qy, clear -> -qy.
// With m = 0xFF where the bit is set, (qy ^ m) - m negates the set lanes, so the
// block sum comes out negated; the minus is folded into the scale. Per 32
// weights: a broadcast load, shuffle, or, compare (the mask), xor, sub, a widening sum.
// Each activation block k is reduced to its exact integer sum S_k, and four float accumulators
// (one per k = 0..3 of every weight block, in the lanes of one vector) take
// fma((-dx * dy_k), S_k, acc_k); the result is (acc_0 + acc_2) + (acc_1 + acc_3). That order is
// what the 8-row panel kernel (panel_avx512.c) reproduces with rows in lanes.
static inline __m256i q1_0_mask(const uint8_t *p) {
    const __m256i shuf = _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0);
    int32_t b;
    memcpy(&b, p, 4);
    return _mm256_cmpeq_epi8(_mm256_or_si256(_mm256_shuffle_epi8(_mm256_set1_epi32(b), shuf), _mm256_set1_epi64x(0x7fbfdfeff7fbfdfe)),
                             _mm256_set1_epi64x(-1));
}

// q with the lanes whose weight bit is set negated (bits: 32 bits, LSB first). With AVX-512 BW
// the bits are the write mask of one subtraction.
static inline __m256i q1_0_apply(const uint8_t *bits, __m256i q) {
#ifdef QUANT_X86_VNNI
    uint32_t b;
    memcpy(&b, bits, 4);
    return _mm256_mask_sub_epi8(q, (__mmask32)b, _mm256_setzero_si256(), q);
#else
    const __m256i m = q1_0_mask(bits);
    return _mm256_sub_epi8(_mm256_xor_si256(q, m), m);
#endif
}

float KERNEL(dot_q1_0_q8_0)(int64_t n, const void *w, const void *xq) {
    const block_q1_0 *x = w;
    const block_q8_0 *y = xq;
    const __m256i ones = _mm256_set1_epi8(1);
    __m128 acc = _mm_setzero_ps();
    for (int64_t i = 0; i < n / QK1_0; i++) {
        __m256i s[4];
        for (int k = 0; k < 4; k++)
            s[k] = dot_us8(ones, q1_0_apply(x[i].qs + 4 * k, _mm256_loadu_si256((const __m256i *)y[4 * i + k].qs)));
        const __m128 d = _mm_mul_ps(_mm_set1_ps(-h2f(x[i].d)), scales4_q8_0(&y[4 * i]));
        acc = _mm_fmadd_ps(d, _mm_cvtepi32_ps(hsum4x8_i32(s[0], s[1], s[2], s[3])), acc);
    }
    return hsum_f32_4(acc);
}

// Q2_0: 8 bytes carry 32 two-bit codes, element j in bits 2(j%4) of byte j/4.
float KERNEL(dot_q2_0_q8_0)(int64_t n, const void *w, const void *xq) {
    const block_q2_0 *x = w;
    const block_q8_0 *y = xq;
    // byte j of the result <- source byte j/4 (shuffles act within 128-bit lanes, so the high
    // lane indexes bytes 4..7 of the same broadcast 8 bytes)
    const __m256i rep = _mm256_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                                         5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7);
    const __m256i pos = _mm256_setr_epi8(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3,
                                         0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
    const __m256i m3 = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK2_0; i++) {
        const float dx = h2f(x[i].d);
        for (int k = 0; k < 2; k++) {
            const block_q8_0 *yb = &y[2 * i + k];
            int64_t b8;
            memcpy(&b8, x[i].qs + 8 * k, 8);
            const __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi64x(b8), rep);
            __m256i q = _mm256_and_si256(bytes, m3);
            for (int p = 1; p < 4; p++) {
                const __m256i sel = _mm256_cmpeq_epi8(pos, _mm256_set1_epi8((char)p));
                const __m256i v = _mm256_and_si256(_mm256_srli_epi16(bytes, 2 * p), m3);
                q = _mm256_blendv_epi8(q, v, sel);
            }
            const __m256i qx = _mm256_sub_epi8(q, _mm256_set1_epi8(1));
            const __m256i qy = _mm256_loadu_si256((const __m256i *)yb->qs);
            acc = _mm256_fmadd_ps(_mm256_set1_ps(dx * h2f(yb->d)), _mm256_cvtepi32_ps(dot_ss8(qx, qy)),
                                  acc);
        }
    }
    return hsum_f32_8(acc);
}

// Sixteen int16 sub-block scales, split for pair lookups: lo = scales 0..7 in both 128-bit
// lanes, hi = scales 8..15 in both lanes.
struct scales16 {
    __m256i lo, hi;
};

static inline struct scales16 scales16_from_epi16(__m256i sc) {
    const __m128i l = _mm256_castsi256_si128(sc), h = _mm256_extracti128_si256(sc, 1);
    return (struct scales16){combine128(l, l), combine128(h, h)};
}

// int16 lanes 0..7 = scale 2k, lanes 8..15 = scale 2k+1 of one half (k = 0..3), by byte shuffle:
// cheaper than moving two scalars into a vector for every pair of sub-blocks.
static inline __m256i scale_pair_of(__m256i half, int k) {
    static const uint8_t ctrl[4][32] = {
        {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3},
        {4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7},
        {8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11},
        {12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15},
    };
    return _mm256_shuffle_epi8(half, _mm256_loadu_si256((const __m256i *)ctrl[k]));
}

// ---- K-quants against Q8_K ---------------------------------------------------------------------

// sum_j bsums[j] * m[j] for the 16 bsums and 16 int16 multipliers, as 8 int32
static inline __m256i bsums_dot(const block_q8_K *yb, __m256i m16) {
    return _mm256_madd_epi16(_mm256_loadu_si256((const __m256i *)yb->bsums), m16);
}

float KERNEL(dot_q2_K_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_q2_K *x = w;
    const block_q8_K *y = xq;
    const __m256i m3 = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps(), accm = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = y[i].d * h2f(x[i].d), dmin = -y[i].d * h2f(x[i].dmin);
        const __m128i sc8 = _mm_loadu_si128((const __m128i *)x[i].scales);
        const __m256i mins = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(sc8, 4), _mm_set1_epi8(0xF)));
        accm = _mm256_fmadd_ps(_mm256_set1_ps(dmin), _mm256_cvtepi32_ps(bsums_dot(&y[i], mins)), accm);
        const struct scales16 sc = scales16_from_epi16(_mm256_cvtepu8_epi16(_mm_and_si128(sc8, _mm_set1_epi8(0xF))));
        const uint8_t *q2 = x[i].qs;
        const int8_t *q8 = y[i].qs;
        __m256i sumi = _mm256_setzero_si256();
        for (int h = 0; h < 2; h++, q2 += 32) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)q2);
            const __m256i half = h ? sc.hi : sc.lo;
            for (int j = 0; j < 4; j++, q8 += 32) {
                const __m256i q = _mm256_and_si256(_mm256_srli_epi16(bits, 2 * j), m3);
                const __m256i p16 = _mm256_maddubs_epi16(q, _mm256_loadu_si256((const __m256i *)q8));
                sumi = madd16_acc(sumi, scale_pair_of(half, j), p16);
            }
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_f32_8(acc) + hsum_f32_8(accm);
}

float KERNEL(dot_q3_K_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_q3_K *x = w;
    const block_q8_K *y = xq;
    const __m256i m3 = _mm256_set1_epi8(3), m4 = _mm256_set1_epi8(4);
    __m256 acc = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = y[i].d * h2f(x[i].d);
        // 16 six-bit scales: low nibbles in bytes 0..7, two high bits each in bytes 8..11;
        // unpacked four at a time with word operations, then biased by -32.
        uint32_t aux[3], utmp[4];
        memcpy(aux, x[i].scales, 12);
        const uint32_t km1 = 0x03030303, km2 = 0x0f0f0f0f;
        utmp[3] = ((aux[1] >> 4) & km2) | (((aux[2] >> 6) & km1) << 4);
        utmp[2] = ((aux[0] >> 4) & km2) | (((aux[2] >> 4) & km1) << 4);
        utmp[1] = (aux[1] & km2) | (((aux[2] >> 2) & km1) << 4);
        utmp[0] = (aux[0] & km2) | ((aux[2] & km1) << 4);
        const __m128i sc8 = _mm_sub_epi8(_mm_set_epi32((int)utmp[3], (int)utmp[2], (int)utmp[1], (int)utmp[0]), _mm_set1_epi8(32));
        const struct scales16 sv = scales16_from_epi16(_mm256_cvtepi8_epi16(sc8));
        const __m256i hbits = _mm256_loadu_si256((const __m256i *)x[i].hmask);
        const uint8_t *q3 = x[i].qs;
        const int8_t *q8 = y[i].qs;
        __m256i sumi = _mm256_setzero_si256();
        for (int h = 0; h < 2; h++, q3 += 32) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)q3);
            for (int j = 0; j < 4; j++, q8 += 32) {
                const int hb = 4 * h + j;
                const __m256i q2 = _mm256_and_si256(_mm256_srli_epi16(bits, 2 * j), m3);
                // q = q2 - 4 where the high bit is clear: subtract maddubs(4 or 0, q8)
                const __m256i hset = _mm256_and_si256(hbits, _mm256_set1_epi8((char)(1 << hb)));
                const __m256i q3h = _mm256_and_si256(_mm256_cmpeq_epi8(hset, _mm256_setzero_si256()), m4);
                const __m256i qy = _mm256_loadu_si256((const __m256i *)q8);
                const __m256i p16 = _mm256_sub_epi16(_mm256_maddubs_epi16(q2, qy), _mm256_maddubs_epi16(q3h, qy));
                sumi = madd16_acc(sumi, scale_pair_of(h ? sv.hi : sv.lo, j), p16);
            }
        }
        acc = _mm256_fmadd_ps(_mm256_set1_ps(d), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_f32_8(acc);
}

// Scale shuffles: lanes of sub-block pair j broadcast the 16-bit scale of sub-block 2j / 2j+1.
static inline __m256i k4_scale_shuffle(int i) {
    static const uint8_t k[256] = {
        0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
        2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3,
        4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5, 4, 5,
        6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7, 6, 7,
        8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9,
        10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11,
        12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13, 12, 13,
        14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15, 14, 15,
    };
    return _mm256_loadu_si256((const __m256i *)k + i);
}

// Q4_K / Q5_K 6-bit scales and mins of one block, unpacked in a vector:
// bytes 0..7 = scales 0..7, bytes 8..15 = mins 0..7 (the layout in quant.h). The 12 scale bytes
// sit at offset 4 of both block types, so one 16-byte load of the block start covers them.
static inline __m128i k45_scales_mins(const void *block) {
    const __m128i v = _mm_loadu_si128((const __m128i *)block);
    // A: s0..3 | s8..11 | s4..7 | s8..11 (block bytes 4.. = s0..)    B: high-bit sources
    const __m128i A = _mm_shuffle_epi8(v, _mm_setr_epi8(4, 5, 6, 7, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15));
    const __m128i B = _mm_shuffle_epi8(v, _mm_setr_epi8(-1, -1, -1, -1, 4, 5, 6, 7, -1, -1, -1, -1, 8, 9, 10, 11));
    const __m128i lo6 = _mm_and_si128(A, _mm_set1_epi8(63));
    const __m128i nib = _mm_blend_epi32(_mm_and_si128(A, _mm_set1_epi8(15)),
                                        _mm_and_si128(_mm_srli_epi16(A, 4), _mm_set1_epi8(15)), 0x8);
    const __m128i hi = _mm_or_si128(nib, _mm_and_si128(_mm_srli_epi16(B, 2), _mm_set1_epi8(0x30)));
    return _mm_blend_epi32(lo6, hi, 0xA); // dwords 1 and 3 from the nibble form
}

// The activation's 16-element sums paired per 32-element sub-block (8 int16), shared by rows.
static inline __m128i q8K_pair_sums(const block_q8_K *y) {
    const __m256i q8sums = _mm256_loadu_si256((const __m256i *)y->bsums);
    return _mm_hadd_epi16(_mm256_extracti128_si256(q8sums, 0), _mm256_extracti128_si256(q8sums, 1));
}

// One Q4_K block against one Q8_K block: the exact block integers as lane sums,
// S = sum of sumi's 8 lanes, M = sum of prod's 4 lanes (mins times sub-block sums).
static inline void q4_K_block(const block_q4_K *x, const block_q8_K *y, __m128i q8s, __m256i *sumi_out, __m128i *prod) {
    const __m256i m4 = _mm256_set1_epi8(0xF);
    const __m256i mins_and_scales = _mm256_cvtepu8_epi16(k45_scales_mins(x));
    *prod = _mm_madd_epi16(_mm256_extracti128_si256(mins_and_scales, 1), q8s);
    const __m128i sc128 = _mm256_extracti128_si256(mins_and_scales, 0);
    const __m256i scales = combine128(sc128, sc128);
    const uint8_t *q4 = x->qs;
    const int8_t *q8 = y->qs;
    __m256i sumi = _mm256_setzero_si256();
    for (int j = 0; j < 4; j++, q4 += 32, q8 += 64) {
        const __m256i scale_l = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * j));
        const __m256i scale_h = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * j + 1));
        const __m256i bits = _mm256_loadu_si256((const __m256i *)q4);
        const __m256i lo = _mm256_and_si256(bits, m4), hi = _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4);
        sumi = madd16_acc(sumi, scale_l, _mm256_maddubs_epi16(lo, _mm256_loadu_si256((const __m256i *)q8)));
        sumi = madd16_acc(sumi, scale_h, _mm256_maddubs_epi16(hi, _mm256_loadu_si256((const __m256i *)(q8 + 32))));
    }
    *sumi_out = sumi;
}

// Q4_K and Q5_K per block: acc = fma(d, S, acc), acc_m = fma(dmin, M, acc_m); the result is
// acc + acc_m. (The exact block integers are what lets an 8-row panel keep one accumulator per row.)
#define K45_DOT(fmt)                                                                      \
    float KERNEL(dot_##fmt##_q8_K)(int64_t n, const void *w, const void *xq) {            \
        const block_##fmt *x = w;                                                         \
        const block_q8_K *y = xq;                                                         \
        float acc = 0, acc_m = 0;                                                         \
        for (int64_t i = 0; i < n / QK_K; i++) {                                          \
            const float d = y[i].d * h2f(x[i].d), dmin = -y[i].d * h2f(x[i].dmin);        \
            __m256i sumi;                                                                 \
            __m128i prod;                                                                 \
            fmt##_block(&x[i], &y[i], q8K_pair_sums(&y[i]), &sumi, &prod);                \
            acc = fmaf(d, (float)hsum_i32_8(sumi), acc);                                  \
            acc_m = fmaf(dmin, (float)hsum_i32_4(prod), acc_m);                           \
        }                                                                                 \
        return acc + acc_m;                                                               \
    }
K45_DOT(q4_K)

// Four rows against one activation (decode): the same per-row arithmetic with the rows in the
// lanes of the float accumulators, so each output equals dot_q4_K_q8_K's bit for bit.
// Rows are walked one after another over a span of up to ROWS4_SPAN blocks (the integer work),
// keeping the weights one sequential stream as the hardware prefetcher likes; the per-block
// integers wait in a small buffer for the four-row reductions and float updates.
enum { ROWS4_SPAN = 32 };

static inline __m128 h2f_4(ggml_half a, ggml_half b, ggml_half c, ggml_half d) {
    return _mm_cvtph_ps(_mm_setr_epi16((short)a, (short)b, (short)c, (short)d, 0, 0, 0, 0));
}

void KERNEL(rows4_q4_K_q8_K)(int64_t n, const void *w, size_t row_bytes, const void *xq, float out[4]) {
    const block_q8_K *y = xq;
    __m128 acc = _mm_setzero_ps(), acc_m = _mm_setzero_ps();
    __m256i sumi[4][ROWS4_SPAN];
    __m128i prod[4][ROWS4_SPAN], q8s[ROWS4_SPAN];
    const int64_t nb = n / QK_K;
    for (int64_t i0 = 0; i0 < nb; i0 += ROWS4_SPAN) {
        const int span = (int)(nb - i0 < ROWS4_SPAN ? nb - i0 : ROWS4_SPAN);
        for (int i = 0; i < span; i++) q8s[i] = q8K_pair_sums(&y[i0 + i]);
        for (int r = 0; r < 4; r++) {
            const block_q4_K *x = (const block_q4_K *)((const uint8_t *)w + (size_t)r * row_bytes) + i0;
            for (int i = 0; i < span; i++) q4_K_block(&x[i], &y[i0 + i], q8s[i], &sumi[r][i], &prod[r][i]);
        }
        for (int i = 0; i < span; i++) {
            const block_q4_K *x[4];
            for (int r = 0; r < 4; r++) x[r] = (const block_q4_K *)((const uint8_t *)w + (size_t)r * row_bytes) + i0 + i;
            const __m128i S = hsum4x8_i32(sumi[0][i], sumi[1][i], sumi[2][i], sumi[3][i]);
            const __m128i M = _mm_hadd_epi32(_mm_hadd_epi32(prod[0][i], prod[1][i]), _mm_hadd_epi32(prod[2][i], prod[3][i]));
            const float yd = y[i0 + i].d;
            const __m128 d = _mm_mul_ps(_mm_set1_ps(yd), h2f_4(x[0]->d, x[1]->d, x[2]->d, x[3]->d));
            const __m128 dmin = _mm_mul_ps(_mm_set1_ps(-yd), h2f_4(x[0]->dmin, x[1]->dmin, x[2]->dmin, x[3]->dmin));
            acc = _mm_fmadd_ps(d, _mm_cvtepi32_ps(S), acc);
            acc_m = _mm_fmadd_ps(dmin, _mm_cvtepi32_ps(M), acc_m);
        }
    }
    _mm_storeu_ps(out, _mm_add_ps(acc, acc_m));
}

// The 5-bit codes of chunk c (64 elements: sub-blocks 2c and 2c+1) of a Q5_K block: low nibbles
// of q5[0..32) with bit 2c of hbits's bytes, and high nibbles with bit 2c+1.
static inline void q5_K_codes(const uint8_t *q5, __m256i hbits, int c, __m256i *lo, __m256i *hi) {
    const __m256i m4 = _mm256_set1_epi8(0xF), m1 = _mm256_set1_epi8(1);
    const __m256i bits = _mm256_loadu_si256((const __m256i *)q5);
    const __m256i hl = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hbits, 2 * c), m1), 4);
    const __m256i hh = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(hbits, 2 * c + 1), m1), 4);
    *lo = _mm256_or_si256(_mm256_and_si256(bits, m4), hl);
    *hi = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(bits, 4), m4), hh);
}

// One Q5_K block against one Q8_K block, as q4_K_block: S = sum of sumi's 8 lanes (the scaled
// 5-bit code products), M = sum of prod's 4 lanes (mins times sub-block sums), exact integers.
static inline void q5_K_block(const block_q5_K *x, const block_q8_K *y, __m128i q8s, __m256i *sumi_out, __m128i *prod) {
    const __m256i mins_and_scales = _mm256_cvtepu8_epi16(k45_scales_mins(x));
    *prod = _mm_madd_epi16(_mm256_extracti128_si256(mins_and_scales, 1), q8s);
    const __m128i sc128 = _mm256_extracti128_si256(mins_and_scales, 0);
    const __m256i scales = combine128(sc128, sc128);
    const __m256i hbits = _mm256_loadu_si256((const __m256i *)x->qh);
    const uint8_t *q5 = x->qs;
    const int8_t *q8 = y->qs;
    __m256i sumi = _mm256_setzero_si256();
    for (int c = 0; c < 4; c++, q5 += 32, q8 += 64) {
        const __m256i scale_l = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * c));
        const __m256i scale_h = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * c + 1));
        __m256i lo, hi;
        q5_K_codes(q5, hbits, c, &lo, &hi);
        sumi = madd16_acc(sumi, scale_l, _mm256_maddubs_epi16(lo, _mm256_loadu_si256((const __m256i *)q8)));
        sumi = madd16_acc(sumi, scale_h, _mm256_maddubs_epi16(hi, _mm256_loadu_si256((const __m256i *)(q8 + 32))));
    }
    *sumi_out = sumi;
}

K45_DOT(q5_K)

// One Q6_K block against one Q8_K block: S = sum of the 8 lanes returned, the exact block
// integer sum_s sc_s sum_e (c_e - 32) y_e. The codes c = q + 32 go through maddubs as they are;
// the -32 comes once per block from the activation's 16-element sums: 32 sum_s sc_s bsum_s.
static inline __m256i q6_K_block(const block_q6_K *x, const block_q8_K *y) {
    const __m256i m4 = _mm256_set1_epi8(0xF), m3 = _mm256_set1_epi8(3);
    const uint8_t *ql = x->ql, *qh = x->qh;
    const int8_t *q8 = y->qs;
    const __m256i sc16 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)x->scales));
    const struct scales16 sv = scales16_from_epi16(sc16);
    __m256i sumi = _mm256_setzero_si256();
    for (int h = 0; h < 2; h++, ql += 64, qh += 32) {
        const __m256i b1 = _mm256_loadu_si256((const __m256i *)ql);
        const __m256i b2 = _mm256_loadu_si256((const __m256i *)(ql + 32));
        const __m256i bh = _mm256_loadu_si256((const __m256i *)qh);
        __m256i q[4];
        q[0] = _mm256_and_si256(b1, m4);
        q[1] = _mm256_and_si256(b2, m4);
        q[2] = _mm256_and_si256(_mm256_srli_epi16(b1, 4), m4);
        q[3] = _mm256_and_si256(_mm256_srli_epi16(b2, 4), m4);
        for (int k = 0; k < 4; k++, q8 += 32) {
            const __m256i hk = _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(bh, 2 * k), m3), 4);
            const __m256i qk = _mm256_or_si256(q[k], hk); // 0..63, the code + 32
            const __m256i p16 = _mm256_maddubs_epi16(qk, _mm256_loadu_si256((const __m256i *)q8));
            sumi = madd16_acc(sumi, scale_pair_of(h ? sv.hi : sv.lo, k), p16);
        }
    }
    const __m256i bias = _mm256_madd_epi16(sc16, _mm256_loadu_si256((const __m256i *)y->bsums));
    return _mm256_sub_epi32(sumi, _mm256_slli_epi32(bias, 5));
}

float KERNEL(dot_q6_K_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_q6_K *x = w;
    const block_q8_K *y = xq;
    float acc = 0;
    for (int64_t i = 0; i < n / QK_K; i++)
        acc = fmaf(y[i].d * h2f(x[i].d), (float)hsum_i32_8(q6_K_block(&x[i], &y[i])), acc);
    return acc;
}

void KERNEL(rows4_q6_K_q8_K)(int64_t n, const void *w, size_t row_bytes, const void *xq, float out[4]) {
    const block_q8_K *y = xq;
    __m128 acc = _mm_setzero_ps();
    __m256i sumi[4][ROWS4_SPAN];
    const int64_t nb = n / QK_K;
    for (int64_t i0 = 0; i0 < nb; i0 += ROWS4_SPAN) {
        const int span = (int)(nb - i0 < ROWS4_SPAN ? nb - i0 : ROWS4_SPAN);
        for (int r = 0; r < 4; r++) {
            const block_q6_K *x = (const block_q6_K *)((const uint8_t *)w + (size_t)r * row_bytes) + i0;
            for (int i = 0; i < span; i++) sumi[r][i] = q6_K_block(&x[i], &y[i0 + i]);
        }
        for (int i = 0; i < span; i++) {
            const block_q6_K *x[4];
            for (int r = 0; r < 4; r++) x[r] = (const block_q6_K *)((const uint8_t *)w + (size_t)r * row_bytes) + i0 + i;
            const __m128i S = hsum4x8_i32(sumi[0][i], sumi[1][i], sumi[2][i], sumi[3][i]);
            const __m128 d = _mm_mul_ps(_mm_set1_ps(y[i0 + i].d), h2f_4(x[0]->d, x[1]->d, x[2]->d, x[3]->d));
            acc = _mm_fmadd_ps(d, _mm_cvtepi32_ps(S), acc);
        }
    }
    _mm_storeu_ps(out, acc);
}

// IQ4_XS: each super-block's exact integer sum (sub-block scales applied in integer), then one
// FMA a super-block in order; the panel (panel_avx2.c) holds the scaled codes as int16.
// The eight sub-block scales ls - 32 of a super-block as int32 lanes (iq4_xs_ls of each).
static inline __m256i iq4_xs_scales8(const block_iq4_xs *x) {
    uint32_t l;
    memcpy(&l, x->scales_l, sizeof l);
    const __m256i lo = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32((int)l), _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28)),
                                        _mm256_set1_epi32(15));
    const __m256i hi = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(x->scales_h), _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14)),
                                        _mm256_set1_epi32(3));
    return _mm256_sub_epi32(_mm256_or_si256(lo, _mm256_slli_epi32(hi, 4)), _mm256_set1_epi32(32));
}

// Two sub-blocks a step: one 256-bit lookup per nibble half (lane 0 sub-block ib, lane 1 ib + 1),
// the activations loaded to match, and the sub-blocks' sums (int32 lanes 0-3 and 4-7) times their
// scales. The super-block's integer is the one every IQ4_XS kernel sums exactly.
float KERNEL(dot_iq4_xs_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_iq4_xs *x = w;
    const block_q8_K *y = xq;
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)kvalues_iq4nl));
    const __m256i m4 = _mm256_set1_epi8(0xF);
    float acc = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = h2f(x[i].d) * y[i].d;
        const __m256i ls = iq4_xs_scales8(&x[i]);
        __m256i sumi = _mm256_setzero_si256();
        for (int ib = 0; ib < QK_K / 32; ib += 2) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)(x[i].qs + 16 * ib));
            const __m256i lo = _mm256_shuffle_epi8(table, _mm256_and_si256(bits, m4));
            const __m256i hi = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(bits, 4), m4));
            const int8_t *q8 = y[i].qs + 32 * ib;
            const __m256i ya = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)q8)),
                                                       _mm_loadu_si128((const __m128i *)(q8 + 32)), 1);
            const __m256i yb = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(q8 + 16))),
                                                       _mm_loadu_si128((const __m128i *)(q8 + 48)), 1);
            const __m256i s = _mm256_add_epi32(dot_us8(_mm256_abs_epi8(lo), _mm256_sign_epi8(ya, lo)),
                                               dot_us8(_mm256_abs_epi8(hi), _mm256_sign_epi8(yb, hi)));
            const __m256i sc = _mm256_permutevar8x32_epi32(ls, _mm256_setr_epi32(ib, ib, ib, ib, ib + 1, ib + 1, ib + 1, ib + 1));
            sumi = _mm256_add_epi32(sumi, _mm256_mullo_epi32(s, sc));
        }
        acc = fmaf(d, (float)hsum_i32_8(sumi), acc);
    }
    return acc;
}

// TQ1_0: bytes hold 5 (or 4) base-3 digits, scaled so that digit n of byte b is
// the top two bits of (b * 3^n mod 256) * 3, i.e. ((uint8)(b * 3^n) * 3) >> 8.
// Byte multiplies by 3 and 9 are adds and masked 16-bit shifts (no byte
// multiply in AVX2); the >> 8 of a byte times 3 is mulhi_epu16 on the byte
// moved to the top of a 16-bit lane.
static inline __m256i mul3_u8(__m256i b) { return _mm256_add_epi8(b, _mm256_add_epi8(b, b)); }
static inline __m256i mul9_u8(__m256i b) {
    return _mm256_add_epi8(_mm256_and_si256(_mm256_slli_epi16(b, 3), _mm256_set1_epi8((char)0xF8)), b);
}
static inline __m256i trit_of(__m256i t) {
    const __m256i three = _mm256_set1_epi16(3), lo = _mm256_set1_epi16(0x00FF);
    const __m256i even = _mm256_mulhi_epu16(_mm256_slli_epi16(t, 8), three);        // low bytes
    const __m256i odd = _mm256_mulhi_epu16(_mm256_andnot_si256(lo, t), three);      // high bytes
    return _mm256_or_si256(_mm256_and_si256(even, lo), _mm256_slli_epi16(odd, 8));
}

float KERNEL(dot_tq1_0_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_tq1_0 *x = w;
    const block_q8_K *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const int8_t *q8 = y[i].qs;
        __m256i sum = _mm256_setzero_si256();
        // elements 0..159: qs[0..31], digits 0..4, 32 elements per digit
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)x[i].qs);
        const __m256i p[5] = {b0, mul3_u8(b0), mul9_u8(b0), mul9_u8(mul3_u8(b0)), mul9_u8(mul9_u8(b0))};
        for (int d = 0; d < 5; d++)
            sum = _mm256_add_epi32(sum, dot_us8(trit_of(p[d]), _mm256_loadu_si256((const __m256i *)(q8 + 32 * d))));
        // elements 160..239: qs[32..47], digits 0..4, 16 elements per digit (two digits per vector)
        const __m128i c = _mm_loadu_si128((const __m128i *)(x[i].qs + 32));
        const __m256i b1 = combine128(c, c);
        const __m256i m1 = _mm256_blend_epi32(b1, mul3_u8(b1), 0xF0);    // [x1 | x3]
        const __m256i q[3] = {m1, mul9_u8(m1), mul9_u8(mul9_u8(b1))};    // [1|3], [9|27], [81|81]
        for (int d = 0; d < 2; d++)
            sum = _mm256_add_epi32(sum, dot_us8(trit_of(q[d]), _mm256_loadu_si256((const __m256i *)(q8 + 160 + 32 * d))));
        {   // digit 4: 16 elements at 224..239
            const __m128i t4 = _mm256_castsi256_si128(trit_of(q[2]));
            const __m128i p16 = _mm_maddubs_epi16(t4, _mm_loadu_si128((const __m128i *)(q8 + 224)));
            sum = _mm256_add_epi32(sum, _mm256_castsi128_si256(_mm_madd_epi16(p16, _mm_set1_epi16(1))));
        }
        // elements 240..255: qh[0..3], digits 0..3, 4 elements per digit
        uint32_t h;
        memcpy(&h, x[i].qh, 4);
        const __m256i hb = _mm256_set1_epi32((int)h);
        // bytes 0..3 digit 0, 4..7 digit 1, 8..11 digit 2, 12..15 digit 3 (low 128 bits used)
        const __m256i h3 = mul3_u8(hb), h9 = mul9_u8(hb), h27 = mul9_u8(h3);
        __m256i hv = _mm256_blend_epi32(hb, h3, 0x02);
        hv = _mm256_blend_epi32(hv, h9, 0x04);
        hv = _mm256_blend_epi32(hv, h27, 0x08);
        {
            const __m128i th = _mm256_castsi256_si128(trit_of(hv));
            const __m128i p16 = _mm_maddubs_epi16(th, _mm_loadu_si128((const __m128i *)(q8 + 240)));
            sum = _mm256_add_epi32(sum, _mm256_castsi128_si256(_mm_madd_epi16(p16, _mm_set1_epi16(1))));
        }
        // sum (x - 1) y = sum x y - sum y
        int ysum = 0;
        for (int k = 0; k < QK_K / 16; k++) ysum += y[i].bsums[k];
        const int isum = hsum_i32_8(sum) - ysum;
        sumf += (float)isum * (h2f(x[i].d) * y[i].d);
    }
    return sumf;
}

float KERNEL(dot_tq2_0_q8_K)(int64_t n, const void *w, const void *xq) {
    const block_tq2_0 *x = w;
    const block_q8_K *y = xq;
    const __m256i m3 = _mm256_set1_epi8(3);
    __m256 acc = _mm256_setzero_ps();
    for (int64_t i = 0; i < n / QK_K; i++) {
        __m256i sumi = _mm256_setzero_si256();
        for (int g = 0; g < 2; g++) {
            const __m256i bits = _mm256_loadu_si256((const __m256i *)(x[i].qs + 32 * g));
            for (int l = 0; l < 4; l++) {
                const __m256i q = _mm256_and_si256(_mm256_srli_epi16(bits, 2 * l), m3);
                const __m256i qy = _mm256_loadu_si256((const __m256i *)(y[i].qs + 128 * g + 32 * l));
                sumi = _mm256_add_epi32(sumi, dot_us8(q, qy));
            }
        }
        // sum (q - 1) * y = sum q * y - sum y, and sum y is the sum of the bsums
        sumi = _mm256_sub_epi32(sumi, bsums_dot(&y[i], _mm256_set1_epi16(1)));
        acc = _mm256_fmadd_ps(_mm256_set1_ps(y[i].d * h2f(x[i].d)), _mm256_cvtepi32_ps(sumi), acc);
    }
    return hsum_f32_8(acc);
}

#ifndef QUANT_X86_VNNI // activation converters and attention ops: AVX2 only
// ---- activation converters (bit-identical to the scalar ones) ---------------------------------

void KERNEL(act_f16)(const float *x, void *xq, int64_t n) {
    ggml_half *y = xq;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(y + i), _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; i++) y[i] = fp32_to_fp16(x[i]);
}

// One 32-float block as ggml's x86 quantize_row_q8_0 does it: id = 127/amax, round half even.
// Returns d (f32) and the int32 sum of the quants (for Q8_1's s).
static inline float q8_block_avx2(const float *x, int8_t *qs, int *sum) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 v0 = _mm256_loadu_ps(x), v1 = _mm256_loadu_ps(x + 8), v2 = _mm256_loadu_ps(x + 16),
           v3 = _mm256_loadu_ps(x + 24);
    __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                             _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
    __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
    m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
    m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
    const float amax = _mm_cvtss_f32(m4);
    const float d = amax / 127.f;
    const __m256 id = _mm256_set1_ps(amax != 0.0f ? 127.f / amax : 0.0f);
#define Q8_ROUND (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
    __m256i i0 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v0, id), Q8_ROUND));
    __m256i i1 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v1, id), Q8_ROUND));
    __m256i i2 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v2, id), Q8_ROUND));
    __m256i i3 = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v3, id), Q8_ROUND));
    *sum = hsum_i32_8(_mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3)));
    // pack 32 -> 16 -> 8 bits; the packs interleave 128-bit lanes, the permute undoes it
    i0 = _mm256_packs_epi32(i0, i1);
    i2 = _mm256_packs_epi32(i2, i3);
    i0 = _mm256_packs_epi16(i0, i2);
    i0 = _mm256_permutevar8x32_epi32(i0, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256((__m256i *)qs, i0);
    return d;
}

void KERNEL(act_q8_0)(const float *x, void *xq, int64_t n) {
    block_q8_0 *y = xq;
    for (int64_t i = 0; i < n / QK8_0; i++) {
        int sum;
        y[i].d = fp32_to_fp16(q8_block_avx2(x + i * QK8_0, y[i].qs, &sum));
    }
}

void KERNEL(act_q8_1)(const float *x, void *xq, int64_t n) {
    block_q8_1 *y = xq;
    for (int64_t i = 0; i < n / QK8_1; i++) {
        int sum;
        const float d = q8_block_avx2(x + i * QK8_1, y[i].qs, &sum);
        y[i].d = fp32_to_fp16(d);
        y[i].s = fp32_to_fp16(d * (float)sum);
    }
}

// Q8_K as ggml's quantize_row_q8_K_ref (quant_ref.c): the scale comes from the first element of
// largest magnitude, q = round-half-even(-127/max * x), bsums per 16. Bit-identical to it.
void KERNEL(act_q8_K)(const float *x, void *xq, int64_t n) {
    block_q8_K *y = xq;
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        __m256 m = _mm256_setzero_ps();
        for (int j = 0; j < QK_K; j += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)));
        __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float amax = _mm_cvtss_f32(m4);
        if (!(amax > 0.0f)) { // all zero (or NaN): the scalar path decides
            act_q8_K_ref(x, &y[i], QK_K);
            continue;
        }
        int first = 0;
        const __m256 va = _mm256_set1_ps(amax);
        for (int j = 0; j < QK_K; j += 8) {
            const int mask = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_andnot_ps(sign, _mm256_loadu_ps(x + j)), va, _CMP_EQ_OQ));
            if (mask) {
                first = j + __builtin_ctz((unsigned)mask);
                break;
            }
        }
        const float iscale = -127.f / x[first];
        const __m256 vs = _mm256_set1_ps(iscale);
        const __m256i cap = _mm256_set1_epi32(127);
        for (int j = 0; j < QK_K; j += 32) {
            __m256i q[4];
            for (int k = 0; k < 4; k++)
                q[k] = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(vs, _mm256_loadu_ps(x + j + 8 * k))), cap);
            const __m256i p = _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
            _mm256_storeu_si256((__m256i *)(y[i].qs + j), _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
        }
        for (int j = 0; j < QK_K / 32; j++) {
            const __m256i s4 = dot_us8(_mm256_set1_epi8(1), _mm256_loadu_si256((const __m256i *)(y[i].qs + 32 * j)));
            _Alignas(32) int32_t v[8];
            _mm256_store_si256((__m256i *)v, s4);
            y[i].bsums[2 * j] = (int16_t)(v[0] + v[1] + v[2] + v[3]);
            y[i].bsums[2 * j + 1] = (int16_t)(v[4] + v[5] + v[6] + v[7]);
        }
        y[i].d = 1 / iscale;
    }
}

// ---- attention F16 ops (twins of attn_f16.c, same order) ----------------------------------------

static inline __m256 load_f16x8(const ggml_half *p) { return load8_f16(p, 0); }

float KERNEL(f16_dot)(const uint16_t *x, const uint16_t *y, int n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int np = n & ~31;
    for (int i = 0; i < np; i += 32) {
        s0 = _mm256_fmadd_ps(load_f16x8(x + i), load_f16x8(y + i), s0);
        s1 = _mm256_fmadd_ps(load_f16x8(x + i + 8), load_f16x8(y + i + 8), s1);
        s2 = _mm256_fmadd_ps(load_f16x8(x + i + 16), load_f16x8(y + i + 16), s2);
        s3 = _mm256_fmadd_ps(load_f16x8(x + i + 24), load_f16x8(y + i + 24), s3);
    }
    const __m256 r = _mm256_add_ps(_mm256_add_ps(s0, s2), _mm256_add_ps(s1, s3));
    const __m128 t0 = _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
    const __m128 t1 = _mm_hadd_ps(t0, t0);
    double sum = _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
    for (int i = np; i < n; i++) sum += (double)(h2f(x[i]) * h2f(y[i]));
    return (float)sum;
}

void KERNEL(f16_mad)(uint16_t *acc, const uint16_t *v, float s, int n) {
    const __m256 vs = _mm256_set1_ps(s);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 a = _mm256_fmadd_ps(load_f16x8(v + i), vs, load_f16x8(acc + i));
        _mm_storeu_si128((__m128i *)(acc + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++) acc[i] = _cvtss_sh(fmaf(h2f(v[i]), s, h2f(acc[i])), _MM_FROUND_TO_NEAREST_INT);
}

void KERNEL(f16_scale)(uint16_t *acc, float s, int n) {
    const __m256 vs = _mm256_set1_ps(s);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 a = _mm256_mul_ps(load_f16x8(acc + i), vs);
        _mm_storeu_si128((__m128i *)(acc + i), _mm256_cvtps_ph(a, _MM_FROUND_TO_NEAREST_INT));
    }
    for (; i < n; i++) acc[i] = _cvtss_sh(h2f(acc[i]) * s, _MM_FROUND_TO_NEAREST_INT);
}

#endif

// ---- four tokens per weight row (prefill) -----------------------------------------------------
//
// The same arithmetic as the one-token kernel above for each of four activations, with the
// weight unpacking (nibbles, scales) done once: every result equals dot_q4_K_q8_K_avx2's
// bit for bit, so batched and token-by-token evaluation agree exactly.
// Four activations against one Q4_K row: the one-token block kernel per activation (prefill of
// eight tokens or more goes through the panels instead).
void KERNEL(dot4_q4_K_q8_K)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {
    const block_q4_K *x = w;
    const block_q8_K *y[4];
    for (int t = 0; t < 4; t++) y[t] = (const block_q8_K *)((const uint8_t *)xq + (size_t)t * act_stride);
    float acc[4] = {0}, acc_m[4] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float xd = h2f(x[i].d), xdmin = h2f(x[i].dmin);
        for (int t = 0; t < 4; t++) {
            __m256i sumi;
            __m128i prod;
            q4_K_block(&x[i], &y[t][i], q8K_pair_sums(&y[t][i]), &sumi, &prod);
            acc[t] = fmaf(y[t][i].d * xd, (float)hsum_i32_8(sumi), acc[t]);
            acc_m[t] = fmaf(-y[t][i].d * xdmin, (float)hsum_i32_4(prod), acc_m[t]);
        }
    }
    for (int t = 0; t < 4; t++) out[t] = acc[t] + acc_m[t];
}

// Four activations against one Q6_K row: the one-token block kernel per activation (the
// unpacking is repeated; prefill of eight tokens or more goes through the panels instead).
void KERNEL(dot4_q6_K_q8_K)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {
    const block_q6_K *x = w;
    const block_q8_K *y[4];
    for (int t = 0; t < 4; t++) y[t] = (const block_q8_K *)((const uint8_t *)xq + (size_t)t * act_stride);
    float acc[4] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float xd = h2f(x[i].d);
        for (int t = 0; t < 4; t++) acc[t] = fmaf(y[t][i].d * xd, (float)hsum_i32_8(q6_K_block(&x[i], &y[t][i])), acc[t]);
    }
    for (int t = 0; t < 4; t++) out[t] = acc[t];
}

void KERNEL(dot4_q1_0_q8_0)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {
    const block_q1_0 *x = w;
    const block_q8_0 *y[4];
    for (int t = 0; t < 4; t++) y[t] = (const block_q8_0 *)((const uint8_t *)xq + (size_t)t * act_stride);
    const __m256i ones = _mm256_set1_epi8(1);
    __m128 acc[4];
    for (int t = 0; t < 4; t++) acc[t] = _mm_setzero_ps();
    for (int64_t i = 0; i < n / QK1_0; i++) {
        const __m128 ndx = _mm_set1_ps(-h2f(x[i].d));
        _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {
            __m256i s[4];
            for (int k = 0; k < 4; k++)
                s[k] = dot_us8(ones, q1_0_apply(x[i].qs + 4 * k, _mm256_loadu_si256((const __m256i *)y[t][4 * i + k].qs)));
            const __m128 d = _mm_mul_ps(ndx, scales4_q8_0(&y[t][4 * i]));
            acc[t] = _mm_fmadd_ps(d, _mm_cvtepi32_ps(hsum4x8_i32(s[0], s[1], s[2], s[3])), acc[t]);
        }
    }
    for (int t = 0; t < 4; t++) out[t] = hsum_f32_4(acc[t]);
}

// ---- four activations per weight row for the other formats ------------------------------------
//
// Prefill of fewer than eight tokens, and of every type without a panel kernel: each one decodes
// a weight block once for four activations, then runs exactly its one-token kernel's per-block
// arithmetic (same integer lanes, same float accumulators, same reductions) per activation, so
// every output equals the one-token kernel's bit for bit (test_quant pins each).

#define DOT4_Y(type)                                                                           \
    const type *y[4];                                                                          \
    for (int t = 0; t < 4; t++) y[t] = (const type *)((const uint8_t *)xq + (size_t)t * act_stride)

// As dot_q5_K_q8_K: the 5-bit codes and the block's scales decoded once, the exact block
// integers and both accumulators per activation.
void KERNEL(dot4_q5_K_q8_K)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {
    const block_q5_K *x = w;
    DOT4_Y(block_q8_K);
    float acc[4] = {0}, acc_m[4] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float xd = h2f(x[i].d), xdmin = h2f(x[i].dmin);
        const __m256i mins_and_scales = _mm256_cvtepu8_epi16(k45_scales_mins(&x[i]));
        const __m128i mins = _mm256_extracti128_si256(mins_and_scales, 1);
        const __m128i sc128 = _mm256_extracti128_si256(mins_and_scales, 0);
        const __m256i scales = combine128(sc128, sc128);
        const __m256i hbits = _mm256_loadu_si256((const __m256i *)x[i].qh);
        __m256i sumi[4];
        for (int t = 0; t < 4; t++) {
            const __m128i prod = _mm_madd_epi16(mins, q8K_pair_sums(&y[t][i]));
            acc_m[t] = fmaf(-y[t][i].d * xdmin, (float)hsum_i32_4(prod), acc_m[t]);
            sumi[t] = _mm256_setzero_si256();
        }
        const uint8_t *q5 = x[i].qs;
        for (int c = 0; c < 4; c++, q5 += 32) {
            const __m256i scale_l = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * c));
            const __m256i scale_h = _mm256_shuffle_epi8(scales, k4_scale_shuffle(2 * c + 1));
            __m256i lo, hi;
            q5_K_codes(q5, hbits, c, &lo, &hi);
            _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {
                const int8_t *q8 = y[t][i].qs + 64 * c;
                sumi[t] = madd16_acc(sumi[t], scale_l, _mm256_maddubs_epi16(lo, _mm256_loadu_si256((const __m256i *)q8)));
                sumi[t] = madd16_acc(sumi[t], scale_h, _mm256_maddubs_epi16(hi, _mm256_loadu_si256((const __m256i *)(q8 + 32))));
            }
        }
        for (int t = 0; t < 4; t++) acc[t] = fmaf(y[t][i].d * xd, (float)hsum_i32_8(sumi[t]), acc[t]);
    }
    for (int t = 0; t < 4; t++) out[t] = acc[t] + acc_m[t];
}

// As dot_iq4_xs_q8_K: codes and sub-block scales decoded once.
void KERNEL(dot4_iq4_xs_q8_K)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]) {
    const block_iq4_xs *x = w;
    DOT4_Y(block_q8_K);
    const __m128i table = _mm_loadu_si128((const __m128i *)kvalues_iq4nl);
    float acc[4] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float xd = h2f(x[i].d);
        __m256i sumi[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
        for (int ib = 0; ib < QK_K / 32; ib++) {
            const int ls = iq4_xs_ls(&x[i], ib);
            const __m256i qx = lookup_nibbles_32(table, x[i].qs + 16 * ib), ax = _mm256_sign_epi8(qx, qx);
            const __m256i sc = _mm256_set1_epi16((short)(ls - 32));
            _Pragma("GCC unroll 4") for (int t = 0; t < 4; t++) {
                const __m256i qy = _mm256_loadu_si256((const __m256i *)(y[t][i].qs + 32 * ib));
                sumi[t] = madd16_acc(sumi[t], sc, _mm256_maddubs_epi16(ax, _mm256_sign_epi8(qy, qx)));
            }
        }
        for (int t = 0; t < 4; t++) acc[t] = fmaf(xd * y[t][i].d, (float)hsum_i32_8(sumi[t]), acc[t]);
    }
    for (int t = 0; t < 4; t++) out[t] = acc[t];
}
