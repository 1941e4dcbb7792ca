// jsonschema.h — JSON Schema to GBNF (llama.cpp's grammar syntax).
#ifndef FRINK_JSONSCHEMA_H
#define FRINK_JSONSCHEMA_H

#include <jansson.h>

#include "core/err.h"

// Converts a JSON Schema (a jansson value; the caller keeps it) to a GBNF grammar whose language
// is the JSON texts valid under the schema, with optional bounded whitespace (rule `ws`) after
// every token. On FRINK_OK *out is a malloc'ed NUL-terminated grammar with a `root` rule (freed
// with free); on failure *out is NULL. A keyword the grammar cannot enforce is refused with
// FRINK_ERR_UNSUPPORTED and a message naming the keyword and its JSON pointer
// ("/properties/age/multipleOf"); nothing is silently dropped. Annotations (description, title,
// $schema, $id, $comment, examples, default) do not constrain and are ignored.
//
// Known approximations, kept narrow on purpose:
//   - object properties are produced in the schema's order (required ones first, then optional
//     ones), as llama.cpp's converter does; an instance with another key order is not matched;
//   - string literals from enum/const are matched in their shortest JSON spelling only (not
//     "\u0061" for "a"), numbers likewise ("1" but not "1.0");
//   - `.` and negated classes in a pattern match unescaped characters only;
//   - an additional property's key is any string but the declared keys as spelled without
//     escapes (a declared key spelled "\u0061" passes as an additional one), and any string at all
//     when a declared key holds '"', '\', a control or a non-ASCII character;
//   - duplicate keys are not prevented;
//   - a bounded integer (minimum, maximum, exclusiveMinimum, exclusiveMaximum: integers or
//     decimals, draft-4 boolean exclusives too) is exactly the integers in range, spelled as
//     JSON integers without "-0" ("3.0" and "-0", equal to instances, are not produced); a real
//     bound beyond int64 is refused, integer bounds beyond it are exact;
//   - a bounded number is exactly the numbers in range spelled in plain decimal notation: no
//     exponent and no negative zero ("1.5e2" is not produced though it may be in range). A bound
//     is compared as the shortest decimal that reads back as its double (the text the schema
//     wrote when that has at most 15 significant digits); one needing more than 64 digits
//     spelled out (1e300) is refused;
//   - multipleOf is honoured on integers only: a step of 1, or an integer step with both bounds
//     and at most 1000 multiples between them (spelled out); anything else is refused.
frink_status jsonschema_to_gbnf(const json_t *schema, char **out);

// For composing several schemas into one grammar (the tool calls of chat/toolgrammar.c): the
// rules of `schema`, a value inside the document `root` that its local $refs resolve against
// (root itself for a whole schema), without the fixed JSON rules and with names apart from any
// other schema's: the start rule is `prefix` (letters, digits and '-'), matching the JSON
// value alone (no whitespace after it), and each $ref rule is "PREFIX-refN-Name". The grammar
// they go into must hold jsonschema_base_rules() once (the rules ws, char, string, integer,
// number, boolean, null, value, object and array, which the schema's rules refer to; other
// rules of that grammar must not use these names). Errors and ownership as jsonschema_to_gbnf.
// Flags: JSONSCHEMA_NO_LT — no '<' anywhere in the JSON text (strings spell it \u003c), for JSON
// embedded in markup that a "</tag>" ends; pass the same flags to jsonschema_base_rules.
#define JSONSCHEMA_NO_LT 1u
frink_status jsonschema_to_gbnf_rules(const json_t *root, const json_t *schema, const char *prefix, unsigned flags,
                                      char **out);
// The fixed rules, as static text.
const char *jsonschema_base_rules(unsigned flags);

#endif
