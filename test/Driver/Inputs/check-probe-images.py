"""Reads homp-info --json on stdin; for each probe kernel library it lists,
compares the architectures it names with those of the library's offload
images (llvm-objdump --offloading) and, for NVIDIA images, checks that
homp-cubin-abi relabelled them for LLVM 19's runtime.

usage: check-probe-images.py LIBDIR LLVM_TOOLS HOMP_CUBIN_ABI
"""
import json
import os
import re
import subprocess
import sys

libdir, tools, relabel = sys.argv[1:4]
for probe in json.load(sys.stdin)["machine_model"]["probe_kernels"]:
    path = os.path.join(libdir, probe["library"])
    dump = subprocess.run([os.path.join(tools, "llvm-objdump"), "--offloading", path],
                          capture_output=True, text=True, check=True).stdout
    images = []
    for block in dump.split("OFFLOADING IMAGE")[1:]:
        arch = re.search(r"^arch\s*(\S*)$", block, re.M).group(1)
        triple = re.search(r"^triple\s*(\S+)$", block, re.M).group(1)
        images.append(arch or triple.split("-")[0])  # x86_64 images name no arch
    listed = probe["archs"].split(",")
    state = "same" if sorted(images) == sorted(listed) else f"DIFFERENT: images {sorted(images)}"
    print(f"{probe['type']} {probe['library']}: {state}")
    if probe["type"] == "NVGPU":
        headers = subprocess.run([relabel, "--list", path], capture_output=True,
                                 text=True, check=True).stdout
        new_abi = headers.count("ABI version 8")
        print(f"NVGPU cubins in the new ABI: {new_abi} of {len(listed)}")
