; global-order: global variable definitions are shuffled among their slots
; with the global-order stream; declarations, llvm.* arrays and variables with
; an explicit section keep their place. Expected orders from the reference
; model (Inputs/passes/layout_model.py).
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=global-order>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py order 42 global-order '<stdin>' ORDER =llvm.global_ctors g0 =ext g1 g2 =in_section g3 g4 g5 g6 > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=ORDER --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=3;factors=global-order>' -S < %s > %t.3.ll
; RUN: %python %inputs/passes/layout_model.py order 3 global-order '<stdin>' ORDER =llvm.global_ctors g0 =ext g1 g2 =in_section g3 g4 g5 g6 > %t.3.check
; RUN: FileCheck %t.3.check --check-prefix=ORDER --input-file %t.3.ll
; RUN: FileCheck %s --input-file %t.3.ll
; RUN: not diff %t.42.ll %t.3.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; The arrays keep their contents (in their order).
; CHECK: @llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @init_b, ptr null }, { i32, ptr, ptr } { i32 101, ptr @init_a, ptr null }]
; CHECK: @in_section = global i32 7, section "mysec"
; llvm.used is rebuilt (at the end of the list) to hold the note as well.
; CHECK: @__alea_note = private constant
; CHECK: @llvm.used = appending global [2 x ptr] [ptr @g4, ptr @__alea_note], section "llvm.metadata"
; Functions are not moved by this factor.
; CHECK: define void @init_a()
; CHECK: define void @init_b()
@llvm.global_ctors = appending global [2 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @init_b, ptr null }, { i32, ptr, ptr } { i32 101, ptr @init_a, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @g4], section "llvm.metadata"
@g0 = global i32 0
@ext = external global i32
@g1 = internal global i32 1
@g2 = private constant [3 x i8] c"ab\00"
@in_section = global i32 7, section "mysec"
@g3 = thread_local global i32 3
@g4 = internal global i64 4
@g5 = weak global i32 5
@g6 = linkonce_odr constant i32 6

define void @init_a() {
  ret void
}
define void @init_b() {
  ret void
}
