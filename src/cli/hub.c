// hub.c — the Hugging Face Hub over HTTP (libcurl): the commit main points at, the repository's
// tree, and downloads into the cache (hub.h draws it) that resume, verify, and only then enter.
//
// The API calls are the reference's (llama.cpp's -hf):
//   GET {endpoint}/api/models/{repo}/refs                       -> branches[].targetCommit
//   GET {endpoint}/api/models/{repo}/tree/{commit}?recursive=true -> [{type, path, size, oid, lfs}]
//   GET {endpoint}/{repo}/resolve/{commit}/{path}               -> the file, often by a redirect
// A download goes to blobs/<oid>.incomplete, resumed with a Range request from what is there
// (tries bounded by HUB_TRIES, and a later `frink pull` resumes again), hashed as it arrives, and
// renamed to blobs/<oid> only when its size and SHA-256 match the tree's LFS object id.
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/hub.h"

#define HUB_TRIES 5            // attempts per file and command; each resumes the last
#define HUB_RETRY_MS 200       // wait before try k: k times this
#define HUB_STALL_S 30         // a transfer under 1 byte/s this long is a failed try
#define HUB_MAX_API (64u << 20) // the most an API answer may hold
#define HUB_MAX_PARTS 256

// What one request's answer said: the status of the last response (after redirects), the
// headers the cache needs, and (API calls) the body.
struct hub_resp {
    long status;
    char linked_etag[80]; // X-Linked-Etag of any hop (the Hub's resolve answer), quotes removed
    char error_code[64];  // X-Error-Code (GatedRepo, RepoNotFound, EntryNotFound, ...)
    long long range_start; // Content-Range's first byte of this response (-1: none)
    char next[2048];      // Link: <URL>; rel="next" (a listing's next page), "" when none
    char *body;
    size_t len;
};

// One header line. A status line starts a new response (a redirect's hop), so the fields are
// those of the last.
static size_t hub_header(char *buf, size_t size, size_t n, void *arg) {
    struct hub_resp *r = arg;
    size_t len = size * n;
    char line[512];
    size_t k = len < sizeof line - 1 ? len : sizeof line - 1;
    memcpy(line, buf, k);
    line[k] = 0;
    line[strcspn(line, "\r\n")] = 0;
    int code;
    if (!strncmp(line, "HTTP/", 5) && sscanf(line, "HTTP/%*s %d", &code) == 1) {
        r->status = code;
        r->range_start = -1;
        r->error_code[0] = 0;
        r->next[0] = 0;
        return len;
    }
    char *colon = strchr(line, ':');
    if (!colon) return len;
    *colon = 0;
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    if (!strcasecmp(line, "X-Linked-Etag")) {
        if (!strncmp(v, "W/", 2)) v += 2;
        if (*v == '"') v++;
        snprintf(r->linked_etag, sizeof r->linked_etag, "%s", v);
        r->linked_etag[strcspn(r->linked_etag, "\"")] = 0;
    } else if (!strcasecmp(line, "X-Error-Code")) snprintf(r->error_code, sizeof r->error_code, "%s", v);
    else if (!strcasecmp(line, "Link")) {
        // <URL>; rel="next" among the links (the Hub pages long tree listings so).
        for (char *lt = strchr(v, '<'); lt; lt = strchr(lt + 1, '<')) {
            char *gt = strchr(lt, '>');
            if (!gt) break;
            char *end = strchr(gt, ',');
            char *rel = strstr(gt, "rel=\"next\"");
            if (rel && (!end || rel < end) && (size_t)(gt - lt - 1) < sizeof r->next) {
                snprintf(r->next, sizeof r->next, "%.*s", (int)(gt - lt - 1), lt + 1);
                break;
            }
        }
    } else if (!strcasecmp(line, "Content-Range")) {
        long long a;
        if (sscanf(v, "bytes %lld-", &a) == 1) r->range_start = a;
    }
    return len;
}

static size_t hub_body(char *buf, size_t size, size_t n, void *arg) {
    struct hub_resp *r = arg;
    size_t len = size * n;
    if (r->len + len > HUB_MAX_API) return 0;
    char *b = realloc(r->body, r->len + len + 1);
    if (!b) return 0;
    memcpy(b + r->len, buf, len);
    r->body = b;
    r->len += len;
    b[r->len] = 0;
    return len;
}

// A handle with what every request shares. The token goes in an Authorization header: libcurl
// (7.58 and later; with the port since 7.83) does not send a custom Authorization header to a
// host other than the first on a redirect, which is what huggingface_hub does too — a file's
// redirect goes to a CDN with a signed URL, which needs no token and should not see it.
static CURL *hub_curl(const struct hub_opts *o, const char *url, struct curl_slist **hdrs, struct hub_resp *r) {
    CURL *c = curl_easy_init();
    if (!c) return NULL;
    *hdrs = NULL;
    if (o->token) {
        char auth[4200];
        snprintf(auth, sizeof auth, "Authorization: Bearer %s", o->token);
        *hdrs = curl_slist_append(*hdrs, auth);
    }
    curl_easy_setopt(c, CURLOPT_URL, url);
    char ua[64];
    snprintf(ua, sizeof ua, "frink/%s", frink_version());
    curl_easy_setopt(c, CURLOPT_USERAGENT, ua); // copied by libcurl
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)HUB_STALL_S);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, hub_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
    if (*hdrs) curl_easy_setopt(c, CURLOPT_HTTPHEADER, *hdrs);
    return c;
}

// Errors that say the Hub is not there at all (then the cache may answer), as against an answer.
static bool hub_unreachable(CURLcode cc) {
    return cc == CURLE_COULDNT_RESOLVE_HOST || cc == CURLE_COULDNT_RESOLVE_PROXY || cc == CURLE_COULDNT_CONNECT ||
           cc == CURLE_OPERATION_TIMEDOUT;
}

// The message of an HTTP error answer about repo (file: NULL for the repository itself).
static int hub_http_error(const struct hub_opts *o, const char *repo, const char *file, const struct hub_resp *r) {
    const char *what = file ? file : "", *of = file ? " of " : "";
    if (!strcmp(r->error_code, "RepoNotFound") || (r->status == 404 && !file))
        return cli_die("repository %s not found on %s (HTTP %ld)%s", repo, o->endpoint, r->status,
                       o->token ? "" : "; a private one needs a token: HF_TOKEN or --hf-token"), 1;
    if (r->status == 404 || !strcmp(r->error_code, "EntryNotFound"))
        return cli_die("%s%s%s not found (HTTP %ld)", what, of, repo, r->status), 1;
    if (r->status == 401 || r->status == 403) {
        if (!o->token)
            return cli_die("%s%s%s is gated or private (HTTP %ld): it needs a token of an account with access; set "
                           "HF_TOKEN or pass --hf-token (for a gated model, accept its terms on %s/%s first)",
                           what, of, repo, r->status, o->endpoint, repo), 1;
        return cli_die("%s%s%s refused the token (HTTP %ld%s%s): the token's account has no access (for a gated model, "
                       "accept its terms on %s/%s), or the token is wrong", what, of, repo, r->status,
                       *r->error_code ? ", " : "", r->error_code, o->endpoint, repo), 1;
    }
    // The Hub says why in {"error": "..."}.
    json_t *j = r->body ? json_loadb(r->body, r->len, 0, NULL) : NULL;
    const char *msg = json_string_value(json_object_get(j, "error"));
    cli_die("%s%s%s: HTTP %ld from %s%s%s", what, of, repo, r->status, o->endpoint, msg ? ": " : "", msg ? msg : "");
    json_decref(j);
    return 1;
}

// GET url as JSON into *out; the next page's URL (Link rel="next") into next[2048] when next is
// not NULL ("" when none). Returns 0; 1 (printed) on an error answer or bad JSON; 3 (not
// printed, *cc says why) when the Hub cannot be reached.
static int hub_api(const struct hub_opts *o, const char *repo, const char *url, json_t **out, char *next, CURLcode *cc) {
    struct hub_resp r = {.range_start = -1};
    struct curl_slist *h;
    *out = NULL;
    CURL *c = hub_curl(o, url, &h, &r);
    if (!c) return cli_die("out of memory"), 1;
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, hub_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &r);
    *cc = curl_easy_perform(c);
    curl_easy_cleanup(c);
    curl_slist_free_all(h);
    int rc = 0;
    if (*cc) rc = hub_unreachable(*cc) ? 3 : (cli_die("%s: %s", url, curl_easy_strerror(*cc)), 1);
    else if (r.status != 200) rc = hub_http_error(o, repo, NULL, &r);
    else if (!(*out = json_loadb(r.body ? r.body : "", r.len, 0, NULL)))
        rc = (cli_die("%s: the answer is not JSON", url), 1);
    if (next) memcpy(next, r.next, sizeof r.next);
    free(r.body);
    return rc;
}

// A path from the tree that stays inside the snapshot: relative, no empty, "." or ".." part.
static bool hub_path_safe(const char *p) {
    if (!*p || *p == '/' || strlen(p) > 1000) return false;
    for (const char *s = p; *s;) {
        size_t k = strcspn(s, "/");
        if (!k || (k == 1 && s[0] == '.') || (k == 2 && s[0] == '.' && s[1] == '.')) return false;
        s += k;
        if (*s) s++;
        if (!*s && s[-1] == '/') return false;
    }
    return !strchr(p, '\\');
}

// Appends the files of one page of a tree listing to fs. Returns 0, or 1 (printed).
static int hub_tree_page(json_t *j, struct hub_files *fs) {
    struct hub_file *v = realloc(fs->v, (fs->n + json_array_size(j) + 1) * sizeof *v);
    if (!v) return cli_die("out of memory"), 1;
    fs->v = v;
    size_t i;
    json_t *b;
    json_array_foreach(j, i, b) {
        const char *type = json_string_value(json_object_get(b, "type"));
        const char *path = json_string_value(json_object_get(b, "path"));
        json_t *lfs = json_object_get(b, "lfs");
        const char *oid = json_string_value(json_object_get(lfs ? lfs : b, "oid"));
        json_t *size = json_object_get(lfs ? lfs : b, "size");
        if (!type || strcmp(type, "file") || !path || !oid) continue;
        size_t olen = strlen(oid);
        if (!hub_path_safe(path) || (olen != 40 && olen != 64) || strspn(oid, "0123456789abcdef") != olen ||
            !json_is_integer(size) || json_integer_value(size) < 0) {
            fprintf(stderr, "frink: %s%swarning: skipping %s of the tree (a path or object id frink does not trust)\n",
                    cli_cmd ? cli_cmd : "", cli_cmd ? ": " : "", path);
            continue;
        }
        struct hub_file *f = &fs->v[fs->n];
        memset(f, 0, sizeof *f);
        if (!(f->path = strdup(path))) return cli_die("out of memory"), 1;
        memcpy(f->oid, oid, olen + 1);
        f->lfs = lfs && olen == 64;
        f->size = (uint64_t)json_integer_value(size);
        fs->n++;
    }
    return 0;
}

// The commit main points at and the tree at it (every page of it). Returns 0, 1 (printed) or 3 (unreachable).
static int hub_tree(const struct hub_opts *o, const char *repo, char commit[41], struct hub_files *fs, CURLcode *cc) {
    char url[2048];
    json_t *j;
    snprintf(url, sizeof url, "%s/api/models/%s/refs", o->endpoint, repo);
    int rc = hub_api(o, repo, url, &j, NULL, cc);
    if (rc) return rc;
    commit[0] = 0;
    json_t *br = json_object_get(j, "branches"), *b;
    size_t i;
    json_array_foreach(br, i, b) {
        const char *name = json_string_value(json_object_get(b, "name"));
        const char *t = json_string_value(json_object_get(b, "targetCommit"));
        if (!name || !t || strlen(t) != 40 || strspn(t, "0123456789abcdef") != 40) continue;
        if (!strcmp(name, "main") || !commit[0]) memcpy(commit, t, 41);
        if (!strcmp(name, "main")) break;
    }
    json_decref(j);
    if (!commit[0]) return cli_die("%s: the Hub names no commit for any branch of %s", url, repo), 1;
    snprintf(url, sizeof url, "%s/api/models/%s/tree/%s?recursive=true", o->endpoint, repo, commit);
    memset(fs, 0, sizeof *fs);
    for (int page = 0; *url; page++) {
        char next[2048];
        if ((rc = hub_api(o, repo, url, &j, next, cc))) return hub_files_free(fs), rc;
        if (!json_is_array(j)) return json_decref(j), hub_files_free(fs), cli_die("%s: the answer is not a list of files", url), 1;
        rc = hub_tree_page(j, fs);
        json_decref(j);
        if (rc) return hub_files_free(fs), rc;
        // The next page, only from the same Hub: the token goes with it.
        size_t el = strlen(o->endpoint);
        if (*next && (strncmp(next, o->endpoint, el) || next[el] != '/'))
            return hub_files_free(fs), cli_die("%s: the next page of the listing is on another host (%s)", url, next), 1;
        if (page >= 10000) return hub_files_free(fs), cli_die("%s: more than 10000 pages of files", url), 1;
        snprintf(url, sizeof url, "%s", next);
    }
    return 0;
}

// One download in progress: the .incomplete file, what it holds, its hash so far.
struct hub_dl {
    struct hub_resp r;
    int fd;
    uint64_t have, size;
    struct sha256 sh;
    bool started, failed; // a body began in this try; a write failed (err says why)
    char err[256];
    struct cli_progress *pg;
    const char *name;
    double t0, shown; // the try's start; the last progress update
    uint64_t have0;
};

static double hub_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t hub_dl_body(char *buf, size_t size, size_t n, void *arg) {
    struct hub_dl *d = arg;
    size_t len = size * n;
    if (d->r.status != 200 && d->r.status != 206) return len; // an error answer's body: not the file
    if (!d->started) {
        d->started = true;
        if (d->r.status == 200 && d->have) {
            // The server sent the whole file, not the rest: start over.
            if (ftruncate(d->fd, 0)) goto fail;
            d->have = 0;
            sha256_init(&d->sh);
        } else if (d->r.status == 206 && d->r.range_start != (long long)d->have) {
            snprintf(d->err, sizeof d->err, "the server resumed at byte %lld, not %llu", d->r.range_start,
                     (unsigned long long)d->have);
            d->failed = true;
            return 0;
        }
    }
    if (d->have + len > d->size) {
        snprintf(d->err, sizeof d->err, "the server sent more than the %llu bytes the Hub lists", (unsigned long long)d->size);
        d->failed = true;
        return 0;
    }
    for (size_t off = 0; off < len;) {
        ssize_t w = pwrite(d->fd, buf + off, len - off, (off_t)(d->have + off));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) goto fail;
        off += (size_t)w;
    }
    sha256_update(&d->sh, buf, len);
    d->have += len;
    double now = hub_now(), dt = now - d->t0;
    if (!d->pg || now - d->shown < 0.1) return len; // a chunk is 16 kB: a redraw for each is too many
    d->shown = now;
    cli_progress_set(d->pg, "frink: pulling %s: %.1f/%.1f MB (%.0f%%), %.1f MB/s", d->name, d->have / 1e6, d->size / 1e6,
                     d->size ? 100.0 * d->have / d->size : 100.0, dt > 0 ? (d->have - d->have0) / 1e6 / dt : 0.0);
    return len;
fail:
    snprintf(d->err, sizeof d->err, "cannot write: %s", strerror(errno));
    d->failed = true;
    return 0;
}

// Hashes the first d->have bytes of the .incomplete file (what an earlier try left).
static int hub_dl_rehash(struct hub_dl *d, const char *path) {
    char *buf = malloc(1 << 20);
    if (!buf) return cli_die("out of memory"), 1;
    sha256_init(&d->sh);
    for (uint64_t off = 0; off < d->have;) {
        size_t k = d->have - off < (1u << 20) ? (size_t)(d->have - off) : 1u << 20;
        ssize_t r = pread(d->fd, buf, k, (off_t)off);
        if (r <= 0) {
            free(buf);
            return cli_die("cannot read %s: %s", path, r ? strerror(errno) : "shorter than it was"), 1;
        }
        sha256_update(&d->sh, buf, (size_t)r);
        off += (uint64_t)r;
    }
    free(buf);
    return 0;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

// Downloads f of repo at commit into blobs/<oid>, unless it is there. Returns 0, or 1 (printed).
static int hub_download(const struct hub_opts *o, const char *repo, const char *dir, const char *commit, const struct hub_file *f) {
    char blob[PATH_MAX + 80], part[PATH_MAX + 96];
    snprintf(blob, sizeof blob, "%s/blobs/%s", dir, f->oid);
    snprintf(part, sizeof part, "%s.incomplete", blob);
    const char *name = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
    struct stat st;
    if (!stat(blob, &st) && (uint64_t)st.st_size == f->size) return 0; // verified when it entered
    char blobs[PATH_MAX + 16];
    snprintf(blobs, sizeof blobs, "%s/blobs", dir);
    for (char *s = blobs + 1; *s; s++) // mkdir -p
        if (*s == '/') { *s = 0; mkdir(blobs, 0755); *s = '/'; }
    if (mkdir(blobs, 0755) && errno != EEXIST) return cli_die("cannot create %s: %s", blobs, strerror(errno)), 1;

    struct hub_dl d = {.r.range_start = -1, .size = f->size, .name = name};
    d.fd = open(part, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (d.fd < 0) return cli_die("cannot open %s: %s", part, strerror(errno)), 1;
    // One writer per file: a second `frink pull` of the same file waits for nobody and says so.
    if (flock(d.fd, LOCK_EX | LOCK_NB)) {
        close(d.fd);
        return cli_die("%s is being downloaded by another process (%s is locked)", name, part), 1;
    }
    int rc = 1;
    if (!stat(blob, &st) && (uint64_t)st.st_size == f->size) { // another process finished it meanwhile
        unlink(part);
        rc = 0;
        goto out;
    }
    if (fstat(d.fd, &st)) { cli_die("cannot stat %s: %s", part, strerror(errno)); goto out; }
    d.have = (uint64_t)st.st_size;
    if (d.have > d.size) {
        if (ftruncate(d.fd, 0)) { cli_die("cannot truncate %s: %s", part, strerror(errno)); goto out; }
        d.have = 0;
    }
    if (hub_dl_rehash(&d, part)) goto out;
    if (d.have) fprintf(stderr, "frink: %s%sresuming %s at %.1f of %.1f MB\n", cli_cmd ? cli_cmd : "", cli_cmd ? ": " : "",
                        name, d.have / 1e6, d.size / 1e6);

    // The URL: every path segment escaped, the '/' between them kept.
    char url[8192];
    int n = snprintf(url, sizeof url, "%s/%s/resolve/%s/", o->endpoint, repo, commit);
    for (const char *s = f->path; *s && n < (int)sizeof url;) {
        size_t k = strcspn(s, "/");
        char *e = curl_easy_escape(NULL, s, (int)k);
        if (!e) { cli_die("out of memory"); goto out; }
        n += snprintf(url + n, sizeof url - n, "%s%s", e, s[k] ? "/" : "");
        curl_free(e);
        s += k + (s[k] != 0);
    }

    bool done = false;
    for (int attempt = 1; attempt <= HUB_TRIES && !done; attempt++) {
        if (attempt > 1) sleep_ms(HUB_RETRY_MS * (attempt - 1));
        struct curl_slist *h;
        d.r = (struct hub_resp){.range_start = -1};
        d.started = d.failed = false;
        CURL *c = hub_curl(o, url, &h, &d.r);
        if (!c) { cli_die("out of memory"); goto out; }
        char range[64];
        if (d.have) {
            snprintf(range, sizeof range, "%llu-", (unsigned long long)d.have);
            curl_easy_setopt(c, CURLOPT_RANGE, range);
        }
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, hub_dl_body);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &d);
        d.t0 = hub_now();
        d.have0 = d.have;
        d.pg = cli_progress_start("frink: pulling %s: %.1f/%.1f MB", name, d.have / 1e6, d.size / 1e6);
        CURLcode cc = curl_easy_perform(c);
        cli_progress_end(d.pg);
        d.pg = NULL;
        curl_easy_cleanup(c);
        curl_slist_free_all(h);
        if (d.failed) { cli_die("%s: %s", name, d.err); goto out; }
        long s = d.r.status;
        if (!cc && (s == 401 || s == 403 || s == 404)) { hub_http_error(o, repo, f->path, &d.r); goto out; }
        if (f->lfs && d.r.linked_etag[0] && strlen(d.r.linked_etag) == 64 && strcasecmp(d.r.linked_etag, f->oid)) {
            // The resolve answer's etag is the LFS id too: another means the file changed since the tree.
            cli_die("%s: the Hub's etag %s is not the tree's sha256 %s (the repository changed under the pull? "
                    "run it again)", name, d.r.linked_etag, f->oid);
            goto out;
        }
        if (!cc && s == 416 && d.have != d.size) { // a range past what the server has: start over
            if (ftruncate(d.fd, 0)) { cli_die("cannot truncate %s: %s", part, strerror(errno)); goto out; }
            d.have = 0;
            sha256_init(&d.sh);
        }
        if (d.have == d.size && (cc || s == 200 || s == 206 || s == 416)) done = true;
        else if (!cc && s >= 400 && s < 500 && s != 408 && s != 416 && s != 429) {
            hub_http_error(o, repo, f->path, &d.r);
            goto out;
        } else if (attempt < HUB_TRIES)
            fprintf(stderr, "frink: %s%s%s: %s at %.1f of %.1f MB; retrying (%d of %d)\n", cli_cmd ? cli_cmd : "",
                    cli_cmd ? ": " : "", name, cc ? curl_easy_strerror(cc) : "the transfer ended early", d.have / 1e6,
                    d.size / 1e6, attempt + 1, HUB_TRIES);
    }
    if (!done) {
        cli_die("%s: the download stopped at %.1f of %.1f MB after %d tries; `frink pull %s` resumes it", name,
                d.have / 1e6, d.size / 1e6, HUB_TRIES, repo);
        goto out;
    }
    // Nothing enters the cache unchecked: a wrong file is removed, so the next pull starts clean.
    if (f->lfs) {
        char hex[65];
        sha256_final_hex(&d.sh, hex);
        if (strcasecmp(hex, f->oid)) {
            unlink(part);
            cli_die("%s: checksum mismatch: the Hub lists sha256 %s, the download has %s; refused (removed, not cached)",
                    name, f->oid, hex);
            goto out;
        }
    } // else a file outside LFS (git's own blob id): its size alone is checked (see the README)
    if (fsync(d.fd) || rename(part, blob)) { cli_die("cannot move %s into the cache: %s", part, strerror(errno)); goto out; }
    int dfd = open(blobs, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) fsync(dfd), close(dfd); // the rename itself survives a crash
    fprintf(stderr, "frink: %s%spulled %s (%.1f MB, sha256 checked)\n", cli_cmd ? cli_cmd : "", cli_cmd ? ": " : "", f->path,
            f->size / 1e6);
    rc = 0;
out:
    close(d.fd); // and its lock
    return rc;
}

// From the cache alone: the commit refs name, the files its snapshot holds.
static int hub_pull_cached(const struct hub_opts *o, const char *repo, const char *dir, const char *tag, const char *file,
                           char *path, size_t cap, const char *why) {
    char commit[41];
    if (!hub_cache_ref(dir, commit))
        return cli_die("%s is not in the cache (%s) and %s: run `frink pull %s` with the network first", repo, o->cache,
                       why, repo), 1;
    struct hub_files fs;
    if (hub_cache_files(dir, commit, &fs)) return 1;
    int idx[HUB_MAX_PARTS], n = hub_select(&fs, repo, tag, file, idx, HUB_MAX_PARTS);
    if (n) hub_cache_snapshot_path(dir, commit, fs.v[idx[0]].path, path, cap);
    hub_files_free(&fs);
    return n ? 0 : 1;
}

int hub_pull(const struct hub_opts *o, const char *repo, const char *tag, const char *file, char *path, size_t cap) {
    char dir[PATH_MAX];
    hub_repo_dir(o, repo, dir, sizeof dir);
    if (o->offline) return hub_pull_cached(o, repo, dir, tag, file, path, cap, "--offline (or HF_HUB_OFFLINE) keeps frink off the network");
    if (curl_global_init(CURL_GLOBAL_DEFAULT)) return cli_die("libcurl failed to start"), 1;
    char commit[41];
    struct hub_files fs = {0};
    CURLcode cc = CURLE_OK;
    int rc = hub_tree(o, repo, commit, &fs, &cc);
    if (rc == 3) {
        fprintf(stderr, "frink: %s%swarning: cannot reach %s (%s): using the cache\n", cli_cmd ? cli_cmd : "",
                cli_cmd ? ": " : "", o->endpoint, curl_easy_strerror(cc));
        rc = hub_pull_cached(o, repo, dir, tag, file, path, cap, "the Hub cannot be reached");
    } else if (!rc) {
        int idx[HUB_MAX_PARTS], n = hub_select(&fs, repo, tag, file, idx, HUB_MAX_PARTS);
        rc = n ? 0 : 1;
        for (int i = 0; i < n && !rc; i++) {
            rc = hub_download(o, repo, dir, commit, &fs.v[idx[i]]);
            if (!rc) rc = hub_cache_link(dir, commit, &fs.v[idx[i]]);
        }
        if (!rc) rc = hub_cache_set_ref(dir, commit);
        if (!rc) hub_cache_snapshot_path(dir, commit, fs.v[idx[0]].path, path, cap);
    }
    hub_files_free(&fs);
    curl_global_cleanup();
    return rc;
}
