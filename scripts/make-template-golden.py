#!/usr/bin/python3
"""Writes tests/data/templates/expected/: every chat template under tests/data/templates rendered
with every conversation under tests/data/templates/conversations by Python's jinja2, set up the way
Hugging Face transformers sets it up (transformers/utils/chat_template_utils.py). tests/test_template.c
renders the same pairs with frink's engine and compares byte for byte. Only this script needs Python.

    scripts/make-template-golden.py [--import LLAMA_TEMPLATES_DIR]

--import first copies the model templates shipped with llama.cpp (models/templates/*.jinja) into
tests/data/templates, names kept. Every run also reads tokenizer.chat_template from the vocabulary
GGUF files (tests/data/vocab/*.gguf) and adds, as gguf-vocab-<name>.jinja, each template that is not
already in the set.

The environment, as transformers builds it:
  - jinja2.sandbox.ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with the
    loopcontrols extension and an extension for {% generation %} ... {% endgeneration %} that
    renders the body (transformers' AssistantTracker, without the mask bookkeeping);
  - filters['tojson'] = json.dumps with ensure_ascii off, indent/separators/sort_keys passed on;
  - globals['raise_exception'](msg) raises jinja2.exceptions.TemplateError(msg);
  - globals['strftime_now'](fmt) formats a FIXED time, 2026-01-15 12:00:00 (a naive datetime: the
    local time of a process running with TZ=UTC). The test passes jinja_opts.now = 1768478400 with
    TZ=UTC, the same instant.

The variables of a pair: the conversation's JSON object (messages, tools, add_generation_prompt and
extras such as enable_thinking), completed by the rule below, which tests/test_template.c repeats:
  - tools and documents: None (JSON null) when absent — transformers always passes both;
  - add_generation_prompt: False when absent (transformers' default);
  - bos_token "<s>", eos_token "</s>" when absent (transformers passes the tokenizer's special
    tokens; a conversation may give its own, e.g. Llama 3's "<|begin_of_text|>").

Output, per pair, expected/<template>/<conversation>.txt: the render, UTF-8, exactly; or
<conversation>.err when jinja2 raises — raise_exception or any other error while parsing or
rendering: a first line naming the kind ("raise_exception", or the Python exception's class such as
TypeError, UndefinedError, SecurityError), then the exception's message (str(e)), no newline after.
expected/VERSION names the Python and jinja2 that wrote the files. Use Debian's python3-jinja2
(apt-get install python3-jinja2; the files were written with its 3.1.2): its dist-packages is put
first on sys.path so that another installed copy cannot shadow it.
"""
import datetime
import glob
import json
import os
import shutil
import struct
import sys

DEBIAN_DIST = '/usr/lib/python3/dist-packages'
if os.path.isdir(os.path.join(DEBIAN_DIST, 'jinja2')):
    sys.path.insert(0, DEBIAN_DIST)

import jinja2  # noqa: E402
import jinja2.ext  # noqa: E402
import jinja2.nodes  # noqa: E402
import jinja2.sandbox  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
TDIR = os.path.join(ROOT, 'tests', 'data', 'templates')
CDIR = os.path.join(TDIR, 'conversations')
EDIR = os.path.join(TDIR, 'expected')
VOCAB_GLOB = os.path.join(ROOT, 'tests', 'data', 'vocab', '*.gguf')

FIXED_NOW_T = 1768478400  # 2026-01-15 12:00:00 UTC, the time strftime_now formats
DEFAULT_BOS, DEFAULT_EOS = '<s>', '</s>'


# ---- GGUF metadata: just enough to read tokenizer.chat_template -------------------------------
def gguf_metadata(path):
    with open(path, 'rb') as f:
        d = f.read()
    if d[:4] != b'GGUF':
        raise ValueError('%s: not a GGUF file' % path)
    o = 8  # magic, version (u32)
    scalar = {0: 'B', 1: 'b', 2: 'H', 3: 'h', 4: 'I', 5: 'i', 6: 'f', 7: '?', 10: 'Q', 11: 'q', 12: 'd'}

    def take(fmt):
        nonlocal o
        v = struct.unpack_from('<' + fmt, d, o)[0]
        o += struct.calcsize('<' + fmt)
        return v

    def string():
        nonlocal o
        n = take('Q')
        v = d[o:o + n]
        o += n
        return v.decode('utf-8')

    def value(t):
        if t == 8:
            return string()
        if t == 9:
            at, n = take('I'), take('Q')
            return [value(at) for _ in range(n)]
        return take(scalar[t])

    take('Q')  # tensor count
    meta = {}
    for _ in range(take('Q')):
        k = string()
        meta[k] = value(take('I'))
    return meta


def import_templates(src_dir):
    n = 0
    for p in sorted(glob.glob(os.path.join(src_dir, '*.jinja'))):
        shutil.copyfile(p, os.path.join(TDIR, os.path.basename(p)))
        n += 1
    print('imported %d templates from %s' % (n, src_dir))


def import_gguf_templates():
    have = {}
    for p in glob.glob(os.path.join(TDIR, '*.jinja')):
        with open(p, encoding='utf-8') as f:
            have[f.read().rstrip('\n')] = os.path.basename(p)
    for p in sorted(glob.glob(VOCAB_GLOB)):
        t = gguf_metadata(p).get('tokenizer.chat_template')
        if not isinstance(t, str):
            continue
        name = 'gguf-vocab-' + os.path.basename(p)[len('ggml-vocab-'):-len('.gguf')] + '.jinja'
        if t.rstrip('\n') in have:
            print('%s: chat template already in the set as %s' % (os.path.basename(p), have[t.rstrip('\n')]))
            continue
        with open(os.path.join(TDIR, name), 'w', encoding='utf-8', newline='') as f:
            f.write(t)
        have[t.rstrip('\n')] = name
        print('%s: chat template added as %s' % (os.path.basename(p), name))


# ---- the environment transformers renders with: scripts/hf_jinja.py ----------------------------
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hf_jinja  # noqa: E402


def make_env():
    return hf_jinja.make_env(FIXED_NOW_T)


def variables(conv):
    v = dict(conv)
    v.setdefault('tools', None)
    v.setdefault('documents', None)
    v.setdefault('add_generation_prompt', False)
    v.setdefault('bos_token', DEFAULT_BOS)
    v.setdefault('eos_token', DEFAULT_EOS)
    return v


def main(argv):
    if len(argv) == 3 and argv[1] == '--import':
        import_templates(argv[2])
    elif len(argv) != 1:
        sys.exit(__doc__)
    import_gguf_templates()

    env = make_env()
    templates = sorted(glob.glob(os.path.join(TDIR, '*.jinja')))
    convs = sorted(glob.glob(os.path.join(CDIR, '*.json')))
    if os.path.isdir(EDIR):
        shutil.rmtree(EDIR)
    os.makedirs(EDIR)
    with open(os.path.join(EDIR, 'VERSION'), 'w') as f:
        f.write('python %s\njinja2 %s (%s)\nstrftime_now: %s\n' % (
            sys.version.split()[0], jinja2.__version__, os.path.dirname(jinja2.__file__),
            datetime.datetime.fromtimestamp(FIXED_NOW_T, datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S')))

    pairs = renders = errors = nbytes = 0
    kinds = {}
    for tp in templates:
        tname = os.path.basename(tp)[:-len('.jinja')]
        odir = os.path.join(EDIR, tname)
        os.makedirs(odir)
        with open(tp, encoding='utf-8', newline='') as f:
            src = f.read()
        try:
            tmpl, perr = env.from_string(src), None
        except jinja2.exceptions.TemplateError as e:
            tmpl, perr = None, e
        for cp in convs:
            cname = os.path.basename(cp)[:-len('.json')]
            with open(cp, encoding='utf-8') as f:
                conv = json.load(f)
            pairs += 1
            try:
                if perr:
                    raise perr
                out, ext = tmpl.render(**variables(conv)), '.txt'
                renders += 1
            except Exception as e:  # noqa: BLE001 — any jinja2 error is an expected outcome
                kind = 'raise_exception' if type(e) is jinja2.exceptions.TemplateError else type(e).__name__
                out, ext = kind + '\n' + str(e), '.err'
                errors += 1
                kinds[kind] = kinds.get(kind, 0) + 1
            data = out.encode('utf-8')
            nbytes += len(data)
            with open(os.path.join(odir, cname + ext), 'wb') as f:
                f.write(data)
    print('%d templates x %d conversations = %d pairs: %d renders, %d errors (%s); %.1f KB' % (
        len(templates), len(convs), pairs, renders, errors,
        ', '.join('%s %d' % kv for kv in sorted(kinds.items())), nbytes / 1024))


if __name__ == '__main__':
    main(sys.argv)
