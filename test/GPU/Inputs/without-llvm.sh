#!/usr/bin/env bash
# Runs a command in a mount namespace where LLVM's and homp's libraries are
# hidden: /usr/lib/llvm-19, homp's build lib/ (argument 1), and every system
# copy of a library the bundle (argument 2) carries, except those bash itself
# needs. A bundled program that loaded any of them from outside would fail.
#   without-llvm.sh HOMP_LIB BUNDLE COMMAND...
set -euo pipefail
if [[ ${HOMP_HIDDEN:-} != yes ]]; then
  exec env HOMP_HIDDEN=yes unshare --mount "$0" "$@"
fi
homp_lib=$1 bundle=$2
shift 2
empty=$(mktemp -d)
trap 'rmdir "$empty"' EXIT
mount --bind "$empty" /usr/lib/llvm-19
mount --bind "$empty" "$homp_lib"
bash_needs=$(ldd "$BASH")
for lib in "$bundle"/lib/*; do
  name=$(basename "$lib")
  [[ $bash_needs == *"$name"* ]] && continue
  for copy in /usr/lib/x86_64-linux-gnu/"$name"* /lib/x86_64-linux-gnu/"$name"*; do
    [[ -f $copy ]] && mount --bind /dev/null "$copy"
  done
done
unset HOMP_HIDDEN
"$@"
