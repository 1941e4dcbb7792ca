// jinja.h — a Jinja template engine that renders chat templates exactly as
// Python's jinja2 does under Hugging Face transformers' conventions:
// trim_blocks and lstrip_blocks on, one trailing newline of the template
// dropped (jinja2's keep_trailing_newline off), loop controls (break,
// continue), raise_exception(msg), strftime_now(fmt), transformers' tojson
// (json.dumps with ensure_ascii off, key order kept, optional indent), Python's
// str() and repr() of values (True, None, 2.0, 'str' inside lists), and
// undefined values that behave like jinja2's default Undefined.
//
// No model dependency: a template source in, variables as a JSON object in
// (jansson), text out. Anything outside the implemented subset is an error
// naming the construct and its line and column — never a crash, never a
// silently different render.
//
// Thread safety: a parsed template is immutable; any number of threads may
// render it at once.
//
// Where frink differs from jinja2 on purpose (each refused by name, never a
// different text): integers are 64-bit (an overflow fails, naming it); the
// statements extends, include, import, from, block and autoescape are refused
// at parse time (FRINK_ERR_UNSUPPORTED), as are the filters filesizeformat,
// groupby, pprint, random, striptags, urlencode, urlize, wordwrap, xmlattr
// (inside an if, where jinja2 itself waits until the filter runs, the refusal
// waits too, with FRINK_ERR_UNSUPPORTED from jinja_render), and lipsum() and
// a few rare str methods (encode, translate, ...) when called. Macro calls and
// recursive loops nest at most 200 deep, brackets and statements 100 deep.
// Out of memory aborts (the budgets below keep a template far from it).
#ifndef FRINK_JINJA_H
#define FRINK_JINJA_H

#include <jansson.h>
#include <stddef.h>
#include <time.h>

#include "core/err.h"

struct jinja_tmpl;

// Parses `len` bytes of template source. On failure (FRINK_ERR_FORMAT for a
// syntax error, FRINK_ERR_UNSUPPORTED for a construct outside the subset) the
// message reads "line L, column C: what was expected or found", positions
// 1-based, counted in bytes of the source.
frink_status jinja_parse(const char *src, size_t len, struct jinja_tmpl **out);
void jinja_free(struct jinja_tmpl *t);

struct jinja_opts {
    time_t now;         // the time strftime_now formats (local time); 0: the current time
    int max_steps;      // evaluation budget (loop iterations + calls); 0: a default of 10^7.
                        // Past it rendering fails naming the budget (a template cannot hang).
                        // It also sets the memory budget: 16 MiB + 64 bytes a step of string
                        // and list building over the whole render (656 MiB by default)
};

// Renders the template with the variables of `vars` (a JSON object: messages,
// tools, add_generation_prompt, bos_token, ... — any keys). On success *out is
// malloc'ed, NUL-terminated, *len its length. On failure nothing is returned and
// the message names the problem and its line and column in the template:
//   - raise_exception(msg): FRINK_ERR_ARG, the message is exactly
//     "template error: msg", no position (callers print it as the template's
//     own words);
//   - an error jinja2 would raise at render time (calling an undefined value,
//     an operation on incompatible types, an unknown filter or test, ...):
//     FRINK_ERR_ARG, naming it;
//   - the evaluation or memory budget exhausted: FRINK_ERR_ARG;
//   - a refused construct met at render time (see above): FRINK_ERR_UNSUPPORTED.
// vars may be NULL (no variables), opts NULL (the defaults).
frink_status jinja_render(const struct jinja_tmpl *t, const json_t *vars, const struct jinja_opts *opts, char **out,
                          size_t *len);

#endif
