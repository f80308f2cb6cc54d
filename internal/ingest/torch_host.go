package ingest

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// hostSide is what the PyTorch reader keeps to say what the threads that
// launch GPU work were doing: their launch counts, and the Python frames
// of the calls that read the GPU (tolist, item, bincount ...), 16 bytes
// each, dropped at the end like the ops.
type hostSide struct {
	launchers map[string]int // launch calls by thread
	reads     []hostRec      // frames of hostRead's methods
	// pinWaits are the frames of a pin-memory thread's waits
	// (profan.PinArrive, PinWait) and of a multi-process DataLoader
	// iterator's (profan.LoaderWait), kept where a do_one_step or the
	// iterator's __next__ holds them (keepPin), 16 bytes each until then.
	pinWaits []hostRec
	// natives are the calls from Python into C of pyCallBuckets ×
	// pyCallNS or more, by thread: start and duration in ticks, 8 bytes
	// each until the spans are counted (HostSpan.Native), up to
	// maxNatives of them (8 MB; past it a span's native share is short).
	natives  map[int32][][2]int32
	nNatives int
}

// maxNatives bounds hostSide.natives.
const maxNatives = 1 << 20

// builtin counts a call from Python into C: a short one into pyCalls
// (profan.Host.PyCall), a longer one kept in natives.
func (r *torchReader) builtin(name string, ts, dur int64, tid string) {
	if !strings.HasPrefix(name, "<built-in") {
		return
	}
	if dur < pyCallBuckets*pyCallNS {
		r.pyCalls[dur/pyCallNS]++
		return
	}
	d := (ts - r.origin) / tickNS
	if d < math.MinInt32 || d > math.MaxInt32 || r.nNatives >= maxNatives {
		return
	}
	r.nNatives++
	if r.natives == nil {
		r.natives = map[int32][][2]int32{}
	}
	t := r.tidOf(tid)
	r.natives[t] = append(r.natives[t], [2]int32{int32(d), int32(min(dur/tickNS, math.MaxInt32))})
}

// native is the share of a DataLoader iterator's span from lo to hi (ns,
// on thread tid, whose other frames' starts are ticks) that its leaf
// native calls take, in 255ths: each of nat (its thread's, sorted) that
// begins inside the span with no frame or op begun inside it, its time
// less its record's (pyCall, ns).
func (r *torchReader) native(nat [][2]int32, ticks []int32, tid int32, lo, hi int64, pyCall float64) uint8 {
	tlo, thi := (lo-r.origin)/tickNS, (hi-r.origin)/tickNS
	a, _ := slices.BinarySearchFunc(nat, int32(max(tlo, math.MinInt32)), func(c [2]int32, x int32) int { return cmp.Compare(c[0], x) })
	// The ops and the user's frames begun inside the span, as ticks.
	var kids []int32
	for _, recs := range [][]hostRec{r.ops, r.frames} {
		k, _ := slices.BinarySearchFunc(recs, lo, func(h hostRec, x int64) int { return cmp.Compare(h.start, x) })
		for ; k < len(recs) && recs[k].start < hi; k++ {
			if recs[k].tid() == tid {
				kids = append(kids, int32((recs[k].start-r.origin)/tickNS))
			}
		}
	}
	slices.Sort(kids)
	// within reports a tick of t in (s, e).
	within := func(t []int32, s, e int32) bool {
		k, _ := slices.BinarySearch(t, s+1)
		return k < len(t) && t[k] < e
	}
	ns := 0.0
	for _, c := range nat[a:] {
		if int64(c[0]) >= thi {
			break
		}
		e := c[0] + c[1]
		if within(ticks, c[0], e) || within(kids, c[0], e) {
			continue
		}
		ns += max(0, float64(min(int64(e), thi)-int64(c[0]))*tickNS-pyCall)
	}
	if ns <= 0 || hi <= lo {
		return 0
	}
	return uint8(min(255, math.Round(255*ns/float64(hi-lo))))
}

// tickNS is the unit of torchReader.ticks: a frame's start is kept to
// 128 ns, within 2^31 ticks (275 s) of the trace's first event; one
// further off is not counted.
const tickNS = 128

// tick keeps a frame's start, by thread, in *m (torchReader.ticks for
// the span counts, .numeric for numericFrame's).
func (r *torchReader) tick(m *map[int32][]int32, tid int32, ts int64) {
	d := (ts - r.origin) / tickNS
	if d < math.MinInt32 || d > math.MaxInt32 {
		return
	}
	if *m == nil {
		*m = map[int32][]int32{}
	}
	(*m)[tid] = append((*m)[tid], int32(d))
}

// numericFrame reports a Python frame of a numerical library that runs a
// thread pool of its own (numpy's and scipy's BLAS, FFT and ufuncs).
func numericFrame(name string) bool {
	for _, p := range []string{"numpy/", "scipy/"} {
		if strings.HasPrefix(name, p) || strings.Contains(name, "-packages/"+p) {
			return true
		}
	}
	return false
}

// pyCallBuckets and pyCallNS bound and bin the short calls from Python
// into C that profan.Host.PyCall is the median of: up to 2 µs, in 10 ns.
const (
	pyCallBuckets = 200
	pyCallNS      = 10
)

// pyCall is the median of the short calls from Python into C, seconds
// (the middle of its bucket); 0 where there are none.
func (r *torchReader) pyCall() float64 {
	n := uint64(0)
	for _, c := range r.pyCalls {
		n += uint64(c)
	}
	if n == 0 {
		return 0
	}
	seen := uint64(0)
	for i, c := range r.pyCalls {
		if seen += uint64(c); 2*seen >= n {
			return (float64(i) + 0.5) * pyCallNS * 1e-9
		}
	}
	return 0
}

// maxLaunchers bounds the threads whose spans are made: the ones with the
// most launch calls (the main thread, autograd's backward thread).
const maxLaunchers = 4

func (r *torchReader) launcher(tid string) {
	if r.launchers == nil {
		r.launchers = map[string]int{}
	}
	if _, ok := r.launchers[tid]; ok || len(r.launchers) < 64 {
		r.launchers[tid]++
	}
}

// hostReads are the Tensor methods and torch functions that read a GPU
// value on the host or copy, or synchronise the device (a
// torch.cuda.synchronize, an empty_cache's cudaFree), by the name
// Python's tracer gives them ("<built-in method tolist of Tensor object
// at 0x…>"): the calls under them are named by them.
var hostReads = map[string]string{
	"item": "item", "tolist": "tolist", "cpu": "cpu", "numpy": "numpy", "nonzero": "nonzero", "argwhere": "argwhere",
	"bincount": "bincount", "unique": "unique", "unique_consecutive": "unique_consecutive", "masked_select": "masked_select",
	"repeat_interleave": "repeat_interleave", "to": "to", "copy_": "copy_", "__bool__": "__bool__", "__int__": "__int__",
	"__float__": "__float__", "__format__": "__format__", "_cuda_synchronize": "torch.cuda.synchronize", "histc": "histc",
	"_cuda_emptyCache": "torch.cuda.empty_cache",
}

// hostRead is the method a Python frame calls, when it is one of
// hostReads; "" otherwise.
func hostRead(frame string) string {
	rest, ok := strings.CutPrefix(frame, "<built-in ")
	if !ok {
		return distValidation(frame)
	}
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, "method "), "function ")
	name, _, _ := strings.Cut(rest, " ")
	return hostReads[strings.TrimSuffix(name, ">")]
}

// distValidation names torch.distributions' argument validation (on by
// default): Distribution.__init__ and _validate_sample test each
// argument's constraint with `if not valid.all()`, a host read of a GPU
// value inside the user's forward that no line of theirs asks for
// (fixtures/host23's ppo: Categorical(logits=...) and log_prob, two a
// minibatch). "" for any other frame.
func distValidation(frame string) string {
	rest, ok := strings.CutPrefix(frame, "torch/distributions/distribution.py(")
	if !ok {
		return ""
	}
	_, fn, _ := strings.Cut(rest, "): ")
	switch fn {
	case "__init__", "_validate_sample":
		return "Distribution." + fn
	}
	return ""
}

// maxKeptFrames bounds the Python frames the reader keeps whole, a
// quarter of the host events it keeps: past it, no more are kept (the
// replay then finds no loop in a forward, and collapses an optimizer's
// range whole).
const maxKeptFrames = profan.MaxHostEvents / 4

// keepFrame keeps the Python frame name (interned as n) whole, as a
// HostFrame event, where it is the optimizer's update or grouping (what
// a fused step replaces, profan.OptimizerFrame), GradScaler's read of
// found_inf (profan.ScalerFrame), a call of a forward method of the
// user's code (whose reads break a compiled graph) or a wait of a
// DataLoader's (pin-memory thread or iterator: keepPin), up to
// maxKeptFrames (docs/replay.md).
func (r *torchReader) keepFrame(n int32, name string, ts, dur int64, tid string) {
	if r.keptFrames >= maxKeptFrames {
		return
	}
	switch profan.PinFrame(name) {
	case profan.PinStep:
	case profan.PinArrive, profan.PinWait:
		// Kept at the end where a pin-memory step holds it (keepPin).
		if len(r.pinWaits) < maxKeptFrames {
			r.pinWaits = append(r.pinWaits, newHostRec(ts, dur, n, r.tidOf(tid), r.long))
		}
		return
	default:
		if profan.LoaderWait(name) {
			if len(r.pinWaits) < maxKeptFrames {
				r.pinWaits = append(r.pinWaits, newHostRec(ts, dur, n, r.tidOf(tid), r.long))
			}
			return
		}
		if profan.OptimizerFrame(name) == profan.OptimizerNone && !profan.ScalerFrame(name) && !(r.user[n] && profan.ForwardFrame(name)) {
			return
		}
	}
	r.keptFrames++
	r.keep(&profan.HostEvent{Kind: profan.HostFrame, Name: name, Start: r.sec(ts), Duration: float64(dur) / 1e9, Thread: tid})
}

// keepPin keeps the waits of a DataLoader's pin-memory thread
// (profan.PinArrive, PinWait) that a kept do_one_step of their thread
// holds, and the blocked waits (profan.LoaderWait) that a multi-process
// iterator's __next__ of their thread holds, up to maxKeptFrames: what
// the replay takes the pin thread's time a batch from, and the time the
// step's thread waits for the workers (docs/replay.md).
func (r *torchReader) keepPin() {
	type step struct {
		lo, hi int64
		thread string
	}
	steps, iters := map[int32][]step{}, map[int32][]step{}
	for _, h := range r.kept {
		var m map[int32][]step
		switch {
		case h.Kind == profan.HostFrame && profan.PinFrame(h.Name) == profan.PinStep:
			m = steps
		case h.Kind == profan.HostAnnotation && strings.Contains(h.Name, "_MultiProcessingDataLoaderIter.__next__"):
			m = iters
		default:
			continue
		}
		lo := int64(math.Round(h.Start*1e9)) + r.origin
		tid := min(r.tidIdx[h.Thread], 255)
		m[tid] = append(m[tid], step{lo, lo + int64(math.Round(h.Duration*1e9)), h.Thread})
	}
	for _, m := range []map[int32][]step{steps, iters} {
		for _, st := range m {
			slices.SortFunc(st, func(a, b step) int { return cmp.Compare(a.lo, b.lo) })
		}
	}
	// in is the range of st that holds w, or none.
	in := func(st []step, w hostRec) (step, bool) {
		// The last range that starts by the wait's start.
		i, _ := slices.BinarySearchFunc(st, w.start, func(s step, t int64) int {
			if s.lo <= t {
				return -1
			}
			return 1
		})
		if i == 0 || w.end(r.long) > st[i-1].hi {
			return step{}, false
		}
		return st[i-1], true
	}
	for _, w := range r.pinWaits {
		if r.keptFrames >= maxKeptFrames {
			break
		}
		name := r.names[w.name()]
		s, ok := step{}, false
		if profan.PinFrame(name) != profan.PinNone {
			s, ok = in(steps[w.tid()], w)
		}
		if !ok && profan.LoaderWait(name) {
			s, ok = in(iters[w.tid()], w)
		}
		if !ok {
			continue
		}
		r.keptFrames++
		r.keep(&profan.HostEvent{Kind: profan.HostFrame, Name: name, Start: r.sec(w.start), Duration: float64(w.end(r.long)-w.start) / 1e9, Thread: s.thread})
	}
	r.pinWaits = nil
}

// spanRec is one record of a launching thread on its way to spans.
type spanRec struct {
	start, end int64
	state      profan.HostState
	name       int32 // index in the span names; -1 for none
}

// spans makes the run's host spans: per launching thread, a sweep over
// its aten ops, the user's frames, the DataLoader iterators' annotations
// and the kept calls (each already placed in its op and frame), the
// highest-ranked state open at each instant; then the threads merged, the
// higher state winning. Past MaxHostSpans the rest are counted, not kept.
func (r *torchReader) spans(calls []*profan.HostEvent) {
	host := r.s.run.Host
	enclose(r.reads, calls, func(h *profan.HostEvent) (int64, int32) {
		return int64(math.Round(h.Start*1e9)) + r.origin, min(r.tidIdx[h.Thread], 255)
	}, r.long, func(h *profan.HostEvent, stack []hostRec) {
		if n := len(stack); n > 0 {
			h.Method = r.names[stack[n-1].name()]
		}
	})
	if len(r.launchers) == 0 || len(r.ops) == 0 {
		return
	}
	type tc struct {
		tid string
		n   int
	}
	var ts []tc
	for t, n := range r.launchers {
		ts = append(ts, tc{t, n})
	}
	slices.SortFunc(ts, func(a, b tc) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.tid, b.tid)) })
	sn := spanNamer{idx: map[string]int32{}}
	var per [][]spanRec
	var tids []int32
	for i, t := range ts {
		if i == maxLaunchers {
			break
		}
		tid, ok := r.tidIdx[t.tid]
		if !ok {
			continue
		}
		per = append(per, r.threadSpans(min(tid, 255), t.tid, calls, &sn))
		tids = append(tids, tid)
	}
	var of []uint8
	host.Spans, of, host.SpansFolded = mergeSpans(per, r.origin)
	host.SpanNames = sn.names
	r.countRecords(host.Spans, of, tids)
	r.ticks, r.numeric, r.natives = nil, nil, nil
}

// countRecords counts into each span the aten ops and the Python frames
// that begin inside it on the thread it is of (of[i] indexes tids; a span
// merged from two threads' parts, the same state and name, is its first
// part's): what the profiler recorded there (HostSpan.Ops, Frames). The
// ops and the user's frames are sorted by start (enclose sorted them).
func (r *torchReader) countRecords(spans []profan.HostSpan, of []uint8, tids []int32) {
	type cursor struct{ op, fr, tk int }
	cur := make([]cursor, len(tids))
	ticks, num, nat := make([][]int32, len(tids)), make([][]int32, len(tids)), make([][][2]int32, len(tids))
	for i, tid := range tids {
		ticks[i], num[i], nat[i] = r.ticks[tid], r.numeric[tid], r.natives[tid]
		slices.Sort(ticks[i])
		slices.Sort(num[i])
		slices.SortFunc(nat[i], func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
	}
	pyCall := r.pyCall() * 1e9
	// inside counts the ticks of t from lo to hi (ns).
	at := func(ns int64) int32 {
		return int32(max(math.MinInt32, min(math.MaxInt32, (ns-r.origin+tickNS/2)/tickNS)))
	}
	inside := func(t []int32, lo, hi int64) int {
		a, _ := slices.BinarySearch(t, at(lo))
		b, _ := slices.BinarySearch(t, at(hi))
		return b - a
	}
	sat := func(n int) uint16 { return uint16(min(n, math.MaxUint16)) }
	cast, ok := r.nameIdx["aten::_to_copy"]
	if !ok {
		cast = -1
	}
	for i := range spans {
		s := &spans[i]
		p := int(of[i])
		tid, c := min(tids[p], 255), &cur[p]
		lo := int64(math.Round(s.Start*1e9)) + r.origin
		hi := lo + int64(math.Round(float64(s.Dur)*1e9))
		count := func(recs []hostRec, j *int) int {
			for *j < len(recs) && recs[*j].start < lo {
				*j++
			}
			n := 0
			for k := *j; k < len(recs) && recs[k].start < hi; k++ {
				if recs[k].tid() == tid {
					n++
				}
			}
			return n
		}
		want := int32(-1)
		if s.State == profan.HostDispatch && !castSpan(s.Name, r.s.run.Host.SpanNames) {
			want = cast
		}
		ops, castNS := r.opsIn(&c.op, tid, lo, hi, want)
		frames := count(r.frames, &c.fr)
		s.Cast = uint16(min(castNS/int64(profan.CastTick*1e9), math.MaxUint16))
		t := ticks[p]
		tlo, thi := (lo-r.origin+tickNS/2)/tickNS, (hi-r.origin+tickNS/2)/tickNS
		for c.tk < len(t) && int64(t[c.tk]) < tlo {
			c.tk++
		}
		k := c.tk
		for k < len(t) && int64(t[k]) < thi {
			k++
		}
		s.Ops, s.Frames = sat(ops), sat(frames+k-c.tk)
		if s.State == profan.HostData {
			r.s.run.Host.LoaderNumeric += inside(num[p], lo, hi)
			s.Native = r.native(nat[p], t, tid, lo, hi, pyCall)
		}
	}
}

// castSpan reports a dispatch span named by a cast itself (a user's
// .to(), an upload): its casts are the user's, not autocast's.
func castSpan(name int32, names []string) bool {
	if name < 0 || int(name) >= len(names) {
		return true
	}
	switch names[name] {
	case "aten::to", "aten::_to_copy", "aten::copy_", "aten::type_as":
		return true
	}
	return false
}

// opsIn counts the ops of thread tid that begin from lo to hi (ns),
// from the cursor *j (moved to the first that begins at lo or after), and
// the time of those named cast (-1: none) among them, clipped to hi.
func (r *torchReader) opsIn(j *int, tid int32, lo, hi int64, cast int32) (n int, castNS int64) {
	for *j < len(r.ops) && r.ops[*j].start < lo {
		*j++
	}
	for k := *j; k < len(r.ops) && r.ops[k].start < hi; k++ {
		if o := r.ops[k]; o.tid() == tid {
			n++
			if cast >= 0 && o.name() == cast {
				castNS += min(o.end(r.long), hi) - o.start
			}
		}
	}
	return n, castNS
}

// spanNamer interns span names.
type spanNamer struct {
	idx   map[string]int32
	names []string
	pairs map[[2]int32]int32
}

// pair is the name "a → b", interned once.
func (n *spanNamer) pair(a, b int32) int32 {
	if a < 0 || b < 0 {
		return max(a, b)
	}
	if n.pairs == nil {
		n.pairs = map[[2]int32]int32{}
	}
	k := [2]int32{a, b}
	if i, ok := n.pairs[k]; ok {
		return i
	}
	i := n.of(n.names[a] + " → " + n.names[b])
	n.pairs[k] = i
	return i
}

func (n *spanNamer) of(s string) int32 {
	if s == "" {
		return -1
	}
	if i, ok := n.idx[s]; ok {
		return i
	}
	if len(n.names) >= maxNames {
		return -1
	}
	i := int32(len(n.names))
	n.names = append(n.names, s)
	n.idx[s] = i
	return i
}

// callState is the state a kept call puts its thread in, and its name:
// the method the user called, the op, the frame.
func callState(h *profan.HostEvent) (profan.HostState, string) {
	var st profan.HostState
	switch profan.CallClass(h.Name) {
	case profan.CallSync:
		st = profan.HostSync
	case profan.CallCopy, profan.CallSet:
		st = profan.HostCopy
		if profan.SyncCopy(h.Name) {
			st = profan.HostSync
		}
	case profan.CallAlloc:
		st = profan.HostAlloc
	default:
		return profan.HostNone, ""
	}
	return st, h.Site()
}

// threadSpans sweeps one thread's records in time order, keeping a stack
// of open records per state (records of one state nest on one thread),
// and emits the state of the highest non-empty stack between each two
// boundaries. Dispatch is named by its outermost op, Python and data
// loading by the innermost frame of the user's code.
func (r *torchReader) threadSpans(tid int32, thread string, calls []*profan.HostEvent, sn *spanNamer) []spanRec {
	var side []spanRec // annotations and calls of the thread, few
	for _, h := range r.kept {
		if h.Thread != thread {
			continue
		}
		st, name := profan.HostNone, ""
		switch h.Kind {
		case profan.HostAnnotation:
			if strings.HasPrefix(h.Name, "enumerate(DataLoader)") {
				st, name = profan.HostData, h.Name
			}
		case profan.HostFrame:
		default:
			st, name = callState(h)
		}
		if st == profan.HostNone {
			continue
		}
		s := int64(math.Round(h.Start*1e9)) + r.origin
		side = append(side, spanRec{s, s + int64(math.Round(h.Duration*1e9)), st, sn.of(name)})
	}
	slices.SortFunc(side, func(a, b spanRec) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end)) })
	oi, fi, si := 0, 0, 0
	next := func() (spanRec, bool) {
		for oi < len(r.ops) && r.ops[oi].tid() != tid {
			oi++
		}
		for fi < len(r.frames) && r.frames[fi].tid() != tid {
			fi++
		}
		best, which := spanRec{start: math.MaxInt64}, -1
		if oi < len(r.ops) {
			o := r.ops[oi]
			best, which = spanRec{o.start, o.end(r.long), profan.HostDispatch, o.name()}, 0
		}
		if fi < len(r.frames) && r.frames[fi].start < best.start {
			f := r.frames[fi]
			best, which = spanRec{f.start, f.end(r.long), profan.HostPython, f.name()}, 1
		}
		if si < len(side) && side[si].start < best.start {
			best, which = side[si], 2
		}
		switch which {
		case 0:
			oi++
			best.name = sn.of(r.names[best.name])
		case 1:
			fi++
			best.name = sn.of(r.names[best.name])
		case 2:
			si++
		default:
			return best, false
		}
		return best, true
	}
	var stacks [profan.HostSync + 1][]spanRec
	var out []spanRec
	emit := func(a, b int64) {
		if b <= a {
			return
		}
		st := profan.HostNone
		for s := profan.HostSync; s > profan.HostNone; s-- {
			if len(stacks[s]) > 0 {
				st = s
				break
			}
		}
		if st == profan.HostNone {
			return
		}
		name := int32(-1)
		switch st {
		case profan.HostDispatch:
			name = stacks[st][0].name
		case profan.HostData:
			// The iterator, and the outermost frame of the user's code
			// inside it (the Dataset's __getitem__, a collate function).
			ann := stacks[st][0]
			name = ann.name
			for _, f := range stacks[profan.HostPython] {
				if f.start >= ann.start {
					name = sn.pair(ann.name, f.name)
					break
				}
			}
		default:
			name = stacks[st][len(stacks[st])-1].name
		}
		if n := len(out); n > 0 && out[n-1].end == a && out[n-1].state == st && out[n-1].name == name {
			out[n-1].end = b
			return
		}
		if len(out) < profan.MaxHostSpans {
			out = append(out, spanRec{a, b, st, name})
		}
	}
	// earliest is the first end among the stacks' innermost records.
	earliest := func() int64 {
		e := int64(math.MaxInt64)
		for s := range stacks {
			if n := len(stacks[s]); n > 0 {
				e = min(e, stacks[s][n-1].end)
			}
		}
		return e
	}
	pop := func(t int64) {
		for s := range stacks {
			for n := len(stacks[s]); n > 0 && stacks[s][n-1].end <= t; n = len(stacks[s]) {
				stacks[s] = stacks[s][:n-1]
			}
		}
	}
	t := int64(math.MinInt64)
	for {
		rec, ok := next()
		limit := rec.start
		if !ok {
			limit = math.MaxInt64
		}
		for e := earliest(); e <= limit && e != math.MaxInt64; e = earliest() {
			emit(t, e)
			t = e
			pop(t)
		}
		if !ok {
			break
		}
		if t > math.MinInt64 {
			emit(t, rec.start)
		}
		t = max(t, rec.start)
		if rec.end > rec.start {
			stacks[rec.state] = append(stacks[rec.state], rec)
		}
	}
	return out
}

// mergeSpans merges the threads' spans (each sorted, none overlapping)
// into one list, the higher state winning where two overlap, bounded by
// MaxHostSpans; times relative to origin, in seconds.
func mergeSpans(per [][]spanRec, origin int64) (out []profan.HostSpan, of []uint8, folded int) {
	pos := make([]int, len(per))
	t := int64(math.MinInt64)
	var last *spanRec
	var cur []spanRec
	lastOf := 0
	flush := func() {
		if last == nil {
			return
		}
		if len(out) >= profan.MaxHostSpans {
			folded++
		} else {
			out = append(out, profan.HostSpan{Start: float64(last.start-origin) / 1e9, Dur: float32(float64(last.end-last.start) / 1e9), State: last.state, Name: last.name})
			of = append(of, uint8(lastOf))
		}
	}
	for {
		// The next boundary: the earliest start or end past t.
		nb := int64(math.MaxInt64)
		best := -1
		for i, p := range pos {
			for p < len(per[i]) && per[i][p].end <= t {
				p++
			}
			pos[i] = p
			if p == len(per[i]) {
				continue
			}
			s := per[i][p]
			if s.start > t {
				nb = min(nb, s.start)
				continue
			}
			nb = min(nb, s.end)
			if best < 0 || s.state > per[best][pos[best]].state {
				best = i
			}
		}
		if nb == math.MaxInt64 {
			break
		}
		if best >= 0 && t > math.MinInt64 {
			s := per[best][pos[best]]
			if last != nil && last.end == t && last.state == s.state && last.name == s.name {
				last.end = nb
			} else {
				flush()
				cur = append(cur[:0], spanRec{t, nb, s.state, s.name})
				last, lastOf = &cur[0], best
			}
		}
		t = nb
	}
	flush()
	return out, of, folded
}

// hostRec is an aten op or a Python frame, kept compactly to find the
// ones around a kept call.
// 16 bytes: a gigabyte trace holds a million ops.
type hostRec struct {
	start int64  // ns
	dur   uint32 // ns; a longer one (above 4.29 s) is kept in torchReader.long
	meta  uint32 // index in torchReader.names << 8 | thread (threads past the 255th share 255)
}

func (h hostRec) name() int32 { return int32(h.meta >> 8) }
func (h hostRec) tid() int32  { return int32(h.meta & 0xff) }

// newHostRec packs a record; long keeps the durations that do not fit.
func newHostRec(start, dur int64, name, tid int32, long map[[2]int64]int64) hostRec {
	h := hostRec{start: start, meta: uint32(name)<<8 | uint32(min(tid, 255))}
	if dur >= math.MaxUint32 {
		h.dur = math.MaxUint32
		long[[2]int64{start, int64(h.meta)}] = dur
	} else {
		h.dur = uint32(dur)
	}
	return h
}

// end is the record's end, in ns.
func (h hostRec) end(long map[[2]int64]int64) int64 {
	if h.dur == math.MaxUint32 {
		return h.start + long[[2]int64{h.start, int64(h.meta)}]
	}
	return h.start + int64(h.dur)
}
