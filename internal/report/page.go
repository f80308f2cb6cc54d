package report

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/report/html"
	"github.com/profan-dev/profan/internal/verdict"
)

// maxTrendPoints bounds the points of one trend chart: the newest runs.
const maxTrendPoints = 1000

// TrendOptions say how trend charts place their runs.
type TrendOptions struct {
	// Runs are the stored runs, oldest first: a run between a series'
	// first and last that lacks the metric is a gap in its chart, not a
	// step the axis hides. Nil places the series' own runs only.
	Runs []Run
	// XLabel is the label key whose value names each run on the x axis;
	// empty names runs by ID.
	XLabel string
}

// TrendCharts are the charts of a metric's series that span two runs or
// more, each with its change points and their steps as trend states them,
// judged in the metric's better direction; a long series keeps its newest
// maxTrendPoints runs.
func TrendCharts(ss []*Series, metric, unit string, opt TrendOptions) []html.Trend {
	better := 0
	if d, ok := metrics.ByName(metric); ok {
		better = d.Better
	}
	var out []html.Trend
	for _, s := range ss {
		if len(s.Runs) < 2 {
			continue
		}
		t := html.Trend{Kernel: s.Kernel, Metric: metric, Unit: unit, Method: s.Method, XTitle: "run"}
		if opt.XLabel != "" {
			t.XTitle = opt.XLabel
		}
		changed := map[int64]Change{}
		for _, c := range s.Changes {
			changed[c.Run] = c
		}
		// The runs the chart spans: the series' own, and the stored runs
		// between its first and last that lack the metric.
		type slot struct {
			run    int64
			labels map[string]string
			value  *RunValue
		}
		var slots []slot
		first, last := s.Runs[0].Run, s.Runs[len(s.Runs)-1].Run
		k := 0
		for _, r := range opt.Runs {
			if r.ID < first || r.ID > last {
				continue
			}
			for k < len(s.Runs) && s.Runs[k].Run < r.ID {
				slots = append(slots, slot{s.Runs[k].Run, s.Runs[k].Labels, &s.Runs[k]})
				k++
			}
			if k < len(s.Runs) && s.Runs[k].Run == r.ID {
				slots = append(slots, slot{r.ID, s.Runs[k].Labels, &s.Runs[k]})
				k++
				continue
			}
			slots = append(slots, slot{r.ID, r.Labels, nil})
		}
		for ; k < len(s.Runs); k++ {
			slots = append(slots, slot{s.Runs[k].Run, s.Runs[k].Labels, &s.Runs[k]})
		}
		if len(slots) > maxTrendPoints {
			t.Metric += fmt.Sprintf(" (newest %d of %d runs)", maxTrendPoints, len(slots))
			slots = slots[len(slots)-maxTrendPoints:]
		}
		for i, sl := range slots {
			p := html.TrendPoint{Run: sl.run, Value: math.NaN()}
			if opt.XLabel != "" {
				if v, ok := sl.labels[opt.XLabel]; ok {
					p.Label = v
				}
			}
			if sl.value != nil {
				p.Value = sl.value.Value
			}
			t.Points = append(t.Points, p)
			if c, ok := changed[sl.run]; ok && i > 0 {
				t.ChangePoints = append(t.ChangePoints, i)
				t.Steps = append(t.Steps, html.TrendStep{Rel: c.Rel, Verdict: stepVerdict(better, c.From, c.To)})
			}
		}
		out = append(out, t)
	}
	return out
}

// stepVerdict judges a step in the metric's better direction: "better",
// "worse", or "" for a metric without one.
func stepVerdict(better int, from, to float64) string {
	switch {
	case better == 0 || from == to:
		return ""
	case (to > from) == (better > 0):
		return "better"
	}
	return "worse"
}

// SetVerdict puts a verdict on the page: the runs' timelines and host
// calls, then the groups when there were several launches (with the
// application's reading, as the text states it), else the one kernel's
// card.
func SetVerdict(rep *html.Report, v *verdict.Verdict) {
	for _, t := range v.Timelines {
		rep.Timelines = append(rep.Timelines, html.Timeline{Source: t.Run.Source, T: t.Timeline})
	}
	rep.HostCalls = HostCalls(v.Runs)
	rep.Notes, rep.InUse = notesUpFront(v, false), inUseLines(v.App)
	for _, r := range v.Runs {
		for _, f := range r.Findings {
			rep.RunFindings = append(rep.RunFindings, html.RunFinding{Source: r.Source, Rule: f.Rule, Severity: f.Severity.String(), Gain: gainText(f.Gain), Message: f.Message, Advice: f.Advice})
		}
	}
	switch gs := v.Groups; {
	case v.Launches > 1:
		rep.Groups = gs
		app := v.App
		if len(app.Categories) > 1 {
			for _, c := range app.Categories {
				rep.Categories = append(rep.Categories, html.CategoryRow{Share: metrics.ShareText(c.Share), ShareWidth: fmt.Sprintf("%.1f%%", 100*c.Share),
					Launches: c.Launches, Kernels: len(c.Groups), Category: c.Category.String(), LimitedBy: categoryLimiter(c)})
			}
		}
		for _, r := range app.Recommendations {
			rep.Changes = append(rep.Changes, html.ChangeRow{Rule: r.Rule, Gain: v.GainText(r), Message: r.Message, Fix: r.Fix, ActsOn: recGroups(r, maxRecommendationGroups)})
		}
		rep.Gain = capitalize(v.Together())
	case len(gs) == 1:
		rep.Kernels = []*verdict.Kernel{gs[0].Rep}
	}
}
