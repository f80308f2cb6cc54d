package analysis

import (
	"cmp"
	"slices"

	"github.com/profan-dev/profan"
)

// emptySig is the launch sequence of a region that launches nothing.
const emptySig = uint64(14695981039346656037)

// stepRegion is one replayed step's stretch of the host between two syncs
// a lever keeps (or the step's start or end), and what it launches.
type stepRegion struct {
	step   int
	lo, hi float64
	sig    uint64 // its launch sequence (repeatRegions)
}

// repeatRegions are, under a graph of the step (Lever.Graphs; not of the
// model alone, Lever.Model), the replayed steps' regions: each step's
// stretches between the syncs the lever keeps (their waits: one graph a
// region, the sync between two eager), each with its launch sequence, the
// kernels it issues in order by name and grid (by name alone where the
// lever pads the step, Lever.Pad: the padding fixes the grids), those of
// ops the lever drops left out. A graph captured on one step replays the
// launches it captured: it holds a region of another step only where that
// step launches the same sequence there. Nil with fewer than two steps,
// or where the kept syncs split no step.
func (r *replay) repeatRegions(l Lever, gone []bool) []stepRegion {
	if !l.Graphs || l.Model || len(r.bounds) < 2 {
		return nil
	}
	var out []stepRegion
	spanAt := r.spanWalk()
	sig := func(lo, hi float64) uint64 {
		h := emptySig
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			k := r.kernels[j]
			if k.copy != 0 || k.name < 0 {
				continue
			}
			if gone != nil {
				if i := spanAt(k.issued); i >= 0 && gone[i] {
					continue
				}
			}
			x := uint64(uint32(k.name)) << 32
			if !l.Pad {
				x |= uint64(uint32(k.cfg))
			}
			h = (h ^ x) * 1099511628211
		}
		return h
	}
	r.eachStep(func(step int, lo, hi float64) {
		from := lo
		i, _ := slices.BinarySearchFunc(r.spans, lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
		for ; i < len(r.spans) && r.spans[i].Start < hi; i++ {
			s := r.spans[i]
			if s.State != profan.HostSync || !r.waits(l, i) || gone != nil && gone[i] || s.Start < from {
				continue
			}
			out = append(out, stepRegion{step: step, lo: from, hi: s.Start, sig: sig(from, s.Start)})
			from = s.End()
		}
		if from < hi {
			out = append(out, stepRegion{step: step, lo: from, hi: hi, sig: sig(from, hi)})
		}
	})
	// A step the kept syncs do not split (at most one region of it
	// launches) is one graph: its shapes are the fix's (a padding,
	// Lever.Pad; the reads that sized it dropped), priced whole.
	split := map[int]int{}
	for _, g := range out {
		if g.sig != emptySig {
			split[g.step]++
		}
	}
	for _, n := range split {
		if n > 1 {
			return out
		}
	}
	return nil
}

// unrepeated are the regions of repeatRegions whose launch sequence no
// other replayed step launches: a step's loop run a number of times its
// data sets (a length's, a count read back), or kernels on grids no other
// step shows (padding fixes those: Lever.Pad), where a graph captured on
// one step replays other launches than the step makes. No graph holds
// such a region as it is: its host (the Python, the ops' dispatch, the
// framework's time) replays eager under the lever, and a graph takes off
// only the regions that repeat (fixtures/host30's crf: the CRF's forward
// algorithm and Viterbi loops run one iteration a token of the batch's
// longest sentence, 29 of the 76 kernels on other grids, the step's reads
// between them; priced 44.1% and first as graphs between the reads,
// where the GPU decode, step-read's, measured 38.3%).
func (r *replay) unrepeated(l Lever, gone []bool) []stepRegion {
	return unrepeatedIn(r.repeatRegions(l, gone))
}

// unrepeatedIn are the regions of rs whose launch sequence no other step
// of rs launches.
func unrepeatedIn(rs []stepRegion) []stepRegion {
	in := map[uint64]map[int]bool{}
	for _, g := range rs {
		if in[g.sig] == nil {
			in[g.sig] = map[int]bool{}
		}
		in[g.sig][g.step] = true
	}
	var out []stepRegion
	for _, g := range rs {
		if len(in[g.sig]) < 2 {
			out = append(out, g)
		}
	}
	return out
}

// unheld is unrepeated's stretches, by start, joined (nil for none).
func (r *replay) unheld(l Lever, gone []bool) []annRange {
	var out []annRange
	for _, g := range r.unrepeated(l, gone) {
		if g.hi > g.lo {
			out = append(out, annRange{lo: g.lo, hi: g.hi})
		}
	}
	return joined(out)
}

// Unrepeated is, under lever l, the regions a graph does not hold as they
// are (unrepeated), for the advice (verdict.Steps).
func (r *replay) Unrepeated(l Lever) Unrepeated {
	if l.Graphs && !l.Capturable() {
		return Unrepeated{}
	}
	gone := r.opsDropped(l)
	rs := r.repeatRegions(l, gone)
	un := unrepeatedIn(rs)
	if len(un) == 0 {
		return Unrepeated{}
	}
	out := Unrepeated{Steps: len(r.bounds), Regions: len(un)}
	for _, g := range rs {
		if g.sig != emptySig {
			out.Of++
		}
	}
	// The launches in each step's regions that do not repeat, by the
	// user's frame they were launched from (the Python span before
	// them) and, in each frame, by kernel: the frame whose launches
	// change the most from step to step is the loop the batch sets.
	type at struct{ frame, name int32 }
	frames := map[int32][]int{}
	kernels := map[at]int{}
	firstOf := map[at]int{}
	for _, g := range un {
		out.Host += r.unprofiledIn(g.lo, g.hi)
		si, _ := slices.BinarySearchFunc(r.spans, g.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.Start, x) })
		py := int32(-1)
		j, _ := slices.BinarySearchFunc(r.kernels, g.lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < g.hi; j++ {
			k := r.kernels[j]
			for ; si < len(r.spans) && r.spans[si].Start <= k.issued; si++ {
				if s := r.spans[si]; s.State == profan.HostPython && s.Name >= 0 && int(s.Name) < len(r.snames) {
					py = s.Name
				}
			}
			// The backward's launches (autograd's nodes) follow the
			// forward's: the frame is the forward's.
			if k.copy != 0 || k.name < 0 || gone != nil && si > 0 && gone[si-1] || r.backward(si-1) {
				continue
			}
			if frames[py] == nil {
				frames[py] = make([]int, out.Steps)
			}
			frames[py][g.step]++
			a := at{py, k.name}
			if kernels[a] == 0 {
				firstOf[a] = j
			}
			kernels[a]++
		}
	}
	out.Host /= float64(out.Steps)
	best, bestVary, bestN := int32(-1), -1, 0
	for f, cs := range frames {
		vary, n := slices.Max(cs)-slices.Min(cs), 0
		for _, c := range cs {
			n += c
		}
		if f < 0 && len(frames) > 1 {
			continue
		}
		if c := cmp.Or(cmp.Compare(vary, bestVary), cmp.Compare(n, bestN)); c > 0 || c == 0 && best >= 0 && f >= 0 && r.snames[f] < r.snames[best] {
			best, bestVary, bestN = f, vary, n
		}
	}
	if bestVary < 0 {
		return out
	}
	out.Counts = frames[best]
	if best >= 0 {
		out.Frame = r.snames[best]
	}
	top := at{-1, -1}
	for a, n := range kernels {
		if a.frame == best && (top.name < 0 || cmp.Or(cmp.Compare(n, kernels[top]), cmp.Compare(r.names[top.name], r.names[a.name])) > 0) {
			top = a
		}
	}
	if top.name < 0 {
		return out
	}
	out.Kernel = r.names[top.name]
	if i := r.spanAt(r.kernels[firstOf[top]].issued); i >= 0 {
		if s := r.spans[i]; s.State == profan.HostDispatch && s.Name >= 0 && int(s.Name) < len(r.snames) {
			out.Op = r.snames[s.Name]
		}
	}
	return out
}
