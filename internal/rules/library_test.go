package rules_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/rules"
)

// sourceAdvice is advice only a kernel's author can follow.
var sourceAdvice = regexp.MustCompile(`(?i)more blocks|blocks and warps|__launch_bounds__|maxrregcount|registers per thread|grid-stride|block size|__shared__|stage a tile|loop unrolling|consecutive threads|padding|warp-uniform|__ldg`)

// aboutSource reports whether advice is sourceAdvice, each text matched
// once: a trace's launches repeat the same texts over and over, and the
// case-blind match backtracks (20 of the 47 s of CPU of
// TestNoSourceAdviceOnTraceLibraries in a profile).
func aboutSource(advice string) bool {
	if v, ok := sourceAdviceSeen.Load(advice); ok {
		return v.(bool)
	}
	m := sourceAdvice.MatchString(advice)
	sourceAdviceSeen.Store(advice, m)
	return m
}

var sourceAdviceSeen sync.Map // advice text → aboutSource

// analyzeAll gives each the verdict on every launch of files, each file
// read alone. The verdicts are made as analyze makes them (a Stream): a
// trace's launches equal to an earlier one but for their ID and start
// share its verdict (analysis.Memo), where Analyze per launch spent 41 %
// of TestNoSourceAdviceOnTraceLibraries' CPU in a profile.
func analyzeAll(t *testing.T, files []string, each func(a *analysis.Kernel)) {
	t.Helper()
	analyzeEach(t, files, nil, each)
}

// analyzeLibraries is analyzeAll for a test that reads only library
// kernels' verdicts: a launch whose name is no library's is not analysed
// (the analysis can make a library's name a user's, from its source
// lines, never a user's a library's: kernelname's WithSourceLines). Most
// of the fixtures' launches are the speed-of-light sets' own kernels;
// their analysis was half of TestNoSourceAdviceOnLibraries' CPU.
func analyzeLibraries(t *testing.T, files []string, each func(a *analysis.Kernel)) {
	t.Helper()
	// Each name classified once: a trace launches few kernels many
	// times, and Classify's family table costs microseconds a byte of
	// name (uncached, it took TestNoSourceAdviceOnTraceLibraries from 54
	// to 380 s of CPU).
	lib := map[string]bool{}
	analyzeEach(t, files, func(k *profan.Kernel) bool {
		name := k.DisplayName()
		is, ok := lib[name]
		if !ok {
			is = kernelname.Classify(name).IsLibrary()
			lib[name] = is
		}
		return is
	}, each)
}

// analyzeEach is analyzeAll of the launches match keeps (nil: every one).
func analyzeEach(t *testing.T, files []string, match func(*profan.Kernel) bool, each func(a *analysis.Kernel)) {
	t.Helper()
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		vs := analysis.NewStream(analysis.Options{Rules: eng}, false)
		vs.SkipJoins()
		_, err := ingest.ReadFiles([]string{f}, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
			if match != nil && !match(k) {
				return nil
			}
			each(vs.Kernel(run, k))
			return nil
		})
		if err != nil {
			t.Logf("%s: %v", f, err) // bad samples are ingest's to test
		}
	}
}

// TestLibraryAdvice: on the PyTorch training step, library kernels get only
// advice their caller can act on, and every FP32 GEMM carries
// tensor-cores-unused.
func TestLibraryAdvice(t *testing.T) {
	gemms, flagged := 0, 0
	analyzeAll(t, []string{"../../fixtures/pytorch/train.full.details.csv.gz"}, func(a *analysis.Kernel) {
		if !a.Name.IsLibrary() {
			t.Errorf("kernel %s %.60q: not recognised as a library kernel", a.Record.ID, a.Record.Name)
			return
		}
		tc := false
		for _, f := range a.Findings {
			if aboutSource(f.Advice) {
				t.Errorf("kernel %s %s: %s advice about the library's source: %q", a.Record.ID, a.Name.Display, f.Rule, f.Advice)
			}
			// An element-wise or reduction kernel's uncoalesced accesses
			// come from strided views its caller made, and its advice
			// says so (checked above).
			if f.Rule == "low-occupancy" || f.Rule == "shared-bank-conflict" || (f.Rule == "uncoalesced-global" && a.Name.Kind != kernelname.Reduction && a.Name.Kind != kernelname.Elementwise) {
				t.Errorf("kernel %s %s: %s on a library kernel", a.Record.ID, a.Name.Display, f.Rule)
			}
			tc = tc || f.Rule == "tensor-cores-unused"
		}
		if a.Name.FP32SIMT {
			gemms++
			if tc {
				flagged++
			}
		} else if tc {
			t.Errorf("kernel %s %s: tensor-cores-unused on a kernel that is no FP32 GEMM", a.Record.ID, a.Name.Display)
		}
	})
	if gemms != 17 || flagged != gemms {
		t.Errorf("FP32 GEMM launches: %d, with tensor-cores-unused %d; want 17 and 17", gemms, flagged)
	}
}

// TestTensorCoresUnusedSilentOnPublicSamples: the public samples run on
// Kepler to Volta; none has TF32 tensor cores.
func TestTensorCoresUnusedSilentOnPublicSamples(t *testing.T) {
	var files []string
	for _, dir := range []string{"nvprof", "ncu", "nsys"} {
		fs, _ := filepath.Glob(filepath.Join("../ingest/testdata", dir, "*.csv"))
		files = append(files, fs...)
	}
	if len(files) < 30 {
		t.Fatalf("only %d public samples found", len(files))
	}
	analyzeAll(t, files, func(a *analysis.Kernel) {
		for _, f := range a.Findings {
			if f.Rule == "tensor-cores-unused" {
				cc := a.Record.CC
				if cc == "" && a.Spec != nil {
					cc = a.Spec.CC
				}
				if cc < "8.0" {
					t.Errorf("%s kernel %s (cc %s): %s", a.Run.Source, a.Record.ID, cc, f.Message)
				}
			}
		}
	})
}

// TestNoSourceAdviceOnLibraries: on every fixture, no kernel of a library
// (cuDNN, cuBLAS, CUTLASS, ATen, Triton, NCCL, ...) is told to change its
// source or launch: the rules that find fault with a kernel's code stay
// silent, and a strided-view warning points at no source line.
func TestNoSourceAdviceOnLibraries(t *testing.T) {
	skipShort(t)
	var files []string
	for _, pat := range []string{"../../fixtures/*/*.csv", "../../fixtures/*/*.csv.gz"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return heldOutUnread(filepath.Base(filepath.Dir(f))) })
	libs := 0
	analyzeLibraries(t, files, func(a *analysis.Kernel) {
		if !a.Name.IsLibrary() {
			return
		}
		libs++
		for _, f := range a.Findings {
			r, _ := rules.ByID(f.Rule)
			switch {
			case r.Scope == rules.Source && r.Library == nil:
				t.Errorf("%s kernel %s (%s): %s", a.Run.Source, a.Record.ID, a.Name.Library, f.Rule)
			case r.Scope == rules.Algorithm:
				// The caller's lever is the choice of kernel, never its code.
				if len(f.Locations) > 0 || !strings.Contains(f.Advice, "not your code") {
					t.Errorf("%s kernel %s (%s): %s with advice on its code: %s", a.Run.Source, a.Record.ID, a.Name.Library, f.Rule, f.Advice)
				}
			case r.Scope == rules.Source && (len(f.Locations) > 0 || r.Locates && a.Name.Category == kernelname.CatCast):
				t.Errorf("%s kernel %s (%s %s): %s with source advice", a.Run.Source, a.Record.ID, a.Name.Library, a.Name.Category, f.Rule)
			}
		}
	})
	if libs < 100 {
		t.Errorf("only %d library kernels in the fixtures", libs)
	}
}

// TestNoBenchmarkAdviceWhereOn: a convolution's findings do not ask for
// cudnn.benchmark where the trace records it on (fixtures/host16's
// embed step: small-grid on its convolutions says the layout and the
// batch, and that benchmark is on).
func TestNoBenchmarkAdviceWhereOn(t *testing.T) {
	for _, c := range []struct {
		file string
		asks bool
	}{
		{"../../fixtures/host16/embed.default.json.gz", false},
	} {
		asks, convs := false, 0
		analyzeAll(t, []string{c.file}, func(a *analysis.Kernel) {
			if a.Name.Kind != kernelname.Convolution {
				return
			}
			for _, f := range a.Findings {
				convs++
				asks = asks || strings.Contains(f.Advice, "cudnn.benchmark = True")
			}
		})
		if convs == 0 || asks != c.asks {
			t.Errorf("%s: %d convolution findings, asking for cudnn.benchmark %v; want %v", c.file, convs, asks, c.asks)
		}
	}
}

// host29Read says whether fixtures/host29 has had its one read (the
// lead's); internal/analysis' host29Read is the same switch.
const host29Read = true

// host30Read says whether fixtures/host30 has had its one read (the
// lead's); internal/analysis' host30Read is the same switch.
const host30Read = true

// host31Read says whether fixtures/host31 has had its one read (the
// lead's); internal/analysis' host31Read is the same switch, and
// heldOutRead holds it.
const host31Read = true

// host32Read says whether fixtures/host32 has had its one read (the
// lead's); internal/analysis' host32Read is the same switch, and
// heldOutRead holds it.
const host32Read = true

// host33Read says whether fixtures/host33 has had its one read (the
// lead's); internal/analysis' host33Read is the same switch, and
// heldOutRead holds it.
const host33Read = true

// host34Read says whether fixtures/host34 has had its one read (the
// lead's); internal/analysis' host34Read is the same switch, and
// heldOutRead holds it.
const host34Read = true

// host35Read says whether fixtures/host35 has had its one read (the
// lead's); internal/analysis' host35Read is the same switch, and
// heldOutRead holds it.
const host35Read = true

// host36Read says whether fixtures/host36 has had its one read (the
// lead's); internal/analysis' host36Read is the same switch, and
// heldOutRead holds it.
const host36Read = true

// host37Read says whether fixtures/host37 has had its one read (the
// lead's); internal/analysis' host37Read is the same switch, and
// heldOutRead holds it.
const host37Read = true

// host38Read says whether fixtures/host38 has had its one read (the
// lead's); internal/analysis' host38Read is the same switch, and
// heldOutRead holds it.
const host38Read = true

// host39Read says whether fixtures/host39 has had its one read (the
// lead's); internal/analysis' host39Read is the same switch, and
// heldOutRead holds it.
const host39Read = true

// host40Read says whether fixtures/host40 has had its one read (the
// lead's); internal/analysis' host40Read is the same switch, and
// heldOutRead holds it.
const host40Read = true

// TestNoSourceAdviceOnTraceLibraries: on every trace fixture
// (torch.profiler), no library kernel is told to change its source or
// launch, torchvision's among them: the one block of its NMS
// (fixtures/host18 det.default's vision::gather_keep_from_mask, told to
// "launch at least 264 blocks" before torchvision was read as a library)
// gets what the caller of nms can change.
func TestNoSourceAdviceOnTraceLibraries(t *testing.T) {
	skipShort(t)
	var files []string
	all, _ := filepath.Glob("../../fixtures/*/*.json.gz")
	for _, f := range all {
		// fixtures/host29 is held out: no test reads its traces before
		// its one read (host29Read).
		if !host29Read && filepath.Base(filepath.Dir(f)) == "host29" {
			continue
		}
		// fixtures/host30 likewise, until host30Read.
		if !host30Read && filepath.Base(filepath.Dir(f)) == "host30" {
			continue
		}
		// Every held-out set of heldOutRead likewise (fixtures/host31
		// until host31Read, fixtures/host32 until host32Read,
		// fixtures/host33 until host33Read, fixtures/host34 until
		// host34Read, fixtures/host35 until host35Read, fixtures/host36
		// until host36Read, fixtures/host37 until host37Read,
		// fixtures/host38 until host38Read, fixtures/host39 until
		// host39Read, fixtures/host40 until host40Read).
		if heldOutUnread(filepath.Base(filepath.Dir(f))) {
			continue
		}
		files = append(files, f)
	}
	nms := 0
	analyzeLibraries(t, files, func(a *analysis.Kernel) {
		if !a.Name.IsLibrary() {
			return
		}
		for _, f := range a.Findings {
			if aboutSource(f.Advice) {
				t.Errorf("%s kernel %s %s: %s advice about the library's source: %q", a.Run.Source, a.Record.ID, a.Name.Display, f.Rule, f.Advice)
			}
			if a.Name.Family == kernelname.FamVisionNMS && f.Rule == "small-grid" {
				nms++
				if !strings.Contains(f.Advice, "torchvision's NMS") || !strings.Contains(f.Advice, "fewer boxes") {
					t.Errorf("%s: %s: small-grid advice %q, want torchvision's NMS and its boxes", a.Run.Source, a.Name.Display, f.Advice)
				}
			}
		}
	})
	if nms == 0 {
		t.Error("no small-grid finding on torchvision's NMS (fixtures/host18 det.default)")
	}
}
