package ingest

import (
	"bytes"
	"errors"
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
