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

int main(void) {
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
