// Refusal: every reason the loader refuses a file, each named in the message.
//
// The files are the llama-dense fixture copied to a temporary file with bytes
// patched in place: a key's value, a string of the same length, a tensor's name
// or its dims swapped (same element count, so the file stays well-formed and
// only the model binding can object). The encoders' refusals patch the `frink gen` encoder
// fixtures the same way (written into tests/data/enc when missing, as tests/test_embed.c does).
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frink.h"
#include "frink_tools.h"
#include "test.h"

// Offset of the first occurrence of `pat` (n bytes) in d, or -1.
static long find(const unsigned char *d, size_t len, const void *pat, size_t n) {
    for (size_t i = 0; i + n <= len; i++)
        if (!memcmp(d + i, pat, n)) return (long)i;
    return -1;
}

// A GGUF string as stored: u64 length then the bytes.
static long find_gguf_str(const unsigned char *d, size_t len, const char *s) {
    unsigned char buf[256];
    uint64_t n = strlen(s);
    memcpy(buf, &n, 8);
    memcpy(buf + 8, s, n);
    return find(d, len, buf, 8 + n);
}

// Writes d to a temporary file, loads it (allow_unread as given) and expects a
// failure whose message contains every string in want[] (NULL-terminated).
static void expect_refused(const char *what, const unsigned char *d, size_t len, bool allow_unread, const char *const *want) {
    char path[] = "/tmp/frink-refusal-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "%s: mkstemp", what);
    if (fd < 0) return;
    CHECK(write(fd, d, len) == (ssize_t)len, "%s: write", what);
    close(fd);
    // The file must still parse (opened for its metadata only), and then be refused by name.
    frink_model_params mp = frink_model_default_params();
    mp.path = path;
    mp.file_only = true;
    frink_model *m = NULL;
    frink_status st = frink_model_open(&mp, &m);
    CHECK(st == FRINK_OK, "%s: the patched file must still parse: %s", what, frink_errmsg());
    frink_model_free(m);
    if (st == FRINK_OK) {
        mp.file_only = false;
        mp.no_tokenizer = true;
        mp.allow_unread = allow_unread;
        m = NULL;
        st = frink_model_open(&mp, &m);
        CHECK(st != FRINK_OK && m == NULL, "%s: loaded, expected a refusal", what);
        if (st != FRINK_OK) {
            const char *msg = frink_errmsg();
            for (const char *const *w = want; *w; w++) CHECK(strstr(msg, *w) != NULL, "%s: message '%s' does not name '%s'", what, msg, *w);
            printf("  %-28s %s\n", what, msg);
        } else {
            frink_model_free(m);
        }
    }
    unlink(path);
}

// The bytes of encoder fixture fx (its `frink gen` preset, seed 1), written when missing; NULL on
// failure.
static unsigned char *encoder_fixture(const char *fx, size_t *len) {
    char p[256];
    snprintf(p, sizeof p, "tests/data/enc/%s.gguf", fx);
    if (access(p, R_OK)) {
        mkdir("tests/data/enc", 0755);
        CHECK(!frink_gen_model(&(frink_gen_params){.preset = fx, .out_path = p, .seed = 1}), "%s: %s", fx, frink_errmsg());
    }
    return (unsigned char *)test_read_file(p, len);
}

// The encoders: the families still refused keep their reason; a rotary encoder's file that asks
// for causal attention is refused naming the key.
static void encoder_refusals(void) {
    size_t len;
    unsigned char *d = encoder_fixture("jina-bert-v2-tiny", &len);
    CHECK(d != NULL, "jina-bert-v2-tiny fixture");
    if (d) {
        long o = find_gguf_str(d, len, "jina-bert-v2");
        CHECK(o >= 0, "architecture");
        if (o >= 0) memcpy(d + o + 8, "jina-bert-v3", 12);
        expect_refused("encoder with a UGM tokenizer", d, len, true, (const char *const[]){"'jina-bert-v3'", "refused", "UGM", NULL});
        free(d);
    }
    d = encoder_fixture("nomic-bert-tiny", &len);
    CHECK(d != NULL, "nomic-bert-tiny fixture");
    if (d) {
        long o = find_gguf_str(d, len, "nomic-bert.attention.causal");
        CHECK(o >= 0, "attention.causal");
        if (o >= 0) d[o + 8 + strlen("nomic-bert.attention.causal") + 4] = 1; // (after the bool's type)
        expect_refused("causal encoder", d, len, true, (const char *const[]){"'nomic-bert.attention.causal'", "non-causal", NULL});
        free(d);
    }
}

int main(void) {
    size_t len;
    unsigned char *orig = (unsigned char *)test_read_file("tests/data/archs/llama-dense.gguf", &len);
    CHECK(orig != NULL, "fixture missing");
    if (!orig) return TEST_DONE();
    unsigned char *d = malloc(len);

    // Sanity: the fixture itself loads when unread tensors are allowed.
    {
        frink_model_params mp = frink_model_default_params();
        mp.path = "tests/data/archs/llama-dense.gguf";
        mp.allow_unread = mp.no_tokenizer = true;
        frink_model *m;
        CHECK(frink_model_open(&mp, &m) == FRINK_OK, "the unpatched fixture must load: %s", frink_errmsg());
        frink_model_free(m);
    }

    // 1. An architecture frink does not know.
    memcpy(d, orig, len);
    long o = find_gguf_str(d, len, "general.architecture");
    CHECK(o >= 0, "key");
    long v = find_gguf_str(d + o, len - (size_t)o, "llama");
    memcpy(d + o + v + 8, "lxama", 5);
    expect_refused("unknown architecture", d, len, true, (const char *const[]){"'lxama'", "not implemented", NULL});

    // 2. An architecture in the table that frink refuses, with its reason.
    memcpy(d, orig, len);
    memcpy(d + o + v + 8, "rwkv6", 5);
    expect_refused("refused architecture", d, len, true, (const char *const[]){"'rwkv6'", "refused", "RWKV-6", NULL});

    // 3. A tensor nothing reads (the fixture's `.input_scale` tensors) without --allow-unread.
    expect_refused("unread tensor", orig, len, false, (const char *const[]){"input_scale", "nothing in frink", "--allow-unread", NULL});

    // 4. A metadata scale nothing applies: llama.logit_scale = 2 (llama does not scale logits).
    memcpy(d, orig, len);
    o = find_gguf_str(d, len, "llama.logit_scale");
    CHECK(o >= 0, "llama.logit_scale key");
    {
        size_t p = (size_t)o + 8 + strlen("llama.logit_scale");
        uint32_t type;
        memcpy(&type, d + p, 4);
        CHECK(type == 6, "logit_scale is a float32 (%u)", type);
        float two = 2.0f;
        memcpy(d + p + 4, &two, 4);
    }
    expect_refused("metadata scale", d, len, true, (const char *const[]){"llama.logit_scale", "logit scale", NULL});

    // 5. A RoPE scaling type frink does not implement.
    memcpy(d, orig, len);
    o = find_gguf_str(d, len, "llama.rope.scaling.type");
    CHECK(o >= 0, "rope.scaling.type key");
    {
        size_t p = (size_t)o + 8 + strlen("llama.rope.scaling.type") + 4;
        CHECK(!memcmp(d + p + 8, "linear", 6), "rope scaling type is 'linear'");
        memcpy(d + p + 8, "zigzag", 6);
    }
    expect_refused("RoPE scaling type", d, len, true, (const char *const[]){"'zigzag'", "RoPE scaling", NULL});

    // 6. A required tensor missing (output_norm.weight renamed).
    memcpy(d, orig, len);
    o = find_gguf_str(d, len, "output_norm.weight");
    CHECK(o >= 0, "output_norm tensor");
    memcpy(d + o + 8, "output_morm", 11);
    expect_refused("missing tensor", d, len, true, (const char *const[]){"'output_norm.weight'", "missing", NULL});

    // 7. A misshapen tensor: blk.0.ffn_down.weight's dims swapped.
    memcpy(d, orig, len);
    o = find_gguf_str(d, len, "blk.0.ffn_down.weight");
    CHECK(o >= 0, "ffn_down tensor");
    {
        size_t p = (size_t)o + 8 + strlen("blk.0.ffn_down.weight");
        uint32_t nd;
        uint64_t ne0, ne1;
        memcpy(&nd, d + p, 4);
        memcpy(&ne0, d + p + 4, 8);
        memcpy(&ne1, d + p + 12, 8);
        CHECK(nd == 2 && ne0 != ne1, "ffn_down is 2-D and not square");
        memcpy(d + p + 4, &ne1, 8);
        memcpy(d + p + 12, &ne0, 8);
    }
    expect_refused("misshapen tensor", d, len, true, (const char *const[]){"'blk.0.ffn_down.weight'", "shape", NULL});

    encoder_refusals();
    free(d);
    free(orig);
    return TEST_DONE();
}
