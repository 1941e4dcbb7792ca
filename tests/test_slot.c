// Slot files through include/frink.h: save, restore, continue for llama and the
// recurrent fixtures (tm_models): the same greedy tokens as never having saved, and bit-for-bit
// the same logits as the sequence that was saved (the state is copied, not
// recomputed); every refusal reason by name; a save cut short by the file size
// limit leaves the previous file intact. A last section checks what only the
// state module can show (white-box): its checksum, and a process SIGKILLed in
// the middle of a save (stopped there by the module's test hook).
//
// The refusal tests edit files at offsets of the slot file layout described in
// src/state/state.h (header of 256 bytes: version at 8, n_tokens at 160).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seqtest.h"

#define NP 300
#define NG 16
#define E TM_CKPT_EVERY

static char dir[64];

static long file_size(const char *p) {
    struct stat sb;
    return stat(p, &sb) ? -1 : (long)sb.st_size;
}

static int copy_file(const char *from, const char *to, long keep) {
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    if (!a || !b) {
        if (a) fclose(a);
        if (b) fclose(b);
        return -1;
    }
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

// Temporary files a save left beside `name` in dir (".NAME.tmp.XXXXXX"); -1 when
// the directory cannot be read.
static int strays(const char *name) {
    char cmd[256], out[160];
    snprintf(out, sizeof out, "%s/count", dir);
    snprintf(cmd, sizeof cmd, "ls -a %s | grep -c '^\\.%s\\.tmp\\.' > %s", dir, name, out);
    int n = -1;
    if (system(cmd) >= 0) {
        FILE *f = fopen(out, "r");
        if (f && fscanf(f, "%d", &n) != 1) n = -1;
        if (f) fclose(f);
        unlink(out);
    }
    return n;
}

static void remove_strays(const char *name) {
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -f %s/.%s.tmp.*", dir, name);
    if (system(cmd)) perror("rm");
}

// Loads `path` into a sequence holding some other state and checks the refusal
// names `why` and leaves the sequence as it was.
static void refused(const struct tm_ctx *t, frink_seq *s, const char *path, const char *why) {
    int before = frink_seq_len(s);
    size_t bytes = frink_seq_bytes(s);
    frink_token *tok = malloc((size_t)(before + 1) * sizeof *tok);
    memcpy(tok, frink_seq_tokens(s), (size_t)before * sizeof *tok);
    frink_status st = frink_seq_load(s, path);
    const char *msg = frink_errmsg();
    CHECK(st != FRINK_OK, "%s: %s loaded", t->name, why);
    CHECK(st != FRINK_OK && strstr(msg, why) != NULL, "%s: refusal should say '%s', said '%s'", t->name, why, msg);
    CHECK(strstr(msg, path) != NULL, "%s: refusal should name the file: '%s'", t->name, msg);
    CHECK(frink_seq_len(s) == before && frink_seq_bytes(s) == bytes &&
              !memcmp(frink_seq_tokens(s), tok, (size_t)before * sizeof *tok),
          "%s: a refused load changed the sequence", t->name);
    free(tok);
}

// The checkpoints a fork of s holds after 4 * NP more tokens without a mark: the
// periodic ones past the most recent four are gone, the marked ones stay. So the
// positions show which checkpoints were marked (end of prompt) and which periodic.
static int after_long_eval(const frink_seq *s, const frink_token *p, int *pos, int max) {
    frink_seq *f = NULL;
    if (frink_seq_fork(s, &f)) return -1;
    int n = -1;
    for (int k = 0; k < 4; k++)
        if (frink_seq_eval(f, p, NP, NULL, 0)) goto out;
    n = tm_ckpt_positions(f, pos, max);
out:
    frink_seq_free(f);
    return n;
}

static void test_roundtrip(struct tm_ctx *t, const frink_token *p) {
    char path[128];
    snprintf(path, sizeof path, "%s/rt.slot", dir);
    float *lg = malloc((size_t)t->V * sizeof *lg), *lg2 = malloc((size_t)t->V * sizeof *lg);
    frink_token want[NG], got[NG], more_want[NG], more_got[NG];
    // Never saved: prompt, NG greedy, NG more greedy.
    frink_seq *a = tm_seq(t->c), *b = tm_seq(t->c), *r = tm_seq(t->c);
    if (!a || !b || !r) goto out;
    CHECK(!frink_seq_eval(a, p, NP, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    memcpy(lg2, lg, (size_t)t->V * sizeof *lg);
    CHECK(!tm_greedy(t, a, lg, NG, want), "%s", t->name);
    // Saved after the prompt, restored into another sequence, continued.
    CHECK(!frink_seq_eval(b, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_save(b, path), "%s: save: %s", t->name, frink_errmsg());
    CHECK(!frink_seq_eval(r, p, 10, NULL, 0), "%s", frink_errmsg()); // something to replace
    CHECK(!frink_seq_load(r, path), "%s: load: %s", t->name, frink_errmsg());
    // The same tokens, and the same bytes: KV rows, state and as many checkpoints.
    CHECK(frink_seq_len(r) == NP && frink_seq_bytes(r) == frink_seq_bytes(b) && !memcmp(frink_seq_tokens(r), p, NP * sizeof *p),
          "%s: restored shape", t->name);
    int n_ckpt = 0;
    if (t->hybrid) {
        int pb[16], pr[16];
        int nb = tm_ckpt_positions(b, pb, 16), nr = tm_ckpt_positions(r, pr, 16);
        n_ckpt = nr;
        CHECK(nb == 2 && nr == nb, "%s: %d checkpoints restored of %d (%s)", t->name, nr, nb, tm_fmt_positions(pr, nr));
        for (int i = 0; i < nr && i < nb; i++) CHECK(pr[i] == pb[i], "%s: checkpoint %d at %d, was %d", t->name, i, pr[i], pb[i]);
        // Which were marked survives too.
        nb = after_long_eval(b, p, pb, 16);
        nr = after_long_eval(r, p, pr, 16);
        CHECK(tm_positions_are(pb, nb, (const int[]){NP, 2 * E, 3 * E, 4 * E, 5 * E}, 5) && tm_positions_are(pr, nr, pb, nb),
              "%s: checkpoint classes: saved %s, restored %s", t->name, tm_fmt_positions(pb, nb), tm_fmt_positions(pr, nr));
    }
    // The logits of the last prompt token are not in the file: recompute it.
    CHECK(!frink_seq_truncate(r, NP - 1, NULL), "%s", frink_errmsg());
    CHECK(!frink_seq_eval(r, p + NP - 1, 1, lg, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(tm_nmse(lg, lg2, t->V) < 1e-6, "%s: logits after restore", t->name);
    CHECK(!tm_greedy(t, r, lg, NG, got), "%s", t->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: greedy after restore differs", t->name);
    // Saved mid-generation (checkpoints included), restored into b: b and r
    // continue from the same logits bit for bit only if the states are equal.
    CHECK(!frink_seq_save(r, path), "%s: save: %s", t->name, frink_errmsg());
    frink_seq_reset(b);
    CHECK(frink_seq_len(b) == 0, "%s: reset", t->name);
    CHECK(!frink_seq_load(b, path), "%s: load: %s", t->name, frink_errmsg());
    CHECK(frink_seq_len(b) == NP + NG && frink_seq_bytes(b) == frink_seq_bytes(r), "%s: restored shape mid-generation", t->name);
    memcpy(lg2, lg, (size_t)t->V * sizeof *lg);
    CHECK(!tm_greedy(t, r, lg, NG, more_want), "%s", t->name);
    CHECK(!tm_greedy(t, b, lg2, NG, more_got), "%s", t->name);
    CHECK(!memcmp(more_want, more_got, sizeof more_want), "%s: greedy after a mid-generation restore differs", t->name);
    CHECK(!memcmp(lg, lg2, (size_t)t->V * sizeof *lg), "%s: logits after a mid-generation restore differ", t->name);
    printf("  %-40s saved %ld bytes (%d tokens, %d checkpoints), restored, same continuation\n", t->name, file_size(path),
           frink_seq_len(r), n_ckpt);
out:
    unlink(path);
    frink_seq_free(a);
    frink_seq_free(b);
    frink_seq_free(r);
    free(lg);
    free(lg2);
}

static void test_refusals(struct tm_ctx *t, struct tm_ctx *other, const frink_token *p) {
    char good[128], bad[128];
    snprintf(good, sizeof good, "%s/good.slot", dir);
    snprintf(bad, sizeof bad, "%s/bad.slot", dir);
    frink_seq *s = tm_seq(t->c), *u = tm_seq(t->c);
    if (!s || !u) goto out;
    CHECK(!frink_seq_eval(s, p, 100, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_save(s, good), "%s: %s", t->name, frink_errmsg());
    CHECK(!frink_seq_eval(u, p, 7, NULL, 0), "%s", frink_errmsg());
    long size = file_size(good);
    struct stat sb;
    CHECK(!stat(good, &sb) && (sb.st_mode & 0777) == 0600, "%s: a slot file is created 0600 (%o)", t->name,
          (unsigned)(sb.st_mode & 0777));

    errno = 0;
    CHECK(frink_seq_load(u, "/nonexistent/dir/x.slot") == FRINK_ERR_IO && errno == ENOENT, "missing file: errno %d", errno);
    FILE *f = fopen(bad, "wb");
    fputs("GGUF this is not a slot file at all, not even close to one.........", f);
    fclose(f);
    refused(t, u, bad, "bad magic");
    copy_file(good, bad, -1);
    poke_u32(bad, 8, 99);
    refused(t, u, bad, "wrong version");
    copy_file(good, bad, size - 100);
    refused(t, u, bad, "truncated");
    copy_file(good, bad, 100);
    refused(t, u, bad, "truncated");
    copy_file(good, bad, 0);
    refused(t, u, bad, "truncated");
    copy_file(good, bad, -1);
    poke(bad, 256 + 4 * 50 + 3, 0x40); // a bit in the payload
    refused(t, u, bad, "corrupted");
    copy_file(good, bad, -1);
    poke(bad, size - 1, 0x01); // the last byte of the state
    refused(t, u, bad, "checksum");
    copy_file(good, bad, -1);
    poke(bad, 160, 0x01); // n_tokens in the header
    refused(t, u, bad, "corrupted");
    copy_file(good, bad, -1);
    f = fopen(bad, "ab");
    fputs("trailing", f);
    fclose(f);
    refused(t, u, bad, "corrupted");
    // Another model's state.
    frink_seq *o = tm_seq(other->c);
    if (o) refused(other, o, good, "another model");
    frink_seq_free(o);
    // Another KV cache type.
    frink_context *c32 = tm_context(t, FRINK_KV_F32, 0);
    frink_seq *q = c32 ? tm_seq(c32) : NULL;
    CHECK(q != NULL, "%s: an f32 context", t->name);
    if (q) refused(t, q, good, "KV cache");
    frink_context_free(c32);
    // More tokens than the context's n_ctx.
    frink_context_params cp = frink_context_default_params();
    cp.n_threads = TM_THREADS;
    cp.n_ctx = 50;
    frink_context *small = NULL;
    frink_seq *sm = NULL;
    CHECK(!frink_context_create(t->m, &cp, &small) && !frink_seq_create(small, &sm), "%s: %s", t->name, frink_errmsg());
    if (sm) {
        frink_status st = frink_seq_load(sm, good);
        CHECK(st == FRINK_ERR_STATE && strstr(frink_errmsg(), "n_ctx") && strstr(frink_errmsg(), good), "%s: %s: %s", t->name,
              frink_status_name(st), frink_errmsg());
    }
    frink_context_free(small);
    // A file that is not a slot file is never overwritten.
    f = fopen(bad, "wb");
    fputs("GGUF precious bytes", f);
    fclose(f);
    CHECK(frink_seq_save(s, bad) == FRINK_ERR_ARG && strstr(frink_errmsg(), "not overwriting"), "%s: %s", t->name,
          frink_errmsg());
    CHECK(file_size(bad) == 19, "%s: the foreign file was touched", t->name);
    // And the good file still loads.
    CHECK(!frink_seq_load(u, good) && frink_seq_len(u) == 100, "%s: %s", t->name, frink_errmsg());
    CHECK(!memcmp(frink_seq_tokens(u), p, 100 * sizeof *p) && frink_seq_bytes(u) == frink_seq_bytes(s), "%s: loaded shape",
          t->name);
out:
    unlink(bad);
    unlink(good);
    frink_seq_free(s);
    frink_seq_free(u);
}

// Continues s and o the same way from token 119 of p: the same greedy tokens.
static void same_continuation(const struct tm_ctx *t, frink_seq *r, frink_seq *o, const frink_token *p, const char *what) {
    float *lg = malloc((size_t)t->V * sizeof *lg);
    frink_token want[NG], got[NG];
    CHECK(!frink_seq_truncate(r, 119, NULL) && !frink_seq_eval(r, p + 119, 1, lg, FRINK_EVAL_CHECKPOINT), "%s: %s", t->name,
          frink_errmsg());
    CHECK(!tm_greedy(t, r, lg, NG, got), "%s", t->name);
    CHECK(!frink_seq_truncate(o, 119, NULL) && !frink_seq_eval(o, p + 119, 1, lg, FRINK_EVAL_CHECKPOINT), "%s: %s", t->name,
          frink_errmsg());
    CHECK(!tm_greedy(t, o, lg, NG, want), "%s", t->name);
    CHECK(!memcmp(want, got, sizeof want), "%s: continuation from the %s differs", t->name, what);
    free(lg);
}

// ---- a save cut short ---------------------------------------------------------------------
// The file size limit (RLIMIT_FSIZE) stops a save in the middle of its writes: with
// SIGXFSZ at its default the process is killed there; with SIGXFSZ ignored the write
// fails (EFBIG) and the save must fail cleanly. Either way the previous file stays.

static void test_save_cut_short(struct tm_ctx *t, const frink_token *p) {
    char path[128];
    snprintf(path, sizeof path, "%s/cut.slot", dir);
    frink_seq *old = tm_seq(t->c), *newer = tm_seq(t->c), *r = tm_seq(t->c);
    if (!old || !newer || !r) goto out;
    CHECK(!frink_seq_eval(old, p, 120, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_save(old, path), "%s: %s", t->name, frink_errmsg());
    long old_size = file_size(path);
    CHECK(!frink_seq_eval(newer, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_eval(newer, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());

    // Killed by the limit: a child that would write well past old_size bytes.
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit rl;
        getrlimit(RLIMIT_FSIZE, &rl);
        rl.rlim_cur = (rlim_t)old_size;
        signal(SIGXFSZ, SIG_DFL);
        if (setrlimit(RLIMIT_FSIZE, &rl)) _exit(3);
        frink_seq_save(newer, path);
        _exit(2); // the limit never stopped it
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    CHECK(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGXFSZ, "%s: the save was not stopped by the size limit (status %d)", t->name, ws);
    CHECK(file_size(path) == old_size, "%s: the target changed size (%ld, was %ld)", t->name, file_size(path), old_size);
    CHECK(strays("cut.slot") == 1, "%s: expected the stopped save's partial temporary file, found %d", t->name,
          strays("cut.slot"));
    remove_strays("cut.slot");
    CHECK(!frink_seq_load(r, path) && frink_seq_len(r) == 120, "%s: the old file no longer loads: %s", t->name, frink_errmsg());
    same_continuation(t, r, old, p, "file that survived a killed save");

    // Refused by the limit: the save fails naming the write, and cleans up after itself.
    struct rlimit keep, rl;
    getrlimit(RLIMIT_FSIZE, &keep);
    rl = keep;
    rl.rlim_cur = (rlim_t)old_size;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    frink_status st = setrlimit(RLIMIT_FSIZE, &rl) ? FRINK_OK : frink_seq_save(newer, path);
    setrlimit(RLIMIT_FSIZE, &keep);
    signal(SIGXFSZ, prev);
    CHECK(st == FRINK_ERR_IO && strstr(frink_errmsg(), "writing slot file") && strstr(frink_errmsg(), path), "%s: %s: %s",
          t->name, frink_status_name(st), frink_errmsg());
    CHECK(file_size(path) == old_size && strays("cut.slot") == 0, "%s: a failed save left %ld bytes and %d temporary files",
          t->name, file_size(path), strays("cut.slot"));
    frink_seq_reset(r);
    CHECK(!frink_seq_load(r, path) && frink_seq_len(r) == 120, "%s: the old file no longer loads: %s", t->name, frink_errmsg());
    // Without the limit the same save goes through.
    CHECK(!frink_seq_save(newer, path) && file_size(path) > old_size, "%s: %s", t->name, frink_errmsg());
    CHECK(!frink_seq_load(r, path) && frink_seq_len(r) == 2 * NP, "%s: %s", t->name, frink_errmsg());
    printf("  %-40s save cut short at %ld bytes (killed, then refused): previous file intact\n", t->name, old_size);
out:
    unlink(path);
    frink_seq_free(old);
    frink_seq_free(newer);
    frink_seq_free(r);
}

// ---- white-box checks of the state module ---------------------------------------------
// The slot file checksum is the standard XXH64 (state_hash64), and a process
// SIGKILLed in the middle of a save leaves the previous file intact: the module's
// test hook (slot_save_hook) stops the saving child at a chosen point.
#include "state/state.h"

static int hook_fd = -1;
static size_t hook_at;

static void stall_hook(size_t written) {
    if (written < hook_at) return;
    // Tell the parent we are in the middle of writing, then wait to be killed.
    char x = 'w';
    if (write(hook_fd, &x, 1) != 1) _exit(3);
    for (;;) pause();
}

static void test_kill_during_save(struct tm_ctx *t, const frink_token *p) {
    char path[128];
    snprintf(path, sizeof path, "%s/kill.slot", dir);
    frink_seq *old = tm_seq(t->c), *newer = tm_seq(t->c), *r = tm_seq(t->c);
    if (!old || !newer || !r) goto out;
    CHECK(!frink_seq_eval(old, p, 120, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_save(old, path), "%s: %s", t->name, frink_errmsg());
    long old_size = file_size(path);
    CHECK(!frink_seq_eval(newer, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    CHECK(!frink_seq_eval(newer, p, NP, NULL, FRINK_EVAL_CHECKPOINT), "%s", frink_errmsg());
    int pfd[2];
    CHECK(pipe(pfd) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(pfd[0]);
        hook_fd = pfd[1];
        hook_at = (size_t)old_size; // well past the header, well before the end
        slot_save_hook = stall_hook;
        frink_seq_save(newer, path);
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
    CHECK(file_size(path) == old_size, "%s: the target changed size (%ld, was %ld)", t->name, file_size(path), old_size);
    CHECK(!frink_seq_load(r, path), "%s: the old file no longer loads: %s", t->name, frink_errmsg());
    CHECK(frink_seq_len(r) == 120, "%s: restored %d tokens", t->name, frink_seq_len(r));
    // Continue from it as from the original.
    same_continuation(t, r, old, p, "surviving file");
    int stray = strays("kill.slot");
    CHECK(stray == 1, "%s: expected the killed save's partial temporary file, found %d", t->name, stray);
    printf("  %-40s killed mid-save: previous %ld-byte file intact and restored\n", t->name, old_size);
    remove_strays("kill.slot");
out:
    unlink(path);
    frink_seq_free(old);
    frink_seq_free(newer);
    frink_seq_free(r);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/frink-slot-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    // XXH64 reference values (the checksum must be the standard one). White-box.
    CHECK(state_hash64("", 0, 0) == 0xEF46DB3751D8E999ull, "xxh64('')");
    CHECK(state_hash64("abc", 3, 0) == 0x44BC2CF5AD770999ull, "xxh64('abc')");
    CHECK(state_hash64("Nobody inspects the spammish repetition", 39, 0) == 0xFBCEA83C8A378BF1ull, "xxh64(39 bytes)");
    struct tm_ctx ctx[sizeof tm_models / sizeof *tm_models];
    int n = 0;
    for (const char *const *mp = tm_models; *mp; mp++) {
        bool ok = !tm_open(&ctx[n], *mp);
        CHECK(ok, "cannot open %s", *mp);
        if (ok) n++;
        else tm_close(&ctx[n]);
    }
    for (int i = 0; i < n; i++) {
        frink_token p[NP];
        tm_prompt(p, NP, ctx[i].V, 11);
        test_roundtrip(&ctx[i], p);
        test_refusals(&ctx[i], &ctx[(i + 1) % n], p);
        test_save_cut_short(&ctx[i], p);
        test_kill_during_save(&ctx[i], p);
    }
    for (int i = 0; i < n; i++) tm_close(&ctx[i]);
    rmdir(dir);
    return TEST_DONE();
}
