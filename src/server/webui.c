// webui.c — the web chat at `/` of `frink serve` (the page: src/server/webui/; the bytes: a table
// generated at build time by scripts/webui-embed.sh). GET / is the page, GET /webui/NAME its
// scripts and style. Each answer carries an ETag (a matching If-None-Match gets 304) and
// "Cache-Control: no-cache" (a browser revalidates, so a new binary's page is never stale), and is
// gzipped when the client accepts it. --no-webui turns it off: `/` is then a 404 like any
// unknown path of an API server.
//
// The page holds no secret and runs nothing on the server, so it is served without the API key:
// a browser cannot attach one to a navigation. The page asks for the key (its settings) and
// sends it with every API call.
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/server.h"
#include "server/webui.h"

const struct webui_asset *webui_find(const char *path) {
    for (size_t i = 0; i < webui_n_assets; i++)
        if (strcmp(webui_assets[i].path, path) == 0) return &webui_assets[i];
    return NULL;
}

bool webui_is_public(const struct srv *s, const char *method, const char *path) {
    if (s->cfg.no_webui) return false;
    if (strcmp(method, "GET") && strcmp(method, "HEAD")) return false;
    return strcmp(path, "/") == 0 || strncmp(path, "/webui/", 7) == 0;
}

// Does the Accept-Encoding header list gzip (with a q other than 0)? A plain token search: the
// header is a comma-separated list of "coding;q=x".
static bool webui_accepts_gzip(const char *ae) {
    for (const char *p = ae; p && *p;) {
        p += strspn(p, " \t,");
        size_t n = strcspn(p, ",;");
        size_t t = n;
        while (t && (p[t - 1] == ' ' || p[t - 1] == '\t')) t--;
        bool gzip = t == 4 && strncasecmp(p, "gzip", 4) == 0;
        const char *end = p + strcspn(p, ",");
        if (gzip) {
            const char *q = p + n;
            if (*q == ';') {
                q = strstr(q, "q=");
                if (q && q < end && strtod(q + 2, NULL) <= 0.0) return false;
            }
            return true;
        }
        p = end;
    }
    return false;
}

void serve_webui(struct srv *s, struct http_req *r, struct http_resp *out) {
    const struct webui_asset *a = s->cfg.no_webui ? NULL : webui_find(r->path);
    if (!a) {
        http_error(out, r->api, 404, "not_found_error", NULL, "no route for %s %s", r->method, r->path);
        return;
    }
    http_add_header(out, "ETag", a->etag);
    http_add_header(out, "Cache-Control", "no-cache");
    http_add_header(out, "Vary", "Accept-Encoding");
    out->content_type = a->type;
    const char *inm = http_header(r, "If-None-Match");
    if (inm && (strstr(inm, a->etag) || strcmp(inm, "*") == 0)) {
        out->status = 304;
        return;
    }
    bool gz = webui_accepts_gzip(http_header(r, "Accept-Encoding"));
    const unsigned char *data = gz ? a->gz : a->data;
    size_t len = gz ? a->gz_len : a->len;
    out->body = malloc(len ? len : 1);
    if (!out->body) {
        http_error(out, r->api, 500, "server_error", NULL, "out of memory");
        return;
    }
    memcpy(out->body, data, len);
    out->len = len;
    out->status = 200;
    if (gz) http_add_header(out, "Content-Encoding", "gzip");
}
