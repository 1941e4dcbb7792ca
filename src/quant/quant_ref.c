// quant_ref.c — scalar reference kernels: float formats, the 32-element block formats,
// Q1_0/Q2_0, and the activation quantizers. K-quants, IQ4_XS and TQ* are in quant_ref_k.c.
//
// These are the oracle every fast kernel is tested against, so they follow ggml's generic C
// code operation by operation (same float products in the same order, same accumulation
// order): with the same inputs they give ggml's `_generic` results bit for bit.
// Integer sums inside a block are exact; only the float ops need care, so FP contraction is
// kept off (GCC does that in ISO C mode already; clang needs the pragma).
#include "quant/quant_impl.h"

#include <assert.h>
#include <math.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

const int8_t kvalues_iq4nl[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                  1,    13,   25,  38,  53,  69,  89,  113};
// E2M1 values doubled (so they are integers); the E8M0 scale is halved to compensate.
const int8_t kvalues_mxfp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// ---- float formats ---------------------------------------------------------------------------
// ggml's scalar vec_dot for floats multiplies in f32 and accumulates in double (ggml_float).

void dequant_f32_ref(const void *src, float *dst, int64_t n) { memcpy(dst, src, (size_t)n * 4); }

float dot_f32_f32_ref(int64_t n, const void *w, const void *xq) {
    const float *a = w, *b = xq;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) sum += (double)(a[i] * b[i]);
    return (float)sum;
}

void dequant_f16_ref(const void *src, float *dst, int64_t n) {
    const ggml_half *s = src;
    for (int64_t i = 0; i < n; i++) dst[i] = fp16_to_fp32(s[i]);
}

float dot_f16_f16_ref(int64_t n, const void *w, const void *xq) {
    const ggml_half *a = w, *b = xq;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) sum += (double)(fp16_to_fp32(a[i]) * fp16_to_fp32(b[i]));
    return (float)sum;
}

void dequant_bf16_ref(const void *src, float *dst, int64_t n) {
    const ggml_bf16 *s = src;
    for (int64_t i = 0; i < n; i++) dst[i] = bf16_to_fp32(s[i]);
}

float dot_bf16_bf16_ref(int64_t n, const void *w, const void *xq) {
    const ggml_bf16 *a = w, *b = xq;
    double sum = 0.0;
    for (int64_t i = 0; i < n; i++) sum += (double)(bf16_to_fp32(a[i]) * bf16_to_fp32(b[i]));
    return (float)sum;
}

// ---- Q8_0 ------------------------------------------------------------------------------------

void dequant_q8_0_ref(const void *src, float *dst, int64_t n) {
    const block_q8_0 *x = src;
    for (int64_t i = 0; i < n / QK8_0; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < QK8_0; j++) dst[i * QK8_0 + j] = x[i].qs[j] * d;
    }
}

float dot_q8_0_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_q8_0 *x = w, *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK8_0; i++) {
        int sumi = 0;
        for (int j = 0; j < QK8_0; j++) sumi += x[i].qs[j] * y[i].qs[j];
        sumf += sumi * (fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d));
    }
    return sumf;
}

// ---- Q4_0 / Q4_1 -------------------------------------------------------------------------------

void dequant_q4_0_ref(const void *src, float *dst, int64_t n) {
    const block_q4_0 *x = src;
    for (int64_t i = 0; i < n / QK4_0; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < QK4_0 / 2; j++) {
            dst[i * QK4_0 + j] = ((x[i].qs[j] & 0x0f) - 8) * d;
            dst[i * QK4_0 + j + 16] = ((x[i].qs[j] >> 4) - 8) * d;
        }
    }
}

float dot_q4_0_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_q4_0 *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK8_0; i++) {
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < 16; j++) {
            sumi0 += ((x[i].qs[j] & 0x0f) - 8) * y[i].qs[j];
            sumi1 += ((x[i].qs[j] >> 4) - 8) * y[i].qs[j + 16];
        }
        // ggml: sumi * dx * dy, left to right
        sumf += (sumi0 + sumi1) * fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d);
    }
    return sumf;
}

void dequant_q4_1_ref(const void *src, float *dst, int64_t n) {
    const block_q4_1 *x = src;
    for (int64_t i = 0; i < n / QK4_1; i++) {
        const float d = fp16_to_fp32(x[i].d), m = fp16_to_fp32(x[i].m);
        for (int j = 0; j < QK4_1 / 2; j++) {
            dst[i * QK4_1 + j] = (x[i].qs[j] & 0x0f) * d + m;
            dst[i * QK4_1 + j + 16] = (x[i].qs[j] >> 4) * d + m;
        }
    }
}

float dot_q4_1_q8_1_ref(int64_t n, const void *w, const void *xq) {
    const block_q4_1 *x = w;
    const block_q8_1 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK8_1; i++) {
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < 16; j++) {
            sumi0 += (x[i].qs[j] & 0x0f) * y[i].qs[j];
            sumi1 += (x[i].qs[j] >> 4) * y[i].qs[j + 16];
        }
        sumf += (fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d)) * (sumi0 + sumi1) +
                fp16_to_fp32(x[i].m) * fp16_to_fp32(y[i].s);
    }
    return sumf;
}

// ---- Q5_0 / Q5_1 -------------------------------------------------------------------------------

static inline uint32_t q5_qh(const uint8_t qh[4]) {
    uint32_t v;
    memcpy(&v, qh, 4);
    return v;
}

void dequant_q5_0_ref(const void *src, float *dst, int64_t n) {
    const block_q5_0 *x = src;
    for (int64_t i = 0; i < n / QK5_0; i++) {
        const float d = fp16_to_fp32(x[i].d);
        const uint32_t qh = q5_qh(x[i].qh);
        for (int j = 0; j < 16; j++) {
            const int x0 = ((x[i].qs[j] & 0x0f) | (((qh >> j) & 1) << 4)) - 16;
            const int x1 = ((x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4)) - 16;
            dst[i * QK5_0 + j] = x0 * d;
            dst[i * QK5_0 + j + 16] = x1 * d;
        }
    }
}

float dot_q5_0_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_q5_0 *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK8_0; i++) {
        const uint32_t qh = q5_qh(x[i].qh);
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < 16; j++) {
            const int x0 = ((x[i].qs[j] & 0x0f) | (((qh >> j) & 1) << 4)) - 16;
            const int x1 = ((x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4)) - 16;
            sumi0 += x0 * y[i].qs[j];
            sumi1 += x1 * y[i].qs[j + 16];
        }
        sumf += (fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d)) * (sumi0 + sumi1);
    }
    return sumf;
}

void dequant_q5_1_ref(const void *src, float *dst, int64_t n) {
    const block_q5_1 *x = src;
    for (int64_t i = 0; i < n / QK5_1; i++) {
        const float d = fp16_to_fp32(x[i].d), m = fp16_to_fp32(x[i].m);
        const uint32_t qh = q5_qh(x[i].qh);
        for (int j = 0; j < 16; j++) {
            const int x0 = (x[i].qs[j] & 0x0f) | (((qh >> j) & 1) << 4);
            const int x1 = (x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4);
            dst[i * QK5_1 + j] = x0 * d + m;
            dst[i * QK5_1 + j + 16] = x1 * d + m;
        }
    }
}

float dot_q5_1_q8_1_ref(int64_t n, const void *w, const void *xq) {
    const block_q5_1 *x = w;
    const block_q8_1 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK8_1; i++) {
        const uint32_t qh = q5_qh(x[i].qh);
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < 16; j++) {
            const int x0 = (x[i].qs[j] & 0x0f) | (((qh >> j) & 1) << 4);
            const int x1 = (x[i].qs[j] >> 4) | (((qh >> (j + 16)) & 1) << 4);
            sumi0 += x0 * y[i].qs[j];
            sumi1 += x1 * y[i].qs[j + 16];
        }
        sumf += (fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d)) * (sumi0 + sumi1) +
                fp16_to_fp32(x[i].m) * fp16_to_fp32(y[i].s);
    }
    return sumf;
}

// ---- IQ4_NL / MXFP4 (table-valued nibbles) -----------------------------------------------------

void dequant_iq4_nl_ref(const void *src, float *dst, int64_t n) {
    const block_iq4_nl *x = src;
    for (int64_t i = 0; i < n / QK4_NL; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < 16; j++) {
            dst[i * QK4_NL + j] = d * kvalues_iq4nl[x[i].qs[j] & 0x0f];
            dst[i * QK4_NL + j + 16] = d * kvalues_iq4nl[x[i].qs[j] >> 4];
        }
    }
}

float dot_iq4_nl_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_iq4_nl *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK4_NL; i++) {
        int sumi1 = 0, sumi2 = 0;
        for (int j = 0; j < 16; j++) {
            sumi1 += y[i].qs[j] * kvalues_iq4nl[x[i].qs[j] & 0x0f];
            sumi2 += y[i].qs[j + 16] * kvalues_iq4nl[x[i].qs[j] >> 4];
        }
        sumf += (fp16_to_fp32(x[i].d) * fp16_to_fp32(y[i].d)) * (sumi1 + sumi2);
    }
    return sumf;
}

void dequant_mxfp4_ref(const void *src, float *dst, int64_t n) {
    const block_mxfp4 *x = src;
    for (int64_t i = 0; i < n / QK_MXFP4; i++) {
        const float d = e8m0_to_fp32_half(x[i].e);
        for (int j = 0; j < 16; j++) {
            dst[i * QK_MXFP4 + j] = kvalues_mxfp4[x[i].qs[j] & 0x0f] * d;
            dst[i * QK_MXFP4 + j + 16] = kvalues_mxfp4[x[i].qs[j] >> 4] * d;
        }
    }
}

float dot_mxfp4_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_mxfp4 *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_MXFP4; i++) {
        const float d = fp16_to_fp32(y[i].d) * e8m0_to_fp32_half(x[i].e);
        int sumi1 = 0, sumi2 = 0;
        for (int j = 0; j < 16; j++) {
            sumi1 += y[i].qs[j] * kvalues_mxfp4[x[i].qs[j] & 0x0f];
            sumi2 += y[i].qs[j + 16] * kvalues_mxfp4[x[i].qs[j] >> 4];
        }
        sumf += d * (sumi1 + sumi2);
    }
    return sumf;
}

// ---- Q1_0 / Q2_0 (one weight block spans 4 / 2 Q8_0 activation blocks) ----------------------

void dequant_q1_0_ref(const void *src, float *dst, int64_t n) {
    const block_q1_0 *x = src;
    for (int64_t i = 0; i < n / QK1_0; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < QK1_0; j++)
            dst[i * QK1_0 + j] = (x[i].qs[j / 8] >> (j % 8)) & 1 ? d : -d;
    }
}

float dot_q1_0_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_q1_0 *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK1_0; i++) {
        float sumi = 0.0f; // per weight block: sum over its 4 activation blocks of dy * isum
        for (int k = 0; k < 4; k++) {
            const block_q8_0 *yb = &y[i * 4 + k];
            int isum = 0;
            for (int j = 0; j < 32; j++) {
                const int e = 32 * k + j;
                isum += (x[i].qs[e / 8] >> (e % 8)) & 1 ? yb->qs[j] : -yb->qs[j];
            }
            sumi += fp16_to_fp32(yb->d) * isum;
        }
        sumf += fp16_to_fp32(x[i].d) * sumi;
    }
    return sumf;
}

void dequant_q2_0_ref(const void *src, float *dst, int64_t n) {
    const block_q2_0 *x = src;
    for (int64_t i = 0; i < n / QK2_0; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < QK2_0; j++) {
            const int q = (x[i].qs[j / 4] >> (2 * (j % 4))) & 3;
            dst[i * QK2_0 + j] = (float)(q - 1) * d;
        }
    }
}

float dot_q2_0_q8_0_ref(int64_t n, const void *w, const void *xq) {
    const block_q2_0 *x = w;
    const block_q8_0 *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK2_0; i++) {
        float sumi = 0.0f;
        for (int k = 0; k < 2; k++) {
            const block_q8_0 *yb = &y[i * 2 + k];
            int isum = 0;
            for (int j = 0; j < 32; j++) {
                const int e = 32 * k + j;
                isum += (((x[i].qs[e / 4] >> (2 * (e % 4))) & 3) - 1) * yb->qs[j];
            }
            sumi += fp16_to_fp32(yb->d) * isum;
        }
        sumf += fp16_to_fp32(x[i].d) * sumi;
    }
    return sumf;
}

// ---- activation converters ---------------------------------------------------------------------

void act_f32_ref(const float *x, void *xq, int64_t n) { memcpy(xq, x, (size_t)n * 4); }

void act_f16_ref(const float *x, void *xq, int64_t n) {
    ggml_half *y = xq;
    for (int64_t i = 0; i < n; i++) y[i] = fp32_to_fp16(x[i]);
}

void act_bf16_ref(const float *x, void *xq, int64_t n) {
    ggml_bf16 *y = xq;
    for (int64_t i = 0; i < n; i++) y[i] = fp32_to_bf16(x[i]);
}

// Q8_0 as ggml's x86 AVX/AVX2 quantize_row_q8_0 computes it (spec §4.2), not the generic one:
// d = amax/127 but the multiplier is 127/amax (can differ from 1/d by an ulp), and the
// rounding is to nearest even (vroundps), not roundf's half-away-from-zero. nearbyintf in the
// default rounding mode is exactly that.
static inline float q8_block_amax(const float *x) {
    float amax = 0.0f;
    for (int j = 0; j < 32; j++) {
        const float a = fabsf(x[j]);
        amax = a > amax ? a : amax; // vmaxps semantics for non-NaN input
    }
    return amax;
}

void act_q8_0_ref(const float *x, void *xq, int64_t n) {
    block_q8_0 *y = xq;
    for (int64_t i = 0; i < n / QK8_0; i++, x += QK8_0) {
        const float amax = q8_block_amax(x);
        const float d = amax / 127.f;
        const float id = amax != 0.0f ? 127.f / amax : 0.0f;
        y[i].d = fp32_to_fp16(d);
        for (int j = 0; j < QK8_0; j++) y[i].qs[j] = (int8_t)nearbyintf(x[j] * id);
    }
}

void act_q8_1_ref(const float *x, void *xq, int64_t n) {
    block_q8_1 *y = xq;
    for (int64_t i = 0; i < n / QK8_1; i++, x += QK8_1) {
        const float amax = q8_block_amax(x);
        const float d = amax / 127.f;
        const float id = amax != 0.0f ? 127.f / amax : 0.0f;
        int sum = 0;
        for (int j = 0; j < QK8_1; j++) {
            y[i].qs[j] = (int8_t)nearbyintf(x[j] * id);
            sum += y[i].qs[j];
        }
        y[i].d = fp32_to_fp16(d);
        y[i].s = fp32_to_fp16(d * (float)sum);
    }
}

// ggml's nearest_int: round to nearest, ties to even, valid for |f| <= 4194303.
static inline int nearest_int(float fval) {
    assert(fabsf(fval) <= 4194303.f);
    const float val = fval + 12582912.f;
    return (int)(quant_f32_bits(val) & 0x007fffff) - 0x00400000;
}

// Q8_K: ggml's quantize_row_q8_K_ref, which x86 uses for activations. The scale comes from the
// signed element of largest magnitude (first one wins), so d is negative when it is positive.
// ggml leaves bsums unwritten for an all-zero block; we write zeros.
void act_q8_K_ref(const float *x, void *xq, int64_t n) {
    block_q8_K *y = xq;
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float max = 0, amax = 0;
        for (int j = 0; j < QK_K; j++) {
            const float ax = fabsf(x[j]);
            if (ax > amax) {
                amax = ax;
                max = x[j];
            }
        }
        if (amax == 0.0f) {
            memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        const float iscale = -127.f / max;
        for (int j = 0; j < QK_K; j++) {
            const int v = nearest_int(iscale * x[j]);
            y[i].qs[j] = (int8_t)(v < 127 ? v : 127);
        }
        for (int j = 0; j < QK_K / 16; j++) {
            int sum = 0;
            for (int k = 0; k < 16; k++) sum += y[i].qs[16 * j + k];
            y[i].bsums[j] = (int16_t)sum;
        }
        y[i].d = 1 / iscale;
    }
}

void dequant_q8_K_ref(const void *src, float *dst, int64_t n) {
    const block_q8_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++)
        for (int j = 0; j < QK_K; j++) dst[i * QK_K + j] = x[i].d * x[i].qs[j];
}
