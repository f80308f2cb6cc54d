package rules

import (
	"math"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// lineLookups is the share of the L2's line lookups left when the
// accesses of a kernel whose lanes each touch their own line read in
// order: L2 looks up a 128-byte line per request it serves (its tag), so
// a warp whose lanes each read their own line (32 sectors per request,
// one per lane: a gather through random or hashed indices, or a stride
// of 128 bytes or more) costs a lookup per sector, where the same bytes
// read in order cost one per four sectors. The fix removes such an
// access's lookups by lines, not by sectors: on fixtures/sol-check's
// embedding gather (16-byte rows at random) L2 ran at 85 % of its peak
// with L1→L2 sectors only 1.5× the ordered twin's, and the twin took
// 0.41 of the time; on fixtures/sol-check8's hashGather<1> (float2 at
// multiplicatively hashed indices, no index array) the ordered twin's L2
// work (88 % of 138 µs) was 0.17 of the broken kernel's (79 % of 929 µs),
// where its L1→L2 sectors were 0.40 of them and its lines 0.12. ok is
// false when the source page names no such access.
func lineLookups(m analysis.Model) (float64, bool) {
	var before, after float64
	own := false // an access whose lanes each touch their own line
	for _, in := range m.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) {
			continue
		}
		lines := in.Sectors / 4
		if ownLines(in) && in.SectorsPerRequest >= 0.9*32 && in.IdealSectors < in.Sectors {
			own = true
			before += in.Sectors
			after += in.IdealSectors / 4
			continue
		}
		before += lines
		after += lines
	}
	if !own || !(before > 0) {
		return 1, false
	}
	return after / before, true
}

// ownLineWavefronts are the L1 data pipe's wavefronts that a kernel's
// global accesses whose lanes each touch their own line (ownLines, 32
// sectors a request) take beyond a wavefront per four sectors: such a
// request takes a wavefront a line, 32, where its sectors at four a
// wavefront say 8 (fixtures/sol-check28's cumsum0_col, a Triton program
// a column, its lanes 32 KiB apart: 68 M global wavefronts for 2.1 M
// requests, 67 M sectors; its strip twin ran 0.89 faster, priced 0.82
// at 8 a request); with the excess sectors of those accesses, which the
// fix must remove for their wavefronts to go. Each instruction once;
// not a gather's (its lanes' lines are the data's: keptGathers).
func ownLineWavefronts(m analysis.Model) (extra, excess float64) {
	seen := map[string]bool{}
	for _, in := range m.Instructions {
		if in.Space != "global" || !(in.Sectors > 0) || in.Address != "" && seen[in.Address] {
			continue
		}
		seen[in.Address] = true
		if ownLines(in) && !in.Indirect && in.SectorsPerRequest >= 0.9*32 {
			extra += in.Sectors * 3 / 4
			excess += math.Max(0, in.Sectors-in.IdealSectors)
		}
	}
	return extra, excess
}

// ownLines reports a global access whose lanes each touch their own
// 128-byte line: a gather through an index array, or an access the
// source page reads as every thread in its own line (a stride of 128
// bytes or more, hashed indices). A smaller stride shares lines (40-byte
// structs: ten lines a request for 32 sectors), which coalescing removes
// by sectors.
func ownLines(in analysis.Instruction) bool {
	return in.Indirect || in.Pattern.Kind == gpumodel.Strided && in.Pattern.StrideBytes == 0 && !in.Pattern.Random
}
