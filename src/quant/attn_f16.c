// attn_f16.c — the F16 vector operations of attention over an F16 KV cache,
// in the reference's order of operations (its CPU flash-attention kernel):
//
//   s   = q . k        4 accumulators of 8 lanes with FMA, pairwise reduction,
//                      the tail (n % 32) added in double
//   acc = f16(v * s + acc)   (one FMA, rounded to F16 per element)
//   acc = f16(acc * s)
//
// Matching the order keeps frink's logits bit-identical to the reference's
// where the weights allow (a last-bit difference here can flip a quantized
// activation's rounding downstream). Scalar twins here; AVX2/F16C versions in
// quant_x86.inc (the ops) and attn_avx2.c (the tile); the kernel set a call names
// (isa) picks between them.
#include <math.h>

#include "quant/quant.h"
#include "quant/quant_impl.h"

float f16_dot_ref(const uint16_t *x, const uint16_t *y, int n) {
    float acc[4][8] = {{0}};
    int np = n & ~31;
    for (int i = 0; i < np; i += 32)
        for (int a = 0; a < 4; a++)
            for (int l = 0; l < 8; l++)
                acc[a][l] = fmaf(fp16_to_fp32(x[i + a * 8 + l]), fp16_to_fp32(y[i + a * 8 + l]), acc[a][l]);
    for (int l = 0; l < 8; l++) {
        acc[0][l] += acc[2][l];
        acc[1][l] += acc[3][l];
    }
    for (int l = 0; l < 8; l++) acc[0][l] += acc[1][l];
    float t0[4];
    for (int l = 0; l < 4; l++) t0[l] = acc[0][l] + acc[0][l + 4];
    double sum = (t0[0] + t0[1]) + (t0[2] + t0[3]);
    for (int i = np; i < n; i++) sum += (double)(fp16_to_fp32(x[i]) * fp16_to_fp32(y[i]));
    return (float)sum;
}

void f16_mad_ref(uint16_t *acc, const uint16_t *v, float s, int n) {
    for (int i = 0; i < n; i++) acc[i] = fp32_to_fp16(fmaf(fp16_to_fp32(v[i]), s, fp16_to_fp32(acc[i])));
}

void f16_scale_ref(uint16_t *acc, float s, int n) {
    for (int i = 0; i < n; i++) acc[i] = fp32_to_fp16(fp16_to_fp32(acc[i]) * s);
}

static bool fast(enum quant_isa_id isa) { return isa >= QUANT_ISA_AVX2; }

void quant_f16_get_ops(enum quant_isa_id isa, struct quant_f16_ops *ops) {
    if (fast(isa)) *ops = (struct quant_f16_ops){f16_dot_avx2, f16_mad_avx2, f16_scale_avx2};
    else *ops = (struct quant_f16_ops){f16_dot_ref, f16_mad_ref, f16_scale_ref};
}

// The tile one state at a time, cells inner: exactly the per-row path of
// attn.c, with the accumulator stored in F16 between updates.
void attn_f16_tile_ref(const struct quant_attn_tile *t) {
    uint16_t acc[QUANT_ATTN_TILE_DIM];
    for (int qi = 0; qi < t->nq; qi++) {
        for (int g = 0; g < t->nh; g++) {
            int st = qi * t->nh + g;
            const uint16_t *q = t->q + (size_t)st * t->d;
            float M = -INFINITY, S = 0;
            for (int i = 0; i < t->dv; i++) acc[i] = 0;
            for (int c = t->lo[qi]; c < t->hi[qi]; c++) {
                float s = f16_dot_ref(t->k + (size_t)c * t->k_stride, q, t->d) * t->scale;
                if (t->softcap != 0.0f) s = t->softcap * tanhf(s);
                float ms = 1.0f, vs = 1.0f;
                if (s > M) {
                    float Mold = M;
                    M = s;
                    ms = quant_expf(Mold - s);
                    f16_scale_ref(acc, ms, t->dv);
                } else {
                    vs = quant_expf(s - M);
                }
                f16_mad_ref(acc, t->v + (size_t)c * t->v_stride, vs, t->dv);
                S = S * ms + vs;
            }
            t->m[st] = M;
            t->l[st] = S;
            for (int i = 0; i < t->dv; i++) t->acc[(size_t)st * t->dv + i] = fp16_to_fp32(acc[i]);
        }
    }
}

void quant_attn_f16_tile(enum quant_isa_id isa, const struct quant_attn_tile *t) {
    if (fast(isa)) attn_f16_tile_avx2(t);
    else attn_f16_tile_ref(t);
}

void quant_silu_mul(enum quant_isa_id isa, float *dst, const float *g, const float *u, int n) {
    if (fast(isa)) quant_silu_mul_avx2(dst, g, u, n);
    else
        for (int i = 0; i < n; i++) dst[i] = u ? quant_silu(g[i]) * u[i] : quant_silu(g[i]);
}
