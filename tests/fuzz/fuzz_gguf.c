// fuzz_gguf.c — libFuzzer target for the GGUF parser (`make fuzz`, `make fuzz-smoke`).
//
// Parses the input with gguf_parse; on success it walks every metadata pair through
// every getter, reads every array element and every string byte, and touches the
// first and last byte of each tensor's data, so that anything the parser accepted
// but did not bound would trip ASan/UBSan here.
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/gguf.h"
#include "quant/types.h"

static volatile uint64_t sink;

static void touch_str(struct gguf_str s) {
    uint64_t h = s.len;
    for (uint64_t i = 0; i < s.len; i++) h = h * 31 + (uint8_t)s.ptr[i];
    sink += h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct gguf_file *f;
    frink_status st = gguf_parse(data, size, &f);
    if (st) {
        // A failure must leave a message and no result.
        if (f || !frink_errmsg()[0]) __builtin_trap();
        return 0;
    }
    if (f->alignment == 0 || (f->alignment & (f->alignment - 1))) __builtin_trap();
    if (f->data_offset > size) __builtin_trap();

    char key[256], sbuf[64];
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const struct gguf_kv *kv = &f->kv[i];
        touch_str(kv->key);
        sink += (uint64_t)strlen(gguf_vtype_name(kv->type));
        if (kv->type == GGUF_VT_STRING) touch_str(kv->v.str);
        if (kv->type == GGUF_VT_ARRAY) {
            if (kv->v.arr.type == GGUF_VT_STRING) {
                for (uint64_t k = 0; k < kv->v.arr.n; k++) touch_str(kv->v.arr.strs[k]);
            } else {
                for (uint64_t k = 0; k < kv->v.arr.n; k++) {
                    sink += (uint64_t)gguf_arr_i64(kv, k);
                    double d = gguf_arr_f64(kv, k);
                    uint64_t bits;
                    memcpy(&bits, &d, sizeof bits);
                    sink += bits;
                }
                // Out of range and wrong-kind requests must be refused, not read.
                sink += (uint64_t)gguf_arr_i64(kv, kv->v.arr.n) + (uint64_t)gguf_arr_f64(kv, kv->v.arr.n);
            }
        } else {
            sink += (uint64_t)gguf_arr_i64(kv, 0);
        }
        // The getters look keys up by C string: only keys without NUL fit. gguf_find is
        // linear, so limit the lookups to keep the fuzzer fast on inputs with many pairs.
        if (i < 64 && kv->key.len < sizeof key && !memchr(kv->key.ptr, 0, kv->key.len)) {
            memcpy(key, kv->key.ptr, kv->key.len);
            key[kv->key.len] = 0;
            if (gguf_find(f, key) != kv) __builtin_trap(); // keys are unique
            uint32_t u32; int64_t i64; float f32; bool b;
            if (!gguf_get_u32(f, key, &u32)) sink += u32;
            if (!gguf_get_i64(f, key, &i64)) sink += (uint64_t)i64;
            if (!gguf_get_f32(f, key, &f32)) sink += (uint64_t)(f32 == f32);
            if (!gguf_get_bool(f, key, &b)) sink += b;
            if (!gguf_get_str(f, key, sbuf, sizeof sbuf)) sink += strlen(sbuf);
            if (!gguf_get_str(f, key, sbuf, 1)) sink += strlen(sbuf);
        }
    }

    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const struct gguf_tensor *t = &f->tensors[i];
        if (strlen(t->name) >= GGUF_MAX_NAME || t->n_dims > GGUF_MAX_DIMS) __builtin_trap();
        const struct ggml_type_geom *g = ggml_type_geom(t->type);
        if (!g) __builtin_trap();
        // nbytes must agree with the shape, so kernels that trust ne stay in bounds.
        unsigned __int128 nb = (unsigned __int128)(uint64_t)(t->ne[0] / g->blck) * (uint64_t)g->size;
        for (int d = 1; d < GGUF_MAX_DIMS; d++) nb *= (uint64_t)t->ne[d];
        if (nb != t->nbytes) __builtin_trap();
        const uint8_t *p = t->data;
        if (p < f->base || (uint64_t)(p - f->base) % f->alignment) __builtin_trap();
        if (t->nbytes) sink += (uint64_t)p[0] + p[t->nbytes - 1];
        if (gguf_tensor_index(f, t->name) != (int64_t)i) __builtin_trap(); // names are unique
        if (gguf_find_tensor(f, t->name) != t) __builtin_trap();
    }
    gguf_close(f);
    return 0;
}
