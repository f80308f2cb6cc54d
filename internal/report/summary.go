package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// maxTableRows bounds the summary table unless every group is asked for
// (Top 0): a capture of thousands of distinct kernels still reads in a
// screen or two.
const maxTableRows = 40

// detailed returns the groups whose details follow the summary table.
func detailed(gs []*verdict.Group, top int) []*verdict.Group {
	if top > 0 && len(gs) > top {
		return gs[:top]
	}
	return gs
}

// tableRows returns the groups the summary table lists.
func tableRows(gs []*verdict.Group, top int) []*verdict.Group {
	n := maxTableRows
	if top > n {
		n = top
	}
	if top <= 0 || len(gs) <= n {
		return gs
	}
	return gs[:n]
}

// bar draws a share 0–1 in eighths of a block, width cells wide.
func bar(v float64, width int) string {
	if !finite(v) || v <= 0 {
		return ""
	}
	eighths := int(math.Round(v * float64(width*8)))
	if eighths == 0 {
		eighths = 1
	}
	s := strings.Repeat("█", eighths/8)
	if r := eighths % 8; r > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[r-1])
	}
	return s
}

// topFinding is the group's top finding's label (verdict.Group.Top),
// then its headroom in brief where no priced finding tops it
// (Group.Untopped).
func topFinding(g *verdict.Group) string {
	_, label, _ := g.Top()
	return joinNonEmpty(" · ", label, g.Untopped())
}

// groupGain renders a group finding's reach.
func groupGain(g *verdict.Group, f verdict.GroupFinding, total float64) string {
	s := fmt.Sprintf("%d of %d launches", f.Launches, g.Launches)
	if f.Launches == g.Launches {
		s = "all launches"
		if g.Launches == 1 {
			s = "1 launch"
		}
	}
	switch {
	case finite(f.CaptureGain):
		s += " · est. gain " + verdict.GroupGain(f.CaptureGain, total, g.Duration)
	default:
		s += " · gain unknown"
	}
	return s
}

func libText(g *verdict.Group) string {
	if !g.Info.IsLibrary() {
		return ""
	}
	if g.Info.Kind.String() != "" {
		return g.Info.Library.String() + " " + g.Info.Kind.String()
	}
	return g.Info.Library.String()
}

// summary writes the group table and the details of the top groups; a
// capture of one launch reads as one kernel always has.
func (t *textWriter) summary() {
	gs := t.v.Groups
	if len(gs) == 0 {
		return
	}
	if len(gs) == 1 && gs[0].Launches == 1 {
		if len(t.v.Missing) > 0 {
			t.missing()
			t.w.WriteString("\n")
		}
		t.kernel(gs[0].Rep)
		return
	}
	total := t.v.Total
	head := fmt.Sprintf("%d launches of %s", t.v.Launches, kernels(len(gs)))
	if total > 0 {
		head += " · " + metrics.Format(total, "s") + " of kernel time"
	}
	fmt.Fprintf(t.w, "%s\n", t.c("1", head))
	t.missing()
	t.app(t.v.App)
	for _, g := range gs {
		if note := g.Rep.GPU.Note(); note != "" && !t.notes[note] {
			if t.notes == nil {
				t.notes = map[string]bool{}
			}
			t.notes[note] = true
			fmt.Fprintf(t.w, "%s\n", t.c("33", "note: "+note))
		}
	}
	t.w.WriteString("\n")
	tw := tabwriter.NewWriter(t.w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "RANK\tSHARE\t\tLAUNCHES\tTOTAL\tMEAN\tKERNEL\tTOP FINDING\n")
	rows := tableRows(gs, t.opt.Top)
	for i, g := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", i+1, metrics.ShareText(g.Share), bar(g.Share, 8), g.Launches,
			durText(g.Duration, g.Timed), durText(g.Mean(), g.Timed), middle(g.Info.Display, 80), topFinding(g))
	}
	tw.Flush()
	if rest := gs[len(rows):]; len(rest) > 0 {
		var d float64
		n := 0
		for _, g := range rest {
			d += g.Duration
			n += g.Launches
		}
		fmt.Fprintf(t.w, "  … %d more kernels, %d launches, %s of the time (--top 0 lists them all)\n", len(rest), n, metrics.ShareText(d/total))
	}
	for i, g := range detailed(gs, t.opt.Top) {
		t.w.WriteString("\n")
		t.group(i+1, g)
	}
	if d := detailed(gs, t.opt.Top); len(d) < len(gs) {
		fmt.Fprintf(t.w, "\n%s\n", t.c("2", fmt.Sprintf("details of %d of %d kernels (--top N, --top 0 for all)", len(d), len(gs))))
	}
	t.n = len(gs)
}

func durText(d float64, timed int) string {
	if timed == 0 || !finite(d) {
		return "?"
	}
	return metrics.Format(d, "s")
}

// group writes one group's details: its launches, the longest launch's
// metrics, and the group's findings once.
func (t *textWriter) group(rank int, g *verdict.Group) {
	a := g.Rep
	title := fmt.Sprintf("#%d %s", rank, g.Info.Display)
	fmt.Fprintf(t.w, "%s", t.c("1", title))
	if lib := libText(g); lib != "" {
		fmt.Fprintf(t.w, "  %s", t.c("2", "("+lib+")"))
	}
	t.w.WriteString("\n")
	line := []string{fmt.Sprintf("%d launches", g.Launches)}
	if g.Launches == 1 {
		line[0] = "1 launch, id " + a.Record.ID
	}
	if g.Timed > 0 {
		line = append(line, fmt.Sprintf("%s total, %s of the capture", metrics.Format(g.Duration, "s"), metrics.ShareText(g.Share)))
		if g.Launches > 1 {
			line = append(line, fmt.Sprintf("mean %s, %s–%s", metrics.Format(g.Mean(), "s"), metrics.Format(g.Min, "s"), metrics.Format(g.Max, "s")))
		}
	}
	if len(g.Configs) > 1 {
		line = append(line, fmt.Sprintf("%d launch configurations", len(g.Configs)))
	}
	fmt.Fprintf(t.w, "  %s\n", strings.Join(line, " · "))
	if g.Launches > 1 {
		t.head(a, t.c("2", "longest: id "+a.Record.ID))
	} else {
		t.head(a)
	}
	t.body(a)
	said := map[string]string{} // advice given → its cause
	shown, folded := verdict.Fold(g, t.opt.Verbose)
	for _, f := range shown {
		fmt.Fprintf(t.w, "  %s %s  %s\n", t.sev(f.Severity), t.c("1", f.Rule), groupGain(g, f, t.v.Total))
		x := f.Finding
		if o := g.OtherLaunch(f); o != "" {
			x.Message = o + ": " + x.Message
		}
		// "as above" only for a fix already given for the same cause: a
		// library's caller-level advice is one for every cause.
		if c, ok := said[x.Advice]; ok && c == t.opt.cause(x.Rule) {
			x.Advice = "as above"
		}
		if _, ok := said[f.Advice]; !ok {
			said[f.Advice] = t.opt.cause(f.Rule)
		}
		t.findingText(x)
	}
	if len(folded) > 0 {
		fmt.Fprintf(t.w, "  %s\n", t.c("2", verdict.FoldedText(folded)))
	}
	t.skipped(a)
	if !g.Info.IsLibrary() || t.opt.Verbose {
		// ncu's rules speak to a kernel's author; a library's caller is
		// not one.
		t.ncuSays(a, 2)
	}
}

func kernels(n int) string {
	if n == 1 {
		return "1 kernel"
	}
	return fmt.Sprintf("%d kernels", n)
}

// middle shortens s to n bytes by cutting its middle: the end of a
// generated library name (split_k, the library) tells kernels apart as
// much as its start.
func middle(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head := n * 2 / 3
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - (n - head - 1)
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…" + s[tail:]
}

// joinNonEmpty joins the parts that are not empty with sep.
func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}
