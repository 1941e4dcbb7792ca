// fuzz_grammar.c — libFuzzer target for the GBNF parser and matcher (src/grammar/grammar.h).
//
// Input: the bytes before the first NUL are the grammar, those after it a text to match. When
// the grammar parses, the matcher runs on the text and on a text it generates itself (from the
// fresh state, up to 64 steps, each the first of a fixed list of candidate pieces accepted), and
// checks: accepts() agrees with advance(), advancing the whole text agrees with advancing it one
// byte at a time (status and can_end), a clone advances like its original, a rejected advance
// leaves the state unchanged, and a dead state accepts nothing. Any failure traps.
//
// Build:
//   clang -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
//     -Iinclude -Isrc -D_GNU_SOURCE tests/fuzz/fuzz_grammar.c src/grammar/grammar.c src/core/err.c \
//     -o fuzz_grammar
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/grammar.h"

#define FUZZ_MAX_GRAMMAR 4096
#define FUZZ_MAX_TEXT 256

static void check(bool ok) {
    if (!ok) __builtin_trap();
}

// Advances a fresh state by text whole and byte by byte; they must agree.
static void run_text(const struct grammar *g, const char *text, size_t n) {
    struct grammar_state *a, *b;
    if (grammar_state_create(g, &a)) return;
    if (grammar_state_clone(a, &b)) {
        grammar_state_free(a);
        return;
    }
    bool acc = grammar_state_accepts(a, text, n);
    frink_status sa = grammar_state_advance(a, text, n);
    if (sa != FRINK_ERR_UNSUPPORTED && sa != FRINK_ERR_NOMEM) check(acc == (sa == FRINK_OK));
    frink_status sb = FRINK_OK;
    for (size_t i = 0; i < n && !sb; i++) sb = grammar_state_advance(b, text + i, 1);
    if (sa != FRINK_ERR_UNSUPPORTED && sb != FRINK_ERR_UNSUPPORTED && sa != FRINK_ERR_NOMEM && sb != FRINK_ERR_NOMEM) {
        check((sa == FRINK_OK) == (sb == FRINK_OK));
        if (!sa) check(grammar_state_can_end(a) == grammar_state_can_end(b));
    }
    if (grammar_state_dead(a)) check(!grammar_state_accepts(a, "a", 1) && !grammar_state_accepts(a, "\0", 1));
    grammar_state_free(a), grammar_state_free(b);
}

static const char *const pieces[] = {"a", "0", " ", "\"", "{", "}", "[", "]", "(", ")", ",", ":", "-", "\n", "x", "1",
                                     "\xc3\xa9", "\xe4\xb8\xad", "\xf0\x9f\x98\x80", "\xe4", "\xb8\xad", "\x00", "\x7f"};

// Walks from the start state, taking the first accepted piece each step; a clone taken at the
// start follows the same steps.
static void walk(const struct grammar *g) {
    struct grammar_state *s, *c;
    if (grammar_state_create(g, &s)) return;
    if (grammar_state_clone(s, &c)) {
        grammar_state_free(s);
        return;
    }
    for (int step = 0; step < 64 && !grammar_state_dead(s); step++) {
        size_t k, np = sizeof pieces / sizeof *pieces;
        for (k = 0; k < np; k++) {
            size_t len = pieces[k][0] ? strlen(pieces[k]) : 1;
            if (!grammar_state_accepts(s, pieces[k], len)) {
                bool end = grammar_state_can_end(s);
                frink_status st = grammar_state_advance(s, pieces[k], len);
                check(st != FRINK_OK);
                check(grammar_state_can_end(s) == end);  // unchanged
                continue;
            }
            frink_status st = grammar_state_advance(s, pieces[k], len);
            if (st == FRINK_ERR_UNSUPPORTED || st == FRINK_ERR_NOMEM) goto done;
            check(st == FRINK_OK);
            st = grammar_state_advance(c, pieces[k], len);
            check(st == FRINK_OK);
            check(grammar_state_can_end(c) == grammar_state_can_end(s));
            break;
        }
        if (k == np) break;
    }
done:
    grammar_state_free(s), grammar_state_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *src = (const char *)data;
    const char *nul = memchr(src, 0, size);
    size_t glen = nul ? (size_t)(nul - src) : size;
    if (glen > FUZZ_MAX_GRAMMAR) return 0;
    struct grammar *g = NULL;
    if (grammar_parse(src, glen, NULL, &g)) return 0;
    if (nul) {
        size_t tlen = size - glen - 1;
        run_text(g, nul + 1, tlen < FUZZ_MAX_TEXT ? tlen : FUZZ_MAX_TEXT);
    }
    run_text(g, src, glen < FUZZ_MAX_TEXT ? glen : FUZZ_MAX_TEXT);
    walk(g);
    grammar_free(g);
    return 0;
}
