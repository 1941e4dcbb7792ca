// ssm_kernels.c — one row of the Mamba-2 selective scan for one token, and one token of the SSM
// conv (ssm_conv_token, quant.h).
//
// A row of the state s [ds] (one element of one head's x) is updated and read out as the
// reference's SIMD build of ggml_compute_forward_ssm_scan_f32 does it:
//   s[i] = s[i] * dA + B[i] * x_dt          (two products and a sum, each rounded)
//   lane i % 64 = fma(s[i], C[i], lane)     for i below the last multiple of 64 (4 x 16 lanes)
//   y = the 64 lanes reduced as GGML_F32x16_REDUCE: vector 0 += 2, 1 += 3, 0 += 1, then its
//       16 lanes by halves (8, 4, 2, 1)
//   y += s[i] * C[i]                         for the tail, in order (product rounded, then added)
// The scalar twin below is that sequence written out; the AVX2 and AVX-512 kernels
// (ssm_avx2.c, ssm_avx512.c) run the same lanes in vectors, so every kernel set gives the same
// bits (test_quant pins them together).
#include <math.h>

#include "quant/quant_impl.h"

static float scan_row_ref(float *s, const float *B, const float *C, int ds, float dA, float x_dt) {
    enum { L = 64 };
    float acc[L] = {0};
    const int np = ds & ~(L - 1);
    for (int i = 0; i < np; i += L)
        for (int k = 0; k < L; k++) {
            float st = s[i + k] * dA + B[i + k] * x_dt;
            acc[k] = fmaf(st, C[i + k], acc[k]);
            s[i + k] = st;
        }
    float sum = 0;
    if (np) {
        for (int k = 0; k < 16; k++) {
            acc[k] += acc[32 + k];
            acc[16 + k] += acc[48 + k];
        }
        for (int k = 0; k < 16; k++) acc[k] += acc[16 + k];
        for (int w = 8; w >= 1; w >>= 1)
            for (int k = 0; k < w; k++) acc[k] += acc[k + w];
        sum = acc[0];
    }
    for (int i = np; i < ds; i++) {
        float st = s[i] * dA + B[i] * x_dt;
        sum += st * C[i];
        s[i] = st;
    }
    return sum;
}

ssm_scan_row_fn ssm_scan_row_kernel(enum quant_isa_id isa, int ds) {
    if (ds >= 64 && isa >= QUANT_ISA_AVX512) return ssm_scan_row_avx512;
    if (ds >= 64 && isa >= QUANT_ISA_AVX2) return ssm_scan_row_avx2;
    return scan_row_ref;
}

float ssm_scan_row(enum quant_isa_id isa, float *s, const float *B, const float *C, int ds, float dA, float x_dt) {
    return ssm_scan_row_kernel(isa, ds)(s, B, C, ds, dA, x_dt);
}

static void conv_token_ref(float *out, const float *const *tap, const float *w, const float *bias, int Kc, int n) {
    for (int k = 0; k < n; k++) {
        float acc = 0;
        for (int i = 0; i < Kc; i++) acc += tap[i][k] * w[(size_t)i * n + k];
        out[k] = bias ? acc + bias[k] : acc;
    }
}

void ssm_conv_token(enum quant_isa_id isa, float *out, const float *const *tap, const float *w, const float *bias, int Kc, int n) {
    if (isa >= QUANT_ISA_AVX2) ssm_conv_token_avx2(out, tap, w, bias, Kc, n);
    else conv_token_ref(out, tap, w, bias, Kc, n);
}
