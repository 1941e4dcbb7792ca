// Parity of the architecture breadth against golden logits from the reference
// (scripts/make-golden.sh, "Architecture breadth"): each family's fixture in
// F16 and one quantized mix, batch and token by token.
//
// Tolerances as test_parity_llama.c: F16 agrees to ~1e-7 (same numerics), a
// quantized mix within 5e-4 (float summation order inside dot products,
// amplified by an activation's rounding). Families that need more say why.
// Fixtures carry `.input_scale` tensors the reference loads and ignores, so
// every case runs with allow_unread.
#include "parity.h"

static void family(const char *base, const char *qfmt, double qtol) {
    char gguf[256], golden[128];
    snprintf(gguf, sizeof gguf, "tests/data/archs/%s.gguf", base);
    // deepseek2's fixture is all F32.
    snprintf(golden, sizeof golden, "%s-%s", base, strncmp(base, "deepseek2", 9) ? "F16" : "F32");
    parity_check(gguf, golden, true, 1e-5);
    if (!qfmt) return;
    snprintf(gguf, sizeof gguf, "tests/data/archs/q/%s-%s.gguf", base, qfmt);
    snprintf(golden, sizeof golden, "%s-%s", base, qfmt);
    parity_check(gguf, golden, true, qtol ? qtol : 5e-4);
}

int main(int argc, char **argv) {
    // `test_parity_archs NAME...` runs only the families whose base starts with NAME.
    // granite/granitemoe quantized: 1e-3. Their residual_scale (3.56 in the
    // fixtures) multiplies every block's output, so a last-bit difference in an
    // activation's quantization grows more than elsewhere; the reference's own
    // batch and token-by-token logits differ by 1.3e-3 (dense) and 2.6e-3 (MoE).
    // olmoe quantized: 1e-2. Position 44 of its fixture is ill-conditioned: frink's scalar
    // kernels, whose sums are bit-identical to the reference's generic ones, reach 6.5e-3 there
    // against <= 3.6e-4 at every other position, and so do the SIMD kernels since Q8_0 sums each
    // block exactly before scaling it; the golden came from the reference's SIMD kernels, which
    // scale each group of four products.
    static const struct { const char *base, *qfmt; double qtol; } cases[] = {
        {"llama-moe", "Q4_K_M", 0},     {"mistral3-dense", "Q4_K_M", 0}, {"smollm3-dense", "Q4_K_M", 0},
        {"qwen2-dense", "Q4_K_M", 0},   {"qwen3-dense", "Q4_K_M", 0},    {"qwen3moe-moe", "Q4_K_M", 0},
        {"qwen2moe-moe", "Q4_K_M", 0},  {"gemma-dense", "Q4_K_M", 0},    {"gemma2-dense", "Q4_K_M", 0},
        {"gemma3-dense", "Q4_K_M", 0},  {"phi3-dense", "Q4_K_M", 0},     {"gpt-oss-moe", "MXFP4", 0},
        {"olmo2-dense", "Q4_K_M", 0},   {"olmoe-moe", "Q4_K_M", 1e-2},   {"granite-dense", "Q4_K_M", 1e-3},
        {"granitemoe-moe", "Q4_K_M", 1e-3}, {"deepseek2-moe", "Q8_0", 0},   {"falcon-dense", "Q4_K_M", 0},
        {"gptneox-dense", "Q4_K_M", 0}, {"starcoder2-dense", "Q4_K_M", 0}, {"bloom-dense", "Q4_K_M", 0},
        {"mpt-dense", "Q4_K_M", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool want = argc < 2;
        for (int a = 1; a < argc; a++) want |= !strncmp(cases[i].base, argv[a], strlen(argv[a]));
        if (want) family(cases[i].base, cases[i].qfmt, cases[i].qtol);
    }
    // gpt-oss with YaRN (factor 32), as every shipped gpt-oss: a fixture variant
    // (scripts/gguf-set.py through make-golden.sh).
    bool yarn = argc < 2;
    for (int a = 1; a < argc; a++) yarn |= !strncmp("gpt-oss-moe-yarn", argv[a], strlen(argv[a]));
    if (yarn) parity_check("tests/data/archs/q/gpt-oss-moe-yarn.gguf", "gpt-oss-moe-yarn-F16", true, 1e-5);
    return TEST_DONE();
}
