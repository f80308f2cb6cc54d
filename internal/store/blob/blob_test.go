package blob

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// dict is an in-memory raw_metric_keys and text_templates.
type dict struct {
	ids   map[Key]uint64
	keys  []Key
	tids  map[string]uint64
	texts []string
}

func (d *dict) textID(t []byte) (uint64, error) {
	if id, ok := d.tids[string(t)]; ok {
		return id, nil
	}
	if d.tids == nil {
		d.tids = map[string]uint64{}
	}
	d.texts = append(d.texts, string(t))
	d.tids[string(t)] = uint64(len(d.texts))
	return uint64(len(d.texts)), nil
}

func (d *dict) text(id uint64) (string, bool) {
	if id == 0 || id > uint64(len(d.texts)) {
		return "", false
	}
	return d.texts[id-1], true
}

func (d *dict) id(m *profan.Metric, _ int) (uint64, error) {
	k := KeyOf(m)
	if id, ok := d.ids[k]; ok {
		return id, nil
	}
	if d.ids == nil {
		d.ids = map[Key]uint64{}
	}
	d.keys = append(d.keys, k)
	d.ids[k] = uint64(len(d.keys))
	return uint64(len(d.keys)), nil
}

func (d *dict) key(id uint64) (Key, bool) {
	if id == 0 || id > uint64(len(d.keys)) {
		return Key{}, false
	}
	return d.keys[id-1], true
}

func (d *dict) encode(k *profan.Kernel) []byte {
	b, err := encodeKernel(nil, k, d.id, d.textID)
	if err != nil {
		panic(err)
	}
	return b
}

func TestBlobRoundTrip(t *testing.T) {
	var d dict
	for i, k := range testKernels() {
		b := d.encode(k)
		got := &profan.Kernel{ID: k.ID, Name: k.Name, Demangled: k.Demangled, Device: k.Device,
			CC: k.CC, Grid: k.Grid, Block: k.Block, Invocations: k.Invocations, Duration: k.Duration}
		if err := DecodeKernel(b, got, d.key, d.text); err != nil {
			t.Fatalf("kernel %d: %v", i, err)
		}
		if a, b := dumpKernel(got), dumpKernel(k); a != b {
			t.Errorf("kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
		for _, m := range k.Metrics {
			id, _ := d.id(&m, 0)
			v, ok, err := FindMetric(b, map[uint64]bool{id: true})
			if err != nil || !ok || math.Float64bits(v) != math.Float64bits(m.Value) {
				t.Errorf("FindMetric(%s): got %v, %v, %v; want %v", m.Name, v, ok, err, m.Value)
			}
		}
		if _, ok, err := FindMetric(b, map[uint64]bool{999: true}); ok || err != nil {
			t.Errorf("FindMetric(absent): got %v, %v", ok, err)
		}
	}
}

// TestBlobCorrupt checks that every truncation and every single-byte change
// of a blob is either decoded or reported, never a panic, and that
// truncations are always reported.
func TestBlobCorrupt(t *testing.T) {
	var d dict
	b := d.encode(testKernels()[0])
	x := map[uint64]bool{999: true}
	for n := range len(b) {
		if err := DecodeKernel(b[:n], profan.NewKernel(), d.key, d.text); !errors.Is(err, ErrCorrupt) {
			t.Errorf("truncated to %d bytes: got %v, want ErrCorrupt", n, err)
		}
		FindMetric(b[:n], x)
	}
	c := make([]byte, len(b))
	for i := range b {
		for _, y := range []byte{0x00, 0x7f, 0x80, 0xff} {
			copy(c, b)
			c[i] = y
			DecodeKernel(c, profan.NewKernel(), d.key, d.text)
			FindMetric(c, x)
		}
	}
}

func FuzzDecodeKernel(f *testing.F) {
	var d dict
	for _, k := range testKernels() {
		f.Add(d.encode(k))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		k := profan.NewKernel()
		if DecodeKernel(b, k, d.key, d.text) != nil {
			return
		}
		// What decodes survives re-encoding.
		k2 := profan.NewKernel()
		if err := DecodeKernel(d.encode(k), k2, d.key, d.text); err != nil {
			t.Fatal(err)
		}
		if a, b := dumpKernel(k2), dumpKernel(k); a != b {
			t.Errorf("re-encoding differs:\n%s\n%s", a, b)
		}
	})
}

// encodeKernel appends the blob of k to buf. key returns the ID of a
// metric's raw_metric_keys row, text that of a finding's template (nil
// writes findings out).
func encodeKernel(buf []byte, k *profan.Kernel, key func(m *profan.Metric, pos int) (uint64, error), text func([]byte) (uint64, error)) ([]byte, error) {
	e := Encoder{B: buf, Key: key, Text: text}
	return e.Kernel(k)
}

// testKernels returns three kernels with every kind of field set (those
// of internal/store's testKernels).
func testKernels() []*profan.Kernel {
	nan := math.NaN()
	k1 := profan.NewKernel()
	k1.ID = "1"
	k1.Name = "_Z6stencilPfS_i"
	k1.Demangled = "stencil(float*, float*, int)"
	k1.Device = "NVIDIA A100-SXM4-40GB"
	k1.DeviceIndex = 0
	k1.CC = "8.0"
	k1.Process = "1234"
	k1.Stream = "7"
	k1.Grid = profan.Dim3{1024, 1, 1}
	k1.Block = profan.Dim3{256, 1, 1}
	k1.Start = 0.5
	k1.Duration = 1.5e-5
	k1.Registers = 32
	k1.StaticSMem = 4096
	k1.Metrics = []profan.Metric{
		{Name: "dram__bytes_read.sum", Section: "Memory Workload Analysis", Value: 1 << 20, Unit: "B", Min: nan, Max: nan, Raw: "1.00", RawUnit: "Mbyte"},
		{Name: "launch__cache_config", Section: "Launch Statistics", Value: nan, Min: nan, Max: nan, Text: "CachePreferNone", Raw: "CachePreferNone"},
		{Name: "smsp__sass_inst_executed_op_global_ld.sum", Value: 42, Unit: "inst", Min: 40, Max: 44, Raw: "42"},
		{Name: "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Value: nan, Min: nan, Max: nan, Raw: "n/a"},
		{Name: "sm__warps_active.avg.pct_of_peak_sustained_active", Value: 12.5, Unit: "%", Min: nan, Max: nan,
			Samples: []float64{32, 32, 4, nan, 0}, Raw: "32.00; 32.00; 4.00; n/a; 0"},
		{Name: strings.Repeat("very_long_metric_name.", 20), Value: math.Copysign(0, -1), Min: nan, Max: nan, Raw: strings.Repeat("x", 300)},
	}
	k1.Findings = []profan.ToolFinding{
		{Section: "SOL", Rule: "SOLBottleneck", Type: "OPT", Description: "Memory is more heavily utilized than Compute.", SpeedupType: "local", Speedup: 12},
		{Section: "Occupancy", Rule: "AchievedOccupancy", Type: "INF", Description: "…", Speedup: nan},
	}
	k1.Source = []profan.SourceRecord{
		{File: "stencil.cu", Line: 12, Address: "0x7f2e3a000070", SASS: "LDG.E R2, [R2.64]", Source: "a[i] = b[i];",
			Counter: []profan.Metric{{Name: "memory_l2_theoretical_sectors_global", Value: 8, Min: nan, Max: nan}}},
		{Address: "0x7f2e3a000080", SASS: "EXIT"},
	}

	k2 := profan.NewKernel()
	k2.ID = "2"
	k2.Name = "reduce"
	k2.Invocations = 10
	k2.Metrics = []profan.Metric{profan.NewMetric("empty")}

	k3 := profan.NewKernel()
	k3.ID = "3"
	k3.Name = "_Z6stencilPfS_i"
	k3.Demangled = "stencil(float*, float*, int)"
	k3.Duration = 2e-5

	return []*profan.Kernel{k1, k2, k3}
}

// dumpKernel renders every field of k, NaN included; k must have been
// built without AddMetric (whose index would differ).
func dumpKernel(k *profan.Kernel) string { return fmt.Sprintf("%#v", *k) }
