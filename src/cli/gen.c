// gen.c — `frink gen`: writes a GGUF with random weights and the real shapes of
// a named model, for parity and speed checks at sizes no fixture has.
//
//   frink gen --preset qwen35-2b -o /tmp/q35-2b.gguf [--vocab FILE] [--layers N] [--seed S]
//
// Flags, usage and messages only: the writer is the library's frink_gen_model
// (src/tools/gen.c), which says what the file holds.
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "frink_tools.h"

static void gen_usage(FILE *f) {
    fputs("usage: frink gen --preset NAME -o OUT.gguf [--vocab FILE] [--layers N] [--seed S]\n"
          "  writes a GGUF (v3, F16 matrices) with random weights and the preset's real shapes;\n"
          "  the tokenizer is copied from --vocab FILE (a GGUF). Default: the preset's file under tests/data\n"
          "  when run in frink's checkout, else (and for the tiny presets) the embedded stories260K tokenizer.\n"
          "presets:\n",
          f);
    int w = 16; // (the name column as wide as the longest name)
    for (int i = 0; frink_gen_preset_name(i); i++)
        if ((int)strlen(frink_gen_preset_name(i)) > w) w = (int)strlen(frink_gen_preset_name(i));
    for (int i = 0; frink_gen_preset_name(i); i++)
        fprintf(f, "  %-*s %-14s %s\n", w, frink_gen_preset_name(i), frink_gen_preset_arch(i), frink_gen_preset_about(i));
    fputs("  --preset NAME            the shapes to write (above); --list prints this\n"
          "  -o FILE                  the GGUF to write\n"
          "  --vocab FILE             the GGUF whose tokenizer is copied\n"
          "  --layers N               fewer layers than the preset's (same shapes otherwise)\n"
          "  --seed S                 seed of the random weights (same seed, same file)\n"
          "example: frink gen --preset llama-1b -o /tmp/llama-1b.gguf\n",
          f);
}

// The writer's reports on stderr: what is written, then, on a terminal, the status line (from
// the first second: the percent done, the tensor being written, the seconds spent; a log gets
// the summary only).
static void gen_progress(void *ud, const frink_gen_progress *p) {
    struct cli_progress **pg = ud;
    if (p->percent < 0) {
        cli_progress_end(*pg); // (its line erased: the summary starts at the margin)
        fprintf(stderr, "gen: %s (%s), %d layers, vocabulary %d from %s, %d tensors, %.2f GB -> %s\n", p->preset,
                p->arch, p->n_layers, p->n_vocab, p->vocab_path, p->n_tensors, p->total_bytes / 1e9, p->out_path);
        *pg = cli_progress_start("gen: writing");
    } else {
        cli_progress_set(*pg, "gen: %3d%% %.40s", p->percent, p->tensor);
    }
}

int cmd_gen(int argc, char **argv);

int cmd_gen(int argc, char **argv) {
    const char *preset = NULL, *out = NULL, *vocab_path = NULL;
    long layers = 0, seed = 1;
    for (int i = 0; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--list") || !strcmp(a, "-h") || !strcmp(a, "--help")) { gen_usage(stdout); return 0; }
        if (!v) return cli_die("gen: %s needs a value (or is unknown; see `frink gen --help`)", a);
        if (!strcmp(a, "--preset")) preset = v;
        else if (!strcmp(a, "-o")) out = v;
        else if (!strcmp(a, "--vocab")) vocab_path = v;
        else if (!strcmp(a, "--layers")) { if (!cli_int(a, v, 1, 512, &layers)) return 2; }
        else if (!strcmp(a, "--seed")) { if (!cli_int(a, v, 0, LONG_MAX, &seed)) return 2; }
        else return cli_die("gen: unknown flag '%s' (see `frink gen --help`)", a);
    }
    if (!preset || !out) {
        gen_usage(stderr);
        return 2;
    }
    // Checked here as well as in the library, for the message that points at --list.
    bool known = false;
    for (int i = 0; frink_gen_preset_name(i); i++) known |= !strcmp(frink_gen_preset_name(i), preset);
    if (!known) return cli_die("gen: unknown preset '%s' (see `frink gen --list`)", preset);
    // The status line covers the vocabulary's reading too: it starts before the first report.
    struct cli_progress *pg = cli_progress_start("gen: reading the vocabulary");
    frink_gen_params gp = {.preset = preset, .out_path = out, .vocab_path = vocab_path, .n_layers = (int)layers,
                           .seed = (uint64_t)seed, .progress = gen_progress, .progress_ud = &pg};
    frink_status st = frink_gen_model(&gp);
    cli_progress_end(pg);
    if (st == FRINK_ERR_NOMEM) {
        cli_die("out of memory");
        return 1;
    }
    if (st != FRINK_OK) {
        // A vocabulary that cannot be read is most often the default one, missing when
        // frink runs outside the repository: say how to pass another. Problems with the
        // inputs exit 2, failing to write the output 1.
        const char *msg = frink_errmsg();
        bool vocab = !strncmp(msg, "vocabulary: ", 12);
        cli_die("gen: %s%s", msg, vocab ? " (pass --vocab FILE)" : "");
        return st == FRINK_ERR_IO && !vocab ? 1 : 2;
    }
    fprintf(stderr, "gen: wrote %s\n", out);
    return 0;
}
