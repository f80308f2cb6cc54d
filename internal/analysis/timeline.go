package analysis

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// launchGapMax is the longest gap between two GPU operations counted as
// launch-bound when no host call explains it: a launch costs the host a
// few to tens of microseconds (more through an eager framework), so that
// a queue the host cannot fill shows gaps of that order; a longer gap is
// host work of another kind.
const launchGapMax = 1e-3

// syncSlack is how long after the GPU drains a synchronising call may
// return and still be the call that waited for it.
const syncSlack = 20e-6

// queueSlack is how long after the GPU drains a launch call may return
// and the work still count as queued before.
const queueSlack = 2e-6

// maxStrip bounds a strip's segments.
const maxStrip = 2000

// span kinds, in the top two bits of an interval's key
const (
	spanKernel uint32 = iota << 30
	spanCopy
	spanSet
	keyMask = 1<<30 - 1
)

// ival is a GPU interval, 24 bytes (an ivalLog keeps it in about 8).
// The duration is a float32 (a tenth of a microsecond in a second), lead how long before its start the host's launch call
// returned (NaN when unknown), the key the interval's kind and its
// device and stream pair.
type ival struct {
	start float64
	dur   float32
	lead  float32
	key   uint32
}

func (iv ival) end() float64 { return iv.start + float64(iv.dur) }
func (iv ival) kind() uint32 { return iv.key &^ keyMask }
func (iv ival) lane() int    { return int(iv.key & keyMask) }

// lane is a device and stream pair.
type lane struct{ dev, strm string }

// timelineBuilder gathers the GPU intervals of a run as its records
// arrive.
type timelineBuilder struct {
	ivals   ivalLog
	lanes   []lane
	laneIdx map[lane]uint32
	untimed int
	folded  int
	// The last kernel's device, index and stream, and their lane: a
	// trace's launches repeat them.
	lastDev    string
	lastIdx    int
	lastStream string
	lastLane   uint32
	lastOK     bool
	rp         replay
	// copiesToo: the run has host spans, so its copies are replayed too.
	copiesToo bool
	// spans are each lane's first start and last end, and copies the
	// copies' intervals (a run keeps at most 16,384 one by one), kept
	// as the intervals come: a device's span and its copies' union are
	// then known before its intervals are read in order (deviceSpan).
	spans  []laneSpan
	copies []ival
}

// laneSpan is the first start and the last end of a lane's intervals;
// seq is the arrival of the first of those that start first.
type laneSpan struct {
	lo, hi float64
	seq    int
}

// add keeps an interval.
func (b *timelineBuilder) add(iv ival) {
	l := iv.lane()
	for len(b.spans) <= l {
		b.spans = append(b.spans, laneSpan{lo: math.NaN(), hi: math.NaN()})
	}
	sp := &b.spans[l]
	if math.IsNaN(sp.lo) {
		sp.lo, sp.hi, sp.seq = iv.start, iv.end(), b.ivals.len()
	} else if iv.start < sp.lo {
		sp.lo, sp.seq = iv.start, b.ivals.len()
	}
	sp.hi = max(sp.hi, iv.end()) // the builtin: math.Max's result, inlined
	if iv.kind() == spanCopy {
		b.copies = append(b.copies, iv)
	}
	b.ivals.add(iv)
}

// addCopy adds an interval; a copy of a run with host spans is replayed
// as what (copyOther, copyPageable, copyPinned) of bytes.
func (b *timelineBuilder) addCopy(dev, strm string, start, dur, launched float64, kind uint32, what int32, bytes float64) {
	if !timed(start, dur) {
		b.untimed++
		return
	}
	k, ok := b.lane(dev, strm)
	if !ok {
		b.untimed++
		return
	}
	b.add(ival{start: start, dur: float32(dur), lead: float32(start - launched), key: k | kind})
	// The copies of a run with host spans are replayed too.
	if b.copiesToo {
		b.rp.recordCopy(what, bytes, start, dur, launched, k)
	}
}

func timed(start, dur float64) bool {
	return !(math.IsNaN(start) || math.IsNaN(dur) || math.IsInf(start, 0) || math.IsInf(dur, 0) || dur < 0)
}

// lane is the key of a device and stream pair; false when there are too
// many.
func (b *timelineBuilder) lane(dev, strm string) (uint32, bool) {
	if b.laneIdx == nil {
		b.laneIdx = map[lane]uint32{}
	}
	l := lane{dev, strm}
	k, ok := b.laneIdx[l]
	if !ok {
		if len(b.lanes) > keyMask {
			return 0, false
		}
		k = uint32(len(b.lanes))
		b.laneIdx[l] = k
		b.lanes = append(b.lanes, l)
	}
	return k, true
}

// kernel adds a launch; aggregates (summaries) have no place on a
// timeline.
func (b *timelineBuilder) kernel(k *profan.Kernel) {
	if k.Invocations != 1 {
		return
	}
	if !timed(k.Start, k.Duration) {
		b.untimed++
		return
	}
	if !b.lastOK || k.Device != b.lastDev || k.DeviceIndex != b.lastIdx || k.Stream != b.lastStream {
		l, ok := b.lane(deviceKey(k.Device, k.DeviceIndex), k.Stream)
		if !ok {
			b.untimed++
			return
		}
		b.lastDev, b.lastIdx, b.lastStream, b.lastLane, b.lastOK = k.Device, k.DeviceIndex, k.Stream, l, true
	}
	b.add(ival{start: k.Start, dur: float32(k.Duration), lead: float32(k.Start - k.Launched), key: b.lastLane | spanKernel})
	// The replay needs when the host issued the work.
	if !math.IsNaN(k.Launched) {
		b.rp.record(k.Name, launchCfg{k.Grid, k.Block}, k.OpBytes, k.Start, k.Duration, k.Launched, b.lastLane)
	}
}

func (b *timelineBuilder) activity(a *profan.Activity) {
	if !(strings.HasPrefix(a.Kind, "memcpy") || a.Kind == "memset") {
		return
	}
	if a.Invocations > 1 {
		b.folded += a.Invocations
		return
	}
	kind := spanCopy
	if a.Kind == "memset" {
		kind = spanSet
	}
	what, bytes := copyOther, 0.0
	if a.Kind == "memcpy HtoD" || a.Kind == "memcpy DtoH" {
		// A host transfer: the pinned-memory lever shrinks a pageable
		// one to its bytes at the pinned rate, the overlap lever moves
		// a host-to-device one beside the kernels.
		what = copyPinned
		if a.SrcMemType == "Pageable" || a.DstMemType == "Pageable" {
			what = copyPageable
		}
		if a.Kind == "memcpy HtoD" {
			what |= copyToDevice
		}
		if !math.IsNaN(a.Bytes) {
			bytes = a.Bytes
		}
	}
	b.addCopy(deviceKey(a.Device, -1), a.Stream, a.Start, a.Duration, math.NaN(), kind, what, bytes)
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
	b.copiesToo = run.Host != nil && len(run.Host.Spans) > 0
	for _, a := range run.Activities {
		b.activity(a)
	}
	if b.ivals.len() == 0 {
		return nil
	}
	host := hostView(run)
	t := &Timeline{HostLaunch: host.launch}
	var devs []string
	seen := map[string]bool{}
	for _, l := range b.lanes {
		if !seen[l.dev] {
			seen[l.dev] = true
			devs = append(devs, l.dev)
		}
	}
	// The steps' walls and replay read the launches of the busiest
	// device: of a run with one device they are made beside its
	// timeline, on a goroutine of their own (a gigabyte's trace takes a
	// few tenths of a second for each).
	rp := b.rp
	b.rp = replay{}
	type stepsOf struct {
		walls, busy []float64
		steps       *replay
	}
	replayOf := func(dev string) stepsOf {
		keep := func(lane uint32) bool { return b.lanes[lane].dev == dev }
		var s stepsOf
		if !rp.folded {
			s.walls, s.busy = stepWalls(stepSpans(run), rp.kernels, keep)
		}
		s.steps = rp.finish(run, keep)
		return s
	}
	var aside chan stepsOf
	if len(devs) == 1 {
		aside = make(chan stepsOf, 1)
		go func() { aside <- replayOf(devs[0]) }()
	}
	for _, d := range devs {
		if dt := b.device(d, host); dt != nil {
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
		t.Notes = append(t.Notes, "the top-level figures are those of "+top.Device+", the busiest of "+strconv.Itoa(len(t.Devices))+" devices")
	}
	if b.untimed > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(b.untimed)+" GPU records without a start or duration are not on the timeline")
	}
	if b.folded > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(b.folded)+" copies and memsets past the ones kept one by one were folded by the reader: not on the timeline")
	}
	t.StepCount = len(stepSpans(run))
	var st stepsOf
	if aside != nil {
		st = <-aside // devs[0] is top.Device: the one device timed
	} else {
		st = replayOf(top.Device)
	}
	t.StepWalls, t.StepBusy = st.walls, st.busy
	if st.steps != nil {
		t.Steps = st.steps
	}
	if run.Host != nil && run.Host.SpansFolded > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(run.Host.SpansFolded)+" stretches of host activity past the first "+strconv.Itoa(profan.MaxHostSpans)+" kept are not placed on the timeline: their idle is named by the gaps' shape")
	}
	if t.Steps == nil && run.Host != nil && len(run.Host.Spans) > 0 {
		t.Notes = append(t.Notes, "the step is not replayed: its kernels are past the replay's bound ("+strconv.Itoa(maxReplay)+") before a whole ProfilerStep#N, or none has a launch time; levers are priced from the idle time")
	}
	if run.Host != nil && run.Host.Folded > 0 {
		t.Notes = append(t.Notes, strconv.Itoa(run.Host.Folded)+" host calls past the first "+strconv.Itoa(profan.MaxHostEvents)+" kept are summed by name, not placed on the timeline: their idle counts as launch or other")
	}
	b.ivals, b.spans, b.copies = ivalLog{}, nil, nil
	return t
}

// host is what the timeline reads of the host side.
type host struct {
	has        bool
	start, end float64
	calls      []hostCall // syncs and copies, by start
	launch     HostLaunch
	// spans are what the launching threads did (empty when the trace
	// has no CPU side), names their names; frames says the trace has the
	// Python stack (time no span covers is then not the user's Python).
	spans []profan.HostSpan
	// ends: the spans' ends do not decrease (they are in time order and
	// do not overlap, but for a float32 duration's rounding): spanFrom
	// then walks from where it found the last time asked, at, the span
	// i, instead of searching (the timeline asks in time order).
	ends   bool
	at     float64
	atSpan int
	names  []string
	frames bool
}

func hostView(run *profan.Run) host {
	h := host{launch: HostLaunch{Mean: math.NaN()}}
	for _, c := range run.APICalls {
		if profan.CallClass(c.Name) != profan.CallLaunch || c.Calls == 0 {
			continue
		}
		if strings.Contains(c.Name, "GraphLaunch") {
			h.launch.Graphs += c.Calls
			h.launch.GraphTotal += c.Total
		} else {
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
	h.spans, h.names, h.frames = run.Host.Spans, run.Host.SpanNames, run.Host.Frames > 0
	h.ends, h.at = true, math.Inf(-1)
	for i := 1; i < len(h.spans) && h.ends; i++ {
		h.ends = h.spans[i].End() >= h.spans[i-1].End()
	}
	for _, e := range run.Host.Events {
		switch c := profan.CallClass(e.Name); c {
		case profan.CallSync, profan.CallCopy, profan.CallSet, profan.CallAlloc:
			if e.Kind != profan.HostAnnotation && e.Kind != profan.HostFrame {
				h.calls = append(h.calls, hostCall{e, c})
			}
		}
	}
	slices.SortFunc(h.calls, func(x, y hostCall) int { return cmp.Compare(x.Start, y.Start) })
	return h
}

// hostCall is a kept call with its class, found once: every gap looks
// at the calls before it.
type hostCall struct {
	*profan.HostEvent
	class string
}

// union merges sorted intervals as they come into the interval (lo, hi)
// held open while the next ones overlap it.
type union struct {
	open   bool
	lo, hi float64
}

// next merges iv into the open interval; when iv starts past it, it
// returns that interval, closed (ok), and opens iv's.
func (u *union) next(iv ival) (lo, hi float64, ok bool) {
	e := iv.end()
	if u.open && iv.start <= u.hi {
		u.hi = max(u.hi, e) // the builtin: math.Max's result, inlined
		return 0, 0, false
	}
	lo, hi, ok = u.lo, u.hi, u.open
	u.open, u.lo, u.hi = true, iv.start, e
	return lo, hi, ok
}

// flush closes the open interval and returns it (ok when one was open).
func (u *union) flush() (lo, hi float64, ok bool) {
	lo, hi, ok = u.lo, u.hi, u.open
	u.open = false
	return lo, hi, ok
}

// closer takes each interval a union closes.
type closer interface{ closed(lo, hi float64) }

// add merges iv into the union, handing c the interval it closes.
func (u *union) add(iv ival, c closer) {
	if lo, hi, ok := u.next(iv); ok {
		c.closed(lo, hi)
	}
}

// close hands c the open interval, if any, and closes it.
func (u *union) close(c closer) {
	if lo, hi, ok := u.flush(); ok {
		c.closed(lo, hi)
	}
}

// streamAcc is a stream's figures as the sorted intervals pass.
type streamAcc struct {
	st    *StreamTimeline
	busy  union
	strip *stripper
}

func (a *streamAcc) closed(lo, hi float64) {
	a.st.Busy += hi - lo
	a.strip.add(lo, hi, "busy")
	if end := hi - a.st.Start; end > a.st.Span {
		a.st.Span = end
	}
}

// device makes the timeline of device d from the sorted intervals, in one
// pass that keeps no interval: the union is merged as the intervals come,
// each gap classified as it closes, the strips binned.
func (b *timelineBuilder) device(d string, h host) *DeviceTimeline {
	gpuStart, gpuEnd, copies, ok := b.deviceSpan(d)
	if !ok {
		return nil
	}
	start, end := gpuStart, gpuEnd
	if h.has {
		start, end = math.Min(start, h.start), math.Max(end, h.end)
	}
	dt := &DeviceTimeline{Device: d, Start: start, Span: end - start}
	strip := newStripper(start, end)
	idle := idleAcc{strip: strip, idle: map[string]*Idle{}, calls: map[string]map[IdleCall]*IdleCall{}, last: map[*IdleCall]int{}}
	idle.host(&h, IdleLeading, start, gpuStart, nil)
	// The streams' figures are made from the same intervals on a
	// goroutine of their own, beside the device's.
	b.ivals.seal()
	streams := make(chan []*StreamTimeline, 1)
	go func(span float64) { streams <- b.streams(d, start, end, span) }(dt.Span)
	// The device's busy union, and the kernels' (for the overlap with
	// copies).
	var busy union
	kernels := kernelOverlap{copies: copies}
	for iv := range b.ivals.all() {
		if b.lanes[iv.lane()].dev != d {
			continue
		}
		if lo, hi, ok := busy.next(iv); ok {
			dt.Busy += hi - lo
			strip.add(lo, hi, "busy")
			g := h.gapCause(hi, iv)
			idle.gap++
			idle.hostSync(&h, g.rest, g.free, hi, g.lo, g.restCall)
			idle.host(&h, g.cause, g.lo, g.hi, g.call)
			idle.hostSync(&h, g.rest, g.free, g.hi, iv.start, g.restCall)
		}
		countSpan(&dt.Kernels, &dt.Copies, &dt.Sets, iv)
		if iv.kind() == spanKernel {
			kernels.busy.add(iv, &kernels)
		}
	}
	lo, hi, _ := busy.flush()
	dt.Busy += hi - lo
	strip.add(lo, hi, "busy")
	kernels.busy.close(&kernels)
	dt.Overlap = kernels.overlap
	var copyTime float64
	for _, c := range copies {
		copyTime += float64(c.dur)
	}
	dt.CopyExposed = math.Max(0, copyTime-dt.Overlap)
	idle.gap++
	idle.host(&h, IdleTrailing, gpuEnd, end, nil)
	if dt.Span > 0 {
		dt.BusyShare = math.Min(1, dt.Busy/dt.Span)
	}
	dt.Idle = idle.list(dt.Span)
	dt.Strip = strip.segments()
	dt.Streams = <-streams
	return dt
}

// streams makes the figures of device d's streams from the sorted
// intervals (sealed), in the order the streams start: each stream's busy
// union, its strip over start to end, its share of span.
func (b *timelineBuilder) streams(d string, start, end, span float64) []*StreamTimeline {
	accs := make([]*streamAcc, len(b.lanes)) // by lane
	var order []int
	for iv := range b.ivals.all() {
		l := b.lanes[iv.lane()]
		if l.dev != d {
			continue
		}
		a := accs[iv.lane()]
		if a == nil {
			a = &streamAcc{st: &StreamTimeline{Stream: l.strm, Start: iv.start}, strip: newStripper(start, end)}
			accs[iv.lane()] = a
			order = append(order, iv.lane())
		}
		a.busy.add(iv, a)
		countSpan(&a.st.Kernels, &a.st.Copies, &a.st.Sets, iv)
	}
	var out []*StreamTimeline
	for _, k := range order {
		a := accs[k]
		a.busy.close(a)
		if span > 0 {
			a.st.BusyShare = math.Min(1, a.st.Busy/span)
		}
		a.st.Strip = a.strip.segments()
		out = append(out, a.st)
	}
	return out
}

// deviceSpan is the first and last instant device d's intervals cover,
// and the union of its copies (to find the kernels beside them); false
// when the device ran nothing.
func (b *timelineBuilder) deviceSpan(d string) (gpuStart, gpuEnd float64, copies []ival, ok bool) {
	// The first interval in start order (the first to come among those
	// of one start) and the last end, from each lane's.
	gpuStart, gpuEnd = math.NaN(), math.NaN()
	seq := 0
	for l, sp := range b.spans {
		if b.lanes[l].dev != d || math.IsNaN(sp.lo) {
			continue
		}
		if math.IsNaN(gpuStart) || sp.lo < gpuStart || sp.lo == gpuStart && sp.seq < seq {
			gpuStart, seq = sp.lo, sp.seq
		}
		if math.IsNaN(gpuEnd) {
			gpuEnd = sp.hi
		}
		gpuEnd = math.Max(gpuEnd, sp.hi)
	}
	// The copies in start order (those of one start as they came), merged.
	var mine []ival
	for _, iv := range b.copies {
		if b.lanes[iv.lane()].dev == d {
			mine = append(mine, iv)
		}
	}
	slices.SortStableFunc(mine, func(x, y ival) int { return cmp.Compare(x.start, y.start) })
	for _, iv := range mine {
		if n := len(copies); n > 0 && iv.start <= copies[n-1].end() {
			copies[n-1].dur = float32(math.Max(copies[n-1].end(), iv.end()) - copies[n-1].start)
		} else {
			copies = append(copies, iv)
		}
	}
	return gpuStart, gpuEnd, copies, !math.IsNaN(gpuStart)
}

// countSpan counts an interval by kind (a device's or a stream's).
func countSpan(kernels, copies, sets *int, iv ival) {
	switch iv.kind() {
	case spanKernel:
		*kernels++
	case spanCopy:
		*copies++
	case spanSet:
		*sets++
	}
}

// kernelOverlap is the time a device's kernels run beside its copies:
// the kernels' union merged as the sorted intervals come, each of its
// intervals met with the copies' union as it closes.
type kernelOverlap struct {
	copies  []ival
	ci      int // the first copy that may still overlap
	busy    union
	overlap float64
}

func (k *kernelOverlap) closed(lo, hi float64) {
	for k.ci < len(k.copies) && k.copies[k.ci].end() <= lo {
		k.ci++
	}
	for j := k.ci; j < len(k.copies) && k.copies[j].start < hi; j++ {
		if o := math.Min(hi, k.copies[j].end()) - math.Max(lo, k.copies[j].start); o > 0 {
			k.overlap += o
		}
	}
}

// stepSpan is a step's span on the host.
type stepSpan struct{ start, end float64 }

// stepSpans are the steps a trace marks on its host (PyTorch's
// ProfilerStep#N spans, each counted once), in order; nil when it marks
// none.
func stepSpans(run *profan.Run) []stepSpan {
	if run.Host == nil {
		return nil
	}
	seen := map[string]bool{}
	var steps []stepSpan
	for _, e := range run.Host.Events {
		if e.Kind == profan.HostAnnotation && strings.HasPrefix(e.Name, "ProfilerStep#") && !seen[e.Name] {
			seen[e.Name] = true
			steps = append(steps, stepSpan{e.Start, e.Start + e.Duration})
		}
	}
	slices.SortStableFunc(steps, func(a, b stepSpan) int { return cmp.Compare(a.start, b.start) })
	return steps
}

// stepWalls are the walls of the marked steps, in order, and the GPU's
// busy share of each: a step ends when its host span ends or, later,
// when the GPU work it launched (on the device kept) ends, and its wall
// runs from the previous step's end; the first from its own start. A
// host that runs ahead of the GPU thus does not make a step look short.
// Nil for fewer than two steps.
func stepWalls(steps []stepSpan, gpu []replayKernel, keep func(lane uint32) bool) (walls, busy []float64) {
	if len(steps) < 2 {
		return nil, nil
	}
	ends := make([]float64, len(steps))
	for i, s := range steps {
		ends[i] = s.end
	}
	var ivs [][2]float64
	for _, k := range gpu {
		if !keep(k.lane) {
			continue
		}
		ivs = append(ivs, [2]float64{k.start, k.start + float64(k.dur)})
		// The step whose span holds the launch.
		i := sort.Search(len(steps), func(i int) bool { return steps[i].start > k.issued }) - 1
		if i < 0 || k.issued >= steps[i].end {
			continue
		}
		ends[i] = math.Max(ends[i], k.start+float64(k.dur))
	}
	walls, busy = make([]float64, len(steps)), make([]float64, len(steps))
	bounds := make([]float64, len(steps)+1)
	bounds[0] = steps[0].start
	for i, e := range ends {
		e = math.Max(e, bounds[i])
		walls[i], bounds[i+1] = e-bounds[i], e
	}
	// The union of the GPU's intervals, cut at the steps' bounds.
	slices.SortFunc(ivs, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
	var merged [][2]float64
	for _, iv := range ivs {
		if n := len(merged); n > 0 && iv[0] <= merged[n-1][1] {
			merged[n-1][1] = math.Max(merged[n-1][1], iv[1])
			continue
		}
		merged = append(merged, iv)
	}
	on := make([]float64, len(walls))
	for _, iv := range merged {
		// The first step whose window ends after the interval starts.
		for i := sort.SearchFloat64s(bounds[1:], iv[0]); i < len(walls) && bounds[i] < iv[1]; i++ {
			on[i] += math.Max(0, math.Min(bounds[i+1], iv[1])-math.Max(bounds[i], iv[0]))
		}
	}
	for i, w := range walls {
		if w > 0 {
			busy[i] = on[i] / w
		}
	}
	return walls, busy
}
