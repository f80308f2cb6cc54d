package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

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

// forward reports a Python span whose innermost user frame is a forward
// method ("model.py(80): forward"): the model's own Python, which
// torch.compile traces once into its graph.
func (r *replay) forward(s profan.HostSpan) bool {
	return s.Name >= 0 && int(s.Name) < len(r.snames) && strings.HasSuffix(r.snames[s.Name], "): forward")
}

// DataTime is the host's time per step in DataLoader iterators on the
// launching threads, over the replayed steps, scaled to an unprofiled
// host as the replay scales it.
func (r *replay) DataTime() float64 {
	d := 0.0
	for i, s := range r.spans {
		if s.State == profan.HostData && s.End() > r.lo && s.Start < r.hi {
			d += (math.Min(s.End(), r.hi) - math.Max(s.Start, r.lo)) * r.keep(i)
		}
	}
	return d / float64(r.steps)
}
