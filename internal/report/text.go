package report

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

type textWriter struct {
	w     *bufio.Writer
	opt   Options
	n     int
	notes map[string]bool // device notes printed
	v     *verdict.Verdict
}

func newText(w io.Writer, opt Options) *textWriter {
	return &textWriter{w: bufio.NewWriterSize(w, 64<<10), opt: opt}
}

func (t *textWriter) c(code, s string) string {
	if !t.opt.Color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (t *textWriter) Kernel(*verdict.Kernel) error { return nil }

// missing says once, up front, which rules could not run for want of
// counters, and the command that adds them.
func (t *textWriter) missing() {
	for _, l := range missingLines(t.v.Missing, t.opt.Verbose) {
		fmt.Fprintf(t.w, "%s\n", t.c("33", l))
	}
}

// missingNames is how many rule names a short missing line names.
const missingNames = 3

// missingLines renders missing rules for people: per command that adds
// counters, one short line of the rules that lack them and on how many
// launches, then the command. verbose says what each rule needs.
func missingLines(ms []verdict.MissingCount, verbose bool) []string {
	var cmds []string
	by := map[string][]verdict.MissingCount{}
	for _, m := range ms {
		if _, ok := by[m.Command]; !ok {
			cmds = append(cmds, m.Command)
		}
		by[m.Command] = append(by[m.Command], m)
	}
	var out []string
	for _, c := range cmds {
		var parts []string
		n := 0
		for _, m := range by[c] {
			if verbose {
				parts = append(parts, m.Rule+" needs "+m.Needs)
			} else if len(parts) < missingNames {
				parts = append(parts, m.Rule)
			}
			n = max(n, m.Launches)
		}
		list := strings.Join(parts, "; ")
		if !verbose {
			list = strings.Join(parts, ", ")
			if more := len(by[c]) - len(parts); more > 0 {
				list += fmt.Sprintf(" and %d more; -v says what each needs", more)
			} else {
				list += "; -v says what each needs"
			}
		}
		lack := "lack"
		if len(by[c]) == 1 {
			lack = "lacks"
		}
		out = append(out, fmt.Sprintf("missing: %s %s counters on %s (%s)", plural(len(by[c]), "rule"), lack, plural(n, "launch"), list), "  add it: "+c)
	}
	return out
}

// kernel writes one launch as it always has: header, metrics, model,
// findings, ncu's own findings.
func (t *textWriter) kernel(a *verdict.Kernel) {
	k := a.Record
	if note := a.GPU.Note(); note != "" && !t.notes[note] {
		// Once, before the first kernel analysed against an assumed GPU.
		if t.notes == nil {
			t.notes = map[string]bool{}
		}
		t.notes[note] = true
		if t.n > 0 {
			t.w.WriteString("\n")
		}
		fmt.Fprintf(t.w, "%s\n", t.c("33", "note: "+note))
		if t.n == 0 {
			t.w.WriteString("\n")
		}
	}
	if t.n > 0 {
		t.w.WriteString("\n")
	}
	t.n++
	fmt.Fprintf(t.w, "%s  %s\n", t.c("1", k.DisplayName()), t.c("2", "id "+k.ID))
	t.head(a)
	t.body(a)
	for _, f := range a.Findings {
		fmt.Fprintf(t.w, "  %s %s  %s\n", t.sev(f.Severity), t.c("1", f.Rule), verdict.KernelGain(f.Gain, k.Duration))
		t.findingText(f)
	}
	t.skipped(a)
	t.ncuSays(a, -1)
}

func (t *textWriter) findingText(f profan.Finding) {
	fmt.Fprintf(t.w, "      %s\n", f.Message)
	if f.Advice != "" {
		fmt.Fprintf(t.w, "      fix: %s\n", f.Advice)
	}
	for _, l := range f.Locations {
		fmt.Fprintf(t.w, "      at %s\n", location(l))
	}
}

func (t *textWriter) skipped(a *verdict.Kernel) {
	if t.opt.Verbose {
		for _, s := range a.Skipped {
			fmt.Fprintf(t.w, "  %s %s\n", t.c("2", "skipped:"), s)
		}
	}
}

// ncuSays writes ncu's own findings; max > 0 keeps the max with the largest
// estimated speedup.
func (t *textWriter) ncuSays(a *verdict.Kernel, max int) {
	var fs []profan.ToolFinding
	for _, f := range a.Record.Findings {
		if f.Type == "INF" && !t.opt.Verbose {
			continue
		}
		fs = append(fs, f)
	}
	if len(fs) == 0 {
		return
	}
	more := 0
	if max > 0 && len(fs) > max && !t.opt.Verbose {
		sort.SliceStable(fs, func(i, j int) bool { return nz(fs[i].Speedup) > nz(fs[j].Speedup) })
		more = len(fs) - max
		fs = fs[:max]
	}
	fmt.Fprintf(t.w, "  %s\n", t.c("2", "ncu says:"))
	for _, f := range fs {
		fmt.Fprintf(t.w, "    %s %s: %s\n", f.Type, f.Rule, shorten(f.Description, 160))
	}
	if more > 0 {
		fmt.Fprintf(t.w, "    %s\n", t.c("2", fmt.Sprintf("(%d more; -v shows them)", more)))
	}
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}

// head writes the device and launch line.
func (t *textWriter) head(a *verdict.Kernel, prefix ...string) {
	k := a.Record
	var head []string
	dev := k.Device
	if dev == "" && a.Spec != nil {
		dev = a.Spec.Name
		switch a.GPU.Source {
		case gpumodel.SourceClues:
			dev += " (from its device attributes)"
		case gpumodel.SourceCC:
			dev += " (assumed from cc)"
		case gpumodel.SourceAttributes:
			dev += " (unlisted: peaks from its device attributes)"
		}
	}
	if dev != "" {
		head = append(head, dev)
	}
	if k.CC != "" {
		head = append(head, "cc "+k.CC)
	}
	if k.Grid.Known() {
		head = append(head, "grid "+dim(k.Grid))
	}
	if k.Block.Known() {
		head = append(head, "block "+dim(k.Block))
	}
	if d, ok := a.Value("duration"); ok {
		head = append(head, metrics.Format(d, "s"))
	}
	if k.Invocations > 1 {
		head = append(head, fmt.Sprintf("%d launches", k.Invocations))
	}
	head = append(prefix, head...)
	if len(head) > 0 {
		fmt.Fprintf(t.w, "  %s\n", strings.Join(head, " · "))
	}
}

// body writes the metrics, the model and the instructions above their ideal.
func (t *textWriter) body(a *verdict.Kernel) {
	t.metricTable(a)
	if l := a.Limiter; l.Known() {
		fmt.Fprintf(t.w, "  limiter: %s (%s)\n", t.c("1", l.String()), l.Evidence)
	}
	if h := a.Limiter.Headroom.String(); h != "" {
		fmt.Fprintf(t.w, "  headroom: %s\n", h)
	}
	if t.opt.Verbose {
		for _, v := range a.Metrics.Values {
			if v.Estimate {
				fmt.Fprintf(t.w, "    %-40s ≈%s (%s)\n", v.Name, metrics.Format(v.Value, v.Unit), v.From)
				continue
			}
			fmt.Fprintf(t.w, "    %-40s %s\n", v.Name, metrics.Format(v.Value, v.Unit))
		}
	}
	for _, x := range []*verdict.Access{a.Model.GlobalLoad, a.Model.GlobalStore, a.Model.SharedLoad, a.Model.SharedStore} {
		// With the source page, the instructions below say it better.
		if x != nil && x.Pattern.Kind != gpumodel.Coalesced && len(x.Pattern.Reasons) > 0 && len(a.Model.Instructions) == 0 {
			fmt.Fprintf(t.w, "  model: %s\n", x.Pattern.Text())
		}
		if x != nil {
			for _, s := range x.Implausible {
				fmt.Fprintf(t.w, "  %s %s\n", t.c("31", "implausible:"), s)
			}
		}
	}
	t.instructions(a.Model.Instructions)
	for _, w := range a.Metrics.Warnings {
		fmt.Fprintf(t.w, "  %s %s\n", t.c("31", "check:"), w)
	}
}

// metricTable writes the table of the accesses' sectors per request,
// DRAM, occupancy, instruction:byte ratio and intensity.
func (t *textWriter) metricTable(a *verdict.Kernel) {
	tw := tabwriter.NewWriter(t.w, 0, 0, 2, ' ', 0)
	access := func(label string, x *verdict.Access, effName string) {
		if x == nil {
			return
		}
		eff := ""
		if v, ok := a.Value(effName); ok {
			eff = fmt.Sprintf("%.1f%% efficient", v)
		}
		unit := "sectors/req"
		if strings.HasPrefix(label, "shared") {
			unit = "wavefronts/req"
		}
		fmt.Fprintf(tw, "  %s\t%.2f %s\tideal %.2f\t%s\t%s\n", label, x.SectorsPerRequest, unit, x.IdealSectorsPerRequest, eff, t.pattern(x.Pattern.Kind.String()))
	}
	access("global load", a.Model.GlobalLoad, "gld_efficiency")
	access("global store", a.Model.GlobalStore, "gst_efficiency")
	access("shared load", a.Model.SharedLoad, "")
	access("shared store", a.Model.SharedStore, "")
	if bw, ok := a.Value("dram_throughput"); ok {
		peak := ""
		if p, ok := a.Value("dram_peak_pct"); ok {
			pk, _ := a.Value("dram_peak_bandwidth")
			peak = fmt.Sprintf("%.1f%% of %s peak", p, metrics.Format(pk, "B/s"))
		}
		fmt.Fprintf(tw, "  DRAM\t%s\t\t%s\t\n", metrics.Format(bw, "B/s"), peak)
	}
	if ach, ok := a.Value("achieved_occupancy"); ok {
		theo := ""
		if th, ok := a.Value("theoretical_occupancy"); ok {
			theo = fmt.Sprintf("of %.2f theoretical", th)
		}
		fmt.Fprintf(tw, "  occupancy\t%.2f achieved\t\t%s\t\n", ach, theo)
	}
	if r, ok := a.Value("instruction_byte_ratio"); ok {
		bal := ""
		if b, ok := a.Value("machine_balance"); ok {
			bal = fmt.Sprintf("balance %.2f", b)
		}
		fmt.Fprintf(tw, "  inst:byte\t%.2f\t\t%s\t\n", r, bal)
	}
	if ai, ok := a.Value("arithmetic_intensity"); ok {
		fmt.Fprintf(tw, "  intensity\t%.3g FLOP/B\t\t\t\n", ai)
	}
	tw.Flush()
}

// instRow is an instruction above its ideal and how many of its line
// read alike.
type instRow struct {
	in verdict.Instruction
	n  int
}

// aboveIdeal are the first three instructions above their ideal, worst
// first. Instructions of one line that read alike (an unrolled loop's
// loads) are one row with their count: a line is never printed twice in
// a row.
func aboveIdeal(ins []verdict.Instruction) []*instRow {
	var rows []*instRow
	same := map[string]*instRow{}
	for _, in := range ins { // worst first
		if in.Sectors <= in.IdealSectors*gpumodel.Slack {
			continue
		}
		key := fmt.Sprintf("%s:%d %s %s %.1f %.1f %s", in.File, in.Line, in.Space, in.Operation, in.SectorsPerRequest, in.IdealSectorsPerRequest, in.Pattern.Kind)
		if in.Line <= 0 {
			key = in.Address
		}
		if r, ok := same[key]; ok {
			r.n++
			continue
		}
		if len(rows) == 3 {
			continue
		}
		r := &instRow{in: in, n: 1}
		same[key] = r
		rows = append(rows, r)
	}
	return rows
}

// instructions writes the instructions above their ideal.
func (t *textWriter) instructions(ins []verdict.Instruction) {
	for i, r := range aboveIdeal(ins) {
		in := r.in
		if i == 0 {
			fmt.Fprintf(t.w, "  %s\n", t.c("2", "instructions above their ideal:"))
		}
		unit := "sectors"
		if in.Space == "shared" {
			unit = "wavefronts"
		}
		loc := in.Address
		if in.Line > 0 {
			loc = fmt.Sprintf("%s:%d", filepath.Base(in.File), in.Line)
		}
		sass := shorten(in.SASS, 34)
		if r.n > 1 {
			sass = shorten(fmt.Sprintf("%d× %s", r.n, in.SASS), 34)
		}
		fmt.Fprintf(t.w, "    %-18s %-34s %s %s: %.1f %s/req, ideal %.1f (%s)\n", loc, sass, in.Space, in.Operation,
			in.SectorsPerRequest, unit, in.IdealSectorsPerRequest, t.pattern(in.Pattern.Kind.String()))
	}
}

func (t *textWriter) pattern(p string) string {
	if p == "coalesced" || p == "" {
		return p
	}
	return t.c("33", p)
}

func (t *textWriter) sev(s profan.Severity) string {
	switch s {
	case profan.Error:
		return t.c("31", "error  ")
	case profan.Warning:
		return t.c("33", "warning")
	}
	return t.c("36", "info   ")
}

func location(l profan.Location) string {
	var s string
	if l.File != "" {
		s = fmt.Sprintf("%s:%d", l.File, l.Line)
	}
	if l.SASS != "" {
		if s != "" {
			s += "  "
		}
		s += l.SASS
	}
	return s
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n - 1
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func (t *textWriter) End(v *verdict.Verdict) error {
	t.v = v
	runs := v.Runs
	// Where the wall clock goes comes first: what the user waits for.
	for _, b := range preamble(v) {
		if b.Title != "" {
			fmt.Fprintf(t.w, "%s\n", t.c("1", b.Title))
		}
		for j, l := range b.Lines {
			if j == 0 && b.Timeline {
				l = t.c("1", l)
			}
			fmt.Fprintf(t.w, "%s\n", l)
		}
		t.w.WriteString("\n")
	}
	for _, j := range v.Joins {
		fmt.Fprintf(t.w, "%s\n\n", joinLine(j))
	}
	t.summary()
	for _, r := range runs {
		if len(r.Findings) > 0 {
			fmt.Fprintf(t.w, "\n%s  %s\n", t.c("1", r.Source), t.c("2", "host transfers"))
		}
		for _, f := range r.Findings {
			fmt.Fprintf(t.w, "  %s %s  %s\n      %s\n", t.sev(f.Severity), t.c("1", f.Rule), gainText(f.Gain), f.Message)
			if f.Advice != "" {
				fmt.Fprintf(t.w, "      fix: %s\n", f.Advice)
			}
		}
	}
	for _, r := range runs {
		for _, m := range r.Messages {
			if m.Level == profan.LevelError {
				fmt.Fprintf(t.w, "%s:%d: %s: %s\n", r.Source, m.Line, r.Tool, m.Text)
			}
		}
	}
	if t.n == 0 {
		t.w.WriteString("no kernels\n")
	}
	return t.w.Flush()
}

// Text is the aligned, colored text for people: verdicts and gate results.
var Text = &Format{Name: "text",
	Kernels: func(w io.Writer, opt Options) Writer { return newText(w, opt) },
	Gate:    gateText,
	Trend:   trendText,
	Diff:    diffText,
	Runs:    runsText,
	Model:   modelText,
}
