#!/usr/bin/env python3
"""Reads homp-info --json and prints, per device, how its memory and
compute units compare with the host's, as Linux reports them:
    device memory=MemTotal|WRONG free<=memory|WRONG units=affinity|WRONG"""
import json
import os
import sys

total = None
for line in open("/proc/meminfo"):
    key, value = line.split(":", 1)
    if key == "MemTotal":
        total = int(value.split()[0]) * 1024
cpus = len(os.sched_getaffinity(0))

for d in json.load(sys.stdin)["devices"]:
    memory = "MemTotal" if d["memory_bytes"] == total else f"WRONG({d['memory_bytes']})"
    free = d["memory_free_bytes"]
    free = "free<=memory" if free is not None and 0 <= free <= total else f"WRONG({free})"
    units = "affinity" if d["compute_units"] == cpus else f"WRONG({d['compute_units']})"
    print(f"device memory={memory} {free} units={units}")
