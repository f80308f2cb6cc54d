package ingest

import (
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/units"
)

// nsysGPUTrace reads Nsight Systems' GPU trace: one
// row per kernel launch, memcpy or memset, with the units in the header
// names and minimal quoting. Two generations are handled:
//
//	nsys 2020 gputrace:      Start(sec),Duration(nsec),CorrId,GrdX,…,StcSMem,DymSMem,Bytes,Thru(MB/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name
//	nsys 2021+ cuda_gpu_trace: Start (ns),Duration (ns),CorrId,GrdX,…,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),…,Ctx,GreenCtx,Strm,Name
//
// (nsys 2022 gputrace writes "Throughput (MBps)" and "None" in the cells
// a row has no value for.) A kernel whose launch call the API trace of
// the same report holds (same CorrId) gets its Launched time.
//
// Rows with a GrdX are kernel launches, with ID = CorrId; the others are
// activities. nsys prefixes are powers of 1000, unlike nvprof's: in the
// 2020 sample a 6,912-byte copy of 2,400 ns prints Thru 2880.000 MB/s,
// which is 6912 / 2400e-9 / 1e6 exactly (with 2^20 it would be 2746.6);
// likewise 294,912 B in 27,327 ns is 10791.964. Size columns without a
// unit are bytes.
type nsysGPUTrace struct{}

func (nsysGPUTrace) Name() string { return "nsys-gputrace" }
func (nsysGPUTrace) Tool() string { return profan.ToolNsys }

func (nsysGPUTrace) Match(h []string) bool {
	c, ok := nsysTraceColumns(h)
	return ok && c.Has("CorrId", "GrdX", "Name")
}

// nsysTraceColumns indexes the header of an nsys trace, whose first
// columns are Start and Duration; ok is false for any other header.
func nsysTraceColumns(h []string) (c columns, ok bool) {
	if len(h) < 4 {
		return nil, false
	}
	start, _ := nsysColumn(h[0])
	dur, _ := nsysColumn(h[1])
	if start != "Start" || dur != "Duration" {
		return nil, false
	}
	return nsysColumns(h), true
}

// nsysColumns indexes a header by its names without units.
func nsysColumns(h []string) columns {
	names := make([]string, len(h))
	for i, x := range h {
		names[i], _ = nsysColumn(x)
	}
	return columnsOf(names)
}

func (nsysGPUTrace) Parse(t *table) error {
	const format = "nsys-gputrace"
	c := nsysColumns(t.Header)
	if err := needColumns(t, format, c, "Start", "Duration", "CorrId", "GrdX", "Name"); err != nil {
		return err
	}
	col := func(base, def string, names ...string) (nvprofColumn, error) {
		return nsysUnitColumn(t, c, base, def, names...)
	}
	tc := traceColumns{name: c.Get("Name"), corr: c.Get("CorrId"), src: c.Get("SrcMemKd"), dst: c.Get("DstMemKd")}
	var smem, dmem nvprofColumn
	for _, x := range []struct {
		p         *nvprofColumn
		base, def string
		names     []string
	}{
		{&tc.start, units.Second, "ns", []string{"Start"}}, {&tc.dur, units.Second, "ns", []string{"Duration"}},
		{&smem, units.Byte, "B", []string{"StcSMem"}}, {&dmem, units.Byte, "B", []string{"DymSMem"}},
		{&tc.size, units.Byte, "B", []string{"Bytes"}}, {&tc.thru, units.BytePerSec, "MB/s", []string{"Throughput", "Thru"}},
	} {
		var err error
		if *x.p, err = col(x.base, x.def, x.names...); err != nil {
			return err
		}
	}
	tc.launch = launchColumns{grid: [3]int{c.Get("GrdX"), c.Get("GrdY"), c.Get("GrdZ")}, block: [3]int{c.Get("BlkX"), c.Get("BlkY"), c.Get("BlkZ")},
		gridName: "Grd", blockName: "Blk", regs: c.Get("Reg/Trd"), regsName: "Reg/Trd",
		smem: smem, dmem: dmem, dev: c.Get("Device"), ctx: c.Get("Ctx"), stream: c.Get("Strm")}
	host := t.s.hostCalls()
	err := t.eachRow(format, "a header", func(r row) error {
		nsysNone(r, tc.name)
		start, dur, err := tc.times(t, r)
		if err != nil {
			return err
		}
		id := strings.TrimSpace(r.String(tc.corr))
		if !tc.isKernel(r) {
			a, err := tc.activity(t, r, r.String(tc.name), id, start, dur)
			if err != nil {
				return err
			}
			return t.Activity(a)
		}
		k := profan.NewKernel()
		k.Start, k.Duration, k.Line = start, dur, r.Line
		k.Name = t.Intern(r.Bytes(tc.name))
		if strings.TrimSpace(k.Name) == "" {
			return t.Errorf(r.Line, "kernel row has no name")
		}
		k.Demangled = t.demangled(k.Name, r.Line)
		k.ID = id
		if k.ID == "" {
			k.ID = t.Ordinal()
		} else {
			k.Launched = t.s.launchedAt(id)
		}
		if err := tc.launch.fill(t, r, k); err != nil {
			return err
		}
		if err := host.gpuKernel(t, k, r.Line); err != nil {
			return err
		}
		return t.Kernel(k, r.Line)
	})
	if h := host; err == nil && h.late > 0 {
		t.note(t.Line, "nsys GPU trace", "%d kernels start after the last call of the API trace %s (%.6f s): the API trace ends early, and they have no launch call", h.late, safe.Term(h.api), h.end)
		h.late = 0
	}
	return err
}

// nsysUnitColumn locates a numeric column of an nsys trace under any of
// its names and checks that its unit measures base; def is the unit when
// the header gives none. A column the header lacks reads as missing.
func nsysUnitColumn(t *table, c columns, base, def string, names ...string) (nvprofColumn, error) {
	for _, n := range names {
		i := c.Get(n)
		if i < 0 {
			continue
		}
		_, u := nsysColumn(t.Header[i])
		if u == "" {
			u = def
		}
		if u == "MBps" {
			u = "MB/s"
		}
		sc := units.Lookup(u, units.Decimal)
		if sc.Base != base {
			return nvprofColumn{}, t.Errorf(t.Line, "column %q: unit %q is not a unit of %s", t.Header[i], u, base)
		}
		return nvprofColumn{i: i, name: t.Header[i], factor: sc.Factor}, nil
	}
	return nvprofColumn{i: -1, factor: 1}, nil
}

// nsysNone empties the cells nsys stats 2022 prints "None" in (a value
// the report's database does not have: a copy's grid, a kernel's bytes),
// which later versions leave empty; the name column (keep) stays as it is.
func nsysNone(r row, keep int) {
	for i, f := range r.fields {
		if i != keep && string(f) == "None" {
			r.fields[i] = nil
		}
	}
}
