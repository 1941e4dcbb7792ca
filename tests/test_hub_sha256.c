// The SHA-256 that checks downloads against the Hub's LFS ids (src/cli/sha256.c): the FIPS 180-4
// example vectors (one block, two blocks, a million 'a's), every length across the padding's
// block boundaries (55, 56, 63, 64 bytes) against a split-free digest, and any split of the input
// into update calls giving the same digest as one call.
#include <string.h>

#include "cli/hub.h"
#include "test.h"

static void digest(const void *p, size_t n, char hex[65]) {
    struct sha256 s;
    sha256_init(&s);
    sha256_update(&s, p, n);
    sha256_final_hex(&s, hex);
}

int main(void) {
    char hex[65];
    digest("", 0, hex);
    CHECK(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "empty: %s", hex);
    digest("abc", 3, hex);
    CHECK(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "abc: %s", hex);
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; // 56 bytes: two blocks
    digest(two, strlen(two), hex);
    CHECK(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "two blocks: %s", hex);
    static char mil[1000000];
    memset(mil, 'a', sizeof mil);
    digest(mil, sizeof mil, hex);
    CHECK(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"), "a million a: %s", hex);

    // Any split of the bytes into updates: the one-call digest, at every length to 200.
    unsigned char buf[200];
    for (int i = 0; i < 200; i++) buf[i] = (unsigned char)(i * 37 + 11);
    for (size_t n = 0; n <= 200; n++) {
        char want[65];
        digest(buf, n, want);
        for (size_t cut = 0; cut <= n; cut += 7) {
            struct sha256 s;
            sha256_init(&s);
            sha256_update(&s, buf, cut);
            sha256_update(&s, buf + cut, n - cut);
            sha256_final_hex(&s, hex);
            CHECK(!strcmp(hex, want), "length %zu split at %zu", n, cut);
        }
    }
    // The padding's edges against known digests of n bytes of 'a' (n = 55, 56, 63, 64).
    static const struct { size_t n; const char *want; } edges[] = {
        {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
        {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
        {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
        {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
    };
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
        digest(mil, edges[i].n, hex);
        CHECK(!strcmp(hex, edges[i].want), "%zu a's: %s", edges[i].n, hex);
    }
    return TEST_DONE();
}
