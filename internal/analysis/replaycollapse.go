package analysis

import (
	"cmp"
	"slices"

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
	if f := l.Collapse.Frame; f != "" {
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
