// engine.h — the public handles of frink.h as the engine's files see them.
#ifndef FRINK_ENGINE_H
#define FRINK_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frink.h"
#include "model/forward.h"
#include "state/seq.h"

struct gguf_file;
struct grammar_vocab;
struct model;
struct tokenizer;
struct pool;
struct prefix_cache;

struct frink_model {
    struct gguf_file *f;       // the file (owned by m when the weights are bound, else by us)
    struct model *m;           // NULL: vocab_only
    struct tokenizer *tok;     // NULL: no_tokenizer
    char arch[64], name[128];
    char *chat_template;       // NULL when the file has none
    struct frink_layer_desc {  // frink_model_layer's feature names, built at open
        char *features;
    } *layer_info;
    int n_layer_info;
    // The trie of the vocabulary's pieces that grammars mask with (grammar_api.c): built by the
    // first grammar on the model, under vocab_lock, shared by every later one, freed with the
    // model. NULL until then.
    pthread_mutex_t vocab_lock;
    struct grammar_vocab *vocab;
};

struct frink_context {
    const frink_model *fm;
    frink_context_params p;
    struct pool *pool;
    struct exec *ex;
    struct prefix_cache *pc;   // NULL: no prefix cache
    struct seq_opts so;        // for every sequence of the context
    frink_seq *seqs;           // the live sequences (freed with the context)
    int n_seqs;
    uint64_t decode_clock;     // frink_decode's calls so far (marks the sequences a call counted)
};

struct frink_seq {
    frink_context *c;
    struct seq *s;
    frink_seq *prev, *next;
    uint64_t mark;             // frink_decode's call that counted pending
    int pending;               // tokens of that batch extending this sequence (-1: room checked)
};

struct frink_batch {
    int cap, n, n_logits;
    struct exec_tok *tok;      // [cap]
    frink_seq **seq;           // [cap]
    int *row;                  // [cap] row of each token's logits, -1 when not asked
    float *logits;             // [logits_rows][V]
    size_t logits_rows;
    int V;
    bool decoded;              // logits valid; the next add starts a new batch
};

#endif
