// sampler.h — turning logits into the next token.
//
// Order (as the reference's common sampler chain): penalties, top-k, top-p,
// min-p, temperature, then a draw from the seeded generator. temp <= 0 is
// greedy (argmax after penalties).
#ifndef FRINK_SAMPLER_H
#define FRINK_SAMPLER_H

#include <stdint.h>

#include "core/err.h"

struct sampler_params {
    float temp;             // <= 0: greedy
    int top_k;              // <= 0: off
    float top_p;            // >= 1: off
    float min_p;            // <= 0: off
    float repeat_penalty;   // 1: off
    float presence_penalty; // 0: off
    float frequency_penalty;// 0: off
    int penalty_last_n;     // window of recent tokens the penalties look at
    uint64_t seed;
};

struct sampler;

void sampler_defaults(struct sampler_params *p);
// Validates the parameters (names the bad one) and creates a sampler.
frink_status sampler_create(const struct sampler_params *p, int n_vocab, struct sampler **out);
void sampler_free(struct sampler *s);
// Records a token the model saw (prompt or generated) for the penalties.
void sampler_accept(struct sampler *s, int32_t tok);
// Picks a token from logits[n_vocab] (logits are modified: penalties applied).
int32_t sampler_sample(struct sampler *s, float *logits);
// The two halves of sampler_sample, for chains that act between them (logit
// bias, constraints): the penalties in place, then the pick (top-k, top-p,
// min-p, temperature, draw) from logits that may hold -INFINITY entries (at
// least one must be finite).
void sampler_penalize(struct sampler *s, float *logits);
int32_t sampler_pick(struct sampler *s, const float *logits);

#endif
