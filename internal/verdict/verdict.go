// Package verdict is the finished verdict on a set of captures, as every
// renderer receives it: each kernel's (Kernel: its GPU, canonical
// metrics, access model, limiter and headroom, findings), the launches
// grouped by kernel (Group), the application's reading (App: time by
// category, the recommendations ranked, the levers in use), each run's
// timeline (Timeline) and the counters the exports lacked. These are data,
// the methods that read them and the bookkeeping of a group as launches
// are added to it; the analysis makes them once
// (analysis.Builder, which imports this package), so that text, Markdown,
// JSON, HTML, SARIF, JUnit and `profan report` render the same value,
// import no engine and decide nothing: no two surfaces can disagree on
// what to change first.
package verdict

import "github.com/profan-dev/profan"

// Verdict is the finished verdict on the runs read together.
type Verdict struct {
	// Runs are every run read, in the order they were read.
	Runs []*profan.Run
	// Timelines are the runs' timelines, in the order their runs were
	// first seen, runs without one left out.
	Timelines []RunTimeline
	// Groups are the launches grouped by kernel, longest first, with
	// their shares and findings ranked.
	Groups []*Group
	// Reps are each group's representative launch, in the order the
	// groups' first launches were read.
	Reps []*Kernel
	// Launches is the number of launches read; Total the kernel time, in
	// seconds (0 when no launch is timed).
	Launches int
	Total    float64
	// App is the application's reading: made once, with the timeline.
	App *App
	// Joins say how traces' launches joined other exports'.
	Joins []Join
	// Missing are the rules that could not run for want of counters.
	Missing []MissingCount
}

// RunTimeline is a run with a timeline.
type RunTimeline struct {
	Run      *profan.Run
	Timeline *Timeline
}

// TimelineOf is run's timeline, or nil.
func (v *Verdict) TimelineOf(run *profan.Run) *Timeline {
	for _, t := range v.Timelines {
		if t.Run == run {
			return t.Timeline
		}
	}
	return nil
}
