// frink — the command-line program. main() only dispatches; each subcommand (cli.h lists
// the files) parses its flags, validates them with one-line errors, and calls libfrink.
#include <stdio.h>
#include <stdbool.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f) {
    fputs("usage: frink COMMAND [flags]\n"
          "  run       -m MODEL (-p PROMPT | -f FILE) -n N [-r STOP] [-t THREADS] [--temp T --top-k K --top-p P --min-p M --seed S\n"
          "            --repeat-penalty R --presence-penalty P --frequency-penalty F --repeat-last-n N] [--json]\n"
          "            [--prompt-cache FILE]: reuse and save the prompt's state (KV, recurrent state)\n"
          "            [--chat [--system TEXT]]: the prompt as one user turn of the model's chat template\n"
          "  chat      -m MODEL [--system TEXT] [--reasoning on|off] [-n N] [sampling flags]: an interactive chat\n"
          "  template  -m MODEL (--messages FILE [--tools FILE] [--no-generation-prompt] | --context FILE) [--ids]\n"
          "  tokenize  -m MODEL [--no-bos] (TEXT | - | -f FILE)\n"
          "  logits    -m MODEL --ids 1,2,3 -o OUT.f32 [--all] [--decode]\n"
          "  embed     -m MODEL [--pooling none|mean|cls|last|rank] [--normalize N] [--json | --raw] (-f FILE | TEXT...)\n"
          "  imatrix   -m MODEL -f TEXT [-o imatrix.gguf] [-c 512] [--chunks N]: the importance matrix for quantizing\n"
          "  inspect   -m MODEL\n"
          "  archs     [--json] architectures frink runs, and why the others are refused\n"
          "  gen       --preset NAME -o OUT.gguf [--vocab FILE] [--layers N] [--seed S]: random weights, real shapes\n"
          "  quantize  IN.gguf OUT.gguf TYPE [--pure] [-t THREADS] ...: quantizes a GGUF as llama-quantize does\n"
          "  serve     -m MODEL [--host H] [--port P] [-np SLOTS] [--api-key K]: OpenAI / Anthropic API server\n"
          "  bench     -m MODEL [-p 128] [-n 32] [-d DEPTH] [-t THREADS] [-r REPS] [--json]; --parallel S; --bandwidth;\n"
          "            --kernels\n"
          "  pull      USER/REPO[:QUANT] [--hf-file F] [--hf-token T] [--offline]: a GGUF from Hugging Face into its cache\n"
          "  ls        [USER/REPO] [--json]: the models in the Hugging Face cache\n"
          "  rm        USER/REPO[:QUANT]: removes a model (or one quant of it) from the cache\n"
          "model flags: -m MODEL (default: the embedded stories260K), -t THREADS, -c CONTEXT, -b BATCH,\n"
          "             --cache-type f16|f32|q8_0 (KV cache format, default f16), --gdn-chunk N (1: token recurrence),\n"
          "             --reference (scalar reference kernels), --allow-unread (ignore tensors nothing reads),\n"
          "             -hf USER/REPO[:QUANT] (a model from Hugging Face instead of -m; --offline: the cache only)\n"
          "`frink help COMMAND` (or `frink COMMAND --help`) describes a command's flags, with an example;\n"
          "`frink --version` prints the version.\n"
          "example: frink run -p \"Once upon a time\" -n 64\n",
          f);
}

// The subcommands, by name.
static const struct {
    const char *name;
    int (*fn)(int argc, char **argv);
} commands[] = {
    {"run", cmd_run},         {"tokenize", cmd_tokenize}, {"logits", cmd_logits}, {"inspect", cmd_inspect},
    {"archs", cmd_archs},     {"template", cmd_template}, {"chat", cmd_chat},     {"bench", cmd_bench},
    {"gen", cmd_gen},         {"serve", cmd_serve},       {"embed", cmd_embed},       {"quantize", cmd_quantize},
    {"pull", cmd_pull},       {"ls", cmd_ls},             {"rm", cmd_rm},
    {"imatrix", cmd_imatrix},
};

// `frink --version`: the library's version, and what built it (the reference's --version
// prints its version and build the same way; -v is its --verbose, so frink keeps -v for that).
static int version(void) {
    printf("frink %s\nbuilt with %s for %s\n", frink_version(),
#ifdef __VERSION__
           "cc " __VERSION__,
#else
           "an unknown compiler",
#endif
#if defined(__x86_64__)
           "x86_64"
#elif defined(__aarch64__)
           "aarch64"
#else
           "this machine"
#endif
    );
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    bool help = !strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h");
    if (help && argc > 2) {
        // `frink help CMD` is `frink CMD --help`.
        char *hargv[] = {(char *)"--help", NULL};
        for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
            if (!strcmp(argv[2], commands[i].name)) return cli_cmd = commands[i].name, commands[i].fn(1, hargv);
        fprintf(stderr, "frink: help: unknown command '%s' (see `frink help`)\n", argv[2]);
        return 2;
    }
    if (help) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) return version();
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name)) {
            cli_cmd = commands[i].name;
            return commands[i].fn(argc - 2, argv + 2);
        }
    if (!strcmp(cmd, "-v")) // the reference's -v is --verbose, as it is for `frink serve`
        fprintf(stderr, "frink: unknown command '-v' (`frink --version` prints the version; -v is --verbose)\n");
    else fprintf(stderr, "frink: unknown command '%s' (see `frink help`)\n", cmd);
    return 2;
}
