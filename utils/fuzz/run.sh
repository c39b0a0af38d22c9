#!/usr/bin/env bash
# Builds homp-fuzz and runs it for the given seconds over a corpus kept in
# BUILD/fuzz/corpus, seeded from the test sources and from generated inputs.
# Inputs that fail land in BUILD/fuzz/findings. Usage: run.sh BUILD SECONDS
set -euo pipefail
build=${1:?usage: run.sh BUILD SECONDS}
seconds=${2:-300}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

if ! cmake --build "$build" --target homp-fuzz; then
  echo "homp fuzz: cannot build homp-fuzz (is clang's libFuzzer, from" \
       "libclang-rt-19-dev, installed?)" >&2
  exit 1
fi

dir=$build/fuzz
mkdir -p "$dir/corpus" "$dir/seeds" "$dir/findings"
# Test sources, named by their paths (names repeat across suites).
for f in "$src"/test/Frontend/*.c "$src"/test/Frontend/*.cpp \
         "$src"/test/Frontend/transparency/* "$src"/test/Runtime/*.c \
         "$src"/test/Runtime/*.cpp; do
  rel=${f#"$src"/test/}
  cp "$f" "$dir/seeds/${rel//\//-}"
done
# Inputs for the generator: its marker byte, then choices.
for i in $(seq 1 64); do
  { printf '\001'; head -c 200 /dev/urandom; } > "$dir/seeds/generated-$i"
done

"$build/bin/homp-fuzz" -max_total_time="$seconds" -timeout=20 \
  -detect_leaks=0 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$dir/findings/" "$dir/corpus" "$dir/seeds"
