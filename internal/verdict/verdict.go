// Package verdict is the finished verdict on a set of captures, as every
// renderer receives it: the launches grouped by kernel, the application's
// reading (time by category, the recommendations ranked, the levers in
// use), each run's timeline and run-level findings, and the counters the
// exports lacked. The analysis makes it once (Builder); text, Markdown,
// JSON, HTML, SARIF, JUnit and `profan report` render the same value and
// decide nothing, so no two surfaces can disagree on what to change first.
package verdict

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// Verdict is the finished verdict on the runs read together.
type Verdict struct {
	// Runs are every run read, in the order they were read.
	Runs []*profan.Run
	// RunVerdicts are the run-level verdicts (timelines, host transfers),
	// in the order their runs were first seen.
	RunVerdicts []*analysis.RunVerdict
	// Groups are the launches grouped by kernel, longest first, with
	// their shares and findings ranked.
	Groups []*analysis.Group
	// Launches is the number of launches read; Total the kernel time, in
	// seconds (0 when no launch is timed).
	Launches int
	Total    float64
	// App is the application's reading: made once, with the timeline.
	App *analysis.App
	// Joins say how traces' launches joined other exports'.
	Joins []analysis.Join
	// Missing are the rules that could not run for want of counters.
	Missing []analysis.MissingCount
	reps    []*analysis.Kernel
}

// Timeline is a run with a timeline.
type Timeline struct {
	Run *profan.Run
	T   *analysis.Timeline
}

// Timelines are the runs' timelines, in the order of their verdicts.
func (v *Verdict) Timelines() []Timeline {
	var out []Timeline
	for _, rv := range v.RunVerdicts {
		if rv.Timeline != nil {
			out = append(out, Timeline{Run: rv.Run, T: rv.Timeline})
		}
	}
	return out
}

// TimelineOf is run's timeline, or nil.
func (v *Verdict) TimelineOf(run *profan.Run) *analysis.Timeline {
	for _, rv := range v.RunVerdicts {
		if rv.Run == run {
			return rv.Timeline
		}
	}
	return nil
}

// Reps are each group's representative launch, in the order the groups'
// first launches were read.
func (v *Verdict) Reps() []*analysis.Kernel { return v.reps }

// Builder makes a verdict from launches analysed one at a time.
type Builder struct {
	gr   *analysis.Grouper
	miss analysis.CountMissing
}

// NewBuilder returns a builder whose groups keep their launch IDs when
// keepIDs is set, and whose application recommendations rec gives (nil:
// none).
func NewBuilder(keepIDs bool, rec analysis.Recommender) *Builder {
	gr := analysis.NewGrouper(keepIDs)
	gr.Recommender = rec
	return &Builder{gr: gr}
}

// Recommend replaces the builder's recommender: a stored run's advice,
// as the analysis made it at ingest, is given back rather than made again.
func (b *Builder) Recommend(rec analysis.Recommender) { b.gr.Recommender = rec }

// Add adds one analysed launch.
func (b *Builder) Add(a *analysis.Kernel) {
	b.gr.Add(a)
	b.miss.Add(a)
}

// Launches is the number of launches added so far.
func (b *Builder) Launches() int { return b.gr.Launches() }

// Finish makes the verdict once every launch was added: runs are every
// run read, vs their run-level verdicts (the first timeline prices the
// changes made in wall time).
func (b *Builder) Finish(runs []*profan.Run, vs []*analysis.RunVerdict) *Verdict {
	b.gr.Runs = runs
	for _, rv := range vs {
		if rv.Timeline != nil {
			b.gr.Timeline = rv.Timeline
			break
		}
	}
	v := &Verdict{Runs: runs, RunVerdicts: vs, Launches: b.gr.Launches(), Total: b.gr.Total(), Missing: b.miss.Out, Joins: analysis.Joins(vs)}
	v.App = b.gr.App()
	v.Groups = b.gr.Groups()
	v.reps = b.gr.Reps()
	return v
}
