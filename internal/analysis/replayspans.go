package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/verdict"
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

// fewer is, by host span, the traced host time a fusion takes off the op
// that issued each kernel (Lever.Fewer): for each launch it removes, the
// op's host time a launch (the span's time over the launches that return
// in it), at least a launch's worth; the fused kernel runs the op's work,
// and its whole dispatch goes (a batch norm's, 4 launches' worth, not
// its launch call's share). An op that also issues a kernel the fusion
// keeps (a GEMM's, which the compiled code calls as the eager op did: a
// linear's backward, its bias's reduction fused away) keeps its
// dispatch: each launch removed from it takes a launch's worth; nil for
// none.
func (r *replay) fewer(l Lever) map[int]float64 {
	if l.Fewer == nil && l.Kept == nil || r.launch <= 0 {
		return nil
	}
	less := map[int]float64{}
	kept := map[int]bool{}
	spanAt := r.spanWalk()
	for _, k := range r.kernels {
		if k.copy != 0 || k.name < 0 {
			continue
		}
		i := spanAt(k.issued)
		if i < 0 || r.spans[i].State != profan.HostDispatch {
			continue
		}
		f := 0.0
		if l.Fewer != nil {
			f = l.Fewer(r.names[k.name])
		}
		if l.Kept != nil {
			// The launches kept run from the compiled code: the
			// op's dispatch goes for them too (run charges their
			// launcher).
			f = math.Min(1, f+l.Kept(r.names[k.name]))
		}
		if f <= 0 {
			kept[i] = true
			continue
		}
		n := 1.0
		if r.nl != nil && r.nl[i] > 0 {
			n = float64(r.nl[i])
		}
		less[i] += f * math.Max(r.launch, float64(r.spans[i].Dur)/n)
	}
	for i := range less {
		if kept[i] && r.nl != nil && r.nl[i] > 0 {
			// The op stays: its removed launches, a launch's worth each.
			less[i] = math.Min(less[i], less[i]/math.Max(r.launch, float64(r.spans[i].Dur)/float64(r.nl[i]))*r.launch)
		}
	}
	return less
}

// forward reports a Python span whose innermost user frame is a forward
// method ("model.py(80): forward"): the model's own Python, which
// torch.compile traces once into its graph.
func (r *replay) forward(s profan.HostSpan) bool {
	return s.Name >= 0 && int(s.Name) < len(r.snames) && profan.ForwardFrame(r.snames[s.Name])
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

// loopOps is how many ops before a read (its own op apart) Looped
// compares to tell a loop's read (the same ops before it each time, and
// others between) from two reads of one line or one op (torch.bincount's
// two syncs, x[m] then y[m]); loopLook bounds the spans it looks back.
const (
	loopOps  = 3
	loopLook = 256
)

// Looped finds, in each replayed step, the calls of a frame call holds
// (the user's forward methods, kept whole by the reader) inside which
// one sync site recurs after the same ops (loopOps), the
// innermost call holding each: a read that recurs inside one call, after
// the same work, is in a loop (two calls of a layer's forward, each
// reading once, are not; nor two reads of one line, nor an op's two
// syncs). It returns the kernels issued, by name,
// from the step's first sync inside such a call to the step's end, and
// the site of the sync that recurs; nil and "" where none does.
func (r *replay) Looped(call func(frame string) bool) (map[string]int, string) {
	from, site := r.loopBreaks(r.callsOf(call))
	if site == "" {
		return nil, ""
	}
	eager := map[string]int{}
	r.eachStep(func(i int, lo, hi float64) {
		if math.IsInf(from[i], 1) {
			return
		}
		j, _ := slices.BinarySearchFunc(r.kernels, from[i], func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			if k := r.kernels[j]; k.copy == 0 && k.name >= 0 {
				eager[r.names[k.name]]++
			}
		}
	})
	if len(eager) == 0 {
		return nil, ""
	}
	return eager, site
}

// Compiled is, by name, the share of the kernels of the replayed steps
// that torch.compile of the calls a frame call holds (the model's
// forward methods) compiles: those issued inside a call, and on a
// training step those autograd's backward issues (a dispatch span of
// autograd::engine::evaluate_function), each step's up to its first
// graph break inside a loop (Looped), none inside an optimizer's step.
// The rest stays eager: the work around the model (a per-image
// postprocess, the loss, the optimizer). nil where the trace holds no
// such call (no with_stack, or no forward of the user's code), and where
// the calls do not hold the model: a matrix product (product: a GEMM or
// convolution kernel, by name) launched outside them, the backward and
// the optimizer (a library's model, whose forward is not the user's
// code, called beside a user's module).
func (r *replay) Compiled(call func(frame string) bool, product func(name string) bool) map[string]float64 {
	calls := r.callsOf(call)
	if len(calls) == 0 {
		return nil
	}
	from, _ := r.loopBreaks(calls)
	// The calls' union, and the optimizer's ranges, by start.
	in := joined(calls)
	var opt []annRange
	for _, a := range r.ranges {
		if strings.HasPrefix(a.name, OptimizerStep) {
			opt = append(opt, a)
		}
	}
	opt = joined(opt)
	loss := r.lossNodes(in, opt)
	ext := r.externSpans()
	all, got := map[int32]int{}, map[int32]int{}
	outside := false
	spanAt := r.spanWalk()
	r.eachStep(func(i int, lo, hi float64) {
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			k := r.kernels[j]
			if k.copy != 0 || k.name < 0 {
				continue
			}
			all[k.name]++
			at := spanAt(k.issued)
			model := rangeOf(opt, k.issued) < 0 && (rangeOf(in, k.issued) >= 0 || r.backward(at) && !loss[r.snames[r.spans[at].Name]]) && !ext[at]
			if model && k.issued < from[i] {
				got[k.name]++
			}
			if !model && rangeOf(opt, k.issued) < 0 && product != nil && product(r.names[k.name]) {
				outside = true
			}
		}
	})
	if outside {
		return nil
	}
	out := make(map[string]float64, len(all))
	for n, c := range all {
		out[r.names[n]] = float64(got[n]) / float64(c)
	}
	return out
}

// externSpans are the host spans (ops, autograd's backward nodes) that
// launch an attention kernel: SDPA's memory-efficient, flash or cuDNN
// forward and backward, which inductor calls as an extern kernel, as
// eager calls it, so the element-wise and reduction kernels the op issues
// beside it stay its own, eager (fixtures/host20c's compiled ctc step:
// the efficient attention backward's mul, sum, copy and fill, four ATen
// kernels a block, run in the compiled backward as in the eager one).
func (r *replay) externSpans() map[int]bool {
	ext := map[int]bool{}
	attn := map[int32]bool{}
	for _, k := range r.kernels {
		if k.copy != 0 || k.name < 0 || k.issued < r.lo || k.issued >= r.hi {
			continue
		}
		a, ok := attn[k.name]
		if !ok {
			a = kernelname.Classify(r.names[k.name]).Category == kernelname.CatAttention
			attn[k.name] = a
		}
		if i := r.spanAt(k.issued); a && i >= 0 && r.spans[i].State == profan.HostDispatch {
			ext[i] = true
		}
	}
	return ext
}

// lossNodes are the backward's ops (autograd's evaluate_function spans,
// by name) for ops the step dispatched outside the calls in (the
// model's forward) and outside the optimizer's ranges opt, and never
// inside in: the loss's backward (F.ctc_loss's CtcLossBackward0, a
// log_softmax's), which torch.compile(model) leaves eager as it leaves
// the loss. Matched by the op's name (aten::ctc_loss: CtcLoss).
func (r *replay) lossNodes(in, opt []annRange) map[string]bool {
	inside, outside := map[string]bool{}, map[string]bool{}
	var nodes []string
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostDispatch || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		name := r.snames[s.Name]
		if r.backward(i) {
			nodes = append(nodes, name)
			continue
		}
		op, ok := strings.CutPrefix(name, "aten::")
		if !ok {
			continue
		}
		var b strings.Builder
		for _, w := range strings.Split(strings.Trim(op, "_"), "_") {
			if w != "" {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
		switch {
		case rangeOf(in, s.Start) >= 0:
			inside[b.String()] = true
		case rangeOf(opt, s.Start) < 0:
			outside[b.String()] = true
		}
	}
	out := map[string]bool{}
	for _, n := range nodes {
		op := strings.TrimPrefix(n, "autograd::engine::evaluate_function: ")
		if j := strings.LastIndex(op, "Backward"); j > 0 {
			op = op[:j]
		}
		if outside[op] && !inside[op] {
			out[n] = true
		}
	}
	return out
}

// backward reports span i an op autograd's engine runs in the backward
// pass.
func (r *replay) backward(i int) bool {
	if i < 0 {
		return false
	}
	s := r.spans[i]
	return s.State == profan.HostDispatch && s.Name >= 0 && int(s.Name) < len(r.snames) &&
		strings.HasPrefix(r.snames[s.Name], "autograd::engine::evaluate_function")
}

// hasBackward reports a backward node among the window's spans.
func (r *replay) hasBackward() bool {
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		if r.backward(i) {
			return true
		}
	}
	return false
}

// compiledBackward reports span i a backward node torch.compile(model)
// compiles: autograd's, but not a gradient's accumulation into a leaf
// (AccumulateGrad runs eager beside the compiled backward).
func (r *replay) compiledBackward(i int) bool {
	return r.backward(i) && !strings.HasSuffix(r.snames[r.spans[i].Name], "AccumulateGrad")
}

// joined is the ranges' union, by start (rs sorted by start).
func joined(rs []annRange) []annRange {
	var out []annRange
	for _, a := range rs {
		if n := len(out); n > 0 && a.lo <= out[n-1].hi {
			out[n-1].hi = math.Max(out[n-1].hi, a.hi)
			continue
		}
		out = append(out, annRange{lo: a.lo, hi: a.hi})
	}
	return out
}

// callsOf is the frames kept whole that call holds, by start.
func (r *replay) callsOf(call func(frame string) bool) []annRange {
	var calls []annRange
	for _, f := range r.frames {
		if call(f.name) {
			calls = append(calls, f)
		}
	}
	return calls
}

// eachStep calls f with each replayed step's index and extent: from the
// window's start or the step before's end to the step's end.
func (r *replay) eachStep(f func(i int, lo, hi float64)) {
	bounds := r.bounds
	if len(bounds) == 0 {
		bounds = []float64{r.hi}
	}
	lo := r.lo
	for i, hi := range bounds {
		f(i, lo, hi)
		lo = hi
	}
}

// loopBreaks is, by replayed step (eachStep), the step's first sync
// inside a call (of calls) in which a sync site recurs after the same
// ops (Looped), +Inf where none does, and the first site that recurs.
func (r *replay) loopBreaks(calls []annRange) ([]float64, string) {
	n := max(1, len(r.bounds))
	froms := make([]float64, n)
	for i := range froms {
		froms[i] = math.Inf(1)
	}
	if len(calls) == 0 {
		return froms, ""
	}
	// innermost is the index of the latest-starting call holding t.
	innermost := func(t float64) int { return innermostCall(calls, t) }
	site := ""
	r.eachStep(func(step int, lo, hi float64) {
		// The first sync inside each call; each site's reads in it by
		// the ops dispatched before the read's own op (loopOps), and
		// where it was read last.
		first := map[int]float64{}
		type at struct {
			call int
			site int32
			prev [loopOps]int32
		}
		seen := map[at]bool{}
		last := map[[2]int]int{}
		from := math.Inf(1)
		i, _ := slices.BinarySearchFunc(r.spans, lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
		for ; i < len(r.spans) && r.spans[i].Start < hi; i++ {
			s := r.spans[i]
			if s.State != profan.HostSync || s.Start < lo || s.Name < 0 || int(s.Name) >= len(r.snames) {
				continue
			}
			c := innermost(s.Start)
			if c < 0 {
				continue
			}
			if _, ok := first[c]; !ok {
				first[c] = s.Start
			}
			// The read's own op: the op the host was in before it.
			op := int32(-1)
			for p := i - 1; p >= 0 && p >= i-loopLook; p-- {
				if r.spans[p].State == profan.HostDispatch {
					op = r.spans[p].Name
					break
				}
			}
			k := at{call: c, site: s.Name}
			n := 0
			for p := i - 1; p >= 0 && p >= i-loopLook && n < loopOps; p-- {
				if x := r.spans[p]; x.State == profan.HostDispatch && x.Name != op {
					k.prev[n] = x.Name + 1
					n++
				}
			}
			// Another op between this read and the last of its site
			// in the call: the loop's body ran between them.
			body := false
			if j, ok := last[[2]int{c, int(s.Name)}]; ok {
				for p := j + 1; p < i && !body; p++ {
					body = r.spans[p].State == profan.HostDispatch && r.spans[p].Name != op
				}
			}
			last[[2]int{c, int(s.Name)}] = i
			if seen[k] && body {
				from = math.Min(from, first[c])
				if site == "" {
					site = r.snames[s.Name]
				}
			}
			seen[k] = true
		}
		froms[step] = from
	})
	return froms, site
}

// pinFeed is the floor a multi-process DataLoader's pin-memory thread
// sets on the step: the batches cannot reach the step faster than that
// thread receives them from the workers (each tensor's storage over the
// worker's resource sharer, a socket handshake that waits for the
// worker's answer) and pins them. Its time a batch is, over the
// do_one_step frames inside the window (profan.PinStep), the median of
// its waits for a worker's answer (PinWait, whole: the workers are not
// the profiler's) and the rest of its time at the profiler's keep, the
// wait for a batch to arrive (PinArrive) left out; times the batches a
// step (the _MultiProcessingDataLoaderIter's __next__ ranges over the
// steps). 0 where the trace holds no such thread.
func (r *replay) pinFeed(run *profan.Run) float64 {
	var steps, waits []annRange
	var arrive []annRange
	batches := 0
	for _, e := range run.Host.Events {
		lo, hi := e.Start, e.Start+e.Duration
		switch {
		case e.Kind == profan.HostAnnotation && strings.Contains(e.Name, "_MultiProcessingDataLoaderIter.__next__"):
			if lo >= r.lo && lo < r.hi {
				batches++
			}
			continue
		case e.Kind != profan.HostFrame || lo < r.lo || hi > r.hi:
			continue
		}
		switch profan.PinFrame(e.Name) {
		case profan.PinStep:
			steps = append(steps, annRange{lo, hi, e.Thread})
		case profan.PinWait:
			waits = append(waits, annRange{lo, hi, e.Thread})
		case profan.PinArrive:
			arrive = append(arrive, annRange{lo, hi, e.Thread})
		}
	}
	if len(steps) == 0 || batches == 0 {
		return 0
	}
	keep := 1.0
	if r.profiler {
		keep = profilerKeep
	}
	// in sums the time of rs (by thread, then start) on step s's thread
	// inside it.
	order := func(a, b annRange) int { return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(a.lo, b.lo)) }
	slices.SortFunc(waits, order)
	slices.SortFunc(arrive, order)
	in := func(rs []annRange, s annRange) float64 {
		d := 0.0
		// Within a ns: the frames' ends are sums of rounded floats.
		i, _ := slices.BinarySearchFunc(rs, annRange{lo: s.lo - 1e-9, name: s.name}, order)
		for ; i < len(rs) && rs[i].name == s.name && rs[i].lo <= s.hi; i++ {
			if x := rs[i]; x.hi <= s.hi+1e-9 {
				d += x.hi - x.lo
			}
		}
		return d
	}
	per := make([]float64, 0, len(steps))
	for _, s := range steps {
		w, a := in(waits, s), in(arrive, s)
		per = append(per, w+keep*math.Max(0, s.hi-s.lo-w-a))
	}
	return stats.Median(per) * float64(batches) / float64(r.steps)
}

// waitsOnWorkers reports a step whose thread is blocked on a
// multi-process DataLoader's workers (blocked) in every replayed step,
// for at least NoiseShare of the step as traced: the workers deliver the
// batches no faster than the step takes them.
func (r *replay) waitsOnWorkers() bool {
	all, n := true, 0
	r.eachStep(func(_ int, lo, hi float64) {
		all = all && hi > lo && r.blocked(lo, hi) >= verdict.NoiseShare*(hi-lo)
		n++
	})
	return all && n > 0
}

// workersFeed is the step's floor where the step's thread is blocked on
// a multi-process DataLoader's workers in some of the replayed steps but
// not all (waitsOnWorkers), for at least NoiseShare of the window as
// traced: the workers deliver their batches in bursts (each worker a
// batch in turn), the steps between drain the queue and one waits for
// the next burst. A blocked wait is not host work the profiler slows: it
// is kept at its traced time, and the window's replayed time is spread
// over its steps (the median step, which leaves the waiting one out,
// runs faster than the workers deliver). 0 where no such wait.
func (r *replay) workersFeed() float64 {
	w := r.blocked(r.lo, r.hi)
	if !(r.hi > r.lo) || w < verdict.NoiseShare*(r.hi-r.lo) || r.steps == 0 {
		return 0
	}
	r.whole = true
	_, total, _ := r.walk(Lever{}, r.plans.with(r.opHostScale(Lever{}), false))
	r.whole = false
	return total / float64(r.steps)
}

// blocked is the time in [lo, hi) the step's thread is blocked on a
// multi-process DataLoader's workers: its iterator's waits for a batch
// that has not arrived (profan.LoaderWait, r.stalls), not the rest of the
// iterator's get, the batch's transfer (its bytes read and its tensors
// rebuilt from shared memory on the thread), which is host work the
// step pays whatever the workers' pace (fixtures/host35's flow: 2.9 to
// 3.5 ms a step in the get, 0.07 to 0.2 of it in the pipe's poll). A
// trace read without those frames (none kept in the window) counts its
// iterator's waiting spans (workersWait) whole: it cannot tell a block
// from a transfer, and floors the step rather than price a gain the
// workers may take back.
func (r *replay) blocked(lo, hi float64) float64 {
	w := 0.0
	if r.stalls != nil {
		i, _ := slices.BinarySearchFunc(r.stalls, lo, func(a annRange, x float64) int { return cmp.Compare(a.hi, x) })
		for ; i < len(r.stalls) && r.stalls[i].lo < hi; i++ {
			w += math.Max(0, math.Min(r.stalls[i].hi, hi)-math.Max(r.stalls[i].lo, lo))
		}
		return w
	}
	i, _ := slices.BinarySearchFunc(r.spans, lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < hi; i++ {
		s := r.spans[i]
		if s.State == profan.HostData && s.Name >= 0 && int(s.Name) < len(r.snames) && workersWait(r.snames[s.Name]) {
			w += math.Max(0, math.Min(s.End(), hi)-math.Max(s.Start, lo))
		}
	}
	return w
}

// loaderWaits are the window's waits of multi-process DataLoader
// iterators for their batches (profan.LoaderWait frames inside an
// iterator's __next__ on its thread), joined, by start, and how many
// there were (each a batch received: receiving); nil where the trace
// keeps none.
func (r *replay) loaderWaits(run *profan.Run) ([]annRange, int) {
	var iters, waits []annRange
	for _, e := range run.Host.Events {
		lo, hi := e.Start, e.Start+e.Duration
		if hi <= r.lo || lo >= r.hi {
			continue
		}
		switch {
		case e.Kind == profan.HostAnnotation && strings.Contains(e.Name, "_MultiProcessingDataLoaderIter.__next__"):
			iters = append(iters, annRange{lo, hi, e.Thread})
		case e.Kind == profan.HostFrame && profan.LoaderWait(e.Name):
			waits = append(waits, annRange{lo, hi, e.Thread})
		}
	}
	order := func(a, b annRange) int { return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(a.lo, b.lo)) }
	slices.SortFunc(iters, order)
	var out []annRange
	for _, w := range waits {
		// The thread's last __next__ that starts by the wait's start,
		// within a ns: the frames' ends are sums of rounded floats.
		i, _ := slices.BinarySearchFunc(iters, annRange{lo: w.lo + 1e-9, name: w.name}, order)
		if i > 0 && iters[i-1].name == w.name && w.hi <= iters[i-1].hi+1e-9 {
			out = append(out, annRange{lo: math.Max(w.lo, r.lo), hi: math.Min(w.hi, r.hi)})
		}
	}
	slices.SortFunc(out, func(a, b annRange) int { return cmp.Compare(a.lo, b.lo) })
	return joined(out), len(out)
}

// workersWait reports a data-loading span that is a multi-process
// DataLoader's iterator waiting for a batch: its innermost frame a
// queue's get, a pipe's poll or wait, a selector, a condition's wait.
func workersWait(name string) bool {
	it, frame, ok := strings.Cut(name, " → ")
	if !ok || !strings.Contains(it, "_MultiProcessingDataLoaderIter") {
		return false
	}
	switch {
	case strings.HasSuffix(frame, "): get") && strings.Contains(frame, "queue"):
	case strings.Contains(frame, "connection.py(") && (strings.HasSuffix(frame, "): poll") || strings.HasSuffix(frame, "): _poll") || strings.HasSuffix(frame, "): wait")):
	case strings.HasPrefix(frame, "selectors.py("):
	case strings.HasPrefix(frame, "threading.py(") && strings.HasSuffix(frame, "): wait"):
	default:
		return false
	}
	return true
}

// Shapes compares the kernels' launch configurations (grid and block)
// from one replayed step to the next: a step whose tensors change shape
// (a batch padded to its own longest) launches the same kernels on other
// grids; a trip count that changes (a solver's iterations) launches the
// same configurations a different number of times, which is not counted.
// Where the trace recorded the ops' shapes (record_shapes), a launch's
// configuration is also what its op moves (profan.Kernel.OpBytes): a
// length that changes within a grid's rounding (fixtures/host28's spk,
// its batches padded to 234, 247 and 248 frames, the grids of the
// frames' kernels alike for the last two) still changes the ops' input
// shapes; that comparison is taken (Shapes.Sizes) where it finds more
// steps changed than the grids alone. The zero Shapes where the trace
// marks fewer than two steps.
func (r *replay) Shapes() Shapes {
	if len(r.bounds) < 2 {
		return Shapes{}
	}
	out := r.shapes(false)
	if sized := r.shapes(true); sized.Differ > out.Differ {
		out = sized
	}
	if out.Changed > 0 {
		r.inputSizes(&out)
	}
	return out
}

// launchShape is a launch's configuration and, where sized, its op's
// recorded size (0 where not).
type launchShape struct {
	cfg  int32
	size float32
}

// shapes is Shapes, by the grids alone or (sized) by the grids and the
// ops' recorded sizes.
func (r *replay) shapes(sized bool) Shapes {
	// Each step's configurations by kernel name, and its launches.
	var per []map[int32][]launchShape
	launches := map[int32]int{}
	r.eachStep(func(i int, lo, hi float64) {
		m := map[int32][]launchShape{}
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			k := r.kernels[j]
			if k.copy != 0 || k.name < 0 || k.cfg < 0 {
				continue
			}
			c := launchShape{cfg: k.cfg}
			if sized {
				c.size = k.opBytes
			}
			if !slices.Contains(m[k.name], c) {
				m[k.name] = append(m[k.name], c)
			}
			launches[k.name]++
		}
		for _, cs := range m {
			slices.SortFunc(cs, func(a, b launchShape) int { return cmp.Or(cmp.Compare(a.cfg, b.cfg), cmp.Compare(a.size, b.size)) })
		}
		per = append(per, m)
	})
	out := Shapes{Steps: len(per)}
	differ := make([]bool, len(per))
	type pick struct {
		name          int32
		pairs, single int
	}
	best := pick{name: -1}
	for name := range per[0] {
		every, pairs, single := true, 0, 1
		for i, m := range per {
			cs, ok := m[name]
			if !ok {
				every = false
				break
			}
			if len(cs) > 1 {
				single = 0
			}
			if i > 0 && !slices.Equal(cs, per[i-1][name]) {
				pairs++
				differ[i] = true
			}
		}
		if !every {
			continue
		}
		out.Kernels++
		if pairs == 0 {
			continue
		}
		out.Changed++
		p := pick{name, pairs, single}
		if best.name < 0 || cmp.Or(cmp.Compare(p.pairs, best.pairs), cmp.Compare(p.single, best.single),
			cmp.Compare(launches[p.name], launches[best.name]), cmp.Compare(r.names[best.name], r.names[p.name])) > 0 {
			best = p
		}
	}
	for _, d := range differ {
		if d {
			out.Differ++
		}
	}
	if best.name < 0 {
		return out
	}
	out.Sizes = sized
	out.Kernel = r.names[best.name]
	out.Busy, out.Padded = r.padded()
	// The op that launched it, where the trace holds the host's spans.
	for _, k := range r.kernels {
		if k.name == best.name && k.copy == 0 {
			if i := r.spanAt(k.issued); i >= 0 && r.spans[i].State == profan.HostDispatch && r.spans[i].Name >= 0 && int(r.spans[i].Name) < len(r.snames) {
				out.Op = r.snames[r.spans[i].Name]
			}
			break
		}
	}
	block := true
	for _, m := range per {
		for _, c := range m[best.name] {
			block = block && r.cfgs[c.cfg].block == r.cfgs[m[best.name][0].cfg].block && r.cfgs[c.cfg].block == r.cfgs[per[0][best.name][0].cfg].block
		}
	}
	for _, m := range per {
		var cs []string
		for _, c := range m[best.name] {
			x := r.cfgs[c.cfg].grid.String()
			if !block {
				x += "×" + r.cfgs[c.cfg].block.String()
			}
			if sized && c.size > 0 {
				// The op's bytes: the grids may round a change away.
				x += fmt.Sprintf(" at %.2f MB", float64(c.size)/1e6)
			}
			cs = append(cs, x)
		}
		out.Configs = append(out.Configs, strings.Join(cs, " and "))
	}
	return out
}

// graphed is, where lever l graphs the model alone (Lever.Model), the
// stretches of the host a graph of the model holds, by start: each call
// of the user's forward methods (kept whole by the reader), and in each
// step the backward, from the first op autograd's engine runs to the end
// of its last (torch.cuda.make_graphed_callables graphs a module's
// forward and its backward; the loss, a GradScaler's unscale and read,
// the optimizer's step and the user's loops stay eager). nil where the
// lever graphs the whole step; empty where the trace holds neither.
func (r *replay) graphed(l Lever) []annRange {
	if !l.Graphs || !l.Model {
		return nil
	}
	out := append([]annRange{}, r.callsOf(profan.ForwardFrame)...)
	r.eachStep(func(_ int, lo, hi float64) {
		first, last := -1, -1
		i, _ := slices.BinarySearchFunc(r.spans, lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
		for ; i < len(r.spans) && r.spans[i].Start < hi; i++ {
			if r.backward(i) {
				if first < 0 {
					first = i
				}
				last = i
			}
		}
		if first >= 0 {
			out = append(out, annRange{lo: r.spans[first].Start, hi: r.spans[last].End()})
		}
	})
	slices.SortFunc(out, func(a, b annRange) int { return cmp.Compare(a.lo, b.lo) })
	return joined(out)
}
