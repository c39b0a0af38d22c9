#!/usr/bin/env python3
"""Reads a HOMP_TRACE file (it must be valid JSON) and prints, per track in
name order, how many events of each category it has and their bytes and
iterations; one line per track and category:
    TRACK CATEGORY events=N bytes=B iterations=I
Spans must have a start and a non-negative duration.
With --waits, it prints instead, for each group of "wait" spans of one name
that end together (one collective wait), in the order they end:
    wait NAME: tracks=N together=yes|no alone=yes|no
together: every span of the group ends at the same time; alone: no other
span of its track overlaps it (a device that waits does nothing else).
With --total, one line per category, summed over every track:
    all CATEGORY events=N bytes=B iterations=I
With --at-most CATEGORY N, whether every span of the category has at most
N iterations:
    CATEGORY spans of at most N iterations: yes|no (largest L)
With --emulate, per track with "emulate" spans (HOMP_EMULATE's holds),
whether each held the device at least (factor - 1) times its part's time:
    TRACK emulate events=N factor=F held=yes|no"""
import collections
import json
import sys

# The trace has microseconds with three decimals: an end, a start plus a
# duration, is exact to within two rounding steps.
EPSILON = 0.002

waits = sys.argv[1] == "--waits"
if sys.argv[1] == "--at-most":
    category, most = sys.argv[2], int(sys.argv[3])
    largest = max((e["args"].get("iterations", 0)
                   for e in json.load(open(sys.argv[-1]))
                   if e["ph"] == "X" and e["cat"] == category), default=0)
    print(f"{category} spans of at most {most} iterations: "
          f"{'yes' if largest <= most else 'no'} (largest {largest})")
    sys.exit(0)
if sys.argv[1] == "--emulate":
    events = json.load(open(sys.argv[-1]))
    names = {e["tid"]: e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    holds = collections.defaultdict(list)
    for e in events:
        if e["ph"] == "X" and e["cat"] == "emulate":
            holds[names[e["tid"]]].append(e)
    for track, spans in sorted(holds.items()):
        factors = {float(e["args"]["factor"]) for e in spans}
        held = all(e["dur"] + EPSILON >=
                   (float(e["args"]["factor"]) - 1) * e["args"]["part_us"]
                   for e in spans)
        print(f"{track} emulate events={len(spans)} "
              f"factor={'/'.join(f'{f:g}' for f in sorted(factors))} "
              f"held={'yes' if held else 'no'}")
    sys.exit(0)
total = sys.argv[1] == "--total"
events = json.load(open(sys.argv[-1]))
names = {e["tid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
spans = [e for e in events if e["ph"] == "X"]
end = lambda e: e["ts"] + e["dur"]

if waits:
    groups = []  # [name, end, spans]
    for w in sorted((e for e in spans if e["cat"] == "wait"), key=end):
        group = next((g for g in groups if g[0] == w["name"] and
                      abs(g[1] - end(w)) <= EPSILON), None)
        if group:
            group[2].append(w)
        else:
            groups.append([w["name"], end(w), [w]])
    for name, _, group in groups:
        together = max(map(end, group)) - min(map(end, group)) <= EPSILON
        alone = all(o is w or o["tid"] != w["tid"] or
                    end(o) <= w["ts"] + EPSILON or o["ts"] >= end(w) - EPSILON
                    for w in group for o in spans)
        print(f"wait {name}: tracks={len({w['tid'] for w in group})} "
              f"together={'yes' if together else 'no'} "
              f"alone={'yes' if alone else 'no'}")
    sys.exit(0)

summary = collections.defaultdict(lambda: [0, 0, 0, 0])
for e in spans:
    assert e["ts"] >= 0 and e["dur"] >= 0, e
    row = summary[("all" if total else names[e["tid"]], e["cat"])]
    row[0] += 1
    row[1] += e["args"].get("bytes", 0)
    row[2] += e["args"].get("iterations", 0)
    row[3] += e["args"].get("replayed", 0)
for (track, cat), (n, b, i, r) in sorted(summary.items()):
    print(f"{track} {cat} events={n} bytes={b} iterations={i} replayed={r}")
