"""A mock Hugging Face Hub on 127.0.0.1 for tests/hub/test_pull.py: never the network.

Two servers, as the real Hub has: the Hub itself (the API and /resolve/), and a "CDN" on another
port, to which /resolve/ redirects LFS files with a signed-looking URL, as huggingface.co sends
them to cdn-lfs.  The answers have the shapes the real ones have (recorded from huggingface.co's
/api/models/{repo}/refs, /api/models/{repo}/tree/{rev}?recursive=true and /resolve/ responses,
reduced to the fields clients read).

A repository is a dict: {"files": {path: bytes}, "gated": token or None, "behaviour": {path: B}},
where B says how the CDN misbehaves for that file:
  "drop-once"  the first request gets the headers of the whole file and half of it, then the
               connection closes; later requests are answered properly (Range honoured)
  "stingy"     every request gets at most 1/8 of the file, then the connection closes
  "corrupt"    the bytes served differ from the sha256 the tree lists (one byte flipped)
  "slow"       the body in 16 pieces over about 1.6 s (long enough for a progress line)
Every request is logged in Hub.log as a dict (server, path, range, auth).
"""

import hashlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlparse

PAGE = 4  # entries per page of a tree listing


def git_blob_oid(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class Hub:
    def __init__(self, repos):
        self.repos = repos
        self.log = []
        self.served = {}  # sha256 -> requests the CDN has answered for it
        self.lock = threading.Lock()
        for name, r in repos.items():
            r.setdefault("gated", None)
            r.setdefault("behaviour", {})
            r["commit"] = hashlib.sha1(name.encode()).hexdigest()
        self.blobs = {}  # sha256 -> (bytes, behaviour)
        for r in repos.values():
            for path, data in r["files"].items():
                sha = hashlib.sha256(data).hexdigest()
                self.blobs[sha] = (data, r["behaviour"].get(path))
        self.hub = ThreadingHTTPServer(("127.0.0.1", 0), self._handler("hub"))
        self.cdn = ThreadingHTTPServer(("127.0.0.1", 0), self._handler("cdn"))
        for s in (self.hub, self.cdn):
            s.daemon_threads = True
            threading.Thread(target=s.serve_forever, daemon=True).start()
        self.endpoint = "http://127.0.0.1:%d" % self.hub.server_address[1]
        self.cdn_base = "http://127.0.0.1:%d" % self.cdn.server_address[1]

    def close(self):
        for s in (self.hub, self.cdn):
            s.shutdown()
            s.server_close()

    def requests(self, server=None, contains=""):
        with self.lock:
            return [e for e in self.log if (server is None or e["server"] == server) and contains in e["path"]]

    def tree(self, r):
        out, dirs = [], set()
        for path, data in sorted(r["files"].items()):
            parts = path.split("/")
            for k in range(1, len(parts)):
                d = "/".join(parts[:k])
                if d not in dirs:
                    dirs.add(d)
                    out.append({"type": "directory", "oid": git_blob_oid(d.encode()), "size": 0, "path": d})
            e = {"type": "file", "oid": git_blob_oid(data), "size": len(data), "path": path}
            if path.endswith(".gguf"):  # the Hub keeps GGUFs (and anything large) in LFS
                e["lfs"] = {"oid": hashlib.sha256(data).hexdigest(), "size": len(data), "pointerSize": 134}
            out.append(e)
        return out

    def _handler(self, server):
        hub = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def send(self, code, body=b"", ctype="application/json", headers=()):
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for k, v in headers:
                    self.send_header(k, v)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def error(self, code, msg, error_code=None):
                h = [("X-Error-Code", error_code)] if error_code else []
                h.append(("X-Error-Message", msg))
                self.send(code, json.dumps({"error": msg}).encode(), headers=h)

            def do_HEAD(self):
                self.do_GET()

            def do_GET(self):
                with hub.lock:
                    hub.log.append({"server": server, "path": self.path, "range": self.headers.get("Range"),
                                    "auth": self.headers.get("Authorization")})
                if server == "cdn":
                    return self.cdn_get()
                return self.hub_get()

            # The Hub: /api/models/{user}/{repo}/refs, .../tree/{rev}, /{user}/{repo}/resolve/{rev}/{path}
            def hub_get(self):
                u = urlparse(self.path)
                parts = [unquote(p) for p in u.path.split("/")[1:]]
                api = parts[:2] == ["api", "models"]
                name = "/".join(parts[2:4] if api else parts[0:2])
                r = hub.repos.get(name)
                if r is None:
                    # As the Hub answers a repository that is not there (or hidden from this caller).
                    return self.error(404 if self.headers.get("Authorization") else 401,
                                      "Repository not found", "RepoNotFound")
                if r["gated"]:
                    auth = self.headers.get("Authorization")
                    if not auth:
                        return self.error(401, "Access to model %s is restricted. You must have access to it "
                                          "and be authenticated to access it. Please log in." % name, "GatedRepo")
                    if auth != "Bearer " + r["gated"]:
                        return self.error(403, "Access to model %s is restricted and you are not in the "
                                          "authorized list." % name, "GatedRepo")
                rest = parts[4:] if api else parts[2:]
                if api and rest == ["refs"]:
                    return self.send(200, json.dumps({
                        "branches": [{"name": "main", "ref": "refs/heads/main", "targetCommit": r["commit"]}],
                        "converts": [], "tags": []}).encode())
                if api and len(rest) == 2 and rest[0] == "tree" and rest[1] in ("main", r["commit"]):
                    # Pages of PAGE entries, the next one named by a Link header, as the Hub pages
                    # long listings.
                    q = parse_qs(u.query)
                    start = int(q.get("cursor", ["0"])[0])
                    entries = hub.tree(r)
                    page, h = entries[start:start + PAGE], []
                    if start + PAGE < len(entries):
                        h.append(("Link", '<%s%s?recursive=true&cursor=%d>; rel="next"' % (hub.endpoint, u.path, start + PAGE)))
                    return self.send(200, json.dumps(page).encode(), headers=h)
                if not api and len(rest) >= 3 and rest[0] == "resolve" and rest[1] in ("main", r["commit"]):
                    path = "/".join(rest[2:])
                    data = r["files"].get(path)
                    if data is None:
                        return self.error(404, "Entry not found", "EntryNotFound")
                    sha = hashlib.sha256(data).hexdigest()
                    common = [("X-Repo-Commit", r["commit"]), ("X-Linked-Size", str(len(data)))]
                    if path.endswith(".gguf"):  # LFS: a redirect to the CDN, as huggingface.co does
                        return self.send(302, b"", "text/plain", common + [
                            ("X-Linked-Etag", '"%s"' % sha), ("ETag", '"%s"' % git_blob_oid(data)),
                            ("Location", "%s/blobs/%s?X-Amz-Signature=mock" % (hub.cdn_base, sha))])
                    return self.send(200, data, "application/octet-stream", common + [("ETag", '"%s"' % git_blob_oid(data))])
                return self.error(404, "Not found")

            # The CDN: /blobs/{sha256}, with Range, and the misbehaviours above.
            def cdn_get(self):
                sha = urlparse(self.path).path.rsplit("/", 1)[-1]
                if sha not in hub.blobs:
                    return self.send(404, b"NoSuchKey", "text/plain")
                data, how = hub.blobs[sha]
                with hub.lock:
                    n = hub.served.get(sha, 0)
                    hub.served[sha] = n + 1
                if how == "corrupt":
                    data = data[:100] + bytes([data[100] ^ 1]) + data[101:]
                start, code = 0, 200
                rng = self.headers.get("Range")
                if rng and rng.startswith("bytes=") and rng.endswith("-"):
                    start = int(rng[6:-1])
                    if start >= len(data):
                        return self.send(416, b"", "text/plain", [("Content-Range", "bytes */%d" % len(data))])
                    code = 206
                body = data[start:]
                self.send_response(code)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", '"%s"' % sha)
                self.send_header("Accept-Ranges", "bytes")
                if code == 206:
                    self.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
                self.end_headers()
                cut = None
                if how == "drop-once" and n == 0:
                    cut = len(body) // 2
                elif how == "stingy":
                    cut = min(len(body), -(-len(data) // 8))
                if how == "slow":
                    step = -(-len(body) // 16)
                    for i in range(0, len(body), step):
                        self.wfile.write(body[i:i + step])
                        self.wfile.flush()
                        time.sleep(0.1)
                    return
                if cut is None or cut >= len(body):
                    self.wfile.write(body)
                    return
                # Part of the body, then the connection drops: the client sees a short transfer.
                self.wfile.write(body[:cut])
                self.wfile.flush()
                self.close_connection = True
                try:
                    self.connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        return H
