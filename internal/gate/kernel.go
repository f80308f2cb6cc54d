// Package gate is profan's CI policy: conditions on metrics, findings
// that fail, regressions against a baseline, and the exit status, decided
// from verdicts only (analysis.RunVerdict, or what the run database
// stored of one). It does no I/O and no analysis.
package gate

import (
	"math"
	"sort"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// Value returns a canonical metric of a's verdict or, failing that, a raw
// metric by its exported name.
func Value(a *analysis.Kernel, name string) (float64, bool) {
	if x, ok := a.Metrics.Lookup(name); ok && !math.IsNaN(x.Value) {
		// An estimate is no measurement to gate on: the kernel lacks it.
		return x.Value, !x.Estimate
	}
	return a.K.Value(name)
}

// source is the export a verdict was made from.
func source(a *analysis.Kernel) string {
	if a.Run == nil {
		return ""
	}
	return a.Run.Source
}

// Group is every launch of one kernel name in a run, summed up as the
// launches stream by: repeated launches are compared as samples, never
// one by one, and a group holds its first launch, its counts, the samples
// of the metrics its collector keeps and one finding per rule, so that its
// size does not grow with its launches (but for 8 bytes a launch and kept
// metric).
type Group struct {
	Name string
	// First is the group's first launch's verdict: its identity, its
	// source and what suppressions match.
	First *analysis.Kernel
	// Records are the kernel records read; Launches counts the launches
	// that aggregate records (summary rows) stand for.
	Records, Launches int
	// Duration is the total time of the launches whose duration is known.
	Duration float64
	Timed    int

	samples    map[string][]float64
	findings   map[string]*Tally
	suppressed map[string]*Tally
}

// Tally is one rule's findings over a group's launches.
type Tally struct {
	Finding  profan.Finding // the first launch's
	Launches int            // launches it holds for
	Reason   string         // why it was suppressed, for suppressed ones
}

// Samples returns a metric's values over the group's records: one per
// record that has it. Only the metrics the collector keeps have samples.
func (g *Group) Samples(metric string) []float64 { return g.samples[metric] }

// Rules returns the rules found on any launch (and not suppressed at
// analysis), with the first launch's finding each.
func (g *Group) Rules() map[string]profan.Finding {
	out := make(map[string]profan.Finding, len(g.findings))
	for r, t := range g.findings {
		out[r] = t.Finding
	}
	return out
}

// Findings returns the tallies of the rules found (suppressed: those
// suppressed at analysis), by rule ID.
func (g *Group) Findings(suppressed bool) map[string]*Tally {
	if suppressed {
		return g.suppressed
	}
	return g.findings
}

// Collector gathers kernels into groups by export and name, in first-seen
// order, as they stream by. It keeps the samples of the metrics it was
// made for only, so that a gate over a trace of 600,000 launches holds a
// few numbers per launch and one kernel per group.
type Collector struct {
	keep   map[string]bool // nil: every metric a kernel has
	groups map[[2]string]*Group
	byName map[string]*Group // the first group of each name
	order  []*Group
	total  map[string]float64 // per export, the sum of the known durations
}

// NewCollector returns an empty collector keeping the samples of
// metrics (canonical or raw names); nil keeps every metric's.
func NewCollector(metrics []string) *Collector {
	c := &Collector{groups: map[[2]string]*Group{}, byName: map[string]*Group{}, total: map[string]float64{}}
	if metrics != nil {
		c.keep = map[string]bool{}
		for _, m := range metrics {
			c.keep[m] = true
		}
	}
	return c
}

// Add places one kernel's verdict in its group. The collector keeps v
// only when it starts a group.
func (c *Collector) Add(v *analysis.Kernel) {
	name := v.K.DisplayName()
	src := source(v)
	key := [2]string{src, name}
	g, ok := c.groups[key]
	if !ok {
		g = &Group{Name: name, First: v, samples: map[string][]float64{}, findings: map[string]*Tally{}, suppressed: map[string]*Tally{}}
		c.groups[key] = g
		if _, dup := c.byName[name]; !dup {
			c.byName[name] = g
		}
		c.order = append(c.order, g)
	}
	n := v.K.Invocations
	if n < 1 {
		n = 1
	}
	g.Records++
	g.Launches += n
	if d := v.K.Duration; !math.IsNaN(d) && d >= 0 {
		g.Duration += d * float64(n)
		g.Timed += n
		c.total[src] += d * float64(n)
	}
	if c.keep == nil {
		for _, x := range v.Metrics.Values {
			if !math.IsNaN(x.Value) && !x.Estimate {
				g.samples[x.Name] = append(g.samples[x.Name], x.Value)
			}
		}
	} else {
		for m := range c.keep {
			if x, ok := Value(v, m); ok {
				g.samples[m] = append(g.samples[m], x)
			}
		}
	}
	// A rule may report twice on one launch (its loads and its stores):
	// the launch counts once.
	var seen map[string]bool
	tally := func(into map[string]*Tally, f profan.Finding, reason string) {
		if seen[f.Rule] {
			return
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[f.Rule] = true
		t := into[f.Rule]
		if t == nil {
			t = &Tally{Finding: f, Reason: reason}
			into[f.Rule] = t
		}
		t.Launches += n
	}
	for _, f := range v.Findings {
		tally(g.findings, f, "")
	}
	seen = nil
	for _, s := range v.Suppressed {
		tally(g.suppressed, s.Finding, s.Reason)
	}
}

// Groups returns the groups in first-seen order.
func (c *Collector) Groups() []*Group { return c.order }

// Group returns the first group called name.
func (c *Collector) Group(name string) (*Group, bool) {
	g, ok := c.byName[name]
	return g, ok
}

// Share is a group's part of its capture's kernel time, 0–1; NaN when the
// capture's or the group's time is unknown.
func (c *Collector) Share(g *Group) float64 {
	total := c.total[source(g.First)]
	if total <= 0 || g.Timed == 0 {
		return math.NaN()
	}
	return g.Duration / total
}

// GroupByName collects kernels by name, in first-seen order, keeping every
// metric's samples.
func GroupByName(vs []*analysis.Kernel) []*Group {
	c := NewCollector(nil)
	for _, v := range vs {
		c.Add(v)
	}
	return c.Groups()
}

// SortedRules returns the rule IDs of m in order.
func SortedRules[T any](m map[string]T) []string {
	out := make([]string, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
