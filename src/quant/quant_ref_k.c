// quant_ref_k.c — scalar reference kernels for the 256-element super-block formats:
// Q2_K..Q6_K, IQ4_XS, TQ1_0, TQ2_0 (all paired with Q8_K activations).
//
// Like quant_ref.c these follow ggml's generic C code operation for operation. The K-quant
// dots of ggml accumulate integer products into 8 int32 "lanes" (lane = element index mod 8)
// and scale each lane by (d * yd) separately, summing the 8 float lanes only at the end; we do
// the same so the float result matches bit for bit.
#include "quant/quant_impl.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

// ---- Q2_K ----------------------------------------------------------------------------------------

void dequant_q2_K_ref(const void *src, float *y, int64_t n) {
    const block_q2_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = fp16_to_fp32(x[i].d), min = fp16_to_fp32(x[i].dmin);
        const uint8_t *q = x[i].qs;
        int is = 0;
        for (int h = 0; h < QK_K; h += 128, q += 32) {
            for (int shift = 0; shift < 8; shift += 2) {
                for (int half = 0; half < 2; half++) {
                    const uint8_t sc = x[i].scales[is++];
                    const float dl = d * (sc & 0xF), ml = min * (sc >> 4);
                    for (int l = 0; l < 16; l++) *y++ = dl * ((q[16 * half + l] >> shift) & 3) - ml;
                }
            }
        }
    }
}

float dot_q2_K_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_q2_K *x = w;
    const block_q8_K *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const uint8_t *q2 = x[i].qs, *sc = x[i].scales;
        const int8_t *q8 = y[i].qs;
        int summs = 0;
        for (int j = 0; j < 16; j++) summs += y[i].bsums[j] * (sc[j] >> 4);
        const float dall = y[i].d * fp16_to_fp32(x[i].d);
        const float dmin = y[i].d * fp16_to_fp32(x[i].dmin);
        int isum = 0, is = 0;
        for (int k = 0; k < QK_K / 128; k++, q2 += 32) {
            for (int shift = 0; shift < 8; shift += 2, q8 += 32) {
                int d = sc[is++] & 0xF, isuml = 0;
                for (int l = 0; l < 16; l++) isuml += q8[l] * ((q2[l] >> shift) & 3);
                isum += d * isuml;
                d = sc[is++] & 0xF;
                isuml = 0;
                for (int l = 16; l < 32; l++) isuml += q8[l] * ((q2[l] >> shift) & 3);
                isum += d * isuml;
            }
        }
        sumf += dall * isum - dmin * summs;
    }
    return sumf;
}

// ---- Q3_K ----------------------------------------------------------------------------------------
//
// The 16 scales are 6-bit, stored as 16 low nibbles + 16 2-bit high parts:
//   scales[0..7]   : low nibble -> scale s (s < 8), high nibble -> scale s+8
//   scales[8..11]  : byte 8 + s%4 holds the high 2 bits of scale s at bit 2*(s/4)
// Unpacked to signed values S = (low4 | high2 << 4) - 32 in [-32, 31].
static inline void q3_K_scales(const uint8_t packed[12], int8_t out[16]) {
    for (int s = 0; s < 16; s++) {
        const int low4 = s < 8 ? packed[s] & 15 : packed[s - 8] >> 4;
        const int high2 = (packed[8 + s % 4] >> (2 * (s / 4))) & 3;
        out[s] = (int8_t)((low4 | high2 << 4) - 32);
    }
}

// Codes in [-4, 3] for the 256 elements of one block, in element order.
static inline void q3_K_codes(const block_q3_K *b, int8_t out[QK_K]) {
    for (int e = 0; e < QK_K; e++) {
        const int h = e / 128, j = (e % 128) / 32, l = e % 32;
        const int q2 = (b->qs[32 * h + l] >> (2 * j)) & 3;
        const int hb = (b->hmask[l] >> (4 * h + j)) & 1;
        out[e] = (int8_t)(q2 - (hb ? 0 : 4));
    }
}

void dequant_q3_K_ref(const void *src, float *y, int64_t n) {
    const block_q3_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d_all = fp16_to_fp32(x[i].d);
        int8_t sc[16], q[QK_K];
        q3_K_scales(x[i].scales, sc);
        q3_K_codes(&x[i], q);
        for (int s = 0; s < 16; s++) {
            const float dl = d_all * sc[s];
            for (int l = 0; l < 16; l++) *y++ = dl * q[16 * s + l];
        }
    }
}

float dot_q3_K_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_q3_K *x = w;
    const block_q8_K *y = xq;
    float sums[8] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t sc[16], q[QK_K];
        q3_K_scales(x[i].scales, sc);
        q3_K_codes(&x[i], q);
        int32_t lane[8] = {0};
        for (int e = 0; e < QK_K; e++) lane[e % 8] += sc[e / 16] * (q[e] * y[i].qs[e]);
        const float d = fp16_to_fp32(x[i].d) * y[i].d;
        for (int l = 0; l < 8; l++) sums[l] += d * lane[l];
    }
    float sumf = 0;
    for (int l = 0; l < 8; l++) sumf += sums[l];
    return sumf;
}

// ---- Q4_K / Q5_K ---------------------------------------------------------------------------------

void dequant_q4_K_ref(const void *src, float *y, int64_t n) {
    const block_q4_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const uint8_t *q = x[i].qs;
        const float d = fp16_to_fp32(x[i].d), min = fp16_to_fp32(x[i].dmin);
        for (int is = 0; is < 8; is += 2, q += 32) {
            uint8_t sc, m;
            k45_scale_min(is, x[i].scales, &sc, &m);
            const float d1 = d * sc, m1 = min * m;
            k45_scale_min(is + 1, x[i].scales, &sc, &m);
            const float d2 = d * sc, m2 = min * m;
            for (int l = 0; l < 32; l++) *y++ = d1 * (q[l] & 0xF) - m1;
            for (int l = 0; l < 32; l++) *y++ = d2 * (q[l] >> 4) - m2;
        }
    }
}

void dequant_q5_K_ref(const void *src, float *y, int64_t n) {
    const block_q5_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const uint8_t *ql = x[i].qs, *qh = x[i].qh;
        const float d = fp16_to_fp32(x[i].d), min = fp16_to_fp32(x[i].dmin);
        uint8_t u1 = 1, u2 = 2;
        for (int is = 0; is < 8; is += 2, ql += 32, u1 <<= 2, u2 <<= 2) {
            uint8_t sc, m;
            k45_scale_min(is, x[i].scales, &sc, &m);
            const float d1 = d * sc, m1 = min * m;
            k45_scale_min(is + 1, x[i].scales, &sc, &m);
            const float d2 = d * sc, m2 = min * m;
            for (int l = 0; l < 32; l++) *y++ = d1 * ((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
            for (int l = 0; l < 32; l++) *y++ = d2 * ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
        }
    }
}

// Shared tail of the Q4_K/Q5_K dots: q[256] holds the unsigned codes.
static inline void k45_accumulate(const uint8_t *q, const uint8_t scales12[12], ggml_half xd,
                                  ggml_half xdmin, const block_q8_K *yb, float sums[8],
                                  float *sumf) {
    uint8_t sc[8], mins[8];
    for (int j = 0; j < 8; j++) k45_scale_min(j, scales12, &sc[j], &mins[j]);
    int sumi = 0;
    for (int j = 0; j < QK_K / 16; j++) sumi += yb->bsums[j] * mins[j / 2];
    int32_t lane[8] = {0};
    for (int e = 0; e < QK_K; e++) lane[e % 8] += sc[e / 32] * (q[e] * yb->qs[e]);
    const float d = fp16_to_fp32(xd) * yb->d;
    for (int l = 0; l < 8; l++) sums[l] += d * lane[l];
    const float dmin = fp16_to_fp32(xdmin) * yb->d;
    *sumf -= dmin * sumi;
}

float dot_q4_K_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_q4_K *x = w;
    const block_q8_K *y = xq;
    float sums[8] = {0}, sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        uint8_t q[QK_K];
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < 32; l++) {
                q[64 * c + l] = x[i].qs[32 * c + l] & 0xF;
                q[64 * c + 32 + l] = x[i].qs[32 * c + l] >> 4;
            }
        k45_accumulate(q, x[i].scales, x[i].d, x[i].dmin, &y[i], sums, &sumf);
    }
    for (int l = 0; l < 8; l++) sumf += sums[l];
    return sumf;
}

float dot_q5_K_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_q5_K *x = w;
    const block_q8_K *y = xq;
    float sums[8] = {0}, sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        uint8_t q[QK_K];
        for (int c = 0; c < 4; c++)
            for (int l = 0; l < 32; l++) {
                const uint8_t b = x[i].qs[32 * c + l], h = x[i].qh[l];
                q[64 * c + l] = (uint8_t)((b & 0xF) + (((h >> (2 * c)) & 1) << 4));
                q[64 * c + 32 + l] = (uint8_t)((b >> 4) + (((h >> (2 * c + 1)) & 1) << 4));
            }
        k45_accumulate(q, x[i].scales, x[i].d, x[i].dmin, &y[i], sums, &sumf);
    }
    for (int l = 0; l < 8; l++) sumf += sums[l];
    return sumf;
}

// ---- Q6_K ----------------------------------------------------------------------------------------
//
// Per 128-element half h (ql: 64 bytes from 64h, qh: 32 bytes from 32h), l = 0..31:
//   element    l : low nibble of ql[l],    qh[l] bits 1..0
//   element 32+l : low nibble of ql[32+l], qh[l] bits 3..2
//   element 64+l : high nibble of ql[l],   qh[l] bits 5..4
//   element 96+l : high nibble of ql[32+l],qh[l] bits 7..6
static inline void q6_K_codes(const block_q6_K *b, int8_t out[QK_K]) {
    for (int h = 0; h < 2; h++) {
        const uint8_t *ql = b->ql + 64 * h, *qh = b->qh + 32 * h;
        int8_t *o = out + 128 * h;
        for (int l = 0; l < 32; l++) {
            o[l + 0] = (int8_t)(((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32);
            o[l + 32] = (int8_t)(((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32);
            o[l + 64] = (int8_t)(((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32);
            o[l + 96] = (int8_t)(((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32);
        }
    }
}

void dequant_q6_K_ref(const void *src, float *y, int64_t n) {
    const block_q6_K *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = fp16_to_fp32(x[i].d);
        int8_t q[QK_K];
        q6_K_codes(&x[i], q);
        // (d * scale) * q, in that order: unlike the other formats this product can round.
        for (int e = 0; e < QK_K; e++) *y++ = d * x[i].scales[e / 16] * q[e];
    }
}

float dot_q6_K_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_q6_K *x = w;
    const block_q8_K *y = xq;
    float sums[8] = {0};
    for (int64_t i = 0; i < n / QK_K; i++) {
        int8_t q[QK_K];
        q6_K_codes(&x[i], q);
        int32_t lane[8] = {0};
        for (int e = 0; e < QK_K; e++) lane[e % 8] += x[i].scales[e / 16] * (q[e] * y[i].qs[e]);
        const float d = fp16_to_fp32(x[i].d) * y[i].d;
        for (int l = 0; l < 8; l++) sums[l] += d * lane[l];
    }
    float sumf = 0;
    for (int l = 0; l < 8; l++) sumf += sums[l];
    return sumf;
}

// ---- IQ4_XS --------------------------------------------------------------------------------------

void dequant_iq4_xs_ref(const void *src, float *y, int64_t n) {
    const block_iq4_xs *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = fp16_to_fp32(x[i].d);
        const uint8_t *qs = x[i].qs;
        for (int ib = 0; ib < QK_K / 32; ib++, y += 32, qs += 16) {
            const float dl = d * (iq4_xs_ls(&x[i], ib) - 32);
            for (int j = 0; j < 16; j++) {
                y[j + 0] = dl * kvalues_iq4nl[qs[j] & 0xf];
                y[j + 16] = dl * kvalues_iq4nl[qs[j] >> 4];
            }
        }
    }
}

float dot_iq4_xs_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_iq4_xs *x = w;
    const block_q8_K *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d4d8 = fp16_to_fp32(x[i].d) * y[i].d;
        const uint8_t *qs = x[i].qs;
        const int8_t *q8 = y[i].qs;
        for (int ib = 0; ib < QK_K / 32; ib++, qs += 16, q8 += 32) {
            const float dl = d4d8 * (iq4_xs_ls(&x[i], ib) - 32);
            int sumi1 = 0, sumi2 = 0;
            for (int j = 0; j < 16; j++) {
                sumi1 += q8[j + 0] * kvalues_iq4nl[qs[j] & 0xf];
                sumi2 += q8[j + 16] * kvalues_iq4nl[qs[j] >> 4];
            }
            sumf += dl * (sumi1 + sumi2);
        }
    }
    return sumf;
}

// ---- TQ1_0 / TQ2_0 -------------------------------------------------------------------------------

// Ternary code (0, 1, 2) of element e of a TQ1_0 block; see the element map in quant.h.
static inline int tq1_trit(const block_tq1_0 *b, int e) {
    static const uint8_t pow3[6] = {1, 3, 9, 27, 81, 243};
    uint8_t byte;
    int t;
    if (e < 160) {
        byte = b->qs[e % 32];
        t = e / 32;
    } else if (e < 240) {
        byte = b->qs[32 + (e - 160) % 16];
        t = (e - 160) / 16;
    } else {
        byte = b->qh[(e - 240) % 4];
        t = (e - 240) / 4;
    }
    const uint8_t q = (uint8_t)(byte * pow3[t]); // wraps mod 256: rotates trit t to the top
    return ((uint16_t)q * 3) >> 8;
}

void dequant_tq1_0_ref(const void *src, float *y, int64_t n) {
    const block_tq1_0 *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int e = 0; e < QK_K; e++) *y++ = (float)(tq1_trit(&x[i], e) - 1) * d;
    }
}

float dot_tq1_0_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_tq1_0 *x = w;
    const block_q8_K *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int sum = 0;
        for (int e = 0; e < QK_K; e++) sum += (tq1_trit(&x[i], e) - 1) * y[i].qs[e];
        sumf += (float)sum * (fp16_to_fp32(x[i].d) * y[i].d);
    }
    return sumf;
}

void dequant_tq2_0_ref(const void *src, float *y, int64_t n) {
    const block_tq2_0 *x = src;
    for (int64_t i = 0; i < n / QK_K; i++) {
        const float d = fp16_to_fp32(x[i].d);
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; l++)
                for (int m = 0; m < 32; m++) *y++ = (float)(((x[i].qs[j + m] >> (2 * l)) & 3) - 1) * d;
    }
}

float dot_tq2_0_q8_K_ref(int64_t n, const void *w, const void *xq) {
    const block_tq2_0 *x = w;
    const block_q8_K *y = xq;
    float sumf = 0;
    for (int64_t i = 0; i < n / QK_K; i++) {
        int sumi = 0;
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; l++)
                for (int m = 0; m < 32; m++)
                    sumi += (((x[i].qs[j + m] >> (2 * l)) & 3) - 1) * y[i].qs[j * 4 + l * 32 + m];
        const float d = y[i].d * fp16_to_fp32(x[i].d);
        sumf += (float)sumi * d;
    }
    return sumf;
}
