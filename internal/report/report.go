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
	"github.com/profan-dev/profan/internal/verdict"
)

// Writer renders a verdict. The analysis makes the verdict once
// (verdict.Builder) and every format renders that value: a writer groups
// nothing and runs no rule, so no two formats can disagree.
type Writer interface {
	// Kernel receives each launch's verdict as it is made, before End:
	// a format that lists every launch (JSON with --launches) writes it
	// at once; the others ignore it.
	Kernel(a *verdict.Kernel) error
	// End renders the finished verdict, once every run was read.
	End(v *verdict.Verdict) error
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
	// Rules are the rules' descriptions, for formats that list them
	// (SARIF's driver rules): the CLI gives the registry's.
	Rules []RuleDoc
	// Cause is the limit a rule's findings are about, for the formats
	// that shorten a fix repeated within one cause to "as above"; nil:
	// each rule is a cause of its own.
	Cause func(rule string) string
}

// RuleDoc is what a format says of a rule: its ID, title, text and
// severity.
type RuleDoc struct {
	ID, Title, Text string
	Severity        profan.Severity
}

// cause is opt.Cause(rule), or rule.
func (opt Options) cause(rule string) string {
	if opt.Cause == nil {
		return rule
	}
	return opt.Cause(rule)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// dim renders a shape or "?".
func dim(d profan.Dim3) string {
	if !d.Known() {
		return "?"
	}
	return fmt.Sprintf("(%d,%d,%d)", d[0], d[1], d[2])
}

// capitalize upper-cases s's first letter (ASCII).
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// gainText renders an estimated gain.
func gainText(g float64) string {
	if !finite(g) {
		return "gain unknown"
	}
	return fmt.Sprintf("est. gain %.0f%% of kernel time", g*100)
}
