; The .note.alea record (common brief, "ELF note"): an ELF note (gABI: namesz,
; descsz, type, name, desc, 4-byte padded) with name "alea", type 1 and the
; descriptor `alea-layout-v1 seed=0x<16 hex> factors=<canonical list>`
; NUL-terminated, in section .note.alea, align 4, kept by llvm.used. The
; factor list is the whole configured set in canonical order, link-time
; factors included, whatever order it was given in.
;
; "alea-layout-v1 seed=0x000000000000002a factors=function-order,symbol-names"
; is 74 characters: descsz = 75 = 0x4b ('K'), 12 + 8 + 76 = 96 bytes.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=symbol-names+function-order>' -S < %s | FileCheck %s --check-prefix=TWO
; TWO: @__alea_note = private constant [96 x i8] c"\05\00\00\00K\00\00\00\01\00\00\00alea\00\00\00\00alea-layout-v1 seed=0x000000000000002a factors=function-order,symbol-names\00\00", section ".note.alea", align 4
; TWO: @llvm.used = appending global [1 x ptr] [ptr @__alea_note], section "llvm.metadata"
;
; All factors (the default): 47 + 91 = 138 characters, descsz 139 = 0x8b,
; padded to 140: 12 + 8 + 140 = 160 bytes.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=0xFFFFFFFFFFFFFFFF>' -S < %s | FileCheck %s --check-prefix=ALL
; ALL: @__alea_note = private constant [160 x i8] c"\05\00\00\00\8B\00\00\00\01\00\00\00alea\00\00\00\00alea-layout-v1 seed=0xffffffffffffffff factors=function-order,global-order,symbol-names,code-padding,stack-offset,link-order,section-order\00\00", section ".note.alea", align 4
;
; Link-time factors only: the module is not changed, but the note records them.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=1;factors=section-order:link-order>' -S < %s | FileCheck %s --check-prefix=LINK
; LINK: factors=link-order,section-order\00
; LINK: @llvm.used = appending global [1 x ptr] [ptr @__alea_note]
; LINK-NOT: __alea_{{pad|[A-Za-z0-9_]+\(}}
; LINK-NOT: alloca
; LINK: define internal void @helper()
;
; The environment is the default configuration of the pass (read once when
; the plugin is registered); parameters override it.
; RUN: env ALEA_SEED=0x2a ALEA_FACTORS=symbol-names,function-order %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -S < %s | FileCheck %s --check-prefix=TWO
; RUN: env ALEA_SEED=0x2a ALEA_FACTORS=none %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -S < %s | FileCheck %s --check-prefix=NONE
; RUN: env ALEA_SEED=7 %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=function-order+symbol-names>' -S < %s | FileCheck %s --check-prefix=TWO
; NONE: alea-layout-v1 seed=0x000000000000002a factors=\00
; NONE: @llvm.used = appending global [1 x ptr] [ptr @__alea_note]
; NONE-NOT: __alea_
; NONE: define internal void @helper()
;
; An object file carries it as an SHT_NOTE section readelf can decode.
; RUN: %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=42;factors=function-order+symbol-names>' < %s | llc -filetype=obj -o %t.o
; RUN: llvm-readelf -S -n %t.o | FileCheck %s --check-prefix=ELF
; ELF: .note.alea NOTE {{[0-9a-f]+}} {{[0-9a-f]+}} 000060 00 AR 0 0 4
; ELF: Displaying notes found in: .note.alea
; ELF-NEXT: Owner Data size Description
; ELF-NEXT: alea 0x0000004b
;
; No seed: nothing at all, the output equals the input through opt.
; RUN: %opt -S < %s > %t.plain.ll
; RUN: %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -S < %s | diff %t.plain.ll -
; RUN: env ALEA_FACTORS=all %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -S < %s | diff %t.plain.ll -
; RUN: env ALEA_FACTORS=bogus %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -S < %s | diff %t.plain.ll -
;
; Configuration errors are reported through the LLVM context.
; RUN: not %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=12ab>' -disable-output < %s 2>&1 | FileCheck %s --check-prefix=BADSEED
; BADSEED: error: alea: alea-layout seed '12ab' is not a seed (decimal or 0x-prefixed hexadecimal)
; RUN: env ALEA_SEED=-1 not %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -disable-output < %s 2>&1 | FileCheck %s --check-prefix=BADENVSEED
; BADENVSEED: error: alea: ALEA_SEED '-1' is not a seed
; RUN: env ALEA_SEED=1 ALEA_FACTORS=function-order,bogus not %opt -load-pass-plugin=%alea_plugin -passes=alea-layout -disable-output < %s 2>&1 | FileCheck %s --check-prefix=BADFACTOR
; BADFACTOR: error: alea: ALEA_FACTORS: unknown layout factor 'bogus'
; RUN: not %opt -load-pass-plugin=%alea_plugin -passes='alea-layout<seed=1;colour=red>' -disable-output < %s 2>&1 | FileCheck %s --check-prefix=BADPARAM
; BADPARAM: error: alea: alea-layout: unknown parameter 'colour=red'

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define internal void @helper() {
  ret void
}
define void @f() {
  call void @helper()
  ret void
}
