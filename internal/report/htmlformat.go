package report

import (
	"io"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/report/html"
)

// htmlFormat renders verdicts as one self-contained page (profan report adds
// trends from a run database). Launches are grouped as they come: the page
// has one card per kernel, whatever the number of launches.
var htmlFormat = &Format{Name: "html",
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

func (h *htmlWriter) End(runs []*profan.Run) error {
	h.timelines.feed(h.groups, runs)
	for i, tl := range h.tls {
		h.rep.Timelines = append(h.rep.Timelines, html.Timeline{Source: h.runs[i].Source, T: tl})
	}
	h.rep.HostCalls = HostCalls(runs)
	SetKernels(h.rep, h.groups)
	return html.Write(h.w, h.rep)
}

// HostCalls are the host-call lines of runs, as the text report states
// them, for the runs that have any.
func HostCalls(runs []*profan.Run) []html.HostCalls {
	var out []html.HostCalls
	for _, r := range runs {
		if ls := hostCallLines(r); len(ls) > 0 {
			out = append(out, html.HostCalls{Source: r.Source, Lines: ls})
		}
	}
	return out
}
