// pull.c — models from the Hugging Face Hub for the user: `frink pull`, `frink ls`, `frink rm`,
// and the -hf flags every model-taking command accepts (the reference's spellings), which pull
// into the cache and then load the snapshot's file as -m would. The HTTP is hub.c's, the cache
// hubcache.c's (hub.h draws its layout).
#include <errno.h>
#include <ftw.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/hub.h"

const char cli_hub_flags_help[] =
    "Hugging Face flags (a model from the Hub instead of -m; `frink pull --help` says more):\n"
    "  -hf, -hfr, --hf-repo USER/REPO[:QUANT]\n"
    "                          the repository's GGUF of that quant (case-insensitive; default Q4_K_M,\n"
    "                          then Q8_0, then the first), pulled into the Hugging Face cache if missing\n"
    "  -hff, --hf-file FILE    that file of the repository instead of a quant\n"
    "  -hft, --hf-token TOKEN  token for gated and private repositories (default: $HF_TOKEN)\n"
    "  --offline               the cache only, never the network (also HF_HUB_OFFLINE=1)\n";

int cli_hub_flag(struct cli_hub_opts *h, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    const char **dst = NULL;
    if (!strcmp(a, "-hf") || !strcmp(a, "-hfr") || !strcmp(a, "--hf-repo")) dst = &h->repo;
    else if (!strcmp(a, "-hff") || !strcmp(a, "--hf-file")) dst = &h->file;
    else if (!strcmp(a, "-hft") || !strcmp(a, "--hf-token")) dst = &h->token;
    else if (!strcmp(a, "--offline")) {
        h->offline = true;
        return 1;
    } else return 0;
    if (!v) return cli_die("%s needs a value", a), -1;
    *dst = v;
    return 2;
}

// The flags' options and the environment, into o.
static int hub_opts_from(const struct cli_hub_opts *h, struct hub_opts *o) {
    memset(o, 0, sizeof *o);
    o->token = h->token;
    o->offline = h->offline;
    return hub_opts_env(o);
}

int cli_hub_resolve(const struct cli_hub_opts *h, const char **path) {
    // The path lives as long as the process: commands keep it in their options.
    static char resolved[PATH_MAX];
    if (!h->repo) return cli_die("--hf-file needs the repository: -hf USER/REPO"), 2;
    char repo[300], tag[100];
    if (hub_parse_ref(h->repo, repo, sizeof repo, tag, sizeof tag)) return 2;
    if (*tag && h->file) return cli_die("-hf %s names a quant and --hf-file a file: give one", h->repo), 2;
    struct hub_opts o;
    if (hub_opts_from(h, &o) || hub_pull(&o, repo, tag, h->file, resolved, sizeof resolved)) return 1;
    int part, n = hub_split_count(resolved, &part);
    if (n > 1)
        return cli_die("%s is split into %d files (all %d are in the cache, beside %s): frink's loader reads one "
                       "GGUF file; join them with `llama-gguf-split --merge FIRST OUT.gguf` and pass -m OUT.gguf",
                       repo, n, n, resolved), 1;
    *path = resolved;
    return 0;
}

int cli_model_resolve(struct cli_model_opts *o) {
    if (!o->hub.repo && !o->hub.file) return 0;
    if (o->path) return cli_die("-m and -hf both name the model: give one"), 2;
    int rc = cli_hub_resolve(&o->hub, &o->path);
    o->hub = (struct cli_hub_opts){0}; // resolved: a second call is a no-op
    return rc;
}

static const char help_pull[] =
    "usage: frink pull USER/REPO[:QUANT] [--hf-file FILE] [--hf-token TOKEN] [--offline]\n"
    "Downloads a GGUF model from the Hugging Face Hub into the Hugging Face cache and prints the\n"
    "path of its file on stdout; `frink run -hf USER/REPO[:QUANT]` (chat, serve, bench too) then\n"
    "loads it from there. A model already there is not downloaded again.\n"
    "  QUANT                   the file whose name holds QUANT followed by '.' or '-' (any case), as the\n"
    "                          reference's -hf matches; default Q4_K_M, then Q8_0, then the first GGUF.\n"
    "                          A split model (NAME-00001-of-0000N.gguf) is fetched whole: every part.\n"
    "  -hff, --hf-file FILE    that file of the repository instead\n"
    "  -hft, --hf-token TOKEN  token for gated and private repositories (default: $HF_TOKEN)\n"
    "  --offline               only look in the cache (also HF_HUB_OFFLINE=1)\n"
    "A download resumes where an interrupted one stopped, and enters the cache only when its SHA-256\n"
    "equals the Hub's. Environment: HF_TOKEN, HF_ENDPOINT (default https://huggingface.co),\n"
    "HF_HUB_CACHE (default $HF_HOME/hub, HF_HOME default ~/.cache/huggingface), HF_HUB_OFFLINE.\n"
    "example: frink pull ggml-org/gemma-3-1b-it-GGUF:Q4_K_M\n";

int cmd_pull(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_pull, stdout), 0;
    struct cli_hub_opts h = {0};
    for (int i = 0; i < argc; i++) {
        int used = cli_hub_flag(&h, argc, argv, i);
        if (used < 0) return 2;
        if (used) { i += used - 1; continue; }
        if (argv[i][0] == '-') return cli_die("unknown flag '%s' (see `frink pull --help`)", argv[i]);
        if (h.repo) return cli_die("one repository at a time (got '%s' and '%s')", h.repo, argv[i]);
        h.repo = argv[i];
    }
    if (!h.repo) return cli_die("which model? frink pull USER/REPO[:QUANT] (see `frink pull --help`)");
    char repo[300], tag[100], path[PATH_MAX];
    if (hub_parse_ref(h.repo, repo, sizeof repo, tag, sizeof tag)) return 2;
    if (*tag && h.file) return cli_die("%s names a quant and --hf-file a file: give one", h.repo);
    struct hub_opts o;
    if (hub_opts_from(&h, &o) || hub_pull(&o, repo, tag, h.file, path, sizeof path)) return 1;
    puts(path);
    return 0;
}

// ---- frink ls ------------------------------------------------------------------------------

static const char help_ls[] =
    "usage: frink ls [USER/REPO] [--json]\n"
    "Lists the models in the Hugging Face cache ($HF_HUB_CACHE, else $HF_HOME/hub, else\n"
    "~/.cache/huggingface/hub): repository, file, size and path, a line each (or with --json a\n"
    "JSON array of {repo, file, commit, size, path, main}); main: the snapshot refs/main names.\n"
    "Files other tools put there are listed too.\n"
    "example: frink ls --json\n";

static void human_size(uint64_t b, char *out, size_t cap) {
    if (b >= 1000000000ull) snprintf(out, cap, "%.1f GB", b / 1e9);
    else if (b >= 1000000) snprintf(out, cap, "%.1f MB", b / 1e6);
    else if (b >= 1000) snprintf(out, cap, "%.1f kB", b / 1e3);
    else snprintf(out, cap, "%llu B", (unsigned long long)b);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

// The names in dir (without . and ..), sorted, malloc'ed; *n of them. NULL with *n 0 when dir
// cannot be read.
static char **dir_names(const char *dir, int *n) {
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **v = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char **w = realloc(v, (size_t)(*n + 1) * sizeof *v);
        if (!w) break;
        v = w;
        if (!(v[*n] = strdup(e->d_name))) break;
        (*n)++;
    }
    closedir(d);
    if (*n) qsort(v, (size_t)*n, sizeof *v, cmp_str);
    return v;
}

static void names_free(char **v, int n) {
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

// "models--user--repo" -> "user/repo" (false for other folders).
static bool repo_of_folder(const char *folder, char *repo, size_t cap) {
    if (strncmp(folder, "models--", 8)) return false;
    const char *s = folder + 8, *sep = strstr(s, "--");
    if (!sep || strstr(sep + 2, "--") || strlen(s) >= cap) return false;
    snprintf(repo, cap, "%.*s/%s", (int)(sep - s), s, sep + 2);
    return true;
}

int cmd_ls(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_ls, stdout), 0;
    bool json = false;
    const char *only = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = true;
        else if (argv[i][0] == '-') return cli_die("unknown flag '%s' (see `frink ls --help`)", argv[i]);
        else if (only) return cli_die("one repository at a time (got '%s' and '%s')", only, argv[i]);
        else only = argv[i];
    }
    struct hub_opts o = {0};
    if (hub_opts_env(&o)) return 1;
    int nr;
    char **repos = dir_names(o.cache, &nr);
    json_t *arr = json ? json_array() : NULL;
    int shown = 0;
    for (int r = 0; r < nr; r++) {
        char repo[300], dir[PATH_MAX + 300], snaps[PATH_MAX + 320], main_commit[41] = "";
        if (!repo_of_folder(repos[r], repo, sizeof repo) || (only && strcmp(repo, only))) continue;
        snprintf(dir, sizeof dir, "%s/%s", o.cache, repos[r]);
        snprintf(snaps, sizeof snaps, "%s/snapshots", dir);
        hub_cache_ref(dir, main_commit);
        int nc;
        char **commits = dir_names(snaps, &nc);
        for (int c = 0; c < nc; c++) {
            struct hub_files fs;
            if (hub_cache_files(dir, commits[c], &fs)) continue;
            for (int i = 0; i < fs.n; i++) {
                char path[PATH_MAX], sz[32];
                hub_cache_snapshot_path(dir, commits[c], fs.v[i].path, path, sizeof path);
                bool is_main = !strcmp(commits[c], main_commit);
                if (json) {
                    json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:I, s:s, s:b}", "repo", repo, "file", fs.v[i].path,
                                                         "commit", commits[c], "size", (json_int_t)fs.v[i].size, "path",
                                                         path, "main", is_main));
                    continue;
                }
                if (!shown++) printf("%-40s %-44s %10s  %s\n", "REPO", "FILE", "SIZE", "PATH");
                human_size(fs.v[i].size, sz, sizeof sz);
                printf("%-40s %-44s %10s  %s%s\n", repo, fs.v[i].path, sz, path, is_main ? "" : "  (not main)");
            }
            hub_files_free(&fs);
        }
        names_free(commits, nc);
    }
    names_free(repos, nr);
    if (json) {
        char *s = json_dumps(arr, JSON_COMPACT);
        if (s) puts(s);
        free(s);
        json_decref(arr);
    } else if (!shown) fprintf(stderr, "frink: ls: no models in %s%s%s\n", o.cache, only ? " for " : "", only ? only : "");
    return 0;
}

// ---- frink rm ------------------------------------------------------------------------------

static const char help_rm[] =
    "usage: frink rm USER/REPO[:QUANT] [--hf-file FILE]\n"
    "Removes a model from the Hugging Face cache: with QUANT (or --hf-file) the files `frink pull`\n"
    "would pick in the snapshot refs/main names (every part of a split model); without, the whole\n"
    "repository (every snapshot, blob and partial download). Blobs no snapshot links to any more are\n"
    "deleted; a repository left with no snapshot is removed with its refs.\n"
    "example: frink rm ggml-org/gemma-3-1b-it-GGUF:Q4_K_M\n";

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)flag, (void)ftw;
    if (remove(path)) fprintf(stderr, "frink: rm: cannot remove %s: %s\n", path, strerror(errno));
    return 0;
}

static int rm_tree(const char *dir) { return nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS); }

// Removes empty folders under dir, deepest first (dir itself too when it ends up empty).
static int rmdir_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
    (void)st, (void)ftw;
    if (flag == FTW_DP) rmdir(path); // fails, harmlessly, on a folder that is not empty
    return 0;
}

// The blob names any snapshot of dir links to, as one string "\nname\nname\n" (malloc'ed).
static char *referenced_blobs(const char *dir) {
    char snaps[PATH_MAX + 16];
    snprintf(snaps, sizeof snaps, "%s/snapshots", dir);
    int nc;
    char **commits = dir_names(snaps, &nc);
    size_t len = 1, cap = 256;
    char *s = malloc(cap);
    if (!s) return names_free(commits, nc), NULL;
    strcpy(s, "\n");
    for (int c = 0; c < nc; c++) {
        struct hub_files fs;
        if (hub_cache_files(dir, commits[c], &fs)) continue;
        for (int i = 0; i < fs.n; i++) {
            size_t k = strlen(fs.v[i].oid);
            if (!k) continue;
            if (len + k + 2 > cap) {
                char *t = realloc(s, cap = 2 * (len + k + 2));
                if (!t) { free(s); s = NULL; break; }
                s = t;
            }
            memcpy(s + len, fs.v[i].oid, k);
            len += k;
            s[len++] = '\n';
            s[len] = 0;
        }
        hub_files_free(&fs);
        if (!s) break;
    }
    names_free(commits, nc);
    return s;
}

int cmd_rm(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_rm, stdout), 0;
    struct cli_hub_opts h = {0};
    for (int i = 0; i < argc; i++) {
        int used = cli_hub_flag(&h, argc, argv, i);
        if (used < 0) return 2;
        if (used) { i += used - 1; continue; }
        if (argv[i][0] == '-') return cli_die("unknown flag '%s' (see `frink rm --help`)", argv[i]);
        if (h.repo) return cli_die("one repository at a time (got '%s' and '%s')", h.repo, argv[i]);
        h.repo = argv[i];
    }
    if (!h.repo) return cli_die("which model? frink rm USER/REPO[:QUANT] (see `frink rm --help`)");
    char repo[300], tag[100], dir[PATH_MAX];
    if (hub_parse_ref(h.repo, repo, sizeof repo, tag, sizeof tag)) return 2;
    if (*tag && h.file) return cli_die("%s names a quant and --hf-file a file: give one", h.repo);
    struct hub_opts o;
    if (hub_opts_from(&h, &o)) return 1;
    hub_repo_dir(&o, repo, dir, sizeof dir);
    struct stat st;
    if (stat(dir, &st)) return cli_die("%s is not in the cache (%s)", repo, o.cache), 1;
    if (!*tag && !h.file) {
        rm_tree(dir);
        if (!stat(dir, &st)) return cli_die("could not remove all of %s", dir), 1;
        fprintf(stderr, "frink: rm: removed %s\n", repo);
        return 0;
    }
    char commit[41];
    if (!hub_cache_ref(dir, commit)) return cli_die("%s has no refs/main in the cache: `frink rm %s` removes it whole", repo, repo), 1;
    struct hub_files fs;
    if (hub_cache_files(dir, commit, &fs)) return 1;
    int idx[256], n = hub_select(&fs, repo, tag, h.file, idx, 256);
    for (int i = 0; i < n; i++) {
        char link[PATH_MAX];
        hub_cache_snapshot_path(dir, commit, fs.v[idx[i]].path, link, sizeof link);
        if (unlink(link)) fprintf(stderr, "frink: rm: cannot remove %s: %s\n", link, strerror(errno));
        else fprintf(stderr, "frink: rm: removed %s %s\n", repo, fs.v[idx[i]].path);
    }
    hub_files_free(&fs);
    if (!n) return 1;
    // Empty snapshot folders go, then the blobs nothing links to (not the partial downloads:
    // another pull may be resuming one).
    char snaps[PATH_MAX + 16], blobs[PATH_MAX + 16];
    snprintf(snaps, sizeof snaps, "%s/snapshots", dir);
    nftw(snaps, rmdir_entry, 16, FTW_DEPTH | FTW_PHYS);
    char *refd = referenced_blobs(dir);
    if (!refd) return cli_die("out of memory"), 1;
    snprintf(blobs, sizeof blobs, "%s/blobs", dir);
    int nb;
    char **names = dir_names(blobs, &nb);
    for (int i = 0; i < nb; i++) {
        size_t k = strlen(names[i]);
        if (k > 11 && !strcmp(names[i] + k - 11, ".incomplete")) continue;
        char key[300], p[PATH_MAX + 320];
        snprintf(key, sizeof key, "\n%s\n", names[i]);
        if (strstr(refd, key)) continue;
        snprintf(p, sizeof p, "%s/%s", blobs, names[i]);
        if (unlink(p)) fprintf(stderr, "frink: rm: cannot remove %s: %s\n", p, strerror(errno));
    }
    names_free(names, nb);
    free(refd);
    if (stat(snaps, &st)) { // no snapshot left: the repository goes, refs and all
        rm_tree(dir);
        fprintf(stderr, "frink: rm: %s is no longer cached\n", repo);
    }
    return 0;
}
