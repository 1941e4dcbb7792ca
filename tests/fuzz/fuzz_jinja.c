// fuzz_jinja.c — libFuzzer target for the Jinja engine: arbitrary bytes are parsed as a template
// and, when they parse, rendered with a small fixed set of variables (a conversation, tools) under
// a low evaluation budget. Any crash, sanitizer report, leak or hang is a bug: the engine must
// answer every input with a render or an error.
//   make fuzz-jinja FUZZ_SECONDS=600
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "template/jinja.h"

static const char vars_json[] =
    "{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"},"
    " {\"role\": \"user\", \"content\": \"Hi \\u00e9\\u65e5 <3\", \"n\": 7},"
    " {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\","
    "   \"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": [1.5, true, null]}}}]},"
    " {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 2}\"},"
    " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part\"}]}],"
    " \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\","
    "   \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}],"
    " \"add_generation_prompt\": true, \"bos_token\": \"<s>\", \"eos_token\": \"</s>\", \"x\": 3, \"f\": 0.5,"
    " \"s\": \"  text \", \"l\": [3, 1, 2], \"d\": {\"k\": \"v\", \"n\": {\"m\": []}}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static json_t *vars;
    if (!vars) vars = json_loads(vars_json, 0, NULL);
    struct jinja_tmpl *t;
    if (jinja_parse((const char *)data, size, &t) != FRINK_OK) return 0;
    struct jinja_opts o = {.now = 1700000000, .max_steps = 20000};
    char *out;
    size_t len;
    if (jinja_render(t, vars, &o, &out, &len) == FRINK_OK) free(out);
    jinja_free(t);
    return 0;
}
