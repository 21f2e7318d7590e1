; Factor isolation (DESIGN.md): every factor draws from its own stream, so
; switching the other factors on or off leaves its draws unchanged.
;
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99>' -S < %s > %t.all.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=function-order>' -S < %s > %t.fo.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=function-order+global-order+stack-offset>' -S < %s > %t.fo3.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=global-order>' -S < %s > %t.go.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=symbol-names>' -S < %s > %t.sn.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=code-padding>' -S < %s > %t.cp.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=99;factors=stack-offset>' -S < %s > %t.so.ll
;
; function-order: same order of definitions with or without global-order and
; stack-offset (which do not rename or add functions).
; RUN: grep '^define' %t.fo.ll > %t.fo.order
; RUN: grep '^define' %t.fo3.ll > %t.fo3.order
; RUN: diff %t.fo.order %t.fo3.order
; ... and it is not the input order.
; RUN: grep '^define' %s | not diff - %t.fo.order
;
; global-order: same order of the original globals alone and with everything.
; RUN: grep -o '^@g[0-9]' %t.go.ll > %t.go.order
; RUN: grep -o '^@g[0-9]' %t.fo3.ll | diff %t.go.order -
; RUN: grep -o '^@g[0-9]' %s | not diff - %t.go.order
;
; symbol-names: the same names are drawn alone and with everything.
; RUN: grep -o '@__alea_[A-Za-z0-9_]*' %t.sn.ll | grep -v -e '^@__alea_note$' | sort -u > %t.sn.names
; RUN: grep -o '@__alea_[A-Za-z0-9_]*' %t.all.ll | grep -v -e '^@__alea_note$' | sort -u | diff %t.sn.names -
; RUN: FileCheck %s --check-prefix=NAMES --input-file %t.sn.names
; NAMES-COUNT-6: @__alea_
; NAMES-NOT: @__alea_
;
; code-padding: the same sequence of padding sizes alone and with everything.
; RUN: grep -o 'prefix \[[0-9]* x i8\]' %t.cp.ll > %t.cp.sizes
; RUN: grep -o 'prefix \[[0-9]* x i8\]' %t.all.ll | diff %t.cp.sizes -
; RUN: FileCheck %s --check-prefix=SIZES --input-file %t.cp.sizes
; SIZES: prefix [{{16|32|48}} x i8]
;
; stack-offset: the same offset alone and with everything.
; RUN: grep 'alloca \[' %t.so.ll > %t.so.alloca
; RUN: grep 'alloca \[' %t.all.ll | diff %t.so.alloca -

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@g0 = global i32 0
@g1 = internal global i32 1
@g2 = global i32 2
@g3 = internal global i32 3
@g4 = global i32 4
@g5 = private constant [2 x i8] c"a\00"

declare void @ext()

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
define internal void @d() {
  ret void
}
define weak void @e() {
  ret void
}
define i32 @main() {
  call void @c()
  call void @d()
  call void @e()
  %v = load i32, ptr @g1
  %w = load i32, ptr @g3
  %s = add i32 %v, %w
  ret i32 %s
}
