// webui.h — the web chat's static files, compiled into the binary (scripts/webui-embed.sh
// generates the table from src/server/webui/ at build time; src/server/webui.c serves it).
#ifndef FRINK_SERVER_WEBUI_H
#define FRINK_SERVER_WEBUI_H

#include <stddef.h>

// One file: its URL path ("/" for index.html, "/webui/NAME" for the others), its Content-Type,
// its ETag (quoted, as sent), and its bytes raw and gzipped. Static; never freed.
struct webui_asset {
    const char *path;
    const char *type;
    const char *etag;
    const unsigned char *data;
    size_t len;
    const unsigned char *gz;
    size_t gz_len;
};

extern const struct webui_asset webui_assets[];
extern const size_t webui_n_assets;

// The asset served at `path`, or NULL.
const struct webui_asset *webui_find(const char *path);

#endif
