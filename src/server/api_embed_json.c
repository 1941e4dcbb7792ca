// api_embed_json.c — the JSON of /v1/embeddings and /v1/rerank that needs no server: reading
// an "input" in any of OpenAI's shapes into token lists, a rerank pair's tokens as the
// reference builds them, base64 of float32, the sorted rerank results. Its own file so that
// tests/test_server_json.c links it alone (errors are a param and a message, not an api_err).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_embed.h"

void embed_items_free(struct embed_items *it) {
    for (int i = 0; i < it->n; i++) free(it->ids[i]);
    free(it->ids);
    free(it->len);
    memset(it, 0, sizeof *it);
}

// Appends one item (ids owned by it afterwards, may be NULL when n is 0).
static void items_push(struct embed_items *it, frink_token *ids, int n) {
    it->ids[it->n] = ids;
    it->len[it->n++] = n;
}

// A string tokenized as the reference's server tokenizes embedding inputs (special tokens
// added and parsed). Returns 0, or -1 with msg filled.
static int tokenize_text(const frink_model *m, const char *s, size_t len, frink_token **ids, int *n, char *msg,
                         size_t mcap) {
    size_t k = 0;
    unsigned fl = FRINK_TOKENIZE_ADD_SPECIAL | FRINK_TOKENIZE_PARSE_SPECIAL;
    if (frink_tokenize(m, s, len, fl, ids, &k)) return snprintf(msg, mcap, "tokenizing failed: %s", frink_errmsg()), -1;
    *n = (int)k;
    return 0;
}

// An array of token ids (every element an integer in the vocabulary) into a malloc'ed list.
static int read_ids(const frink_model *m, json_t *a, const char *param, frink_token **ids, int *n, char *msg,
                    size_t mcap) {
    size_t k = json_array_size(a);
    int V = frink_model_n_vocab(m);
    *ids = malloc((k ? k : 1) * sizeof **ids);
    for (size_t i = 0; i < k; i++) {
        json_t *t = json_array_get(a, i);
        json_int_t v = json_is_integer(t) ? json_integer_value(t) : -1;
        if (!json_is_integer(t) || v < 0 || v >= V) {
            free(*ids);
            *ids = NULL;
            if (!json_is_integer(t)) return snprintf(msg, mcap, "'%s[%zu]' must be a token id (an integer)", param, i), -1;
            return snprintf(msg, mcap, "'%s[%zu]': token id %lld is out of range (the vocabulary has %d tokens)", param, i,
                            (long long)v, V),
                   -1;
        }
        (*ids)[i] = (frink_token)v;
    }
    *n = (int)k;
    return 0;
}

int embed_read_input(const frink_model *m, json_t *input, int max_items, int n_ctx, struct embed_items *out,
                     char *param, size_t pcap, char *msg, size_t mcap) {
    memset(out, 0, sizeof *out);
    snprintf(param, pcap, "input");
    if (!input || json_is_null(input)) return snprintf(msg, mcap, "'input' is required (a string, an array of strings or of token ids)"), -1;
    // One item (a string, or an array of ids) or an array of items.
    bool one = json_is_string(input) || (json_is_array(input) && json_array_size(input) && json_is_integer(json_array_get(input, 0)));
    if (!one && !json_is_array(input)) return snprintf(msg, mcap, "'input' must be a string, an array of strings, an array of token ids or an array of token-id arrays"), -1;
    size_t k = one ? 1 : json_array_size(input);
    if (k == 0) return snprintf(msg, mcap, "'input' is empty: give at least one item"), -1;
    if (k > (size_t)max_items)
        return snprintf(msg, mcap, "'input' has %zu items, more than the %d one request may embed", k, max_items), -1;
    out->ids = calloc(k, sizeof *out->ids);
    out->len = calloc(k, sizeof *out->len);
    for (size_t i = 0; i < k; i++) {
        json_t *v = one ? input : json_array_get(input, i);
        if (!one) snprintf(param, pcap, "input[%zu]", i);
        frink_token *ids = NULL;
        int n = 0, rc;
        if (json_is_string(v)) rc = tokenize_text(m, json_string_value(v), json_string_length(v), &ids, &n, msg, mcap);
        else if (json_is_array(v)) rc = read_ids(m, v, param, &ids, &n, msg, mcap);
        else rc = (snprintf(msg, mcap, "'%s' must be a string or an array of token ids", param), -1);
        if (!rc && n == 0) rc = (snprintf(msg, mcap, "'%s': input content cannot be empty", param), -1);
        if (!rc && n > n_ctx)
            rc = (snprintf(msg, mcap, "'%s' has %d tokens, more than the context of %d tokens", param, n, n_ctx), -1);
        items_push(out, ids, n);
        if (rc) return embed_items_free(out), -1;
    }
    return 0;
}

// Appends the ids of text (no specials added) to *ids / *n, growing the list.
static int append_text(const frink_model *m, const char *s, frink_token **ids, int *n, char *msg, size_t mcap) {
    frink_token *t = NULL;
    size_t k = 0;
    if (frink_tokenize(m, s, strlen(s), 0, &t, &k)) return snprintf(msg, mcap, "tokenizing failed: %s", frink_errmsg()), -1;
    frink_token *g = realloc(*ids, ((size_t)*n + k + 4) * sizeof *g);
    if (!g) return frink_free(t), snprintf(msg, mcap, "out of memory"), -1;
    memcpy(g + *n, t, k * sizeof *t);
    *ids = g;
    *n += (int)k;
    frink_free(t);
    return 0;
}

// True when the file's boolean `key` is true.
static bool meta_true(const frink_model *m, const char *key) {
    const char *v = frink_model_meta(m, key);
    return v && !strcmp(v, "true");
}

int embed_rerank_tokens(const frink_model *m, const char *query, const char *doc, frink_token **ids, int *n, char *msg,
                        size_t mcap) {
    *ids = NULL;
    *n = 0;
    const char *tmpl = frink_model_meta(m, "tokenizer.chat_template.rerank");
    if (tmpl) {
        // "{query}" and "{document}" replaced, then tokenized with specials parsed (none added)
        size_t cap = strlen(tmpl) + 1, len = 0;
        char *p = malloc(cap);
        for (const char *s = tmpl; *s;) {
            const char *put = NULL;
            size_t skip = 1;
            if (!strncmp(s, "{query}", 7)) put = query, skip = 7;
            else if (!strncmp(s, "{document}", 10)) put = doc, skip = 10;
            size_t k = put ? strlen(put) : 1;
            if (len + k + 1 > cap) p = realloc(p, cap = 2 * (len + k + 1));
            memcpy(p + len, put ? put : s, k);
            len += k;
            s += skip;
        }
        p[len] = 0;
        size_t k = 0;
        frink_status st = frink_tokenize(m, p, len, FRINK_TOKENIZE_PARSE_SPECIAL, ids, &k);
        free(p);
        if (st) return snprintf(msg, mcap, "tokenizing failed: %s", frink_errmsg()), -1;
        *n = (int)k;
        return 0;
    }
    // BOS? query EOS? SEP? document EOS?, as the reference's format_prompt_rerank
    frink_token eos = frink_token_eos(m), sep = -1;
    const char *sv = frink_model_meta(m, "tokenizer.ggml.seperator_token_id");
    if (sv) sep = atoi(sv);
    if (eos < 0) eos = sep;
    bool add_eos = meta_true(m, "tokenizer.ggml.add_eos_token") && eos >= 0;
    // (the reference's default add_sep is true for WordPiece vocabularies: [CLS] query [SEP] doc)
    const char *model = frink_model_meta(m, "tokenizer.ggml.model");
    bool sep_default = model && !strcmp(model, "bert");
    bool add_sep = (frink_model_meta(m, "tokenizer.ggml.add_sep_token") ? meta_true(m, "tokenizer.ggml.add_sep_token") : sep_default) &&
                   sep >= 0;
    *ids = malloc(4 * sizeof **ids);
    if (frink_model_adds_bos(m) && frink_token_bos(m) >= 0) (*ids)[(*n)++] = frink_token_bos(m);
    if (append_text(m, query, ids, n, msg, mcap)) return free(*ids), *ids = NULL, -1;
    if (add_eos) (*ids)[(*n)++] = eos;
    if (add_sep) (*ids)[(*n)++] = sep;
    if (append_text(m, doc, ids, n, msg, mcap)) return free(*ids), *ids = NULL, -1;
    if (add_eos) (*ids)[(*n)++] = eos;
    return 0;
}

char *embed_base64(const float *v, int n) {
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const unsigned char *b = (const unsigned char *)v; // little-endian float32: the host's order on x86-64
    size_t len = (size_t)n * sizeof(float), o = 0;
    char *s = malloc((len + 2) / 3 * 4 + 1);
    for (size_t i = 0; i < len; i += 3) {
        unsigned x = (unsigned)b[i] << 16 | (i + 1 < len ? (unsigned)b[i + 1] << 8 : 0) | (i + 2 < len ? b[i + 2] : 0);
        s[o++] = tab[x >> 18 & 63];
        s[o++] = tab[x >> 12 & 63];
        s[o++] = i + 1 < len ? tab[x >> 6 & 63] : '=';
        s[o++] = i + 2 < len ? tab[x & 63] : '=';
    }
    s[o] = 0;
    return s;
}

json_t *embed_rerank_results(const float *score, int n, int top_n, json_t *docs) {
    int *order = malloc((size_t)(n ? n : 1) * sizeof *order);
    for (int i = 0; i < n; i++) order[i] = i;
    // Insertion sort, stable: ties keep the documents' order (std::sort in the reference is not
    // stable; frink's answer does not depend on it).
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && score[order[j]] > score[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    json_t *res = json_array();
    for (int i = 0; i < n && i < top_n; i++) {
        json_t *r = json_pack("{s:i, s:f}", "index", order[i], "relevance_score", (double)score[order[i]]);
        if (docs) json_object_set_new(r, "document", json_pack("{s:O}", "text", json_array_get(docs, (size_t)order[i])));
        json_array_append_new(res, r);
    }
    free(order);
    return res;
}
