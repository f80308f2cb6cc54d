package ingest

import (
	"errors"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// nsysKernSum reads Nsight Systems' CUDA kernel summary (nsys stats
// --report cuda_gpu_kern_sum --format csv):
//
//	Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
//
// with the units in the header names and minimal quoting. Older nsys
// (gpukernsum) spells the columns "Time(%)", "Average", "Minimum",
// "Maximum" and has no median; --timeunit changes "(ns)". One Kernel per
// row, Invocations = Instances, Duration = Avg, and the metrics of section
// "summary": duration (Avg, with Min and Max as its range), duration_median,
// duration_stddev, gpu_time_total (s) and gpu_time_pct (%), the same names
// as nvprof's summary.
type nsysKernSum struct{}

func (nsysKernSum) Name() string { return "nsys-cuda-gpu-kern-sum" }
func (nsysKernSum) Tool() string { return profan.ToolNsys }

func (nsysKernSum) Match(h []string) bool {
	if len(h) < 4 {
		return false
	}
	first, _ := nsysColumn(h[0])
	if first != "Time" {
		return false
	}
	var total, inst, name bool
	for _, x := range h {
		switch b, _ := nsysColumn(x); b {
		case "Total Time":
			total = true
		case "Instances":
			inst = true
		case "Name":
			name = true
		case "Style", "Range", "Operation", "Category":
			return false // NVTX and combined kernel+memory summaries
		}
	}
	return total && inst && name
}

// nsysKernSumRow is one row of the summary: its cells by column, read by
// the header names without their units ("Avg (ns)" → "Avg") and with the
// old spellings mapped ("Average" → "Avg"), so one name covers every
// generation. The cells stay strings so that units.ParseNumber reads the
// numbers (an empty cell is missing, never 0).
type nsysKernSumRow struct {
	TimePct, Total, Instances, Avg, Med, Min, Max, StdDev, Name string
}

// nsysSumAliases maps the older spellings of the summary columns.
var nsysSumAliases = map[string]string{"Average": "Avg", "Median": "Med", "Minimum": "Min", "Maximum": "Max"}

func (nsysKernSum) Parse(t *Table) error {
	const format = "nsys-cuda-gpu-kern-sum"
	header := make([]string, len(t.Header))
	unitOf := map[string]string{}
	for i, h := range t.Header {
		base, unit := nsysColumn(h)
		if a, ok := nsysSumAliases[base]; ok {
			base = a
		}
		header[i] = base
		if _, dup := unitOf[base]; !dup {
			unitOf[base] = unit
		}
	}
	c := columnsOf(header)
	if err := needColumns(t, format, c, "Time", "Total Time", "Instances", "Avg", "Name"); err != nil {
		return err
	}
	// A time column's unit: the header's "(ns)", "(us)"...; nsys prints ns
	// when the header does not say.
	scale := func(col string) (float64, error) {
		u := unitOf[col]
		if u == "" {
			u = "ns"
		}
		sc := units.Lookup(u, units.Decimal)
		if sc.Base != units.Second {
			return 0, t.Errorf(t.Line, "column %q: unit %q is not a unit of time", col, u)
		}
		return sc.Factor, nil
	}
	factors := map[string]float64{}
	for _, col := range []string{"Total Time", "Avg", "Med", "Min", "Max", "StdDev"} {
		f, err := scale(col)
		if err != nil {
			return err
		}
		factors[col] = f
	}
	var share shares
	err := t.eachRow(format, "a header", func(r row) error {
		cell := func(col string) string {
			if i := c.Get(col); i >= 0 {
				return r.String(i)
			}
			return ""
		}
		row := nsysKernSumRow{TimePct: cell("Time"), Total: cell("Total Time"), Instances: cell("Instances"),
			Avg: cell("Avg"), Med: cell("Med"), Min: cell("Min"), Max: cell("Max"), StdDev: cell("StdDev"), Name: cell("Name")}
		num := func(col, s string, factor float64) (float64, error) {
			s = strings.TrimSpace(s)
			v, ok, err := units.ParseNumber(s)
			if errors.Is(err, units.ErrInfinite) {
				t.note(r.Line, noteInfinite, "column %q: %q read as a missing value", col, s)
				return math.NaN(), nil
			}
			if err != nil || math.IsInf(v*factor, 0) {
				return math.NaN(), t.Errorf(r.Line, "column %q: %q is not a number", t.Header[c.Get(col)], s)
			}
			if !ok {
				return math.NaN(), nil
			}
			return v * factor, nil
		}
		var v [7]float64
		for i, x := range []struct{ col, s string }{
			{"Time", row.TimePct}, {"Total Time", row.Total}, {"Avg", row.Avg}, {"Min", row.Min},
			{"Max", row.Max}, {"Med", row.Med}, {"StdDev", row.StdDev},
		} {
			f := 1.0
			if i > 0 {
				f = factors[x.col]
			}
			var err error
			if v[i], err = num(x.col, x.s, f); err != nil {
				return err
			}
		}
		inst, err := num("Instances", row.Instances, 1)
		if err != nil {
			return err
		}
		if !(inst >= 1) || inst != math.Trunc(inst) || inst > math.MaxInt32 {
			return t.Errorf(r.Line, "column \"Instances\": %q is not a launch count", row.Instances)
		}
		share.add(v[0], r.Line)
		k := profan.NewKernel()
		k.ID = t.Ordinal()
		k.Name = t.Intern([]byte(row.Name))
		if strings.TrimSpace(k.Name) == "" {
			return t.Errorf(r.Line, "row has no kernel name")
		}
		k.Demangled = t.demangled(k.Name, r.Line)
		k.Invocations, k.Duration = int(inst), v[2]
		addSummaryMetrics(k, summaryTimes{
			pct: v[0], total: v[1], avg: v[2], min: v[3], max: v[4],
			rawPct: row.TimePct, rawTotal: row.Total, rawAvg: row.Avg,
			unitPct: unitOf["Time"], unitTotal: unitOf["Total Time"], unitAvg: unitOf["Avg"],
		})
		for _, x := range []struct {
			name, raw, unit string
			v               float64
			col             string
		}{{"duration_median", row.Med, unitOf["Med"], v[5], "Med"}, {"duration_stddev", row.StdDev, unitOf["StdDev"], v[6], "StdDev"}} {
			if c.Get(x.col) < 0 {
				continue // gpukernsum has no median
			}
			m := profan.NewMetric(x.name)
			m.Section, m.Value, m.Unit, m.Raw, m.RawUnit = "summary", x.v, units.Second, x.raw, x.unit
			k.AddMetric(m)
		}
		return t.Kernel(k, r.Line)
	})
	if err != nil {
		return err
	}
	return share.check(t, "Time (%)", 0.05)
}

// shares sums a summary table's shares of the total time, which a whole
// table holds to 100%.
type shares struct {
	sum  float64
	rows int
	last int // the line of the last row
	nan  bool
}

func (s *shares) add(pct float64, line int) {
	s.sum += pct
	s.rows++
	s.last = line
	s.nan = s.nan || math.IsNaN(pct)
}

// check refuses a table at the end of the input whose shares (each
// rounded by up to half a unit, half) sum to less than 100%: rows were
// lost at its end, a cut at a line end that no row shows.
func (s *shares) check(t *Table, col string, half float64) error {
	if !t.AtEnd() || s.rows == 0 || s.nan || s.sum >= 100-half*float64(s.rows)-0.1 {
		return nil
	}
	return t.Errorf(s.last, "the table's %s column sums to %.2f%%, not 100%%: its last rows are missing (an export cut short, or still being written?)", col, s.sum)
}

// nsysColumn splits an nsys header name into its name and the unit in
// parentheses: "Avg (ns)" → "Avg", "ns"; "Thru(MB/s)" → "Thru", "MB/s";
// "Time (%)" → "Time", "%". A name without a unit comes back whole.
func nsysColumn(h string) (name, unit string) {
	h = strings.TrimSpace(h)
	if !strings.HasSuffix(h, ")") {
		return h, ""
	}
	open := strings.LastIndexByte(h, '(')
	if open <= 0 {
		return h, ""
	}
	return strings.TrimSpace(h[:open]), strings.TrimSpace(h[open+1 : len(h)-1])
}
