package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// idleAcc sums a device's idle gaps by cause, and by the host call each
// waited on, as they close; each gap goes on the strip too.
type idleAcc struct {
	strip *stripper
	idle  map[string]*Idle
	calls map[string]map[IdleCall]*IdleCall
	last  map[*IdleCall]int // the gap of each call's last piece
	gap   int               // the gap being added, numbered
	// The cause and the call of the piece added last, and theirs: the
	// gaps of a trace repeat them.
	lastCause string
	lastIdle  *Idle
	lastKey   IdleCall
	lastCall  *IdleCall
	// The end of the op-host piece added last, and the op calls those
	// pieces made so far: an op call's pieces (split by a memset, over
	// the GPU gaps of the kernels it runs) count as one call.
	opHostEnd float64
	opHostN   int
}

func (x *idleAcc) add(cause string, g0, g1 float64, c *profan.HostEvent) {
	if c == nil {
		x.addCall(cause, g0, g1, nil)
		return
	}
	x.addCall(cause, g0, g1, &IdleCall{Name: c.Name, Op: c.Op, Frame: c.Frame, Method: c.Method})
}

// callAt is the kept call (sync, copy, memset, allocation) running at t
// on the host; nil when none.
func (h *host) callAt(t float64) *profan.HostEvent {
	i, _ := slices.BinarySearchFunc(h.calls, t, func(e hostCall, t float64) int { return cmp.Compare(e.Start, t) })
	for j := min(i, len(h.calls)-1); j >= 0 && j >= i-64; j-- {
		if e := h.calls[j]; e.Start <= t && t <= e.Start+e.Duration {
			return e.HostEvent
		}
	}
	return nil
}

// spanFrom is the first of the host's spans that ends at or after t (a
// binary search's); where their ends do not decrease and t does not
// either from call to call, it is found walking from the last.
func (h *host) spanFrom(t float64) int {
	if h.ends && t >= h.at {
		i := h.atSpan
		for i < len(h.spans) && h.spans[i].End() < t {
			i++
		}
		h.at, h.atSpan = t, i
		return i
	}
	i, _ := slices.BinarySearchFunc(h.spans, t, func(s profan.HostSpan, t float64) int { return cmp.Compare(s.End(), t) })
	if h.ends {
		h.at, h.atSpan = t, i
	}
	return i
}

// hostSync puts an idle piece of cause behind call c as host does, but
// where the cause is a sync and the trace has the host's spans, only the
// part of the piece the host spent inside the sync call is the sync's:
// before the call and after it returned the host was doing something
// else (the user's Python, a loader, launches), and that part is put on
// what it was doing, with free, the cause the gap's shape gives with no
// sync. Without spans there is no evidence of what the host did after
// the sync, and the whole piece stays the sync's.
func (x *idleAcc) hostSync(h *host, cause, free string, g0, g1 float64, c *profan.HostEvent) {
	if cause != IdleSync || c == nil || len(h.spans) == 0 || free == "" {
		x.host(h, cause, g0, g1, c)
		return
	}
	s0, s1 := math.Max(g0, c.Start), math.Min(g1, c.Start+c.Duration)
	if s1 <= s0 {
		x.host(h, free, g0, g1, nil)
		return
	}
	x.host(h, free, g0, s0, nil)
	x.host(h, IdleSync, s0, s1, c)
	x.host(h, free, s1, g1, nil)
}

// host puts an idle piece, which its shape gave cause and call, on what
// the launching threads were doing over it, where the trace says: in a
// DataLoader, a sync, the allocator, a copy, an aten op (launch-bound),
// the user's Python. Time no span covers keeps its shape's cause where
// the trace has no Python stack, and is other host work where it has
// (the framework's Python). A queued gap is the GPU's own, whatever the
// host did. (hostSync keeps the time after a sync returned off it.)
func (x *idleAcc) host(h *host, cause string, g0, g1 float64, c *profan.HostEvent) {
	if len(h.spans) == 0 || cause == IdleQueued || g1 <= g0 {
		x.add(cause, g0, g1, c)
		return
	}
	i := h.spanFrom(g0)
	t := g0
	rest := func(a, b float64) {
		switch {
		case b <= a:
		case cause == IdleSync, cause == IdleCopy, cause == IdleLeading, cause == IdleTrailing:
			x.add(cause, a, b, c)
		case h.frames:
			x.add(IdleOther, a, b, c)
		default:
			x.add(cause, a, b, c)
		}
	}
	for ; i < len(h.spans) && h.spans[i].Start < g1; i++ {
		s := h.spans[i]
		a, b := math.Max(t, s.Start), math.Min(g1, s.End())
		if b <= a {
			continue
		}
		rest(t, a)
		t = b
		name := ""
		if s.Name >= 0 && int(s.Name) < len(h.names) {
			name = h.names[s.Name]
		}
		switch s.State {
		case profan.HostData:
			x.addCall(IdleData, a, b, &IdleCall{Name: name})
		case profan.HostSync:
			x.add(IdleSync, a, b, h.callAt(a))
		case profan.HostAlloc:
			x.add(IdleAlloc, a, b, h.callAt(a))
		case profan.HostCopy:
			x.add(IdleCopy, a, b, h.callAt(a))
		case profan.HostDispatch, profan.HostPython:
			switch {
			case cause == IdleSync:
				x.add(IdleSync, a, b, c)
			case s.State == profan.HostDispatch && float64(s.Dur) >= opHostMin && opHostOp(name):
				if s.Start > x.opHostEnd+opHostJoin {
					x.opHostN++
				}
				x.opHostEnd = max(x.opHostEnd, s.End())
				gap := x.gap
				x.gap = -x.opHostN
				x.addCall(IdleOpHost, a, b, &IdleCall{Name: name, Frame: h.opFrame(name, s.End())})
				x.gap = gap
			case s.State == profan.HostDispatch:
				x.addCall(IdleLaunch, a, b, &IdleCall{Name: name})
			default:
				x.addCall(IdlePython, a, b, &IdleCall{Name: name})
			}
		default:
			rest(a, b)
		}
	}
	rest(t, g1)
}

// opHostMin is the least time one piece of an aten op's own span (no
// runtime call inside it) takes to be the op's host work rather than
// dispatch and launch overhead: a launch costs the host microseconds, a
// library's plan built for a new shape (cuDNN's SDPA) tens of
// milliseconds.
const opHostMin = 5e-3

// opHostOp reports a dispatch span's name that op host work is read
// in: an aten op, or an autograd node's evaluate_function on autograd's
// thread (the backward's op: cuDNN's SDPA builds a plan per new shape in
// the backward too, inside ScaledDotProductCudnnAttentionBackward0,
// fixtures/host27's prune.bf16).
func opHostOp(name string) bool {
	return strings.HasPrefix(name, "aten::") || strings.HasPrefix(name, autogradEval)
}

// autogradEval prefixes the span of an autograd node run by the engine.
const autogradEval = "autograd::engine::evaluate_function: "

// opHostJoin is the most time between two op-host pieces of one op call
// (a memset or copy call between them).
const opHostJoin = 1e-3

// opFrame is the Python frame of the op name's call running at t, read
// from the first kept call inside it at or after t (a memset, a copy),
// or "" where none says.
func (h *host) opFrame(name string, t float64) string {
	i, _ := slices.BinarySearchFunc(h.calls, t, func(e hostCall, t float64) int { return cmp.Compare(e.Start, t) })
	for j := i; j < len(h.calls) && j < i+8; j++ {
		if e := h.calls[j]; e.Op == name && e.Frame != "" {
			return e.Frame
		}
	}
	return ""
}

// addCall adds an idle piece of cause, behind call c (nil: none).
func (x *idleAcc) addCall(cause string, g0, g1 float64, c *IdleCall) {
	if g1 <= g0 {
		return
	}
	i := x.lastIdle
	if i == nil || cause != x.lastCause {
		if i = x.idle[cause]; i == nil {
			i = &Idle{Cause: cause}
			x.idle[cause] = i
		}
		x.lastCause, x.lastIdle, x.lastCall = cause, i, nil
	}
	i.Seconds += g1 - g0
	i.Gaps++
	x.strip.add(g0, g1, cause)
	if c == nil || *c == (IdleCall{}) {
		return
	}
	key := IdleCall{Name: c.Name, Op: c.Op, Frame: c.Frame, Method: c.Method}
	ic := x.lastCall
	if ic == nil || key != x.lastKey {
		if x.calls[cause] == nil {
			x.calls[cause] = map[IdleCall]*IdleCall{}
		}
		if ic = x.calls[cause][key]; ic == nil {
			ic = new(IdleCall)
			*ic = key
			x.calls[cause][key] = ic
		}
		x.lastKey, x.lastCall = key, ic
	}
	// A gap split in pieces (around a copy, over the host's spans)
	// counts once.
	if g, ok := x.last[ic]; !ok || g != x.gap {
		ic.Count++
	}
	x.last[ic] = x.gap
	ic.Seconds += g1 - g0
}

// list is the idle time by cause, in the order of IdleCauses, each with
// its share of span and its calls, the longest first.
func (x *idleAcc) list(span float64) []Idle {
	var out []Idle
	for _, cause := range verdict.IdleCauses {
		i := x.idle[cause]
		if i == nil {
			continue
		}
		if span > 0 {
			i.Share = i.Seconds / span
		}
		for _, c := range x.calls[cause] {
			i.Calls = append(i.Calls, *c)
		}
		slices.SortFunc(i.Calls, func(x, y IdleCall) int {
			return cmp.Or(cmp.Compare(y.Seconds, x.Seconds), cmp.Compare(x.Name, y.Name), cmp.Compare(x.Op, y.Op), cmp.Compare(x.Frame, y.Frame))
		})
		out = append(out, *i)
	}
	return out
}

// stripper makes a strip: the segments as they come while there are at
// most maxStrip, else maxStrip equal bins of the span, each given the
// state that holds most of its time.
type stripper struct {
	lo, w float64
	segs  []Segment
	bins  [][]float64 // per bin, time per state (stripStates)
	// lastState is the state binned last, and its index: a trace's
	// pieces repeat a few.
	lastState string
	lastK     int
}

var stripStates = append([]string{"busy"}, verdict.IdleCauses...)

func newStripper(lo, hi float64) *stripper {
	return &stripper{lo: lo, w: (hi - lo) / maxStrip}
}

func (s *stripper) add(a, b float64, state string) {
	if b <= a {
		return
	}
	if s.bins == nil {
		if len(s.segs) < maxStrip || s.w <= 0 {
			if len(s.segs) < maxStrip {
				s.segs = append(s.segs, Segment{Start: a, End: b, State: state})
			}
			return
		}
		s.bins = make([][]float64, maxStrip)
		for _, g := range s.segs {
			s.bin(g.Start, g.End, g.State)
		}
		s.segs = nil
	}
	s.bin(a, b, state)
}

func (s *stripper) bin(a, b float64, state string) {
	k := s.lastK
	if state != s.lastState || s.lastState == "" {
		k = slices.Index(stripStates, state)
		s.lastState, s.lastK = state, k
	}
	i0 := int((a - s.lo) / s.w)
	for i := max(0, i0); i < maxStrip; i++ {
		b0, b1 := s.lo+float64(i)*s.w, s.lo+float64(i+1)*s.w
		if b0 >= b {
			break
		}
		// The builtins: math.Min and Max's results (NaN, -0), inlined.
		if t := min(b, b1) - max(a, b0); t > 0 {
			if s.bins[i] == nil {
				s.bins[i] = make([]float64, len(stripStates))
			}
			s.bins[i][k] += t
		}
	}
}

func (s *stripper) segments() []Segment {
	if s.bins == nil {
		slices.SortFunc(s.segs, func(x, y Segment) int { return cmp.Compare(x.Start, y.Start) })
		return s.segs
	}
	var out []Segment
	for i, t := range s.bins {
		if t == nil {
			continue
		}
		best := 0
		for k := range t {
			if t[k] > t[best] {
				best = k
			}
		}
		b0, b1 := s.lo+float64(i)*s.w, s.lo+float64(i+1)*s.w
		if n := len(out); n > 0 && out[n-1].State == stripStates[best] && out[n-1].End == b0 {
			out[n-1].End = b1
			continue
		}
		out = append(out, Segment{Start: b0, End: b1, State: stripStates[best]})
	}
	return out
}

// gap is why the GPU was idle over a gap: from lo to hi for cause,
// behind call; before lo and after hi for rest, behind restCall. free is
// the cause the gap's shape gives it with no sync: where rest is a sync,
// the time the host was not inside the sync call is put on free.
type gap struct {
	cause, rest, free string
	call, restCall    *profan.HostEvent
	lo, hi            float64
}

// gapCause says why the GPU was idle from g0 to the start of next, and
// the host call behind it: a copy call that began or ended in the gap
// (the host staging a pageable copy, a synchronous copy) for the part of
// the gap the call ran in, and for the rest (or the whole gap when there
// is no such copy) a synchronising call that returned in it (the host
// waited for the GPU to drain, then had nothing queued), the next work
// queued before the gap began (the GPU's own gap), else a launch-bound
// gap when it is short, else other. A call that spans many gaps (a wait
// through a queue of work) explains only the gaps at its ends.
func (h *host) gapCause(g0 float64, next ival) gap {
	g1 := next.start
	hi, _ := slices.BinarySearchFunc(h.calls, g1, func(e hostCall, t float64) int { return cmp.Compare(e.Start, t) })
	var sync, copy *profan.HostEvent
	for j := hi - 1; j >= 0 && j >= hi-64; j-- {
		e := h.calls[j]
		end := e.Start + e.Duration
		endsIn := end >= g0-syncSlack && end <= g1
		switch e.class {
		case profan.CallSync:
			if sync == nil && endsIn {
				sync = e.HostEvent
			}
		case profan.CallCopy, profan.CallSet:
			if copy == nil && end > g0 && (endsIn || e.Start >= g0) {
				copy = e.HostEvent
			}
		}
	}
	g := gap{lo: g0, hi: g1}
	switch {
	case h.has && !math.IsNaN(float64(next.lead)) && next.start-float64(next.lead) <= g0+queueSlack:
		g.free = IdleQueued
	case g1-g0 <= launchGapMax:
		g.free = IdleLaunch
	default:
		g.free = IdleOther
	}
	g.rest = g.free
	if sync != nil {
		g.rest, g.restCall = IdleSync, sync
	}
	if copy == nil {
		g.cause, g.call = g.rest, g.restCall
		return g
	}
	// A copy explains the gap while it runs: from its start (or the
	// gap's) until it returns or its own work on the GPU begins.
	g.cause, g.call = IdleCopy, copy
	g.lo, g.hi = math.Max(g0, copy.Start), math.Min(g1, copy.Start+copy.Duration)
	return g
}
