#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

// Work is published by bumping `gen`; each worker runs the job once per
// generation and then decrements `pending`. Workers spin on `gen` for a while
// before sleeping on the condition variable.
struct pool {
    int n;
    pthread_t *tids;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    _Atomic uint64_t gen;
    _Atomic int pending;
    _Atomic int quit;
    pool_fn fn;
    void *ctx;
    uint64_t barriers;
};

struct worker_arg {
    struct pool *p;
    int ith;
};

#define SPIN_ITERS 200000

static void *worker(void *arg) {
    struct worker_arg *wa = arg;
    struct pool *p = wa->p;
    int ith = wa->ith;
    free(wa);
    uint64_t seen = 0;
    for (;;) {
        uint64_t g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
            if (atomic_load(&p->quit)) return NULL;
            if (++spins < SPIN_ITERS) {
#if defined(__x86_64__)
                __builtin_ia32_pause();
#endif
                if ((spins & 1023) == 1023) sched_yield();
                continue;
            }
            pthread_mutex_lock(&p->mu);
            while (atomic_load(&p->gen) == seen && !atomic_load(&p->quit)) pthread_cond_wait(&p->cv, &p->mu);
            pthread_mutex_unlock(&p->mu);
            spins = 0;
        }
        seen = g;
        if (atomic_load(&p->quit)) return NULL;
        p->fn(p->ctx, ith, p->n);
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel);
    }
}

struct pool *pool_create(int n) {
    if (n < 1) n = 1;
    struct pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->n = n;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    p->tids = calloc((size_t)n, sizeof *p->tids);
    if (!p->tids) { free(p); return NULL; }
    for (int i = 1; i < n; i++) {
        struct worker_arg *wa = malloc(sizeof *wa);
        if (!wa) { p->n = i; pool_free(p); return NULL; }
        wa->p = p;
        wa->ith = i;
        if (pthread_create(&p->tids[i], NULL, worker, wa)) { free(wa); p->n = i; pool_free(p); return NULL; }
    }
    return p;
}

void pool_free(struct pool *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->quit, 1);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int i = 1; i < p->n; i++) pthread_join(p->tids[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->tids);
    free(p);
}

int pool_threads(const struct pool *p) { return p->n; }
uint64_t pool_barriers(const struct pool *p) { return p->barriers; }

void pool_run_sized(struct pool *p, pool_fn fn, void *ctx, int64_t work) {
    if (work < POOL_MIN_WORK || p->n == 1) fn(ctx, 0, 1);
    else pool_run(p, fn, ctx);
}

void pool_run(struct pool *p, pool_fn fn, void *ctx) {
    if (p->n == 1) {
        fn(ctx, 0, 1);
        return;
    }
    p->barriers++;
    p->fn = fn;
    p->ctx = ctx;
    atomic_store(&p->pending, p->n - 1);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(ctx, 0, p->n);
    // Spin for the stragglers, yielding now and then: when the machine is
    // oversubscribed the thread we wait for may need this core to finish.
    for (int spins = 0; atomic_load_explicit(&p->pending, memory_order_acquire) > 0; spins++) {
#if defined(__x86_64__)
        __builtin_ia32_pause();
#endif
        if ((spins & 1023) == 1023) sched_yield();
    }
}

int pool_default_threads(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
