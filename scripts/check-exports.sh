#!/bin/bash
# Fails when libfrink, shared or static, exports a symbol outside the public API: every name in
# include/frink.h starts with frink_, the library is built with -fvisibility=hidden so that
# nothing else is visible in the .so, and the .a is one partial link with those hidden symbols
# made local (the Makefile's $(B)/libfrink.a), so that a program's own `dot` or `gguf_open`
# cannot clash with it. Lists the offenders.
#   scripts/check-exports.sh build/libfrink.so
#   scripts/check-exports.sh build/libfrink.a
set -euo pipefail
lib=${1:-build/libfrink.so}
[ -f "$lib" ] || { echo "check-exports: no such file: $lib" >&2; exit 2; }
case $lib in
*.a)
  # nm -g --defined-only: the global symbols the archive's members define (lines of address,
  # type, name; member headers and blank lines have fewer fields).
  syms=$(nm -g --defined-only "$lib" | awk 'NF == 3 {print $3}')
  bad=$(grep -v -E '^frink_' <<<"$syms" || true) ;;
*)
  # nm -D --defined-only: the symbols the library itself defines in its dynamic table (not the
  # ones it imports). Some linkers (older GNU ld among them) also put their own symbols there:
  # _init and _fini (the DT_INIT/DT_FINI entry points) and _edata, _end, __bss_start (section
  # bounds). They are not the library's, so they are skipped.
  syms=$(nm -D --defined-only "$lib" | awk '{print $NF}')
  bad=$(grep -v -E '^(frink_|_init$|_fini$|_edata$|_end$|__bss_start$)' <<<"$syms" || true) ;;
esac
if [ -n "$bad" ]; then
  echo "check-exports: $lib exports symbols outside the frink_ API:" >&2
  sed 's/^/  /' <<<"$bad" >&2
  exit 1
fi
echo "check-exports: $lib: $(grep -c . <<<"$syms") symbols, all frink_"
