#!/usr/bin/env bash
# make check-asan / make check-tsan: builds libhomp, homp-core and their unit
# tests instrumented into a build folder of their own, then runs the unit
# tests and the Runtime lit tests against them. The clang plugin and the pass
# come from an uninstrumented build (make check-asan builds build/ first).
#   utils/sanitizers/check.sh address build-asan build   # ASan, LSan, UBSan
#   utils/sanitizers/check.sh thread build-tsan build    # TSan, libomp's Archer
# Reports go to files, so a report fails the check even in a test whose
# program is expected to fail. Ends with one summary line.
set -uo pipefail
kind=${1:?address or thread}
build=${2:?build folder}
plugins=$(cd "${3:?the build folder with the clang plugin}" && pwd)/lib
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
lit=/usr/lib/llvm-19/build/utils/lit/lit.py
llvm_lib=/usr/lib/llvm-19/lib

start=$SECONDS
if [[ ! -f $build/build.ninja ]]; then
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang-19 \
    -DCMAKE_CXX_COMPILER=clang++-19 -DHOMP_SANITIZER="$kind" \
    -DHOMP_BUILD_BENCHMARKS=OFF -DHOMP_PLUGINS_FROM="$plugins" || exit 1
fi
cmake --build "$build" || exit 1
build_s=$((SECONDS - start))

build=$(cd "$build" && pwd)
reports=$build/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
case $kind in
  address)
    export ASAN_OPTIONS="log_path=$reports/asan:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1"
    export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="log_path=$reports/ubsan:print_stacktrace=1:halt_on_error=1" ;;
  thread)
    # ignore_noninstrumented_modules: see tsan.supp.
    export TSAN_OPTIONS="log_path=$reports/tsan:suppressions=$here/tsan.supp:print_suppressions=0:second_deadlock_stack=1:ignore_noninstrumented_modules=1"
    # lit sets it for the lit tests (test/lit.cfg.py); the unit tests need it too.
    export OMP_TOOL_LIBRARIES=$llvm_lib/libarcher.so ;;
  *) echo "check.sh: error: unknown sanitizer '$kind'" >&2; exit 1 ;;
esac

failed=0
for test in "$build"/unittests/*; do
  [[ -x $test ]] || continue
  echo "== $(basename "$test")"
  "$test" --gtest_brief=1 || failed=$((failed + 1))
done
echo "== lit Runtime"
python3 "$lit" -sv "$build/test/Runtime" || failed=$((failed + 1))
tests_s=$((SECONDS - start - build_s))

shopt -s nullglob
found=("$reports"/*)
for report in "${found[@]}"; do
  echo "== sanitizer report $report"
  cat "$report"
done
echo
echo "check ($kind sanitizer): $failed failed test groups, ${#found[@]} reports;" \
  "build ${build_s} s, tests ${tests_s} s"
[[ $failed -eq 0 && ${#found[@]} -eq 0 ]]
