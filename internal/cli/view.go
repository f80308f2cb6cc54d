package cli

import (
	"math"
	"sort"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/ingest"
	"github.com/profan-dev/profan/store"
)

// kernelView is a kernel as gates and diffs see it, whether analysed from
// an export now or read back from the database.
type kernelView struct {
	K         *profan.Kernel
	Canonical map[string]float64
	Findings  []profan.Finding
	Source    string // the export it came from
}

// Name is the name kernels are matched by across runs.
func (v kernelView) Name() string { return v.K.DisplayName() }

// Value returns a canonical metric or, failing that, a raw metric by its
// exported name.
func (v kernelView) Value(name string) (float64, bool) {
	if x, ok := v.Canonical[name]; ok && !math.IsNaN(x) {
		return x, true
	}
	return v.K.Value(name)
}

func viewOf(a *analysis.Kernel, source string) kernelView {
	c := make(map[string]float64, len(a.Metrics.Values))
	for _, x := range a.Metrics.Values {
		c[x.Name] = x.Value
	}
	return kernelView{K: a.K, Canonical: c, Findings: a.Findings, Source: source}
}

// viewsFromFiles analyses exports (with their source pages attached).
func viewsFromFiles(files []string, aopt analysis.Options) ([]kernelView, error) {
	var out []kernelView
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		out = append(out, viewOf(analysis.Analyze(run, k, aopt), run.Source))
		return nil
	})
	return out, err
}

// viewsFromDB reads a stored run.
func viewsFromDB(db *store.DB, run int64) ([]kernelView, error) {
	rec, err := db.Run(bg, run)
	if err != nil {
		return nil, err
	}
	ks, err := db.Kernels(bg, run)
	if err != nil {
		return nil, err
	}
	out := make([]kernelView, len(ks))
	for i, k := range ks {
		out[i] = kernelView{K: k.Kernel, Canonical: k.Canonical, Findings: k.Findings, Source: rec.Source}
	}
	return out, nil
}

// kernelGroup is every launch of one kernel name in a run: repeated
// launches are compared as samples, not one by one.
type kernelGroup struct {
	Name  string
	Views []kernelView
}

// samples returns a metric's values over the group's launches.
func (g *kernelGroup) samples(metric string) []float64 {
	var xs []float64
	for _, v := range g.Views {
		if x, ok := v.Value(metric); ok {
			xs = append(xs, x)
		}
	}
	return xs
}

// rules returns the rules found on any launch, with one finding each.
func (g *kernelGroup) rules() map[string]profan.Finding {
	out := map[string]profan.Finding{}
	for _, v := range g.Views {
		for _, f := range v.Findings {
			if _, ok := out[f.Rule]; !ok {
				out[f.Rule] = f
			}
		}
	}
	return out
}

// group collects views by kernel name, in first-seen order.
func group(vs []kernelView) []*kernelGroup {
	by := map[string]*kernelGroup{}
	var out []*kernelGroup
	for _, v := range vs {
		g, ok := by[v.Name()]
		if !ok {
			g = &kernelGroup{Name: v.Name()}
			by[v.Name()] = g
			out = append(out, g)
		}
		g.Views = append(g.Views, v)
	}
	return out
}

func sortedRules(m map[string]profan.Finding) []string {
	out := make([]string, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
