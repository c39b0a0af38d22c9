# The homp lit suite. Tools come from the LLVM homp was built against;
# substitutions hide the paths of homp's libraries and wrappers.
import json
import os
import shutil
import subprocess

import lit.formats
import lit.util

config.name = "homp"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.homp_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [os.path.join(config.homp_obj_root, "bin"), config.llvm_tools_dir,
     config.environment.get("PATH", "")])
# Runtime tests must not inherit the developer's homp or offload settings.
for var in list(os.environ):
    if var.startswith(("HOMP_", "LIBOMPTARGET_", "OMP_")):
        config.environment.pop(var, None)
config.environment["OMP_NUM_THREADS"] = "2"
# AUTO keeps its profiles across runs by default; every run of a test starts
# anew (profiles.c tests the default itself).
config.environment["HOMP_PROFILES"] = "off"
# Calibration caches its machine model under XDG_CACHE_HOME: the tests' own,
# never the developer's.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "xdg-cache")

# The offload devices `device(*)` gives a test program: those homp-info lists
# (built for x86_64 offload, as hompcc builds by default: four CPU devices),
# or the first N of them with --param homp_devices=0,1,...,N-1, which the
# tests then run under as HOMP_DEVICES (with the host, which a device list
# may still name), as on a machine with N devices. RUN lines get N as %ndev
# (FileCheck -D#NDEV=%ndev) and as homp writes it, "4 devices" or "1 device",
# as %devices (-DDEVICES="%devices"); a test whose program needs N devices
# says REQUIRES: devices-N (N or more). What holds only on the four CPU
# devices (each device's share in HOMP_INFO's table) has a check prefix of
# its own for 4 devices: --check-prefixes=INFO,INFO-%ndev
# --allow-unused-prefixes, INFO-4 lines. utils/gpu-bundle/runlines.py knows
# the substitutions and the features.
def offload_devices():
    """(id, type) of each offload device homp-info lists."""
    info = os.path.join(config.homp_obj_root, "bin", "homp-info")
    try:
        out = subprocess.run([info, "--json"], capture_output=True, text=True,
                             env=config.environment, timeout=60)
        devices = json.loads(out.stdout)["devices"]
        return [(d["id"], d["type"]) for d in devices if d["type"] != "HOST"]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError) as error:
        lit_config.fatal(f"cannot list the offload devices with '{info} --json': {error}")


devices = offload_devices()
ndev = len(devices)
if "homp_devices" in lit_config.params:
    asked = lit_config.params["homp_devices"]
    ids = [item.strip() for item in asked.split(",")]
    if ids != [str(i) for i in range(len(ids))] or len(ids) > ndev:
        lit_config.fatal(f"--param homp_devices='{asked}' must name the first devices, "
                         f"0 to N-1, of the {ndev} homp-info lists")
    ndev = len(ids)
    config.environment["HOMP_DEVICES"] = ",".join(ids) + ",host"
config.substitutions += [("%ndev", str(ndev)),
                         ("%devices", f"{ndev} device" + ("s" if ndev != 1 else ""))]
config.available_features.update(f"devices-{n}" for n in range(1, ndev + 1))
# Every offload device the tests run on works on the host's memory (CPU
# offload devices do; a GPU may not): REQUIRES: host-memory.
if all(kind == "CPU" for _, kind in devices[:ndev]):
    config.available_features.add("host-memory")

# In a HOMP_SANITIZER=thread build, libomp tells TSan about its barriers,
# tasks and locks through Archer, its OMPT tool; without it every OpenMP
# synchronisation looks like a race. The *SAN_OPTIONS pass through lit
# (utils/sanitizers/check.sh sets them).
if config.homp_sanitizer == "thread":
    config.environment["OMP_TOOL_LIBRARIES"] = os.path.join(config.llvm_lib_dir, "libarcher.so")
if config.homp_sanitizer:
    config.available_features.add(config.homp_sanitizer + "-sanitizer")

# Several ranks of an MPI job on this machine (Runtime/mpi): REQUIRES: mpi.
# %mpirun starts them oversubscribed (2 cores), as root where CI runs so,
# over shared memory without the single-copy mechanism containers lack.
if config.homp_have_mpi == "ON" and config.homp_mpiexec:
    config.available_features.add("mpi")
    mpirun = [config.homp_mpiexec, "--oversubscribe", "--bind-to", "none"]
    config.environment["OMPI_MCA_btl_vader_single_copy_mechanism"] = "none"
    config.environment["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    if os.geteuid() == 0:
        config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    for name in ("HOME", "TMPDIR"):
        if name in os.environ:
            config.environment[name] = os.environ[name]
    config.substitutions.append(("%mpirun", " ".join(mpirun)))

lib = os.path.join(config.homp_obj_root, "lib")
tools = config.llvm_tools_dir
clang = os.path.join(tools, "clang")
x86 = "-fopenmp-targets=x86_64-pc-linux-gnu"

# Linking libhomp with raw clang; in a HOMP_SANITIZER build, the sanitizer's
# runtime comes first (as hompcc does).
libhomp = f"-L{lib} -lhomp -Wl,-rpath,{lib}"
if config.homp_sanitizer_runtime:
    libhomp = (f"{config.homp_sanitizer_runtime} {libhomp} "
               f"-Wl,-rpath,{os.path.dirname(config.homp_sanitizer_runtime)}")

config.substitutions += [
    ("%libhomp", libhomp),
    ("%homp_plugin", os.path.join(lib, "homp.so")),
    ("%homp_pass", os.path.join(lib, "homp-pass.so")),
    ("%homp_lib", lib),
    ("%homp_src", config.homp_src_root),
    ("%homp_build", config.homp_obj_root),
    ("%hompcc", os.path.join(config.homp_obj_root, "bin", "hompcc")),
    ("%hompcxx", os.path.join(config.homp_obj_root, "bin", "hompc++")),
    # cc1 with the plugin, for -verify and AST/IR checks of one compilation.
    ("%clang_cc1_homp", f"{clang} -cc1 -load {lib}/homp.so -fopenmp"),
    ("%clang_homp", f"{clang} -fopenmp {x86} -fplugin={lib}/homp.so -fpass-plugin={lib}/homp-pass.so"),
    ("%clangxx_homp", f"{clang}++ -fopenmp {x86} -fplugin={lib}/homp.so -fpass-plugin={lib}/homp-pass.so"),
    ("%clang_x86", f"{clang} -fopenmp {x86}"),
    ("%clang", clang),
    ("%opt_homp", f"{tools}/opt -load-pass-plugin={lib}/homp-pass.so"),
    ("%cmake", config.cmake_command),
    ("%python", lit_config.params.get("python", "python3")),
    ("%rocm_device_libs", config.homp_rocm_device_lib_path),
    ("%llvm_lib", config.llvm_lib_dir),
    ("%llvm_tools", tools),
]

gpu_toolchains = (os.path.isdir(config.homp_rocm_device_lib_path) and
                  os.path.isfile(os.path.join(config.homp_cuda_path, "bin", "ptxas")))
compare_ir = (f"%python {config.homp_src_root}/utils/lit/compare-ir.py --clang {clang} "
              f"--plugin {lib}/homp.so --pass {lib}/homp-pass.so "
              f"--llvm-lib {config.llvm_lib_dir} --rocm {config.homp_rocm_device_lib_path}"
              + (" --gpu" if gpu_toolchains else ""))
config.substitutions.insert(0, ("%compare_ir", compare_ir))

# Features: which kinds of device the probe kernel was built for (the
# libraries homp-probe-*), which offload toolchains can build images here,
# and whether a GPU is present to run them.
for kind in filter(None, config.homp_probe_kinds.split(";")):
    config.available_features.add("probe-" + kind)
if os.path.isdir(config.homp_rocm_device_lib_path):
    config.available_features.add("amdgcn-toolchain")
if os.path.isfile(os.path.join(config.homp_cuda_path, "bin", "ptxas")) or shutil.which("ptxas"):
    config.available_features.add("nvptx-toolchain")
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0:
            config.available_features.add("nvidia-gpu")
    except (OSError, subprocess.SubprocessError):
        pass
if os.path.exists("/dev/kfd"):
    config.available_features.add("amd-gpu")
