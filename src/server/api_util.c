// api_util.c — what the wire-format files share: the request body as JSON (with the limits
// jansson does not enforce), typed field readers that answer a 400 naming the field, the
// refusal of fields nothing honours, the model check, the sampling fields, and the SSE stream
// that drives a run from the connection's thread.
#include "server/api_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#define API_MAX_DEPTH 128
#define API_KEEPALIVE_S 10.0
#define API_POLL_MS 200

// ---- the body ---------------------------------------------------------------------------

// Nesting depth of the JSON text, counting brackets outside strings. jansson recurses once
// per level (its own cap is 2048, deep enough to exhaust a connection thread's stack with
// the templates' recursion afterwards), so a hostile body is refused before it parses.
static int api_json_depth(const char *s, size_t n, size_t *where) {
    int depth = 0, max = 0;
    bool in_str = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = false;
            continue;
        }
        if (c == '"') in_str = true;
        else if (c == '[' || c == '{') {
            if (++depth > max) {
                max = depth;
                if (max > API_MAX_DEPTH) {
                    *where = i;
                    return max;
                }
            }
        } else if ((c == ']' || c == '}') && depth > 0) depth--;
    }
    return max;
}

json_t *api_parse_body(const struct http_req *r, struct api_err *e) {
    const char *body = r->body ? r->body : "";
    size_t n = r->body ? r->body_len : 0;
    size_t i = 0;
    while (i < n && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n')) i++;
    if (i == n) {
        api_err_set(e, 400, "invalid_request_error", NULL,
                    "the request body is empty: expected a JSON object");
        return NULL;
    }
    size_t where = 0;
    if (api_json_depth(body, n, &where) > API_MAX_DEPTH) {
        api_err_set(e, 400, "invalid_request_error", NULL,
                    "the request body nests JSON deeper than %d levels (at byte %zu)", API_MAX_DEPTH, where);
        return NULL;
    }
    json_error_t je;
    json_t *j = json_loadb(body, n, 0, &je);
    if (!j) {
        if (json_error_code(&je) == json_error_invalid_utf8)
            api_err_set(e, 400, "invalid_request_error", NULL,
                        "the request body is not valid UTF-8 (at byte %d)", je.position);
        else if (json_error_code(&je) == json_error_null_character)
            // a NUL would cut the text short wherever it goes as a C string
            api_err_set(e, 400, "invalid_request_error", NULL,
                        "the request body holds a \\u0000 in a string (at byte %d): NUL characters are not accepted",
                        je.position);
        else
            api_err_set(e, 400, "invalid_request_error", NULL,
                        "the request body is not valid JSON: %s (line %d, column %d, byte %d)", je.text, je.line,
                        je.column, je.position);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        api_err_set(e, 400, "invalid_request_error", NULL, "the request body must be a JSON object");
        return NULL;
    }
    return j;
}

// ---- field readers ---------------------------------------------------------------------

// The value at a dotted path ("stream_options.include_usage"), or under the whole dotted key
// as one name, as llama-server reads its flat "speculative.n_max". Returns 0 when absent or
// null, 1 with *out, -1 when a step on the way is not an object.
static int api_lookup(json_t *obj, const char *key, json_t **out, struct api_err *e) {
    json_t *flat = strchr(key, '.') && json_is_object(obj) ? json_object_get(obj, key) : NULL;
    if (flat) {
        if (json_is_null(flat)) return 0;
        *out = flat;
        return 1;
    }
    char part[128];
    const char *p = key;
    json_t *cur = obj;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len >= sizeof part) len = sizeof part - 1;
        memcpy(part, p, len);
        part[len] = 0;
        json_t *v = json_is_object(cur) ? json_object_get(cur, part) : NULL;
        if (!v || json_is_null(v)) return 0;
        if (!dot) {
            *out = v;
            return 1;
        }
        if (!json_is_object(v)) {
            api_err_set(e, 400, "invalid_request_error", key, "'%.*s' must be an object", (int)(dot - key), key);
            return -1;
        }
        cur = v;
        p = dot + 1;
    }
}

static const char *api_type_name(const json_t *v) {
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

int api_get_bool(json_t *obj, const char *key, bool *out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (!json_is_boolean(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be a boolean, not %s", key, api_type_name(v));
        return -1;
    }
    *out = json_is_true(v);
    return 1;
}

int api_get_int(json_t *obj, const char *key, long lo, long hi, long *out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    double d;
    if (json_is_integer(v)) d = (double)json_integer_value(v);
    else if (json_is_real(v)) d = json_real_value(v); // 16.0 is an integer to the SDKs too
    else {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be an integer, not %s", key, api_type_name(v));
        return -1;
    }
    if (json_is_real(v) && d != floor(d)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be an integer, not %g", key, d);
        return -1;
    }
    if (d < (double)lo || d > (double)hi) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be between %ld and %ld (got %g)", key, lo, hi,
                    d);
        return -1;
    }
    *out = json_is_integer(v) ? (long)json_integer_value(v) : (long)d;
    return 1;
}

int api_get_num(json_t *obj, const char *key, double lo, double hi, double *out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (!json_is_number(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be a number, not %s", key, api_type_name(v));
        return -1;
    }
    double d = json_number_value(v);
    if (!(d >= lo && d <= hi)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be between %g and %g (got %.17g)", key, lo, hi, d);
        return -1;
    }
    *out = d;
    return 1;
}

int api_get_str(json_t *obj, const char *key, const char **out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (!json_is_string(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be a string, not %s", key, api_type_name(v));
        return -1;
    }
    *out = json_string_value(v);
    return 1;
}

int api_get_obj(json_t *obj, const char *key, json_t **out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (!json_is_object(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be an object, not %s", key, api_type_name(v));
        return -1;
    }
    *out = v;
    return 1;
}

int api_get_arr(json_t *obj, const char *key, json_t **out, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (!json_is_array(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be an array, not %s", key, api_type_name(v));
        return -1;
    }
    *out = v;
    return 1;
}

int api_get_strings(json_t *obj, const char *key, int max, const char ***out, int *n, struct api_err *e) {
    json_t *v;
    int rc = api_lookup(obj, key, &v, e);
    if (rc <= 0) return rc;
    if (json_is_string(v)) {
        if (json_string_length(v) == 0) { // an empty stop string would end every completion at once
            api_err_set(e, 400, "invalid_request_error", key, "'%s' must not be an empty string", key);
            return -1;
        }
        const char **a = malloc(sizeof *a);
        if (!a) goto nomem;
        a[0] = json_string_value(v);
        *out = a;
        *n = 1;
        return 1;
    }
    if (!json_is_array(v)) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' must be a string or an array of strings, not %s", key,
                    api_type_name(v));
        return -1;
    }
    size_t len = json_array_size(v);
    if (len > (size_t)max) {
        api_err_set(e, 400, "invalid_request_error", key, "'%s' has %zu entries; at most %d are allowed", key, len,
                    max);
        return -1;
    }
    for (size_t i = 0; i < len; i++) {
        json_t *s = json_array_get(v, i);
        if (!json_is_string(s) || json_string_length(s) == 0) {
            api_err_set(e, 400, "invalid_request_error", key, "'%s[%zu]' must be a non-empty string", key, i);
            return -1;
        }
    }
    if (len == 0) {
        *out = NULL;
        *n = 0;
        return 1;
    }
    const char **a = malloc(len * sizeof *a);
    if (!a) goto nomem;
    for (size_t i = 0; i < len; i++) a[i] = json_string_value(json_array_get(v, i));
    *out = a;
    *n = (int)len;
    return 1;
nomem:
    api_err_set(e, 500, "server_error", NULL, "out of memory");
    return -1;
}

// Two values are "the same" for api_refuse when JSON says so or they are equal numbers
// (jansson tells 1 from 1.0; a client may send either).
static bool api_same(json_t *a, json_t *b) {
    if (json_is_number(a) && json_is_number(b)) return json_number_value(a) == json_number_value(b);
    return json_equal(a, b);
}

int api_refuse(json_t *obj, const char *key, json_t *ok, const char *why, struct api_err *e) {
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v)) return 0;
    if (ok && api_same(v, ok)) return 0;
    api_err_set(e, 400, "invalid_request_error", key, "'%s' is not supported: %s", key, why);
    return -1;
}

// ---- the model -------------------------------------------------------------------------

// Whether name names the served model: its id, the file's basename with or without ".gguf",
// or general.name.
static bool api_model_matches(struct srv *s, const char *name) {
    if (s->model_id && strcmp(name, s->model_id) == 0) return true;
    // every name of --alias's comma-separated list (the first is model_id)
    for (const char *a = s->cfg.alias; a && *a;) {
        const char *end = strchr(a, ',');
        size_t len = end ? (size_t)(end - a) : strlen(a);
        if (len && strlen(name) == len && strncmp(name, a, len) == 0) return true;
        a = end ? end + 1 : NULL;
    }
    const char *path = s->cfg.model_path;
    if (path) {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        if (strcmp(name, base) == 0) return true;
        size_t bl = strlen(base), nl = strlen(name);
        if (bl > 5 && strcmp(base + bl - 5, ".gguf") == 0 && nl == bl - 5 && strncmp(name, base, nl) == 0) return true;
    }
    if (s->model) {
        const char *gn = frink_model_name(s->model);
        if (gn && gn[0] && strcmp(name, gn) == 0) return true;
    }
    return false;
}

int api_check_model(struct srv *s, json_t *req, bool required, struct api_err *e) {
    json_t *v = json_object_get(req, "model");
    if (!v || json_is_null(v)) {
        if (!required) return 0;
        api_err_set(e, 400, "invalid_request_error", "model", "'model' is required");
        return -1;
    }
    if (!json_is_string(v)) {
        api_err_set(e, 400, "invalid_request_error", "model", "'model' must be a string, not %s", api_type_name(v));
        return -1;
    }
    const char *name = json_string_value(v);
    if (api_model_matches(s, name)) return 0;
    // http_error makes this type OpenAI's invalid_request_error with code model_not_found;
    // the Anthropic shape takes its type (not_found_error) from the status
    api_err_set(e, 404, "model_not_found", "model", "The model '%.200s' does not exist: this server serves '%.200s'",
                name, s->model_id ? s->model_id : "");
    return -1;
}

// ---- sampling --------------------------------------------------------------------------

static uint64_t api_random_seed(void) {
    uint64_t seed = 0;
    if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_nsec * 0x9E3779B97F4A7C15ull ^ (uint64_t)ts.tv_sec;
    }
    return seed;
}

// One logit_bias entry: the token (a decimal string key or an integer) and its bias (a number
// in [-100, 100], or false: banned, as llama-server's array form allows).
static int api_bias_entry(struct srv *s, const char *what, json_t *tok, json_t *val, frink_logit_bias *out,
                          struct api_err *e) {
    long id = -1;
    if (json_is_string(tok)) {
        const char *t = json_string_value(tok);
        char *end = NULL;
        errno = 0;
        long v = strtol(t, &end, 10);
        if (t[0] && end && *end == 0 && errno == 0) id = v;
        else {
            api_err_set(e, 400, "invalid_request_error", "logit_bias",
                        "'%s': the key '%.64s' is not a token id (a decimal integer)", what, t);
            return -1;
        }
    } else if (json_is_integer(tok)) {
        id = (long)json_integer_value(tok);
    } else {
        api_err_set(e, 400, "invalid_request_error", "logit_bias", "'%s': a token id must be an integer", what);
        return -1;
    }
    int n_vocab = s->model ? frink_model_n_vocab(s->model) : 0;
    if (id < 0 || id >= n_vocab) {
        api_err_set(e, 400, "invalid_request_error", "logit_bias",
                    "'%s': token id %ld is out of range (the vocabulary has %d tokens)", what, id, n_vocab);
        return -1;
    }
    float bias;
    if (json_is_false(val)) bias = -INFINITY;
    else if (json_is_number(val)) {
        double b = json_number_value(val);
        if (!(b >= -100 && b <= 100)) {
            api_err_set(e, 400, "invalid_request_error", "logit_bias",
                        "'%s': the bias of token %ld must be between -100 and 100 (got %g)", what, id, b);
            return -1;
        }
        // OpenAI: -100 "should result in a ban"; an additive -100 on a peaked distribution
        // does not always, so it is made exact.
        bias = b <= -100 ? -INFINITY : (float)b;
    } else {
        api_err_set(e, 400, "invalid_request_error", "logit_bias",
                    "'%s': the bias of token %ld must be a number", what, id);
        return -1;
    }
    out->token = (frink_token)id;
    out->bias = bias;
    return 0;
}

static int api_read_bias(struct srv *s, json_t *req, struct run_params *p, frink_logit_bias **bias,
                         struct api_err *e) {
    json_t *lb = json_object_get(req, "logit_bias");
    if (!lb || json_is_null(lb)) return 0;
    size_t n;
    if (json_is_object(lb)) n = json_object_size(lb);
    else if (json_is_array(lb)) n = json_array_size(lb);
    else {
        api_err_set(e, 400, "invalid_request_error", "logit_bias",
                    "'logit_bias' must be an object of token id -> bias, not %s", api_type_name(lb));
        return -1;
    }
    if (n == 0) return 0;
    if (n > 1u << 20) {
        api_err_set(e, 400, "invalid_request_error", "logit_bias", "'logit_bias' has too many entries (%zu)", n);
        return -1;
    }
    frink_logit_bias *b = calloc(n, sizeof *b);
    if (!b) {
        api_err_set(e, 500, "server_error", NULL, "out of memory");
        return -1;
    }
    size_t k = 0;
    char what[64];
    if (json_is_object(lb)) {
        const char *key;
        json_t *val;
        json_object_foreach(lb, key, val) {
            snprintf(what, sizeof what, "logit_bias.%.40s", key);
            json_t *ks = json_string(key);
            int rc = ks ? api_bias_entry(s, what, ks, val, &b[k], e) : -1;
            json_decref(ks);
            if (rc < 0) goto fail;
            k++;
        }
    } else { // llama-server's [[id, bias], ...]
        for (size_t i = 0; i < n; i++) {
            json_t *pair = json_array_get(lb, i);
            snprintf(what, sizeof what, "logit_bias[%zu]", i);
            if (!json_is_array(pair) || json_array_size(pair) != 2) {
                api_err_set(e, 400, "invalid_request_error", "logit_bias",
                            "'%s' must be a pair [token id, bias]", what);
                goto fail;
            }
            if (api_bias_entry(s, what, json_array_get(pair, 0), json_array_get(pair, 1), &b[k], e) < 0) goto fail;
            k++;
        }
    }
    *bias = b;
    p->sp.logit_bias = b;
    p->sp.n_logit_bias = (int)k;
    return 0;
fail:
    if (e->status == 0) api_err_set(e, 500, "server_error", NULL, "out of memory");
    free(b);
    return -1;
}

json_t *api_tags_json(const char *tags) {
    json_t *a = json_array();
    for (const char *p = tags; *p;) {
        size_t n = strcspn(p, ",");
        const char *b = p, *e = p + n;
        while (b < e && (*b == ' ' || *b == '\t')) b++;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
        if (e > b) json_array_append_new(a, json_stringn(b, (size_t)(e - b)));
        p += n + (p[n] == ',');
    }
    return a;
}

int api_read_sampling(struct srv *s, json_t *req, struct run_params *p, frink_logit_bias **bias, struct api_err *e) {
    double d;
    long l;
    int rc;
    *bias = NULL;
    // What the request leaves out, the server's flags decide (--temp, --top-k, ...).
    const frink_sampler_params *dflt = &s->cfg.sampling;
    p->sp.temp = dflt->temp, p->sp.top_k = dflt->top_k, p->sp.top_p = dflt->top_p, p->sp.min_p = dflt->min_p;
    p->sp.repeat_penalty = dflt->repeat_penalty, p->sp.presence_penalty = dflt->presence_penalty;
    p->sp.frequency_penalty = dflt->frequency_penalty, p->sp.penalty_last_n = dflt->penalty_last_n;
    if ((rc = api_get_num(req, "temperature", 0, 2, &d, e)) < 0) return -1;
    if (rc) p->sp.temp = (float)d;
    if ((rc = api_get_num(req, "top_p", 0, 1, &d, e)) < 0) return -1;
    if (rc) p->sp.top_p = (float)d;
    if ((rc = api_get_int(req, "top_k", -1, 1L << 30, &l, e)) < 0) return -1;
    if (rc) p->sp.top_k = (int)l;
    if ((rc = api_get_num(req, "min_p", 0, 1, &d, e)) < 0) return -1;
    if (rc) p->sp.min_p = (float)d;
    if ((rc = api_get_num(req, "presence_penalty", -2, 2, &d, e)) < 0) return -1;
    if (rc) p->sp.presence_penalty = (float)d;
    if ((rc = api_get_num(req, "frequency_penalty", -2, 2, &d, e)) < 0) return -1;
    if (rc) p->sp.frequency_penalty = (float)d;
    if ((rc = api_get_num(req, "repeat_penalty", 0, 10, &d, e)) < 0) return -1;
    if (rc) {
        if (d == 0) d = 1; // llama-server: 0 and 1 both mean off
        p->sp.repeat_penalty = (float)d;
    }
    if ((rc = api_get_int(req, "repeat_last_n", -1, 1L << 20, &l, e)) < 0) return -1;
    if (rc) p->sp.penalty_last_n = l < 0 ? (s->n_ctx > 0 ? s->n_ctx : 4096) : (int)l; // -1: the whole context
    // Speculative decoding, as llama-server names the fields (flat "speculative.n_max" or an
    // object): the most and fewest drafted tokens a step verifies, a draft model's least
    // probability. They change the speed only, never the tokens.
    if ((rc = api_get_int(req, "speculative.n_max", 0, FRINK_SPEC_DRAFT_MAX, &l, e)) < 0) return -1;
    if (rc) p->spec_n_max = (int)l;
    if ((rc = api_get_int(req, "speculative.n_min", 0, FRINK_SPEC_DRAFT_MAX, &l, e)) < 0) return -1;
    if (rc) p->spec_n_min = (int)l;
    if ((rc = api_get_num(req, "speculative.p_min", 0, 1, &d, e)) < 0) return -1;
    if (rc) p->spec_p_min = (float)d;
    // seed: any 64-bit integer; llama-server's -1 means "random", as no seed does.
    json_t *sv = json_object_get(req, "seed");
    if (sv && !json_is_null(sv)) {
        if (!json_is_integer(sv)) {
            api_err_set(e, 400, "invalid_request_error", "seed", "'seed' must be an integer, not %s",
                        api_type_name(sv));
            return -1;
        }
        json_int_t v = json_integer_value(sv);
        p->sp.seed = v == -1 ? api_random_seed() : (uint64_t)v;
    } else {
        p->sp.seed = s->cfg.has_seed ? dflt->seed : api_random_seed();
    }
    return api_read_bias(s, req, p, bias, e);
}

// ---- SSE streams -----------------------------------------------------------------------

int64_t api_unix_time(void) { return (int64_t)time(NULL); }

double api_mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void api_stream_append(struct api_stream *st, const char *bytes, size_t len) {
    if (st->n + len > st->cap) {
        size_t cap = st->cap ? st->cap : 4096;
        while (cap < st->n + len) cap *= 2;
        char *nb = realloc(st->buf, cap);
        if (!nb) return; // the frame is lost; the stream still ends properly
        st->buf = nb;
        st->cap = cap;
    }
    memcpy(st->buf + st->n, bytes, len);
    st->n += len;
}

void api_sse_raw(struct api_stream *st, const char *text) { api_stream_append(st, text, strlen(text)); }

void api_sse(struct api_stream *st, const char *name, json_t *data) {
    if (!data) return;
    char *txt = json_dumps(data, JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(data);
    if (!txt) return;
    if (name) {
        api_sse_raw(st, "event: ");
        api_sse_raw(st, name);
        api_sse_raw(st, "\n");
    }
    api_sse_raw(st, "data: ");
    api_sse_raw(st, txt);
    api_sse_raw(st, "\n\n");
    free(txt);
}

struct api_stream *api_stream_new(struct srv *s, struct run *run) {
    struct api_stream *st = calloc(1, sizeof *st);
    if (!st) {
        run_free(run);
        return NULL;
    }
    st->s = s;
    st->run = run;
    st->last_write = api_mono();
    return st;
}

static void api_stream_emit(void *ud, const struct run_ev *ev) {
    struct api_stream *st = ud;
    if (st->on_event) st->on_event(st, ev);
}

// Called by the HTTP layer in the connection's thread until it returns -1. It blocks on the
// run in short waits so that a quiet stretch (a long prefill) can be bridged by a comment.
static ssize_t api_stream_produce(void *ud, char *buf, size_t max) {
    struct api_stream *st = ud;
    for (;;) {
        if (st->off < st->n) {
            size_t k = st->n - st->off;
            if (k > max) k = max;
            memcpy(buf, st->buf + st->off, k);
            st->off += k;
            if (st->off == st->n) st->off = st->n = 0;
            st->last_write = api_mono();
            return (ssize_t)k;
        }
        if (st->ended) return -1;
        int done = run_next(st->run, API_POLL_MS, api_stream_emit, st);
        if (done == 1) {
            if (st->on_end) st->on_end(st);
            st->ended = true;
            continue;
        }
        if (st->n == 0 && api_mono() - st->last_write >= API_KEEPALIVE_S) api_sse_raw(st, ": keep-alive\n\n");
    }
}

static void api_stream_release(void *ud, bool aborted) {
    (void)aborted; // either way the run goes: run_free cancels what still runs
    struct api_stream *st = ud;
    run_free(st->run);
    if (st->free_ud) st->free_ud(st->ud);
    free(st->buf);
    free(st);
}

void api_stream_respond(struct api_stream *st, struct http_resp *out) {
    out->status = 200;
    out->content_type = "text/event-stream";
    out->body = NULL;
    out->len = 0;
    out->produce = api_stream_produce;
    out->release = api_stream_release;
    out->ud = st;
}

// ---- text ------------------------------------------------------------------------------

// Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes there are not one.
static size_t api_utf8_len(const unsigned char *s, size_t n) {
    unsigned char c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80) return 1;
    else if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07;
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    // overlong forms, surrogates, past U+10FFFF
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

bool api_utf8_valid(const char *s, size_t len) {
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k = api_utf8_len(u + i, len - i);
        if (!k || (k == 1 && u[i] == 0)) return false;
        i += k;
    }
    return true;
}

json_t *api_json_text(const char *s, size_t len) {
    if (!s) return json_string("");
    if (api_utf8_valid(s, len)) return json_stringn(s, len);
    // jansson refuses invalid UTF-8 (and NUL): such bytes become U+FFFD
    char *o = malloc(len * 3 + 1);
    if (!o) return json_string("");
    const unsigned char *u = (const unsigned char *)s;
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        size_t c = api_utf8_len(u + i, len - i);
        if (c && !(c == 1 && u[i] == 0)) {
            memcpy(o + k, u + i, c);
            k += c;
            i += c;
        } else {
            memcpy(o + k, "\xEF\xBF\xBD", 3);
            k += 3;
            i++;
        }
    }
    json_t *j = json_stringn(o, k);
    free(o);
    return j;
}

// ---- small shared pieces -------------------------------------------------------------------

void api_buf_add(struct api_buf *b, const char *s, size_t n) {
    if (!n) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1) cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) return;
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

const char *api_buf_str(const struct api_buf *b) { return b->p ? b->p : ""; }

void api_buf_clear(struct api_buf *b) {
    b->n = 0;
    if (b->p) b->p[0] = 0;
}

void api_buf_free(struct api_buf *b) {
    free(b->p);
    *b = (struct api_buf){0};
}

int api_bad(struct api_err *e, const char *param, const char *fmt, ...) {
    char msg[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    api_err_set(e, 400, "invalid_request_error", param, "%s", msg);
    return -1;
}

// ---- what the Anthropic and Responses readers share --------------------------------------

bool api_str_in(const char *s, const char *const *names, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(s, names[i])) return true;
    return false;
}

void api_set_var(json_t **vars, const char *name, json_t *v) {
    if (!*vars) *vars = json_object();
    json_object_set_new(*vars, name, v);
}

json_t *api_tool_call(const char *id, const char *name, const char *args) {
    return json_pack("{s:s,s:s,s:{s:s,s:s}}", "id", id, "type", "function", "function", "name", name, "arguments", args);
}

int api_tool_name_desc(json_t *t, size_t i, const char **name, json_t **desc, struct api_err *e) {
    char param[64];
    *name = json_string_value(json_object_get(t, "name"));
    if (!*name || !**name) {
        snprintf(param, sizeof param, "tools[%zu].name", i);
        return api_bad(e, param, "%s must be a non-empty string", param);
    }
    *desc = json_object_get(t, "description");
    if (*desc && !json_is_null(*desc) && !json_is_string(*desc)) {
        snprintf(param, sizeof param, "tools[%zu].description", i);
        return api_bad(e, param, "%s must be a string", param);
    }
    return 0;
}

void api_tool_append(json_t **tools, const char *name, json_t *desc, json_t *schema) {
    json_t *fn = json_pack("{s:s,s:O}", "name", name, "parameters", schema);
    if (json_is_string(desc)) json_object_set(fn, "description", desc);
    if (!*tools) *tools = json_array();
    json_array_append_new(*tools, json_pack("{s:s,s:o}", "type", "function", "function", fn));
}

int api_tool_choice_name(struct run_params *p, const char *name, char *buf, size_t cap, struct api_err *e) {
    if (!name || !*name || strlen(name) >= cap)
        return api_bad(e, "tool_choice.name", "tool_choice.name must name one of the tools");
    snprintf(buf, cap, "%s", name);
    p->tool_mode = RUN_TOOLS_REQUIRED;
    p->tool_name = buf;
    p->tool_param = "tool_choice.name";
    return 0;
}
