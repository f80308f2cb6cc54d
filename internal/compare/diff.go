package compare

import (
	"maps"
	"math"
	"slices"
	"sort"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/units"
)

// Status says in which of two runs a kernel is.
type Status string

const (
	inBoth Status = "both"
	onlyA  Status = "only-a"
	onlyB  Status = "only-b"
)

// Verdict is which way a metric moved.
type Verdict string

const (
	verdictBetter  Verdict = "better"
	verdictWorse   Verdict = "worse"
	verdictChanged Verdict = "changed" // a metric without a better direction
	verdictSame    Verdict = "same"
	// verdictBetterButSlower is a metric that moved its better way while the
	// kernel's duration got worse: a cache hit rate rising inside a
	// regression is no improvement. verdictWorseButFaster is the converse.
	verdictBetterButSlower Verdict = "better-but-slower"
	verdictWorseButFaster  Verdict = "worse-but-faster"
)

// Summary is a diff's bottom line, as benchstat's geomean row: the kernels
// each side has and shares, their total time, the geometric mean of the
// shared kernels' duration ratios (new over old), and the kernels left out
// as unchanged.
type Summary struct {
	KernelsA  int
	KernelsB  int
	Shared    int
	Unchanged int     // shared kernels whose metrics and findings did not change; listed only with --all
	TotalA    float64 // kernel time: the sum of the launches' durations
	TotalB    float64
	// Geomean is the geometric mean over the shared kernels of their
	// median duration's ratio, new over old (0.9: 10% faster); nil when
	// no shared kernel has durations on both sides.
	Geomean *float64
	Timed   int // the shared kernels it is over
}

// changed says whether a kernel of both sides changed: a metric moved
// significantly, or a finding appeared or disappeared; one with metrics
// only one side has is not known unchanged.
func (d KernelDiff) changed() bool {
	if len(d.Appeared) > 0 || len(d.Gone) > 0 || len(d.Missing) > 0 {
		return true
	}
	for _, m := range d.Metrics {
		if m.Verdict != verdictSame {
			return true
		}
	}
	return false
}

// size is how much a kernel changed, for the order of a diff: its
// duration's move, else its largest metric's.
func (d KernelDiff) size() float64 {
	best := 0.0
	for _, m := range d.Metrics {
		if m.Verdict == verdictSame {
			continue
		}
		if m.Metric == "duration" {
			return math.Inf(1) // durations first
		}
		best = max(best, math.Abs(m.Rel))
	}
	return best
}

// KernelDiff is one kernel's difference between two runs.
type KernelDiff struct {
	Kernel    string
	Status    Status
	LaunchesA int
	LaunchesB int
	Metrics   []MetricDelta
	Appeared  []string
	Gone      []string
	// Missing are the metrics one side has and the other lacks: listed,
	// never compared as if they had not moved.
	Missing []MissingMetric
}

// MissingMetric is a metric only one of the two sides has.
type MissingMetric struct {
	Metric string
	In     string // "a" or "b"
}

// MetricDelta is one metric's move, with the evidence behind its verdict
// (benchstat-style: samples, their spread, the test).
type MetricDelta struct {
	Metric string
	Unit   string
	// Better is the metric's better direction: higher, lower, or "" for
	// a metric that has none (a count of requests).
	Better  string
	A       float64 // median over run A's launches
	B       float64
	NA      int // launches with a value
	NB      int
	SpreadA float64 // half the range of the launches, relative to their median
	SpreadB float64
	Rel     float64
	Verdict Verdict
	// Test is what decided the verdict: exact (a counter), launches
	// (Mann-Whitney U), history (t-test against the run-to-run spread of
	// the kernel's stored runs), floor (no spread known: the 5% floor).
	Test stats.Method
	P    float64
	// History is the run-to-run spread the history test used.
	History string
}

// Stored says, when both sides of a diff are stored runs, which ones, and
// holds their kernels' stored series of noisy metrics (NoisySeries), so
// that a step trend decided is decided the same way.
type Stored struct {
	A, B   int64
	Series map[string]map[string]*Series
}

// Kernels compares two runs' kernel groups by name (made by groupers that
// keep every canonical metric's samples): the canonical metrics that
// moved by more than threshold (all of them with all), and the findings
// that appeared or disappeared. hist holds the run-to-run spreads of noisy
// metrics (Spreads); stored, when not nil, the series trend decides from:
// a step between consecutive runs of a series gets trend's verdict, p and
// method.
//
// The kernels that changed come first, the largest change first (a
// duration's move before any other metric's); then those only one side
// has; kernels that did not change are left out, but counted in the
// summary, unless all.
func Kernels(sa, sb *analysis.Grouper, threshold float64, all bool, hist map[string]map[string]stats.Spread, stored *Stored) ([]KernelDiff, Summary) {
	ga, gb := sa.InOrder(), sb.InOrder()
	sum := Summary{KernelsA: len(ga), KernelsB: len(gb), TotalA: total(ga), TotalB: total(gb)}
	o := differ{threshold: threshold, all: all, hist: hist, stored: stored}
	logs := 0.0
	byB := map[string]*analysis.Group{}
	for _, g := range gb {
		byB[g.Name] = g
	}
	seen := map[string]bool{}
	var out []KernelDiff
	for _, a := range ga {
		seen[a.Name] = true
		b, ok := byB[a.Name]
		if !ok {
			out = append(out, KernelDiff{Kernel: a.Name, Status: onlyA, LaunchesA: a.Records})
			continue
		}
		d, logRatio, timed := o.kernel(a, b)
		if timed {
			logs += logRatio
			sum.Timed++
		}
		out = append(out, d)
	}
	for _, b := range gb {
		if !seen[b.Name] {
			out = append(out, KernelDiff{Kernel: b.Name, Status: onlyB, LaunchesB: b.Records})
		}
	}
	sortDiffs(out)
	kept := out[:0]
	for _, d := range out {
		if d.Status == inBoth {
			sum.Shared++
			if !d.changed() {
				sum.Unchanged++
				if !all {
					continue
				}
			}
		}
		kept = append(kept, d)
	}
	if sum.Timed > 0 {
		g := math.Exp(logs / float64(sum.Timed))
		sum.Geomean = &g
	}
	return kept, sum
}

// differ is how Kernels compares: its threshold, whether it keeps every
// metric, the run-to-run spreads and stored series it tests against.
type differ struct {
	threshold float64
	all       bool
	hist      map[string]map[string]stats.Spread
	stored    *Stored
}

// kernel compares the launches of one kernel in both runs; logRatio is
// the log of its median duration's ratio, new over old, when timed (both
// durations positive), for the summary's geomean.
func (o differ) kernel(a, b *analysis.Group) (d KernelDiff, logRatio float64, timed bool) {
	d = KernelDiff{Kernel: a.Name, Status: inBoth, LaunchesA: a.Records, LaunchesB: b.Records, Metrics: []MetricDelta{}, Appeared: []string{}, Gone: []string{},
		Missing: []MissingMetric{}}
	timeVerdict := verdictSame
	for _, def := range metrics.Defs {
		xa, xb := a.Samples(def.Name), b.Samples(def.Name)
		if len(xa) == 0 && len(xb) > 0 {
			d.Missing = append(d.Missing, MissingMetric{Metric: def.Name, In: "b"})
		}
		if len(xb) == 0 && len(xa) > 0 {
			d.Missing = append(d.Missing, MissingMetric{Metric: def.Name, In: "a"})
		}
		if len(xa) == 0 || len(xb) == 0 {
			continue
		}
		md, keep := o.metric(def, a.Name, xa, xb)
		if def.Name == "duration" {
			timeVerdict = md.Verdict
			if md.A > 0 && md.B > 0 {
				logRatio, timed = math.Log(md.B/md.A), true
			}
		}
		if keep {
			d.Metrics = append(d.Metrics, md)
		}
	}
	// A metric's better way is better only when the time agrees.
	for i, m := range d.Metrics {
		switch {
		case m.Metric == "duration":
		case m.Verdict == verdictBetter && timeVerdict == verdictWorse:
			d.Metrics[i].Verdict = verdictBetterButSlower
		case m.Verdict == verdictWorse && timeVerdict == verdictBetter:
			d.Metrics[i].Verdict = verdictWorseButFaster
		}
	}
	ra, rb := a.Rules(), b.Rules()
	d.Appeared = appendMissing(d.Appeared, rb, ra)
	d.Gone = appendMissing(d.Gone, ra, rb)
	return d, logRatio, timed
}

// appendMissing appends the rules of from that to lacks, sorted.
func appendMissing(dst []string, from, to map[string]profan.Finding) []string {
	for _, r := range slices.Sorted(maps.Keys(from)) {
		if _, ok := to[r]; !ok {
			dst = append(dst, r)
		}
	}
	return dst
}

// metric compares one metric of a kernel over the launches of both runs
// (xa, xb: both not empty): its move and verdict, and whether the diff
// lists it (it moved by more than the threshold, or all).
func (o differ) metric(def *metrics.Def, kernel string, xa, xb []float64) (MetricDelta, bool) {
	ma, mb := stats.Median(xa), stats.Median(xb)
	r := stats.Rel(ma, mb)
	sp := o.hist[def.Name][kernel]
	c := stats.CompareMetric(metrics.Noisy(def.Name), xa, xb, sp, o.threshold)
	if o.stored != nil {
		if s := o.stored.Series[def.Name][kernel]; s != nil {
			if st, ok := s.step(o.stored.A, o.stored.B); ok {
				c = st
			}
		}
	}
	md := MetricDelta{Metric: def.Name, Unit: def.Unit, Better: direction(def.Better), A: ma, B: mb, NA: len(xa), NB: len(xb),
		SpreadA: halfRange(xa), SpreadB: halfRange(xb), Rel: finiteOr(r, 0),
		Verdict: verdict(def.Better, c.Changed, ma, mb), Test: c.Method, P: c.P}
	if c.Method == stats.History {
		md.History = sp.String()
	}
	// A NaN move is not within the threshold: listed. A move of exactly
	// the threshold is within it, compared as units.AtThreshold rounds
	// (105 against 100 is 0.05000000000000004 in float: not past 5%).
	return md, o.all || !(units.AtThreshold(math.Abs(r)) <= units.AtThreshold(o.threshold)) && ma != mb
}

// sortDiffs orders a diff: the kernels that changed, the largest change
// first; then those only one side has; then the unchanged.
func sortDiffs(out []KernelDiff) {
	rank := func(d KernelDiff) int {
		switch {
		case d.Status != inBoth:
			return 1
		case d.changed():
			return 0
		}
		return 2
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		if ri == 0 {
			si, sj := out[i].size(), out[j].size()
			if math.IsInf(si, 1) && math.IsInf(sj, 1) {
				si, sj = math.Abs(out[i].durationRel()), math.Abs(out[j].durationRel())
			}
			return si > sj
		}
		return false
	})
}

// durationRel is the kernel's duration move, 0 when not compared.
func (d KernelDiff) durationRel() float64 {
	for _, m := range d.Metrics {
		if m.Metric == "duration" {
			return m.Rel
		}
	}
	return 0
}

// total is the kernel time of groups: the sum of their launches' durations.
func total(gs []*analysis.Group) float64 {
	t := 0.0
	for _, g := range gs {
		t += g.Duration
	}
	return t
}

// HalfRange is half the range of xs relative to their median: the
// spread a diff prints (±%); 0 for fewer than two values.
func HalfRange(xs []float64) float64 { return halfRange(xs) }

func halfRange(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	m := stats.Median(xs)
	if m == 0 {
		return 0
	}
	return (hi - lo) / 2 / math.Abs(m)
}

// direction names a metrics.Def's Better.
func direction(better int) string {
	switch {
	case better > 0:
		return "higher"
	case better < 0:
		return "lower"
	}
	return ""
}

func verdict(better int, changed bool, a, b float64) Verdict {
	if !changed {
		return verdictSame
	}
	switch {
	case better == 0:
		return verdictChanged
	case (b > a) == (better > 0):
		return verdictBetter
	}
	return verdictWorse
}

func finiteOr(v, d float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return d
	}
	return v
}

// NewGrouper returns the grouper of one side of a diff, as Kernels reads
// it: by export and kernel name, keeping every canonical metric's samples.
func NewGrouper() *analysis.Grouper {
	gr := analysis.NewGrouper(false)
	gr.BySource = true
	gr.KeepAllSamples()
	return gr
}
