// The attention F16 kernels: each fast kernel equals its scalar twin bit for
// bit (same order of operations), on awkward lengths.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quant/quant.h"
#include "quant/quant_impl.h"
#include "test.h"

static uint16_t rnd_half(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return fp32_to_fp16(((float)(*s >> 8) / 16777216.0f - 0.5f) * 8.0f);
}

// The tile kernel in use against its scalar twin (per state, cells inner) on random F16 K/V:
// head dims with and without their own unrolled copy, several queries x a GQA group, causal
// ranges (queries stop at their own end) with and without a sliding window, softcap.
static int tile_case(unsigned *seed, int d, int dv, int nq, int nh, int n_kv, int window, float softcap, bool zeros) {
    int hkv = 2, kvh = 1; // rows interleave two KV heads; the tile reads the second
    size_t ks = (size_t)hkv * d, vs = (size_t)hkv * dv;
    uint16_t *K = malloc((size_t)n_kv * ks * 2), *V = malloc((size_t)n_kv * vs * 2), *Q = malloc((size_t)nq * nh * d * 2);
    float *m[2], *l[2], *acc[2];
    for (int r = 0; r < 2; r++) {
        m[r] = malloc((size_t)nq * nh * sizeof(float));
        l[r] = malloc((size_t)nq * nh * sizeof(float));
        acc[r] = malloc((size_t)nq * nh * dv * sizeof(float));
    }
    for (size_t i = 0; i < (size_t)n_kv * ks; i++) K[i] = rnd_half(seed);
    for (size_t i = 0; i < (size_t)n_kv * vs; i++) V[i] = rnd_half(seed);
    for (size_t i = 0; i < (size_t)nq * nh * d; i++) Q[i] = rnd_half(seed);
    if (zeros) { // every score a sum of -0 products (+0 from a zero start), every cell a tie
        for (size_t i = 0; i < (size_t)n_kv * ks; i++) K[i] = 0x8000;
        for (size_t i = 0; i < (size_t)nq * nh * d; i++) Q[i] &= 0x7fff;
    }
    int lo[QUANT_ATTN_TILE_STATES], hi[QUANT_ATTN_TILE_STATES];
    for (int qi = 0; qi < nq; qi++) {
        int pos = n_kv - nq + qi;
        hi[qi] = pos + 1;
        lo[qi] = window && pos - window + 1 > 0 ? pos - window + 1 : 0;
    }
    struct quant_attn_tile t = {K + kvh * d, V + kvh * dv, ks, vs, d, dv, nq, nh, Q, lo, hi, 1.0f / sqrtf((float)d), softcap,
                                m[0], l[0], acc[0]};
    attn_f16_tile_ref(&t);
    t.m = m[1];
    t.l = l[1];
    t.acc = acc[1];
    attn_f16_tile_avx2(&t);
    // Bits, not values: a -0 for a +0 counts as a difference.
    int same = !memcmp(m[0], m[1], (size_t)nq * nh * sizeof(float)) && !memcmp(l[0], l[1], (size_t)nq * nh * sizeof(float)) &&
               !memcmp(acc[0], acc[1], (size_t)nq * nh * dv * sizeof(float));
    CHECK(same, "tile d=%d dv=%d nq=%d nh=%d n_kv=%d window=%d softcap=%g", d, dv, nq, nh, n_kv, window, softcap);
    free(K);
    free(V);
    free(Q);
    for (int r = 0; r < 2; r++) {
        free(m[r]);
        free(l[r]);
        free(acc[r]);
    }
    return same;
}

int main(void) {
    unsigned seed = 7;
    const int lens[] = {1, 7, 8, 31, 32, 33, 64, 100, 128, 256, 257};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        int n = lens[k];
        uint16_t x[300], y[300], a1[300], a2[300];
        for (int i = 0; i < n; i++) {
            x[i] = rnd_half(&seed);
            y[i] = rnd_half(&seed);
            a1[i] = a2[i] = rnd_half(&seed);
        }
        if (quant_cpu_isa() < QUANT_ISA_AVX2) continue;
        float d0 = f16_dot_ref(x, y, n), d1 = f16_dot_avx2(x, y, n);
        CHECK(d0 == d1, "dot n=%d: %.9g vs %.9g", n, d0, d1);
        f16_mad_ref(a1, x, 0.37f, n);
        f16_mad_avx2(a2, x, 0.37f, n);
        int same = 1;
        for (int i = 0; i < n; i++) same &= a1[i] == a2[i];
        CHECK(same, "mad n=%d", n);
        f16_scale_ref(a1, 0.61f, n);
        f16_scale_avx2(a2, 0.61f, n);
        for (int i = 0; i < n; i++) same &= a1[i] == a2[i];
        CHECK(same, "scale n=%d", n);
    }
    if (quant_cpu_isa() >= QUANT_ISA_AVX2) {
        const int dims[][2] = {{32, 32}, {64, 64}, {128, 128}, {256, 256}, {80, 80}, {40, 40}, {96, 64}, {7, 9}, {576, 512}};
        for (size_t k = 0; k < sizeof dims / sizeof *dims; k++) {
            int d = dims[k][0], dv = dims[k][1], nh = d > 256 ? 1 : 4;
            tile_case(&seed, d, dv, 1, nh, 1, 0, 0.0f, false);    // the first token
            tile_case(&seed, d, dv, 1, nh, 301, 0, 0.0f, false);  // decode at depth
            tile_case(&seed, d, dv, 5, nh, 67, 0, 0.0f, false);   // a prefill tile, causal tail
            tile_case(&seed, d, dv, 3, nh, 150, 33, 0.0f, false); // sliding window
            tile_case(&seed, d, dv, 2, nh, 40, 0, 30.0f, false);  // softcap
            tile_case(&seed, d, dv, 4, nh, 50, 0, 0.0f, true);
        }
        tile_case(&seed, 64, 64, 8, 8, 1000, 0, 0.0f, false); // a full tile: 64 states
        tile_case(&seed, 128, 128, 16, 1, 77, 0, 0.0f, false);
    }
    // quant_expf: within 1 ulp of libm's expf (and almost always equal) on a sweep of the
    // softmax's range, exact at the edges; the AVX2 twin gives the same bits everywhere.
    {
        enum { N = 1 << 20 };
        float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
        int worst = 0, differ = 0;
        for (int i = 0; i < N; i++) {
            // every 2^-k scale down to -110 (subnormal and zero results), then uniform bits
            uint32_t u = 0x80000000u | (uint32_t)((uint64_t)i * 0x42dc0000u / N);
            x[i] = quant_bits_f32(u);
            float a = quant_expf(x[i]), b = expf(x[i]);
            int du = (int)quant_f32_bits(a) - (int)quant_f32_bits(b);
            du = du < 0 ? -du : du;
            worst = du > worst ? du : worst;
            differ += du != 0;
        }
        CHECK(worst <= 1, "quant_expf within 1 ulp of expf on [-110, 0] (worst %d ulp)", worst);
        CHECK(differ < N / 100, "quant_expf equals expf almost everywhere (%d of %d differ)", differ, N);
        CHECK(quant_expf(0.0f) == 1.0f && quant_expf(-0.0f) == 1.0f, "e^0 = 1");
        CHECK(quant_expf(-INFINITY) == 0.0f && quant_expf(-1000.0f) == 0.0f, "e^-inf = 0");
        CHECK(quant_expf(INFINITY) == INFINITY && quant_expf(100.0f) == INFINITY, "overflow to inf");
        CHECK(isnan(quant_expf(NAN)), "NaN stays NaN");
        CHECK(quant_expf(-103.0f) > 0.0f && quant_expf(-104.0f) == 0.0f, "the smallest subnormal, then zero");
        CHECK(quant_expf(1.0f) == expf(1.0f) && quant_expf(-1.0f) == expf(-1.0f), "e and 1/e");
        if (quant_cpu_isa() >= QUANT_ISA_AVX2) {
            const float special[] = {-INFINITY, INFINITY, NAN, -0.0f, 0.0f, -200.0f, -200.5f, 200.5f, 88.8f, -87.4f, -1e-30f};
            for (int i = 0; i < 11; i++) x[i] = special[i];
            for (int n = 1; n <= 11; n++) { // every tail length
                quant_expf_avx2(y, x, n);
                int same = 1;
                for (int i = 0; i < n; i++) {
                    float r = quant_expf(x[i]);
                    same &= isnan(r) ? isnan(y[i]) : quant_f32_bits(r) == quant_f32_bits(y[i]);
                }
                CHECK(same, "quant_expf_avx2 n=%d (special values) equals quant_expf", n);
            }
            unsigned s2 = 7;
            for (int i = 0; i < N; i++) {
                s2 = s2 * 1103515245u + 12345u;
                x[i] = i & 1 ? quant_bits_f32(s2) : -(float)(s2 >> 8) / 65536.0f; // any bits; [-256, 0]
            }
            quant_expf_avx2(y, x, N);
            int same = 1;
            for (int i = 0; i < N; i++) {
                float r = quant_expf(x[i]);
                same &= isnan(r) ? isnan(y[i]) : quant_f32_bits(r) == quant_f32_bits(y[i]);
            }
            CHECK(same, "quant_expf_avx2 equals quant_expf on 2^20 inputs");
            // SiLU times the up projection, every tail length and a long run, against the scalar.
            for (int n = 1; n <= 19; n += 3) {
                float g[32], u[32], g2[32];
                for (int i = 0; i < n; i++) {
                    g[i] = g2[i] = x[i * 2 + 1] / 1e30f; // mostly small values; odd ones any bits
                    u[i] = x[i * 2] / 100.0f;
                }
                quant_silu_mul_avx2(g2, g2, n % 2 ? u : NULL, n);
                int ok = 1;
                for (int i = 0; i < n; i++) {
                    float r = n % 2 ? quant_silu(g[i]) * u[i] : quant_silu(g[i]);
                    ok &= isnan(r) ? isnan(g2[i]) : quant_f32_bits(r) == quant_f32_bits(g2[i]);
                }
                CHECK(ok, "quant_silu_mul_avx2 n=%d equals the scalar loop", n);
            }
            for (int i = 0; i < N; i++) y[i] = x[i] / 16.0f + 8.0f; // [-8, 8]: where SiLU bends
            float *u = malloc(N * sizeof *u);
            for (int i = 0; i < N; i++) u[i] = 1.0f + (float)(i % 7);
            memcpy(x, y, N * sizeof *x);
            quant_silu_mul_avx2(y, y, u, N);
            same = 1;
            for (int i = 0; i < N; i++) {
                float r = quant_silu(x[i]) * u[i];
                same &= isnan(r) ? isnan(y[i]) : quant_f32_bits(r) == quant_f32_bits(y[i]);
            }
            CHECK(same, "quant_silu_mul_avx2 equals the scalar loop on 2^20 inputs");
            free(u);
        }
        free(x);
        free(y);
    }
    // The reference order differs from a plain running sum: pin one value.
    uint16_t ones[40];
    for (int i = 0; i < 40; i++) ones[i] = fp32_to_fp16(1.0f);
    CHECK(f16_dot_ref(ones, ones, 40) == 40.0f, "40 ones");
    return TEST_DONE();
}
