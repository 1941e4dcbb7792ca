// gguf.c — GGUF parser. See gguf.h for the layout.
//
// Every read goes through `struct reader`, which checks the remaining length
// first, so no field can be read past the end of the buffer. Counts and
// lengths are bounded before any allocation sized by them.
#include "gguf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "quant/types.h"

#define GGUF_MAGIC 0x46554747u // "GGUF" little-endian
#define GGUF_MAX_STR (1ull << 30)
#define GGUF_MAX_ARR (1ull << 30)
#define GGUF_DEFAULT_ALIGNMENT 32

struct reader {
    const uint8_t *p;
    size_t size, off;
    char why[96]; // what rd_str found wrong, for the caller's message
};

static bool rd_bytes(struct reader *r, void *dst, size_t n) {
    if (r->size - r->off < n) return false;
    memcpy(dst, r->p + r->off, n);
    r->off += n;
    return true;
}

#define RD(r, x) rd_bytes((r), &(x), sizeof(x))

static bool rd_str(struct reader *r, struct gguf_str *s) {
    uint64_t len;
    if (!RD(r, len)) {
        snprintf(r->why, sizeof r->why, "string length truncated at byte %zu", r->off);
        return false;
    }
    if (len > GGUF_MAX_STR) {
        snprintf(r->why, sizeof r->why, "string length %llu is absurd (max 1 GiB)", (unsigned long long)len);
        return false;
    }
    if (len > r->size - r->off) {
        snprintf(r->why, sizeof r->why, "string of %llu bytes runs past the end of the file (truncated)", (unsigned long long)len);
        return false;
    }
    s->ptr = (const char *)r->p + r->off;
    s->len = len;
    r->off += len;
    return true;
}

static const size_t vtype_size[GGUF_VT_COUNT] = {
    [GGUF_VT_UINT8] = 1, [GGUF_VT_INT8] = 1,    [GGUF_VT_UINT16] = 2, [GGUF_VT_INT16] = 2,
    [GGUF_VT_UINT32] = 4, [GGUF_VT_INT32] = 4,  [GGUF_VT_FLOAT32] = 4, [GGUF_VT_BOOL] = 1,
    [GGUF_VT_UINT64] = 8, [GGUF_VT_INT64] = 8,  [GGUF_VT_FLOAT64] = 8,
};

const char *gguf_vtype_name(enum gguf_vtype t) {
    static const char *names[GGUF_VT_COUNT] = {
        "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
        "bool", "string", "array", "uint64", "int64", "float64",
    };
    return (unsigned)t < GGUF_VT_COUNT ? names[t] : "invalid";
}

// Reads one fixed-size scalar of type t at p into the kv's union.
static void scalar_decode(enum gguf_vtype t, const uint8_t *p, struct gguf_kv *kv) {
    switch (t) {
    case GGUF_VT_UINT8: kv->v.u64 = p[0]; break;
    case GGUF_VT_INT8: kv->v.i64 = (int8_t)p[0]; break;
    case GGUF_VT_BOOL: kv->v.u64 = p[0] != 0; break;
    case GGUF_VT_UINT16: { uint16_t x; memcpy(&x, p, 2); kv->v.u64 = x; } break;
    case GGUF_VT_INT16: { int16_t x; memcpy(&x, p, 2); kv->v.i64 = x; } break;
    case GGUF_VT_UINT32: { uint32_t x; memcpy(&x, p, 4); kv->v.u64 = x; } break;
    case GGUF_VT_INT32: { int32_t x; memcpy(&x, p, 4); kv->v.i64 = x; } break;
    case GGUF_VT_FLOAT32: { float x; memcpy(&x, p, 4); kv->v.f64 = x; } break;
    case GGUF_VT_UINT64: { uint64_t x; memcpy(&x, p, 8); kv->v.u64 = x; } break;
    case GGUF_VT_INT64: { int64_t x; memcpy(&x, p, 8); kv->v.i64 = x; } break;
    case GGUF_VT_FLOAT64: { double x; memcpy(&x, p, 8); kv->v.f64 = x; } break;
    default: break;
    }
}

static frink_status parse_kv(struct reader *r, struct gguf_kv *kv, uint64_t i) {
    uint32_t t;
    if (!rd_str(r, &kv->key)) return frink_fail(FRINK_ERR_FORMAT, "metadata pair %llu: key: %s", (unsigned long long)i, r->why);
    if (kv->key.len == 0) return frink_fail(FRINK_ERR_FORMAT, "metadata pair %llu: empty key", (unsigned long long)i);
    if (!RD(r, t)) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': type truncated", (int)kv->key.len, kv->key.ptr);
    if (t >= GGUF_VT_COUNT) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': invalid value type %u", (int)kv->key.len, kv->key.ptr, t);
    kv->type = (enum gguf_vtype)t;
    if (t == GGUF_VT_STRING) {
        if (!rd_str(r, &kv->v.str)) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': %s", (int)kv->key.len, kv->key.ptr, r->why);
        return FRINK_OK;
    }
    if (t != GGUF_VT_ARRAY) {
        if (r->size - r->off < vtype_size[t]) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': value truncated", (int)kv->key.len, kv->key.ptr);
        scalar_decode(kv->type, r->p + r->off, kv);
        r->off += vtype_size[t];
        return FRINK_OK;
    }
    uint32_t et;
    uint64_t n;
    if (!RD(r, et) || !RD(r, n)) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': array header truncated", (int)kv->key.len, kv->key.ptr);
    if (et == GGUF_VT_ARRAY)
        return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': invalid GGUF type: nested arrays are not allowed", (int)kv->key.len, kv->key.ptr);
    if (et >= GGUF_VT_COUNT)
        return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': invalid array element type %u", (int)kv->key.len, kv->key.ptr, et);
    if (n > GGUF_MAX_ARR) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': array count %llu is absurd", (int)kv->key.len, kv->key.ptr, (unsigned long long)n);
    kv->v.arr.type = (enum gguf_vtype)et;
    kv->v.arr.n = n;
    if (et == GGUF_VT_STRING) {
        // Each string needs at least its 8-byte length: bound n before allocating.
        if (n > (r->size - r->off) / 8) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': string array truncated", (int)kv->key.len, kv->key.ptr);
        kv->v.arr.strs = malloc((n ? n : 1) * sizeof(struct gguf_str));
        if (!kv->v.arr.strs) return frink_fail(FRINK_ERR_NOMEM, "metadata '%.*s': out of memory", (int)kv->key.len, kv->key.ptr);
        for (uint64_t k = 0; k < n; k++)
            if (!rd_str(r, &kv->v.arr.strs[k]))
                return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': array string %llu: %s", (int)kv->key.len, kv->key.ptr, (unsigned long long)k, r->why);
        return FRINK_OK;
    }
    size_t es = vtype_size[et];
    if (n > (r->size - r->off) / es) return frink_fail(FRINK_ERR_FORMAT, "metadata '%.*s': array truncated", (int)kv->key.len, kv->key.ptr);
    kv->v.arr.data = r->p + r->off;
    r->off += n * es;
    return FRINK_OK;
}

static frink_status parse_tensor_info(struct reader *r, struct gguf_tensor *t, uint64_t i) {
    struct gguf_str name;
    if (!rd_str(r, &name)) return frink_fail(FRINK_ERR_FORMAT, "tensor info %llu: name: %s", (unsigned long long)i, r->why);
    if (name.len >= GGUF_MAX_NAME) return frink_fail(FRINK_ERR_FORMAT, "tensor info %llu: name of %llu bytes is too long (max 63)", (unsigned long long)i, (unsigned long long)name.len);
    memcpy(t->name, name.ptr, name.len);
    t->name[name.len] = 0;
    if (memchr(t->name, 0, name.len)) return frink_fail(FRINK_ERR_FORMAT, "tensor info %llu: name contains a NUL byte", (unsigned long long)i);
    if (!RD(r, t->n_dims)) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': dims truncated", t->name);
    if (t->n_dims > GGUF_MAX_DIMS) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': %u dimensions (max 4)", t->name, t->n_dims);
    for (int d = 0; d < GGUF_MAX_DIMS; d++) t->ne[d] = 1;
    for (uint32_t d = 0; d < t->n_dims; d++) {
        if (!RD(r, t->ne[d])) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': shape truncated", t->name);
        if (t->ne[d] < 0) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': negative dimension %lld", t->name, (long long)t->ne[d]);
    }
    // The element count must fit in int64 (checked by division, so no overflow).
    int64_t nel = 1;
    for (int d = 0; d < GGUF_MAX_DIMS; d++) {
        if (t->ne[d] != 0 && nel > INT64_MAX / t->ne[d]) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': element count overflows", t->name);
        nel *= t->ne[d];
    }
    if (!RD(r, t->type)) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': type truncated", t->name);
    const struct ggml_type_geom *g = ggml_type_geom(t->type);
    if (!g) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': unknown or retired type id %u", t->name, t->type);
    if (t->ne[0] % g->blck) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': row length %lld is not a multiple of %s's block of %d", t->name, (long long)t->ne[0], g->name, g->blck);
    if (!RD(r, t->offset)) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': offset truncated", t->name);
    // nbytes = blocks * block size * ne[1..3]. Every product is checked: the bytes per
    // element of some types exceed 1, so a count that fits in int64 can still overflow
    // here (F32 with ne[0] = 2^62 would wrap to 0 bytes and pass the bounds check).
    uint64_t blocks = (uint64_t)(t->ne[0] / g->blck);
    if (blocks > UINT64_MAX / (uint64_t)g->size) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': byte size overflows", t->name);
    uint64_t nb = blocks * (uint64_t)g->size;
    for (int d = 1; d < GGUF_MAX_DIMS; d++) {
        if (t->ne[d] != 0 && nb > UINT64_MAX / (uint64_t)t->ne[d]) return frink_fail(FRINK_ERR_FORMAT, "tensor '%s': byte size overflows", t->name);
        nb *= (uint64_t)t->ne[d];
    }
    t->nbytes = nel == 0 ? 0 : nb;
    return FRINK_OK;
}

static uint64_t pad_to(uint64_t x, uint64_t a) { return (x + a - 1) & ~(a - 1); }

static int cmp_str(struct gguf_str a, struct gguf_str b) {
    if (a.len != b.len) return a.len < b.len ? -1 : 1;
    return a.len ? memcmp(a.ptr, b.ptr, a.len) : 0;
}

static int cmp_kv_ptr(const void *a, const void *b) {
    return cmp_str((*(const struct gguf_kv *const *)a)->key, (*(const struct gguf_kv *const *)b)->key);
}

static int cmp_tensor_ptr(const void *a, const void *b) {
    return strcmp((*(const struct gguf_tensor *const *)a)->name, (*(const struct gguf_tensor *const *)b)->name);
}

frink_status gguf_parse(const void *buf, size_t size, struct gguf_file **out) {
    *out = NULL;
    struct reader r = {.p = buf, .size = size, .off = 0};
    uint32_t magic, version;
    uint64_t n_tensors, n_kv;
    if (!RD(&r, magic)) return frink_fail(FRINK_ERR_FORMAT, "file of %zu bytes is too short to be GGUF", size);
    if (magic != GGUF_MAGIC) return frink_fail(FRINK_ERR_FORMAT, "bad magic 0x%08x: not a GGUF file", magic);
    if (!RD(&r, version)) return frink_fail(FRINK_ERR_FORMAT, "header truncated (version)");
    if (version == 0) return frink_fail(FRINK_ERR_FORMAT, "bad GGUF version 0");
    if ((version & 0xffff) == 0) return frink_fail(FRINK_ERR_FORMAT, "GGUF version 0x%08x: file is big-endian or corrupt", version);
    if (version == 1) return frink_fail(FRINK_ERR_UNSUPPORTED, "GGUF version 1 is no longer supported");
    if (version < 2 || version > 3) return frink_fail(FRINK_ERR_UNSUPPORTED, "GGUF version %u is not supported (2 and 3 are)", version);
    if (!RD(&r, n_tensors) || !RD(&r, n_kv)) return frink_fail(FRINK_ERR_FORMAT, "header truncated (counts)");
    // A KV pair needs at least 8+1+4+1 bytes (non-empty key, 1-byte value), a tensor info
    // 8+4+4+8 (empty name, n_dims = 0): bound the counts by the file before allocating.
    if (n_kv > size / 14) return frink_fail(FRINK_ERR_FORMAT, "metadata count %llu is absurd for a file of %zu bytes", (unsigned long long)n_kv, size);
    if (n_tensors > size / 24) return frink_fail(FRINK_ERR_FORMAT, "tensor count %llu is absurd for a file of %zu bytes", (unsigned long long)n_tensors, size);

    struct gguf_file *f = calloc(1, sizeof *f);
    if (!f) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    f->version = version;
    f->base = buf;
    f->size = size;
    f->alignment = GGUF_DEFAULT_ALIGNMENT;
    f->kv = calloc(n_kv ? n_kv : 1, sizeof *f->kv);
    f->tensors = calloc(n_tensors ? n_tensors : 1, sizeof *f->tensors);
    frink_status st = FRINK_OK;
    if (!f->kv || !f->tensors) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto fail; }

    for (uint64_t i = 0; i < n_kv; i++) {
        f->n_kv = i + 1; // so gguf_close frees the string arrays parsed so far
        if ((st = parse_kv(&r, &f->kv[i], i))) goto fail;
    }
    // Keys must be unique: sort pointers to the pairs (O(n log n) even for hostile
    // counts) and compare neighbours.
    if (n_kv > 1) {
        const struct gguf_kv **idx = malloc(n_kv * sizeof *idx);
        if (!idx) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto fail; }
        for (uint64_t i = 0; i < n_kv; i++) idx[i] = &f->kv[i];
        qsort(idx, n_kv, sizeof *idx, cmp_kv_ptr);
        for (uint64_t i = 1; i < n_kv; i++)
            if (!cmp_str(idx[i - 1]->key, idx[i]->key)) {
                struct gguf_str k = idx[i]->key;
                free(idx);
                st = frink_fail(FRINK_ERR_FORMAT, "duplicate metadata key '%.*s'", (int)k.len, k.ptr);
                goto fail;
            }
        free(idx);
    }
    const struct gguf_kv *al = gguf_find(f, "general.alignment");
    if (al) {
        if (al->type != GGUF_VT_UINT32) { st = frink_fail(FRINK_ERR_FORMAT, "general.alignment has type %s, expected uint32", gguf_vtype_name(al->type)); goto fail; }
        if (al->v.u64 == 0 || (al->v.u64 & (al->v.u64 - 1))) { st = frink_fail(FRINK_ERR_FORMAT, "general.alignment %llu is not a power of two", (unsigned long long)al->v.u64); goto fail; }
        f->alignment = (uint32_t)al->v.u64;
    }

    for (uint64_t i = 0; i < n_tensors; i++) {
        if ((st = parse_tensor_info(&r, &f->tensors[i], i))) goto fail;
        f->n_tensors = i + 1;
    }
    f->n_tensors = n_tensors;
    // Names must be unique (a hostile file can claim many tensors, so sort like the keys).
    if (n_tensors > 1) {
        const struct gguf_tensor **idx = malloc(n_tensors * sizeof *idx);
        if (!idx) { st = frink_fail(FRINK_ERR_NOMEM, "out of memory"); goto fail; }
        for (uint64_t i = 0; i < n_tensors; i++) idx[i] = &f->tensors[i];
        qsort(idx, n_tensors, sizeof *idx, cmp_tensor_ptr);
        for (uint64_t i = 1; i < n_tensors; i++)
            if (!strcmp(idx[i - 1]->name, idx[i]->name)) {
                st = frink_fail(FRINK_ERR_FORMAT, "duplicate tensor name '%s'", idx[i]->name);
                free(idx);
                goto fail;
            }
        free(idx);
    }

    // Data section: tensors packed in info order, each padded to the alignment.
    f->data_offset = n_tensors ? pad_to(r.off, f->alignment) : r.off;
    if (f->data_offset > size) { st = frink_fail(FRINK_ERR_FORMAT, "file truncated: data section would start at %llu, file has %zu bytes", (unsigned long long)f->data_offset, size); goto fail; }
    uint64_t expect = 0, avail = size - f->data_offset;
    for (uint64_t i = 0; i < n_tensors; i++) {
        struct gguf_tensor *t = &f->tensors[i];
        if (t->offset != expect) {
            st = frink_fail(FRINK_ERR_FORMAT, "tensor '%s' has offset %llu, expected %llu (tensors must be packed in order; overlapping or gapped data)",
                            t->name, (unsigned long long)t->offset, (unsigned long long)expect);
            goto fail;
        }
        if (t->nbytes > avail || t->offset > avail - t->nbytes) {
            st = frink_fail(FRINK_ERR_FORMAT, "tensor '%s' (%llu bytes at %llu) runs past the end of the file: truncated?",
                            t->name, (unsigned long long)t->nbytes, (unsigned long long)(f->data_offset + t->offset));
            goto fail;
        }
        t->data = f->base + f->data_offset + t->offset;
        uint64_t padded = pad_to(t->nbytes, f->alignment);
        if (padded < t->nbytes) { st = frink_fail(FRINK_ERR_FORMAT, "tensor '%s': size overflows", t->name); goto fail; }
        expect += padded;
    }
    *out = f;
    return FRINK_OK;
fail:
    gguf_close(f);
    return st;
}

frink_status gguf_open(const char *path, struct gguf_file **out) {
    *out = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); // O_NONBLOCK: a FIFO must not hang us
    if (fd < 0) return frink_fail(FRINK_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) < 0) {
        int e = errno;
        close(fd);
        return frink_fail(FRINK_ERR_IO, "cannot stat '%s': %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return frink_fail(FRINK_ERR_IO, "'%s' is not a regular file", path);
    }
    size_t size = (size_t)sb.st_size;
    if (size == 0) {
        close(fd);
        return frink_fail(FRINK_ERR_FORMAT, "'%s' is empty", path);
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED) return frink_fail(FRINK_ERR_IO, "cannot map '%s': %s", path, strerror(e));
    frink_status st = gguf_parse(map, size, out);
    if (st) {
        munmap(map, size);
        return frink_fail_ctx(st, "%s: ", path);
    }
    (*out)->mapped = 1;
    (*out)->path = strdup(path);
    return FRINK_OK;
}

void gguf_close(struct gguf_file *f) {
    if (!f) return;
    for (uint64_t i = 0; i < f->n_kv; i++)
        if (f->kv[i].type == GGUF_VT_ARRAY && f->kv[i].v.arr.type == GGUF_VT_STRING) free(f->kv[i].v.arr.strs);
    free(f->kv);
    free(f->tensors);
    if (f->mapped) munmap((void *)f->base, f->size);
    free(f->path);
    free(f);
}

bool gguf_str_eq(struct gguf_str s, const char *c) {
    size_t n = strlen(c);
    return s.len == n && memcmp(s.ptr, c, n) == 0;
}

const struct gguf_kv *gguf_find(const struct gguf_file *f, const char *key) {
    for (uint64_t i = 0; i < f->n_kv; i++)
        if (gguf_str_eq(f->kv[i].key, key)) return &f->kv[i];
    return NULL;
}

int64_t gguf_tensor_index(const struct gguf_file *f, const char *name) {
    for (uint64_t i = 0; i < f->n_tensors; i++)
        if (!strcmp(f->tensors[i].name, name)) return (int64_t)i;
    return -1;
}

const struct gguf_tensor *gguf_find_tensor(const struct gguf_file *f, const char *name) {
    int64_t i = gguf_tensor_index(f, name);
    return i < 0 ? NULL : &f->tensors[i];
}

static bool is_int(enum gguf_vtype t) {
    return t == GGUF_VT_UINT8 || t == GGUF_VT_INT8 || t == GGUF_VT_UINT16 || t == GGUF_VT_INT16 ||
           t == GGUF_VT_UINT32 || t == GGUF_VT_INT32 || t == GGUF_VT_UINT64 || t == GGUF_VT_INT64 ||
           t == GGUF_VT_BOOL;
}
static bool is_signed(enum gguf_vtype t) {
    return t == GGUF_VT_INT8 || t == GGUF_VT_INT16 || t == GGUF_VT_INT32 || t == GGUF_VT_INT64;
}

static const struct gguf_kv *need(const struct gguf_file *f, const char *key) {
    const struct gguf_kv *kv = gguf_find(f, key);
    if (!kv) frink_fail(FRINK_ERR_ARG, "metadata key '%s' is missing", key);
    return kv;
}

frink_status gguf_get_i64(const struct gguf_file *f, const char *key, int64_t *out) {
    const struct gguf_kv *kv = need(f, key);
    if (!kv) return FRINK_ERR_ARG;
    if (!is_int(kv->type)) return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' has type %s, expected an integer", key, gguf_vtype_name(kv->type));
    if (!is_signed(kv->type) && kv->v.u64 > INT64_MAX) return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' value is out of range", key);
    *out = is_signed(kv->type) ? kv->v.i64 : (int64_t)kv->v.u64;
    return FRINK_OK;
}

frink_status gguf_get_u32(const struct gguf_file *f, const char *key, uint32_t *out) {
    int64_t v;
    frink_status st = gguf_get_i64(f, key, &v);
    if (st) return st;
    if (v < 0 || v > UINT32_MAX) return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' = %lld is out of range", key, (long long)v);
    *out = (uint32_t)v;
    return FRINK_OK;
}

frink_status gguf_get_f32(const struct gguf_file *f, const char *key, float *out) {
    const struct gguf_kv *kv = need(f, key);
    if (!kv) return FRINK_ERR_ARG;
    if (kv->type == GGUF_VT_FLOAT32 || kv->type == GGUF_VT_FLOAT64) *out = (float)kv->v.f64;
    else return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' has type %s, expected float32", key, gguf_vtype_name(kv->type));
    return FRINK_OK;
}

frink_status gguf_get_bool(const struct gguf_file *f, const char *key, bool *out) {
    const struct gguf_kv *kv = need(f, key);
    if (!kv) return FRINK_ERR_ARG;
    if (kv->type != GGUF_VT_BOOL) return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' has type %s, expected bool", key, gguf_vtype_name(kv->type));
    *out = kv->v.u64 != 0;
    return FRINK_OK;
}

frink_status gguf_get_str(const struct gguf_file *f, const char *key, char *buf, size_t cap) {
    const struct gguf_kv *kv = need(f, key);
    if (!kv) return FRINK_ERR_ARG;
    if (kv->type != GGUF_VT_STRING) return frink_fail(FRINK_ERR_FORMAT, "metadata '%s' has type %s, expected string", key, gguf_vtype_name(kv->type));
    if (!buf || cap == 0) return frink_fail(FRINK_ERR_ARG, "metadata '%s': no room for the string", key);
    size_t n = kv->v.str.len < cap - 1 ? kv->v.str.len : cap - 1;
    memcpy(buf, kv->v.str.ptr, n);
    buf[n] = 0;
    return FRINK_OK;
}

// True when kv is an array of fixed-size elements and i is in range.
static bool arr_elem_ok(const struct gguf_kv *kv, uint64_t i) {
    return kv && kv->type == GGUF_VT_ARRAY && (unsigned)kv->v.arr.type < GGUF_VT_COUNT &&
           vtype_size[kv->v.arr.type] != 0 && i < kv->v.arr.n;
}

int64_t gguf_arr_i64(const struct gguf_kv *kv, uint64_t i) {
    if (!arr_elem_ok(kv, i)) return 0;
    struct gguf_kv tmp;
    enum gguf_vtype t = kv->v.arr.type;
    scalar_decode(t, (const uint8_t *)kv->v.arr.data + i * vtype_size[t], &tmp);
    if (t == GGUF_VT_FLOAT32 || t == GGUF_VT_FLOAT64) {
        // Saturate: converting NaN or an out-of-range float to int64 is undefined.
        double x = tmp.v.f64;
        if (x != x) return 0;
        if (x >= 9223372036854775808.0) return INT64_MAX;
        if (x < -9223372036854775808.0) return INT64_MIN;
        return (int64_t)x;
    }
    // UINT64 values above INT64_MAX wrap (cast the result back to uint64_t to recover them).
    return is_signed(t) ? tmp.v.i64 : (int64_t)tmp.v.u64;
}

double gguf_arr_f64(const struct gguf_kv *kv, uint64_t i) {
    if (!arr_elem_ok(kv, i)) return 0;
    struct gguf_kv tmp;
    enum gguf_vtype t = kv->v.arr.type;
    scalar_decode(t, (const uint8_t *)kv->v.arr.data + i * vtype_size[t], &tmp);
    if (t == GGUF_VT_FLOAT32 || t == GGUF_VT_FLOAT64) return tmp.v.f64;
    return is_signed(t) ? (double)tmp.v.i64 : (double)tmp.v.u64;
}
