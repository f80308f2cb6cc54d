package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/profan-dev/profan"
)

// spanWalk is spanAt for a loop over the kernels in issue order: where
// the spans' ends do not decrease (ends), the span is found walking from
// the one found last, the search kept for an instant that goes back.
func (r *replay) spanWalk() func(t float64) int {
	i, last := 0, math.Inf(-1)
	return func(t float64) int {
		if !r.ends || !(t >= last) {
			return r.spanAt(t)
		}
		for i < len(r.spans) && r.spans[i].End() < t {
			i++
		}
		last = t
		if i < len(r.spans) && r.spans[i].Start <= t {
			return i
		}
		return -1
	}
}

// spanAt is the index of the host span holding the captured instant t,
// -1 where none does.
func (r *replay) spanAt(t float64) int {
	i, _ := slices.BinarySearchFunc(r.spans, t, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	if i < len(r.spans) && r.spans[i].Start <= t {
		return i
	}
	return -1
}
