package analysis

import (
	"cmp"
	"fmt"
	"math"
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
	// Distinct counts the distinct shapes of the op's calls (the sizes
	// of the work of the kernels a call issues, together); Grow, Fill
	// and Seen split its long calls as the plan cache reads them
	// (planCache): a build at a new shape beyond the range of the shapes
	// of its kind before it (a range that grows: it recurs), one at a new
	// shape inside that range (a bounded set, each built once over the
	// run), and one at a shape a call before it had (cached outside the
	// profiler). Range is the number of shapes the filled ranges can
	// take (their span over the least step between two of their sizes),
	// 0 where no build fills one.
	Distinct, Grow, Fill, Seen, Range int
}

// Plans reports an op whose long calls are plans a library builds for
// each new shape: they recur (two or more, no more than half the op's
// calls: one is a warm-up in the window, every call long is no plan)
// and, where the trace has the shapes, at least half of them come at a
// size no call before had; without the shapes, in two steps or more.
func (o OpHost) Plans() bool {
	if o.Long < 2 || 2*o.Long > o.Calls {
		return false
	}
	if o.Shapes > 0 {
		return 2*o.New >= o.Long
	}
	return o.Steps >= 2
}

// The plan cache (docs/replay.md): outside the profiler a library keeps
// the plan it built for a shape, so a build costs once a distinct shape
// over the run, and the steady step pays only for the shapes it has not
// seen. Of an op that builds plans (OpHost.Plans), each long call is
// read by its shape (the sizes of its kernels' work, together) against
// the op's calls before it in the window of its kind (as many sizes,
// each within a factor two):
//   - planSeen: a shape a call before it had: it does not recur;
//   - planFill: a new shape between two of its kind (one no smaller in
//     every size, one no larger): the shapes move inside a bounded range
//     (token counts kept by a pruning, under the full length), each
//     built once over the run: not in the steady step;
//   - planGrow: a new shape beyond every one of its kind before it (a
//     K/V cache read up to a growing position, fixtures/host26's
//     spec.bf16): the range grows and the builds recur at the rate the
//     window shows them. A call whose kernels carry no sizes is read so.
type planKind uint8

const (
	planNone planKind = iota
	planGrow
	planFill
	planSeen
)

// planCache is the replay's plan cache: by host span, the share of its
// traced time a build keeps at its op's median call (scale), and
// whether the span's build recurs (grow).
type planCache struct {
	scale map[int]float64
	grow  map[int]bool
	recur bool // some build recurs
}

// with is the share by span the replay keeps, lever's (Lever.OpHost)
// over the plan cache's: every build at its op's median call, or with
// traced set, the builds that recur as traced. lever where c is nil.
func (c *planCache) with(lever map[int]float64, traced bool) map[int]float64 {
	if c == nil {
		return lever
	}
	out := make(map[int]float64, len(c.scale)+len(lever))
	for i, x := range c.scale {
		if !traced || !c.grow[i] {
			out[i] = x
		}
	}
	for i, x := range lever {
		out[i] = x
	}
	return out
}

// planCache reads the window's per-shape builds; nil where no op builds
// plans.
func (r *replay) planCache() *planCache {
	var c *planCache
	r.ops = r.opHosts()
	for _, o := range r.ops {
		if !o.Plans() {
			continue
		}
		calls := r.callsOfOp(o.Name)
		kinds := r.planKinds(calls)
		m := medianOwn(calls)
		for k, call := range calls {
			if kinds[k] == planNone || !(call.own > m) {
				continue
			}
			if c == nil {
				c = &planCache{scale: map[int]float64{}, grow: map[int]bool{}}
			}
			for i := call.lo; i <= call.hi; i++ {
				if r.spans[i].State == profan.HostDispatch {
					c.scale[i] = m / call.own
					if kinds[k] == planGrow {
						c.grow[i] = true
						c.recur = true
					}
				}
			}
		}
	}
	return c
}

// planKinds reads each of calls (one op's, in order) as the plan cache
// does: planNone for a call that is not long.
func (r *replay) planKinds(calls []opCall) []planKind {
	sizes := make([][]float32, len(calls))
	for i, c := range calls {
		sizes[i] = r.callSizes(c)
	}
	out := make([]planKind, len(calls))
	for i, c := range calls {
		if !c.long {
			continue
		}
		out[i] = planGrow
		x := sizes[i]
		if len(x) == 0 {
			continue
		}
		above, below := false, false
		for _, y := range sizes[:i] {
			if !sameKind(x, y) {
				continue
			}
			if slices.Equal(x, y) {
				out[i] = planSeen
				break
			}
			above = above || noSmaller(y, x)
			below = below || noSmaller(x, y)
		}
		if out[i] == planGrow && above && below {
			out[i] = planFill
		}
	}
	return out
}

// sameKind reports two calls' shapes of one kind: as many sizes, each
// within a factor two of the other's.
func sameKind(x, y []float32) bool {
	if len(x) != len(y) {
		return false
	}
	for j := range x {
		if !(y[j] <= 2*x[j] && x[j] <= 2*y[j]) {
			return false
		}
	}
	return true
}

// noSmaller reports a shape no smaller than b in any of its sizes.
func noSmaller(a, b []float32) bool {
	for j := range a {
		if a[j] < b[j] {
			return false
		}
	}
	return true
}

// fillRange is the number of shapes the range the fill builds of calls
// lie in can take: the span of their kind's largest sizes over the
// least step between two of them, plus one; 0 where none fills.
func fillRange(sizes [][]float32, kinds []planKind) int {
	n := 0
	for i, k := range kinds {
		if k != planFill {
			continue
		}
		var vs []float64
		for _, y := range sizes {
			if sameKind(sizes[i], y) {
				vs = append(vs, float64(slices.Max(y)))
			}
		}
		slices.Sort(vs)
		vs = slices.Compact(vs)
		step := math.Inf(1)
		for j := 1; j < len(vs); j++ {
			step = math.Min(step, vs[j]-vs[j-1])
		}
		if len(vs) > 1 && step > 0 {
			n = max(n, int(math.Round((vs[len(vs)-1]-vs[0])/step))+1)
		}
	}
	return n
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
	return slices.Clone(r.ops)
}

// opHosts are OpHosts of the replay's window.
func (r *replay) opHosts() []OpHost {
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
		if o.Plans() {
			r.readPlans(&o, calls)
		}
		out = append(out, o)
	}
	slices.SortStableFunc(out, func(a, b OpHost) int { return cmp.Compare(b.LongTime, a.LongTime) })
	return out
}

// readPlans counts o's distinct shapes and its builds by kind.
func (r *replay) readPlans(o *OpHost, calls []opCall) {
	sizes := make([][]float32, len(calls))
	for i, c := range calls {
		sizes[i] = r.callSizes(c)
	}
	distinct := map[string]bool{}
	for _, x := range sizes {
		if len(x) > 0 {
			distinct[fmt.Sprint(x)] = true
		}
	}
	o.Distinct = len(distinct)
	kinds := r.planKinds(calls)
	for _, k := range kinds {
		switch k {
		case planGrow:
			o.Grow++
		case planFill:
			o.Fill++
		case planSeen:
			o.Seen++
		}
	}
	o.Range = fillRange(sizes, kinds)
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

// cpuWork marks the window's dispatch spans that are an op's CPU
// compute rather than its dispatch: a piece of an aten op of opHostMin
// or more (a launch costs the host microseconds) under which no kernel
// or copy was launched, of an op whose long calls are not plans a
// library builds per shape (OpHost.Plans: made once at a graph's
// capture). A CUDA graph replays the GPU's work only, and a lever that
// cuts dispatch cuts what the host spends reaching the kernels: the
// op's own computing on the host (torch.multinomial on a CPU tensor,
// fixtures/host36's sgns.default) stays at every step (nil: none).
func (r *replay) cpuWork() map[int]bool {
	if r.nl == nil || !r.profiler {
		return nil
	}
	plans := map[string]bool{}
	for _, o := range r.ops {
		if o.Plans() {
			plans[o.Name] = true
		}
	}
	var out map[int]bool
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostDispatch || float64(s.Dur) < opHostMin || s.Name < 0 || r.nl[i] > 0 || s.Cast > 0 {
			continue
		}
		if n := r.snames[s.Name]; opHostOp(n) && !plans[n] {
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
		}
	}
	return out
}
