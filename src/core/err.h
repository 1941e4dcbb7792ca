// err.h — status values and the thread-local error message.
//
// Library code never exits: it returns a frink_status and leaves a message
// naming the problem in a thread-local buffer (like dlerror). Programs print it.
#ifndef FRINK_ERR_H
#define FRINK_ERR_H

#include "frink.h"

// Sets the thread's error message (printf-style) and returns `st`, so a
// failing path reads `return frink_fail(FRINK_ERR_FORMAT, "bad magic %x", m);`.
frink_status frink_fail(frink_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

// Prefixes the current message with more context ("loading x.gguf: " + old), unless it
// already starts with that context.
frink_status frink_fail_ctx(frink_status st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
