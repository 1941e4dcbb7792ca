#!/usr/bin/env python3
"""test_http: the HTTP layer of `frink serve` seen from the wire (Python 3 stdlib only).

Starts `$FRINK_BIN serve --port 0 ...` (default build/frink), reads the port from the line
with "http://HOST:PORT" it prints once listening, and checks raw HTTP behaviour: routing
(404, 405), error shapes (OpenAI's, Anthropic's under /v1/messages), API keys, CORS, body
limits (Content-Length and chunked), malformed bodies, slow and trickling clients, the web
chat's files at / (types, ETag / 304, gzip; 404 under --no-webui; open under an API key), and
that the server still answers after each of those. One line per check, then a summary line;
exit status 1 when a check failed.
"""
import gzip
import http.client
import json
import os
import select
import socket
import subprocess
import sys
import tempfile
import time

FRINK_BIN = os.environ.get("FRINK_BIN", "build/frink")
START_TIMEOUT = float(os.environ.get("FRINK_START_TIMEOUT", "180"))
TIMEOUT_S = 2          # --timeout given to the servers under test
MAX_BODY = 4096        # --max-body given to the main server
ORIGIN_OK = "http://ok.example"
ORIGIN_BAD = "http://evil.example"
API_KEY = "test-key-0123456789"

passed = 0
failed = 0


def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}{': ' + detail if detail else ''}")
    sys.stdout.flush()
    return cond


class Server:
    """A `frink serve` process on a free port."""

    def __init__(self, *flags):
        self.log = tempfile.NamedTemporaryFile(prefix="frink-serve-", suffix=".log", delete=False)
        self.proc = subprocess.Popen([FRINK_BIN, "serve", "--port", "0", *flags], stdout=subprocess.PIPE,
                                     stderr=self.log, stdin=subprocess.DEVNULL)
        self.host, self.port = None, None
        deadline = time.time() + START_TIMEOUT
        buf = b""
        while time.time() < deadline and self.port is None:
            r, _, _ = select.select([self.proc.stdout], [], [], 0.5)
            if r:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                buf += chunk
                for line in buf.decode("utf-8", "replace").splitlines():
                    if "http://" in line:
                        url = line[line.index("http://") + 7:].split()[0].rstrip("/.,")
                        host, _, port = url.rpartition(":")
                        self.host, self.port = host.strip("[]"), int(port)
            elif self.proc.poll() is not None:
                break
        if self.port is None:
            self.stop()
            raise RuntimeError(f"server did not print its address; stderr: {self.stderr()[-2000:]}")
        if self.host in ("0.0.0.0", "::", ""):
            self.host = "127.0.0.1"

    def stderr(self):
        try:
            with open(self.log.name, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:
            os.unlink(self.log.name)
        except OSError:
            pass

    def conn(self, timeout=30):
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, timeout=60):
        """(status, headers as a lower-cased dict, body bytes)"""
        c = self.conn(timeout)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            data = r.read()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, data
        finally:
            c.close()

    def sock(self, timeout=30):
        s = socket.create_connection((self.host, self.port), timeout=timeout)
        return s

    def wait_ready(self, timeout=START_TIMEOUT):
        """Polls /health until 200 (it answers 503 while the model loads)."""
        deadline = time.time() + timeout
        last = None
        while time.time() < deadline:
            try:
                last = self.request("GET", "/health", timeout=10)
                if last[0] == 200:
                    return last
            except OSError:
                pass
            time.sleep(0.2)
        return last


def raw_response(sock):
    """Parses one HTTP response from a connected socket: (status, headers dict, body) or None
    when the server closed the connection without one."""
    r = http.client.HTTPResponse(sock)
    try:
        r.begin()
        body = r.read()
    except (http.client.HTTPException, OSError):
        return None
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def jbody(data):
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return None


def is_openai_error(j, etype=None):
    if not isinstance(j, dict) or not isinstance(j.get("error"), dict):
        return False
    e = j["error"]
    if not isinstance(e.get("message"), str) or not isinstance(e.get("type"), str):
        return False
    if "param" not in e or "code" not in e:
        return False
    return etype is None or e["type"] == etype


def is_anthropic_error(j, etype=None):
    if not isinstance(j, dict) or j.get("type") != "error" or not isinstance(j.get("error"), dict):
        return False
    e = j["error"]
    if not isinstance(e.get("message"), str) or not isinstance(e.get("type"), str):
        return False
    return etype is None or e["type"] == etype


def closed_within(sock, seconds):
    """Does the server close (or reset) the connection within `seconds`? Reads and discards
    whatever it sends (a 408 is fine)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        sock.settimeout(max(0.05, deadline - time.time()))
        try:
            if not sock.recv(65536):
                return True
        except socket.timeout:
            return False
        except OSError:
            return True
    return False


def still_answers(srv, name):
    try:
        st, _, _ = srv.request("GET", "/health", timeout=10)
    except OSError as e:
        return check(f"{name}: server still answers", False, str(e))
    return check(f"{name}: server still answers", st == 200 and srv.alive(), f"status {st}")


# ---- checks on the main server ---------------------------------------------------------------

def test_basics(srv):
    res = srv.wait_ready()
    check("GET /health is 200 once loaded", res is not None and res[0] == 200, f"got {res and res[0]}")
    if res:
        st, h, body = res
        check("/health is JSON", isinstance(jbody(body), dict), repr(body[:200]))
        check("/health Content-Type application/json", h.get("content-type", "").startswith("application/json"),
              h.get("content-type", ""))
        check("Server: frink/VERSION", h.get("server", "").startswith("frink/"), h.get("server", ""))

    st, h, body = srv.request("HEAD", "/health")
    check("HEAD /health is 200 without a body", st == 200 and body == b"", f"{st} {body[:80]!r}")

    st, h, body = srv.request("GET", "/v1/no/such/route")
    j = jbody(body)
    check("unknown route is 404", st == 404, f"status {st}")
    check("404 in OpenAI's error shape", is_openai_error(j, "not_found_error"), repr(body[:300]))
    check("404 message names the path", is_openai_error(j) and "/v1/no/such/route" in j["error"]["message"],
          repr(body[:300]))
    check("404 is application/json", h.get("content-type", "").startswith("application/json"))

    st, h, body = srv.request("POST", "/v1/messages/nope", body=b"{}", headers={"Content-Type": "application/json"})
    check("unknown route under /v1/messages: 404 in Anthropic's shape",
          st == 404 and is_anthropic_error(jbody(body), "not_found_error"), f"{st} {body[:300]!r}")

    st, h, body = srv.request("POST", "/health", body=b"{}")
    check("POST /health is 405", st == 405, f"status {st}")
    check("405 has Allow: GET", "GET" in h.get("allow", ""), h.get("allow", "(none)"))
    check("405 is a JSON error", is_openai_error(jbody(body)), repr(body[:200]))
    st, h, body = srv.request("GET", "/v1/chat/completions")
    check("GET /v1/chat/completions is 405 with Allow: POST", st == 405 and "POST" in h.get("allow", ""),
          f"{st} {h.get('allow')}")
    st, h, body = srv.request("GET", "/v1/messages")
    check("GET /v1/messages: 405 in Anthropic's shape", st == 405 and is_anthropic_error(jbody(body)),
          f"{st} {body[:200]!r}")

    # Keep-alive: several requests on one connection, errors included.
    c = srv.conn()
    try:
        statuses = []
        for path in ("/no-such", "/health", "/v1/nope", "/health"):
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            statuses.append(r.status)
        check("keep-alive: four requests on one connection", statuses == [404, 200, 404, 200], str(statuses))
    except (OSError, http.client.HTTPException) as e:
        check("keep-alive: four requests on one connection", False, repr(e))
    finally:
        c.close()

    st, h, body = srv.request("GET", "/v1/models")
    check("GET /v1/models is 200 JSON (no key configured)", st == 200 and isinstance(jbody(body), dict),
          f"{st} {body[:200]!r}")
    st, h, body = srv.request("GET", "/models")
    check("GET /models is 200", st == 200, f"status {st}")


def test_body_limits(srv):
    # Content-Length over the limit: refused before the body is read.
    for path, anthropic in (("/v1/chat/completions", False), ("/v1/messages", True)):
        s = srv.sock(timeout=15)
        try:
            s.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      f"Content-Length: 67108864\r\n\r\n{{\"model\":".encode())
            res = raw_response(s)
        finally:
            s.close()
        ok = res is not None and res[0] == 413
        check(f"64 MiB Content-Length on {path} is 413 at once", ok, f"got {res and res[0]}")
        if res:
            j = jbody(res[2])
            if anthropic:
                check("413 in Anthropic's shape (request_too_large)", is_anthropic_error(j, "request_too_large"),
                      repr(res[2][:300]))
            else:
                check("413 in OpenAI's shape", is_openai_error(j), repr(res[2][:300]))
    still_answers(srv, "after the 64 MiB Content-Length")

    # A chunked upload has no length to check up front: it is counted as it arrives.
    s = srv.sock(timeout=20)
    try:
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        piece = b"[" + b" " * 1022 + b"]"
        try:
            for _ in range(4 * MAX_BODY // len(piece)):
                s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may stop reading; its answer is still there to read
        res = raw_response(s)
    finally:
        s.close()
    check("chunked upload over --max-body is 413", res is not None and res[0] == 413, f"got {res and res[0]}")
    if res:
        check("chunked 413 is a JSON error", is_openai_error(jbody(res[2])), repr(res[2][:300]))
    still_answers(srv, "after the chunked upload")

    # A chunked body under the limit is read whole (it reaches the handler: not 413).
    s = srv.sock(timeout=30)
    try:
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        body = b'{"messages": 5}'
        for i in range(0, len(body), 4):
            part = body[i:i + 4]
            s.sendall(b"%x\r\n%s\r\n" % (len(part), part))
        s.sendall(b"0\r\n\r\n")
        res = raw_response(s)
    finally:
        s.close()
    check("chunked body under the limit reaches the handler (400 for messages: 5)",
          res is not None and res[0] == 400 and is_openai_error(jbody(res[2])), f"got {res and res[:3]}")

    # Headers past the 64 KiB connection memory.
    s = srv.sock(timeout=15)
    try:
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (100 * 1024) + b"\r\n\r\n")
        res = raw_response(s)
    except OSError:
        res = None
    finally:
        s.close()
    check("100 KiB of headers refused (431/413 or closed)", res is None or res[0] in (400, 413, 431),
          f"got {res and res[0]}")
    still_answers(srv, "after the huge header")


def test_malformed(srv):
    cases = [
        ("bad JSON", b'{"messages": [', None),
        ("truncated string", b'{"messages": "abc', None),
        ("not an object (array)", b'[1, 2, 3]', None),
        ("not an object (string)", b'"hello"', None),
        ("empty body", b'', None),
        ("invalid UTF-8", b'{"messages": [{"role": "user", "content": "\xff\xfe\xc3"}]}', None),
        ("overlong UTF-8", b'{"messages": [{"role": "user", "content": "\xc0\xaf"}]}', None),
        ("NUL byte in the body", b'{"messages": [{"role": "user", "content": "a\x00b"}]}', None),
        ("200-deep nesting", b'{"messages": ' + b"[" * 200 + b"]" * 200 + b"}", None),
        ("100000-deep nesting", b"[" * 100000, None),
    ]
    for name, body, _ in cases:
        for path, anthropic in (("/v1/chat/completions", False), ("/v1/messages", True)):
            try:
                st, h, data = srv.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            except OSError as e:
                check(f"{name} on {path}: 400 JSON", False, repr(e))
                continue
            j = jbody(data)
            shape = is_anthropic_error(j, "invalid_request_error") if anthropic else is_openai_error(
                j, "invalid_request_error")
            # A body that does not fit --max-body is 413, which is right too.
            ok = (st == 400 and shape) or (st == 413 and len(body) > MAX_BODY)
            check(f"{name} on {path}: 400 JSON", ok, f"{st} {data[:200]!r}")
    still_answers(srv, "after the malformed bodies")

    # Garbage on the wire instead of HTTP.
    for name, payload in (("garbage request line", b"GARBAGE\r\n\r\n"),
                          ("bad Content-Length", b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                                                 b"Content-Length: abc\r\n\r\n{}"),
                          ("binary junk", bytes(range(256)) * 4)):
        s = srv.sock(timeout=10)
        try:
            s.sendall(payload)
            res = raw_response(s)
        except OSError:
            res = None
        finally:
            s.close()
        check(f"{name}: 4xx or closed", res is None or 400 <= res[0] < 500, f"got {res and res[0]}")
    still_answers(srv, "after the garbage")


def test_slow_clients(srv):
    # Half the headers, then silence: dropped after --timeout.
    s = srv.sock(timeout=20)
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: app")
    t0 = time.time()
    # Others are answered meanwhile.
    st, _, _ = srv.request("GET", "/health", timeout=10)
    check("others are answered while a client stalls", st == 200, f"status {st}")
    closed = closed_within(s, TIMEOUT_S * 3 + 2)
    s.close()
    check(f"half-sent headers dropped after --timeout {TIMEOUT_S}", closed,
          f"still open after {time.time() - t0:.1f} s")

    # Silence after the headers, body missing.
    s = srv.sock(timeout=20)
    s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":")
    t0 = time.time()
    closed = closed_within(s, TIMEOUT_S * 3 + 2)
    s.close()
    check("half-sent body dropped after --timeout", closed, f"still open after {time.time() - t0:.1f} s")

    # A byte every half --timeout: never idle long enough for the idle timer, cut at twice --timeout.
    def trickle(prefix, total_bytes, limit):
        s = srv.sock(timeout=20)
        s.sendall(prefix)
        t0 = time.time()
        cut = False
        got = b""
        try:
            for _ in range(total_bytes):
                s.sendall(b"a")
                r, _, _ = select.select([s], [], [], TIMEOUT_S / 2)
                if r:
                    try:
                        chunk = s.recv(65536)
                    except OSError:
                        cut = True
                        break
                    got += chunk
                    if not chunk:
                        cut = True
                        break
                if time.time() - t0 > limit:
                    break
        except OSError:
            cut = True
        if not cut:
            cut = closed_within(s, 1)
        s.close()
        return cut, time.time() - t0, got

    cut, dt, _ = trickle(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ", 1000, TIMEOUT_S * 2 + 6)
    check("headers trickled a byte at a time are cut near twice --timeout", cut and dt < TIMEOUT_S * 2 + 5,
          f"cut={cut} after {dt:.1f} s")
    cut, dt, got = trickle(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", 1000,
                           TIMEOUT_S * 2 + 6)
    check("body trickled a byte at a time is cut near twice --timeout", cut and dt < TIMEOUT_S * 2 + 5,
          f"cut={cut} after {dt:.1f} s")
    check("trickled body answered 408", got.startswith(b"HTTP/1.1 408"), repr(got[:60]))
    still_answers(srv, "after the slow clients")


def test_streams(srv):
    """What the HTTP layer owes a stream: SSE headers, chunked framing, a clean end, and a
    client that leaves mid-stream costing nothing."""
    req = json.dumps({"messages": [{"role": "user", "content": "hi"}], "max_tokens": 8, "stream": True}).encode()
    c = srv.conn(60)
    try:
        c.request("POST", "/v1/chat/completions", body=req, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        h = {k.lower(): v for k, v in r.getheaders()}
        data = r.read()
    finally:
        c.close()
    check("stream is 200", r.status == 200, f"status {r.status} {data[:200]!r}")
    check("stream Content-Type text/event-stream", h.get("content-type", "").startswith("text/event-stream"),
          str(h.get("content-type")))
    check("stream Cache-Control: no-cache", "no-cache" in h.get("cache-control", ""), str(h.get("cache-control")))
    check("stream X-Accel-Buffering: no", h.get("x-accel-buffering") == "no", str(h.get("x-accel-buffering")))
    check("stream is chunked", h.get("transfer-encoding", "").lower() == "chunked", str(h.get("transfer-encoding")))
    check("stream ends with data: [DONE]", data.rstrip().endswith(b"data: [DONE]"), repr(data[-80:]))

    st, h, body = srv.request("POST", "/v1/messages", body=json.dumps(
        {"max_tokens": 4, "messages": [{"role": "user", "content": "hi"}]}).encode(),
        headers={"Content-Type": "application/json", "anthropic-version": "2023-06-01"})
    check("Anthropic responses carry a request-id header", h.get("request-id", "").startswith("req_"),
          f"{st} {h.get('request-id')}")

    # Leave after the first bytes of a long stream, several times over.
    long_req = json.dumps({"messages": [{"role": "user", "content": "tell a story"}], "max_tokens": 4000,
                           "stream": True, "ignore_eos": True}).encode()
    for _ in range(4):
        s = srv.sock(timeout=30)
        s.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(long_req), long_req))
        try:
            s.recv(100)
        except OSError:
            pass
        s.close()
    still_answers(srv, "after clients left mid-stream")

    # Many connections at once, each answered (no per-IP limit: load tests open 32+).
    socks = []
    try:
        for _ in range(48):
            socks.append(srv.sock(timeout=30))
        for s in socks:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        statuses = []
        for s in socks:
            res = raw_response(s)
            statuses.append(res and res[0])
        check("48 concurrent connections all answered", statuses == [200] * 48,
              str([x for x in statuses if x != 200][:5]))
    except OSError as e:
        check("48 concurrent connections all answered", False, repr(e))
    finally:
        for s in socks:
            s.close()


def test_cors(srv):
    st, h, _ = srv.request("GET", "/health", headers={"Origin": ORIGIN_OK})
    check("listed Origin gets Access-Control-Allow-Origin", h.get("access-control-allow-origin") == ORIGIN_OK,
          str(h.get("access-control-allow-origin")))
    check("listed Origin gets Vary: Origin", "origin" in h.get("vary", "").lower(), str(h.get("vary")))
    st, h, _ = srv.request("GET", "/no-such", headers={"Origin": ORIGIN_OK})
    check("CORS headers on errors too (404)", st == 404 and h.get("access-control-allow-origin") == ORIGIN_OK,
          f"{st} {h.get('access-control-allow-origin')}")
    st, h, _ = srv.request("GET", "/health", headers={"Origin": ORIGIN_BAD})
    check("unlisted Origin gets no CORS headers", "access-control-allow-origin" not in h and st == 200,
          str(h.get("access-control-allow-origin")))
    st, h, _ = srv.request("GET", "/health", headers={"Origin": ORIGIN_OK + ".evil"})
    check("Origin matched exactly (no prefix match)", "access-control-allow-origin" not in h)

    asked = "authorization, content-type, x-stainless-os, x-stainless-lang, anthropic-version"
    st, h, body = srv.request("OPTIONS", "/v1/chat/completions",
                              headers={"Origin": ORIGIN_OK, "Access-Control-Request-Method": "POST",
                                       "Access-Control-Request-Headers": asked})
    check("preflight from a listed origin is 204", st == 204, f"status {st}")
    check("preflight Allow-Origin", h.get("access-control-allow-origin") == ORIGIN_OK,
          str(h.get("access-control-allow-origin")))
    methods = h.get("access-control-allow-methods", "")
    check("preflight Allow-Methods GET, POST, OPTIONS", all(m in methods for m in ("GET", "POST", "OPTIONS")),
          methods)
    allowed = h.get("access-control-allow-headers", "").lower()
    check("preflight Allow-Headers covers what was asked",
          all(x.strip() in allowed for x in asked.split(",")), allowed)
    check("preflight Max-Age", h.get("access-control-max-age", "").isdigit(), str(h.get("access-control-max-age")))
    st, h, body = srv.request("OPTIONS", "/v1/messages",
                              headers={"Origin": ORIGIN_BAD, "Access-Control-Request-Method": "POST"})
    check("preflight from an unlisted origin is 403", st == 403, f"status {st}")
    check("403 preflight has no CORS headers", not any(k.startswith("access-control-") for k in h), str(h))


# ---- the server with an API key --------------------------------------------------------------

def test_auth(srv):
    srv.wait_ready()
    st, h, body = srv.request("GET", "/health")
    check("key set: /health open without a key", st == 200, f"status {st}")

    st, h, body = srv.request("GET", "/v1/models")
    check("key set: no key is 401", st == 401, f"status {st}")
    check("401 has WWW-Authenticate: Bearer", h.get("www-authenticate", "").lower().startswith("bearer"),
          str(h.get("www-authenticate")))
    check("401 in OpenAI's shape (authentication_error)", is_openai_error(jbody(body), "authentication_error"),
          repr(body[:300]))

    st, h, body = srv.request("POST", "/v1/chat/completions", body=b"{}",
                              headers={"Content-Type": "application/json"})
    check("no key on /v1/chat/completions: 401 OpenAI shape",
          st == 401 and is_openai_error(jbody(body), "authentication_error"), f"{st} {body[:300]!r}")
    st, h, body = srv.request("POST", "/v1/messages", body=b"{}",
                              headers={"Content-Type": "application/json", "anthropic-version": "2023-06-01"})
    j = jbody(body)
    check("no key on /v1/messages: 401 Anthropic shape",
          st == 401 and is_anthropic_error(j, "authentication_error"), f"{st} {body[:300]!r}")

    for name, hdrs in (("wrong Bearer key", {"Authorization": "Bearer wrong"}),
                       ("wrong x-api-key", {"x-api-key": "wrong"}),
                       ("key prefix", {"Authorization": "Bearer " + API_KEY[:-1]}),
                       ("key plus a byte", {"Authorization": "Bearer " + API_KEY + "x"}),
                       ("empty Bearer", {"Authorization": "Bearer "}),
                       ("Basic scheme", {"Authorization": "Basic " + API_KEY}),
                       ("key as the whole Authorization", {"Authorization": API_KEY})):
        st, h, body = srv.request("GET", "/v1/models", headers=hdrs)
        check(f"{name} is 401", st == 401, f"status {st}")

    st, h, body = srv.request("GET", "/v1/models", headers={"Authorization": "Bearer " + API_KEY})
    check("Authorization: Bearer KEY passes", st == 200, f"{st} {body[:200]!r}")
    st, h, body = srv.request("GET", "/v1/models", headers={"Authorization": "bearer " + API_KEY})
    check("scheme is case-insensitive (bearer)", st == 200, f"status {st}")
    st, h, body = srv.request("GET", "/v1/models", headers={"x-api-key": API_KEY})
    check("x-api-key: KEY passes", st == 200, f"{st} {body[:200]!r}")
    st, h, body = srv.request("POST", "/v1/messages", body=b"[1]",
                              headers={"x-api-key": API_KEY, "Content-Type": "application/json"})
    check("x-api-key on /v1/messages reaches the handler (400 for a non-object)", st == 400, f"status {st}")

    # This server has the default --max-body: deep nesting and a large valid body reach the parser.
    st, h, body = srv.request("POST", "/v1/chat/completions", body=b"[" * 100000,
                              headers={"x-api-key": API_KEY, "Content-Type": "application/json"})
    check("100000-deep nesting under the default --max-body: 400 JSON",
          st == 400 and is_openai_error(jbody(body), "invalid_request_error"), f"{st} {body[:200]!r}")
    big = json.dumps({"messages": 1, "pad": "x" * (1 << 20)}).encode()
    st, h, body = srv.request("POST", "/v1/chat/completions", body=big,
                              headers={"x-api-key": API_KEY, "Content-Type": "application/json"})
    check("a 1 MiB body is read whole (400 for messages: 1)", st == 400 and is_openai_error(jbody(body)),
          f"{st} {body[:200]!r}")
    still_answers(srv, "after the deep and large bodies")

    st, h, body = srv.request("GET", "/no-such-route")
    check("no key on an unknown route is 401 (routes not revealed)", st == 401, f"status {st}")
    st, h, body = srv.request("GET", "/no-such-route", headers={"x-api-key": API_KEY})
    check("with the key an unknown route is 404", st == 404, f"status {st}")

    st, h, body = srv.request("OPTIONS", "/v1/chat/completions",
                              headers={"Origin": ORIGIN_OK, "Access-Control-Request-Method": "POST",
                                       "Access-Control-Request-Headers": "authorization, content-type"})
    check("key set: preflight needs no key (204)", st == 204, f"status {st}")
    st, h, body = srv.request("GET", "/v1/models", headers={"Origin": ORIGIN_OK})
    check("key set: 401 carries CORS headers for a listed origin",
          st == 401 and h.get("access-control-allow-origin") == ORIGIN_OK,
          f"{st} {h.get('access-control-allow-origin')}")


# ---- start-up refusals -----------------------------------------------------------------------

def test_startup():
    def run(*flags, timeout=60):
        p = subprocess.Popen([FRINK_BIN, "serve", "--port", "0", *flags], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            return None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
        return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    rc, out, err = run("--host", "0.0.0.0")
    check("--host 0.0.0.0 without a key exits non-zero", rc is not None and rc != 0, f"rc={rc}")
    check("... naming --insecure-public", "--insecure-public" in err, err.strip()[-300:])
    rc, out, err = run("--host", "no-such-host.invalid")
    check("an unresolvable --host exits non-zero", rc is not None and rc != 0, f"rc={rc}")
    check("... naming the host", "no-such-host.invalid" in err, err.strip()[-300:])


def test_webui(srv, key=None):
    """The web chat's files: / is the page, /webui/NAME its scripts and style, with ETags."""
    srv.wait_ready()
    st, h, body = srv.request("GET", "/")
    check("webui: GET / is 200", st == 200, f"status {st}")
    check("webui: / is text/html", h.get("content-type", "").startswith("text/html"), h.get("content-type", ""))
    check("webui: / is the page", body.lstrip().lower().startswith(b"<!doctype html>") and b"webui/app.js" in body,
          repr(body[:120]))
    etag = h.get("etag", "")
    check("webui: an ETag, Cache-Control: no-cache", etag.startswith('"') and h.get("cache-control") == "no-cache",
          f"{etag!r} {h.get('cache-control')!r}")
    st, h2, body2 = srv.request("GET", "/", headers={"If-None-Match": etag})
    check("webui: If-None-Match with the ETag is 304, no body", st == 304 and body2 == b"", f"{st} {body2[:60]!r}")
    st, h2, body2 = srv.request("HEAD", "/")
    check("webui: HEAD / is 200 without a body", st == 200 and body2 == b"", f"{st} {body2[:60]!r}")
    for name, ctype in (("app.js", "text/javascript"), ("markdown.js", "text/javascript"), ("style.css", "text/css")):
        st, h2, body2 = srv.request("GET", "/webui/" + name)
        check(f"webui: /webui/{name} is 200 {ctype}", st == 200 and h2.get("content-type", "").startswith(ctype)
              and len(body2) > 100, f"{st} {h2.get('content-type')}")
    st, h2, gz = srv.request("GET", "/webui/app.js", headers={"Accept-Encoding": "gzip, deflate"})
    plain = srv.request("GET", "/webui/app.js")[2]
    check("webui: gzip when accepted, the same bytes", h2.get("content-encoding") == "gzip"
          and gzip.decompress(gz) == plain, f"{h2.get('content-encoding')}")
    st, h2, body2 = srv.request("GET", "/webui/app.js", headers={"Accept-Encoding": "gzip;q=0"})
    check("webui: not gzip when refused (q=0)", "content-encoding" not in h2 and body2 == plain,
          f"{h2.get('content-encoding')}")
    st, h2, body2 = srv.request("GET", "/webui/nope.js")
    check("webui: an unknown file is a 404 in OpenAI's shape", st == 404 and is_openai_error(jbody(body2)),
          f"{st} {body2[:200]!r}")
    st, h2, body2 = srv.request("POST", "/", body=b"{}", headers={"Content-Type": "application/json"})
    check("webui: POST / is 405", st == 405, f"status {st}")


def test_no_webui():
    srv = Server("--no-webui")
    try:
        srv.wait_ready()
        for path in ("/", "/webui/app.js"):
            st, h, body = srv.request("GET", path)
            check(f"--no-webui: GET {path} is 404 in OpenAI's shape", st == 404 and is_openai_error(jbody(body),
                  "not_found_error"), f"{st} {body[:200]!r}")
        st, h, body = srv.request("GET", "/health")
        check("--no-webui: the API still answers", st == 200, f"status {st}")
    finally:
        srv.stop()


def main():
    if not os.path.exists(FRINK_BIN):
        print(f"test_http: {FRINK_BIN} not found (set FRINK_BIN)")
        sys.exit(1)
    servers = []
    try:
        main_srv = Server("--timeout", str(TIMEOUT_S), "--max-body", str(MAX_BODY), "--cors-origin", ORIGIN_OK)
        servers.append(main_srv)
        test_basics(main_srv)
        test_cors(main_srv)
        test_body_limits(main_srv)
        test_malformed(main_srv)
        test_slow_clients(main_srv)
        test_streams(main_srv)
        test_webui(main_srv)
        check("main server still running", main_srv.alive())
        main_srv.stop()

        key_srv = Server("--api-key", API_KEY, "--cors-origin", ORIGIN_OK, "--timeout", str(TIMEOUT_S))
        servers.append(key_srv)
        test_auth(key_srv)
        st, h, body = key_srv.request("GET", "/")
        check("key set: the web chat's page is served without it", st == 200 and b"<!doctype html>" in body[:40].lower(),
              f"status {st}")
        st, h, body = key_srv.request("GET", "/webui/app.js")
        check("key set: ... and its script", st == 200, f"status {st}")
        st, h, body = key_srv.request("GET", "/props")
        check("key set: /props still needs it", st == 401, f"status {st}")
        check("key server still running", key_srv.alive())
        key_srv.stop()

        test_no_webui()
        test_startup()
    except Exception as e:  # a harness failure is a failed check, with the server's log
        check("harness", False, repr(e))
        for s in servers:
            if s.alive():
                print(s.stderr()[-2000:])
    finally:
        for s in servers:
            s.stop()
    print(f"test_http: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
