#!/usr/bin/env bash
# Installs what homp needs from Debian's archive, only what is missing.
# Idempotent and silent when everything is present.
set -euo pipefail

packages=(
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools libomp-19-dev lld-19
  libclang-rt-19-dev rocm-device-libs libgtest-dev cmake ninja-build python3
  zstd patchelf  # make gpu-bundle
  python3-matplotlib  # make bench's plots
  openmpi-bin libopenmpi-dev  # programs over several ranks (Runtime/mpi)
)

missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "homp setup: installing ${missing[*]}"
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || {
    echo "homp setup: error: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get update -qq >/tmp/homp-apt-update.log 2>&1; then
  echo "homp setup: error: apt-get update failed (see /tmp/homp-apt-update.log)" >&2
  exit 1
fi
for pkg in "${missing[@]}"; do
  if ! apt-cache show "$pkg" >/dev/null 2>&1; then
    echo "homp setup: error: package '$pkg' is not available from the configured" \
         "apt sources (homp needs Debian 12 or later with LLVM 19)" >&2
    exit 1
  fi
done
if ! "${sudo[@]}" apt-get install -y -qq "${missing[@]}" \
    >/tmp/homp-apt-install.log 2>&1; then
  echo "homp setup: error: apt-get install failed (see /tmp/homp-apt-install.log)" >&2
  tail -n 20 /tmp/homp-apt-install.log >&2
  exit 1
fi
echo "homp setup: done"
