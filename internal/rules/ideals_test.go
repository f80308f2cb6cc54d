package rules_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// analyzed reads exports and returns every launch's analysis, with findings.
func analyzed(t *testing.T, files ...string) []*analysis.Kernel {
	t.Helper()
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	var out []*analysis.Kernel
	_, err = ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		out = append(out, analysis.Analyze(run, k, analysis.Options{Rules: eng}))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func findingsOf(a *analysis.Kernel, rule string) []profan.Finding {
	var out []profan.Finding
	for _, f := range a.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

var calibInputs = map[string][]string{
	"details+source": {"../../fixtures/calib/calib.details.csv.gz", "../../fixtures/calib/calib.source.cuda-sass.csv.gz"},
	"raw":            {"../../fixtures/calib/calib.raw.csv.gz"},
}

// calibCases are the single kernels of fixtures/calib with a known
// answer, by the start of their names, and the check of each.
var calibCases = []struct {
	prefix string
	check  func(t *testing.T, where string, a *analysis.Kernel)
}{
	// 64-bit words by 32 consecutive threads: 2 wavefronts per request
	// by construction.
	{"sharedDoubleLoop", noFinding("shared-bank-conflict")},
	{"oneThread", func(t *testing.T, where string, a *analysis.Kernel) {
		for _, x := range []*analysis.Access{a.Model.GlobalLoad, a.Model.GlobalStore} {
			if x != nil && x.Pattern.Kind == gpumodel.Broadcast {
				t.Errorf("%s: one thread read as a broadcast (%v)", where, x.Pattern.Reasons)
			}
		}
		noFinding("thread-divergence")(t, where, a)
	}},
	// a[row*n+k] is a broadcast: no coalescing finding.
	{"matmulNaive", noFinding("uncoalesced-global")},
	{"broadcastLoad", noFinding("uncoalesced-global")},
	// 9 sectors per request where 8 would do, DRAM-bound: a finding with
	// a small gain (measured 4%).
	{"void offsetCopyD<1>", func(t *testing.T, where string, a *analysis.Kernel) {
		fs := findingsOf(a, "uncoalesced-global")
		if len(fs) == 0 {
			t.Errorf("%s: no uncoalesced-global finding", where)
		}
		for _, f := range fs {
			if math.IsNaN(f.Gain) || f.Gain > 0.1 {
				t.Errorf("%s: gain %.2f, want a small one", where, f.Gain)
			}
		}
	}},
	// DRAM-bound: a 2-way conflict costs nothing measurable.
	{"void sharedStrideCopy<2>", noFinding("shared-bank-conflict")},
}

// noFinding checks that a kernel has no finding of rule.
func noFinding(rule string) func(t *testing.T, where string, a *analysis.Kernel) {
	return func(t *testing.T, where string, a *analysis.Kernel) {
		if fs := findingsOf(a, rule); len(fs) > 0 {
			t.Errorf("%s: %s (gain %.2f)", where, fs[0].Message, fs[0].Gain)
		}
	}
}

// TestCalibIdeals: the single kernels of fixtures/calib with a known
// answer, from the details and source pages and from the raw page alone.
// On every kernel, no global ideal is below one sector per request and no
// bank conflict is more than 32-way.
func TestCalibIdeals(t *testing.T) {
	skipShort(t)
	for name, files := range calibInputs {
		seen := map[string]bool{}
		for _, a := range analyzed(t, files...) {
			n := a.Record.DisplayName()
			where := name + " " + n
			m := a.Model
			for _, x := range []*analysis.Access{m.GlobalLoad, m.GlobalStore} {
				if x != nil && x.IdealSectorsPerRequest < 1 {
					t.Errorf("%s: ideal %.2f sectors per request, below one", where, x.IdealSectorsPerRequest)
				}
			}
			for _, x := range []*analysis.Access{m.SharedLoad, m.SharedStore} {
				if x != nil && x.Pattern.Ways > 32 {
					t.Errorf("%s: a %.0f-way bank conflict", where, x.Pattern.Ways)
				}
			}
			for _, c := range calibCases {
				if strings.HasPrefix(n, c.prefix) {
					seen[c.prefix] = true
					c.check(t, where, a)
				}
			}
		}
		for _, c := range calibCases {
			if !seen[c.prefix] {
				t.Errorf("%s: no kernel %s in the capture", name, c.prefix)
			}
		}
	}
}

// TestOldGPUs: the public nvprof samples of GPUs before Volta get no
// tensor-core advice; the 1080 Ti histogram's shared atomics are one
// contention finding, not a 644-way conflict counted twice; an export with
// gst_efficiency but no transactions per request still gets
// uncoalesced-global.
func TestOldGPUs(t *testing.T) {
	files, _ := filepath.Glob("../ingest/testdata/nvprof/*.csv")
	for _, f := range files {
		for _, a := range analyzed(t, f) {
			cc := a.Record.CC
			if cc == "" && a.Spec != nil {
				cc = a.Spec.CC
			}
			if major, _, err := gpumodel.ParseCC(cc); err != nil || major >= 7 {
				continue
			}
			for _, fd := range a.Findings {
				if strings.Contains(strings.ToLower(fd.Advice+fd.Message), "tensor core") {
					t.Errorf("%s %s (cc %s): %s advises tensor cores", filepath.Base(f), a.Record.DisplayName(), cc, fd.Rule)
				}
			}
		}
	}
	n := 0
	for _, a := range analyzed(t, "../ingest/testdata/nvprof/magus-gtx1080ti-histogram-levels-trailing-warning.csv") {
		if !strings.HasPrefix(a.Record.DisplayName(), "histogram256Kernel") {
			continue
		}
		for _, f := range findingsOf(a, "shared-bank-conflict") {
			n++
			if strings.Contains(f.Message, "644-way") {
				t.Errorf("histogram256Kernel: %s", f.Message)
			}
		}
		if n != 1 {
			t.Errorf("histogram256Kernel: %d shared findings, want the atomics once", n)
		}
	}
	found := false
	for _, a := range analyzed(t, "../ingest/testdata/nvprof/ieee2017-k20c-jacobi-unroll.csv") {
		if _, ok := a.Value("gst_transactions_per_request"); ok {
			continue
		}
		if v, ok := a.Value("gst_efficiency"); ok && v < 25 && len(findingsOf(a, "uncoalesced-global")) > 0 {
			found = true
		}
	}
	if !found {
		t.Error("K20c jacobi: gst_efficiency under 25% without transactions per request, no uncoalesced-global")
	}
}
