package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/stats"
)

// LabelText renders run labels as key=value pairs, sorted by key.
func LabelText(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + l[k]
	}
	return strings.Join(parts, ",")
}

// formatP prints a p-value, p=0.008, or p<0.001 below 0.001.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return fmt.Sprintf("p=%.3f", p)
}

func trendText(w io.Writer, t *Trend, _ Options) error {
	for i, s := range t.Series {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := seriesText(w, s, t.Metric, t.Unit); err != nil {
			return err
		}
	}
	return nil
}

func seriesText(w io.Writer, s *Series, metric, unit string) error {
	med := make([]float64, len(s.Runs))
	for i, r := range s.Runs {
		med[i] = r.Value
	}
	fmt.Fprintf(w, "%s  %s  %s\n", s.Kernel, metric, stats.Sparkline(med))
	changed := map[int64]Change{}
	for _, c := range s.Changes {
		changed[c.Run] = c
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tLABELS\tLAUNCHES\tVALUE\tCHANGE")
	for i, r := range s.Runs {
		mark := ""
		if c, ok := changed[r.Run]; ok {
			arrow := "▲"
			if c.To < c.From {
				arrow = "▼"
			}
			mark = fmt.Sprintf("%s %+.1f%%", arrow, c.Rel*100)
			if unit == "%" || unit == "ratio" {
				// A share moves in points: 10.6% → 82.2% is +71.6 points,
				// not +678.6%.
				scale := 100.0
				if unit == "%" {
					scale = 1
				}
				mark = fmt.Sprintf("%s %+.1f points", arrow, (c.To-c.From)*scale)
			}
			mark += " (" + string(c.Method)
			if c.Method == stats.Launches || c.Method == stats.History {
				mark += ", " + formatP(c.P)
			}
			mark += ")"
		} else if i > 0 {
			mark = "~"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\n", r.Run, LabelText(r.Labels), r.Launches, metrics.Format(med[i], unit), mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "change detection: %s; ~ = no significant change\n", s.Method)
	return err
}

func trendJSON(w io.Writer, t *Trend, _ Options) error {
	type jp struct {
		Run    int64             `json:"run"`
		Labels map[string]string `json:"labels"`
		Value  float64           `json:"value"`
		Kernel string            `json:"kernel"`
		Launch string            `json:"launch"`
	}
	type jc struct {
		Kernel string `json:"kernel"`
		Change
	}
	out := struct {
		Metric  string            `json:"metric"`
		Unit    string            `json:"unit"`
		Points  []jp              `json:"points"`
		Changes []jc              `json:"changes"`
		Methods map[string]string `json:"methods"`
	}{Metric: t.Metric, Unit: t.Unit, Points: []jp{}, Changes: []jc{}, Methods: map[string]string{}}
	for _, p := range t.Points {
		out.Points = append(out.Points, jp{p.Run, p.Labels, p.Value, p.Kernel, p.Launch})
	}
	for _, s := range t.Series {
		out.Methods[s.Kernel] = s.Method
		for _, c := range s.Changes {
			out.Changes = append(out.Changes, jc{s.Kernel, c})
		}
	}
	return encodeJSON(w, out)
}

func trendCSV(w io.Writer, t *Trend, _ Options) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"run", "labels", "kernel", "launch", "value"})
	for _, p := range t.Points {
		cw.Write([]string{strconv.FormatInt(p.Run, 10), safe.Cell(LabelText(p.Labels)), safe.Cell(p.Kernel), safe.Cell(p.Launch), strconv.FormatFloat(p.Value, 'g', -1, 64)})
	}
	cw.Flush()
	return cw.Error()
}

func diffText(w io.Writer, d *Diff, _ Options) error {
	na, nb := d.NameA, d.NameB
	if na == "" {
		na = fmt.Sprintf("run %d", d.A)
	}
	if nb == "" {
		nb = fmt.Sprintf("run %d", d.B)
	}
	na, nb = safe.Term(na), safe.Term(nb)
	// The step first, then the kernels' bottom line, then each kernel.
	for _, l := range stepLines(d.Step) {
		fmt.Fprintln(w, safe.Term(l))
	}
	for _, l := range diffSummary(d, na, nb) {
		fmt.Fprintln(w, l)
	}
	for _, k := range d.Kernels {
		fmt.Fprintln(w)
		switch k.Status {
		case onlyA:
			fmt.Fprintf(w, "- %s  (only in %s)\n", k.Kernel, na)
			continue
		case onlyB:
			fmt.Fprintf(w, "+ %s  (only in %s)\n", k.Kernel, nb)
			continue
		}
		fmt.Fprintf(w, "%s  (%s: %d launches, %s: %d)\n", k.Kernel, na, k.LaunchesA, nb, k.LaunchesB)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		if len(k.Metrics) > 0 {
			fmt.Fprintf(tw, "  METRIC\t%s\t\t%s\t\tDELTA\tVERDICT\tTEST\n", column(na, d.A), column(nb, d.B))
		}
		for _, m := range k.Metrics {
			pct := fmt.Sprintf("%+.1f%%", m.Rel*100)
			if m.A == 0 {
				pct = "from 0"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m.Metric,
				metrics.Format(m.A, m.Unit), spreadN(m.SpreadA, m.NA), metrics.Format(m.B, m.Unit), spreadN(m.SpreadB, m.NB),
				pct, m.Verdict, testText(m))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, r := range k.Appeared {
			fmt.Fprintf(w, "  + finding %s appeared\n", r)
		}
		for _, r := range k.Gone {
			fmt.Fprintf(w, "  - finding %s disappeared\n", r)
		}
		for _, side := range []struct{ in, name, not string }{{"a", na, nb}, {"b", nb, na}} {
			var only []string
			for _, m := range k.Missing {
				if m.In == side.in {
					only = append(only, m.Metric)
				}
			}
			if len(only) > 0 {
				fmt.Fprintf(w, "  ? only in %s, not in %s, so not compared: %s\n", side.name, side.not, strings.Join(only, ", "))
			}
		}
		if len(k.Metrics) == 0 && len(k.Appeared) == 0 && len(k.Gone) == 0 && len(k.Missing) == 0 {
			fmt.Fprintln(w, "  no change")
		}
	}
	return nil
}

// diffSummary is a diff's bottom line: the geometric mean of the shared
// kernels' duration ratios, the total kernel time of each side, the
// kernels left out as unchanged, or that the sides share no kernel.
func diffSummary(d *Diff, na, nb string) []string {
	s := d.Summary
	var out []string
	if s.Shared == 0 && s.KernelsA > 0 && s.KernelsB > 0 {
		out = append(out, fmt.Sprintf("warning: %s and %s share no kernel: nothing is compared (two different programs?)", na, nb))
	}
	var parts []string
	if s.Geomean != nil {
		parts = append(parts, fmt.Sprintf("geomean duration ×%.3f (%+.1f%%) over %s", *s.Geomean, (*s.Geomean-1)*100, plural(s.Timed, "shared kernel")))
	}
	if s.TotalA > 0 && s.TotalB > 0 && d.Step == nil { // the step line says it
		parts = append(parts, fmt.Sprintf("total kernel time %s → %s (%+.1f%%)", metrics.Format(s.TotalA, "s"), metrics.Format(s.TotalB, "s"), (s.TotalB/s.TotalA-1)*100))
	}
	if s.Unchanged > 0 && len(d.Kernels) < s.KernelsA+s.KernelsB-s.Shared {
		parts = append(parts, fmt.Sprintf("%d unchanged kernels not listed (--all lists them)", s.Unchanged))
	}
	if len(parts) > 0 {
		out = append(out, strings.Join(parts, " · "))
	}
	return out
}

// column heads a diff column: RUN 3, or an export's file name.
func column(name string, run int64) string {
	if run != 0 {
		return strings.ToUpper(name)
	}
	return filepath.Base(name)
}

func diffJSON(w io.Writer, d *Diff, _ Options) error { return encodeJSON(w, d) }

// spreadN is a benchstat-style sample description: ±3% n=5, or n=1.
func spreadN(spread float64, n int) string {
	if n < 2 {
		return fmt.Sprintf("n=%d", n)
	}
	return fmt.Sprintf("±%.0f%% n=%d", spread*100, n)
}

// testText says what decided a verdict.
func testText(m MetricDelta) string {
	switch m.Test {
	case stats.Exact:
		return "exact (counter)"
	case stats.Launches:
		return "Mann-Whitney U " + formatP(m.P)
	case stats.History:
		return "history t-test " + formatP(m.P) + ", " + m.History
	}
	return "floor (5%, no run-to-run spread known)"
}

// Trend, diff and runs outputs share the verdict formats' names: text and
// json; trend also writes csv (one row per stored value).
var csvFormat = &Format{Name: "csv", Trend: trendCSV}

// Run is a stored run as profan runs lists it and a trend chart places it.
type Run struct {
	ID      int64
	Digest  string
	Source  string
	Tool    string
	Format  string
	Device  string
	Labels  map[string]string
	Created time.Time // UTC: when it was stored
	// Captured is when the capture was taken, where its export says (a
	// PyTorch trace); zero else.
	Captured time.Time
	Kernels  int // kernel records: the launches
	Names    int // distinct kernel names: the kernels
}

// JSONRunRecord is one run in profan runs --format json.
type JSONRunRecord struct {
	ID     int64             `json:"id"`
	Labels map[string]string `json:"labels"`
	Source string            `json:"source"`
	Device string            `json:"device"`
	Time   string            `json:"time"` // when the run was stored
	// Captured is when the capture was taken, where its export says (a
	// PyTorch trace's baseTimeNanoseconds); absent else.
	Captured string `json:"captured,omitempty"`
	Tool     string `json:"tool"`
	Format   string `json:"format"`
	Kernels  int    `json:"kernels"` // kernel records, as before: the launches
	// Launches is the kernel records (the launches, as kernels says);
	// Names the distinct kernel names.
	Launches int    `json:"launches"`
	Names    int    `json:"distinct_kernels"`
	Digest   string `json:"digest"`
}

func runsJSON(w io.Writer, rs []Run, _ Options) error {
	out := make([]JSONRunRecord, 0, len(rs))
	for _, r := range rs {
		j := JSONRunRecord{ID: r.ID, Labels: r.Labels, Source: r.Source, Device: r.Device,
			Time: r.Created.UTC().Format(time.RFC3339), Tool: r.Tool, Format: r.Format, Kernels: r.Kernels, Launches: r.Kernels, Names: r.Names, Digest: r.Digest}
		if !r.Captured.IsZero() {
			j.Captured = r.Captured.UTC().Format(time.RFC3339)
		}
		out = append(out, j)
	}
	return encodeJSON(w, out)
}

func runsText(w io.Writer, rs []Run, _ Options) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// CAPTURED is when the capture was taken, where the export says (a
	// PyTorch trace does, CSV exports do not: "-"); INGESTED when it was
	// stored; launches and kernels apart.
	fmt.Fprintln(tw, "RUN\tCAPTURED\tINGESTED\tTOOL\tDEVICE\tLAUNCHES\tKERNELS\tLABELS\tSOURCE")
	for _, r := range rs {
		captured := "-"
		if !r.Captured.IsZero() {
			captured = r.Captured.UTC().Format("2006-01-02 15:04:05")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\n", r.ID, captured, r.Created.UTC().Format("2006-01-02 15:04:05"), r.Tool, safe.Term(r.Device), r.Kernels, r.Names, safe.Term(LabelText(r.Labels)), safe.Term(r.Source))
	}
	return tw.Flush()
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Model is a prediction of profan model with what it was asked.
type Model struct {
	Arch      string
	CC        string
	ElemBytes int
	Threads   int
	Pattern   string
	Pred      gpumodel.Prediction
}

func modelJSON(w io.Writer, m *Model, _ Options) error {
	p := m.Pred
	return encodeJSON(w, map[string]any{
		"arch": m.Arch, "cc": m.CC, "elem_bytes": m.ElemBytes, "threads": m.Threads, "pattern": m.Pattern,
		"requests": p.Requests, "l1_transactions": p.L1Transactions, "l2_sectors": p.L2Sectors,
		"ideal_requests": p.IdealRequests, "ideal_l1_transactions": p.IdealL1Transactions, "ideal_l2_sectors": p.IdealL2Sectors,
		"sectors_per_request": p.SectorsPerRequest, "ideal_sectors_per_request": p.IdealSectorsPerRequest, "efficiency": p.Efficiency,
	})
}

func modelText(w io.Writer, m *Model, _ Options) error {
	p := m.Pred
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "cc %s, %d threads of %d-byte elements, %s\n", m.CC, m.Threads, m.ElemBytes, m.Pattern)
	fmt.Fprintf(tw, "\tpredicted\tideal\t\n")
	fmt.Fprintf(tw, "requests\t%s\t%s\t\n", count(p.Requests), count(p.IdealRequests))
	fmt.Fprintf(tw, "L1 transactions (128 B)\t%s\t%s\t\n", count(p.L1Transactions), count(p.IdealL1Transactions))
	fmt.Fprintf(tw, "L2 sectors (32 B)\t%s\t%s\t\n", count(p.L2Sectors), count(p.IdealL2Sectors))
	fmt.Fprintf(tw, "sectors per request\t%.2f\t%.2f\t\n", p.SectorsPerRequest, p.IdealSectorsPerRequest)
	fmt.Fprintf(tw, "efficiency\t%.1f%%\t\t\n", p.Efficiency*100)
	return tw.Flush()
}

func count(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}
