// template_api.c — the public chat templates over template/jinja.c: parse, the
// model's own template or ChatML, render with a JSON object of variables.
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "engine/engine.h"
#include "template/jinja.h"
#include "text/tokenizer.h"

// ChatML: what a model without a template of its own is prompted with.
static const char chatml[] =
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}";

struct frink_template {
    struct jinja_tmpl *t;
    char *src;
    char *bos, *eos; // the model's special token texts ("" when none)
};

// The text of a special token as it appears in a prompt ("" when there is none).
static char *token_text(const frink_model *m, frink_token id) {
    char buf[256];
    int n = id >= 0 && m ? frink_token_piece(m, id, buf, sizeof buf - 1, true) : 0;
    if (n < 0) n = 0;
    char *r = malloc((size_t)n + 1);
    if (!r) return NULL;
    memcpy(r, buf, (size_t)n);
    r[n] = 0;
    return r;
}

frink_status frink_template_parse(const frink_model *m, const char *src, size_t len, frink_template **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_template_parse: no place for the result");
    *out = NULL;
    if (!src && len) return frink_fail(FRINK_ERR_ARG, "frink_template_parse: NULL source");
    frink_template *t = calloc(1, sizeof *t);
    if (!t) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    t->src = malloc(len + 1);
    t->bos = token_text(m, m ? frink_token_bos(m) : -1);
    t->eos = token_text(m, m ? frink_token_eos(m) : -1);
    if (!t->src || !t->bos || !t->eos) {
        frink_template_free(t);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    if (len) memcpy(t->src, src, len);
    t->src[len] = 0;
    frink_status st = jinja_parse(t->src, len, &t->t);
    if (st) {
        frink_template_free(t);
        return st;
    }
    *out = t;
    return FRINK_OK;
}

frink_status frink_model_template(const frink_model *m, frink_template **out, bool *is_chatml) {
    const char *src = frink_model_chat_template(m);
    if (is_chatml) *is_chatml = src == NULL;
    if (!src) src = chatml;
    frink_status st = frink_template_parse(m, src, strlen(src), out);
    if (st && src != chatml) frink_fail_ctx(st, "the model's chat template: ");
    return st;
}

void frink_template_free(frink_template *t) {
    if (!t) return;
    jinja_free(t->t);
    free(t->src);
    free(t->bos);
    free(t->eos);
    free(t);
}

const char *frink_template_source(const frink_template *t) { return t->src; }

frink_status frink_template_render(const frink_template *t, const char *vars_json, size_t len, int64_t now, char **out,
                                   size_t *out_len) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_template_render: no place for the result");
    *out = NULL;
    if (out_len) *out_len = 0;
    json_error_t je;
    json_t *v = vars_json ? json_loadb(vars_json, len, 0, &je) : json_object();
    if (!v)
        return frink_fail(FRINK_ERR_FORMAT, "the template's variables: line %d, column %d: %s", je.line, je.column, je.text);
    if (!json_is_object(v)) {
        json_decref(v);
        return frink_fail(FRINK_ERR_FORMAT, "the template's variables must be a JSON object");
    }
    if (!json_object_get(v, "bos_token")) json_object_set_new(v, "bos_token", json_string(t->bos));
    if (!json_object_get(v, "eos_token")) json_object_set_new(v, "eos_token", json_string(t->eos));
    struct jinja_opts o = {.now = (time_t)now};
    size_t n = 0;
    frink_status st = jinja_render(t->t, v, &o, out, &n);
    json_decref(v);
    if (!st && out_len) *out_len = n;
    return st;
}
