// hompcc adds -fopenmp, the plugin, the pass, -ffp-contract=off, a default x86_64 offload target,
// homp.h's directory and, only when linking, libhomp with its rpaths; user flags pass through.
// RUN: %hompcc -show -O2 -DFOO=1 %s -o prog | FileCheck %s --check-prefix=LINK
// RUN: %hompcc -show -c %s | FileCheck %s --check-prefix=COMPILE
// RUN: %hompcc -show --offload-arch=sm_80 %s | FileCheck %s --check-prefix=NVPTX
// RUN: %hompcc -show --offload-arch=sm_80,gfx90a,x86_64 %s | FileCheck %s --check-prefix=FAT
// RUN: %hompcc -show --offload-arch=sm_80 --offload-arch x86_64 %s | FileCheck %s --check-prefix=SPLIT
// RUN: %hompcc -show --offload-arch sm_80 --offload-arch=gfx90a -c %s | FileCheck %s --check-prefix=SPLIT-GPU
// RUN: %hompcxx -show %s | FileCheck %s --check-prefix=CXX
// RUN: not %hompcc -show --offload-arch=sm_80,sm_90,x86_64 %s 2>&1 | FileCheck %s --check-prefix=TWO-NV
// RUN: %hompcc -show -fplugin=%homp_plugin -fpass-plugin=%homp_pass %s | FileCheck %s --check-prefix=ONCE
// RUN: %hompcc -show -fsyntax-only %s | FileCheck %s --check-prefix=SYNTAX
// RUN: %hompcc -show -fsyntax-only --offload-host-only %s | FileCheck %s --check-prefix=SYNTAX-HOST

// LINK: {{.*}}/clang -fopenmp -fplugin={{.*}}/homp.so -fpass-plugin={{.*}}/homp-pass.so -ffp-contract=off -idirafter {{.*}}/include -fopenmp-targets=x86_64-pc-linux-gnu -O2 -DFOO=1 {{.*}}hompcc-flags.c -o prog -L{{.*}}/lib -lhomp -Wl,-rpath,{{.*}}/lib -Wl,-rpath,/usr/lib/llvm-19/lib -Wl,--push-state,--as-needed -lm {{(-latomic )?}}-Wl,--pop-state{{$}}
// COMPILE: -fopenmp-targets=x86_64-pc-linux-gnu -c
// COMPILE-NOT: -lhomp
// NVPTX-NOT: x86_64-pc-linux-gnu
// NVPTX: --cuda-path=/usr/local/cuda --offload-arch=sm_80
// FAT: -fopenmp-targets=nvptx64-nvidia-cuda,amdgcn-amd-amdhsa,x86_64-pc-linux-gnu -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_80 -Xopenmp-target=amdgcn-amd-amdhsa -march=gfx90a
// Several --offload-arch flags are one list, where the first stood.
// SPLIT: -fopenmp-targets=nvptx64-nvidia-cuda,x86_64-pc-linux-gnu -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_80 {{.*}}hompcc-flags.c
// SPLIT-NOT: --offload-arch
// SPLIT-GPU: --offload-arch=sm_80,gfx90a -c {{.*}}hompcc-flags.c
// CXX: {{.*}}/clang++ -fopenmp
// TWO-NV: hompcc: error: --offload-arch with x86_64 allows one NVIDIA architecture (sm_80, sm_90): clang 19 offloads to x86_64 only through -fopenmp-targets, which takes one architecture per GPU; build the GPU architectures without x86_64 (--offload-arch=sm_80,sm_90), or one program per architecture
// ONCE: -fplugin={{[^ ]*}}/homp.so -fpass-plugin={{[^ ]*}}/homp-pass.so -ffp-contract=off -idirafter {{[^ ]*}}/include -fopenmp-targets
// ONCE-NOT: homp.so
// The host's syntax check, then the targets' (homp's errors printed once).
// SYNTAX: -fsyntax-only {{.*}}hompcc-flags.c --offload-host-only && {{.*}}/clang {{.*}}-fsyntax-only {{.*}}hompcc-flags.c --offload-device-only{{$}}
// SYNTAX-HOST: -fsyntax-only --offload-host-only {{.*}}hompcc-flags.c{{$}}

int main(void) { return 0; }
