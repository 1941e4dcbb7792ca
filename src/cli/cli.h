// cli.h — what the subcommands share: model flags and an opened engine (engine.c), the
// chat template helpers (template.c), and the subcommands main.c dispatches to. The CLI is a
// client of the public API: it includes frink.h (and frink_tools.h for gen and bench) and
// nothing else of the library; the flag helpers below every one of these are in args.h.
//
//   main.c      dispatch only          run.c       frink run
//   args.c      flag helpers           inspect.c   tokenize, logits, inspect, archs
//   engine.c    model flags, opening   template.c  frink template, template helpers
//   chat.c      frink chat             serve.c     frink serve's flags (the server: src/server)
//   bench.c     frink bench            gen.c       frink gen
//   embed.c     frink embed            progress.c  the status line of long work
//   quantize.c  frink quantize
//   pull.c      pull, ls, rm, -hf      hub.c, hubcache.c, sha256.c  the Hugging Face Hub (hub.h)
#ifndef FRINK_CLI_H
#define FRINK_CLI_H

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "cli/args.h"
#include "frink.h"

// -hf and its companions (pull.c): a model of the Hugging Face Hub, pulled into its cache.
struct cli_hub_opts {
    const char *repo;   // -hf USER/REPO[:QUANT]
    const char *file;   // -hff FILE (instead of a quant)
    const char *token;  // -hft TOKEN (NULL: HF_TOKEN)
    bool offline;       // --offline
};

struct cli_model_opts {
    const char *path;   // NULL: the embedded default model
    struct cli_hub_opts hub; // -hf: resolved into path by cli_model_resolve
    long threads;       // 0: all available
    long ctx;           // tokens of context per sequence (0: the model's, capped)
    long batch;         // prefill batch
    bool reference;     // scalar reference kernels
    bool allow_unread;
    bool vocab_only;    // tokenizer only (no weights bound)
    bool no_tokenizer;  // weights only (logits from ids)
    int kv_type;        // frink_kv_type of the sequence's cache (F16 default): its K half
    int kv_type_v;      // -ctv: the V half, which frink keeps in the same format (cli_kv_type)
    long gdn_chunk;     // chunk of the chunked Gated DeltaNet prefill (0: default)
    const char *device; // "cpu" or "cuda" (NULL: FRINK_DEVICE, else cpu)
};

struct cli_engine {
    frink_model *m;
    frink_context *c;   // NULL for vocab_only
    frink_seq *seq;     // one sequence of c
};

void cli_model_opts_init(struct cli_model_opts *o);
// Consumes a model flag at argv[i]: returns how many args it used (0: not a
// model flag), or -1 after printing an error.
int cli_model_flag(struct cli_model_opts *o, int argc, char **argv, int i);
// The KV cache type the flags ask for, or -1 after printing why not (-ctk and -ctv differ).
int cli_kv_type(const struct cli_model_opts *o);
// The model flags' help lines (the -hf flags' among them).
extern const char cli_model_flags_help[];

// pull.c: consumes -hf / -hfr / --hf-repo, -hff / --hf-file, -hft / --hf-token or --offline at
// argv[i]: returns how many args it used (0: none of them), or -1 after printing an error.
int cli_hub_flag(struct cli_hub_opts *h, int argc, char **argv, int i);
extern const char cli_hub_flags_help[];
// Pulls the model h names (when missing from the cache) and sets *path to its file in the
// cache (static storage). Returns 0, 2 (bad flags) or 1 (printed: network, gated, a split model,
// which frink's loader cannot read).
int cli_hub_resolve(const struct cli_hub_opts *h, const char **path);
// With -hf given, cli_hub_resolve into o->path (-m as well is an error); else nothing. Returns
// 0, 1 or 2 (printed). cli_engine_open calls it; commands that open the model otherwise call it first.
int cli_model_resolve(struct cli_model_opts *o);
// A command's help: `text`, then the model flags' help, on stdout. Returns 0.
int cli_help_model(const char *text);
// Opens everything; prints the error and returns non-zero on failure (2: the flags, 1: the model). Tensors
// accepted unread (--allow-unread) are listed on stderr.
int cli_engine_open(const struct cli_model_opts *o, struct cli_engine *e);
void cli_engine_close(struct cli_engine *e);
// The context size the CLI uses: -c, or the model's training context capped at 8192
// (4096 when the file does not say).
int cli_ctx_size(const struct cli_model_opts *o, const frink_model *m);

// Evaluates ids[0..n) into s in steps of n_batch, an end-of-prompt checkpoint after the
// last, logits of the last token; on a terminal, progress on stderr (tokens, tok/s, time
// left; from the first second, on a line of its own, erased at the end). Prints the error and returns 1 on failure; returns 2 when *stop (may be NULL) is
// set between steps (Ctrl-C): the sequence then holds part of the tokens.
int cli_prefill(frink_seq *s, const frink_token *ids, int n, float *logits, int n_batch, volatile sig_atomic_t *stop);

// progress.c: a status line on stderr while work that may take more than a second runs ("TEXT,
// N s", redrawn from the first second on, erased at the end; on its own line). NULL when stderr
// is not a terminal; every call takes NULL. Nothing else may print to stderr between start and end.
struct cli_progress;
struct cli_progress *cli_progress_start(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_progress_set(struct cli_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_progress_end(struct cli_progress *p);

// The grammar of --grammar TEXT, --grammar-file F or --json-schema (a file, or the schema when it
// starts with '{'): at most one may be given (all NULL: *out NULL). Prints the error, returns 1.
int cli_grammar_open(const frink_model *m, const char *gbnf, const char *gbnf_file, const char *schema,
                     frink_grammar **out);

// spec.c: speculative decoding for run and chat.
struct cli_spec_opts {
    frink_spec_params p;      // the kind, lengths and n-grams the flags ask for
    const char *draft_path;   // -md
    long draft_ctx, draft_threads; // -cd, -td (0: the target's)
    bool kind_set;            // --spec / --spec-type given (else -md implies draft)
};
// An opened speculative decoder and the tokens of its last step not yet handed out.
struct cli_spec {
    frink_spec_params p;
    frink_model *dm;          // -md's model and context (NULL without one)
    frink_context *dc;
    frink_spec *sp;           // NULL: plain decoding
    frink_seq *seq;
    frink_sampler *smp;
    float *logits;            // plain decoding's row
    frink_token q[FRINK_SPEC_DRAFT_MAX + 1]; // the last step's tokens; q[qi..qn) not yet used
    int qn, qi;
    frink_token pending;      // sampled, not yet evaluated
    bool started;
    int start_len, used;      // the sequence's length at cli_spec_start; tokens handed out since
};
void cli_spec_opts_init(struct cli_spec_opts *o);
// Consumes a speculative decoding flag at argv[i]: returns how many args it used (0: not one
// of them), or -1 after printing an error.
int cli_spec_flag(struct cli_spec_opts *o, int argc, char **argv, int i);
extern const char cli_spec_flags_help[];
// Checks the flags and opens the draft model (-md) beside m. Returns 0, or the exit status
// (printed): 2 for flags that do not go together, 1 for a draft model that does not open.
int cli_spec_open(const struct cli_spec_opts *so, const struct cli_model_opts *mo, const frink_model *m, struct cli_spec *cs);
// A new reply on seq (its prompt evaluated, the prompt's logits at hand), sampled with smp.
// Returns 0, or 1 (printed).
int cli_spec_start(struct cli_spec *cs, frink_seq *seq, frink_sampler *smp);
// The next token of the reply: the first from prompt_logits, then plain decoding's or the
// steps' tokens in order. budget: the most tokens the command may still use (a step stops
// there). Errors as frink_seq_eval / frink_sampler_sample / frink_spec_step (not printed).
frink_status cli_spec_next(struct cli_spec *cs, const float *prompt_logits, int budget, frink_token *tok);
// Leaves the sequence holding the tokens the command used but the last (what plain decoding
// leaves), or with keep_last all of them (the last evaluated if it was not): a step's tokens
// the command did not take are dropped. Returns 0, or 1 (printed).
int cli_spec_end(struct cli_spec *cs, bool keep_last);
// The acceptance figures: a line on f, or with json a ',"spec":{...}' member.
void cli_spec_report(const struct cli_spec *cs, FILE *f, bool json);
void cli_spec_close(struct cli_spec *cs);

// template.c:
// The chat template of `file`, or the model's own (ChatML, said on stderr, when it has none).
int cli_template_open(const frink_model *m, const char *file, frink_template **t);
// Tokenizes a rendered prompt: BOS added only when the text does not start with it.
frink_status cli_tokenize_prompt(const frink_model *m, const char *text, size_t len, frink_token **ids, size_t *n);

// The subcommands: argv holds the flags after the command's name; each prints its own help
// (-h, --help) and returns the process's exit status (0; 1: a failure; 2: bad flags).
int cmd_run(int argc, char **argv);      // run.c
int cmd_tokenize(int argc, char **argv); // inspect.c
int cmd_logits(int argc, char **argv);   // inspect.c
int cmd_inspect(int argc, char **argv);  // inspect.c
int cmd_archs(int argc, char **argv);    // inspect.c
int cmd_template(int argc, char **argv);
int cmd_chat(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_serve(int argc, char **argv);    // serve.c
int cmd_embed(int argc, char **argv);    // embed.c
int cmd_pull(int argc, char **argv);     // pull.c
int cmd_imatrix(int argc, char **argv);  // imatrix.c
int cmd_ls(int argc, char **argv);       // pull.c
int cmd_rm(int argc, char **argv);       // pull.c
int cmd_quantize(int argc, char **argv); // quantize.c

#endif
