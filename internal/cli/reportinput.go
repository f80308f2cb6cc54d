package cli

import (
	"github.com/profan-dev/profan/internal/compare"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/store"
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
		Message: c.Message, Source: c.Source, Finding: c.Finding, Locations: c.Locations}
	if m := c.Measure; m != nil {
		rc.Measure = &report.GateMeasure{Metric: m.Metric, Unit: m.Unit, Old: m.Old, New: m.New, Delta: m.Delta, Op: string(m.Op),
			Threshold: m.Threshold, Test: m.Test, P: m.P}
	}
	return rc
}
