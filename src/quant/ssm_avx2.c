// ssm_avx2.c — the SSM conv token and the Mamba-2 scan row (ssm_kernels.c) in AVX2. The scan: the twin's 64 lanes are eight
// vectors of 8 (its 16-lane vector j is the pair 2j, 2j + 1), reduced in the twin's order.
#include <immintrin.h>

#include "quant/quant_impl.h"

float ssm_scan_row_avx2(float *s, const float *B, const float *C, int ds, float dA, float x_dt) {
    const int np = ds & ~63;
    const __m256 vdA = _mm256_set1_ps(dA), vx = _mm256_set1_ps(x_dt);
    // Eight named accumulators (an array of them is kept on the stack by the compiler, which puts
    // a store and a reload in every step's chain).
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
#define SCAN_STEP(acc, o)                                                                                        \
    do {                                                                                                         \
        const __m256 st = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(s + (o)), vdA), _mm256_mul_ps(_mm256_loadu_ps(B + (o)), vx)); \
        acc = _mm256_fmadd_ps(st, _mm256_loadu_ps(C + (o)), acc);                                                \
        _mm256_storeu_ps(s + (o), st);                                                                           \
    } while (0)
    for (int i = 0; i < np; i += 64) {
        SCAN_STEP(a0, i);
        SCAN_STEP(a1, i + 8);
        SCAN_STEP(a2, i + 16);
        SCAN_STEP(a3, i + 24);
        SCAN_STEP(a4, i + 32);
        SCAN_STEP(a5, i + 40);
        SCAN_STEP(a6, i + 48);
        SCAN_STEP(a7, i + 56);
    }
#undef SCAN_STEP
    // 16-lane vectors: v0 += v2, v1 += v3, v0 += v1; then v0's halves of 8.
    __m256 lo = _mm256_add_ps(_mm256_add_ps(a0, a4), _mm256_add_ps(a2, a6));
    __m256 hi = _mm256_add_ps(_mm256_add_ps(a1, a5), _mm256_add_ps(a3, a7));
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

// Eight channels per vector, taps in order, each product and sum rounded as the twin's.
void ssm_conv_token_avx2(float *out, const float *const *tap, const float *w, const float *bias, int Kc, int n) {
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (int i = 0; i < Kc; i++)
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_loadu_ps(tap[i] + k), _mm256_loadu_ps(w + (size_t)i * n + k)));
        _mm256_storeu_ps(out + k, bias ? _mm256_add_ps(acc, _mm256_loadu_ps(bias + k)) : acc);
    }
    for (; k < n; k++) {
        float acc = 0;
        for (int i = 0; i < Kc; i++) acc += tap[i][k] * w[(size_t)i * n + k];
        out[k] = bias ? acc + bias[k] : acc;
    }
}
