// causal_conv.c — the causal depthwise convolution the recurrent mixers share (the Gated
// DeltaNet's, Mamba-1's, Mamba-2's, PLaMo-2's and KDA's input convolutions, LFM2's short
// convolution), over one sequence's rows with its window state.
#include "model/forward_impl.h"
#include "quant/quant.h"

// Channels per block: a block's transposed weights, old window and new window fit in L1.
enum { CONV_CB = 256 };

void exec_causal_conv(enum quant_isa_id isa, float *x, int64_t ld, int T, float *state, const float *w, const float *bias, int Kc,
                      int64_t c0, int64_t c1, bool silu) {
    float wt[16 * CONV_CB];   // the block's weights, [tap][channel]
    float old[15 * CONV_CB];  // the window before the step, [tap][channel]
    float next[15 * CONV_CB]; // the window after it, [channel][tap] as the state keeps it
    for (int64_t cb = c0; cb < c1; cb += CONV_CB) {
        const int nc = (int)(c1 - cb < CONV_CB ? c1 - cb : CONV_CB);
        for (int i = 0; i < Kc; i++)
            for (int k = 0; k < nc; k++) wt[i * nc + k] = w[(cb - c0 + k) * Kc + i];
        for (int i = 0; i < Kc - 1; i++)
            for (int k = 0; k < nc; k++) old[i * nc + k] = state[(cb + k) * (Kc - 1) + i];
        // The new window: the last Kc - 1 raw inputs, taken before the rows are overwritten.
        for (int i = 0; i < Kc - 1; i++) {
            const int u = T - (Kc - 1) + i;
            for (int k = 0; k < nc; k++) next[k * (Kc - 1) + i] = u >= 0 ? x[(size_t)u * ld + cb + k] : old[(size_t)(Kc - 1 + u) * nc + k];
        }
        // Tokens last to first, so every raw input a token needs is still unwritten.
        for (int t = T - 1; t >= 0; t--) {
            float *row = x + (size_t)t * ld + cb;
            const float *tap[16];
            for (int i = 0; i < Kc; i++) {
                const int u = t - (Kc - 1) + i;
                tap[i] = u >= 0 ? x + (size_t)u * ld + cb : old + (size_t)(Kc - 1 + u) * nc;
            }
            ssm_conv_token(isa, row, tap, wt, bias ? bias + (cb - c0) : NULL, Kc, nc);
            if (silu) quant_silu_mul(isa, row, row, NULL, nc);
        }
        for (int k = 0; k < nc; k++)
            for (int i = 0; i < Kc - 1; i++) state[(cb + k) * (Kc - 1) + i] = next[k * (Kc - 1) + i];
    }
}
