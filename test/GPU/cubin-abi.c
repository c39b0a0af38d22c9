// CUDA 13 writes cubins in a new ELF ABI (OS/ABI 0x41, version 8, the SM in
// bits 8-15 of e_flags). LLVM 19's CUDA plugin reads the SM from bits 0-7,
// rejects the image and sees no GPU; seen on an H200, where every program
// ran on the host until hompcc relabelled its images (docs/Platforms.md).
// hompcc runs homp-cubin-abi on every program it links for an NVIDIA GPU.
// REQUIRES: nvptx-toolchain
// RUN: rm -rf "%t dir" && mkdir -p "%t dir"
// RUN: %hompcc -O2 --offload-arch=sm_90 %S/../Driver/Inputs/devices.c -o "%t dir/sm90"
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/sm90" | FileCheck %s --check-prefix=SM90
// SM90: sm90: image at {{0x[0-9a-f]+}}: OS/ABI 0x33, ABI version 7, e_flags 0x5a055a, sm_90
// SM90-NOT: image

// -oFILE, a fat binary, another SM; the x86_64 image is not touched, and
// the program runs on the x86_64 devices.
// RUN: cd "%t dir" && %hompcc -O2 --offload-arch=sm_80,x86_64 %S/../Driver/Inputs/devices.c -ofat
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/fat" | FileCheck %s --check-prefix=SM80
// SM80: fat: image at {{0x[0-9a-f]+}}: OS/ABI 0x33, ABI version 7, e_flags 0x500550, sm_80
// SM80-NOT: image
// RUN: "%t dir/fat" | FileCheck %s --check-prefix=EXEC
// EXEC: devices={{[4-9]}} ok

// clang alone keeps ptxas's labels; the tool gives the labels of hompcc's
// link, and a second run changes nothing.
// RUN: %hompcc -show -O2 --offload-arch=sm_90 %S/../Driver/Inputs/devices.c -o "%t dir/plain" > "%t dir/cmd"
// RUN: cd "%t dir" && eval "LIBRARY_PATH=%llvm_lib $(cat cmd)"
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/plain" | FileCheck %s --check-prefix=NEW
// NEW: plain: image at {{0x[0-9a-f]+}}: OS/ABI 0x41, ABI version 8, e_flags {{0x[0-9a-f]+}}, sm_90
// RUN: cp "%t dir/plain" "%t dir/as-ptxas-wrote"
// RUN: %homp_build/bin/homp-cubin-abi "%t dir/plain" && cp "%t dir/plain" "%t dir/once"
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/plain" | FileCheck %s --check-prefix=RELABELLED
// RELABELLED: plain: image at {{0x[0-9a-f]+}}: OS/ABI 0x33, ABI version 7, e_flags 0x5a055a, sm_90
// RUN: %homp_build/bin/homp-cubin-abi "%t dir/plain" && cmp "%t dir/plain" "%t dir/once"

// A command that links nothing (-###, --version) leaves a program already
// there alone, relabelled or not.
// RUN: mkdir "%t dir/none" && cp "%t dir/as-ptxas-wrote" "%t dir/none/a.out"
// RUN: cd "%t dir/none" && %hompcc --offload-arch=sm_90 -### %S/../Driver/Inputs/devices.c 2> /dev/null && %hompcc --offload-arch=sm_90 --version > /dev/null
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/none/a.out" | FileCheck %s --check-prefix=UNTOUCHED
// UNTOUCHED: a.out: image at {{0x[0-9a-f]+}}: OS/ABI 0x41, ABI version 8

// Objects compiled for a GPU (-c) and linked by hompcc alone; --output;
// --offload-arch given twice (x86_64 in the second) builds both images.
// RUN: cd "%t dir" && %hompcc -c --offload-arch=sm_90,x86_64 %S/../Driver/Inputs/devices.c -o parts.o
// RUN: cd "%t dir" && %hompcc parts.o -o joined && %homp_build/bin/homp-cubin-abi --list joined | FileCheck %s --check-prefix=JOINED
// JOINED: joined: image at {{0x[0-9a-f]+}}: OS/ABI 0x33, ABI version 7, e_flags 0x5a055a, sm_90
// RUN: cd "%t dir" && "%t dir/joined" | FileCheck %s --check-prefix=EXEC
// RUN: cd "%t dir" && %hompcc --offload-arch=sm_90 --offload-arch=x86_64 %S/../Driver/Inputs/devices.c --output=long
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/long" | FileCheck %s --check-prefix=LONG
// RUN: llvm-objdump --offloading "%t dir/long" | FileCheck %s --check-prefix=LONG-IMAGES
// LONG: long: image at {{0x[0-9a-f]+}}: OS/ABI 0x33, ABI version 7, e_flags 0x5a055a, sm_90
// LONG-IMAGES-DAG: arch            sm_90
// LONG-IMAGES-DAG: triple          x86_64-pc-linux-gnu

// A mistyped option is an error before any file is touched; directories
// and devices are not read.
// RUN: cp "%t dir/as-ptxas-wrote" "%t dir/typo" && not %homp_build/bin/homp-cubin-abi --lsit "%t dir/typo" 2>&1 | FileCheck %s --check-prefix=TYPO
// TYPO: homp-cubin-abi: error: unknown option '--lsit'
// RUN: %homp_build/bin/homp-cubin-abi --list "%t dir/typo" | FileCheck %s --check-prefix=TYPO-UNTOUCHED
// TYPO-UNTOUCHED: typo: image at {{0x[0-9a-f]+}}: OS/ABI 0x41, ABI version 8
// RUN: not %homp_build/bin/homp-cubin-abi "%t dir" 2>&1 | FileCheck %s --check-prefix=DIR
// DIR: homp-cubin-abi: error: '{{.*}} dir' is not a regular file

// Files without a CUDA image are left alone; a missing one is an error.
// RUN: %homp_build/bin/homp-cubin-abi --list %s | FileCheck %s --check-prefix=NONE
// NONE: cubin-abi.c: no CUDA image
// RUN: not %homp_build/bin/homp-cubin-abi "%t dir/missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: homp-cubin-abi: error: cannot read '{{.*}}missing': No such file or directory

// Without -ffp-contract on the command line, hompcc turns contraction off
// (every device rounds as the host does); the user's own choice comes later
// and wins.
// RUN: %hompcc -show -O2 -ffp-contract=fast %s | FileCheck %s --check-prefix=CONTRACT
// CONTRACT: -ffp-contract=off {{.*}}-ffp-contract=fast
