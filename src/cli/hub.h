// hub.h — models from the Hugging Face Hub (hub.c: the HTTP API and downloads; hubcache.c: the
// cache on disk; pull.c: the commands and the -hf flags). CLI-only: the library never reaches the
// network.
//
// The cache is the Hub's own layout, so files are shared with huggingface_hub, llama.cpp and
// others that read it:
//
//   $HF_HUB_CACHE (else $HF_HOME/hub, else ~/.cache/huggingface/hub)
//   └── models--user--repo/
//       ├── refs/main                     the commit hash main pointed at (40 hex, no newline)
//       ├── blobs/<sha256>                a verified file, named by its LFS object id
//       ├── blobs/<sha256>.incomplete     a download in progress (resumed, never loaded)
//       └── snapshots/<commit>/<path>     a relative symlink to ../../blobs/<sha256>
//
// A blob is renamed from .incomplete only after its SHA-256 matched, so whatever a snapshot link
// reaches is a whole, checked file.
#ifndef FRINK_CLI_HUB_H
#define FRINK_CLI_HUB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// Where and how to reach the Hub: filled from the flags and the environment (hub_opts_env).
struct hub_opts {
    const char *endpoint; // HF_ENDPOINT, else https://huggingface.co (no trailing slash)
    const char *token;    // --hf-token, else HF_TOKEN (NULL: none)
    bool offline;         // --offline or HF_HUB_OFFLINE=1: the cache only
    char cache[4096];     // the hub cache directory
};
// Fills o's unset fields from the environment. Returns 0, or 1 (printed) when no cache
// directory can be named (no HF_HUB_CACHE, HF_HOME nor HOME).
int hub_opts_env(struct hub_opts *o);

// One file of a repository's tree.
struct hub_file {
    char *path;     // inside the repository ("model-Q4_K_M.gguf", "sub/x.gguf")
    char oid[65];   // the LFS sha256 (64 hex), else the git blob id (40 hex); the blob's name
    bool lfs;       // oid is a sha256 of the content (verified on download)
    uint64_t size;
};
struct hub_files {
    struct hub_file *v;
    int n;
};
void hub_files_free(struct hub_files *fs);

// "user/repo[:TAG]" split into repo (validated as the Hub spells ids: [A-Za-z0-9_.-], one '/',
// no '.', '-' or '/' next to another) and tag ("" when none). Returns 0, or 2 (printed).
int hub_parse_ref(const char *ref, char *repo, size_t repo_cap, char *tag, size_t tag_cap);

// The files to fetch for a model of fs, chosen as the reference (llama.cpp's -hf) chooses: with
// `file`, that exact path; else the first GGUF model file (not mmproj, imatrix nor a draft's)
// whose path holds TAG followed by '.' or '-' (case-insensitive), the tag Q4_K_M and then Q8_0
// when none is given, then any GGUF model; of a split model (NAME-00001-of-0000N.gguf) only the
// first part is chosen, and all its parts are returned. Writes their indexes into idx (the first
// part first) and returns their count; 0 after printing why (listing the GGUF files there are).
int hub_select(const struct hub_files *fs, const char *repo, const char *tag, const char *file, int *idx, int cap);
// The number of parts NAME-0000i-of-0000N.gguf says (1 for a file that is not split), and its
// part index (1-based) in *part.
int hub_split_count(const char *path, int *part);

// hub.c: resolves repo[:tag] (or `file`) to files in the cache, downloading what is missing, and
// writes the path of the first file's snapshot link into path. Online, the commit main points
// at and its tree come from the API; offline (or when the Hub cannot be reached at all) the cache
// alone answers. Returns 0, or 1 (printed: gated, not found, checksum, disk).
int hub_pull(const struct hub_opts *o, const char *repo, const char *tag, const char *file, char *path, size_t cap);

// hubcache.c: the cache.
// The repository's folder, "<cache>/models--user--repo".
void hub_repo_dir(const struct hub_opts *o, const char *repo, char *out, size_t cap);
// The commit refs/main names (else another ref's), into commit[41]. False when there is none.
bool hub_cache_ref(const char *repo_dir, char commit[41]);
// Writes refs/main (a temporary file renamed over it). Returns 0, or 1 (printed).
int hub_cache_set_ref(const char *repo_dir, const char *commit);
// The files of snapshots/<commit> whose links reach a blob, as hub_files (oid: the blob's name,
// size: its size). Returns 0, or 1 (printed) on an unreadable folder.
int hub_cache_files(const char *repo_dir, const char *commit, struct hub_files *fs);
// Links snapshots/<commit>/<f->path> to ../../blobs/<oid> (relative, as huggingface_hub does).
// Returns 0, or 1 (printed).
int hub_cache_link(const char *repo_dir, const char *commit, const struct hub_file *f);
// The path of a snapshot's file.
void hub_cache_snapshot_path(const char *repo_dir, const char *commit, const char *path, char *out, size_t cap);

// sha256.c
struct sha256 {
    uint32_t h[8];
    uint64_t len;
    uint8_t buf[64];
    size_t n;
};
void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
// The digest as 64 lower-case hex digits and a NUL; s is spent.
void sha256_final_hex(struct sha256 *s, char hex[65]);

#endif
