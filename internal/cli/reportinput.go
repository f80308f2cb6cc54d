package cli

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan/internal/compare"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/store"
	"github.com/profan-dev/profan/internal/verdict"
)

// What compare and gate computed, as the values report renders: report
// decides nothing and imports neither.

// mapped is f of each of xs; nil for nil, so that JSON writes null where
// it did, [] where it did.
func mapped[T, U any](xs []T, f func(T) U) []U {
	if xs == nil {
		return nil
	}
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// reportTrend is the trend of metric over the stored points pts.
func reportTrend(metric, unit string, pts []store.Point) *report.Trend {
	return &report.Trend{Metric: metric, Unit: unit, Series: reportSeries(compare.Build(pts, metric)),
		Points: mapped(pts, func(p store.Point) report.Point {
			return report.Point{Run: p.Run, Labels: p.Labels, Kernel: p.Kernel, Launch: p.Launch, Value: p.Value}
		})}
}

func reportSeries(ss []*compare.Series) []*report.Series {
	return mapped(ss, func(s *compare.Series) *report.Series {
		return &report.Series{Kernel: s.Kernel, Method: s.Method,
			Runs: mapped(s.Runs, func(r compare.RunValues) report.RunValue {
				return report.RunValue{Run: r.Run, Labels: r.Labels, Launches: len(r.Values), Value: r.Median()}
			}),
			Changes: mapped(s.Changes, func(c compare.Change) report.Change {
				return report.Change{Run: c.Run, From: c.From, To: c.To, Rel: c.Rel, P: c.P, Method: c.Method}
			})}
	})
}

// reportDiff is the diff of a and b, named nameA and nameB (their run
// IDs, 0 for an export file): the kernels compare.Kernels kept and its
// summary.
func reportDiff(a, b int64, nameA, nameB string, ks []compare.KernelDiff, s compare.Summary) *report.Diff {
	return &report.Diff{A: a, B: b, NameA: nameA, NameB: nameB, Kernels: mapped(ks, reportKernelDiff),
		Summary: report.DiffSummary{KernelsA: s.KernelsA, KernelsB: s.KernelsB, Shared: s.Shared, Unchanged: s.Unchanged,
			TotalA: s.TotalA, TotalB: s.TotalB, Geomean: s.Geomean, Timed: s.Timed}}
}

func reportKernelDiff(k compare.KernelDiff) report.KernelDiff {
	return report.KernelDiff{Kernel: k.Kernel, Status: string(k.Status), LaunchesA: k.LaunchesA, LaunchesB: k.LaunchesB,
		Appeared: k.Appeared, Gone: k.Gone,
		Metrics: mapped(k.Metrics, func(m compare.MetricDelta) report.MetricDelta {
			return report.MetricDelta{Metric: m.Metric, Unit: m.Unit, Better: m.Better, A: m.A, B: m.B, NA: m.NA, NB: m.NB,
				SpreadA: m.SpreadA, SpreadB: m.SpreadB, Rel: m.Rel, Verdict: string(m.Verdict), Test: m.Test, P: m.P, History: m.History}
		}),
		Missing: mapped(k.Missing, func(m compare.MissingMetric) report.MissingMetric {
			return report.MissingMetric{Metric: m.Metric, In: m.In}
		})}
}

// reportGate is a gate's result with the baseline it compared with.
func reportGate(r *gate.Result) *report.GateResult {
	out := &report.GateResult{Failed: r.Failed, Checks: mapped(r.Checks, reportCheck)}
	if b := r.Baseline; b != nil {
		out.Baseline = &report.GateBaseline{Run: b.Run, Labels: b.Labels, Program: b.Program, Missing: b.Missing}
	}
	return out
}

func reportCheck(c gate.Check) report.GateCheck {
	rc := report.GateCheck{Kernel: c.Kernel, Launch: c.Launch, Kind: string(c.Kind), Name: c.Name, Status: string(c.Status),
		Message: c.Message, Source: c.Source, Finding: c.Finding, Locations: c.Locations, Headroom: c.Headroom}
	if m := c.Measure; m != nil {
		rc.Measure = &report.GateMeasure{Metric: m.Metric, Unit: m.Unit, Old: m.Old, New: m.New, Delta: m.Delta, Op: string(m.Op),
			Threshold: m.Threshold, Test: m.Test, P: m.P, OldSpan: m.OldSpan, NewSpan: m.NewSpan}
	}
	return rc
}

// diffStep is what moved in the step as a whole between two sides'
// verdicts: the wall, busy share and kernel time, the idle time by cause,
// the kernel time by category, and the changes advised on each side.
// stepWall is the wall per step of two traces that each mark two steps
// or more, tested as a kernel's launches are (stats.CompareRuns: a
// Mann-Whitney U test with three steps or more a side, else the 5%
// floor); nil else.
func stepWall(a, b *verdict.Verdict) *report.StepWall {
	if len(a.Timelines) == 0 || len(b.Timelines) == 0 {
		return nil
	}
	ta, tb := a.Timelines[0].Timeline, b.Timelines[0].Timeline
	xa, xb := ta.StepWalls, tb.StepWalls
	if len(xa) < 2 || len(xb) < 2 {
		return nil
	}
	c := stats.CompareMetric(true, xa, xb, stats.Spread{}, stats.NoisyThresholds.MinRelChange)
	// The step's wall as analyze, report and gate say it.
	w := &report.StepWall{A: ta.WallPerStep(), B: tb.WallPerStep(), SpreadA: compare.HalfRange(xa), SpreadB: compare.HalfRange(xb),
		NA: len(xa), NB: len(xb), Changed: c.Changed, Test: c.Method, P: c.P}
	if ba, bb := a.Timelines[0].Timeline.StepBusy, b.Timelines[0].Timeline.StepBusy; len(ba) == len(xa) && len(bb) == len(xb) {
		c := stats.CompareMetric(true, ba, bb, stats.Spread{}, stats.NoisyThresholds.MinRelChange)
		w.Busy = &report.StepShare{A: stats.Median(ba), B: stats.Median(bb), SpreadA: compare.HalfRange(ba), SpreadB: compare.HalfRange(bb),
			Changed: c.Changed, Test: c.Method, P: c.P}
	}
	return w
}

func diffStep(a, b *verdict.Verdict) *report.DiffStep {
	if a == nil || b == nil {
		return nil
	}
	s := &report.DiffStep{KernelA: a.Total, KernelB: b.Total, LaunchesA: a.Launches, LaunchesB: b.Launches}
	idle := func(v *verdict.Verdict, wall, busy *float64) map[string]float64 {
		out := map[string]float64{}
		ts := v.Timelines
		if len(ts) == 0 {
			return out
		}
		tl := ts[0].Timeline
		*wall, *busy = tl.Span, tl.BusyShare
		for _, i := range tl.Idle {
			out[verdict.IdleLabel(i.Cause)] += i.Seconds
		}
		return out
	}
	s.Causes = moves(idle(a, &s.WallA, &s.BusyA), idle(b, &s.WallB, &s.BusyB))
	s.StepWall = stepWall(a, b)
	cats := func(v *verdict.Verdict) map[string]float64 {
		out := map[string]float64{}
		if v.App != nil {
			for _, c := range v.App.Categories {
				out[c.Category.String()] += c.Duration
			}
		}
		return out
	}
	s.Categories = moves(cats(a), cats(b))
	// perStep: both sides mark their steps, and the gains are said a step.
	perStep := a.Steps() > 0 && b.Steps() > 0
	gains := func(v *verdict.Verdict) (map[string]float64, map[string]float64) {
		out, step := map[string]float64{}, map[string]float64{}
		if v.App != nil {
			for _, r := range v.App.Recommendations {
				g := v.GainOf(r)
				out[r.Rule], step[r.Rule] = g.Seconds, g.PerStep()
			}
		}
		return out, step
	}
	ga, sa := gains(a)
	gb, sb := gains(b)
	inUse := map[string]bool{}
	if b.App != nil {
		for _, u := range b.App.InUse {
			inUse[u.Rule] = true
		}
	}
	var rules []string
	for _, v := range []*verdict.Verdict{a, b} {
		if v.App == nil {
			continue
		}
		for _, r := range v.App.Recommendations {
			if !slices.Contains(rules, r.Rule) {
				rules = append(rules, r.Rule)
			}
		}
	}
	for _, r := range rules {
		m := report.LeverMove{Rule: r, InUse: inUse[r]}
		if g, ok := ga[r]; ok {
			m.A = &g
		}
		if g, ok := gb[r]; ok {
			m.B = &g
		}
		if g, ok := sa[r]; ok && perStep {
			m.StepA = &g
		}
		if g, ok := sb[r]; ok && perStep {
			m.StepB = &g
		}
		s.Levers = append(s.Levers, m)
	}
	return s
}

// moves pairs two sides' seconds by name, the largest move first.
func moves(a, b map[string]float64) []report.StepMove {
	var out []report.StepMove
	for n, x := range a {
		out = append(out, report.StepMove{Name: n, A: x, B: b[n]})
	}
	for n, x := range b {
		if _, ok := a[n]; !ok {
			out = append(out, report.StepMove{Name: n, B: x})
		}
	}
	slices.SortFunc(out, func(x, y report.StepMove) int {
		dx, dy := math.Abs(x.B-x.A), math.Abs(y.B-y.A)
		if dx != dy {
			return cmp.Compare(dy, dx)
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out
}
