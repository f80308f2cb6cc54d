package ingest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// TestPrintVariants reads every export of fixtures/variants: one ncu report
// of fixtures/gen/inline.cu (6 kernels, 3 repetitions: 18 launches) printed
// with every --print-* option, plus a live capture with program output and
// banners. Every per-launch page gives 18 launches of 6 kernels; the
// summaries give one aggregate per kernel standing for its 3 launches.
func TestPrintVariants(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/variants/*.csv.gz")
	if len(files) < 22 {
		t.Fatalf("only %d variant files", len(files))
	}
	for _, path := range files {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			run, err := ReadFile(path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]int{}
			for _, k := range run.Kernels {
				names[k.Name] += max(k.Invocations, 1)
			}
			wantNames := 6
			if strings.Contains(base, "kernel-base-function") {
				// The function base drops template arguments: scaleClamp<float>
				// and scaleClamp<double> print alike.
				wantNames = 5
			}
			if len(names) != wantNames {
				t.Errorf("%d kernel names, want %d: %v", len(names), wantNames, names)
			}
			if run.Accounting.Launches != 18 {
				t.Errorf("%d launches, want 18 (%s)", run.Accounting.Launches, run.Accounting)
			}
			if strings.Contains(base, "summary") {
				if len(run.Kernels) != 6 {
					t.Errorf("%d aggregates, want 6", len(run.Kernels))
				}
				for _, k := range run.Kernels {
					if k.Invocations != 3 {
						t.Errorf("%s: %d invocations, want 3", k.Name, k.Invocations)
					}
				}
				return
			}
			if len(run.Kernels) != 18 {
				t.Errorf("%d kernel records, want 18", len(run.Kernels))
			}
			for _, k := range run.Kernels {
				if strings.Contains(base, "source") {
					continue
				}
				if k.Registers == 0 || !(k.Duration > 0) {
					t.Errorf("%s id %s: registers %d, duration %g: launch fields lost", k.Name, k.ID, k.Registers, k.Duration)
				}
			}
		})
	}
}

// TestSourcePagesInlinedHeaders pins the cuda,sass source page of kernels
// that inline header code (__shfl_down_sync, cooperative groups, CUB): one
// launch per function over its several file blocks, and with a raw or
// details page every launch gets its source, header files included.
func TestSourcePagesInlinedHeaders(t *testing.T) {
	src := "../../fixtures/variants/variants.source.cuda-sass.csv.gz"
	for _, page := range []string{"variants.raw.csv.gz", "variants.details.csv.gz", "variants.details.kernel-base-function.csv.gz", "variants.details.kernel-base-mangled.csv.gz"} {
		var ks []*profan.Kernel
		runs, err := ReadFiles([]string{"../../fixtures/variants/" + page, src}, Options{}, func(_ *profan.Run, k *profan.Kernel) error {
			ks = append(ks, k)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(ks) != 18 || len(runs) != 1 {
			t.Fatalf("%s: %d kernels in %d runs, want 18 in 1 (the source page attached, not analysed alone)", page, len(ks), len(runs))
		}
		for _, m := range runs[0].Messages {
			if strings.HasPrefix(m.Text, "source page: ") {
				t.Errorf("%s: %s", page, m.Text)
			}
		}
		for _, k := range ks {
			files := map[string]bool{}
			for _, s := range k.Source {
				files[filepath.Base(s.File)] = true
			}
			if !files["inline.cu"] {
				t.Errorf("%s: %s id %s: no source from inline.cu (%v)", page, k.Name, k.ID, files)
			}
			if strings.Contains(k.Name, "warpReduceShfl") && !files["inline_util.cuh"] {
				t.Errorf("%s: %s id %s: the inlined header's lines are missing (%v)", page, k.Name, k.ID, files)
			}
		}
	}
}

// TestSourceMismatchRefused: a source page holding fewer launches than the
// details page attaches by name and order up to the first launch it has no
// block for, which is refused at its line, rather than attached by
// position or left without a word.
func TestSourceMismatchRefused(t *testing.T) {
	src, err := ReadFile("../../fixtures/variants/variants.source.cuda-sass.csv.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	src.Kernels = src.Kernels[:6] // the first repetition only
	sp := NewSourcePages()
	sp.Add(src)
	details, err := ReadFile("../../fixtures/variants/variants.details.csv.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range details.Kernels {
		err := sp.AttachRun(details, k)
		if i < 6 && (err != nil || len(k.Source) == 0) {
			t.Errorf("launch %s: source attached %v, %v", k.ID, len(k.Source) > 0, err)
		}
		if i == 6 {
			if err == nil || !strings.Contains(err.Error(), "launch 6 of") || !strings.Contains(err.Error(), "has no block on the source page") {
				t.Errorf("launch 6: %v, want it refused", err)
			}
			break
		}
	}
}

// TestPrintDetailsUnknownSubTable: a sub-table of --print-details all that
// profan has no rule for by name (an NVLink topology, on a machine with
// NVLink) is skipped as a sub-table of the details page: a header-shaped
// line narrower than the page, followed by rows as wide as it.
func TestPrintDetailsUnknownSubTable(t *testing.T) {
	path := "../../fixtures/variants/variants.details.print-details-all.csv.gz"
	lines := readLines(t, path)
	sub := []string{"    The system has NVLink connections.\n", "\n", `"Link Name","Peer Device","Link State"` + "\n", `"NVLink 0","GPU 1","Up"` + "\n", `"NVLink 1","GPU 1","Up"` + "\n"}
	mut := append(append(append([]string{}, lines[:1700]...), sub...), lines[1700:]...)
	run, err := Read(strings.NewReader(strings.Join(mut, "")), path, Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Accounting.Launches != 18 {
		t.Errorf("%d launches, want 18", run.Accounting.Launches)
	}
	for _, s := range run.Accounting.Skipped {
		if s.Rule == skipSubTable && s.Lines != 36+3 {
			t.Errorf("%d sub-table lines skipped, want 39", s.Lines)
		}
	}
}
