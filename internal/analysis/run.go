package analysis

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// Result is what the rules found on a kernel or a run.
type Result struct {
	Findings   []profan.Finding
	Suppressed []Suppressed // findings a suppression silenced
	Skipped    []string     // rules skipped, with the reason
	// Missing are the skipped rules whose counters the export could have
	// carried, with the command that adds them.
	Missing []Missing
	// Gain is the share of the kernel's time the fixes of all its
	// findings together are expected to save (0 when none has a gain).
	Gain float64
}

// CountMissing gathers the kernels' missing rules, once per rule, needs
// and command, in the order first met.
type CountMissing struct {
	index map[Missing]int
	Out   []MissingCount
	// The places in Out of the Missing slices seen, by slice: the
	// launches of a trace share the slice of the first launch like them
	// (Memo), which is then counted without hashing its rules again. A
	// kernel's Missing is never changed once its verdict is made; the
	// slice is kept so that its array is not reused while it is a key.
	seen map[missingSlice]seenMissing
	// last is the previous launch's slice and places.
	last     missingSlice
	lastSeen seenMissing
}

type missingSlice struct {
	first *Missing
	n     int
}

type seenMissing struct {
	keep []Missing
	idx  []int
}

// maxSeenMissing bounds the slices CountMissing remembers (Memo keeps
// 4,096 verdicts).
const maxSeenMissing = 4096

// Add counts a's missing rules.
func (c *CountMissing) Add(a *Kernel) {
	if len(a.Missing) == 0 {
		return
	}
	key := missingSlice{&a.Missing[0], len(a.Missing)}
	s, ok := c.lastSeen, key == c.last
	if !ok {
		s, ok = c.seen[key]
	}
	if !ok {
		if c.index == nil {
			c.index, c.seen = map[Missing]int{}, map[missingSlice]seenMissing{}
		}
		s = seenMissing{keep: a.Missing, idx: make([]int, len(a.Missing))}
		for j, m := range a.Missing {
			i, ok := c.index[m]
			if !ok {
				i = len(c.Out)
				c.index[m] = i
				c.Out = append(c.Out, MissingCount{Missing: m})
			}
			s.idx[j] = i
		}
		if len(c.seen) >= maxSeenMissing {
			clear(c.seen)
		}
		c.seen[key] = s
	}
	c.last, c.lastSeen = key, s
	for _, i := range s.idx {
		c.Out[i].Kernels++
		c.Out[i].Launches += max(a.Record.Invocations, 1)
	}
}

// RunVerdict is the verdict on a whole capture: every kernel's, and the
// run-level findings (host transfers).
type RunVerdict struct {
	Run *profan.Run
	// GPU is the device of the run's first kernel (every kernel of one
	// capture carries the same device attributes).
	GPU     gpumodel.Identity
	Kernels []*Kernel
	// Groups are the kernels' launches grouped by kernel name and sorted
	// by total time (set by Finish).
	Groups []*Group
	// Findings are the run-level findings; kernel findings stay on their
	// kernels.
	Findings   []profan.Finding
	Suppressed []Suppressed // run-level ones
	Skipped    []string
	Notes      []string
	// Timeline is where the wall clock goes, for an export with a
	// timeline (a trace with start times); nil otherwise.
	Timeline  *Timeline
	tl        timelineBuilder
	joins     []joinLaunch // what a join with another run needs of each launch
	joinKeys  map[string]uint32
	joinNames []string
	// RemadeFrom is the version of the verdict maker that made the
	// verdict a run database stored, when this one was made again from
	// the stored counters because that maker was older; 0 otherwise.
	RemadeFrom int
}

// AnalyzeRun analyses every kernel of run and runs the run-level rules:
// the one place a verdict on a capture is made.
func AnalyzeRun(run *profan.Run, opt Options) *RunVerdict {
	v := &RunVerdict{Run: run}
	for _, k := range run.Kernels {
		v.Kernels = append(v.Kernels, Analyze(run, k, opt))
		v.tl.kernel(k)
		v.noteJoin(k)
	}
	v.Finish(opt)
	return v
}

// Finish runs the run-level rules once every kernel was added (commands
// that stream kernels add them as they come).
func (v *RunVerdict) Finish(opt Options) {
	if len(v.Kernels) > 0 {
		v.GPU = v.Kernels[0].GPU
		if n := v.GPU.Note(); n != "" {
			v.Notes = append(v.Notes, n)
		}
	}
	gr := NewGrouper(true)
	for _, k := range v.Kernels {
		gr.Add(k)
	}
	v.Groups = gr.Groups()
	if v.Timeline == nil {
		v.Timeline = v.tl.build(v.Run)
	}
	if opt.Rules != nil {
		r := opt.Rules.CheckRun(v.Run)
		v.Findings, v.Suppressed, v.Skipped = r.Findings, r.Suppressed, r.Skipped
	}
	v.Run.Findings = v.Findings
}

// CountSuppressed counts the findings suppressions silenced, kernels' and
// the run's.
func (v *RunVerdict) CountSuppressed() int {
	n := len(v.Suppressed)
	for _, k := range v.Kernels {
		n += len(k.Suppressed)
	}
	return n
}

// Stream makes the verdicts of captures whose kernels arrive one at a time
// (a reader streaming an export): each kernel's verdict as it comes, the
// run-level part when the reading is done. Identical launches of a long
// trace share one verdict (Memo).
type Stream struct {
	opt  Options
	keep bool
	memo *Memo
	by   map[*profan.Run]*RunVerdict
	runs []*RunVerdict
	// Suppressed counts the findings suppressions silenced so far.
	Suppressed int
	scratch    Kernel
	unjoined   bool
}

// SkipJoins keeps nothing of the launches for a join (Joins): for a caller
// that reports none, or reads one export, which joins with nothing. A
// trace of 600,000 launches would keep 10 MB for it.
func (s *Stream) SkipJoins() { s.unjoined = true }

// NewStream returns a stream analysing with opt; keep holds every
// kernel's verdict in its RunVerdict (commands that print as they go do
// not keep them).
func NewStream(opt Options, keep bool) *Stream {
	return &Stream{opt: opt, keep: keep, memo: NewMemo(opt), by: map[*profan.Run]*RunVerdict{}}
}

// Kernel makes the verdict on kernel k of run.
func (s *Stream) Kernel(run *profan.Run, k *profan.Kernel) *Kernel {
	a := s.memo.Analyze(run, k)
	s.Suppressed += len(a.Suppressed)
	v := s.run(run)
	v.tl.kernel(k)
	if !s.unjoined {
		v.noteJoin(k)
	}
	if s.keep {
		v.Kernels = append(v.Kernels, a)
	}
	return a
}

// Transient is Kernel for a caller done with each verdict before asking
// for the next (a store writing it): the verdict returned, when it repeats
// an earlier launch's, is valid only until the next call, and the stream
// allocates nothing for it. A stream that keeps its verdicts returns
// Kernel's.
func (s *Stream) Transient(run *profan.Run, k *profan.Kernel) *Kernel {
	if s.keep {
		return s.Kernel(run, k)
	}
	a := s.memo.analyze(run, k, &s.scratch)
	s.Suppressed += len(a.Suppressed)
	v := s.run(run)
	v.tl.kernel(k)
	if !s.unjoined {
		v.noteJoin(k)
	}
	return a
}

func (s *Stream) run(run *profan.Run) *RunVerdict {
	v, ok := s.by[run]
	if !ok {
		v = &RunVerdict{Run: run}
		s.by[run] = v
		s.runs = append(s.runs, v)
	}
	return v
}

// Finish makes the run-level part of each run's verdict, runs without
// kernels included, and returns the verdicts in the order their runs were
// first seen.
func (s *Stream) Finish(runs []*profan.Run) []*RunVerdict {
	for _, r := range runs {
		s.run(r)
	}
	for _, v := range s.runs {
		v.Finish(s.opt)
		s.Suppressed += len(v.Suppressed)
	}
	return s.runs
}
