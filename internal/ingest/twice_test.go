package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
)

// lineIndex is the index of the first of lines, from from on, that
// starts with prefix; -1 when none does.
func lineIndex(lines []string, from int, prefix string) int {
	for i := from; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], prefix) {
			return i
		}
	}
	return -1
}

// moved is lines with line i copied to after line j (0-based): a row
// written twice away from its place.
func moved(lines []string, i, j int) []byte {
	out := append([]string(nil), lines[:j+1]...)
	out = append(out, lines[i])
	out = append(out, lines[j+1:]...)
	return []byte(strings.Join(out, ""))
}

// again is lines with rows inserted after line i (0-based).
func again(lines []string, i int, rows ...string) []byte {
	out := append([]string(nil), lines[:i+1]...)
	out = append(out, rows...)
	out = append(out, lines[i+1:]...)
	return []byte(strings.Join(out, ""))
}

// wantRefused holds err a syntax error at line saying msg.
func wantRefused(t *testing.T, name string, err error, line int, msg string) {
	t.Helper()
	var se *syntaxError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), msg) || (line > 0 && se.Line != line) {
		t.Errorf("%s: %v, want refused at line %d saying %q", name, err, line, msg)
	}
}

// TestRowsWrittenTwice holds a trace row written twice away from its
// place refused at its second line in every trace format (issue 37,
// cause 9 and its kin): counted, a launch or a copy would count twice.
func TestRowsWrittenTwice(t *testing.T) {
	nsys := strings.SplitAfter(string(golden.Gunzip(t, "testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz")), "\n")
	gpu := lineIndex(nsys, 0, "Start (ns),Duration (ns),CorrId")
	apiLaunch := 60 // from there, a cudaLaunchKernel row of the API trace
	for !strings.Contains(nsys[apiLaunch], "cudaLaunchKernel") {
		apiLaunch++
	}
	kernel := gpu + 30
	nvprofB, err := os.ReadFile("testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv")
	if err != nil {
		t.Fatal(err)
	}
	nvprof := strings.SplitAfter(string(nvprofB), "\n")
	nvKernel := lineIndex(nvprof, 0, "587.796940")
	nvCopy := lineIndex(nvprof, 0, "584.620743")
	for _, c := range []struct {
		name string
		in   []byte
		line int
		msg  string
	}{
		{"nsys: a kernel row again 500 rows later", moved(nsys, kernel, kernel+500), kernel + 502, "has its CorrId"},
		{"nsys: an API launch call again 400 rows later", moved(nsys, apiLaunch, apiLaunch+400), apiLaunch + 402, "each call has its own"},
		{"nsys: a copy row again at the end", moved(nsys, gpu+1, len(nsys)-2), len(nsys), "written twice"},
		{"nvprof: a kernel row again at the end", moved(nvprof, nvKernel, len(nvprof)-2), len(nvprof), "written twice"},
		{"nvprof: a copy row again at the end", moved(nvprof, nvCopy, len(nvprof)-2), len(nvprof), "written twice"},
		// The launch's identity is hashed only once a row of its start
		// follows (rowOrder.first): a copy between them, then the launch
		// again with its registers changed (not in its identity).
		{"nvprof: a kernel row again after a copy of its start", again(nvprof, nvKernel, strings.Replace(nvprof[nvCopy], "584.620743", "587.796940", 1),
			strings.Replace(nvprof[nvKernel], ",27,", ",28,", 1)), nvKernel + 3, "the same launch"},
	} {
		_, err := Read(bytes.NewReader(c.in), "in.csv", Options{}, Sink{})
		wantRefused(t, c.name, err, c.line, c.msg)
	}
}

// TestTracesOfTwoCapturesInOneFile holds an nsys API trace and the GPU
// trace of another capture joined into one file refused as they are when
// given as two files (issue 37, cause 8), in either order; each report's
// two traces, and two reports one after the other, still read.
func TestTracesOfTwoCapturesInOneFile(t *testing.T) {
	split := func(name string) (api, gpu string) {
		b := string(golden.Gunzip(t, "testdata/nsys/"+name+"-nsys2022-stats-cudaapitrace-gputrace.csv.gz"))
		i := strings.Index(b, "Processing [report1.sqlite] with [/usr/lib/x86_64-linux-gnu/nsight-systems/target-linux-x64/reports/gputrace.py]")
		return b[:i], b[i:]
	}
	tiAPI, tiGPU := split("tensoriterator-rtx3090")
	cfAPI, cfGPU := split("cufcm-rtx2080ti")
	for _, c := range []struct {
		name string
		text string
		ok   bool
	}{
		{"API trace of one, GPU trace of another", tiAPI + cfGPU, false},
		{"the other way round", cfAPI + tiGPU, false},
		{"GPU trace first, of another capture", cfGPU + tiAPI, false},
		{"one report's", tiAPI + tiGPU, true},
		{"one report's, GPU trace first", tiGPU + tiAPI, true},
		{"two reports one after the other", tiAPI + tiGPU + cfAPI + cfGPU, true},
	} {
		path := filepath.Join(t.TempDir(), "in.csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path, Options{})
		switch {
		case c.ok && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !c.ok:
			wantRefused(t, c.name, err, 0, "different captures")
		}
	}
}

// TestPagesFirstLaunchDiffers holds the raw and details pages of one
// process read in step whatever launch differs: the first too, which
// once made them two captures read as two runs (issue 37, cause 10).
func TestPagesFirstLaunchDiffers(t *testing.T) {
	raw := strings.SplitAfter(string(golden.Gunzip(t, "../../fixtures/check/check.raw.csv.gz")), "\n")
	details := golden.Gunzip(t, "../../fixtures/check/check.details.csv.gz")
	first := lineIndex(raw, 0, `"0","560"`)
	if first < 0 {
		t.Fatal("no first launch")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		from string
		to   string
	}{
		{"the first launch's ID", `"0","560"`, `"9","560"`},
		{"the first launch's kernel", `"0","560","check","127.0.0.1","compactAtomic`, `"0","560","check","127.0.0.1","compactAtomix`},
	} {
		r := append([]string(nil), raw...)
		r[first] = strings.Replace(r[first], c.from, c.to, 1)
		rp, dp := filepath.Join(dir, "raw.csv"), filepath.Join(dir, "details.csv")
		os.WriteFile(rp, []byte(strings.Join(r, "")), 0o644)
		os.WriteFile(dp, details, 0o644)
		_, err := ReadFiles([]string{rp, dp}, Options{}, func(*profan.Run, *profan.Kernel) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "disagrees") {
			t.Errorf("%s: %v, want the pages' first launches to disagree", c.name, err)
		}
	}
}

// TestDetailsMetricRowTwice holds a metric row of a details page written
// twice refused at its second line in the launch that has it, the first
// launch's too: a row doubled there once made every later launch look a
// row short and the last be called cut short, naming the wrong launch.
// Where the first launch's last row is doubled and the last launch ends a
// row short, the export is cut short or a line written twice: refused
// saying both. The inputs are the real page's rows, one row doubled.
func TestDetailsMetricRowTwice(t *testing.T) {
	b, err := os.ReadFile("../../fixtures/ncu/matmul.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	l0, l1, l2 := lineIndex(lines, 0, `"0","1252"`), lineIndex(lines, 0, `"1","1252"`), lineIndex(lines, 0, `"2","1252"`)
	if l0 < 0 || l1 < 0 || l2 < 0 {
		t.Fatal("the page's three launches not found")
	}
	sol := lineIndex(lines, l0, `"0","1252","matmul","127.0.0.1","matmulNaive(const float *, const float *, float *, int)","1","7","(16, 16, 1)","(64, 64, 1)","0","9.0","GPU Speed Of Light Throughput","Compute (SM) Throughput"`)
	elapsed := lineIndex(lines, l0, `"0","1252","matmul","127.0.0.1","matmulNaive(const float *, const float *, float *, int)","1","7","(16, 16, 1)","(64, 64, 1)","0","9.0","GPU Speed Of Light Throughput","Elapsed Cycles"`)
	if sol < 0 || elapsed < 0 {
		t.Fatal("the first launch's rows not found")
	}
	two := lines[:l2] // the first two launches, whole
	for _, c := range []struct {
		name string
		in   []byte
		line int
		msg  string
	}{
		{"the first launch's row doubled", again(lines, sol, lines[sol]), sol + 2, fmt.Sprintf("launch 0 of matmulNaive(const float *, const float *, float *, int) has the metric row of line %d again, where launch 1", sol+1)},
		{"the first launch's row again 20 rows later", moved(lines, elapsed, elapsed+20), elapsed + 22, fmt.Sprintf("launch 0 of matmulNaive(const float *, const float *, float *, int) has the metric row of line %d again", elapsed+1)},
		{"the first launch's row doubled, two launches", again(two, sol, lines[sol]), sol + 2, "launch 0 of matmulNaive"},
		{"the first launch's last row doubled", again(lines, l1-1, lines[l1-1]), l1 + 1, fmt.Sprintf("has the metric row of line %d again", l1)},
		{"the second launch's row doubled", again(lines, l1+5, lines[l1+5]), l1 + 7, "launch 1 of void matmulTiled<16>"},
		{"the last launch's last row doubled", again(lines, len(lines)-1, lines[len(lines)-1]), len(lines) + 1, "launch 2 of void matmulTiled<32>"},
		// Two launches, the first's last row doubled: the last launch ends
		// a row short of the first, and may have been cut there.
		{"the first launch's last row doubled, two launches", again(two, l1-1, lines[l1-1]), l2 + 1, "the export is cut short, or launch 0 of matmulNaive(const float *, const float *, float *, int) has a line written twice"},
	} {
		_, err := Read(bytes.NewReader(c.in), "in.csv", Options{}, Sink{})
		wantRefused(t, c.name, err, c.line, c.msg)
	}
	// Two captures in one file (cat a.csv b.csv), the first's last row
	// doubled: checked before the second capture's launches are learnt.
	twice := append(append(append([]string(nil), lines...), lines[len(lines)-1]), lines...)
	_, err = Read(bytes.NewReader([]byte(strings.Join(twice, ""))), "in.csv", Options{}, Sink{})
	wantRefused(t, "the first capture's last row doubled", err, len(lines)+1, "launch 2 of void matmulTiled<32>")
	if _, err := Read(bytes.NewReader([]byte(strings.Join(two, ""))), "in.csv", Options{}, Sink{}); err != nil {
		t.Errorf("the first two launches: %v", err)
	}
}

// TestSummaryMetricRowTwice holds a summary page's kernels to the rows
// of its first as TestDetailsMetricRowTwice holds a details page's
// launches: the first kernel's row again (away from its place) once made
// the last kernel be called cut short, and the last kernel's was dropped.
func TestSummaryMetricRowTwice(t *testing.T) {
	b, err := os.ReadFile("../../fixtures/ncu/copy.summary.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	first := lineIndex(lines, 0, `"2172","copy","127.0.0.1","offsetCopy`)
	second := lineIndex(lines, 0, `"2172","copy","127.0.0.1","strideCopy`)
	if first < 0 || second < 0 {
		t.Fatal("the page's two kernels not found")
	}
	for _, c := range []struct {
		name string
		in   []byte
		line int
		msg  string
	}{
		{"the first kernel's row again 13 rows later", moved(lines, first+1, first+14), first + 16,
			fmt.Sprintf("kernel offsetCopy(float *, const float *, int) has the metric row of line %d again, where kernel strideCopy", first+2)},
		{"the last kernel's row again 15 rows later", moved(lines, second+1, second+16), second + 18, "kernel strideCopy(float *, const float *, int) has its metric row"},
	} {
		_, err := Read(bytes.NewReader(c.in), "in.csv", Options{}, Sink{})
		wantRefused(t, c.name, err, c.line, c.msg)
	}
}

// TestNvprofMetricTwice holds an nvprof metrics or events table's row
// written twice away from its place refused at its second line: a
// kernel's block names each metric once, and the row again was dropped
// (the same value) or taken in silence.
func TestNvprofMetricTwice(t *testing.T) {
	for _, f := range []string{"testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", "testdata/nvprof/ieee2017-k40c-events-no-total-then-metrics.csv"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		row := lineIndex(lines, 0, `"Device","Kernel","Invocations"`) + 1
		if row <= 0 {
			t.Fatalf("%s: no table", f)
		}
		wantRefused(t, f, func() error {
			_, err := Read(bytes.NewReader(moved(lines, row, row+4)), "in.csv", Options{}, Sink{})
			return err
		}(),
			row+6, fmt.Sprintf("was already read at line %d (a line written twice?)", row+1))
	}
}

// TestSummaryNameTwice holds a summary table's row again, away from its
// place, refused at its line: nsys's kernel and API summaries and
// nvprof's have one row per name, and the row again counted its time
// twice (llmperfopt's kernel summary: 634.7 ms of kernel time read as
// 716.6 ms).
func TestSummaryNameTwice(t *testing.T) {
	for _, f := range []string{
		"testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv",
		"testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv",
		"testdata/nvprof/ieee2017-k20c-gpu-api-summary-no-type-col-sci.csv",
	} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(b), "\n")
		row := -1
		for i, l := range lines {
			if strings.Contains(l, "Time (%)") || strings.Contains(l, "Time(%)") {
				row = i + 1
				break
			}
		}
		for row > 0 && row < len(lines) && !strings.ContainsAny(lines[row][:1], "0123456789\"") {
			row++ // a units row
		}
		if row <= 0 || row+3 >= len(lines) {
			t.Fatalf("%s: no table", f)
		}
		_, err = Read(bytes.NewReader(moved(lines, row, row+2)), "in.csv", Options{}, Sink{})
		wantRefused(t, f, err, row+4, fmt.Sprintf("is the name of the row at line %d", row+1))
	}
}

// TestDetailsAllRowTwice: on a --print-details all page, whose launches
// order a breakdown's rows by value (the rows are not in step), a row
// written twice is found by the launches' counts: the first launch's
// (refused at its first line, once the last launch was called cut short)
// and a middle launch's (once read in silence).
func TestDetailsAllRowTwice(t *testing.T) {
	lines := strings.SplitAfter(string(golden.Gunzip(t, "../../fixtures/sol-check8/sol_triton8.details-all.csv.gz")), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	l0 := lineIndex(lines, 0, `"0","2957"`)
	l1 := lineIndex(lines, 0, `"1","2957"`)
	if l0 < 0 || l1 < 0 {
		t.Fatal("the page's launches not found")
	}
	for _, c := range []struct {
		name string
		in   []byte
		line int
		msg  string
	}{
		{"the first launch's row doubled", again(lines, l0+29, lines[l0+29]), l0 + 1, "launch 0 of swiglu_b64_w1 has 1902 metric rows where the launches after it have 1901"},
		{"the second launch's row doubled", again(lines, l1+700, lines[l1+700]), l1 + 1, "launch 1 of swiglu_b2048_w4 has 1902 metric rows where the launches before and after it have 1901"},
	} {
		_, err := Read(bytes.NewReader(c.in), "in.csv", Options{}, Sink{})
		wantRefused(t, c.name, err, c.line, c.msg)
	}
}
