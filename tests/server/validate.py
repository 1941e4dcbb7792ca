#!/usr/bin/env python3
# validate.py — JSON Schema verdicts for the server tests (test_forced.mjs), by an independent
# validator: Debian's python3-jsonschema (scripts/server-test-deps.sh installs it).
#
# Reads one JSON object a line on stdin, {"schema": S, "instance": I} or {"schema": S, "text": T}
# (T: the JSON text as the server sent it, parsed here strictly: no NaN or Infinity, no trailing
# data, so the client's own parser cannot hide a defect), and prints one line per input line,
# in order: "ok", or "invalid: WHY" (the first error, with the path inside the instance, or T
# not being JSON), or "error: WHY" (the line is not such an object, or the schema itself is bad,
# or it uses a "format" this jsonschema cannot check — a format it would silently pass is not a
# check).
# Schemas are read as draft 2020-12 (the draft of $defs and prefixItems) with format checking on.
# Exits 0 when every line was read, whatever the verdicts; 2 when jsonschema is missing.
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate.py: the python module jsonschema is missing (apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(2)

FORMATS = jsonschema.Draft202012Validator.FORMAT_CHECKER if hasattr(jsonschema.Draft202012Validator, "FORMAT_CHECKER") \
    else jsonschema.draft202012_format_checker


def formats_in(node, out):
    """Every "format" value in a schema (walking all subschemas, and harmlessly const/enum)."""
    if isinstance(node, dict):
        f = node.get("format")
        if isinstance(f, str):
            out.add(f)
        for v in node.values():
            formats_in(v, out)
    elif isinstance(node, list):
        for v in node:
            formats_in(v, out)


def no_constant(name):
    raise ValueError(f"{name} is not JSON")


def verdict(line):
    try:
        pair = json.loads(line)
    except ValueError as e:
        return f"error: the line is not JSON: {e}"
    if not isinstance(pair, dict) or "schema" not in pair or ("instance" in pair) == ("text" in pair):
        return "error: the line is not {\"schema\", \"instance\" or \"text\"}"
    schema = pair["schema"]
    if "text" in pair:
        try:
            instance = json.loads(pair["text"], parse_constant=no_constant)
        except ValueError as e:
            return f"invalid: the text is not JSON: {e}"
    else:
        instance = pair["instance"]
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as e:
        return f"error: bad schema: {e.message}"
    used = set()
    formats_in(schema, used)
    unchecked = sorted(f for f in used if f not in FORMATS.checkers)
    if unchecked:
        return f"error: this jsonschema cannot check format {', '.join(unchecked)}"
    v = jsonschema.Draft202012Validator(schema, format_checker=FORMATS)
    errors = sorted(v.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if not errors:
        return "ok"
    e = errors[0]
    where = "/".join(str(p) for p in e.absolute_path)
    return f"invalid: at /{where}: {e.message}"[:500]


def main():
    for line in sys.stdin:
        line = line.strip()
        if line:
            print(verdict(line), flush=False)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
