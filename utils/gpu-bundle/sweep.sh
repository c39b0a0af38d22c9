#!/usr/bin/env bash
# The balance benchmark under every scheduler kind on a lent GPU machine.
#
#   utils/gpu-bundle/sweep.sh BUNDLE OUTDIR [SECONDS]
#
# BUNDLE is an unpacked homp-gpu-bundle (lease.sh unpacks one into
# /tmp/hb/homp-gpu-bundle). For each kernel of benchmarks/balance/bundle.runs
# it runs the fat binary's AUTO loop over device(*, host) with HOMP_SCHEDULE
# set to each kind in turn (AUTO last, as compiled), then over the GPU alone
# (HOMP_DEVICES=GPU), the GPU and the host, and the host's own 'parallel for'.
# benchmarks/balance/run.py does the same on the build machine's CPU devices
# with emulated speeds; here the devices differ for real. Writes
#   OUTDIR/sweep.csv    kernel,n,devices,kind,status,median_s,mean_s,checksum
#                       (status ok, or why not: a failure, a checksum that
#                       differs from the sequential loop's)
#   OUTDIR/sweep.txt    one line per process, and AUTO's choice (HOMP_INFO of
#                       the last execution over every device)
# and stops starting processes when SECONDS (default 150) are spent.
set -uo pipefail
bundle=${1:?usage: sweep.sh BUNDLE OUTDIR [SECONDS]}
out=${2:?usage: sweep.sh BUNDLE OUTDIR [SECONDS]}
budget=${3:-150}
start=$SECONDS
mkdir -p "$out"
csv=$out/sweep.csv
txt=$out/sweep.txt
echo "kernel,n,devices,kind,status,median_s,mean_s,checksum" >"$csv"
: >"$txt"

while IFS= read -r var; do
  case $var in HOMP_* | LIBOMPTARGET_* | OMP_*) unset "$var" ;; esac
done < <(compgen -e)
# libomptarget opens the driver as libcuda.so; link it where only .so.1 is.
drv=$(mktemp -d)
trap 'rm -rf "$drv"' EXIT
for lib in libcuda.so libhsa-runtime64.so; do
  ldconfig -p 2>/dev/null | grep -q " $lib " && continue
  path=$(ldconfig -p 2>/dev/null | awk -v l="$lib.1" '$1 == l { print $NF; exit }')
  [[ -z $path ]] && for dir in /usr/local/nvidia/lib64 /usr/lib/x86_64-linux-gnu /opt/rocm/lib; do
    [[ -e $dir/$lib.1 ]] && path=$dir/$lib.1 && break
  done
  [[ -n $path ]] && ln -s "$path" "$drv/$lib"
done
export LD_LIBRARY_PATH=$bundle/lib:$drv
program=$bundle/bin/bench-balance
[[ -x $program ]] || { echo "sweep.sh: no $program" >&2; exit 2; }

kinds=(BLOCK "SCHED_DYNAMIC,2%" "SCHED_GUIDED,2%" MODEL_1_AUTO MODEL_2_AUTO
  SCHED_PROFILE_AUTO MODEL_PROFILE_AUTO AUTO)
warmup=14 reps=9

seq_sum=
run() { # KERNEL N DEVICES KIND MODE [ENV...]: one process, one csv row
  local kernel=$1 n=$2 devices=$3 kind=$4 mode=$5 status=ok fields
  shift 5
  if ((SECONDS - start >= budget)); then
    echo "no time left: $kernel $n $devices $kind" >>"$txt"
    return
  fi
  env "$@" timeout -k 5 60 "$program" "$kernel" "$mode" "$n" "$warmup" "$reps" \
    </dev/null >"$drv/out" 2>"$drv/err" || status="failed ($?)"
  read -r -a fields <"$drv/out"
  [[ ${#fields[@]} -ge 5 ]] || { status=${status/ok/no result}; fields=(- - - - -); }
  # Every version's checksum is the sequential loop's (hompcc builds with
  # -ffp-contract=off: the GPU rounds as the host does).
  if [[ $mode == seq ]]; then
    seq_sum=${fields[4]}
  elif [[ $status == ok && ${fields[4]} != "$seq_sum" ]]; then
    status="checksum ${fields[4]} differs from seq's $seq_sum"
  fi
  echo "$kernel $n $devices $kind: $status ${fields[*]:2:3}" >>"$txt"
  [[ $status == ok ]] || tail -n 5 "$drv/err" >>"$txt"
  echo "$kernel,$n,$devices,\"$kind\",$status,${fields[2]},${fields[3]},${fields[4]}" >>"$csv"
}

while read -r kernel mode n _; do
  [[ $kernel == \#* || -z $kernel || $mode != seq ]] && continue
  run "$kernel" "$n" host seq seq
  run "$kernel" "$n" host "parallel for" host
  for kind in "${kinds[@]}"; do
    if [[ $kind == AUTO ]]; then
      run "$kernel" "$n" all AUTO homp HOMP_INFO=1
      # The last execution's lines: AUTO's choice and each device's share.
      awk '/^homp: region/ { block = "" } { block = block $0 "\n" } END { printf "%s", block }' \
        "$drv/err" | head -n 20 >>"$txt"
    else
      run "$kernel" "$n" all "$kind" homp "HOMP_SCHEDULE=$kind"
    fi
  done
  run "$kernel" "$n" gpu AUTO homp HOMP_DEVICES=GPU
  run "$kernel" "$n" gpu+host AUTO homp HOMP_DEVICES=GPU,host
done <"$bundle/benchmarks/balance/runs"
echo "sweep done in $((SECONDS - start)) s" >>"$txt"
