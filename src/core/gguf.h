// gguf.h — the GGUF container: parse, validate, and view tensors in place.
//
// The parser treats the file as hostile: every length, count, offset and
// dimension is checked against the bytes actually present before it is used.
// Tensor data is never copied: gguf_tensor.data points into the mapping.
//
//   header  | magic "GGUF" | version u32 (2,3) | n_tensors u64 | n_kv u64 |
//   kv[]    | key str | type u32 | value ...                               |
//   infos[] | name str | n_dims u32 | ne[n_dims] i64 | type u32 | offset u64 |
//   pad     | zeros up to `alignment` (general.alignment, default 32)      |
//   data    | each tensor at data_offset + offset, packed in info order,    |
//           | each padded to `alignment`                                    |
#ifndef FRINK_GGUF_H
#define FRINK_GGUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

enum gguf_vtype {
    GGUF_VT_UINT8 = 0,
    GGUF_VT_INT8 = 1,
    GGUF_VT_UINT16 = 2,
    GGUF_VT_INT16 = 3,
    GGUF_VT_UINT32 = 4,
    GGUF_VT_INT32 = 5,
    GGUF_VT_FLOAT32 = 6,
    GGUF_VT_BOOL = 7,
    GGUF_VT_STRING = 8,
    GGUF_VT_ARRAY = 9,
    GGUF_VT_UINT64 = 10,
    GGUF_VT_INT64 = 11,
    GGUF_VT_FLOAT64 = 12,
    GGUF_VT_COUNT = 13,
};

// A string inside the file: not NUL-terminated.
struct gguf_str {
    const char *ptr;
    uint64_t len;
};

struct gguf_kv {
    struct gguf_str key;
    enum gguf_vtype type;
    union {
        uint64_t u64; // UINT8..UINT64, BOOL (zero-extended)
        int64_t i64;  // INT8..INT64 (sign-extended)
        double f64;   // FLOAT32, FLOAT64
        struct gguf_str str;
        struct {
            enum gguf_vtype type;  // element type (never ARRAY)
            uint64_t n;            // element count
            const void *data;      // fixed-size elements: raw little-endian in the file
            struct gguf_str *strs; // STRING elements: n entries (owned by gguf_file)
        } arr;
    } v;
};

#define GGUF_MAX_DIMS 4
#define GGUF_MAX_NAME 64

struct gguf_tensor {
    char name[GGUF_MAX_NAME]; // NUL-terminated, < 64 bytes
    uint32_t n_dims;
    int64_t ne[GGUF_MAX_DIMS]; // ne[0] contiguous; missing dims are 1
    uint32_t type;             // enum ggml_type
    uint64_t offset;           // relative to the data section
    uint64_t nbytes;
    const void *data;          // into the mapping (or the caller's buffer)
};

struct gguf_file {
    uint32_t version;
    uint32_t alignment;
    uint64_t n_kv;
    struct gguf_kv *kv;
    uint64_t n_tensors;
    struct gguf_tensor *tensors;
    uint64_t data_offset; // absolute offset of the data section
    const uint8_t *base;  // start of the file bytes
    size_t size;          // file size in bytes
    int mapped;           // 1 when base is our mmap
    char *path;           // for messages; NULL for buffers
};

// Opens and maps `path`, then parses it. On success *out owns the mapping.
frink_status gguf_open(const char *path, struct gguf_file **out);

// Parses `size` bytes at `buf` (not copied: must outlive the result).
frink_status gguf_parse(const void *buf, size_t size, struct gguf_file **out);

void gguf_close(struct gguf_file *f);

// Lookup; NULL when absent. Keys are compared byte-exact.
const struct gguf_kv *gguf_find(const struct gguf_file *f, const char *key);
const struct gguf_tensor *gguf_find_tensor(const struct gguf_file *f, const char *name);
int64_t gguf_tensor_index(const struct gguf_file *f, const char *name);

// Typed getters. Each returns FRINK_OK and writes *out when the key exists with
// an acceptable type, FRINK_ERR_FORMAT naming the key when the type is wrong,
// and FRINK_ERR_ARG (message set, *out untouched) when it is absent.
// Integer getters accept any integer or bool type whose value fits.
frink_status gguf_get_u32(const struct gguf_file *f, const char *key, uint32_t *out);
frink_status gguf_get_i64(const struct gguf_file *f, const char *key, int64_t *out);
frink_status gguf_get_f32(const struct gguf_file *f, const char *key, float *out);
frink_status gguf_get_bool(const struct gguf_file *f, const char *key, bool *out);
// Copies into buf (NUL-terminated, truncated to cap-1).
frink_status gguf_get_str(const struct gguf_file *f, const char *key, char *buf, size_t cap);
// Array element i as an integer/float (fixed-size element types only). Returns 0 when kv
// is not an array of fixed-size elements or i >= n. Floats convert to integers by
// truncation, saturating (NaN gives 0); UINT64 above INT64_MAX wraps.
int64_t gguf_arr_i64(const struct gguf_kv *kv, uint64_t i);
double gguf_arr_f64(const struct gguf_kv *kv, uint64_t i);

// Helpers for string values: equality with a C string.
bool gguf_str_eq(struct gguf_str s, const char *c);

const char *gguf_vtype_name(enum gguf_vtype t);

#endif
