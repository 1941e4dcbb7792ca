#!/bin/bash
# Installs what the web chat's browser test (tests/server/test_webui.mjs) needs beyond the server
# tests' clients: Debian's `chromium`, when no Chromium is found. Only that test calls it, so
# `make test` machines without a browser get one, and nothing else installs it.
# Never fails: where Chromium cannot be installed (no root, no network, no package) it says so,
# and the test then skips with its own message.
set -u
for c in "${FRINK_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome; do
  [ -n "$c" ] && [ -x "$c" ] && exit 0
done
sudo=
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null || ! sudo -n true 2>/dev/null; then
    echo "frink: no Chromium, and no root to install it (apt-get install chromium): the web chat's browser test will skip" >&2
    exit 0
  fi
  sudo=sudo
fi
echo "frink: installing Debian's chromium for the web chat's browser test" >&2
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null; }; then
  echo "frink: apt-get install chromium failed: the web chat's browser test will skip" >&2
fi
exit 0
