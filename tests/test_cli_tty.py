#!/usr/bin/env python3
# test_cli_tty.py BIN — `frink run` on a terminal (a pseudo-terminal: stdout and stderr both on
# it, as a person runs it), driven by tests/test_cli.c. Prints "ok NAME" or "FAIL NAME: why", a
# line per check.
#
#   progress   a prefill of one 2-second batch shows its status line from the first second
#              (the old status line came only after the first batch), on a line of its own:
#              replayed through a small terminal model, the screen ends with the prompt whole,
#              the text after it, and the speed line; no status line is left.
#   Ctrl-C     during the generation: the run stops, the newline and the speed line come, exit
#              130; during the prefill: "interrupted", exit 130; twice: killed at once.
#   serve      a model load that takes 2 s (an LD_PRELOAD shim makes mapping the file slow)
#              shows `frink serve: loading M, 1 s` after the listening line, erased before
#              the ready line.
import os
import subprocess
import pty
import re
import select
import signal
import sys
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/frink"
LONG = "Once upon a time there was a little dog. " * 300  # ~3300 tokens


def check(name, ok, why=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + why[-600:]), flush=True)


class Term:
    """A child on a pseudo-terminal; what it writes, with the time each piece arrived."""

    def __init__(self, args):
        self.t0 = time.monotonic()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execvp(args[0], args)
        self.chunks = []  # (seconds since start, bytes)
        self.status = None

    def read(self, seconds):
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return
            try:
                b = os.read(self.fd, 65536)
            except OSError:
                return
            if not b:
                return
            self.chunks.append((time.monotonic() - self.t0, b))

    def text(self):
        return b"".join(c for _, c in self.chunks).decode("utf-8", "replace")

    def first(self, pattern):
        """Seconds at which the output first matched pattern (None: never)."""
        acc = b""
        for t, c in self.chunks:
            acc += c
            if re.search(pattern, acc.decode("utf-8", "replace")):
                return t
        return None

    def wait(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.read(0.05)
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.read(0.2)
                self.status = st
                return st
        os.kill(self.pid, signal.SIGKILL)
        self.status = os.waitpid(self.pid, 0)[1]
        return None

    def ctrl_c(self):
        os.write(self.fd, b"\x03")  # the terminal turns it into SIGINT


def screen(text):
    """The lines a terminal shows after text: \\r returns, ESC[K erases to the end, \\n ends a line."""
    lines, cur, col = [], [], 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = re.match(r"\x1b\[([0-9;]*)([A-Za-z])", text[i:])
            if m:
                if m.group(2) == "K":
                    del cur[col:]
                i += m.end()
                continue
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(cur))
            cur, col = [], 0
        else:
            if col < len(cur):
                cur[col] = ch
            else:
                cur.append(ch)
            col += 1
        i += 1
    if cur:
        lines.append("".join(cur))
    return lines


prompt_file = "/tmp/frink-cli-tty-prompt.txt"
with open(prompt_file, "w") as f:
    f.write(LONG)

# progress: one batch of the whole prompt on one thread takes about 2 s.
t = Term([BIN, "run", "-f", prompt_file, "-n", "8", "-c", "8192", "-b", "4096", "-t", "1", "--temp", "0"])
st = t.wait(60)
out = t.text()
shown = t.first(r"frink: prefill 0/\d+ tokens, 1 s")
check("the prefill's status line appears within the first 2 s, before the batch ends", shown is not None and shown < 2.0,
      f"first at {shown}; {out[:300]!r}")
check("the run exits 0", st is not None and os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0, f"status {st}")
def screen_checks(what, out):
    lines = [l for l in screen(out) if l]
    body = next((l for l in lines if l.startswith(LONG.rstrip())), None)
    check(f"{what}: on the screen, the prompt whole, the text after it on its line",
          body is not None and len(body) > len(LONG.rstrip()), repr(lines[:3])[:400])
    check(f"{what}: on the screen, the speed line last, no status line left", lines and lines[-1].startswith("frink: prefill ")
          and "tok/s), decode" in lines[-1] and not any(re.search(r"tokens(, .*)?, \d+ s(  *left)? *$", l) for l in lines),
          repr(lines[-3:]))


screen_checks("one batch", out)
# batches of 512 (a status line redrawn after each): the echoed prompt must survive them
t = Term([BIN, "run", "-f", prompt_file, "-n", "8", "-c", "8192", "-b", "512", "-t", "1", "--temp", "0"])
t.wait(60)
screen_checks("batches of 512", t.text())

# Ctrl-C during the generation (reference kernels: a few hundred tokens a second, for minutes).
t = Term([BIN, "run", "-p", "Once upon a time", "-n", "-1", "-c", "8192", "--ignore-eos", "--reference", "-t", "1"])
t.read(1.0)
t.ctrl_c()
t0 = time.monotonic()
st = t.wait(10)
dt = time.monotonic() - t0
out = t.text()
lines = screen(out)
check("Ctrl-C in the generation: exit 130 within a second", st is not None and os.WIFEXITED(st) and os.WEXITSTATUS(st) == 130
      and dt < 1.0, f"status {st} after {dt:.2f} s")
speed = re.match(r"frink: prefill \d+ tokens in [\d.]+ ms \([\d.]+ tok/s\), decode (\d+) tokens", lines[-1] if lines else "")
check("Ctrl-C in the generation: the text (from the prompt on), a newline, then the speed line of the tokens made",
      len(lines) >= 2 and lines[0].startswith("Once upon a time") and lines[-2].strip() != "" and speed and int(speed.group(1)) > 50,
      repr(lines[-3:])[:400])

# Ctrl-C during a prefill (reference kernels, batches of 512: ~1.5 s each).
t = Term([BIN, "run", "-f", prompt_file, "-n", "8", "-c", "8192", "-b", "512", "--reference", "-t", "1"])
t.read(0.5)
t.ctrl_c()
st = t.wait(20)
out = t.text()
check("Ctrl-C in the prefill: exit 130 after the step, saying so", st is not None and os.WIFEXITED(st) and
      os.WEXITSTATUS(st) == 130 and "interrupted during the prefill" in out, f"status {st}; {out[-300:]!r}")

# Twice: the second kills it without waiting for the step (one batch of the whole prompt).
t = Term([BIN, "run", "-f", prompt_file, "-n", "8", "-c", "8192", "-b", "4096", "--reference", "-t", "1"])
t.read(0.5)
t.ctrl_c()
t.read(0.3)
t.ctrl_c()
t0 = time.monotonic()
st = t.wait(10)
dt = time.monotonic() - t0
check("a second Ctrl-C kills at once", st is not None and os.WIFSIGNALED(st) and os.WTERMSIG(st) == signal.SIGINT and dt < 1.0,
      f"status {st} after {dt:.2f} s")
os.unlink(prompt_file)

# serve: the weights' load under a shim that makes each shared mapping of a file take 2 s.
SHIM = r'''
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>
void *mmap(void *a, size_t n, int prot, int flags, int fd, off_t off) {
    static void *(*real)(void *, size_t, int, int, int, off_t);
    if (!real) real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    if (fd >= 0 && (flags & MAP_SHARED)) sleep(2);
    return real(a, n, prot, flags, fd, off);
}
'''
shim_c, shim_so = "/tmp/frink-tty-slowmap.c", "/tmp/frink-tty-slowmap.so"
with open(shim_c, "w") as f:
    f.write(SHIM)
built = subprocess.run(["cc", "-shared", "-fPIC", "-o", shim_so, shim_c, "-ldl"], capture_output=True)
if built.returncode:
    check("serve: the load's status line (the shim builds)", False, built.stderr.decode())
else:
    os.environ["LD_PRELOAD"] = shim_so
    os.environ["ASAN_OPTIONS"] = os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0"
    model = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models", "stories260K.gguf")
    t = Term([BIN, "serve", "--port", "0", "-m", model, "-np", "1"])
    t.read(0.1)
    del os.environ["LD_PRELOAD"]
    end = time.monotonic() + 20
    while time.monotonic() < end and "ready" not in t.text():
        t.read(0.5)
    os.kill(t.pid, signal.SIGTERM)
    st = t.wait(10)
    out = t.text()
    lines = [l for l in screen(out) if l]
    listen, shown, ready = t.first(r"listening on"), t.first(r"frink serve: loading stories260K.gguf, 1 s"), t.first(r" ready: ")
    check("serve: a 2-second load shows its status line from the first second, after the listening line, before ready",
          None not in (listen, shown, ready) and listen < shown < ready and shown - listen < 2.0,
          f"listening {listen}, status {shown}, ready {ready}; {out[-400:]!r}")
    check("serve: on the screen, no status line left; listening, then ready", len(lines) >= 2 and "listening on" in lines[0]
          and any(" ready: " in l for l in lines[1:]) and not any(re.search(r"loading .*, \d+ s *$", l) for l in lines), repr(lines[:4]))
    os.unlink(shim_c)
    os.unlink(shim_so)
