// engine.c — opening a model for the CLI: flags, file or embedded default,
// tokenizer, thread pool, executor, one sequence.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "quant/quant.h"

extern const unsigned char frink_default_model_data[];
extern const unsigned char frink_default_model_end[];

void cli_model_opts_init(struct cli_model_opts *o) {
    *o = (struct cli_model_opts){.ctx = 512, .batch = 512};
}

int cli_model_flag(struct cli_model_opts *o, int argc, char **argv, int i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-m") || !strcmp(a, "--model")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        o->path = v;
        return 2;
    }
    if (!strcmp(a, "-t") || !strcmp(a, "--threads")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1024, &o->threads) ? 2 : -1;
    }
    if (!strcmp(a, "-c") || !strcmp(a, "--ctx-size")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1 << 24, &o->ctx) ? 2 : -1;
    }
    if (!strcmp(a, "-b") || !strcmp(a, "--batch-size")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1 << 16, &o->batch) ? 2 : -1;
    }
    if (!strcmp(a, "--cache-type") || !strcmp(a, "-ctk")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        enum kv_type t;
        if (!kv_type_parse(v, &t)) return cli_die("%s expects f16, f32 or q8_0, got '%s'", a, v), -1;
        o->kv_type = (int)t;
        return 2;
    }
    if (!strcmp(a, "--gdn-chunk")) {
        if (!v) return cli_die("%s needs a value", a), -1;
        return cli_int(a, v, 1, 1024, &o->gdn_chunk) ? 2 : -1;
    }
    if (!strcmp(a, "--reference")) { o->reference = true; return 1; }
    if (!strcmp(a, "--allow-unread")) { o->allow_unread = true; return 1; }
    return 0;
}

frink_status cli_open_gguf(const struct cli_model_opts *o, struct gguf_file **f) {
    frink_status st;
    if (o->path) st = gguf_open(o->path, f);
    else st = gguf_parse(frink_default_model_data, (size_t)(frink_default_model_end - frink_default_model_data), f);
    if (st) cli_die("%s", frink_errmsg());
    return st;
}

int cli_engine_open(const struct cli_model_opts *o, struct cli_engine *e) {
    memset(e, 0, sizeof *e);
    quant_set_reference(o->reference);
    if (cli_open_gguf(o, &e->f)) return 1;
    if (!o->no_tokenizer && tokenizer_load(e->f, &e->tok)) {
        cli_die("%s: %s", o->path ? o->path : "embedded model", frink_errmsg());
        goto fail;
    }
    if (o->vocab_only) return 0;
    struct model_load_opts lo = {.allow_unread = o->allow_unread};
    if (model_load(e->f, &lo, &e->m)) {
        cli_die("%s: %s", o->path ? o->path : "embedded model", frink_errmsg());
        goto fail;
    }
    e->f = NULL; // owned by the model now
    if (e->tok && tokenizer_n_vocab(e->tok) > e->m->hp.n_vocab) {
        cli_die("the tokenizer has %d tokens but the model's embedding only %d", tokenizer_n_vocab(e->tok), e->m->hp.n_vocab);
        goto fail;
    }
    e->pool = pool_create(o->threads ? (int)o->threads : pool_default_threads());
    if (!e->pool) { cli_die("cannot start threads"); goto fail; }
    struct seq_opts so;
    seq_opts_default(&so);
    so.cap = (int)o->ctx;
    so.kv_type = (enum kv_type)o->kv_type;
    if (exec_create(e->m, e->pool, (int)o->batch, &e->ex) || seq_create_opts(e->m, &so, &e->seq)) {
        cli_die("%s", frink_errmsg());
        goto fail;
    }
    if (o->gdn_chunk) exec_set_gdn_chunk(e->ex, (int)o->gdn_chunk);
    return 0;
fail:
    cli_engine_close(e);
    return 1;
}

void cli_engine_close(struct cli_engine *e) {
    seq_free(e->seq);
    exec_free(e->ex);
    pool_free(e->pool);
    tokenizer_free(e->tok);
    if (e->m) model_free(e->m);
    else gguf_close(e->f);
    memset(e, 0, sizeof *e);
}

void cli_print_metadata(FILE *out, const struct gguf_file *f) {
    for (uint64_t i = 0; i < f->n_kv; i++) {
        const struct gguf_kv *kv = &f->kv[i];
        fprintf(out, "  %-48.*s %-8s ", (int)kv->key.len, kv->key.ptr, gguf_vtype_name(kv->type));
        switch (kv->type) {
        case GGUF_VT_STRING: {
            uint64_t n = kv->v.str.len > 80 ? 80 : kv->v.str.len;
            fputc('"', out);
            for (uint64_t k = 0; k < n; k++) {
                unsigned char c = (unsigned char)kv->v.str.ptr[k];
                fputc(c < 0x20 ? '.' : c, out);
            }
            fprintf(out, "\"%s", kv->v.str.len > 80 ? "..." : "");
            break;
        }
        case GGUF_VT_ARRAY:
            fprintf(out, "[%" PRIu64 " x %s]", kv->v.arr.n, gguf_vtype_name(kv->v.arr.type));
            if (kv->v.arr.type != GGUF_VT_STRING)
                for (uint64_t k = 0; k < kv->v.arr.n && k < 8; k++) fprintf(out, " %g", gguf_arr_f64(kv, k));
            break;
        case GGUF_VT_FLOAT32:
        case GGUF_VT_FLOAT64: fprintf(out, "%g", kv->v.f64); break;
        case GGUF_VT_INT8:
        case GGUF_VT_INT16:
        case GGUF_VT_INT32:
        case GGUF_VT_INT64: fprintf(out, "%" PRId64, kv->v.i64); break;
        default: fprintf(out, "%" PRIu64, kv->v.u64); break;
        }
        fputc('\n', out);
    }
}
