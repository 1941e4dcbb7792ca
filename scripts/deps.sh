#!/bin/bash
# Installs the Debian packages the build needs, when they are missing.
set -euo pipefail
need=()
for p in libpcre2-dev libutf8proc-dev libxxhash-dev libjansson-dev libedit-dev libmicrohttpd-dev libcurl4-openssl-dev make gcc pkg-config; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
[ ${#need[@]} -eq 0 ] && exit 0
echo "frink: installing Debian packages: ${need[*]}" >&2
sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
