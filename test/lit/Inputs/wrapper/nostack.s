# A function in assembly whose object has no .note.GNU-stack: GNU ld gives
# the program an executable stack (binutils 2.40 warns), lld does not.
	.text
	.globl	f
	.type	f,@function
f:
	movl	$42, %eax
	ret
