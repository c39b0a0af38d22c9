#!/usr/bin/env python3
"""Runs homp's benchmarks and prints a table and CSV per benchmark.

Each version of a kernel runs in its own process (libomp's state must not
carry over from the hand-written version to homp's, see DESIGN.md), several
times. A process times every call and reports its median time per call (a
typical call, without the calls the operating system delayed). The table
shows, per version, the median of those over the runs: on a small, shared
machine single runs vary by tens of percent in either direction, and the
median of several is what a version costs. The CSV also has the best run
and the mean time per call. Every version's checksum must agree with the
reference version's. With --report, it also writes a Markdown report with
plots (report.py), including the per-device timeline of one traced run.

usage: run.py [--build DIR] [--trials K] [--only NAME,...] [--csv-dir DIR]
              [--report FILE] [--trace-run "NAME MODE N"]
"""
import argparse
import os
import statistics
import subprocess
import sys

import report as markdown


class Benchmark:
    def __init__(self, name, title, modes, sizes, reps, ratios, reference,
                 skip=(), zero_checksums=(), binary=None):
        self.name = name
        self.binary = binary or name  # the program under build/benchmarks
        self.title = title
        self.modes = modes  # mode -> column title
        self.sizes = sizes
        self.reps = reps  # n -> calls per process
        self.ratios = ratios  # (numerator, denominator) modes
        self.reference = reference  # the mode checksums are checked against
        self.skip = set(skip)  # (mode, n) not run: too slow
        # modes that time a part of the kernel and compute no result
        self.zero_checksums = set(zero_checksums)


def contraction(kind, dims):
    return Benchmark(f"contract-{kind}",
                     f"Intrepid's contractFieldField{kind.capitalize()}, "
                     f"{dims}-D left and right (cells x 8 fields x 8 points"
                     + (" x 3" * (dims - 3)) + "), out cells x 8 x 8",
                     {f"{kind}:seq": "sequential",
                      f"{kind}:mdev": "hand-written",
                      f"{kind}:homp": "homp"},
                     [4096, 65536],
                     lambda n: 20 if n <= 4096 else 5,
                     [(f"{kind}:homp", f"{kind}:mdev")], f"{kind}:seq",
                     binary="contract")


BENCHMARKS = [
    Benchmark("axpy", "AXPY, y += a * x",
              {"seq": "sequential", "single": "1 device",
               "mdev": "hand-written", "homp": "homp"},
              [1000, 100000, 10000000],
              lambda n: max(10, min(5000, int(3e6 / n))),
              [("homp", "mdev")], "seq"),
    Benchmark("dataaxpy",
              "100 AXPY kernels on x and y resident on the devices",
              {"mdev": "hand-written", "homp": "homp"},
              [100000, 1000000, 10000000],
              lambda n: max(3, min(200, int(3e7 / n))),
              [("homp", "mdev")], "mdev"),
    Benchmark("matmul", "matrix multiplication C = A x B (n x n)",
              {"seq": "sequential", "mdev": "hand-written rows",
               "rows": "homp rows", "cols": "homp columns",
               "blocks": "homp blocks"},
              [512, 2048],
              lambda n: 5 if n <= 512 else 1,
              [("rows", "mdev"), ("cols", "rows"), ("blocks", "rows")],
              "mdev", skip=[("seq", 2048)]),
    Benchmark("jacobi",
              "Jacobi, PMAM'15 Figure 2, 100 iterations on n x 1026 "
              "(per call; per iteration is 1/100)",
              {"seq": "sequential", "mdev": "hand-written", "homp": "homp",
               "blocks": "homp 2-D blocks",
               "mdev-copy": "hand copy", "homp-copy": "homp copy",
               "mdev-halo": "hand halo", "homp-halo": "homp halo",
               "direct-halo": "memcpy halo",
               "mdev-compute": "hand compute",
               "homp-compute": "homp compute"},
              [514, 2050],
              lambda n: 3 if n <= 514 else 1,
              [("homp", "mdev"), ("blocks", "homp"),
               ("homp-halo", "mdev-halo"),
               ("homp-halo", "direct-halo"),
               ("homp-compute", "mdev-compute")],
              "seq", zero_checksums=("mdev-copy", "homp-copy", "mdev-halo",
                                     "homp-halo", "direct-halo",
                                     "mdev-compute", "homp-compute")),
    contraction("scalar", 3), contraction("vector", 4),
    contraction("tensor", 5),
    Benchmark("nbody",
              "STEPOCL's all-pairs N-body, 10 steps per call, positions "
              "resident with halo(*) (homp) or relayed through the host "
              "(hand-written)",
              {"seq": "sequential", "mdev": "hand-written relay",
               "homp": "homp"},
              [1024, 4096],
              lambda n: 10 if n <= 1024 else 2,
              [("homp", "mdev")], "seq"),
    Benchmark("npbmz",
              "NPB-MZ miniature: BT-MZ's N x N zones of sizes 20x apart, "
              "5 steps of boundary exchange and 4 sweeps per zone, against "
              "the hybrid paper's memorizing dynamic zone queue",
              {"seq": "sequential", "mdev": "hand-written zone queue",
               "homp": "homp resident BLOCK",
               "memo": "homp memorizing SCHED_DYNAMIC",
               "auto": "homp AUTO over resident data",
               "dynamic": "homp SCHED_DYNAMIC",
               "profile": "homp SCHED_PROFILE_AUTO"},
              [4, 8],
              lambda n: 5 if n <= 4 else 3,
              [("homp", "mdev"), ("memo", "mdev"), ("auto", "mdev"),
               ("dynamic", "mdev"), ("profile", "mdev")],
              "seq"),
]


def run(binary, mode, n, reps):
    # Each process learns anew (AUTO's default profiles file would carry
    # what one run learned into the next).
    env = dict(os.environ, HOMP_PROFILES="off")
    out = subprocess.run([binary, mode, str(n), str(reps)],
                         capture_output=True, text=True, timeout=1800,
                         env=env)
    if out.returncode != 0:
        sys.exit(f"{binary} {mode} {n} failed:\n{out.stderr}")
    fields = out.stdout.split()
    return float(fields[2]), float(fields[3]), float(fields[4])


def unit(seconds):
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def measure(bench, build, trials):
    binary = os.path.join(build, "benchmarks", bench.binary)
    rows = []
    for n in bench.sizes:
        reps = bench.reps(n)
        modes = [m for m in bench.modes if (m, n) not in bench.skip]
        medians, means, sums = {}, {}, {}
        for _ in range(trials):
            # Interleave the versions so drifts in machine load hit all.
            for mode in modes:
                median, mean, checksum = run(binary, mode, n, reps)
                medians.setdefault(mode, []).append(median)
                means.setdefault(mode, []).append(mean)
                sums.setdefault(mode, checksum)
        ref = sums[bench.reference]
        for mode in modes:
            want = 0.0 if mode in bench.zero_checksums else ref
            if abs(sums[mode] - want) > 1e-9 * max(1.0, abs(want)):
                sys.exit(f"{bench.name} {mode} n={n}: checksum {sums[mode]} "
                         f"differs from {bench.reference}'s {want}")
        rows.append((n, reps,
                     {m: statistics.median(medians[m]) for m in modes},
                     {m: min(medians[m]) for m in modes},
                     {m: statistics.median(means[m]) for m in modes}))
    return rows


def report(bench, rows, trials, csv_dir):
    print(f"{bench.title}: time per call (median of {trials} runs per "
          f"version, each the median of its calls)")
    width = max(14, max(len(t) for t in bench.modes.values()) + 1)
    names = [f"{a}/{b}" for a, b in bench.ratios]
    print(f"{'n':>10} " + " ".join(f"{t:>{width}}" for t in
                                     bench.modes.values()) +
          "".join(f" {r:>12}" for r in names))
    for n, _, best, _, _ in rows:
        line = f"{n:>10} " + " ".join(
            f"{unit(best[m]) if m in best else '-':>{width}}"
            for m in bench.modes)
        line += "".join(f" {best[a] / best[b]:>12.3f}"
                        for a, b in bench.ratios)
        print(line)
    print()
    csv = ["n,calls_per_run," +
           ",".join(f"{m}_s,{m}_best_s,{m}_mean_s" for m in bench.modes) +
           "," + ",".join(f"{a}_over_{b}" for a, b in bench.ratios)]
    for n, reps, best, fastest, means in rows:
        cells = []
        for m in bench.modes:
            if m in best:
                cells += [f"{best[m]:.9f}", f"{fastest[m]:.9f}",
                          f"{means[m]:.9f}"]
            else:
                cells += ["", "", ""]
        cells += [f"{best[a] / best[b]:.4f}" for a, b in bench.ratios]
        csv.append(f"{n},{reps}," + ",".join(cells))
    if csv_dir:
        os.makedirs(csv_dir, exist_ok=True)
        with open(os.path.join(csv_dir, f"{bench.name}.csv"), "w") as f:
            f.write("\n".join(csv) + "\n")
    return csv


def traced_run(build, config, folder):
    """Runs one benchmark configuration (one timed call) with HOMP_TRACE and
    returns the trace's path."""
    name, mode, n = config.split()
    trace = os.path.join(folder, "trace.json")
    env = dict(os.environ, HOMP_TRACE=trace)
    out = subprocess.run([os.path.join(build, "benchmarks", name), mode, n,
                          "1"], capture_output=True, text=True, env=env,
                         timeout=600)
    if out.returncode != 0:
        sys.exit(f"{config} with HOMP_TRACE failed:\n{out.stderr}")
    return trace


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default="build")
    parser.add_argument("--trials", type=int, default=7)
    parser.add_argument("--only", help="comma-separated benchmark names")
    parser.add_argument("--csv-dir", help="write NAME.csv files there")
    parser.add_argument("--report", help="write a Markdown report there")
    parser.add_argument("--trace-run", default="axpy homp 1000000",
                        help="the configuration the report's timeline shows")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    known = {b.name for b in BENCHMARKS}
    if only and not only <= known:
        sys.exit(f"unknown benchmark(s) {sorted(only - known)}; "
                 f"known: {sorted(known)}")
    results = []
    for bench in BENCHMARKS:
        if only and bench.name not in only:
            continue
        rows = measure(bench, args.build, args.trials)
        csv = report(bench, rows, args.trials, args.csv_dir)
        print("\n".join(csv))
        print()
        results.append((bench, rows))
    if args.report:
        folder = os.path.dirname(os.path.abspath(args.report))
        os.makedirs(folder, exist_ok=True)
        trace = traced_run(args.build, args.trace_run, folder)
        markdown.write(args.report, results, args.trials, trace,
                       args.trace_run, unit)
        print(f"report: {args.report}")


if __name__ == "__main__":
    main()
