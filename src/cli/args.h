// args.h — the helpers every subcommand's flag parsing calls: errors in the CLI's one shape
// ("frink: ..." on stderr), numbers checked against their range, token id lists, --help, whole
// files. They know nothing of models or engines (cli.h), so every file of the CLI may use them
// and none of them calls back up.
#ifndef FRINK_CLI_ARGS_H
#define FRINK_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "frink.h"

// The subcommand running (main.c sets it; NULL before one is chosen): errors name it.
extern const char *cli_cmd;
// Prints "frink: CMD: " and the message on stderr (CMD once: a message that starts with it
// keeps its own). Returns 2 (the exit status of a bad flag), so a parser can
// `return cli_die(...)`; runtime failures print with it and return 1 (the CLI's rule: 2 for
// bad usage, 1 for a failure at run time).
int cli_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// Parses s as a decimal integer in [lo, hi] into *out. False (the message names `flag`, the
// range and s) on junk or out of range; *out is then untouched.
bool cli_int(const char *flag, const char *s, long lo, long hi, long *out);
// As cli_int for a number (strtod's syntax; NaN refused).
bool cli_float(const char *flag, const char *s, double lo, double hi, double *out);
// Parses "1,2,3" (token ids, each in [0, INT32_MAX]) into a malloc'ed array *ids of *n > 0
// entries. False (message printed, nothing allocated) on junk or an empty list.
bool cli_ids(const char *s, int32_t **ids, int *n);
// True when argv holds -h or --help (a command then prints its help and exits 0).
bool cli_wants_help(int argc, char **argv);
// The whole file at path in a malloc'ed NUL-terminated buffer (*len bytes, the NUL not
// counted). NULL after printing the error (cannot open, cannot read, out of memory).
char *cli_read_file(const char *path, size_t *len);
// As cli_read_file, where "-" is stdin (read to its end).
char *cli_read_input(const char *path, size_t *len);
// A prompt file as the reference reads -f and -sysf: cli_read_input's text without one trailing
// newline. NULL (printed) when it cannot be read or holds a NUL byte.
char *cli_read_text(const char *path);
// Consumes a sampling flag (--temp / --temperature, --top-k, --top-p, --min-p, the penalties,
// --repeat-last-n, --seed / -s) at argv[i] into *sp: returns how many args it used (2), 0 when
// argv[i] is no sampling flag, or -1 after printing an error. --seed -1 (the reference's
// "random") sets sp->seed to CLI_SEED_RANDOM, which cli_seed_resolve turns into a seed.
int cli_sampling_flag(frink_sampler_params *sp, int argc, char **argv, int i);
// The seed --seed -1 asks for; no value --seed can give (those stop at LONG_MAX).
#define CLI_SEED_RANDOM UINT64_MAX
// A CLI_SEED_RANDOM seed replaced by a random one, printed on stderr ("frink: seed N", so the
// run can be repeated with --seed N); any other seed is left alone.
void cli_seed_resolve(frink_sampler_params *sp);

#endif
