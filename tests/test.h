// test.h — the smallest test harness: CHECK counts, TEST_DONE reports.
// Each test program prints one "<file>: N passed, N failed" line and exits 1 on failure.
#ifndef FRINK_TEST_H
#define FRINK_TEST_H
#include <stdio.h>

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

#define TEST_DONE() \
    (printf("%s: %d passed, %d failed\n", __FILE__, t_pass, t_fail), t_fail ? 1 : 0)

#endif
