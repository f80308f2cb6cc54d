package analysis

import (
	"cmp"
	"slices"

	"github.com/profan-dev/profan"
)

// decided are, under a graph (Lever.Graphs), the host's stretches from
// each value read the lever keeps (a sync that waits for a
// device-to-host copy: markReads) to the next kernel launch of the
// read's step: the host deciding on the value it read (the next index
// into a table of the GPU's, a branch, a loop's bound), which no graph
// holds. The Python, the ops' dispatch, the copies' calls and the
// framework's time there run as traced (eager), the reads' waits kept;
// a graph takes off only the host's work from a launch to the next read
// (fixtures/host30's crf: pytorch-crf's decode reads one .item() a time
// step a sentence, 2378 a step, each sentence's max launched between
// them, where a graph between the reads was priced the whole loop's
// host: 82.3% and first on a step no capture holds). A read after the
// step's last launch has none: the Python there is the step's results
// used (consumes); a read gone (gone: a gather's, Lever.Gather and
// Follow) is decided on by none. Nil for none.
func (r *replay) decided(l Lever, gone []bool) []annRange {
	if !l.Graphs || len(r.reads) != len(r.spans) {
		return nil
	}
	var out []annRange
	// k: the first kernel issued at or after the read's end; j: the
	// first launch from k (copies passed); b: the read's step.
	k, j, b := 0, 0, 0
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostSync || !r.reads[i] || r.dropped(l, i) || gone != nil && gone[i] {
			continue
		}
		end := s.End()
		for b < len(r.bounds) && r.bounds[b] <= s.Start {
			b++
		}
		hi := r.hi
		if b < len(r.bounds) {
			hi = r.bounds[b]
		}
		if k0, _ := slices.BinarySearchFunc(r.kernels[k:], end, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) }); k0 > 0 {
			k += k0
		}
		j = max(j, k)
		for j < len(r.kernels) && r.kernels[j].copy != 0 && r.kernels[j].issued < hi {
			j++
		}
		if j == len(r.kernels) || r.kernels[j].issued >= hi {
			continue
		}
		out = append(out, annRange{lo: end, hi: r.kernels[j].issued})
	}
	return joined(out)
}
