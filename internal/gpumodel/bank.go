package gpumodel

// bankConflict returns the shared-memory bank-conflict degree (1 = no
// conflict, n = the access is replayed as n wavefronts per phase) when the
// threads of a warp read elemBytes-sized elements at element index
// tid·strideElems, on shared memory of banks banks that are bankWidthBytes
// wide.
//
// The model (Harris's CUDA performance slides, CUDA Programming Guide):
//   - successive bankWidthBytes words sit in successive banks;
//   - the banks serve one request group at a time: a half-warp of 16
//     threads with 16 banks (CC 1.x), a warp of 32 with 32 banks;
//   - when a group's elements are wider than a bank row (32 banks × 4 B
//     = 128 B, e.g. a warp of 8-byte doubles), the group is split into
//     phases of banks·bankWidthBytes/elemBytes threads, as the hardware
//     does for 64- and 128-bit loads; "no bank conflicts when accessing
//     8-byte words" on Fermi is stride 1 under this rule;
//   - threads reading the same word are served together (broadcast), so
//     the degree is the largest number of DISTINCT words one bank must
//     deliver in a phase.
//
// Stride 1 gives 1; strides 2, 8 and 32 give 2, 8 and 32 for 4-byte words
// and 32 banks (in general gcd(stride, 32)). Kepler's 8-byte bank mode is
// bankWidthBytes = 8. A negative stride behaves as its absolute value;
// non-positive banks, bank width or element size give 0.
func bankConflict(banks, bankWidthBytes, elemBytes, strideElems int) int {
	if banks <= 0 || bankWidthBytes <= 0 || elemBytes <= 0 {
		return 0
	}
	if strideElems < 0 {
		strideElems = -strideElems
	}
	group := warpSize
	if banks == halfWarp {
		group = halfWarp // CC 1.x: 16 banks serve a half-warp
	}
	perPhase := max(1, min(group, banks*bankWidthBytes/elemBytes))
	worst := 0
	for first := 0; first < group; first += perPhase {
		words := map[int64]bool{} // distinct words in this phase
		load := make([]int, banks)
		for t := first; t < min(first+perPhase, group); t++ {
			addr := int64(t) * int64(strideElems) * int64(elemBytes)
			// An element wider than a bank covers several words.
			for w := addr / int64(bankWidthBytes); w <= (addr+int64(elemBytes)-1)/int64(bankWidthBytes); w++ {
				if words[w] {
					continue
				}
				words[w] = true
				b := int(w % int64(banks))
				load[b]++
				worst = max(worst, load[b])
			}
		}
	}
	return worst
}

// TileColumnConflict is the conflict degree of a warp reading one column
// of a shared tile[T][widthElems] of elemBytes elements (thread t reads
// tile[t][c]) on 32 banks of 4 B, the layout of every GPU since Fermi:
// consecutive threads are widthElems elements apart. A float tile of
// width 32 gives 32 (every thread in one bank), width 33 gives 1, which
// is why Harris's transpose example pads with TILE_DIM+1.
func TileColumnConflict(widthElems, elemBytes int) int {
	return bankConflict(32, 4, elemBytes, widthElems)
}

// PaddingFor is the smallest number of elements to add to each tile row
// so that TileColumnConflict(widthElems+padding, elemBytes) is 1: 1 for a
// float or double tile of width 32, 0 for width 33. It returns -1 if no
// padding below 32 elements helps (a row padding only moves whole
// elements, so sub-word elements can keep sharing a word's bank).
func PaddingFor(widthElems, elemBytes int) int {
	if widthElems < 0 || elemBytes <= 0 {
		return -1
	}
	for p := 0; p < 32; p++ {
		if TileColumnConflict(widthElems+p, elemBytes) == 1 {
			return p
		}
	}
	return -1
}
