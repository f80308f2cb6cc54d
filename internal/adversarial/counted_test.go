package adversarial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// countedCases are the categories of issue 37's causes 1 to 10 and their
// kin: a PyTorch trace read by one reader on every path (ingest into a
// new or an existing database, minified, with a long string) and stored
// with its tool; its times, sizes, surrogates and member order; every
// trace format's rows written twice away from their place; nsys API and
// GPU traces of two captures in one file; ncu pages whose first launch
// differs. Each is refused at its file's line, the database unchanged, or
// reads as the intact export.
func countedCases(t *testing.T, fs []*fixture, base []byte) []*tcase {
	tr := loadTorch(t, "copy_pinned")
	var cs []*tcase
	cs = append(cs, torchPathCases(tr, base)...)
	cs = append(cs, torchEventCases(t, tr, base)...)
	cs = append(cs, rowsTwiceCases(fs, base)...)
	cs = append(cs, joinedTraceCases(t, fs, base)...)
	cs = append(cs, firstLaunchCases(t, base)...)
	return cs
}

// torchDoc is a PyTorch trace (as the profiler writes it: one member a
// line, each event a block of lines) taken apart: the header members
// before traceEvents, the events' blocks, what follows them.
type torchDoc struct {
	f      *fixture
	head   string // from the opening brace to the traceEvents key, exclusive
	events []string
	tail   string // after the events' closing bracket
}

func loadTorch(t *testing.T, name string) *torchDoc {
	b, err := os.ReadFile(filepath.Join(repo, "fixtures/timeline/"+name+".json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(gunzip(t, b))
	f := &fixture{name: "torch-" + name, text: text, lines: strings.SplitAfter(text, "\n")}
	d := &torchDoc{f: f}
	i := strings.Index(text, `"traceEvents": [`)
	j := strings.LastIndex(text, "\n  ]")
	d.head, d.tail = text[:i], text[j:]
	for _, blk := range strings.Split(text[i+len(`"traceEvents": [`)+1:j], "\n  },\n") {
		blk = strings.TrimSuffix(blk, "\n  }")
		d.events = append(d.events, blk+"\n  }")
	}
	if d.text(d.events) != text {
		t.Fatalf("%s: the trace's events were not taken apart whole", name)
	}
	return d
}

// text is the document with events as its events.
func (d *torchDoc) text(events []string) string {
	return d.head + `"traceEvents": [` + "\n" + strings.Join(events, ",\n") + d.tail
}

// find is the index of the n-th event (0-based) holding s.
func (d *torchDoc) find(s string, n int) int {
	for i, e := range d.events {
		if strings.Contains(e, s) {
			if n == 0 {
				return i
			}
			n--
		}
	}
	panic(s)
}

// with is the events with event i changed by repl and the result put at
// to (-1: in its place).
func (d *torchDoc) with(i, to int, old, repl string) []string {
	e := strings.Replace(d.events[i], old, repl, 1)
	evs := append([]string(nil), d.events...)
	if to < 0 {
		evs[i] = e
		return evs
	}
	return append(evs[:to:to], append([]string{e}, d.events[to:]...)...)
}

// minified is the document on one line without its last line end.
func minified(text string) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(text)); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// storedTool checks, after an ingest that stored, that every run of the
// database has the tool and format of a PyTorch trace and, when device is
// set, that device.
func storedTool(device string) func(e *env, r *result) string {
	return func(e *env, r *result) string {
		if r.code != 0 {
			return ""
		}
		out := runProfan(e.dir, []string{"runs", "--db", "db", "--format", "json"}, nil)
		var runs []struct{ Tool, Format, Device string }
		if err := json.Unmarshal(out.stdout, &runs); err != nil {
			return "runs --format json: " + err.Error()
		}
		for _, run := range runs {
			if run.Format == "pytorch-trace" && (run.Tool != "torch" || device != "" && run.Device != device) {
				return fmt.Sprintf("a trace stored with tool %q, device %q", run.Tool, run.Device)
			}
		}
		return ""
	}
}

// ingestInto stores data as in.json into a database holding a run (base),
// or into none; it must exit with codes, and a refusal leaves the
// database unchanged.
func ingestInto(cat, name string, data, base []byte, codes string, check func(*env, *result) string) *tcase {
	return &tcase{cat: cat, name: name, codes: codes, dbKeep: true, fileLine: "in.json", check: check,
		prep: func(e *env) []string {
			e.write("in.json", data)
			if base != nil {
				e.write("db", base)
			}
			return []string{"ingest", "--db", "db", "in.json"}
		}}
}

// torchPathCases: one reader reads a trace on every path (issue 37,
// causes 1 and 2).
func torchPathCases(d *torchDoc, base []byte) []*tcase {
	const cat = "PyTorch trace paths"
	f := d.f
	long := func(n int) []byte {
		return minified(strings.Replace(f.text, `"traceName": "cap/copy_pinned.json"`, `"traceName": "`+strings.Repeat("x", n)+`"`, 1))
	}
	min, long5 := minified(f.text), long(5<<20)
	cs := []*tcase{
		inputCase(cat, "minified, no last line end", f, min, same, intact),
		inputCase(cat, "a 5 MB string, on one line", f, long5, same, intact),
		inputCase(cat, "a 17 MB string", f, long(17<<20), refused, intact),
	}
	for _, into := range []struct {
		name string
		base []byte
	}{{"a new database", nil}, {"a database holding a run", base}} {
		cs = append(cs,
			ingestInto(cat, "ingest minified into "+into.name, min, into.base, "0", storedTool("NVIDIA H100 80GB HBM3")),
			ingestInto(cat, "ingest a 5 MB string into "+into.name, long5, into.base, "0", storedTool("NVIDIA H100 80GB HBM3")),
			ingestInto(cat, "ingest the trace into "+into.name, []byte(f.text), into.base, "0", storedTool("NVIDIA H100 80GB HBM3")),
		)
	}
	return cs
}

// torchEventCases: times, sizes, surrogates, events written twice and the
// order of the members (issue 37, causes 3 to 7).
func torchEventCases(t *testing.T, d *torchDoc, base []byte) []*tcase {
	f := d.f
	last := len(d.events) - 1
	k0, kMid, kLast := d.find(`"cat": "kernel"`, 0), d.find(`"cat": "kernel"`, 10), d.find(`"cat": "kernel"`, 20)
	cp := d.find(`"cat": "gpu_memcpy"`, 0)
	launch := d.find(`"name": "cudaLaunchKernel"`, 3)
	ts := func(i int) string {
		e := d.events[i]
		a := strings.Index(e, `"ts": `) + len(`"ts": `)
		return e[a : a+strings.IndexByte(e[a:], ',')]
	}
	corr := func(i int) string {
		e := d.events[i]
		a := strings.Index(e, `"correlation": `) + len(`"correlation": `)
		return e[a : a+strings.IndexAny(e[a:], ", }\n")]
	}
	text := func(evs []string) []byte { return []byte(d.text(evs)) }
	in := func(cat, name string, evs []string, oracle string) *tcase {
		return inputCase(cat, name, f, text(evs), oracle, intact)
	}
	var cs []*tcase
	// Times that would wrap around int64 nanoseconds.
	cat := "PyTorch times"
	cs = append(cs,
		in(cat, "a kernel at 1e16 us", d.with(kMid, -1, `"ts": `+ts(kMid), `"ts": 1e16`), refused),
		in(cat, "a kernel at -9e15 us", d.with(kMid, -1, `"ts": `+ts(kMid), `"ts": -9000000000000000`), refused),
		in(cat, "a kernel 3e15 us after the first event", d.with(kMid, -1, `"ts": `+ts(kMid), `"ts": 3000000000000000`), refused),
		in(cat, "a kernel lasting 3e15 us", d.with(kMid, -1, `"dur": `, `"dur": 3000000000000000, "x": `), refused),
		in(cat, "the first event moved to 0 us", d.with(0, -1, `"ts": `+ts(0), `"ts": 0`), anyOutcome),
	)
	// Sizes that would sum to infinity.
	cat = "Copy sizes"
	bytesOf := func(n string) []string { return d.with(cp, -1, `"bytes": `, `"bytes": `+n+`, "x": `) }
	cs = append(cs,
		in(cat, "a copy of 1e308 bytes", bytesOf("1e308"), refused),
		in(cat, "a copy of 2 PiB", bytesOf("2251799813685248"), refused),
		in(cat, "a copy of 1e400 bytes", bytesOf("1e400"), refused),
	)
	// Lone surrogates merge names read as U+FFFD.
	cat = "PyTorch surrogates"
	for _, s := range []string{`\ud800`, `\udfff`, `\udc00\ud800`, `\ud800A`} {
		cs = append(cs, in(cat, "a kernel's name starting "+s, d.with(k0, -1, `"name": "`, `"name": "`+s), refused))
	}
	pair := inputCase(cat, "a kernel's name starting with a pair", f, text(d.with(k0, -1, `"name": "`, `"name": "\ud83d\ude00`)), anyOutcome, intact)
	pair.codes = "0"
	cs = append(cs,
		inputCase(cat, "in the trace's name (a string skipped)", f, []byte(strings.Replace(f.text, `"traceName": "cap/`, `"traceName": "\udfffcap/`, 1)), refused, intact),
		pair,
	)
	// Events written twice, and correlation IDs joining two events.
	cat = "PyTorch events written twice"
	twice := []struct {
		name string
		evs  []string
	}{
		{"the first kernel again at the end", d.with(k0, last, "", "")},
		{"a middle kernel again at the end", d.with(kMid, last, "", "")},
		{"the last kernel again at the start", d.with(kLast, 1, "", "")},
		{"a kernel again after itself", d.with(kMid, kMid+1, "", "")},
		{"a copy again at the end", d.with(cp, last, "", "")},
		{"a launch call again at the end", d.with(launch, last, "", "")},
		{"a synchronisation again at the end", d.with(d.find(`"name": "cudaDeviceSynchronize"`, 0), last, "", "")},
		{"a cudaMemcpyAsync again at the start", d.with(d.find(`"name": "cudaMemcpyAsync"`, 1), 1, "", "")},
		{"a kernel with another kernel's correlation", d.with(kLast, -1, `"correlation": `+corr(kLast), `"correlation": `+corr(k0))},
		{"a launch call with another's correlation", d.with(launch, -1, `"correlation": `+corr(launch), `"correlation": `+corr(kMid))},
		{"a kernel of another time with the first's correlation, at the end", d.with(k0, last, `"ts": `+ts(k0), `"ts": `+ts(kLast)+"1")},
	}
	for i, c := range twice {
		cs = append(cs, in(cat, c.name, c.evs, refused))
		if i%3 == 0 {
			cs = append(cs, ingestInto(cat, "ingest "+c.name, text(c.evs), base, "2", nil))
		}
	}
	graphs := loadTorch(t, "train_small_graphs")
	cs = append(cs, inputCase(cat, "the kernels of CUDA graph launches, which share their IDs", graphs.f, []byte(graphs.f.text), same, intact))
	// Member order: deviceProperties after traceEvents.
	cat = "PyTorch key order"
	head := strings.TrimSuffix(strings.TrimPrefix(d.head, "\n  {\n"), ",\n  ")
	events := strings.TrimSuffix(d.text(d.events)[len(d.head):], "\n}")
	reversed := []byte("{\n  " + events + ",\n" + head + "\n}\n")
	devLast := strings.Replace(f.text, `"traceName": "cap/copy_pinned.json"`, `"traceName": "cap/copy_pinned.json", "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0}]`, 1)
	devLast = strings.Replace(devLast, `"deviceProperties": [`, `"otherProperties": [`, 1)
	cs = append(cs,
		inputCase(cat, "traceEvents first, the header after", f, reversed, same, intact),
		inputCase(cat, "deviceProperties last", f, []byte(devLast), same, intact),
		inputCase(cat, "deviceProperties last, minified", f, minified(devLast), same, intact),
		ingestInto(cat, "ingest deviceProperties last", []byte(devLast), base, "0", storedTool("NVIDIA H100 80GB HBM3")),
		&tcase{cat: cat, name: "deviceProperties last, read once from a pipe", codes: "02", fileLine: "/dev/stdin",
			stdin: func(w io.Writer) { w.Write([]byte(devLast)) },
			prep: func(e *env) []string {
				e.write("ref.csv", []byte(f.text))
				return []string{"analyze", "--format", "json", "--launches", "/dev/stdin"}
			},
			same:          func(e *env) []string { return []string{"analyze", "--format", "json", "--launches", "ref.csv"} },
			sameOrRefused: true},
	)
	return cs
}

// rowsTwiceCases: a row of a trace, or an ncu launch, written twice away
// from its place is refused at its line, in every format (issue 37,
// cause 9 and its kin); the row before it is the CSV lines category's.
func rowsTwiceCases(fs []*fixture, base []byte) []*tcase {
	const cat = "Rows written twice"
	var cs []*tcase
	copyTo := func(f *fixture, from, to int) []byte {
		out := append([]string(nil), f.lines[:to]...)
		out = append(out, f.lines[from])
		return []byte(join(append(out, f.lines[to:]...)))
	}
	add := func(f *fixture, what string, from, to int) {
		data := copyTo(f, from, to)
		name := fmt.Sprintf("%s (line %d) again at line %d", what, from+1, to+1)
		cs = append(cs, inputCase(cat, name, f, data, refused, intact))
		if len(cs)%3 == 0 {
			cs = append(cs, ingestCase(cat, name, f, data, base))
		}
	}
	where := func(f *fixture, from int, has string) int {
		for i := from; i < len(f.lines); i++ {
			if strings.Contains(f.lines[i], has) {
				return i
			}
		}
		panic(has)
	}
	// A kernel's row: a row of the trace that is no copy or memset.
	kernelRow := func(f *fixture, from int) int {
		for i := from; i < len(f.lines); i++ {
			if l := f.lines[i]; l != "" && l[0] >= '0' && l[0] <= '9' && strings.Count(l, ",") > 8 && !strings.Contains(l, "[CUDA") {
				return i
			}
		}
		panic(f.name)
	}
	api := fx(fs, "nsys-api-trace")
	gpuAt := where(api, 0, "gputrace.py")
	end := len(api.lines) - 1
	add(api, "an API trace's launch call", where(api, 0, "cudaLaunchKernel"), gpuAt-2)
	add(api, "an API trace's launch call", where(api, 500, "cudaLaunchKernel"), 200)
	add(api, "an API trace's sync call", where(api, 0, "cudaDeviceSynchronize"), gpuAt-2)
	add(api, "an API trace's copy call", where(api, 0, ",cudaMemcpy,"), gpuAt-5)
	add(api, "a GPU trace's kernel", kernelRow(api, gpuAt), end)
	add(api, "a GPU trace's kernel", kernelRow(api, gpuAt+600), gpuAt+100)
	add(api, "a GPU trace's copy", where(api, gpuAt, "[CUDA memcpy"), end)
	for _, name := range []string{"nsys-gputrace", "nvprof-trace"} {
		f := fx(fs, name)
		add(f, "the first row", f.first(), len(f.lines)-1)
		add(f, "a middle row", f.mid(), len(f.lines)-1)
		add(f, "the last row", f.last(), f.first())
		add(f, "a kernel row", kernelRow(f, f.hdr+1), f.last())
	}
	raw := fx(fs, "ncu-raw")
	add(raw, "the first launch", raw.first(), len(raw.lines)-1)
	add(raw, "the last launch", raw.last(), raw.first())
	// A details page's launch is a block of rows: the first again at the end.
	d := fx(fs, "ncu-details")
	n := 0
	for strings.HasPrefix(d.lines[d.first()+n], `"0",`) {
		n++
	}
	block := join(d.lines[d.first() : d.first()+n])
	cs = append(cs,
		inputCase(cat, "a details page's first launch again at the end", d, []byte(d.text+block), refused, intact),
		ingestCase(cat, "a details page's first launch again at the end", d, []byte(d.text+block), base))
	return cs
}

// joinedTraceCases: an nsys API trace and the GPU trace of another
// capture in one file are refused, as in two files (issue 37, cause 8);
// one report's, and two reports one after the other, read.
func joinedTraceCases(t *testing.T, fs []*fixture, base []byte) []*tcase {
	const cat = "Traces of two captures in one file"
	split := func(path string) (string, string) {
		b, _ := os.ReadFile(abs(path))
		text := string(gunzip(t, b))
		i := strings.Index(text, "Processing [report1.sqlite] with [/usr/lib/x86_64-linux-gnu/nsight-systems/target-linux-x64/reports/gputrace.py]")
		return text[:i], text[i:]
	}
	api := fx(fs, "nsys-api-trace")
	tiAPI, tiGPU := split("internal/ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	cfAPI, cfGPU := split("internal/ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	var cs []*tcase
	for _, c := range []struct{ name, text string }{
		{"an API trace and another capture's GPU trace", tiAPI + cfGPU},
		{"the other way round", cfAPI + tiGPU},
		{"the GPU trace first, of another capture", cfGPU + tiAPI},
		{"the other GPU trace first", tiGPU + cfAPI},
	} {
		cs = append(cs,
			inputCase(cat, c.name, api, []byte(c.text), refused, intact),
			ingestCase(cat, c.name, api, []byte(c.text), base))
	}
	cs = append(cs,
		inputCase(cat, "one report's, the GPU trace first", api, []byte(tiGPU+tiAPI), same, intact),
		inputCase(cat, "two reports one after the other", api, []byte(tiAPI+tiGPU+cfAPI+cfGPU), anyOutcome, intact),
	)
	cs[len(cs)-1].codes = "0"
	return cs
}

// firstLaunchCases: the raw and details pages of one process read in
// step launch by launch, the first too: a page whose first launch
// differs is refused there, not read as a capture of its own (issue 37,
// cause 10).
func firstLaunchCases(t *testing.T, base []byte) []*tcase {
	const cat = "Pages whose first launch differs"
	read := func(p string) string {
		b, _ := os.ReadFile(abs(p))
		return string(gunzip(t, b))
	}
	raw, details := read("fixtures/calib/calib.raw.csv.gz"), read("fixtures/calib/calib.details.csv.gz")
	first := `"0","821","calib","127.0.0.1","void strideCopy<1>(float *, const float *)"`
	var cs []*tcase
	for _, c := range []struct {
		name         string
		raw, details string
	}{
		{"the raw page's first launch ID", strings.Replace(raw, first, `"9"`+first[3:], 1), details},
		{"the raw page's first kernel", strings.Replace(raw, first, strings.Replace(first, "strideCopy<1>", "strideCopy<3>", 1), 1), details},
		{"the raw page's first process ID", strings.Replace(raw, first, strings.Replace(first, `"821"`, `"822"`, 1), 1), details},
		{"the details page's first launch ID", raw, strings.ReplaceAll(details, first, `"9"`+first[3:])},
		{"the details page's first kernel", raw, strings.ReplaceAll(details, first, strings.Replace(first, "strideCopy<1>", "strideCopy<3>", 1))},
		{"the raw page's tenth launch ID", strings.Replace(raw, "\n\"9\",\"821\"", "\n\"99\",\"821\"", 1), details},
	} {
		for _, cmd := range []string{"analyze", "ingest"} {
			tc := &tcase{cat: cat, name: cmd + " " + c.name, codes: "2", dbKeep: true,
				prep: func(e *env) []string {
					e.write("raw.csv", []byte(c.raw))
					e.write("details.csv", []byte(c.details))
					if cmd == "ingest" {
						e.write("db", base)
						return []string{"ingest", "--db", "db", "raw.csv", "details.csv"}
					}
					return []string{"analyze", "raw.csv", "details.csv"}
				}}
			tc.check = func(e *env, r *result) string {
				if r.code == 2 && !regexp.MustCompile(`(raw|details)\.csv:\d+:`).Match(r.stderr) {
					return "the error names no page and line: " + firstLine(r.stderr)
				}
				return ""
			}
			cs = append(cs, tc)
		}
	}
	return cs
}
