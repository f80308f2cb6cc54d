package ingest

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/ianlancetaylor/demangle"
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// parseDim3 parses ncu's "(32, 4, 1)" (also without spaces).
func parseDim3(s string) (profan.Dim3, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return profan.Dim3{}, false
	}
	parts := strings.Split(s[1:len(s)-1], ",")
	if len(parts) != 3 {
		return profan.Dim3{}, false
	}
	var d profan.Dim3
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return profan.Dim3{}, false
		}
		d[i] = n
	}
	return d, true
}

// splitDevice splits nvprof's "TITAN X (Pascal) (0)" into the name and the
// index; the name itself may hold parentheses, so the last group wins. (By
// hand, not by regexp: it runs once per row of long traces.)
func splitDevice(s string) (string, int) {
	if !strings.HasSuffix(s, ")") {
		return s, -1
	}
	open := strings.LastIndexByte(s, '(')
	digits := s[open+1 : len(s)-1]
	if open < 0 || digits == "" || len(digits) > 9 {
		return s, -1
	}
	n := 0
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return s, -1
		}
		n = n*10 + int(digits[i]-'0')
	}
	name := strings.TrimRight(s[:open], " \t")
	if name == "" {
		return s, -1
	}
	return name, n
}

// Bounds of demangling. The demangler recurses once per nesting level
// and its work grows with the square of a deeply nested name's length: a
// hostile 4 MB name overflowed the stack, a 1 MB one took 72 s and 600 MB.
// A real mangled kernel name is under a few kB (CUTLASS's longest, about
// 10 kB); one past maxMangled, or past an export's budget of demangling
// work (the sum of its distinct names' squared lengths, some seconds at
// worst), keeps its raw name, with a note.
const (
	maxMangled    = 32 << 10
	mangledBudget = 1 << 32
	maxDemangled  = 17 // demangle.MaxLength: at most 128 kB of output
)

// demangled returns the demangled form of a mangled C++ symbol, or "": not
// mangled, not valid, or longer than maxMangled.
func demangled(name string) string {
	if !strings.HasPrefix(name, "_Z") || len(name) > maxMangled {
		return ""
	}
	d, err := demangle.ToString(name, demangle.NoClones, demangle.MaxLength(maxDemangled))
	if err != nil {
		return ""
	}
	return d
}

// demangled is demangled(name) within the export's bounds: each distinct
// name is demangled once, and a name past the bounds stays raw with a note
// at line.
func (t *table) demangled(name string, line int) string {
	if !strings.HasPrefix(name, "_Z") {
		return ""
	}
	s := t.s
	if d, ok := s.demangled[name]; ok {
		return d
	}
	cost := uint64(len(name)) * uint64(len(name))
	d := ""
	switch {
	case len(name) > maxMangled:
		t.note(line, noteMangled, "a mangled kernel name of %d bytes is kept as it is: past %d bytes, demangling it could take minutes", len(name), maxMangled)
	case s.demangleWork+cost > mangledBudget:
		t.note(line, noteMangled, "mangled kernel names from here on are kept as they are: the export's names have taken all the demangling work allowed")
	default:
		s.demangleWork += cost
		d = demangled(name)
	}
	if len(s.demangled) < maxNames {
		if s.demangled == nil {
			s.demangled = map[string]string{}
		}
		s.demangled[name] = d
	}
	return d
}

// ncuValue builds a metric from an ncu value and unit (decimal prefixes).
// Instanced values ("32.00; 32.00; 4.00") keep every sample and their sum
// as the value, as ncu's own .sum rollups do for instanced counters; with
// --print-metric-instances, "29.95 (29.95)" and "16 (0: 16; 1: 16)" keep
// the printed value and the instances as samples. A value in a column with
// a unit that is no number is an error at its line; a decimal comma is
// read with a note, an infinity as a missing value with a note.
func ncuValue(t *table, line int, name, section, raw, unit string) (profan.Metric, error) {
	return ncuValueIn(t, line, name, section, raw, unit, units.Lookup(unit, units.Decimal), false)
}

// ncuValueIn is ncuValue with the unit's scale sc looked up already and,
// with unitOK, the unit found known and of the class the name says
// (ncuUnitOK): a details page's metric rows repeat from launch to launch.
func ncuValueIn(t *table, line int, name, section, raw, unit string, sc units.Scale, unitOK bool) (profan.Metric, error) {
	m := profan.NewMetric(name)
	m.Section, m.Raw, m.RawUnit = section, raw, unit
	m.Unit = sc.Base
	v, ok, err := units.ParseNumber(raw)
	if (ok || err != nil) && !unitOK {
		if err := checkNCUUnit(t, line, name, unit, sc.Base); err != nil {
			return m, err
		}
	}
	switch {
	case ok:
		m.Value = v * sc.Factor
	case err == nil:
		// n/a or empty: no value.
	case errors.Is(err, units.ErrInfinite):
		t.note(line, noteInfinite, "%s = %q read as a missing value", name, raw)
	default:
		if head, inst, ok := cutInstances(raw); ok {
			if v, ok, _ := units.ParseNumber(head); ok {
				if samples, ok := instanceValues(inst, sc.Factor); ok {
					m.Value, m.Samples = v*sc.Factor, samples
					break
				}
			}
		}
		if strings.Contains(raw, "; ") || (strings.HasPrefix(raw, "(") && strings.HasSuffix(raw, ")")) {
			if samples, ok := instanceValues(strings.TrimSuffix(strings.TrimPrefix(raw, "("), ")"), sc.Factor); ok {
				sum := 0.0
				for _, x := range samples {
					sum += x
				}
				m.Value, m.Samples = sum, samples
				break
			}
		}
		if v, ok := units.ParseDecimalComma(raw); ok {
			t.note(line, noteDecimalComma, "%s = %q read as %g", name, raw, v)
			m.Value = v * sc.Factor
			break
		}
		if unit != "" {
			return m, t.Errorf(line, "metric %s (%s): %q is not a number", name, unit, raw)
		}
		m.Text = raw
	}
	if math.IsInf(m.Value, 0) {
		t.note(line, noteInfinite, "%s = %q overflows once scaled to base units, read as a missing value", name, raw)
		m.Value = math.NaN()
	}
	if m.Value < 0 {
		// Said here, at its line, not where the launch ends.
		switch ncuUnitClass(name) {
		case units.Second:
			return m, t.Errorf(line, "metric %s: negative duration %q", name, raw)
		case units.Byte:
			return m, t.Errorf(line, "metric %s: negative byte count %q", name, raw)
		}
	}
	return m, nil
}

// checkNCUUnit checks the unit of an ncu metric that has a value: a unit
// profan does not know is said once and kept as printed; a unit of the
// wrong kind for what the metric's name says it measures (a duration in
// "furlong" or "Tbyte/ms", a byte counter in "%") is an error, since no
// scale turns it into the base unit the metric's readers expect.
// ncuUnitOK reports whether checkNCUUnit passes without a note.
func ncuUnitOK(name, unit, base string) bool {
	want := ncuUnitClass(name)
	return units.Known(unit) && (want == "" || want == base)
}

func checkNCUUnit(t *table, line int, name, unit, base string) error {
	if !units.Known(unit) {
		t.note(line, noteUnknownUnit, "metric %s in %q, kept as printed", name, unit)
	}
	want := ncuUnitClass(name)
	switch {
	case want == "":
		return nil
	case want == base:
		return nil
	}
	what := map[string]string{units.Second: "a time", units.Byte: "a byte count", units.Percent: "a percentage"}[want]
	if unit == "" {
		return t.Errorf(line, "metric %s has no unit; its name says it is %s", name, what)
	}
	return t.Errorf(line, "metric %s: unit %q is not %s, as the metric's name says it is", name, unit, what)
}

// ncuUnitClass returns the base unit an ncu metric's name says its value
// is in ("s", "B" or "%"), or "" when the name does not say (a rate is
// printed without a unit when the counter has none). Names are counter.rollup.submetric: the submetric (a
// percentage of peak, a rate) decides before the counter (a duration, a
// byte count).
func ncuUnitClass(name string) string {
	if name == "Duration" {
		return units.Second
	}
	if strings.HasPrefix(name, "derived__") {
		return "" // a formula of the user's (or of a section), in any unit
	}
	counter, sub, _ := strings.Cut(name, ".")
	switch {
	case strings.Contains(sub, "pct"):
		return units.Percent
	case strings.Contains(sub, "per_second") || strings.Contains(sub, "peak_sustained") || strings.Contains(sub, "per_cycle") || strings.Contains(sub, "ratio"):
		return ""
	case strings.HasSuffix(counter, "__time_duration"):
		return units.Second
	case strings.HasSuffix(counter, "__bytes") || strings.HasSuffix(counter, "__bytes_read") || strings.HasSuffix(counter, "__bytes_write"):
		return units.Byte
	}
	return ""
}

// cutInstances splits "V (instances)", as --print-metric-instances prints
// a value, into V and the instances.
func cutInstances(raw string) (head, inst string, ok bool) {
	i := strings.Index(raw, " (")
	if i <= 0 || !strings.HasSuffix(raw, ")") {
		return "", "", false
	}
	return raw[:i], raw[i+2 : len(raw)-1], true
}

// instanceValues parses "a; b; c" or "0: a; 1: b", scaled by factor.
func instanceValues(s string, factor float64) ([]float64, bool) {
	var out []float64
	for _, p := range strings.Split(s, "; ") {
		p = strings.TrimSpace(p)
		if _, v, found := strings.Cut(p, ": "); found {
			p = v
		}
		x, ok, _ := units.ParseNumber(p)
		if !ok {
			return nil, false
		}
		out = append(out, x*factor)
	}
	return out, len(out) > 0
}

// Kinds of note said once per export.
const (
	noteInfinite     = "infinite"
	noteDecimalComma = "decimal comma"
	noteUnknownUnit  = "unknown unit"
	noteMangled      = "mangled name"
)

// setKernelFromMetric fills the kernel's launch fields from metrics that
// carry them, whichever name generation the export uses.
func setKernelFromMetric(k *profan.Kernel, m profan.Metric) {
	if !m.IsNumber() {
		if m.Name == "device__attribute_display_name" && m.Text != "" && k.Device == "" {
			k.Device = m.Text
		}
		return
	}
	switch m.Name {
	case "gpu__time_duration.sum", "gpu__time_duration", "Duration":
		if m.Unit == units.Second && math.IsNaN(k.Duration) {
			k.Duration = m.Value
		}
	case "launch__registers_per_thread", "Registers Per Thread":
		if k.Registers == 0 {
			k.Registers = int(m.Value)
		}
	case "launch__shared_mem_per_block_static", "Static Shared Memory Per Block":
		if math.IsNaN(k.StaticSMem) {
			k.StaticSMem = m.Value
		}
	case "launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block":
		if math.IsNaN(k.DynamicSMem) {
			k.DynamicSMem = m.Value
		}
	}
}

// ccString normalizes a compute capability ("8" → "8.0").
func ccString(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || s == "No-CC" {
		return ""
	}
	if !strings.Contains(s, ".") {
		return s + ".0"
	}
	return s
}

// needColumns reports the first of names that the header lacks, at the
// header line. Importers check it so that a table forced on them with
// --format fails with a message instead of yielding empty records.
func needColumns(t *table, format string, c columns, names ...string) error {
	for _, n := range names {
		if c.Get(n) < 0 {
			return t.Errorf(t.Line, "%s: the header has no %q column", format, n)
		}
	}
	return nil
}

// checkWidth reports a row with fewer fields than its header: a line cut
// short. Profilers write every field of a row, empty ones included.
func checkWidth(t *table, r row, n int) error {
	if r.Len() < n {
		return t.Errorf(r.Line, "row has %d fields, the header has %d (truncated row?)", r.Len(), n)
	}
	return nil
}

// numberAt parses field i of r, named col in errors, and multiplies it by
// factor. An empty or n/a field, or a column the header lacks (i < 0), is
// NaN; anything else that is not a number is an error at the row's line.
func numberAt(t *table, r row, i int, col string, factor float64) (float64, error) {
	if i < 0 {
		return math.NaN(), nil
	}
	if v, ok := plainNumber(r.Bytes(i)); ok && !math.IsInf(v*factor, 0) {
		return v * factor, nil
	}
	s := strings.TrimSpace(r.String(i))
	v, ok, err := units.ParseNumber(s)
	if errors.Is(err, units.ErrInfinite) {
		t.note(r.Line, noteInfinite, "column %q: %q read as a missing value", col, s)
		return math.NaN(), nil
	}
	if err != nil {
		if d, ok := units.ParseDecimalComma(s); ok {
			t.note(r.Line, noteDecimalComma, "column %q: %q read as %g", col, s, d)
			return d * factor, nil
		}
		return math.NaN(), t.Errorf(r.Line, "column %q: %q is not a number", col, s)
	}
	if !ok {
		return math.NaN(), nil
	}
	v *= factor
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return math.NaN(), t.Errorf(r.Line, "column %q: %q is out of range", col, s)
	}
	return v, nil
}

// plainNumber parses the common case of a trace field, a plain decimal
// number ("587.796940", "20", "8.960000e-04"), without allocating; ok is
// false for anything else (empty, thousands separators, units, locale
// forms, out of range), which units.ParseNumber then reads.
func plainNumber(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 32 {
		return 0, false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != '-' && c != 'e' && c != 'E' && c != '+' {
			return 0, false
		}
	}
	if v, ok := units.ShortDecimal(b); ok {
		return v, true
	}
	v, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// countAt parses field i of r as a non-negative integer (a count, a grid
// dimension, registers). ok is false when the field is empty or absent.
func countAt(t *table, r row, i int, col string) (n int, ok bool, err error) {
	v, err := numberAt(t, r, i, col, 1)
	if err != nil || math.IsNaN(v) {
		return 0, false, err
	}
	if v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false, t.Errorf(r.Line, "column %q: %q is not a count", col, strings.TrimSpace(r.String(i)))
	}
	return int(v), true, nil
}

// activityKind names a memory activity from its printed name:
// "[CUDA memcpy HtoD]" and nsys's "[CUDA memcpy Host-to-Device]" are
// "memcpy HtoD", "[CUDA memset]" is "memset", and unified-memory rows
// ("[Unified Memory Memcpy HtoD]", the UM summary's "Host To Device") are
// "um " and the text as printed. Other names are kept without brackets.
func activityKind(name string) string {
	s := strings.TrimSpace(name)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	switch {
	case strings.HasPrefix(s, "CUDA memcpy "):
		dir := strings.TrimSpace(strings.TrimPrefix(s, "CUDA memcpy "))
		switch dir {
		case "Host-to-Device":
			dir = "HtoD"
		case "Device-to-Host":
			dir = "DtoH"
		case "Device-to-Device":
			dir = "DtoD"
		case "Peer-to-Peer":
			dir = "PtoP"
		case "Host-to-Host":
			dir = "HtoH"
		}
		return "memcpy " + dir
	case strings.HasPrefix(s, "CUDA memset"):
		return "memset"
	case strings.HasPrefix(s, "Unified Memory "):
		return "um " + strings.TrimPrefix(s, "Unified Memory ")
	case strings.HasPrefix(s, "CUDA Unified Memory "):
		return "um " + strings.TrimPrefix(s, "CUDA Unified Memory ")
	}
	return s
}

// sortMetrics orders a kernel's metrics by name; importers that build
// metrics from maps call it so that output is deterministic.
func sortMetrics(k *profan.Kernel) { k.SortMetrics() }

// launchColumns locate a kernel's launch configuration in a trace row;
// nvprof and nsys traces name them differently but fill them alike.
type launchColumns struct {
	grid, block         [3]int
	gridName, blockName string // column name prefix before the axis letter
	regs                int
	regsName            string
	smem, dmem          nvprofColumn
	dev, ctx, stream    int
	// last is what the last kernel row filled read, kept with the bytes
	// of its fields: a trace's next launch whose fields are the same
	// bytes takes its values (fill).
	last lastLaunchRow
}

// lastLaunchRow is a kernel row's launch fields: their bytes, one after
// the other (ends), the row's length, and what fill read of them.
type lastLaunchRow struct {
	ok          bool
	n           int // fields in the row
	text        []byte
	ends        [launchFields]int
	grid, block profan.Dim3
	regs        int
	smem, dmem  float64
	dev         string
	devIdx      int
	ctx, stream string
}

// launchFields is the number of columns fill reads.
const launchFields = 12

// columns are the columns fill reads, in a fixed order (-1: absent).
func (c *launchColumns) columns() [launchFields]int {
	return [launchFields]int{c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], c.regs, c.smem.i, c.dmem.i, c.dev, c.ctx, c.stream}
}

// same reports whether r holds the bytes of the row last kept in the
// columns fill reads, and has as many fields.
func (l *lastLaunchRow) same(r row, cols *[launchFields]int) bool {
	if !l.ok || r.Len() != l.n {
		return false
	}
	from := 0
	for j, i := range cols {
		if !bytes.Equal(r.Bytes(i), l.text[from:l.ends[j]]) {
			return false
		}
		from = l.ends[j]
	}
	return true
}

// keep keeps r's bytes in the columns fill reads and what fill read of
// them into k.
func (l *lastLaunchRow) keep(r row, cols *[launchFields]int, k *profan.Kernel) {
	l.text = l.text[:0]
	for j, i := range cols {
		l.text = append(l.text, r.Bytes(i)...)
		l.ends[j] = len(l.text)
	}
	l.ok, l.n = true, r.Len()
	l.grid, l.block, l.regs, l.smem, l.dmem = k.Grid, k.Block, k.Registers, k.StaticSMem, k.DynamicSMem
	l.dev, l.devIdx, l.ctx, l.stream = k.Device, k.DeviceIndex, k.Context, k.Stream
}

// traceColumns locate what a row of a GPU trace (nvprof's, nsys's)
// holds: a kernel launch, with its launch configuration, or a memory
// activity, with its memory kinds, size and throughput.
type traceColumns struct {
	start, dur, size, thru nvprofColumn
	name, corr, src, dst   int
	launch                 launchColumns
}

// times reads the start and duration of row r.
func (c *traceColumns) times(t *table, r row) (start, dur float64, err error) {
	if start, err = c.start.at(t, r); err != nil {
		return 0, 0, err
	}
	dur, err = c.dur.at(t, r)
	return start, dur, err
}

// isKernel reports whether row r is a kernel launch: it has a grid.
func (c *traceColumns) isKernel(r row) bool {
	return len(bytes.TrimSpace(r.Bytes(c.launch.grid[0]))) > 0
}

// activity returns the memory activity of row r, whose kind is read from
// its name as printed, and whose correlation ID is corr.
func (c *traceColumns) activity(t *table, r row, printed, corr string, start, dur float64) (*profan.Activity, error) {
	a := &profan.Activity{
		Kind: t.Intern([]byte(activityKind(printed))), Name: t.Intern(r.Bytes(c.name)),
		Start: start, Duration: dur, Invocations: 1,
		SrcMemType: t.Intern(r.Bytes(c.src)), DstMemType: t.Intern(r.Bytes(c.dst)),
		Device: t.Intern(r.Bytes(c.launch.dev)), Stream: t.Intern(r.Bytes(c.launch.stream)), Correlation: corr,
	}
	var err error
	if a.Bytes, err = c.size.at(t, r); err != nil {
		return nil, err
	}
	if a.Throughput, err = c.thru.at(t, r); err != nil {
		return nil, err
	}
	return a, nil
}

// fill copies the launch configuration of row r into k.
func (c *launchColumns) fill(t *table, r row, k *profan.Kernel) error {
	cols := c.columns()
	if l := &c.last; l.same(r, &cols) {
		// The same bytes as the kernel row before: its values.
		k.Grid, k.Block, k.Registers, k.StaticSMem, k.DynamicSMem = l.grid, l.block, l.regs, l.smem, l.dmem
		k.Device, k.DeviceIndex, k.Context, k.Stream = l.dev, l.devIdx, l.ctx, l.stream
		return nil
	}
	if err := c.read(t, r, k); err != nil {
		c.last.ok = false
		return err
	}
	c.last.keep(r, &cols, k)
	return nil
}

// read reads the launch fields of r into k.
func (c *launchColumns) read(t *table, r row, k *profan.Kernel) error {
	var err error
	for i := range 3 {
		if k.Grid[i], err = c.count(t, r, c.grid[i], c.gridName, "XYZ"[i:i+1]); err != nil {
			return err
		}
		if k.Block[i], err = c.count(t, r, c.block[i], c.blockName, "XYZ"[i:i+1]); err != nil {
			return err
		}
	}
	if k.Registers, err = c.count(t, r, c.regs, c.regsName, ""); err != nil {
		return err
	}
	if k.StaticSMem, err = c.smem.at(t, r); err != nil {
		return err
	}
	if k.DynamicSMem, err = c.dmem.at(t, r); err != nil {
		return err
	}
	k.Device, k.DeviceIndex = splitDevice(t.Intern(r.Bytes(c.dev)))
	k.Context, k.Stream = t.Intern(r.Bytes(c.ctx)), t.Intern(r.Bytes(c.stream))
	return nil
}

// count reads column i of r as a count; the column's name (name+axis) is
// only put together for an error, since this runs per row of long traces.
func (c *launchColumns) count(t *table, r row, i int, name, axis string) (int, error) {
	if i >= 0 {
		if b := r.Bytes(i); len(b) > 0 && len(b) < 10 {
			n := 0
			for _, d := range b {
				if d < '0' || d > '9' {
					n = -1
					break
				}
				n = n*10 + int(d-'0')
			}
			if n >= 0 {
				return n, nil
			}
		}
	}
	n, _, err := countAt(t, r, i, name+axis)
	return n, err
}

// nvprofKernel starts a kernel from an nvprof row: its name without the
// " [1234]" correlation suffix of older versions, and its ID from the
// Correlation_ID column, else that suffix, else the launch ordinal.
func nvprofKernel(t *table, r row, printed string, corr int) (*profan.Kernel, error) {
	return nvprofKernelOf(t, r, printed, corr)
}

// nvprofKernelOf is nvprofKernel of the name as printed, a string or the
// row's bytes: from bytes, the name is interned without a string made
// (a trace's launches repeat it) and the ID is the suffix's digits
// alone.
func nvprofKernelOf[T string | []byte](t *table, r row, printed T, corr int) (*profan.Kernel, error) {
	base, id := stripCorrelation(printed)
	if len(base) == 0 {
		return nil, t.Errorf(r.Line, "kernel row has no name")
	}
	k := t.newKernel()
	switch b := any(base).(type) {
	case string:
		k.Name = t.InternString(b)
	case []byte:
		k.Name = t.Intern(b)
	}
	k.Demangled = t.demangled(k.Name, r.Line)
	var c []byte
	if corr >= 0 {
		c = bytes.TrimSpace(r.Bytes(corr))
	}
	switch {
	case len(c) > 0:
		k.ID = t.idString(c)
	case len(id) > 0:
		switch id := any(id).(type) {
		case string:
			k.ID = id
		case []byte:
			k.ID = t.idString(id)
		}
	default:
		k.ID = t.Ordinal()
	}
	return k, nil
}
