// sched.c — the scheduler thread: slots, continuous batching, prefix reuse.
//
// One thread owns the context. Each step it
//   1. finishes cancelled tasks (the client went away: its socket hung up, or the
//      connection released it) and runs pending slot operations (save/restore/erase);
//   2. moves queued tasks into idle slots, restoring the longest prefix of each prompt that
//      an idle slot (same cache salt) or the prefix cache holds;
//   3. builds one batch: the last sampled token of every decoding slot, then prompt chunks
//      of the prefilling slots, oldest first, up to the step budget (cfg.n_batch tokens), so
//      a long prompt never stalls the others for more than one step;
//   4. decodes it, samples each slot that produced logits, and publishes the text.
//
// Exactness: every sequence's logits are independent of what shares its steps (the
// library's batch invariance), each task's sampler is seeded by the request, and a prefix
// restored from a slot or the cache continues bit-identically — so with a seed a request's
// output does not depend on the load or on what the caches held.
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/sched.h"

static double mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ---- tasks -------------------------------------------------------------------------------

struct gen_task *gen_task_new(void) {
    struct gen_task *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    t->n_predict = -1;
    t->stop_index = -1;
    t->fd = -1;
    t->want_slot = -1;
    t->slot = -1;
    t->spec_n_max = t->spec_n_min = -1;
    t->spec_p_min = -1;
    t->sp = frink_sampler_default_params();
    atomic_init(&t->refs, 1);
    atomic_init(&t->cancel, false);
    return t;
}

void gen_task_release(struct gen_task *t) {
    if (!t || atomic_fetch_sub(&t->refs, 1) != 1) return;
    free(t->prompt);
    free(t->bias);
    for (int i = 0; i < t->n_stop; i++) free(t->stop[i]);
    free(t->stop);
    frink_grammar_free(t->grammar);
    free(t->grammar_trigger);
    free(t->text);
    free(t->toks);
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
    free(t);
}

void gen_task_cancel(struct gen_task *t) { atomic_store(&t->cancel, true); }

bool gen_task_wait(struct gen_task *t, size_t n_text, int n_toks, int timeout_ms) {
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += timeout_ms / 1000;
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&t->mu);
    while (t->finish == GEN_RUNNING && t->n_text == n_text && t->n_toks == n_toks) {
        if (pthread_cond_timedwait(&t->cv, &t->mu, &dl) == ETIMEDOUT) break;
    }
    bool news = t->finish != GEN_RUNNING || t->n_text != n_text || t->n_toks != n_toks;
    pthread_mutex_unlock(&t->mu);
    return news;
}

// Output, published under the task's lock.
static bool grow(void **p, size_t want, size_t *cap, size_t elem) {
    if (want <= *cap) return true;
    size_t nc = *cap ? *cap * 2 : 64;
    while (nc < want) nc *= 2;
    void *np = realloc(*p, nc * elem);
    if (!np) return false;
    *p = np;
    *cap = nc;
    return true;
}

static void task_publish(struct gen_task *t, const char *text, size_t len, const struct gen_tok *tok) {
    pthread_mutex_lock(&t->mu);
    if (len && grow((void **)&t->text, t->n_text + len + 1, &t->cap_text, 1)) {
        memcpy(t->text + t->n_text, text, len);
        t->n_text += len;
        t->text[t->n_text] = 0;
    }
    if (tok) {
        size_t cap = (size_t)t->cap_toks;
        if (grow((void **)&t->toks, (size_t)t->n_toks + 1, &cap, sizeof *t->toks)) {
            t->cap_toks = (int)cap;
            t->toks[t->n_toks++] = *tok;
        }
    }
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

static void task_finish(struct gen_task *t, enum gen_finish f, const char *err) {
    pthread_mutex_lock(&t->mu);
    if (t->finish == GEN_RUNNING) {
        t->finish = f;
        t->t_end = mono();
        if (err) snprintf(t->err, sizeof t->err, "%s", err);
    }
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

// ---- the scheduler -------------------------------------------------------------------------

// A state the prefix cache holds, as the server knows it: the cache is keyed by tokens only,
// so the salt that stored it is kept here, and a salted task only looks for prefixes its own
// salt stored (the lookup is bounded by that length).
#define SCHED_RECORDS 64
struct cache_record {
    uint64_t salt;
    frink_token *toks;
    int n;
    double used;
};

struct slot {
    int id;
    frink_seq *seq;
    struct gen_task *task;         // NULL: idle
    uint64_t salt;                 // of the task that last used it
    double used;                   // when it was last used (LRU choice)
    bool in_cache;                 // its state (as it is now) is stored in the prefix cache
    int n_fed;                     // prompt tokens evaluated so far
    bool decoding;                 // the prompt is done: one token per step
    frink_token last;              // decoding: the token to evaluate next
    int n_gen;                     // tokens sampled
    int n_prompt;
    frink_sampler *smp;
    frink_detok *dt;
    char *hold;                    // decoded text withheld (it may be the start of a stop string)
    size_t n_hold, cap_hold;
    char *out;                     // every byte generated (a lazy grammar's trigger is searched here)
    size_t n_out, cap_out, trig_from;
    bool g_active;                 // the grammar constrains the sampler now
    frink_token *feed;             // tokens written for the model (a forced trigger), evaluated as
    int n_feed, fed;               // a prompt is; fed of n_feed done
    int batch_index;               // the index of its logits in this step's batch (-1: none)
    bool ckpt_after;               // take a checkpoint after this step (the prompt's end)
    // Speculative decoding: the decoder of this slot's sequence (kept across tasks while their
    // parameters agree, so that a draft model keeps what the histories share) and the
    // parameters it was made with; the draft model's context; whether this task drafts; the
    // tokens of this step's verify rows in the batch (0: none); the task's counts.
    frink_spec *sp;
    frink_spec_params spp;
    frink_context *dc;
    bool spec;
    int n_spec;
    int draft_n, draft_acc;
};

enum slot_op_kind { OP_SAVE, OP_RESTORE, OP_ERASE, OP_EMBED };
struct slot_op {
    enum slot_op_kind kind;
    int slot;
    const char *path;
    // OP_EMBED: frink_embed's arguments (the slot is unused)
    const frink_embed_input *in;
    int n_in;
    const frink_embed_params *ep;
    float *out;
    size_t out_cap;
    frink_status st;
    int n_tokens;
    char msg[256];
    bool done;
    struct slot_op *next;
};

struct sched {
    struct srv *s;
    frink_context *c;
    frink_batch *b;
    int n_vocab;
    bool recurrent;                // the model has recurrent (Gated DeltaNet) layers
    pthread_t th;
    pthread_mutex_t mu;            // the queue, the ops, the slot table as others see it
    pthread_cond_t cv;             // work arrived
    pthread_cond_t op_cv;          // an op is done
    bool stopping;
    bool draining;                 // shutting down: every task is cancelled, none accepted
    struct gen_task **queue;       // FIFO of max_queue
    int q_head, q_len, q_cap;
    struct slot_op *ops;
    struct slot *slots;
    int n_slots;
    struct cache_record recs[SCHED_RECORDS];
    struct sched_stats st;
    frink_model *dm;               // -md: the draft model
    bool spec_solo;                // speculative steps run one slot at a time (frink_spec_step):
                                   // a chunked delta rule would evaluate a batch's rows otherwise
};

static int lcp(const frink_token *a, int na, const frink_token *b, int nb) {
    int n = na < nb ? na : nb, i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}

static void slot_clear_task(struct slot *sl) {
    frink_sampler_free(sl->smp);
    sl->smp = NULL;
    frink_detok_free(sl->dt);
    sl->dt = NULL;
    sl->n_hold = 0;
    sl->n_out = 0;
    sl->trig_from = 0;
    sl->g_active = false;
    free(sl->feed);
    sl->feed = NULL;
    sl->n_feed = sl->fed = 0;
    sl->task = NULL;
    sl->decoding = false;
    sl->batch_index = -1;
    sl->n_spec = 0;
}

// Ends a slot's task: what is withheld is released (unless a stop string matched), the
// sequence keeps its state for the next task (with a checkpoint at its end, so a follow-up
// that extends it resumes without replay).
static void slot_end(struct sched *q, struct slot *sl, enum gen_finish f, const char *err) {
    struct gen_task *t = sl->task;
    if (!t) return;
    if (f != GEN_STOP && f != GEN_CANCELLED && f != GEN_ERROR) {
        const char *p;
        size_t k;
        if (sl->dt && frink_detok_flush(sl->dt, &p, &k) == FRINK_OK && k) {
            if (grow((void **)&sl->hold, sl->n_hold + k, &sl->cap_hold, 1)) {
                memcpy(sl->hold + sl->n_hold, p, k);
                sl->n_hold += k;
            }
        }
        if (sl->n_hold) task_publish(t, sl->hold, sl->n_hold, NULL);
    }
    if (f != GEN_ERROR && frink_seq_len(sl->seq) > 0) frink_seq_checkpoint(sl->seq);
    pthread_mutex_lock(&t->mu);
    t->n_gen = sl->n_gen;
    t->draft_n = sl->draft_n;
    t->draft_accepted = sl->draft_acc;
    pthread_mutex_unlock(&t->mu);
    task_finish(t, f, err);
    pthread_mutex_lock(&q->mu);
    q->st.tasks_done++;
    if (f == GEN_CANCELLED) q->st.tasks_cancelled++;
    pthread_mutex_unlock(&q->mu);
    slot_clear_task(sl);
    sl->used = mono();
    gen_task_release(t);
}

// Whether the client hung up: the socket reports end of input or an error.
static bool client_gone(int fd) {
    if (fd < 0) return false;
    struct pollfd p = {.fd = fd, .events = POLLRDHUP};
    if (poll(&p, 1, 0) <= 0) return false;
    return (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

// Stores an idle slot's state in the prefix cache before the slot is given to another prompt.
static void slot_store(struct sched *q, struct slot *sl) {
    int n = frink_seq_len(sl->seq);
    if (sl->in_cache || n < 16 || !q->s->cfg.cache_bytes) return;
    if (frink_cache_store(q->c, sl->seq) != FRINK_OK) return;
    sl->in_cache = true;
    int victim = 0;
    for (int i = 0; i < SCHED_RECORDS; i++) {
        if (!q->recs[i].toks) {
            victim = i;
            break;
        }
        if (q->recs[i].used < q->recs[victim].used) victim = i;
    }
    struct cache_record *r = &q->recs[victim];
    frink_token *copy = malloc((size_t)n * sizeof *copy);
    if (!copy) return;
    free(r->toks);
    memcpy(copy, frink_seq_tokens(sl->seq), (size_t)n * sizeof *copy);
    *r = (struct cache_record){.salt = sl->salt, .toks = copy, .n = n, .used = mono()};
}

static bool spec_params_equal(const frink_spec_params *a, const frink_spec_params *b) {
    return a->kind == b->kind && a->draft_max == b->draft_max && a->draft_min == b->draft_min &&
           a->draft_p_min == b->draft_p_min && a->ngram_min == b->ngram_min && a->ngram_max == b->ngram_max &&
           a->fixed == b->fixed && a->draft_ctx == b->draft_ctx;
}

// Whether the slot's new task drafts, and its decoder: the server's parameters with the
// request's lengths. A grammar keeps a task on plain steps: a lazy one starts to constrain at a
// trigger found in the text between two samples, which a step of several samples would pass.
// Returns 0, or -1 (frink_errmsg set).
static int slot_spec_setup(struct sched *q, struct slot *sl) {
    struct gen_task *t = sl->task;
    sl->spec = false;
    sl->n_spec = sl->draft_n = sl->draft_acc = 0;
    frink_spec_params p = q->s->cfg.spec;
    if (p.kind == FRINK_SPEC_NONE || t->spec_n_max == 0 || t->grammar || t->n_predict == 0) return 0;
    if (t->spec_n_max > 0) p.draft_max = t->spec_n_max;
    if (t->spec_n_min >= 0) p.draft_min = t->spec_n_min;
    if (p.draft_min > p.draft_max) p.draft_min = p.draft_max; // the reference's clamp
    if (t->spec_p_min >= 0) p.draft_p_min = t->spec_p_min;
    p.draft_ctx = sl->dc;
    if (!sl->sp || !spec_params_equal(&p, &sl->spp)) {
        frink_spec_free(sl->sp);
        sl->sp = NULL;
        if (frink_spec_create(sl->seq, &p, &sl->sp)) return -1;
        sl->spp = p;
    }
    sl->spec = true;
    return 0;
}

// Puts t into an idle slot: the slot that shares the longest prefix (same salt), or the
// least recently used one; then the prefix cache, when it holds a longer prefix.
static void slot_assign(struct sched *q, struct gen_task *t) {
    struct slot *best = NULL;
    int best_n = -1;
    for (int i = 0; i < q->n_slots; i++) {
        struct slot *sl = &q->slots[i];
        if (sl->task || (t->want_slot >= 0 && i != t->want_slot)) continue;
        int n = sl->salt == t->salt && !t->no_reuse ? lcp(frink_seq_tokens(sl->seq), frink_seq_len(sl->seq), t->prompt, t->n_prompt) : 0;
        if (n > best_n || (n == best_n && sl->used < best->used)) {
            best = sl;
            best_n = n;
        }
    }
    struct slot *sl = best;
    int keep = best_n < t->n_prompt ? best_n : t->n_prompt - 1; // at least one token to evaluate
    int rec_n = 0;
    struct cache_record *rec = NULL;
    for (int i = 0; i < SCHED_RECORDS; i++) {
        struct cache_record *r = &q->recs[i];
        if (!r->toks || r->salt != t->salt || t->no_reuse) continue;
        int n = lcp(r->toks, r->n, t->prompt, t->n_prompt);
        if (n > rec_n) {
            rec_n = n;
            rec = r;
        }
    }
    if (rec_n > t->n_prompt - 1) rec_n = t->n_prompt - 1;
    // Nothing is evaluated here: a hybrid model resumes from the checkpoint at or before the
    // shared prefix, and the tokens after it are fed as prompt tokens of the coming steps, in
    // the step budget beside everyone else's (a replay inside this call would stall every
    // running request for as long as it takes).
    if (rec && rec_n > keep) {
        slot_store(q, sl);
        int np = 0;
        if (frink_cache_lookup_resume(q->c, sl->seq, t->prompt, t->n_prompt, rec_n, &np) != FRINK_OK)
            frink_seq_reset(sl->seq);
        rec->used = mono();
    } else {
        if (keep < frink_seq_len(sl->seq)) {
            slot_store(q, sl);
            int r = frink_seq_restore_point(sl->seq, keep);
            if (r < 0 || frink_seq_truncate(sl->seq, r, NULL) != FRINK_OK) frink_seq_reset(sl->seq);
            sl->in_cache = false;
        }
    }
    sl->salt = t->salt;
    sl->task = t;
    sl->n_fed = frink_seq_len(sl->seq);
    sl->n_prompt = t->n_prompt;
    sl->n_gen = 0;
    sl->decoding = false;
    sl->n_hold = 0;
    sl->batch_index = -1;
    sl->in_cache = false;
    t->slot = sl->id;
    t->n_cached = sl->n_fed;
    t->t_start = mono();
    pthread_mutex_lock(&q->mu);
    q->st.prompt_tokens += (uint64_t)t->n_prompt;
    q->st.cached_tokens += (uint64_t)sl->n_fed;
    if (sl->n_fed > 0) q->st.cache_hits++;
    else q->st.cache_misses++;
    pthread_mutex_unlock(&q->mu);

    const char *err = NULL;
    if (frink_sampler_create(q->s->model, &t->sp, &sl->smp) != FRINK_OK ||
        frink_detok_create(q->s->model, FRINK_DETOK_SPECIAL | FRINK_DETOK_CONTINUE, &sl->dt) != FRINK_OK) {
        err = frink_errmsg();
    }
    if (err) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", err);
        slot_end(q, sl, GEN_ERROR, msg);
        return;
    }
    sl->n_out = sl->trig_from = 0;
    sl->g_active = false;
    if (t->grammar && !t->grammar_trigger) {
        frink_constraint con = frink_grammar_constraint(t->grammar);
        frink_sampler_set_constraint(sl->smp, &con);
        sl->g_active = true;
    }
    // The penalties look at the recent prompt tokens too, as the reference's server does.
    int from = t->n_prompt - (t->sp.penalty_last_n > 0 ? t->sp.penalty_last_n : 0);
    if (from < 0) from = 0;
    for (int i = from; i < t->n_prompt; i++) frink_sampler_accept(sl->smp, t->prompt[i]);
    if (slot_spec_setup(q, sl)) {
        char msg[256];
        snprintf(msg, sizeof msg, "speculative decoding: %s", frink_errmsg());
        slot_end(q, sl, GEN_ERROR, msg);
    }
}

// Releases the longest prefix of the held text that cannot be the start of a stop string;
// ends the task when one matches. Returns true when it ended.
static bool slot_release_text(struct sched *q, struct slot *sl, const struct gen_tok *tok) {
    struct gen_task *t = sl->task;
    size_t cut = sl->n_hold;
    int hit = -1;
    size_t hit_at = sl->n_hold;
    for (int i = 0; i < t->n_stop; i++) {
        size_t sn = strlen(t->stop[i]);
        if (!sn) continue;
        const char *m = memmem(sl->hold, sl->n_hold, t->stop[i], sn);
        if (m && (size_t)(m - sl->hold) < hit_at) {
            hit_at = (size_t)(m - sl->hold);
            hit = i;
        }
    }
    if (hit >= 0) {
        task_publish(t, sl->hold, hit_at, tok);
        sl->n_hold = 0;
        pthread_mutex_lock(&t->mu);
        t->stop_index = hit;
        pthread_mutex_unlock(&t->mu);
        slot_end(q, sl, GEN_STOP, NULL);
        return true;
    }
    for (int i = 0; i < t->n_stop; i++) {
        size_t sn = strlen(t->stop[i]);
        for (size_t k = sn - 1 < sl->n_hold ? sn - 1 : sl->n_hold; k > 0; k--) {
            if (!memcmp(sl->hold + sl->n_hold - k, t->stop[i], k)) {
                if (sl->n_hold - k < cut) cut = sl->n_hold - k;
                break;
            }
        }
    }
    task_publish(t, sl->hold, cut, tok);
    memmove(sl->hold, sl->hold + cut, sl->n_hold - cut);
    sl->n_hold -= cut;
    return false;
}

// The log-probabilities of the raw logits (log-softmax), and the top alternatives.
static void fill_logprobs(struct sched *q, const float *logits, frink_token id, int top, struct gen_tok *g) {
    int nv = q->n_vocab;
    float mx = -INFINITY;
    for (int i = 0; i < nv; i++) mx = logits[i] > mx ? logits[i] : mx;
    double sum = 0;
    for (int i = 0; i < nv; i++) sum += exp((double)logits[i] - mx);
    float lse = mx + (float)log(sum);
    g->logprob = logits[id] - lse;
    g->n_top = 0;
    if (top > GEN_TOP_MAX) top = GEN_TOP_MAX;
    for (int i = 0; i < nv && top > 0; i++) {
        float v = logits[i];
        if (g->n_top == top && v <= logits[g->top_id[top - 1]]) continue;
        int j = g->n_top < top ? g->n_top++ : top - 1;
        while (j > 0 && logits[g->top_id[j - 1]] < v) {
            g->top_id[j] = g->top_id[j - 1];
            j--;
        }
        g->top_id[j] = i;
    }
    for (int i = 0; i < g->n_top; i++) g->top_lp[i] = logits[g->top_id[i]] - lse;
}

// A lazy grammar starts at its trigger: the text from the trigger's first byte on is given to it
// and every later token is constrained. Returns true when the task ended (the text after the
// trigger broke the grammar).
static bool slot_check_trigger(struct sched *q, struct slot *sl) {
    struct gen_task *t = sl->task;
    if (!t->grammar || sl->g_active || !t->grammar_trigger) return false;
    size_t tl = strlen(t->grammar_trigger);
    const char *m = sl->n_out > sl->trig_from ? memmem(sl->out + sl->trig_from, sl->n_out - sl->trig_from,
                                                       t->grammar_trigger, tl)
                                              : NULL;
    if (!m) {
        sl->trig_from = sl->n_out >= tl ? sl->n_out - tl + 1 : 0;
        return false;
    }
    size_t at = (size_t)(m - sl->out);
    if (frink_grammar_accept_text(t->grammar, sl->out + at, sl->n_out - at) != FRINK_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "the tool call broke its grammar: %s", frink_errmsg());
        slot_end(q, sl, GEN_ERROR, msg);
        return true;
    }
    frink_constraint con = frink_grammar_constraint(t->grammar);
    frink_sampler_set_constraint(sl->smp, &con);
    sl->g_active = true;
    return false;
}

// A token joins the output: its text (whole characters) is held, stop strings checked, a lazy
// grammar's trigger looked for. Returns true when the task ended.
static bool slot_take_token(struct sched *q, struct slot *sl, frink_token id, const struct gen_tok *g) {
    const char *p;
    size_t k = 0;
    if (frink_detok_push(sl->dt, id, &p, &k) == FRINK_OK && k) {
        if (grow((void **)&sl->hold, sl->n_hold + k, &sl->cap_hold, 1)) {
            memcpy(sl->hold + sl->n_hold, p, k);
            sl->n_hold += k;
        }
        if (sl->task->grammar_trigger && grow((void **)&sl->out, sl->n_out + k, &sl->cap_out, 1)) {
            memcpy(sl->out + sl->n_out, p, k);
            sl->n_out += k;
        }
    }
    if (slot_release_text(q, sl, g)) return true;
    return slot_check_trigger(q, sl);
}

// Writes the lazy grammar's trigger as the model's next tokens (evaluated in the next steps as a
// prompt is). Returns true when the task ended.
static bool slot_force_trigger(struct sched *q, struct slot *sl) {
    struct gen_task *t = sl->task;
    frink_token *ids = NULL;
    size_t n = 0;
    if (frink_tokenize(q->s->model, t->grammar_trigger, strlen(t->grammar_trigger), FRINK_TOKENIZE_PARSE_SPECIAL, &ids,
                       &n) != FRINK_OK ||
        n == 0 || frink_seq_len(sl->seq) + (int)n + 1 > q->s->n_ctx) {
        frink_free(ids);
        slot_end(q, sl, n ? GEN_CTX : GEN_ERROR, n ? NULL : "cannot write the tool call's opener");
        return true;
    }
    free(sl->feed);
    sl->feed = malloc(n * sizeof *sl->feed);
    if (!sl->feed) {
        frink_free(ids);
        slot_end(q, sl, GEN_ERROR, "out of memory");
        return true;
    }
    memcpy(sl->feed, ids, n * sizeof *ids);
    frink_free(ids);
    sl->n_feed = (int)n;
    sl->fed = 0;
    for (int i = 0; i < sl->n_feed; i++) {
        struct gen_tok g = {.id = sl->feed[i]};
        frink_sampler_accept(sl->smp, sl->feed[i]);
        sl->n_gen++;
        if (slot_take_token(q, sl, sl->feed[i], &g)) return true;
    }
    if (!sl->g_active) {
        slot_end(q, sl, GEN_ERROR, "the tool call's opener did not start its grammar");
        return true;
    }
    return false;
}

// A token sampled from logits: publish it, decide whether the slot goes on. n_seq: the tokens
// the sequence holds as plain decoding has it at this sample (a speculative step's sequence
// already holds the kept drafts after it).
static void slot_took(struct sched *q, struct slot *sl, frink_token id, const float *logits, int n_seq) {
    struct gen_task *t = sl->task;
    sl->n_gen++;
    if (!t->t_first) t->t_first = mono();
    pthread_mutex_lock(&q->mu);
    q->st.gen_tokens++;
    pthread_mutex_unlock(&q->mu);
    bool eog = frink_token_is_eog(q->s->model, id) && !t->ignore_eos;
    if (eog && t->grammar && !sl->g_active && t->grammar_force) {
        // A call is required and the turn would end without one: write the call's opener
        // instead, and go on under the grammar.
        if (slot_force_trigger(q, sl)) return;
        sl->decoding = false;
        return;
    }
    if (eog) {
        slot_end(q, sl, GEN_EOG, NULL);
        return;
    }
    struct gen_tok g = {.id = id};
    if (t->logprobs || t->top_logprobs) fill_logprobs(q, logits, id, t->top_logprobs, &g);
    if (slot_take_token(q, sl, id, &g)) return;
    if (t->grammar && frink_grammar_complete(t->grammar)) {
        // The grammar may end here; a model that would not end is still held to it: the next
        // sample allows end-of-generation only where the grammar may end, so nothing to do.
    }
    if (t->n_predict >= 0 && sl->n_gen >= t->n_predict) {
        slot_end(q, sl, GEN_LENGTH, NULL);
        return;
    }
    // The token just taken is the context's last when the sequence holds all the others: prompt
    // and reply then count n_ctx tokens, never more (it would never be evaluated).
    if (n_seq + 1 >= q->s->n_ctx) {
        slot_end(q, sl, GEN_CTX, NULL);
        return;
    }
    sl->decoding = true;
    sl->last = id;
}

// A slot produced logits: sample, publish, decide whether it goes on.
static void slot_sample(struct sched *q, struct slot *sl, const float *logits) {
    struct gen_task *t = sl->task;
    if (t->n_predict == 0) { // the prompt only (its state is kept for reuse)
        slot_end(q, sl, GEN_LENGTH, NULL);
        return;
    }
    frink_token id;
    if (frink_sampler_sample(sl->smp, logits, &id) != FRINK_OK) {
        char msg[256];
        snprintf(msg, sizeof msg, "sampling failed: %s", frink_errmsg());
        slot_end(q, sl, GEN_ERROR, msg);
        return;
    }
    slot_took(q, sl, id, logits, frink_seq_len(sl->seq));
}

// The tokens a speculative step may sample: what n_predict leaves, at most a step's worth.
static int slot_spec_room(const struct slot *sl) {
    int room = FRINK_SPEC_DRAFT_MAX + 1;
    if (sl->task->n_predict >= 0 && sl->task->n_predict - sl->n_gen < room) room = sl->task->n_predict - sl->n_gen;
    return room < 1 ? 1 : room;
}

// A speculative step's tokens, each through slot_took as plain decoding's samples, until the
// task ends; then its counts. before: the decoder's stats before the step.
static void slot_spec_took(struct sched *q, struct slot *sl, int n0, const frink_token *out, int n,
                           const frink_spec_stats *before) {
    frink_spec_stats st;
    frink_spec_get_stats(sl->sp, &st);
    sl->draft_n += (int)(st.drafted - before->drafted);
    sl->draft_acc += (int)(st.accepted - before->accepted);
    pthread_mutex_lock(&q->mu);
    q->st.drafted += st.drafted - before->drafted;
    q->st.accepted += st.accepted - before->accepted;
    pthread_mutex_unlock(&q->mu);
    struct gen_task *t = sl->task;
    for (int i = 0; i < n && sl->task == t && sl->decoding; i++) slot_took(q, sl, out[i], frink_spec_logits(sl->sp, i), n0 + 1 + i);
}

// A failed speculative step ends its task.
static void slot_spec_failed(struct sched *q, struct slot *sl) {
    char msg[256];
    snprintf(msg, sizeof msg, "speculative step failed: %s", frink_errmsg());
    slot_end(q, sl, GEN_ERROR, msg);
}

// The slots whose speculative steps run alone (spec_solo): one frink_spec_step each.
static void sched_spec_solo(struct sched *q) {
    for (int i = 0; i < q->n_slots; i++) {
        struct slot *sl = &q->slots[i];
        if (!sl->task || !sl->decoding || !sl->spec) continue;
        frink_token out[FRINK_SPEC_DRAFT_MAX + 1];
        frink_spec_stats before;
        frink_spec_get_stats(sl->sp, &before);
        int n = 0, n0 = frink_seq_len(sl->seq);
        double t0 = mono();
        frink_status st = frink_spec_step(sl->sp, sl->last, sl->smp, out, slot_spec_room(sl), &n);
        pthread_mutex_lock(&q->mu);
        q->st.steps++;
        q->st.decode_s += mono() - t0;
        pthread_mutex_unlock(&q->mu);
        if (st) slot_spec_failed(q, sl);
        else slot_spec_took(q, sl, n0, out, n, &before);
    }
}

static void run_ops(struct sched *q) {
    pthread_mutex_lock(&q->mu);
    struct slot_op *ops = q->ops;
    q->ops = NULL;
    pthread_mutex_unlock(&q->mu);
    for (struct slot_op *op = ops; op; op = op->next) {
        struct slot *sl = &q->slots[op->slot];
        if (op->kind == OP_EMBED) { // temporary sequences of its own: no slot is touched
            op->st = frink_embed(q->c, op->in, op->n_in, op->ep, op->out, op->out_cap);
            if (op->st) snprintf(op->msg, sizeof op->msg, "%s", frink_errmsg());
            continue;
        }
        if (sl->task) {
            op->st = FRINK_ERR_STATE;
            snprintf(op->msg, sizeof op->msg, "slot %d is busy", op->slot);
        } else if (op->kind == OP_SAVE) {
            op->st = frink_seq_save(sl->seq, op->path);
            if (op->st) snprintf(op->msg, sizeof op->msg, "%s", frink_errmsg());
        } else if (op->kind == OP_RESTORE) {
            op->st = frink_seq_load(sl->seq, op->path);
            if (op->st) snprintf(op->msg, sizeof op->msg, "%s", frink_errmsg());
            sl->salt = 0;
            sl->in_cache = false;
        } else {
            op->n_tokens = frink_seq_len(sl->seq); // what was erased
            frink_seq_reset(sl->seq);
            sl->salt = 0;
            sl->in_cache = false;
            op->st = FRINK_OK;
        }
        if (op->kind != OP_ERASE) op->n_tokens = frink_seq_len(sl->seq);
    }
    pthread_mutex_lock(&q->mu);
    for (struct slot_op *op = ops; op;) {
        struct slot_op *next = op->next;
        op->done = true;
        op = next;
    }
    pthread_cond_broadcast(&q->op_cv);
    pthread_mutex_unlock(&q->mu);
}

static int n_busy(const struct sched *q) {
    int n = 0;
    for (int i = 0; i < q->n_slots; i++) n += q->slots[i].task != NULL;
    return n;
}

// Waits for work: a queued task, a running slot, an op. Returns false when the scheduler stops;
// *draining: whether every task is to end now (sched_drain).
static bool sched_wait(struct sched *q, bool *draining) {
    pthread_mutex_lock(&q->mu);
    while (!q->stopping && !q->ops && !q->q_len && !n_busy(q)) pthread_cond_wait(&q->cv, &q->mu);
    bool stopping = q->stopping;
    *draining = q->draining;
    pthread_mutex_unlock(&q->mu);
    return !stopping;
}

// Cancelled or abandoned tasks leave first, running and queued: their slots are free for this
// step. Then queued tasks into idle slots, in arrival order.
static void sched_admit(struct sched *q, bool draining) {
    for (int i = 0; i < q->n_slots; i++) {
        struct slot *sl = &q->slots[i];
        if (sl->task && (draining || atomic_load(&sl->task->cancel) || client_gone(sl->task->fd)))
            slot_end(q, sl, GEN_CANCELLED, NULL);
    }
    pthread_mutex_lock(&q->mu);
    for (int k = 0; k < q->q_len;) {
        int at = (q->q_head + k) % q->q_cap;
        struct gen_task *t = q->queue[at];
        if (draining || atomic_load(&t->cancel) || client_gone(t->fd)) {
            for (int j = k; j + 1 < q->q_len; j++)
                q->queue[(q->q_head + j) % q->q_cap] = q->queue[(q->q_head + j + 1) % q->q_cap];
            q->q_len--;
            q->st.tasks_done++;
            q->st.tasks_cancelled++;
            task_finish(t, GEN_CANCELLED, NULL);
            gen_task_release(t);
        } else {
            k++;
        }
    }
    // The oldest task that can start: a task waiting for its own slot (id_slot) lets those
    // behind it that can take another go first.
    for (int k = 0; k < q->q_len && n_busy(q) < q->n_slots;) {
        struct gen_task *t = q->queue[(q->q_head + k) % q->q_cap];
        if (t->want_slot >= 0 && (t->want_slot >= q->n_slots || q->slots[t->want_slot].task)) {
            k++;
            continue;
        }
        for (int j = k; j > 0; j--) q->queue[(q->q_head + j) % q->q_cap] = q->queue[(q->q_head + j - 1) % q->q_cap];
        q->q_head = (q->q_head + 1) % q->q_cap;
        q->q_len--;
        pthread_mutex_unlock(&q->mu);
        slot_assign(q, t);
        pthread_mutex_lock(&q->mu);
    }
    pthread_mutex_unlock(&q->mu);
}

// The next chunk of a prefilling slot into the batch, at most *budget tokens (taken from it):
// its forced tokens after the prompt first, else the prompt. batch_index becomes the last
// token's row when the chunk ends what is to feed, -2 when more is left (fed this step).
// Returns the tokens added.
static int sched_feed(struct sched *q, struct slot *sl, int *budget) {
    if (sl->fed < sl->n_feed) { // forced tokens after the prompt
        int left = sl->n_feed - sl->fed, k = left < *budget ? left : *budget;
        for (int j = 0; j < k; j++) {
            bool last = sl->fed + j == sl->n_feed - 1;
            int at = frink_batch_add(q->b, sl->seq, sl->feed[sl->fed + j], last);
            if (last) sl->batch_index = at;
        }
        if (k < left) sl->batch_index = -2;
        sl->fed += k;
        *budget -= k;
        return k;
    }
    int left = sl->n_prompt - sl->n_fed, k = left < *budget ? left : *budget;
    // A recurrent model's state can only be resumed where a checkpoint was taken. The
    // prompt's chunk stops one token short of its end and takes one there, so that the
    // same prompt sent again (which must evaluate its last token for logits) resumes
    // without replay; the last token follows in the next step.
    if (q->recurrent && k == left && left > 1) {
        k--;
        sl->ckpt_after = true;
    }
    for (int j = 0; j < k; j++) {
        bool last = sl->n_fed + j == sl->n_prompt - 1;
        int at = frink_batch_add(q->b, sl->seq, sl->task->prompt[sl->n_fed + j], last);
        if (last) sl->batch_index = at;
    }
    if (k < left) sl->batch_index = -2; // fed this step, not done: skip in this loop
    sl->n_fed += k;
    *budget -= k;
    return k;
}

// One step's batch: a decode token per decoding slot, then prompt chunks, oldest first, up to
// the step budget. Returns the prompt tokens in it.
static int sched_batch(struct sched *q) {
    frink_batch_clear(q->b);
    int budget = q->s->cfg.n_batch, n_prefill = 0;
    for (int i = 0; i < q->n_slots; i++) {
        struct slot *sl = &q->slots[i];
        sl->batch_index = -1;
        sl->n_spec = 0;
        if (!sl->task || !sl->decoding) continue;
        if (!sl->spec) {
            sl->batch_index = frink_batch_add(q->b, sl->seq, sl->last, true);
            budget--;
            continue;
        }
        if (q->spec_solo) {
            sl->batch_index = -3; // after the batch, on its own
            continue;
        }
        // The pending token and its drafts, every row with logits (the batch has room for
        // every slot's longest step beyond the budget).
        const frink_token *toks;
        int nt;
        if (frink_spec_begin(sl->sp, sl->last, slot_spec_room(sl), &toks, &nt)) {
            slot_spec_failed(q, sl);
            continue;
        }
        for (int j = 0; j < nt; j++) {
            int at = frink_batch_add(q->b, sl->seq, toks[j], true);
            if (!j) sl->batch_index = at;
        }
        sl->n_spec = nt;
        budget -= nt;
    }
    for (;;) {
        struct slot *old = NULL;
        for (int i = 0; i < q->n_slots; i++) {
            struct slot *sl = &q->slots[i];
            if (sl->task && !sl->decoding && sl->batch_index == -1 && (!old || sl->task->t_start < old->task->t_start))
                old = sl;
        }
        if (!old || budget <= 0) break;
        n_prefill += sched_feed(q, old, &budget);
    }
    return n_prefill;
}

// Evaluates the batch, counts its time, then samples every slot whose last fed token has logits
// (and takes the checkpoints a prompt's end asks for). A failed decode fails every task in it.
static void sched_step(struct sched *q, int n_prefill) {
    double t0 = mono();
    frink_status st = frink_decode(q->c, q->b);
    double dt = mono() - t0;
    pthread_mutex_lock(&q->mu);
    q->st.steps++;
    if (n_prefill) q->st.prefill_s += dt;
    else q->st.decode_s += dt;
    pthread_mutex_unlock(&q->mu);
    if (st != FRINK_OK) {
        // The batch was validated first: nothing was evaluated. Fail every task in it.
        char msg[256];
        snprintf(msg, sizeof msg, "decode failed: %s", frink_errmsg());
        for (int i = 0; i < q->n_slots; i++)
            if (q->slots[i].task && q->slots[i].batch_index != -1 && q->slots[i].batch_index != -3)
                slot_end(q, &q->slots[i], GEN_ERROR, msg);
        return;
    }
    for (int i = 0; i < q->n_slots; i++) {
        struct slot *sl = &q->slots[i];
        if (sl->task && sl->ckpt_after) frink_seq_checkpoint(sl->seq);
        sl->ckpt_after = false;
        if (!sl->task || sl->batch_index < 0) continue;
        if (!sl->decoding && !q->recurrent && !sl->n_feed) frink_seq_checkpoint(sl->seq); // the prompt's end
        if (sl->n_spec) {
            const float *rows[FRINK_SPEC_DRAFT_MAX + 1];
            for (int j = 0; j < sl->n_spec; j++) rows[j] = frink_batch_logits(q->b, sl->batch_index + j);
            frink_token out[FRINK_SPEC_DRAFT_MAX + 1];
            frink_spec_stats before;
            frink_spec_get_stats(sl->sp, &before);
            int n = 0, n0 = frink_seq_len(sl->seq) - sl->n_spec;
            sl->n_spec = 0;
            if (frink_spec_finish(sl->sp, sl->smp, rows, out, &n)) slot_spec_failed(q, sl);
            else slot_spec_took(q, sl, n0, out, n, &before);
            continue;
        }
        const float *lg = frink_batch_logits(q->b, sl->batch_index);
        if (lg) slot_sample(q, sl, lg);
    }
}

// The scheduler thread: wait, run the ops, admit, build one batch, step; until stopped.
static void *sched_main(void *arg) {
    struct sched *q = arg;
    bool draining;
    while (sched_wait(q, &draining)) {
        run_ops(q);
        sched_admit(q, draining);
        int n_prefill = sched_batch(q);
        if (frink_batch_size(q->b)) sched_step(q, n_prefill);
        if (q->spec_solo) sched_spec_solo(q);
    }
    return NULL;
}

int sched_start(struct srv *s, char *err, size_t cap) {
    struct sched *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, cap, "out of memory");
        return -1;
    }
    q->s = s;
    q->n_slots = s->cfg.n_slots;
    q->n_vocab = frink_model_n_vocab(s->model);
    for (int i = 0; i < frink_model_n_layer(s->model); i++) {
        frink_layer_info li;
        if (frink_model_layer(s->model, i, &li) == FRINK_OK && strcmp(li.kind, "attention") && strcmp(li.kind, "mla"))
            q->recurrent = true;
    }
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = s->cfg.n_threads;
    cp.n_ctx = s->n_ctx;
    cp.n_batch = s->cfg.n_batch;
    cp.n_seq_max = q->n_slots;
    cp.kv_type = (frink_kv_type)s->cfg.kv_type;
    cp.prefix_cache_bytes = s->cfg.cache_bytes;
    cp.gdn_chunk = s->cfg.gdn_chunk;
    cp.reference_kernels = s->cfg.reference;
    // The prefix cache holds copies of slot states; it needs sequences of its own beyond the slots.
    cp.n_seq_max = 0;
    q->q_cap = s->cfg.max_queue > 0 ? s->cfg.max_queue : 1;
    q->queue = calloc((size_t)q->q_cap, sizeof *q->queue);
    q->slots = calloc((size_t)q->n_slots, sizeof *q->slots);
    if (!q->queue || !q->slots) {
        snprintf(err, cap, "out of memory");
        goto fail;
    }
    bool spec = s->cfg.spec.kind != FRINK_SPEC_NONE;
    // Each slot's verify rows may go beyond the step budget: room for every slot's longest step.
    int cap_b = s->cfg.n_batch + q->n_slots * (spec ? FRINK_SPEC_DRAFT_MAX + 1 : 1);
    if (frink_context_create(s->model, &cp, &q->c) != FRINK_OK || frink_batch_create(cap_b, &q->b) != FRINK_OK) {
        snprintf(err, cap, "%s", frink_errmsg());
        goto fail;
    }
    q->spec_solo = spec && q->recurrent && s->cfg.gdn_chunk > 1;
    if (spec && s->cfg.spec.kind == FRINK_SPEC_DRAFT) {
        frink_model_params mp = frink_model_default_params();
        mp.path = s->cfg.draft_path;
        mp.allow_unread = s->cfg.allow_unread;
        mp.device = s->cfg.device;
        if (frink_model_open(&mp, &q->dm) != FRINK_OK) {
            snprintf(err, cap, "-md %s: %s", s->cfg.draft_path, frink_errmsg());
            goto fail;
        }
    }
    for (int i = 0; i < q->n_slots; i++) {
        q->slots[i].id = i;
        q->slots[i].batch_index = -1;
        if (frink_seq_create(q->c, &q->slots[i].seq) != FRINK_OK) {
            snprintf(err, cap, "%s", frink_errmsg());
            goto fail;
        }
        if (q->dm) { // each slot's draft sequence in a context of its own (one frink_spec per context)
            frink_context_params dp = frink_context_default_params();
            dp.n_threads = s->cfg.draft_threads ? s->cfg.draft_threads : s->cfg.n_threads;
            dp.n_ctx = s->cfg.draft_ctx ? s->cfg.draft_ctx : s->n_ctx;
            dp.n_batch = s->cfg.n_batch;
            dp.reference_kernels = s->cfg.reference;
            if (frink_context_create(q->dm, &dp, &q->slots[i].dc) != FRINK_OK) {
                snprintf(err, cap, "-md %s: %s", s->cfg.draft_path, frink_errmsg());
                goto fail;
            }
        }
    }
    pthread_mutex_init(&q->mu, NULL);
    pthread_cond_init(&q->cv, NULL);
    pthread_cond_init(&q->op_cv, NULL);
    q->st.n_slots = q->n_slots;
    if (pthread_create(&q->th, NULL, sched_main, q)) {
        snprintf(err, cap, "cannot start the scheduler thread");
        goto fail;
    }
    s->sched = q;
    return 0;
fail:
    if (q->slots)
        for (int i = 0; i < q->n_slots; i++) {
            frink_seq_free(q->slots[i].seq);
            frink_context_free(q->slots[i].dc);
        }
    frink_batch_free(q->b);
    frink_context_free(q->c);
    frink_model_free(q->dm);
    free(q->queue);
    free(q->slots);
    free(q);
    return -1;
}

void sched_drain(struct sched *q) {
    if (!q) return;
    pthread_mutex_lock(&q->mu);
    q->draining = true;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

void sched_stop(struct sched *q) {
    if (!q) return;
    pthread_mutex_lock(&q->mu);
    q->stopping = true;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    pthread_join(q->th, NULL);
    for (int i = 0; i < q->n_slots; i++) {
        if (q->slots[i].task) slot_end(q, &q->slots[i], GEN_CANCELLED, NULL);
        free(q->slots[i].hold);
        free(q->slots[i].out);
        free(q->slots[i].feed);
        frink_spec_free(q->slots[i].sp);
        frink_seq_free(q->slots[i].seq);
        frink_context_free(q->slots[i].dc);
    }
    for (int k = 0; k < q->q_len; k++) {
        struct gen_task *t = q->queue[(q->q_head + k) % q->q_cap];
        task_finish(t, GEN_CANCELLED, NULL);
        gen_task_release(t);
    }
    for (int i = 0; i < SCHED_RECORDS; i++) free(q->recs[i].toks);
    frink_batch_free(q->b);
    frink_context_free(q->c);
    frink_model_free(q->dm);
    free(q->queue);
    free(q->slots);
    pthread_mutex_destroy(&q->mu);
    pthread_cond_destroy(&q->cv);
    pthread_cond_destroy(&q->op_cv);
    free(q);
}

enum sched_submit_result sched_submit_many(struct sched *q, struct gen_task **t, int n) {
    for (int i = 0; i < n; i++)
        if (t[i]->n_prompt < 1 || t[i]->n_prompt >= q->s->n_ctx) return SCHED_TOO_LONG;
    pthread_mutex_lock(&q->mu);
    enum sched_submit_result r = SCHED_OK;
    if (q->stopping || q->draining) r = SCHED_STOPPING;
    else if (q->q_len + n > q->q_cap) r = SCHED_FULL;
    else {
        for (int i = 0; i < n; i++) {
            atomic_fetch_add(&t[i]->refs, 1);
            t[i]->t_submit = mono();
            q->queue[(q->q_head + q->q_len++) % q->q_cap] = t[i];
        }
        pthread_cond_broadcast(&q->cv);
    }
    pthread_mutex_unlock(&q->mu);
    return r;
}

enum sched_submit_result sched_submit(struct sched *q, struct gen_task *t) { return sched_submit_many(q, &t, 1); }

int sched_slots(struct sched *q, struct sched_slot_info *out, int cap) {
    // The slot table is the scheduler thread's; the fields read here are plain words that
    // are only ever replaced whole, so a snapshot may be a step old but never torn.
    int n = q->n_slots < cap ? q->n_slots : cap;
    for (int i = 0; i < n; i++) {
        struct slot *sl = &q->slots[i];
        out[i] = (struct sched_slot_info){.id = i,
                                          .busy = sl->task != NULL,
                                          .n_tokens = frink_seq_len(sl->seq),
                                          .n_prompt = sl->n_prompt,
                                          .n_generated = sl->n_gen,
                                          .salt = sl->salt,
                                          .speculative = sl->spec};
    }
    return n;
}

// Queues op for the scheduler thread, which runs it between steps, and waits until it is done.
static void op_run(struct sched *q, struct slot_op *op) {
    pthread_mutex_lock(&q->mu);
    op->next = q->ops;
    q->ops = op;
    pthread_cond_broadcast(&q->cv);
    while (!op->done) pthread_cond_wait(&q->op_cv, &q->mu);
    pthread_mutex_unlock(&q->mu);
}

static frink_status slot_op(struct sched *q, enum slot_op_kind kind, int slot, const char *path, int *n_tokens,
                            char *msg, size_t cap) {
    if (slot < 0 || slot >= q->n_slots) {
        snprintf(msg, cap, "no slot %d (the server has %d)", slot, q->n_slots);
        return FRINK_ERR_ARG;
    }
    struct slot_op op = {.kind = kind, .slot = slot, .path = path};
    op_run(q, &op);
    if (n_tokens) *n_tokens = op.n_tokens;
    snprintf(msg, cap, "%s", op.msg);
    return op.st;
}

frink_status sched_embed(struct sched *q, const frink_embed_input *in, int n, const frink_embed_params *p, float *out,
                         size_t out_cap, char *msg, size_t cap) {
    struct slot_op op = {.kind = OP_EMBED, .in = in, .n_in = n, .ep = p, .out = out, .out_cap = out_cap};
    op_run(q, &op);
    snprintf(msg, cap, "%s", op.msg);
    return op.st;
}

frink_status sched_slot_save(struct sched *q, int slot, const char *path, int *n_tokens, char *msg, size_t cap) {
    return slot_op(q, OP_SAVE, slot, path, n_tokens, msg, cap);
}
frink_status sched_slot_restore(struct sched *q, int slot, const char *path, int *n_tokens, char *msg, size_t cap) {
    return slot_op(q, OP_RESTORE, slot, path, n_tokens, msg, cap);
}
frink_status sched_slot_erase(struct sched *q, int slot, int *n_erased, char *msg, size_t cap) {
    return slot_op(q, OP_ERASE, slot, NULL, n_erased, msg, cap);
}

void sched_stats(struct sched *q, struct sched_stats *out) {
    pthread_mutex_lock(&q->mu);
    *out = q->st;
    out->queue_depth = q->q_len;
    out->busy_slots = n_busy(q);
    out->n_slots = q->n_slots;
    pthread_mutex_unlock(&q->mu);
}
