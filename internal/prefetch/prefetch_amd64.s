#include "textflag.h"

// func Lines(p unsafe.Pointer, lines int)
//
// Four lines a round while four or more are left, then one at a time.
TEXT ·Lines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ lines+8(FP), CX
	CMPQ CX, $4
	JLT  ones
fours:
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	ADDQ $256, AX
	SUBQ $4, CX
	CMPQ CX, $4
	JGE  fours
ones:
	TESTQ CX, CX
	JLE  done
one:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ CX
	JNZ  one
done:
	RET
