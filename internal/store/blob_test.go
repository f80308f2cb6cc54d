package store

import (
	"errors"
	"math"
	"testing"

	"github.com/profan-dev/profan"
)

// dict is an in-memory raw_metric_keys and text_templates.
type dict struct {
	ids   map[metricKey]uint64
	keys  []metricKey
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
	b, err := encodeKernel(nil, k, d.id, d.textID)
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
		if err := decodeKernel(b, got, d.key, d.text); err != nil {
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
		if err := decodeKernel(b[:n], profan.NewKernel(), d.key, d.text); !errors.Is(err, errBlob) {
			t.Errorf("truncated to %d bytes: got %v, want errBlob", n, err)
		}
		findMetric(b[:n], x)
	}
	c := make([]byte, len(b))
	for i := range b {
		for _, y := range []byte{0x00, 0x7f, 0x80, 0xff} {
			copy(c, b)
			c[i] = y
			decodeKernel(c, profan.NewKernel(), d.key, d.text)
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
		if decodeKernel(b, k, d.key, d.text) != nil {
			return
		}
		// What decodes survives re-encoding.
		k2 := profan.NewKernel()
		if err := decodeKernel(d.encode(k), k2, d.key, d.text); err != nil {
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
	e := encoder{b: buf, key: key, text: text}
	return e.kernel(k)
}
