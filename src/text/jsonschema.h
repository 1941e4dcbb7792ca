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
//   - duplicate keys are not prevented.
frink_status jsonschema_to_gbnf(const json_t *schema, char **out);

#endif
