; code-padding keeps every function's own alignment: a unit of padding is
; max(16, the function's alignment), so an aligned(32) or aligned(64) function
; (or -falign-functions=64) still starts on its boundary; functions aligned
; beyond 64 bytes (page-aligned code) draw but are not padded. Sizes from the
; reference model (Inputs/passes/layout_model.py, "name:align").
;
; RUN: for s in 1 2 3 4 5 6 7 8; do \
; RUN:   %opt -load-pass-plugin=%alea_plugin -passes="alea-layout<seed=$s;factors=code-padding>" -S < %s > %t.$s.ll && \
; RUN:   %python %inputs/passes/layout_model.py padding $s '<stdin>' PAD plain a32:32 a64:64 a128:128 a4096:4096 > %t.$s.check && \
; RUN:   FileCheck %t.$s.check --check-prefix=PAD --input-file %t.$s.ll && \
; RUN:   llc -O2 -filetype=obj %t.$s.ll -o %t.$s.o && \
; RUN:   llvm-nm %t.$s.o > %t.$s.nm && \
; RUN:   %python %inputs/passes/check_alignment.py %t.$s.nm || exit 1; \
; RUN: done
; The seeds above pad the aligned functions at least once (not vacuous).
; RUN: cat %t.*.ll | FileCheck %s --check-prefix=SOME
; SOME-DAG: define void @a32() align 32 prefix [{{32|64|96}} x i8]
; SOME-DAG: define void @a64() align 64 prefix [{{64|128|192}} x i8]
; SOME-NOT: @a128() align 128 prefix
; SOME-NOT: @a4096() align 4096 prefix

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @plain() {
  ret void
}
define void @a32() align 32 {
  ret void
}
define void @a64() align 64 {
  ret void
}
define void @a128() align 128 {
  ret void
}
define void @a4096() align 4096 {
  ret void
}
