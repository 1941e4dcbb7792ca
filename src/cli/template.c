// template.c — `frink template`: the prompt a conversation becomes under a
// model's chat template, byte for byte (or its token ids), and the helpers the
// chat commands share: reading a template, tokenizing a rendered prompt.
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

static const char help_template[] =
    "usage: frink template [-m MODEL] [--chat-template-file T.jinja]\n"
    "                      (--messages FILE.json [--tools FILE.json] [--no-generation-prompt] | --context FILE.json)\n"
    "                      [--ids]\n"
    "Prints the prompt the model sees for a conversation, rendered by its chat template exactly as\n"
    "Python's jinja2 renders it under Hugging Face transformers' conventions.\n"
    "  --messages FILE         a JSON array of messages ({\"role\": ..., \"content\": ...}, tool calls, ...)\n"
    "  --tools FILE            a JSON array of tools (OpenAI function shape)\n"
    "  --no-generation-prompt  do not open the assistant's turn at the end\n"
    "  --context FILE          one JSON object whose keys are the template's variables (messages, tools,\n"
    "                          add_generation_prompt, bos_token, eos_token, enable_thinking, ...);\n"
    "                          bos_token and eos_token default to the model's\n"
    "  --chat-template-file T  use this template instead of the model's own\n"
    "  --ids                   print the prompt's token ids instead of its text\n"
    "A model without a template uses ChatML (said on stderr). A template that raises an error exits 1\n"
    "with its message on stderr.\n"
    "example: frink template -m model.gguf --messages chat.json --ids\n";

int cli_template_open(const frink_model *m, const char *file, frink_template **t) {
    if (file) {
        size_t n;
        char *src = cli_read_file(file, &n);
        if (!src) return 1;
        frink_status st = frink_template_parse(m, src, n, t);
        free(src);
        if (st) return cli_die("%s: %s", file, frink_errmsg()), 1;
        return 0;
    }
    bool chatml = false;
    if (frink_model_template(m, t, &chatml)) return cli_die("%s", frink_errmsg()), 1;
    if (chatml) fprintf(stderr, "frink: the model has no chat template; using ChatML\n");
    return 0;
}

// Tokenizes a rendered prompt. Templates usually write the BOS token's text
// themselves; the model's own BOS is added only when they do not, so a prompt
// never starts with two.
frink_status cli_tokenize_prompt(const frink_model *m, const char *text, size_t len, frink_token **ids, size_t *n) {
    unsigned fl = FRINK_TOKENIZE_PARSE_SPECIAL;
    frink_token bos = frink_token_bos(m);
    char b[256];
    int bl = bos >= 0 ? frink_token_piece(m, bos, b, sizeof b, true) : 0;
    if (frink_model_adds_bos(m) && !(bl > 0 && len >= (size_t)bl && !memcmp(text, b, (size_t)bl)))
        fl |= FRINK_TOKENIZE_ADD_SPECIAL;
    return frink_tokenize(m, text, len, fl, ids, n);
}

static json_t *load_json(const char *path) {
    size_t n;
    char *d = cli_read_file(path, &n);
    if (!d) return NULL;
    json_error_t e;
    json_t *v = json_loadb(d, n, 0, &e);
    free(d);
    if (!v) cli_die("%s: line %d, column %d: %s", path, e.line, e.column, e.text);
    return v;
}

int cmd_template(int argc, char **argv) {
    if (cli_wants_help(argc, argv)) return fputs(help_template, stdout), 0;
    const char *model = NULL, *tfile = NULL, *messages = NULL, *tools = NULL, *context = NULL;
    bool gen_prompt = true, ids = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **dst = !strcmp(a, "-m") || !strcmp(a, "--model") ? &model
                           : !strcmp(a, "--chat-template-file")      ? &tfile
                           : !strcmp(a, "--messages")                ? &messages
                           : !strcmp(a, "--tools")                   ? &tools
                           : !strcmp(a, "--context")                 ? &context
                                                                     : NULL;
        if (dst) {
            if (!v) return cli_die("%s needs a value", a);
            *dst = v;
            i++;
        } else if (!strcmp(a, "--no-generation-prompt")) gen_prompt = false;
        else if (!strcmp(a, "--ids")) ids = true;
        else return cli_die("template: unknown flag '%s' (see `frink template --help`)", a);
    }
    if (!messages == !context) return cli_die("template: give --messages FILE or --context FILE (one of them)");
    if (context && (tools || !gen_prompt)) return cli_die("template: --tools and --no-generation-prompt go with --messages; --context holds every variable");
    json_t *vars = NULL;
    if (context) {
        if (!(vars = load_json(context))) return 2;
        if (!json_is_object(vars)) return json_decref(vars), cli_die("%s: expected a JSON object of the template's variables", context);
    } else {
        json_t *msgs = load_json(messages), *tl = tools ? load_json(tools) : NULL;
        if (!msgs || (tools && !tl)) return json_decref(msgs), json_decref(tl), 2;
        if (!json_is_array(msgs)) return json_decref(msgs), json_decref(tl), cli_die("%s: expected a JSON array of messages", messages);
        if (tl && !json_is_array(tl)) return json_decref(msgs), json_decref(tl), cli_die("%s: expected a JSON array of tools", tools);
        vars = json_object();
        json_object_set_new(vars, "messages", msgs);
        if (tl) json_object_set_new(vars, "tools", tl);
        json_object_set_new(vars, "add_generation_prompt", json_boolean(gen_prompt));
    }
    char *vtext = json_dumps(vars, JSON_COMPACT);
    json_decref(vars);
    frink_model_params mp = frink_model_default_params();
    mp.path = model;
    mp.vocab_only = true;
    frink_model *m = NULL;
    frink_template *t = NULL;
    char *out = NULL;
    size_t n = 0;
    int rc = 1;
    if (!vtext) { cli_die("out of memory"); goto done; }
    if (frink_model_open(&mp, &m)) { cli_die("%s", frink_errmsg()); goto done; }
    if (cli_template_open(m, tfile, &t)) goto done;
    if (frink_template_render(t, vtext, strlen(vtext), 0, &out, &n)) { cli_die("%s", frink_errmsg()); goto done; }
    if (ids) {
        frink_token *tk;
        size_t nt;
        if (cli_tokenize_prompt(m, out, n, &tk, &nt)) { cli_die("%s", frink_errmsg()); goto done; }
        for (size_t i = 0; i < nt; i++) printf("%s%d", i ? "," : "", tk[i]);
        printf("\n");
        frink_free(tk);
    } else {
        fwrite(out, 1, n, stdout);
    }
    rc = fflush(stdout) ? 1 : 0;
done:
    frink_free(out);
    free(vtext);
    frink_template_free(t);
    frink_model_free(m);
    return rc;
}
