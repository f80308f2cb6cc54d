package ingest

import (
	"bytes"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// ncuDetails reads Nsight Compute's details page (the default of --csv,
// --page details, --metrics): one row per (launch, section, metric) and,
// since 2024, rule rows in the same table. Header generations of 12, 15, 20
// and 21 columns are handled by locating columns by name; metric rows
// shorter than the header are normal.
type ncuDetails struct{}

func (ncuDetails) Name() string { return "ncu-details" }
func (ncuDetails) Tool() string { return profan.ToolNCU }

// A launch's rows of a details page may hold the sub-tables of
// --print-details all, and repeat rows of body items.
func (ncuDetails) layout() layout { return layout{subTables: true, repeatsRows: true} }

func (ncuDetails) Match(h []string) bool {
	return ncuHeader(h, []string{"ID", "Kernel Name", "Metric Name", "Metric Value"}, "Minimum")
}

// ncuHeader reports whether header h has every column of has and none of
// lacks: how ncu's pages are told apart.
func ncuHeader(h []string, has []string, lacks ...string) bool {
	c := columnsOf(h)
	if !c.Has(has...) {
		return false
	}
	for _, n := range lacks {
		if c.Has(n) {
			return false
		}
	}
	return true
}

// ncuIdentity locates the identity columns shared by the details, raw and
// summary pages.
type ncuIdentity struct {
	id, pid, proc, host, kernel, ctx, stream, block, grid, device, cc int
}

func ncuIdentityOf(c columns) ncuIdentity {
	return ncuIdentity{
		id: c.Get("ID"), pid: c.Get("Process ID"), proc: c.Get("Process Name"), host: c.Get("Host Name"), kernel: c.Get("Kernel Name"),
		ctx: c.Get("Context"), stream: c.Get("Stream"), block: c.Get("Block Size"), grid: c.Get("Grid Size"),
		device: c.Get("Device"), cc: c.Get("CC"),
	}
}

// kernel starts a kernel from an identity row.
func (id ncuIdentity) newKernel(t *table, r row) (*profan.Kernel, error) {
	k := profan.NewKernel()
	k.ID = r.String(id.id)
	k.Name = t.Intern(r.Bytes(id.kernel))
	if k.Name == "" {
		return nil, t.Errorf(r.Line, "row has no kernel name (truncated row?)")
	}
	k.Demangled = t.demangled(k.Name, r.Line)
	k.Line = r.Line
	if id.pid >= 0 {
		k.PID = t.Intern(r.Bytes(id.pid))
	}
	if id.host >= 0 {
		k.Host = t.Intern(r.Bytes(id.host))
	}
	if id.proc >= 0 {
		k.Process = t.Intern(r.Bytes(id.proc))
	}
	if k.Process == "" && id.pid >= 0 {
		k.Process = t.Intern(r.Bytes(id.pid))
	}
	if id.ctx >= 0 {
		k.Context = t.Intern(r.Bytes(id.ctx))
	}
	if id.stream >= 0 {
		k.Stream = t.Intern(r.Bytes(id.stream))
	}
	if id.block >= 0 {
		if d, ok := parseDim3(r.String(id.block)); ok {
			k.Block = d
		}
	}
	if id.grid >= 0 {
		if d, ok := parseDim3(r.String(id.grid)); ok {
			k.Grid = d
		}
	}
	if id.device >= 0 {
		if n, ok, _ := units.ParseNumber(r.String(id.device)); ok {
			k.DeviceIndex = int(n)
		}
	}
	if id.cc >= 0 {
		k.CC = ccString(r.String(id.cc))
	}
	return k, nil
}

// sameLaunch reports whether r belongs to the kernel whose first row had
// id, process ID pid and name, read in capture.
func (id ncuIdentity) sameLaunch(t *table, r row, k *profan.Kernel, pid string, capture int) bool {
	return t.s.capture == capture && string(r.Bytes(id.id)) == k.ID && string(r.Bytes(id.kernel)) == k.Name &&
		string(r.Bytes(id.pid)) == pid
}

// skipNoMetric counts the details rows of a section that has no metric.
const skipNoMetric = "ncu section row without a metric"

func (ncuDetails) Parse(t *table) error {
	c := columnsOf(t.Header)
	id := ncuIdentityOf(c)
	section, label := c.Get("Section Name"), c.Get("Body Item Label")
	name, unit, value := c.Get("Metric Name"), c.Get("Metric Unit"), c.Get("Metric Value")
	rule, ruleType, ruleDesc := c.Get("Rule Name"), c.Get("Rule Type"), c.Get("Rule Description")
	spType, sp := c.Get("Estimated Speedup Type"), c.Get("Estimated Speedup")
	need := value
	if name > need {
		need = name
	}
	g := rowKernels{share: true}
	var pid string
	capture := 0
	// Every launch of a page has the same metric rows (the sections asked
	// for); its rule rows vary.
	var shape blockShape
	var names metricRows
	var lr launchRows
	// The rule descriptions of the launch before and of this one, in
	// order: a launch's rule rows often say what the launch before's said
	// at their place, and a description the same bytes is that string, not
	// a new one (several kB a launch).
	var descsBefore, descs []string
	for t.Scan() {
		r := t.Row()
		k, err := g.at(t, func(k *profan.Kernel) bool { return id.sameLaunch(t, r, k, pid, capture) }, func() (*profan.Kernel, error) {
			k, err := id.newKernel(t, r)
			if err != nil {
				return nil, err
			}
			k.IndexedLike(g.index)
			k.Grow(g.metrics)
			if err := lr.end(t, shape.rows, g.last, false); err != nil {
				return nil, err
			}
			if t.s.capture != capture {
				shape = blockShape{} // another capture: learnt again
				lr.reset()
			}
			shape.start()
			lr.start(k, r.Line, shape.blocks)
			descsBefore, descs = descs, descsBefore[:0]
			pid, capture = r.String(id.pid), t.s.capture
			return k, t.checkLaunch(k, pid, r.Line)
		})
		if err != nil {
			return err
		}
		if err := detailsWidth(t, r, need); err != nil {
			return err
		}
		g.last = r.Line
		if rule >= 0 && len(r.Bytes(rule)) > 0 {
			var desc string
			if i := len(descs); i < len(descsBefore) && string(r.Bytes(ruleDesc)) == descsBefore[i] {
				desc = descsBefore[i]
			} else {
				desc = r.String(ruleDesc)
			}
			descs = append(descs, desc)
			f := profan.ToolFinding{
				Section: t.Intern(r.Bytes(section)), Rule: t.Intern(r.Bytes(rule)), Type: t.Intern(r.Bytes(ruleType)),
				Description: desc, SpeedupType: t.Intern(r.Bytes(spType)), Speedup: math.NaN(),
			}
			if v, ok, _ := units.ParseNumber(r.String(sp)); ok {
				f.Speedup = v
			}
			k.Findings = append(k.Findings, f)
			continue
		}
		mname := r.Bytes(name)
		if len(mname) == 0 {
			t.Skip(skipNoMetric)
			continue // rows of sections without metrics
		}
		n, hit := names.of(t, shape.rows, r.Bytes(section), r.Bytes(label), mname, r.Bytes(unit))
		lr.row(shape.rows, hit, r.Line, n.name, r.Bytes(section), r.Bytes(label), mname, r.Bytes(unit))
		shape.rows++
		m, err := ncuValueIn(t, r.Line, n.name, n.section, string(r.Bytes(value)), n.unit, n.scale, n.unitOK)
		if err != nil {
			return err
		}
		if err := t.AddMetric(k, m, r.Line); err != nil {
			return err
		}
		setKernelFromMetric(k, m)
	}
	if t.Err() != nil {
		return t.Err()
	}
	if err := lr.end(t, shape.rows, g.last, t.AtEnd()); err != nil {
		return err
	}
	if k := g.k; k != nil && t.AtEnd() && shape.short() {
		return t.Errorf(g.last, "launch %s of %s ends after %d metric rows where the launches before it have %d: the export is cut short (still being written?)",
			k.ID, shorten(k.Name, 60), shape.rows, shape.first)
	}
	return g.flush(t)
}

// metricRows remembers what the names of each metric row of a launch
// of a details page were read as, by the row's place among the launch's
// metric rows: every launch of a page has the same metric rows (the
// sections asked for), so a row's section, label, name and unit are, byte
// for byte, those of the row at its place in the launches before, and
// are not interned, looked up and checked again.
type metricRows []metricRow

// metricRow is the names of a metric row as printed and as read.
type metricRow struct {
	rawSection, rawLabel, rawName, rawUnit []byte
	section, name, unit                    string
	scale                                  units.Scale
	unitOK                                 bool // ncuUnitOK
}

// of returns the names of the metric row at place i of its launch, and
// whether they are those of the row remembered at that place.
func (rows *metricRows) of(t *table, i int, section, label, name, unit []byte) (*metricRow, bool) {
	if i < len(*rows) {
		if m := &(*rows)[i]; bytes.Equal(m.rawName, name) && bytes.Equal(m.rawSection, section) &&
			bytes.Equal(m.rawUnit, unit) && bytes.Equal(m.rawLabel, label) {
			return m, true
		}
	}
	if i > len(*rows) || i >= maxKernelMetrics {
		var m metricRow // not remembered: a place past those known
		m.read(t, section, label, name, unit)
		return &m, false
	}
	if i == len(*rows) {
		*rows = append(*rows, metricRow{})
	}
	m := &(*rows)[i]
	m.read(t, section, label, name, unit)
	return m, false
}

// read reads the names of a metric row.
func (m *metricRow) read(t *table, section, label, name, unit []byte) {
	m.rawSection = append(m.rawSection[:0], section...)
	m.rawLabel = append(m.rawLabel[:0], label...)
	m.rawName = append(m.rawName[:0], name...)
	m.rawUnit = append(m.rawUnit[:0], unit...)
	m.section = t.Intern(section)
	if len(label) > 0 {
		m.section = m.section + "/" + t.Intern(label)
	}
	m.name = t.Intern(metricOfLabelName(name))
	m.unit = t.Intern(unit)
	m.scale = units.Lookup(m.unit, units.Decimal)
	m.unitOK = ncuUnitOK(m.name, m.unit, m.scale.Base)
}

// rowKernels makes kernels of runs of consecutive rows (a launch's rows
// of a details page, a kernel's of a summary table): a kernel ends at the
// first row that is not its, and is handed on at the line of its last row.
type rowKernels struct {
	k       *profan.Kernel
	last    int // the line of k's last row, which the importer sets
	metrics int // the metrics of the kernel before k: k likely has as many
	// With share, index is the metric index of the kernel before k, which
	// k takes (profan.Kernel.IndexedLike) where the importer says so: a
	// details page's launches have the same metric rows.
	share bool
	index *profan.MetricIndex
}

// at returns the kernel of the current row: the kernel read, if the row
// is its (its says), else a new one (start), the kernel read handed on.
func (g *rowKernels) at(t *table, its func(*profan.Kernel) bool, start func() (*profan.Kernel, error)) (*profan.Kernel, error) {
	if g.k != nil && !its(g.k) {
		if err := g.flush(t); err != nil {
			return nil, err
		}
	}
	if g.k == nil {
		k, err := start()
		if err != nil {
			return nil, err
		}
		g.k = k
	}
	return g.k, nil
}

// flush hands the kernel read on, if any.
func (g *rowKernels) flush(t *table) error {
	k := g.k
	if k == nil {
		return nil
	}
	g.k, g.metrics = nil, len(k.Metrics)
	if g.share && !k.IndexedBy(g.index) {
		g.index = profan.IndexOf(k) // before k is handed on
	}
	return t.Kernel(k, g.last)
}

// detailsWidth refuses a row that is neither as wide as its header nor a
// metric row as ncu writes it when the header has rule columns: its
// fields up to the metric value, then a comma (need is the index of the
// last metric field). Any other width is a row cut short, whose missing
// fields would be read as empty.
func detailsWidth(t *table, r row, need int) error {
	n := r.Len()
	if n == len(t.Header) || n == need+2 && n < len(t.Header) && len(r.Bytes(n-1)) == 0 {
		return nil
	}
	if n <= need {
		return t.Errorf(r.Line, "row has %d fields, the header needs %d for the metric value (truncated row?)", n, need+1)
	}
	return t.Errorf(r.Line, "row has %d fields, the header has %d (a metric row has %d, the last one empty) (truncated row?)", n, len(t.Header), need+2)
}

// metricOfLabelName returns the metric name of --print-metric-name
// label-name ("Duration (gpu__time_duration.sum)"), else name as it is.
func metricOfLabelName(name []byte) []byte {
	if len(name) < 4 || name[len(name)-1] != ')' {
		return name
	}
	i := bytes.LastIndex(name, []byte(" ("))
	if i <= 0 {
		return name
	}
	inner := name[i+2 : len(name)-1]
	if bytes.Contains(inner, []byte("__")) && bytes.IndexByte(inner, ' ') < 0 {
		return inner
	}
	return name
}

// blockShape learns the rows of a page's first block (a launch of a
// details page, a kernel of a summary page), which every block of the
// page has: a last block with fewer at the end of the input was cut at a
// line end (a file still being written), which no row shows.
type blockShape struct{ first, rows, blocks int }

// start begins a block.
func (b *blockShape) start() {
	if b.blocks == 1 {
		b.first = b.rows
	}
	b.blocks++
	b.rows = 0
}

// short reports whether the current block has fewer rows than the first.
func (b *blockShape) short() bool { return b.blocks > 1 && b.rows < b.first }
