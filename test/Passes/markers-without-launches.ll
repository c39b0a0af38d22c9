; Without offload targets clang emits no kernel launches: the pass leaves
; the markers alone, and each region runs whole on the host.
; RUN: %opt_homp -passes=homp -S %s -o %t.homp.ll
; RUN: opt -S %s -o %t.ref.ll
; RUN: diff %t.ref.ll %t.homp.ll
; Source: test/Passes/Inputs/two-regions.c, compiled with -fopenmp only.

source_filename = "src.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
%struct.anon = type { i64, i64, i64 }

@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2050, i32 0, i32 22, ptr @0 }, align 8
@2 = private unnamed_addr constant %struct.ident_t { i32 0, i32 514, i32 0, i32 22, ptr @0 }, align 8
@3 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.str = private unnamed_addr constant [93 x i8] c"homp 1\0Aloc src.c:2:1\0Adevice all\0Aloop lt block\0Aarray y tofrom block 0 0\0Aarray x to block 0 0\0A\00", align 1

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @axpy(ptr noundef %0, ptr noundef %1, i32 noundef %2, double noundef %3) #0 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i32, align 4
  %8 = alloca double, align 8
  %9 = alloca %struct.anon, align 8
  %10 = alloca i64, align 8
  %11 = alloca i64, align 8
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i32 %2, ptr %7, align 4
  store double %3, ptr %8, align 8
  %12 = getelementptr inbounds %struct.anon, ptr %9, i32 0, i32 0
  store i64 0, ptr %12, align 8
  %13 = getelementptr inbounds %struct.anon, ptr %9, i32 0, i32 1
  %14 = load i32, ptr %7, align 4
  %15 = sext i32 %14 to i64
  store i64 %15, ptr %13, align 8
  %16 = getelementptr inbounds %struct.anon, ptr %9, i32 0, i32 2
  store i64 1, ptr %16, align 8
  %17 = load ptr, ptr %6, align 8
  %18 = getelementptr inbounds double, ptr %17, i64 0
  %19 = load i32, ptr %7, align 4
  %20 = sext i32 %19 to i64
  %21 = load ptr, ptr %5, align 8
  %22 = getelementptr inbounds double, ptr %21, i64 0
  %23 = load i32, ptr %7, align 4
  %24 = sext i32 %23 to i64
  %25 = call i64 (ptr, ptr, ...) @__homp_region(ptr noundef @.str, ptr noundef %9, ptr noundef %18, i64 noundef 0, i64 noundef %20, i64 noundef 8, ptr noundef %22, i64 noundef 0, i64 noundef %24, i64 noundef 8)
  store i64 %25, ptr %10, align 8
  %26 = load ptr, ptr %6, align 8
  %27 = load double, ptr %8, align 8
  store double %27, ptr %11, align 8
  %28 = load i64, ptr %11, align 8
  %29 = load ptr, ptr %5, align 8
  call void @__omp_offloading_fe00_a727db_axpy_l2(ptr %9, ptr %26, i64 %28, ptr %29) #2
  ret void
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @__omp_offloading_fe00_a727db_axpy_l2(ptr noundef nonnull align 8 dereferenceable(24) %0, ptr noundef %1, i64 noundef %2, ptr noundef %3) #1 {
  %5 = alloca ptr, align 8
  %6 = alloca ptr, align 8
  %7 = alloca i64, align 8
  %8 = alloca ptr, align 8
  %9 = alloca i64, align 8
  store ptr %0, ptr %5, align 8
  store ptr %1, ptr %6, align 8
  store i64 %2, ptr %7, align 8
  store ptr %3, ptr %8, align 8
  %10 = load ptr, ptr %5, align 8
  %11 = load ptr, ptr %6, align 8
  %12 = load double, ptr %7, align 8
  store double %12, ptr %9, align 8
  %13 = load i64, ptr %9, align 8
  %14 = load ptr, ptr %8, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_teams(ptr @3, i32 4, ptr @__omp_offloading_fe00_a727db_axpy_l2.omp_outlined, ptr %10, ptr %11, i64 %13, ptr %14)
  ret void
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @__omp_offloading_fe00_a727db_axpy_l2.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, ptr noundef nonnull align 8 dereferenceable(24) %2, ptr noundef %3, i64 noundef %4, ptr noundef %5) #1 {
  %7 = alloca ptr, align 8
  %8 = alloca ptr, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
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
  %23 = alloca i32, align 4
  %24 = alloca i64, align 8
  store ptr %0, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store ptr %2, ptr %9, align 8
  store ptr %3, ptr %10, align 8
  store i64 %4, ptr %11, align 8
  store ptr %5, ptr %12, align 8
  %25 = load ptr, ptr %9, align 8
  %26 = getelementptr inbounds %struct.anon, ptr %25, i32 0, i32 0
  %27 = load i64, ptr %26, align 8
  %28 = trunc i64 %27 to i32
  store i32 %28, ptr %15, align 4
  %29 = getelementptr inbounds %struct.anon, ptr %25, i32 0, i32 1
  %30 = load i64, ptr %29, align 8
  %31 = trunc i64 %30 to i32
  store i32 %31, ptr %16, align 4
  %32 = load i32, ptr %16, align 4
  %33 = load i32, ptr %15, align 4
  %34 = sub i32 %32, %33
  %35 = sub i32 %34, 1
  %36 = add i32 %35, 1
  %37 = udiv i32 %36, 1
  %38 = sub i32 %37, 1
  store i32 %38, ptr %17, align 4
  %39 = load i32, ptr %15, align 4
  store i32 %39, ptr %18, align 4
  %40 = load i32, ptr %15, align 4
  %41 = load i32, ptr %16, align 4
  %42 = icmp slt i32 %40, %41
  br i1 %42, label %43, label %79

43:                                               ; preds = %6
  store i32 0, ptr %19, align 4
  %44 = load i32, ptr %17, align 4
  store i32 %44, ptr %20, align 4
  store i32 1, ptr %21, align 4
  store i32 0, ptr %22, align 4
  %45 = load ptr, ptr %7, align 8
  %46 = load i32, ptr %45, align 4
  call void @__kmpc_for_static_init_4u(ptr @1, i32 %46, i32 92, ptr %22, ptr %19, ptr %20, ptr %21, i32 1, i32 1)
  %47 = load i32, ptr %20, align 4
  %48 = load i32, ptr %17, align 4
  %49 = icmp ugt i32 %47, %48
  br i1 %49, label %50, label %52

50:                                               ; preds = %43
  %51 = load i32, ptr %17, align 4
  br label %54

52:                                               ; preds = %43
  %53 = load i32, ptr %20, align 4
  br label %54

54:                                               ; preds = %52, %50
  %55 = phi i32 [ %51, %50 ], [ %53, %52 ]
  store i32 %55, ptr %20, align 4
  %56 = load i32, ptr %19, align 4
  store i32 %56, ptr %13, align 4
  br label %57

57:                                               ; preds = %71, %54
  %58 = load i32, ptr %13, align 4
  %59 = load i32, ptr %20, align 4
  %60 = add i32 %59, 1
  %61 = icmp ult i32 %58, %60
  br i1 %61, label %62, label %75

62:                                               ; preds = %57
  %63 = load i32, ptr %19, align 4
  %64 = zext i32 %63 to i64
  %65 = load i32, ptr %20, align 4
  %66 = zext i32 %65 to i64
  %67 = load ptr, ptr %10, align 8
  %68 = load double, ptr %11, align 8
  store double %68, ptr %24, align 8
  %69 = load i64, ptr %24, align 8
  %70 = load ptr, ptr %12, align 8
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @3, i32 6, ptr @__omp_offloading_fe00_a727db_axpy_l2.omp_outlined.omp_outlined, i64 %64, i64 %66, ptr %25, ptr %67, i64 %69, ptr %70)
  br label %71

71:                                               ; preds = %62
  %72 = load i32, ptr %13, align 4
  %73 = load i32, ptr %21, align 4
  %74 = add i32 %72, %73
  store i32 %74, ptr %13, align 4
  br label %57

75:                                               ; preds = %57
  br label %76

76:                                               ; preds = %75
  %77 = load ptr, ptr %7, align 8
  %78 = load i32, ptr %77, align 4
  call void @__kmpc_for_static_fini(ptr @1, i32 %78)
  br label %79

79:                                               ; preds = %76, %6
  ret void
}

; Function Attrs: nounwind
declare void @__kmpc_for_static_init_4u(ptr, i32, i32, ptr, ptr, ptr, ptr, i32, i32) #2

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @__omp_offloading_fe00_a727db_axpy_l2.omp_outlined.omp_outlined(ptr noalias noundef %0, ptr noalias noundef %1, i64 noundef %2, i64 noundef %3, ptr noundef nonnull align 8 dereferenceable(24) %4, ptr noundef %5, i64 noundef %6, ptr noundef %7) #1 {
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca i64, align 8
  %12 = alloca i64, align 8
  %13 = alloca ptr, align 8
  %14 = alloca ptr, align 8
  %15 = alloca i64, align 8
  %16 = alloca ptr, align 8
  %17 = alloca i32, align 4
  %18 = alloca i32, align 4
  %19 = alloca i32, align 4
  %20 = alloca i32, align 4
  %21 = alloca i32, align 4
  %22 = alloca i32, align 4
  %23 = alloca i32, align 4
  %24 = alloca i32, align 4
  %25 = alloca i32, align 4
  %26 = alloca i32, align 4
  %27 = alloca i32, align 4
  store ptr %0, ptr %9, align 8
  store ptr %1, ptr %10, align 8
  store i64 %2, ptr %11, align 8
  store i64 %3, ptr %12, align 8
  store ptr %4, ptr %13, align 8
  store ptr %5, ptr %14, align 8
  store i64 %6, ptr %15, align 8
  store ptr %7, ptr %16, align 8
  %28 = load ptr, ptr %13, align 8
  %29 = getelementptr inbounds %struct.anon, ptr %28, i32 0, i32 0
  %30 = load i64, ptr %29, align 8
  %31 = trunc i64 %30 to i32
  store i32 %31, ptr %19, align 4
  %32 = getelementptr inbounds %struct.anon, ptr %28, i32 0, i32 1
  %33 = load i64, ptr %32, align 8
  %34 = trunc i64 %33 to i32
  store i32 %34, ptr %20, align 4
  %35 = load i32, ptr %20, align 4
  %36 = load i32, ptr %19, align 4
  %37 = sub i32 %35, %36
  %38 = sub i32 %37, 1
  %39 = add i32 %38, 1
  %40 = udiv i32 %39, 1
  %41 = sub i32 %40, 1
  store i32 %41, ptr %21, align 4
  %42 = load i32, ptr %19, align 4
  store i32 %42, ptr %22, align 4
  %43 = load i32, ptr %19, align 4
  %44 = load i32, ptr %20, align 4
  %45 = icmp slt i32 %43, %44
  br i1 %45, label %46, label %94

46:                                               ; preds = %8
  store i32 0, ptr %23, align 4
  %47 = load i32, ptr %21, align 4
  store i32 %47, ptr %24, align 4
  %48 = load i64, ptr %11, align 8
  %49 = trunc i64 %48 to i32
  %50 = load i64, ptr %12, align 8
  %51 = trunc i64 %50 to i32
  store i32 %49, ptr %23, align 4
  store i32 %51, ptr %24, align 4
  store i32 1, ptr %25, align 4
  store i32 0, ptr %26, align 4
  %52 = load ptr, ptr %9, align 8
  %53 = load i32, ptr %52, align 4
  call void @__kmpc_for_static_init_4u(ptr @2, i32 %53, i32 34, ptr %26, ptr %23, ptr %24, ptr %25, i32 1, i32 1)
  %54 = load i32, ptr %24, align 4
  %55 = load i32, ptr %21, align 4
  %56 = icmp ugt i32 %54, %55
  br i1 %56, label %57, label %59

57:                                               ; preds = %46
  %58 = load i32, ptr %21, align 4
  br label %61

59:                                               ; preds = %46
  %60 = load i32, ptr %24, align 4
  br label %61

61:                                               ; preds = %59, %57
  %62 = phi i32 [ %58, %57 ], [ %60, %59 ]
  store i32 %62, ptr %24, align 4
  %63 = load i32, ptr %23, align 4
  store i32 %63, ptr %17, align 4
  br label %64

64:                                               ; preds = %87, %61
  %65 = load i32, ptr %17, align 4
  %66 = load i32, ptr %24, align 4
  %67 = add i32 %66, 1
  %68 = icmp ult i32 %65, %67
  br i1 %68, label %69, label %90

69:                                               ; preds = %64
  %70 = load i32, ptr %19, align 4
  %71 = load i32, ptr %17, align 4
  %72 = mul i32 %71, 1
  %73 = add i32 %70, %72
  store i32 %73, ptr %27, align 4
  %74 = load double, ptr %15, align 8
  %75 = load ptr, ptr %16, align 8
  %76 = load i32, ptr %27, align 4
  %77 = sext i32 %76 to i64
  %78 = getelementptr inbounds double, ptr %75, i64 %77
  %79 = load double, ptr %78, align 8
  %80 = load ptr, ptr %14, align 8
  %81 = load i32, ptr %27, align 4
  %82 = sext i32 %81 to i64
  %83 = getelementptr inbounds double, ptr %80, i64 %82
  %84 = load double, ptr %83, align 8
  %85 = call double @llvm.fmuladd.f64(double %74, double %79, double %84)
  store double %85, ptr %83, align 8
  br label %86

86:                                               ; preds = %69
  br label %87

87:                                               ; preds = %86
  %88 = load i32, ptr %17, align 4
  %89 = add i32 %88, 1
  store i32 %89, ptr %17, align 4
  br label %64

90:                                               ; preds = %64
  br label %91

91:                                               ; preds = %90
  %92 = load ptr, ptr %9, align 8
  %93 = load i32, ptr %92, align 4
  call void @__kmpc_for_static_fini(ptr @2, i32 %93)
  br label %94

94:                                               ; preds = %91, %8
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #3

; Function Attrs: nounwind
declare void @__kmpc_for_static_fini(ptr, i32) #2

; Function Attrs: nounwind
declare !callback !7 void @__kmpc_fork_call(ptr, i32, ptr, ...) #2

; Function Attrs: nounwind
declare !callback !7 void @__kmpc_fork_teams(ptr, i32, ptr, ...) #2

declare i64 @__homp_region(ptr noundef, ptr noundef, ...) #4

; Function Attrs: noinline nounwind optnone uwtable
define dso_local void @plain(ptr noundef %0, i32 noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i64, align 8
  store ptr %0, ptr %4, align 8
  store i32 %1, ptr %5, align 4
  store i32 %2, ptr %6, align 4
  %9 = load i32, ptr %6, align 4
  store i32 %9, ptr %7, align 4
  %10 = load i32, ptr %5, align 4
  store i32 %10, ptr %8, align 4
  %11 = load i64, ptr %8, align 8
  %12 = load ptr, ptr %4, align 8
  call void @__omp_offloading_fe00_a727db_plain_l7(i64 %11, ptr %12) #2
  ret void
}

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @__omp_offloading_fe00_a727db_plain_l7(i64 noundef %0, ptr noundef %1) #1 {
  %3 = alloca i64, align 8
  %4 = alloca ptr, align 8
  %5 = alloca i32, align 4
  store i64 %0, ptr %3, align 8
  store ptr %1, ptr %4, align 8
  store i32 0, ptr %5, align 4
  br label %6

6:                                                ; preds = %17, %2
  %7 = load i32, ptr %5, align 4
  %8 = load i32, ptr %3, align 4
  %9 = icmp slt i32 %7, %8
  br i1 %9, label %10, label %20

10:                                               ; preds = %6
  %11 = load ptr, ptr %4, align 8
  %12 = load i32, ptr %5, align 4
  %13 = sext i32 %12 to i64
  %14 = getelementptr inbounds double, ptr %11, i64 %13
  %15 = load double, ptr %14, align 8
  %16 = fadd double %15, 1.000000e+00
  store double %16, ptr %14, align 8
  br label %17

17:                                               ; preds = %10
  %18 = load i32, ptr %5, align 4
  %19 = add nsw i32 %18, 1
  store i32 %19, ptr %5, align 4
  br label %6, !llvm.loop !9

20:                                               ; preds = %6
  ret void
}

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { noinline norecurse nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }
attributes #3 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5}
!llvm.ident = !{!6}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"openmp", i32 51}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!7 = !{!8}
!8 = !{i64 2, i64 -1, i64 -1, i1 true}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
