// Parity of the hybrid Gated DeltaNet family (qwen35, qwen35moe, qwen3next)
// against golden logits from the reference (scripts/make-golden.sh): F16 and
// quantized mixes, batches of 1, 7, 64 and 200 tokens (the chunked delta rule,
// crossing chunk boundaries) and 200 tokens one at a time (the recurrence).
#include "parity.h"

static const int lens[] = {1, 7, 64, 200, 0};

static void family(const char *base, const char *const *fmts) {
    char gguf[256], golden[128];
    snprintf(gguf, sizeof gguf, "tests/data/archs/%s.gguf", base);
    snprintf(golden, sizeof golden, "%s-F16", base);
    parity_check_lens(gguf, golden, true, 1e-5, lens);
    for (const char *const *f = fmts; *f; f++) {
        snprintf(gguf, sizeof gguf, "tests/data/archs/q/%s-%s.gguf", base, *f);
        snprintf(golden, sizeof golden, "%s-%s", base, *f);
        parity_check_lens(gguf, golden, true, 5e-4, lens);
    }
}

int main(void) {
    static const char *const all[] = {"Q8_0", "Q4_K_M", "Q1_0", NULL}; // the MoE fixtures cannot be Q1_0 (see make-golden.sh)
    static const char *const no_q1[] = {"Q8_0", "Q4_K_M", NULL};
    family("qwen35-dense", all);
    // The other formats of this path on the dense hybrid (BF16 activations are
    // rounded to BF16 as the reference does; Q6_K pairs with Q8_K).
    static const char *const more[] = {"BF16", "Q6_K", NULL};
    for (const char *const *f = more; *f; f++) {
        char gguf[256], golden[128];
        snprintf(gguf, sizeof gguf, "tests/data/archs/q/qwen35-dense-%s.gguf", *f);
        snprintf(golden, sizeof golden, "qwen35-dense-%s", *f);
        parity_check_lens(gguf, golden, true, 5e-4, lens);
    }
    family("qwen35moe-moe", no_q1);
    family("qwen3next-moe", no_q1);
    return TEST_DONE();
}
