package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// interlopers are the lines that appear inside real exports between the
// rows of a table: each must be skipped by a rule (the same launches are
// read) or refused with file:line, never end the table.
var interlopers = []struct {
	name  string
	lines []string
}{
	{"blank", []string{""}},
	{"whitespace", []string{"   \t "}},
	{"prof", []string{"==PROF== Connected to process 7267 (/tmp/profan/inline)"}},
	{"warning", []string{"==WARNING== Note: Running with unmodified GPU clocks."}},
	{"error", []string{"==ERROR== An error was reported by the driver"}},
	{"pid", []string{"==7267== Profiling application: ./inline"}},
	{"output", []string{"inline: repetition 0 done"}},
	{"ansi-output", []string{"\x1b[31mloss 1.1490\x1b[0m \u202eevil"}},
	{"nvlink", []string{"    The system does not have any NVLink connections."}},
	{"numa", []string{`"GPU ID","GPU Name","NUMA ID by CPU Affinity","CPU Affinity","NUMA ID by Memory Affinity"`,
		`"0","NVIDIA H100 80GB HBM3","0","0-15","0"`}},
	{"subtable", []string{`"Link Name","Peer Device","Link State"`, `"NVLink 0","GPU 1","Up"`}},
	{"output-comma", []string{"epoch 1, loss 0.5"}},
	{"cut-row", []string{"1.3562"}},
	{"header", nil}, // the file's own first table header, repeated
}

// mutationInputs are every fixture and public sample.
func mutationInputs(t testing.TB) []string {
	var files []string
	for _, pat := range []string{"../../fixtures/*/*.csv", "../../fixtures/*/*.csv.gz", "testdata/ncu/*.csv", "testdata/nvprof/*.csv", "testdata/nsys/*.csv", "testdata/errors/*.csv"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 100 {
		t.Fatalf("only %d inputs", len(files))
	}
	return files
}

// readLines returns the lines of a (possibly gzip-compressed) export.
func readLines(t testing.TB, path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return strings.SplitAfter(string(b), "\n")
}

type readCount struct{ kernels, launches, activities, apis int }

// checkAccounted asserts that every line read is a header, a data row or
// a line skipped under a rule.
func checkAccounted(t *testing.T, what string, run *profan.Run) {
	a := run.Accounting
	n := a.Headers + a.Rows
	for _, s := range a.Skipped {
		n += s.Lines
	}
	if n != a.Lines {
		t.Errorf("%s: %d lines read, %d accounted for (%s)", what, a.Lines, n, a)
	}
}

func countOf(run *profan.Run) readCount {
	return readCount{len(run.Kernels), run.Accounting.Launches, len(run.Activities), len(run.APICalls)}
}

// windowBytes bounds the text a mutation is read from: a larger export is
// cut to its preamble and header and a window around its middle, so that
// the suite reads every fixture in a few seconds.
const windowBytes = 64 << 10

// window returns lines, or for a large export its preamble through the
// first header (and the line after it: a units row) and a window of lines
// around its middle; the window starts at a line that begins like the
// header (a source page's block), when there is one.
func window(lines []string) []string {
	size := 0
	for _, l := range lines {
		size += len(l)
	}
	header, ok := firstHeader(lines)
	if size <= windowBytes || !ok || header+2 >= len(lines) {
		return lines
	}
	mid := header + 2 + (len(lines)-header-2)/2
	start := mid
	for b := 0; start > header+2 && b < windowBytes/2; start-- {
		b += len(lines[start-1])
	}
	end := mid
	for b := 0; end < len(lines) && b < windowBytes/2; end++ {
		b += len(lines[end])
	}
	first := lines[header]
	if i := strings.IndexByte(first, ','); i > 0 {
		key := first[:i+1]
		for j := start; j < mid; j++ {
			if strings.HasPrefix(lines[j], key) {
				return append(append([]string{}, lines[:header]...), lines[j:end]...)
			}
		}
	}
	return append(append([]string{}, lines[:header+2]...), lines[start:end]...)
}

// firstHeader is the line of the first table's header.
func firstHeader(lines []string) (int, bool) {
	for i, l := range lines {
		f, err := splitCSV([]byte(strings.TrimRight(l, "\r\n")), nil)
		if err == nil && headerCandidate(f) && matchHeader(toStrings(f)) != nil {
			return i, true
		}
	}
	return 0, false
}

// positions picks where to insert: after the header, in the middle, near
// the end, and (in small files) a few more places, spread by a hash so
// that the interlopers meet different lines.
func positions(n, header int, seed string, small bool) []int {
	h := fnv.New32a()
	h.Write([]byte(seed))
	r := int(h.Sum32())
	body := n - header - 1
	if body < 1 {
		return []int{n}
	}
	if os.Getenv("PROFAN_MUTATE_ALL") != "" {
		// Every place (slow: for a one-off check, not for CI).
		all := make([]int, 0, n+1)
		for i := 0; i <= n; i++ {
			all = append(all, i)
		}
		return all
	}
	if !small {
		// One place: the middle, or a place that varies with the seed.
		if r%2 == 0 {
			return []int{header + 1 + body/2}
		}
		return []int{header + 1 + (r/2)%body}
	}
	return []int{header + 1 + body/2, header + 1 + (r % body), header + 1}
}

// TestMutations inserts every interloper into every fixture and public
// sample and checks that the result reads the same launches as the clean
// file or is refused with file:line: no input with an interloper anywhere
// reads fewer launches with success.
func TestMutations(t *testing.T) {
	skipShort(t)
	files := mutationInputs(t)
	total, refused := 0, 0
	for _, path := range files {
		lines := window(readLines(t, path))
		clean, err := Read(strings.NewReader(strings.Join(lines, "")), path, Options{}, Sink{})
		if err != nil {
			continue // an export without a table: nothing to lose
		}
		want := countOf(clean)
		checkAccounted(t, path, clean)
		header, ok := firstHeader(lines)
		if !ok {
			t.Errorf("%s: reads without error but no header found", path)
			continue
		}
		small := len(strings.Join(lines, "")) < 16<<10
		for _, il := range interlopers {
			ins := il.lines
			if ins == nil {
				ins = []string{strings.TrimRight(lines[header], "\r\n")}
			}
			for _, pos := range positions(len(lines), header, path+il.name, small) {
				mut := make([]string, 0, len(lines)+len(ins))
				mut = append(mut, lines[:pos]...)
				for _, l := range ins {
					mut = append(mut, l+"\n")
				}
				mut = append(mut, lines[pos:]...)
				total++
				run, err := Read(strings.NewReader(strings.Join(mut, "")), path, Options{}, Sink{})
				if err != nil {
					var se *syntaxError
					if !errors.As(err, &se) || se.Line < 1 || se.File != path {
						t.Errorf("%s + %s at line %d: error without file:line: %v", path, il.name, pos+1, err)
					}
					refused++
					continue
				}
				checkAccounted(t, path+" + "+il.name, run)
				if got := countOf(run); got != want {
					t.Errorf("%s + %s at line %d: read %+v, the clean file %+v", path, il.name, pos+1, got, want)
				}
			}
		}
	}
	t.Logf("%d mutated inputs over %d files, %d refused with file:line", total, len(files), refused)
}

// TestMutationsAccounted checks that what an interloper adds is counted
// under its rule: the skipped lines of the mutated file exceed the clean
// one's by the lines inserted.
func TestMutationsAccounted(t *testing.T) {
	path := "../../fixtures/ncu/copy.details.csv"
	lines := readLines(t, path)
	clean, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	skipped := func(run *profan.Run) int {
		n := 0
		for _, s := range run.Accounting.Skipped {
			n += s.Lines
		}
		return n
	}
	for _, il := range interlopers {
		if il.name == "output-comma" || il.name == "cut-row" || il.name == "subtable" || il.lines == nil {
			continue
		}
		mid := len(lines) / 2
		mut := append(append(append([]string{}, lines[:mid]...), strings.Join(il.lines, "\n")+"\n"), lines[mid:]...)
		run, err := Read(strings.NewReader(strings.Join(mut, "")), path, Options{}, Sink{})
		if err != nil {
			t.Fatalf("%s: %v", il.name, err)
		}
		if got, want := skipped(run), skipped(clean)+len(il.lines); got != want {
			t.Errorf("%s: %d lines skipped, want %d (%s)", il.name, got, want, run.Accounting)
		}
		if run.Accounting.Rows != clean.Accounting.Rows {
			t.Errorf("%s: %d data rows, want %d", il.name, run.Accounting.Rows, clean.Accounting.Rows)
		}
	}
}

// mutationSeeds are small mutated inputs for the fuzzers: the head of a
// few exports with each interloper inside their first table.
func mutationSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, path := range []string{"../../fixtures/ncu/copy.details.csv", "../../fixtures/ncu/copy.metrics.raw.csv", "../../fixtures/ncu/copy.source.cuda-sass.csv",
		"testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", "testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv"} {
		lines := readLines(t, path)
		header, ok := firstHeader(lines)
		if !ok {
			continue
		}
		if len(lines) > header+40 {
			lines = lines[:header+40]
		}
		for _, il := range interlopers {
			ins := il.lines
			if ins == nil {
				ins = []string{strings.TrimRight(lines[header], "\r\n")}
			}
			pos := header + 1 + (len(lines)-header-1)/2
			mut := append(append(append([]string{}, lines[:pos]...), strings.Join(ins, "\n")+"\n"), lines[pos:]...)
			out = append(out, []byte(strings.Join(mut, "")))
		}
	}
	return out
}

func ExampleAccounting() {
	run, _ := ReadFile("../../fixtures/variants/variants.details.print-details-all.csv.gz", Options{})
	fmt.Println(run.Accounting)
	// Output: 34498 lines: 18 launches in 18 kernel records, 0 activities, 34425 data rows, 1 header lines; skipped 18 indented note (ncu --print-details) (first at line 1691); skipped 18 blank line (first at line 1692); skipped 36 ncu --print-details sub-table line (first at line 1697)
}

// endless is an input of commas without end, counting what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ','
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestLongLineFlat pins the long-line case: a line longer than
// the limit is an error found without reading the rest of it (an 8 MB line
// of commas took 16 s and 933 MB), and a line of too many fields as well.
func TestLongLineFlat(t *testing.T) {
	in := &endless{}
	_, err := Read(in, "commas.csv", Options{}, Sink{})
	var se *syntaxError
	if !errors.As(err, &se) || se.Line != 1 || !strings.Contains(se.Msg, "line longer than") {
		t.Fatalf("endless line: %v", err)
	}
	if in.n > maxLine+1<<20 {
		t.Errorf("read %d bytes of an endless line, the limit is %d", in.n, maxLine)
	}
	wide := `"ID","Kernel Name"` + strings.Repeat(",", maxFields+10) + "\n"
	if _, err := Read(strings.NewReader(wide), "wide.csv", Options{}, Sink{}); !errors.As(err, &se) || !strings.Contains(se.Msg, "fields") {
		t.Errorf("a line of %d fields: %v", maxFields+10, err)
	}
}

// TestReportsProfanDoesNotRead: nsys stats prints several reports one
// after the other, each after a title and a blank line; the tables no
// importer reads are skipped and counted, not read as rows of the table
// before them, and the kernels read are those of the clean export.
func TestReportsProfanDoesNotRead(t *testing.T) {
	path := "testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv"
	clean, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	other := "\n ** CUDA GPU MemOps Summary (by Time) (cuda_gpu_mem_time_sum):\n\n" +
		"Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\n" +
		"60.1,1000,2,500.0,500.0,400,600,141.4,[CUDA memcpy Host-to-Device]\n" +
		"39.9,664,1,664.0,664.0,664,664,0.0,[CUDA memset]\n"
	b, _ := os.ReadFile(path)
	for _, in := range []string{string(b) + other, other + string(b), string(b) + other + "\n" + string(b)} {
		run, err := Read(strings.NewReader(in), path, Options{}, Sink{})
		if strings.Count(in, "Instances") == 2 {
			// The same report twice, row for row: an export appended to
			// itself, refused rather than counted twice.
			if err == nil || !strings.Contains(err.Error(), "the same table, row for row, as the one at line 1") {
				t.Errorf("the same report twice around another: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v", err)
		}
		if len(run.Kernels) != len(clean.Kernels) {
			t.Errorf("%d kernels, want %d", len(run.Kernels), len(clean.Kernels))
		}
		checkAccounted(t, "nsys reports", run)
	}
	// A row that fits neither table is refused.
	bad := string(b) + other + "1,2\n"
	if _, err := Read(strings.NewReader(bad), path, Options{}, Sink{}); err == nil || !strings.Contains(err.Error(), "which profan does not read") {
		t.Errorf("a stray row in an unread table: %v", err)
	}
}

// TestDecimalCommaAndInfinity pins the unparseable-value cases
// in an nvprof table and an ncu page: a decimal comma is read with a note,
// an infinity is a missing value with a note, each said once; another
// value that is no number is refused with its line.
func TestDecimalCommaAndInfinity(t *testing.T) {
	path := "testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv"
	b, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(b), "\n")
	row := lines[6]
	i := strings.LastIndexByte(row, ',')
	for _, c := range []struct{ value, note string }{{`"965,5"`, "decimal comma"}, {"inf", "infinite"}, {"1e400", "infinite"}, {"9.6.5", ""}} {
		t.Run(c.value, func(t *testing.T) {
			mut := append(append(append([]string{}, lines[:6]...), row[:i+1]+c.value+"\n"), lines[7:]...)
			run, err := Read(strings.NewReader(strings.Join(mut, "")), path, Options{}, Sink{})
			if c.note == "" {
				if err == nil || !strings.Contains(err.Error(), path+":7:") {
					t.Errorf("%s: %v, want an error at line 7", c.value, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.value, err)
			}
			notes := 0
			for _, m := range run.Messages {
				if m.Level == "note" && strings.HasPrefix(m.Text, c.note) && m.Line == 7 {
					notes++
				}
			}
			if notes != 1 {
				t.Errorf("%s: %d notes %q at line 7, want 1: %v", c.value, notes, c.note, run.Messages)
			}
			v, ok := run.Kernels[0].Metric("inst_per_warp")
			if c.note == "decimal comma" && (!ok || v.Value != 965.5) {
				t.Errorf("%s: inst_per_warp = %v, want 965.5", c.value, v.Value)
			}
		})
	}
}
