// Package gate is profan's CI policy: conditions on metrics, findings
// that fail, regressions against a baseline, and the exit status, decided
// from verdicts only (analysis.RunVerdict, or what the run database
// stored of one). It does no I/O and no analysis.
package gate

import (
	"math"
	"sort"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// Kernel is a kernel's verdict as a gate sees it, whether analysed from an
// export now or read back from the database.
type Kernel struct {
	K          *profan.Kernel
	Canonical  map[string]float64
	Findings   []profan.Finding
	Suppressed []analysis.Suppressed
	Source     string // the export it came from
}

// Name is the name kernels are matched by across runs.
func (v Kernel) Name() string { return v.K.DisplayName() }

// Value returns a canonical metric or, failing that, a raw metric by its
// exported name.
func (v Kernel) Value(name string) (float64, bool) {
	if x, ok := v.Canonical[name]; ok && !math.IsNaN(x) {
		return x, true
	}
	return v.K.Value(name)
}

// FromAnalysis is the gate's view of an analysed kernel.
func FromAnalysis(a *analysis.Kernel, source string) Kernel {
	c := make(map[string]float64, len(a.Metrics.Values))
	for _, x := range a.Metrics.Values {
		c[x.Name] = x.Value
	}
	return Kernel{K: a.K, Canonical: c, Findings: a.Findings, Suppressed: a.Suppressed, Source: source}
}

// Run is the run-level part of a verdict: findings about the capture as a
// whole (host transfers).
type Run struct {
	Source     string
	Findings   []profan.Finding
	Suppressed []analysis.Suppressed
}

// FromVerdict is the gate's view of a run's verdict.
func FromVerdict(v *analysis.RunVerdict) ([]Kernel, Run) {
	ks := make([]Kernel, 0, len(v.Kernels))
	for _, a := range v.Kernels {
		ks = append(ks, FromAnalysis(a, v.Run.Source))
	}
	return ks, Run{Source: v.Run.Source, Findings: v.Findings, Suppressed: v.Suppressed}
}

// Group is every launch of one kernel name in a run: repeated launches
// are compared as samples, not one by one.
type Group struct {
	Name    string
	Kernels []Kernel
}

// Samples returns a metric's values over the group's launches.
func (g *Group) Samples(metric string) []float64 {
	var xs []float64
	for _, v := range g.Kernels {
		if x, ok := v.Value(metric); ok {
			xs = append(xs, x)
		}
	}
	return xs
}

// Rules returns the rules found on any launch, with one finding each.
func (g *Group) Rules() map[string]profan.Finding {
	out := map[string]profan.Finding{}
	for _, v := range g.Kernels {
		for _, f := range v.Findings {
			if _, ok := out[f.Rule]; !ok {
				out[f.Rule] = f
			}
		}
	}
	return out
}

// GroupByName collects kernels by name, in first-seen order.
func GroupByName(vs []Kernel) []*Group {
	by := map[string]*Group{}
	var out []*Group
	for _, v := range vs {
		g, ok := by[v.Name()]
		if !ok {
			g = &Group{Name: v.Name()}
			by[v.Name()] = g
			out = append(out, g)
		}
		g.Kernels = append(g.Kernels, v)
	}
	return out
}

// SortedRules returns the rule IDs of m in order.
func SortedRules(m map[string]profan.Finding) []string {
	out := make([]string, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
