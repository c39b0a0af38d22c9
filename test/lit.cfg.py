# The homp lit suite. Tools come from the LLVM homp was built against;
# substitutions hide the paths of homp's libraries and wrappers.
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
# Calibration caches its machine model under XDG_CACHE_HOME: the tests' own,
# never the developer's.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root,
                                                    "xdg-cache")
# In a HOMP_SANITIZER=thread build, libomp tells TSan about its barriers,
# tasks and locks through Archer, its OMPT tool; without it every OpenMP
# synchronisation looks like a race. The *SAN_OPTIONS pass through lit
# (utils/sanitizers/check.sh sets them).
if config.homp_sanitizer == "thread":
    config.environment["OMP_TOOL_LIBRARIES"] = os.path.join(config.llvm_lib_dir, "libarcher.so")
if config.homp_sanitizer:
    config.available_features.add(config.homp_sanitizer + "-sanitizer")

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

# Features: which offload toolchains can build images here, and whether a
# GPU is present to run them.
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
