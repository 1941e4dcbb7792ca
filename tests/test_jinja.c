// test_jinja.c — the Jinja engine (src/template/jinja.h) case by case against Python's jinja2.
//
// The table below is generated: tests/jinja/make_cases.py renders each template with jinja2 the
// way transformers renders chat templates and writes the expected output (or the substring the
// error message must contain) here. frink must render byte for byte the same, and fail where
// jinja2 fails: at parse time where jinja2 refuses to compile, at render time where it raises.
// A few cases pin deliberate refusals (64-bit integers, {% extends %} and friends).
//
// Then the checks Python cannot produce: statuses, exact positions in messages, the evaluation
// and memory budgets, nesting limits, bytes that are not UTF-8, and concurrent renders of one
// parsed template.
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test.h"
#include "template/jinja.h"

enum { JC_OK, JC_PARSE, JC_RENDER };

struct jcase {
    const char *tmpl, *vars;
    int kind;
    const char *expect; // the output, or a substring of the error message
};

static const time_t case_now = 1741356309; // make_cases.py's NOW: 2025-03-07 14:05:09 UTC

static const struct jcase cases[] = {
    // BEGIN GENERATED CASES (python3 tests/jinja/make_cases.py --write)
    // 1171 cases: 952 renders, 44 parse errors, 175 render errors, 10 refused by frink (jinja2 3.1.6)
    {"{{ 1 }}", "{}", JC_OK, "1"},
    {"{{ -1 }}", "{}", JC_OK, "-1"},
    {"{{ 0 }}", "{}", JC_OK, "0"},
    {"{{ 007 }}", "{}", JC_PARSE, "expected token 'end of print statement', got 'integer'"},
    {"{{ 0x1F }}", "{}", JC_OK, "31"},
    {"{{ 0o17 }}", "{}", JC_OK, "15"},
    {"{{ 0b101 }}", "{}", JC_OK, "5"},
    {"{{ 1_000_000 }}", "{}", JC_OK, "1000000"},
    {"{{ 1.0 }}", "{}", JC_OK, "1.0"},
    {"{{ 1.5 }}", "{}", JC_OK, "1.5"},
    {"{{ 1e5 }}", "{}", JC_OK, "100000.0"},
    {"{{ 1E-5 }}", "{}", JC_OK, "1e-05"},
    {"{{ 1.5e-7 }}", "{}", JC_OK, "1.5e-07"},
    {"{{ 2.5e+20 }}", "{}", JC_OK, "2.5e+20"},
    {"{{ 1_0.5 }}", "{}", JC_OK, "10.5"},
    {"{{ 123456789.123456789 }}", "{}", JC_OK, "123456789.12345679"},
    {"{{ 0.1 + 0.2 }}", "{}", JC_OK, "0.30000000000000004"},
    {"{{ 1e16 }}", "{}", JC_OK, "1e+16"},
    {"{{ 1e15 }}", "{}", JC_OK, "1000000000000000.0"},
    {"{{ 0.0001 }}", "{}", JC_OK, "0.0001"},
    {"{{ 0.00001 }}", "{}", JC_OK, "1e-05"},
    {"{{ -0.0 }}", "{}", JC_OK, "-0.0"},
    {"{{ 1/3 }}", "{}", JC_OK, "0.3333333333333333"},
    {"{{ 2/3*3 }}", "{}", JC_OK, "2.0"},
    {"{{ true }}", "{}", JC_OK, "True"},
    {"{{ True }}", "{}", JC_OK, "True"},
    {"{{ false }}", "{}", JC_OK, "False"},
    {"{{ False }}", "{}", JC_OK, "False"},
    {"{{ none }}", "{}", JC_OK, "None"},
    {"{{ None }}", "{}", JC_OK, "None"},
    {"{{ \"a\" }}", "{}", JC_OK, "a"},
    {"{{ 'b' }}", "{}", JC_OK, "b"},
    {"{{ \"it's\" }}", "{}", JC_OK, "it's"},
    {"{{ 'say \"hi\"' }}", "{}", JC_OK, "say \"hi\""},
    {"{{ \"both ' \\\"\" }}", "{}", JC_OK, "both ' \""},
    {"{{ \"tab\\there\" }}", "{}", JC_OK, "tab\there"},
    {"{{ \"nl\\nx\" }}", "{}", JC_OK, "nl\nx"},
    {"{{ \"\\x41\\u00e9\\U0001F600\" }}", "{}", JC_OK, "Aé😀"},
    {"{{ \"\\101\" }}", "{}", JC_OK, "A"},
    {"{{ \"\\d\" }}", "{}", JC_OK, "\\d"},
    {"{{ \"a\" \"b\" 'c' }}", "{}", JC_OK, "abc"},
    {"{{ [] }}", "{}", JC_OK, "[]"},
    {"{{ () }}", "{}", JC_OK, "()"},
    {"{{ {} }}", "{}", JC_OK, "{}"},
    {"{{ [1, \"a\", none, true, 1.5] }}", "{}", JC_OK, "[1, 'a', None, True, 1.5]"},
    {"{{ (1,) }}", "{}", JC_OK, "(1,)"},
    {"{{ (1, 2) }}", "{}", JC_OK, "(1, 2)"},
    {"{{ {\"k\": \"v\", 1: [2, (3,)]} }}", "{}", JC_OK, "{'k': 'v', 1: [2, (3,)]}"},
    {"{{ [[], {}, ()] }}", "{}", JC_OK, "[[], {}, ()]"},
    {"{{ {\"a\": {\"b\": {\"c\": []}}} }}", "{}", JC_OK, "{'a': {'b': {'c': []}}}"},
    {"{{ [\"é\", \"\\u00a0\", \"\\u200b\", \"\\x7f\", \"\\x01\", \"日本\"] }}", "{}", JC_OK, "['é', '\\xa0', '\\u200b', '\\x7f', '\\x01', '日本']"},
    {"{{ [1, 2,] }}", "{}", JC_OK, "[1, 2]"},
    {"{{ {\"a\": 1,} }}", "{}", JC_OK, "{'a': 1}"},
    {"{{ (1, 2,) }}", "{}", JC_OK, "(1, 2)"},
    {"{{ [\"\\\\\"] }}", "{}", JC_OK, "['\\\\']"},
    {"{{ {\"q\": \"'\"} }}", "{}", JC_OK, "{'q': \"'\"}"},
    {"{{ {true: 1, none: 2, 1.5: 3} }}", "{}", JC_OK, "{True: 1, None: 2, 1.5: 3}"},
    {"{{ x }}|{{ y }}|{{ z }}|{{ w }}", "{\"x\": 1.0, \"y\": [1.5, null, true], \"z\": {\"a\": \"b\", \"c\": 2}, \"w\": 123456789012}", JC_OK, "1.0|[1.5, None, True]|{'a': 'b', 'c': 2}|123456789012"},
    {"{{ big }} {{ big + 1 }} {{ -big - 1 }}", "{\"big\": 9223372036854775806}", JC_OK, "9223372036854775806 9223372036854775807 -9223372036854775807"},
    {"{{ f }} {{ g }} {{ h }}", "{\"f\": 1e+100, \"g\": 5e-324, \"h\": 1.7976931348623157e+308}", JC_OK, "1e+100 5e-324 1.7976931348623157e+308"},
    {"{{ a, b }}", "{\"a\": 1, \"b\": \"x\"}", JC_OK, "(1, 'x')"},
    {"{{ \"x\" ~ 1 ~ 2.0 ~ none ~ true ~ [1] }}", "{}", JC_OK, "x12.0NoneTrue[1]"},
    {"{{ undefined_thing }}|{{ none }}|{{ \"\" }}", "{}", JC_OK, "|None|"},
    {"a\n{% if true %}\nb\n{% endif %}\nc\n", "{}", JC_OK, "a\nb\nc"},
    {"a\n  {% if true %}\n  b\n  {% endif %}\nc", "{}", JC_OK, "a\n  b\nc"},
    {"a\n\t {% if true %}b{% endif %}", "{}", JC_OK, "a\nb"},
    {"a  {% if true %}b{% endif %}  c", "{}", JC_OK, "a  b  c"},
    {"a\n  {%+ if true %}b{% endif %}", "{}", JC_OK, "a\n  b"},
    {"a\n  {% if true +%}\nb{% endif %}", "{}", JC_OK, "a\n\nb"},
    {"a  \n  {%- if true %}b{% endif %}", "{}", JC_OK, "ab"},
    {"a {% if true -%}  \n  b  {%- endif %} c", "{}", JC_OK, "a b c"},
    {"a {{- 1 -}} b", "{}", JC_OK, "a1b"},
    {"a\n  {{ 1 }}\n  b", "{}", JC_OK, "a\n  1\n  b"},
    {"a {{+ 1 }} b", "{}", JC_OK, "a 1 b"},
    {"x\n  {# comment #}\ny", "{}", JC_OK, "x\ny"},
    {"x\n  {#- comment -#}  \ny", "{}", JC_OK, "xy"},
    {"x {#+ c +#}\ny", "{}", JC_OK, "x \ny"},
    {"x {# multi\nline #}\ny\n\n", "{}", JC_OK, "x y\n"},
    {"trailing\n\n", "{}", JC_OK, "trailing\n"},
    {"trailing\n", "{}", JC_OK, "trailing"},
    {"crlf\r\nline\r\n{% if true %}\r\nx\r\n{% endif %}\r\n", "{}", JC_OK, "crlf\nline\nx\n"},
    {"cr\rline\r", "{}", JC_OK, "cr\nline"},
    {"{% raw %}{{ x }}{% endraw %}", "{}", JC_OK, "{{ x }}"},
    {"{% raw %}\n{{ x }} {% if %}\n{% endraw %}\nafter", "{}", JC_OK, "\n{{ x }} {% if %}\nafter"},
    {"a\n  {% raw -%}  x  {%- endraw %}\nb", "{}", JC_OK, "a\nxb"},
    {"a\n  {%- raw %}x{% endraw -%}\n  b", "{}", JC_OK, "axb"},
    {"{%raw%}{%endraw%}|", "{}", JC_OK, "|"},
    {"　 {%- if true %}x{% endif %}", "{}", JC_OK, "x"},
    {"{% if true -%}　  y{% endif %}", "{}", JC_OK, "y"},
    {"{% for i in [1, 2] %}\n  {{ i }}\n{% endfor %}\n", "{}", JC_OK, "  1\n  2\n"},
    {"{% for i in [1, 2] -%}\n  {{ i }}\n{%- endfor %}", "{}", JC_OK, "12"},
    {"  {% set x = 1 %}\n{{ x }}", "{}", JC_OK, "1"},
    {"{{ \"{{\" }}{{ \"}}\" }}{{ {\"a\": {\"b\": 1}} }}", "{}", JC_OK, "{{}}{'a': {'b': 1}}"},
    {"{{ {\"a\": 1}}}", "{}", JC_OK, "{'a': 1}"},
    {"{% if true %}\n{% endif %}", "{}", JC_OK, ""},
    {"{# a #}\n{# b #}", "{}", JC_OK, ""},
    {"line1\n{% set x = 1 -%}\n\n\nline2", "{}", JC_OK, "line1\nline2"},
    {"{% generation %}gen {{ 1 }}{% endgeneration %}", "{}", JC_OK, "gen 1"},
    {"{% for m in messages %}{% generation %}{{ m.content }}{% endgeneration %}{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "SysHiHelloBye"},
    {"{{ 1 + 2 }}", "{}", JC_OK, "3"},
    {"{{ 1 - 2.5 }}", "{}", JC_OK, "-1.5"},
    {"{{ 3 * 4 }}", "{}", JC_OK, "12"},
    {"{{ 7 / 2 }}", "{}", JC_OK, "3.5"},
    {"{{ 4 / 2 }}", "{}", JC_OK, "2.0"},
    {"{{ 7 // 2 }}", "{}", JC_OK, "3"},
    {"{{ -7 // 2 }}", "{}", JC_OK, "-4"},
    {"{{ 7 // -2 }}", "{}", JC_OK, "-4"},
    {"{{ 7.5 // 2 }}", "{}", JC_OK, "3.0"},
    {"{{ -7.5 // 2 }}", "{}", JC_OK, "-4.0"},
    {"{{ 7 % 3 }}", "{}", JC_OK, "1"},
    {"{{ -7 % 3 }}", "{}", JC_OK, "2"},
    {"{{ 7 % -3 }}", "{}", JC_OK, "-2"},
    {"{{ -7.5 % 2 }}", "{}", JC_OK, "0.5"},
    {"{{ 7.5 % -2 }}", "{}", JC_OK, "-0.5"},
    {"{{ 2 ** 10 }}", "{}", JC_OK, "1024"},
    {"{{ 2 ** -1 }}", "{}", JC_OK, "0.5"},
    {"{{ 2 ** 0.5 }}", "{}", JC_OK, "1.4142135623730951"},
    {"{{ 2 ** 3 ** 2 }}", "{}", JC_OK, "64"},
    {"{{ (-8) ** 2 }}", "{}", JC_OK, "64"},
    {"{{ -2 ** 2 }}", "{}", JC_OK, "4"},
    {"{{ 1 + 2 * 3 - 4 / 2 }}", "{}", JC_OK, "5.0"},
    {"{{ (1 + 2) * 3 }}", "{}", JC_OK, "9"},
    {"{{ 10 - 2 - 3 }}", "{}", JC_OK, "5"},
    {"{{ 100 / 10 / 5 }}", "{}", JC_OK, "2.0"},
    {"{{ 2 * -3 }}", "{}", JC_OK, "-6"},
    {"{{ - - 3 }}", "{}", JC_OK, "3"},
    {"{{ +3 }}", "{}", JC_OK, "3"},
    {"{{ -1.5 }}", "{}", JC_OK, "-1.5"},
    {"{{ true + 1 }}", "{}", JC_OK, "2"},
    {"{{ true * 3 }}", "{}", JC_OK, "3"},
    {"{{ false - 1 }}", "{}", JC_OK, "-1"},
    {"{{ 1 + 1.0 }}", "{}", JC_OK, "2.0"},
    {"{{ 0.1 * 3 }}", "{}", JC_OK, "0.30000000000000004"},
    {"{{ 1e308 * 10 }}", "{}", JC_OK, "inf"},
    {"{{ \"ab\" + \"cd\" }}", "{}", JC_OK, "abcd"},
    {"{{ \"ab\" * 3 }}", "{}", JC_OK, "ababab"},
    {"{{ 3 * \"ab\" }}", "{}", JC_OK, "ababab"},
    {"{{ \"ab\" * 0 }}", "{}", JC_OK, ""},
    {"{{ \"ab\" * -1 }}", "{}", JC_OK, ""},
    {"{{ [1] * 3 }}", "{}", JC_OK, "[1, 1, 1]"},
    {"{{ [1, 2] + [3] }}", "{}", JC_OK, "[1, 2, 3]"},
    {"{{ (1,) + (2,) }}", "{}", JC_OK, "(1, 2)"},
    {"{{ \"a\" ~ \"b\" ~ 3 }}", "{}", JC_OK, "ab3"},
    {"{{ 1 ~ 2 }}", "{}", JC_OK, "12"},
    {"{{ 5 // 2 * 2 + 5 % 2 }}", "{}", JC_OK, "5"},
    {"{{ 2 ** 62 }}", "{}", JC_OK, "4611686018427387904"},
    {"{{ -(2 ** 62) * 2 }}", "{}", JC_OK, "-9223372036854775808"},
    {"{{ 9 % 2 == 1 }}", "{}", JC_OK, "True"},
    {"{{ \"%s-%d\" % (\"a\", 3) }}", "{}", JC_OK, "a-3"},
    {"{{ \"%s\" % \"x\" }}", "{}", JC_OK, "x"},
    {"{{ \"%5.2f|%-5d|%05d|%x|%X|%o|%#x|%+d|% d\" % (3.14159, 42, 42, 255, 255, 8, 255, 5, 5) }}", "{}", JC_OK, " 3.14|42   |00042|ff|FF|10|0xff|+5| 5"},
    {"{{ \"%(a)s and %(b)r\" % {\"a\": 1, \"b\": \"q\"} }}", "{}", JC_OK, "1 and 'q'"},
    {"{{ \"%c%c\" % (65, \"b\") }}", "{}", JC_OK, "Ab"},
    {"{{ \"%e %g %G %.3e\" % (12345.678, 0.00001234, 1e20, 1.5) }}", "{}", JC_OK, "1.234568e+04 1.234e-05 1E+20 1.500e+00"},
    {"{{ \"%%|%s\" % [1, 2] }}", "{}", JC_OK, "%|[1, 2]"},
    {"{{ \"%s\" % {\"a\": 1} }}", "{}", JC_OK, "{'a': 1}"},
    {"{{ \"%.2s|%5s|%-5s|\" % (\"abc\", \"ab\", \"ab\") }}", "{}", JC_OK, "ab|   ab|ab   |"},
    {"{{ \"%*d|%-*d|%.*f\" % (5, 1, 4, 2, 2, 3.14159) }}", "{}", JC_OK, "    1|2   |3.14"},
    {"{{ \"%i %u\" % (3.9, -2) }}", "{}", JC_OK, "3 -2"},
    {"{{ \"%r\" % \"é\" }}", "{}", JC_OK, "'é'"},
    {"{{ 1 / 0 }}", "{}", JC_RENDER, "division by zero"},
    {"{{ 1 // 0 }}", "{}", JC_RENDER, "integer division or modulo by zero"},
    {"{{ 1 % 0 }}", "{}", JC_RENDER, "integer modulo by zero"},
    {"{{ 1.0 / 0 }}", "{}", JC_RENDER, "float division by zero"},
    {"{{ 1.5 // 0 }}", "{}", JC_RENDER, "float floor division by zero"},
    {"{{ 1.5 % 0.0 }}", "{}", JC_RENDER, "float modulo"},
    {"{{ 0 ** -1 }}", "{}", JC_RENDER, "0.0 cannot be raised to a negative power"},
    {"{{ \"a\" + 1 }}", "{}", JC_RENDER, "can only concatenate str (not \"int\") to str"},
    {"{{ 1 + \"a\" }}", "{}", JC_RENDER, "unsupported operand type(s) for +: 'int' and 'str'"},
    {"{{ [1] + (2,) }}", "{}", JC_RENDER, "can only concatenate list (not \"tuple\") to list"},
    {"{{ \"a\" - \"b\" }}", "{}", JC_RENDER, "unsupported operand type(s) for -: 'str' and 'str'"},
    {"{{ \"a\" * \"b\" }}", "{}", JC_RENDER, "can't multiply sequence by non-int of type 'str'"},
    {"{{ [1] * 1.5 }}", "{}", JC_RENDER, "can't multiply sequence by non-int of type 'float'"},
    {"{{ \"a\" * 2.0 }}", "{}", JC_RENDER, "can't multiply sequence by non-int of type 'float'"},
    {"{{ none + 1 }}", "{}", JC_RENDER, "unsupported operand type(s) for +: 'NoneType' and 'int'"},
    {"{{ {} + {} }}", "{}", JC_RENDER, "unsupported operand type(s) for +: 'dict' and 'dict'"},
    {"{{ -\"a\" }}", "{}", JC_RENDER, "bad operand type for unary -: 'str'"},
    {"{{ \"%d\" % \"x\" }}", "{}", JC_RENDER, "%d format: a real number is required, not str"},
    {"{{ \"%s %s\" % (1,) }}", "{}", JC_RENDER, "not enough arguments for format string"},
    {"{{ \"%s\" % (1, 2) }}", "{}", JC_RENDER, "not all arguments converted during string formatting"},
    {"{{ \"%z\" % 1 }}", "{}", JC_RENDER, "unsupported format character 'z' (0x7a) at index 1"},
    {"{{ \"%(a)s\" % {\"b\": 1} }}", "{}", JC_RENDER, "'a'"},
    {"{{ 9223372036854775807 + 1 }}", "{}", JC_RENDER, "integer overflow"},
    {"{{ 2 ** 64 }}", "{}", JC_RENDER, "integer overflow"},
    {"{{ -9223372036854775807 - 2 }}", "{}", JC_RENDER, "integer overflow"},
    {"{{ 3037000500 * 3037000500 }}", "{}", JC_RENDER, "integer overflow"},
    {"{{ x + 1 }}", "{\"x\": 9223372036854775807}", JC_RENDER, "integer overflow"},
    {"{{ 1 == 1.0 }}", "{}", JC_OK, "True"},
    {"{{ 1 == true }}", "{}", JC_OK, "True"},
    {"{{ 0 == false }}", "{}", JC_OK, "True"},
    {"{{ \"1\" == 1 }}", "{}", JC_OK, "False"},
    {"{{ [1, 2] == [1, 2] }}", "{}", JC_OK, "True"},
    {"{{ [1] == (1,) }}", "{}", JC_OK, "False"},
    {"{{ (1, 2) == (1, 2) }}", "{}", JC_OK, "True"},
    {"{{ {\"a\": 1, \"b\": 2} == {\"b\": 2, \"a\": 1} }}", "{}", JC_OK, "True"},
    {"{{ none == none }}", "{}", JC_OK, "True"},
    {"{{ none == false }}", "{}", JC_OK, "False"},
    {"{{ 1 != 2 }}", "{}", JC_OK, "True"},
    {"{{ 1 < 2 < 3 }}", "{}", JC_OK, "True"},
    {"{{ 1 < 3 < 2 }}", "{}", JC_OK, "False"},
    {"{{ 3 > 2 >= 2 }}", "{}", JC_OK, "True"},
    {"{{ \"a\" < \"b\" }}", "{}", JC_OK, "True"},
    {"{{ \"B\" < \"a\" }}", "{}", JC_OK, "True"},
    {"{{ \"é\" > \"z\" }}", "{}", JC_OK, "True"},
    {"{{ [1, 2] < [1, 3] }}", "{}", JC_OK, "True"},
    {"{{ [1] < [1, 0] }}", "{}", JC_OK, "True"},
    {"{{ (1, \"a\") < (1, \"b\") }}", "{}", JC_OK, "True"},
    {"{{ 1.5 <= 1 }}", "{}", JC_OK, "False"},
    {"{{ 2 >= 2.0 }}", "{}", JC_OK, "True"},
    {"{{ 1 in [1, 2] }}", "{}", JC_OK, "True"},
    {"{{ 3 in [1, 2] }}", "{}", JC_OK, "False"},
    {"{{ 3 not in [1, 2] }}", "{}", JC_OK, "True"},
    {"{{ \"b\" in \"abc\" }}", "{}", JC_OK, "True"},
    {"{{ \"\" in \"abc\" }}", "{}", JC_OK, "True"},
    {"{{ \"x\" not in \"abc\" }}", "{}", JC_OK, "True"},
    {"{{ \"k\" in {\"k\": 1} }}", "{}", JC_OK, "True"},
    {"{{ 1 in {\"k\": 1} }}", "{}", JC_OK, "False"},
    {"{{ 1.0 in [1] }}", "{}", JC_OK, "True"},
    {"{{ true and 1 }}", "{}", JC_OK, "1"},
    {"{{ 0 and 1 }}", "{}", JC_OK, "0"},
    {"{{ 0 or \"\" }}", "{}", JC_OK, ""},
    {"{{ \"\" or \"x\" }}", "{}", JC_OK, "x"},
    {"{{ none or [] or 0 }}", "{}", JC_OK, "0"},
    {"{{ not 0 }}", "{}", JC_OK, "True"},
    {"{{ not \"a\" }}", "{}", JC_OK, "False"},
    {"{{ not [] }}", "{}", JC_OK, "True"},
    {"{{ not not 1 }}", "{}", JC_OK, "True"},
    {"{{ not 1 == 2 }}", "{}", JC_OK, "True"},
    {"{{ 1 and 2 and 3 }}", "{}", JC_OK, "3"},
    {"{{ false or false and true }}", "{}", JC_OK, "False"},
    {"{{ [] or {} }}", "{}", JC_OK, "{}"},
    {"{{ 1 if true else 2 }}", "{}", JC_OK, "1"},
    {"{{ 1 if false else 2 }}", "{}", JC_OK, "2"},
    {"{{ \"a\" if 0 else \"b\" if 1 else \"c\" }}", "{}", JC_OK, "b"},
    {"{{ (1 if false) is defined }}", "{}", JC_OK, "False"},
    {"{{ x is defined and x.y }}", "{}", JC_OK, "False"},
    {"{{ x or \"dflt\" }}", "{}", JC_OK, "dflt"},
    {"{{ [1, 2][0] == 1 }}", "{}", JC_OK, "True"},
    {"{{ 9007199254740993 == 9007199254740992.0 }}", "{}", JC_OK, "False"},
    {"{{ 1e400 > 10 }}", "{}", JC_OK, "True"},
    {"{{ (0/1) == -0.0 }}", "{}", JC_OK, "True"},
    {"{{ 1 < \"a\" }}", "{}", JC_RENDER, "'<' not supported between instances of 'int' and 'str'"},
    {"{{ [1] < \"a\" }}", "{}", JC_RENDER, "'<' not supported between instances of 'list' and 'str'"},
    {"{{ none < 1 }}", "{}", JC_RENDER, "'<' not supported between instances of 'NoneType' and 'int'"},
    {"{{ {} < {} }}", "{}", JC_RENDER, "'<' not supported between instances of 'dict' and 'dict'"},
    {"{{ x < 1 }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ 1 in 5 }}", "{}", JC_RENDER, "argument of type 'int' is not iterable"},
    {"{{ [] in {} }}", "{}", JC_RENDER, "unhashable type: 'list'"},
    {"{{ 1 in \"abc\" }}", "{}", JC_RENDER, "'in <string>' requires string as left operand, not int"},
    {"{{ 1 < x }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{% if x %}y{% else %}n{% endif %}{{ (1 if x) }}|", "{}", JC_OK, "n|"},
    {"{{ 1/0 if false else \"safe\" }}|{{ false and 1/0 }}|{{ true or 1/0 }}", "{}", JC_OK, "safe|False|True"},
    {"{{ d.a }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ d[\"a\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ d.b.c[2].e }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "deep"},
    {"{{ d[\"b\"][\"c\"][-1][\"e\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "deep"},
    {"{{ d.missing }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ d[\"missing\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ d[\"items\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "I"},
    {"{{ d[\"get\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "G"},
    {"{{ d.get(\"a\") }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ d.get(\"zz\") }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "None"},
    {"{{ d.get(\"zz\", 7) }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "7"},
    {"{{ d[\"1\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "one"},
    {"{{ d[1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ d.b.c.0 }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "10"},
    {"{{ d.b.c.1 }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "20"},
    {"{{ l[0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ l[-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "four"},
    {"{{ l[10] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ l[-5] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ l.0 }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ l[\"x\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ s[0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "h"},
    {"{{ s[1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "é"},
    {"{{ s[-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "o"},
    {"{{ s[9] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ t[1][0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "3"},
    {"{{ d.items() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "dict_items([('a', 1), ('items', 'I'), ('get', 'G'), ('b', {'c': [10, 20, {'e': 'deep'}]}), ('1', 'one'), ('__x', 'dunder')])"},
    {"{{ d.keys() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "dict_keys(['a', 'items', 'get', 'b', '1', '__x'])"},
    {"{{ d.values() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "dict_values([1, 'I', 'G', {'c': [10, 20, {'e': 'deep'}]}, 'one', 'dunder'])"},
    {"{{ d.__x }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "dunder"},
    {"{{ d[\"__x\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "dunder"},
    {"{{ l.count(1) }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ l.index(2) }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "1"},
    {"{{ s.upper is callable }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "True"},
    {"{{ i.real }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "5"},
    {"{{ d.b.c[1:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[20, {'e': 'deep'}]"},
    {"{{ d[none] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ l[true] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "2"},
    {"{{ l[1.0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ d is mapping }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "True"},
    {"{{ d.missing is defined }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "False"},
    {"{{ d.missing is undefined }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "True"},
    {"{{ d.a is defined }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "True"},
    {"{{ l[10] is defined }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "False"},
    {"{{ n.x }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ n.x.y }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'None' has no attribute 'x'"},
    {"{{ d.missing.x }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'dict object' has no attribute 'missing'"},
    {"{{ x.y }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ x[\"y\"] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ x[0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ l[10].x }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "list object has no element 10"},
    {"{{ d.missing() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'dict object' has no attribute 'missing'"},
    {"{{ x() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ l.append(5) }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'append' of 'list' object is unsafe."},
    {"{{ d.pop(\"a\") }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'pop' of 'dict' object is unsafe."},
    {"{{ d.update({}) }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'update' of 'dict' object is unsafe."},
    {"{{ l.sort() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'sort' of 'list' object is unsafe."},
    {"{{ l.pop() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'pop' of 'list' object is unsafe."},
    {"{{ \"a\".__class__ }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ x.y is defined }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ i() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'int' object is not callable"},
    {"{{ s.nope() }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'str object' has no attribute 'nope'"},
    {"{{ n[0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ d.__class__ }}|{{ l.append }}|{{ l.append is defined }}|{{ l.append is callable }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "||False|True"},
    {"{% set _ = l.append(9) %}{{ l }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "access to attribute 'append' of 'list' object is unsafe."},
    {"{{ l[1:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[2, 3, 'four']"},
    {"{{ l[:2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 2]"},
    {"{{ l[::-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "['four', 3, 2, 1]"},
    {"{{ l[::2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 3]"},
    {"{{ l[1::2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[2, 'four']"},
    {"{{ l[-2:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[3, 'four']"},
    {"{{ l[:-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 2, 3]"},
    {"{{ l[5:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[]"},
    {"{{ l[3:1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[]"},
    {"{{ l[3:1:-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "['four', 3]"},
    {"{{ l[-100:100] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 2, 3, 'four']"},
    {"{{ s[1:3] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "él"},
    {"{{ s[::-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "olléh"},
    {"{{ s[:-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "héll"},
    {"{{ s[-3:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "llo"},
    {"{{ s[::2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "hlo"},
    {"{{ (1, 2, 3)[1:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "(2, 3)"},
    {"{{ \"abc\"[5:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, ""},
    {"{{ l[:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 2, 3, 'four']"},
    {"{{ l[none:2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 2]"},
    {"{{ range(10)[2:8:3] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "range(2, 8, 3)"},
    {"{{ \"日本語テキスト\"[2:5] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "語テキ"},
    {"{{ \"日本語\"[::-1] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "語本日"},
    {"{{ l[1:3:0] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "slice step cannot be zero"},
    {"{{ d[1:2] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "unhashable type: 'slice'"},
    {"{{ l[\"a\":] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "slice indices must be integers or None or have an __index__ method"},
    {"{{ x[1:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_RENDER, "'x' is undefined"},
    {"{{ l[0:1] + l[-1:] }}", "{\"d\": {\"a\": 1, \"items\": \"I\", \"get\": \"G\", \"b\": {\"c\": [10, 20, {\"e\": \"deep\"}]}, \"1\": \"one\", \"__x\": \"dunder\"}, \"l\": [1, 2, 3, \"four\"], \"s\": \"héllo\", \"n\": null, \"i\": 5, \"t\": [[1, 2], [3, 4]]}", JC_OK, "[1, 'four']"},
    {"{{ x }}|", "{}", JC_OK, "|"},
    {"{{ x|default(\"d\") }}", "{}", JC_OK, "d"},
    {"{{ x|d(\"d\") }}", "{}", JC_OK, "d"},
    {"{{ x is defined }}", "{}", JC_OK, "False"},
    {"{{ x is undefined }}", "{}", JC_OK, "True"},
    {"{{ x|length }}", "{}", JC_OK, "0"},
    {"{{ x|count }}", "{}", JC_OK, "0"},
    {"{% for a in x %}a{% else %}empty{% endfor %}", "{}", JC_OK, "empty"},
    {"{{ x|list }}", "{}", JC_OK, "[]"},
    {"{{ x|join(\",\") }}|", "{}", JC_OK, "|"},
    {"{{ 1 in x }}", "{}", JC_OK, "False"},
    {"{{ x == x }}", "{}", JC_OK, "True"},
    {"{{ x != 1 }}", "{}", JC_OK, "True"},
    {"{{ x ~ \"s\" }}", "{}", JC_OK, "s"},
    {"{{ not x }}", "{}", JC_OK, "True"},
    {"{{ x|string }}|", "{}", JC_OK, "|"},
    {"{{ x|upper }}|", "{}", JC_OK, "|"},
    {"{{ x|trim }}|", "{}", JC_OK, "|"},
    {"{{ x|first }}|", "{}", JC_OK, "|"},
    {"{{ x|last }}|", "{}", JC_OK, "|"},
    {"{{ x is none }}", "{}", JC_OK, "False"},
    {"{{ x is string }}", "{}", JC_OK, "False"},
    {"{{ x is iterable }}", "{}", JC_OK, "True"},
    {"{{ x is sequence }}", "{}", JC_OK, "True"},
    {"{{ x is mapping }}", "{}", JC_OK, "False"},
    {"{{ x|e }}|", "{}", JC_OK, "|"},
    {"{{ x|safe }}|", "{}", JC_OK, "|"},
    {"{{ x|items|list }}", "{}", JC_OK, "[]"},
    {"{{ x|sort }}", "{}", JC_OK, "[]"},
    {"{{ x|unique|list }}", "{}", JC_OK, "[]"},
    {"{{ x|tojson }}", "{}", JC_RENDER, "Object of type Undefined is not JSON serializable"},
    {"{{ x + 1 }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x * 2 }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ -x }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x < 1 }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x|int }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x|float }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x|abs }}", "{}", JC_RENDER, "bad operand type for abs(): 'Undefined'"},
    {"{{ x|round }}", "{}", JC_RENDER, "type Undefined doesn't define __round__ method"},
    {"{{ x|indent }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x|title }}|", "{}", JC_OK, "|"},
    {"{{ x|wordcount }}", "{}", JC_OK, "0"},
    {"{{ x|reverse|list }}", "{}", JC_OK, "[]"},
    {"{{ x|sum }}", "{}", JC_OK, "0"},
    {"{{ x|min }}|", "{}", JC_OK, "|"},
    {"{{ x|map(\"upper\")|list }}", "{}", JC_OK, "[]"},
    {"{{ x|select|list }}", "{}", JC_OK, "[]"},
    {"{{ x|batch(2)|list }}", "{}", JC_OK, "[]"},
    {"{{ x|dictsort }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ x|replace(\"a\", \"b\") }}|", "{}", JC_OK, "|"},
    {"{{ x|center(5) }}|", "{}", JC_OK, "     |"},
    {"{% if x %}t{% else %}f{% endif %}", "{}", JC_OK, "f"},
    {"{{ (x if x else \"no\") }}", "{}", JC_OK, "no"},
    {"{{ x|default(none) is none }}", "{}", JC_OK, "True"},
    {"{{ x|default(\"a\", true) }}", "{}", JC_OK, "a"},
    {"{{ \"\"|default(\"a\", true) }}", "{}", JC_OK, "a"},
    {"{{ \"\"|default(\"a\") }}|", "{}", JC_OK, "|"},
    {"{{ 0|d(5, boolean=true) }}", "{}", JC_OK, "5"},
    {"{{ none|default(\"n\") }}", "{}", JC_OK, "None"},
    {"{% set y = x %}{{ y is defined }}", "{}", JC_OK, "False"},
    {"{{ [x]|length }}", "{}", JC_OK, "1"},
    {"{{ [x] }}", "{}", JC_OK, "[Undefined]"},
    {"{{ {\"k\": x} }}", "{}", JC_OK, "{'k': Undefined}"},
    {"{{ (x,) }}", "{}", JC_OK, "(Undefined,)"},
    {"{{ \"%s\" % x }}|", "{}", JC_OK, "|"},
    {"{{ \"{}\".format(x) }}|", "{}", JC_OK, "|"},
    {"{{ messages[5].content }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_RENDER, "list object has no element 5"},
    {"{{ messages[5] is defined }}{{ messages[0].nope is defined }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "FalseFalse"},
    {"{{ s|trim }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "Hello World"},
    {"{{ s|trim(\"H \") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "ello World"},
    {"{{ \"　x \\t\\n\"|trim }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "x"},
    {"{{ s|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "15"},
    {"{{ s|count }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "15"},
    {"{{ s|lower }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "  hello world  "},
    {"{{ s|upper }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "  HELLO WORLD  "},
    {"{{ w|title }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "Hello World-Foo(Bar) [X]<Y>"},
    {"{{ w|capitalize }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "Hello world-foo(bar) [x]<y>"},
    {"{{ \"ǆx ǉ\"|title }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "Ǆx Ǉ"},
    {"{{ \"ǆx\"|capitalize }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "ǅx"},
    {"{{ \"ßa\"|upper }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "SSA"},
    {"{{ \"ßa\"|title }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "SSa"},
    {"{{ \"İ\"|lower }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "i̇"},
    {"{{ \"ΣΑΣ ΑΣ.\"|lower }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "σας ας."},
    {"{{ \"ﬁx\"|upper }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "FIX"},
    {"{{ l|sort }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 1, 2, 3]"},
    {"{{ l|sort(reverse=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 2, 1, 1]"},
    {"{{ u|sort }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['A', 'a', 'b', 'B']"},
    {"{{ u|sort(case_sensitive=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['A', 'B', 'a', 'b']"},
    {"{{ ds|sort(attribute=\"n\")|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ ds|sort(attribute=\"v\", reverse=true)|map(attribute=\"v\")|join(\",\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3,2,1"},
    {"{{ ds|sort(attribute=\"ok,n\")|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ l|unique|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 1, 2]"},
    {"{{ u|unique|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'A']"},
    {"{{ u|unique(case_sensitive=true)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'A', 'a', 'B']"},
    {"{{ ds|unique(attribute=\"ok\")|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'a']"},
    {"{{ l|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ l|last }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ []|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, ""},
    {"{{ []|last }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, ""},
    {"{{ \"abc\"|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "a"},
    {"{{ \"abc\"|last }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "c"},
    {"{{ d|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "b"},
    {"{{ d|last }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "a"},
    {"{{ l|min }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ l|max }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ u|min }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "A"},
    {"{{ u|max }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "b"},
    {"{{ u|max(case_sensitive=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "b"},
    {"{{ ds|min(attribute=\"v\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "{'n': 'a', 'v': 1, 'ok': False}"},
    {"{{ ds|max(attribute=\"n\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "{'n': 'c', 'v': 3, 'ok': True, 'x': {'y': 5}}"},
    {"{{ []|min }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, ""},
    {"{{ l|sum }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7"},
    {"{{ ds|sum(attribute=\"v\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "6"},
    {"{{ l|sum(start=10) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "17"},
    {"{{ [1.5, 2]|sum }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3.5"},
    {"{{ l|join }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3121"},
    {"{{ l|join(\", \") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3, 1, 2, 1"},
    {"{{ ds|join(\"|\", attribute=\"n\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "b|a|c"},
    {"{{ l|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 1, 2, 1]"},
    {"{{ \"abc\"|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ d|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'A', 'a']"},
    {"{{ d|items|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('b', 1), ('A', 2), ('a', 3)]"},
    {"{{ d|dictsort }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('A', 2), ('a', 3), ('b', 1)]"},
    {"{{ d|dictsort(true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('A', 2), ('a', 3), ('b', 1)]"},
    {"{{ d|dictsort(by=\"value\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('b', 1), ('A', 2), ('a', 3)]"},
    {"{{ d|dictsort(reverse=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('b', 1), ('A', 2), ('a', 3)]"},
    {"{{ l|reverse|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 2, 1, 3]"},
    {"{{ \"abc\"|reverse }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "cba"},
    {"{{ d|reverse|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['a', 'A', 'b']"},
    {"{{ l|map(\"string\")|join(\"-\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3-1-2-1"},
    {"{{ u|map(\"lower\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'a', 'a', 'b']"},
    {"{{ ds|map(attribute=\"x.y\", default=0)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[0, 0, 5]"},
    {"{{ ds|map(attribute=\"x.y\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'dict object' has no attribute 'x'"},
    {"{{ ds|map(attribute=\"zz\", default=\"dv\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['dv', 'dv', 'dv']"},
    {"{{ [\"a\", \"b\"]|map(\"replace\", \"a\", \"z\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['z', 'b']"},
    {"{{ l|select(\"odd\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 1, 1]"},
    {"{{ l|reject(\"odd\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[2]"},
    {"{{ l|select(\"gt\", 1)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 2]"},
    {"{{ l|select(\"equalto\", 1)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 1]"},
    {"{{ [0, 1, \"\", \"a\", none]|select|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 'a']"},
    {"{{ [0, 1, \"\", \"a\", none]|reject|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[0, '', None]"},
    {"{{ ds|selectattr(\"ok\")|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'c']"},
    {"{{ ds|rejectattr(\"ok\")|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['a']"},
    {"{{ ds|selectattr(\"v\", \"gt\", 1)|map(attribute=\"n\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['b', 'c']"},
    {"{{ ds|selectattr(\"x\")|list|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ ds|selectattr(\"x\", \"defined\")|list|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ ds|selectattr(\"n\", \"in\", [\"a\", \"c\"])|list|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2"},
    {"{{ ds|rejectattr(\"x\", \"undefined\")|map(attribute=\"n\")|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "c"},
    {"{{ f|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3.0"},
    {"{{ f|round(2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.67"},
    {"{{ f|round(1, \"floor\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.6"},
    {"{{ f|round(1, \"ceil\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.7"},
    {"{{ 2.5|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.0"},
    {"{{ 3.5|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "4.0"},
    {"{{ -2.5|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "-2.0"},
    {"{{ 0.125|round(2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0.12"},
    {"{{ 1234.5|round(-2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1200.0"},
    {"{{ 1250|round(-2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1200"},
    {"{{ 1350|round(-2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1400"},
    {"{{ 7|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7"},
    {"{{ 7|round(2, \"ceil\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7.0"},
    {"{{ 2.5|round(0, \"floor\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.0"},
    {"{{ num|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "42"},
    {"{{ \"42.9\"|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "42"},
    {"{{ \" 7 \"|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7"},
    {"{{ \"0x1A\"|int(base=16) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "26"},
    {"{{ \"1_000\"|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1000"},
    {"{{ \"abc\"|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0"},
    {"{{ \"abc\"|int(-1) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "-1"},
    {"{{ none|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0"},
    {"{{ 3.99|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ -3.99|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "-3"},
    {"{{ true|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ \"1e3\"|int }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1000"},
    {"{{ \"inf\"|int(9) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "9"},
    {"{{ num|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "42.0"},
    {"{{ \"1e3\"|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1000.0"},
    {"{{ \" 2.5 \"|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.5"},
    {"{{ \"x\"|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0.0"},
    {"{{ \"x\"|float(1.5) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1.5"},
    {"{{ 3|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3.0"},
    {"{{ \"nan\"|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "nan"},
    {"{{ \"-inf\"|float }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "-inf"},
    {"{{ -5|abs }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "5"},
    {"{{ -2.5|abs }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2.5"},
    {"{{ true|abs }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ ml|indent }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "line1\n    line2\n\n    line4"},
    {"{{ ml|indent(2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "line1\n  line2\n\n  line4"},
    {"{{ ml|indent(2, true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "  line1\n  line2\n\n  line4"},
    {"{{ ml|indent(2, first=true, blank=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "  line1\n  line2\n  \n  line4"},
    {"{{ ml|indent(\">> \") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "line1\n>> line2\n\n>> line4"},
    {"{{ \"a\\r\\nb\\u2028c\"|indent(1) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "a\n b\n c"},
    {"{{ \"\"|indent(first=true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "    "},
    {"{{ s|wordcount }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "2"},
    {"{{ \"hello, wor_ld 42 é-x\"|wordcount }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "5"},
    {"{{ \"\"|wordcount }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0"},
    {"{{ l|batch(3)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[3, 1, 2], [1]]"},
    {"{{ l|batch(3, \"x\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[3, 1, 2], [1, 'x', 'x']]"},
    {"{{ []|batch(2)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[]"},
    {"{{ l|slice(3)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[3, 1], [2], [1]]"},
    {"{{ l|slice(3, \"x\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[3, 1], [2, 'x'], [1, 'x']]"},
    {"{{ [1, 2, 3, 4, 5, 6, 7]|slice(3)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[1, 2, 3], [4, 5], [6, 7]]"},
    {"{{ \"ab\"|center(6) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "  ab  "},
    {"{{ \"ab\"|center(7) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "   ab  "},
    {"{{ \"abc\"|center(2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "abc"},
    {"{{ e|escape }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;"},
    {"{{ e|e }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;"},
    {"{{ e|forceescape }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "&lt;a href=&#39;x&#39;&gt;&amp;&#34;&lt;/a&gt;"},
    {"{{ e|safe }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "<a href='x'>&\"</a>"},
    {"{{ \"<\"|e|e }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "&lt;"},
    {"{{ 5|string }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "5"},
    {"{{ none|string }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "None"},
    {"{{ [1, \"a\"]|string }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 'a']"},
    {"{{ \"x\"|safe|string }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "x"},
    {"{{ \"%s=%d\"|format(\"a\", 1) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "a=1"},
    {"{{ \"%(a)s\"|format(a=5) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "5"},
    {"{{ e|replace(\"a\", \"b\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "<b href='x'>&\"</b>"},
    {"{{ \"aaa\"|replace(\"a\", \"b\", 2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "bba"},
    {"{{ \"abc\"|replace(\"\", \"-\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "-a-b-c-"},
    {"{{ 5|replace(\"5\", \"6\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "6"},
    {"{{ \"hello world foo\"|truncate(9) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "hello..."},
    {"{{ \"hello world foo\"|truncate(9, true) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "hello ..."},
    {"{{ \"hello world foo\"|truncate(11, false, \"..\", 0) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "hello.."},
    {"{{ \"hello world\"|truncate(255) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "hello world"},
    {"{{ \"abcdefghij\"|truncate(5, leeway=0) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "ab..."},
    {"{{ d|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "{\"b\": 1, \"A\": 2, \"a\": 3}"},
    {"{{ ds|attr(\"x\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, ""},
    {"{{ d|attr(\"items\") is callable }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "True"},
    {"{{ l|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "4"},
    {"{{ d|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ \"\"|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "0"},
    {"{{ \"日本語\"|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ range(3)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[0, 1, 2]"},
    {"{{ range(3)|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ \"x\"|list|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "1"},
    {"{{ 1|string ~ 2 }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "12"},
    {"{{ \"a,b\"|int(7) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7"},
    {"{{ \"%s\"|format([1]) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1]"},
    {"{{ l|map(\"int\")|sum }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "7"},
    {"{{ \"a b\"|split|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_PARSE, "No filter named 'split'."},
    {"{{ \"A\"|lower|upper }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "A"},
    {"{{ l|select(\"in\", [1, 2])|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 2, 1]"},
    {"{{ d|items|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "('b', 1)"},
    {"{{ {\"a\": [1, 2]}|items|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[('a', [1, 2])]"},
    {"{{ l|unique|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3"},
    {"{{ [\"x\", \"y\"]|map(\"upper\")|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "X"},
    {"{{ ds|map(attribute=\"n\")|join }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "bac"},
    {"{{ l|map(\"abs\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 1, 2, 1]"},
    {"{{ l|join(1) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3111211"},
    {"{{ 5|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "object of type 'int' has no len()"},
    {"{{ none|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "object of type 'NoneType' has no len()"},
    {"{{ 1|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'int' object is not iterable"},
    {"{{ 5|items|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Can only get item pairs from a mapping."},
    {"{{ \"abc\"|items|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Can only get item pairs from a mapping."},
    {"{{ 5|items is defined }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "True"},
    {"{{ l|dictsort }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'list' object has no attribute 'items'"},
    {"{{ 5|first }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'int' object is not iterable"},
    {"{{ l|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "type list doesn't define __round__ method"},
    {"{{ \"a\"|round }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "type str doesn't define __round__ method"},
    {"{{ l|sum(attribute=\"x\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'int object' has no attribute 'x'"},
    {"{{ [\"a\"]|sum }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "unsupported operand type(s) for +: 'int' and 'str'"},
    {"{{ [1, \"a\"]|sort }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'<' not supported between instances of 'str' and 'int'"},
    {"{{ l|tojson(indent=1.5) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "can't multiply sequence by non-int of type 'float'"},
    {"{{ l|map|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "map requires a filter argument"},
    {"{{ l|selectattr|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Missing parameter for attribute name"},
    {"{{ l|select(\"nosuchtest\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "No test named 'nosuchtest'."},
    {"{{ l|map(\"nosuchfilter\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "No filter named 'nosuchfilter'."},
    {"{{ l|batch(0)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[[], [3, 1, 2, 1]]"},
    {"{{ l|slice(0)|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "integer division or modulo by zero"},
    {"{{ l|round(1, \"up\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "method must be common, ceil or floor"},
    {"{{ d|dictsort(by=\"x\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "You can only sort by either \"key\" or \"value\""},
    {"{{ \"abc\"|truncate(2) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "expected length >= 3, got 2"},
    {"{{ 5|indent }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "unsupported operand type(s) for +=: 'int' and 'str'"},
    {"{{ 5|truncate }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "object of type 'int' has no len()"},
    {"{{ \"a\"|center(\"x\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'str' object cannot be interpreted as an integer"},
    {"{{ l|unique(attribute=\"x.y\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "'int object' has no attribute 'x'"},
    {"{{ l|attr(1) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "attribute name must be string, not 'int'"},
    {"{{ x|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Object of type Undefined is not JSON serializable"},
    {"{{ {\"a\": x}|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Object of type Undefined is not JSON serializable"},
    {"{{ l|reverse|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Object of type list_reverseiterator is not JSON serializable"},
    {"{{ d.items()|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "Object of type dict_items is not JSON serializable"},
    {"{{ (1, 2)|tojson }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[1, 2]"},
    {"{{ l|map(\"upper\")|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "['3', '1', '2', '1']"},
    {"{{ \"%d\"|format(\"x\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "%d format: a real number is required, not str"},
    {"{{ 1|trim(5) }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "strip arg must be None or str"},
    {"{{ \"a\"|default(\"b\", \"c\", \"d\") }}", "{}", JC_RENDER, "takes at most 2 arguments"},
    {"{{ [1]|join(d=\",\", x=1) }}", "{}", JC_RENDER, "unexpected keyword argument 'x'"},
    {"{% set g = l|select(\"odd\") %}{{ g|list }}{{ g|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "[3, 1, 1][]"},
    {"{% set g = l|select(\"odd\") %}{{ g|first }}{{ g|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3[1, 1]"},
    {"{% set g = l|select(\"odd\") %}{{ g|length }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, "object of type 'generator' has no len()"},
    {"{% set g = l|map(\"string\") %}{% for x in g %}{{ x }}{% endfor %};{% for x in g %}{{ x }}{% endfor %}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "3121;"},
    {"{% if l|select(\"gt\", 99) %}truthy generator{% endif %}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "truthy generator"},
    {"{{ (l|reverse)|first }}{{ l|reverse|last }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_RENDER, ""},
    {"{{ 1 in l|select(\"odd\") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "True"},
    {"{% set g = l|select(\"odd\") %}{{ 1 in g }}{{ g|list }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "True[1]"},
    {"{{ ds|selectattr(\"v\", \"gt\", 1)|map(attribute=\"n\")|join(\", \") }}", "{\"s\": \"  Hello World  \", \"w\": \"hello wORLD-foo(bar) [x]<y>\", \"l\": [3, 1, 2, 1], \"u\": [\"b\", \"A\", \"a\", \"B\"], \"ds\": [{\"n\": \"b\", \"v\": 2, \"ok\": true}, {\"n\": \"a\", \"v\": 1, \"ok\": false}, {\"n\": \"c\", \"v\": 3, \"ok\": true, \"x\": {\"y\": 5}}], \"d\": {\"b\": 1, \"A\": 2, \"a\": 3}, \"f\": 2.675, \"num\": \"42\", \"ml\": \"line1\\nline2\\n\\nline4\", \"e\": \"<a href='x'>&\\\"</a>\"}", JC_OK, "b, c"},
    {"{{ \"x\"|nosuchfilter }}", "{}", JC_PARSE, "No filter named 'nosuchfilter'."},
    {"{% if false %}{{ \"x\"|nosuchfilter }}{% endif %}ok", "{}", JC_OK, "ok"},
    {"{% if true %}{{ \"x\"|nosuchfilter }}{% endif %}ok", "{}", JC_RENDER, "No filter named 'nosuchfilter' found."},
    {"{% if cond|nosuch %}{% endif %}ok", "{}", JC_RENDER, "No filter named 'nosuch' found."},
    {"{{ 1|nosuch if false else 2 }}", "{}", JC_OK, "2"},
    {"{% if x %}{% for a in b %}{{ a|nosuch }}{% endfor %}{% endif %}", "{}", JC_PARSE, "No filter named 'nosuch'."},
    {"{% if false %}{% else %}{{ 1|nosuch }}{% endif %}", "{}", JC_RENDER, "No filter named 'nosuch' found."},
    {"{{ 1 is nosuchtest }}", "{}", JC_PARSE, "No test named 'nosuchtest'."},
    {"{% if false %}{{ 1 is nosuchtest }}{% endif %}ok", "{}", JC_OK, "ok"},
    {"{{ o|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}"},
    {"{{ o|tojson(indent=2) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n  \"z\": 1,\n  \"a\": [\n    1.0,\n    2.5,\n    -0.0,\n    1e-05,\n    1e+20,\n    123456789.5\n  ],\n  \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\n  \"n\": null,\n  \"t\": true,\n  \"e\": {},\n  \"l\": []\n}"},
    {"{{ o|tojson(indent=0) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n\"z\": 1,\n\"a\": [\n1.0,\n2.5,\n-0.0,\n1e-05,\n1e+20,\n123456789.5\n],\n\"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\n\"n\": null,\n\"t\": true,\n\"e\": {},\n\"l\": []\n}"},
    {"{{ o|tojson(indent=\"\\t\") }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n\t\"z\": 1,\n\t\"a\": [\n\t\t1.0,\n\t\t2.5,\n\t\t-0.0,\n\t\t1e-05,\n\t\t1e+20,\n\t\t123456789.5\n\t],\n\t\"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\n\t\"n\": null,\n\t\"t\": true,\n\t\"e\": {},\n\t\"l\": []\n}"},
    {"{{ o|tojson(sort_keys=true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"e\": {}, \"l\": [], \"n\": null, \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"t\": true, \"z\": 1}"},
    {"{{ o|tojson(separators=(\",\", \":\")) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"z\":1,\"a\":[1.0,2.5,-0.0,1e-05,1e+20,123456789.5],\"s\":\"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\"n\":null,\"t\":true,\"e\":{},\"l\":[]}"},
    {"{{ o|tojson(indent=1, separators=(\";\", \"=\")) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n \"z\"=1;\n \"a\"=[\n  1.0;\n  2.5;\n  -0.0;\n  1e-05;\n  1e+20;\n  123456789.5\n ];\n \"s\"=\"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\";\n \"n\"=null;\n \"t\"=true;\n \"e\"={};\n \"l\"=[]\n}"},
    {"{{ o|tojson(ensure_ascii=true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f \\u00e9 \\u65e5\\u672c \\ud83d\\ude00\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}"},
    {"{{ u|tojson(ensure_ascii=true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "\"\\u00e9\\ud83d\\ude00\""},
    {"{{ o.a|tojson(indent=-1) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "[\n1.0,\n2.5,\n-0.0,\n1e-05,\n1e+20,\n123456789.5\n]"},
    {"{{ []|tojson(indent=2) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "[]"},
    {"{{ {}|tojson(indent=2) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{}"},
    {"{{ [[]]|tojson(indent=2) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "[\n  []\n]"},
    {"{{ \"x\"|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "\"x\""},
    {"{{ 1|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "1"},
    {"{{ 1.5|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "1.5"},
    {"{{ none|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "null"},
    {"{{ true|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "true"},
    {"{{ (1, \"a\")|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "[1, \"a\"]"},
    {"{{ {1: 2, true: 3, none: 4, 1.5: 5}|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"1\": 3, \"null\": 4, \"1.5\": 5}"},
    {"{{ {\"b\": 1, \"a\": {\"d\": 2, \"c\": 3}}|tojson(sort_keys=true, indent=1) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n \"a\": {\n  \"c\": 3,\n  \"d\": 2\n },\n \"b\": 1\n}"},
    {"{{ \"x\"|safe|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "\"x\""},
    {"{{ range(3)|list|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "[0, 1, 2]"},
    {"{{ o.s|tojson|length }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "38"},
    {"{{ o|tojson(indent=true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\n \"z\": 1,\n \"a\": [\n  1.0,\n  2.5,\n  -0.0,\n  1e-05,\n  1e+20,\n  123456789.5\n ],\n \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\n \"n\": null,\n \"t\": true,\n \"e\": {},\n \"l\": []\n}"},
    {"{{ o|tojson(true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f \\u00e9 \\u65e5\\u672c \\ud83d\\ude00\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}"},
    {"{{ o|tojson(separators=[\",\", \":\"]) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_OK, "{\"z\":1,\"a\":[1.0,2.5,-0.0,1e-05,1e+20,123456789.5],\"s\":\"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\",\"n\":null,\"t\":true,\"e\":{},\"l\":[]}"},
    {"{{ {1: 2, \"a\": 3}|tojson(sort_keys=true) }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_RENDER, "'<' not supported between instances of 'str' and 'int'"},
    {"{{ range(3)|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_RENDER, "Object of type range is not JSON serializable"},
    {"{{ namespace(a=1)|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_RENDER, "Object of type Namespace is not JSON serializable"},
    {"{{ {(1,): 2}|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_RENDER, "keys must be str, int, float, bool or None, not tuple"},
    {"{{ cycler(1)|tojson }}", "{\"o\": {\"z\": 1, \"a\": [1.0, 2.5, -0.0, 1e-05, 1e+20, 123456789.5], \"s\": \"q\\\"\\\\/\\n\\t\\r\\b\\f\\u0001\\u001f\177 é 日本 😀\", \"n\": null, \"t\": true, \"e\": {}, \"l\": []}, \"u\": \"é😀\"}", JC_RENDER, "Object of type Cycler is not JSON serializable"},
    {"{{ 1e400|tojson }}|{{ -1e400|tojson }}|{{ (1e400 - 1e400)|tojson }}|{{ [1e400] }}|{{ 1e400 - 1e400 }}", "{}", JC_OK, "Infinity|-Infinity|NaN|[inf]|nan"},
    {"{{ i is defined }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ zz is undefined }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ n is none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ s is string }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is string }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is number }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ f is number }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ b is number }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ s is number }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is integer }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ f is integer }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ b is integer }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ f is float }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is float }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ b is boolean }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ z is boolean }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ b is true }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ b is false }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ z is false }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ false is false }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ d is mapping }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ l is mapping }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ l is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ s is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ d is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ l is iterable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ s is iterable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is iterable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ d.items() is iterable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ d.items() is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ range(2) is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ l|select is sequence }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ l|select is iterable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is odd }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is even }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ f is even }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is divisibleby 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is divisibleby(2) }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is equalto 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is eq 3.0 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is ne 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is lt 4 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is le 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is gt 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is ge 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is greaterthan 1 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is lessthan 1 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ i is in [1, 3] }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is in l }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ \"b\" is in s }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ s is lower }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ S is upper }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ \"aB\" is lower }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ \"1\" is upper }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ n is sameas none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ b is sameas true }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is sameas 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ l is sameas l }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is not none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ not i is none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is not divisibleby 2 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ range is callable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is callable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ s.upper is callable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is escaped }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ s|e is escaped }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ \"upper\" is filter }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ \"nope\" is filter }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ \"odd\" is test }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ e is string and e is not none }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is number and i > 2 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is defined or zz }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ n is mapping }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ ns is defined }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "False"},
    {"{{ dict is callable }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ l is eq [1] }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_OK, "True"},
    {"{{ i is == 3 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_PARSE, "expected token 'name', got '=='"},
    {"{{ s is divisibleby 2 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_RENDER, "not all arguments converted during string formatting"},
    {"{{ s is odd }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_RENDER, "not all arguments converted during string formatting"},
    {"{{ i is in 5 }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_RENDER, "argument of type 'int' is not iterable"},
    {"{{ i is lt \"a\" }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_RENDER, "'<' not supported between instances of 'int' and 'str'"},
    {"{{ i is sameas }}", "{\"i\": 3, \"f\": 2.0, \"s\": \"abc\", \"S\": \"ABC\", \"l\": [1], \"d\": {\"a\": 1}, \"n\": null, \"b\": true, \"z\": 0, \"e\": \"\"}", JC_RENDER, "test_sameas() missing 1 required positional argument: 'other'"},
    {"{{ s.split() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ s.split(none, 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b\\tc \\n']"},
    {"{{ s.rsplit(none, 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['  a b', 'c']"},
    {"{{ s.split(\" \") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['', '', 'a', 'b\\tc', '\\n']"},
    {"{{ p.split(\",\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', '', 'c']"},
    {"{{ p.split(\",\", 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b,,c']"},
    {"{{ p.rsplit(\",\", 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a,b,', 'c']"},
    {"{{ p.split(\",\", -1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', '', 'c']"},
    {"{{ p.split(\",\", 0) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a,b,,c']"},
    {"{{ u.split() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['x', 'y', 'z']"},
    {"{{ \"\".split() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "[]"},
    {"{{ \"\".split(\",\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['']"},
    {"{{ \"a<>b<>c\".split(\"<>\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ \"a<>b<>c\".rsplit(\"<>\", 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a<>b', 'c']"},
    {"{{ \"x\".split(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['', '']"},
    {"{{ h.split(\"o\", maxsplit=1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['Hell', ' World']"},
    {"{{ s.strip() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "a b\tc"},
    {"{{ s.lstrip() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "a b\tc \n"},
    {"{{ s.rstrip() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "  a b\tc"},
    {"{{ u.strip() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "x y z"},
    {"{{ p.strip(\"a,c\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "b"},
    {"{{ \"xxhixx\".strip(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "hi"},
    {"{{ \"xxhixx\".lstrip(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "hixx"},
    {"{{ \"xxhixx\".rstrip(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "xxhi"},
    {"{{ \"é日é\".strip(\"é\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "日"},
    {"{{ h.startswith(\"He\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.startswith((\"x\", \"Hel\")) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.endswith(\"ld\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.endswith(\"World\", 0, 11) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.startswith(\"World\", 6) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.startswith(\"\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ h.replace(\"o\", \"0\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hell0 W0rld"},
    {"{{ h.replace(\"o\", \"0\", 1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hell0 World"},
    {"{{ h.replace(\"\", \"|\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "|H|e|l|l|o| |W|o|r|l|d|"},
    {"{{ h.replace(\"\", \"|\", 2) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "|H|ello World"},
    {"{{ h.upper() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "HELLO WORLD"},
    {"{{ h.lower() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "hello world"},
    {"{{ h.title() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hello World"},
    {"{{ \"hELLO wORLD 3rd x_y\"|title }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hello World 3rd X_y"},
    {"{{ \"hELLO wORLD 3rd x_y\".title() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hello World 3Rd X_Y"},
    {"{{ h.capitalize() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hello world"},
    {"{{ h.swapcase() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "hELLO wORLD"},
    {"{{ g.upper() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "ǄEMAL SSTRASSE ΣΊΣΥΦΟΣ"},
    {"{{ g.lower() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "ǆemal ßtraße σίσυφος"},
    {"{{ g.title() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "ǅemal Sstraße Σίσυφος"},
    {"{{ g.capitalize() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "ǅemal ßtraße σίσυφος"},
    {"{{ h.find(\"o\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "4"},
    {"{{ h.rfind(\"o\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "7"},
    {"{{ h.find(\"zz\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "-1"},
    {"{{ h.find(\"o\", 5) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "7"},
    {"{{ h.find(\"o\", -4) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "7"},
    {"{{ h.find(\"\", 20) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "-1"},
    {"{{ h.index(\"W\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "6"},
    {"{{ h.rindex(\"l\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "9"},
    {"{{ h.count(\"l\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "3"},
    {"{{ h.count(\"\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "12"},
    {"{{ h.count(\"l\", 4) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "1"},
    {"{{ \"日本日本\".find(\"本\", 2) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "3"},
    {"{{ \"日本日本\".count(\"日\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "2"},
    {"{{ \"-\".join([\"a\", \"b\"]) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "a-b"},
    {"{{ \", \".join(h) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "H, e, l, l, o,  , W, o, r, l, d"},
    {"{{ \"\".join([]) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, ""},
    {"{{ \"{} and {}\".format(1, \"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "1 and x"},
    {"{{ \"{1}{0}{1}\".format(\"a\", \"b\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "bab"},
    {"{{ \"{name}!\".format(name=\"N\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "N!"},
    {"{{ \"{0[k]} {1.a}\".format({\"k\": \"v\"}, {\"a\": 5}) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "v 5"},
    {"{{ \"{:>6}|{:<6}|{:^6}|{:*^7}\".format(\"ab\", \"cd\", \"ef\", \"g\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "    ab|cd    |  ef  |***g***"},
    {"{{ \"{:5d}|{:05d}|{:+d}|{:x}|{:#x}|{:o}|{:b}|{:,}|{:_}\".format(42, 42, 42, 255, 255, 8, 5, 1234567, 1234567) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "   42|00042|+42|ff|0xff|10|101|1,234,567|1_234_567"},
    {"{{ \"{:.2f}|{:10.3f}|{:e}|{:.1%}|{:g}|{}\".format(3.14159, 2.5, 12345.678, 0.256, 0.00001, 1.5) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "3.14|     2.500|1.234568e+04|25.6%|1e-05|1.5"},
    {"{{ \"{!r}|{!s}|{:>4}\".format(\"a\", \"b\", true) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "'a'|b|   1"},
    {"{{ \"{{}} {{x}} {}\".format(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "{} {x} 1"},
    {"{{ \"{:}\".format(2.0) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "2.0"},
    {"{{ \"{:.3}\".format(\"abcdef\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "abc"},
    {"{{ \"{:{w}}|\".format(\"a\", w=4) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "a   |"},
    {"{{ \"{0}{0}\".format(none) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "NoneNone"},
    {"{{ h.center(15, \"*\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "**Hello World**"},
    {"{{ h.ljust(13, \".\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "Hello World.."},
    {"{{ h.rjust(13) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "  Hello World"},
    {"{{ \"42\".zfill(5) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "00042"},
    {"{{ \"-42\".zfill(5) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "-0042"},
    {"{{ \"12\".isdigit() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"1a\".isdigit() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"\".isdigit() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"abc\".isalpha() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"ab1\".isalnum() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"  \".isspace() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"\".isspace() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"ABC\".isupper() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"Abc\".isupper() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"abc1\".islower() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"Hello World\".istitle() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"Hello world\".istitle() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"²\".isdigit() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"²\".isdecimal() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "False"},
    {"{{ \"½\".isnumeric() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "True"},
    {"{{ \"a=b=c\".partition(\"=\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "('a', '=', 'b=c')"},
    {"{{ \"a=b=c\".rpartition(\"=\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "('a=b', '=', 'c')"},
    {"{{ \"abc\".partition(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "('abc', '', '')"},
    {"{{ \"abc\".rpartition(\"x\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "('', '', 'abc')"},
    {"{{ \"prefix_x\".removeprefix(\"prefix_\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "x"},
    {"{{ \"x.txt\".removesuffix(\".txt\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "x"},
    {"{{ \"a\\nb\\r\\nc\\rd\".splitlines() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', 'c', 'd']"},
    {"{{ \"a\\nb\\n\".splitlines(true) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a\\n', 'b\\n']"},
    {"{{ \"a\\u2028b\\x1cc\".splitlines() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "['a', 'b', 'c']"},
    {"{{ \"\".splitlines() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "[]"},
    {"{{ h.casefold() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "hello world"},
    {"{{ \"ß\".casefold() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "ss"},
    {"{{ \"  x  \".strip(none) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_OK, "x"},
    {"{{ h.split(\"\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "empty separator"},
    {"{{ h.index(\"zz\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "substring not found"},
    {"{{ h.startswith(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "startswith first arg must be str or a tuple of str, not int"},
    {"{{ \"{}\".format() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "tuple index out of range"},
    {"{{ \"{0}{}\".format(1, 2) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "cannot switch from manual field specification to automatic field numbering"},
    {"{{ \"{x}\".format(y=1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "'x'"},
    {"{{ \"{\".format(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "Single '{' encountered in format string"},
    {"{{ \"}\".format(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "Single '}' encountered in format string"},
    {"{{ \"{:d}\".format(\"a\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "Unknown format code 'd' for object of type 'str'"},
    {"{{ \"{:s}\".format(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "Unknown format code 's' for object of type 'int'"},
    {"{{ h.join([1, 2]) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "sequence item 0: expected str instance, int found"},
    {"{{ h.center() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "center expected at least 1 argument, got 0"},
    {"{{ h.ljust(5, \"ab\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "The fill character must be exactly one character long"},
    {"{{ h.nosuchmethod() }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "'str object' has no attribute 'nosuchmethod'"},
    {"{{ h.upper(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "str.upper() takes no arguments (1 given)"},
    {"{{ h.strip(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "strip arg must be None or str"},
    {"{{ \"a\".partition(\"\") }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "empty separator"},
    {"{{ h.split(1) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "must be str or None, not int"},
    {"{{ \"{0:x}\".format(1.5) }}", "{\"s\": \"  a b\\tc \\n\", \"p\": \"a,b,,c\", \"h\": \"Hello World\", \"u\": \"　x y z \", \"g\": \"ǆemal ßtraße Σίσυφος\"}", JC_RENDER, "Unknown format code 'x' for object of type 'float'"},
    {"{% if 0 %}a{% elif \"\" %}b{% elif [1] %}c{% else %}d{% endif %}", "{}", JC_OK, "c"},
    {"{% if false %}a{% elif false %}b{% else %}c{% endif %}", "{}", JC_OK, "c"},
    {"{% if true %}{% if false %}x{% else %}y{% endif %}{% endif %}", "{}", JC_OK, "y"},
    {"{% for x in items %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }};{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "1032TrueFalse3;2121FalseFalse3;3210FalseTrue3;"},
    {"{% for x in items %}[{{ loop.previtem }}|{{ loop.nextitem }}]{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "[|b][a|c][b|]"},
    {"{% for x in items %}{{ loop.previtem is defined }}{{ loop.nextitem is defined }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "FalseTrueTrueTrueTrueFalse"},
    {"{% for x in items %}{{ loop.cycle(\"odd\", \"even\") }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "oddevenodd"},
    {"{% for x in [1, 1, 2, 3, 3] %}{% if loop.changed(x) %}{{ x }}{% endif %}{% endfor %}", "{}", JC_OK, "123"},
    {"{% for x in items %}{{ loop.depth }}{{ loop.depth0 }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "101010"},
    {"{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "x=1;y=2;"},
    {"{% for k in d %}{{ k }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "xy"},
    {"{% for a, b in pairs %}{{ a + b }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "37"},
    {"{% for (a, b) in pairs %}{{ a }}{{ b }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "1234"},
    {"{% for a, b in [[1, 2, 3]] %}{% endfor %}", "{}", JC_RENDER, "too many values to unpack (expected 2)"},
    {"{% for a, b in [[1]] %}{% endfor %}", "{}", JC_RENDER, "not enough values to unpack (expected 2, got 1)"},
    {"{% for a, b in [1] %}{% endfor %}", "{}", JC_RENDER, "cannot unpack non-iterable int object"},
    {"{% for a, b in [\"xy\"] %}{{ b }}{{ a }}{% endfor %}", "{}", JC_OK, "yx"},
    {"{% for c in \"héllo\" %}{{ c }}.{% endfor %}", "{}", JC_OK, "h.é.l.l.o."},
    {"{% for x in items if x != \"b\" %}{{ x }}{{ loop.index }}/{{ loop.length }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "a1/2c2/2"},
    {"{% for x in items if false %}{{ x }}{% else %}none{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "none"},
    {"{% for x in [] %}x{% else %}empty{% endfor %}", "{}", JC_OK, "empty"},
    {"{% for x in none %}{% endfor %}", "{}", JC_RENDER, "'NoneType' object is not iterable"},
    {"{% for x in 5 %}{% endfor %}", "{}", JC_RENDER, "'int' object is not iterable"},
    {"{% for x in items %}{% if x == \"b\" %}{% break %}{% endif %}{{ x }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "a"},
    {"{% for x in items %}{% if x == \"b\" %}{% continue %}{% endif %}{{ x }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "ac"},
    {"{% for x in items %}{% for y in items %}{% if y == \"b\" %}{% break %}{% endif %}{{ x }}{{ y }} {% endfor %}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "aa ba ca "},
    {"{% for i in range(3) %}{% for j in range(2) %}{{ loop.index }}{% endfor %}{{ loop.index }}|{% endfor %}", "{}", JC_OK, "121|122|123|"},
    {"{% for i in range(2) %}{% set outer = loop %}{% for j in range(2) %}{{ outer.index }}{{ loop.index }} {% endfor %}{% endfor %}", "{}", JC_OK, "11 12 21 22 "},
    {"{% for x in tree recursive %}{{ x.n }}{{ loop.depth }}{% if x.c %}({{ loop(x.c) }}){% endif %}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "a1(b2(c3))d1"},
    {"{% for x in tree recursive %}{{ loop.depth0 }}:{{ loop.index }}{{ loop(x.c) }}{% endfor %}", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "0:11:12:10:2"},
    {"{% for x in [] recursive %}{% else %}no{% endfor %}", "{}", JC_OK, "no"},
    {"{{ loop }}|{% for x in [1] %}{{ loop.length }}{% endfor %}", "{}", JC_OK, "|1"},
    {"{% for x in range(3) %}{{ x }}{% endfor %}{{ x }}|", "{}", JC_OK, "012|"},
    {"{% for x in items %}{% set last = x %}{% endfor %}{{ last }}|", "{\"items\": [\"a\", \"b\", \"c\"], \"d\": {\"x\": 1, \"y\": 2}, \"pairs\": [[1, 2], [3, 4]], \"tree\": [{\"n\": \"a\", \"c\": [{\"n\": \"b\", \"c\": [{\"n\": \"c\", \"c\": []}]}]}, {\"n\": \"d\", \"c\": []}]}", JC_OK, "|"},
    {"{% for i in range(5) %}{{ i }}{% if i == 2 %}{% break %}{% endif %}{% else %}E{% endfor %}", "{}", JC_OK, "012"},
    {"{% for x in {\"b\": 1, \"a\": 2}|dictsort %}{{ x[0] }}{% endfor %}", "{}", JC_OK, "ab"},
    {"{% for m in messages %}{% if loop.first and m.role == \"system\" %}[S:{{ m.content }}]{% elif m.role == \"user\" %}<u>{{ m.content }}{% else %}<a>{{ m.content }}{% endif %}{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "[S:Sys]<u>Hi<a>Hello<u>Bye"},
    {"{% for m in messages[1:] %}{{ m.role[0] }}{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "uau"},
    {"{% for m in messages|selectattr(\"role\", \"equalto\", \"user\") %}{{ m.content }}{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "HiBye"},
    {"{% for i in range(3, 0, -1) %}{{ i }}{% endfor %}|{% for i in range(0, 10, 3) %}{{ i }}{% endfor %}", "{}", JC_OK, "321|0369"},
    {"{{ range(5) }}|{{ range(1, 5) }}|{{ range(0, 10, 2) }}|{{ range(5)|list }}|{{ range(0) }}|{{ range(5, 0) }}", "{}", JC_OK, "range(0, 5)|range(1, 5)|range(0, 10, 2)|[0, 1, 2, 3, 4]|range(0, 0)|range(5, 0)"},
    {"{{ range(100001) }}", "{}", JC_RENDER, "Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."},
    {"{{ range(1, 2, 0) }}", "{}", JC_RENDER, "range() arg 3 must not be zero"},
    {"{{ range(1.5) }}", "{}", JC_RENDER, "'float' object cannot be interpreted as an integer"},
    {"{% break %}", "{}", JC_PARSE, "'break' outside loop"},
    {"{% for x in [1] %}{% macro m() %}{% continue %}{% endmacro %}{% endfor %}", "{}", JC_PARSE, "'continue' outside loop"},
    {"{% for x in [1, 2] %}{% filter upper %}a{% break %}{% endfilter %}{% endfor %}!", "{}", JC_OK, "!"},
    {"{% set x = 1 %}{% for i in [1, 2] %}{{ x }}{% set x = x + 1 %}{{ x }}{% endfor %}{{ x }}", "{}", JC_OK, "12121"},
    {"{% for i in range(3) %}{% if i == 0 %}{% set y = 5 %}{% endif %}[{{ y }}]{% endfor %}{{ y }}", "{}", JC_OK, "[5][][]"},
    {"{% if true %}{% set x = 1 %}{% endif %}{{ x }}", "{}", JC_OK, "1"},
    {"{% set a, b = 1, 2 %}{{ a }}{{ b }}{% set a, b = b, a %}{{ a }}{{ b }}", "{}", JC_OK, "1221"},
    {"{% set a, b = [3, 4] %}{{ a + b }}", "{}", JC_OK, "7"},
    {"{% set (a, b), c = [1, 2], 3 %}{{ a }}{{ b }}{{ c }}", "{}", JC_OK, "123"},
    {"{% set a, b = [1, 2, 3] %}", "{}", JC_RENDER, "too many values to unpack (expected 2)"},
    {"{% set x %}block {{ 1 + 1 }}{% endset %}[{{ x }}]", "{}", JC_OK, "[block 2]"},
    {"{% set x | upper %}block {{ \"a\" }}{% endset %}{{ x }}", "{}", JC_OK, "BLOCK A"},
    {"{% set x | trim | upper %}  b  {% endset %}[{{ x }}]", "{}", JC_OK, "[B]"},
    {"{% set x %}{% set y = 1 %}{% endset %}{{ y }}|", "{}", JC_OK, "|"},
    {"{% set ns = namespace(a=1, b=\"x\") %}{% for i in [1, 2, 3] %}{% set ns.a = ns.a + i %}{% endfor %}{{ ns.a }}{{ ns.b }}", "{}", JC_OK, "7x"},
    {"{% set ns = namespace() %}{% set ns.x = [] %}{% set ns.x = ns.x + [1] %}{{ ns.x }}{{ ns }}", "{}", JC_OK, "[1]<Namespace {'x': [1]}>"},
    {"{% set ns = namespace({\"a\": 1}, b=2) %}{{ ns.a }}{{ ns.b }}{{ ns.c }}|{{ ns.c is defined }}{{ ns[\"a\"] }}", "{}", JC_OK, "12|False1"},
    {"{% set x = 5 %}{% set x.y = 1 %}", "{}", JC_RENDER, "cannot assign attribute on non-namespace object"},
    {"{% set ns.y = 1 %}", "{}", JC_RENDER, "cannot assign attribute on non-namespace object"},
    {"{% set ns = namespace(found=false) %}{% for m in messages %}{% if m.role == \"assistant\" %}{% set ns.found = true %}{% endif %}{% endfor %}{{ ns.found }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "True"},
    {"{% set ns = namespace(n=0) %}{% macro inc() %}{% set ns.n = ns.n + 1 %}{% endmacro %}{{ inc() }}{{ inc() }}{{ ns.n }}", "{}", JC_OK, "2"},
    {"{% with a = 1, b = 2 %}{{ a + b }}{% set c = 3 %}{% endwith %}{{ a }}{{ c }}|", "{}", JC_OK, "3|"},
    {"{% with %}{% set q = 1 %}{{ q }}{% endwith %}{{ q }}|", "{}", JC_OK, "1|"},
    {"{% filter upper %}abc {{ \"d\" }}{% endfilter %}", "{}", JC_OK, "ABC D"},
    {"{% filter replace(\"a\", \"b\")|upper %}aaa{% endfilter %}", "{}", JC_OK, "BBB"},
    {"{% filter trim %}\n  x  \n{% endfilter %}|", "{}", JC_OK, "x|"},
    {"{% filter upper %}{% set y = 1 %}{% endfilter %}{{ y }}|", "{}", JC_OK, "|"},
    {"{% set x = 1 %}{% macro m() %}{{ x }}{% endmacro %}{% set x = 2 %}{{ m() }}", "{}", JC_OK, "2"},
    {"{% set x = [1, 2] %}{% set y = x %}{{ y }}{{ x is sameas y }}", "{}", JC_OK, "[1, 2]True"},
    {"{% set messages = messages[1:] %}{{ messages|length }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "3"},
    {"{% set s = \"abc\" %}{{ s }}{% set s = s ~ \"d\" %}{{ s }}", "{}", JC_OK, "abcabcd"},
    {"{% set d = {\"a\": 1} %}{% set d2 = dict(d, b=2) %}{{ d2 }}{{ dict(x=1) }}{{ dict([[\"k\", \"v\"]]) }}{{ dict() }}", "{}", JC_OK, "{'a': 1, 'b': 2}{'x': 1}{'k': 'v'}{}"},
    {"{% set c = cycler(\"a\", \"b\") %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}{% set _ = c.reset() %}{{ c.next() }}", "{}", JC_OK, "ababa"},
    {"{% set j = joiner(\"|\") %}{% for x in [1, 2, 3] %}{{ j() }}{{ x }}{% endfor %}{% set k = joiner() %}{{ k() }}{{ k() }}", "{}", JC_OK, "1|2|3, "},
    {"{{ namespace }}|{{ dict }}", "{}", JC_OK, "<class 'jinja2.utils.Namespace'>|<class 'dict'>"},
    {"{% macro m(a, b=2, c=\"x\") %}{{ a }}-{{ b }}-{{ c }}{% endmacro %}{{ m(1) }}|{{ m(1, 3) }}|{{ m(1, c=5) }}|{{ m(b=7, a=0) }}", "{}", JC_OK, "1-2-x|1-3-x|1-2-5|0-7-x"},
    {"{% macro m(a, b=a * 2) %}{{ a }},{{ b }}{% endmacro %}{{ m(3) }}|{{ m(3, 1) }}", "{}", JC_OK, "3,6|3,1"},
    {"{% macro m(a) %}[{{ a }}]{{ a is defined }}{% endmacro %}{{ m() }}", "{}", JC_OK, "[]False"},
    {"{% macro m() %}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, x=3) }}|{{ m() }}", "{}", JC_OK, "(1, 2){'x': 3}|(){}"},
    {"{% macro m(a) %}{{ a }}{{ varargs|length }}{% endmacro %}{{ m(1, 2, 3) }}", "{}", JC_OK, "12"},
    {"{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, 2) }}", "{}", JC_RENDER, "macro 'm' takes not more than 1 argument(s)"},
    {"{% macro m(a) %}{{ a }}{% endmacro %}{{ m(b=2) }}", "{}", JC_RENDER, "macro 'm' takes no keyword argument 'b'"},
    {"{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, a=2) }}", "{}", JC_RENDER, "macro 'm' takes no keyword argument 'a'"},
    {"{% macro m(a, b=1, c) %}{% endmacro %}", "{}", JC_PARSE, "non-default argument follows default argument"},
    {"{% macro fact(n) %}{% if n <= 1 %}1{% else %}{{ n * fact(n - 1)|int }}{% endif %}{% endmacro %}{{ fact(10) }}", "{}", JC_OK, "3628800"},
    {"{% macro r(x) %}{% if x is mapping %}{% for k, v in x.items() %}{{ k }}:{{ r(v) }};{% endfor %}{% else %}{{ x }}{% endif %}{% endmacro %}{{ r({\"a\": {\"b\": 1, \"c\": {\"d\": 2}}}) }}", "{}", JC_OK, "a:b:1;c:d:2;;;"},
    {"{% macro m() %}x{% endmacro %}{{ m }}|{{ m is callable }}|{{ m() ~ m() }}|{{ m()|length }}", "{}", JC_OK, "<Macro 'm'>|True|xx|1"},
    {"{% macro m() %}{% set v = 1 %}{{ v }}{% endmacro %}{{ m() }}{{ v }}|", "{}", JC_OK, "1|"},
    {"{% macro outer() %}{% macro inner() %}in{% endmacro %}{{ inner() }}{% endmacro %}{{ outer() }}{{ inner }}|", "{}", JC_OK, "in|"},
    {"{% macro m(x) %}{{ caller(x * 2) }}{% endmacro %}{% call(v) m(21) %}got {{ v }}{% endcall %}", "{}", JC_OK, "got 42"},
    {"{% macro wrap() %}<{{ caller() }}>{% endmacro %}{% call wrap() %}inside{% endcall %}", "{}", JC_OK, "<inside>"},
    {"{% macro m() %}{{ caller is defined }}{% endmacro %}{{ m() }}", "{}", JC_OK, "False"},
    {"{% macro m() %}{{ caller() }}{% endmacro %}{{ m() }}", "{}", JC_RENDER, "No caller defined"},
    {"{% macro m(items) %}{% for i in items %}{{ loop.index }}{{ i }}{% endfor %}{% endmacro %}{% for x in [1] %}{{ m([\"a\", \"b\"]) }}{% endfor %}", "{}", JC_OK, "1a2b"},
    {"{% macro m() %}{{ loop is defined }}{% endmacro %}{% for x in [1] %}{{ m() }}{% endfor %}", "{}", JC_OK, "False"},
    {"{% macro m(a, b) %}{{ a }}{{ b }}{% endmacro %}{{ m(*[1, 2]) }}{{ m(**{\"a\": 3, \"b\": 4}) }}{{ m(1, **{\"b\": 5}) }}", "{}", JC_OK, "123415"},
    {"{% macro m() %}{% endmacro %}[{{ m() }}]", "{}", JC_OK, "[]"},
    {"{% macro rec() %}{{ rec() }}{% endmacro %}{{ rec() }}", "{}", JC_RENDER, "maximum recursion depth exceeded"},
    {"{{ m() }}{% macro m() %}x{% endmacro %}", "{}", JC_RENDER, "'m' is undefined"},
    {"{{ raise_exception(\"custom failure\") }}", "{}", JC_RENDER, "template error: custom failure"},
    {"{% if messages[0].role != \"user\" %}{{ raise_exception(\"Roles must alternate\") }}{% endif %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_RENDER, "template error: Roles must alternate"},
    {"{{ strftime_now(\"%Y-%m-%d %H:%M:%S\") }}|{{ strftime_now(\"%d %b %Y\") }}|{{ strftime_now(\"%B %-d, %A %j\") }}|{{ strftime_now(\"%%|%z|%Z|\") }}", "{}", JC_OK, "2025-03-07 14:05:09|07 Mar 2025|March 7, Friday 066|%|||"},
    {"{% for x in y %}", "{}", JC_PARSE, "expected 'endfor' or 'else' to close the 'for' of line 1"},
    {"line\n{% if x %}\n{% for a in b %}\n{% endif %}", "{}", JC_PARSE, "line 4, column 4: unknown tag 'endif': expected 'endfor' or 'else' to close the 'for' of line 3"},
    {"{% endfor %}", "{}", JC_PARSE, "unknown tag 'endfor'"},
    {"{% foo %}", "{}", JC_PARSE, "unknown tag 'foo'"},
    {"{% do x %}", "{}", JC_PARSE, "unknown tag 'do'"},
    {"{{ 1 + }}", "{}", JC_PARSE, "line 1, column 8: unexpected 'end of print statement'"},
    {"{{ }}", "{}", JC_PARSE, "Expected an expression, got 'end of print statement'"},
    {"{{ x", "{}", JC_PARSE, "unexpected end of template"},
    {"{{ (1, 2 }}", "{}", JC_PARSE, "unexpected '}'"},
    {"{{ [1, 2) }}", "{}", JC_PARSE, "unexpected ')', expected ']'"},
    {"{{ x.1a }}", "{}", JC_PARSE, ""},
    {"{{ \"unterminated }}", "{}", JC_PARSE, "unexpected char"},
    {"{{ 1 ! 2 }}", "{}", JC_PARSE, "unexpected char '!'"},
    {"{% if %}{% endif %}", "{}", JC_PARSE, "Expected an expression, got 'end of statement block'"},
    {"{% if x %}", "{}", JC_PARSE, "expected 'elif' or 'else' or 'endif' to close the 'if' of line 1"},
    {"{% set 1 = 2 %}", "{}", JC_PARSE, "can't assign to 'const'"},
    {"{% set x.y.z = 1 %}", "{}", JC_PARSE, ""},
    {"{% for 1 in x %}{% endfor %}", "{}", JC_PARSE, "can't assign to"},
    {"{% for x y %}{% endfor %}", "{}", JC_PARSE, "expected token 'in', got 'y'"},
    {"{% macro %}{% endmacro %}", "{}", JC_PARSE, "expected token 'name', got 'end of statement block'"},
    {"{# unterminated", "{}", JC_PARSE, "Missing end of comment tag"},
    {"{% raw %}unterminated", "{}", JC_PARSE, "Missing end of raw directive"},
    {"{{ x is is y }}", "{}", JC_PARSE, ""},
    {"{{ f(a=1, 2) }}", "{}", JC_PARSE, "invalid syntax for function call expression"},
    {"{% call x %}{% endcall %}", "{}", JC_PARSE, "expected call"},
    {"{% extends \"base.html\" %}", "{}", JC_PARSE, "'extends' statement is not supported"},
    {"{% include \"x\" %}", "{}", JC_PARSE, "'include' statement is not supported"},
    {"{% import \"x\" as y %}", "{}", JC_PARSE, "'import' statement is not supported"},
    {"{% block b %}{% endblock %}", "{}", JC_PARSE, "'block' statement is not supported"},
    {"{{ \"\\x4\" }}", "{}", JC_PARSE, "truncated \\xXX escape"},
    {"{{ 1 }}{% endif %}", "{}", JC_PARSE, "unknown tag 'endif'"},
    {"{% for x in y %}{% else %}{% else %}{% endfor %}", "{}", JC_PARSE, "unknown tag 'else'"},
    {"{{ \"a\" ~ }}", "{}", JC_PARSE, "unexpected 'end of print statement'"},
    {"{% if x %}{% elif %}{% endif %}", "{}", JC_PARSE, "Expected an expression"},
    {"{{ x|default( }}", "{}", JC_PARSE, ""},
    {"{{ {1: 2, 3} }}", "{}", JC_PARSE, "expected token ':', got '}'"},
    {"{{ x[] }}", "{}", JC_RENDER, ""},
    {"{% set %}", "{}", JC_PARSE, ""},
    {"{{ t|length }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "19"},
    {"{{ t[0] }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "Ü"},
    {"{{ t[-1] }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "e"},
    {"{{ t[8:11] }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "日本語"},
    {"{{ t|upper }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "ÜNÏCÖDÉ 日本語 😀 NAÏVE"},
    {"{{ t|lower }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "ünïcödé 日本語 😀 naïve"},
    {"{{ t|title }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "Ünïcödé 日本語 😀 Naïve"},
    {"{{ t|capitalize }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "Ünïcödé 日本語 😀 naïve"},
    {"{{ t|reverse }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "evïan 😀 語本日 édöcïnÜ"},
    {"{{ t.split() }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "['Ünïcödé', '日本語', '😀', 'naïve']"},
    {"{{ t.find(\"日\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "8"},
    {"{{ t.index(\"😀\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "12"},
    {"{{ t|list|length }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "19"},
    {"{{ t|wordcount }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "3"},
    {"{{ t|center(30) }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "     Ünïcödé 日本語 😀 naïve      "},
    {"{{ t.ljust(25, \"·\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "Ünïcödé 日本語 😀 naïve······"},
    {"{{ t|replace(\"ï\", \"i\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "Ünicödé 日本語 😀 naive"},
    {"{{ \"ÉCOLE\"|lower }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "école"},
    {"{{ \"straße\"|upper }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "STRASSE"},
    {"{{ \"ﬃ\"|title }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "FFI"},
    {"{{ \"ǲ\"|lower }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "ǳ"},
    {"{{ \"aΣ b\"|lower }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "aς b"},
    {"{{ \"Σ\"|lower }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "σ"},
    {"{{ t|tojson }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "\"Ünïcödé 日本語 😀 naïve\""},
    {"{{ t|tojson(ensure_ascii=true) }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "\"\\u00dcn\\u00efc\\u00f6d\\u00e9 \\u65e5\\u672c\\u8a9e \\ud83d\\ude00 na\\u00efve\""},
    {"{{ [t] }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "['Ünïcödé 日本語 😀 naïve']"},
    {"{{ \"\\u00e9\" == \"é\" }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "True"},
    {"{{ \"é\" in t }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "True"},
    {"{{ t.count(\"ï\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "2"},
    {"{{ t.startswith(\"Ü\") }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "True"},
    {"{{ \"　 x 　\"|trim|length }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "1"},
    {"{{ t[::-1][0] }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "e"},
    {"{{ t.encode is defined }}", "{\"t\": \"Ünïcödé 日本語 😀 naïve\", \"e\": \"\"}", JC_OK, "True"},
    {"{{- bos_token }}\n{%- if messages[0]['role'] == 'system' %}\n    {%- set system_message = messages[0]['content']|trim %}\n    {%- set loop_messages = messages[1:] %}\n{%- else %}\n    {%- set system_message = \"\" %}\n    {%- set loop_messages = messages %}\n{%- endif %}\n{{- \"<|system|>\\n\" + system_message }}\n{%- if tools is not none %}\n    {{- \"\\nTools: \" }}\n    {%- for t in tools %}\n        {{- t | tojson(indent=2) }}\n        {{- \"\\n\\n\" }}\n    {%- endfor %}\n{%- endif %}\n{%- for message in loop_messages %}\n    {%- if message.role == \"user\" %}\n        {%- if message.content is string %}\n            {{- '<|user|>' + message.content }}\n        {%- else %}\n            {%- for part in message.content %}\n                {%- if part.type == \"text\" %}{{ part.text }}{% else %}<img>{% endif %}\n            {%- endfor %}\n        {%- endif %}\n    {%- elif message.role == \"assistant\" and message.tool_calls is defined %}\n        {%- for tc in message.tool_calls %}\n            {%- set tc = tc.function if tc.function is defined else tc %}\n            {{- '<call>{\"name\": \"' + tc.name + '\", \"arguments\": ' + tc.arguments|tojson + '}</call>' }}\n            {%- for k, v in tc.arguments.items() %}[{{ k }}={{ v }}]{% endfor %}\n        {%- endfor %}\n    {%- elif message.role == \"tool\" %}\n        {{- \"<tool>\" ~ message.content ~ \"</tool>\" }}\n    {%- endif %}\n{%- endfor %}\n{%- if add_generation_prompt %}\n    {{- '<|assistant|>\\n' }}\n{%- endif %}\n", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "<s><|system|>\nS\nTools: {\n  \"type\": \"function\",\n  \"function\": {\n    \"name\": \"f\",\n    \"description\": \"d\",\n    \"parameters\": {\n      \"type\": \"object\",\n      \"properties\": {\n        \"a\": {\n          \"type\": \"integer\"\n        }\n      }\n    }\n  }\n}\n\n<|user|>U1<call>{\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}</call>[a=1][b=x]<tool>{\"r\": 1}</tool>part1<img><|assistant|>\n"},
    {"{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}\n{%- for message in messages[::-1] %}\n    {%- set index = (messages|length - 1) - loop.index0 %}\n    {%- if ns.multi_step_tool and message.role == \"user\" and message.content is string %}\n        {%- set ns.multi_step_tool = false %}\n        {%- set ns.last_query_index = index %}\n    {%- endif %}\n{%- endfor %}\n{{- ns.last_query_index }}\n{%- for message in messages %}\n    {%- if message.content is string %}\n        {%- set content = message.content %}\n    {%- else %}\n        {%- set content = '' %}\n    {%- endif %}\n    {%- if '</think>' in content %}\n        {%- set reasoning_content = content.split('</think>')[0].rstrip('\\n').split('<think>')[-1].lstrip('\\n') %}\n    {%- endif %}\n    {{- message.role + ':' + content + '\\n' }}\n{%- endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "1system:S\nuser:U1\nassistant:\ntool:{\"r\": 1}\nuser:\n"},
    {"{%- macro render_props(props, indent) -%}\n{%- for name, p in props|dictsort -%}\n{{ indent }}{{ name }}: {{ p.type|default(\"any\") }}{% if p.description %} // {{ p.description }}{% endif %}\n\n{% endfor -%}\n{%- endmacro -%}\n{{ render_props({\"b\": {\"type\": \"string\", \"description\": \"B\"}, \"a\": {}}, \"  \") }}", "{}", JC_OK, "  a: any\n  b: string // B\n"},
    {"{{ messages|map(attribute=\"role\")|join(\",\") }}|{{ messages|selectattr(\"role\", \"equalto\", \"user\")|list|length }}|{{ (messages|last).role }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "system,user,assistant,tool,user|2|user"},
    {"{% for m in messages %}{{ m.content if m.content is string else m.content|map(attribute=\"type\")|join(\"+\") }};{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "S;U1;;{\"r\": 1};text+image;"},
    {"{{ \"x\" if tools else \"no tools\" }}|{{ tools|length if tools }}|{{ tools[0].function.parameters.properties.keys()|list }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "x|1|['a']"},
    {"{%- if messages[0].content is not string %}{{ raise_exception(\"bad\") }}{% endif %}ok", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "ok"},
    {"{% set content = \"<think>\\nreason\\n</think>\\n\\nanswer\" %}{{ content.split(\"</think>\")[-1].lstrip(\"\\n\") }}|{{ content.split(\"</think>\")[0].split(\"<think>\")[-1].strip() }}", "{}", JC_OK, "answer|reason"},
    {"{{ tools|tojson }}|{{ tools[0]|tojson(indent=4) }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"S\"}, {\"role\": \"user\", \"content\": \"U1\"}, {\"role\": \"assistant\", \"content\": \"\", \"tool_calls\": [{\"function\": {\"name\": \"f\", \"arguments\": {\"a\": 1, \"b\": \"x\"}}}]}, {\"role\": \"tool\", \"content\": \"{\\\"r\\\": 1}\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"part1\"}, {\"type\": \"image\"}]}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}], \"add_generation_prompt\": true, \"bos_token\": \"<s>\"}", JC_OK, "[{\"type\": \"function\", \"function\": {\"name\": \"f\", \"description\": \"d\", \"parameters\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"integer\"}}}}}]|{\n    \"type\": \"function\",\n    \"function\": {\n        \"name\": \"f\",\n        \"description\": \"d\",\n        \"parameters\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"a\": {\n                    \"type\": \"integer\"\n                }\n            }\n        }\n    }\n}"},
    {"{{ \"a\" \"b\" }}{{ (\"c\") }}{{ ((\"d\")) }}", "{}", JC_OK, "abcd"},
    {"{{ [1, [2, [3]]][1][1][0] }}{{ {\"a\": [1, {\"b\": 2}]}[\"a\"][1][\"b\"] }}", "{}", JC_OK, "32"},
    {"{{ 1 if 1 }}{{ 2 if 0 }}|", "{}", JC_OK, "1|"},
    {"{% print \"p\", 1 %}|", "{}", JC_OK, "p1|"},
    {"{{ \"%s\" % none }}{{ \"%d%%\" % 50 }}", "{}", JC_OK, "None50%"},
    {"{{ (\"a\", \"b\")|join }}{{ (\"a\",)|list }}", "{}", JC_OK, "ab['a']"},
    {"{{ x.y if x is defined else \"nope\" }}", "{}", JC_OK, "nope"},
    {"{{ 10 // 3 ~ \"\" ~ 10 % 3 }}", "{}", JC_OK, "31"},
    {"{{ -1|abs }}{{ -x|default(1) }}", "{}", JC_RENDER, ""},
    {"{{ -(1|abs) }}{{ (-1)|abs }}{{ - 1 }}", "{}", JC_OK, "-11-1"},
    {"{{ 2 * 3 is odd }}{{ 2 + 3 is odd }}", "{}", JC_OK, "23"},
    {"{{ not 1 in [1] }}{{ not (1 in [1]) }}", "{}", JC_OK, "FalseFalse"},
    {"{{ [1, 2]|sum + 1 }}{{ \"a\"|upper ~ \"b\"|upper }}", "{}", JC_OK, "4AB"},
    {"{{ 1 < 2 == true }}{{ (1 < 2) == true }}", "{}", JC_OK, "FalseTrue"},
    {"{{ 5 is divisibleby 5 and 6 is even }}", "{}", JC_OK, "True"},
    {"{% set x = 3 %}{{ x is gt 2 }}{{ x is in [3] }}", "{}", JC_OK, "TrueTrue"},
    {"{{ {\"a\": 1}.get(\"a\") }}{{ {\"a\": 1}.a }}{{ {\"a\": 1}[\"a\"] }}", "{}", JC_OK, "111"},
    {"{{ {1: 2}[1] }}{{ {1: 2}[1.0] }}{{ {1: 2}[true] }}{{ {\"1\": 2}[1] }}|", "{}", JC_OK, "222|"},
    {"{{ {1: \"a\", true: \"b\", 1.0: \"c\"} }}", "{}", JC_OK, "{1: 'c'}"},
    {"{{ [1, 2, 3]|select(\"ge\", 2)|list }}{{ [1, 2, 3]|reject(\"le\", 2)|list }}", "{}", JC_OK, "[2, 3][3]"},
    {"{{ \"abc\"[1] ~ \"abc\"[-1] }}{{ \"abc\"|reverse }}", "{}", JC_OK, "bccba"},
    {"{% set l = [3, 1, 2] %}{{ l|sort|first }}{{ l }}", "{}", JC_OK, "1[3, 1, 2]"},
    {"{{ \"a\\tb\"|wordcount }}{{ \"one  two\"|wordcount }}", "{}", JC_OK, "22"},
    {"{{ {\"a\": 1, \"b\": 2}|items|map(\"join\", \"=\")|join(\"&\") }}", "{}", JC_OK, "a=1&b=2"},
    {"{{ {\"a\": 1, \"b\": 2}|dictsort|map(\"join\", \"=\")|join(\"&\") }}", "{}", JC_OK, "a=1&b=2"},
    {"{{ {\"b\": 1, \"a\": 2}|dictsort|map(\"first\")|join }}", "{}", JC_OK, "ab"},
    {"{{ [[1, 2], [3, 4]]|map(\"sum\")|list }}{{ [[1, 2], [3, 4]]|map(\"join\", \"-\")|list }}", "{}", JC_OK, "[3, 7]['1-2', '3-4']"},
    {"{{ [{\"a\": {\"b\": 1}}, {\"a\": {\"b\": 2}}]|map(attribute=\"a.b\")|sum }}", "{}", JC_OK, "3"},
    {"{{ [{\"a\": [5, 6]}]|map(attribute=\"a.1\")|first }}", "{}", JC_OK, "6"},
    {"{{ messages|length > 2 and messages[-1].role == \"user\" }}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "True"},
    {"{% for m in messages if m.role != \"system\" %}{{ loop.index }}:{{ m.role }}{{ \",\" if not loop.last }}{% endfor %}", "{\"messages\": [{\"role\": \"system\", \"content\": \"Sys\"}, {\"role\": \"user\", \"content\": \"Hi\"}, {\"role\": \"assistant\", \"content\": \"Hello\"}, {\"role\": \"user\", \"content\": \"Bye\"}]}", JC_OK, "1:user,2:assistant,3:user"},
    {"{{ x|default(\"a\")|upper }}{{ (x or \"b\")|upper }}", "{}", JC_OK, "AB"},
    {"{{ \"Hello\"|safe + \" <b>\" }}|{{ \"<b>\" + \"x\"|safe }}|{{ \"a\"|safe ~ \"<\" }}|{{ [\"x\"|safe] }}|{{ \"<\"|safe|e }}|{{ (\"a\"|safe).upper() }}", "{}", JC_OK, "Hello &lt;b&gt;|&lt;b&gt;x|a<|[Markup('x')]|<|A"},
    {"{{ \"<>\"|escape + \"<\" }}|{{ (\"<\"|e)|length }}|{{ \"&amp;\"|safe|e }}|{{ 5|e }}|{{ none|e }}", "{}", JC_OK, "&lt;&gt;&lt;|4|&amp;|5|None"},
    {"{% set x = \"<p>\"|safe %}{{ x }}{{ x + \"&\" }}{{ x|string + \"&\" }}", "{}", JC_OK, "<p><p>&amp;<p>&amp;"},
    {"{{ \"Use the function '\"|safe + \"f<x>\" + \"' to '\"|safe + \"it's\" + \"'\" }}", "{}", JC_OK, "Use the function 'f&lt;x&gt;' to 'it&#39;s&#39;"},
    {"{{ x|upper }}{{ x.y|default(\"z\") }}", "{\"x\": {\"y\": null}}", JC_OK, "{'Y': NONE}None"},
    {"{{ d|dictsort(by=\"value\")|first|last }}", "{\"d\": {\"a\": 3, \"b\": 1, \"c\": 2}}", JC_OK, "1"},
    {"{{ [3, 1, 2]|sort(reverse=true)|list }}{{ [\"b\", \"a\"]|sort|join }}", "{}", JC_OK, "[3, 2, 1]ab"},
    {"{{ [{\"n\": 1}, {\"n\": 1}, {\"n\": 0}]|sort(attribute=\"n\")|map(attribute=\"n\")|list }}", "{}", JC_OK, "[0, 1, 1]"},
    {"{{ [\"B\", \"a\", \"C\"]|sort }}{{ [\"B\", \"a\", \"C\"]|sort(case_sensitive=true) }}{{ [\"é\", \"e\", \"f\"]|sort }}", "{}", JC_OK, "['a', 'B', 'C']['B', 'C', 'a']['e', 'f', 'é']"},
    {"{{ [1, none]|sort }}", "{}", JC_RENDER, ""},
    {"{{ [1.5, 1, true, 0]|sort }}", "{}", JC_OK, "[0, 1, True, 1.5]"},
    {"{% set y = [1, 2, 3] %}{{ y[1:]|sum }}{{ y[:1] + y[2:] }}{{ y|batch(2)|map(\"sum\")|list }}", "{}", JC_OK, "5[1, 3][3, 3]"},
    {"{{ 12345678901234|string|length }}{{ 0.1|string }}{{ 1e22|string }}{{ 1.0e-4|string }}", "{}", JC_OK, "140.11e+220.0001"},
    {"{{ 3.0 == 3 }}{{ 3.0|int }}{{ 3|float }}{{ \"3.0\"|float|int }}{{ 1e3|int }}", "{}", JC_OK, "True33.031000"},
    {"{{ 0.1 + 0.7 }}{{ 1 / 7 }}{{ 2 ** 0.5 }}{{ 10 / 4 }}{{ 3 * 1.1 }}", "{}", JC_OK, "0.79999999999999990.142857142857142851.41421356237309512.53.3000000000000003"},
    {"{{ 1e-7 }}|{{ 123e-10 }}|{{ 1.23456789e-5 }}|{{ 9.999999999999999e15 }}|{{ 1e15 + 0.5 }}|{{ 100000000000000000.0 }}", "{}", JC_OK, "1e-07|1.23e-08|1.23456789e-05|1e+16|1000000000000000.5|1e+17"},
    {"{{ 7[:2] }}|{{ none[1:] }}|{{ {\"k\": 1}[:2] }}|{{ (7[:2]) is defined }}|{{ (1 if true)[1:] }}|{{ \"abc\"[\"a\":] }}|", "{}", JC_OK, "|||False|||"},
    {"{% if 7[:2] is defined %}d{% else %}u{% endif %}{% set q = 7[:2] is defined %}{{ q }}", "{}", JC_OK, "uFalse"},
    {"{% set q = 7[:2] %}", "{}", JC_RENDER, "'int' object is not subscriptable"},
    {"{% set q = [7[:2] is defined] %}{{ q }}", "{}", JC_OK, "[False]"},
    {"{% set q = [1, 7[:2]] %}", "{}", JC_RENDER, "'int' object is not subscriptable"},
    {"{{ y[1:] }}", "{\"y\": 5}", JC_RENDER, "'int' object is not subscriptable"},
    {"{{ (false and x)[1:] }}|{{ (-1 if {\"k\": 1} else d)[::-1]|first|string }}|", "{}", JC_OK, "||"},
    {"{{ (7[:2]).x }}", "{}", JC_RENDER, "'int' object is not subscriptable"},
    {"{{ -2 ** 2 }}|{{ -2 ** x }}|{{ (-2) ** x }}|{{ -1.25 ** f }}|{{ (1 - 3) ** x }}|{{ x ** -1 }}|{{ -x ** 2 }}", "{\"x\": 2, \"f\": 2.5}", JC_OK, "4|-4|-4|-1.7469281074217107|-4|0.5|4"},
    {"{% macro m(a, b=b) %}[{{ a }}|{{ b }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}", "{\"b\": \"outer\"}", JC_OK, "[1|][1|2]"},
    {"{% macro m(a, b=[a, b]) %}{{ b }}{% endmacro %}{{ m(1) }}", "{\"b\": \"outer\"}", JC_OK, "[1, Undefined]"},
    {"{% macro m(a, b=(x >= b)) %}{{ b }}{% endmacro %}{{ m(1) }}", "{\"x\": 1, \"b\": 2}", JC_RENDER, "'b' is undefined"},
    {"{% macro m(a=1, b=a + 1, c=b * 2) %}{{ a }}{{ b }}{{ c }}{% endmacro %}{{ m() }}{{ m(5) }}{{ m(c=0) }}", "{}", JC_OK, "1245612120"},
    {"{{ l|truncate(5) }}|{{ x|truncate(3) }}|{{ \"ab\"|truncate(3) }}", "{\"l\": [1, 2]}", JC_OK, "[1, 2]||ab"},
    {"{{ l|truncate(3, leeway=0) }}", "{\"l\": [1, 2, 3, 4, 5]}", JC_RENDER, "'list' object has no attribute 'rsplit'"},
    {"{{ \"%s|\" % [1, 2] }}{{ \"a\" % [1] }}{{ \"a\" % {\"k\": 1} }}{{ \"a\" % x }}{{ \"%s\" % x }}|{{ \"a\" % range(2) }}", "{}", JC_OK, "[1, 2]|aaa|a"},
    {"{{ \"%(a)s\" % [1] }}", "{}", JC_RENDER, "list indices must be integers or slices, not str"},
    {"{{ \"%(a)s\" % x }}", "{}", JC_RENDER, "'x' is undefined"},
    {"{{ \"%s %s\" % [1, 2] }}", "{}", JC_RENDER, "not enough arguments for format string"},
    {"{{ \"a\" % \"b\" }}", "{}", JC_RENDER, "not all arguments converted during string formatting"},
    {"{{ (\"<a>\"|safe).replace(\"a\", \"<\") }}|{{ [(\"a b\"|safe).split()] }}|{{ (\"<a>\"|safe).upper() }}|{{ [(\"<a>\"|safe)[0]] }}", "{}", JC_OK, "<&lt;>|[[Markup('a'), Markup('b')]]|<A>|[Markup('<')]"},
    {"{{ (\"x\"|safe).join([\"<\", \"&\"]) }}|{{ [(\"a=b\"|safe).partition(\"=\")] }}|{{ (\"<\"|safe).startswith(\"<\") }}|{{ [(\"ab\"|safe)[1:]] }}", "{}", JC_OK, "&lt;x&amp;|[(Markup('a'), Markup('='), Markup('b'))]|True|[Markup('b')]"},
    {"{{ (\"%s<\"|safe) % \"<\" }}|{{ (\"%s|%r|%d\"|safe) % (\"<\"|safe, \"<\", 3) }}|{{ (\"%(a)s\"|safe) % {\"a\": \"&\"} }}|{{ [(\"a\"|safe) * 2] }}", "{}", JC_OK, "&lt;<|<|&#39;&lt;&#39;|3|&amp;|[Markup('aa')]"},
    {"{{ (\"a\"|safe).center(5, \"<\") }}", "{}", JC_RENDER, "The fill character must be exactly one character long"},
    {"{{ 5.real }}{{ 5.imag }}{{ 5.numerator }}{{ 5.denominator }}{{ true.real }}{{ 2.5.real }}{{ 2.5.imag }}{{ 5.bit_length() }}{{ 2.0.is_integer() }}", "{}", JC_OK, "505112.50.03True"},
    {"{{ x is callable }}{{ \"a\".encode is defined }}{{ \"a\".isascii() }}{{ \"é\".isascii() }}{{ {}.fromkeys is defined }}", "{}", JC_OK, "TrueTrueTrueFalseTrue"},
    {"{{ \"a\".encode() }}", "{}", JC_RENDER, "str.encode() is not supported"},
    {"{{ l|indent }}", "{\"l\": [1, \"\\n\"]}", JC_RENDER, ""},
    {"{{ 5|items is defined }}|{{ 5|items|list }}", "{}", JC_RENDER, "Can only get item pairs from a mapping."},
    {"{{ [[1], 5]|map(\"length\")|first }}|{{ [1, \"a\"]|map(\"upper\")|list }}", "{}", JC_OK, "1|['1', 'A']"},
    {"{{ [[1], 5]|map(\"length\")|list }}", "{}", JC_RENDER, "object of type 'int' has no len()"},
    {"{% set g = [[1], 5]|map(\"length\") %}{{ g|first }}{{ g|first }}", "{}", JC_RENDER, "object of type 'int' has no len()"},
    {"{% set g = [[1], [1, 2], 5]|map(\"length\") %}{{ g|first }}{{ g|first }}", "{}", JC_OK, "12"},
    {"{{ [1, 2]|batch(0)|list }}|{{ [1, 2]|batch(-1)|list }}|{{ [1, 2, 3]|slice(-2)|list }}|{{ []|slice(2)|list }}", "{}", JC_OK, "[[], [1, 2]]|[[1, 2]]|[]|[[], []]"},
    {"{{ \"{}\".format() }}", "{}", JC_RENDER, "tuple index out of range"},
    {"{{ \"{0\".format(1) }}", "{}", JC_RENDER, "expected '}' before end of string"},
    {"{% for x in [1, 2] %}{{ loop.revindex }}{{ loop|length }}{% endfor %}", "{}", JC_OK, "2212"},
    {"{% macro m(caller) %}{{ caller }}{% endmacro %}{{ m(1) }}", "{}", JC_PARSE, "When defining macros or call blocks the special \"caller\" argument must be omitted or be given a default."},
    {"{% macro m(caller=none) %}{{ caller }}{% endmacro %}{{ m(1) }}{{ m() }}", "{}", JC_OK, "1None"},
    {"{% set ns = namespace(a=namespace(b=1)) %}{% set ns.a.b = 2 %}", "{}", JC_PARSE, "expected token 'end of statement block', got '.'"},
    {"{% for x in [1, 2, 3] if loop is defined %}{{ x }}{% endfor %}|{% set l = [1, 2] %}{% for x in l %}{% set l = [9] %}{{ l }}{% endfor %}{{ l }}", "{}", JC_OK, "|[9][9][1, 2]"},
    {"{% macro outer() %}[{{ caller() }}]{% endmacro %}{% macro inner() %}({{ caller() }}){% endmacro %}{% call outer() %}{% call inner() %}x{% endcall %}{% endcall %}", "{}", JC_OK, "[(x)]"},
    {"{% macro a() %}A{% endmacro %}{% macro a() %}B{% endmacro %}{{ a() }}{% set n = a %}{{ n() }}{% set range = 5 %}{{ range }}", "{}", JC_OK, "BB5"},
    // END GENERATED CASES
};

// Prints s on one line with control bytes escaped (for failure messages).
static void show(const char *label, const char *s, size_t n) {
    fprintf(stderr, "    %s: \"", label);
    for (size_t i = 0; i < n && i < 600; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\n') fputs("\\n", stderr);
        else if (c == '\t') fputs("\\t", stderr);
        else if (c < 0x20 || c == 0x7f) fprintf(stderr, "\\x%02x", c);
        else fputc(c, stderr);
    }
    fputs(n > 600 ? "\"...\n" : "\"\n", stderr);
}

static void run_case(const struct jcase *c, size_t idx) {
    json_error_t je;
    json_t *vars = json_loads(c->vars, 0, &je);
    if (!vars) {
        CHECK(0, "case %zu: bad vars JSON: %s", idx, je.text);
        return;
    }
    struct jinja_tmpl *t = NULL;
    frink_status st = jinja_parse(c->tmpl, strlen(c->tmpl), &t);
    if (c->kind == JC_PARSE) {
        bool ok = st != FRINK_OK && strstr(frink_errmsg(), c->expect);
        CHECK(ok, "case %zu: expected a parse error containing \"%s\"; got %s", idx, c->expect,
              st == FRINK_OK ? "none" : frink_errmsg());
        if (!ok) show("template", c->tmpl, strlen(c->tmpl));
        jinja_free(t);
        json_decref(vars);
        return;
    }
    if (st != FRINK_OK) {
        CHECK(0, "case %zu: parse failed: %s", idx, frink_errmsg());
        show("template", c->tmpl, strlen(c->tmpl));
        json_decref(vars);
        return;
    }
    struct jinja_opts o = {.now = case_now};
    char *out = NULL;
    size_t len = 0;
    st = jinja_render(t, vars, &o, &out, &len);
    if (c->kind == JC_OK) {
        bool ok = st == FRINK_OK && len == strlen(c->expect) && memcmp(out, c->expect, len) == 0;
        CHECK(ok, "case %zu: render differs from jinja2%s%s", idx, st ? ": " : "", st ? frink_errmsg() : "");
        if (!ok) {
            show("template", c->tmpl, strlen(c->tmpl));
            show("expected", c->expect, strlen(c->expect));
            if (!st) show("got     ", out, len);
        }
    } else {
        bool ok = st != FRINK_OK && strstr(frink_errmsg(), c->expect);
        CHECK(ok, "case %zu: expected a render error containing \"%s\"; got %s", idx, c->expect,
              st == FRINK_OK ? "success" : frink_errmsg());
        if (!ok) {
            show("template", c->tmpl, strlen(c->tmpl));
            if (!st) show("got", out, len);
        }
    }
    free(out);
    jinja_free(t);
    json_decref(vars);
}

// ---- checks beyond the table --------------------------------------------------------------------

// Renders src with vars (JSON text) and max_steps; returns the status, the output in *out.
static frink_status render_str(const char *src, const char *vars_json, int max_steps, char **out, size_t *len) {
    struct jinja_tmpl *t;
    *out = NULL;
    frink_status st = jinja_parse(src, strlen(src), &t);
    if (st) return st;
    json_t *vars = vars_json ? json_loads(vars_json, 0, NULL) : NULL;
    struct jinja_opts o = {.now = case_now, .max_steps = max_steps};
    st = jinja_render(t, vars, &o, out, len);
    json_decref(vars);
    jinja_free(t);
    return st;
}

static void expect_fail(const char *src, const char *vars, int max_steps, frink_status want, const char *msg) {
    char *out;
    size_t len;
    frink_status st = render_str(src, vars, max_steps, &out, &len);
    CHECK(st == want && strstr(frink_errmsg(), msg), "%s: expected status %d with \"%s\", got %d: %s", src, want, msg, st,
          st ? frink_errmsg() : "(rendered)");
    free(out);
}

static void expect_out(const char *src, const char *vars, const char *want) {
    char *out;
    size_t len;
    frink_status st = render_str(src, vars, 0, &out, &len);
    CHECK(st == FRINK_OK && len == strlen(want) && !memcmp(out, want, len), "%s: expected \"%s\", got %s", src, want,
          st ? frink_errmsg() : out);
    free(out);
}

static void test_statuses(void) {
    // syntax errors are FRINK_ERR_FORMAT, refusals FRINK_ERR_UNSUPPORTED, both with line and column
    struct jinja_tmpl *t;
    CHECK(jinja_parse("a\n{{ 1 + }}", 11, &t) == FRINK_ERR_FORMAT && !t, "syntax error status");
    CHECK(strstr(frink_errmsg(), "line 2, column 8: unexpected 'end of print statement'") != NULL, "syntax error position: %s",
          frink_errmsg());
    CHECK(jinja_parse("{% for x in y %}\n\n   {% if a %}", 31, &t) == FRINK_ERR_FORMAT, "unclosed blocks");
    CHECK(strstr(frink_errmsg(), "line 3, column 14: unexpected end of template: expected 'elif' or 'else' or 'endif' to close "
                                 "the 'if' of line 3") != NULL,
          "unclosed if: %s", frink_errmsg());
    CHECK(jinja_parse("x\n  {% include 'a' %}", 20, &t) == FRINK_ERR_UNSUPPORTED, "include refused");
    CHECK(strstr(frink_errmsg(), "line 2, column 6:") != NULL, "include position: %s", frink_errmsg());
    CHECK(jinja_parse("{{ x|pprint }}", 14, &t) == FRINK_ERR_UNSUPPORTED, "pprint refused");
    CHECK(strstr(frink_errmsg(), "pprint") != NULL, "pprint named: %s", frink_errmsg());
    CHECK(jinja_parse("{{ x|nosuch }}", 14, &t) == FRINK_ERR_FORMAT, "unknown filter");
    CHECK(jinja_parse("", 0, &t) == FRINK_OK, "empty template");
    char *out = NULL;
    size_t len = 9;
    CHECK(jinja_render(t, NULL, NULL, &out, &len) == FRINK_OK && out && len == 0 && out[0] == 0, "empty render");
    free(out);
    json_t *arr = json_array();
    CHECK(jinja_render(t, arr, NULL, &out, &len) == FRINK_ERR_ARG && !out, "vars must be an object");
    json_decref(arr);
    jinja_free(t);
    jinja_free(NULL);

    // raise_exception: FRINK_ERR_ARG, the message exactly the template's words
    char *o2;
    frink_status st = render_str("{{ raise_exception('Only user and assistant roles are supported!') }}", NULL, 0, &o2, &len);
    CHECK(st == FRINK_ERR_ARG && !strcmp(frink_errmsg(), "template error: Only user and assistant roles are supported!"),
          "raise_exception: %d %s", st, frink_errmsg());
    // runtime errors name line and column
    expect_fail("\n\n  {{ 1 + 'a' }}", NULL, 0, FRINK_ERR_ARG, "line 3, column 8: unsupported operand type(s) for +: 'int' and 'str'");
    expect_fail("{% for m in messages %}\n{{ m.x.y }}{% endfor %}", "{\"messages\": [{}]}", 0, FRINK_ERR_ARG,
                "line 2, column 7: 'dict object' has no attribute 'x'");
    expect_fail("{% if true %}{{ 1|nosuch }}{% endif %}", NULL, 0, FRINK_ERR_ARG, "line 1, column 19: No filter named 'nosuch'");
    expect_fail("{% if true %}{{ 1|pprint }}{% endif %}", NULL, 0, FRINK_ERR_UNSUPPORTED, "the filter 'pprint' is not supported");
    expect_fail("{{ lipsum() }}", NULL, 0, FRINK_ERR_UNSUPPORTED, "lipsum");
}

static void test_budgets(void) {
    // the evaluation budget: loops and calls count; past it the render fails
    expect_fail("{% for i in range(100) %}{% for j in range(100) %}{% endfor %}{% endfor %}", NULL, 1000, FRINK_ERR_ARG,
                "evaluation budget of 1000 steps");
    expect_out("{% for i in range(10) %}{% endfor %}ok", NULL, "ok");
    expect_fail("{% macro m() %}{% endmacro %}{% for i in range(100) %}{{ m() }}{{ m() }}{% endfor %}", NULL, 150, FRINK_ERR_ARG,
                "steps");
    // the default budget stops a render of 10^10 iterations
    expect_fail("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", NULL, 0, FRINK_ERR_ARG,
                "evaluation budget of 10000000 steps");
    // strings that double each step run into the memory budget, not the machine's memory
    expect_fail("{% set ns = namespace(s='0123456789') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}",
                NULL, 1000, FRINK_ERR_ARG, "budget");
    expect_fail("{{ 'x' * 2000000000 }}", NULL, 1000, FRINK_ERR_ARG, "");
    expect_fail("{{ ('x' * 100000)|indent(1000000000) }}", NULL, 1000, FRINK_ERR_ARG, "budget");
    expect_fail("{{ [1] * 100000000 }}", NULL, 1000, FRINK_ERR_ARG, "");
    expect_fail("{{ '{:1000000000}'.format(1) }}", NULL, 1000, FRINK_ERR_ARG, "budget");
    expect_fail("{{ '%1000000000s' % 1 }}", NULL, 1000, FRINK_ERR_ARG, "budget");
    expect_fail("{{ 'ab'.center(2000000000) }}", NULL, 1000, FRINK_ERR_ARG, "budget");
    // recursion depth
    expect_fail("{% macro r(n) %}{{ r(n + 1) }}{% endmacro %}{{ r(0) }}", NULL, 0, FRINK_ERR_ARG, "maximum recursion depth");
    expect_fail("{% set t = [{'c': []}] %}{% for x in t recursive %}{{ loop(t) }}{% endfor %}", NULL, 0, FRINK_ERR_ARG,
                "maximum recursion depth");
}

static void test_nesting(void) {
    // syntax nested past the limit is refused, never a stack overflow
    char *src = malloc(100000);
    size_t n = 0;
    n += (size_t)sprintf(src + n, "{{ ");
    for (int i = 0; i < 5000; i++) src[n++] = '(';
    src[n++] = '1';
    for (int i = 0; i < 5000; i++) src[n++] = ')';
    n += (size_t)sprintf(src + n, " }}");
    struct jinja_tmpl *t;
    CHECK(jinja_parse(src, n, &t) != FRINK_OK && strstr(frink_errmsg(), "deep"), "deep parentheses: %s", frink_errmsg());
    n = 0;
    for (int i = 0; i < 3000; i++) n += (size_t)sprintf(src + n, "{%% if 1 %%}");
    CHECK(jinja_parse(src, n, &t) != FRINK_OK && strstr(frink_errmsg(), "deep"), "deep ifs: %s", frink_errmsg());
    n = 0;
    n += (size_t)sprintf(src + n, "{{ ");
    for (int i = 0; i < 3000; i++) n += (size_t)sprintf(src + n, "- ");
    n += (size_t)sprintf(src + n, "1 }}");
    CHECK(jinja_parse(src, n, &t) != FRINK_OK, "deep unary operators");
    n = 0;
    n += (size_t)sprintf(src + n, "{{ x");
    for (int i = 0; i < 3000; i++) n += (size_t)sprintf(src + n, "|trim");
    n += (size_t)sprintf(src + n, " }}");
    CHECK(jinja_parse(src, n, &t) == FRINK_OK, "long filter chains are flat: %s", frink_errmsg());
    jinja_free(t);
    // nested values as deep as JSON allows print and serialize
    n = 0;
    n += (size_t)sprintf(src + n, "{\"v\": ");
    for (int i = 0; i < 1000; i++) src[n++] = '[';
    for (int i = 0; i < 1000; i++) src[n++] = ']';
    n += (size_t)sprintf(src + n, "}");
    src[n] = 0;
    char *out;
    size_t len;
    CHECK(render_str("{{ v }}{{ v|tojson }}{{ v == v }}", src, 0, &out, &len) == FRINK_OK && len == 4004,
          "deep values: %s", frink_errmsg());
    free(out);
    free(src);
}

static void test_bytes(void) {
    // NUL bytes and bytes that are not UTF-8 pass through data, strings and filters
    const char src[] = "a\0b{{ '\xff\xfe' ~ x }}{{ '\xc3'|upper }}{{ ['\x80'] }}{{ '\xe2\x82'|length }}";
    struct jinja_tmpl *t;
    CHECK(jinja_parse(src, sizeof src - 1, &t) == FRINK_OK, "bytes parse: %s", frink_errmsg());
    json_t *vars = json_pack("{s:s}", "x", "\xc3\xa9");
    char *out;
    size_t len;
    CHECK(jinja_render(t, vars, NULL, &out, &len) == FRINK_OK, "bytes render: %s", frink_errmsg());
    const char want[] = "a\0b\xff\xfe\xc3\xa9\xc3['\\x80']2";
    CHECK(len == sizeof want - 1 && !memcmp(out, want, len), "bytes output (%zu bytes)", len);
    free(out);
    json_decref(vars);
    jinja_free(t);
    // a name of another script
    expect_out("{% set café = 1 %}{{ café }}", NULL, "1");
}

// One parsed template, rendered by several threads at once (it is immutable).
struct thread_arg {
    const struct jinja_tmpl *t;
    const json_t *vars;
    char *out;
    size_t len;
    frink_status st;
};

static void *render_thread(void *p) {
    struct thread_arg *a = p;
    for (int i = 0; i < 50; i++) {
        free(a->out);
        a->st = jinja_render(a->t, a->vars, NULL, &a->out, &a->len);
        if (a->st) break;
    }
    return NULL;
}

static void test_threads(void) {
    const char *src = "{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}{{ m.role|upper }}:"
                      "{{ m.content|trim|tojson }}{{ ' ' * 3 }}{{ 'x' if loop.last }}{% endfor %}{{ ns.n }}{{ [1.5, 'a'] }}";
    struct jinja_tmpl *t;
    CHECK(jinja_parse(src, strlen(src), &t) == FRINK_OK, "threads parse");
    json_t *vars = json_loads("{\"messages\": [{\"role\": \"user\", \"content\": \" hi \"}, {\"role\": \"assistant\", "
                              "\"content\": \"yo\"}]}",
                              0, NULL);
    struct thread_arg args[4] = {0};
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        args[i] = (struct thread_arg){t, vars, NULL, 0, FRINK_OK};
        pthread_create(&th[i], NULL, render_thread, &args[i]);
    }
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    const char *want = "USER:\"hi\"   ASSISTANT:\"yo\"   x2[1.5, 'a']";
    for (int i = 0; i < 4; i++) {
        CHECK(args[i].st == FRINK_OK && args[i].out && !strcmp(args[i].out, want), "thread %d: %s", i,
              args[i].out ? args[i].out : frink_errmsg());
        free(args[i].out);
    }
    json_decref(vars);
    jinja_free(t);
}

static void test_now(void) {
    // opts->now is the time strftime_now formats (local time; TZ=UTC here); 0 is the current time
    expect_out("{{ strftime_now('%Y-%m-%d %H:%M') }}", NULL, "2025-03-07 14:05");
    char *out;
    size_t len;
    struct jinja_tmpl *t;
    CHECK(jinja_parse("{{ strftime_now('%Y') }}", 24, &t) == FRINK_OK, "now parse");
    CHECK(jinja_render(t, NULL, NULL, &out, &len) == FRINK_OK && len == 4 && out[0] >= '2', "current year: %s", out);
    free(out);
    jinja_free(t);
}

int main(void) {
    setenv("TZ", "UTC", 1);
    tzset();
    size_t n = sizeof cases / sizeof *cases;
    for (size_t i = 0; i < n; i++) run_case(&cases[i], i);
    CHECK(n > 1000, "the generated table has %zu cases", n);
    test_statuses();
    test_budgets();
    test_nesting();
    test_bytes();
    test_threads();
    test_now();
    return TEST_DONE();
}
