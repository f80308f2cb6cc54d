// Package html writes profan's HTML report: one self-contained HTML5
// document with a summary table of the kernels, a roofline chart per GPU,
// a card per kernel with its memory efficiency, the memory model's reading
// and the findings, and, from the database, trend charts with their change
// points.
//
// The document loads nothing: its CSS is inline, its charts are inline
// SVG written by this package, it has no script, and a
// Content-Security-Policy meta tag forbids scripts and every fetch. Kernel
// names, file names and every other string from an export are untrusted:
// html/template escapes them in the page and the chart writers escape
// them in the SVG, so they render as text.
//
// Output is deterministic: the same Report gives the same bytes. The
// caller supplies the generation time.
package html

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// Report is what Write renders.
type Report struct {
	Title     string // default "profan report"
	Generated string // when the report was made, as the caller wants it shown; empty to omit
	Kernels   []*verdict.Kernel
	// Groups, when set, lay the report out as an application's: one row
	// and one card per group of launches, sorted by time (Kernels is then
	// ignored).
	Groups []*verdict.Group
	Trends []Trend
	// Timelines are the runs' timelines, for exports that have one.
	Timelines []Timeline
	// HostCalls are the runs' host calls, for exports that have them.
	HostCalls []HostCalls
	// Categories and Changes are an application's reading, as the text
	// states it: the time by category, and what to change first (Gain is
	// their combined gain).
	Categories []CategoryRow
	Changes    []ChangeRow
	Gain       string
	// Notes are what the verdict says up front (scope, rules that lack
	// counters and the command that adds them, joins), InUse the changes
	// the capture shows already made, RunFindings the run-level findings
	// (host transfers): each as the text states it.
	Notes       []string
	InUse       []string
	RunFindings []RunFinding
}

// RunFinding is a finding on a run rather than a kernel (host transfers).
type RunFinding struct {
	Source, Rule, Severity, Gain, Message, Advice string
}

// HostCalls are the host's time per call of one run, as the text report
// states it: a line for the CUDA API calls, one for the OS runtime calls.
type HostCalls struct {
	Source string
	Lines  []string
}

// CategoryRow is one category of the time by category.
type CategoryRow struct {
	Share      string
	ShareWidth string // the share as a CSS width
	Launches   int
	Kernels    int
	Category   string
	LimitedBy  string
}

// ChangeRow is one change of what to change first.
type ChangeRow struct {
	Rule, Gain, Message, Fix, ActsOn string
}

// Trend is one metric of one kernel across stored runs, oldest first.
type Trend struct {
	Kernel       string
	Metric       string
	Unit         string
	Points       []TrendPoint
	ChangePoints []int // indices into Points where a new level starts
	// Steps are the changes as profan trend states them, one per change
	// point when set: the chart labels them with the same figures.
	Steps []TrendStep
	// Method says how the changes were found (the same words as profan
	// trend's), shown under the chart.
	Method string
	// XTitle names the x axis: "run", or the label key that names the
	// runs.
	XTitle string
}

// TrendStep is one change of a trend: its relative step between the
// medians of consecutive runs, and whether that is better or worse in the
// metric's direction ("" when it has none).
type TrendStep struct {
	Rel     float64
	Verdict string
}

// TrendPoint is one value of a trend.
type TrendPoint struct {
	Run   int64
	Label string  // shown on the x axis instead of the run ID when set
	Value float64 // NaN: the run lacks the metric (a gap in the line)
}

// csp is the document's Content-Security-Policy: no script, no fetch of
// any kind; inline styles and data: images only.
const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

//go:embed report.tmpl
var pageTemplate string

//go:embed report.css
var pageCSS string

var tmpl = template.Must(template.New("report").Parse(strings.Replace(pageTemplate, "/*CSS*/", pageCSS, 1)))

// Write renders r as one HTML document.
func Write(w io.Writer, r *Report) error {
	if err := tmpl.Execute(w, build(r)); err != nil {
		return fmt.Errorf("writing html report: %w", err)
	}
	return nil
}

// The view model: everything the template shows, as strings, computed
// here so that the template only lays it out.

type page struct {
	Title, Generated, CSP string
	Sources               []string
	Devices               []string
	Kernels               []*kernelView
	Rooflines             []*roofView
	NoDevice              []*kernelView
	Trends                []*trendView
	Timelines             []*timelineView
	HostCalls             []HostCalls
	NFindings             int
	Grouped               bool
	Launches              int
	Categories            []CategoryRow
	Changes               []ChangeRow
	Gain                  string
	Notes, InUse          []string
	RunFindings           []RunFinding
}

type kernelView struct {
	N                 int
	Anchor            string
	Name              string
	Symbol            string // the mangled name, when it differs
	Device            string
	DeviceNote        string
	Meta              []string
	Duration          string
	GLD, GST, Shared  cell
	Limiter           string
	DRAMPct           string
	DRAM              string
	Findings          []findingView
	Folded            string   // the findings under the noise floor, in one line: its start
	FoldedRules       []string // and their rules
	Worst             *findingView
	Efficiency        template.HTML
	Model             []modelRow
	Instructions      []instrRow
	MoreInstructions  int // wasteful instructions not shown
	IdealInstructions int // instructions at (or near) their ideal
	RoofNote          string
	Marker            template.HTML
	SeverityCount     string
	Group             *groupView // set for a group of launches
}

type cell struct {
	Has                 bool
	Actual, Ideal, Over string
}

type modelRow struct {
	Space, Pattern, Explanation string
	Implausible                 []string
}

type instrRow struct {
	Where, SASS, Access, Actual, Ideal, Over, Pattern, Explanation string
}

type findingView struct {
	Rule, Severity, Class string
	Icon                  template.HTML
	Message, Advice, Gain string
	GainKnown             bool
	Locations             []locView
}

type locView struct{ Where, SASS string }

type roofView struct {
	Device    string
	Peaks     []string
	Chart     template.HTML
	Legend    []legendRow
	NoFlops   []*kernelView
	NoData    []*kernelView
	NumPlaced int
}

type legendRow struct {
	K                             *kernelView
	AI, Perf, Roof, PctRoof, Side string
}

type trendView struct {
	Kernel, Metric, Unit, Summary string
	Chart                         template.HTML
}

// collector adds kernel views to a page: their sources and devices once
// each, and the kernels of each GPU for its roofline.
type collector struct {
	seenSrc, seenDev map[string]bool
	order            []*gpumodel.Spec
	bySpec           map[*gpumodel.Spec][]int
}

func (c *collector) add(p *page, i int, a *verdict.Kernel, kv *kernelView) {
	if c.seenSrc == nil {
		c.seenSrc, c.seenDev, c.bySpec = map[string]bool{}, map[string]bool{}, map[*gpumodel.Spec][]int{}
	}
	p.Kernels = append(p.Kernels, kv)
	p.NFindings += len(kv.Findings)
	if a.Run != nil && a.Run.Source != "" && !c.seenSrc[a.Run.Source] {
		c.seenSrc[a.Run.Source] = true
		p.Sources = append(p.Sources, a.Run.Source)
	}
	if !c.seenDev[kv.Device] {
		c.seenDev[kv.Device] = true
		p.Devices = append(p.Devices, kv.Device)
	}
	if !hasRoofs(a.Spec) {
		p.NoDevice = append(p.NoDevice, kv)
		return
	}
	if _, ok := c.bySpec[a.Spec]; !ok {
		c.order = append(c.order, a.Spec)
	}
	c.bySpec[a.Spec] = append(c.bySpec[a.Spec], i)
}

func build(r *Report) *page {
	p := buildKernels(r)
	p.Timelines = timelineViews(r.Timelines)
	p.HostCalls = r.HostCalls
	p.Notes, p.InUse, p.RunFindings = r.Notes, r.InUse, r.RunFindings
	return p
}

func buildKernels(r *Report) *page {
	if len(r.Groups) > 0 {
		return buildGroups(r)
	}
	p := &page{Title: r.Title, Generated: r.Generated, CSP: csp}
	if p.Title == "" {
		p.Title = "profan report"
	}
	var c collector
	for i, a := range r.Kernels {
		c.add(p, i, a, kernel(i+1, a))
	}
	for _, spec := range c.order {
		p.Rooflines = append(p.Rooflines, roof(spec, c.bySpec[spec], r.Kernels, p.Kernels))
	}
	for _, t := range r.Trends {
		p.Trends = append(p.Trends, &trendView{Kernel: t.Kernel, Metric: t.Metric, Unit: t.Unit, Summary: trendSummary(t), Chart: trendSVG(t)})
	}
	return p
}

func roof(spec *gpumodel.Spec, idx []int, ks []*verdict.Kernel, views []*kernelView) *roofView {
	bw, p32, p64 := spec.PeakBandwidth(), spec.PeakFP32(), spec.PeakFP64()
	rv := &roofView{Device: spec.Name, Peaks: []string{
		"DRAM " + metrics.Format(bw, "B/s"),
		"FP32 " + metrics.Format(p32, "FLOP/s"),
	}}
	if p64 > 0 {
		rv.Peaks = append(rv.Peaks, "FP64 "+metrics.Format(p64, "FLOP/s"))
	}
	rv.Peaks = append(rv.Peaks, "ridge point "+fixed(p32/bw, 1)+" FLOP/B")
	var items []roofItem
	for _, i := range idx {
		ai, perf, pl := rooflinePlace(ks[i])
		kv := views[i]
		switch pl {
		case onRoofline:
			items = append(items, roofItem{n: i + 1, ai: ai, perf: perf})
			bound := math.Min(bw*ai, p32)
			if r, ok := verdict.Roofline(ks[i]); ok {
				bound = r.LimitFlopPerS // the FP64 roof for double-precision kernels
			}
			side := ks[i].Limiter.String()
			if side == "" {
				side = "unknown"
			}
			kv.Marker = markerIcon(i)
			rv.Legend = append(rv.Legend, legendRow{K: kv, AI: sig3(ai), Perf: metrics.Format(perf, "FLOP/s"),
				Roof: metrics.Format(bound, "FLOP/s"), PctRoof: fixed(perf/bound*100, 1) + "%", Side: side})
		case noFlops:
			rv.NoFlops = append(rv.NoFlops, kv)
			kv.RoofNote = "not on the roofline: no floating-point work"
		default:
			rv.NoData = append(rv.NoData, kv)
			kv.RoofNote = "not on the roofline: the export has no FLOP or DRAM byte counters"
		}
	}
	rv.NumPlaced = len(items)
	if len(items) > 0 {
		rv.Chart = roofline(items, spec)
	}
	return rv
}

func kernel(n int, a *verdict.Kernel) *kernelView {
	k := a.Record
	kv := &kernelView{N: n, Anchor: "k" + strconv.Itoa(n), Name: k.DisplayName()}
	if k.Demangled != "" && k.Name != k.Demangled {
		kv.Symbol = k.Name
	}
	kv.Device, kv.DeviceNote = deviceOf(a)
	devMeta := kv.Device
	if a.GPU.Assumed() && k.CC != "" {
		devMeta = a.Spec.Name + " (assumed from compute capability " + k.CC + ")"
	}
	kv.Meta = append(kv.Meta, devMeta)
	if k.Grid.Known() {
		kv.Meta = append(kv.Meta, "grid "+dim(k.Grid))
	}
	if k.Block.Known() {
		kv.Meta = append(kv.Meta, "block "+dim(k.Block))
	}
	if k.Invocations > 1 {
		kv.Meta = append(kv.Meta, strconv.Itoa(k.Invocations)+" launches")
	}
	kv.Duration = "n/a"
	if d, ok := value(a, "duration"); ok {
		kv.Duration = metrics.Format(d, "s")
		kv.Meta = append(kv.Meta, kv.Duration)
	}
	if a.Run != nil && a.Run.Source != "" {
		kv.Meta = append(kv.Meta, "from "+a.Run.Source+", launch "+k.ID)
	}
	if l := a.Limiter; l.Known() {
		kv.Limiter = l.String()
		kv.Meta = append(kv.Meta, "limiter: "+l.String())
	}
	if h := a.Limiter.Headroom.String(); h != "" {
		kv.Meta = append(kv.Meta, "headroom: "+h)
	}
	kv.GLD, kv.GST, kv.Shared = accessCell(a.Model.GlobalLoad), accessCell(a.Model.GlobalStore), accessCell(a.Model.Shared())
	kv.DRAMPct = "n/a"
	if v, ok := value(a, "dram_peak_pct"); ok {
		kv.DRAMPct = fixed(v, 1) + "%"
	}
	if v, ok := value(a, "dram_throughput"); ok {
		kv.DRAM = metrics.Format(v, "B/s")
		if pk, ok := value(a, "dram_peak_bandwidth"); ok {
			kv.DRAM += " of " + metrics.Format(pk, "B/s") + " peak"
		}
	}
	for _, sp := range []struct {
		name string
		acc  *verdict.Access
	}{{"global load", a.Model.GlobalLoad}, {"global store", a.Model.GlobalStore}, {"shared load", a.Model.SharedLoad}, {"shared store", a.Model.SharedStore}} {
		if sp.acc != nil && len(sp.acc.Pattern.Reasons) > 0 {
			kv.Model = append(kv.Model, modelRow{Space: sp.name, Pattern: sp.acc.Pattern.Kind.String(), Explanation: sp.acc.Pattern.Text(), Implausible: sp.acc.Implausible})
		}
	}
	kv.instructions(a.Model.Instructions)
	kv.Efficiency = efficiencySVG(a)
	for _, f := range a.Findings {
		kv.Findings = append(kv.Findings, finding(f))
	}
	kv.tally()
	return kv
}

// deviceOf names a kernel's GPU on its card, and how it was known where
// the export did not name it.
func deviceOf(a *verdict.Kernel) (device, note string) {
	switch {
	case a.Spec != nil && a.GPU.Source == gpumodel.SourceName:
		return a.Spec.Name, ""
	case a.Spec != nil && a.GPU.Source == gpumodel.SourceFlag:
		return a.Spec.Name + " (given)", ""
	case a.Spec != nil && a.GPU.Source == gpumodel.SourceClues:
		return a.Spec.Name, "from its device attributes"
	case a.Spec != nil:
		return a.Spec.Name, "assumed from cc " + a.Record.CC
	case a.Record.Device != "":
		return a.Record.Device, ""
	}
	return "unknown GPU", ""
}

// instructions lists on the card the instructions that move more than
// their ideal, worst first; the others are only counted.
func (kv *kernelView) instructions(ins []verdict.Instruction) {
	const maxInstr = 8
	for _, in := range ins {
		if !(in.IdealSectorsPerRequest > 0 && in.SectorsPerRequest > 1.25*in.IdealSectorsPerRequest) {
			kv.IdealInstructions++
			continue
		}
		if len(kv.Instructions) == maxInstr {
			kv.MoreInstructions++
			continue
		}
		kv.Instructions = append(kv.Instructions, instrRow{Where: where(in.File, in.Line), SASS: in.SASS, Access: in.Space + " " + in.Operation,
			Actual: fixed(in.SectorsPerRequest, 2), Ideal: fixed(in.IdealSectorsPerRequest, 2), Pattern: in.Pattern.Kind.String(), Explanation: in.Pattern.Text(),
			Over: fixed(in.SectorsPerRequest/in.IdealSectorsPerRequest, 1) + "×"})
	}
}

// tally sets the card's worst finding and its count by severity.
func (kv *kernelView) tally() {
	counts := [3]int{}
	kv.Worst = nil
	for i := range kv.Findings {
		r := sevRank(kv.Findings[i].Severity)
		counts[r]++
		if kv.Worst == nil || r > sevRank(kv.Worst.Severity) {
			kv.Worst = &kv.Findings[i]
		}
	}
	kv.SeverityCount = severityCount(counts)
}

func accessCell(acc *verdict.Access) cell {
	if acc == nil || !finite(acc.SectorsPerRequest) {
		return cell{}
	}
	c := cell{Has: true, Actual: fixed(acc.SectorsPerRequest, 1), Ideal: fixed(acc.IdealSectorsPerRequest, 1)}
	if acc.IdealSectorsPerRequest > 0 && acc.SectorsPerRequest > 1.25*acc.IdealSectorsPerRequest {
		c.Over = fixed(acc.SectorsPerRequest/acc.IdealSectorsPerRequest, 1) + "×"
	}
	return c
}

func finding(f profan.Finding) findingView {
	fv := findingView{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Advice: f.Advice}
	fv.Class = "sev-" + fv.Severity
	fv.Icon = severityIcon(f.Severity)
	if finite(f.Gain) {
		fv.GainKnown = true
		fv.Gain = "estimated gain " + fixed(f.Gain*100, 0) + "% of kernel time"
	} else {
		fv.Gain = "gain unknown"
	}
	for _, l := range f.Locations {
		fv.Locations = append(fv.Locations, locView{Where: where(l.File, l.Line), SASS: l.SASS})
	}
	return fv
}

// severityIcon is a shape per severity, so that severity never rests on
// colour: an octagon for errors, a triangle for warnings, a circle for
// information.
func severityIcon(s profan.Severity) template.HTML {
	const head = `<svg class="icon" width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">`
	switch s {
	case profan.Error:
		return head + `<path d="M4.1 1H9.9L13 4.1V9.9L9.9 13H4.1L1 9.9V4.1Z" fill="#cf222e"/><path d="M4.5 4.5L9.5 9.5M9.5 4.5L4.5 9.5" stroke="#fff" stroke-width="1.8"/></svg>`
	case profan.Warning:
		return head + `<path d="M7 1L13.5 12.5H0.5Z" fill="#bf8700" stroke="#7d4e00" stroke-width="0.8"/><path d="M7 5V8.6" stroke="#fff" stroke-width="1.6"/><circle cx="7" cy="10.5" r="0.9" fill="#fff"/></svg>`
	}
	return head + `<circle cx="7" cy="7" r="6" fill="#0969da"/><path d="M7 6V10.5" stroke="#fff" stroke-width="1.6"/><circle cx="7" cy="3.8" r="0.95" fill="#fff"/></svg>`
}

func sevRank(s string) int {
	switch s {
	case "error":
		return 2
	case "warning":
		return 1
	}
	return 0
}

func trendSummary(t Trend) string {
	n := len(t.Points)
	if n == 0 {
		return "no values"
	}
	s := plural(n, "value") + " from run " + runLabel(t.Points[0]) + " to " + runLabel(t.Points[n-1])
	cps := validChanges(t.ChangePoints, n)
	how := ""
	if t.Method != "" {
		how = ". Change detection: " + t.Method
	}
	if len(cps) == 0 {
		return s + "; no change point" + how
	}
	bounds := append(append([]int{0}, cps...), n)
	var parts []string
	for k, c := range cps {
		b, a := median(t.Points[bounds[k]:c]), median(t.Points[c:bounds[k+2]])
		part := "at " + runLabel(t.Points[c])
		if st, ok := t.step(c); ok {
			part += " (" + stepPct(st.Rel)
			if st.Verdict != "" {
				part += ", " + st.Verdict
			}
			part += ")"
		} else if finite(a) && finite(b) {
			part += " (median " + metrics.Format(b, t.Unit) + " → " + metrics.Format(a, t.Unit)
			if b != 0 {
				part += ", " + signedPct((a-b)/math.Abs(b))
			}
			part += ")"
		}
		parts = append(parts, part)
	}
	return s + "; " + plural(len(cps), "change") + ": " + strings.Join(parts, "; ") + how
}

func where(file string, line int) string {
	switch {
	case file == "" && line == 0:
		return ""
	case line == 0:
		return file
	}
	return file + ":" + strconv.Itoa(line)
}

func dim(d profan.Dim3) string {
	return "(" + strconv.Itoa(d[0]) + "," + strconv.Itoa(d[1]) + "," + strconv.Itoa(d[2]) + ")"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "ch") || strings.HasSuffix(what, "s") || strings.HasSuffix(what, "x") {
		return strconv.Itoa(n) + " " + what + "es" // "2 launches", not "2 launchs"
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// sig3 formats v with three significant digits, without exponent for
// everyday magnitudes.
func sig3(v float64) string {
	if a := math.Abs(v); a >= 1e-3 && a < 1e6 {
		d := 2 - int(math.Floor(math.Log10(a)))
		if d < 0 {
			d = 0
		}
		return fixed(v, d)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// severityCount says "2 warnings, 1 info".
func severityCount(counts [3]int) string {
	var parts []string
	for s := 2; s >= 0; s-- {
		if counts[s] > 0 {
			what := profan.Severity(s).String()
			if what == "info" {
				parts = append(parts, strconv.Itoa(counts[s])+" info")
			} else {
				parts = append(parts, plural(counts[s], what))
			}
		}
	}
	return strings.Join(parts, ", ")
}
