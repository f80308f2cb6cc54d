package ingest

import (
	"errors"
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// ncuSummary reads ncu --print-summary per-kernel: one row per (kernel
// launch shape, section, metric) with Minimum, Maximum and Average over the
// Invocations. Each shape becomes one aggregated kernel record.
type ncuSummary struct{}

func (ncuSummary) Name() string { return "ncu-summary" }
func (ncuSummary) Tool() string { return profan.ToolNCU }

func (ncuSummary) Match(h []string) bool {
	return ncuHeader(h, []string{"Kernel Name", "Invocations", "Metric Name", "Minimum", "Maximum", "Average"})
}

func (ncuSummary) Parse(t *table) error {
	c := columnsOf(t.Header)
	id := ncuIdentityOf(c)
	inv := c.Get("Invocations")
	section, name, unit := c.Get("Section Name"), c.Get("Metric Name"), c.Get("Metric Unit")
	lo, hi, avg := c.Get("Minimum"), c.Get("Maximum"), c.Get("Average")
	var g rowKernels
	var shape string
	var rows blockShape // every kernel has the same metric rows
	lr := launchRows{summary: true}
	for t.Scan() {
		r := t.Row()
		if err := checkWidth(t, r, len(t.Header)); err != nil {
			return err
		}
		key := r.String(id.kernel) + "\x00" + r.String(id.block) + "\x00" + r.String(id.grid) + "\x00" + r.String(id.device) + "\x00" + r.String(inv)
		k, err := g.at(t, func(*profan.Kernel) bool { return key == shape }, func() (*profan.Kernel, error) {
			k, err := id.newKernel(t, r)
			if err != nil {
				return nil, err
			}
			k.ID = t.Ordinal()
			shape = key
			if err := lr.end(t, rows.rows, g.last, false); err != nil {
				return nil, err
			}
			rows.start()
			lr.start(k, r.Line, rows.blocks)
			n, ok, err := units.ParseNumber(r.String(inv))
			if err != nil || !ok || n < 1 {
				return nil, t.Errorf(r.Line, "invocations %q is not a positive count", r.String(inv))
			}
			k.Invocations = int(n)
			return k, nil
		})
		if err != nil {
			return err
		}
		g.last = r.Line
		lr.row(rows.rows, false, r.Line, r.String(name), r.Bytes(section), nil, r.Bytes(name), r.Bytes(unit))
		rows.rows++
		u := t.Intern(r.Bytes(unit))
		m, err := ncuValue(t, r.Line, t.Intern(r.Bytes(name)), t.Intern(r.Bytes(section)), r.String(avg), u)
		if err != nil {
			return err
		}
		if m.IsNumber() {
			sc := units.Lookup(u, units.Decimal)
			for _, col := range []int{lo, hi} {
				v, ok, err := units.ParseNumber(r.String(col))
				if err != nil && !errors.Is(err, units.ErrInfinite) {
					return t.Errorf(r.Line, "metric %s: %s %q is not a number", m.Name, t.Header[col], r.String(col))
				}
				if ok && col == lo {
					m.Min = v * sc.Factor
				} else if ok {
					m.Max = v * sc.Factor
				}
			}
		}
		k.AddMetric(m)
		setKernelFromMetric(k, m)
	}
	if t.Err() != nil {
		return t.Err()
	}
	if err := lr.end(t, rows.rows, g.last, t.AtEnd()); err != nil {
		return err
	}
	if k := g.k; k != nil && t.AtEnd() && rows.short() {
		return t.Errorf(g.last, "kernel %s ends after %d metric rows where the kernels before it have %d: the export is cut short (still being written?)",
			shorten(k.Name, 60), rows.rows, rows.first)
	}
	return g.flush(t)
}
