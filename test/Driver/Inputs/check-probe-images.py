"""Reads homp-info --json on stdin. For every set of the kinds of device the
probe kernel was built for, the library calibration would load for it
(libhomp-probe-KIND[+KIND...].so, the kinds in homp-info's order, as
ProbeLibrary.h names it) must be in LIBDIR with offload images for exactly
those kinds' architectures (llvm-objdump --offloading), its cubins relabelled
for LLVM 19's runtime (homp-cubin-abi --list: the old ABI, one per sm_).

usage: check-probe-images.py LIBDIR LLVM_TOOLS HOMP_CUBIN_ABI
"""
import itertools
import json
import os
import re
import subprocess
import sys

libdir, tools, relabel = sys.argv[1:4]
probe = json.load(sys.stdin)["machine_model"]["probe"]
kinds = probe["kinds"]
print("kinds:", " ".join(f"{k['name']}={','.join(k['archs'])}" for k in kinds))
for count in range(1, len(kinds) + 1):
    for chosen in itertools.combinations(kinds, count):
        name = "libhomp-probe-" + "+".join(k["name"] for k in chosen) + ".so"
        path = os.path.join(libdir, name)
        if not os.path.exists(path):
            print(f"{name}: MISSING")
            continue
        dump = subprocess.run([os.path.join(tools, "llvm-objdump"), "--offloading", path],
                              capture_output=True, text=True, check=True).stdout
        images = []
        for block in dump.split("OFFLOADING IMAGE")[1:]:
            arch = re.search(r"^arch[ \t]*(\S*)[ \t]*$", block, re.M).group(1)
            triple = re.search(r"^triple[ \t]*(\S+)[ \t]*$", block, re.M).group(1)
            images.append(arch or triple.split("-")[0])  # x86_64 images name no arch
        listed = [a for k in chosen for a in k["archs"]]
        state = "same" if sorted(images) == sorted(listed) else f"DIFFERENT: images {sorted(images)}"
        print(f"{name}: {state}")
        cubins = [a for a in listed if a.startswith("sm_")]
        if cubins:
            headers = subprocess.run([relabel, "--list", path], capture_output=True,
                                     text=True, check=True).stdout.splitlines()
            old = sorted(re.search(r"(sm_\d+)$", h).group(1) for h in headers
                         if "OS/ABI 0x33, ABI version 7" in h)
            print(f"{name}: cubins " + ("relabelled" if old == sorted(cubins) and
                                        len(headers) == len(cubins)
                                        else f"NOT ALL RELABELLED: {headers}"))
