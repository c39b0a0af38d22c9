#!/usr/bin/env python3
"""Kernels over the ranks of an MPI job: homp against hand-written MPI +
OpenMP offload (benchmarks/mpi/mpi.c), at 1, 2 and 4 ranks.

On one machine the ranks share its 4 CPU offload devices: R ranks get 4/R
devices each, so every row of the table uses the same hardware and the
ratio homp / hand-written measures what homp's rank level costs (its
split, its one all-gather per kernel against the hand-written
MPI_Allgatherv and MPI_Allreduce). Strong scaling keeps N; weak scaling
multiplies it by the ranks. The versions run interleaved, each process
repeated --trials times; each cell is the median over the trials of the
per-call medians.

usage: run.py --build BUILD [--trials 5] [--out DIR]
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys

KERNELS = {"axpy": 2_000_000, "jacobi": 1024, "region": 1024}
REPS = {"axpy": 20, "jacobi": 20, "region": 5}


def run(binary, kernel, mode, ranks, n, reps):
    env = dict(os.environ, HOMP_PROFILES="off",
               BENCH_DEVICES=str(4 // ranks),
               HOMP_DEVICES=",".join(str(d) for d in range(4 // ranks)),
               OMPI_MCA_btl_vader_single_copy_mechanism="none",
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-n", str(ranks),
           binary, kernel, mode, str(n), str(reps)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                         env=env)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr[-3000:]}")
    fields = out.stdout.split()
    return float(fields[2]), float(fields[4])


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--trials", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    binary = os.path.join(args.build, "benchmarks", "mpi")
    rows = []
    for kernel, base in KERNELS.items():
        for scaling in ("strong", "weak"):
            for ranks in (1, 2, 4):
                n = base * (ranks if scaling == "weak" else 1)
                times = {"mpi": [], "homp": []}
                sums = {}
                for _ in range(args.trials):
                    for mode in times:
                        t, s = run(binary, kernel, mode, ranks, n,
                                   REPS[kernel])
                        times[mode].append(t)
                        sums[mode] = s
                if abs(sums["homp"] - sums["mpi"]) > 1e-9 * abs(sums["mpi"]):
                    sys.exit(f"{kernel} {ranks} ranks: checksums differ: "
                             f"{sums}")
                mpi = statistics.median(times["mpi"])
                homp = statistics.median(times["homp"])
                rows.append((kernel, scaling, ranks, 4 // ranks, n, mpi, homp,
                             homp / mpi))
    print(f"Kernels over ranks (median of {args.trials} runs of "
          f"{REPS['axpy']} calls each)")
    print(f"{'kernel':8} {'scaling':8} {'ranks':>5} {'dev/rank':>8} "
          f"{'N':>9} {'hand-written':>13} {'homp':>10} {'ratio':>6}")
    for k, s, r, d, n, mpi, homp, ratio in rows:
        print(f"{k:8} {s:8} {r:5} {d:8} {n:9} {mpi * 1e3:10.3f} ms "
              f"{homp * 1e3:7.3f} ms {ratio:6.2f}")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "mpi.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["kernel", "scaling", "ranks", "devices_per_rank", "n",
                        "handwritten_s", "homp_s", "ratio"])
            w.writerows(rows)


if __name__ == "__main__":
    main()
