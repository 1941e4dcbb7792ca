// test.h — the smallest test harness: CHECK counts, TEST_DONE reports.
// Each test program prints one "<file>: N passed, N failed" line and exits 1 on failure.
#ifndef FRINK_TEST_H
#define FRINK_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static int t_pass, t_fail;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            t_pass++;                                                        \
        } else {                                                             \
            t_fail++;                                                        \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

// The whole file at `path` in a malloc'd buffer with a NUL after its *len bytes; NULL when it
// cannot be read.
__attribute__((unused)) static char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *d = NULL;
    long sz = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (sz >= 0 && fseek(f, 0, SEEK_SET) == 0 && (d = malloc((size_t)sz + 1)) && fread(d, 1, (size_t)sz, f) != (size_t)sz) {
        free(d);
        d = NULL;
    }
    fclose(f);
    if (d) d[sz] = 0, *len = (size_t)sz;
    return d;
}

// Runs `BIN ARGS` through the shell, capturing stdout (and stderr when merge; else it is
// dropped) into out (NUL-terminated, at most cap - 1 bytes). Returns the exit status, 128 + the
// signal when one killed it, -1 when it could not start.
__attribute__((unused)) static int test_run_cmd(const char *bin, const char *args, char *out, size_t cap, int merge) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s %s %s", bin, args, merge ? "2>&1" : "2>/dev/null");
    FILE *p = popen(cmd, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

#define TEST_DONE() \
    (printf("%s: %d passed, %d failed\n", __FILE__, t_pass, t_fail), t_fail ? 1 : 0)

#endif
