#!/usr/bin/env bash
# Changes one expectation of the first carried test of an unpacked GPU bundle
# (its first step also checks a line no program prints) and prints its name.
# Files are replaced, not changed in place, so a copy made with hard links
# (cp -al) leaves the original bundle intact.
set -euo pipefail
tests=$1/tests
for dir in "$tests"/*/; do
  name=$(basename "$dir")
  [[ -f $dir/steps ]] || continue
  # shellcheck disable=SC2016 # "$S" belongs to the step, not to this script
  sed -i '1s/FileCheck "\$S"/FileCheck "$S" --check-prefix=BROKEN/' "$dir/steps"
  grep -q 'BROKEN' "$dir/steps" || continue
  { cat "$dir/$name"; echo '// BROKEN: a line no test program prints'; } >"$dir/$name.new"
  mv "$dir/$name.new" "$dir/$name"
  echo "$name"
  exit 0
done
echo "break-bundle-test.sh: no test in $tests checks its first step with FileCheck" >&2
exit 1
