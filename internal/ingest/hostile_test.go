package ingest

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/profan-dev/profan"
)

// hostileCase is a careless or hostile input built from real captures:
// either it reads to want launches, or it is refused at line with msg.
type hostileCase struct {
	name     string
	in       []byte
	launches int    // when msg is empty
	line     int    // when msg is set
	msg      string // a phrase of the error
}

// gunzipFixture returns the text of a fixture, gzip-compressed or not.
func gunzipFixture(t testing.TB, path string) []byte {
	t.Helper()
	return []byte(strings.Join(readLines(t, path), ""))
}

// replaceLine returns b with its line n (1-based) replaced by f(line).
func replaceLine(t testing.TB, b []byte, n int, f func(string) string) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(b), "\n")
	if n > len(lines) {
		t.Fatalf("no line %d", n)
	}
	lines[n-1] = f(lines[n-1])
	return []byte(strings.Join(lines, ""))
}

// lineOf returns the 1-based number of the first line of b holding s.
func lineOf(t testing.TB, b []byte, s string) int {
	t.Helper()
	for i, l := range strings.SplitAfter(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("no line holds %q", s)
	return 0
}

func hostileCases(t testing.TB) []hostileCase {
	saxpy := ncuFixture(t, "saxpy.metrics.details.csv")                              // one launch, process 953
	saxpyH100 := ncuMustRead(t, "../../fixtures/ncu-h100/saxpy.metrics.details.csv") // one launch, process 961
	copyDetails := ncuFixture(t, "copy.details.csv")
	trace := ncuMustRead(t, "testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv") // 301 launches
	printAll := gunzipFixture(t, "../../fixtures/variants/variants.details.print-details-all.csv.gz")
	raw := ncuFixture(t, "indirect.full.raw.csv")
	saxpyRaw := ncuFixture(t, "saxpy.metrics.raw.csv")
	dur := lineOf(t, saxpy, `"gpu__time_duration.sum"`)
	firstRow := lineOf(t, copyDetails, `"0","`)
	traceLines := bytes.Count(trace, []byte("\n"))
	durCol := func(v string) func(string) string {
		return func(l string) string {
			i := strings.LastIndex(l, `,"`)
			return l[:i] + `,"` + v + "\"\n"
		}
	}
	nvMetrics := ncuMustRead(t, "testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv")
	nvEvents := ncuMustRead(t, "testdata/nvprof/ieee2017-k40c-events-no-total-then-metrics.csv")
	evHeader := lineOf(t, nvEvents, `"Device","Kernel","Invocations","Event Name"`)
	mtHeader := lineOf(t, nvEvents, `"Device","Kernel","Invocations","Metric Name"`)
	nvSummary := ncuMustRead(t, "testdata/nvprof/ieee2017-k20c-gpu-api-summary-no-type-col-sci.csv")
	sumHeader := lineOf(t, nvSummary, `"Time(%)"`)
	drop := func(string) string { return "" }
	source := ncuFixture(t, "matmul.source.sass.csv")
	nsysTrace := ncuMustRead(t, "testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv")
	gld := lineOf(t, nvMetrics, `"gld_throughput"`)
	bytesRead := lineOf(t, saxpy, `"dram__bytes_read.sum"`)
	rawUnits := 5 // the units row of the raw page
	durUnit := func(u string) func(string) string {
		return func(l string) string {
			return strings.Replace(l, `"gpu__time_duration.sum","ns"`, `"gpu__time_duration.sum","`+u+`"`, 1)
		}
	}
	rawDurUnits := func(u string) []byte {
		// Every unit of the raw page's duration columns (they read "ns").
		b := replaceLine(t, saxpyRaw, rawUnits, func(l string) string { return strings.ReplaceAll(l, `"ns"`, `"`+u+`"`) })
		if bytes.Equal(b, saxpyRaw) {
			t.Fatal("saxpy.metrics.raw.csv: no duration unit")
		}
		return b
	}
	// Exports cut at a line end, as a file still being written is: each
	// block of a page has the shape the other blocks show.
	cutAt := func(b []byte, n int) []byte { // the first n lines
		return []byte(strings.Join(strings.SplitAfter(string(b), "\n")[:n], ""))
	}
	lastLaunch := lineOf(t, copyDetails, `"8","`)
	sourceCuda := ncuFixture(t, "copy.source.cuda-sass.csv")
	kernSum := ncuMustRead(t, "testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv")
	apiRow := lineOf(t, nvSummary, `"cudaMalloc"`)
	summary := ncuFixture(t, "copy.summary.csv")
	torch := torchFixture(t, "copy_pinned")
	torchGz, err := os.ReadFile("../../fixtures/timeline/copy_pinned.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	apiSum := ncuMustRead(t, "testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv")
	apiTrace := gunzipFixture(t, "testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	apiHeader := lineOf(t, apiTrace, "Start (ns),Duration (ns),Name")
	shapes := lineOf(t, torch, `"record_shapes"`)
	types := lineOf(t, torch, `"Input type": ["float"]`)
	copyLine := lineOf(t, torch, `"cat": "gpu_memcpy"`)
	copyArgs := lineOf(t, torch, `"bytes": 33554432`)
	launchArgs := lineOf(t, torch, `"cbid": 211, "correlation": 659`)
	return []hostileCase{
		// A JSON document is UTF-8 text: a key or a string with a byte
		// that is none, kept or skipped, would read as another.
		{name: "a PyTorch trace's key with a byte that is no UTF-8", in: replaceLine(t, torch, shapes, func(l string) string { return strings.Replace(l, "record", "rec\xfford", 1) }), line: shapes, msg: "invalid UTF-8 in the string"},
		{name: "a PyTorch trace's skipped string with a byte that is no UTF-8", in: replaceLine(t, torch, types, func(l string) string { return strings.Replace(l, `["float"]`, "[\"flo\xc3at\"]", 1) }), line: types, msg: "invalid UTF-8 in the string"},
		// A lost line of an event: its phase, category and name, or its
		// args (a copy's device, stream and size).
		{name: "a PyTorch trace's copy without its phase, category and name", in: replaceLine(t, torch, copyLine, drop), line: copyLine - 1, msg: `an event without "ph"`},
		{name: "a PyTorch trace's copy without its args", in: replaceLine(t, torch, copyArgs, drop), line: copyArgs - 4, msg: `a "gpu_memcpy" event without "correlation" in its args`},
		{name: "a PyTorch trace's copy without its size", in: replaceLine(t, torch, copyArgs, func(l string) string { return strings.Replace(l, `"bytes": 33554432,`, "", 1) }), line: copyArgs - 4, msg: `a "gpu_memcpy" event without "bytes"`},
		{name: "a PyTorch trace's launch call without its args", in: replaceLine(t, torch, launchArgs, drop), line: launchArgs - 4, msg: `a "cuda_runtime" event without "correlation" in its args`},
		{name: "a PyTorch trace's gzip cut short", in: torchGz[:len(torchGz)*2/3], line: 833, msg: "corrupt or truncated gzip data"},
		{name: "ncu summary page cut at a line end in its last kernel", in: cutAt(summary, 60), line: 60, msg: "kernel strideCopy(float *, const float *, int) ends after 8 metric rows where the kernels before it have 47"},
		{name: "details page cut at a line end in its last launch", in: cutAt(copyDetails, lastLaunch+10), line: lastLaunch + 10, msg: "launch 8 of strideCopy(float *, const float *, int) ends after 10 metric rows where the launches before it have 50"},
		{name: "source page cut at a line end in its last block", in: cutAt(sourceCuda, 550), line: 550, msg: "the last source block (strideCopy(float *, const float *, int)) ends before its function does"},
		{name: "nsys kernel summary cut at a line end", in: cutAt(kernSum, 31), line: 31, msg: "Time (%) column sums to"},
		{name: "nvprof summary cut at a line end", in: cutAt(nvSummary, apiRow), line: apiRow, msg: "Time(%) column sums to 99.43%"},

		// One reader policy for units.
		{name: "nvprof throughput without its unit", in: replaceLine(t, nvMetrics, gld, func(l string) string { return strings.Replace(l, "190.706924GB/s", "190.706924", 1) }), line: gld, msg: "different kinds of unit"},
		{name: "nvprof throughput in percent", in: replaceLine(t, nvMetrics, gld, func(l string) string { return strings.ReplaceAll(l, "GB/s", "%") }), line: gld, msg: `not in "B/s" as the metric's name says`},
		{name: "nvprof trace without its Duration unit", in: replaceLine(t, trace, 5, func(l string) string { return strings.Replace(l, "ms,ms,", "ms,,", 1) }), line: 6, msg: `column "Duration": "1.028854" has no unit`},
		{name: "ncu raw duration in furlong", in: rawDurUnits("furlong"), line: 6, msg: `unit "furlong" is not a time`},
		{name: "ncu raw duration in Tbyte/ms", in: rawDurUnits("Tbyte/ms"), line: 6, msg: `unit "Tbyte/ms" is not a time`},
		{name: "ncu details duration in an unknown unit", in: replaceLine(t, saxpy, dur, durUnit("fortnight")), line: dur, msg: `unit "fortnight" is not a time`},
		{name: "ncu details byte counter in percent", in: replaceLine(t, saxpy, bytesRead, func(l string) string { return strings.Replace(l, `"byte"`, `"%"`, 1) }), line: bytesRead, msg: `unit "%" is not a byte count`},
		{name: "ncu details duration without unit", in: replaceLine(t, saxpy, dur, durUnit("")), line: dur, msg: "has no unit"},

		// A launch's identity includes its capture.
		{name: "two one-launch captures of one kernel", in: cat(saxpy, saxpyH100), launches: 2},
		{name: "a one-launch capture twice", in: cat(saxpy, saxpy), line: bytes.Count(saxpy, []byte("\n")) + lineOf(t, saxpy, `"0","`), msg: "was already read at line"},
		// A trace after a details page is the next table, no sub-table.
		{name: "trace after a --print-details all page", in: cat(printAll, trace), launches: 18 + 301},
		// Numbers are decimal, NaN and infinities said.
		{name: "hex float duration", in: replaceLine(t, saxpy, dur, durCol("0x1p3")), line: dur, msg: `"0x1p3" is not a number`},
		{name: "digit separators", in: replaceLine(t, saxpy, dur, durCol("57_280")), line: dur, msg: `"57_280" is not a number`},
		{name: "NaN duration", in: replaceLine(t, saxpy, dur, durCol("NaN")), launches: 1},
		{name: "negative byte count, said at its line", in: replaceLine(t, saxpy, bytesRead, func(l string) string { i := strings.LastIndex(l, `,"`); return l[:i] + `,"-5"` + "\n" }), line: bytesRead, msg: "negative byte count"},
		{name: "nvprof negative throughput", in: replaceLine(t, nvMetrics, gld, func(l string) string { return strings.Replace(l, ",190.706924GB/s", ",-190.706924GB/s", 1) }), line: gld, msg: "negative throughput"},
		{name: "negative duration, said at its line", in: replaceLine(t, saxpy, dur, durCol("-57,280")), line: dur, msg: "negative duration"},
		// A last line without its line end.
		{name: "trace cut in a number of its last line", in: trace[:bytes.LastIndexByte(trace[:len(trace)-1], '\n')+16], line: traceLines, msg: "no line end"},
		{name: "trace without its last newline", in: trace[:len(trace)-1], launches: 301},
		{name: "raw page cut in its last field", in: bytes.TrimRight(raw, "\n\"")[:len(bytes.TrimRight(raw, "\n\""))-1], line: bytes.Count(raw, []byte("\n")), msg: "unterminated quoted field"},
		// Row width and program output inside a table.
		{name: "row wider than the header", in: replaceLine(t, copyDetails, firstRow, func(l string) string { return strings.Repeat(`"x",`, 40) + l }), line: firstRow, msg: "more than the 20 of its header"},
		// A line written twice would count a launch twice.
		{name: "a trace row twice", in: replaceLine(t, trace, 10, func(l string) string { return l + l }), line: 11, msg: "the same row as line 10"},
		// Two processes may measure the same values: their banners differ.
		{name: "nvprof metrics of two processes with the same values", in: cat(nvMetrics, bytes.ReplaceAll(nvMetrics, []byte("16702"), []byte("16703"))), launches: 2 * 301},
		{name: "nvprof metrics appended to themselves", in: cat(nvMetrics, nvMetrics), line: bytes.Count(nvMetrics, []byte("\n")) + 6, msg: "the same table, row for row, as the one at line 6"},
		{name: "a trace appended to itself", in: cat(trace, trace), line: traceLines + 4, msg: "the same table, row for row, as the one at line 4"},
		{name: "an nsys trace appended to itself", in: cat(nsysTrace, nsysTrace), line: bytes.Count(nsysTrace, []byte("\n")) + 1, msg: "the same table, row for row, as the one at line 1"},
		{name: "a memcpy of negative duration", in: replaceLine(t, trace, 6, func(l string) string { return strings.Replace(l, ",1.028854,", ",-1.028854,", 1) }), line: 6, msg: "negative duration"},
		// A lost opening quote would keep the closing one in the text.
		{name: "a quote inside an unquoted field", in: replaceLine(t, trace, 6, func(l string) string { return strings.Replace(l, `,"GeForce`, `,GeForce`, 1) }), line: 6, msg: "a quote inside an unquoted field"},
		// A stray quote inside a quoted field would shift its text.
		{name: "a stray quote inside a quoted field", in: replaceLine(t, nvMetrics, gld, func(l string) string { return strings.Replace(l, `(0)"`, `(0)x"y"`, 1) }), line: gld, msg: "text after a quoted field's closing quote"},
		// nvprof prints a table's header right after its title: rows there
		// lost their header, they are no program output to skip.
		{name: "nvprof events table without its header", in: replaceLine(t, nvEvents, evHeader, drop), line: evHeader, msg: `right after nvprof's title "Event result:"`},
		{name: "nvprof metrics table without its header, after another table", in: replaceLine(t, nvEvents, mtHeader, drop), line: mtHeader, msg: `right after nvprof's title "Metric result:"`},
		// nsys stats prints a table's header right after the line naming
		// the report it runs: rows there lost their header.
		{name: "nsys API summary without its first header", in: replaceLine(t, apiSum, 2, drop), line: 2, msg: "right after nsys stats' line naming its report (line 1)"},
		{name: "nsys API and GPU traces without the API trace's header", in: replaceLine(t, apiTrace, apiHeader, drop), line: apiHeader, msg: fmt.Sprintf("right after nsys stats' line naming its report (line %d)", apiHeader-1)},
		{name: "nvprof summary without its header", in: replaceLine(t, nvSummary, sumHeader, drop), line: sumHeader, msg: `right after nvprof's title "Profiling result:"`},
		// Warp-stall sampling never repeats across launches: a sampled
		// source block equal to an earlier launch's is the page twice.
		{name: "a source page appended to itself", in: cat(source, source), line: bytes.Count(source, []byte("\n")) + 1, msg: "repeats launch 0's row for row"},
		// nsys stats writes its tables whole: text among the rows is a
		// damaged row (here a row that lost its commas), not output.
		{name: "an nsys trace row without its commas", in: replaceLine(t, nsysTrace, 90, func(l string) string { return l[:5] + l[94:] }), line: 90, msg: "no row among the rows of an nsys stats table"},
		{name: "output with a comma inside a table", in: replaceLine(t, copyDetails, firstRow+3, func(l string) string { return "epoch 1, loss 0.5\n" + l }), line: firstRow + 3, msg: "an unquoted line among quoted rows"},
	}
}

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

// TestHostileInputs pins each cause of silent loss found by an
// adversarial trial: the input reads to the launches it holds, or is
// refused at file:line.
func TestHostileInputs(t *testing.T) {
	for _, tt := range hostileCases(t) {
		t.Run(tt.name, func(t *testing.T) {
			run, err := Read(bytes.NewReader(tt.in), "in.csv", Options{}, Sink{})
			if tt.msg == "" {
				if err != nil {
					t.Fatalf("got %v, want %d launches", err, tt.launches)
				}
				if run.Accounting.Launches != tt.launches {
					t.Errorf("got %d launches, want %d", run.Accounting.Launches, tt.launches)
				}
				return
			}
			if err == nil {
				t.Fatalf("got %d launches, want an error %q", run.Accounting.Launches, tt.msg)
			}
			prefix := "in.csv:" + strconv.Itoa(tt.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got %q, want prefix %q and %q", err, prefix, tt.msg)
			}
		})
	}
}

// TestNaNSaidOnce checks that a NaN value is read as missing with one note.
func TestNaNSaidOnce(t *testing.T) {
	run, err := ReadFile("../../fixtures/ncu/indirect.full.raw.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range run.Messages {
		if m.Level == "note" && strings.Contains(m.Text, `"nan" read as a missing value`) {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d notes of a NaN value, want 1", n)
	}
}

// TestDigestDecoded checks that copies of one export in other encodings
// have the digest of the plain copy's bytes, through Read, HashAside and
// DigestOf alike.
func TestDigestDecoded(t *testing.T) {
	plain := ncuFixture(t, "copy.details.csv")
	want := fmt.Sprintf("sha256:%x", sha256.Sum256(plain))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	crlf := bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n"))
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"plain", plain},
		{"gzip", gz.Bytes()},
		{"CRLF", crlf},
		{"BOM", append([]byte("\xEF\xBB\xBF"), plain...)},
		{"UTF-16LE", ncuUTF16(string(crlf), binary.LittleEndian, true)},
	} {
		t.Run(c.name, func(t *testing.T) {
			run, err := Read(bytes.NewReader(c.in), c.name, Options{}, Sink{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Digest != want {
				t.Errorf("Read: digest %s, want %s", run.Digest, want)
			}
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, c.in, 0o644); err != nil {
				t.Fatal(err)
			}
			if d, err := DigestOf(path); err != nil || d != want {
				t.Errorf("DigestOf: %s, %v; want %s", d, err, want)
			}
			f, err := OpenSeekable(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.Format()
			_, digest, err := f.HashAside()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Read(Options{}, Sink{}); err != nil {
				t.Fatal(err)
			}
			if d, err := digest(); err != nil || d != want {
				t.Errorf("HashAside: %s, %v; want %s", d, err, want)
			}
		})
	}
}

// TestReadFilesOnce checks that an export given twice to ReadFiles, by
// the same path, a link or a re-encoded copy, is read once and said.
func TestReadFilesOnce(t *testing.T) {
	dir := t.TempDir()
	plain := ncuFixture(t, "copy.details.csv")
	path := filepath.Join(dir, "copy.csv")
	crlf := filepath.Join(dir, "crlf.csv")
	link := filepath.Join(dir, "link.csv")
	os.WriteFile(path, plain, 0o644)
	os.WriteFile(crlf, bytes.ReplaceAll(plain, []byte("\n"), []byte("\r\n")), 0o644)
	if err := os.Symlink(path, link); err != nil {
		t.Skip(err)
	}
	n := 0
	runs, err := ReadFiles([]string{path, path, link, crlf, "../../fixtures/ncu/saxpy.metrics.details.csv"}, Options{}, func(*profan.Run, *profan.Kernel) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || n != 9+1 {
		t.Errorf("%d runs, %d kernels; want 2 runs, 10 kernels", len(runs), n)
	}
	notes := 0
	for _, m := range runs[0].Messages {
		if m.Level == "note" && strings.Contains(m.Text, "holds the same export as "+path) {
			notes++
		}
	}
	if notes != 3 {
		t.Errorf("%d notes of a copy read once, want 3", notes)
	}

	// Pipes: two of one export, one of them gzip, and the file itself.
	fifo := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skip(err)
		}
		go func() {
			if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				w.Write(data)
				w.Close()
			}
		}()
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	n = 0
	runs, err = ReadFiles([]string{fifo("a", plain), fifo("b", gz.Bytes()), path}, Options{}, func(*profan.Run, *profan.Kernel) error { n++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || n != 9 {
		t.Errorf("pipes: %d runs, %d kernels; want 1 run, 9 kernels", len(runs), n)
	}
}

// TestBoundedWork checks that floods and unbounded inputs end with an
// error or stay within a bound, by counting what is kept (never by time).
func TestBoundedWork(t *testing.T) {
	skipShort(t)
	table := ncuFixture(t, "copy.details.csv")
	t.Run("blank lines before a table", func(t *testing.T) {
		in := cat(bytes.Repeat([]byte("\n"), maxIdle+1), table)
		_, err := Read(bytes.NewReader(in), "in.csv", Options{}, Sink{})
		if err == nil || !strings.Contains(err.Error(), "in.csv:1048577: more than 1048576 lines in a row without a table") {
			t.Errorf("got %v", err)
		}
	})
	t.Run("sniffing keeps a bounded head", func(t *testing.T) {
		in := cat(bytes.Repeat([]byte("\n"), 500000), table)
		f, err := newInput(bytes.NewReader(in), "in.csv")
		if err != nil {
			t.Fatal(err)
		}
		if f.Format() != "" {
			t.Errorf("sniffed a format past the head")
		}
		if n := len(f.lr.replay); n > sniffLimit/32+1 {
			t.Errorf("sniffing kept %d lines, want at most %d", n, sniffLimit/32+1)
		}
		run, err := f.Read(Options{}, Sink{})
		if err != nil || run.Accounting.Launches != 9 {
			t.Errorf("then read %v, %v; want 9 launches", run, err)
		}
	})
	t.Run("profiler message flood", func(t *testing.T) {
		in := cat(bytes.Repeat([]byte("==PROF== Profiling \"k\" - 0: 0%....50%....100% - 1 pass\n"), 3*maxMessages), table)
		run, err := Read(bytes.NewReader(in), "in.csv", Options{}, Sink{})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(run.Messages); n > maxMessages+64 {
			t.Errorf("%d messages kept, want at most %d and a note", n, maxMessages+64)
		}
		if !strings.Contains(fmt.Sprint(run.Messages), "profiler messages: more than 1024") {
			t.Errorf("no note says the messages were not all kept")
		}
		checkAccounted(t, "flood", run)
	})
	t.Run("distinct kernel names", func(t *testing.T) {
		trace := ncuMustRead(t, "testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv")
		lines := strings.SplitAfter(string(trace), "\n")
		row := lines[lineOf(t, trace, "matrixMulCUDA")-1]
		var b strings.Builder
		b.WriteString(strings.Join(lines[:5], ""))
		for i := range maxKernelNames + 1 {
			b.WriteString(strings.Replace(row, "matrixMulCUDA", "k"+strconv.Itoa(i), 1))
		}
		_, err := Read(strings.NewReader(b.String()), "in.csv", Options{}, Sink{})
		if err == nil || !strings.Contains(err.Error(), "more than 8192 distinct kernel names") {
			t.Errorf("got %v", err)
		}
	})
	for _, c := range []struct {
		name, msg string
		data      []byte
	}{
		{"a stream of NUL bytes", "in:1: binary data (NUL byte)", make([]byte, 1<<20)},
		{"an endless line", "line longer than", bytes.Repeat([]byte("y"), maxLine+1)},
		{"blank lines", "in:1048577: more than 1048576 lines in a row without a table", bytes.Repeat([]byte("\n"), 1<<16)},
		{"program output with commas", "in:1048577: more than 1048576 lines in a row without a table", bytes.Repeat([]byte("a,b\n"), 1<<14)},
		{"a parse error, then more", "in:21: unterminated quoted field", slices.Concat(bytes.Join(bytes.SplitAfter(ncuFixture(t, "copy.details.csv"), []byte("\n"))[:20], nil), []byte(`"1","x`+"\n"))},
	} {
		t.Run("pipe: "+c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "in")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip(err)
			}
			go func() {
				w, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				defer w.Close()
				// Without end: the reader must stop by itself, and the
				// write fails once it has closed the pipe.
				for {
					if _, err := w.Write(c.data); err != nil {
						return
					}
				}
			}()
			_, err := OpenSeekable(p, Options{})
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v, want %q", err, c.msg)
			}
		})
	}
}

// TestStopAside checks that a stopped digest reads nothing more and says
// so, so that an ingest that met a parse error does not read the rest of
// the file for a digest no one needs.
func TestStopAside(t *testing.T) {
	f, err := OpenSeekable("../../fixtures/ncu/copy.details.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.StopAside()
	_, digest, err := f.HashAside()
	if err != nil {
		t.Fatal(err)
	}
	if d, err := digest(); err == nil {
		t.Errorf("a stopped digest gave %s", d)
	}
}

// TestMangledNameBombs reads a real trace whose kernel names are replaced
// by mangled names built to make a demangler recurse and work without end:
// nested template arguments 4 MB deep (which overflowed the stack), 16 kB
// deep (demangled, within the work bound), and long flat names whose work
// together passes the export's budget. Each past a bound keeps its raw
// name, with a note; the read is quick.
func TestMangledNameBombs(t *testing.T) {
	trace := ncuMustRead(t, "testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv")
	lines := strings.SplitAfter(string(trace), "\n")
	at := lineOf(t, trace, "matrixMulCUDA") - 1
	nested := func(n int) string { return "_Z1fI" + strings.Repeat("1AI", n) + "i" + strings.Repeat("E", n+1) + "vv" }
	flat := func(c byte) string { return "_Z1fI" + strings.Repeat("1"+string(c), 15000) + "Evv" }
	names := []string{nested(3 << 20 / 4), nested(1000), flat('a'), flat('b'), flat('c'), flat('d'), flat('e')}
	var b strings.Builder
	b.WriteString(strings.Join(lines[:at], ""))
	for _, n := range names {
		b.WriteString(strings.Replace(lines[at], "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)", n, 1))
	}
	run, err := Read(strings.NewReader(b.String()), "in.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Kernels) != len(names) {
		t.Fatalf("%d kernels, want %d", len(run.Kernels), len(names))
	}
	for i, k := range run.Kernels {
		if k.Name != names[i] {
			t.Errorf("kernel %d: name changed", i)
		}
		if want := i >= 1 && i <= 5; (k.Demangled != "") != want {
			t.Errorf("kernel %d (%d bytes): demangled %v, want %v", i, len(k.Name), k.Demangled != "", want)
		}
	}
	if !strings.Contains(fmt.Sprint(run.Messages), fmt.Sprintf("mangled name: a mangled kernel name of %d bytes is kept as it is", len(names[0]))) {
		t.Errorf("no note on the name kept mangled: %v", run.Messages)
	}
}

// TestMetricFloodInOneKernel gives one launch of a real details page, and
// one kernel of a real nvprof metrics table, more distinct metric names
// than a raw page's row may hold: each is refused at the row past the
// bound, as a flood of kernel names is.
func TestMetricFloodInOneKernel(t *testing.T) {
	skipShort(t)
	for _, c := range []struct {
		path, metric string
	}{
		{"../../fixtures/ncu/saxpy.metrics.details.csv", `"gpu__time_duration.sum"`},
		{"testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", `"gld_throughput"`},
	} {
		in := ncuMustRead(t, c.path)
		at := lineOf(t, in, c.metric)
		lines := strings.SplitAfter(string(in), "\n")
		row := lines[at-1]
		var b strings.Builder
		b.WriteString(strings.Join(lines[:at], ""))
		for i := range maxKernelMetrics {
			b.WriteString(strings.Replace(row, c.metric, `"m`+strconv.Itoa(i)+`"`, 1))
		}
		b.WriteString(strings.Join(lines[at:], ""))
		_, err := Read(strings.NewReader(b.String()), "in.csv", Options{}, Sink{})
		if err == nil || !strings.Contains(err.Error(), "more than 65536 distinct metrics in one kernel launch") {
			t.Errorf("%s: got %v", c.path, err)
		}
	}
}

// TestNCUTextOutput renders a real details page as ncu prints it without
// --csv (the kernel line, each section's title and a table of its
// metrics' names, units and values): it is refused with the command that
// writes CSV.
func TestNCUTextOutput(t *testing.T) {
	page := ncuFixture(t, "saxpy.metrics.details.csv")
	hdr := lineOf(t, page, `"ID","Process ID"`)
	lines := strings.SplitAfter(string(page), "\n")
	var b strings.Builder
	b.WriteString(strings.Join(lines[:hdr-1], ""))
	section := ""
	for i, l := range lines[hdr:] {
		f := strings.Split(strings.TrimSuffix(l, "\n"), `","`)
		if len(f) < 15 {
			continue
		}
		if i == 0 {
			fmt.Fprintf(&b, "  %s %s x %s, Context %s, Stream %s, Device %s, CC %s\n", f[4], f[8], f[7], f[5], f[6], f[9], f[10])
		}
		if f[11] != section {
			section = f[11]
			fmt.Fprintf(&b, "    Section: %s\n    %-40s %12s %20s\n", section, "Metric Name", "Metric Unit", "Metric Value")
		}
		fmt.Fprintf(&b, "    %-40s %12s %20s\n", f[12], f[13], strings.TrimSuffix(f[14], `"`))
	}
	_, err := Read(strings.NewReader(b.String()), "in.txt", Options{}, Sink{})
	if err == nil || !strings.Contains(err.Error(), "ncu text output, not CSV: rerun ncu with --csv") {
		t.Errorf("got %v", err)
	}
}
