// detok.h — streaming detokenization: token ids in, whole UTF-8 characters out.
//
// Pieces of one character often arrive in different tokens (byte-fallback tokens in SPM
// vocabularies, byte-level BPE merges that end mid-character). A detok holds such bytes
// until the character completes, so every chunk it hands out is valid UTF-8 on its own.
// The text it produces for a token sequence is tokenizer_decode's for the same ids (the
// leading-space rule of SPM vocabularies, the clean_spaces tidying), with bytes that can
// never form a character replaced by U+FFFD as WHATWG's and Python's decoders do.
//
// A detok belongs to one thread at a time; the tokenizer it reads must outlive it.
#ifndef FRINK_DETOK_H
#define FRINK_DETOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "text/tokenizer.h"

struct detok;

// Makes a detokenizer for t. special: render control tokens (as tokenizer_decode's
// special does). cont: the stream continues earlier text, so keep the leading space an
// SPM vocabulary would drop at the start of a sequence. t's two decoding rules (the first
// piece's space, clean_spaces) are read off it by experiment: microseconds, up to a couple
// of milliseconds for a large vocabulary without single-byte pieces. On success *out is
// freed with detok_free; on failure it is NULL (FRINK_ERR_NOMEM, or FRINK_ERR_UNSUPPORTED
// should no setting of those rules reproduce tokenizer_decode, which would be a bug here).
frink_status detok_create(const struct tokenizer *t, bool special, bool cont, struct detok **out);
void detok_free(struct detok *d);

// Adds token `tok`. *text / *len get the bytes now complete: owned by d, valid until the
// next call on d, possibly empty, never part of a character. Held back are the bytes of an
// unfinished character and, for vocabularies that tidy spaces, the few trailing bytes the
// tidying may still change (at most a space, a quote and a letter per pass). Bytes that
// can never form a character (invalid lead byte, broken continuation, overlong form,
// surrogate, above U+10FFFF) come out as U+FFFD (EF BF BD), one per maximal invalid
// subpart. An id outside the vocabulary is FRINK_ERR_ARG and changes nothing; so does
// FRINK_ERR_NOMEM.
frink_status detok_push(struct detok *d, int32_t tok, const char **text, size_t *len);

// Ends the stream: *text / *len get whatever is still held (an unfinished character comes
// out as U+FFFD). d is then as detok_create made it (the next push starts a sequence,
// with the same special and cont). Fails only with FRINK_ERR_NOMEM.
frink_status detok_flush(struct detok *d, const char **text, size_t *len);

#endif
