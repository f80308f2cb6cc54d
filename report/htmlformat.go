package report

import (
	"fmt"
	"io"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/report/html"
)

// HTML renders verdicts as one self-contained page (profan report adds
// trends from a run database). Launches are grouped as they come: the page
// has one card per kernel, whatever the number of launches.
var HTML = &Format{Name: "html",
	Kernels: func(w io.Writer, opt Options) Writer {
		return &htmlWriter{w: w, rep: &html.Report{Title: opt.Title}, groups: opt.grouper(false)}
	}}

type htmlWriter struct {
	timelines
	w      io.Writer
	rep    *html.Report
	groups *analysis.Grouper
}

func (h *htmlWriter) Kernel(a *analysis.Kernel) error {
	h.groups.Add(a)
	return nil
}

func (h *htmlWriter) End([]*profan.Run) error {
	for i, tl := range h.tls {
		h.rep.Timelines = append(h.rep.Timelines, html.Timeline{Source: h.runs[i].Source, T: tl})
	}
	switch gs := h.groups.Groups(); {
	case h.groups.Launches() > 1:
		h.rep.Groups = gs
		app := h.groups.App()
		if len(app.Categories) > 1 {
			for _, c := range app.Categories {
				h.rep.Categories = append(h.rep.Categories, html.CategoryRow{Share: metrics.ShareText(c.Share), ShareWidth: fmt.Sprintf("%.1f%%", 100*c.Share),
					Launches: c.Launches, Kernels: len(c.Groups), Category: c.Category.String(), LimitedBy: categoryLimiter(c)})
			}
		}
		for _, r := range app.Recommendations {
			h.rep.Changes = append(h.rep.Changes, html.ChangeRow{Rule: r.Rule, Gain: recGain(r), Message: r.Message, Fix: r.Fix, ActsOn: recGroups(r, MaxRecommendationGroups)})
		}
		h.rep.Gain = metrics.ShareText(app.Gain)
	case len(gs) == 1:
		h.rep.Kernels = []*analysis.Kernel{gs[0].Rep}
	}
	return html.Write(h.w, h.rep)
}
