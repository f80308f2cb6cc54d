package analysis

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// Builder makes the verdict every renderer receives (verdict.Verdict)
// from launches analysed one at a time.
type Builder struct {
	gr *Grouper
	// miss counts the missing counters per export, so that a trace
	// counted from the ncu export it joined lists none.
	miss    map[string]*CountMissing
	sources []string
	// lastMiss is the counter of the previous launch's export, lastSrc.
	lastMiss *CountMissing
	lastSrc  string
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

// Transient says that the verdicts added are Stream.Transient's, valid
// only until the next is asked for: the groups then keep copies of the
// few they hold (a group's first and longest launch), and the launches
// of a trace are analysed without a verdict allocated per launch.
func (b *Builder) Transient() { b.gr.transient = true }

// Add adds one analysed launch.
func (b *Builder) Add(a *Kernel) {
	b.gr.Add(a)
	src := ""
	if a.Run != nil {
		src = a.Run.Source
	}
	m := b.lastMiss
	if m == nil || src != b.lastSrc {
		if m = b.miss[src]; m == nil {
			if b.miss == nil {
				b.miss = map[string]*CountMissing{}
			}
			m = &CountMissing{}
			b.miss[src] = m
			b.sources = append(b.sources, src)
		}
		b.lastMiss, b.lastSrc = m, src // a trace's launches repeat their export
	}
	m.Add(a)
}

// missing merges the exports' missing counters but those of dropped.
func (b *Builder) missing(dropped map[string]bool) []verdict.MissingCount {
	if len(b.sources) == 1 && !dropped[b.sources[0]] {
		return b.miss[b.sources[0]].Out
	}
	var out []verdict.MissingCount
	at := map[verdict.Missing]int{}
	for _, src := range b.sources {
		if dropped[src] {
			continue
		}
		for _, m := range b.miss[src].Out {
			if i, ok := at[m.Missing]; ok {
				out[i].Kernels += m.Kernels
				out[i].Launches += m.Launches
				continue
			}
			at[m.Missing] = len(out)
			out = append(out, m)
		}
	}
	return out
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
	joins, dropped := CountOnce(b.gr, vs)
	v := &verdict.Verdict{Runs: runs, Launches: b.gr.Launches(), Total: b.gr.Total(), Missing: b.missing(dropped), Joins: joins}
	for _, rv := range vs {
		if rv.Timeline != nil {
			v.Timelines = append(v.Timelines, verdict.RunTimeline{Run: rv.Run, Timeline: rv.Timeline})
		}
	}
	v.App = b.gr.App()
	v.Groups = b.gr.Groups()
	v.Reps = b.gr.Reps()
	return v
}

// CountOnce joins the runs read together (Joins) and takes out of gr the
// launches of each trace joined launch for launch to an ncu export of
// the same program: one capture, its kernels counted once, from the
// export (with their counters), the trace giving the timeline. analyze,
// report and gate read a pair so alike. It returns the joins, those
// counted once marked, and the traces dropped.
func CountOnce(gr *Grouper, vs []*RunVerdict) ([]Join, map[string]bool) {
	joins := Joins(vs)
	dropped := map[string]bool{}
	for i, j := range joins {
		if j.Replay == nil && j.Matched > 0 && j.Matched == j.TraceLaunches && j.Matched == j.ExportLaunch && !dropped[j.Trace] {
			gr.Drop(j.Trace)
			dropped[j.Trace], joins[i].CountedOnce = true, true
		}
	}
	return joins, dropped
}
