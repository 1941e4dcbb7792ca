// The web chat's files as compiled in (scripts/webui-embed.sh's table) and served (webui.c's
// serve_webui): / is the page, text/html; every file the page names is in the table with its
// type; each gzipped copy is a gzip member of the file's size; the ETag gives 304, Accept-
// Encoding picks gzip, --no-webui and unknown names give 404, and the page is open without an
// API key only while it is served. The HTTP layer's helpers are stubbed here (a request is a
// list of headers), so the handler is tested without a daemon; tests/server/test_http.py
// checks the same through a running server.
#include <string.h>
#include <strings.h>

#include "server/server.h"
#include "server/webui.h"
#include "test.h"

// ---- stubs of http.c's helpers --------------------------------------------------------------

static const char *const *stub_headers; // "Name", "value", ..., NULL

const char *http_header(const struct http_req *r, const char *name) {
    (void)r;
    for (const char *const *h = stub_headers; h && h[0]; h += 2)
        if (!strcasecmp(h[0], name)) return h[1];
    return NULL;
}

void http_add_header(struct http_resp *out, const char *name, const char *value) {
    for (int i = 0; i < 4; i++)
        if (!out->headers[i][0]) {
            snprintf(out->headers[i], sizeof out->headers[i], "%s: %s", name, value);
            return;
        }
}

void http_error(struct http_resp *out, enum http_api api, int status, const char *type, const char *param,
                const char *fmt, ...) {
    (void)api, (void)type, (void)param, (void)fmt;
    out->status = status;
    out->content_type = NULL;
    free(out->body);
    out->body = strdup("{\"error\":{}}");
    out->len = strlen(out->body);
}

// ---- helpers -------------------------------------------------------------------------------

// The value of header `name` in out, or NULL.
static const char *resp_header(const struct http_resp *out, const char *name) {
    size_t n = strlen(name);
    for (int i = 0; i < 4; i++)
        if (!strncasecmp(out->headers[i], name, n) && out->headers[i][n] == ':') return out->headers[i] + n + 2;
    return NULL;
}

// GET path with the given headers (NULL-terminated name/value list) from a server with or
// without --no-webui. The caller frees out->body.
static struct http_resp get(const char *path, bool no_webui, const char *const *headers) {
    static struct srv s;
    s.cfg.no_webui = no_webui;
    struct http_req r = {.method = "GET", .path = path, .fd = -1};
    struct http_resp out;
    memset(&out, 0, sizeof out);
    stub_headers = headers;
    serve_webui(&s, &r, &out);
    return out;
}

int main(void) {
    // The page.
    struct http_resp out = get("/", false, NULL);
    CHECK(out.status == 200, "GET / is %d", out.status);
    CHECK(out.content_type && !strncmp(out.content_type, "text/html", 9), "type %s", out.content_type);
    CHECK(out.body && out.len > 15 && !strncasecmp(out.body, "<!doctype html>", 15), "not the page");
    CHECK(!resp_header(&out, "Content-Encoding"), "gzip unasked");
    const char *etag = resp_header(&out, "ETag");
    CHECK(etag && etag[0] == '"' && strlen(etag) == 18, "ETag %s", etag ? etag : "(none)");
    CHECK(resp_header(&out, "Cache-Control") && !strcmp(resp_header(&out, "Cache-Control"), "no-cache"), "Cache-Control");

    // Every file the page names ("webui/NAME") is in the table, with a type for its kind.
    const struct webui_asset *page = webui_find("/");
    CHECK(page != NULL, "no / in the table");
    int named = 0;
    for (const char *p = page ? (const char *)page->data : ""; (p = strstr(p, "\"webui/")); p++) {
        char path[128] = "/";
        size_t n = strcspn(p + 1, "\"");
        if (n + 2 > sizeof path) break;
        memcpy(path + 1, p + 1, n);
        path[n + 1] = '\0';
        const struct webui_asset *a = webui_find(path);
        CHECK(a != NULL, "the page names %s, which is not compiled in", path);
        const char *ext = strrchr(path, '.');
        if (a && ext && !strcmp(ext, ".js")) CHECK(!strncmp(a->type, "text/javascript", 15), "%s: %s", path, a->type);
        if (a && ext && !strcmp(ext, ".css")) CHECK(!strncmp(a->type, "text/css", 8), "%s: %s", path, a->type);
        named++;
    }
    CHECK(named >= 2, "the page names %d files", named);
    // app.js imports markdown.js (the page does not name it).
    CHECK(webui_find("/webui/markdown.js") != NULL, "no markdown.js");

    // Each gzipped copy: a gzip member (magic, deflate) whose trailer holds the file's size.
    for (size_t i = 0; i < webui_n_assets; i++) {
        const struct webui_asset *a = &webui_assets[i];
        const unsigned char *g = a->gz;
        CHECK(a->gz_len > 18 && g[0] == 0x1f && g[1] == 0x8b && g[2] == 8, "%s: not gzip", a->path);
        if (a->gz_len > 18) {
            const unsigned char *t = g + a->gz_len - 4;
            size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
            CHECK(isize == a->len, "%s: gzip of %zu bytes, file of %zu", a->path, isize, a->len);
        }
    }

    // Revalidation and encodings.
    char tag[64];
    snprintf(tag, sizeof tag, "%s", etag ? etag : "");
    free(out.body);
    out = get("/", false, (const char *const[]){"If-None-Match", tag, NULL});
    CHECK(out.status == 304 && out.len == 0, "If-None-Match: %d, %zu bytes", out.status, out.len);
    free(out.body);
    out = get("/", false, (const char *const[]){"If-None-Match", "\"other\"", NULL});
    CHECK(out.status == 200, "another ETag: %d", out.status);
    free(out.body);
    out = get("/webui/app.js", false, (const char *const[]){"Accept-Encoding", "br, gzip;q=0.8", NULL});
    const char *ce = resp_header(&out, "Content-Encoding");
    CHECK(out.status == 200 && ce && !strcmp(ce, "gzip") && out.len > 2 && (unsigned char)out.body[0] == 0x1f,
          "gzip accepted: %d %s", out.status, ce ? ce : "(identity)");
    free(out.body);
    out = get("/webui/app.js", false, (const char *const[]){"Accept-Encoding", "gzip;q=0, deflate", NULL});
    CHECK(out.status == 200 && !resp_header(&out, "Content-Encoding"), "gzip;q=0 is refused");
    free(out.body);
    out = get("/webui/app.js", false, (const char *const[]){"Accept-Encoding", "x-gzip2", NULL});
    CHECK(!resp_header(&out, "Content-Encoding"), "x-gzip2 is not gzip");
    free(out.body);

    // 404s.
    out = get("/webui/none.js", false, NULL);
    CHECK(out.status == 404, "unknown file: %d", out.status);
    free(out.body);
    out = get("/", true, NULL);
    CHECK(out.status == 404, "--no-webui: / is %d", out.status);
    free(out.body);
    out = get("/webui/app.js", true, NULL);
    CHECK(out.status == 404, "--no-webui: app.js is %d", out.status);
    free(out.body);

    // Served without the API key: GET and HEAD of the page's files, nothing else.
    struct srv s;
    memset(&s, 0, sizeof s);
    CHECK(webui_is_public(&s, "GET", "/") && webui_is_public(&s, "HEAD", "/webui/app.js"), "the page needs the key");
    CHECK(!webui_is_public(&s, "POST", "/") && !webui_is_public(&s, "GET", "/props") &&
              !webui_is_public(&s, "GET", "/v1/models"),
          "the API is open");
    s.cfg.no_webui = true;
    CHECK(!webui_is_public(&s, "GET", "/"), "--no-webui: / is open");
    return TEST_DONE();
}
