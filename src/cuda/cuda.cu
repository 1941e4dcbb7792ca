// cuda.cu — the device: detection, resident weights in their GGUF formats, the activation
// quantizer and one matvec kernel per format, all built on blocks.h (whose host twins
// tests/test_cuda_twins.c checks against the scalar reference kernels).
//
// Kernels: one warp per weight row, four rows per block of 128 threads; lane l sums the 32-element
// pieces l, l+32, ... of its row and the warp adds the 32 sums by a butterfly, so each output
// equals blocks.h's cb_row_lanes on the host bit for bit (built with -fmad=false: no fused
// multiply-adds the host does not do). A stack (several matrices sharing one input: q/k/v,
// gate/up) is one launch: the warps walk the matrices' rows in order, with the format fixed at
// compile time when the stack has one, chosen per matrix when it mixes them (Q4_K_M's q/k/v).
//
// Known warts, measured nowhere yet (no device was lent when this was written): weights keep
// their GGUF layout (no re-tiling), words are assembled from bytes because 34- and 18-byte
// blocks are not 4-byte aligned, and K-quant super-blocks are re-read per 32-element piece.
// Scratch buffers (input, codes, outputs) are shared and guarded by one mutex.
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda/blocks.h"
#include "cuda/cuda.h"

enum { WARPS_PER_BLOCK = 4 };

struct cuda_matrix {
    uint32_t type;
    int64_t n, rows;
    size_t row_bytes;
    uint8_t *w; // device: rows x row_bytes, the GGUF bytes unchanged
};

// The matrices of one launch (passed by value: kernel parameters, no copy to set up).
struct stack_desc {
    const uint8_t *w[CUDA_STACK_MAX];
    float *y[CUDA_STACK_MAX];
    int64_t rows[CUDA_STACK_MAX];
    uint64_t row_bytes[CUDA_STACK_MAX];
    int fmt[CUDA_STACK_MAX]; // read by the mixed-format kernel only
    int count;
};

static void say(char *err, size_t cap, const char *what, cudaError_t e) {
    if (cap) snprintf(err, cap, "%s: %s", what, cudaGetErrorString(e));
}

// ---- kernels --------------------------------------------------------------------------------

// a[b] = the codes of x[32b .. 32b+31], one thread per block (the same function as the host's).
__global__ void act_quantize_kernel(const float *x, struct cb_act *a, int nb) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb) cb_act_quantize(x + 32 * b, &a[b]);
}

// One warp per row: the rows of s's matrices in order. FMT >= 0: every matrix has that format
// (one instance per format, its switch resolved at compile time); FMT < 0: each matrix its own
// (s.fmt[k], the same switch at run time; uniform within a warp), for a stack of mixed formats.
template <int FMT>
__global__ void matvec_kernel(struct stack_desc s, const struct cb_act *a, const float *x, int n) {
    int64_t r = (int64_t)blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    int k = 0;
    while (k < s.count && r >= s.rows[k]) r -= s.rows[k++];
    if (k == s.count) return; // the whole warp: r is per warp
    const uint8_t *row = s.w[k] + r * s.row_bytes[k];
    const int fmt = FMT >= 0 ? FMT : s.fmt[k];
    float acc = 0.0f;
    for (int i = lane; i < n / 32; i += 32) acc += cb_part(fmt, row, i, a, x);
    for (int off = 16; off; off /= 2) acc = acc + __shfl_xor_sync(0xffffffffu, acc, off);
    if (lane == 0) s.y[k][r] = acc;
}

static void launch_matvec(int fmt, unsigned grid, const struct stack_desc &s, const struct cb_act *a,
                          const float *x, int n) {
    const unsigned threads = 32 * WARPS_PER_BLOCK;
    switch (fmt) {
    case CB_F16: matvec_kernel<CB_F16><<<grid, threads>>>(s, a, x, n); break;
    case CB_BF16: matvec_kernel<CB_BF16><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q8_0: matvec_kernel<CB_Q8_0><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q4_0: matvec_kernel<CB_Q4_0><<<grid, threads>>>(s, a, x, n); break;
    case CB_MXFP4: matvec_kernel<CB_MXFP4><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q1_0: matvec_kernel<CB_Q1_0><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q4_K: matvec_kernel<CB_Q4_K><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q5_K: matvec_kernel<CB_Q5_K><<<grid, threads>>>(s, a, x, n); break;
    case CB_Q6_K: matvec_kernel<CB_Q6_K><<<grid, threads>>>(s, a, x, n); break;
    default: matvec_kernel<-1><<<grid, threads>>>(s, a, x, n); break; // mixed (fmt -1)
    }
}

// ---- devices --------------------------------------------------------------------------------

extern "C" int cuda_device_count(char *err, size_t cap) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaErrorNoDevice) return 0;
    if (e == cudaErrorInsufficientDriver) { // also what a machine without any NVIDIA driver says
        if (cap)
            snprintf(err, cap, "no usable CUDA driver on this machine (cudaGetDeviceCount: %s)", cudaGetErrorString(e));
        return -1;
    }
    if (e != cudaSuccess) {
        say(err, cap, "cudaGetDeviceCount", e);
        return -1;
    }
    return n;
}

extern "C" bool cuda_available(void) {
    char err[256];
    return cuda_device_count(err, sizeof err) > 0;
}

extern "C" int cuda_describe(char *buf, size_t cap, char *err, size_t cap_err) {
    if (cap) buf[0] = 0;
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceProperties(&p, 0);
    if (e != cudaSuccess) {
        say(err, cap_err, "cudaGetDeviceProperties", e);
        return -1;
    }
    if (cap) snprintf(buf, cap, "%s, sm_%d%d, %.1f GiB", p.name, p.major, p.minor, p.totalGlobalMem / 1073741824.0);
    return 0;
}

// ---- weights --------------------------------------------------------------------------------

extern "C" bool cuda_type_supported(uint32_t type) { return type < 64 && cb_block_elems((int)type) > 0; }

extern "C" struct cuda_matrix *cuda_matrix_upload(uint32_t type, const void *data, int64_t n, int64_t rows, char *err,
                                                  size_t cap) {
    if (!cuda_type_supported(type)) {
        if (cap) snprintf(err, cap, "type %u: no CUDA matvec for this weight type", type);
        return NULL;
    }
    const int elems = cb_block_elems((int)type);
    if (n <= 0 || rows <= 0 || n % 32 || n % elems || n / 32 > (int64_t)1 << 30) {
        if (cap) snprintf(err, cap, "matrix %lld x %lld: rows must be a positive multiple of 32 and of the block (%d)",
                          (long long)rows, (long long)n, elems);
        return NULL;
    }
    struct cuda_matrix *m = (struct cuda_matrix *)calloc(1, sizeof *m);
    if (!m) {
        if (cap) snprintf(err, cap, "out of memory");
        return NULL;
    }
    m->type = type;
    m->n = n;
    m->rows = rows;
    m->row_bytes = (size_t)(n / elems) * (size_t)cb_block_bytes((int)type);
    cudaError_t e = cudaMalloc((void **)&m->w, m->row_bytes * (size_t)rows);
    if (e == cudaSuccess) e = cudaMemcpy(m->w, data, m->row_bytes * (size_t)rows, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        say(err, cap, "uploading a matrix", e);
        cudaFree(m->w);
        free(m);
        return NULL;
    }
    return m;
}

extern "C" void cuda_matrix_free(struct cuda_matrix *m) {
    if (!m) return;
    cudaFree(m->w);
    free(m);
}

// ---- matvecs --------------------------------------------------------------------------------

static pthread_mutex_t scratch_lock = PTHREAD_MUTEX_INITIALIZER;
static void *scratch[3];      // input floats, activation codes, outputs
static size_t scratch_cap[3];

static cudaError_t scratch_get(int i, size_t bytes, void **out) {
    if (bytes > scratch_cap[i]) {
        cudaFree(scratch[i]);
        scratch[i] = NULL;
        scratch_cap[i] = 0;
        cudaError_t e = cudaMalloc(&scratch[i], bytes);
        if (e != cudaSuccess) return e;
        scratch_cap[i] = bytes;
    }
    *out = scratch[i];
    return cudaSuccess;
}

static int stack_run(struct cuda_matrix *const *ms, int count, const float *x, float *const *ys, char *err,
                     size_t cap) {
    const int64_t n = ms[0]->n;
    int64_t total = 0;
    bool codes = false;
    for (int k = 0; k < count; k++) {
        if (ms[k]->n != n) {
            if (cap) snprintf(err, cap, "stack: matrix %d has rows of %lld, matrix 0 of %lld", k,
                              (long long)ms[k]->n, (long long)n);
            return -1;
        }
        total += ms[k]->rows;
        codes |= !cb_format_is_float((int)ms[k]->type);
    }
    float *dx, *dy;
    struct cb_act *da = NULL;
    cudaError_t e = scratch_get(0, (size_t)n * sizeof(float), (void **)&dx);
    if (e == cudaSuccess && codes) e = scratch_get(1, (size_t)(n / 32) * sizeof(struct cb_act), (void **)&da);
    if (e == cudaSuccess) e = scratch_get(2, (size_t)total * sizeof(float), (void **)&dy);
    if (e == cudaSuccess) e = cudaMemcpy(dx, x, (size_t)n * sizeof(float), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        say(err, cap, "matvec input", e);
        return -1;
    }
    const int nb = (int)(n / 32);
    if (codes) act_quantize_kernel<<<(nb + 127) / 128, 128>>>(dx, da, nb);
    // One launch for the whole stack, its outputs packed in dy in stack order.
    struct stack_desc s = {};
    int64_t off[CUDA_STACK_MAX], at = 0;
    int fmt = (int)ms[0]->type;
    for (int k = 0; k < count; k++) {
        off[k] = at;
        s.w[k] = ms[k]->w;
        s.y[k] = dy + at;
        s.rows[k] = ms[k]->rows;
        s.row_bytes[k] = ms[k]->row_bytes;
        s.fmt[k] = (int)ms[k]->type;
        if (s.fmt[k] != fmt) fmt = -1;
        at += ms[k]->rows;
    }
    s.count = count;
    launch_matvec(fmt, (unsigned)((total + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), s, da, dx, (int)n);
    e = cudaGetLastError();
    for (int k = 0; k < count && e == cudaSuccess; k++)
        e = cudaMemcpy(ys[k], dy + off[k], (size_t)ms[k]->rows * sizeof(float), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        say(err, cap, "matvec", e);
        return -1;
    }
    return 0;
}

extern "C" int cuda_matvec_stack(struct cuda_matrix *const *ms, int count, const float *x, float *const *ys, char *err,
                                 size_t cap) {
    if (count < 1 || count > CUDA_STACK_MAX) {
        if (cap) snprintf(err, cap, "stack of %d matrices: 1 to %d", count, CUDA_STACK_MAX);
        return -1;
    }
    pthread_mutex_lock(&scratch_lock);
    int rc = stack_run(ms, count, x, ys, err, cap);
    pthread_mutex_unlock(&scratch_lock);
    return rc;
}

// ---- activation rows ------------------------------------------------------------------------

struct cuda_rows {
    int64_t n, rows;
    float *x; // device: rows x n
};

extern "C" struct cuda_rows *cuda_rows_alloc(int64_t n, int64_t rows, char *err, size_t cap) {
    if (n <= 0 || rows <= 0) {
        if (cap) snprintf(err, cap, "rows %lld x %lld: both must be positive", (long long)rows, (long long)n);
        return NULL;
    }
    struct cuda_rows *r = (struct cuda_rows *)calloc(1, sizeof *r);
    if (!r) {
        if (cap) snprintf(err, cap, "out of memory");
        return NULL;
    }
    r->n = n;
    r->rows = rows;
    cudaError_t e = cudaMalloc((void **)&r->x, (size_t)n * (size_t)rows * sizeof(float));
    if (e != cudaSuccess) {
        say(err, cap, "allocating activation rows", e);
        free(r);
        return NULL;
    }
    return r;
}

extern "C" void cuda_rows_free(struct cuda_rows *r) {
    if (!r) return;
    cudaFree(r->x);
    free(r);
}

static int rows_copy(void *dst, const void *src, const struct cuda_rows *r, int64_t rows, cudaMemcpyKind kind,
                     const char *what, char *err, size_t cap) {
    if (rows < 0 || rows > r->rows) {
        if (cap) snprintf(err, cap, "%s: %lld rows, the buffer holds %lld", what, (long long)rows, (long long)r->rows);
        return -1;
    }
    cudaError_t e = cudaMemcpy(dst, src, (size_t)rows * (size_t)r->n * sizeof(float), kind);
    if (e != cudaSuccess) {
        say(err, cap, what, e);
        return -1;
    }
    return 0;
}

extern "C" int cuda_rows_upload(struct cuda_rows *r, const float *x, int64_t rows, char *err, size_t cap) {
    return rows_copy(r->x, x, r, rows, cudaMemcpyHostToDevice, "uploading activation rows", err, cap);
}

extern "C" int cuda_rows_download(const struct cuda_rows *r, float *x, int64_t rows, char *err, size_t cap) {
    return rows_copy(x, r->x, r, rows, cudaMemcpyDeviceToHost, "downloading activation rows", err, cap);
}
