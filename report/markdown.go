package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/metrics"
	"github.com/profan-dev/profan/rules"
)

// markdownWriter writes one table row per kernel, then the findings; it
// suits pull-request comments and CI job summaries.
type markdownWriter struct {
	timelines
	w        *bufio.Writer
	n        int
	findings []string
	top      int
	groups   *analysis.Grouper
}

func newMarkdown(w io.Writer, opt Options) *markdownWriter {
	return &markdownWriter{w: bufio.NewWriter(w), top: opt.Top, groups: analysis.NewGrouper(false)}
}

// mdEscape makes text from an export or a database inert in Markdown:
// no table cell ends, no emphasis, no HTML, and no link, image or
// autolink ("[l](javascript:…)", "https://…", "www.…") is live.
func mdEscape(s string) string {
	return mdReplacer.Replace(s)
}

var mdReplacer = strings.NewReplacer("\\", "\\\\", "|", "\\|", "<", "&lt;", ">", "&gt;", "&", "&amp;", "*", "\\*", "_", "\\_", "`", "\\`",
	"[", "\\[", "]", "\\]", "!", "\\!", "~", "\\~", "://", "\\:\\/\\/", "www.", "www\\.", "\n", " ", "\r", " ")

func (m *markdownWriter) Kernel(a *analysis.Kernel) error {
	m.groups.Add(a)
	return nil
}

// kernel writes one launch's row, as a capture of one launch reads.
func (m *markdownWriter) kernel(a *analysis.Kernel) {
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
}

// summary writes the group table, then the findings of the top groups,
// each group's once.
func (m *markdownWriter) summary() {
	gs := m.groups.Groups()
	if len(gs) == 0 {
		return
	}
	if len(gs) == 1 && gs[0].Launches == 1 {
		m.kernel(gs[0].Rep)
		return
	}
	m.n = len(gs)
	total := m.groups.Total()
	fmt.Fprintf(m.w, "%d launches of %s", m.groups.Launches(), kernels(len(gs)))
	if total > 0 {
		fmt.Fprintf(m.w, ", %s of kernel time", metrics.Format(total, "s"))
	}
	m.w.WriteString(".\n\n")
	seen := map[string]bool{}
	for _, g := range gs {
		// The GPU assumed for a capture that does not name it, once, up front.
		if note := g.Rep.GPU.Note(); note != "" && !seen[note] {
			seen[note] = true
			m.w.WriteString("> " + mdEscape(note) + "\n\n")
		}
	}
	m.w.WriteString("| # | share | launches | total | mean | kernel | top finding |\n|---:|---:|---:|---:|---:|---|---|\n")
	rows := tableRows(gs, m.top)
	for i, g := range rows {
		top := ""
		if t := topFinding(g); t != "" {
			top = "`" + g.Findings[0].Rule + "`" + strings.TrimPrefix(t, g.Findings[0].Rule)
		}
		fmt.Fprintf(m.w, "| %d | %s | %d | %s | %s | %s | %s |\n", i+1, metrics.ShareText(g.Share), g.Launches,
			durText(g.Duration, g.Timed), durText(g.Mean(), g.Timed), mdEscape(middle(g.Info.Display, 80)), top)
	}
	if rest := len(gs) - len(rows); rest > 0 {
		fmt.Fprintf(m.w, "\n%d more kernels not listed.\n", rest)
	}
	for i, g := range detailed(gs, m.top) {
		said := map[string]string{} // advice given → its cause
		for _, f := range g.Findings {
			advice := f.Advice
			if c, ok := said[advice]; ok && c == rules.Cause(f.Rule) {
				advice = "(as above)"
			}
			if _, ok := said[f.Advice]; !ok {
				said[f.Advice] = rules.Cause(f.Rule)
			}
			loc := ""
			if len(f.Locations) > 0 {
				loc = " (" + mdEscape(location(f.Locations[0])) + ")"
			}
			msg := f.Message
			if o := g.OtherLaunch(f); o != "" {
				msg = o + ": " + msg
			}
			m.findings = append(m.findings, fmt.Sprintf("- **#%d %s** `%s`%s, %s: %s %s", i+1, mdEscape(shorten(g.Info.Display, 60)), f.Rule, loc,
				groupGain(g, f), mdEscape(msg), mdEscape(advice)))
		}
	}
}

func (m *markdownWriter) End(runs []*profan.Run) error {
	for i, tl := range m.tls {
		if len(m.tls) > 1 || len(runs) > 1 {
			fmt.Fprintf(m.w, "**Timeline of %s**\n\n", mdEscape(m.runs[i].Source))
		}
		for _, l := range TimelineLines(tl) {
			fmt.Fprintf(m.w, "- %s\n", mdEscape(l))
		}
		m.w.WriteString("\n")
	}
	m.summary()
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

// Markdown renders verdicts as tables for pull-request comments.
var Markdown = &Format{Name: "markdown", Aliases: []string{"md"},
	Kernels: func(w io.Writer, opt Options) Writer { return newMarkdown(w, opt) }}
