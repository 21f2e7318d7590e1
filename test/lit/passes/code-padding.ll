; code-padding: every placeable function (final order; not declarations, not
; available_externally, no explicit section) draws 0, 16, 32 or 48 bytes from
; the code-padding stream; a nonzero draw becomes prefix data of 0xcc (int3)
; bytes, emitted between the alignment and the entry label. Functions whose
; entry is already preceded by something (prefix data, patchable prefix NOPs,
; KCFI or -fsanitize=function hashes) draw but are not padded. Sizes from the
; reference model (Inputs/passes/layout_model.py).
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=code-padding>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py padding 42 '<stdin>' PAD f0 f1 f2 f3 f4 =has_prefix =patchable =kcfi f5 > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=PAD --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5;factors=code-padding>' -S < %s > %t.5.ll
; RUN: %python %inputs/passes/layout_model.py padding 5 '<stdin>' PAD f0 f1 f2 f3 f4 =has_prefix =patchable =kcfi f5 > %t.5.check
; RUN: FileCheck %t.5.check --check-prefix=PAD --input-file %t.5.ll
; RUN: FileCheck %s --input-file %t.5.ll
; RUN: not diff %t.42.ll %t.5.ll
;
; CHECK: define void @in_section() section ".text.fixed" {
; CHECK: define void @has_prefix() prefix i8 -112 {
; CHECK: define void @patchable() #[[PATCH:[0-9]+]] {
; CHECK: define void @kcfi() !kcfi_type
; CHECK: define available_externally void @ae() {
; CHECK: attributes #[[PATCH]] = { "patchable-function-prefix"="2" }
;
; The padding survives the -O2 pipeline (it runs last) and codegen: in the
; object, the 48 int3 bytes of seed 42's draw for f5 come right before f5's
; entry, which stays 16-aligned.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='default<O2>,alea-layout<seed=42;factors=code-padding>' -S < %s | FileCheck %s --check-prefix=O2IR
; O2IR: prefix [{{16|32|48}} x i8] c"\CC
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=code-padding>' < %s -o %t.bc
; RUN: llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s --check-prefix=ASM
; ASM-LABEL: <kcfi>:
; ASM: ret
; ASM-COUNT-48: int3
; ASM-EMPTY:
; ASM-NEXT: {{^[0-9a-f]+0}} <f5>:
; Under -function-sections the padding is inside the function's own section,
; so it moves with the function when sections are shuffled.
; RUN: llc -O2 -filetype=obj -function-sections %t.bc -o %t.fs.o
; RUN: llvm-objdump -d --no-show-raw-insn --section=.text.f5 %t.fs.o | FileCheck %s --check-prefix=SECTION
; SECTION: Disassembly of section .text.f5:
; SECTION-COUNT-48: int3
; SECTION: 0000000000000030 <f5>:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @ext()

define void @f0() {
  ret void
}
define internal void @f1() {
  call void @ext()
  ret void
}
define void @in_section() section ".text.fixed" {
  ret void
}
define weak void @f2() {
  ret void
}
define linkonce_odr void @f3() {
  ret void
}
define internal void @f4() optnone noinline {
  ret void
}
define void @has_prefix() prefix i8 144 {
  ret void
}
define void @patchable() "patchable-function-prefix"="2" {
  ret void
}
define void @kcfi() !kcfi_type !0 {
  ret void
}
define available_externally void @ae() {
  ret void
}
define i32 @f5() {
  call void @f0()
  call void @f1()
  call void @f2()
  call void @f3()
  call void @f4()
  call void @ae()
  ret i32 0
}
!0 = !{i32 12345}
