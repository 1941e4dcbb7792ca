// test_chat.c — `frink chat` as a person uses it, through a pseudo-terminal:
// a reply streams, Ctrl-C stops a reply and not the program, /save then /load
// in a new process continues with exactly the reply an unbroken chat gives,
// Ctrl-D ends; and the scripted mode (stdin not a terminal): one reply per line.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

struct term {
    pid_t pid;
    int fd;
    char buf[1 << 16];
    size_t n;
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int term_start(struct term *t, const char *args) {
    memset(t, 0, sizeof *t);
    const char *bin = getenv("FRINK_BIN") ? getenv("FRINK_BIN") : "build/frink";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec %s chat %s 2>&1", bin, args);
    struct winsize ws = {.ws_row = 40, .ws_col = 200};
    t->pid = forkpty(&t->fd, NULL, NULL, &ws);
    if (t->pid < 0) return -1;
    if (t->pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return 0;
}

// Reads until `want` appears after offset `from` (returns its offset) or the timeout passes (-1).
static long term_wait(struct term *t, size_t from, const char *want, double timeout) {
    double end = now_s() + timeout;
    for (;;) {
        t->buf[t->n] = 0;
        char *p = from <= t->n ? strstr(t->buf + from, want) : NULL;
        if (p) return p - t->buf;
        double left = end - now_s();
        if (left <= 0 || t->n + 1 >= sizeof t->buf) return -1;
        struct pollfd pf = {t->fd, POLLIN, 0};
        if (poll(&pf, 1, (int)(left * 1000) + 1) <= 0) continue;
        ssize_t k = read(t->fd, t->buf + t->n, sizeof t->buf - 1 - t->n);
        if (k <= 0) return -1;
        t->n += (size_t)k;
    }
}

// Types s. A person never types within milliseconds of the prompt appearing, and line editors
// may discard input that arrives while they set the terminal up: wait a moment first.
static void term_send(struct term *t, const char *s) {
    usleep(200000);
    (void)!write(t->fd, s, strlen(s));
}

static int term_end(struct term *t) {
    int st = 0;
    for (int i = 0; i < 100; i++) {
        if (waitpid(t->pid, &st, WNOHANG) == t->pid) {
            close(t->fd);
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        // drain
        char b[4096];
        struct pollfd pf = {t->fd, POLLIN, 0};
        if (poll(&pf, 1, 50) > 0 && read(t->fd, b, sizeof b) <= 0) usleep(10000);
    }
    kill(t->pid, SIGKILL);
    waitpid(t->pid, &st, 0);
    close(t->fd);
    return -1;
}

// Runs a scripted chat (stdin a pipe) and returns its stdout.
static char *scripted(const char *args, const char *input) {
    const char *bin = getenv("FRINK_BIN") ? getenv("FRINK_BIN") : "build/frink";
    char in[] = "/tmp/frink-chat-in-XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0) return NULL;
    (void)!write(fd, input, strlen(input));
    close(fd);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s chat %s < %s 2>/dev/null", bin, args, in);
    FILE *p = popen(cmd, "r");
    char *out = calloc(1, 1 << 16);
    size_t n = p ? fread(out, 1, (1 << 16) - 1, p) : 0;
    out[n] = 0;
    if (p) pclose(p);
    unlink(in);
    return out;
}

int main(void) {
    const char *args = "--temp 0 -n 24 -t 2 -c 2048";
    // Scripted: one reply per line, deterministic.
    char *a = scripted(args, "Tell me a story.\nAnd then?\nThe end.\n");
    char *b = scripted(args, "Tell me a story.\nAnd then?\nThe end.\n");
    int lines = 0;
    for (char *p = a; p && *p; p++) lines += *p == '\n';
    CHECK(a && lines == 3, "scripted chat prints one reply per line (%d): %s", lines, a);
    CHECK(a && b && !strcmp(a, b), "scripted chat is deterministic");
    // The reply to the third message after /save and /load in a new process equals the
    // unbroken chat's third reply.
    remove("/tmp/frink-chat-test.json");
    remove("/tmp/frink-chat-test.json.slot");
    char *c1 = scripted(args, "Tell me a story.\nAnd then?\n/save /tmp/frink-chat-test.json\n");
    char *c2 = scripted(args, "/load /tmp/frink-chat-test.json\nThe end.\n");
    char *third = a ? strchr(strchr(a, '\n') + 1, '\n') + 1 : NULL;
    CHECK(c1 && c2 && third && !strcmp(c2, third), "after /save and /load the next reply is the same: '%s' vs '%s'", c2,
          third);
    free(a), free(b), free(c1), free(c2);

    // Interactive, through a pseudo-terminal.
    struct term t;
    CHECK(term_start(&t, "--temp 0 -n 3000 -t 1 -c 8192") == 0, "forkpty");
    CHECK(term_wait(&t, 0, "> ", 30) >= 0, "the prompt appears: %s", t.buf);
    size_t mark = t.n;
    term_send(&t, "Once upon a time\r");
    long rep = term_wait(&t, mark, "tokens, first after", 60);
    CHECK(rep >= 0, "a reply and its speed line: %s", t.buf + mark);
    CHECK(term_wait(&t, rep > 0 ? (size_t)rep : mark, "\n> ", 10) >= 0, "the prompt comes back after a reply");
    // A long reply stopped by Ctrl-C: the program goes on.
    mark = t.n;
    term_send(&t, "Tell me a very long story about a dog\r");
    long started = term_wait(&t, mark, "dog\r\n", 10); // the echo of the line
    CHECK(started >= 0, "the line is echoed");
    usleep(500000); // a person's reaction: the reply (or the prompt's prefill) is under way
    term_send(&t, "\x03");
    // Stopped while streaming ("stopped; N tokens") or while reading the prompt, if the key came first.
    long stop = term_wait(&t, mark, "frink: stopped", 30);
    CHECK(stop >= 0, "Ctrl-C stops the reply: %s", t.buf + mark);
    if (stop < 0) {
        FILE *f = fopen("/tmp/frink-chat-test.log", "wb");
        if (f) fwrite(t.buf, 1, t.n, f), fclose(f);
    }
    CHECK(term_wait(&t, stop > 0 ? (size_t)stop : mark, "\n> ", 10) >= 0, "the prompt comes back after Ctrl-C");
    mark = t.n;
    term_send(&t, "/help\r");
    long h = term_wait(&t, mark, "/save FILE", 10);
    CHECK(h >= 0, "/help lists the commands");
    CHECK(term_wait(&t, h > 0 ? (size_t)h : mark, "\n> ", 10) >= 0, "the prompt after /help");
    term_send(&t, "\x04"); // Ctrl-D
    int ec = term_end(&t);
    CHECK(ec == 0, "Ctrl-D ends the chat with status 0 (got %d): %s", ec, t.buf + (t.n > 300 ? t.n - 300 : 0));
    return TEST_DONE();
}
