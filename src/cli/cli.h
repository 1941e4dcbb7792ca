// cli.h — what the subcommands share: model flags and an opened engine.
#ifndef FRINK_CLI_H
#define FRINK_CLI_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "core/gguf.h"
#include "core/pool.h"
#include "model/forward.h"
#include "model/model.h"
#include "model/seq.h"
#include "text/tokenizer.h"

struct cli_model_opts {
    const char *path;   // NULL: the embedded default model
    long threads;       // 0: all available
    long ctx;           // initial KV capacity
    long batch;         // prefill batch
    bool reference;     // scalar reference kernels
    bool allow_unread;
    bool vocab_only;    // tokenizer only (no weights bound)
    bool no_tokenizer;  // weights only (logits from ids)
    int kv_type;        // enum kv_type of the sequence's cache (F16 default)
    long gdn_chunk;     // chunk of the chunked Gated DeltaNet prefill (0: default)
};

struct cli_engine {
    struct gguf_file *f;   // owned by m once loaded
    struct model *m;
    struct tokenizer *tok;
    struct pool *pool;
    struct exec *ex;
    struct seq *seq;
};

void cli_model_opts_init(struct cli_model_opts *o);
// Consumes a model flag at argv[i]: returns how many args it used (0: not a
// model flag), or -1 after printing an error.
int cli_model_flag(struct cli_model_opts *o, int argc, char **argv, int i);
frink_status cli_open_gguf(const struct cli_model_opts *o, struct gguf_file **f);
// Opens everything; prints the error and returns non-zero on failure.
int cli_engine_open(const struct cli_model_opts *o, struct cli_engine *e);
void cli_engine_close(struct cli_engine *e);
void cli_print_metadata(FILE *out, const struct gguf_file *f);

int cmd_bench(int argc, char **argv);
int cmd_gen(int argc, char **argv);

int cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool cli_int(const char *flag, const char *s, long lo, long hi, long *out);
bool cli_float(const char *flag, const char *s, double lo, double hi, double *out);
bool cli_ids(const char *s, int32_t **ids, int *n);

#endif
