// imatrix.c — `frink imatrix`: the importance matrix of a calibration text, in the reference's
// GGUF imatrix format (frink_imatrix_compute), with llama-imatrix's flags and its perplexity line.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static const char help_imatrix[] =
    "usage: frink imatrix [-m MODEL] -f TEXT [-o imatrix.gguf] [-c 512] [--chunks N] [--process-output]\n"
    "                     [--parse-special] [model flags]\n"
    "The importance matrix llama-quantize --imatrix reads: for every weight matrix, the sum of the\n"
    "squares of each input feature over the calibration text (per expert for expert tensors), in the\n"
    "reference's GGUF imatrix format. The text is cut into chunks of -c tokens, each evaluated alone\n"
    "(its first token BOS); the perplexity of each chunk's second half is printed as llama-imatrix does.\n"
    "  -f FILE                  the calibration text (- : stdin); at least two chunks of tokens\n"
    "  -o FILE                  the file to write (default imatrix.gguf; replaced only by a whole one)\n"
    "  -c N                     tokens per chunk (default 512)\n"
    "  --chunks N               at most N chunks (default: all the text holds)\n"
    "  --process-output         collect output.weight too (left out by default, as the reference does)\n"
    "  --parse-special          special tokens written in the text become their tokens\n"
    "  --output-format gguf     the format (gguf only; the legacy .dat is refused)\n"
    "  --no-ppl                 accepted (the perplexity costs next to nothing here)\n"
    "example: frink imatrix -m model-f16.gguf -f calibration.txt -o imatrix.gguf\n";

struct im_progress {
    struct cli_progress *pg;
    bool tty;
};

static void on_progress(void *ud, const frink_imatrix_progress *p) {
    struct im_progress *ip = ud;
    if (ip->tty) {
        double left = p->seconds / p->chunk * (p->n_chunks - p->chunk);
        cli_progress_set(ip->pg, "frink: chunk %d of %d, PPL %.4f, %.0f s left", p->chunk, p->n_chunks, p->ppl, left);
    } else {
        fprintf(stderr, "[%d]%.4f,", p->chunk, p->ppl);
        if (p->chunk == p->n_chunks) fputc('\n', stderr);
    }
}

int cmd_imatrix(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return cli_help_model(help_imatrix);
    struct cli_model_opts mo;
    cli_model_opts_init(&mo);
    frink_imatrix_params ip = frink_imatrix_default_params();
    const char *file = NULL, *out = "imatrix.gguf";
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long x;
        if (!strcmp(a, "-c") || !strcmp(a, "--ctx-size")) { // the chunk size, as llama-imatrix's -c
            if (!v) return cli_die("%s needs a value", a);
            if (!cli_int(a, v, 2, 1 << 20, &x)) return 2;
            ip.n_ctx = (int)x;
            i++;
            continue;
        }
        int used = cli_model_flag(&mo, argc, argv, i);
        if (used < 0) return 2;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        if (!strcmp(a, "-f") || !strcmp(a, "--file") || !strcmp(a, "-o") || !strcmp(a, "--output") ||
            !strcmp(a, "--output-file") || !strcmp(a, "--chunks") || !strcmp(a, "--output-format")) {
            if (!v) return cli_die("%s needs a value", a);
            i++;
            if (!strcmp(a, "-f") || !strcmp(a, "--file")) file = v;
            else if (!strcmp(a, "--chunks")) {
                if (!cli_int(a, v, -1, 1 << 30, &x)) return 2;
                ip.n_chunks = (int)x;
            } else if (!strcmp(a, "--output-format")) {
                if (strcmp(v, "gguf")) return cli_die("--output-format %s: frink writes the GGUF format only", v);
            } else out = v;
        } else if (!strcmp(a, "--process-output")) ip.process_output = true;
        else if (!strcmp(a, "--parse-special")) ip.parse_special = true;
        else if (!strcmp(a, "--no-ppl")) {
        } else return cli_die("unknown flag '%s' (see frink imatrix --help)", a);
    }
    if (!file) return cli_die("the calibration text is missing (-f FILE)");
    size_t len;
    char *text = cli_read_input(file, &len);
    if (!text) return 1;
    if (!mo.ctx) mo.ctx = ip.n_ctx;
    else if (mo.ctx < ip.n_ctx) mo.ctx = ip.n_ctx;
    struct cli_engine e;
    int rc = cli_engine_open(&mo, &e);
    if (rc) {
        free(text);
        return rc;
    }
    ip.dataset = file;
    struct im_progress pr = {.tty = isatty(2)};
    ip.progress = on_progress;
    ip.progress_ud = &pr;
    if (pr.tty) pr.pg = cli_progress_start("frink: computing the importance matrix");
    frink_imatrix_result res;
    frink_status st = frink_imatrix_compute(e.c, text, len, &ip, out, &res);
    cli_progress_end(pr.pg);
    if (st) rc = (cli_die("%s", frink_errmsg()), 1);
    else {
        fprintf(stderr, "Final estimate: PPL = %.4f +/- %.5f\n", res.ppl, res.ppl_err);
        fprintf(stderr, "frink: %s: %d entries, %d chunks of %d tokens (%d tokens in the text)\n", out, res.n_entries,
                res.n_chunks, ip.n_ctx, res.n_tokens);
    }
    cli_engine_close(&e);
    free(text);
    return rc;
}
