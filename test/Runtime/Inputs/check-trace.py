#!/usr/bin/env python3
"""Reads a HOMP_TRACE file (it must be valid JSON) and prints, per track in
name order, how many events of each category it has and their bytes and
iterations; one line per track and category:
    TRACK CATEGORY events=N bytes=B iterations=I
Spans must have a start and a non-negative duration."""
import collections
import json
import sys

events = json.load(open(sys.argv[1]))
names = {e["tid"]: e["args"]["name"] for e in events
         if e["ph"] == "M" and e["name"] == "thread_name"}
summary = collections.defaultdict(lambda: [0, 0, 0])
for e in events:
    if e["ph"] != "X":
        continue
    assert e["ts"] >= 0 and e["dur"] >= 0, e
    row = summary[(names[e["tid"]], e["cat"])]
    row[0] += 1
    row[1] += e["args"].get("bytes", 0)
    row[2] += e["args"].get("iterations", 0)
for (track, cat), (n, b, i) in sorted(summary.items()):
    print(f"{track} {cat} events={n} bytes={b} iterations={i}")
