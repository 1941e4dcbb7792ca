#!/usr/bin/env python3
"""frink pull / ls / rm and -hf against a mock Hugging Face Hub (tests/hub/mockhub.py) on
127.0.0.1: quant tags as the reference matches them, split models fetched whole, a redirect to a
"CDN" host that must not see the token, a dropped connection resumed within one pull and a
stingy one resumed by a second pull, a wrong checksum refused with nothing cached, a gated repo
(401 without a token, 403 with a wrong one, success with HF_TOKEN), a 404, the cache layout
other tools read, --offline, ls, rm; then `frink run -hf` on the pulled file equals `frink run
-m` on the same file. Prints "N passed, M failed"; exits non-zero on a failure.

usage: test_pull.py [FRINK_BIN]   (default: $FRINK_BIN, else build/frink)
"""

import hashlib
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mockhub import Hub  # noqa: E402

FRINK = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FRINK_BIN", "build/frink")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
passed = failed = 0


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: %s%s" % (name, (": " + why) if why else ""))


def read(path, mode="r"):
    """The file's contents, or None when it is missing (a failed check, not a crash)."""
    try:
        with open(path, mode) as f:
            return f.read()
    except OSError:
        return None


def readlink(path):
    try:
        return os.readlink(path)
    except OSError:
        return None


def sha(b):
    return hashlib.sha256(b).hexdigest()


def main():
    tmp = tempfile.mkdtemp(prefix="frink-hub-test-")
    try:
        run_tests(tmp)
    except Exception as e:  # a check that could not even look (a file missing): a failure, reported
        import traceback
        traceback.print_exc()
        check("the test ran to its end", False, repr(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("tests/hub/test_pull.py: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


def run_tests(tmp):
    stories = open(os.path.join(ROOT, "models", "stories260K.gguf"), "rb").read()
    tiny_path = os.path.join(tmp, "tiny.gguf")
    r = subprocess.run([FRINK, "gen", "--preset", "qwen35-tiny", "--seed", "3", "-o", tiny_path], capture_output=True)
    check("frink gen writes a second small model", r.returncode == 0, r.stderr.decode())
    tiny = open(tiny_path, "rb").read()
    parts = [b"GGUF split part %d " % i * 1000 for i in (1, 2, 3)]
    token = "hf_" + "t" * 34
    repos = {
        "frink-test/tiny-GGUF": {"files": {
            "README.md": b"# tiny\n",
            "mmproj-tiny-Q4_K_M.gguf": b"not the model",
            "tiny-Q8_0.gguf": tiny,
            "tiny-Q4_K_M.gguf": stories,
            "split/tiny-Q2_K-00001-of-00003.gguf": parts[0],
            "split/tiny-Q2_K-00002-of-00003.gguf": parts[1],
            "split/tiny-Q2_K-00003-of-00003.gguf": parts[2],
        }},
        "frink-test/noq4-GGUF": {"files": {"a-F16.gguf": tiny, "b-Q8_0.gguf": stories}},
        "frink-test/flaky-GGUF": {"files": {"flaky-Q4_K_M.gguf": stories[:-8] + b"\2" * 8}, "behaviour": {"flaky-Q4_K_M.gguf": "drop-once"}},
        "frink-test/stingy-GGUF": {"files": {"stingy-Q4_K_M.gguf": tiny + b""}, "behaviour": {"stingy-Q4_K_M.gguf": "stingy"}},
        "frink-test/bad-GGUF": {"files": {"bad-Q4_K_M.gguf": stories[:-1] + b"\x01"}, "behaviour": {"bad-Q4_K_M.gguf": "corrupt"}},
        "frink-test/slow-GGUF": {"files": {"slow-Q4_K_M.gguf": stories[:-8] + b"\4" * 8},
                                 "behaviour": {"slow-Q4_K_M.gguf": "slow"}},
        "frink-test/gated-GGUF": {"files": {"gated-Q4_K_M.gguf": stories + b""}, "gated": token},
    }
    # The misbehaving files must be blobs of their own: the CDN's behaviour goes by sha256.
    repos["frink-test/stingy-GGUF"]["files"]["stingy-Q4_K_M.gguf"] = tiny[:-8] + b"\0" * 8
    repos["frink-test/gated-GGUF"]["files"]["gated-Q4_K_M.gguf"] = stories[:-8] + b"\0" * 8
    hub = Hub(repos)
    cache = os.path.join(tmp, "hub")
    env = dict(os.environ, HF_ENDPOINT=hub.endpoint, HF_HUB_CACHE=cache)
    for k in ("HF_TOKEN", "HF_HUB_OFFLINE", "HF_HOME"):
        env.pop(k, None)

    def frink(*args, extra=None):
        e = dict(env, **(extra or {}))
        p = subprocess.run([FRINK] + list(args), capture_output=True, env=e, timeout=120)
        return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")

    def repo_dir(name):
        return os.path.join(cache, "models--" + name.replace("/", "--"))

    try:
        # Help.
        for cmd in ("pull", "ls", "rm"):
            rc, out, _ = frink(cmd, "--help")
            check("frink %s --help" % cmd, rc == 0 and "example:" in out, out)
        rc, out, _ = frink("run", "--help")
        check("run --help lists -hf", rc == 0 and "-hf USER/REPO[:QUANT]" in out, out)

        # The default tag, Q4_K_M; the cache layout.
        name = "frink-test/tiny-GGUF"
        commit = hub.repos[name]["commit"]
        rc, out, err = frink("pull", name)
        d = repo_dir(name)
        link = os.path.join(d, "snapshots", commit, "tiny-Q4_K_M.gguf")
        check("pull: default tag Q4_K_M", rc == 0 and out.strip() == link, "rc %d out %r err %s" % (rc, out, err))
        check("pull: refs/main holds the commit", read(os.path.join(d, "refs", "main")) == commit)
        check("pull: the snapshot's file is a relative link to its blob",
              os.path.islink(link) and os.readlink(link) == "../../blobs/" + sha(stories), repr(os.path.islink(link) and os.readlink(link)))
        check("pull: the blob is the file", read(os.path.join(d, "blobs", sha(stories)), "rb") == stories)
        check("pull: no .incomplete left", not [f for f in os.listdir(os.path.join(d, "blobs")) if f.endswith(".incomplete")])
        check("pull: the mmproj (which matches Q4_K_M too) is not taken",
              not os.path.exists(os.path.join(d, "snapshots", commit, "mmproj-tiny-Q4_K_M.gguf")))
        pages = hub.requests("hub", "/api/models/%s/tree/" % name)
        check("pull: every page of the tree listing is read (Link: rel=next)",
              len(pages) == 2 and "cursor=4" in pages[1]["path"], repr(pages))
        lfs_reqs = hub.requests("cdn")
        check("pull: the LFS file came by the redirect to the CDN host", len(lfs_reqs) == 1, repr(lfs_reqs))

        # Pulled again: nothing downloaded.
        n_cdn = len(hub.requests("cdn"))
        rc, out, err = frink("pull", name + ":Q4_K_M")
        check("pull again: cached, nothing downloaded", rc == 0 and out.strip() == link and len(hub.requests("cdn")) == n_cdn, err)

        # A lower-case tag; a tag of no file lists the GGUF files.
        rc, out, err = frink("pull", name + ":q8_0")
        check("pull: tags match case-insensitively", rc == 0 and out.strip().endswith("/tiny-Q8_0.gguf"), err)
        rc, out, err = frink("pull", name + ":Q5_K_S")
        check("pull: a tag of no file is an error listing the GGUF files",
              rc == 1 and "Q5_K_S" in err and "tiny-Q8_0.gguf" in err and "split/tiny-Q2_K-00002-of-00003.gguf" in err, err)
        rc, out, err = frink("pull", name, "--hf-file", "tiny-Q8_0.gguf")
        check("pull --hf-file: the exact file", rc == 0 and out.strip().endswith("/tiny-Q8_0.gguf"), err)
        rc, out, err = frink("pull", "frink-test/noq4-GGUF")
        check("pull: no Q4_K_M falls back to Q8_0 (the reference's order)", rc == 0 and out.strip().endswith("/b-Q8_0.gguf"), err)

        # A split model: every part fetched, the first part's path printed; -hf refuses to load it.
        rc, out, err = frink("pull", name + ":Q2_K")
        sd = os.path.join(d, "snapshots", commit, "split")
        check("pull: a split model is fetched whole",
              rc == 0 and out.strip() == os.path.join(sd, "tiny-Q2_K-00001-of-00003.gguf") and
              all(read(os.path.join(sd, "tiny-Q2_K-%05d-of-00003.gguf" % i), "rb") == parts[i - 1] for i in (1, 2, 3)),
              "rc %d out %r err %s" % (rc, out, err))
        check("pull: a link in a subfolder climbs one folder more",
              readlink(os.path.join(sd, "tiny-Q2_K-00002-of-00003.gguf")) == "../../../blobs/" + sha(parts[1]))
        rc, out, err = frink("run", "-hf", name + ":Q2_K", "-p", "x", "-n", "1")
        check("run -hf: a split model is refused by name", rc == 1 and "split into 3 files" in err, err)

        # run -hf on the pulled file is run -m on it.
        rc, want, err = frink("run", "-m", tiny_path, "-p", "Once upon a time", "-n", "12", "--temp", "0")
        rc2, got, err2 = frink("run", "-hf", name + ":Q8_0", "-p", "Once upon a time", "-n", "12", "--temp", "0")
        check("run -hf equals run -m on the same file", rc == 0 and rc2 == 0 and got == want and got, "%r %r %s" % (want, got, err2))
        rc, out, err = frink("run", "-m", tiny_path, "-hf", name, "-p", "x", "-n", "1")
        check("-m and -hf together are a usage error", rc == 2 and "-hf" in err, err)

        # A connection dropped midway: resumed with a Range request in the same pull.
        rc, out, err = frink("pull", "frink-test/flaky-GGUF")
        fdata = hub.repos["frink-test/flaky-GGUF"]["files"]["flaky-Q4_K_M.gguf"]
        reqs = hub.requests("cdn", sha(fdata))
        check("drop midway: one pull completes it", rc == 0 and os.path.exists(out.strip()), err)
        check("drop midway: the retry asked for the rest (Range)", len(reqs) >= 2 and reqs[-1]["range"] == "bytes=%d-" % (len(fdata) // 2),
              repr(reqs))

        # Stingy: five tries are not enough; the .incomplete stays, nothing else; a second pull resumes.
        sname = "frink-test/stingy-GGUF"
        sdata = hub.repos[sname]["files"]["stingy-Q4_K_M.gguf"]
        sd = repo_dir(sname)
        rc, out, err = frink("pull", sname)
        inc = os.path.join(sd, "blobs", sha(sdata) + ".incomplete")
        have = os.path.getsize(inc) if os.path.exists(inc) else -1
        check("stingy: the first pull gives up after its tries", rc == 1 and "resumes it" in err, err)
        check("stingy: a partial download is left as .incomplete only", 0 < have < len(sdata) and
              not os.path.exists(os.path.join(sd, "blobs", sha(sdata))) and
              not os.path.exists(os.path.join(sd, "snapshots")), "have %d" % have)
        rc, out, err = frink("run", "-hf", sname, "--offline", "-p", "x", "-n", "1")
        check("stingy: the partial file is never taken for a model", rc == 1 and "not in the cache" in err, err)
        n_before = len(hub.requests("cdn", sha(sdata)))
        rc, out, err = frink("pull", sname)
        reqs = hub.requests("cdn", sha(sdata))[n_before:]
        check("stingy: a second pull resumes from the .incomplete",
              rc == 0 and reqs and reqs[0]["range"] == "bytes=%d-" % have, "%s %r" % (err, reqs[:1]))
        check("stingy: the resumed file is whole", rc == 0 and read(out.strip(), "rb") == sdata)

        # A wrong checksum: refused, nothing cached, nothing left behind.
        bname = "frink-test/bad-GGUF"
        rc, out, err = frink("pull", bname)
        bd = repo_dir(bname)
        blobs = os.listdir(os.path.join(bd, "blobs")) if os.path.isdir(os.path.join(bd, "blobs")) else []
        check("wrong checksum: refused", rc == 1 and "checksum mismatch" in err, err)
        check("wrong checksum: nothing enters the cache", blobs == [] and not os.path.exists(os.path.join(bd, "snapshots")), repr(blobs))

        # Gated: 401 without a token, 403 with a wrong one, success with HF_TOKEN; the CDN never sees it.
        gname = "frink-test/gated-GGUF"
        rc, out, err = frink("pull", gname)
        check("gated: 401 without a token names gated and the token", rc == 1 and "gated" in err and "HF_TOKEN" in err and "401" in err, err)
        rc, out, err = frink("pull", gname, "--hf-token", "hf_wrong")
        check("gated: 403 with a wrong token", rc == 1 and "403" in err and "token" in err, err)
        rc, out, err = frink("pull", gname, extra={"HF_TOKEN": token})
        check("gated: HF_TOKEN opens it", rc == 0 and os.path.exists(out.strip()), err)
        gsha = sha(hub.repos[gname]["files"]["gated-Q4_K_M.gguf"])
        hub_auth = [e["auth"] for e in hub.requests("hub", "gated")]
        cdn_auth = [e["auth"] for e in hub.requests("cdn", gsha)]
        check("gated: the token went to the Hub", "Bearer " + token in hub_auth, repr(hub_auth))
        check("gated: the redirect to the CDN host did not carry the token", cdn_auth and all(a is None for a in cdn_auth), repr(cdn_auth))

        # On a terminal: a progress line, erased at the end.
        pid, fd = pty.fork()
        if pid == 0:
            os.execve(FRINK, [FRINK, "pull", "frink-test/slow-GGUF"], env)
        tty = b""
        while True:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            tty += chunk
        _, status = os.waitpid(pid, 0)
        tty = tty.decode(errors="replace")
        check("on a terminal: progress while pulling", os.WEXITSTATUS(status) == 0 and "pulling slow-Q4_K_M.gguf" in tty and
              "MB/s" in tty and "\r\033[K" in tty, repr(tty[-400:]))

        # 404.
        rc, out, err = frink("pull", "frink-test/missing-GGUF", extra={"HF_TOKEN": token})
        check("404: repository not found", rc == 1 and "not found" in err and "404" in err, err)
        rc, out, err = frink("pull", "not-a-repo")
        check("a bad repository id is a usage error", rc == 2 and "user/repo" in err, err)

        # Offline: the cache answers; without the model there, a clear error. The endpoint is dead.
        dead = {"HF_ENDPOINT": "http://127.0.0.1:9"}
        rc, out, err = frink("pull", name + ":Q8_0", "--offline", extra=dead)
        check("--offline: the cache answers", rc == 0 and out.strip().endswith("/tiny-Q8_0.gguf"), err)
        rc, out, err = frink("run", "-hf", name + ":Q8_0", "-p", "Once upon a time", "-n", "12", "--temp", "0",
                             extra=dict(dead, HF_HUB_OFFLINE="1"))
        check("HF_HUB_OFFLINE=1: run -hf from the cache", rc == 0 and out == want, err)
        rc, out, err = frink("pull", "frink-test/other-GGUF", "--offline", extra=dead)
        check("--offline: not cached is a clear error", rc == 1 and "not in the cache" in err and "--offline" in err, err)
        rc, out, err = frink("pull", name + ":Q8_0", extra=dead)
        check("the Hub unreachable: the cache answers, with a warning", rc == 0 and "cannot reach" in err, err)

        # ls, rm.
        rc, out, err = frink("ls", "--json")
        try:
            items = json.loads(out)
        except ValueError:
            items = []
        files = {(i["repo"], i["file"]) for i in items}
        check("ls --json lists what is cached", rc == 0 and (name, "tiny-Q8_0.gguf") in files and
              (name, "split/tiny-Q2_K-00003-of-00003.gguf") in files and (sname, "stingy-Q4_K_M.gguf") in files and
              all(i["size"] > 0 and os.path.exists(i["path"]) for i in items), out + err)
        check("ls --json: nothing of the refused download", not any(i["repo"] == bname for i in items))
        rc, out, err = frink("ls")
        check("ls: a table", rc == 0 and "REPO" in out and "tiny-Q4_K_M.gguf" in out, out + err)
        rc, out, err = frink("rm", name + ":Q8_0")
        snap = os.path.join(d, "snapshots", commit)
        check("rm :Q8_0 removes its link and blob, keeps the others",
              rc == 0 and not os.path.lexists(os.path.join(snap, "tiny-Q8_0.gguf")) and
              not os.path.exists(os.path.join(d, "blobs", sha(tiny))) and os.path.exists(os.path.join(snap, "tiny-Q4_K_M.gguf")), err)
        rc, out, err = frink("rm", name + ":Q2_K")
        check("rm of a split model removes every part", rc == 0 and not os.path.exists(os.path.join(snap, "split")) and
              not any(os.path.exists(os.path.join(d, "blobs", sha(p))) for p in parts), err)
        rc, out, err = frink("rm", name + ":Q4_K_M")
        check("rm of the last file removes the repository", rc == 0 and not os.path.exists(d), err)
        rc, out, err = frink("rm", sname)
        check("rm USER/REPO removes it whole", rc == 0 and not os.path.exists(sd), err)
        rc, out, err = frink("rm", sname)
        check("rm of what is not cached is an error", rc == 1 and "not in the cache" in err, err)
    finally:
        hub.close()


if __name__ == "__main__":
    main()
