// detok.c — the streaming detokenizer: tokenizer_decode, one token at a time.
//
// Bytes flow through three stages, each a small state machine:
//
//   piece bytes --(first piece: drop one leading space)--> tidy --> utf8 --> out
//
// tidy reproduces tokenizer_decode's clean_spaces passes (only for vocabularies that
// have clean_spaces). Each pass is a local rewrite, so each becomes a transducer that
// holds back a few trailing bytes until the next bytes decide them:
//   pass 1  " ?" " !" " ." " ,"  -> drop the space      holds " "
//   pass 2  " ' "                -> "'"                 holds " " or " '"
//   pass 3  " 's" " 'm" " 're" " 've" -> drop the space holds " ", " '", " 'r" or " 'v"
// The passes run one after the other over the whole text in tokenizer_decode, so here
// pass 1's output feeds pass 2 and pass 2's feeds pass 3. Pass 2 of the upstream code
// writes '\0' over the space after a quote it tidied, which only stops that space from
// starting another " ' " match; here it is simply never held.
//
// utf8 holds the bytes of an unfinished character and replaces what can never become
// one with U+FFFD, one per maximal subpart (Unicode §3.9, "U+FFFD substitution of
// maximal subparts", which WHATWG's and Python's decoders follow).
#include "text/detok.h"

#include <stdlib.h>
#include <string.h>

struct detok {
    const struct tokenizer *t;
    bool special, cont;
    // tokenizer_decode's two rules, as the tokenizer states them.
    bool space_prefix; // the first piece loses one leading space
    bool clean;        // clean_spaces tidying
    bool first;        // the next push is the first token of the sequence

    bool p1_space;     // pass 1: a held space
    char p2[2];        // pass 2: held " " or " '"
    int p2n;
    char p3[3];        // pass 3: held " ", " '", " 'r" or " 'v"
    int p3n;

    unsigned char u[4]; // utf8: bytes of the unfinished character
    int un, need;       // bytes held, continuation bytes still needed
    unsigned char lo, hi; // allowed range of the next continuation byte

    char *piece;        // [piece_cap] the current token's bytes
    size_t piece_cap;
    char *out;          // [out_cap] what the current call hands out
    size_t out_n, out_cap;
};

// ---- output ----------------------------------------------------------------------------

// Makes room for n more output bytes. Called before a stage runs, with a bound on what it
// can write, so the stages themselves never fail.
static frink_status out_reserve(struct detok *d, size_t n) {
    if (d->out_n + n <= d->out_cap) return FRINK_OK;
    size_t cap = d->out_cap ? d->out_cap : 64;
    while (cap < d->out_n + n) cap *= 2;
    char *p = realloc(d->out, cap);
    if (!p) return frink_fail(FRINK_ERR_NOMEM, "detokenizer");
    d->out = p;
    d->out_cap = cap;
    return FRINK_OK;
}

// Bytes one call can write for `in` bytes of input: everything held (at most 6 bytes in
// the tidy passes, 3 in utf8) plus the input, each byte at worst one U+FFFD.
#define OUT_BOUND(in) (((in) + 9) * 3)

static void out_bytes(struct detok *d, const void *p, size_t n) {
    memcpy(d->out + d->out_n, p, n);
    d->out_n += n;
}

// ---- utf8 ------------------------------------------------------------------------------

static void u8_replace(struct detok *d) { out_bytes(d, "\xEF\xBF\xBD", 3); }

// Feeds one byte. Lead bytes set the range of the first continuation byte (the
// well-formed sequences of Unicode Table 3-7): E0 and F0 exclude overlong forms, ED
// surrogates, F4 code points above U+10FFFF. A byte outside the expected range ends the
// held subpart as one U+FFFD and is then read again as a lead byte.
static void u8_byte(struct detok *d, unsigned char b) {
    if (d->need) {
        if (b >= d->lo && b <= d->hi) {
            d->u[d->un++] = b;
            d->lo = 0x80, d->hi = 0xBF;
            if (--d->need == 0) {
                out_bytes(d, d->u, (size_t)d->un);
                d->un = 0;
            }
            return;
        }
        u8_replace(d);
        d->un = d->need = 0;
    }
    if (b < 0x80) {
        d->out[d->out_n++] = (char)b;
        return;
    }
    int need = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) need = 1;
    else if (b >= 0xE0 && b <= 0xEF) need = 2, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    else if (b >= 0xF0 && b <= 0xF4) need = 3, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    if (!need) {
        u8_replace(d); // 80..C1 (continuation or overlong lead), F5..FF
        return;
    }
    d->u[0] = b;
    d->un = 1;
    d->need = need;
    d->lo = lo, d->hi = hi;
}

// The end of the text: an unfinished character is one maximal subpart.
static void u8_end(struct detok *d) {
    if (d->un) u8_replace(d);
    d->un = d->need = 0;
}

// ---- tidy: the clean_spaces passes -------------------------------------------------------

// Pass 3: the space before 's 'm 're 've goes.
static void p3_put(struct detok *d, char c) {
    if (!d->p3n) {
        if (c == ' ') d->p3[d->p3n++] = c;
        else u8_byte(d, (unsigned char)c);
        return;
    }
    char h[4];
    memcpy(h, d->p3, (size_t)d->p3n);
    int n = d->p3n;
    h[n++] = c;
    d->p3n = 0;
    // Only prefixes of a pattern are ever held, so h[1] is the quote once n >= 3.
    bool match = n == 3 ? h[2] == 's' || h[2] == 'm' : n == 4 && h[3] == 'e';
    bool prefix = n == 2 ? h[1] == '\'' : n == 3 && (h[2] == 'r' || h[2] == 'v');
    if (match) {
        for (int i = 1; i < n; i++) u8_byte(d, (unsigned char)h[i]);
    } else if (prefix) {
        memcpy(d->p3, h, (size_t)n);
        d->p3n = n;
    } else {
        // The held space stays; what followed it may start a pattern of its own.
        u8_byte(d, ' ');
        for (int i = 1; i < n; i++) p3_put(d, h[i]);
    }
}

static void p3_end(struct detok *d) {
    for (int i = 0; i < d->p3n; i++) u8_byte(d, (unsigned char)d->p3[i]);
    d->p3n = 0;
}

// Pass 2: " ' " becomes "'". The space after the quote is dropped, not held, so it
// cannot begin the next match (upstream overwrites it with '\0' to the same effect).
static void p2_put(struct detok *d, char c) {
    if (d->p2n == 0) {
        if (c == ' ') d->p2[d->p2n++] = c;
        else p3_put(d, c);
    } else if (d->p2n == 1) {
        if (c == '\'') d->p2[d->p2n++] = c;
        else if (c == ' ') p3_put(d, ' '); // the newer space is held instead
        else {
            p3_put(d, ' ');
            p3_put(d, c);
            d->p2n = 0;
        }
    } else {
        d->p2n = 0;
        if (c == ' ') {
            p3_put(d, '\'');
        } else {
            p3_put(d, ' ');
            p3_put(d, '\'');
            p3_put(d, c);
        }
    }
}

static void p2_end(struct detok *d) {
    for (int i = 0; i < d->p2n; i++) p3_put(d, d->p2[i]);
    d->p2n = 0;
    p3_end(d);
}

// Pass 1: a space before ? ! . , goes.
static void p1_put(struct detok *d, char c) {
    if (d->p1_space) {
        d->p1_space = false;
        if (c != '?' && c != '!' && c != '.' && c != ',') p2_put(d, ' ');
    }
    if (c == ' ') d->p1_space = true;
    else p2_put(d, c);
}

static void p1_end(struct detok *d) {
    if (d->p1_space) p2_put(d, ' ');
    d->p1_space = false;
    p2_end(d);
}

// ---- the pipeline ------------------------------------------------------------------------

// Runs n bytes through tidy (when the vocabulary tidies) and utf8. Room is reserved.
static void feed(struct detok *d, const char *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (d->clean) p1_put(d, p[i]);
        else u8_byte(d, (unsigned char)p[i]);
    }
}

static void finish(struct detok *d) {
    if (d->clean) p1_end(d);
    u8_end(d);
}

static void reset(struct detok *d) {
    d->first = !d->cont;
    d->p1_space = false;
    d->p2n = d->p3n = 0;
    d->un = d->need = 0;
}

// Token tok's bytes into d->piece; returns their count, or -1 for an id outside the
// vocabulary, -2 when out of memory. tokenizer_piece truncates at the buffer's size, so
// a piece that fills the buffer is fetched again with a larger one.
static int get_piece(struct detok *d, int32_t tok) {
    for (;;) {
        int n = tokenizer_piece(d->t, tok, d->piece, d->piece_cap, d->special);
        if (n < 0 || (size_t)n < d->piece_cap) return n;
        char *p = realloc(d->piece, d->piece_cap * 2);
        if (!p) return -2;
        d->piece = p;
        d->piece_cap *= 2;
    }
}

frink_status detok_push(struct detok *d, int32_t tok, const char **text, size_t *len) {
    d->out_n = 0;
    *text = d->out;
    *len = 0;
    int n = get_piece(d, tok);
    if (n == -1)
        return frink_fail(FRINK_ERR_ARG, "detokenizer: token %d is outside the vocabulary (%d tokens)", tok,
                          tokenizer_n_vocab(d->t));
    if (n < 0 || out_reserve(d, OUT_BOUND((size_t)n)) != FRINK_OK)
        return frink_fail(FRINK_ERR_NOMEM, "detokenizer");
    const char *p = d->piece;
    // As tokenizer_decode: only the sequence's first token may lose its leading space,
    // and it uses up that right even when it renders as nothing (a control token).
    if (d->first && d->space_prefix && n && p[0] == ' ') p++, n--;
    d->first = false;
    feed(d, p, (size_t)n);
    *text = d->out;
    *len = d->out_n;
    return FRINK_OK;
}

frink_status detok_flush(struct detok *d, const char **text, size_t *len) {
    d->out_n = 0;
    *text = d->out;
    *len = 0;
    if (out_reserve(d, OUT_BOUND(0)) != FRINK_OK) return frink_fail(FRINK_ERR_NOMEM, "detokenizer");
    finish(d);
    reset(d);
    *text = d->out;
    *len = d->out_n;
    return FRINK_OK;
}

// ---- lifetime ------------------------------------------------------------------------------

frink_status detok_create(const struct tokenizer *t, bool special, bool cont, struct detok **out) {
    *out = NULL;
    struct detok *d = calloc(1, sizeof *d);
    if (!d) return frink_fail(FRINK_ERR_NOMEM, "detokenizer");
    d->t = t;
    d->special = special;
    d->cont = cont;
    d->piece_cap = 256;
    d->piece = malloc(d->piece_cap);
    frink_status st = d->piece ? out_reserve(d, OUT_BOUND(d->piece_cap))
                               : frink_fail(FRINK_ERR_NOMEM, "detokenizer");
    d->space_prefix = tokenizer_add_space_prefix(t);
    d->clean = tokenizer_clean_spaces(t);
    if (st != FRINK_OK) {
        detok_free(d);
        return st;
    }
    reset(d);
    *out = d;
    return FRINK_OK;
}

void detok_free(struct detok *d) {
    if (!d) return;
    free(d->piece);
    free(d->out);
    free(d);
}
