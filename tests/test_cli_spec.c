// test_cli_spec.c — `frink run` and `frink chat` with speculative decoding: the same text as
// without it (greedy and sampled, one turn and several, with -n and -r stopping part way
// through a step, with --prompt-cache), the acceptance figures in --json, and the flags'
// refusals by name.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test.h"

static const char *bin;

// `frink ARGS` (test_run_cmd).
static int run(const char *args, char *out, size_t cap, int merge) { return test_run_cmd(bin, args, out, cap, merge); }

static char want[1 << 16], got[1 << 16];

// The output of `base` without speculation and with each of the modes: byte for byte the same.
static void same_as_plain(const char *base, const char *what) {
    static const char *modes[] = {"--spec lookup", "--spec lookup --draft-fixed --draft-max 4", "--spec-type ngram-simple",
                                  "-md models/stories260K.gguf", "-md models/stories260K.gguf --draft-fixed --draft-p-min 0",
                                  "--spec draft -md models/stories260K.gguf --draft-max 3 --draft-min 2 -td 1"};
    char cmd[2048];
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        CHECK(run(base, want, sizeof want, 0) == 0 && *want, "%s: plain: %s", what, want);
        snprintf(cmd, sizeof cmd, "%s %s", base, modes[i]);
        int rc = run(cmd, got, sizeof got, 0);
        // --json: the ids and the text (the timings differ)
        char *t = strstr(got, ",\"prompt_tokens_reused\""), *u = strstr(want, ",\"prompt_tokens_reused\"");
        if (t && u) *t = 0, *u = 0;
        CHECK(rc == 0 && !strcmp(got, want), "%s with %s: exit %d, %s output\n%s\n---\n%s", what, modes[i], rc,
              strcmp(got, want) ? "other" : "same", got, want);
    }
}

int main(void) {
    bin = getenv("FRINK_BIN") ? getenv("FRINK_BIN") : "build/frink";
    static char out[1 << 16];
    same_as_plain("run -p 'Once upon a time' -n 100 --temp 0", "run greedy");
    same_as_plain("run -p 'Once upon a time' -n 100 --temp 0.8 --seed 7", "run sampled");
    same_as_plain("run -p 'Lily and Ben' -n 37 --temp 0 --json", "run --json (ids)");
    same_as_plain("run -p 'The dog' -n 200 --temp 0 -r 'park'", "run -r");
    same_as_plain("run -p 'The dog' -n 200 --temp 0.6 -r 'the'", "run -r sampled");
    same_as_plain("run -p 'One day' -n 60 --temp 0 --grammar 'root ::= [a-z .]+'", "run --grammar");
    // Several turns: each splices on the sequence the reply left, so a step's extra tokens must
    // have been dropped.
    same_as_plain("chat -n 40 --temp 0 < tests/data/chat-turns.txt", "chat greedy");
    same_as_plain("chat -n 40 --temp 0.9 --seed 3 < tests/data/chat-turns.txt", "chat sampled");

    // --prompt-cache saves what plain decoding would have saved: a second run reuses it alike.
    remove("build/spec-pc.slot");
    remove("build/spec-pc2.slot");
    CHECK(run("run -p 'Once upon a time there' -n 30 --temp 0 --prompt-cache build/spec-pc.slot", out, sizeof out, 0) == 0, "pc 1");
    CHECK(run("run -p 'Once upon a time there' -n 30 --temp 0 --spec lookup --draft-fixed --prompt-cache build/spec-pc2.slot",
              out, sizeof out, 0) == 0, "pc 2");
    CHECK(run("run -p 'Once upon a time there was' -n 20 --temp 0 --json --prompt-cache build/spec-pc.slot", want, sizeof want, 0) == 0 &&
              run("run -p 'Once upon a time there was' -n 20 --temp 0 --json --prompt-cache build/spec-pc2.slot", got, sizeof got, 0) == 0,
          "pc reuse");
    char *a = strstr(want, "\"prompt_tokens_reused\""), *b = strstr(got, "\"prompt_tokens_reused\"");
    CHECK(a && b && !strncmp(a, b, 28) && !strncmp(want, got, (size_t)(a - want)), "the saved states differ:\n%s\n%s", want, got);

    // --json reports the figures; the speed line says them on stderr.
    CHECK(run("run -p 'Once upon a time' -n 40 --temp 0 --json -md models/stories260K.gguf --draft-fixed --draft-p-min 0", out, sizeof out, 0) == 0 &&
              strstr(out, "\"spec\":{\"kind\":\"draft\",\"steps\":") && strstr(out, "\"acceptance\":1.0000"),
          "--json spec: %s", out);
    CHECK(run("run -p 'Once upon a time' -n 8 --temp 0 --json", out, sizeof out, 0) == 0 && strstr(out, "\"spec\":{\"kind\":\"none\"}"),
          "--json without spec: %s", out);
    CHECK(run("run -p 'Once upon a time' -n 40 --temp 0 --spec lookup", out, sizeof out, 1) == 0 && strstr(out, "frink: spec lookup: "),
          "the spec line: %s", out);

    // Refusals by name, exit 2 for flags.
    struct { const char *args, *says; int rc; } bad[] = {
        {"run -p x --spec mtp", "MTP", 2},
        {"run -p x --spec-type draft-mtp", "MTP", 2},
        {"run -p x --spec-type draft-eagle3", "not implemented", 2},
        {"run -p x --spec bogus", "unknown kind 'bogus'", 2},
        {"run -p x --spec draft", "-md", 2},
        {"run -p x --spec lookup -md models/stories260K.gguf", "-md goes with --spec draft", 2},
        {"run -p x --spec lookup --draft-min 9 --draft-max 4", "--draft-min 9", 2},
        {"run -p x --draft-max 300", "--draft-max", 2},
        {"run -p x --draft-p-min 2", "--draft-p-min", 2},
        {"run -p x -md /nonexistent.gguf", "/nonexistent.gguf", 1},
        {"run -p x -md tests/data/archs/llama-dense.gguf --allow-unread", "-md", 1},
        {"chat --spec mtp", "MTP", 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = run(bad[i].args, out, sizeof out, 1);
        CHECK(rc == bad[i].rc && strstr(out, bad[i].says), "%s: exit %d (want %d), %s", bad[i].args, rc, bad[i].rc, out);
    }
    CHECK(run("run --help", out, sizeof out, 0) == 0 && strstr(out, "--model-draft") && strstr(out, "--draft-max"), "run --help");
    CHECK(run("chat --help", out, sizeof out, 0) == 0 && strstr(out, "--spec KIND"), "chat --help");
    return TEST_DONE();
}
