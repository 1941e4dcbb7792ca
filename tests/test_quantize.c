// frink quantize against the reference: for fixtures of varied architectures (dense, MoE, rows
// that are not a multiple of 256, Falcon's own mix, tied and untied embeddings) and every file
// type frink writes, `frink quantize` and the oracle's llama_model_quantize must write the same
// bytes (cmp). Without the oracle (build/peer/oracle, or $ORACLE) those comparisons are skipped,
// saying so; the pinned SHA-256 of a few of frink's outputs are checked either way, so that
// the test never passes on nothing. Then the options, requantizing, thread-count independence,
// and the errors (exit 2 for usage, 1 at run time; a failed run leaves OUT as it was).
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

static const char *bin, *oracle;
static const char *dir = "/tmp/frink-test-quantize";

static int sh(const char *cmd) {
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

// Runs frink with args; stderr into *err (when not NULL). Returns the exit status.
static int frink(const char *args, char *err, size_t cap) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s quantize %s 2>%s/err >/dev/null", bin, args, dir);
    int rc = sh(cmd);
    if (err) {
        char p[256];
        snprintf(p, sizeof p, "%s/err", dir);
        FILE *f = fopen(p, "r");
        size_t n = f ? fread(err, 1, cap - 1, f) : 0;
        err[n] = 0;
        if (f) fclose(f);
    }
    return rc;
}

static int lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

static int files_equal(const char *a, const char *b) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cmp -s %s %s", a, b);
    return sh(cmd) == 0;
}

static void sha256(const char *path, char out[65]) {
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sha256sum %s 2>/dev/null", path);
    FILE *p = popen(cmd, "r");
    out[0] = 0;
    if (p) {
        if (fscanf(p, "%64s", out) != 1) out[0] = 0;
        pclose(p);
    }
}

// The file types, as llama_ftype numbers (the oracle's) and frink's names.
static const struct {
    int n;
    const char *name;
} ftypes[] = {
    {2, "Q4_0"},    {3, "Q4_1"},    {8, "Q5_0"},    {9, "Q5_1"},    {7, "Q8_0"},    {10, "Q2_K"},
    {11, "Q3_K_S"}, {12, "Q3_K_M"}, {13, "Q3_K_L"}, {14, "Q4_K_S"}, {15, "Q4_K_M"}, {16, "Q5_K_S"},
    {17, "Q5_K_M"}, {18, "Q6_K"},   {25, "IQ4_NL"}, {30, "IQ4_XS"}, {38, "MXFP4_MOE"},
    {1, "F16"},     {32, "BF16"},   {0, "F32"},
};

// llama: rows of 384 (ffn_down: the K-quants' fallbacks); qwen3moe, deepseek2, olmoe: MoE
// (layers from the names); falcon: its own mix; gemma3: tied embeddings.
static const char *const fixtures[] = {
    "llama-dense", "qwen3moe-moe", "gemma3-dense", "falcon-dense", "phi3-dense",
    "deepseek2-moe", "mamba-dense", "gpt2-dense", "olmoe-moe", "starcoder2-dense",
};

// frink and the oracle on the same input and options; true when both succeed with equal files.
static int same_as_oracle(const char *in, const char *fname, int fnum, const char *fopts, const char *oopts) {
    char cmd[4096], fo[256], oo[256];
    snprintf(fo, sizeof fo, "%s/frink.gguf", dir);
    snprintf(oo, sizeof oo, "%s/oracle.gguf", dir);
    snprintf(cmd, sizeof cmd, "%s %s %s %s -t 2", in, fo, fname, fopts);
    int frc = frink(cmd, NULL, 0);
    snprintf(cmd, sizeof cmd, "%s quantize %s %s %d -t 2 %s >/dev/null 2>&1", oracle, in, oo, fnum, oopts);
    int orc = sh(cmd);
    int ok = frc == 0 && orc == 0 && files_equal(fo, oo);
    if (!ok) fprintf(stderr, "  %s %s %s: frink exit %d, oracle exit %d\n", in, fname, fopts, frc, orc);
    remove(fo);
    remove(oo);
    return ok;
}

int main(void) {
    bin = getenv("FRINK_BIN") ? getenv("FRINK_BIN") : "build/frink";
    oracle = getenv("ORACLE") ? getenv("ORACLE") : "build/peer/oracle";
    char cmd[4096], err[4096], in[256], out[256], h[65];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s", dir, dir);
    sh(cmd);
    bool have_oracle = access(oracle, X_OK) == 0;

    // 1. Pinned outputs: frink's own bytes, oracle or not (the values are the oracle's files).
    static const struct {
        const char *fixture, *ftype, *sha;
    } pins[] = {
        {"llama-dense", "Q4_K_M", "24cc4dce913217a734fd90c89000885cf3ff021faf14c3b2acf87760921e87ac"},
        {"qwen3moe-moe", "Q4_K_M", "db3e70d3ba24f3d2be705868f8a11ba7ae27468644f1687d5df727155354e9cc"},
        {"llama-dense", "Q8_0", "be1c062c9c42d90788b51c10c2c4c92bf3f23c853c527d7acdb5f731f43f5b71"},
        {"falcon-dense", "Q3_K_M", "66de3bb4faeb3ad280946871346d4f69eb74f6eeac9612ad01148fc10ae58dae"},
        {"qwen3moe-moe", "Q4_K_M --imatrix tests/data/imatrix/qwen3moe-moe.imatrix.gguf",
         "75fa8e92625084941b979e80200d5be2c5cecb41df1a6ef1a4159e563ff4645f"},
    };
    for (size_t i = 0; i < sizeof pins / sizeof *pins; i++) {
        snprintf(out, sizeof out, "%s/pin.gguf", dir);
        snprintf(cmd, sizeof cmd, "tests/data/archs/%s.gguf %s %s", pins[i].fixture, out, pins[i].ftype);
        CHECK(frink(cmd, err, sizeof err) == 0, "quantize %s %s: %s", pins[i].fixture, pins[i].ftype, err);
        sha256(out, h);
        CHECK(!strcmp(h, pins[i].sha), "%s %s: sha256 %s, want %s", pins[i].fixture, pins[i].ftype, h, pins[i].sha);
        remove(out);
    }

    // 2. Thread count: the same file at 1, 2 and 3 threads.
    char h1[65] = "", hn[65];
    for (int t = 1; t <= 3; t++) {
        snprintf(out, sizeof out, "%s/t.gguf", dir);
        snprintf(cmd, sizeof cmd, "tests/data/archs/qwen3moe-moe.gguf %s Q5_K_M -t %d", out, t);
        CHECK(frink(cmd, err, sizeof err) == 0, "-t %d: %s", t, err);
        sha256(out, hn);
        if (t == 1) memcpy(h1, hn, sizeof h1);
        else CHECK(!strcmp(h1, hn) && h1[0], "-t %d writes another file than -t 1", t);
        remove(out);
    }

    // 3. Every file type on every fixture, against the reference.
    if (!have_oracle) {
        printf("  skipped: the comparisons with the reference (no %s)\n", oracle);
    } else {
        for (size_t f = 0; f < sizeof fixtures / sizeof *fixtures; f++) {
            snprintf(in, sizeof in, "tests/data/archs/%s.gguf", fixtures[f]);
            for (size_t i = 0; i < sizeof ftypes / sizeof *ftypes; i++)
                CHECK(same_as_oracle(in, ftypes[i].name, ftypes[i].n, "", ""), "%s %s: not the reference's bytes",
                      fixtures[f], ftypes[i].name);
        }
        // BF16 and F32 inputs (frink's own BF16 / F32 files of two fixtures) into three types.
        static const char *const bfx[] = {"llama-dense", "qwen3moe-moe"};
        for (size_t f = 0; f < sizeof bfx / sizeof *bfx; f++)
            for (int k = 0; k < 2; k++) {
                snprintf(in, sizeof in, "%s/src-%s.gguf", dir, k ? "f32" : "bf16");
                snprintf(cmd, sizeof cmd, "tests/data/archs/%s.gguf %s %s", bfx[f], in, k ? "F32" : "BF16");
                CHECK(frink(cmd, err, sizeof err) == 0, "%s to %s: %s", bfx[f], k ? "F32" : "BF16", err);
                CHECK(same_as_oracle(in, "Q4_K_M", 15, "", ""), "%s from %s: Q4_K_M", bfx[f], k ? "F32" : "BF16");
                CHECK(same_as_oracle(in, "Q8_0", 7, "", ""), "%s from %s: Q8_0", bfx[f], k ? "F32" : "BF16");
                CHECK(same_as_oracle(in, "F16", 1, "", ""), "%s from %s: F16", bfx[f], k ? "F32" : "BF16");
                remove(in);
            }
        // The options, where the oracle takes them (an older oracle ignores them: it then
        // accepts an unknown option, which a current one refuses).
        snprintf(cmd, sizeof cmd, "%s quantize tests/data/archs/llama-dense.gguf %s/o.gguf 7 --no-such-option >/dev/null 2>&1",
                 oracle, dir);
        if (sh(cmd) == 0) {
            printf("  skipped: the options and --imatrix against the reference (%s is an older build that ignores them;\n"
                   "  scripts/peer/setup.sh builds the current oracle.c into /tmp/frink-peer, ORACLE=/tmp/frink-peer/oracle)\n",
                   oracle);
        } else {
            static const struct {
                int n;
                const char *name, *fopts, *oopts;
            } opts[] = {
                {15, "Q4_K_M", "--pure", "--pure"},
                {12, "Q3_K_M", "--leave-output-tensor", "--leave-output-tensor"},
                {15, "Q4_K_M", "--output-tensor-type q8_0", "--output-tensor-type 8"},
                {15, "Q4_K_M", "--token-embedding-type f16", "--token-embedding-type 1"},
                {10, "Q2_K", "--output-tensor-type Q6_K --token-embedding-type q4_k",
                 "--output-tensor-type 14 --token-embedding-type 12"},
                {18, "Q6_K", "--pure --output-tensor-type f32", "--pure --output-tensor-type 0"},
                {30, "IQ4_XS", "--token-embedding-type iq4_nl", "--token-embedding-type 20"},
                {38, "MXFP4_MOE", "--pure", "--pure"},
            };
            static const char *const ofx[] = {"llama-dense", "qwen3moe-moe", "gemma3-dense"};
            for (size_t f = 0; f < sizeof ofx / sizeof *ofx; f++) {
                snprintf(in, sizeof in, "tests/data/archs/%s.gguf", ofx[f]);
                for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
                    CHECK(same_as_oracle(in, opts[i].name, opts[i].n, opts[i].fopts, opts[i].oopts), "%s %s %s", ofx[f],
                          opts[i].name, opts[i].fopts);
            }
            // Requantizing: a Q4_K_M file into Q4_0 and Q6_K, dequantized as the reference does.
            snprintf(in, sizeof in, "%s/src-q4km.gguf", dir);
            snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q4_K_M", in);
            CHECK(frink(cmd, err, sizeof err) == 0, "Q4_K_M source: %s", err);
            CHECK(same_as_oracle(in, "Q4_0", 2, "--allow-requantize", "--allow-requantize"), "requantize Q4_K_M -> Q4_0");
            CHECK(same_as_oracle(in, "Q6_K", 18, "--allow-requantize", "--allow-requantize"), "requantize Q4_K_M -> Q6_K");
        }
        // Importance matrices (tests/data/imatrix, written by scripts/make-imatrix.py), where the
        // oracle reads them (an oracle without --imatrix takes a missing file without a word).
        snprintf(cmd, sizeof cmd, "%s quantize tests/data/archs/llama-dense.gguf %s/o.gguf 7 --imatrix %s/none >/dev/null 2>&1",
                 oracle, dir, dir);
        if (sh(cmd) == 0) {
            printf("  skipped: --imatrix against the reference (%s does not read importance matrices)\n", oracle);
        } else {
            static const char *const ifx[] = {"llama-dense", "qwen3moe-moe", "gemma3-dense"};
            for (size_t f = 0; f < sizeof ifx / sizeof *ifx; f++) {
                char opt[256];
                snprintf(in, sizeof in, "tests/data/archs/%s.gguf", ifx[f]);
                snprintf(opt, sizeof opt, "--imatrix tests/data/imatrix/%s.imatrix.gguf", ifx[f]);
                for (size_t i = 0; i < sizeof ftypes / sizeof *ftypes; i++)
                    if (ftypes[i].n != 0 && ftypes[i].n != 1 && ftypes[i].n != 32)
                        CHECK(same_as_oracle(in, ftypes[i].name, ftypes[i].n, opt, opt), "%s %s %s", ifx[f], ftypes[i].name, opt);
            }
        }
    }

    // 4. Errors: one line naming the problem; 2 for usage, 1 at run time; OUT as it was.
    snprintf(out, sizeof out, "%s/keep.gguf", dir);
    FILE *kf = fopen(out, "w");
    if (kf) fputs("old contents", kf), fclose(kf);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q9_X", out);
    CHECK(frink(cmd, err, sizeof err) == 2 && strstr(err, "Q9_X"), "unknown type: exit 2 naming it: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s IQ2_XS", out);
    CHECK(frink(cmd, err, sizeof err) == 2 && strstr(err, "IQ2_XS") && strstr(err, "not implemented"),
          "an ftype frink does not write is refused by name: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q4_K_M --output-tensor-type iq3_s", out);
    CHECK(frink(cmd, err, sizeof err) == 2 && strstr(err, "IQ3_S"), "a tensor type frink does not write: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q4_K_M --dry-run", out);
    CHECK(frink(cmd, err, sizeof err) == 2 && strstr(err, "--dry-run"), "--dry-run is refused by name: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q4_K_M --imatrix tests/data/archs/llama-dense.gguf", out);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "imatrix"), "a GGUF that is no imatrix: exit 1: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/deepseek2-moe.gguf %s Q4_K_M --imatrix tests/data/imatrix/llama-dense.imatrix.gguf", out);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "imatrix size"), "another model's imatrix: exit 1: %s", err);
    CHECK(frink("tests/data/archs/llama-dense.gguf", err, sizeof err) == 2 && strstr(err, "usage"), "missing args: %s", err);
    CHECK(frink("a b Q4_0 --bogus", err, sizeof err) == 2 && strstr(err, "--bogus"), "unknown flag: %s", err);
    snprintf(in, sizeof in, "%s/corrupt.gguf", dir);
    snprintf(cmd, sizeof cmd, "head -c 5000 tests/data/archs/llama-dense.gguf > %s", in);
    sh(cmd);
    snprintf(cmd, sizeof cmd, "%s %s Q4_0", in, out);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "corrupt.gguf") && lines(err) == 1, "corrupt input: exit 1: %s", err);
    snprintf(cmd, sizeof cmd, "%s/nonexistent.gguf %s Q4_0", dir, out);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "nonexistent.gguf"), "missing input: exit 1: %s", err);
    snprintf(in, sizeof in, "%s/q8.gguf", dir);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s Q8_0", in);
    CHECK(frink(cmd, err, sizeof err) == 0, "Q8_0: %s", err);
    snprintf(cmd, sizeof cmd, "%s %s Q4_K_M", in, out);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "--allow-requantize"), "already quantized: exit 1: %s", err);
    snprintf(cmd, sizeof cmd, "tests/data/archs/llama-dense.gguf %s/no/such/dir/out.gguf Q4_0", dir);
    CHECK(frink(cmd, err, sizeof err) == 1 && strstr(err, "no/such/dir"), "unwritable OUT: exit 1: %s", err);
    size_t kl = 0;
    char *kc = test_read_file(out, &kl);
    CHECK(kc && !strcmp(kc, "old contents"), "a failed run leaves OUT as it was");
    free(kc);
    snprintf(cmd, sizeof cmd, "ls %s | grep -c 'keep.gguf.' | grep -q '^0$'", dir);
    CHECK(sh(cmd) == 0, "a failed run leaves no temporary file");
    CHECK(frink("--help", err, sizeof err) == 0, "--help");
    snprintf(cmd, sizeof cmd, "%s quantize --help | grep -q 'example: frink quantize'", bin);
    CHECK(sh(cmd) == 0, "--help has an example");

    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    sh(cmd);
    return TEST_DONE();
}
