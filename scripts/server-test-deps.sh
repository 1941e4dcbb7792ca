#!/bin/bash
# Installs what the server's end-to-end tests (tests/server/) need, when it is missing: curl,
# python3 and python3-jsonschema (tests/server/validate.py's independent JSON Schema validator)
# from Debian, and the official `openai` and `@anthropic-ai/sdk` npm clients (and puppeteer-core,
# which drives Chromium for the web chat's test; scripts/webui-test-deps.sh installs Chromium) at the
# versions pinned in tests/server/package-lock.json, into tests/server/node_modules (ignored by
# git). Quick when everything is there: npm runs only when the lock file changed.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v curl >/dev/null || need+=(curl)
command -v python3 >/dev/null || need+=(python3)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
# Debian's module, for Debian's /usr/bin/python3 (which test_forced.mjs prefers to a python3 of
# a version manager earlier on PATH).
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || need+=(python3-jsonschema)
if [ ${#need[@]} -gt 0 ]; then
  echo "frink: installing Debian packages: ${need[*]}" >&2
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
dir=tests/server
stamp=$dir/node_modules/.frink-lock
if [ -f "$stamp" ] && cmp -s "$stamp" "$dir/package-lock.json" \
   && [ -d "$dir/node_modules/openai" ] && [ -d "$dir/node_modules/@anthropic-ai/sdk" ] \
   && [ -d "$dir/node_modules/puppeteer-core" ]; then
  exit 0
fi
echo "frink: installing the server tests' npm clients (npm ci in $dir)" >&2
# openai's package.json asks for node >= 22; it runs on Debian's node 20 (the tests check it).
(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error --engine-strict=false >/dev/null)
cp "$dir/package-lock.json" "$stamp"
