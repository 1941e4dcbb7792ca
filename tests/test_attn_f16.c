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
        const int dims[][2] = {{64, 64}, {128, 128}, {256, 256}, {80, 80}, {40, 40}, {96, 64}, {7, 9}, {576, 512}};
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
    // The reference order differs from a plain running sum: pin one value.
    uint16_t ones[40];
    for (int i = 0; i < 40; i++) ones[i] = fp32_to_fp16(1.0f);
    CHECK(f16_dot_ref(ones, ones, 40) == 40.0f, "40 ones");
    return TEST_DONE();
}
