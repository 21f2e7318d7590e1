; stack-offset: main's entry block starts with an alloca of 0..4096 bytes
; (16-aligned) drawn from the stack-offset stream, kept alive by a volatile
; store, also when main is optnone; modules without a main definition are left
; alone. Sizes from the reference model.
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=stack-offset>' -S < %s > %t.42.ll
; RUN: %python %inputs/passes/layout_model.py stack 42 '<stdin>' STACK > %t.42.check
; RUN: FileCheck %t.42.check --check-prefix=STACK --input-file %t.42.ll
; RUN: FileCheck %s --input-file %t.42.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=1234;factors=stack-offset>' -S < %s > %t.1234.ll
; RUN: %python %inputs/passes/layout_model.py stack 1234 '<stdin>' STACK > %t.1234.check
; RUN: FileCheck %t.1234.check --check-prefix=STACK --input-file %t.1234.ll
; RUN: FileCheck %s --input-file %t.1234.ll
;
; The offset is in main's frame after codegen, at -O2 and -O0: the
; stack-frame-layout analysis remark lists a 16-aligned object of exactly the
; model's size in main's frame (FRAME), at [SP-AT] (SP: the stack pointer at
; entry), and the volatile store writes its first byte, FRAME - AT above the
; stack pointer after the prologue's `subq $FRAME` (STORE).
; RUN: %python %inputs/passes/layout_model.py stack-frame 42 '<stdin>' FRAME > %t.42.frame
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='default<O2>,alea-layout<seed=42;factors=stack-offset>' < %s | llc -O2 -pass-remarks-analysis=stack-frame-layout -o %t.O2.s 2> %t.O2.remarks
; RUN: FileCheck %t.42.frame --check-prefix=FRAME --input-file %t.O2.remarks
; RUN: cat %t.O2.remarks %t.O2.s | FileCheck %s --check-prefix=STORE
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=stack-offset>' < %s | llc -O0 -pass-remarks-analysis=stack-frame-layout -o %t.O0.s 2> %t.O0.remarks
; RUN: FileCheck %t.42.frame --check-prefix=FRAME --input-file %t.O0.remarks
; RUN: cat %t.O0.remarks %t.O0.s | FileCheck %s --check-prefix=STORE
; Without the factor, both fail.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=none>' < %s | llc -O0 -pass-remarks-analysis=stack-frame-layout -o %t.none.s 2> %t.none.remarks
; RUN: not FileCheck %t.42.frame --check-prefix=FRAME --input-file %t.none.remarks
; RUN: cat %t.none.remarks %t.none.s | not FileCheck %s --check-prefix=STORE
; STORE: Function: main
; STORE-NEXT: Offset: [SP-[[#%d,AT:]]], Type: Variable, Align: 16, Size: {{[0-9]+}}
; STORE: {{^}}main:
; STORE: subq $[[#%d,FRAME:]], %rsp
; STORE-NOT: (%rsp)
; STORE: movb $0, [[#FRAME - AT]](%rsp)
;
; No main, no change (besides the note).
; RUN: sed 's/@main(/@not_main(/' %s | %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=stack-offset>' -S | FileCheck %s --check-prefix=NOMAIN
; NOMAIN-NOT: alea.stack.offset

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i32 @work(ptr)

; CHECK: define i32 @main(i32 %argc, ptr %argv) #0 {
; CHECK-NEXT: %alea.stack.offset = alloca [{{[0-9]+}} x i8], align 16
; CHECK-NEXT: store volatile i8 0, ptr %alea.stack.offset, align 1
; CHECK-NEXT: %buf = alloca [16 x i8]
; CHECK: attributes #0 = { noinline optnone }
define i32 @main(i32 %argc, ptr %argv) noinline optnone {
  %buf = alloca [16 x i8]
  %r = call i32 @work(ptr %buf)
  ret i32 %r
}
