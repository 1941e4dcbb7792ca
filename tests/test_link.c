// test_link.c — a program that links libfrink.a and defines names of its own that the library
// also uses inside (`dot`, `model`, `grow`, and functions of the library's modules: gguf_open,
// pool_run, model_load, exec_forward, grammar_parse, chatparse_create). The archive is the
// partial link of the library with its hidden symbols made local (the Makefile's
// $(B)/libfrink.a), so these link without a clash, each call here reaches this file's
// definition, and the library still reaches its own: the embedded model runs.
//
// Built against $(B)/libfrink.a, never the internal archive (see the Makefile's rule).
#include <string.h>

#include "frink.h"
#include "test.h"

// Data and functions under the library's internal names, with other types and meanings.
int dot = 7;
double model[4] = {1, 2, 3, 4};
const char *grow = "mine";
int gguf_open(int x) { return x + 1; }
int pool_run(void) { return 11; }
int model_load(const char *s) { return (int)strlen(s); }
int exec_forward(int a, int b) { return a * b; }
int grammar_parse(void) { return 13; }
int chatparse_create(void) { return 17; }

int main(void) {
    // The program's own definitions are the ones it calls.
    CHECK(dot == 7 && model[3] == 4 && !strcmp(grow, "mine"), "the program's data");
    CHECK(gguf_open(1) == 2 && pool_run() == 11 && model_load("abc") == 3, "the program's functions");
    CHECK(exec_forward(3, 4) == 12 && grammar_parse() == 13 && chatparse_create() == 17, "the program's functions");

    // The library reaches its own: open the embedded model (gguf_open, model_load), evaluate a
    // prompt (exec_forward on the thread pool), compile a grammar (grammar_parse).
    frink_model *m = NULL;
    frink_context *c = NULL;
    frink_seq *s = NULL;
    frink_grammar *g = NULL;
    frink_token *ids = NULL;
    size_t n = 0;
    CHECK(frink_model_open(&(frink_model_params){0}, &m) == FRINK_OK, "%s", frink_errmsg());
    if (m) {
        CHECK(frink_context_create(m, NULL, &c) == FRINK_OK, "%s", frink_errmsg());
        CHECK(c && frink_seq_create(c, &s) == FRINK_OK, "%s", frink_errmsg());
        const char *text = "Once upon a time";
        CHECK(frink_tokenize(m, text, strlen(text), FRINK_TOKENIZE_ADD_SPECIAL, &ids, &n) == FRINK_OK && n > 1, "%s",
              frink_errmsg());
        float *logits = malloc((size_t)frink_model_n_vocab(m) * sizeof *logits);
        CHECK(logits && s && ids && frink_seq_eval(s, ids, (int)n, logits, 0) == FRINK_OK, "%s", frink_errmsg());
        CHECK(s && frink_seq_len(s) == (int)n, "the sequence holds the prompt");
        const char *gbnf = "root ::= \"yes\" | \"no\"";
        CHECK(frink_grammar_create(m, gbnf, strlen(gbnf), NULL, &g) == FRINK_OK, "%s", frink_errmsg());
        free(logits);
    }
    frink_grammar_free(g);
    frink_free(ids);
    frink_context_free(c);
    frink_model_free(m);
    return TEST_DONE();
}
