#!/usr/bin/env python3
"""Compiles test programs for GPU architectures and checks their images.

For each program (with the -D flags of its first compile RUN line): one
compile for --offload-arch=sm_90,gfx90a,x86_64 and
one for gfx942 alone (hompcc takes one AMD architecture beside x86_64; the
Debian ROCm device libraries have no gfx942, so that compile uses
-nogpulib: the kernels of the tests call no device math). Each of the three
GPU images must hold the program's kernels: as many __omp_offloading_
entry points as the x86_64 image. Prints one line per program and fails if
any compile or check fails.

usage: gpu-images.py --hompcc PATH --llvm-tools DIR PROGRAM...
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

COMPILES = [
    (["--offload-arch=sm_90,gfx90a,x86_64"], ["sm_90", "gfx90a", "x86_64"]),
    (["--offload-arch=gfx942", "-nogpulib"], ["gfx942"]),
]


def kernels(tools, obj, arch, work):
    image = os.path.join(work, f"image.{arch}")
    kind = "triple=x86_64-pc-linux-gnu" if arch == "x86_64" else f"arch={arch}"
    subprocess.run([os.path.join(tools, "clang-offload-packager"), obj,
                    f"--image=file={image},{kind}"], check=True,
                   capture_output=True, text=True)
    nm = subprocess.run([os.path.join(tools, "llvm-nm"), "--defined-only",
                         image], check=True, capture_output=True, text=True)
    names = set()
    for line in nm.stdout.splitlines():
        m = re.search(r"(__omp_offloading_\S+_l\d+)$", line)
        if m:
            names.add(m.group(1))  # the kernel, or its offload entry's name
    return names


def test_flags(program):
    """The -D, -U and -std flags of the test's first compile RUN line."""
    with open(program, encoding="utf-8") as f:
        for line in f:
            m = re.search(r"RUN: %hompc(?:c|xx) (.*?) %s", line)
            if m:
                return [w for w in shlex.split(m.group(1))
                        if w.startswith(("-D", "-U", "-std="))]
    return []


def check(args, program):
    with tempfile.TemporaryDirectory() as work:
        found = {}
        for flags, archs in COMPILES:
            obj = os.path.join(work, "out.o")
            cmd = [args.hompcc, "-O2", "-c", *test_flags(program), *flags,
                   program, "-o", obj]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode != 0:
                return False, f"compile failed: {' '.join(cmd)}\n{out.stderr}"
            for arch in archs:
                found[arch] = kernels(args.llvm_tools, obj, arch, work)
    want = found["x86_64"]
    if not want:
        return False, "no kernels in the x86_64 image"
    missing = {a: sorted(want - k) for a, k in found.items() if want - k}
    if missing:
        return False, f"kernels missing: {missing}"
    return True, f"{len(want)} kernels in " + ", ".join(sorted(found))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hompcc", required=True)
    parser.add_argument("--llvm-tools", required=True)
    parser.add_argument("programs", nargs="+")
    args = parser.parse_args()
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda p: (p, check(args, p)), args.programs)
        for program, (ok, what) in results:
            print(f"{'ok' if ok else 'FAIL'} {os.path.basename(program)}: {what}")
            failed += not ok
    print(f"{len(args.programs) - failed} of {len(args.programs)} programs")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
