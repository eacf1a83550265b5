//go:build amd64 && !purego

#include "textflag.h"

// The pair filter: for each start i of a block, compare data[i+o0] and
// data[i+o1], each ORed with its fold byte (0x20 for a caseless letter),
// with the literal's two bytes, all lanes at once; AND the two compares;
// one bit per start where both bytes fit. A block without any such bit
// costs two loads, two ORs, two compares, an AND, a movemask and a test.
// The lanes hold want0, want1, fold0, fold1, each a byte repeated 32 times.

// func pairMaskAVX2(data *byte, n, o0, o1 int, lanes *pairLanes) (at int, mask uint32)
//
// Two blocks per step while 64 starts are left (one test for both), then
// one block.
TEXT ·pairMaskAVX2(SB), NOSPLIT, $0-52
	MOVQ data+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ o0+16(FP), AX
	MOVQ o1+24(FP), BX
	MOVQ lanes+32(FP), DX
	LEAQ (SI)(AX*1), R8
	LEAQ (SI)(BX*1), R9
	XORQ DI, DI
	SUBQ $32, CX // the last start of a whole block
	JL   avx2none
	VMOVDQU 0(DX), Y0
	VMOVDQU 32(DX), Y1
	VMOVDQU 64(DX), Y2
	VMOVDQU 96(DX), Y3
	MOVQ    CX, R11
	SUBQ    $32, R11 // the last start of two whole blocks
	JL      avx2one

avx2two:
	VMOVDQU   (R8)(DI*1), Y4
	VMOVDQU   (R9)(DI*1), Y5
	VMOVDQU   32(R8)(DI*1), Y6
	VMOVDQU   32(R9)(DI*1), Y7
	VPOR      Y2, Y4, Y4
	VPOR      Y3, Y5, Y5
	VPOR      Y2, Y6, Y6
	VPOR      Y3, Y7, Y7
	VPCMPEQB  Y0, Y4, Y4
	VPCMPEQB  Y1, Y5, Y5
	VPCMPEQB  Y0, Y6, Y6
	VPCMPEQB  Y1, Y7, Y7
	VPAND     Y4, Y5, Y4
	VPAND     Y6, Y7, Y6
	VPOR      Y4, Y6, Y8
	VPTEST    Y8, Y8
	JNZ       avx2either
	ADDQ      $64, DI
	CMPQ      DI, R11
	JLE       avx2two
	CMPQ      DI, CX
	JG        avx2end

avx2one:
	VMOVDQU   (R8)(DI*1), Y4
	VMOVDQU   (R9)(DI*1), Y5
	VPOR      Y2, Y4, Y4
	VPOR      Y3, Y5, Y5
	VPCMPEQB  Y0, Y4, Y4
	VPCMPEQB  Y1, Y5, Y5
	VPAND     Y4, Y5, Y4
	VPMOVMSKB Y4, R10
	TESTL     R10, R10
	JNZ       avx2found
	ADDQ      $32, DI
	CMPQ      DI, CX
	JLE       avx2one

avx2end:
	VZEROUPPER

avx2none:
	MOVQ DI, at+40(FP)
	MOVL $0, mask+48(FP)
	RET

avx2either:
	VPMOVMSKB Y4, R10
	TESTL     R10, R10
	JNZ       avx2found
	ADDQ      $32, DI
	VPMOVMSKB Y6, R10

avx2found:
	VZEROUPPER
	MOVQ DI, at+40(FP)
	MOVL R10, mask+48(FP)
	RET

// func pairMaskSSE2(data *byte, n, o0, o1 int, lanes *pairLanes) (at int, mask uint32)
TEXT ·pairMaskSSE2(SB), NOSPLIT, $0-52
	MOVQ data+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ o0+16(FP), AX
	MOVQ o1+24(FP), BX
	MOVQ lanes+32(FP), DX
	LEAQ (SI)(AX*1), R8
	LEAQ (SI)(BX*1), R9
	XORQ DI, DI
	SUBQ $16, CX
	JL   sse2none
	MOVOU 0(DX), X0
	MOVOU 32(DX), X1
	MOVOU 64(DX), X2
	MOVOU 96(DX), X3

sse2loop:
	MOVOU    (R8)(DI*1), X4
	MOVOU    (R9)(DI*1), X5
	POR      X2, X4
	POR      X3, X5
	PCMPEQB  X0, X4
	PCMPEQB  X1, X5
	PAND     X5, X4
	PMOVMSKB X4, R10
	TESTL    R10, R10
	JNZ      sse2found
	ADDQ     $16, DI
	CMPQ     DI, CX
	JLE      sse2loop

sse2none:
	MOVQ DI, at+40(FP)
	MOVL $0, mask+48(FP)
	RET

sse2found:
	MOVQ DI, at+40(FP)
	MOVL R10, mask+48(FP)
	RET
