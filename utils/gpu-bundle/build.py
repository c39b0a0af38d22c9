#!/usr/bin/env python3
"""Builds the self-contained GPU test bundle (`make gpu-bundle`).

Compiles every test/Runtime program (as its RUN lines say, see runlines.py)
and every benchmark (benchmarks/NAME/NAME.c or benchmarks/apps/NAME/NAME.c, with bundle.runs beside it)
as fat binaries for the given offload architectures, and, when those mix GPU
and x86_64 architectures, once more for the GPU architectures alone. Packs
them with run.sh, FileCheck and `not`, and every shared library they load
except glibc's own (libhomp, libomp, libomptarget, libLLVM and everything
those need) into one zstd-compressed tar that unpacks into homp-gpu-bundle/.
Programs get an rpath of $ORIGIN/../lib, so nothing outside the bundle but
glibc and the GPU driver is loaded.

A test that does not compile is recorded in the bundle (run.sh reports it
as failed); a test whose RUN lines cannot be carried is recorded as skipped
with the reason; a test that needs N devices (REQUIRES: devices-N) has N in
its folder's `devices`, and run.sh skips it where fewer are found.
Infrastructure that does not build, a missing library or an archive over
the size limit is an error.

usage: build.py [--build DIR] [--archs LIST] [--output FILE] [--limit-mib N]
"""
import argparse
import concurrent.futures
import datetime
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import shlex

import runlines

SOURCE_ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUNDLE_NAME = "homp-gpu-bundle"
X86_ARCHS = {"x86_64", "x86-64", "host"}
TEST_SUFFIXES = (".c", ".cpp", ".ll", ".test")  # lit's, as in test/lit.cfg.py
BENCHMARK_SUFFIXES = {".c": "hompcc", ".cpp": "hompc++"}
# glibc's own libraries: the target machine's are used, never bundled.
GLIBC = {"linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6",
         "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1",
         "libresolv.so.2", "libanl.so.1", "libmvec.so.1", "libnsl.so.1",
         "libBrokenLocale.so.1"}


def fail(message):
    sys.exit(f"gpu-bundle: error: {message}")


def note(message):
    print(f"gpu-bundle: {message}", flush=True)


class Job:
    """One compilation: a bash command whose output goes to a log file."""

    def __init__(self, what, command, log, required):
        self.what, self.command, self.log, self.required = what, command, log, required
        self.ok, self.seconds = False, 0.0

    def run(self):
        start = time.monotonic()
        with open(self.log, "w") as log:
            log.write(f"$ {self.command}\n")
            log.flush()
            try:
                result = subprocess.run(["bash", "-c", "set -o pipefail; " + self.command],
                                        stdout=log, stderr=subprocess.STDOUT, timeout=900)
                self.ok = result.returncode == 0
            except subprocess.TimeoutExpired:
                log.write("gpu-bundle: compiling took more than 900 s\n")
        self.seconds = time.monotonic() - start
        if not self.ok:
            self.log.with_suffix(".failed").touch()
        return self


def variants(archs):
    """(name, binary folder, --offload-arch list) of each build of a program."""
    found = [("fat", "bin", archs)]
    listed = archs.split(",")
    gpu = [a for a in listed if a not in X86_ARCHS]
    if gpu and len(gpu) < len(listed):
        found.append(("gpu", "bin-gpu", ",".join(gpu)))
    return found


def wrapper_command(compiler, archs, flags, source, output):
    quoted = [str(x) for x in (compiler, f"--offload-arch={archs}", *flags, source, "-o", output)]
    return " ".join(shlex.quote(x) for x in quoted)


def plan_tests(stage, build, builds, tools):
    """Writes each test's plan into the stage; returns the compile jobs."""
    jobs, skipped = [], 0
    sources = sorted(p for p in (SOURCE_ROOT / "test" / "Runtime").iterdir()
                     if p.suffix in TEST_SUFFIXES)
    for source in sources:
        folder = stage / "tests" / source.name
        folder.mkdir(parents=True)
        shutil.copy(source, folder / source.name)
        plan = runlines.plan_test(source.read_text())
        if plan.skip:
            (folder / "skip").write_text(plan.skip + "\n")
            skipped += 1
            continue
        tools.update(plan.tools)
        (folder / "steps").write_text("".join(r + "\n" for r in plan.runs))
        (folder / "binaries").write_text("".join(f"%t{s}\n" for s in plan.binaries))
        if plan.devices:
            (folder / "devices").write_text(f"{plan.devices}\n")
        if plan.host_memory:
            (folder / "host-memory").write_text("")
        for variant, bindir, archs in builds:
            prefix = stage / bindir / f"{source.name}.tmp"
            commands = [runlines.compile_command(c, build / "bin" / "hompcc",
                                                 build / "bin" / "hompc++", archs,
                                                 source, prefix)
                        for c in plan.compiles]
            jobs.append(Job(f"{source.name} ({variant})", " && ".join(commands),
                            folder / f"compile.{variant}.log", required=False))
    note(f"{len(sources)} tests in test/Runtime, {skipped} skipped")
    return jobs


def plan_benchmarks(stage, build, builds):
    jobs, names = [], []
    root = SOURCE_ROOT / "benchmarks"
    folders = [p for p in root.iterdir() if p.is_dir()]
    folders += [p for p in (root / "apps").iterdir() if p.is_dir()]
    for folder in sorted(folders, key=lambda p: p.name):
        sources = [folder / (folder.name + s) for s in BENCHMARK_SUFFIXES]
        sources = [s for s in sources if s.exists()]
        if not sources:
            continue
        compiler = build / "bin" / BENCHMARK_SUFFIXES[sources[0].suffix]
        runs = folder / "bundle.runs"
        if not runs.exists():
            fail(f"{runs.relative_to(SOURCE_ROOT)} is missing: list there the "
                 f"arguments of each run of benchmark {folder.name} (see "
                 f"benchmarks/axpy/bundle.runs)")
        out = stage / "benchmarks" / folder.name
        out.mkdir(parents=True)
        shutil.copy(runs, out / "runs")
        names.append(folder.name)
        for variant, bindir, archs in builds:
            command = wrapper_command(compiler, archs, ["-O3"], sources[0],
                                     stage / bindir / f"bench-{folder.name}")
            jobs.append(Job(f"benchmark {folder.name} ({variant})", command,
                            out / f"compile.{variant}.log", required=False))
    note(f"benchmarks: {' '.join(names) or 'none'}")
    return jobs


def plan_helpers(stage, build, builds):
    """The device probe, the demo (per-device shares under HOMP_INFO) and
    homp-info (the calibrated machine model: the GPU's copies and the probe
    kernel's rate on it)."""
    jobs = []
    logs = stage / "logs"
    logs.mkdir()
    for name, source in (("devices", HERE / "devices.c"),
                         ("demo", SOURCE_ROOT / "examples" / "demo.c"),
                         ("homp-info", SOURCE_ROOT / "utils" / "homp-info.c")):
        for variant, bindir, archs in builds:
            command = wrapper_command(build / "bin" / "hompcc", archs, ["-O2"], source,
                                     stage / bindir / name)
            jobs.append(Job(f"{name} ({variant})", command,
                            logs / f"{name}.{variant}.log", required=True))
    return jobs


def compile_all(jobs, parallel):
    with concurrent.futures.ThreadPoolExecutor(max_workers=parallel) as pool:
        for job in pool.map(Job.run, jobs):
            state = "ok" if job.ok else "FAILED (see " + str(job.log) + ")"
            note(f"compiled {job.what} in {job.seconds:.1f} s: {state}")
            if job.required and not job.ok:
                sys.stdout.write(Path(job.log).read_text()[-3000:])
                fail(f"{job.what} did not compile")
    failed = [j.what for j in jobs if not j.ok]
    if failed:
        note(f"did not compile (run.sh will report them as failed): {', '.join(failed)}")


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def elf_files(stage):
    for folder in ("bin", "bin-gpu", "tools", "lib"):
        path = stage / folder
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.is_file() and is_elf(p))


def shared_libraries(path):
    """{soname: resolved path or None} of what `path` loads, glibc excluded."""
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        fail(f"ldd {path} failed: {out.stderr.strip()}")
    found = {}
    for line in out.stdout.splitlines():
        match = re.match(r"\s*(\S+) => (not found|(\S+) \(0x)", line)
        if match and match.group(1) not in GLIBC:
            found[match.group(1)] = match.group(3)
    return found


def bundle_libraries(stage, build):
    lib = stage / "lib"
    lib.mkdir()
    # libhomp loads its probe kernels, one library per kind of device, from
    # its own folder (Calibrate.cpp); ldd does not see them.
    probes = sorted((build / "lib").glob("libhomp-probe-*.so"))
    if not probes:
        fail(f"{build}/lib has no libhomp-probe-*.so: run 'make build' first")
    for probe in probes:
        shutil.copy(probe, lib / probe.name)
    for binary in list(elf_files(stage)):
        for soname, path in shared_libraries(binary).items():
            if path is None:
                fail(f"{binary.name} needs {soname}, which ldd does not find")
            if not (lib / soname).exists():
                shutil.copy(os.path.realpath(path), lib / soname)


def set_rpaths(stage):
    """Programs search ../lib (as DT_RPATH, which also covers the libraries
    they load that have no search path of their own); libraries that have a
    search path get $ORIGIN instead."""
    def patchelf(*args):
        out = subprocess.run(["patchelf", *map(str, args)], capture_output=True, text=True)
        if out.returncode != 0:
            fail(f"patchelf {' '.join(map(str, args))}: {out.stderr.strip()}")
        return out.stdout.strip()

    for path in elf_files(stage):
        if path.parent.name == "lib":
            if patchelf("--print-rpath", path):
                patchelf("--set-rpath", "$ORIGIN", path)
        else:
            patchelf("--force-rpath", "--set-rpath", "$ORIGIN/../lib", path)


def copy_unpacker(folder):
    """zstd with its libraries, for machines that lack it, beside the archive."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    zstd = shutil.which("zstd")
    shutil.copy(os.path.realpath(zstd), folder / "zstd")
    for soname, path in shared_libraries(folder / "zstd").items():
        shutil.copy(os.path.realpath(path), folder / soname)
    subprocess.run(["patchelf", "--force-rpath", "--set-rpath", "$ORIGIN", str(folder / "zstd")],
                   check=True)


def check_self_contained(stage):
    """ldd of each program (which follows its rpath through every library it
    loads) must find everything but glibc in lib/."""
    lib = (stage / "lib").resolve()
    for path in elf_files(stage):
        if path.parent.name == "lib":
            continue
        for soname, resolved in shared_libraries(path).items():
            if resolved is None or Path(resolved).resolve().parent != lib:
                fail(f"{path.relative_to(stage)}: {soname} resolves to {resolved}, "
                     f"outside the bundle")


def glibc_needed(stage):
    """The newest GLIBC_x.y symbol version any bundled file needs."""
    newest = (2, 0)
    for path in elf_files(stage):
        out = subprocess.run(["readelf", "--version-info", "-W", str(path)],
                             capture_output=True, text=True).stdout
        for version in re.findall(r"Name: GLIBC_(\d+(?:\.\d+)+)", out):
            newest = max(newest, tuple(int(x) for x in version.split(".")))
    return ".".join(map(str, newest))


def write_manifest(stage, archs, builds, build):
    def output(*cmd):
        result = subprocess.run(cmd, capture_output=True, text=True, cwd=SOURCE_ROOT)
        return result.stdout.strip().splitlines()[0] if result.returncode == 0 else "unknown"

    clang = output(str(build / "bin" / "hompcc"), "--version")
    lines = {
        "built": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "commit": output("git", "describe", "--always", "--dirty"),
        "build machine": output("uname", "-srm"),
        "compiler": clang,
        "offload archs": archs,
        "gpu-only archs": builds[1][2] if len(builds) > 1 else "-",
        "glibc needed": glibc_needed(stage),
    }
    (stage / "bundle.txt").write_text("".join(f"{k}: {v}\n" for k, v in lines.items()))


def pack(stage, output, limit_mib, parallel):
    partial = output.with_name(output.name + ".partial")
    command = (f"tar -C {shlex.quote(str(stage.parent))} -cf - {BUNDLE_NAME} | "
               f"zstd -19 --long=27 -T{parallel} -q -f -o {shlex.quote(str(partial))}")
    if subprocess.run(["bash", "-o", "pipefail", "-c", command]).returncode != 0:
        fail("packing the bundle failed")
    size = partial.stat().st_size
    if size > limit_mib * 1024 * 1024:
        partial.unlink()
        fail(f"the bundle is {size / 2**20:.1f} MiB, over the {limit_mib} MiB limit")
    partial.replace(output)
    return size


def main():
    parser = argparse.ArgumentParser(description="Builds the GPU test bundle.")
    parser.add_argument("--build", default="build", type=Path)
    parser.add_argument("--archs", default=os.environ.get("HOMP_BUNDLE_ARCHS") or "sm_90,x86_64")
    parser.add_argument("--output", type=Path)
    parser.add_argument("--limit-mib", type=float, default=56)
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-19/bin", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    build = args.build.resolve()
    output = (args.output or build / "gpu-bundle.tar.zst").resolve()

    if not (build / "bin" / "hompcc").exists():
        fail(f"{build}/bin/hompcc is missing: run 'make build' first")
    for tool in ("zstd", "patchelf", "ldd", "readelf", "tar"):
        if not shutil.which(tool):
            fail(f"'{tool}' is not installed (utils/setup.sh installs it)")

    start = time.monotonic()
    stage = build / "gpu-bundle" / BUNDLE_NAME
    shutil.rmtree(stage.parent, ignore_errors=True)
    stage.mkdir(parents=True)
    builds = variants(args.archs)
    for _, bindir, _ in builds:
        (stage / bindir).mkdir()
    note(f"offload archs {args.archs}; builds: "
         + ", ".join(f"{v} ({a}) in {d}/" for v, d, a in builds))

    tools = {"FileCheck", "not"}
    jobs = plan_tests(stage, build, builds, tools)
    jobs += plan_benchmarks(stage, build, builds)
    jobs += plan_helpers(stage, build, builds)
    compile_all(jobs, args.jobs)

    (stage / "tools").mkdir()
    for tool in sorted(tools):
        shutil.copy(args.llvm_bin / tool, stage / "tools" / tool)
    shutil.copy(HERE / "run.sh", stage / "run.sh")
    (stage / "run.sh").chmod(0o755)
    bundle_libraries(stage, build)
    set_rpaths(stage)
    check_self_contained(stage)
    write_manifest(stage, args.archs, builds, build)
    note(f"packing {output.name} (zstd -19, takes a minute or two)")
    size = pack(stage, output, args.limit_mib, args.jobs)
    copy_unpacker(output.parent / "gpu-bundle-zstd")
    note(f"{output}: {size / 2**20:.1f} MiB (limit {args.limit_mib:g} MiB), "
         f"built in {time.monotonic() - start:.0f} s; zstd for machines without it: "
         f"{output.parent / 'gpu-bundle-zstd'}/zstd")


if __name__ == "__main__":
    main()
