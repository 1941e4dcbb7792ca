#include "types.h"

#include "quant/quant.h"

// Block geometry per type id, from the GGUF/ggml type table. Bytes per block are the sizes of
// quant.h's block structs (each pinned there by a _Static_assert); the IQ2/IQ3/IQ1 families and
// NVFP4 have no struct, as nothing in frink decodes them: their sizes are ggml's, written out, so
// that files holding tensors of those types still parse.
static const struct ggml_type_geom geom[GGML_TYPE_COUNT] = {
    [GGML_TYPE_F32] = {"F32", 1, sizeof(float)},
    [GGML_TYPE_F16] = {"F16", 1, sizeof(ggml_half)},
    [GGML_TYPE_Q4_0] = {"Q4_0", QK4_0, sizeof(block_q4_0)},
    [GGML_TYPE_Q4_1] = {"Q4_1", QK4_1, sizeof(block_q4_1)},
    [GGML_TYPE_Q5_0] = {"Q5_0", QK5_0, sizeof(block_q5_0)},
    [GGML_TYPE_Q5_1] = {"Q5_1", QK5_1, sizeof(block_q5_1)},
    [GGML_TYPE_Q8_0] = {"Q8_0", QK8_0, sizeof(block_q8_0)},
    [GGML_TYPE_Q8_1] = {"Q8_1", QK8_1, sizeof(block_q8_1)},
    [GGML_TYPE_Q2_K] = {"Q2_K", QK_K, sizeof(block_q2_K)},
    [GGML_TYPE_Q3_K] = {"Q3_K", QK_K, sizeof(block_q3_K)},
    [GGML_TYPE_Q4_K] = {"Q4_K", QK_K, sizeof(block_q4_K)},
    [GGML_TYPE_Q5_K] = {"Q5_K", QK_K, sizeof(block_q5_K)},
    [GGML_TYPE_Q6_K] = {"Q6_K", QK_K, sizeof(block_q6_K)},
    [GGML_TYPE_Q8_K] = {"Q8_K", QK_K, sizeof(block_q8_K)},
    [GGML_TYPE_IQ2_XXS] = {"IQ2_XXS", 256, 66},
    [GGML_TYPE_IQ2_XS] = {"IQ2_XS", 256, 74},
    [GGML_TYPE_IQ3_XXS] = {"IQ3_XXS", 256, 98},
    [GGML_TYPE_IQ1_S] = {"IQ1_S", 256, 50},
    [GGML_TYPE_IQ4_NL] = {"IQ4_NL", QK4_NL, sizeof(block_iq4_nl)},
    [GGML_TYPE_IQ3_S] = {"IQ3_S", 256, 110},
    [GGML_TYPE_IQ2_S] = {"IQ2_S", 256, 82},
    [GGML_TYPE_IQ4_XS] = {"IQ4_XS", QK_K, sizeof(block_iq4_xs)},
    [GGML_TYPE_I8] = {"I8", 1, sizeof(int8_t)},
    [GGML_TYPE_I16] = {"I16", 1, sizeof(int16_t)},
    [GGML_TYPE_I32] = {"I32", 1, sizeof(int32_t)},
    [GGML_TYPE_I64] = {"I64", 1, sizeof(int64_t)},
    [GGML_TYPE_F64] = {"F64", 1, sizeof(double)},
    [GGML_TYPE_IQ1_M] = {"IQ1_M", 256, 56},
    [GGML_TYPE_BF16] = {"BF16", 1, sizeof(ggml_bf16)},
    [GGML_TYPE_TQ1_0] = {"TQ1_0", QK_K, sizeof(block_tq1_0)},
    [GGML_TYPE_TQ2_0] = {"TQ2_0", QK_K, sizeof(block_tq2_0)},
    [GGML_TYPE_MXFP4] = {"MXFP4", QK_MXFP4, sizeof(block_mxfp4)},
    [GGML_TYPE_NVFP4] = {"NVFP4", 64, 36},
    [GGML_TYPE_Q1_0] = {"Q1_0", QK1_0, sizeof(block_q1_0)},
    [GGML_TYPE_Q2_0] = {"Q2_0", QK2_0, sizeof(block_q2_0)},
};

const struct ggml_type_geom *ggml_type_geom(uint32_t type) {
    if (type >= GGML_TYPE_COUNT || geom[type].blck == 0) return NULL;
    return &geom[type];
}

const char *ggml_type_name(uint32_t type) {
    const struct ggml_type_geom *g = ggml_type_geom(type);
    return g ? g->name : "unknown";
}
