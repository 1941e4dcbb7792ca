// The CUDA kernels' per-block math (src/cuda/blocks.h), run on the CPU, against the scalar
// reference kernels (quant_ref*.c): for every device format, random weight rows (random bits,
// awkward scales: zero, subnormal, the largest half, negative) against random inputs (zero
// blocks, spikes, ties, tiny values):
//   - the activation codes equal the host's Q8_0 activation (act_q8_0_ref) code for code, the
//     exact sum, and every element within half a step;
//   - each piece's integer part equals sum code * x computed from the reference dequantizer on a
//     copy of the row with unit scales (the codes, exactly), scales folded in where blocks.h does;
//   - the row's dot (cb_row_lanes, the device's order) is within a stated float bound of the
//     reference-dequantized row dotted in double with the dequantized activation.
// Also the device selection (src/cuda/select.c) and the seam: CPU by default; cuda asked for
// on a build or machine without it fails naming why; with cuda chosen, every layer still runs
// on the host and names what the cuda path lacks.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/blocks.h"
#include "cuda/cuda.h"
#include "model/path.h"
#include "quant/quant_impl.h"
#include "test.h"

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}
static float rndf(void) { return (float)(rnd() & 0xFFFFFF) / 16777216.0f; } // [0, 1)

// ---- inputs --------------------------------------------------------------------------------

static void fill_input(float *x, int n) {
    for (int b = 0; b < n / 32; b++) {
        float *v = x + 32 * b;
        float scale = powf(10.0f, 6.0f * rndf() - 3.0f);
        switch (rnd() % 6) {
        case 0: // roughly normal
            for (int j = 0; j < 32; j++) v[j] = scale * (rndf() + rndf() + rndf() - 1.5f);
            break;
        case 1: // all zero: d = 0, codes 0
            for (int j = 0; j < 32; j++) v[j] = 0.0f;
            break;
        case 2: // one spike, the rest small (most codes 0)
            for (int j = 0; j < 32; j++) v[j] = scale * 1e-3f * (rndf() - 0.5f);
            v[rnd() % 32] = (rnd() & 1 ? -1e4f : 1e4f) * scale;
            break;
        case 3: { // near the rounding ties of the codes
            float amax = scale, step = amax / 127.0f;
            for (int j = 0; j < 32; j++) v[j] = ((float)(int)(rnd() % 254) - 126.5f) * step;
            v[0] = amax;
            break;
        }
        case 4: // equal magnitudes (amax ties), mixed signs
            for (int j = 0; j < 32; j++) v[j] = rnd() & 1 ? scale : -scale;
            break;
        default: // tiny
            for (int j = 0; j < 32; j++) v[j] = 1e-30f * (rndf() - 0.5f);
            break;
        }
    }
}

// ---- weights ---------------------------------------------------------------------------------

// A finite half: zero, the smallest subnormal, the largest, or a normal in [2^-14, 2^5), any sign.
static uint16_t rnd_half(void) {
    uint16_t sign = rnd() & 1 ? 0x8000 : 0;
    switch (rnd() % 10) {
    case 0: return sign;
    case 1: return sign | 0x0001;
    case 2: return sign | 0x7bff;
    default: return (uint16_t)(sign | (1 + rnd() % 19) << 10 | (rnd() & 0x3ff));
    }
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }

// Random bits for every block of a row, then finite scales in their fields. MXFP4's exponent
// stays within 2^-17 .. 2^13 (its extremes overflow any float dot); one block in eight gets a
// zero scale (E8M0 has no zero: its smallest, 2^-128, stands in).
static void fill_row(int fmt, uint8_t *row, int n) {
    const int bb = cb_block_bytes(fmt), nblk = n / cb_block_elems(fmt);
    for (int i = 0; i < nblk * bb; i++) row[i] = (uint8_t)rnd();
    for (int b = 0; b < nblk; b++) {
        uint8_t *p = row + (size_t)b * bb;
        switch (fmt) {
        case CB_F16:
            put16(p, rnd_half());
            break;
        case CB_BF16: // keep the exponent finite and moderate: 2^-40 .. 2^23
            put16(p, (uint16_t)((rnd() & 0x8000) | (87 + rnd() % 64) << 7 | (rnd() & 0x7f)));
            if (rnd() % 16 == 0) put16(p, 0);
            break;
        case CB_Q8_0: case CB_Q4_0: case CB_Q1_0: put16(p, rnd_half()); break;
        case CB_MXFP4: p[0] = rnd() % 8 ? (uint8_t)(110 + rnd() % 31) : 0; break;
        case CB_Q4_K: case CB_Q5_K: put16(p, rnd_half()), put16(p + 2, rnd_half()); break;
        case CB_Q6_K: put16(p + 208, rnd_half()); break;
        }
    }
}

// The same row with every scale 1 and every min 0, so that the reference dequantizer returns the
// codes themselves (Q4_0's nib - 8, Q1_0's +-1, MXFP4's doubled values, Q6_K's code - 32).
static void unit_scales(int fmt, uint8_t *row, int n) {
    const int bb = cb_block_bytes(fmt), nblk = n / cb_block_elems(fmt);
    for (int b = 0; b < nblk; b++) {
        uint8_t *p = row + (size_t)b * bb;
        switch (fmt) {
        case CB_Q8_0: case CB_Q4_0: case CB_Q1_0: put16(p, 0x3c00); break;
        case CB_MXFP4: p[0] = 128; break; // E8M0 half of 2^1
        case CB_Q4_K: case CB_Q5_K:
            put16(p, 0x3c00), put16(p + 2, 0);
            for (int j = 0; j < 12; j++) p[4 + j] = j < 4 ? 1 : j < 8 ? 0 : 0x01; // sc = 1, m = 0
            break;
        case CB_Q6_K:
            put16(p + 208, 0x3c00);
            for (int j = 0; j < 16; j++) p[192 + j] = 1;
            break;
        }
    }
}

static void dequant_ref(int fmt, const void *row, float *out, int n) {
    switch (fmt) {
    case CB_F16: dequant_f16_ref(row, out, n); break;
    case CB_BF16: dequant_bf16_ref(row, out, n); break;
    case CB_Q8_0: dequant_q8_0_ref(row, out, n); break;
    case CB_Q4_0: dequant_q4_0_ref(row, out, n); break;
    case CB_MXFP4: dequant_mxfp4_ref(row, out, n); break;
    case CB_Q1_0: dequant_q1_0_ref(row, out, n); break;
    case CB_Q4_K: dequant_q4_K_ref(row, out, n); break;
    case CB_Q5_K: dequant_q5_K_ref(row, out, n); break;
    case CB_Q6_K: dequant_q6_K_ref(row, out, n); break;
    }
}

static int sumi_of(int fmt, const uint8_t *row, int i, const struct cb_act *a) {
    switch (fmt) {
    case CB_Q8_0: return cb_q8_0_sumi(row, i, a);
    case CB_Q4_0: return cb_q4_0_sumi(row, i, a);
    case CB_MXFP4: return cb_mxfp4_sumi(row, i, a);
    case CB_Q1_0: return cb_q1_0_sumi(row, i, a);
    case CB_Q4_K: return cb_q4_K_sumi(row, i, a);
    case CB_Q5_K: return cb_q5_K_sumi(row, i, a);
    case CB_Q6_K: return cb_q6_K_sumi(row, i, a);
    }
    return 0;
}

// ---- checks -----------------------------------------------------------------------------------

static const struct {
    int fmt;
    uint32_t ggml;
    const char *name;
} formats[] = {
    {CB_F16, GGML_TYPE_F16, "F16"},       {CB_BF16, GGML_TYPE_BF16, "BF16"}, {CB_Q8_0, GGML_TYPE_Q8_0, "Q8_0"},
    {CB_Q4_0, GGML_TYPE_Q4_0, "Q4_0"},    {CB_MXFP4, GGML_TYPE_MXFP4, "MXFP4"}, {CB_Q1_0, GGML_TYPE_Q1_0, "Q1_0"},
    {CB_Q4_K, GGML_TYPE_Q4_K, "Q4_K"},    {CB_Q5_K, GGML_TYPE_Q5_K, "Q5_K"}, {CB_Q6_K, GGML_TYPE_Q6_K, "Q6_K"},
};
#define N_FORMATS ((int)(sizeof formats / sizeof formats[0]))

static void check_geometry(void) {
    for (int f = 0; f < N_FORMATS; f++) {
        const struct ggml_type_geom *g = ggml_type_geom(formats[f].ggml);
        CHECK(g && formats[f].fmt == (int)formats[f].ggml && cb_block_elems(formats[f].fmt) == g->blck &&
                  cb_block_bytes(formats[f].fmt) == g->size,
              "%s: blocks.h geometry", formats[f].name);
    }
    CHECK(cb_block_elems(GGML_TYPE_Q4_1) == 0 && cb_block_bytes(GGML_TYPE_Q3_K) == 0, "unlisted formats");
    for (uint32_t c = 0; c < 16; c++) CHECK(cb_mxfp4_value(c) == kvalues_mxfp4[c], "mxfp4 value %u", c);
    for (uint32_t h = 0; h < 0x10000; h += 7)
        if (((h >> 10) & 0x1f) != 0x1f) CHECK(cb_half(h) == fp16_to_fp32((uint16_t)h), "half %04x", h);
    for (uint32_t e = 0; e < 256; e++) CHECK(cb_e8m0_half(e) == e8m0_to_fp32_half((uint8_t)e), "e8m0 %u", e);
    for (int k = 0; k < 1000; k++) {
        int a = (int)rnd(), b = (int)rnd(), c = (int)(rnd() % 100000) - 50000, want = c;
        for (int j = 0; j < 4; j++) want += (int8_t)(a >> 8 * j) * (int8_t)(b >> 8 * j);
        CHECK(cb_dp4a(a, b, c) == want, "dp4a");
    }
}

static void check_activation(const float *x, int n, const struct cb_act *a) {
    block_q8_0 ref[n / 32];
    act_q8_0_ref(x, ref, n);
    for (int b = 0; b < n / 32; b++) {
        int32_t s = 0;
        bool codes = true, close = true;
        for (int j = 0; j < 32; j++) {
            s += a[b].qs[j];
            codes &= a[b].qs[j] == ref[b].qs[j];
            // |x - d q| <= d/2 plus the rounding of id = 127/amax and of x * id
            close &= fabs((double)x[32 * b + j] - (double)a[b].d * a[b].qs[j]) <= a[b].d * (0.5 + 1e-5) + 1e-45;
        }
        CHECK(codes, "block %d: codes differ from act_q8_0_ref", b);
        CHECK(s == a[b].s, "block %d: sum %d, codes add to %d", b, a[b].s, s);
        CHECK(fp32_to_fp16(a[b].d) == ref[b].d, "block %d: d %g, the host's %g", b, a[b].d, fp16_to_fp32(ref[b].d));
        CHECK(close, "block %d: an element further than half a step", b);
    }
}

static void check_row(int f, const uint8_t *row, uint8_t *unit, const float *x, const struct cb_act *a, int n, float *w,
                      float *q) {
    const int fmt = formats[f].fmt;
    const char *name = formats[f].name;
    const size_t rb = (size_t)(n / cb_block_elems(fmt)) * (size_t)cb_block_bytes(fmt);
    dequant_ref(fmt, row, w, n);
    double ref = 0, mag = 0;
    if (cb_format_is_float(fmt)) {
        for (int e = 0; e < n; e++) ref += (double)w[e] * x[e], mag += fabs((double)w[e] * x[e]);
        mag *= 32; // each piece sums its 32 products in order
        // ... exactly so: the float products of the reference-dequantized weights, in order.
        for (int i = 0; i < n / 32; i++) {
            float want = 0.0f;
            for (int l = 0; l < 32; l++) want += w[32 * i + l] * x[32 * i + l];
            float got = cb_part(fmt, row, i, a, x);
            CHECK(memcmp(&got, &want, 4) == 0, "%s piece %d: %.9g, in order %.9g", name, i, got, want);
        }
    } else {
        memcpy(unit, row, rb);
        unit_scales(fmt, unit, n);
        dequant_ref(fmt, unit, q, n);
        for (int i = 0; i < n / 32; i++) {
            const int b = i / (cb_block_elems(fmt) / 32 ? cb_block_elems(fmt) / 32 : 1);
            int64_t want = 0, absq = 0, absx = 0;
            for (int l = 0; l < 32; l++) {
                const int e = 32 * i + l;
                int64_t code = (int64_t)q[e];
                if (fmt == CB_Q6_K) code *= ((const block_q6_K *)row)[e / 256].scales[(e % 256) / 16];
                want += code * a[i].qs[l];
                absq += llabs(code * a[i].qs[l]);
                absx += abs(a[i].qs[l]);
                ref += (double)w[e] * ((double)a[i].d * a[i].qs[l]);
            }
            int got = sumi_of(fmt, row, i, &a[i]);
            CHECK(got == want, "%s piece %d: integer part %d, want %lld", name, i, got, (long long)want);
            // The float work of a piece: a product or two of exact factors, rounded at most 3 times.
            double m = (double)absq * a[i].d;
            if (fmt == CB_Q4_K || fmt == CB_Q5_K) {
                const block_q4_K *kb = (const block_q4_K *)(row + (size_t)b * cb_block_bytes(fmt));
                uint8_t sc, mn;
                k45_scale_min(i % 8, kb->scales, &sc, &mn);
                m = a[i].d * (fabs(fp16_to_fp32(kb->d)) * sc * absq + fabs(fp16_to_fp32(kb->dmin)) * mn * absx);
            } else if (fmt == CB_Q8_0 || fmt == CB_Q4_0 || fmt == CB_Q1_0) {
                m *= fabs(fp16_to_fp32(((const block_q8_0 *)(row + (size_t)b * cb_block_bytes(fmt)))->d));
            } else if (fmt == CB_MXFP4) {
                m *= e8m0_to_fp32_half(row[(size_t)b * 17]);
            } else if (fmt == CB_Q6_K) {
                m *= fabs(fp16_to_fp32(((const block_q6_K *)row)[b].d));
            }
            mag += 4 * m;
        }
    }
    // Then at most n/1024 additions per lane and 5 in the butterfly, each rounding once.
    const double bound = (n / 1024 + 6) * 0x1p-24 * mag + 1e-37;
    const float got = cb_row_lanes(fmt, row, a, x, n);
    CHECK(fabs((double)got - ref) <= bound, "%s n=%d: row %.9g, reference %.9g (|diff| %.3g > %.3g)", name, n, got, ref,
          fabs(got - ref), bound);
}

// Opens the embedded model; the status, and layer 0's path and refusals in path/refused.
static frink_status open_embedded_on(const char *device, char *path, char *refused, size_t cap) {
    frink_model_params p = frink_model_default_params();
    p.device = device;
    frink_model *m = NULL;
    frink_status st = frink_model_open(&p, &m);
    path[0] = refused[0] = 0;
    frink_layer_info li;
    if (!st && !frink_model_layer(m, 0, &li)) {
        snprintf(path, cap, "%s", li.path);
        snprintf(refused, cap, "%s", li.refusals);
    }
    frink_model_free(m);
    return st;
}

static frink_status open_embedded(char *path, char *refused, size_t cap) { return open_embedded_on(NULL, path, refused, cap); }

static void check_selection(void) {
    char err[256], path[512], refused[512];
    const struct layer_path *cuda = path_at(0);
    CHECK(cuda && !strcmp(cuda->name, "cuda") && feat_empty(cuda->implements) && cuda->ops && !cuda->mm,
          "the cuda path: first, implementing nothing, on the step seam, its products on the host");
    unsetenv("FRINK_DEVICE");
    CHECK(cuda_plan_device(err, sizeof err) == 0, "default: the CPU");
    CHECK(open_embedded(path, refused, sizeof path) == FRINK_OK && !strcmp(path, "host") && !refused[0],
          "default plan: host, no refusal ('%s', '%s')", path, refused);
    setenv("FRINK_DEVICE", "cpu", 1);
    CHECK(cuda_plan_device(err, sizeof err) == 0, "FRINK_DEVICE=cpu");
    setenv("FRINK_DEVICE", "tpu", 1);
    CHECK(cuda_plan_device(err, sizeof err) == -2 && strstr(err, "FRINK_DEVICE 'tpu': unknown device"), "'%s'", err);
    CHECK(open_embedded(path, refused, sizeof path) == FRINK_ERR_ARG && strstr(frink_errmsg(), "'tpu'"), "load: '%s'",
          frink_errmsg());
    CHECK(cuda_parse_device("tpu", err, sizeof err) == -2 && strstr(err, "unknown device"), "device tpu: '%s'", err);
    setenv("FRINK_DEVICE", "cuda", 1);
    if (!cuda_available()) {
        // this build or this machine: either way the message says which
        CHECK(cuda_plan_device(err, sizeof err) == -1 &&
                  (strstr(err, "built without CUDA") || strstr(err, "no CUDA device") || strstr(err, "CUDA driver") ||
                   strstr(err, "cudaGetDeviceCount")),
              "FRINK_DEVICE=cuda without a device: '%s'", err);
        frink_status st = open_embedded(path, refused, sizeof path);
        CHECK(st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "FRINK_DEVICE cuda: "), "load: %d '%s'", st,
              frink_errmsg());
        CHECK(cuda_parse_device("cuda", err, sizeof err) == -1, "device cuda without a device");
        CHECK(cuda_device_count(err, sizeof err) <= 0 && cuda_matrix_upload(GGML_TYPE_Q8_0, "", 32, 1, err, sizeof err) == NULL,
              "no device, no upload");
    } else {
        CHECK(cuda_plan_device(err, sizeof err) == 1, "FRINK_DEVICE=cuda with a device: %s", err);
        CHECK(open_embedded(path, refused, sizeof path) == FRINK_OK && !strcmp(path, "host") &&
                  !strncmp(refused, "cuda: missing ", 14),
              "cuda chosen: host runs the layer, cuda refuses it ('%s', '%s')", path, refused);
    }
    // A model's own device wins over FRINK_DEVICE (there is no process-wide choice to change).
    CHECK(open_embedded_on("cpu", path, refused, sizeof path) == FRINK_OK && !strcmp(path, "host") && !refused[0],
          "params.device cpu under FRINK_DEVICE=cuda ('%s')", frink_errmsg());
    CHECK(open_embedded_on("tpu", path, refused, sizeof path) == FRINK_ERR_ARG && strstr(frink_errmsg(), "'tpu'"),
          "params.device tpu: '%s'", frink_errmsg());
    unsetenv("FRINK_DEVICE");
    frink_status dst = open_embedded_on("cuda", path, refused, sizeof path);
    if (!cuda_available())
        CHECK(dst == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "device cuda: "), "params.device cuda: %d '%s'", dst,
              frink_errmsg());
    else
        CHECK(dst == FRINK_OK && !strncmp(refused, "cuda: missing ", 14), "params.device cuda: '%s'", refused);
    setenv("FRINK_DEVICE", "cuda", 1);
    // An explicit choice wins over the environment, and leaves it the default of the next model.
    CHECK(cuda_parse_device("cpu", err, sizeof err) == 0 && open_embedded_on("cpu", path, refused, sizeof path) == FRINK_OK &&
              !refused[0] && cuda_plan_device(err, sizeof err) == (cuda_available() ? 1 : -1),
          "device cpu over FRINK_DEVICE ('%s')", refused);
    unsetenv("FRINK_DEVICE");
}

int main(void) {
    check_selection();
    check_geometry();
    enum { N_MAX = 4096 };
    static float x[N_MAX], w[N_MAX], q[N_MAX];
    static struct cb_act a[N_MAX / 32];
    static uint8_t row[N_MAX * 2], unit[N_MAX * 2];
    const int sizes[] = {256, 512, 768, 1024, 2048, 4096};
    for (int rep = 0; rep < 40; rep++) {
        const int n = sizes[rep % 6];
        fill_input(x, n);
        for (int b = 0; b < n / 32; b++) cb_act_quantize(x + 32 * b, &a[b]);
        check_activation(x, n, a);
        for (int f = 0; f < N_FORMATS; f++)
            for (int r = 0; r < 3; r++) {
                fill_row(formats[f].fmt, row, n);
                check_row(f, row, unit, x, a, n, w, q);
            }
    }
    return TEST_DONE();
}
