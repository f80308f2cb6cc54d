package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// The replay's syncs and sites: which spans the host waits at, under a
// lever, and the sites of the replayed steps' syncs and allocator calls.

// waits reports a span at whose end the host waits for the GPU to drain
// under lever l: a sync, and a cudaFree (which synchronises the device
// before it frees), unless the lever drops it; a graph's replay frees
// nothing.
func (r *replay) waits(l Lever, i int) bool {
	switch s := r.spans[i]; s.State {
	case profan.HostSync:
		return !r.dropped(l, i) || r.final(i)
	case profan.HostAlloc:
		return !l.Graphs && !r.dropped(l, i) && s.Name >= 0 && int(s.Name) < len(r.snames) && FreeSyncs(r.snames[s.Name])
	}
	return false
}

// FreeSyncs reports an allocator site whose call frees device or pinned
// memory synchronously (cudaFree, cudaFreeHost, cuMemFree: each waits
// for the device to finish its work first), not a stream-ordered
// cudaFreeAsync.
func FreeSyncs(site string) bool {
	call, _, _ := strings.Cut(site, " at ")
	if i := strings.LastIndex(call, "→ "); i >= 0 {
		call = call[i+len("→ "):]
	}
	return (strings.HasPrefix(call, "cudaFree") || strings.HasPrefix(call, "cuMemFree")) && !strings.Contains(call, "Async")
}

// dropped reports a sync span (i) the lever no longer waits for, or a
// copy or allocator call it no longer makes block: by its site (Drop),
// or, for a sync that waits for a device-to-host copy and that copy's
// call, by the site it reads at (DropReads).
func (r *replay) dropped(l Lever, i int) bool {
	s := r.spans[i]
	if l.Drop == nil && l.DropReads == nil || s.Name < 0 || int(s.Name) >= len(r.snames) {
		return false
	}
	site := r.snames[s.Name]
	return l.Drop != nil && l.Drop(site) || l.DropReads != nil && r.readBack(i) && l.DropReads(site)
}

// opsDropped marks the spans of the ops l.DropOps says are no longer
// called (nil where it says none).
func (r *replay) opsDropped(l Lever) []bool {
	if l.DropOps == nil {
		return r.gatherLoops(l, nil)
	}
	by := make([]int8, len(r.snames)) // 0 unread, 1 kept, 2 dropped
	var gone []bool
	for i, s := range r.spans {
		if s.Name < 0 || int(s.Name) >= len(by) {
			continue
		}
		if by[s.Name] == 0 {
			by[s.Name] = 1
			if l.DropOps(r.snames[s.Name]) {
				by[s.Name] = 2
			}
		}
		if by[s.Name] == 2 {
			if gone == nil {
				gone = make([]bool, len(r.spans))
			}
			gone[i] = true
		}
	}
	if gone != nil {
		r.inverseGathers(gone)
	}
	return r.gatherLoops(l, gone)
}

// minGatherReads is the fewest reads of a site in one stretch of the
// host between two kernel launches that make a loop over a tensor's
// elements (Lever.Gather).
const minGatherReads = 8

// gatherLoops adds to gone (made where nil) the stretches of the host
// between two kernel launches that hold at least minGatherReads syncs of
// a site l.Gather names and, after the last of them, a host-to-device
// copy: a loop reading a tensor's elements to look a table up on the
// host, its values uploaded back (fixtures/host22's ddpm: 64 int(t[i])
// reads a step, three torch.tensor(..., device="cuda") uploads, 2.4 ms
// of its traced step), which the table kept on the GPU and indexed by
// the tensor replaces. The stretch's spans go whole, and the copies
// issued in them; the gather's own launch is not charged. A stretch
// ends at a loader's span (a main-process DataLoader's __next__): the
// loading there, and the upload of the batch it made, are not the
// lookups' (fixtures/host30's crf.default: the last sentence's stretch
// ran through the next batch's tokenization to its upload, 24.4 ms of
// the 146.40 ms step that data-loader prices too).
func (r *replay) gatherLoops(l Lever, gone []bool) []bool {
	if l.Gather == nil && l.Follow == nil {
		return gone
	}
	kern := make([]bool, len(r.spans)) // the span launches a kernel
	up := make([]bool, len(r.spans))   // the span issues an upload
	at := r.spanWalk()
	for _, k := range r.kernels {
		i := at(k.issued)
		switch {
		case i < 0:
		case k.copy == 0:
			kern[i] = true
		case int32(k.copy)&copyToDevice != 0:
			up[i] = true
		}
	}
	if l.Follow != nil {
		gone = r.rowLoops(l, kern, gone)
	}
	if l.Gather == nil {
		return gone
	}
	flush := func(a, b int) {
		// The stretch ends at the main-process loader's first span: the
		// next batch's loading, and its upload, are data-loader's.
		for j := a; j < b; j++ {
			if r.spans[j].State == profan.HostData {
				b = j
				break
			}
		}
		reads, last := 0, -1
		for j := a; j < b; j++ {
			if s := r.spans[j]; s.State == profan.HostSync && s.Name >= 0 && int(s.Name) < len(r.snames) && l.Gather(r.snames[s.Name]) {
				reads, last = reads+1, j
			}
		}
		if reads < minGatherReads || !slices.Contains(up[last+1:b], true) {
			return
		}
		if gone == nil {
			gone = make([]bool, len(r.spans))
		}
		for j := a; j < b; j++ {
			gone[j] = true
		}
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	start := i
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		if kern[i] {
			flush(start, i)
			start = i + 1
		}
	}
	flush(start, i)
	return gone
}

// The ops of a deduplicated lookup's gather by the inverse (the table's
// rows for the distinct ids, then table(uniq)[inv]), forward and
// backward: the ids looked up as they are need neither.
const (
	gatherOp       = "aten::index"
	lookupOp       = "aten::embedding"
	gatherBackward = "autograd::engine::evaluate_function: IndexBackward0"
	lookupBackward = "autograd::engine::evaluate_function: EmbeddingBackward0"
)

// inverseGathers adds to gone, where a dropped op deduplicated ids for a
// lookup, the gather by its inverse: an aten::index dispatched right
// after the lookup (aten::embedding) that follows the dropped op, with
// the copy and sync spans it holds, and in the backward each
// IndexBackward0 autograd runs right before a lookup's
// EmbeddingBackward0 (the gather's gradient accumulated into the
// distinct rows, indexing_backward_kernel's sort and scatter: 39% of
// fixtures/host22's rec.workers' kernel time). Another aten::index of
// the step (rec's pairwise interaction, z[:, li, lj], after a bmm) and
// its backward stay.
func (r *replay) inverseGathers(gone []bool) {
	name := func(i int) string {
		if n := r.spans[i].Name; n >= 0 && int(n) < len(r.snames) {
			return r.snames[n]
		}
		return ""
	}
	// The last two ops dispatched (their first spans), and the op the
	// spans now walked belong to.
	prev, prev2, cur := -1, -1, -1
	found := false
	for i, s := range r.spans {
		switch s.State {
		case profan.HostDispatch:
			if cur >= 0 && name(i) == name(cur) {
				gone[i] = gone[i] || gone[cur] // the same op, after its copy or sync
				continue
			}
			if name(i) == gatherOp && prev >= 0 && name(prev) == lookupOp && prev2 >= 0 && gone[prev2] {
				gone[i], found = true, true
			}
			prev2, prev, cur = prev, i, i
		case profan.HostCopy, profan.HostSync, profan.HostAlloc:
			if cur >= 0 && gone[cur] && strings.HasPrefix(name(i), name(cur)+" → ") {
				gone[i] = true
			}
		default:
			cur = -1
		}
	}
	if !found {
		return
	}
	last := -1
	for i, s := range r.spans {
		if s.State != profan.HostDispatch {
			continue
		}
		if last >= 0 && name(last) == gatherBackward && name(i) == lookupBackward {
			gone[last] = true
		}
		last = i
	}
}

// readBack reports a span that reads GPU bytes back to the host: a copy
// call that issued a device-to-host transfer, or a sync that waits for
// one issued since the host's sync before it.
func (r *replay) readBack(i int) bool {
	return i < len(r.reads) && r.reads[i]
}

// final reports a sync span (i) that reads the program's results back:
// in a window with no step marks (the program's whole run, an nsys
// trace of a CUDA program), a read of GPU bytes after the window's last
// kernel. Every lever keeps its wait (host-sync's fix copies the results
// back once at the end, pinned-memory's waits on an event before the host
// reads the buffer): dropped, the host would go on to use results the
// GPU has not made, and its work after them (cuFCM writes its results
// for 3 s) would run beside the kernels.
func (r *replay) final(i int) bool {
	return i < len(r.results) && r.results[i]
}

// markReads sets reads for the window's copy and sync spans (readBack),
// and results for its syncs that read the program's results (final).
func (r *replay) markReads() {
	r.reads = make([]bool, len(r.spans))
	fromDevice := func(k replayKernel) bool {
		return k.copy != 0 && int32(k.copy)&(copyPinned|copyPageable) != 0 && int32(k.copy)&copyToDevice == 0
	}
	// any reports a device-to-host transfer issued from lo to hi.
	any := func(lo, hi float64) bool {
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued <= hi; j++ {
			if fromDevice(r.kernels[j]) {
				return true
			}
		}
		return false
	}
	last := r.lo // the end of the host's last sync
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		switch s := r.spans[i]; s.State {
		case profan.HostCopy:
			r.reads[i] = any(s.Start, s.End())
		case profan.HostSync:
			r.reads[i] = any(last, s.End())
			last = s.End()
		}
	}
	if len(r.bounds) > 0 {
		return
	}
	end := math.Inf(1) // the window's last kernel's issue
	for j := len(r.kernels) - 1; j >= 0; j-- {
		if r.kernels[j].copy == 0 {
			end = r.kernels[j].issued
			break
		}
	}
	r.results = make([]bool, len(r.spans))
	for i := range r.spans {
		s := r.spans[i]
		r.results[i] = s.State == profan.HostSync && r.reads[i] && s.Start >= end && s.Start < r.hi
	}
}

// SyncSites lists the syncs inside the replayed steps, the longest first.
// Each call gets its own copy of the list, made once (syncMemo).
func (r *replay) SyncSites() []Site {
	if r.syncs == nil {
		return r.sitesOf(profan.HostSync)
	}
	r.syncs.once.Do(func() { r.syncs.sites = r.sitesOf(profan.HostSync) })
	return slices.Clone(r.syncs.sites)
}

// AllocSites lists the allocator's calls (cudaMalloc, cudaFree) inside the
// replayed steps, the longest first.
func (r *replay) AllocSites() []Site { return r.sitesOf(profan.HostAlloc) }

// sitesOf lists the spans of state inside the replayed steps by name, the
// longest first: each with its count, time as traced, the times it sat
// between two launches of its step and the steps it occurs in.
func (r *replay) sitesOf(state profan.HostState) []Site {
	by := map[string]*Site{}
	var out []*Site
	in := map[*Site]int{} // the step it was seen in last, +1
	var scaler []annRange
	scaled := map[*Site]int{}
	at := map[*Site][]siteAt{} // a sync site's spans, with their steps
	var calls []annRange
	within := map[*Site]map[string]int{}
	shapeOps := map[*Site]map[string]int{}
	if state == profan.HostSync {
		scaler = joined(r.callsOf(profan.ScalerFrame))
		calls = r.callsOf(profan.ForwardFrame)
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != state || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		name := r.snames[s.Name]
		x := by[name]
		if x == nil {
			x = &Site{Site: name}
			x.Method, x.Frame = verdict.SiteParts(name)
			by[name] = x
			out = append(out, x)
		}
		x.Count++
		x.Seconds += float64(s.Dur)
		if rangeOf(scaler, s.Start) >= 0 || state == profan.HostSync && r.afterUnscale(i) {
			scaled[x]++
		}
		if r.readBack(i) {
			x.Reads++
			if state == profan.HostSync {
				if op := r.shapedBy(i, name); op != "" {
					x.Shaped++
					if shapeOps[x] == nil {
						shapeOps[x] = map[string]int{}
					}
					shapeOps[x][op]++
				}
			}
		}
		if r.inside(s) {
			x.Inside++
		}
		step, _ := slices.BinarySearch(r.bounds, s.Start)
		if in[x] != step+1 {
			in[x] = step + 1
			x.Steps++
		}
		if state == profan.HostSync {
			at[x] = append(at[x], siteAt{step, i})
			if c := innermostCall(calls, s.Start); c >= 0 {
				if within[x] == nil {
					within[x] = map[string]int{}
				}
				within[x][calls[c].name]++
			}
		}
	}
	for x, by := range within {
		n := 0
		for name, c := range by {
			if c > n || c == n && name < x.Within {
				x.Within, n = name, c
			}
		}
		if 2*n <= x.Count {
			x.Within = ""
		}
	}
	for x, by := range shapeOps {
		n := 0
		for op, c := range by {
			if c > n || c == n && op < x.ShapeOp {
				x.ShapeOp, n = op, c
			}
		}
	}
	for x, occ := range at {
		if x.Inside > 0 {
			x.Sizes = r.sizes(occ)
		}
		x.Fewest, x.Most = perStep(occ, max(1, len(r.bounds)))
		x.Tensors, x.TensorOp = r.tensorsRead(occ)
	}
	if len(at) > 0 {
		py := r.pythonIndex(at)
		for x, occ := range at {
			for _, o := range occ {
				d, n := py.consumed(r, o)
				x.Consumed, x.Calls = x.Consumed+d, x.Calls+n
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *Site) int { return cmp.Compare(b.Seconds, a.Seconds) })
	sites := make([]Site, len(out))
	for i, x := range out {
		// GradScaler's read: most of the site's syncs inside its
		// _maybe_opt_step.
		x.Scaler = 2*scaled[x] > x.Count
		sites[i] = *x
	}
	return sites
}

// siteAt is one span of a site: its step and its index in r.spans.
type siteAt struct{ step, span int }

// perStep is the fewest and the most of a site's spans (occ) in one of
// the replayed steps 0 to steps-1, a step without one counting 0.
func perStep(occ []siteAt, steps int) (fewest, most int) {
	n := make([]int, steps)
	for _, o := range occ {
		if o.step < steps {
			n[o.step]++
		}
	}
	return slices.Min(n), slices.Max(n)
}

// sizeWindow is how many kernels on each side of a read sizes compares:
// a few ops' worth (prune's topk, sort and gather after its count).
const sizeWindow = 4

// sizes counts the pairs of consecutive replayed steps in which a read
// (occ: its spans in order, with their steps) is followed, at the same
// place in the step (its n-th occurrence), by the same kernels on other
// grids while the kernels before it ran on the same grids in both: the
// shapes change at the read, so its value sizes the work launched after
// it (fixtures/host27's prune, int() of a kept-token count giving topk
// its k and the gather its rows). A read whose following shapes stay,
// or change with those before it (a batch of another size, read from
// the start of the step), sizes nothing the trace shows. Other kernels
// after it (a loop that exits at another iteration) are not a size.
func (r *replay) sizes(occ []siteAt) int {
	n := 0
	// prev and cur are the occurrences of two consecutive steps the
	// site occurs in, each as its index in occ.
	prev, cur := []int(nil), []int(nil)
	compare := func() {
		for j := 0; j < min(len(prev), len(cur)); j++ {
			a, b := occ[prev[j]], occ[cur[j]]
			if r.sameGrids(r.window(a, -1), r.window(b, -1)) == 1 && r.sameGrids(r.window(a, 1), r.window(b, 1)) == 0 {
				n++
			}
		}
	}
	for i, o := range occ {
		if i > 0 && o.step != occ[i-1].step {
			compare()
			prev, cur = cur, prev[:0]
		}
		cur = append(cur, i)
	}
	compare()
	return n
}

// stepBounds is step i's bounds (eachStep's).
func (r *replay) stepBounds(i int) (lo, hi float64) {
	lo, hi = r.lo, r.hi
	if i < len(r.bounds) {
		hi = r.bounds[i]
	}
	if i > 0 && i-1 < len(r.bounds) {
		lo = r.bounds[i-1]
	}
	return lo, hi
}

// kernelWindow is up to sizeWindow kernels, by index in r.kernels; -1
// past the last.
type kernelWindow [sizeWindow]int32

// window is the sizeWindow kernels (copies and kernels of unknown
// configuration left out) of o's step issued after o's span (dir 1, the
// first ones) or before it (dir -1, the last ones, nearest first).
func (r *replay) window(o siteAt, dir int) kernelWindow {
	w := kernelWindow{-1, -1, -1, -1}
	lo, hi := r.stepBounds(o.step)
	if s := r.spans[o.span]; dir > 0 {
		lo = s.End()
	} else {
		hi = s.Start
	}
	i, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	j, _ := slices.BinarySearchFunc(r.kernels, hi, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	n := 0
	for m := range j - i {
		x := i + m
		if dir < 0 {
			x = j - 1 - m
		}
		if k := r.kernels[x]; k.copy != 0 || k.name < 0 || k.cfg < 0 {
			continue
		}
		w[n] = int32(x)
		if n++; n == sizeWindow {
			break
		}
	}
	return w
}

// sameGrids compares two windows kernel by kernel up to the first that
// is another kernel (kernelBase: a loop that went another way, another
// op): 1 where all ran the same kernels on the same grids, 0 where one
// ran on another grid or as another instance of its template (PyTorch's
// radixSortKVInPlace picks its items per thread by the sort's size: 4
// for topk's 107 keys, 32 for 144), -1 where neither shows (the first
// kernels differ, an empty window, or the same grids up to another
// kernel).
func (r *replay) sameGrids(a, b kernelWindow) int {
	n := 0
	for n < sizeWindow && a[n] >= 0 && b[n] >= 0 {
		ka, kb := r.kernels[a[n]], r.kernels[b[n]]
		if ka.name != kb.name && kernelBase(r.names[ka.name]) != kernelBase(r.names[kb.name]) {
			break
		}
		n++
	}
	if n == 0 {
		return -1
	}
	for i := range n {
		if ka, kb := r.kernels[a[i]], r.kernels[b[i]]; ka.cfg != kb.cfg || ka.name != kb.name {
			return 0
		}
	}
	if n < sizeWindow && (a[n] >= 0 || b[n] >= 0) {
		return -1
	}
	return 1
}

// kernelBase is a kernel's name without its template arguments and
// parameters ("void at::native::radixSortKVInPlace").
func kernelBase(name string) string {
	if i := strings.IndexAny(name, "<("); i >= 0 {
		return name[:i]
	}
	return name
}

// unscaleOp is the op GradScaler unscales the gradients with, writing
// found_inf, before it reads found_inf (GradScaler._maybe_opt_step).
const unscaleOp = "aten::_amp_foreach_non_finite_check_and_unscale_"

// afterUnscale reports sync span i a value read (aten::item) whose
// nearest op before it, its own read's ops, copies and Python apart, is
// GradScaler's unscale: the scaler reading found_inf, told without its
// Python frames (a trace without with_stack).
func (r *replay) afterUnscale(i int) bool {
	if s := r.spans[i]; s.Name < 0 || int(s.Name) >= len(r.snames) || !strings.Contains(r.snames[s.Name], "aten::item") {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-8; j-- {
		s := r.spans[j]
		if s.State != profan.HostDispatch || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		switch n := r.snames[s.Name]; {
		case n == unscaleOp:
			return true
		case n != "aten::item" && n != "aten::_local_scalar_dense":
			return false
		}
	}
	return false
}

// consumes reports a Python span after its step's last kernel launch
// (the host using the step's results: storing a feature map, logging),
// which no graph of the step holds; false where the trace marks no step.
func (r *replay) consumes(s profan.HostSpan) bool {
	if len(r.bounds) == 0 {
		return false
	}
	hi := r.hi
	if i, _ := slices.BinarySearch(r.bounds, s.Start); i < len(r.bounds) {
		hi = r.bounds[i]
	}
	i, _ := slices.BinarySearchFunc(r.kernels, s.End(), func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	for ; i < len(r.kernels) && r.kernels[i].issued < hi; i++ {
		if r.kernels[i].copy == 0 {
			return false
		}
	}
	return true
}

// inside reports a span with kernel launches of its own step both before
// and after it; false where the trace marks no step (ProfilerStep#N):
// a sync that recurs between launches is then the loop's, between steps
// (a decode loop's token read).
func (r *replay) inside(s profan.HostSpan) bool {
	if len(r.bounds) == 0 {
		return false
	}
	lo, hi := r.lo, r.hi
	if i, _ := slices.BinarySearch(r.bounds, s.Start); i < len(r.bounds) {
		hi = r.bounds[i]
		if i > 0 {
			lo = r.bounds[i-1]
		}
	}
	launched := func(from, to float64) bool {
		i, _ := slices.BinarySearchFunc(r.kernels, from, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; i < len(r.kernels) && r.kernels[i].issued < to; i++ {
			if r.kernels[i].copy == 0 {
				return true
			}
		}
		return false
	}
	return launched(lo, s.Start) && launched(s.End(), hi)
}

// consumers are, under l.Consume, the Python spans that consume a read's
// result, by index, with the share of their time kept: for each sync
// whose site l.Consume keeps less than all of, the Python spans after it
// up to the last span of the read's frame in its step, where no kernel
// is launched between the read and that span's end (a metric computed on
// the host from the read: a greedy decode and an edit distance after a
// .tolist()). nil for none.
func (r *replay) consumers(l Lever) map[int]float64 {
	if l.Consume == nil {
		return nil
	}
	var out map[int]float64
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostSync || s.Name < 0 || int(s.Name) >= len(r.snames) {
			continue
		}
		keep := l.Consume(r.snames[s.Name])
		if !(keep >= 0 && keep < 1) {
			continue
		}
		last := r.consumedTo(i)
		if last < 0 {
			continue
		}
		if out == nil {
			out = map[int]float64{}
		}
		for j := i + 1; j <= last; j++ {
			if r.spans[j].State == profan.HostPython {
				out[j] = keep
			}
		}
	}
	return out
}

// consumedTo is, for the sync span i, the index of the last Python span
// of its site's frame in its step where no kernel is launched from the
// read's end to that span's end: the host's Python from the read to
// there computes from what it returned (consumers); -1 for none.
func (r *replay) consumedTo(i int) int {
	s := r.spans[i]
	_, frame := verdict.SiteParts(r.snames[s.Name])
	if frame == "" {
		return -1
	}
	hi := r.hi
	if b, _ := slices.BinarySearch(r.bounds, s.Start); b < len(r.bounds) {
		hi = r.bounds[b]
	}
	last := -1
	for j := i + 1; j < len(r.spans) && r.spans[j].Start < hi; j++ {
		if t := r.spans[j]; t.State == profan.HostPython && t.Name >= 0 && int(t.Name) < len(r.snames) && r.snames[t.Name] == frame {
			last = j
		}
	}
	if last < 0 {
		return -1
	}
	if r.launchedIn(s.End(), r.spans[last].End()) {
		return -1
	}
	return last
}

// launchedIn reports a kernel (no copy) issued from lo to before hi: a
// launch between a read and the Python that would consume it.
func (r *replay) launchedIn(lo, hi float64) bool {
	k, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
	for ; k < len(r.kernels) && r.kernels[k].issued < hi; k++ {
		if r.kernels[k].copy == 0 {
			return true
		}
	}
	return false
}

// pyIndex is the window's Python spans indexed for consumed: each
// frame's last span in each step, and their time summed in order.
type pyIndex struct {
	last  map[[2]int]int // (step, name) → its last span's index
	from  int            // the window's first span
	sum   []float64      // sum[j-from]: Python seconds of the spans from to j-1
	calls []int          // calls[j-from]: the Python calls (Frames) they hold
	names map[string]int // frame → name
}

// pythonIndex indexes the window's Python spans (pyIndex), the last
// span of each step kept for the frames of at's syncs only.
func (r *replay) pythonIndex(at map[*Site][]siteAt) *pyIndex {
	frames := map[string]bool{}
	for x := range at {
		if x.Frame != "" {
			frames[x.Frame] = true
		}
	}
	py := &pyIndex{last: map[[2]int]int{}, sum: []float64{0}, calls: []int{0}, names: map[string]int{}}
	wanted := make([]bool, len(r.snames))
	for i, n := range r.snames {
		if frames[n] {
			wanted[i], py.names[n] = true, i
		}
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	py.from = i
	for j := i; j < len(r.spans) && r.spans[j].Start < r.hi; j++ {
		t, d, n := r.spans[j], 0.0, 0
		if t.State == profan.HostPython && t.Name >= 0 && int(t.Name) < len(r.snames) {
			if wanted[t.Name] {
				step, _ := slices.BinarySearch(r.bounds, t.Start)
				py.last[[2]int{step, int(t.Name)}] = j
			}
			d, n = float64(t.Dur), int(t.Frames)
		}
		py.sum = append(py.sum, py.sum[len(py.sum)-1]+d)
		py.calls = append(py.calls, py.calls[len(py.calls)-1]+n)
	}
	return py
}

// consumed is the Python time, seconds as traced, that consumes what
// the sync o read (consumedTo, from the index): its spans after the
// read up to its frame's last span in the step, no kernel launched
// between.
func (py *pyIndex) consumed(r *replay, o siteAt) (float64, int) {
	s := r.spans[o.span]
	_, frame := verdict.SiteParts(r.snames[s.Name])
	name, ok := py.names[frame]
	if !ok {
		return 0, 0
	}
	last, ok := py.last[[2]int{o.step, name}]
	if !ok || last <= o.span || o.span < py.from {
		return 0, 0
	}
	if r.launchedIn(s.End(), r.spans[last].End()) {
		return 0, 0
	}
	a, b := last+1-py.from, o.span+1-py.from
	return py.sum[a] - py.sum[b], py.calls[a] - py.calls[b]
}

// innermostCall is the index of the latest-starting call of calls (by
// start) that holds the instant t, -1 where none does.
func innermostCall(calls []annRange, t float64) int {
	i, _ := slices.BinarySearchFunc(calls, t, func(c annRange, x float64) int {
		if c.lo <= x {
			return -1
		}
		return 1
	})
	for i--; i >= 0; i-- {
		if t < calls[i].hi {
			return i
		}
	}
	return -1
}
