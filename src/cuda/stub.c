// stub.c — cuda.h on a build without CUDA (the default build links this, `make CUDA=1` does not):
// no device, and every call that would need one fails saying so.
#include <stdio.h>

#include "cuda/cuda.h"

static const char no_cuda[] = "frink was built without CUDA (rebuild with make CUDA=1)";

static void say(char *err, size_t cap) {
    if (cap) snprintf(err, cap, "%s", no_cuda);
}

int cuda_device_count(char *err, size_t cap) {
    say(err, cap);
    return -1;
}

bool cuda_available(void) { return false; }

int cuda_describe(char *buf, size_t cap, char *err, size_t cap_err) {
    if (cap) buf[0] = 0;
    say(err, cap_err);
    return -1;
}

bool cuda_type_supported(uint32_t type) {
    (void)type;
    return false;
}

struct cuda_matrix *cuda_matrix_upload(uint32_t type, const void *data, int64_t n, int64_t rows, char *err,
                                       size_t cap) {
    (void)type, (void)data, (void)n, (void)rows;
    say(err, cap);
    return NULL;
}

void cuda_matrix_free(struct cuda_matrix *m) { (void)m; }

int cuda_matvec_stack(struct cuda_matrix *const *ms, int count, const float *x, float *const *ys, char *err,
                      size_t cap) {
    (void)ms, (void)count, (void)x, (void)ys;
    say(err, cap);
    return -1;
}

struct cuda_rows *cuda_rows_alloc(int64_t n, int64_t rows, char *err, size_t cap) {
    (void)n, (void)rows;
    say(err, cap);
    return NULL;
}

void cuda_rows_free(struct cuda_rows *r) { (void)r; }

int cuda_rows_upload(struct cuda_rows *r, const float *x, int64_t rows, char *err, size_t cap) {
    (void)r, (void)x, (void)rows;
    say(err, cap);
    return -1;
}

int cuda_rows_download(const struct cuda_rows *r, float *x, int64_t rows, char *err, size_t cap) {
    (void)r, (void)x, (void)rows;
    say(err, cap);
    return -1;
}
