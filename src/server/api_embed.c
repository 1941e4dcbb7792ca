// api_embed.c — POST /v1/embeddings (and /embeddings) in OpenAI's shape, POST /v1/rerank (and
// /rerank) in the shape the reference's server answers (Jina's). Both are off unless the server
// was started with --embeddings / --reranking, as the reference's are: a 501 then says which
// flag. The inputs are read and validated here (every error a 400 naming the item), then
// embedded on the scheduler's context between steps (sched_embed: one frink_embed call).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/api_embed.h"
#include "server/api_util.h"
#include "server/sched.h"

// The most inputs one request may embed (documents one rerank may score).
#define SRV_EMBED_MAX_ITEMS 2048

// Every key of req must be one of known[0..n): anything else would be dropped unread.
static int check_keys(json_t *req, const char *const *known, size_t n, const char *what, struct api_err *e) {
    const char *k;
    json_t *v;
    json_object_foreach(req, k, v) {
        if (!api_str_in(k, known, n)) {
            api_err_set(e, 400, "invalid_request_error", k, "'%s' is not supported by %s", k, what);
            return -1;
        }
    }
    return 0;
}

// The items embedded under pooling p (normalize as common_embd_normalize) into *out
// (malloc'ed, n * dim floats). Returns 0, or -1 with e filled.
static int embed_run(struct srv *s, const struct embed_items *it, frink_pooling p, int normalize, float **out,
                     struct api_err *e) {
    int dim = frink_embed_size(s->model, p);
    frink_embed_input *in = malloc((size_t)it->n * sizeof *in);
    *out = malloc((size_t)it->n * (size_t)dim * sizeof(float));
    if (!in || !*out) {
        free(in);
        free(*out);
        *out = NULL;
        api_err_set(e, 500, "server_error", NULL, "out of memory for %d embeddings", it->n);
        return -1;
    }
    for (int i = 0; i < it->n; i++) in[i] = (frink_embed_input){it->ids[i], it->len[i]};
    frink_embed_params ep = {p, normalize};
    char msg[256];
    frink_status st = sched_embed(s->sched, in, it->n, &ep, *out, (size_t)it->n * (size_t)dim, msg, sizeof msg);
    free(in);
    if (!st) return 0;
    free(*out);
    *out = NULL;
    api_err_set(e, st == FRINK_ERR_ARG ? 400 : 500, st == FRINK_ERR_ARG ? "invalid_request_error" : "server_error", NULL,
                "embedding failed: %s", msg);
    return -1;
}

// The request's encoding_format (float or base64), dimensions (only the model's own) and
// embd_normalize (the reference's extension; default 2, euclidean). Returns 0 or -1.
static int embed_options(struct srv *s, json_t *req, bool *base64, int *normalize, struct api_err *e) {
    const char *fmt = NULL;
    if (api_get_str(req, "encoding_format", &fmt, e) < 0) return -1;
    if (fmt && strcmp(fmt, "float") && strcmp(fmt, "base64"))
        return api_bad(e, "encoding_format", "'encoding_format' must be \"float\" or \"base64\", got \"%s\"", fmt);
    *base64 = fmt && !strcmp(fmt, "base64");
    long dims = 0, norm = 2;
    int dim = frink_embed_size(s->model, (frink_pooling)s->pooling);
    if (api_get_int(req, "dimensions", 1, 1 << 20, &dims, e) < 0) return -1;
    if (dims && dims != dim)
        return api_bad(e, "dimensions",
                       "'dimensions' = %ld is not supported: the model's embeddings have %d dimensions, and frink does not "
                       "shorten them",
                       dims, dim);
    if (api_get_int(req, "embd_normalize", -1, 64, &norm, e) < 0) return -1;
    *normalize = (int)norm;
    const char *user = NULL; // an end-user id: it changes nothing about the vectors
    return api_get_str(req, "user", &user, e) < 0 ? -1 : 0;
}

// The 200 answer of both endpoints: {model (the request's, else the server's), object "list",
// usage, KEY: items} (items' reference is taken).
static void send_list(struct srv *s, json_t *req, struct http_resp *out, const char *key, json_t *items, int n_tok) {
    struct api_err e = {0};
    const char *model = NULL;
    api_get_str(req, "model", &model, &e);
    http_json(out, 200,
              json_pack("{s:s, s:s, s:{s:i, s:i}, s:o}", "model", model ? model : s->model_id, "object", "list", "usage",
                        "prompt_tokens", n_tok, "total_tokens", n_tok, key, items));
}

void api_embeddings(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    if (!s->cfg.embeddings)
        { http_error(out, r->api, 501, "not_supported_error", NULL,
                          "This server does not support embeddings. Start it with `--embeddings`"); return; }
    // The reference's answer for pooling none on the OpenAI endpoint; with frink it also says why
    // the pooling is none.
    if (s->pooling == FRINK_POOLING_NONE)
        { http_error(out, r->api, 400, "invalid_request_error", NULL,
                          "Pooling type 'none' is not OAI compatible. Please use a different pooling type (%s; start the "
                          "server with --pooling mean, cls or last)",
                          frink_model_pooling(s->model) == FRINK_POOLING_NONE ? "the model's pooling_type is none"
                                                                               : "the model's file names no pooling_type"); return; }
    json_t *req = api_parse_body(r, &e);
    if (!req) return api_err_send(&e, r->api, out);
    static const char *const known[] = {"input", "model", "encoding_format", "dimensions", "user", "embd_normalize"};
    bool base64 = false;
    int normalize = 2;
    struct embed_items it = {0};
    float *v = NULL;
    char param[64], msg[512];
    if (check_keys(req, known, sizeof known / sizeof *known, "/v1/embeddings", &e) || api_check_model(s, req, false, &e) ||
        embed_options(s, req, &base64, &normalize, &e))
        goto fail;
    if (embed_read_input(s->model, json_object_get(req, "input"), SRV_EMBED_MAX_ITEMS, s->n_ctx, &it, param, sizeof param,
                         msg, sizeof msg)) {
        api_err_set(&e, 400, "invalid_request_error", param, "%s", msg);
        goto fail;
    }
    if (embed_run(s, &it, (frink_pooling)s->pooling, normalize, &v, &e)) goto fail;
    int dim = frink_embed_size(s->model, (frink_pooling)s->pooling), n_tok = 0;
    json_t *data = json_array();
    for (int i = 0; i < it.n; i++) {
        const float *x = v + (size_t)i * dim;
        json_t *emb;
        if (base64) {
            char *b = embed_base64(x, dim);
            emb = json_string(b);
            free(b);
        } else {
            emb = json_array();
            for (int k = 0; k < dim; k++) json_array_append_new(emb, json_real(x[k]));
        }
        json_array_append_new(data, json_pack("{s:o, s:i, s:s}", "embedding", emb, "index", i, "object", "embedding"));
        n_tok += it.len[i];
    }
    send_list(s, req, out, "data", data, n_tok);
    free(v);
    embed_items_free(&it);
    json_decref(req);
    return;
fail:
    free(v);
    embed_items_free(&it);
    json_decref(req);
    api_err_send(&e, r->api, out);
}

// The documents of a rerank request tokenized as pairs with the query into *it. Returns 0 or -1.
static int rerank_items(struct srv *s, const char *query, json_t *docs, struct embed_items *it, struct api_err *e) {
    size_t n = json_array_size(docs);
    if (n > SRV_EMBED_MAX_ITEMS)
        return api_bad(e, "documents", "'documents' has %zu items, more than the %d one request may score", n,
                       SRV_EMBED_MAX_ITEMS);
    it->ids = calloc(n, sizeof *it->ids);
    it->len = calloc(n, sizeof *it->len);
    for (size_t i = 0; i < n; i++) {
        json_t *d = json_array_get(docs, i);
        char param[64], msg[256];
        snprintf(param, sizeof param, "documents[%zu]", i);
        if (!json_is_string(d)) return api_bad(e, param, "'%s' must be a string", param);
        if (embed_rerank_tokens(s->model, query, json_string_value(d), &it->ids[i], &it->len[i], msg, sizeof msg))
            return api_bad(e, param, "'%s': %s", param, msg);
        it->n++;
        if (it->len[i] == 0) return api_bad(e, param, "'%s': the pair has no tokens", param);
        if (it->len[i] > s->n_ctx)
            return api_bad(e, param, "'%s': the query and document are %d tokens, more than the context of %d tokens", param,
                           it->len[i], s->n_ctx);
    }
    return 0;
}

void api_rerank(struct srv *s, struct http_req *r, struct http_resp *out) {
    struct api_err e = {0};
    if (!s->cfg.embeddings || s->pooling != FRINK_POOLING_RANK)
        { http_error(out, r->api, 501, "not_supported_error", NULL,
                          "This server does not support reranking. Start it with `--reranking`"); return; }
    json_t *req = api_parse_body(r, &e);
    if (!req) return api_err_send(&e, r->api, out);
    static const char *const known[] = {"query", "documents", "top_n", "return_documents", "model"};
    struct embed_items it = {0};
    float *v = NULL;
    const char *query = NULL;
    json_t *docs = NULL;
    long top_n = -1;
    bool ret_docs = false;
    if (check_keys(req, known, sizeof known / sizeof *known, "/v1/rerank", &e) || api_check_model(s, req, false, &e) ||
        api_get_str(req, "query", &query, &e) < 0 || api_get_arr(req, "documents", &docs, &e) < 0 ||
        api_get_int(req, "top_n", 0, 1L << 30, &top_n, &e) < 0 || api_get_bool(req, "return_documents", &ret_docs, &e) < 0)
        goto fail;
    if (!query) {
        api_bad(&e, "query", "'query' is required (a string)");
        goto fail;
    }
    if (!docs || !json_array_size(docs)) {
        api_bad(&e, "documents", "'documents' must be a non-empty array of strings");
        goto fail;
    }
    if (rerank_items(s, query, docs, &it, &e) || embed_run(s, &it, FRINK_POOLING_RANK, -1, &v, &e)) goto fail;
    // The score is the head's first output, as the reference's send_rerank takes it.
    int dim = frink_embed_size(s->model, FRINK_POOLING_RANK), n_tok = 0;
    float *score = malloc((size_t)it.n * sizeof *score);
    for (int i = 0; i < it.n; i++) score[i] = v[(size_t)i * dim], n_tok += it.len[i];
    json_t *res = embed_rerank_results(score, it.n, top_n < 0 ? it.n : (int)top_n, ret_docs ? docs : NULL);
    free(score);
    send_list(s, req, out, "results", res, n_tok);
    free(v);
    embed_items_free(&it);
    json_decref(req);
    return;
fail:
    free(v);
    embed_items_free(&it);
    json_decref(req);
    api_err_send(&e, r->api, out);
}
