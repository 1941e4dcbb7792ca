// shape.c — the model's description of its sequences' state (see shape.h), and
// its identity. The one place where a layer's features become what the state
// keeps for it.
#include "model/shape.h"

#include <stdlib.h>
#include <string.h>

#include "core/gguf.h"
#include "state/state.h"

int64_t model_gdn_conv_floats(const struct model *m) {
    const struct hparams *hp = &m->hp;
    int64_t C = 2LL * hp->ssm_n_group * hp->ssm_d_state + hp->ssm_d_inner;
    return C * (hp->ssm_conv_kernel - 1);
}

int64_t model_gdn_ssm_floats(const struct model *m) {
    const struct hparams *hp = &m->hp;
    return (int64_t)hp->ssm_d_state * hp->ssm_d_inner;
}

frink_status model_seq_shape_build(const struct model *m, struct seq_shape **out) {
    *out = NULL;
    int nl = m->hp.n_layer;
    struct seq_shape *sh = calloc(1, sizeof *sh + (size_t)nl * sizeof sh->layer[0]);
    if (!sh) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    sh->n_vocab = m->hp.n_vocab;
    sh->identity = model_identity(m);
    sh->arch = m->arch->name;
    sh->name = m->name;
    sh->n_layer = nl;
    for (int il = 0; il < nl; il++) {
        const struct layer *L = &m->layers[il];
        struct seq_layer_shape *ls = &sh->layer[il];
        // A recurrent mixer (Gated DeltaNet, Mamba, a short convolution...) keeps its state; its
        // binder said how large it is. An attention mixer keeps K/V rows.
        if (L->rec_conv_floats > 0 || L->rec_ssm_floats > 0) {
            ls->kind = SEQ_LAYER_RECURRENT;
            ls->conv_floats = L->rec_conv_floats;
            ls->ssm_floats = L->rec_ssm_floats;
            sh->n_recurrent++;
            sh->state_floats += ls->conv_floats + ls->ssm_floats;
        }
        // (a layer may keep both: falcon-h1 runs attention and Mamba-2 side by side)
        if (feat_has(L->feat, LF_ATTN)) {
            if (ls->kind != SEQ_LAYER_RECURRENT) ls->kind = SEQ_LAYER_ATTN;
            ls->k_len = (int64_t)L->n_head_kv * L->head_dim;
            ls->v_len = (int64_t)L->n_head_kv * L->head_dim_v;
        }
    }
    *out = sh;
    return FRINK_OK;
}

const struct seq_shape *model_seq_shape(const struct model *m) { return m->seq_shape; }

// ---- identity ---------------------------------------------------------------------------

static size_t vtype_size(enum gguf_vtype t) {
    switch (t) {
    case GGUF_VT_UINT8: case GGUF_VT_INT8: case GGUF_VT_BOOL: return 1;
    case GGUF_VT_UINT16: case GGUF_VT_INT16: return 2;
    case GGUF_VT_UINT32: case GGUF_VT_INT32: case GGUF_VT_FLOAT32: return 4;
    case GGUF_VT_UINT64: case GGUF_VT_INT64: case GGUF_VT_FLOAT64: return 8;
    default: return 0;
    }
}

uint64_t model_identity(const struct model *m) {
    uint64_t h = state_hash64(m->arch->name, strlen(m->arch->name), 0);
    const struct gguf_file *f = m->gguf;
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const struct gguf_kv *kv = &f->kv[i];
        uint32_t t = kv->type;
        h = state_hash64(kv->key.ptr, kv->key.len, h);
        h = state_hash64(&t, sizeof t, h);
        if (kv->type == GGUF_VT_STRING) {
            h = state_hash64(kv->v.str.ptr, kv->v.str.len, h);
        } else if (kv->type == GGUF_VT_ARRAY) {
            uint32_t et = kv->v.arr.type;
            h = state_hash64(&et, sizeof et, h);
            h = state_hash64(&kv->v.arr.n, sizeof kv->v.arr.n, h);
            if (et == GGUF_VT_STRING)
                for (uint64_t k = 0; k < kv->v.arr.n; k++) h = state_hash64(kv->v.arr.strs[k].ptr, kv->v.arr.strs[k].len, h);
            else
                h = state_hash64(kv->v.arr.data, kv->v.arr.n * vtype_size(et), h);
        } else {
            h = state_hash64(&kv->v.u64, sizeof kv->v.u64, h);
        }
    }
    for (uint64_t i = 0; i < f->n_tensors; i++) {
        const struct gguf_tensor *t = &f->tensors[i];
        h = state_hash64(t->name, strlen(t->name), h);
        h = state_hash64(&t->n_dims, sizeof t->n_dims, h);
        h = state_hash64(t->ne, sizeof t->ne, h);
        h = state_hash64(&t->type, sizeof t->type, h);
        h = state_hash64(&t->offset, sizeof t->offset, h);
    }
    return h;
}
