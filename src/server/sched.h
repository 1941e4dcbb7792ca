// sched.h — the scheduler: generation tasks, slots, continuous batching, prefix reuse.
//
// A task is one completion of one prompt (a request with n choices is n tasks). The
// connection thread fills its input, submits it and waits for output; the scheduler thread
// evaluates it in a slot. Both hold a reference; the last release frees it.
//
// Every step of the scheduler is one frink_decode: one token of every decoding task, then
// prompt chunks of the prefilling ones (oldest first) up to the step budget. The library's
// batch invariance makes a task's logits, so its output, independent of what shares the
// step: with a seed (or greedy) the output does not depend on the load.
//
// Prefix reuse: a slot keeps its sequence when its task ends. A new task takes the idle slot
// whose tokens share the longest prefix with its prompt, or the prefix cache's longest match
// if that is longer (the cache holds the states of slots that were handed to other prompts).
// A task with a cache salt reuses only what tasks with the same salt left.
#ifndef FRINK_SERVER_SCHED_H
#define FRINK_SERVER_SCHED_H

#include "server/server.h"

enum gen_finish {
    GEN_RUNNING = 0,
    GEN_EOG,          // the model ended its turn (an end-of-generation token)
    GEN_STOP,         // a stop string matched (stop_index names it); it is not in the text
    GEN_LENGTH,       // max tokens reached
    GEN_CTX,          // the slot's context is full
    GEN_CANCELLED,    // the client went away or the task was cancelled
    GEN_ERROR,        // err says why
};

// One generated token, with its log-probability (under the raw logits' softmax) and the
// most likely alternatives when asked.
#define GEN_TOP_MAX 20
struct gen_tok {
    frink_token id;
    float logprob;
    int n_top;
    frink_token top_id[GEN_TOP_MAX];
    float top_lp[GEN_TOP_MAX];
};

struct gen_task {
    // ---- input: set by the submitter, read-only once submitted
    frink_token *prompt;           // owned (malloc)
    int n_prompt;
    frink_sampler_params sp;       // sp.logit_bias points at `bias`
    frink_logit_bias *bias;        // owned (malloc)
    int n_predict;                 // most tokens to generate (-1: until the context is full)
    char **stop;                   // owned: n_stop malloc'ed strings
    int n_stop;
    int top_logprobs;              // 0..20 alternatives per token (0: none)
    bool logprobs;                 // fill gen_tok.logprob
    bool ignore_eos;               // end-of-generation tokens do not end the task
    frink_grammar *grammar;        // owned; NULL: unconstrained
    char *grammar_trigger;         // owned; not NULL: the grammar is lazy — it applies from the first
                                   // occurrence of this text in the output (the text from there on
                                   // is given to it, then every later token is constrained)
    bool grammar_force;            // lazy and required: an end of turn before the trigger writes
                                   // the trigger instead (its tokens are evaluated) and goes on
    uint64_t salt;                 // hash of the request's cache_salt (0: none)
    int fd;                        // the client's socket (-1: none): a hang-up cancels the task
    int want_slot;                 // llama-server's id_slot: run in this slot only, waiting for it
                                   // while it is busy (-1: any idle slot)
    bool no_reuse;                 // cache_prompt false: evaluate the whole prompt, reuse nothing
    int spec_n_max, spec_n_min;    // speculative.n_max / n_min (-1: the server's; n_max 0: plain steps)
    float spec_p_min;              // speculative.p_min (-1: the server's)

    // ---- output: under mu; cv is signalled on every change
    pthread_mutex_t mu;
    pthread_cond_t cv;
    char *text;                    // generated text released so far (special tokens rendered,
    size_t n_text, cap_text;       // whole UTF-8 characters, stop strings withheld)
    struct gen_tok *toks;          // every generated token so far
    int n_toks, cap_toks;
    enum gen_finish finish;        // GEN_RUNNING until done
    int stop_index;                // GEN_STOP: which stop string (-1 otherwise)
    char err[256];
    int n_cached;                  // prompt tokens reused from a slot or the cache (set at start)
    int n_gen;                     // tokens sampled, an ending end-of-generation token included
    int draft_n, draft_accepted;   // speculative decoding: drafted tokens verified, and kept (at the end)
    int slot;                      // the slot it ran in (-1 while queued)
    double t_submit, t_start, t_first, t_end; // seconds (CLOCK_MONOTONIC)

    // ---- shared
    atomic_bool cancel;            // set by the connection side; the scheduler stops the task
    atomic_int refs;
};

// A new task with one reference, output empty, fd -1, n_predict -1, stop_index -1.
struct gen_task *gen_task_new(void);
// Drops a reference; the last frees the task and its inputs and outputs.
void gen_task_release(struct gen_task *t);
// Asks the scheduler to stop the task (it finishes as GEN_CANCELLED within one step).
void gen_task_cancel(struct gen_task *t);
// Waits until the task's output grew past (*n_text, *n_toks) or it finished, or timeout_ms
// passed. Returns true when there is something new (or it finished).
bool gen_task_wait(struct gen_task *t, size_t n_text, int n_toks, int timeout_ms);

// Starts the scheduler thread on a context made for s (n_slots sequences of s->n_ctx).
// Returns 0, or -1 with frink_errmsg()'s message copied into err.
int sched_start(struct srv *s, char *err, size_t cap);
// Shutting down: every task ends as cancelled within a step and new ones are refused, so the
// handlers waiting on them return; sched_stop (after the HTTP layer stopped) frees it all.
void sched_drain(struct sched *q);
void sched_stop(struct sched *q);

enum sched_submit_result { SCHED_OK = 0, SCHED_FULL = 1, SCHED_TOO_LONG = 2, SCHED_STOPPING = 3 };
// Queues t (takes a reference of its own). SCHED_FULL: the queue is at its cap (answer 503
// with Retry-After); SCHED_TOO_LONG: the prompt does not fit a slot's context.
enum sched_submit_result sched_submit(struct sched *q, struct gen_task *t);
// Submits n tasks at once, all or none (the n choices of one request).
enum sched_submit_result sched_submit_many(struct sched *q, struct gen_task **t, int n);

// Slots, for /slots and /metrics (a snapshot taken under the scheduler's lock).
struct sched_slot_info {
    int id;
    bool busy;
    int n_tokens;                  // tokens the slot's sequence holds
    int n_prompt, n_generated;     // of its current (or last) task
    uint64_t salt;
    bool speculative;              // its task (or last task) decodes speculatively
};
int sched_slots(struct sched *q, struct sched_slot_info *out, int cap);

// Saves / restores / erases a slot's state (slot files). Blocks until the scheduler has done
// it between steps. A busy slot is FRINK_ERR_STATE. Returns the status; msg gets the error.
frink_status sched_slot_save(struct sched *q, int slot, const char *path, int *n_tokens, char *msg, size_t cap);
frink_status sched_slot_restore(struct sched *q, int slot, const char *path, int *n_tokens, char *msg, size_t cap);
frink_status sched_slot_erase(struct sched *q, int slot, int *n_erased, char *msg, size_t cap);

// Embeds inputs on the scheduler's context (frink_embed), between steps: generation pauses for
// the call. Blocks until done. Returns the status; msg gets the error.
frink_status sched_embed(struct sched *q, const frink_embed_input *in, int n, const frink_embed_params *p, float *out,
                         size_t out_cap, char *msg, size_t cap);

struct sched_stats {
    uint64_t prompt_tokens, cached_tokens, gen_tokens;  // totals
    double prefill_s, decode_s;                         // seconds spent in steps with prefill / decode only
    uint64_t steps, tasks_done, tasks_cancelled;
    int queue_depth, busy_slots, n_slots;
    uint64_t cache_hits, cache_misses;                  // tasks that reused a prefix / did not
    uint64_t drafted, accepted;                         // speculative decoding: drafts verified, kept
};
void sched_stats(struct sched *q, struct sched_stats *out);

#endif
