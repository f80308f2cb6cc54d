package analysis

import (
	"cmp"
	"math"
	"slices"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// What only the package's tests call.

// Summarize reads groups (ranked, with shares) by cause. total is the
// capture's kernel time; procs and devices count the processes and GPUs
// the launches came from; rec gives the recommendations (nil: none).
func Summarize(gs []*Group, total float64, procs, devices int, rec Recommender) *App {
	return summarize(&AppEvidence{Groups: gs, Total: total}, procs, devices, rec)
}

// JoinKey is joinKey, for the join's tests.
var JoinKey = joinKey

// OpUnits is the median host time, in the replay's launches' worth, of
// the replayed window's dispatch spans named op, and how many there are.
func OpUnits(t *Timeline, op string) (float64, int) {
	r, ok := t.Steps.(*replay)
	if !ok || !(r.launch > 0) {
		return 0, 0
	}
	var ds []float64
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		if s := r.spans[i]; s.State == profan.HostDispatch && s.Name >= 0 && r.snames[s.Name] == op {
			ds = append(ds, float64(s.Dur))
		}
	}
	if len(ds) == 0 {
		return 0, 0
	}
	return stats.Median(ds) / r.launch, len(ds)
}

// LaunchUnit is the replay's launch's worth, seconds.
func LaunchUnit(t *Timeline) float64 {
	if r, ok := t.Steps.(*replay); ok {
		return r.launch
	}
	return 0
}

// TracedHost is the host's time per step as traced, before the profiler
// scale: the replayed window's spans but the syncs' waits, over its steps.
func TracedHost(t *Timeline) float64 {
	r, ok := t.Steps.(*replay)
	if !ok {
		return 0
	}
	d := 0.0
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		if s := r.spans[i]; s.State != profan.HostSync {
			d += math.Min(s.End(), r.hi) - math.Max(s.Start, r.lo)
		}
	}
	return d / float64(r.steps)
}

// ProfilerRecords are the replayed window's records a step, as the
// profiler's cost model counts them (aten ops, Python frames, launches),
// and whether the trace holds the Python stack.
func ProfilerRecords(t *Timeline) (ops, frames, launches float64, stack bool) {
	r, ok := t.Steps.(*replay)
	if !ok {
		return
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		ops += float64(s.Ops)
		frames += float64(s.Frames)
		stack = stack || s.Frames > 0
		if r.nl != nil {
			launches += float64(r.nl[i])
		}
	}
	n := float64(r.steps)
	return ops / n, frames / n, launches / n, stack
}

// ReplayedStep is the replay's step without a lever, seconds.
func ReplayedStep(t *Timeline) float64 {
	if r, ok := t.Steps.(*replay); ok {
		return r.baseWall()
	}
	return 0
}

// TracedWalls are a trace's step as replayed with the profiler's cost
// kept (every span at its traced time, every plan build as traced) and
// as traced: each step complete
// when its host has passed its ProfilerStep#N's end and the kernels it
// issued have run (not before the step before it), the median interval,
// the first step (warm-up) left out, as the replay takes its step; with
// fewer than three steps, the window's extent over its steps. Seconds;
// 0, 0 where the trace has no replay.
func TracedWalls(t *Timeline) (replayed, traced float64) {
	r, ok := t.Steps.(*replay)
	if !ok {
		return 0, 0
	}
	c := *r
	c.profiler, c.bareKeep, c.launchU, c.feed = false, 1, r.launch, 0
	// The trace's own steps: every build as traced, no plan cache.
	c.plans = nil
	replayed = c.run(Lever{})
	gpu, done := math.Inf(-1), []float64(nil)
	bi := 0
	for _, k := range r.kernels {
		for bi < len(r.bounds) && r.bounds[bi] <= k.issued {
			d := math.Max(r.bounds[bi], gpu)
			if n := len(done); n > 0 {
				d = math.Max(d, done[n-1])
			}
			done = append(done, d)
			bi++
		}
		gpu = math.Max(gpu, k.start+float64(k.dur))
	}
	for ; bi < len(r.bounds); bi++ {
		d := math.Max(r.bounds[bi], gpu)
		if n := len(done); n > 0 {
			d = math.Max(d, done[n-1])
		}
		done = append(done, d)
	}
	if len(done) < 3 {
		return replayed, (math.Max(r.hi, gpu) - r.lo) / float64(r.steps)
	}
	var ws []float64
	for i := 1; i < len(done); i++ {
		ws = append(ws, done[i]-done[i-1])
	}
	return replayed, stats.Median(ws)
}

// RepeatRegions counts the replayed steps' regions between the syncs
// lever l keeps (repeatRegions; none on a step they do not split) and,
// of them, those whose launches no other step repeats.
func RepeatRegions(t *Timeline, l Lever) (regions, unrepeated int) {
	r, ok := t.Steps.(*replay)
	if !ok {
		return 0, 0
	}
	return len(r.repeatRegions(l, nil)), len(r.unrepeated(l, nil))
}
