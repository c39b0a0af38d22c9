"""Reads HOMP_INFO (homp's own report, written by one thread) from stdin
with benchmarks/balance/run.py's parser, and prints what it took from each
execution: the schedule, the imbalance and how many devices ran."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "benchmarks", "balance"))
import run  # noqa: E402

for e in run.parse_info(sys.stdin.read()):
    ran = [d for d, (w, _) in e["devices"].items() if w not in ("-", "failed")]
    print(f"schedule '{e['schedule']}', imbalance {e['imbalance']:.2f}, "
          f"{len(ran)} of {len(e['devices'])} devices ran")
