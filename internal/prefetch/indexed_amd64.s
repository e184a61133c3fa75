#include "textflag.h"

// func indexed(ptrs unsafe.Pointer, idx *int32, lines *uint8, n int, hot uintptr)
//
// Per object: its pointer from ptrs[idx[i]], its lines from lines[i] (1
// to 127 is the number of lines; 0 or 128 and more means the hot bytes
// only: (p&63 + hot) >> 6 lines, hot being the hot bytes plus 63), then
// those lines: six at once when there are six or more, then four at a
// time while four or more are left, then one at a time.
TEXT ·indexed(SB), NOSPLIT, $0-40
	MOVQ ptrs+0(FP), SI
	MOVQ idx+8(FP), DI
	MOVQ lines+16(FP), DX
	MOVQ n+24(FP), CX
	MOVQ hot+32(FP), R9
	TESTQ CX, CX
	JLE  end
object:
	MOVLQSX (DI), AX
	MOVQ (SI)(AX*8), AX
	MOVBQZX (DX), BX
	LEAQ -1(BX), R8
	CMPQ R8, $0x7f
	JB   six
	MOVQ AX, BX
	ANDQ $63, BX
	ADDQ R9, BX
	SHRQ $6, BX
six:
	CMPQ BX, $6 // the engine's commonest count (an agent with 7 state variables): no loop
	JLT  lines
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	PREFETCHT0 256(AX)
	PREFETCHT0 320(AX)
	ADDQ $384, AX
	SUBQ $6, BX
	JZ   next
lines:
	CMPQ BX, $4
	JLT  rest
	PREFETCHT0 (AX)
	PREFETCHT0 64(AX)
	PREFETCHT0 128(AX)
	PREFETCHT0 192(AX)
	ADDQ $256, AX
	SUBQ $4, BX
	JMP  lines
rest:
	TESTQ BX, BX
	JLE  next
line:
	PREFETCHT0 (AX)
	ADDQ $64, AX
	DECQ BX
	JNZ  line
next:
	ADDQ $4, DI
	INCQ DX
	DECQ CX
	JNZ  object
end:
	RET
