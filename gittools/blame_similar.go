package gittools

import "bytes"

// Rename scoring of git's diffcore (diffcore-delta.c, diffcore-rename.c estimate_similarity): both files are
// cut into chunks ending at a newline or after 64 bytes, chunks are hashed into buckets, and the score is the
// share of the larger file made of bytes the source's chunks cover.
const (
	maxRenameScore     = 60000
	minRenameScore     = 30000 // git's default -M50%
	spanHashBase       = 107927
	maxRenameSources   = 1000 // deleted files scored per rename search (git's diff.renameLimit)
	binaryProbeLength  = 8000 // git's buffer_is_binary looks for a NUL this far
	maxSpanChunkLength = 64
)

// spanCounts maps chunk hashes to the bytes of the chunks with that hash.
func spanCounts(data []byte) map[uint32]int {
	text := bytes.IndexByte(data[:min(len(data), binaryProbeLength)], 0) < 0
	counts := map[uint32]int{}
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue // CRLF counts as LF in text
		}
		old1 := accum1
		accum1 = accum1<<7 ^ accum2>>25
		accum2 = accum2<<7 ^ old1>>25
		accum1 += c
		if n++; n < maxSpanChunkLength && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%spanHashBase] += n
		n, accum1, accum2 = 0, 0, 0
	}
	return counts
}

// similarity is estimate_similarity's score (0 to maxRenameScore) of dst as an edited copy of src.
func similarity(src, dst []byte, srcCounts, dstCounts map[uint32]int) int {
	maxSize, baseSize := max(len(src), len(dst)), min(len(src), len(dst))
	if maxSize*(maxRenameScore-minRenameScore) < (maxSize-baseSize)*maxRenameScore || len(dst) == 0 {
		return 0
	}
	copied := 0
	for h, sc := range srcCounts {
		copied += min(sc, dstCounts[h])
	}
	return copied * maxRenameScore / maxSize
}
