// quantref.c — writes golden data for frink's weight formats from llama.cpp's ggml (the peer).
//
// Usage: quantref OUTDIR LIBDIR
//   LIBDIR holds libggml-base.so and the per-CPU backends libggml-cpu-*.so.
//
// For every weight type it writes OUTDIR/<TYPE>.bin:
//   weights   ggml_quantize_chunk of deterministic rows (plus one row of random bytes, so every
//             code point of the format is decoded, not only those ggml's quantizer emits)
//   dequant   ggml's to_float of those rows
//   x, act    activation floats and their conversion by the CPU backend's from_float for the
//             paired vec_dot_type, as the x86 AVX2 ("haswell") backend does it
//   dots      ggml_vec_dot_*_generic (scalar C, from the baseline "x64" backend, which has no
//             FMA so nothing is contracted) and the AVX2 ("haswell") vec_dot, for every
//             (activation, row) pair, both fed the same activation bytes.
// and OUTDIR/conv.bin with fp32->fp16 (F16C path), fp32->bf16 and all 65536 fp16->fp32.
//
// Two CPU backends are dlopen'ed side by side with RTLD_LOCAL, each resolving its own symbols;
// both share the one libggml-base.
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ggml-cpu.h"
#include "ggml.h"

#define N 512   // row length: a multiple of every block size (32, 64, 128, 256)
#define ROWS 5  // weight rows per type
#define NACT 2  // activation vectors per type

typedef const struct ggml_type_traits_cpu *(*traits_cpu_fn)(enum ggml_type);
typedef void (*cpu_init_fn)(void);

struct backend {
    void *h;
    traits_cpu_fn traits;
};

static struct backend load_backend(const char *libdir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/libggml-cpu-%s.so", libdir, name);
    struct backend b = {dlopen(path, RTLD_NOW | RTLD_LOCAL), NULL};
    if (!b.h) {
        fprintf(stderr, "quantref: %s\n", dlerror());
        exit(1);
    }
    cpu_init_fn init = (cpu_init_fn)dlsym(b.h, "ggml_cpu_init");
    b.traits = (traits_cpu_fn)dlsym(b.h, "ggml_get_type_traits_cpu");
    if (!init || !b.traits) {
        fprintf(stderr, "quantref: %s lacks ggml_cpu_init/ggml_get_type_traits_cpu\n", path);
        exit(1);
    }
    init();
    return b;
}

// xorshift64* and a Box-Muller normal: deterministic on every machine.
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd_u32(void) {
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}
static float rnd_uniform(void) { return (rnd_u32() >> 8) * (1.0f / 16777216.0f); } // [0,1)
static float rnd_normal(void) {
    float u = rnd_uniform(), v = rnd_uniform();
    if (u < 1e-7f) u = 1e-7f;
    return sqrtf(-2.0f * logf(u)) * cosf(6.2831853f * v);
}

// Byte offsets of the f16 scale fields inside one block, so the random-bytes row gets sane
// (finite, moderate) scales. MXFP4's E8M0 byte is clamped separately.
struct scale_fields {
    int type, n, off[2];
};
static const struct scale_fields fields[] = {
    {GGML_TYPE_Q4_0, 1, {0}},     {GGML_TYPE_Q4_1, 2, {0, 2}},  {GGML_TYPE_Q5_0, 1, {0}},
    {GGML_TYPE_Q5_1, 2, {0, 2}},  {GGML_TYPE_Q8_0, 1, {0}},     {GGML_TYPE_Q2_K, 2, {80, 82}},
    {GGML_TYPE_Q3_K, 1, {108}},   {GGML_TYPE_Q4_K, 2, {0, 2}},  {GGML_TYPE_Q5_K, 2, {0, 2}},
    {GGML_TYPE_Q6_K, 1, {208}},   {GGML_TYPE_IQ4_NL, 1, {0}},   {GGML_TYPE_IQ4_XS, 1, {0}},
    {GGML_TYPE_TQ1_0, 1, {52}},   {GGML_TYPE_TQ2_0, 1, {64}},   {GGML_TYPE_Q1_0, 1, {0}},
    {GGML_TYPE_Q2_0, 1, {0}},     {GGML_TYPE_MXFP4, 0, {0}},
};

static const enum ggml_type types[] = {
    GGML_TYPE_F32,  GGML_TYPE_F16,  GGML_TYPE_BF16,   GGML_TYPE_Q8_0,   GGML_TYPE_Q4_0,
    GGML_TYPE_Q4_1, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1,   GGML_TYPE_Q2_K,   GGML_TYPE_Q3_K,
    GGML_TYPE_Q4_K, GGML_TYPE_Q5_K, GGML_TYPE_Q6_K,   GGML_TYPE_IQ4_NL, GGML_TYPE_IQ4_XS,
    GGML_TYPE_MXFP4, GGML_TYPE_TQ1_0, GGML_TYPE_TQ2_0, GGML_TYPE_Q1_0,  GGML_TYPE_Q2_0,
};

static void make_rows(float *w) {
    for (int i = 0; i < N; i++) w[0 * N + i] = rnd_normal();
    for (int i = 0; i < N; i++) w[1 * N + i] = 0.5f * rnd_normal();
    w[1 * N + 77] = 40.0f; // a large outlier (dominates its block's scale)
    w[1 * N + 300] = -25.0f;
    for (int i = 0; i < N; i++) w[2 * N + i] = i < 256 ? 0.0f : 1e-3f * rnd_normal(); // zeros
    for (int i = 0; i < N; i++) w[3 * N + i] = (float)((int)(rnd_u32() % 33) - 16) / 8.0f;
    for (int i = 0; i < N; i++) w[4 * N + i] = 3.0f * rnd_normal();
}

static void make_acts(float *x) {
    for (int i = 0; i < N; i++) x[i] = rnd_normal();
    x[5] = 8.0f;
    // x1: a zero super-block, then a block whose amax is 127 so that the quantizer's multiplier
    // is exactly 1 and the k+0.5 values are rounding ties (half-even vs half-away differ).
    for (int i = 0; i < N; i++) x[N + i] = i < 256 ? 0.0f : 0.01f * rnd_normal();
    x[N + 256] = 127.0f;
    for (int k = 0; k < 31; k++) x[N + 257 + k] = (float)(k - 15) + 0.5f;
}

static void put(FILE *f, const void *p, size_t n) {
    if (fwrite(p, 1, n, f) != n) {
        perror("quantref: write");
        exit(1);
    }
}

static void write_type(const char *outdir, enum ggml_type t, const struct backend *gen,
                       const struct backend *simd) {
    const struct ggml_type_traits *tt = ggml_get_type_traits(t);
    const struct ggml_type_traits_cpu *cg = gen->traits(t), *cs = simd->traits(t);
    const enum ggml_type at = cs->vec_dot_type;
    const size_t row_bytes = ggml_row_size(t, N), act_bytes = ggml_row_size(at, N);

    float w[ROWS * N], x[NACT * N], deq[ROWS * N];
    uint8_t *wq = calloc(ROWS, row_bytes), *aq = calloc(NACT, act_bytes);
    make_rows(w);
    make_acts(x);
    ggml_quantize_chunk(t, w, wq, 0, ROWS - 1, N, NULL);
    // Last row: random bytes with sane scales (quantized types); a plain quantized row otherwise.
    if (ggml_is_quantized(t)) {
        uint8_t *r = wq + (ROWS - 1) * row_bytes;
        for (size_t i = 0; i < row_bytes; i++) r[i] = (uint8_t)rnd_u32();
        for (size_t b = 0; b < row_bytes / tt->type_size; b++) {
            uint8_t *blk = r + b * tt->type_size;
            for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
                if ((enum ggml_type)fields[k].type != t) continue;
                if (t == GGML_TYPE_MXFP4) blk[0] = (uint8_t)(100 + rnd_u32() % 50);
                for (int j = 0; j < fields[k].n; j++) {
                    float v = (0.001f + 0.1f * rnd_uniform()) * (rnd_u32() & 1 ? -1.0f : 1.0f);
                    ggml_fp16_t h = ggml_fp32_to_fp16(v);
                    memcpy(blk + fields[k].off[j], &h, 2);
                }
            }
        }
    } else {
        ggml_quantize_chunk(t, w + (ROWS - 1) * N, wq + (ROWS - 1) * row_bytes, 0, 1, N, NULL);
    }
    for (int r = 0; r < ROWS; r++) {
        if (tt->to_float) tt->to_float(wq + r * row_bytes, deq + r * N, N);
        else memcpy(deq + r * N, wq + r * row_bytes, row_bytes); // F32: no conversion
    }
    // ggml's Q8_K quantizer leaves bsums unwritten for an all-zero block: start from zeros.
    for (int a = 0; a < NACT; a++) {
        // The activation converter is the from_float of the vec_dot_type, as ggml's mul_mat uses.
        ggml_from_float_t ff = simd->traits(at)->from_float;
        if (ff) ff(x + a * N, aq + a * act_bytes, N);
        else memcpy(aq + a * act_bytes, x + a * N, act_bytes); // F32 activations
    }

    ggml_vec_dot_t dot_gen = cg->vec_dot;
    {   // prefer the explicitly generic symbol where the baseline build exports one
        char name[128];
        static const char *dn[GGML_TYPE_COUNT] = {
            [GGML_TYPE_Q4_0] = "q4_0_q8_0", [GGML_TYPE_Q4_1] = "q4_1_q8_1",
            [GGML_TYPE_Q5_0] = "q5_0_q8_0", [GGML_TYPE_Q5_1] = "q5_1_q8_1",
            [GGML_TYPE_Q8_0] = "q8_0_q8_0", [GGML_TYPE_Q2_K] = "q2_K_q8_K",
            [GGML_TYPE_Q3_K] = "q3_K_q8_K", [GGML_TYPE_Q4_K] = "q4_K_q8_K",
            [GGML_TYPE_Q5_K] = "q5_K_q8_K", [GGML_TYPE_Q6_K] = "q6_K_q8_K",
            [GGML_TYPE_IQ4_NL] = "iq4_nl_q8_0", [GGML_TYPE_IQ4_XS] = "iq4_xs_q8_K",
            [GGML_TYPE_MXFP4] = "mxfp4_q8_0", [GGML_TYPE_TQ1_0] = "tq1_0_q8_K",
            [GGML_TYPE_TQ2_0] = "tq2_0_q8_K", [GGML_TYPE_Q1_0] = "q1_0_q8_0",
        };
        if (dn[t]) {
            snprintf(name, sizeof name, "ggml_vec_dot_%s_generic", dn[t]);
            ggml_vec_dot_t g = (ggml_vec_dot_t)dlsym(gen->h, name);
            if (g) dot_gen = g;
        }
    }
    float dg[NACT * ROWS], ds[NACT * ROWS];
    for (int a = 0; a < NACT; a++)
        for (int r = 0; r < ROWS; r++) {
            dot_gen(N, &dg[a * ROWS + r], 0, wq + r * row_bytes, 0, aq + a * act_bytes, 0, 1);
            cs->vec_dot(N, &ds[a * ROWS + r], 0, wq + r * row_bytes, 0, aq + a * act_bytes, 0, 1);
        }

    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", outdir, tt->type_name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    uint32_t hdr[8] = {(uint32_t)t, (uint32_t)at, N, ROWS, NACT, (uint32_t)row_bytes,
                       (uint32_t)act_bytes, 0};
    put(f, "FRQGOLD1", 8);
    put(f, hdr, sizeof hdr);
    put(f, wq, ROWS * row_bytes);
    put(f, deq, sizeof deq);
    put(f, x, sizeof x);
    put(f, aq, NACT * act_bytes);
    put(f, dg, sizeof dg);
    put(f, ds, sizeof ds);
    fclose(f);
    free(wq);
    free(aq);
    printf("%-7s act %-5s row %4zu B  dots generic/simd  %+.6g/%+.6g ...\n", tt->type_name,
           ggml_type_name(at), row_bytes, dg[0], ds[0]);
}

// Awkward floats for the fp16/bf16 converters: boundaries, ties, subnormals, inf, NaN.
static int conv_values(float *v) {
    int n = 0;
    static const uint32_t bits[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
        0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x47800000, 0x38800000, 0x387fffff,
        0x33000000, 0x33000001, 0x32ffffff, 0x33800000, 0x33c00000, 0x00000001, 0x007fffff,
        0x3f801000, 0x3f803000, 0x3f800fff, 0x3f802000, 0x3f7fffff, 0x7f7fffff, 0x3f808000,
        0x3f818000, 0x3f817fff, 0x00400000,
    };
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) memcpy(&v[n++], &bits[i], 4);
    while (n < 4096) {
        uint32_t u = rnd_u32();
        if (n % 2) u = (u & 0x8fffffff) | 0x30000000; // bias toward the f16 range
        memcpy(&v[n++], &u, 4);
    }
    return n;
}

static void write_conv(const char *outdir, const struct backend *simd) {
    typedef void (*row_fn)(const float *, void *, int64_t);
    row_fn f16 = (row_fn)dlsym(simd->h, "ggml_cpu_fp32_to_fp16");
    if (!f16) f16 = (row_fn)ggml_fp32_to_fp16_row;
    float v[4096];
    int n = conv_values(v);
    static uint16_t h[4096], b[4096];
    static float all[65536];
    f16(v, h, n);
    ggml_fp32_to_bf16_row_ref(v, (ggml_bf16_t *)b, n);
    for (int i = 0; i < 65536; i++) all[i] = ggml_fp16_to_fp32((ggml_fp16_t)i);
    char path[4096];
    snprintf(path, sizeof path, "%s/conv.bin", outdir);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    uint32_t cnt = (uint32_t)n;
    put(f, "FRQCONV1", 8);
    put(f, &cnt, 4);
    put(f, v, 4 * (size_t)n);
    put(f, h, 2 * (size_t)n);
    put(f, b, 2 * (size_t)n);
    put(f, all, sizeof all);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s OUTDIR LIBDIR\n", argv[0]);
        return 2;
    }
    struct backend gen = load_backend(argv[2], "x64"), simd = load_backend(argv[2], "haswell");
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        write_type(argv[1], types[i], &gen, &simd);
    write_conv(argv[1], &simd);
    return 0;
}
