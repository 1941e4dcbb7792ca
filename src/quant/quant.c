// quant.c — the weight type table, kernel selection, and matvec / matmul drivers.
//
// One row per weight type names its dequantizer, the activation format it pairs with, and its
// dot kernel per ISA. Adding a format = adding its kernels and one row here. The CPU's ISA is
// read once (pthread_once); each call names the kernel set it runs, and only indexes the table.
#include "quant/quant_impl.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define ISA_DOTS(ref, avx2, avx512) {ref, avx2, avx512}
// An integer kernel with both x86 builds (quant_x86.inc built as quant_avx2.c and quant_avx512.c).
#define X86_DOTS(w, a) ISA_DOTS(dot_##w##_##a##_ref, dot_##w##_##a##_avx2, dot_##w##_##a##_avx512)
#define X86_DOT4(w, a) {NULL, dot4_##w##_##a##_avx2, dot4_##w##_##a##_avx512}
#define NO_DOT4 {NULL, NULL, NULL}
#define X86_ROWS4(w, a) {NULL, rows4_##w##_##a##_avx2, rows4_##w##_##a##_avx512}
#define NO_ROWS4 {NULL, NULL, NULL}

static const struct quant_type_info type_table[GGML_TYPE_COUNT] = {
    [GGML_TYPE_F32] = {GGML_TYPE_F32, dequant_f32_ref, ISA_DOTS(dot_f32_f32_ref, dot_f32_f32_avx2, NULL), {NULL, dot4_f32_f32_avx2, NULL}, {NULL, rows4_f32_f32_avx2, NULL}},
    [GGML_TYPE_F16] = {GGML_TYPE_F16, dequant_f16_ref, ISA_DOTS(dot_f16_f16_ref, dot_f16_f16_avx2, NULL), {NULL, dot4_f16_f16_avx2, NULL}, {NULL, rows4_f16_f16_avx2, NULL}},
    [GGML_TYPE_BF16] = {GGML_TYPE_BF16, dequant_bf16_ref, ISA_DOTS(dot_bf16_bf16_ref, dot_bf16_bf16_avx2, NULL), {NULL, dot4_bf16_bf16_avx2, NULL}, {NULL, rows4_bf16_bf16_avx2, NULL}},
    [GGML_TYPE_Q8_0] = {GGML_TYPE_Q8_0, dequant_q8_0_ref, X86_DOTS(q8_0, q8_0), X86_DOT4(q8_0, q8_0), NO_ROWS4},
    [GGML_TYPE_Q4_0] = {GGML_TYPE_Q8_0, dequant_q4_0_ref, X86_DOTS(q4_0, q8_0), X86_DOT4(q4_0, q8_0), NO_ROWS4},
    [GGML_TYPE_Q4_1] = {GGML_TYPE_Q8_1, dequant_q4_1_ref, X86_DOTS(q4_1, q8_1), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_Q5_0] = {GGML_TYPE_Q8_0, dequant_q5_0_ref, X86_DOTS(q5_0, q8_0), X86_DOT4(q5_0, q8_0), NO_ROWS4},
    [GGML_TYPE_Q5_1] = {GGML_TYPE_Q8_1, dequant_q5_1_ref, X86_DOTS(q5_1, q8_1), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_IQ4_NL] = {GGML_TYPE_Q8_0, dequant_iq4_nl_ref, X86_DOTS(iq4_nl, q8_0), X86_DOT4(iq4_nl, q8_0), NO_ROWS4},
    [GGML_TYPE_MXFP4] = {GGML_TYPE_Q8_0, dequant_mxfp4_ref, X86_DOTS(mxfp4, q8_0), X86_DOT4(mxfp4, q8_0), NO_ROWS4},
    [GGML_TYPE_Q1_0] = {GGML_TYPE_Q8_0, dequant_q1_0_ref, X86_DOTS(q1_0, q8_0), X86_DOT4(q1_0, q8_0), NO_ROWS4},
    [GGML_TYPE_Q2_0] = {GGML_TYPE_Q8_0, dequant_q2_0_ref, X86_DOTS(q2_0, q8_0), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_Q2_K] = {GGML_TYPE_Q8_K, dequant_q2_K_ref, X86_DOTS(q2_K, q8_K), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_Q3_K] = {GGML_TYPE_Q8_K, dequant_q3_K_ref, X86_DOTS(q3_K, q8_K), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_Q4_K] = {GGML_TYPE_Q8_K, dequant_q4_K_ref, X86_DOTS(q4_K, q8_K), X86_DOT4(q4_K, q8_K), X86_ROWS4(q4_K, q8_K)},
    [GGML_TYPE_Q5_K] = {GGML_TYPE_Q8_K, dequant_q5_K_ref, X86_DOTS(q5_K, q8_K), X86_DOT4(q5_K, q8_K), NO_ROWS4},
    [GGML_TYPE_Q6_K] = {GGML_TYPE_Q8_K, dequant_q6_K_ref, X86_DOTS(q6_K, q8_K), X86_DOT4(q6_K, q8_K), X86_ROWS4(q6_K, q8_K)},
    [GGML_TYPE_IQ4_XS] = {GGML_TYPE_Q8_K, dequant_iq4_xs_ref, X86_DOTS(iq4_xs, q8_K), X86_DOT4(iq4_xs, q8_K), NO_ROWS4},
    [GGML_TYPE_TQ1_0] = {GGML_TYPE_Q8_K, dequant_tq1_0_ref, X86_DOTS(tq1_0, q8_K), NO_DOT4, NO_ROWS4},
    [GGML_TYPE_TQ2_0] = {GGML_TYPE_Q8_K, dequant_tq2_0_ref, X86_DOTS(tq2_0, q8_K), NO_DOT4, NO_ROWS4},
};

// Activation converters per activation type and ISA. All ISAs produce identical bytes
// (the tests pin that), so switching ISA never changes the activation, only the dot order.
struct act_info {
    quant_from_float_fn from_float[QUANT_ISA_COUNT];
};
static const struct act_info act_table[GGML_TYPE_COUNT] = {
    [GGML_TYPE_F32] = {{act_f32_ref, NULL, NULL}},
    [GGML_TYPE_F16] = {{act_f16_ref, act_f16_avx2, NULL}},
    [GGML_TYPE_BF16] = {{act_bf16_ref, NULL, NULL}},
    [GGML_TYPE_Q8_0] = {{act_q8_0_ref, act_q8_0_avx2, NULL}},
    [GGML_TYPE_Q8_1] = {{act_q8_1_ref, act_q8_1_avx2, NULL}},
    [GGML_TYPE_Q8_K] = {{act_q8_K_ref, act_q8_K_avx2, NULL}},
};

// ---- ISA selection ------------------------------------------------------------------------------

static const char *const isa_names[QUANT_ISA_COUNT] = {"scalar", "avx2", "avx512vnni"};
static enum quant_isa_id cpu_isa = QUANT_ISA_SCALAR;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static atomic_bool use_reference;

static void cpu_detect(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    // F16C is CPUID.1:ECX bit 29 (clang's __builtin_cpu_supports has no name for it).
    unsigned a, b, c = 0, d;
    const bool f16c = __get_cpuid(1, &a, &b, &c, &d) && (c >> 29 & 1);
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c)
        cpu_isa = QUANT_ISA_AVX2;
    if (cpu_isa == QUANT_ISA_AVX2 && __builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vnni"))
        cpu_isa = QUANT_ISA_AVX512;
#endif
    // FRINK_ISA caps the kernel set (to compare the sets on one machine); it never raises it.
    const char *cap = getenv("FRINK_ISA");
    if (cap)
        for (int i = 0; i < QUANT_ISA_COUNT; i++)
            if (!strcmp(cap, isa_names[i]) && i < (int)cpu_isa) cpu_isa = (enum quant_isa_id)i;
}

enum quant_isa_id quant_cpu_isa(void) {
    pthread_once(&cpu_once, cpu_detect);
    return cpu_isa;
}

static _Atomic int isa_cap = QUANT_ISA_COUNT;

void quant_cap_isa(enum quant_isa_id isa) { atomic_store(&isa_cap, (int)isa); }

const char *quant_isa_name(enum quant_isa_id isa) { return isa_names[isa]; }

enum quant_isa_id quant_active_isa(void) {
    if (atomic_load_explicit(&use_reference, memory_order_relaxed)) return QUANT_ISA_SCALAR;
    const enum quant_isa_id cpu = quant_cpu_isa();
    const int cap = atomic_load_explicit(&isa_cap, memory_order_relaxed);
    return (int)cpu < cap ? cpu : (enum quant_isa_id)cap;
}

void quant_set_reference(bool on) { atomic_store(&use_reference, on); }

const char *quant_isa(void) { return isa_names[quant_active_isa()]; }

const struct quant_type_info *quant_type_info(uint32_t type) {
    if (type >= GGML_TYPE_COUNT || !type_table[type].to_float) return NULL;
    return &type_table[type];
}

// The best kernel at or below `isa`: an ISA without its own kernel falls back to the next lower.
// *level is set to the ISA of the kernel returned.
static quant_dot_fn pick_dot(const struct quant_type_info *ti, enum quant_isa_id isa, int *level) {
    for (int i = isa; i >= 0; i--)
        if (ti->dot[i]) {
            *level = i;
            return ti->dot[i];
        }
    return NULL;
}

quant_from_float_fn quant_act_kernel(uint32_t act_type, enum quant_isa_id isa) {
    if (act_type >= GGML_TYPE_COUNT) return NULL;
    for (int i = isa; i >= 0; i--)
        if (act_table[act_type].from_float[i]) return act_table[act_type].from_float[i];
    return NULL;
}

// ---- API ----------------------------------------------------------------------------------------

bool quant_supported(uint32_t type) { return quant_type_info(type) != NULL; }

size_t quant_act_size(uint32_t wt, int64_t n) {
    const struct quant_type_info *ti = quant_type_info(wt);
    assert(ti);
    return ggml_row_size(ti->act, n);
}

void quant_act_from_float(enum quant_isa_id isa, uint32_t wt, const float *x, void *xq, int64_t n) {
    const struct quant_type_info *ti = quant_type_info(wt);
    assert(ti && n % ggml_type_geom(ti->act)->blck == 0);
    quant_act_kernel(ti->act, isa)(x, xq, n);
}

// Rows [r0, r1) against one activation: four rows per call where the type has such a kernel.
static void matvec_rows(const struct quant_type_info *ti, int level, quant_dot_fn dot, const void *W,
                        size_t row_bytes, const void *xq, int64_t n, float *y, int64_t r0, int64_t r1) {
    const quant_rows4_fn rows4 = ti->rows4[level];
    const uint8_t *w = (const uint8_t *)W + (size_t)r0 * row_bytes;
    int64_t r = r0;
    if (rows4)
        for (; r + 4 <= r1; r += 4, w += 4 * row_bytes) rows4(n, w, row_bytes, xq, y + (r - r0));
    for (; r < r1; r++, w += row_bytes) y[r - r0] = dot(n, w, xq);
}

void quant_matvec(enum quant_isa_id isa, uint32_t wt, const void *W, size_t row_bytes, const void *xq, int64_t n,
                  float *y, int64_t r0, int64_t r1) {
    const struct quant_type_info *ti = quant_type_info(wt);
    assert(ti && n % ggml_type_geom(wt)->blck == 0);
    int level = QUANT_ISA_SCALAR;
    const quant_dot_fn dot = pick_dot(ti, isa, &level);
    matvec_rows(ti, level, dot, W, row_bytes, xq, n, y, r0, r1);
}

// Per-thread scratch for panels and activation extras: grows, never shrinks, 64-byte aligned.
// Any thread may run kernels (pool workers, a caller's own threads), and pools come and go with
// contexts, so each buffer is also the value of a pthread key whose destructor frees it when its
// thread exits. No key destructor runs for the thread that ends the process or unloads the
// library: scratch_fini frees that one.
static _Thread_local struct {
    void *p;
    size_t cap;
} scratch;
static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static _Atomic bool scratch_key_live;

// Runs on the exiting thread; the buffer is forgotten too, in case a later destructor of that
// thread runs kernels again (it then allocates and registers a new one).
static void scratch_release(void *p) {
    free(p);
    scratch.p = NULL;
    scratch.cap = 0;
}

static void scratch_key_init(void) { atomic_store(&scratch_key_live, pthread_key_create(&scratch_key, scratch_release) == 0); }

static void *scratch_get(size_t bytes) {
    if (bytes > scratch.cap) {
        pthread_once(&scratch_once, scratch_key_init);
        free(scratch.p);
        scratch.cap = (bytes + 4095) & ~(size_t)4095;
        scratch.p = aligned_alloc(64, scratch.cap);
        if (!scratch.p) scratch.cap = 0;
        if (atomic_load(&scratch_key_live)) pthread_setspecific(scratch_key, scratch.p);
    }
    return scratch.p;
}

// At exit or unload. The key goes too, so that no thread exiting after an unload calls a
// destructor that is no longer mapped (the buffers of threads still alive then are left behind).
__attribute__((destructor)) static void scratch_fini(void) {
    free(scratch.p);
    scratch.p = NULL;
    scratch.cap = 0;
    if (atomic_exchange(&scratch_key_live, false)) pthread_key_delete(scratch_key);
}

enum { PANEL_MIN_TOKENS = 8, PANEL_TOKENS = 16 };

// Runs the panel kernels rk on rows [a, b) (a multiple of 8 apart) for every token; y holds row
// r0 at column 0. The panel of rows r..r+7 comes from the file's rows W (packed here by rk), or,
// with pk, from the layout packed at load, P: used as it is when pk is rk, else widened by
// pk->to_panel. Each panel is made once and run against every token (what it streams per token,
// the activation, is small next to the work on it). False when there is no memory for it.
static bool run_panels(const struct quant_panel *rk, const struct quant_panel *pk, const uint8_t *W, size_t row_bytes,
                       const uint8_t *P, const void *xq, size_t act_bytes, int64_t n, int64_t n_tok, float *y,
                       int64_t ldy, int64_t r0, int64_t a, int64_t b) {
    const bool build = !pk || pk != rk;
    const size_t wb = build ? (rk->panel_bytes(n) + 63) & ~(size_t)63 : 0;
    const size_t eb = (rk->prep_bytes(n) + 63) & ~(size_t)63;
    uint8_t *mem = scratch_get(wb + eb * (size_t)n_tok);
    if (!mem) return false;
    uint8_t *prep = mem + wb;
    for (int64_t t = 0; t < n_tok; t++) rk->prep((const uint8_t *)xq + (size_t)t * act_bytes, n, prep + (size_t)t * eb);
    for (int64_t r = a; r < b; r += 8) {
        const uint8_t *panel = mem;
        if (!pk) rk->pack(W + (size_t)r * row_bytes, row_bytes, n, mem);
        else if (pk != rk) pk->to_panel(P + (size_t)(r / 8) * pk->panel_bytes(n), n, mem);
        else panel = P + (size_t)(r / 8) * pk->panel_bytes(n);
        for (int64_t t = 0; t < n_tok; t += PANEL_TOKENS) {
            const int nt = (int)(n_tok - t < PANEL_TOKENS ? n_tok - t : PANEL_TOKENS);
            float o[8 * PANEL_TOKENS];
            rk->run(panel, (const uint8_t *)xq + (size_t)t * act_bytes, act_bytes, prep + (size_t)t * eb, eb, nt, n, o);
            for (int k = 0; k < nt; k++) memcpy(y + (t + k) * ldy + (r - r0), o + 8 * k, 8 * sizeof(float));
        }
    }
    return true;
}

// Panels for eight tokens or more (same results as the per-row kernels); otherwise tiled so that
// a block of activations stays in L2 while every weight row in [r0, r1) passes over it once:
// weights (the big operand) are read ceil(n_tok / tb) times instead of n_tok times. Each output
// is the same dot call quant_matvec makes, so results are identical to it. The four-token
// kernel of an ISA reproduces exactly that ISA's one-token kernel, so it is used only at the
// level of the one-token kernel picked.
void quant_matmul(enum quant_isa_id isa, uint32_t wt, const void *W, size_t row_bytes, const void *xq, int64_t n,
                  int64_t n_tok, float *y, int64_t ldy, int64_t r0, int64_t r1) {
    const struct quant_type_info *ti = quant_type_info(wt);
    assert(ti && n % ggml_type_geom(wt)->blck == 0);
    int level = QUANT_ISA_SCALAR;
    const quant_dot_fn dot = pick_dot(ti, isa, &level);
    const quant_dot4_fn dot4 = n_tok >= 4 ? ti->dot4[level] : NULL;
    const size_t act_bytes = ggml_row_size(ti->act, n);
    // Decode, and types whose four-row kernel is the one-token path: token by token. Every other
    // type without a batched kernel still takes the tiled loop below with its one-token dot, so
    // a weight row is read from memory once per block of tokens, not once per token.
    if (n_tok == 1 || (!dot4 && ti->rows4[level])) {
        for (int64_t t = 0; t < n_tok; t++)
            matvec_rows(ti, level, dot, W, row_bytes, (const uint8_t *)xq + (size_t)t * act_bytes, n, y + t * ldy, r0, r1);
        return;
    }
    int64_t tb = (int64_t)((192u << 10) / (act_bytes ? act_bytes : 1));
    if (tb < 4) tb = 4;
    if (level >= QUANT_ISA_AVX2 && n_tok >= PANEL_MIN_TOKENS) {
        const struct quant_panel *pk = level == QUANT_ISA_AVX512 ? quant_panel_avx512(wt) : quant_panel_avx2(wt);
        if (pk) {
            // whole panels from r0; the rows after the last one go to the per-row kernels below
            const int64_t rp = r0 + (r1 - r0) / 8 * 8;
            if (rp > r0 && run_panels(pk, NULL, W, row_bytes, NULL, xq, act_bytes, n, n_tok, y, ldy, r0, r0, rp)) {
                y += rp - r0;
                r0 = rp;
            }
        }
    }
    for (int64_t t0 = 0; t0 < n_tok; t0 += tb) {
        const int64_t t1 = t0 + tb < n_tok ? t0 + tb : n_tok;
        const uint8_t *w = (const uint8_t *)W + (size_t)r0 * row_bytes;
        for (int64_t r = r0; r < r1; r++, w += row_bytes) {
            const uint8_t *x = (const uint8_t *)xq + (size_t)t0 * act_bytes;
            int64_t t = t0;
            if (dot4)
                for (; t + 4 <= t1; t += 4, x += 4 * act_bytes) {
                    float o[4];
                    dot4(n, w, x, act_bytes, o);
                    for (int k = 0; k < 4; k++) y[(t + k) * ldy + (r - r0)] = o[k];
                }
            for (; t < t1; t++, x += act_bytes) y[t * ldy + (r - r0)] = dot(n, w, x);
        }
    }
}

// ---- packed weights -------------------------------------------------------------------------

static const struct quant_panel *packed_kernel(enum quant_isa_id isa, uint32_t type) {
    switch (isa) {
    case QUANT_ISA_AVX512: return quant_packed_avx512(type);
    case QUANT_ISA_AVX2: return quant_packed_avx2(type);
    default: return NULL;
    }
}

size_t quant_packed_size(enum quant_isa_id isa, uint32_t type, int64_t n, int64_t rows) {
    const struct quant_panel *pk = packed_kernel(isa, type);
    if (!pk || rows < 8 || n % ggml_type_geom(type)->blck) return 0;
    return pk->panel_bytes(n) * (size_t)(rows / 8);
}

void quant_pack(enum quant_isa_id isa, uint32_t type, const void *W, size_t row_bytes, int64_t n, int64_t rows,
                void *P) {
    const struct quant_panel *pk = packed_kernel(isa, type);
    assert(pk);
    const size_t pb = pk->panel_bytes(n);
    for (int64_t r = 0; r + 8 <= rows; r += 8)
        pk->pack((const uint8_t *)W + (size_t)r * row_bytes, row_bytes, n, (uint8_t *)P + (size_t)(r / 8) * pb);
}

void quant_matmul_packed(enum quant_isa_id isa, uint32_t type, const void *P, const void *W, size_t row_bytes,
                         const void *xq, int64_t n, int64_t n_tok, float *y, int64_t ldy, int64_t r0, int64_t r1) {
    const struct quant_panel *pk = P ? packed_kernel(isa, type) : NULL;
    const int64_t a = (r0 + 7) / 8 * 8, b = r1 / 8 * 8;
    if (!pk || a >= b) {
        quant_matmul(isa, type, W, row_bytes, xq, n, n_tok, y, ldy, r0, r1);
        return;
    }
    if (r0 < a) quant_matmul(isa, type, W, row_bytes, xq, n, n_tok, y, ldy, r0, a);
    if (b < r1) quant_matmul(isa, type, W, row_bytes, xq, n, n_tok, y + (b - r0), ldy, b, r1);
    // prefill through the type's panel kernels when its packed layout is widened for them
    const struct quant_panel *rk = n_tok >= PANEL_MIN_TOKENS && pk->to_panel ? pk->panel : pk;
    if (!run_panels(rk, pk, W, row_bytes, P, xq, quant_act_size(type, n), n, n_tok, y, ldy, r0, a, b))
        quant_matmul(isa, type, W, row_bytes, xq, n, n_tok, y + (a - r0), ldy, a, b);
}

void quant_dequant_row(uint32_t type, const void *src, float *dst, int64_t n) {
    if (type == GGML_TYPE_Q8_K) {
        dequant_q8_K_ref(src, dst, n);
        return;
    }
    const struct quant_type_info *ti = quant_type_info(type);
    assert(ti && n % ggml_type_geom(type)->blck == 0);
    ti->to_float(src, dst, n);
}
