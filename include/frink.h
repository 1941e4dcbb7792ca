// frink.h — the public interface of libfrink.
//
// Every function that can fail returns a frink_status; on failure,
// frink_errmsg() names the problem (thread-local, valid until the next failure).
#ifndef FRINK_H
#define FRINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum frink_status {
    FRINK_OK = 0,
    FRINK_ERR_IO,          // a file could not be opened, read, written
    FRINK_ERR_FORMAT,      // a file or buffer is malformed (truncated, bad magic, ...)
    FRINK_ERR_UNSUPPORTED, // well-formed, but frink does not implement it: refused by name
    FRINK_ERR_NOMEM,
    FRINK_ERR_ARG,         // a caller passed a bad value
    FRINK_ERR_STATE,       // the object is not in a state that allows the call
} frink_status;

const char *frink_errmsg(void);
const char *frink_status_name(frink_status st);

#ifdef __cplusplus
}
#endif
#endif
