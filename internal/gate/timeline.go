package gate

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// timelineMetrics are the run-level figures of a trace's timeline that a
// condition may name ('gpu_busy >= 80%'): shares of the wall span, 0–1.
var timelineMetrics = map[string]string{
	"gpu_busy":    "the GPU's busy share of the wall span (kernels, copies, memsets)",
	"idle":        "the idle share of the wall span",
	"idle_launch": "the launch-bound idle share",
	"idle_sync":   "the idle share after host synchronisations",
	"idle_copy":   "the idle share during host copy calls",
	"idle_queued": "the idle share with work already queued",
	"idle_other":  "the idle share no host call explains",
	"idle_data":   "the idle share while the host loaded data (a DataLoader iterator)",
	"idle_python": "the idle share while the host ran the user's Python",
	"idle_alloc":  "the idle share while the host was in cudaMalloc or cudaFree",
}

// IsTimelineMetric reports a metric of the timeline, not of a kernel.
func IsTimelineMetric(name string) bool {
	_, ok := timelineMetrics[name]
	return ok
}

// TimelineMetricNames lists them, sorted.
func TimelineMetricNames() []string {
	var out []string
	for n := range timelineMetrics {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// timelineValue is a timeline's figure for metric.
func timelineValue(tl *analysis.Timeline, metric string) float64 {
	switch metric {
	case "gpu_busy":
		return tl.BusyShare
	case "idle":
		return 1 - tl.BusyShare
	}
	return tl.IdleOf(strings.TrimPrefix(metric, "idle_")).Share
}

// timelineChecks checks a condition on a timeline figure, once per run
// that has a timeline.
func timelineChecks(c Condition, runs []*analysis.RunVerdict, skipMissing bool) ([]Check, error) {
	var out []Check
	for _, v := range runs {
		if v.Timeline == nil {
			continue
		}
		x := timelineValue(v.Timeline, c.Metric)
		ch := Check{Kind: kindRequire, Name: c.Text, Source: v.Run.Source, Measure: newMeasure(c.Metric)}
		ch.Measure.Unit, ch.Measure.New, ch.Measure.Op, ch.Measure.Threshold = "ratio", x, c.Op, c.Value
		ch.Status = statusPass
		if !c.holds(x) {
			ch.Status = statusFail
		}
		ch.Message = fmt.Sprintf("%s %s of the wall span %s (%s): %s", c.Metric, metrics.ShareText(x), metrics.Format(v.Timeline.Span, "s"), timelineMetrics[c.Metric], idleText(v.Timeline))
		out = append(out, ch)
	}
	if len(out) == 0 && !skipMissing {
		return nil, &MissingMetricError{Condition: c}
	}
	return out, nil
}

// idleText is a timeline's idle time by cause, in one line.
func idleText(tl *analysis.Timeline) string {
	var parts []string
	for _, i := range tl.Idle {
		parts = append(parts, fmt.Sprintf("%s %s", verdict.IdleLabel(i.Cause), metrics.ShareText(i.Share)))
	}
	if len(parts) == 0 {
		return "no idle time"
	}
	return "idle " + strings.Join(parts, ", ")
}

// idleRegressions compares each run's timeline with the baseline's: the
// GPU busy share may fall by at most maxReg of itself (a regression of the
// idle time), the causes that grew are named.
func idleRegressions(base *analysis.Timeline, runs []*analysis.RunVerdict, maxReg float64) []Check {
	var out []Check
	for _, v := range runs {
		tl := v.Timeline
		if tl == nil {
			continue
		}
		ch := Check{Kind: kindRegression, Name: "gpu_busy", Source: v.Run.Source, Measure: newMeasure("gpu_busy")}
		m := ch.Measure
		m.Unit, m.Old, m.New, m.Threshold = "ratio", base.BusyShare, tl.BusyShare, maxReg
		m.OldSpan, m.NewSpan = base.Span, tl.Span
		if base.BusyShare > 0 {
			m.Delta = (tl.BusyShare - base.BusyShare) / base.BusyShare
		}
		ch.Status = statusPass
		if base.BusyShare > 0 && exceeds((base.BusyShare-tl.BusyShare)/base.BusyShare, maxReg) {
			ch.Status = statusFail
		}
		var grew []string
		for _, cause := range verdict.IdleCauses {
			o, n := base.IdleOf(cause).Share, tl.IdleOf(cause).Share
			if n-o > 0.005 {
				grew = append(grew, fmt.Sprintf("%s %s → %s", verdict.IdleLabel(cause), metrics.ShareText(o), metrics.ShareText(n)))
			}
		}
		ch.Message = fmt.Sprintf("GPU busy %s → %s of the wall span (%s → %s; at most %.0f%% less allowed)", metrics.ShareText(base.BusyShare),
			metrics.ShareText(tl.BusyShare), metrics.Format(base.Span, "s"), metrics.Format(tl.Span, "s"), maxReg*100)
		if len(grew) > 0 {
			ch.Message += "; idle grew: " + strings.Join(grew, ", ")
		}
		if math.IsNaN(m.Delta) {
			m.Delta = 0
		}
		out = append(out, ch)
	}
	return out
}
