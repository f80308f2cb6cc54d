// Package compare compares runs: the series of a kernel's metric across
// stored runs and its change points, the run-to-run spread that single
// launches are tested against, the baseline a gate compares with, and the
// difference of two runs or two export files. The commands trend, diff,
// gate --baseline and report read it; report renders what they made of it.
package compare

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/store"
)

// Series is one kernel's values run by run.
type Series struct {
	Kernel  string
	Runs    []RunValues
	Changes []Change
	// Method says how changes were detected, for people.
	Method string
	// Spread is the run-to-run spread of the series' medians (noisy
	// metrics), which diff and gate test single launches against.
	Spread stats.Spread
}

// medians are the runs' values, one per run.
func (s *Series) medians() []float64 {
	med := make([]float64, len(s.Runs))
	for i, r := range s.Runs {
		med[i] = r.Median()
	}
	return med
}

// RunValues are a kernel's values in one run (one per launch).
type RunValues struct {
	Run    int64
	Labels map[string]string
	Values []float64
}

// Median is the run's value.
func (r RunValues) Median() float64 { return stats.Median(r.Values) }

// Change is a detected change point.
type Change struct {
	Run  int64
	From float64
	To   float64
	Rel  float64
	P    float64
	// Method is what decided the change: exact, launches, history, floor.
	Method stats.Method
}

// Build groups points by kernel and run and finds the change points.
func Build(pts []store.Point, metric string) []*Series {
	var order []string
	by := map[string]*Series{}
	for _, p := range pts {
		s, ok := by[p.Kernel]
		if !ok {
			s = &Series{Kernel: p.Kernel}
			by[p.Kernel] = s
			order = append(order, p.Kernel)
		}
		if n := len(s.Runs); n == 0 || s.Runs[n-1].Run != p.Run {
			s.Runs = append(s.Runs, RunValues{Run: p.Run, Labels: p.Labels})
		}
		r := &s.Runs[len(s.Runs)-1]
		r.Values = append(r.Values, p.Value)
	}
	out := make([]*Series, 0, len(order))
	for _, k := range order {
		s := by[k]
		detectChanges(s, metrics.Noisy(metric))
		out = append(out, s)
	}
	return out
}

func detectChanges(s *Series, isNoisy bool) {
	med := s.medians()
	add := func(i int, p float64, m stats.Method) {
		s.Changes = append(s.Changes, Change{Run: s.Runs[i].Run, From: med[i-1], To: med[i], Rel: stats.Rel(med[i-1], med[i]), P: p, Method: m})
	}
	if !isNoisy {
		s.Method = "exact: a hardware counter; a move of more than 1% between consecutive runs"
		for _, i := range stats.ChangePoints(med) {
			add(i, 0, stats.Exact)
		}
		return
	}
	th := stats.NoisyThresholds
	shifts, spread := th.LevelShifts(med)
	s.Spread = spread
	byIndex := map[int]stats.Shift{}
	for _, sh := range shifts {
		byIndex[sh.Index] = sh
	}
	var used []string
	uses := func(m string) {
		if !slices.Contains(used, m) {
			used = append(used, m)
		}
	}
	for i := 1; i < len(s.Runs); i++ {
		a, b := s.Runs[i-1].Values, s.Runs[i].Values
		if len(a) >= 3 && len(b) >= 3 {
			uses(fmt.Sprintf("launches: Mann-Whitney U over the launches of consecutive runs of 3 launches or more (p < %.2g, medians %.0f%% apart)", th.Alpha, th.MinRelChange*100))
			if changed, p, m := th.CompareRuns(a, b, spread); changed {
				add(i, p, m)
			}
			continue
		}
		if spread.Known() {
			uses(fmt.Sprintf("history: one launch per run, so levels are cut by least squares and each step is t-tested against the %s (p < %.2g over the %d positions, steps over %.0f%%)", spread, th.Alpha, len(med)-1, th.MinRelChange*100))
		} else {
			uses(fmt.Sprintf("floor: one launch per run and no run-to-run spread known yet (no level held by two runs): steps of more than %.0f%%", th.MinRelChange*100))
		}
		if sh, ok := byIndex[i]; ok {
			add(i, sh.P, sh.Method)
		}
	}
	s.Method = strings.Join(used, "; ")
	if s.Method == "" {
		s.Method = "a single run: nothing to compare"
	}
}

// source is where series come from: a run database.
type source interface {
	Trend(ctx context.Context, q store.TrendQuery) ([]store.Point, error)
}

// Spreads returns, for each noisy metric and each of the named kernels, the
// run-to-run spread of its stored series (as trend computes it): the noise
// that single launches are tested against.
//
// labels, when given, keep the runs having them: the history of one
// workload's runs, where runs of other programs share kernel names.
func Spreads(ctx context.Context, db source, kernels []string, metricNames []string, labels map[string]string) (map[string]map[string]stats.Spread, error) {
	ss, err := NoisySeries(ctx, db, kernels, metricNames, labels)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]stats.Spread{}
	for m, by := range ss {
		out[m] = map[string]stats.Spread{}
		for k, s := range by {
			out[m][k] = s.Spread
		}
	}
	return out, nil
}

// step is trend's decision on the step from run a to run b of the series,
// when b follows a in it and either has fewer than three launches (trend
// then cuts levels over the whole series, which a test of the two runs
// alone would not reproduce): changed at b or not, with trend's p and
// method. ok is false otherwise.
func (s *Series) step(a, b int64) (stats.Comparison, bool) {
	for i := 1; i < len(s.Runs); i++ {
		if s.Runs[i].Run != b {
			continue
		}
		if s.Runs[i-1].Run != a || len(s.Runs[i-1].Values) >= 3 && len(s.Runs[i].Values) >= 3 {
			return stats.Comparison{}, false
		}
		for _, c := range s.Changes {
			if c.Run == b {
				return stats.Comparison{Changed: true, P: c.P, Method: c.Method}, true
			}
		}
		m := stats.Floor
		if s.Spread.Known() {
			m = stats.History
		}
		return stats.Comparison{Method: m}, true
	}
	return stats.Comparison{}, false
}

// History reads what a diff of runs a and b (0 for an export) tests its
// kernels against: the run-to-run spreads of every noisy canonical metric
// of the named kernels (the new side's) and, when both sides are stored
// runs, their series (Stored), so that a step trend decided is decided
// the same way.
func History(ctx context.Context, db source, kernels []string, a, b int64) (map[string]map[string]stats.Spread, *Stored, error) {
	defNames := make([]string, len(metrics.Defs))
	for i, def := range metrics.Defs {
		defNames[i] = def.Name
	}
	series, err := NoisySeries(ctx, db, kernels, defNames, nil)
	if err != nil {
		return nil, nil, err
	}
	hist := map[string]map[string]stats.Spread{}
	for m, by := range series {
		hist[m] = map[string]stats.Spread{}
		for k, s := range by {
			hist[m][k] = s.Spread
		}
	}
	if a == 0 || b == 0 {
		return hist, nil, nil
	}
	return hist, &Stored{A: a, B: b, Series: series}, nil
}

// NoisySeries returns, for each noisy metric and each of the named
// kernels, its stored series with its change points, as trend builds it,
// over the runs having labels (all runs when nil).
func NoisySeries(ctx context.Context, db source, kernels []string, metricNames []string, labels map[string]string) (map[string]map[string]*Series, error) {
	out := map[string]map[string]*Series{}
	if len(kernels) == 0 {
		return out, nil
	}
	q := make([]string, len(kernels))
	for i, n := range kernels {
		q[i] = regexp.QuoteMeta(n)
	}
	re := regexp.MustCompile("^(?:" + strings.Join(q, "|") + ")$")
	for _, m := range metricNames {
		if !metrics.Noisy(m) {
			continue
		}
		pts, err := db.Trend(ctx, store.TrendQuery{Kernel: re, Metric: m, Labels: labels})
		if err != nil {
			return nil, err
		}
		out[m] = map[string]*Series{}
		for _, s := range Build(pts, m) {
			out[m][s.Kernel] = s
		}
	}
	return out, nil
}
