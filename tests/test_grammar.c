// test_grammar.c — GBNF parsing (errors by line and column, undefined rules, left recursion)
// and the matcher (whole strings, prefixes, byte-by-byte pieces, partial UTF-8) on corpora;
// the vocabulary mask (trie walk with a memo) pinned equal to the per-token check at many
// positions, on synthetic and real vocabularies; frink_grammar_accept_text.
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "core/err.h"
#include "test.h"
#include "grammar/grammar.h"

const char *frink_last_error(void);

static struct grammar *parse_str(const char *src) {
    struct grammar *g = NULL;
    frink_status st = grammar_parse(src, strlen(src), NULL, &g);
    CHECK(st == FRINK_OK && g, "parse failed: %s\n%s", frink_errmsg(), src);
    return g;
}

static struct grammar *parse_file(const char *name) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/grammars/%s", name);
    size_t len = 0;
    char *src = test_read_file(path, &len);
    CHECK(src, "cannot read %s", path);
    if (!src) return NULL;
    struct grammar *g = NULL;
    frink_status st = grammar_parse(src, len, NULL, &g);
    CHECK(st == FRINK_OK, "%s: %s", name, frink_errmsg());
    free(src);
    return g;
}

// 1 when the whole string is accepted and may end, 0 when not; also checks that byte-by-byte
// advancing agrees with advancing the whole string and with accepts().
static int match(const struct grammar *g, const char *s) {
    size_t n = strlen(s);
    struct grammar_state *a, *b;
    if (grammar_state_create(g, &a)) return -1;
    grammar_state_clone(a, &b);
    bool acc = grammar_state_accepts(a, s, n);
    bool whole = grammar_state_advance(a, s, n) == FRINK_OK;
    CHECK(acc == whole, "accepts and advance disagree on \"%s\"", s);
    bool bytes = true;
    for (size_t i = 0; i < n && bytes; i++) bytes = grammar_state_advance(b, s + i, 1) == FRINK_OK;
    CHECK(whole == bytes, "whole and byte-by-byte disagree on \"%s\"", s);
    int r = whole && grammar_state_can_end(a);
    if (whole && bytes) CHECK(grammar_state_can_end(a) == grammar_state_can_end(b), "can_end differs on \"%s\"", s);
    grammar_state_free(a), grammar_state_free(b);
    return r;
}

// Is s a viable prefix (accepted, the state not dead)?
static bool viable(const struct grammar *g, const char *s) {
    struct grammar_state *a;
    if (grammar_state_create(g, &a)) return false;
    bool ok = grammar_state_advance(a, s, strlen(s)) == FRINK_OK && !grammar_state_dead(a);
    grammar_state_free(a);
    return ok;
}

static void corpus(const struct grammar *g, const char *name, const char *const *yes, const char *const *no,
                   const char *const *prefix, const char *const *dead) {
    if (!g) return;
    for (int i = 0; yes && yes[i]; i++) CHECK(match(g, yes[i]) == 1, "%s: should accept \"%s\"", name, yes[i]);
    for (int i = 0; no && no[i]; i++) CHECK(match(g, no[i]) == 0, "%s: should reject \"%s\"", name, no[i]);
    for (int i = 0; prefix && prefix[i]; i++) CHECK(viable(g, prefix[i]), "%s: \"%s\" should be viable", name, prefix[i]);
    for (int i = 0; dead && dead[i]; i++) CHECK(!viable(g, dead[i]), "%s: \"%s\" should be dead", name, dead[i]);
}

static void test_json(void) {
    struct grammar *g = parse_file("json.gbnf");
    const char *yes[] = {"{}", "{\"a\": 1}", "{\"a\": [1, 2.5, -3e12, true, false, null], \"b\": {\"c\": \"x\\ny\"}}",
                         "{\"u\": \"\\u00e9\", \"k\": \"caf\xc3\xa9\"}", "{\n  \"a\": \"b\"\n}", NULL};
    const char *no[] = {"", "[1]", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": tru}", "{\"a\": \"\\q\"}", "{,}", "{\"a\": 1,}", NULL};
    const char *pre[] = {"{", "{\"a", "{\"a\": [1, ", "{\"a\": tr", "{\"a\": \"\xe4", NULL};
    const char *dead[] = {"x", "{\"a\"x", "{\"a\": [1 2", "{}}", NULL};
    corpus(g, "json", yes, no, pre, dead);
    grammar_free(g);
}

static void test_examples(void) {
    struct grammar *g = parse_file("arithmetic.gbnf");
    const char *ay[] = {"x=1\n", "foo = (a+b*3)\nz=y\n", "a=(b)\n", NULL};
    const char *an[] = {"x=\n", "=1\n", "x=1", "x=(1\n", NULL};
    const char *ap[] = {"x", "x=(a+", NULL};
    const char *ad[] = {"=", "x=)", "x=1\n=", NULL};
    corpus(g, "arithmetic", ay, an, ap, ad);
    grammar_free(g);

    g = parse_file("chess.gbnf");
    const char *cy[] = {"1. e4 e5\n2. Nf3 Nc6\n", "1. d4 d5\n2. c4 dxc4\n3. O-O O-O-O\n", "1. e8=Q+ Kxe8\n2. a1 a2#\n", NULL};
    const char *cn[] = {"1. e4 e5\n", "1. e9 e5\n2. a1 a1\n", "2. e4 e5\n3. a1 a1\n", NULL};
    const char *cd[] = {"1. z", "1. Ni", NULL};
    corpus(g, "chess", cy, cn, NULL, cd);
    grammar_free(g);

    g = parse_file("list.gbnf");
    const char *ly[] = {"- a\n", "- milk\n- eggs\n", "- caf\xc3\xa9\n", NULL};
    const char *ln[] = {"", "- \n", "-a\n", "- a\xe2\x80\xa8" "b\n", NULL};
    corpus(g, "list", ly, ln, NULL, NULL);
    grammar_free(g);

    g = parse_file("c.gbnf");
    const char *xy[] = {"int main(){x = 1;return x;}", "int f(int a){while(a<b){a = a+1;}return f(a*2);}float g(){}", NULL};
    const char *xn[] = {"int main(){x = 1}", "main(){}", "int f(int a, int b){}", NULL};
    corpus(g, "c", xy, xn, NULL, NULL);
    grammar_free(g);

    const char *files[] = {"english.gbnf", "japanese.gbnf", "json_arr.gbnf"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) grammar_free(parse_file(files[i]));
}

static void test_unicode(void) {
    struct grammar *g = parse_str("root ::= [一-鿿]+ \"。\"?\n");
    const char *y[] = {"中文", "你好。", NULL};
    const char *n[] = {"", "abc", "中a", "。", NULL};
    const char *p[] = {"\xe4", "\xe4\xb8", "中\xe6", NULL};
    const char *d[] = {"\xe3\x80", "a", "\xff", "\xc0\x80", NULL};
    corpus(g, "cjk", y, n, p, d);
    grammar_free(g);

    g = parse_str("root ::= (\"\\U0001F600\" | [\\U0001F680-\\U0001F6FF] | \"\\u2764\")+  # emoji\n");
    const char *ey[] = {"\xf0\x9f\x98\x80", "\xf0\x9f\x9a\x80\xe2\x9d\xa4\xf0\x9f\x98\x80", NULL};
    const char *en[] = {"\xf0\x9f\x98\x81", "x", NULL};
    const char *ed[] = {"\xf0\x9f\x98\x81", "\xf0\x9f\x99", NULL};
    corpus(g, "emoji", ey, en, NULL, ed);
    grammar_free(g);

    // A character split across pieces, every way.
    g = parse_str("root ::= \"a\" [^a-z] \"b\"\n");
    const char *s = "a\xf0\x9f\x98\x80" "b";
    for (size_t cut1 = 0; cut1 <= 6; cut1++)
        for (size_t cut2 = cut1; cut2 <= 6; cut2++) {
            struct grammar_state *st;
            grammar_state_create(g, &st);
            bool ok = grammar_state_advance(st, s, cut1) == FRINK_OK && grammar_state_advance(st, s + cut1, cut2 - cut1) == FRINK_OK &&
                      grammar_state_advance(st, s + cut2, 6 - cut2) == FRINK_OK;
            CHECK(ok && grammar_state_can_end(st), "split %zu %zu", cut1, cut2);
            grammar_state_free(st);
        }
    struct grammar_state *st;
    grammar_state_create(g, &st);
    CHECK(grammar_state_advance(st, "a\xf0\x9f", 3) == FRINK_OK && !grammar_state_can_end(st), "partial char cannot end");
    CHECK(!grammar_state_accepts(st, "b", 1), "a partial character needs continuation bytes");
    CHECK(grammar_state_advance(st, "\x98", 1) == FRINK_OK, "continuation");
    CHECK(grammar_state_advance(st, "z", 1) == FRINK_ERR_ARG, "bad continuation rejected");
    grammar_state_free(st);
    grammar_free(g);
}

// Parsing fails with FRINK_ERR_FORMAT and a message containing `want`.
static void bad(const char *src, const char *want) {
    struct grammar *g = NULL;
    frink_status st = grammar_parse(src, strlen(src), NULL, &g);
    CHECK(st == FRINK_ERR_FORMAT && !g, "should fail: %s", src);
    if (st) CHECK(strstr(frink_errmsg(), want), "message \"%s\" lacks \"%s\"", frink_errmsg(), want);
    grammar_free(g);
}

static void test_errors(void) {
    bad("root ::= \"a\"\n\n\nfoo ::= (\"a\" | \"b\" \n", "line 5, column 1: expected ')'");
    bad("root ::= (\"a\" \"b\"\n", "expected ')'");
    bad("root ::= \"abc\n", "expected '\"'");
    bad("root ::= [a-z\n", "']'");
    bad("root ::= \"a\" ]\n", "line 1, column 14: expected a newline");
    bad("root = \"a\"\n", "line 1, column 6: expected '::='");
    bad("root ::= \"\\q\"\n", "escape");
    bad("root ::= \"a\"{3,2}\n", "m <= n");
    bad("root ::= \"a\"{2000}\n", "up to 1000");
    bad("root ::= \"a\"{2\n", "'}'");
    bad("root ::= foo\n", "undefined rule 'foo'");
    bad("root ::= \"a\" bar-baz\nx ::= \"b\"\n", "line 1, column 14: undefined rule 'bar-baz'");
    bad("a ::= \"x\"\n", "no start rule 'root'");
    bad("root ::= root \"a\" | \"b\"\n", "left recursion in rule 'root'");
    bad("root ::= expr\nexpr ::= term \"+\" expr | term\nterm ::= expr \"*\" | \"1\"\n", "left recursion in rule 'expr'");
    bad("root ::= ws root \"a\" | \"b\"\nws ::= \" \"*\n", "left recursion in rule 'root'");
    bad("root ::= (\"a\"?)*\n", "rule 'root': a repeated element can match the empty string");
    bad("root ::= x+\nx ::= \"a\" | \n", "repeated element can match the empty string");
    bad("root ::= \"a\"\nroot ::= \"b\"\n", "defined twice");
    bad("root ::= \"\"*\n", "repeated element can match the empty string");
    bad("root ::= [\xff]\n", "UTF-8");

    struct grammar *g = NULL;
    CHECK(grammar_parse("start ::= \"s\"\n", 14, "start", &g) == FRINK_OK && g, "named start rule");
    if (g) CHECK(match(g, "s") == 1, "start rule matches");
    grammar_free(g);
}

static void test_syntax(void) {
    struct grammar *g = parse_str("# a comment\nroot ::= (\n  \"a\"   # inside\n  | \"b\"\n) rest\nrest ::= \"\\x41\\t\\\\\\\"\\n\" . [^\\]x]\n");
    const char *y[] = {"aA\t\\\"\nzy", "bA\t\\\"\n\xe4\xb8\xad\xe4\xb8\xad", NULL};
    const char *n[] = {"aA\t\\\"\nz]", "aA\t\\\"\nzx", "cA", NULL};
    corpus(g, "syntax", y, n, NULL, NULL);
    grammar_free(g);

    g = parse_str("root ::= \"a\"{2,3} \"b\"{2} \"c\"{1,} \"d\"{0,2} \"ab\"{2}\n");
    const char *ry[] = {"aabbcabab", "aaabbcccddabab", "aabbcdabab", NULL};
    const char *rn[] = {"abbcabab", "aaaabbcabab", "aabcabab", "aabbabab", "aabbcdddabab", "aabbcab", NULL};
    corpus(g, "repeat", ry, rn, NULL, NULL);
    grammar_free(g);

    g = parse_str("root ::= item (\",\" item)*\nitem ::= [a-z]+ | \"[\" root? \"]\"\n");
    const char *ly[] = {"a", "a,b,c", "[a,[b,[]]],c", "[]", NULL};
    const char *ln[] = {"", "a,", ",a", "[a", "a]", NULL};
    const char *lp[] = {"[[[[[[[[", "a,[b,", NULL};
    corpus(g, "nested", ly, ln, lp, NULL);
    grammar_free(g);

    g = parse_str("root ::= \"\"? \"a\" \"\"{2,4}\n");  // a repeated empty literal (found by fuzzing)
    CHECK(g && match(g, "a") == 1 && match(g, "") == 0, "empty literal repeated");
    grammar_free(g);

    // Empty alternatives, end allowed from the start, and a dead state stays dead.
    g = parse_str("root ::= | \"x\"\n");
    CHECK(match(g, "") == 1 && match(g, "x") == 1 && match(g, "xx") == 0, "empty alternative");
    struct grammar_state *s, *c;
    grammar_state_create(g, &s);
    CHECK(grammar_state_can_end(s) && !grammar_state_dead(s), "fresh state");
    CHECK(grammar_state_accepts(s, "x", 1) && !grammar_state_accepts(s, "y", 1), "candidates");
    CHECK(grammar_state_advance(s, "y", 1) == FRINK_ERR_ARG && grammar_state_can_end(s), "rejected advance leaves state");
    grammar_state_clone(s, &c);
    CHECK(grammar_state_advance(c, "x", 1) == FRINK_OK && grammar_state_can_end(c) && !grammar_state_dead(c), "clone advances");
    CHECK(grammar_state_accepts(s, "x", 1), "original unchanged by its clone");
    grammar_state_free(c), grammar_state_free(s);
    grammar_free(g);

    // Deep right recursion stays flat; deep nesting is capped, not unbounded.
    g = parse_str("root ::= \"a\" root | \"\"\n");
    grammar_state_create(g, &s);
    char buf[20000];
    memset(buf, 'a', sizeof buf);
    CHECK(grammar_state_advance(s, buf, sizeof buf) == FRINK_OK && grammar_state_can_end(s), "tail recursion");
    grammar_state_free(s), grammar_free(g);
    g = parse_str("root ::= \"(\" root \")\" | \"x\"\n");
    grammar_state_create(g, &s);
    memset(buf, '(', sizeof buf);
    CHECK(grammar_state_advance(s, buf, 500) == FRINK_OK, "nesting 500");
    CHECK(grammar_state_advance(s, buf, sizeof buf) == FRINK_ERR_UNSUPPORTED, "nesting capped");
    grammar_state_free(s), grammar_free(g);
}

// ---- The vocabulary mask against its reference twin ----

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11) % n;
}

// Grammars the twins are compared on: files and inline sources (unicode classes, negation,
// characters split across pieces), each with a text it accepts, to reach positions from.
struct twin_grammar {
    const char *file, *src, *text;
};
static const struct twin_grammar twin_grammars[] = {
    {"json.gbnf", NULL, "{\"a\": [1, 2.5e3, true, null], \"caf\xc3\xa9\": {\"k\": \"\\u00e9\\n\xe4\xb8\xad\"}}"},
    {"arithmetic.gbnf", NULL, "foo = (a+b*3)\nz=y_2\n"},
    {"list.gbnf", NULL, "- milk\n- caf\xc3\xa9 au lait\n"},
    {"japanese.gbnf", NULL, "\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1\xe3\x81\xaf \xe4\xb8\x96\xe7\x95\x8c"},
    {"c.gbnf", NULL, "int main(){x = 1;return x;}"},
    {NULL, "root ::= [\xe4\xb8\x80-\xe9\xbf\xbf]+ \"\xe3\x80\x82\"? [^a-z\\x00-\\x1F]*\n", "\xe4\xb8\xad\xe6\x96\x87\xe3\x80\x82\xf0\x9f\x98\x80!"},
    {NULL, "root ::= (\"\\U0001F600\" | [\\U0001F680-\\U0001F6FF] | \"\\u2764\" | [ a-z])+\n", "ab \xf0\x9f\x9a\x80\xe2\x9d\xa4 c"},
    {NULL, "root ::= ([a-z] \"1\" | \"a\" \"2\" | [^b] \"3\" | [a-c] [\\x80-\\U0010FFFF])+\n", "a1a2b1c\xc3\xa9" "a3"},  // overlapping classes
    {NULL, "root ::= \"<tool_call>\" [ \\n]* \"{\\\"name\\\": \\\"\" [a-z_]{1,20} \"\\\"}\" ([ \\n]* \"</tool_call>\")?\n", "<tool_call>\n{\"name\": \"get_time\"}"},
};

static struct grammar *twin_parse(const struct twin_grammar *tg) {
    return tg->file ? parse_file(tg->file) : parse_str(tg->src);
}

// Compares the trie mask with the naive one at state s; also allows() one token at a time
// (grammar_vocab_accepts) for a sample. Returns the number of tokens allowed, -1 on a mismatch.
static long twin_compare(const struct grammar_vocab *v, struct grammar_dfa *d, const struct grammar_state *s, uint8_t *a,
                         uint8_t *b, const char *what) {
    int n = grammar_vocab_n_tok(v);
    memset(a, 7, (size_t)n), memset(b, 7, (size_t)n);  // both must write every entry
    frink_status st = grammar_vocab_mask(v, d, s, a);
    grammar_vocab_mask_naive(v, s, b);
    CHECK(st == FRINK_OK, "%s: trie mask failed: %s", what, frink_errmsg());
    long allowed = 0, diff = -1;
    for (int t = 0; t < n; t++) {
        allowed += b[t];
        if (a[t] != b[t] && diff < 0) diff = t;
    }
    CHECK(diff < 0, "%s: token %ld: trie says %d, naive %d", what, diff, diff >= 0 ? a[diff] : 0, diff >= 0 ? b[diff] : 0);
    for (int k = 0; k < 64; k++) {
        int t = (int)rnd((uint32_t)n);
        CHECK(grammar_vocab_accepts(v, d, s, t) == (b[t] != 0), "%s: accepts(%d) disagrees with the naive mask", what, t);
    }
    return diff < 0 ? allowed : -1;
}

// A synthetic vocabulary: every single byte (partial characters, continuation and invalid
// bytes), every two-byte prefix of the grammar texts' characters, the texts' pieces at random
// cuts, random ASCII words, and duplicates.
static struct grammar_vocab *twin_vocab(int *n_out) {
    enum { N = 3000 };
    char *blob = malloc(N * 24);
    uint32_t *off = malloc((N + 1) * sizeof *off);
    size_t used = 0;
    int n = 0;
    for (int c = 0; c < 256; c++) off[n++] = (uint32_t)used, blob[used++] = (char)c;
    const char *words[] = {" ", "\n", "  ", "\": ", "\", \"", "{\"", "\"}", "[", "]", "tr", "true", "null", "12", "-3", ".5", "e+1",
                           "\\u", "\\n", "\\\"", "<tool", "_call>", "</", "get", "_time", "\xe4\xb8", "\xb8\xad", "\xf0\x9f", ""};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t l = strlen(words[i]);
        for (int dup = 0; dup < 2; dup++) off[n++] = (uint32_t)used, memcpy(blob + used, words[i], l), used += l;
    }
    size_t ng = sizeof twin_grammars / sizeof *twin_grammars;
    while (n < N) {
        off[n++] = (uint32_t)used;
        if (rnd(3)) {  // a piece of one of the texts
            const char *t = twin_grammars[rnd((uint32_t)ng)].text;
            size_t tl = strlen(t), a = rnd((uint32_t)tl), l = 1 + rnd(12);
            if (a + l > tl) l = tl - a;
            memcpy(blob + used, t + a, l), used += l;
        } else {  // random printable ASCII, or any bytes
            size_t l = 1 + rnd(10);
            bool any = !rnd(4);
            for (size_t i = 0; i < l; i++) blob[used++] = (char)(any ? rnd(256) : 32 + rnd(95));
        }
    }
    off[n] = (uint32_t)used;
    struct grammar_vocab *v = NULL;
    CHECK(grammar_vocab_build(n, blob, off, &v) == FRINK_OK, "synthetic vocab: %s", frink_errmsg());
    *n_out = n;
    return v;
}

// Many positions on the synthetic vocabulary: every byte cut of each grammar's text (mid-
// character cuts included), then random walks choosing among the allowed tokens.
static void test_twins_synthetic(void) {
    int n;
    struct grammar_vocab *v = twin_vocab(&n);
    if (!v) return;
    uint8_t *a = malloc((size_t)n), *b = malloc((size_t)n);
    int positions = 0;
    for (size_t gi = 0; gi < sizeof twin_grammars / sizeof *twin_grammars; gi++) {
        const struct twin_grammar *tg = &twin_grammars[gi];
        struct grammar *g = twin_parse(tg);
        if (!g) continue;
        struct grammar_dfa *d;
        grammar_dfa_create(g, &d);
        char what[96];
        size_t tl = strlen(tg->text);
        for (size_t cut = 0; cut <= tl; cut++) {
            struct grammar_state *s;
            grammar_state_create(g, &s);
            CHECK(grammar_state_advance(s, tg->text, cut) == FRINK_OK, "%s: prefix of %zu bytes", tg->file ? tg->file : tg->src, cut);
            snprintf(what, sizeof what, "%s, synthetic vocab, cut %zu", tg->file ? tg->file : "inline", cut);
            twin_compare(v, d, s, a, b, what);
            positions++;
            grammar_state_free(s);
        }
        for (int walk = 0; walk < 4; walk++) {
            struct grammar_state *s;
            grammar_state_create(g, &s);
            for (int step = 0; step < 20; step++) {
                snprintf(what, sizeof what, "%s, synthetic vocab, walk %d step %d", tg->file ? tg->file : "inline", walk, step);
                long k = twin_compare(v, d, s, a, b, what);
                positions++;
                if (k <= 0) break;
                long pick = rnd((uint32_t)k);
                int t = 0;
                while (!b[t] || pick--) t++;
                size_t len;
                const char *p = grammar_vocab_piece(v, t, &len);
                CHECK(grammar_state_advance(s, p, len) == FRINK_OK, "%s: an allowed token advances", what);
            }
            grammar_state_free(s);
        }
        grammar_dfa_free(d);
        grammar_free(g);
    }
    CHECK(positions > 500, "synthetic twins: %d positions", positions);
    free(a), free(b);
    grammar_vocab_free(v);
}

// The memo's caps: dropped between masks past the soft one (the masks stay exact), a mask
// refused past the hard one (FRINK_ERR_UNSUPPORTED, for the caller to fall back on the naive).
static void test_twins_limits(void) {
    int n;
    struct grammar_vocab *v = twin_vocab(&n);
    struct grammar *g = parse_file("json.gbnf");
    if (!v || !g) {
        grammar_vocab_free(v), grammar_free(g);
        return;
    }
    uint8_t *a = malloc((size_t)n), *b = malloc((size_t)n);
    struct grammar_dfa *d;
    grammar_dfa_create(g, &d);
    grammar_dfa_limit(d, 40, 100);
    const char *text = twin_grammars[0].text;
    int ok = 0, refused = 0;
    for (size_t cut = 0; cut <= strlen(text); cut++) {
        struct grammar_state *s;
        grammar_state_create(g, &s);
        grammar_state_advance(s, text, cut);
        frink_status st = grammar_vocab_mask(v, d, s, a);
        bool named = st == FRINK_ERR_UNSUPPORTED && strstr(frink_errmsg(), "limits");
        grammar_vocab_mask_naive(v, s, b);
        if (st == FRINK_OK) {
            ok++;
            CHECK(!memcmp(a, b, (size_t)n), "capped memo, cut %zu: the mask differs", cut);
        } else {
            refused++;
            CHECK(named, "capped memo, cut %zu: status %d", cut, (int)st);
        }
        grammar_state_free(s);
    }
    CHECK(ok > 10 && refused > 0, "capped memo: %d masks made, %d refused", ok, refused);
    grammar_dfa_free(d);
    free(a), free(b);
    grammar_free(g);
    grammar_vocab_free(v);
}

// Real vocabularies through the public API: the text's prefixes at a few cuts (reached with
// frink_grammar_accept_text), then random steps; the naive mask costs a tenth of a second on
// 151k tokens, so the positions are fewer on the large vocabularies.
static void test_twins_models(void) {
    static const struct {
        const char *file;
        int positions;
    } vocabs[] = {{"ggml-vocab-qwen35.gguf", 2}, {"ggml-vocab-llama-bpe.gguf", 2}, {"ggml-vocab-gpt-2.gguf", 4}, {"ggml-vocab-llama-spm.gguf", 6}};
    static const char *schemas[] = {
        "{\"type\": \"object\", \"properties\": {\"name\": {\"type\": \"string\", \"maxLength\": 12}, \"age\": {\"type\": "
        "\"integer\", \"minimum\": 0}, \"tags\": {\"type\": \"array\", \"items\": {\"enum\": [\"a\", \"b\u00e9\"]}, \"maxItems\": 3}}, "
        "\"required\": [\"name\", \"age\"], \"additionalProperties\": false}",
        "{\"type\": \"object\", \"properties\": {\"when\": {\"type\": \"string\", \"format\": \"date\"}, \"id\": {\"type\": \"string\", "
        "\"pattern\": \"^[a-f0-9]{4}-x$\"}, \"ok\": {\"type\": \"boolean\"}}, \"required\": [\"when\", \"id\", \"ok\"]}",
    };
    static const char *schema_texts[] = {"{\"name\": \"Zo\xc3\xab\", \"age\": 41, \"tags\": [\"b\u00e9\"]}",
                                         "{\"when\": \"2024-02-29\", \"id\": \"beef-x\", \"ok\": true}"};
    size_t n_g = sizeof twin_grammars / sizeof *twin_grammars, n_s = sizeof schemas / sizeof *schemas;
    for (size_t vi = 0; vi < sizeof vocabs / sizeof *vocabs; vi++) {
        char path[128];
        snprintf(path, sizeof path, "tests/data/vocab/%s", vocabs[vi].file);
        frink_model_params mp = frink_model_default_params();
        mp.path = path, mp.vocab_only = true;
        frink_model *m;
        if (frink_model_open(&mp, &m)) {
            CHECK(0, "%s: %s", path, frink_errmsg());
            continue;
        }
        int V = frink_model_n_vocab(m);
        uint8_t *a = malloc((size_t)V), *b = malloc((size_t)V);
        for (size_t gi = 0; gi < n_g + n_s; gi++) {
            frink_grammar *g = NULL;
            const char *text, *name;
            frink_status st;
            if (gi < n_s) {
                st = frink_grammar_from_json_schema(m, schemas[gi], strlen(schemas[gi]), &g);
                text = schema_texts[gi], name = "schema";
            } else {
                const struct twin_grammar *tg = &twin_grammars[gi - n_s];
                size_t len = 0;
                char fp[128], *src = NULL;
                if (tg->file) snprintf(fp, sizeof fp, "tests/data/grammars/%s", tg->file), src = test_read_file(fp, &len);
                st = frink_grammar_create(m, tg->file ? src : tg->src, tg->file ? len : strlen(tg->src), NULL, &g);
                free(src);
                text = tg->text, name = tg->file ? tg->file : "inline";
            }
            CHECK(st == FRINK_OK, "%s: %s", name, frink_errmsg());
            if (st) continue;
            frink_constraint c = frink_grammar_constraint(g);
            size_t tl = strlen(text);
            for (int pos = 0; pos < vocabs[vi].positions; pos++) {
                char what[160];
                if (pos < vocabs[vi].positions / 2 + 1) {  // a prefix of the text, cut anywhere
                    size_t cut = pos == 0 ? 0 : 1 + rnd((uint32_t)tl);
                    frink_grammar_reset(g);
                    CHECK(frink_grammar_accept_text(g, text, cut) == FRINK_OK, "%s: accept_text of %zu bytes: %s", name, cut, frink_errmsg());
                    snprintf(what, sizeof what, "%s on %s, cut %zu", name, vocabs[vi].file, cut);
                } else {
                    snprintf(what, sizeof what, "%s on %s, random step %d", name, vocabs[vi].file, pos);
                }
                grammar_api_allowed(g, a, false);
                grammar_api_allowed(g, b, true);
                long diff = -1, k = 0;
                for (int t = 0; t < V; t++) {
                    k += b[t] && !frink_token_is_eog(m, t);
                    if (a[t] != b[t] && diff < 0) diff = t;
                }
                CHECK(diff < 0, "%s: token %ld differs (trie %d, naive %d)", what, diff, diff >= 0 ? a[diff] : 0, diff >= 0 ? b[diff] : 0);
                for (int j = 0; j < 32; j++) {
                    int t = (int)rnd((uint32_t)V);
                    CHECK(c.allows(c.ud, t) == (b[t] != 0), "%s: allows(%d) disagrees with the naive mask", what, t);
                }
                if (k == 0) break;
                long pick = rnd((uint32_t)k);  // advance by a random allowed token
                int t = 0;
                while (!(b[t] && !frink_token_is_eog(m, t)) || pick--) t++;
                c.accept(c.ud, t);
            }
            frink_grammar_free(g);
        }
        free(a), free(b);
        frink_model_free(m);
    }
}

// Grammars created, masked and freed on several threads at once share one trie per vocabulary
// (built by whichever comes first); every mask must equal the one made alone.
struct thread_job {
    const frink_model *m;
    const char *src;
    const uint8_t *want;
    int bad;
};

static void *thread_run(void *arg) {
    struct thread_job *j = arg;
    int V = frink_model_n_vocab(j->m);
    uint8_t *a = malloc((size_t)V);
    for (int i = 0; i < 6; i++) {
        frink_grammar *g;
        if (frink_grammar_create(j->m, j->src, strlen(j->src), NULL, &g)) {
            j->bad++;
            continue;
        }
        frink_grammar_accept_text(g, "{\"a\": \"x", 9);
        grammar_api_allowed(g, a, false);
        j->bad += memcmp(a, j->want, (size_t)V) != 0;
        frink_grammar_free(g);
    }
    free(a);
    return NULL;
}

static void test_threads(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "tests/data/vocab/ggml-vocab-llama-spm.gguf", mp.vocab_only = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "spm vocab: %s", frink_errmsg());
        return;
    }
    size_t len;
    char *src = test_read_file("tests/data/grammars/json.gbnf", &len);
    int V = frink_model_n_vocab(m);
    uint8_t *want = malloc((size_t)V);
    frink_grammar *g;
    CHECK(src && frink_grammar_create(m, src, len, NULL, &g) == FRINK_OK, "json: %s", frink_errmsg());
    frink_grammar_accept_text(g, "{\"a\": \"x", 9);
    grammar_api_allowed(g, want, true);
    frink_grammar_free(g);  // the trie stays cached, idle: open a second model so it is built again too
    frink_model *m2;
    CHECK(frink_model_open(&mp, &m2) == FRINK_OK, "second spm model");
    struct thread_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (struct thread_job){i % 2 ? m2 : m, src, want, 0};
        pthread_create(&th[i], NULL, thread_run, &jobs[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(jobs[i].bad == 0, "thread %d: %d masks differ from the one made alone", i, jobs[i].bad);
    }
    free(want), free(src);
    frink_model_free(m2);
    frink_model_free(m);
}

static void test_accept_text(void) {
    frink_model_params mp = frink_model_default_params();
    mp.path = "tests/data/vocab/ggml-vocab-gpt-2.gguf", mp.vocab_only = true;
    frink_model *m;
    if (frink_model_open(&mp, &m)) {
        CHECK(0, "gpt-2 vocab: %s", frink_errmsg());
        return;
    }
    size_t len;
    char *src = test_read_file("tests/data/grammars/json.gbnf", &len);
    frink_grammar *g = NULL;
    CHECK(src && frink_grammar_create(m, src, len, NULL, &g) == FRINK_OK, "json grammar: %s", frink_errmsg());
    free(src);
    if (!g) {
        frink_model_free(m);
        return;
    }
    const char *head = "{\"a\": [1, \"caf\xc3";  // ends mid-character
    CHECK(frink_grammar_accept_text(g, head, strlen(head)) == FRINK_OK && !frink_grammar_complete(g), "accept_text: %s", frink_errmsg());
    CHECK(frink_grammar_accept_text(g, "\xa9\", tru!", 8) == FRINK_ERR_ARG && strstr(frink_errmsg(), "byte offset 7 of 8"),
          "a refused byte is named by its offset: %s", frink_errmsg());
    CHECK(frink_grammar_accept_text(g, "x", 1) == FRINK_ERR_ARG && strstr(frink_errmsg(), "byte offset 0"), "refused at once: %s",
          frink_errmsg());
    CHECK(frink_grammar_accept_text(g, "\xa9\", true]}", 10) == FRINK_OK && frink_grammar_complete(g),
          "state unchanged by the refusals: %s", frink_errmsg());
    CHECK(frink_grammar_accept_text(g, NULL, 0) == FRINK_OK && frink_grammar_accept_text(g, NULL, 1) == FRINK_ERR_ARG, "NULL text");
    // The mask after accept_text is the mask after generating the same bytes.
    frink_constraint c = frink_grammar_constraint(g);
    frink_grammar_reset(g);
    frink_grammar_accept_text(g, "{\"k\": ", 6);
    int V = frink_model_n_vocab(m);
    float *logits = calloc((size_t)V, sizeof *logits);
    c.mask(c.ud, logits, V);
    frink_token *ids;
    size_t n;
    frink_tokenize(m, "\"", 1, 0, &ids, &n);
    CHECK(n == 1 && logits[ids[0]] == 0 && c.allows(c.ud, ids[0]), "a string may open after the key");
    frink_free(ids);
    frink_tokenize(m, "}", 1, 0, &ids, &n);
    CHECK(n == 1 && logits[ids[0]] == -INFINITY && !c.allows(c.ud, ids[0]), "no '}' after a key and colon");
    frink_free(ids);
    free(logits);
    frink_grammar_free(g);
    frink_model_free(m);
}

int main(void) {
    test_errors();
    test_syntax();
    test_unicode();
    test_json();
    test_examples();
    test_accept_text();
    test_threads();
    test_twins_synthetic();
    test_twins_limits();
    test_twins_models();
    return TEST_DONE();
}
