package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/golden"
)

// torchDoc is a real trace taken apart: its header members in order and
// its events, written back one event a line so that a test knows each
// event's line.
type torchDoc struct {
	keys   []string
	header map[string]json.RawMessage
	events []map[string]any
}

func loadTorchDoc(t *testing.T, name string) *torchDoc {
	t.Helper()
	b := torchFixture(t, name)
	d := &torchDoc{header: map[string]json.RawMessage{}}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		k := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		d.keys = append(d.keys, k)
		d.header[k] = v
	}
	dec2 := json.NewDecoder(bytes.NewReader(d.header["traceEvents"]))
	dec2.UseNumber()
	if err := dec2.Decode(&d.events); err != nil {
		t.Fatal(err)
	}
	return d
}

// render writes the document with its members in keys' order; lines[i]
// is the line of event i.
func (d *torchDoc) render(t *testing.T, keys []string, events []map[string]any) (out []byte, lines []int) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("{\n")
	for i, k := range keys {
		fmt.Fprintf(&b, "%q: ", k)
		if k != "traceEvents" {
			b.Write(d.header[k])
		} else {
			b.WriteString("[\n")
			for j, e := range events {
				lines = append(lines, bytes.Count(b.Bytes(), []byte("\n"))+1)
				x, err := json.Marshal(e)
				if err != nil {
					t.Fatal(err)
				}
				b.Write(x)
				if j < len(events)-1 {
					b.WriteString(",")
				}
				b.WriteString("\n")
			}
			b.WriteString("]")
		}
		if i < len(keys)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.Bytes(), lines
}

func clone(e map[string]any) map[string]any {
	c := map[string]any{}
	for k, v := range e {
		if a, ok := v.(map[string]any); ok {
			v = clone(a)
		}
		c[k] = v
	}
	return c
}

func (d *torchDoc) find(cat string, n int) int {
	for i, e := range d.events {
		if e["cat"] == cat {
			if n == 0 {
				return i
			}
			n--
		}
	}
	return -1
}

// TestTorchTraceIdentities holds what issue 37 found the PyTorch reader
// read silently (causes 3 to 7): each damage is refused at its event's
// line, the way a CSV row written twice is.
func TestTorchTraceIdentities(t *testing.T) {
	d := loadTorchDoc(t, "copy_pinned")
	k0, k1 := d.find("kernel", 0), d.find("kernel", 1)
	copy0 := d.find("gpu_memcpy", 0)
	launch0 := -1
	corr0 := d.events[k0]["args"].(map[string]any)["correlation"]
	for i, e := range d.events {
		if e["cat"] == "cuda_runtime" && e["args"].(map[string]any)["correlation"] == corr0 {
			launch0 = i
		}
	}
	other0 := -1
	for i, e := range d.events {
		if name, _ := e["name"].(string); e["cat"] == "cuda_runtime" && !strings.Contains(name, "Launch") && other0 < 0 {
			other0 = i
		}
	}
	if k0 < 0 || k1 < 0 || copy0 < 0 || launch0 < 0 || other0 < 0 {
		t.Fatal("fixture without a kernel, its launch call or a copy")
	}
	with := func(at int, e map[string]any) ([]map[string]any, int) {
		evs := append([]map[string]any(nil), d.events[:at]...)
		evs = append(evs, e)
		return append(evs, d.events[at:]...), at
	}
	later := len(d.events) - 1
	for _, c := range []struct {
		name string
		evs  func() ([]map[string]any, int) // the events, the index of the one refused
		msg  string
	}{
		{"a kernel written twice, away from its place", func() ([]map[string]any, int) { return with(later, clone(d.events[k0])) }, "written twice"},
		{"a copy written twice", func() ([]map[string]any, int) { return with(later, clone(d.events[copy0])) }, "written twice"},
		{"two kernels of one launch call", func() ([]map[string]any, int) {
			e := clone(d.events[k1])
			e["args"].(map[string]any)["correlation"] = corr0
			e["ts"] = json.Number("4855193579999.5")
			return with(later, e)
		}, "second kernel of correlation ID"},
		{"a launch call written twice", func() ([]map[string]any, int) { return with(later, clone(d.events[launch0])) }, "second CUDA call"},
		{"another CUDA call written twice", func() ([]map[string]any, int) { return with(later, clone(d.events[other0])) }, "second CUDA call"},
		{"two kernels of one correlation before any launch call", func() ([]map[string]any, int) {
			a, b := clone(d.events[k1]), clone(d.events[k1])
			a["args"].(map[string]any)["correlation"] = json.Number("999999")
			a["ts"] = json.Number("4855193579000.5")
			b["args"].(map[string]any)["correlation"] = json.Number("999999")
			b["ts"] = json.Number("4855193579999.5")
			evs, _ := with(later, a)
			evs = append(evs[:later+1], append([]map[string]any{b}, evs[later+1:]...)...)
			return evs, later + 1
		}, "no CUDA graph launch"},
		{"times 1e16 us apart", func() ([]map[string]any, int) {
			e := clone(d.events[k1])
			e["ts"] = json.Number("1e16")
			return with(later, e)
		}, "out of range"},
		{"times 4e15 us apart", func() ([]map[string]any, int) {
			e := clone(d.events[k1])
			e["ts"] = json.Number("-3000000000000000")
			return with(later, e)
		}, "years"},
		{"a copy of 1e308 bytes", func() ([]map[string]any, int) {
			e := clone(d.events[copy0])
			e["args"].(map[string]any)["bytes"] = json.Number("1e308")
			e["ts"] = json.Number("4855193579999.5")
			return with(later, e)
		}, "bytes"},
	} {
		evs, bad := c.evs()
		text, lines := d.render(t, d.keys, evs)
		_, err := Read(bytes.NewReader(text), "trace.json", Options{}, Sink{})
		var se *syntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.msg)
			continue
		}
		if se.Line != lines[bad] {
			t.Errorf("%s: %v at line %d, want line %d", c.name, err, se.Line, lines[bad])
		}
	}
}

// TestTorchTraceGraphsRead holds the kernels of one CUDA graph launch,
// which share its correlation ID, read as before; and those of a graph
// launched in the profiler's warm-up step, before its calls were
// recorded, whose kernels run into the recorded window
// (fixtures/host26d mol.graphs: 282 kernels of correlation ID 1473, the
// trace's first call 1481), read as that launch's.
func TestTorchTraceGraphsRead(t *testing.T) {
	for _, name := range []string{"decode_graphs", "train_small_graphs"} {
		if _, err := Read(bytes.NewReader(torchFixture(t, name)), name, Options{}, Sink{}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	b := golden.Gunzip(t, "../../fixtures/host26d/mol.graphs.json.gz")
	if _, err := Read(bytes.NewReader(b), "mol.graphs.json", Options{}, Sink{}); err != nil {
		t.Errorf("host26d mol.graphs: %v", err)
	}
}

// TestTorchTraceKeyOrder holds a trace read the same whatever the order
// of its members (deviceProperties after traceEvents included), from a
// file, which is read again for its devices; a stream read once that
// names the devices too late is refused, not read without them.
func TestTorchTraceKeyOrder(t *testing.T) {
	d := loadTorchDoc(t, "copy_pinned")
	want, _ := d.render(t, d.keys, d.events)
	wantRun, err := Read(bytes.NewReader(want), "trace.json", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	rev := append([]string(nil), d.keys...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	late, _ := d.render(t, rev, d.events)
	path := t.TempDir() + "/late.json"
	if err := os.WriteFile(path, late, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Kernels) != len(wantRun.Kernels) {
		t.Fatalf("%d kernels, want %d", len(got.Kernels), len(wantRun.Kernels))
	}
	for i, k := range got.Kernels {
		w := wantRun.Kernels[i]
		if k.Device != w.Device || k.CC != w.CC || k.DeviceIndex != w.DeviceIndex || k.Device == "" {
			t.Fatalf("kernel %d: device %q cc %q, want %q %q", i, k.Device, k.CC, w.Device, w.CC)
		}
	}
	if _, err := Read(bytes.NewReader(late), "pipe", Options{}, Sink{}); err == nil || !strings.Contains(err.Error(), "stream read once") {
		t.Errorf("read once: %v, want refused", err)
	}
}

// TestTorchTraceSurrogates holds lone UTF-16 surrogates refused where
// they are, as invalid UTF-8 is: read as U+FFFD, two kernels of names
// that differ only there would merge. A pair still reads.
func TestTorchTraceSurrogates(t *testing.T) {
	d := loadTorchDoc(t, "copy_pinned")
	k := d.find("kernel", 0)
	text, lines := d.render(t, d.keys, d.events)
	for _, c := range []struct {
		esc string
		ok  bool
	}{{`\ud800`, false}, {`\udfff`, false}, {`\ud800x`, false}, {`\ud83d\ude00`, true}} {
		name := d.events[k]["name"].(string)
		q, _ := json.Marshal(name)
		in := bytes.Replace(text, q, []byte(`"`+c.esc+name[1:]+`"`), 1)
		run, err := Read(bytes.NewReader(in), "trace.json", Options{}, Sink{})
		var se *syntaxError
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.esc, err)
		case c.ok && !strings.HasPrefix(run.Kernels[0].Name, "\U0001F600"):
			t.Errorf("%s: read as %q", c.esc, run.Kernels[0].Name)
		case !c.ok && (!errors.As(err, &se) || se.Line != lines[k] || !strings.Contains(err.Error(), "surrogate")):
			t.Errorf("%s: %v, want a lone surrogate refused at line %d", c.esc, err, lines[k])
		}
	}
}

// TestCorrFlags holds the marks of correlation IDs kept by page, near
// and far apart, negative, and past the pages' bound (sparse IDs: a map),
// read back as set; an ID never set reads 0.
func TestCorrFlags(t *testing.T) {
	var c corrFlags
	want := map[int64]uint8{}
	for i := int64(0); i < maxCorrPages+100; i++ {
		for _, id := range []int64{i * corrPage * 3, i*corrPage*3 + 1, -i*corrPage - 7} {
			f := uint8(1 + (id+i)%15)
			c.set(id, c.get(id)|f)
			want[id] |= f
		}
	}
	for id, f := range want {
		if got := c.get(id); got != f {
			t.Fatalf("id %d: %d, want %d", id, got, f)
		}
	}
	if len(c.pages) != maxCorrPages || len(c.rest) == 0 {
		t.Errorf("%d pages, %d IDs in the map", len(c.pages), len(c.rest))
	}
	if got := c.get(5); got != 0 {
		t.Errorf("an ID never set reads %d", got)
	}
}
