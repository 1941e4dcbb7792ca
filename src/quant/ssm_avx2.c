// ssm_avx2.c — the Mamba-2 scan row (ssm_kernels.c) in AVX2: the twin's 64 lanes are eight
// vectors of 8 (its 16-lane vector j is the pair 2j, 2j + 1), reduced in the twin's order.
#include <immintrin.h>

#include "quant/quant_impl.h"

float ssm_scan_row_avx2(float *s, const float *B, const float *C, int ds, float dA, float x_dt) {
    const int np = ds & ~63;
    const __m256 vdA = _mm256_set1_ps(dA), vx = _mm256_set1_ps(x_dt);
    __m256 acc[8];
    for (int j = 0; j < 8; j++) acc[j] = _mm256_setzero_ps();
    for (int i = 0; i < np; i += 64)
        for (int j = 0; j < 8; j++) {
            const int o = i + 8 * j;
            __m256 st = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(s + o), vdA), _mm256_mul_ps(_mm256_loadu_ps(B + o), vx));
            acc[j] = _mm256_fmadd_ps(st, _mm256_loadu_ps(C + o), acc[j]);
            _mm256_storeu_ps(s + o, st);
        }
    // 16-lane vectors: v0 += v2, v1 += v3, v0 += v1; then v0's halves of 8.
    __m256 lo = _mm256_add_ps(_mm256_add_ps(acc[0], acc[4]), _mm256_add_ps(acc[2], acc[6]));
    __m256 hi = _mm256_add_ps(_mm256_add_ps(acc[1], acc[5]), _mm256_add_ps(acc[3], acc[7]));
    __m256 h = _mm256_add_ps(lo, hi);
    __m128 q = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));
    q = _mm_add_ps(q, _mm_movehl_ps(q, q));
    float sum = _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, 1)));
    for (int i = np; i < ds; i++) {
        float st = s[i] * dA + B[i] * x_dt;
        sum += st * C[i];
        s[i] = st;
    }
    return sum;
}
