// toolgrammar_api.c — frink_tool_call_grammar: the tool list parsed here, the grammar written
// by chat/toolgrammar.c.
#include <jansson.h>
#include <stdlib.h>

#include "core/err.h"
#include "chat/toolgrammar.h"

frink_status frink_tool_call_grammar(const char *format, const char *tools_json, size_t len, const char *name, bool parallel,
                                     char **gbnf, char **trigger) {
    if (!gbnf || !trigger) return frink_fail(FRINK_ERR_ARG, "frink_tool_call_grammar: no place for the result");
    *gbnf = *trigger = NULL;
    if (!tools_json) return frink_fail(FRINK_ERR_ARG, "frink_tool_call_grammar: no tools");
    json_error_t e;
    json_t *tools = json_loadb(tools_json, len, 0, &e);
    if (!tools) return frink_fail(FRINK_ERR_FORMAT, "tools: line %d, column %d: %s", e.line, e.column, e.text);
    frink_status st = toolgrammar_build(format, tools, name, parallel, gbnf, trigger);
    json_decref(tools);
    return st;
}
