package analysis

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// A DataLoader iterator's span in a trace with the Python stack
// (with_stack) is the loader's Python, a call into C every microsecond
// or two (parsing, tokenizing, featurising a row at a time): the
// profiler's cost there is per record, and no share of the rest is
// taken (profilerKeep is fitted on dispatch and the model's Python).
// Each Python call the profiler records costs loaderFrame, each aten op
// loaderOp, the trace's short C call's record (profan.Host.PyCall: the
// profiler's cost of one call at the trace's own host speed, which the
// launch's worth does not follow: host22's rec and host24's tab have the
// same launch's worth, 35 µs, and their loaders' same builtins record
// 0.14 and 0.25 µs). Fitted on the seven steps whose main process loads
// (host8's moe and vision, host12's cls, host15's audio, host18's gnn,
// host22's rec, host24's tab) against the step their traced process
// timed unprofiled: replayed at 0.86 to 1.13 of it but rec (0.54, whose
// other two processes measured 19.5 and 18.3 ms against its traced
// process's 26.9), where 0.55 of the rest after 0.005 of a launch's
// worth a Python call replayed them at 0.53 to 1.69 (docs/replay.md).
const (
	loaderFrame = 5
	loaderOp    = 10
)

// loader reports a span of the loader's own Python: a DataLoader
// iterator's in a trace that records the Python calls, but for a
// multi-process iterator's (its thread waits on the workers, and
// unpickles their batches).
func (r *replay) loader(s profan.HostSpan) bool {
	if s.State != profan.HostData || !(r.pyCall > 0) {
		return false
	}
	return s.Name < 0 || int(s.Name) >= len(r.snames) || !strings.Contains(r.snames[s.Name], "_MultiProcessingDataLoaderIter")
}

// loaderKeep is keep for a DataLoader iterator's span of a trace that
// records the Python calls (with_stack): its time less its records'
// costs, each in the trace's own cost of recording one Python call
// (profan.Host.PyCall), at least minKeep of it, and no profilerKeep.
// Where the window's loader has less Python than its records would cost
// (loaderNative), the costs fall on the Python between its native calls
// (profan.HostSpan.Native: a library's work under one record, which no
// hook slows), and those keep their time whole.
func (r *replay) loaderKeep(i int) float64 {
	s := r.spans[i]
	cost := r.pyCall * (loaderFrame*float64(s.Frames) + loaderOp*float64(s.Ops))
	if r.nl != nil {
		cost += r.perLaunch * float64(r.nl[i])
	}
	if !r.loaderNat {
		return math.Max(minKeep, 1-cost/float64(s.Dur))
	}
	nat := s.NativeTime()
	rest := float64(s.Dur) - nat
	return (nat + math.Max(minKeep*rest, rest-cost)) / float64(s.Dur)
}

// loaderNative reports the window's loader spans' records costing more,
// at loaderKeep's rates, than all but minKeep of their Python outside
// the native calls: the trace's own time disproves that they cost so
// much there, and the native calls' time was not theirs to take.
// fixtures/host37's sent tokenizes with regular expressions: 36% of its
// loader's time is re.sub's native work, under 14,800 records a step
// priced at 22.2 ms against 16.4 ms of Python around it (its vocabulary
// lookups run at 0.66 µs a record, back to back, where five records'
// worth is 1.37 µs); host30's gan, whose random.seed calls take 13% of
// its loader, prices its records at 7.9 ms of its 14.2 ms of Python.
func (r *replay) loaderNative() bool {
	rest, cost := 0.0, 0.0
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	for ; i < len(r.spans) && r.spans[i].Start < r.hi; i++ {
		s := r.spans[i]
		if s.Dur <= 0 || !r.loader(s) {
			continue
		}
		rest += float64(s.Dur) - s.NativeTime()
		cost += r.pyCall * (loaderFrame*float64(s.Frames) + loaderOp*float64(s.Ops))
		if r.nl != nil {
			cost += r.perLaunch * float64(r.nl[i])
		}
	}
	return cost > (1-minKeep)*rest
}
