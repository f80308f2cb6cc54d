package ingest

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// nvprofMetrics reads nvprof's --metrics table: one row
// per (device, kernel, metric), aggregated over the kernel's launches, with
// the unit glued to each value ("45.917851GB/s", "29.3%", "Idle (0)").
// Rows come grouped by kernel; each group becomes one Kernel whose
// Invocations says how many launches it aggregates.
type nvprofMetrics struct{}

func (nvprofMetrics) Name() string { return "nvprof-metrics" }
func (nvprofMetrics) Tool() string { return profan.ToolNvprof }

func (nvprofMetrics) Match(h []string) bool {
	return nvprofAggregateHeader(h) && columnsOf(h).Has("Metric Name")
}

func (nvprofMetrics) Parse(t *table) error {
	return parseNvprofAggregate(t, "nvprof-metrics", "metric", "Metric Name")
}

// nvprofAggregateHeader reports whether h starts like the metric and event
// tables: "Device","Kernel","Invocations", then the name and the
// Min/Max/Avg columns.
func nvprofAggregateHeader(h []string) bool {
	return len(h) >= 7 && h[0] == "Device" && h[1] == "Kernel" && h[2] == "Invocations" &&
		columnsOf(h).Has("Min", "Max", "Avg")
}

// parseNvprofAggregate reads a metric or event table. Each run of rows
// with the same device and kernel becomes one Kernel; a kernel that comes
// back after another kernel's rows starts a new record. Events carry a
// Total column (the sum over the invocations) in newer nvprof; it is kept
// as a second metric "<event>:total" so that the event itself stays a
// per-launch average like the metrics.
func parseNvprofAggregate(t *table, format, section, nameCol string) error {
	c := columnsOf(t.Header)
	if err := needColumns(t, format, c, "Device", "Kernel", "Invocations", nameCol, "Min", "Max", "Avg"); err != nil {
		return err
	}
	dev, kern, inv, name := c.Get("Device"), c.Get("Kernel"), c.Get("Invocations"), c.Get(nameCol)
	minCol, maxCol, avgCol, totalCol := c.Get("Min"), c.Get("Max"), c.Get("Avg"), c.Get("Total")
	var g rowKernels
	var kdev string
	// The line of each metric read of the kernel: a kernel's block names
	// each once, and the same one again is a line written twice (its
	// value, the same or not, would be dropped or taken in silence).
	seen := map[string]int{}
	g.last = t.Line
	err := t.eachRow(format, "a header", func(r row) error {
		k, err := g.at(t, func(k *profan.Kernel) bool { return string(r.Bytes(dev)) == kdev && string(r.Bytes(kern)) == k.Name }, func() (*profan.Kernel, error) {
			k := profan.NewKernel()
			k.Name = t.Intern(r.Bytes(kern))
			if k.Name == "" {
				return nil, t.Errorf(r.Line, "row has no kernel name")
			}
			k.ID = t.Ordinal()
			k.Demangled = t.demangled(k.Name, r.Line)
			kdev = t.Intern(r.Bytes(dev))
			k.Device, k.DeviceIndex = splitDevice(kdev)
			n, ok, err := countAt(t, r, inv, "Invocations")
			if err != nil {
				return nil, err
			}
			if !ok || n < 1 {
				return nil, t.Errorf(r.Line, "column \"Invocations\": %q is not a launch count", r.String(inv))
			}
			k.Invocations = n
			clear(seen)
			return k, nil
		})
		if err != nil {
			return err
		}
		g.last = r.Line
		mname := t.Intern(r.Bytes(name))
		if mname == "" {
			return t.Errorf(r.Line, "row has no %s", strings.ToLower(nameCol))
		}
		if first, ok := seen[mname]; ok {
			return t.Errorf(r.Line, "%s %s of %s was already read at line %d (a line written twice?)", section, mname, shorten(k.Name, 60), first)
		}
		seen[mname] = r.Line
		m, err := nvprofAggregateMetric(t, r, mname, section, avgCol, minCol, maxCol)
		if err != nil {
			return err
		}
		if err := t.AddMetric(k, m, r.Line); err != nil {
			return err
		}
		if totalCol >= 0 {
			tm, err := nvprofAggregateMetric(t, r, mname+":total", section, totalCol, -1, -1)
			if err != nil {
				return err
			}
			if err := t.AddMetric(k, tm, r.Line); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return g.flush(t)
}

// nvprofAggregateMetric builds a metric whose value is column avg and whose
// range is columns lo and hi (-1 for none). Each of the three values is
// normalized on its own: nvprof picks the suffix per value, so a row can
// read "0.000000B/s,9.338475GB/s,5.953014GB/s". Min <= Avg <= Max does not
// always hold in real exports and is not checked.
func nvprofAggregateMetric(t *table, r row, name, section string, avg, lo, hi int) (profan.Metric, error) {
	m := profan.NewMetric(name)
	m.Section = section
	m.Raw = r.String(avg)
	v, err := nvprofField(t, r, avg, "")
	if err != nil {
		return m, err
	}
	m.Value, m.Unit, m.RawUnit, m.Text = v.value, v.base, v.unit, v.text
	unitAt := avg // the column whose number gave the metric's unit
	if math.IsNaN(v.value) {
		unitAt = -1
	}
	for _, col := range []int{lo, hi} {
		if col < 0 {
			continue
		}
		x, err := nvprofField(t, r, col, "")
		if err != nil {
			return m, err
		}
		if !math.IsNaN(x.value) {
			// nvprof glues a unit to each value and picks its prefix per
			// value; the kind stays that of the metric. "5.9" among
			// "GB/s" values lost its unit and cannot be scaled.
			if unitAt < 0 {
				unitAt, m.Unit = col, x.base
			} else if x.base != m.Unit {
				return m, t.Errorf(r.Line, "metric %s: %s %q and %s %q are in different kinds of unit (a value without its unit?)",
					name, t.Header[unitAt], strings.TrimSpace(r.String(unitAt)), t.Header[col], strings.TrimSpace(r.String(col)))
			}
		}
		if col == lo {
			m.Min = x.value
		} else {
			m.Max = x.value
		}
	}
	if want := nvprofUnitClass(name); unitAt >= 0 && want != "" && m.Unit != want {
		return m, t.Errorf(r.Line, "metric %s: %q is in %s, not in %q as the metric's name says", name, strings.TrimSpace(r.String(unitAt)), unitName(m.Unit), want)
	}
	if m.Unit == "B/s" && (m.Value < 0 || m.Min < 0 || m.Max < 0) {
		return m, t.Errorf(r.Line, "metric %s: a negative throughput", name)
	}
	if unitAt >= 0 {
		// One metric is in one kind of unit in every row of the export.
		seen := stateOf(&t.s.states, newNvprofUnits).seen
		if first, ok := seen[name]; !ok {
			if len(seen) < maxNames {
				seen[name] = unitSeen{m.Unit, r.Line}
			}
		} else if first.unit != m.Unit {
			return m, t.Errorf(r.Line, "metric %s: %q is in %s, at line %d it was in %s (a value without its unit?)",
				name, strings.TrimSpace(r.String(unitAt)), unitName(m.Unit), first.line, unitName(first.unit))
		}
	}
	return m, nil
}

// nvprofUnitClass returns the base unit nvprof prints a metric in when its
// name says it ("gld_throughput" in B/s, "gld_efficiency" and
// "l2_tex_read_hit_rate" in %), else "".
func nvprofUnitClass(name string) string {
	switch {
	case strings.HasSuffix(name, "_throughput"):
		return units.BytePerSec
	case strings.HasSuffix(name, "_efficiency") || strings.HasSuffix(name, "_hit_rate"):
		return units.Percent
	}
	return ""
}

// nvprofUnits is what the nvprof metrics and events importers keep over
// an export: the kind of unit each metric was first read in.
type nvprofUnits struct{ seen map[string]unitSeen }

func newNvprofUnits() *nvprofUnits { return &nvprofUnits{seen: map[string]unitSeen{}} }

// unitSeen is the kind of unit a metric was first read in, and where.
type unitSeen struct {
	unit string
	line int
}

// unitName names a base unit in an error ("no unit" for none).
func unitName(u string) string {
	if u == "" {
		return "no unit"
	}
	return strconv.Quote(u)
}

// nvprofNumber is one nvprof value in its base unit.
type nvprofNumber struct {
	value float64 // NaN when empty, n/a or text
	base  string  // base unit: "B/s", "B", "%", "level", ""
	unit  string  // unit as printed: the suffix, the column's unit, "level"
	text  string  // a value nvprof printed as text, e.g. "<OVERFLOW>"
}

// nvprofValue parses a value as nvprof prints it in metric, event and wide
// tables: a plain number ("0.940650", "81254400", "8.192000e+03"), a number
// with a unit suffix ("45.917851GB/s", "29.317691%"; prefixes are powers
// of 1024), or a utilization level ("Idle (0)" … "Max (10)", kept as its
// 0–10 number with the unit "level"). colUnit is the unit a units row gives
// for the column; it applies to values without a suffix. ok is false for
// anything else except nvprof's bracketed markers such as "<OVERFLOW>",
// which are kept as text.
func nvprofValue(s, colUnit string) (nvprofNumber, bool) {
	s = strings.TrimSpace(s)
	if lv, ok := units.ParseLevel(s); ok {
		return nvprofNumber{value: lv, base: "level", unit: "level"}, true
	}
	num, unit := units.SplitSuffix(s)
	if unit == "" {
		unit = colUnit
	}
	sc := units.Lookup(unit, units.Binary)
	v, ok, err := units.ParseNumber(num)
	switch {
	case err != nil:
		if len(s) > 2 && s[0] == '<' && s[len(s)-1] == '>' {
			return nvprofNumber{value: math.NaN(), text: s}, true
		}
		return nvprofNumber{value: math.NaN()}, false
	case !ok:
		return nvprofNumber{value: math.NaN(), base: sc.Base, unit: unit}, true
	}
	v *= sc.Factor
	if math.IsInf(v, 0) {
		return nvprofNumber{value: math.NaN()}, false
	}
	return nvprofNumber{value: v, base: sc.Base, unit: unit}, true
}

// nvprofField parses field i of r with nvprofValue, reporting a value that
// is not a number, a level or a marker as an error naming the column.
func nvprofField(t *table, r row, i int, colUnit string) (nvprofNumber, error) {
	v, ok := nvprofValue(r.String(i), colUnit)
	if !ok {
		raw := strings.TrimSpace(r.String(i))
		num, unit := units.SplitSuffix(raw)
		if unit == "" {
			unit = colUnit
		}
		if d, ok := units.ParseDecimalComma(num); ok {
			sc := units.Lookup(unit, units.Binary)
			t.note(r.Line, noteDecimalComma, "%q read as %g", raw, d)
			return nvprofNumber{value: d * sc.Factor, base: sc.Base, unit: unit}, nil
		}
		if _, _, err := units.ParseNumber(num); errors.Is(err, units.ErrInfinite) {
			t.note(r.Line, noteInfinite, "%q read as a missing value", raw)
			return nvprofNumber{value: math.NaN(), base: sc0(unit), unit: unit}, nil
		}
		col := ""
		if i >= 0 && i < len(t.Header) {
			col = t.Header[i]
		}
		return v, t.Errorf(r.Line, "column %q: %q is not a number", col, strings.TrimSpace(r.String(i)))
	}
	return v, nil
}

// sc0 is the base unit of an nvprof unit.
func sc0(unit string) string { return units.Lookup(unit, units.Binary).Base }
