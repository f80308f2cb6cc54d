package verdict

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/kernelname"
)

// Group is the launches of one kernel in a capture: same demangled name
// (and, with analysis.Grouper.BySource, same export), whatever the launch
// configuration (kept as a detail in Configs). A capture is an
// application; its groups, ranked by time, are its summary; a gate and a
// diff compare groups, never launches. A group's size does not grow with
// its launches (but for the samples it keeps, 8 bytes a launch and metric,
// and the IDs, when kept).
type Group struct {
	// bwd caches Backward(): 1 forward, 2 backward, 0 not known yet
	// (a trace asks at each launch, and the regexp over a long template
	// name cost three quarters of reading one).
	bwd int8
	// soft caches whether the group is a softmax (attention's scores), as
	// bwd does: 1 not one, 2 one, 0 not known yet.
	soft int8
	// fwd caches ForwardPass(), as bwd does.
	fwd    int8
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
	// IDs are the launch IDs, in the order read (analysis.Grouper.KeepIDs).
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
	fuseLaunches, fuseSplit, fuseFloor  int
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
	// The finding every surface states (analyze, report, gate, diff): the
	// representative launch's, else the launch's that could save the most
	// time (message, advice, locations).
	profan.Finding
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

// Tally counts a's findings (a record of n launches, whose duration is
// known when timed) in g, one per rule.
func (g *Group) Tally(a *Kernel, timed bool, n int) {
	// A rule may report twice on one launch (its loads and its stores):
	// the launch counts once, and the time saved is the larger estimate,
	// not the sum.
	var onLaunch map[string]float64
	for _, f := range a.Findings {
		gf := g.findings[f.Rule]
		if gf == nil {
			gf = &GroupFinding{Finding: f, best: math.Inf(-1), CaptureGain: math.NaN()}
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

// TallySuppressed counts the findings suppressed at analysis on a (a
// record of n launches) in g, one per rule, each with its first reason.
func (g *Group) TallySuppressed(a *Kernel, n int) {
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
			t = &GroupFinding{Finding: f, Reason: s.Reason, CaptureGain: math.NaN()}
			g.suppressed[f.Rule] = t
		}
		t.Launches += n
	}
}

// Samples returns a metric's values over the group's records: one per
// record that has it. Only the metrics the grouper keeps have samples.
func (g *Group) Samples(metric string) []float64 { return g.samples[metric] }

// Rules returns the rules found on any launch (and not suppressed at
// analysis), with the group's finding each (GroupFinding.Finding).
func (g *Group) Rules() map[string]profan.Finding {
	out := make(map[string]profan.Finding, len(g.findings))
	for r, t := range g.findings {
		out[r] = t.Finding
	}
	return out
}

// ByRule returns the group's findings by rule ID, before Rank ranks
// them: the launches each holds for and the group's finding.
func (g *Group) ByRule() map[string]*GroupFinding { return g.findings }

// SuppressedByRule returns the findings suppressed at analysis by rule
// ID, with the launches each held for, its first finding and why.
func (g *Group) SuppressedByRule() map[string]*GroupFinding { return g.suppressed }

// AddConfig counts n launches of the configuration grid × block.
func (g *Group) AddConfig(grid, block profan.Dim3, n int) {
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

var reBackward = regexp.MustCompile(`(?i)backward|dgrad|wgrad|bprop|_bwd|bwd_|_bw_|bwtr|gradinput|grad_input|gammabeta|_grad_`)

// reForward names a forward pass's kernel: a normalization's or a
// convolution's forward, an attention's forward.
var reForward = regexp.MustCompile(`(?i)fprop|forward|cutlassF|layer_norm_kernel`)

// ForwardPass reports a kernel named for a forward pass (reForward),
// cached as Backward is: a trace asks at each launch.
func (g *Group) ForwardPass() bool {
	if g.fwd == 0 {
		g.fwd = 1
		if reForward.MatchString(kernelname.Head(g.Name)) {
			g.fwd = 2
		}
	}
	return g.fwd == 2
}

// Backward reports a kernel of a backward pass by the group's name,
// computed once.
func (g *Group) Backward() bool {
	if g.bwd == 0 {
		g.bwd = 1
		if reBackward.MatchString(kernelname.Head(g.Name)) {
			g.bwd = 2
		}
	}
	return g.bwd == 2
}

// Fusion is what fusing the eager chains the group's launches belong to
// would save of its time: Saved seconds (each chain's time but its
// longest launch's, shared among its launches by their time: the fused
// kernel reads the chain's inputs and writes its outputs once, about
// what its largest member moves) and the launches it removes.
func (g *Group) Fusion() (saved float64, launches int) { return g.fuseSaved, g.fuseLaunches }

// Attention is the group's time in hand-written attention: the scale,
// mask and softmax launches that read and write the T×T scores (scores)
// and the products beside them (products), seconds.
func (g *Group) Attention() (scores, products float64) { return g.attnScores, g.attnProducts }

// reLogSoftmax is a loss's log-softmax: "logsoftmax" epilogues, or the
// warp kernels' is_log_softmax template argument (the fifth) set.
var reLogSoftmax = regexp.MustCompile(`logsoftmax|softmax_warp_(forward|backward)<[^,]*,[^,]*,[^,]*, *\d+, *(1|true)`)

// Softmax reports a softmax of ATen's (not a log-softmax), found once
// per group: the track asks at each launch.
func (g *Group) Softmax() bool {
	if g.soft == 0 {
		lower := strings.ToLower(g.Name)
		g.soft = 1
		if g.Info.Library == kernelname.ATen && strings.Contains(lower, "softmax") && !reLogSoftmax.MatchString(lower) {
			g.soft = 2
		}
	}
	return g.soft == 2
}

// NewGroup returns the empty group of the kernel name (info, its reading)
// whose first launch, read from the export source, is first.
func NewGroup(name string, info kernelname.Info, source string, first *Kernel) *Group {
	return &Group{Name: name, Info: info, Source: source, First: first, Min: math.NaN(), Max: math.NaN(),
		findings: map[string]*GroupFinding{}}
}

// AddTime adds the duration of a, a record of n launches, to the group
// and makes a the group's representative when it is the longest launch
// (or, none timed, the first). It returns the record's duration and
// whether it is known.
func (g *Group) AddTime(a *Kernel, n int) (float64, bool) {
	k := a.Record
	d := k.Duration
	if math.IsNaN(d) || d < 0 {
		if g.Rep == nil {
			g.Rep = a
		}
		return d, false
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
	if math.IsNaN(g.Min) || lo < g.Min {
		g.Min = lo
	}
	if g.Rep == nil || math.IsNaN(g.Max) || hi > g.Max {
		g.Rep = a
		g.Max = hi
	}
	return d, true
}

// AddLaunch lists l in Sample while it holds fewer than maxSample.
func (g *Group) AddLaunch(l Launch) {
	if len(g.Sample) < maxSample {
		g.Sample = append(g.Sample, l)
	}
}

// AddMetric adds one record's value of a kept metric (Samples).
func (g *Group) AddMetric(metric string, v float64) {
	if g.samples == nil {
		g.samples = map[string][]float64{}
	}
	g.samples[metric] = append(g.samples[metric], v)
}

// Split is how many launches inductor adds to the group's in the chains
// it fuses: a weight's or bias's gradient sum in the backward, one eager
// kernel, is a split reduction of two or more of its kernels (AddSplit).
func (g *Group) Split() int { return g.fuseSplit }

// AddSplit adds launches a fused chain adds to the group's (Split).
func (g *Group) AddSplit(launches int) { g.fuseSplit += launches }

// AddFusion adds what fusing a chain the group's launches belong to
// saves of their time (seconds), and the launches it removes (Fusion).
func (g *Group) AddFusion(saved float64, launches int) {
	g.fuseSaved += saved
	g.fuseLaunches += launches
}

// Floored is how many of the group's launches a fused chain prices at
// their ops' memory floor (the bytes the ops move, from the trace's
// shapes), not at ATen's time (AddFloored).
func (g *Group) Floored() int { return g.fuseFloor }

// AddFloored counts launches priced at their ops' memory floor.
func (g *Group) AddFloored(launches int) { g.fuseFloor += launches }

// AddAttention adds seconds of the group's time in hand-written attention,
// in the scores or in the products beside them (Attention).
func (g *Group) AddAttention(scores, products float64) {
	g.attnScores += scores
	g.attnProducts += products
}

// Rank sets the group's share of the capture's kernel time total (NaN
// when unknown) and its findings, ranked by the share of it they could
// save; the configurations most launches first.
func (g *Group) Rank(total float64) {
	g.Share = math.NaN()
	if total > 0 {
		g.Share = g.Duration / total
	}
	g.Findings = g.Findings[:0]
	for _, gf := range g.findings {
		x := *gf
		x.CaptureGain = math.NaN()
		if gf.saved > 0 && total > 0 {
			x.CaptureGain = gf.saved / total
		} else if gf.saved == 0 && !math.IsNaN(gf.Gain) && total > 0 {
			x.CaptureGain = 0
		}
		g.Findings = append(g.Findings, x)
	}
	sortGroupFindings(g.Findings)
	sort.SliceStable(g.Configs, func(i, j int) bool { return g.Configs[i].Launches > g.Configs[j].Launches })
}
