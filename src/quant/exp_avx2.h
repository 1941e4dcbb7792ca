// exp_avx2.h — quant_expf (quant.h) in AVX2 registers, for the files compiled for AVX2 only:
// the same operations in the same order as the scalar function, so the same bits.
#ifndef FRINK_QUANT_EXP_AVX2_H
#define FRINK_QUANT_EXP_AVX2_H
#include <immintrin.h>

#include "quant/quant.h"

// quant_expf (quant.h) on four doubles: the same operations in the same order, so the same bits.
static inline __attribute__((always_inline)) __m128 exp4(__m128 x) {
    const __m256d xd = _mm256_cvtps_pd(x);
    const __m256d sh = _mm256_set1_pd(QUANT_EXP_SHIFT);
    const __m256d t = _mm256_add_pd(_mm256_mul_pd(xd, _mm256_set1_pd(QUANT_EXP_LOG2E)), sh);
    const __m256d kd = _mm256_sub_pd(t, sh);
    const __m256d r = _mm256_sub_pd(xd, _mm256_mul_pd(kd, _mm256_set1_pd(QUANT_EXP_LN2)));
    __m256d p = _mm256_set1_pd(QUANT_EXP_C8);
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C7));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C6));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C5));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C4));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C3));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(QUANT_EXP_C2));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(1.0));
    p = _mm256_add_pd(_mm256_mul_pd(p, r), _mm256_set1_pd(1.0));
    const __m256i k = _mm256_sub_epi64(_mm256_castpd_si256(t), _mm256_castpd_si256(sh));
    const __m256d s = _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(k, _mm256_set1_epi64x(1023)), 52));
    return _mm256_cvtpd_ps(_mm256_mul_pd(p, s));
}

// Eight of them, x clamped to [-200, 200] as quant_expf does (a NaN is kept).
static inline __attribute__((always_inline)) __m256 exp8(__m256 x) {
    const __m256 lo = _mm256_set1_ps(-200.0f), hi = _mm256_set1_ps(200.0f);
    x = _mm256_blendv_ps(x, lo, _mm256_cmp_ps(x, lo, _CMP_LT_OQ));
    x = _mm256_blendv_ps(x, hi, _mm256_cmp_ps(x, hi, _CMP_GT_OQ));
    return _mm256_set_m128(exp4(_mm256_extractf128_ps(x, 1)), exp4(_mm256_castps256_ps128(x)));
}

#endif
