package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/metrics"
)

// markdownWriter writes one table row per kernel, then the findings; it
// suits pull-request comments and CI job summaries.
type markdownWriter struct {
	w        *bufio.Writer
	n        int
	findings []string
}

func newMarkdown(w io.Writer) *markdownWriter { return &markdownWriter{w: bufio.NewWriter(w)} }

func mdEscape(s string) string {
	r := strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;", "*", "\\*", "_", "\\_", "`", "\\`", "\n", " ")
	return r.Replace(s)
}

func (m *markdownWriter) Kernel(a *analysis.Kernel) error {
	if m.n == 0 {
		if note := a.GPU.Note(); note != "" {
			m.w.WriteString("> " + mdEscape(note) + "\n\n")
		}
		m.w.WriteString("| kernel | id | duration | gld sectors/req | gst sectors/req | shared ways | DRAM % peak | findings |\n")
		m.w.WriteString("|---|---|---:|---:|---:|---:|---:|---|\n")
	}
	m.n++
	cell := func(x *analysis.Access) string {
		if x == nil {
			return ""
		}
		return fmt.Sprintf("%.2f (ideal %.2f)", x.SectorsPerRequest, x.IdealSectorsPerRequest)
	}
	dur, peak := "", ""
	if d, ok := a.Value("duration"); ok {
		dur = metrics.Format(d, "s")
	}
	if p, ok := a.Value("dram_peak_pct"); ok {
		peak = fmt.Sprintf("%.1f%%", p)
	}
	shared := ""
	if x := a.Model.Shared(); x != nil {
		shared = fmt.Sprintf("%.2f", x.Pattern.Ways)
	}
	var rules []string
	for _, f := range a.Findings {
		rules = append(rules, "`"+f.Rule+"`")
		loc := ""
		if len(f.Locations) > 0 {
			loc = " (" + mdEscape(location(f.Locations[0])) + ")"
		}
		m.findings = append(m.findings, fmt.Sprintf("- **%s** `%s`%s, %s: %s %s", mdEscape(shorten(a.K.DisplayName(), 60)), f.Rule, loc, gainText(f.Gain), mdEscape(f.Message), mdEscape(f.Advice)))
	}
	fmt.Fprintf(m.w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(shorten(a.K.DisplayName(), 80)), mdEscape(a.K.ID), dur,
		cell(a.Model.GlobalLoad), cell(a.Model.GlobalStore), shared, peak, strings.Join(rules, " "))
	return nil
}

func (m *markdownWriter) End(runs []*profan.Run) error {
	if m.n == 0 {
		m.w.WriteString("No kernels.\n")
	}
	if len(m.findings) > 0 {
		m.w.WriteString("\n### Findings\n\n")
		for _, f := range m.findings {
			m.w.WriteString(f + "\n")
		}
	}
	return m.w.Flush()
}
