// Slot files: save, restore, continue for llama and the hybrid fixtures: the
// same greedy tokens as never having saved, and bit-for-bit the same logits as
// the sequence that was saved (the state is copied, not recomputed); every refusal reason by name; a process SIGKILLed in the
// middle of a save leaves the previous file intact.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seqtest.h"

#define NP 300
#define NG 16

static char dir[64];

static struct seq *mkseq(struct tm_ctx *c, enum kv_type kt) {
    struct seq_opts o;
    seq_opts_default(&o);
    o.kv_type = kt;
    o.ckpt_every = 64;
    struct seq *s = NULL;
    if (seq_create_opts(c->m, &o, &s)) fprintf(stderr, "seq_create: %s\n", frink_errmsg());
    return s;
}

static long file_size(const char *p) {
    struct stat sb;
    return stat(p, &sb) ? -1 : (long)sb.st_size;
}

static int copy_file(const char *from, const char *to, long keep) {
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    if (!a || !b) return -1;
    char buf[65536];
    long left = keep;
    size_t k;
    while (left && (k = fread(buf, 1, left < (long)sizeof buf && left > 0 ? (size_t)left : sizeof buf, a)) > 0) {
        fwrite(buf, 1, k, b);
        if (left > 0) left -= (long)k;
    }
    fclose(a);
    fclose(b);
    return 0;
}

static void poke(const char *path, long off, uint8_t x) {
    int fd = open(path, O_RDWR);
    uint8_t b;
    if (pread(fd, &b, 1, off) == 1) {
        b ^= x;
        if (pwrite(fd, &b, 1, off) != 1) perror("pwrite");
    }
    close(fd);
}

static void poke_u32(const char *path, long off, uint32_t v) {
    int fd = open(path, O_RDWR);
    if (pwrite(fd, &v, 4, off) != 4) perror("pwrite");
    close(fd);
}

// Loads `path` into a sequence holding some other state and checks the refusal
// names `why` and leaves the sequence as it was.
static void refused(struct tm_ctx *c, struct seq *s, const char *path, const char *why) {
    int before = s->n_past;
    frink_status st = slot_load(s, path);
    const char *msg = frink_errmsg();
    CHECK(st != FRINK_OK, "%s: %s loaded", c->name, why);
    CHECK(st != FRINK_OK && strstr(msg, why) != NULL, "%s: refusal should say '%s', said '%s'", c->name, why, msg);
    CHECK(strstr(msg, path) != NULL, "%s: refusal should name the file: '%s'", c->name, msg);
    CHECK(s->n_past == before, "%s: a refused load changed the sequence", c->name);
}

static void test_roundtrip(struct tm_ctx *c, const int32_t *p) {
    char path[128];
    snprintf(path, sizeof path, "%s/rt.slot", dir);
    float *lg = malloc((size_t)c->V * sizeof *lg), *lg2 = malloc((size_t)c->V * sizeof *lg);
    int32_t want[NG], got[NG], more_want[NG], more_got[NG];
    // Never saved: prompt, NG greedy, NG more greedy.
    struct seq *a = mkseq(c, KV_F16), *b = mkseq(c, KV_F16), *r = mkseq(c, KV_F16);
    CHECK(!seq_append(c->ex, a, p, NP, lg, false, true), "%s", frink_errmsg());
    memcpy(lg2, lg, (size_t)c->V * sizeof *lg);
    CHECK(!tm_greedy(c, a, lg, NG, want), "%s", c->name);
    // Saved after the prompt, restored into another sequence, continued.
    CHECK(!seq_append(c->ex, b, p, NP, NULL, false, true), "%s", frink_errmsg());
    CHECK(!slot_save(b, path), "%s: save: %s", c->name, frink_errmsg());
    CHECK(!seq_append(c->ex, r, p, 10, NULL, false, false), "%s", frink_errmsg()); // something to replace
    CHECK(!slot_load(r, path), "%s: load: %s", c->name, frink_errmsg());
    CHECK(r->n_past == NP && r->n_ckpt == b->n_ckpt && !memcmp(r->tokens, p, NP * sizeof *p), "%s: restored shape", c->name);
    for (int i = 0; i < r->n_ckpt && i < b->n_ckpt; i++)
        CHECK(r->ckpt[i].c->pos == b->ckpt[i].c->pos && r->ckpt[i].marked == b->ckpt[i].marked, "%s: checkpoint %d", c->name, i);
    // The logits of the last prompt token are not in the file: recompute it.
    CHECK(!seq_truncate(c->ex, r, NP - 1, NULL), "%s", frink_errmsg());
    CHECK(!seq_append(c->ex, r, p + NP - 1, 1, lg, false, true), "%s", frink_errmsg());
    CHECK(tm_nmse(lg, lg2, c->V) < 1e-6, "%s: logits after restore", c->name);
    CHECK(!tm_greedy(c, r, lg, NG, got), "%s", c->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after restore differs", c->name);
    // Saved mid-generation (checkpoints included), restored into b: b and r
    // continue from the same logits bit for bit only if the states are equal.
    CHECK(!slot_save(r, path), "%s: save: %s", c->name, frink_errmsg());
    seq_reset(b);
    CHECK(!slot_load(b, path), "%s: load: %s", c->name, frink_errmsg());
    memcpy(lg2, lg, (size_t)c->V * sizeof *lg);
    CHECK(!tm_greedy(c, r, lg, NG, more_want), "%s", c->name);
    CHECK(!tm_greedy(c, b, lg2, NG, more_got), "%s", c->name);
    CHECK(!memcmp(more_want, more_got, sizeof more_want), "%s: greedy after a mid-generation restore differs", c->name);
    CHECK(!memcmp(lg, lg2, (size_t)c->V * sizeof *lg), "%s: logits after a mid-generation restore differ", c->name);
    printf("  %-40s saved %ld bytes (%d tokens, %d checkpoints), restored, same continuation\n", c->name, file_size(path),
           r->n_past, r->n_ckpt);
    seq_free(a);
    seq_free(b);
    seq_free(r);
    free(lg);
    free(lg2);
}

static void test_refusals(struct tm_ctx *c, struct tm_ctx *other, const int32_t *p) {
    char good[128], bad[128];
    snprintf(good, sizeof good, "%s/good.slot", dir);
    snprintf(bad, sizeof bad, "%s/bad.slot", dir);
    struct seq *s = mkseq(c, KV_F16), *t = mkseq(c, KV_F16);
    CHECK(!seq_append(c->ex, s, p, 100, NULL, false, true), "%s", frink_errmsg());
    CHECK(!slot_save(s, good), "%s: %s", c->name, frink_errmsg());
    CHECK(!seq_append(c->ex, t, p, 7, NULL, false, false), "%s", frink_errmsg());
    long size = file_size(good);

    CHECK(slot_load(t, "/nonexistent/dir/x.slot") == FRINK_ERR_IO && errno == ENOENT, "missing file: errno %d", errno);
    FILE *f = fopen(bad, "wb");
    fputs("GGUF this is not a slot file at all, not even close to one.........", f);
    fclose(f);
    refused(c, t, bad, "bad magic");
    copy_file(good, bad, -1);
    poke_u32(bad, 8, 99);
    refused(c, t, bad, "wrong version");
    copy_file(good, bad, size - 100);
    refused(c, t, bad, "truncated");
    copy_file(good, bad, 100);
    refused(c, t, bad, "truncated");
    copy_file(good, bad, 0);
    refused(c, t, bad, "truncated");
    copy_file(good, bad, -1);
    poke(bad, 256 + 4 * 50 + 3, 0x40); // a bit in the payload
    refused(c, t, bad, "corrupted");
    copy_file(good, bad, -1);
    poke(bad, size - 1, 0x01); // the last byte of the state
    refused(c, t, bad, "checksum");
    copy_file(good, bad, -1);
    poke(bad, 160, 0x01); // n_tokens in the header
    refused(c, t, bad, "corrupted");
    copy_file(good, bad, -1);
    f = fopen(bad, "ab");
    fputs("trailing", f);
    fclose(f);
    refused(c, t, bad, "corrupted");
    // Another model's state.
    struct seq *o = mkseq(other, KV_F16);
    refused(other, o, good, "another model");
    seq_free(o);
    // Another KV cache type.
    struct seq *q = mkseq(c, KV_F32);
    refused(c, q, good, "KV cache");
    seq_free(q);
    // A file that is not a slot file is never overwritten.
    f = fopen(bad, "wb");
    fputs("GGUF precious bytes", f);
    fclose(f);
    CHECK(slot_save(s, bad) == FRINK_ERR_ARG && strstr(frink_errmsg(), "not overwriting"), "%s: %s", c->name, frink_errmsg());
    CHECK(file_size(bad) == 19, "%s: the foreign file was touched", c->name);
    // And the good file still loads.
    CHECK(!slot_load(t, good) && t->n_past == 100, "%s: %s", c->name, frink_errmsg());
    unlink(bad);
    unlink(good);
    seq_free(s);
    seq_free(t);
}

// ---- a process killed during a save ---------------------------------------------------

static int hook_fd = -1;
static size_t hook_at;

static void stall_hook(size_t written) {
    if (written < hook_at) return;
    // Tell the parent we are in the middle of writing, then wait to be killed.
    char x = 'w';
    if (write(hook_fd, &x, 1) != 1) _exit(3);
    for (;;) pause();
}

static void test_kill_during_save(struct tm_ctx *c, const int32_t *p) {
    char path[128];
    snprintf(path, sizeof path, "%s/kill.slot", dir);
    float *lg = malloc((size_t)c->V * sizeof *lg);
    int32_t want[NG], got[NG];
    struct seq *old = mkseq(c, KV_F16), *newer = mkseq(c, KV_F16), *r = mkseq(c, KV_F16);
    CHECK(!seq_append(c->ex, old, p, 120, NULL, false, true), "%s", frink_errmsg());
    CHECK(!slot_save(old, path), "%s: %s", c->name, frink_errmsg());
    long old_size = file_size(path);
    CHECK(!seq_append(c->ex, newer, p, NP, NULL, false, true), "%s", frink_errmsg());
    CHECK(!seq_append(c->ex, newer, p, NP, NULL, false, true), "%s", frink_errmsg());
    int pfd[2];
    CHECK(pipe(pfd) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        hook_fd = pfd[1];
        hook_at = (size_t)old_size; // well past the header, well before the end
        slot_save_hook = stall_hook;
        slot_save(newer, path);
        _exit(2); // the hook never fired: the parent sees EOF
    }
    close(pfd[1]);
    char x = 0;
    ssize_t k = read(pfd[0], &x, 1);
    CHECK(k == 1 && x == 'w', "the child did not reach the middle of its save");
    kill(pid, SIGKILL);
    int ws = 0;
    waitpid(pid, &ws, 0);
    close(pfd[0]);
    CHECK(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL, "the child was not killed (status %d)", ws);
    // The old file is intact and restores; the partial temporary is beside it.
    CHECK(file_size(path) == old_size, "%s: the target changed size (%ld, was %ld)", c->name, file_size(path), old_size);
    CHECK(!slot_load(r, path), "%s: the old file no longer loads: %s", c->name, frink_errmsg());
    CHECK(r->n_past == 120, "%s: restored %d tokens", c->name, r->n_past);
    // Continue from it as from the original.
    CHECK(!seq_truncate(c->ex, r, 119, NULL) && !seq_append(c->ex, r, p + 119, 1, lg, false, true), "%s", c->name);
    CHECK(!tm_greedy(c, r, lg, NG, got), "%s", c->name);
    CHECK(!seq_truncate(c->ex, old, 119, NULL) && !seq_append(c->ex, old, p + 119, 1, lg, false, true), "%s", c->name);
    CHECK(!tm_greedy(c, old, lg, NG, want), "%s", c->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: continuation from the surviving file differs", c->name);
    int stray = 0;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '^\\.kill\\.slot\\.tmp\\.' > %s/count", dir, dir);
    if (system(cmd) >= 0) {
        snprintf(cmd, sizeof cmd, "%s/count", dir);
        FILE *f = fopen(cmd, "r");
        if (f && fscanf(f, "%d", &stray) != 1) stray = -1;
        if (f) fclose(f);
        unlink(cmd);
    }
    CHECK(stray == 1, "%s: expected the killed save's partial temporary file, found %d", c->name, stray);
    printf("  %-40s killed mid-save: previous %ld-byte file intact and restored\n", c->name, old_size);
    snprintf(cmd, sizeof cmd, "rm -f %s/.kill.slot.tmp.*", dir);
    if (system(cmd)) perror("rm");
    unlink(path);
    seq_free(old);
    seq_free(newer);
    seq_free(r);
    free(lg);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/frink-slot-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    // XXH64 reference values (the checksum must be the standard one).
    CHECK(state_hash64("", 0, 0) == 0xEF46DB3751D8E999ull, "xxh64('')");
    CHECK(state_hash64("abc", 3, 0) == 0x44BC2CF5AD770999ull, "xxh64('abc')");
    CHECK(state_hash64("Nobody inspects the spammish repetition", 39, 0) == 0xFBCEA83C8A378BF1ull, "xxh64(39 bytes)");
    struct tm_ctx ctx[3];
    int n = 0;
    for (const char *const *mp = tm_models; *mp; mp++, n++) CHECK(!tm_open(&ctx[n], *mp, 512), "cannot open %s", *mp);
    for (int i = 0; i < n; i++) {
        int32_t p[NP];
        tm_prompt(p, NP, ctx[i].V, 11);
        test_roundtrip(&ctx[i], p);
        test_refusals(&ctx[i], &ctx[(i + 1) % n], p);
        test_kill_during_save(&ctx[i], p);
    }
    for (int i = 0; i < n; i++) tm_close(&ctx[i]);
    rmdir(dir);
    return TEST_DONE();
}
