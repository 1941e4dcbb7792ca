// mrope.h — the text form of multi-section RoPE (M-RoPE) of the vision-language text towers
// (qwen2vl, qwen3vl, ...), checked at load.
//
// The reference gives a text token four position streams: t, h and w all equal to its
// position, and a fourth ("extra") stream equal to 0. Every rotary pair whose section is t, h
// or w then turns by exactly the angle NeoX RoPE gives it (the angles advance by the same
// theta_scale for every stream), so the text form of M-RoPE is NeoX RoPE as long as no pair
// falls on the extra stream; a file whose sections leave one there is refused by name.
#ifndef FRINK_MODEL_MROPE_H
#define FRINK_MODEL_MROPE_H

#include <stdbool.h>

#include "model/loader.h"

// Reads `<arch>.rope.dimension_sections` (required: four counts of rotary pairs) and checks
// that each of the n_rot/2 pairs maps to the t, h or w stream, in the sequential layout
// (interleaved = false: sections follow one another, qwen2vl) or the interleaved one (true:
// pair j cycles t, h, w while j < 3 * its section, qwen3vl). Returns false with ld->st set
// (a message naming the key or the pair) otherwise.
bool mrope_text_check(struct loader *ld, int n_rot, bool interleaved);

#endif
