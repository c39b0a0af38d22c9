; A host module without homp markers (clang's output for a standard
; target teams distribute parallel for) is left exactly as it was, and the
; pass says it ran on a host module.
; RUN: %opt_homp -passes=homp -pass-remarks-analysis=homp -S %s -o %t.homp.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: opt -S %s -o %t.ref.ll
; RUN: diff %t.ref.ll %t.homp.ll
; REMARK: remark: {{.*}}homp pass: host module {{.*}}: 0 markers, 0 launches redirected, 0 data calls redirected, 0 host thunks

source_filename = "plain.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
%struct.__tgt_offload_entry = type { ptr, ptr, i64, i32, i32 }
%struct.__tgt_kernel_arguments = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.__omp_offloading_fe00_a72183_f_l2.region_id = weak constant i8 0
@.offload_sizes = private unnamed_addr constant [2 x i64] [i64 4, i64 0]
@.offload_maptypes = private unnamed_addr constant [2 x i64] [i64 800, i64 35]
@.offloading.entry_name = internal unnamed_addr constant [34 x i8] c"__omp_offloading_fe00_a72183_f_l2\00"
@.offloading.entry.__omp_offloading_fe00_a72183_f_l2 = weak constant %struct.__tgt_offload_entry { ptr @.__omp_offloading_fe00_a72183_f_l2.region_id, ptr @.offloading.entry_name, i64 0, i32 0, i32 0 }, section "omp_offloading_entries", align 1

; Function Attrs: noinline nounwind uwtable
define dso_local void @f(ptr noundef %0, i32 noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i64, align 8
  %9 = alloca [2 x ptr], align 8
  %10 = alloca [2 x ptr], align 8
  %11 = alloca [2 x ptr], align 8
  %12 = alloca [2 x i64], align 8
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca %struct.__tgt_kernel_arguments, align 8
  store ptr %0, ptr %4, align 8
  store i32 %1, ptr %5, align 4
  store i32 %2, ptr %6, align 4
  %17 = load i32, ptr %6, align 4
  store i32 %17, ptr %7, align 4
  %18 = load i32, ptr %5, align 4
  store i32 %18, ptr %8, align 4
  %19 = load i64, ptr %8, align 8
  %20 = load ptr, ptr %4, align 8
  %21 = load ptr, ptr %4, align 8
  %22 = load ptr, ptr %4, align 8
  %23 = getelementptr inbounds double, ptr %22, i64 0
  %24 = load i32, ptr %5, align 4
  %25 = sext i32 %24 to i64
  %26 = mul nuw i64 %25, 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %12, ptr align 8 @.offload_sizes, i64 16, i1 false)
  %27 = getelementptr inbounds [2 x ptr], ptr %9, i32 0, i32 0
  store i64 %19, ptr %27, align 8
  %28 = getelementptr inbounds [2 x ptr], ptr %10, i32 0, i32 0
  store i64 %19, ptr %28, align 8
  %29 = getelementptr inbounds [2 x ptr], ptr %11, i64 0, i64 0
  store ptr null, ptr %29, align 8
  %30 = getelementptr inbounds [2 x ptr], ptr %9, i32 0, i32 1
  store ptr %21, ptr %30, align 8
  %31 = getelementptr inbounds [2 x ptr], ptr %10, i32 0, i32 1
  store ptr %23, ptr %31, align 8
  %32 = getelementptr inbounds [2 x i64], ptr %12, i32 0, i32 1
  store i64 %26, ptr %32, align 8
  %33 = getelementptr inbounds [2 x ptr], ptr %11, i64 0, i64 1
  store ptr null, ptr %33, align 8
  %34 = getelementptr inbounds [2 x ptr], ptr %9, i32 0, i32 0
  %35 = getelementptr inbounds [2 x ptr], ptr %10, i32 0, i32 0
  %36 = getelementptr inbounds [2 x i64], ptr %12, i32 0, i32 0
  %37 = load i32, ptr %7, align 4
  %38 = sext i32 %37 to i64
  %39 = load i32, ptr %5, align 4
  store i32 %39, ptr %14, align 4
  %40 = load i32, ptr %14, align 4
  %41 = sub nsw i32 %40, 0
  %42 = sdiv i32 %41, 1
  %43 = sub nsw i32 %42, 1
  store i32 %43, ptr %15, align 4
  %44 = load i32, ptr %15, align 4
  %45 = add nsw i32 %44, 1
  %46 = zext i32 %45 to i64
  %47 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 0
  store i32 3, ptr %47, align 4
  %48 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 1
  store i32 2, ptr %48, align 4
  %49 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 2
  store ptr %34, ptr %49, align 8
  %50 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 3
  store ptr %35, ptr %50, align 8
  %51 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 4
  store ptr %36, ptr %51, align 8
  %52 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 5
  store ptr @.offload_maptypes, ptr %52, align 8
  %53 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 6
  store ptr null, ptr %53, align 8
  %54 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 7
  store ptr null, ptr %54, align 8
  %55 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 8
  store i64 %46, ptr %55, align 8
  %56 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 9
  store i64 0, ptr %56, align 8
  %57 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 10
  store [3 x i32] zeroinitializer, ptr %57, align 4
  %58 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 11
  store [3 x i32] zeroinitializer, ptr %58, align 4
  %59 = getelementptr inbounds %struct.__tgt_kernel_arguments, ptr %16, i32 0, i32 12
  store i32 0, ptr %59, align 4
  %60 = call i32 @__tgt_target_kernel(ptr @3, i64 %38, i32 0, i32 0, ptr @.__omp_offloading_fe00_a72183_f_l2.region_id, ptr %16)
  %61 = icmp ne i32 %60, 0
  br i1 %61, label %62, label %63

62:                                               ; preds = %3
  call void @__omp_offloading_fe00_a72183_f_l2(i64 %19, ptr %20) #2
  br label %63

63:                                               ; preds = %62, %3
  ret void
}

; Function Attrs: noinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_a72183_f_l2(i64 noundef %0, ptr noundef %1) #1 {
  %3 = alloca i64, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i64, align 8
  store i64 %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  %6 = load i32, ptr %3, align 4
  store i32 %6, ptr %5, align 4
  %7 = load i64, ptr %5, align 8
  %8 = load ptr, ptr %4, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @3, i32 2, ptr @__omp_offloading_fe00_a72183_f_l2.omp_outlined, i64 %7, ptr %8)
  ret void
}

; Function Attrs: noinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_a72183_f_l2.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, ptr noundef %3) #1 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i64, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i32, align 4
  %10 = alloca i32, align 4
  %11 = alloca i32, align 4
  %12 = alloca i32, align 4
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i64, align 8
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i64 %2, ptr %7, align 8
  store ptr %3, ptr %8, align 8
  %20 = load i32, ptr %7, align 4
  store i32 %20, ptr %11, align 4
  %21 = load i32, ptr %11, align 4
  %22 = sub nsw i32 %21, 0
  %23 = sdiv i32 %22, 1
  %24 = sub nsw i32 %23, 1
  store i32 %24, ptr %12, align 4
  store i32 0, ptr %13, align 4
  %25 = load i32, ptr %11, align 4
  %26 = icmp slt i32 0, %25
  br i1 %26, label %27, label %61

27:                                               ; preds = %4
  store i32 0, ptr %14, align 4
  %28 = load i32, ptr %12, align 4
  store i32 %28, ptr %15, align 4
  store i32 1, ptr %16, align 4
  store i32 0, ptr %17, align 4
  %29 = load ptr, ptr %5, align 8
  %30 = load i32, ptr %29, align 4
  call void @__kmpc_for_static_init_4(ptr @1, i32 %30, i32 92, ptr %17, ptr %14, ptr %15, ptr %16, i32 1, i32 1)
  %31 = load i32, ptr %15, align 4
  %32 = load i32, ptr %12, align 4
  %33 = icmp sgt i32 %31, %32
  br i1 %33, label %34, label %36

34:                                               ; preds = %27
  %35 = load i32, ptr %12, align 4
  br label %38

36:                                               ; preds = %27
  %37 = load i32, ptr %15, align 4
  br label %38

38:                                               ; preds = %36, %34
  %39 = phi i32 [ %35, %34 ], [ %37, %36 ]
  store i32 %39, ptr %15, align 4
  %40 = load i32, ptr %14, align 4
  store i32 %40, ptr %9, align 4
  br label %41

41:                                               ; preds = %53, %38
  %42 = load i32, ptr %9, align 4
  %43 = load i32, ptr %15, align 4
  %44 = icmp sle i32 %42, %43
  br i1 %44, label %45, label %57

45:                                               ; preds = %41
  %46 = load i32, ptr %14, align 4
  %47 = zext i32 %46 to i64
  %48 = load i32, ptr %15, align 4
  %49 = zext i32 %48 to i64
  %50 = load i32, ptr %7, align 4
  store i32 %50, ptr %19, align 4
  %51 = load i64, ptr %19, align 8
  %52 = load ptr, ptr %8, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @3, i32 4, ptr @__omp_offloading_fe00_a72183_f_l2.omp_outlined.omp_outlined, i64 %47, i64 %49, i64 %51, ptr %52)
  br label %53

53:                                               ; preds = %45
  %54 = load i32, ptr %9, align 4
  %55 = load i32, ptr %16, align 4
  %56 = add nsw i32 %54, %55
  store i32 %56, ptr %9, align 4
  br label %41

57:                                               ; preds = %41
  br label %58

58:                                               ; preds = %57
  %59 = load ptr, ptr %5, align 8
  %60 = load i32, ptr %59, align 4
  call void @__kmpc_for_static_fini(ptr @1, i32 %60)
  br label %61

61:                                               ; preds = %58, %4
  ret void
}

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #2

; Function Attrs: noinline norecurse nounwind uwtable
define internal void @__omp_offloading_fe00_a72183_f_l2.omp_outlined.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, i64 noundef %3, i64 noundef %4, ptr noundef %5) #1 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i64, align 8
  %10 = alloca i64, align 8
  %11 = alloca i64, align 8
  %12 = alloca ptr, align 8
  %13 = alloca i32, align 4
  %14 = alloca i32, align 4
  %15 = alloca i32, align 4
  %16 = alloca i32, align 4
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store i64 %2, ptr %9, align 8
  store i64 %3, ptr %10, align 8
  store i64 %4, ptr %11, align 8
  store ptr %5, ptr %12, align 8
  %23 = load i32, ptr %11, align 4
  store i32 %23, ptr %15, align 4
  %24 = load i32, ptr %15, align 4
  %25 = sub nsw i32 %24, 0
  %26 = sdiv i32 %25, 1
  %27 = sub nsw i32 %26, 1
  store i32 %27, ptr %16, align 4
  store i32 0, ptr %17, align 4
  %28 = load i32, ptr %15, align 4
  %29 = icmp slt i32 0, %28
  br i1 %29, label %30, label %70

30:                                               ; preds = %6
  store i32 0, ptr %18, align 4
  %31 = load i32, ptr %16, align 4
  store i32 %31, ptr %19, align 4
  %32 = load i64, ptr %9, align 8
  %33 = trunc i64 %32 to i32
  %34 = load i64, ptr %10, align 8
  %35 = trunc i64 %34 to i32
  store i32 %33, ptr %18, align 4
  store i32 %35, ptr %19, align 4
  store i32 1, ptr %20, align 4
  store i32 0, ptr %21, align 4
  %36 = load ptr, ptr %7, align 8
  %37 = load i32, ptr %36, align 4
  call void @__kmpc_for_static_init_4(ptr @2, i32 %37, i32 34, ptr %21, ptr %18, ptr %19, ptr %20, i32 1, i32 1)
  %38 = load i32, ptr %19, align 4
  %39 = load i32, ptr %16, align 4
  %40 = icmp sgt i32 %38, %39
  br i1 %40, label %41, label %43

41:                                               ; preds = %30
  %42 = load i32, ptr %16, align 4
  br label %45

43:                                               ; preds = %30
  %44 = load i32, ptr %19, align 4
  br label %45

45:                                               ; preds = %43, %41
  %46 = phi i32 [ %42, %41 ], [ %44, %43 ]
  store i32 %46, ptr %19, align 4
  %47 = load i32, ptr %18, align 4
  store i32 %47, ptr %13, align 4
  br label %48

48:                                               ; preds = %63, %45
  %49 = load i32, ptr %13, align 4
  %50 = load i32, ptr %19, align 4
  %51 = icmp sle i32 %49, %50
  br i1 %51, label %52, label %66

52:                                               ; preds = %48
  %53 = load i32, ptr %13, align 4
  %54 = mul nsw i32 %53, 1
  %55 = add nsw i32 0, %54
  store i32 %55, ptr %22, align 4
  %56 = load ptr, ptr %12, align 8
  %57 = load i32, ptr %22, align 4
  %58 = sext i32 %57 to i64
  %59 = getelementptr inbounds double, ptr %56, i64 %58
  %60 = load double, ptr %59, align 8
  %61 = fadd double %60, 1.000000e+00
  store double %61, ptr %59, align 8
  br label %62

62:                                               ; preds = %52
  br label %63

63:                                               ; preds = %62
  %64 = load i32, ptr %13, align 4
  %65 = add nsw i32 %64, 1
  store i32 %65, ptr %13, align 4
  br label %48

66:                                               ; preds = %48
  br label %67

67:                                               ; preds = %66
  %68 = load ptr, ptr %7, align 8
  %69 = load i32, ptr %68, align 4
  call void @__kmpc_for_static_fini(ptr @2, i32 %69)
  br label %70

70:                                               ; preds = %67, %6
  ret void
}

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #2

; Function Attrs: nounwind
declare !callback !8 void @__kmpc_fork_call(ptr, i32, ptr, ...) #2

; Function Attrs: nounwind
declare !callback !8 void @__kmpc_fork_teams(ptr, i32, ptr, ...) #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #3

; Function Attrs: nounwind
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr) #2

attributes #0 = { noinline nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { noinline norecurse nounwind uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }

!omp_offload.info = !{!0}
!llvm.module.flags = !{!1, !2, !3, !4, !5, !6}
!llvm.ident = !{!7}

!0 = !{i32 0, i32 65024, i32 10953091, !"f", i32 2, i32 0, i32 0}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 7, !"openmp", i32 51}
!3 = !{i32 8, !"PIC Level", i32 2}
!4 = !{i32 7, !"PIE Level", i32 2}
!5 = !{i32 7, !"uwtable", i32 2}
!6 = !{i32 7, !"frame-pointer", i32 2}
!7 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!8 = !{!9}
!9 = !{i64 2, i64 -1, i64 -1, i1 true}
