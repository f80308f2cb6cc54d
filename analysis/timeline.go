package analysis

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// Idle causes: why the GPU waited.
const (
	IdleLaunch   = "launch"   // short gaps between launches: the host cannot keep up
	IdleSync     = "sync"     // the host waited for the GPU (a synchronising call), then had nothing queued
	IdleCopy     = "copy"     // the host was busy with a copy call (pageable staging, a synchronous copy)
	IdleLeading  = "leading"  // host time before the first GPU work
	IdleTrailing = "trailing" // host time after the last GPU work
	IdleOther    = "other"    // longer gaps no host call explains (host work between steps)
)

// IdleCauses lists the causes in the order outputs print them.
var IdleCauses = []string{IdleLaunch, IdleSync, IdleCopy, IdleLeading, IdleTrailing, IdleOther}

// LaunchGapMax is the longest gap between two GPU operations counted as
// launch-bound when no host call explains it: a launch costs the host a
// few to tens of microseconds (more through an eager framework), so that
// a queue the host cannot fill shows gaps of that order; a longer gap is
// host work of another kind.
const LaunchGapMax = 1e-3

// syncSlack is how long after the GPU drains a synchronising call may
// return and still be the call that waited for it.
const syncSlack = 20e-6

// Timeline is where the wall clock of a trace goes: for the busiest
// device (the top-level figures) and for each device and stream.
type Timeline struct {
	Device string  // the device of the top-level figures
	Start  float64 // seconds on the export's clock
	// Span is the wall time from the first start to the last end, of the
	// GPU work and, when the export has a host side, of the host events.
	Span      float64
	Busy      float64 // union of kernel, copy and memset intervals
	BusyShare float64 // Busy / Span
	// Idle is Span - Busy split by cause, in IdleCauses' order, causes
	// with no time left out.
	Idle []Idle
	// Overlap is the time copies and kernels run together; CopyExposed
	// the copy time no kernel runs beside (on the critical path).
	Overlap     float64
	CopyExposed float64
	LaunchCount int // kernel launches on the timeline
	Copies      int
	Sets        int
	// HostLaunch is the host's cost of a launch, measured from the
	// launch calls' durations when the export has them.
	HostLaunch HostLaunch
	Devices    []*DeviceTimeline
	Notes      []string
}

// HostLaunch is what the launch calls cost the host.
type HostLaunch struct {
	Calls int
	Total float64 // seconds
	Mean  float64 // seconds per call; NaN when the export has no launch calls
	Names []string
}

// Idle is the idle time of one cause.
type Idle struct {
	Cause   string
	Seconds float64
	Share   float64 // of the span
	Gaps    int
	// Calls are the host calls behind the gaps, most idle time first:
	// the synchronising call with the aten op and Python frame around
	// it, the copy call, the launch calls.
	Calls []IdleCall
}

// IdleCall is a host call behind idle time.
type IdleCall struct {
	Name    string
	Op      string // aten op around the call, when the trace has ops
	Frame   string // Python frame around it, when the trace has the stack
	Count   int
	Seconds float64 // the idle time attributed to it
}

// DeviceTimeline is the timeline of one device.
type DeviceTimeline struct {
	Device    string
	Start     float64
	Span      float64
	Busy      float64
	BusyShare float64
	Idle      []Idle
	// Overlap and CopyExposed as on Timeline.
	Overlap     float64
	CopyExposed float64
	Kernels     int
	Copies      int
	Sets        int
	Streams     []*StreamTimeline
	// Strip is the device's time line as segments (busy, or idle with its
	// cause), at most MaxStrip of them: neighbours are merged into their
	// larger part beyond that.
	Strip []Segment
}

// StreamTimeline is one stream of a device.
type StreamTimeline struct {
	Stream    string
	Start     float64
	Span      float64 // its first start to its last end
	Busy      float64
	BusyShare float64 // of the device's span
	Kernels   int
	Copies    int
	Sets      int
	Strip     []Segment // busy segments, bounded like the device's
}

// Segment is a stretch of a strip: busy, or idle with its cause.
type Segment struct {
	Start, End float64
	State      string // "busy" or an idle cause
}

// MaxStrip bounds a strip's segments.
const MaxStrip = 2000

// IdleOf returns the idle time of cause (zero when none).
func (t *Timeline) IdleOf(cause string) Idle {
	for _, i := range t.Idle {
		if i.Cause == cause {
			return i
		}
	}
	return Idle{Cause: cause}
}

// span kinds
const (
	spanKernel uint8 = iota
	spanCopy
	spanSet
)

type ival struct {
	start, end float64
	dev, strm  int32
	kind       uint8
}

// timelineBuilder gathers the GPU intervals of a run as its records
// arrive, compactly: a trace of a million launches keeps 24 bytes each.
type timelineBuilder struct {
	ivals   []ival
	devs    []string
	devIdx  map[string]int32
	strms   []string
	strmIdx map[string]int32
	untimed int
}

func (b *timelineBuilder) add(dev, strm string, start, dur float64, kind uint8) {
	if math.IsNaN(start) || math.IsNaN(dur) || math.IsInf(start, 0) || math.IsInf(dur, 0) || dur < 0 {
		b.untimed++
		return
	}
	if b.devIdx == nil {
		b.devIdx, b.strmIdx = map[string]int32{}, map[string]int32{}
	}
	d, ok := b.devIdx[dev]
	if !ok {
		d = int32(len(b.devs))
		b.devIdx[dev] = d
		b.devs = append(b.devs, dev)
	}
	s, ok := b.strmIdx[strm]
	if !ok {
		s = int32(len(b.strms))
		b.strmIdx[strm] = s
		b.strms = append(b.strms, strm)
	}
	b.ivals = append(b.ivals, ival{start: start, end: start + dur, dev: d, strm: s, kind: kind})
}

// kernel adds a launch; aggregates (summaries) have no place on a
// timeline.
func (b *timelineBuilder) kernel(k *profan.Kernel) {
	if k.Invocations != 1 {
		return
	}
	b.add(deviceKey(k.Device, k.DeviceIndex), k.Stream, k.Start, k.Duration, spanKernel)
}

func (b *timelineBuilder) activity(a *profan.Activity) {
	if a.Invocations > 1 || !(strings.HasPrefix(a.Kind, "memcpy") || a.Kind == "memset") {
		return
	}
	kind := spanCopy
	if a.Kind == "memset" {
		kind = spanSet
	}
	b.add(deviceKey(a.Device, -1), a.Stream, a.Start, a.Duration, kind)
}

// deviceKey names a device the same way for a kernel (name and index)
// and an activity (nsys and nvprof print "Tesla V100-SXM2-16GB (0)").
func deviceKey(name string, idx int) string {
	name = strings.TrimSpace(name)
	if i := strings.LastIndexByte(name, '('); i > 0 && strings.HasSuffix(name, ")") {
		if n, err := strconv.Atoi(name[i+1 : len(name)-1]); err == nil {
			name, idx = strings.TrimSpace(name[:i]), n
		}
	}
	if idx >= 0 {
		if name == "" {
			return "device " + strconv.Itoa(idx)
		}
		return name + " (" + strconv.Itoa(idx) + ")"
	}
	if name == "" {
		return "device"
	}
	return name
}

// build makes the timeline; nil when the run has no timed GPU record.
func (b *timelineBuilder) build(run *profan.Run) *Timeline {
	for _, a := range run.Activities {
		b.activity(a)
	}
	if len(b.ivals) == 0 {
		return nil
	}
	slices.SortFunc(b.ivals, func(x, y ival) int { return cmp.Compare(x.start, y.start) })
	host := hostView(run)
	t := &Timeline{HostLaunch: host.launch}
	for d := range b.devs {
		if dt := b.device(int32(d), host); dt != nil {
			t.Devices = append(t.Devices, dt)
		}
	}
	top := t.Devices[0]
	for _, d := range t.Devices[1:] {
		if d.Busy > top.Busy {
			top = d
		}
	}
	t.Device, t.Start, t.Span, t.Busy, t.BusyShare = top.Device, top.Start, top.Span, top.Busy, top.BusyShare
	t.Idle, t.Overlap, t.CopyExposed = top.Idle, top.Overlap, top.CopyExposed
	t.LaunchCount, t.Copies, t.Sets = top.Kernels, top.Copies, top.Sets
	if len(t.Devices) > 1 {
		t.Notes = []string{"the top-level figures are those of " + top.Device + ", the busiest of " + strconv.Itoa(len(t.Devices)) + " devices"}
	}
	if b.untimed > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(b.untimed)+" GPU records without a start or duration are not on the timeline")
	}
	if run.Host != nil && run.Host.Folded > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(run.Host.Folded)+" host calls past the first "+strconv.Itoa(profan.MaxHostEvents)+" kept are summed by name, not placed on the timeline: their idle counts as launch or other")
	}
	b.ivals = nil
	return t
}

// host is what the timeline reads of the host side.
type host struct {
	has        bool
	start, end float64
	calls      []*profan.HostEvent // syncs and copies, by start
	launch     HostLaunch
}

func hostView(run *profan.Run) host {
	h := host{launch: HostLaunch{Mean: math.NaN()}}
	for _, c := range run.APICalls {
		if profan.CallClass(c.Name) == profan.CallLaunch && c.Calls > 0 {
			h.launch.Calls += c.Calls
			h.launch.Total += c.Total
			h.launch.Names = append(h.launch.Names, c.Name)
		}
	}
	if h.launch.Calls > 0 {
		h.launch.Mean = h.launch.Total / float64(h.launch.Calls)
	}
	if run.Host == nil || math.IsNaN(run.Host.Start) || math.IsNaN(run.Host.End) {
		return h
	}
	h.has, h.start, h.end = true, run.Host.Start, run.Host.End
	for _, e := range run.Host.Events {
		switch profan.CallClass(e.Name) {
		case profan.CallSync, profan.CallCopy, profan.CallSet:
			if e.Kind != profan.HostAnnotation {
				h.calls = append(h.calls, e)
			}
		}
	}
	slices.SortFunc(h.calls, func(x, y *profan.HostEvent) int { return cmp.Compare(x.Start, y.Start) })
	return h
}

// device makes the timeline of device d from the sorted intervals.
func (b *timelineBuilder) device(d int32, h host) *DeviceTimeline {
	dt := &DeviceTimeline{Device: b.devs[d]}
	var all, kern, copies []ival // unions
	streams := map[int32]*StreamTimeline{}
	var order []int32
	sb := map[int32][]ival{}
	for _, iv := range b.ivals {
		if iv.dev != d {
			continue
		}
		all = merge(all, iv)
		st := streams[iv.strm]
		if st == nil {
			st = &StreamTimeline{Stream: b.strms[iv.strm], Start: iv.start}
			streams[iv.strm] = st
			order = append(order, iv.strm)
		}
		sb[iv.strm] = merge(sb[iv.strm], iv)
		switch iv.kind {
		case spanKernel:
			dt.Kernels++
			st.Kernels++
			kern = merge(kern, iv)
		case spanCopy:
			dt.Copies++
			st.Copies++
			copies = merge(copies, iv)
		case spanSet:
			dt.Sets++
			st.Sets++
		}
	}
	if len(all) == 0 {
		return nil
	}
	gpuStart, gpuEnd := all[0].start, all[len(all)-1].end
	start, end := gpuStart, gpuEnd
	if h.has {
		start, end = math.Min(start, h.start), math.Max(end, h.end)
	}
	dt.Start, dt.Span = start, end-start
	dt.Busy = length(all)
	if dt.Span > 0 {
		dt.BusyShare = math.Min(1, dt.Busy/dt.Span)
	}
	dt.Overlap = intersect(kern, copies)
	dt.CopyExposed = length(copies) - dt.Overlap

	idle := map[string]*Idle{}
	calls := map[string]map[IdleCall]*IdleCall{}
	var strip []Segment
	addIdle := func(cause string, g0, g1 float64, c *profan.HostEvent) {
		if g1 <= g0 {
			return
		}
		i := idle[cause]
		if i == nil {
			i = &Idle{Cause: cause}
			idle[cause] = i
		}
		i.Seconds += g1 - g0
		i.Gaps++
		strip = append(strip, Segment{g0, g1, cause})
		if c == nil {
			return
		}
		key := IdleCall{Name: c.Name, Op: c.Op, Frame: c.Frame}
		if calls[cause] == nil {
			calls[cause] = map[IdleCall]*IdleCall{}
		}
		ic := calls[cause][key]
		if ic == nil {
			ic = &IdleCall{Name: c.Name, Op: c.Op, Frame: c.Frame}
			calls[cause][key] = ic
		}
		ic.Count++
		ic.Seconds += g1 - g0
	}
	addIdle(IdleLeading, start, gpuStart, nil)
	for i, iv := range all {
		strip = append(strip, Segment{iv.start, iv.end, "busy"})
		if i+1 < len(all) {
			g0, g1 := iv.end, all[i+1].start
			cause, c := h.gapCause(g0, g1)
			addIdle(cause, g0, g1, c)
		}
	}
	addIdle(IdleTrailing, gpuEnd, end, nil)
	for _, cause := range IdleCauses {
		i := idle[cause]
		if i == nil {
			continue
		}
		if dt.Span > 0 {
			i.Share = i.Seconds / dt.Span
		}
		for _, c := range calls[cause] {
			i.Calls = append(i.Calls, *c)
		}
		slices.SortFunc(i.Calls, func(x, y IdleCall) int {
			return cmp.Or(cmp.Compare(y.Seconds, x.Seconds), cmp.Compare(x.Name, y.Name), cmp.Compare(x.Op, y.Op), cmp.Compare(x.Frame, y.Frame))
		})
		if cause == IdleLaunch && h.launch.Calls > 0 {
			for _, n := range h.launch.Names {
				i.Calls = append(i.Calls, IdleCall{Name: n})
			}
		}
		dt.Idle = append(dt.Idle, *i)
	}
	slices.SortFunc(strip, func(x, y Segment) int { return cmp.Compare(x.Start, y.Start) })
	dt.Strip = bound(strip)
	for _, s := range order {
		st := streams[s]
		u := sb[s]
		st.Span = u[len(u)-1].end - st.Start
		st.Busy = length(u)
		if dt.Span > 0 {
			st.BusyShare = math.Min(1, st.Busy/dt.Span)
		}
		for _, iv := range u {
			st.Strip = append(st.Strip, Segment{iv.start, iv.end, "busy"})
		}
		st.Strip = bound(st.Strip)
		dt.Streams = append(dt.Streams, st)
	}
	return dt
}

// gapCause says why the GPU was idle from g0 to g1, and the host call
// behind it: a copy call running through the gap, a synchronising call
// (or a synchronous copy) that returned when the GPU drained, else a
// launch-bound gap when it is short, else other.
func (h host) gapCause(g0, g1 float64) (string, *profan.HostEvent) {
	// The calls that can explain the gap started before it ends.
	hi, _ := slices.BinarySearchFunc(h.calls, g1, func(e *profan.HostEvent, t float64) int { return cmp.Compare(e.Start, t) })
	var sync, copy *profan.HostEvent
	for j := hi - 1; j >= 0 && j >= hi-64; j-- {
		e := h.calls[j]
		end := e.Start + e.Duration
		if end < g0-syncSlack {
			continue
		}
		switch profan.CallClass(e.Name) {
		case profan.CallSync:
			if sync == nil {
				sync = e
			}
		case profan.CallCopy, profan.CallSet:
			if profan.SyncCopy(e.Name) && end <= g1 {
				if sync == nil {
					sync = e
				}
			} else if copy == nil && end > g0 {
				copy = e
			}
		}
	}
	switch {
	case copy != nil:
		return IdleCopy, copy
	case sync != nil:
		return IdleSync, sync
	case g1-g0 <= LaunchGapMax:
		return IdleLaunch, nil
	}
	return IdleOther, nil
}

// merge adds iv to the sorted union u (intervals arrive by start).
func merge(u []ival, iv ival) []ival {
	if n := len(u); n > 0 && iv.start <= u[n-1].end {
		if iv.end > u[n-1].end {
			u[n-1].end = iv.end
		}
		return u
	}
	return append(u, ival{start: iv.start, end: iv.end})
}

func length(u []ival) float64 {
	s := 0.0
	for _, iv := range u {
		s += iv.end - iv.start
	}
	return s
}

// intersect is the time two sorted unions share.
func intersect(a, b []ival) float64 {
	s := 0.0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		lo, hi := math.Max(a[i].start, b[j].start), math.Min(a[i].end, b[j].end)
		if hi > lo {
			s += hi - lo
		}
		if a[i].end < b[j].end {
			i++
		} else {
			j++
		}
	}
	return s
}

// bound merges a strip's segments down to at most MaxStrip: the span is
// cut into MaxStrip equal bins and each bin takes the state that holds
// most of its time.
func bound(s []Segment) []Segment {
	if len(s) <= MaxStrip {
		return s
	}
	lo, hi := s[0].Start, s[len(s)-1].End
	w := (hi - lo) / MaxStrip
	if w <= 0 {
		return s[:MaxStrip]
	}
	out := make([]Segment, 0, MaxStrip)
	j := 0
	for bin := range MaxStrip {
		b0, b1 := lo+float64(bin)*w, lo+float64(bin+1)*w
		var best string
		var bestT float64
		tally := map[string]float64{}
		for j < len(s) && s[j].End <= b0 {
			j++
		}
		for k := j; k < len(s) && s[k].Start < b1; k++ {
			t := math.Min(s[k].End, b1) - math.Max(s[k].Start, b0)
			tally[s[k].State] += t
			if tally[s[k].State] > bestT {
				best, bestT = s[k].State, tally[s[k].State]
			}
		}
		if best == "" {
			continue
		}
		if n := len(out); n > 0 && out[n-1].State == best && out[n-1].End == b0 {
			out[n-1].End = b1
			continue
		}
		out = append(out, Segment{b0, b1, best})
	}
	return out
}
