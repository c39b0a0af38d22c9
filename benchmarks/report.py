"""The Markdown report of make bench (run.py --report FILE): per benchmark,
its table of time per call and a plot of it by size and version; and the
per-device timeline of one region drawn from a HOMP_TRACE file. The plots
are drawn by plots.py with a Python that has matplotlib (Debian's
python3-matplotlib, which utils/setup.sh installs, may be only in
/usr/bin/python3 when python3 is another installation); without one the
report says so and has the tables only."""
import datetime
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def python_with_matplotlib():
    for python in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if python and os.path.exists(python) and subprocess.run(
                [python, "-c", "import matplotlib"],
                capture_output=True).returncode == 0:
            return python
    return None


def table(bench, rows, unit):
    modes = list(bench.modes)
    ratios = [f"{a}/{b}" for a, b in bench.ratios]
    lines = ["| n | " + " | ".join(bench.modes[m] for m in modes) +
             "".join(f" | {r}" for r in ratios) + " |",
             "|---:" * (1 + len(modes) + len(ratios)) + "|"]
    for n, _, best, _, _ in rows:
        cells = [unit(best[m]) if m in best else "-" for m in modes]
        cells += [f"{best[a] / best[b]:.3f}" for a, b in bench.ratios]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines


def write(path, results, trials, trace, trace_config, unit):
    """results: (bench, rows) per benchmark run (run.py's measure());
    trace: a HOMP_TRACE file of trace_config, or None; unit: how a time
    in seconds is written (run.py's unit())."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    jobs = {"sizes": []}
    for bench, rows in results:
        jobs["sizes"].append({
            "png": os.path.join(folder, f"{bench.name}.png"),
            "title": bench.title,
            "n": [row[0] for row in rows],
            "series": {bench.modes[m]: [row[2].get(m) for row in rows]
                       for m in bench.modes}})
    if trace:
        jobs["timeline"] = {"png": os.path.join(folder, "timeline.png"),
                            "trace": trace,
                            "title": f"{trace_config}: the last region"}
    python = python_with_matplotlib()
    plotted = False
    if python:
        job_file = os.path.join(folder, "plots.json")
        with open(job_file, "w") as f:
            json.dump(jobs, f)
        done = subprocess.run([python, os.path.join(HERE, "plots.py"),
                               job_file], capture_output=True, text=True)
        plotted = done.returncode == 0
        if not plotted:
            print(f"run.py: warning: plots.py failed:\n{done.stderr}",
                  file=sys.stderr)

    out = ["# homp benchmarks", "",
           f"{datetime.date.today()}, {platform.node()}, "
           f"{os.cpu_count()} logical CPUs. Time per call: the median over "
           f"{trials} runs per version of each run's median call.", ""]
    if not python:
        out += ["Plots are not drawn: no Python with matplotlib was found "
                "(Debian's python3-matplotlib; `utils/setup.sh` installs it).",
                ""]
    elif not plotted:
        out += ["Plots are not drawn: plots.py failed (see make bench's "
                "output).", ""]
    for bench, rows in results:
        out += [f"## {bench.name}: {bench.title}", ""] + table(bench, rows, unit)
        out.append("")
        if plotted:
            out += [f"![{bench.name}: time per call by size]"
                    f"({bench.name}.png)", ""]
    if trace:
        out += ["## Timeline of one region", "",
                f"`{trace_config}` run with `HOMP_TRACE={os.path.basename(trace)}`"
                " (open it in Perfetto or chrome://tracing). The plot shows "
                "the last call's region: a row per device, its copies, "
                "kernels and the time it waits for the other devices.", ""]
        if plotted:
            out += ["![timeline of one region](timeline.png)", ""]
    with open(path, "w") as f:
        f.write("\n".join(out))
