// progress.c — a status line on stderr for work that may take more than a second: loading a
// model, a long prefill, `frink gen`. Only when stderr is a terminal; from the first second on
// (a thread redraws it four times a second with the seconds spent, so a step that takes long
// still shows the clock moving); the line is its own — the work starts it at the left margin
// and it is erased when the work ends — so it never overwrites output, and output that follows
// starts on a clean line.
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

#define PROGRESS_DELAY_S 1.0  // quicker work shows nothing
#define PROGRESS_TICK_MS 250

struct cli_progress {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, shown;
    double t0;
    char text[200];
};

static double progress_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Under p->mu.
static void progress_draw(struct cli_progress *p) {
    double dt = progress_now() - p->t0;
    if (dt < PROGRESS_DELAY_S) return;
    fprintf(stderr, "\r\033[K%s, %.0f s", p->text, dt);
    fflush(stderr);
    p->shown = true;
}

static void *progress_main(void *arg) {
    struct cli_progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += PROGRESS_TICK_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (!p->stop) progress_draw(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct cli_progress *cli_progress_start(const char *fmt, ...) {
    if (!isatty(2)) return NULL;
    struct cli_progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    p->t0 = progress_now();
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->th, NULL, progress_main, p)) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

void cli_progress_set(struct cli_progress *p, const char *fmt, ...) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->text, sizeof p->text, fmt, ap);
    va_end(ap);
    if (p->shown) progress_draw(p); // the news at once, not at the next tick
    pthread_mutex_unlock(&p->mu);
}

void cli_progress_end(struct cli_progress *p) {
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->th, NULL);
    if (p->shown) {
        fputs("\r\033[K", stderr); // only the progress line itself is erased
        fflush(stderr);
    }
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
