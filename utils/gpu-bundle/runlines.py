#!/usr/bin/env python3
"""Turns the RUN lines of a lit test into a plan for the GPU bundle.

A test/Runtime test compiles with `%hompcc ... %s -o %t.x` and then runs
`%t.x args 2>&1 | FileCheck %s ...` (possibly under `not` or `env`). The
bundle compiles at build time (with the bundle's offload architectures) and
runs later, on a machine without LLVM, from a pure bash script. A plan holds:

  compiles   the compile commands, as RUN-line text still holding %-names
  binaries   the %t suffixes the compiles write ("" for %t itself)
  runs       the run steps as bash, with "$T" for %t, "$S" for %s, and
             "$NDEV" and "$DEVICES" for %ndev and %devices (the number of
             offload devices `device(*)` gives, "4" and "4 devices", which
             run.sh counts in each configuration)
  devices    the devices the test needs (REQUIRES: devices-N), or 0
  host_memory  whether the test needs every offload device to work on the
             host's memory (REQUIRES: host-memory)
  tools      the bundled tools (FileCheck, not, count) the steps use
  skip       why the test cannot be carried, or None

Only what the bundle can reproduce is accepted: the test's own programs,
`not`, `env NAME=value`, FileCheck and a few coreutils-style filters, and of
lit's conditions only `REQUIRES: devices-N` and `REQUIRES: host-memory`
(run.sh skips the test, with the reason, in a configuration with fewer
devices, or with a GPU). Any other command,
substitution or lit directive makes the whole test skipped with the reason,
never silently dropped.

usage: runlines.py [--archs LIST] TEST...   (prints each test's plan)
"""
import argparse
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

COMPILERS = ("%hompcc", "%hompcxx")
# Commands a run step may use besides the test's programs: FileCheck, not and
# count travel in the bundle, the rest are coreutils, grep, sed and cmp.
TOOLS = {"FileCheck", "not", "count", "env", "cat", "grep", "sed", "sort",
         "head", "tail", "wc", "tr", "cut", "uniq", "true", "false", "rm", "mkdir", "cp", "echo", "cmp"}
BUNDLED_TOOLS = ("FileCheck", "not", "count")
# Environment settings whose output depends on the offload plugin, so the
# expectations written for the x86 devices cannot hold on a GPU.
UNPORTABLE_ENV = {
    "LIBOMPTARGET_INFO": "its output is libomptarget's trace, which differs between offload plugins",
    "LIBOMPTARGET_DEBUG": "its output is libomptarget's trace, which differs between offload plugins",
}
SUBSTITUTION = re.compile(r"%(\{[^}]*\}|[A-Za-z_]+|%)")
# test/lit.cfg.py's feature "at least N offload devices".
DEVICES_FEATURE = re.compile(r"devices-([1-9][0-9]*)")
# test/lit.cfg.py's feature "every offload device works on the host's memory"
# (CPU offload devices; run.sh: a configuration without a GPU).
HOST_MEMORY_FEATURE = "host-memory"


@dataclass
class Plan:
    compiles: list = field(default_factory=list)
    binaries: list = field(default_factory=list)
    runs: list = field(default_factory=list)
    devices: int = 0
    host_memory: bool = False
    tools: set = field(default_factory=set)
    skip: Optional[str] = None


class Unsupported(Exception):
    """A RUN line the bundle cannot reproduce; the message is the reason."""


def run_lines(text):
    """The test's RUN commands, continuation lines joined, as lit reads them."""
    commands, pending = [], None
    for line in text.splitlines():
        for directive in ("DEFINE:", "REDEFINE:", "ALLOW_RETRIES:"):
            if re.search(r"\b" + directive, line):
                raise Unsupported(f"uses lit's {directive[:-1]}")
        match = re.search(r"\bRUN:(.*)$", line)
        if not match:
            continue
        body = match.group(1).rstrip()
        pending = body if pending is None else pending + " " + body.lstrip()
        if pending.endswith("\\"):
            pending = pending[:-1]
            continue
        commands.append(pending.strip())
        pending = None
    if pending is not None:
        raise Unsupported("its last RUN line ends with a continuation")
    return commands


def conditions(text):
    """The devices the test's REQUIRES lines ask for, whether they ask for
    host memory, and its other REQUIRES/UNSUPPORTED/XFAIL lines, which the
    bundle cannot evaluate."""
    devices, host_memory, others = 0, False, []
    for kind, value in re.findall(r"\b(REQUIRES|UNSUPPORTED|XFAIL):(.*)$", text, re.M):
        features = [f.strip() for f in value.split(",")]
        counts = [DEVICES_FEATURE.fullmatch(f) for f in features]
        if kind == "REQUIRES" and all(c or f == HOST_MEMORY_FEATURE
                                      for c, f in zip(counts, features)):
            devices = max([devices] + [int(c.group(1)) for c in counts if c])
            host_memory = host_memory or HOST_MEMORY_FEATURE in features
        else:
            others.append(f"{kind}:{value}".strip())
    return devices, host_memory, others


def scan(text):
    """Yields (index, quote state) for each character: '' outside quotes,
    "'" or '"' inside; backslash-escaped characters report the state '\\'."""
    state, escaped = "", False
    for i, ch in enumerate(text):
        if escaped:
            yield i, "\\"
            escaped = False
            continue
        yield i, state
        if ch == "\\" and state != "'":
            escaped = True
        elif state == "" and ch in "'\"":
            state = ch
        elif state == ch:
            state = ""


def split_unquoted(text, separator):
    """Splits at `separator` outside quotes; `|` never matches inside `||`."""
    parts, start, skip_to = [], 0, -1
    states = dict(scan(text))
    for i in range(len(text)):
        if i < skip_to or states[i] != "" or not text.startswith(separator, i):
            continue
        if separator == "|" and (text.startswith("||", i) or text[i - 1:i] == "|"):
            continue
        parts.append(text[start:i].strip())
        start = skip_to = i + len(separator)
    parts.append(text[start:].strip())
    return parts


def check_operators(command):
    states = dict(scan(command))
    for i, ch in enumerate(command):
        if states[i] != "":
            continue
        if command.startswith("||", i):
            raise Unsupported("a RUN line uses '||'")
        if ch in ";`" or command.startswith("$(", i):
            raise Unsupported(f"a RUN line uses '{ch if ch != '$' else '$('}'")


def substitute(text, values):
    """Replaces %-names by `values[name](quote_state)`; other names are
    refused. A value gets the quote state it lands in so it can quote itself."""
    states = dict(scan(text))
    out, last = [], 0
    for match in SUBSTITUTION.finditer(text):
        state = states[match.start()]
        if state in ("'", "\\"):
            raise Unsupported(f"a RUN line has {match.group(0)} inside single quotes or escaped")
        name = match.group(1)
        if name not in values:
            raise Unsupported(f"a RUN line uses %{name}")
        out += [text[last:match.start()], values[name](state)]
        last = match.end()
    return "".join(out + [text[last:]])


def quoted(value):
    """A substitution of a literal string that is valid in either quote state."""
    def render(state):
        if state == '"':
            return re.sub(r'(["\\$`])', r"\\\1", value)
        return shlex.quote(value)
    return render


def variable(name):
    """A substitution by a shell variable, valid in either quote state."""
    return lambda state: "${%s}" % name if state == '"' else '"$%s"' % name


def words(command):
    try:
        return shlex.split(command)
    except ValueError as error:
        raise Unsupported(f"cannot parse a RUN line: {error}")


def program_of(pipeline_words):
    """The command a pipeline element runs, after `not` and `env` prefixes,
    and the environment variables it sets."""
    i, assigned = 0, []
    while i < len(pipeline_words):
        word = pipeline_words[i]
        if word == "not" or (word == "--crash" and i > 0 and pipeline_words[i - 1] == "not"):
            i += 1
        elif word == "env":
            i += 1
            while i < len(pipeline_words):
                if pipeline_words[i] == "-u":
                    i += 2
                elif re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", pipeline_words[i]):
                    assigned.append(pipeline_words[i].split("=", 1)[0])
                    i += 1
                else:
                    break
        else:
            return word, assigned
    raise Unsupported("a RUN line runs nothing after 'not'/'env'")


def add_compile(plan, command):
    if len(split_unquoted(command, "|")) > 1:
        raise Unsupported("a compile step pipes its output (checks diagnostics)")
    if any(w in (">", "2>", ">>", "2>>", "&>") or re.match(r"^[0-9]?>>?\S", w)
           for w in words(command)):
        raise Unsupported("a compile step redirects its output (checks diagnostics)")
    argv = words(command)
    outputs = [argv[i + 1] for i, w in enumerate(argv[:-1]) if w == "-o"]
    if len(outputs) != 1 or not outputs[0].startswith("%t"):
        raise Unsupported("a compile step does not write one %t program (-o %t...)")
    for match in SUBSTITUTION.finditer(command):
        if match.group(1) in ("ndev", "devices"):
            raise Unsupported(f"a compile step uses {match.group(0)}, which is known only when "
                              "the bundle runs")
    suffix = outputs[0][2:]
    if SUBSTITUTION.search(suffix) or not re.fullmatch(r"[A-Za-z0-9._-]*", suffix):
        raise Unsupported(f"a compile step writes {outputs[0]}")
    # Check the names now, so that an unknown one skips the test here rather
    # than failing at build time.
    substitute(command, {n: quoted("") for n in ("hompcc", "hompcxx", "s", "S", "t")})
    plan.compiles.append(command)
    plan.binaries.append(suffix)


def add_run(plan, command):
    for element in split_unquoted(command, "|"):
        argv = words(element)
        program, assigned = program_of(argv)
        for name in assigned:
            if name in UNPORTABLE_ENV:
                raise Unsupported(f"sets {name}: {UNPORTABLE_ENV[name]}")
        if program.startswith("%t"):
            continue
        if program.startswith("%"):
            raise Unsupported(f"a RUN line runs {program}")
        if program not in TOOLS:
            raise Unsupported(f"a RUN line runs '{program}', which the bundle does not carry")
        plan.tools.update(t for t in BUNDLED_TOOLS if t in argv)
    plan.runs.append(substitute(command, {"t": variable("T"), "s": variable("S"),
                                          "ndev": variable("NDEV"),
                                          "devices": variable("DEVICES"),
                                          "%": lambda state: "%"}))


def plan_test(text):
    """The Plan of a lit test's source text."""
    plan = Plan()
    try:
        plan.devices, plan.host_memory, found = conditions(text)
        if found:
            raise Unsupported(f"has {', '.join(found)}, which the bundle does not evaluate")
        commands = run_lines(text)
        if not commands:
            raise Unsupported("has no RUN line")
        for command in commands:
            check_operators(command)
            for part in split_unquoted(command, "&&"):
                if part.startswith(COMPILERS):
                    add_compile(plan, part)
                else:
                    add_run(plan, part)
        if not plan.compiles:
            raise Unsupported("compiles nothing with %hompcc or %hompcxx")
        if not plan.runs:
            raise Unsupported("runs nothing")
    except Unsupported as reason:
        return Plan(skip=str(reason))
    return plan


def compile_command(command, hompcc, hompcxx, archs, source, output_prefix):
    """The bash command of one compile step. `archs` (a --offload-arch list)
    is added unless the step names its own offload targets."""
    has_targets = re.search(r"(-fopenmp-targets|--offload-arch)\b", command)
    arch_flag = "" if has_targets else f" --offload-arch={archs}"

    def compiler(path):
        return lambda state: quoted(str(path))(state) + arch_flag

    return substitute(command, {
        "hompcc": compiler(hompcc), "hompcxx": compiler(hompcxx),
        "s": quoted(str(source)), "S": quoted(str(source.parent)),
        "t": quoted(str(output_prefix))})


def main():
    parser = argparse.ArgumentParser(description="Prints the bundle plan of lit tests.")
    parser.add_argument("--archs", default="sm_90,x86_64",
                        help="offload architectures of the compile commands shown")
    parser.add_argument("tests", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.tests:
        plan = plan_test(path.read_text())
        print(f"test {path.name}")
        if plan.skip:
            print(f"  skip: {plan.skip}")
            continue
        for command, suffix in zip(plan.compiles, plan.binaries):
            shown = compile_command(command, "hompcc", "hompc++", args.archs,
                                    Path(path.name), Path("bin") / f"{path.name}.tmp")
            print(f"  compile %t{suffix}: {shown}")
        if plan.devices:
            print(f"  needs: {plan.devices} devices")
        if plan.host_memory:
            print("  needs: devices that work on the host's memory")
        for run in plan.runs:
            print(f"  run: {run}")
        print(f"  tools: {' '.join(sorted(plan.tools)) or '-'}")


if __name__ == "__main__":
    main()
