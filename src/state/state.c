// state.c — slot files (save/restore one sequence) and the prefix cache.
// Formats and policies are described in state.h.
#include "state.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "slot files are little-endian and written in host order");

static uint32_t rd32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

// ---- XXH64 --------------------------------------------------------------------------

uint64_t state_hash64(const void *data, size_t len, uint64_t seed) { return XXH64(data, len, seed); }

// ---- slot files ------------------------------------------------------------------------

#define SLOT_MAGIC "FRINKSEQ"
#define SLOT_VERSION 2u // 2: GDN state stored [dk][dv] per head (was [dv][dk])

struct slot_header {
    char magic[8];
    uint32_t version, header_bytes;
    uint64_t model_id;
    char arch[32];
    char name[96];
    uint32_t kv_type, n_layer, n_tokens, n_ckpt;
    uint64_t payload_bytes, payload_hash, header_hash;
    uint8_t zero[64];
};
_Static_assert(sizeof(struct slot_header) == 256, "slot header");
_Static_assert(offsetof(struct slot_header, header_hash) == 184, "slot header layout");

void (*slot_save_hook)(size_t written);

static uint64_t payload_bytes(const struct seq *s, uint64_t n_tok, uint64_t n_ckpt) {
    const struct seq_shape *sh = s->shape;
    uint64_t b = n_tok * sizeof(int32_t);
    for (int il = 0; il < sh->n_layer; il++) b += n_tok * (s->k_row[il] + s->v_row[il]);
    uint64_t st = (uint64_t)sh->state_floats * sizeof(float);
    return b + st + n_ckpt * (8 + st);
}

// The writer hashes the payload section by section (XXH64's streaming state), the reader in one
// call; both see the same bytes, so the same value.
struct slot_writer {
    int fd;
    XXH64_state_t *hash;
    size_t written;
    frink_status st;
    const char *path;
};

static void put(struct slot_writer *w, const void *p, size_t n) {
    if (w->st || !n) return;
    XXH64_update(w->hash, p, n);
    const uint8_t *b = p;
    while (n) {
        ssize_t k = write(w->fd, b, n > (1u << 30) ? (1u << 30) : n);
        if (k < 0) {
            if (errno == EINTR) continue;
            w->st = frink_fail(FRINK_ERR_IO, "writing slot file for '%s': %s", w->path, strerror(errno));
            return;
        }
        b += k;
        n -= (size_t)k;
        w->written += (size_t)k;
    }
    if (slot_save_hook) slot_save_hook(w->written);
}

static void put_gdn_state(struct slot_writer *w, const struct seq *s) {
    const struct seq_shape *sh = s->shape;
    for (int il = 0; il < sh->n_layer; il++)
        if (s->conv[il]) {
            put(w, s->conv[il], (size_t)sh->layer[il].conv_floats * sizeof(float));
            put(w, s->ssm[il], (size_t)sh->layer[il].ssm_floats * sizeof(float));
        }
}

// Copies src into dst[cap], cut short if needed; NUL-terminated, zero-padded.
static void copy_str(char *dst, size_t cap, const char *src) {
    size_t n = strnlen(src, cap - 1);
    memcpy(dst, src, n);
    memset(dst + n, 0, cap - n);
}

static void header_fill(struct slot_header *h, const struct seq *s) {
    memset(h, 0, sizeof *h);
    memcpy(h->magic, SLOT_MAGIC, 8);
    h->version = SLOT_VERSION;
    h->header_bytes = sizeof *h;
    h->model_id = s->shape->identity;
    copy_str(h->arch, sizeof h->arch, s->shape->arch);
    copy_str(h->name, sizeof h->name, s->shape->name);
    h->kv_type = (uint32_t)s->kv_type;
    h->n_layer = (uint32_t)s->shape->n_layer;
    h->n_tokens = (uint32_t)s->n_past;
    h->n_ckpt = (uint32_t)s->n_ckpt;
    h->payload_bytes = payload_bytes(s, h->n_tokens, h->n_ckpt);
}

frink_status slot_save(const struct seq *s, const char *path) {
    // The temporary file lives next to the target so the rename is atomic.
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    const char *base = slash ? slash + 1 : path;
    if (!*base) return frink_fail(FRINK_ERR_ARG, "slot file path '%s' names a directory", path);
    size_t tl = strlen(path) + 32;
    char *tmp = malloc(tl), *dir = malloc(dlen + 2);
    if (!tmp || !dir) {
        free(tmp);
        free(dir);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    if (slash) {
        memcpy(dir, path, dlen);
        dir[dlen] = 0;
        if (!dlen) strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    snprintf(tmp, tl, "%.*s%s.%s.tmp.XXXXXX", (int)dlen, path, slash ? "/" : "", base);
    struct slot_writer w = {.fd = -1, .path = path, .hash = XXH64_createState()};
    frink_status st = FRINK_OK;
    if (!w.hash) {
        st = frink_fail(FRINK_ERR_NOMEM, "out of memory");
        tmp[0] = 0;
        goto out;
    }
    XXH64_reset(w.hash, 0);
    // Never replace a file that is something else (a mistyped path could name
    // the model itself): only an empty file or an earlier slot file.
    int ofd = open(path, O_RDONLY);
    if (ofd >= 0) {
        char magic[8];
        ssize_t k = read(ofd, magic, sizeof magic);
        close(ofd);
        if (k != 0 && (k != 8 || memcmp(magic, SLOT_MAGIC, 8))) {
            st = frink_fail(FRINK_ERR_ARG, "'%s' exists and is not a frink slot file: not overwriting it", path);
            tmp[0] = 0;
            goto out;
        }
    }
    w.fd = mkstemp(tmp);
    if (w.fd < 0) {
        st = frink_fail(FRINK_ERR_IO, "cannot create a temporary file next to '%s': %s", path, strerror(errno));
        goto out;
    }
    struct slot_header h;
    header_fill(&h, s);
    // A zero header first: a file cut short before the end never looks valid.
    static const uint8_t zeros[sizeof(struct slot_header)];
    put(&w, zeros, sizeof zeros);
    XXH64_reset(w.hash, 0);
    const struct seq_shape *sh = s->shape;
    put(&w, s->tokens, (size_t)s->n_past * sizeof(int32_t));
    for (int il = 0; il < sh->n_layer; il++)
        if (s->k_row[il]) {
            put(&w, s->k[il], (size_t)s->n_past * s->k_row[il]);
            put(&w, s->v[il], (size_t)s->n_past * s->v_row[il]);
        }
    put_gdn_state(&w, s);
    for (int i = 0; i < s->n_ckpt; i++) {
        int32_t pm[2] = {s->ckpt[i].c->pos, s->ckpt[i].marked};
        put(&w, pm, sizeof pm);
        put(&w, s->ckpt[i].c->data, (size_t)sh->state_floats * sizeof(float));
    }
    if ((st = w.st)) goto out;
    h.payload_hash = XXH64_digest(w.hash);
    h.header_hash = state_hash64(&h, offsetof(struct slot_header, header_hash), 0);
    if (pwrite(w.fd, &h, sizeof h, 0) != (ssize_t)sizeof h) {
        st = frink_fail(FRINK_ERR_IO, "writing slot file header for '%s': %s", path, strerror(errno));
        goto out;
    }
    if (fsync(w.fd)) {
        st = frink_fail(FRINK_ERR_IO, "fsync of slot file for '%s': %s", path, strerror(errno));
        goto out;
    }
    int fd = w.fd;
    w.fd = -1;
    if (close(fd)) {
        st = frink_fail(FRINK_ERR_IO, "closing slot file for '%s': %s", path, strerror(errno));
        goto out;
    }
    if (rename(tmp, path)) {
        st = frink_fail(FRINK_ERR_IO, "cannot rename '%s' to '%s': %s", tmp, path, strerror(errno));
        goto out;
    }
    tmp[0] = 0; // renamed: nothing to clean up
    // The rename is durable once the directory entry is.
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        if (fsync(dfd) && errno != EINVAL)
            st = frink_fail(FRINK_ERR_IO, "fsync of directory '%s': %s", dir, strerror(errno));
        close(dfd);
    }
out:
    if (w.fd >= 0) close(w.fd);
    if (st && tmp[0]) unlink(tmp);
    XXH64_freeState(w.hash);
    free(tmp);
    free(dir);
    return st;
}

// Every refusal names the file and the reason.
#define REFUSE(st, ...) (frink_fail(st, __VA_ARGS__), frink_fail_ctx(st, "slot file '%s': ", path))

static frink_status slot_check(const struct seq *s, const char *path, const uint8_t *b, size_t size,
                               struct slot_header *h) {
    const struct seq_shape *sh = s->shape;
    size_t nm = size < 8 ? size : 8;
    if (memcmp(b, SLOT_MAGIC, nm)) return REFUSE(FRINK_ERR_FORMAT, "bad magic: not a frink slot file");
    if (size < 16) return REFUSE(FRINK_ERR_FORMAT, "truncated: %zu bytes, shorter than its header", size);
    uint32_t version = rd32(b + 8), hb = rd32(b + 12);
    if (version != SLOT_VERSION)
        return REFUSE(FRINK_ERR_UNSUPPORTED, "wrong version: the file is version %u, this frink reads version %u", version,
                      SLOT_VERSION);
    if (hb != sizeof *h) return REFUSE(FRINK_ERR_FORMAT, "corrupted: header size %u, expected %zu", hb, sizeof *h);
    if (size < sizeof *h) return REFUSE(FRINK_ERR_FORMAT, "truncated: %zu bytes, shorter than its header", size);
    memcpy(h, b, sizeof *h);
    if (state_hash64(h, offsetof(struct slot_header, header_hash), 0) != h->header_hash)
        return REFUSE(FRINK_ERR_FORMAT, "corrupted: header checksum mismatch");
    h->arch[sizeof h->arch - 1] = 0;
    h->name[sizeof h->name - 1] = 0;
    uint64_t id = sh->identity;
    if (h->model_id != id || strcmp(h->arch, sh->arch) || h->n_layer != (uint32_t)sh->n_layer)
        return REFUSE(FRINK_ERR_ARG,
                      "saved for another model: '%s' (%s, identity %016llx), this is '%s' (%s, identity %016llx)", h->name,
                      h->arch, (unsigned long long)h->model_id, sh->name, sh->arch, (unsigned long long)id);
    if (h->kv_type != (uint32_t)s->kv_type)
        return REFUSE(FRINK_ERR_ARG, "saved with a %s KV cache, this sequence uses %s", seq_kv_type_name((enum kv_type)h->kv_type),
                      seq_kv_type_name(s->kv_type));
    if (h->n_tokens > (uint32_t)INT32_MAX / 2 || h->n_ckpt > 1u << 20)
        return REFUSE(FRINK_ERR_FORMAT, "corrupted: %u tokens, %u checkpoints", h->n_tokens, h->n_ckpt);
    uint64_t want = payload_bytes(s, h->n_tokens, h->n_ckpt);
    if (h->payload_bytes != want)
        return REFUSE(FRINK_ERR_FORMAT, "corrupted: payload of %llu bytes, %llu expected for %u tokens",
                      (unsigned long long)h->payload_bytes, (unsigned long long)want, h->n_tokens);
    if (size - sizeof *h < want)
        return REFUSE(FRINK_ERR_FORMAT, "truncated: %zu bytes of %llu", size, (unsigned long long)(want + sizeof *h));
    if (size - sizeof *h > want)
        return REFUSE(FRINK_ERR_FORMAT, "corrupted: %llu bytes after the end of the state",
                      (unsigned long long)(size - sizeof *h - want));
    if (state_hash64(b + sizeof *h, want, 0) != h->payload_hash)
        return REFUSE(FRINK_ERR_FORMAT, "corrupted: checksum mismatch");
    return FRINK_OK;
}

static frink_status slot_apply(struct seq *s, const char *path, const uint8_t *p, const struct slot_header *h) {
    const struct seq_shape *sh = s->shape;
    int n = (int)h->n_tokens;
    const int32_t *tok = (const int32_t *)p;
    for (int i = 0; i < n; i++)
        if (tok[i] < 0 || tok[i] >= sh->n_vocab)
            return REFUSE(FRINK_ERR_FORMAT, "corrupted: token %d at %d is outside the vocabulary", tok[i], i);
    size_t st_bytes = (size_t)sh->state_floats * sizeof(float);
    // Checkpoints: positions within the tokens, strictly increasing.
    size_t ck_off = (size_t)n * sizeof(int32_t) + st_bytes;
    for (int il = 0; il < sh->n_layer; il++) ck_off += (size_t)n * (s->k_row[il] + s->v_row[il]);
    int prev = -1;
    for (uint32_t i = 0; i < h->n_ckpt; i++) {
        int32_t pm[2];
        memcpy(pm, p + ck_off + (size_t)i * (8 + st_bytes), sizeof pm);
        if (pm[0] <= prev || pm[0] > n || (uint32_t)pm[1] > 1)
            return REFUSE(FRINK_ERR_FORMAT, "corrupted: checkpoint %u at position %d", i, pm[0]);
        prev = pm[0];
    }
    frink_status st = seq_reserve(s, n > 0 ? n : 1);
    if (st) return st;
    struct seq_cp *cps = h->n_ckpt ? calloc(h->n_ckpt, sizeof *cps) : NULL;
    if (h->n_ckpt && !cps) return frink_fail(FRINK_ERR_NOMEM, "out of memory loading '%s'", path);
    for (uint32_t i = 0; i < h->n_ckpt; i++) {
        const uint8_t *c = p + ck_off + (size_t)i * (8 + st_bytes);
        int32_t pm[2];
        memcpy(pm, c, sizeof pm);
        struct seq_ckpt *ck = calloc(1, sizeof *ck);
        if (ck) ck->data = malloc(st_bytes ? st_bytes : 1);
        if (!ck || !ck->data) {
            if (ck) free(ck->data);
            free(ck);
            for (uint32_t k = 0; k < i; k++) seq_ckpt_release(cps[k].c);
            free(cps);
            return frink_fail(FRINK_ERR_NOMEM, "out of memory loading '%s'", path);
        }
        ck->refs = 1;
        ck->pos = pm[0];
        memcpy(ck->data, c + 8, st_bytes);
        cps[i] = (struct seq_cp){ck, pm[1] != 0};
    }
    // Nothing can fail from here: replace the sequence's contents.
    seq_reset(s);
    memcpy(s->tokens, p, (size_t)n * sizeof(int32_t));
    p += (size_t)n * sizeof(int32_t);
    for (int il = 0; il < sh->n_layer; il++)
        if (s->k_row[il]) {
            memcpy(s->k[il], p, (size_t)n * s->k_row[il]);
            p += (size_t)n * s->k_row[il];
            memcpy(s->v[il], p, (size_t)n * s->v_row[il]);
            p += (size_t)n * s->v_row[il];
        }
    for (int il = 0; il < sh->n_layer; il++)
        if (s->conv[il]) {
            size_t nc = (size_t)sh->layer[il].conv_floats * sizeof(float), ns = (size_t)sh->layer[il].ssm_floats * sizeof(float);
            memcpy(s->conv[il], p, nc);
            memcpy(s->ssm[il], p + nc, ns);
            p += nc + ns;
        }
    free(s->ckpt);
    s->ckpt = cps;
    s->n_ckpt = s->cap_ckpt = (int)h->n_ckpt;
    s->n_past = n;
    return FRINK_OK;
}

frink_status slot_load(struct seq *s, const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        int e = errno;
        frink_fail(FRINK_ERR_IO, "cannot open slot file '%s': %s", path, strerror(e));
        errno = e;
        return FRINK_ERR_IO;
    }
    struct stat sb;
    if (fstat(fd, &sb)) {
        int e = errno;
        close(fd);
        return frink_fail(FRINK_ERR_IO, "cannot stat slot file '%s': %s", path, strerror(e));
    }
    size_t size = (size_t)sb.st_size;
    if (size == 0) {
        close(fd);
        return REFUSE(FRINK_ERR_FORMAT, "truncated: the file is empty");
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return frink_fail(FRINK_ERR_IO, "cannot map slot file '%s': %s", path, strerror(errno));
    struct slot_header h;
    frink_status st = slot_check(s, path, map, size, &h);
    if (!st) st = slot_apply(s, path, (const uint8_t *)map + sizeof h, &h);
    munmap(map, size);
    return st;
}

// ---- prefix cache ----------------------------------------------------------------------

struct pc_entry {
    struct seq *s;      // owned snapshot
    uint64_t *keys;     // [n_keys] chained hash of blocks 0..i
    int n_keys;
    size_t bytes;
    uint64_t used_at;
};

struct prefix_cache {
    const struct seq_shape *shape;
    size_t budget, used;
    int block;
    struct pc_entry *e;
    int n, cap;
    uint64_t clock;
};

static uint64_t *block_keys(const int32_t *t, int n, int block, int *nk) {
    *nk = n / block;
    uint64_t *k = malloc((size_t)(*nk > 0 ? *nk : 1) * sizeof *k);
    if (!k) return NULL;
    uint64_t h = 0;
    for (int i = 0; i < *nk; i++) k[i] = h = state_hash64(t + (size_t)i * block, (size_t)block * sizeof *t, h);
    return k;
}

frink_status prefix_cache_create(const struct seq_shape *sh, size_t budget, int block, struct prefix_cache **out) {
    *out = NULL;
    if (block < 1) return frink_fail(FRINK_ERR_ARG, "prefix cache block of %d tokens", block);
    struct prefix_cache *pc = calloc(1, sizeof *pc);
    if (!pc) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    pc->shape = sh;
    pc->budget = budget;
    pc->block = block;
    *out = pc;
    return FRINK_OK;
}

static void entry_drop(struct prefix_cache *pc, int i) {
    seq_free(pc->e[i].s);
    free(pc->e[i].keys);
    pc->used -= pc->e[i].bytes;
    pc->e[i] = pc->e[--pc->n];
}

void prefix_cache_free(struct prefix_cache *pc) {
    if (!pc) return;
    while (pc->n) entry_drop(pc, pc->n - 1);
    free(pc->e);
    free(pc);
}

int prefix_cache_entries(const struct prefix_cache *pc) { return pc->n; }
size_t prefix_cache_bytes(const struct prefix_cache *pc) { return pc->used; }

frink_status prefix_cache_put(struct prefix_cache *pc, const struct seq *s) {
    if (s->shape != pc->shape) return frink_fail(FRINK_ERR_ARG, "prefix cache: a sequence of another model");
    if (s->n_past == 0) return FRINK_OK;
    struct pc_entry e = {0};
    frink_status st = seq_fork(s, &e.s);
    if (st) return st;
    e.keys = block_keys(s->tokens, s->n_past, pc->block, &e.n_keys);
    if (!e.keys) {
        seq_free(e.s);
        return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    }
    e.bytes = seq_bytes(e.s) + (size_t)e.n_keys * sizeof *e.keys;
    if (e.bytes > pc->budget) {
        seq_free(e.s);
        free(e.keys);
        return FRINK_OK;
    }
    // Entries the new one covers exactly are redundant.
    for (int i = 0; i < pc->n;) {
        const struct seq *o = pc->e[i].s;
        if (o->n_past <= s->n_past && !memcmp(o->tokens, s->tokens, (size_t)o->n_past * sizeof *o->tokens) &&
            seq_restore_point(e.s, o->n_past) == o->n_past)
            entry_drop(pc, i);
        else
            i++;
    }
    while (pc->n && pc->used + e.bytes > pc->budget) {
        int lru = 0;
        for (int i = 1; i < pc->n; i++)
            if (pc->e[i].used_at < pc->e[lru].used_at) lru = i;
        entry_drop(pc, lru);
    }
    if (pc->n == pc->cap) {
        int cap = pc->cap ? 2 * pc->cap : 8;
        struct pc_entry *ne = realloc(pc->e, (size_t)cap * sizeof *ne);
        if (!ne) {
            seq_free(e.s);
            free(e.keys);
            return frink_fail(FRINK_ERR_NOMEM, "out of memory");
        }
        pc->e = ne;
        pc->cap = cap;
    }
    e.used_at = ++pc->clock;
    pc->e[pc->n++] = e;
    pc->used += e.bytes;
    return FRINK_OK;
}

frink_status prefix_cache_find(struct prefix_cache *pc, const int32_t *prompt, int n, int max_len, bool can_replay,
                               const struct seq **src, int *len) {
    *src = NULL;
    *len = 0;
    int lim = n < max_len ? n : max_len;
    if (lim < 0) lim = 0;
    int nk;
    uint64_t *pk = block_keys(prompt, lim, pc->block, &nk);
    if (!pk) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    // Best entry: the most tokens restored without compute (the restore point),
    // then the longest match.
    int best = -1, best_len = 0, best_r = -1;
    for (int i = 0; i < pc->n; i++) {
        const struct pc_entry *e = &pc->e[i];
        int b = 0;
        while (b < nk && b < e->n_keys && e->keys[b] == pk[b]) b++;
        int L = b * pc->block;
        if (memcmp(e->s->tokens, prompt, (size_t)L * sizeof *prompt)) L = 0; // a hash collision: compare tokens
        int cap = e->s->n_past < lim ? e->s->n_past : lim;
        while (L < cap && e->s->tokens[L] == prompt[L]) L++;
        if (!L) continue;
        int r = seq_restore_point(e->s, L);
        if (r > best_r || (r == best_r && L > best_len)) {
            best = i;
            best_len = L;
            best_r = r;
        }
    }
    free(pk);
    if (best < 0) return FRINK_OK;
    if (!can_replay) { // nothing evaluated: stop at the restore point
        if (best_r <= 0) return FRINK_OK;
        best_len = best_r;
    }
    pc->e[best].used_at = ++pc->clock;
    *src = pc->e[best].s;
    *len = best_len;
    return FRINK_OK;
}
