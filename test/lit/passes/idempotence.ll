; Running the pass twice with the same configuration (what happens to a
; module laid out at compile time and again in a full-LTO link) reorders
; again but does not rename twice, pad twice, offset the stack twice or add a
; second identical note.
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=4>' -S < %s > %t.once.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=4>,alea-layout<seed=4>' -S < %s > %t.twice.ll
; RUN: FileCheck %s --input-file %t.twice.ll
; RUN: FileCheck %s --input-file %t.once.ll
; The same names were drawn once.
; RUN: grep -o '@__alea_[A-Za-z0-9_]*' %t.once.ll | sort -u > %t.once.names
; RUN: grep -o '@__alea_[A-Za-z0-9_]*' %t.twice.ll | sort -u | diff %t.once.names -
;
; CHECK: section ".note.alea"
; CHECK-NOT: section ".note.alea"
; CHECK: define i32 @main() {{.*}}{
; CHECK-NEXT: alloca [{{[0-9]+}} x i8], align 16, !alea.stack.offset
; CHECK-NOT: alloca [{{[0-9]+}} x i8], align 16, !alea.stack.offset
; Prefix data is never doubled: every prefix is one of the drawn sizes.
; CHECK-NOT: prefix [{{[0-9]*[^0-9 ]}}
; CHECK-NOT: prefix [{{(64|80|96)}} x

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@counter = internal global i32 0

define internal void @a() {
  ret void
}
define internal void @b() {
  call void @a()
  ret void
}
define void @c() {
  call void @b()
  ret void
}
define i32 @main() {
  call void @c()
  %v = load i32, ptr @counter
  ret i32 %v
}
