#!/usr/bin/env python3
"""Transparency check: a program compiled with the homp plugin and pass must
give exactly the IR plain clang gives, for the host and for every offload
device, at -O0 and -O2.

usage: compare-ir.py --clang CLANG --plugin homp.so --pass homp-pass.so
                     [--llvm-lib DIR] [--rocm DIR] [--gpu] SOURCE [-- EXTRA...]
"""
import argparse
import difflib
import subprocess
import sys

X86 = "x86_64-pc-linux-gnu"
NVPTX = "nvptx64-nvidia-cuda"
AMDGCN = "amdgcn-amd-amdhsa"


def configurations(gpu):
    """(name, flags, opt-levels) of every compilation to compare."""
    yield "host", [f"-fopenmp-targets={X86}", "--offload-host-only"], ["-O0", "-O2"]
    yield X86, [f"-fopenmp-targets={X86}", "--offload-device-only"], ["-O0", "-O2"]
    if gpu:
        yield NVPTX, ["--offload-arch=sm_80", "--offload-device-only"], ["-O2"]
        yield AMDGCN, ["--offload-arch=gfx90a", "--offload-device-only"], ["-O2"]


def compile_ir(args, flags, homp):
    cmd = [args.clang, "-fopenmp", "-S", "-emit-llvm", "-o", "-", *flags]
    if args.llvm_lib:
        cmd += [f"--libomptarget-nvptx-bc-path={args.llvm_lib}",
                f"--libomptarget-amdgpu-bc-path={args.llvm_lib}",
                "-Wno-unused-command-line-argument"]
    if args.rocm:
        cmd += [f"--rocm-device-lib-path={args.rocm}"]
    if homp:
        cmd += [f"-fplugin={args.plugin}", f"-fpass-plugin={args.pass_}"]
    cmd += [*args.extra, args.source]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"compilation failed: {' '.join(cmd)}\n{result.stderr}")
    return result.stdout, result.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clang", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--pass", dest="pass_", required=True)
    parser.add_argument("--llvm-lib")
    parser.add_argument("--rocm")
    parser.add_argument("--gpu", action="store_true")
    parser.add_argument("source")
    parser.add_argument("extra", nargs="*")
    args = parser.parse_args()

    compared = 0
    for name, flags, levels in configurations(args.gpu):
        for level in levels:
            plain, plain_err = compile_ir(args, [*flags, level], homp=False)
            homp, homp_err = compile_ir(args, [*flags, level], homp=True)
            what = f"{name} {level}"
            if plain != homp:
                diff = difflib.unified_diff(plain.splitlines(), homp.splitlines(),
                                            "clang", "clang+homp", lineterm="", n=2)
                print(f"IR differs for {what}:")
                print("\n".join(list(diff)[:60]))
                return 1
            if plain_err != homp_err:
                print(f"diagnostics differ for {what}:\n--- clang\n{plain_err}"
                      f"--- clang+homp\n{homp_err}")
                return 1
            if not plain.strip():
                print(f"no IR produced for {what}")
                return 1
            compared += 1
    print(f"identical IR and diagnostics in {compared} compilations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
