"""hf_jinja.py — the jinja2 environment Hugging Face transformers renders chat templates with,
shared by the generators of frink's expected renders (scripts/make-template-golden.py,
tests/jinja/make_cases.py): ImmutableSandboxedEnvironment with trim_blocks, lstrip_blocks, loop
controls and the {% generation %} tag; raise_exception, strftime_now at a fixed time, and
transformers' tojson.
"""
import datetime
import json

import jinja2
import jinja2.ext
import jinja2.nodes
import jinja2.sandbox


class GenerationBlock(jinja2.ext.Extension):
    """{% generation %}body{% endgeneration %} renders body, as transformers' AssistantTracker does
    when no assistant mask is requested."""
    tags = {'generation'}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(['name:endgeneration'], drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method('_generation_support'), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        return caller()


def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def make_env(now):
    """The environment; strftime_now formats `now` (seconds since the epoch) in UTC."""
    fixed = datetime.datetime.fromtimestamp(now, datetime.timezone.utc).replace(tzinfo=None)
    env = jinja2.sandbox.ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[GenerationBlock, jinja2.ext.loopcontrols])
    env.filters['tojson'] = tojson
    env.globals['raise_exception'] = raise_exception
    env.globals['strftime_now'] = lambda fmt: fixed.strftime(fmt)
    return env
