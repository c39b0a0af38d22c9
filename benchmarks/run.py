#!/usr/bin/env python3
"""Runs homp's benchmarks and prints a table and CSV.

Each version of a kernel runs in its own process (libomp's state must not
carry over from the hand-written version to homp's, see DESIGN.md), several
times. A process times every call and reports its median time per call (a
typical call, without the calls the operating system delayed). The table
shows, per version, the median of those over the runs: on a small, shared
machine single runs vary by tens of percent in either direction, and the
median of several is what a version costs. The CSV also has the best run
and the mean time per call. Every version's checksum must agree with the
sequential one.

usage: run.py [--build DIR] [--trials K] [--sizes N,...] [--csv FILE]
"""
import argparse
import os
import statistics
import subprocess
import sys

MODES = ["seq", "single", "mdev", "homp"]
TITLES = {"seq": "sequential", "single": "1 device", "mdev": "hand-written",
          "homp": "homp"}


def repetitions(n):
    """Enough calls for about a third of a second of work per process."""
    return max(10, min(5000, int(3e6 / max(n, 1))))


def run(binary, mode, n, reps, env):
    out = subprocess.run([binary, mode, str(n), str(reps)], env=env,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit(f"{binary} {mode} {n} failed:\n{out.stderr}")
    fields = out.stdout.split()
    return float(fields[2]), float(fields[3]), float(fields[4])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--sizes", default="1000,100000,10000000")
    parser.add_argument("--csv")
    args = parser.parse_args()

    binary = os.path.join(args.build, "benchmarks", "axpy")
    env = dict(os.environ)
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    for n in sizes:
        reps = repetitions(n)
        medians, means, sums = {}, {}, {}
        for trial in range(args.trials):
            # Interleave the versions so drifts in machine load hit all.
            for mode in MODES:
                median, mean, checksum = run(binary, mode, n, reps, env)
                medians.setdefault(mode, []).append(median)
                means.setdefault(mode, []).append(mean)
                sums.setdefault(mode, checksum)
        for mode in MODES:
            if abs(sums[mode] - sums["seq"]) > 1e-9 * max(1.0, abs(sums["seq"])):
                sys.exit(f"axpy {mode} n={n}: checksum {sums[mode]} differs "
                         f"from sequential {sums['seq']}")
        rows.append((n, reps,
                     {m: statistics.median(medians[m]) for m in MODES},
                     {m: min(medians[m]) for m in MODES},
                     {m: statistics.median(means[m]) for m in MODES}))

    print(f"AXPY, time per call (median of {args.trials} runs per version, "
          f"each the median of its calls)")
    head = f"{'n':>10} " + " ".join(f"{TITLES[m]:>14}" for m in MODES)
    head += f" {'homp/hand':>10} {'homp-hand':>11}"
    print(head)
    for n, reps, best, fastest, means in rows:
        line = f"{n:>10} " + " ".join(f"{best[m] * 1e6:>11.1f} us" for m in MODES)
        ratio = best["homp"] / best["mdev"]
        delta = (best["homp"] - best["mdev"]) * 1e6
        line += f" {ratio:>10.3f} {delta:>+8.1f} us"
        print(line)
    csv = ["n,calls_per_run," + ",".join(f"{m}_s" for m in MODES) + "," +
           ",".join(f"{m}_best_s" for m in MODES) + "," +
           ",".join(f"{m}_mean_s" for m in MODES) + ",homp_over_handwritten"]
    for n, reps, best, fastest, means in rows:
        csv.append(f"{n},{reps}," + ",".join(f"{best[m]:.9f}" for m in MODES) +
                   "," + ",".join(f"{fastest[m]:.9f}" for m in MODES) +
                   "," + ",".join(f"{means[m]:.9f}" for m in MODES) +
                   f",{best['homp'] / best['mdev']:.4f}")
    print()
    print("\n".join(csv))
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("\n".join(csv) + "\n")


if __name__ == "__main__":
    main()
