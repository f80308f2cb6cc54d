package cli

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
)

// RuleTable renders the rule registry as the Markdown table of docs/reference.md.
func RuleTable() string {
	var b strings.Builder
	b.WriteString("| rule | severity | what it finds | needs |\n|---|---|---|---|\n")
	for _, r := range rules.All {
		needs := r.Needs()
		if r.CheckRun != nil {
			needs = "host transfers (nvprof gpu-trace, API summary)"
		}
		if r.CheckApp != nil {
			needs = "application: " + needs
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.ID, r.Severity, r.Title, needs)
	}
	return b.String()
}

// MetricTable renders the canonical metrics as the Markdown table of docs/reference.md.
func MetricTable() string {
	var b strings.Builder
	b.WriteString("| metric | unit | better | meaning | ncu source | nvprof source |\n|---|---|---|---|---|---|\n")
	for _, d := range metrics.Defs {
		better := map[int]string{1: "higher", -1: "lower", 0: ""}[d.Better]
		unit := d.Unit
		if unit == "" {
			unit = "1"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", d.Name, unit, better,
			strings.ReplaceAll(d.Doc, "|", "\\|"), strings.ReplaceAll(d.NCU, "|", "\\|"), strings.ReplaceAll(d.Nvprof, "|", "\\|"))
	}
	return b.String()
}
