// sampler.h — turning logits into the next token.
//
// Order (as the reference's common sampler chain): penalties, top-k, top-p,
// min-p, temperature, then a draw from the seeded generator. temp <= 0 is
// greedy (argmax after penalties).
#ifndef FRINK_SAMPLER_H
#define FRINK_SAMPLER_H

#include <stdint.h>

#include "core/err.h"
#include "frink.h"

// The parameters are the public frink_sampler_params (frink.h documents each). The logit bias
// in them is the caller's to apply (the API does, before the penalties); the sampler ignores it.
struct sampler;

void sampler_defaults(frink_sampler_params *p);
// Validates the parameters (names the bad one) and creates a sampler.
frink_status sampler_create(const frink_sampler_params *p, int n_vocab, struct sampler **out);
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
