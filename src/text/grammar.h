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
// May the text end here (no partial character pending, some parse complete)?
bool grammar_state_can_end(const struct grammar_state *s);
// Can nothing more be accepted (no stack left)? A dead state never comes back to life.
bool grammar_state_dead(const struct grammar_state *s);

#endif
