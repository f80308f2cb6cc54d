package ingest

import (
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// nvprofUMSummary reads the table after nvprof's "Unified Memory profiling
// result:": per device and kind of transfer or fault,
// the count and sizes. Sizes carry their unit ("40.860352KB", powers of
// 1024); there is no units row, and the last column, the kind, has an empty
// header. Each row becomes an Activity of kind "um <kind as printed>" with
// Bytes = Total Size and Invocations = Count (1 when empty, as on the
// "Gpu page fault groups" row).
//
// Total Time is not kept: the export does not say its unit and every value
// seen is 0.000000, even for 6 MB of transfers, so it cannot be checked.
type nvprofUMSummary struct{}

func (nvprofUMSummary) Name() string { return "nvprof-um-summary" }
func (nvprofUMSummary) Tool() string { return profan.ToolNvprof }

func (nvprofUMSummary) Match(h []string) bool {
	return len(h) >= 4 && h[0] == "Device" && h[1] == "Count" && columnsOf(h).Has("Avg Size", "Total Size")
}

func (nvprofUMSummary) Parse(t *table) error {
	const format = "nvprof-um-summary"
	c := columnsOf(t.Header)
	if err := needColumns(t, format, c, "Device", "Count", "Total Size"); err != nil {
		return err
	}
	dev, count, size := c.Get("Device"), c.Get("Count"), c.Get("Total Size")
	kind := c.Get("")
	if kind < 0 {
		kind = len(t.Header) - 1
	}
	return t.eachRow(format, "a header", func(r row) error {
		printed := strings.TrimSpace(r.String(kind))
		if printed == "" {
			return t.Errorf(r.Line, "row has no kind of transfer or fault in its last column")
		}
		n, ok, err := countAt(t, r, count, "Count")
		if err != nil {
			return err
		}
		if !ok || n < 1 {
			n = 1
		}
		a := &profan.Activity{
			Kind: t.Intern([]byte("um " + printed)), Name: t.Intern([]byte(printed)),
			Start: math.NaN(), Duration: math.NaN(), Bytes: math.NaN(), Throughput: math.NaN(),
			Device: t.Intern(r.Bytes(dev)), Invocations: n,
		}
		v, err := nvprofField(t, r, size, "")
		if err != nil {
			return err
		}
		if v.base != "" && v.base != units.Byte {
			return t.Errorf(r.Line, "column \"Total Size\": %q is not a size", r.String(size))
		}
		a.Bytes = v.value
		return t.Activity(a)
	})
}
