package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// What the replay keeps of each traced span: the profiler's costs per
// record taken off (profiled, keep) and a launch's worth (launchUnit),
// moved out of replay.go as they were.

// refLaunch is the launch's worth the profiler's costs are taken at where
// the trace holds no op that issues one kernel.
const refLaunch = 20e-6

// profiled sets the profiler's costs per record, in the trace's launch's
// worth, and counts each span's launches.
func (r *replay) profiled() {
	unit := r.launch
	if !(unit > 0) {
		unit = refLaunch
	}
	r.profiler = true
	r.perOp, r.perFrame, r.perLaunch = profilerOp*unit, profilerFrame*unit, profilerLaunch*unit
	r.nl = make([]uint16, len(r.spans))
	spanAt := r.spanWalk()
	for _, k := range r.kernels {
		if i := spanAt(k.issued); i >= 0 && r.nl[i] < math.MaxUint16 {
			r.nl[i]++
		}
	}
}

// keep is the share of span i's traced time the host takes unprofiled:
// its time less what the profiler's records in it cost (at least
// minKeep of it), at profilerKeep. An allocator call (cudaMalloc,
// cudaFree) is the driver's work, mapping or unmapping device memory,
// which no hook of the profiler slows: it keeps its time less its one
// record's cost (a runtime call's, as a launch's).
func (r *replay) keep(i int) float64 {
	s := r.spans[i]
	if s.Dur <= 0 || !r.profiler {
		return 1
	}
	if s.State == profan.HostAlloc {
		return math.Max(minKeep, 1-r.perLaunch/float64(s.Dur))
	}
	if r.opHost(s) {
		// A library's own long work inside one op (a plan built for a
		// new shape): native code no hook of the profiler slows, its
		// records' costs taken off.
		return math.Max(minKeep, 1-(r.perOp*float64(s.Ops)+r.perFrame*float64(s.Frames))/float64(s.Dur))
	}
	if r.loader(s) {
		return r.loaderKeep(i)
	}
	cost := r.perOp*float64(s.Ops) + r.perFrame*float64(s.Frames)
	if r.nl != nil {
		cost += r.perLaunch * float64(r.nl[i])
	}
	if nat := s.NativeTime(); nat > 0 && r.iterSpan(s) {
		// A multi-process iterator's get: the pipe's reads and the
		// unpickling are native calls, paced by the pipe and the
		// copies, which no hook of the profiler slows: kept whole,
		// the Python around them as the rest.
		rest := float64(s.Dur) - nat
		return (nat + rest*profilerKeep*math.Max(minKeep, 1-cost/math.Max(rest, 1e-12))) / float64(s.Dur)
	}
	k := profilerKeep * math.Max(minKeep, 1-cost/float64(s.Dur))
	if c := math.Min(s.CastTime(), float64(s.Dur)); c > 0 {
		k = (k*(float64(s.Dur)-c) + castKeep*c) / float64(s.Dur)
	}
	return k
}

// windowKeep is the share of the window's traced host time (its spans
// but the syncs and the loader's, priced apart) that keep leaves: 1
// where nothing was recorded.
func (r *replay) windowKeep() float64 {
	traced, kept := 0.0, 0.0
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		if s := r.spans[i]; s.State != profan.HostSync && !r.loader(s) {
			traced += float64(s.Dur)
			kept += float64(s.Dur) * r.keep(i)
		}
	}
	if traced <= 0 {
		return 1
	}
	return kept / traced
}

// unprofiledIn is the host's time from lo to hi as the replay takes it:
// each span's overlap at its keep, the time no span covers at bareKeep.
func (r *replay) unprofiledIn(lo, hi float64) float64 {
	d, t := 0.0, lo
	i, _ := slices.BinarySearchFunc(r.spans, lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < hi; i++ {
		s := r.spans[i]
		a, b := math.Max(s.Start, lo), math.Min(s.End(), hi)
		if a > t {
			d += (a - t) * r.bareKeep
		}
		if b > a {
			d += (b - a) * r.keep(i)
		}
		t = math.Max(t, b)
	}
	if hi > t {
		d += (hi - t) * r.bareKeep
	}
	return d
}

// launchUnit is a launch's worth of the host's time, as traced: the
// median duration of the replayed window's binary element-wise aten ops
// (aten::add, mul, sub, div) that issue one kernel, the cheapest op the
// framework dispatches, alike from model to model; else, with fewer
// than minUnitOps of them (an nsys trace, whose spans are launch calls),
// of the dispatch spans that issue one kernel; 0 when none does.
func (r *replay) launchUnit() float64 {
	return r.unitOf(func(i int) float64 { return float64(r.spans[i].Dur) })
}

// launchUnprofiled is a launch's worth of the host's time unprofiled:
// launchUnit's spans, each at its keep.
func (r *replay) launchUnprofiled() float64 {
	return r.unitOf(func(i int) float64 { return float64(r.spans[i].Dur) * r.keep(i) })
}

// unitOf is the median of val over launchUnit's spans.
func (r *replay) unitOf(val func(int) float64) float64 {
	var arith, one []float64
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.State != profan.HostDispatch {
			continue
		}
		// Its launches return after it begins, by its end.
		n := 0
		j, _ := slices.BinarySearchFunc(r.kernels, s.Start, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued <= s.End() && n < 2; j++ {
			if r.kernels[j].copy == 0 && r.kernels[j].issued > s.Start {
				n++
			}
		}
		if n != 1 {
			continue
		}
		one = append(one, val(i))
		if s.Name >= 0 && int(s.Name) < len(r.snames) && arithOps[strings.TrimSuffix(r.snames[s.Name], "_")] {
			arith = append(arith, val(i))
		}
	}
	switch {
	case len(arith) >= minUnitOps:
		return stats.Median(arith)
	case len(one) > 0:
		return stats.Median(one)
	}
	return 0
}

// arithOps are the binary element-wise aten ops (and their in-place
// forms) whose host time is a launch's worth.
var arithOps = map[string]bool{"aten::add": true, "aten::mul": true, "aten::sub": true, "aten::div": true}

// minUnitOps is the fewest arithmetic ops a launch's worth is read from.
const minUnitOps = 5

// opHost reports a piece of one aten op's own span of opHostMin or more
// (the timeline's op host work).
func (r *replay) opHost(s profan.HostSpan) bool {
	return s.State == profan.HostDispatch && float64(s.Dur) >= opHostMin && s.Name >= 0 && int(s.Name) < len(r.snames) &&
		opHostOp(r.snames[s.Name])
}
