package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// A fused optimizer's lever (Collapse): the ranges it collapses and the
// stretches of their host time the fused step no longer spends.

// collapsed are the ranges a Collapse lever names, not overlapping, with
// the kernels issued inside each.
func (r *replay) collapsed(l Lever) (rs []annRange, n []int) {
	if l.Collapse == nil {
		return nil, nil
	}
	if f := l.Collapse.Frame; f != "" && l.Collapse.Calls {
		rs, _ = r.callLoops(f)
	} else if f != "" {
		rs = r.frameLoops(f)
	}
	for _, a := range r.ranges {
		if l.Collapse.Frame == "" && a.name == l.Collapse.Range && (len(rs) == 0 || a.lo >= rs[len(rs)-1].hi) {
			rs = append(rs, a)
		}
	}
	n = make([]int, len(rs))
	for _, k := range r.kernels {
		if i := rangeOf(rs, k.issued); i >= 0 && k.copy == 0 {
			n[i]++
		}
	}
	return rs, n
}

// cut is a stretch of host time a Collapse lever removes, in the range
// of index of (collapsed's rs).
type cut struct {
	lo, hi float64
	of     int
}

// cuts are the stretches of the collapsed ranges rs whose host time the
// fused step no longer spends, in order (updateOf).
func (r *replay) cuts(rs []annRange) []cut {
	var out []cut
	for i, a := range rs {
		cs, _ := r.updateOf(a, i)
		out = append(out, cs...)
	}
	return out
}

// updateOf is the stretches of range a (of index i) whose host time the
// fused step no longer spends: where the trace holds PyTorch's optimizer
// frames (with_stack: framed), the update's (_multi_tensor_adam,
// _single_tensor_sgd ...) less the grouping of its tensor lists inside
// it, which the fused step does too; the range's other host time
// (Optimizer.step's wrapper, _init_group's loop over the parameters and
// their state) stays. A range that holds no update frame is cut whole.
func (r *replay) updateOf(a annRange, i int) (out []cut, framed bool) {
	var upd, keep []annRange
	for _, f := range r.frames {
		if f.lo < a.lo || f.hi > a.hi {
			continue
		}
		switch profan.OptimizerFrame(f.name) {
		case profan.OptimizerUpdate:
			if n := len(upd); n == 0 || f.lo >= upd[n-1].hi {
				upd = append(upd, f)
			}
		case profan.OptimizerGroup:
			keep = append(keep, f)
		}
	}
	if len(upd) == 0 {
		return []cut{{a.lo, a.hi, i}}, false
	}
	for _, u := range upd {
		lo := u.lo
		for _, k := range keep {
			if k.lo >= lo && k.hi <= u.hi {
				if k.lo > lo {
					out = append(out, cut{lo, k.lo, i})
				}
				lo = k.hi
			}
		}
		if u.hi > lo {
			out = append(out, cut{lo, u.hi, i})
		}
	}
	return out, true
}

// rangeOf is the index of the range of rs (by start, not overlapping)
// holding t, -1 for none.
func rangeOf(rs []annRange, t float64) int {
	i, _ := slices.BinarySearchFunc(rs, t, func(a annRange, x float64) int { return cmp.Compare(a.hi, x) })
	if i < len(rs) && rs[i].lo <= t && t < rs[i].hi {
		return i
	}
	return -1
}

// frameLoops are, for each step, the stretch from the first Python span
// whose innermost user frame is frame to the end of its last: the
// step's loop over the items that frame handles one at a time.
func (r *replay) frameLoops(frame string) []annRange {
	var out []annRange
	step := func(t float64) int {
		i, _ := slices.BinarySearch(r.bounds, t)
		return i
	}
	last := -1
	for _, s := range r.spans {
		if s.State != profan.HostPython || s.Name < 0 || int(s.Name) >= len(r.snames) || r.snames[s.Name] != frame || s.Start < r.lo || s.End() > r.hi {
			continue
		}
		if i := step(s.Start); i == last && len(out) > 0 {
			out[len(out)-1].hi = s.End()
		} else {
			out, last = append(out, annRange{s.Start, s.End(), frame}), i
		}
	}
	return out
}

// callLoops are, for each call of frame (a module's forward, kept whole
// in r.frames) inside the window that syncs, the stretch from its last
// sync's end to the call's end: the loop over the experts that the
// counts it read size (Collapse.Calls). experts is the values the last
// read copied back before it (a .tolist() of int64 counts: 8 bytes
// each), the largest over the calls; 0 where no call read one.
func (r *replay) callLoops(frame string) (out []annRange, experts int) {
	for _, f := range r.frames {
		if f.name != frame || f.lo < r.lo || f.hi > r.hi {
			continue
		}
		i, _ := slices.BinarySearchFunc(r.spans, f.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.Start, x) })
		lo := math.Inf(-1)
		for ; i < len(r.spans) && r.spans[i].Start < f.hi; i++ {
			if r.spans[i].State == profan.HostSync {
				lo = r.spans[i].End()
			}
		}
		if math.IsInf(lo, -1) || lo >= f.hi || len(out) > 0 && lo < out[len(out)-1].hi {
			continue
		}
		out = append(out, annRange{lo, f.hi, frame})
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for j--; j >= 0 && r.kernels[j].issued >= f.lo; j-- {
			if c := int32(r.kernels[j].copy); c&(copyPinned|copyPageable) != 0 && c&copyToDevice == 0 {
				experts = max(experts, int(r.kernels[j].bytes)/8)
				break
			}
		}
	}
	return out, experts
}

// callKeep is the share of a Calls collapse's host time kept: the
// lever's Keep, or one expert's worth (callLoops); 1 where unknown.
func (r *replay) callKeep(c *Collapse) float64 {
	if c.Keep > 0 {
		return c.Keep
	}
	rs, e := r.callLoops(c.Frame)
	if e < 2 {
		return 1
	}
	// A loop: an op called at least once an expert in every call.
	for _, n := range r.opCalls(func(i int) bool { return rangeOf(rs, r.spans[i].Start) >= 0 }) {
		if n >= e*len(rs) {
			return 1 / float64(e)
		}
	}
	return 1
}

// opCalls counts the calls of each op among the spans in says, by the
// dispatch span's name: a call is a run of its dispatch spans with only
// its copies, syncs and allocations between them.
func (r *replay) opCalls(in func(i int) bool) map[string]int {
	n, last, end := map[string]int{}, "", math.Inf(-1)
	for i, s := range r.spans {
		if !in(i) || s.Start > end+1e-9 {
			// Outside, or after a stretch no span covers: a new call.
			last = ""
		}
		end = s.End()
		if !in(i) {
			continue
		}
		switch s.State {
		case profan.HostDispatch:
			if s.Name >= 0 && int(s.Name) < len(r.snames) {
				if nm := r.snames[s.Name]; nm != last {
					n[nm]++
					last = nm
				}
			}
		case profan.HostCopy, profan.HostSync, profan.HostAlloc:
		default:
			last = ""
		}
	}
	return n
}

// loopNodes is, by span, the share of its host time a Calls collapse
// keeps in the backward (nil where none): the autograd nodes of the
// ops each loop calls at least once an expert (the experts' matmuls,
// their weights' slices, the activation between), named after the op
// (autogradNode), keep the share keep of their host time for as many
// of the window's nodes as the loops called those ops; a node's other
// calls (another layer's matmul) are spread over them.
func (r *replay) loopNodes(rs []annRange, keep float64, experts int) []float64 {
	if len(rs) == 0 || !(keep < 1) || experts < 2 {
		return nil
	}
	fwd := r.opCalls(func(i int) bool { return rangeOf(rs, r.spans[i].Start) >= 0 })
	share := map[string]float64{}
	for op, n := range fwd {
		if node := autogradNode(op); node != "" && n >= experts*len(rs) && r.training {
			share[node] = float64(n)
		}
	}
	bwd := r.opCalls(func(i int) bool {
		s := r.spans[i]
		return s.Start >= r.lo && s.End() <= r.hi && s.Name >= 0 && int(s.Name) < len(r.snames) && share[nodeOf(r.snames[s.Name])] > 0
	})
	// Each loop's extent: its first repeated op's call to its last.
	ext := make([]annRange, len(rs))
	for j := range ext {
		ext[j] = annRange{math.Inf(1), math.Inf(-1), ""}
	}
	for _, s := range r.spans {
		if s.State != profan.HostDispatch || s.Name < 0 || int(s.Name) >= len(r.snames) || fwd[r.snames[s.Name]] < experts*len(rs) {
			continue
		}
		if j := rangeOf(rs, s.Start); j >= 0 {
			ext[j].lo, ext[j].hi = math.Min(ext[j].lo, s.Start), math.Max(ext[j].hi, s.End())
		}
	}
	out := make([]float64, len(r.spans))
	any := false
	for i, s := range r.spans {
		out[i] = 1
		if s.Name < 0 || int(s.Name) >= len(r.snames) || s.Start < r.lo || s.End() > r.hi {
			continue
		}
		name := nodeOf(r.snames[s.Name])
		if j := rangeOf(rs, s.Start); j >= 0 {
			if s.Start < ext[j].lo || s.End() > ext[j].hi {
				continue
			}
			// Inside a loop: the user's Python and the repeated ops'
			// calls keep one expert's worth; the ops the loop calls
			// once (the gather before it, the scatter after) stay.
			if s.State == profan.HostPython || fwd[name] >= experts*len(rs) {
				out[i] = keep
				any = true
			}
			continue
		}
		if f, b := share[name], bwd[name]; f > 0 && b > 0 {
			out[i] = 1 - math.Min(1, f/float64(b))*(1-keep)
			any = true
		}
	}
	// The capacity buffer: a scatter into it and a gather out of it,
	// one more of each a loop than the split's, priced at the loop's
	// own gather into it (its last aten::index before the loop) and
	// scatter after it (its last aten::index_add_), and in a training
	// step at their nodes' mean host time.
	more := map[string]int{}
	for j, a := range rs {
		if math.IsInf(ext[j].lo, 1) {
			continue
		}
		for op, before := range capacityOps {
			var last []int
			prev := -1
			for i, s := range r.spans {
				if s.Start < a.lo || s.Start >= a.hi || s.Name < 0 || int(s.Name) >= len(r.snames) || s.State != profan.HostDispatch || nodeOf(r.snames[s.Name]) != op {
					continue
				}
				if before && s.End() > ext[j].lo || !before && s.Start < ext[j].hi {
					continue
				}
				if prev < 0 || i > prev+2 {
					last = last[:0]
				}
				last, prev = append(last, i), i
			}
			slots := 0.0
			if before {
				// The slots, ranked, dropped and placed on the GPU
				// (capacitySlotOps), a launch's worth of host each,
				// spread over the gather's spans.
				traced := 0.0
				for _, i := range last {
					traced += float64(r.spans[i].Dur) * r.keep(i)
				}
				if traced > 0 {
					slots = capacitySlotOps * r.launchU / traced
				}
			}
			for _, i := range last {
				out[i], any = 2+slots, true
			}
			if len(last) > 0 {
				more[autogradNode(op)]++
			}
		}
	}
	if r.training {
		nb := r.opCalls(func(i int) bool {
			s := r.spans[i]
			return s.Start >= r.lo && s.End() <= r.hi && s.Name >= 0 && int(s.Name) < len(r.snames) && more[nodeOf(r.snames[s.Name])] > 0
		})
		for i, s := range r.spans {
			if s.Name < 0 || int(s.Name) >= len(r.snames) || s.Start < r.lo || s.End() > r.hi {
				continue
			}
			name := nodeOf(r.snames[s.Name])
			if m, b := more[name], nb[name]; m > 0 && b > 0 {
				out[i], any = 1+float64(m)/float64(b), true
			}
		}
	}
	if !any {
		return nil
	}
	return out
}

// nodeOf is a backward span's node, its name less a copy's or sync's
// tail (" → cudaMemsetAsync").
func nodeOf(name string) string {
	n, _, _ := strings.Cut(name, " → ")
	return n
}

// autogradNode is the span name of the autograd node that computes an
// aten op's backward ("aten::select" → "autograd::engine::evaluate_function:
// SelectBackward0"): PyTorch names a node after its op in CamelCase; a
// matmul of two matrices records mm's node. "" for none.
func autogradNode(op string) string {
	name, ok := strings.CutPrefix(op, "aten::")
	if !ok || strings.Contains(name, " ") {
		return ""
	}
	if name == "matmul" {
		name = "mm"
	}
	var b strings.Builder
	b.WriteString("autograd::engine::evaluate_function: ")
	for _, w := range strings.Split(name, "_") {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	b.WriteString("Backward0")
	return b.String()
}

// capacityOps are the ops a capacity buffer calls once more a loop: its
// gather (true: the one before the loop) and its scatter (after it).
var capacityOps = map[string]bool{"aten::index": true, "aten::index_add_": false}

// capacitySlotOps is the small ops a fixed-capacity dispatch adds a read
// in place of the split's sort and count (argsort, bincount): each
// assignment ranked in its expert (one_hot, cumsum, its -1, gather), the
// overflow found and its position clamped (lt, clamp, the expert's
// offset's mul and add) and masked out of the inputs and the gates (a
// cast and a multiply each): 12 ops less the 2, as fixtures/gen/host8.py
// writes it (GShard's and Switch's dispatch rank and mask the same way).
const capacitySlotOps = 10
