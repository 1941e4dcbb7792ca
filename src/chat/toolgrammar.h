// toolgrammar.h — grammars that force a well-formed tool call in a chat format's own markup.
//
// For a chat parser format (chat/chatparse.h) and a list of tools, the GBNF of one call (or of
// one or more) written the way that format's parser reads a call: every text of the grammar's
// language, fed to a parser of that format, gives TOOL_NAME / TOOL_ARGS / TOOL_END events only
// (no content, no warning), with a declared tool's name and arguments valid under its
// `parameters` schema (compiled by grammar/jsonschema.c, whose refusals carry over).
//
// The grammar starts at the format's trigger (the text that opens a call: "<tool_call>",
// "[TOOL_CALLS]", ...), which it matches first, and ends after the last call's closing markup,
// where the end of generation comes. Its rule TOOLGRAMMAR_AFTER_TRIGGER is the same grammar
// from just after the trigger, for a trigger that no token's bytes can spell (a control token
// of the vocabulary, rendered as nothing when pieces are matched without special text).
//
// Per format (what the parser reads, chatparse_fmt.c; the grammar writes one spelling of it):
//   hermes       <tool_call>\n{"name": "N", "arguments": {…}}\n</tool_call>  (calls joined by \n)
//   qwen3-coder  <tool_call>\n<function=N>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>
//   glm          <tool_call>N\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>
//   llama3       {"name": "N", "parameters": {…}}                           (calls joined by "; ")
//   mistral      [TOOL_CALLS]N[ARGS]{…}, [TOOL_CALLS]N[CALL_ID]ID[ARGS]{…} (each call after its own
//                [TOOL_CALLS]) or [TOOL_CALLS][{"name": "N", "arguments": {…}, "id": "ID"}, …]
//   deepseek     <｜tool▁calls▁begin｜> then per call <｜tool▁call▁begin｜>N<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
//                (V3.1) or …function<｜tool▁sep｜>N\n```json\n{…}\n```<｜tool▁call▁end｜> (R1), then
//                <｜tool▁calls▁end｜>
//   kimi-k2      <|tool_calls_section_begin|><|tool_call_begin|>functions.N:I<|tool_call_argument_begin|>
//                {…}<|tool_call_end|>…<|tool_calls_section_end|>
//   command-r7b  <|START_ACTION|>[{"tool_call_id": "0", "tool_name": "N", "parameters": {…}}, …]<|END_ACTION|>
//   granite      <|tool_call|>[{"name": "N", "arguments": {…}}, …]
//   apriel       <tool_calls>[{"name": "N", "arguments": {…}, "id": "call_…"}, …]</tool_calls>
//   functionary-v3.1  <function=N>{…}</function>
//   minimax-m2   <minimax:tool_call>\n<invoke name="N">\n<parameter name="K">V</parameter>\n</invoke>\n
//                …</minimax:tool_call>
//   seed-oss     <seed:tool_call>\n<function=N>\n<parameter=K>V</parameter>\n</function>\n</seed:tool_call>
//   deepseek-v3.2  <｜DSML｜function_calls>\n<｜DSML｜invoke name="N">\n<｜DSML｜parameter name="K"
//                string="true|false">V</｜DSML｜parameter>\n</｜DSML｜invoke>\n…</｜DSML｜function_calls>
//   deepseek-v4  the same in <｜DSML｜tool_calls>…</｜DSML｜tool_calls>
// Other formats are refused by name (FRINK_ERR_UNSUPPORTED): none and think have no calls;
// gpt-oss (harmony) writes its call's header in control tokens (<|channel|>, <|message|>,
// <|constrain|>) that a grammar over pieces without special text can never produce, and ends
// the turn with each call; functionary-v3.2 (calls from the message's first byte), gemma4
// (arguments in its template's literal syntax, <|"|>strings<|"|> and bare keys, not JSON) and
// minimax-m3 (arguments as nested XML elements) are not written yet.
//
// XML-style values (qwen3-coder, seed-oss, glm, minimax-m2) are read as JSON when they parse as
// JSON, else as a raw string. So a parameter's value is its schema's JSON text, or, for a plain
// string schema (type string and nothing else) or a string enum/const, raw text that cannot be
// read as JSON: it does not begin with whitespace, a digit, '-', '"', '{', '[' or '<', and not
// with a JSON or Python literal (true, None, ...) unless something but whitespace follows it;
// it never holds the closing tag. Inside these values JSON strings write '<' as \u003c (so no
// string can hold the closing tag; patterns, enums and consts included). Only the declared
// properties are written there (additional ones are not), required ones first, in the schema's
// order. DSML says which with its attribute: string="false" and the schema's JSON text, or, for a
// plain string schema or a string enum/const, string="true" and any text without the closing
// tag (or '<', for enum values).
//
// Known limitation, by design of pieces without special text: markup inside a call that is a
// control token of the vocabulary (Mistral's [ARGS], DeepSeek's separators, Kimi's) can only be
// spelled with ordinary tokens under the grammar. The output still parses; a model may find that
// spelling unlikely.
#ifndef FRINK_TOOLGRAMMAR_H
#define FRINK_TOOLGRAMMAR_H

#include <jansson.h>
#include <stdbool.h>

#include "core/err.h"

#define TOOLGRAMMAR_AFTER_TRIGGER "after-trigger"

// tools: an OpenAI-shaped array [{"type": "function", "function": {"name", "description",
// "parameters"}}] (the caller keeps it). name: only that tool (NULL: any). parallel: one or
// more calls (else exactly one). On FRINK_OK *gbnf and *trigger are malloc'ed (free). A
// malformed tool list, an unknown tool name or a name the formats cannot write (other than
// letters, digits, '_', '.', '-'; 1..128 bytes) is FRINK_ERR_ARG naming the place
// ("tools[1].function.name"); a format frink cannot constrain, or a schema keyword the
// compiler cannot enforce, FRINK_ERR_UNSUPPORTED naming it.
frink_status toolgrammar_build(const char *format, const json_t *tools, const char *name, bool parallel, char **gbnf,
                               char **trigger);

#endif
