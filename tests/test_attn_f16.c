// The attention F16 kernels: each fast kernel equals its scalar twin bit for
// bit (same order of operations), on awkward lengths.
#include <math.h>
#include <stdlib.h>

#include "quant/quant.h"
#include "quant/quant_impl.h"
#include "test.h"

static uint16_t rnd_half(unsigned *s) {
    *s = *s * 1103515245u + 12345u;
    return fp32_to_fp16(((float)(*s >> 8) / 16777216.0f - 0.5f) * 8.0f);
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
    // The reference order differs from a plain running sum: pin one value.
    uint16_t ones[40];
    for (int i = 0; i < 40; i++) ones[i] = fp32_to_fp16(1.0f);
    CHECK(f16_dot_ref(ones, ones, 40) == 40.0f, "40 ones");
    return TEST_DONE();
}
