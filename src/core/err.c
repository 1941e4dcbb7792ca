#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char err_msg[1024];

const char *frink_errmsg(void) { return err_msg; }

frink_status frink_fail(frink_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err_msg, sizeof err_msg, fmt, ap);
    va_end(ap);
    return st;
}

frink_status frink_fail_ctx(frink_status st, const char *fmt, ...) {
    char old[sizeof err_msg], pre[512];
    memcpy(old, err_msg, sizeof old);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    size_t np = strlen(pre), no = strlen(old);
    // A context that is already there (gguf_open names the file, then the model opening it
    // does too) is said once.
    if (!strncmp(old, pre, np)) return st;
    if (np > sizeof err_msg - 1) np = sizeof err_msg - 1;
    if (no > sizeof err_msg - 1 - np) no = sizeof err_msg - 1 - np;
    memcpy(err_msg, pre, np);
    memcpy(err_msg + np, old, no);
    err_msg[np + no] = 0;
    return st;
}

const char *frink_status_name(frink_status st) {
    switch (st) {
    case FRINK_OK: return "ok";
    case FRINK_ERR_IO: return "i/o error";
    case FRINK_ERR_FORMAT: return "bad format";
    case FRINK_ERR_UNSUPPORTED: return "unsupported";
    case FRINK_ERR_NOMEM: return "out of memory";
    case FRINK_ERR_ARG: return "bad argument";
    case FRINK_ERR_STATE: return "bad state";
    }
    return "unknown status";
}
