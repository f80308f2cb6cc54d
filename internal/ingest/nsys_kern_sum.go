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
	// NVTX and combined kernel+memory summaries have a Style, Range,
	// Operation or Category column.
	return nsysSumMatch(h, "Instances", "Style", "Range", "Operation", "Category")
}

// nsysSumMatch reports an nsys summary's header: a share column first,
// then the Total Time, count and Name columns, and none of reject.
func nsysSumMatch(h []string, count string, reject ...string) bool {
	if len(h) < 4 {
		return false
	}
	if first, _ := nsysColumn(h[0]); first != "Time" {
		return false
	}
	var total, n, name bool
	for _, x := range h {
		switch b, _ := nsysColumn(x); b {
		case "Total Time":
			total = true
		case count:
			n = true
		case "Name":
			name = true
		default:
			for _, r := range reject {
				if b == r {
					return false
				}
			}
		}
	}
	return total && n && name
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

func (nsysKernSum) Parse(t *table) error {
	const format = "nsys-cuda-gpu-kern-sum"
	h, err := readNsysSum(t, format, "Instances")
	if err != nil {
		return err
	}
	c, unitOf := h.c, h.unitOf
	var share shares
	err = t.eachRow(format, "a header", func(r row) error {
		cell := func(col string) string { return h.cell(r, col) }
		row := nsysKernSumRow{TimePct: cell("Time"), Total: cell("Total Time"), Instances: cell("Instances"),
			Avg: cell("Avg"), Med: cell("Med"), Min: cell("Min"), Max: cell("Max"), StdDev: cell("StdDev"), Name: cell("Name")}
		var v [7]float64
		if err := h.nums(t, r, v[:], "Time", "Total Time", "Avg", "Min", "Max", "Med", "StdDev"); err != nil {
			return err
		}
		inst, err := h.count(t, r, "Instances", "a launch count")
		if err != nil {
			return err
		}
		share.add(v[0], r.Line)
		k := profan.NewKernel()
		k.ID = t.Ordinal()
		k.Name = t.Intern([]byte(row.Name))
		if strings.TrimSpace(k.Name) == "" {
			return t.Errorf(r.Line, "row has no kernel name")
		}
		if err := share.once(t, k.Name, r.Line); err != nil {
			return err
		}
		k.Demangled = t.demangled(k.Name, r.Line)
		k.Invocations, k.Duration = inst, v[2]
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

// nsysSum is the header of an nsys stats summary table (kernels, CUDA API
// or OS runtime calls): the columns by their names without units
// ("Avg (ns)" → "Avg"), the older spellings mapped ("Average" → "Avg"),
// and each time column's factor to seconds.
type nsysSum struct {
	c      columns
	unitOf map[string]string
	factor map[string]float64
}

// readNsysSum reads t's header as an nsys summary's, which must have the
// share, total, count (Instances or Num Calls), average and name columns.
func readNsysSum(t *table, format, count string) (nsysSum, error) {
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
	if err := needColumns(t, format, c, "Time", "Total Time", count, "Avg", "Name"); err != nil {
		return nsysSum{}, err
	}
	// A time column's unit: the header's "(ns)", "(us)"...; nsys prints ns
	// when the header does not say.
	factors := map[string]float64{}
	for _, col := range []string{"Total Time", "Avg", "Med", "Min", "Max", "StdDev"} {
		u := unitOf[col]
		if u == "" {
			u = "ns"
		}
		sc := units.Lookup(u, units.Decimal)
		if sc.Base != units.Second {
			return nsysSum{}, t.Errorf(t.Line, "column %q: unit %q is not a unit of time", col, u)
		}
		factors[col] = sc.Factor
	}
	return nsysSum{c: c, unitOf: unitOf, factor: factors}, nil
}

// cell is the row's cell of col; "" when the table has no such column.
func (h nsysSum) cell(r row, col string) string {
	if i := h.c.Get(col); i >= 0 {
		return r.String(i)
	}
	return ""
}

// num reads s, the row's cell of col, times factor: NaN when empty (never
// 0), an infinity read as missing with a note, an error for anything else
// that is no number.
func (h nsysSum) num(t *table, r row, col, s string, factor float64) (float64, error) {
	s = strings.TrimSpace(s)
	v, ok, err := units.ParseNumber(s)
	if errors.Is(err, units.ErrInfinite) {
		t.note(r.Line, noteInfinite, "column %q: %q read as a missing value", col, s)
		return math.NaN(), nil
	}
	if err != nil || math.IsInf(v*factor, 0) {
		return math.NaN(), t.Errorf(r.Line, "column %q: %q is not a number", t.Header[h.c.Get(col)], s)
	}
	if !ok {
		return math.NaN(), nil
	}
	return v * factor, nil
}

// nums reads the row's cells of cols into v: the share (Time) as
// printed, the times in seconds.
func (h nsysSum) nums(t *table, r row, v []float64, cols ...string) error {
	for i, col := range cols {
		f := 1.0
		if col != "Time" {
			f = h.factor[col]
		}
		var err error
		if v[i], err = h.num(t, r, col, h.cell(r, col), f); err != nil {
			return err
		}
	}
	return nil
}

// count reads the row's count column (Instances, Num Calls): a whole
// number from 1 on.
func (h nsysSum) count(t *table, r row, col, what string) (int, error) {
	raw := h.cell(r, col)
	n, err := h.num(t, r, col, raw, 1)
	if err != nil {
		return 0, err
	}
	if !(n >= 1) || n != math.Trunc(n) || n > math.MaxInt32 {
		return 0, t.Errorf(r.Line, "column %q: %q is not %s", col, raw, what)
	}
	return int(n), nil
}

// shares sums a summary table's shares of the total time, which a whole
// table holds to 100%.
type shares struct {
	sum  float64
	rows int
	last int // the line of the last row
	nan  bool
	// lines is the line of each name's row: a summary has one row per
	// name (kernel, call), and the same name again is a row written
	// twice, whose time would count twice.
	lines map[string]int
}

// once refuses the row at line whose name is a row's before it.
func (s *shares) once(t *table, name string, line int) error {
	if first, ok := s.lines[name]; ok {
		return t.Errorf(line, "%s is the name of the row at line %d: a summary has one row per name (a row written twice?)", shorten(name, 60), first)
	}
	if s.lines == nil {
		s.lines = map[string]int{}
	}
	s.lines[name] = line
	return nil
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
func (s *shares) check(t *table, col string, half float64) error {
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
