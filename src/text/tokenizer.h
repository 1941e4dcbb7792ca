// tokenizer.h — text <-> token ids for the vocabularies stored in GGUF files.
//
// Token ids must match llama.cpp exactly, so this reproduces its tokenizers rather than the
// Hugging Face originals: SentencePiece-style BPE over scores with byte fallback
// (tokenizer.ggml.model = "llama") and GPT-2 byte-level BPE with merges ("gpt2") behind the
// pre-tokenizer named by tokenizer.ggml.pre (see tokenizer_pre.h). Special-token handling,
// BOS/EOS rules, the end-of-generation set and detokenization follow llama.cpp's llama-vocab.
//
// A loaded tokenizer copies everything it needs: the gguf_file may be closed afterwards.
// All functions taking a const tokenizer are safe to call from several threads at once.
#ifndef FRINK_TOKENIZER_H
#define FRINK_TOKENIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "core/gguf.h"

struct tokenizer;

// Builds the tokenizer described by the tokenizer.ggml.* keys of `f`. Unknown or unsupported
// tokenizer.ggml.model / tokenizer.ggml.pre values are refused by name
// (FRINK_ERR_UNSUPPORTED); malformed keys give FRINK_ERR_FORMAT. For "llama" (SPM) vocabs the
// pre key is ignored, as llama.cpp does. On success *out must be freed with tokenizer_free.
frink_status tokenizer_load(const struct gguf_file *f, struct tokenizer **out);
void tokenizer_free(struct tokenizer *t);

// Tokenizes `len` bytes of `text` (any bytes; invalid UTF-8 is handled as llama.cpp does).
// add_special: add BOS and/or EOS as the vocab's add_bos/add_eos say.
// parse_special: recognise CONTROL/UNKNOWN token texts in the input; USER_DEFINED token texts
// are always recognised, as upstream does.
// On success *ids is malloc'ed (caller frees; may be NULL when *n is 0) and *n is its length.
frink_status tokenizer_encode(const struct tokenizer *t, const char *text, size_t len,
                              bool add_special, bool parse_special, int32_t **ids, size_t *n);

// Writes the bytes of token `id` as llama.cpp's token_to_piece renders it (special: render
// CONTROL/UNKNOWN tokens too; otherwise they are empty). Writes at most `cap` bytes, no NUL,
// and returns the number written (pieces are short; a piece longer than cap is truncated).
// Returns -1 for an id outside the vocab.
int tokenizer_piece(const struct tokenizer *t, int32_t id, char *buf, size_t cap, bool special);

// Detokenizes a whole sequence like llama.cpp's common_detokenize(ids, special): pieces are
// concatenated, SPM vocabs drop one leading space when the sequence starts with a text token,
// and vocabs with clean_spaces tidy " ?", " 's" and the like. Ids outside the vocab render as
// nothing. Returns a malloc'ed NUL-terminated string (NULL only when out of memory).
char *tokenizer_decode(const struct tokenizer *t, const int32_t *ids, size_t n, bool special);

int32_t tokenizer_n_vocab(const struct tokenizer *t);
int32_t tokenizer_bos(const struct tokenizer *t); // -1 if none
int32_t tokenizer_eos(const struct tokenizer *t); // -1 if none
int32_t tokenizer_eot(const struct tokenizer *t); // end of turn (tokenizer.ggml.eot_token_id or detected); -1 if none
// End-of-generation set: eos, eot, eom, fim pad/repo/sep and every token whose text is one
// of llama.cpp's end markers (<|im_end|>, <|eot_id|>, <end_of_turn>, ...).
bool tokenizer_is_eog(const struct tokenizer *t, int32_t id);
bool tokenizer_add_bos(const struct tokenizer *t);
// The two rules of tokenizer_decode beyond concatenation: an SPM vocabulary's first piece
// loses one leading space (add_space_prefix), and clean_spaces tidies " ?", " 's" and the like.
bool tokenizer_add_space_prefix(const struct tokenizer *t);
bool tokenizer_clean_spaces(const struct tokenizer *t);

// Token text as stored in the vocab (byte-level alphabet for gpt2, ▁ for spaces in SPM).
// NULL for a bad id. *len receives the byte length.
const char *tokenizer_token_text(const struct tokenizer *t, int32_t id, size_t *len);

#endif
