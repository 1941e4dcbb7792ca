// chatparse.c — the incremental reader of a chat model's output: the format table, the text
// scanner that holds back possible tags, the call bookkeeping and the driver. The markup
// machines of each format are in chatparse_fmt.c, the JSON pieces in chatparse_json.c.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chat/chatparse_impl.h"

// ---- the format table ---------------------------------------------------------------------
//
// A format is the triggers its text is scanned for and the markup machine they start. A
// trigger applies in content, in reasoning or both; W_START ones only before anything else
// was decided in the message (a reasoning block opens the message), W_FRESH ones only when
// nothing but whitespace came since the last markup (Llama 3's bare JSON call is the whole
// message, or follows another call).

enum { A_THINK, A_UNTHINK, A_DROP, A_CALL, A_PEEK, A_HEND };
#define W_CONTENT 1u
#define W_REASON 2u
#define W_START 4u
#define W_FRESH 8u
#define W_ANY (W_CONTENT | W_REASON)

struct trig {
    const char *s;
    uint8_t act, arg, when;
};

struct cp_fmt {
    const char *name;
    int (*call)(struct chatparse *p); // the markup machine
    struct trig trig[8];              // ends at s == NULL
    const char *think_open;           // what opens the reasoning (STARTS_IN_REASONING, prompts)
    const struct cp_jkeys *keys;      // the JSON object of a call
    const char *close;                // the tag that ends the calls: after a JSON array, a
                                      //   <tool_call> (Qwen3-Coder, Seed-OSS), an invoke section
    uint8_t id_len;                   // generated ids: 24 ("call_" + 24) or 9 (Mistral)
    bool exact;                       // keep whitespace around markup
    bool pyrepr;                      // XML-style values may be Python's str() of a list / dict
    int8_t init_sub;                  // >= 0: a message starts in the machine, in this state
};

// A reasoning block: its tags, and the opening tag once more at its very start (dropped: the
// prompt may have opened the block and the model writes the tag anyway).
#define THINK(o, c) {o, A_THINK, 0, W_CONTENT | W_START}, {c, A_UNTHINK, 0, W_REASON}, {o, A_DROP, 0, W_REASON | W_START}

static const struct cp_jkeys keys_hermes = {{"name"}, {"arguments", "parameters"}, {NULL}, {NULL}, false};
static const struct cp_jkeys keys_llama = {{"name"}, {"parameters", "arguments"}, {NULL}, {"type"}, false};
static const struct cp_jkeys keys_mistral = {{"name"}, {"arguments"}, {"id"}, {NULL}, true};
// Command R7B numbers its calls "0", "1", ... per message (its template maps ids to those
// numbers itself): not ids, so they are generated.
static const struct cp_jkeys keys_command_r = {{"tool_name"}, {"parameters"}, {NULL}, {"tool_call_id"}, false};
static const struct cp_jkeys keys_granite = {{"name"}, {"arguments"}, {NULL}, {NULL}, false};
static const struct cp_jkeys keys_apriel = {{"name"}, {"arguments"}, {"id"}, {NULL}, true};

#define DS_CALLS "<｜tool▁calls▁begin｜>"
#define DS_CALL "<｜tool▁call▁begin｜>"
#define DSML_CALLS_V32 "<｜DSML｜function_calls>"
#define DSML_CALLS_V4 "<｜DSML｜tool_calls>"

// Every trigger that is a special token of its family's vocabulary also ends an open reasoning
// block (a model that goes from thinking straight to a call, as llama.cpp allows too).
static const struct cp_fmt formats[CHAT_FORMAT_COUNT] = {
    [CHAT_FORMAT_NONE] = {.name = "none", .id_len = 24, .init_sub = -1},
    [CHAT_FORMAT_THINK] = {.name = "think", .trig = {THINK("<think>", "</think>")}, .think_open = "<think>",
                           .id_len = 24, .init_sub = -1},
    [CHAT_FORMAT_HERMES] = {.name = "hermes",
                            .call = cp_fmt_hermes,
                            .trig = {THINK("<think>", "</think>"), {"<tool_call>", A_CALL, 0, W_ANY}},
                            .think_open = "<think>",
                            .keys = &keys_hermes,
                            .id_len = 24,
                            .init_sub = -1},
    [CHAT_FORMAT_QWEN3_CODER] = {.name = "qwen3-coder",
                                 .call = cp_fmt_qwen_xml,
                                 .trig = {THINK("<think>", "</think>"), {"<tool_call>", A_CALL, 0, W_ANY},
                                          {"<function=", A_CALL, 1, W_CONTENT}},
                                 .think_open = "<think>",
                                 .close = "</tool_call>",
                                 .id_len = 24,
                                 .init_sub = -1},
    [CHAT_FORMAT_LLAMA3] = {.name = "llama3",
                            .call = cp_fmt_llama,
                            .trig = {{"{", A_CALL, 0, W_CONTENT | W_FRESH}, {"<|python_tag|>", A_CALL, 1, W_CONTENT}},
                            .keys = &keys_llama,
                            .id_len = 24,
                            .init_sub = -1},
    [CHAT_FORMAT_MISTRAL] = {.name = "mistral",
                             .call = cp_fmt_mistral,
                             .trig = {THINK("[THINK]", "[/THINK]"), {"[TOOL_CALLS]", A_CALL, 0, W_ANY}},
                             .think_open = "[THINK]",
                             .keys = &keys_mistral,
                             .id_len = 9,
                             .init_sub = -1},
    [CHAT_FORMAT_DEEPSEEK] = {.name = "deepseek",
                              .call = cp_fmt_deepseek,
                              .trig = {THINK("<think>", "</think>"), {DS_CALLS, A_CALL, 0, W_ANY}, {DS_CALL, A_CALL, 1, W_ANY}},
                              .think_open = "<think>",
                              .id_len = 24,
                              .init_sub = -1},
    [CHAT_FORMAT_GPT_OSS] = {.name = "gpt-oss",
                             .call = cp_fmt_harmony,
                             .trig = {{"<|end|>", A_HEND, 0, W_ANY},
                                      {"<|return|>", A_HEND, 0, W_ANY},
                                      {"<|call|>", A_HEND, 0, W_ANY},
                                      {"<|start|>", A_PEEK, HARMONY_HEAD, W_ANY},
                                      {"<|channel|>", A_PEEK, HARMONY_HEAD, W_ANY}},
                             .think_open = "<|channel|>analysis<|message|>",
                             .id_len = 24,
                             .exact = true,
                             .init_sub = HARMONY_HEAD},
    [CHAT_FORMAT_GLM] = {.name = "glm",
                         .call = cp_fmt_glm,
                         .trig = {THINK("<think>", "</think>"), {"<tool_call>", A_CALL, 0, W_ANY}},
                         .think_open = "<think>",
                         .id_len = 24,
                         .init_sub = -1},
    [CHAT_FORMAT_KIMI_K2] = {.name = "kimi-k2",
                             .call = cp_fmt_kimi,
                             .trig = {THINK("<think>", "</think>"), {"<|tool_calls_section_begin|>", A_CALL, 0, W_ANY},
                                      {"<|tool_call_begin|>", A_CALL, 1, W_ANY}},
                             .think_open = "<think>",
                             .id_len = 24,
                             .init_sub = -1},
    [CHAT_FORMAT_COMMAND_R7B] = {.name = "command-r7b",
                                 .call = cp_fmt_json_array,
                                 .trig = {THINK("<|START_THINKING|>", "<|END_THINKING|>"),
                                          {"<|START_ACTION|>", A_CALL, 0, W_ANY},
                                          {"<|START_RESPONSE|>", A_DROP, 0, W_CONTENT},
                                          {"<|END_RESPONSE|>", A_DROP, 0, W_CONTENT}},
                                 .think_open = "<|START_THINKING|>",
                                 .keys = &keys_command_r,
                                 .close = "<|END_ACTION|>",
                                 .id_len = 24,
                                 .init_sub = -1},
    [CHAT_FORMAT_GRANITE] = {.name = "granite",
                             .call = cp_fmt_json_array,
                             .trig = {THINK("<think>", "</think>"), {"<|tool_call|>", A_CALL, 0, W_ANY},
                                      {"<response>", A_DROP, 0, W_CONTENT}, {"</response>", A_DROP, 0, W_CONTENT}},
                             .think_open = "<think>",
                             .keys = &keys_granite,
                             .id_len = 24,
                             .init_sub = -1},
    [CHAT_FORMAT_FUNCTIONARY_V31] = {.name = "functionary-v3.1",
                                     .call = cp_fmt_functionary31,
                                     .trig = {{"<function=", A_CALL, 0, W_CONTENT}, {"<|python_tag|>", A_CALL, 1, W_CONTENT}},
                                     .keys = &keys_llama,
                                     .id_len = 24,
                                     .init_sub = -1},
    [CHAT_FORMAT_FUNCTIONARY_V32] = {.name = "functionary-v3.2",
                                     .call = cp_fmt_functionary32,
                                     .trig = {{">>>", A_CALL, FUNC32_RECIPIENT, W_CONTENT}},
                                     .id_len = 24,
                                     .init_sub = FUNC32_RECIPIENT},
    [CHAT_FORMAT_APRIEL] = {.name = "apriel",
                            .call = cp_fmt_json_array,
                            .trig = {{"Here are my reasoning steps:", A_THINK, 0, W_CONTENT | W_START},
                                     {"[BEGIN FINAL RESPONSE]", A_UNTHINK, 0, W_REASON},
                                     {"[BEGIN FINAL RESPONSE]", A_DROP, 0, W_CONTENT},
                                     {"[END FINAL RESPONSE]", A_DROP, 0, W_CONTENT},
                                     {"<tool_calls>", A_CALL, 0, W_ANY}},
                            .think_open = "Here are my reasoning steps:",
                            .keys = &keys_apriel,
                            .close = "</tool_calls>",
                            .id_len = 24,
                            .init_sub = -1},
    [CHAT_FORMAT_MINIMAX_M2] = {.name = "minimax-m2",
                                .call = cp_fmt_invoke,
                                .trig = {THINK("<think>", "</think>"), {"<minimax:tool_call>", A_CALL, 0, W_ANY}},
                                .think_open = "<think>",
                                .close = "</minimax:tool_call>",
                                .id_len = 24,
                                .init_sub = -1},
    [CHAT_FORMAT_SEED_OSS] = {.name = "seed-oss",
                              .call = cp_fmt_qwen_xml,
                              .trig = {THINK("<seed:think>", "</seed:think>"), {"<seed:tool_call>", A_CALL, 0, W_ANY}},
                              .think_open = "<seed:think>",
                              .close = "</seed:tool_call>",
                              .id_len = 24,
                              .pyrepr = true,
                              .init_sub = -1},
    // The two DeepSeek DSML versions differ in the section's tag only.
    [CHAT_FORMAT_DEEPSEEK_V32] = {.name = "deepseek-v3.2",
                                  .call = cp_fmt_invoke,
                                  .trig = {THINK("<think>", "</think>"), {DSML_CALLS_V32, A_CALL, 0, W_ANY}},
                                  .think_open = "<think>",
                                  .close = "</｜DSML｜function_calls>",
                                  .id_len = 24,
                                  .init_sub = -1},
    [CHAT_FORMAT_DEEPSEEK_V4] = {.name = "deepseek-v4",
                                 .call = cp_fmt_invoke,
                                 .trig = {THINK("<think>", "</think>"), {DSML_CALLS_V4, A_CALL, 0, W_ANY}},
                                 .think_open = "<think>",
                                 .close = "</｜DSML｜tool_calls>",
                                 .id_len = 24,
                                 .init_sub = -1},
    // MiniMax-M3 without reasoning writes the closing tag alone first (its template's prefix when
    // thinking is off): dropped there.
    [CHAT_FORMAT_MINIMAX_M3] = {.name = "minimax-m3",
                                .call = cp_fmt_minimax_m3,
                                .trig = {THINK("<mm:think>", "</mm:think>"), {"</mm:think>", A_DROP, 0, W_CONTENT | W_START},
                                         {"]<]minimax[>[<tool_call>", A_CALL, 0, W_ANY}},
                                .think_open = "<mm:think>",
                                .id_len = 24,
                                .init_sub = -1},
    // Gemma 4 names its channel after the opening tag: "thought" is the tag's, not the text's.
    [CHAT_FORMAT_GEMMA4] = {.name = "gemma4",
                            .call = cp_fmt_gemma4,
                            .trig = {THINK("<|channel>thought", "<channel|>"), {"<|tool_call>", A_CALL, 0, W_ANY}},
                            .think_open = "<|channel>thought",
                            .id_len = 24,
                            .init_sub = -1},
};

const char *chat_format_name(enum chat_format f) {
    return (unsigned)f < CHAT_FORMAT_COUNT ? formats[f].name : NULL;
}

enum chat_format chat_format_from_name(const char *name) {
    for (int f = 0; name && f < CHAT_FORMAT_COUNT; f++)
        if (!strcmp(formats[f].name, name)) return (enum chat_format)f;
    return CHAT_FORMAT_COUNT;
}

const struct cp_jkeys *cp_fmt_keys(const struct chatparse *p) { return p->fmt->keys; }
const char *cp_fmt_close(const struct chatparse *p) { return p->fmt->close; }
bool cp_fmt_pyrepr(const struct chatparse *p) { return p->fmt->pyrepr; }

// Detection: the first rule whose markers all occur in the template. Most specific first: a
// Qwen3-Coder template also contains <tool_call>, a Hermes 3 one <|start_header_id|>.
static const struct {
    const char *all[3];
    enum chat_format f;
} detect_rules[] = {
    {{"<|channel|>"}, CHAT_FORMAT_GPT_OSS},
    {{"｜DSML｜", "function_calls"}, CHAT_FORMAT_DEEPSEEK_V32},
    {{"｜DSML｜", "tool_calls"}, CHAT_FORMAT_DEEPSEEK_V4},
    {{"tool▁call▁begin"}, CHAT_FORMAT_DEEPSEEK},
    {{"<minimax:tool_call>"}, CHAT_FORMAT_MINIMAX_M2},
    {{"]<]minimax[>["}, CHAT_FORMAT_MINIMAX_M3},
    {{"<seed:tool_call>"}, CHAT_FORMAT_SEED_OSS},
    {{"<|tool_call>call:"}, CHAT_FORMAT_GEMMA4},
    {{"<|tool_calls_section_begin|>"}, CHAT_FORMAT_KIMI_K2},
    {{"<arg_key>"}, CHAT_FORMAT_GLM},
    {{"<tool_call>", "<function=", "<parameter="}, CHAT_FORMAT_QWEN3_CODER},
    {{"<function=", "<|start_header_id|>"}, CHAT_FORMAT_FUNCTIONARY_V31},
    {{">>>all"}, CHAT_FORMAT_FUNCTIONARY_V32},
    {{"[TOOL_CALLS]"}, CHAT_FORMAT_MISTRAL},
    {{"<|START_ACTION|>"}, CHAT_FORMAT_COMMAND_R7B},
    {{"<|tool_call|>"}, CHAT_FORMAT_GRANITE},
    {{"<tool_calls>"}, CHAT_FORMAT_APRIEL},
    {{"<tool_call>"}, CHAT_FORMAT_HERMES},
    {{"<|python_tag|>"}, CHAT_FORMAT_LLAMA3},
    {{"<|start_header_id|>", "\"parameters\""}, CHAT_FORMAT_LLAMA3},
    {{"[THINK]"}, CHAT_FORMAT_MISTRAL},
    {{"<think>"}, CHAT_FORMAT_THINK},
};

enum chat_format chat_format_detect(const char *src) {
    if (!src) return CHAT_FORMAT_NONE;
    for (size_t r = 0; r < sizeof detect_rules / sizeof detect_rules[0]; r++) {
        bool all = true;
        for (int k = 0; k < 3 && detect_rules[r].all[k]; k++) all = all && strstr(src, detect_rules[r].all[k]);
        if (all) return detect_rules[r].f;
    }
    return CHAT_FORMAT_NONE;
}

bool chat_prompt_opens_reasoning(enum chat_format f, const char *prompt, size_t len) {
    if ((unsigned)f >= CHAT_FORMAT_COUNT || !formats[f].think_open || !prompt) return false;
    while (len && cp_is_ws((unsigned char)prompt[len - 1])) len--;
    size_t t = strlen(formats[f].think_open);
    return len >= t && !memcmp(prompt + len - t, formats[f].think_open, t);
}

// ---- buffers and emission -----------------------------------------------------------------

void cp_sb_put(struct chatparse *p, struct cp_sbuf *b, const void *s, size_t n) {
    if (p->oom || !n) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            p->oom = true;
            return;
        }
        b->p = q, b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void cp_sb_puts(struct chatparse *p, struct cp_sbuf *b, const char *s) { cp_sb_put(p, b, s, strlen(s)); }

void cp_sb_clear(struct cp_sbuf *b) {
    b->n = 0;
    if (b->p) b->p[0] = 0;
}

void cp_sb_free(struct cp_sbuf *b) {
    free(b->p);
    *b = (struct cp_sbuf){0};
}

bool cp_is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static void emit(struct chatparse *p, enum chat_delta_kind k, const char *s, size_t n, bool tool) {
    if (p->oom) return;
    struct chat_delta d = {k, s, n, -1, NULL, NULL};
    if (tool) d.index = p->call.index, d.id = p->call.id.p, d.name = p->call.name.p;
    if (p->emit) p->emit(p->ud, &d);
}

void cp_emit_text(struct chatparse *p, int tk, const char *s, size_t n) {
    if (n) emit(p, tk == TK_REASONING ? CHAT_DELTA_REASONING : CHAT_DELTA_CONTENT, s, n, false);
}

// Sends the WARNING whose message is in p->warn.
static void warn(struct chatparse *p, int index) {
    p->n_warn++;
    struct chat_delta d = {CHAT_DELTA_WARNING, p->warn, strlen(p->warn), index, NULL, NULL};
    if (!p->oom && p->emit) p->emit(p->ud, &d);
}

// ---- the text scanner ---------------------------------------------------------------------

// Emits in[a, b) as text of the current kind: whitespace after markup skipped, trailing
// whitespace held in `pending` until something else follows (it is dropped if markup does).
static void text_out(struct chatparse *p, size_t a, size_t b) {
    const char *s = p->in.p + a;
    size_t n = b - a;
    p->pos = b;
    if (p->fmt->exact) {
        for (size_t i = 0; i < n; i++)
            if (!cp_is_ws((unsigned char)s[i])) p->start = p->fresh = false;
        cp_emit_text(p, p->tk, s, n);
        return;
    }
    if (p->skip_ws) {
        while (n && cp_is_ws((unsigned char)*s)) s++, n--;
        if (!n) return;
        p->skip_ws = false;
    }
    size_t t = n;
    while (t && cp_is_ws((unsigned char)s[t - 1])) t--;
    if (!t) {
        cp_sb_put(p, &p->pending, s, n);
        return;
    }
    if (p->pending.n) {
        cp_sb_clear(&p->out);
        cp_sb_put(p, &p->out, p->pending.p, p->pending.n);
        cp_sb_put(p, &p->out, s, t);
        cp_emit_text(p, p->tk, p->out.p, p->out.n);
    } else {
        cp_emit_text(p, p->tk, s, t);
    }
    cp_sb_clear(&p->pending);
    cp_sb_put(p, &p->pending, s + t, n - t);
    p->start = p->fresh = false;
}

static void fire(struct chatparse *p, const struct trig *t) {
    size_t tl = strlen(t->s);
    p->start = false;
    switch (t->act) {
    case A_THINK:
    case A_UNTHINK:
    case A_DROP:
        cp_sb_clear(&p->pending);
        p->pos += tl;
        p->skip_ws = !p->fmt->exact;
        if (t->act != A_DROP) p->tk = t->act == A_THINK ? TK_REASONING : TK_CONTENT, p->fresh = true;
        return;
    case A_CALL:
    case A_PEEK:
        // The whitespace before the markup is the markup's: given back with it if it breaks.
        cp_sb_clear(&p->raw);
        cp_sb_put(p, &p->raw, p->pending.p, p->pending.n);
        cp_sb_clear(&p->pending);
        if (t->act == A_CALL) cp_take(p, tl, NULL);
        break;
    case A_HEND:
        cp_sb_clear(&p->pending);
        cp_sb_clear(&p->raw);
        p->pos += tl;
        break;
    }
    p->st = ST_CALL;
    p->sub = t->act == A_CALL ? 0 : t->arg;
    p->opener = t->arg;
    p->tk = TK_CONTENT;
    p->section = false;
}

static bool trig_first(const struct chatparse *p, unsigned char c) { return p->trig_first[c >> 3] & (1u << (c & 7)); }

// Scans for the format's triggers: text before the first one is emitted, the trigger fired
// (1). A possible trigger cut by the end of the input holds everything from its first byte
// (0, more input needed); at the end of input nothing is held.
static int text_step(struct chatparse *p) {
    const char *b = p->in.p;
    size_t len = p->in.n;
    unsigned kind = p->tk == TK_REASONING ? W_REASON : W_CONTENT;
    bool nonws = false;
    for (size_t i = p->pos; i < len; i++) {
        unsigned char c = (unsigned char)b[i];
        if (trig_first(p, c)) {
            const struct trig *best = NULL;
            size_t best_len = 0;
            bool partial = false;
            for (const struct trig *t = p->fmt->trig; t->s; t++) {
                if (!(t->when & kind)) continue;
                if ((t->when & W_START) && (!p->start || nonws)) continue;
                if ((t->when & W_FRESH) && (!p->fresh || nonws)) continue;
                size_t tl = strlen(t->s), have = len - i;
                if (have >= tl) {
                    if (!memcmp(b + i, t->s, tl) && tl > best_len) best = t, best_len = tl;
                } else if (!memcmp(b + i, t->s, have)) {
                    partial = true;
                }
            }
            if (partial && !p->eof) {
                text_out(p, p->pos, i);
                return 0;
            }
            if (best) {
                text_out(p, p->pos, i);
                fire(p, best);
                return 1;
            }
        }
        if (!cp_is_ws(c)) nonws = true;
    }
    text_out(p, p->pos, len);
    return 0;
}

// ---- the cursor for markup machines -------------------------------------------------------

size_t cp_avail(const struct chatparse *p) { return p->in.n - p->pos; }
const char *cp_at(const struct chatparse *p) { return p->in.p + p->pos; }

void cp_take(struct chatparse *p, size_t n, struct cp_sbuf *also) {
    cp_sb_put(p, &p->raw, cp_at(p), n);
    if (also) cp_sb_put(p, also, cp_at(p), n);
    p->pos += n;
}

bool cp_ws(struct chatparse *p) {
    size_t n = 0, a = cp_avail(p);
    const char *s = cp_at(p);
    while (n < a && cp_is_ws((unsigned char)s[n])) n++;
    cp_take(p, n, NULL);
    return n < a;
}

int cp_lit(struct chatparse *p, const char *lit) {
    size_t l = strlen(lit), a = cp_avail(p);
    if (a >= l) {
        if (memcmp(cp_at(p), lit, l)) return R_NO;
        cp_take(p, l, NULL);
        return R_OK;
    }
    return memcmp(cp_at(p), lit, a) ? R_NO : R_MORE;
}

int cp_until(struct chatparse *p, const char *const *lits, struct cp_sbuf *dst, size_t cap, int *which) {
    const char *s = cp_at(p);
    size_t a = cp_avail(p);
    for (size_t i = 0; i < a; i++) {
        for (int k = 0; lits[k]; k++) {
            size_t l = strlen(lits[k]), have = a - i;
            if (memcmp(s + i, lits[k], have < l ? have : l)) continue;
            cp_take(p, i, dst);
            if (have < l) return R_MORE;
            cp_take(p, l, NULL);
            *which = k;
            return R_OK;
        }
        // Byte i is text: the (cap + 1)-th is refused, wherever the input was split.
        if (dst->n + i + 1 > cap) {
            cp_take(p, i, dst);
            return R_NO;
        }
    }
    cp_take(p, a, dst);
    return R_MORE;
}

void cp_to_text(struct chatparse *p, int tk) {
    p->st = ST_TEXT;
    p->tk = tk;
    p->skip_ws = !p->fmt->exact;
    p->fresh = true;
    p->section = false;
    cp_sb_clear(&p->raw);
}

// Markup given back: raw as content, then reading goes on as content.
static void give_back(struct chatparse *p) {
    cp_emit_text(p, TK_CONTENT, p->raw.p, p->raw.n);
    cp_sb_clear(&p->raw);
    p->st = ST_TEXT;
    p->tk = TK_CONTENT;
    p->skip_ws = false;
    p->start = p->fresh = false;
    p->section = false;
}

void cp_markup_fail(struct chatparse *p, const char *why) {
    snprintf(p->warn, sizeof p->warn, "tool-call markup: %s; returned as content", why);
    warn(p, -1);
    give_back(p);
}

void cp_post_junk(struct chatparse *p) {
    // Only whitespace or partial closing markup was consumed since the call ended; what
    // follows is read as text, so a stray closing tag comes out as content.
    snprintf(p->warn, sizeof p->warn, "unexpected text after a tool call; read as content");
    warn(p, -1);
    give_back(p);
}

// ---- calls ---------------------------------------------------------------------------------

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void gen_id(struct chatparse *p, struct cp_sbuf *dst) {
    static const char alnum[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    char id[40];
    size_t n = 0;
    if (p->fmt->id_len != 9) memcpy(id, "call_", 5), n = 5;
    for (int k = 0; k < p->fmt->id_len; k++) id[n++] = alnum[splitmix64(&p->rng) % 62];
    cp_sb_clear(dst);
    cp_sb_put(p, dst, id, n);
}

// Whether s[0..n) is 1..max bytes of valid UTF-8 without control characters.
static bool good_text(const char *s, size_t n, size_t max) {
    if (!n || n > max) return false;
    for (size_t i = 0; i < n;) {
        unsigned c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) return false;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t l = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
        if (!l || i + l > n) return false;
        unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80, hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        for (size_t k = 1; k < l; k++, lo = 0x80, hi = 0xBF)
            if ((unsigned char)s[i + k] < lo || (unsigned char)s[i + k] > hi) return false;
        i += l;
    }
    return true;
}

void cp_call_begin(struct chatparse *p) {
    struct cp_call *c = &p->call;
    c->active = true;
    c->announced = c->has_name = c->has_id = c->tentative = c->wait_id = false;
    c->index = -1;
    cp_sb_clear(&c->name);
    cp_sb_clear(&c->id);
    cp_sb_clear(&c->args);
    c->args_sent = 0;
    c->nparams = 0;
}

static void send_args(struct chatparse *p) {
    struct cp_call *c = &p->call;
    if (c->args.n > c->args_sent) emit(p, CHAT_DELTA_TOOL_ARGS, c->args.p + c->args_sent, c->args.n - c->args_sent, true);
    c->args_sent = c->args.n;
}

static void announce(struct chatparse *p) {
    struct cp_call *c = &p->call;
    c->index = p->n_calls++;
    if (!c->has_id) gen_id(p, &c->id);
    c->announced = true;
    emit(p, CHAT_DELTA_TOOL_NAME, NULL, 0, true);
    send_args(p);
}

// Whether a streaming parser has announced the call by now (whole calls wait for the end).
static bool announceable(const struct cp_call *c) {
    return c->has_name && !c->tentative && !(c->wait_id && !c->has_id);
}

void cp_call_try_announce(struct chatparse *p) {
    struct cp_call *c = &p->call;
    if (c->announced || !announceable(c) || (p->flags & CHATPARSE_WHOLE_CALLS)) return;
    announce(p);
}

bool cp_call_set_name(struct chatparse *p, const char *s, size_t n) {
    if (!good_text(s, n, 256)) return false;
    cp_sb_clear(&p->call.name);
    cp_sb_put(p, &p->call.name, s, n);
    p->call.has_name = true;
    cp_call_try_announce(p);
    return true;
}

void cp_call_set_id(struct chatparse *p, const char *s, size_t n) {
    struct cp_call *c = &p->call;
    // An id after the call could be announced comes too late for streaming, so it is not
    // taken with whole calls either: the same ids either way.
    if (c->announced || announceable(c)) return;
    if (good_text(s, n, 64)) {
        cp_sb_clear(&c->id);
        cp_sb_put(p, &c->id, s, n);
        c->has_id = true;
    }
    c->wait_id = false; // an unusable id is not waited for again
    cp_call_try_announce(p);
}

// Arguments go out once per feed (the driver's end) or when the call ends, so a token's
// bytes make one TOOL_ARGS however the machine wrote them.
void cp_call_args_put(struct chatparse *p, const char *s, size_t n) { cp_sb_put(p, &p->call.args, s, n); }

void cp_call_args_puts(struct chatparse *p, const char *s) { cp_call_args_put(p, s, strlen(s)); }

bool cp_call_end(struct chatparse *p) {
    struct cp_call *c = &p->call;
    if (!c->args.n) cp_sb_puts(p, &c->args, "{}");
    if (!cp_json_is_object(c->args.p, c->args.n)) {
        cp_call_fail(p, "its arguments are not a JSON object");
        return false;
    }
    c->tentative = c->wait_id = false;
    if (!c->announced) announce(p);
    send_args(p);
    emit(p, CHAT_DELTA_TOOL_END, c->args.p, c->args.n, true);
    c->active = false;
    cp_sb_clear(&p->raw);
    return true;
}

void cp_call_fail(struct chatparse *p, const char *why) {
    struct cp_call *c = &p->call;
    if (c->announced)
        snprintf(p->warn, sizeof p->warn, "tool call %d: %s; the call is void, its markup returned as content",
                 c->index, why);
    else
        snprintf(p->warn, sizeof p->warn, "tool-call markup: %s; returned as content", why);
    warn(p, c->announced ? c->index : -1);
    c->active = false;
    give_back(p);
}

void cp_call_reject(struct chatparse *p) {
    p->call.active = false;
    give_back(p);
}

// ---- the driver -----------------------------------------------------------------------------

// The input ended inside markup: it comes back as content (a WARNING first) unless it was a
// tentative call (plain text then) or only whitespace after a complete call.
static void call_eof(struct chatparse *p) {
    cp_take(p, cp_avail(p), NULL);
    if (p->call.active) {
        if (p->call.tentative)
            cp_call_reject(p);
        else
            cp_call_fail(p, "the output ends inside it");
        return;
    }
    bool text = false;
    for (size_t i = 0; i < p->raw.n; i++) text = text || !cp_is_ws((unsigned char)p->raw.p[i]);
    if (text)
        cp_markup_fail(p, "the output ends inside it");
    else
        cp_to_text(p, TK_CONTENT);
}

static void start_message(struct chatparse *p) {
    p->st = ST_TEXT;
    p->tk = TK_CONTENT;
    p->skip_ws = false;
    p->start = p->fresh = true;
    p->sub = p->opener = 0;
    p->section = p->fence = p->lines = false;
    p->call.active = false;
    p->n_calls = 0;
    cp_sb_clear(&p->pending);
    cp_sb_clear(&p->raw);
    if ((p->flags & CHATPARSE_STARTS_IN_REASONING) && p->fmt->think_open) {
        p->tk = TK_REASONING;
        p->skip_ws = !p->fmt->exact;
    } else if (p->fmt->init_sub >= 0) {
        p->st = ST_CALL;
        p->sub = p->fmt->init_sub;
    }
}

static void run(struct chatparse *p) {
    while (!p->oom) {
        int r = p->st == ST_TEXT ? text_step(p) : p->fmt->call(p);
        if (r) continue;
        if (!p->eof) break;
        if (p->st == ST_CALL) {
            call_eof(p);
            continue;
        }
        // End of input in text: nothing is held any more.
        cp_emit_text(p, p->tk, p->pending.p, p->pending.n);
        cp_sb_clear(&p->pending);
        break;
    }
    if (p->call.active && p->call.announced) send_args(p);
    // Keep only the unconsumed bytes.
    if (p->pos) {
        memmove(p->in.p, p->in.p + p->pos, p->in.n - p->pos);
        p->in.n -= p->pos;
        p->pos = 0;
    }
}

#define SBUFS(p) &p->in, &p->pending, &p->raw, &p->call.name, &p->call.id, &p->call.args, &p->jo.key, &p->jo.val, \
                 &p->vbuf, &p->tmp, &p->out, &p->m3names

frink_status chatparse_create(enum chat_format f, const struct chatparse_params *params, struct chatparse **out) {
    *out = NULL;
    if ((unsigned)f >= CHAT_FORMAT_COUNT) return frink_fail(FRINK_ERR_ARG, "chat format %d out of range", (int)f);
    struct chatparse *p = calloc(1, sizeof *p);
    if (!p) return frink_fail(FRINK_ERR_NOMEM, "chat parser: out of memory");
    p->f = f;
    p->fmt = &formats[f];
    p->flags = params ? params->flags : 0;
    p->rng = params ? params->id_seed : 0;
    // Every buffer is allocated from the start: its pointer is never NULL.
    struct cp_sbuf *b[] = {SBUFS(p)};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) {
        cp_sb_put(p, b[i], " ", 1);
        cp_sb_clear(b[i]);
    }
    if (p->oom) {
        chatparse_free(p);
        return frink_fail(FRINK_ERR_NOMEM, "chat parser: out of memory");
    }
    for (const struct trig *t = p->fmt->trig; t->s; t++) {
        unsigned char c = (unsigned char)t->s[0];
        p->trig_first[c >> 3] |= (uint8_t)(1u << (c & 7));
    }
    start_message(p);
    *out = p;
    return FRINK_OK;
}

void chatparse_free(struct chatparse *p) {
    if (!p) return;
    struct cp_sbuf *b[] = {SBUFS(p)};
    for (size_t i = 0; i < sizeof b / sizeof b[0]; i++) cp_sb_free(b[i]);
    free(p);
}

static frink_status drive(struct chatparse *p, const char *text, size_t len, bool eof, chat_emit_fn fn, void *ud) {
    if (p->broken) return frink_fail(FRINK_ERR_STATE, "chat parser: unusable after running out of memory");
    p->emit = fn;
    p->ud = ud;
    cp_sb_put(p, &p->in, text, len);
    p->eof = eof;
    run(p);
    p->emit = NULL;
    p->ud = NULL;
    if (p->oom) {
        p->broken = true;
        return frink_fail(FRINK_ERR_NOMEM, "chat parser: out of memory");
    }
    return FRINK_OK;
}

frink_status chatparse_feed(struct chatparse *p, const char *text, size_t len, chat_emit_fn emit, void *ud) {
    if (!len) return p->broken ? drive(p, NULL, 0, false, emit, ud) : FRINK_OK;
    return drive(p, text, len, false, emit, ud);
}

frink_status chatparse_finish(struct chatparse *p, chat_emit_fn emit, void *ud) {
    frink_status st = drive(p, NULL, 0, true, emit, ud);
    if (st) return st;
    p->eof = false;
    cp_sb_clear(&p->in);
    p->pos = 0;
    start_message(p);
    return FRINK_OK;
}

unsigned chatparse_warnings(const struct chatparse *p) { return p->n_warn; }
