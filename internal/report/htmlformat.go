package report

import (
	"io"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/report/html"
	"github.com/profan-dev/profan/internal/verdict"
)

// htmlFormat renders verdicts as one self-contained page (profan report adds
// trends from a run database). Launches are grouped as they come: the page
// has one card per kernel, whatever the number of launches.
var htmlFormat = &Format{Name: "html",
	Kernels: func(w io.Writer, opt Options) Writer {
		return &htmlWriter{w: w, rep: &html.Report{Title: opt.Title}}
	}}

type htmlWriter struct {
	w   io.Writer
	rep *html.Report
}

func (h *htmlWriter) Kernel(*verdict.Kernel) error { return nil }

func (h *htmlWriter) End(v *verdict.Verdict) error {
	SetVerdict(h.rep, v)
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
