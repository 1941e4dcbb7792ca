// logits-cmp.c — compares two files of float32 logits rows (frink's against the
// reference's), for bench/realistic-parity.sh.
//
//   logits-cmp A.f32 REF.f32 N_VOCAB [LABEL]
//
// Per row: nmse = sum (a - b)^2 / sum b^2. Prints the worst, mean and median
// row nmse, and top-1 agreement over all rows and over the rows where the
// reference's top-2 margin exceeds 0.1 (a random-weight model with a large
// vocabulary has many near-ties, where the top-1 of two correct engines can
// differ by rounding alone).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static float *read_all(const char *path, long *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *d = malloc((size_t)sz);
    if (d && fread(d, 1, (size_t)sz, f) != (size_t)sz) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *n = sz / (long)sizeof(float);
    return d;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: logits-cmp A.f32 REF.f32 N_VOCAB [LABEL]\n");
        return 2;
    }
    long na, nb, V = atol(argv[3]);
    float *a = read_all(argv[1], &na), *b = read_all(argv[2], &nb);
    if (!a || !b || V <= 0 || na != nb || na % V) {
        fprintf(stderr, "logits-cmp: %s / %s missing or of different sizes (%ld, %ld floats, vocab %ld)\n", argv[1],
                argv[2], na, nb, V);
        return 1;
    }
    long rows = na / V;
    double *e = malloc((size_t)rows * sizeof *e), sum = 0, worst = 0;
    long agree = 0, conf = 0, conf_agree = 0;
    for (long r = 0; r < rows; r++) {
        const float *x = a + r * V, *y = b + r * V;
        double num = 0, den = 0;
        long ax = 0, by = 0, by2 = -1;
        for (long i = 0; i < V; i++) {
            double d = (double)x[i] - y[i];
            num += d * d;
            den += (double)y[i] * y[i];
            if (x[i] > x[ax]) ax = i;
            if (y[i] > y[by]) by = i;
        }
        for (long i = 0; i < V; i++)
            if (i != by && (by2 < 0 || y[i] > y[by2])) by2 = i;
        e[r] = isnan(num) ? INFINITY : num / (den > 0 ? den : 1);
        sum += e[r];
        if (e[r] > worst) worst = e[r];
        agree += ax == by;
        if (y[by] - y[by2] > 0.1f) {
            conf++;
            conf_agree += ax == by;
        }
    }
    qsort(e, (size_t)rows, sizeof *e, cmp_d);
    printf("%-24s rows %4ld  nmse worst %.2e mean %.2e median %.2e  top-1 %ld/%ld (margin > 0.1: %ld/%ld)\n",
           argc > 4 ? argv[4] : argv[1], rows, worst, sum / rows, e[rows / 2], agree, rows, conf_agree, conf);
    free(e);
    free(a);
    free(b);
    return 0;
}
