// vlm.h — what the vision-language text towers (qwen2vl, qwen3vl, hunyuan_vl, paddleocr,
// cogvlm) and their kin need at load beyond the shared binders. frink feeds them text tokens
// only, so what the reference computes for a text-only batch is what they run.
//
// M-RoPE's text form. The reference gives a text token four position streams: t, h and w all
// equal to its position, and a fourth ("extra") stream equal to 0. Every rotary pair whose
// section is t, h or w then turns by exactly the angle NeoX RoPE gives it (the angles advance
// by the same theta_scale for every stream), and a pair on the extra stream turns by angle 0:
// it is scaled by the RoPE magnitude (attn_factor, YaRN's mscale) and not rotated. frink runs
// that as NeoX RoPE whose frequency factor is +inf on the extra pairs (theta / inf = 0 exactly,
// as the reference's 0 * theta_scale^j), the layer feature mrope_extra.
#ifndef FRINK_MODEL_VLM_H
#define FRINK_MODEL_VLM_H

#include <stdbool.h>

#include "model/loader.h"

// Reads `<arch>.rope.dimension_sections` (required unless `optional`: three or four counts of
// rotary pairs) into hp.mrope_sections and hp.mrope_mode, in the sequential layout
// (interleaved = false: sections follow one another, qwen2vl) or the interleaved one (true:
// pair j cycles t, h, w while j < 3 * its section, qwen3vl), and sets hp.mrope_extra when one
// of the n_rot/2 pairs falls on the extra stream. Returns whether M-RoPE is in use (false for
// an absent optional key, or optional sections whose first two are not both positive: the
// reference then runs plain NeoX RoPE); a malformed key fails with ld->st set, naming it.
bool vlm_mrope_read(struct loader *ld, int n_rot, bool interleaved, bool optional);

// The model's RoPE frequency factors, once bind_globals has bound rope_freqs.weight: for
// AX_NO_ROPE_FREQS families, un-reads it (it stays unread, so a file with it is refused by name
// as the reference leaves it unused); with hp.mrope_extra, replaces the factors by a copy
// (the file's or 1) with +inf on the extra stream's pairs.
void vlm_rope_factors(struct loader *ld);

// cogvlm's attention for text tokens: the language expert's fused attn_qkv (the reference
// applies neither a bias nor its `.scale`, which stay unread) and attn_output with its `.scale`.
// The visual expert's vis_* tensors serve image positions only and stay unread.
void vlm_bind_cogvlm_attn(struct loader *ld, struct layer *L, int il);

// cogvlm rotates with ggml_rope's fixed parameters: base 10000 and no scaling, whatever the
// metadata says (its frequency factors are AX_NO_ROPE_FREQS's).
void vlm_cogvlm_plain_rope(struct loader *ld);

#endif
