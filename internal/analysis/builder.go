package analysis

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// Builder makes the verdict every renderer receives (verdict.Verdict)
// from launches analysed one at a time.
type Builder struct {
	gr   *Grouper
	miss CountMissing
}

// NewBuilder returns a builder whose groups keep their launch IDs when
// keepIDs is set, and whose application recommendations rec gives (nil:
// none).
func NewBuilder(keepIDs bool, rec Recommender) *Builder {
	gr := NewGrouper(keepIDs)
	gr.Recommender = rec
	return &Builder{gr: gr}
}

// Recommend replaces the builder's recommender: a stored run's advice,
// as the analysis made it at ingest, is given back rather than made again.
func (b *Builder) Recommend(rec Recommender) { b.gr.Recommender = rec }

// Add adds one analysed launch.
func (b *Builder) Add(a *Kernel) {
	b.gr.Add(a)
	b.miss.Add(a)
}

// Launches is the number of launches added so far.
func (b *Builder) Launches() int { return b.gr.Launches() }

// Finish makes the verdict once every launch was added: runs are every
// run read, vs their run-level verdicts (the first timeline prices the
// changes made in wall time).
func (b *Builder) Finish(runs []*profan.Run, vs []*RunVerdict) *verdict.Verdict {
	b.gr.Runs = runs
	for _, rv := range vs {
		if rv.Timeline != nil {
			b.gr.Timeline = rv.Timeline
			break
		}
	}
	v := &verdict.Verdict{Runs: runs, Launches: b.gr.Launches(), Total: b.gr.Total(), Missing: b.miss.Out, Joins: Joins(vs)}
	for _, rv := range vs {
		if rv.Timeline != nil {
			v.Timelines = append(v.Timelines, verdict.RunTimeline{Run: rv.Run, T: rv.Timeline})
		}
	}
	v.App = b.gr.App()
	v.Groups = b.gr.Groups()
	v.Reps = b.gr.Reps()
	return v
}
