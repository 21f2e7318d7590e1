; flang's modules (flang-new-19 names every module "FIRModule"; opt takes the
; identifier from the file name, so the input is copied to a file of that name):
; with section-order, each defined function without a section gets
; `.text.<name>` (flang has no -ffunction-sections); declarations and explicit
; sections are left alone, and nothing changes for a module of another name or
; without section-order. The salt adds the module's non-comdat names: two
; FIRModules with other names draw other orders.
;
; RUN: rm -rf %t && mkdir -p %t/a %t/b && cp %s %t/a/FIRModule
; RUN: sed 's/@p\([0-9]\)/@q\1/g' %s > %t/b/FIRModule
; RUN: cd %t/a && %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5>' -S FIRModule -o %t/a.ll
; RUN: FileCheck --check-prefix=SECTIONS %s < %t/a.ll
; SECTIONS-DAG: define void @p1() {{.*}}section ".text.p1"
; SECTIONS-DAG: define void @p6() {{.*}}section ".text.p6"
; SECTIONS-DAG: define void @keep() section ".init_array.keep"
; SECTIONS-DAG: declare void @ext()
;
; Without section-order, or under another module name: no sections.
; RUN: cd %t/a && %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5;factors=function-order>' -S FIRModule -o %t/fo.ll
; RUN: not grep 'section ".text' %t/fo.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5>' -S < %s -o %t/stdin.ll
; RUN: not grep 'section ".text' %t/stdin.ll
;
; Salt: the same six functions under other names draw another order.
; RUN: cd %t/b && %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=5;factors=function-order>' -S FIRModule -o %t/b.ll
; RUN: grep '^define void @p' %t/fo.ll | sed 's/.*@p\([0-9]\).*/\1/' > %t/order.a
; RUN: grep '^define void @q' %t/b.ll | sed 's/.*@q\([0-9]\).*/\1/' > %t/order.b
; RUN: not diff %t/order.a %t/order.b

declare void @ext()

define void @p1() {
  call void @ext()
  ret void
}
define void @p2() {
  ret void
}
define void @p3() {
  ret void
}
define void @p4() {
  ret void
}
define void @p5() {
  ret void
}
define void @p6() {
  ret void
}
define void @keep() section ".init_array.keep" {
  ret void
}
