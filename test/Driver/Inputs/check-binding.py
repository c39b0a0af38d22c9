"""Reads homp-info --json on stdin and checks each device's proxy CPUs in a
construct over every device against the process's CPUs: the d-th of the 5
devices on the host's cores (4 CPU offload devices, then the host) gets
len(cpus) // 5 of them (at least one) from position d times that, wrapping
around; the host is not bound. With 'off' as argument: none is bound."""
import json
import os
import sys

got = json.load(sys.stdin)["proxy_cpus"]
cpus = sorted(os.sched_getaffinity(0))
names = ["0", "1", "2", "3", "host"]
want = {n: None for n in names}
if len(sys.argv) < 2 and len(cpus) >= 2:
    each = max(1, len(cpus) // len(names))
    for d, n in enumerate(names[:-1]):
        want[n] = [cpus[(d * each + i) % len(cpus)] for i in range(each)]
print("binding ok" if got == want else f"binding {got} expected {want}")
