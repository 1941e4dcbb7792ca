// quantize.c — f32 rows into the GGUF block formats, as ggml's reference quantizers write them.
//
// `frink quantize` must write the same bytes as llama.cpp's llama_model_quantize, so every
// function here repeats the reference's arithmetic in the reference's order: the same
// search over candidate scales, the same float expressions (no FMA: the Makefile builds with
// -ffp-contract=off), the same rounding (nearest_int's 1.5 * 2^23 trick, roundf, truncating
// casts). Where an expression looks odd (a cast to int8_t before a clamp, a weight of
// av_x + |x|) it is because the reference's is, and the files it writes depend on it.
// Without an importance matrix every one of these formats quantizes each block on its own,
// so a run split by rows across threads gives the same bytes as one thread.
#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "quant/quant.h"
#include "quant/quantize.h"

#define QZ_MAX(a, b) ((a) > (b) ? (a) : (b))
#define QZ_MIN(a, b) ((a) < (b) ? (a) : (b))
// Below this a group counts as all zero (the reference's GROUP_MAX_EPS).
#define QZ_GROUP_EPS 1e-15f

// Round to nearest (ties to even) for |x| < 2^22: adding 1.5 * 2^23 leaves the integer in the
// mantissa's low bits.
static inline int qz_nearest_int(float x) {
    float v = x + 12582912.f;
    int i;
    memcpy(&i, &v, sizeof i);
    return (i & 0x007fffff) - 0x00400000;
}

// ---- scale searches ----------------------------------------------------------------------------

// Symmetric levels in [-nmax, nmax) around the extreme value, then a search of 18 nearby
// inverse scales for the best weighted least-squares fit; weights x^2 (rmse_type 1) unless qw.
// L gets levels + nmax; returns the scale.
static float qz_make_qx(int n, int nmax, const float *x, int8_t *L, int rmse_type, const float *qw) {
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        float ax = fabsf(x[i]);
        if (ax > amax) { amax = ax; max = x[i]; }
    }
    if (amax < QZ_GROUP_EPS) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    float iscale = -nmax / max;
    if (rmse_type == 0) {
        for (int i = 0; i < n; ++i) {
            int l = qz_nearest_int(iscale * x[i]);
            L[i] = (int8_t)(nmax + QZ_MAX(-nmax, QZ_MIN(nmax - 1, l)));
        }
        return 1 / iscale;
    }
    // (only rmse_type 1 is used by the formats here.) The weight w and w*x of each element are
    // the same float in every pass, so they are computed once: the sums below are the
    // reference's sumlx += w*x*l, suml2 += w*l*l term for term, in its order.
    float w[64], wx[64];
    assert(n <= 64);
    for (int i = 0; i < n; ++i) {
        w[i] = qw ? qw[i] : x[i] * x[i];
        wx[i] = w[i] * x[i];
    }
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        int l = qz_nearest_int(iscale * x[i]);
        l = QZ_MAX(-nmax, QZ_MIN(nmax - 1, l));
        L[i] = (int8_t)(l + nmax);
        sumlx += wx[i] * l;
        suml2 += w[i] * l * l;
    }
    float scale = suml2 ? sumlx / suml2 : 0.0f;
    float best = scale * sumlx;
    for (int is = -9; is <= 9; ++is) {
        if (is == 0) continue;
        iscale = -(nmax + 0.1f * is) / max;
        int ls[64];
        for (int i = 0; i < n; ++i) ls[i] = QZ_MAX(-nmax, QZ_MIN(nmax - 1, qz_nearest_int(iscale * x[i])));
        sumlx = suml2 = 0;
        for (int i = 0; i < n; ++i) {
            sumlx += wx[i] * ls[i];
            suml2 += w[i] * ls[i] * ls[i];
        }
        if (suml2 > 0 && sumlx * sumlx > best * suml2) {
            for (int i = 0; i < n; ++i) L[i] = (int8_t)(nmax + ls[i]);
            scale = sumlx / suml2;
            best = scale * sumlx;
        }
    }
    return scale;
}

// Q3_K's sub-block search: symmetric levels, then up to 5 passes moving single levels while the
// x^2-weighted fit improves. L gets levels + nmax.
static float qz_make_q3(int n, int nmax, const float *x, int8_t *L) {
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        float ax = fabsf(x[i]);
        if (ax > amax) { amax = ax; max = x[i]; }
    }
    if (amax < QZ_GROUP_EPS) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    float iscale = -nmax / max;
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        int l = qz_nearest_int(iscale * x[i]);
        l = QZ_MAX(-nmax, QZ_MIN(nmax - 1, l));
        L[i] = (int8_t)l;
        float w = x[i] * x[i];
        sumlx += w * x[i] * l;
        suml2 += w * l * l;
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            float w = x[i] * x[i];
            float slx = sumlx - w * x[i] * L[i];
            if (slx > 0) {
                float sl2 = suml2 - w * L[i] * L[i];
                int new_l = qz_nearest_int(x[i] * sl2 / slx);
                new_l = QZ_MAX(-nmax, QZ_MIN(nmax - 1, new_l));
                if (new_l != L[i]) {
                    slx += w * x[i] * new_l;
                    sl2 += w * new_l * new_l;
                    if (sl2 > 0 && slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = (int8_t)new_l;
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    for (int i = 0; i < n; ++i) L[i] = (int8_t)(L[i] + nmax);
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

// Asymmetric levels [0, nmax] with a min (<= 0): the plain fit, then nstep+1 inverse scales
// rmin + rdelta*is around nmax/(max-min), each refit by weighted least squares; the best by
// weighted absolute (use_mad) or squared error wins. *the_min gets -min; returns the scale.
static float qz_make_qkx2(int n, int nmax, const float *x, const float *weights, uint8_t *L, float *the_min,
                          uint8_t *Laux, float rmin, float rdelta, int nstep, bool use_mad) {
    float min = x[0], max = x[0];
    float sum_w = weights[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        float w = weights[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > 0) min = 0;
    if (max == min) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        *the_min = -min;
        return 0.f;
    }
    float iscale = nmax / (max - min);
    float scale = 1 / iscale;
    float best_error = 0;
    for (int i = 0; i < n; ++i) {
        int l = qz_nearest_int(iscale * (x[i] - min));
        L[i] = (uint8_t)QZ_MAX(0, QZ_MIN(nmax, l));
        float diff = scale * L[i] + min - x[i];
        diff = use_mad ? fabsf(diff) : diff * diff;
        best_error += weights[i] * diff;
    }
    if (nstep < 1) {
        *the_min = -min;
        return scale;
    }
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * is + nmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; ++i) {
            int l = qz_nearest_int(iscale * (x[i] - min));
            l = QZ_MAX(0, QZ_MIN(nmax, l));
            Laux[i] = (uint8_t)l;
            float w = weights[i];
            sum_l += w * l;
            sum_l2 += w * l * l;
            sum_xl += w * l * x[i];
        }
        float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float cur_error = 0;
            for (int i = 0; i < n; ++i) {
                float diff = this_scale * Laux[i] + this_min - x[i];
                diff = use_mad ? fabsf(diff) : diff * diff;
                cur_error += weights[i] * diff;
            }
            if (cur_error < best_error) {
                for (int i = 0; i < n; ++i) L[i] = Laux[i];
                best_error = cur_error;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *the_min = -min;
    return scale;
}

// ---- 32-element blocks ---------------------------------------------------------------------------

static void qz_q4_0(const float *x, block_q4_0 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK4_0; i++, x += QK4_0) {
        float amax = 0.0f, max = 0.0f;
        for (int j = 0; j < QK4_0; j++) {
            if (amax < fabsf(x[j])) { amax = fabsf(x[j]); max = x[j]; }
        }
        const float d = max / -8;
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp32_to_fp16(d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            // truncation toward zero of x*id + 8.5, as an int8_t, capped at 15
            int8_t a = (int8_t)(x[j] * id + 8.5f), b = (int8_t)(x[QK4_0 / 2 + j] * id + 8.5f);
            uint8_t xi0 = (uint8_t)QZ_MIN(15, a), xi1 = (uint8_t)QZ_MIN(15, b);
            y[i].qs[j] = (uint8_t)(xi0 | (xi1 << 4));
        }
    }
}

static void qz_q4_1(const float *x, block_q4_1 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK4_1; i++, x += QK4_1) {
        float min = FLT_MAX, max = -FLT_MAX;
        for (int j = 0; j < QK4_1; j++) {
            if (x[j] < min) min = x[j];
            if (x[j] > max) max = x[j];
        }
        const float d = (max - min) / ((1 << 4) - 1);
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp32_to_fp16(d);
        y[i].m = fp32_to_fp16(min);
        for (int j = 0; j < QK4_1 / 2; ++j) {
            int8_t a = (int8_t)((x[j] - min) * id + 0.5f), b = (int8_t)((x[QK4_1 / 2 + j] - min) * id + 0.5f);
            uint8_t xi0 = (uint8_t)QZ_MIN(15, a), xi1 = (uint8_t)QZ_MIN(15, b);
            y[i].qs[j] = (uint8_t)(xi0 | (xi1 << 4));
        }
    }
}

static void qz_q5_0(const float *x, block_q5_0 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK5_0; i++, x += QK5_0) {
        float amax = 0.0f, max = 0.0f;
        for (int j = 0; j < QK5_0; j++) {
            if (amax < fabsf(x[j])) { amax = fabsf(x[j]); max = x[j]; }
        }
        const float d = max / -16;
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp32_to_fp16(d);
        uint32_t qh = 0;
        for (int j = 0; j < QK5_0 / 2; ++j) {
            int8_t a = (int8_t)(x[j] * id + 16.5f), b = (int8_t)(x[QK5_0 / 2 + j] * id + 16.5f);
            uint8_t xi0 = (uint8_t)QZ_MIN(31, a), xi1 = (uint8_t)QZ_MIN(31, b);
            y[i].qs[j] = (uint8_t)((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
            qh |= ((xi0 & 0x10u) >> 4) << (j + 0);
            qh |= ((xi1 & 0x10u) >> 4) << (j + QK5_0 / 2);
        }
        memcpy(y[i].qh, &qh, sizeof qh);
    }
}

static void qz_q5_1(const float *x, block_q5_1 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK5_1; i++, x += QK5_1) {
        float min = FLT_MAX, max = -FLT_MAX;
        for (int j = 0; j < QK5_1; j++) {
            if (x[j] < min) min = x[j];
            if (x[j] > max) max = x[j];
        }
        const float d = (max - min) / ((1 << 5) - 1);
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp32_to_fp16(d);
        y[i].m = fp32_to_fp16(min);
        uint32_t qh = 0;
        for (int j = 0; j < QK5_1 / 2; ++j) {
            // no cap here (the reference has none): (x-min)*id <= 31 by construction
            uint8_t xi0 = (uint8_t)((x[j] - min) * id + 0.5f), xi1 = (uint8_t)((x[QK5_1 / 2 + j] - min) * id + 0.5f);
            y[i].qs[j] = (uint8_t)((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
            qh |= ((xi0 & 0x10u) >> 4) << (j + 0);
            qh |= ((xi1 & 0x10u) >> 4) << (j + QK5_1 / 2);
        }
        memcpy(y[i].qh, &qh, sizeof qh);
    }
}

static void qz_q8_0(const float *x, block_q8_0 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK8_0; i++, x += QK8_0) {
        float amax = 0.0f;
        for (int j = 0; j < QK8_0; j++) amax = QZ_MAX(amax, fabsf(x[j]));
        const float d = amax / ((1 << 7) - 1);
        const float id = d ? 1.0f / d : 0.0f;
        y[i].d = fp32_to_fp16(d);
        for (int j = 0; j < QK8_0; ++j) y[i].qs[j] = (int8_t)roundf(x[j] * id);
    }
}

// ---- K-quants (256-element super-blocks) ---------------------------------------------------------

// Q2_K: 16 sub-blocks of 16, each a 2-bit level with a 4-bit scale and a 4-bit min.
static void qz_q2_K(const float *x, block_q2_K *y, int64_t k) {
    uint8_t L[QK_K], Laux[16];
    float weights[16], mins[QK_K / 16], scales[QK_K / 16];
    const float q4scale = 15.f;
    for (int64_t i = 0; i < k / QK_K; i++, x += QK_K) {
        float max_scale = 0, max_min = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            for (int l = 0; l < 16; ++l) weights[l] = fabsf(x[16 * j + l]);
            scales[j] = qz_make_qkx2(16, 3, x + 16 * j, weights, L + 16 * j, &mins[j], Laux, -0.5f, 0.1f, 15, true);
            if (scales[j] > max_scale) max_scale = scales[j];
            if (mins[j] > max_min) max_min = mins[j];
        }
        if (max_scale > 0) {
            float iscale = q4scale / max_scale;
            for (int j = 0; j < QK_K / 16; ++j) y[i].scales[j] = (uint8_t)qz_nearest_int(iscale * scales[j]);
            y[i].d = fp32_to_fp16(max_scale / q4scale);
        } else {
            for (int j = 0; j < QK_K / 16; ++j) y[i].scales[j] = 0;
            y[i].d = fp32_to_fp16(0.f);
        }
        if (max_min > 0) {
            float iscale = q4scale / max_min;
            for (int j = 0; j < QK_K / 16; ++j) y[i].scales[j] |= (uint8_t)(qz_nearest_int(iscale * mins[j]) << 4);
            y[i].dmin = fp32_to_fp16(max_min / q4scale);
        } else {
            y[i].dmin = fp32_to_fp16(0.f);
        }
        for (int j = 0; j < QK_K / 16; ++j) {
            const float d = fp16_to_fp32(y[i].d) * (y[i].scales[j] & 0xF);
            if (!d) continue;
            const float dm = fp16_to_fp32(y[i].dmin) * (y[i].scales[j] >> 4);
            for (int ii = 0; ii < 16; ++ii) {
                int l = qz_nearest_int((x[16 * j + ii] + dm) / d);
                L[16 * j + ii] = (uint8_t)QZ_MAX(0, QZ_MIN(3, l));
            }
        }
        for (int j = 0; j < QK_K; j += 128)
            for (int l = 0; l < 32; ++l)
                y[i].qs[j / 4 + l] =
                    (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    }
}

// Q3_K: 16 sub-blocks of 16, 3-bit levels (low 2 bits in qs, the high bit in hmask) and 6-bit
// signed scales packed as 16 low nibbles + 16 2-bit highs:
//   scales[0..7]   low nibble: sub-block j, high nibble: sub-block j+8
//   scales[8..11]  2 bits of sub-block j at bit 2*(j/4) of byte 8 + j%4
static void qz_q3_K(const float *x, block_q3_K *y, int64_t k) {
    int8_t L[QK_K];
    float scales[QK_K / 16];
    for (int64_t i = 0; i < k / QK_K; i++, x += QK_K) {
        float max_scale = 0, amax = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            scales[j] = qz_make_q3(16, 4, x + 16 * j, L + 16 * j);
            float scale = fabsf(scales[j]);
            if (scale > amax) { amax = scale; max_scale = scales[j]; }
        }
        memset(y[i].scales, 0, 12);
        if (max_scale) {
            float iscale = -32.f / max_scale;
            for (int j = 0; j < QK_K / 16; ++j) {
                int8_t l = (int8_t)qz_nearest_int(iscale * scales[j]);
                l = (int8_t)(QZ_MAX(-32, QZ_MIN(31, l)) + 32);
                if (j < 8) y[i].scales[j] = (uint8_t)(l & 0xF);
                else y[i].scales[j - 8] |= (uint8_t)((l & 0xF) << 4);
                l >>= 4;
                y[i].scales[j % 4 + 8] |= (uint8_t)(l << (2 * (j / 4)));
            }
            y[i].d = fp32_to_fp16(1 / iscale);
        } else {
            y[i].d = fp32_to_fp16(0.f);
        }
        for (int j = 0; j < QK_K / 16; ++j) {
            int8_t sc = (int8_t)(j < 8 ? y[i].scales[j] & 0xF : y[i].scales[j - 8] >> 4);
            sc = (int8_t)((sc | (((y[i].scales[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32);
            float d = fp16_to_fp32(y[i].d) * sc;
            if (!d) continue;
            for (int ii = 0; ii < 16; ++ii) {
                int l = qz_nearest_int(x[16 * j + ii] / d);
                L[16 * j + ii] = (int8_t)(QZ_MAX(-4, QZ_MIN(3, l)) + 4);
            }
        }
        // the high bit of quant j goes to hmask[j % 32], bit j / 32
        memset(y[i].hmask, 0, QK_K / 8);
        int m = 0;
        uint8_t hm = 1;
        for (int j = 0; j < QK_K; ++j) {
            if (L[j] > 3) {
                y[i].hmask[m] |= hm;
                L[j] -= 4;
            }
            if (++m == QK_K / 8) { m = 0; hm <<= 1; }
        }
        for (int j = 0; j < QK_K; j += 128)
            for (int l = 0; l < 32; ++l)
                y[i].qs[j / 4 + l] =
                    (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    }
}

// Q4_K and Q5_K share the 12-byte scale/min packing (k45_scale_min reads it back):
//   j < 4:  scales[j] = ls, scales[j+4] = lm (6 bits each)
//   j >= 4: scales[j+4] = ls low nibble | lm low nibble << 4; the top 2 bits of ls in bits 6-7 of
//           scales[j-4], of lm in bits 6-7 of scales[j]
static void qz_pack_k45_scales(uint8_t *s, int j, uint8_t ls, uint8_t lm) {
    if (j < 4) {
        s[j] = ls;
        s[j + 4] = lm;
    } else {
        s[j + 4] = (uint8_t)((ls & 0xF) | ((lm & 0xF) << 4));
        s[j - 4] |= (uint8_t)((ls >> 4) << 6);
        s[j - 0] |= (uint8_t)((lm >> 4) << 6);
    }
}

// The sub-block fits of Q4_K / Q5_K (nmax 15 or 31), their scales quantized to 6 bits against
// the largest, then every level recomputed against the stored (f16, 6-bit) scale and min.
static void qz_k45_block(const float *x, int nmax, float rmin, int nstep, ggml_half *dd, ggml_half *dmin,
                         uint8_t *sc12, uint8_t L[QK_K]) {
    uint8_t Laux[32];
    float weights[32], mins[QK_K / 32], scales[QK_K / 32];
    float max_scale = 0, max_min = 0;
    for (int j = 0; j < QK_K / 32; ++j) {
        float sum_x2 = 0;
        for (int l = 0; l < 32; ++l) sum_x2 += x[32 * j + l] * x[32 * j + l];
        float av_x = sqrtf(sum_x2 / 32);
        for (int l = 0; l < 32; ++l) weights[l] = av_x + fabsf(x[32 * j + l]);
        scales[j] = qz_make_qkx2(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, rmin, 0.1f, nstep, false);
        if (scales[j] > max_scale) max_scale = scales[j];
        if (mins[j] > max_min) max_min = mins[j];
    }
    float inv_scale = max_scale > 0 ? 63.f / max_scale : 0.f;
    float inv_min = max_min > 0 ? 63.f / max_min : 0.f;
    for (int j = 0; j < QK_K / 32; ++j) {
        uint8_t ls = (uint8_t)qz_nearest_int(inv_scale * scales[j]);
        uint8_t lm = (uint8_t)qz_nearest_int(inv_min * mins[j]);
        qz_pack_k45_scales(sc12, j, QZ_MIN(63, ls), QZ_MIN(63, lm));
    }
    *dd = fp32_to_fp16(max_scale / 63.f);
    *dmin = fp32_to_fp16(max_min / 63.f);
    for (int j = 0; j < QK_K / 32; ++j) {
        uint8_t sc, m;
        k45_scale_min(j, sc12, &sc, &m);
        const float d = fp16_to_fp32(*dd) * sc;
        if (!d) continue;
        const float dm = fp16_to_fp32(*dmin) * m;
        for (int ii = 0; ii < 32; ++ii) {
            int l = qz_nearest_int((x[32 * j + ii] + dm) / d);
            L[32 * j + ii] = (uint8_t)QZ_MAX(0, QZ_MIN(nmax, l));
        }
    }
}

static void qz_q4_K(const float *x, block_q4_K *y, int64_t k) {
    uint8_t L[QK_K];
    for (int64_t i = 0; i < k / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, K_SCALE_SIZE);
        qz_k45_block(x, 15, -1.f, 20, &y[i].d, &y[i].dmin, y[i].scales, L);
        uint8_t *q = y[i].qs;
        for (int j = 0; j < QK_K; j += 64, q += 32)
            for (int l = 0; l < 32; ++l) q[l] = (uint8_t)(L[j + l] | (L[j + l + 32] << 4));
    }
}

static void qz_q5_K(const float *x, block_q5_K *y, int64_t k) {
    uint8_t L[QK_K];
    for (int64_t i = 0; i < k / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, K_SCALE_SIZE);
        qz_k45_block(x, 31, -0.5f, 15, &y[i].d, &y[i].dmin, y[i].scales, L);
        uint8_t *qh = y[i].qh, *ql = y[i].qs;
        memset(qh, 0, QK_K / 8);
        uint8_t m1 = 1, m2 = 2;
        for (int n = 0; n < QK_K; n += 64, ql += 32) {
            for (int j = 0; j < 32; ++j) {
                int l1 = L[n + j], l2 = L[n + j + 32];
                if (l1 > 15) { l1 -= 16; qh[j] |= m1; }
                if (l2 > 15) { l2 -= 16; qh[j] |= m2; }
                ql[j] = (uint8_t)(l1 | (l2 << 4));
            }
            m1 = (uint8_t)(m1 << 2);
            m2 = (uint8_t)(m2 << 2);
        }
    }
}

// Q6_K: 16 sub-blocks of 16, 6-bit levels (low nibble in ql, 2 high bits in qh), 8-bit scales.
static void qz_q6_K_qw(const float *x, block_q6_K *y, int64_t k, const float *qw) {
    int8_t L[QK_K];
    float scales[QK_K / 16];
    for (int64_t i = 0; i < k / QK_K; i++, x += QK_K) {
        float max_scale = 0, max_abs_scale = 0;
        for (int ib = 0; ib < QK_K / 16; ++ib) {
            const float scale = qz_make_qx(16, 32, x + 16 * ib, L + 16 * ib, 1, qw ? qw + QK_K * i + 16 * ib : NULL);
            scales[ib] = scale;
            if (fabsf(scale) > max_abs_scale) { max_abs_scale = fabsf(scale); max_scale = scale; }
        }
        if (max_abs_scale < QZ_GROUP_EPS) {
            memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        float iscale = -128.f / max_scale;
        y[i].d = fp32_to_fp16(1 / iscale);
        for (int ib = 0; ib < QK_K / 16; ++ib) y[i].scales[ib] = (int8_t)QZ_MIN(127, qz_nearest_int(iscale * scales[ib]));
        for (int j = 0; j < QK_K / 16; ++j) {
            float d = fp16_to_fp32(y[i].d) * y[i].scales[j];
            if (!d) continue;
            for (int ii = 0; ii < 16; ++ii) {
                int l = qz_nearest_int(x[16 * j + ii] / d);
                L[16 * j + ii] = (int8_t)(QZ_MAX(-32, QZ_MIN(31, l)) + 32);
            }
        }
        uint8_t *ql = y[i].ql, *qh = y[i].qh;
        for (int j = 0; j < QK_K; j += 128, ql += 64, qh += 32) {
            for (int l = 0; l < 32; ++l) {
                const uint8_t q1 = L[j + l + 0] & 0xF, q2 = L[j + l + 32] & 0xF;
                const uint8_t q3 = L[j + l + 64] & 0xF, q4 = L[j + l + 96] & 0xF;
                ql[l + 0] = (uint8_t)(q1 | (q3 << 4));
                ql[l + 32] = (uint8_t)(q2 | (q4 << 4));
                qh[l] = (uint8_t)((L[j + l] >> 4) | ((L[j + l + 32] >> 4) << 2) | ((L[j + l + 64] >> 4) << 4) |
                                  ((L[j + l + 96] >> 4) << 6));
            }
        }
    }
}


static void qz_q6_K(const float *x, block_q6_K *y, int64_t k) { qz_q6_K_qw(x, y, k, NULL); }

// ---- non-linear 4-bit grids ----------------------------------------------------------------------

// The index of the grid value nearest x (n ascending values; ties to the upper one unless the
// lower is strictly nearer).
static inline int qz_best_index(int n, const int8_t *val, float x) {
    if (x <= val[0]) return 0;
    if (x >= val[n - 1]) return n - 1;
    int ml = 0, mu = n - 1;
    while (mu - ml > 1) {
        int mav = (ml + mu) / 2;
        if (x < val[mav]) mu = mav;
        else ml = mav;
    }
    return x - val[mu - 1] < val[mu] - x ? mu - 1 : mu;
}

// IQ4_NL and IQ4_XS: blocks of 32 on the kvalues_iq4nl grid, each block's scale the best of
// 2*ntry+1 candidates by x^2-weighted least squares. IQ4_XS (super-block of 256) then stores the
// 8 block scales as 6-bit multiples of the super-block's d = -max_scale/32 and re-picks every
// level against the stored scale; IQ4_NL (one block) stores its scale in f16 and re-picks
// against it. The reference's quantize_iq4_nl / quantize_iq4_xs (ntry 7).
static void qz_iq4_block(int super, const float *x, const float *qw, ggml_half *dh, uint8_t *q4, uint16_t *scales_h,
                         uint8_t *scales_l) {
    const int bs = 32, ntry = 7;
    const int8_t *values = kvalues_iq4nl;
    uint8_t L[QK_K];
    float weight[32], scales[QK_K / 32];
    float sigma2 = 0;
    for (int j = 0; j < super; ++j) sigma2 += x[j] * x[j];
    sigma2 *= 2.f / super;
    memset(q4, 0, (size_t)super / 2);
    *dh = fp32_to_fp16(0.f);
    float max_scale = 0, amax_scale = 0;
    for (int ib = 0; ib < super / bs; ++ib) {
        const float *xb = x + ib * bs;
        uint8_t *Lb = L + ib * bs;
        if (qw)
            for (int j = 0; j < bs; ++j) weight[j] = qw[ib * bs + j] * sqrtf(sigma2 + xb[j] * xb[j]);
        else
            for (int j = 0; j < bs; ++j) weight[j] = xb[j] * xb[j];
        float amax = 0, max = 0;
        for (int j = 0; j < bs; ++j) {
            float ax = fabsf(xb[j]);
            if (ax > amax) { amax = ax; max = xb[j]; }
        }
        if (amax < QZ_GROUP_EPS) {
            scales[ib] = 0;
            continue;
        }
        float d = -max / values[0];
        float id = 1 / d;
        float sumqx = 0, sumq2 = 0;
        for (int j = 0; j < bs; ++j) {
            int l = qz_best_index(16, values, id * xb[j]);
            Lb[j] = (uint8_t)l;
            float q = values[l], w = weight[j];
            sumqx += w * q * xb[j];
            sumq2 += w * q * q;
        }
        d = sumq2 > 0 ? sumqx / sumq2 : 0.f;
        float best = d * sumqx;
        for (int itry = -ntry; itry <= ntry; ++itry) {
            id = (itry + values[0]) / max;
            sumqx = sumq2 = 0;
            for (int j = 0; j < bs; ++j) {
                int l = qz_best_index(16, values, id * xb[j]);
                float q = values[l], w = weight[j];
                sumqx += w * q * xb[j];
                sumq2 += w * q * q;
            }
            if (sumq2 > 0 && sumqx * sumqx > best * sumq2) {
                d = sumqx / sumq2;
                best = d * sumqx;
            }
        }
        scales[ib] = d;
        if (fabsf(d) > amax_scale) { amax_scale = fabsf(d); max_scale = d; }
    }
    if (super / bs > 1) {
        // scales_l: 4 low bits per block, two blocks a byte; scales_h: 2 high bits per block
        *scales_h = 0;
        float d = -max_scale / 32;
        *dh = fp32_to_fp16(d);
        float id = d ? 1 / d : 0.f;
        for (int ib = 0; ib < super / bs; ++ib) {
            int l = qz_nearest_int(id * scales[ib]);
            l = QZ_MAX(-32, QZ_MIN(31, l));
            float dl = d * l;
            float idl = dl ? 1 / dl : 0.f;
            for (int j = 0; j < bs; ++j) L[ib * bs + j] = (uint8_t)qz_best_index(16, values, idl * x[ib * bs + j]);
            l += 32;
            uint8_t l_l = (uint8_t)(l & 0xf), l_h = (uint8_t)(l >> 4);
            if (ib % 2 == 0) scales_l[ib / 2] = l_l;
            else scales_l[ib / 2] |= (uint8_t)(l_l << 4);
            *scales_h |= (uint16_t)(l_h << 2 * (ib % 8));
        }
    } else {
        *dh = fp32_to_fp16(scales[0]);
        float id = scales[0] ? 1 / scales[0] : 0;
        for (int j = 0; j < super; ++j) L[j] = (uint8_t)qz_best_index(16, values, id * x[j]);
    }
    for (int i = 0; i < super / 32; ++i)
        for (int j = 0; j < 16; ++j) q4[16 * i + j] = (uint8_t)(L[32 * i + j] | (L[32 * i + 16 + j] << 4));
}

static void qz_iq4_nl_qw(const float *x, block_iq4_nl *y, int64_t k, const float *qw) {
    for (int64_t i = 0; i < k / QK4_NL; i++)
        qz_iq4_block(QK4_NL, x + QK4_NL * i, qw ? qw + QK4_NL * i : NULL, &y[i].d, y[i].qs, NULL, NULL);
}
static void qz_iq4_nl(const float *x, block_iq4_nl *y, int64_t k) { qz_iq4_nl_qw(x, y, k, NULL); }

static void qz_iq4_xs_qw(const float *x, block_iq4_xs *y, int64_t k, const float *qw) {
    for (int64_t i = 0; i < k / QK_K; i++)
        qz_iq4_block(QK_K, x + QK_K * i, qw ? qw + QK_K * i : NULL, &y[i].d, y[i].qs, &y[i].scales_h, y[i].scales_l);
}
static void qz_iq4_xs(const float *x, block_iq4_xs *y, int64_t k) { qz_iq4_xs_qw(x, y, k, NULL); }

// MXFP4: 32 values on the FP4 (E2M1) grid times a power of two e chosen from the block's
// largest magnitude (floor(log2 amax) - 2); each value the nearest grid point (first on ties).
static void qz_mxfp4(const float *x, block_mxfp4 *y, int64_t k) {
    for (int64_t i = 0; i < k / QK_MXFP4; i++, x += QK_MXFP4) {
        float amax = 0.0f;
        for (int j = 0; j < QK_MXFP4; j++)
            if (amax < fabsf(x[j])) amax = fabsf(x[j]);
        const uint8_t e = amax > 0.0f ? (uint8_t)(int)(floorf(log2f(amax)) - 2 + 127) : 0;
        const float d = e8m0_to_fp32_half(e);
        y[i].e = e;
        for (int j = 0; j < QK_MXFP4 / 2; ++j) {
            uint8_t q[2];
            for (int h = 0; h < 2; h++) {
                float v = x[j + h * QK_MXFP4 / 2];
                int best = 0;
                float best_err = fabsf(kvalues_mxfp4[0] * d - v);
                for (int g = 1; g < 16; g++) {
                    float err = fabsf(kvalues_mxfp4[g] * d - v);
                    if (err < best_err) { best = g; best_err = err; }
                }
                q[h] = (uint8_t)best;
            }
            y[i].qs[j] = (uint8_t)(q[0] | (q[1] << 4));
        }
    }
}


// ---- with an importance matrix ------------------------------------------------------------------
// The reference's quantize_*_impl paths, taken when an importance matrix gives each column a
// weight qw (for a row: its n_per_row values). Each row on its own, so still thread-independent.

// As qz_make_qkx2 with the weighted squared error, rmin/rdelta around nmax, and a weight of
// x^2 where none is given (the reference's make_qkx3_quants).
static float qz_make_qkx3(int n, int nmax, const float *x, const float *weights, uint8_t *L, float *the_min,
                          uint8_t *Laux, float rmin, float rdelta, int nstep) {
    float min = x[0], max = x[0];
    float sum_w = weights ? weights[0] : x[0] * x[0];
    float sum_x = sum_w * x[0];
    for (int i = 1; i < n; ++i) {
        if (x[i] < min) min = x[i];
        if (x[i] > max) max = x[i];
        float w = weights ? weights[i] : x[i] * x[i];
        sum_w += w;
        sum_x += w * x[i];
    }
    if (min > 0) min = 0;
    if (max <= min) {
        memset(L, 0, (size_t)n);
        *the_min = -min;
        return 0.f;
    }
    float iscale = nmax / (max - min);
    float scale = 1 / iscale;
    float best_mad = 0;
    for (int i = 0; i < n; ++i) {
        int l = qz_nearest_int(iscale * (x[i] - min));
        L[i] = (uint8_t)QZ_MAX(0, QZ_MIN(nmax, l));
        float diff = scale * L[i] + min - x[i];
        diff = diff * diff;
        float w = weights ? weights[i] : x[i] * x[i];
        best_mad += w * diff;
    }
    if (nstep < 1) {
        *the_min = -min;
        return scale;
    }
    for (int is = 0; is <= nstep; ++is) {
        iscale = (rmin + rdelta * is + nmax) / (max - min);
        float sum_l = 0, sum_l2 = 0, sum_xl = 0;
        for (int i = 0; i < n; ++i) {
            int l = qz_nearest_int(iscale * (x[i] - min));
            l = QZ_MAX(0, QZ_MIN(nmax, l));
            Laux[i] = (uint8_t)l;
            float w = weights ? weights[i] : x[i] * x[i];
            sum_l += w * l;
            sum_l2 += w * l * l;
            sum_xl += w * l * x[i];
        }
        float D = sum_w * sum_l2 - sum_l * sum_l;
        if (D > 0) {
            float this_scale = (sum_w * sum_xl - sum_x * sum_l) / D;
            float this_min = (sum_l2 * sum_x - sum_l * sum_xl) / D;
            if (this_min > 0) {
                this_min = 0;
                this_scale = sum_xl / sum_l2;
            }
            float mad = 0;
            for (int i = 0; i < n; ++i) {
                float diff = this_scale * Laux[i] + this_min - x[i];
                diff = diff * diff;
                float w = weights ? weights[i] : x[i] * x[i];
                mad += w * diff;
            }
            if (mad < best_mad) {
                for (int i = 0; i < n; ++i) L[i] = Laux[i];
                best_mad = mad;
                scale = this_scale;
                min = this_min;
            }
        }
    }
    *the_min = -min;
    return scale;
}

// Non-negative levels [0, nmax] for non-negative x (the sub-block scales of the K-quants):
// 9 inverse scales tried by weighted error, then up to 5 passes moving single levels.
static float qz_make_qp(int n, int nmax, const float *x, uint8_t *L, const float *qw) {
    float max = 0;
    for (int i = 0; i < n; ++i) max = QZ_MAX(max, x[i]);
    if (max < QZ_GROUP_EPS) {
        for (int i = 0; i < n; ++i) L[i] = 0;
        return 0.f;
    }
    float iscale = nmax / max;
    for (int i = 0; i < n; ++i) L[i] = (uint8_t)qz_nearest_int(iscale * x[i]);
    float scale = 1 / iscale;
    float best_mse = 0;
    for (int i = 0; i < n; ++i) {
        float diff = x[i] - scale * L[i];
        best_mse += qw[i] * diff * diff;
    }
    for (int is = -4; is <= 4; ++is) {
        if (is == 0) continue;
        float iscale_is = (0.1f * is + nmax) / max;
        float scale_is = 1 / iscale_is;
        float mse = 0;
        for (int i = 0; i < n; ++i) {
            int l = QZ_MIN(nmax, qz_nearest_int(iscale_is * x[i]));
            float diff = x[i] - scale_is * l;
            mse += qw[i] * diff * diff;
        }
        if (mse < best_mse) {
            best_mse = mse;
            iscale = iscale_is;
        }
    }
    float sumlx = 0, suml2 = 0;
    for (int i = 0; i < n; ++i) {
        int l = QZ_MIN(nmax, qz_nearest_int(iscale * x[i]));
        L[i] = (uint8_t)l;
        sumlx += qw[i] * x[i] * l;
        suml2 += qw[i] * l * l;
    }
    for (int itry = 0; itry < 5; ++itry) {
        int n_changed = 0;
        for (int i = 0; i < n; ++i) {
            float w = qw[i];
            float slx = sumlx - w * x[i] * L[i];
            float sl2 = suml2 - w * L[i] * L[i];
            if (slx > 0 && sl2 > 0) {
                int new_l = QZ_MIN(nmax, qz_nearest_int(x[i] * sl2 / slx));
                if (new_l != L[i]) {
                    slx += w * x[i] * new_l;
                    sl2 += w * new_l * new_l;
                    if (slx * slx * suml2 > sumlx * sumlx * sl2) {
                        L[i] = (uint8_t)new_l;
                        sumlx = slx;
                        suml2 = sl2;
                        ++n_changed;
                    }
                }
            }
        }
        if (!n_changed) break;
    }
    return suml2 > 0.0f ? sumlx / suml2 : 0.0f;
}

static float qz_row_sigma2(const float *x, int64_t n) {
    float sum_x2 = 0;
    for (int64_t j = 0; j < n; ++j) sum_x2 += x[j] * x[j];
    return sum_x2 / n;
}

static void qz_q4_0_w(const float *x, block_q4_0 *y, int64_t n, const float *qw) {
    float weight[QK4_0];
    int8_t L[QK4_0];
    const float sigma2 = qz_row_sigma2(x, n);
    for (int64_t ib = 0; ib < n / QK4_0; ++ib) {
        const float *xb = x + QK4_0 * ib, *q = qw + QK4_0 * ib;
        for (int j = 0; j < QK4_0; ++j) weight[j] = q[j] * sqrtf(sigma2 + xb[j] * xb[j]);
        y[ib].d = fp32_to_fp16(qz_make_qx(QK4_0, 8, xb, L, 1, weight));
        for (int j = 0; j < 16; ++j) y[ib].qs[j] = (uint8_t)(L[j] | (L[j + 16] << 4));
    }
}

static void qz_q4_1_w(const float *x, block_q4_1 *y, int64_t n, const float *qw) {
    float weight[QK4_1], min;
    uint8_t L[QK4_1], Laux[QK4_1];
    const float sigma2 = qz_row_sigma2(x, n);
    for (int64_t ib = 0; ib < n / QK4_1; ++ib) {
        const float *xb = x + QK4_1 * ib, *q = qw + QK4_1 * ib;
        for (int j = 0; j < QK4_1; ++j) weight[j] = q[j] * sqrtf(sigma2 + xb[j] * xb[j]);
        float d = qz_make_qkx3(QK4_1, 15, xb, weight, L, &min, Laux, -0.9f, 0.05f, 36);
        y[ib].d = fp32_to_fp16(d);
        y[ib].m = fp32_to_fp16(-min);
        for (int j = 0; j < 16; ++j) y[ib].qs[j] = (uint8_t)(L[j] | (L[j + 16] << 4));
    }
}

// The 5th bits of a 32-level block into qh (bit j: quant j), the low nibbles into qs.
static void qz_pack5(const uint8_t *L, uint8_t *qs, uint8_t qh4[4]) {
    uint32_t qh = 0;
    for (int j = 0; j < 16; ++j) {
        const uint8_t xi0 = L[j], xi1 = L[j + 16];
        qs[j] = (uint8_t)((xi0 & 0x0F) | ((xi1 & 0x0F) << 4));
        qh |= ((xi0 & 0x10u) >> 4) << (j + 0);
        qh |= ((xi1 & 0x10u) >> 4) << (j + 16);
    }
    memcpy(qh4, &qh, 4);
}

static void qz_q5_0_w(const float *x, block_q5_0 *y, int64_t n, const float *qw) {
    float weight[QK5_0];
    int8_t L[QK5_0];
    const float sigma2 = qz_row_sigma2(x, n);
    for (int64_t ib = 0; ib < n / QK5_0; ++ib) {
        const float *xb = x + QK5_0 * ib, *q = qw + QK5_0 * ib;
        for (int j = 0; j < QK5_0; ++j) weight[j] = q[j] * sqrtf(sigma2 + xb[j] * xb[j]);
        y[ib].d = fp32_to_fp16(qz_make_qx(QK5_0, 16, xb, L, 1, weight));
        qz_pack5((const uint8_t *)L, y[ib].qs, y[ib].qh);
    }
}

static void qz_q5_1_w(const float *x, block_q5_1 *y, int64_t n, const float *qw) {
    float weight[QK5_1], min;
    uint8_t L[QK5_1], Laux[QK5_1];
    const float sigma2 = qz_row_sigma2(x, n);
    for (int64_t ib = 0; ib < n / QK5_1; ++ib) {
        const float *xb = x + QK5_1 * ib, *q = qw + QK5_1 * ib;
        for (int j = 0; j < QK5_1; ++j) weight[j] = q[j] * sqrtf(sigma2 + xb[j] * xb[j]);
        float d = qz_make_qkx3(QK5_1, 31, xb, weight, L, &min, Laux, -0.9f, 0.05f, 36);
        y[ib].d = fp32_to_fp16(d);
        y[ib].m = fp32_to_fp16(-min);
        qz_pack5(L, y[ib].qs, y[ib].qh);
    }
}

static void qz_q2_K_w(const float *x, block_q2_K *y, int64_t n, const float *qw) {
    uint8_t L[QK_K], Laux[16], Ls[QK_K / 16], Lm[QK_K / 16];
    float mins[QK_K / 16], scales[QK_K / 16], sw[QK_K / 16], weight[16];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        memset(sw, 0, sizeof sw);
        float sumx2 = 0;
        for (int j = 0; j < QK_K; ++j) sumx2 += x[j] * x[j];
        float sigma2 = sumx2 / QK_K;
        for (int j = 0; j < QK_K / 16; ++j) {
            const float *q = qw + QK_K * i + 16 * j;
            for (int l = 0; l < 16; ++l) weight[l] = q[l] * sqrtf(sigma2 + x[16 * j + l] * x[16 * j + l]);
            for (int l = 0; l < QK_K / 16; ++l) sw[j] += weight[l];
            scales[j] = qz_make_qkx3(16, 3, x + 16 * j, weight, L + 16 * j, &mins[j], Laux, -0.9f, 0.05f, 36);
        }
        float dm = qz_make_qp(QK_K / 16, 15, scales, Ls, sw);
        float mm = qz_make_qp(QK_K / 16, 15, mins, Lm, sw);
        y[i].d = fp32_to_fp16(dm);
        y[i].dmin = fp32_to_fp16(mm);
        dm = fp16_to_fp32(y[i].d);
        mm = fp16_to_fp32(y[i].dmin);
        for (int j = 0; j < QK_K / 16; ++j) y[i].scales[j] = (uint8_t)(Ls[j] | (Lm[j] << 4));
        for (int j = 0; j < QK_K / 16; ++j) {
            const float d = dm * (y[i].scales[j] & 0xF);
            if (!d) continue;
            const float m = mm * (y[i].scales[j] >> 4);
            for (int ii = 0; ii < 16; ++ii) {
                int l = qz_nearest_int((x[16 * j + ii] + m) / d);
                L[16 * j + ii] = (uint8_t)QZ_MAX(0, QZ_MIN(3, l));
            }
        }
        for (int j = 0; j < QK_K; j += 128)
            for (int l = 0; l < 32; ++l)
                y[i].qs[j / 4 + l] =
                    (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    }
}

static void qz_q3_K_w(const float *x, block_q3_K *y, int64_t n, const float *qw) {
    int8_t L[QK_K], Ls[QK_K / 16];
    float scales[QK_K / 16], weight[16], sw[QK_K / 16];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        float sumx2 = 0;
        for (int j = 0; j < QK_K; ++j) sumx2 += x[j] * x[j];
        float sigma2 = 2 * sumx2 / QK_K;
        for (int j = 0; j < QK_K / 16; ++j) {
            const float *q = qw + QK_K * i + 16 * j;
            for (int l = 0; l < 16; ++l) weight[l] = q[l] * sqrtf(sigma2 + x[16 * j + l] * x[16 * j + l]);
            float sumw = 0;
            for (int l = 0; l < 16; ++l) sumw += weight[l];
            sw[j] = sumw;
            scales[j] = qz_make_qx(16, 4, x + 16 * j, L + 16 * j, 1, weight);
        }
        memset(y[i].scales, 0, 12);
        float d_block = qz_make_qx(QK_K / 16, 32, scales, Ls, 1, sw);
        for (int j = 0; j < QK_K / 16; ++j) {
            int l = Ls[j];
            if (j < 8) y[i].scales[j] = (uint8_t)(l & 0xF);
            else y[i].scales[j - 8] |= (uint8_t)((l & 0xF) << 4);
            l >>= 4;
            y[i].scales[j % 4 + 8] |= (uint8_t)(l << (2 * (j / 4)));
        }
        y[i].d = fp32_to_fp16(d_block);
        for (int j = 0; j < QK_K / 16; ++j) {
            int8_t sc = (int8_t)(j < 8 ? y[i].scales[j] & 0xF : y[i].scales[j - 8] >> 4);
            sc = (int8_t)((sc | (((y[i].scales[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32);
            float d = fp16_to_fp32(y[i].d) * sc;
            if (!d) continue;
            for (int ii = 0; ii < 16; ++ii) {
                int l = qz_nearest_int(x[16 * j + ii] / d);
                L[16 * j + ii] = (int8_t)(QZ_MAX(-4, QZ_MIN(3, l)) + 4);
            }
        }
        memset(y[i].hmask, 0, QK_K / 8);
        int m = 0;
        uint8_t hm = 1;
        for (int j = 0; j < QK_K; ++j) {
            if (L[j] > 3) {
                y[i].hmask[m] |= hm;
                L[j] -= 4;
            }
            if (++m == QK_K / 8) { m = 0; hm <<= 1; }
        }
        for (int j = 0; j < QK_K; j += 128)
            for (int l = 0; l < 32; ++l)
                y[i].qs[j / 4 + l] =
                    (uint8_t)(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
    }
}

// Q4_K / Q5_K with weights: qkx3 fits per sub-block, the 6-bit scales and mins by qz_make_qp.
static void qz_k45_block_w(const float *x, const float *qw, int nmax, ggml_half *dd, ggml_half *dmin, uint8_t *sc12,
                           uint8_t L[QK_K]) {
    uint8_t Laux[32], Ls[QK_K / 32], Lm[QK_K / 32];
    float weights[32], sw[QK_K / 32], mins[QK_K / 32], scales[QK_K / 32];
    float sum_x2 = 0;
    for (int l = 0; l < QK_K; ++l) sum_x2 += x[l] * x[l];
    float sigma2 = 2 * sum_x2 / QK_K;
    for (int j = 0; j < QK_K / 32; ++j) {
        const float *q = qw + 32 * j;
        for (int l = 0; l < 32; ++l) weights[l] = q[l] * sqrtf(sigma2 + x[32 * j + l] * x[32 * j + l]);
        float sumw = 0;
        for (int l = 0; l < 32; ++l) sumw += weights[l];
        sw[j] = sumw;
        scales[j] = qz_make_qkx3(32, nmax, x + 32 * j, weights, L + 32 * j, &mins[j], Laux, -0.9f, 0.05f, 36);
    }
    float d_block = qz_make_qp(QK_K / 32, 63, scales, Ls, sw);
    float m_block = qz_make_qp(QK_K / 32, 63, mins, Lm, sw);
    for (int j = 0; j < QK_K / 32; ++j) qz_pack_k45_scales(sc12, j, QZ_MIN(63, Ls[j]), QZ_MIN(63, Lm[j]));
    *dd = fp32_to_fp16(d_block);
    *dmin = fp32_to_fp16(m_block);
    for (int j = 0; j < QK_K / 32; ++j) {
        uint8_t sc, m;
        k45_scale_min(j, sc12, &sc, &m);
        const float d = fp16_to_fp32(*dd) * sc;
        if (!d) continue;
        const float dm = fp16_to_fp32(*dmin) * m;
        for (int ii = 0; ii < 32; ++ii) {
            int l = qz_nearest_int((x[32 * j + ii] + dm) / d);
            L[32 * j + ii] = (uint8_t)QZ_MAX(0, QZ_MIN(nmax, l));
        }
    }
}

static void qz_q4_K_w(const float *x, block_q4_K *y, int64_t n, const float *qw) {
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, K_SCALE_SIZE);
        qz_k45_block_w(x, qw + QK_K * i, 15, &y[i].d, &y[i].dmin, y[i].scales, L);
        uint8_t *q = y[i].qs;
        for (int j = 0; j < QK_K; j += 64, q += 32)
            for (int l = 0; l < 32; ++l) q[l] = (uint8_t)(L[j + l] | (L[j + l + 32] << 4));
    }
}

static void qz_q5_K_w(const float *x, block_q5_K *y, int64_t n, const float *qw) {
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; i++, x += QK_K) {
        memset(y[i].scales, 0, K_SCALE_SIZE);
        qz_k45_block_w(x, qw + QK_K * i, 31, &y[i].d, &y[i].dmin, y[i].scales, L);
        uint8_t *qh = y[i].qh, *ql = y[i].qs;
        memset(qh, 0, QK_K / 8);
        uint8_t m1 = 1, m2 = 2;
        for (int k = 0; k < QK_K; k += 64, ql += 32) {
            for (int j = 0; j < 32; ++j) {
                int l1 = L[k + j], l2 = L[k + j + 32];
                if (l1 > 15) { l1 -= 16; qh[j] |= m1; }
                if (l2 > 15) { l2 -= 16; qh[j] |= m2; }
                ql[j] = (uint8_t)(l1 | (l2 << 4));
            }
            m1 = (uint8_t)(m1 << 2);
            m2 = (uint8_t)(m2 << 2);
        }
    }
}

// ---- the table -----------------------------------------------------------------------------------

// Each type's quantizer of k values (blocks on their own), and its row quantizer with column
// weights (NULL: the type ignores importance, as Q8_0 and MXFP4 do).
typedef void (*qz_row_fn)(const float *x, void *y, int64_t k);
typedef void (*qz_wrow_fn)(const float *x, void *y, int64_t n_per_row, const float *qw);
static const struct {
    uint32_t type;
    qz_row_fn fn;
    qz_wrow_fn wfn;
} qz_table[] = {
    {GGML_TYPE_Q4_0, (qz_row_fn)qz_q4_0, (qz_wrow_fn)qz_q4_0_w},
    {GGML_TYPE_Q4_1, (qz_row_fn)qz_q4_1, (qz_wrow_fn)qz_q4_1_w},
    {GGML_TYPE_Q5_0, (qz_row_fn)qz_q5_0, (qz_wrow_fn)qz_q5_0_w},
    {GGML_TYPE_Q5_1, (qz_row_fn)qz_q5_1, (qz_wrow_fn)qz_q5_1_w},
    {GGML_TYPE_Q8_0, (qz_row_fn)qz_q8_0, NULL},
    {GGML_TYPE_Q2_K, (qz_row_fn)qz_q2_K, (qz_wrow_fn)qz_q2_K_w},
    {GGML_TYPE_Q3_K, (qz_row_fn)qz_q3_K, (qz_wrow_fn)qz_q3_K_w},
    {GGML_TYPE_Q4_K, (qz_row_fn)qz_q4_K, (qz_wrow_fn)qz_q4_K_w},
    {GGML_TYPE_Q5_K, (qz_row_fn)qz_q5_K, (qz_wrow_fn)qz_q5_K_w},
    {GGML_TYPE_Q6_K, (qz_row_fn)qz_q6_K, (qz_wrow_fn)qz_q6_K_qw},
    {GGML_TYPE_IQ4_NL, (qz_row_fn)qz_iq4_nl, (qz_wrow_fn)qz_iq4_nl_qw},
    {GGML_TYPE_IQ4_XS, (qz_row_fn)qz_iq4_xs, (qz_wrow_fn)qz_iq4_xs_qw},
    {GGML_TYPE_MXFP4, (qz_row_fn)qz_mxfp4, NULL},
};

bool quantize_supported(uint32_t type) {
    if (type == GGML_TYPE_F32 || type == GGML_TYPE_F16 || type == GGML_TYPE_BF16) return true;
    for (size_t i = 0; i < sizeof qz_table / sizeof *qz_table; i++)
        if (qz_table[i].type == type) return true;
    return false;
}

size_t quantize_rows(uint32_t type, const float *src, void *dst, int64_t nrows, int64_t n_per_row, const float *qw) {
    const int64_t n = nrows * n_per_row;
    if (type == GGML_TYPE_F32) {
        memcpy(dst, src, (size_t)n * sizeof(float));
        return (size_t)n * sizeof(float);
    }
    if (type == GGML_TYPE_F16 || type == GGML_TYPE_BF16) {
        uint16_t *h = dst;
        for (int64_t i = 0; i < n; i++) h[i] = type == GGML_TYPE_F16 ? fp32_to_fp16(src[i]) : fp32_to_bf16(src[i]);
        return (size_t)n * 2;
    }
    for (size_t i = 0; i < sizeof qz_table / sizeof *qz_table; i++)
        if (qz_table[i].type == type) {
            size_t row = ggml_row_size(type, n_per_row);
            if (qw && qz_table[i].wfn)
                for (int64_t r = 0; r < nrows; r++)
                    qz_table[i].wfn(src + r * n_per_row, (uint8_t *)dst + (size_t)r * row, n_per_row, qw);
            else qz_table[i].fn(src, dst, n);
            return (size_t)nrows * row;
        }
    return 0;
}
