package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
)

// The replay: a lever priced by replaying the step's dependency graph
// with the lever applied (docs/replay.md). The graph is the host's spans
// in time order on the threads that launch GPU work, each kernel issued
// at the host time its launch call returned (its correlation), each lane
// (device stream) running its kernels in order, each sync waiting for the
// GPU work issued before it. A lever transforms the graph: it shrinks
// kernels (the host's time stays: the host floor), takes spans off the
// host (DataLoader workers, a CUDA graph's replay of the launches and the
// Python around them, fused launches), or drops a sync's wait. Replayed,
// the host walks its spans (each scaled by the lever), issuing the
// kernels as it passes their launch times; a kernel starts when issued
// and its lane is free; a sync kept waits for every lane to drain.

// maxReplay bounds the kernels the replay keeps (40 bytes each): the
// steps past it are not replayed.
const maxReplay = 1 << 17

// replayKernel is a kernel or copy as the replay holds it.
type replayKernel struct {
	start, issued float64 // issued: when its launch call returned; its start where unknown
	dur           float32
	name          int32 // index in replay.names; -1 for a copy or memset
	lane          uint32
	bytes         float32 // a host transfer's
	cfg           int32   // index in replay.cfgs of its grid and block; -1 where unknown
	copy          uint8   // 0 for a kernel, else copyOther or a host transfer's flags
	opBytes       float32 // what its op moves (profan.Kernel.OpBytes); 0 where unknown
}

// launchCfg is a kernel launch's configuration: its grid and block.
type launchCfg struct{ grid, block profan.Dim3 }

// What a replayed copy is: a device copy or memset (copyOther), or a host
// transfer from pinned or pageable memory, to the device or from it.
const (
	copyOther    int32 = 1
	copyPinned   int32 = 2
	copyPageable int32 = 4
	copyToDevice int32 = 8
)

// replay is the graph of a trace's profiled steps.
type replay struct {
	kernels []replayKernel // of the busiest device, by issue time
	names   []string
	nameIdx map[string]int32
	cfgs    []launchCfg // the launches' configurations, each once
	cfgIdx  map[launchCfg]int32
	spans   []profan.HostSpan
	ends    bool // the spans' ends do not decrease (spanWalk)
	snames  []string
	lo, hi  float64 // the replayed window: the steps' host extent
	steps   int
	bounds  []float64 // each step's end on the host, in order (ProfilerStep#N)
	folded  bool      // kernels past maxReplay were not kept
	syncs   *syncMemo // SyncSites, made once (nil: each call lists them)
	// perOp, perFrame and perLaunch are what the profiler cost the host
	// for each aten op, Python frame and launch it recorded, seconds
	// (profilerOp ... times the launch's worth, for a PyTorch trace; 0
	// for an nsys trace): taken off the span that holds them (keep).
	perOp, perFrame, perLaunch float64
	// pyCall is the trace's cost of recording one Python call
	// (profan.Host.PyCall), the loader's records' unit (loaderKeep).
	pyCall    float64
	loaderNat bool // loaderKeep keeps the native calls whole (loaderNative)
	profiler  bool // a PyTorch trace: keep applies
	// reads marks the window's copy and sync spans that read GPU bytes
	// back to the host (readBack); results, the program's results (final).
	reads, results []bool
	// nl counts, by span, the kernels and copies whose launch call
	// returned inside it (nil where none is known).
	nl []uint16
	// bareKeep is the share of the window's traced host time the
	// replay keeps, for the time no span covers.
	bareKeep float64
	// launch is the host's time, as traced, of one launch's worth: the
	// median of the dispatch spans that issue one kernel (an aten op, or
	// in an nsys trace the launch call). A lever's Host is counted in it,
	// so an engine's host cost scales with the trace's own host speed.
	launch float64
	// launchU is a launch's worth unprofiled (launchUnprofiled): what a
	// lever's Host, Fewer and Collapse launches cost the replayed host.
	launchU float64
	// framework: the time no span covers is the framework's Python
	// around the launches (a PyTorch trace), which a graph replaces; in
	// an nsys trace it is the program's own host work, which stays.
	framework bool
	// base is the replay without a lever, made once: every lever's
	// Replay prices it against the same base.
	base *replayBase
	// pad is each kernel's time scale padded (padFactors), made once.
	pad *replayPad
	// ranges are the user annotations inside the window (ProfilerStep#N
	// apart), by start.
	ranges []annRange
	// frames are the Python frames the reader keeps whole inside the
	// window (profan.HostFrame: PyTorch's optimizer frames, the user's
	// forward methods), by start.
	frames []annRange
	// gap is the GPU's own time between two kernels of a lane when the
	// second was queued before the first ended (gpuGap).
	gap float64
	// kmin is the trace's shortest kernel on the busiest device: the
	// least a kernel a lever adds takes on the GPU (castGPU).
	kmin float64
	// kmed is the trace's median kernel on the busiest device: what an
	// op Lever.OnGPU moves takes on the GPU (medianKernel).
	kmed float64
	// training: the window holds autograd's backward (a dispatch span
	// of autograd::engine::evaluate_function): a training step.
	training bool
	// plans is the plan cache's model of the window's per-shape builds
	// (planCache); nil where no op builds plans.
	plans *planCache
	// ops are the window's op host work by op (OpHosts), read once.
	ops []OpHost
	// feed is the step's floor set by a multi-process DataLoader: its
	// pin-memory thread's time a batch times the batches a step
	// (pinFeed), or where the step's thread waits on the workers' queue
	// every step (waitsOnWorkers), the step as replayed; 0 for none.
	feed float64
	// busy is each step's GPU busy time as traced (busyTraced).
	busy []stepBusy
	// whole: the walk keeps the step's blocked waits on the workers at
	// their traced time (workersFeed).
	whole bool
	// stalls are the step's thread's blocked waits on a multi-process
	// DataLoader's workers (loaderWaits), by start; nil where the trace
	// keeps none (blocked).
	stalls []annRange
	// nexts are the window's multi-process DataLoader iterators'
	// __next__ starts, recv a batch's transfer paid at each (receiving).
	nexts []float64
	recv  float64
}

// annRange is a user annotation's range on the host.
type annRange struct {
	lo, hi float64
	name   string
}

// syncMemo is the replay's sync sites, listed once: every rule asks for
// them, and each listing walks the window's spans twice (the sites, the
// Python that consumes their reads).
type syncMemo struct {
	once  sync.Once
	sites []Site
}

// replayBase is the wall of the replay without a lever, made once.
type replayBase struct {
	once sync.Once
	wall float64
}

// The profiler's own cost, by what it records (docs/replay.md), in the
// trace's own launch's worth (its host speed with the profiler on): each
// aten op it records with its shapes (profilerOp), each Python call (profilerFrame:
// every Python function and every C function Python calls, with_stack)
// and each kernel or copy launch (profilerLaunch: the runtime call and
// its activity record) costs the host a fixed time, taken off the span
// that holds it, and what is left runs at profilerKeep of its traced
// time (every call hooked). A long call into C (a numpy FFT, a JPEG
// decode) keeps about profilerKeep of its length; a dense stretch of
// dispatch or of small Python calls keeps less. Fitted on the steps
// their host bounds in fixtures/host8 to host15 and on fixtures/timeline's
// and check7's decode and small training steps, against the step their
// process timed unprofiled (docs/calibration-apps.md).
const (
	profilerKeep   = 0.55
	profilerOp     = 0.05
	profilerFrame  = 0.005
	profilerLaunch = 0.2
)

// minKeep is the least share of a span's traced time left after its
// records' costs (before profilerKeep), fitted with them.
const minKeep = 0.2

// recordCopy keeps a copy or memset for the replay, up to maxReplay.
func (r *replay) recordCopy(what int32, bytes, start, dur, launched float64, lane uint32) {
	if r.record("", launchCfg{}, 0, start, dur, launched, lane) {
		k := &r.kernels[len(r.kernels)-1]
		k.copy, k.bytes = uint8(what), float32(bytes)
	}
}

// record keeps a kernel for the replay, up to maxReplay: whether it did.
func (r *replay) record(name string, cfg launchCfg, opBytes, start, dur, launched float64, lane uint32) bool {
	if len(r.kernels) >= maxReplay {
		r.folded = true
		return false
	}
	idx, c := int32(-1), int32(-1)
	if name != "" {
		idx = intern(&r.nameIdx, &r.names, name)
	}
	if cfg.grid.Known() {
		c = intern(&r.cfgIdx, &r.cfgs, cfg)
	}
	issued := launched
	if math.IsNaN(issued) || issued > start {
		issued = start
	}
	r.kernels = append(r.kernels, replayKernel{start: start, issued: issued, dur: float32(dur), name: idx, lane: lane, cfg: c, opBytes: float32(opBytes)})
	return true
}

// intern is k's index in list, added to it (and to idx) the first time.
func intern[K comparable](idx *map[K]int32, list *[]K, k K) int32 {
	if *idx == nil {
		*idx = map[K]int32{}
	}
	i, ok := (*idx)[k]
	if !ok {
		i = int32(len(*list))
		*list = append(*list, k)
		(*idx)[k] = i
	}
	return i
}

// finish keeps the device's kernels within the steps' window and the
// host's spans; nil when the trace has no host spans.
func (r *replay) finish(run *profan.Run, keep func(lane uint32) bool) *replay {
	if run.Host == nil || len(run.Host.Spans) == 0 || len(r.kernels) == 0 {
		return nil
	}
	// Past the bound, the steps whose kernels were all kept.
	cut := math.Inf(1)
	if r.folded {
		cut = math.Inf(-1)
		for _, k := range r.kernels {
			cut = math.Max(cut, k.issued)
		}
	}
	lo, hi, steps := math.Inf(1), math.Inf(-1), 0
	var bounds []float64
	for _, e := range run.Host.Events {
		if e.Kind == profan.HostAnnotation && strings.HasPrefix(e.Name, "ProfilerStep#") && e.Start+e.Duration <= cut {
			lo, hi = math.Min(lo, e.Start), math.Max(hi, e.Start+e.Duration)
			steps++
			bounds = append(bounds, e.Start+e.Duration)
		}
	}
	slices.Sort(bounds)
	r.bounds = bounds
	if steps == 0 {
		if r.folded {
			return nil
		}
		lo, hi, steps = run.Host.Start, run.Host.End, 1
	}
	k := r.kernels[:0]
	for _, x := range r.kernels {
		if keep(x.lane) && x.issued >= lo && x.issued < hi {
			k = append(k, x)
		}
	}
	if len(k) == 0 {
		return nil
	}
	slices.SortStableFunc(k, func(a, b replayKernel) int { return cmp.Compare(a.issued, b.issued) })
	r.kernels, r.spans, r.snames, r.lo, r.hi, r.steps = k, run.Host.Spans, run.Host.SpanNames, lo, hi, steps
	r.ends = true
	for i := 1; i < len(r.spans) && r.ends; i++ {
		r.ends = r.spans[i].End() >= r.spans[i-1].End()
	}
	for _, e := range run.Host.Events {
		if e.Kind == profan.HostAnnotation && !strings.HasPrefix(e.Name, "ProfilerStep#") && e.Duration > 0 && e.Start >= lo && e.Start+e.Duration <= hi {
			r.ranges = append(r.ranges, annRange{e.Start, e.Start + e.Duration, e.Name})
		}
	}
	slices.SortStableFunc(r.ranges, func(a, b annRange) int { return cmp.Compare(a.lo, b.lo) })
	for _, e := range run.Host.Events {
		if e.Kind == profan.HostFrame && e.Duration > 0 && e.Start >= lo && e.Start+e.Duration <= hi {
			r.frames = append(r.frames, annRange{e.Start, e.Start + e.Duration, e.Name})
		}
	}
	slices.SortStableFunc(r.frames, func(a, b annRange) int { return cmp.Compare(a.lo, b.lo) })
	r.splitScaler()
	r.busy = r.busyTraced(Lever{})
	r.framework = false
	r.launch = r.launchUnit()
	if run.Tool == profan.ToolTorch {
		r.framework = true
		r.pyCall = run.Host.PyCall
		r.profiled()
		r.loaderNat = r.loaderNative()
	}
	r.training = r.hasBackward()
	r.bareKeep = r.windowKeep()
	r.launchU = r.launchUnprofiled()
	r.plans = r.planCache()
	r.markReads()
	r.gap = r.gpuGap()
	r.kmin = r.shortestKernel()
	r.kmed = r.medianKernel()
	r.feed = r.pinFeed(run)
	var received int
	r.stalls, received = r.loaderWaits(run)
	r.receiving(run, received)
	if r.waitsOnWorkers() {
		// The step's thread is blocked on the workers every step:
		// their throughput is the step's pace already, and no lever
		// that shrinks the step's own work takes it under it.
		r.feed = math.Max(r.feed, r.run(Lever{}))
	} else {
		r.feed = math.Max(r.feed, r.workersFeed())
	}
	r.base, r.pad, r.syncs = &replayBase{}, &replayPad{}, &syncMemo{}
	return r
}

// Replay prices lever by replaying the step (verdict.Steps).
func (r *replay) Replay(l Lever) Replayed {
	base := r.baseWall()
	wall := base
	if !noLever(l) {
		wall = r.run(l)
	}
	return Replayed{Wall: wall, Base: base, Steps: r.steps, Feed: r.feed, Received: r.received(Lever{})}
}

// baseWall is run(Lever{}), made once per replay (the levers' Replays
// and the rules asking for the base each read it).
func (r *replay) baseWall() float64 {
	if r.base == nil {
		return r.run(Lever{})
	}
	r.base.once.Do(func() { r.base.wall = r.run(Lever{}) })
	return r.base.wall
}

// noLever reports a lever that changes nothing run reads: its replay is
// the base's.
func noLever(l Lever) bool {
	return l.Kernel == nil && l.Host == nil && l.Casts == nil && (l.Dispatch == 0 || l.Dispatch == 1) && !l.Graphs && !l.Pad && !l.Forward && l.Workers == 0 &&
		l.Drop == nil && l.DropReads == nil && l.DropOps == nil && l.Gather == nil && l.Follow == nil && l.Consume == nil && l.Pinned == 0 && l.ReadBack == 0 && !l.Receive && !l.Overlap && l.Fewer == nil && l.More == nil && l.Kept == nil && l.Collapse == nil &&
		l.OpHost == nil && l.OnGPU == nil
}

// run replays the window with lever l: its wall time per step. Where
// the window holds plans a library builds per shape (planCache), the
// steady step: the step with every build at its op's median call, and
// the builds that recur (a range of shapes that grows) at the rate the
// window shows them, their replayed cost over the window a step.
func (r *replay) run(l Lever) float64 {
	plans := r.opHostScale(l)
	wall, total, data := r.walk(l, r.plans.with(plans, false))
	if r.plans != nil && r.plans.recur {
		_, traced, _ := r.walk(l, r.plans.with(plans, true))
		wall += math.Max(0, traced-total) / float64(r.steps)
	}
	if l.Workers > 0 {
		// The workers' throughput bounds the step.
		wall = math.Max(wall, data/float64(l.Workers)/float64(r.steps))
	}
	// The batches cannot come faster than the pin-memory thread takes
	// them from the workers.
	return math.Max(wall, r.feed)
}

// walk replays the window with lever l, the host spans in plans (by
// index) at that share of their traced time: the median step's wall,
// the window's whole replayed time, and its loading's time, seconds.
func (r *replay) walk(l Lever, plans map[int]float64) (wall, total, data float64) {
	if l.Graphs && !l.Capturable() {
		// A sync the other levers leave blocks the capture: the step
		// is replayed without the graph.
		l.Graphs, l.Pad, l.Model = false, false, false
	}
	disp := l.Dispatch
	if disp == 0 {
		disp = 1
	}
	// The profiler's own cost: each span's time as traced, less what its
	// records cost the host (keep).
	// Time no span covers: in a PyTorch trace the framework's own
	// Python, which a graph replaces too.
	// A graph of the model alone (Lever.Model) holds the host's work
	// inside its regions (graphed); outside them the step runs eager,
	// as lever eager.
	graphed := r.graphed(l)
	eager := l
	eager.Graphs = false
	bare := func(l Lever) float64 {
		if l.Graphs && r.framework {
			return 0
		}
		return r.bareKeep
	}
	less := r.fewer(l)
	col, colN := r.collapsed(l)
	var cuts []cut
	if l.Collapse == nil || !l.Collapse.Calls {
		cuts = r.cuts(col)
	}
	// A module's loop over its experts (Collapse.Calls): one expert's
	// worth of its host kept, forward (ckeep) and backward (nodes).
	var ckeep float64
	var nodes []float64
	if c := l.Collapse; c != nil {
		ckeep = c.Keep
		if c.Calls && len(col) > 0 {
			ckeep = r.callKeep(c)
			_, e := r.callLoops(c.Frame)
			nodes = r.loopNodes(col, ckeep, e)
		}
	}
	eaten := r.consumers(l)
	gone := r.opsDropped(l)
	// An op's CPU compute stays under a graph and fewer dispatches;
	// moved to the GPU (Lever.OnGPU), a launch and a kernel.
	cpu := r.cpuWork()
	moved := r.onGPU(l)
	// The host deciding on a value it read: eager under a graph.
	held := r.decided(l, gone)
	// The regions a graph captured on one step does not replay on
	// another (their launches do not repeat): eager too.
	unheld := r.unheld(l, gone)
	if unheld != nil {
		held = append(held, unheld...)
		slices.SortFunc(held, func(a, b annRange) int { return cmp.Compare(a.lo, b.lo) })
		held = joined(held)
	}
	factor := func(l Lever, i int, s profan.HostSpan) float64 {
		if gone != nil && gone[i] {
			return 0
		}
		if _, ok := moved[i]; ok {
			// Its launch is charged where its kernel issues.
			return 0
		}
		unprof := r.keep(i)
		if nodes != nil && !l.Graphs {
			unprof *= nodes[i]
		}
		if k, ok := eaten[i]; ok {
			// A metric's Python after its read, made every N steps.
			unprof *= k
		}
		switch s.State {
		case profan.HostDispatch:
			if cpu[i] {
				if x, ok := plans[i]; ok {
					unprof *= x
				}
				return unprof
			}
			if l.Graphs {
				return 0
			}
			if l.Forward && s.Cast > 0 && r.profiler {
				// torch.compile traces autocast's casts into its graph,
				// their kernels fused into the ones around them: their
				// host goes (docs/replay.md).
				unprof = math.Max(0, unprof-castKeep*math.Min(s.CastTime(), float64(s.Dur))/float64(s.Dur))
			}
			if x, ok := plans[i]; ok {
				// A long call made at its op's median call's cost.
				unprof *= x
			}
			if x, ok := less[i]; ok && s.Dur > 0 {
				return math.Max(0, 1-x/float64(s.Dur)) * disp * unprof
			}
			return disp * unprof
		case profan.HostPython:
			if l.Graphs && !r.consumes(s) || l.Forward && !(l.Backward > 0 && r.training) && r.forward(s) {
				return 0
			}
		case profan.HostData:
			if l.Workers > 0 {
				return 0
			}
			if r.recv > 0 && r.iterSpan(s) {
				// The transfer is paid a batch at each __next__.
				return r.iterFactor(s, unprof)
			}
			if r.whole && r.stalls != nil && s.Dur > 0 {
				// The blocked share at its traced time, the transfer
				// as host work.
				b := math.Min(1, r.blocked(s.Start, s.End())/float64(s.Dur))
				return b + (1-b)*unprof
			}
			if r.whole && s.Name >= 0 && int(s.Name) < len(r.snames) && workersWait(r.snames[s.Name]) {
				return 1
			}
		case profan.HostSync:
			// A sync's own time is its wait, replayed below.
			return 0
		case profan.HostCopy:
			// A copy call that no longer blocks returns at once.
			if r.dropped(l, i) {
				return 0
			}
		case profan.HostAlloc:
			// An allocation the cache keeps is no longer made; a
			// graph's replay allocates nothing (its pool is its own).
			if l.Graphs || r.dropped(l, i) {
				return 0
			}
		}
		return unprof
	}
	var pad []float32
	if l.Pad && l.Graphs {
		pad = r.padFactors()
	}
	// dur is a kernel's or copy's replayed time (the i-th of the window).
	dur := func(i int, k replayKernel) float64 {
		d := float64(k.dur)
		if pad != nil {
			d *= float64(pad[i])
		}
		switch {
		case k.copy != 0:
			if l.Pinned > 0 && int32(k.copy)&copyPageable != 0 {
				d = math.Min(d, float64(k.bytes)/l.Pinned)
			}
		case l.Kernel != nil && k.name >= 0:
			d *= l.Kernel(r.names[k.name])
		}
		if c := l.Collapse; c != nil && k.copy == 0 {
			// Inside a collapsed range: the bytes above the floor
			// stay (fewer passes where fused), the floors are paid
			// once a multi-tensor launch.
			if i := rangeOf(col, k.issued); i >= 0 {
				d = math.Max(0, d-c.Floor)*c.Bytes + c.Floor*c.Launches/float64(colN[i])
			}
		}
		return d
	}
	// A collapsed range's host: its multi-tensor launches.
	extra := 0.0
	if l.Collapse != nil && !l.Collapse.Calls && (!l.Graphs || graphed != nil) {
		extra = l.Collapse.Launches * r.launchU
		if ckeep > 0 {
			// One iteration's host, its launches in it.
			extra = 0
		}
		if l.Collapse.Frame != "" && len(col) > 0 {
			// One iteration's host: the loops' traced time at the
			// profiler's keep, over the items.
			span := 0.0
			for _, a := range col {
				span += a.hi - a.lo
			}
			extra += ckeep * profilerKeep * span / float64(len(col))
		}
	}
	ri, entered, gi, di, ni := 0, -1, 0, 0, 0
	batch := r.batchCost(l)      // paid where each __next__ begins
	free := map[uint32]float64{} // each lane's end of work
	drained := func() float64 {
		d := math.Inf(-1)
		for _, f := range free {
			d = math.Max(d, f)
		}
		return d
	}
	// The host walks from lo: h is its replayed clock at the captured
	// instant t.
	h, t := 0.0, r.lo
	var done []float64
	stepGPU, stepDur, sideDur, bi, busy := 0.0, 0.0, 0.0, 0, r.busyFor(l)
	gpu := math.Inf(-1)
	// issue runs a kernel of d seconds on lane, issued at start, after
	// the lane's work and the GPU's gap.
	issue := func(lane uint32, start, d, gap float64) {
		if f, ok := free[lane]; ok {
			start = math.Max(start, f+gap)
		}
		end := start + d
		stepDur += d
		if lane == sideLane {
			sideDur += d
		}
		free[lane] = end
		gpu = math.Max(gpu, end)
		stepGPU = math.Max(stepGPU, end)
	}
	si, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	advance := func(to float64) {
		for t < to {
			for si < len(r.spans) && r.spans[si].End() <= t {
				si++
			}
			for ni < len(r.nexts) && r.nexts[ni] <= t {
				h += batch
				ni++
			}
			// Inside a collapsed range's cuts the host's time is
			// gone: its multi-tensor launches are charged once a
			// range, on entering its first cut.
			stop, keep := to, 1.0
			if ni < len(r.nexts) {
				stop = math.Min(stop, r.nexts[ni])
			}
			for ri < len(cuts) && cuts[ri].hi <= t {
				ri++
			}
			if ri < len(cuts) {
				if c := cuts[ri]; t >= c.lo {
					keep, stop = 0, math.Min(stop, c.hi)
					if entered != c.of {
						h += extra
						entered = c.of
					}
				} else {
					stop = math.Min(stop, c.lo)
				}
			}
			// Inside a graph of the model, or outside it, eager.
			lv := l
			if graphed != nil {
				for gi < len(graphed) && graphed[gi].hi <= t {
					gi++
				}
				lv = eager
				if gi < len(graphed) {
					if g := graphed[gi]; t >= g.lo {
						lv, stop = l, math.Min(stop, g.hi)
					} else {
						stop = math.Min(stop, g.lo)
					}
				}
			}
			if held != nil && lv.Graphs {
				for di < len(held) && held[di].hi <= t {
					di++
				}
				if di < len(held) {
					if d := held[di]; t >= d.lo {
						lv, stop = eager, math.Min(stop, d.hi)
					} else {
						stop = math.Min(stop, d.lo)
					}
				}
			}
			if si == len(r.spans) || r.spans[si].Start >= stop {
				h += (stop - t) * bare(lv) * keep
				t = stop
				continue
			}
			s := r.spans[si]
			if s.Start > t {
				h += (s.Start - t) * bare(lv) * keep
				t = s.Start
				continue
			}
			end := math.Min(stop, s.End())
			h += (end - t) * factor(lv, si, s) * keep
			if s.State == profan.HostData {
				data += (end - t) * r.keep(si)
			}
			t = end
			if m, ok := moved[si]; ok && m.issues && end == s.End() {
				// The op moved to the GPU: its launch, then its kernel
				// on the lane its consumers run on.
				h += r.launchU
				issue(m.lane, h, r.kmed, r.gap)
			}
			if end == s.End() && !(gone != nil && gone[si]) && r.waits(lv, si) {
				h = math.Max(h, drained())
			}
		}
	}
	// Each step completes when its host work is done and its kernels
	// have run (and not before the one before it).
	close := func(to float64) {
		for bi < len(r.bounds) && r.bounds[bi] <= to {
			advance(r.bounds[bi])
			c := math.Max(h, stepGPU)
			if n := len(done); n > 0 {
				c = math.Max(c, done[n-1])
				if bi < len(busy) {
					// The GPU's busy time as traced, its kernels at
					// their replayed length: no step ends sooner.
					c = math.Max(c, done[n-1]+busy[bi].floor(stepDur-sideDur, sideDur))
				}
			}
			done = append(done, c)
			stepGPU, stepDur, sideDur = 0, 0, 0
			bi++
		}
	}
	charged := -1 // the span whose op's engine cost was added last
	cast := -1    // the span whose op's casts were added last
	casts := 0.0  // the GPU's time of the casts before the next kernel
	spanAt := r.spanWalk()
	for ki, k := range r.kernels {
		close(k.issued)
		advance(k.issued)
		if gone != nil {
			if i := spanAt(k.issued); i >= 0 && gone[i] {
				// Issued by an op no longer called.
				continue
			}
		}
		if l.Host != nil && !l.Graphs && k.name >= 0 && r.launch > 0 {
			// The op's new engine: its host work before it issues.
			if x := l.Host(r.names[k.name]); x > 0 {
				if i := spanAt(k.issued); i >= 0 && i != charged {
					h += x * r.launchU
					charged = i
				}
			}
		}
		if l.Casts != nil && !l.Graphs && k.name >= 0 && r.launch > 0 {
			// Autocast's casts of the op's inputs: each a cast of the
			// trace's, at castLaunches of its launch's worth as traced.
			if x := l.Casts(r.names[k.name]); x > 0 {
				if i := spanAt(k.issued); i >= 0 && i != cast {
					h += x * r.castCost()
					casts = x * r.castGPU()
					cast = i
				}
			}
		}
		if (l.More != nil || l.Kept != nil) && !l.Graphs && k.copy == 0 && k.name >= 0 {
			// A fusion's added launches (More) and the launches it
			// keeps (Kept, their ops' dispatch gone: fewer), each from
			// the compiled code's launcher (Lever.Launcher), in the
			// backward pass from the compiled backward (Lever.Backward).
			x := 0.0
			if l.More != nil {
				x += l.More(r.names[k.name])
			}
			if l.Kept != nil {
				x += l.Kept(r.names[k.name])
			}
			c := max(1, l.Launcher)
			if l.Backward > 0 && r.training && r.compiledBackward(spanAt(k.issued)) {
				// A training step's compiled backward: its launches
				// Lever.Backward each.
				c = l.Backward
			}
			if x > 0 {
				h += x * c * r.launchU
			}
		}
		if l.ReadBack > 0 && l.Pinned > 0 && int32(k.copy)&(copyPageable|copyToDevice) == copyPageable {
			// A device-to-host copy made pinned: the host reads its
			// bytes back out of the pinned buffer (Lever.ReadBack).
			h += float64(k.bytes) / l.ReadBack
		}
		lane := k.lane
		if onSide(l, k) {
			lane = sideLane
		}
		// The GPU's gap before a queued kernel: none inside a graph; in
		// a collapsed range, paid once a launch left.
		gap := r.gap
		if l.Graphs && (graphed == nil || rangeOf(graphed, k.issued) >= 0) && rangeOf(unheld, k.issued) < 0 {
			gap = 0
		} else if c := l.Collapse; c != nil && c.Launches > 0 && k.copy == 0 {
			if i := rangeOf(col, k.issued); i >= 0 {
				gap *= math.Min(1, c.Launches/float64(colN[i]))
			}
		}
		d := dur(ki, k)
		if casts > 0 {
			// The op's casts run on its lane before its kernel.
			d += casts
			casts = 0
		}
		issue(lane, h, d, gap)
	}
	close(r.hi)
	advance(r.hi)
	total = math.Max(h, gpu)
	wall = total / float64(r.steps)
	if len(done) >= 3 {
		// The median step, the first (warm-up) left out.
		var ws []float64
		for i := 1; i < len(done); i++ {
			ws = append(ws, done[i]-done[i-1])
		}
		slices.Sort(ws)
		wall = ws[len(ws)/2]
		if len(ws)%2 == 0 {
			wall = (ws[len(ws)/2-1] + ws[len(ws)/2]) / 2
		}
	}
	return wall, total, data
}
