package ingest

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// onePageSets are the fixture sets that hold several pages of one ncu
// report (one process, the same launches), the raw page first where there
// is one.
var onePageSets = [][]string{
	{"calib/calib.raw.csv.gz", "calib/calib.details.csv.gz", "calib/calib.source.cuda-sass.csv.gz"},
	{"check/check.raw.csv.gz", "check/check.details.csv.gz", "check/check.source.cuda-sass.csv.gz"},
	{"check/vit.full.raw.csv.gz", "check/vit.full.details.csv.gz"},
	{"check5/mbv2.full.raw.csv.gz", "check5/mbv2.full.details.csv.gz", "check5/mbv2.full.details-all.csv.gz"},
	{"check5/check.raw.csv.gz", "check5/check.details-all.csv.gz"},
	{"atomics/atomics.raw.csv.gz", "atomics/atomics.details.csv.gz"},
	{"pytorch2/cnn.full.raw.csv.gz", "pytorch2/cnn.full.details.csv.gz"},
	{"pytorch2/gpt.full.raw.csv.gz", "pytorch2/gpt.full.details.csv.gz"},
	{"pytorch2/tf.full.raw.csv.gz", "pytorch2/tf.full.details.csv.gz"},
	{"sweep/sweep.raw.csv.gz", "sweep/sweep.details.csv.gz", "sweep/sweep.source.cuda-sass.csv.gz"},
	{"ncu/copy.import.details.csv", "ncu/copy.source.cuda-sass.csv"},
	{"ncu/transpose.import.details.csv", "ncu/transpose.source.sass.csv"},
	{"ncu-h100/indirect.import.details.csv", "ncu-h100/indirect.source.cuda-sass.csv"},
	// Every page of one report as ncu's options print it: kernel names
	// demangled, mangled, as functions, renamed by NVTX; units as
	// printed or base; every metric instance.
	{"variants/variants.raw.csv.gz", "variants/variants.raw.units-base.csv.gz", "variants/variants.raw.instances-values.csv.gz",
		"variants/variants.details.csv.gz", "variants/variants.details.fp.csv.gz", "variants/variants.details.instances-details.csv.gz",
		"variants/variants.details.instances-values.csv.gz", "variants/variants.details.kernel-base-demangled.csv.gz",
		"variants/variants.details.kernel-base-function.csv.gz", "variants/variants.details.kernel-base-mangled.csv.gz",
		"variants/variants.details.metric-name-label-name.csv.gz", "variants/variants.details.metric-name-name.csv.gz",
		"variants/variants.details.nvtx-rename-kernel.csv.gz", "variants/variants.details.print-details-all.csv.gz",
		"variants/variants.details.units-auto.csv.gz", "variants/variants.details.units-base.csv.gz", "variants/variants.source.cuda-sass.csv.gz"},
}

// TestPagesOneCapture: the pages of one report given together are one
// capture: one run holding the launches of one page, each once, whose time
// is the first page's (the raw page's where there is one), with the
// counters of every page and the source attached.
func TestPagesOneCapture(t *testing.T) {
	sets := onePageSets
	if testing.Short() {
		sets = sets[:2] // the edit-test loop; CI reads every set
	}
	for _, set := range sets {
		t.Run(set[0], func(t *testing.T) {
			var paths []string
			for _, p := range set {
				paths = append(paths, filepath.Join("../../fixtures", p))
			}
			first, err := ReadFile(paths[0], Options{})
			if err != nil {
				t.Fatal(err)
			}
			launches, total := 0, 0.0
			for _, k := range first.Kernels {
				launches++
				total += k.Duration
			}
			n, got, sourced := 0, 0.0, 0
			runs, err := ReadFiles(paths, Options{}, func(run *profan.Run, k *profan.Kernel) error {
				n++
				got += k.Duration
				if len(k.Source) > 0 {
					sourced++
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != 1 {
				t.Errorf("%d runs, want 1", len(runs))
			}
			if n != launches || runs[0].Accounting.Launches != launches {
				t.Errorf("%d launches (accounting %d), want %d, those of one page", n, runs[0].Accounting.Launches, launches)
			}
			if math.Abs(got-total) > 1e-12 {
				t.Errorf("total time %.6g s, want %.6g s (the first page's)", got, total)
			}
			if strings.Contains(strings.Join(set, " "), ".source.") && sourced != launches {
				t.Errorf("%d of %d launches got their source", sourced, launches)
			}
			for _, p := range set {
				if !strings.Contains(runs[0].Source, filepath.Base(p)) && !strings.Contains(p, ".source.") {
					t.Errorf("run source %q does not name %s", runs[0].Source, p)
				}
			}
		})
	}
}

// TestPagesOneCaptureFigures pins the figures of the calibration capture:
// 126 launches and 53.145 ms, raw + details + source as the README says to
// export them, where the pages once read as 252 launches and 106.305 ms.
func TestPagesOneCaptureFigures(t *testing.T) {
	n, total := 0, 0.0
	runs, err := ReadFiles([]string{"../../fixtures/calib/calib.raw.csv.gz", "../../fixtures/calib/calib.details.csv.gz", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"}, Options{},
		func(run *profan.Run, k *profan.Kernel) error {
			n++
			total += k.Duration
			if _, ok := k.Metric("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"); !ok {
				t.Errorf("launch %s: no raw counter", k.ID)
			}
			if len(k.Findings) == 0 {
				t.Errorf("launch %s: no rule rows of the details page", k.ID)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || n != 126 || math.Abs(total-53.145e-3) > 0.0005e-3 {
		t.Errorf("%d runs, %d launches, %.4f ms; want 1, 126, 53.145 ms", len(runs), n, total*1e3)
	}
}

// TestPagesOtherCapture: a details and a raw page of one program taken in
// different processes (another run, another GPU) are refused, naming both
// pages and what differs: read as two runs, each launch would count twice.
func TestPagesOtherCapture(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		// H200 details, H100 raw.
		{"ncu/copy.metrics.details.csv", "ncu-h100/copy.metrics.raw.csv", "copy.metrics.raw.csv:6: this raw page and the details page ../../fixtures/ncu/copy.metrics.details.csv:6 begin with the same launch 0 of offsetCopy(float *, const float *, int), but from another capture (process ID 1239 here, 1065 there)"},
		{"ncu-h100/transpose.metrics.details.csv", "ncu/transpose.full.raw.csv", "another capture (process ID"},
		{"pytorch/train.full.details.csv.gz", "pytorch/train.full.raw.csv.gz", "another capture (process ID 1790 here, 8769 there)"},
		{"sweep/sweep.raw.csv.gz", "sweep/sweep.live.basic.details.csv.gz", "sweep.live.basic.details.csv.gz:6: this details page and the raw page"},
	} {
		t.Run(c.a, func(t *testing.T) {
			_, err := ReadFiles([]string{"../../fixtures/" + c.a, "../../fixtures/" + c.b}, Options{}, func(*profan.Run, *profan.Kernel) error { return nil })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
	// Two details pages of two runs of one program are two captures.
	runs, err := ReadFiles([]string{"../../fixtures/ncu/copy.metrics.details.csv", "../../fixtures/ncu-h100/copy.metrics.details.csv"}, Options{}, func(*profan.Run, *profan.Kernel) error { return nil })
	if err != nil || len(runs) != 2 {
		t.Errorf("two details pages of two runs: %d runs, %v; want 2", len(runs), err)
	}
}

// TestPagesDisagree: pages of one process that disagree on a launch, or
// where one page lacks the others' last launches, are refused at the
// launch's line, naming the other page and what differs.
func TestPagesDisagree(t *testing.T) {
	dir := t.TempDir()
	raw := readLines(t, "../../fixtures/atomics/atomics.raw.csv.gz")
	details := "../../fixtures/atomics/atomics.details.csv.gz"
	write := func(name string, lines []string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The raw page's rows: header, units row, then a launch per line.
	head := 0
	for head < len(raw) && !strings.HasPrefix(raw[head], `"ID",`) {
		head++
	}
	grid := append([]string{}, raw...)
	line := head + 2 + 3 // the fourth launch
	old := grid[line]
	i := strings.Index(old, `"(`)
	j := strings.Index(old[i+1:], `"(`) + i + 1 // the grid follows the block
	grid[line] = old[:j] + `"(7, 1, 1)"` + old[strings.Index(old[j+1:], `"`)+j+2:]
	last := len(raw) - 1
	for !strings.HasPrefix(raw[last], `"`) {
		last--
	}
	cut := raw[:last] // its last launch
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		{"grid", []string{write("grid.raw.csv", grid), details}, "grid.raw.csv:" + strconv.Itoa(line+1) + " on its grid ((16384, 1, 1) here, (7, 1, 1) there)"},
		{"cut", []string{write("cut.raw.csv", cut), details}, "has no counterpart in " + filepath.Join(dir, "cut.raw.csv") + ", which ends after 13 launches"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadFiles(c.files, Options{}, func(*profan.Run, *profan.Kernel) error { return nil })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// TestSourcePageOtherCapture: a source page carries no process, device or
// launch ID, only its functions in launch order; one that does not list
// the launches of the pages given, in their order, is refused at its line.
func TestSourcePageOtherCapture(t *testing.T) {
	dir := t.TempDir()
	// The copy program's details page without its last four launches.
	var fewer []string
	for _, l := range readLines(t, "../../fixtures/ncu/copy.import.details.csv") {
		if id, _, _ := strings.Cut(l, ","); id == `"5"` || id == `"6"` || id == `"7"` || id == `"8"` {
			continue
		}
		fewer = append(fewer, l)
	}
	short := filepath.Join(dir, "copy.details.csv")
	if err := os.WriteFile(short, []byte(strings.Join(fewer, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		files []string
		want  string
	}{
		// An H100 capture's source page beside an H200 capture's details
		// page: the source page's saxpy is its 42nd launch.
		{"position", []string{"../../fixtures/ncu/saxpy.details.csv", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"},
			"saxpy.details.csv:6: launch 0 of saxpy(int, float, const float *, float *) would get the source of launch 41 (../../fixtures/calib/calib.source.cuda-sass.csv.gz:10297, the 1st block of that function)"},
		// An H200 source page beside an H100 details page of another program.
		{"none", []string{"../../fixtures/ncu-h100/transpose.import.details.csv", "../../fixtures/ncu/copy.source.cuda-sass.csv"},
			"copy.source.cuda-sass.csv:1: this source page matches no launch of the other exports given"},
		{"fewer launches", []string{short, "../../fixtures/ncu/copy.source.cuda-sass.csv"},
			"this source block of strideCopy(float *, const float *, int) (launch 5 of the page) matches no launch of the other pages given, though 5 of the page's 9 blocks do"},
		// Two views of one source page: the second lists launches none of
		// the pages given has left.
		{"two views", []string{"../../fixtures/variants/variants.raw.csv.gz", "../../fixtures/variants/variants.source.cuda-sass.csv.gz", "../../fixtures/variants/variants.source.sass.csv.gz"},
			"variants.source.sass.csv.gz:1: this source page matches no launch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadFiles(c.files, Options{}, func(*profan.Run, *profan.Kernel) error { return nil })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}
