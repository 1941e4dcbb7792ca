// pool.h — a persistent thread pool that runs one function on every thread.
//
// pool_run(p, fn, ctx) calls fn(ctx, ith, nth) on nth threads (the caller is
// thread 0) and returns when all are done: one barrier. Kernels split their
// own row ranges with pool_range(). Threads spin briefly, then sleep, so
// back-to-back runs (decode) don't pay a futex wake each time.
#ifndef FRINK_POOL_H
#define FRINK_POOL_H

#include <stdint.h>

struct pool;
typedef void (*pool_fn)(void *ctx, int ith, int nth);

struct pool *pool_create(int n_threads); // n_threads >= 1; NULL on failure
void pool_free(struct pool *p);
int pool_threads(const struct pool *p);
void pool_run(struct pool *p, pool_fn fn, void *ctx);
uint64_t pool_barriers(const struct pool *p); // multi-threaded pool_run calls so far

// Like pool_run, but work too small to pay for waking threads (`work` below
// POOL_MIN_WORK, in multiply-adds or similar units) runs on the caller alone as
// fn(ctx, 0, 1): no barrier. Every task splits its range by (ith, nth), so the
// result is the same either way.
#define POOL_MIN_WORK 32768
void pool_run_sized(struct pool *p, pool_fn fn, void *ctx, int64_t work);

// Splits [0, n) into nth near-equal parts; part ith is [*r0, *r1).
// `align` rounds part boundaries to multiples of it (for blocked kernels).
static inline void pool_range(int64_t n, int ith, int nth, int64_t align, int64_t *r0, int64_t *r1) {
    int64_t chunks = (n + align - 1) / align;
    int64_t c0 = chunks * ith / nth, c1 = chunks * (ith + 1) / nth;
    *r0 = c0 * align < n ? c0 * align : n;
    *r1 = c1 * align < n ? c1 * align : n;
}

// Number of hardware threads available to this process.
int pool_default_threads(void);

#endif
