#!/usr/bin/env bash
# homp GPU bundle on a lent GPU machine: one call, results under OUTDIR.
#
#   utils/gpu-bundle/lease.sh OUTDIR [SECONDS]
#
# For the `device` tool's one-command lease (docs/Platforms.md): carry
# build/gpu-bundle.tar.zst and build/gpu-bundle-zstd, then run this from the
# repository root with OUTDIR=$OUT. Within SECONDS (default 480) it
#   1. unpacks the bundle into /tmp/hb;
#   2. runs the tests in the three configurations at once (all, gpu, cpu:
#      correctness only, so they may share the machine);
#   3. runs the benchmarks one after the other, on the GPU alone and then on
#      every device, so that their timings do not disturb each other.
# Each phase has its own share of the time, and each packs its results into
# one archive in OUTDIR as soon as it ends (the lease returns few files), so
# a phase cut short still leaves what the earlier ones found.
set -uo pipefail
out=${1:?usage: lease.sh OUTDIR [SECONDS]}
budget=${2:-480}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
start=$SECONDS
mkdir -p "$out"
progress=$out/progress.txt
note() { echo "[$((SECONDS - start)) s] $*" | tee -a "$progress"; }
left() { echo $((budget - (SECONDS - start))); }

z=zstd
command -v zstd >/dev/null || z=$root/build/gpu-bundle-zstd/zstd
rm -rf /tmp/hb /tmp/hb-results /tmp/hb-cache-* && mkdir -p /tmp/hb /tmp/hb-results
"$z" -dc "$root/build/gpu-bundle.tar.zst" | tar -x -C /tmp/hb || { note "unpacking failed"; exit 2; }
bundle=/tmp/hb/homp-gpu-bundle
note "unpacked: $(head -n 2 "$bundle/bundle.txt" | tr '\n' ' ')"
{ nvidia-smi 2>&1 | head -n 20; nproc; free -g; } >"$out/machine.txt"

# The device probe of each build, before anything else: a GPU that the GPU
# build does not see stops nothing, but every later result says why.
for bins in bin bin-gpu; do
  [[ -x $bundle/$bins/devices ]] || continue
  echo "== $bins/devices" >>"$out/probe.txt"
  (export LD_LIBRARY_PATH=$bundle/lib; timeout 60 "$bundle/$bins/devices" >>"$out/probe.txt" 2>&1)
done
note "devices: $(grep '^offload devices' "$out/probe.txt" | tr '\n' ' ')"
# homp-info of each build, calibrating afresh: the GPU's copy costs and the
# probe kernel's rate on it (or why it has none).
for bins in bin bin-gpu; do
  [[ -x $bundle/$bins/homp-info ]] || continue
  echo "== $bins/homp-info" >>"$out/probe.txt"
  (export LD_LIBRARY_PATH=$bundle/lib XDG_CACHE_HOME=/tmp/hb-cache-$bins
   timeout 60 "$bundle/$bins/homp-info" >>"$out/probe.txt" 2>&1)
done
note "$(grep -h '^  probe kernel:' "$out/probe.txt" | sort -u | cut -c1-160 | tr '\n' ' ')"

pack() { # NAME DIR...: one archive of the given result folders
  local name=$1
  shift
  tar -C /tmp/hb-results -czf "$out/$name.tgz" "$@" 2>/dev/null
  note "packed $name.tgz"
}

# 1. Tests, the three configurations side by side; a step may take 90 s.
phase=$(($(left) * 45 / 100))
note "tests: all, gpu and cpu at once, at most $phase s"
for config in all gpu cpu; do
  HOMP_BUNDLE_CONFIGS=$config HOMP_BUNDLE_BENCH_RUNS=0 HOMP_BUNDLE_TIMEOUT=90 \
    timeout -k 5 "$phase" "$bundle/run.sh" "/tmp/hb-results/tests-$config" >/dev/null 2>&1 &
done
wait
for config in all gpu cpu; do
  note "tests $config: $(tail -n 2 "/tmp/hb-results/tests-$config/log.txt" | head -n 1)"
  grep '^FAIL' "/tmp/hb-results/tests-$config/log.txt" | tee -a "$progress" >/dev/null
done
pack tests tests-all tests-gpu tests-cpu

# 2. Benchmarks one at a time, most wanted first: each gets at most its
# seconds, and less when the budget runs short. HOMP_LEASE_RUNS replaces the
# list (CONFIG:BENCHMARK:SECONDS ...; sweep:balance:SECONDS runs sweep.sh, the
# balance benchmark under every scheduler kind, into sweep.tgz).
runs=(${HOMP_LEASE_RUNS:-gpu:axpy:60 gpu:jacobi:60 gpu:matmul:60 gpu:balance:60 all:balance:90
  all:jacobi:60 all:matmul:60 gpu:dataaxpy:40})
for run in "${runs[@]}"; do
  IFS=: read -r config name limit <<<"$run"
  phase=$(($(left) - 10))
  ((phase < limit)) && limit=$phase
  ((limit > 10)) || { note "no time left for $name on $config"; continue; }
  if [[ $config == sweep ]]; then # the balance benchmark under every kind
    timeout -k 5 "$limit" "$root/utils/gpu-bundle/sweep.sh" "$bundle" /tmp/hb-results/sweep "$((limit - 15))"
    note "sweep: $(($(wc -l </tmp/hb-results/sweep/sweep.csv) - 1)) processes, $(grep -c ',ok,' /tmp/hb-results/sweep/sweep.csv) ok"
    pack sweep sweep
    continue
  fi
  HOMP_BUNDLE_CONFIGS=$config HOMP_BUNDLE_TESTS=none HOMP_BUNDLE_BENCHMARKS=$name \
    HOMP_BUNDLE_TIMEOUT=$limit timeout -k 5 "$limit" "$bundle/run.sh" \
    "/tmp/hb-results/bench-$config-$name" >/dev/null 2>&1
  note "benchmark $name on $config: $(grep -c '^PASS' "/tmp/hb-results/bench-$config-$name/log.txt") passed," \
    "$(grep -c '^FAIL' "/tmp/hb-results/bench-$config-$name/log.txt") failed"
  (cd /tmp/hb-results && tar -czf "$out/benchmarks.tgz" bench-*)
done
note "done"
