package verdictdb

import (
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
)

// TimelineFigures are the figures of a timeline the database keeps.
func TimelineFigures(tl *analysis.Timeline) store.TimelineFigures {
	f := store.TimelineFigures{Device: tl.Device, Span: tl.Span, Busy: tl.Busy, BusyShare: tl.BusyShare, Idle: map[string]float64{}, Launches: tl.LaunchCount, Steps: tl.StepCount, StepWall: tl.WallPerStep()}
	for _, i := range tl.Idle {
		f.Idle[i.Cause] = i.Seconds
		if i.Gaps > 0 {
			if f.Gaps == nil {
				f.Gaps = map[string]int{}
			}
			f.Gaps[i.Cause] = i.Gaps
		}
		for _, c := range i.Calls {
			if f.Calls == nil {
				f.Calls = map[string][]store.IdleCall{}
			}
			f.Calls[i.Cause] = append(f.Calls[i.Cause], store.IdleCall(c))
		}
	}
	return f
}

// Timeline is a stored timeline as the analysis has it: its top-level
// figures, and each idle cause's gaps and calls where stored (no devices
// or streams).
func Timeline(f store.TimelineFigures) *analysis.Timeline {
	tl := &analysis.Timeline{Device: f.Device, Span: f.Span, Busy: f.Busy, BusyShare: f.BusyShare, LaunchCount: f.Launches, StepCount: f.Steps, StepWall: f.StepWall}
	for _, cause := range verdict.IdleCauses {
		if v := f.Idle[cause]; v > 0 {
			i := analysis.Idle{Cause: cause, Seconds: v, Share: f.IdleShare(cause), Gaps: f.Gaps[cause]}
			for _, c := range f.Calls[cause] {
				i.Calls = append(i.Calls, analysis.IdleCall(c))
			}
			tl.Idle = append(tl.Idle, i)
		}
	}
	return tl
}
