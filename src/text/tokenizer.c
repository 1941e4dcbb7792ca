// tokenizer.c — vocab loading, special-token handling, SPM and byte-level BPE, pieces.
//
// The reference is llama.cpp's src/llama-vocab.cpp; the spec (formats-and-tokenizers.md §5)
// describes every rule reproduced here. Pre-tokenization lives in tokenizer_pre.c.
#include "text/tokenizer.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/tokenizer_pre.h"
#include "text/unicode.h"

// Token attributes (llama_token_attr bits), derived from tokenizer.ggml.token_type.
enum {
    ATTR_UNKNOWN = 1 << 0,
    ATTR_UNUSED = 1 << 1,
    ATTR_NORMAL = 1 << 2,
    ATTR_CONTROL = 1 << 3,
    ATTR_USER_DEFINED = 1 << 4,
    ATTR_BYTE = 1 << 5,
    ATTR_LSTRIP = 1 << 7,
    ATTR_RSTRIP = 1 << 8,
};

enum tok_type { TOK_SPM, TOK_BPE, TOK_WPM };

struct tokenizer {
    enum tok_type type;
    int32_t n_vocab;

    // Token table: text of id i is text + text_off[i], text_len[i] bytes.
    char *text;
    uint32_t *text_off;
    uint32_t *text_len;
    float *score;   // [n_vocab] SPM merge priority
    uint16_t *attr; // [n_vocab] ATTR_* bits

    // Open-addressing hash: text -> id. Slots hold ids, -1 when empty.
    int32_t *vocab_slot;
    size_t vocab_mask;

    // BPE merges "A B": rank = index. Texts live in merge_text; slots hold merge indices.
    char *merge_text;
    uint32_t *merge_off;  // [n_merges] offset of A (B follows A and one space)
    uint32_t *merge_llen; // [n_merges]
    uint32_t *merge_rlen; // [n_merges]
    int32_t *merge_slot;
    size_t merge_mask;
    size_t n_merges;

    // Rendered pieces (special = true) for token_to_piece / decode.
    char *piece;
    uint32_t *piece_off;
    uint32_t *piece_len;

    int32_t *special; // CONTROL/USER_DEFINED/UNKNOWN ids, longest text first
    size_t n_special;
    uint8_t *eog;     // [n_vocab] 1 for end-of-generation tokens

    int32_t bos, eos, eot, eom;
    bool add_bos, add_eos, add_space_prefix, clean_spaces, ignore_merges;
    // WordPiece (TOK_WPM): [SEP] ends an input with special tokens, unknown words become unk;
    // BertNormalizer's options; the longest token text in bytes bounds the greedy match.
    int32_t sep, unk;
    bool lowercase, strip_accents;
    size_t max_token_len;

    struct pretok *pre;         // BPE only
    char byte_utf8[256][2];     // GPT-2 alphabet: every byte maps to a 1-2 byte UTF-8 char
    uint8_t byte_utf8_len[256];
    int32_t spm_byte_tok[256];  // SPM byte fallback ids (-1 when neither form exists)
};

// ---- Hashing -------------------------------------------------------------------------------

static uint64_t hash_bytes(const char *s, size_t n, uint64_t h) {
    // FNV-1a: token texts are short, and this needs no alignment care.
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}
#define HASH_SEED 0xcbf29ce484222325ull

static size_t table_size(size_t n) {
    size_t cap = 16;
    while (cap < n * 2) cap *= 2;
    return cap;
}

static int32_t vocab_find(const struct tokenizer *t, const char *s, size_t n) {
    size_t i = hash_bytes(s, n, HASH_SEED) & t->vocab_mask;
    for (;; i = (i + 1) & t->vocab_mask) {
        int32_t id = t->vocab_slot[i];
        if (id < 0) return -1;
        if (t->text_len[id] == n && !memcmp(t->text + t->text_off[id], s, n)) return id;
    }
}

// Inserts id; a later id with the same text replaces the earlier one, as llama.cpp's
// token_to_id[word] = i did (newer versions refuse duplicates outright).
static void vocab_insert(struct tokenizer *t, int32_t id) {
    const char *s = t->text + t->text_off[id];
    size_t n = t->text_len[id];
    size_t i = hash_bytes(s, n, HASH_SEED) & t->vocab_mask;
    for (;; i = (i + 1) & t->vocab_mask) {
        int32_t o = t->vocab_slot[i];
        if (o < 0 || (t->text_len[o] == n && !memcmp(t->text + t->text_off[o], s, n))) {
            t->vocab_slot[i] = id;
            return;
        }
    }
}

static uint64_t merge_hash(const char *l, size_t ln, const char *r, size_t rn) {
    return hash_bytes(r, rn, hash_bytes(l, ln, HASH_SEED) * 31 + 7);
}

// Rank of merging (l, r), or -1.
static int32_t merge_rank(const struct tokenizer *t, const char *l, size_t ln, const char *r,
                          size_t rn) {
    if (!t->n_merges) return -1;
    size_t i = merge_hash(l, ln, r, rn) & t->merge_mask;
    for (;; i = (i + 1) & t->merge_mask) {
        int32_t m = t->merge_slot[i];
        if (m < 0) return -1;
        const char *ml = t->merge_text + t->merge_off[m];
        if (t->merge_llen[m] == ln && t->merge_rlen[m] == rn && !memcmp(ml, l, ln) &&
            !memcmp(ml + ln + 1, r, rn))
            return m;
    }
}

// ---- Growable id vector --------------------------------------------------------------------

struct ids {
    int32_t *v;
    size_t n, cap;
    bool oom;
};

static void ids_push(struct ids *o, int32_t id) {
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 64;
        int32_t *v = realloc(o->v, cap * sizeof(*v));
        if (!v) {
            o->oom = true;
            return;
        }
        o->v = v;
        o->cap = cap;
    }
    o->v[o->n++] = id;
}

// ---- Symbols and the bigram heap shared by SPM and BPE ---------------------------------------

struct symbol {
    int prev, next;
    size_t start, n; // byte range in the word; n == 0 once merged away
};

struct bigram {
    int left, right;
    float score; // SPM: higher first
    int32_t rank; // BPE: lower first
    size_t size;  // byte length of left+right when queued (stale check)
};

struct heap {
    struct bigram *v;
    size_t n, cap;
    bool spm;
    bool oom;
};

// True when a should be popped before b. Ties go to the smaller left index in both models.
static bool bigram_before(const struct heap *h, const struct bigram *a, const struct bigram *b) {
    if (h->spm) {
        if (a->score != b->score) return a->score > b->score;
    } else if (a->rank != b->rank) {
        return a->rank < b->rank;
    }
    return a->left < b->left;
}

static void heap_push(struct heap *h, struct bigram b) {
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        struct bigram *v = realloc(h->v, cap * sizeof(*v));
        if (!v) {
            h->oom = true;
            return;
        }
        h->v = v;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!bigram_before(h, &b, &h->v[p])) break;
        h->v[i] = h->v[p];
        i = p;
    }
    h->v[i] = b;
}

static struct bigram heap_pop(struct heap *h) {
    struct bigram top = h->v[0];
    struct bigram last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n) break;
        if (c + 1 < h->n && bigram_before(h, &h->v[c + 1], &h->v[c])) c++;
        if (!bigram_before(h, &h->v[c], &last)) break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n) h->v[i] = last;
    return top;
}

struct symbols {
    struct symbol *v;
    size_t n, cap;
};

// Splits word[0..len) into UTF-8 characters by lead byte (clipped at the end, nothing
// validated), linked as a list.
static bool symbols_split(struct symbols *s, const char *word, size_t len) {
    if (s->cap < len) {
        struct symbol *v = realloc(s->v, len * sizeof(*v));
        if (!v) return false;
        s->v = v;
        s->cap = len;
    }
    s->n = 0;
    for (size_t off = 0; off < len;) {
        size_t n = unicode_len_utf8((unsigned char)word[off]);
        if (n > len - off) n = len - off;
        struct symbol *y = &s->v[s->n];
        y->start = off;
        y->n = n;
        y->prev = (int)s->n - 1;
        off += n;
        y->next = off == len ? -1 : (int)s->n + 1;
        s->n++;
    }
    return true;
}

// Merges the popped bigram b (already checked fresh): right joins left and leaves the list.
static void symbols_merge(struct symbols *s, const struct bigram *b) {
    struct symbol *l = &s->v[b->left], *r = &s->v[b->right];
    l->n += r->n;
    r->n = 0;
    l->next = r->next;
    if (r->next >= 0) s->v[r->next].prev = b->left;
}

// Queues the pair (left, right) when it may merge (SPM: by the joined token's score; BPE: by
// the merge's rank). Either index may be -1 (no neighbour).
typedef void (*symbols_try_add_fn)(const struct tokenizer *t, const char *w, struct symbols *s, struct heap *h,
                                   int left, int right);

// Merges w's symbols, best queued pair first, until no pair is left; try_add queues the pairs
// each merge makes with its neighbours. The caller has split w and set up h.
static void symbols_merge_all(const struct tokenizer *t, const char *w, struct symbols *s, struct heap *h,
                              symbols_try_add_fn try_add) {
    for (size_t i = 1; i < s->n; i++) try_add(t, w, s, h, (int)i - 1, (int)i);
    while (h->n) {
        struct bigram b = heap_pop(h);
        const struct symbol *l = &s->v[b.left], *r = &s->v[b.right];
        // Symbols are contiguous, so "left+right text unchanged" is "total length unchanged":
        // a pair whose symbols changed since it was queued is stale.
        if (l->n == 0 || r->n == 0 || l->n + r->n != b.size) continue;
        symbols_merge(s, &b);
        try_add(t, w, s, h, s->v[b.left].prev, b.left);
        try_add(t, w, s, h, b.left, s->v[b.left].next);
    }
}

// ---- SPM -----------------------------------------------------------------------------------

static void spm_try_add(const struct tokenizer *t, const char *w, struct symbols *s,
                        struct heap *h, int left, int right) {
    if (left < 0 || right < 0) return;
    const struct symbol *l = &s->v[left];
    size_t n = l->n + s->v[right].n;
    int32_t id = vocab_find(t, w + l->start, n); // any token, whatever its type
    if (id < 0) return;
    struct bigram b = {left, right, t->score[id], 0, n};
    heap_push(h, b);
}

// Encodes one raw fragment (already prefixed and ▁-escaped) into out.
static frink_status spm_encode(const struct tokenizer *t, const char *w, size_t len,
                               struct symbols *s, struct heap *h, struct ids *out) {
    if (!len) return FRINK_OK;
    if (!symbols_split(s, w, len)) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    h->n = 0;
    h->spm = true;
    symbols_merge_all(t, w, s, h, spm_try_add);
    if (h->oom) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    for (int i = 0; i != -1; i = s->v[i].next) {
        const struct symbol *y = &s->v[i];
        int32_t id = vocab_find(t, w + y->start, y->n);
        if (id >= 0) {
            ids_push(out, id);
            continue;
        }
        // Only unmerged single characters get here: merges always produce vocab tokens.
        for (size_t k = 0; k < y->n; k++) {
            unsigned char c = (unsigned char)w[y->start + k];
            if (t->spm_byte_tok[c] < 0)
                return frink_fail(FRINK_ERR_FORMAT, "SPM vocab has no token for byte 0x%02X", c);
            ids_push(out, t->spm_byte_tok[c]);
        }
    }
    return FRINK_OK;
}

// ---- Byte-level BPE ------------------------------------------------------------------------

static void bpe_try_add(const struct tokenizer *t, const char *w, struct symbols *s,
                        struct heap *h, int left, int right) {
    if (left < 0 || right < 0) return;
    const struct symbol *l = &s->v[left], *r = &s->v[right];
    int32_t rank = merge_rank(t, w + l->start, l->n, w + r->start, r->n);
    if (rank < 0) return;
    struct bigram b = {left, right, 0.0f, rank, l->n + r->n};
    heap_push(h, b);
}

// Runs the merges over one byte-encoded word and appends its ids.
static frink_status bpe_word(const struct tokenizer *t, const char *w, size_t len,
                             struct symbols *s, struct heap *h, struct ids *out) {
    if (!len) return FRINK_OK;
    if (t->ignore_merges) {
        int32_t id = vocab_find(t, w, len);
        if (id >= 0) {
            ids_push(out, id);
            return FRINK_OK;
        }
    }
    if (!symbols_split(s, w, len)) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    h->n = 0;
    h->spm = false;
    symbols_merge_all(t, w, s, h, bpe_try_add);
    if (h->oom) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    for (int i = 0; i != -1; i = s->v[i].next) {
        const struct symbol *y = &s->v[i];
        int32_t id = vocab_find(t, w + y->start, y->n);
        if (id >= 0) {
            ids_push(out, id);
            continue;
        }
        // Upstream tries each byte of the symbol as a one-byte token and silently drops the
        // bytes it cannot find.
        for (size_t k = 0; k < y->n; k++) {
            int32_t b = vocab_find(t, w + y->start + k, 1);
            if (b >= 0) ids_push(out, b);
        }
    }
    return FRINK_OK;
}

static frink_status bpe_encode(const struct tokenizer *t, const char *text, size_t len,
                               struct symbols *s, struct heap *h, struct ids *out) {
    if (!len) return FRINK_OK;
    frink_status st = FRINK_OK;
    uint32_t *cpts = malloc(len * sizeof(uint32_t));
    size_t *lens = NULL, n_lens = 0;
    char *word = NULL;
    if (!cpts) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    size_t n = unicode_decode(text, len, cpts);
    st = pretok_split(t->pre, cpts, n, &lens, &n_lens);
    if (st == FRINK_OK) {
        size_t longest = 0;
        for (size_t i = 0; i < n_lens; i++)
            if (lens[i] > longest) longest = lens[i];
        word = malloc(longest * 8 + 1); // 4 UTF-8 bytes per code point, 2 alphabet bytes each
        if (!word) st = frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    }
    size_t at = 0;
    for (size_t i = 0; i < n_lens && st == FRINK_OK; i++) {
        size_t wl = 0;
        for (size_t k = at; k < at + lens[i]; k++) {
            char u[4];
            int ul = unicode_encode(cpts[k], u);
            if (ul == 0) ul = unicode_encode(0xFFFD, u); // upstream aborts on cpt > U+10FFFF
            for (int j = 0; j < ul; j++) {
                unsigned char b = (unsigned char)u[j];
                memcpy(word + wl, t->byte_utf8[b], t->byte_utf8_len[b]);
                wl += t->byte_utf8_len[b];
            }
        }
        at += lens[i];
        st = bpe_word(t, word, wl, s, h, out);
    }
    free(word);
    free(lens);
    free(cpts);
    return st;
}

// ---- WordPiece (BERT) ----------------------------------------------------------------------

// One word: "\u2581" + word split greedily into the longest vocabulary texts, left to right; a
// word with any unmatched position becomes the single unknown token (llama.cpp's WPM session).
static void wpm_word(const struct tokenizer *t, const char *w, size_t n, struct ids *out) {
    size_t start = out->n;
    for (size_t i = 0; i < n;) {
        size_t j = n < i + t->max_token_len + 1 ? n : i + t->max_token_len + 1;
        int32_t id = -1;
        for (; j > i && (id = vocab_find(t, w + i, j - i)) < 0; j--) {}
        if (id < 0) {
            out->n = start; // discard the word's tokens
            break;
        }
        ids_push(out, id);
        i = j;
    }
    if (out->n == start) ids_push(out, t->unk);
}

static bool wpm_chinese(uint32_t c) {
    // The reference's ranges, including its 0x2B920 (Hugging Face's Rust code) for 0x2B820.
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x20000 && c <= 0x2A6DF) ||
           (c >= 0x2A700 && c <= 0x2B73F) || (c >= 0x2B740 && c <= 0x2B81F) || (c >= 0x2B920 && c <= 0x2CEAF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x2F800 && c <= 0x2FA1F);
}

// A raw fragment through BertNormalizer and the WordPiece split, as the reference's
// preprocess: NFD (first code point) and accents dropped when strip_accents, whitespace ends a
// word, NUL / U+FFFD / controls dropped, lower-cased when lowercase; punctuation, ASCII symbols
// and CJK ideographs are words of their own. buf holds 4 * len + 3 bytes.
static void wpm_encode(const struct tokenizer *t, const char *text, size_t len, uint32_t *cp, char *buf,
                       struct ids *out) {
    size_t nc = unicode_decode(text, len, cp), bl = 0;
    memcpy(buf, "\xE2\x96\x81", 3); // the phantom space every word starts with
    for (size_t i = 0; i <= nc; i++) {
        uint32_t c = i < nc ? cp[i] : ' ';
        if (i < nc && t->strip_accents) c = unicode_nfd_first(c);
        uint16_t f = unicode_flags(c);
        bool alone = false;
        if (!(f & UNICODE_WHITESPACE)) {
            if (c == 0 || c == 0xFFFD || (f & UNICODE_CONTROL)) continue;
            if (t->strip_accents && (f & UNICODE_MARK)) continue;
            alone = (f & UNICODE_PUNCTUATION) || (c < 0x7F && (f & UNICODE_SYMBOL)) || wpm_chinese(c);
            if (!alone) {
                bl += (size_t)unicode_encode(t->lowercase ? unicode_tolower(c) : c, buf + 3 + bl);
                continue;
            }
        }
        if (bl) wpm_word(t, buf, bl + 3, out);
        bl = 0;
        if (alone) {
            bl = (size_t)unicode_encode(t->lowercase ? unicode_tolower(c) : c, buf + 3);
            wpm_word(t, buf, bl + 3, out);
            bl = 0;
        }
    }
}

// ---- Special-token partitioning --------------------------------------------------------------

struct frag {
    int32_t id;      // token id, or -1 for raw text
    size_t off, len; // raw text range
};

struct frags {
    struct frag *v;
    size_t n, cap;
    bool oom;
};

static void frags_push(struct frags *f, struct frag x) {
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        struct frag *v = realloc(f->v, cap * sizeof(*v));
        if (!v) {
            f->oom = true;
            return;
        }
        f->v = v;
        f->cap = cap;
    }
    f->v[f->n++] = x;
}

// Upstream's isspace on a (signed) char: only the six ASCII spaces qualify.
static bool c_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// For each special token in cache order (longest text first), split every raw fragment at
// each leftmost occurrence, left to right. This is a global pass per token, not a
// leftmost-longest scan over the text, exactly as llama.cpp's tokenizer_st_partition.
static frink_status partition(const struct tokenizer *t, const char *text, size_t len,
                              bool parse_special, struct frags *out) {
    struct frags cur = {0}, next = {0};
    if (len) frags_push(&cur, (struct frag){-1, 0, len});
    for (size_t si = 0; si < t->n_special && !cur.oom; si++) {
        int32_t id = t->special[si];
        uint16_t a = t->attr[id];
        if (!parse_special && (a & (ATTR_CONTROL | ATTR_UNKNOWN))) continue;
        const char *tt = t->text + t->text_off[id];
        size_t tl = t->text_len[id];
        bool any = false;
        for (size_t fi = 0; fi < cur.n; fi++) {
            if (cur.v[fi].id >= 0 || cur.v[fi].len < tl) {
                frags_push(&next, cur.v[fi]);
                continue;
            }
            size_t off = cur.v[fi].off, flen = cur.v[fi].len;
            for (;;) {
                const char *m = memmem(text + off, flen, tt, tl);
                if (!m) {
                    if (flen) frags_push(&next, (struct frag){-1, off, flen});
                    break;
                }
                any = true;
                size_t mo = (size_t)(m - text);
                size_t ll = mo - off;
                if (a & ATTR_LSTRIP)
                    while (ll > 0 && c_space(text[off + ll - 1])) ll--;
                if (ll) frags_push(&next, (struct frag){-1, off, ll});
                frags_push(&next, (struct frag){id, 0, 0});
                size_t ro = mo + tl, rl = off + flen - ro;
                if (a & ATTR_RSTRIP)
                    while (rl > 0 && c_space(text[ro])) ro++, rl--;
                off = ro;
                flen = rl;
                if (!flen) break;
            }
        }
        if (any) {
            struct frags tmp = cur;
            cur = next;
            next = tmp;
        }
        next.n = 0;
        if (next.oom) cur.oom = true;
    }
    free(next.v);
    if (cur.oom) {
        free(cur.v);
        return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    }
    *out = cur;
    return FRINK_OK;
}

// ---- Encode --------------------------------------------------------------------------------

frink_status tokenizer_encode(const struct tokenizer *t, const char *text, size_t len,
                              bool add_special, bool parse_special, int32_t **ids, size_t *n) {
    *ids = NULL;
    *n = 0;
    struct frags fr = {0};
    struct ids out = {0};
    struct symbols sy = {0};
    struct heap hp = {0};
    char *buf = NULL;
    frink_status st = partition(t, text, len, parse_special, &fr);
    if (st != FRINK_OK) return st;

    if (t->type == TOK_SPM) {
        // Room for a leading space and every space escaped to ▁ (3 bytes).
        buf = malloc(len * 3 + 4);
        if (!buf) st = frink_fail(FRINK_ERR_NOMEM, "tokenizer");
        bool prev_special = true; // the first fragment gets the space prefix
        if (add_special && t->add_bos) ids_push(&out, t->bos);
        for (size_t i = 0; i < fr.n && st == FRINK_OK; i++) {
            if (fr.v[i].id >= 0) {
                ids_push(&out, fr.v[i].id);
                prev_special = true;
                continue;
            }
            size_t bl = 0;
            const char *s = text + fr.v[i].off;
            if (t->add_space_prefix && prev_special) memcpy(buf, "\xE2\x96\x81", 3), bl = 3;
            for (size_t k = 0; k < fr.v[i].len; k++) {
                if (s[k] == ' ') memcpy(buf + bl, "\xE2\x96\x81", 3), bl += 3;
                else buf[bl++] = s[k];
            }
            st = spm_encode(t, buf, bl, &sy, &hp, &out);
            prev_special = false;
        }
        if (st == FRINK_OK && add_special && t->add_eos) ids_push(&out, t->eos);
    } else if (t->type == TOK_WPM) {
        // [CLS] text [SEP] with special tokens, whatever add_bos says (as the reference).
        uint32_t *cp = malloc((len + 1) * sizeof *cp);
        buf = malloc(len * 4 + 8);
        if (!cp || !buf) st = frink_fail(FRINK_ERR_NOMEM, "tokenizer");
        if (add_special) ids_push(&out, t->bos);
        for (size_t i = 0; i < fr.n && st == FRINK_OK; i++) {
            if (fr.v[i].id >= 0) ids_push(&out, fr.v[i].id);
            else wpm_encode(t, text + fr.v[i].off, fr.v[i].len, cp, buf, &out);
        }
        if (add_special) ids_push(&out, t->sep);
        free(cp);
    } else {
        if (add_special && t->add_bos) ids_push(&out, t->bos);
        for (size_t i = 0; i < fr.n && st == FRINK_OK; i++) {
            if (fr.v[i].id >= 0) ids_push(&out, fr.v[i].id);
            else st = bpe_encode(t, text + fr.v[i].off, fr.v[i].len, &sy, &hp, &out);
        }
        if (st == FRINK_OK && add_special && t->add_eos) ids_push(&out, t->eos);
    }
    if (st == FRINK_OK && out.oom) st = frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    free(buf);
    free(fr.v);
    free(sy.v);
    free(hp.v);
    if (st != FRINK_OK) {
        free(out.v);
        return st;
    }
    *ids = out.v;
    *n = out.n;
    return FRINK_OK;
}

// ---- Pieces and decode ---------------------------------------------------------------------

int tokenizer_piece(const struct tokenizer *t, int32_t id, char *buf, size_t cap, bool special) {
    if (id < 0 || id >= t->n_vocab) return -1;
    if (!special && (t->attr[id] & (ATTR_CONTROL | ATTR_UNKNOWN))) return 0;
    size_t n = t->piece_len[id];
    if (n > cap) n = cap;
    if (n) memcpy(buf, t->piece + t->piece_off[id], n);
    return (int)n;
}

char *tokenizer_decode(const struct tokenizer *t, const int32_t *ids, size_t n, bool special) {
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        if (ids[i] >= 0 && ids[i] < t->n_vocab) total += t->piece_len[ids[i]];
    char *s = malloc(total + 1);
    if (!s) return NULL;
    size_t len = 0;
    bool remove_space = t->add_space_prefix; // one leading space, only on the first piece
    for (size_t i = 0; i < n; i++) {
        int32_t id = ids[i];
        bool strip = remove_space;
        remove_space = false;
        if (id < 0 || id >= t->n_vocab) continue;
        if (!special && (t->attr[id] & (ATTR_CONTROL | ATTR_UNKNOWN))) continue;
        const char *p = t->piece + t->piece_off[id];
        size_t pl = t->piece_len[id];
        if (strip && pl && *p == ' ') p++, pl--;
        memcpy(s + len, p, pl);
        len += pl;
    }
    if (t->clean_spaces && len) {
        // Three in-place passes, kept byte-for-byte like upstream (including its habit of
        // reading text[i - 1] from the partly rewritten buffer).
        size_t tot = 1, n1 = len;
        for (size_t i = 1; i < n1; i++) {
            char x = s[i];
            if (s[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ',')) tot--;
            s[tot++] = x;
        }
        size_t n2 = tot;
        tot = 1;
        for (size_t i = 1; i < n2; i++) {
            char x = s[i];
            if (x == '\'' && i + 1 < n2 && s[i - 1] == ' ' && s[i + 1] == ' ') {
                tot--;         // drop the space before
                s[++i] = '\0'; // and skip the one after
            }
            s[tot++] = x;
        }
        size_t n3 = tot;
        tot = 1;
        for (size_t i = 1; i < n3; i++) {
            char x = s[i];
            if (s[i - 1] == ' ' && x == '\'' && i + 1 < n3) {
                char x1 = s[i + 1];
                if (x1 == 's' || x1 == 'm') tot--;
                else if (x1 != 't' && x1 != 'd' && i + 2 < n3) {
                    char x2 = s[i + 2];
                    if ((x1 == 'r' && x2 == 'e') || (x1 == 'v' && x2 == 'e')) tot--;
                }
            }
            s[tot++] = x;
        }
        len = tot;
    }
    s[len] = 0;
    return s;
}

int32_t tokenizer_n_vocab(const struct tokenizer *t) { return t->n_vocab; }
int32_t tokenizer_bos(const struct tokenizer *t) { return t->bos; }
int32_t tokenizer_eos(const struct tokenizer *t) { return t->eos; }
int32_t tokenizer_eot(const struct tokenizer *t) { return t->eot; }
bool tokenizer_add_space_prefix(const struct tokenizer *t) { return t->add_space_prefix; }
bool tokenizer_clean_spaces(const struct tokenizer *t) { return t->clean_spaces; }
bool tokenizer_add_bos(const struct tokenizer *t) { return t->add_bos; }

bool tokenizer_is_eog(const struct tokenizer *t, int32_t id) {
    return id >= 0 && id < t->n_vocab && t->eog[id];
}

const char *tokenizer_token_text(const struct tokenizer *t, int32_t id, size_t *len) {
    if (id < 0 || id >= t->n_vocab) return NULL;
    *len = t->text_len[id];
    return t->text + t->text_off[id];
}

void tokenizer_free(struct tokenizer *t) {
    if (!t) return;
    free(t->text);
    free(t->text_off);
    free(t->text_len);
    free(t->score);
    free(t->attr);
    free(t->vocab_slot);
    free(t->merge_text);
    free(t->merge_off);
    free(t->merge_llen);
    free(t->merge_rlen);
    free(t->merge_slot);
    free(t->piece);
    free(t->piece_off);
    free(t->piece_len);
    free(t->special);
    free(t->eog);
    pretok_free(t->pre);
    free(t);
}


// ---- Loading -------------------------------------------------------------------------------

// tokenizer.ggml.model values llama.cpp accepts but frink does not implement.
static const char *const models_unsupported[] = {
    "t5", "rwkv", "plamo2", "gemma4", "hybriddna", "whitespace", "no_vocab", "none",
};

// Special-token texts llama.cpp recognises at load time (llama-vocab.cpp, load()).
static const char *const eot_texts[] = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>",
    "<EOT>", "_<EOT>", "[EOT]", "<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>",
    "<end_of_utterance>", NULL,
};
static const char *const eom_texts[] = {"<|eom_id|>", NULL};
static const char *const fim_pre_texts[] = {
    "<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "begin\xEF\xBD\x9C>",
    "<PRE>", "\xE2\x96\x81<PRE>", "<|code_prefix|>", "<|prefix|>", NULL,
};
static const char *const fim_suf_texts[] = {
    "<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81hole\xEF\xBD\x9C>",
    "<SUF>", "\xE2\x96\x81<SUF>", "<|code_suffix|>", "<|suffix|>", NULL,
};
static const char *const fim_mid_texts[] = {
    "<|fim_middle|>", "<fim-middle>", "<fim_middle>", "<\xEF\xBD\x9C" "fim\xE2\x96\x81" "end\xEF\xBD\x9C>",
    "<MID>", "\xE2\x96\x81<MID>", "<|code_middle|>", "<|middle|>", NULL,
};
static const char *const fim_pad_texts[] = {
    "<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]", NULL,
};
static const char *const fim_rep_texts[] = {
    "<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>", NULL,
};
static const char *const fim_sep_texts[] = {"<|file_sep|>", NULL};
static const char *const eog_texts[] = {
    "<|eot_id|>", "<|im_end|>", "<|end|>", "<|return|>", "<|call|>", "<|flush|>", "<|calls|>",
    "<end_of_turn>", "<|endoftext|>", "</s>", "<|eom_id|>", "<EOT>", "_<EOT>", "[EOT]", "[EOS]",
    "<|end_of_text|>", "<end_of_utterance>", "<eos>", "<turn|>", "<|tool_response>",
    "<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>", "[e~[", NULL,
};

static int32_t find_cstr(const struct tokenizer *t, const char *s) {
    return vocab_find(t, s, strlen(s));
}

// When *id is unset, picks a candidate present in the vocab and forces it CONTROL. Upstream
// scans a hash map, so with several candidates its pick is unspecified; we take the lowest id.
static void autodetect(struct tokenizer *t, int32_t *id, const char *const *texts) {
    if (*id >= 0) return;
    for (; *texts; texts++) {
        int32_t c = find_cstr(t, *texts);
        if (c >= 0 && (*id < 0 || c < *id)) *id = c;
    }
    if (*id >= 0) t->attr[*id] |= ATTR_CONTROL;
}

// Appends bytes to a growable buffer used while building pieces.
struct buf {
    char *v;
    size_t n, cap;
};
static bool buf_put(struct buf *b, const void *p, size_t n) {
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        char *v = realloc(b->v, cap);
        if (!v) return false;
        b->v = v;
        b->cap = cap;
    }
    memcpy(b->v + b->n, p, n);
    b->n += n;
    return true;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Byte value of a "<0xXX>" token (upstream: strtol of characters 3-4).
static unsigned char byte_token_value(const char *s, size_t n) {
    int v = 0;
    for (size_t i = 3; i < 5 && i < n; i++) {
        int d = hex_digit(s[i]);
        if (d < 0) break;
        v = v * 16 + d;
    }
    return (unsigned char)v;
}

// Renders token id as llama.cpp's token_to_piece(special = true) does.
static bool render_piece(const struct tokenizer *t, int32_t id, struct buf *b) {
    const char *s = t->text + t->text_off[id];
    size_t n = t->text_len[id];
    uint16_t a = t->attr[id];
    if (a & (ATTR_UNKNOWN | ATTR_CONTROL | ATTR_USER_DEFINED)) return buf_put(b, s, n);
    if (a & ATTR_NORMAL) {
        if (t->type == TOK_SPM || t->type == TOK_WPM) { // ▁ back to spaces
            for (size_t i = 0; i < n;) {
                if (i + 3 <= n && !memcmp(s + i, "\xE2\x96\x81", 3)) {
                    if (!buf_put(b, " ", 1)) return false;
                    i += 3;
                } else {
                    if (!buf_put(b, s + i, 1)) return false;
                    i++;
                }
            }
            return true;
        }
        // Byte-level alphabet back to bytes.
        uint32_t *cp = malloc((n + 1) * sizeof(uint32_t));
        if (!cp) return false;
        size_t nc = unicode_decode(s, n, cp);
        bool ok = true;
        for (size_t i = 0; i < nc && ok; i++) {
            int byte = unicode_cpt_to_byte(cp[i]);
            if (byte >= 0) {
                char c = (char)byte;
                ok = buf_put(b, &c, 1);
                continue;
            }
            char u[4], hx[8];
            int ul = unicode_encode(cp[i], u);
            ok = buf_put(b, "[UNK_BYTE_0x", 12);
            for (int k = 0; k < ul && ok; k++) {
                static const char digits[] = "0123456789abcdef";
                hx[0] = digits[(unsigned char)u[k] >> 4];
                hx[1] = digits[(unsigned char)u[k] & 15];
                ok = buf_put(b, hx, 2);
            }
            ok = ok && buf_put(b, s, n) && buf_put(b, "]", 1);
        }
        free(cp);
        return ok;
    }
    if (a & ATTR_BYTE) {
        char c = (char)byte_token_value(s, n);
        return buf_put(b, &c, 1);
    }
    return true; // UNUSED-only or UNDEFINED tokens render as nothing
}

static int cmp_special(const void *pa, const void *pb) {
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static bool contains(const char *hay, const char *needle) { return strstr(hay, needle) != NULL; }

static frink_status load_tokens(struct tokenizer *t, const struct gguf_file *f) {
    const struct gguf_kv *tok = gguf_find(f, "tokenizer.ggml.tokens");
    if (!tok) return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.tokens is missing");
    if (tok->type != GGUF_VT_ARRAY || tok->v.arr.type != GGUF_VT_STRING)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.tokens is not an array of strings");
    uint64_t n = tok->v.arr.n;
    if (n == 0 || n > INT32_MAX / 2)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.tokens has %llu entries",
                          (unsigned long long)n);
    t->n_vocab = (int32_t)n;

    const struct gguf_kv *sc = gguf_find(f, "tokenizer.ggml.scores");
    if (sc && (sc->type != GGUF_VT_ARRAY ||
               (sc->v.arr.type != GGUF_VT_FLOAT32 && sc->v.arr.type != GGUF_VT_INT32)))
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.scores must be f32 or i32 array");
    if (sc && sc->v.arr.n < n)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.scores has %llu < %llu entries",
                          (unsigned long long)sc->v.arr.n, (unsigned long long)n);
    const struct gguf_kv *tt = gguf_find(f, "tokenizer.ggml.token_type");
    if (tt && (tt->type != GGUF_VT_ARRAY || tt->v.arr.type != GGUF_VT_INT32))
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.token_type must be an i32 array");
    if (tt && tt->v.arr.n < n)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.token_type has %llu < %llu entries",
                          (unsigned long long)tt->v.arr.n, (unsigned long long)n);

    uint64_t total = 0;
    for (uint64_t i = 0; i < n; i++) total += tok->v.arr.strs[i].len ? tok->v.arr.strs[i].len : 24;
    if (total > UINT32_MAX) return frink_fail(FRINK_ERR_FORMAT, "tokenizer vocab text too large");
    t->text = malloc(total + 1);
    t->text_off = malloc(n * sizeof(uint32_t));
    t->text_len = malloc(n * sizeof(uint32_t));
    t->score = malloc(n * sizeof(float));
    t->attr = malloc(n * sizeof(uint16_t));
    t->eog = calloc(n, 1);
    size_t cap = table_size(n);
    t->vocab_slot = malloc(cap * sizeof(int32_t));
    if (!t->text || !t->text_off || !t->text_len || !t->score || !t->attr || !t->eog ||
        !t->vocab_slot)
        return frink_fail(FRINK_ERR_NOMEM, "tokenizer vocab");
    memset(t->vocab_slot, 0xFF, cap * sizeof(int32_t));
    t->vocab_mask = cap - 1;

    static const uint16_t type_attr[7] = {
        0, ATTR_NORMAL, ATTR_UNKNOWN, ATTR_CONTROL, ATTR_USER_DEFINED, ATTR_UNUSED, ATTR_BYTE,
    };
    uint32_t off = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct gguf_str s = tok->v.arr.strs[i];
        t->text_off[i] = off;
        if (s.len) {
            memcpy(t->text + off, s.ptr, s.len);
            t->text_len[i] = (uint32_t)s.len;
        } else { // upstream renames empty tokens so that lookups never match ""
            int k = snprintf(t->text + off, 24, "[EMPTY_%llu]", (unsigned long long)i);
            t->text_len[i] = (uint32_t)k;
        }
        off += t->text_len[i];
        if (t->text_len[i] > t->max_token_len) t->max_token_len = t->text_len[i];
        t->score[i] = sc ? (float)gguf_arr_f64(sc, i) : 0.0f;
        int64_t ty = tt ? gguf_arr_i64(tt, i) : 1;
        t->attr[i] = ty >= 0 && ty < 7 ? type_attr[ty] : 0;
        vocab_insert(t, (int32_t)i);
    }
    return FRINK_OK;
}

static frink_status load_merges(struct tokenizer *t, const struct gguf_file *f) {
    const struct gguf_kv *m = gguf_find(f, "tokenizer.ggml.merges");
    if (!m) return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.merges is missing");
    if (m->type != GGUF_VT_ARRAY || m->v.arr.type != GGUF_VT_STRING)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.merges is not an array of strings");
    uint64_t n = m->v.arr.n, total = 0;
    if (n > INT32_MAX / 2) return frink_fail(FRINK_ERR_FORMAT, "too many merges");
    for (uint64_t i = 0; i < n; i++) total += m->v.arr.strs[i].len;
    if (total > UINT32_MAX) return frink_fail(FRINK_ERR_FORMAT, "tokenizer merges too large");
    size_t cap = table_size(n);
    t->merge_text = malloc(total + 1);
    t->merge_off = malloc((n + 1) * sizeof(uint32_t));
    t->merge_llen = malloc((n + 1) * sizeof(uint32_t));
    t->merge_rlen = malloc((n + 1) * sizeof(uint32_t));
    t->merge_slot = malloc(cap * sizeof(int32_t));
    if (!t->merge_text || !t->merge_off || !t->merge_llen || !t->merge_rlen || !t->merge_slot)
        return frink_fail(FRINK_ERR_NOMEM, "tokenizer merges");
    memset(t->merge_slot, 0xFF, cap * sizeof(int32_t));
    t->merge_mask = cap - 1;
    t->n_merges = n;
    uint32_t off = 0;
    for (uint64_t i = 0; i < n; i++) {
        struct gguf_str s = m->v.arr.strs[i];
        // "A B" splits at the first space at index >= 1 (so A may start with a space).
        const char *sp = s.len > 1 ? memchr(s.ptr + 1, ' ', s.len - 1) : NULL;
        t->merge_off[i] = off;
        t->merge_llen[i] = t->merge_rlen[i] = 0;
        if (s.len) memcpy(t->merge_text + off, s.ptr, s.len);
        off += (uint32_t)s.len;
        if (!sp) continue; // upstream files it under ("", ""), which no lookup can hit
        size_t ll = (size_t)(sp - s.ptr), rl = s.len - ll - 1;
        t->merge_llen[i] = (uint32_t)ll;
        t->merge_rlen[i] = (uint32_t)rl;
        const char *l = t->merge_text + t->merge_off[i];
        size_t h = merge_hash(l, ll, l + ll + 1, rl) & t->merge_mask;
        for (;; h = (h + 1) & t->merge_mask) {
            int32_t o = t->merge_slot[h];
            if (o < 0) {
                t->merge_slot[h] = (int32_t)i;
                break;
            }
            const char *ol = t->merge_text + t->merge_off[o];
            if (t->merge_llen[o] == ll && t->merge_rlen[o] == rl && !memcmp(ol, l, ll) &&
                !memcmp(ol + ll + 1, l + ll + 1, rl))
                break; // duplicate pair: the first (lowest) rank wins, as with emplace
        }
    }
    return FRINK_OK;
}

static frink_status load_special_ids(struct tokenizer *t, const struct gguf_file *f,
                                     int32_t fim[6]) {
    int32_t pad = -1, mask = -1;
    struct {
        const char *key;
        int32_t *id;
    } keys[] = {
        {"tokenizer.ggml.bos_token_id", &t->bos},
        {"tokenizer.ggml.eos_token_id", &t->eos},
        {"tokenizer.ggml.eot_token_id", &t->eot},
        {"tokenizer.ggml.eom_token_id", &t->eom},
        {"tokenizer.ggml.unknown_token_id", &t->unk},
        {"tokenizer.ggml.seperator_token_id", &t->sep},
        {"tokenizer.ggml.padding_token_id", &pad},
        {"tokenizer.ggml.mask_token_id", &mask},
        {"tokenizer.ggml.fim_pre_token_id", &fim[0]},
        {"tokenizer.ggml.fim_suf_token_id", &fim[1]},
        {"tokenizer.ggml.fim_mid_token_id", &fim[2]},
        {"tokenizer.ggml.fim_pad_token_id", &fim[3]},
        {"tokenizer.ggml.fim_rep_token_id", &fim[4]},
        {"tokenizer.ggml.fim_sep_token_id", &fim[5]},
        {"tokenizer.ggml.prefix_token_id", &fim[0]}, // legacy names
        {"tokenizer.ggml.suffix_token_id", &fim[1]},
        {"tokenizer.ggml.middle_token_id", &fim[2]},
    };
    if (t->type == TOK_SPM) t->unk = 0;
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        int32_t *id = keys[i].id;
        if (*id >= t->n_vocab) *id = -1; // a default outside the vocab is disabled
        uint32_t v;
        frink_status st = gguf_get_u32(f, keys[i].key, &v);
        if (st == FRINK_ERR_ARG) continue; // absent
        if (st != FRINK_OK) return st;
        if (v < (uint32_t)t->n_vocab) *id = (int32_t)v; // else: upstream warns, keeps default
    }
    return FRINK_OK;
}

static frink_status get_bool_opt(const struct gguf_file *f, const char *key, bool *v) {
    frink_status st = gguf_get_bool(f, key, v);
    return st == FRINK_ERR_ARG ? FRINK_OK : st;
}

// The special-token bookkeeping of llama.cpp's load(): EOT/EOM/FIM detection, UNUSED
// marking, the EOG set and its harmony/gemma4 exceptions, the gpt-oss USER_DEFINED hack.
static void derive_specials(struct tokenizer *t, int32_t fim[6]) {
    autodetect(t, &t->eot, eot_texts);
    autodetect(t, &t->eom, eom_texts);
    const char *const *fim_texts[6] = {fim_pre_texts, fim_suf_texts, fim_mid_texts,
                                       fim_pad_texts, fim_rep_texts, fim_sep_texts};
    for (int k = 0; k < 6; k++) autodetect(t, &fim[k], fim_texts[k]);

    for (int32_t i = 0; i < t->n_vocab; i++)
        if ((t->attr[i] & ATTR_CONTROL) &&
            memmem(t->text + t->text_off[i], t->text_len[i], "unused", 6))
            t->attr[i] |= ATTR_UNUSED;

    for (int k = 3; k < 6; k++)
        if (fim[k] >= 0) t->eog[fim[k]] = 1;
    for (const char *const *s = eog_texts; *s; s++) {
        int32_t id = find_cstr(t, *s);
        if (id < 0) continue;
        t->eog[id] = 1;
        t->attr[id] |= ATTR_CONTROL;
    }
    static const char *const gpt_oss[] = {"<|channel|>", "<|message|>", "<|start|>",
                                          "<|constrain|>"};
    for (size_t i = 0; i < 4; i++) {
        int32_t id = find_cstr(t, gpt_oss[i]);
        if (id >= 0) t->attr[id] = ATTR_USER_DEFINED; // always split out and rendered
    }
    if (t->eos >= 0) t->eog[t->eos] = 1;
    if (t->eot >= 0) t->eog[t->eot] = 1;
    if (t->eom >= 0) t->eog[t->eom] = 1;

    // Harmony / solar-open: <|end|> ends a message, not the generation.
#define IN_EOG(s) (find_cstr(t, s) >= 0 && t->eog[find_cstr(t, s)])
    bool has_return = IN_EOG("<|return|>"), has_call = IN_EOG("<|call|>") || IN_EOG("<|calls|>");
    bool has_flush = IN_EOG("<|flush|>"), has_end = IN_EOG("<|end|>");
    if ((has_return && has_call && has_end) || (has_call && has_flush && has_end)) {
        int32_t id = find_cstr(t, "<|end|>");
        t->eog[id] = 0;
        t->attr[id] = ATTR_USER_DEFINED;
    }
    // Gemma 4: </s> is an ordinary token there.
    if (IN_EOG("<|tool_response>") && IN_EOG("</s>")) {
        int32_t id = find_cstr(t, "</s>");
        t->eog[id] = 0;
        t->attr[id] = ATTR_NORMAL;
    }
#undef IN_EOG
}

static frink_status build_caches(struct tokenizer *t) {
    // Special-token cache, longest text first. Upstream's std::sort leaves equal lengths in
    // unspecified order; we break ties by id.
    size_t ns = 0;
    for (int32_t i = 0; i < t->n_vocab; i++)
        ns += !!(t->attr[i] & (ATTR_CONTROL | ATTR_USER_DEFINED | ATTR_UNKNOWN));
    uint64_t *keys = malloc((ns + 1) * sizeof(uint64_t));
    t->special = malloc((ns + 1) * sizeof(int32_t));
    if (!keys || !t->special) {
        free(keys);
        return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    }
    ns = 0;
    for (int32_t i = 0; i < t->n_vocab; i++)
        if (t->attr[i] & (ATTR_CONTROL | ATTR_USER_DEFINED | ATTR_UNKNOWN))
            keys[ns++] = ((uint64_t)(UINT32_MAX - t->text_len[i]) << 32) | (uint32_t)i;
    qsort(keys, ns, sizeof(uint64_t), cmp_special);
    for (size_t i = 0; i < ns; i++) t->special[i] = (int32_t)(keys[i] & 0xFFFFFFFF);
    t->n_special = ns;
    free(keys);

    struct buf b = {0};
    t->piece_off = malloc((size_t)t->n_vocab * sizeof(uint32_t));
    t->piece_len = malloc((size_t)t->n_vocab * sizeof(uint32_t));
    if (!t->piece_off || !t->piece_len) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    for (int32_t i = 0; i < t->n_vocab; i++) {
        size_t start = b.n;
        if (!render_piece(t, i, &b)) {
            free(b.v);
            return frink_fail(FRINK_ERR_NOMEM, "tokenizer pieces");
        }
        t->piece_off[i] = (uint32_t)start;
        t->piece_len[i] = (uint32_t)(b.n - start);
    }
    t->piece = b.v ? b.v : malloc(1);
    return t->piece ? FRINK_OK : frink_fail(FRINK_ERR_NOMEM, "tokenizer pieces");
}

// Per-model attribute tweaks keyed on names (applied after the caches, as upstream does).
static void name_tweaks(struct tokenizer *t, const struct gguf_file *f, const char *pre) {
    char name[256] = "", arch[128] = "";
    gguf_get_str(f, "general.name", name, sizeof(name));
    gguf_get_str(f, "general.architecture", arch, sizeof(arch));
    for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);
    if (contains(pre, "jina-v2-de") || contains(pre, "jina-v2-es") ||
        contains(pre, "jina-v2-code") || contains(arch, "nomic-bert-moe") ||
        contains(arch, "jina-bert-v3")) {
        int32_t id = find_cstr(t, "<mask>");
        if (id >= 0) t->attr[id] |= ATTR_LSTRIP;
    } else if (contains(name, "phi-3") || contains(name, "phi3")) {
        for (size_t i = 0; i < t->n_special; i++) t->attr[t->special[i]] |= ATTR_RSTRIP;
        int32_t id = find_cstr(t, "</s>");
        if (id >= 0) t->attr[id] |= ATTR_RSTRIP;
        static const char *const keep[] = {"<unk>", "<s>", "<|endoftext|>"};
        for (size_t i = 0; i < 3; i++)
            if ((id = find_cstr(t, keep[i])) >= 0) t->attr[id] &= (uint16_t)~ATTR_RSTRIP;
    } else if (contains(name, "modern-bert")) {
        int32_t id = find_cstr(t, "[MASK]");
        if (id >= 0) t->attr[id] |= ATTR_LSTRIP;
    }
}

frink_status tokenizer_load(const struct gguf_file *f, struct tokenizer **out) {
    *out = NULL;
    const struct gguf_kv *mk = gguf_find(f, "tokenizer.ggml.model");
    if (!mk) return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.model is missing");
    if (mk->type != GGUF_VT_STRING)
        return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.model is not a string");
    char pre[128] = "";
    const struct gguf_kv *pk = gguf_find(f, "tokenizer.ggml.pre");
    if (pk) {
        if (pk->type != GGUF_VT_STRING)
            return frink_fail(FRINK_ERR_FORMAT, "tokenizer.ggml.pre is not a string");
        gguf_get_str(f, "tokenizer.ggml.pre", pre, sizeof(pre));
    }

    struct tokenizer *t = calloc(1, sizeof(*t));
    if (!t) return frink_fail(FRINK_ERR_NOMEM, "tokenizer");
    frink_status st = FRINK_OK;
    unsigned pre_flags = 0;
    if (gguf_str_eq(mk->v.str, "llama")) {
        t->type = TOK_SPM;
        t->bos = 1, t->eos = 2;
        t->add_space_prefix = true;
        t->add_bos = true;
    } else if (gguf_str_eq(mk->v.str, "gpt2")) {
        t->type = TOK_BPE;
        t->bos = 11, t->eos = 11; // upstream's defaults, normally overridden by the keys
        st = pretok_create(pre, &t->pre, &pre_flags);
        t->clean_spaces = !(pre_flags & PRETOK_NO_CLEAN_SPACES);
        t->ignore_merges = pre_flags & PRETOK_IGNORE_MERGES;
        t->add_bos = pre_flags & PRETOK_ADD_BOS;
        if (pre_flags & PRETOK_BOS_NULL) t->bos = -1;
    } else if (gguf_str_eq(mk->v.str, "bert")) {
        // WordPiece: the reference's defaults ([CLS] 101, [UNK] 100, [SEP] 102), no space prefix,
        // spaces cleaned on decode; BertNormalizer lower-cases and strips accents unless told.
        t->type = TOK_WPM;
        t->bos = 101, t->eos = -1, t->unk = 100, t->sep = 102;
        t->clean_spaces = true;
        t->add_bos = true;
        t->lowercase = true;
    } else {
        int known = 0;
        for (size_t i = 0; i < sizeof(models_unsupported) / sizeof(models_unsupported[0]); i++)
            known |= gguf_str_eq(mk->v.str, models_unsupported[i]);
        int len = mk->v.str.len > 64 ? 64 : (int)mk->v.str.len;
        st = frink_fail(FRINK_ERR_UNSUPPORTED,
                        known ? "tokenizer.ggml.model '%.*s' is not supported by frink"
                              : "unknown tokenizer.ggml.model '%.*s'",
                        len, mk->v.str.ptr);
    }
    t->eot = t->eom = -1;
    if (t->type != TOK_WPM) t->unk = t->sep = -1;
    if (st == FRINK_OK) st = get_bool_opt(f, "tokenizer.ggml.normalizer.lowercase", &t->lowercase);
    t->strip_accents = t->lowercase;
    if (st == FRINK_OK) st = get_bool_opt(f, "tokenizer.ggml.normalizer.strip_accents", &t->strip_accents);
    int32_t fim[6] = {-1, -1, -1, -1, -1, -1};
    if (st == FRINK_OK) st = get_bool_opt(f, "tokenizer.ggml.add_space_prefix", &t->add_space_prefix);
    if (st == FRINK_OK) st = load_tokens(t, f);
    if (st == FRINK_OK && t->type == TOK_BPE) st = load_merges(t, f);
    if (st == FRINK_OK) st = load_special_ids(t, f, fim);
    if (st == FRINK_OK) st = get_bool_opt(f, "tokenizer.ggml.add_bos_token", &t->add_bos);
    if (st == FRINK_OK) st = get_bool_opt(f, "tokenizer.ggml.add_eos_token", &t->add_eos);
    if (st == FRINK_OK && t->add_bos && t->bos < 0)
        st = frink_fail(FRINK_ERR_FORMAT, "add_bos_token is true, but there is no BOS token");
    if (st == FRINK_OK && t->add_eos && t->eos < 0)
        st = frink_fail(FRINK_ERR_FORMAT, "add_eos_token is true, but there is no EOS token");
    // (the reference asserts on these where a WordPiece input is tokenized)
    if (st == FRINK_OK && t->type == TOK_WPM && (t->bos < 0 || t->sep < 0 || t->unk < 0))
        st = frink_fail(FRINK_ERR_FORMAT, "WordPiece vocabulary without its [CLS] (BOS), [SEP] or [UNK] token");
    if (st == FRINK_OK) {
        derive_specials(t, fim);
        st = build_caches(t);
    }
    if (st == FRINK_OK) {
        name_tweaks(t, f, pre);
        for (int b = 0; b < 256; b++) {
            char u[4];
            t->byte_utf8_len[b] = (uint8_t)unicode_encode(unicode_byte_to_cpt((uint8_t)b), u);
            memcpy(t->byte_utf8[b], u, t->byte_utf8_len[b]);
            char hexs[8];
            snprintf(hexs, sizeof(hexs), "<0x%02X>", b);
            int32_t id = find_cstr(t, hexs);
            char one = (char)b;
            if (id < 0 && b != 0) id = vocab_find(t, &one, 1); // "\0" is the empty string upstream
            t->spm_byte_tok[b] = id;
        }
    }
    if (st != FRINK_OK) {
        tokenizer_free(t);
        return st;
    }
    *out = t;
    return FRINK_OK;
}
