#!/bin/bash
# The reference's own fixture writer, in the tree's fixture flow.
#
#   scripts/ref-archs.sh [--seed N] [--out DIR] [--headers]
#
# Builds `test-llama-archs` from the llama.cpp source bundle that the reference's npm package
# carries (only that target and what it links; cached in build/ref-archs, an ignored folder) and
# runs `test-llama-archs -o DIR -s SEED`, which writes one random-weight GGUF per architecture it
# supports ("<arch>-dense.gguf", "<arch>-moe.gguf"). DIR defaults to build/ref-archs/out.
#
# With --headers, the fixtures the tree does not have yet become tree fixtures: each one's header
# (metadata, tensor table, each tensor's mean, deviation and range) goes to tests/data/archs-hdr,
# its base name to tests/data/archs-w.list, and the checksums of the file scripts/archs.py builds
# from that header (seeded weights: byte-identical on every machine) and of its Q8_0 / Q4_K_M
# variants to tests/data/archs.sha256 / archs-q.sha256. Existing fixtures are left as they are.
# Goldens then come from scripts/make-golden.sh writer.
#
# The build needs cmake, ninja and g++ (installed here when missing) and takes a few minutes
# on two cores the first time; afterwards it is a no-op.
set -euo pipefail
cd "$(dirname "$0")/.."
SEED=42 OUT= HEADERS=0
while [ $# -gt 0 ]; do
  case $1 in
    --seed) SEED=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --headers) HEADERS=1; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ref-archs: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
R=build/ref-archs
OUT=${OUT:-$R/out}
bundle=build/peer/node_modules/node-llama-cpp/llama/gitRelease.bundle
if [ ! -f "$bundle" ]; then
  echo "ref-archs: installing the reference (npm node-llama-cpp) into build/peer" >&2
  PEER="$(pwd)/build/peer" bash scripts/peer/setup.sh >/dev/null
fi
if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null || ! command -v g++ >/dev/null; then
  sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq cmake ninja-build g++ git >/dev/null
fi
if [ ! -d "$R/src/.git" ]; then
  mkdir -p "$R"
  git clone -q "$bundle" "$R/src"
fi
if [ ! -x "$R/build/bin/test-llama-archs" ]; then
  echo "ref-archs: building test-llama-archs from the reference's source (first time: minutes)" >&2
  cmake -S "$R/src" -B "$R/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=ON \
    -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_OPENSSL=OFF -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DBUILD_SHARED_LIBS=OFF >/dev/null
  ninja -C "$R/build" test-llama-archs >/dev/null
fi
mkdir -p "$OUT"
"$R/build/bin/test-llama-archs" -o "$OUT" -s "$SEED" >/dev/null 2>&1
n=$(ls "$OUT"/*.gguf | wc -l)
echo "ref-archs: the writer wrote $n fixtures into $OUT" >&2
[ $HEADERS -eq 1 ] || exit 0

ORACLE=${ORACLE:-}
[ -n "$ORACLE" ] || ORACLE=$(PEER="$(pwd)/build/peer" bash scripts/peer/setup.sh | tail -1)
declare -A FT=([Q8_0]=7 [Q4_K_M]=15)
mkdir -p tests/data/archs/q
touch tests/data/archs-w.list
new=()
for f in "$OUT"/*.gguf; do
  base=$(basename "$f" .gguf)
  [ -f "tests/data/archs-hdr/$base.hdr" ] || new+=("$base")
done
# header, then the tree's own seeded build of it (two at a time: the build is Python)
printf '%s\n' "${new[@]}" | xargs -r -P "$(nproc)" -I{} sh -c \
  'python3 scripts/archs.py header "$1/{}.gguf" "tests/data/archs-hdr/{}.hdr" &&
   python3 scripts/archs.py build "tests/data/archs-hdr/{}.hdr" "tests/data/archs/{}.gguf"' _ "$OUT"
for base in "${new[@]}"; do
  echo "$(sha256sum < "tests/data/archs/$base.gguf" | cut -d' ' -f1)  $base.gguf" >> tests/data/archs.sha256
  for fmt in Q8_0 Q4_K_M; do
    q=tests/data/archs/q/$base-$fmt.gguf
    if "$ORACLE" quantize "tests/data/archs/$base.gguf" "$q" "${FT[$fmt]}" >/dev/null 2>&1; then
      echo "$(sha256sum < "$q" | cut -d' ' -f1)  $base-$fmt.gguf" >> tests/data/archs-q.sha256
    else
      rm -f "$q"
      echo "ref-archs: the reference cannot quantize $base to $fmt" >&2
    fi
  done
  echo "$base" >> tests/data/archs-w.list
done
echo "ref-archs: ${#new[@]} new fixtures (headers in tests/data/archs-hdr, listed in tests/data/archs-w.list)" >&2
