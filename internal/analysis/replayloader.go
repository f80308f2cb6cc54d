package analysis

import (
	"math"
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
// records the Python calls (with_stack): its native calls' time whole
// (profan.HostSpan.Native: a library's work under one record, which no
// hook slows), and the rest less its records' costs, each in the trace's
// own cost of recording one Python call (profan.Host.PyCall), at least
// minKeep of it, and no profilerKeep. The records' costs fall on the
// Python between the native calls, not on them: fixtures/host37's sent
// tokenizes with regular expressions, 36% of its loader's time in
// re.sub's native work under 14,800 records a step, where the seven
// fitted loaders spend 1 to 5% but vision's decodes (28%, few records).
func (r *replay) loaderKeep(i int) float64 {
	s := r.spans[i]
	cost := r.pyCall * (loaderFrame*float64(s.Frames) + loaderOp*float64(s.Ops))
	if r.nl != nil {
		cost += r.perLaunch * float64(r.nl[i])
	}
	nat := s.NativeTime()
	rest := float64(s.Dur) - nat
	return (nat + math.Max(minKeep*rest, rest-cost)) / float64(s.Dur)
}
