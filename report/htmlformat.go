package report

import (
	"io"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/report/html"
)

// HTML renders verdicts as one self-contained page (profan report adds
// trends from a run database).
var HTML = &Format{Name: "html",
	Kernels: func(w io.Writer, opt Options) Writer { return &htmlWriter{w: w, rep: &html.Report{Title: opt.Title}} }}

type htmlWriter struct {
	w   io.Writer
	rep *html.Report
}

func (h *htmlWriter) Kernel(a *analysis.Kernel) error {
	h.rep.Kernels = append(h.rep.Kernels, a)
	return nil
}

func (h *htmlWriter) End([]*profan.Run) error { return html.Write(h.w, h.rep) }
