// quant_avx512.c — AVX-512 (F, BW, VL, DQ, VNNI) kernels for the commonest weight types.
// Types without a kernel here fall back to the AVX2 ones (quant.c picks the best available).
//
// UNTESTED ON HARDWARE: written on a machine without AVX-512. test_quant pins every kernel
// here to its scalar twin automatically once it runs on a CPU that has these features.
//
// Integer core: VNNI vpdpbusd (unsigned x signed bytes, 4 products summed into int32). AVX-512
// has no vpsignb, so signed x signed uses |x| and y negated where x < 0 (a masked subtract).
#include <immintrin.h>

#include "quant/quant_impl.h"

static inline float h2f(ggml_half h) { return _cvtsh_ss(h); }

float dot_f32_f32_avx512(int64_t n, const void *w, const void *xq) {
    const float *a = w, *b = xq;
    __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
        s1 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i + 16), _mm512_loadu_ps(b + i + 16), s1);
    }
    if (i < n) { // up to 31 left: one full and/or one masked step
        for (; i + 16 <= n; i += 16) s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + i), _mm512_loadu_ps(b + i), s0);
        const __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
        s1 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, a + i), _mm512_maskz_loadu_ps(m, b + i), s1);
    }
    return _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));
}

float dot_f16_f16_avx512(int64_t n, const void *w, const void *xq) {
    const ggml_half *a = w, *b = xq;
    __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        s0 = _mm512_fmadd_ps(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(a + i))),
                             _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(b + i))), s0);
        s1 = _mm512_fmadd_ps(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(a + i + 16))),
                             _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(b + i + 16))), s1);
    }
    for (; i + 16 <= n; i += 16)
        s0 = _mm512_fmadd_ps(_mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(a + i))),
                             _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(b + i))), s0);
    float sum = _mm512_reduce_add_ps(_mm512_add_ps(s0, s1));
    for (; i < n; i++) sum += h2f(a[i]) * h2f(b[i]);
    return sum;
}

// signed x signed bytes -> 16 int32 (4 products each)
static inline __m512i dot_ss8_512(__m512i x, __m512i y) {
    const __mmask64 neg = _mm512_movepi8_mask(x);
    const __m512i sy = _mm512_mask_sub_epi8(y, neg, _mm512_setzero_si512(), y);
    return _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_abs_epi8(x), sy);
}

// lanes 0..7 get a, lanes 8..15 get b (one 32-element block per 256-bit half)
static inline __m512 two_scales(float a, float b) {
    return _mm512_insertf32x8(_mm512_set1_ps(a), _mm256_set1_ps(b), 1);
}

static inline __m512i load_2x32(const int8_t *a, const int8_t *b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)a)),
                              _mm256_loadu_si256((const __m256i *)b), 1);
}

float dot_q8_0_q8_0_avx512(int64_t n, const void *w, const void *xq) {
    const block_q8_0 *x = w, *y = xq;
    const int64_t nb = n / QK8_0;
    __m512 acc = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 2 <= nb; i += 2) {
        const __m512 d = two_scales(h2f(x[i].d) * h2f(y[i].d), h2f(x[i + 1].d) * h2f(y[i + 1].d));
        const __m512i qx = load_2x32(x[i].qs, x[i + 1].qs), qy = load_2x32(y[i].qs, y[i + 1].qs);
        acc = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(dot_ss8_512(qx, qy)), acc);
    }
    float sum = _mm512_reduce_add_ps(acc);
    if (i < nb) sum += dot_q8_0_q8_0_avx2(QK8_0, &x[i], &y[i]);
    return sum;
}

// 16 bytes of nibble pairs -> 32 bytes, low nibbles then high nibbles
static inline __m256i nibbles_32(const uint8_t *p) {
    const __m128i t = _mm_loadu_si128((const __m128i *)p);
    const __m256i b = _mm256_inserti128_si256(_mm256_castsi128_si256(t), _mm_srli_epi16(t, 4), 1);
    return _mm256_and_si256(b, _mm256_set1_epi8(0x0F));
}

float dot_q4_0_q8_0_avx512(int64_t n, const void *w, const void *xq) {
    const block_q4_0 *x = w;
    const block_q8_0 *y = xq;
    const int64_t nb = n / QK8_0;
    __m512 acc = _mm512_setzero_ps();
    int64_t i = 0;
    for (; i + 2 <= nb; i += 2) {
        const __m512 d = two_scales(h2f(x[i].d) * h2f(y[i].d), h2f(x[i + 1].d) * h2f(y[i + 1].d));
        const __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(nibbles_32(x[i].qs)),
                                             nibbles_32(x[i + 1].qs), 1);
        const __m512i qx = _mm512_sub_epi8(q, _mm512_set1_epi8(8));
        const __m512i qy = load_2x32(y[i].qs, y[i + 1].qs);
        acc = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(dot_ss8_512(qx, qy)), acc);
    }
    float sum = _mm512_reduce_add_ps(acc);
    if (i < nb) sum += dot_q4_0_q8_0_avx2(QK4_0, &x[i], &y[i]);
    return sum;
}
