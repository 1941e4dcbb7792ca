// vlm.h — what the vision-language text towers (qwen2vl, qwen3vl, hunyuan_vl, paddleocr,
// cogvlm) need at load beyond the shared binders. frink feeds them text tokens only, so what
// the reference computes for a text-only batch is what they run.
//
// M-RoPE's text form. The reference gives a text token four position streams: t, h and w all
// equal to its position, and a fourth ("extra") stream equal to 0. Every rotary pair whose
// section is t, h or w then turns by exactly the angle NeoX RoPE gives it (the angles advance
// by the same theta_scale for every stream), so the text form of M-RoPE is NeoX RoPE as long
// as no pair falls on the extra stream; a file whose sections leave one there is refused by name.
#ifndef FRINK_MODEL_VLM_H
#define FRINK_MODEL_VLM_H

#include <stdbool.h>

#include "model/loader.h"

// Reads `<arch>.rope.dimension_sections` (required unless `optional`: three or four counts of
// rotary pairs) and checks that each of the n_rot/2 pairs maps to the t, h or w stream, in the
// sequential layout (interleaved = false: sections follow one another, qwen2vl) or the
// interleaved one (true: pair j cycles t, h, w while j < 3 * its section, qwen3vl).
// Returns whether M-RoPE is in use (false for an absent optional key, or sections whose first
// two are not both positive when optional: the reference then runs plain NeoX RoPE); on a
// refusal returns false with ld->st set (a message naming the key or the pair).
bool vlm_mrope_text_check(struct loader *ld, int n_rot, bool interleaved, bool optional);

// cogvlm's attention for text tokens: the language expert's fused attn_qkv (the reference
// applies neither a bias nor its `.scale`, which stay unread) and attn_output with its `.scale`.
// The visual expert's vis_* tensors serve image positions only and stay unread.
void vlm_bind_cogvlm_attn(struct loader *ld, struct layer *L, int il);

// cogvlm rotates with ggml_rope's fixed parameters (base 10000, no scaling, no frequency
// factors): un-reads rope_freqs.weight if bind_globals took it (so it stays unread, as the
// reference leaves it) and resets the RoPE scaling the metadata set.
void vlm_cogvlm_plain_rope(struct loader *ld);

#endif
