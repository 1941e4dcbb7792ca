#!/bin/bash
# Fails when a shared libfrink exports a symbol outside the public API: every name in
# include/frink.h starts with frink_, and the library is built with -fvisibility=hidden so that
# nothing else is visible. Lists the offenders.
#   scripts/check-exports.sh build/libfrink.so
set -euo pipefail
lib=${1:-build/libfrink.so}
[ -f "$lib" ] || { echo "check-exports: no such file: $lib" >&2; exit 2; }
# nm -D --defined-only: the symbols the library itself defines in its dynamic table (not the
# ones it imports). Some linkers (older GNU ld among them) also put their own symbols there:
# _init and _fini (the DT_INIT/DT_FINI entry points) and _edata, _end, __bss_start (section
# bounds). They are not the library's, so they are skipped.
syms=$(nm -D --defined-only "$lib" | awk '{print $NF}')
bad=$(grep -v -E '^(frink_|_init$|_fini$|_edata$|_end$|__bss_start$)' <<<"$syms" || true)
if [ -n "$bad" ]; then
  echo "check-exports: $lib exports symbols outside the frink_ API:" >&2
  sed 's/^/  /' <<<"$bad" >&2
  exit 1
fi
echo "check-exports: $lib: $(grep -c . <<<"$syms") symbols, all frink_"
