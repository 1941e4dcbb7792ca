// api_embed.h — /v1/embeddings and /v1/rerank: the JSON pieces that need no server
// (api_embed_json.c, tested alone by tests/test_server_json.c) and the handlers (api_embed.c).
#ifndef FRINK_SERVER_API_EMBED_H
#define FRINK_SERVER_API_EMBED_H

#include <jansson.h>
#include <stddef.h>

#include "frink.h"

// The inputs of one request: n token lists, each malloc'ed (ids[i] of len[i] tokens).
struct embed_items {
    frink_token **ids;
    int *len;
    int n;
};
void embed_items_free(struct embed_items *it);

// Reads an embeddings "input": a string, an array of token ids, an array of strings, an array
// of token-id arrays (strings tokenized with special tokens added and parsed, as the reference
// does). At most max_items items, each non-empty and at most n_ctx tokens. Returns 0, or -1
// with param ("input", "input[2]") and msg naming the item and why (out is then empty).
int embed_read_input(const frink_model *m, json_t *input, int max_items, int n_ctx, struct embed_items *out,
                     char *param, size_t pcap, char *msg, size_t mcap);

// A rerank pair's tokens as the reference's format_prompt_rerank: the file's
// tokenizer.chat_template.rerank with {query} and {document} replaced, else BOS (when the
// vocabulary adds one), query, EOS and SEP (when the file's add_eos / add_sep say so), the
// document, EOS. *ids is malloc'ed. Returns 0, or -1 with msg.
int embed_rerank_tokens(const frink_model *m, const char *query, const char *doc, frink_token **ids, int *n, char *msg,
                        size_t mcap);

// v[0..n) as float32 little-endian bytes in base64 (malloc'ed, NUL-terminated).
char *embed_base64(const float *v, int n);

// Rerank results: the top_n of score[0..n), highest first, each {index, relevance_score} and,
// when docs (the request's documents array) is given, "document": {"text": ...}.
json_t *embed_rerank_results(const float *score, int n, int top_n, json_t *docs);

#endif
