#!/usr/bin/env python3
"""Draws the PNG plots of the benchmark report (benchmarks/report.py).

usage: plots.py JOBS.json
JOBS.json: {"sizes": [{"png", "title", "n": [...], "series": {label: [s or
null per n]}}], "timeline": {"png", "title", "trace"}}; either may be
missing. Needs matplotlib; report.py runs this with a Python that has it.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the back end is chosen)
from matplotlib.patches import Patch  # noqa: E402


def sizes_plot(job):
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for label, times in job["series"].items():
        points = [(n, t) for n, t in zip(job["n"], times) if t is not None]
        if points:
            ax.plot(*zip(*points), marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("n")
    ax.set_ylabel("time per call (s)")
    ax.set_title(job["title"], fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(job["png"], dpi=110)
    plt.close(fig)


def last_region(events):
    """The spans of the last region the trace shows ended: every device of a
    region waits for its end, so its "wait" spans end at the same time; the
    region's spans are those that began after the previous region ended."""
    ends = sorted({e["ts"] + e["dur"] for e in events
                   if e["cat"] == "wait" and "region's end" in e["name"]})
    if not ends:
        return events
    end = ends[-1]
    begin = ends[-2] if len(ends) > 1 else float("-inf")
    return [e for e in events if e["ts"] >= begin and e["ts"] + e["dur"] <= end]


def timeline_plot(job):
    events = json.load(open(job["trace"]))
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    spans = last_region([e for e in events if e["ph"] == "X"])
    if not spans:
        return
    t0 = min(e["ts"] for e in spans)
    tracks = sorted({e["tid"] for e in spans})
    colours = {"copy": "tab:blue", "kernel": "tab:green", "halo": "tab:orange",
               "data": "tab:purple", "wait": "lightgrey"}
    fig, ax = plt.subplots(figsize=(8, 0.6 * len(tracks) + 1.4))
    for row, tid in enumerate(tracks):
        for e in spans:
            if e["tid"] == tid:
                ax.broken_barh([((e["ts"] - t0) / 1e3, max(e["dur"], 1) / 1e3)],
                               (row - 0.4, 0.8),
                               color=colours.get(e["cat"], "tab:red"))
    ax.set_yticks(range(len(tracks)))
    ax.set_yticklabels([names.get(t, str(t)) for t in tracks], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ms from the region's first event")
    ax.set_title(job["title"], fontsize=10)
    ax.legend(handles=[Patch(color=c, label=k)
                       for k, c in colours.items()
                       if any(e["cat"] == k for e in spans)],
              fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(job["png"], dpi=110)
    plt.close(fig)


def main():
    jobs = json.load(open(sys.argv[1]))
    for job in jobs.get("sizes", []):
        sizes_plot(job)
    if jobs.get("timeline"):
        timeline_plot(jobs["timeline"])


if __name__ == "__main__":
    main()
