package ingest

import (
	"strconv"

	"github.com/profan-dev/profan"
)

// nvprofWide reads nvprof's per-launch metric and event table
// (--print-gpu-trace with --metrics/--events): the
// columns "Device","Context","Stream","Kernel", an optional
// "Correlation_ID", then one column per metric or event, and a units row.
// Values are bare numbers in the column's unit (prefixes are powers of
// 1024) or quoted utilization levels ("Low (1)").
//
// Each row becomes one Kernel with its metrics in section "wide", named
// by the header. Old nvprof names metric columns by their description
// ("L1 Global Hit Rate"); the name is kept as printed. A header can repeat
// a name ("Multiprocessor Activity" twice): the second column becomes
// "<name>#2", the third "<name>#3", so that no value is lost.
type nvprofWide struct{}

func (nvprofWide) Name() string { return "nvprof-wide" }
func (nvprofWide) Tool() string { return profan.ToolNvprof }

func (nvprofWide) Match(h []string) bool {
	return len(h) >= 4 && h[0] == "Device" && h[1] == "Context" && h[2] == "Stream" && h[3] == "Kernel"
}

// nvprofWideIdentity are the columns of the wide table that are not
// metrics.
var nvprofWideIdentity = map[string]bool{"Device": true, "Context": true, "Stream": true, "Kernel": true, "Correlation_ID": true}

func (nvprofWide) Parse(t *table) error {
	const format = "nvprof-wide"
	c, unitsOf, err := nvprofHeader(t, format, "Device", "Context", "Stream", "Kernel")
	if err != nil {
		return err
	}
	dev, ctx, stream, kern, corr := c.Get("Device"), c.Get("Context"), c.Get("Stream"), c.Get("Kernel"), c.Get("Correlation_ID")
	type metricCol struct {
		i    int
		name string
	}
	var cols []metricCol
	seen := make(map[string]int, len(t.Header))
	for i, h := range t.Header {
		if nvprofWideIdentity[h] && c.Get(h) == i {
			continue
		}
		if h == "" {
			return t.Errorf(t.Line, "%s: column %d has no name", format, i+1)
		}
		seen[h]++
		name := h
		if n := seen[h]; n > 1 {
			name = h + "#" + strconv.Itoa(n)
		}
		cols = append(cols, metricCol{i, name})
	}
	return t.eachRow(format, "a header and units row", func(r row) error {
		k, err := nvprofKernel(t, r, r.String(kern), corr)
		if err != nil {
			return err
		}
		k.Device, k.DeviceIndex = splitDevice(t.Intern(r.Bytes(dev)))
		k.Context, k.Stream = t.Intern(r.Bytes(ctx)), t.Intern(r.Bytes(stream))
		k.Metrics = make([]profan.Metric, 0, len(cols))
		for _, mc := range cols {
			v, err := nvprofField(t, r, mc.i, unitsOf[mc.i])
			if err != nil {
				return err
			}
			m := profan.NewMetric(mc.name)
			m.Section, m.Value, m.Unit, m.RawUnit, m.Text, m.Raw = "wide", v.value, v.base, v.unit, v.text, r.String(mc.i)
			k.AddMetric(m)
		}
		return t.Kernel(k, r.Line)
	})
}
