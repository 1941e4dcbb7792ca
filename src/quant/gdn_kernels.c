// gdn_kernels.c — one token of the Gated DeltaNet delta rule for one value head.
//
// The state S of a head is stored [dk][dv]: row i holds element i of every value column. Each
// column jv is independent and gets, in order, exactly the reference's scalar sequence:
//   S[i][jv] *= decay                       for i = 0..dk-1, with
//   u += S[i][jv] * k[i]                    (product rounded, then added; sequential in i)
//   delta = beta * (v[jv] - u)
//   S[i][jv] += k[i] * delta;  acc += S[i][jv] * q[i]    for i = 0..dk-1
//   o[jv] = acc * qs
// The AVX2 twin (gdn_avx2.c) runs eight columns per vector with the same operations, so every
// kernel set gives the same bits (test_gdn checks it).
#include "quant/quant_impl.h"

enum { COLS = 64 };

static void rule_token_ref(float *S, int dk, int dv, const float *q, const float *k, const float *v, float decay,
                           float beta, float qs, float *o) {
    for (int j0 = 0; j0 < dv; j0 += COLS) {
        const int nc = dv - j0 < COLS ? dv - j0 : COLS;
        float u[COLS] = {0}, delta[COLS], acc[COLS] = {0};
        for (int i = 0; i < dk; i++) {
            float *Si = S + (size_t)i * dv + j0;
            for (int c = 0; c < nc; c++) {
                Si[c] *= decay;
                u[c] += Si[c] * k[i];
            }
        }
        for (int c = 0; c < nc; c++) delta[c] = beta * (v[j0 + c] - u[c]);
        for (int i = 0; i < dk; i++) {
            float *Si = S + (size_t)i * dv + j0;
            for (int c = 0; c < nc; c++) {
                Si[c] += k[i] * delta[c];
                acc[c] += Si[c] * q[i];
            }
        }
        for (int c = 0; c < nc; c++) o[j0 + c] = acc[c] * qs;
    }
}

void gdn_rule_token(enum quant_isa_id isa, float *S, int dk, int dv, const float *q, const float *k, const float *v,
                    float decay, float beta, float qs, float *o) {
    if (isa >= QUANT_ISA_AVX2 && dv % 8 == 0) gdn_rule_token_avx2(S, dk, dv, q, k, v, decay, beta, qs, o);
    else rule_token_ref(S, dk, dv, q, k, v, decay, beta, qs, o);
}
