// cuda.h — the CUDA device, as plain C for the rest of the library.
//
// Two builds provide it: `make CUDA=1` links cuda.cu (nvcc, libcudart); the default build links
// stub.c, where cuda_available() is false and every other call fails, saying that frink was built
// without CUDA. select.c (both builds) decides which device the plan uses.
//
// What runs on the device today: resident weights and the matvec of each supported format
// (stacked: several matrices with one input in one launch), host pointers in and
// out; device buffers for a run's activation rows, which the "cuda" layer path's step entry
// points (path_cuda.c) move in and out. No layer runs there yet: the path (model/path.c)
// implements no feature.
//
// Errors: every call that can fail takes err/cap, writes a message naming the cause there (always
// terminated when cap > 0) and returns a negative value or NULL.
#ifndef FRINK_CUDA_H
#define FRINK_CUDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The number of CUDA devices (cudaGetDeviceCount), or -1 with err set: built without CUDA, or
// the runtime's own error (no driver, ...). 0 is not an error here.
int cuda_device_count(char *err, size_t cap);

// True when this build has CUDA and a device is present.
bool cuda_available(void);

// Device 0's name and compute capability ("NVIDIA H200, sm_90") into buf; -1 with err when none.
int cuda_describe(char *buf, size_t cap, char *err, size_t cap_err);

// ---- device selection (select.c) ----------------------------------------------------------------

// There is no process-wide choice: each model names its device (frink_model_params.device,
// model_load_opts.device) and keeps it (model.on_cuda); these only validate names.

// A device name: 1 "cuda", 0 "cpu"; "cuda" fails (-1), naming why in err, on a build without
// CUDA or a machine without a device; any other name fails (-2).
int cuda_parse_device(const char *name, char *err, size_t cap);

// The device of a model that names none: FRINK_DEVICE (unset or empty: cpu, 0), validated as
// cuda_parse_device validates a name (the messages say FRINK_DEVICE).
int cuda_plan_device(char *err, size_t cap);

// ---- resident weights and matvecs (cuda.cu) ----------------------------------------------------

// True for the weight types (ggml ids) the device has a matvec for: F16, BF16, Q8_0, Q4_0,
// Q4_K, Q5_K, Q6_K, Q1_0, MXFP4.
bool cuda_type_supported(uint32_t type);

struct cuda_matrix;

// Copies rows x n weights of `type`, rows stored contiguously as in GGUF (row i at data + i *
// row_bytes, row_bytes the type's row size for n), to device memory, in their GGUF format.
// n must be a multiple of 32 and of the type's block. NULL with err on failure.
struct cuda_matrix *cuda_matrix_upload(uint32_t type, const void *data, int64_t n, int64_t rows, char *err,
                                       size_t cap);
void cuda_matrix_free(struct cuda_matrix *m);

// ys[k][r] = dot(row r of ms[k], x) for every matrix k < count (at most CUDA_STACK_MAX), all
// of the same n: x is copied to the device and quantized once, the whole stack (any mix of
// formats) goes as one launch, the results are copied back. Blocks until done. 0, or -1 with err.
#define CUDA_STACK_MAX 8
int cuda_matvec_stack(struct cuda_matrix *const *ms, int count, const float *x, float *const *ys, char *err,
                      size_t cap);

// ---- activation rows (cuda.cu) ------------------------------------------------------------------

// Rows of floats in device memory: where a device path keeps a step's activations between the
// begin and the end of a run of layers (model/path.h).
struct cuda_rows;

// A device buffer of up to `rows` rows of n floats. NULL with err on failure.
struct cuda_rows *cuda_rows_alloc(int64_t n, int64_t rows, char *err, size_t cap);
void cuda_rows_free(struct cuda_rows *r);

// Copies rows x [rows][n] to the device buffer / its first `rows` rows back to x; rows at most
// the buffer's. Blocks until done. 0, or -1 with err.
int cuda_rows_upload(struct cuda_rows *r, const float *x, int64_t rows, char *err, size_t cap);
int cuda_rows_download(const struct cuda_rows *r, float *x, int64_t rows, char *err, size_t cap);

#ifdef __cplusplus
}
#endif

#endif
