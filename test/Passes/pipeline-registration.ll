; The pass is registered by name for -passes= and at the pipeline-start
; extension point, once even when the plugin is named twice.
; RUN: %opt_homp -passes=homp -pass-remarks-analysis=homp -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt_homp -passes='default<O2>' -pass-remarks-analysis=homp -disable-output %s 2>&1 | FileCheck %s
; RUN: %opt_homp -load-pass-plugin=%homp_pass -passes='default<O0>' -pass-remarks-analysis=homp -disable-output %s 2>&1 | FileCheck %s
; CHECK-COUNT-1: homp pass: host module
; CHECK-NOT: homp pass

define void @f() {
  ret void
}
