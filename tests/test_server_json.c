// The server's reading of generated JSON (api_json_generated): a tool call's parsed input must be
// what a client's JSON.parse makes of the streamed text, integer -0 included. And the JSON of the
// embedding endpoints (api_embed_json.c): every shape of "input", base64, rerank results.
#include <math.h>
#include <string.h>

#include "server/api_embed.h"
#include "server/api_util.h"
#include "test.h"

// text parsed by api_json_generated, dumped compactly
static char *dumped(const char *text) {
    json_t *v = api_json_generated(text);
    if (!v) return NULL;
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(v);
    return s;
}

static void expect(const char *text, const char *want) {
    char *got = dumped(text);
    CHECK(got && !strcmp(got, want), "%s: got %s, want %s", text, got ? got : "(not JSON)", want);
    free(got);
}

// embed_read_input on JSON text: its return, and the items or the error's param and message.
static int read_input(const frink_model *m, const char *json, struct embed_items *it, char *param, char *msg) {
    json_t *v = json_loads(json, JSON_DECODE_ANY, NULL);
    int rc = embed_read_input(m, v, 4, 16, it, param, 64, msg, 256);
    json_decref(v);
    return rc;
}

static void embed_json(void) {
    frink_model_params mp = frink_model_default_params(); // the embedded stories260K
    frink_model *m = NULL;
    CHECK(!frink_model_open(&mp, &m), "%s", frink_errmsg());
    if (!m) return;
    struct embed_items it;
    char param[64], msg[256];
    CHECK(!read_input(m, "\"Once upon a time\"", &it, param, msg) && it.n == 1 && it.len[0] == 5 && it.ids[0][0] == 1 &&
              it.ids[0][1] == 403,
          "a string: one item, BOS added: %s", msg);
    embed_items_free(&it);
    CHECK(!read_input(m, "[\"a\", \"b c\"]", &it, param, msg) && it.n == 2, "strings: %s", msg);
    embed_items_free(&it);
    CHECK(!read_input(m, "[5, 6, 7]", &it, param, msg) && it.n == 1 && it.len[0] == 3 && it.ids[0][2] == 7, "ids: %s", msg);
    embed_items_free(&it);
    CHECK(!read_input(m, "[[5], [6, 7], \"x\"]", &it, param, msg) && it.n == 3 && it.len[1] == 2, "mixed: %s", msg);
    embed_items_free(&it);
    static const struct { const char *json, *param, *msg; } bad[] = {
        {"[]", "input", "empty"},           {"5", "input", "must be a string"},
        {"[\"a\", []]", "input[1]", "cannot be empty"}, {"[[1], [1, 512]]", "input[1]", "'input[1][1]': token id 512"},
        {"[[1], [1.5]]", "input[1]", "must be a token id"}, {"[\"a\",\"a\",\"a\",\"a\",\"a\"]", "input", "more than the 4"},
        {"[\"a\", {}]", "input[1]", "must be a string or an array"},
        {"\"Once upon a time there was a little dog and a big cat in the park with a red ball\"", "input", "more than the context of 16"},
        {"null", "input", "required"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = read_input(m, bad[i].json, &it, param, msg);
        CHECK(rc == -1 && !strcmp(param, bad[i].param) && strstr(msg, bad[i].msg) && it.n == 0, "%s: param %s, '%s'", bad[i].json,
              param, msg);
    }
    // a rerank pair without a rerank template: BOS, query, document (stories adds no EOS / SEP)
    frink_token *ids;
    int n;
    CHECK(!embed_rerank_tokens(m, "Once", "upon a time", &ids, &n, msg, sizeof msg) && n == 5 && ids[0] == 1 && ids[1] == 403 &&
              ids[2] == 407,
          "rerank pair: %d tokens (%s)", n, msg);
    free(ids);
    frink_model_free(m);
    // base64 of float32 little-endian: 1.0f is 00 00 80 3f
    float one[2] = {1.0f, -2.0f};
    char *b = embed_base64(one, 1), *b2 = embed_base64(one, 2);
    CHECK(!strcmp(b, "AACAPw==") && !strcmp(b2, "AACAPwAAAMA="), "base64: %s %s", b, b2);
    free(b);
    free(b2);
    // rerank results: highest first, ties in document order, top_n, documents on request
    float sc[4] = {0.1f, 0.9f, 0.5f, 0.9f};
    json_t *docs = json_pack("[s,s,s,s]", "a", "b", "c", "d");
    json_t *r = embed_rerank_results(sc, 4, 3, docs);
    char *txt = json_dumps(r, JSON_COMPACT | JSON_REAL_PRECISION(3));
    CHECK(txt && !strcmp(txt, "[{\"index\":1,\"relevance_score\":0.9,\"document\":{\"text\":\"b\"}},"
                               "{\"index\":3,\"relevance_score\":0.9,\"document\":{\"text\":\"d\"}},"
                               "{\"index\":2,\"relevance_score\":0.5,\"document\":{\"text\":\"c\"}}]"),
          "rerank results: %s", txt);
    free(txt);
    json_decref(r);
    json_decref(docs);
}

int main(void) {
    embed_json();
    // -0 keeps its sign (as the real -0.0); every other number is jansson's own reading
    expect("{\"lon\": -0}", "{\"lon\":-0.0}");
    expect("{\"a\":-0,\"b\":[-0, -0 ,0]}", "{\"a\":-0.0,\"b\":[-0.0,-0.0,0]}");
    expect("-0", "-0.0");
    expect("[-0]", "[-0.0]");
    char *bad = dumped("{\"z\": -01}");
    CHECK(!bad, "-01 is not JSON (got %s)", bad);
    free(bad);
    expect("{\"x\": -0.5, \"y\": -0.0, \"z\": -10, \"e\": 1e-0}", "{\"x\":-0.5,\"y\":-0.0,\"z\":-10,\"e\":1.0}");
    expect("{\"e\": 2E-0, \"f\": -0e0}", "{\"e\":2.0,\"f\":-0.0}");
    // inside strings nothing changes, escapes included
    expect("{\"s\": \"-0\", \"t\": \"a\\\" -0\", \"-0\": 1}", "{\"s\":\"-0\",\"t\":\"a\\\" -0\",\"-0\":1}");
    expect("{\"n\": 0, \"m\": 10}", "{\"n\":0,\"m\":10}");
    json_t *v = api_json_generated("{\"lon\": -0}");
    CHECK(v && json_is_real(json_object_get(v, "lon")) && signbit(json_real_value(json_object_get(v, "lon"))),
          "-0 is a negative real zero");
    json_decref(v);
    CHECK(!api_json_generated("{\"a\": -0"), "unterminated object: not JSON");
    CHECK(!api_json_generated("-"), "a lone sign: not JSON");
    return TEST_DONE();
}
