package ingest

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/tile"
)

// torchFixture returns the decompressed text of a real PyTorch trace.
func torchFixture(t testing.TB, name string) []byte {
	t.Helper()
	return golden.Gunzip(t, "../../fixtures/timeline/"+name+".json.gz")
}

// TestTorchTraceCounts holds what the reader found to the events of the
// trace counted apart, with encoding/json reading the whole document.
func TestTorchTraceCounts(t *testing.T) {
	names := []string{"copy_pageable", "copy_stream", "decode_graphs", "decode_sync", "train_small"}
	if testing.Short() {
		names = names[:3] // the small traces; CI reads every one
	}
	for _, name := range names {
		b := torchFixture(t, name)
		var doc struct {
			TraceEvents []struct {
				Ph, Cat, Name string
				Args          map[string]any
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		want := map[string]int{}
		for _, e := range doc.TraceEvents {
			want[e.Cat]++
			if e.Cat == "cuda_runtime" && (strings.Contains(e.Name, "Synchronize") || strings.Contains(e.Name, "Memcpy") || strings.Contains(e.Name, "Memset")) {
				want["kept"]++
			}
			// Frames kept whole: the optimizer's, the user's forwards.
			if e.Cat == "python_function" && (profan.OptimizerFrame(e.Name) != profan.OptimizerNone || userFrame(e.Name) && strings.HasSuffix(e.Name, "): forward")) {
				want["kept"]++
			}
		}
		want["kept"] += want["user_annotation"]
		run, err := ReadFile("../../fixtures/timeline/"+name+".json.gz", Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		calls := 0
		for _, c := range run.APICalls {
			calls += c.Calls
		}
		h := run.Host
		for _, c := range []struct {
			what      string
			got, want int
		}{
			{"kernels", len(run.Kernels), want["kernel"]},
			{"activities", len(run.Activities), want["gpu_memcpy"] + want["gpu_memset"]},
			{"runtime and driver calls", calls, want["cuda_runtime"] + want["cuda_driver"]},
			{"aten ops", h.Ops, want["cpu_op"]},
			{"python frames", h.Frames, want["python_function"]},
			{"flows", h.Flows, want["ac2g"]},
			{"kept host events", len(h.Events), want["kept"]},
			{"events read", run.Accounting.Rows, len(doc.TraceEvents)},
		} {
			if c.got != c.want {
				t.Errorf("%s: %d %s, the trace has %d", name, c.got, c.what, c.want)
			}
		}
		if run.Tool != profan.ToolTorch || run.Format != "pytorch-trace" || run.ToolVersion != "schema 1" {
			t.Errorf("%s: tool %q format %q version %q", name, run.Tool, run.Format, run.ToolVersion)
		}
		k := run.Kernels[0]
		if k.Device != "NVIDIA H100 80GB HBM3" || k.DeviceIndex != 0 || k.CC != "9.0" || k.Stream == "" || !k.Grid.Known() || !k.Block.Known() {
			t.Errorf("%s: first kernel %s", name, k)
		}
		skipped := 0
		for _, s := range run.Accounting.Skipped {
			skipped += s.Lines
		}
		read := want["kernel"] + want["gpu_memcpy"] + want["gpu_memset"] + want["cuda_runtime"] + want["cuda_driver"] + want["cpu_op"] + want["python_function"] + want["ac2g"] + want["user_annotation"]
		if headerSkips := 0; read+skipped-headerSkipCount(run) != len(doc.TraceEvents)+headerSkips {
			t.Errorf("%s: %d events read and %d skipped (less %d header fields) do not add up to the trace's %d", name, read, skipped, headerSkipCount(run), len(doc.TraceEvents))
		}
	}
}

func headerSkipCount(run *profan.Run) int {
	for _, s := range run.Accounting.Skipped {
		if s.Rule == skipTorchKey {
			return s.Lines
		}
	}
	return 0
}

// TestTorchTraceValues pins values read from one kernel, copy and
// synchronisation of the decode trace (with_stack=True) as the trace
// prints them.
func TestTorchTraceValues(t *testing.T) {
	run, err := ReadFile("../../fixtures/timeline/decode_sync.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var gemv *profan.Kernel
	for _, k := range run.Kernels {
		if k.ID == "126978" {
			gemv = k
		}
	}
	// "ts": 4855108591078.914, "dur": 3.296, "registers per thread": 159,
	// "shared memory": 528, "grid": [128, 1, 1], "block": [32, 4, 1]
	if gemv == nil || gemv.Duration != 3.296e-6 || gemv.Registers != 159 || gemv.StaticSMem != 528 ||
		gemv.Grid != (profan.Dim3{128, 1, 1}) || gemv.Block != (profan.Dim3{32, 4, 1}) || gemv.Stream != "7" || gemv.Context != "1" {
		t.Fatalf("kernel of correlation 126978: %v", gemv)
	}
	if gemv.Launched >= gemv.Start || gemv.Start-gemv.Launched > 1e-3 {
		t.Errorf("launched at %v, starts at %v", gemv.Launched, gemv.Start)
	}
	var sync *profan.HostEvent
	for _, e := range run.Host.Events {
		if e.Name == "cudaStreamSynchronize" && e.Correlation == "128327" {
			sync = e
		}
	}
	// "ts": 4855108594363.849, "dur": 7.707, inside .item() called from
	// timeline7.py line 170.
	if sync == nil || sync.Duration != 7.707e-6 || sync.Op != "aten::item" || sync.Frame != "timeline7.py(170): step" || sync.Thread != "510" {
		t.Fatalf("the synchronisation of correlation 128327: %+v", sync)
	}
	if d := gemv.Start - sync.Start; d > 0 || (sync.Start-gemv.Start)*1e6 < 3284.9 || (sync.Start-gemv.Start)*1e6 > 3284.95 {
		t.Errorf("sync at %.9f s, kernel at %.9f s: want 3284.935 us apart", sync.Start, gemv.Start)
	}
	// .item() copies its one-byte result to pinned memory: "Memcpy DtoH
	// (Device -> Pinned)", "bytes": 1.
	for _, a := range run.Activities {
		if a.Kind != "memcpy DtoH" || a.SrcMemType != "Device" || a.DstMemType != "Pinned" || a.Bytes != 1 {
			t.Errorf("copy %+v", a)
		}
	}
}

// TestTorchTraceOptimizerFrames: PyTorch's optimizer frames are kept
// whole (HostFrame), one update and one grouping inside each of the
// rl step's Optimizer.step#Adam.step ranges (Adam's default, foreach).
func TestTorchTraceOptimizerFrames(t *testing.T) {
	run, err := ReadFile("../../fixtures/host17/rl.default.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	var ranges []*profan.HostEvent
	for _, e := range run.Host.Events {
		switch e.Kind {
		case profan.HostFrame:
			if profan.OptimizerFrame(e.Name) != profan.OptimizerNone {
				n[e.Name]++
			}
		case profan.HostAnnotation:
			if strings.HasPrefix(e.Name, "Optimizer.step#") {
				ranges = append(ranges, e)
			}
		}
	}
	upd, grp := "torch/optim/adam.py(554): _multi_tensor_adam", "torch/optim/optimizer.py(547): _group_tensors_by_device_and_dtype"
	if len(ranges) == 0 || n[upd] != len(ranges) || n[grp] != len(ranges) || n["torch/optim/optimizer.py(164): _default_to_fused_or_foreach"] != len(ranges) || len(n) != 3 {
		t.Errorf("%d optimizer ranges, frames kept %v", len(ranges), n)
	}
}

// TestTorchTracePinFrames: a multi-process DataLoader's pin-memory
// thread's do_one_step frames are kept whole, and its waits (the queue's
// poll, the socket reads of a worker's answers) only inside them, on
// their thread: gnn.workers' 12 storages' handshakes, never the main
// thread's reads.
func TestTorchTracePinFrames(t *testing.T) {
	run, err := ReadFile("../../fixtures/host18/gnn.workers.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var steps []*profan.HostEvent
	n := map[int]int{}
	for _, e := range run.Host.Events {
		if e.Kind != profan.HostFrame {
			continue
		}
		k := profan.PinFrame(e.Name)
		n[k]++
		if k == profan.PinStep {
			steps = append(steps, e)
		}
	}
	for _, e := range run.Host.Events {
		if k := profan.PinFrame(e.Name); e.Kind != profan.HostFrame || k != profan.PinArrive && k != profan.PinWait {
			continue
		}
		in := false
		for _, s := range steps {
			in = in || s.Thread == e.Thread && e.Start >= s.Start-1e-9 && e.Start+e.Duration <= s.Start+s.Duration+1e-9
		}
		if !in {
			t.Errorf("%s at %.6f on thread %s kept outside every do_one_step", e.Name, e.Start, e.Thread)
		}
	}
	if n[profan.PinStep] != 4 || n[profan.PinWait] == 0 || n[profan.PinArrive] == 0 {
		t.Errorf("pin frames kept %v, want 4 do_one_step and their waits", n)
	}
}

// TestTorchTraceEncodings: the trace read plain and gzip-compressed, with
// CR LF line ends, gives one run and one digest.
func TestTorchTraceEncodings(t *testing.T) {
	plain := torchFixture(t, "copy_stream")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	crlf := bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))
	var want string
	var digest string
	for i, in := range [][]byte{plain, gz.Bytes(), crlf} {
		run, err := Read(bytes.NewReader(in), "copy_stream", Options{}, Sink{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			want, digest = run.String(), run.Digest
			if d, err := digestOf(bytes.NewReader(in), "x", nil); err != nil || d != digest {
				t.Errorf("digest %s, the line reader's %s (%v)", digest, d, err)
			}
			continue
		}
		if run.String() != want || run.Digest != digest {
			t.Errorf("encoding %d: another run or digest (%s, %s)", i, run.Digest, digest)
		}
	}
	f, err := open("../../fixtures/timeline/copy_stream.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Format() != "pytorch-trace" {
		t.Errorf("sniffed %q", f.Format())
	}
	if _, err := f.Read(Options{}, Sink{}); err != nil {
		t.Errorf("read after sniffing: %v", err)
	}
}

// TestTorchTraceDamaged: a damaged or foreign JSON, made from a real trace,
// is refused at the byte where it stops being a PyTorch trace.
func TestTorchTraceDamaged(t *testing.T) {
	b := torchFixture(t, "copy_pinned")
	at := func(s string) int { return bytes.Index(b, []byte(s)) }
	firstEvent := at(`"traceEvents": [`) + len(`"traceEvents": [`)
	firstEvent += bytes.IndexByte(b[firstEvent:], '{')
	kernel := at(`"cat": "kernel"`)
	kernelStart := bytes.LastIndexByte(b[:kernel], '{')
	ts := at(`"ts": `) + len(`"ts": `)
	foreign := bytes.Replace(b, []byte(`"schemaVersion"`), []byte(`"otherSchema"`), 1)
	foreign = bytes.Replace(foreign, []byte(`"deviceProperties"`), []byte(`"devices"`), 1)
	foreign = bytes.ReplaceAll(foreign, []byte(`"cat": "user_annotation"`), []byte(`"cat": "blink.user_timing"`))
	for _, c := range []struct {
		name string
		in   []byte
		off  int // where the error must be, within slack bytes
		msg  string
	}{
		{"truncated in an event", b[:kernel+40], kernel + 40, "truncated"},
		{"truncated between events", b[:kernelStart-3], kernelStart - 3, "truncated"},
		{"cut before the end", b[:len(b)-4], len(b) - 4, "truncated"},
		{"a time as a string", append(append(append([]byte(nil), b[:ts]...), `"x"`...), b[bytes.IndexByte(b[ts:], ',')+ts:]...), ts, "microseconds"},
		{"a grid without a comma", bytes.Replace(b, []byte(`"grid": [`), []byte(`"grid": [7 `), 1), at(`"grid": [`) + len(`"grid": [7 `), "a comma"},
		{"a grid of two", bytes.Replace(b, []byte(`"grid": [`), []byte(`"grid": [7, `), 1), -1, "dimensions"},
		{"negative duration", bytes.Replace(b, []byte(`"dur": `), []byte(`"dur": -`), 1), firstEvent, "negative"},
		{"a Chrome trace (array form)", append(append([]byte("["), b[firstEvent:kernelStart]...), []byte("{}]")...), 0, "array"},
		{"a foreign trace", foreign, firstEvent - 11, "not one PyTorch writes"}, // 11 bytes shorter header
		{"garbage after the end", append(append([]byte(nil), b...), "\n{}"...), len(b) + 1, "after the end"},
		{"a NUL byte", append(append(append([]byte(nil), b[:kernel]...), 0), b[kernel+1:]...), kernel, "binary"},
	} {
		_, err := Read(bytes.NewReader(c.in), "trace.json", Options{}, Sink{})
		var se *syntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: %v, want a syntax error", c.name, err)
			continue
		}
		if !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.name, err, c.msg)
		}
		m := regexp.MustCompile(`byte (\d+)`).FindStringSubmatch(err.Error())
		if m == nil {
			t.Errorf("%s: %v names no byte", c.name, err)
			continue
		}
		off, _ := strconv.Atoi(m[1])
		if c.off >= 0 && (off < c.off-2 || off > c.off+2) {
			t.Errorf("%s: %v, want byte %d", c.name, err, c.off)
		}
		if se.Line > 0 && se.Line != bytes.Count(c.in[:min(off, len(c.in))], []byte("\n"))+1 {
			t.Errorf("%s: line %d, byte %d is on line %d", c.name, se.Line, off, bytes.Count(c.in[:off], []byte("\n"))+1)
		}
	}
}

// FuzzTorchTrace reads mutations of a real trace's head. Property: no
// panic; an error is a syntax error naming a byte; a run is valid.
func FuzzTorchTrace(f *testing.F) {
	skipShort(f)
	f.Add(torchSeed(f, "copy_pinned"))
	f.Add(torchSeed(f, "decode_sync"))
	// A string with a byte that is no UTF-8, in a key and in an array
	// the reader skips.
	f.Add(bytes.Replace(torchSeed(f, "copy_pinned"), []byte(`"name"`), []byte("\"na\xffme\""), 1))
	f.Add(bytes.Replace(torchSeed(f, "copy_pinned"), []byte(`["float"`), []byte("[\"flo\xc3at\""), 1))
	// Shapes the reader reads (torch_shapes.go): a TensorList, a value
	// that is no size, strides of another rank, a type it does not know.
	f.Add(bytes.Replace(torchSeed(f, "copy_pinned"), []byte(`"Input Dims": [[]]`), []byte(`"Input Dims": [[[2, 3], [4]], ["x", -1, 1.5, 99999999999999999999], {}, [[]]]`), 1))
	f.Add(bytes.Replace(torchSeed(f, "copy_pinned"), []byte(`"Input Strides": [[]], "Input Dims": [[]]`), []byte(`"Input Strides": [[0, 1], null], "Input Dims": [[4096, 128], [1, 2, 3]]`), 1))
	f.Add(bytes.Replace(torchSeed(f, "copy_pinned"), []byte(`"Input type": ["float"]`), []byte(`"Input type": ["c10::Weird", 3, ["float"]]`), 1))
	f.Fuzz(func(t *testing.T, in []byte) {
		run, err := Read(bytes.NewReader(in), "fuzz.json", Options{Format: "pytorch-trace"}, Sink{})
		if err != nil {
			var se *syntaxError
			if !errors.As(err, &se) && !strings.Contains(err.Error(), "fuzz.json") {
				t.Fatalf("error without its place: %v", err)
			}
			return
		}
		if err := run.CheckValid(); err != nil {
			t.Fatal(err)
		}
		_ = run.String()
	})
}

// torchSeed is a small trace cut from a real one: its header and the
// first event of each category, each kept whole, so that the fuzzer
// mutates every kind of event within a few kilobytes.
func torchSeed(t testing.TB, name string) []byte {
	b := torchFixture(t, name)
	head := bytes.Index(b, []byte(`"traceEvents": [`)) + len(`"traceEvents": [`)
	out := append([]byte(nil), b[:head]...)
	seen := map[string]bool{}
	rest := b[head:]
	for {
		i := bytes.Index(rest, []byte("\n  {"))
		if i < 0 {
			break
		}
		j := bytes.Index(rest[i+1:], []byte("\n  }"))
		if j < 0 {
			break
		}
		ev := rest[i : i+1+j+4]
		cat := regexp.MustCompile(`"cat": "([^"]*)"`).FindSubmatch(ev)
		if cat != nil && !seen[string(cat[1])] {
			seen[string(cat[1])] = true
			if len(seen) > 1 {
				out = append(out, ',')
			}
			out = append(out, ev...)
		}
		rest = rest[i+1+j+4:]
	}
	return append(out, "\n]}\n"...)
}

func TestTorchSeed(t *testing.T) {
	for _, n := range []string{"copy_pinned", "decode_sync"} {
		run, err := Read(bytes.NewReader(torchSeed(t, n)), n, Options{}, Sink{})
		if err != nil || len(run.Kernels) != 1 {
			t.Fatalf("%s: the seed reads to %v, %v", n, run, err)
		}
	}
}

// BenchmarkTorchTrace reads a 64 MB PyTorch trace, the decode capture's
// events tiled in memory, through the reader alone (kernels dropped as
// they come): its MB/s is the reader's share of bench/torch.sh, and
// cpu-s/GB its CPU time (user and system, the collector's included) per
// 10^9 bytes, which the load of a shared machine moves less.
func BenchmarkTorchTrace(b *testing.B) {
	var buf bytes.Buffer
	if _, _, err := tile.Torch(&buf, "../../fixtures/timeline/decode_sync.json.gz", 64<<20); err != nil {
		b.Fatal(err)
	}
	doc := buf.Bytes()
	drop := Sink{Kernel: func(*profan.Run, *profan.Kernel) error { return nil }}
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := Read(bytes.NewReader(doc), "trace.json", Options{}, drop); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N)/float64(len(doc))*1e9, "cpu-s/GB")
}

// TestTorchOpBytes: a kernel carries the bytes the aten op that launched
// it moves, from the shapes record_shapes=True wrote (fixtures/host20c's
// voxel: aten::gather of a [262144, C] or [4096, C] float table, C 64 or
// 128, by an expanded [524288, C] long index, strides [1, 0], into a
// [524288, C] float output, which it writes: as many elements as the
// index, of the table's type; the index spans its one column),
// and none where the trace has no shapes (a graph's kernels).
func TestTorchOpBytes(t *testing.T) {
	run, err := ReadFile("../../fixtures/host20c/voxel.fixed.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	for _, c := range []float64{64, 128} {
		for _, rows := range []float64{4096, 262144} {
			want = append(want, rows*c*4+524288*8+2*524288*c*4)
		}
	}
	n := 0
	for _, k := range run.Kernels {
		if !strings.Contains(k.Name, "vectorized_gather_kernel") {
			continue
		}
		n++
		if !slices.ContainsFunc(want, func(w float64) bool { return math.Abs(k.OpBytes-w) <= 0.01*w }) {
			t.Errorf("gather launch %s: OpBytes %.0f, want one of %.0f", k.ID, k.OpBytes, want)
		}
	}
	if n != 16 {
		t.Errorf("%d gather launches, want 16", n)
	}
	run, err = ReadFile("../../fixtures/timeline/train_small_graphs.json.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range run.Kernels {
		if k.OpBytes != 0 {
			t.Fatalf("%s: OpBytes %v in a trace without shapes", k.Name, k.OpBytes)
		}
	}
}

// TestTorchTraceLoaderWaits: a multi-process DataLoader iterator's
// blocked waits (profan.LoaderWait) are kept whole inside its __next__,
// on its thread. fixtures/host35's flow.noread (eight workers, no
// pin-memory thread): each __next__ is 3.1 to 3.7 ms, almost all of it
// the batch's transfer (unpickled from the workers' shared memory), its
// pipe's poll 0.086 to 0.199 ms; host15's audio.all (four workers,
// pinned): the pin thread's queue's condition waits 48 to 437 ms in
// four of its sixteen __next__ (in 3 to 12 waits each: the batches
// arrive out of order).
func TestTorchTraceLoaderWaits(t *testing.T) {
	for _, c := range []struct {
		file, frame string
		lo, hi      float64 // each __next__'s waits, ms
	}{
		{"host35/flow.noread.json.gz", "multiprocessing/connection.py(253): poll", 0.08, 0.2},
		{"host15/audio.all.json.gz", "threading.py(323): wait", 48, 437},
	} {
		run, err := ReadFile("../../fixtures/"+c.file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var iters, waits []*profan.HostEvent
		for _, e := range run.Host.Events {
			switch {
			case e.Kind == profan.HostAnnotation && strings.Contains(e.Name, "_MultiProcessingDataLoaderIter.__next__"):
				iters = append(iters, e)
			case e.Kind == profan.HostFrame && profan.LoaderWait(e.Name):
				waits = append(waits, e)
			}
		}
		blocked := 0
		for _, it := range iters {
			w := 0.0
			for _, e := range waits {
				if e.Thread == it.Thread && e.Start >= it.Start-1e-9 && e.Start+e.Duration <= it.Start+it.Duration+1e-9 {
					if e.Name != c.frame {
						t.Errorf("%s: %s kept in __next__, want %s", c.file, e.Name, c.frame)
					}
					w += e.Duration
				}
			}
			if w > 0 {
				blocked++
				if ms := 1e3 * w; ms < c.lo || ms > c.hi {
					t.Errorf("%s: __next__ at %.6f (%.3f ms) waits %.3f ms, want %g to %g", c.file, it.Start, 1e3*it.Duration, ms, c.lo, c.hi)
				}
			}
		}
		if blocked != 4 {
			t.Errorf("%s: %d waits kept, %d of %d __next__ holding any", c.file, len(waits), blocked, len(iters))
		}
	}
}
