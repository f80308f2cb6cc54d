package cli

import (
	"path/filepath"
	"regexp"
	"testing"
)

// pytorchAPI matches a PyTorch API or lever named in advice: none may
// appear on a capture with no PyTorch in it (a CUDA sample is not told to
// use a DataLoader).
var pytorchAPI = regexp.MustCompile(`torch\.|autocast|DataLoader|pin_memory|foreach|channels_last|\.item\(\)|\.contiguous\(\)|non_blocking|zero_grad|scaled_dot_product_attention|bucket_cap_mb`)

// TestNoPyTorchLeverWithoutPyTorch runs analyze on every capture of a
// program with no PyTorch in it (ncu's CUDA samples, nvprof, nsys) in
// text and JSON and finds no PyTorch API named; a kernel a Python process
// launched keeps PyTorch's terms.
func TestNoPyTorchLeverWithoutPyTorch(t *testing.T) {
	t.Parallel()
	var inputs [][]string
	for _, g := range []string{
		"../../fixtures/ncu/*.details.csv",
		"../../fixtures/atomics/*.csv.gz",
		"../../fixtures/calib/*.details.csv.gz",
		"../../fixtures/classes/*.details.csv.gz",
		"../../internal/ingest/testdata/nvprof/*.csv",
		"../../internal/ingest/testdata/nsys/cufcm-*.csv*",
		"../../internal/ingest/testdata/ncu/gardenia-a100-cc80-details-*.csv",
		"../../internal/ingest/testdata/ncu/clima-*.csv",
		"../../internal/ingest/testdata/ncu/gpucachesim-*.csv",
		"../../internal/ingest/testdata/ncu/roofline-b200-*.csv",
		"../../internal/ingest/testdata/ncu/xplacer-*.csv",
	} {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no fixture (%v)", g, err)
		}
		for _, f := range files {
			inputs = append(inputs, []string{f})
		}
	}
	// An nvprof metrics export joined to the trace of the same program.
	nv := "../../internal/ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-"
	inputs = append(inputs, []string{nv + "metrics.csv", nv + "trace.csv"})
	for _, in := range inputs {
		for _, format := range []string{"text", "json"} {
			out, errOut, code := run(t, append([]string{"analyze", "--format", format}, in...)...)
			if code == ExitError {
				continue // not an export analyze reads (an error page): no advice
			}
			if m := pytorchAPI.FindAllString(out+errOut, -1); len(m) > 0 {
				t.Errorf("analyze --format %s %v: names PyTorch's %q on a capture with no PyTorch", format, in, m)
			}
		}
	}
	// A cuBLAS kernel that ncu saw a Python process launch keeps
	// PyTorch's terms (torch.bmm).
	gemv := "../../internal/ingest/testdata/ncu/llmperfopt-cc120-details-rules-cublasgemv.csv"
	if out, _, _ := run(t, "analyze", gemv); !pytorchAPI.MatchString(out) {
		t.Errorf("analyze %s: a python3.12 process's kernel lost PyTorch's terms:\n%s", gemv, out)
	}
}
