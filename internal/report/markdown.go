package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// markdownWriter writes one table row per kernel, then the findings; it
// suits pull-request comments and CI job summaries.
type markdownWriter struct {
	w        *bufio.Writer
	n        int
	findings []string
	// counted is how many of findings are findings (the rest are
	// headroom notes): the count the summary line gives, as HTML's.
	counted int
	opt     Options
	top     int
	v       *verdict.Verdict
}

func newMarkdown(w io.Writer, opt Options) *markdownWriter {
	return &markdownWriter{w: bufio.NewWriter(w), opt: opt, top: opt.Top}
}

// mdEscape makes text from an export or a database inert in Markdown:
// no table cell ends, no emphasis, no HTML, and no link, image or
// autolink ("[l](javascript:…)", "https://…", "www.…") is live.
func mdEscape(s string) string {
	return mdReplacer.Replace(s)
}

var mdReplacer = strings.NewReplacer("\\", "\\\\", "|", "\\|", "<", "&lt;", ">", "&gt;", "&", "&amp;", "*", "\\*", "_", "\\_", "`", "\\`",
	"[", "\\[", "]", "\\]", "!", "\\!", "~", "\\~", "://", "\\:\\/\\/", "www.", "www\\.", "\n", " ", "\r", " ")

func (m *markdownWriter) Kernel(*verdict.Kernel) error { return nil }

// kernel writes one launch's row, as a capture of one launch reads.
func (m *markdownWriter) kernel(a *verdict.Kernel) {
	if m.n == 0 {
		if note := a.GPU.Note(); note != "" {
			m.w.WriteString("> " + mdEscape(note) + "\n\n")
		}
		m.w.WriteString("| kernel | id | duration | gld sectors/req | gst sectors/req | shared ways | DRAM % peak | findings |\n")
		m.w.WriteString("|---|---|---:|---:|---:|---:|---:|---|\n")
	}
	m.n++
	cell := func(x *verdict.Access) string {
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
		m.findings = append(m.findings, fmt.Sprintf("- **%s** `%s`%s, %s: %s %s", mdEscape(shorten(a.Record.DisplayName(), 60)), f.Rule, loc, verdict.KernelGain(f.Gain, a.Record.Duration), mdEscape(f.Message), mdEscape(f.Advice)))
		m.counted++
	}
	if x := a.Limiter.Headroom.Statement(); x != "" {
		m.findings = append(m.findings, fmt.Sprintf("- **%s** headroom: %s", mdEscape(shorten(a.Record.DisplayName(), 60)), mdEscape(x)))
	}
	fmt.Fprintf(m.w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", mdEscape(shorten(a.Record.DisplayName(), 80)), mdEscape(a.Record.ID), dur,
		cell(a.Model.GlobalLoad), cell(a.Model.GlobalStore), shared, peak, strings.Join(rules, " "))
}

// mdTopChanges is how many recommendations a pull-request comment shows
// before its collapsed details.
const mdTopChanges = 3

// mdTopRows is how many ranking rows it shows before them.
const mdTopRows = 10

// summary writes what a pull-request comment shows first: the headline,
// what to change first and the time by category (an application's
// capture), the ranking of the top groups; then, collapsed, the rest of the
// ranking, the other recommendations and the findings of the top groups.
func (m *markdownWriter) summary() {
	gs := m.v.Groups
	if len(gs) == 0 {
		return
	}
	if len(gs) == 1 && gs[0].Launches == 1 {
		m.notes()
		m.kernel(gs[0].Rep)
		return
	}
	m.n = len(gs)
	total := m.v.Total
	fmt.Fprintf(m.w, "**%d launches of %s", m.v.Launches, kernels(len(gs)))
	if total > 0 {
		fmt.Fprintf(m.w, ", %s of kernel time", metrics.Format(total, "s"))
	}
	m.w.WriteString(".**\n\n")
	seen := map[string]bool{}
	for _, g := range gs {
		// The GPU assumed for a capture that does not name it, once, up front.
		if note := g.Rep.GPU.Note(); note != "" && !seen[note] {
			seen[note] = true
			m.w.WriteString("> " + mdEscape(note) + "\n\n")
		}
	}
	app := m.v.App
	m.notes()
	recs := app.Recommendations
	if len(recs) > 0 {
		fmt.Fprintf(m.w, "#### What to change first\n\n%s.\n\n", mdEscape(capitalize(m.v.Together())))
		m.recommendations(recs[:min(len(recs), mdTopChanges)], 1)
		m.w.WriteString("\n")
	}
	if ls := inUseLines(app); len(ls) > 0 {
		for _, l := range ls {
			m.w.WriteString("- " + mdEscape(l) + "\n")
		}
		m.w.WriteString("\n")
	}
	if len(app.Categories) > 1 {
		m.w.WriteString("#### Time by category\n\n| share | launches | kernels | category | limited by |\n|---:|---:|---:|---|---|\n")
		for _, c := range app.Categories {
			fmt.Fprintf(m.w, "| %s | %d | %d | %s | %s |\n", metrics.ShareText(c.Share), c.Launches, len(c.Groups), mdEscape(c.Category.String()), mdEscape(categoryLimiter(c)))
		}
		m.w.WriteString("\n")
	}
	rows := tableRows(gs, m.top)
	shown := rows[:min(len(rows), mdTopRows)]
	m.groupTable(shown, 0)
	rest := rows[len(shown):]
	for i, g := range detailed(gs, m.top) {
		m.groupFindings(i+1, g)
	}
	if len(rest) == 0 && len(recs) <= mdTopChanges && len(m.findings) == 0 {
		if more := len(gs) - len(rows); more > 0 {
			fmt.Fprintf(m.w, "\n%d more kernels not listed.\n", more)
		}
		return
	}
	var what []string
	if len(rest) > 0 {
		what = append(what, plural(len(rest), "more kernel"))
	}
	if len(recs) > mdTopChanges {
		what = append(what, plural(len(recs)-mdTopChanges, "more change"))
	}
	if m.counted > 0 {
		what = append(what, plural(m.counted, "finding"))
	}
	if notes := len(m.findings) - m.counted; notes > 0 {
		what = append(what, plural(notes, "headroom note"))
	}
	fmt.Fprintf(m.w, "\n<details><summary>%s</summary>\n\n", strings.Join(what, ", "))
	if len(rest) > 0 {
		m.groupTable(rest, len(shown))
		if more := len(gs) - len(rows); more > 0 {
			fmt.Fprintf(m.w, "\n%d more kernels not listed.\n", more)
		}
		m.w.WriteString("\n")
	}
	if len(recs) > mdTopChanges {
		m.w.WriteString("#### More changes\n\n")
		m.recommendations(recs[mdTopChanges:], mdTopChanges+1)
		m.w.WriteString("\n")
	}
	m.writeFindings()
	m.w.WriteString("\n</details>\n")
	m.findings, m.counted = nil, 0
}

// notes writes what the verdict says up front (notesUpFront): scope, the
// rules that lack counters, joins.
func (m *markdownWriter) notes() {
	for _, l := range notesUpFront(m.v, m.opt.Verbose) {
		m.w.WriteString("> " + mdEscape(l) + "\n\n")
	}
}

// runFindings writes the run-level findings (host transfers), as the
// text does after the kernels.
func (m *markdownWriter) runFindings() {
	for _, r := range m.v.Runs {
		if len(r.Findings) == 0 {
			continue
		}
		fmt.Fprintf(m.w, "\n#### Host transfers of %s\n\n", mdEscape(r.Source))
		for _, f := range r.Findings {
			fmt.Fprintf(m.w, "- %s `%s`, %s: %s\n", f.Severity, f.Rule, gainText(f.Gain), mdEscape(f.Message))
			if f.Advice != "" {
				fmt.Fprintf(m.w, "  fix: %s\n", mdEscape(f.Advice))
			}
		}
	}
}

// recommendations lists changes numbered from n.
func (m *markdownWriter) recommendations(recs []verdict.Recommendation, n int) {
	for i, r := range recs {
		fmt.Fprintf(m.w, "%d. **`%s`** %s: %s\n   fix: %s\n", n+i, r.Rule, mdEscape(m.v.GainText(r)), mdEscape(r.Message), mdEscape(r.Fix))
		if names := recGroups(r, maxRecommendationGroups); names != "" {
			fmt.Fprintf(m.w, "   acts on: %s\n", mdEscape(names))
		}
	}
}

// groupTable writes the ranking rows of gs, ranked from after+1.
func (m *markdownWriter) groupTable(gs []*verdict.Group, after int) {
	m.w.WriteString("| # | share | launches | total | mean | kernel | top finding |\n|---:|---:|---:|---:|---:|---|---|\n")
	for i, g := range gs {
		top := ""
		if f, t, ok := g.Top(); ok {
			top = "`" + f.Rule + "`" + strings.TrimPrefix(t, f.Rule)
		}
		top = joinNonEmpty(" · ", top, mdEscape(g.Untopped()))
		fmt.Fprintf(m.w, "| %d | %s | %d | %s | %s | %s | %s |\n", after+i+1, metrics.ShareText(g.Share), g.Launches,
			durText(g.Duration, g.Timed), durText(g.Mean(), g.Timed), mdEscape(middle(g.Info.Display, 80)), top)
	}
}

// groupFindings adds the findings of the group ranked rank.
func (m *markdownWriter) groupFindings(rank int, g *verdict.Group) {
	said := map[string]string{} // advice given → its cause
	shown, folded := verdict.Fold(g, m.opt.Verbose)
	for _, f := range shown {
		advice := f.Advice
		if c, ok := said[advice]; ok && c == m.opt.cause(f.Rule) {
			advice = "(as above)"
		}
		if _, ok := said[f.Advice]; !ok {
			said[f.Advice] = m.opt.cause(f.Rule)
		}
		loc := ""
		if len(f.Locations) > 0 {
			loc = " (" + mdEscape(location(f.Locations[0])) + ")"
		}
		msg := f.Message
		if o := g.OtherLaunch(f); o != "" {
			msg = o + ": " + msg
		}
		m.findings = append(m.findings, fmt.Sprintf("- **#%d %s** `%s`%s, %s: %s %s", rank, mdEscape(shorten(g.Info.Display, 60)), f.Rule, loc,
			groupGain(g, f, m.v.Total), mdEscape(msg), mdEscape(advice)))
		m.counted++
	}
	if len(folded) > 0 {
		m.findings = append(m.findings, fmt.Sprintf("- **#%d %s** %s", rank, mdEscape(shorten(g.Info.Display, 60)), mdEscape(verdict.FoldedText(folded))))
		m.counted++
	}
	if g.Rep != nil {
		if x := g.Rep.Limiter.Headroom.Statement(); x != "" {
			m.findings = append(m.findings, fmt.Sprintf("- **#%d %s** headroom: %s", rank, mdEscape(shorten(g.Info.Display, 60)), mdEscape(x)))
		}
	}
}

// writeFindings writes the findings gathered.
func (m *markdownWriter) writeFindings() {
	if len(m.findings) == 0 {
		return
	}
	m.w.WriteString("#### Findings\n\n")
	for _, f := range m.findings {
		m.w.WriteString(f + "\n")
	}
}

func (m *markdownWriter) End(v *verdict.Verdict) error {
	m.v = v
	for _, b := range preamble(v) {
		if b.Title != "" {
			fmt.Fprintf(m.w, "**%s**\n\n", mdEscape(capitalize(b.Title)))
		}
		for _, l := range b.Lines {
			fmt.Fprintf(m.w, "- %s\n", mdEscape(l))
		}
		m.w.WriteString("\n")
	}
	m.summary()
	if m.n == 0 {
		m.w.WriteString("No kernels.\n")
	}
	if len(m.findings) > 0 {
		m.w.WriteString("\n")
		m.writeFindings()
	}
	m.runFindings()
	return m.w.Flush()
}

// markdownFormat renders verdicts as tables for pull-request comments.
var markdownFormat = &Format{Name: "markdown", Aliases: []string{"md"},
	Kernels: func(w io.Writer, opt Options) Writer { return newMarkdown(w, opt) },
	Gate:    gateMarkdown,
	Diff:    diffMarkdown}

// mdMaxChecks bounds the checks listed in the details.
const mdMaxChecks = 200

// gateMarkdown writes a gate's result for a pull-request comment: a
// first line with the verdict (regressed, improved, unchanged; failed or
// passed without a baseline) and by how much, the baseline, the failed
// and skipped checks, the improvements and the resolved findings, each
// named once; the rest collapsed.
func gateMarkdown(w io.Writer, r *GateResult, opt Options) error {
	bw := bufio.NewWriter(w)
	s := summarizeGate(r)
	bw.WriteString(s.headline(r) + "\n")
	if b := baselineText(r.Baseline); b != "" {
		bw.WriteString("\n" + mdEscape(b) + "\n")
	}
	// What moved, named once each: failures first (regressions with old →
	// new), then improvements and resolved findings; the rest folded.
	// Kernels are named as analyze's tables name them, made distinct.
	label := kernelLabels(r.Checks)
	listed := map[int]bool{}
	section := func(title string, idx []int) {
		if len(idx) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n**%s**\n\n", title)
		for n, i := range idx {
			if n == mdTopItems {
				fmt.Fprintf(bw, "- … %d more below\n", len(idx)-n)
				break
			}
			listed[i] = true
			bw.WriteString("- " + checkLine(r.Checks[i], label) + "\n")
		}
	}
	section("Failed", s.failed)
	section("Skipped", s.skipped)
	section("Improved", s.improved)
	section("Resolved findings", s.resolved)
	var rest []GateCheck
	for i, c := range r.Checks {
		if !listed[i] && !s.dup[i] {
			rest = append(rest, c)
		}
	}
	if len(rest) > 0 {
		fmt.Fprintf(bw, "\n<details><summary>%s</summary>\n", plural(len(rest), "more check"))
		bw.WriteString("\n| status | kernel | check | message |\n|---|---|---|---|\n")
		// A comment has room for a few hundred rows; --format json has all.
		for _, c := range rest[:min(len(rest), mdMaxChecks)] {
			fmt.Fprintf(bw, "| %s | %s | %s `%s` | %s |\n", c.Status, mdEscape(label[c.Kernel]), c.Kind, mdEscape(c.Name), mdEscape(c.withHeadroom()))
		}
		if n := len(rest) - mdMaxChecks; n > 0 {
			fmt.Fprintf(bw, "\n%s not listed (--format json lists every check).\n", plural(n, "more check"))
		}
		bw.WriteString("\n</details>\n")
	}
	return bw.Flush()
}

// mdTopItems is how many items each section of a gate's comment lists
// before the rest is folded: the comment fits one screen.
const mdTopItems = 8

// gateSummary sorts a gate's checks for its comment: the indices of the
// failed, skipped, improved and resolved ones, the duplicates (a
// finding check that a new-finding check of the same kernel and rule
// says again), and the kernels' summed median duration against the
// baseline.
type gateSummary struct {
	failed, skipped, improved, resolved []int
	dup                                 map[int]bool
	regressions                         int
	oldDur, newDur                      float64 // summed over the kernels compared
	// step is the busy share's regression check of a run with a
	// timeline (its wall spans too): what a comment leads with.
	step *GateMeasure
}

// improvedBy is the smallest move in a metric's better direction that a
// comment names as an improvement (the gate's 5% floor).
const improvedBy = 0.05

func summarizeGate(r *GateResult) gateSummary {
	s := gateSummary{dup: map[int]bool{}}
	fresh := map[string]bool{} // kernel and rule of the new findings
	for _, c := range r.Checks {
		if c.Kind == kindNewFinding {
			fresh[c.Kernel+"\x00"+c.Name] = true
		}
	}
	for i, c := range r.Checks {
		if c.Kind == kindFinding && fresh[c.Kernel+"\x00"+c.Name] {
			s.dup[i] = true
			continue
		}
		if m := c.Measure; s.step == nil && c.Kind == kindRegression && c.Kernel == "" && m != nil && m.Metric == "gpu_busy" && m.OldSpan > 0 && m.NewSpan > 0 {
			s.step = m
		}
		if m := c.Measure; c.Kind == kindRegression && m != nil && m.Metric == "duration" && finite(m.Old) && finite(m.New) {
			s.oldDur += m.Old
			s.newDur += m.New
		}
		switch {
		case c.Status == checkFail:
			s.failed = append(s.failed, i)
			if c.Kind == kindRegression || c.Kind == kindNewFinding {
				s.regressions++
			}
		case c.Status == checkSkip:
			s.skipped = append(s.skipped, i)
		case c.Kind == kindResolved:
			s.resolved = append(s.resolved, i)
		case c.Kind == kindRegression && improved(c.Measure):
			s.improved = append(s.improved, i)
		}
	}
	return s
}

// improved reports a metric moved in its better direction by improvedBy
// or more.
func improved(m *GateMeasure) bool {
	if m == nil || !finite(m.Delta) {
		return false
	}
	d, ok := metrics.ByName(m.Metric)
	if !ok || d.Better == 0 {
		return false
	}
	return m.Delta*float64(d.Better) >= improvedBy
}

// headline is a comment's first line: the verdict, and by how much.
func (s gateSummary) headline(r *GateResult) string {
	word, failed, body := s.verdict(r)
	mark := "✅"
	if failed {
		mark = "❌"
	}
	return mark + " **profan gate: " + word + "**: " + mdEscape(body)
}

// verdict is a gate's verdict (passed, failed, regressed, improved or
// unchanged), whether it fails, and by how much: the step first where
// the runs have a timeline, then the kernels' time, the findings resolved
// and the checks failed. Every gate format leads with it.
func (s gateSummary) verdict(r *GateResult) (word string, failed bool, body string) {
	by := ""
	if s.oldDur > 0 && s.newDur > 0 {
		by = fmt.Sprintf("kernel duration %s → %s (%+.1f%%, summed over the kernels compared)", metrics.Format(s.oldDur, "s"), metrics.Format(s.newDur, "s"), (s.newDur/s.oldDur-1)*100)
	}
	// The step first: the wall and the busy share, what the user waits
	// for; then the kernels' time.
	wallFell, wallGrew := false, false
	if m := s.step; m != nil {
		step := fmt.Sprintf("wall %s → %s (%+.1f%%), GPU busy %s → %s", metrics.Format(m.OldSpan, "s"), metrics.Format(m.NewSpan, "s"), (m.NewSpan/m.OldSpan-1)*100,
			metrics.ShareText(m.Old), metrics.ShareText(m.New))
		wallFell, wallGrew = m.NewSpan <= m.OldSpan*(1-improvedBy), m.NewSpan > m.OldSpan*(1+improvedBy)
		if by != "" {
			by = step + " · " + by
		} else {
			by = step
		}
	}
	switch {
	case r.Baseline == nil || r.Baseline.Missing != "":
		word = "passed"
		if r.Failed > 0 {
			word = "failed"
		}
	case s.regressions > 0 && !wallFell:
		word = "regressed"
	case r.Failed > 0:
		// A step whose wall fell is not "regressed" in its first
		// words because one kernel check failed: the gate failed,
		// and the body says on what.
		word = "failed"
	case wallFell, !wallGrew && s.oldDur > 0 && s.newDur <= s.oldDur*(1-improvedBy), !wallGrew && len(s.resolved) > 0 && !(s.newDur > s.oldDur*(1+improvedBy)):
		word = "improved"
	default:
		word = "unchanged"
	}
	parts := []string{}
	if by != "" {
		parts = append(parts, by)
	}
	if n := len(s.resolved); n > 0 {
		parts = append(parts, plural(n, "finding")+" resolved")
	}
	if s.regressions > 0 && wallFell {
		parts = append(parts, plural(s.regressions, "kernel check")+" regressed")
	}
	parts = append(parts, fmt.Sprintf("%d of %d checks failed", r.Failed, len(r.Checks)))
	return word, r.Failed > 0, strings.Join(parts, " · ")
}

// checkLine is one check in a comment's sections: the kernel, what was
// checked, old → new where it compared numbers.
func checkLine(c GateCheck, label map[string]string) string {
	k := mdEscape(label[c.Kernel])
	if c.Kernel == "" {
		k = "the run"
	}
	if m := c.Measure; m != nil && finite(m.Old) && finite(m.New) {
		return fmt.Sprintf("%s: %s %s → %s (%+.1f%%)", k, mdEscape(m.Metric), metrics.Format(m.Old, m.Unit), metrics.Format(m.New, m.Unit), m.Delta*100)
	}
	return fmt.Sprintf("%s: %s `%s`: %s", k, c.Kind, mdEscape(c.Name), mdEscape(c.withHeadroom()))
}

// kernelLabels names the checks' kernels as analyze's tables do: the
// display name, made distinct (two multi_tensor_apply kernels of a
// PyTorch step differ past the first 60 characters), its middle cut.
func kernelLabels(checks []GateCheck) map[string]string {
	label := map[string]string{}
	var names, shows []string
	for _, c := range checks {
		if _, ok := label[c.Kernel]; ok || c.Kernel == "" {
			continue
		}
		label[c.Kernel] = ""
		names, shows = append(names, c.Kernel), append(shows, kernelname.Classify(c.Kernel).Display)
	}
	kernelname.Distinct(names, shows)
	for i, n := range names {
		label[n] = middle(shows[i], 90)
	}
	return label
}

// mdTopKernels is how many kernels a diff's comment lists before its
// collapsed details.
const mdTopKernels = 20

// diffMarkdown writes a diff for a pull-request comment: the bottom line,
// one row per kernel that changed (the largest change first) with its
// duration; each kernel's metrics collapsed.
func diffMarkdown(w io.Writer, d *Diff, opt Options) error {
	bw := bufio.NewWriter(w)
	na, nb := d.NameA, d.NameB
	if na == "" {
		na = fmt.Sprintf("run %d", d.A)
	}
	if nb == "" {
		nb = fmt.Sprintf("run %d", d.B)
	}
	fmt.Fprintf(bw, "**profan diff** %s → %s\n\n", mdEscape(na), mdEscape(nb))
	for _, l := range stepLines(d.Step) {
		bw.WriteString("- " + mdEscape(l) + "\n")
	}
	if d.Step != nil {
		bw.WriteString("\n")
	}
	for _, l := range diffSummary(d, na, nb) {
		bw.WriteString(mdEscape(l) + "\n\n")
	}
	if len(d.Kernels) == 0 {
		return bw.Flush()
	}
	// Rows name kernels as analyze's tables do: the display name, made
	// distinct, its middle cut (a long template name's start is the
	// same on many rows).
	display := map[string]string{}
	{
		names, shows := make([]string, len(d.Kernels)), make([]string, len(d.Kernels))
		for i, k := range d.Kernels {
			names[i], shows[i] = k.Kernel, kernelname.Classify(k.Kernel).Display
		}
		kernelname.Distinct(names, shows)
		for i, n := range names {
			display[n] = shows[i]
		}
	}
	row := func(k KernelDiff) {
		dur, delta, verdict, test := "", "", "", ""
		switch k.Status {
		case onlyA:
			verdict = "only in " + mdEscape(na)
		case onlyB:
			verdict = "only in " + mdEscape(nb)
		}
		for _, m := range k.Metrics {
			if m.Metric == "duration" {
				dur = metrics.Format(m.A, m.Unit) + " → " + metrics.Format(m.B, m.Unit)
				delta, verdict, test = fmt.Sprintf("%+.1f%%", m.Rel*100), string(m.Verdict), testText(m)
			}
		}
		var fs []string
		for _, r := range k.Appeared {
			fs = append(fs, "+`"+r+"`")
		}
		for _, r := range k.Gone {
			fs = append(fs, "−`"+r+"`")
		}
		fmt.Fprintf(bw, "| %s | %s | %s | %s | %s | %s |\n", mdEscape(middle(display[k.Kernel], 80)), dur, delta, verdict, mdEscape(test), strings.Join(fs, " "))
	}
	head := "| kernel | duration | delta | verdict | test | findings |\n|---|---:|---:|---|---|---|\n"
	top := d.Kernels[:min(len(d.Kernels), mdTopKernels)]
	bw.WriteString(head)
	for _, k := range top {
		row(k)
	}
	fmt.Fprintf(bw, "\n<details><summary>every metric of %s</summary>\n", plural(len(d.Kernels), "kernel"))
	if rest := d.Kernels[len(top):]; len(rest) > 0 {
		bw.WriteString("\n" + head)
		for _, k := range rest {
			row(k)
		}
	}
	for _, k := range d.Kernels {
		if len(k.Metrics) == 0 && len(k.Missing) == 0 {
			continue
		}
		fmt.Fprintf(bw, "\n#### %s\n\n", mdEscape(shorten(k.Kernel, 120)))
		if len(k.Metrics) > 0 {
			fmt.Fprintf(bw, "| metric | %s | %s | delta | verdict | test |\n|---|---:|---:|---:|---|---|\n", mdEscape(column(na, d.A)), mdEscape(column(nb, d.B)))
		}
		for _, m := range k.Metrics {
			pct := fmt.Sprintf("%+.1f%%", m.Rel*100)
			if m.A == 0 {
				pct = "from 0"
			}
			fmt.Fprintf(bw, "| %s | %s %s | %s %s | %s | %s | %s |\n", m.Metric, metrics.Format(m.A, m.Unit), spreadN(m.SpreadA, m.NA),
				metrics.Format(m.B, m.Unit), spreadN(m.SpreadB, m.NB), pct, m.Verdict, mdEscape(testText(m)))
		}
		var only []string
		for _, m := range k.Missing {
			only = append(only, m.Metric+" (only in "+map[string]string{"a": na, "b": nb}[m.In]+")")
		}
		if len(only) > 0 {
			fmt.Fprintf(bw, "\nnot compared: %s\n", mdEscape(strings.Join(only, ", ")))
		}
	}
	bw.WriteString("\n</details>\n")
	return bw.Flush()
}
