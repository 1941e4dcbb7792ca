// Parity of the llama family against golden logits from the reference
// (scripts/make-golden.sh): stories260K (F32, trained) and the llama-dense
// fixture in F16 and four quantized mixes, batch and token-by-token.
//
// Tolerances: normalized MSE per row. frink follows the reference's numerics
// (activation re-quantization per weight type, F16 KV cache, the flash-
// attention kernel's F16 accumulator and summation order), so F16 agrees to
// the last bit or nearly; quantized formats differ by float summation order
// inside dot products (Q8_0: exact block sums scaled once, where the
// reference's SIMD kernels scale groups of four products), which an
// activation's rounding can amplify to ~1e-4 at a few positions. The reference's own batch-vs-decode difference on
// quantized fixtures is up to 2e-4; the quantized tolerance sits above it.
#include "parity.h"

int main(void) {
    parity_check("models/stories260K.gguf", "stories260K", false, 1e-6);
    // The fixture carries every optional tensor the saver knows, including
    // `.input_scale` ones the reference loads and ignores: --allow-unread.
    parity_check("tests/data/archs/llama-dense.gguf", "llama-dense-F16", true, 1e-5);
    parity_check("tests/data/archs/q/llama-dense-Q8_0.gguf", "llama-dense-Q8_0", true, 5e-4);
    parity_check("tests/data/archs/q/llama-dense-Q4_0.gguf", "llama-dense-Q4_0", true, 5e-4);
    parity_check("tests/data/archs/q/llama-dense-Q4_K_M.gguf", "llama-dense-Q4_K_M", true, 5e-4);
    parity_check("tests/data/archs/q/llama-dense-Q6_K.gguf", "llama-dense-Q6_K", true, 5e-4);
    return TEST_DONE();
}
