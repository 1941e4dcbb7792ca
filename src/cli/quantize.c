// quantize.c — `frink quantize`: a GGUF's weights into a quantized GGUF, byte for byte what
// llama.cpp's llama-quantize writes for the same input and options.
//
//   frink quantize IN.gguf OUT.gguf Q4_K_M [--pure] [--output-tensor-type T] [-t THREADS]
//
// Flags, usage and messages only: the work is the library's frink_quantize
// (src/tools/quantize.c), which says what the file holds.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static void quantize_usage(FILE *f) {
    fputs("usage: frink quantize IN.gguf OUT.gguf TYPE [--imatrix FILE] [--pure] [--output-tensor-type T]\n"
          "                      [--token-embedding-type T] [--leave-output-tensor] [--allow-requantize] [-t THREADS]\n"
          "  writes OUT.gguf with IN.gguf's weights quantized to TYPE: the same bytes as llama.cpp's\n"
          "  llama-quantize IN OUT TYPE with the same flags (its per-tensor type mix, tensor order, metadata).\n"
          "  Input weights: F32, F16 or BF16. OUT is written to a temporary file and renamed when complete.\n"
          "  TYPE (case-insensitive):",
          f);
    for (int i = 0; frink_quantize_ftype_name(i); i++) fprintf(f, " %s", frink_quantize_ftype_name(i));
    fputs("\n"
          "  not implemented (refused by name): Q2_K_S, the 1-3-bit IQ types (IQ2_XS, IQ3_S, ...), TQ1_0, TQ2_0,\n"
          "  NVFP4, Q1_0, Q2_0; --include-weights, --exclude-weights, --tensor-type, --prune-layers, --keep-split,\n"
          "  --override-kv, --dry-run\n"
          "  --imatrix FILE           an importance matrix (llama-imatrix's GGUF format) weighting the fits, as\n"
          "                           llama-quantize --imatrix uses it (and notes it in quantize.imatrix.*)\n"
          "  --pure                   every weight in TYPE's own tensor type (no mix); rows that do not\n"
          "                           divide into its blocks still fall back to a smaller block\n"
          "  --output-tensor-type T   output.weight as tensor type T (f32, f16, bf16, q4_0, q4_1, q5_0, q5_1,\n"
          "                           q8_0, q2_k, q3_k, q4_k, q5_k, q6_k,\n"
          "                           iq4_nl, iq4_xs, mxfp4)\n"
          "  --token-embedding-type T token_embd.weight as tensor type T\n"
          "  --leave-output-tensor    output.weight kept as it is\n"
          "  --allow-requantize       accept weights that are already quantized (dequantized first)\n"
          "  -t THREADS               threads (default: all); the file is the same at any count\n"
          "example: frink quantize /tmp/llama-1b.gguf /tmp/llama-1b-q4_k_m.gguf Q4_K_M\n",
          f);
}

struct quantize_ui {
    struct cli_progress *pg;
};

// On a terminal, the status line: the percent of input bytes done and the tensor.
static void quantize_progress(void *ud, const frink_quantize_progress *p) {
    struct quantize_ui *ui = ud;
    if (!p->tensor) return;
    int pct = p->bytes_total ? (int)(100.0 * (double)p->bytes_done / (double)p->bytes_total) : 100;
    cli_progress_set(ui->pg, "quantize: %3d%% [%d/%d] %.40s %s -> %s", pct, p->index + 1, p->n_tensors, p->tensor,
                     p->from_type, p->to_type);
}

int cmd_quantize(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) {
        quantize_usage(stdout);
        return 0;
    }
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    frink_quantize_params qp = {0};
    long threads = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--pure")) qp.pure = true;
        else if (!strcmp(a, "--leave-output-tensor")) qp.leave_output_tensor = true;
        else if (!strcmp(a, "--allow-requantize")) qp.allow_requantize = true;
        else if (!strcmp(a, "--output-tensor-type") || !strcmp(a, "--token-embedding-type") || !strcmp(a, "-t") ||
                 !strcmp(a, "--threads") || !strcmp(a, "--imatrix")) {
            if (!v) return cli_die("%s needs a value (see `frink quantize --help`)", a);
            if (!strcmp(a, "--output-tensor-type")) qp.output_tensor_type = v;
            else if (!strcmp(a, "--imatrix")) qp.imatrix_path = v;
            else if (!strcmp(a, "--token-embedding-type")) qp.token_embedding_type = v;
            else if (!cli_int(a, v, 1, 1024, &threads)) return 2;
            i++;
        } else if (!strcmp(a, "--include-weights") || !strcmp(a, "--exclude-weights") ||
                   !strcmp(a, "--tensor-type") || !strcmp(a, "--prune-layers") || !strcmp(a, "--keep-split") ||
                   !strcmp(a, "--override-kv") || !strcmp(a, "--dry-run")) {
            return cli_die("%s is not implemented by frink quantize", a);
        } else if (a[0] == '-' && a[1]) {
            return cli_die("unknown flag '%s' (see `frink quantize --help`)", a);
        } else if (npos < 3) {
            pos[npos++] = a;
        } else {
            return cli_die("unexpected argument '%s' (usage: frink quantize IN OUT TYPE [flags])", a);
        }
    }
    if (npos < 3) {
        quantize_usage(stderr);
        return 2;
    }
    qp.ftype = pos[2];
    qp.n_threads = (int)threads;
    struct quantize_ui ui = {.pg = cli_progress_start("quantize: reading %s", pos[0])};
    qp.progress = quantize_progress;
    qp.progress_ud = &ui;
    frink_status st = frink_quantize(pos[0], pos[1], &qp);
    cli_progress_end(ui.pg);
    if (st != FRINK_OK) {
        // A bad TYPE or tensor type is a usage error; everything else happened at run time.
        cli_die("%s", frink_errmsg());
        // (the library names a tensor first when the file is at fault: "tensor X is already quantized")
        const char *msg = frink_errmsg();
        return st == FRINK_ERR_ARG || (st == FRINK_ERR_UNSUPPORTED && strncmp(msg, "tensor ", 7)) ? 2 : 1;
    }
    fprintf(stderr, "quantize: wrote %s (%s)\n", pos[1], pos[2]);
    return 0;
}
