#include "textflag.h"

// func prefetchSpans(spans *uint64, n int)
TEXT ·prefetchSpans(SB), NOSPLIT, $0-16
	MOVQ spans+0(FP), SI
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JLE none
span:
	MOVQ (SI), AX
	MOVQ AX, DX
	SHRQ $56, DX
	SHLQ $8, AX
	SHRQ $8, AX
	TESTQ DX, DX
	JZ skip
line:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ DX
	JNZ line
skip:
	ADDQ $8, SI
	DECQ CX
	JNZ span
none:
	RET
