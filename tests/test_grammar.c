// test_grammar.c — GBNF parsing (errors by line and column, undefined rules, left recursion)
// and the matcher (whole strings, prefixes, byte-by-byte pieces, partial UTF-8) on corpora.
#include <string.h>

#include "core/err.h"
#include "test.h"
#include "text/grammar.h"

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

int main(void) {
    test_errors();
    test_syntax();
    test_unicode();
    test_json();
    test_examples();
    return TEST_DONE();
}
