// dense.c — what the dense llama-like families add to the generic loader: metadata rules
// that the reference applies per family (AX_* flags of the "dense families" rows).
#include "model/dense.h"

#include <math.h>

void read_hparams_dense(struct loader *ld) {
    struct model *m = ld->m;
    struct hparams *hp = &m->hp;
    uint64_t ax = m->arch->flags2;
    if (ax & AX_BAICHUAN_SIZE) {
        // The reference decides by the block count alone (its model type): 32 blocks (7B) rotate,
        // 40 (13B) use ALiBi with max bias 8 and no RoPE, any other count neither.
        if (hp->n_layer != 32) hp->rope_mode = ROPE_NONE;
        if (hp->n_layer == 40) hp->alibi_max_bias = 8;
    }
    if (ax & AX_NANBEIGE_LOOPS) {
        // A looped stack runs the physical layers num_loops times with output_norm between
        // the loops: not implemented, so refused by name.
        int loops = hp_int(ld, "num_loops", 1);
        if (loops > 1)
            ld_fail(ld, FRINK_ERR_UNSUPPORTED, "metadata '%s.num_loops' = %d: a looped layer stack is not implemented", ld->arch, loops);
    }
}
