// chat_api.c — the public chat-output parser over chat/chatparse.c.
#include <stdlib.h>

#include "core/err.h"
#include "engine/engine.h"
#include "chat/chatparse.h"

struct frink_chat_parser {
    struct chatparse *p;
    enum chat_format f;
};

// The format by name, or from the template's source.
static frink_status format_of(const char *name, const frink_template *t, enum chat_format *f) {
    if (name) {
        *f = chat_format_from_name(name);
        if (*f == CHAT_FORMAT_COUNT) return frink_fail(FRINK_ERR_ARG, "unknown chat output format '%s'", name);
        return FRINK_OK;
    }
    *f = chat_format_detect(t ? frink_template_source(t) : NULL);
    return FRINK_OK;
}

frink_status frink_chat_parser_create(const char *format, const frink_template *t, unsigned flags, uint64_t id_seed,
                                      frink_chat_parser **out) {
    if (!out) return frink_fail(FRINK_ERR_ARG, "frink_chat_parser_create: no place for the result");
    *out = NULL;
    enum chat_format f;
    frink_status st = format_of(format, t, &f);
    if (st) return st;
    frink_chat_parser *cp = calloc(1, sizeof *cp);
    if (!cp) return frink_fail(FRINK_ERR_NOMEM, "out of memory");
    struct chatparse_params pp = {.id_seed = id_seed};
    if (flags & FRINK_CHAT_STARTS_IN_REASONING) pp.flags |= CHATPARSE_STARTS_IN_REASONING;
    if (flags & FRINK_CHAT_WHOLE_CALLS) pp.flags |= CHATPARSE_WHOLE_CALLS;
    if ((st = chatparse_create(f, &pp, &cp->p))) {
        free(cp);
        return st;
    }
    cp->f = f;
    *out = cp;
    return FRINK_OK;
}

void frink_chat_parser_free(frink_chat_parser *p) {
    if (!p) return;
    chatparse_free(p->p);
    free(p);
}

const char *frink_chat_parser_format(const frink_chat_parser *p) { return chat_format_name(p->f); }

bool frink_chat_prompt_opens_reasoning(const char *format, const frink_template *t, const char *prompt, size_t len) {
    enum chat_format f;
    if (format_of(format, t, &f)) return false;
    return chat_prompt_opens_reasoning(f, prompt, len);
}

struct tramp {
    frink_chat_emit emit;
    void *ud;
};

static void trampoline(void *ud, const struct chat_delta *d) {
    const struct tramp *t = ud;
    static const frink_chat_delta_kind kinds[] = {
        [CHAT_DELTA_CONTENT] = FRINK_DELTA_CONTENT,     [CHAT_DELTA_REASONING] = FRINK_DELTA_REASONING,
        [CHAT_DELTA_TOOL_NAME] = FRINK_DELTA_TOOL_NAME, [CHAT_DELTA_TOOL_ARGS] = FRINK_DELTA_TOOL_ARGS,
        [CHAT_DELTA_TOOL_END] = FRINK_DELTA_TOOL_END,   [CHAT_DELTA_WARNING] = FRINK_DELTA_WARNING,
    };
    frink_chat_delta o = {kinds[d->kind], d->text, d->len, d->index, d->id, d->name};
    t->emit(t->ud, &o);
}

frink_status frink_chat_parser_feed(frink_chat_parser *p, const char *text, size_t len, frink_chat_emit emit, void *ud) {
    struct tramp t = {emit, ud};
    return chatparse_feed(p->p, text, len, trampoline, &t);
}

frink_status frink_chat_parser_finish(frink_chat_parser *p, frink_chat_emit emit, void *ud) {
    struct tramp t = {emit, ud};
    return chatparse_finish(p->p, trampoline, &t);
}
