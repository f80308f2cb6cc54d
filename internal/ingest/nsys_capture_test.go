package ingest

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
)

// splitTraces writes the API trace and the GPU trace of the real export
// of both (testdata/nsys/name-…-cudaapitrace-gputrace.csv.gz) to files of
// their own, as nsys stats --output does: the export split at its GPU
// trace's header. The API trace is cut to its first apiLines lines when
// apiLines > 0. both is a file of the GPU trace and then the API trace.
func splitTraces(t *testing.T, name string, apiLines int) (api, gpu, both string) {
	t.Helper()
	b := golden.Gunzip(t, "testdata/nsys/"+name+"-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	i := strings.Index(string(b), "\nStart (ns),Duration (ns),CorrId,")
	if i < 0 {
		t.Fatalf("%s: no GPU trace header", name)
	}
	a, g := b[:i+1], b[i+1:]
	if apiLines > 0 {
		lines := strings.SplitAfter(string(a), "\n")
		a = []byte(strings.Join(lines[:apiLines], ""))
	}
	dir := t.TempDir()
	for _, f := range []struct {
		path *string
		b    []byte
	}{{&api, a}, {&gpu, g}, {&both, append(append([]byte{}, g...), a...)}} {
		*f.path = filepath.Join(dir, fmt.Sprintf("%s-%d.csv", name, len(f.b)))
		if err := os.WriteFile(*f.path, f.b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return api, gpu, both
}

func readKernels(files []string) ([]*profan.Run, []*profan.Kernel, error) {
	var ks []*profan.Kernel
	runs, err := ReadFiles(files, Options{}, func(_ *profan.Run, k *profan.Kernel) error {
		ks = append(ks, k)
		return nil
	})
	return runs, ks, err
}

// TestNsysTracesApart: an API trace and a GPU trace of one report given
// as files of their own are one run, whatever their order, their kernels
// joined to their launch calls, as they are in one export of the GPU trace
// and then the API trace; the kernels of a GPU trace start at most
// 1 ms (launchSlack) before their launch call returns. Traces of two
// reports are refused at the first kernel without its launch call; an API
// trace cut short leaves the later kernels unjoined, said in a note.
func TestNsysTracesApart(t *testing.T) {
	api, gpu, both := splitTraces(t, "cufcm-rtx2080ti", 0)
	for _, files := range [][]string{{api, gpu}, {gpu, api}} {
		runs, ks, err := readKernels(files)
		if err != nil {
			t.Fatal(err)
		}
		early, joined := 0.0, 0
		for _, k := range ks {
			if !math.IsNaN(k.Launched) {
				joined++
				early = math.Max(early, k.Launched-k.Start)
			}
		}
		if len(runs) != 1 || joined != 7701 || len(ks) != 7701 || runs[0].Host == nil || len(runs[0].Activities) != 806 {
			t.Fatalf("%v: %d runs, %d of %d kernels joined; want one run, 7701 of 7701 joined, 806 copies and memsets", files, len(runs), joined, len(ks))
		}
		t.Logf("kernels start up to %.1f µs before their launch call returns", early*1e6)
	}
	// One export of the GPU trace, then the API trace.
	runs, ks, err := readKernels([]string{both})
	if err != nil || len(runs) != 1 || len(ks) != 7701 || runs[0].Format != "nsys-gputrace+nsys-api-trace" {
		t.Fatalf("the GPU trace before the API trace: %v, %d kernels", err, len(ks))
	}
	for _, k := range ks {
		if math.IsNaN(k.Launched) {
			t.Fatalf("the GPU trace before the API trace: kernel %s at line %d not joined", k.ID, k.Line)
		}
	}
	_, other, _ := splitTraces(t, "tensoriterator-rtx3090", 0)
	_, _, err = readKernels([]string{api, other})
	var se *syntaxError
	if !errors.As(err, &se) || se.File != other || se.Line != 7 || !strings.Contains(se.Msg, "different captures") {
		t.Errorf("traces of two reports: %v, want a refusal at %s:7, its first kernel", err, other)
	}
	cut, _, _ := splitTraces(t, "cufcm-rtx2080ti", 5000)
	runs, ks, err = readKernels([]string{gpu, cut})
	if err != nil || len(runs) != 1 || len(ks) != 7701 {
		t.Fatalf("an API trace cut short: %v, %d kernels", err, len(ks))
	}
	noted := false
	for _, m := range runs[0].Messages {
		noted = noted || strings.Contains(m.Text, "the API trace ends early")
	}
	if !noted {
		t.Errorf("an API trace cut short: no note in %+v", runs[0].Messages)
	}
}
