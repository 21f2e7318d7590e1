; symbol-names: local (internal/private) definitions get seeded random names
; `__alea_` + 8..40 of [A-Za-z0-9_], drawn from the symbol-names stream for
; variables then functions in module order. Never renamed: externally visible
; symbols, comdat members, llvm.used/llvm.compiler.used members, names that
; appear in inline asm, __start_/__stop_ symbols, declarations, intrinsics.
; Drawn names from the reference model (Inputs/passes/layout_model.py).
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=symbol-names>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py names 42 '<stdin>' NAMES 'g=internal global i32 1' 'g=private unnamed_addr constant [3 x i8] c"ab\00"' f f f > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=NAMES --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=0x10;factors=symbol-names>' -S < %s > %t.16.ll
; RUN: %python %inputs/passes/layout_model.py names 16 '<stdin>' NAMES 'g=internal global i32 1' 'g=private unnamed_addr constant [3 x i8] c"ab\00"' f f f > %t.16.check
; RUN: FileCheck %t.16.check --check-prefix=NAMES --input-file %t.16.ll
; RUN: FileCheck %s --input-file %t.16.ll
; The old local names are gone.
; RUN: FileCheck %s --check-prefix=GONE --input-file %t.42.ll
; GONE-NOT: @counter
; GONE-NOT: @.str
; GONE-NOT: @helper
; GONE-NOT: @helper2
; GONE-NOT: @ctor

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

module asm ".globl asm_alias"
module asm "asm_alias = asm_named"

$comdat_local = comdat any

; Unchanged names.
; CHECK-DAG: @external_var = global i32 0
; CHECK-DAG: @comdat_local = internal global i32 2, comdat
; CHECK-DAG: @kept_used = internal global i32 3
; CHECK-DAG: @kept_compiler_used = internal global i32 4
; CHECK-DAG: @__start_mysec = external global i8
; CHECK-DAG: declare void @ext()
; CHECK-DAG: define void @external_fn()
; CHECK-DAG: define internal i32 @asm_named()
; CHECK-DAG: define internal void @in_call_asm()
; CHECK-DAG: define linkonce_odr void @odr()
; CHECK-DAG: call void @llvm.donothing()
; The special arrays still point to the (renamed) objects.
; CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__alea_{{[A-Za-z0-9_]+}}, ptr null }]
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]
@llvm.used = appending global [1 x ptr] [ptr @kept_used], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @kept_compiler_used], section "llvm.metadata"
@external_var = global i32 0
@counter = internal global i32 1
@comdat_local = internal global i32 2, comdat
@kept_used = internal global i32 3
@kept_compiler_used = internal global i32 4
@.str = private unnamed_addr constant [3 x i8] c"ab\00"
@__start_mysec = external global i8

declare void @ext()
declare void @llvm.donothing()

define internal void @helper() {
  %v = load i32, ptr @counter
  ret void
}
define void @external_fn() {
  call void @helper()
  call void @helper2()
  call void @llvm.donothing()
  call void asm sideeffect "call in_call_asm", ""()
  ret void
}
define internal void @helper2() {
  ret void
}
define internal i32 @asm_named() {
  ret i32 1
}
define internal void @in_call_asm() {
  ret void
}
define linkonce_odr void @odr() {
  ret void
}
define internal void @ctor() {
  ret void
}
