#include "textflag.h"

// func valuesDiffer(x, y unsafe.Pointer, n int) bool
//
// Whether the n 16-byte Values at x and y differ in any byte: each pair
// xor-ed in an SSE register and or-ed into X0, four Values a round while
// four or more are left, then two, then one; X0 is zero when they are
// alike.
TEXT ·valuesDiffer(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	PXOR X0, X0
	SHLQ $4, CX
	XORQ AX, AX
	CMPQ CX, $64
	JB   two
four:
	MOVOU (SI)(AX*1), X1
	MOVOU 16(SI)(AX*1), X2
	MOVOU 32(SI)(AX*1), X3
	MOVOU 48(SI)(AX*1), X4
	MOVOU (DI)(AX*1), X5
	MOVOU 16(DI)(AX*1), X6
	MOVOU 32(DI)(AX*1), X7
	MOVOU 48(DI)(AX*1), X8
	PXOR  X5, X1
	PXOR  X6, X2
	PXOR  X7, X3
	PXOR  X8, X4
	POR   X1, X0
	POR   X2, X0
	POR   X3, X0
	POR   X4, X0
	ADDQ  $64, AX
	LEAQ  64(AX), DX
	CMPQ  DX, CX
	JBE   four
two:
	LEAQ  32(AX), DX
	CMPQ  DX, CX
	JA    one
	MOVOU (SI)(AX*1), X1
	MOVOU 16(SI)(AX*1), X2
	MOVOU (DI)(AX*1), X5
	MOVOU 16(DI)(AX*1), X6
	PXOR  X5, X1
	PXOR  X6, X2
	POR   X1, X0
	POR   X2, X0
	MOVQ  DX, AX
one:
	CMPQ  AX, CX
	JAE   done
	MOVOU (SI)(AX*1), X1
	MOVOU (DI)(AX*1), X5
	PXOR  X5, X1
	POR   X1, X0
done:
	PXOR     X1, X1
	PCMPEQB  X1, X0
	PMOVMSKB X0, AX
	CMPL     AX, $0xffff
	SETNE    ret+24(FP)
	RET
