// chatparse.h — reading a chat model's output: the answer, the reasoning and the tool calls,
// incrementally.
//
// A model's generated text mixes the answer with markup in its family's format: a reasoning
// block (`<think>…</think>`, `[THINK]…[/THINK]`, harmony's analysis channel) and tool calls
// (`<tool_call>{json}</tool_call>`, `[TOOL_CALLS]name[ARGS]{json}`, XML parameters, ...). A
// chatparse is fed that text piece by piece (typically the bytes of one token, as the
// streaming detokenizer hands them out; special tokens must be rendered) and calls back with
// structured deltas:
//
//   CONTENT    text for the user                      text
//   REASONING  the thinking text, without its tags    text
//   TOOL_NAME  a call begins                          index, id, name
//   TOOL_ARGS  a fragment of the call's arguments     index, id, name, text (JSON)
//   TOOL_END   the call is complete                   index, id, name, text = all its arguments
//   WARNING    markup could not be parsed             index (the call it voids, or -1), text
//
// What it guarantees:
//   - no markup in CONTENT or REASONING for well-formed output: text that may be the start of a
//     tag is held back until the following bytes decide it ("<too" is held; "<toothbrush" is
//     released as content, "x < y" at once), so a delta never ends in the first bytes of a tag
//     that the next piece completes;
//   - the same deltas' concatenations, the same calls and the same warnings however the text is
//     split into pieces (every decision depends on the bytes, never on where a piece ends);
//   - the arguments of a call (the concatenated TOOL_ARGS, repeated whole in TOOL_END) are one
//     JSON object (RFC 8259, UTF-8 checked, at most 512 levels deep) when TOOL_END comes;
//   - nothing is dropped but markup: markup that cannot be parsed — a call whose JSON is broken,
//     an unclosed `<tool_call>`, a truncated header — comes back as CONTENT, byte for byte,
//     right after a WARNING naming the problem. If TOOL_NAME was already sent for that call
//     (streaming), the WARNING carries its index: the call is void, and no TOOL_END follows.
//     CONTENT and REASONING are always made of input bytes, in order; nothing is invented.
//   - whitespace that the templates put around markup is not text: spaces and newlines right
//     after an opening or closing tag, and right before one, are dropped (trailing whitespace is
//     held until the next non-space byte decides it). Harmony (gpt-oss) keeps every byte.
//
// Calls are numbered 0, 1, ... in order of their TOOL_NAME within one message. Their id is the
// model's own where its format carries one (Mistral's 9-character ids, Kimi K2's
// "functions.NAME:N"); otherwise it is generated from the caller's seed by a splitmix64
// generator: "call_" + 24 characters of [A-Za-z0-9] (9 characters alone for Mistral, whose
// templates refuse other lengths). Same seed, same ids; ids keep coming from the same generator
// across messages (chatparse_finish does not rewind it).
//
// Ownership: every pointer in a delta is owned by the parser and valid only during the
// callback. A chatparse belongs to one thread at a time; it depends on no model.
#ifndef FRINK_CHATPARSE_H
#define FRINK_CHATPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

// One line per format: the families it reads and the markup. The table in chatparse.c is the
// one place that says what each format's triggers are.
enum chat_format {
    CHAT_FORMAT_NONE,            // all content
    CHAT_FORMAT_THINK,           // <think>…</think> reasoning, no tool calls
    CHAT_FORMAT_HERMES,          // Hermes 2 Pro / 3, Qwen2.5, QwQ, Qwen3, Granite 4:
                                 //   <tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>
    CHAT_FORMAT_QWEN3_CODER,     // Qwen3-Coder, Qwen3.5: <tool_call>\n<function=NAME>\n
                                 //   <parameter=P>\nVALUE\n</parameter>\n</function>\n</tool_call>
    CHAT_FORMAT_LLAMA3,          // Llama 3.1/3.2/3.3: {"name": …, "parameters": {…}} as the
                                 //   message; <|python_tag|>{…}, NAME.call(k="v"), or code
    CHAT_FORMAT_MISTRAL,         // Nemo: [TOOL_CALLS][{"name", "arguments", "id"}, …];
                                 //   Small 3.2: [TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…};
                                 //   Devstral, Ministral 3: [TOOL_CALLS]NAME[ARGS]{…};
                                 //   Magistral / Ministral reasoning: [THINK]…[/THINK]
    CHAT_FORMAT_DEEPSEEK,        // R1: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>
                                 //   NAME\n```json\n{…}\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>;
                                 //   V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
    CHAT_FORMAT_GPT_OSS,         // harmony: <|channel|>analysis<|message|>…<|end|> reasoning,
                                 //   final / commentary content, `to=functions.NAME` calls
    CHAT_FORMAT_GLM,             // GLM 4.5/4.6/4.7: <tool_call>NAME\n<arg_key>K</arg_key>\n
                                 //   <arg_value>V</arg_value>\n</tool_call>
    CHAT_FORMAT_KIMI_K2,         // <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:N
                                 //   <|tool_call_argument_begin|>{…}<|tool_call_end|>…
    CHAT_FORMAT_COMMAND_R7B,     // <|START_THINKING|>…<|END_THINKING|>, <|START_ACTION|>[{
                                 //   "tool_call_id", "tool_name", "parameters"}]<|END_ACTION|>
    CHAT_FORMAT_GRANITE,         // Granite 3.x: <|tool_call|>[{"name", "arguments"}], <think>,
                                 //   <response>…</response>
    CHAT_FORMAT_FUNCTIONARY_V31, // <function=NAME>{…}</function>, <|python_tag|>code
    CHAT_FORMAT_FUNCTIONARY_V32, // after the prompt's ">>>": all\ncontent, NAME\n{…}, >>>…
    CHAT_FORMAT_APRIEL,          // Apriel 1.5 / 1.6: reasoning up to [BEGIN FINAL RESPONSE] (the
                                 //   1.6 prompt opens it), <tool_calls>[{…, "id"}]</tool_calls>;
                                 //   MiniMax-M1: <tool_calls>\n{…}\n{…}\n</tool_calls>
    CHAT_FORMAT_MINIMAX_M2,      // <think>…</think>, <minimax:tool_call>\n<invoke name="NAME">\n
                                 //   <parameter name="P">VALUE</parameter>\n</invoke>\n</minimax:tool_call>
    CHAT_FORMAT_SEED_OSS,        // <seed:think>…</seed:think>, <seed:tool_call>\n<function=NAME>\n
                                 //   <parameter=P>VALUE</parameter>\n</function>\n</seed:tool_call>
    CHAT_FORMAT_DEEPSEEK_V32,    // V3.2 DSML: <think>…</think>, <｜DSML｜function_calls>\n<｜DSML｜invoke
                                 //   name="NAME">\n<｜DSML｜parameter name="P" string="true|false">VALUE
                                 //   </｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>
    CHAT_FORMAT_DEEPSEEK_V4,     // V4 DSML: the same inside <｜DSML｜tool_calls>…</｜DSML｜tool_calls>
    CHAT_FORMAT_MINIMAX_M3,      // <mm:think>…</mm:think>, ]<]minimax[>[<tool_call>\n NS<invoke name="NAME">
                                 //   NS<P>VALUE NS</P>… NS</invoke> (NS the ]<]minimax[>[ token), nested
                                 //   values as child elements, arrays as NS<item>
    CHAT_FORMAT_GEMMA4,          // <|channel>thought\n…<channel|> reasoning, <|tool_call>call:NAME{k:V,…}
                                 //   <tool_call|> with <|"|>text<|"|> strings and bare keys
    CHAT_FORMAT_COUNT
};

// The format a chat template's source calls for, from markers only its family uses (harmony's
// <|channel|>, DeepSeek's <｜tool▁calls▁begin｜> and ｜DSML｜, <minimax:tool_call>, MiniMax-M3's
// ]<]minimax[>[, <seed:tool_call>, Gemma 4's <|tool_call>call:, <arg_key>, <function= with
// <parameter=, [TOOL_CALLS], <tool_call>, ...), checked most specific first. A template without
// tool-call markup is CHAT_FORMAT_THINK when it mentions <think>, else CHAT_FORMAT_NONE. NULL:
// NONE.
enum chat_format chat_format_detect(const char *template_src);

// "none", "think", "hermes", "qwen3-coder", "llama3", "mistral", "deepseek", "gpt-oss", "glm",
// "kimi-k2", "command-r7b", "granite", "functionary-v3.1", "functionary-v3.2", "apriel",
// "minimax-m2", "seed-oss", "deepseek-v3.2", "deepseek-v4", "minimax-m3", "gemma4"; NULL
// when out of range. chat_format_from_name is its inverse (CHAT_FORMAT_COUNT for an unknown name).
const char *chat_format_name(enum chat_format f);
enum chat_format chat_format_from_name(const char *name);

// Whether a rendered prompt leaves the reasoning block open for the model (it ends, but for
// whitespace, with the format's opening tag: "<think>\n" of Qwen3.5 and DeepSeek R1, "<think>"
// of GLM 4.7, "<|channel|>analysis<|message|>" of harmony): then the output starts inside it
// and the parser wants CHATPARSE_STARTS_IN_REASONING.
bool chat_prompt_opens_reasoning(enum chat_format f, const char *prompt, size_t len);

#define CHATPARSE_STARTS_IN_REASONING (1u << 0) // the output begins inside the reasoning block
                                                // (formats without reasoning ignore it)
#define CHATPARSE_WHOLE_CALLS (1u << 1)         // announce a call only once it is complete:
                                                // TOOL_NAME, one TOOL_ARGS, TOOL_END together, so
                                                // a broken call never sends TOOL_NAME

struct chatparse_params {
    unsigned flags;   // CHATPARSE_*
    uint64_t id_seed; // seeds the generated call ids
};

enum chat_delta_kind {
    CHAT_DELTA_CONTENT,
    CHAT_DELTA_REASONING,
    CHAT_DELTA_TOOL_NAME,
    CHAT_DELTA_TOOL_ARGS,
    CHAT_DELTA_TOOL_END,
    CHAT_DELTA_WARNING,
};

struct chat_delta {
    enum chat_delta_kind kind;
    const char *text; // CONTENT, REASONING, TOOL_ARGS, TOOL_END (the whole arguments), WARNING
    size_t len;       //   (a NUL-terminated message); NULL / 0 for TOOL_NAME
    int index;        // the call (TOOL_*; WARNING: the call it voids, or -1); -1 otherwise
    const char *id;   // TOOL_*: the call's id, NUL-terminated; NULL otherwise
    const char *name; // TOOL_*: the function's name, NUL-terminated UTF-8; NULL otherwise
};

typedef void (*chat_emit_fn)(void *ud, const struct chat_delta *d);

struct chatparse;

// Makes a parser for format f. params may be NULL (no flags, seed 0). FRINK_ERR_ARG for a
// format out of range, FRINK_ERR_NOMEM; *out is NULL on failure, else freed with chatparse_free.
frink_status chatparse_create(enum chat_format f, const struct chatparse_params *params, struct chatparse **out);
void chatparse_free(struct chatparse *p);

// Feeds len bytes of generated text; calls emit(ud, delta) for each delta now decided, in
// order, before returning. Bytes that may still be markup are kept (copied) inside p. Any
// split is allowed, even inside a UTF-8 character. FRINK_ERR_NOMEM leaves p unusable (every
// later call fails with FRINK_ERR_STATE until chatparse_free).
frink_status chatparse_feed(struct chatparse *p, const char *text, size_t len, chat_emit_fn emit, void *ud);

// Ends the message: everything still held is decided (held text that did not become a tag is
// text; incomplete markup comes back as content after a WARNING) and emitted. Then p is as
// chatparse_create made it, for the next message (call indices restart at 0; the id generator
// goes on). Fails only with FRINK_ERR_NOMEM (or FRINK_ERR_STATE after one).
frink_status chatparse_finish(struct chatparse *p, chat_emit_fn emit, void *ud);

// Warnings emitted since chatparse_create (finish does not reset the count).
unsigned chatparse_warnings(const struct chatparse *p);

#endif
