package analysis

import (
	"cmp"
	"slices"
)

// tensorsRead is how many distinct sizes of work a sync site's reads
// (occ: its spans in order, with their steps) read back in one step at
// most, and the op that most often launched it (Site.Tensors,
// TensorOp): for each read, the last kernel launched after the site's
// read before it in the step, keyed by its name, grid and the bytes its
// op moves. A read with no kernel since the one before it (a list
// comprehension of .item()s over one tensor) counts none.
func (r *replay) tensorsRead(occ []siteAt) (most int, op string) {
	type key struct {
		name, cfg int32
		bytes     float32
	}
	seen := map[key]bool{}
	ops := map[string]int{}
	step, lo := -1, r.lo
	for _, o := range occ {
		s := r.spans[o.span]
		if o.step != step {
			step, lo = o.step, r.lo
			clear(seen)
		}
		i, _ := slices.BinarySearchFunc(r.kernels, s.Start, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for i--; i >= 0 && r.kernels[i].issued > lo; i-- {
			k := r.kernels[i]
			if k.copy != 0 || k.name < 0 {
				continue
			}
			if c := (key{k.name, k.cfg, k.opBytes}); !seen[c] {
				seen[c] = true
				most = max(most, len(seen))
			}
			if j := r.spanAt(k.issued); j >= 0 && r.spans[j].Name >= 0 && int(r.spans[j].Name) < len(r.snames) {
				ops[r.snames[r.spans[j].Name]]++
			}
			break
		}
		lo = s.End()
	}
	n := 0
	for name, c := range ops {
		if c > n || c == n && name < op {
			op, n = name, c
		}
	}
	return most, op
}
