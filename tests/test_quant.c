// test_quant.c — weight formats against llama.cpp's ggml, and every fast kernel against its
// scalar twin.
//
// Golden data (tests/data/quant/*.bin) comes from tools/peer/make-quant-golden.sh:
//   * dequantization            must equal ggml's to_float bit for bit;
//   * activation conversion     must equal the bytes of ggml's x86 (AVX2 backend) from_float;
//   * scalar dot (reference)    must equal ggml's ggml_vec_dot_*_generic bit for bit (same
//                               operations in the same order; see quant_ref.c);
//   * scalar dot vs ggml's AVX2 vec_dot: within DOT_RTOL * sum|w_i * x_i| (float reassociation).
// Fast kernels are pinned to the scalar twins with the same tolerance on awkward sizes, and
// quant_matmul must equal repeated quant_matvec exactly.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant_impl.h"
#include "test.h"

// Reassociating a float sum of k terms changes it by at most ~k * eps * sum|terms|. Our sums
// have at most a few hundred float additions in a chain (f16/bf16/f32: lanes of 8..32 wide;
// block formats: <= 16 blocks x 8 lanes), and ggml's AVX2 kernels use FMA. 1e-5 (~84 ulp of
// the magnitude sum) covers that with margin and is still far below any real kernel bug.
#define DOT_RTOL 1e-5

#define DATA_DIR "tests/data/quant"

struct golden {
    uint32_t type, act, n, rows, nact, row_bytes, act_bytes;
    uint8_t *w;   // [rows][row_bytes]
    float *deq;   // [rows][n]
    float *x;     // [nact][n]
    uint8_t *aq;  // [nact][act_bytes]
    float *dgen;  // [nact][rows] ggml generic dots
    float *dsimd; // [nact][rows] ggml AVX2 dots
    uint8_t *buf;
};

static const struct {
    uint32_t type;
    const char *file;
} golden_types[] = {
    {GGML_TYPE_F32, "f32"},       {GGML_TYPE_F16, "f16"},       {GGML_TYPE_BF16, "bf16"},
    {GGML_TYPE_Q8_0, "q8_0"},     {GGML_TYPE_Q4_0, "q4_0"},     {GGML_TYPE_Q4_1, "q4_1"},
    {GGML_TYPE_Q5_0, "q5_0"},     {GGML_TYPE_Q5_1, "q5_1"},     {GGML_TYPE_Q2_K, "q2_K"},
    {GGML_TYPE_Q3_K, "q3_K"},     {GGML_TYPE_Q4_K, "q4_K"},     {GGML_TYPE_Q5_K, "q5_K"},
    {GGML_TYPE_Q6_K, "q6_K"},     {GGML_TYPE_IQ4_NL, "iq4_nl"}, {GGML_TYPE_IQ4_XS, "iq4_xs"},
    {GGML_TYPE_MXFP4, "mxfp4"},   {GGML_TYPE_TQ1_0, "tq1_0"},   {GGML_TYPE_TQ2_0, "tq2_0"},
    {GGML_TYPE_Q1_0, "q1_0"},     {GGML_TYPE_Q2_0, "q2_0"},
};
#define N_GOLDEN (sizeof golden_types / sizeof golden_types[0])

static int load_golden(const char *name, struct golden *g) {
    char path[256];
    snprintf(path, sizeof path, DATA_DIR "/%s.bin", name);
    size_t len;
    uint8_t *p = (uint8_t *)test_read_file(path, &len);
    if (!p || len < 40 || memcmp(p, "FRQGOLD1", 8)) {
        free(p);
        return 0;
    }
    uint32_t h[8];
    memcpy(h, p + 8, sizeof h);
    *g = (struct golden){h[0], h[1], h[2], h[3], h[4], h[5], h[6], 0, 0, 0, 0, 0, 0, p};
    size_t o = 40;
    // Copy each section into its own aligned allocation (the file packs them unaligned).
#define SECTION(dst, bytes)                    \
    do {                                       \
        (dst) = malloc(bytes);                 \
        memcpy((dst), p + o, (bytes));         \
        o += (bytes);                          \
    } while (0)
    SECTION(g->w, (size_t)g->rows * g->row_bytes);
    SECTION(g->deq, (size_t)g->rows * g->n * 4);
    SECTION(g->x, (size_t)g->nact * g->n * 4);
    SECTION(g->aq, (size_t)g->nact * g->act_bytes);
    SECTION(g->dgen, (size_t)g->nact * g->rows * 4);
    SECTION(g->dsimd, (size_t)g->nact * g->rows * 4);
#undef SECTION
    return o == len;
}

static void free_golden(struct golden *g) {
    free(g->w), free(g->deq), free(g->x), free(g->aq), free(g->dgen), free(g->dsimd),
        free(g->buf);
}

static uint32_t f32_bits(float f) { return quant_f32_bits(f); }

// sum |w_i * a_i| in double, from the dequantized weight row and activation: the scale of the
// rounding error any summation order can make.
static double abs_dot(uint32_t wt, const void *w, const void *xq, int64_t n) {
    const struct quant_type_info *ti = quant_type_info(wt);
    float *wf = malloc((size_t)n * 4), *af = malloc((size_t)n * 4);
    ti->to_float(w, wf, n);
    if (ti->act == GGML_TYPE_Q8_1) { // no dequantizer in the table for the activation-only Q8_1
        const block_q8_1 *b = xq;
        for (int64_t i = 0; i < n; i++) af[i] = fp16_to_fp32(b[i / 32].d) * b[i / 32].qs[i % 32];
    } else {
        quant_dequant_row(ti->act, xq, af, n);
    }
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += fabs((double)wf[i] * (double)af[i]);
    free(wf);
    free(af);
    return s;
}

static int close_enough(float a, float b, double scale) {
    return fabs((double)a - (double)b) <= DOT_RTOL * scale + 1e-30;
}

// ---- 1. against ggml ---------------------------------------------------------------------------

static int n_exact_dots, n_dots;

static void test_golden(uint32_t type, const char *name) {
    struct golden g;
    if (!load_golden(name, &g)) {
        CHECK(0, "cannot read %s/%s.bin (run from the repository root)", DATA_DIR, name);
        return;
    }
    CHECK(g.type == type, "%s: header type %u", name, g.type);
    const struct quant_type_info *ti = quant_type_info(type);
    CHECK(ti != NULL, "%s: not in the type table", name);
    if (!ti) return;
    CHECK(ti->act == g.act, "%s: activation type %u, ggml pairs it with %u", name, ti->act, g.act);
    CHECK(ggml_row_size(type, g.n) == g.row_bytes, "%s: row size", name);
    CHECK(quant_act_size(type, g.n) == g.act_bytes, "%s: activation size", name);

    // dequantization: bit-exact
    float *deq = malloc((size_t)g.n * 4);
    for (uint32_t r = 0; r < g.rows; r++) {
        quant_dequant_row(type, g.w + r * g.row_bytes, deq, g.n);
        int bad = -1;
        for (uint32_t i = 0; i < g.n && bad < 0; i++)
            if (f32_bits(deq[i]) != f32_bits(g.deq[r * g.n + i])) bad = (int)i;
        CHECK(bad < 0, "%s row %u: dequant[%d] = %.9g, ggml %.9g", name, r, bad,
              bad < 0 ? 0 : deq[bad], bad < 0 ? 0 : g.deq[r * g.n + bad]);
    }
    free(deq);

    // activation conversion: identical bytes, in reference and in fast mode
    uint8_t *aq = malloc(g.act_bytes);
    for (int ref = 1; ref >= 0; ref--) {
        quant_set_reference(ref);
        for (uint32_t a = 0; a < g.nact; a++) {
            memset(aq, 0, g.act_bytes);
            quant_act_from_float(quant_active_isa(), type, g.x + a * g.n, aq, g.n);
            CHECK(!memcmp(aq, g.aq + a * g.act_bytes, g.act_bytes),
                  "%s: activation %u bytes differ from ggml (%s)", name, a, quant_isa());
        }
    }
    quant_set_reference(false);
    free(aq);

    // dots: scalar reference == ggml generic (bit-exact); scalar vs ggml AVX2 within tolerance
    for (uint32_t a = 0; a < g.nact; a++)
        for (uint32_t r = 0; r < g.rows; r++) {
            const void *w = g.w + r * g.row_bytes, *x = g.aq + a * g.act_bytes;
            const float ours = ti->dot[QUANT_ISA_SCALAR](g.n, w, x);
            const float gen = g.dgen[a * g.rows + r], simd = g.dsimd[a * g.rows + r];
            const double scale = abs_dot(type, w, x, g.n);
            n_dots++;
            n_exact_dots += f32_bits(ours) == f32_bits(gen);
            CHECK(f32_bits(ours) == f32_bits(gen), "%s act %u row %u: ref dot %.9g, ggml generic %.9g",
                  name, a, r, ours, gen);
            CHECK(close_enough(ours, simd, scale),
                  "%s act %u row %u: ref dot %.9g, ggml avx2 %.9g (scale %g)", name, a, r, ours,
                  simd, scale);
        }
    free_golden(&g);
}

static void test_conversions(void) {
    size_t len;
    uint8_t *p = (uint8_t *)test_read_file(DATA_DIR "/conv.bin", &len);
    CHECK(p && len > 12 && !memcmp(p, "FRQCONV1", 8), "cannot read %s/conv.bin", DATA_DIR);
    if (!p) return;
    uint32_t n;
    memcpy(&n, p + 8, 4);
    CHECK(len == 12 + (size_t)n * 8 + 65536 * 4, "conv.bin size");
    const uint8_t *v = p + 12, *h = v + 4 * n, *b = h + 2 * n, *all = b + 2 * n;
    int bad16 = 0, badbf = 0, baddec = 0;
    for (uint32_t i = 0; i < n; i++) {
        float f;
        uint16_t want16, wantbf;
        memcpy(&f, v + 4 * i, 4);
        memcpy(&want16, h + 2 * i, 2);
        memcpy(&wantbf, b + 2 * i, 2);
        if (fp32_to_fp16(f) != want16 && bad16++ < 5)
            fprintf(stderr, "fp32_to_fp16(%08x) = %04x, ggml %04x\n", f32_bits(f), fp32_to_fp16(f),
                    want16);
        if (fp32_to_bf16(f) != wantbf && badbf++ < 5)
            fprintf(stderr, "fp32_to_bf16(%08x) = %04x, ggml %04x\n", f32_bits(f), fp32_to_bf16(f),
                    wantbf);
    }
    for (uint32_t i = 0; i < 65536; i++) {
        uint32_t want;
        memcpy(&want, all + 4 * i, 4);
        if (f32_bits(fp16_to_fp32((ggml_half)i)) != want && baddec++ < 5)
            fprintf(stderr, "fp16_to_fp32(%04x) = %08x, ggml %08x\n", i,
                    f32_bits(fp16_to_fp32((ggml_half)i)), want);
    }
    CHECK(bad16 == 0, "%d fp32->fp16 mismatches of %u", bad16, n);
    CHECK(badbf == 0, "%d fp32->bf16 mismatches of %u", badbf, n);
    CHECK(baddec == 0, "%d fp16->fp32 mismatches of 65536", baddec);
    // every finite half survives a round trip
    int badrt = 0;
    for (uint32_t i = 0; i < 65536; i++)
        if (((i >> 10) & 0x1f) != 0x1f && fp32_to_fp16(fp16_to_fp32((ggml_half)i)) != i) badrt++;
    CHECK(badrt == 0, "%d fp16 round-trip failures", badrt);
    free(p);
}

// ---- 2. fast kernels vs scalar twins -----------------------------------------------------------

static uint64_t rng = 12345;
static uint32_t rnd(void) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}
static float rndf(void) { return ((float)(rnd() & 0xffffff) / 8388608.0f) - 1.0f; }

// Builds `rows` weight rows of nb blocks each by sampling whole blocks from the golden rows
// (valid encodings, including the random-bytes row), and an activation vector.
static void make_case(const struct golden *g, int64_t nb, int rows, uint8_t *w, float *x) {
    const int bsz = ggml_type_geom(g->type)->size, blck = ggml_type_geom(g->type)->blck;
    const int64_t blocks_per_row = g->n / blck;
    for (int r = 0; r < rows; r++)
        for (int64_t b = 0; b < nb; b++) {
            const int64_t src = rnd() % (g->rows * blocks_per_row);
            memcpy(w + ((size_t)r * nb + b) * bsz, g->w + src * bsz, bsz);
        }
    const int64_t n = nb * blck;
    for (int64_t i = 0; i < n; i++) x[i] = rndf() * (i % 97 == 0 ? 20.0f : 1.0f);
    if (n >= 512) memset(x, 0, 256 * 4); // an all-zero activation block
}

static void test_fast_vs_ref(uint32_t type, const char *name) {
    struct golden g;
    if (!load_golden(name, &g)) return;
    const struct quant_type_info *ti = quant_type_info(type);
    const int top = (int)quant_cpu_isa();
    const int blck = ggml_type_geom(type)->blck;
    const int act_blck = ggml_type_geom(ti->act)->blck;
    static const int64_t sizes[] = {1, 2, 3, 5, 7, 16, 33};
    enum { ROWS = 6 };
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        // n must be a multiple of the weight block and of the activation block
        int64_t nb = sizes[si];
        if ((nb * blck) % act_blck) nb = nb * act_blck / blck;
        const int64_t n = nb * blck;
        const size_t row_bytes = ggml_row_size(type, n), act_bytes = quant_act_size(type, n);
        uint8_t *w = malloc(row_bytes * ROWS), *xq = malloc(act_bytes), *xq2 = malloc(act_bytes);
        float *x = malloc((size_t)n * 4);
        make_case(&g, nb, ROWS, w, x);

        // every ISA's activation converter gives the reference bytes
        quant_act_kernel(ti->act, QUANT_ISA_SCALAR)(x, xq, n);
        for (int isa = 1; isa <= top; isa++) {
            memset(xq2, 0xAB, act_bytes);
            quant_act_kernel(ti->act, isa)(x, xq2, n);
            CHECK(!memcmp(xq, xq2, act_bytes), "%s n=%lld: isa %d activation bytes differ", name,
                  (long long)n, isa);
        }
        // every ISA's dot vs the scalar twin
        for (int isa = 1; isa <= top; isa++) {
            if (!ti->dot[isa]) continue;
            for (int r = 0; r < ROWS; r++) {
                const void *wr = w + r * row_bytes;
                const float ref = ti->dot[QUANT_ISA_SCALAR](n, wr, xq);
                const float fast = ti->dot[isa](n, wr, xq);
                const double scale = abs_dot(type, wr, xq, n);
                CHECK(close_enough(fast, ref, scale), "%s n=%lld row %d isa %d: %.9g vs ref %.9g (scale %g)",
                      name, (long long)n, r, isa, fast, ref, scale);
            }
        }
        // the VNNI build of the x86 kernels equals the AVX2 build bit for bit (same numerics
        // on every x86 machine), and every ISA's four-token kernel equals its one-token kernel
        for (int isa = QUANT_ISA_AVX512; isa <= top; isa++) {
            if (!ti->dot[isa] || !ti->dot[QUANT_ISA_AVX2]) continue;
            for (int r = 0; r < ROWS; r++) {
                const void *wr = w + r * row_bytes;
                const float a = ti->dot[QUANT_ISA_AVX2](n, wr, xq), b = ti->dot[isa](n, wr, xq);
                CHECK(f32_bits(a) == f32_bits(b), "%s n=%lld row %d: isa %d %.9g != avx2 %.9g", name,
                      (long long)n, r, isa, b, a);
            }
        }
        for (int isa = 1; isa <= top; isa++) {
            if (!ti->rows4[isa]) continue;
            for (int r0 = 0; r0 + 4 <= ROWS; r0 += 2) {
                float o[4];
                ti->rows4[isa](n, w + r0 * row_bytes, row_bytes, xq, o);
                for (int r = 0; r < 4; r++) {
                    const float one = ti->dot[isa](n, w + (r0 + r) * row_bytes, xq);
                    CHECK(f32_bits(o[r]) == f32_bits(one), "%s n=%lld isa %d: rows4 row %d %.9g != dot %.9g", name,
                          (long long)n, isa, r0 + r, o[r], one);
                }
            }
        }
        for (int isa = 1; isa <= top; isa++) {
            if (!ti->dot4[isa]) continue;
            uint8_t *x4 = malloc(act_bytes * 4);
            for (int t = 0; t < 4; t++) {
                for (int64_t i = 0; i < n; i++) x[i] = rndf() * (t == 3 ? 50.0f : 1.0f);
                quant_act_from_float(quant_active_isa(), type, x, x4 + t * act_bytes, n);
            }
            for (int r = 0; r < ROWS; r++) {
                float o[4];
                ti->dot4[isa](n, w + r * row_bytes, x4, act_bytes, o);
                for (int t = 0; t < 4; t++) {
                    const float one = ti->dot[isa](n, w + r * row_bytes, x4 + t * act_bytes);
                    CHECK(f32_bits(o[t]) == f32_bits(one), "%s n=%lld row %d isa %d: dot4[%d] %.9g != dot %.9g",
                          name, (long long)n, r, isa, t, o[t], one);
                }
            }
            free(x4);
        }
        // quant_matvec on a row range not starting at 0, fast vs reference mode
        float yf[ROWS], yr[ROWS];
        quant_set_reference(true);
        quant_matvec(quant_active_isa(), type, w, row_bytes, xq, n, yr, 1, ROWS);
        quant_set_reference(false);
        quant_matvec(quant_active_isa(), type, w, row_bytes, xq, n, yf, 1, ROWS);
        for (int r = 1; r < ROWS; r++)
            CHECK(close_enough(yf[r - 1], yr[r - 1], abs_dot(type, w + r * row_bytes, xq, n)),
                  "%s n=%lld: matvec row %d fast %.9g ref %.9g", name, (long long)n, r, yf[r - 1],
                  yr[r - 1]);
        free(w), free(xq), free(xq2), free(x);
    }
    free_golden(&g);
}

// ---- 3. matmul == repeated matvec --------------------------------------------------------------

static int n_packed_checked;

static void test_matmul(uint32_t type, const char *name) {
    struct golden g;
    if (!load_golden(name, &g)) return;
    // a matrix of 21 rows built from the golden blocks: panels of 8 rows (prefill) plus a
    // remainder, started at row 1 so that no panel is aligned to the matrix
    enum { ROWS = 21 };
    const int blck = ggml_type_geom(type)->blck, act_blck = ggml_type_geom(quant_type_info(type)->act)->blck;
    int64_t nb = 9;
    if ((nb * blck) % act_blck) nb = nb * act_blck / blck;
    const int64_t n = nb * blck, r0 = 1, r1 = ROWS, ldy = ROWS + 3;
    const size_t row_bytes = ggml_row_size(type, n), act_bytes = quant_act_size(type, n);
    uint8_t *w = malloc(row_bytes * ROWS);
    float *x = malloc((size_t)n * 4);
    make_case(&g, nb, ROWS, w, x);
    // enough tokens that the L2 tiling in quant_matmul splits the token range
    const int64_t n_toks[] = {1, 2, 3, 6, 8, 13, 14, (int64_t)((192u << 10) / act_bytes) + 5};
    for (int ref = 0; ref <= 1; ref++) {
        quant_set_reference(ref);
        for (size_t k = 0; k < sizeof n_toks / sizeof n_toks[0]; k++) {
            const int64_t nt = n_toks[k];
            uint8_t *xq = malloc(act_bytes * nt);
            for (int64_t t = 0; t < nt; t++) {
                for (int64_t i = 0; i < n; i++) x[i] = rndf() * (t % 5 == 4 ? 30.0f : 1.0f);
                quant_act_from_float(quant_active_isa(), type, x, xq + t * act_bytes, n);
            }
            float *y = malloc(sizeof(float) * nt * ldy), yv[ROWS];
            for (int64_t i = 0; i < nt * ldy; i++) y[i] = -12345.0f;
            quant_matmul(quant_active_isa(), type, w, row_bytes, xq, n, nt, y, ldy, r0, r1);
            int bad = 0, pad_ok = 1;
            for (int64_t t = 0; t < nt; t++) {
                quant_matvec(quant_active_isa(), type, w, row_bytes, xq + t * act_bytes, n, yv, r0, r1);
                for (int64_t r = r0; r < r1; r++)
                    bad += f32_bits(yv[r - r0]) != f32_bits(y[t * ldy + (r - r0)]);
                for (int64_t c = r1 - r0; c < ldy; c++) pad_ok &= y[t * ldy + c] == -12345.0f;
            }
            CHECK(bad == 0, "%s n_tok=%lld ref=%d: %d matmul outputs differ from matvec", name,
                  (long long)nt, ref, bad);
            CHECK(pad_ok, "%s n_tok=%lld: matmul wrote outside [r0, r1)", name, (long long)nt);
            // weights packed at load: the same bits, over row ranges cutting panels anywhere
            const size_t psz = quant_packed_size(quant_active_isa(), type, n, ROWS);
            if (psz) {
                void *P = aligned_alloc(64, (psz + 63) & ~(size_t)63);
                quant_pack(quant_active_isa(), type, w, row_bytes, n, ROWS, P);
                static const int64_t ranges[][2] = {{1, 21}, {0, 16}, {3, 13}, {8, 16}, {17, 20}};
                for (size_t q = 0; q < sizeof ranges / sizeof ranges[0]; q++) {
                    const int64_t a = ranges[q][0], b = ranges[q][1];
                    quant_matmul_packed(quant_active_isa(), type, P, w, row_bytes, xq, n, nt, y, ldy, a, b);
                    int pbad = 0;
                    for (int64_t t = 0; t < nt; t++) {
                        quant_matvec(quant_active_isa(), type, w, row_bytes, xq + t * act_bytes, n, yv, a, b);
                        for (int64_t r = a; r < b; r++) pbad += f32_bits(yv[r - a]) != f32_bits(y[t * ldy + (r - a)]);
                    }
                    CHECK(pbad == 0, "%s n_tok=%lld ref=%d rows [%lld, %lld): %d packed outputs differ from matvec", name,
                          (long long)nt, ref, (long long)a, (long long)b, pbad);
                }
                // the scalar reference mode, switched on after packing, reads the original rows
                quant_set_reference(true);
                quant_matmul_packed(quant_active_isa(), type, P, w, row_bytes, xq, n, nt, y, ldy, 1, ROWS);
                int rbad = 0;
                for (int64_t t = 0; t < nt; t++) {
                    quant_matvec(quant_active_isa(), type, w, row_bytes, xq + t * act_bytes, n, yv, 1, ROWS);
                    for (int64_t r = 1; r < ROWS; r++) rbad += f32_bits(yv[r - 1]) != f32_bits(y[t * ldy + (r - 1)]);
                }
                quant_set_reference(false);
                CHECK(rbad == 0, "%s n_tok=%lld: packed weights in reference mode: %d outputs differ", name, (long long)nt, rbad);
                free(P);
                n_packed_checked++;
            }
            free(xq), free(y);
        }
    }
    quant_set_reference(false);
    free(w), free(x);
    free_golden(&g);
}

// ---- 4. panels on awkward shapes -------------------------------------------------------------
//
// The panel kernels (Q8_0, Q4_0, Q5_0, IQ4_NL, MXFP4, IQ4_XS, Q5_K, Q1_0, F32, F16, BF16) against the one-token kernel, bit for bit: rows that are not
// a whole number of panels and do not start at one, rows longer than a panel chunk and not a
// multiple of it, every token count 1..17 (the passes and the leftovers of each run), and
// extreme codes: random bytes, so Q8_0 has -128 and +-127 weights against the +-127 that every
// activation block reaches at its largest element.
static void test_panel_shapes(uint32_t type, const char *name) {
    const int blck = ggml_type_geom(type)->blck, bsz = ggml_type_geom(type)->size;
    const bool fl = blck == 1; // a float format: finite values, lengths around its 64-element blocks
    static const int64_t nbs_q[] = {1, 2, 3, 5, 8, 17, 22, 37, 39}; // every remainder mod 4 (Q8_0's block lanes)
    static const int64_t nbs_f[] = {1, 7, 8, 63, 64, 65, 100, 128, 200, 257};
    const int64_t *nbs = fl ? nbs_f : nbs_q;
    const size_t nnb = fl ? sizeof nbs_f / sizeof nbs_f[0] : sizeof nbs_q / sizeof nbs_q[0];
    enum { ROWS = 27, R0 = 2, NT = 17 };
    for (size_t k = 0; k < nnb; k++) {
        const int64_t n = nbs[k] * blck;
        const size_t row_bytes = ggml_row_size(type, n), act_bytes = quant_act_size(type, n);
        uint8_t *w = malloc(row_bytes * ROWS), *xq = malloc(act_bytes * NT);
        float *x = malloc(sizeof(float) * n), y[NT * ROWS], yv[ROWS];
        for (size_t i = 0; i < row_bytes * ROWS; i++) w[i] = (uint8_t)rnd();
        for (int64_t i = 0; fl && i < n * ROWS; i++) {
            const float v = rndf() * (i % 5 ? 1.0f : 300.0f);
            if (type == GGML_TYPE_F32) memcpy(w + 4 * i, &v, 4);
            else {
                const uint16_t h = type == GGML_TYPE_F16 ? fp32_to_fp16(v) : fp32_to_bf16(v);
                memcpy(w + 2 * i, &h, 2);
            }
        }
        for (int r = 0; !fl && r < ROWS; r++) // finite scales of either sign, over a wide range (Q5_K: d and dmin)
            for (int64_t b = 0; b < nbs[k]; b++)
                for (int h = 0; h < (type == GGML_TYPE_Q5_K ? 2 : 1); h++) {
                    const ggml_half d = (ggml_half)(0x1000 + rnd() % 0x3000) | (ggml_half)(rnd() & 0x8000);
                    memcpy(w + (size_t)r * row_bytes + (size_t)b * bsz + h * sizeof d, &d, sizeof d);
                }
        for (int t = 0; t < NT; t++) {
            for (int64_t i = 0; i < n; i++) x[i] = rndf() * (t % 3 ? 1.0f : 1000.0f);
            quant_act_from_float(quant_active_isa(), type, x, xq + (size_t)t * act_bytes, n);
        }
        for (int nt = 1; nt <= NT; nt++) {
            quant_matmul(quant_active_isa(), type, w, row_bytes, xq, n, nt, y, ROWS, R0, ROWS);
            int bad = 0;
            for (int t = 0; t < nt; t++) {
                quant_matvec(quant_active_isa(), type, w, row_bytes, xq + (size_t)t * act_bytes, n, yv, R0, ROWS);
                for (int r = 0; r < ROWS - R0; r++) bad += f32_bits(yv[r]) != f32_bits(y[t * ROWS + r]);
            }
            CHECK(bad == 0, "%s n=%lld n_tok=%d (%s): %d panel outputs differ from the one-token kernel", name,
                  (long long)n, nt, quant_isa(), bad);
        }
        free(w), free(xq), free(x);
    }
}

static void test_panels(void) {
    test_panel_shapes(GGML_TYPE_Q8_0, "q8_0");
    test_panel_shapes(GGML_TYPE_Q4_0, "q4_0");
    test_panel_shapes(GGML_TYPE_IQ4_XS, "iq4_xs");
    test_panel_shapes(GGML_TYPE_Q5_0, "q5_0");
    test_panel_shapes(GGML_TYPE_IQ4_NL, "iq4_nl");
    test_panel_shapes(GGML_TYPE_MXFP4, "mxfp4");
    test_panel_shapes(GGML_TYPE_Q5_K, "q5_K");
    test_panel_shapes(GGML_TYPE_Q1_0, "q1_0");
    test_panel_shapes(GGML_TYPE_F32, "f32");
    test_panel_shapes(GGML_TYPE_F16, "f16");
    test_panel_shapes(GGML_TYPE_BF16, "bf16");
}

// The Mamba-2 scan row (ssm_kernels.c): every kernel set this CPU runs gives the scalar twin's
// bits, state and output, over several tokens of one row, on sizes with and without a tail.
static void test_ssm_scan(void) {
    static const int sizes[] = {16, 64, 100, 128, 256};
    for (size_t n = 0; n < sizeof sizes / sizeof sizes[0]; n++) {
        const int ds = sizes[n];
        float B[256], C[256], s[QUANT_ISA_COUNT][256];
        uint32_t x = 12345u + (uint32_t)ds;
        for (int i = 0; i < ds; i++) {
            x = x * 1664525u + 1013904223u;
            B[i] = (float)((int)(x >> 9) % 2001 - 1000) / 997.0f;
            x = x * 1664525u + 1013904223u;
            C[i] = (float)((int)(x >> 9) % 2001 - 1000) / 991.0f;
            for (int k = 0; k < QUANT_ISA_COUNT; k++) s[k][i] = B[i] * 0.25f - C[i] * 0.5f;
        }
        bool same = true;
        for (int tok = 0; tok < 5; tok++) {
            const float dA = 0.9f - 0.07f * (float)tok, x_dt = 0.3f + 0.11f * (float)tok;
            const float y0 = ssm_scan_row(QUANT_ISA_SCALAR, s[0], B, C, ds, dA, x_dt);
            for (int k = QUANT_ISA_AVX2; k <= (int)quant_cpu_isa(); k++) {
                const float y = ssm_scan_row((enum quant_isa_id)k, s[k], B, C, ds, dA, x_dt);
                same &= !memcmp(&y, &y0, sizeof y) && !memcmp(s[k], s[0], (size_t)ds * sizeof(float));
            }
        }
        CHECK(same, "Mamba-2 scan row, d_state %d: a kernel set differs from the scalar twin", ds);
    }
}

// The SSM conv token (ssm_kernels.c): every kernel set gives the scalar twin's bits, for kernel
// widths 2..4 and channel counts with and without a tail of the vector width, in place and not.
static void test_ssm_conv(void) {
    static const int widths[] = {2, 3, 4}, counts[] = {1, 7, 8, 29, 256};
    for (size_t a = 0; a < 3; a++)
        for (size_t b = 0; b < 5; b++) {
            const int Kc = widths[a], n = counts[b];
            static float in[4][256], w[4 * 256], bias[256], ref[256], out[256];
            uint32_t x = 777u + (uint32_t)(Kc * 1000 + n);
            for (int i = 0; i < Kc; i++)
                for (int k = 0; k < n; k++) {
                    x = x * 1664525u + 1013904223u;
                    in[i][k] = (float)((int)(x >> 9) % 2001 - 1000) / 977.0f;
                    x = x * 1664525u + 1013904223u;
                    w[i * n + k] = (float)((int)(x >> 9) % 2001 - 1000) / 1013.0f;
                }
            for (int k = 0; k < n; k++) bias[k] = 0.01f * (float)(k % 17) - 0.08f;
            const float *tap[4] = {in[0], in[1], in[2], in[3]};
            ssm_conv_token(QUANT_ISA_SCALAR, ref, tap, w, bias, Kc, n);
            bool same = true;
            for (int k = QUANT_ISA_AVX2; k <= (int)quant_cpu_isa(); k++) {
                ssm_conv_token((enum quant_isa_id)k, out, tap, w, bias, Kc, n);
                same &= !memcmp(out, ref, (size_t)n * sizeof(float));
            }
            CHECK(same, "SSM conv token, width %d, %d channels: a kernel set differs from the scalar twin", Kc, n);
        }
}

int main(void) {
    printf("quant: cpu isa %s\n", quant_isa());
    static const uint32_t unsupported[] = {GGML_TYPE_Q8_1, GGML_TYPE_Q8_K, GGML_TYPE_IQ2_XXS,
                                           GGML_TYPE_I8, 4, GGML_TYPE_NVFP4, GGML_TYPE_COUNT, 999};
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        CHECK(!quant_supported(unsupported[i]), "type %u should be unsupported", unsupported[i]);
    quant_set_reference(true);
    CHECK(!strcmp(quant_isa(), "scalar"), "reference mode reports %s", quant_isa());
    quant_set_reference(false);

    test_conversions();
    for (size_t i = 0; i < N_GOLDEN; i++) {
        CHECK(quant_supported(golden_types[i].type), "%s unsupported", golden_types[i].file);
        test_golden(golden_types[i].type, golden_types[i].file);
        test_fast_vs_ref(golden_types[i].type, golden_types[i].file);
        test_matmul(golden_types[i].type, golden_types[i].file);
    }
    test_panels();
    test_ssm_scan();
    test_ssm_conv();
    // and every lower x86 kernel set this CPU can run (panels and packed layouts included)
    for (int cap = QUANT_ISA_AVX2; cap < (int)quant_cpu_isa(); cap++) {
        quant_cap_isa((enum quant_isa_id)cap);
        printf("quant: matmul checks again with the kernel set capped at %s\n", quant_isa());
        for (size_t i = 0; i < sizeof golden_types / sizeof golden_types[0]; i++)
            test_matmul(golden_types[i].type, golden_types[i].file);
        test_panels();
        quant_cap_isa(QUANT_ISA_COUNT);
    }
    if (quant_cpu_isa() >= QUANT_ISA_AVX2)
        CHECK(n_packed_checked > 0, "no packed layout was exercised on an x86 machine with AVX2");
    printf("quant: %d of %d reference dots bit-identical to ggml's generic kernels\n", n_exact_dots,
           n_dots);
    return TEST_DONE();
}
