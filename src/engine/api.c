// api.c — the public objects of frink.h over the engine's modules: a model
// (GGUF file, bound weights, tokenizer), a context (thread pool, executor,
// prefix cache, its sequences), sequences, batches and samplers.
//
// Everything here validates at the boundary (handles from another context,
// ids out of range, a full context) and returns a status with a message; the
// modules below trust their inputs.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/gguf.h"
#include "core/pool.h"
#include "engine/engine.h"
#include "grammar/grammar.h"
#include "model/arch.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/path.h"
#include "model/replay.h"
#include "model/shape.h"
#include "state/seq.h"
#include "state/state.h"
#include "quant/quant.h"
#include "quant/types.h"
#include "text/sampler.h"
#include "text/tokenizer.h"

extern const unsigned char frink_default_model_data[];
extern const unsigned char frink_default_model_end[];

// ---- small things -----------------------------------------------------------------

void frink_free(void *p) { free(p); }

const char *frink_version(void) { return "0.1.0"; }

const char *frink_arch_name(int i, const char **refused) {
    const struct arch_info *a = arch_at(i);
    if (refused) *refused = a ? a->refused : NULL;
    return a ? a->name : NULL;
}

// ---- models -----------------------------------------------------------------------

static frink_status layer_info_build(frink_model *fm);

frink_model_params frink_model_default_params(void) { return (frink_model_params){0}; }

frink_status frink_model_open(const frink_model_params *p, frink_model **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_model_open: no place for the result");
    *out = NULL;
    frink_model_params d = frink_model_default_params();
    if (!p) p = &d;
    if (p->vocab_only && p->no_tokenizer) return frink_fail(FRINK_ERR_ARG, "a model with neither weights nor tokenizer");
    bool file_only = p->file_only, vocab_only = p->vocab_only || file_only;
    frink_model *fm = calloc(1, sizeof *fm);
    if (!fm) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&fm->vocab_lock, NULL);
    const char *what = p->path ? p->path : "embedded model";
    frink_status st;
    struct gguf_file *f = NULL;
    if (p->path) st = gguf_open(p->path, &f);
    else st = gguf_parse(frink_default_model_data, (size_t)(frink_default_model_end - frink_default_model_data), &f);
    if (st) goto fail;
    if (!p->no_tokenizer && !file_only && (st = tokenizer_load(f, &fm->tok))) goto fail;
    if (vocab_only) {
        fm->f = f;
    } else {
        struct model_load_opts lo = {.allow_unread = p->allow_unread, .keep_layout = p->keep_layout, .device = p->device};
        if ((st = model_load(f, &lo, &fm->m))) goto fail;
        fm->f = f; // a view: fm->m owns the file (model_free closes it)
        if ((st = layer_info_build(fm))) goto fail;
        if (fm->tok && tokenizer_n_vocab(fm->tok) > fm->m->hp.n_vocab) {
            st = frink_fail(FRINK_ERR_FORMAT, "the tokenizer has %d tokens but the model's embedding only %d",
                            tokenizer_n_vocab(fm->tok), fm->m->hp.n_vocab);
            goto fail;
        }
    }
    gguf_get_str(fm->f, "general.architecture", fm->arch, sizeof fm->arch);
    gguf_get_str(fm->f, "general.name", fm->name, sizeof fm->name);
    const struct gguf_kv *ct = gguf_find(fm->f, "tokenizer.chat_template");
    if (ct && ct->type == GGUF_VT_STRING) {
        if (!(fm->chat_template = malloc(ct->v.str.len + 1))) {
            st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
            goto fail;
        }
        memcpy(fm->chat_template, ct->v.str.ptr, ct->v.str.len);
        fm->chat_template[ct->v.str.len] = 0;
    }
    *out = fm;
    return FRINK_OK;
fail:
    // model_load leaves the file to the caller when it fails; once it succeeded, the model owns it.
    if (!fm->m) gguf_close(f);
    fm->f = NULL;
    frink_fail_ctx(st, "%s: ", what);
    frink_model_free(fm);
    return st;
}

void frink_model_free(frink_model *fm) {
    if (!fm) return;
    grammar_vocab_free(fm->vocab);
    pthread_mutex_destroy(&fm->vocab_lock);
    tokenizer_free(fm->tok);
    if (fm->m) model_free(fm->m);
    else gguf_close(fm->f);
    free(fm->chat_template);
    if (fm->layer_info) {
        for (int i = 0; i < fm->n_layer_info; i++) free(fm->layer_info[i].features);
        free(fm->layer_info);
    }
    free(fm);
}

const char *frink_model_arch(const frink_model *fm) { return fm->arch; }
const char *frink_model_name(const frink_model *fm) { return fm->name; }
int frink_model_n_vocab(const frink_model *fm) { return fm->m ? fm->m->hp.n_vocab : fm->tok ? tokenizer_n_vocab(fm->tok) : 0; }
int frink_model_n_ctx_train(const frink_model *fm) {
    if (fm->m) return fm->m->hp.n_ctx_train;
    char key[96];
    snprintf(key, sizeof key, "%s.context_length", fm->arch);
    uint32_t v = 0;
    return gguf_get_u32(fm->f, key, &v) ? 0 : (int)v;
}
int frink_model_n_embd(const frink_model *fm) { return fm->m ? fm->m->hp.n_embd : 0; }
int frink_model_n_layer(const frink_model *fm) { return fm->m ? fm->m->hp.n_layer : 0; }
uint64_t frink_model_bytes_per_token(const frink_model *fm) { return fm->m ? model_weight_bytes(fm->m) : 0; }

uint64_t frink_model_size(const frink_model *fm) {
    uint64_t b = 0;
    for (uint64_t i = 0; i < fm->f->n_tensors; i++) b += fm->f->tensors[i].nbytes;
    return b;
}

uint64_t frink_model_n_params(const frink_model *fm) {
    uint64_t n = 0;
    for (uint64_t i = 0; i < fm->f->n_tensors; i++) {
        const struct gguf_tensor *t = &fm->f->tensors[i];
        uint64_t e = 1;
        for (uint32_t d = 0; d < GGUF_MAX_DIMS; d++) e *= (uint64_t)t->ne[d];
        n += e;
    }
    return n;
}

const char *frink_model_chat_template(const frink_model *fm) { return fm->chat_template; }

const char *frink_model_meta(const frink_model *fm, const char *key) {
    static _Thread_local char buf[4096];
    const struct gguf_kv *kv = key ? gguf_find(fm->f, key) : NULL;
    if (!kv) return NULL;
    switch (kv->type) {
    case GGUF_VT_STRING: {
        size_t n = kv->v.str.len < sizeof buf - 1 ? (size_t)kv->v.str.len : sizeof buf - 1;
        memcpy(buf, kv->v.str.ptr, n);
        buf[n] = 0;
        break;
    }
    case GGUF_VT_ARRAY:
        snprintf(buf, sizeof buf, "[%" PRIu64 " x %s]", kv->v.arr.n, gguf_vtype_name(kv->v.arr.type));
        break;
    case GGUF_VT_FLOAT32:
    case GGUF_VT_FLOAT64: snprintf(buf, sizeof buf, "%.9g", kv->v.f64); break;
    case GGUF_VT_BOOL: snprintf(buf, sizeof buf, "%s", kv->v.u64 ? "true" : "false"); break;
    case GGUF_VT_INT8:
    case GGUF_VT_INT16:
    case GGUF_VT_INT32:
    case GGUF_VT_INT64: snprintf(buf, sizeof buf, "%" PRId64, kv->v.i64); break;
    default: snprintf(buf, sizeof buf, "%" PRIu64, kv->v.u64); break;
    }
    return buf;
}

int frink_model_meta_count(const frink_model *fm) { return (int)fm->f->n_kv; }

const char *frink_model_meta_key(const frink_model *fm, int i, const char **type) {
    static _Thread_local char buf[1024];
    if (i < 0 || (uint64_t)i >= fm->f->n_kv) return NULL;
    const struct gguf_kv *kv = &fm->f->kv[i];
    size_t n = kv->key.len < sizeof buf - 1 ? (size_t)kv->key.len : sizeof buf - 1;
    memcpy(buf, kv->key.ptr, n);
    buf[n] = 0;
    if (type) *type = gguf_vtype_name(kv->type);
    return buf;
}

void frink_model_file_info(const frink_model *fm, frink_file_info *out) {
    *out = (frink_file_info){fm->f->version, fm->f->alignment, fm->f->n_kv, fm->f->n_tensors, fm->f->size};
}

frink_status frink_model_tensor(const frink_model *fm, int64_t i, frink_tensor_info *out) {
    if (i < 0 || (uint64_t)i >= fm->f->n_tensors)
        return frink_fail(FRINK_ERR_ARG, "tensor %" PRId64 " out of range (%" PRIu64 " tensors)", i, fm->f->n_tensors);
    const struct gguf_tensor *t = &fm->f->tensors[i];
    *out = (frink_tensor_info){t->name, ggml_type_name(t->type), (int)t->n_dims, {t->ne[0], t->ne[1], t->ne[2], t->ne[3]}, t->nbytes};
    return FRINK_OK;
}

int frink_model_unread(const frink_model *fm) { return fm->m ? fm->m->n_unread : 0; }

const char *frink_model_unread_name(const frink_model *fm, int i) {
    if (!fm->m || i < 0 || i >= fm->m->n_unread) return NULL;
    return fm->f->tensors[fm->m->unread[i]].name;
}

uint64_t frink_model_identity(const frink_model *fm) { return fm->m ? model_identity(fm->m) : 0; }

// ---- tokens ---------------------------------------------------------------------------

static frink_status need_tok(const frink_model *fm) {
    return fm->tok ? FRINK_OK : frink_fail(FRINK_ERR_STATE, "the model was opened without its tokenizer");
}

frink_token frink_token_bos(const frink_model *fm) { return fm->tok ? tokenizer_bos(fm->tok) : -1; }
frink_token frink_token_eos(const frink_model *fm) { return fm->tok ? tokenizer_eos(fm->tok) : -1; }
frink_token frink_token_eot(const frink_model *fm) { return fm->tok ? tokenizer_eot(fm->tok) : -1; }
bool frink_token_is_eog(const frink_model *fm, frink_token t) { return fm->tok && tokenizer_is_eog(fm->tok, t); }
bool frink_model_adds_bos(const frink_model *fm) { return fm->tok && tokenizer_add_bos(fm->tok); }

const char *frink_token_text(const frink_model *fm, frink_token t, size_t *len) {
    if (!fm->tok) return NULL;
    size_t l = 0;
    const char *s = tokenizer_token_text(fm->tok, t, &l);
    if (len) *len = s ? l : 0;
    return s;
}

frink_status frink_tokenize(const frink_model *fm, const char *text, size_t len, unsigned flags, frink_token **ids,
                            size_t *n) {
    if (!ids || !n) return frink_fail(FRINK_ERR_ARG, "frink_tokenize: no place for the result");
    *ids = NULL;
    *n = 0;
    frink_status st = need_tok(fm);
    if (st) return st;
    if (!text && len) return frink_fail(FRINK_ERR_ARG, "frink_tokenize: NULL text of %zu bytes", len);
    return tokenizer_encode(fm->tok, text ? text : "", len, flags & FRINK_TOKENIZE_ADD_SPECIAL,
                            flags & FRINK_TOKENIZE_PARSE_SPECIAL, ids, n);
}

char *frink_detokenize(const frink_model *fm, const frink_token *ids, size_t n, bool special) {
    if (!fm->tok) return NULL;
    return tokenizer_decode(fm->tok, ids, n, special);
}

int frink_token_piece(const frink_model *fm, frink_token t, char *buf, size_t cap, bool special) {
    if (!fm->tok) return -1;
    return tokenizer_piece(fm->tok, t, buf, cap, special);
}

// ---- contexts ------------------------------------------------------------------------

frink_context_params frink_context_default_params(void) {
    return (frink_context_params){.n_ctx = 4096, .n_batch = 512, .kv_type = FRINK_KV_F16};
}

frink_status frink_context_create(const frink_model *fm, const frink_context_params *p, frink_context **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_context_create: no place for the result");
    *out = NULL;
    frink_context_params d = frink_context_default_params();
    if (!p) p = &d;
    if (!fm->m) return frink_fail(FRINK_ERR_STATE, "the model was opened without its weights (vocab_only)");
    if (p->n_threads < 0 || p->n_threads > 1024) return frink_fail(FRINK_ERR_ARG, "n_threads must be in [0, 1024], got %d", p->n_threads);
    if (p->n_ctx < 1 || p->n_ctx > (1 << 24)) return frink_fail(FRINK_ERR_ARG, "n_ctx must be in [1, 16777216], got %d", p->n_ctx);
    if (p->n_batch < 1 || p->n_batch > (1 << 16)) return frink_fail(FRINK_ERR_ARG, "n_batch must be in [1, 65536], got %d", p->n_batch);
    if (p->n_seq_max < 0) return frink_fail(FRINK_ERR_ARG, "n_seq_max must be >= 0, got %d", p->n_seq_max);
    if (p->kv_type != FRINK_KV_F16 && p->kv_type != FRINK_KV_F32 && p->kv_type != FRINK_KV_Q8_0)
        return frink_fail(FRINK_ERR_ARG, "unknown KV cache type %d", (int)p->kv_type);
    if (p->gdn_chunk < 0 || p->gdn_chunk > 1024) return frink_fail(FRINK_ERR_ARG, "gdn_chunk must be in [0, 1024], got %d", p->gdn_chunk);
    if (p->ckpt_every < 0 || p->ckpt_keep_recent < 0 || p->ckpt_keep_marked < 0)
        return frink_fail(FRINK_ERR_ARG, "checkpoint spacing and counts must be >= 0");
    frink_context *c = calloc(1, sizeof *c);
    if (!c) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    c->fm = fm;
    c->p = *p;
    frink_status st = FRINK_OK;
    c->pool = pool_create(p->n_threads ? p->n_threads : pool_default_threads());
    if (!c->pool) {
        st = frink_fail(FRINK_ERR_NOMEM, "cannot start %d threads", p->n_threads);
        goto fail;
    }
    if ((st = exec_create(fm->m, c->pool, p->n_batch, &c->ex))) goto fail;
    if (p->gdn_chunk > 1) exec_set_gdn_chunk(c->ex, p->gdn_chunk);
    // The context's own kernel set: no other context, before or after, changes it.
    exec_set_kernels(c->ex, p->reference_kernels ? QUANT_ISA_SCALAR : quant_cpu_isa());
    seq_opts_default(&c->so);
    c->so.cap = p->n_ctx;
    if (p->ckpt_every) c->so.ckpt_every = p->ckpt_every;
    if (p->ckpt_keep_recent) c->so.ckpt_keep_recent = p->ckpt_keep_recent;
    if (p->ckpt_keep_marked) c->so.ckpt_keep_marked = p->ckpt_keep_marked;
    c->so.kv_type = (enum kv_type)p->kv_type;
    // A Q8_0 cache needs row lengths that are multiples of 32: try it now, naming the layer.
    struct seq *probe;
    struct seq_opts po = c->so;
    po.cap = 1;
    if ((st = seq_create_opts(model_seq_shape(fm->m), &po, &probe))) goto fail;
    seq_free(probe);
    if (p->prefix_cache_bytes && (st = prefix_cache_create(model_seq_shape(fm->m), p->prefix_cache_bytes, 64, &c->pc))) goto fail;
    *out = c;
    return FRINK_OK;
fail:
    frink_context_free(c);
    return st;
}

void frink_context_free(frink_context *c) {
    if (!c) return;
    while (c->seqs) frink_seq_free(c->seqs);
    prefix_cache_free(c->pc);
    exec_free(c->ex);
    pool_free(c->pool);
    free(c);
}

const frink_model *frink_context_model(const frink_context *c) { return c->fm; }
int frink_context_threads(const frink_context *c) { return pool_threads(c->pool); }
const char *frink_context_kernels(const frink_context *c) {
    return c->p.reference_kernels ? "reference" : quant_isa_name(exec_kernels(c->ex));
}
uint64_t frink_context_barriers(const frink_context *c) { return pool_barriers(c->pool); }

// ---- sequences -----------------------------------------------------------------------

static frink_status seq_wrap(frink_context *c, struct seq *s, frink_seq **out) {
    frink_seq *fs = calloc(1, sizeof *fs);
    if (!fs) {
        seq_free(s);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    fs->c = c;
    fs->s = s;
    fs->next = c->seqs;
    if (c->seqs) c->seqs->prev = fs;
    c->seqs = fs;
    c->n_seqs++;
    *out = fs;
    return FRINK_OK;
}

frink_status frink_seq_create(frink_context *c, frink_seq **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_seq_create: no place for the result");
    *out = NULL;
    if (c->p.n_seq_max && c->n_seqs >= c->p.n_seq_max)
        return frink_fail(FRINK_ERR_STATE, "the context already holds its n_seq_max = %d sequences", c->p.n_seq_max);
    struct seq *s;
    frink_status st = seq_create_opts(model_seq_shape(c->fm->m), &c->so, &s);
    if (st) return st;
    return seq_wrap(c, s, out);
}

void frink_seq_free(frink_seq *fs) {
    if (!fs) return;
    frink_context *c = fs->c;
    if (fs->prev) fs->prev->next = fs->next;
    else c->seqs = fs->next;
    if (fs->next) fs->next->prev = fs->prev;
    c->n_seqs--;
    seq_free(fs->s);
    free(fs);
}

void frink_seq_reset(frink_seq *fs) { seq_reset(fs->s); }
int frink_seq_len(const frink_seq *fs) { return fs->s->n_past; }
const frink_token *frink_seq_tokens(const frink_seq *fs) { return fs->s->tokens; }
size_t frink_seq_bytes(const frink_seq *fs) { return seq_bytes(fs->s); }

frink_status frink_seq_truncate(frink_seq *fs, int n, int *replayed) { return seq_truncate(fs->c->ex, fs->s, n, replayed); }

int frink_seq_restore_point(const frink_seq *fs, int n) {
    if (n < 0 || n > fs->s->n_past) return -1;
    return seq_restore_point(fs->s, n);
}

frink_status frink_seq_fork(const frink_seq *fs, frink_seq **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_seq_fork: no place for the result");
    *out = NULL;
    frink_context *c = fs->c;
    if (c->p.n_seq_max && c->n_seqs >= c->p.n_seq_max)
        return frink_fail(FRINK_ERR_STATE, "the context already holds its n_seq_max = %d sequences", c->p.n_seq_max);
    struct seq *s;
    frink_status st = seq_fork(fs->s, &s);
    if (!st && s->cap < c->p.n_ctx) st = seq_reserve(s, c->p.n_ctx);
    if (st) {
        if (s) seq_free(s);
        return st;
    }
    return seq_wrap(c, s, out);
}

frink_status frink_seq_checkpoint(frink_seq *fs) { return seq_checkpoint(fs->s, true); }
frink_status frink_seq_save(const frink_seq *fs, const char *path) { return slot_save(fs->s, path); }

frink_status frink_seq_load(frink_seq *fs, const char *path) {
    // Into a new sequence first, so that every refusal leaves fs as it was.
    struct seq_opts o = fs->c->so;
    o.cap = 1;
    struct seq *t;
    frink_status st = seq_create_opts(model_seq_shape(fs->c->fm->m), &o, &t);
    if (st) return st;
    int keep_errno = 0;
    if ((st = slot_load(t, path))) keep_errno = errno;
    else if (t->n_past > fs->c->p.n_ctx)
        st = frink_fail(FRINK_ERR_STATE, "'%s' holds %d tokens, more than the context's n_ctx = %d", path, t->n_past, fs->c->p.n_ctx);
    else st = seq_reserve(t, fs->c->p.n_ctx);
    if (st) {
        seq_free(t);
        errno = keep_errno;
        return st;
    }
    seq_free(fs->s);
    fs->s = t;
    return FRINK_OK;
}

static frink_status room(const frink_seq *fs, int more) {
    if (fs->s->n_past + (int64_t)more > fs->c->p.n_ctx)
        return frink_fail(FRINK_ERR_STATE, "the sequence is full: %d tokens + %d more exceed n_ctx = %d", fs->s->n_past, more,
                          fs->c->p.n_ctx);
    return FRINK_OK;
}

frink_status frink_seq_eval(frink_seq *fs, const frink_token *ids, int n, float *logits, unsigned flags) {
    if (n <= 0 || !ids) return frink_fail(FRINK_ERR_ARG, "no tokens to evaluate");
    frink_status st = room(fs, n);
    if (st) return st;
    return seq_append(fs->c->ex, fs->s, ids, n, logits, flags & FRINK_EVAL_ALL, flags & FRINK_EVAL_CHECKPOINT);
}

// ---- batches ------------------------------------------------------------------------------

frink_status frink_batch_create(int capacity, frink_batch **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_batch_create: no place for the result");
    *out = NULL;
    if (capacity < 1 || capacity > (1 << 24)) return frink_fail(FRINK_ERR_ARG, "batch capacity must be in [1, 16777216], got %d", capacity);
    frink_batch *b = calloc(1, sizeof *b);
    if (!b) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    b->cap = capacity;
    b->tok = malloc((size_t)capacity * sizeof *b->tok);
    b->seq = malloc((size_t)capacity * sizeof *b->seq);
    b->row = malloc((size_t)capacity * sizeof *b->row);
    if (!b->tok || !b->seq || !b->row) {
        frink_batch_free(b);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory for a batch of %d tokens", capacity);
    }
    *out = b;
    return FRINK_OK;
}

void frink_batch_free(frink_batch *b) {
    if (!b) return;
    free(b->tok);
    free(b->seq);
    free(b->row);
    free(b->logits);
    free(b);
}

void frink_batch_clear(frink_batch *b) {
    b->n = 0;
    b->n_logits = 0;
    b->decoded = false;
}

int frink_batch_size(const frink_batch *b) { return b->n; }

int frink_batch_add(frink_batch *b, frink_seq *s, frink_token t, bool want_logits) {
    if (b->decoded) frink_batch_clear(b);
    if (b->n >= b->cap) {
        frink_fail(FRINK_ERR_ARG, "the batch is full (%d tokens)", b->cap);
        return -1;
    }
    if (!s) {
        frink_fail(FRINK_ERR_ARG, "frink_batch_add: no sequence");
        return -1;
    }
    int i = b->n++;
    b->seq[i] = s;
    b->tok[i] = (struct exec_tok){s->s, t, want_logits};
    b->row[i] = want_logits ? b->n_logits++ : -1;
    return i;
}

frink_status frink_decode(frink_context *c, frink_batch *b) {
    if (b->decoded) return frink_fail(FRINK_ERR_STATE, "the batch was already decoded: clear it and add new tokens");
    if (b->n == 0) return frink_fail(FRINK_ERR_ARG, "the batch is empty");
    int V = c->fm->m->hp.n_vocab;
    // Every token's sequence must be of this context, and have room.
    for (int i = 0; i < b->n; i++)
        if (b->seq[i]->c != c) return frink_fail(FRINK_ERR_ARG, "token %d of the batch extends a sequence of another context", i);
    // Tokens per sequence in one pass (the mark says a sequence's count is this call's), then
    // the room of each sequence once.
    uint64_t now = ++c->decode_clock;
    for (int i = 0; i < b->n; i++) {
        frink_seq *s = b->seq[i];
        if (s->mark != now) s->mark = now, s->pending = 0;
        s->pending++;
    }
    for (int i = 0; i < b->n; i++) {
        frink_seq *s = b->seq[i];
        if (s->pending < 0) continue; // checked
        frink_status st = room(s, s->pending);
        if (st) return frink_fail_ctx(st, "token %d of the batch: ", i);
        s->pending = -1;
    }
    if ((size_t)b->n_logits > b->logits_rows) {
        float *l = realloc(b->logits, (size_t)b->n_logits * (size_t)V * sizeof(float));
        if (!l) return frink_fail(FRINK_ERR_NOMEM, "out of memory for %d rows of logits", b->n_logits);
        b->logits = l;
        b->logits_rows = (size_t)b->n_logits;
    }
    b->V = V;
    frink_status st = exec_batch(c->ex, b->tok, b->n, b->n_logits ? b->logits : NULL);
    b->decoded = st == FRINK_OK;
    return st;
}

const float *frink_batch_logits(const frink_batch *b, int i) {
    if (!b->decoded || i < 0 || i >= b->n || b->row[i] < 0) return NULL;
    return b->logits + (size_t)b->row[i] * (size_t)b->V;
}

// ---- the prefix cache ------------------------------------------------------------------------

frink_status frink_cache_store(frink_context *c, const frink_seq *s) {
    if (!c->pc) return FRINK_OK;
    if (s->c != c) return frink_fail(FRINK_ERR_ARG, "the sequence belongs to another context");
    return prefix_cache_put(c->pc, s->s);
}

static frink_status cache_lookup(frink_context *c, frink_seq *dst, const frink_token *prompt, int n, int max_len,
                                 int *n_prefix, int *n_replayed, bool replay) {
    if (!n_prefix) return frink_fail(FRINK_ERR_ARG, "frink_cache_lookup: no place for the result");
    *n_prefix = 0;
    if (n_replayed) *n_replayed = 0;
    if (dst->c != c) return frink_fail(FRINK_ERR_ARG, "the sequence belongs to another context");
    if (n < 0 || (n && !prompt)) return frink_fail(FRINK_ERR_ARG, "frink_cache_lookup: bad prompt");
    if (max_len > c->p.n_ctx) max_len = c->p.n_ctx;
    if (!c->pc) {
        seq_reset(dst->s);
        return FRINK_OK;
    }
    return prefix_cache_lookup(c->pc, replay ? c->ex : NULL, prompt, n, max_len, dst->s, n_prefix, n_replayed);
}

frink_status frink_cache_lookup(frink_context *c, frink_seq *dst, const frink_token *prompt, int n, int max_len,
                                int *n_prefix, int *n_replayed) {
    return cache_lookup(c, dst, prompt, n, max_len, n_prefix, n_replayed, true);
}

frink_status frink_cache_lookup_resume(frink_context *c, frink_seq *dst, const frink_token *prompt, int n, int max_len,
                                       int *n_prefix) {
    return cache_lookup(c, dst, prompt, n, max_len, n_prefix, NULL, false);
}

int frink_cache_entries(const frink_context *c) { return c->pc ? prefix_cache_entries(c->pc) : 0; }
size_t frink_cache_bytes(const frink_context *c) { return c->pc ? prefix_cache_bytes(c->pc) : 0; }

// ---- sampling ---------------------------------------------------------------------------------

struct frink_sampler {
    struct sampler *s;
    int V;
    frink_logit_bias *bias;
    int n_bias;
    frink_constraint con;
    bool has_con, greedy;
    float *work; // [V] the logits being transformed
};

frink_sampler_params frink_sampler_default_params(void) {
    frink_sampler_params sp;
    sampler_defaults(&sp);
    return sp;
}

frink_status frink_sampler_create(const frink_model *fm, const frink_sampler_params *p, frink_sampler **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_sampler_create: no place for the result");
    *out = NULL;
    frink_sampler_params d = frink_sampler_default_params();
    if (!p) p = &d;
    int V = frink_model_n_vocab(fm);
    if (p->n_logit_bias < 0 || (p->n_logit_bias && !p->logit_bias)) return frink_fail(FRINK_ERR_ARG, "bad logit bias list");
    for (int i = 0; i < p->n_logit_bias; i++) {
        if (p->logit_bias[i].token < 0 || p->logit_bias[i].token >= V)
            return frink_fail(FRINK_ERR_ARG, "logit bias for token %d, outside the vocabulary of %d", p->logit_bias[i].token, V);
        if (isnan(p->logit_bias[i].bias) || p->logit_bias[i].bias == INFINITY)
            return frink_fail(FRINK_ERR_ARG, "logit bias for token %d is %g (must be a number or -inf)", p->logit_bias[i].token,
                              p->logit_bias[i].bias);
    }
    if (isnan(p->presence_penalty) || isnan(p->frequency_penalty)) return frink_fail(FRINK_ERR_ARG, "a penalty is not a number");
    frink_sampler *s = calloc(1, sizeof *s);
    if (!s) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    frink_status st = sampler_create(p, V, &s->s);
    if (st) {
        free(s);
        return st;
    }
    s->V = V;
    s->work = malloc((size_t)V * sizeof(float));
    if (p->n_logit_bias) s->bias = malloc((size_t)p->n_logit_bias * sizeof *s->bias);
    if (!s->work || (p->n_logit_bias && !s->bias)) {
        frink_sampler_free(s);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    if (p->n_logit_bias) memcpy(s->bias, p->logit_bias, (size_t)p->n_logit_bias * sizeof *s->bias);
    s->n_bias = p->n_logit_bias;
    s->greedy = p->temp <= 0;
    *out = s;
    return FRINK_OK;
}

void frink_sampler_free(frink_sampler *s) {
    if (!s) return;
    sampler_free(s->s);
    free(s->bias);
    free(s->work);
    free(s);
}

void frink_sampler_set_constraint(frink_sampler *s, const frink_constraint *c) {
    s->has_con = c != NULL;
    if (c) s->con = *c;
}

void frink_sampler_accept(frink_sampler *s, frink_token t) { sampler_accept(s->s, t); }

static int argmax(const float *x, int n) {
    int b = 0;
    for (int i = 1; i < n; i++)
        if (x[i] > x[b]) b = i;
    return b;
}

frink_status frink_sampler_sample(frink_sampler *s, const float *logits, frink_token *out) {
    if (!out || !logits) return frink_fail(FRINK_ERR_ARG, "frink_sampler_sample: NULL argument");
    float *w = s->work;
    memcpy(w, logits, (size_t)s->V * sizeof(float));
    for (int i = 0; i < s->n_bias; i++) w[s->bias[i].token] += s->bias[i].bias;
    sampler_penalize(s->s, w);
    bool greedy = s->greedy;
    bool masked = false;
    if (s->has_con) {
        // Greedy: the argmax stands if the constraint allows it (it is then also the
        // argmax of the masked logits); otherwise, and always when drawing, mask all.
        if (!greedy || !s->con.allows || !s->con.allows(s->con.ud, argmax(w, s->V))) {
            s->con.mask(s->con.ud, w, s->V);
            masked = true;
        }
    }
    bool any = false;
    for (int i = 0; i < s->V && !any; i++) any = w[i] > -INFINITY;
    if (!any)
        return frink_fail(FRINK_ERR_STATE, masked ? "the constraint allows no token here" : "every token's logit is -inf (logit bias?)");
    frink_token t = sampler_pick(s->s, w);
    if (s->has_con && s->con.accept) s->con.accept(s->con.ud, t);
    sampler_accept(s->s, t);
    *out = t;
    return FRINK_OK;
}

// ---- layers ------------------------------------------------------------------------------------

// The feature strings of every layer, made at open (frink_model_layer then only reads).
static frink_status layer_info_build(frink_model *fm) {
    const struct model *m = fm->m;
    fm->layer_info = calloc((size_t)m->hp.n_layer, sizeof *fm->layer_info);
    if (!fm->layer_info) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    fm->n_layer_info = m->hp.n_layer;
    for (int il = 0; il < m->hp.n_layer; il++) {
        const struct layer *L = &m->layers[il];
        size_t n = path_features_str(L->feat, NULL, 0) + 1;
        if (!(fm->layer_info[il].features = malloc(n))) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
        path_features_str(L->feat, fm->layer_info[il].features, n);
    }
    return FRINK_OK;
}

frink_status frink_model_layer(const frink_model *fm, int layer, frink_layer_info *out) {
    if (!fm->m || layer < 0 || layer >= fm->m->hp.n_layer)
        return frink_fail(FRINK_ERR_ARG, "layer %d out of range (%d layers)", layer, fm->m ? fm->m->hp.n_layer : 0);
    const struct layer *L = &fm->m->layers[layer];
    *out = (frink_layer_info){L->path ? L->path->name : "none", path_kind_name(L), fm->layer_info[layer].features,
                              L->path_refused ? L->path_refused : ""};
    return FRINK_OK;
}

frink_status frink_model_features(const frink_model *fm, char *buf, size_t cap, size_t *len) {
    if (!fm->m) return frink_fail(FRINK_ERR_STATE, "the model was opened without its weights");
    size_t n = path_model_features_str(fm->m->feat, buf, cap);
    if (len) *len = n;
    return FRINK_OK;
}
