; The host module of a file with distributed data constructs (and standard
; ones), as clang emits it with the homp plugin: the pass arms the data
; markers and sends every data mapping call through libhomp, the nowait
; form inside its target task included; the standard constructs' calls go
; through libhomp too, which forwards them.
; RUN: %opt_homp -passes=homp -pass-remarks-analysis=homp -S %s -o - 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
;
; Source: test/Passes/Inputs/data-constructs.c (clang -O1 --offload-host-only).

; CHECK: %[[DATA:[0-9]+]] = tail call i64 (ptr, ...) @__homp_data_distributed(ptr noundef nonnull @.str,
; CHECK: call void @__homp_target_data_begin_mapper(ptr nonnull @1, i64 %[[DATA]], i32 2,
; CHECK: %[[UPDATE:[0-9]+]] = call i64 (ptr, ...) @__homp_data_distributed(ptr noundef nonnull @.str.1,
; CHECK: call void @__homp_target_data_update_mapper(ptr nonnull @1, i64 %[[UPDATE]], i32 1,
; CHECK: call void @__homp_target_data_end_mapper(ptr nonnull @1, i64 %[[DATA]], i32 2,
; CHECK: call i64 (ptr, ...) @__homp_data_distributed(ptr noundef nonnull @.str.3,
; CHECK: %[[EXIT:[0-9]+]] = call i64 (ptr, ...) @__homp_data_distributed(ptr noundef nonnull @.str.5,
; CHECK: call void @__homp_target_data_end_mapper(ptr nonnull @1, i64 %[[EXIT]], i32 1,
; CHECK: call void @__homp_target_data_begin_nowait_mapper(ptr nonnull @1, i64 %{{[0-9]+}}, i32 1,
; CHECK: define {{.*}}@plain(
; CHECK: call void @__homp_target_data_begin_mapper(
; CHECK: call void @__homp_target_data_end_mapper(
; CHECK-NOT: @__homp_data(
; CHECK-NOT: @__tgt_target_data
; REMARK: homp pass: host module {{.*}}: 4 markers, 0 launches redirected, 7 data calls redirected, 0 host thunks

; ModuleID = 'Inputs/data-constructs.c'
source_filename = "Inputs/data-constructs.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }

@.str = private unnamed_addr constant [160 x i8] c"homp 9 data\0Aloc 24:Inputs/data-constructs.c 2 1\0Adevice all 0 0\0Aarray 1:x to 1 0 0\0Adim block -1 0 0 none none\0Aarray 1:y tofrom 1 0 0\0Adim block -1 0 0 none none\0A\00", align 1
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.offload_maptypes = private unnamed_addr constant [2 x i64] [i64 1, i64 3]
@.str.1 = private unnamed_addr constant [113 x i8] c"homp 9 update\0Aloc 24:Inputs/data-constructs.c 4 1\0Adevice all 0 0\0Aarray 1:y from 1 0 0\0Adim full -1 0 0 none none\0A\00", align 1
@.str.3 = private unnamed_addr constant [111 x i8] c"homp 9 enter\0Aloc 24:Inputs/data-constructs.c 6 1\0Adevice all 0 0\0Aarray 1:x to 1 0 0\0Adim block -1 0 0 none none\0A\00", align 1
@.str.5 = private unnamed_addr constant [114 x i8] c"homp 9 exit\0Aloc 24:Inputs/data-constructs.c 7 1\0Adevice all 0 0\0Aarray 1:x release 1 0 0\0Adim full -1 0 0 none none\0A\00", align 1
@.offload_maptypes.6 = private unnamed_addr constant [1 x i64] zeroinitializer
@.offload_maptypes.7 = private unnamed_addr constant [1 x i64] [i64 1]
@.offload_maptypes.8 = private unnamed_addr constant [1 x i64] [i64 2]

; Function Attrs: nounwind uwtable
define dso_local void @data(ptr noundef %0, ptr noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = alloca [2 x ptr], align 8
  %5 = alloca [2 x ptr], align 8
  %6 = alloca [2 x i64], align 8
  %7 = alloca [1 x ptr], align 8
  %8 = alloca [1 x ptr], align 8
  %9 = alloca [1 x i64], align 8
  %10 = alloca [1 x ptr], align 8
  %11 = alloca [1 x ptr], align 8
  %12 = alloca [1 x i64], align 8
  %13 = tail call i32 @__kmpc_global_thread_num(ptr nonnull @1)
  %14 = ptrtoint ptr %0 to i64
  %15 = sext i32 %2 to i64
  %16 = ptrtoint ptr %1 to i64
  %17 = tail call i64 (ptr, ...) @__homp_data(ptr noundef nonnull @.str, i64 noundef %14, i64 noundef 8, i64 noundef 0, i64 noundef %15, i64 noundef %16, i64 noundef 8, i64 noundef 0, i64 noundef %15) #2
  %18 = shl nuw nsw i64 %15, 3
  store ptr %0, ptr %4, align 8
  store ptr %0, ptr %5, align 8
  store i64 %18, ptr %6, align 8
  %19 = getelementptr inbounds i8, ptr %4, i64 8
  store ptr %1, ptr %19, align 8
  %20 = getelementptr inbounds i8, ptr %5, i64 8
  store ptr %1, ptr %20, align 8
  %21 = getelementptr inbounds i8, ptr %6, i64 8
  store i64 %18, ptr %21, align 8
  call void @__tgt_target_data_begin_mapper(ptr nonnull @1, i64 %17, i32 2, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6, ptr nonnull @.offload_maptypes, ptr null, ptr null)
  %22 = call i64 (ptr, ...) @__homp_data(ptr noundef nonnull @.str.1, i64 noundef %16, i64 noundef 8, i64 noundef 0, i64 noundef %15) #2
  store ptr %1, ptr %7, align 8
  store ptr %1, ptr %8, align 8
  store i64 %18, ptr %9, align 8
  call void @__tgt_target_data_update_mapper(ptr nonnull @1, i64 %22, i32 1, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9, ptr nonnull @.offload_maptypes.8, ptr null, ptr null)
  call void @__tgt_target_data_end_mapper(ptr nonnull @1, i64 %17, i32 2, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6, ptr nonnull @.offload_maptypes, ptr null, ptr null)
  %23 = call i64 (ptr, ...) @__homp_data(ptr noundef nonnull @.str.3, i64 noundef %14, i64 noundef 8, i64 noundef 0, i64 noundef %15) #2
  %24 = call ptr @__kmpc_omp_target_task_alloc(ptr nonnull @1, i32 %13, i32 1, i64 64, i64 8, ptr nonnull @.omp_task_entry., i64 %23)
  %25 = load ptr, ptr %24, align 8, !tbaa !6
  store i64 %23, ptr %25, align 8, !tbaa !14
  %26 = getelementptr inbounds i8, ptr %24, i64 40
  store ptr %0, ptr %26, align 8, !tbaa !16
  %27 = getelementptr inbounds i8, ptr %24, i64 48
  store ptr %0, ptr %27, align 8, !tbaa !16
  %28 = getelementptr inbounds i8, ptr %24, i64 56
  store i64 %18, ptr %28, align 8, !tbaa !16
  %29 = call i32 @__kmpc_omp_task(ptr nonnull @1, i32 %13, ptr nonnull %24)
  %30 = call i64 (ptr, ...) @__homp_data(ptr noundef nonnull @.str.5, i64 noundef %14, i64 noundef 8, i64 noundef 0, i64 noundef %15) #2
  store ptr %0, ptr %10, align 8
  store ptr %0, ptr %11, align 8
  store i64 %18, ptr %12, align 8
  call void @__tgt_target_data_end_mapper(ptr nonnull @1, i64 %30, i32 1, ptr nonnull %10, ptr nonnull %11, ptr nonnull %12, ptr nonnull @.offload_maptypes.6, ptr null, ptr null)
  ret void
}

declare i64 @__homp_data(ptr noundef, ...) local_unnamed_addr #1

; Function Attrs: nounwind
declare void @__tgt_target_data_begin_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__tgt_target_data_update_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__tgt_target_data_end_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare void @__tgt_target_data_begin_nowait_mapper(ptr, i64, i32, ptr, ptr, ptr, ptr, ptr, ptr, i32, ptr, i32, ptr) local_unnamed_addr #2

; Function Attrs: norecurse nounwind uwtable
define internal noundef i32 @.omp_task_entry.(i32 %0, ptr noalias noundef %1) #3 {
  %3 = load ptr, ptr %1, align 8, !tbaa !6
  %4 = getelementptr inbounds i8, ptr %1, i64 40
  tail call void @llvm.experimental.noalias.scope.decl(metadata !17)
  %5 = getelementptr inbounds i8, ptr %1, i64 48
  %6 = getelementptr inbounds i8, ptr %1, i64 56
  %7 = load i64, ptr %3, align 8, !tbaa !14, !alias.scope !17, !noalias !20
  tail call void @__tgt_target_data_begin_nowait_mapper(ptr nonnull @1, i64 %7, i32 1, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6, ptr nonnull @.offload_maptypes.7, ptr null, ptr null, i32 0, ptr null, i32 0, ptr null), !noalias !17
  ret i32 0
}

; Function Attrs: nounwind
declare i32 @__kmpc_global_thread_num(ptr) local_unnamed_addr #2

; Function Attrs: nounwind
declare noalias ptr @__kmpc_omp_target_task_alloc(ptr, i32, i32, i64, i64, ptr, i64) local_unnamed_addr #2

; Function Attrs: nounwind
declare i32 @__kmpc_omp_task(ptr, i32, ptr) local_unnamed_addr #2

; Function Attrs: nounwind uwtable
define dso_local void @plain(ptr noundef %0, i32 noundef %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = alloca [1 x ptr], align 8
  %5 = alloca [1 x ptr], align 8
  %6 = alloca [1 x i64], align 8
  %7 = alloca [1 x ptr], align 8
  %8 = alloca [1 x ptr], align 8
  %9 = alloca [1 x i64], align 8
  %10 = sext i32 %1 to i64
  %11 = shl nuw nsw i64 %10, 3
  store ptr %0, ptr %4, align 8
  store ptr %0, ptr %5, align 8
  store i64 %11, ptr %6, align 8
  %12 = sext i32 %2 to i64
  call void @__tgt_target_data_begin_mapper(ptr nonnull @1, i64 %12, i32 1, ptr nonnull %4, ptr nonnull %5, ptr nonnull %6, ptr nonnull @.offload_maptypes.7, ptr null, ptr null)
  store ptr %0, ptr %7, align 8
  store ptr %0, ptr %8, align 8
  store i64 %11, ptr %9, align 8
  call void @__tgt_target_data_end_mapper(ptr nonnull @1, i64 %12, i32 1, ptr nonnull %7, ptr nonnull %8, ptr nonnull %9, ptr nonnull @.offload_maptypes.8, ptr null, ptr null)
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite)
declare void @llvm.experimental.noalias.scope.decl(metadata) #4

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nounwind }
attributes #3 = { norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: readwrite) }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"openmp", i32 51}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{!7, !9, i64 0}
!7 = !{!"kmp_task_t_with_privates", !8, i64 0, !13, i64 40}
!8 = !{!"kmp_task_t", !9, i64 0, !9, i64 8, !12, i64 16, !10, i64 24, !10, i64 32}
!9 = !{!"any pointer", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
!12 = !{!"int", !10, i64 0}
!13 = !{!".kmp_privates.t", !10, i64 0, !10, i64 8, !10, i64 16}
!14 = !{!15, !15, i64 0}
!15 = !{!"long long", !10, i64 0}
!16 = !{!10, !10, i64 0}
!17 = !{!18}
!18 = distinct !{!18, !19, !".omp_outlined.: argument 1"}
!19 = distinct !{!19, !".omp_outlined."}
!20 = !{!21}
!21 = distinct !{!21, !19, !".omp_outlined.: argument 0"}
