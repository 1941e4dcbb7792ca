// gdn_avx2.c — the delta-rule token step of gdn_kernels.c with eight value columns per vector.
// Same operations per column as the scalar loop (separate multiply and add, no FMA), so the
// results are identical to it.
#include <immintrin.h>

#include "quant/quant_impl.h"

// NV vectors (8 NV columns) starting at column j0.
static inline __attribute__((always_inline)) void rule_cols(int NV, float *S, int dk, int dv, int j0, const float *q,
                                                            const float *k, const float *v, __m256 decay,
                                                            __m256 beta, __m256 qs, float *o) {
    __m256 u[8], acc[8];
    for (int c = 0; c < NV; c++) u[c] = acc[c] = _mm256_setzero_ps();
    for (int i = 0; i < dk; i++) {
        float *Si = S + (size_t)i * dv + j0;
        const __m256 ki = _mm256_set1_ps(k[i]);
        _Pragma("GCC unroll 8") for (int c = 0; c < NV; c++) {
            const __m256 s = _mm256_mul_ps(_mm256_loadu_ps(Si + 8 * c), decay);
            _mm256_storeu_ps(Si + 8 * c, s);
            u[c] = _mm256_add_ps(u[c], _mm256_mul_ps(s, ki));
        }
    }
    __m256 delta[8];
    for (int c = 0; c < NV; c++) delta[c] = _mm256_mul_ps(beta, _mm256_sub_ps(_mm256_loadu_ps(v + j0 + 8 * c), u[c]));
    for (int i = 0; i < dk; i++) {
        float *Si = S + (size_t)i * dv + j0;
        const __m256 ki = _mm256_set1_ps(k[i]), qi = _mm256_set1_ps(q[i]);
        _Pragma("GCC unroll 8") for (int c = 0; c < NV; c++) {
            const __m256 s = _mm256_add_ps(_mm256_loadu_ps(Si + 8 * c), _mm256_mul_ps(ki, delta[c]));
            _mm256_storeu_ps(Si + 8 * c, s);
            acc[c] = _mm256_add_ps(acc[c], _mm256_mul_ps(s, qi));
        }
    }
    for (int c = 0; c < NV; c++) _mm256_storeu_ps(o + j0 + 8 * c, _mm256_mul_ps(acc[c], qs));
}

void gdn_rule_token_avx2(float *S, int dk, int dv, const float *q, const float *k, const float *v, float decay,
                         float beta, float qs, float *o) {
    const __m256 vd = _mm256_set1_ps(decay), vb = _mm256_set1_ps(beta), vq = _mm256_set1_ps(qs);
    int j0 = 0;
    for (; j0 + 64 <= dv; j0 += 64) rule_cols(8, S, dk, dv, j0, q, k, v, vd, vb, vq, o);
    for (; j0 < dv; j0 += 8) rule_cols(1, S, dk, dv, j0, q, k, v, vd, vb, vq, o);
}
