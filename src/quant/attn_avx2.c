// attn_avx2.c — the attention tile over an F16 cache with AVX2/F16C; its scalar twin is
// attn_f16_tile_ref (attn_f16.c), and the two give the same bits.
//
// Cells are the outer loop: each K/V row is converted to F32 once per tile and used by every
// state (query x head) whose range covers it, so prefill reads the cache once per tile of
// queries and decode streams it once per KV head, not once per query head. Per state the
// arithmetic is the twin's, in its order: the dot in four 8-lane FMA accumulators reduced
// pairwise (tail in double), quant_expf (eight at once), and the V accumulator stored in F16 between updates
// (converted in registers, one instruction each way). The head dims models use (64, 128, 256)
// get their own unrolled copies.
#include <immintrin.h>
#include <math.h>

#include "quant/quant.h"
#include "quant/quant_impl.h"
#include "quant/exp_avx2.h"

#define INLINE static inline __attribute__((always_inline))

// Cells ahead whose K/V rows are prefetched: decode streams the cache from memory, and the work
// of a few cells hides the latency.
#define PREFETCH_CELLS 6

// x rounded to F16 and back.
INLINE __m256 r16(__m256 x) { return _mm256_cvtph_ps(_mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT)); }
INLINE float r16s(float x) { return _cvtsh_ss(_cvtss_sh(x, _MM_FROUND_TO_NEAREST_INT)); }

INLINE void to_f32(float *dst, const uint16_t *src, int n) {
    int i = 0;
#pragma GCC unroll 8
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + i))));
    for (; i < n; i++) dst[i] = _cvtsh_ss(src[i]);
}

INLINE void prefetch_row(const uint16_t *p, int n) {
    for (int b = 0; b < n * 2; b += 64) _mm_prefetch((const char *)p + b, _MM_HINT_T0);
}

// The lane vector of k . q before its reduction, as f16_dot_ref orders it (both already in
// F32): four 8-lane FMA accumulators over n & ~31 elements, then (s0 + s2) + (s1 + s3).
INLINE __m256 dot_r(const float *k, const float *q, int n) {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
    int np = n & ~31;
    for (int i = 0; i < np; i += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(k + i), _mm256_loadu_ps(q + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(k + i + 8), _mm256_loadu_ps(q + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(k + i + 16), _mm256_loadu_ps(q + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(k + i + 24), _mm256_loadu_ps(q + i + 24), s3);
    }
    return _mm256_add_ps(_mm256_add_ps(s0, s2), _mm256_add_ps(s1, s3));
}

// The same for 64 dims with k held in registers (eight of the sixteen) across the states.
INLINE __m256 dot64_r(const __m256 k[8], const float *q) {
    // From zero as the twin, whose sum of -0 products is +0.
    const __m256 z = _mm256_setzero_ps();
    __m256 s0 = _mm256_fmadd_ps(k[0], _mm256_loadu_ps(q), z), s1 = _mm256_fmadd_ps(k[1], _mm256_loadu_ps(q + 8), z);
    __m256 s2 = _mm256_fmadd_ps(k[2], _mm256_loadu_ps(q + 16), z), s3 = _mm256_fmadd_ps(k[3], _mm256_loadu_ps(q + 24), z);
    s0 = _mm256_fmadd_ps(k[4], _mm256_loadu_ps(q + 32), s0);
    s1 = _mm256_fmadd_ps(k[5], _mm256_loadu_ps(q + 40), s1);
    s2 = _mm256_fmadd_ps(k[6], _mm256_loadu_ps(q + 48), s2);
    s3 = _mm256_fmadd_ps(k[7], _mm256_loadu_ps(q + 56), s3);
    return _mm256_add_ps(_mm256_add_ps(s0, s2), _mm256_add_ps(s1, s3));
}

// One lane vector's sum: t = lo + hi, then (t0 + t1) + (t2 + t3).
INLINE float hsum(__m256 r) {
    const __m128 t0 = _mm_add_ps(_mm256_castps256_ps128(r), _mm256_extractf128_ps(r, 1));
    const __m128 t1 = _mm_hadd_ps(t0, t0);
    return _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
}

INLINE float dot(const float *k, const float *q, int n) {
    double sum = hsum(dot_r(k, q, n));
    for (int i = n & ~31; i < n; i++) sum += (double)(k[i] * q[i]);
    return (float)sum;
}
INLINE float dot64(const __m256 k[8], const float *q) { return hsum(dot64_r(k, q)); }

// Eight lane vectors reduced together, each exactly as dot's tail reduces one: t = lo + hi, then
// (t0 + t1) + (t2 + t3). Three horizontal adds for the eight instead of two each.
INLINE __m256 reduce8(const __m256 r[8]) {
    __m256 x[4];
    for (int i = 0; i < 4; i++)
        x[i] = _mm256_add_ps(_mm256_permute2f128_ps(r[2 * i], r[2 * i + 1], 0x20),
                             _mm256_permute2f128_ps(r[2 * i], r[2 * i + 1], 0x31));
    // lanes: [r0 r2 r4 r6 | r1 r3 r5 r7]
    const __m256 h = _mm256_hadd_ps(_mm256_hadd_ps(x[0], x[1]), _mm256_hadd_ps(x[2], x[3]));
    return _mm256_permutevar8x32_ps(h, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

void quant_expf_avx2(float *y, const float *x, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, exp8(_mm256_loadu_ps(x + i)));
    if (i < n) {
        _Alignas(32) float b[8] = {0};
        for (int j = i; j < n; j++) b[j - i] = x[j];
        _mm256_store_ps(b, exp8(_mm256_load_ps(b)));
        for (int j = i; j < n; j++) y[j] = b[j - i];
    }
}

// dst = silu(g) * u (or silu(g)), as quant_silu then the product.
void quant_silu_mul_avx2(float *dst, const float *g, const float *u, int n) {
    const __m256 one = _mm256_set1_ps(1.0f), neg = _mm256_set1_ps(-0.0f);
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(g + i);
        const __m256 y = _mm256_div_ps(x, _mm256_add_ps(one, exp8(_mm256_xor_ps(x, neg))));
        _mm256_storeu_ps(dst + i, u ? _mm256_mul_ps(y, _mm256_loadu_ps(u + i)) : y);
    }
    for (; i < n; i++) dst[i] = u ? quant_silu(g[i]) * u[i] : quant_silu(g[i]);
}

// acc = f16(f16(acc * a) + v) when rescaling (the new maximum's own weight is 1), else
// acc = f16(v * b + acc); acc is stored in F16, which is the rounding.
INLINE __m256 ld16(const uint16_t *p) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p)); }
INLINE void st16(uint16_t *p, __m256 x) { _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT)); }

INLINE void update(uint16_t *acc, const float *v, float a, float b, bool rescale, int n) {
    const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
    int i = 0;
    if (rescale) {
#pragma GCC unroll 8
        for (; i + 8 <= n; i += 8) {
            const __m256 x = r16(_mm256_mul_ps(ld16(acc + i), va));
            st16(acc + i, _mm256_fmadd_ps(_mm256_loadu_ps(v + i), vb, x));
        }
        for (; i < n; i++) acc[i] = _cvtss_sh(fmaf(v[i], b, r16s(_cvtsh_ss(acc[i]) * a)), _MM_FROUND_TO_NEAREST_INT);
    } else {
#pragma GCC unroll 8
        for (; i + 8 <= n; i += 8) st16(acc + i, _mm256_fmadd_ps(_mm256_loadu_ps(v + i), vb, ld16(acc + i)));
        for (; i < n; i++) acc[i] = _cvtss_sh(fmaf(v[i], b, _cvtsh_ss(acc[i])), _MM_FROUND_TO_NEAREST_INT);
    }
}

INLINE void tile(const struct quant_attn_tile *t, const int D, const int DV) {
    const int nq = t->nq, nh = t->nh, n = nq * nh;
    _Alignas(32) float qf[QUANT_ATTN_TILE_FLOATS], kf[QUANT_ATTN_TILE_DIM], vf[QUANT_ATTN_TILE_DIM];
    uint16_t acc[QUANT_ATTN_TILE_FLOATS];
    float M[QUANT_ATTN_TILE_STATES], S[QUANT_ATTN_TILE_STATES];
    int c0 = t->lo[0], c1 = t->hi[0];
    for (int qi = 1; qi < nq; qi++) {
        c0 = t->lo[qi] < c0 ? t->lo[qi] : c0;
        c1 = t->hi[qi] > c1 ? t->hi[qi] : c1;
    }
    for (int st = 0; st < n; st++) {
        to_f32(qf + (size_t)st * D, t->q + (size_t)st * D, D);
        M[st] = -INFINITY;
        S[st] = 0;
        for (int i = 0; i < DV; i++) acc[(size_t)st * DV + i] = 0;
    }
    for (int c = c0; c < c1; c++) {
        const uint16_t *kr = t->k + (size_t)c * t->k_stride, *vr = t->v + (size_t)c * t->v_stride;
        if (c + PREFETCH_CELLS < c1) {
            prefetch_row(kr + PREFETCH_CELLS * t->k_stride, D);
            prefetch_row(vr + PREFETCH_CELLS * t->v_stride, DV);
        }
        if (D != 64) to_f32(kf, kr, D);
        to_f32(vf, vr, DV);
        // Three passes over the states the cell is in, each of independent work (the dots, the
        // softmax steps, the accumulator updates), so the out-of-order core overlaps states
        // instead of waiting out one state's chain of dot, expf and update at a time.
        int act[QUANT_ATTN_TILE_STATES], na = 0;
        for (int qi = 0; qi < nq; qi++)
            if (c >= t->lo[qi] && c < t->hi[qi])
                for (int st = qi * nh; st < (qi + 1) * nh; st++) act[na++] = st;
        float sc[QUANT_ATTN_TILE_STATES], ms[QUANT_ATTN_TILE_STATES], vs[QUANT_ATTN_TILE_STATES];
        bool up[QUANT_ATTN_TILE_STATES];
        // Eight states' dots at a time, reduced together; the rest one by one.
        const __m256 vscale = _mm256_set1_ps(t->scale);
        int a8 = D % 32 == 0 ? na & ~7 : 0;
        if (D == 64) {
            __m256 k[8];
            for (int i = 0; i < 8; i++) k[i] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(kr + 8 * i)));
            for (int a = 0; a < a8; a += 8) {
                __m256 r[8];
                for (int i = 0; i < 8; i++) r[i] = dot64_r(k, qf + (size_t)act[a + i] * D);
                _mm256_storeu_ps(sc + a, _mm256_mul_ps(reduce8(r), vscale));
            }
            for (int a = a8; a < na; a++) sc[a] = dot64(k, qf + (size_t)act[a] * D) * t->scale;
        } else {
            for (int a = 0; a < a8; a += 8) {
                __m256 r[8];
                for (int i = 0; i < 8; i++) r[i] = dot_r(kf, qf + (size_t)act[a + i] * D, D);
                _mm256_storeu_ps(sc + a, _mm256_mul_ps(reduce8(r), vscale));
            }
            for (int a = a8; a < na; a++) sc[a] = dot(kf, qf + (size_t)act[a] * D, D) * t->scale;
        }
        if (t->softcap != 0.0f)
            for (int a = 0; a < na; a++) sc[a] = t->softcap * tanhf(sc[a]);
        // The softmax step's exponent is Mold - s for a new maximum, else s - M: either way
        // -(s - M) or s - M exactly (IEEE subtraction is antisymmetric), so one e^x per state,
        // eight at a time.
        _Alignas(32) float ex[QUANT_ATTN_TILE_STATES + 8];
        for (int a = 0; a < na; a++) {
            float d = sc[a] - M[act[a]];
            up[a] = sc[a] > M[act[a]];
            ex[a] = up[a] ? -d : d;
        }
        for (int a = na; a % 8; a++) ex[a] = 0.0f;
        for (int a = 0; a < na; a += 8) _mm256_store_ps(ex + a, exp8(_mm256_load_ps(ex + a)));
        for (int a = 0; a < na; a++) {
            int st = act[a];
            ms[a] = up[a] ? ex[a] : 1.0f;
            vs[a] = up[a] ? 1.0f : ex[a];
            if (up[a]) M[st] = sc[a];
            S[st] = S[st] * ms[a] + vs[a];
        }
        for (int a = 0; a < na; a++) update(acc + (size_t)act[a] * DV, vf, ms[a], vs[a], up[a], DV);
    }
    for (int st = 0; st < n; st++) {
        t->m[st] = M[st];
        t->l[st] = S[st];
        to_f32(t->acc + (size_t)st * DV, acc + (size_t)st * DV, DV);
    }
}

// The common head sizes with D known at compile time (the loops over D unrolled; the same
// operations in the same order as tile_any, so the same bits). 32: bge-small, MiniLM.
static void tile_32(const struct quant_attn_tile *t) { tile(t, 32, 32); }
static void tile_64(const struct quant_attn_tile *t) { tile(t, 64, 64); }
static void tile_128(const struct quant_attn_tile *t) { tile(t, 128, 128); }
static void tile_256(const struct quant_attn_tile *t) { tile(t, 256, 256); }
static void tile_any(const struct quant_attn_tile *t) { tile(t, t->d, t->dv); }

void attn_f16_tile_avx2(const struct quant_attn_tile *t) {
    if (t->d == 32 && t->dv == 32) tile_32(t);
    else if (t->d == 64 && t->dv == 64) tile_64(t);
    else if (t->d == 128 && t->dv == 128) tile_128(t);
    else if (t->d == 256 && t->dv == 256) tile_256(t);
    else tile_any(t);
}
