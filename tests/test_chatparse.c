// test_chatparse.c — the incremental reader of model output (src/chat/chatparse.h).
//
// 1. Recorded outputs of every format, written in the family's exact markup (plain answers,
//    reasoning, one and several calls, nested JSON, unicode and escaped quotes, text around
//    calls, markup-looking text, truncations, broken JSON), each fed whole, one byte at a time,
//    in two pieces cut at every byte, in random splits and in random splits at UTF-8 character
//    boundaries, with calls streamed and with CHATPARSE_WHOLE_CALLS: the same content,
//    reasoning, calls and warnings every way, as written down here; every call's TOOL_ARGS
//    concatenate to its TOOL_END, which jansson parses as an object; no text delta of a clean
//    recording contains a tag.
// 2. The templates' own renders (tests/data/templates/expected, jinja2's output, and the same
//    conversations rendered by frink_template_render): the assistant turn with tool calls is cut
//    out and parsed, and must give back the conversation's calls — the markup each format reads
//    is the markup its templates write.
// 3. Detection on every template of tests/data/templates, prompts that open the reasoning,
//    held-back text, ids, reuse after finish, limits.
// 4. Split invariance on thousands of generated outputs under every format (markup fragments,
//    JSON pieces, text): the same results whole and split; text never invented.
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frink.h"
#include "test.h"
#include "chat/chatparse.h"

#define TPL_DIR "tests/data/templates/"

// ---- collecting deltas ---------------------------------------------------------------------

struct str {
    char *p;
    size_t n, cap;
};

static void str_put(struct str *s, const char *t, size_t n) {
    if (s->n + n + 1 > s->cap) {
        s->cap = (s->n + n + 1) * 2;
        s->p = realloc(s->p, s->cap);
        if (!s->p) abort();
    }
    if (n) memcpy(s->p + s->n, t, n);
    s->n += n;
    s->p[s->n] = 0;
}

static const char *str_c(struct str *s) {
    if (!s->p) str_put(s, "", 0);
    return s->p;
}

#define MAX_CALLS 64
struct got_call {
    char name[300], id[80];
    struct str args;
    bool ended, voided;
};

struct got {
    struct str content, reasoning;
    struct got_call calls[MAX_CALLS];
    int n, warnings, deltas;
    bool bad;       // a delta broke the protocol
    char why[200];
    const char *const *marks; // tags no text delta may contain (clean recordings)
    bool leaked;
    int during_finish; // deltas emitted by chatparse_finish
    bool finishing;
};

static void got_free(struct got *g) {
    free(g->content.p);
    free(g->reasoning.p);
    for (int i = 0; i < g->n; i++) free(g->calls[i].args.p);
    memset(g, 0, sizeof *g);
}

static void bad(struct got *g, const char *why) {
    if (!g->bad) snprintf(g->why, sizeof g->why, "%s", why);
    g->bad = true;
}

static void on_delta(void *ud, const struct chat_delta *d) {
    struct got *g = ud;
    g->deltas++;
    if (g->finishing) g->during_finish++;
    struct got_call *c = d->index >= 0 && d->index < g->n ? &g->calls[d->index] : NULL;
    switch (d->kind) {
    case CHAT_DELTA_CONTENT:
    case CHAT_DELTA_REASONING:
        if (!d->len || d->index != -1 || d->id || d->name) bad(g, "empty or decorated text delta");
        str_put(d->kind == CHAT_DELTA_CONTENT ? &g->content : &g->reasoning, d->text, d->len);
        for (int k = 0; g->marks && g->marks[k]; k++)
            if (memmem(d->text, d->len, g->marks[k], strlen(g->marks[k]))) g->leaked = true;
        break;
    case CHAT_DELTA_TOOL_NAME:
        if (d->index != g->n || g->n == MAX_CALLS || !d->id || !d->name) {
            bad(g, "TOOL_NAME out of order");
            break;
        }
        c = &g->calls[g->n++];
        memset(c, 0, sizeof *c);
        snprintf(c->name, sizeof c->name, "%s", d->name);
        snprintf(c->id, sizeof c->id, "%s", d->id);
        break;
    case CHAT_DELTA_TOOL_ARGS:
    case CHAT_DELTA_TOOL_END:
        if (!c || c->ended || c->voided || strcmp(c->name, d->name) || strcmp(c->id, d->id)) {
            bad(g, "arguments for no open call");
            break;
        }
        if (d->kind == CHAT_DELTA_TOOL_ARGS) {
            if (!d->len) bad(g, "empty TOOL_ARGS");
            str_put(&c->args, d->text, d->len);
        } else {
            if (d->len != c->args.n || memcmp(d->text, str_c(&c->args), d->len)) bad(g, "TOOL_END is not the TOOL_ARGS");
            c->ended = true;
        }
        break;
    case CHAT_DELTA_WARNING:
        g->warnings++;
        if (!d->text || strlen(d->text) != d->len || !d->len) bad(g, "warning without a message");
        if (d->index >= 0) {
            if (!c || c->ended || c->voided)
                bad(g, "warning voids no open call");
            else
                c->voided = true;
        }
        break;
    }
}

// Feeding. mode 0: whole; 1: byte by byte; 2: random splits; 3: random splits at UTF-8
// character boundaries.
static uint64_t rng_next(uint64_t *s) {
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static bool utf8_boundary(const char *s, size_t i) { return ((unsigned char)s[i] & 0xC0) != 0x80; }

static void feed_split(struct chatparse *p, const char *in, size_t n, int mode, uint64_t seed, struct got *g) {
    uint64_t r = seed * 2654435761u + 1;
    for (size_t i = 0; i < n;) {
        size_t k = n - i;
        if (mode == 1) k = 1;
        if (mode >= 2) {
            k = 1 + rng_next(&r) % 12;
            if (k > n - i) k = n - i;
            if (mode == 3)
                while (i + k < n && !utf8_boundary(in, i + k)) k++;
        }
        frink_status st = chatparse_feed(p, in + i, k, on_delta, g);
        if (st) bad(g, "feed failed");
        i += k;
    }
    g->finishing = true;
    if (chatparse_finish(p, on_delta, g)) bad(g, "finish failed");
    g->finishing = false;
}

static void parse(enum chat_format f, unsigned flags, uint64_t seed, const char *in, size_t n, int mode, uint64_t split_seed,
                  struct got *g) {
    struct chatparse_params pp = {flags, seed};
    struct chatparse *p;
    if (chatparse_create(f, &pp, &p)) {
        bad(g, "create failed");
        return;
    }
    feed_split(p, in, n, mode, split_seed, g);
    chatparse_free(p);
}

static bool is_json_object(const char *s, size_t n) {
    json_error_t e;
    json_t *j = json_loadb(s, n, JSON_ALLOW_NUL, &e);
    bool ok = j && json_is_object(j);
    json_decref(j);
    return ok;
}

// The completed calls of g, in order (voided ones left out).
static int done_calls(const struct got *g, const struct got_call **out) {
    int k = 0;
    for (int i = 0; i < g->n; i++)
        if (g->calls[i].ended && !g->calls[i].voided) out[k++] = &g->calls[i];
    return k;
}

// Whether a and b gave the same text, calls and warnings (ids too when `ids`).
static bool same_result(struct got *a, struct got *b, bool ids) {
    const struct got_call *ca[MAX_CALLS], *cb[MAX_CALLS];
    int na = done_calls(a, ca), nb = done_calls(b, cb);
    if (strcmp(str_c(&a->content), str_c(&b->content)) || strcmp(str_c(&a->reasoning), str_c(&b->reasoning))) return false;
    if (na != nb || a->warnings != b->warnings) return false;
    for (int i = 0; i < na; i++) {
        if (strcmp(ca[i]->name, cb[i]->name) || ca[i]->args.n != cb[i]->args.n ||
            memcmp(str_c((struct str *)&ca[i]->args), str_c((struct str *)&cb[i]->args), ca[i]->args.n))
            return false;
        if (ids && strcmp(ca[i]->id, cb[i]->id)) return false;
    }
    return true;
}

// ---- recorded outputs ------------------------------------------------------------------------

struct want_call {
    const char *name, *args, *id; // id NULL: generated (checked for shape)
};

struct rec {
    enum chat_format f;
    unsigned flags;
    const char *what, *in;
    const char *content, *reasoning;
    int warnings;
    struct want_call calls[4];
};

#define IN_R CHATPARSE_STARTS_IN_REASONING

#define WEATHER_TOKYO "{\"city\": \"Tokyo\"}"
#define WEATHER_SP "{\"city\": \"São Paulo\", \"unit\": \"fahrenheit\"}"
#define TIME_TOKYO "{\"timezone\": \"Asia/Tokyo\"}"
// Nested objects and arrays, escaped quotes and backslashes, unicode escapes and raw UTF-8.
#define NESTED                                                                                                    \
    "{\"query\": \"say \\\"hi\\\" \\\\ \\u00e9t\\u00e9 \\ud83d\\ude00\", \"filters\": {\"tags\": [\"naïve\", \"café ☕\"], " \
    "\"range\": {\"min\": -1.5e3, \"max\": null}, \"deep\": [[1, [2, {\"x\": true}]]]}, \"ok\": false}"

static const struct rec recs[] = {
    // ---- none: everything is content
    {CHAT_FORMAT_NONE, 0, "none keeps markup", "<think>a</think> <tool_call>{\"name\": \"f\"}</tool_call>\n",
     "<think>a</think> <tool_call>{\"name\": \"f\"}</tool_call>\n", "", 0, {{0}}},

    // ---- think
    {CHAT_FORMAT_THINK, 0, "think plain", "The capital of France is Paris.", "The capital of France is Paris.", "", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think block", "<think>\nThe user asks 2+2.\nThat is 4.\n</think>\n\nThe answer is 4.",
     "The answer is 4.", "The user asks 2+2.\nThat is 4.", 0, {{0}}},
    {CHAT_FORMAT_THINK, IN_R, "think opened by the prompt",
     "Okay, so 17*23.\n17*20=340, 17*3=51, total 391.\n</think>\n\n17 × 23 = 391.", "17 × 23 = 391.",
     "Okay, so 17*23.\n17*20=340, 17*3=51, total 391.", 0, {{0}}},
    {CHAT_FORMAT_THINK, IN_R, "think opened twice", "<think>\nFine.\n</think>\nDone.", "Done.", "Fine.", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think empty block", "<think></think>Just the answer.", "Just the answer.", "", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think-looking text", "Use <b>bold</b> when x < y; <thinking> is no tag, nor <toothbrush>.",
     "Use <b>bold</b> when x < y; <thinking> is no tag, nor <toothbrush>.", "", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think mid-text is text", "Answer: <think>not reasoning</think>",
     "Answer: <think>not reasoning</think>", "", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think truncated in the close tag", "<think>\nHmm</thi", "", "Hmm</thi", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think truncated in the open tag", "<thi", "<thi", "", 0, {{0}}},
    {CHAT_FORMAT_THINK, 0, "think unclosed", "<think>\nStill thinking when the budget ran out", "",
     "Still thinking when the budget ran out", 0, {{0}}},

    // ---- Hermes / Qwen2.5 / Qwen3
    {CHAT_FORMAT_HERMES, 0, "hermes plain", "Hello! How can I help you today?", "Hello! How can I help you today?", "", 0, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes reasoning", "<think>\nThe user greets me.\n</think>\n\nHello!", "Hello!",
     "The user greets me.", 0, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes one call",
     "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"unit\": \"celsius\"}}\n</tool_call>",
     "", "", 0, {{"get_weather", "{\"city\": \"Paris\", \"unit\": \"celsius\"}", NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes reasoning, text, two calls",
     "<think>\nTwo cities.\n</think>\n\nLet me check both.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
     "{\"city\": \"Tokyo\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": " WEATHER_SP
     "}\n</tool_call>",
     "Let me check both.", "Two cities.", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_weather", WEATHER_SP, NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes nested unicode escapes",
     "<tool_call>\n{\"name\": \"search\", \"arguments\": " NESTED "}\n</tool_call>", "", "", 0, {{"search", NESTED, NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes text after the call",
     "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>\n\nI'll wait for the result.",
     "I'll wait for the result.", "", 0, {{"get_time", "{}", NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes markup-looking text", "a <b>bold</b> claim, x < y, <toothbrush>, <tool> and <tool_calls>",
     "a <b>bold</b> claim, x < y, <toothbrush>, <tool> and <tool_calls>", "", 0, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes truncated in the tag", "Let me check. <tool_ca", "Let me check. <tool_ca", "", 0, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes truncated in the JSON",
     "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par",
     "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par", "", 1, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes broken JSON",
     "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>",
     "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\",}}\n</tool_call>", "", 1, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes unclosed tag", "Sure <tool_call>", "Sure <tool_call>", "", 1, {{0}}},
    {CHAT_FORMAT_HERMES, 0, "hermes broken, then a good call",
     "<tool_call>\n{\"name\": 42}\n</tool_call>\n<tool_call>\n{\"name\": \"ok\", \"arguments\": {\"a\": 1}}\n</tool_call>",
     "<tool_call>\n{\"name\": 42}\n</tool_call>", "", 1, {{"ok", "{\"a\": 1}", NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes keys reversed",
     "<tool_call>\n{\"arguments\": {\"a\": [1, 2]}, \"name\": \"f\"}\n</tool_call>", "", "", 0, {{"f", "{\"a\": [1, 2]}", NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes arguments as a string",
     "<tool_call>\n{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": \\\"\\u00e9\\\"}\"}\n</tool_call>", "", "", 0,
     {{"f", "{\"a\": \"é\"}", NULL}}},
    {CHAT_FORMAT_HERMES, IN_R, "hermes prompt-opened reasoning then a call",
     "The user wants the weather.\n</think>\n\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": "
     "\"Tokyo\"}}\n</tool_call>",
     "", "The user wants the weather.", 0, {{"get_weather", WEATHER_TOKYO, NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes call straight from reasoning",
     "<think>\nI need the weather.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>",
     "", "I need the weather.", 0, {{"get_weather", WEATHER_TOKYO, NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes closing tag truncated",
     "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_", "\n</tool_", "", 1, {{"f", "{}", NULL}}},
    {CHAT_FORMAT_HERMES, 0, "hermes no arguments key", "<tool_call>\n{\"name\": \"ping\"}\n</tool_call>", "", "", 0,
     {{"ping", "{}", NULL}}},

    // ---- Qwen3-Coder / Qwen3.5
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml plain", "Sure, here is a haiku.", "Sure, here is a haiku.", "", 0, {{0}}},
    {CHAT_FORMAT_QWEN3_CODER, IN_R, "qwen-xml reasoning then a call",
     "The user wants the weather in Paris.\n</think>\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
     "</parameter>\n</function>\n</tool_call>",
     "", "The user wants the weather in Paris.", 0, {{"get_weather", "{\"city\": \"Paris\"}", NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml typed values",
     "Let me search for that.\n\n<tool_call>\n<function=search_web>\n<parameter=query>\nquantum error correction "
     "\"surface code\"\n</parameter>\n<parameter=max_results>\n3\n</parameter>\n<parameter=safe>\nTrue\n</parameter>\n"
     "<parameter=sites>\n[\"arxiv.org\", \"nature.com\"]\n</parameter>\n<parameter=min_score>\n0.75\n</parameter>\n"
     "<parameter=filters>\n{\"year\": 2025, \"lang\": null}\n</parameter>\n</function>\n</tool_call>",
     "Let me search for that.", "", 0,
     {{"search_web", "{\"query\": \"quantum error correction \\\"surface code\\\"\", \"max_results\": 3, \"safe\": true, "
                     "\"sites\": [\"arxiv.org\", \"nature.com\"], \"min_score\": 0.75, \"filters\": {\"year\": 2025, "
                     "\"lang\": null}}", NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml multi-line code",
     "<tool_call>\n<function=write_file>\n<parameter=path>\nsrc/main.py\n</parameter>\n<parameter=content>\ndef main():\n"
     "    print(\"héllo\\n\")\n\tpass\n\nif __name__ == \"__main__\":\n    main()\n</parameter>\n</function>\n</tool_call>",
     "", "", 0,
     {{"write_file", "{\"path\": \"src/main.py\", \"content\": \"def main():\\n    print(\\\"héllo\\\\n\\\")\\n\\tpass\\n\\n"
                     "if __name__ == \\\"__main__\\\":\\n    main()\"}", NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml values that are not JSON",
     "<tool_call>\n<function=f>\n<parameter=expr>\n{x} + [y]\n</parameter>\n<parameter=n>\n42 apples\n</parameter>\n"
     "<parameter=t>\ntrue story\n</parameter>\n<parameter=py>\nNone\n</parameter>\n<parameter=e>\n\n</parameter>\n"
     "<parameter=neg>\n-\n</parameter>\n<parameter=s>\n\"quoted\"\n</parameter>\n</function>\n</tool_call>",
     "", "", 0,
     {{"f", "{\"expr\": \"{x} + [y]\", \"n\": \"42 apples\", \"t\": \"true story\", \"py\": null, \"e\": \"\", "
            "\"neg\": \"-\", \"s\": \"quoted\"}", NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml two calls after text",
     "I'll run both.\n\n<tool_call>\n<function=get_weather>\n<parameter=city>\nSão Paulo\n</parameter>\n<parameter=unit>\n"
     "fahrenheit\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=timezone>\n"
     "Asia/Tokyo\n</parameter>\n</function>\n</tool_call>",
     "I'll run both.", "", 0, {{"get_weather", WEATHER_SP, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml without <tool_call>",
     "<function=get_time>\n<parameter=timezone>\nAsia/Tokyo\n</parameter>\n</function>", "", "", 0, {{"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml markup-looking text", "Use <function> or <parameter> tags; x<y, <tool>.",
     "Use <function> or <parameter> tags; x<y, <tool>.", "", 0, {{0}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml truncated in a value",
     "<tool_call>\n<function=f>\n<parameter=a>\nvalue that goes o",
     "<tool_call>\n<function=f>\n<parameter=a>\nvalue that goes o", "", 1, {{0}}},
    {CHAT_FORMAT_QWEN3_CODER, 0, "qwen-xml broken tags",
     "<tool_call>\n<function=f>\n<param=x>\n1\n</param>\n</function>\n</tool_call>",
     "<tool_call>\n<function=f>\n<param=x>\n1\n</param>\n</function>\n</tool_call>", "", 1, {{0}}},

    // ---- Llama 3.x
    {CHAT_FORMAT_LLAMA3, 0, "llama plain", "Paris is the capital of France.", "Paris is the capital of France.", "", 0, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama call",
     "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lyon\", \"unit\": \"celsius\"}}", "", "", 0,
     {{"get_weather", "{\"city\": \"Lyon\", \"unit\": \"celsius\"}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama call with type",
     "{\"type\": \"function\", \"name\": \"get_time\", \"parameters\": {\"timezone\": \"Europe/Paris\"}}", "", "", 0,
     {{"get_time", "{\"timezone\": \"Europe/Paris\"}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama nested", "{\"name\": \"search\", \"parameters\": " NESTED "}", "", "", 0,
     {{"search", NESTED, NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama JSON answer", "{\"answer\": 42, \"unit\": \"m\"}", "{\"answer\": 42, \"unit\": \"m\"}", "",
     0, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama JSON answer with a name", "{\"name\": \"Bob\", \"age\": 3}", "{\"name\": \"Bob\", \"age\": 3}",
     "", 0, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama JSON after text", "Here: {\"name\": \"f\", \"parameters\": {}}",
     "Here: {\"name\": \"f\", \"parameters\": {}}", "", 0, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama python_tag built-in", "<|python_tag|>brave_search.call(query=\"weather in Lyon today\")",
     "", "", 0, {{"brave_search", "{\"query\": \"weather in Lyon today\"}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama python_tag built-in, two arguments",
     "<|python_tag|>wolfram_alpha.call(query=\"solve x^2 = 2\", precision=4)", "", "", 0,
     {{"wolfram_alpha", "{\"query\": \"solve x^2 = 2\", \"precision\": 4}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama python_tag JSON",
     "<|python_tag|>{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Lyon\"}}", "", "", 0,
     {{"get_weather", "{\"city\": \"Lyon\"}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama python_tag code", "<|python_tag|>import math\nprint(math.sqrt(2), \"√\")", "", "", 0,
     {{"python", "{\"code\": \"import math\\nprint(math.sqrt(2), \\\"√\\\")\"}", NULL}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama broken after the arguments key", "{\"name\": \"f\", \"parameters\": {\"a\": }}",
     "{\"name\": \"f\", \"parameters\": {\"a\": }}", "", 1, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama truncated call", "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Ly",
     "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Ly", "", 1, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama truncated before the arguments", "{\"name\": \"get_wea", "{\"name\": \"get_wea", "", 0, {{0}}},
    {CHAT_FORMAT_LLAMA3, 0, "llama braces in text", "x < y and {braces} <|python", "x < y and {braces} <|python", "", 0, {{0}}},

    // ---- Mistral
    {CHAT_FORMAT_MISTRAL, 0, "mistral plain", "Bonjour ! Comment puis-je vous aider ?", "Bonjour ! Comment puis-je vous aider ?",
     "", 0, {{0}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral nemo call",
     "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Lyon\", \"unit\": \"celsius\"}, \"id\": "
     "\"a1B2c3D4e\"}]",
     "", "", 0, {{"get_weather", "{\"city\": \"Lyon\", \"unit\": \"celsius\"}", "a1B2c3D4e"}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral nemo two calls, one without an id",
     "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": " WEATHER_SP ", \"id\": \"Zz9Yy8Xx7\"}, {\"name\": "
     "\"get_time\", \"arguments\": " TIME_TOKYO "}]",
     "", "", 0, {{"get_weather", WEATHER_SP, "Zz9Yy8Xx7"}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral small 3.2", "[TOOL_CALLS]get_weather[CALL_ID]a1B2c3D4e[ARGS]{\"city\": \"Lyon\"}", "", "",
     0, {{"get_weather", "{\"city\": \"Lyon\"}", "a1B2c3D4e"}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral devstral text and two calls",
     "Let me look.[TOOL_CALLS]get_weather[ARGS]" WEATHER_TOKYO "[TOOL_CALLS]get_time[ARGS]" TIME_TOKYO, "Let me look.", "", 0,
     {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral nested", "[TOOL_CALLS]search[ARGS]" NESTED, "", "", 0, {{"search", NESTED, NULL}}},
    {CHAT_FORMAT_MISTRAL, 0, "magistral reasoning", "[THINK]The user asks for 2+2.[/THINK]2 + 2 = 4.", "2 + 2 = 4.",
     "The user asks for 2+2.", 0, {{0}}},
    {CHAT_FORMAT_MISTRAL, 0, "ministral reasoning and a call",
     "[THINK]Need the weather.[/THINK][TOOL_CALLS]get_weather[ARGS]{\"city\": \"Oslo\"}", "", "Need the weather.", 0,
     {{"get_weather", "{\"city\": \"Oslo\"}", NULL}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral markup-looking text", "Arrays like [1, 2], [TOOL] and [THINKING] are fine.",
     "Arrays like [1, 2], [TOOL] and [THINKING] are fine.", "", 0, {{0}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral truncated", "[TOOL_CALLS]get_weather[ARGS]{\"city\": ",
     "[TOOL_CALLS]get_weather[ARGS]{\"city\": ", "", 1, {{0}}},
    {CHAT_FORMAT_MISTRAL, 0, "mistral broken JSON", "[TOOL_CALLS]get_weather[ARGS]{city: Lyon}",
     "[TOOL_CALLS]get_weather[ARGS]{city: Lyon}", "", 1, {{0}}},

    // ---- DeepSeek R1 / V3.1
    {CHAT_FORMAT_DEEPSEEK, IN_R, "deepseek r1 answer", "Okay, 2+2 is 4.\n</think>\n\nThe answer is 4.", "The answer is 4.",
     "Okay, 2+2 is 4.", 0, {{0}}},
    {CHAT_FORMAT_DEEPSEEK, IN_R, "deepseek r1 two calls",
     "Two lookups.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n"
     "{\"city\": \"Tokyo\"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
     "{\"timezone\": \"Asia/Tokyo\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
     "", "Two lookups.", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_DEEPSEEK, 0, "deepseek v3.1 call after text",
     "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>" WEATHER_SP
     "<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
     "Let me check.", "", 0, {{"get_weather", WEATHER_SP, NULL}}},
    {CHAT_FORMAT_DEEPSEEK, 0, "deepseek v3.1 nested",
     "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>" NESTED "<｜tool▁call▁end｜><｜tool▁calls▁end｜>", "", "",
     0, {{"search", NESTED, NULL}}},
    {CHAT_FORMAT_DEEPSEEK, 0, "deepseek markup-looking text", "Use <｜ with care; a <b>bold</b> claim, x < y.",
     "Use <｜ with care; a <b>bold</b> claim, x < y.", "", 0, {{0}}},
    {CHAT_FORMAT_DEEPSEEK, 0, "deepseek truncated",
     "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\"",
     "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\"", "", 1, {{0}}},
    {CHAT_FORMAT_DEEPSEEK, 0, "deepseek broken JSON",
     "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": 'Tokyo'}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
     "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": 'Tokyo'}<｜tool▁call▁end｜><｜tool▁calls▁end｜>",
     "", 1, {{0}}},

    // ---- gpt-oss harmony
    {CHAT_FORMAT_GPT_OSS, 0, "harmony analysis and final",
     "<|channel|>analysis<|message|>User asks 2+2. Simple.<|end|><|start|>assistant<|channel|>final<|message|>2 + 2 = 4.<|return|>",
     "2 + 2 = 4.", "User asks 2+2. Simple.", 0, {{0}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony call, recipient in the channel",
     "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather "
     "<|constrain|>json<|message|>{\"city\": \"Berlin\"}<|call|>",
     "", "Need the weather.", 0, {{"get_weather", "{\"city\": \"Berlin\"}", NULL}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony call, recipient in the role",
     " to=functions.search<|channel|>commentary json<|message|>" NESTED "<|call|>", "", "", 0, {{"search", NESTED, NULL}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony preamble and a call",
     "<|channel|>commentary<|message|>Checking the weather for you.<|end|><|start|>assistant<|channel|>commentary "
     "to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Paris\"}<|call|>",
     "Checking the weather for you.", "", 0, {{"get_weather", "{\"city\": \"Paris\"}", NULL}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony final keeps every byte", "<|channel|>final<|message|>  indented\n\n",
     "  indented\n\n", "", 0, {{0}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony markup-looking text", "<|channel|>final<|message|>Tags like <|foo|>, <b>bold</b>, x < y.",
     "Tags like <|foo|>, <b>bold</b>, x < y.", "", 0, {{0}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony broken JSON",
     "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": tru}<|call|>",
     "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\": tru}", "", 1, {{0}}},
    {CHAT_FORMAT_GPT_OSS, 0, "harmony truncated header", "<|channel|>analysis<|message|>Hm.<|end|><|start|>assistant<|chan",
     "<|start|>assistant<|chan", "Hm.", 1, {{0}}},
    {CHAT_FORMAT_GPT_OSS, IN_R, "harmony opened by the prompt",
     "Think.<|end|><|start|>assistant<|channel|>final<|message|>Done.", "Done.", "Think.", 0, {{0}}},

    // ---- GLM 4.5 / 4.6 / 4.7
    {CHAT_FORMAT_GLM, 0, "glm-4.6 reasoning, text, call",
     "\n<think>Need weather.</think>\nLet me check.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beijing"
     "</arg_value>\n</tool_call>",
     "Let me check.", "Need weather.", 0, {{"get_weather", "{\"city\": \"Beijing\"}", NULL}}},
    {CHAT_FORMAT_GLM, IN_R, "glm-4.7 two calls",
     "Two cities.</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call><tool_call>"
     "get_weather<arg_key>city</arg_key><arg_value>São Paulo</arg_value><arg_key>unit</arg_key><arg_value>fahrenheit"
     "</arg_value></tool_call>",
     "", "Two cities.", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_weather", WEATHER_SP, NULL}}},
    {CHAT_FORMAT_GLM, 0, "glm typed values",
     "<tool_call>search_web\n<arg_key>query</arg_key>\n<arg_value>quantum \"surface code\"</arg_value>\n<arg_key>"
     "max_results</arg_key>\n<arg_value>3</arg_value>\n<arg_key>safe</arg_key>\n<arg_value>true</arg_value>\n<arg_key>"
     "sites</arg_key>\n<arg_value>[\"arxiv.org\", \"nature.com\"]</arg_value>\n<arg_key>filters</arg_key>\n<arg_value>"
     "{\"year\": 2025, \"lang\": null}</arg_value>\n</tool_call>",
     "", "", 0,
     {{"search_web", "{\"query\": \"quantum \\\"surface code\\\"\", \"max_results\": 3, \"safe\": true, \"sites\": "
                     "[\"arxiv.org\", \"nature.com\"], \"filters\": {\"year\": 2025, \"lang\": null}}", NULL}}},
    {CHAT_FORMAT_GLM, 0, "glm plain after an empty block", "\n<think></think>\nHello there!", "Hello there!", "", 0, {{0}}},
    {CHAT_FORMAT_GLM, 0, "glm call without arguments", "<tool_call>get_time\n</tool_call>", "", "", 0, {{"get_time", "{}", NULL}}},
    {CHAT_FORMAT_GLM, 0, "glm markup-looking text", "a <b>bold</b> claim, <tool> and x < y", "a <b>bold</b> claim, <tool> and x < y",
     "", 0, {{0}}},
    {CHAT_FORMAT_GLM, 0, "glm missing </arg_key>", "<tool_call>f\n<arg_key>a\n<arg_value>1</arg_value>\n</tool_call>",
     "<tool_call>f\n<arg_key>a\n<arg_value>1</arg_value>\n</tool_call>", "", 1, {{0}}},

    // ---- Kimi K2
    {CHAT_FORMAT_KIMI_K2, 0, "kimi reasoning, text, two calls",
     "<think>Plan: look it up.</think>Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
     "<|tool_call_argument_begin|>" WEATHER_TOKYO "<|tool_call_end|><|tool_call_begin|>functions.get_time:1"
     "<|tool_call_argument_begin|>" TIME_TOKYO "<|tool_call_end|><|tool_calls_section_end|>",
     "Let me check.", "Plan: look it up.", 0,
     {{"get_weather", WEATHER_TOKYO, "functions.get_weather:0"}, {"get_time", TIME_TOKYO, "functions.get_time:1"}}},
    {CHAT_FORMAT_KIMI_K2, 0, "kimi plain", "Hello, I am Kimi.", "Hello, I am Kimi.", "", 0, {{0}}},
    {CHAT_FORMAT_KIMI_K2, 0, "kimi broken",
     "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\" 1}<|tool_call_end|>"
     "<|tool_calls_section_end|>",
     "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{\"a\" 1}<|tool_call_end|>"
     "<|tool_calls_section_end|>",
     "", 1, {{0}}},

    // ---- Command R7B
    {CHAT_FORMAT_COMMAND_R7B, 0, "command-r7b two calls",
     "<|START_THINKING|>I will look up both.<|END_THINKING|><|START_ACTION|>[\n    {\"tool_call_id\": \"0\", \"tool_name\": "
     "\"get_weather\", \"parameters\": " WEATHER_TOKYO "},\n    {\"tool_call_id\": \"1\", \"tool_name\": \"get_time\", "
     "\"parameters\": " TIME_TOKYO "}\n]<|END_ACTION|>",
     "", "I will look up both.", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_COMMAND_R7B, 0, "command-r7b response", "<|START_RESPONSE|>It is 14 °C in Lyon.<|END_RESPONSE|>",
     "It is 14 °C in Lyon.", "", 0, {{0}}},

    // ---- Granite 3.x
    {CHAT_FORMAT_GRANITE, 0, "granite reasoning and response", "<think>Short.</think><response>The answer.</response>",
     "The answer.", "Short.", 0, {{0}}},
    {CHAT_FORMAT_GRANITE, 0, "granite call", "<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": " WEATHER_TOKYO "}]", "",
     "", 0, {{"get_weather", WEATHER_TOKYO, NULL}}},

    // ---- Functionary
    {CHAT_FORMAT_FUNCTIONARY_V31, 0, "functionary v3.1 two calls",
     "<function=get_weather>" WEATHER_TOKYO "</function><function=get_time>" TIME_TOKYO "</function>", "", "", 0,
     {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_FUNCTIONARY_V31, 0, "functionary v3.1 code", "<|python_tag|>print(2 ** 10)", "", "", 0,
     {{"python", "{\"code\": \"print(2 ** 10)\"}", NULL}}},
    {CHAT_FORMAT_FUNCTIONARY_V32, 0, "functionary v3.2 text then a call",
     "all\nLet me check.>>>get_weather\n" WEATHER_TOKYO, "Let me check.", "", 0, {{"get_weather", WEATHER_TOKYO, NULL}}},
    {CHAT_FORMAT_FUNCTIONARY_V32, 0, "functionary v3.2 two calls",
     "get_weather\n" WEATHER_TOKYO ">>>get_time\n" TIME_TOKYO, "", "", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},

    // ---- Apriel, MiniMax-M1
    {CHAT_FORMAT_APRIEL, IN_R, "apriel reasoning and answer",
     "\nCheck divisors up to 9.\n[BEGIN FINAL RESPONSE]\nYes, 97 is prime.\n[END FINAL RESPONSE]", "Yes, 97 is prime.",
     "Check divisors up to 9.", 0, {{0}}},
    {CHAT_FORMAT_APRIEL, 0, "apriel calls",
     "\n<tool_calls>[{\"name\": \"get_weather\", \"arguments\": " WEATHER_TOKYO ", \"id\": \"call_1\"}]</tool_calls>", "", "",
     0, {{"get_weather", WEATHER_TOKYO, "call_1"}}},
    {CHAT_FORMAT_APRIEL, 0, "minimax-m1 calls",
     "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": " WEATHER_TOKYO "}\n{\"name\": \"get_time\", \"arguments\": "
     TIME_TOKYO "}\n</tool_calls>",
     "", "", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},

    // ---- MiniMax-M2: the prompt opens <think>
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 plain", "Hello! How can I help?", "Hello! How can I help?", "", 0, {{0}}},
    {CHAT_FORMAT_MINIMAX_M2, IN_R, "minimax-m2 reasoning then a call",
     "The user wants the weather in Paris.\n</think>\n\n<minimax:tool_call>\n<invoke name=\"get_weather\">\n"
     "<parameter name=\"city\">Paris</parameter>\n</invoke>\n</minimax:tool_call>",
     "", "The user wants the weather in Paris.", 0, {{"get_weather", "{\"city\": \"Paris\"}", NULL}}},
    {CHAT_FORMAT_MINIMAX_M2, IN_R, "minimax-m2 typed values, two invokes",
     "Two lookups.\n</think>\n\nLet me search.\n<minimax:tool_call>\n<invoke name=\"search_web\">\n<parameter name=\"query\">"
     "quantum error correction \"surface code\"</parameter>\n<parameter name=\"max_results\">3</parameter>\n"
     "<parameter name=\"safe\">true</parameter>\n<parameter name=\"sites\">[\"arxiv.org\", \"nature.com\"]</parameter>\n"
     "<parameter name=\"filters\">{\"year\": 2025, \"lang\": null}</parameter>\n</invoke>\n<invoke name=\"get_time\">\n"
     "<parameter name=\"timezone\">Asia/Tokyo</parameter>\n</invoke>\n</minimax:tool_call>",
     "Let me search.", "Two lookups.", 0,
     {{"search_web", "{\"query\": \"quantum error correction \\\"surface code\\\"\", \"max_results\": 3, \"safe\": true, "
                     "\"sites\": [\"arxiv.org\", \"nature.com\"], \"filters\": {\"year\": 2025, \"lang\": null}}", NULL},
      {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 values that are not JSON",
     "<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"n\">42 apples</parameter>\n<parameter name=\"code\">"
     "def f():\n    return \"é\" < 1\n</parameter>\n<parameter name=\"e\"></parameter>\n</invoke>\n</minimax:tool_call>",
     "", "", 0, {{"f", "{\"n\": \"42 apples\", \"code\": \"def f():\\n    return \\\"é\\\" < 1\\n\", \"e\": \"\"}", NULL}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 no parameters", "<minimax:tool_call><invoke name=\"ping\"></invoke></minimax:tool_call>",
     "", "", 0, {{"ping", "{}", NULL}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 markup-looking text", "Use <invoke> or <parameter> tags; x<y, <minimax:tool>.",
     "Use <invoke> or <parameter> tags; x<y, <minimax:tool>.", "", 0, {{0}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 truncated in a value",
     "Checking.\n<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">value that goes o",
     "Checking.\n<minimax:tool_call>\n<invoke name=\"f\">\n<parameter name=\"a\">value that goes o", "", 1, {{0}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 truncated in a tag", "<minimax:tool_call>\n<invoke na",
     "<minimax:tool_call>\n<invoke na", "", 1, {{0}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 broken tags",
     "<minimax:tool_call>\n<invoke name=\"f\">\n<param name=\"x\">1</param>\n</invoke>\n</minimax:tool_call>",
     "<minimax:tool_call>\n<invoke name=\"f\">\n<param name=\"x\">1</param>\n</invoke>\n</minimax:tool_call>", "", 1, {{0}}},
    {CHAT_FORMAT_MINIMAX_M2, 0, "minimax-m2 broken, then a good call",
     "<minimax:tool_call>\n<invoke name=\"a\nb\">\n</invoke>\n</minimax:tool_call>\n<minimax:tool_call>\n"
     "<invoke name=\"get_time\">\n<parameter name=\"timezone\">Asia/Tokyo</parameter>\n</invoke>\n</minimax:tool_call>",
     "<minimax:tool_call>\n<invoke name=\"a\nb\">\n</invoke>\n</minimax:tool_call>", "", 1, {{"get_time", TIME_TOKYO, NULL}}},

    // ---- Seed-OSS
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss reasoning, text, two calls",
     "<seed:think>Two lookups: weather, then time.</seed:think>\nI'll look both up.\n\n<seed:tool_call>\n"
     "<function=get_weather>\n<parameter=city>São Paulo</parameter>\n<parameter=unit>fahrenheit</parameter>\n</function>\n"
     "</seed:tool_call>\n<seed:tool_call>\n<function=get_time>\n<parameter=timezone>Asia/Tokyo</parameter>\n</function>\n"
     "</seed:tool_call>",
     "I'll look both up.", "Two lookups: weather, then time.", 0, {{"get_weather", WEATHER_SP, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss typed values",
     "<seed:tool_call>\n<function=search_web>\n<parameter=query>a \"b\"</parameter>\n<parameter=max_results>3</parameter>\n"
     "<parameter=safe>True</parameter>\n<parameter=lang>None</parameter>\n</function>\n</seed:tool_call>",
     "", "", 0, {{"search_web", "{\"query\": \"a \\\"b\\\"\", \"max_results\": 3, \"safe\": true, \"lang\": null}", NULL}}},
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss values in Python's str()",
     "<seed:tool_call>\n<function=f>\n<parameter=sites>['arxiv.org', \"it's\", 'a\\'b\\\\c\\n', '\\xe9\\u00e9']</parameter>\n"
     "<parameter=filters>{'year': 2025, 'lang': None, 'ok': True, 'r': (1, -2.5e-05), 'n': {}, 'l': [],}</parameter>\n"
     "<parameter=json>[\"x\\/\\ud83d\\ude00\", null, false]</parameter>\n<parameter=expr>[x] + {y}</parameter>\n"
     "<parameter=open>['unclosed'</parameter>\n</function>\n</seed:tool_call>",
     "", "", 0,
     {{"f", "{\"sites\": [\"arxiv.org\", \"it's\", \"a'b\\\\c\\n\", \"éé\"], \"filters\": {\"year\": 2025, \"lang\": null, "
            "\"ok\": true, \"r\": [1, -2.5e-05], \"n\": {}, \"l\": []}, \"json\": [\"x/😀\", null, false], \"expr\": \"[x] + {y}\", "
            "\"open\": \"['unclosed'\"}", NULL}}},
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss markup-looking text", "A <tool_call> or <function=x> is no call here.",
     "A <tool_call> or <function=x> is no call here.", "", 0, {{0}}},
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss truncated", "<seed:tool_call>\n<function=get_time>\n<parameter=timezone>Asia/To",
     "<seed:tool_call>\n<function=get_time>\n<parameter=timezone>Asia/To", "", 1, {{0}}},
    {CHAT_FORMAT_SEED_OSS, 0, "seed-oss wrong closing tag",
     "<seed:tool_call>\n<function=get_time>\n</function>\n</tool_call>", "\n</tool_call>", "", 1, {{"get_time", "{}", NULL}}},

    // ---- DeepSeek V3.2 / V4 DSML
    {CHAT_FORMAT_DEEPSEEK_V32, IN_R, "dsml v3.2 reasoning then two calls",
     "Weather, then time.</think>\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_weather\">\n"
     "<｜DSML｜parameter name=\"city\" string=\"true\">Tokyo</｜DSML｜parameter>\n</｜DSML｜invoke>\n"
     "<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"timezone\" string=\"true\">Asia/Tokyo</｜DSML｜parameter>\n"
     "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
     "", "Weather, then time.", 0, {{"get_weather", WEATHER_TOKYO, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_DEEPSEEK_V32, 0, "dsml v3.2 the string attribute decides",
     "Sure.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"s\" string=\"true\">12"
     "</｜DSML｜parameter>\n<｜DSML｜parameter name=\"t\" string=\"true\">true</｜DSML｜parameter>\n<｜DSML｜parameter "
     "name=\"n\" string=\"false\">12</｜DSML｜parameter>\n<｜DSML｜parameter name=\"a\" string=\"false\">[1, {\"x\": null}]"
     "</｜DSML｜parameter>\n<｜DSML｜parameter name=\"q\" string=\"true\">say \"hi\" ☕</｜DSML｜parameter>\n"
     "<｜DSML｜parameter name=\"u\">7</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
     "Sure.", "", 0,
     {{"f", "{\"s\": \"12\", \"t\": \"true\", \"n\": 12, \"a\": [1, {\"x\": null}], \"q\": \"say \\\"hi\\\" ☕\", \"u\": 7}", NULL}}},
    {CHAT_FORMAT_DEEPSEEK_V32, 0, "dsml v3.2 bad attribute",
     "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"s\" string=\"maybe\">1"
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
     "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"f\">\n<｜DSML｜parameter name=\"s\" string=\"maybe\">1"
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", "", 1, {{0}}},
    {CHAT_FORMAT_DEEPSEEK_V32, 0, "dsml v3.2 truncated in the section",
     "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"get_time\">\n<｜DSML｜parameter name=\"timezone\" string=\"true\">UTC"
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜inv",
     "\n<｜DSML｜inv", "", 1, {{"get_time", "{\"timezone\": \"UTC\"}", NULL}}},
    {CHAT_FORMAT_DEEPSEEK_V4, IN_R, "dsml v4 a call",
     "</think>Let me check.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" "
     "string=\"true\">São Paulo</｜DSML｜parameter>\n<｜DSML｜parameter name=\"unit\" string=\"true\">fahrenheit"
     "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>",
     "Let me check.", "", 0, {{"get_weather", WEATHER_SP, NULL}}},
    // ---- MiniMax-M3 (NS: its namespace token)
#define NS "]<]minimax[>["
    {CHAT_FORMAT_MINIMAX_M3, 0, "minimax-m3 no thinking, text, two calls",
     "</mm:think>Checking both." NS "<tool_call>\n" NS "<invoke name=\"get_weather\">" NS "<city>São Paulo" NS "</city>" NS
     "<unit>fahrenheit" NS "</unit>" NS "</invoke>\n" NS "<invoke name=\"get_time\">" NS "<timezone>Asia/Tokyo" NS
     "</timezone>" NS "</invoke>\n" NS "</tool_call>",
     "Checking both.", "", 0, {{"get_weather", WEATHER_SP, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_MINIMAX_M3, IN_R, "minimax-m3 reasoning, nested values",
     "Search first.</mm:think>" NS "<tool_call>\n" NS "<invoke name=\"search_web\">" NS "<query>a \"b\" < c" NS "</query>" NS
     "<max_results>3" NS "</max_results>" NS "<safe>true" NS "</safe>" NS "<sites>" NS "<item>arxiv.org" NS "</item>" NS
     "<item>" NS "<n>1" NS "</n>" NS "</item>" NS "</sites>" NS "<filters>" NS "<year>2025" NS "</year>" NS "<tags>" NS
     "<item>x" NS "</item>" NS "</tags>" NS "</filters>" NS "<e>" NS "</e>" NS "</invoke>\n" NS "</tool_call>",
     "", "Search first.", 0,
     {{"search_web", "{\"query\": \"a \\\"b\\\" < c\", \"max_results\": 3, \"safe\": true, \"sites\": [\"arxiv.org\", "
                     "{\"n\": 1}], \"filters\": {\"year\": 2025, \"tags\": [\"x\"]}, \"e\": \"\"}", NULL}}},
    {CHAT_FORMAT_MINIMAX_M3, 0, "minimax-m3 markup-looking text", "A <tool_call> or <invoke name=\"f\"> or ]<] is text.",
     "A <tool_call> or <invoke name=\"f\"> or ]<] is text.", "", 0, {{0}}},
    {CHAT_FORMAT_MINIMAX_M3, 0, "minimax-m3 mismatched closing tag",
     NS "<tool_call>\n" NS "<invoke name=\"f\">" NS "<a>1" NS "</b>" NS "</invoke>\n" NS "</tool_call>",
     NS "<tool_call>\n" NS "<invoke name=\"f\">" NS "<a>1" NS "</b>" NS "</invoke>\n" NS "</tool_call>", "", 1, {{0}}},
    {CHAT_FORMAT_MINIMAX_M3, 0, "minimax-m3 truncated", NS "<tool_call>\n" NS "<invoke name=\"f\">" NS "<a>" NS "<ite",
     NS "<tool_call>\n" NS "<invoke name=\"f\">" NS "<a>" NS "<ite", "", 1, {{0}}},
#undef NS

    // ---- Gemma 4
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 reasoning, text, two calls",
     "<|channel>thought\nWeather, then time.<channel|>Checking both.<|tool_call>call:get_weather{city:<|\"|>São Paulo<|\"|>,"
     "unit:<|\"|>fahrenheit<|\"|>}<tool_call|><|tool_call>call:get_time{timezone:<|\"|>Asia/Tokyo<|\"|>}<tool_call|>",
     "Checking both.", "Weather, then time.", 0, {{"get_weather", WEATHER_SP, NULL}, {"get_time", TIME_TOKYO, NULL}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 typed and nested values",
     "<|tool_call>call:search_web{filters:{lang:None,tags:[<|\"|>a \"b\"<|\"|>,{x:-1.5e3}],year:2025},max_results:3,"
     "query:<|\"|>x < y, {z}: [w]\n<|\"|>,safe:true,sites:[],o:{},<|\"|>q k<|\"|>:False}<tool_call|>",
     "", "", 0,
     {{"search_web", "{\"filters\": {\"lang\": null, \"tags\": [\"a \\\"b\\\"\", {\"x\": -1.5e3}], \"year\": 2025}, "
                     "\"max_results\": 3, \"query\": \"x < y, {z}: [w]\\n\", \"safe\": true, \"sites\": [], \"o\": {}, "
                     "\"q k\": false}", NULL}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 no arguments", "<|tool_call>call:ping{}<tool_call|>", "", "", 0, {{"ping", "{}", NULL}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 markup-looking text", "A <|tool> or call:f{x:1} is text; <|\"|> too.",
     "A <|tool> or call:f{x:1} is text; <|\"|> too.", "", 0, {{0}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 truncated in a string", "<|tool_call>call:get_time{timezone:<|\"|>Asia/To",
     "<|tool_call>call:get_time{timezone:<|\"|>Asia/To", "", 1, {{0}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 a bare word is no value", "<|tool_call>call:f{a:hello}<tool_call|>",
     "<|tool_call>call:f{a:hello}<tool_call|>", "", 1, {{0}}},
    // A bare value longer than a token can be fails at its 65th byte however the text is split
    // (the call inside it is then part of the text given back, not a call).
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 a bare value too long",
     "<|tool_call>call:f{a:yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy<|tool_call>call:ping{}<tool_call|>",
     "<|tool_call>call:f{a:yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy<|tool_call>call:ping{}<tool_call|>", "", 1, {{0}}},
    {CHAT_FORMAT_GEMMA4, 0, "gemma4 unbalanced", "<|tool_call>call:f{a:[1,2}}<tool_call|>",
     "<|tool_call>call:f{a:[1,2}}<tool_call|>", "", 1, {{0}}},
    {CHAT_FORMAT_DEEPSEEK_V4, 0, "dsml v4 markup-looking text", "The <｜DSML｜ prefix and <invoke name=\"x\"> are text here.",
     "The <｜DSML｜ prefix and <invoke name=\"x\"> are text here.", "", 0, {{0}}},
};

// The tags of each format that no text delta of a clean recording may contain.
static const char *const marks_think[] = {"<think>", "</think>", NULL};
static const char *const marks_hermes[] = {"<think>", "</think>", "<tool_call>", "</tool_call>", NULL};
static const char *const marks_qwen[] = {"<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "<parameter=", NULL};
static const char *const marks_llama[] = {"<|python_tag|>", NULL};
static const char *const marks_mistral[] = {"[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]", NULL};
static const char *const marks_deepseek[] = {"<think>", "</think>", "<｜tool", NULL};
static const char *const marks_harmony[] = {"<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|call|>", "<|return|>",
                                            "<|constrain|>", NULL};
static const char *const marks_glm[] = {"<think>", "</think>", "<tool_call>", "<arg_key>", "<arg_value>", NULL};
static const char *const marks_kimi[] = {"<think>", "</think>", "<|tool_call", NULL};
static const char *const marks_cr[] = {"<|START_", "<|END_", NULL};
static const char *const marks_granite[] = {"<think>", "</think>", "<|tool_call|>", "<response>", "</response>", NULL};
static const char *const marks_f31[] = {"<function=", "</function>", "<|python_tag|>", NULL};
static const char *const marks_f32[] = {">>>", NULL};
static const char *const marks_apriel[] = {"[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]", "<tool_calls>", NULL};
static const char *const marks_minimax[] = {"<think>", "</think>", "<minimax:tool_call>", "<invoke name=", "<parameter name=",
                                            NULL};
static const char *const marks_seed[] = {"<seed:think>", "</seed:think>", "<seed:tool_call>", "<function=", "<parameter=", NULL};
static const char *const marks_gemma4[] = {"<|channel>", "<channel|>", "<|tool_call>", "<tool_call|>", "<|\"|>", NULL};
static const char *const marks_minimax_m3[] = {"<mm:think>", "</mm:think>", "]<]minimax[>[", NULL};
static const char *const marks_dsml[] = {"<think>", "</think>", "<｜DSML｜function_calls>", "<｜DSML｜tool_calls>",
                                         "<｜DSML｜invoke", "<｜DSML｜parameter", NULL};

static const char *const *const marks[CHAT_FORMAT_COUNT] = {
    [CHAT_FORMAT_THINK] = marks_think,        [CHAT_FORMAT_HERMES] = marks_hermes,   [CHAT_FORMAT_QWEN3_CODER] = marks_qwen,
    [CHAT_FORMAT_LLAMA3] = marks_llama,       [CHAT_FORMAT_MISTRAL] = marks_mistral, [CHAT_FORMAT_DEEPSEEK] = marks_deepseek,
    [CHAT_FORMAT_GPT_OSS] = marks_harmony,    [CHAT_FORMAT_GLM] = marks_glm,         [CHAT_FORMAT_KIMI_K2] = marks_kimi,
    [CHAT_FORMAT_COMMAND_R7B] = marks_cr,     [CHAT_FORMAT_GRANITE] = marks_granite, [CHAT_FORMAT_FUNCTIONARY_V31] = marks_f31,
    [CHAT_FORMAT_FUNCTIONARY_V32] = marks_f32, [CHAT_FORMAT_APRIEL] = marks_apriel, [CHAT_FORMAT_MINIMAX_M2] = marks_minimax,
    [CHAT_FORMAT_SEED_OSS] = marks_seed,      [CHAT_FORMAT_DEEPSEEK_V32] = marks_dsml, [CHAT_FORMAT_DEEPSEEK_V4] = marks_dsml,
    [CHAT_FORMAT_GEMMA4] = marks_gemma4,      [CHAT_FORMAT_MINIMAX_M3] = marks_minimax_m3,
};

static bool good_generated_id(enum chat_format f, const char *id) {
    size_t n = strlen(id), pre = f == CHAT_FORMAT_MISTRAL ? 0 : 5;
    if (n != pre + (f == CHAT_FORMAT_MISTRAL ? 9 : 24) || (pre && strncmp(id, "call_", 5))) return false;
    for (size_t i = pre; i < n; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || ((id[i] | 32) >= 'a' && (id[i] | 32) <= 'z'))) return false;
    return true;
}

// Checks g against the recording; `how` names the feeding in messages.
static void check_rec(const struct rec *r, struct got *g, const char *how) {
    CHECK(!g->bad, "%s (%s): %s", r->what, how, g->why);
    CHECK(!strcmp(str_c(&g->content), r->content), "%s (%s): content\n  got  [%s]\n  want [%s]", r->what, how,
          str_c(&g->content), r->content);
    CHECK(!strcmp(str_c(&g->reasoning), r->reasoning), "%s (%s): reasoning\n  got  [%s]\n  want [%s]", r->what, how,
          str_c(&g->reasoning), r->reasoning);
    CHECK(g->warnings == r->warnings, "%s (%s): %d warnings, want %d", r->what, how, g->warnings, r->warnings);
    bool tags_in_text = false; // a recording whose text is meant to hold tags
    for (int k = 0; marks[r->f] && marks[r->f][k]; k++) tags_in_text = tags_in_text || strstr(r->content, marks[r->f][k]);
    if (!r->warnings && !tags_in_text) CHECK(!g->leaked, "%s (%s): a text delta contains a tag", r->what, how);
    const struct got_call *c[MAX_CALLS];
    int n = done_calls(g, c), want = 0;
    while (want < 4 && r->calls[want].name) want++;
    CHECK(n == want, "%s (%s): %d calls, want %d", r->what, how, n, want);
    for (int i = 0; i < n && i < want; i++) {
        const struct want_call *w = &r->calls[i];
        CHECK(!strcmp(c[i]->name, w->name), "%s (%s): call %d is %s, want %s", r->what, how, i, c[i]->name, w->name);
        CHECK(!strcmp(str_c((struct str *)&c[i]->args), w->args), "%s (%s): call %d arguments\n  got  [%s]\n  want [%s]",
              r->what, how, i, str_c((struct str *)&c[i]->args), w->args);
        CHECK(is_json_object(c[i]->args.p, c[i]->args.n), "%s (%s): call %d arguments are not a JSON object", r->what, how, i);
        if (w->id)
            CHECK(!strcmp(c[i]->id, w->id), "%s (%s): call %d id %s, want %s", r->what, how, i, c[i]->id, w->id);
        else
            CHECK(good_generated_id(r->f, c[i]->id), "%s (%s): call %d id %s", r->what, how, i, c[i]->id);
    }
}

static void test_recordings(void) {
    static const char *const how[] = {"whole", "bytes", "random splits", "utf-8 splits"};
    for (size_t k = 0; k < sizeof recs / sizeof recs[0]; k++) {
        const struct rec *r = &recs[k];
        size_t n = strlen(r->in);
        struct got first = {0};
        first.marks = marks[r->f];
        parse(r->f, r->flags, 7, r->in, n, 0, 0, &first);
        check_rec(r, &first, how[0]);
        for (int whole = 0; whole < 2; whole++) {
            for (int mode = 0; mode < 4; mode++) {
                for (uint64_t s = 0; s < (mode >= 2 ? 8u : 1u); s++) {
                    if (!whole && mode == 0) continue;
                    struct got g = {0};
                    g.marks = marks[r->f];
                    parse(r->f, r->flags | (whole ? CHATPARSE_WHOLE_CALLS : 0), 7, r->in, n, mode, s + 1, &g);
                    char h[64];
                    snprintf(h, sizeof h, "%s%s, seed %d", how[mode], whole ? ", whole calls" : "", (int)s);
                    check_rec(r, &g, h);
                    // Same seed, same ids, however split (and whichever mode, without warnings).
                    CHECK(same_result(&first, &g, !r->warnings), "%s (%s): differs from whole", r->what, h);
                    got_free(&g);
                }
            }
        }
        // Two pieces, cut at every byte: the same result wherever the one split falls.
        for (size_t cut = 1; cut < n; cut++) {
            struct got g = {0};
            struct chatparse_params pp = {r->flags, 7};
            struct chatparse *p;
            if (chatparse_create(r->f, &pp, &p)) break;
            if (chatparse_feed(p, r->in, cut, on_delta, &g) || chatparse_feed(p, r->in + cut, n - cut, on_delta, &g) ||
                chatparse_finish(p, on_delta, &g))
                bad(&g, "feed failed");
            chatparse_free(p);
            CHECK(!g.bad && same_result(&first, &g, !r->warnings), "%s: cut at byte %zu differs from whole", r->what, cut);
            got_free(&g);
        }
        got_free(&first);
    }
}

// ---- the templates' own renders --------------------------------------------------------------

struct golden {
    const char *tmpl, *conv;
    enum chat_format f;
    unsigned flags;
    const char *after, *end; // the assistant's turn: after `after` (following the first user
                             // message), up to `end`
    const char *content;     // NULL: the conversation's content
    bool kimi_ids, model_ids; // ids "functions.NAME:i" / the conversation's
};

#define QWEN_AFTER "<|im_start|>assistant\n", "<|im_end|>"
#define LLAMA_AFTER "<|start_header_id|>assistant<|end_header_id|>\n\n"
#define DS_AFTER "<｜Assistant｜>", "<｜end▁of▁sentence｜>"

static const struct golden goldens[] = {
    {"Qwen-Qwen2.5-7B-Instruct", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen-Qwen2.5-7B-Instruct", "tool-call-typed-args", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen-Qwen3-0.6B", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen-Qwen3-0.6B", "tool-call-typed-args", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen-QwQ-32B", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL, false, false},
    {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL,
     false, false},
    {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, QWEN_AFTER, NULL,
     false, false},
    {"ibm-granite-granite-4.0", "tool-parallel-named-dict", CHAT_FORMAT_HERMES, 0, "<|start_of_role|>assistant<|end_of_role|>",
     "<|end_of_text|>", NULL, false, false},
    {"Qwen3-Coder", "tool-parallel-named-dict", CHAT_FORMAT_QWEN3_CODER, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen3-Coder", "tool-call-typed-args", CHAT_FORMAT_QWEN3_CODER, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen3.5-4B", "tool-parallel-named-dict", CHAT_FORMAT_QWEN3_CODER, 0, QWEN_AFTER, NULL, false, false},
    {"Qwen3.5-4B", "tool-call-typed-args", CHAT_FORMAT_QWEN3_CODER, CHATPARSE_STARTS_IN_REASONING,
     "<|im_start|>assistant\n<think>\n", "<|im_end|>", NULL, false, false},
    {"NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "tool-parallel-named-dict", CHAT_FORMAT_QWEN3_CODER, 0, QWEN_AFTER, NULL, false,
     false},
    {"GLM-4.6", "tool-parallel-named-dict", CHAT_FORMAT_GLM, 0, "<|assistant|>", "<|observation|>", NULL, false, false},
    {"GLM-4.6", "tool-call-typed-args", CHAT_FORMAT_GLM, 0, "<|assistant|>", "<|observation|>", NULL, false, false},
    {"GLM-4.7-Flash", "tool-parallel-named-dict", CHAT_FORMAT_GLM, CHATPARSE_STARTS_IN_REASONING, "<|assistant|>",
     "<|observation|>", NULL, false, false},
    {"GLM-4.7-Flash", "tool-call-typed-args", CHAT_FORMAT_GLM, CHATPARSE_STARTS_IN_REASONING, "<|assistant|>",
     "<|observation|>", NULL, false, false},
    {"moonshotai-Kimi-K2", "tool-parallel-named-dict", CHAT_FORMAT_KIMI_K2, 0, "<|im_assistant|>assistant<|im_middle|>",
     "<|im_end|>", NULL, true, false},
    {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "tool-parallel-named-dict", CHAT_FORMAT_DEEPSEEK, 0, DS_AFTER, NULL, false,
     false},
    {"deepseek-ai-DeepSeek-V3.1", "tool-parallel-named-dict", CHAT_FORMAT_DEEPSEEK, CHATPARSE_STARTS_IN_REASONING, DS_AFTER,
     NULL, false, false},
    {"mistralai-Mistral-Nemo-Instruct-2407", "tool-call-id9", CHAT_FORMAT_MISTRAL, 0, "[/INST]", "</s>", NULL, false, true},
    {"Mistral-Small-3.2-24B-Instruct-2506", "tool-call-id9", CHAT_FORMAT_MISTRAL, 0, "[/INST]", "</s>", NULL, false, true},
    {"unsloth-mistral-Devstral-Small-2507", "tool-parallel-named-dict", CHAT_FORMAT_MISTRAL, 0, "[/INST]", "</s>", NULL, false,
     false},
    {"mistralai-Ministral-3-14B-Reasoning-2512", "tool-parallel-named-dict", CHAT_FORMAT_MISTRAL, 0, "[/INST]", "</s>", NULL,
     false, false},
    {"meta-llama-Llama-3.1-8B-Instruct", "tool-call-id9", CHAT_FORMAT_LLAMA3, 0, LLAMA_AFTER, "<|eot_id|>", NULL, false, false},
    {"meta-llama-Llama-3.2-3B-Instruct", "tool-call-id9", CHAT_FORMAT_LLAMA3, 0, LLAMA_AFTER, "<|eot_id|>", NULL, false, false},
    {"meta-llama-Llama-3.3-70B-Instruct", "tool-call-id9", CHAT_FORMAT_LLAMA3, 0, LLAMA_AFTER, "<|eot_id|>", NULL, false, false},
    {"openai-gpt-oss-120b", "tool-call-typed-args", CHAT_FORMAT_GPT_OSS, 0, "<|start|>assistant", "<|start|>functions", "",
     false, false},
    {"CohereForAI-c4ai-command-r7b-12-2024-tool_use", "tool-parallel-named-dict", CHAT_FORMAT_COMMAND_R7B, 0,
     "<|CHATBOT_TOKEN|>", "<|END_OF_TURN_TOKEN|>", NULL, false, false},
    {"Cohere2MoE", "tool-parallel-named-dict", CHAT_FORMAT_COMMAND_R7B, 0, "<|CHATBOT_TOKEN|>", "<|END_OF_TURN_TOKEN|>", NULL,
     false, false},
    {"meetkai-functionary-medium-v3.1", "tool-parallel-named-dict", CHAT_FORMAT_FUNCTIONARY_V31, 0, LLAMA_AFTER, "<|eom_id|>",
     NULL, false, false},
    {"meetkai-functionary-medium-v3.2", "tool-parallel-named-string", CHAT_FORMAT_FUNCTIONARY_V32, 0, LLAMA_AFTER ">>>",
     "<|eot_id|>", NULL, false, false},
    {"unsloth-Apriel-1.5", "tool-parallel-named-dict", CHAT_FORMAT_APRIEL, 0, "<|assistant|>\n", "\n<|end|>", NULL, false, true},
    {"MiniMax-M1", "tool-parallel-named-dict", CHAT_FORMAT_APRIEL, 0, "ai name=assistant\n", "<end_of_sentence>", NULL, false,
     false},
    {"inclusionai-ling-3.0-flash", "tool-parallel-named-dict", CHAT_FORMAT_GLM, 0, "<role>ASSISTANT</role>", "<|role_end|>",
     NULL, false, false},
    {"poolside-Laguna-XS.2", "tool-parallel-named-dict", CHAT_FORMAT_GLM, CHATPARSE_STARTS_IN_REASONING, "<assistant>",
     "</assistant>", NULL, false, false},
    {"MiniMax-M2", "tool-parallel-named-dict", CHAT_FORMAT_MINIMAX_M2, 0, "]~b]ai\n", "[e~[", NULL, false, false},
    {"MiniMax-M2", "tool-call-typed-args", CHAT_FORMAT_MINIMAX_M2, 0, "]~b]ai\n", "[e~[", NULL, false, false},
    // (Seed-OSS writes lists and dicts with Python's str(): ['arxiv.org', 'nature.com'].)
    {"ByteDance-Seed-OSS", "tool-parallel-named-dict", CHAT_FORMAT_SEED_OSS, 0, "<seed:bos>assistant\n", "<seed:eos>",
     NULL, false, false},
    {"ByteDance-Seed-OSS", "tool-call-typed-args", CHAT_FORMAT_SEED_OSS, 0, "<seed:bos>assistant\n", "<seed:eos>", NULL,
     false, false},
    {"deepseek-ai-DeepSeek-V3.2", "tool-parallel-named-dict", CHAT_FORMAT_DEEPSEEK_V32, CHATPARSE_STARTS_IN_REASONING,
     DS_AFTER, NULL, false, false},
    {"deepseek-ai-DeepSeek-V3.2", "tool-call-typed-args", CHAT_FORMAT_DEEPSEEK_V32, CHATPARSE_STARTS_IN_REASONING, DS_AFTER,
     NULL, false, false},
    {"deepseek-ai-DeepSeek-V4", "tool-call-typed-args", CHAT_FORMAT_DEEPSEEK_V4, CHATPARSE_STARTS_IN_REASONING, DS_AFTER,
     NULL, false, false},
    {"deepseek-ai-DeepSeek-V4-Flash-0731", "tool-parallel-named-dict", CHAT_FORMAT_DEEPSEEK_V4, CHATPARSE_STARTS_IN_REASONING,
     DS_AFTER, NULL, false, false},
    {"MiniMax-M3", "tool-parallel-named-dict", CHAT_FORMAT_MINIMAX_M3, 0, "]~b]ai\n", "[e~[", NULL, false, false},
    // Gemma 4 writes the content after the call's response: the turn is cut at <|tool_response>.
    {"google-gemma-4-31B-it", "tool-parallel-named-dict", CHAT_FORMAT_GEMMA4, 0, "<|turn>model\n", "<|tool_response>", "",
     false, false},
    {"google-gemma-4-31B-it", "tool-call-typed-args", CHAT_FORMAT_GEMMA4, 0, "<|turn>model\n", "<|tool_response>", "", false,
     false},
    // (The interleaved template writes it after the call, in the same turn.)
    {"google-gemma-4-31B-it-interleaved", "tool-call-typed-args", CHAT_FORMAT_GEMMA4, 0, "<|turn>model\n", "<turn|>", NULL,
     false, false},
};

// The conversation rendered by frink's own template engine (frink_template_render), for the
// round trip template -> calls -> parser; NULL (a failed CHECK) when it cannot.
static char *render_frink(const char *tmpl, const char *convs, size_t cn) {
    char path[512];
    size_t n = 0;
    snprintf(path, sizeof path, TPL_DIR "%s.jinja", tmpl);
    char *src = test_read_file(path, &n);
    frink_template *t = NULL;
    char *out = NULL, *copy = NULL;
    size_t len = 0;
    CHECK(src && !frink_template_parse(NULL, src, n, &t), "%s: %s", tmpl, src ? frink_errmsg() : "cannot read it");
    if (t && convs) {
        CHECK(!frink_template_render(t, convs, cn, 1700000000, &out, &len), "%s: render: %s", tmpl, frink_errmsg());
        if (out && (copy = malloc(len + 1))) memcpy(copy, out, len), copy[len] = 0;
    }
    frink_free(out);
    frink_template_free(t);
    free(src);
    return copy;
}

static void test_goldens(void) {
    for (size_t k = 0; k < 2 * (sizeof goldens / sizeof goldens[0]); k++) {
        // Each golden twice: jinja2's render, then frink's own.
        const struct golden *t = &goldens[k / 2];
        bool own = k % 2;
        // Mistral's turns end with eos_token, which frink renders as the model's: none here.
        if (own && !strcmp(t->end, "</s>")) continue;
        char path[512];
        size_t rn = 0, cn = 0;
        snprintf(path, sizeof path, TPL_DIR "conversations/%s.json", t->conv);
        char *convs = test_read_file(path, &cn);
        snprintf(path, sizeof path, TPL_DIR "expected/%s/%s.txt", t->tmpl, t->conv);
        char *render = own ? render_frink(t->tmpl, convs, cn) : test_read_file(path, &rn);
        CHECK(render && convs, "%s / %s: cannot read the render or the conversation", t->tmpl, t->conv);
        json_error_t e;
        json_t *conv = convs ? json_loadb(convs, cn, 0, &e) : NULL;
        json_t *msgs = json_object_get(conv, "messages"), *user = NULL, *asst = NULL;
        for (size_t i = 0; i < json_array_size(msgs); i++) {
            json_t *m = json_array_get(msgs, i);
            const char *role = json_string_value(json_object_get(m, "role"));
            if (!user && role && !strcmp(role, "user")) user = m;
            if (!asst && role && !strcmp(role, "assistant") && json_array_size(json_object_get(m, "tool_calls"))) asst = m;
        }
        const char *anchor = json_string_value(json_object_get(user, "content"));
        const char *a = render && anchor ? strstr(render, anchor) : NULL;
        a = a ? strstr(a, t->after) : NULL;
        const char *b = a ? strstr(a + strlen(t->after), t->end) : NULL;
        CHECK(asst && a && b, "%s / %s: no assistant turn with calls", t->tmpl, t->conv);
        if (asst && a && b) {
            a += strlen(t->after);
            json_t *calls = json_object_get(asst, "tool_calls");
            const char *content = t->content ? t->content : json_string_value(json_object_get(asst, "content"));
            for (int mode = 0; mode < 4; mode++) {
                struct got g = {0};
                parse(t->f, t->flags, 1, a, (size_t)(b - a), mode, 3, &g);
                const struct got_call *c[MAX_CALLS];
                int n = done_calls(&g, c);
                CHECK(!g.bad && !g.warnings, "%s / %s (mode %d): %d warnings %s", t->tmpl, t->conv, mode, g.warnings, g.why);
                CHECK(!strcmp(str_c(&g.content), content ? content : ""), "%s / %s (mode %d): content [%s]", t->tmpl, t->conv,
                      mode, str_c(&g.content));
                CHECK(!strcmp(str_c(&g.reasoning), ""), "%s / %s: reasoning [%s]", t->tmpl, t->conv, str_c(&g.reasoning));
                CHECK((size_t)n == json_array_size(calls), "%s / %s (mode %d): %d calls, want %zu", t->tmpl, t->conv, mode, n,
                      json_array_size(calls));
                for (int i = 0; i < n && (size_t)i < json_array_size(calls); i++) {
                    json_t *fn = json_object_get(json_array_get(calls, (size_t)i), "function");
                    json_t *wargs = json_object_get(fn, "arguments"), *args = json_loadb(c[i]->args.p, c[i]->args.n, 0, &e);
                    json_t *parsed = json_is_string(wargs) ? json_loads(json_string_value(wargs), 0, &e) : json_incref(wargs);
                    const char *wname = json_string_value(json_object_get(fn, "name"));
                    CHECK(wname && !strcmp(c[i]->name, wname), "%s / %s: call %d name %s", t->tmpl, t->conv, i, c[i]->name);
                    CHECK(args && json_is_object(args) && json_equal(args, parsed), "%s / %s: call %d arguments %s", t->tmpl,
                          t->conv, i, str_c((struct str *)&c[i]->args));
                    char want_id[128];
                    const char *wid = json_string_value(json_object_get(json_array_get(calls, (size_t)i), "id"));
                    if (t->kimi_ids) snprintf(want_id, sizeof want_id, "functions.%s:%d", wname ? wname : "", i), wid = want_id;
                    if (t->kimi_ids || t->model_ids)
                        CHECK(wid && !strcmp(c[i]->id, wid), "%s / %s: call %d id %s", t->tmpl, t->conv, i, c[i]->id);
                    json_decref(args);
                    json_decref(parsed);
                }
                got_free(&g);
            }
        }
        json_decref(conv);
        free(render);
        free(convs);
    }
}

// ---- detection and prompts -----------------------------------------------------------------

static void test_detect(void) {
    static const struct {
        const char *tmpl;
        enum chat_format f;
    } want[] = {
        {"Qwen-Qwen2.5-7B-Instruct", CHAT_FORMAT_HERMES},
        {"Qwen-QwQ-32B", CHAT_FORMAT_HERMES},
        {"Qwen-Qwen3-0.6B", CHAT_FORMAT_HERMES},
        {"NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", CHAT_FORMAT_HERMES},
        {"NousResearch-Hermes-3-Llama-3.1-8B-tool_use", CHAT_FORMAT_HERMES},
        {"ibm-granite-granite-4.0", CHAT_FORMAT_HERMES},
        {"Qwen3-Coder", CHAT_FORMAT_QWEN3_CODER},
        {"Qwen3.5-4B", CHAT_FORMAT_QWEN3_CODER},
        {"NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", CHAT_FORMAT_QWEN3_CODER},
        {"meta-llama-Llama-3.1-8B-Instruct", CHAT_FORMAT_LLAMA3},
        {"meta-llama-Llama-3.2-3B-Instruct", CHAT_FORMAT_LLAMA3},
        {"meta-llama-Llama-3.3-70B-Instruct", CHAT_FORMAT_LLAMA3},
        {"mistralai-Mistral-Nemo-Instruct-2407", CHAT_FORMAT_MISTRAL},
        {"Mistral-Small-3.2-24B-Instruct-2506", CHAT_FORMAT_MISTRAL},
        {"unsloth-mistral-Devstral-Small-2507", CHAT_FORMAT_MISTRAL},
        {"mistralai-Ministral-3-14B-Reasoning-2512", CHAT_FORMAT_MISTRAL},
        {"deepseek-ai-DeepSeek-R1-Distill-Llama-8B", CHAT_FORMAT_DEEPSEEK},
        {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", CHAT_FORMAT_DEEPSEEK},
        {"deepseek-ai-DeepSeek-V3.1", CHAT_FORMAT_DEEPSEEK},
        {"llama-cpp-deepseek-r1", CHAT_FORMAT_DEEPSEEK},
        {"openai-gpt-oss-120b", CHAT_FORMAT_GPT_OSS},
        {"GLM-4.6", CHAT_FORMAT_GLM},
        {"GLM-4.7-Flash", CHAT_FORMAT_GLM},
        {"moonshotai-Kimi-K2", CHAT_FORMAT_KIMI_K2},
        {"Kimi-K2-Instruct", CHAT_FORMAT_KIMI_K2},
        {"Kimi-K2-Thinking", CHAT_FORMAT_KIMI_K2},
        {"CohereForAI-c4ai-command-r7b-12-2024-tool_use", CHAT_FORMAT_COMMAND_R7B},
        {"ibm-granite-granite-3.3-2B-Instruct", CHAT_FORMAT_GRANITE},
        {"meetkai-functionary-medium-v3.1", CHAT_FORMAT_FUNCTIONARY_V31},
        {"meetkai-functionary-medium-v3.2", CHAT_FORMAT_FUNCTIONARY_V32},
        {"unsloth-Apriel-1.5", CHAT_FORMAT_APRIEL},
        {"Apriel-1.6-15b-Thinker-fixed", CHAT_FORMAT_APRIEL},
        {"deepseek-ai-DeepSeek-V3.2", CHAT_FORMAT_DEEPSEEK_V32},
        {"deepseek-ai-DeepSeek-V4", CHAT_FORMAT_DEEPSEEK_V4},
        {"deepseek-ai-DeepSeek-V4-Flash-0731", CHAT_FORMAT_DEEPSEEK_V4},
        {"MiniMax-M2", CHAT_FORMAT_MINIMAX_M2},
        {"ByteDance-Seed-OSS", CHAT_FORMAT_SEED_OSS},
        {"google-gemma-4-31B-it", CHAT_FORMAT_GEMMA4},
        {"google-gemma-4-31B-it-interleaved", CHAT_FORMAT_GEMMA4},
        {"MiniMax-M3", CHAT_FORMAT_MINIMAX_M3},
        {"tencent-Hy3", CHAT_FORMAT_NONE}, // renders tools; its call format is not read
        {"google-gemma-2-2b-it", CHAT_FORMAT_NONE},
        {"microsoft-Phi-3.5-mini-instruct", CHAT_FORMAT_NONE},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char path[512];
        size_t n;
        snprintf(path, sizeof path, TPL_DIR "%s.jinja", want[i].tmpl);
        char *src = test_read_file(path, &n);
        CHECK(src, "cannot read %s", path);
        if (!src) continue;
        enum chat_format f = chat_format_detect(src);
        CHECK(f == want[i].f, "%s: detected %s, want %s", want[i].tmpl, chat_format_name(f), chat_format_name(want[i].f));
        free(src);
    }
    CHECK(chat_format_detect(NULL) == CHAT_FORMAT_NONE, "NULL template");
    CHECK(chat_format_detect("{{ messages }}") == CHAT_FORMAT_NONE, "plain template");
    for (int f = 0; f < CHAT_FORMAT_COUNT; f++) {
        const char *name = chat_format_name((enum chat_format)f);
        CHECK(name && (int)chat_format_from_name(name) == f, "format %d name %s", f, name ? name : "(null)");
    }
    CHECK(!chat_format_name(CHAT_FORMAT_COUNT) && chat_format_from_name("nope") == CHAT_FORMAT_COUNT &&
              chat_format_from_name(NULL) == CHAT_FORMAT_COUNT,
          "names out of range");

    // Rendered prompts that leave the reasoning open (jinja2's renders with a generation prompt).
    static const struct {
        const char *tmpl, *conv;
        enum chat_format f;
        bool open;
    } prompts[] = {
        {"Qwen3.5-4B", "user-only", CHAT_FORMAT_QWEN3_CODER, true},
        {"GLM-4.7-Flash", "user-only", CHAT_FORMAT_GLM, true},
        {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "enable-thinking-true", CHAT_FORMAT_DEEPSEEK, true},
        {"deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "user-only", CHAT_FORMAT_DEEPSEEK, false},
        {"Apriel-1.6-15b-Thinker-fixed", "user-only", CHAT_FORMAT_APRIEL, true},
        {"Qwen-Qwen3-0.6B", "user-only", CHAT_FORMAT_HERMES, false},
        {"Qwen-Qwen3-0.6B", "enable-thinking-false", CHAT_FORMAT_HERMES, false},
        {"Qwen3.5-4B", "enable-thinking-false", CHAT_FORMAT_QWEN3_CODER, false},
        {"openai-gpt-oss-120b", "user-only", CHAT_FORMAT_GPT_OSS, false},
        {"MiniMax-M2", "user-only", CHAT_FORMAT_MINIMAX_M2, true},
        {"deepseek-ai-DeepSeek-V3.2", "enable-thinking-true", CHAT_FORMAT_DEEPSEEK_V32, true},
        {"deepseek-ai-DeepSeek-V3.2", "user-only", CHAT_FORMAT_DEEPSEEK_V32, false},
        {"deepseek-ai-DeepSeek-V4", "enable-thinking-true", CHAT_FORMAT_DEEPSEEK_V4, true},
        {"ByteDance-Seed-OSS", "user-only", CHAT_FORMAT_SEED_OSS, false},
    };
    for (size_t i = 0; i < sizeof prompts / sizeof prompts[0]; i++) {
        char path[512];
        size_t n;
        snprintf(path, sizeof path, TPL_DIR "expected/%s/%s.txt", prompts[i].tmpl, prompts[i].conv);
        char *s = test_read_file(path, &n);
        CHECK(s, "cannot read %s", path);
        if (!s) continue;
        CHECK(chat_prompt_opens_reasoning(prompts[i].f, s, n) == prompts[i].open, "%s / %s: opens reasoning %d",
              prompts[i].tmpl, prompts[i].conv, !prompts[i].open);
        free(s);
    }
    CHECK(chat_prompt_opens_reasoning(CHAT_FORMAT_GPT_OSS, "<|start|>assistant<|channel|>analysis<|message|>", 48),
          "harmony analysis opened");
    CHECK(!chat_prompt_opens_reasoning(CHAT_FORMAT_LLAMA3, "<think>", 7), "llama has no reasoning");
}

// ---- behaviours, one at a time ---------------------------------------------------------------

// Feeds the pieces one by one, checking the content emitted so far after each.
static void hold_case(enum chat_format f, const char *const *pieces, const char *const *after) {
    struct chatparse *p;
    CHECK(!chatparse_create(f, NULL, &p), "create");
    struct got g = {0};
    for (int i = 0; pieces[i]; i++) {
        chatparse_feed(p, pieces[i], strlen(pieces[i]), on_delta, &g);
        CHECK(!strcmp(str_c(&g.content), after[i]), "%s: after [%s]: content [%s], want [%s]", chat_format_name(f), pieces[i],
              str_c(&g.content), after[i]);
    }
    chatparse_finish(p, on_delta, &g);
    chatparse_free(p);
    got_free(&g);
}

static void test_hold(void) {
    hold_case(CHAT_FORMAT_HERMES, (const char *const[]){"Brush with a <too", "thbrush", " daily.", NULL},
              (const char *const[]){"Brush with a", "Brush with a <toothbrush", "Brush with a <toothbrush daily.", NULL});
    hold_case(CHAT_FORMAT_HERMES, (const char *const[]){"x <", " y", NULL}, (const char *const[]){"x", "x < y", NULL});
    hold_case(CHAT_FORMAT_HERMES, (const char *const[]){"a <b>bold</b> claim", NULL}, (const char *const[]){"a <b>bold</b> claim", NULL});
    hold_case(CHAT_FORMAT_DEEPSEEK, (const char *const[]){"Look: <｜tool", "▁calls▁begin｜>", NULL},
              (const char *const[]){"Look:", "Look:", NULL});
    hold_case(CHAT_FORMAT_MISTRAL, (const char *const[]){"Done [TOOL", "S] ok", NULL}, (const char *const[]){"Done", "Done [TOOLS] ok", NULL});
    hold_case(CHAT_FORMAT_GPT_OSS, (const char *const[]){"<|channel|>final<|message|>Hi <|", "en", "d|>", NULL},
              (const char *const[]){"Hi ", "Hi ", "Hi ", NULL});
    // At the end, what is held comes out as text, warning-free.
    {
        struct chatparse *p;
        chatparse_create(CHAT_FORMAT_HERMES, NULL, &p);
        struct got g = {0};
        chatparse_feed(p, "Hi <tool_c", 10, on_delta, &g);
        CHECK(!strcmp(str_c(&g.content), "Hi"), "held before finish: [%s]", str_c(&g.content));
        g.finishing = true;
        chatparse_finish(p, on_delta, &g);
        CHECK(!strcmp(str_c(&g.content), "Hi <tool_c") && !g.warnings && g.during_finish == 1, "flushed at finish: [%s]",
              str_c(&g.content));
        chatparse_free(p);
        got_free(&g);
    }
}

static void test_streaming(void) {
    // The name is sent as soon as its string closes; arguments stream as they arrive.
    const char *in = "<tool_call>\n{\"name\": \"write\", \"arguments\": {\"text\": \"a long text";
    struct chatparse *p;
    chatparse_create(CHAT_FORMAT_HERMES, NULL, &p);
    struct got g = {0};
    chatparse_feed(p, in, strlen(in), on_delta, &g);
    CHECK(g.n == 1 && !strcmp(g.calls[0].name, "write"), "name announced early (%d calls)", g.n);
    CHECK(g.n == 1 && !strcmp(str_c(&g.calls[0].args), "{\"text\": \"a long text"), "arguments streamed: [%s]",
          g.n ? str_c(&g.calls[0].args) : "");
    chatparse_feed(p, "\"}}\n</tool_call>", 16, on_delta, &g);
    CHECK(g.n == 1 && g.calls[0].ended, "call ended");
    chatparse_finish(p, on_delta, &g);
    chatparse_free(p);
    got_free(&g);

    // Qwen3-Coder: a string value streams at once, a possible JSON value waits for its end.
    chatparse_create(CHAT_FORMAT_QWEN3_CODER, NULL, &p);
    in = "<tool_call>\n<function=f>\n<parameter=s>\nhello wor";
    chatparse_feed(p, in, strlen(in), on_delta, &g);
    CHECK(g.n == 1 && !strcmp(str_c(&g.calls[0].args), "{\"s\": \"hello wor"), "string value streamed: [%s]",
          g.n ? str_c(&g.calls[0].args) : "");
    in = "ld\n</parameter>\n<parameter=n>\n12";
    chatparse_feed(p, in, strlen(in), on_delta, &g);
    CHECK(g.n == 1 && !strcmp(str_c(&g.calls[0].args), "{\"s\": \"hello world\", \"n\": "), "number held: [%s]",
          g.n ? str_c(&g.calls[0].args) : "");
    chatparse_finish(p, on_delta, &g);
    CHECK(g.warnings == 1 && g.n == 1 && g.calls[0].voided, "truncated call voided");
    chatparse_free(p);
    got_free(&g);

    // Whole calls: a broken call never announces; warnings name no call.
    struct chatparse_params pp = {CHATPARSE_WHOLE_CALLS, 0};
    chatparse_create(CHAT_FORMAT_HERMES, &pp, &p);
    in = "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": 1";
    chatparse_feed(p, in, strlen(in), on_delta, &g);
    CHECK(g.n == 0 && g.deltas == 0, "nothing before the call completes");
    chatparse_finish(p, on_delta, &g);
    CHECK(g.n == 0 && g.warnings == 1 && !strcmp(str_c(&g.content), in), "broken call as content only");
    chatparse_free(p);
    got_free(&g);
}

static void test_ids_and_reuse(void) {
    const char *in = "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call>";
    struct chatparse_params a = {0, 1234}, b = {0, 1235};
    struct chatparse *p, *q, *r;
    chatparse_create(CHAT_FORMAT_HERMES, &a, &p);
    chatparse_create(CHAT_FORMAT_HERMES, &a, &q);
    chatparse_create(CHAT_FORMAT_HERMES, &b, &r);
    struct got g1 = {0}, g2 = {0}, g3 = {0}, g4 = {0};
    chatparse_feed(p, in, strlen(in), on_delta, &g1);
    chatparse_finish(p, on_delta, &g1);
    chatparse_feed(q, in, strlen(in), on_delta, &g2);
    chatparse_finish(q, on_delta, &g2);
    chatparse_feed(r, in, strlen(in), on_delta, &g3);
    chatparse_finish(r, on_delta, &g3);
    CHECK(g1.n == 1 && g2.n == 1 && g3.n == 1, "one call each");
    CHECK(!strcmp(g1.calls[0].id, g2.calls[0].id), "same seed, same id");
    CHECK(strcmp(g1.calls[0].id, g3.calls[0].id), "other seed, other id");
    CHECK(good_generated_id(CHAT_FORMAT_HERMES, g1.calls[0].id), "id shape %s", g1.calls[0].id);
    // The next message on p: indices restart, ids go on.
    chatparse_feed(p, in, strlen(in), on_delta, &g4);
    chatparse_feed(p, "tail", 4, on_delta, &g4);
    chatparse_finish(p, on_delta, &g4);
    CHECK(g4.n == 1 && !g4.bad && strcmp(g4.calls[0].id, g1.calls[0].id), "second message: index 0, new id");
    CHECK(!strcmp(str_c(&g4.content), "tail"), "second message content [%s]", str_c(&g4.content));
    CHECK(chatparse_warnings(p) == 0, "no warnings");
    chatparse_free(p);
    chatparse_free(q);
    chatparse_free(r);
    got_free(&g1), got_free(&g2), got_free(&g3), got_free(&g4);

    CHECK(chatparse_create(CHAT_FORMAT_COUNT, NULL, &p) == FRINK_ERR_ARG && !p, "bad format refused");
    chatparse_free(NULL);
}

static void test_limits(void) {
    // Nesting past the checker's depth is broken JSON, given back whole.
    struct str in = {0};
    str_put(&in, "<tool_call>\n{\"name\": \"f\", \"arguments\": ", 39);
    for (int i = 0; i < 600; i++) str_put(&in, "[", 1);
    for (int i = 0; i < 600; i++) str_put(&in, "]", 1);
    str_put(&in, "}\n</tool_call>", 14);
    struct got g = {0};
    parse(CHAT_FORMAT_HERMES, 0, 0, in.p, in.n, 0, 0, &g);
    CHECK(g.warnings == 1 && !strcmp(str_c(&g.content), in.p), "600 levels refused as content");
    got_free(&g);
    free(in.p);

    // 500 levels of objects are fine.
    memset(&in, 0, sizeof in);
    str_put(&in, "<tool_call>\n{\"name\": \"f\", \"arguments\": ", 39);
    for (int i = 0; i < 500; i++) str_put(&in, "{\"a\":", 5);
    str_put(&in, "1", 1);
    for (int i = 0; i < 500; i++) str_put(&in, "}", 1);
    str_put(&in, "}\n</tool_call>", 14);
    parse(CHAT_FORMAT_HERMES, 0, 0, in.p, in.n, 1, 0, &g);
    CHECK(g.warnings == 0 && g.n == 1 && g.calls[0].ended, "500 levels accepted");
    got_free(&g);
    free(in.p);

    // Invalid UTF-8 and lone surrogates inside the arguments are broken JSON.
    static const char *const bad_args[] = {
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"\xC3\x28\"}}</tool_call>",
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"\\ud800\"}}</tool_call>",
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"\\udc00\\ud800\"}}</tool_call>",
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": 01}}</tool_call>",
        "<tool_call>{\"name\": \"f\", \"arguments\": {\"a\": \"tab\there\"}}</tool_call>",
        "<tool_call>{\"name\": \"\", \"arguments\": {}}</tool_call>",
        "<tool_call>{\"name\": \"a\\u0000b\", \"arguments\": {}}</tool_call>",
    };
    for (size_t i = 0; i < sizeof bad_args / sizeof bad_args[0]; i++) {
        parse(CHAT_FORMAT_HERMES, 0, 0, bad_args[i], strlen(bad_args[i]), 1, 0, &g);
        const struct got_call *c[MAX_CALLS];
        CHECK(g.warnings == 1 && done_calls(&g, c) == 0 && !strcmp(str_c(&g.content), bad_args[i]), "bad arguments %zu", i);
        got_free(&g);
    }
}

// ---- split invariance on generated outputs ------------------------------------------------------

static const char *const frags[] = {
    "<think>", "</think>", "<tool_call>", "</tool_call>", "\n", " ", "{", "}", "[", "]", ",", ":", "\"", "\\", "\"name\": \"f\"",
    "\"arguments\": ", "\"parameters\": ", "{\"a\": 1}", "\"x\"", "42", "true", "<function=g>", "<parameter=p>", "</parameter>",
    "</function>", "<arg_key>k</arg_key>", "<arg_value>v</arg_value>", "[TOOL_CALLS]", "f[ARGS]", "[CALL_ID]abcdefghi",
    "[THINK]", "[/THINK]", "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "function<｜tool▁sep｜>", "h\n```json\n", "```",
    "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", "<|channel|>", "analysis", "final", "commentary to=functions.k",
    " <|constrain|>json", "<|message|>", "<|end|>", "<|start|>assistant", "<|call|>", "<|return|>",
    "<|tool_calls_section_begin|>", "<|tool_call_begin|>functions.m:0", "<|tool_call_argument_begin|>", "<|tool_call_end|>",
    "<|tool_calls_section_end|>", "<|python_tag|>", "brave.call(q=\"v\")", "<|START_ACTION|>", "<|END_ACTION|>",
    "<|START_THINKING|>", "<|END_THINKING|>", "<|tool_call|>", "<response>", ">>>", "all\n", "<tool_calls>", "</tool_calls>",
    "[BEGIN FINAL RESPONSE]", "text", "é", "😀", "<", "<too", "x < y", "True", "-1.5e3", "null", "\\u00e9", "\t",
    "<minimax:tool_call>", "</minimax:tool_call>", "<invoke name=\"f\">", "</invoke>", "<parameter name=\"p\">",
    "<seed:think>", "</seed:think>", "<seed:tool_call>", "</seed:tool_call>", "<｜DSML｜function_calls>",
    "</｜DSML｜function_calls>", "<｜DSML｜tool_calls>", "</｜DSML｜tool_calls>", "<｜DSML｜invoke name=\"f\">", "</｜DSML｜invoke>",
    "<｜DSML｜parameter name=\"p\" string=\"true\">", "<｜DSML｜parameter name=\"q\" string=\"false\">", "</｜DSML｜parameter>",
    "<|channel>thought", "<channel|>", "<|tool_call>call:f{", "<tool_call|>", "<|\"|>", "k:", "None", "<mm:think>",
    "</mm:think>", "]<]minimax[>[<tool_call>", "]<]minimax[>[<invoke name=\"f\">", "]<]minimax[>[<item>", "]<]minimax[>[<k>",
    "]<]minimax[>[</k>", "]<]minimax[>[</invoke>", "]<]minimax[>[</tool_call>",
};

// Whether s is a subsequence of t.
static bool subsequence(const char *s, size_t sn, const char *t, size_t tn) {
    size_t i = 0;
    for (size_t j = 0; j < tn && i < sn; j++)
        if (s[i] == t[j]) i++;
    return i == sn;
}

static void test_split_invariance(void) {
    uint64_t r = 0x9E3779B97F4A7C15ull;
    int bad_cases = 0;
    for (int iter = 0; iter < 6000; iter++) {
        struct str in = {0};
        int nf = 1 + (int)(rng_next(&r) % 24);
        for (int i = 0; i < nf; i++) {
            const char *fr = frags[rng_next(&r) % (sizeof frags / sizeof frags[0])];
            str_put(&in, fr, strlen(fr));
        }
        enum chat_format f = (enum chat_format)(iter % CHAT_FORMAT_COUNT);
        unsigned flags = (iter / CHAT_FORMAT_COUNT) % 3 == 1 ? CHATPARSE_STARTS_IN_REASONING : 0;
        struct got whole = {0};
        parse(f, flags, 9, in.p, in.n, 0, 0, &whole);
        bool ok = !whole.bad;
        const struct got_call *c[MAX_CALLS];
        int n = done_calls(&whole, c);
        for (int i = 0; i < n; i++) ok = ok && is_json_object(c[i]->args.p, c[i]->args.n);
        ok = ok && subsequence(whole.content.p, whole.content.n, in.p, in.n) &&
             subsequence(whole.reasoning.p, whole.reasoning.n, in.p, in.n);
        if (f == CHAT_FORMAT_NONE) ok = ok && whole.content.n == in.n && !memcmp(whole.content.p, in.p, in.n);
        for (int mode = 1; mode < 4 && ok; mode++) {
            struct got g = {0};
            parse(f, flags, 9, in.p, in.n, mode, (uint64_t)iter, &g);
            ok = !g.bad && same_result(&whole, &g, true);
            got_free(&g);
        }
        struct got w = {0};
        parse(f, flags | CHATPARSE_WHOLE_CALLS, 9, in.p, in.n, 1, 5, &w);
        ok = ok && !w.bad && same_result(&whole, &w, !whole.warnings);
        got_free(&w);
        if (!ok && bad_cases++ < 5) fprintf(stderr, "split invariance: format %s, input [%s]\n", chat_format_name(f), in.p);
        got_free(&whole);
        free(in.p);
    }
    CHECK(bad_cases == 0, "%d generated outputs differ between splits", bad_cases);
}

// The recordings again, mutated: cut short, a span dropped or doubled, a fragment inserted —
// the near-misses real outputs are made of.
static void test_mutations(void) {
    uint64_t r = 12345;
    int bad_cases = 0, cases = 0;
    for (size_t k = 0; k < sizeof recs / sizeof recs[0]; k++) {
        const struct rec *rc = &recs[k];
        size_t n = strlen(rc->in);
        for (int m = 0; m < 40; m++, cases++) {
            struct str in = {0};
            size_t a = rng_next(&r) % (n + 1), b = a + rng_next(&r) % (n - a + 1);
            switch (m % 4) {
            case 0: str_put(&in, rc->in, a); break; // truncated
            case 1: str_put(&in, rc->in, a), str_put(&in, rc->in + b, n - b); break; // a span dropped
            case 2: str_put(&in, rc->in, b), str_put(&in, rc->in + a, n - a); break; // a span doubled
            default: {
                const char *fr = frags[rng_next(&r) % (sizeof frags / sizeof frags[0])];
                str_put(&in, rc->in, a), str_put(&in, fr, strlen(fr)), str_put(&in, rc->in + a, n - a);
            }
            }
            str_put(&in, "", 0);
            struct got whole = {0};
            parse(rc->f, rc->flags, 3, in.p, in.n, 0, 0, &whole);
            const struct got_call *c[MAX_CALLS];
            int nc = done_calls(&whole, c);
            bool ok = !whole.bad && subsequence(whole.content.p, whole.content.n, in.p, in.n);
            for (int i = 0; i < nc; i++) ok = ok && is_json_object(c[i]->args.p, c[i]->args.n);
            for (int mode = 1; mode < 4 && ok; mode++) {
                struct got g = {0};
                parse(rc->f, rc->flags, 3, in.p, in.n, mode, (uint64_t)m, &g);
                ok = !g.bad && same_result(&whole, &g, true);
                got_free(&g);
            }
            if (!ok && bad_cases++ < 5) fprintf(stderr, "mutation of %s differs: [%s]\n", rc->what, in.p);
            got_free(&whole);
            free(in.p);
        }
    }
    CHECK(bad_cases == 0, "%d of %d mutated recordings differ between splits", bad_cases, cases);
}

int main(void) {
    test_recordings();
    test_goldens();
    test_detect();
    test_hold();
    test_streaming();
    test_ids_and_reuse();
    test_limits();
    test_split_invariance();
    test_mutations();
    return TEST_DONE();
}
