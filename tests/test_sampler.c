// Sampler: each filter on hand-made logits, penalties, seeds, and refusals of
// bad parameters.
#include <math.h>
#include <string.h>

#include "text/sampler.h"
#include "test.h"

#define V 8

static int draw_hist(frink_sampler_params p, const float *base, int n, int *hist) {
    struct sampler *s;
    if (sampler_create(&p, V, &s)) return -1;
    memset(hist, 0, V * sizeof *hist);
    for (int i = 0; i < n; i++) {
        float lg[V];
        memcpy(lg, base, sizeof lg);
        hist[sampler_sample(s, lg)]++;
    }
    sampler_free(s);
    return 0;
}

// Top-k by selection (a heap over the vocabulary) against the full sort: the sampler with top_k
// = k must draw exactly what the unrestricted sampler draws from logits where everything past
// the k first (descending logit, ties by ascending id) is -inf — same seed, same tokens, on a
// large vocabulary with many ties, at every k that matters.
static float g_lg[5000];
static int cmp_ref_g(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    if (g_lg[x] != g_lg[y]) return g_lg[x] > g_lg[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static void check_top_k_selection(void) {
    enum { NV = 5000 };
    static int ord[NV];
    static float masked[NV], work[NV];
    uint64_t x = 12345;
    int bad = 0, checked = 0;
    const int ks[] = {1, 2, 7, 40, 41, 100, NV - 1};
    for (int round = 0; round < 6; round++) {
        for (int i = 0; i < NV; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            // Few distinct values: ties everywhere, across the k boundary too.
            g_lg[i] = (float)((x >> 33) % (round < 3 ? 50 : 5000)) * 0.125f - 3.0f;
            ord[i] = i;
        }
        qsort(ord, NV, sizeof *ord, cmp_ref_g);
        for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
            int k = ks[ki];
            for (int i = 0; i < NV; i++) masked[i] = -INFINITY;
            for (int i = 0; i < k; i++) masked[ord[i]] = g_lg[ord[i]];
            frink_sampler_params a, b;
            sampler_defaults(&a);
            a.temp = 0.9f, a.top_p = round & 1 ? 0.8f : 1.0f, a.min_p = round & 2 ? 0.05f : 0, a.seed = 77 + round;
            b = a;
            a.top_k = k;
            b.top_k = 0;
            struct sampler *sa, *sb;
            if (sampler_create(&a, NV, &sa) || sampler_create(&b, NV, &sb)) {
                bad++;
                continue;
            }
            for (int d = 0; d < 200; d++) {
                memcpy(work, g_lg, sizeof work);
                int32_t ta = sampler_sample(sa, work);
                memcpy(work, masked, sizeof work);
                int32_t tb = sampler_sample(sb, work);
                bad += ta != tb;
                checked++;
            }
            sampler_free(sa);
            sampler_free(sb);
        }
    }
    CHECK(bad == 0, "top-k by selection draws what the full sort of the masked logits draws (%d of %d differ)", bad,
          checked);
}

int main(void) {
    check_top_k_selection();
    const float base[V] = {1.0f, 3.0f, 2.5f, 0.0f, -1.0f, 2.9f, -5.0f, 0.5f};
    frink_sampler_params p;
    int h[V];

    sampler_defaults(&p);
    p.temp = 0;
    draw_hist(p, base, 10, h);
    CHECK(h[1] == 10, "greedy picks the argmax");

    sampler_defaults(&p);
    p.temp = 1;
    p.top_k = 2;
    p.top_p = 1;
    p.min_p = 0;
    draw_hist(p, base, 2000, h);
    CHECK(h[1] + h[5] == 2000 && h[1] > 0 && h[5] > 0, "top-k 2 keeps exactly the two best (%d %d)", h[1], h[5]);

    sampler_defaults(&p);
    p.temp = 1;
    p.top_k = 0;
    p.min_p = 0;
    p.top_p = 0.5f; // softmax of base: p(1) ~ 0.33 , p(5) ~ 0.30: two tokens reach 0.5
    draw_hist(p, base, 2000, h);
    CHECK(h[1] + h[5] == 2000, "top-p 0.5 keeps the smallest set reaching 0.5");

    sampler_defaults(&p);
    p.temp = 1;
    p.top_k = 0;
    p.top_p = 1;
    p.min_p = 0.7f; // keeps tokens with p >= 0.7 p_max: logit >= 3 + ln 0.7 = 2.64
    draw_hist(p, base, 2000, h);
    CHECK(h[1] + h[5] == 2000 && h[2] == 0, "min-p 0.7 drops logits below max + ln 0.7");

    // Repetition penalty: with token 1 seen, greedy moves to token 5.
    sampler_defaults(&p);
    p.temp = 0;
    p.repeat_penalty = 1.5f;
    struct sampler *s;
    sampler_create(&p, V, &s);
    sampler_accept(s, 1);
    float lg[V];
    memcpy(lg, base, sizeof lg);
    CHECK(sampler_sample(s, lg) == 5, "repeat penalty demotes a seen token");
    CHECK(fabsf(lg[1] - 2.0f) < 1e-6f, "positive logit divided by the penalty: %g", lg[1]);
    sampler_free(s);

    // Presence and frequency penalties subtract.
    sampler_defaults(&p);
    p.temp = 0;
    p.presence_penalty = 0.5f;
    p.frequency_penalty = 0.25f;
    sampler_create(&p, V, &s);
    sampler_accept(s, 2);
    sampler_accept(s, 2);
    memcpy(lg, base, sizeof lg);
    sampler_sample(s, lg);
    CHECK(fabsf(lg[2] - (2.5f - 0.5f - 0.5f)) < 1e-6f, "presence + 2 x frequency subtracted: %g", lg[2]);
    sampler_free(s);

    // Bad parameters are refused with a message.
    sampler_defaults(&p);
    p.top_p = 0;
    CHECK(sampler_create(&p, V, &s) == FRINK_ERR_ARG && strstr(frink_errmsg(), "top-p"), "top-p 0 refused");
    sampler_defaults(&p);
    p.min_p = 2;
    CHECK(sampler_create(&p, V, &s) == FRINK_ERR_ARG && strstr(frink_errmsg(), "min-p"), "min-p 2 refused");
    sampler_defaults(&p);
    p.repeat_penalty = 0;
    CHECK(sampler_create(&p, V, &s) == FRINK_ERR_ARG, "repeat penalty 0 refused");
    return TEST_DONE();
}
