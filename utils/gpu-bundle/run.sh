#!/usr/bin/env bash
# homp GPU bundle: runs the bundled tests and benchmarks on this machine.
#
#   run.sh [OUTDIR] [TEST...]
#
# Lists the devices, then runs every test (the steps of its lit RUN lines,
# checked by the bundled FileCheck), the demo and every benchmark in each
# configuration the machine allows:
#   all   the programs as compiled: every offload device found (on a GPU node
#         the GPU and the CPU offload devices, plus the host where a test's
#         device list names it)
#   gpu   the GPU alone: the programs built for the GPU architectures only
#   cpu   the CPU offload devices alone: GPUs hidden through
#         CUDA_VISIBLE_DEVICES and ROCR_VISIBLE_DEVICES
# gpu and cpu need a GPU; without one they are reported as not run. A test's
# steps get the number of offload devices the probe found in the
# configuration as $NDEV and $DEVICES ("4" and "4 devices": lit's %ndev and
# %devices); a test that needs more devices than that (REQUIRES: devices-N),
# or devices that work on the host's memory where there is a GPU (REQUIRES:
# host-memory), is skipped there with the reason.
#
# Writes OUTDIR (default ./homp-gpu-bundle-results): summary.md, results.csv
# (test, configuration, status, seconds), benchmarks.csv and log.txt (every
# step and its output). TEST names limit the tests run (benchmarks still run).
# Exits 0 only if everything that ran passed.
#
# HOMP_BUNDLE_BENCH_RUNS=K  only the first K runs of each benchmark (0: none)
# HOMP_BUNDLE_TIMEOUT=S     limit of each step in seconds (default 300)
# HOMP_BUNDLE_CONFIGS=A,B   only these configurations (all, gpu, cpu)
# HOMP_BUNDLE_BENCHMARKS=A,B only these benchmarks (none: no benchmark)
# HOMP_BUNDLE_TESTS=none    no test (the demo and the benchmarks still run)
#
# Needs bash 5 and coreutils; loads nothing from outside the bundle but glibc
# and the GPU driver.
set -uo pipefail
export LC_ALL=C

bundle=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "run.sh: error: $1" >&2; exit 2; }

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  while IFS= read -r line; do
    [[ $line == '#!'* ]] && continue
    [[ $line == '#'* ]] || break
    line=${line#\#}
    echo "${line# }"
  done <"$bundle/run.sh"
  exit 0
fi
out=${1:-homp-gpu-bundle-results}
shift $(($# > 0 ? 1 : 0))
selected=("$@")
bench_runs=${HOMP_BUNDLE_BENCH_RUNS:-all}
step_timeout=${HOMP_BUNDLE_TIMEOUT:-300}
config_filter=${HOMP_BUNDLE_CONFIGS:-}
bench_filter=${HOMP_BUNDLE_BENCHMARKS:-}
test_filter=${HOMP_BUNDLE_TESTS:-}

((BASH_VERSINFO[0] >= 5)) || die "needs bash 5 or newer (this is $BASH_VERSION)"
[[ $bench_runs == all || $bench_runs =~ ^[0-9]+$ ]] ||
  die "HOMP_BUNDLE_BENCH_RUNS must be a number, not '$bench_runs'"
[[ $step_timeout =~ ^[1-9][0-9]*$ ]] || die "HOMP_BUNDLE_TIMEOUT must be seconds, not '$step_timeout'"
[[ -f $bundle/bundle.txt ]] || die "$bundle is not an unpacked homp GPU bundle (no bundle.txt)"
for name in "${selected[@]}"; do
  [[ -d $bundle/tests/$name ]] || die "no test '$name' in the bundle (see $bundle/tests/)"
done
[[ -z $test_filter || $test_filter == none ]] ||
  die "HOMP_BUNDLE_TESTS can only be 'none' (name tests as arguments), not '$test_filter'"
for name in ${config_filter//,/ }; do
  [[ $name == all || $name == gpu || $name == cpu ]] ||
    die "HOMP_BUNDLE_CONFIGS names an unknown configuration '$name' (all, gpu, cpu)"
done
[[ -z $config_filter || -n ${config_filter//,/} ]] || die "HOMP_BUNDLE_CONFIGS names no configuration"
if [[ $bench_filter != none ]]; then
  for name in ${bench_filter//,/ }; do
    [[ -d $bundle/benchmarks/$name ]] ||
      die "HOMP_BUNDLE_BENCHMARKS names '$name', which is not in the bundle (see $bundle/benchmarks/)"
  done
fi

# Tests must not inherit the caller's homp or offload settings (as under lit).
while IFS= read -r var; do
  case $var in HOMP_* | LIBOMPTARGET_* | OMP_*) unset "$var" ;; esac
done < <(compgen -e)
export OMP_NUM_THREADS=2 # what lit gives the tests
export HOMP_PROFILES=off # as lit does: every run of a test learns anew
export LD_LIBRARY_PATH=$bundle/lib
export PATH=$bundle/tools:$PATH

mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/homp-gpu-bundle.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$scratch"' EXIT
log=$out/log.txt
results=$out/results.csv
benchcsv=$out/benchmarks.csv
: >"$log"
echo "test,configuration,status,seconds" >"$results"
echo "benchmark,configuration,arguments,status,seconds,median_s,mean_s,checksum" >"$benchcsv"

# --- helpers -------------------------------------------------------------------

say() { echo "$*" | tee -a "$log"; }

manifest() { # KEY: the value of "KEY: value" in bundle.txt
  local line
  while IFS= read -r line; do
    [[ $line == "$1: "* ]] && { echo "${line#"$1: "}"; return; }
  done <"$bundle/bundle.txt"
}

now_us() { echo "${EPOCHREALTIME/./}"; }

seconds_since() { # START_US: elapsed seconds, to the millisecond
  local us=$(($(now_us) - $1))
  printf '%d.%03d' $((us / 1000000)) $((us / 1000 % 1000))
}

csv_row() { # FILE FIELD...
  local file=$1 row='' field
  shift
  for field in "$@"; do
    [[ $field == *[,\"]* ]] && field=\"${field//\"/\"\"}\"
    row+=${row:+,}$field
  done
  echo "$row" >>"$file"
}

# Runs a command in configuration CONFIG's environment, with the step limit.
in_config() { # CONFIG COMMAND...
  local config=$1
  shift
  (
    [[ $config == cpu ]] && export CUDA_VISIBLE_DEVICES='' ROCR_VISIBLE_DEVICES=''
    exec timeout -k 10 "$step_timeout" "$@"
  )
}

# Two checksums printed as %.6e agree within two units of the last digit (a
# GPU may contract a*x+y into one rounding where the host does not); other
# forms must match exactly.
same_checksum() { # A B
  local re='^(-?)([0-9])\.([0-9]{6})e([+-])([0-9]+)$' s1 m1 e1 s2 m2 e2 d
  [[ $1 == "$2" ]] && return 0
  [[ $1 =~ $re ]] || return 1
  s1=${BASH_REMATCH[1]} m1=$((10#${BASH_REMATCH[2]}${BASH_REMATCH[3]}))
  e1=$((${BASH_REMATCH[4]}10#${BASH_REMATCH[5]}))
  [[ $2 =~ $re ]] || return 1
  s2=${BASH_REMATCH[1]} m2=$((10#${BASH_REMATCH[2]}${BASH_REMATCH[3]}))
  e2=$((${BASH_REMATCH[4]}10#${BASH_REMATCH[5]}))
  [[ $s1 == "$s2" ]] || return 1
  if ((e1 == e2 + 1)); then m1=$((m1 * 10)); elif ((e2 == e1 + 1)); then m2=$((m2 * 10)); fi
  ((e1 - e2 <= 1 && e2 - e1 <= 1)) || return 1
  d=$((m1 > m2 ? m1 - m2 : m2 - m1))
  ((d <= 20))
}

# --- machine and devices ---------------------------------------------------------

configs=(all)
not_run=()
declare -A bins=([all]=bin [gpu]=bin-gpu [cpu]=bin) variant=([all]=fat [gpu]=gpu [cpu]=fat)
declare -A what=(
  [all]="every offload device found, as compiled ($(manifest 'offload archs'))"
  [gpu]="the GPU alone (programs built for $(manifest 'gpu-only archs') only)"
  [cpu]="the CPU offload devices alone (GPUs hidden)")

need=$(manifest 'glibc needed')
have=$(getconf GNU_LIBC_VERSION 2>/dev/null)
have=${have#glibc }
if [[ -n $need && -n $have && $(printf '%s\n%s\n' "$need" "$have" | sort -V | head -n 1) != "$need" ]]; then
  die "this machine has glibc $have; the bundle needs $need or newer"
fi

gpus=$scratch/gpus
: >"$gpus"
if command -v nvidia-smi >/dev/null && timeout 60 nvidia-smi -L >>"$gpus" 2>/dev/null; then
  driver=$(timeout 60 nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n 1)
  [[ -n $driver ]] && echo "NVIDIA driver $driver" >>"$gpus"
elif compgen -G '/dev/nvidia[0-9]*' >/dev/null; then
  echo "NVIDIA GPU device nodes: $(echo /dev/nvidia[0-9]*) (no nvidia-smi)" >>"$gpus"
fi
if [[ -e /dev/kfd ]]; then
  if command -v rocm-smi >/dev/null; then
    rocm-smi --showproductname >>"$gpus" 2>&1
  else
    echo "AMD GPU driver present (/dev/kfd; no rocm-smi)" >>"$gpus"
  fi
fi
if [[ -s $gpus ]]; then
  gpu_line="GPU: present"
  if [[ -d $bundle/bin-gpu ]]; then
    configs+=(gpu cpu)
  else
    configs+=(cpu)
    not_run+=("gpu|the bundle was built without GPU architectures")
  fi
else
  gpu_line="GPU: absent (no nvidia-smi or /dev/nvidia*, no /dev/kfd)"
  not_run+=("gpu|no GPU on this machine" "cpu|no GPU on this machine (all is CPU only)")
fi
if [[ -n $config_filter ]]; then
  kept=()
  for config in "${configs[@]}"; do
    if [[ ,$config_filter, == *,$config,* ]]; then
      kept+=("$config")
    else
      not_run+=("$config|not asked for (HOMP_BUNDLE_CONFIGS=$config_filter)")
    fi
  done
  configs=("${kept[@]}")
  ((${#configs[@]})) || die "none of HOMP_BUNDLE_CONFIGS=$config_filter can run on this machine"
fi

# libomptarget 19 dlopens the driver libraries by their unversioned names
# (libcuda.so, libhsa-runtime64.so), which driver installations do not
# always provide: link those names to the versioned libraries found.
system_library() { # NAME: its path, from ld.so's cache or the usual folders
  local line dir ldconfig
  ldconfig=$(command -v ldconfig || echo /sbin/ldconfig)
  while IFS= read -r line; do
    [[ $line == $'\t'"$1 ("*"=> "* ]] && { echo "${line##*=> }"; return 0; }
  done < <("$ldconfig" -p 2>/dev/null)
  for dir in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /usr/lib64 /opt/rocm/lib; do
    [[ -e $dir/$1 ]] && { echo "$dir/$1"; return 0; }
  done
  return 1
}
driver_libs=$scratch/driver
mkdir -p "$driver_libs"
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$driver_libs
for name in libcuda.so libhsa-runtime64.so; do
  if path=$(system_library "$name"); then
    echo "driver library: $name ($path)" >>"$gpus.libs"
  elif path=$(system_library "$name.1"); then
    ln -s "$path" "$driver_libs/$name"
    echo "driver library: $name -> $path" >>"$gpus.libs"
  fi
done

cpu_model=unknown
while IFS= read -r line; do
  [[ $line == "model name"* ]] && { cpu_model=${line#*: }; break; }
done </proc/cpuinfo
# (nproc counts OMP_NUM_THREADS, set above for the tests, as the processors)
machine="$(uname -srm), $cpu_model, $(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc) cores, glibc ${have:-unknown}"

# The probe's count is what `device(*)` gives the tests in each configuration.
devices=$scratch/devices
declare -A ndev ngpu
{
  echo "machine: $machine"
  echo "$gpu_line"
  cat "$gpus"
  [[ -s $gpus.libs ]] && cat "$gpus.libs"
  for config in "${configs[@]}"; do
    echo "offload devices in configuration $config:"
    if probe=$(in_config "$config" "$bundle/${bins[$config]}/devices" </dev/null 2>&1); then
      if [[ $probe =~ (^|$'\n')"offload devices: "([0-9]+)" ("([0-9]+)" GPU" ]]; then
        ndev[$config]=${BASH_REMATCH[2]} ngpu[$config]=${BASH_REMATCH[3]}
      fi
    else
      probe+=$'\n(the device probe failed)'
    fi
    echo "$probe"
  done
} >"$devices"
say "== homp GPU bundle: $(manifest 'offload archs'), built $(manifest built) from $(manifest commit)"
tee -a "$log" <"$devices"

# --- running ---------------------------------------------------------------------

declare -A status seconds median
skip_reasons=()
device_skips=()
benchruns=()

record() { # CONFIG NAME STATUS SECONDS [REASON]
  status[$1/$2]=$3 seconds[$1/$2]=$4
  csv_row "$results" "$2" "$1" "$3" "$4"
  say "$(printf '%-4s %-4s %-44s %8s s%s' "$3" "$1" "$2" "$4" "${5:+  ($5)}")"
}

run_test() { # CONFIG NAME
  local config=$1 name=$2 dir=$bundle/tests/$2 bin step n=0 rc start why need count phrase
  local bindir=$bundle/${bins[$config]} work=$scratch/$config/$2 testlog=$scratch/test.log
  echo "=== [$config] $name" >>"$log"
  if [[ -f $dir/skip ]]; then
    record "$config" "$name" SKIP 0 "$(<"$dir/skip")"
    return
  fi
  if [[ -f $dir/devices ]]; then
    need=$(<"$dir/devices")
    if [[ -z ${ndev[$config]:-} ]]; then
      record "$config" "$name" FAIL 0 "needs $need devices; the device probe failed"
      return
    elif ((${ndev[$config]} < need)); then
      why="needs $need devices; configuration $config has ${ndev[$config]}"
      device_skips+=("$name ($config): $why")
      record "$config" "$name" SKIP 0 "$why"
      return
    fi
  fi
  # REQUIRES: host-memory: every offload device works on the host's memory,
  # as the CPU offload devices do; a GPU may not (the bundle cannot tell).
  if [[ -f $dir/host-memory && ${ngpu[$config]:-1} != 0 ]]; then
    why="needs devices that work on the host's memory; configuration $config has a GPU"
    device_skips+=("$name ($config): $why")
    record "$config" "$name" SKIP 0 "$why"
    return
  fi
  if [[ -f $dir/compile.${variant[$config]}.failed ]]; then
    cat "$dir/compile.${variant[$config]}.log" >>"$log"
    record "$config" "$name" FAIL 0 "did not compile, see log.txt"
    return
  fi
  count=${ndev[$config]:-}
  phrase="$count devices"
  [[ $count == 1 ]] && phrase="1 device"
  mkdir -p "$work"
  while IFS= read -r bin; do
    ln -s "$bindir/$name.tmp${bin#%t}" "$work/$name.tmp${bin#%t}"
  done <"$dir/binaries"
  start=$(now_us)
  : >"$testlog"
  while IFS= read -r -u 3 step; do
    ((++n))
    echo "\$ $step" >>"$testlog"
    (cd "$work" && export T=$work/$name.tmp S=$dir/$name NDEV=$count DEVICES=$phrase &&
      in_config "$config" bash -o pipefail -c "$step") </dev/null >>"$testlog" 2>&1
    rc=$?
    if ((rc != 0)); then
      why="step $n exited with $rc"
      ((rc == 124)) && why="step $n timed out after $step_timeout s"
      cat "$testlog" >>"$log"
      record "$config" "$name" FAIL "$(seconds_since "$start")" "$why"
      head -n 15 "$testlog" | while IFS= read -r line; do echo "       | $line"; done
      return
    fi
  done 3<"$dir/steps"
  cat "$testlog" >>"$log"
  record "$config" "$name" PASS "$(seconds_since "$start")"
}

# The demo under HOMP_INFO shows each device's share and time.
run_demo() { # CONFIG
  local config=$1 start rc name=examples/demo.c
  echo "=== [$config] $name (HOMP_INFO=1, n = 10^7)" >>"$log"
  start=$(now_us)
  in_config "$config" env HOMP_INFO=1 "$bundle/${bins[$config]}/demo" 10000000 \
    </dev/null >"$scratch/demo.$config" 2>&1
  rc=$?
  cat "$scratch/demo.$config" >>"$log"
  if ((rc == 0)); then
    record "$config" "$name" PASS "$(seconds_since "$start")"
  else
    record "$config" "$name" FAIL "$(seconds_since "$start")" "exited with $rc"
  fi
}

# Runs each line of benchmarks/NAME/runs as the program's arguments. Output
# "MODE N MEDIAN MEAN CHECKSUM" (benchmarks/axpy's) is checked: every
# version's checksum must agree with seq's for the same N.
run_benchmark() { # CONFIG NAME
  local config=$1 name=$2 dir=$bundle/benchmarks/$2 line k=0 rc start secs state why key
  local -a args fields
  local -A reference=()
  local program=$bundle/${bins[$config]}/bench-$name
  if [[ -f $dir/compile.${variant[$config]}.failed ]]; then
    cat "$dir/compile.${variant[$config]}.log" >>"$log"
    record "$config" "benchmark $name" FAIL 0 "did not compile, see log.txt"
    return
  fi
  while IFS= read -r -u 3 line; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    [[ $bench_runs != all ]] && ((k >= bench_runs)) && break
    ((++k))
    read -r -a args <<<"$line"
    echo "=== [$config] benchmark $name ${args[*]}" >>"$log"
    start=$(now_us)
    in_config "$config" "$program" "${args[@]}" </dev/null >"$scratch/bench.out" 2>"$scratch/bench.err"
    rc=$?
    secs=$(seconds_since "$start")
    cat "$scratch/bench.out" "$scratch/bench.err" >>"$log"
    fields=()
    read -r -a fields <"$scratch/bench.out"
    state=PASS why=''
    if ((rc != 0)); then
      state=FAIL why="exited with $rc"
    elif ((${#fields[@]} == 5)); then
      if [[ ${fields[0]} == seq ]]; then
        reference[${fields[1]}]=${fields[4]}
      elif [[ -n ${reference[${fields[1]}]:-} ]] &&
        ! same_checksum "${fields[4]}" "${reference[${fields[1]}]}"; then
        state=FAIL why="checksum ${fields[4]} differs from seq's ${reference[${fields[1]}]}"
      fi
    fi
    csv_row "$benchcsv" "$name" "$config" "${args[*]}" "$state" "$secs" \
      "${fields[2]:-}" "${fields[3]:-}" "${fields[4]:-}"
    key="$name|${args[*]}"
    [[ " ${benchruns[*]} " == *" $key "* ]] || benchruns+=("$key")
    median[$config/$key]=${fields[2]:-done}
    [[ $state == FAIL ]] && median[$config/$key]=FAIL
    record "$config" "benchmark $name ${args[*]}" "$state" "$secs" "$why"
  done 3<"$dir/runs"
}

tests=()
for dir in "$bundle"/tests/*/; do
  [[ $test_filter == none ]] && break
  name=${dir%/}
  name=${name##*/}
  if ((${#selected[@]})) && [[ " ${selected[*]} " != *" $name "* ]]; then continue; fi
  tests+=("$name")
  [[ -f $bundle/tests/$name/skip ]] && skip_reasons+=("$name: $(<"$bundle/tests/$name/skip")")
done
benchmarks=()
for dir in "$bundle"/benchmarks/*/; do
  [[ -d $dir ]] || continue
  dir=${dir%/}
  name=${dir##*/}
  [[ $bench_filter == none ]] && break
  [[ -z $bench_filter || ,$bench_filter, == *,$name,* ]] && benchmarks+=("$name")
done

declare -A config_seconds
for config in "${configs[@]}"; do
  say "== configuration $config: ${what[$config]}"
  config_start=$(now_us)
  for name in "${tests[@]}"; do run_test "$config" "$name"; done
  run_demo "$config"
  for name in "${benchmarks[@]}"; do run_benchmark "$config" "$name"; done
  config_seconds[$config]=$(seconds_since "$config_start")
done
for entry in "${not_run[@]}"; do say "== configuration ${entry%%|*}: not run (${entry#*|})"; done

# --- summary ---------------------------------------------------------------------

passed=0 failed=0 skipped=0
declare -A count
for key in "${!status[@]}"; do
  config=${key%%/*}
  case ${status[$key]} in
    PASS) ((++passed)) ;;
    SKIP) ((++skipped)) ;;
    *) ((++failed)) ;;
  esac
  count[$config/${status[$key]}]=$((${count[$config/${status[$key]}]:-0} + 1))
done
totals="$passed passed, $failed failed, $skipped skipped"

row() { # CELL...: a markdown table row
  local line='|' cell
  for cell in "$@"; do line+=" $cell |"; done
  echo "$line"
}
{
  echo "# homp GPU bundle results"
  echo
  echo "- date: $(date '+%Y-%m-%d %H:%M %Z')"
  echo "- machine: $machine"
  echo "- $gpu_line"
  echo "- bundle: $(manifest 'offload archs'), built $(manifest built) from $(manifest commit) with $(manifest compiler)"
  echo "- result: $totals"
  echo
  echo "## Devices"
  echo
  echo '```'
  cat "$devices"
  echo '```'
  echo
  echo "## Configurations"
  echo
  row configuration what passed failed skipped seconds
  row --- --- --- --- --- ---
  for config in "${configs[@]}"; do
    row "$config" "${what[$config]}" "${count[$config/PASS]:-0}" \
      "$((${count[$config/FAIL]:-0}))" "${count[$config/SKIP]:-0}" "${config_seconds[$config]}"
  done
  for entry in "${not_run[@]}"; do row "${entry%%|*}" "not run: ${entry#*|}" - - - -; done
  echo
  echo "## Tests (status, seconds)"
  echo
  row test "${configs[@]}"
  row --- "${configs[@]/*/---}"
  for name in "${tests[@]}" examples/demo.c; do
    cells=()
    for config in "${configs[@]}"; do
      cells+=("${status[$config/$name]:-} ${seconds[$config/$name]:-}")
    done
    row "$name" "${cells[@]}"
  done
  if ((${#skip_reasons[@]})); then
    echo
    echo "Skipped (their RUN lines cannot be carried):"
    echo
    for entry in "${skip_reasons[@]}"; do echo "- $entry"; done
  fi
  if ((${#device_skips[@]})); then
    echo
    echo "Skipped where a configuration has too few devices:"
    echo
    for entry in "${device_skips[@]}"; do echo "- $entry"; done
  fi
  if ((${#benchruns[@]})); then
    echo
    echo "## Benchmarks (median seconds per call)"
    echo
    row benchmark arguments "${configs[@]}"
    row --- --- "${configs[@]/*/---}"
    for key in "${benchruns[@]}"; do
      cells=()
      for config in "${configs[@]}"; do cells+=("${median[$config/$key]:-}"); done
      row "${key%%|*}" "${key#*|}" "${cells[@]}"
    done
  fi
  echo
  echo "## Shares and times per device (examples/demo.c, HOMP_INFO=1, n = 10^7)"
  for config in "${configs[@]}"; do
    echo
    echo "$config:"
    echo
    echo '```'
    cat "$scratch/demo.$config"
    echo '```'
  done
} >"$out/summary.md"

say "== $totals"
say "results: $out/summary.md, results.csv, benchmarks.csv, log.txt"
((failed == 0 && passed > 0))
