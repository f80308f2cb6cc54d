package ingest

import (
	"github.com/profan-dev/profan"
)

// ncuRaw reads ncu's raw page (--page raw): a header of identity columns
// and metric names, a quoted units row, then one row per launch with
// hundreds to thousands of columns.
type ncuRaw struct{}

func (ncuRaw) Name() string { return "ncu-raw" }
func (ncuRaw) Tool() string { return profan.ToolNCU }

func (ncuRaw) Match(h []string) bool {
	return ncuHeader(h, []string{"ID", "Kernel Name"}, "Metric Name", "Minimum", "Source")
}

// ncuIdentityColumns are not metrics.
var ncuIdentityColumns = map[string]bool{
	"ID": true, "Process ID": true, "Process Name": true, "Host Name": true, "Kernel Name": true,
	"Kernel Time": true, "Context": true, "Stream": true, "Block Size": true, "Grid Size": true,
	"Device": true, "CC": true,
}

func (ncuRaw) Parse(t *table) error {
	c := columnsOf(t.Header)
	id := ncuIdentityOf(c)
	if !t.Scan() {
		if t.Err() != nil {
			return t.Err()
		}
		return t.Errorf(t.Line, "ncu raw page ends after its header: the units row is missing")
	}
	unitRow := t.Row()
	if len(unitRow.Bytes(id.id)) > 0 || len(unitRow.Bytes(id.kernel)) > 0 {
		return t.Errorf(unitRow.Line, "ncu raw page: expected the units row after the header, found a launch (units row missing?)")
	}
	t.markUnits()
	unitsOf := make([]string, len(t.Header))
	for i := range t.Header {
		unitsOf[i] = t.Intern(unitRow.Bytes(i))
	}
	// NVTX and other non-metric columns sit before the first metric; the
	// identity set above covers every version seen.
	metricCols := make([]int, 0, len(t.Header))
	for i, h := range t.Header {
		if !ncuIdentityColumns[h] && !isNVTXColumn(h) {
			metricCols = append(metricCols, i)
		}
	}
	for t.Scan() {
		r := t.Row()
		if r.Len() < len(t.Header) {
			return t.Errorf(r.Line, "row has %d fields, the header has %d (truncated row?)", r.Len(), len(t.Header))
		}
		k, err := id.newKernel(t, r)
		if err != nil {
			return err
		}
		if err := t.checkLaunch(k, r.String(id.pid), r.Line); err != nil {
			return err
		}
		// Room for every column in the slice and in its name index: an
		// index grown as the row is read rehashes its names at each doubling.
		k.Grow(len(metricCols))
		for _, i := range metricCols {
			raw := r.Bytes(i)
			m, err := ncuValue(t, r.Line, t.Header[i], "raw", string(raw), unitsOf[i])
			if err != nil {
				return err
			}
			k.AddMetric(m)
			setKernelFromMetric(k, m)
		}
		if err := t.Kernel(k, r.Line); err != nil {
			return err
		}
	}
	return t.Err()
}

func isNVTXColumn(h string) bool {
	return len(h) > 7 && (h[:7] == "thread " || h[:5] == "NVTX ")
}
