package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/kernelname"
)

// Group is the launches of one kernel in a capture: same demangled name
// (and, with Grouper.BySource, same export), whatever the launch
// configuration (kept as a detail in Configs). A capture is an
// application; its groups, ranked by time, are its summary; a gate and a
// diff compare groups, never launches. A group's size does not grow with
// its launches (but for the samples it keeps, 8 bytes a launch and metric,
// and the IDs, when kept).
type Group struct {
	// bwd caches isBackward(Name): 1 forward, 2 backward, 0 not known yet
	// (a trace asks at each launch, and the regexp over a long template
	// name cost three quarters of reading one).
	bwd int8
	// soft caches whether the group is a softmax (attention's scores), as
	// bwd does: 1 not one, 2 one, 0 not known yet.
	soft   int8
	Name   string          // full name, demangled when the export demangled it
	Info   kernelname.Info // library, kind and display name
	Source string          // the export of the group's first launch
	// First is the verdict of the group's first launch: its identity,
	// what suppressions match and which counters its export lacked.
	First *Kernel
	// Records are the kernel records read; Launches counts the launches
	// aggregate records (summary rows) stand for too.
	Records  int
	Launches int
	Duration float64 // total seconds of the launches whose duration is known
	Timed    int     // launches with a known duration
	// Min and Max are the shortest and longest launch, an aggregate
	// record's own range included; NaN when none is timed.
	Min, Max float64
	sumSq    float64
	unspread bool // an aggregate record gave no standard deviation
	// Share is the group's part of the capture's kernel time, 0–1; NaN
	// when the capture's time is unknown.
	Share float64
	// IDs are the launch IDs, in the order read (Grouper.KeepIDs).
	IDs IDList
	// Configs are the launch configurations, most launches first.
	Configs []Config
	// Sample is the first maxSample launches, in the order read: what a
	// report lists of the group's launches.
	Sample []Launch
	// Rep is the analysis of the longest launch (the first one read when
	// none is timed): the one a group's details show.
	Rep *Kernel
	// Findings are the findings of the group's launches, one per rule,
	// sorted by the share of the capture they could save.
	Findings []GroupFinding

	findings   map[string]*GroupFinding
	suppressed map[string]*GroupFinding // findings suppressed at analysis
	samples    map[string][]float64     // per kept metric, one value per record that has it
	// What the application evidence reads of the launch order (see
	// Fusion and Attention).
	fuseSaved, attnScores, attnProducts float64
	fuseLaunches                        int
}

// Launch is one launch of a group, as a report lists it.
type Launch struct {
	ID          string
	Grid, Block profan.Dim3
	Launches    int     // launches the record stands for (aggregates)
	Duration    float64 // seconds; NaN when unknown
	Findings    int
}

// maxSample bounds Group.Sample.
const maxSample = 100

// Config is one launch configuration of a group.
type Config struct {
	Grid, Block profan.Dim3
	Launches    int
}

// GroupFinding is one rule's findings over a group's launches.
type GroupFinding struct {
	profan.Finding // the launch whose finding could save the most time (message, advice, locations)
	// First is the finding of the first launch the rule held for: what a
	// gate and a diff quote.
	First profan.Finding
	// Reason is why the rule was suppressed, for a finding suppressed at
	// analysis (Group.SuppressedByRule).
	Reason string
	// Launches is how many of the group's launches the rule holds for.
	Launches int
	// CaptureGain is the share of the capture's kernel time the fix could
	// save: each launch's estimated gain weighted by its time, over the
	// capture's time. NaN when no launch's gain is known.
	CaptureGain float64
	// Launch and Grid are the ID and grid of the launch the finding is
	// from: its message speaks of that launch's blocks.
	Launch string
	Grid   profan.Dim3
	saved  float64 // Σ gain × duration, seconds
	best   float64
	// fromRep is set when Finding is the representative launch's.
	fromRep bool
}

// OtherLaunch says which launch the finding is from when it is not the
// group's representative ("" when it is, or unknown): its message quotes
// that launch's counters (its blocks, its speed of light), not those of the
// header printed beside it.
func (g *Group) OtherLaunch(f GroupFinding) string {
	if g.Rep == nil || !f.Grid.Known() || f.Launch == g.Rep.Record.ID {
		return ""
	}
	return fmt.Sprintf("launch id %s, grid (%d,%d,%d)", f.Launch, f.Grid[0], f.Grid[1], f.Grid[2])
}

// Mean is the mean launch duration; NaN when no launch is timed.
func (g *Group) Mean() float64 {
	if g.Timed == 0 {
		return math.NaN()
	}
	return g.Duration / float64(g.Timed)
}

// StdDev is the standard deviation of the launch durations (0 for one
// launch; NaN when none is timed or when an aggregate record that the group
// holds did not print its own).
func (g *Group) StdDev() float64 {
	if g.Timed == 0 || g.unspread {
		return math.NaN()
	}
	m := g.Mean()
	v := g.sumSq/float64(g.Timed) - m*m
	if v < 0 {
		v = 0
	}
	return math.Sqrt(v)
}

// maxConfigs bounds the launch configurations a group keeps; the rest are
// counted in the last one's launches only by Launches.
const maxConfigs = 16

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
	// tracks follow each run's launch order for the application
	// evidence (fusable chains, hand-written attention).
	tracks map[*profan.Run]*appTrack
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
	gr.note(k)
	g.Records++
	g.Launches += n
	timed := gr.time(g, a, n)
	if gr.KeepIDs {
		g.IDs.Add(k.ID)
	}
	g.addConfig(k.Grid, k.Block, n)
	if len(g.Sample) < maxSample {
		g.Sample = append(g.Sample, Launch{ID: k.ID, Grid: k.Grid, Block: k.Block, Launches: n, Duration: k.Duration, Findings: len(a.Findings)})
	}
	gr.sample(g, a)
	g.tally(a, timed, n)
	g.tallySuppressed(a, n)
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
	if g, ok := gr.groups[key]; ok {
		return g
	}
	g := &Group{Name: name, Info: a.Name, Source: src, First: a, Min: math.NaN(), Max: math.NaN(),
		findings: map[string]*GroupFinding{}}
	gr.groups[key] = g
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
func (gr *Grouper) note(k *profan.Kernel) {
	if k.Process != "" && len(gr.procs) < 64 {
		if gr.procs == nil {
			gr.procs = map[string]bool{}
		}
		gr.procs[k.Process] = true
	}
	if k.DeviceIndex >= 0 && len(gr.devices) < 64 {
		if gr.devices == nil {
			gr.devices = map[int]bool{}
		}
		gr.devices[k.DeviceIndex] = true
	}
}

// time adds the duration of a (a record of n launches) to g and to the
// capture's time, and makes a the group's representative when it is the
// longest launch (or, none timed, the first). It reports whether the
// duration is known.
func (gr *Grouper) time(g *Group, a *Kernel, n int) bool {
	k := a.Record
	d := k.Duration
	if math.IsNaN(d) || d < 0 {
		if g.Rep == nil {
			g.Rep = a
		}
		return false
	}
	// A summary row stands for n launches: its mean is d, and its
	// range and spread are what the export printed beside it.
	lo, hi, sd, ok := k.DurationSpread()
	if !ok || !(lo <= d && d <= hi) {
		lo, hi = d, d
	}
	g.Duration += d * float64(n)
	if math.IsNaN(sd) {
		g.unspread = true
	} else {
		// The export's standard deviation is the sample one.
		v := sd * sd * float64(n-1) / float64(n)
		g.sumSq += (v + d*d) * float64(n)
	}
	g.Timed += n
	gr.total += d * float64(n)
	if gr.BySource {
		if gr.totals == nil {
			gr.totals = map[string]float64{}
		}
		gr.totals[g.Source] += d * float64(n)
	}
	gr.follow(a.Run, g, d, n)
	if math.IsNaN(g.Min) || lo < g.Min {
		g.Min = lo
	}
	if g.Rep == nil || math.IsNaN(g.Max) || hi > g.Max {
		g.Rep = a
		g.Max = hi
	}
	return true
}

// sample adds a's values of the kept metrics to g's samples.
func (gr *Grouper) sample(g *Group, a *Kernel) {
	if !gr.keepAll && len(gr.keep) == 0 {
		return
	}
	if g.samples == nil {
		g.samples = map[string][]float64{}
	}
	if gr.keepAll {
		for _, x := range a.Metrics.Values {
			if !math.IsNaN(x.Value) && !x.Estimate {
				g.samples[x.Name] = append(g.samples[x.Name], x.Value)
			}
		}
		return
	}
	for m := range gr.keep {
		if x, ok := measured(a, m); ok {
			g.samples[m] = append(g.samples[m], x)
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

// tally counts a's findings (a record of n launches, whose duration is
// known when timed) in g, one per rule.
func (g *Group) tally(a *Kernel, timed bool, n int) {
	// A rule may report twice on one launch (its loads and its stores):
	// the launch counts once, and the time saved is the larger estimate,
	// not the sum.
	var onLaunch map[string]float64
	for _, f := range a.Findings {
		gf := g.findings[f.Rule]
		if gf == nil {
			gf = &GroupFinding{Finding: f, First: f, best: math.Inf(-1), CaptureGain: math.NaN()}
			g.findings[f.Rule] = gf
		}
		score := 0.0
		if !math.IsNaN(f.Gain) && timed {
			score = f.Gain * a.Record.Duration * float64(n)
		}
		if prev, seen := onLaunch[f.Rule]; !seen {
			if onLaunch == nil {
				onLaunch = map[string]float64{}
			}
			onLaunch[f.Rule] = score
			gf.Launches += n
			gf.saved += score
		} else if score > prev {
			onLaunch[f.Rule] = score
			gf.saved += score - prev
		}
		gf.offer(f, score, a, a == g.Rep)
	}
}

// offer makes f, found on a with the time saved score, the group's
// finding when it is the representative launch's, or, none being the
// representative's, when it could save the most time. The representative
// launch's finding is the group's whenever it reports the rule: its
// message then quotes the counters of the header and limiter printed
// beside it, one number per quantity.
func (gf *GroupFinding) offer(f profan.Finding, score float64, a *Kernel, rep bool) {
	if rep || !gf.fromRep && (score > gf.best || (score == gf.best && f.Severity > gf.Severity)) {
		gf.best = math.Max(gf.best, score)
		gf.Finding = f
		gf.Launch, gf.Grid = a.Record.ID, a.Record.Grid
		gf.fromRep = rep
	}
}

// tallySuppressed counts the findings suppressed at analysis on a (a
// record of n launches) in g, one per rule, each with its first reason.
func (g *Group) tallySuppressed(a *Kernel, n int) {
	var seen map[string]bool
	for _, s := range a.Suppressed {
		f := s.Finding
		if seen[f.Rule] {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[f.Rule] = true
		t := g.suppressed[f.Rule]
		if t == nil {
			if g.suppressed == nil {
				g.suppressed = map[string]*GroupFinding{}
			}
			t = &GroupFinding{Finding: f, First: f, Reason: s.Reason, CaptureGain: math.NaN()}
			g.suppressed[f.Rule] = t
		}
		t.Launches += n
	}
}

// Samples returns a metric's values over the group's records: one per
// record that has it. Only the metrics the grouper keeps have samples.
func (g *Group) Samples(metric string) []float64 { return g.samples[metric] }

// Rules returns the rules found on any launch (and not suppressed at
// analysis), with the first launch's finding each.
func (g *Group) Rules() map[string]profan.Finding {
	out := make(map[string]profan.Finding, len(g.findings))
	for r, t := range g.findings {
		out[r] = t.First
	}
	return out
}

// ByRule returns the group's findings by rule ID, before Groups ranks
// them: the launches each holds for and its first finding.
func (g *Group) ByRule() map[string]*GroupFinding { return g.findings }

// SuppressedByRule returns the findings suppressed at analysis by rule
// ID, with the launches each held for, its first finding and why.
func (g *Group) SuppressedByRule() map[string]*GroupFinding { return g.suppressed }

// follow adds a timed record of n launches of g to run's launch-order
// track; a summary's records (n > 1) have no order to follow.
func (gr *Grouper) follow(run *profan.Run, g *Group, d float64, n int) {
	if n != 1 {
		return
	}
	t := gr.tracks[run]
	if t == nil {
		if gr.tracks == nil {
			gr.tracks = map[*profan.Run]*appTrack{}
		}
		t = &appTrack{}
		gr.tracks[run] = t
	}
	t.follow(g, d)
}

func (g *Group) addConfig(grid, block profan.Dim3, n int) {
	for i := range g.Configs {
		if g.Configs[i].Grid == grid && g.Configs[i].Block == block {
			g.Configs[i].Launches += n
			return
		}
	}
	if len(g.Configs) < maxConfigs {
		g.Configs = append(g.Configs, Config{Grid: grid, Block: block, Launches: n})
	}
}

// Groups returns the groups sorted by total time, longest first (then by
// launches and name), with their shares of the capture's time and their
// findings ranked by the share of the capture they could save.
func (gr *Grouper) Groups() []*Group {
	out := append([]*Group(nil), gr.order...)
	for _, g := range out {
		g.Share = math.NaN()
		if gr.total > 0 {
			g.Share = g.Duration / gr.total
		}
		g.Findings = g.Findings[:0]
		for _, gf := range g.findings {
			x := *gf
			x.CaptureGain = math.NaN()
			if gf.saved > 0 && gr.total > 0 {
				x.CaptureGain = gf.saved / gr.total
			} else if gf.saved == 0 && !math.IsNaN(gf.Gain) && gr.total > 0 {
				x.CaptureGain = 0
			}
			g.Findings = append(g.Findings, x)
		}
		sortGroupFindings(g.Findings)
		sort.SliceStable(g.Configs, func(i, j int) bool { return g.Configs[i].Launches > g.Configs[j].Launches })
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

// sortGroupFindings orders by the capture time a fix could save, then by
// severity, launches and rule ID; unknown gains go after known ones.
func sortGroupFindings(fs []GroupFinding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if c := profan.CompareGains(fs[i].CaptureGain, fs[j].CaptureGain); c != 0 {
			return c < 0
		}
		if fs[i].Severity != fs[j].Severity {
			return fs[i].Severity > fs[j].Severity
		}
		if fs[i].Launches != fs[j].Launches {
			return fs[i].Launches > fs[j].Launches
		}
		return fs[i].Rule < fs[j].Rule
	})
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

// IDList holds launch IDs packed in one buffer: a string each would cost
// a header and an allocation per launch, which on a 600,000-launch trace
// is most of the heap.
type IDList struct {
	buf []byte
	end []int
}

// Add appends id.
func (l *IDList) Add(id string) {
	l.buf = append(l.buf, id...)
	l.end = append(l.end, len(l.buf))
}

// Len is the number of IDs.
func (l *IDList) Len() int { return len(l.end) }

// At is the i-th ID.
func (l *IDList) At(i int) string {
	start := 0
	if i > 0 {
		start = l.end[i-1]
	}
	return string(l.buf[start:l.end[i]])
}

// MarshalJSON writes the IDs as an array of strings.
func (l IDList) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, len(l.buf)+4*len(l.end)+2)
	out = append(out, '[')
	start := 0
	for i, e := range l.end {
		if i > 0 {
			out = append(out, ',')
		}
		b, err := json.Marshal(string(l.buf[start:e]))
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
		start = e
	}
	return append(out, ']'), nil
}

// Backward reports isBackward of the group's name, computed once.
func (g *Group) Backward() bool {
	if g.bwd == 0 {
		g.bwd = 1
		if isBackward(g.Name) {
			g.bwd = 2
		}
	}
	return g.bwd == 2
}
