// test_template.c — frink's Jinja engine against Python's jinja2 on real chat templates.
//
// Every template under tests/data/templates (the models' own chat templates) is rendered with
// every conversation under tests/data/templates/conversations and compared byte for byte with
// tests/data/templates/expected/<template>/<conversation>.txt, which jinja2 rendered the way
// Hugging Face transformers renders (scripts/make-template-golden.py). Where jinja2 raised
// (<conversation>.err: a line naming the kind, then the message), frink must fail too; for
// raise_exception its message must contain "template error: " + the template's words. For the
// other kinds (TypeError, UndefinedError, ...) the message is Python's own wording: a frink
// message that does not contain it is reported, and fails the test only with
// FRINK_TEMPLATE_STRICT_ERRORS=1. FRINK_TEMPLATE_ONLY=<template> runs that template alone.
//
// The variables get the defaults the generator gives them (tools and documents null,
// add_generation_prompt false, bos_token "<s>", eos_token "</s>"), and strftime_now formats the
// generator's fixed time, 2026-01-15 12:00:00, at TZ=UTC.
//
// Then a few negative cases: syntax errors name line and column, raise_exception's status and
// message, the evaluation budget.
#include <dirent.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "template/jinja.h"

#define TDIR "tests/data/templates/"
#define CDIR TDIR "conversations/"
#define EDIR TDIR "expected/"

static const time_t fixed_now = 1768478400; // 2026-01-15 12:00:00 UTC

// ---- file listing -----------------------------------------------------------------------------

struct names {
    char **v;
    size_t n;
};

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The names in `dir` ending in `ext`, the extension cut, sorted.
static struct names list_dir(const char *dir, const char *ext) {
    struct names r = {0};
    DIR *d = opendir(dir);
    if (!d) return r;
    size_t cap = 0, el = strlen(ext);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l <= el || strcmp(e->d_name + l - el, ext) != 0) continue;
        if (r.n == cap) r.v = realloc(r.v, (cap = cap ? cap * 2 : 64) * sizeof *r.v);
        r.v[r.n++] = strndup(e->d_name, l - el);
    }
    closedir(d);
    if (r.n) qsort(r.v, r.n, sizeof *r.v, cmp_str);
    return r;
}

static void names_free(struct names *s) {
    for (size_t i = 0; i < s->n; i++) free(s->v[i]);
    free(s->v);
}

// ---- reporting --------------------------------------------------------------------------------

// Writes s[from, to) to buf with control bytes escaped, so a context fits on one line.
static void escape(char *buf, size_t cap, const char *s, size_t from, size_t to) {
    size_t o = 0;
    for (size_t i = from; i < to && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') o += (size_t)snprintf(buf + o, cap - o, "\\n");
        else if (c == '\t') o += (size_t)snprintf(buf + o, cap - o, "\\t");
        else if (c == '\r') o += (size_t)snprintf(buf + o, cap - o, "\\r");
        else if (c == '\\') o += (size_t)snprintf(buf + o, cap - o, "\\\\");
        else if (c < 0x20 || c == 0x7f) o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
        else buf[o++] = (char)c;
    }
    buf[o] = 0;
}

// "byte N: expected «...» got «...»" for the first difference of a and b.
static void describe_diff(char *msg, size_t cap, const char *a, size_t alen, const char *b, size_t blen) {
    size_t i = 0;
    while (i < alen && i < blen && a[i] == b[i]) i++;
    size_t from = i > 30 ? i - 30 : 0;
    char ea[256], eb[256];
    escape(ea, sizeof ea, a, from, i + 40 < alen ? i + 40 : alen);
    escape(eb, sizeof eb, b, from, i + 40 < blen ? i + 40 : blen);
    snprintf(msg, cap, "first difference at byte %zu (expected %zu bytes, got %zu): expected «%s» got «%s»", i, alen,
             blen, ea, eb);
}

// ---- the corpus -------------------------------------------------------------------------------

// The conversation's variables with the generator's defaults filled in.
static json_t *load_vars(const char *conv) {
    char path[512];
    snprintf(path, sizeof path, CDIR "%s.json", conv);
    json_error_t jerr;
    json_t *v = json_load_file(path, 0, &jerr);
    if (!v || !json_is_object(v)) {
        fprintf(stderr, "%s: %s (line %d)\n", path, v ? "not an object" : jerr.text, jerr.line);
        json_decref(v);
        return NULL;
    }
    if (!json_object_get(v, "tools")) json_object_set_new(v, "tools", json_null());
    if (!json_object_get(v, "documents")) json_object_set_new(v, "documents", json_null());
    if (!json_object_get(v, "add_generation_prompt")) json_object_set_new(v, "add_generation_prompt", json_false());
    if (!json_object_get(v, "bos_token")) json_object_set_new(v, "bos_token", json_string("<s>"));
    if (!json_object_get(v, "eos_token")) json_object_set_new(v, "eos_token", json_string("</s>"));
    return v;
}

struct tally {
    int pairs, renders, errors;        // the corpus: pairs, of which jinja2 rendered / raised
    int same;                          // frink agrees (same bytes, or fails where jinja2 raised)
    int msg_differs;                   // failed where jinja2 raised, but not with its message
};

// One template × conversation; returns whether frink agrees with jinja2.
static bool check_pair(const char *tname, const struct jinja_tmpl *t, const char *parse_err, const char *cname,
                       json_t *vars, bool strict_msgs, struct tally *tl) {
    char path[512], msg[1024];
    size_t elen = 0;
    snprintf(path, sizeof path, EDIR "%s/%s.txt", tname, cname);
    char *exp = test_read_file(path, &elen);
    bool want_err = false;
    if (!exp) {
        snprintf(path, sizeof path, EDIR "%s/%s.err", tname, cname);
        exp = test_read_file(path, &elen);
        want_err = true;
    }
    if (!exp) {
        CHECK(0, "%s × %s: no expected file (rerun scripts/make-template-golden.py)", tname, cname);
        return false;
    }
    tl->pairs++;
    want_err ? tl->errors++ : tl->renders++;

    char *out = NULL;
    size_t olen = 0;
    const char *ferr = parse_err;
    if (!ferr) {
        struct jinja_opts opts = {.now = fixed_now};
        if (jinja_render(t, vars, &opts, &out, &olen) != FRINK_OK) ferr = frink_errmsg();
    }

    bool ok;
    if (!want_err) {
        ok = !ferr && olen == elen && memcmp(out, exp, elen) == 0;
        if (ferr) snprintf(msg, sizeof msg, "frink failed: %s", ferr);
        else if (!ok) describe_diff(msg, sizeof msg, exp, elen, out, olen);
        CHECK(ok, "%s × %s: %s", tname, cname, msg);
    } else {
        char *nl = strchr(exp, '\n');
        const char *kind = exp, *pymsg = nl ? nl + 1 : "";
        if (nl) *nl = 0;
        bool is_raise = strcmp(kind, "raise_exception") == 0;
        ok = ferr != NULL;
        if (!ok) {
            char e[160];
            escape(e, sizeof e, out, 0, olen < 120 ? olen : 120);
            CHECK(0, "%s × %s: jinja2 raised %s \"%s\" but frink rendered %zu bytes «%s»", tname, cname, kind, pymsg,
                  olen, e);
        } else {
            char want[1024];
            snprintf(want, sizeof want, "%s%s", is_raise ? "template error: " : "", pymsg);
            bool has = strstr(ferr, want) != NULL;
            if (is_raise || strict_msgs) {
                CHECK(has, "%s × %s: frink's message \"%s\" lacks jinja2's %s \"%s\"", tname, cname, ferr, kind, want);
                ok = has;
            } else {
                CHECK(1, "counted");
                if (!has) {
                    tl->msg_differs++;
                    printf("  note: %s × %s: jinja2 %s \"%s\", frink \"%s\"\n", tname, cname, kind, pymsg, ferr);
                }
            }
        }
    }
    if (ok) tl->same++;
    free(out);
    free(exp);
    return ok;
}

static void test_corpus(void) {
    struct names tm = list_dir(TDIR, ".jinja"), cv = list_dir(CDIR, ".json");
    CHECK(tm.n >= 70, "found %zu templates under " TDIR, tm.n);
    CHECK(cv.n >= 20, "found %zu conversations under " CDIR, cv.n);
    const char *s = getenv("FRINK_TEMPLATE_STRICT_ERRORS");
    bool strict = s && *s && strcmp(s, "0") != 0;
    const char *only = getenv("FRINK_TEMPLATE_ONLY"); // one template's name, to debug it alone

    json_t **vars = calloc(cv.n ? cv.n : 1, sizeof *vars);
    for (size_t c = 0; c < cv.n; c++) CHECK((vars[c] = load_vars(cv.v[c])) != NULL, "conversation %s", cv.v[c]);

    struct tally all = {0};
    int tmpl_ok = 0, tmpl_run = 0;
    for (size_t i = 0; i < tm.n; i++) {
        if (only && *only && strcmp(only, tm.v[i]) != 0) continue;
        tmpl_run++;
        char path[512];
        size_t len = 0;
        snprintf(path, sizeof path, TDIR "%s.jinja", tm.v[i]);
        char *src = test_read_file(path, &len);
        CHECK(src != NULL, "cannot read %s", path);
        if (!src) continue;
        struct jinja_tmpl *t = NULL;
        char parse_err[1024] = {0};
        if (jinja_parse(src, len, &t) != FRINK_OK) snprintf(parse_err, sizeof parse_err, "%s", frink_errmsg());

        struct tally tl = {0};
        for (size_t c = 0; c < cv.n; c++)
            if (vars[c]) check_pair(tm.v[i], t, t ? NULL : parse_err, cv.v[c], vars[c], strict, &tl);
        printf("%-48s %3d/%-3d identical%s%s\n", tm.v[i], tl.same, tl.pairs, t ? "" : "  parse: ", t ? "" : parse_err);
        if (tl.same == tl.pairs) tmpl_ok++;
        all.pairs += tl.pairs, all.renders += tl.renders, all.errors += tl.errors;
        all.same += tl.same, all.msg_differs += tl.msg_differs;
        jinja_free(t);
        free(src);
    }
    printf("templates: %d/%d all identical; pairs: %d/%d identical (%d renders, %d errors in the corpus)", tmpl_ok,
           tmpl_run, all.same, all.pairs, all.renders, all.errors);
    if (all.msg_differs) printf("; %d errors with another message than jinja2's", all.msg_differs);
    printf("\n");

    for (size_t c = 0; c < cv.n; c++) json_decref(vars[c]);
    free(vars);
    names_free(&tm);
    names_free(&cv);
}

// ---- negative cases ---------------------------------------------------------------------------

// Renders `src` with `vars_json` (an object); returns the status, *out the render or NULL.
static frink_status render_str(const char *src, const char *vars_json, int max_steps, char **out) {
    struct jinja_tmpl *t = NULL;
    *out = NULL;
    frink_status st = jinja_parse(src, strlen(src), &t);
    if (st != FRINK_OK) return st;
    json_t *v = json_loads(vars_json, 0, NULL);
    if (!v) {
        jinja_free(t);
        return FRINK_ERR_ARG;
    }
    struct jinja_opts opts = {.now = fixed_now, .max_steps = max_steps};
    size_t len = 0;
    st = jinja_render(t, v, &opts, out, &len);
    json_decref(v);
    jinja_free(t);
    return st;
}

// A syntax error: FRINK_ERR_FORMAT (or FRINK_ERR_UNSUPPORTED for a construct outside the
// subset), its message naming `line` (0: any line — an unclosed block may be reported where it
// opens or where the source ends) and a column.
static void expect_syntax_error(const char *src, int line) {
    struct jinja_tmpl *t = NULL;
    frink_status st = jinja_parse(src, strlen(src), &t);
    const char *m = st == FRINK_OK ? "" : frink_errmsg();
    char want[64];
    if (line) snprintf(want, sizeof want, "line %d, column ", line);
    const char *at = line ? strstr(m, want) : NULL;
    if (!line) {
        // "line L, column ": any L
        for (const char *p = strstr(m, "line "); p && !at; p = strstr(p + 1, "line ")) {
            const char *q = p + 5;
            while (*q >= '0' && *q <= '9') q++;
            if (q > p + 5 && strncmp(q, ", column ", 9) == 0)
                at = p, snprintf(want, sizeof want, "%.*s", (int)(q + 9 - p), p);
        }
        if (!at) snprintf(want, sizeof want, "line L, column ");
    }
    bool col = at && at[strlen(want)] >= '1' && at[strlen(want)] <= '9';
    CHECK(st == FRINK_ERR_FORMAT || st == FRINK_ERR_UNSUPPORTED, "parse of «%s»: status %d", src, st);
    CHECK(col, "parse of «%s»: message \"%s\" names no \"%sC\"", src, m, want);
    jinja_free(t);
}

static void test_negative(void) {
    expect_syntax_error("{% if x %}\n{{ y }", 2);
    expect_syntax_error("Hello\n\n  {% frobnicate %}", 3);
    expect_syntax_error("{{ 1 + }}", 1);
    expect_syntax_error("{% for m in messages %}\n{{ m.content }}\n", 0);
    expect_syntax_error("a\n{% if x %}b{% endfor %}", 2);
    expect_syntax_error("{{ messages[0]['content' }}", 1);
    expect_syntax_error("line one\n{% set = 3 %}", 2);

    char *out = NULL;
    frink_status st = render_str("{{ raise_exception('Roles must alternate ' ~ 2) }}", "{}", 0, &out);
    CHECK(st == FRINK_ERR_ARG, "raise_exception: status %d", st);
    CHECK(st != FRINK_OK && strstr(frink_errmsg(), "template error: Roles must alternate 2"),
          "raise_exception: message \"%s\"", st != FRINK_OK ? frink_errmsg() : "");
    free(out);

    st = render_str("{% for i in range(1000000) %}{{ i }}{% endfor %}", "{}", 1000, &out);
    CHECK(st == FRINK_ERR_ARG, "a loop past max_steps: status %d", st);
    free(out);

    // A render that works, so the negative cases above fail for their own reason.
    st = render_str("{{ bos_token }}{% for m in messages %}{{ m.role }}: {{ m.content | trim }}\n{% endfor %}",
                    "{\"bos_token\": \"<s>\", \"messages\": [{\"role\": \"user\", \"content\": \" hi\\u3000\"}]}", 0,
                    &out);
    CHECK(st == FRINK_OK && out && strcmp(out, "<s>user: hi\n") == 0, "small render: status %d, «%s»", st,
          out ? out : "");
    free(out);

    st = render_str("{{ strftime_now('%Y-%m-%d %H:%M %d %b %Y') }}", "{}", 0, &out);
    CHECK(st == FRINK_OK && out && strcmp(out, "2026-01-15 12:00 15 Jan 2026") == 0, "strftime_now: «%s»",
          out ? out : frink_errmsg());
    free(out);
}

int main(void) {
    setenv("TZ", "UTC", 1);
    tzset();
    test_negative();
    test_corpus();
    return TEST_DONE();
}
