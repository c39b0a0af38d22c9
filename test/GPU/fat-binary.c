// One hompcc compile builds nvptx (sm_80), amdgcn (gfx90a) and x86_64 images
// into one binary; it runs on the x86_64 offload devices (GPUs, when
// present, are used too).
// REQUIRES: nvptx-toolchain, amdgcn-toolchain
// RUN: %hompcc -O2 -fopenmp-targets=nvptx64-nvidia-cuda,amdgcn-amd-amdhsa,x86_64-pc-linux-gnu -Xopenmp-target=nvptx64-nvidia-cuda -march=sm_80 -Xopenmp-target=amdgcn-amd-amdhsa -march=gfx90a %S/../Driver/Inputs/devices.c -o %t
// RUN: llvm-objdump --offloading %t | FileCheck %s --check-prefix=IMAGES
// RUN: %t | FileCheck %s --check-prefix=EXEC
// The --offload-arch spelling, x86_64 included, gives the same images.
// RUN: %hompcc -O2 --offload-arch=sm_80,gfx90a,x86_64 %S/../Driver/Inputs/devices.c -o %t.arch
// RUN: llvm-objdump --offloading %t.arch | FileCheck %s --check-prefix=IMAGES
// RUN: %t.arch | FileCheck %s --check-prefix=EXEC

// GPU architectures alone need no flag beyond --offload-arch: hompcc finds
// the ROCm device libraries, CUDA and LLVM's device runtimes itself.
// RUN: %hompcc -O2 --offload-arch=sm_80,gfx90a %S/../Driver/Inputs/devices.c -o %t.gpu
// RUN: llvm-objdump --offloading %t.gpu | FileCheck %s --check-prefix=GPU
// GPU-DAG: arch            sm_80
// GPU-DAG: arch            gfx90a
// GPU-NOT: triple          x86_64-pc-linux-gnu

// IMAGES-DAG: triple          x86_64-pc-linux-gnu
// IMAGES-DAG: arch            sm_80
// IMAGES-DAG: triple          nvptx64-nvidia-cuda
// IMAGES-DAG: arch            gfx90a
// IMAGES-DAG: triple          amdgcn-amd-amdhsa
// EXEC: devices={{[4-9]}} ok
