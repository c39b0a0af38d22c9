#!/usr/bin/env bash
# make stress: runs the Runtime lit tests RUNS times (default 20), each time
# in a new random order, to shake out races and hangs. Every Runtime test is
# threaded: a region runs a proxy thread per device, and several tests start
# regions from many host threads and tasks at once. FILTER (a lit --filter
# regex) narrows the set. Every failure is printed with its output; the run
# goes on, and the summary counts the failures per test.
#   utils/stress.sh BUILD [RUNS] [FILTER]
set -uo pipefail
build=${1:-build}
runs=${2:-20}
filter=${3:-}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
log=$(mktemp)
failures=$(mktemp)
trap 'rm -f "$log" "$failures"' EXIT

args=(-sv --order=random "$build/test/Runtime")
[[ -n $filter ]] && args+=(--filter "$filter")
failed_runs=0
for ((run = 1; run <= runs; ++run)); do
  start=$SECONDS
  python3 "$lit" "${args[@]}" >"$log" 2>&1
  status=$?
  tests=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log")
  if [[ $status -eq 0 ]]; then
    echo "stress: run $run/$runs: ${tests:-0} tests passed in $((SECONDS - start)) s"
    continue
  fi
  failed_runs=$((failed_runs + 1))
  echo "stress: run $run/$runs FAILED in $((SECONDS - start)) s; its failures:"
  # lit -v prints each failing test's commands and output between these rules.
  sed -n "/^\*\{20\} TEST '.*' FAILED \*\{20\}/,/^\*\{20\}$/p" "$log"
  grep -o "^\*\{20\} TEST '[^']*' FAILED" "$log" | sed "s/.*TEST '\(.*\)' FAILED/\1/" >>"$failures"
  grep -q "TEST '.*' FAILED" "$log" || tail -n 30 "$log"
done

echo
if [[ $failed_runs -eq 0 ]]; then
  echo "stress: $runs runs, no failures"
  exit 0
fi
echo "stress: $runs runs, $failed_runs failed; failures per test:"
sort "$failures" | uniq -c | sort -rn
exit 1
