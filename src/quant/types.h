// types.h — ggml tensor type ids (as stored in GGUF) and their block geometry.
//
// This is the one table of "what a type id means" that the file parser needs.
// The kernels for each type live in quant.h's type table, keyed by these ids.
#ifndef FRINK_TYPES_H
#define FRINK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ggml_type {
    GGML_TYPE_F32 = 0,
    GGML_TYPE_F16 = 1,
    GGML_TYPE_Q4_0 = 2,
    GGML_TYPE_Q4_1 = 3,
    // 4, 5 retired (Q4_2, Q4_3)
    GGML_TYPE_Q5_0 = 6,
    GGML_TYPE_Q5_1 = 7,
    GGML_TYPE_Q8_0 = 8,
    GGML_TYPE_Q8_1 = 9,
    GGML_TYPE_Q2_K = 10,
    GGML_TYPE_Q3_K = 11,
    GGML_TYPE_Q4_K = 12,
    GGML_TYPE_Q5_K = 13,
    GGML_TYPE_Q6_K = 14,
    GGML_TYPE_Q8_K = 15,
    GGML_TYPE_IQ2_XXS = 16,
    GGML_TYPE_IQ2_XS = 17,
    GGML_TYPE_IQ3_XXS = 18,
    GGML_TYPE_IQ1_S = 19,
    GGML_TYPE_IQ4_NL = 20,
    GGML_TYPE_IQ3_S = 21,
    GGML_TYPE_IQ2_S = 22,
    GGML_TYPE_IQ4_XS = 23,
    GGML_TYPE_I8 = 24,
    GGML_TYPE_I16 = 25,
    GGML_TYPE_I32 = 26,
    GGML_TYPE_I64 = 27,
    GGML_TYPE_F64 = 28,
    GGML_TYPE_IQ1_M = 29,
    GGML_TYPE_BF16 = 30,
    // 31-33 retired (Q4_0_4_4, Q4_0_4_8, Q4_0_8_8)
    GGML_TYPE_TQ1_0 = 34,
    GGML_TYPE_TQ2_0 = 35,
    // 36-38 retired (IQ4_NL_4_4, IQ4_NL_4_8, IQ4_NL_8_8)
    GGML_TYPE_MXFP4 = 39,
    GGML_TYPE_NVFP4 = 40,
    GGML_TYPE_Q1_0 = 41,
    GGML_TYPE_Q2_0 = 42,
    GGML_TYPE_COUNT = 43,
};

struct ggml_type_geom {
    const char *name; // "Q4_K"; NULL for a retired or unknown id
    int blck;         // elements per block (0: id is not a valid type)
    int size;         // bytes per block
};

// Geometry of `type`, or NULL when the id is out of range or retired.
const struct ggml_type_geom *ggml_type_geom(uint32_t type);

// Name of a type id, "type#N" style text for unknown ids (static buffer per call site not
// needed: unknown ids return "unknown").
const char *ggml_type_name(uint32_t type);

// Bytes of one row of `ne0` elements (ne0 must be a multiple of the block size).
static inline size_t ggml_row_size(uint32_t type, int64_t ne0) {
    const struct ggml_type_geom *g = ggml_type_geom(type);
    return (size_t)(ne0 / g->blck) * (size_t)g->size;
}

#endif
