package analysis

import (
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/verdict"
)

// Grouper gathers analysed launches into groups as they stream by. It keeps
// two analyses per group (the first launch and the longest), so memory
// grows with the number of distinct kernels, not with the number of
// launches; launch IDs are kept only when KeepIDs is set, and metric
// samples only of the metrics KeepSamples names.
type Grouper struct {
	KeepIDs bool
	// BySource keys the groups by export as well as by name: a gate and
	// a diff hold a kernel of one export to the same kernel of the same
	// export, and its share to that export's time.
	BySource bool
	// Recommender gives the application recommendations (nil: none).
	Recommender Recommender
	// Timeline and Runs, when set, are the capture's timeline and runs
	// for the recommendations priced in wall time.
	Timeline *Timeline
	Runs     []*profan.Run
	groups   map[groupKey]*Group
	byName   map[string]*Group // with BySource, the first group of each name
	order    []*Group
	total    float64
	totals   map[string]float64 // with BySource, each export's kernel time
	keep     map[string]bool    // the metrics whose samples groups keep
	keepAll  bool               // every canonical metric's
	n        int
	procs    map[string]bool
	devices  map[int]bool
	// last is the group of the previous launch, under lastKey: a trace's
	// launches repeat their kernel, and its name is then not hashed.
	// transient: the verdicts added are valid only until the next Add
	// (Builder.Transient).
	transient bool
	last      *Group
	lastKey   groupKey
	lastProc  string
	lastRun   *profan.Run
	lastDev   int
	// tracks follow each run's launch order for the application
	// evidence (fusable chains, hand-written attention).
	tracks map[*profan.Run]*appTrack
	// mixed counts, per group and export, what each export gave a group
	// (Drop): kept once a second export adds to a group or a group is
	// made by another export than the first's.
	bySource map[sourceKey]*sourceTally
	srcProcs map[string]map[string]bool // each export's processes
	// lastTally is the tally of the previous launch, under lastSource:
	// a trace's launches repeat their group and export.
	lastTally  *sourceTally
	lastSource sourceKey
}

// sourceKey is a group and an export; sourceTally what the export's
// launches gave the group.
type sourceKey struct {
	g   *Group
	src string
}

type sourceTally struct {
	records, launches, timed int
	dur                      float64
}

// groupKey is a group's export (with BySource; else "") and name.
type groupKey struct{ source, name string }

// NewGrouper returns an empty grouper.
func NewGrouper(keepIDs bool) *Grouper {
	return &Grouper{KeepIDs: keepIDs, groups: map[groupKey]*Group{}}
}

// KeepSamples makes the groups keep the values of these metrics
// (canonical, else raw, names), one per record that has them, as
// Group.Samples gives them: what a gate's conditions and regressions read.
func (gr *Grouper) KeepSamples(metrics ...string) {
	if gr.keep == nil {
		gr.keep = map[string]bool{}
	}
	for _, m := range metrics {
		gr.keep[m] = true
	}
}

// KeepAllSamples makes the groups keep the values of every canonical
// metric their launches measured: what a diff compares.
func (gr *Grouper) KeepAllSamples() { gr.keepAll = true }

// Launches is the number of launches added.
func (gr *Grouper) Launches() int { return gr.n }

// Len is the number of groups.
func (gr *Grouper) Len() int { return len(gr.order) }

// InOrder returns the groups in the order their first launch was read.
func (gr *Grouper) InOrder() []*Group { return gr.order }

// Group returns the first group called name.
func (gr *Grouper) Group(name string) (*Group, bool) {
	if gr.BySource {
		g, ok := gr.byName[name]
		return g, ok
	}
	g, ok := gr.groups[groupKey{name: name}]
	return g, ok
}

// Reps returns each group's representative launch, the groups in the order
// their first launch was read: a capture whose groups are single launches
// gives its launches in order.
func (gr *Grouper) Reps() []*Kernel {
	out := make([]*Kernel, 0, len(gr.order))
	for _, g := range gr.order {
		out = append(out, g.Rep)
	}
	return out
}

// App reads the groups by cause: time by category, recommendations,
// scope notes.
func (gr *Grouper) App() *App {
	for _, t := range gr.tracks {
		t.close()
	}
	return summarize(&AppEvidence{Groups: gr.Groups(), Total: gr.total, Timeline: gr.Timeline, Runs: gr.Runs}, len(gr.procs), len(gr.devices), gr.Recommender)
}

// Total is the capture's kernel time: the sum of the known durations.
func (gr *Grouper) Total() float64 { return gr.total }

// ShareOf is g's part of its export's kernel time (with BySource; else of
// the capture's), 0–1; NaN when that time or the group's is unknown.
func (gr *Grouper) ShareOf(g *Group) float64 {
	total := gr.total
	if gr.BySource {
		total = gr.totals[g.Source]
	}
	if total <= 0 || g.Timed == 0 {
		return math.NaN()
	}
	return g.Duration / total
}

// Add places one analysed launch (or aggregate record) in its group.
func (gr *Grouper) Add(a *Kernel) {
	k := a.Record
	g := gr.groupOf(a)
	n := max(k.Invocations, 1)
	gr.n += n
	gr.note(k, a.Run)
	g.Records++
	g.Launches += n
	timed := gr.time(g, a, n)
	if gr.KeepIDs {
		g.IDs.Add(k.ID)
	}
	g.AddConfig(k.Grid, k.Block, n)
	g.AddLaunch(Launch{ID: k.ID, Grid: k.Grid, Block: k.Block, Launches: n, Duration: k.Duration, Findings: len(a.Findings)})
	gr.sample(g, a)
	g.Tally(a, timed, n)
	g.TallySuppressed(a, n)
	gr.tallySource(g, a, n, timed)
	if gr.transient && (g.First == a || g.Rep == a) {
		// a is valid only until the next launch's verdict
		// (Stream.Transient): the group keeps a copy of its own.
		c := *a
		c.Findings, c.Suppressed = slices.Clone(a.Findings), slices.Clone(a.Suppressed)
		if g.First == a {
			g.First = &c
		}
		if g.Rep == a {
			g.Rep = &c
		}
	}
}

// tallySource counts what a's export gave g, so that Drop can take an
// export's launches out again.
func (gr *Grouper) tallySource(g *Group, a *Kernel, n int, timed bool) {
	if a.Run == nil {
		return
	}
	if gr.bySource == nil {
		gr.bySource = map[sourceKey]*sourceTally{}
	}
	k := sourceKey{g, a.Run.Source}
	t := gr.lastTally
	if t == nil || k != gr.lastSource {
		if t = gr.bySource[k]; t == nil {
			t = &sourceTally{}
			gr.bySource[k] = t
		}
		gr.lastTally, gr.lastSource = t, k
	}
	t.records++
	t.launches += n
	if timed {
		t.timed += n
		t.dur += a.Record.Duration * float64(n)
	}
}

// Drop takes the launches of the export source out of the groups and the
// capture's totals: a trace joined launch by launch to an ncu export of
// the same program counts its kernels once, from the export (which has
// their counters), the trace giving the timeline. A group left with no
// launch goes; a group that both exports fed keeps the export's
// findings, configurations and samples as they were.
func (gr *Grouper) Drop(source string) {
	kept := gr.order[:0]
	for _, g := range gr.order {
		t := gr.bySource[sourceKey{g, source}]
		if t == nil {
			kept = append(kept, g)
			continue
		}
		g.Records -= t.records
		g.Launches -= t.launches
		g.Timed -= t.timed
		g.Duration -= t.dur
		gr.n -= t.launches
		gr.total -= t.dur
		if gr.totals != nil {
			gr.totals[g.Source] -= t.dur
		}
		if g.Records > 0 {
			kept = append(kept, g)
			continue
		}
		for k, x := range gr.groups {
			if x == g {
				delete(gr.groups, k)
			}
		}
		for k, x := range gr.byName {
			if x == g {
				delete(gr.byName, k)
			}
		}
	}
	gr.order = kept
	gr.last, gr.lastProc, gr.lastRun = nil, "", nil // may be dropped
	gr.lastTally, gr.lastSource = nil, sourceKey{}
	if gr.srcProcs[source] != nil {
		delete(gr.srcProcs, source)
		gr.procs = map[string]bool{}
		for _, ps := range gr.srcProcs {
			for p := range ps {
				gr.procs[p] = true
			}
		}
	}
	for run := range gr.tracks {
		if run.Source == source {
			delete(gr.tracks, run)
		}
	}
}

// groupOf returns a's group, made when a is its first launch.
func (gr *Grouper) groupOf(a *Kernel) *Group {
	name, src := a.Record.DisplayName(), ""
	if a.Run != nil {
		src = a.Run.Source
	}
	key := groupKey{name: name}
	if gr.BySource {
		key.source = src
	}
	if gr.last != nil && key == gr.lastKey {
		return gr.last
	}
	if g, ok := gr.groups[key]; ok {
		gr.last, gr.lastKey = g, key
		return g
	}
	g := verdict.NewGroup(name, a.Name, src, a)
	gr.groups[key] = g
	gr.last, gr.lastKey = g, key
	gr.order = append(gr.order, g)
	if gr.BySource {
		if gr.byName == nil {
			gr.byName = map[string]*Group{}
		}
		if _, dup := gr.byName[name]; !dup {
			gr.byName[name] = g
		}
	}
	return g
}

// note counts the processes and devices the launches ran on, up to 64 of
// each: enough to say a capture had more than one.
func (gr *Grouper) note(k *profan.Kernel, run *profan.Run) {
	// The previous launch's process, in its export, is counted already.
	if k.Process != "" && (gr.procs == nil || k.Process != gr.lastProc || run != gr.lastRun) {
		if run != nil {
			// Which exports saw which processes, for Drop.
			if gr.srcProcs == nil {
				gr.srcProcs = map[string]map[string]bool{}
			}
			ps := gr.srcProcs[run.Source]
			if ps == nil {
				ps = map[string]bool{}
				gr.srcProcs[run.Source] = ps
			}
			if len(ps) < 64 {
				ps[k.Process] = true
			}
		}
		if gr.procs == nil {
			gr.procs = map[string]bool{}
		}
		if len(gr.procs) < 64 {
			gr.procs[k.Process] = true
		}
		gr.lastProc, gr.lastRun = k.Process, run
	}
	if k.DeviceIndex >= 0 && len(gr.devices) < 64 && (gr.devices == nil || k.DeviceIndex != gr.lastDev) {
		if gr.devices == nil {
			gr.devices = map[int]bool{}
		}
		gr.devices[k.DeviceIndex] = true
		gr.lastDev = k.DeviceIndex
	}
}

// time adds the duration of a (a record of n launches) to g and to the
// capture's time (Group.AddTime). It reports whether the duration is
// known.
func (gr *Grouper) time(g *Group, a *Kernel, n int) bool {
	d, ok := g.AddTime(a, n)
	if !ok {
		return false
	}
	gr.total += d * float64(n)
	if gr.BySource {
		if gr.totals == nil {
			gr.totals = map[string]float64{}
		}
		gr.totals[g.Source] += d * float64(n)
	}
	gr.follow(a, g, d, n)
	return true
}

// sample adds a's values of the kept metrics to g's samples.
func (gr *Grouper) sample(g *Group, a *Kernel) {
	if !gr.keepAll && len(gr.keep) == 0 {
		return
	}
	if gr.keepAll {
		for _, x := range a.Metrics.Values {
			if !math.IsNaN(x.Value) && !x.Estimate {
				g.AddMetric(x.Name, x.Value)
			}
		}
		return
	}
	for m := range gr.keep {
		if x, ok := measured(a, m); ok {
			g.AddMetric(m, x)
		}
	}
}

// measured returns a canonical metric of a's verdict or, failing that, a
// raw metric by its exported name: an estimate is no measurement, and the
// kernel lacks it.
func measured(a *Kernel, name string) (float64, bool) {
	if x, ok := a.Metrics.Lookup(name); ok && !math.IsNaN(x.Value) {
		return x.Value, !x.Estimate
	}
	return a.Record.Value(name)
}

// OpFloor is the time the bytes of the aten op that launched a traced
// kernel (profan.Kernel.OpBytes) take at the GPU's attainable DRAM
// bandwidth, seconds; 0 where the trace has no shapes or the GPU is not
// known.
func OpFloor(a *Kernel) float64 {
	if a == nil || a.Record == nil || a.Spec == nil || !(a.Record.OpBytes > 0) {
		return 0
	}
	if bw := a.Spec.PeakBandwidth(); bw > 0 {
		return a.Record.OpBytes / (attainableDRAM * bw)
	}
	return 0
}

// follow adds a timed record of n launches of g to run's launch-order
// track; a summary's records (n > 1) have no order to follow.
func (gr *Grouper) follow(a *Kernel, g *Group, d float64, n int) {
	if n != 1 {
		return
	}
	run := a.Run
	floor := OpFloor(a)
	t := gr.tracks[run]
	if t == nil {
		if gr.tracks == nil {
			gr.tracks = map[*profan.Run]*appTrack{}
		}
		t = &appTrack{}
		gr.tracks[run] = t
	}
	t.follow(g, d, floor)
}

// Groups returns the groups sorted by total time, longest first (then by
// launches and name), with their shares of the capture's time and their
// findings ranked by the share of the capture they could save.
func (gr *Grouper) Groups() []*Group {
	out := append([]*Group(nil), gr.order...)
	for _, g := range out {
		g.Rank(gr.total)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Duration != out[j].Duration {
			return out[i].Duration > out[j].Duration
		}
		if out[i].Launches != out[j].Launches {
			return out[i].Launches > out[j].Launches
		}
		return out[i].Name < out[j].Name
	})
	// One ranking never shows two kernels under one name.
	names, displays := make([]string, len(out)), make([]string, len(out))
	for i, g := range out {
		names[i], displays[i] = g.Name, g.Info.Display
	}
	kernelname.Distinct(names, displays)
	for i, g := range out {
		g.Info.Display = displays[i]
	}
	return out
}

// names caches kernelname.Classify: a long trace launches few kernels many
// times.
var names = struct {
	sync.Mutex
	m map[string]kernelname.Info
}{m: map[string]kernelname.Info{}}

func classify(name string) kernelname.Info {
	names.Lock()
	info, ok := names.m[name]
	names.Unlock()
	if ok {
		return info
	}
	info = kernelname.Classify(name)
	names.Lock()
	if len(names.m) >= 4096 {
		names.m = map[string]kernelname.Info{}
	}
	names.m[name] = info
	names.Unlock()
	return info
}

// PyTorch reports a kernel of a capture that shows PyTorch: a PyTorch
// profiler trace, a kernel of ATen or Triton, or one launched by a Python
// process (ncu names it: python3.10, or pt_main_thread, PyTorch's name for
// its main thread). Advice names PyTorch's levers only there; elsewhere it
// says CUDA's. It reads the kernel alone, not the rest of its export, so
// that a verdict made as the launches stream by, or made again from one
// stored kernel, says the same.
func PyTorch(a *Kernel) bool {
	if a.Run != nil && a.Run.Tool == profan.ToolTorch {
		return true
	}
	if l := a.Name.Library; l == kernelname.ATen || l == kernelname.Triton {
		return true
	}
	p := strings.ToLower(a.Record.Process)
	return strings.HasPrefix(p, "python") || strings.HasPrefix(p, "pt_main_thread")
}
