package verdictdb

import (
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
)

// TimelineFigures are the figures of a timeline the database keeps.
func TimelineFigures(tl *analysis.Timeline) store.TimelineFigures {
	f := store.TimelineFigures{Device: tl.Device, Span: tl.Span, Busy: tl.Busy, BusyShare: tl.BusyShare, Idle: map[string]float64{}, Launches: tl.LaunchCount, Steps: tl.StepCount, StepWall: tl.WallPerStep(),
		StepWalls: tl.StepWalls, StepBusy: tl.StepBusy}
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
	for di, d := range tl.Devices {
		f.Strips = append(f.Strips, store.TimelineStrip{Device: di, Stream: -1, Name: d.Device, Start: d.Start, Span: d.Span,
			Busy: d.Busy, BusyShare: d.BusyShare, Kernels: d.Kernels, Copies: d.Copies, Sets: d.Sets, Segments: segments(d.Strip)})
		for si, s := range d.Streams {
			f.Strips = append(f.Strips, store.TimelineStrip{Device: di, Stream: si, Name: s.Stream, Start: s.Start, Span: s.Span,
				Busy: s.Busy, BusyShare: s.BusyShare, Kernels: s.Kernels, Copies: s.Copies, Sets: s.Sets, Segments: segments(s.Strip)})
		}
	}
	return f
}

// segments are a strip's segments as stored.
func segments(s []verdict.Segment) []store.Segment {
	out := make([]store.Segment, len(s))
	for i, x := range s {
		out[i] = store.Segment(x)
	}
	return out
}

// Timeline is a stored timeline as the analysis has it: its top-level
// figures, each idle cause's gaps and calls where stored, each marked
// step's wall and busy share where stored, and its devices' and streams'
// strips where stored (a device's own figures beyond its
// strip, its idle time by cause, are not: the top-level ones are the
// busiest device's).
func Timeline(f store.TimelineFigures) *analysis.Timeline {
	tl := &analysis.Timeline{Device: f.Device, Span: f.Span, Busy: f.Busy, BusyShare: f.BusyShare, LaunchCount: f.Launches, StepCount: f.Steps, StepWall: f.StepWall,
		StepWalls: f.StepWalls, StepBusy: f.StepBusy}
	for _, cause := range verdict.IdleCauses {
		if v := f.Idle[cause]; v > 0 {
			i := analysis.Idle{Cause: cause, Seconds: v, Share: f.IdleShare(cause), Gaps: f.Gaps[cause]}
			for _, c := range f.Calls[cause] {
				i.Calls = append(i.Calls, analysis.IdleCall(c))
			}
			tl.Idle = append(tl.Idle, i)
		}
	}
	for _, s := range f.Strips {
		segs := make([]verdict.Segment, len(s.Segments))
		for i, x := range s.Segments {
			segs[i] = verdict.Segment(x)
		}
		if s.Stream < 0 {
			tl.Devices = append(tl.Devices, &verdict.DeviceTimeline{Device: s.Name, Start: s.Start, Span: s.Span, Busy: s.Busy, BusyShare: s.BusyShare,
				Kernels: s.Kernels, Copies: s.Copies, Sets: s.Sets, Strip: segs})
			continue
		}
		if n := len(tl.Devices); n > 0 && s.Device == n-1 {
			tl.Devices[n-1].Streams = append(tl.Devices[n-1].Streams, &verdict.StreamTimeline{Stream: s.Name, Start: s.Start, Span: s.Span,
				Busy: s.Busy, BusyShare: s.BusyShare, Kernels: s.Kernels, Copies: s.Copies, Sets: s.Sets, Strip: segs})
		}
	}
	return tl
}
