package ingest

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// What a PyTorch trace's events become: kernels (each with its launch),
// memory activities, and host calls with the op and frame around them.
func (r *torchReader) kernel(off int64) error {
	e := &r.ev
	k := profan.NewKernel()
	k.Name = e.Name
	k.Demangled = demangled(k.Name)
	k.ID = e.Args.Correlation.text()
	if k.ID == "" {
		k.ID = "n" + strconv.Itoa(r.corr)
		r.corr++
	}
	k.Device, k.DeviceIndex, k.CC = r.device(&e.Args)
	k.Context, k.Stream, k.Process = e.Args.Context.s, e.Args.Stream.s, e.Pid.s
	if k.Stream == "" {
		k.Stream = strings.TrimPrefix(e.Tid.s, "stream ")
	}
	k.Start, k.Duration = r.sec(e.TS.ns), float64(e.Dur.ns)/1e9
	corr, isNum := e.Args.Correlation.int()
	if isNum {
		if err := r.kernelCorr(corr, k.Name, off); err != nil {
			return err
		}
		if l, ok := r.launched[corr]; ok {
			k.Launched = r.sec(l.t)
			k.OpBytes = float64(l.bytes)
			if !l.graph {
				delete(r.launched, corr)
			}
		}
	}
	dim := func(v []int64, what string) (profan.Dim3, error) {
		var d profan.Dim3
		if v == nil {
			return d, nil
		}
		if len(v) != 3 {
			return d, r.errorAt(off, "%q: %s has %d dimensions, not 3", k.Name, what, len(v))
		}
		for i, x := range v {
			if x < 0 || x > math.MaxInt32 {
				return d, r.errorAt(off, "%q: %s dimension %d out of range", k.Name, what, x)
			}
			d[i] = int(x)
		}
		return d, nil
	}
	var err error
	if k.Grid, err = dim(e.Args.Grid, "grid"); err != nil {
		return err
	}
	if k.Block, err = dim(e.Args.Block, "block"); err != nil {
		return err
	}
	if e.Args.Registers.set {
		if v := e.Args.Registers.v; v < 0 || v > 1<<16 || v != math.Trunc(v) {
			return r.errorAt(off, "%q: %v registers per thread", k.Name, v)
		}
		k.Registers = int(e.Args.Registers.v)
	}
	if e.Args.SharedMem.set {
		if e.Args.SharedMem.v < 0 {
			return r.errorAt(off, "%q: negative shared memory", k.Name)
		}
		// Kineto writes the static and dynamic shared memory summed.
		k.StaticSMem = e.Args.SharedMem.v
	}
	if !isNum || !math.IsNaN(k.Launched) || len(r.launched) >= maxLaunched {
		return r.t.Kernel(k, r.lineAt(off))
	}
	if len(r.pending) == maxPending {
		if err := r.flush(1); err != nil {
			return err
		}
	}
	r.pending = append(r.pending, pendingKernel{k, corr, r.lineAt(off)})
	return nil
}

// flush hands the first n pending kernels to the sink.
func (r *torchReader) flush(n int) error {
	for _, p := range r.pending[:n] {
		if err := r.t.Kernel(p.k, p.line); err != nil {
			return err
		}
	}
	r.pending = append(r.pending[:0], r.pending[n:]...)
	return nil
}

// launch notes when a launch call queued its work, for its kernels to
// come and the ones pending.
func (r *torchReader) launch(corr, t int64, graph bool, bytes float64) error {
	met := false
	done := 0
	for i, p := range r.pending {
		if p.corr == corr {
			p.k.Launched = r.sec(t)
			p.k.OpBytes = bytes
			met = true
		}
		if !math.IsNaN(p.k.Launched) && done == i {
			done++
		}
	}
	if (graph || !met) && len(r.launched) < maxLaunched {
		r.launched[corr] = launchRec{t, float32(bytes), graph}
	}
	if done > 0 {
		return r.flush(done)
	}
	return nil
}

func (r *torchReader) activity(cat int, off int64) error {
	e := &r.ev
	a := &profan.Activity{Name: e.Name, Start: r.sec(e.TS.ns), Duration: float64(e.Dur.ns) / 1e9,
		Throughput: math.NaN(), Stream: e.Args.Stream.s, Correlation: e.Args.Correlation.text(), Invocations: 1}
	name, idx, _ := r.device(&e.Args)
	switch {
	case idx >= 0 && name != "":
		a.Device = name + " (" + strconv.Itoa(idx) + ")"
	case idx >= 0:
		a.Device = "device " + strconv.Itoa(idx)
	}
	if !e.Args.Bytes.set {
		// PyTorch writes every copy's and memset's size with its device
		// and stream: without them the activity lost its args.
		return r.errorAt(off, "a %q event without \"bytes\" in its args (its args lost?)", e.Cat)
	}
	a.Bytes = e.Args.Bytes.v
	if a.Duration > 0 {
		a.Throughput = a.Bytes / a.Duration
	}
	if cat == catSet {
		a.Kind = "memset"
	} else {
		// "Memcpy HtoD (Pageable -> Device)"
		dir, kinds, _ := strings.Cut(strings.TrimPrefix(a.Name, "Memcpy "), " (")
		a.Kind = "memcpy " + r.tab.str(dir)
		if src, dst, ok := strings.Cut(strings.TrimSuffix(kinds, ")"), " -> "); ok {
			a.SrcMemType, a.DstMemType = r.tab.str(src), r.tab.str(dst)
		}
	}
	r.t.row.Line = r.lineAt(off)
	return r.t.Activity(a)
}

// call sums a runtime or driver call by name, and keeps the ones that
// can hold the GPU idle.
func (r *torchReader) call(cat int, off int64) error {
	e := &r.ev
	c := r.api[e.Name]
	d := float64(e.Dur.ns) / 1e9
	if c == nil {
		if len(r.api) >= maxNames {
			return r.errorAt(r.evEnd, "more than %d distinct CUDA call names (not a profiler trace?)", maxNames)
		}
		c = &profan.APICall{Name: e.Name, Min: d, Max: d}
		r.api[e.Name] = c
		r.apiOrder = append(r.apiOrder, e.Name)
	}
	c.Calls++
	c.Total += d
	c.Min, c.Max = math.Min(c.Min, d), math.Max(c.Max, d)
	cls := profan.CallClass(e.Name)
	if n, ok := e.Args.Correlation.int(); ok && cls != profan.CallLaunch {
		if err := r.otherCallCorr(n, off); err != nil {
			return err
		}
	}
	switch cls {
	case profan.CallLaunch:
		r.s.run.Host.Launches++
		r.launcher(e.Tid.s)
		if c, ok := e.Args.Correlation.int(); ok {
			// A kernel is queued when its launch call returns; a graph's
			// kernels start while cudaGraphLaunch still runs (hundreds of
			// microseconds), from its start on.
			t := e.TS.ns + e.Dur.ns
			graph := strings.Contains(e.Name, "GraphLaunch")
			if graph {
				t = e.TS.ns
			}
			if err := r.callCorr(c, graph, off); err != nil {
				return err
			}
			// The bytes the op around the call moves (a graph's
			// kernels are not the op's).
			bytes := 0.0
			if !graph {
				bytes = r.opBytesAt(e.TS.ns, r.tidOf(e.Tid.s))
			}
			if err := r.launch(c, t, graph, bytes); err != nil {
				return err
			}
		}
	case profan.CallSync, profan.CallCopy, profan.CallSet, profan.CallAlloc:
		kind := profan.HostRuntime
		if cat == catDriver {
			kind = profan.HostDriver
		}
		r.keep(&profan.HostEvent{Kind: kind, Name: e.Name, Start: r.sec(e.TS.ns), Duration: d, Thread: e.Tid.s, Correlation: e.Args.Correlation.text()})
	}
	return nil
}

// keep keeps a host event one by one, up to MaxHostEvents.
func (r *torchReader) keep(h *profan.HostEvent) {
	if len(r.kept) >= profan.MaxHostEvents {
		r.s.run.Host.Folded++
		return
	}
	r.kept = append(r.kept, h)
}

// finish sums the calls into the run, places each kept call in the op
// and frame around it, and drops the ops and frames.
func (r *torchReader) finish() {
	run := r.s.run
	for _, n := range r.apiOrder {
		c := r.api[n]
		if c.Calls > 0 {
			c.Avg = c.Total / float64(c.Calls)
		}
		run.APICalls = append(run.APICalls, c)
	}
	if r.hostSeen {
		run.Host.Start, run.Host.End = r.sec(r.hostLo), r.sec(r.hostHi)
	}
	calls := make([]*profan.HostEvent, 0, len(r.kept))
	for _, h := range r.kept {
		if h.Kind != profan.HostAnnotation && h.Kind != profan.HostFrame {
			calls = append(calls, h)
		}
	}
	slices.SortStableFunc(calls, func(x, y *profan.HostEvent) int { return cmp.Compare(x.Start, y.Start) })
	at := func(h *profan.HostEvent) (int64, int32) {
		return int64(math.Round(h.Start*1e9)) + r.origin, min(r.tidIdx[h.Thread], 255)
	}
	// The op the user called: the outermost aten op around the call
	// (aten::item around aten::_local_scalar_dense).
	enclose(r.ops, calls, at, r.long, func(h *profan.HostEvent, stack []hostRec) {
		if len(stack) > 0 {
			h.Op = r.names[stack[0].name()]
		}
	})
	// The innermost frame of the user's code around it: a file that is
	// not PyTorch's own or an installed package's.
	enclose(r.frames, calls, at, r.long, func(h *profan.HostEvent, stack []hostRec) {
		for i := len(stack) - 1; i >= 0; i-- {
			if n := r.names[stack[i].name()]; userFrame(n) {
				h.Frame = n
				return
			}
		}
	})
	r.spans(calls)
	r.keepPin()
	run.Host.PyCall = r.pyCall()
	run.Host.Events = r.kept
	if run.Host.Folded > 0 {
		r.t.note(0, "host calls", "more than %d synchronising, copy and memset calls: the later %d are summed by name, not kept one by one", profan.MaxHostEvents, run.Host.Folded)
	}
	r.ops, r.frames, r.names, r.reads = nil, nil, nil, nil
}

// enclose walks the records (aten ops or Python frames) and the calls in
// time order, keeping each thread's stack of the records open, and hands
// each call the stack of its thread at its start, outermost first.
func enclose(recs []hostRec, calls []*profan.HostEvent, at func(*profan.HostEvent) (int64, int32), long map[[2]int64]int64, visit func(*profan.HostEvent, []hostRec)) {
	slices.SortFunc(recs, func(x, y hostRec) int {
		return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(y.end(long), x.end(long)))
	})
	stacks := map[int32][]hostRec{}
	pop := func(tid int32, t int64) []hostRec {
		st := stacks[tid]
		for len(st) > 0 && st[len(st)-1].end(long) < t {
			st = st[:len(st)-1]
		}
		stacks[tid] = st
		return st
	}
	i := 0
	for _, c := range calls {
		t, tid := at(c)
		for ; i < len(recs) && recs[i].start <= t; i++ {
			x := recs[i]
			stacks[x.tid()] = append(pop(x.tid(), x.start), x)
		}
		visit(c, pop(tid, t))
	}
}

// libraryDirs are the installed packages of PyTorch's family whose
// frames torch.profiler names relative to site-packages (torchvision's
// NMS at torchvision/ops/boxes.py(20): nms): a sync inside them is named
// at the user's frame that called them (fixtures/host18's post_image).
var libraryDirs = []string{"torch/", "torchvision/", "torchaudio/", "torchtext/", "functorch/"}

// userFrame reports a Python frame of the user's code.
func userFrame(name string) bool {
	file, _, ok := strings.Cut(name, ".py(")
	if !ok || strings.Contains(file, "site-packages/") || strings.Contains(file, "dist-packages/") || strings.HasPrefix(file, "<") {
		return false
	}
	for _, dir := range libraryDirs {
		if strings.HasPrefix(file, dir) {
			return false
		}
	}
	return true
}
