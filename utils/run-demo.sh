#!/usr/bin/env bash
# Compiles examples/demo.c with hompcc and runs it on every offload device.
set -euo pipefail
build=${1:-build}
mkdir -p "$build/examples"
"$build/bin/hompcc" -O2 examples/demo.c -o "$build/examples/demo"
"$build/examples/demo"
