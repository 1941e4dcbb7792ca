// test_gguf.c — the GGUF parser against files built in memory by a tiny writer, plus the
// fixtures in tests/data and models/. Every malformed case must fail with a status and a
// message naming the problem; every prefix of a valid file must fail cleanly.
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/gguf.h"
#include "quant/types.h"
#include "test.h"

// ---------------------------------------------------------------------------------------
// A tiny GGUF writer.

struct buf {
    uint8_t *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *src, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        b->p = realloc(b->p, cap);
        if (!b->p) abort();
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, src, n);
    b->n += n;
}
static void put_u8(struct buf *b, uint8_t x) { put(b, &x, 1); }
static void put_u16(struct buf *b, uint16_t x) { put(b, &x, 2); }
static void put_u32(struct buf *b, uint32_t x) { put(b, &x, 4); }
static void put_u64(struct buf *b, uint64_t x) { put(b, &x, 8); }
static void put_f32(struct buf *b, float x) { put(b, &x, 4); }
static void put_f64(struct buf *b, double x) { put(b, &x, 8); }
static void put_strn(struct buf *b, const char *s, size_t n) { put_u64(b, n); put(b, s, n); }
static void put_str(struct buf *b, const char *s) { put_strn(b, s, strlen(s)); }
static void put_zeros(struct buf *b, size_t n) { while (n--) put_u8(b, 0); }

struct w {
    uint32_t version, align;
    struct buf kv, ti, data;
    uint64_t n_kv, n_t;
    int64_t n_kv_override, n_t_override; // -1: use the real counts
    bool no_last_pad;                     // leave the last tensor unpadded
    size_t last_pad;                      // padding added after the last tensor
};

static void w_init(struct w *w) {
    memset(w, 0, sizeof *w);
    w->version = 3;
    w->align = 32;
    w->n_kv_override = w->n_t_override = -1;
}
static void w_free(struct w *w) { free(w->kv.p); free(w->ti.p); free(w->data.p); }

// Key + type; the caller appends the value to w->kv.
static struct buf *w_key(struct w *w, const char *key, uint32_t type) {
    put_str(&w->kv, key);
    put_u32(&w->kv, type);
    w->n_kv++;
    return &w->kv;
}
static void kv_u8(struct w *w, const char *k, uint8_t v) { put_u8(w_key(w, k, GGUF_VT_UINT8), v); }
static void kv_i8(struct w *w, const char *k, int8_t v) { put_u8(w_key(w, k, GGUF_VT_INT8), (uint8_t)v); }
static void kv_u16(struct w *w, const char *k, uint16_t v) { put_u16(w_key(w, k, GGUF_VT_UINT16), v); }
static void kv_i16(struct w *w, const char *k, int16_t v) { put_u16(w_key(w, k, GGUF_VT_INT16), (uint16_t)v); }
static void kv_u32(struct w *w, const char *k, uint32_t v) { put_u32(w_key(w, k, GGUF_VT_UINT32), v); }
static void kv_i32(struct w *w, const char *k, int32_t v) { put_u32(w_key(w, k, GGUF_VT_INT32), (uint32_t)v); }
static void kv_f32(struct w *w, const char *k, float v) { put_f32(w_key(w, k, GGUF_VT_FLOAT32), v); }
static void kv_bool(struct w *w, const char *k, uint8_t v) { put_u8(w_key(w, k, GGUF_VT_BOOL), v); }
static void kv_str(struct w *w, const char *k, const char *v) { put_str(w_key(w, k, GGUF_VT_STRING), v); }
static void kv_u64(struct w *w, const char *k, uint64_t v) { put_u64(w_key(w, k, GGUF_VT_UINT64), v); }
static void kv_i64(struct w *w, const char *k, int64_t v) { put_u64(w_key(w, k, GGUF_VT_INT64), (uint64_t)v); }
static void kv_f64(struct w *w, const char *k, double v) { put_f64(w_key(w, k, GGUF_VT_FLOAT64), v); }
// Array header; the caller appends n elements.
static struct buf *kv_arr(struct w *w, const char *k, uint32_t et, uint64_t n) {
    struct buf *b = w_key(w, k, GGUF_VT_ARRAY);
    put_u32(b, et);
    put_u64(b, n);
    return b;
}

static uint8_t pattern(uint64_t t, uint64_t i) { return (uint8_t)(t * 131 + i * 7 + 1); }

// Tensor info at an explicit offset; data is appended to the blob only when `data` is set.
static void w_tensor_raw(struct w *w, const char *name, uint32_t n_dims, const int64_t *ne, uint32_t type,
                         uint64_t offset) {
    put_str(&w->ti, name);
    put_u32(&w->ti, n_dims);
    for (uint32_t d = 0; d < n_dims && d < 5; d++) put_u64(&w->ti, (uint64_t)ne[d]); // callers pass <= 5 dims
    put_u32(&w->ti, type);
    put_u64(&w->ti, offset);
    w->n_t++;
}

static uint64_t nbytes_of(uint32_t n_dims, const int64_t *ne, uint32_t type) {
    const struct ggml_type_geom *g = ggml_type_geom(type);
    if (n_dims == 0) return (uint64_t)g->size; // a scalar: all dims are 1
    uint64_t nb = (uint64_t)(ne[0] / g->blck) * (uint64_t)g->size;
    for (uint32_t d = 1; d < n_dims; d++) nb *= (uint64_t)ne[d];
    return nb;
}

// A well-formed tensor: info at the running offset, pattern data, padding to the alignment.
static void w_tensor(struct w *w, const char *name, uint32_t n_dims, const int64_t *ne, uint32_t type) {
    uint64_t nb = nbytes_of(n_dims, ne, type);
    w_tensor_raw(w, name, n_dims, ne, type, w->data.n);
    for (uint64_t i = 0; i < nb; i++) put_u8(&w->data, pattern(w->n_t - 1, i));
    size_t pad = (size_t)((w->align - nb % w->align) % w->align);
    put_zeros(&w->data, pad);
    w->last_pad = pad;
}

// The whole file; the caller frees it. *n gets its size.
static uint8_t *w_finish(struct w *w, size_t *n) {
    struct buf f = {0};
    put_u32(&f, 0x46554747u);
    put_u32(&f, w->version);
    put_u64(&f, w->n_t_override >= 0 ? (uint64_t)w->n_t_override : w->n_t);
    put_u64(&f, w->n_kv_override >= 0 ? (uint64_t)w->n_kv_override : w->n_kv);
    put(&f, w->kv.p, w->kv.n);
    put(&f, w->ti.p, w->ti.n);
    if (w->n_t) put_zeros(&f, (w->align - f.n % w->align) % w->align);
    size_t dn = w->data.n - (w->no_last_pad ? w->last_pad : 0);
    put(&f, w->data.p, dn);
    *n = f.n;
    return f.p;
}

// ---------------------------------------------------------------------------------------
// Helpers for checking outcomes.

// Parses a private exact-size copy (so an overread is an overread under ASan).
static frink_status parse_copy(const uint8_t *p, size_t n, struct gguf_file **out, uint8_t **copy) {
    *copy = malloc(n ? n : 1);
    if (n) memcpy(*copy, p, n);
    return gguf_parse(*copy, n, out);
}

// Finishes w, parses, expects failure with `want` status and `msg` in the message.
static void expect_fail_w(struct w *w, frink_status want, const char *msg, const char *what) {
    size_t n;
    uint8_t *p = w_finish(w, &n), *copy;
    struct gguf_file *f = (struct gguf_file *)1;
    frink_status st = parse_copy(p, n, &f, &copy);
    CHECK(st == want, "%s: status %d (%s), want %d; msg: %s", what, st, frink_status_name(st), want, frink_errmsg());
    CHECK(f == NULL, "%s: *out not NULL on failure", what);
    CHECK(strstr(frink_errmsg(), msg) != NULL, "%s: message '%s' lacks '%s'", what, frink_errmsg(), msg);
    if (!st) gguf_close(f);
    free(copy);
    free(p);
    w_free(w);
}

static struct gguf_file *expect_ok_w(struct w *w, uint8_t **keep, const char *what) {
    size_t n;
    uint8_t *p = w_finish(w, &n);
    struct gguf_file *f = NULL;
    frink_status st = gguf_parse(p, n, &f);
    CHECK(st == FRINK_OK, "%s: %s", what, frink_errmsg());
    w_free(w);
    *keep = p;
    return st ? NULL : f;
}

static const int64_t NE_8x4[] = {8, 4};
static const int64_t NE_64[] = {64};

// A minimal valid prefix for tensor tests: one KV.
static void w_base(struct w *w) {
    w_init(w);
    kv_str(w, "general.architecture", "llama");
}

// ---------------------------------------------------------------------------------------
// A valid file with every value type.

static void build_full(struct w *w, uint32_t version, uint32_t align) {
    w_init(w);
    w->version = version;
    w->align = align;
    kv_str(w, "general.architecture", "llama");
    if (align != 32) kv_u32(w, "general.alignment", align);
    kv_u8(w, "t.u8", 250);
    kv_i8(w, "t.i8", -100);
    kv_u16(w, "t.u16", 65000);
    kv_i16(w, "t.i16", -32000);
    kv_u32(w, "t.u32", 4000000000u);
    kv_i32(w, "t.i32", -2000000000);
    kv_f32(w, "t.f32", 1.5f);
    kv_bool(w, "t.bool", 1);
    kv_bool(w, "t.bool7", 7); // any non-zero byte is true
    kv_bool(w, "t.bool0", 0);
    kv_str(w, "t.str", "h\xc3\xa9llo");
    kv_str(w, "t.empty", "");
    kv_u64(w, "t.u64", 0xfedcba9876543210ull);
    kv_u64(w, "t.u64small", 77);
    kv_i64(w, "t.i64", -1234567890123ll);
    kv_f64(w, "t.f64", -0.125);
    struct buf *b;
    b = kv_arr(w, "a.u8", GGUF_VT_UINT8, 3); put_u8(b, 0); put_u8(b, 128); put_u8(b, 255);
    b = kv_arr(w, "a.i8", GGUF_VT_INT8, 2); put_u8(b, (uint8_t)-128); put_u8(b, 127);
    b = kv_arr(w, "a.u16", GGUF_VT_UINT16, 2); put_u16(b, 1); put_u16(b, 65535);
    b = kv_arr(w, "a.i16", GGUF_VT_INT16, 2); put_u16(b, (uint16_t)-32768); put_u16(b, 5);
    b = kv_arr(w, "a.u32", GGUF_VT_UINT32, 2); put_u32(b, 4294967295u); put_u32(b, 9);
    b = kv_arr(w, "a.i32", GGUF_VT_INT32, 3); put_u32(b, (uint32_t)-7); put_u32(b, 0); put_u32(b, 7);
    b = kv_arr(w, "a.f32", GGUF_VT_FLOAT32, 3); put_f32(b, 0.5f); put_f32(b, -2.75f); put_f32(b, NAN);
    b = kv_arr(w, "a.bool", GGUF_VT_BOOL, 3); put_u8(b, 0); put_u8(b, 1); put_u8(b, 2);
    b = kv_arr(w, "a.u64", GGUF_VT_UINT64, 2); put_u64(b, 1ull << 40); put_u64(b, UINT64_MAX);
    b = kv_arr(w, "a.i64", GGUF_VT_INT64, 2); put_u64(b, (uint64_t)INT64_MIN); put_u64(b, 42);
    b = kv_arr(w, "a.f64", GGUF_VT_FLOAT64, 2); put_f64(b, 1e300); put_f64(b, -3.5);
    b = kv_arr(w, "a.str", GGUF_VT_STRING, 4);
    put_str(b, "<s>"); put_str(b, ""); put_str(b, "\xe2\x96\x81the"); put_strn(b, "a\0b", 3);
    kv_arr(w, "a.empty", GGUF_VT_INT32, 0);
    kv_arr(w, "a.emptystr", GGUF_VT_STRING, 0);

    static const int64_t ne_q[] = {64, 3}, ne_v[] = {5}, ne_k[] = {256, 1, 2}, ne_z[] = {0, 4},
                         ne_4[] = {2, 3, 1, 2}, ne_nv[] = {64};
    w_tensor(w, "token_embd.weight", 2, NE_8x4, GGML_TYPE_F32);
    w_tensor(w, "blk.0.attn_q.weight", 2, ne_q, GGML_TYPE_Q8_0);
    w_tensor(w, "output_norm.weight", 1, ne_v, GGML_TYPE_F16);
    w_tensor(w, "blk.0.ffn_down.weight", 3, ne_k, GGML_TYPE_Q4_K);
    w_tensor(w, "empty", 2, ne_z, GGML_TYPE_F32);
    w_tensor(w, "scalar", 0, NULL, GGML_TYPE_F32);
    w_tensor(w, "four.d", 4, ne_4, GGML_TYPE_BF16);
    w_tensor(w, "nv", 1, ne_nv, GGML_TYPE_NVFP4);
    // A 63-byte name is the longest allowed.
    w_tensor(w, "n23456789012345678901234567890123456789012345678901234567890123", 1, ne_v, GGML_TYPE_I8);
}

static void test_valid(uint32_t version, uint32_t align) {
    char what[64];
    snprintf(what, sizeof what, "valid v%u align %u", version, align);
    struct w w;
    build_full(&w, version, align);
    size_t data_bytes = w.data.n;
    uint8_t *buf;
    struct gguf_file *f = expect_ok_w(&w, &buf, what);
    if (!f) { free(buf); return; }
    CHECK(f->version == version, "%s: version %u", what, f->version);
    CHECK(f->alignment == align, "%s: alignment %u", what, f->alignment);
    CHECK(f->data_offset % align == 0, "%s: data_offset %llu", what, (unsigned long long)f->data_offset);
    CHECK(f->data_offset + data_bytes == f->size, "%s: data section size", what);
    CHECK(f->n_kv == (align != 32 ? 32u : 31u), "%s: n_kv %llu", what, (unsigned long long)f->n_kv);
    CHECK(f->n_tensors == 9, "%s: n_tensors %llu", what, (unsigned long long)f->n_tensors);
    CHECK(f->base == buf && !f->mapped && !f->path, "%s: buffer ownership", what);
    // Pairs keep file order.
    CHECK(gguf_str_eq(f->kv[0].key, "general.architecture") && f->kv[0].type == GGUF_VT_STRING, "%s: kv order", what);
    CHECK(gguf_str_eq(f->kv[0].v.str, "llama"), "%s: kv[0] value", what);

    // Getters: integers.
    uint32_t u32 = 0;
    int64_t i64 = 0;
    CHECK(!gguf_get_u32(f, "t.u8", &u32) && u32 == 250, "u8 -> %u", u32);
    CHECK(!gguf_get_u32(f, "t.u16", &u32) && u32 == 65000, "u16 -> %u", u32);
    CHECK(!gguf_get_u32(f, "t.u32", &u32) && u32 == 4000000000u, "u32 -> %u", u32);
    CHECK(!gguf_get_u32(f, "t.u64small", &u32) && u32 == 77, "u64 -> %u", u32);
    CHECK(!gguf_get_u32(f, "t.bool", &u32) && u32 == 1, "bool -> %u", u32);
    CHECK(!gguf_get_i64(f, "t.i8", &i64) && i64 == -100, "i8 -> %lld", (long long)i64);
    CHECK(!gguf_get_i64(f, "t.i16", &i64) && i64 == -32000, "i16 -> %lld", (long long)i64);
    CHECK(!gguf_get_i64(f, "t.i32", &i64) && i64 == -2000000000, "i32 -> %lld", (long long)i64);
    CHECK(!gguf_get_i64(f, "t.i64", &i64) && i64 == -1234567890123ll, "i64 -> %lld", (long long)i64);
    CHECK(!gguf_get_i64(f, "t.u32", &i64) && i64 == 4000000000ll, "u32 as i64 -> %lld", (long long)i64);
    u32 = 12345;
    frink_status st = gguf_get_u32(f, "t.i8", &u32);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "t.i8") && strstr(frink_errmsg(), "out of range") && u32 == 12345,
          "negative into u32: %d %s", st, frink_errmsg());
    st = gguf_get_u32(f, "t.u64", &u32);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "t.u64"), "u64 too big for u32: %d %s", st, frink_errmsg());
    st = gguf_get_i64(f, "t.u64", &i64);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "out of range"), "u64 > INT64_MAX: %d %s", st, frink_errmsg());
    st = gguf_get_u32(f, "t.str", &u32);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "'t.str' has type string"), "str as int: %s", frink_errmsg());
    st = gguf_get_i64(f, "t.f32", &i64);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "float32"), "float as int: %s", frink_errmsg());
    st = gguf_get_u32(f, "no.such.key", &u32);
    CHECK(st == FRINK_ERR_ARG && strstr(frink_errmsg(), "'no.such.key' is missing"), "missing: %d %s", st, frink_errmsg());

    // Floats, bools, strings.
    float f32 = 0;
    CHECK(!gguf_get_f32(f, "t.f32", &f32) && f32 == 1.5f, "f32 -> %g", f32);
    CHECK(!gguf_get_f32(f, "t.f64", &f32) && f32 == -0.125f, "f64 -> %g", f32);
    st = gguf_get_f32(f, "t.u32", &f32);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "expected float32"), "int as float: %s", frink_errmsg());
    CHECK(gguf_get_f32(f, "nope", &f32) == FRINK_ERR_ARG, "missing float");
    bool bl = false;
    CHECK(!gguf_get_bool(f, "t.bool", &bl) && bl, "bool 1");
    CHECK(!gguf_get_bool(f, "t.bool7", &bl) && bl, "bool 7 reads true");
    CHECK(!gguf_get_bool(f, "t.bool0", &bl) && !bl, "bool 0");
    st = gguf_get_bool(f, "t.u8", &bl);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "expected bool"), "u8 as bool: %s", frink_errmsg());
    CHECK(gguf_get_bool(f, "nope", &bl) == FRINK_ERR_ARG, "missing bool");
    char s[32];
    CHECK(!gguf_get_str(f, "t.str", s, sizeof s) && !strcmp(s, "h\xc3\xa9llo"), "str -> '%s'", s);
    CHECK(!gguf_get_str(f, "t.str", s, 3) && !strcmp(s, "h\xc3"), "truncated str -> '%s'", s);
    CHECK(!gguf_get_str(f, "t.str", s, 1) && s[0] == 0, "cap 1");
    CHECK(gguf_get_str(f, "t.str", s, 0) == FRINK_ERR_ARG, "cap 0 refused");
    CHECK(!gguf_get_str(f, "t.empty", s, sizeof s) && s[0] == 0, "empty string value");
    st = gguf_get_str(f, "t.u8", s, sizeof s);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "expected string"), "u8 as str: %s", frink_errmsg());
    CHECK(gguf_get_str(f, "nope", s, sizeof s) == FRINK_ERR_ARG, "missing str");
    const struct gguf_kv *kv = gguf_find(f, "t.u64");
    CHECK(kv && kv->type == GGUF_VT_UINT64 && kv->v.u64 == 0xfedcba9876543210ull, "raw u64");
    kv = gguf_find(f, "t.f64");
    CHECK(kv && kv->type == GGUF_VT_FLOAT64 && kv->v.f64 == -0.125, "raw f64");
    CHECK(gguf_find(f, "t.u") == NULL && gguf_find(f, "t.u80") == NULL, "find is exact");

    // Arrays of every element type.
    struct { const char *key; enum gguf_vtype et; uint64_t n; int64_t i[3]; double d[3]; } arrs[] = {
        {"a.u8", GGUF_VT_UINT8, 3, {0, 128, 255}, {0, 128, 255}},
        {"a.i8", GGUF_VT_INT8, 2, {-128, 127}, {-128, 127}},
        {"a.u16", GGUF_VT_UINT16, 2, {1, 65535}, {1, 65535}},
        {"a.i16", GGUF_VT_INT16, 2, {-32768, 5}, {-32768, 5}},
        {"a.u32", GGUF_VT_UINT32, 2, {4294967295ll, 9}, {4294967295.0, 9}},
        {"a.i32", GGUF_VT_INT32, 3, {-7, 0, 7}, {-7, 0, 7}},
        {"a.f32", GGUF_VT_FLOAT32, 3, {0, -2, 0}, {0.5, -2.75, 0}},
        {"a.bool", GGUF_VT_BOOL, 3, {0, 1, 1}, {0, 1, 1}},
        {"a.u64", GGUF_VT_UINT64, 2, {1ll << 40, -1}, {1099511627776.0, 18446744073709551615.0}},
        {"a.i64", GGUF_VT_INT64, 2, {INT64_MIN, 42}, {-9223372036854775808.0, 42}},
        {"a.f64", GGUF_VT_FLOAT64, 2, {INT64_MAX, -3}, {1e300, -3.5}},
    };
    for (size_t a = 0; a < sizeof arrs / sizeof arrs[0]; a++) {
        kv = gguf_find(f, arrs[a].key);
        CHECK(kv && kv->type == GGUF_VT_ARRAY && kv->v.arr.type == arrs[a].et && kv->v.arr.n == arrs[a].n,
              "%s: array header", arrs[a].key);
        if (!kv) continue;
        CHECK((const uint8_t *)kv->v.arr.data > buf && (const uint8_t *)kv->v.arr.data < buf + f->size,
              "%s: array data points into the buffer", arrs[a].key);
        for (uint64_t i = 0; i < arrs[a].n; i++) {
            int64_t gi = gguf_arr_i64(kv, i);
            double gd = gguf_arr_f64(kv, i);
            bool nan_ok = arrs[a].et == GGUF_VT_FLOAT32 && i == 2 && isnan(gd) && gi == 0; // NaN -> 0
            CHECK(gi == arrs[a].i[i] || nan_ok, "%s[%llu] i64 = %lld", arrs[a].key, (unsigned long long)i, (long long)gi);
            CHECK(gd == arrs[a].d[i] || nan_ok, "%s[%llu] f64 = %g", arrs[a].key, (unsigned long long)i, gd);
        }
        CHECK(gguf_arr_i64(kv, arrs[a].n) == 0 && gguf_arr_f64(kv, arrs[a].n) == 0, "%s: index n refused", arrs[a].key);
    }
    kv = gguf_find(f, "a.str");
    CHECK(kv && kv->type == GGUF_VT_ARRAY && kv->v.arr.type == GGUF_VT_STRING && kv->v.arr.n == 4, "string array");
    if (kv) {
        CHECK(gguf_str_eq(kv->v.arr.strs[0], "<s>"), "strs[0]");
        CHECK(kv->v.arr.strs[1].len == 0, "strs[1] empty");
        CHECK(gguf_str_eq(kv->v.arr.strs[2], "\xe2\x96\x81the"), "strs[2]");
        CHECK(kv->v.arr.strs[3].len == 3 && !memcmp(kv->v.arr.strs[3].ptr, "a\0b", 3), "strs[3] with NUL");
        CHECK((const uint8_t *)kv->v.arr.strs[0].ptr > buf && (const uint8_t *)kv->v.arr.strs[0].ptr < buf + f->size,
              "strings point into the buffer");
        CHECK(gguf_arr_i64(kv, 0) == 0 && gguf_arr_f64(kv, 0) == 0, "numeric getter on a string array gives 0");
    }
    kv = gguf_find(f, "a.empty");
    CHECK(kv && kv->type == GGUF_VT_ARRAY && kv->v.arr.n == 0 && gguf_arr_i64(kv, 0) == 0, "empty array");
    kv = gguf_find(f, "a.emptystr");
    CHECK(kv && kv->type == GGUF_VT_ARRAY && kv->v.arr.type == GGUF_VT_STRING && kv->v.arr.n == 0, "empty string array");
    CHECK(gguf_arr_i64(gguf_find(f, "t.u8"), 0) == 0 && gguf_arr_i64(NULL, 0) == 0, "numeric getter on a non-array gives 0");

    // Tensors: shapes, sizes, zero-copy aligned data with the written bytes.
    static const struct { const char *name; uint32_t n_dims; int64_t ne[4]; uint32_t type; uint64_t nbytes; } ts[] = {
        {"token_embd.weight", 2, {8, 4, 1, 1}, GGML_TYPE_F32, 128},
        {"blk.0.attn_q.weight", 2, {64, 3, 1, 1}, GGML_TYPE_Q8_0, 2 * 34 * 3},
        {"output_norm.weight", 1, {5, 1, 1, 1}, GGML_TYPE_F16, 10},
        {"blk.0.ffn_down.weight", 3, {256, 1, 2, 1}, GGML_TYPE_Q4_K, 288},
        {"empty", 2, {0, 4, 1, 1}, GGML_TYPE_F32, 0},
        {"scalar", 0, {1, 1, 1, 1}, GGML_TYPE_F32, 4},
        {"four.d", 4, {2, 3, 1, 2}, GGML_TYPE_BF16, 24},
        {"nv", 1, {64, 1, 1, 1}, GGML_TYPE_NVFP4, 36},
        {"n23456789012345678901234567890123456789012345678901234567890123", 1, {5, 1, 1, 1}, GGML_TYPE_I8, 5},
    };
    uint64_t expect_off = 0;
    for (uint64_t i = 0; i < f->n_tensors && i < 9; i++) {
        const struct gguf_tensor *t = &f->tensors[i];
        CHECK(!strcmp(t->name, ts[i].name), "tensor %llu name '%s'", (unsigned long long)i, t->name);
        CHECK(t->n_dims == ts[i].n_dims && !memcmp(t->ne, ts[i].ne, sizeof t->ne), "'%s' shape", t->name);
        CHECK(t->type == ts[i].type, "'%s' type %u", t->name, t->type);
        CHECK(t->nbytes == ts[i].nbytes, "'%s' nbytes %llu", t->name, (unsigned long long)t->nbytes);
        CHECK(t->offset == expect_off, "'%s' offset %llu", t->name, (unsigned long long)t->offset);
        expect_off += (t->nbytes + align - 1) / align * align;
        const uint8_t *d = t->data;
        CHECK(d == buf + f->data_offset + t->offset, "'%s' data is zero-copy", t->name);
        CHECK((size_t)(d - buf) % align == 0, "'%s' data aligned to %u", t->name, align);
        bool same = true;
        for (uint64_t k = 0; k < t->nbytes; k++) same &= d[k] == pattern(i, k);
        CHECK(same, "'%s' data bytes", t->name);
        CHECK(gguf_find_tensor(f, t->name) == t && gguf_tensor_index(f, t->name) == (int64_t)i, "'%s' lookup", t->name);
    }
    CHECK(gguf_find_tensor(f, "token_embd") == NULL && gguf_tensor_index(f, "missing") == -1, "tensor lookup is exact");
    gguf_close(f);
    free(buf);
}

// ---------------------------------------------------------------------------------------
// Every prefix of a valid file must fail cleanly.

static void test_truncation(void) {
    // File A: the last tensor ends exactly at an alignment boundary, so every proper prefix
    // is missing bytes the parser needs.
    struct w w;
    build_full(&w, 3, 32);
    static const int64_t ne_last[] = {8};
    w_tensor(&w, "last", 1, ne_last, GGML_TYPE_F32); // 32 bytes: no padding
    size_t n;
    uint8_t *p = w_finish(&w, &n);
    w_free(&w);
    struct gguf_file *f;
    uint8_t *copy;
    CHECK(parse_copy(p, n, &f, &copy) == FRINK_OK, "full file parses: %s", frink_errmsg());
    if (f) gguf_close(f);
    free(copy);
    int bad = 0;
    for (size_t len = 0; len < n; len++) {
        f = (struct gguf_file *)1;
        frink_status st = parse_copy(p, len, &f, &copy);
        if (st != FRINK_ERR_FORMAT || f != NULL || !frink_errmsg()[0]) {
            if (bad++ < 5) CHECK(0, "prefix %zu of %zu: status %d msg '%s'", len, n, st, frink_errmsg());
            if (!st) gguf_close(f);
        }
        free(copy);
    }
    CHECK(bad == 0, "%d of %zu prefixes did not fail with FRINK_ERR_FORMAT", bad, n);
    free(p);

    // File B: like llama.cpp's mmap loader, the final tensor's trailing padding is not
    // required; every prefix shorter than the end of the last tensor's bytes fails.
    build_full(&w, 2, 64);
    uint64_t last_pad = w.last_pad;
    p = w_finish(&w, &n);
    w_free(&w);
    CHECK(last_pad > 0, "file B ends with padding");
    bad = 0;
    for (size_t len = 0; len <= n; len++) {
        frink_status st = parse_copy(p, len, &f, &copy);
        bool want_ok = len >= n - last_pad;
        if (want_ok ? st != FRINK_OK : st != FRINK_ERR_FORMAT) {
            if (bad++ < 5) CHECK(0, "prefix %zu of %zu: status %d msg '%s'", len, n, st, frink_errmsg());
        }
        if (!st) gguf_close(f);
        free(copy);
    }
    CHECK(bad == 0, "%d prefixes of file B misbehaved", bad);
    if (n > last_pad + 1) {
        frink_status st = parse_copy(p, n - last_pad - 1, &f, &copy);
        CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "runs past the end of the file"), "last byte missing: %s", frink_errmsg());
        free(copy);
    }
    free(p);
}

// ---------------------------------------------------------------------------------------
// Malformed files, one problem each.

static void header_case(uint32_t magic, uint32_t version, uint64_t n_t, uint64_t n_kv, frink_status want, const char *msg) {
    struct buf b = {0};
    put_u32(&b, magic);
    put_u32(&b, version);
    put_u64(&b, n_t);
    put_u64(&b, n_kv);
    put_zeros(&b, 200);
    struct gguf_file *f = (struct gguf_file *)1;
    frink_status st = gguf_parse(b.p, b.n, &f);
    CHECK(st == want && (st ? f == NULL : f != NULL), "header %08x v%08x: status %d want %d (%s)", magic, version, st, want, frink_errmsg());
    CHECK(strstr(frink_errmsg(), msg), "header %08x v%08x: '%s' lacks '%s'", magic, version, frink_errmsg(), msg);
    if (!st) gguf_close(f);
    free(b.p);
}

static void test_header(void) {
    header_case(0x46554747u, 3, 0, 0, FRINK_OK, "");
    header_case(0x46554747u, 2, 0, 0, FRINK_OK, "");
    header_case(0x47475546u, 3, 0, 0, FRINK_ERR_FORMAT, "bad magic");
    header_case(0x00000000u, 3, 0, 0, FRINK_ERR_FORMAT, "not a GGUF file");
    header_case(0x46554747u, 0, 0, 0, FRINK_ERR_FORMAT, "version 0");
    header_case(0x46554747u, 1, 0, 0, FRINK_ERR_UNSUPPORTED, "version 1 is no longer supported");
    header_case(0x46554747u, 4, 0, 0, FRINK_ERR_UNSUPPORTED, "version 4 is not supported");
    header_case(0x46554747u, 0x03000000u, 0, 0, FRINK_ERR_FORMAT, "big-endian");
    header_case(0x46554747u, 0x02000000u, 0, 0, FRINK_ERR_FORMAT, "big-endian");
    header_case(0x46554747u, 3, 0, 1ull << 40, FRINK_ERR_FORMAT, "metadata count");
    header_case(0x46554747u, 3, 0, UINT64_MAX, FRINK_ERR_FORMAT, "metadata count");
    header_case(0x46554747u, 3, 1ull << 40, 0, FRINK_ERR_FORMAT, "tensor count");
    header_case(0x46554747u, 3, UINT64_MAX, 0, FRINK_ERR_FORMAT, "tensor count");
    // Counts within the file's bound but larger than what is there: truncation, not a crash.
    header_case(0x46554747u, 3, 0, 10, FRINK_ERR_FORMAT, "metadata pair");
    header_case(0x46554747u, 3, 9, 0, FRINK_ERR_FORMAT, "truncated");
    struct gguf_file *f = (struct gguf_file *)1;
    CHECK(gguf_parse("GG", 2, &f) == FRINK_ERR_FORMAT && !f && strstr(frink_errmsg(), "too short"), "2-byte file: %s", frink_errmsg());
    CHECK(gguf_parse("", 0, &f) == FRINK_ERR_FORMAT && !f, "empty buffer");
}

static void test_kv_errors(void) {
    struct w w;
    struct buf *b;

    w_init(&w);
    kv_u32(&w, "", 1);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "empty key", "empty key");

    w_init(&w);
    put_u64(&w.kv, 1ull << 40); // key length 1 TiB
    w.n_kv = 1;
    put_zeros(&w.kv, 64);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "string length 1099511627776 is absurd", "absurd key length");

    w_init(&w);
    put_u64(&w.kv, 50); // longer than the rest of the file
    put(&w.kv, "abc", 3);
    w.n_kv = 1;
    expect_fail_w(&w, FRINK_ERR_FORMAT, "runs past the end", "key past EOF");

    w_init(&w);
    b = w_key(&w, "big.str", GGUF_VT_STRING);
    put_u64(b, (1ull << 30) + 1);
    put_zeros(b, 32);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "big.str': string length 1073741825 is absurd", "absurd string value length");

    w_init(&w);
    b = w_key(&w, "s", GGUF_VT_STRING);
    put_u64(b, UINT64_MAX);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "is absurd", "string length -1");

    w_init(&w);
    put_u32(w_key(&w, "bad.type", 13), 0);
    put_zeros(&w.kv, 16);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'bad.type': invalid value type 13", "invalid value type");

    w_init(&w);
    put_u32(w_key(&w, "bad.type", 0xffffffffu), 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "invalid value type 4294967295", "invalid value type -1");

    w_init(&w);
    b = kv_arr(&w, "nested", GGUF_VT_ARRAY, 1);
    put_u32(b, GGUF_VT_INT32);
    put_u64(b, 1);
    put_u32(b, 5);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "nested arrays", "nested array");

    w_init(&w);
    b = kv_arr(&w, "arr.badtype", 20, 1);
    put_u32(b, 5);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "invalid array element type 20", "invalid array element type");

    w_init(&w);
    b = kv_arr(&w, "arr.huge", GGUF_VT_UINT8, (1ull << 30) + 1);
    put_zeros(b, 16);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "array count 1073741825 is absurd", "absurd array count");

    w_init(&w);
    b = kv_arr(&w, "arr.short", GGUF_VT_INT64, 10);
    put_zeros(b, 72); // 9 of 10 elements
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'arr.short': array truncated", "truncated array");

    w_init(&w);
    b = kv_arr(&w, "arr.strs", GGUF_VT_STRING, 1000);
    put_str(b, "only one");
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'arr.strs': string array truncated", "string array count past EOF");

    w_init(&w);
    b = kv_arr(&w, "arr.strs", GGUF_VT_STRING, 3);
    put_str(b, "a");
    put_u64(b, 1000); // second string runs past the end
    put_zeros(b, 16);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "array string 1: string of 1000 bytes runs past the end", "array string past EOF");

    w_init(&w);
    b = kv_arr(&w, "arr.strs", GGUF_VT_STRING, 2);
    put_str(b, "a");
    put_u64(b, 1ull << 31);
    put_zeros(b, 16);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "array string 1: string length 2147483648 is absurd", "absurd array string length");

    w_init(&w);
    kv_u32(&w, "dup", 1);
    kv_str(&w, "other", "x");
    kv_u32(&w, "dup", 2);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "duplicate metadata key 'dup'", "duplicate key");

    w_init(&w); // duplicates of different types are still duplicates; many keys exercise the sort
    for (int i = 0; i < 300; i++) {
        char k[32];
        snprintf(k, sizeof k, "key.%03d", (i * 37) % 300);
        kv_u32(&w, k, (uint32_t)i);
    }
    kv_str(&w, "key.123", "again");
    expect_fail_w(&w, FRINK_ERR_FORMAT, "duplicate metadata key 'key.123'", "duplicate key among many");

    w_init(&w); // keys that differ only after a prefix are not duplicates
    kv_u32(&w, "a", 1);
    kv_u32(&w, "ab", 2);
    kv_u32(&w, "b", 3);
    {
        uint8_t *keep;
        struct gguf_file *f = expect_ok_w(&w, &keep, "prefix keys");
        if (f) gguf_close(f);
        free(keep);
    }

    // general.alignment: UINT32, non-zero, power of two.
    w_init(&w);
    kv_u64(&w, "general.alignment", 64);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "general.alignment has type uint64, expected uint32", "alignment u64");
    w_init(&w);
    kv_i32(&w, "general.alignment", 64);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "general.alignment has type int32", "alignment i32");
    w_init(&w);
    kv_str(&w, "general.alignment", "64");
    expect_fail_w(&w, FRINK_ERR_FORMAT, "general.alignment has type string", "alignment string");
    w_init(&w);
    kv_u32(&w, "general.alignment", 48);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "general.alignment 48 is not a power of two", "alignment 48");
    w_init(&w);
    kv_u32(&w, "general.alignment", 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "general.alignment 0 is not a power of two", "alignment 0");

    // Scalar value cut short.
    w_init(&w);
    w_key(&w, "cut", GGUF_VT_UINT64);
    put_u32(&w.kv, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'cut': value truncated", "truncated scalar");
}

static void test_tensor_errors(void) {
    struct w w;
    static const int64_t ne_neg[] = {8, -1}, ne_big[] = {1ll << 32, 1ll << 32}, ne_4g[] = {1ll << 62},
                         ne_f64[] = {1ll << 61}, ne_33[] = {33}, ne_5[] = {1, 1, 1, 1, 1}, ne_32[] = {32};

    for (uint32_t type = 0; type < 300; type++) {
        if (ggml_type_geom(type)) continue;
        if (type > 45 && type != 255 && type != 299) continue;
        char msg[64];
        snprintf(msg, sizeof msg, "unknown or retired type id %u", type);
        w_base(&w);
        w_tensor_raw(&w, "w", 1, ne_32, type, 0);
        put_zeros(&w.data, 256);
        expect_fail_w(&w, FRINK_ERR_FORMAT, msg, msg);
    }
    w_base(&w);
    w_tensor_raw(&w, "w", 1, ne_32, 0xffffffffu, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "type id 4294967295", "type id -1");

    w_base(&w);
    w_tensor_raw(&w, "w", 5, ne_5, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'w': 5 dimensions (max 4)", "too many dims");
    w_base(&w);
    w_tensor_raw(&w, "w", 0xffffffffu, ne_5, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "dimensions (max 4)", "n_dims -1");

    w_base(&w);
    w_tensor_raw(&w, "w", 2, ne_neg, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'w': negative dimension -1", "negative dim");

    w_base(&w);
    w_tensor_raw(&w, "w", 2, ne_big, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'w': element count overflows", "element count overflow");

    // Regression: the element count fits in int64 but the byte size does not (2^62 F32 = 2^64
    // bytes wrapped to 0 and the tensor was accepted with nbytes 0).
    w_base(&w);
    w_tensor_raw(&w, "w", 1, ne_4g, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "'w': byte size overflows", "byte size overflow F32");
    w_base(&w);
    w_tensor_raw(&w, "w", 1, ne_f64, GGML_TYPE_F64, 0); // 2^61 x 8 bytes
    expect_fail_w(&w, FRINK_ERR_FORMAT, "byte size overflows", "byte size overflow F64");
    {
        static const int64_t ne_hi[] = {1ll << 30, 1ll << 30, 4}; // 2^62 elements, 2^64 bytes
        w_base(&w);
        w_tensor_raw(&w, "w", 3, ne_hi, GGML_TYPE_F32, 0);
        expect_fail_w(&w, FRINK_ERR_FORMAT, "byte size overflows", "byte size overflow in dims");
    }
    // A large but representable tensor is refused as running past the end, not overflowed.
    {
        static const int64_t ne_l[] = {1ll << 40};
        w_base(&w);
        w_tensor_raw(&w, "w", 1, ne_l, GGML_TYPE_F32, 0);
        expect_fail_w(&w, FRINK_ERR_FORMAT, "runs past the end", "huge tensor");
    }

    w_base(&w);
    w_tensor_raw(&w, "w", 1, ne_33, GGML_TYPE_Q4_0, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "row length 33 is not a multiple of Q4_0's block of 32", "row not multiple of block");
    {
        static const int64_t ne_k[] = {128, 2};
        w_base(&w);
        w_tensor_raw(&w, "w", 2, ne_k, GGML_TYPE_Q6_K, 0);
        expect_fail_w(&w, FRINK_ERR_FORMAT, "not a multiple of Q6_K's block of 256", "K-quant row");
    }

    w_base(&w);
    w_tensor(&w, "n234567890123456789012345678901234567890123456789012345678901234", 1, NE_64, GGML_TYPE_F32);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "name of 64 bytes is too long", "name of 64 bytes");
    w_base(&w);
    put_u64(&w.ti, 1000);
    put_zeros(&w.ti, 1100);
    w.n_t = 1;
    expect_fail_w(&w, FRINK_ERR_FORMAT, "name of 1000 bytes is too long", "name of 1000 bytes");
    w_base(&w);
    put_u64(&w.ti, 1ull << 50);
    w.n_t = 1;
    put_zeros(&w.ti, 40);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor info 0: name: string length", "absurd name length");
    w_base(&w);
    put_strn(&w.ti, "a\0b", 3);
    put_u32(&w.ti, 1);
    put_u64(&w.ti, 8);
    put_u32(&w.ti, 0);
    put_u64(&w.ti, 0);
    w.n_t = 1;
    put_zeros(&w.data, 32);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "NUL", "name with NUL");

    w_base(&w);
    w_tensor(&w, "a", 2, NE_8x4, GGML_TYPE_F32);
    w_tensor(&w, "b", 1, NE_64, GGML_TYPE_F32);
    w_tensor(&w, "a", 1, NE_64, GGML_TYPE_F32);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "duplicate tensor name 'a'", "duplicate tensor name");
    w_base(&w);
    for (int i = 0; i < 200; i++) {
        char name[32];
        snprintf(name, sizeof name, "blk.%d.w", (i * 17) % 200);
        w_tensor(&w, name, 1, NE_64, GGML_TYPE_F32);
    }
    w_tensor(&w, "blk.77.w", 1, NE_64, GGML_TYPE_F32);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "duplicate tensor name 'blk.77.w'", "duplicate among many");

    // Offsets: the first tensor at 0, each next one right after the previous, padded.
    w_base(&w);
    w_tensor_raw(&w, "a", 2, NE_8x4, GGML_TYPE_F32, 32); // gap before the first
    put_zeros(&w.data, 160);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'a' has offset 32, expected 0", "gap before first");
    w_base(&w);
    w_tensor_raw(&w, "a", 2, NE_8x4, GGML_TYPE_F32, 0);
    w_tensor_raw(&w, "b", 2, NE_8x4, GGML_TYPE_F32, 160); // 32-byte gap
    put_zeros(&w.data, 512);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'b' has offset 160, expected 128", "offset gap");
    w_base(&w);
    w_tensor_raw(&w, "a", 2, NE_8x4, GGML_TYPE_F32, 0);
    w_tensor_raw(&w, "b", 2, NE_8x4, GGML_TYPE_F32, 64); // overlaps a
    put_zeros(&w.data, 512);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'b' has offset 64, expected 128", "overlap");
    w_base(&w);
    w_tensor_raw(&w, "a", 2, NE_8x4, GGML_TYPE_F32, 128); // out of order
    w_tensor_raw(&w, "b", 2, NE_8x4, GGML_TYPE_F32, 0);
    put_zeros(&w.data, 512);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'a' has offset 128, expected 0", "out of order");
    w_base(&w);
    w_tensor_raw(&w, "a", 1, NE_64, GGML_TYPE_F16, 0); // 128 bytes
    w_tensor_raw(&w, "b", 1, NE_64, GGML_TYPE_F16, 128);
    w_tensor_raw(&w, "c", 1, NE_64, GGML_TYPE_F16, 128); // same offset as b
    put_zeros(&w.data, 512);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'c' has offset 128, expected 256", "same offset");
    w_base(&w);
    w_tensor_raw(&w, "a", 1, NE_64, GGML_TYPE_F32, UINT64_MAX);
    put_zeros(&w.data, 512);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "has offset 18446744073709551615", "offset -1");

    // Data past EOF.
    w_base(&w);
    w_tensor(&w, "a", 2, NE_8x4, GGML_TYPE_F32);
    w_tensor(&w, "b", 1, NE_64, GGML_TYPE_F32);
    w.data.n -= 100;
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'b' (256 bytes at", "data past EOF");
    w_base(&w);
    w_tensor_raw(&w, "a", 1, NE_64, GGML_TYPE_F32, 0);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "runs past the end of the file", "no data at all");
    // Zero-byte tensor in a file that stops before the padded data section starts.
    w_init(&w);
    w.align = 1u << 20; // the padding is written by w_finish, then cut
    kv_u32(&w, "general.alignment", w.align);
    {
        static const int64_t ne0[] = {0};
        w_tensor_raw(&w, "z", 1, ne0, GGML_TYPE_F32, 0);
    }
    {
        size_t n, cut = 24 + w.kv.n + w.ti.n;
        uint8_t *p = w_finish(&w, &n);
        struct gguf_file *f;
        frink_status st = gguf_parse(p, cut, &f);
        CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "data section would start at 1048576"),
              "data section past EOF: %s", frink_errmsg());
        free(p);
        w_free(&w);
    }
}

// Large alignment, alignment 1, v2, zero-sized tensors: the legal corners.
static void test_alignment_corners(void) {
    for (uint32_t align = 1; align <= 4096; align *= 4) {
        struct w w;
        w_init(&w);
        w.align = align;
        kv_u32(&w, "general.alignment", align);
        static const int64_t ne3[] = {3};
        w_tensor(&w, "a", 1, ne3, GGML_TYPE_I8);
        w_tensor(&w, "b", 1, ne3, GGML_TYPE_F16);
        w_tensor(&w, "c", 2, NE_8x4, GGML_TYPE_F32);
        uint8_t *buf;
        char what[32];
        snprintf(what, sizeof what, "alignment %u", align);
        struct gguf_file *f = expect_ok_w(&w, &buf, what);
        if (!f) { free(buf); continue; }
        CHECK(f->alignment == align, "%s", what);
        for (uint64_t i = 0; i < f->n_tensors; i++) {
            const uint8_t *d = f->tensors[i].data;
            CHECK((size_t)(d - buf) % align == 0, "%s: tensor %llu at %zu", what, (unsigned long long)i, (size_t)(d - buf));
            CHECK(d[0] == pattern(i, 0), "%s: tensor %llu first byte", what, (unsigned long long)i);
        }
        gguf_close(f);
        free(buf);
    }
    // Without general.alignment, 64-byte padding is a gap under the default of 32.
    struct w w;
    w_base(&w);
    w.align = 64;
    static const int64_t ne16[] = {16};
    w_tensor(&w, "a", 1, ne16, GGML_TYPE_I8);
    w_tensor(&w, "b", 1, ne16, GGML_TYPE_I8);
    expect_fail_w(&w, FRINK_ERR_FORMAT, "tensor 'b' has offset 64, expected 32", "64-padded file without general.alignment");
}

// ---------------------------------------------------------------------------------------
// Files on disk.

static int open_dir_files(const char *dir) {
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot list %s", dir);
    if (!d) return 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".gguf")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct gguf_file *f;
        frink_status st = gguf_open(path, &f);
        CHECK(st == FRINK_OK, "%s: %s", path, frink_errmsg());
        if (st) continue;
        count++;
        CHECK(f->mapped && f->path && !strcmp(f->path, path), "%s: mapping bookkeeping", path);
        CHECK(gguf_find(f, "general.architecture") != NULL || gguf_find(f, "tokenizer.ggml.model") != NULL,
              "%s: has no architecture or tokenizer", path);
        for (uint64_t i = 0; i < f->n_tensors; i++) {
            const struct gguf_tensor *t = &f->tensors[i];
            const uint8_t *p = t->data;
            CHECK(p >= f->base + f->data_offset && p + t->nbytes <= f->base + f->size, "%s: tensor '%s' in bounds", path, t->name);
            CHECK((size_t)(p - f->base) % f->alignment == 0, "%s: tensor '%s' aligned", path, t->name);
        }
        gguf_close(f);
    }
    closedir(d);
    return count;
}

static void test_files(void) {
    int n = open_dir_files("tests/data/archs");
    CHECK(n >= 20, "only %d arch fixtures parsed", n);
    n = open_dir_files("tests/data/vocab");
    CHECK(n >= 1, "only %d vocab fixtures parsed", n);

    struct gguf_file *f;
    frink_status st = gguf_open("models/stories260K.gguf", &f);
    CHECK(st == FRINK_OK, "stories260K: %s", frink_errmsg());
    if (!st) {
        char arch[32];
        CHECK(!gguf_get_str(f, "general.architecture", arch, sizeof arch) && !strcmp(arch, "llama"), "stories arch '%s'", arch);
        CHECK(f->n_tensors > 0 && gguf_find_tensor(f, "token_embd.weight"), "stories has token_embd.weight");
        gguf_close(f);
    }

    f = (struct gguf_file *)1;
    st = gguf_open("tests/data/no-such-file.gguf", &f);
    CHECK(st == FRINK_ERR_IO && !f, "missing file: %d", st);
    CHECK(strstr(frink_errmsg(), "tests/data/no-such-file.gguf"), "missing file message: %s", frink_errmsg());
    st = gguf_open("tests/data", &f);
    CHECK(st == FRINK_ERR_IO && !f, "directory: %d", st);
    CHECK(strstr(frink_errmsg(), "tests/data"), "directory message: %s", frink_errmsg());

    // A FIFO is refused without blocking in open() (nobody will ever write to it).
    char fifo[] = "/tmp/frink_test_gguf_fifo_XXXXXX";
    int tfd = mkstemp(fifo);
    if (tfd >= 0) {
        close(tfd);
        unlink(fifo);
        if (mkfifo(fifo, 0600) == 0) {
            st = gguf_open(fifo, &f);
            CHECK(st == FRINK_ERR_IO && !f && strstr(frink_errmsg(), fifo) && strstr(frink_errmsg(), "not a regular file"),
                  "fifo: %d %s", st, frink_errmsg());
            unlink(fifo);
        }
    }

    // Files written to disk: a valid one maps; a bad or empty one names the path.
    char path[] = "/tmp/frink_test_gguf_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0) return;
    struct w w;
    build_full(&w, 3, 32);
    size_t n_bytes;
    uint8_t *p = w_finish(&w, &n_bytes);
    w_free(&w);
    CHECK(write(fd, p, n_bytes) == (ssize_t)n_bytes, "write");
    close(fd);
    st = gguf_open(path, &f);
    CHECK(st == FRINK_OK, "temp file: %s", frink_errmsg());
    if (!st) {
        CHECK(f->mapped && f->size == n_bytes && f->n_tensors == 9, "temp file contents");
        const struct gguf_tensor *t = gguf_find_tensor(f, "token_embd.weight");
        CHECK(t && (const uint8_t *)t->data == f->base + f->data_offset && ((const uint8_t *)t->data)[3] == pattern(0, 3),
              "temp file tensor is in the mapping");
        gguf_close(f);
    }
    CHECK(truncate(path, 100) == 0, "truncate");
    st = gguf_open(path, &f);
    CHECK(st == FRINK_ERR_FORMAT && !f && strstr(frink_errmsg(), path), "truncated temp file: %s", frink_errmsg());
    CHECK(truncate(path, 0) == 0, "truncate 0");
    st = gguf_open(path, &f);
    CHECK(st == FRINK_ERR_FORMAT && !f && strstr(frink_errmsg(), path) && strstr(frink_errmsg(), "empty"), "empty file: %s", frink_errmsg());
    unlink(path);
    free(p);
}

int main(void) {
    test_valid(3, 32);
    test_valid(2, 32);
    test_valid(3, 64);
    test_valid(2, 256);
    test_header();
    test_kv_errors();
    test_tensor_errors();
    test_alignment_corners();
    test_truncation();
    test_files();
    return TEST_DONE();
}
