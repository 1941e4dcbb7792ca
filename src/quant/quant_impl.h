// quant_impl.h — kernel signatures shared by quant.c (the type table) and the per-ISA files.
// Not part of the API: only src/quant/*.c and tests/test_quant.c include it.
#ifndef FRINK_QUANT_IMPL_H
#define FRINK_QUANT_IMPL_H

#include "quant/quant.h"

// Dequantize n elements (multiple of the block size).
typedef void (*quant_to_float_fn)(const void *src, float *dst, int64_t n);
// Dot of one weight row (n elements) with one activation row in the paired format.
typedef float (*quant_dot_fn)(int64_t n, const void *w, const void *xq);
// Convert n floats to an activation format.
// Four activations (act_stride bytes apart) against one weight row; out[t] equals the
// one-token kernel's result for activation t exactly.
typedef void (*quant_dot4_fn)(int64_t n, const void *w, const void *xq, size_t act_stride, float out[4]);
typedef void (*quant_from_float_fn)(const float *x, void *xq, int64_t n);
// Four weight rows (row_bytes apart) against one activation; out[r] equals the one-token
// kernel's result for row r exactly.
typedef void (*quant_rows4_fn)(int64_t n, const void *w, size_t row_bytes, const void *xq, float out[4]);

// One row of the weight type table.
struct quant_type_info {
    uint32_t act;                       // activation type id (GGML_TYPE_F32/F16/BF16/Q8_0/Q8_1/Q8_K)
    quant_to_float_fn to_float;         // exact dequantizer
    quant_dot_fn dot[QUANT_ISA_COUNT];  // [SCALAR] always set; others NULL = fall back
    quant_dot4_fn dot4[QUANT_ISA_COUNT]; // four activations per weight row (prefill), each equal
                                         // to dot[] of the same ISA exactly; NULL = none
    quant_rows4_fn rows4[QUANT_ISA_COUNT]; // four weight rows per activation (decode), likewise
};

// The table (indexed by type id) and the activation converters, for tests that pin each ISA
// kernel to its scalar twin. NULL entries mean "not supported".
const struct quant_type_info *quant_type_info(uint32_t type);
quant_from_float_fn quant_act_kernel(uint32_t act_type, enum quant_isa_id isa);

// ---- panel kernels (panel_x86.inc as panel_avx2.c, panel_avx512.c): products on 8-row panels ----
// Every output equals the one-token kernel of the same type and ISA bit for bit.
struct quant_panel {
    size_t (*panel_bytes)(int64_t n); // one 8-row panel of rows n long
    void (*pack)(const uint8_t *W, size_t row_bytes, int64_t n, void *panel); // rows W .. W+7*row_bytes
    size_t (*prep_bytes)(int64_t n);  // one token's activation extras
    void (*prep)(const void *xq, int64_t n, void *prep);
    // nt tokens (activations xs bytes apart, extras es bytes apart) -> out[8 t + row]
    void (*run)(const void *panel, const void *xq, size_t xs, const void *prep, size_t es, int nt, int64_t n,
                float *out);
    // packed layouts only, optional: for prefill, widen 8 packed rows into the panel of `panel`
    void (*to_panel)(const void *packed, int64_t n, void *panel_out);
    const struct quant_panel *panel;
};
const struct quant_panel *quant_panel_avx2(uint32_t type);    // NULL: no panel kernel
const struct quant_panel *quant_panel_avx512(uint32_t type);
const struct quant_panel *quant_packed_avx2(uint32_t type);   // layouts stored at load (quant_pack)
const struct quant_panel *quant_packed_avx512(uint32_t type);
// Tests only: caps quant_active_isa() at `isa` (or lifts the cap with QUANT_ISA_COUNT).
void quant_cap_isa(enum quant_isa_id isa);

// ---- Gated DeltaNet token step (gdn_kernels.c, gdn_avx2.c) ----
void gdn_rule_token_avx2(float *S, int dk, int dv, const float *q, const float *k, const float *v, float decay,
                         float beta, float qs, float *o);
float ssm_scan_row_avx2(float *s, const float *B, const float *C, int ds, float dA, float x_dt);
void ssm_conv_token_avx2(float *out, const float *const *tap, const float *w, const float *bias, int Kc, int n);
float ssm_scan_row_avx512(float *s, const float *B, const float *C, int ds, float dA, float x_dt);

// ---- attention F16 vector ops (attn_f16.c; AVX2 twins in quant_x86.inc) ----
float f16_dot_ref(const uint16_t *x, const uint16_t *y, int n);
void f16_mad_ref(uint16_t *acc, const uint16_t *v, float s, int n);
void f16_scale_ref(uint16_t *acc, float s, int n);
float f16_dot_avx2(const uint16_t *x, const uint16_t *y, int n);
void f16_mad_avx2(uint16_t *acc, const uint16_t *v, float s, int n);
void f16_scale_avx2(uint16_t *acc, float s, int n);
// the attention tile (attn_f16.c: per state, cells inner; attn_avx2.c: cells outer, K/V rows
// converted once per tile, specialised for head dims 64, 128 and 256)
void attn_f16_tile_ref(const struct quant_attn_tile *t);
void attn_f16_tile_avx2(const struct quant_attn_tile *t);
// y[i] = quant_expf(x[i]), eight at a time (attn_avx2.c; the tile kernel's e^x).
void quant_expf_avx2(float *y, const float *x, int n);
// dst[i] = quant_silu(g[i]) * u[i] (u NULL: no product), eight at a time (attn_avx2.c).
void quant_silu_mul_avx2(float *dst, const float *g, const float *u, int n);

// ---- scalar reference kernels (quant_ref.c, quant_ref_k.c) ----
#define QUANT_DECL_REF(t, a)                                             \
    void dequant_##t##_ref(const void *src, float *dst, int64_t n);      \
    float dot_##t##_##a##_ref(int64_t n, const void *w, const void *xq);
QUANT_DECL_REF(f32, f32)
QUANT_DECL_REF(f16, f16)
QUANT_DECL_REF(bf16, bf16)
QUANT_DECL_REF(q8_0, q8_0)
QUANT_DECL_REF(q4_0, q8_0)
QUANT_DECL_REF(q4_1, q8_1)
QUANT_DECL_REF(q5_0, q8_0)
QUANT_DECL_REF(q5_1, q8_1)
QUANT_DECL_REF(iq4_nl, q8_0)
QUANT_DECL_REF(mxfp4, q8_0)
QUANT_DECL_REF(q1_0, q8_0)
QUANT_DECL_REF(q2_0, q8_0)
QUANT_DECL_REF(q2_K, q8_K)
QUANT_DECL_REF(q3_K, q8_K)
QUANT_DECL_REF(q4_K, q8_K)
QUANT_DECL_REF(q5_K, q8_K)
QUANT_DECL_REF(q6_K, q8_K)
QUANT_DECL_REF(iq4_xs, q8_K)
QUANT_DECL_REF(tq1_0, q8_K)
QUANT_DECL_REF(tq2_0, q8_K)
void dequant_q8_K_ref(const void *src, float *dst, int64_t n);

void act_f32_ref(const float *x, void *xq, int64_t n);
void act_f16_ref(const float *x, void *xq, int64_t n);
void act_bf16_ref(const float *x, void *xq, int64_t n);
void act_q8_0_ref(const float *x, void *xq, int64_t n); // x86 variant: id = 127/amax, RNE
void act_q8_1_ref(const float *x, void *xq, int64_t n); // same, plus s
void act_q8_K_ref(const float *x, void *xq, int64_t n); // ggml's quantize_row_q8_K_ref

// ---- x86 kernels: quant_x86.inc, compiled twice (suffix _avx2, and _avx512 = AVX-512 VL +
// VNNI, bit-identical results); only called after a CPU check. The float formats, activation
// converters and attention ops exist only as _avx2.
#define QUANT_DECL_X86_INT(sfx)                                                                   \
    float dot_q8_0_q8_0_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q4_0_q8_0_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q4_1_q8_1_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q5_0_q8_0_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q5_1_q8_1_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_iq4_nl_q8_0_##sfx(int64_t n, const void *w, const void *xq);                        \
    float dot_mxfp4_q8_0_##sfx(int64_t n, const void *w, const void *xq);                         \
    float dot_q1_0_q8_0_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q2_0_q8_0_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q2_K_q8_K_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q3_K_q8_K_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q4_K_q8_K_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q5_K_q8_K_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_q6_K_q8_K_##sfx(int64_t n, const void *w, const void *xq);                          \
    float dot_iq4_xs_q8_K_##sfx(int64_t n, const void *w, const void *xq);                        \
    float dot_tq1_0_q8_K_##sfx(int64_t n, const void *w, const void *xq);                         \
    float dot_tq2_0_q8_K_##sfx(int64_t n, const void *w, const void *xq);                         \
    void dot4_q4_K_q8_K_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_q6_K_q8_K_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_q8_0_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_q1_0_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_q4_0_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_q5_0_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_iq4_nl_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]); \
    void dot4_mxfp4_q8_0_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);  \
    void dot4_q5_K_q8_K_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]);   \
    void dot4_iq4_xs_q8_K_##sfx(int64_t n, const void *w, const void *xq, size_t st, float o[4]); \
    void rows4_q4_K_q8_K_##sfx(int64_t n, const void *w, size_t rb, const void *xq, float o[4]);  \
    void rows4_q6_K_q8_K_##sfx(int64_t n, const void *w, size_t rb, const void *xq, float o[4]);
QUANT_DECL_X86_INT(avx2)
QUANT_DECL_X86_INT(avx512)
float dot_f32_f32_avx2(int64_t n, const void *w, const void *xq);
float dot_f16_f16_avx2(int64_t n, const void *w, const void *xq);
float dot_bf16_bf16_avx2(int64_t n, const void *w, const void *xq);
void dot4_f32_f32_avx2(int64_t n, const void *w, const void *xq, size_t st, float o[4]);
void dot4_f16_f16_avx2(int64_t n, const void *w, const void *xq, size_t st, float o[4]);
void dot4_bf16_bf16_avx2(int64_t n, const void *w, const void *xq, size_t st, float o[4]);
void rows4_f32_f32_avx2(int64_t n, const void *w, size_t rb, const void *xq, float o[4]);
void rows4_f16_f16_avx2(int64_t n, const void *w, size_t rb, const void *xq, float o[4]);
void rows4_bf16_bf16_avx2(int64_t n, const void *w, size_t rb, const void *xq, float o[4]);
void act_f16_avx2(const float *x, void *xq, int64_t n);
void act_q8_0_avx2(const float *x, void *xq, int64_t n);
void act_q8_1_avx2(const float *x, void *xq, int64_t n);
void act_q8_K_avx2(const float *x, void *xq, int64_t n);

#endif
