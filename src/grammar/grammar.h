// grammar.h — GBNF grammars (llama.cpp's dialect) and an incremental matcher over them.
//
// A grammar is parsed once into an immutable `struct grammar` (safe to share between threads)
// and matched by `struct grammar_state`s, each a position in it, advanced by bytes of UTF-8.
//
// How matching works: the state is a set of parse stacks, as in llama.cpp. A stack is a list
// of positions in the flattened grammar (each the element to match next in some alternative),
// the top being a character class; an empty stack means the grammar may end here. Advancing by
// a code point keeps the stacks whose top matches it, moves their top one element on, and
// expands rule references on top until every top is a class again. Stacks are deduplicated.
// Expansion terminates because left recursion is refused at parse time (direct, indirect and
// through nullable prefixes); a repeated element that can match nothing (`("a"?)*`) is such a
// recursion and is refused by name. Stacks grow only with non-tail nesting (a rule reference
// last in its alternative does not push), and both their depth and their number are capped
// (GRAMMAR_MAX_DEPTH, GRAMMAR_MAX_STACKS): past a cap, advance fails with UNSUPPORTED.
//
// UTF-8: the state keeps a partial character across calls, so a piece may end mid-character;
// such a piece is viable when some stack's class meets a code point with that prefix.
#ifndef FRINK_GRAMMAR_H
#define FRINK_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frink.h"

#define GRAMMAR_MAX_DEPTH 1024   // positions in one stack
#define GRAMMAR_MAX_STACKS 4096  // stacks in one state
#define GRAMMAR_MAX_REPEAT 1000  // largest m or n in {m,n}
#define GRAMMAR_MAX_RULES 20000  // rules after groups and repetitions become rules

struct grammar;
struct grammar_state;

// Parses the GBNF text src[0..len) with start rule `root` (NULL: "root"). On success *out owns
// the grammar (grammar_free). FRINK_ERR_FORMAT on a syntax error ("line 3, column 14: expected
// ')'"), an undefined rule, left recursion, a repeated nullable element or a missing start rule,
// each message naming the rule, or a grammar past GRAMMAR_MAX_RULES; FRINK_ERR_NOMEM. *out is
// NULL on failure.
frink_status grammar_parse(const char *src, size_t len, const char *root, struct grammar **out);
void grammar_free(struct grammar *g);

// A fresh state at the start of `g` (which must outlive it). *out NULL on failure.
frink_status grammar_state_create(const struct grammar *g, struct grammar_state **out);
// An independent copy of `s` (a few memcpys).
frink_status grammar_state_clone(const struct grammar_state *s, struct grammar_state **out);
void grammar_state_free(struct grammar_state *s);

// Could bytes[0..n) come next (a trailing partial character counts if it can be completed)?
// Does not change `s`.
bool grammar_state_accepts(const struct grammar_state *s, const char *bytes, size_t n);
// Consumes bytes[0..n). FRINK_ERR_ARG when they are not accepted (invalid UTF-8 included),
// FRINK_ERR_UNSUPPORTED past a size cap, FRINK_ERR_NOMEM; on any failure `s` is unchanged.
frink_status grammar_state_advance(struct grammar_state *s, const char *bytes, size_t n);
// grammar_state_advance, and on failure *bad (when not NULL) is the offset of the byte refused.
frink_status grammar_state_advance_at(struct grammar_state *s, const char *bytes, size_t n, size_t *bad);
// May the text end here (no partial character pending, some parse complete)?
bool grammar_state_can_end(const struct grammar_state *s);
// Can nothing more be accepted (no stack left)? A dead state never comes back to life.
bool grammar_state_dead(const struct grammar_state *s);

// ---- Masking a whole vocabulary ----
// A grammar_vocab is a vocabulary's pieces as a trie (immutable once built: share it between
// threads and grammars); a grammar_dfa is one grammar's memo of match states and the state each
// byte leads to (grown by the masks, one user at a time). The mask is exactly the per-token
// check grammar_vocab_mask_naive makes (tests/test_grammar.c pins the two equal).

struct grammar_vocab;
struct grammar_dfa;

// Takes blob and off (malloc'd, freed with the vocab, or at once on failure): token t's bytes
// are blob[off[t] .. off[t+1]) for t < n_tok. A token with no bytes, or more than 511, is never
// allowed.
frink_status grammar_vocab_build(int n_tok, char *blob, uint32_t *off, struct grammar_vocab **out);
void grammar_vocab_free(struct grammar_vocab *v);
int grammar_vocab_n_tok(const struct grammar_vocab *v);
// Token t's bytes (*len of them); NULL when it has none (or is never allowed).
const char *grammar_vocab_piece(const struct grammar_vocab *v, int t, size_t *len);

frink_status grammar_dfa_create(const struct grammar *g, struct grammar_dfa **out);
void grammar_dfa_free(struct grammar_dfa *d);
// For tests: the memo's state counts past which it is dropped before a mask (soft) and a mask
// gives up (hard); the defaults are 16384 and 65536 (and 32 and 128 MiB).
void grammar_dfa_limit(struct grammar_dfa *d, uint32_t soft_states, uint32_t hard_states);

// allowed[t] (t < n_tok) = 1 when s accepts token t's bytes, else 0. The memo grows as needed
// and is dropped between masks past a size cap; the last few whole masks are kept by state (and
// dropped when v changes). FRINK_ERR_UNSUPPORTED when one mask would grow the memo past a hard
// cap, or FRINK_ERR_NOMEM: allowed is then partly written, and grammar_vocab_mask_naive gives
// the answer.
frink_status grammar_vocab_mask(const struct grammar_vocab *v, struct grammar_dfa *d, const struct grammar_state *s,
                                uint8_t *allowed);
// The reference twin: each token's bytes checked alone (grammar_state_accepts); writes all of
// allowed[0 .. n_tok) as grammar_vocab_mask does.
void grammar_vocab_mask_naive(const struct grammar_vocab *v, const struct grammar_state *s, uint8_t *allowed);
// Does s accept token t's bytes? Through the memo (exactly grammar_state_accepts).
bool grammar_vocab_accepts(const struct grammar_vocab *v, struct grammar_dfa *d, const struct grammar_state *s, int t);

// engine/grammar_api.c, for tests and bench/grammar-speed.c: allowed[t] (t < the model's
// vocabulary) = may token t come next, by the trie walk or (naive) by checking every token alone.
void grammar_api_allowed(frink_grammar *g, uint8_t *allowed, bool naive);

#endif
