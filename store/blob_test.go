package store

import (
	"errors"
	"math"
	"testing"

	"github.com/profan-dev/profan"
)

// dict is an in-memory raw_metric_keys.
type dict struct {
	ids  map[metricKey]uint64
	keys []metricKey
}

func (d *dict) id(m *profan.Metric, _ int) (uint64, error) {
	k := keyOf(m)
	if id, ok := d.ids[k]; ok {
		return id, nil
	}
	if d.ids == nil {
		d.ids = map[metricKey]uint64{}
	}
	d.keys = append(d.keys, k)
	d.ids[k] = uint64(len(d.keys))
	return uint64(len(d.keys)), nil
}

func (d *dict) key(id uint64) (metricKey, bool) {
	if id == 0 || id > uint64(len(d.keys)) {
		return metricKey{}, false
	}
	return d.keys[id-1], true
}

func (d *dict) encode(k *profan.Kernel) []byte {
	b, err := encodeKernel(nil, k, d.id)
	if err != nil {
		panic(err)
	}
	return b
}

func TestBlobRoundTrip(t *testing.T) {
	var d dict
	for i, rec := range testKernels() {
		b := d.encode(rec.Kernel)
		got := &profan.Kernel{ID: rec.Kernel.ID, Name: rec.Kernel.Name, Demangled: rec.Kernel.Demangled, Device: rec.Kernel.Device,
			CC: rec.Kernel.CC, Grid: rec.Kernel.Grid, Block: rec.Kernel.Block, Invocations: rec.Kernel.Invocations, Duration: rec.Kernel.Duration}
		if err := decodeKernel(b, got, d.key); err != nil {
			t.Fatalf("kernel %d: %v", i, err)
		}
		if a, b := dumpKernel(got), dumpKernel(rec.Kernel); a != b {
			t.Errorf("kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
		for _, m := range rec.Kernel.Metrics {
			id, _ := d.id(&m, 0)
			v, ok, err := findMetric(b, map[uint64]bool{id: true})
			if err != nil || !ok || math.Float64bits(v) != math.Float64bits(m.Value) {
				t.Errorf("findMetric(%s): got %v, %v, %v; want %v", m.Name, v, ok, err, m.Value)
			}
		}
		if _, ok, err := findMetric(b, map[uint64]bool{999: true}); ok || err != nil {
			t.Errorf("findMetric(absent): got %v, %v", ok, err)
		}
	}
}

// TestBlobCorrupt checks that every truncation and every single-byte change
// of a blob is either decoded or reported, never a panic, and that
// truncations are always reported.
func TestBlobCorrupt(t *testing.T) {
	var d dict
	b := d.encode(testKernels()[0].Kernel)
	x := map[uint64]bool{999: true}
	for n := range len(b) {
		if err := decodeKernel(b[:n], profan.NewKernel(), d.key); !errors.Is(err, errBlob) {
			t.Errorf("truncated to %d bytes: got %v, want errBlob", n, err)
		}
		findMetric(b[:n], x)
	}
	c := make([]byte, len(b))
	for i := range b {
		for _, y := range []byte{0x00, 0x7f, 0x80, 0xff} {
			copy(c, b)
			c[i] = y
			decodeKernel(c, profan.NewKernel(), d.key)
			findMetric(c, x)
		}
	}
}

func FuzzDecodeKernel(f *testing.F) {
	var d dict
	for _, rec := range testKernels() {
		f.Add(d.encode(rec.Kernel))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		k := profan.NewKernel()
		if decodeKernel(b, k, d.key) != nil {
			return
		}
		// What decodes survives re-encoding.
		k2 := profan.NewKernel()
		if err := decodeKernel(d.encode(k), k2, d.key); err != nil {
			t.Fatal(err)
		}
		if a, b := dumpKernel(k2), dumpKernel(k); a != b {
			t.Errorf("re-encoding differs:\n%s\n%s", a, b)
		}
	})
}
