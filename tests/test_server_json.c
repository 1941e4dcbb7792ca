// The server's reading of generated JSON (api_json_generated): a tool call's parsed input must be
// what a client's JSON.parse makes of the streamed text, integer -0 included.
#include <math.h>
#include <string.h>

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

int main(void) {
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
