#include "textflag.h"

// func regionLines(rs *Region, n int)
//
// Each Region holds an address in its low 56 bits and a number of lines
// in its top byte; a Region of zero lines prefetches nothing.
TEXT ·regionLines(SB), NOSPLIT, $0-16
	MOVQ rs+0(FP), SI
	MOVQ n+8(FP), CX
	TESTQ CX, CX
	JLE none
region:
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
	JNZ region
none:
	RET
