// panel_avx512.c — prefill matrix products on panels of eight weight rows (AVX-512 VL + VNNI).
//
// A one-token kernel walks one weight row with its elements spread over the vector lanes. For
// many tokens that repeats the weight unpacking and the per-block scale work for every token.
// Here eight rows are first repacked into a panel whose vector lanes are the ROWS: a 32-byte
// vector holds the same four consecutive elements of each of the eight rows. One vpdpbusd with
// four activation bytes broadcast to every lane then advances all eight rows at once, and the
// per-block float work (scale, convert, FMA) is shared by the eight rows.
//
// The panel is built once per call and reused by every token of the tile (quant_matmul), so it
// costs nothing per token. Results: every output equals the one-token kernel of the same type
// (quant_avx2.c, either build) bit for bit. That is what lets prefill and decode agree exactly:
//   - formats whose one-token kernel keeps eight float accumulators, one per lane position l
//     (Q8_0, Q1_0), keep them here too, as eight vectors acc[l] with rows in lanes, and reduce
//     them at the end in the one-token kernel's order ((0+4)+(2+6)) + ((1+5)+(3+7));
//   - formats whose one-token kernel reduces each block to an exact integer first (Q4_K, Q6_K)
//     need one float accumulator per row, i.e. one vector.
// Signed weights are biased by +128 to make vpdpbusd's unsigned operand; the bias times the
// activation sum is subtracted exactly through the accumulator's starting value.
#include <immintrin.h>
#include <stdlib.h>

#include "quant/quant_impl.h"

static inline float h2f(ggml_half h) { return _cvtsh_ss(h); }

static inline int32_t load_i32(const void *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return v;
}

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

// The one-token kernels' final reduction of eight lane accumulators (hsum_f32_8), on vectors.
static inline __m256 reduce8(const __m256 a[8]) {
    return _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a[0], a[4]), _mm256_add_ps(a[2], a[6])),
                         _mm256_add_ps(_mm256_add_ps(a[1], a[5]), _mm256_add_ps(a[3], a[7])));
}

// ---- Q8_0 ---------------------------------------------------------------------------------------
//
// Panel block: w[l] = elements 4l..4l+3 of the block for each row, XOR 0x80 (= q + 128 unsigned),
// d[r] = the row's block scale. Activation extras per block: yd (f32 scale) and
// neg[l] = -128 * (sum of activation bytes 4l..4l+3), so that
//   vpdpbusd(neg[l], w[l], y[4l..4l+3]) = sum_k q_k y_k, the one-token kernel's lane l exactly.

struct panel_q8_0 {
    __m256i w[8];
    __m256 d;
};

static size_t q8_0_panel_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct panel_q8_0); }

static void q8_0_pack(const uint8_t *W, size_t row_bytes, int64_t n, void *panel) {
    struct panel_q8_0 *p = panel;
    const __m256i bias = _mm256_set1_epi8((char)0x80);
    for (int64_t b = 0; b < n / QK8_0; b++, p++) {
        const uint8_t *blk = W + (size_t)b * sizeof(block_q8_0);
        float d[8];
        for (int r = 0; r < 8; r++) d[r] = h2f(((const block_q8_0 *)(blk + (size_t)r * row_bytes))->d);
        p->d = _mm256_loadu_ps(d);
        __m256i t[8];
        transpose8x8(blk + offsetof(block_q8_0, qs), row_bytes, t);
        for (int l = 0; l < 8; l++) p->w[l] = _mm256_xor_si256(t[l], bias);
    }
}

struct prep_q8_0 {
    int32_t neg[8];
    float yd;
};

static size_t q8_0_prep_bytes(int64_t n) { return (size_t)(n / QK8_0) * sizeof(struct prep_q8_0); }

static void q8_0_prep(const void *xq, int64_t n, void *prep) {
    const block_q8_0 *y = xq;
    struct prep_q8_0 *p = prep;
    const __m256i m128 = _mm256_set1_epi8((char)0x80); // as unsigned 128: dpbusd(0, 128, y) = 128 * sum
    for (int64_t b = 0; b < n / QK8_0; b++) {
        const __m256i s = _mm256_dpbusd_epi32(_mm256_setzero_si256(), m128, _mm256_loadu_si256((const __m256i *)y[b].qs));
        _mm256_storeu_si256((__m256i *)p[b].neg, _mm256_sub_epi32(_mm256_setzero_si256(), s));
        p[b].yd = h2f(y[b].d);
    }
}

static void q8_0_run(const void *panel, const void *xq, const void *prep, int64_t n, float out[8]) {
    const struct panel_q8_0 *p = panel;
    const block_q8_0 *y = xq;
    const struct prep_q8_0 *e = prep;
    __m256 acc[8];
    for (int l = 0; l < 8; l++) acc[l] = _mm256_setzero_ps();
    for (int64_t b = 0; b < n / QK8_0; b++, p++) {
        const __m256 d = _mm256_mul_ps(p->d, _mm256_set1_ps(e[b].yd));
        _Pragma("GCC unroll 8") for (int l = 0; l < 8; l++) {
            const __m256i s = _mm256_dpbusd_epi32(_mm256_set1_epi32(e[b].neg[l]), p->w[l],
                                                  _mm256_set1_epi32(load_i32(y[b].qs + 4 * l)));
            acc[l] = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(s), acc[l]);
        }
    }
    _mm256_storeu_ps(out, reduce8(acc));
}

// ---- the table ----------------------------------------------------------------------------------

const struct quant_panel *quant_panel_avx512(uint32_t type) {
    static const struct quant_panel q8_0 = {q8_0_panel_bytes, q8_0_pack, q8_0_prep_bytes, q8_0_prep, q8_0_run};
    switch (type) {
    case GGML_TYPE_Q8_0: return &q8_0;
    default: return NULL;
    }
}
