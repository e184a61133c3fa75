#include "textflag.h"
#include "go_asm.h"

// func valuesDiffer(x, y unsafe.Pointer, n int) bool
//
// Whether the n 16-byte Values at x and y differ in any byte: each pair
// xor-ed in an SSE register and or-ed into X0, four Values a round while
// four or more are left, then two, then one; X0 is zero when they are
// alike.
//
// With AVX2 (useAVX2) and two or more Values, 32 bytes a load instead:
// from 2 to 8 Values (32 to 128 bytes), the first and last 32 bytes, and
// for more than 4 the 32 bytes after the first and before the last (the
// pieces overlap when n is odd, and no byte outside the n Values is
// read), with no loop; past 8, 64 bytes a round, then the last 64.
TEXT ·valuesDiffer(SB), NOSPLIT, $0-25
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	SHLQ $4, CX
	CALL differ<>(SB)
	MOVB AX, ret+24(FP)
	RET

// func stateMoved(a *Agent) bool
//
// Whether a's State may differ from post: true when post does not lie in
// stateBuf (postN is 0) or State's length is not postN, else whether the
// postN Values of State and of stateBuf[postN:] differ in any byte. The
// tick's commonest question, with the agent's fields read here (their
// offsets from go_asm.h) rather than handed over.
TEXT ·stateMoved(SB), NOSPLIT, $0-9
	MOVQ    a+0(FP), AX
	MOVBQZX Agent_postN(AX), CX
	TESTQ   CX, CX
	JZ      moved
	CMPQ    CX, (Agent_State+8)(AX)
	JNE     moved
	MOVQ    Agent_State(AX), SI
	SHLQ    $4, CX
	LEAQ    Agent_stateBuf(AX)(CX*1), DI
	CALL    differ<>(SB)
	MOVB    AX, ret+8(FP)
	RET
moved:
	MOVB $1, ret+8(FP)
	RET

// differ: whether the CX bytes (a multiple of 16) at SI and DI differ,
// in AL (1 or 0). It uses X0-X8 (Y0-Y3 with AVX2), AX, DX.
TEXT differ<>(SB), NOSPLIT, $0-0
	CMPB ·useAVX2(SB), $0
	JEQ  sse
	CMPQ CX, $32
	JB   sse
	CMPQ CX, $128
	JA   avxmany
	VMOVDQU (SI), Y0
	VPXOR   (DI), Y0, Y0
	VMOVDQU -32(SI)(CX*1), Y1
	VPXOR   -32(DI)(CX*1), Y1, Y1
	VPOR    Y1, Y0, Y0
	CMPQ    CX, $64
	JBE     avxdone
	VMOVDQU 32(SI), Y2
	VPXOR   32(DI), Y2, Y2
	VMOVDQU -64(SI)(CX*1), Y3
	VPXOR   -64(DI)(CX*1), Y3, Y3
	VPOR    Y2, Y0, Y0
	VPOR    Y3, Y0, Y0
avxdone:
	VPTEST     Y0, Y0
	VZEROUPPER
	SETNE      AX
	RET
avxmany:
	VPXOR Y0, Y0, Y0
	XORQ  AX, AX
avxround:
	VMOVDQU (SI)(AX*1), Y1
	VPXOR   (DI)(AX*1), Y1, Y1
	VMOVDQU 32(SI)(AX*1), Y2
	VPXOR   32(DI)(AX*1), Y2, Y2
	VPOR    Y1, Y0, Y0
	VPOR    Y2, Y0, Y0
	ADDQ    $64, AX
	LEAQ    64(AX), DX
	CMPQ    DX, CX
	JBE     avxround
	VMOVDQU -64(SI)(CX*1), Y1
	VPXOR   -64(DI)(CX*1), Y1, Y1
	VMOVDQU -32(SI)(CX*1), Y2
	VPXOR   -32(DI)(CX*1), Y2, Y2
	VPOR    Y1, Y0, Y0
	VPOR    Y2, Y0, Y0
	JMP     avxdone
sse:
	PXOR X0, X0
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
	SETNE    AX
	RET

// func cpuHasAVX2() bool
//
// Whether the processor has AVX2 and the system saves the YMM registers
// (CPUID leaf 1: OSXSAVE and AVX; XGETBV: XMM and YMM state enabled;
// CPUID leaf 7: AVX2).
TEXT ·cpuHasAVX2(SB), NOSPLIT, $0-1
	MOVB  $0, ret+0(FP)
	XORL  AX, AX
	CPUID
	CMPL  AX, $7
	JB    no
	MOVL  $1, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x18000000, CX // OSXSAVE (27) and AVX (28)
	CMPL  CX, $0x18000000
	JNE   no
	XORL  CX, CX
	XGETBV
	ANDL  $6, AX // XMM (1) and YMM (2) state
	CMPL  AX, $6
	JNE   no
	MOVL  $7, AX
	XORL  CX, CX
	CPUID
	ANDL  $0x20, BX // AVX2 (5)
	JZ    no
	MOVB  $1, ret+0(FP)
no:
	RET
