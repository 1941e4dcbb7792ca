// hubcache.c — the Hugging Face cache on disk (the layout is drawn in hub.h), the repo:tag
// syntax, and the choice of files for a tag, which the cache and the Hub's tree share.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/hub.h"

int hub_opts_env(struct hub_opts *o) {
    if (!o->endpoint) o->endpoint = getenv("HF_ENDPOINT");
    if (!o->endpoint || !*o->endpoint) o->endpoint = "https://huggingface.co";
    if (!o->token || !*o->token) o->token = getenv("HF_TOKEN");
    if (o->token && !*o->token) o->token = NULL;
    // huggingface_hub's truthy spellings.
    const char *off = getenv("HF_HUB_OFFLINE");
    static const char *const yes[] = {"1", "on", "yes", "true"};
    for (size_t i = 0; off && i < sizeof yes / sizeof *yes; i++)
        if (!strcasecmp(off, yes[i])) o->offline = true;
    // As huggingface_hub names the cache: HF_HUB_CACHE, else HF_HOME/hub, where HF_HOME
    // defaults to $XDG_CACHE_HOME/huggingface, then ~/.cache/huggingface.
    const char *hub = getenv("HF_HUB_CACHE"), *home = getenv("HF_HOME"), *xdg = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    int n;
    if (hub && *hub) n = snprintf(o->cache, sizeof o->cache, "%s", hub);
    else if (home && *home) n = snprintf(o->cache, sizeof o->cache, "%s/hub", home);
    else if (xdg && *xdg) n = snprintf(o->cache, sizeof o->cache, "%s/huggingface/hub", xdg);
    else if (h && *h) n = snprintf(o->cache, sizeof o->cache, "%s/.cache/huggingface/hub", h);
    else return cli_die("no cache directory: set HF_HUB_CACHE, HF_HOME or HOME"), 1;
    if (n < 0 || (size_t)n >= sizeof o->cache) return cli_die("the cache directory's path is too long"), 1;
    size_t len = strlen(o->endpoint);
    while (len > 1 && o->endpoint[len - 1] == '/') len--;
    if (len != strlen(o->endpoint)) { // a copy without the trailing '/', kept for the process
        static char ep[1024];
        snprintf(ep, sizeof ep, "%.*s", (int)len, o->endpoint);
        o->endpoint = ep;
    }
    return 0;
}

// The Hub's rule for repository ids (what the reference checks too): [A-Za-z0-9_] and the
// separators '/', '.', '-', never two separators in a row nor at either end, exactly one '/'.
static bool hub_repo_valid(const char *s) {
    size_t len = strlen(s);
    if (!len || len > 256) return false;
    int slashes = 0;
    bool sep = true;
    for (; *s; s++) {
        char c = *s;
        bool base = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
        if (base) sep = false;
        else if (c == '/' || c == '.' || c == '-') {
            if (sep) return false;
            slashes += c == '/';
            sep = true;
        } else return false;
    }
    return !sep && slashes == 1;
}

int hub_parse_ref(const char *ref, char *repo, size_t repo_cap, char *tag, size_t tag_cap) {
    const char *colon = strrchr(ref, ':');
    size_t rn = colon ? (size_t)(colon - ref) : strlen(ref);
    const char *t = colon ? colon + 1 : "";
    if (rn >= repo_cap || strlen(t) >= tag_cap) return cli_die("'%s' is too long for a repository and tag", ref);
    memcpy(repo, ref, rn);
    repo[rn] = 0;
    snprintf(tag, tag_cap, "%s", t);
    if (!hub_repo_valid(repo))
        return cli_die("'%s' is not a Hugging Face repository: expected user/repo[:QUANT] (e.g. "
                       "ggml-org/gemma-3-1b-it-GGUF:Q4_K_M)", ref);
    for (const char *p = tag; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
            return cli_die("quant tag '%s' has a character that is not a letter, digit, '_', '-' or '.'", tag);
    return 0;
}

void hub_files_free(struct hub_files *fs) {
    for (int i = 0; i < fs->n; i++) free(fs->v[i].path);
    free(fs->v);
    fs->v = NULL;
    fs->n = 0;
}

static bool ends_with(const char *s, const char *suf) {
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && !strcmp(s + n - k, suf);
}

// Case-insensitive strstr.
static const char *find_ci(const char *s, const char *needle) {
    size_t k = strlen(needle);
    for (; *s; s++)
        if (!strncasecmp(s, needle, k)) return s;
    return NULL;
}

int hub_split_count(const char *path, int *part) {
    // NAME-00001-of-00003.gguf: 5 digits each, as gguf-split writes them.
    *part = 1;
    size_t n = strlen(path);
    const char *suf = "-00000-of-00000.gguf";
    size_t k = strlen(suf);
    if (n <= k) return 1;
    const char *p = path + n - k;
    for (size_t i = 0; i < k; i++) {
        bool digit = suf[i] == '0';
        if (digit ? !(p[i] >= '0' && p[i] <= '9') : p[i] != suf[i]) return 1;
    }
    int count = atoi(p + 10);
    if (count < 1) return 1;
    *part = atoi(p + 1);
    return count;
}

// The prefix of a split part's path (the path without -0000i-of-0000N.gguf).
static size_t split_prefix_len(const char *path) { return strlen(path) - strlen("-00000-of-00000.gguf"); }

// A model's file, as the reference tells one: a .gguf that is no projector, importance matrix
// nor a draft model's.
static bool hub_is_model(const char *path) {
    if (!ends_with(path, ".gguf")) return false;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const char *const not_model[] = {"mmproj", "imatrix", "mtp-", "eagle3-", "dflash-", "dspark-"};
    for (size_t i = 0; i < sizeof not_model / sizeof *not_model; i++)
        if (strstr(base, not_model[i])) return false;
    return true;
}

// TAG followed by '.' or '-' in path, case-insensitive.
static bool hub_tag_matches(const char *path, const char *tag) {
    size_t k = strlen(tag);
    for (const char *s = path; (s = find_ci(s, tag)); s++)
        if (s[k] == '.' || s[k] == '-') return true;
    return false;
}

static void hub_list_gguf(const struct hub_files *fs) {
    int n = 0;
    for (int i = 0; i < fs->n; i++)
        if (ends_with(fs->v[i].path, ".gguf")) fprintf(stderr, "  %s\n", fs->v[i].path), n++;
    if (!n) fprintf(stderr, "  (none)\n");
}

int hub_select(const struct hub_files *fs, const char *repo, const char *tag, const char *file, int *idx, int cap) {
    int first = -1, part;
    if (file && *file) {
        for (int i = 0; i < fs->n && first < 0; i++)
            if (!strcmp(fs->v[i].path, file)) first = i;
        if (first < 0) {
            cli_die("%s has no file '%s'; its GGUF files are:", repo, file);
            hub_list_gguf(fs);
            return 0;
        }
    } else {
        const char *defaults[] = {"Q4_K_M", "Q8_0"}, *given[] = {tag};
        const char **tags = *tag ? given : defaults;
        int n_tags = *tag ? 1 : 2;
        for (int t = 0; t < n_tags && first < 0; t++)
            for (int i = 0; i < fs->n && first < 0; i++)
                if (hub_is_model(fs->v[i].path) && hub_tag_matches(fs->v[i].path, tags[t]) &&
                    (hub_split_count(fs->v[i].path, &part) == 1 || part == 1))
                    first = i;
        for (int i = 0; i < fs->n && first < 0 && !*tag; i++) // no tag: any model
            if (hub_is_model(fs->v[i].path) && (hub_split_count(fs->v[i].path, &part) == 1 || part == 1)) first = i;
        if (first < 0) {
            if (*tag) cli_die("no GGUF model file of %s matches the tag '%s'; its GGUF files are:", repo, tag);
            else cli_die("%s has no GGUF model file; its GGUF files are:", repo);
            hub_list_gguf(fs);
            return 0;
        }
    }
    const char *p0 = fs->v[first].path;
    int count = hub_split_count(p0, &part);
    if (count == 1) {
        idx[0] = first;
        return 1;
    }
    if (count > cap) return cli_die("%s is split into %d parts: more than frink fetches (%d)", p0, count, cap), 0;
    // Every part of the same prefix and count, in part order.
    size_t plen = split_prefix_len(p0);
    int found = 0;
    for (int k = 1; k <= count; k++) {
        idx[k - 1] = -1;
        for (int i = 0; i < fs->n; i++) {
            const char *p = fs->v[i].path;
            int pk, c = hub_split_count(p, &pk);
            if (c == count && pk == k && split_prefix_len(p) == plen && !strncmp(p, p0, plen)) {
                idx[k - 1] = i;
                found++;
                break;
            }
        }
        if (idx[k - 1] < 0) return cli_die("%s is split into %d parts but part %d is missing", p0, count, k), 0;
    }
    return found;
}

void hub_repo_dir(const struct hub_opts *o, const char *repo, char *out, size_t cap) {
    // models--user--repo: '/' becomes "--" (the id's rule keeps "--" out of user and repo names).
    int n = snprintf(out, cap, "%s/models--", o->cache);
    for (const char *p = repo; *p && n + 3 < (int)cap; p++) {
        if (*p == '/') out[n++] = '-', out[n++] = '-';
        else out[n++] = *p;
    }
    out[n] = 0;
}

static bool is_hex(const char *s, size_t n) {
    if (strlen(s) != n) return false;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F'))) return false;
    return true;
}

// The commit a ref file holds, into commit[41]; false when it holds no commit.
static bool read_ref(const char *path, char commit[41]) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char buf[64] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    buf[strcspn(buf, "\r\n")] = 0;
    if (!is_hex(buf, 40)) return false;
    memcpy(commit, buf, 41);
    return true;
}

bool hub_cache_ref(const char *repo_dir, char commit[41]) {
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/refs/main", repo_dir);
    if (read_ref(path, commit)) return true;
    snprintf(path, sizeof path, "%s/refs", repo_dir);
    DIR *d = opendir(path);
    if (!d) return false;
    bool ok = false;
    for (struct dirent *e; !ok && (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char p[PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        ok = read_ref(p, commit);
    }
    closedir(d);
    return ok;
}

// mkdir -p of path's folders (and path itself when `last`).
static int mkdirs(const char *path, bool last) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0755) && errno != EEXIST) return cli_die("cannot create %s: %s", p, strerror(errno)), 1;
        *s = '/';
    }
    if (last && mkdir(p, 0755) && errno != EEXIST) return cli_die("cannot create %s: %s", p, strerror(errno)), 1;
    return 0;
}

int hub_cache_set_ref(const char *repo_dir, const char *commit) {
    char path[PATH_MAX], tmp[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/refs/main", repo_dir);
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    if (mkdirs(path, false)) return 1;
    FILE *f = fopen(tmp, "w");
    if (!f) return cli_die("cannot write %s: %s", tmp, strerror(errno)), 1;
    bool ok = fputs(commit, f) >= 0;
    ok = !fclose(f) && ok;
    if (!ok || rename(tmp, path)) {
        unlink(tmp);
        return cli_die("cannot write %s: %s", path, strerror(errno)), 1;
    }
    return 0;
}

void hub_cache_snapshot_path(const char *repo_dir, const char *commit, const char *path, char *out, size_t cap) {
    snprintf(out, cap, "%s/snapshots/%s/%s", repo_dir, commit, path);
}

int hub_cache_link(const char *repo_dir, const char *commit, const struct hub_file *f) {
    char link[PATH_MAX], target[PATH_MAX];
    hub_cache_snapshot_path(repo_dir, commit, f->path, link, sizeof link);
    if (mkdirs(link, false)) return 1;
    // ../../blobs/<oid> from snapshots/<commit>/, one more ../ per folder in the file's path.
    int n = snprintf(target, sizeof target, "../../");
    for (const char *p = f->path; *p; p++)
        if (*p == '/') n += snprintf(target + n, sizeof target - n, "../");
    snprintf(target + n, sizeof target - n, "blobs/%s", f->oid);
    char have[PATH_MAX];
    ssize_t k = readlink(link, have, sizeof have - 1);
    if (k >= 0) {
        have[k] = 0;
        if (!strcmp(have, target)) return 0;
    }
    // A new link beside it, renamed over: the snapshot never lacks the file in between.
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", link, (int)getpid());
    unlink(tmp);
    if (symlink(target, tmp) || rename(tmp, link)) {
        int e = errno;
        unlink(tmp);
        return cli_die("cannot link %s to %s: %s", link, target, strerror(e)), 1;
    }
    return 0;
}

// Appends the files under dir (rel: their path inside the snapshot so far) to fs.
static int cache_walk(const char *dir, const char *rel, struct hub_files *fs, int depth) {
    DIR *d = opendir(dir);
    if (!d) return errno == ENOENT ? 0 : (cli_die("cannot read %s: %s", dir, strerror(errno)), 1);
    int rc = 0;
    for (struct dirent *e; !rc && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || ends_with(e->d_name, ".tmp")) continue;
        char p[PATH_MAX], r[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        snprintf(r, sizeof r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
        struct stat st;
        if (stat(p, &st)) continue; // a link whose blob is gone: not a file of the cache
        if (S_ISDIR(st.st_mode)) {
            if (depth < 16) rc = cache_walk(p, r, fs, depth + 1);
            continue;
        }
        if (!S_ISREG(st.st_mode)) continue;
        struct hub_file *v = realloc(fs->v, (size_t)(fs->n + 1) * sizeof *v);
        if (!v) { rc = (cli_die("out of memory"), 1); break; }
        fs->v = v;
        struct hub_file *f = &fs->v[fs->n];
        memset(f, 0, sizeof *f);
        if (!(f->path = strdup(r))) { rc = (cli_die("out of memory"), 1); break; }
        fs->n++;
        f->size = (uint64_t)st.st_size;
        char t[PATH_MAX];
        ssize_t k = readlink(p, t, sizeof t - 1);
        if (k > 0) {
            t[k] = 0;
            const char *b = strrchr(t, '/');
            snprintf(f->oid, sizeof f->oid, "%.64s", b ? b + 1 : t);
            f->lfs = is_hex(f->oid, 64);
        }
    }
    closedir(d);
    return rc;
}

static int cmp_path(const void *a, const void *b) {
    return strcmp(((const struct hub_file *)a)->path, ((const struct hub_file *)b)->path);
}

int hub_cache_files(const char *repo_dir, const char *commit, struct hub_files *fs) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/snapshots/%s", repo_dir, commit);
    memset(fs, 0, sizeof *fs);
    int rc = cache_walk(dir, "", fs, 0);
    if (rc) hub_files_free(fs);
    else if (fs->n) qsort(fs->v, (size_t)fs->n, sizeof *fs->v, cmp_path); // readdir's order is the disk's
    return rc;
}
