#!/usr/bin/env bash
# Runs every test of a homp build: the GoogleTest binaries and the lit suite.
# Ends with one summary line: "N passed, N failed".
set -uo pipefail
build=${1:-build}
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
passed=0
failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for test in "$build"/unittests/*; do
  [[ -x $test ]] || continue
  echo "== $(basename "$test")"
  "$test" --gtest_brief=1 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log")
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*listed below.*/\1/p' "$log")
  if [[ $status -ne 0 && -z $f ]]; then f=1; fi
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
done

echo "== lit"
python3 "$lit" -sv --time-tests "$build/test" 2>&1 | tee "$log"
p=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log")
x=$(sed -n 's/^ *Expectedly Failed *: *\([0-9]*\).*/\1/p' "$log")
f=$(sed -n 's/^ *\(Failed\|Unresolved\|Timed Out\|Unexpectedly Passed\) *: *\([0-9]*\).*/\2/p' "$log" | awk '{ s += $1 } END { print s + 0 }')
u=$(sed -n 's/^ *Unsupported *: *\([0-9]*\).*/\1/p' "$log")
passed=$((passed + ${p:-0} + ${x:-0}))
failed=$((failed + ${f:-0}))
if ! grep -q 'Passed' "$log" && [[ ${f:-0} -eq 0 ]]; then failed=$((failed + 1)); fi

echo
echo "$passed passed, $failed failed${u:+ ($u unsupported)}"
[[ $failed -eq 0 ]]
