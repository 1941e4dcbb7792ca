// fuzz_chatparse.c — libFuzzer target for the chat output parser (src/chat/chatparse.h).
//
// Input: byte 0 picks the format (mod CHAT_FORMAT_COUNT), byte 1 the flags (bit 0: starts in
// reasoning, bit 1: whole calls, bits 2-7: the seed of the split points); the rest is the
// model's text, where each control byte 0x01..0x08, 0x0B, 0x0C, 0x0E..0x1F stands for one of
// the formats' tags (so the fuzzer reaches the markup machines without a dictionary).
//
// The text is parsed four ways — whole, one byte at a time, in pseudo-random pieces, and with
// whole calls — and must give the same content, reasoning, calls (name, arguments; ids too when
// nothing warned) and warnings. Checked besides: the delta protocol (TOOL_NAME numbered in
// order, TOOL_ARGS / TOOL_END only for an open call, TOOL_END equal to the call's TOOL_ARGS, a
// WARNING's index an open call), every completed call's arguments one JSON object, content
// and reasoning each a subsequence of the input (nothing invented), and under "none" the
// content equal to the input. Any failure traps.
//
// Build (the flags of fuzz_gguf):
//   clang -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
//     -Iinclude -Isrc -D_GNU_SOURCE tests/fuzz/fuzz_chatparse.c src/chat/chatparse.c \
//     src/chat/chatparse_json.c src/chat/chatparse_fmt.c src/core/err.c -o fuzz_chatparse
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chat/chatparse.h"
#include "chat/chatparse_impl.h"

static const char *const tags[] = {
    "<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "</function>", "<parameter=", "</parameter>",
    "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]",
    "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>",
    "<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|call|>", "<|constrain|>", "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>", "<|tool_call_argument_begin|>", "<|tool_call_end|>", "<|tool_calls_section_end|>",
    "<|python_tag|>", "<|START_ACTION|>", "<|END_ACTION|>", "<|START_THINKING|>", "<|END_THINKING|>", "<|tool_call|>",
    "<tool_calls>", "</tool_calls>", "[BEGIN FINAL RESPONSE]", ">>>", "{\"name\": \"f\", \"arguments\": ",
    " to=functions.f", "```json\n",
    "<minimax:tool_call>", "</minimax:tool_call>", "<invoke name=\"f\">", "</invoke>", "<parameter name=\"p\">",
    "<seed:tool_call>", "</seed:tool_call>", "<seed:think>", "</seed:think>", "<｜DSML｜function_calls>",
    "</｜DSML｜function_calls>", "<｜DSML｜tool_calls>", "<｜DSML｜invoke name=\"f\">", "</｜DSML｜invoke>",
    "<｜DSML｜parameter name=\"p\" string=\"true\">", "</｜DSML｜parameter>", "]<]minimax[>[<tool_call>",
    "]<]minimax[>[<item>", "<mm:think>", "<|tool_call>call:f{", "<tool_call|>", "<|\"|>", "<|channel>thought", "<channel|>",
};

struct buf {
    char *p;
    size_t n, cap;
};

static void put(struct buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

struct got_call {
    struct buf name, id, args;
    bool ended, voided;
};

struct result {
    struct buf content, reasoning;
    struct got_call *calls; // [cap]
    int n, cap, warnings;
};

static void result_free(struct result *r) {
    free(r->content.p);
    free(r->reasoning.p);
    for (int i = 0; i < r->n; i++) free(r->calls[i].name.p), free(r->calls[i].id.p), free(r->calls[i].args.p);
    free(r->calls);
    memset(r, 0, sizeof *r);
}

static bool same_buf(const struct buf *a, const struct buf *b) { return a->n == b->n && (!a->n || !memcmp(a->p, b->p, a->n)); }

static void on_delta(void *ud, const struct chat_delta *d) {
    struct result *r = ud;
    struct got_call *c = d->index >= 0 && d->index < r->n ? &r->calls[d->index] : NULL;
    switch (d->kind) {
    case CHAT_DELTA_CONTENT:
    case CHAT_DELTA_REASONING:
        if (!d->len || d->index != -1) __builtin_trap();
        put(d->kind == CHAT_DELTA_CONTENT ? &r->content : &r->reasoning, d->text, d->len);
        break;
    case CHAT_DELTA_TOOL_NAME:
        if (d->index != r->n || !d->name || !d->id || !d->name[0]) __builtin_trap();
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 8;
            r->calls = realloc(r->calls, (size_t)r->cap * sizeof *r->calls);
            if (!r->calls) abort();
        }
        c = &r->calls[r->n++];
        memset(c, 0, sizeof *c);
        put(&c->name, d->name, strlen(d->name));
        put(&c->id, d->id, strlen(d->id));
        break;
    case CHAT_DELTA_TOOL_ARGS:
    case CHAT_DELTA_TOOL_END:
        if (!c || c->ended || c->voided || strcmp(c->name.p, d->name) || strcmp(c->id.p, d->id)) __builtin_trap();
        if (d->kind == CHAT_DELTA_TOOL_ARGS) {
            if (!d->len) __builtin_trap();
            put(&c->args, d->text, d->len);
        } else {
            if (d->len != c->args.n || memcmp(d->text, c->args.p, d->len)) __builtin_trap();
            if (!cp_json_is_object(d->text, d->len)) __builtin_trap();
            c->ended = true;
        }
        break;
    case CHAT_DELTA_WARNING:
        r->warnings++;
        if (!d->text || !d->len || strlen(d->text) != d->len) __builtin_trap();
        if (d->index >= 0) {
            if (!c || c->ended || c->voided) __builtin_trap();
            c->voided = true;
        }
        break;
    }
}

// mode 0: whole; 1: byte by byte; 2: pseudo-random pieces.
static void run(enum chat_format f, unsigned flags, const char *s, size_t n, int mode, uint64_t seed, struct result *r) {
    struct chatparse_params pp = {flags, 77};
    struct chatparse *p;
    if (chatparse_create(f, &pp, &p)) __builtin_trap();
    for (size_t i = 0; i < n;) {
        size_t k = n - i;
        if (mode == 1) k = 1;
        if (mode == 2) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            k = 1 + seed % 9;
            if (k > n - i) k = n - i;
        }
        if (chatparse_feed(p, s + i, k, on_delta, r)) __builtin_trap();
        i += k;
    }
    if (chatparse_finish(p, on_delta, r)) __builtin_trap();
    chatparse_free(p);
}

static bool subsequence(const struct buf *s, const char *t, size_t tn) {
    size_t i = 0;
    for (size_t j = 0; j < tn && i < s->n; j++)
        if (s->p[i] == t[j]) i++;
    return i == s->n;
}

// The completed calls must match in order.
static bool same(const struct result *a, const struct result *b, bool ids) {
    if (!same_buf(&a->content, &b->content) || !same_buf(&a->reasoning, &b->reasoning) || a->warnings != b->warnings)
        return false;
    int i = 0, j = 0;
    for (;;) {
        while (i < a->n && (!a->calls[i].ended || a->calls[i].voided)) i++;
        while (j < b->n && (!b->calls[j].ended || b->calls[j].voided)) j++;
        if (i == a->n || j == b->n) return i == a->n && j == b->n;
        const struct got_call *x = &a->calls[i++], *y = &b->calls[j++];
        if (!same_buf(&x->name, &y->name) || !same_buf(&x->args, &y->args)) return false;
        if (ids && !same_buf(&x->id, &y->id)) return false;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    enum chat_format f = (enum chat_format)(data[0] % CHAT_FORMAT_COUNT);
    unsigned flags = (data[1] & 1 ? CHATPARSE_STARTS_IN_REASONING : 0) | (data[1] & 2 ? CHATPARSE_WHOLE_CALLS : 0);
    uint64_t seed = 0x9E3779B97F4A7C15ull ^ (uint64_t)(data[1] >> 2);
    struct buf text = {0};
    put(&text, "", 0);
    for (size_t i = 2; i < size; i++) {
        uint8_t c = data[i];
        bool tag = c >= 0x01 && c <= 0x1F && c != '\t' && c != '\n' && c != '\r';
        if (tag)
            put(&text, tags[c % (sizeof tags / sizeof tags[0])], strlen(tags[c % (sizeof tags / sizeof tags[0])]));
        else
            put(&text, (const char *)&c, 1);
    }

    static struct result whole, bytes, pieces, calls_whole;
    run(f, flags, text.p, text.n, 0, seed, &whole);
    run(f, flags, text.p, text.n, 1, seed, &bytes);
    run(f, flags, text.p, text.n, 2, seed, &pieces);
    run(f, flags ^ CHATPARSE_WHOLE_CALLS, text.p, text.n, 2, seed + 1, &calls_whole);

    if (!same(&whole, &bytes, true) || !same(&whole, &pieces, true)) __builtin_trap();
    if (!same(&whole, &calls_whole, whole.warnings == 0)) __builtin_trap();
    if (!subsequence(&whole.content, text.p, text.n) || !subsequence(&whole.reasoning, text.p, text.n)) __builtin_trap();
    if (f == CHAT_FORMAT_NONE && !same_buf(&whole.content, &text)) __builtin_trap();

    result_free(&whole);
    result_free(&bytes);
    result_free(&pieces);
    result_free(&calls_whole);
    free(text.p);
    return 0;
}
