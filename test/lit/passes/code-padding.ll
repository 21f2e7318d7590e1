; code-padding: before each defined function (final order; explicit-section
; functions excluded) a padding function of 0..63 bytes (0: none) drawn from
; the code-padding stream: internal, naked, noinline, nounwind, one
; `.skip N, 0xcc` (int3 on x86) then unreachable, listed in llvm.compiler.used
; so that -O2 and codegen keep it. Sizes from the reference model.
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=code-padding>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py padding 42 '<stdin>' PAD f0 f1 f2 f3 f4 f5 > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=PAD --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5;factors=code-padding>' -S < %s > %t.5.ll
; RUN: %python %inputs/passes/layout_model.py padding 5 '<stdin>' PAD f0 f1 f2 f3 f4 f5 > %t.5.check
; RUN: FileCheck %t.5.check --check-prefix=PAD --input-file %t.5.ll
; RUN: FileCheck %s --input-file %t.5.ll
; RUN: not diff %t.42.ll %t.5.ll
;
; The padding survives the whole -O2 pipeline and codegen: the object holds
; int3 runs in front of the functions, as many padding symbols as in the IR.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='default<O2>,alea-layout<seed=42;factors=code-padding>' < %s -o %t.bc
; RUN: llc -O2 -filetype=obj %t.bc -o %t.o
; RUN: llvm-nm -n %t.o | FileCheck %s --check-prefix=NM
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=ASM
; And under -function-sections each padding function has its own section.
; RUN: llc -O2 -filetype=obj -function-sections %t.bc -o %t.fs.o
; RUN: llvm-readelf -S %t.fs.o | FileCheck %s --check-prefix=SECTIONS

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @llvm.compiler.used = appending global [{{[2-7]}} x ptr] [ptr @f1, ptr @__alea_pad_0
; CHECK: define internal void @__alea_pad_0() #[[PADATTR:[0-9]+]] {
; CHECK-NEXT: call void asm sideeffect ".skip {{[0-9]+}}, 204", ""()
; CHECK-NEXT: unreachable
; CHECK: define void @in_section() section ".text.fixed" {
; CHECK: attributes #[[PADATTR]] = { naked noinline nounwind }

; NM-DAG: t __alea_pad_0
; NM-DAG: T f0
; NM-DAG: T f5
; ASM: int3
; SECTIONS: .text.__alea_pad_0 PROGBITS
; SECTIONS: .text.f0

@llvm.compiler.used = appending global [1 x ptr] [ptr @f1], section "llvm.metadata"

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
define i32 @f5() {
  call void @f0()
  call void @f2()
  call void @f3()
  call void @f4()
  ret i32 0
}
