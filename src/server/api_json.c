// api_json.c — generated JSON text read as the client's parser reads it (api_util.h:
// api_json_generated). Its own file so that tests/test_server_json.c links it alone.
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_util.h"

// An integer -0 starts at text[i]: a number's sign (not an exponent's), a zero, then no digit,
// fraction or exponent.
static bool neg_zero(const char *text, size_t i) {
    if (text[i] != '-' || text[i + 1] != '0' || (i && !strchr(" \t\r\n,:[", text[i - 1]))) return false;
    const char c = text[i + 2];
    return !c || !strchr("0123456789.eE", c);
}

json_t *api_json_generated(const char *text) {
    const size_t len = strlen(text);
    size_t extra = 0;
    bool in_str = false;
    for (size_t i = 0; i < len; i++) {
        if (in_str) {
            if (text[i] == '\\') i++;
            else if (text[i] == '"') in_str = false;
        } else if (text[i] == '"') {
            in_str = true;
        } else if (neg_zero(text, i)) {
            extra += 2;
        }
    }
    if (!extra) return json_loads(text, JSON_DECODE_ANY, NULL);
    char *o = malloc(len + extra + 1);
    if (!o) return NULL;
    size_t k = 0;
    in_str = false;
    for (size_t i = 0; i < len; i++) {
        o[k++] = text[i];
        if (in_str) {
            if (text[i] == '\\' && i + 1 < len) o[k++] = text[++i];
            else if (text[i] == '"') in_str = false;
        } else if (text[i] == '"') {
            in_str = true;
        } else if (neg_zero(text, i)) {
            o[k++] = text[++i];
            o[k++] = '.';
            o[k++] = '0';
        }
    }
    o[k] = 0;
    json_t *v = json_loads(o, JSON_DECODE_ANY, NULL);
    free(o);
    return v;
}
