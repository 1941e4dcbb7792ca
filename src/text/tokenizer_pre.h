// tokenizer_pre.h — byte-level BPE pre-tokenizers (internal to src/text).
//
// A pre-tokenizer turns one raw text fragment into "words" before BPE merges run. llama.cpp
// picks a list of regexes by the GGUF key tokenizer.ggml.pre and applies them in sequence:
// regex k splits every chunk produced by regex k-1, and both matches and the gaps between
// them become chunks. Four of the patterns are never run as regexes upstream; hand-written
// splitters recognise them by their exact text, and those splitters differ from the regex in
// corner cases, so we replicate the splitters (tokenizer_pre.c). The rest run through PCRE2 on
// the same "collapsed" text representation llama.cpp feeds to std::regex.
#ifndef FRINK_TOKENIZER_PRE_H
#define FRINK_TOKENIZER_PRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

// Flag changes a pre-tokenizer name applies to the BPE defaults.
enum {
    PRETOK_NO_CLEAN_SPACES = 1 << 0, // clean_spaces = false on detokenize
    PRETOK_IGNORE_MERGES = 1 << 1,   // a word that is a whole token is emitted directly
    PRETOK_ADD_BOS = 1 << 2,         // add_bos defaults to true
    PRETOK_BOS_NULL = 1 << 3,        // the BOS id defaults to none (glm4)
};

struct pretok;

// Compiles the pre-tokenizer named `name` (NULL or "" means llama.cpp's "default").
// Unknown names, and known names whose splitters frink does not implement, fail with
// FRINK_ERR_UNSUPPORTED naming them. *flags receives the PRETOK_* changes.
frink_status pretok_create(const char *name, struct pretok **out, unsigned *flags);
void pretok_free(struct pretok *p);

// Splits n code points into words. *lens (malloc'ed, caller frees) receives the word lengths
// in code points, in order, summing to n; zero lengths may occur (regex empty matches).
frink_status pretok_split(const struct pretok *p, const uint32_t *cpts, size_t n, size_t **lens,
                          size_t *n_lens);

#endif
