package analysis

import "math"

// gatherSectorsPerRequest is the sectors a request from which a gather
// through loaded indices is random: a lane a sector (0.9 of 32).
const gatherSectorsPerRequest = 0.9 * 32

// Gathers is what OrderedGathers reads of a kernel's random gathers, in
// bytes: their DRAM bytes now, their ideal sectors' (Asked) and what DRAM
// would move for them in order; Excess is their sectors above the ideal,
// in sectors.
type Gathers struct {
	Now, Asked, Ordered float64
	Excess              float64
}

// OrderedGathers reads a kernel's random gathers (global loads at
// addresses loaded from memory, a lane a sector) whose data L2 cannot
// hold: DRAM moves more bytes for them than their ideal sectors carry,
// each sector fetched again after L2 evicted it. Their data then exceeds
// the L2, and a random order over it hits L2 as often as the L2 holds a
// share of it: the data is about the L2's size over the gathers' hit
// rate, and in order DRAM moves it once, or their ideal sectors where
// fewer. The gathers' DRAM bytes are the kernel's past what its other
// global sectors could have moved, each once. fixtures/sol-check27's
// mooreSum<0>, eight gathers a cell from a 64 MiB field: 4.3 GB of
// sectors, 0.83 GB from DRAM (80.6 % hits, more than their 537 MB of
// ideal sectors); 60 MiB of L2 over 0.806 says 78 MB, and its twin in row
// order moved 668 MB in all, where the ideal sectors said 1.14 GB. A
// gather whose DRAM bytes stay within its ideal sectors already reads
// each sector once (a permutation within windows, fixtures/classes'
// gather<32768>: 89 % hits, 59 MB for 67 MB asked; its ordered twin ran
// only 0.40 faster): ok is false, as without the source page's gathers,
// the kernel's DRAM bytes or its GPU's L2.
func OrderedGathers(a *Kernel) (Gathers, bool) {
	dram, okD := a.Value("dram_bytes")
	if !okD || !(dram > 0) || a.Spec == nil || a.Spec.L2Bytes <= 0 {
		return Gathers{}, false
	}
	var moved, sectors, ideal float64 // moved: their sectors; sectors: their elements'
	fields := map[int][]Instruction{} // the gathers of a base register
	for _, in := range a.Model.Instructions {
		if in.Space == "global" && in.Operation == "load" && in.Indirect && in.SectorsPerRequest >= gatherSectorsPerRequest &&
			in.IdealSectors > 0 && in.Sectors > in.IdealSectors {
			moved += in.Sectors
			ideal += in.IdealSectors
			if base, _, ok := MemAddress(in.SASS); ok {
				fields[base] = append(fields[base], in)
			} else {
				sectors += in.Sectors
			}
		}
	}
	for _, ins := range fields {
		sectors += elementSectors(ins)
	}
	var total float64
	for _, x := range []*Access{a.Model.GlobalLoad, a.Model.GlobalStore} {
		if x != nil && x.Transactions > 0 {
			total += x.Transactions
		}
	}
	if !(sectors > 0) || total < moved {
		return Gathers{}, false
	}
	g := Gathers{Now: math.Min(32*moved, math.Max(0, dram-32*(total-moved))), Asked: 32 * ideal, Excess: moved - ideal}
	hit := 1 - g.Now/(32*sectors)
	if g.Now <= g.Asked || !(hit > 0) {
		return Gathers{}, false
	}
	g.Ordered = math.Min(g.Asked, float64(a.Spec.L2Bytes)/hit)
	return g, true
}

// elementSectors is the sectors of gathers through one base register:
// loads at offsets less than a sector apart are the fields of one
// element (a 12-byte vertex's x, y and z: fixtures/sol-check7's
// triArea<0>), each asking for the sectors the first brings, so the
// element's sectors count once; loads at one offset are the register
// reused for another gather, each its own.
func elementSectors(ins []Instruction) float64 {
	offs := map[int64]float64{}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	total := 0.0
	for _, in := range ins {
		_, off, _ := MemAddress(in.SASS)
		offs[off] = math.Max(offs[off], in.Sectors)
		lo, hi = min(lo, off), max(hi, off)
		total += in.Sectors
	}
	if len(offs) < 2 || hi-lo >= 32 {
		return total
	}
	most := 0.0
	for _, v := range offs {
		most = math.Max(most, v)
	}
	return most
}
