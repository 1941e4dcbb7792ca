// ssm_avx512.c — the Mamba-2 scan row (ssm_kernels.c) in AVX-512: the 64 lanes are four
// vectors of 16, reduced in the twin's order.
#include <immintrin.h>

#include "quant/quant_impl.h"

float ssm_scan_row_avx512(float *s, const float *B, const float *C, int ds, float dA, float x_dt) {
    const int np = ds & ~63;
    const __m512 vdA = _mm512_set1_ps(dA), vx = _mm512_set1_ps(x_dt);
    // Four named accumulators (an array of them is kept on the stack by the compiler, which puts a
    // store and a reload in every step's chain).
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
#define SCAN_STEP(acc, o)                                                                                        \
    do {                                                                                                         \
        const __m512 st = _mm512_add_ps(_mm512_mul_ps(_mm512_loadu_ps(s + (o)), vdA), _mm512_mul_ps(_mm512_loadu_ps(B + (o)), vx)); \
        acc = _mm512_fmadd_ps(st, _mm512_loadu_ps(C + (o)), acc);                                                \
        _mm512_storeu_ps(s + (o), st);                                                                           \
    } while (0)
    for (int i = 0; i < np; i += 64) {
        SCAN_STEP(a0, i);
        SCAN_STEP(a1, i + 16);
        SCAN_STEP(a2, i + 32);
        SCAN_STEP(a3, i + 48);
    }
#undef SCAN_STEP
    __m512 a = _mm512_add_ps(_mm512_add_ps(a0, a2), _mm512_add_ps(a1, a3));
    __m256 h = _mm256_add_ps(_mm512_castps512_ps256(a), _mm512_extractf32x8_ps(a, 1));
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
