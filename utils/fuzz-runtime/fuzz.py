#!/usr/bin/env python3
"""Random differential testing of homp's runtime semantics.

Generates random C programs made of homp constructs (distributed kernels,
data regions (a vector in one sometimes aligned with a shorter array),
enter/exit data, target update, halo exchanges (halo(*) too), nowait
kernels, data regions as nowait tasks ordered by depend, kernels from two
host threads at once, standard single-device kernels, reductions,
subscripts of every shape, static and heap arrays), compiles each twice:
with hompcc, and as plain sequential C (the same source without -fopenmp,
where every pragma is ignored: the program's sequential meaning). Runs
the homp binary under random HOMP_DEVICES, HOMP_SCHEDULE, HOMP_EMULATE,
HOMP_FAULT, HOMP_INFO and OMP_TARGET_OFFLOAD and compares its output
with the sequential one. A difference, a crash, a hang, or an error where
none is allowed is a finding: the program, its
environment and both outputs are written to OUT/findings/, then reduced
(steps, statements and environment variables dropped while the failure
stays) to OUT/findings/NAME-reduced.c.

The generator writes only programs whose OpenMP meaning is their sequential
meaning: every kernel is race free (each iteration writes only its own
elements), an array a kernel writes comes back to the host (tofrom), halos
are exchanged before a kernel reads an array its devices changed, the host
changes an array a data region holds only followed by 'target update to',
and reads one only after 'target update from'.

usage:
  fuzz.py --build BUILD [--seconds N | --programs N] [--seed S] [--jobs J]
          [--out DIR] [--runs K] [--ranks 2,3]
  fuzz.py --build BUILD --replay FILE.json     run one saved case again
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

CLANG = "clang-19"
RUN_TIMEOUT = 60
# --ranks: the ranks of an MPI job each run may have (env key MPI_RANKS,
# so that a finding replays on as many); empty: one process.
RANK_CHOICES = []
COMPILE_TIMEOUT = 300

# --------------------------------------------------------------------------
# The program model: plain dicts and lists, so that a case is JSON.
# --------------------------------------------------------------------------

DEVICE_LISTS = ["*", "*", "*", "0:2", "1:2", "0, 2", "*, host", "2:*", "1:3",
                "0:4", "3:1"]
# The offload devices each list names on the four CPU offload devices.
DEVICE_IDS = {"*": [0, 1, 2, 3], "0:2": [0, 1], "1:2": [1, 2], "0, 2": [0, 2],
              "*, host": [0, 1, 2, 3], "2:*": [2, 3], "1:3": [1, 2, 3],
              "0:4": [0, 1, 2, 3], "3:1": [3]}
LOOP_KINDS = ["BLOCK", "AUTO", "SCHED_DYNAMIC", "SCHED_GUIDED", "MODEL_1_AUTO",
              "MODEL_2_AUTO", "SCHED_PROFILE_AUTO", "MODEL_PROFILE_AUTO"]
REDUCTIONS = ["+", "max", "min", "^", "|"]
# The kinds a labelled loop a data region's arrays align to memorizes.
MEMO_KINDS = ["SCHED_DYNAMIC", "SCHED_DYNAMIC(3)", "SCHED_GUIDED",
              "SCHED_PROFILE_AUTO", "MODEL_PROFILE_AUTO", "AUTO"]


class Gen:
    """Makes one random program; R is its random.Random."""

    def __init__(self, r):
        self.r = r
        self.n = r.choice([5, 7, 16, 37, 64, 97, 128, 201, 333])
        self.rows = r.choice([6, 9, 16])
        self.cols = r.choice([5, 8, 13])
        self.vecs = [f"v{k}" for k in range(r.randint(2, 4))]
        # Some vectors are pointers to the heap rather than arrays.
        self.heap = [a for a in self.vecs if r.random() < 0.3]
        self.mats = [f"m{k}" for k in range(r.randint(0, 2))]
        self.sums = [f"s{k}" for k in range(3)]
        self.checks = 0
        self.memos = 0  # labelled loops memorizing their chunks
        self.fixed_devices = False
        # 'anc[0:anchor]': a shorter array data regions may align a vector
        # with, so that the vector's elements past it need a home too.
        self.anchor = r.randint(1, max(1, self.n // 2))

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def program(self):
        steps = []
        for _ in range(self.r.randint(1, 5)):
            steps.append(self.step(resident={}, depth=0))
        return {"n": self.n, "rows": self.rows, "cols": self.cols,
                "vecs": self.vecs, "heap": self.heap, "mats": self.mats,
                "sums": self.sums,
                "lo": self.r.randint(1, 9), "c": self.r.randint(0, self.n - 1),
                "checks": self.checks, "fixed_devices": self.fixed_devices,
                "anchor": self.anchor, "steps": steps}

    # ---- steps ------------------------------------------------------------

    def step(self, resident, depth):
        kinds = ["kernel"] * 5 + ["kernel2d"] * (2 if self.mats else 0) + \
            ["host"] + ["standard"]
        if depth < 2:
            kinds += ["data"] * 3 + ["enter"] * 2
        if not resident:
            kinds += ["nowait"] * 2 + ["sections", "chain"]
        if resident:
            kinds += ["update_from"] * 2 + ["update_to"] * 2
        kind = self.pick(kinds)
        if kind == "kernel":
            return self.kernel(resident)
        if kind == "kernel2d":
            return self.kernel2d(resident)
        if kind == "host":
            free = [a for a in self.vecs if a not in resident]
            if not free:
                return self.kernel(resident)
            return {"kind": "host", "array": self.pick(free),
                    "add": self.r.randint(1, 5)}
        if kind == "standard":
            return self.standard(resident)
        if kind in ("data", "enter"):
            return self.region(kind, resident, depth)
        if kind == "nowait":
            # (No struct firstprivates: clang 19 itself adds them twice in
            # a 'nowait' target task.)
            return {"kind": "nowait", "kernels": self.concurrent_kernels(),
                    "parallel": self.chance(0.5)}
        if kind == "sections":
            # Two host threads at once (and no struct firstprivate: both
            # would change 'pv').
            return {"kind": "sections", "kernels": self.concurrent_kernels()}
        if kind == "chain":
            # A data region in tasks: 'enter data' nowait, a kernel over
            # the array it made resident, 'exit data', each after the one
            # before by their depend clauses (each planned when it runs).
            devices = self.pick(DEVICE_LISTS[:-1])
            a = self.pick(self.vecs)
            d, h = self.dist()
            inner = {a: {"dist": d, "halo": h, "devices": devices,
                         "stale": False}}
            k = self.kernel(inner, allow_red=False)
            k["private"] = False
            return {"kind": "chain", "devices": devices,
                    "maps": [{"array": a, "dist": d, "halo": h}],
                    "kernel": k, "parallel": self.chance(0.5)}
        if kind == "update_from":
            a = self.pick(list(resident))
            self.checks += 1
            return {"kind": "update_from", "array": a,
                    "devices": resident[a]["devices"], "check": self.checks - 1}
        # update_to: the host changes a resident array, then updates it
        vecs = [a for a in resident if a in self.vecs]
        if not vecs:
            return self.kernel(resident)
        a = self.pick(vecs)
        return {"kind": "update_to", "array": a,
                "devices": resident[a]["devices"], "add": self.r.randint(1, 5)}

    def dist(self, halo_ok=True):
        """A distribution of a vector: (text, split, halo)."""
        d = self.pick(["BLOCK"] * 5 + ["DUPLICATE", "CYCLIC", "CYCLIC(3)",
                                       "BLOCK(4)", "none"])
        halo = 0
        if d == "BLOCK" and halo_ok and self.chance(0.6):
            # '*': every device holds the whole vector and owns its block.
            halo = "*" if self.chance(0.25) else self.r.randint(1, 2)
        return d, halo

    def concurrent_kernels(self):
        """Two kernels that may run at once: each writes its own vector,
        which the other does not read, with no firstprivate struct."""
        outs = self.r.sample(self.vecs, min(2, len(self.vecs)))
        ks = [self.kernel({}, only_out=o, allow_red=False, avoid=set(outs))
              for o in outs]
        for k in ks:
            k["private"] = False
        return ks

    def region(self, kind, resident, depth):
        devices = self.pick(DEVICE_LISTS[:-1])
        arrays = self.r.sample(self.vecs, self.r.randint(1, len(self.vecs)))
        arrays = [a for a in arrays if a not in resident] or []
        maps = []
        inner = dict(resident)
        for a in arrays:
            d, h = self.dist()
            maps.append({"array": a, "dist": d, "halo": h})
            inner[a] = {"dist": d, "halo": h, "devices": devices,
                        "stale": False}
        if self.mats and self.chance(0.4):
            m = self.pick(self.mats)
            if m not in resident:
                d = self.pick(["BLOCK, *", "*, BLOCK", "none"])
                h = self.pick([1, 1, "*"]) if d == "BLOCK, *" and \
                    self.chance(0.5) else 0
                maps.append({"array": m, "dist": d, "halo": h})
                inner[m] = {"dist": d, "halo": h, "devices": devices,
                            "stale": False}
        if not maps:
            return self.kernel(resident)
        # Sometimes a vector follows the shorter anc's split (ALIGN(anc)):
        # anc is mapped first and no kernel uses it.
        vec_maps = [m for m in maps if m["array"] in self.vecs]
        memo = None
        if kind == "data" and vec_maps and self.chance(0.25):
            # Memorizing dynamic: the vectors follow the chunks of a
            # labelled loop with a dynamic or profile kind, which runs
            # several times (SPEC 3).
            self.memos += 1
            label = f"zl{self.memos}"
            for m in vec_maps:
                m["dist"], m["halo"] = f"ALIGN({label})", self.pick([0, "*"])
                inner[m["array"]] = dict(inner[m["array"]], dist=m["dist"],
                                         halo=m["halo"])
            memo = label
        elif vec_maps and self.chance(0.3):
            m = self.pick(vec_maps)
            m["dist"], m["halo"] = "ALIGN(anc)", 0
            inner[m["array"]] = dict(inner[m["array"]], dist=m["dist"],
                                     halo=0)
            maps.insert(0, {"array": "anc", "dist": "BLOCK", "halo": 0})
        steps = []
        count = self.r.randint(1, 4)
        at = self.r.randint(0, count) if memo else -1
        for s in range(count + (memo is not None)):
            if s != at:
                steps.append(self.step(inner, depth + 1))
                continue
            # In its place among the steps: the halos it reads exchanged.
            k = self.kernel(inner)
            k.update(loop=self.pick(MEMO_KINDS), devices=devices, label=memo,
                     labels=False, combined=False)
            steps.append({"kind": "repeat", "times": self.r.randint(2, 4),
                          "kernel": k})
        return {"kind": kind, "devices": devices, "maps": maps,
                "steps": steps}

    def standard(self, resident):
        """A standard single-device kernel over a vector that no data
        region keeps in parts (one held whole, or one it maps itself). On
        one held whole, the device is one that holds it (elsewhere OpenMP
        maps another copy, which the region's end would overwrite), and the
        program runs with every device (no HOMP_DEVICES)."""
        ok = [a for a in self.vecs
              if a not in resident or resident[a]["dist"] in ("DUPLICATE",
                                                             "none")]
        if not ok:
            return self.kernel(resident)
        a = self.pick(ok)
        device = self.r.randint(0, 3)
        if a in resident:
            device = self.pick(DEVICE_IDS[resident[a]["devices"]])
            self.fixed_devices = True
        return {"kind": "standard", "array": a, "device": device,
                "add": self.r.randint(1, 4), "mapped": self.chance(0.5)}

    def subscript_read(self, shifted):
        """A read subscript of vector X, relative to the loop variable."""
        i = "(i - lo)" if shifted else "i"
        form = self.pick(["off"] * 6 + ["perm", "inv", "local", "window",
                                        "guard"])
        d = self.r.randint(-2, 2)
        if form == "off":
            return {"form": "off", "d": d, "i": i}
        if form == "guard":
            return {"form": "guard", "d": d, "i": i}
        return {"form": form, "i": i, "d": d}

    def kernel(self, resident, only_out=None, allow_red=True, avoid=()):
        shifted = self.chance(0.15)
        step = 2 if self.chance(0.15) else 1
        out = only_out or self.pick(self.vecs)
        ins = [a for a in self.vecs if a != out and a not in avoid]
        reads = []
        for _ in range(self.r.randint(0, 3)):
            if not ins:
                break
            reads.append({"array": self.pick(ins),
                          "sub": self.subscript_read(shifted)})
        double = step == 2 and self.chance(0.6)
        red = None
        if allow_red and self.chance(0.3):
            red = {"op": self.pick(REDUCTIONS), "var": self.pick(self.sums)}
        maps = []
        for a in sorted({out, *[x["array"] for x in reads]}):
            if a in resident:
                continue  # the data region's
            d, h = self.dist()
            # Following the loop's iterations, whatever splits it (a
            # scheduler's chunks too): for arrays used at the loop's index.
            at_i = all(x["sub"]["form"] == "off" and x["sub"]["d"] == 0
                       for x in reads if x["array"] == a)
            if at_i and not shifted and self.chance(0.2):
                d, h = "ALIGN(loop)", 0
            need = max([abs(x["sub"]["d"]) for x in reads
                        if x["array"] == a and x["sub"]["form"] == "off"] or
                       [0])
            if d == "BLOCK" and need and h != "*" and self.chance(0.8):
                h = max(h, need)
            maps.append({"array": a, "dist": d, "halo": h,
                         "map": "tofrom" if a == out else "to"})
        # Halos an earlier kernel left stale are exchanged first.
        exchange = []
        for x in reads:
            a = x["array"]
            if a in resident and resident[a]["stale"] and \
                    resident[a]["halo"] and a not in exchange:
                exchange.append(a)
        for a in exchange:
            resident[a]["stale"] = False
        if out in resident:
            resident[out]["stale"] = True
        loop = self.pick(["BLOCK"] * 3 + ["none"] * 2 + LOOP_KINDS +
                         ["CYCLIC(2)"])
        devices = self.pick(DEVICE_LISTS) if not resident or \
            self.chance(0.2) else self.pick(
                [resident[a]["devices"] for a in resident])
        return {"kind": "kernel", "devices": devices, "maps": maps,
                "out": out, "reads": reads, "shifted": shifted, "step": step,
                "double": double, "red": red, "loop": loop,
                "exchange": exchange, "private": self.chance(0.3),
                "write": self.pick(["=", "+="]),
                "labels": self.chance(0.2), "combined": self.chance(0.3)}

    def kernel2d(self, resident):
        m = self.pick(self.mats)
        others = [x for x in self.mats if x != m]
        src = self.pick(others) if others and self.chance(0.7) else None
        maps = []
        for a in [m] + ([src] if src else []):
            if a in resident:
                continue
            d = self.pick(["BLOCK, *", "*, BLOCK", "BLOCK, BLOCK", "none"])
            h = self.pick([1, 1, "*"]) if d == "BLOCK, *" and a == src \
                and self.chance(0.7) else 0
            maps.append({"array": a, "dist": d, "halo": h,
                         "map": "tofrom" if a == m else "to"})
        exchange = []
        if src and src in resident and resident[src]["stale"] and \
                resident[src]["halo"]:
            exchange.append(src)
            resident[src]["stale"] = False
        if m in resident:
            resident[m]["stale"] = True
        topo = None
        if any(x["dist"] == "BLOCK, BLOCK" for x in maps):
            topo = "[2][*]"
        devices = "*" if topo else self.pick(DEVICE_LISTS)
        if resident and not topo and self.chance(0.8):
            devices = self.pick([resident[a]["devices"] for a in resident])
        return {"kind": "kernel2d", "devices": devices, "maps": maps,
                "out": m, "src": src, "di": self.r.randint(-1, 1),
                "topology": topo, "exchange": exchange,
                "loop": self.pick(["none", "BLOCK", "BLOCK, BLOCK"])
                if not topo else "BLOCK, BLOCK"}


# --------------------------------------------------------------------------
# C emission
# --------------------------------------------------------------------------


def dist_text(m):
    d, h = m["dist"], m["halo"]
    if d == "none":
        return ""
    t = f" dist_data({d})"
    if h:
        t += f" halo({h},)" if "," in d else f" halo({h})"
    return t


def section(p, a):
    if a in p["mats"]:
        return f"{a}[0:R][0:C]"
    if a == "anc":
        return f"anc[0:{p['anchor']}]"
    return f"{a}[0:n]"


def map_clauses(p, maps):
    out = []
    for m in maps:
        out.append(f"map({m.get('map', 'tofrom')}: {section(p, m['array'])}"
                   f"{dist_text(m)})")
    return " ".join(out)


def read_expr(x):
    a, s = x["array"], x["sub"]
    i, d = s["i"], s["d"]
    f = s["form"]
    if f == "off":
        return f"{a}[{i} + {d}]" if d else f"{a}[{i}]"
    if f == "guard":
        return (f"({i} + {d} >= 0 && {i} + {d} < n ? {a}[{i} + {d}] : 3)")
    if f == "perm":
        return f"{a}[perm[{i}]]"
    if f == "inv":
        return f"{a}[c]"
    if f == "local":
        return f"{a}[k]"
    if f == "window":
        return "win"
    raise ValueError(f)


def emit_kernel(p, k, out, ind):
    # The loop range keeps every unguarded offset read in the array.
    dmax = max([abs(x["sub"]["d"]) for x in k["reads"]
                if x["sub"]["form"] in ("off", "window")] or [0])
    if any(x["sub"]["form"] == "window" for x in k["reads"]):
        dmax = max(dmax, 2)
    lo, hi = dmax, f"n - {dmax}" if dmax else "n"
    if k["double"]:
        hi = f"({hi}) - 1"
    if k["shifted"]:
        lo, hi = f"lo + {lo}", f"lo + {hi}"
    for a in k["exchange"]:
        out.append(f"{ind}#pragma omp halo_exchange({a})")
    red = k["red"]
    clauses = []
    if red:
        clauses.append(f"reduction({red['op']}: {red['var']})")
    loop = k["loop"]
    if loop == "none":
        policy = ""
    elif loop in ("BLOCK",) or loop.startswith("CYCLIC"):
        policy = f" dist_iteration({loop})"
    else:
        policy = f" distribute dist_schedule(target: [{loop}])"
    dev = f"device({k['devices']})"
    maps = map_clauses(p, k["maps"])
    priv = ""
    if k["private"]:
        out.append(f"{ind}{{")
        out.append(f"{ind}struct Pv q = {{pv.a + 1, pv.b, pv.c, pv.d}};")
        out.append(f"{ind}long double t = pv.c + 0.25L;")
        priv = " + q.a - q.b + (long)(t * 2)"
    if k["combined"] and not policy.startswith(" distribute"):
        out.append(f"{ind}#pragma omp target teams distribute parallel for "
                   f"{dev} {maps} {' '.join(clauses)}{policy}".rstrip())
    else:
        out.append(f"{ind}#pragma omp target {dev} {maps}".rstrip())
        out.append(f"{ind}#pragma omp parallel for{policy} "
                   f"{' '.join(clauses)}".rstrip())
    label = f"{k['label']}: " if k.get("label") else ""
    if k["labels"] and policy.startswith(" distribute"):
        p["labels"] = p.get("labels", 0) + 1
        label = f"loop{p['labels']}: "
    out.append(f"{ind}{label}for (int i = {lo}; i < {hi}; i += {k['step']}) {{")
    body = ind + "  "
    reads = k["reads"]
    if any(x["sub"]["form"] == "local" for x in reads):
        base = reads[0]["sub"]["i"]
        out.append(f"{body}int k = ({base} + n / 2) % n;")
    if any(x["sub"]["form"] == "window" for x in reads):
        base = reads[0]["sub"]["i"]
        out.append(f"{body}long win = 0;")
        out.append(f"{body}for (int d = -w; d <= w; ++d)")
        arr = next(x["array"] for x in reads if x["sub"]["form"] == "window")
        out.append(f"{body}  win += {arr}[{base} + d];")
    terms = [read_expr(x) for x in reads] + ["(long)(i % 7)"]
    expr = " + ".join(terms) + priv
    i = "(i - lo)" if k["shifted"] else "i"
    o = k["out"]
    op = k["write"]
    out.append(f"{body}{o}[{i}] {op} {expr};")
    if k["double"]:
        out.append(f"{body}{o}[{i} + 1] {op} {expr} + 1;")
    if red:
        v, rop = red["var"], red["op"]
        e = f"({o}[{i}] % 1000)"
        if rop in ("max", "min"):
            cmp = ">" if rop == "max" else "<"
            out.append(f"{body}{v} = {e} {cmp} {v} ? {e} : {v};")
        else:
            out.append(f"{body}{v} {rop}= {e};")
    out.append(f"{ind}}}")
    if k["private"]:
        # Changed after the construct ran, then the block's frame is gone.
        out.append(f"{ind}q.a = -1000; q.b = 1000; t = -1e9L;")
        out.append(f"{ind}pv.a += 1;")
        out.append(f"{ind}}}")


def emit_kernel2d(p, k, out, ind):
    for a in k["exchange"]:
        out.append(f"{ind}#pragma omp halo_exchange({a})")
    topo = f" topology({k['topology']})" if k["topology"] else ""
    maps = map_clauses(p, k["maps"])
    out.append(f"{ind}#pragma omp target device({k['devices']}){topo} {maps}"
               .rstrip())
    loop = k["loop"]
    policy = "" if loop == "none" else f" dist_iteration({loop})"
    out.append(f"{ind}#pragma omp parallel for collapse(2){policy}")
    out.append(f"{ind}for (int i = 1; i < R - 1; ++i)")
    out.append(f"{ind}  for (int j = 0; j < C; ++j)")
    src = k["src"]
    rhs = f"{src}[i + {k['di']}][j] + j" if src else "i * j"
    out.append(f"{ind}    {k['out']}[i][j] += {rhs};")


def nowait_lines(lines, deps):
    """A kernel's LINES with its target directive made 'nowait DEPS'."""
    def kernel_directive(line):
        return line.lstrip().startswith("#pragma omp target ") and \
            not line.lstrip().startswith(("#pragma omp target update",
                                          "#pragma omp target data",
                                          "#pragma omp target enter",
                                          "#pragma omp target exit"))
    return [line + f" nowait {deps}" if kernel_directive(line) else line
            for line in lines]


def open_tasks(s, out, ind):
    """Opens 'parallel' and 'single' around a step's tasks when it asks
    (its tasks then run on a team); the indentation inside."""
    if not s["parallel"]:
        return ind
    out.append(f"{ind}#pragma omp parallel")
    out.append(f"{ind}#pragma omp single")
    out.append(f"{ind}{{")
    return ind + "  "


def emit_step(p, s, out, ind):
    kind = s["kind"]
    if kind == "kernel":
        emit_kernel(p, s, out, ind)
    elif kind == "kernel2d":
        emit_kernel2d(p, s, out, ind)
    elif kind == "host":
        a = s["array"]
        out.append(f"{ind}for (int i = 0; i < n; ++i)")
        out.append(f"{ind}  {a}[i] = {a}[i] * 2 - {s['add']};")
    elif kind == "standard":
        a = s["array"]
        m = f" map(tofrom: {a}[0:n])" if s["mapped"] else ""
        out.append(f"{ind}#pragma omp target device({s['device']}){m}")
        out.append(f"{ind}for (int i = 0; i < n; ++i)")
        out.append(f"{ind}  {a}[i] += {s['add']} + i % 3;")
    elif kind == "update_from":
        a = s["array"]
        out.append(f"{ind}#pragma omp target update device({s['devices']}) "
                   f"from({section(p, a)})")
        if a in p["mats"]:
            out.append(f"{ind}check[{s['check']}] = hash2({a});")
        else:
            out.append(f"{ind}check[{s['check']}] = hash({a}, n);")
    elif kind == "update_to":
        # The host's copy is brought up to date, changed, and sent back.
        a = s["array"]
        out.append(f"{ind}#pragma omp target update device({s['devices']}) "
                   f"from({section(p, a)})")
        out.append(f"{ind}for (int i = 0; i < n; ++i)")
        out.append(f"{ind}  {a}[i] += {s['add']};")
        out.append(f"{ind}#pragma omp target update device({s['devices']}) "
                   f"to({section(p, a)})")
    elif kind == "repeat":
        out.append(f"{ind}for (int rep = 0; rep < {s['times']}; ++rep) {{")
        emit_kernel(p, s["kernel"], out, ind + "  ")
        out.append(f"{ind}}}")
    elif kind in ("data", "enter"):
        maps = []
        for m in s["maps"]:
            maps.append(dict(m, map="tofrom"))
        if kind == "data":
            out.append(f"{ind}#pragma omp target data device({s['devices']}) "
                       f"{map_clauses(p, maps)}")
            out.append(f"{ind}{{")
            for t in s["steps"]:
                emit_step(p, t, out, ind + "  ")
            out.append(f"{ind}}}")
        else:
            enter = [dict(m, map="to") for m in s["maps"]]
            out.append(f"{ind}#pragma omp target enter data "
                       f"device({s['devices']}) {map_clauses(p, enter)}")
            for t in s["steps"]:
                emit_step(p, t, out, ind)
            exits = " ".join(f"map(from: {section(p, m['array'])})"
                             for m in s["maps"])
            out.append(f"{ind}#pragma omp target exit data "
                       f"device({s['devices']}) {exits}")
    elif kind == "sections":
        out.append(f"{ind}#pragma omp parallel sections num_threads(2)")
        out.append(f"{ind}{{")
        for k in s["kernels"]:
            out.append(f"{ind}#pragma omp section")
            out.append(f"{ind}  {{")
            emit_kernel(p, k, out, ind + "  ")
            out.append(f"{ind}  }}")
        out.append(f"{ind}}}")
    elif kind == "chain":
        a = s["maps"][0]["array"]
        inner = open_tasks(s, out, ind)
        enter = [dict(m, map="to") for m in s["maps"]]
        out.append(f"{inner}#pragma omp target enter data "
                   f"device({s['devices']}) {map_clauses(p, enter)} "
                   f"nowait depend(out: {a}[0])")
        k = s["kernel"]
        deps = " ".join(sorted({f"depend(inout: {x}[0])"
                                for x in (a, k["out"])}))
        lines = []
        emit_kernel(p, k, lines, inner)
        out.extend(nowait_lines(lines, deps))
        out.append(f"{inner}#pragma omp target exit data "
                   f"device({s['devices']}) map(from: {section(p, a)}) "
                   f"nowait depend(inout: {a}[0])")
        out.append(f"{inner}#pragma omp taskwait")
        if s["parallel"]:
            out.append(f"{ind}}}")
    elif kind == "nowait":
        inner = open_tasks(s, out, ind)
        for k in s["kernels"]:
            lines = []
            emit_kernel(p, k, lines, inner)
            out.extend(nowait_lines(lines, f"depend(inout: {k['out']}[0])"))
        out.append(f"{inner}#pragma omp taskwait")
        if s["parallel"]:
            out.append(f"{ind}}}")
    else:
        raise ValueError(kind)


PRELUDE = """\
#include <stdio.h>
#include <stdlib.h>

#define N {n}
#define R {rows}
#define C {cols}
struct Pv {{ long a, b, c, d; }};
static long {vecs};
{mats}static int perm[N];

static unsigned long hash(const long *a, int n) {{
  unsigned long h = 1469598103934665603ul;
  for (int i = 0; i < n; ++i)
    h = (h ^ (unsigned long)a[i]) * 1099511628211ul;
  return h;
}}
{hash2}
int main(void) {{
  int n = N, lo = {lo}, c = {c}, w = 2;
  long s0 = 0, s1 = -7, s2 = 5;
  unsigned long check[{checks}] = {{0}};
  struct Pv pv = {{1, 2, 3, 4}};
  (void)lo; (void)c; (void)w; (void)pv;
{alloc}  for (int i = 0; i < n; ++i) {{
    perm[i] = (int)(((long)i * 7 + 3) % n);
{init}  }}
  for (int i = 0; i < n; ++i) /* a permutation whatever n */
    for (int j = 0; j < i; ++j)
      if (perm[j] == perm[i]) {{ perm[i] = -1; break; }}
  for (int i = 0, next = 0; i < n; ++i)
    if (perm[i] < 0) {{
      for (;; ++next) {{
        int used = 0;
        for (int j = 0; j < n; ++j) used |= perm[j] == next;
        if (!used) break;
      }}
      perm[i] = next++;
    }}
{init2}"""


def emit(p):
    p = dict(p, labels=0)
    n = p["n"]
    heap = p.get("heap", [])
    vecs = ", ".join(f"*{a}" if a in heap else f"{a}[N]" for a in p["vecs"])
    mats = "".join(f"static long {m}[R][C];\n" for m in p["mats"])
    mats += "static long anc[N];\n" if "anchor" in p else ""
    hash2 = ""
    if p["mats"]:
        hash2 = ("static unsigned long hash2(long (*m)[C]) {\n"
                 "  return hash(&m[0][0], R * C);\n}\n")
    init = "".join(f"    {a}[i] = (i * {17 + 4 * k} + {k}) % 101 - 50;\n"
                   for k, a in enumerate(p["vecs"]))
    init2 = "".join(f"  for (int i = 0; i < R; ++i)\n    for (int j = 0; j < C; "
                    f"++j)\n      {m}[i][j] = (i * 5 + j * {k + 3}) % 17;\n"
                    for k, m in enumerate(p["mats"]))
    alloc = "".join(f"  {a} = malloc(sizeof(long) * N);\n" for a in heap)
    text = PRELUDE.format(n=n, rows=p["rows"], cols=p["cols"], vecs=vecs,
                          mats=mats, hash2=hash2, lo=p["lo"], c=p["c"],
                          checks=max(1, p["checks"]), init=init, init2=init2,
                          alloc=alloc)
    out = []
    for s in p["steps"]:
        emit_step(p, s, out, "  ")
    text += "\n".join(out) + "\n"
    for a in p["vecs"]:
        text += f'  printf("{a} %lu\\n", hash({a}, n));\n'
    for m in p["mats"]:
        text += f'  printf("{m} %lu\\n", hash2({m}));\n'
    text += '  printf("sums %ld %ld %ld\\n", s0, s1, s2);\n'
    for k in range(p["checks"]):
        text += f'  printf("check{k} %lu\\n", check[{k}]);\n'
    text += "  return 0;\n}\n"
    return text


# --------------------------------------------------------------------------
# Environments
# --------------------------------------------------------------------------


def random_env(r, prog):
    env = {}
    if RANK_CHOICES:
        env["MPI_RANKS"] = str(r.choice(RANK_CHOICES))
    if r.random() < 0.4 and not prog.get("fixed_devices"):
        ids = [d for d in ["0", "1", "2", "3"] if r.random() < 0.6] or ["1"]
        if r.random() < 0.3:
            ids.append("host")
        env["HOMP_DEVICES"] = ",".join(ids)
    if r.random() < 0.4:
        env["HOMP_SCHEDULE"] = r.choice(
            ["BLOCK", "SCHED_DYNAMIC,3", "SCHED_GUIDED", "MODEL_1_AUTO",
             "MODEL_2_AUTO", "SCHED_PROFILE_AUTO,20%", "MODEL_PROFILE_AUTO",
             "MODEL_2_AUTO,-1,auto"])
    if r.random() < 0.25:
        env["HOMP_EMULATE"] = r.choice(["1:3", "0:2,2:4", "3:8", "host:2"])
    if r.random() < 0.2:
        dev = r.choice(["0", "1", "2", "3"])
        kind = r.choice(["alloc", "copy", "launch"])
        env["HOMP_FAULT"] = f"{dev}:{kind}" + (
            f":after={r.randint(0, 6)}" if r.random() < 0.6 else "")
    if r.random() < 0.2:
        env["HOMP_INFO"] = "1"
    if r.random() < 0.1:
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
    if r.random() < 0.15:
        env["HOMP_HALO_ROUTE"] = r.choice(["staged", "peer"])
    return env


def errors_allowed(env):
    """Whether a clean 'homp: error' stop is a right outcome: a device made
    to fail (HOMP_FAULT; a failure with data on the devices stops the
    program), or a construct that cannot run as planned under
    OMP_TARGET_OFFLOAD=MANDATORY."""
    return "HOMP_FAULT" in env or env.get("OMP_TARGET_OFFLOAD") == "MANDATORY"


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------


# --self-test: the homp side is compiled from a source with one change, so
# that the tester must report a difference (a tester that cannot fail tests
# nothing).
PLANT = None


def compile_pair(build, source, work):
    """Compiles SOURCE with hompcc and as sequential C; (homp, seq) paths or
    raises RuntimeError with the compiler's message."""
    hompcc = os.path.join(build, "bin", "hompcc")
    homp_bin = os.path.join(work, "homp")
    seq_bin = os.path.join(work, "seq")
    homp_source = source
    if PLANT:
        with open(source) as f:
            text = f.read()
        homp_source = os.path.join(work, "planted.c")
        with open(homp_source, "w") as f:
            f.write(text.replace(*PLANT, 1))
    r = subprocess.run([hompcc, "-O1", "-w", homp_source, "-o", homp_bin],
                       capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    if r.returncode != 0:
        raise RuntimeError("hompcc failed:\n" + r.stderr[-4000:])
    r = subprocess.run([CLANG, "-O1", "-w", source, "-o", seq_bin],
                       capture_output=True, text=True, timeout=COMPILE_TIMEOUT)
    if r.returncode != 0:
        raise RuntimeError("sequential compile failed:\n" + r.stderr[-4000:])
    return homp_bin, seq_bin


def base_env(work):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HOMP_", "OMP_", "LIBOMPTARGET_"))}
    env["OMP_NUM_THREADS"] = "2"
    env["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    # A finding must replay alike: no run starts from what an earlier one
    # saved.
    env["HOMP_PROFILES"] = "off"
    return env


def run(binary, env, work):
    """(exit status or "timeout", stdout, stderr); for a hang, stderr holds
    every thread's stack (gdb), taken before the process is killed."""
    full = base_env(work)
    full.update(env)
    command = [binary]
    ranks = int(full.pop("MPI_RANKS", "0"))
    outputs = os.path.join(work, "ranks")
    if ranks:
        # Each rank's output to a file of its own (ranks write at once);
        # every rank must print the sequential output.
        shutil.rmtree(outputs, ignore_errors=True)
        command = ["mpirun", "--oversubscribe", "--bind-to", "none", "-n",
                   str(ranks), "--output-filename", outputs, binary]
        full.update({"OMPI_ALLOW_RUN_AS_ROOT": "1",
                     "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                     "OMPI_MCA_btl_vader_single_copy_mechanism": "none"})
    proc = subprocess.Popen(command, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=full,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=RUN_TIMEOUT)
        if ranks:
            outs = []
            for rank in range(ranks):
                path = os.path.join(outputs, "1", f"rank.{rank}", "stdout")
                try:
                    with open(path) as f:
                        outs.append(f.read())
                except OSError:
                    outs.append("")
            out = outs[0] if all(o == outs[0] for o in outs) else "".join(
                f"--- rank {rank} ---\n{o}" for rank, o in enumerate(outs))
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        stacks = ""
        if shutil.which("gdb"):
            g = subprocess.run(["gdb", "-q", "-batch", "-p", str(proc.pid),
                                "-ex", "thread apply all bt 30"],
                               capture_output=True, text=True, timeout=120)
            # Every thread's: the one a hang waits on may be any of them.
            stacks = g.stdout[-200000:]
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return "timeout", out, err[-4000:] + "\n--- stacks ---\n" + stacks


def judge(want, got, env):
    """None when GOT (rc, out, err) is a right outcome for WANT (the
    sequential output); else the kind of failure."""
    rc, out, err = got
    if rc == "timeout":
        return "hang"
    if isinstance(rc, int) and rc < 0:
        return f"signal {-rc}"
    if rc == 0:
        return None if out == want else "wrong output"
    # Under several ranks each line names its rank: 'homp[rank 1]: error'.
    homp_error = re.search(r"homp(\[rank \d+\])?: error", err)
    if errors_allowed(env) and homp_error:
        return None
    if homp_error:
        return "error"
    return f"exit {rc}"


def check_case(build, prog, envs, work):
    """Runs one program under ENVS. Returns (None, runs) or (finding, runs)
    with finding = dict(kind, env, want, got...)."""
    source = os.path.join(work, "prog.c")
    with open(source, "w") as f:
        f.write(emit(prog))
    try:
        homp_bin, seq_bin = compile_pair(build, source, work)
    except RuntimeError as e:
        return {"kind": "compile", "message": str(e), "env": {}}, 0
    except subprocess.TimeoutExpired:
        return {"kind": "compile hang", "message": "", "env": {}}, 0
    rc, want, _ = run(seq_bin, {}, work)
    if rc != 0:
        return {"kind": "sequential program failed", "env": {},
                "message": want}, 0
    runs = 0
    for env in envs:
        got = run(homp_bin, env, work)
        runs += 1
        kind = judge(want, got, env)
        if kind:
            return {"kind": kind, "env": env, "want": want,
                    "got": got[1], "stderr": got[2][-26000:]}, runs
    return None, runs


# --------------------------------------------------------------------------
# Reducing
# --------------------------------------------------------------------------


def step_lists(prog):
    """Every list of steps in PROG (the program's and the regions')."""
    lists = [prog["steps"]]
    i = 0
    while i < len(lists):
        for s in lists[i]:
            if s["kind"] in ("data", "enter"):
                lists.append(s["steps"])
            if s["kind"] == "nowait":
                lists.append(s["kernels"])
        i += 1
    return lists


def candidates(prog, env):
    """Smaller variants of (prog, env), most promising first."""
    import copy
    for key in list(env):
        e = dict(env)
        del e[key]
        yield prog, e
    nlists = len(step_lists(prog))
    for li in range(nlists):
        n = len(step_lists(prog)[li])
        for si in reversed(range(n)):
            p = copy.deepcopy(prog)
            lst = step_lists(p)[li]
            if len(lst) <= 1 and lst is p["steps"]:
                continue
            del lst[si]
            yield p, env
    for lst_i in range(nlists):
        for si in range(len(step_lists(prog)[lst_i])):
            s = step_lists(prog)[lst_i][si]
            if s["kind"] == "kernel":
                for field, value in (("reads", None), ("red", None),
                                     ("private", False), ("double", False),
                                     ("exchange", None), ("loop", "BLOCK"),
                                     ("combined", False), ("labels", False)):
                    p = copy.deepcopy(prog)
                    k = step_lists(p)[lst_i][si]
                    if field == "reads":
                        for ri in range(len(k["reads"])):
                            q = copy.deepcopy(prog)
                            del step_lists(q)[lst_i][si]["reads"][ri]
                            yield q, env
                        continue
                    if field == "exchange" or k[field] == value:
                        continue
                    k[field] = value
                    yield p, env
    for n in (5, 16, 37):
        if n < prog["n"]:
            p = copy.deepcopy(prog)
            p["n"] = n
            p["c"] = min(p["c"], n - 1)
            yield p, env


def reduce_case(build, prog, env, kind, work, deadline):
    improved = True
    while improved and time.time() < deadline:
        improved = False
        for p, e in candidates(prog, env):
            if time.time() > deadline:
                break
            finding, _ = check_case(build, p, [e], work)
            if finding and finding["kind"] == kind:
                prog, env = p, e
                improved = True
                break
    return prog, env


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def one_program(args, index):
    r = random.Random(f"{args.seed}:{index}")
    prog = Gen(r).program()
    first = {"MPI_RANKS": str(r.choice(RANK_CHOICES))} if RANK_CHOICES else {}
    envs = [first] + [random_env(r, prog) for _ in range(args.runs - 1)]
    work = tempfile.mkdtemp(prefix=f"homp-fuzz-{index}-")
    try:
        finding, runs = check_case(args.build, prog, envs, work)
        if finding:
            finding["index"] = index
            finding["program"] = prog
        return finding, runs
    finally:
        shutil.rmtree(work, ignore_errors=True)


def save(out_dir, finding, build, reduce_seconds):
    os.makedirs(os.path.join(out_dir, "findings"), exist_ok=True)
    name = f"seed{finding['seed']}-{finding['index']}"
    base = os.path.join(out_dir, "findings", name)
    with open(base + ".json", "w") as f:
        json.dump(finding, f, indent=1)
    with open(base + ".c", "w") as f:
        f.write(emit(finding["program"]))
    if reduce_seconds > 0 and finding["kind"] not in ("compile",):
        work = tempfile.mkdtemp(prefix="homp-fuzz-reduce-")
        try:
            prog, env = reduce_case(build, finding["program"], finding["env"],
                                    finding["kind"], work,
                                    time.time() + reduce_seconds)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        with open(base + "-reduced.c", "w") as f:
            f.write("/* " + finding["kind"] + " with " +
                    " ".join(f"{k}={v}" for k, v in env.items()) + " */\n")
            f.write(emit(prog))
        with open(base + "-reduced.json", "w") as f:
            json.dump({"program": prog, "env": env, "kind": finding["kind"]},
                      f, indent=1)
    return base


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--programs", type=int, default=0)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", type=int, default=4,
                    help="runs per program: one plain, the rest with a "
                         "random environment")
    ap.add_argument("--ranks", default="",
                    help="run every program under mpirun with one of these "
                         "rank counts, e.g. 2,3 (every rank must print the "
                         "sequential output)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--reduce-seconds", type=float, default=600)
    ap.add_argument("--keep-going", action="store_true",
                    help="go on after a finding")
    ap.add_argument("--replay", help="a finding's .json: run it again")
    ap.add_argument("--print", dest="print_seed", metavar="SEED:INDEX",
                    help="print the program SEED:INDEX generates")
    ap.add_argument("--self-test", action="store_true",
                    help="plant a difference in the homp side of every "
                         "program: each must be a finding")
    args = ap.parse_args()
    global RANK_CHOICES
    RANK_CHOICES = [int(x) for x in args.ranks.split(",") if x.strip()]
    if args.self_test:
        global PLANT
        # Every program hashes its arrays so (its kernels may overwrite any
        # value it starts with): the planted one hashes them otherwise.
        PLANT = ("h = (h ^ (unsigned long)a[i]) * 1099511628211ul;",
                 "h = (h ^ (unsigned long)a[i]) * 1099511628213ul;")
    args.build = os.path.abspath(args.build)
    if args.print_seed:
        seed, index = args.print_seed.split(":")
        r = random.Random(f"{seed}:{index}")
        sys.stdout.write(emit(Gen(r).program()))
        return 0
    if args.replay:
        with open(args.replay) as f:
            case = json.load(f)
        work = tempfile.mkdtemp(prefix="homp-fuzz-replay-")
        finding, _ = check_case(args.build, case["program"], [case["env"]],
                                work)
        shutil.rmtree(work, ignore_errors=True)
        print("no difference" if not finding else
              f"{finding['kind']}: env {finding['env']}")
        return 1 if finding else 0
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    if not args.seconds and not args.programs:
        args.programs = 30
    out_dir = os.path.abspath(args.out or os.path.join(args.build,
                                                       "fuzz-runtime"))
    os.makedirs(out_dir, exist_ok=True)
    start = time.time()
    programs = runs = 0
    findings = []
    index = 0
    print(f"homp fuzz-runtime: seed {args.seed}, "
          + (f"{args.programs} programs" if args.programs else
             f"{args.seconds:.0f} s") + f", {args.jobs} jobs", flush=True)

    def more():
        if findings and not args.keep_going:
            return False
        if args.programs:
            return index < args.programs
        return time.time() - start < args.seconds

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        pending = set()
        while more() or pending:
            while more() and len(pending) < args.jobs:
                pending.add(pool.submit(one_program, args, index))
                index += 1
            done, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for fut in done:
                finding, n = fut.result()
                programs += 1
                runs += n
                if finding:
                    finding["seed"] = args.seed
                    findings.append(finding)
                    base = save(out_dir, finding, args.build, 0)
                    print(f"FINDING {finding['kind']}: program "
                          f"{args.seed}:{finding['index']} env "
                          f"{finding['env']} ({base}.c)", flush=True)
    # The first finding, reduced.
    if findings and args.reduce_seconds > 0:
        base = save(out_dir, findings[0], args.build, args.reduce_seconds)
        print(f"  reduced: {base}-reduced.c", flush=True)
    took = time.time() - start
    print(f"{programs} programs, {runs} runs, {len(findings)} finding"
          f"{'' if len(findings) == 1 else 's'} in {took:.0f} s", flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
