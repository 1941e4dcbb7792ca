// blocks.h — the per-block math of the CUDA matvecs, one source for the device and the host.
//
// Every function here is FRINK_HD: __host__ __device__ under nvcc, static inline under a C
// compiler, so tests/test_cuda_twins.c runs the very code the kernels run (on the CPU, in CI)
// against the scalar reference dequantizers. The file depends on nothing but <stdint.h>: the
// weight blocks are read as bytes at their GGUF offsets (quant.h has the structs; weights on
// the device are not 4-byte aligned, 34- or 18-byte blocks, so every word is assembled from
// bytes), and half, bf16 and E8M0 are decoded here by bit manipulation.
//
// The activation is quantized ONCE per input, to blocks of 32 (cb_act): a float scale d, the
// exact integer sum s of its codes, and 32 int8 codes, q = rint(x * 127 / amax) (round half to
// even), the same codes as the host's Q8_0 activation (act_q8_0_ref) but a float d. Each weight
// format then exposes, per 32-element piece i of a row (a piece is one activation block):
//
//   cb_<fmt>_sumi(row, i, a)  the integer part, exact: sums of code products (dp4a), with the
//                             format's integer offsets and int scales folded in
//   cb_part(fmt, row, i, a, x) that piece's contribution to the dot, in float
//
// F16 and BF16 rows use float math against the float input x (no activation codes). A row's
// dot, as the device computes it (cb_row_lanes): 32 lanes each sum the pieces i = lane,
// lane + 32, ... in order, then a butterfly of 5 additions; float addition is commutative,
// so lane 0's butterfly result equals the tree below bit for bit. The kernels are built with
// -fmad=false and the host with -ffp-contract=off (the Makefile's flags) so that no product-add
// is fused on either side: the device result equals cb_row_lanes exactly.
#ifndef FRINK_CUDA_BLOCKS_H
#define FRINK_CUDA_BLOCKS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define FRINK_HD static __host__ __device__ __forceinline__
#else
#define FRINK_HD static inline
#endif

// The formats, by their ggml type ids (quant/types.h; test_cuda_twins checks they agree).
enum cb_format {
    CB_F16 = 1,
    CB_Q4_0 = 2,
    CB_Q8_0 = 8,
    CB_Q4_K = 12,
    CB_Q5_K = 13,
    CB_Q6_K = 14,
    CB_BF16 = 30,
    CB_MXFP4 = 39,
    CB_Q1_0 = 41,
};

// Elements and bytes of one weight block; 0 for a format not listed above.
FRINK_HD int cb_block_elems(int fmt) {
    switch (fmt) {
    case CB_F16: case CB_BF16: return 1;
    case CB_Q4_0: case CB_Q8_0: case CB_MXFP4: return 32;
    case CB_Q1_0: return 128;
    case CB_Q4_K: case CB_Q5_K: case CB_Q6_K: return 256;
    default: return 0;
    }
}
FRINK_HD int cb_block_bytes(int fmt) {
    switch (fmt) {
    case CB_F16: case CB_BF16: return 2;
    case CB_Q4_0: return 18;
    case CB_Q8_0: return 34;
    case CB_MXFP4: return 17;
    case CB_Q1_0: return 18;
    case CB_Q4_K: return 144;
    case CB_Q5_K: return 176;
    case CB_Q6_K: return 210;
    default: return 0;
    }
}
// True for the formats whose rows are dotted with the float input instead of cb_act codes.
FRINK_HD int cb_format_is_float(int fmt) { return fmt == CB_F16 || fmt == CB_BF16; }

// One activation block: x[j] ~ d * qs[j]; s = sum of qs (exact), for formats with offsets/mins.
struct cb_act {
    float d;
    int32_t s;
    int8_t qs[32];
};

// ---- scalars ----------------------------------------------------------------------------------

FRINK_HD float cb_bits_f32(uint32_t u) {
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, 4);
    return f;
#endif
}

// Little-endian loads from byte addresses of any alignment.
FRINK_HD uint32_t cb_ld32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
FRINK_HD uint32_t cb_ld16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }

// binary16 -> binary32, exact (as quant.h's fp16_to_fp32).
FRINK_HD float cb_half(uint32_t h) {
    uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return cb_bits_f32(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0));
    if (exp == 0) {
        float v = (float)man * 5.9604644775390625e-8f; // man * 2^-24, exact
        return sign ? -v : v;
    }
    return cb_bits_f32(sign | ((exp + 112) << 23) | (man << 13));
}
FRINK_HD float cb_bf16(uint32_t h) { return cb_bits_f32(h << 16); }
// E8M0 byte -> HALF its value (the MXFP4 values below are doubled), as quant.h's e8m0_to_fp32_half.
FRINK_HD float cb_e8m0_half(uint32_t e) { return cb_bits_f32(e < 2 ? 0x00200000u << e : (e - 1) << 23); }

// Four signed byte products of a and b added to c: __dp4a on the device, its twin on the host.
FRINK_HD int cb_dp4a(int a, int b, int c) {
#ifdef __CUDA_ARCH__
    return __dp4a(a, b, c);
#else
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    for (int k = 0; k < 4; k++) c += (int)(int8_t)(uint8_t)(ua >> 8 * k) * (int)(int8_t)(uint8_t)(ub >> 8 * k);
    return c;
#endif
}

FRINK_HD int cb_act_word(const struct cb_act *a, int k) { return (int)cb_ld32((const uint8_t *)a->qs + 4 * k); }

// ---- the activation ------------------------------------------------------------------------------

// x[32] -> one block. amax as the host's q8_block_amax; id = 127/amax; codes rounded half to
// even (rintf under the default rounding mode, on both sides), so |code| <= 127.
FRINK_HD void cb_act_quantize(const float *x, struct cb_act *a) {
    float amax = 0.0f;
    for (int j = 0; j < 32; j++) {
        float v = fabsf(x[j]);
        amax = v > amax ? v : amax;
    }
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    int32_t s = 0;
    for (int j = 0; j < 32; j++) {
        int q = (int)rintf(x[j] * id);
        a->qs[j] = (int8_t)q;
        s += q;
    }
    a->d = amax / 127.0f;
    a->s = s;
}

// ---- integer parts: piece i (elements 32i..32i+31) of a row against activation block a ----------

// Q8_0: 34-byte blocks | d (f16) | 32 int8 |. sumi = sum w*x.
FRINK_HD int cb_q8_0_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const uint8_t *q = row + 34 * i + 2;
    int s = 0;
    for (int k = 0; k < 8; k++) s = cb_dp4a((int)cb_ld32(q + 4 * k), cb_act_word(a, k), s);
    return s;
}

// Q4_0: 18-byte blocks | d | 16 bytes: lo nibbles = elements 0..15, hi = 16..31 |, w = nib - 8.
// sumi = sum (nib - 8) * x, the offset applied through the activation's exact sum.
FRINK_HD int cb_q4_0_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const uint8_t *q = row + 18 * i + 2;
    int s = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t v = cb_ld32(q + 4 * k);
        s = cb_dp4a((int)(v & 0x0F0F0F0Fu), cb_act_word(a, k), s);
        s = cb_dp4a((int)((v >> 4) & 0x0F0F0F0Fu), cb_act_word(a, k + 4), s);
    }
    return s - 8 * a->s;
}

// The MXFP4 value of a 4-bit code, doubled (E2M1: 0 1 2 3 4 6 8 12, bit 3 the sign), as
// quant.h's kvalues_mxfp4 but computed, so that the device needs no table.
FRINK_HD int cb_mxfp4_value(uint32_t c) {
    int m = (int)(c & 7);
    int v = m < 4 ? m : m < 6 ? 4 + 2 * (m - 4) : 8 + 4 * (m - 6);
    return c & 8 ? -v : v;
}
// The four nibbles at bit `shift` of v's bytes -> a word of their four int8 values.
FRINK_HD int cb_mxfp4_word(uint32_t v, int shift) {
    uint32_t r = 0;
    for (int b = 0; b < 4; b++) r |= (uint32_t)(uint8_t)(int8_t)cb_mxfp4_value((v >> (8 * b + shift)) & 0xF) << 8 * b;
    return (int)r;
}

// MXFP4: 17-byte blocks | e (E8M0) | 16 bytes, nibbles as Q4_0 |. sumi = sum value * x.
FRINK_HD int cb_mxfp4_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const uint8_t *q = row + 17 * i + 1;
    int s = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t v = cb_ld32(q + 4 * k);
        s = cb_dp4a(cb_mxfp4_word(v, 0), cb_act_word(a, k), s);
        s = cb_dp4a(cb_mxfp4_word(v, 4), cb_act_word(a, k + 4), s);
    }
    return s;
}

// Q1_0: 18-byte blocks of 128 | d | 16 bytes of signs, element e = bit e%8 of byte e/8 |, w = bit ?
// d : -d. Piece i is the quarter i%4 of block i/4: its 32 bits are one little-endian word.
// sumi = sum (+-1) * x = 2 * (sum of x where the bit is set) - s.
FRINK_HD int cb_q1_0_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    uint32_t bits = cb_ld32(row + 18 * (i / 4) + 2 + 4 * (i % 4));
    int s = 0;
    for (int k = 0; k < 8; k++) {
        uint32_t m = bits >> 4 * k;
        uint32_t w = (m & 1) | ((m >> 1) & 1) << 8 | ((m >> 2) & 1) << 16 | ((m >> 3) & 1) << 24;
        s = cb_dp4a((int)w, cb_act_word(a, k), s);
    }
    return 2 * s - a->s;
}

// Q4_K/Q5_K (scale, min) of sub-block j from the 12 packed bytes (quant.h draws the layout).
FRINK_HD void cb_k45_scale_min(int j, const uint8_t *q, int *sc, int *m) {
    if (j < 4) {
        *sc = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        *m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

// Q4_K: 144-byte super-blocks of 256 | d | dmin | scales[12] | qs[128] |; piece i is sub-block
// j = i%8 of super-block i/8: bytes qs[32(j/2) ..], low nibbles for even j, high for odd.
// w = (d * sc) * nib - dmin * m. sumi = sum nib * x (unsigned codes; scale and min are float).
FRINK_HD int cb_q4_K_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const int j = i % 8;
    const uint8_t *q = row + 144 * (i / 8) + 16 + 32 * (j / 2);
    const int sh = 4 * (j % 2);
    int s = 0;
    for (int k = 0; k < 8; k++) s = cb_dp4a((int)((cb_ld32(q + 4 * k) >> sh) & 0x0F0F0F0Fu), cb_act_word(a, k), s);
    return s;
}

// Q5_K: 176-byte super-blocks | d | dmin | scales[12] | qh[32] | qs[128] |: Q4_K's nibble plus
// 16 * bit (j) of qh[l] for element l of sub-block j. sumi = sum code * x.
FRINK_HD int cb_q5_K_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const int j = i % 8;
    const uint8_t *b = row + 176 * (i / 8);
    const uint8_t *q = b + 48 + 32 * (j / 2), *qh = b + 16;
    const int sh = 4 * (j % 2);
    int s = 0;
    for (int k = 0; k < 8; k++) {
        uint32_t lo = (cb_ld32(q + 4 * k) >> sh) & 0x0F0F0F0Fu;
        uint32_t hi = ((cb_ld32(qh + 4 * k) >> j) & 0x01010101u) << 4;
        s = cb_dp4a((int)(lo | hi), cb_act_word(a, k), s);
    }
    return s;
}

// Q6_K: 210-byte super-blocks | ql[128] | qh[64] | scales[16] (int8) | d |; code = (low4 |
// high2 << 4) - 32 with, for element 32k + l of half h (k = 0..3, l = 0..31): low4 the nibble
// k/2 of ql[64h + 32(k%2) + l], high2 bits 2k..2k+1 of qh[32h + l]; one scale per 16 elements.
// Piece i is the quarter k = (i%8)%4 of half (i%8)/4 of super-block i/8.
// sumi = sc[2j] * sum_{l<16} code * x + sc[2j+1] * sum_{l>=16} code * x, j = i%8 (|sumi| < 2^24).
FRINK_HD int cb_q6_K_sumi(const uint8_t *row, int i, const struct cb_act *a) {
    const int j = i % 8, h = j / 4, k = j % 4;
    const uint8_t *b = row + 210 * (i / 8);
    const uint8_t *ql = b + 64 * h + 32 * (k % 2), *qh = b + 128 + 32 * h;
    const int8_t *sc = (const int8_t *)(b + 192);
    int half[2] = {0, 0};
    for (int w = 0; w < 8; w++) {
        uint32_t lo = (cb_ld32(ql + 4 * w) >> 4 * (k / 2)) & 0x0F0F0F0Fu;
        uint32_t hi = ((cb_ld32(qh + 4 * w) >> 2 * k) & 0x03030303u) << 4;
        // code - 32 per byte without borrows between bytes: each byte of (u | 0x80) - 0x20 stays
        // >= 0x60, and flipping bit 7 back maps 96 + u to the two's complement of u - 32.
        uint32_t c = (((lo | hi) | 0x80808080u) - 0x20202020u) ^ 0x80808080u;
        half[w / 4] = cb_dp4a((int)c, cb_act_word(a, w), half[w / 4]);
    }
    return sc[2 * j] * half[0] + sc[2 * j + 1] * half[1];
}

// ---- float parts --------------------------------------------------------------------------------

// F16 / BF16: piece i of a row of 2-byte values against x[32i..32i+31], summed in order.
FRINK_HD float cb_f16_part(const uint8_t *row, int i, const float *x) {
    const uint8_t *w = row + 64 * i;
    float s = 0.0f;
    for (int l = 0; l < 32; l++) s += cb_half(cb_ld16(w + 2 * l)) * x[32 * i + l];
    return s;
}
FRINK_HD float cb_bf16_part(const uint8_t *row, int i, const float *x) {
    const uint8_t *w = row + 64 * i;
    float s = 0.0f;
    for (int l = 0; l < 32; l++) s += cb_bf16(cb_ld16(w + 2 * l)) * x[32 * i + l];
    return s;
}

// Piece i's contribution to the dot of a row of format fmt with the input: a = the row's
// activation blocks (a[i] is used), x = the float input (F16/BF16 only).
FRINK_HD float cb_part(int fmt, const uint8_t *row, int i, const struct cb_act *a, const float *x) {
    switch (fmt) {
    case CB_F16: return cb_f16_part(row, i, x);
    case CB_BF16: return cb_bf16_part(row, i, x);
    case CB_Q8_0: return (cb_half(cb_ld16(row + 34 * i)) * a[i].d) * (float)cb_q8_0_sumi(row, i, &a[i]);
    case CB_Q4_0: return (cb_half(cb_ld16(row + 18 * i)) * a[i].d) * (float)cb_q4_0_sumi(row, i, &a[i]);
    case CB_MXFP4: return (cb_e8m0_half(row[17 * i]) * a[i].d) * (float)cb_mxfp4_sumi(row, i, &a[i]);
    case CB_Q1_0: return (cb_half(cb_ld16(row + 18 * (i / 4))) * a[i].d) * (float)cb_q1_0_sumi(row, i, &a[i]);
    case CB_Q4_K:
    case CB_Q5_K: {
        const uint8_t *b = row + (fmt == CB_Q4_K ? 144 : 176) * (i / 8);
        int sc, m;
        cb_k45_scale_min(i % 8, b + 4, &sc, &m);
        int sumi = fmt == CB_Q4_K ? cb_q4_K_sumi(row, i, &a[i]) : cb_q5_K_sumi(row, i, &a[i]);
        float dsc = cb_half(cb_ld16(b)) * (float)sc, dm = cb_half(cb_ld16(b + 2)) * (float)m; // both exact
        return a[i].d * (dsc * (float)sumi - dm * (float)a[i].s);
    }
    case CB_Q6_K: return (cb_half(cb_ld16(row + 210 * (i / 8) + 208)) * a[i].d) * (float)cb_q6_K_sumi(row, i, &a[i]);
    default: return 0.0f;
    }
}

// The dot of one row (n elements, a multiple of 32 and of the block) in the device's order:
// lane l sums pieces l, l+32, ... then the halves are added pairwise (16, 8, 4, 2, 1).
FRINK_HD float cb_row_lanes(int fmt, const uint8_t *row, const struct cb_act *a, const float *x, int n) {
    float acc[32];
    for (int l = 0; l < 32; l++) {
        acc[l] = 0.0f;
        for (int i = l; i < n / 32; i += 32) acc[l] += cb_part(fmt, row, i, a, x);
    }
    for (int off = 16; off; off /= 2)
        for (int l = 0; l < off; l++) acc[l] = acc[l] + acc[l + off];
    return acc[0];
}

#endif
