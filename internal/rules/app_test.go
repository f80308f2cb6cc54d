package rules_test

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/rules/rulestest"
)

// appCaptures are PyTorch steps of every kind the application rules read:
// training in FP32, TF32 and under autocast, channels_last or not,
// compiled, fused optimizers, inference, tiny launches.
var appCaptures = []string{
	"../../fixtures/pytorch2/pair.cnn.default.csv", "../../fixtures/pytorch2/pair.cnn.cl.csv",
	"../../fixtures/pytorch2/pair.tf.default.csv", "../../fixtures/pytorch2/pair.tf.fp32.csv", "../../fixtures/pytorch2/pair.tf.compile.csv",
	"../../fixtures/pytorch2/pair.tf.fused.csv", "../../fixtures/pytorch2/pair.gpt.default.csv", "../../fixtures/pytorch2/pair.mlp.default.csv",
	"../../fixtures/pytorch2/inv.tf.infer.csv", "../../fixtures/check/vit.pair.default.csv",
	"../../fixtures/check5/mbv2.pair.default.csv.gz", "../../fixtures/check6/resnet.pair.cl.csv.gz", "../../fixtures/check6/encoder.pair.default.csv.gz",
	"../../fixtures/check6/encoder.pair.fused.csv.gz",
	// PyTorch profiler traces: a decode loop bound by its launches with a
	// host sync per token, the same in CUDA graphs, pageable and pinned
	// host copies.
	"../../fixtures/timeline/decode_sync.json.gz", "../../fixtures/timeline/decode_graphs.json.gz",
	"../../fixtures/timeline/copy_pageable.json.gz", "../../fixtures/timeline/copy_pinned.json.gz",
	// Host-bound training steps: a main-process DataLoader, host reads of
	// routing counts and a per-step .item().
	"../../fixtures/host8/moe.default.json.gz", "../../fixtures/host8/vision.default.json.gz",
	// A training step that empties the allocator's cache every step.
	"../../fixtures/host19/s2s.default.json.gz",
	// A mixed-precision step whose weight EMA loops over the state dict
	// in Python, outside the optimizer.
	"../../fixtures/host20/amp.default.json.gz",
	// An image classifier whose augmentation loops over the batch's
	// images in Python, one at a time.
	"../../fixtures/host21/aug.default.json.gz",
	// Speculative decoding under bf16 autocast whose SDPA builds a
	// cuDNN plan for each new key length.
	"../../fixtures/host26/spec.bf16.json.gz",
	// A word2vec step drawing its negatives with torch.multinomial on a
	// CPU tensor inside its forward.
	"../../fixtures/host36/sgns.default.json.gz",
	// A CUDA program's nsys API trace: its syncs are host-sync's (no
	// PyTorch rule claims them).
	"../../internal/ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
}

// appEvidence reads one capture's application evidence.
func appEvidence(t *testing.T, file string) *analysis.AppEvidence {
	t.Helper()
	var ev *analysis.AppEvidence
	gr, err := rulestest.Grouper([]string{file})
	if err != nil {
		t.Fatal(err)
	}
	gr.Recommender = recommenderFunc(func(e *analysis.AppEvidence) analysis.Advice { ev = e; return analysis.Advice{} })
	gr.App()
	if ev == nil {
		t.Fatalf("%s: no evidence", file)
	}
	return ev
}

type recommenderFunc func(*analysis.AppEvidence) analysis.Advice

func (f recommenderFunc) Recommend(e *analysis.AppEvidence) analysis.Advice { return f(e) }

// TestAppReads: an application rule reads only the evidence sets and
// metrics its Requires and Optional declare, each declared name is one,
// and each rule speaks (advises, or finds its lever in use) on at least
// one real capture.
func TestAppReads(t *testing.T) {
	skipShort(t)
	read := map[string]map[string]bool{}
	spoke := map[string]bool{}
	for _, f := range appCaptures {
		ev := appEvidence(t, f)
		e, _ := rules.NewEngine("all")
		e.TraceAppReads(func(rule, set string) {
			if read[rule] == nil {
				read[rule] = map[string]bool{}
			}
			read[rule][set] = true
		})
		adv := e.Recommend(ev)
		for _, r := range adv.Recommendations {
			spoke[r.Rule] = true
		}
		for _, u := range adv.InUse {
			spoke[u.Rule] = true
		}
	}
	for _, r := range rules.All {
		if r.CheckApp == nil {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			checkDeclared(t, r, read[r.ID], func(n string) bool {
				_, set := analysis.AppEvidenceSets[n]
				_, metric := metrics.ByName(n)
				return set || metric
			})
			// No capture synchronises the device every step (the traces'
			// harnesses do once, after the loop): cuda-synchronize is
			// held by its table test alone.
			if !spoke[r.ID] && r.ID != "static-kv-cache" && r.ID != "sdpa" && r.ID != "cuda-synchronize" {
				t.Errorf("advised nothing and found nothing in use on %d captures", len(appCaptures))
			}
		})
	}
}

// TestAppWant holds the advice on real captures to expectation files
// (testdata/app/*.want): every recommendation and lever in use expected,
// every expectation met.
func TestAppWant(t *testing.T) {
	files, _ := filepath.Glob("testdata/app/*.want")
	if len(files) == 0 {
		t.Fatal("no expectation files")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { rulestest.RunApp(t, f) })
	}
}

// TestAppSelect: --checks and suppressions act on application rules as
// on kernel rules; a suppression with a kernel pattern silences a
// recommendation only when it matches every kernel it acts on.
func TestAppSelect(t *testing.T) {
	ev := appEvidence(t, "../../fixtures/check6/encoder.pair.default.csv.gz")
	rulesOf := func(e *rules.Engine) (ids, suppressed []string) {
		adv := e.Recommend(ev)
		for _, r := range adv.Recommendations {
			ids = append(ids, r.Rule)
		}
		for _, s := range adv.Suppressed {
			suppressed = append(suppressed, s.Rule+": "+s.Reason)
		}
		return ids, suppressed
	}
	all, _ := rules.NewEngine("all")
	ids, _ := rulesOf(all)
	if !slices.Contains(ids, "torch-compile") || !slices.Contains(ids, "bf16-autocast") {
		t.Fatalf("recommendations %v, want torch-compile and bf16-autocast", ids)
	}
	off, err := rules.NewEngine("all,-torch-compile")
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := rulesOf(off); slices.Contains(ids, "torch-compile") || len(ids) != len(rulesOfAll(t, all, ev))-1 {
		t.Errorf("--checks all,-torch-compile: %v", ids)
	}
	for _, tt := range []struct {
		sup  rules.Suppression
		gone bool
	}{
		{rules.Suppression{Rule: "torch-compile", Reason: "compiled in production"}, true},
		{rules.Suppression{Rule: "torch-*", Kernel: ".", Reason: "every kernel"}, true},
		{rules.Suppression{Rule: "torch-compile", Kernel: "^no such kernel$", Reason: "none"}, false},
	} {
		sel, err := rules.NewSelector("all", nil, []rules.Suppression{tt.sup})
		if err != nil {
			t.Fatal(err)
		}
		ids, sup := rulesOf(&rules.Engine{Sel: sel, Thresholds: rules.DefaultThresholds})
		if slices.Contains(ids, "torch-compile") == tt.gone || (len(sup) == 1) != tt.gone {
			t.Errorf("suppression %+v: recommendations %v, suppressed %v", tt.sup, ids, sup)
		}
	}
}

func rulesOfAll(t *testing.T, e *rules.Engine, ev *analysis.AppEvidence) []analysis.Recommendation {
	t.Helper()
	return e.Recommend(ev).Recommendations
}

// TestAppThresholds: the config's thresholds reach the application
// rules: a host launch cost under the kernels' mean time leaves a step
// of tiny kernels without CUDA-graphs advice.
func TestAppThresholds(t *testing.T) {
	ev := appEvidence(t, "../../fixtures/pytorch2/pair.mlp.default.csv")
	has := func(th rules.Thresholds) bool {
		sel, _ := rules.NewSelector("all", nil, nil)
		for _, r := range (&rules.Engine{Sel: sel, Thresholds: th}).Recommend(ev).Recommendations {
			if r.Rule == "cuda-graphs" {
				return true
			}
		}
		return false
	}
	th := rules.DefaultThresholds
	if !has(th) {
		t.Fatal("no cuda-graphs advice on the tiny MLP step with the default thresholds")
	}
	th.HostLaunch = 1e-7
	if has(th) {
		t.Error("cuda-graphs advised with a host launch cost of 0.1 µs")
	}
}

// TestAppInUseAndDirection: a lever whose precondition the trace shows
// applied is listed in use, not advised (cudnn.benchmark on in every
// convolution of host16's embed step, off in host9's copy loop), and
// pinned-memory's fix follows the copies' direction: a .cpu() of the
// features is told to copy into a pinned buffer and wait on an event,
// a batch copied to the GPU to pin it.
func TestAppInUseAndDirection(t *testing.T) {
	all, _ := rules.NewEngine("all")
	for _, c := range []struct {
		file, fix string
		bench     bool // cudnn-benchmark in use
	}{
		{"../../fixtures/host16/embed.default.json.gz", "buf.copy_(x, non_blocking=True), record a torch.cuda.Event", true},
		{"../../fixtures/host9/copy.default.json.gz", "DataLoader(pin_memory=True)", false},
	} {
		adv := all.Recommend(appEvidence(t, c.file))
		fix, advised := "", false
		for _, r := range adv.Recommendations {
			switch r.Rule {
			case "pinned-memory":
				fix = r.Fix
			case "cudnn-benchmark":
				advised = true
			}
		}
		inUse := slices.ContainsFunc(adv.InUse, func(u analysis.LeverInUse) bool { return u.Rule == "cudnn-benchmark" })
		if inUse != c.bench || advised == c.bench {
			t.Errorf("%s: cudnn-benchmark in use %v, advised %v; want in use %v", c.file, inUse, advised, c.bench)
		}
		if !strings.Contains(fix, c.fix) {
			t.Errorf("%s: pinned-memory's fix %q, want it to say %q", c.file, fix, c.fix)
		}
	}
}

// TestTF32FixByKind: tf32 names cuDNN's flag only where a convolution
// runs on the FMA pipe: on host8's vision step its FMA kernels are
// cuBLAS's (its convolutions run TF32, cuDNN's default), on host10's
// FP32 UNet both.
func TestTF32FixByKind(t *testing.T) {
	all, _ := rules.NewEngine("all")
	for _, c := range []struct {
		file  string
		cudnn bool
	}{
		{"../../fixtures/host8/vision.default.json.gz", false},
		{"../../fixtures/host10/unet4.fp32.json.gz", true},
	} {
		for _, r := range all.Recommend(appEvidence(t, c.file)).Recommendations {
			if r.Rule == "tf32" && (strings.Contains(r.Fix, "cudnn.allow_tf32") != c.cudnn || !strings.Contains(r.Fix, "matmul.allow_tf32")) {
				t.Errorf("%s: tf32's fix %q; cuDNN's flag wanted: %v", c.file, r.Fix, c.cudnn)
			}
		}
	}
}

// TestAppMarginal: a change replayed to under min_gain of the wall is
// listed as not worth making for itself, its figure kept (nsys's
// tensoriterator capture: CUDA graphs and the read under 0.1%, pinned
// memory 1.2%); a higher min_gain marks pinned memory too.
func TestAppMarginal(t *testing.T) {
	ev := appEvidence(t, "../../internal/ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	for _, c := range []struct {
		minGain float64
		want    map[string]bool // rule: marked
	}{
		{0.01, map[string]bool{"pinned-memory": false, "cuda-graphs": true, "step-read": true, "cuda-synchronize": true}},
		{0.05, map[string]bool{"pinned-memory": true, "cuda-graphs": true}},
	} {
		sel, _ := rules.NewSelector("all", nil, nil)
		th := rules.DefaultThresholds
		th.MinGain = c.minGain
		recs := (&rules.Engine{Sel: sel, Thresholds: th}).Recommend(ev).Recommendations
		for rule, marked := range c.want {
			i := slices.IndexFunc(recs, func(r analysis.Recommendation) bool { return r.Rule == rule })
			if i < 0 {
				t.Errorf("min_gain %g: no %s advice", c.minGain, rule)
				continue
			}
			if got := strings.Contains(recs[i].Basis, "not worth making for itself"); got != marked {
				t.Errorf("min_gain %g: %s (wall gain %.4f) marked %v, want %v: %s", c.minGain, rule, recs[i].WallGain, got, marked, recs[i].Basis)
			}
		}
	}
}

// TestGraphsFixPaddedSplit: on a step split by syncs whose shapes change
// (host25's mol steps: a radius graph's atoms and edges per batch),
// cuda-graphs' fix leads up to the padded capture as one text: the
// regions' capture, then the padding and the whole step's capture (it
// once read "…bucket the shapes first)capture each region…").
func TestGraphsFixPaddedSplit(t *testing.T) {
	all, _ := rules.NewEngine("all")
	for _, file := range []string{"../../fixtures/host25/mol.default.json.gz", "../../fixtures/host25/mol.workers.json.gz"} {
		fix := ""
		for _, r := range all.Recommend(appEvidence(t, file)).Recommendations {
			if r.Rule == "cuda-graphs" {
				fix = r.Fix
			}
		}
		if !strings.HasPrefix(fix, "capture each region between the syncs") || !strings.Contains(fix, "(see step-read) and pad the inputs to one fixed length") ||
			strings.Count(fix, "capture the step in a CUDA graph") != 1 || regexp.MustCompile(`\)[a-z]`).MatchString(fix) {
			t.Errorf("%s: cuda-graphs' fix %q", file, fix)
		}
	}
}
