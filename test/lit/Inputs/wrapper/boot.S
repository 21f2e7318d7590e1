// A 512-byte x86 boot sector (16-bit code, 0xaa55 signature), linked as a raw
// image at 0x7c00: a link whose output layout the user places entirely.
        .code16
        .text
        .globl _start
_start:
        cli
        xor %ax, %ax
        mov %ax, %ds
        mov $msg, %si
1:      lodsb
        test %al, %al
        jz 2f
        mov $0x0e, %ah
        int $0x10
        jmp 1b
2:      hlt
        jmp 2b
msg:    .asciz "alea"
        .org 510
        .word 0xaa55
