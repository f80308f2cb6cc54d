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
	}
	return f
}

// Timeline is a stored timeline as the analysis has it: its top-level
// figures only (no devices, streams or calls).
func Timeline(f store.TimelineFigures) *analysis.Timeline {
	tl := &analysis.Timeline{Device: f.Device, Span: f.Span, Busy: f.Busy, BusyShare: f.BusyShare, LaunchCount: f.Launches, StepCount: f.Steps, StepWall: f.StepWall}
	for _, cause := range verdict.IdleCauses {
		if v := f.Idle[cause]; v > 0 {
			tl.Idle = append(tl.Idle, analysis.Idle{Cause: cause, Seconds: v, Share: f.IdleShare(cause)})
		}
	}
	return tl
}
