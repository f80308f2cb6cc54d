package report

import (
	"fmt"

	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/history"
	"github.com/profan-dev/profan/report/html"
)

// MaxTrendPoints bounds the points of one trend chart: the newest runs.
const MaxTrendPoints = 1000

// TrendCharts are the charts of a metric's series that span two runs or
// more, each with its change points; a long series keeps its newest
// MaxTrendPoints runs.
func TrendCharts(ss []*history.Series, metric, unit string) []html.Trend {
	var out []html.Trend
	for _, s := range ss {
		if len(s.Runs) < 2 {
			continue
		}
		t := html.Trend{Kernel: s.Kernel, Metric: metric, Unit: unit, Method: s.Method}
		changed := map[int64]bool{}
		for _, c := range s.Changes {
			changed[c.Run] = true
		}
		runs := s.Runs
		if len(runs) > MaxTrendPoints {
			runs = runs[len(runs)-MaxTrendPoints:]
			t.Metric += fmt.Sprintf(" (newest %d of %d runs)", MaxTrendPoints, len(s.Runs))
		}
		for i, r := range runs {
			t.Points = append(t.Points, html.TrendPoint{Run: r.Run, Label: LabelText(r.Labels), Value: r.Median()})
			if changed[r.Run] {
				t.ChangePoints = append(t.ChangePoints, i)
			}
		}
		out = append(out, t)
	}
	return out
}

// SetKernels puts the grouped launches on the page: the groups when there
// were several launches, else the one kernel's card.
func SetKernels(rep *html.Report, groups *analysis.Grouper) {
	switch gs := groups.Groups(); {
	case groups.Launches() > 1:
		rep.Groups = gs
	case len(gs) == 1:
		rep.Kernels = []*analysis.Kernel{gs[0].Rep}
	}
}
