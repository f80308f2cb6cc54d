// Package report renders verdicts and gate results for people and
// programs. Every output format (text, json, markdown, html, junit, sarif,
// github) is one file declaring a Format, listed in registry; the JSON
// contract's types live here. Verdict writers stream: each kernel is
// written as soon as it is analysed, so a large export never sits in
// memory.
package report

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/rules"
)

// Writer receives analysed kernels one at a time.
type Writer interface {
	Kernel(a *analysis.Kernel) error
	// End is called once after every run was read, with the runs' headers.
	End(runs []*profan.Run) error
}

// Options control rendering.
type Options struct {
	Color   bool // ANSI color (text only)
	Verbose bool // show skipped rules and every canonical metric
	// Top is how many groups of launches get their details after the
	// summary table; 0 shows every group.
	Top int
	// Launches lists every launch in the formats that summarise by group
	// (JSON, Markdown); without it they list each group's representative.
	Launches bool
	// Version is profan's version, for formats that name their tool
	// (SARIF).
	Version string
	// Title heads formats that have one (HTML).
	Title string
	// Recommender gives the application recommendations (the selected
	// application rules); nil: every rule with the default thresholds.
	Recommender analysis.Recommender
}

// grouper returns a grouper that recommends with opt's rules.
func (opt Options) grouper(keepIDs bool) *analysis.Grouper {
	gr := analysis.NewGrouper(keepIDs)
	gr.Recommender = opt.Recommender
	if gr.Recommender == nil {
		e, _ := rules.NewEngine("")
		gr.Recommender = e
	}
	return gr
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dim renders a shape or "?".
func dim(d profan.Dim3) string {
	if !d.Known() {
		return "?"
	}
	return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2])
}

// gainText renders an estimated gain.
func gainText(g float64) string {
	if !finite(g) {
		return "gain unknown"
	}
	return fmt.Sprintf("est. gain %.0f%% of kernel time", g*100)
}
