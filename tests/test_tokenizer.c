// test_tokenizer.c — token ids against llama.cpp for every vocab under tests/data/vocab.
//
// Three layers, cheapest first:
//  1. the shipped upstream vectors (X.gguf.inp / X.gguf.out, add_special = parse_special =
//     false), every one of them;
//  2. golden ids from the reference oracle for texts the shipped vectors never cover
//     (tests/data/vocab/extra/X.tsv, written by scripts/make-tok-golden.sh; add_special and
//     parse_special true, as the oracle tokenizes);
//  3. properties: decode(encode(text)) round trips where llama.cpp guarantees it, the
//     embedded stories260K vocab, EOG sets, and a 100 KB timing check.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/gguf.h"
#include "test.h"
#include "text/tokenizer.h"

#define VOCAB_DIR "tests/data/vocab/"

static const char *const vocabs[] = {
    "llama-spm", "phi-3",          "llama-bpe", "qwen2", "qwen35",    "gpt-2",    "deepseek-llm",
    "deepseek-coder", "falcon", "mpt",       "starcoder", "refact", "bert-bge",
};
#define N_VOCABS (sizeof(vocabs) / sizeof(vocabs[0]))

static struct tokenizer *open_vocab(const char *path, struct gguf_file **gf) {
    struct tokenizer *t = NULL;
    if (gguf_open(path, gf) != FRINK_OK) {
        fprintf(stderr, "cannot open %s: %s\n", path, frink_errmsg());
        return NULL;
    }
    if (tokenizer_load(*gf, &t) != FRINK_OK) {
        fprintf(stderr, "cannot load tokenizer of %s: %s\n", path, frink_errmsg());
        gguf_close(*gf);
        *gf = NULL;
        return NULL;
    }
    return t;
}

// Parses " 1 2 3" / "1,2,3" id lists; returns the count (ids must hold enough room).
static size_t parse_ids(const char *s, size_t len, int32_t *ids) {
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        if (s[i] < '0' || s[i] > '9') {
            i++;
            continue;
        }
        long v = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') v = v * 10 + (s[i++] - '0');
        ids[n++] = (int32_t)v;
    }
    return n;
}

static void print_ids(const char *what, const int32_t *ids, size_t n) {
    fprintf(stderr, "  %s:", what);
    for (size_t i = 0; i < n && i < 64; i++) fprintf(stderr, " %d", ids[i]);
    fprintf(stderr, n > 64 ? " ...\n" : "\n");
}

static bool same_ids(const int32_t *a, size_t na, const int32_t *b, size_t nb) {
    return na == nb && (na == 0 || !memcmp(a, b, na * sizeof(int32_t)));
}

// Layer 1: the upstream test files. Inputs are separated by "\n__ggml_vocab_test__\n"; the
// last separator may be missing. Outputs are one line per input.
static int check_shipped(const char *name, const struct tokenizer *t) {
    char path[256];
    size_t il, ol;
    snprintf(path, sizeof(path), VOCAB_DIR "ggml-vocab-%s.gguf.inp", name);
    char *inp = test_read_file(path, &il);
    snprintf(path, sizeof(path), VOCAB_DIR "ggml-vocab-%s.gguf.out", name);
    char *out = test_read_file(path, &ol);
    CHECK(inp && out, "%s: missing .inp/.out", name);
    if (!inp || !out) return 0;
    static const char sep[] = "\n__ggml_vocab_test__\n";
    const size_t sl = sizeof(sep) - 1;
    const char *ip = inp, *ie = inp + il, *op = out, *oe = out + ol;
    int n_ok = 0, n_all = 0;
    int32_t *want = malloc((ol + 1) * sizeof(int32_t));
    while (ip < ie) {
        const char *end = memmem(ip, (size_t)(ie - ip), sep, sl);
        size_t tl = end ? (size_t)(end - ip) : (size_t)(ie - ip);
        const char *nl = memchr(op, '\n', (size_t)(oe - op));
        size_t ll = nl ? (size_t)(nl - op) : (size_t)(oe - op);
        size_t nw = parse_ids(op, ll, want);
        int32_t *got = NULL;
        size_t ng = 0;
        frink_status st = tokenizer_encode(t, ip, tl, false, false, &got, &ng);
        bool ok = st == FRINK_OK && same_ids(got, ng, want, nw);
        CHECK(ok, "%s vector %d: \"%.*s\"", name, n_all, (int)(tl > 60 ? 60 : tl), ip);
        if (!ok) {
            print_ids("want", want, nw);
            print_ids("got ", got, ng);
        }
        n_ok += ok;
        n_all++;
        free(got);
        ip += tl + (end ? sl : 0);
        op += ll + (nl ? 1 : 0);
    }
    printf("  %-15s shipped %d/%d\n", name, n_ok, n_all);
    free(want);
    free(inp);
    free(out);
    return n_ok;
}

// Unescapes the golden-file text column: \n \t \r \\ and \xHH.
static size_t unescape(const char *s, size_t len, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\' || i + 1 >= len) {
            out[o++] = s[i];
            continue;
        }
        char c = s[++i];
        if (c == 'n') out[o++] = '\n';
        else if (c == 't') out[o++] = '\t';
        else if (c == 'r') out[o++] = '\r';
        else if (c == 'x' && i + 2 < len) {
            unsigned v = 0;
            sscanf(s + i + 1, "%2x", &v);
            out[o++] = (char)v;
            i += 2;
        } else out[o++] = c;
    }
    return o;
}

// Layer 2: tests/data/vocab/extra/<name>.tsv, one "escaped-text TAB ids" line per text.
static void check_extra(const char *name, const struct tokenizer *t) {
    char path[256];
    size_t len;
    snprintf(path, sizeof(path), VOCAB_DIR "extra/%s.tsv", name);
    char *s = test_read_file(path, &len);
    CHECK(s != NULL, "%s: missing golden file %s (run scripts/make-tok-golden.sh)", name, path);
    if (!s) return;
    char *text = malloc(len + 1);
    int32_t *want = malloc((len + 1) * sizeof(int32_t));
    int n_ok = 0, n_all = 0;
    for (char *line = s; line < s + len;) {
        char *nl = memchr(line, '\n', (size_t)(s + len - line));
        char *le = nl ? nl : s + len;
        char *tab = memchr(line, '\t', (size_t)(le - line));
        if (line[0] != '#' && tab) {
            size_t tl = unescape(line, (size_t)(tab - line), text);
            size_t nw = parse_ids(tab + 1, (size_t)(le - tab - 1), want);
            int32_t *got = NULL;
            size_t ng = 0;
            frink_status st = tokenizer_encode(t, text, tl, true, true, &got, &ng);
            bool ok = st == FRINK_OK && same_ids(got, ng, want, nw);
            CHECK(ok, "%s extra %d: \"%.*s\"", name, n_all, (int)(tab - line > 60 ? 60 : tab - line),
                  line);
            if (!ok) {
                print_ids("want", want, nw);
                print_ids("got ", got, ng);
            }
            n_ok += ok;
            n_all++;
            free(got);
        }
        line = le + 1;
    }
    printf("  %-15s extra   %d/%d\n", name, n_ok, n_all);
    free(text);
    free(want);
    free(s);
}

// Layer 3a: round trips. SPM keeps every byte (the encoder's leading space is removed again
// by decode); byte-level BPE keeps valid UTF-8 when clean_spaces is off, and also when it is
// on for texts without " ?", " 's"-style sequences.
static void check_roundtrip(const char *name, const struct tokenizer *t) {
    static const char *const texts[] = {
        "Hello world",
        "  leading and trailing spaces  ",
        "tabs\tand\nnewlines\r\n\n\nend",
        "Ünïcödé – “quotes” — ½ ∑ 🦙🚀 ĉ Ġ",
        "中文字符和日本語のテキスト한국어",
        "int main(void) { return 0; }\n\tprintf(\"%d\\n\", x);",
        "3333333 1234567890 3.14159",
        "नमस्ते दुनिया مرحبا بالعالم",
        "e\xCC\x81 a\xCC\x80\xCC\x80",
    };
    int n_ok = 0, n_all = 0;
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        int32_t *ids = NULL;
        size_t n = 0;
        size_t tl = strlen(texts[i]);
        CHECK(tokenizer_encode(t, texts[i], tl, false, false, &ids, &n) == FRINK_OK, "%s encode",
              name);
        char *back = tokenizer_decode(t, ids, n, false);
        bool ok = back && strcmp(back, texts[i]) == 0;
        CHECK(ok, "%s round trip \"%s\" -> \"%s\"", name, texts[i], back ? back : "(null)");
        n_ok += ok;
        n_all++;
        free(back);
        free(ids);
    }
    printf("  %-15s roundtrip %d/%d\n", name, n_ok, n_all);
}

// The default model linked into libfrink (src/core/embedded.S): the test checks the bytes
// `frink run` will actually use, not a copy on disk.
extern const unsigned char frink_default_model_data[];
extern const unsigned char frink_default_model_end[];

// Layer 3b: stories260K, the embedded default model (SPM, 512 tokens).
static void check_stories(void) {
    struct gguf_file *gf = NULL;
    struct tokenizer *t = NULL;
    size_t size = (size_t)(frink_default_model_end - frink_default_model_data);
    CHECK(gguf_parse(frink_default_model_data, size, &gf) == FRINK_OK, "embedded: %s",
          frink_errmsg());
    if (gf && tokenizer_load(gf, &t) != FRINK_OK) t = NULL;
    CHECK(t != NULL, "stories260K loads");
    if (!t) {
        gguf_close(gf);
        return;
    }
    int32_t *ids = NULL;
    size_t n = 0;
    static const int32_t want[] = {1, 403, 407, 261, 378}; // oracle: "Once upon a time"
    CHECK(tokenizer_encode(t, "Once upon a time", 16, true, true, &ids, &n) == FRINK_OK, "encode");
    CHECK(same_ids(ids, n, want, 5), "stories260K \"Once upon a time\"");
    CHECK(tokenizer_n_vocab(t) == 512, "n_vocab %d", tokenizer_n_vocab(t));
    CHECK(tokenizer_bos(t) == 1 && tokenizer_eos(t) == 2 && tokenizer_add_bos(t), "bos/eos");
    CHECK(tokenizer_is_eog(t, 2) && !tokenizer_is_eog(t, 1), "eog");
    char *s = tokenizer_decode(t, ids, n, false);
    CHECK(s && !strcmp(s, " Once upon a time"), "decode keeps the space after BOS: \"%s\"", s);
    free(s);
    free(ids);
    tokenizer_free(t);
    gguf_close(gf);
}

// Layer 3c: API edges and special-token behaviour on real vocabs.
static void check_api(const char *name, const struct tokenizer *t) {
    char buf[64];
    CHECK(tokenizer_piece(t, -1, buf, sizeof(buf), true) == -1, "%s: bad id", name);
    CHECK(tokenizer_piece(t, tokenizer_n_vocab(t), buf, sizeof(buf), true) == -1, "%s: bad id", name);
    int32_t eos = tokenizer_eos(t);
    if (eos >= 0) CHECK(tokenizer_is_eog(t, eos), "%s: eos is eog", name);
    CHECK(!tokenizer_is_eog(t, -1), "%s: -1 not eog", name);
    int32_t *ids = NULL;
    size_t n = 0;
    CHECK(tokenizer_encode(t, "", 0, false, false, &ids, &n) == FRINK_OK && n == 0,
          "%s: empty text", name);
    free(ids);
}

static void check_qwen_specials(void) {
    struct gguf_file *gf = NULL;
    struct tokenizer *t = open_vocab(VOCAB_DIR "ggml-vocab-qwen2.gguf", &gf);
    if (!t) return;
    static const char txt[] = "<|im_start|>user\nhi<|im_end|>";
    int32_t *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    tokenizer_encode(t, txt, sizeof(txt) - 1, false, true, &a, &na);
    tokenizer_encode(t, txt, sizeof(txt) - 1, false, false, &b, &nb);
    CHECK(na == 5 && a[0] == 151644 && a[4] == 151645, "qwen2 parses <|im_start|> (%zu ids)", na);
    CHECK(nb > na, "qwen2 without parse_special spells the markers out");
    CHECK(tokenizer_is_eog(t, 151645) && tokenizer_is_eog(t, 151643), "qwen2 eog set");
    char piece[32];
    CHECK(tokenizer_piece(t, 151645, piece, sizeof(piece), false) == 0, "control hidden");
    CHECK(tokenizer_piece(t, 151645, piece, sizeof(piece), true) == 10, "control rendered");
    char *s = tokenizer_decode(t, a, na, true);
    CHECK(s && !strcmp(s, txt), "qwen2 decode with specials: \"%s\"", s);
    free(s);
    free(a);
    free(b);
    tokenizer_free(t);
    gguf_close(gf);
}

// Layer 3d: 100 KB of mixed text must tokenize well under a second.
static void check_speed(const char *name, const struct tokenizer *t) {
    static const char chunk[] =
        "The quick brown fox jumps over the lazy dog. 12345 67890 — naïve café, 東京 🦙\n"
        "    def f(x): return x ** 2  # comment\tend\n";
    size_t cl = sizeof(chunk) - 1, len = 0, cap = 100 * 1024;
    char *text = malloc(cap + cl);
    while (len < cap) memcpy(text + len, chunk, cl), len += cl;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int32_t *ids = NULL;
    size_t n = 0;
    frink_status st = tokenizer_encode(t, text, len, true, true, &ids, &n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double sec = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(st == FRINK_OK && n > 10000, "%s: 100 KB encodes", name);
    CHECK(sec < 0.5, "%s: 100 KB took %.3f s", name, sec);
    printf("  %-15s 100 KB -> %zu tokens in %.1f ms\n", name, n, sec * 1e3);
    free(ids);
    free(text);
}

// ---- Refusals, on GGUF files built in memory ----

struct gb {
    unsigned char b[4096];
    size_t n;
};
static void gb_put(struct gb *g, const void *p, size_t n) {
    memcpy(g->b + g->n, p, n);
    g->n += n;
}
static void gb_u32(struct gb *g, uint32_t v) { gb_put(g, &v, 4); }
static void gb_u64(struct gb *g, uint64_t v) { gb_put(g, &v, 8); }
static void gb_str(struct gb *g, const char *s) {
    gb_u64(g, strlen(s));
    gb_put(g, s, strlen(s));
}
static void gb_kv_str(struct gb *g, const char *key, const char *val) {
    gb_str(g, key);
    gb_u32(g, 8); // STRING
    gb_str(g, val);
}
static void gb_kv_strs(struct gb *g, const char *key, const char *const *vals, size_t n) {
    gb_str(g, key);
    gb_u32(g, 9); // ARRAY
    gb_u32(g, 8); // of STRING
    gb_u64(g, n);
    for (size_t i = 0; i < n; i++) gb_str(g, vals[i]);
}

// A vocab-only GGUF: model, optional pre, tokens, optional merges.
static frink_status load_synthetic(const char *model, const char *pre, bool merges,
                                   struct tokenizer **t) {
    static const char *const toks[] = {"a", "b", "ab", "\xC4\xA0", "\xC4\xA0\x61\x62", "<|x|>",
                                       "c",  "d", "e",  "f",        "g",                "h"};
    static const char *const mrg[] = {"a b", "\xC4\xA0 ab"};
    static struct gb g;
    g.n = 0;
    gb_put(&g, "GGUF", 4);
    gb_u32(&g, 3);
    gb_u64(&g, 0);
    gb_u64(&g, 2 + (pre != NULL) + merges);
    gb_kv_str(&g, "tokenizer.ggml.model", model);
    if (pre) gb_kv_str(&g, "tokenizer.ggml.pre", pre);
    gb_kv_strs(&g, "tokenizer.ggml.tokens", toks, 12); // 11 = BPE default BOS
    if (merges) gb_kv_strs(&g, "tokenizer.ggml.merges", mrg, 2);
    struct gguf_file *gf = NULL;
    *t = NULL;
    frink_status st = gguf_parse(g.b, g.n, &gf);
    if (st == FRINK_OK) st = tokenizer_load(gf, t);
    gguf_close(gf); // the tokenizer keeps copies of everything
    return st;
}

// WordPiece: [CLS] text [SEP] with special tokens, and the reference's decode rules (each
// word's phantom space kept, " ," and " !" cleaned).
static void check_wpm(const struct tokenizer *t) {
    int32_t *ids = NULL;
    size_t n = 0;
    static const int32_t want[] = {101, 7592, 1010, 2088, 999, 102}; // [CLS] hello , world ! [SEP]
    CHECK(tokenizer_encode(t, "Hello, World!", 13, true, true, &ids, &n) == FRINK_OK && same_ids(ids, n, want, 6),
          "bert-bge: [CLS] hello , world ! [SEP] (%zu ids)", n);
    char *s = ids ? tokenizer_decode(t, ids, n, false) : NULL;
    CHECK(s && !strcmp(s, " hello, world!"), "bert-bge decode \"%s\"", s ? s : "(null)");
    free(s);
    free(ids);
}

static void check_refusals(void) {
    struct tokenizer *t = NULL;
    frink_status st = load_synthetic("t5", NULL, false, &t);
    CHECK(st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "'t5'"), "t5: %s",
          frink_errmsg());
    // WordPiece whose default [CLS] 101 / [SEP] 102 / [UNK] 100 fall outside its 12 tokens
    st = load_synthetic("bert", NULL, false, &t);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "BOS"), "bert without [CLS]: %s",
          frink_errmsg());
    st = load_synthetic("sentencepiece9", NULL, false, &t);
    CHECK(st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "unknown"), "unknown: %s",
          frink_errmsg());
    st = load_synthetic("gpt2", "kimi-k2", true, &t);
    CHECK(st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "kimi-k2"), "kimi: %s",
          frink_errmsg());
    st = load_synthetic("gpt2", "made-up-pre", true, &t);
    CHECK(st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "made-up-pre"), "pre: %s",
          frink_errmsg());
    st = load_synthetic("gpt2", "gpt-2", false, &t);
    CHECK(st == FRINK_ERR_FORMAT && strstr(frink_errmsg(), "merges"), "no merges: %s",
          frink_errmsg());
    CHECK(t == NULL, "no tokenizer on failure");

    // A working toy vocab: "ab ab" -> "ab", "Ġab" via the two merges; no token types means
    // every token is NORMAL, so "<|x|>" is plain text and gets spelled out from bytes.
    st = load_synthetic("gpt2", "gpt-2", true, &t);
    CHECK(st == FRINK_OK, "toy vocab: %s", frink_errmsg());
    if (!t) return;
    int32_t *ids = NULL;
    size_t n = 0;
    static const int32_t want[] = {2, 4};
    CHECK(tokenizer_encode(t, "ab ab", 5, true, true, &ids, &n) == FRINK_OK &&
              same_ids(ids, n, want, 2),
          "toy merges (%zu ids)", n);
    CHECK(!tokenizer_add_bos(t), "gpt-2 adds no BOS");
    char *s = tokenizer_decode(t, ids, n, false);
    CHECK(s && !strcmp(s, "ab ab"), "toy decode \"%s\"", s);
    free(s);
    free(ids);
    tokenizer_free(t);

    // Every accepted pre-tokenizer compiles and terminates on awkward text (zero-length
    // regex matches, lookaheads, non-ASCII whitespace, invalid UTF-8).
    static const char *const pres[] = {
        "default", "llama3", "llama-bpe", "dbrx", "smaug-bpe", "glm4", "jais-2", "deepseek-llm",
        "deepseek-coder", "deepseek-v3", "hunyuan-dense", "spark2_5", "youtu", "falcon",
        "starcoder", "refact", "command-r", "smollm", "gpt-2", "mpt", "olmo", "qwen2", "megrez",
        "stablelm2", "grok-2", "qwen35", "poro-chat", "bloom", "viking", "tekken", "chameleon",
        "gpt-4o", "llama4", "minimax-m2", "granite-embed-multi-97m", "superbpe", "bailingmoe",
        "seed-coder", "ufakzeka", "laguna", "exaone-moe", "minicpm5",
    };
    static const char awkward[] = "ab 1234567 x\xE2\x80\x83y\n\n  'S 'll \xFF\xC3 \xE4\xB8\xAD"
                                  "\xE6\x96\x87 IMGIMGABZ <sentinel:12> \xCC\x81\xCC\x81 !?";
    for (size_t i = 0; i < sizeof(pres) / sizeof(pres[0]); i++) {
        st = load_synthetic("gpt2", pres[i], true, &t);
        CHECK(st == FRINK_OK, "pre %s: %s", pres[i], frink_errmsg());
        if (!t) continue;
        ids = NULL;
        st = tokenizer_encode(t, awkward, sizeof(awkward) - 1, true, true, &ids, &n);
        CHECK(st == FRINK_OK && n > 0, "pre %s encodes", pres[i]);
        free(ids);
        tokenizer_free(t);
    }
}

int main(void) {
    for (size_t i = 0; i < N_VOCABS; i++) {
        char path[256];
        snprintf(path, sizeof(path), VOCAB_DIR "ggml-vocab-%s.gguf", vocabs[i]);
        struct gguf_file *gf = NULL;
        struct tokenizer *t = open_vocab(path, &gf);
        CHECK(t != NULL, "%s loads", vocabs[i]);
        if (!t) continue;
        check_shipped(vocabs[i], t);
        check_extra(vocabs[i], t);
        // (WordPiece's normalizer lower-cases, strips accents and splits punctuation: no round
        // trip; its decode is checked in check_wpm)
        if (strcmp(vocabs[i], "bert-bge")) check_roundtrip(vocabs[i], t);
        else check_wpm(t);
        check_api(vocabs[i], t);
        if (!strcmp(vocabs[i], "llama-bpe") || !strcmp(vocabs[i], "llama-spm") ||
            !strcmp(vocabs[i], "deepseek-llm"))
            check_speed(vocabs[i], t);
        tokenizer_free(t);
        gguf_close(gf);
    }
    check_stories();
    check_qwen_specials();
    check_refusals();
    return TEST_DONE();
}
