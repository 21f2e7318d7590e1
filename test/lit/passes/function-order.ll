; function-order: defined functions are shuffled among their slots with the
; function-order stream; declarations, available_externally functions (not
; emitted) and functions with an explicit section keep their place; nothing
; else changes. The expected orders come from the independent reference model
; (Inputs/passes/layout_model.py).
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=function-order>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py order 42 function-order '<stdin>' ORDER f0 f1 f2 =in_section f3 f4 =ae f5 f6 > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=ORDER --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=0xfeedface;factors=function-order>' -S < %s > %t.other.ll
; RUN: %python %inputs/passes/layout_model.py order 0xfeedface function-order '<stdin>' ORDER f0 f1 f2 =in_section f3 f4 =ae f5 f6 > %t.other.check
; RUN: FileCheck %t.other.check --check-prefix=ORDER --input-file %t.other.ll
; RUN: FileCheck %s --input-file %t.other.ll
; Another seed gives another order.
; RUN: not diff %t.42.ll %t.other.ll
;
; Same seed, same output.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=function-order>' -S < %s | diff - %t.42.ll

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Special arrays and globals are untouched; only the note is added.
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @f2, ptr null }]
; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr @f4], section "llvm.metadata"
; CHECK: @__alea_note = private constant
; CHECK-SAME: factors=function-order\00
; No renaming, no padding, no stack offset with this factor alone.
; CHECK-NOT: prefix [
; CHECK-NOT: alloca
; Declarations stay first, where they were.
; CHECK: declare void @ext()
; CHECK: declare i32 @printf(ptr, ...)
; CHECK: define {{.*}} @in_section() section ".text.fixed"
; CHECK-NOT: prefix [
; CHECK-NOT: alloca
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @f2, ptr null }]
@llvm.compiler.used = appending global [1 x ptr] [ptr @f4], section "llvm.metadata"

declare void @ext()
declare i32 @printf(ptr, ...)

define void @f0() {
  ret void
}
define internal void @f1() {
  call void @ext()
  ret void
}
define internal void @f2() {
  call void @f1()
  ret void
}
define void @in_section() section ".text.fixed" {
  ret void
}
define weak void @f3() {
  ret void
}
define internal void @f4() {
  ret void
}
define available_externally void @ae() {
  ret void
}
define linkonce_odr void @f5() {
  ret void
}
define i32 @f6() {
  call void @f0()
  call void @f3()
  ret i32 0
}
