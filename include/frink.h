// frink.h — the public interface of libfrink, a local LLM inference engine.
//
// One header. The objects are opaque handles; every exported symbol starts
// with `frink_` and everything else in the library is hidden. (frink_tools.h
// declares developer tools beside it, outside this contract.)
//
//   frink_model     a GGUF file bound and validated: weights, tokenizer, facts.
//                   Immutable once open: any number of threads and contexts may
//                   use one model at once.
//   frink_context   what evaluates: a thread pool, scratch for one step of up to
//                   n_batch tokens, a prefix cache. One thread at a time.
//   frink_seq       one sequence's state (tokens, KV cache, recurrent state and
//                   its checkpoints). Belongs to the context that made it.
//   frink_batch     the tokens of one step: each names its sequence and whether
//                   its logits are wanted. Many sequences per step.
//   frink_sampler   logits -> token: penalties, logit bias, a constraint hook,
//                   top-k / top-p / min-p, temperature, a seeded draw.
//   frink_detok     a streaming detokenizer that never splits a UTF-8 character.
//
// Errors. Every call that can fail returns a frink_status (FRINK_OK is 0); on
// failure frink_errmsg() names the problem. The message is thread-local and
// valid until that thread's next failing call. The library never exits, never
// prints (except the diagnostics a caller asks for), never aborts on bad input.
//
// Ownership. A function that returns memory says who frees it; memory from the
// library that the caller frees goes to frink_free(). Handles are freed with
// their own _free function, which accepts NULL.
//
// Exactness. A sequence's logits are bit-identical whether its tokens are
// evaluated in one batch, in chunks, one at a time, at any thread count, or in
// steps shared with any other sequences (batch invariance). Prefix reuse,
// slot files and forks restore states that continue exactly as the original.
#ifndef FRINK_H
#define FRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FRINK_BUILD) && defined(__GNUC__)
#define FRINK_API __attribute__((visibility("default")))
#else
#define FRINK_API
#endif

// ---- status and errors -------------------------------------------------------------

typedef enum frink_status {
    FRINK_OK = 0,
    FRINK_ERR_IO,          // a file could not be opened, read, written
    FRINK_ERR_FORMAT,      // a file or buffer is malformed (truncated, bad magic, ...)
    FRINK_ERR_UNSUPPORTED, // well-formed, but frink does not implement it: refused by name
    FRINK_ERR_NOMEM,
    FRINK_ERR_ARG,         // a caller passed a bad value
    FRINK_ERR_STATE,       // the object is not in a state that allows the call
} frink_status;

// The calling thread's message for its last failure ("" when none yet).
FRINK_API const char *frink_errmsg(void);
// A short name for a status ("bad format", ...). Never NULL.
FRINK_API const char *frink_status_name(frink_status st);
// Frees memory the library returned to the caller (token arrays, strings).
FRINK_API void frink_free(void *p);
// The library's version, "MAJOR.MINOR.PATCH".
FRINK_API const char *frink_version(void);

typedef int32_t frink_token;

// ---- models ------------------------------------------------------------------------

typedef struct frink_model frink_model;

typedef struct frink_model_params {
    const char *path;   // GGUF file; NULL: the embedded default model (stories260K)
    bool allow_unread;  // accept tensors nothing reads (as the reference does); they are
                        // listed by frink_model_unread(). Default false: refused by name.
    bool vocab_only;    // bind the tokenizer only: no weights, no contexts
    bool no_tokenizer;  // weights only: tokenize/detokenize fail with FRINK_ERR_STATE
    bool keep_layout;   // keep the file's weight layout (no repacking at load): for callers
                        // that only inspect; evaluation is slower but identical
    bool file_only;     // parse the file only (metadata and tensor table): no weights bound,
                        // no tokenizer, so no refusal either; for inspecting any GGUF
    const char *device; // where layers may run: "cpu" or "cuda"; NULL: the environment's
                        // FRINK_DEVICE, else "cpu". "cuda" fails (FRINK_ERR_UNSUPPORTED, naming
                        // why) on a build without CUDA (`make CUDA=1`) or a machine without a
                        // device, an unknown name with FRINK_ERR_ARG. Today no layer runs on the
                        // device: each layer's plan names what the cuda path lacks (frink inspect).
} frink_model_params;

// Defaults: the embedded model, unread tensors refused, weights and tokenizer.
FRINK_API frink_model_params frink_model_default_params(void);

// Opens and validates a model. Fails naming the reason: a missing or corrupt file
// (FRINK_ERR_IO / FRINK_ERR_FORMAT), an architecture, tensor, scale or option frink
// does not implement (FRINK_ERR_UNSUPPORTED). *out is NULL on failure.
FRINK_API frink_status frink_model_open(const frink_model_params *p, frink_model **out);
// Frees the model. Every context made from it must be freed first.
FRINK_API void frink_model_free(frink_model *m);

// Facts. Strings are owned by the model and live as long as it.
FRINK_API const char *frink_model_arch(const frink_model *m);      // general.architecture
FRINK_API const char *frink_model_name(const frink_model *m);      // general.name ("" if none)
FRINK_API int frink_model_n_vocab(const frink_model *m);
FRINK_API int frink_model_n_ctx_train(const frink_model *m);       // 0 when the file does not say
FRINK_API int frink_model_n_embd(const frink_model *m);            // 0 for vocab_only
FRINK_API int frink_model_n_layer(const frink_model *m);           // 0 for vocab_only
FRINK_API uint64_t frink_model_size(const frink_model *m);         // bytes of tensor data in the file
FRINK_API uint64_t frink_model_n_params(const frink_model *m);     // elements of all tensors
FRINK_API uint64_t frink_model_bytes_per_token(const frink_model *m); // weight bytes one token reads
// The chat template (tokenizer.chat_template), or NULL when the file has none.
FRINK_API const char *frink_model_chat_template(const frink_model *m);
// A metadata value rendered as text (strings as they are, numbers in decimal,
// arrays as "[n x type]"), or NULL when the key is absent. Valid until the next
// call on this thread.
FRINK_API const char *frink_model_meta(const frink_model *m, const char *key);
// The file's metadata in order: count, the i-th key and its type name ("string", "u32",
// "[array]"...), and frink_model_meta(m, key) for the value. The key is valid until the
// next call on this thread; NULL past the end.
FRINK_API int frink_model_meta_count(const frink_model *m);
FRINK_API const char *frink_model_meta_key(const frink_model *m, int i, const char **type);

// The file's container and tensor table (also for file_only models).
typedef struct frink_file_info {
    uint32_t version, alignment;
    uint64_t n_meta, n_tensors;
    uint64_t size;            // bytes of the file
} frink_file_info;
FRINK_API void frink_model_file_info(const frink_model *m, frink_file_info *out);
typedef struct frink_tensor_info {
    const char *name;         // owned by the model
    const char *type;         // "F16", "Q4_K", ...
    int n_dims;
    int64_t ne[4];            // ne[0] is the contiguous dimension; missing ones are 1
    uint64_t bytes;
} frink_tensor_info;
// FRINK_ERR_ARG for an index out of range.
FRINK_API frink_status frink_model_tensor(const frink_model *m, int64_t i, frink_tensor_info *out);

// Tensors the model accepted without reading (allow_unread): count, and the i-th name.
FRINK_API int frink_model_unread(const frink_model *m);
FRINK_API const char *frink_model_unread_name(const frink_model *m, int i);
// A 64-bit identity of the model (architecture, metadata, tensor table): what slot
// files are checked against.
FRINK_API uint64_t frink_model_identity(const frink_model *m);

// How one layer is evaluated: the path chosen at load ("host" today), the layer's
// kind ("attention", "gdn", "mla", "mamba", "shortconv", "mamba2", "attention+mamba2", "ffn") and the
// features that shape its math, as a
// space-separated list of names. Paths that refused the layer are listed in
// `refusals` as "path: missing features; ..." ("" when none). Strings are owned by the
// model. FRINK_ERR_ARG for a layer out of range.
typedef struct frink_layer_info {
    const char *path;
    const char *kind;
    const char *features;
    const char *refusals;
} frink_layer_info;
FRINK_API frink_status frink_model_layer(const frink_model *m, int layer, frink_layer_info *out);
// The model-wide features (embedding and logit scales, tied output, ...), space-separated,
// into buf as snprintf does; *len (may be NULL) gets the length the whole string needs.
FRINK_API frink_status frink_model_features(const frink_model *m, char *buf, size_t cap, size_t *len);

// ---- special tokens, tokenizing, detokenizing ----------------------------------------

FRINK_API frink_token frink_token_bos(const frink_model *m); // -1 when none
FRINK_API frink_token frink_token_eos(const frink_model *m); // -1 when none
FRINK_API frink_token frink_token_eot(const frink_model *m); // end of turn; -1 when none
// End of generation: eos, eot, eom and the vocabulary's other end markers.
FRINK_API bool frink_token_is_eog(const frink_model *m, frink_token t);
// Whether tokenizing with FRINK_TOKENIZE_ADD_SPECIAL adds a BOS token.
FRINK_API bool frink_model_adds_bos(const frink_model *m);
// The token's text as the vocabulary stores it (NULL for a bad id); *len its bytes.
FRINK_API const char *frink_token_text(const frink_model *m, frink_token t, size_t *len);

enum {
    FRINK_TOKENIZE_ADD_SPECIAL = 1u << 0,   // BOS / EOS as the vocabulary asks
    FRINK_TOKENIZE_PARSE_SPECIAL = 1u << 1, // "<|im_start|>" in the text becomes its token
};
// Tokenizes len bytes of text (any bytes; invalid UTF-8 is handled as the reference does).
// On success *ids (freed with frink_free; NULL when *n is 0) holds *n tokens.
FRINK_API frink_status frink_tokenize(const frink_model *m, const char *text, size_t len, unsigned flags,
                                      frink_token **ids, size_t *n);

// The text of n tokens, as the reference's detokenizer renders it (special: render
// control tokens too). NUL-terminated, freed with frink_free; NULL when out of memory
// or the model has no tokenizer.
FRINK_API char *frink_detokenize(const frink_model *m, const frink_token *ids, size_t n, bool special);
// The bytes of one token (no NUL); returns the count written (at most cap), -1 for a bad id.
FRINK_API int frink_token_piece(const frink_model *m, frink_token t, char *buf, size_t cap, bool special);

// A streaming detokenizer: push tokens one at a time; what comes out is always whole
// UTF-8 characters. Bytes of a character split across tokens are held until the
// character completes; bytes that can never form a character come out as U+FFFD.
// The concatenation of every push and the final flush equals frink_detokenize() of the
// same tokens wherever that is valid UTF-8.
typedef struct frink_detok frink_detok;
enum {
    FRINK_DETOK_SPECIAL = 1u << 0,      // render control tokens
    FRINK_DETOK_CONTINUE = 1u << 1,     // the stream continues earlier text (a prompt): keep
                                        // the leading space an SPM vocabulary would drop
};
FRINK_API frink_status frink_detok_create(const frink_model *m, unsigned flags, frink_detok **out);
FRINK_API void frink_detok_free(frink_detok *d);
// Adds a token; *text gets the bytes now complete (owned by d, valid until the next
// call on d; may be empty), *len their count.
FRINK_API frink_status frink_detok_push(frink_detok *d, frink_token t, const char **text, size_t *len);
// Ends the stream: what is still held (an incomplete character comes out as U+FFFD).
// The detokenizer is then empty and may be reused.
FRINK_API frink_status frink_detok_flush(frink_detok *d, const char **text, size_t *len);

// ---- contexts ------------------------------------------------------------------------

typedef struct frink_context frink_context;

typedef enum frink_kv_type { FRINK_KV_F16 = 0, FRINK_KV_F32 = 1, FRINK_KV_Q8_0 = 2 } frink_kv_type;

typedef struct frink_context_params {
    int n_threads;             // 0: every hardware thread available
    int n_ctx;                 // tokens of KV planned per sequence at creation (grows on demand)
    int n_batch;               // most tokens one internal step evaluates (larger batches are split)
    int n_seq_max;             // most sequences alive at once (0: unlimited)
    frink_kv_type kv_type;     // KV cache format (F16, as the reference, by default)
    size_t prefix_cache_bytes; // budget of the context's prefix cache (0: no cache)
    int gdn_chunk;             // chunked Gated DeltaNet prefill (0 or 1: the token recurrence)
    bool reference_kernels;    // every product on the scalar reference kernels (slow; an oracle).
                               // This context's alone: other contexts, on the same model or
                               // not, keep their own kernels (and results).
    // Checkpoints of a hybrid model's recurrent state (what truncation, prefix reuse and
    // slot files resume from): one every ckpt_every tokens, the ckpt_keep_recent most recent
    // of those and the ckpt_keep_marked most recent end-of-prompt ones kept. 0: the defaults
    // (256, 4, 8). Each checkpoint holds every recurrent layer's state (~19 MiB at 2B size).
    int ckpt_every, ckpt_keep_recent, ckpt_keep_marked;
} frink_context_params;

// Defaults: all threads, n_ctx 4096, n_batch 512, F16 cache, no prefix cache.
FRINK_API frink_context_params frink_context_default_params(void);
FRINK_API frink_status frink_context_create(const frink_model *m, const frink_context_params *p, frink_context **out);
// Frees the context and every sequence it still holds.
FRINK_API void frink_context_free(frink_context *c);
FRINK_API const frink_model *frink_context_model(const frink_context *c);
FRINK_API int frink_context_threads(const frink_context *c);
// The kernel set in use ("avx512-vnni", "avx2", "scalar", "reference").
FRINK_API const char *frink_context_kernels(const frink_context *c);
// Thread barriers the context has paid so far (a measure of per-step overhead).
FRINK_API uint64_t frink_context_barriers(const frink_context *c);

// ---- sequences -----------------------------------------------------------------------

typedef struct frink_seq frink_seq;

FRINK_API frink_status frink_seq_create(frink_context *c, frink_seq **out);
FRINK_API void frink_seq_free(frink_seq *s);
// Empties the sequence (tokens, KV, recurrent state, checkpoints).
FRINK_API void frink_seq_reset(frink_seq *s);
// Tokens in the sequence, and the tokens themselves (owned by s, valid until it changes).
FRINK_API int frink_seq_len(const frink_seq *s);
FRINK_API const frink_token *frink_seq_tokens(const frink_seq *s);
// Bytes the sequence holds (KV rows, recurrent state, checkpoints).
FRINK_API size_t frink_seq_bytes(const frink_seq *s);
// Shortens to the first n tokens (0 <= n <= len). A hybrid model restores the nearest
// checkpoint at or before n and recomputes the tokens after it; *replayed (may be NULL)
// gets how many. The logits of token n-1 are not produced (truncate to n-1 and evaluate
// it again to get them).
FRINK_API frink_status frink_seq_truncate(frink_seq *s, int n, int *replayed);
// The length truncating to n (0 <= n <= len) resumes from without recomputing anything: n for
// an attention-only model; for a hybrid, the nearest checkpoint at or before n (0 when none).
// A caller that evaluates the tokens in between itself (batched with other sequences, as a
// server does, instead of inside frink_seq_truncate) truncates to this. -1 for n out of range.
FRINK_API int frink_seq_restore_point(const frink_seq *s, int n);
// A copy of s in the same context; checkpoints are shared, not copied.
FRINK_API frink_status frink_seq_fork(const frink_seq *s, frink_seq **out);
// Takes a checkpoint of the recurrent state at the current length, kept under the
// end-of-prompt policy (no-op for attention-only models). Truncating back to it later
// costs no recomputation.
FRINK_API frink_status frink_seq_checkpoint(frink_seq *s);
// Slot files: the whole state in a versioned, checksummed file that names its model,
// written atomically (created 0600). Loading refuses, naming why (and leaves s as it
// was), a file that is truncated, corrupt, of another version, model or KV type, or longer
// than n_ctx; FRINK_ERR_IO with errno ENOENT when the file does not exist.
FRINK_API frink_status frink_seq_save(const frink_seq *s, const char *path);
FRINK_API frink_status frink_seq_load(frink_seq *s, const char *path);

// Evaluates n tokens appended to one sequence (split into steps of at most n_batch).
// logits: NULL, or n_vocab floats for the last token, or n rows with FRINK_EVAL_ALL.
// FRINK_EVAL_CHECKPOINT takes an end-of-prompt checkpoint after the last token.
// On failure the sequence may hold part of the tokens.
enum { FRINK_EVAL_ALL = 1u << 0, FRINK_EVAL_CHECKPOINT = 1u << 1 };
FRINK_API frink_status frink_seq_eval(frink_seq *s, const frink_token *ids, int n, float *logits, unsigned flags);

// ---- batches: many sequences per step --------------------------------------------------

typedef struct frink_batch frink_batch;

// A batch holds up to `capacity` tokens (it does not depend on the context's n_batch:
// frink_decode splits what does not fit in one step).
FRINK_API frink_status frink_batch_create(int capacity, frink_batch **out);
FRINK_API void frink_batch_free(frink_batch *b);
FRINK_API void frink_batch_clear(frink_batch *b);
FRINK_API int frink_batch_size(const frink_batch *b);
// Adds a token that extends sequence s; its position is s's length plus the tokens of s
// added before it in this batch. want_logits: keep this token's logits. Returns the
// token's index in the batch, or -1 when the batch is full (FRINK_ERR_ARG in errmsg).
// Adding to a batch that was decoded clears it first (its logits are then gone).
FRINK_API int frink_batch_add(frink_batch *b, frink_seq *s, frink_token t, bool want_logits);
// Evaluates every token of the batch: weight products run over all of them at once,
// attention and recurrences per sequence, in the order each sequence's tokens were added.
// Tokens and sequences are validated first (bad id, sequence of another context, a
// full context): nothing is evaluated then. Sequences at a periodic checkpoint boundary
// take their checkpoints as frink_seq_eval does.
FRINK_API frink_status frink_decode(frink_context *c, frink_batch *b);
// The logits of the token at index i of the last decoded batch (n_vocab floats, owned
// by the batch, valid until it is cleared or decoded again); NULL when none were asked.
FRINK_API const float *frink_batch_logits(const frink_batch *b, int i);

// ---- embeddings: pooled final hidden states ---------------------------------------------
// An embedding is the model's final hidden state after the output norm (what the reference
// calls t_embd), pooled over an input's tokens; no vocabulary projection is computed. Every
// decoder architecture that runs can embed. The pooling comes from the file
// (<arch>.pooling_type) or from the caller; the numbers are llama.cpp's llama_pooling_type.

typedef enum frink_pooling {
    FRINK_POOLING_UNSPECIFIED = -1, // the model's own (<arch>.pooling_type)
    FRINK_POOLING_NONE = 0,         // one vector per token
    FRINK_POOLING_MEAN = 1,         // the mean over the input's tokens
    FRINK_POOLING_CLS = 2,          // the first token's
    FRINK_POOLING_LAST = 3,         // the last token's
    FRINK_POOLING_RANK = 4,         // the classification head (cls.output) on the last token, then
                                    // a softmax: a reranker's scores (qwen3 rerankers)
} frink_pooling;

typedef struct frink_embed_params {
    frink_pooling pooling;
    // Normalization of each vector, as the reference's common_embd_normalize: -1 none, 0 scaled
    // so that the largest magnitude is 32760 (int16 range), 1 taxicab, 2 euclidean, p > 2 the
    // p-norm. Applied to every vector returned (each token's with FRINK_POOLING_NONE).
    int normalize;
} frink_embed_params;

// One input: n token ids (not copied; read during the call only).
typedef struct frink_embed_input {
    const frink_token *ids;
    int n;
} frink_embed_input;

// The most inputs one frink_embed call takes.
#define FRINK_EMBED_MAX_INPUTS 16384

// Defaults: the model's pooling, euclidean normalization (2).
FRINK_API frink_embed_params frink_embed_default_params(void);
// The pooling the file names (<arch>.pooling_type); FRINK_POOLING_UNSPECIFIED when it names none.
FRINK_API frink_pooling frink_model_pooling(const frink_model *m);
// "none", "mean", "cls", "last", "rank" ("unspecified" for -1); NULL for any other value.
FRINK_API const char *frink_pooling_name(frink_pooling p);
// Floats in one vector under pooling p (UNSPECIFIED: the model's): n_embd, or for RANK the
// classification head's outputs. 0 when m cannot pool so (RANK without a head, no pooling
// named by the file or the call, vocab_only): frink_errmsg() then says why.
FRINK_API int frink_embed_size(const frink_model *m, frink_pooling p);
// Embeds n_inputs inputs. out (out_cap floats) receives one vector of frink_embed_size floats
// per input, input by input; with FRINK_POOLING_NONE, one per token: input 0's tokens, then
// input 1's, ... Inputs share steps (at most n_batch tokens a step, as frink_decode); each
// input is evaluated in a sequence of its own, made and freed inside the call (the context's
// sequences and prefix cache are untouched, n_seq_max does not count them). Each vector is
// bit-identical whatever else is in the call, in any order, at any thread count.
// Fails, evaluating nothing (FRINK_ERR_ARG, naming the input), on: no inputs or more than
// FRINK_EMBED_MAX_INPUTS, an empty input, an input longer than the context's n_ctx, a token
// id out of range, out_cap too small, an unknown pooling or normalization; with
// FRINK_ERR_UNSUPPORTED when the model cannot pool as asked (no pooling named anywhere, RANK
// without a classification head: both name why). One thread at a time per context.
FRINK_API frink_status frink_embed(frink_context *c, const frink_embed_input *inputs, int n_inputs,
                                   const frink_embed_params *p, float *out, size_t out_cap);

// ---- the importance matrix ---------------------------------------------------------------
// What `llama-imatrix` computes for quantizing with importance weights: for every weight matrix
// of the host path, the sum over the calibration tokens of the square of each input feature
// (per expert for an expert tensor), and how many rows were summed. Written as the reference's
// GGUF imatrix file ("general.type" imatrix; "NAME.in_sum2" [n_in, n_mat] and "NAME.counts"
// [1, n_mat] F32 tensors, names sorted; imatrix.datasets / chunk_count / chunk_size), which
// llama-quantize --imatrix and frink read.
//
// The text is tokenized with the vocabulary's BOS (special tokens parsed when parse_special)
// and cut into chunks of n_ctx tokens; each chunk is evaluated alone from an empty sequence,
// its first token replaced by BOS when the vocabulary adds one, in steps of the context's
// n_batch. As the reference does, the products of a step of fewer than 16 rows are left out
// (expert products never are), and of the tensors outside the blocks only output.weight is
// collected, when process_output is set. The perplexity of the second half of each chunk comes
// out as the reference prints it.
typedef struct frink_imatrix_progress {
    int chunk, n_chunks;  // chunks done (1..n_chunks) of those the text holds
    double ppl;           // perplexity so far (second halves of the chunks done)
    double seconds;       // since the call started
} frink_imatrix_progress;

typedef struct frink_imatrix_params {
    int n_ctx;               // tokens per chunk (default 512; 2 .. the context's n_ctx)
    int n_chunks;            // most chunks to evaluate (-1, the default: all the text holds)
    bool process_output;     // collect output.weight too (default false)
    bool parse_special;      // "<|im_start|>" in the text becomes its token (default false)
    const char *dataset;     // recorded in imatrix.datasets (the text's file name); NULL: none
    void (*progress)(void *ud, const frink_imatrix_progress *p); // after each chunk; NULL: none
    void *progress_ud;
} frink_imatrix_params;

typedef struct frink_imatrix_result {
    int n_tokens;            // the text's tokens
    int n_chunks;            // chunks evaluated
    int n_entries;           // weight matrices in the file
    double ppl, ppl_err;     // the final estimate and its error, as the reference's "Final estimate"
} frink_imatrix_result;

FRINK_API frink_imatrix_params frink_imatrix_default_params(void);
// Computes the importance matrix of len bytes of text on c's model and writes it to out_path
// (through a temporary file renamed at the end: an existing file is replaced only by a whole
// one). *res (may be NULL) gets the figures. The chunks use sequences of their own, made and
// freed inside the call; c's sequences are untouched. Fails naming why: a text shorter than
// two chunks (FRINK_ERR_ARG, with its token count), n_ctx out of range, a model opened
// without its weights (FRINK_ERR_STATE), out_path not writable (FRINK_ERR_IO), FRINK_ERR_NOMEM.
// One thread at a time per context.
FRINK_API frink_status frink_imatrix_compute(frink_context *c, const char *text, size_t len, const frink_imatrix_params *p,
                                             const char *out_path, frink_imatrix_result *res);

// ---- the prefix cache ------------------------------------------------------------------
// Snapshots of earlier sequences under the context's byte budget, evicted least recently
// used; a lookup restores the longest cached prefix of a prompt into a sequence (a hybrid
// model resumes from a checkpoint and recomputes the few tokens after it).

// Stores a snapshot of s (copy-on-write checkpoints). No-op when the context has no cache.
FRINK_API frink_status frink_cache_store(frink_context *c, const frink_seq *s);
// Resets dst and restores the longest prefix (at most max_len tokens) of prompt[0..n) that
// any entry shares. *n_prefix gets its length (0: a miss), *n_replayed (may be NULL) how
// many of those tokens were recomputed rather than copied.
FRINK_API frink_status frink_cache_lookup(frink_context *c, frink_seq *dst, const frink_token *prompt, int n,
                                          int max_len, int *n_prefix, int *n_replayed);
// As frink_cache_lookup, but evaluates nothing: a hybrid model's prefix stops at the entry's
// checkpoint at or before the match (attention-only models restore the whole match), and the
// caller evaluates the rest of the prompt, from *n_prefix on, itself.
FRINK_API frink_status frink_cache_lookup_resume(frink_context *c, frink_seq *dst, const frink_token *prompt, int n,
                                                 int max_len, int *n_prefix);
FRINK_API int frink_cache_entries(const frink_context *c);
FRINK_API size_t frink_cache_bytes(const frink_context *c);

// ---- sampling ---------------------------------------------------------------------------

typedef struct frink_sampler frink_sampler;

typedef struct frink_logit_bias {
    frink_token token;
    float bias;         // added to the logit; -INFINITY bans the token
} frink_logit_bias;

typedef struct frink_sampler_params {
    float temp;              // <= 0: greedy
    int top_k;               // <= 0: off
    float top_p;             // >= 1: off
    float min_p;             // <= 0: off
    float repeat_penalty;    // 1: off
    float presence_penalty;  // 0: off
    float frequency_penalty; // 0: off
    int penalty_last_n;      // window of recent tokens the penalties look at
    uint64_t seed;
    const frink_logit_bias *logit_bias; // n_logit_bias entries (copied at creation)
    int n_logit_bias;
} frink_sampler_params;

// A constraint masks candidates before sampling (a grammar, a forced format).
//   allows(ud, t): may token t come next?
//   mask(ud, logits, n_vocab): sets the logit of every token that may not come next to
//     -INFINITY (the full mask);
//   accept(ud, t): the chosen token, to advance the constraint's state.
// When greedy (temp <= 0), the sampler first asks `allows` of the argmax and masks only
// when it is refused; the result is the argmax of the masked logits either way. Sampling
// at a temperature always masks first, so the draw is from the constrained distribution.
// A mask that leaves no token allowed makes frink_sampler_sample fail (FRINK_ERR_STATE).
typedef struct frink_constraint {
    void *ud;
    bool (*allows)(void *ud, frink_token t);
    void (*mask)(void *ud, float *logits, int n_vocab);
    void (*accept)(void *ud, frink_token t);
} frink_constraint;

// Sampler defaults: temp 0.8, top-k 40, top-p 0.95, min-p 0.05, no penalties (window 64).
FRINK_API frink_sampler_params frink_sampler_default_params(void);
// Validates the parameters (naming the bad one) and creates a sampler for m's vocabulary.
FRINK_API frink_status frink_sampler_create(const frink_model *m, const frink_sampler_params *p, frink_sampler **out);
FRINK_API void frink_sampler_free(frink_sampler *s);
// Installs (or, with NULL, removes) the constraint; the struct is copied.
FRINK_API void frink_sampler_set_constraint(frink_sampler *s, const frink_constraint *c);
// Records a token the model saw (prompt or generated) for the penalties; does not advance
// the constraint (frink_sampler_sample does that for the token it returns).
FRINK_API void frink_sampler_accept(frink_sampler *s, frink_token t);
// Picks the next token from n_vocab logits (not modified). The chain: logit bias,
// penalties, constraint, top-k, top-p, min-p, temperature, draw. *out gets the token; the
// constraint's accept is called with it, and the token is recorded for the penalties.
FRINK_API frink_status frink_sampler_sample(frink_sampler *s, const float *logits, frink_token *out);

// ---- speculative decoding ----------------------------------------------------------------
// A step evaluates the token sampled last together with up to draft_max drafted tokens after
// it in one call, samples from the verified rows in order with the caller's sampler, and keeps
// the drafts for as long as each equals what was sampled. Every row is bit-identical to the
// row plain decoding computes (frink's batch invariance), and the sampler sees exactly the
// rows and draws plain decoding gives it, so the tokens are those of plain decoding, under
// greedy decoding and under sampling at any temperature with the same seed, whatever the
// drafter proposes. A rejected suffix costs nothing for attention-only models (the K/V rows
// are overwritten later); a hybrid model's recurrent state is put back to a snapshot taken
// before the step and the kept tokens are replayed (never the prompt). The draft length
// adapts: from the acceptance rate seen and the measured cost of a step per drafted token,
// the length with the most tokens per second; 0 (plain steps, one probe every 16) when
// drafting does not pay.

typedef enum frink_spec_kind {
    FRINK_SPEC_NONE = 0,   // plain steps (a step samples one token)
    FRINK_SPEC_LOOKUP = 1, // prompt lookup: the continuation of the latest earlier occurrence of
                           // the history's last n-gram (ngram_max down to ngram_min tokens)
    FRINK_SPEC_DRAFT = 2,  // a draft model sharing the vocabulary, greedy, in draft_ctx
    FRINK_SPEC_CUSTOM = 3, // the caller's draft_fn
} frink_spec_kind;

// The most tokens one step drafts.
#define FRINK_SPEC_DRAFT_MAX 256

// A custom drafter: up to max tokens that may follow hist[0..n_hist) (the sequence's tokens
// and the pending one) into draft; returns how many (0..max).
typedef int (*frink_spec_draft_fn)(void *ud, const frink_token *hist, int n_hist, frink_token *draft, int max);

typedef struct frink_spec_params {
    frink_spec_kind kind;
    int draft_max;         // most drafted tokens a step verifies (1..FRINK_SPEC_DRAFT_MAX; default 16)
    int draft_min;         // fewer drafted tokens than this: a plain step (default 0)
    float draft_p_min;     // DRAFT: drafting stops at a token the draft model gives less
                           // probability than this (0..1; default 0.75)
    int ngram_min, ngram_max; // LOOKUP: n-gram lengths tried, longest first (1..64; default 2, 4)
    bool fixed;            // draft draft_max tokens every step (no adaptation)
    frink_context *draft_ctx; // DRAFT: a context of the draft model (its own sequence is made
                              // in it, and freed with the frink_spec; one frink_spec per context)
    frink_spec_draft_fn draft_fn; // CUSTOM
    void *draft_ud;
} frink_spec_params;

typedef struct frink_spec_stats {
    uint64_t steps;        // steps taken
    uint64_t plain_steps;  // of those, steps that drafted nothing
    uint64_t drafted;      // drafted tokens verified
    uint64_t accepted;     // of those, kept
    uint64_t tokens;       // tokens the steps returned
    uint64_t replayed;     // tokens a hybrid model evaluated again after a rejection
    int draft_len;         // the draft length the next step will try
} frink_spec_stats;

typedef struct frink_spec frink_spec;

// Defaults: NONE, draft_max 16, draft_min 0, draft_p_min 0.75, n-grams 2..4, adaptive.
FRINK_API frink_spec_params frink_spec_default_params(void);
// "none", "lookup", "draft", "custom"; NULL for other values. frink_spec_kind_parse takes the
// same names (and "ngram" for lookup); false when unknown.
FRINK_API const char *frink_spec_kind_name(frink_spec_kind k);
FRINK_API bool frink_spec_kind_parse(const char *s, frink_spec_kind *out);
// A speculative decoder for sequence s (which must outlive it). Validates the parameters,
// naming the bad one; DRAFT refuses (FRINK_ERR_ARG, naming the first difference) a draft
// model whose vocabulary differs from the target's (size or any token's text).
FRINK_API frink_status frink_spec_create(frink_seq *s, const frink_spec_params *p, frink_spec **out);
FRINK_API void frink_spec_free(frink_spec *sp);
// One step. pending: the token sampled last, not yet evaluated (the sequence holds everything
// before it). smp samples each verified row, as frink_sampler_sample would. out (max_out >= 1
// tokens) gets the n_out >= 1 tokens sampled, in order; the last of them is the new pending
// token (not evaluated), and the step stops early after an end-of-generation token or at
// max_out. The sequence grows by n_out tokens: pending and the kept drafts. Errors as
// frink_seq_eval and frink_sampler_sample (a full context is FRINK_ERR_STATE, evaluating
// nothing); after a sampler error the sequence holds pending and the kept drafts before it.
FRINK_API frink_status frink_spec_step(frink_spec *sp, frink_token pending, frink_sampler *smp, frink_token *out,
                                       int max_out, int *n_out);
// The step in two halves, for a caller that verifies several sequences' drafts in one
// frink_decode (a server's slots). frink_spec_begin drafts: *tokens (owned by sp, valid until
// the next begin) gets the *n_tokens tokens to evaluate, pending first, then the drafts; the
// caller adds them all to a batch for sp's sequence, each with logits, and decodes it. Then
// frink_spec_finish samples rows[i] (the logits of tokens[i], n_tokens pointers) as
// frink_spec_step does, keeps what was confirmed, and puts out[] and *n_out as it does (at most
// the begin's max_out tokens). Every row is bit-identical to plain decoding's whatever else is in
// the batch, except that a Gated DeltaNet context with gdn_chunk > 1 evaluates a sequence's
// several tokens with the chunked rule in frink_decode: use frink_spec_step there. A begin not
// finished is dropped by the next begin (the sequence must then hold what it held before it).
FRINK_API frink_status frink_spec_begin(frink_spec *sp, frink_token pending, int max_out, const frink_token **tokens,
                                        int *n_tokens);
FRINK_API frink_status frink_spec_finish(frink_spec *sp, frink_sampler *smp, const float *const *rows, frink_token *out,
                                         int *n_out);
// The logits out[i] of the last step was sampled from (n_vocab floats owned by sp, valid until
// the next step); NULL for i out of range.
FRINK_API const float *frink_spec_logits(const frink_spec *sp, int i);
FRINK_API void frink_spec_get_stats(const frink_spec *sp, frink_spec_stats *out);

// ---- chat templates --------------------------------------------------------------------
// A chat template turns a conversation into the prompt the model was trained on. frink's
// Jinja engine renders templates byte for byte as Python's jinja2 does under Hugging Face
// transformers' conventions (trim_blocks, lstrip_blocks, loop controls, raise_exception,
// strftime_now, transformers' tojson). A parsed template is immutable: any number of threads
// may render it at once.

typedef struct frink_template frink_template;

// Parses a template. m (may be NULL) supplies the defaults of bos_token and eos_token (the
// text of the model's special tokens). A syntax error is FRINK_ERR_FORMAT, a construct the
// engine does not implement FRINK_ERR_UNSUPPORTED; both messages name line and column.
FRINK_API frink_status frink_template_parse(const frink_model *m, const char *src, size_t len, frink_template **out);
// The model's own template (tokenizer.chat_template). A model without one gets ChatML, and
// *is_chatml (may be NULL) says so.
FRINK_API frink_status frink_model_template(const frink_model *m, frink_template **out, bool *is_chatml);
FRINK_API void frink_template_free(frink_template *t);
// The template's source (owned by t).
FRINK_API const char *frink_template_source(const frink_template *t);
// Renders with the variables of a JSON object (messages, tools, add_generation_prompt,
// extras such as enable_thinking); bos_token and eos_token default to the model's. *out
// (freed with frink_free) is the prompt, *out_len its length. A template that calls
// raise_exception fails with FRINK_ERR_ARG and the message "template error: " + its words;
// other render-time errors (FRINK_ERR_ARG) name the operation and the line; malformed JSON
// is FRINK_ERR_FORMAT naming where. now: the time strftime_now formats (0: the current time).
FRINK_API frink_status frink_template_render(const frink_template *t, const char *vars_json, size_t len, int64_t now,
                                             char **out, size_t *out_len);

// ---- reading a chat model's output ---------------------------------------------------------
// A chat model's output mixes the answer with markup in its family's format: reasoning blocks
// (<think>, harmony's analysis channel, [THINK]) and tool calls (<tool_call> JSON, Qwen3-Coder
// XML, [TOOL_CALLS], DeepSeek's, GLM's, Kimi K2's, ...). A chat parser is fed the output as it
// is generated (detokenized with FRINK_DETOK_SPECIAL, so special tokens that are markup show)
// and calls back with deltas. Text that may be the start of markup is held until the following
// bytes decide it, so markup never leaks into content; markup that cannot be parsed comes back
// as content after a warning, never dropped. The same deltas come out however the text is split.

typedef enum frink_chat_delta_kind {
    FRINK_DELTA_CONTENT,    // text for the user
    FRINK_DELTA_REASONING,  // the thinking, without its tags
    FRINK_DELTA_TOOL_NAME,  // a call begins: index, id, name
    FRINK_DELTA_TOOL_ARGS,  // a fragment of the call's arguments (JSON text)
    FRINK_DELTA_TOOL_END,   // the call is complete: text = all its arguments, one JSON object
    FRINK_DELTA_WARNING,    // markup could not be parsed (index: the call it voids, or -1);
                            // the markup follows as content
} frink_chat_delta_kind;

typedef struct frink_chat_delta {
    frink_chat_delta_kind kind;
    const char *text;  // owned by the parser, valid during the callback
    size_t len;
    int index;         // the call, numbered from 0 in each message (-1 when none)
    const char *id;    // the call's id: the model's own where its format has one, else
                       // "call_" + 24 alphanumerics from the parser's seed
    const char *name;  // the function's name
} frink_chat_delta;

typedef void (*frink_chat_emit)(void *ud, const frink_chat_delta *d);
typedef struct frink_chat_parser frink_chat_parser;

enum {
    FRINK_CHAT_STARTS_IN_REASONING = 1u << 0, // the prompt left the reasoning block open
    FRINK_CHAT_WHOLE_CALLS = 1u << 1,         // announce a call only once it is complete
};

// A parser for a format by name ("hermes", "qwen3-coder", "seed-oss", "llama3", "mistral",
// "deepseek", "deepseek-v3.2", "deepseek-v4", "minimax-m2", "minimax-m3", "gemma4", "gpt-oss",
// "glm", "kimi-k2", "command-r7b", "granite", "functionary-v3.1", "functionary-v3.2", "apriel",
// "think", "none"), or, with format NULL, the one t's source calls for (t NULL too: "none").
// id_seed seeds generated call ids. An unknown name is FRINK_ERR_ARG.
FRINK_API frink_status frink_chat_parser_create(const char *format, const frink_template *t, unsigned flags,
                                                uint64_t id_seed, frink_chat_parser **out);
FRINK_API void frink_chat_parser_free(frink_chat_parser *p);
FRINK_API const char *frink_chat_parser_format(const frink_chat_parser *p);
// Whether a rendered prompt ends inside the format's reasoning block (Qwen3.5's "<think>\n",
// harmony's analysis channel...): then create the parser with FRINK_CHAT_STARTS_IN_REASONING.
FRINK_API bool frink_chat_prompt_opens_reasoning(const char *format, const frink_template *t, const char *prompt,
                                                 size_t len);
// Feeds generated text (any split); emit is called for each delta now decided.
FRINK_API frink_status frink_chat_parser_feed(frink_chat_parser *p, const char *text, size_t len, frink_chat_emit emit,
                                              void *ud);
// Ends the message: what is held is decided and emitted; the parser is ready for the next.
FRINK_API frink_status frink_chat_parser_finish(frink_chat_parser *p, frink_chat_emit emit, void *ud);

// ---- grammars: constrained output ------------------------------------------------------------
// A grammar (llama.cpp's GBNF, or compiled from a JSON Schema) constrains what a sampler may
// pick: installed as the sampler's constraint (frink_grammar_constraint), it allows a token only
// when the token's bytes can continue the grammar, and the end of generation only where the
// grammar may end. A grammar holds its position in the text so far; one sampler at a time.
// The first grammar made on a model builds the model's trie of its vocabulary (tens of ms for a
// large vocabulary), which every later grammar on that model shares; grammars may be made on
// one model from any number of threads at once. The trie is freed with the model: free the
// model only after its grammars are no longer used (freeing a grammar touches nothing of it).

typedef struct frink_grammar frink_grammar;

// Compiles GBNF source (root: the start rule, NULL for "root") for m's vocabulary. A syntax
// error, an undefined rule, left recursion or a repeated element that can match nothing is
// FRINK_ERR_FORMAT naming it (with line and column).
FRINK_API frink_status frink_grammar_create(const frink_model *m, const char *gbnf, size_t len, const char *root,
                                            frink_grammar **out);
// Compiles a JSON Schema (JSON text) to a grammar of exactly the JSON texts valid under it. A
// keyword the compiler cannot enforce is FRINK_ERR_UNSUPPORTED naming it and its JSON pointer
// (never silently dropped); malformed JSON is FRINK_ERR_FORMAT.
FRINK_API frink_status frink_grammar_from_json_schema(const frink_model *m, const char *schema, size_t len,
                                                      frink_grammar **out);
FRINK_API void frink_grammar_free(frink_grammar *g);
// The GBNF the grammar was compiled from (for a JSON Schema, the generated one; owned by g).
FRINK_API const char *frink_grammar_source(const frink_grammar *g);
// Back to the start of the text.
FRINK_API frink_status frink_grammar_reset(frink_grammar *g);
// Whether the text so far is complete (the grammar may end here).
FRINK_API bool frink_grammar_complete(const frink_grammar *g);
// Advances the grammar over text[0..len) as if it had been generated (raw bytes; a character may
// be split across calls): for a grammar that starts part way through an output, e.g. at a tool
// call's opener already generated. FRINK_ERR_ARG naming the byte offset when the grammar cannot
// accept them (FRINK_ERR_UNSUPPORTED past a match-size cap); on failure the state is unchanged.
FRINK_API frink_status frink_grammar_accept_text(frink_grammar *g, const char *text, size_t len);
// The constraint to install with frink_sampler_set_constraint (it points at g: g must outlive
// the sampler's use of it).
FRINK_API frink_constraint frink_grammar_constraint(frink_grammar *g);

// ---- forced tool calls: grammars in a chat format's markup ----------------------------------
// The grammar of a well-formed tool call as a model's own format writes it, for tool_choice
// "required" / a named tool: every text it admits is read by a chat parser of that format as
// calls only (no content, no warning), each naming a given tool, with arguments valid under
// the tool's parameters schema.

// The rule of a tool-call grammar that starts just after the trigger (see below).
#define FRINK_TOOL_GRAMMAR_AFTER_TRIGGER "after-trigger"

// The GBNF of one tool call (or several, when parallel) in the output format of `format` (a
// chat parser format name: see frink_chat_parser_create / frink_chat_parser_format: "hermes",
// "qwen3-coder", "glm", "llama3", "mistral", "deepseek", "kimi-k2", "command-r7b", "granite",
// "apriel", "functionary-v3.1", "minimax-m2", "seed-oss", "deepseek-v3.2", "deepseek-v4"), for
// the tools of an OpenAI-shaped JSON array tools_json[0..len)
// [{type:"function", function:{name, description, parameters}}]; name: only that tool (NULL:
// any of them); parallel: one or more calls (else exactly one). The arguments are constrained by each tool's
// parameters schema (frink's JSON Schema compiler: a keyword it cannot enforce is refused by
// name, FRINK_ERR_UNSUPPORTED; no parameters: {}). *trigger gets the text that opens a call in
// that format ("<tool_call>", "[TOOL_CALLS]", "{" for llama3): the grammar starts AT the
// trigger (it matches the trigger text first) and ends after the last call's closing markup,
// where it lets the model end its turn.
//   Lazy use (tool_choice "required" / a named tool while the model may think first): sample
// unconstrained until the output (detokenized with special tokens) holds the trigger, then give
// the grammar the output from the trigger's first byte on (frink_grammar_accept_text: the rest
// of the token that completed it too) and constrain every later token. This works when the
// trigger is a control token of the vocabulary (Mistral's [TOOL_CALLS], Kimi's sections), whose
// bytes no constrained token could produce: its text is given, not generated. Eager use: the
// grammar from the first token, which writes the trigger itself where ordinary tokens can spell
// it; or force the trigger token and compile with root FRINK_TOOL_GRAMMAR_AFTER_TRIGGER (the same
// calls from just after the trigger). Llama 3's call is the whole message: apply its grammar
// from the first token. Markup inside a call that is a control token (Mistral's [ARGS],
// DeepSeek's separators) can only be spelled with ordinary tokens under the grammar; the output
// still parses. Refused: malformed JSON (FRINK_ERR_FORMAT); a malformed tool list, an unknown
// `name`, a tool name other than 1..128 letters, digits, '_', '.', '-' (FRINK_ERR_ARG naming the
// place, "tools[1].function.name"); a format frink cannot constrain ("gpt-oss", "none", ...:
// FRINK_ERR_UNSUPPORTED naming it). *gbnf and *trigger are freed with frink_free.
FRINK_API frink_status frink_tool_call_grammar(const char *format, const char *tools_json, size_t len,
                                               const char *name, bool parallel, char **gbnf, char **trigger);

// ---- quantizing model files ---------------------------------------------------------------
// A GGUF file's weights into a quantized GGUF: the file llama.cpp's llama_model_quantize writes
// for the same input and options, byte for byte (tensor order, the ftype's per-tensor type mix,
// metadata, padding). Inputs: F32, F16 or BF16 weights (already quantized ones only with
// allow_requantize); optionally an importance matrix.

// What frink_quantize reports (to frink_quantize_params.progress): before each tensor (index
// 0..n_tensors-1, tensor and the types set), and once at the end (index == n_tensors, tensor
// NULL). Strings are valid during the call only.
typedef struct frink_quantize_progress {
    const char *tensor;               // the tensor about to be written
    const char *from_type, *to_type;  // its type in the input and in the output ("F16", "Q4_K")
    int index, n_tensors;
    uint64_t bytes_done, bytes_total; // input tensor bytes written so far, of all
} frink_quantize_progress;

// Zero-initialize, then set at least ftype.
typedef struct frink_quantize_params {
    const char *ftype;                // the file type: a name from frink_quantize_ftype_name()
                                      // ("Q4_K_M"; case-insensitive)
    int n_threads;                    // 0: every hardware thread. The output never depends on it.
    bool pure;                        // every weight the ftype's default type (no mix), as --pure
    bool leave_output_tensor;         // output.weight kept as it is
    bool allow_requantize;            // accept already-quantized input weights (dequantized first)
    const char *output_tensor_type;   // NULL: the mix's; else a tensor type name ("Q8_0", "F16")
    const char *token_embedding_type; // NULL: the mix's; else a tensor type name
    const char *imatrix_path;         // NULL: none; else a GGUF importance matrix (llama-imatrix's
                                      // format), used as llama-quantize --imatrix uses it, and
                                      // noted in the output's quantize.imatrix.* keys as it notes it
    void (*progress)(void *ud, const frink_quantize_progress *p); // NULL: no reports
    void *progress_ud;                // handed to progress
} frink_quantize_params;

// Reads in_path and writes out_path (to a temporary file beside it, renamed over out_path when
// complete: a failure leaves no partial out_path and out_path's old contents untouched).
// Fails, naming the reason: a bad parameter or an unknown ftype or tensor type
// (FRINK_ERR_ARG); an imatrix that does not parse or fit the model (FRINK_ERR_FORMAT, or
// gguf's status); an ftype or tensor type frink does not write, already-quantized input
// without allow_requantize, an input type it cannot convert (FRINK_ERR_UNSUPPORTED); an input
// that does not parse (gguf's status: FRINK_ERR_IO, FRINK_ERR_FORMAT); out_path not writable
// (FRINK_ERR_IO); FRINK_ERR_NOMEM. Thread-safe: calls share nothing (each has its own
// threads). Memory: the input is mapped; one output tensor and 1 MiB per thread are held.
FRINK_API frink_status frink_quantize(const char *in_path, const char *out_path, const frink_quantize_params *p);
// The file types frink_quantize writes: name of row i, NULL past the end. Static strings.
FRINK_API const char *frink_quantize_ftype_name(int i);

// ---- the architecture table ----------------------------------------------------------------
// (The developer tools, random-weight model files and the measurements behind `frink bench`,
// are declared in frink_tools.h.)

// The architecture table: name of row i (NULL past the end) and why frink refuses it
// (NULL when it runs).
FRINK_API const char *frink_arch_name(int i, const char **refused);

#ifdef __cplusplus
}
#endif
#endif
