#!/usr/bin/env bash
# Compiles examples/demo.c with hompcc and runs it over every offload device
# and the host, printing homp's per-region report (HOMP_INFO=1).
set -euo pipefail
build=${1:-build}
mkdir -p "$build/examples"
echo "\$ $build/bin/hompcc -O2 examples/demo.c -o $build/examples/demo"
"$build/bin/hompcc" -O2 examples/demo.c -o "$build/examples/demo"
echo "\$ HOMP_INFO=1 $build/examples/demo"
HOMP_INFO=1 "$build/examples/demo"
