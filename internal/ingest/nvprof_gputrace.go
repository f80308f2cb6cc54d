package ingest

import (
	"bytes"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// nvprofTrace reads nvprof's --print-gpu-trace table:
// one row per kernel launch, memcpy, memset or unified-memory event, after
// a units row that gives each column's unit for the whole file ("ms,us,…",
// prefixes are powers of 1024). Header generations of 17, 20 and 22
// columns are handled by locating columns by name.
//
// Rows with a Grid X are kernel launches; the others are activities. The
// launch ID is the correlation ID: the " [1073]" suffix of the name in the
// 17-column files, the Correlation_ID column in the newer ones.
type nvprofTrace struct{}

func (nvprofTrace) Name() string { return "nvprof-gputrace" }

// A launch row repeats the one before it but for its start, duration
// and name's correlation ID.
func (nvprofTrace) layout() layout { return layout{traceRows: true} }
func (nvprofTrace) Tool() string   { return profan.ToolNvprof }

func (nvprofTrace) Match(h []string) bool {
	return len(h) > 2 && h[0] == "Start" && h[1] == "Duration" && columnsOf(h).Has("Grid X", "Name")
}

func (nvprofTrace) Parse(t *table) error {
	const format = "nvprof-gputrace"
	c, unitsOf, err := nvprofHeader(t, format, "Start", "Duration", "Grid X", "Name")
	if err != nil {
		return err
	}
	tc := traceColumns{name: c.Get("Name"), corr: c.Get("Correlation_ID"), src: c.Get("SrcMemType"), dst: c.Get("DstMemType")}
	var smem, dmem, um nvprofColumn
	for _, x := range []struct {
		p          *nvprofColumn
		name, base string
	}{
		{&tc.start, "Start", units.Second}, {&tc.dur, "Duration", units.Second},
		{&smem, "Static SMem", units.Byte}, {&dmem, "Dynamic SMem", units.Byte},
		{&tc.size, "Size", units.Byte}, {&tc.thru, "Throughput", units.BytePerSec},
		{&um, "Unified Memory", units.Byte},
	} {
		if *x.p, err = nvprofColumnOf(t, c, unitsOf, x.name, x.base); err != nil {
			return err
		}
	}
	tc.launch = launchColumns{gridName: "Grid ", blockName: "Block ", regs: c.Get("Registers Per Thread"), regsName: "Registers Per Thread",
		smem: smem, dmem: dmem, dev: c.Get("Device"), ctx: c.Get("Context"), stream: c.Get("Stream")}
	for i, a := range []string{"X", "Y", "Z"} {
		tc.launch.grid[i], tc.launch.block[i] = c.Get("Grid "+a), c.Get("Block "+a)
	}
	// A kernel row's name is interned without its correlation suffix,
	// read from the row's bytes.
	kernel := func(start, dur float64, r row) error {
		k, err := nvprofKernelOf(t, r, r.Bytes(tc.name), tc.corr)
		if err != nil {
			return err
		}
		k.Start, k.Duration = start, dur
		if err := tc.launch.fill(t, r, k); err != nil {
			return err
		}
		return t.Kernel(k, r.Line)
	}
	return t.eachRow(format, "a header and units row", func(r row) error {
		start, dur, err := tc.times(t, r)
		if err != nil {
			return err
		}
		if tc.isKernel(r) {
			return kernel(start, dur, r)
		}
		// A name is interned but for the older versions' " [1234]"
		// correlation suffix, one string per row.
		var printed string
		if b := r.Bytes(tc.name); len(b) > 0 && b[len(b)-1] == ']' {
			printed = string(b)
		} else {
			printed = t.Intern(b)
		}
		a, err := tc.activity(t, r, printed, r.String(tc.corr), start, dur)
		if err != nil {
			return err
		}
		// The Unified Memory column holds a byte count for UM memcpy
		// rows, and a PC string or a fault count for page faults.
		if strings.HasPrefix(strings.ToLower(a.Kind), "um memcpy") {
			if v, err := um.at(t, r); err == nil {
				a.Bytes = v
			}
		}
		return t.Activity(a)
	})
}

// stripCorrelation splits nvprof's "name [1073]" into the name and the
// correlation ID; a name without the suffix comes back unchanged.
func stripCorrelation[T string | []byte](s T) (name, id T) {
	n := len(s)
	if n == 0 || s[n-1] != ']' {
		return s, s[:0]
	}
	// The digits before the "]", after a " [": the last " [" of s, since
	// none lies in digits.
	j := n - 1
	for j > 0 && s[j-1] >= '0' && s[j-1] <= '9' {
		j--
	}
	if j == n-1 || j < 2 || s[j-1] != '[' || s[j-2] != ' ' {
		return s, s[:0]
	}
	return s[:j-2], s[j : n-1]
}

// nvprofHeader indexes the header of an nvprof table with a units row,
// checks that it has the columns need, and reads the units row.
func nvprofHeader(t *table, format string, need ...string) (columns, []string, error) {
	c := columnsOf(t.Header)
	if err := needColumns(t, format, c, need...); err != nil {
		return nil, nil, err
	}
	unitsOf, err := nvprofUnitsRow(t, format)
	return c, unitsOf, err
}

// nvprofUnitsRow consumes the units row that follows the header of
// nvprof's trace, summary and wide tables: one unit per column, empty for
// unitless columns. A row holding anything but unit tokens means the
// units row is missing, and the values cannot be scaled.
func nvprofUnitsRow(t *table, format string) ([]string, error) {
	if !t.Scan() {
		if t.Err() != nil {
			return nil, t.Err()
		}
		return nil, t.Errorf(t.Line, "%s: the table ends after its header: the units row is missing", format)
	}
	r := t.Row()
	t.markUnits()
	out := make([]string, len(t.Header))
	for i := 0; i < r.Len(); i++ {
		u := strings.TrimSpace(r.String(i))
		if !isUnitToken(u) {
			return nil, t.Errorf(r.Line, "%s: expected the units row after the header, found %q in column %d", format, u, i+1)
		}
		if i < len(out) {
			out[i] = t.Intern([]byte(u))
		}
	}
	return out, nil
}

// isUnitToken reports whether s can be a cell of an nvprof units row:
// empty, "%", or a short unit such as "ms", "KB", "GB/s".
func isUnitToken(s string) bool {
	if len(s) > 8 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '%' || c == 'µ' || c == 'μ') {
			return false
		}
	}
	return true
}

// nvprofColumn is a numeric column of a table with a units row.
type nvprofColumn struct {
	i      int // -1 when the header lacks it
	name   string
	factor float64
	noUnit bool // the units row gives none: only empty values can be read
}

// nvprofColumnOf locates column name and checks that its unit, when the
// units row gives one, measures base (a time column in "KB" cannot be
// scaled to seconds). nvprof leaves the unit empty for a column without
// values only: a value in such a column cannot be scaled and is refused.
func nvprofColumnOf(t *table, c columns, unitsOf []string, name, base string) (nvprofColumn, error) {
	i := c.Get(name)
	col := nvprofColumn{i: i, name: name, factor: 1}
	if i < 0 {
		return col, nil
	}
	if unitsOf[i] == "" {
		col.noUnit = true
		return col, nil
	}
	sc := units.Lookup(unitsOf[i], units.Binary)
	if sc.Base != base {
		return col, t.Errorf(t.Line+1, "column %q: unit %q is not a unit of %s", name, unitsOf[i], base)
	}
	col.factor = sc.Factor
	return col, nil
}

// at returns the column's value in r in the base unit; NaN when empty.
func (col nvprofColumn) at(t *table, r row) (float64, error) {
	if col.noUnit && len(bytes.TrimSpace(r.Bytes(col.i))) > 0 {
		return math.NaN(), t.Errorf(r.Line, "column %q: %q has no unit (the units row gives none)", col.name, r.String(col.i))
	}
	return numberAt(t, r, col.i, col.name, col.factor)
}
