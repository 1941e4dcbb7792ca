// tokenizer_pre.c — pre-tokenizers for byte-level BPE: the name table, llama.cpp's
// hand-written splitters, and a PCRE2 runner that reproduces its std::regex fallback.
//
// Upstream behaviour replicated here (llama.cpp src/unicode.cpp, unicode_regex_split):
//  * Each regex in a list re-splits every chunk produced so far. Matches and the gaps between
//    them both become chunks; nothing is dropped.
//  * Four pattern strings never reach a regex engine: "gpt2", "llama3" (two spellings), and per
//    the spec "qwen2" and "qwen35" are hand-written state machines, dispatched on the exact
//    pattern text. Their corner cases (e.g. the llama3 rule that lets any non-CR/LF/number
//    character prefix a letter run) differ from a faithful regex, so we replicate the code.
//  * Other patterns: if they use \p{..} classes, the text is "collapsed" to one byte per code
//    point (ASCII kept, other code points replaced by a marker byte per category) and each
//    \p{X} in the pattern becomes a bracket class of its marker byte and its ASCII members.
//    Otherwise the pattern runs over code points, with non-ASCII whitespace replaced by 0x0B
//    so that an ASCII-only \s still sees it. We do the same and run PCRE2 without UCP, so \s,
//    \d and \b stay ASCII as in std::regex under the C locale.
#include "text/tokenizer_pre.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdlib.h>
#include <string.h>

#include "text/tokenizer_regex.h"
#include "text/unicode.h"

enum split_kind {
    SPLIT_REGEX,
    SPLIT_GPT2,
    SPLIT_LLAMA3, // \p{N}{1,3}
    SPLIT_QWEN2,  // single digits
    SPLIT_QWEN35, // single digits, marks join letter runs
    SPLIT_NEWLINES,
};

struct pretok_step {
    enum split_kind kind;
    bool collapsed;   // regex runs on the one-byte-per-code-point text
    pcre2_code *code; // SPLIT_REGEX only
};

struct pretok {
    size_t n_steps;
    struct pretok_step steps[8];
};

// ---- The name table ------------------------------------------------------------------------

enum { NCS = PRETOK_NO_CLEAN_SPACES, IGM = PRETOK_IGNORE_MERGES, BOS = PRETOK_ADD_BOS };

struct pre_name {
    const char *name;
    const char *const *regexes;
    unsigned flags;
};

// tokenizer.ggml.pre -> regex list and flag changes (spec §5.7.1). One row per accepted name.
static const struct pre_name pre_names[] = {
    {"default", RX_DEFAULT, 0},
    {"llama3", RX_LLAMA3, IGM | BOS},
    {"llama-v3", RX_LLAMA3, IGM | BOS},
    {"llama-bpe", RX_LLAMA3, IGM | BOS},
    {"falcon3", RX_LLAMA3, IGM | BOS},
    {"falcon-h1", RX_LLAMA3, IGM | BOS},
    {"pixtral", RX_LLAMA3, IGM | BOS},
    {"midm-2.0", RX_LLAMA3, IGM | BOS},
    {"lfm2", RX_LLAMA3, IGM | BOS},
    {"jina-v5-nano", RX_LLAMA3, IGM | BOS},
    {"dbrx", RX_LLAMA3, 0},
    {"smaug-bpe", RX_LLAMA3, 0},
    {"glm4", RX_CHATGLM4, PRETOK_BOS_NULL},
    {"chatglm-bpe", RX_CHATGLM4, PRETOK_BOS_NULL},
    {"jais-2", RX_JAIS2, 0},
    {"deepseek-llm", RX_DEEPSEEK_LLM, NCS},
    {"deepseek-coder", RX_DEEPSEEK_CODER, NCS},
    {"deepseek-v3", RX_DEEPSEEK3_LLM, NCS},
    {"hunyuan-dense", RX_DEEPSEEK3_LLM, NCS},
    {"hy_v4", RX_DEEPSEEK3_LLM, NCS},
    {"joyai-llm", RX_DEEPSEEK3_LLM, NCS},
    {"spark2_5", RX_SPARK2_5, NCS},
    {"youtu", RX_YOUTU, NCS | IGM},
    {"falcon", RX_FALCON, 0},
    {"starcoder", RX_STARCODER, 0},
    {"refact", RX_STARCODER, 0},
    {"command-r", RX_STARCODER, NCS},
    {"smollm", RX_STARCODER, NCS},
    {"codeshell", RX_STARCODER, 0},
    {"exaone", RX_STARCODER, 0},
    {"minerva-7b", RX_STARCODER, 0},
    {"mellum2", RX_STARCODER, 0},
    {"gpt-2", RX_GPT2, 0},
    {"phi-2", RX_GPT2, 0},
    {"jina-es", RX_GPT2, 0},
    {"jina-de", RX_GPT2, 0},
    {"gigachat", RX_GPT2, 0},
    {"jina-v2-es", RX_GPT2, 0},
    {"jina-v2-de", RX_GPT2, 0},
    {"a.x-4.0", RX_GPT2, 0},
    {"mellum", RX_GPT2, 0},
    {"modern-bert", RX_GPT2, 0},
    {"exaone4", RX_GPT2, 0},
    {"jina-v1-en", RX_GPT2, 0}, // upstream also sets add_sep, which BPE encoding never uses
    {"jina-v2-code", RX_GPT2, 0},
    {"roberta-bpe", RX_GPT2, 0},
    {"mpt", RX_GPT2, 0},
    {"olmo", RX_GPT2, 0},
    {"jais", RX_GPT2, 0},
    {"trillion", RX_GPT2, NCS},
    {"granite-docling", RX_GPT2, NCS},
    {"qwen2", RX_QWEN2, NCS},
    {"deepseek-r1-qwen", RX_QWEN2, NCS},
    {"kormo", RX_QWEN2, NCS},
    {"f2llmv2", RX_QWEN2, NCS},
    {"megrez", RX_QWEN2, 0},
    {"stablelm2", RX_QWEN2, 0},
    {"hunyuan", RX_QWEN2, NCS},
    {"solar-open", RX_QWEN2, NCS},
    {"grok-2", RX_GROK_2, NCS},
    {"qwen35", RX_QWEN35, NCS},
    {"poro-chat", RX_PORO, NCS},
    {"bloom", RX_PORO, 0},
    {"gpt3-finnish", RX_PORO, 0},
    {"viking", RX_VIKING, NCS},
    {"tekken", RX_TEKKEN, NCS | IGM | BOS},
    {"chameleon", RX_CHAMELEON, NCS | BOS},
    {"gpt-4o", RX_GPT4O, NCS},
    {"llama4", RX_GPT4O, NCS},
    {"kanana2", RX_GPT4O, NCS},
    {"talkie", RX_GPT4O, NCS},
    {"minimax-m2", RX_GPT4O, NCS},
    {"granite-embed-multi-97m", RX_GRANITE_EMB_MULTI, NCS | IGM},
    {"superbpe", RX_SUPERBPE, NCS},
    {"bailingmoe", RX_BAILINGMOE, NCS},
    {"bailingmoe2", RX_BAILINGMOE, NCS},
    {"llada-moe", RX_BAILINGMOE, NCS},
    {"seed-coder", RX_SEED_CODER, NCS},
    {"ufakzeka", RX_UFAKZEKA, NCS},
    {"laguna", RX_LAGUNA, NCS},
    {"exaone-moe", RX_EXAONE_MOE, 0},
    {"minicpm5", RX_MINICPM5, IGM},
};

// Names llama.cpp knows but whose tokenizers need machinery frink does not have: custom
// splitters (Kimi's Han classes, AFMoE/Tiny-Aya digit grouping) or raw-UTF-8 BPE (gemma4,
// sarvam, whitespace). Refused by name rather than silently mis-tokenized.
static const char *const pre_refused[] = {
    "kimi-k2", "afmoe", "tiny_aya", "cohere2moe", "gemma4", "granite-embed-multi-311m",
    "sarvam-moe", "whitespace",
};

// Pattern texts that upstream routes to hand-written splitters.
static const struct {
    const char *pattern;
    enum split_kind kind;
} custom_patterns[] = {
    {"'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)", SPLIT_GPT2},
    {"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
     "\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     SPLIT_LLAMA3},
    {"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|"
     "\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     SPLIT_QWEN2},
    {"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?"
     "[\\p{L}\\p{M}]+|\\p{N}| ?[^\\s\\p{L}\\p{M}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
     SPLIT_QWEN35},
    {"[^\\n]+|[\\n]+", SPLIT_NEWLINES},
};

// ---- Regex compilation ---------------------------------------------------------------------

// Unicode classes recognised inside patterns, with the marker byte of their category in the
// collapsed text and their ASCII members. All \p{L*} subclasses collapse to plain letters,
// exactly as upstream (so \p{Lu} also matches lower-case non-ASCII letters).
static const struct {
    const char *name;
    unsigned char marker;
    const char *ascii;
} ucat[] = {
    {"\\p{N}", 0xD1, "0-9"},
    {"\\p{L}", 0xD2, "A-Za-z"},
    {"\\p{P}", 0xD3, "!-#%-*,-/:-;?-@\\[-\\]_\\{\\}"},
    {"\\p{M}", 0xD4, ""},
    {"\\p{S}", 0xD5, "\\$\\+<->^`\\|"},
    {"\\p{Lu}", 0xD2, "A-Za-z"},
    {"\\p{Ll}", 0xD2, "A-Za-z"},
    {"\\p{Lt}", 0xD2, "A-Za-z"},
    {"\\p{Lm}", 0xD2, "A-Za-z"},
    {"\\p{Lo}", 0xD2, "A-Za-z"},
};
#define N_UCAT (sizeof(ucat) / sizeof(ucat[0]))

static bool needs_collapse(const char *re) {
    for (size_t i = 0; i < N_UCAT; i++)
        if (strstr(re, ucat[i].name)) return true;
    return false;
}

// Rewrites \p{X} into marker-byte classes, tracking whether we are inside [...] the way
// upstream does (a bracket preceded by a backslash does not count). Returns malloc'ed text.
static char *collapse_pattern(const char *re) {
    size_t n = strlen(re);
    char *out = malloc(n * 4 + 64);
    if (!out) return NULL;
    size_t o = 0;
    bool inside = false;
    for (size_t i = 0; i < n; i++) {
        if (re[i] == '[' && (i == 0 || re[i - 1] != '\\')) {
            out[o++] = '[';
            inside = true;
            continue;
        }
        if (inside && re[i] == ']' && re[i - 1] != '\\') {
            out[o++] = ']';
            inside = false;
            continue;
        }
        if (re[i] == '\\' && i + 3 < n && re[i + 1] == 'p' && re[i + 2] == '{') {
            const char *close = strchr(re + i + 3, '}');
            if (close && (size_t)(close - re) <= i + 10) {
                size_t len = (size_t)(close - re) - i + 1;
                size_t k;
                for (k = 0; k < N_UCAT; k++)
                    if (strlen(ucat[k].name) == len && !memcmp(ucat[k].name, re + i, len)) break;
                if (k < N_UCAT) {
                    if (!inside) out[o++] = '[';
                    out[o++] = (char)ucat[k].marker;
                    size_t al = strlen(ucat[k].ascii);
                    memcpy(out + o, ucat[k].ascii, al);
                    o += al;
                    if (!inside) out[o++] = ']';
                    i += len - 1;
                    continue;
                }
            }
        }
        out[o++] = re[i];
    }
    out[o] = 0;
    return out;
}

static frink_status compile_step(const char *re, struct pretok_step *st) {
    for (size_t i = 0; i < sizeof(custom_patterns) / sizeof(custom_patterns[0]); i++) {
        if (!strcmp(re, custom_patterns[i].pattern)) {
            st->kind = custom_patterns[i].kind;
            return FRINK_OK;
        }
    }
    st->kind = SPLIT_REGEX;
    st->collapsed = needs_collapse(re);
    char *pat = NULL;
    // DOLLAR_ENDONLY: ECMAScript's $ never matches before a final newline.
    uint32_t opts = PCRE2_DOLLAR_ENDONLY;
    if (st->collapsed) {
        for (const unsigned char *p = (const unsigned char *)re; *p; p++)
            if (*p >= 0x80)
                return frink_fail(FRINK_ERR_UNSUPPORTED,
                                  "pre-tokenizer regex mixes \\p{} classes with non-ASCII text");
        pat = collapse_pattern(re);
        if (!pat) return frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer regex");
    } else {
        opts |= PCRE2_UTF; // code-point semantics, but no UCP: \s \d \w stay ASCII
    }
    int err = 0;
    PCRE2_SIZE erroff = 0;
    st->code = pcre2_compile((PCRE2_SPTR)(pat ? pat : re), PCRE2_ZERO_TERMINATED, opts, &err,
                             &erroff, NULL);
    free(pat);
    if (!st->code) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(err, msg, sizeof(msg));
        return frink_fail(FRINK_ERR_UNSUPPORTED, "pre-tokenizer regex %s: %s at %zu", re,
                          (const char *)msg, (size_t)erroff);
    }
    pcre2_jit_compile(st->code, PCRE2_JIT_COMPLETE); // optional: falls back to the interpreter
    return FRINK_OK;
}

frink_status pretok_create(const char *name, struct pretok **out, unsigned *flags) {
    *out = NULL;
    *flags = 0;
    if (!name || !*name) name = "default"; // upstream warns loudly, then uses "default"
    for (size_t i = 0; i < sizeof(pre_refused) / sizeof(pre_refused[0]); i++)
        if (!strcmp(name, pre_refused[i]))
            return frink_fail(FRINK_ERR_UNSUPPORTED,
                              "tokenizer.ggml.pre '%s' is not supported by frink", name);
    const struct pre_name *pn = NULL;
    for (size_t i = 0; i < sizeof(pre_names) / sizeof(pre_names[0]); i++)
        if (!strcmp(name, pre_names[i].name)) pn = &pre_names[i];
    if (!pn) return frink_fail(FRINK_ERR_UNSUPPORTED, "unknown tokenizer.ggml.pre '%s'", name);

    struct pretok *p = calloc(1, sizeof(*p));
    if (!p) return frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
    for (const char *const *re = pn->regexes; *re; re++) {
        if (p->n_steps == sizeof(p->steps) / sizeof(p->steps[0])) {
            pretok_free(p);
            return frink_fail(FRINK_ERR_UNSUPPORTED, "pre-tokenizer '%s': too many regexes", name);
        }
        frink_status st = compile_step(*re, &p->steps[p->n_steps]);
        if (st != FRINK_OK) {
            pretok_free(p);
            return st;
        }
        p->n_steps++;
    }
    *flags = pn->flags;
    *out = p;
    return FRINK_OK;
}

void pretok_free(struct pretok *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n_steps; i++)
        if (p->steps[i].code) pcre2_code_free(p->steps[i].code);
    free(p);
}

// ---- Growable length list ------------------------------------------------------------------

struct lens {
    size_t *v;
    size_t n, cap;
    bool oom;
};

static void lens_push(struct lens *l, size_t x) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        size_t *v = realloc(l->v, cap * sizeof(*v));
        if (!v) {
            l->oom = true;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = x;
}

// ---- Hand-written splitters ----------------------------------------------------------------
//
// They walk one chunk [ini, end) of code points. Positions outside the chunk read as "out of
// range": flags 0, which no in-range code point has (unassigned ones are UNDEFINED = 1).
// Each emits the chunk lengths between successive cut points; empty pieces are skipped.

struct walk {
    const uint32_t *cpts;
    const uint16_t *flags; // per code point of the whole text
    size_t ini, end, prev;
    struct lens *out;
};

#define OUT_OF_RANGE 0xFFFFFFFFu

static inline uint32_t w_cpt(const struct walk *w, size_t p) {
    return p >= w->ini && p < w->end ? w->cpts[p] : OUT_OF_RANGE;
}
static inline uint16_t w_flags(const struct walk *w, size_t p) {
    return p >= w->ini && p < w->end ? w->flags[p] : 0;
}
// Cuts at `end` and returns the length of the piece (0 if none).
static size_t w_cut(struct walk *w, size_t end) {
    size_t len = end - w->prev;
    if (len) lens_push(w->out, len);
    w->prev = end;
    return len;
}

static inline uint32_t ascii_lower(uint32_t c) {
    // Upstream lower-cases with the full UCD map, but only the results s t m d r e v l matter
    // here and no non-ASCII code point lower-cases to one of them.
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

// Returns the length of a contraction ('s 't 'm 'd 're 've 'll) at pos, or 0.
static size_t contraction(const struct walk *w, size_t pos, bool fold) {
    if (w_cpt(w, pos) != '\'' || pos + 1 >= w->end) return 0;
    uint32_t a = w_cpt(w, pos + 1);
    if (fold) a = ascii_lower(a);
    if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
    if (pos + 2 >= w->end) return 0;
    uint32_t b = w_cpt(w, pos + 2);
    if (fold) b = ascii_lower(b);
    if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
    return 0;
}

// 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
static void split_gpt2(struct walk *w) {
    const uint16_t WLN = UNICODE_WHITESPACE | UNICODE_LETTER | UNICODE_NUMBER;
    for (size_t pos = w->ini; pos < w->end;) {
        uint32_t c = w_cpt(w, pos);
        size_t k = contraction(w, pos, false); // case-sensitive in gpt2
        if (k) {
            pos += w_cut(w, pos + k);
            continue;
        }
        uint16_t f2 = c == ' ' ? w_flags(w, pos + 1) : w_flags(w, pos);
        uint16_t cls = f2 & UNICODE_LETTER ? UNICODE_LETTER : f2 & UNICODE_NUMBER ? UNICODE_NUMBER : 0;
        if (cls) { // ' ?\p{L}+' or ' ?\p{N}+'
            pos += c == ' ';
            while (w_flags(w, pos) & cls) pos++;
            w_cut(w, pos);
            continue;
        }
        if (!(f2 & WLN) && f2) { // ' ?[^\s\p{L}\p{N}]+'
            pos += c == ' ';
            for (uint16_t f = w_flags(w, pos); !(f & WLN) && f; f = w_flags(w, ++pos)) {}
            w_cut(w, pos);
            continue;
        }
        size_t nws = 0;
        while (w_flags(w, pos + nws) & UNICODE_WHITESPACE) nws++;
        if (nws > 1 && w_cpt(w, pos + nws) != OUT_OF_RANGE) { // \s+(?!\S): leave the last one
            pos += nws - 1;
            w_cut(w, pos);
            continue;
        }
        if (nws > 0) {
            pos += nws;
            w_cut(w, pos);
            continue;
        }
        w_cut(w, ++pos);
    }
}

// llama3 / qwen2 / qwen35:
// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
// \s*[\r\n]+|\s+(?!\S)|\s+   (qwen2: \p{N}; qwen35: also marks with letters, \p{N})
static void split_llama3(struct walk *w, enum split_kind kind) {
    const uint16_t word = kind == SPLIT_QWEN35 ? UNICODE_LETTER | UNICODE_MARK : UNICODE_LETTER;
    const uint16_t excl = UNICODE_WHITESPACE | UNICODE_NUMBER | word;
    const size_t max_digits = kind == SPLIT_LLAMA3 ? 3 : 1;
    for (size_t pos = w->ini; pos < w->end;) {
        uint32_t c = w_cpt(w, pos);
        uint16_t f = w_flags(w, pos);
        size_t k = contraction(w, pos, true);
        if (k) {
            pos += w_cut(w, pos + k);
            continue;
        }
        // [^\r\n\p{L}\p{N}]?\p{L}+ : any non-CR/LF/number may lead a letter run
        if (!(c == '\r' || c == '\n' || (f & UNICODE_NUMBER))) {
            if ((f & word) || (w_flags(w, pos + 1) & word)) {
                pos++;
                while (w_flags(w, pos) & word) pos++;
                w_cut(w, pos);
                continue;
            }
        }
        if (f & UNICODE_NUMBER) { // runs of at most max_digits, from the left
            size_t start = pos;
            while (w_flags(w, pos) & UNICODE_NUMBER) {
                if (++pos - start >= max_digits) {
                    w_cut(w, pos);
                    start = pos;
                }
            }
            w_cut(w, pos);
            continue;
        }
        // ' ?[^\s\p{L}\p{N}]+[\r\n]*' — note the in-range test is on the current code point
        uint16_t f2 = c == ' ' ? w_flags(w, pos + 1) : f;
        if (!(f2 & excl) && f) {
            pos += c == ' ';
            for (uint16_t g = w_flags(w, pos); !(g & excl) && g; g = w_flags(w, ++pos)) {}
            for (uint32_t d = w_cpt(w, pos); d == '\r' || d == '\n'; d = w_cpt(w, ++pos)) {}
            w_cut(w, pos);
            continue;
        }
        size_t nws = 0, last_rn = 0;
        while (w_flags(w, pos + nws) & UNICODE_WHITESPACE) {
            uint32_t d = w_cpt(w, pos + nws);
            if (d == '\r' || d == '\n') last_rn = pos + nws + 1;
            nws++;
        }
        if (last_rn > 0) { // \s*[\r\n]+ : up to and including the last CR/LF of the run
            pos = last_rn;
            w_cut(w, pos);
            continue;
        }
        if (nws > 1 && w_cpt(w, pos + nws) != OUT_OF_RANGE) {
            pos += nws - 1;
            w_cut(w, pos);
            continue;
        }
        if (nws > 0) {
            pos += nws;
            w_cut(w, pos);
            continue;
        }
        w_cut(w, ++pos);
    }
}

// [^\n]+|[\n]+ : alternating runs of LF and non-LF.
static void split_newlines(struct walk *w) {
    for (size_t pos = w->ini; pos < w->end;) {
        bool lf = w->cpts[pos] == '\n';
        while (pos < w->end && (w->cpts[pos] == '\n') == lf) pos++;
        w_cut(w, pos);
    }
}

// ---- The regex runner ----------------------------------------------------------------------

// Subject text for one regex step: either collapsed bytes (byte i = code point i) or UTF-8
// with a byte-offset -> code-point map.
struct subject {
    char *s;
    size_t len;
    size_t *cp_of_byte; // UTF-8 mode: [len + 1], valid at code point boundaries
    size_t *byte_of_cp; // UTF-8 mode: [n + 1]
};

static frink_status build_subject(const uint32_t *cpts, const uint16_t *flags, size_t n,
                                  bool collapsed, struct subject *sb) {
    memset(sb, 0, sizeof(*sb));
    if (collapsed) {
        sb->s = malloc(n + 1);
        if (!sb->s) return frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
        for (size_t i = 0; i < n; i++) {
            uint32_t c = cpts[i];
            unsigned char b;
            if (c < 128) b = (unsigned char)c;
            else if (flags[i] & UNICODE_WHITESPACE) b = 0x0B; // std::regex \s misses it otherwise
            else {
                switch (flags[i] & UNICODE_CATEGORY_MASK) {
                case UNICODE_NUMBER: b = 0xD1; break;
                case UNICODE_LETTER: b = 0xD2; break;
                case UNICODE_PUNCTUATION: b = 0xD3; break;
                case UNICODE_MARK: b = 0xD4; break;
                case UNICODE_SYMBOL: b = 0xD5; break;
                default: b = 0xD0; break;
                }
            }
            sb->s[i] = (char)b;
        }
        sb->len = n;
        return FRINK_OK;
    }
    sb->s = malloc(n * 4 + 1);
    sb->cp_of_byte = malloc((n * 4 + 1) * sizeof(size_t));
    sb->byte_of_cp = malloc((n + 1) * sizeof(size_t));
    if (!sb->s || !sb->cp_of_byte || !sb->byte_of_cp)
        return frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = cpts[i];
        if (c > 0x7F && (flags[i] & UNICODE_WHITESPACE)) c = 0x0B;
        // Surrogates and values past U+10FFFF are plain characters to std::wregex but invalid
        // UTF-8 to PCRE2; a private-use stand-in matches exactly the same classes in every
        // supported pattern (none of them names U+E000 or a surrogate).
        if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xE000;
        sb->byte_of_cp[i] = o;
        int k = unicode_encode(c, sb->s + o);
        for (int j = 0; j < k; j++) sb->cp_of_byte[o + (size_t)j] = i;
        o += (size_t)k;
    }
    sb->byte_of_cp[n] = o;
    sb->cp_of_byte[o] = n;
    sb->len = o;
    return FRINK_OK;
}

static void free_subject(struct subject *sb) {
    free(sb->s);
    free(sb->cp_of_byte);
    free(sb->byte_of_cp);
}

// Splits chunk [ini, end) (code points) with `code`, like std::regex_iterator: matches and the
// gaps before them are emitted, then the tail. After an empty match the next attempt must be
// non-empty at the same place, else the search moves on by one character.
static frink_status split_regex(const struct pretok_step *st, const struct subject *sb,
                                size_t ini, size_t end, pcre2_match_data *md, struct lens *out) {
    bool utf = !st->collapsed;
    size_t bs = utf ? sb->byte_of_cp[ini] : ini;
    size_t be = utf ? sb->byte_of_cp[end] : end;
    PCRE2_SPTR subj = (PCRE2_SPTR)(sb->s + bs);
    size_t blen = be - bs;
#define CP(b) (utf ? sb->cp_of_byte[bs + (b)] - ini : (b))
    size_t prev = 0; // in code points, relative to ini
    size_t pos = 0;  // byte offset of the next search
    uint32_t opts = utf ? PCRE2_NO_UTF_CHECK : 0;
    int rc = pcre2_match(st->code, subj, blen, pos, opts, md, NULL);
    while (rc >= 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t ms = ov[0], me = ov[1];
        size_t mcs = CP(ms), mce = CP(me);
        if (mcs > prev) lens_push(out, mcs - prev);
        lens_push(out, mce - mcs);
        prev = mce;
        pos = me;
        if (ms == me) {
            if (me == blen) break;
            rc = pcre2_match(st->code, subj, blen, pos,
                             opts | PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED, md, NULL);
            if (rc >= 0) continue;
            pos += utf ? unicode_len_utf8((unsigned char)subj[pos]) : 1;
        }
        rc = pos <= blen ? pcre2_match(st->code, subj, blen, pos, opts, md, NULL)
                         : PCRE2_ERROR_NOMATCH;
    }
#undef CP
    if (rc < 0 && rc != PCRE2_ERROR_NOMATCH)
        return frink_fail(FRINK_ERR_STATE, "pre-tokenizer regex failed (PCRE2 error %d)", rc);
    if (prev < end - ini) lens_push(out, end - ini - prev);
    return FRINK_OK;
}

frink_status pretok_split(const struct pretok *p, const uint32_t *cpts, size_t n, size_t **lens,
                          size_t *n_lens) {
    *lens = NULL;
    *n_lens = 0;
    frink_status st = FRINK_OK;
    uint16_t *flags = malloc((n + 1) * sizeof(uint16_t));
    struct lens cur = {0}, next = {0};
    pcre2_match_data *md = NULL;
    if (!flags) return frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
    for (size_t i = 0; i < n; i++) flags[i] = unicode_flags(cpts[i]);
    lens_push(&cur, n);

    for (size_t s = 0; s < p->n_steps && st == FRINK_OK; s++) {
        const struct pretok_step *step = &p->steps[s];
        struct subject sb = {0};
        if (step->kind == SPLIT_REGEX) {
            if (!md) md = pcre2_match_data_create(8, NULL);
            if (!md) {
                st = frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
                break;
            }
            st = build_subject(cpts, flags, n, step->collapsed, &sb);
        }
        size_t start = 0;
        for (size_t c = 0; c < cur.n && st == FRINK_OK; c++) {
            size_t end = start + cur.v[c];
            struct walk w = {cpts, flags, start, end, start, &next};
            switch (step->kind) {
            case SPLIT_GPT2: split_gpt2(&w); break;
            case SPLIT_LLAMA3:
            case SPLIT_QWEN2:
            case SPLIT_QWEN35: split_llama3(&w, step->kind); break;
            case SPLIT_NEWLINES: split_newlines(&w); break;
            case SPLIT_REGEX: st = split_regex(step, &sb, start, end, md, &next); break;
            }
            start = end;
        }
        free_subject(&sb);
        if (next.oom && st == FRINK_OK) st = frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
        free(cur.v);
        cur = next;
        memset(&next, 0, sizeof(next));
    }
    if (md) pcre2_match_data_free(md);
    free(flags);
    if (cur.oom && st == FRINK_OK) st = frink_fail(FRINK_ERR_NOMEM, "pre-tokenizer");
    if (st != FRINK_OK) {
        free(cur.v);
        return st;
    }
    *lens = cur.v;
    *n_lens = cur.n;
    return FRINK_OK;
}
