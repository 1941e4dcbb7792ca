#!/bin/bash
# Fails when an `#include "X/..."` in src/Y goes against the floors of the source tree, so that
# the includes run one way: cli -> server -> engine -> tools -> model/cuda -> state/text/... ->
# core -> quant. Run from the repository root (make test runs it first); prints the offenders.
#   scripts/check-layers.sh [SRC_DIR]
#
# A folder may include its own headers and those of any lower floor. Folders on one floor may
# include each other's headers, but never in a circle (checked with tsort): two folders that
# each need the other are one concern, or need a third below both.
#
# cuda sits on the model's floor, beside it and below it in effect: src/cuda holds the device
# code (resident weights, kernels, the no-CUDA stub) and includes nothing of the model; the cuda
# path's seam entry points, which work on the executor, are the model's (model/path_cuda.c).
#
# A folder not in the table fails the check: a new folder is given its floor here.
set -euo pipefail
src=${1:-src}

floor_of() {
  case $1 in
    quant) echo 0 ;;
    core) echo 1 ;;
    text | template | chat | grammar | state) echo 2 ;;
    model | cuda) echo 3 ;;
    tools) echo 4 ;;
    engine) echo 5 ;;
    server) echo 6 ;;
    cli) echo 7 ;;
    *) echo -1 ;;
  esac
}

# Known exceptions, "FILE FOLDER" (the file may include that folder's headers), each with why
# and who removes it. Keep it short: an entry is a debt.
allowed=(
)

is_allowed() {
  local e
  for e in "${allowed[@]}"; do [ "$e" = "$1 $2" ] && return 0; done
  return 1
}

bad=0
lateral=$(mktemp)
trap 'rm -f "$lateral"' EXIT
for dir in "$src"/*/; do
  y=$(basename "$dir")
  fy=$(floor_of "$y")
  if [ "$fy" -lt 0 ]; then
    echo "check-layers: $src/$y/ has no floor: add it to scripts/check-layers.sh" >&2
    bad=1
    continue
  fi
  # file:line:X for every quoted include whose first component is a folder of src/.
  while IFS=: read -r file line x; do
    [ "$x" = "$y" ] && continue
    [ -d "$src/$x" ] || continue
    fx=$(floor_of "$x")
    if [ "$fx" -lt 0 ]; then
      echo "check-layers: $src/$x/ has no floor: add it to scripts/check-layers.sh" >&2
      bad=1
    elif [ "$fx" -eq "$fy" ]; then
      echo "$y $x" >>"$lateral"
    elif [ "$fx" -gt "$fy" ] && ! is_allowed "$file" "$x"; then
      echo "check-layers: $file:$line: $y/ (floor $fy) includes $x/ (floor $fx), a floor above it" >&2
      bad=1
    fi
  done < <(grep -rnoE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[A-Za-z0-9_]+/' "$dir" \
             --include='*.c' --include='*.h' --include='*.cu' --include='*.S' |
           sed -E 's/^([^:]*):([0-9]+):.*"([A-Za-z0-9_]+)\/$/\1:\2:\3/')
done
# Includes between folders of one floor: tsort refuses a circle (and names its folders).
if [ -s "$lateral" ] && ! sort -u "$lateral" | tsort >/dev/null 2>"$lateral.err"; then
  echo "check-layers: folders of one floor include each other in a circle:" >&2
  grep -v '^tsort: -: input contains a loop' "$lateral.err" | sed 's/^tsort: /  /' >&2 || true
  bad=1
fi
rm -f "$lateral.err"
[ "$bad" -eq 0 ] && echo "check-layers: $src: every include runs down the floors"
exit "$bad"
