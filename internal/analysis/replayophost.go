package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// OpHost is an aten op whose own host work, outside any runtime call,
// takes long calls in the replayed window (a piece of opHostMin or more:
// a library building a plan for a new shape, cuDNN's SDPA under bf16
// autocast, fixtures/host26's spec.bf16), beside its steady calls.
type OpHost struct {
	Name string
	// Calls are the op's calls in the window (its dispatch spans, a
	// call's pieces split by its own copy, memset or sync calls counted
	// once); Long those with a piece of opHostMin or more.
	Calls, Long int
	// LongTime is the traced host time of the long calls' own pieces,
	// seconds a step; Median the own host time of the op's median call
	// (its dispatch pieces summed), seconds.
	LongTime, Median float64
	// Steps counts the steps (of Timeline's) that hold a long call.
	Steps int
	// Shapes counts the distinct sizes of the op's work its kernels
	// carry (profan.Kernel.OpBytes, from record_shapes), 0 where the
	// trace has none; New counts the long calls whose kernels carry a
	// size none of the op's calls before it in the window did.
	Shapes, New int
}

// opCall is one call of an op: its spans [lo, hi] in the window.
type opCall struct {
	lo, hi int
	own    float64 // its dispatch pieces' traced time
	long   bool
}

// callsOfOp are the calls of op in the replayed window, in order.
func (r *replay) callsOfOp(op string) []opCall {
	var out []opCall
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	inCall := false
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		name := ""
		if s.Name >= 0 {
			name = r.snames[s.Name]
		}
		switch {
		case s.State == profan.HostDispatch && name == op:
			if !inCall {
				out = append(out, opCall{lo: i})
			}
			c := &out[len(out)-1]
			c.hi, c.own = i, c.own+float64(s.Dur)
			c.long = c.long || float64(s.Dur) >= opHostMin
			inCall = true
		case inCall && strings.HasPrefix(name, op+" → "):
			// The op's own copy, memset or sync: the call goes on.
		default:
			inCall = false
		}
	}
	return out
}

// opHostScale is, by host span, the share of its traced time the
// replay keeps under Lever.OpHost: each long call of an op the lever
// names costs what the op's median call costs, its dispatch pieces
// scaled together (nil: none).
func (r *replay) opHostScale(l Lever) map[int]float64 {
	if l.OpHost == nil {
		return nil
	}
	var out map[int]float64
	for _, op := range r.longOps() {
		if !l.OpHost(op) {
			continue
		}
		calls := r.callsOfOp(op)
		m := medianOwn(calls)
		for _, c := range calls {
			if !c.long || !(c.own > m) {
				continue
			}
			if out == nil {
				out = map[int]float64{}
			}
			for i := c.lo; i <= c.hi; i++ {
				if r.spans[i].State == profan.HostDispatch {
					out[i] = m / c.own
				}
			}
		}
	}
	return out
}

// medianOwn is the own host time of the median call.
func medianOwn(calls []opCall) float64 {
	own := make([]float64, len(calls))
	for i, c := range calls {
		own[i] = c.own
	}
	return stats.Median(own)
}

// longOps are the aten ops with a dispatch piece of opHostMin or more in
// the replayed window, in their first such piece's order.
func (r *replay) longOps() []string {
	var out []string
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostDispatch || float64(s.Dur) < opHostMin || s.Name < 0 {
			continue
		}
		if n := r.snames[s.Name]; opHostOp(n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// OpHosts are the aten ops with long calls of their own host work in the
// replayed window (OpHost), longest first; nil where the step is not
// replayed.
func OpHosts(t *Timeline) []OpHost {
	if t == nil {
		return nil
	}
	r, ok := t.Steps.(*replay)
	if !ok || r == nil {
		return nil
	}
	var out []OpHost
	for _, op := range r.longOps() {
		calls := r.callsOfOp(op)
		o := OpHost{Name: op, Calls: len(calls), Median: medianOwn(calls)}
		seen := map[float32]bool{}
		steps := map[int]bool{}
		for _, c := range calls {
			sizes := r.callSizes(c)
			fresh := false
			for _, b := range sizes {
				fresh = fresh || !seen[b]
				seen[b] = true
			}
			if !c.long {
				continue
			}
			o.Long++
			for i := c.lo; i <= c.hi; i++ {
				if s := r.spans[i]; s.State == profan.HostDispatch {
					o.LongTime += float64(s.Dur)
				}
			}
			if fresh {
				o.New++
			}
			steps[r.stepOf(r.spans[c.lo].Start)] = true
		}
		o.LongTime /= float64(r.steps)
		o.Shapes, o.Steps = len(seen), len(steps)
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b OpHost) int { return cmp.Compare(b.LongTime, a.LongTime) })
	return out
}

// callSizes are the sizes of the work (OpBytes, where known) of the
// kernels issued inside call c's spans.
func (r *replay) callSizes(c opCall) []float32 {
	lo, hi := r.spans[c.lo].Start, r.spans[c.hi].End()
	k, _ := slices.BinarySearchFunc(r.kernels, lo, func(x replayKernel, t float64) int { return cmp.Compare(x.issued, t) })
	var out []float32
	for ; k < len(r.kernels) && r.kernels[k].issued <= hi; k++ {
		if x := r.kernels[k]; x.copy == 0 && x.opBytes > 0 {
			out = append(out, x.opBytes)
		}
	}
	return out
}

// stepOf is the index of the step (r.bounds) holding host instant t.
func (r *replay) stepOf(t float64) int {
	i, _ := slices.BinarySearch(r.bounds, t)
	return i
}

// OpSizes counts op's calls in the replayed window and the distinct
// sizes of their work (OpBytes of the kernels they issue, from
// record_shapes; 0 where the trace has none): a step whose attention's
// key length grows every call shows as many sizes as calls.
func OpSizes(t *Timeline, op string) (calls, sizes int) {
	if t == nil {
		return 0, 0
	}
	r, ok := t.Steps.(*replay)
	if !ok || r == nil {
		return 0, 0
	}
	seen := map[float32]bool{}
	cs := r.callsOfOp(op)
	for _, c := range cs {
		for _, b := range r.callSizes(c) {
			seen[b] = true
		}
	}
	return len(cs), len(seen)
}
