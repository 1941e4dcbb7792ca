// quantize.h — f32 rows into GGUF block formats, byte for byte as ggml's reference quantizers
// (quantize_row_*_ref, which llama_model_quantize calls without an importance matrix).
#ifndef FRINK_QUANTIZE_H
#define FRINK_QUANTIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// True for the target types quantize_rows writes: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1,
// Q8_0, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS, MXFP4.
bool quantize_supported(uint32_t type);

// Quantizes nrows rows of n_per_row floats at src (contiguous) into dst (nrows rows of
// ggml_row_size(type, n_per_row) bytes). n_per_row must be a multiple of the type's block.
// qw: NULL, or the importance of each column (n_per_row floats, the same for every row), which
// the types that use one (all but Q8_0, MXFP4 and the float types) weight their fits with, row
// by row, as the reference's quantize_*_impl do. Returns the bytes written, 0 for a type
// quantize_supported refuses. Pure: any split of the rows between threads writes the same bytes.
size_t quantize_rows(uint32_t type, const float *src, void *dst, int64_t nrows, int64_t n_per_row, const float *qw);

#endif
