// The frink program as a user meets it: every subcommand's happy path, and
// bad flags / missing files / corrupt models giving a one-line error and a
// non-zero exit (never a crash); on a terminal, progress and Ctrl-C (tests/test_cli_tty.py).
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "test.h"

static const char *bin;

// `frink ARGS` (test_run_cmd).
static int run(const char *args, char *out, size_t cap, int merge) { return test_run_cmd(bin, args, out, cap, merge); }

static int lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

int main(void) {
    bin = getenv("FRINK_BIN") ? getenv("FRINK_BIN") : "build/frink";
    static char out[1 << 20];

    // run: embedded default model, greedy, JSON fields.
    CHECK(run("run -p 'Once upon a time' -n 16 --temp 0 --json", out, sizeof out, 0) == 0, "run --json failed");
    const char *fields[] = {"\"prompt_ids\":[1,403,407,261,378]", "\"ids\":[432,383,286,261", "\"text\":", "\"prefill_ms\":",
                            "\"decode_ms\":", "\"prefill_tok_s\":", "\"decode_tok_s\":"};
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) CHECK(strstr(out, fields[i]), "run --json lacks %s: %s", fields[i], out);
    CHECK(run("run -p 'Once upon a time' -n 8 --temp 0", out, sizeof out, 0) == 0 && strstr(out, "Once upon a time"), "run streams text");
    CHECK(run("run -p 'Once upon a time' -n 8 --temp 0.8 --top-k 20 --top-p 0.9 --min-p 0.05 --seed 7 --repeat-penalty 1.1 -t 1", out, sizeof out, 0) == 0,
          "run with sampling flags");
    CHECK(run("run -p 'Hi' -n 4 --temp 0", out, sizeof out, 1) == 0 && strstr(out, "tok/s"), "run reports speed on stderr");

    // tokenize
    CHECK(run("tokenize 'Once upon a time'", out, sizeof out, 0) == 0 && !strcmp(out, "1,403,407,261,378\n"), "tokenize: %s", out);
    CHECK(run("tokenize --no-bos 'Once upon a time'", out, sizeof out, 0) == 0 && !strcmp(out, "403,407,261,378\n"), "tokenize --no-bos: %s", out);
    CHECK(run("tokenize -m tests/data/vocab/ggml-vocab-qwen35.gguf '<|im_start|>user hi'", out, sizeof out, 0) == 0 &&
              !strcmp(out, "151644,872,15588\n"),
          "tokenize parses special tokens: %s", out);

    // logits: batch, all, decode; file sizes
    CHECK(run("logits --ids 1,403,407 -o /tmp/frink-cli-test.f32", out, sizeof out, 1) == 0, "logits: %s", out);
    FILE *f = fopen("/tmp/frink-cli-test.f32", "rb");
    long sz = -1;
    if (f) { fseek(f, 0, SEEK_END); sz = ftell(f); fclose(f); }
    CHECK(sz == 512 * 4, "logits writes one row of n_vocab floats (%ld bytes)", sz);
    CHECK(run("logits --ids 1,403,407 -o /tmp/frink-cli-test.f32 --all --decode", out, sizeof out, 1) == 0, "logits --all --decode");
    f = fopen("/tmp/frink-cli-test.f32", "rb");
    if (f) { fseek(f, 0, SEEK_END); sz = ftell(f); fclose(f); }
    CHECK(sz == 3 * 512 * 4, "logits --all writes a row per position (%ld bytes)", sz);
    remove("/tmp/frink-cli-test.f32");

    // inspect / archs
    CHECK(run("inspect", out, sizeof out, 0) == 0 && strstr(out, "token_embd.weight") && strstr(out, "runs as 'llama'"), "inspect: %.200s", out);
    CHECK(run("archs", out, sizeof out, 0) == 0 && strstr(out, "qwen35") && strstr(out, "llama"), "archs");
    CHECK(run("inspect -m tests/data/archs/qwen35-dense.gguf", out, sizeof out, 1) == 1 && strstr(out, "input_scale"),
          "inspect refuses a tensor nothing reads, naming it");

    CHECK(run("inspect -m tests/data/archs/gemma2-dense.gguf --allow-unread", out, sizeof out, 0) == 0 && strstr(out, "layer kind") &&
              strstr(out, " host ") && strstr(out, "swa") && strstr(out, "model features: emb_sqrt"),
          "inspect prints each layer's path and features: %.300s", out);
    // Every command answers --help with its flags and an example.
    static const char *const cmds[] = {"run", "tokenize", "logits", "inspect", "archs", "bench", "gen", "template", "chat", "serve", "embed", "quantize"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", cmds[i]);
        CHECK(run(a, out, sizeof out, 0) == 0 && strstr(out, "usage") && strstr(out, "example"), "'frink %s': %.200s", a, out);
    }

    // frink template: the prompt byte for byte, ChatML for a model without a template (said on
    // stderr), a template's raise_exception as exit 1 with its message.
    FILE *mf = fopen("/tmp/frink-cli-msgs.json", "w");
    if (mf) fputs("[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"user\",\"content\":\"Hi\"}]", mf), fclose(mf);
    CHECK(run("template --messages /tmp/frink-cli-msgs.json", out, sizeof out, 0) == 0 &&
              !strcmp(out, "<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"),
          "template renders ChatML: '%s'", out);
    CHECK(run("template --messages /tmp/frink-cli-msgs.json --no-generation-prompt", out, sizeof out, 1) == 0 &&
              strstr(out, "using ChatML") && !strstr(out, "assistant"),
          "template says ChatML on stderr: '%s'", out);
    CHECK(run("template --chat-template-file tests/data/templates/google-gemma-2-2b-it.jinja --messages /tmp/frink-cli-msgs.json", out,
              sizeof out, 1) == 1 && strstr(out, "System role not supported"),
          "a template's raise_exception: '%s'", out);
    CHECK(run("template --messages /tmp/frink-cli-msgs.json --ids", out, sizeof out, 0) == 0 && strchr(out, ','), "template --ids: %s", out);
    remove("/tmp/frink-cli-msgs.json");
    CHECK(run("run --chat -p 'Tell me a story' -n 8 --temp 0", out, sizeof out, 0) == 0 && !strstr(out, "Tell me a story"),
          "run --chat prints the reply only: '%s'", out);

    CHECK(run("run -p 'Once upon a time' -n 20 --temp 0 --json --grammar 'root ::= \" there was a cat.\"'", out, sizeof out, 0) == 0 &&
              strstr(out, "there was a cat.\","),
          "run --grammar: %s", out);
    CHECK(run("run -p 'Once upon a time' -n 60 --temp 0 --json --json-schema '{\"enum\":[\"yes\",\"no\"]}'", out, sizeof out, 0) == 0 &&
              (strstr(out, "\"text\":\"\\\"yes\\\"") || strstr(out, "\"text\":\"\\\"no\\\"")),
          "run --json-schema: %s", out);
    // chat: every reply under the grammar (scripted: a reply per line), the grammar reset per turn.
    FILE *lf = fopen("/tmp/frink-cli-chat.txt", "w");
    if (lf) fputs("hi\nagain\n", lf), fclose(lf);
    CHECK(run("chat -n 30 --grammar 'root ::= (\"yes\" | \"no\") \" sir\"' < /tmp/frink-cli-chat.txt", out, sizeof out, 0) == 0 && lines(out) == 2 && (!strncmp(out, "yes sir\n", 8) || !strncmp(out, "no sir\n", 7)) &&
              (strstr(out, "\nyes sir\n") || strstr(out, "\nno sir\n")),
          "chat --grammar: '%s'", out);
    CHECK(run("chat --grammar 'root ::= \"a\"' --json-schema '{}' < /dev/null", out, sizeof out, 1) != 0 && strstr(out, "give one"),
          "chat: two constraints refused: '%s'", out);

    // Errors: one line, non-zero, no crash.
    struct { const char *args, *want; } bad[] = {
        {"", "usage"},
        {"frobnicate", "unknown command"},
        {"run --bogus", "unknown flag"},
        {"run -n", "needs a value"},
        {"run -n abc", "-n expects an integer"},
        {"run --temp -1", "--temp expects a number"},
        {"run --top-p 0", "--top-p expects"},
        {"run -t 0", "-t expects an integer"},
        {"run -m /nonexistent.gguf -p hi", "cannot open"},
        {"run -m /etc/passwd -p hi", "not a GGUF file"},
        {"run -m tests/data/golden -p hi", "not a regular file"},
        {"logits --ids 1,x,3 -o /tmp/x.f32", "bad entry"},
        {"logits --ids 1,2", "-o OUT.f32 is required"},
        {"logits --ids 99999 -o /tmp/frink-cli-bad.f32", "out of range"},
        {"tokenize", "missing TEXT"},
        {"inspect -m /nonexistent.gguf", "cannot open"},
        {"run --cache-type bf16", "expects f16, f32 or q8_0"},
        {"run -c 4 -p 'Once upon a time there was a'", "more than the context"},
        {"template", "give --messages FILE or --context FILE"},
        {"template --messages /nonexistent.json", "cannot open"},
        {"chat --reasoning maybe", "--reasoning expects on or off"},
        {"run --system hi -p x", "--system goes with --chat"},
        {"run -p x --grammar 'root ::= (\"a\"'", "line 1"},
        {"run -p x --json-schema '{\"type\":\"number\",\"multipleOf\":2}'", "multipleOf"},
        {"run -p x --grammar 'root ::= \"a\"' --json-schema '{}'", "give one"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = run(bad[i].args, out, sizeof out, 1);
        CHECK(rc != 0 && rc < 128, "'frink %s' exit %d", bad[i].args, rc);
        CHECK(strstr(out, bad[i].want), "'frink %s' says '%s'", bad[i].args, out);
        if (strcmp(bad[i].want, "usage")) CHECK(lines(out) == 1, "'frink %s' prints one line: %s", bad[i].args, out);
    }
    // --prompt-cache: the second run reuses the saved prompt state.
    remove("/tmp/frink-cli-cache.bin");
    CHECK(run("run -p 'Once upon a time there was' -n 4 --temp 0 --json --prompt-cache /tmp/frink-cli-cache.bin", out, sizeof out, 0) == 0 &&
              strstr(out, "\"prompt_tokens_reused\":0"),
          "cold run reuses nothing: %s", out);
    CHECK(run("run -p 'Once upon a time there was a dog' -n 4 --temp 0 --json --prompt-cache /tmp/frink-cli-cache.bin", out, sizeof out, 0) == 0 &&
              !strstr(out, "\"prompt_tokens_reused\":0"),
          "warm run reuses the shared prefix: %s", out);
    remove("/tmp/frink-cli-cache.bin");
    CHECK(run("run -p 'Once upon a time' -n 8 --temp 0 --cache-type q8_0", out, sizeof out, 0) == 0, "run with a Q8_0 KV cache");

    // The reference's spellings, each checked for its effect.
    static char out2[1 << 16];
    CHECK(run("run -p 'Once upon a time' -n 24 --temp 0.8 --seed -1 --json", out, sizeof out, 1) == 0 && strstr(out, "frink: seed "),
          "--seed -1 prints the seed it drew: %.300s", out);
    CHECK(run("run -p 'Once upon a time' -n 24 --temp 0.8 --seed -1 --json", out2, sizeof out2, 1) == 0 && strcmp(out, out2),
          "two runs with --seed -1 at --temp 0.8 differ: %.200s", out2);
    CHECK(run("run -p 'Once upon a time' -n 60 --temp 0 -r girl --json", out, sizeof out, 0) == 0 && strstr(out, "little girl\","),
          "-r stops at the text: %.300s", out);
    CHECK(run("run -p 'Once upon a time' -n 60 --temp 0 --stop 'little' --json", out, sizeof out, 0) == 0 && strstr(out, "little\","),
          "--stop is -r: %.300s", out);
    CHECK(run("run -p 'Once upon a time' -n -1 --temp 0 --json --grammar 'root ::= \" there was a cat.\"'", out, sizeof out, 0) == 0 &&
              strstr(out, "there was a cat.\","),
          "-n -1 runs to the end of generation: %.300s", out);
    CHECK(run("run -p 'Once upon a time' -c 64 -n -1 --json", out, sizeof out, 0) == 0 && strstr(out, "\"ids\":[") &&
              lines(strchr(out, '[') ? strstr(out, "\"ids\":[") : out) == 1,
          "-n -1 runs to the end of the context: %.200s", out);
    {
        // prompt 5 tokens, -c 64: 59 generated, prompt + reply = the context, never more.
        const char *ids = strstr(out, "\"ids\":[");
        int n = 0;
        for (const char *p = ids; p && *p && *p != ']'; p++) n += *p == ',';
        CHECK(ids && n + 1 == 59, "-n -1 with -c 64 generates 59 tokens after a 5-token prompt, got %d", n + 1);
    }
    CHECK(run("run -p 'Once upon a time' -c 40 -n -2 --ignore-eos --json", out, sizeof out, 0) == 0, "-n -2 --ignore-eos: %.200s", out);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "echo 'Once upon a time' | %s run -f - -n 4 --temp 0 --json", bin);
        FILE *p = popen(cmd, "r");
        size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
        out[n] = 0;
        CHECK(p && pclose(p) == 0 && strstr(out, "\"prompt_ids\":[1,403,407,261,378]"), "-f - reads the prompt from stdin: %s", out);
        snprintf(cmd, sizeof cmd, "printf 'Once upon a time' | %s tokenize -", bin);
        p = popen(cmd, "r");
        n = p ? fread(out, 1, sizeof out - 1, p) : 0;
        out[n] = 0;
        CHECK(p && pclose(p) == 0 && !strcmp(out, "1,403,407,261,378\n"), "tokenize - reads stdin: %s", out);
    }
    FILE *pf = fopen("/tmp/frink-cli-prompt.txt", "w");
    if (pf) fputs("Once upon a time\n", pf), fclose(pf);
    CHECK(run("run -f /tmp/frink-cli-prompt.txt -n 4 --temp 0 --json", out, sizeof out, 0) == 0 &&
              strstr(out, "\"prompt_ids\":[1,403,407,261,378]"),
          "-f FILE: the prompt without its trailing newline: %s", out);
    CHECK(run("run --file /tmp/frink-cli-prompt.txt -n 4 --temp 0 --no-display-prompt", out, sizeof out, 0) == 0 &&
              !strstr(out, "Once upon a time") && strlen(out) > 2,
          "--no-display-prompt prints only the generated text: '%s'", out);
    CHECK(run("tokenize -f /tmp/frink-cli-prompt.txt", out, sizeof out, 0) == 0 && !strcmp(out, "1,403,407,261,378,13\n"),
          "tokenize -f FILE (byte for byte): %s", out);
    remove("/tmp/frink-cli-prompt.txt");
    CHECK(run("run --chat --system 'Be brief.' -p hi -n 4 --temp 0 --json", out, sizeof out, 0) == 0 &&
              run("run -sys 'Be brief.' -p hi -n 4 --temp 0 --json", out2, sizeof out2, 0) == 0 &&
              !strncmp(out, out2, (size_t)(strstr(out, "\"ids\"") ? strstr(out, "\"ids\"") - out : 0)) && strstr(out, "\"ids\""),
          "-sys is the chat template's system message: %.200s / %.200s", out, out2);
    FILE *sf = fopen("/tmp/frink-cli-sys.txt", "w");
    if (sf) fputs("Be brief.\n", sf), fclose(sf);
    CHECK(run("run -sysf /tmp/frink-cli-sys.txt -p hi -n 4 --temp 0 --json", out2, sizeof out2, 0) == 0 &&
              !strncmp(out, out2, (size_t)(strstr(out, "\"ids\"") ? strstr(out, "\"ids\"") - out : 0)),
          "-sysf reads the system message from a file: %.200s", out2);
    remove("/tmp/frink-cli-sys.txt");
    CHECK(run("run -p hi -n 2 -ngl 99 -fa on --jinja -sm none -mg 0 --no-mmap", out, sizeof out, 1) == 0 &&
              strstr(out, "frink: run: note: -ngl 99 has no effect") && strstr(out, "-fa on has no effect") &&
              strstr(out, "--no-mmap has no effect") && !strstr(out, "jinja"),
          "GPU flags: accepted, each with a note: %s", out);
    CHECK(run("run -p hi -n 2 -ctk q8_0 -ctv q8_0", out, sizeof out, 0) == 0, "-ctk and -ctv of one type");
    CHECK(run("inspect -m tests/data/archs/qwen35-dense.gguf --allow-unread", out, sizeof out, 0) == 0 && strstr(out, "runs as 'qwen35'") &&
              strstr(out, "tokenizer is refused") && strstr(out, "'test'"),
          "inspect's verdict says when the tokenizer cannot run: %.300s", out);
    CHECK(run("--version", out, sizeof out, 0) == 0 && !strncmp(out, "frink ", 6), "frink --version: %s", out);
    CHECK(run("help run", out, sizeof out, 0) == 0 && run("run --help", out2, sizeof out2, 0) == 0 && !strcmp(out, out2) &&
              strstr(out, "--reverse-prompt") && strstr(out, "-f, --file"),
          "frink help run = frink run --help");
    CHECK(run("archs --json", out, sizeof out, 0) == 0 && out[0] == '[' && strstr(out, "\"arch\": \"llama\"") &&
              strstr(out, "\"runs\": true") && strstr(out, "\"runs\": false"),
          "archs --json: %.200s", out);
    FILE *cf = fopen("/tmp/frink-cli-chat2.txt", "w");
    if (cf) fputs("\n  \nhi\n\n", cf), fclose(cf);
    CHECK(run("chat -n 8 --temp 0 < /tmp/frink-cli-chat2.txt", out, sizeof out, 0) == 0 && lines(out) == 1,
          "chat ignores empty lines (one reply for one message): '%s'", out);
    remove("/tmp/frink-cli-chat2.txt");
    CHECK(run("chat --help", out, sizeof out, 0) == 0 && strstr(out, "/quit") && strstr(out, "/reset") && strstr(out, "/save"),
          "chat --help lists the slash commands");
    {
        // serve --help lists every flag serve takes.
        static const char *const sflags[] = {"--host", "--port", "-np", "--parallel", "-c,", "-b,", "-n,", "--max-queue",
                                             "--cache-ram", "--api-key", "--api-key-file", "--alias", "--chat-template-file",
                                             "--slot-save-path", "--metrics", "--cors-origin", "--insecure-public",
                                             "--max-body", "--timeout", "-to", "--verbose", "--no-slots", "--tags",
                                             "--reasoning", "--temp", "--top-k", "--seed", "--jinja", "--context-shift",
                                             "--kv-unified", "--sleep-idle-seconds", "-ngl", "-ctv", "--cache-type",
                                             "--threads", "--device", "--allow-unread", "--gdn-chunk", "--reference",
                                             "--embeddings", "--pooling", "--reranking"};
        CHECK(run("serve --help", out, sizeof out, 0) == 0, "serve --help");
        for (size_t i = 0; i < sizeof sflags / sizeof *sflags; i++) CHECK(strstr(out, sflags[i]), "serve --help lists %s", sflags[i]);
    }
    // gen outside the checkout: the tiny presets carry the embedded tokenizer, and run works on the file.
    CHECK(system("rm -rf /tmp/frink-cli-gen && mkdir -p /tmp/frink-cli-gen") == 0, "mkdir");
    {
        char abs[4096], full[8400];
        if (!realpath(bin, abs)) snprintf(abs, sizeof abs, "%s", bin);
        snprintf(full, sizeof full, "cd /tmp/frink-cli-gen && %s gen --preset qwen35-tiny -o t.gguf 2>&1 && %s run -m t.gguf -p hi -n 4 2>&1",
                 abs, abs);
        FILE *p = popen(full, "r");
        size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
        out[n] = 0;
        CHECK(p && pclose(p) == 0 && strstr(out, "embedded stories260K tokenizer") && strstr(out, "tok/s"),
              "gen outside the checkout, then run on its file: %s", out);
    }
    system("rm -rf /tmp/frink-cli-gen");
    // One error shape and one exit-code rule: 2 for usage, 1 at run time; serve checks the model first.
    CHECK(run("run -ctv q8_0 -p hi", out, sizeof out, 1) == 2 && strstr(out, "frink: run: ") && strstr(out, "-ctv") && lines(out) == 1,
          "-ctv of another type than K is refused by name: %s", out);
    CHECK(run("archs --yaml", out, sizeof out, 1) == 2 && strstr(out, "frink: archs: unknown flag"), "archs: unknown flag: %s", out);
    CHECK(run("serve --port 0 -m /nonexistent.gguf", out, sizeof out, 1) == 1 && !strstr(out, "listening") &&
              strstr(out, "frink: serve: ") && lines(out) == 1,
          "serve checks the model before its banner, exit 1: %s", out);
    CHECK(run("run -m /nonexistent.gguf -p hi", out, sizeof out, 1) == 1, "run: a missing model exits 1");
    CHECK(run("serve --port 0 --temp 9000", out, sizeof out, 1) == 2 && strstr(out, "frink: serve: --temp"), "serve: a bad flag exits 2: %s", out);
    // embed: JSON by default (index, embedding), --raw float32, one input per line of -f FILE;
    // the embedded model's file names no pooling, so it must be asked for.
    CHECK(run("embed --pooling mean 'Once upon a time' 'The little dog'", out, sizeof out, 0) == 0 && strstr(out, "\"index\": 1") &&
              strstr(out, "\"embedding\": [") && !strstr(out, "\"index\": 2"),
          "embed --json: %.200s", out);
    system("printf 'Once upon a time\\n\\nThe little dog\\n' > /tmp/frink-cli-embed.txt");
    char ecmd[512];
    snprintf(ecmd, sizeof ecmd, "%s embed --pooling last --raw -f /tmp/frink-cli-embed.txt > /tmp/frink-cli-embed.raw 2>/dev/null", bin);
    CHECK(system(ecmd) == 0, "embed -f --raw runs");
    FILE *fe = fopen("/tmp/frink-cli-embed.raw", "rb");
    sz = -1;
    if (fe) { fseek(fe, 0, SEEK_END); sz = ftell(fe); fclose(fe); }
    CHECK(sz == 2 * 64 * 4, "embed --raw: two lines, two vectors of n_embd floats (%ld bytes)", sz);
    CHECK(run("embed --pooling none 'Once upon'", out, sizeof out, 0) == 0 && strstr(out, "\"embedding\": [["), "embed --pooling none: a vector per token");
    remove("/tmp/frink-cli-embed.txt");
    remove("/tmp/frink-cli-embed.raw");
    CHECK(run("embed 'hi'", out, sizeof out, 1) == 1 && strstr(out, "frink: embed: ") && strstr(out, "pooling_type") && lines(out) == 1,
          "embed without a pooling: exit 1, one line: %s", out);
    CHECK(run("embed --pooling rank 'hi'", out, sizeof out, 1) == 1 && strstr(out, "cls.output"), "embed rank without a head: %s", out);
    CHECK(run("embed --pooling mean -f /nonexistent.txt", out, sizeof out, 1) == 1 && lines(out) == 1, "embed -f missing: %s", out);
    CHECK(run("embed --pooling max 'hi'", out, sizeof out, 1) == 2 && strstr(out, "--pooling"), "embed bad pooling: %s", out);
    CHECK(run("embed --pooling mean", out, sizeof out, 1) == 2 && strstr(out, "no input"), "embed without input: %s", out);

    // A truncated model file: a clear error naming the problem.
    system("head -c 600000 models/stories260K.gguf > /tmp/frink-trunc.gguf");
    CHECK(run("run -m /tmp/frink-trunc.gguf -p hi", out, sizeof out, 1) == 1 && strstr(out, "truncated"), "truncated file: %s", out);
    {
        int named = 0;
        for (const char *p = out; (p = strstr(p, "frink-trunc.gguf")); p++) named++;
        CHECK(named == 1 && !strncmp(out, "frink: run: /tmp/frink-trunc.gguf: ", 35), "the file named once: %s", out);
    }
    CHECK(run("serve --port 0 -m /tmp/frink-trunc.gguf", out, sizeof out, 1) == 1 && !strstr(out, "listening") && strstr(out, "truncated"),
          "serve refuses a truncated model before listening: %s", out);
    remove("/tmp/frink-trunc.gguf");

    // On a terminal (tests/test_cli_tty.py, a pseudo-terminal): the prefill's status line from the
    // first second and on a line of its own, Ctrl-C in the generation and the prefill, twice; serve's
    // status line while its model loads.
    {
        char cmd[4096];
        snprintf(cmd, sizeof cmd, "python3 tests/test_cli_tty.py %s 2>&1", bin);
        FILE *p = popen(cmd, "r");
        int n_lines = 0;
        char line[2048];
        while (p && fgets(line, sizeof line, p)) {
            n_lines++;
            line[strcspn(line, "\n")] = 0;
            CHECK(!strncmp(line, "ok ", 3), "%s", line);
        }
        CHECK(p && pclose(p) == 0 && n_lines == 12, "test_cli_tty.py: %d checks reported (12 expected)", n_lines);
    }
    return TEST_DONE();
}
