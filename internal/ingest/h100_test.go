package ingest

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestH100Captures reads the H100 subset (fixtures/ncu-h100): every export
// parses, into as many launches as its program makes, and the metrics
// pages name the GPU.
func TestH100Captures(t *testing.T) {
	launches := map[string]int{"copy": 9, "indirect": 4, "transpose": 5, "matmul": 3, "misc": 4, "saxpy": 1}
	files, _ := filepath.Glob("../../fixtures/ncu-h100/*.csv")
	if len(files) < 15 {
		t.Fatalf("found %d H100 captures", len(files))
	}
	for _, f := range files {
		run, err := ReadFile(f, Options{})
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		prog := strings.SplitN(filepath.Base(f), ".", 2)[0]
		if got := len(run.Kernels); got != launches[prog] {
			t.Errorf("%s: %d kernels, want %d", f, got, launches[prog])
		}
		if strings.HasSuffix(f, ".metrics.details.csv") && run.Kernels[0].Device != "NVIDIA H100 80GB HBM3" {
			t.Errorf("%s: device %q, want NVIDIA H100 80GB HBM3", f, run.Kernels[0].Device)
		}
	}
}
