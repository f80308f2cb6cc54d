package analysis_test

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/rules/rulestest"
	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/verdict"
)

var updateAppCalibration = flag.Bool("update-calibration-apps", false, "rewrite docs/calibration-apps.md")

const appDir = "../../fixtures/pytorch2/"

// allRules runs every rule with the default thresholds.
var allRules, _ = rules.NewEngine("")

// appOf reads one capture and reads it by cause.
func appOf(t *testing.T, file string) (*analysis.App, float64) {
	t.Helper()
	run, err := ingest.ReadFile(appDir+file, ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gr := analysis.NewGrouper(false)
	gr.Recommender = allRules
	for _, k := range run.Kernels {
		gr.Add(analysis.Analyze(run, k, analysis.Options{}))
	}
	return gr.App(), gr.Total()
}

// fileOf names a pair's capture: the pairs, else the inventory.
func fileOf(variant string) string {
	if v, ok := strings.CutPrefix(variant, "vit."); ok {
		return "../check/vit.pair." + v + ".csv"
	}
	if v, ok := strings.CutPrefix(variant, "mbv2."); ok {
		return "../check5/mbv2.pair." + v + ".csv.gz"
	}
	// The fourth set (fixtures/check7): the ViT-B/16 as "vitb".
	for _, m := range []string{"train", "decode", "vitb"} {
		if v, ok := strings.CutPrefix(variant, m+"."); ok {
			return "../check7/" + strings.TrimSuffix(m, "b") + ".pair." + v + ".csv.gz"
		}
	}
	for _, m := range []string{"resnet", "encoder"} {
		if v, ok := strings.CutPrefix(variant, m+"."); ok {
			return "../check6/" + m + ".pair." + v + ".csv.gz"
		}
	}
	if _, err := os.Stat(appDir + "pair." + variant + ".csv"); err == nil {
		return "pair." + variant + ".csv"
	}
	return "inv." + variant + ".csv"
}

// wallTimes reads the pairs' wall-clock step times (models.py --time).
func wallTimes(t *testing.T) map[string]float64 {
	f, err := os.Open(appDir + "time.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r struct {
			Model, Variant string
			MS             float64 `json:"ms_per_step"`
		}
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Model != "" {
			out[r.Model+"."+r.Variant] = r.MS
		}
	}
	return out
}

// TestAppCalibration holds each recommendation's estimated gain against
// the gain measured on before/after pairs of real PyTorch steps (one step
// per process, kernel time under ncu), and keeps the table in
// docs/calibration-apps.md. "fit" pairs set a factor; "check" pairs were
// not used to set it: their error is the held-out error.
func TestAppCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("calibration: go test -run Calibration without -short, as before every landing and in CI")
	}
	wall := wallTimes(t)
	// The fourth set's unprofiled medians, by "model.variant" as the
	// pairs name them.
	wall7 := map[string]float64{}
	for _, g := range []string{"train", "infer", "compile1", "compile2"} {
		for k, ms := range wallTimesTSV(t, "../../fixtures/check7/timings7-"+g+".tsv") {
			model, variant, _ := strings.Cut(k, ".")
			if model == "vit" {
				model = "vitb"
			}
			wall7[model+"."+variant] = ms
		}
	}
	pairs := []struct {
		before, after, rule, role string
		tol                       float64 // largest |estimated − measured|, share of the step
	}{
		// The two factors left: channels_last's share of the conversion
		// and NCHW batch-norm time, and bf16's batch-norm penalty.
		{"cnn.default", "cnn.cl", "channels-last", "fit", 0.02},
		{"cnn.cl", "cnn.bf16+cl", "bf16-autocast", "fit", 0.02},
		// Priced from a mechanism (bytes, rates, launch order), no factor
		// fitted: on the captures the mechanisms were written against.
		{"tf.default", "tf.fused", "fused-optimizer", "mechanism", 0.02},
		{"cnn.default", "cnn.fused", "fused-optimizer", "mechanism", 0.01},
		{"tf.default", "tf.compile", "torch-compile", "mechanism", 0.10},
		{"gpt.default", "gpt.compile", "torch-compile", "mechanism", 0.01},
		{"tf.fp32", "tf.default", "bf16-autocast", "mechanism", 0.10},
		{"mlp.default", "mlp.graph", "cuda-graphs", "mechanism", 0.01},
		{"vit.default", "vit.fused", "fused-optimizer", "mechanism", 0.01},
		{"vit.default", "vit.compile", "torch-compile", "mechanism", 0.07},
		{"vit.default", "vit.bf16", "bf16-autocast", "mechanism", 0.05},
		// Held out when captured (fixtures/check5, check6), seen while the
		// mechanisms above were written: "+" composes two recommendations;
		// "none" is a second capture of the same step (the run-to-run
		// noise).
		{"mbv2.default", "mbv2.default2", "none", "seen", 0.01},
		{"mbv2.default", "mbv2.cl", "channels-last", "seen", 0.14},
		{"mbv2.default", "mbv2.fused", "fused-optimizer", "seen", 0.01},
		{"mbv2.default", "mbv2.cl+fused", "channels-last+fused-optimizer", "seen", 0.14},
		{"mbv2.default", "mbv2.compile", "torch-compile", "seen", 0.11},
		{"mbv2.default", "mbv2.bf16", "bf16-autocast", "seen", 0.11},
		{"resnet.default", "resnet.default2", "none", "seen", 0.01},
		{"resnet.default", "resnet.cl", "channels-last", "seen", 0.05},
		{"resnet.default", "resnet.fused", "fused-optimizer", "seen", 0.01},
		{"resnet.default", "resnet.bf16", "bf16-autocast", "seen", 0.05},
		{"resnet.default", "resnet.compile", "torch-compile", "seen", 0.12},
		{"encoder.default", "encoder.default2", "none", "seen", 0.01},
		{"encoder.default", "encoder.fused", "fused-optimizer", "seen", 0.01},
		{"encoder.default", "encoder.bf16", "bf16-autocast", "seen", 0.15},
		{"encoder.default", "encoder.compile", "torch-compile", "seen", 0.03},
		// The fourth set (fixtures/check7), captured after every rule
		// above was written: a Llama-style FP32 training step and its
		// batch-1 decode token; each estimate must be within 5 points.
		// Two rules were revised on them: torch-compile no longer keeps
		// half of a training step's forward chains (train), and
		// bf16-weights halves a product's time beyond its kernel's
		// shortest launch, not the capture's (decode). "!rule": not
		// advised, its estimate 0.
		{"train.default", "train.default2", "none", "revised", 0.01},
		{"train.default", "train.tf32", "tf32", "revised", 0.05},
		{"train.default", "train.bf16", "bf16-autocast", "revised", 0.05},
		{"train.default", "train.compile", "torch-compile", "revised", 0.05},
		{"train.default", "train.sdpa", "sdpa", "revised", 0.05},
		{"train.default", "train.fused", "fused-optimizer", "revised", 0.05},
		{"decode.default", "decode.default2", "none", "revised", 0.01},
		{"decode.default", "decode.compile", "torch-compile", "revised", 0.05},
		{"decode.default", "decode.bf16w", "bf16-weights", "revised", 0.05},
		{"decode.default", "decode.static", "!static-kv-cache", "revised", 0.05},
		{"decode.default", "decode.graphs", "cuda-graphs", "revised", 0.05},
		// Held out of every change: a ViT-B/16 at inference (FP32).
		{"vitb.default", "vitb.default2", "none", "held-out", 0.01},
		{"vitb.default", "vitb.bf16w", "bf16-weights", "held-out", 0.05},
		{"vitb.default", "vitb.tf32", "tf32", "held-out", 0.05},
		{"vitb.default", "vitb.compile", "torch-compile", "held-out", 0.05},
		{"vitb.default", "vitb.sdpa", "sdpa", "held-out", 0.05},
	}
	errs := map[string][]float64{}
	// The README's table quotes these held-out rows.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	inReadme := map[string]bool{"train.tf32": true, "train.bf16": true, "train.compile": true, "train.sdpa": true, "train.fused": true,
		"decode.compile": true, "decode.bf16w": true, "vitb.bf16w": true, "vitb.tf32": true, "vitb.compile": true, "vitb.sdpa": true}
	var b strings.Builder
	b.WriteString(`# Calibration of the application recommendations

Generated by ` + "`go test ./internal/analysis -run TestAppCalibration -update-calibration-apps`" + `; the test fails when
the table and the code disagree.

Each row is a before/after pair of one PyTorch 2.11 step on an H100 (` + "`fixtures/pytorch2/pair.*.csv`" + `,
` + "`fixtures/check*/`" + `; one process per variant, ` + "`gpu__time_duration`" + ` of every kernel of the step under ncu).
*Estimated* is the application rule's gain read from the "before" capture alone, as a share of its kernel
time; *measured* is 1 − after/before of the summed kernel time. *fit* rows set one of the two factors left
(channels_last's share of the conversion and NCHW batch-norm time, bf16's batch-norm penalty); *mechanism*
rows are rules priced without a fitted factor (a pipe's rate from the GPU table, the bytes a fused
optimizer or a fused chain no longer moves, launch order), on the captures they were written against;
*seen* rows were held out when captured (` + "`fixtures/check5`" + `, ` + "`fixtures/check6`" + `) and seen while the
mechanisms were written. *Wall clock* is the same pair timed without a profiler (` + "`models.py --time`" + `,
CUDA events): small models are bound by launching kernels, which kernel time does not show.

| before → after | rule | role | estimated | measured | error | wall clock before → after |
| --- | --- | --- | ---: | ---: | ---: | --- |
`)
	for _, p := range pairs {
		t.Run(p.before, func(t *testing.T) {
			app, before := appOf(t, fileOf(p.before))
			_, after := appOf(t, fileOf(p.after))
			measured := 1 - after/before
			est := 0.0
			if rule, ok := strings.CutPrefix(p.rule, "!"); ok {
				for _, r := range app.Recommendations {
					if r.Rule == rule {
						t.Errorf("%s: %s advised (%.1f%%), measured %.1f%%", p.before, rule, 100*r.Gain, 100*measured)
					}
				}
			} else if p.rule != "none" {
				var gains []float64
				for _, rule := range strings.Split(p.rule, "+") {
					g := math.NaN()
					for _, r := range app.Recommendations {
						if r.Rule == rule {
							g = r.Gain
						}
					}
					gains = append(gains, g)
				}
				est = combinedGain(gains...)
				if slices.ContainsFunc(gains, math.IsNaN) {
					t.Errorf("%s: no %s recommendation", p.before, p.rule)
					return
				}
			}
			errs[p.role] = append(errs[p.role], est-measured)
			if cell := fmt.Sprintf("| %.1f%% | %.1f%% |", 100*est, 100*measured); inReadme[p.after] && !strings.Contains(string(readme), cell) {
				t.Errorf("README.md's PyTorch table lacks %s → %s: %s", p.before, p.after, cell)
			}
			if d := est - measured; math.Abs(d) > p.tol {
				t.Errorf("%s → %s: %s estimated %.1f%%, measured %.1f%% (tolerance %.0f points)", p.before, p.after, p.rule, 100*est, 100*measured, 100*p.tol)
			}
			w := "–"
			if wb, wa := wall[p.before], wall[p.after]; wb > 0 && wa > 0 || wall7[p.before] > 0 && wall7[p.after] > 0 {
				if wb == 0 {
					wb, wa = wall7[p.before], wall7[p.after]
				}
				w = fmt.Sprintf("%.2f → %.2f ms (%+.0f%%)", wb, wa, 100*(wa/wb-1))
			}
			fmt.Fprintf(&b, "| %s → %s | %s | %s | %.1f%% | %.1f%% | %+.1f | %s |\n", p.before, p.after, p.rule, p.role, 100*est, 100*measured, 100*(est-measured), w)
		})
	}
	b.WriteString("\n")
	for _, role := range []string{"fit", "mechanism", "seen", "revised", "held-out"} {
		e := errs[role]
		mean, worst := 0.0, 0.0
		for _, d := range e {
			mean += math.Abs(d) / float64(len(e))
			worst = math.Max(worst, math.Abs(d))
		}
		fmt.Fprintf(&b, "- %s: %d pairs, mean |estimated − measured| %.1f points, worst %.1f\n", role, len(e), 100*mean, 100*worst)
	}
	b.WriteString(`
The rules (` + "`internal/rules/app_*.go`" + `, ` + "`profan explain <rule>`" + `): tf32 prices each FP32 GEMM at the TF32 tensor-core
rate of the GPU table (65% of it reached, bounded by the kernel's DRAM traffic); bf16-autocast at the bf16 rate
with half the bytes, and TF32 kernels at the TF32 over the bf16 rate, less half of cuDNN's batch-norm time (under
bf16 autocast PyTorch runs batch norm on its own kernels; fp16 keeps cuDNN's: 207 µs of cuDNN NHWC batch norm
against 310 µs of PyTorch's on the small CNN); bf16-weights halves the bytes of the memory-bound products of an
inference step; fused-optimizer saves the tensor passes the fused kernel no longer makes (AdamW 13 of 20, Adam 11 of 18,
SGD with momentum 3 of 8); torch-compile reads launch order: each chain of two or more eager launches between
GEMMs, fused, costs about its longest launch (in a training step half of the forward chains' saving stays:
their activations are still written for the backward pass), and cuDNN's NCHW batch norm saves what
channels_last saves of it; channels-last saves 65% of the conversions' and NCHW batch norm's time; sdpa the
scale, mask and softmax launches around a softmax; static-kv-cache the torch.cat copies beyond the shortest.
CUDA graphs change no kernel time: they are priced in wall time (the host's launch time over the kernels').
The capture's combined gain composes the changes per kernel group (a change that replaces another, bf16 over
TF32, counts once).

The fourth set (` + "`fixtures/check7`" + `, ` + "`levers7.py`" + `, captured after the rules were written) is a Llama-style
decoder written in plain PyTorch (RMSNorm, rotary embeddings, hand-written causal attention, SwiGLU, FP32,
no TF32): one training step with foreach AdamW, one decode token at batch 1 after a 512-token prompt with a
torch.cat cache, and a ViT-B/16 at inference. Two rules were revised on the first two: torch-compile kept
half of a training step's forward chains (estimated 9.3%, measured 14.9%: inductor recomputes pointwise
chains in the backward pass rather than keep their intermediates), and bf16-weights took a product's
latency to be the capture's shortest launch (estimated 8.6%, measured -0.2%: a GEMV's latency is its own
shortest launch). The ViT-B was held out of every change: its four changes land within 4.3 points, ranked
as measured (bf16 weights, TF32, torch.compile, SDPA). On every check7 step each change measured above 3%
of the kernel time is advised within 5 points, in the measured order; the precision change leads the
FP32 steps bound by their GEMMs; the decode token's first recommendation is CUDA graphs, priced in wall
time; the static cache, which made the token 2.4% slower in kernel time, is not advised.

Among the earlier pairs, torch.compile is over-estimated on the small transformer step under bf16
autocast (9 points) and the small ViT (7) and under-estimated on the CNNs (10 to 12 points: inductor also
replaces cuDNN's NCHW batch norm, which the rule prices at the channels_last factor, and picks NHWC
convolutions); bf16 autocast was under-estimated on the FP32 transformers (9 to 15 points), which run
` + "`scaled_dot_product_attention`" + ` as PyTorch's memory-efficient FP32 kernels (` + "`fmha_cutlass*_f32`" + `, 3xTF32 on tensor
cores, which TF32 leaves as they are) and in bf16 as cuDNN's flash kernels at the bf16 rate: priced so since
(the rates' 1/6 of their time, on a grid of more than one wave), tf.fp32 72.5% → 79.4% (81.2% measured) and
encoder 57.3% → 67.0% (72.0%); the small ViT's single-wave attention kernels are left as they are (49.0%,
45.2% measured).
`)
	wallCalibration(t, &b)
	syncCalibration(t, &b)
	hostCalibration(t, &b)
	const doc = "../../docs/calibration-apps.md"
	if *updateAppCalibration {
		if err := os.WriteFile(doc, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(doc)
	if err != nil || string(got) != b.String() {
		t.Errorf("%s is out of date (go test ./internal/analysis -run TestAppCalibration -update-calibration-apps):\n%s", doc, b.String())
	}
}

// TestAppCaptures reads the new one-step captures by cause: the
// categories' shares add up to the kernels' time, the first
// recommendations are the levers a PyTorch engineer names first, and a
// capture filtered to an NVTX range says it holds no backward pass.
func TestAppCaptures(t *testing.T) {
	for _, tt := range []struct {
		file  string
		first []string // leading recommendations, in order
		scope string   // a scope note's beginning, "" for none
	}{
		{"cnn.full.details.csv.gz", []string{"channels-last", "torch-compile", "tf32", "fused-optimizer"}, ""},
		// Measured: the fused optimizer 14.8%, torch.compile 7.3%, in
		// that order once the optimizer's per-parameter runs of one
		// kernel are not priced as fused chains (they were: 16.3%).
		{"tf.full.details.csv.gz", []string{"fused-optimizer", "torch-compile"}, ""},
		{"gpt.full.details.csv.gz", []string{"torch-compile"}, ""},
		// Inference of a tiny MLP, bound by its launches: what gives the
		// wall clock back first (0.36 → 0.08 ms measured).
		{"pair.mlp.default.csv", []string{"cuda-graphs", "larger-batch", "bf16-weights"}, ""},
		{"inv.tf.nvtx-step.csv", []string{"fused-optimizer"}, "the capture holds optimizer kernels but no backward kernel"},
		// Held out: the MobileNetV2-style CNN, its default step and its
		// --set full pages, cut short by -c 250 and a timeout; bf16 ranks
		// last: its batch norm leaves cuDNN (measured 12% slower).
		{"../check5/mbv2.pair.default.csv.gz", []string{"torch-compile", "channels-last", "tf32", "fused-optimizer"}, ""},
		{"../check5/mbv2.full.raw.csv.gz", []string{"torch-compile", "channels-last"}, "the capture holds backward kernels but no optimizer kernel"},
		// Held out again (fixtures/check6), in the order of the measured
		// gains.
		{"../check6/resnet.pair.default.csv.gz", []string{"channels-last", "torch-compile", "bf16-autocast", "fused-optimizer"}, ""},
		{"../check6/encoder.pair.default.csv.gz", []string{"bf16-autocast", "tf32", "torch-compile", "fused-optimizer"}, ""},
		// The fourth set (fixtures/check7), in the order of the measured
		// gains; the decode token is bound by its launches: CUDA graphs
		// first, priced in wall time (78% measured).
		{"../check7/train.pair.default.csv.gz", []string{"bf16-autocast", "tf32", "torch-compile", "sdpa", "fused-optimizer"}, ""},
		{"../check7/decode.pair.default.csv.gz", []string{"cuda-graphs"}, ""},
		{"../check7/vit.pair.default.csv.gz", []string{"bf16-weights", "tf32", "torch-compile", "sdpa"}, ""},
	} {
		t.Run(tt.file, func(t *testing.T) {
			app, total := appOf(t, tt.file)
			sum, launches := 0.0, 0
			for _, c := range app.Categories {
				sum += c.Share
				launches += c.Launches
				d := 0.0
				for _, g := range c.Groups {
					d += g.Duration
					if g.Info.Category != c.Category {
						t.Errorf("group %s (%s) listed under %s", g.Name, g.Info.Category, c.Category)
					}
				}
				if math.Abs(d-c.Duration) > 1e-12 || math.Abs(c.Share-d/total) > 1e-9 {
					t.Errorf("%s: %.3g s, share %.4f; its groups take %.3g s of %.3g", c.Category, c.Duration, c.Share, d, total)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("category shares add up to %.6f", sum)
			}
			var got []string
			for _, r := range app.Recommendations {
				got = append(got, r.Rule)
			}
			if len(got) < len(tt.first) || strings.Join(got[:len(tt.first)], " ") != strings.Join(tt.first, " ") {
				t.Errorf("recommendations %v, want %v first", got, tt.first)
			}
			for i := 1; i < len(app.Recommendations); i++ {
				if a, b := app.Recommendations[i-1], app.Recommendations[i]; b.Rank > a.Rank || b.Rank == a.Rank && b.Gain > a.Gain {
					t.Errorf("recommendations not ranked by gain: %v", got)
				}
			}
			// The combined gain composes the changes per kernel group:
			// changes on disjoint groups add up; on a shared group they
			// compose as 1 − Π(1 − f), so the sum bounds it above and the
			// largest single gain below (a change's cost, a negative saving,
			// applies to what the others leave of its groups, so the bound
			// above counts it back). A change that would slow the step is
			// left out.
			sumGain, sumGross, maxGain, shared := 0.0, 0.0, 0.0, false
			seen := map[*analysis.Group]bool{}
			for _, r := range app.Recommendations {
				if r.Gain <= 0 {
					continue
				}
				sumGain += r.Gain
				sumGross += r.Gain + r.Cost
				maxGain = math.Max(maxGain, r.Gain)
				for _, g := range r.Groups {
					shared = shared || seen[g]
					seen[g] = true
				}
			}
			switch {
			case !shared && math.Abs(app.Gain-sumGain) > 1e-9:
				t.Errorf("combined gain %.4f, want the sum %.4f of changes on disjoint groups", app.Gain, sumGain)
			case shared && (app.Gain > sumGross+1e-9 || app.Gain < maxGain-1e-9):
				t.Errorf("combined gain %.4f outside [%.4f, %.4f]", app.Gain, maxGain, sumGross)
			}
			has := false
			for _, n := range app.Scope {
				has = has || tt.scope != "" && strings.HasPrefix(n, tt.scope)
			}
			if (tt.scope != "") != has || tt.scope == "" && len(app.Scope) > 0 {
				t.Errorf("scope notes %q, want %q", app.Scope, tt.scope)
			}
		})
	}
}

// combinedGain composes gains as 1 − Π(1 − g); NaN gains are skipped.
func combinedGain(gains ...float64) float64 {
	keep := 1.0
	for _, g := range gains {
		if !math.IsNaN(g) {
			keep *= 1 - g
		}
	}
	return 1 - keep
}

// TestScopeProcesses: kernels of several processes or GPUs are said up
// front, with what the shares are of.
func TestScopeProcesses(t *testing.T) {
	run, err := ingest.ReadFile(appDir+"inv.tf.fp16.csv", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gr := analysis.NewGrouper(false)
	for _, k := range run.Kernels {
		gr.Add(analysis.Analyze(run, k, analysis.Options{}))
	}
	for _, tt := range []struct {
		procs, devices int
		want           string
	}{{1, 1, ""}, {3, 1, "the kernels come from 3 processes"}, {1, 2, "the kernels ran on 2 GPUs"}} {
		app := analysis.Summarize(gr.Groups(), gr.Total(), tt.procs, tt.devices, allRules)
		got := strings.Join(app.Scope, "; ")
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("%d processes, %d GPUs: scope %q, want %q", tt.procs, tt.devices, got, tt.want)
		}
	}
}

// wallTimesTSV reads a timings TSV of unprofiled steps (variant, repeats,
// median_ms, ...): the median step time per variant, ms (the last row of a
// variant timed in several processes).
func wallTimesTSV(t *testing.T, path string) map[string]float64 {
	out := map[string]float64{}
	for k, ms := range processMedians(t, path) {
		out[k] = ms[len(ms)-1]
	}
	return out
}

// processMedians reads a timings TSV: per variant, the median step time of
// each process that timed it, in file order, ms.
func processMedians(t *testing.T, path string) map[string][]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]float64{}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 || len(f) < 3 {
			continue
		}
		// timeline7.py writes variant, repeats, median; levers7.py
		// model, variant, repeats, median.
		key, col := f[0], 2
		if len(f) > 3 && f[1] != "" && (f[1][0] < '0' || f[1][0] > '9') {
			key, col = f[0]+"."+f[1], 3
		}
		var ms float64
		if _, err := fmt.Sscan(f[col], &ms); err == nil {
			out[key] = append(out[key], ms)
		}
	}
	return out
}

// wallCalibration holds the recommendations priced in wall time against
// the wall time measured without a profiler: PyTorch profiler traces of
// the "before" step (fixtures/timeline), the medians of 30 unprofiled
// steps of both.
func wallCalibration(t *testing.T, b *strings.Builder) {
	wall := map[string]float64{}
	for _, f := range []string{"timings7.tsv", "timings7-timeline2.tsv"} {
		for k, ms := range wallTimesTSV(t, "../../fixtures/timeline/"+f) {
			wall["timeline/"+k] = ms
		}
	}
	for k, ms := range wallTimesTSV(t, "../../fixtures/check7/timings7-infer.tsv") {
		wall["check7/"+k] = ms
	}
	b.WriteString(`
## Wall time

Recommendations priced in wall time, read from a PyTorch profiler trace of the "before" step
(` + "`fixtures/timeline`" + `, ` + "`timeline7.py`" + `: a Llama-style decoder's batch-1 decode of 16 tokens, and host copies
through an MLP, a small training step with a host sync and as one CUDA graph; ` + "`fixtures/check7`" + `: the
decode token after a 512-token prompt), or from its ncu
capture alone (*ncu*: the host's launch time estimated from the launch count), against
1 − after/before of the median wall time of 30 unprofiled steps of each (` + "`timings7*.tsv`" + `). *First* says
whether the rule is the first recommendation of the "before" step. A step whose GPU is busy 90% of its
span or more gets no CUDA-graphs advice (copy_pinned: 95%; train_xl: 97%; check7's training step: 96%).

| before → after | rule | first | estimated | measured | error | GPU busy before |
| --- | --- | --- | ---: | ---: | ---: | ---: |
`)
	read := map[string]*analysis.Grouper{}
	appOf := func(file string) (*analysis.App, *analysis.Timeline) {
		gr := read[file]
		if gr == nil {
			gr = fixtureGrouper(t, file)
			read[file] = gr
		}
		return gr.App(), gr.Timeline
	}
	for _, p := range []struct {
		file, before, after, rule string
		first                     bool
		tol                       float64
	}{
		// Graphs need a static cache: the static step is their "before".
		{"timeline/decode_static.json.gz", "timeline/decode_static", "timeline/decode_graphs", "cuda-graphs", true, 0.15},
		{"timeline/decode_sync.json.gz", "timeline/decode_sync", "timeline/decode_graphs", "cuda-graphs", true, 0.15},
		// The per-token .item() is step-read's (host-sync prices only
		// the syncs no rule of their own claims).
		{"timeline/decode_sync.json.gz", "timeline/decode_sync", "timeline/decode_nosync", "step-read", false, 0.15},
		// The same pair captured again (the wall time's noise).
		{"timeline/decode_sync2.json.gz", "timeline/decode_sync2", "timeline/decode_nosync2", "step-read", false, 0.15},
		{"timeline/copy_pageable.json.gz", "timeline/copy_pageable", "timeline/copy_pinned", "pinned-memory", true, 0.15},
		{"timeline/copy_pinned.json.gz", "timeline/copy_pinned", "timeline/copy_stream", "copy-overlap", false, 0.15},
		// A small training step with a host sync, and the whole step as
		// one CUDA graph (timed in the same call).
		{"timeline/train_small_sync.json.gz", "timeline/train_small_sync", "timeline/train_small_graphs", "cuda-graphs", true, 0.15},
		{"check7/decode.default.json.gz", "check7/decode.default", "check7/decode.graphs", "cuda-graphs", true, 0.15},
		{"check7/decode.pair.default.csv.gz", "check7/decode.default", "check7/decode.graphs", "cuda-graphs", true, 0.15},
	} {
		app, tl := appOf(p.file)
		est, first := wallGain(app, p.rule)
		measured := 1 - wall[p.after]/wall[p.before]
		if math.IsNaN(est) || math.Abs(est-measured) > p.tol || first != p.first {
			t.Errorf("%s → %s: %s estimated %.1f%% of the wall time (first: %v), measured %.1f%% (tolerance %.0f points, first %v)",
				p.before, p.after, p.rule, 100*est, first, 100*measured, 100*p.tol, p.first)
		}
		busy, name := "ncu", p.before
		if tl != nil {
			busy = fmt.Sprintf("%.0f%%", 100*tl.BusyShare)
		} else {
			name += " (ncu)"
		}
		fmt.Fprintf(b, "| %s → %s | %s | %v | %.1f%% | %.1f%% | %+.1f | %s |\n", name, p.after, p.rule, first, 100*est, 100*measured, 100*(est-measured), busy)
	}
	// A GPU-bound step gets no CUDA-graphs advice.
	for _, f := range []string{"timeline/copy_pinned.json.gz", "timeline/train_xl.json.gz", "check7/train.default.json.gz"} {
		app, _ := appOf(f)
		for _, r := range app.Recommendations {
			if r.Rule == "cuda-graphs" {
				t.Errorf("%s (GPU-bound) is advised CUDA graphs: %s", f, r.Message)
			}
		}
	}
}

// syncCalibration holds the recommendation that prices the sync of the
// training and decode steps (fixtures/timeline3) against its removal timed over many
// processes: the launch-bound training step's median moves 21–36 ms from
// one process to the next, the decode step's 66–105 ms,
// far more than one sync costs, so one pair of processes measures the
// process, not the sync. The measured gain is 1 − after/before of the
// medians of the per-process medians.
func syncCalibration(t *testing.T, b *strings.Builder) {
	procs := map[string][]float64{}
	for _, f := range []string{"r1", "r2", "alt", "altdecode"} {
		for k, ms := range processMedians(t, "../../fixtures/timeline3/"+f+"/timings.tsv") {
			procs[k] = append(procs[k], ms...)
		}
	}
	b.WriteString(`
## Removing a host sync, over many processes

The small and large training steps of ` + "`timeline7.py`" + ` with a bad-batch check (` + "`torch.isfinite(loss).item()`" + `
between forward and backward) and without it, timed in the same session on an H100 (` + "`fixtures/timeline3`" + `: two
rounds, r1 and r2, and for the small step 8 more alternating pairs of processes, ` + "`alt`" + `); the decode step with
its per-token ` + "`.item()`" + ` and with the check deferred, in 8 alternating pairs of processes on an H200
(` + "`altdecode`" + `: the step is bound by the host, whose launches the card does not change). *Estimated* is the
recommendation that prices the sync (` + "`step-read`" + ` for these ` + "`.item()`" + `; ` + "`host-sync`" + ` only for a sync no rule of its own claims) read from the trace of the step with the sync (the decode's from ` + "`fixtures/timeline`" + `,
H100); *measured* is 1 − after/before of the median over processes of each process's median of 30 steps;
*spread* is the range of those process medians.

| trace | estimated | processes | measured | error | spread with sync | spread without |
| --- | ---: | ---: | ---: | ---: | --- | --- |
`)
	spread := func(ms []float64) string {
		return fmt.Sprintf("%.1f–%.1f ms", slices.Min(ms), slices.Max(ms))
	}
	for _, p := range []struct{ file, before, after string }{
		{"timeline3/r1/train_small_sync.json.gz", "train_small_sync", "train_small"},
		{"timeline3/r2/train_small_sync.json.gz", "train_small_sync", "train_small"},
		{"timeline3/r1/train_large_sync.json.gz", "train_large_sync", "train_large"},
		{"timeline3/r2/train_large_sync.json.gz", "train_large_sync", "train_large"},
		{"timeline/decode_sync.json.gz", "decode_sync", "decode_nosync"},
		{"timeline/decode_sync2.json.gz", "decode_sync", "decode_nosync"},
	} {
		file := p.file
		est := syncGain(fixtureGrouper(t, file).App())
		if math.IsNaN(est) {
			// Not advised: a sync under 1% of the step is no lever.
			est = 0
		}
		before, after := procs[p.before], procs[p.after]
		measured := 1 - stats.Median(after)/stats.Median(before)
		if math.IsNaN(est) || math.Abs(est-measured) > 0.15 {
			t.Errorf("%s: the sync estimated %.1f%% of the wall time, measured %.1f%% over %d processes (tolerance 15 points)",
				file, 100*est, 100*measured, len(before))
		}
		fmt.Fprintf(b, "| %s | %.1f%% | %d + %d | %.1f%% | %+.1f | %s | %s |\n", file, 100*est, len(before), len(after),
			100*measured, 100*(est-measured), spread(before), spread(after))
	}
}

// syncGain is the wall-time gain of the recommendation that prices the
// step's host sync: host-sync, or the rule of its own that claims it; NaN
// when none is advised.
func syncGain(app *analysis.App) float64 {
	for _, id := range []string{"host-sync", "step-read", "host-read", "cuda-synchronize"} {
		if g, _ := wallGain(app, id); !math.IsNaN(g) {
			return g
		}
	}
	return math.NaN()
}

// fixtureGrouper reads a capture under fixtures/ with every rule.
func fixtureGrouper(t *testing.T, file string) *analysis.Grouper {
	t.Helper()
	gr, err := rulestest.Grouper([]string{"../../fixtures/" + file})
	if err != nil {
		t.Fatal(err)
	}
	gr.Recommender = allRules
	return gr
}

// wallGain is the wall-time gain the named recommendation of app
// estimates (NaN when it has none) and whether it comes first.
func wallGain(app *analysis.App, rule string) (gain float64, first bool) {
	gain = math.NaN()
	for i, r := range app.Recommendations {
		if r.Rule == rule {
			gain, first = r.WallGain, i == 0
		}
	}
	return gain, first
}

// sessionKeyed are the fixtures/ directories that time earlier
// sessions' steps again: their variants are keyed by their session
// (host13/unet.tf32).
var sessionKeyed = map[string]bool{"host13": true, "host14": true, "host15b": true, "host16b": true, "host17b": true, "host18b": true, "host19b": true, "host19c": true, "host20b": true, "host20c": true, "host21b": true, "host22b": true, "host22c": true, "host22d": true, "host23b": true, "host24c": true, "host24b": true, "host25c": true, "host25b": true, "host26d": true, "host26c": true, "host26b": true, "host26e": true, "host27b": true, "host27c": true, "host28b": true, "host29b": true, "host30b": true, "host31b": true, "host32b": true, "host33b": true}

// hostCalibration holds the levers priced by replaying the step
// (docs/replay.md) against fixtures/host8 and host9: each variant timed
// unprofiled in three (five) alternating processes; measured is 1 −
// after/before of the medians of the process medians, spread the larger
// relative range of the two. Each estimate must land within max(0.10,
// spread) of measured, and on the held-out vision and copy families the
// first recommendation is the lever measured first.
func hostCalibration(t *testing.T, b *strings.Builder) {
	procs := map[string][]float64{}
	for _, file := range []string{"host8/timings.tsv", "host9/timings.tsv", "host10/timings.tsv", "host12/timings.tsv", "host13/timings.tsv", "host14/timings.tsv", "host15/timings.tsv",
		"host15b/timings.tsv", "host15b/timings1t.tsv", "host15b/timings-compile.tsv", "host16/timings.tsv", "host16b/timings.tsv", "host17/timings.tsv", "host17b/timings.tsv",
		"host18/timings.tsv", "host18b/timings.tsv", "host19/timings.tsv", "host19b/timings.tsv", "host19c/timings.tsv", "host20/timings.tsv", "host20b/timings.tsv", "host20c/timings.tsv",
		"host21/timings.tsv", "host21b/timings.tsv", "host22/timings.tsv", "host22b/timings.tsv", "host22c/timings.tsv",
		"host22d/timings.tsv", "host23/timings.tsv", "host23b/timings.tsv", "host24c/timings.tsv", "host24/timings.tsv", "host24b/timings.tsv", "host25c/timings.tsv", "host25/timings.tsv", "host25b/timings.tsv", "host26d/timings.tsv", "host26c/timings.tsv",
		"host26/timings.tsv", "host26b/timings.tsv", "host26e/timings.tsv", "host27/timings.tsv", "host27b/timings.tsv", "host27c/timings.tsv", "host28/timings.tsv", "host28b/timings.tsv", "host29/timings.tsv", "host29b/timings.tsv", "host30/timings.tsv", "host30b/timings.tsv", "host31/timings.tsv", "host31b/timings.tsv", "host32/timings.tsv", "host32b/timings.tsv", "host33/timings.tsv", "host33b/timings.tsv", "host34/timings.tsv", "host35/timings.tsv", "host36/timings.tsv", "host37/timings.tsv", "host38/timings.tsv", "host39/timings.tsv", "host40/timings.tsv"} {
		raw, err := os.ReadFile("../../fixtures/" + file)
		if err != nil {
			t.Fatal(err)
		}
		session := ""
		if dir, _, _ := strings.Cut(file, "/"); sessionKeyed[dir] {
			session = dir + "/"
		}
		// host15b's variants timed another way, by file: one thread
		// per numerical library (1t), the model compiled (compile).
		suffix := map[string]string{"host15b/timings1t.tsv": "1t", "host15b/timings-compile.tsv": "compile"}[file]
		for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			f := strings.Split(line, "\t")
			if i == 0 || len(f) < 5 {
				continue
			}
			var ms float64
			if _, err := fmt.Sscan(f[4], &ms); err == nil {
				procs[session+f[0]+suffix] = append(procs[session+f[0]+suffix], ms)
			}
		}
	}
	b.WriteString(`
## Host levers, replayed

The steps of ` + "`fixtures/host8`" + ` (H200, ` + "`host8.py`" + `): an MoE training step fed by a DataLoader that tokenizes
in the main process, with ` + "`.tolist()`" + ` of the routing counts in every layer and ` + "`loss.item()`" + ` every step
(*moe*); a ResNet fed by JPEG decoding and augmentation in the main process with a per-step ` + "`.item()`" + ` stop
check (*vision*, held out of every fit of the levers; its trace is among the steps the profiler's cost per record was
fitted on, below); a UNet
denoising step in FP32, then TF32 (*unet*); and, from ` + "`fixtures/host9`" + ` (` + "`copy9.py`" + `, held out too), a small CNN
training loop bound by its 25 MB pageable batch copies, with ` + "`loss.item()`" + ` every step (*copy*, five processes a
variant); and, from ` + "`fixtures/host10`" + ` (` + "`host10.py`" + `, held out too), the same UNet at batch 4, which the host
bounds once TF32 shrinks its kernels (*unet4*), and a small GPT training step that reads its gradient norm
with ` + "`.item()`" + ` between backward and the optimizer step, at batch 16 × 128 (*split*) and 64 × 256 (*splitl*), its
CUDA graphs captured around the read (one graph for forward, backward and clipping, one for the optimizer);
and, from ` + "`fixtures/host12`" + ` (` + "`host12.py`" + `, captured after every fit and held out, its rows written before profan
first read it), a text classifier whose ` + "`collate_fn`" + ` tokenizes and pads in the main process, with boolean-mask
pooling (` + "`h[mask]`" + `) in ` + "`forward`" + ` and ` + "`torch.cuda.synchronize()`" + ` plus a ` + "`.cpu()`" + ` metrics log every step
(*cls*), and a launch-bound MLP step with a foreach-less Adam (*mlp*); and, from ` + "`fixtures/host13`" + ` (` + "`host13.py`" + `,
held out, its rows written before profan's estimates were read), ` + "`torch.compile(model)`" + ` timed against the eager
*unet* (TF32) and *mlp* steps in one session (rows ` + "`host13/…`" + `: both variants' processes from that session, the
estimate from the earlier session's trace of the eager step); and, from ` + "`fixtures/host14`" + ` (the group ` + "`host13.py`" + `'s budget
skipped), ` + "`torch.compile(model)`" + ` timed against the bf16 autocast *unet* step, a step its host bounds (rows
` + "`host14/…`" + `, the estimate from ` + "`fixtures/host11`" + `'s r1 trace of it); and, from ` + "`fixtures/host15`" + ` (` + "`host15.py`" + `, captured after
every fit and held out, its rows written before profan first read it), a keyword-spotting CNN fed by numpy log-mel
features computed in the main process, with gradient accumulation over four micro-batches and a ` + "`loss.item()`" + ` log
read after each (*audio*), and a point-cloud segmentation step that reads ` + "`nonzero()`" + ` and ` + "`torch.unique`" + ` on the host in
` + "`forward`" + ` (*voxel*); and, from ` + "`fixtures/host16`" + ` (` + "`host16.py`" + `, captured after every fit and held out, its rows
written before profan first read it), a stable-fluids simulation step whose conjugate-gradient solve tests its
convergence on the host after every iteration (` + "`if (rs <= tol).all():`" + `), bound by its launches (*fluid*), and
ResNet-style feature extraction that copies each step's 25.7 MB feature map to pageable host memory with
` + "`.cpu().numpy()`" + ` (*embed*); and, from ` + "`fixtures/host17`" + ` (` + "`host17.py`" + `, held out, its rows written before profan first read
it; three or four processes a variant), a DQN-style loop whose environments run in numpy on the host and read each
step's action back with ` + "`.cpu().numpy()`" + ` (*rl*), and a transformer classifier training step with per-parameter
gradient clipping, a for-loop AdamW and three logging ` + "`.item()`" + ` reads a step (*log*); and, from
` + "`fixtures/host18`" + ` (` + "`host18.py`" + `, held out, its rows written before profan first read it; three or four processes a
variant), a detector's inference step whose torchvision-style postprocess runs one image at a time, a boolean
mask's ` + "`nonzero`" + ` and ` + "`batched_nms`" + ` read on the host in each (*det*), and a GraphSAGE training step fed by a
` + "`DataLoader`" + ` whose ` + "`collate_fn`" + ` samples two hops of neighbours in numpy and Python, with a numpy macro-F1 of
` + "`pred.cpu()`" + ` every step (*gnn*); and, from ` + "`fixtures/host19`" + ` (` + "`host19.py`" + `, held out, its rows written before profan
first read it; three or four processes a variant), a sequence-to-sequence transformer training step on length-batched
pairs, each batch padded to its own longest, with ` + "`torch.cuda.empty_cache()`" + ` after every step (*s2s*), and a ViT-S
training step with a per-layer latency log whose forward hooks and phase timers call ` + "`torch.cuda.synchronize()`" + `,
32 a step (*hook*); and, from ` + "`fixtures/host20`" + ` (` + "`host20.py`" + `, held out, its rows written before profan first read
it; four processes a variant), an fp16 mixed-precision training step whose ` + "`GradScaler`" + ` reads ` + "`found_inf`" + ` on the host
every step and whose weight EMA is a Python loop over the state dict (*amp*), and a CTC speech training step whose loss
reads its GPU lengths on the host and whose CER log reads the argmax with ` + "`.tolist()`" + ` and scores it with a Python
edit distance every step (*ctc*); and, from ` + "`fixtures/host21`" + ` (` + "`host21.py`" + `, held out, its rows written before profan
first read it; three processes a variant, two for aug.all), a masked-LM pretraining step with gradient accumulation
over four micro-batches whose loss takes the masked positions by boolean-mask indexing (` + "`ids[mask]`" + `, ` + "`h[mask]`" + `)
and whose log reads each micro-batch's loss and the clipped gradient norm with ` + "`.item()`" + ` (*mlm*), and an image
classifier whose GPU augmentation runs one image at a time in a Python loop and whose metrics copy the predictions
and labels to numpy with ` + "`.cpu().numpy()`" + ` every step (*aug*); and, from ` + "`fixtures/host22`" + ` (` + "`host22.py`" + `, held out,
its rows written before profan first read it; three processes a variant, four for rec.all and ddpm.all), a DLRM-style
click-through-rate training step whose ` + "`Dataset`" + ` parses Criteo-style text lines and hashes their 26 string fields
in the main process and whose ` + "`forward`" + ` deduplicates each table's ids with ` + "`torch.unique`" + ` before the lookup
(*rec*), and a latent-diffusion UNet training step that reads each sample's timestep with ` + "`int()`" + ` to look its noise
schedule up in numpy, 64 reads a step (*ddpm*); and, from ` + "`fixtures/host23`" + ` (` + "`host23.py`" + `, held out, its rows
written before profan first read it; three processes a variant, two for nerf.all and ppo.all), a NeRF training step
whose occupancy grid keeps the samples by boolean-mask indexing (` + "`x[m]`" + `, ` + "`raw[m] = out`" + `: two reads a step), its FP32
MLP's GEMMs the step's bulk (*nerf*), and a PPO update whose Stable-Baselines3-style minibatch loop reads five
statistics a minibatch with ` + "`.item()`" + ` and ` + "`.cpu().numpy()`" + `, 40 a step (*ppo*); and, from ` + "`fixtures/host24`" + `
(` + "`host24.py`" + `, held out, its rows written before profan first read it; three processes a variant, two for six of
them), a tabular FT-Transformer fed by a ` + "`Dataset`" + ` that parses and featurises one CSV line at a time in the main
process (*tab*), and a Llama-style language model's step whose loss-spike guard reads the gradient norm with
` + "`.item()`" + ` every step to decide whether the optimizer steps, its FP32 step bound by the GPU and its bf16 step by the
host (*spike*); and, from ` + "`fixtures/host25`" + ` (` + "`host25.py`" + `, held out, its rows written before profan first read it;
three processes a variant), a SchNet-style molecular energy model fed by a ` + "`Dataset`" + ` that parses XYZ text and builds
each molecule's radius graph in numpy in the main process, its readout sizing its output with ` + "`int(batch.max())`" + `
and its loop reading ` + "`loss.item()`" + ` every step (*mol*), and an early-exit BERT-style encoder's inference step that
reads its batch exit check with ` + "`.item()`" + ` after each of its 12 blocks, in FP32 and bf16 (*exit*); and, from
` + "`fixtures/host26`" + ` (` + "`host26.py`" + `, held out, its rows written before profan first read it; three processes a variant), a
CLIP-style contrastive image-text training step whose main-process loader decodes, crops and flips JPEGs with PIL and
tokenizes captions in Python, padding them per batch, and whose loop reads the clipped gradient norm with ` + "`.item()`" + `
between the backward and the optimizer step (*clip*), and a speculative-decoding step (a draft decoder proposes four
tokens, a 12-block target verifies them) whose caches are sliced at a host position and whose accepted counts and EOS
check are read with ` + "`.tolist()`" + ` and ` + "`.item()`" + ` every step, in FP32 and bf16 (*spec*); and, from
` + "`fixtures/host27`" + ` (` + "`host27.py`" + `, held out, its rows written before profan first read it; one process for each
default, two for the other variants), a PatchTST-style forecasting step whose main-process loader cuts, gap-fills and
normalizes windows of a multivariate series in NumPy and whose plateau scheduler is stepped with ` + "`loss.item()`" + `
every step (*ts*), and a ViT trained with adaptive token pruning whose forward reads three kept-token counts with
` + "`int(...)`" + ` to size its gathers, in FP32 and bf16 (*prune*); and, from ` + "`fixtures/host28`" + ` (` + "`host28.py`" + `,
held out, its rows written before profan first read it; three processes for each default, two for the other
variants), an utterance classifier whose main-process loader synthesizes each waveform and computes its log-mel
features and SpecAugment in NumPy, padding each batch to its longest utterance (*spk*), and a VQ-VAE whose EMA
codebook restarts its dead codes every step after reading ` + "`expired.any()`" + ` and ` + "`nonzero()`" + ` on the host, in FP32 and
bf16 (*vq*); and, from ` + "`fixtures/host29`" + ` (` + "`host29.py`" + `, held out, its rows written before profan first read it; three
processes a variant), a DeepLabV3-style segmentation step whose main-process loader renders and jointly augments each
scene in NumPy and whose mIoU reads the argmax with ` + "`.cpu()`" + ` every step (*seg*), and a neural-ODE classifier whose
adaptive Dormand-Prince solver reads its loop, accept and step-size tests on the host every solver step (*ode*); and,
from ` + "`fixtures/host30`" + ` (` + "`host30.py`" + `, held out, its rows written before profan first read it; three processes a
variant, two for gan.graphs, gan.all and crf.all), a DCGAN training step that reads its statistics with ` + "`.item()`" + `
inside the step, its batch collated in the main process and copied pageable (*gan*), and a Transformer-CRF tagger fed
by a main-process slow tokenizer whose span F1 is kept every step through pytorch-crf's decode, one ` + "`.item()`" + ` a time
step a sentence (*crf*); and, from ` + "`fixtures/host31`" + ` (` + "`host31.py`" + `, held out, its rows written before profan first read
it; three processes a variant; host31b's, two or three), an EDSR super-resolution training step whose loss is read
every iteration and whose EMA is a loop of 272 launches, its pairs collated in the main process (*sr*), and an
R(2+1)D video classifier whose main-process Dataset decodes eight JPEG frames a clip and whose loss and accuracies are
read every step (*vid*); and, from ` + "`fixtures/host32`" + ` (` + "`host32.py`" + `, held out, its rows written before profan first read
it; three processes a variant, mae.default four; host32b's, three), MAE's ViT-L/16 pretraining step under float16
autocast with its GradScaler, eight pinned workers, its loss read and a ` + "`torch.cuda.synchronize()`" + ` every step
(*mae*), and a FastSpeech2 training step whose features are loaded and padded in the main process and whose length
regulator reads one duration a padded row with ` + "`.item()`" + ` (*tts*); and, from ` + "`fixtures/host33`" + ` (` + "`host33.py`" + `, held out, its rows
written before profan first read it; three processes a variant, each default four; host33b's, four), wav2vec2-base
pretraining under float16 autocast with its GradScaler, its collator's masks and negatives drawn in NumPy in the main
process, ` + "`get_grad_norm`" + ` reading one norm a parameter with ` + "`.item()`" + ` (*w2v*), and a SimpleBaseline pose
estimator whose main-process Dataset decodes, warps and draws 17 heatmaps an item, its loss and accuracy read every
step (*pose*); and, from ` + "`fixtures/host34`" + ` (` + "`host34.py`" + `, held out, its rows written before profan first read it;
three processes a variant, detr.default four), a DETR training step whose HungarianMatcher copies its cost to the host
six times a step and whose logged losses are read every step, sized to be bound by its GPU but bound by its host
(*detr*), and a BTS monocular depth step whose main-process Dataset decodes and augments a JPEG and a 16-bit PNG an
item and whose loss indexes by a mask (*depth*); and, from ` + "`fixtures/host35`" + ` (` + "`host35.py`" + `, held out, its rows
written before profan first read it; three processes a variant, each default four), a RAFT optical-flow training step
fed by eight workers whose sequence_loss indexes the end-point error by the valid mask and reads four metrics with
` + "`.item()`" + ` every step, bound mostly by its GPU (*flow*), and a CRNN text recognizer whose main-process Dataset
renders a word line an item, its batch copied from pageable memory and its loss and accuracy read every step (*ocr*);
and, from ` + "`fixtures/host36`" + ` (` + "`host36.py`" + `, held out, its rows written before profan first read it; three processes a
variant, each default four), an nnU-Net 3D segmentation step under float16 autocast with its GradScaler, fed by twelve
workers whose batches reach the step's thread as pickled NumPy arrays it unpickles, its loss read every step, bound
mostly by its GPU (*vol*), and a word2vec skip-gram negative-sampling step whose forward draws its negatives with
` + "`torch.multinomial`" + ` on the host every step, its loss read every step (*sgns*); and, from ` + "`fixtures/host37`" + `
(` + "`host37.py`" + `, held out, its rows written before profan first read it; three processes a variant, each default four),
a knowledge-distillation step training a ResNet-18 student from a ResNet-34 teacher, fed by twelve workers, its 77 MB
batch copied from pageable memory, its loss read and the GPU synchronized every step, bound mostly by its GPU once its
waits go (*kd*), and a packed BiLSTM sentiment step whose main-process Dataset tokenizes each review, its lengths read
back from the GPU for ` + "`pack_padded_sequence`" + ` and its loss and accuracy read every step (*sent*); and, from
` + "`fixtures/host38`" + ` (` + "`host38.py`" + `, held out, its rows written before profan first read it; three processes a variant,
each default four), a two-tower retrieval training step (in-batch softmax with sampled negatives, its item table shared
by the user's history through ` + "`embedding_bag`" + `, Adam) whose hard negatives are picked by ` + "`torch.nonzero`" + ` in its forward,
its loss read and ` + "`torch.cuda.empty_cache()`" + ` called every step (*retr*), and a Sentinel-2 land-cover FCN inference
loop whose 218 MB batch is copied from pinned memory on the default stream ahead of its kernels, its mask read back
with ` + "`.cpu()`" + ` every step (*sat*); and, from ` + "`fixtures/host39`" + ` (` + "`host39.py`" + `, held out, its rows written before
profan first read it; three processes a variant, each default four), a Quick, Draw! sketch classifier's training step
(a VGG-style CNN, Adam) whose main-process Dataset parses ndjson lines and draws their strokes with PIL, its loss read
every step for a stop check (*draw*), and an N-BEATS-G forecasting training step (30 generic blocks, ` + "`clip_grad_norm_`" + `,
Adam) in FP32 with TF32 off, no loader and no read in its steps, bound by its host's issue of 1386 kernels a step
(*nbeats*); and, from ` + "`fixtures/host40`" + ` (` + "`host40.py`" + `, held out, its rows written before profan first read it;
three processes a variant, each default four), a sleep-stage 1D ResNet's training step (AdamW) whose 128 windows are
cut with NumPy on the host each step, copied from pageable memory and followed by ` + "`torch.cuda.synchronize()`" + ` for a
step timer (*eeg*), and an extractive QA service's loop (a BERT-style encoder in FP32, no grad) that tokenizes its 32
requests in Python, reads each request's start and end logits back with ` + "`.cpu()`" + ` and scores the spans in NumPy
(*qa*).
*Estimated* is the recommendation's wall gain, read from the trace of the "before" step (four ` + "`ProfilerStep#N`" + `, ` + "`with_stack`" + `) and priced by replaying it; *measured* is
1 − after/before of the medians over three alternating processes of each process's median step;
*spread* is the larger range of the two variants' process medians over their median.

| before → after | rule | first | estimated | measured | error | spread |
| --- | --- | --- | ---: | ---: | ---: | ---: |
`)
	rel := func(ms []float64) float64 { return (slices.Max(ms) - slices.Min(ms)) / stats.Median(ms) }
	read := map[string]*analysis.App{}
	tls := map[string]*analysis.Timeline{}
	var misses []string
	for _, p := range []struct {
		before, after, rule string
		first               bool
		tol                 float64 // 0: max(0.10, spread)
		// miss: a held-out row profan is known to miss, and why; the
		// row is reported (docs/calibration-apps.md), not held.
		miss string
	}{
		// "+": the rules' levers replayed together.
		{"moe.default", "moe.all", "data-loader+host-read+step-read", false, 0, ""},
		{"vision.default", "vision.both", "data-loader+step-read", false, 0, ""},
		{"moe.default", "moe.workers", "data-loader", true, 0, ""},
		{"moe.default", "moe.noitem", "step-read", false, 0, ""},
		{"moe.default", "moe.fixedcap", "host-read", false, 0, ""},
		// Held out.
		{"vision.default", "vision.workers", "data-loader", true, 0, ""},
		{"vision.default", "vision.noitem", "step-read", false, 0, ""},
		// The TF32 step stays GPU-bound, as measured: the host its
		// engines add (docs/replay.md) stays under the GPU's time. This
		// pair is where the engines' host cost per op kind was learned
		// (rules.engineHostUnits). The FP32 convolutions include cuDNN's FFT
		// engine (22% of the time), which TF32 replaces with tensor-core
		// implicit GEMMs. bf16-weights ranks first (75%; bf16 autocast
		// measured 60%).
		{"unet.fp32", "unet.tf32", "tf32", false, 0, ""},
		// GPU-bound once replayed per step: graphs give little (measured
		// 6%); the kernel-side levers, not measured here, rank above.
		{"unet.tf32", "unet.graphs", "cuda-graphs", false, 0, ""},
		// Held out: a loop bound by its pageable copies (fixtures/host9).
		{"copy.default", "copy.pinned", "pinned-memory", true, 0, ""},
		{"copy.default", "copy.noitem", "step-read", false, 0, ""},
		{"copy.default", "copy.both", "pinned-memory+step-read", false, 0, ""},
		// Held out (fixtures/host10): the UNet at batch 4, which the
		// host bounds once TF32 shrinks its kernels: priced with the
		// host the TF32 engines add to each convolution and linear,
		// learned on host8's unet only: within the spread, still
		// over-priced (−41.5% of 12.0 ms is 6.7 ms; the TF32 processes'
		// medians 7.2, 9.9 and 10.5 ms, each steady to 3%: the host's
		// speed by process, docs/replay.md).
		{"unet4.fp32", "unet4.tf32", "tf32", false, 0, ""},
		// Held out: a step split by one gradient-norm read between
		// backward and the optimizer.
		{"split.default", "split.noread", "step-read", false, 0, ""},
		{"split.default", "split.graphs", "cuda-graphs", true, 0, ""},
		{"splitl.default", "splitl.noread", "step-read", false, 0, ""},
		{"splitl.default", "splitl.graphs", "cuda-graphs", false, 0, ""},
		// Held out, captured after every fit of the host pricing
		// (fixtures/host12, host12.py): rows written from the measured
		// timings before profan first read the traces (commit 5ef9c12),
		// read once with main at de4c31e (the same figures at adec996).
		// cls: a text classifier whose collate_fn tokenizes and pads in
		// the main process, with boolean-mask pooling (h[mask], a
		// nonzero) in forward and torch.cuda.synchronize() + a .cpu()
		// metrics log every step; measured first: workers (−44%).
		// First read: data-loader first at 49.0% (measured 43.9%,
		// spread 10%): holds; the three rows with host-read missed (no
		// host-read advice: the boolean mask's sync is named by its
		// outer op, aten::index and IndexBackward0, which rules.syncKind
		// took for a value read, so step-read claimed it; the advised
		// step-read+cuda-synchronize replayed to 10.0%, with
		// data-loader 54.5%). A plain bug of classification, fixed
		// after that read (syncKind takes a sync inside indexing for a
		// mask's), no pricing changed: all 54.5%, nomask 4.9%, nosync
		// 10.0%, as below; no longer a blind read.
		{"cls.default", "cls.all", "data-loader+host-read+cuda-synchronize+step-read", false, 0, ""},
		{"cls.default", "cls.workers", "data-loader", true, 0, ""},
		{"cls.default", "cls.nomask", "host-read", false, 0, ""},
		{"cls.default", "cls.nosync", "host-read+cuda-synchronize+step-read", false, 0, ""},
		// mlp: a launch-bound step (12 tiny MLP blocks, Adam with
		// foreach=False); measured first: one CUDA graph (−85%).
		// First read: cuda-graphs first at 91.2% (measured 84.6%):
		// holds; fused-optimizer was not advised at all (the rule
		// found foreach kernels only, and Adam(foreach=False) runs
		// per-parameter aten::lerp_/addcmul_/addcdiv_ kernels). Fixed
		// after that read, by mechanism (no constant fitted): the
		// rule reads the for-loop step from the trace's
		// Optimizer.step#Adam.step range (532 launches a step over 76
		// parameters) and replays it collapsed into the fused step's
		// multi-tensor launches: 61.6% (measured 49.9%, spread 32%);
		// no longer a blind read.
		{"mlp.default", "mlp.graphs", "cuda-graphs", true, 0, ""},
		{"mlp.default", "mlp.fused", "fused-optimizer", false, 0, ""},
		// Held out (fixtures/host13, host13.py): torch.compile(model),
		// default mode, the optimizer eager, timed against its eager
		// step in one session (three alternating processes each, 20
		// warm-up steps in which it compiles; one graph, no graph break
		// nor recompile); no new trace: the estimate is read from the
		// "before" step's trace of an earlier session of the same code
		// (host8's unet.tf32, host12's mlp.default). Rows written from
		// the timings before profan's estimates were read. First: true
		// where compile's measured gain is the largest of the levers
		// measured from the same step: unet.tf32 21.6% (spread 1%)
		// above graphs' 6.4% (host8; bf16 autocast measured slower
		// there); mlp.default 0.8% (spread 30%) below graphs' 84.6% and
		// fused's 49.9% (host12). First read, with main at 5378f30:
		// torch-compile first on unet.tf32 at 15.5% (measured 21.6%:
		// under by 6.1 points, within 10), fourth on mlp.default at
		// 3.4% (measured 0.8%, spread 30%; cuda-graphs first): both
		// hold, no pricing changed. Since the forward's Python is
		// taken off too (host14, below): unet.tf32 15.5% (GPU-bound
		// once replayed), mlp.default 6.8%.
		{"host13/unet.tf32", "host13/unet.tf32compile", "torch-compile", true, 0, ""},
		{"host13/mlp.default", "host13/mlp.compile", "torch-compile", false, 0, ""},
		// fixtures/host14 (host13.py's skipped group): torch.compile on
		// host11's bf16 autocast UNet, a step its host bounds (kernels
		// 7.3 ms a step), timed after profan's estimate was written,
		// read from host11's r1 trace: eager 12.7 to 16.7 ms, compiled
		// 5.6 to 7.6 ms (one graph, no break), measured 62.0% (spread
		// 35%). Priced 15.4% with the launches a fusion drops alone
		// (−46.6 points, outside); 33.9% once the model's forward Python,
		// which Dynamo traces into the graph, is taken off the host too
		// (Lever.Forward): under by 28 points, inside the spread. What is
		// left is the host floor: the eager step replayed to 8.4 ms
		// against 12.7 to 16.7 measured (the profiler scale, 0.4, took
		// too much of this UNet's traced host away); with the
		// profiler's cost per record (docs/replay.md) it replays to
		// 9.3 ms, and compile is priced 36.0%. It was then a known miss
		// (26.1%, under by 36 points, first as measured, once the
		// compiled code's Triton launches were priced at inductor's
		// launcher): the eager bf16 step's host floor, autocast's casts
		// kept at the profiler's share. Fixed by mechanism: the casts
		// keep castKeep of their traced time (the step replays to
		// 10.7 ms), and torch.compile, which traces them into its graph,
		// takes their host away (docs/replay.md): 47.6%, first.
		{"host14/unet.bf16", "host14/unet.bf16compile", "torch-compile", true, 0, ""},
		// Held out, captured after every fit of the host pricing
		// (fixtures/host15, host15.py, run as host14.py: its frames say
		// so; H200, 2026-11-29 00:30-00:35):
		// rows written from the measured timings before profan first
		// read the traces. First: true where the row's lever has the
		// largest positive measured gain of the levers measured from the
		// same step; a step where every measured lever slowed it has no
		// lever measured first.
		// audio: a keyword-spotting CNN fed by numpy log-mel features
		// computed in the main-process Dataset, with gradient
		// accumulation over 4 micro-batches and a loss.item() log read
		// after each. Measured: DataLoader workers made the step slower
		// (−62%: 4 workers computing the features give 203 ms a step
		// against the main process's 125 ms), and so did dropping the
		// reads (−9%, within the default's 32% spread); both together
		// −106%. No lever measured from default gains.
		// First read, with main at 5157b30 (01:45): data-loader first
		// at 59.8% and step-read 21.8% (holds, within the 32% spread);
		// the two rows with data-loader missed, and are reported below.
		// The replay's base step was 73.6 ms against 125 ms measured;
		// with the profiler's cost per record (fitted since, this
		// trace among the steps) 90.1 ms; its loading bound cannot see
		// the workers' speed.
		{"audio.default", "audio.all", "data-loader+step-read", false, 0, "DataLoader workers slowed this step: 4 workers computing the numpy features deliver a step's 64 items in about 200 ms, the main process alone in about 110 ms (profiled), and the replay bounds the workers by the main process's loading over 4 (why is not in the trace, no worker is traced; fixtures/host15b verified it: each worker's OpenBLAS pool of 16 threads on 16 cores; with one thread each the workers give 31 to 36 ms a step, 71% faster than the main process alone, the next row but one, and the advice names the precondition where the loading calls numpy); the replay's base step, 90.1 ms against 125 ms measured (the profiled steps ran 151 ms) while the loader's numpy calls kept 0.55 of their traced time, is 117.5 ms since the loader's records are priced at the trace's own Python call (loaderKeep, docs/replay.md)"},
		{"audio.default", "audio.workers", "data-loader", false, 0, "ranked first where workers with their numerical libraries' thread pools measured 62% slower (as the row above); the same workers with one thread each measured 71% faster (host15b, below)"},
		{"audio.default", "audio.noread", "step-read", false, 0, ""},
		// From the workers + no-read step: bf16 autocast +8% (spread
		// 15%), the one lever measured from it. First read: -1.2%
		// (within 15 points), ranked eighth: data-loader first.
		{"audio.all", "audio.allbf16", "bf16-autocast", true, 0, "the estimate lands, but is not first: data-loader ranked first at 85.8% at the read on a step that already loads with 4 workers (the main thread's wait in _MultiProcessingDataLoaderIter.__next__, queue.py(154): get, priced as if workers would take it off the thread), then cuda-graphs at 11.9% once data-loader was listed in use; since the step's thread waits on the workers' queue every step, their throughput is the step's floor and no lever clears the step's noise (every one 0.0% or slower, bf16 autocast's engines' host -0.9%), where bf16 measured +8.0% within the 15% spread of its processes"},
		// voxel: a point-cloud segmentation step with three host reads a
		// step in forward (inside.nonzero() for the crop, torch.unique
		// at two voxel scales), measured GPU-bound: the fixed-shape,
		// read-free step (dense voxel grids) −5%, slower; from it, one
		// CUDA graph +2.5%. First read: host-read 3.3% (holds; first
		// is torch-compile at 17.2%, not measured) and cuda-graphs
		// last at 0, "cannot capture" (nonzero, _unique2); from fixed,
		// cuda-graphs 0.1% (holds in value), ranked fifth.
		{"voxel.default", "voxel.fixed", "host-read", false, 0, ""},
		// fixtures/host15b, timed after the first read (host15's audio
		// trace read for the estimate): the workers with one thread per
		// numerical library (OMP/OPENBLAS/MKL_NUM_THREADS=1), against
		// the step without workers timed in the same session: 31.2 to
		// 35.5 ms against 113.5 and 117.7 (the workers as host15 ran
		// them, 16 OpenBLAS threads each on 16 cores: 233.7 and 269.0).
		// The first lever measured; data-loader, priced before the
		// threads were known, lands within the spread, and now names
		// the precondition (the trace's loading calls numpy).
		{"host15b/audio.default", "host15b/audio.workers1t", "data-loader", true, 0, ""},
		// torch.compile on voxel.default, one process, against host15's
		// three eager processes of the same code: Dynamo captured one
		// graph (21 calls) and broke at nonzero; the step ran 8.49 ms.
		// Priced 17.3% and first at the read (a known miss); since the
		// forward's frames tell a read in a loop (_unique2 twice inside
		// one call of forward) from calls, torch-compile counts no chain
		// after that call's first break (1.1%; 0.8% since only the forward's chains count).
		{"voxel.default", "host15b/voxel.defaultcompile", "torch-compile", false, 0, ""},
		{"voxel.fixed", "voxel.graphs", "cuda-graphs", true, 0, "the estimate lands, but torch-compile ranks first (48.4%) and bf16-autocast second (12.3%), neither measured: the first lever is not confirmed, and CUDA graphs, the one lever timed from this GPU-bound step, ranks fifth"},
		// Held out, captured after every fit of the host pricing
		// (fixtures/host16, host16.py; H200, 2026-11-29 02:55-02:58):
		// rows written from the measured timings before profan first
		// read the traces. First as for host15: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step.
		// fluid: a stable-fluids step whose CG solve tests convergence
		// on the host after every iteration (if (rs <= tol).all(): a
		// GPU value tested in an if, step-read's kind), a few hundred
		// small kernels a step, bound by its launches. Measured: the
		// test every 8 iterations 3.8% (spread 4%), no test and 120
		// iterations 1.4% (spread 26%: the fixed processes ran 15.2 to
		// 19.7 ms); one CUDA graph of the read-free step 77.5% from
		// default, 77.2% from fixed. Graphs cannot capture the default
		// step (a host read and a data-dependent trip count in every
		// solve): the read's own lever, step-read, comes first there,
		// and graphs only together with it (the expectation as written).
		// First read, with main at 1256fd9 (04:05): step-read 1.1%,
		// fourth (holds in value); cuda-graphs first at 74.6% on the
		// step it cannot capture whole; step-read+cuda-graphs 74.7% and
		// fixed's cuda-graphs 76.0%, first: both hold. Not fitted.
		// Since, the expectation is refuted by measurement (host16b
		// below): the loop's body captured between two reads, the read
		// kept, ran 69.8% faster, the largest lever measured alone from
		// default, so step-read is not the one measured first: these two
		// rows hold in value and no longer ask for first place (the first
		// read stays recorded in its section).
		{"fluid.default", "fluid.every8", "step-read", false, 0, ""},
		{"fluid.default", "fluid.fixed", "step-read", false, 0, ""},
		{"fluid.default", "fluid.graphs", "step-read+cuda-graphs", false, 0, ""},
		{"fluid.fixed", "fluid.graphs", "cuda-graphs", true, 0, ""},
		// fixtures/host16b (host16b.py; H200, 2026-11-29 04:38-04:39),
		// timed after the first read: the lever profan advises on
		// fluid.default, never measured before, against default and
		// graphs timed again in the same session (three alternating
		// processes each): the CG iteration's body captured once as a
		// CUDA graph and replayed every iteration, the convergence read
		// kept (the same 101-113 iterations a step as default). The
		// estimate from host16's trace of fluid.default. Measured 69.8%
		// (default 21.15 ms, loopgraphs 6.39 ms; spread 47%: default's
		// processes ran 19.7 to 29.6 ms); graphs, whole step and fixed
		// count, 81.4% in the same session. Not fitted.
		{"host16b/fluid.default", "host16b/fluid.loopgraphs", "cuda-graphs", true, 0, ""},
		// embed: ResNet-style feature extraction (no grad, TF32
		// convolutions) whose 25.7 MB feature map goes to pageable host
		// memory every step (.cpu().numpy(), waited for). Measured:
		// pinned buffers with non_blocking copies and the host one step
		// behind 26.4% (spread 21%), bf16 autocast 0.8% (spread 8%),
		// both 30.0% (spread 17%); from pinned, bf16 4.8% (spread 21%).
		// First read, with main at 1256fd9 (04:05): pinned-memory 18.7%,
		// third (holds in value); cuda-graphs first at 38.0% and
		// step-read second at 29.0% (the same .cpu() sync); bf16-autocast
		// not advised (bf16-weights 6.3% instead): none, as measured,
		// but the pair with it cannot be replayed; on pinned, cuda-graphs
		// first at 41.3%, step-read second at 30.9%. Not fitted.
		// Fixed after the read, by mechanism: a .cpu() whose copy is a
		// bulk transfer to pageable memory is the pageable copy's sync,
		// pinned-memory's alone (step-read no longer prices it): first,
		// at 49.3%, over by 22.8 points (first read: 18.7%, third).
		// Since, by mechanism: the host reads the copied features back
		// out of the pinned buffer at the staged copies' rate (the
		// trace's pageable copies from the GPU, 14.5 GB/s): 23.2%, first.
		{"embed.default", "embed.pinned", "pinned-memory", true, 0, ""},
		{"embed.default", "embed.bf16", "bf16-autocast", false, 0, ""},
		// bf16-autocast is not advised on this TF32 step (bf16-weights
		// is, at 6.3%): the pair replays pinned-memory alone, bf16
		// priced at no gain as in the row below (it was printed NaN).
		{"embed.default", "embed.both", "pinned-memory+bf16-autocast", false, 0, ""},
		{"embed.pinned", "embed.both", "bf16-autocast", true, 0, "third at 8.7% against the measured 4.8% (within 21 points in value; not advised before host38's fit advised autocast on inference steps), and channels-last ranks first at 12.8%, not measured (cuda-graphs first at 41.3% at the read, 3.5% since graphs no longer take the host's store of the features); step-read, second at 30.9% at the first read on a cudaEventSynchronize at host16.py(243): step that waited 0.01 ms in the trace, is listed in use since (an event's wait is the read already deferred)"},
		// Held out, captured on a branch the fitters never saw
		// (fixtures/host17, host17.py; H200, 2026-11-29 05:40-05:47):
		// rows written from the measured timings before profan first
		// read the traces (at 06:40 or later, after the last fit). First
		// as for host15 and host16: the lever with the largest positive
		// measured gain of the levers measured alone from the same step.
		// rl: a DQN-style loop, a numpy environment on the host, the
		// action read back with .cpu().numpy() every step, one update a
		// step (Adam foreach, a Polyak lerp_ per parameter). Measured:
		// pinned staging 2.8% (spread 34%), fused Adam 17.9% (20%), the
		// update as one CUDA graph, the read and the environment eager,
		// 71.8% (20%): first; all three 82.2% (26%). Graphs can capture
		// the update, not the step: the read sits between acting and the
		// environment.
		{"rl.default", "rl.pinned", "pinned-memory", false, 0, ""},
		{"rl.default", "rl.fused", "fused-optimizer", false, 0, ""},
		{"rl.default", "rl.graphs", "cuda-graphs", true, 0, ""},
		{"rl.default", "rl.all", "pinned-memory+fused-optimizer+cuda-graphs", false, 0, ""},
		// log: a transformer classifier training step, layer-wise
		// clipping (clip_grad_norm_ per parameter in a Python loop),
		// AdamW(foreach=False), three logging .item() reads a step.
		// Measured from default: the reads every 50 steps 10.9% (spread
		// 22%), fused AdamW 44.1% (22%): first; bf16 autocast 9.3% (17%);
		// noread + fused 35.8% (21%). From noread: one CUDA graph of the
		// step 73.4% (22%): first; fused 28.0% (22%). A graph of default's
		// step with the reads kept after its replay was not timed.
		{"log.default", "log.noread", "step-read", false, 0, ""},
		// First read, with main at a8f9c2f (06:40): below, and in its
		// section; not fitted.
		// Fixed after the read, by mechanism: a multi-tensor kernel
		// launched outside the Optimizer.step#… range (the clipping's) is
		// not the optimizer's; the for-loop AdamW range is read and
		// collapsed: 19.4%, second (log.all 19.5%, noread's 22.1%, both
		// within their spread since).
		// Since, the expectation is refuted by measurement (host17b
		// below): default's step as one CUDA graph, its reads kept, ran
		// 74.4% faster, the largest lever measured alone from default,
		// so fused AdamW is not the one measured first: the row no
		// longer asks for first place (the first read stays recorded in
		// its section).
		{"log.default", "log.fused", "fused-optimizer", false, 0, "priced 0.0% and fourth at the first read, the clipping's multi-tensor kernels (aten::_foreach_norm, _foreach_mul_) taken for a foreach SGD step; since the fix after the read (only the multi-tensor kernels launched inside an Optimizer.step#… range are the optimizer's), the for-loop AdamW range is read and priced 19.4%, second after cuda-graphs (79.5%; 74.4% measured since, host17b), and 17.4% since the fused step keeps the range's host outside _single_tensor_adam (Optimizer.step's wrapper, _init_group): under by 26.7 points, the range's host replayed to 5.00 ms a step (its traced time at the profiler's keep) where fused AdamW measured 12.0 ms a step faster: more than the range's whole traced time (10.98 ms a step, profiled), so no replay of the range alone reaches it; from noread, fused measured 6.8 ms (28.0%, the row below, within its spread)"},
		{"log.default", "log.bf16", "bf16-autocast", false, 0, ""},
		{"log.default", "log.all", "step-read+fused-optimizer", false, 0, ""},
		{"log.noread", "log.graphs", "cuda-graphs", true, 0, ""},
		{"log.noread", "log.all", "fused-optimizer", false, 0, ""},
		// fixtures/host17b (host17b.py; H200, 2026-11-29 07:07-07:10),
		// timed after the first read: the lever profan ranks first on
		// log.default, never measured before, against default, noread
		// and graphs timed again in the same session (four alternating
		// processes each): default's whole step (forward, backward, the
		// clipping loop, AdamW capturable, the three logs stacked)
		// captured once as one CUDA graph and replayed, the three logs
		// still read with .item() after every replay. The estimate from
		// host17's trace of log.default. Measured 74.4% (default 25.55
		// ms, graphsread 6.54 ms; spread 19%: default's processes ran
		// 24.6 to 29.4 ms); noread's graph 6.45 ms in the same session.
		// Not fitted.
		{"host17b/log.default", "host17b/log.graphsread", "cuda-graphs", true, 0, ""},
		// Held out, captured on a branch the fitters never saw
		// (fixtures/host18, host18.py; H200, 2026-11-29 08:14-08:21):
		// rows written from the measured timings before profan first
		// read the traces (at 09:40 or later, after the last fit). First
		// as for host15 to host17: the lever with the largest positive
		// measured gain of the levers measured alone from the same step.
		// det: a detector's inference step (conv backbone and head, 8
		// images of 384 x 384), its postprocess one image at a time:
		// a boolean mask's nonzero and batched_nms, both read on the
		// host, in each image. Measured from default (11.80 ms): the
		// fixed-shape postprocess, no host read, 78.6% (spread 35%):
		// first; bf16 autocast -15.2% (35%, slower); fixed + one CUDA
		// graph 88.4%, and with bf16 89.9%. From fixed (2.53 ms): one
		// CUDA graph of the step 45.9% (15%): first; graphs + bf16 52.8%.
		// Graphs cannot capture the default step (its reads and
		// data-dependent shapes).
		// First read, with main at 54da4a6 (09:40): the three
		// host-read rows missed (below); the rest held.
		{"det.default", "det.fixed", "host-read", true, 0, ""},
		{"det.default", "det.bf16", "bf16-autocast", false, 0, ""},
		{"det.default", "det.graphs", "host-read+cuda-graphs", false, 0, ""},
		{"det.default", "det.all", "host-read+cuda-graphs+bf16-autocast", false, 0, ""},
		{"det.fixed", "det.graphs", "cuda-graphs", true, 0, ""},
		{"det.fixed", "det.all", "cuda-graphs+bf16-autocast", false, 0, ""},
		// gnn: GraphSAGE on sampled two-hop neighbourhoods, the sampler
		// in the DataLoader's collate_fn (numpy and a Python relabel
		// loop), a numpy macro-F1 from pred.cpu() every step. Measured
		// from default (24.64 ms): 4 workers 71.5% (spread 11%): first;
		// the metric on the GPU, read every 50 steps, -0.9% (24%: no
		// gain); both 71.0% (41%). From workers (7.01 ms): the metric on
		// the GPU -1.8% (41%): no lever measured a gain. The sampled
		// shapes change every step: graphs cannot capture it.
		{"gnn.default", "gnn.workers", "data-loader", true, 0, ""},
		{"gnn.default", "gnn.gpumetric", "step-read", false, 0, ""},
		{"gnn.default", "gnn.all", "data-loader+step-read", false, 0, ""},
		{"gnn.workers", "gnn.all", "step-read", false, 0, ""},
		// fixtures/host18b (host18b.py; H200, 2026-11-29 09:44-09:48),
		// timed after the first read: the levers profan ranks first on
		// det.default (torch-compile, 28.1%) and gnn.workers
		// (fused-optimizer, 7.8%), neither measured by host18, against
		// default and workers timed again in the same session (four
		// alternating processes each). The estimates from host18's
		// traces. Not fitted.
		{"host18b/det.default", "host18b/det.compile", "torch-compile", false, 0, ""},
		// Ranked first at 7.8% at the read, on a step where no lever
		// measured a gain; since the pin-memory thread's time a batch
		// bounds the step (replay.pinFeed), 0.0%.
		{"host18b/gnn.workers", "host18b/gnn.workersfused", "fused-optimizer", false, 0, ""},
		// Held out, captured on a branch the fitters never saw
		// (fixtures/host19, host19.py; H200, 2026-11-29 10:58-11:04):
		// rows written from the measured timings before profan first
		// read the traces (at 12:40 or later, after the last fit at
		// 12:35). First as for host15 to host18: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step.
		// s2s: a seq2seq transformer's training step on length-batched
		// pairs, each batch padded to its own longest (a new shape
		// almost every step), torch.cuda.empty_cache() after every
		// step. Measured from default (24.88 ms): no empty_cache 25.9%
		// (spread 32%); the fixed padding alone -9.4% (18%; no rule
		// prices padding: no row); fixed padding + one CUDA graph
		// 63.7% (18%): first, the padding being the graph's
		// precondition; and with no empty_cache 63.7%. From static
		// (27.21 ms): one CUDA graph 66.9% (8%): first; with no
		// empty_cache 66.8%. No rule prices the allocator's time: the
		// empty_cache rows name host-sync, which prices the waits no
		// other rule claims (empty_cache's cudaFree synchronises the
		// device; the next step's cudaMalloc calls are the rest).
		// Fitted after the read (docs/calibration-apps.md, "host19
		// fitted after the read"): the rows name allocator-churn, the
		// lever made since, by mechanism: the step replayed without
		// the allocator's calls and the syncs its cudaFree forces (the
		// read: none, host-sync not advised; since 8.9%).
		{"s2s.default", "s2s.nocache", "allocator-churn", false, 0, ""},
		{"s2s.default", "s2s.graphs", "cuda-graphs", true, 0, ""},
		{"s2s.default", "s2s.all", "cuda-graphs+allocator-churn", false, 0, ""},
		{"s2s.static", "s2s.graphs", "cuda-graphs", true, 0, ""},
		{"s2s.static", "s2s.all", "cuda-graphs+allocator-churn", false, 0, ""},
		// fixtures/host19b (host19b.py; H200, 2026-11-29 12:40-12:46),
		// timed after host19's first read: levers profan ranked on
		// host19's traces that host19 did not time (tf32 on hook,
		// second on default and first on events; fused AdamW and
		// torch.compile on s2s.default, third and second), against
		// default timed again in the same session (three alternating
		// processes each). The estimates from host19's traces. Not
		// fitted. hook.tf32 48.1% against bf16's 59.7% (host19): bf16
		// is the lever measured first from default and, by the same
		// margin, from events.
		{"host19b/hook.default", "host19b/hook.tf32", "tf32", false, 0, ""},
		{"host19b/s2s.default", "host19b/s2s.fused", "fused-optimizer", false, 0, ""},
		{"host19b/s2s.default", "host19b/s2s.compile", "torch-compile", false, 0, ""},
		// fixtures/host19c (host19c.py; H200, 2026-11-29 13:57-14:03),
		// timed at the start of the next session, before its fits: the
		// levers profan ranks first on hook.bf16 (fused AdamW, 11.3%)
		// and on hook.events (tf32, 53.8%), beside the steps they change
		// and the levers measured from them in host19 (hook.all), four
		// alternating processes each; unet4's FP32 and TF32 steps timed
		// again, six processes each (host10's TF32 processes ran 7.19 to
		// 10.51 ms). The estimates from host19's and host10's traces.
		// Not fitted. From hook.events tf32 53.1% (spread 12%) and bf16
		// 51.9% (50%): tf32 is measured first in this session, by less
		// than the spread; hook.events ran 54.76 to 54.86 ms in both
		// sessions, so its bf16 processes pool: host19's three and these
		// four, median 24.44 ms (55.4%) against tf32's four at 25.70 ms
		// (53.1%). First is the lever measured first over every process
		// timed from the same step: bf16. From hook.bf16 no lever gains:
		// its processes ran 19.4 to 29.2 ms.
		// Since bf16 autocast prices SDPA's FP32 attention at the bf16
		// rate (this session's fits, below), bf16 (56.3%) ranks above
		// tf32 (53.8%) on hook.events, as host19 measured it (56.8%);
		// in this session tf32 came first by 1.2 points, under either
		// spread.
		{"host19c/hook.events", "host19c/hook.eventstf32", "tf32", false, 0, ""},
		{"host19c/hook.events", "host19c/hook.all", "bf16-autocast", true, 0, ""},
		{"host19c/hook.bf16", "host19c/hook.bf16fused", "fused-optimizer", false, 0, "within its spread (10.3% against -1.2%), but first where no lever measured from the step gains: its processes ran 19.4 to 29.2 ms a step, the step's own noise larger than any lever priced on it"},
		{"host19c/hook.bf16", "host19c/hook.all", "cuda-synchronize", false, 0, ""},
		{"host19c/unet4.fp32", "host19c/unet4.tf32", "tf32", false, 0, ""},
		// hook: a ViT-S training step (batch 64, FP32) with a per-layer
		// latency log: forward hooks and phase timers that call
		// torch.cuda.synchronize(), 32 a step. Measured from default
		// (62.64 ms): CUDA events in place of the synchronizes 12.5%
		// (spread 2%); bf16 autocast 59.7% (23%): first; both 62.2%
		// (60%: one all process ran 36.61 ms, the others 22.41 and
		// 23.70). From events (54.82 ms): bf16 56.8% (60%): first. From
		// bf16 (25.23 ms, its host now the bound): events 6.1% (60%),
		// the only lever measured from it: first. The synchronizes in
		// the hooks keep graphs from capturing any hook step.
		{"hook.default", "hook.events", "cuda-synchronize", false, 0, ""},
		{"hook.default", "hook.bf16", "bf16-autocast", true, 0, ""},
		{"hook.default", "hook.all", "cuda-synchronize+bf16-autocast", false, 0, ""},
		// First read, with main at ca37f14 (12:40): the two rows from
		// events and bf16 missed their rank (below); the rest held.
		// Fixed since, by mechanism: bf16 autocast moves SDPA from the
		// memory-efficient FP32 kernels (3xTF32, which TF32 leaves
		// alone) to cuDNN's flash kernels at the bf16 rate, which the
		// rule did not price: 52.6% → 56.3%, first (tf32 53.8%).
		{"hook.events", "hook.all", "bf16-autocast", true, 0, ""},
		// At the first read hook.bf16's note was: "within its spread
		// (1.1% against 6.1%), but third, the only lever measured from
		// the step: cuda-graphs first at 55.4% on a step its
		// synchronizes keep from capture, fused-optimizer second at
		// 11.3%, not measured". Fixed after the read, by mechanism: a
		// synchronize several times inside the step blocks capture
		// (cuda-graphs not priced, naming it at its frame).
		{"hook.bf16", "hook.all", "cuda-synchronize", true, 0, "within its spread (0.9% against 6.1%), but second, the only lever measured from the step: fused-optimizer first at 10.3%, not measured (at the first read third, cuda-graphs first at 55.4%)"},
		// Held out, captured on a branch the fitters never saw
		// (fixtures/host20, host20.py; H200, 2026-11-29 14:09-14:16):
		// rows written from the measured timings before profan first
		// read the traces (at 15:25 or later, after the last fit at
		// 15:20). First as for host15 to host19: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step. Four processes a variant.
		// amp: an fp16 AMP training step (GradScaler; foreach AdamW,
		// whose scaler.step reads found_inf with .item() every step)
		// with a weight EMA updated by a Python loop over the state
		// dict (102 tensors, 4 launches each). Measured from default
		// (22.70 ms): the EMA as one _foreach_lerp_ 21.5% (spread 26%):
		// first; AdamW(fused=True), which takes the scaler's read away
		// too, 2.5% (28%); both 37.4% (32%). From foreach (17.82 ms):
		// fused 20.2% (32%), the only lever. From fused (22.12 ms): the
		// foreach EMA 35.7% (32%), the only lever. No rule names an
		// EMA: fused-optimizer, whose for-loop collapse is the EMA
		// lever's mechanism, is the rule of both levers, so its one
		// estimate from default meets two measured gains.
		// First read, with main at 85943a1 (15:25): three of the five
		// missed (below); the rest held.
		// At the first read the row was fused-optimizer's: "within its
		// spread (6.2% against 21.5%), but third: no rule prices the
		// EMA's loop (host20.py(120): update, 13.19 ms of other Python
		// and 3.09 ms of copy calls in the four profiled steps),
		// fused-optimizer prices AdamW's foreach step alone; cuda-graphs
		// first at 63.4% (the regions between the scaler's read), not
		// measured"; and amp.fused → amp.all's: "not advised: AdamW is
		// fused already (in use), and the EMA's loop over the state
		// dict lies outside Optimizer.step's range, which no rule
		// prices; cuda-graphs first at 65.5%, not measured". Fixed
		// after the read, by mechanism: foreach-loop reads a user line
		// whose Python spans interleave with elementwise ops alone, once
		// a tensor, outside any annotated range, and collapses each
		// step's loop into multi-tensor launches as fused-optimizer
		// collapses a for-loop step.
		// Since host20c (below) measured CUDA graphs from amp.default
		// at 43.2%, the EMA's foreach is no longer the lever measured
		// first: cuda-graphs ranking above it is right.
		{"amp.default", "amp.foreach", "foreach-loop", false, 0, ""},
		{"amp.default", "amp.fused", "fused-optimizer", false, 0, ""},
		{"amp.default", "amp.all", "fused-optimizer", false, 0, ""},
		{"amp.foreach", "amp.all", "fused-optimizer", true, 0, "within its spread (12.8% against 20.2%), but second: cuda-graphs first at 37.4% (the model graphed, the scaler's read and the optimizer eager), not measured from amp.foreach; torch-compile third at 11.4%"},
		{"amp.fused", "amp.all", "foreach-loop", true, 0, "within its spread (26.8% against 35.7%), but second: cuda-graphs first at 65.5% (the whole step: its fused AdamW takes found_inf on the device, no read splits it), not measured"},
		// ctc: a CTC speech training step; F.ctc_loss reads the input
		// and target lengths held on the GPU (a data-dependent host
		// read: the loss's shapes), the CER log reads the argmax with
		// .tolist() and scores it in Python every step. Measured from
		// default (13.02 ms): lengths on the CPU 2.6% (21%); the CER
		// every 50 steps 7.9% (53%: every50's processes ran 8.50 to
		// 14.91 ms): first, above cpulen by less than the spread; both
		// 17.2% (31%). From cpulen (12.69 ms): every50 15.1% (31%), the
		// only lever. From every50 (11.99 ms): cpulen 10.1% (53%), the
		// only lever.
		{"ctc.default", "ctc.cpulen", "host-read", false, 0, ""},
		// First read, with main at 85943a1 (15:25): the three rows
		// whose lever is measured first missed their rank (below).
		// At the first read: "within its spread (0.0% against 7.9%), but
		// third: step-read replays the reads' waits alone, not the decode
		// and edit distance that run on the host after the CER's read,
		// which reading every 50 steps also removes, and it names the
		// loss's syncs (aten::ctc_loss at host20.py(249): step,
		// CtcLossBackward0) as a read in a loop of the step;
		// torch-compile first at 22.1%, not measured". Fixed after the
		// read, by mechanism: step-read names the CER's .tolist() and
		// replays its wait and the Python after it made every 50 steps.
		{"ctc.default", "ctc.every50", "step-read", true, 0, "within its spread (0.6% against 7.9%), but third: step-read names the CER's .tolist() at host20.py(233): cer and prices its wait and the decode and edit distance after it made every 50 steps, 0.6% (the trace's CER Python is about 0.45 ms of a 35 ms profiled step: the untrained model's decode is nearly empty), where about 1 ms a step was measured; fused-optimizer first at 12.0% (measured 6.0% in host20b), torch-compile second at 8.6% (measured -6.1%)"},
		{"ctc.default", "ctc.all", "host-read+step-read", false, 0, ""},
		// At the first read: "within its spread (0.1% against 15.1%), but
		// third, as from default: the CER's Python after its read not
		// priced; torch-compile first at 23.0%, not measured".
		{"ctc.cpulen", "ctc.all", "step-read", true, 0, "within its spread (0.7% against 15.1%), but third, as from default: the CER's wait and the Python after it, made every 50 steps, replayed at 0.7%; fused-optimizer first at 11.4% and torch-compile second at 10.6%, neither measured from cpulen"},
		// At the first read: "within its spread (none against 10.1%), but
		// not advised: the loss's read of the GPU lengths (aten::ctc_loss
		// → cudaStreamSynchronize at host20.py(249): step) is taken for
		// step-read's read in a loop, priced 0.0%; cuda-graphs first at
		// 71.6% on a step whose kernels' grids change with the batch's
		// lengths (its advice says so), not measured". Fixed after the
		// read, by mechanism: host-read names the op's reads of its
		// arguments; cuda-graphs is not priced on a step an op's reads
		// keep from capture.
		{"ctc.every50", "ctc.all", "host-read", true, 0, "within its spread (0.0% against 10.1%), but sixth: host-read names the loss's reads of its GPU arguments (aten::ctc_loss → cudaStreamSynchronize at host20.py(249): step, 4 device-to-host copies a step: the lengths' and the targets') and prices their copies' calls and waits, 0.0% on a step the host bounds; fused-optimizer first at 16.0% and torch-compile second at 11.9%, neither measured from every50"},
		// fixtures/host20b (host20b.py; H200, 2026-11-29 15:25-15:30),
		// timed after host20's first read: levers profan ranked on
		// host20's traces that host20 did not time (torch.compile,
		// second on amp.default and first on ctc.default; fused AdamW,
		// second on ctc.default), against the steps timed again in the
		// same session (three alternating processes each). The estimates
		// from host20's traces. Not fitted. From ctc.default (11.11 ms in
		// this session, 13.02 in host20's: the sessions do not pool):
		// fused 6.0% (spread 45%), compile -6.1% (28%): fused is the lever
		// measured first in this session, by less than the spread.
		{"host20b/amp.default", "host20b/amp.compile", "torch-compile", false, 0, ""},
		// At the first read: "first at 22.1%, measured -6.1% (spread
		// 28%): the recognizer compiled ran no faster in this session
		// (10.34 to 13.65 ms against 10.89 to 13.42), where the replay
		// drops the chains' launches and their ops' host time". Since,
		// by mechanism: the loss's backward (CtcLossBackward0,
		// LogSoftmaxBackward0) stays eager as the loss does, and an op
		// that keeps a GEMM's launch keeps its dispatch (a launch's
		// worth off it for each launch fused away): 19.5%; and
		// a fused chain keeps each of its reductions a kernel (inductor
		// fuses element-wise ops into a reduction, not two reductions into
		// one): 14.5%; and inductor's split reductions (a weight's or
		// bias's gradient sum in the backward two or three Triton
		// kernels where eager runs one, host20c's compiled trace) add
		// their launches' host back: 11.5%, second to fused-optimizer;
		// an attention op's own kernels beside its attention kernel
		// stay eager: 10.8%.
		{"host20b/ctc.default", "host20b/ctc.compile", "torch-compile", false, 0, ""},
		{"host20b/ctc.default", "host20b/ctc.fused", "fused-optimizer", true, 0, ""},
		// fixtures/host20c (host20c.py; H200, 2026-11-29 17:02-17:07),
		// timed at the start of the next session, before any fit of it:
		// levers profan ranked first that no capture had timed, against
		// the steps timed again in the same session (three alternating
		// processes each), the estimates from host20's and host15's
		// traces. Not fitted. From amp.default (26.01 ms in this session):
		// the classifier's forward and backward graphed by
		// make_graphed_callables (the scaler's read, AdamW and the EMA's
		// loop eager) 43.2% (spread 11%): above the EMA's foreach (21.5%
		// in host20's session), so graphs are the lever measured first;
		// from amp.all (16.67 ms) the same graphs 53.0% (no trace of
		// amp.all to price it from). From voxel.fixed (8.89 ms): the
		// model compiled 48.4% (21%), bf16 autocast 7.4% (1%).
		// At the landing the row's note was: "first, but over by 20
		// points: priced for the regions between the scaler's read,
		// where the graphed callables cover the classifier's forward and
		// backward alone, and the scaler's unscale and read, AdamW's
		// step and the EMA's loop stay eager". Fixed after, by
		// mechanism: where GradScaler's read splits the step, the replay
		// graphs the model's forward calls and its backward alone
		// (Lever.Model), the rest eager: 63.4% → 39.9%.
		{"host20c/amp.default", "host20c/amp.graphed", "cuda-graphs", true, 0, ""},
		// Was a known miss, under by 31 points (17.9%): each fused chain
		// priced at its longest eager launch, where inductor's own gather,
		// index_add and sums ran 3 to 5 times faster than ATen's
		// (host20c's traces: 5.07, 5.68 and 3.84 ms of the four profiled
		// steps to 1.05, 1.83 and 0.72). Fixed by mechanism: the reader
		// keeps the bytes each kernel's op moves (record_shapes), and the
		// fused kernels are priced at that memory floor: 48.4%.
		{"host20c/voxel.fixed", "host20c/voxel.compile", "torch-compile", true, 0, ""},
		{"host20c/voxel.fixed", "host20c/voxel.bf16", "bf16-autocast", false, 0, ""},
		// Held out, captured on a branch the fitters never saw
		// (fixtures/host21, host21.py; H200, 2026-11-29 17:07-17:13):
		// rows written from the measured timings before profan first
		// read the traces (at 18:40, after the fitters' cutoff at
		// 18:35). First as for host15 to host20: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step; none where no lever measured from the step
		// gains. Three processes a variant (aug.all two).
		// mlm: a masked-LM pretraining step, gradient accumulation over
		// 4 micro-batches, the loss on the masked positions by
		// boolean-mask indexing (labels = ids[mask], head(h[mask]): two
		// nonzero host reads a micro-batch, data-dependent shapes), a
		// log reading each micro-batch's loss and the clipped gradient
		// norm with .item() (five reads a step). Measured from default
		// (39.47 ms): a fixed number of masked positions a sequence,
		// gathered (maxpred, BERT's max_predictions_per_seq) 20.1%
		// (spread 30%): first; the losses summed on the GPU and the log
		// read every 50 steps (lazylog) -6.3% (17%); both 8.9% (15%).
		// From maxpred (31.54 ms): lazylog -14.0% (30%), the only lever,
		// no gain. From lazylog (41.97 ms): maxpred 14.3% (17%), the
		// only lever.
		// First read, with main at 5713ddc (18:40): the three rows of
		// host-read missed in value (below), right in rank; the two of
		// step-read held.
		// At the first read the rows of host-read were: "first, but
		// over by 40 points: host-read takes mlm_loss's reads (two a
		// micro-batch, 8 a step) for a loop over a batch's items entered
		// once a read, as a detector's per-image postprocess, and
		// replays the step with mlm_loss's host time and launches one
		// read's worth: the encoder's forward that mlm_loss calls cut to
		// an eighth, where the fixed masked positions keep the four
		// micro-batches and remove the reads alone; its fix speaks of
		// boxes and NMS" (59.6%), "over by 55 points: host-read's
		// collapse of mlm_loss as a per-item loop, as on the row above;
		// step-read priced at 0.0%" (63.9%) and "first, but over by 48
		// points: host-read's collapse of mlm_loss as a per-item loop,
		// as from default" (62.8%). Fixed after, by mechanism: a frame
		// whose stretch in the step holds autograd's backward ops is
		// entered once a micro-batch, not once an item (host18's
		// post_image holds none), and its reads are priced as syncs no
		// longer waited for, the forward and backward kept: 0.2%, 0.2%
		// and 0.0%.
		{"mlm.default", "mlm.maxpred", "host-read", true, 0, "within 30 points (0.2% against 20.1%, spread 30%) but third, after torch-compile (8.6%, measured 1.7% in host21b's session) and fused-optimizer (3.4%, not measured): the replay, the host ahead of the GPU (14.7 ms of kernels a step of 39.5), finds no wait to take away, and the fixed positions' other gain, the mask's ops (nonzero, index, IndexBackward0's accumulating index_put: 76 launches a step more than the gather's) and their host time, is not priced"},
		{"mlm.default", "mlm.lazylog", "step-read", false, 0, ""},
		{"mlm.default", "mlm.all", "host-read+step-read", false, 0, ""},
		{"mlm.maxpred", "mlm.all", "step-read", false, 0, ""},
		{"mlm.lazylog", "mlm.all", "host-read", true, 0, "within 17 points (0.0% against 14.3%) but third, after torch-compile (11.8%) and fused-optimizer (3.9%), neither measured: the mask's reads priced as syncs removed find no wait, the mask's ops and their host time not priced, as from default"},
		// aug: a ResNet-style classifier's training step whose GPU
		// augmentation (crop, flip, brightness and contrast jitter,
		// normalization) runs one image at a time in a Python loop
		// (about 12 small launches an image, 64 images), with a metrics
		// log that copies the predictions and labels to numpy with
		// .cpu().numpy() every step. Measured from default (30.23 ms):
		// the batch augmented at once (batched) 32.9% (spread 14%):
		// first; the confusion matrix on the GPU, read every 50 steps
		// (gpumetric) 18.6% (19%); both 40.9% (14%). From batched
		// (20.27 ms): gpumetric 11.9% (6%), the only lever. From
		// gpumetric (24.60 ms): batched 27.4% (19%), the only lever. No
		// rule names a per-item loop over the batch: foreach-loop, whose
		// collapse of a Python loop's per-tensor launches into a few
		// multi-tensor ones is the batched augmentation's mechanism, is
		// the rule of that lever.
		// First read, with main at 5713ddc (18:40): four of the five
		// missed (below): no lever for the per-image loop; step-read
		// third where measured first.
		// First-read record (foreach-loop the lever named): aug.default
		// → aug.batched "not advised: no rule prices a per-item loop over
		// the batch, and foreach-loop does not speak on aug_loop
		// (host21.py(157), 24.92 ms of other Python in the four profiled
		// steps), whose per-image ops (select and slice views, flip,
		// clamp_, mean, stack) fall outside its elementwise update ops;
		// cuda-graphs first at 42.1% on a step whose augmentation draws
		// its parameters with Python's random every step, not measured";
		// aug.default → aug.all "under by 25 points: step-read's 15.9%
		// alone, the per-image loop not priced (the row above)";
		// aug.gpumetric → aug.all "not advised: the per-image loop not
		// priced, as from default; torch-compile first at 8.8%, not
		// measured". After it, item-loop (a sibling of foreach-loop for a
		// per-item loop over a batch: the loop's host and launches made
		// one iteration's worth) names the loop; from default in value,
		// from gpumetric not (below).
		// At the first read, and after item-loop was added: "within 6
		// points (38.4% against 32.9%), but second: cuda-graphs first at
		// 42.1% on a step whose augmentation draws its parameters with
		// Python's random every step, not measured". Fixed after, by
		// mechanism: a step with a per-item loop of the user's has its
		// graphs priced for the model alone (Lever.Model), the loop
		// eager: cuda-graphs 42.1% → 6.0%, fifth.
		{"aug.default", "aug.batched", "item-loop", true, 0, ""},
		{"aug.default", "aug.gpumetric", "step-read", false, 0, ""},
		{"aug.default", "aug.all", "item-loop+step-read", false, 0, ""},
		{"aug.batched", "aug.all", "step-read", true, 0, "within 10 points (5.4% against 11.9%), but third, the only lever measured from the step: torch-compile first at 28.5% and channels-last second at 27.6%, neither measured"},
		// At the first read of item-loop the note was: "under by 27
		// points (0.1% against 27.4%): the replay's unprofiled gpumetric
		// step is 18.82 ms against 24.60 ms measured, bound by its
		// kernels (19.8 ms a profiled step, cuDNN's NCHW batch norm 44%
		// of it), so the loop's host time, taken away, hides behind the
		// GPU; torch-compile first at 8.8%, not measured". Since,
		// item-loop keeps the loop's kernels above the launch floor, as
		// its text says (it kept them whole): 0.1% → 2.8%; and the replay
		// keeps the GPU's gap between queued kernels, once a launch left
		// in the collapsed loop: 6.9%. The base was checked
		// (TestReplayTraced): replayed at its traced costs the step is
		// 37.73 ms against the trace's 37.68.
		{"aug.gpumetric", "aug.all", "item-loop", true, 0, "under by 21 points (6.9% against 27.4%): the replay's unprofiled gpumetric step, 20.18 ms (its kernels 18.57 ms a step and the GPU's gaps between them), is 0.99 of the 20.32 ms its own process timed unprofiled before the trace, where the variant's other two processes timed 24.60 and 24.87 ms (spread 19%): the traced process's host ran fast, which no trace of it tells, and the loop's host time, taken away, hides behind the GPU there; from 20.32 ms aug.all's processes (17.85 ms) are 12.2% under it; the graph is whole (at its traced costs the step replays to 37.73 ms against the trace's 37.68); torch-compile first at 14.9%, not measured"},
		// fixtures/host21b (host21b.py; H200, 2026-11-29 17:45-17:51),
		// timed by the lead before host21's first read, from the ranks
		// profan gave host21's traces at 17:43 (no fitter saw host21 or
		// these timings before the read): levers host21 did not time,
		// against the steps timed again in the same session (two
		// processes a variant, three of aug.default: the budget cut the
		// third round). The estimates from host21's traces. Not fitted.
		// From aug.default (34.20 ms in this session): channels-last
		// 25.3% (spread 13%), the ResNet graphed by
		// make_graphed_callables 14.5% (13%), compiled 1.6% (13%);
		// none above the batched augmentation (32.9% in host21's
		// session), so none is held first. From mlm.default (44.25 ms):
		// the encoder compiled 1.7% (11%), under maxpred's 20.1%.
		// At its landing the row's note was: "first at 42.1%, measured
		// 14.5% (spread 13%): the replay drops the host's ops and Python
		// around every launch of the step, where graphs can hold the
		// ResNet alone (make_graphed_callables): the per-image
		// augmentation loop (host21.py(157): aug_loop, about 13 launches
		// an image, and its Python), the loss, SGD and the numpy metrics
		// stay eager, and a graph of the loop would replay one draw of
		// Python's random crop and jitter". Fixed after, by mechanism:
		// where the step holds a per-item loop of the user's (item-loop's),
		// graphs are priced for the model's forward calls and its
		// backward alone (Lever.Model), the advice says why: 6.0%, fifth.
		{"host21b/aug.default", "host21b/aug.graphed", "cuda-graphs", false, 0, ""},
		{"host21b/aug.default", "host21b/aug.compile", "torch-compile", false, 0, ""},
		{"host21b/aug.default", "host21b/aug.channelslast", "channels-last", false, 0, ""},
		// The row held at its landing, host-read first at 59.6% (the
		// mask's reads taken for a per-item loop); since host-read
		// prices them as syncs removed (0.2%), torch-compile is first.
		{"host21b/mlm.default", "host21b/mlm.compile", "torch-compile", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host22,
		// host22.py; H200, 2026-11-29 20:16-20:22): rows written from
		// the measured timings before profan first read the traces (at
		// 21:40, after the fitters' cutoff at 21:35). First as for
		// host15 to host21: the lever with the largest positive measured
		// gain of the levers measured alone from the same step; none
		// where no lever measured from the step gains. Three processes a
		// variant (rec.all and ddpm.all four).
		// rec: a DLRM-style CTR training step whose map-style Dataset
		// parses Criteo-style text lines and hashes 26 string fields
		// (zlib.crc32) in the main process (num_workers=0), and whose
		// forward deduplicates each of 26 tables' ids with
		// torch.unique(return_inverse=True) before the lookup (26 host
		// reads a step, data-dependent shapes). Measured from default
		// (19.53 ms; its traced r1 process 26.88): DataLoader workers
		// 36.3% (spread 44%): first; the lookup without unique
		// (nodedup) 27.2% (44%); both 67.5% (44%). From workers (12.44
		// ms): nodedup 48.9% (27%), the only lever. From nodedup (14.22
		// ms): workers 55.3% (29%), the only lever.
		{"rec.default", "rec.workers", "data-loader", true, 0, ""},
		{"rec.default", "rec.nodedup", "host-read", false, 0, ""},
		{"rec.default", "rec.all", "data-loader+host-read", false, 0, ""},
		// First read, with main at 8a2c7ab (21:40): the rows of rec held
		// but this one; ddpm's held only from default to bf16.
		// At the first read the row's note was: "under by 48 points (0.5%
		// against 48.9%) and second, behind fused-optimizer (7.9%, not
		// measured): host-read prices the 26 torch.unique reads as syncs
		// no longer waited for (0.05 ms a step), where the lookup without
		// unique also drops the dedup's ops and their host time". Fixed
		// after, by mechanism: the unique op dropped (c46df7c, 19.4%), then
		// the gather by its inverse after the lookup and its
		// IndexBackward0 (indexing_backward_kernel, 39.1% of the kernel
		// time): 33.3%, first.
		{"rec.workers", "rec.all", "host-read", true, 0, ""},
		{"rec.nodedup", "rec.all", "data-loader", true, 0, ""},
		// ddpm: a latent-diffusion UNet training step (batch 64 of 4 x
		// 32 x 32, channels 128-256-512, PyTorch's default precision)
		// whose noise schedule is kept in numpy: each sample's
		// coefficients and min-SNR weight looked up by int(t) in a Python
		// loop over the GPU-drawn timesteps (64 host reads a step, values
		// read every step, none sizing a tensor: step-read's by
		// host-sync's division; the fix keeps the schedule on the GPU and
		// gathers it, no read at all), sent back by torch.tensor(...,
		// device="cuda"). Measured from default (41.77 ms): the schedule
		// gathered on the GPU (gather) 7.6% (spread 6%): first; bf16
		// autocast -1.7% (17%): no gain, the precision change leaves the
		// step where it was; both -23.2% (17%). From gather (38.59 ms):
		// bf16 -33.4% (17%), the only lever, no gain. From bf16 (42.49
		// ms): gather -21.1% (17%), the only lever, no gain: with the
		// reads gone the bf16 step ran slower (three of ddpm.all's four
		// processes 51.28 to 51.92 ms, one 42.92).
		// At the first read: 0.9%, seventh: step-read replayed the 64 reads
		// without their waits (0.36 ms a step) and kept the loop around them
		// (selects, items, numpy lookups, three pageable uploads). Fixed
		// after, by mechanism: a loop of reads with no launch between whose
		// values go back as uploads is gathered on the GPU, the host's whole
		// stretch between the launches around it gone (Lever.Gather): 7.9%.
		{"ddpm.default", "ddpm.gather", "step-read", true, 0, "within 1 point (7.9% against 7.6%) but fourth, behind torch-compile (14.4%; host22b measured 12.7%), cuda-graphs (10.7%; host22b 16.9%) and bf16-autocast (8.8%; measured -1.7%): the rank is theirs (their rows)"},
		{"ddpm.default", "ddpm.bf16", "bf16-autocast", false, 0, ""},
		// At the first read: 9.1%; 11.2% since step-read prices the loop
		// around the reads (its row).
		// Then 11.2%, over by 34 points: bf16-autocast added too little
		// of autocast's own host work. Since each cast it adds is priced
		// as the replay prices a traced one (Lever.Casts): -1.5%.
		{"ddpm.default", "ddpm.all", "step-read+bf16-autocast", false, 0, "over by 22 points (-1.5% against -23.2%; 11.2% before the casts autocast adds were priced as the replay prices a traced one): the bf16 step priced from default's trace (43.3 ms) lands on bf16's measured 42.49 (ddpm.default → ddpm.bf16, -3.9% against -1.7%), but with the reads gone the bf16 step measured slower still (51.46 ms), a slowdown no trace of the variant shows (ddpm.all was not traced)"},
		// Then first at 21.2%: priced from the kernels' shrink with the
		// host floor kept and too little of autocast's casts. Since each
		// cast is priced as the replay prices a traced one: 7.7%, third.
		{"ddpm.gather", "ddpm.all", "bf16-autocast", false, 0, "over by 41 points (7.7% against -33.4%, spread 17%; first at 21.2% before the casts autocast adds were priced as the replay prices a traced one, now third behind torch-compile and tf32): ddpm.all measured slower than bf16 from default (51.46 ms in three of its four processes, 42.92 in one, against bf16's 42.49), the slowdown of bf16 without the reads that ddpm.bf16 → ddpm.all shows, which no trace holds"},
		// At the first read: 0.3% (the reads' waits); 1.9% since step-read
		// prices the loop around them.
		{"ddpm.bf16", "ddpm.all", "step-read", false, 0, "over by 23 points (1.7% against -21.1%, spread 17%): the reads' removal measured a slowdown of the bf16 step (three of ddpm.all's four processes 51.28 to 51.92 ms against bf16's 42.49) that no replay of bf16's trace prices, the loop of reads and uploads gathered on the GPU 0.63 ms a step; ddpm.all was not traced, so the mechanism is not in the fixture"},
		// fixtures/host22b (host22b.py; H200, 2026-11-29 20:27-20:34),
		// timed by the lead before host22's first read, from the ranks
		// profan gave host22's traces at 20:25 (no fitter saw host22 or
		// these timings before the read): levers host22 did not time,
		// against the steps timed again in the same session (two
		// processes a variant: the budget cut the third round). The
		// estimates from host22's traces. Not fitted. First as above:
		// the largest positive measured gain of the levers measured from
		// the same step, over both sessions. From ddpm.default (46.66 ms
		// in this session, spread 5%): the UNet graphed by
		// make_graphed_callables 16.9%, compiled 12.7%, both above
		// gather's 7.6% (host22's session): graphs first, though the gap
		// to compile is within the spread. From ddpm.gather (40.37 ms):
		// TF32 9.7%, channels-last -6.3%; the UNet compiled 14.1%
		// (fixtures/host22c, 20:48-20:50, three processes a variant,
		// spread 1.5%): first. From rec.default (24.97 ms, spread 22%):
		// the fused Adam 6.7%, under the workers' 36.3%. From
		// rec.nodedup (18.21 ms): the DLRM graphed 39.0%, compiled
		// 4.8%, under the workers' 55.3%.
		// At hostcompile24's landing the row's note named torch-compile
		// at 22.1%; 12.8% since the compiled forward keeps its host
		// (host24c), the next row.
		{"host22b/ddpm.default", "host22b/ddpm.graphed", "cuda-graphs", true, 0, "within 7 points (10.7% against 16.9%) but second, behind torch-compile (14.4%, measured 12.7%): the gap between the two measured (4.2 points) is within the default's spread (5%), and the two priced are 3.7 points apart"},
		// At hostcompile24's landing the note was: "over by 9 points and
		// first (22.1% against 12.7%): ... the rest of the compiled code's
		// own host work (Dynamo's guards, AOTAutograd's wrappers, the
		// generated call's buffer allocations and views between the
		// launches) is not priced". Fixed after, by mechanism (host24c's
		// traces without with_stack): on a training step the compiled
		// forward costs the host what the eager forward did, so only its
		// kernels' time goes; the backward as before.
		{"host22b/ddpm.default", "host22b/ddpm.compile", "torch-compile", false, 0, "within 2 points (14.4% against 12.7%) but first, 3.7 points ahead of cuda-graphs (10.7%, measured 16.9%, the rank measured): the graphs' price is the miss (their row)"},
		{"host22b/ddpm.gather", "host22b/ddpm.gathertf32", "tf32", false, 0, ""},
		// At the first read the row's note was: "over by 12 points (5.8%
		// against -6.3%, spread 8%): priced as 65% of cuDNN's NCHW-NHWC
		// conversions (a share measured on a batch-norm CNN), where this
		// UNet normalises with GroupNorm and its input stays NCHW". Fixed
		// after, by mechanism: GroupNorm has no channels_last kernel (it
		// makes its input contiguous), so the conversions around the
		// convolutions next to one stay as ATen's copies; with a
		// GroupNorm a forward convolution or more, nothing is saved and
		// channels-last is not advised (0.0%).
		{"host22b/ddpm.gather", "host22b/ddpm.gathercl", "channels-last", false, 0, ""},
		// Then a known miss, second behind bf16-autocast (21.2%,
		// measured -33.4%); first since autocast's casts are priced
		// (bf16-autocast 7.7%, third).
		{"host22c/ddpm.gather", "host22c/ddpm.gathercompile", "torch-compile", true, 0, ""},
		{"host22b/rec.default", "host22b/rec.fused", "fused-optimizer", false, 0, ""},
		{"host22b/rec.nodedup", "host22b/rec.nodedupgraphed", "cuda-graphs", false, 0, ""},
		{"host22b/rec.nodedup", "host22b/rec.nodedupcompile", "torch-compile", false, 0, ""},
		// fixtures/host22d (host22d.py; H200, 2026-11-29 23:01-23:06),
		// timed by hostlead23 after writing down profan's prices on
		// host22's traces at da6a12d (not tuned after): from ddpm.bf16
		// (58.45 ms in this session, three processes 18% apart; the
		// machine ran host-bound steps slower than host22's, where
		// ddpm.bf16 took 42.49 ms) the UNet's forward and backward
		// graphed by make_graphed_callables under autocast 56.5% (two
		// processes, 25.33 and 25.48 ms): first, above gather's -21.1%.
		{"host22d/ddpm.bf16", "host22d/ddpm.bf16graphed", "cuda-graphs", true, 0, "under by 21 points (35.4% against 56.5%, spread 18%; 29.1% before autocast's casts kept castKeep of their traced time), first as measured: the graphs' saving is the host time of the UNet's ops replayed out of bf16's step, and that step replays at 36.54 ms (32.89 before) against 41.64 in its traced process and 42.49 measured in host22's session (58.45 here): the casts' 10.8 ms a step as traced (467 a step, 0.97 of the trace's launch's worth each) at 0.75 leave the rest of autocast's host (its dispatch of each eligible op twice, the ToCopyBackward0 nodes' own evaluation) at the profiler's share, so the host time the graphs take away is still under-priced; graphed, the step runs at 25.4 ms, near its kernels"},
		// Held out, captured after the fits began (fixtures/host23,
		// host23.py; H200, 2026-11-29 23:13-23:18): rows written from
		// the measured timings before profan first read the traces (at
		// 00:35, after the fitters' cutoff at 00:30). First as for
		// host15 to host22: the lever with the largest positive measured
		// gain of the levers measured alone from the same step; none
		// where no lever measured from the step gains. Three processes a
		// variant (nerf.all and ppo.all two).
		// nerf: a NeRF training step (the original 8 x 256 MLP with its
		// encodings, FP32 with TF32 off for matmuls, Adam foreach) on
		// 8192 rays x 64 samples from a ring held on the GPU, about 30%
		// of the samples kept by a 128^3 occupancy grid through
		// boolean-mask indexing (x[m], raw[m] = out: two nonzero reads a
		// step, data-dependent shapes); the MLP's FP32 GEMMs are the
		// step's bulk. Measured from default (20.85 ms; its traced r1
		// process 20.38): bf16 autocast 47.2% (spread 19%): first; the
		// fixed capacity (a cumsum compaction into 176128 slots, no
		// read, 10% more rows through the MLP) 4.4% (3%); both 60.6%
		// (5%). From cap (19.93 ms): bf16 58.8% (5%), the only lever.
		// From bf16 (11.02 ms): cap 25.4% (19%), the only lever: with
		// the kernels shrunk the two reads' waits are the step's.
		{"nerf.default", "nerf.bf16", "bf16-autocast", true, 0, ""},
		{"nerf.default", "nerf.cap", "host-read", false, 0, ""},
		{"nerf.default", "nerf.all", "host-read+bf16-autocast", false, 0, ""},
		// Held at the first read (57.0%, first, tf32 56.9% second); a
		// known miss since the casts autocast adds are priced as the
		// replay prices a traced one (Lever.Casts).
		{"nerf.cap", "nerf.all", "bf16-autocast", true, 0, "within 3 points (55.8% against 58.8%, spread 5%; 54.8% before hostfix31b priced its ReLUs' bytes, 56.0% before its casts ran on the GPU too) but second, behind tf32 (56.9%, not measured from cap): autocast's casts (2.3 a linear, forward and backward) now cost the host 0.9 of the trace's launch's worth each (19.3 µs as traced), where tf32 is over-priced on this MLP (host23b measured it from default at 44.0%, priced 51.8%; bf16 47.2%, priced 58.4%); the 0.1-point lead bf16 held before is gone"},
		// First read, with main at dc10350 (00:35): the rows of nerf
		// held but this one; ppo's held in value, two not in rank.
		{"nerf.bf16", "nerf.all", "host-read", true, 0, "under by 25 points (0.0% against 25.4%, spread 19%; 1.9% before autocast's casts kept castKeep of their traced time, which the waits now hide under) and third, behind torch-compile (17.0%; host23b measured the MLP compiled from bf16 at -2.4%, host24c 8.4%) and fused-optimizer (5.6%, not measured): host-read prices the three mask reads (aten::index, aten::index_put_ and IndexPutBackward0 → cudaStreamSynchronize at host23.py(158): step) as syncs no longer waited for, 0.19 ms a step, where the profiled waits are 0.04 ms a step (the profiled host, 20.2 ms a step against 10.18 ms unprofiled in the traced process, finds the GPU drained at each read); the replayed unprofiled bf16 step (9.97 ms, 9.85 before the casts kept castKeep) stays host-bound without the waits, while nerf.all measured 8.22 ms, under that floor: the fixed capacity takes more from the step than the reads' waits, and the lever prices none of it (the boolean mask's own ops, aten::index's nonzero and its count's copy back, index_put_ and IndexPutBackward0's second nonzero, hold about 1.0 ms of the profiled step's host, as host21's mlm mask and host22's rec unique did); nerf.all was not traced, so the rest of the gap is not in the fixture"},
		// ppo: a PPO update (SB3's loop: 4 epochs x 2 minibatches of
		// 8192, actor and critic MLPs 128-256-256, clip_grad_norm_,
		// Adam foreach, FP32) whose logging reads the policy, value and
		// entropy losses and the clip fraction with .item() and the
		// approximate KL with .cpu().numpy() every minibatch (40 reads a
		// step, none sizing a tensor), on a step its launches bound.
		// Measured from default (46.23 ms; its traced r1 process 49.83):
		// fused Adam 15.3% (spread 16%): first; the statistics kept on
		// the GPU (noread) 1.3% (16%): the reads cost nearly nothing;
		// both 8.8% (16%). From noread (45.61 ms): fused 7.6% (10%), the
		// only lever. From fused (39.16 ms): noread -7.6% (8%), the only
		// lever, no gain.
		// First read, with main at dc10350 (00:35): cuda-graphs first on
		// default and noread, which host23b (timed by the lead before the
		// read) measured above every lever host23 timed.
		{"ppo.default", "ppo.fused", "fused-optimizer", true, 0, "within 6 points (9.4% against 15.3%) but second, behind cuda-graphs (87.5%): the row took fused Adam first among the levers host23 timed; host23b then measured the minibatch captured as one CUDA graph (the five logging reads kept after each replay, the distributions' argument validation off) at 80.4% from default (spread 8%), so graphs first is right by measurement and the row's first is the one refuted"},
		{"ppo.default", "ppo.noread", "step-read", false, 0, ""},
		{"ppo.default", "ppo.all", "step-read+fused-optimizer", false, 0, ""},
		{"ppo.noread", "ppo.all", "fused-optimizer", true, 0, "within 1 point (8.4% against 7.6%) but second, behind cuda-graphs (87.2%): host23b measured the minibatch graphed from noread at 81.4% (spread 4%), so, as from default, the row's first is the one refuted"},
		{"ppo.fused", "ppo.all", "step-read", false, 0, ""},
		// host23b: the levers profan ranked first on host23's traces at
		// fa574f6 (before the read, prices written down before the call)
		// that host23 did not time, timed by the lead in one call:
		// ppo.default 42.56 ms, graphed 8.36 (80.4%, spread 8%);
		// ppo.noread 38.37, noreadgraphed 7.14 (81.4%, 4%); nerf.default
		// 20.66, tf32 11.56 (44.0%, 1%); nerf.bf16 9.57, bf16compile 9.80
		// (-2.4%, 6.5%). The graphed minibatch needs the distributions'
		// validation off (its .all() reads are in the forward).
		{"host23b/ppo.default", "host23b/ppo.graphed", "cuda-graphs", true, 0, ""},
		{"host23b/ppo.noread", "host23b/ppo.noreadgraphed", "cuda-graphs", true, 0, ""},
		{"host23b/nerf.default", "host23b/nerf.tf32", "tf32", false, 0, ""},
		// At hostcompile24's landing: 18.2% (the forward's Python, the
		// fused ops' dispatch and autocast's casts taken off the host).
		{"host23b/nerf.bf16", "host23b/nerf.bf16compile", "torch-compile", false, 0, "over by 19 points and first (17.0% against -2.4%, spread 6.5%; 11.9% while a training step's compiled forward kept its eager host whole): the MLP compiled (its row count, the mask's, changes every step: dynamic shapes after the first recompile) ran no faster in host23b's session, one process each; host24c timed the same pair in three processes holding both at 8.4% (spread 24%: one process ran the compiled step at 6.63 ms, two at 8.04 and 8.58), within its spread; its traces without with_stack show the compiled forward costing the host about what the eager one did (2.80 against 2.84 ms a step, profiled: a forward of GEMMs whose launches stay, its casts of the weights kept as Triton kernels of their own) and the compiled backward more (6.38 against 4.84 ms a step on autograd's thread), where the estimate takes the forward's fused chains' dispatch off (the weights' casts priced fused into the chain before them, which inductor keeps a kernel each, feeding cuBLAS); the rest of the gap is the bf16 step's own host as replayed (its autocast casts, which the compiled code takes away)"},
		// fixtures/host24c (host24c.py; H200, 2026-11-30 02:03-02:07),
		// timed by hostcompile24 after writing down profan's prices on
		// the eager steps' earlier traces at 2475795 (not tuned after):
		// each process holds both variants of its family, timed in
		// alternating chunks, three processes a family (unet two).
		// ddpm.default 40.39 ms, compile 34.01 (15.8%, spread 3.1%);
		// nerf.bf16 8.78, bf16compile 8.04 (8.4%, spread 24%: one
		// process ran the compiled step at 6.63 ms); unet.bf16 10.74,
		// bf16compile 5.40 (49.7%, spread 23%). Predicted at 2475795:
		// 22.1%, 15.5% and 26.1%, from host22's, host23's and host11's
		// traces. First as above: from ddpm.default graphs measured
		// 16.9% (host22b), from nerf.bf16 the fixed capacity 25.4%
		// (host23): compile first on unet.bf16 alone.
		{"host24c/ddpm.default", "host24c/ddpm.compile", "torch-compile", false, 0, "within 2 points (14.4% against 15.8%, spread 3.1%) but first, ahead of cuda-graphs (10.7%), where host22b measured the UNet graphed at 16.9% from the same step: the rank host22b's rows miss (their rows)"},
		{"host24c/nerf.bf16", "host24c/nerf.bf16compile", "torch-compile", false, 0, "within 9 points (17.0% against 8.4%, spread 24%) but first, where host23 measured the fixed capacity at 25.4% from nerf.bf16: host-read's miss (nerf.bf16 → nerf.all)"},
		{"host24c/unet.bf16", "host24c/unet.bf16compile", "torch-compile", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host24,
		// host24.py; H200, 2026-11-30 02:15-02:20): rows written from
		// the measured timings before profan first read the traces (at
		// 03:40, after the fitters' cutoff at 03:35). First as for
		// host15 to host23: the lever with the largest positive measured
		// gain of the levers measured alone from the same step. Three
		// processes a variant but tab.graphs, tab.all, spike.graphs,
		// spike.bf16noread, spike.bf16graphs and spike.all (two: the
		// budget cut round r3).
		// tab: an FT-Transformer (3 blocks of d 192 on 26 tokens a row,
		// batch 512, AdamW fused, TF32 on) fed by a Dataset that
		// featurises one CSV line at a time in Python (float parsing,
		// median imputation, log1p, standardising, bisect binning, crc32
		// hashing of 10 strings, a timestamp's fields). Measured from
		// default (25.68 ms; its traced r1 process 25.68; its r3 process
		// ran 15.10, the host's Python faster: spread 43%): the workers
		// (num_workers=8, pin_memory, non_blocking) 67.2%: first; the
		// model's step graphed with the loader kept 54.7% (within the
		// spread of the workers); both 86.7%. From workers (8.42 ms,
		// spread 13%; the step still host-bound: the eager model's
		// launches): graphs 59.5%, the only lever.
		{"tab.default", "tab.workers", "data-loader", true, 0, ""},
		{"tab.default", "tab.graphs", "cuda-graphs", false, 0, ""},
		{"tab.default", "tab.all", "data-loader+cuda-graphs", false, 0, ""},
		{"tab.workers", "tab.all", "cuda-graphs", true, 0, ""},
		// spike: a Llama-style LM step (6 blocks of d 768, RMSNorm,
		// rotary q and k, SwiGLU, 16 x 512 tokens, TF32 on, AdamW fused)
		// whose loss-spike guard reads the gradient norm with .item()
		// every step between the backward and the optimizer's step (the
		// value decides whether it steps). Measured from default (27.02
		// ms, spread 1%: the GPU bounds it): bf16 autocast 25.4%
		// (spread 17%): first, with the host floor (the bf16 step is
		// host-bound: graphed it falls to 16.51 ms); forward, backward
		// and clipping graphed around the read 4.8%; the guard on the
		// GPU (found_inf, no read) 3.3%. From bf16 (20.15 ms): the part
		// before the read graphed 18.1%: first; the guard on the GPU
		// 0.5% (spread 17%). From noread (26.13 ms): bf16 23.3%, the
		// only lever alone; bf16 and the whole step graphed 38.2%.
		// First read, with main at b7a83cf (03:40): the rows of tab
		// held (tab.default → tab.graphs only through its 43% spread:
		// 17.5% against 54.7%); spike's held but the two below, one
		// mechanism: the eager step's replayed host floor.
		{"spike.default", "spike.bf16", "bf16-autocast", true, 0, "under by 17 points (8.2% against 25.4%, spread 17%) and second, behind torch-compile (27.5%; host24b measured the Llama compiled from default at 26.9%, so compile first is right by measurement and the row's first is the one refuted): the lever shrinks the kernels (25.1 ms a step in default's trace to about 15.8 ms, what the traced bf16 step's kernels take) and keeps a host floor of about 24.8 ms a step, where the bf16 step measured 20.15 ms (its traced process 21.09) and its own trace replays at 23.68 ms: the replay's unprofiled host time for this eager Llama step (RMSNorm, rotary q and k and SwiGLU in eager ops, 2420 launches in four steps, 2900 under autocast) is 3.5 to 4.7 ms a step too high, which the FP32 step its GPU bounds hides (default replays at 27.02 ms against 27.02 measured) and graphs take away (bf16-autocast+cuda-graphs lands at 39.0% against 38.9%); host25c traced the same step without with_stack, and its trace prices bf16 at 18.3% against 22.9% measured there (its row; that trace replays bf16's step at 18.21 ms against 23.27 in its own process): the with_stack trace's host is the one over-kept. A per-op cost of the stack (0.04 of the trace's launch's worth an op of a dispatch span, read from host24's and host25c's FP32 traces, 45.19 against 42.47 ms a step of profiled host for 2989 ops, 0.91 µs an op) moved this row to 13.8% and graphs from bf16 to 26.9% with every row holding, but the steps the costs were fitted on away from their processes (host8's moe 0.95 → 0.87, host11's bf16 UNets 0.99 and 0.85 → 0.93 and 0.80, timeline's decode_sync 0.93 → 0.86; split 1.21 → 1.13 and mlp 1.12 → 1.07 toward) and the rows' mean error from 8.22 to 8.25 points: not adopted. host26c then measured it, each process tracing the step with and without with_stack between two timings of its own (docs/calibration-apps.md, with_stack measured): with_stack's own cost, as the replay leaves it, is +0.35 ms a step (1.6%), a process's first profiling session against a later one about 2.2 ms, and the host's speed from process to process more: host24's traced process ran every op of both threads about 20% slower than host26c's first trace of the same step (44.9 against 37.3 ms a step profiled; aten::linear 3.60 against 2.48 ms a step on the main thread, MmBackward0 208 against 170 us on autograd's), and that trace prices bf16 at 24.4% against the 17.7% host26c measured (its row): the floor is the traced process's host, not the profiler's cost"},
		{"spike.default", "spike.graphs", "cuda-graphs", false, 0, ""},
		{"spike.default", "spike.noread", "step-read", false, 0, ""},
		{"spike.default", "spike.bf16noread", "bf16-autocast+step-read", false, 0, "under by 18 points (8.2% against 25.8%, spread 3.5%): the replayed host floor of the row above (about 24.8 ms a step against bf16's measured 20.15) bounds the step with or without the read, so step-read adds nothing to bf16's price; that floor is the traced process's host speed (the row above, host26c)"},
		{"spike.default", "spike.bf16graphs", "bf16-autocast+cuda-graphs", false, 0, ""},
		{"spike.default", "spike.all", "bf16-autocast+step-read+cuda-graphs", false, 0, ""},
		{"spike.bf16", "spike.bf16graphs", "cuda-graphs", true, 0, "within its spread (29.9% against 18.1%, spread 17%) but second, behind torch-compile (35.0%; host24b measured the Llama compiled from bf16 at 44.6%, host25c 48.8%): compile first is right by measurement, and the row's first, written before host24b, is the one refuted"},
		{"spike.bf16", "spike.bf16noread", "step-read", false, 0, ""},
		{"spike.bf16", "spike.all", "step-read+cuda-graphs", false, 0, ""},
		{"spike.noread", "spike.bf16noread", "bf16-autocast", true, 0, ""},
		{"spike.noread", "spike.all", "bf16-autocast+cuda-graphs", false, 0, ""},
		// host24b: the levers profan ranked first on host24's traces
		// that host24 did not time, timed by the lead before the read
		// (fixtures/host24b, host24b.py; H200, 2026-11-30 02:31-02:35),
		// profan's prices written down before the call (2eb4c3d's
		// commit body, main at 2475795 with host24's fixture):
		// torch.compile 27.9% and first from spike.default, 32.5% and
		// first from spike.bf16. Measured: the Llama compiled in place
		// from default 26.9% (spread 3.2%), from bf16 44.6% (spread
		// 14.7%), each the largest gain measured from its step.
		{"host24b/spike.default", "host24b/spike.compile", "torch-compile", true, 0, ""},
		// At the read a known miss: 27.2%, second behind cuda-graphs, the
		// training step's compiled forward keeping its eager host whole;
		// 35.0% and first since the forward's fused ops' dispatch goes
		// (host25c's compiled Llama: 6.21 ms a step of forward host against
		// 13.45 eager, profiled).
		{"host24b/spike.bf16", "host24b/spike.bf16compile", "torch-compile", true, 0, ""},
		// host25c: host24's spike step eager and compiled (the Llama
		// compiled in place, as host24b), FP32 and bf16, the four in one
		// process a round, chunks alternating, four rounds (fixtures/host25c,
		// host25c.py; H200, 2026-11-30 05:02-05:04), and traced without
		// with_stack in the first process; read on host25c's own traces.
		// Measured: default 27.55 ms, compile 19.90 (27.8%, spread 3.2%),
		// bf16 21.24 (18.99 to 25.49: spread 31%), bf16compile 10.88
		// (48.8% from bf16; 45.4% from compile). First as above: from
		// default compile (27.8%) over bf16 (22.9%).
		{"host25c/spike.default", "host25c/spike.compile", "torch-compile", true, 0, ""},
		{"host25c/spike.default", "host25c/spike.bf16", "bf16-autocast", false, 0, ""},
		{"host25c/spike.bf16", "host25c/spike.bf16compile", "torch-compile", true, 0, ""},
		{"host25c/spike.compile", "host25c/spike.bf16compile", "bf16-autocast", true, 0, ""},
		// host26c: host24's spike step, FP32 and bf16, each process
		// traced with and without with_stack between two timings of its
		// own (fixtures/host26c, host26c.py; H200, 2026-11-30 08:04-08:06;
		// fit material, hostfloor26): read on its spike.default process's
		// first trace (with_stack, pid 860), as host24's was, whose bf16
		// row misses: the same step traced in a process whose host ran
		// as fast as most (profiled 37.3 ms a step against host24's
		// 44.9, every op of both threads about 20% slower there) prices
		// bf16 within the spread. compile first, as measured on host24b
		// (26.9%) and host25c (27.8%).
		{"host26c/spike.default", "host26c/spike.bf16", "bf16-autocast", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host25,
		// host25.py; H200, 2026-11-30 05:05-05:10): rows written from
		// the measured timings before profan first read the traces (at
		// 06:40, after the fitters' cutoff at 06:35). First as for
		// host15 to host24: the lever with the largest positive measured
		// gain of the levers measured alone from the same step. Three
		// processes a variant. The host-bound processes ran at different
		// speeds across the call (mol.default 17.31 to 23.74 ms,
		// exit.bf16 6.43 to 10.96), the graphed ones within 0.3%.
		// mol: a SchNet-style energy model (4 interaction blocks of 128,
		// 64 molecules of 12-40 atoms a batch, AdamW foreach, TF32 on)
		// fed by a Dataset that parses XYZ text and builds each radius
		// graph in numpy in the main process, a Python collate; the
		// readout reads int(batch.max()) + 1 in forward, the loop
		// loss.item() every step. Measured from default (18.72 ms,
		// spread 34%): the workers (num_workers=8, pin_memory,
		// non_blocking) 48.0%: first; no read in the step -15.3% (no
		// gain, within the spread); padded to fixed capacity with no
		// read and graphed, the loader kept, 5.6%; workers and graphs
		// 64.6%. From workers (9.74 ms, spread 6.8%): padding, no read
		// and graphs 31.9%, the only change measured (a combination: the
		// step cannot be captured as it is, its shapes change every
		// batch and its readout reads).
		{"mol.default", "mol.workers", "data-loader", true, 0, ""},
		{"mol.default", "mol.noread", "step-read", false, 0, ""},
		{"mol.default", "mol.graphs", "step-read+cuda-graphs", false, 0, "over by 46 points (51.4% against 5.6%, spread 34%): the replay takes the model step's host (its aten ops and Python between the two reads, launch-bound 27.6% and other Python 12.4% of the profiled wall) off a step whose loader stays on the thread, and prices the graphs padded to the largest shapes the four traced steps show (its kernels 2.20 ms a step against 2.14 as traced; 52.0% at the traced shapes): the loader bounds the replayed step (7.6 ms a step) with the kernels beneath it; host26d traced mol.graphs (padded to 64 x 40 + 1 atoms and 64 x 40 x 39 edges): its kernels take 6.51 ms a step beneath the next batch's loading, the overlap the replay has, and its one process timed 9.42 ms a step (host-bound on the loader, 8.46 ms issued a step), where host25's three ran 15.94 to 17.79 ms (one chunk 11.85) and its defaults 17.31 to 23.74: the host's speed across host25's processes; mol.default was not timed in host26d's call, so the row keeps host25's measure"},

		{"mol.default", "mol.all", "data-loader+step-read+cuda-graphs", false, 0, ""},
		{"mol.workers", "mol.all", "step-read+cuda-graphs", false, 0, "over by 28 points (59.4% against 31.9%, spread 6.8%): priced padded to the largest shapes the four traced steps show (up to 1735 atoms and 42058 edges a batch; its kernels 2.20 ms a step against 2.14), the least a capture of the traced batches needs, which leaves the replayed step host-bound at 3.75 ms; the capture measured pads every batch to its worst case (64 x 40 + 1 atoms, 64 x 40 x 39 edges: 1.5 and 2.4 times a mean batch's) and scatters every padding edge into the one padding atom: host26d measured its kernels at 6.51 ms a step (2.62 of them index_add_'s, 327 us a launch against 34.6 unpadded; the rest 3.89 ms against 1.86), and the replay with the traced kernels scaled by 3 (6.4 ms a step) prices the row at 30.3%: the replay holds, the padding the user chose is not in the trace"},

		// exit: an early-exit BERT-style encoder's inference (12 post-
		// norm blocks of d 768, 32 x 128 tokens, TF32 on) that reads its
		// batch exit check with .item() after every block (no batch
		// exits: all 12 run). Measured from default (5.29 ms, spread
		// 38%): the exit decided on the GPU (no read) -47.5%, bf16
		// autocast -36.3% (spread 63%), both -80.8%: no lever measured
		// alone gains, so no first; bf16, no read and the whole forward
		// graphed 45.4%. From bf16 (7.21 ms, spread 63%): no read -32.7%;
		// no read and graphs 60.0%. CUDA graphs alone (the reads kept,
		// each block between two reads one graph) were not timed.
		{"exit.default", "exit.noread", "step-read", false, 0, "over by 49 points (1.1% against -47.5%, spread 38%): the processes' host, not the lever: host26d traced exit.noread and timed both in five alternating processes each (fixtures/host26d), where the kernels take 4.10 ms a step in all ten at 1980 MHz and the host's issue time a step moves from process to process (default 4.98 to 7.28 ms, noread 3.97 to 5.30): noread measured 2.6% faster (4.91 ms against 5.04, spreads 18% and 43%), priced 10.2% on host26d's own exit.default trace (its row holds); host25's three noread processes (6.99 to 8.04 ms) ran on a slow host, as its third default (7.24) did; kept as measured, a known miss"},

		{"exit.default", "exit.bf16", "bf16-autocast", false, 0, ""},
		{"exit.default", "exit.bf16noread", "bf16-autocast+step-read", false, 0, "over by 41 points (-39.4% against -80.8%, spread 38%; 1.1% with autocast none before host38's fit advised it on inference steps): bf16-autocast is priced 39.7% slower alone on this inference step (its casts every call on a step the host bounds), which holds for bf16 alone (-36.3%, spread 63%), and step-read's part is the row above's, the host's speed by host26d (noread 2.6% faster there, its kernels unchanged); bf16noread (8.74 to 11.77 ms) was not timed again, so how much of the rest is autocast's host cost (its casts every call on a step the host then bounds) and how much the host's speed is not in the fixtures"},

		{"exit.default", "exit.all", "bf16-autocast+step-read+cuda-graphs", false, 0, ""},
		{"exit.bf16", "exit.bf16noread", "step-read", false, 0, ""},
		{"exit.bf16", "exit.all", "step-read+cuda-graphs", false, 0, ""},
		// host25b: the levers profan ranked first or second on host25's
		// traces that host25 did not time, timed by the lead before the
		// read (fixtures/host25b, host25b.py; H200, 2026-11-30
		// 05:21-05:25), profan's prices written down before the call
		// (9128e7f's commit body, main at 61eb8a6); rows added at the
		// read. Measured: from exit.default each region between two reads
		// graphed 14.0% and torch.compile -8.1% (spread 79%); from
		// exit.bf16 the region graphs 64.7%, torch.compile 14.4% (spread
		// 62%); from mol.workers the fused AdamW 7.2% (spread 29%). First
		// as above, counting host25's levers from the same step: the
		// region graphs on both exit steps (host25's noread and bf16 lost).
		{"host25b/exit.default", "host25b/exit.blockgraphs", "cuda-graphs", true, 0, ""},
		{"host25b/exit.default", "host25b/exit.compile", "torch-compile", false, 0, ""},
		{"host25b/exit.bf16", "host25b/exit.bf16blockgraphs", "cuda-graphs", true, 0, ""},
		{"host25b/exit.bf16", "host25b/exit.bf16compile", "torch-compile", false, 0, ""},
		{"host25b/mol.workers", "host25b/mol.workersfused", "fused-optimizer", false, 0, ""},
		// host26d: host25's exit.default and exit.noread timed again,
		// five alternating processes each, traced in the first, with a
		// probe of each process (fixtures/host26d, host26d.py; H200,
		// 2026-11-30 08:08-08:10), to find why host25 measured the
		// GPU-side exit 47.5% slower: the kernels take 4.10 ms a step
		// in every process, the host's speed moves from process to
		// process. Measured: default 5.04 ms (spread 43%), noread 2.6%
		// faster (spread 18%). Priced on host26d's own exit.default
		// trace. First as above over the step's levers measured in
		// host25, host25b and host26d: the region graphs (host25b,
		// 14.0%), not noread.
		{"host26d/exit.default", "host26d/exit.noread", "step-read", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host26,
		// host26.py; H200, 2026-11-30 08:10-08:15): rows written from
		// the measured timings before profan first read the traces (at
		// 09:42, after the fitters' cutoff at 09:37). First as for
		// host15 to host25: the lever with the largest positive measured
		// gain of the levers measured alone from the same step (a
		// combination row never carries it). Three processes a variant;
		// each eager spec variant's first process ran slower (default
		// 9.79 against 6.79 and 7.03 ms), the graphed ones within 0.2%.
		// clip: a CLIP-style contrastive step (ViT of 6 blocks of 384 on
		// 64x64 images in 8x8 patches, a causal text tower of 4 blocks of
		// 256, batch 128, AdamW foreach, TF32 on) fed by a Dataset that
		// decodes, crops and flips JPEGs with PIL and tokenizes captions
		// in the main process (captions padded per batch); the step
		// skips the optimizer when the clipped norm, read with .item()
		// after the backward, is not finite. Measured from default
		// (65.42 ms, spread 16%): the workers (num_workers=8,
		// pin_memory, non_blocking) 71.9%: first; no read (the norm's
		// finiteness kept on the GPU, read every 50 steps) 1.6%; bf16
		// autocast -1.7%; padded to 32 tokens, no read and graphed, the
		// loader kept, 23.7% (spread 23%); workers and graphs 83.5%.
		// From workers (18.38 ms, spread 14%): padding, no read and
		// graphs 41.3%, the only change measured (a combination: the
		// step cannot be captured as it is, its text shape changes every
		// batch and its norm is read mid-step).
		{"clip.default", "clip.workers", "data-loader", true, 0, ""},
		{"clip.default", "clip.noread", "step-read", false, 0, ""},
		{"clip.default", "clip.bf16", "bf16-autocast", false, 0, ""},
		{"clip.default", "clip.graphs", "step-read+cuda-graphs", false, 0, ""},
		{"clip.default", "clip.all", "data-loader+step-read+cuda-graphs", false, 0, ""},
		{"clip.workers", "clip.all", "step-read+cuda-graphs", false, 0, ""},
		// spec: speculative decoding (a 2-block draft of 512 proposes 4
		// tokens one at a time, a 12-block target of 1024 verifies them
		// in one forward, batch 16, vocabulary 16384, TF32 on) whose K/V
		// caches are written and read as slices up to a host position
		// (shapes change every step), its accepted counts read with
		// .tolist() to advance the position and its EOS check with
		// .item(), every step. Measured from default (7.03 ms, spread
		// 43%): the static step (the position a GPU tensor, the caches
		// written by index_copy_ and read whole under a mask, acceptance
		// and EOS decided on the GPU: both reads gone, shapes fixed)
		// 15.5% (spread 82%), a combination of the shape read's and the
		// value read's levers, so no row carries first; bf16 autocast
		// -1131% (86.62 ms: the bf16 attention runs on cuDNN's SDPA,
		// which plans each new key length on the host); the static step
		// graphed 54.5%; graphed in bf16 68.7%. From bf16 (86.62 ms,
		// spread 8.9%): the static step graphed in bf16 97.5%, the only
		// change measured.
		{"spec.default", "spec.bf16", "bf16-autocast", false, 0, "over by 1096 points (-35.6% against -1131%, spread 43%; none before host38's fit advised autocast on inference steps): bf16-autocast is priced 35.6% slower on this inference step (bf16-weights 1.0% slower: neither one to make), and no lever priced from the FP32 trace can see what bf16 did: its attention moved to cuDNN's SDPA backend (aten::_cudnn_attention_forward), which builds a plan on the host for each new query and key length, 38 to 42 ms a build, two new shapes a step (the draft's and the target's key length grow by one every step), 312 of spec.bf16's 402 ms of profiled wall in 8 of its 80 calls, the other 72 at 0.05 ms; the FP32 step runs the memory-efficient backend (80 calls, 3.5 ms); since shape-plans, bf16-weights' advice says that in 16 bits the step's SDPA, whose shapes change between calls, may build a plan per shape, unpriced"},
		{"spec.default", "spec.static", "host-read+step-read", false, 0, ""},
		{"spec.default", "spec.graphs", "host-read+step-read+cuda-graphs", false, 0, ""},
		{"spec.default", "spec.all", "bf16-autocast+host-read+step-read+cuda-graphs", false, 0, ""},
		{"spec.bf16", "spec.all", "host-read+step-read+cuda-graphs", false, 0, ""},
		// host26b: the levers profan ranked first or second on host26's
		// traces that host26 did not time, timed by the lead before the
		// read (fixtures/host26b, host26b.py; H200, 2026-11-30
		// 08:24-08:29), profan's prices written down before the call
		// (beae1d5's commit body, main at 2040498); rows added at the
		// read. Measured: from spec.default torch.compile 62.7% (spread
		// 34%; spec.default ran 10.63 to 13.14 ms there); from spec.bf16
		// torch.compile 9.9% (spread 18%); from clip.workers the fused
		// AdamW 16.0% (spread 17%). First as above, counting host26's
		// levers from the same step: torch.compile on both spec steps
		// (the only single lever measured from each that gains, above
		// the static step's 15.5% on spec.default); on clip.workers the
		// padded, read-free graphs measured 41.3%, above the fused AdamW.
		{"host26b/spec.default", "host26b/spec.compile", "torch-compile", true, 0, ""},
		// First on spec.bf16 until host26e measured shape-plans' two
		// fixes from the same step at 91.1% and 91.6%: compile second.
		{"host26b/spec.bf16", "host26b/spec.bf16compile", "torch-compile", false, 0, ""},
		{"host26b/clip.workers", "host26b/clip.workersfused", "fused-optimizer", false, 0, ""},
		// host26e: spec.bf16's cuDNN plan builds (a plan for each new
		// key length) against SDPA held to the memory-efficient backend
		// (sdpa_kernel(EFFICIENT_ATTENTION)) and against the keys padded
		// to a multiple of 64 (fixtures/host26e, host26e.py; H200,
		// 2026-11-30 11:12-11:14), three processes a variant, timed by
		// hostop27 after writing profan's prices down (2c93553's body:
		// none on either, torch-compile first at 10.2%). Measured from
		// bf16 (127.61 ms, spread 49%): the backend 91.1%, the padded
		// keys 91.6%; both shape-plans' fix, first (host26b's compile
		// 9.9%). Priced on host26's spec.bf16 trace.
		{"host26e/spec.bf16", "host26e/spec.bf16eff", "shape-plans", true, 0, ""},
		{"host26e/spec.bf16", "host26e/spec.bf16pad", "shape-plans", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host27,
		// host27.py; H200, 2026-11-30 11:22-11:27): rows written from
		// the measured timings before profan first read the traces (at
		// 12:49, after the fitters' cutoff at 12:44). First as for
		// host15 to host26: the lever with the largest positive measured
		// gain of the levers measured alone from the same step (a
		// combination row never carries it). The call's budget ran out
		// before round r3: each default has one process (its traced r1
		// one, so a default's own spread is unknown and the row's spread
		// is the other variant's), every other variant two; every eager
		// variant's r1 process ran slower than its r2 one.
		// ts: a PatchTST-style forecaster (each of 32 channels its own
		// sequence of 32 patches of 16 steps, d 256, 4 blocks, batch 64
		// windows, AdamW foreach, TF32 on) fed by a Dataset that cuts a
		// window of 608 steps, fills its gaps with np.interp per channel
		// and normalizes it in the main process; ReduceLROnPlateau
		// stepped with loss.item() every step. Measured from default
		// (87.27 ms, one process): the workers (num_workers=8,
		// pin_memory, non_blocking) 73.8% (spread 5.8%): first; no read
		// (the loss summed on the GPU, read every 50 steps) 10.7% (spread
		// 44%); bf16 autocast 14.1% (spread 30%); no read and graphed,
		// the loader kept, 43.2% (spread 2.1%); workers and graphs 75.7%.
		// From workers (22.85 ms, spread 5.8%): no read and graphs 7.2%,
		// the only change measured (a combination).
		{"ts.default", "ts.workers", "data-loader", true, 0, ""},
		{"ts.default", "ts.noread", "step-read", false, 0, ""},
		{"ts.default", "ts.bf16", "bf16-autocast", false, 0, ""},
		{"ts.default", "ts.graphs", "step-read+cuda-graphs", false, 0, "under by 23 points (20.4% against 43.2%, spread 2.1%): the replay keeps the main-process loader at 85.32 ms a step (the profiled 108.8 ms scaled to an unprofiled host), where the graphed step, the same loader beside the GPU, measured 49.56 ms in all; step-read is priced at the read's wait (10.9%) and cuda-graphs at 1.2%, so the replayed graphed step is 84.4 ms. The replayed default is 106.00 ms against 87.27 measured in its one (traced, r1) process, whose own chunks ran 73.19 to 96.06 ms; every eager r1 process ran slower than its r2 (noread 94.96 against 60.92, bf16 86.40 against 63.57) and the default has no r2 (the call's budget ran out), so part of the 43.2% may be that process's slow host. host27c timed both again, two processes each: 95.54 and 74.43 ms, 22.1% (spread 16%), which the price holds (its row); its graphed processes ran 68.37 and 80.50 ms where host27's ran 49.04 and 50.08: the loader's host differs by half from one device call to the next, so no loader keep is fitted on this row"},
		{"ts.default", "ts.all", "data-loader+step-read+cuda-graphs", false, 0, ""},
		{"ts.workers", "ts.all", "step-read+cuda-graphs", false, 0, ""},
		// prune: a ViT (96x96 images in 8x8 patches, d 384, 8 blocks,
		// batch 64 from a pool on the GPU, AdamW foreach, TF32 on) that
		// prunes its patch tokens before blocks 2, 4 and 6, keeping as
		// many as the batch's fullest sample scores over 0.5: the count
		// read with int(...) inside the forward (three shape reads a
		// step). Measured from default (22.80 ms, one process): a fixed
		// keep ratio of 0.7 (topk of a constant k: no read, fixed
		// shapes) 9.2% (spread 20%): first, the only single lever that
		// gains; bf16 autocast -194.5% (67.13 ms, spread 27%: the bf16
		// attention runs on cuDNN's SDPA, a new token count a new plan);
		// the fixed k graphed 59.7% (spread 0.1%); graphed in bf16 72.3%.
		// From bf16 (67.13 ms, spread 27%): the fixed k graphed in bf16
		// 90.6%, the only change measured (a combination).
		{"prune.default", "prune.fixedk", "host-read", true, 0, "within its spread in value (0.0% against 9.2%, spread 20%) but not first: host-read names the three int() counts at host27.py(285): prune as shape reads since hostfix28a and prices them at their waits (2.4 us a step on a step the host bounds); fused-optimizer is first (13.5%, measured 4.0% in host27b's session, spread 23%); host27c timed the default and the fixed k again, two processes each: -4.9% (its row holds, no lever first), so host27's 9.2% was the host's speed across its processes, not the fixed k"},
		{"prune.default", "prune.bf16", "bf16-autocast", false, 0, "over by 168 points (-26.6% against -194.5%, spread 27%): bf16-autocast is ranked seventh and priced slower (its casts' host on a host-bound step), the direction right, but the FP32 trace cannot show what bf16 did: its attention moved to cuDNN's SDPA, which builds a plan on the host for each new token count, in the forward (aten::_cudnn_attention_forward, 70.7 to 84.2 ms a build, the main thread) and in the backward (aten::_cudnn_attention_backward, 86.5 to 90.1 ms, autograd's thread), 3 of 32 calls each in prune.bf16's four profiled steps, the others about 0.2 ms; the FP32 step runs the memory-efficient backend (64 calls, 14.6 ms), as host26's spec.bf16 did"},
		{"prune.default", "prune.graphs", "host-read+cuda-graphs", false, 0, "under by 14 points (45.7% against 59.7%, spread 0.1%): the step without the reads graphed whole, its kernels at the largest sizes the traced steps show (12.2 ms a step; 12.0 as traced), is bound by those kernels; the measured step keeps 101, 71 and 50 tokens where the traced default kept about 144 at 11 of its 12 prunings, kernel work no lever priced from this trace removes"},
		{"prune.default", "prune.all", "bf16-autocast+host-read+cuda-graphs", false, 0, ""},
		{"prune.bf16", "prune.all", "host-read+cuda-graphs", false, 0, ""},
		// host27b: the levers profan ranked first or second on host27's
		// traces that host27 did not time, timed by the lead before the
		// read (fixtures/host27b, host27b.py; H200, 2026-11-30
		// 11:43-11:48), profan's prices written down before the call
		// (c5be3a0's commit body); rows added at the read. Measured:
		// from ts.workers (21.97 ms, three processes) torch.compile
		// 21.4% (spread 3.1%) and bf16 autocast 22.4% (spread 16%); from
		// prune.default (18.70 ms, three processes, 18.41 to 22.19) the
		// fused AdamW 4.0% (spread 23%); from prune.bf16 (54.84 ms, two
		// processes) torch.compile -54.7% (84.85 ms, spread 13%). First
		// as above, counting host27's levers from the same step: bf16 on
		// ts.workers (the largest single lever measured from it, compile
		// within a point of it); on prune.default host27's fixed k
		// (9.2%) stays above the fused AdamW; on prune.bf16 no single
		// lever measured gains.
		{"host27b/ts.workers", "host27b/ts.workerscompile", "torch-compile", false, 0, "within its spread in value (23.2% against 21.4%, spread 3.1%) but first, where bf16 autocast measured 22.4% (spread 16%) from the same step: a tie within a point, the rule's first is bf16's by 1.0 points"},
		{"host27b/ts.workers", "host27b/ts.workersbf16", "bf16-autocast", true, 0, "within its spread in value (17.3% against 22.4%, spread 16%) but second, behind torch-compile (23.2%, measured 21.4%): the two measured within a point of each other"},
		{"host27b/prune.default", "host27b/prune.fused", "fused-optimizer", false, 0, "within its spread in value (13.5% against 4.0%, spread 23%) but first: since hostfix28a cuda-graphs is not priced on prune.default (its reads size the ops after them: the step cannot be captured as it is), and host-read, the fixed k host27 measured first at 9.2% (host27c: -4.9%), is priced at its reads' waits (0.0%) on a step the host bounds; by host27c's timing no single lever measured from prune.default gains more than its spread, the fused AdamW's 4.0% inside its own 23%"},
		{"host27b/prune.bf16", "host27b/prune.bf16compile", "torch-compile", false, 0, "over by 55 points (not priced, 0.0%, against -54.7%, spread 13%; 3.8% at the first read, 7.6% on the plan cache's steady step): compiled, the pruned bf16 ViT ran 84.85 ms against 54.84; torch-compile now says that Dynamo breaks the graph at the int() read (aten::item at host27.py(285): prune) and that the shapes after it change every step, and leaves compile unpriced and last of the levers that gain (3.8% and third before): what the changing shapes cost the compiled step (guards, recompiles) is not in the eager trace, and no guess of it is priced"},
		// host27c: host27's two defaults and the levers measured from
		// them timed again, host27 having timed each default in one
		// process (its traced r1 one), by hostfix28c (fixtures/host27c,
		// host27c.py; H200, 2026-11-30 14:20-14:23), profan's prices
		// written down before the call (de7deec's body); two processes a
		// variant (the call's budget ran out before r3). Measured: from
		// ts.default (95.54 ms, 88.09 to 102.98) the workers 76.5% (spread
		// 16%), first, and no read graphed 22.1% (74.43 ms, 68.37 to
		// 80.50, spread 16%; host27's graphed processes ran 49.04 and
		// 50.08: the main-process loader's host differs by half from one
		// device call to the next); from prune.default (21.52 ms, spread
		// 5.8%) the fixed k -4.9% (22.59 ms, spread 13%: no single lever
		// measured from it gains, none first) and the fixed k graphed
		// 57.4% (9.18 ms).
		{"host27c/ts.default", "host27c/ts.workers", "data-loader", true, 0, ""},
		{"host27c/ts.default", "host27c/ts.graphs", "step-read+cuda-graphs", false, 0, ""},
		{"host27c/prune.default", "host27c/prune.fixedk", "host-read", false, 0, ""},
		{"host27c/prune.default", "host27c/prune.graphs", "host-read+cuda-graphs", false, 0, "under by 12 points (45.7% against 57.4%, spread 5.8%), as host27's row: the step without the reads graphed whole, its kernels at the largest sizes the traced steps show (12.2 ms a step; 12.0 as traced), is bound by those kernels, where the measured step keeps fewer tokens (101, 71 and 50 against about 144 traced), kernel work no lever priced from this trace removes"},
		// Held out, captured after the fits began (fixtures/host28,
		// host28.py; H200, 2026-11-30 14:24-14:29): rows written from
		// the measured timings before profan first read the traces (at
		// 15:56, after the fitters' cutoff at 15:51). First as for
		// host15 to host27: the lever with the largest positive measured
		// gain of the levers measured alone from the same step (a
		// combination row never carries it). The budget ran out in round
		// r3: the two defaults and spk.workers have three processes,
		// every other variant two; spk.all's capture failed (the
		// workers running during it) and it has no timing, so nothing
		// was measured from spk.workers.
		// spk: an utterance classifier (two stride-2 Conv2d over 80 log-
		// mel bins, d 256, 4 blocks with a key-padding mask, mean + std
		// pooling, 256 classes, batch 32, AdamW foreach, TF32 on) fed by
		// a Dataset that synthesizes a 1 to 2.5 s waveform and computes
		// its STFT, mel bands, normalization and SpecAugment in NumPy in
		// the main process; the collate pads to the batch's longest (98
		// to 248 frames). The GPU works about 2 ms of the 82.89 ms step.
		// Measured from default (82.89 ms, 76.62 to 92.62, spread 19%):
		// the workers (num_workers=8, pin_memory, non_blocking) -196.3%
		// (245.65 ms: three times slower, each workers process's first
		// chunk 76 to 85 ms, its next two 243 to 400: the eight workers
		// feed the step slower than the main process did); bf16 autocast
		// -20.1% (spread 19%); padded to 248 frames and graphed, the
		// loader kept, -2.8% (spread 19%): no single lever measured from
		// the step gains, none first.
		{"spk.default", "spk.workers", "data-loader", false, 0, "over by 276 points (79.4% against -196.3%, spread 19%) and first, where no single lever host28 timed from the step gains: data-loader's advice prices the loading over 4 workers each held to one BLAS/OpenMP thread, which host28b measured at 84.3% (its row holds, first); host28's variant ran 8 workers with their thread pools unlimited and was three times slower (each process's first chunk 76 to 85 ms while the prefetched batches lasted, then 243 to 400 ms a step): the workers' throughput under that oversubscription is not in the default's trace"},
		{"spk.default", "spk.bf16", "bf16-autocast", false, 0, ""},
		{"spk.default", "spk.graphs", "cuda-graphs", false, 0, ""},
		// vq: a VQ-VAE (conv encoder to 16x16 latents of 64 dims, an EMA
		// codebook of 1024 codes, conv decoder, batch 64 of 64x64 from a
		// pool on the GPU, Adam foreach, TF32 on) whose dead-code restart
		// reads expired.any() and nonzero() on the host every step, the
		// number of codes restarted following the data. Measured from
		// default (4.52 ms, 4.43 to 4.94, spread 11%): the restart on the
		// GPU (torch.where over all codes: no read, fixed shapes) -21.1%
		// (5.47 ms, spread 20%); bf16 autocast -51.4% (6.84 ms, spread
		// 11%); the GPU restart graphed 48.7% (2.32 ms); graphed in bf16
		// 56.8% (1.95 ms): no single lever measured from the step gains,
		// none first. From bf16 (6.84 ms, spread 8.9%): the GPU restart
		// graphed in bf16 71.5%, the only change measured (a
		// combination).
		{"vq.default", "vq.gpurestart", "host-read", false, 0, "over by 21 points, 0.7 beyond the 20% spread (0.0% against -21.1%), and no mechanism the trace shows prices it slower: host-read prices the three syncs' waits (2.14 us a step: the host is behind the GPU when it reads) and keeps the reads' ops; the reads' version restarts codes in every profiled step (from expired.any() on, 11 aten ops, 10 launches, 3 copies and 3 syncs a step, 363 to 536 us of the profiled host), where the restart on the GPU is 8 ops of one launch each over all 1024 codes (randint, a gather, two torch.where and their copy_, a mul, masked_fill_), no copy and no sync: no step skips work the GPU version does, and its kernels are microseconds on a step its host bounds (launch-bound 48.4%, other Python 27.5% of the profiled wall). Each of its two processes timed slower than the default beside it (6.03 against 4.94 ms in r1, 4.91 against 4.43 in r2), the defaults 4.43 to 4.94 here and 6.45 to 8.84 in host28b: not explained by the trace; a second timing would tell"},
		{"vq.default", "vq.bf16", "bf16-autocast", false, 0, "over by 33 points (-18.1% against -51.4%, spread 11%): ranked last and priced slower (its casts' host on a host-bound step), the direction right; from the FP32 trace the bf16 step replays at 5.93 ms (5.02 for the FP32 one, measured 4.52), from its own at 6.96 (measured 6.84), -38.7%, which would miss too (by 13 points). The work the bf16 trace adds is priced: 63 casts a step (autocast's 30 in the convolutions, the user's two .float() made real, 31 ToCopyBackward0 nodes; 1180 launches in four steps against 924) against 70 charged at 12.9 us unprofiled. The rest is the traced process's speed: the work bf16 leaves in FP32 ran slower in it (Codebook.update, outside autocast, 902 us a step profiled against 852, medians; the Adam step's range 1910 against 1698; the launch unit 15.85 us against 14.33), and at the FP32 trace's launch unit (5.91 us unprofiled against 6.54) its step is about 6.29 ms, -25%, 7 points from the price. host28b timed the same pair at +6.8% (vq.default 7.51 ms, three processes, 6.45 to 8.84; vq.bf16 7.00, two, 6.45 to 7.56): the two calls differ by 58 points, so the miss is in the timings, not a cost the FP32 trace hides; where an FP32 step and its bf16 one were traced in one process (host25c's spike), the lever replays at 1.20 of the bf16 trace's own step, here at 0.85"},
		{"vq.default", "vq.graphs", "host-read+cuda-graphs", false, 0, ""},
		{"vq.default", "vq.all", "bf16-autocast+host-read+cuda-graphs", false, 0, ""},
		{"vq.bf16", "vq.all", "host-read+cuda-graphs", false, 0, ""},
		// host28b: the levers profan ranked first or second on host28's
		// traces that host28 did not time, timed by the lead before the
		// read (fixtures/host28b, host28b.py; H200, 2026-11-30
		// 14:44-14:50), profan's prices written down before the call
		// (1abee8f's commit body); rows added at the read. Measured: from
		// spk.default (105.80 ms, three processes, 105.20 to 120.82) the
		// data-loader advice as written (4 workers, prefetch 4, pinned,
		// one BLAS/OpenMP thread a worker) 84.3% (spread 15%); from
		// vq.default (7.51 ms, three processes, 6.45 to 8.84: host28's
		// ran 4.43 to 4.94) torch.compile -47.1% (one process; two of
		// three failed in AOTAutograd) and the fused Adam 17.1% (spread
		// 32%); from vq.bf16 (7.00 ms, two processes) the fused Adam
		// -3.3% (spread 16%); vq.bf16 compiled failed in both its
		// processes (no row). First as above, counting host28's levers
		// from the same step: the data-loader advice on spk.default (the
		// only single lever measured from it that gains), the fused Adam
		// on vq.default (the only one that gains, within its spread);
		// none on vq.bf16.
		{"host28b/spk.default", "host28b/spk.workers4t1", "data-loader", true, 0, ""},
		{"host28b/vq.default", "host28b/vq.compile", "torch-compile", false, 0, "over by 47 points (not priced, 0.0%, against -47.1%, one process; spread 32%; 13.4% and first at the first read): compiled, the VQ-VAE ran 11.05 ms against 7.51 (two of its three compiled processes failed in AOTAutograd's replay of a view): the restart's reads inside the forward (expired.any(), nonzero()) break Dynamo's graph, the indexed writes after them follow the data, and each piece runs with its guards; torch-compile now names the nonzero() in host28.py(314): update, which host28.py(300): forward calls (by the trace's frames), and the shapes that follow its count, and leaves compile unpriced and below every priced lever, as host27b's prune.bf16: what the breaks and changing shapes cost the compiled step is not in the eager trace"},
		{"host28b/vq.default", "host28b/vq.fused", "fused-optimizer", true, 0, ""},
		{"host28b/vq.bf16", "host28b/vq.bf16fused", "fused-optimizer", false, 0, "within its spread in value (7.6% against -3.3%, spread 16%) but first since torch-compile is no longer priced there (hostfix29a: 25.9% and first before, unmeasured), where no single lever measured from vq.bf16 gains: the fused Adam's kernels and host are priced on a step whose bf16 casts' dispatch the replay prices short (vq.default -> bf16 priced -18.1% against -51.4%)"},
		// Held out, captured after the fits began (fixtures/host29,
		// host29.py; H200, 2026-11-30 17:53-17:59): rows written from
		// the measured timings before profan first read the traces, and
		// skipped until host29Read (set at the lead's read). First as
		// for host15 to host28: the lever with the largest positive
		// measured gain of the levers measured alone from the same step
		// (a combination row never carries it). Every variant has three
		// processes; nothing failed.
		// seg: a DeepLabV3-style segmentation step (ResNet-18-style
		// backbone at output stride 8, ASPP, 21 classes, batch 16 crops
		// of 256, SGD foreach, TF32 on) fed by a Dataset that renders a
		// scene of shapes and augments image and labels jointly in NumPy
		// in the main process; its mIoU kept every step as
		// pytorch-deeplab-xception's Evaluator does (the argmax read with
		// .cpu().numpy(), np.bincount over 1M pixels on the host). The
		// GPU works about 15 ms of the 337.05 ms step. Measured from
		// default (337.05 ms, 321.80 to 384.85, spread 19%): six workers
		// 85.9% (47.55 ms), first; the confusion on the GPU 8.4% (308.90
		// ms, within the spread); both 87.1% (43.32 ms). From workers
		// (47.55 ms, spread 8.7%): the GPU metric 8.9% (spread 12%), the
		// only change measured, first.
		{"seg.default", "seg.workers", "data-loader", true, 0, ""},
		{"seg.default", "seg.gpumetric", "step-read", false, 0, ""},
		{"seg.default", "seg.all", "data-loader+step-read", false, 0, ""},
		{"seg.workers", "seg.all", "step-read", true, 0, "within its spread in value (0.0% against 8.9%, spread 12%) but not first: since hostfix30a step-read names the metric's .cpu() and the host's Python that computes from it (np.bincount over 1M pixels, 74.07 ms after the four copies as traced, no launch between) and replays the step without them, where the step stays at the pace the six workers feed it (a batch every 54.29 ms, replayed; measured 47.55): no lever clears the step's noise, and the measured 8.9% is itself inside the 12% spread"},
		// ode: a neural-ODE classifier (batch 4096, dynamics 513-1024-
		// 1024-512 with tanh, Adam foreach, FP32 matmuls) whose adaptive
		// Dormand-Prince solver (torchdiffeq's, rtol 1e-5) reads its
		// loop, accept and step-size tests on the host every solver step,
		// 3 to 4 solver steps a training step; GPU-bound (34.4 ms of
		// kernels a step as traced). Measured from default (38.60 ms,
		// 38.40 to 38.92, spread 1.3%): the same stages on a fixed grid
		// of 3 steps, no read, 34.7% (25.19 ms), first: most of it the
		// fewer dynamics evaluations (18 a forward against about 25.6),
		// not the reads; the fixed grid graphed 36.9% (24.35 ms); bf16
		// autocast -392.2% (189.97 ms, spread 15%: bf16's rounding moved
		// the error estimates and the solver took 16 to 34 steps). From
		// fixed (25.19 ms, spread 0.5%): the CUDA graph 3.3%, the only
		// change measured, first.
		{"ode.default", "ode.fixed", "step-read", true, 0, "under by 30 points (5.0% against 34.7%, spread 1.3%), first since hostfix30a (fourth at the first read, behind tf32's 35.7%, which host29b measured at -64.6%; tf32 and bf16 are no longer priced on a loop whose count the solver's reads decide, and cuda-graphs' loop-body graphs, 8.9%, rank after step-read there), as the rows written before the read expected in value: step-read prices the solver reads' waits (1.84 ms of the 37.05 ms replayed step), and the fixed grid's gain is mostly the fewer dynamics evaluations (18 a forward against about 25.6: 3 fixed steps against 3.9 adaptive attempts and the initial step's selection) on a step its FP32 matmuls bound, a change of algorithm no lever priced from the trace holds"},
		{"ode.default", "ode.graphs", "step-read+cuda-graphs", false, 0, "under by 28 points (8.9% against 36.9%, spread 1.3%): the same fewer evaluations unpriced; the replay composes the reads' waits with the loop's body graphed between its reads (8.9%, cuda-graphs' price alone), where the measured change also runs 18 evaluations a forward instead of about 25.6"},
		{"ode.default", "ode.bf16", "bf16-autocast", false, 0, "over by 392 points (not priced, 0.0%, against -392.2%, spread 15%; 26.0% and second at the first read): under bf16's rounding the adaptive solver's error estimates moved and it took 16 to 34 steps a training step against 3 to 4: the work the step does follows its numerics through the solver's reads (host29.py(338): dopri5); bf16-autocast now names that read, gives 26.0% as the price at the traced count only and is not priced, last of the levers (hostfix30a): how many steps the solver takes under bf16 is not in the FP32 trace, and no guess of it is priced"},
		{"ode.fixed", "ode.graphs", "cuda-graphs", true, 0, "within its spread in value (4.2% against 3.3%) but fourth, behind tf32 (40.3%), bf16 autocast (23.2%) and torch-compile (8.9%): host29b measured all three from ode.fixed (29.8%, 23.3% and 8.0%, each row holding), so tf32 first is right by measurement and the row's first, written when the graph was the only change measured, is the one refuted"},
		// host29b: the levers profan ranked first or second on host29's
		// traces that host29 did not time, timed by the lead before the
		// read (fixtures/host29b, host29b.py; H200, 2026-11-30
		// 18:20-18:25), profan's prices written down before the call
		// (3a5cacb's commit body, main at 2faa95e); rows added at the
		// read. Every variant has three processes; nothing failed.
		// Measured: from ode.default (41.14 ms, 40.31 to 41.90) TF32
		// -64.6% (67.71 ms, spread 18%: TF32's rounding moved the
		// adaptive solver's error estimates and it took 7.92 steps a
		// training step against 3.92, as bf16's did in host29); from
		// ode.fixed (25.17 ms, 25.07 to 25.20) TF32 29.8% (17.67 ms,
		// spread 29%), bf16 autocast 23.3% (19.30 ms, spread 29%) and
		// torch.compile 8.0% (23.15 ms). First as above, counting
		// host29's levers from the same step: on ode.default the fixed
		// grid (host29's 34.7%), on ode.fixed TF32 (29.8%, above
		// host29's CUDA graph at 3.3%).
		{"host29b/ode.default", "host29b/ode.tf32", "tf32", false, 0, "over by 65 points (not priced, 0.0%, against -64.6%, spread 18%; 35.7% and first at the first read, where host29's fixed grid measured first at 34.7%): TF32's rounding moved the adaptive solver's error estimates and it took 7.92 steps a training step against 3.92 (every process alike): a precision lever on a loop whose reads decide how many stages run changes the work, not only its rate; tf32 now names the read (host29.py(338): dopri5, Python's while and if on GPU values, recurring after the same kernels), gives 35.7% as the price at the traced count only and is not priced, ranked after every priced lever (hostfix30a); on the fixed grid, where no read decides the count, the same lever holds (40.3% against 29.8%)"},
		{"host29b/ode.fixed", "host29b/ode.fixedtf32", "tf32", true, 0, ""},
		{"host29b/ode.fixed", "host29b/ode.fixedbf16", "bf16-autocast", false, 0, ""},
		{"host29b/ode.fixed", "host29b/ode.fixedcompile", "torch-compile", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host30,
		// host30.py; H200, 2026-11-30 20:46-20:52): rows written from
		// the measured timings before profan first read the traces, and
		// skipped until host30Read (set at the lead's read). First as
		// for host15 to host29: the lever with the largest positive
		// measured gain of the levers measured alone from the same step
		// (a combination row never carries it). Three processes a
		// variant, two for gan.graphs, gan.all and crf.all (the budget
		// ran out before r3 reached them); nothing failed.
		// gan: a DCGAN training step (G 27.2M, D 24.8M, batch 256 of
		// 64x64, Adam foreach, cudnn.benchmark, TF32 convolutions) whose
		// statistics are read as pytorch/examples' dcgan reads them
		// (three .item() inside the step, two for the printed line), its
		// batch collated in the main process from a host pool and copied
		// pageable; bound by its convolutions (33.4 ms of kernels a step
		// as traced). Measured from default (44.94 ms, 44.19 to 46.21,
		// spread 4.5%): bf16 autocast 25.6% (33.42 ms), first; the
		// statistics kept on the GPU 17.2% (37.23 ms: the reads no longer
		// hold the main-process loader and the pageable copy out of the
		// GPU's step); with the graph 17.9% (36.89 ms); all three 46.4%
		// (24.11 ms). From noitem (37.23 ms, spread 1.2%): the CUDA graph
		// 0.9% (36.89 ms, within the spread), the only change measured,
		// so first by the rule, though noitem -> all (35.2%) implies
		// bf16 gains about a third from noitem, untimed alone: expected
		// to miss in first.
		{"gan.default", "gan.noitem", "step-read", false, 0, ""},
		{"gan.default", "gan.bf16", "bf16-autocast", true, 0, ""},
		{"gan.default", "gan.graphs", "step-read+cuda-graphs", false, 0, ""},
		{"gan.default", "gan.all", "step-read+cuda-graphs+bf16-autocast", false, 0, ""},
		{"gan.noitem", "gan.graphs", "cuda-graphs", true, 0, "within its spread in value (none against 0.9%, spread 1.2%) but not first: cuda-graphs is not advised on gan.noitem (the step is its kernels', the GPU busy 95.6% of the profiled wall), as the rows written before the read expected; the row's first, by the rule the only change measured alone from gan.noitem, is refuted by host30b's channels-last (14.0%, priced 14.2% and second); profan's first there, bf16 autocast (33.8% since hostfix31b, 25.3% at the first read), was not timed alone, and noitem -> all (35.2%, the graph alone 0.9%) says it gains about a third"},
		{"gan.noitem", "gan.all", "cuda-graphs+bf16-autocast", false, 0, ""},
		// crf: a Transformer-CRF tagger (2 encoder layers of 256, a
		// linear-chain CRF as pytorch-crf 0.7.2 writes it, batch 64
		// sentences) fed by a main-process BERT-style slow tokenizer, its
		// span F1 kept every step through pytorch-crf's decode (one
		// .item() a time step a sentence, about 2446 syncs a step);
		// host-bound (9.7 ms of kernels a step as traced). Measured from
		// default (146.74 ms, 120.73 to 152.41, spread 22%): the path
		// followed on the GPU 38.3% (90.56 ms), first; four workers 22.2%
		// (114.21 ms); both 49.9% (73.53 ms). From workers (114.21 ms,
		// spread 5.4%): the GPU decode 35.6% (spread 14%), the only
		// change measured, first. Both step-read rows missed in first
		// at the read, second behind cuda-graphs (68.0% and 82.3%, then
		// 44.1% and 59.8%) on a step no graph holds as it is; the graph
		// is now priced eager on the regions between the step's syncs
		// whose launches no other step repeats (the CRF's loops, run a
		// token of the batch's longest sentence a time): 1.4% and 1.6%,
		// step-read first (27.1%, 32.8%).
		{"crf.default", "crf.workers", "data-loader", false, 0, ""},
		{"crf.default", "crf.gpudecode", "step-read", true, 0, ""},
		{"crf.default", "crf.all", "data-loader+step-read", false, 0, ""},
		{"crf.workers", "crf.all", "step-read", true, 0, ""},
		// host30b: the levers profan ranked on host30's gan traces that
		// host30 did not time, timed by the lead before the read
		// (fixtures/host30b, host30b.py; H200, 2026-11-30 21:47-21:51),
		// profan's prices written down before the call (681ae70's commit
		// body, main at 081aefd); rows added at the read. Every variant
		// has three processes; nothing failed. Measured: from gan.default
		// (43.07 ms, 41.78 to 43.34) the workers 15.6% (36.36 ms),
		// channels-last 12.4% (37.74 ms), pinned memory 1.7% (42.32 ms);
		// from gan.noitem (36.59 ms, 36.51 to 36.98) channels-last 14.0%
		// (31.46 ms). First as above, counting host30's levers from the
		// same step: on gan.default bf16 autocast (host30's 25.6%), on
		// gan.noitem channels-last (14.0%, above host30's graph at 0.9%).
		{"host30b/gan.default", "host30b/gan.workers", "data-loader", false, 0, ""},
		{"host30b/gan.default", "host30b/gan.chlast", "channels-last", false, 0, ""},
		{"host30b/gan.default", "host30b/gan.pinned", "pinned-memory", false, 0, ""},
		{"host30b/gan.noitem", "host30b/gan.noitemchlast", "channels-last", true, 0, "within its spread in value (14.2% against 14.0%) but second, behind bf16 autocast (33.8% since hostfix31b, 25.3% at the first read), which no variant timed alone from gan.noitem: by the rule channels-last, the largest gain measured alone, is first, but noitem -> all (the graph and bf16, 35.2%; the graph alone 0.9%) says bf16 gains about a third from noitem, so profan's first is likely right and the row's first the one in doubt"},
		// Held out, captured after the fits began (fixtures/host31,
		// host31.py; H200, 2026-11-30 23:48-23:53): rows written from
		// the measured timings before profan first read the traces, and
		// skipped until host31Read (set at the lead's read). First as
		// for host15 to host30: the lever with the largest positive
		// measured gain of the levers measured alone from the same step
		// (a combination row never carries it). Three processes a
		// variant; nothing failed.
		// sr: an EDSR x2 super-resolution training step as BasicSR
		// trains EDSR_Lx2 (40.7M, batch 16 of 48->96 patches, L1, Adam
		// foreach, cudnn.benchmark, TF32 convolutions) whose loss is read
		// every iteration as reduce_loss_dict reads it (after the
		// optimizer's step) and whose EMA is BasicSR's model_ema loop
		// (272 launches after the read), its pairs cropped from a decoded
		// host pool and collated in the main process, copied pageable;
		// bound by its convolutions (55.0 ms of kernels a step as
		// traced). Measured from default (62.18 ms, 61.44 to 64.31,
		// spread 4.6%): bf16 autocast 39.3% (37.72 ms), first; the loss
		// kept on the GPU 5.4% (58.80 ms); the foreach EMA 1.9% (60.99
		// ms, within the spread); all three 49.0% (31.74 ms).
		{"sr.default", "sr.noread", "step-read", false, 0, ""},
		{"sr.default", "sr.foreach", "foreach-loop", false, 0, ""},
		{"sr.default", "sr.bf16", "bf16-autocast", true, 0, ""},
		{"sr.default", "sr.all", "step-read+foreach-loop+bf16-autocast", false, 0, ""},
		// vid: R(2+1)D-18 trained as torchvision's video reference
		// trains it (batch 16 clips of 8 x 112 x 112), each clip's eight
		// 171 x 128 JPEG frames decoded with PIL, cropped, flipped and
		// normalized in a main-process Dataset, loss, acc1 and acc5 read
		// every step; host-bound (35.5 ms of kernels a step as traced).
		// Measured from default (101.39 ms, 81.30 to 105.36, spread 24%):
		// four workers 62.3% (38.25 ms), first, the only lever measured
		// alone; with the metrics kept on the GPU 63.2% (37.29 ms). From
		// workers (38.25 ms, spread 5.6%): the metrics kept on the GPU
		// 2.5%, the only change measured, first.
		{"vid.default", "vid.workers", "data-loader", true, 0, ""},
		{"vid.default", "vid.all", "data-loader+step-read", false, 0, ""},
		{"vid.workers", "vid.all", "step-read", true, 0, "within its spread in value (1.5% against 2.5%, tolerance 10 points) but fifth, not first: the row's first, by the rule the only change host31 measured from vid.workers, is refuted by host31b's channels-last (27.3% as channels_last_3d, priced 28.9% and first), so profan's order holds and the row's first was the one in doubt; torch-compile (19.7%, second), bf16 autocast (5.5%) and cuda-graphs (3.0%), ranked above it, were not timed"},
		// host31b: the levers profan ranked on host31's traces that
		// host31 did not time, timed by the lead before the read
		// (fixtures/host31b, host31b.py; H200, 2026-12-01 00:37-00:42),
		// profan's prices written down before the call (60a00bf's commit
		// body, main at eefcf70); rows added at the read. Nothing
		// failed; the budget ran out after r3's second process, so
		// vid.workers and vid.workerschlast have three processes, the
		// other six two. Measured: from sr.default (64.29 ms, 64.11 to
		// 64.46) channels-last 14.7% (54.81 ms), the workers 5.7% (60.65
		// ms); from vid.default (97.54 ms, 95.55 to 99.53) the metrics
		// kept on the GPU 19.4% (78.59 ms, its two processes 71.37 and
		// 85.81: an 18% spread), channels-last (as channels_last_3d: the
		// advice's torch.channels_last is refused on the 5-D tensors)
		// 5.7% (91.94 ms); from vid.workers (37.99 ms, 37.94 to 38.17)
		// channels-last (3-D) 27.3% (27.60 ms). First as above,
		// counting host31's levers from the same step: on sr.default
		// bf16 autocast (host31's 39.3%), on vid.default the workers
		// (host31's 62.3%), on vid.workers channels-last (27.3%, above
		// host31's step-read at 2.5%).
		{"host31b/sr.default", "host31b/sr.chlast", "channels-last", false, 0, ""},
		{"host31b/sr.default", "host31b/sr.workers", "data-loader", false, 0, ""},
		{"host31b/vid.default", "host31b/vid.noitem", "step-read", false, 0, ""},
		{"host31b/vid.default", "host31b/vid.chlast", "channels-last", false, 0, ""},
		{"host31b/vid.workers", "host31b/vid.workerschlast", "channels-last", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host32,
		// host32.py; H200, 2026-12-01 02:35-02:50, two device calls):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host32Read (set at the
		// lead's read). First as for host15 to host31: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step; a row of more than one rule never carries
		// it, and on both defaults the largest is such a row (or none is
		// positive), so none is first. Three processes a variant
		// (mae.default four); the first call's tts, at batch 16, traced
		// over 5 MB and is not host32's (fixtures/README.md).
		// mae: MAE's ViT-L/16 pretraining step as engine_pretrain runs
		// it (329.5M, batch 128 of 224, eight pinned workers decoding
		// JPEGs, float16 autocast with its GradScaler and
		// get_grad_norm_'s per-parameter loop; loss.item() after the
		// forward, torch.cuda.synchronize() every step), sized to be
		// bound by its matmuls and bound by its host (71.4 ms of kernels
		// a 98.5 ms step). Measured from default (98.50 ms, 95.16 to
		// 99.61, spread 4.5%): the reads and the synchronize removed
		// 1.7% (96.81 ms, within the spread); bfloat16 without the
		// scaler 0.6% slower (99.10 ms; bf16-autocast is not advised on
		// a float16 step, so priced none); both 8.5% (90.14 ms, spread
		// 9.8%).
		{"mae.default", "mae.noread", "step-read+cuda-synchronize", false, 0, ""},
		{"mae.default", "mae.bf16", "bf16-autocast", false, 0, ""},
		{"mae.default", "mae.all", "step-read+cuda-synchronize+bf16-autocast", false, 0, ""},
		// tts: ming024's FastSpeech2 training step (34.6M, batch 8),
		// its features np.loaded and padded in a main-process
		// collate_fn, its length regulator reading one duration a padded
		// row with .item() (about 450 a step) and its loss's nine
		// masked_selects; host-bound (10 to 11 ms of kernels a 74 ms
		// step). Measured from default (73.97 ms, 70.14 to 75.11, spread
		// 6.7%): the reads removed 17.2% (61.28 ms, spread 15.4%), four
		// workers 12.6% (64.65 ms, spread 32%), both 3.7% slower (76.68
		// ms, spread 34%). From noread: the workers 25.1% slower (spread
		// 34%).
		{"tts.default", "tts.noread", "host-read+step-read", false, 0, ""},
		{"tts.default", "tts.workers", "data-loader", false, 0, ""},
		{"tts.default", "tts.all", "data-loader+host-read+step-read", false, 0, ""},
		{"tts.noread", "tts.all", "data-loader", false, 0, "1.2 points past its tolerance (10.1% against 25.1% slower, spread 34%): data-loader prices the main-process loading (host32.py(430): __getitem__ and the collate_fn, 4.72 ms of the 46.81 ms replayed step) moved to four workers, bounded by the loading over 4 workers; measured, the same four workers made tts.noread slower in two of its three rounds (82.01 and 76.68 ms against 68.82 and 61.28) and 5.7% faster in the third (55.98 against 59.38), from tts.default they gained 12.6% (priced 5.9%): the workers ran without the one-thread limit the advice writes (no worker_init_fn, no OMP_NUM_THREADS), so their numpy pools likely contended with the main thread's, a cost the replay does not price"},
		// host32b: the lever profan ranked on host32's traces that
		// host32 did not time, timed by the lead before the read
		// (fixtures/host32b, host32b.py; H200, 2026-12-01 03:25-03:29),
		// profan's prices written down before the call (b5d0cf4's commit
		// body, main at 29589d3); rows added at the read. All 18
		// processes exited 0, three a variant. Measured: from
		// mae.default (88.28 ms, 87.17 to 92.63; host32's ran 98.50:
		// the rows compare one call's variants) the fused AdamW 9.8%
		// (79.59 ms); from tts.default (64.22 ms, 63.95 to 77.60) the
		// fused Adam 13.3% slower (72.74 ms), from tts.noread (56.65 ms,
		// 48.31 to 61.42) 3.4% slower (58.56 ms), both inside their
		// spreads (21% to 23%). First as above, counting host32's
		// levers from the same step: on mae.default the fused AdamW
		// (9.8%, above host32's reads at 1.7% and bf16 at 0.6% slower);
		// on tts.default none alone (the reads' two rules, 17.2%, are
		// the largest), on tts.noread none positive.
		{"host32b/mae.default", "host32b/mae.fused", "fused-optimizer", true, 0, ""},
		{"host32b/tts.default", "host32b/tts.fused", "fused-optimizer", false, 0, ""},
		{"host32b/tts.noread", "host32b/tts.noreadfused", "fused-optimizer", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host33,
		// host33.py; H200, 2026-12-01 05:34-05:48, two device calls):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host33Read (set at the
		// lead's read). First as for host15 to host32: the lever with the
		// largest positive measured gain of the levers measured alone
		// from the same step; a row of more than one rule never carries
		// it. Three processes a variant (each default four: call 1's
		// budget left pose.workers, w2v.all and pose.all at two, call 2
		// completed them on another machine; fixtures/README.md).
		// w2v: wav2vec2-base pretraining as Hugging Face's no_trainer
		// script runs it (95.0M, batch 16 of 8 to 16 s, float16 autocast
		// with a GradScaler, the collator's mask and negatives in NumPy
		// in the main process; get_grad_norm's one .item() a parameter,
		// 217 a step, and the model's neg_is_pos.any()), bound by its
		// GPU (196 to 203 ms of kernels a 224 ms step). Measured from
		// default (224.10 ms, 213.83 to 240.74, spread 12.0%): the reads
		// removed 4.4% (214.14 ms, within the spread; two rules, none
		// first); bfloat16 without the scaler 1.1% slower (226.63 ms;
		// bf16-autocast is not advised on a float16 step, so priced
		// none); both 14.8% (190.86 ms, spread 12.0%).
		{"w2v.default", "w2v.noread", "host-read+step-read", false, 0, ""},
		{"w2v.default", "w2v.bf16", "bf16-autocast", false, 0, ""},
		{"w2v.default", "w2v.all", "host-read+step-read+bf16-autocast", false, 0, "0.3 points past its tolerance (2.6% against 14.8%, spread 12.0%): bfloat16 without the GradScaler takes GradScaler.step's read of found_inf (scaler.step() at host33.py(390): step) off the step, the last wait before the optimizer's step once the reads are gone, and the host then loads the next batch (w2v_collate's 22.68 ms a step) beside the GPU's work; bf16-autocast is not advised on a step under float16 autocast, so nothing prices the scaler's read going, and step-read keeps it (GradScaler's; before the scaler's reads took their own site the row held at 15.3%, step-read dropping them with the user's scale read)"},
		// pose: a SimpleBaseline pose_resnet_50 step as
		// deep-high-resolution-net.pytorch trains it (34.0M, batch 16
		// of 256 x 192), its JointsDataset in the main process (JPEG
		// decode, augmentation, affine warp, 17 heatmaps an item), and
		// loss.item() and a NumPy accuracy from two .cpu() copies every
		// step: bound by its host (11.8 ms of kernels a 115 ms step).
		// Measured from default (114.59 ms, 107.07 to 120.72, spread
		// 11.9%): the reads removed 23.7% (87.42 ms, spread 17.3%), four
		// workers of one thread as data-loader's advice writes them
		// 70.8% (33.44 ms, spread 25.0%; first), both 75.5% (28.02 ms,
		// spread 18.0%). From noread: the workers 67.9% (first).
		{"pose.default", "pose.noread", "step-read", false, 0, "3.8 points past its tolerance (2.6% against 23.7%, spread 17.3%): step-read prices the loss read and the accuracy's two .cpu() copies (host33.py(693): step) as their waits and blocking gone and the NumPy accuracy after them made every 50 steps, 2.740 ms of the 106.060 ms replayed step; measured, the reads and the host accuracy gone saved 27.17 ms a step (114.59 to 87.42 ms), in each of the three rounds (pose.default's processes 107.07 to 120.72 ms, pose.noread's 81.50 to 96.63): more than the reads and the accuracy take in the trace (host sync 1.01 ms, copy calls 0.75 and accuracy's Python 1.97 a profiled step), where pose.default's every host part runs slower than pose.noread's in the same code (the loader 94.0 against 77.1 ms a profiled step, launch-bound gaps 30.2 against 21.7, the forward's Python 4.7 against 2.0): a host-wide cost of the per-step reads and NumPy accuracy, not identified, that a replay pricing the reads' own spans does not see"},
		{"pose.default", "pose.workers", "data-loader", true, 0, ""},
		{"pose.default", "pose.all", "data-loader+step-read", false, 0, ""},
		{"pose.noread", "pose.all", "data-loader", true, 0, ""},
		// host33b: the two levers profan ranked on host33's traces that
		// host33 did not time, timed by the lead before the read
		// (fixtures/host33b, host33b.py; H200, 2026-12-01 06:32-06:37),
		// profan's prices written down before the call (50cd22a's commit
		// body, main at 2555599); rows added at the read. All 16
		// processes exited 0, four a variant. Measured: from
		// w2v.default (235.43 ms, 228.63 to 257.25; host33's ran 224.10:
		// the rows compare one call's variants) four workers of one
		// thread 12.0% (207.21 ms; spreads 12.2% and 4.7%); from
		// pose.noread (118.48 ms, 110.83 to 134.87; host33's ran 87.42)
		// the step captured whole in one CUDA graph 18.5% (96.53 ms;
		// spreads 20.3% and 24.3%). First as above, counting host33's
		// levers from the same step: on w2v.default the workers (12.0%,
		// above host33's bf16 at 1.1% slower; the reads' 4.4% are a row
		// of two rules); on pose.noread host33's workers (67.9%), not the
		// graph.
		{"host33b/w2v.default", "host33b/w2v.workers", "data-loader", true, 0, ""},
		{"host33b/pose.noread", "host33b/pose.noreadgraphs", "cuda-graphs", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host34,
		// host34.py; H200, 2026-12-01 08:17-08:32, two device calls):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host34Read (set at the
		// lead's read). First as for host15 to host33. Three processes
		// a variant (detr.default four: call 1's budget left seven
		// variants at two, call 2 completed them; fixtures/README.md).
		// detr: a DETR training step as facebookresearch/detr's
		// train_one_epoch runs detr_r50 (41.5M, batch 4, two loader
		// workers; the HungarianMatcher's six .cpu() of its cost solved
		// on the host, num_boxes' .item(), the loss_value stop check and
		// metric_logger's 45 reads a step), sized to be bound by its GPU
		// but bound by its host (35 to 59 ms of kernels a 167 ms step,
		// 3900 kernels). Measured from default (166.85 ms, 155.13 to
		// 175.70, spread 12.3%): the logged reads and the stop check
		// removed 6.8% slower (178.24 ms, within the spread; the
		// matcher's reads left); bfloat16 autocast on the model 63.3%
		// slower (272.40 ms, spread 12.5%); both 47.0% slower (245.25
		// ms, spread 13.8%). No lever alone gained: no row is first. A
		// price of no gain lands 63.3 and 47.0 points from the bf16 and
		// all rows, past their spreads: they hold only if profan prices
		// the slowdown.
		{"detr.default", "detr.noread", "step-read", false, 0, ""},
		{"detr.default", "detr.bf16", "bf16-autocast", false, 0, "36.0 points past its tolerance (14.8% slower against 63.3% slower, spread 12.5%): bf16-autocast prices, on the FP32 trace, the 29 FMA GEMMs and the 46 TF32 ones on bf16 tensor cores and the layout conversions at half their bytes against autocast's casts of each op's inputs and weights on every call, priced on the host in the replay, 17.357 ms slower on the 117.284 ms replayed step; measured, the step ran 105.55 ms slower (166.85 to 272.40 ms), more than the step's whole kernel time as traced (46.18 ms a profiled step, 35 to 59 ms as captured): a cost on the host of the step under autocast (or kernels several times slower), not identified, which no bf16 trace was captured to show and a replay of the FP32 trace cannot price"},
		{"detr.default", "detr.all", "step-read+bf16-autocast", false, 0, "18.8 points past its tolerance (14.4% slower against 47.0% slower, spread 13.8%): the bfloat16 half of the row, as on detr.bf16 (priced 17.357 ms slower, measured 105.55 ms slower alone); step-read, priced at no gain, measured 6.8% slower alone (within its spread): the step under autocast runs slower on the host than the replay of the FP32 trace prices, by a cost not identified"},
		// depth: a supervised monocular depth step as cleinc/bts trains
		// on NYU v2 (32.5M, ResNet-50 encoder, U-Net decoder, batch 4 of
		// 416 x 544), its DataLoadPreprocess in the main process (a JPEG
		// and a 16-bit PNG decoded, rotated, cropped and augmented),
		// pinned memory and non_blocking copies as BTS's, silog_loss
		// indexing by the mask depth_gt > 1.0 and the NaN check's
		// .cpu().item() every step: bound by its host (21.4 ms of
		// kernels a 139 ms step). Measured from default (139.41 ms,
		// 133.99 to 153.04, spread 13.7%): the reads removed (silog from
		// masked sums, host-read; the NaN check every 50 steps,
		// step-read) 1.4% slower (141.40 ms, within the spread; two
		// rules, none first); four workers of one thread as
		// data-loader's advice writes them 75.1% (34.69 ms, spread 35.2%;
		// first), all 78.1% (30.56 ms, spread 13.7%). From noread: the
		// workers 78.4% (first).
		{"depth.default", "depth.noread", "host-read+step-read", false, 0, ""},
		{"depth.default", "depth.workers", "data-loader", true, 0, ""},
		{"depth.default", "depth.all", "data-loader+host-read+step-read", false, 0, ""},
		{"depth.noread", "depth.all", "data-loader", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host35,
		// host35.py; H200, 2026-12-02 01:16-01:24, two device calls):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host35Read (set at the
		// lead's read). First as for host15 to host34. Three processes
		// a variant (each default four: call 1's budget left four
		// variants at two, call 2 completed them; fixtures/README.md).
		// flow: a RAFT training step as princeton-vl/RAFT's train.py
		// trains the chairs stage (5.26M, batch 10 of 368 x 496, 12
		// iterations, FlowAugmentor in eight workers, pageable copies;
		// sequence_loss indexing the end-point error by the valid mask
		// and reading its four metrics with .item() every step), bound
		// mostly by its GPU (146 ms of kernels a 187 ms step, 5607
		// kernels). Measured from default (186.66 ms, 174.65 to 190.67,
		// spread 8.6%): the reads removed (the metrics as masked sums,
		// read every 100 steps: the mask's indexing, host-read, and the
		// metrics' reads, step-read) 3.8% (179.63 ms, within the
		// spread; two rules, none first); RAFT's autocast regions under
		// bfloat16 0.6% slower (187.73 ms, spread 11.4%); both 6.0%
		// (175.54 ms, spread 30.9%). No lever alone gained: no row is
		// first. From noread: bfloat16 2.3% (spread 30.9%; first, the
		// one lever measured alone from it).
		{"flow.default", "flow.noread", "host-read+step-read", false, 0, ""},
		// flow.default → flow.bf16 held at the first read only by the
		// workers' floor (every lever 0.0%); since the floor reads a
		// blocked wait, not the get's length (workers, 2026-12-02), the
		// lever is priced by the replay and misses.
		// Found after the workers fix (a miss by 0.5 points: priced 11.3%
		// against 0.6% slower, spread 11.4%), fixed by running each of
		// autocast's casts as a kernel on the GPU too (replay.castGPU): the
		// GPU-bound step pays them, 10.6%.
		{"flow.default", "flow.bf16", "bf16-autocast", false, 0, ""},
		{"flow.default", "flow.all", "bf16-autocast+host-read+step-read", false, 0, ""},
		// The first read's note (priced 0.0% and second of nine under
		// the workers' floor) rewritten after the floor was read from a
		// blocked wait (workers, 2026-12-02): still missed, for another
		// reason.
		{"flow.noread", "flow.all", "bf16-autocast", true, 0, "first missed, the value within its tolerance (priced 7.6% and third of eight, behind torch-compile's 21.3% and channels-last's 8.8%, neither measured on flow, against 2.3% measured and first, spread 30.9%): at the first read every lever was floored at the step as replayed (172.982 ms, measured 179.63) by the workers' queue, 2.9 to 3.7 ms a step in its get; that get is the batch's transfer on the step's thread (its pipe polled 0.08 to 0.2 ms a step, the GPU busy), no block, so the floor is gone and each lever is priced by the replay, bfloat16 at 8.4% where the step measured 2.3% inside a spread of 30.9%, and at 7.6% since autocast's casts run as kernels on the GPU too (replay.castGPU)"},
		// ocr: a CRNN step as meijieru/crnn.pytorch's train.py trains it
		// (8.33M, batch 64 of 32 x 100), its word lines rendered per
		// item in the main process (PIL's font, noise or gradient,
		// skew, blur), the batch copied by utils.loadData from pageable
		// memory, cost.item() and the greedy-decode accuracy (the
		// argmax's .cpu(), decoded in Python) every step: bound by its
		// host (3.7 ms of kernels a 100 ms step). Measured from default
		// (100.38 ms, 76.77 to 110.09, spread 33.2%): four workers of
		// one thread as data-loader's advice writes them (pinned,
		// non_blocking) 83.1% (16.94 ms, spread 33.2%; first), with the
		// loss averaged on the GPU and the accuracy read every 100
		// steps (step-read) 85.5% (14.52 ms, spread 33.2%).
		{"ocr.default", "ocr.workers", "data-loader", true, 0, ""},
		{"ocr.default", "ocr.all", "data-loader+step-read", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host36,
		// host36.py; H200, 2026-12-02 05:24-05:32, two device calls):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host36Read (set at the
		// lead's read). First as for host15 to host35. Three processes
		// a variant (each default four: call 1's budget left five
		// variants at two, call 2 completed them; fixtures/README.md).
		// vol: a 3D segmentation step as nnU-Net v1's
		// nnUNetTrainerV2.run_iteration trains 3d_fullres (29.70M,
		// Generic_UNet with deep supervision, batch 2 of 128^3, fp16
		// autocast with a GradScaler), twelve workers delivering each
		// batch (about 36 MB) as pickled NumPy arrays that the step's
		// thread receives and unpickles, pageable copies, the loss read
		// with .cpu() every step: bound mostly by its GPU (62.4 ms of
		// kernels a 125 ms step, 996 kernels). Measured from default
		// (125.05 ms, 121.21 to 139.10, spread 14.3%): the transfer as
		// pinned-memory's advice writes it (the collate makes tensors in
		// the workers, which cross in shared memory; pin_memory=True,
		// non_blocking) 42.4% (71.97 ms, spread 14.3%; first); the loss
		// kept on the GPU, read every 250 steps (step-read; the
		// GradScaler's own check stays) 7.7% (115.42 ms, within the
		// spread); both 42.3% (72.13 ms). Untraced, so no row: from
		// pinned the read removed 0.2% slower (spread 5.6%), from noread
		// the pinned transfer 37.5% (spread 13.8%).
		// Missed at the first read (5.1%, third; 5.2% with the read
		// removed): the seven pickled batches the step's thread receives
		// in ProfilerStep#2 (459 ms) fell outside the median step, and
		// the lever priced only the pageable copies. The transfer is now
		// paid a batch at each __next__ (the window's over the batches
		// received) and pinned-memory takes it off the step's thread
		// (Lever.Receive): 36.4%, first; vol.all 36.4%. Its get's native
		// calls (the pipe's reads, the unpickling: 96 to 98% of it)
		// kept whole since, not at the profiler's keep: 49.3% for both
		// (the step 141.04 ms replayed, measured 125.05).
		{"vol.default", "vol.pinned", "pinned-memory", true, 0, ""},
		{"vol.default", "vol.noread", "step-read", false, 0, ""},
		{"vol.default", "vol.all", "pinned-memory+step-read", false, 0, ""},
		// sgns: a word2vec skip-gram negative-sampling step as
		// theeluwin/pytorch-sgns's train.py trains it (12.00M, batch
		// 4096, window 5, 20 negatives), SGNS.forward drawing its
		// 819,200 negatives with torch.multinomial on the host every
		// step (109 to 125 ms a profiled step), the indices copied by
		// .cuda() (pageable), loss.item() every step: bound by its host
		// (4.07 ms of kernels a 113 ms step). Measured from default
		// (113.36 ms, 92.01 to 130.44, spread 33.9%): the preprocessing
		// moved to the GPU, data-loader's advice's other half (the
		// weights a CUDA tensor, the negatives drawn there) 95.0% (5.67
		// ms, spread 34.3%; first); the loss read every 100 steps
		// (step-read) 8.9% (103.28 ms, within the spread); both 96.0%
		// (4.57 ms). From gpu (traced): the read removed 19.4% (spread
		// 34.3%; first, the one lever measured alone from it). From
		// noread (untraced, so no row): the GPU's draw 95.6% (spread
		// 29.7%).
		// Read since with cpu-op, the lever the change measured is: the
		// rows were written with data-loader, the nearest lever then
		// (its fix's "move the preprocessing to the GPU"), but the draw
		// runs outside the loader, in SGNS.forward, and sgns.gpu keeps
		// the single-process loader; cpu-op prices the draw moved to the
		// GPU (its CPU calls off the thread, a kernel in their place),
		// data-loader the loader in workers, not measured here.
		{"sgns.default", "sgns.gpu", "cpu-op", true, 0, ""},
		{"sgns.default", "sgns.noread", "step-read", false, 0, ""},
		{"sgns.default", "sgns.all", "cpu-op+step-read", false, 0, ""},
		{"sgns.gpu", "sgns.all", "step-read", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host37,
		// host37.py; H200, 2026-12-02 11:50-11:57, one device call):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host37Read (set at the
		// lead's read). First as for host15 to host36. Three processes
		// a variant (each default four; fixtures/README.md).
		// kd: a knowledge-distillation step as RepDistiller's
		// train_distill trains a ResNet-18 student (11.69M) from a
		// ResNet-34 teacher (21.80M, no_grad), batch 128 of 224^2 crops
		// made float tensors by twelve workers (77 MB a batch in shared
		// memory), copied with .cuda() from pageable memory, loss.item()
		// into its meter and the timer's torch.cuda.synchronize() every
		// step: bound mostly by its GPU once its waits go (33.8 ms of
		// kernels a step, 643 kernels; all runs 36.27 ms). Measured from
		// default (65.04 ms, 63.74 to 67.57, spread 5.9%): the transfer
		// as pinned-memory's advice writes it (pin_memory=True,
		// non_blocking) 31.3% (44.69 ms, spread 9.3%; first); the loss
		// kept on the GPU and no synchronize in the timer
		// (cuda-synchronize+step-read) 16.7% (54.17 ms, spread 6.6%);
		// all three 44.2% (36.27 ms). Untraced, so no row: from pinned
		// the syncs removed 18.8% (spread 9.3%), from nosync the pinned
		// transfer 33.1% (spread 6.6%).
		// Missed by 0.5 points at the first read (20.7%): since
		// pinned-memory takes the multi-process iterator's transfer off
		// the step's thread (Lever.Receive), 22.8%, first.
		{"kd.default", "kd.pinned", "pinned-memory", true, 0, ""},
		{"kd.default", "kd.nosync", "cuda-synchronize+step-read", false, 0, ""},
		{"kd.default", "kd.all", "pinned-memory+cuda-synchronize+step-read", false, 0, ""},
		// sent: a sentiment step as bentrevett's "Upgraded Sentiment
		// Analysis" trains it (4.81M: a 2-layer bidirectional LSTM of
		// 256 over packed padded sequences, batch 64, Adam), each
		// review tokenized by basic_english in the main process's
		// Dataset, the lengths moved to the GPU and read back by
		// .to('cpu') for pack_padded_sequence in forward, loss.item()
		// and acc.item() every step: bound by its host (21.6 ms of
		// kernels a 64 ms step, about 4,400 kernels: cuDNN's packed
		// LSTM a time step at a time). Measured from default (64.45 ms,
		// 58.65 to 66.09, spread 11.5%): four workers as data-loader's
		// advice writes them (pinned, non_blocking) 29.0% (45.77 ms,
		// spread 24.6%; first); the lengths kept on the host and the
		// loss and accuracy read every 100 steps (host-read+step-read)
		// 0.8% (63.95 ms, within the spread 18.1%); all 26.2% (47.58
		// ms). From workers (traced): the reads removed 3.9% slower
		// (spread 24.6%; no lever measured alone gains, so none is
		// first). From noread (untraced, so no row): the workers 25.6%
		// (spread 21.1%).
		// Missed at the first read (15.2% and second, behind
		// larger-batch's 38.3%): fitted after it, the loader's native
		// calls (re.sub's, 36% of its time) keep their time where its
		// records' costs exceed its Python (loaderNative), 24.0%, and
		// larger-batch, which doubles the loading on the step's thread,
		// ranks after data-loader (Recommendation.After).
		{"sent.default", "sent.workers", "data-loader", true, 0, ""},
		{"sent.default", "sent.noread", "host-read+step-read", false, 0, ""},
		{"sent.default", "sent.all", "data-loader+host-read+step-read", false, 0, ""},
		{"sent.workers", "sent.all", "host-read+step-read", false, 0, ""},
		// Held out, captured after the fits began (fixtures/host38,
		// host38.py; H200, 2026-12-02 14:37-14:41, one device call):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host38Read (set at the
		// lead's read). First as for host15 to host37. Three processes
		// a variant (each default four; fixtures/README.md).
		// retr: a two-tower retrieval training step (193.18M: 2M items
		// and 1M users of 64-dim embeddings, the item table shared by
		// the user's 50-item history through embedding_bag, MLPs
		// 512-256-128, batch 4096 plus 4096 uniform negatives, logQ,
		// Adam), its interaction log drawn on the GPU (no loader), the
		// hard negatives picked by torch.nonzero in forward, loss.item()
		// and torch.cuda.empty_cache() every step (9 cudaFree and 9
		// cudaMalloc a profiled step, about 3 ms): 7.9 ms of kernels a
		// step, 354 kernels; all runs 9.07 ms. Measured from default
		// (13.27 ms, 11.79 to 14.48, spread 20.2%: its r0 process the
		// fastest): no empty_cache (allocator-churn) 24.9% (9.96 ms,
		// spread 20.2%; first); the hard negatives as a mask and the
		// loss read every 100 steps (host-read+step-read) 8.3% slower
		// (14.37 ms, inside the spread); all 31.7% (9.07 ms). From
		// nocache (traced): the reads removed 9.0% (spread 4.6%; a
		// combination, so no row is first). From noread (untraced, so
		// no row): the cache kept 36.9% (spread 9.9%). Fitted after
		// the read: allocator-churn first once fused-optimizer counts
		// Adam's passes without weight decay (18, not AdamW's 21:
		// 2.423 ms against 2.434), an order inside the replay's error
		// and not measured (retr did not time a fused Adam).
		{"retr.default", "retr.nocache", "allocator-churn", true, 0, ""},
		{"retr.default", "retr.noread", "host-read+step-read", false, 0, ""},
		{"retr.default", "retr.all", "allocator-churn+host-read+step-read", false, 0, ""},
		{"retr.nocache", "retr.all", "host-read+step-read", false, 0, ""},
		// sat: a Sentinel-2 land-cover FCN inference loop (1.46M; batch
		// 64 of 13 x 256^2 float32, 218 MB, from pinned memory, copied
		// non_blocking on the default stream ahead of its kernels: 3.94
		// ms a step at 55 GB/s against 5.08 ms of kernels, 119 a step;
		// the 4 MB uint8 mask read back with .cpu() every step).
		// Measured from default (10.32 ms, 10.20 to 10.42, spread 2.1%):
		// the next batch copied on a side stream (apex's
		// data_prefetcher; copy-overlap) 34.5% (6.75 ms, spread 7.6%;
		// first); bf16 autocast 13.0% (8.97 ms, spread 2.1%); all 45.9%
		// (5.58 ms). From bf16 (traced): the side-stream copy 37.8%
		// (spread 8.3%; first, the one lever measured alone from it).
		// From overlap (untraced, so no row): bf16 17.4% (spread 8.3%).
		{"sat.default", "sat.overlap", "copy-overlap", true, 0, ""},
		{"sat.default", "sat.bf16", "bf16-autocast", false, 0, ""},
		{"sat.default", "sat.all", "copy-overlap+bf16-autocast", false, 0, ""},
		{"sat.bf16", "sat.all", "copy-overlap", true, 0, ""},
		// Held out, captured after the fits began (fixtures/host39,
		// host39.py; H200, 2026-12-02 17:33-17:38, one device call):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host39Read (set at the
		// lead's read). First as for host15 to host38. Three processes
		// a variant (each default four; fixtures/README.md).
		// draw: a Quick, Draw! sketch classifier's training step (1.26M:
		// a VGG-style CNN, batch 128 of 64x64, Adam) whose main-process
		// Dataset parses ndjson lines and draws their strokes with PIL
		// (94 to 98 ms of 106 to 110 ms profiled steps), a loss.item()
		// stop check every step: 5.8 ms of kernels a step, 164 kernels;
		// all runs 6.15 ms. Measured from default (58.18 ms, 48.08 to
		// 63.76, spread 26.9%): 8 workers, pinned (data-loader) 87.7%
		// (7.13 ms, spread 26.9%; first); the stop check every 50 steps
		// (step-read) 15.4% (49.20 ms, inside the spread); all 89.4%.
		// From workers (traced): the read removed 13.8% (spread 10.5%;
		// first, the one lever measured alone from it). From noread
		// (untraced, so no row): workers 87.5% (spread 16.2%).
		{"draw.default", "draw.workers", "data-loader", true, 0, ""},
		{"draw.default", "draw.noread", "step-read", false, 0, ""},
		{"draw.default", "draw.all", "data-loader+step-read", false, 0, ""},
		{"draw.workers", "draw.all", "step-read", true, 0, "not first, its value within the tolerance (priced 13.8% and third of eight, behind torch-compile's 25.2% and channels-last's 19.7%, neither measured on draw, against 13.8% measured and first, spread 10.5%): the stop check's loss.item() at host39.py(187): step, 0.966 ms of a 7.016 ms replayed step (measured 7.13), where the read every 50 steps measured 0.98 ms (7.13 -> 6.15); the two levers above it were not timed, so its order against them is not measured. At the read (e849d67, before 5ed893e kept a received transfer's native calls whole) 0.962 ms of 7.012, 13.7%, fourth, cuda-graphs' 13.8% (not timed) above it"},
		// nbeats: an N-BEATS-G training step (34.73M: 30 generic blocks
		// of 4 x 512, batch 4096, smape_2, clip_grad_norm_, Adam; no
		// loader, no read), FP32 with TF32 off: 1386 kernels a step,
		// 27.4 ms of kernels as traced (11.9 ms with TF32), the eager
		// host's issue about 35 ms a step. Measured from default (33.53
		// ms, 30.13 to 36.42, spread 18.8%): TF32 (tf32) 5.6% slower
		// (35.41 ms, inside the spread); the whole step as a CUDA graph
		// (cuda-graphs) 12.4% (29.38 ms, inside the spread; first, the
		// largest measured gain alone); all 57.6% (14.21 ms). From tf32
		// (traced): the CUDA graph 59.9% (spread 10.3%; first, the one
		// lever measured alone from it). From graphs (untraced, so no
		// row): TF32 51.6% (spread 0.2%).
		{"nbeats.default", "nbeats.tf32", "tf32", false, 0, ""},
		{"nbeats.default", "nbeats.graphs", "cuda-graphs", true, 0, "7.6 points past its tolerance, first as measured (priced 38.7% against 12.4%, spread 18.8%): the eager step replays at 44.868 ms a step where it measured 33.53 (34% over; 1386 launches a step, 365.01 ms traced for four steps), and the graphed step at 27.491 ms (17.377 ms priced) where it measured 29.38: the price's excess is the replayed eager host, 11.3 ms a step above the measured step, not the graph's floor"},
		{"nbeats.default", "nbeats.all", "tf32+cuda-graphs", false, 0, "1.0 points past its tolerance (priced 77.4% against 57.6%, spread 18.8%): as nbeats.default -> nbeats.graphs, the eager step replayed at 44.868 ms where it measured 33.53; the graphed TF32 step replayed at about 10.1 ms where it measured 14.21"},
		{"nbeats.tf32", "nbeats.all", "cuda-graphs", true, 0, "1.8 points past its tolerance, first as measured (priced 72.0% against 59.9%, spread 10.3%): the eager TF32 step replays at 42.998 ms where it measured 35.41 (21% over), and the graphed step at 12.057 ms (30.941 ms priced) where it measured 14.21"},
		// Held out, captured after the fits began (fixtures/host40,
		// host40.py; H200, 2026-12-02 18:31-18:36, one device call):
		// rows written from the measured timings before profan first
		// read the traces, and skipped until host40Read (set at the
		// lead's read). First as for host15 to host39. Three processes
		// a variant (each default four; fixtures/README.md).
		// eeg: a sleep-stage 1D ResNet's training step (7.27M, AdamW)
		// on 128 windows of 64 x 2048 cut with NumPy on the host each
		// step (67 MB), a pageable copy (9.5 ms a step traced) and
		// torch.cuda.synchronize() every step for a step timer: 314
		// kernels, 14.0 ms of kernels a step. Measured from default
		// (46.78 ms, 43.43 to 49.48, spread 12.9%): the synchronize
		// removed (cuda-synchronize) 25.6% (34.81 ms; first, a tie with
		// pinned inside the spread); pinned buffers written in place,
		// non_blocking copies on a side stream (pinned-memory) 25.4%
		// (34.91 ms); both 42.0% (27.14 ms, spread 20.2%). From pinned
		// (traced): the synchronize removed 22.3% (spread 20.2%; first,
		// the one lever measured alone from it: the next cut overlaps
		// the GPU's step). From nosync (untraced, so no row): pinned
		// 22.0% (spread 20.2%).
		{"eeg.default", "eeg.nosync", "cuda-synchronize", true, 0, "not first, its value within the tolerance (priced 16.4% and third of ten, behind cuda-graphs' 39.6%, not measured on eeg, and pinned-memory's 22.8%, measured 25.4%: a tie with this lever inside the spread, so either of the two first is fair; against 25.6% measured and first, spread 12.9%): torch.cuda.synchronize() at host40.py(173): step, 6.462 ms of a 39.346 ms replayed step (measured 46.78), where removing it measured 11.97 ms (46.78 -> 34.81); cuda-graphs first is the check eeg.default misses"},
		{"eeg.default", "eeg.pinned", "pinned-memory", false, 0, ""},
		{"eeg.default", "eeg.all", "cuda-synchronize+pinned-memory", false, 0, ""},
		{"eeg.pinned", "eeg.all", "cuda-synchronize", true, 0, "1.7 points past its tolerance, not first (priced 0.4%, sixth of eight and under the 1% floor, against 22.3% measured and first, spread 20.2%): torch.cuda.synchronize() at host40.py(193): step priced at 0.112 ms of a 27.170 ms replayed step, where the step measured 34.91 ms and without the synchronize 27.14: the pinned step replays at about the synchronize-free step's measure, so the lever finds nothing left to take (0.27 ms of host sync in the 175.58 ms traced); cuda-graphs first (43.8%, not timed). By these figures; where the replay loses the synchronize's wait was not traced further"},
		// qa: an extractive QA service's loop (49.02M BERT-style
		// encoder, 6 x 768 at 256 tokens, FP32 with TF32 off, no grad):
		// 32 requests a step tokenized in Python (some 7300 WordPiece
		// calls), then per request the start and end logits read with
		// .cpu() (64 reads a step) and the spans scored in NumPy: 133
		// kernels, 17.8 ms of kernels a step (2.5 ms under bf16).
		// Measured from default (40.79 ms, 39.74 to 43.58, spread
		// 9.4%): the spans scored for the batch on the GPU, one read
		// (step-read) 30.2% (28.46 ms); bf16 autocast (bf16-autocast)
		// 38.7% (24.99 ms; first); both 51.7% (19.68 ms, spread 53.2%:
		// qa.all's processes 13.97 to 24.45). From bf16 (traced): the
		// spans on the GPU 21.2% (inside the 53.2% spread; first, the
		// one lever measured alone from it). From gpupost (untraced, so
		// no row): bf16 30.8% (spread 53.2%).
		{"qa.default", "qa.gpupost", "step-read", false, 0, "16.5 points past its tolerance, and first where bf16-autocast measured first (priced 56.8% against 30.2%, spread 9.4%, tolerance 10 points): the 64 .cpu() reads at host40.py(384): step and the loop around them, 25.520 ms of a 44.968 ms replayed step (the loop 37.9% of it; measured 40.79), where scoring the spans on the GPU with one read measured 12.33 ms saved (40.79 -> 28.46): the replayed step is 10% long and the loop's host time priced at about twice its measure"},
		{"qa.default", "qa.bf16", "bf16-autocast", true, 0, "12.5 points past its tolerance, sixth of eight where it measured first (priced 16.2% against 38.7%, spread 9.4%, tolerance 10 points): the FP32 GEMMs on the FMA pipe (100 launches, 86.6% of the kernel time) and the FP32 attention moved to bf16, autocast's casts priced on the host, 7.285 ms of a 44.968 ms replayed step, where bf16 measured 15.80 ms saved (40.79 -> 24.99); tf32 and bf16-weights, the same GEMMs without the casts, are both priced 8.119 ms: the replayed host (the step 44.968 ms against 40.79 measured, the bf16 trace's 25.912 against 24.99) floors what a faster encoder saves"},
		{"qa.default", "qa.all", "step-read+bf16-autocast", false, 0, ""},
		{"qa.bf16", "qa.all", "step-read", true, 0, "not first, its value within the tolerance (priced 32.2% and second of five, behind cuda-graphs' 57.9%, the loop's body between its reads as graphs, not measured on qa, against 21.2% measured and first, spread 53.2%): the 64 .cpu() reads at host40.py(384): step, 8.344 ms of a 25.912 ms replayed step (measured 24.99)"},
	} {
		if host29Held(p.before) || host30Held(p.before) || host31Held(p.before) || host32Held(p.before) || host33Held(p.before) || host34Held(p.before) || host35Held(p.before) || host36Held(p.before) || host37Held(p.before) || host38Held(p.before) || host39Held(p.before) || host40Held(p.before) {
			continue
		}
		trace := p.before
		if session, rest, ok := strings.Cut(p.before, "/"); ok && session != "" {
			trace = rest
		}
		if p.before == "host14/unet.bf16" || p.before == "host24c/unet.bf16" {
			trace = "unet.bf16.r1"
		}
		if strings.HasPrefix(p.before, "host25c/") || strings.HasPrefix(p.before, "host26d/") {
			// host25c traced its own steps (without with_stack), host26d
			// its own (with it).
			trace = p.before
		}
		if strings.HasPrefix(p.before, "host26c/") {
			// host26c's first trace of its step in the process (with
			// with_stack, as the fit set's): r4's spike.default, pid 860.
			trace = "host26c/r4." + strings.TrimPrefix(p.before, "host26c/") + ".stack"
		}
		app := read[trace]
		if app == nil {
			dir := "host8/"
			if strings.Contains(trace, "/") {
				dir = ""
			}
			if strings.HasPrefix(trace, "copy.") {
				dir = "host9/"
			}
			if strings.HasPrefix(trace, "unet4.") || strings.HasPrefix(trace, "split") {
				dir = "host10/"
			}
			if strings.HasPrefix(trace, "cls.") || strings.HasPrefix(trace, "mlp.") {
				dir = "host12/"
			}
			if strings.HasSuffix(trace, ".r1") {
				dir = "host11/"
			}
			if strings.HasPrefix(trace, "audio.") || strings.HasPrefix(trace, "voxel.") {
				dir = "host15/"
			}
			if strings.HasPrefix(trace, "fluid.") || strings.HasPrefix(trace, "embed.") {
				dir = "host16/"
			}
			if strings.HasPrefix(trace, "rl.") || strings.HasPrefix(trace, "log.") {
				dir = "host17/"
			}
			if strings.HasPrefix(trace, "det.") || strings.HasPrefix(trace, "gnn.") {
				dir = "host18/"
			}
			if strings.HasPrefix(trace, "s2s.") || strings.HasPrefix(trace, "hook.") {
				dir = "host19/"
			}
			if strings.HasPrefix(trace, "amp.") || strings.HasPrefix(trace, "ctc.") {
				dir = "host20/"
			}
			if strings.HasPrefix(trace, "mlm.") || strings.HasPrefix(trace, "aug.") {
				dir = "host21/"
			}
			if strings.HasPrefix(trace, "rec.") || strings.HasPrefix(trace, "ddpm.") {
				dir = "host22/"
			}
			if strings.HasPrefix(trace, "nerf.") || strings.HasPrefix(trace, "ppo.") {
				dir = "host23/"
			}
			if strings.HasPrefix(trace, "tab.") || strings.HasPrefix(trace, "spike.") {
				dir = "host24/"
			}
			if strings.HasPrefix(trace, "mol.") || strings.HasPrefix(trace, "exit.") {
				dir = "host25/"
			}
			if strings.HasPrefix(trace, "clip.") || strings.HasPrefix(trace, "spec.") {
				dir = "host26/"
			}
			if strings.HasPrefix(trace, "ts.") || strings.HasPrefix(trace, "prune.") {
				dir = "host27/"
			}
			if strings.HasPrefix(trace, "spk.") || strings.HasPrefix(trace, "vq.") {
				dir = "host28/"
			}
			if strings.HasPrefix(trace, "seg.") || strings.HasPrefix(trace, "ode.") {
				dir = "host29/"
			}
			if strings.HasPrefix(trace, "gan.") || strings.HasPrefix(trace, "crf.") {
				dir = "host30/"
			}
			if strings.HasPrefix(trace, "sr.") || strings.HasPrefix(trace, "vid.") {
				dir = "host31/"
			}
			if strings.HasPrefix(trace, "mae.") || strings.HasPrefix(trace, "tts.") {
				dir = "host32/"
			}
			if strings.HasPrefix(trace, "w2v.") || strings.HasPrefix(trace, "pose.") {
				dir = "host33/"
			}
			if strings.HasPrefix(trace, "detr.") || strings.HasPrefix(trace, "depth.") {
				dir = "host34/"
			}
			if strings.HasPrefix(trace, "flow.") || strings.HasPrefix(trace, "ocr.") {
				dir = "host35/"
			}
			if strings.HasPrefix(trace, "vol.") || strings.HasPrefix(trace, "sgns.") {
				dir = "host36/"
			}
			if strings.HasPrefix(trace, "kd.") || strings.HasPrefix(trace, "sent.") {
				dir = "host37/"
			}
			if strings.HasPrefix(trace, "retr.") || strings.HasPrefix(trace, "sat.") {
				dir = "host38/"
			}
			if strings.HasPrefix(trace, "draw.") || strings.HasPrefix(trace, "nbeats.") {
				dir = "host39/"
			}
			if strings.HasPrefix(trace, "eeg.") || strings.HasPrefix(trace, "qa.") {
				dir = "host40/"
			}
			gr := fixtureGrouper(t, dir+trace+".json.gz")
			app, tls[trace] = gr.App(), gr.Timeline
			read[trace] = app
		}
		est, first := wallGain(app, p.rule)
		// A lever profan does not advise is priced at no gain (the
		// table says none); a combination needs every lever advised.
		advised := !math.IsNaN(est)
		if !advised && !strings.Contains(p.rule, "+") {
			est = 0
		}
		// A combination replays the levers profan advises together; one
		// it does not advise adds nothing, as a lone lever not advised is
		// priced at no gain (the cell names it: never a NaN).
		var unadvised []string
		if strings.Contains(p.rule, "+") {
			var ls []*analysis.Lever
			for _, id := range strings.Split(p.rule, "+") {
				found := false
				for _, r := range app.Recommendations {
					if r.Rule == id && r.Lever != nil {
						ls, found = append(ls, r.Lever), true
					}
				}
				if !found {
					unadvised = append(unadvised, id)
				}
			}
			est, advised = 0, len(ls) > 0
			if w, ok := tls[trace].Replay(verdict.MergeLevers(ls...)); ok && advised {
				est = w.Gain()
			}
		}
		before, after := procs[p.before], procs[p.after]
		measured := 1 - stats.Median(after)/stats.Median(before)
		spread := math.Max(rel(before), rel(after))
		tol := p.tol
		if tol == 0 {
			tol = math.Max(0.10, spread)
		}
		holds := !math.IsNaN(est) && math.Abs(est-measured) <= tol && first == p.first
		switch {
		case p.miss != "" && holds:
			t.Errorf("%s → %s: %s, a known miss, now lands within %.0f points (estimated %.1f%%, measured %.1f%%): drop its miss note",
				p.before, p.after, p.rule, 100*tol, 100*est, 100*measured)
		case p.miss != "":
			misses = append(misses, fmt.Sprintf("- %s → %s (%s): estimated %.1f%%, measured %.1f%% (tolerance %.0f points): %s.",
				p.before, p.after, p.rule, 100*est, 100*measured, 100*tol, p.miss))
		case !holds:
			t.Errorf("%s → %s: %s estimated %.1f%% of the wall time (first: %v), measured %.1f%% (tolerance %.0f points, first %v)",
				p.before, p.after, p.rule, 100*est, first, 100*measured, 100*tol, p.first)
		}
		estCell := fmt.Sprintf("%.1f%%", 100*est)
		switch {
		case !advised:
			estCell = "none"
		case len(unadvised) > 0:
			estCell += " (" + strings.Join(unadvised, ", ") + ": none)"
		}
		fmt.Fprintf(b, "| %s → %s | %s | %v | %s | %.1f%% | %+.1f | %.0f%% |\n", p.before, p.after, p.rule, first, estCell, 100*measured, 100*(est-measured), 100*spread)
	}
	engineUnits(t, b)
	profilerShare(t, b)
	withStackPairs(t, b)
	// Each host lever names the call and the frame that does it.
	for _, c := range []struct{ capture, rule, names, miss string }{
		{"moe.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host8.py(124): __getitem__", ""},
		{"moe.default", "host-read", ".tolist() at host8.py(146): forward", ""},
		{"moe.default", "step-read", ".item() at host8.py(235): step", ""},
		{"vision.default", "data-loader", "host8.py(285): __getitem__", ""},
		{"copy.default", "pinned-memory", ".to() at copy9.py(73): once", ""},
		{"copy.default", "step-read", ".item() at copy9.py(73): once", ""},
		{"split.default", "step-read", ".item() at host10.py(97): check", ""},
		{"split.default", "cuda-graphs", ".item() at host10.py(97): check", ""},
		// Held out (fixtures/host12), written before the first read.
		{"cls.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host12.py(72): collate", ""},
		{"cls.default", "host-read", "aten::index → cudaStreamSynchronize at host12.py(106): forward", ""},
		{"cls.default", "cuda-synchronize", "host12.py(136): step", ""},
		{"cls.default", "step-read", ".cpu() at host12.py(136): step", ""},
		// Added with the fix after the first read: the optimizer's step
		// is named by its range and the line that steps it.
		{"mlp.default", "fused-optimizer", "Optimizer.step#Adam.step at host12.py(182): once", ""},
		// A host read inside a forward breaks torch.compile's graph:
		// its Python stays priced, and the advice says which read.
		{"moe.default", "torch-compile", "at host8.py(146): forward breaks the compiled graph", ""},
		{"cls.default", "torch-compile", "at host12.py(106): forward breaks the compiled graph", ""},
		// Held out (fixtures/host15), written before the first read,
		// which failed all four as written: they named the lines of the
		// calls (host14.py(145), (182), (230), (244)), where
		// torch.profiler's frames carry the function's first line, as
		// host12's do (host12.py(136): step). profan named each with its
		// frame; the expectations were corrected after the read, no
		// code changed.
		{"audio.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host14.py(143): __getitem__", ""},
		{"audio.default", "step-read", ".item() at host14.py(173): step", ""},
		{"voxel.default", "host-read", ".nonzero() at host14.py(216): forward", ""},
		{"voxel.default", "host-read", "aten::_unique2 → cudaStreamSynchronize at host14.py(216): forward", ""},
		// Held out (fixtures/host16), written before the first read:
		// the frame only (torch.profiler's frames carry the function's
		// first line): the convergence test in solve, the pageable
		// .cpu() in step.
		{"fluid.default", "step-read", "host16.py(104): solve", ""},
		// It failed at the first read (main at 1256fd9: "4 host copies
		// use pageable memory: 102.8 MB in 7.09 ms", no call, no frame);
		// fixed after it: the .cpu() of a bulk transfer is the pageable
		// copy's sync, named as .to()'s are.
		{"embed.default", "pinned-memory", ".cpu() at host16.py(243): step", ""},
		// Added with the fix after the read: a read many times a step
		// bounds every region a graph captures; the graphs advice names it.
		{"fluid.default", "cuda-graphs", "aten::is_nonzero → cudaStreamSynchronize at host16.py(104): solve), so a graph holds only the loop's body between two reads", ""},
		// Held out (fixtures/host17), written before the first read: the
		// logging reads in log's step, its for-loop AdamW stepped in once,
		// and on rl the action read that bounds what a graph captures.
		{"log.default", "step-read", ".item() at host17.py(299): step", ""},
		// It failed at the first read (the clipping's kernels named as a
		// foreach SGD step); fixed after it.
		{"log.default", "fused-optimizer", "Optimizer.step#AdamW.step at host17.py(278): once", ""},
		{"rl.default", "cuda-graphs", "host17.py(184): act", ""},
		// Held out (fixtures/host18), written before the first read (the
		// frames carry the function's first line): det's per-image
		// reads in post_image, gnn's sampler (Sampler.__call__, the
		// collate_fn) under the DataLoader's iterator, and its metric's
		// .cpu() in step.
		{"det.default", "host-read", "host18.py(141): post_image", ""},
		{"gnn.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host18.py(233): __call__", ""},
		{"gnn.default", "step-read", ".cpu() at host18.py(321): step", ""},
		// Held out (fixtures/host19), written before the first read (the
		// frames carry the function's first line): hook's timers'
		// torch.cuda.synchronize() in LayerTimer.start, on the default
		// step and on the bf16 step its host bounds.
		{"hook.default", "cuda-synchronize", "host19.py(282): start", ""},
		{"hook.bf16", "cuda-synchronize", "host19.py(282): start", ""},
		// Added after the first read, with its fix (issue 41): the
		// graphs advice names the synchronize that blocks capture.
		{"hook.default", "cuda-graphs", "torch.cuda.synchronize() at host19.py(282): start", ""},
		{"hook.bf16", "cuda-graphs", "torch.cuda.synchronize() at host19.py(282): start", ""},
		// Added at the first read (main at ca37f14), which it missed: the
		// allocator's time, empty_cache's cudaFree at host19.py(202):
		// step, is named in the timeline, but no lever priced it (the
		// row from default to nocache held in value only: none against
		// 25.9%, spread 32%). Fitted after the read: allocator-churn
		// names the call and its frame.
		{"s2s.default", "allocator-churn", "torch.cuda.empty_cache() at host19.py(202): step", ""},
		{"s2s.static", "allocator-churn", "torch.cuda.empty_cache() at host19.py(202): step", ""},
		// Held out (fixtures/host20), written before the first read (the
		// frames carry the function's first line): the EMA's loop in
		// ModelEma.update, which fused-optimizer's for-loop collapse would
		// have to name; ctc's CER read in cer and the loss's read of the
		// GPU lengths in step.
		// First read, with main at 85943a1 (15:25): all three missed.
		// The EMA's frame was written (121), the def line; the profiler's
		// frame of a decorated function carries the decorator's line
		// (120), corrected after the read, no code changed.
		// Fixed after the read, by mechanism: foreach-loop names the
		// EMA's line (the first read's note: "no rule names the EMA's
		// loop: fused-optimizer names AdamW's foreach step (7 foreach
		// kernels, 60 launches) and prices it alone").
		{"amp.default", "foreach-loop", "host20.py(120): update", ""},
		// GradScaler's found_inf read, fused-optimizer's: a fused step
		// is handed found_inf on the device (added with the fix after
		// the read; at the first read step-read advised reading it every
		// N steps, which GradScaler cannot do).
		{"amp.default", "fused-optimizer", ".item() at host20.py(143): step", ""},
		{"amp.foreach", "fused-optimizer", ".item() at host20.py(143): step", ""},
		// At the first read both ctc checks missed: "step-read names the
		// loss's syncs (aten::ctc_loss → cudaStreamSynchronize at
		// host20.py(249): step, and CtcLossBackward0's) as a read in a
		// loop of the step, about 8 a step, and advises testing it every
		// N iterations; the CER's .tolist() is named by host-read", and
		// "host-read names the CER's .tolist() at host20.py(233): cer as
		// a read that sizes tensors; the loss's read of the GPU lengths
		// is named by step-read". Fixed after the read, by mechanism: a
		// .tolist() never between the step's launches sizes nothing (a
		// value read: step-read's); a sync inside an op the user called
		// that waits for a device-to-host copy is the op reading its
		// argument (host-read's).
		{"ctc.default", "step-read", ".tolist() at host20.py(233): cer", ""},
		{"ctc.default", "host-read", "host20.py(249): step", ""},
		// Held out (fixtures/host21), written before the first read (the
		// frames carry the function's first line): mlm's boolean-mask
		// reads in mlm_loss and its log's .item() in step; aug's
		// per-image loop in aug_loop and its metrics' .cpu() in step.
		{"mlm.default", "host-read", "host21.py(103): mlm_loss", ""},
		{"mlm.default", "step-read", ".item() at host21.py(129): step", ""},
		// At the first read (main at 5713ddc, 18:40) no rule named the
		// per-image loop (it is named in the timeline's other Python).
		// First-read record: {"aug.default", "foreach-loop", …, "no
		// foreach-loop advice: the loop's per-image ops (select and slice
		// views, flip, clamp_, mean, stack) fall outside its elementwise
		// update ops, and no other rule names a per-item loop over the
		// batch"}; item-loop names it since.
		{"aug.default", "item-loop", "host21.py(157): aug_loop", ""},
		{"aug.default", "step-read", ".cpu() at host21.py(215): step", ""},
		// Held out (fixtures/host22), written before the first read (the
		// frames carry the function's first line): rec's Dataset item
		// (ClickLog.__getitem__: the line's parsing and hashing) under
		// the DataLoader's iterator, its forward's torch.unique reads;
		// ddpm's per-sample int(t) reads in step.
		{"rec.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host22.py(102): __getitem__", ""},
		{"rec.default", "host-read", "aten::_unique2 → cudaStreamSynchronize at host22.py(130): forward", ""},
		{"rec.workers", "host-read", "at host22.py(130): forward", ""},
		{"ddpm.default", "step-read", "at host22.py(196): step", ""},
		// Held out (fixtures/host23), written before the first read:
		// nerf's boolean-mask reads (x[m], raw[m] = out) and ppo's
		// logging reads, both in their step.
		{"nerf.default", "host-read", "at host23.py(158): step", ""},
		{"ppo.default", "step-read", "at host23.py(238): step", ""},
		// Held out (fixtures/host24), written before the first read:
		// tab's Dataset item (TabSet.__getitem__: the row's parsing and
		// feature engineering) under the DataLoader's iterator; spike's
		// guard reading the gradient norm in guard_host, which also
		// bounds what a graph of the step can hold.
		{"tab.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host24.py(169): __getitem__", ""},
		{"spike.default", "step-read", ".item() at host24.py(366): guard_host", ""},
		{"spike.bf16", "step-read", ".item() at host24.py(366): guard_host", ""},
		{"spike.bf16", "cuda-graphs", "host24.py(366): guard_host", ""},
		// Held out (fixtures/host25), written before the first read (the
		// frames carry the function's first line): mol's Dataset item
		// (MolSet.__getitem__: the XYZ parsing, the rotation, the radius
		// graph) under the DataLoader's iterator, its readout's
		// int(batch.max()) in SchNet.forward and the loss's .item() in
		// check; exit's check after every block in forward_host.
		{"mol.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host25.py(136): __getitem__", ""},
		{"mol.default", "step-read", "at host25.py(213): forward", ""},
		{"mol.default", "step-read", ".item() at host25.py(249): check", ""},
		{"exit.default", "step-read", ".item() at host25.py(328): forward_host", ""},
		{"exit.bf16", "step-read", ".item() at host25.py(328): forward_host", ""},
		// Held out (fixtures/host26), written before the first read:
		// clip's Dataset item (PairSet.__getitem__: the JPEG decode, the
		// crop and flip, the caption's tokenization) under the
		// DataLoader's iterator, its clipped norm's .item() in step;
		// spec's accepted counts' .tolist() (they size the slices launched
		// after it: a shape read) and its EOS check's .item() in
		// host_step (decorated: the frame carries the decorator's line).
		{"clip.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host26.py(157): __getitem__", ""},
		{"clip.default", "step-read", ".item() at host26.py(261): step", ""},
		{"clip.workers", "step-read", ".item() at host26.py(261): step", ""},
		{"spec.default", "host-read", ".tolist() at host26.py(392): host_step", ""},
		{"spec.default", "step-read", ".item() at host26.py(392): host_step", ""},
		{"spec.bf16", "host-read", ".tolist() at host26.py(392): host_step", ""},
		{"spec.bf16", "step-read", ".item() at host26.py(392): host_step", ""},
		// Added with shape-plans (hostop27, after the read): the op that
		// builds a plan for each new key length, and its frame.
		{"spec.bf16", "shape-plans", "aten::scaled_dot_product_attention at host26.py(113): attend", ""},
		// Held out (fixtures/host27), written before the first read (the
		// frames carry the function's first line): ts's Dataset item
		// (SeriesSet.__getitem__: the window, its gaps filled, its
		// normalization) under the DataLoader's iterator, its plateau
		// check's loss.item() in step; prune's three int(...) counts in
		// PruneViT.prune (a shape read: each sizes the topk and the
		// gather after it).
		{"ts.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host27.py(148): __getitem__", ""},
		{"ts.default", "step-read", ".item() at host27.py(229): step", ""},
		{"ts.workers", "step-read", ".item() at host27.py(229): step", ""},
		{"prune.default", "host-read", "at host27.py(285): prune", ""},
		{"prune.bf16", "host-read", "at host27.py(285): prune", ""},
		// Held out (fixtures/host28), written before the first read (the
		// frames carry the function's first line; update's its
		// decorator's): spk's Dataset item (SpeechSet.__getitem__: the
		// waveform, its STFT, mel bands and SpecAugment) under the
		// DataLoader's iterator; vq's dead-code restart in
		// Codebook.update, whose nonzero() sizes the random picks and the
		// indexed writes after it (a shape read).
		{"spk.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host28.py(141): __getitem__", ""},
		{"vq.default", "host-read", ".nonzero() at host28.py(314): update", ""},
		{"vq.bf16", "host-read", ".nonzero() at host28.py(314): update", ""},
		// Added with hostfix28c's fix after host27b's bf16compile (54.7%
		// slower compiled, priced 3.8%): torch-compile names the read
		// the shapes after it follow, and leaves compile unpriced.
		{"prune.bf16", "torch-compile", "Dynamo breaks the compiled graph at aten::item → cudaStreamSynchronize at host27.py(285): prune, a scalar read inside the forward, and the shapes after it change from step to step", ""},
		// Held out (fixtures/host29), written before the first read and
		// skipped until host29Read (the frames carry the function's
		// first line): seg's Dataset item (SceneSet.__getitem__: the
		// scene and its joint augmentation) under the DataLoader's
		// iterator; seg's metric read (.cpu() of the argmax in step);
		// ode's solver reads in dopri5, called from the forward.
		{"seg.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host29.py(155): __getitem__", ""},
		{"seg.default", "step-read", ".cpu() at host29.py(249): step", ""},
		{"seg.workers", "step-read", ".cpu() at host29.py(249): step", ""},
		{"ode.default", "step-read", "host29.py(338): dopri5", ""},
		// Held out (fixtures/host30), written before the first read and
		// skipped until host30Read (the frames carry the function's
		// first line): crf's Dataset item (SentenceSet.__getitem__: the
		// sentence and its slow tokenization) under the DataLoader's
		// iterator; gan's statistics' .item() in train (called by the
		// step); crf's decode reads in pytorch-crf's CRF.decode.
		{"gan.default", "step-read", ".item() at host30.py(200): train", ""},
		{"gan.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", ""},
		{"crf.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host30.py(362): __getitem__", ""},
		{"crf.default", "step-read", ".item() at host30.py(458): decode", ""},
		{"crf.workers", "step-read", ".item() at host30.py(458): decode", ""},
		// Held out (fixtures/host31), written before the first read and
		// skipped until host31Read (the frames carry the function's
		// first line): sr's loss read in step and its EMA loop in
		// model_ema; vid's Dataset item (ClipSet.__getitem__: eight JPEG
		// decodes a clip) under the DataLoader's iterator; vid's metrics'
		// reads in step.
		{"sr.default", "step-read", ".item() at host31.py(191): step", ""},
		{"sr.default", "foreach-loop", "host31.py(183): model_ema", ""},
		{"vid.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host31.py(249): __getitem__", ""},
		{"vid.default", "step-read", ".item() at host31.py(328): step", ""},
		{"vid.workers", "step-read", ".item() at host31.py(328): step", ""},
		// Held out (fixtures/host32), written before the first read and
		// skipped until host32Read (the frames carry the function's
		// first line; mae.default's are host32.py's at a0bb6b9): tts's
		// Dataset item (UttSet.__getitem__: four np.loads an utterance)
		// under the DataLoader's iterator and its loss's masked_selects
		// in fs2_loss; mae's loss read and synchronize in step. The
		// length regulator's reads are held by host32Checks (host-read's
		// or step-read's advice).
		{"tts.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host32.py(430): __getitem__", ""},
		{"tts.noread", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host32.py(430): __getitem__", ""},
		{"tts.default", "host-read", "host32.py(595): fs2_loss", ""},
		{"mae.default", "step-read", ".item() at host32.py(342): step", ""},
		{"mae.default", "cuda-synchronize", "host32.py(342): step", ""},
		// Held out (fixtures/host33), written before the first read and
		// skipped until host33Read (the frames carry the function's
		// first line, host33.py's at 315230f): pose's Dataset item
		// (JointsDataset.__getitem__) under the DataLoader's iterator on
		// both pose traces, and its loss read and accuracy copies in
		// step. w2v's reads are held by host33Checks (get_grad_norm's in
		// host-read's or step-read's advice).
		{"pose.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host33.py(542): __getitem__", ""},
		{"pose.noread", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host33.py(542): __getitem__", ""},
		{"pose.default", "step-read", "host33.py(693): step", ""},
		// Held out (fixtures/host34), written before the first read and
		// skipped until host34Read (the frames carry the function's
		// first line, host34.py's at f99263a): depth's Dataset item
		// (DataLoadPreprocess.__getitem__) under the DataLoader's
		// iterator on both depth traces, and detr's per-step reads
		// (metric_logger's, the stop check) in its step.
		{"depth.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host34.py(616): __getitem__", ""},
		{"depth.noread", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host34.py(616): __getitem__", ""},
		{"detr.default", "step-read", "host34.py(540): step", ""},
		// Held out (fixtures/host35), written before the first read and
		// skipped until host35Read (the frames carry the function's
		// first line, host35.py's at 36da38a): ocr's Dataset item
		// (SynthLines.__getitem__) under the DataLoader's iterator, its
		// per-step reads (cost.item(), the accuracy's .cpu()) in its
		// step, and flow's reads in sequence_loss (the mask's indexing,
		// the four metrics).
		{"ocr.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host35.py(509): __getitem__", ""},
		{"ocr.default", "step-read", "host35.py(613): step", ""},
		{"flow.default", "host-read", "host35.py(413): sequence_loss", ""},
		{"flow.default", "step-read", "host35.py(413): sequence_loss", ""},
		// Held out (fixtures/host36), written before the first read and
		// skipped until host36Read (the frames carry the function's
		// first line, host36.py's at 57d0fb7): the per-step reads in
		// step (vol's loss .cpu(), sgns's loss.item(), before and after
		// the negatives move to the GPU).
		{"vol.default", "step-read", "host36.py(271): step", ""},
		{"sgns.default", "step-read", "host36.py(413): step", ""},
		{"sgns.gpu", "step-read", "host36.py(413): step", ""},
		// Held out (fixtures/host37), written before the first read and
		// skipped until host37Read (the frames carry the function's
		// first line, host37.py's at c3503b5): kd's pageable batch copy,
		// its loss.item() and its timer's torch.cuda.synchronize() in
		// step; sent's tokenizing Dataset item under the single-process
		// iterator, the lengths' .to('cpu') in RNN.forward and the
		// per-step reads (loss.item(), acc.item()) in step, before and
		// after the loader moves to workers.
		{"kd.default", "pinned-memory", "host37.py(219): step", ""},
		{"kd.default", "cuda-synchronize", "host37.py(219): step", ""},
		{"kd.default", "step-read", "host37.py(219): step", ""},
		{"sent.default", "data-loader", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host37.py(313): __getitem__", ""},
		// Missed at the first read (the lengths' .to('cpu') read as a
		// pageable copy's sync): fitted after it, a tensor read back
		// whose values size the work after it is a sizing read
		// (tensorRead), host-read's, on both traces.
		{"sent.default", "host-read", "host37.py(339): forward", ""},
		{"sent.default", "step-read", "host37.py(376): step", ""},
		{"sent.workers", "host-read", "host37.py(339): forward", ""},
		{"sent.workers", "step-read", "host37.py(376): step", ""},
		// Held out (fixtures/host38), written before the first read and
		// skipped until host38Read (the frames carry the function's
		// first line, host38.py's at 6008d20): retr's per-step
		// torch.cuda.empty_cache() and loss.item() in step, its hard
		// negatives' torch.nonzero in TwoTower.forward, with and
		// without the cache emptied.
		{"retr.default", "allocator-churn", "torch.cuda.empty_cache() at host38.py(168): step", ""},
		{"retr.default", "host-read", "host38.py(121): forward", ""},
		{"retr.default", "step-read", "host38.py(168): step", ""},
		{"retr.nocache", "host-read", "host38.py(121): forward", ""},
		{"retr.nocache", "step-read", "host38.py(168): step", ""},
		// Held out (fixtures/host39), written before the first read and
		// skipped until host39Read (the frames carry the function's
		// first line, host39.py's at e78bb77): draw's ndjson parsed and
		// drawn in DoodleSet.__getitem__ on the step's thread, its stop
		// check's loss.item() in step, with the loader in the main
		// process and in workers.
		{"draw.default", "data-loader", "host39.py(133): __getitem__", ""},
		{"draw.default", "step-read", "host39.py(187): step", ""},
		{"draw.workers", "step-read", "host39.py(187): step", ""},
		// Held out (fixtures/host40), written before the first read and
		// skipped until host40Read (the frames carry the function's
		// first line, host40.py's at 881e37e; qa's step carries its
		// decorator's): eeg's torch.cuda.synchronize() for the step
		// timer in step, pageable and pinned; qa's per-request .cpu()
		// reads of the start and end logits in step.
		{"eeg.default", "cuda-synchronize", "host40.py(173): step", ""},
		{"eeg.pinned", "cuda-synchronize", "host40.py(193): step", ""},
		{"qa.default", "step-read", "host40.py(384): step", ""},
		{"qa.bf16", "step-read", "host40.py(384): step", ""},
		// Added with hostfix29a's fix after host28b's vq.compile (47.1%
		// slower compiled, priced 13.4% and first): the reads in
		// Codebook.update, which Codebook.forward calls, are inside the
		// forward by the trace's frames; torch-compile names the read
		// whose count sizes the writes after it, and the frame it runs in.
		{"vq.default", "torch-compile", "Dynamo breaks the compiled graph at .nonzero() at host28.py(314): update, a shape read inside the forward", ""},
		{"vq.default", "torch-compile", "the read's frame host28.py(314): update runs inside host28.py(300): forward", ""},
		{"vq.bf16", "torch-compile", "the read's frame host28.py(314): update runs inside host28.py(300): forward", ""},
	} {
		if host29Held(c.capture) || host30Held(c.capture) || host31Held(c.capture) || host32Held(c.capture) || host33Held(c.capture) || host34Held(c.capture) || host35Held(c.capture) || host36Held(c.capture) || host37Held(c.capture) || host38Held(c.capture) || host39Held(c.capture) || host40Held(c.capture) {
			continue
		}
		found, named, msg := false, false, ""
		for _, r := range read[c.capture].Recommendations {
			if r.Rule == c.rule {
				found, msg = true, r.Message
				named = named || strings.Contains(r.Message, c.names)
			}
		}
		switch {
		case c.miss != "" && named:
			t.Errorf("%s: %s now names %s, a known miss: drop its miss note", c.capture, c.rule, c.names)
		case c.miss != "":
			misses = append(misses, fmt.Sprintf("- %s: %s does not name %s: %s.", c.capture, c.rule, c.names, c.miss))
		case !found:
			t.Errorf("%s: no %s advice", c.capture, c.rule)
		case !named:
			t.Errorf("%s: %s does not name %s: %s", c.capture, c.rule, c.names, msg)
		}
	}
	// CUDA graphs never first on a step they cannot capture.
	for _, r := range read["moe.default"].Recommendations {
		if r.Rule == "cuda-graphs" && !(r.Rank <= 0 && strings.Contains(r.Message, "cannot capture") && strings.Contains(r.Message, "tolist")) {
			t.Errorf("moe.default: cuda-graphs advised on a step it cannot capture: %s", r.Message)
		}
	}
	for _, name := range []string{"cls.default", "voxel.default"} {
		for i, r := range read[name].Recommendations {
			if r.Rule == "cuda-graphs" && (i == 0 || !strings.Contains(r.Message, "cannot capture")) {
				t.Errorf("%s: cuda-graphs advised on a step its data-dependent shapes keep from capture: %s", name, r.Message)
			}
		}
	}
	// Held out (fixtures/host16), written before the first read: a step
	// with a host read never has CUDA graphs first; on fluid, whose read
	// sits in every CG iteration, the advice says where capture stops.
	// Both failed at the first read (main at 1256fd9; the first read's
	// section below keeps it). embed.default's held since the fix after
	// the read: pinned-memory, pricing the .cpu() copy's sync, ranks above
	// cuda-graphs. fluid.default's expectation was refuted by measurement
	// (fixtures/host16b): a read inside a loop of the step bounds each
	// captured region, as decode's token read does, and the loop's body
	// captured once and replayed each iteration with the read kept ran
	// 69.8% faster (priced 74.1%), the largest lever measured alone from
	// the step. There graphs may come first, if the advice names the read.
	for _, c := range []struct {
		name string
		loop bool // the read sits in a loop inside the step
	}{
		{"fluid.default", true},
		{"embed.default", false},
	} {
		for i, r := range read[c.name].Recommendations {
			if r.Rule != "cuda-graphs" {
				continue
			}
			switch {
			case c.loop && !strings.Contains(r.Message, "host16.py(104): solve"):
				t.Errorf("%s: cuda-graphs does not name the read that bounds each captured region: %s", c.name, r.Message)
			case !c.loop && i == 0:
				t.Errorf("%s: cuda-graphs advised first on a step with a host read: %s", c.name, r.Message)
			}
		}
	}
	misses = append(misses, host17Read(t, tls)...)
	misses = append(misses, host18Read(t, read, tls)...)
	misses = append(misses, host19Read(t, read, tls)...)
	misses = append(misses, host20Read(t, read, tls)...)
	misses = append(misses, host21Read(t, read, tls)...)
	misses = append(misses, host22Read(t, read, tls)...)
	misses = append(misses, host23Read(t, read, tls)...)
	misses = append(misses, host24Read(t, read, tls)...)
	misses = append(misses, host25Read(t, read, tls)...)
	misses = append(misses, host26Read(t, read, tls)...)
	misses = append(misses, host27Read(t, read, tls)...)
	misses = append(misses, host28Read(t, read, tls)...)
	if host29Read {
		misses = append(misses, host29Checks(t, read, tls)...)
	}
	if host30Read {
		misses = append(misses, host30Checks(t, read, tls)...)
	}
	if host31Read {
		misses = append(misses, host31Checks(t, read, tls)...)
	}
	if host32Read {
		misses = append(misses, host32Checks(t, read, tls)...)
	}
	if host33Read {
		misses = append(misses, host33Checks(t, read, tls)...)
	}
	if host34Read {
		misses = append(misses, host34Checks(t, read, tls)...)
	}
	if host35Read {
		misses = append(misses, host35Checks(t, read, tls)...)
	}
	if host36Read {
		misses = append(misses, host36Checks(t, read, tls)...)
	}
	if host37Read {
		misses = append(misses, host37Checks(t, read, tls)...)
	}
	if host38Read {
		misses = append(misses, host38Checks(t, read, tls)...)
	}
	if host39Read {
		misses = append(misses, host39Checks(t, read, tls)...)
	}
	if host40Read {
		misses = append(misses, host40Checks(t, read, tls)...)
	}
	if len(misses) > 0 {
		b.WriteString("\nKnown misses, held out and not fitted:\n\n" + strings.Join(misses, "\n") + "\n")
	}
	b.WriteString(`
### fixtures/host12's first read

` + "`fixtures/host12`" + ` was captured after every fit of the host pricing; its rows above were written from the
measured timings before profan read its traces (commit 5ef9c12), then read once with main at de4c31e:

| before → after | rule | first | estimated | measured | spread |
| --- | --- | --- | ---: | ---: | ---: |
| cls.default → cls.all | data-loader+host-read+cuda-synchronize+step-read | false | none | 55.7% | 8% |
| cls.default → cls.workers | data-loader | true | 49.0% | 43.9% | 10% |
| cls.default → cls.nomask | host-read | false | none | 3.3% | 14% |
| cls.default → cls.nosync | host-read+cuda-synchronize+step-read | false | none | 11.2% | 20% |
| mlp.default → mlp.graphs | cuda-graphs | true | 91.2% | 84.6% | 32% |
| mlp.default → mlp.fused | fused-optimizer | false | none | 49.9% | 32% |

Both first levers agreed with the measured first. No host-read advice came: the boolean mask's sync is
named by its outer op (` + "`aten::index`" + `, and ` + "`IndexBackward0`" + ` in the backward pass), which the rules took for a
value read, so step-read claimed it (the advised step-read + cuda-synchronize replayed to 10.0%, with
data-loader 54.5%). That classification was fixed after the read (a sync inside indexing is a mask's
count), no pricing changed, and the three rows now read as in the table above; they are no longer a blind
check. fused-optimizer's miss was fixed after the read too, by mechanism: the rule reads a for-loop optimizer
step from the trace's ` + "`Optimizer.step#Adam.step`" + ` range (its per-parameter launches, 532 a step over 76
parameters) and prices ` + "`fused=True`" + ` by replaying the step with that range collapsed into a few multi-tensor
launches (docs/replay.md): 61.6% against the measured 49.9% (spread 32%), no longer a blind check; 58.1% since the fused step keeps the range's host outside the update (` + "`_init_group`" + `, the step's wrapper).
`)
	b.WriteString(`
### fixtures/host13's first read

` + "`torch.compile(model)`" + ` (default mode, the optimizer eager) had never been measured on a family profan prices it on;
` + "`fixtures/host13`" + ` timed it against the eager step in one session (three alternating processes each, compiled in 20
untimed warm-up steps: one graph, no graph break, no recompile), the rows were written from those timings, then
read once with main at 5378f30:

| before → after | rule | rank | estimated | measured | spread |
| --- | --- | ---: | ---: | ---: | ---: |
| unet.tf32 → unet.tf32compile | torch-compile | 1 | 15.5% | 21.6% | 1% |
| mlp.default → mlp.compile | torch-compile | 4 | 3.4% | 0.8% | 30% |

Both hold: on the UNet, compile is the largest lever measured from the TF32 step (CUDA graphs 6.4%, host8) and
profan ranks it first, 6.1 points under the measured gain; on the MLP, bound by its launches and its for-loop
Adam (which compile leaves eager), compile measured no gain beyond the processes' spread (medians 12.71 and
12.61 ms, processes 11.1 to 15.4 ms) and profan ranks it fourth at 3.4%, after CUDA graphs (measured 84.6%) and
the fused optimizer (49.9%). No pricing was changed. The bf16 pair (` + "`host11`" + `'s autocast UNet) was not timed: the
generator's budget skipped it; ` + "`fixtures/host14`" + ` timed it later (below).
`)
	b.WriteString(`
### fixtures/host14: torch.compile on a step its host bounds

host11's bf16 autocast UNet (kernels 7.3 ms a step; eager processes 12.7 to 16.7 ms) against its compiled form
(5.6 to 7.6 ms; one graph, no graph break), measured 62.0% (spread 35%), timed after profan's estimate was
written. With only the launches a fusion drops taken off the host, torch-compile was priced 15.4%, outside
the spread; taking off the model's ` + "`forward`" + ` Python too, which Dynamo traces into the graph (docs/replay.md), it is
priced 33.9%, first, under by 28 points: the compiled step replays to 5.5 ms, as measured, but the eager one to
8.4 ms, below every eager process: the profiler scale (0.4 then) took too much of this UNet's traced host away, as it
did on ` + "`fixtures/host10`" + `'s ` + "`unet4`" + ` (TF32 over-priced there for the same reason). With the profiler's cost taken per
record since, the eager step replays to 9.3 ms and compile is priced 36.0% (the table above), TF32 on ` + "`unet4`" + ` 41.5%.
`)
	b.WriteString(`
### fixtures/host15's first read

` + "`fixtures/host15`" + ` was captured after every fit of the host pricing (H200, 2026-11-29 00:29–00:35); its rows above were
written from the measured timings before profan read its traces (first as ` + "`host14`" + `, commit 1b917ee at 00:37, renamed
since), then read once with main at 5157b30 (01:45). *First* (measured) is the lever with the largest positive
measured gain from the step; on audio.default and voxel.default every measured lever slowed the step.

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| audio.default → audio.all | data-loader+step-read | | 61.0% | -105.5% | 32% | no |
| audio.default → audio.workers | data-loader | 1 | 59.8% | -62.4% | 32% | no |
| audio.default → audio.noread | step-read | 2 | 21.8% | -8.9% | 32% | yes |
| audio.all → audio.allbf16 | bf16-autocast | 8 | -1.2% | 8.0% | 15% | in value; not first |
| voxel.default → voxel.fixed | host-read | 3 | 3.3% | -4.9% | 4% | yes |
| voxel.fixed → voxel.graphs | cuda-graphs | 5 | 0.1% | 2.5% | 0% | in value; not first |

profan's first levers: data-loader on audio.default (59.8%; measured, workers slowed the step by 62%) and on
audio.all (85.8%, a step that already loads with 4 workers: the main thread's wait on the workers' queue is priced
as loading that workers would take off it), torch-compile on voxel.default (17.2%) and voxel.fixed (21.9%), not
measured. CUDA graphs were never first where they cannot capture: on voxel.default the advice says the step reads
GPU values to size its tensors (` + "`aten::_unique2`" + ` and ` + "`.nonzero()`" + ` at ` + "`host14.py(216): forward`" + `) and prices graphs at 0. The
data loader (` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host14.py(143): __getitem__`" + `), the
per-micro-batch ` + "`.item()`" + ` (` + "`host14.py(173): step`" + `) and both host reads are named with their frames, and the cause
splits below sum to the wall. The replayed audio step is 73.6 ms against 125 ms measured unprofiled (its profiled
steps ran 151 ms): the profiler scale, 0.4, fitted on host8's moe and unet steps (the MoE's traced host 96 ms
against 34.5 ms unprofiled), takes away time the profiler did not add to a loader whose work is numpy's C code. Fixed
after that read, a bug of "never advise what is in use" (no pricing changed): data-loader is no longer advised
where the loading iterator is ` + "`_MultiProcessingDataLoaderIter`" + `; audio.all now lists the workers as in use,
with the main thread's wait on their queue and what is left to do (cheaper per-sample work, the features on the
GPU, more workers while cores are idle, a numerical library's thread pool per worker checked), and ranks
cuda-graphs first (16.4%, not measured). Since, the profiler's cost is taken per record (below); this trace is among
the steps it was fitted on, and the audio step replays to 90.1 ms; since the loader's records are priced at the
trace's own Python call (` + "`loaderKeep`" + `, docs/replay.md), 117.5 ms.
Nothing was fitted to this capture.
`)
	b.WriteString(`
### fixtures/host16's first read

` + "`fixtures/host16`" + ` was captured after every fit of the host pricing (H200, 2026-11-29 02:55–02:58); its rows above were
written from the measured timings before profan read its traces (commit "analysis: host16's rows, written before the
first read"), then read once with main at 1256fd9 (04:05), text, JSON and this test: ` + "`profan analyze`" + ` takes no
measured step, so each trace's levers are priced on its own replayed step (fluid.default 12.69 ms unprofiled against
17.32 ms measured, fluid.fixed 14.51 against 17.08, embed.default 6.80 against 8.40, embed.pinned 5.07 against 6.18).
*First* (measured) is the lever with the largest positive measured gain of those measured alone from the step.

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| fluid.default → fluid.every8 | step-read | 4 | 1.1% | 3.8% | 4% | in value; not first |
| fluid.default → fluid.fixed | step-read | 4 | 1.1% | 1.4% | 26% | in value; not first |
| fluid.default → fluid.graphs | step-read+cuda-graphs | | 74.7% | 77.5% | 3% | yes |
| fluid.fixed → fluid.graphs | cuda-graphs | 1 | 76.0% | 77.2% | 26% | yes |
| embed.default → embed.pinned | pinned-memory | 3 | 18.7% | 26.4% | 21% | in value; not first |
| embed.default → embed.bf16 | bf16-autocast | none | 0 | 0.8% | 8% | yes |
| embed.default → embed.both | pinned-memory+bf16-autocast | | none | 30.0% | 17% | no |
| embed.pinned → embed.both | bf16-autocast | none | 0 | 4.8% | 21% | in value; not first |

profan's first lever is ` + "`cuda-graphs`" + ` on all four steps: right on fluid.fixed (76.0%, measured 77.2%); on fluid.default
(74.6%) a step it cannot capture whole, whose conjugate-gradient loop reads a GPU value about 106 times a step
(` + "`aten::is_nonzero`" + ` at ` + "`host16.py(104): solve`" + `): the rules take a sync many times a step for a loop's repeated read whose
body one graph holds (a decode loop's), price graphs over the whole step with the syncs kept, and say nothing of the
read; on embed.default (38.0%) and embed.pinned (41.3%), neither measured, on steps that wait for their feature copy
every step. On embed.default ` + "`step-read`" + ` (29.0%, second) and ` + "`pinned-memory`" + ` (18.7%, third) price the same ` + "`.cpu()`" + `
sync; bf16 autocast is not advised on these TF32 steps (` + "`bf16-weights`" + ` is, at 6.3% and 8.6%, within 10 points of the
measured 0.8% and 4.8%: the host floor holds), so the pinned + bf16 pair cannot be replayed. The convergence test
(` + "`aten::is_nonzero → cudaStreamSynchronize at host16.py(104): solve`" + `) and the ` + "`.cpu()`" + ` (` + "`host16.py(243): step`" + `) are named with
their frames by step-read and in the cause split below; pinned-memory counts the copies without naming the call.
The cause splits sum to the wall, and their launch-bound time is named by aten ops only. Nothing was fitted to
this capture and no pricing was changed after the read.

After the read, fixed by mechanism with the first read kept above (the rows' table and misses give the figures now):
a ` + "`.cpu()`" + ` whose copy is a bulk transfer to pageable memory (a device-to-host copy of 1 MB or more) waits for
the pageable copy, not for a value read: pinned-memory names it (` + "`.cpu() at host16.py(243): step`" + `) and prices it
alone, the copy at the pinned rate and its wait gone, 49.3% and first on embed.default (measured 26.4%, over by 22.8
points: the host's numpy store from a pinned buffer runs 3.61 ms a step in embed.pinned's trace against 1.07 ms from
the pageable one); step-read no longer prices the same sync (29.0% at the read). A graph no longer takes away the Python after its step's
last launch (the host using the step's results, here ` + "`store[slot] = ...numpy()`" + `, which no graph holds): cuda-graphs falls
from 38.0% to 2.4% on embed.default and from 41.3% to 3.5% on embed.pinned; elsewhere it moves by 0.5 points at most.
On embed.pinned the ` + "`cudaEventSynchronize`" + ` at ` + "`host16.py(243): step`" + ` (the double buffer's wait for the previous step's
copy, 0.01 ms a step in the trace) is a wait for one recorded event, the read already deferred: step-read lists it in
use instead of pricing its removal (30.9% at the read, replayed as a wait for all the queued work). On fluid.default
the graphs advice names the read that bounds every region it captures
(` + "`aten::is_nonzero → cudaStreamSynchronize at host16.py(104): solve`" + `, a value read many times a step between its
launches) and says the fix in its terms: the loop's body between two reads one graph, replayed each iteration with the read eager (what the replay prices, 74.1%,
first), or the test every N iterations or a fixed count (step-read), then the whole step in one graph. Its rank is
kept: decode_sync's token loop, the same shape in the trace, measured graphs first with its read kept.

Measured since, the first read kept as it stands above: ` + "`fixtures/host16b`" + ` (` + "`host16b.py`" + `, H200, 2026-11-29
04:38–04:39) times what the graphs advice says, never measured at the read, beside fluid.default and fluid.graphs in
one session (three alternating processes each): the CG iteration's body, everything between two convergence reads,
captured once as one CUDA graph on static buffers and replayed every iteration, ` + "`(new <= tol).all()`" + ` read after
each replay (the same 101–113 iterations a step as default). fluid.loopgraphs ran 6.39 ms a step against default's
21.15 ms in that session: 69.8% (spread 47%: default's processes ran 19.7 to 29.6 ms; against host16's 17.32 ms,
63.1%). profan's 74.1%, read from host16's trace, lands 4.3 points over, within 10 points (row
` + "`host16b/fluid.default → host16b/fluid.loopgraphs`" + ` above), and it is the largest lever measured alone from the
step (step-read's every8 3.8% and fixed 1.4%): **profan's first lever on fluid.default is confirmed by measurement**,
and the held-out expectation that step-read comes first, drawn from the one graphs variant then measured (the fixed
count in one graph, the read gone with it: 3.93 ms, 81.4% in the same session), is refuted. The read kept costs the
gap between the two graphs with the eager set-up around the solve, 2.46 ms a step (the whole-step graph runs 120
iterations, loopgraphs about 106). No pricing was changed.

Priced by mechanism since, the first read kept as it stands above: pinned memory does not take away the host's pass over
the copied bytes, it moves it. A staged (pageable) copy from the GPU is a DMA into the driver's pinned staging buffer,
at the link's rate, then the driver's memcpy out of it into the pageable tensor, inside the copy call: the staged copy
runs at the host's rate of reading memory the DMA wrote past its caches (embed.default's copies: 102.8 MB in 7.09 ms,
14.5 GB/s, against the link's 55). From a pinned buffer the host's first read (the numpy store) makes that pass
instead: in embed.pinned's trace the store runs 3.61 ms a step against 1.07 ms from the pageable tensor the driver
had just written. pinned-memory now charges the host each copy-from-the-GPU's bytes at the trace's own staged rate
(` + "`Lever.ReadBack`" + `, 1.77 ms a step here, at the copy's issue: the host reads the previous step's buffer while this
step's copy runs): embed.default → embed.pinned 49.3% → 23.2% (measured 26.4%, spread 21%), still first; the
replayed pinned step, 5.22 ms, against embed.pinned's own trace replayed, 5.07 ms. No other row moves: no other
capture copies 1 MB or more from the GPU to pageable memory (host9's copy loop, whose copies go to the GPU, keeps
42.6% against its measured 39.0%).
`)
	b.WriteString(`
### fixtures/host17's first read

` + "`fixtures/host17`" + ` (H200, 2026-11-29 05:40–05:47) was captured on a branch the fitters never saw; its rows above were
written from the measured timings before profan read its traces (commit "analysis: host17's rows, written before the
first read"), then read once with main at a8f9c2f (06:40, after the last fit), text, JSON (the same ranking) and
this test. *First* (measured) is the lever with the largest positive measured gain of those measured alone from the
step; the replayed unprofiled steps are rl.default 3.13 ms (measured 3.61), log.default 23.94 ms (27.25) and
log.noread 30.04 ms (24.28).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| rl.default → rl.pinned | pinned-memory | 3 | 0.7% | 2.8% | 34% | yes |
| rl.default → rl.fused | fused-optimizer | 4 | 0.0% | 17.9% | 20% | in value (within 20 points) |
| rl.default → rl.graphs | cuda-graphs | 1 | 89.5% | 71.8% | 20% | yes, first |
| rl.default → rl.all | pinned-memory+fused-optimizer+cuda-graphs | | 91.9% | 82.2% | 26% | yes |
| log.default → log.noread | step-read | 3 | 0.0% | 10.9% | 22% | in value |
| log.default → log.fused | fused-optimizer | 4 | 0.0% | 44.1% | 22% | no: measured first |
| log.default → log.bf16 | bf16-autocast | 6 | −3.3% | 9.3% | 17% | in value |
| log.default → log.all | step-read+fused-optimizer | | 0.0% | 35.8% | 21% | no |
| log.noread → log.graphs | cuda-graphs | 1 | 83.8% | 73.4% | 22% | yes, first |
| log.noread → log.all | fused-optimizer | 4 | 0.0% | 28.0% | 22% | no |

The first lever is the one measured first on two of the three steps. On rl.default, CUDA graphs (89.5%, measured
71.8% with the update in one graph) come first with the advice that they cannot capture the step whole and the
syncs that bound each region named (` + "`.cpu() at host17.py(184): act`" + `, ` + "`.copy_() at host17.py(197): store`" + `), and
fused-optimizer (0.0%) and pinned-memory (0.7%) land within the spread of their measured 17.9% and 2.8%. On
log.noread, graphs first at 83.8% (measured 73.4%). On log.default profan ranks CUDA graphs first at 79.5%, a graph
of the step with its three logging reads after the replay, which was not timed (graphs with the reads gone measured
76.3% from default); the lever measured first, AdamW(fused=True) at 44.1%, is priced 0.0% and fourth: the
per-parameter clipping (` + "`clip_grad_norm_(p, 1.0)`" + ` for each parameter) runs two multi-tensor kernels a parameter
(` + "`_foreach_norm`" + `, ` + "`_foreach_mul_`" + `), which the rule takes for a foreach optimizer step (it names SGD), pricing
their kernel passes alone; the for-loop AdamW in ` + "`Optimizer.step#AdamW.step`" + ` is not read, so the three
fused-optimizer rows on log miss (0.0% against 44.1%, 35.8% with step-read, 28.0% from noread), and the measured
order (fused 44.1% before the reads' 10.9%, a gap over the spread) is not kept. Seven of the ten rows land within
max(0.10, spread). No host17 step is one graphs cannot capture at all (rl's update and log's whole step can be), so
"never first where they cannot capture" is not tested here beyond rl's advice naming its reads.

The cause splits (below) sum to the wall; their launch-bound time is named by aten ops only, never by a sync, a
read or a Python frame. The host reads are named with their frames: the action read (` + "`.cpu()`" + ` in ` + "`aten::to`" + ` at
` + "`host17.py(184): act`" + `), the transitions' pageable ` + "`.copy_()`" + ` whose sync waits (` + "`host17.py(197): store`" + `), the logs'
` + "`.item()`" + ` (` + "`host17.py(299): step`" + `, also by step-read) and noread's ` + "`.tolist()`" + `. Neither family has a data
loader. One miss: rl's environment (` + "`Nav.step`" + `, numpy, 0.36–0.54 ms a step in the trace) runs in the GPU-idle gap
after the action read, and the timeline counts that gap as host sync named by the read, not as the user's Python at
its frame. Nothing was fitted to this capture and no pricing was changed after the read.

After the read, fixed by mechanism with the first read kept above (the rows' table and misses give the figures now):
a multi-tensor kernel is the optimizer's only where it is launched inside an ` + "`Optimizer.step#…`" + ` range, where the
trace marks them; the per-parameter clipping's ` + "`_foreach_norm`" + ` and ` + "`_foreach_mul_`" + `, launched outside, no longer
hide the for-loop AdamW, which fused-optimizer now reads and names (` + "`Optimizer.step#AdamW.step at host17.py(278): once`" + `,
432 launches a step over 108 parameters) and prices by collapsing its range: log.default → log.fused 0.0% → 19.4%
(measured 44.1%: still under, by 24.7 points, the range's host replayed to 5.00 ms a step against 12.0 ms saved),
log.default → log.all 0.0% → 19.5% (measured 35.8%, within its 21 points), log.noread → log.all 0.0% → 22.1%
(measured 28.0%). Profan's first lever on log.default stays CUDA graphs (79.5%, not timed); fused-optimizer is second.
No other row moves: every other trace's multi-tensor kernels run inside its optimizer's range.
Since (6eecd06), host sync is only the time the host spent inside the sync call; the rest of a gap after it is what
the host did then: rl's environment is now the user's Python at its frame (` + "`host17.py(112): step`" + `, 1.22 ms of
the profiled steps), its host sync 4.06 → 1.08 ms.

Measured since, the first read kept as it stands above: ` + "`fixtures/host17b`" + ` (` + "`host17b.py`" + `, H200, 2026-11-29
07:07–07:10) times what profan ranks first on log.default, never measured at the read, beside log.default, log.noread
and log.graphs in one session (four alternating processes each): default's whole step (forward, backward, the
clipping loop, AdamW with ` + "`capturable=True`" + `, the three logs stacked on the GPU) captured once as one CUDA graph and
replayed, the three logs still read with ` + "`.item()`" + ` after every replay. log.graphsread ran 6.54 ms a step against
default's 25.55 ms in that session: 74.4% (spread 19%: default's processes ran 24.6 to 29.4 ms). profan's 79.5%, read
from host17's trace, lands 5.1 points over, within 10 points (row ` + "`host17b/log.default → host17b/log.graphsread`" + `
above), and it is the largest lever measured alone from the step (fused AdamW 44.1%, the reads every 50 steps 10.9%):
**profan's first lever on log.default is confirmed by measurement**, and the held-out expectation that fused AdamW
comes first, drawn from the levers then measured, is refuted; the fused row no longer asks for first place. Keeping
the three reads costs 0.09 ms a step against noread's graph (6.45 ms). No pricing was changed.
`)
	b.WriteString(`
### fixtures/host18's first read

` + "`fixtures/host18`" + ` (H200, 2026-11-29 08:14–08:21) was captured on a branch the fitters never saw; its rows above were
written from the measured timings before profan read its traces (commit "analysis: host18's rows, written before the
first read"), then read once with main at 54da4a6 (09:40, after the last fit), text and this test. *First* (measured)
is the lever with the largest positive measured gain of those measured alone from the step; the replayed unprofiled
steps are det.default 15.86 ms (measured 11.80; its traced process 15.18), det.fixed 2.39 ms (2.53), gnn.default
28.54 ms (24.64) and gnn.workers 4.74 ms (7.01).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| det.default → det.fixed | host-read | 4 | 0.1% | 78.6% | 35% | no: measured first |
| det.default → det.bf16 | bf16-autocast | | none | −15.2% | 35% | in value |
| det.default → det.graphs | host-read+cuda-graphs | | 0.1% | 88.4% | 35% | no |
| det.default → det.all | host-read+cuda-graphs+bf16-autocast | | 0.1% | 89.9% | 35% | no |
| det.fixed → det.graphs | cuda-graphs | 1 | 42.2% | 45.9% | 15% | yes, first |
| det.fixed → det.all | cuda-graphs+bf16-autocast | | 42.2% | 52.8% | 15% | yes |
| gnn.default → gnn.workers | data-loader | 1 | 78.7% | 71.5% | 11% | yes, first |
| gnn.default → gnn.gpumetric | step-read | 7 | 0.0% | −0.9% | 24% | yes |
| gnn.default → gnn.all | data-loader+step-read | | 78.7% | 71.0% | 41% | yes |
| gnn.workers → gnn.all | step-read | 6 | 0.0% | −1.8% | 41% | yes |

The first lever is the one measured first on two of the three steps that have one: det.fixed (CUDA graphs, 42.2%
against 45.9%) and gnn.default (DataLoader workers, 78.7% against 71.5%); gnn.workers has no lever with a measured
gain, and profan prices its metric's read at 0.0% (measured −1.8%) and ranks fused-optimizer (7.8%, not measured)
first. On det.default the lever measured first, the fixed-shape postprocess with no host read (78.6%), is priced
0.1% and fourth: host-read's replay takes away only the reads' waits, which are small on a step whose GPU is busy
11.9% of the profiled time (host sync 4.32 ms of 129.62), and keeps the per-image loop's launches and Python
(692 launches a step, against the fixed step's 138) that the rewrite also removes; profan ranks torch-compile first
(28.1%, not measured) and step-read second (8.7%: torchvision's NMS read, ` + "`cudaStreamSynchronize`" + ` in
` + "`torchvision::nms`" + ` at ` + "`torchvision/ops/boxes.py(20): nms`" + `, taken for a read in a loop of the step, with the advice
to test it every N iterations, where it sizes the kept boxes). The three host-read rows from default miss; seven of
the ten rows land within max(0.10, spread). bf16 autocast, slower by 15.2%, is not advised on det.default (bf16
weights at 0.0%). CUDA graphs are never first where they cannot capture: on det.default (seventh, not priced, the
advice naming ` + "`.nonzero() at host18.py(141): post_image`" + `) and on gnn.default (sixth, not priced: CUDA's
` + "`bincount`" + ` reads its input's maximum on the host to size its output, ` + "`.bincount() at host18.py(275): forward`" + `,
which profan names as a host read of the model; no variant removed it).

The cause splits (below) sum to the wall. The data loader is named with its frame (the sampler,
` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host18.py(233): __call__`" + `, 82.8% of gnn.default's
profiled wall), and so are the host reads: det's ` + "`.nonzero()`" + ` at ` + "`host18.py(141): post_image`" + `, gnn's metric
` + "`.cpu()`" + ` at ` + "`host18.py(321): step`" + ` (by step-read too) and ` + "`.bincount()`" + ` at ` + "`host18.py(275): forward`" + `; NMS's
two syncs are named at torchvision's frames (` + "`boxes.py(20): nms`" + `, ` + "`boxes.py(86): _batched_nms_coordinate_trick`" + `),
not at the user's ` + "`post_image`" + ` that calls them. No launch-bound time is named by a sync, a read, the loader or a
Python frame; det.default's largest launch-bound op is ` + "`torchvision::nms`" + ` (12.83 ms of 78.40), the op whose
reads are its host sync. Nothing was fitted to this capture and no pricing was changed after the read.

Measured since, the first read kept as it stands above: ` + "`fixtures/host18b`" + ` (` + "`host18b.py`" + `, H200, 2026-11-29
09:44–09:48) times the two levers profan ranks first that host18 did not, beside det.default and gnn.workers in one
session (four alternating processes each). The detector compiled (` + "`model.compile()`" + `, default mode; the per-image
postprocess stays eager) ran 12.21 ms a step against default's 14.04 ms: 13.1% (spread 39%: default's processes ran
12.1 to 15.8 ms, one compiled process 16.9 ms), against profan's 28.1%, within its spread (row
` + "`host18b/det.default → host18b/det.compile`" + `). It is not the lever measured first: the fixed-shape postprocess
measured 78.6% in host18, so **profan's first lever on det.default is refuted by measurement**, as the first read
found. Adam(fused=True) on gnn.workers ran 7.05 ms against 6.87 ms: −2.7% (spread 28%), against profan's 7.8%, within
its spread; no lever measured from gnn.workers gains. No pricing was changed.

Fixed after the read, by mechanism, the first read kept above (the rows' table and misses give the figures now):
NMS's read (` + "`cudaStreamSynchronize`" + ` in ` + "`torchvision::nms`" + `) reads the number of boxes kept to size NMS's output, a
data-dependent shape, so it is host-read's, not step-read's; and a sync inside torchvision (or torchaudio, torchtext:
PyTorch's family, named by the profiler relative to site-packages as torch's own frames are) is named at the user's
frame that called it, ` + "`host18.py(141): post_image`" + `. On det.default step-read is no longer advised and host-read,
both reads' waits, is priced 8.8% and second (0.1% at the read): still far under the measured 78.6%, as the per-image
loop's launches and Python are kept by the replay. Then the loop: where a user frame that is not a module's
` + "`forward`" + ` (a layer's, entered once per layer with its own weights) holds a data-dependent read and is entered N > 1
times a step (` + "`post_image`" + `, 8 times: a loop over the batch's images), the fixed-shape, batched rewrite host-read advises
(topk in place of the mask, batched NMS or Fast NMS, naming the frame) makes the loop one iteration's worth: each
step's stretch from the frame's first span to its last keeps 1/N of its host time and of its kernels' time, and the
reads are no longer waited for. host-read on det.default is now 71.4% and first (measured 78.6%, spread 35%), and
the three host-read rows from default hold; torch-compile (28.1%, measured 13.1% in host18b) is second. The MoE,
voxel and cls host-read rows, whose reads sit in a ` + "`forward`" + `, are unchanged.

Fixed after host18b, by mechanism: torch-compile counted every chain of the step, the per-image postprocess's
(` + "`post_image`" + `, ` + "`decode`" + `: 692 launches a step) with the model's, though ` + "`model.compile()`" + ` compiles the module's
` + "`forward`" + ` only. Where the trace holds the model's forward calls it now counts the chains launched inside them and, on
a training step, in autograd's backward (each kernel group's saving and dropped launches at its launches' share
inside; docs/replay.md): det.default 28.1% → 4.1% (measured 13.1%, spread 39%: +15.0 → −9.0 points), det.fixed 30.0% →
14.1% (not measured). The other compile rows move by 0.3 points at most: host8's UNet 23.8% → 23.7% (21.6%), host12's
MLP 7.1% → 7.0% (0.8%), voxel 1.1% → 0.8% (−0.1%), and host11's bf16 UNet 36.0% → 35.8% (62.0%, spread 35%: 0.1 point
further, the denoising update ` + "`x - 0.01 * model(x, t)`" + ` outside the forward now left eager, as compiled). Unmeasured:
log.default 11.1% → 4.5% (the per-parameter clipping loop outside the forward). Where a GEMM or convolution runs
outside the forward calls, the backward and the optimizer, the calls do not hold the model (host16's embed: an
` + "`nn.Sequential`" + ` encoder, library code, whose stem convolution runs outside the user's ` + "`Basic`" + ` blocks), and every
chain counts, as before (embed 6.3%).

Then, by mechanism: a launch a chain drops took one launch's worth off the op that issued it, but the fused kernel
does the op's work and the op's whole dispatch goes (a batch norm, a group norm or a softmax costs about 4 launches'
worth as traced, docs/replay.md's engines' table): each dropped launch now takes its op's host time a launch (at
least a launch's worth). host14's bf16 UNet 35.8% → 41.8% (measured 62.0%, spread 35%), det.default 4.1% → 4.7%
(13.1%), host13's MLP 7.0% → 10.2% (0.8%, spread 30%: 3.3 points further, within it; the compiled graph's own host,
its guards and wrappers, is still not charged), host13's TF32 UNet 23.7% (GPU-bound once replayed) and voxel 0.8%
unchanged; check7's decode token, traced without a stack, 30.6% → 36.3% (its wall clock −49% compiled).

Fixed after host18b, by mechanism: gnn.workers replayed to 4.74 ms a step against 7.01 ms measured, and fused Adam
was ranked first at 7.8% where nothing measured a gain (−2.7%). Its main thread never waits on the workers in the
trace (` + "`queue.py(154): get`" + ` 0.04 ms a step; its ` + "`__next__`" + ` is the sampler's index list): the bound is the
DataLoader's pin-memory thread, which receives each batch's six tensors from a worker through the worker's resource
sharer, a socket handshake a storage that waits for the worker's answer (` + "`<built-in function read>`" + `: 1.4 to 12.2 ms
a batch), and pins them: 4.0 to 16.6 ms a batch as traced, back to back, no batch waited for. The reader keeps that
thread's ` + "`do_one_step`" + ` frames and the waits inside them, and the replay bounds the step by its time a batch (the
median over the window's batches: the waits for a worker whole, the rest at the profiler's keep, the wait for a batch
to arrive left out) times the batches a step: gnn.workers' floor 5.05 ms (of 7.3 and 2.8 ms a batch), above the main
thread's 4.74, so no lever that shrinks the step's own work gains: fused Adam 7.8% → 0.0% (measured −2.7%, spread 28%),
torch-compile 4.4% → 0.0%, the metric's read 0.0% (−1.8%). The floor is under the measured 7.01 ms (four batches in
the window, two inside it); audio.all's (host15) is about 20 ms a step, under its replayed 273 ms.

And where the step's thread waits on the workers' queue in every step (a multi-process iterator's span blocked in a
queue's ` + "`get`" + ` or a pipe's poll, at least 1% of each step as traced), the workers already deliver no faster than the
step takes the batches: the replayed step is their pace, and a lever that shrinks the step's own work cannot take it
under it (the step, as replayed, is the floor). audio.all (host15, 4 workers computing numpy features, the main
thread in its iterator 48 to 437 ms a step, most of it in the get): cuda-graphs 11.9% → 0.0%, every lever 0.0% or slower, no lever clearing the
step's noise (bf16 autocast −0.9%, measured +8.0%, spread 15%). gnn.workers' thread does not wait (0.04 ms a step in
` + "`queue.py(154): get`" + `): no other trace moves.

Since (fixtures/host35's first read), a wait counts only where the step's thread is blocked: the reader keeps the
iterator's waits for a batch that has not arrived (the workers' pipe's poll in ` + "`multiprocessing/queues.py`" + `'s get,
the pin thread's queue's condition in ` + "`queue.py`" + `'s), and the rest of the get, the batch's transfer (its bytes read, its
tensors rebuilt from the workers' shared memory), is the thread's own work, replayed as host time the step pays.
host35's flow spends 2.9 to 3.7 ms a step in the get, 0.07 to 0.2 ms of it polling, the GPU busy throughout: no floor
(it was 173.267 and 172.982 ms, every lever 0.0%); host34's detr likewise (4.5 to 5.0 ms of about 5 in the transfer,
its floor of 117.284 ms gone). audio.all's waits are blocks (48 to 437 ms a step on the pin thread's queue, the GPU
idle): floored as before. A trace read without those frames counts the iterator's waiting spans whole.

### fixtures/host19's expected rows, written before the read

` + "`fixtures/host19`" + ` (H200, 2026-11-29 10:58–11:04) was captured on a branch the fitters never saw; these rows were
written from its unprofiled timings (three processes a variant, four of s2s.all) before profan read its traces, and
committed before the read, which is recorded below them as it came. *First* (measured) is the lever with the
largest positive measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| s2s.default → s2s.nocache | host-sync (no allocator lever exists) | no: second | 25.9% | 32% |
| s2s.default → s2s.graphs | cuda-graphs, after fixed padding | yes | 63.7% | 18% |
| s2s.default → s2s.all | cuda-graphs+host-sync | | 63.7% | 18% |
| s2s.static → s2s.graphs | cuda-graphs | yes | 66.9% | 8% |
| s2s.static → s2s.all | cuda-graphs+host-sync | | 66.8% | 8% |
| hook.default → hook.events | cuda-synchronize | no | 12.5% | 2% |
| hook.default → hook.bf16 | bf16-autocast | yes | 59.7% | 23% |
| hook.default → hook.all | cuda-synchronize+bf16-autocast | | 62.2% | 60% |
| hook.events → hook.all | bf16-autocast | yes | 56.8% | 60% |
| hook.bf16 → hook.all | cuda-synchronize | yes: the only lever measured | 6.1% | 60% |

Expected besides: fixed padding alone, which no rule prices, measured −9.4% (18%) from s2s.default, so the lever
measured first there is the padding with the graph it allows; CUDA graphs cannot capture s2s.default as it is (its
shapes change with almost every batch), so graphs may come first there only where the advice says the shapes change
and a fixed padding (or buckets) is needed; they capture s2s.static whole; they cannot capture any hook step (a
` + "`torch.cuda.synchronize()`" + ` in every layer's hooks) and are never first there. After the graph, emptying the cache
costs nothing (graphs → all −0.0%). bf16 autocast leaves hook's host floor: 32 waits and the host's issue time a step,
so that the wall falls by less than the kernels. Named with their frames: the synchronizes at
` + "`host19.py(282): start`" + ` (LayerTimer.start, called by the hooks and around the backward and the optimizer step) in the
host-sync time and in cuda-synchronize's advice; empty_cache's ` + "`cudaFree`" + ` at ` + "`host19.py(202): step`" + ` in the allocator
time. The five traces' cause splits sum to the wall, and no launch-bound time is named by a Python frame.

### fixtures/host19's first read

Read once with main at ca37f14 (12:40, after the last fit), text and this test, the rows above kept as written. The
replayed unprofiled steps: s2s.default 24.23 ms (measured 24.88; its traced process 22.20), s2s.static 23.02 ms
(27.21; 25.46), hook.default 59.34 ms (62.64; 61.32), hook.events 54.51 ms (54.82; 54.76), hook.bf16 30.71 ms
(25.23; 28.20).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| s2s.default → s2s.nocache | host-sync | | none | 25.9% | 32% | in value only: no lever |
| s2s.default → s2s.graphs | cuda-graphs | 1 | 73.5% | 63.7% | 18% | yes, first; the changing shapes unsaid |
| s2s.default → s2s.all | cuda-graphs+host-sync | | 73.5% | 63.7% | 18% | yes |
| s2s.static → s2s.graphs | cuda-graphs | 1 | 64.0% | 66.9% | 8% | yes, first |
| s2s.static → s2s.all | cuda-graphs+host-sync | | 64.0% | 66.8% | 8% | yes |
| hook.default → hook.events | cuda-synchronize | 3 | 8.8% | 12.5% | 2% | yes |
| hook.default → hook.bf16 | bf16-autocast | 1 | 51.0% | 59.7% | 23% | yes, first |
| hook.default → hook.all | cuda-synchronize+bf16-autocast | | 53.3% | 62.2% | 60% | yes |
| hook.events → hook.all | bf16-autocast | 2 | 52.6% | 56.8% | 60% | no: tf32 first |
| hook.bf16 → hook.all | cuda-synchronize | 3 | 1.1% | 6.1% | 60% | no: cuda-graphs first |

The first lever is the one measured first on three of the five steps: s2s.default (CUDA graphs, 73.5% against the
padded graph's 63.7%), s2s.static (CUDA graphs, 64.0% against 66.9%) and hook.default (bf16 autocast, 51.0% against
59.7%; the synchronizes' replay 8.8% against the events' 12.5%, and both together 53.3% against 62.2%, replayed at
once). Missed, by mechanism: on hook.events tf32 (53.8%, not measured) ranks 1.2 points above bf16 autocast (52.6%,
measured 56.8%); on hook.bf16, a step its host bounds (GPU busy 19.4% as traced), ` + "`cuda-graphs`" + ` comes first at 55.4%
on a step it cannot capture: the 32 ` + "`torch.cuda.synchronize()`" + ` a step (host sync 15.1% of the profiled wall, named
` + "`at host19.py(282): start`" + ` and ` + "`(291): stop`" + `) are cuda-synchronize's waits, not a precondition the graphs advice
checks, and the replay keeps the syncs while it takes the launches away; ` + "`cuda-synchronize`" + ` itself is priced 1.1%
(measured 6.1%, spread 60%: in value), third after fused-optimizer (11.3%, not measured), as removing waits from a
launch-bound step returns little. On s2s.default CUDA graphs come first, within the spread, but the advice says
nothing of the shapes that change with every batch (padded to each batch's longest; the graph needed a fixed padding,
which alone measured −9.4%): the capture check looks for host reads and data-dependent ops, not for the shapes the
trace records changing from step to step, and the advice's "needs static shapes (a static cache)" is its generic
line. And ` + "`torch.cuda.empty_cache()`" + ` every step is named (allocator 7.1% of s2s.default's profiled wall, 8.3% of
s2s.static's, ` + "`cudaFree at host19.py(202): step`" + ` first) but no lever prices it: the row to nocache (measured 25.9%)
holds in value only because its spread is 32%. Eight of the ten rows land within max(0.10, spread). CUDA graphs are
not first on hook.default (fourth, 8.5%, its advice silent on the synchronizes too).

The cause splits (below) sum to the wall. The synchronizes are named with their frames (18.85 ms of hook.default's
20.44 ms of host sync at ` + "`host19.py(282): start`" + `), and cuda-synchronize's advice names both sites; empty_cache's
` + "`cudaFree`" + ` is named at ` + "`host19.py(202): step`" + `. No launch-bound time is named by a sync or a Python frame: the check
first flagged hook.default's launch-bound ` + "`aten::item`" + ` (2.16 ms), foreach AdamW's read of its step count, a CPU
tensor (` + "`optimizer.py(91): _get_value`" + `, no ` + "`cudaStreamSynchronize`" + ` inside): the check now takes an ` + "`item`" + ` for a host
read only where it is named ` + "`.item()`" + ` or by its sync. Nothing was fitted to this capture and no pricing was changed
after the read.

Fixed after the read, by mechanism, the first read kept above (the rows' table and misses give the figures now): a
device synchronize (` + "`torch.cuda.synchronize()`" + `, ` + "`cudaDeviceSynchronize`" + `) between the step's launches several
times a step blocks capture, as a data-dependent read does: ` + "`cuda-graphs`" + ` is not priced and says which
synchronize at which frame keeps it from capture (` + "`host19.py(291): stop`" + `, ` + "`host19.py(282): start`" + `), its fix
after cuda-synchronize's. hook.bf16: cuda-graphs 55.4% and first → not priced, last; cuda-synchronize third → second
(1.1%, measured 6.1%), after fused-optimizer (11.3%, not measured); together 58.3% → 12.3%. hook.default: cuda-graphs
fourth, 8.5% → not priced, the three levers above it unchanged; together 66.5% → 57.0%. No other fixture's cuda-graphs advice moved (a synchronize once a
step between launches still splits the step into graphed regions).
`)
	split := []string{"cls.default", "mlp.default", "audio.default", "voxel.default", "fluid.default", "fluid.fixed", "embed.default", "embed.pinned",
		"rl.default", "log.default", "log.noread", "det.default", "det.fixed", "gnn.default", "gnn.workers",
		"s2s.default", "s2s.static", "hook.default", "hook.events", "hook.bf16",
		"amp.default", "amp.foreach", "amp.fused", "ctc.default", "ctc.cpulen", "ctc.every50",
		"mlm.default", "mlm.maxpred", "mlm.lazylog", "aug.default", "aug.batched", "aug.gpumetric",
		"rec.default", "rec.workers", "rec.nodedup", "ddpm.default", "ddpm.gather", "ddpm.bf16",
		"tab.default", "tab.workers", "spike.default", "spike.bf16", "spike.noread",
		"mol.default", "mol.workers", "exit.default", "exit.bf16",
		"clip.default", "clip.workers", "spec.default", "spec.bf16",
		"ts.default", "ts.workers", "prune.default", "prune.bf16",
		"spk.default", "spk.workers", "vq.default", "vq.bf16"}
	if host29Read {
		split = append(split, host29Traces...)
	}
	if host30Read {
		split = append(split, host30Traces...)
	}
	if host31Read {
		split = append(split, host31Traces...)
	}
	if host32Read {
		split = append(split, host32Traces...)
	}
	if host33Read {
		split = append(split, host33Traces...)
	}
	if host34Read {
		split = append(split, host34Traces...)
	}
	if host35Read {
		split = append(split, host35Traces...)
	}
	if host36Read {
		split = append(split, host36Traces...)
	}
	if host37Read {
		split = append(split, host37Traces...)
	}
	if host38Read {
		split = append(split, host38Traces...)
	}
	if host39Read {
		split = append(split, host39Traces...)
	}
	if host40Read {
		split = append(split, host40Traces...)
	}
	causeSplit(t, b, tls, split...)
	b.WriteString(`
### fixtures/host19b: host19's unmeasured levers, measured after the read

` + "`fixtures/host19b`" + ` (` + "`host19b.py`" + `, H200, 2026-11-29 12:40–12:46, three alternating processes a variant, after the first
read) timed three levers profan ranked on host19's traces that host19 had not timed, beside their steps timed again in
the same session: tf32 on hook.default (48.6%, second; first on hook.events at 53.8%) measured 48.1% (spread 5%),
below bf16 autocast's 59.7% from the same step in host19, so bf16 is the lever measured first from default and,
by the same mechanism, from events (profan's tf32-first on hook.events is wrong by the order, each within its
spread); fused AdamW on s2s.default (14.5%, third) measured 13.7% (34%); torch.compile on s2s.default (21.9%,
second) measured 15.3% (28%). All three within max(0.10, spread); none was fitted.

### fixtures/host19c: the first levers on hook.bf16 and hook.events, and unet4's TF32, timed again

` + "`fixtures/host19c`" + ` (` + "`host19c.py`" + `, H200, 2026-11-29 13:57–14:03, at the start of the next session and before its fits;
four alternating processes a variant, six for unet4) timed the levers profan ranks first on two of host19's steps,
beside the steps and the levers host19 measured from them. From hook.events (54.84 ms, every process within 0.1%):
tf32 (profan's first then, 53.8%) measured 53.1% (spread 12%) and bf16 autocast (second then, 52.6%) 51.9% (50%), so
tf32 is the lever measured first in this session, by less than the spread; host19's 56.8% for bf16 from the same step
and host19b's tf32 48.1% from default had read the other way. hook.events ran 54.76–54.86 ms in both sessions, so its
bf16 processes pool: host19's three and these four, median 24.44 ms (55.4%), against tf32's four at 25.70 ms
(53.1%): over every process timed from the step, bf16 is first, by less than either spread, and the rows take it as
first. From hook.bf16 (24.99 ms; its processes 19.4–29.2 ms):
fused AdamW (profan's first, 11.3%) measured -1.2% (40%) and CUDA events (second, 1.1%) -5.6% (50%), where host19
measured 6.1%: the bf16 step's host bounds it and its own noise is larger than any lever priced on it; profan's
first lever there is a miss in rank, not in value. unet4 FP32 → TF32 (41.5%, second) measured 35.8% with six
processes a variant (spread 101%: two TF32 processes ran 14.0 and 14.3 ms, slower than FP32's 11.89 ms, four ran
6.6–8.1 ms); host10 had measured 17.3% from three. Nothing was fitted to it.

### Lever prices on steps whose kernels shrink (session of 2026-11-29, 14:00–16:00)

Fitted on the families already read, each change by mechanism, checked against every row above; rows that moved,
before → after.

*bf16 autocast's attention.* bf16 autocast was priced on the GEMMs alone, and TF32 ranked above it on
hook.events. PyTorch's ` + "`scaled_dot_product_attention`" + ` on FP32 tensors runs the memory-efficient kernels
(` + "`fmha_cutlassF_f32`" + `, ` + "`fmha_cutlassB_f32`" + `), whose products run 3xTF32 on tensor cores from compute capability 8.0
(CUTLASS's ` + "`OpMultiplyAddFastF32`" + `) whatever ` + "`allow_tf32`" + ` says: TF32 leaves them as they are (host8's and host11's
UNet, 446 µs a launch in TF32, 449 in FP32), and in bf16 SDPA runs cuDNN's flash kernels at the bf16 rate (hook.bf16's
trace: 31.4 ms of FP32 attention in four steps became 5.0 ms, 0.16; host11's UNet forward 449 → 41 µs a launch). The rule
now prices them at the rates' ratio, a third of the TF32 rate against the bf16 one (1/6 on an H200), on a grid of more
than one wave (3 blocks an SM; a single wave is one tile's latency a SM and is left as it is: ` + "`fixtures/check`" + `'s small
ViT, 96.5 → 65.3 µs). The ViT's kernels replayed under bf16 are 13.9 ms a step against hook.bf16's traced 13.2 ms
(20.4 ms before).

| row | before | after | measured | spread |
| --- | ---: | ---: | ---: | ---: |
| hook.default → hook.bf16 (bf16-autocast, first) | 51.0% | 52.4% | 59.7% | 23% |
| hook.events → hook.all (bf16-autocast) | 52.6%, second | 56.3%, first (tf32 53.8%) | 56.8% | 60% |
| tf.fp32 → tf.default (bf16-autocast, kernel time) | 72.5% | 79.4% | 81.2% | |
| encoder.default → encoder.bf16 (bf16-autocast, kernel time) | 57.3% | 67.0% | 72.0% | |

Unmoved: every tf32 row (host19b's hook.tf32 48.6% against 48.1%, host19c's 53.8% against 53.1%, unet 66.1%, unet4
41.5%), log.bf16 (−3.3%: the step stays bound by its host), det.bf16, embed's and audio.allbf16's (no FP32
attention), the small ViT (49.0%). host19c's hook.events → hook.all moves 52.6% → 56.3% (measured 51.9%, spread 50%),
and its tf32 row, first as this session measured it by 1.2 points, is second since: a known miss in rank, which the
two sessions measured each way (host19 bf16 56.8%; over both, the seven bf16 processes' median 24.44 ms against the four
tf32 processes' 25.70 ms, 55.4% against 53.1%, from a hook.events that ran 54.76–54.86 ms in both).

*The host floor after TF32, on unet4.* Not changed. host19c's six processes a variant put unet4's TF32 at 6.58, 6.79,
7.20 and 8.06 ms in four and 14.00 and 14.26 ms in two (slower than FP32's 11.9 ms; host10's three ran 7.19, 9.90
and 10.51): the replay's 6.71 ms a step (its kernels 4.32 ms, its host floor 5.82 ms and the TF32 engines' host) sits
among the four, and the row holds within 10 points of the better-sampled 35.8% (41.5%) as within host10's spread.
What separates the processes is the host's speed a process (each process's steps move under 3%), which one trace does
not tell; the floor's parts were checked again (the time no span covers, the engines' host once an op, no launch
waiting on a full queue once the kernels shrink) and none is missing. unet.fp32 → unet.tf32 (66.1%) and host13's and
host14's rows are unchanged.

*Fused AdamW on log.* Not changed. The step is bound by its host (4.77 ms of kernels a step against 23.94 ms
replayed), so the for-loop's kernels delay nothing on the GPU; the trace holds no ` + "`cudaMalloc`" + ` or ` + "`cudaFree`" + `
(the per-parameter temporaries come from the caching allocator); and the processes disagree with themselves by as
much as the miss: ` + "`fused=True`" + ` measured 12.0 ms a step from default and 6.8 ms from noread, and dropping the three
reads saved 3.0 ms beside the for-loop AdamW but cost 2.3 ms beside the fused one (15.23 against 17.48 ms). The row
stays a known miss (17.4% against 44.1%); from noread it holds (22.1% against 28.0%).

*torch.compile's own host on host13's MLP.* Not changed: no capture here traces a compiled step, so the guards,
AOTAutograd's wrappers and Inductor's launchers have no figure a trace gives (10.2% against 0.8%, within its 30%).
`)
	b.WriteString(`
### fixtures/host19 fitted after the read: the allocator, changing shapes, the synchronizes

Fitted on ` + "`fixtures/host19`" + `'s s2s and hook (2026-11-29, after the first read above, which stays as written), by
mechanism, no figure fitted to a step; every trace fixture's advice compared before and after, and only the rows below
moved.

**The allocator's calls, priced** (` + "`allocator-churn`" + `, a new rule). The replay now waits, at the end of a ` + "`cudaFree`" + `,
for the device to drain, as at a sync (the driver synchronises before it frees); drops the allocator's calls a lever
names; gives a CUDA graph's replay no allocator time (its pool is its own); and keeps an allocator call's traced time
whole but for its record's cost, the driver's work, which no hook of the profiler slows (every other host span keeps
` + "`profilerKeep`" + `'s share, as fitted). The reader names the calls under ` + "`torch.cuda.empty_cache()`" + ` by it, as it names
` + "`torch.cuda.synchronize()`" + `'s. Where the allocator's calls recur in every replayed step after the first, the rule advises
keeping the cache: under ` + "`empty_cache`" + ` every allocation of the steps is the cache filled again, so the lever drops every
allocator call of the steps (and the device syncs of the frees); without it, the recurring sites alone. On s2s.default:
` + "`torch.cuda.empty_cache()`" + ` at ` + "`host19.py(202): step`" + `, 20.0 ` + "`cudaFree`" + ` calls a step (1.53 ms a step as traced) and 19.5
` + "`cudaMalloc`" + ` (2.46 ms).

| before → after | rule | before | after | measured | spread |
| --- | --- | ---: | ---: | ---: | ---: |
| s2s.default → s2s.nocache | allocator-churn (was host-sync) | none | 14.4%, fourth | 25.9% | 32% |
| s2s.default → s2s.graphs | cuda-graphs | 73.5% | 75.1% | 63.7% | 18% |
| s2s.default → s2s.all | cuda-graphs+allocator-churn | 73.5% | 75.1% | 63.7% | 18% |
| s2s.static → s2s.graphs | cuda-graphs | 64.0% | 66.6% | 66.9% | 8% |
| s2s.static → s2s.all | cuda-graphs+allocator-churn | 64.0% | 66.6% | 66.8% | 8% |
| host19b/s2s.default → host19b/s2s.fused | fused-optimizer | 14.5% | 14.9% | 13.7% | 34% |
| host19b/s2s.default → host19b/s2s.compile | torch-compile | 21.9% | 20.6% | 15.3% | 28% |
| s2s.static (not measured) | allocator-churn | none | 17.0%, third | | |

The base steps replay to 25.78 ms (s2s.default; 24.23 before, 24.88 measured, 22.20 in its own process) and 24.79 ms
(s2s.static; 23.02 before, 27.21 measured, 25.46 in its own process). The lever is under by 11.6 points, within the 32%
spread: the allocator's traced calls are 4.0 ms a step, where the pairs of processes saved 6.5 to 8.7 ms a step. The
rest is not in the trace: the GPU was idle at every ` + "`cudaFree`" + ` of the traced steps (the host bounds the step), so the
syncs they force cost nothing there, and no ` + "`cudaMalloc`" + ` waited for queued kernels. With the allocator's calls at the
profiler's share, as before, it was priced 8.9% (and the base steps 24.23 and 23.02 ms). No other trace fixture makes
an allocator call in every step (` + "`fixtures/host8`" + `'s moe makes one ` + "`cudaMalloc`" + ` in its four steps: not advised).
Looked for again in the next session (no pricing changed): what the trace holds of the allocator beyond its calls is
small. The first launch call after an allocator call takes 16.9 µs (median, traced) against 8.4 µs for a launch five or
more after one, the next four 13.2, 10.5, 9.6 and 9.9 µs (the driver's state cold after its call); an op that calls
` + "`cudaMalloc`" + ` takes longer beyond the call itself (` + "`aten::addmm`" + ` 96 µs against 65, ` + "`aten::sum`" + ` 78 against 32,
` + "`aten::empty_strided`" + ` 11.5 against 6.2: the caching allocator's own path to a new segment); ops within 200 µs after an
allocator call run 5 µs over their median. Together about 0.3 ms a step traced, 0.2 ms as replayed, of the 2.5 to 4.7 ms a
step the lever misses; the empty_cache frame is its ` + "`cudaFree`" + ` calls (849.8 of its 894.0 µs in the first step). What is
missing is not in the trace, presumably work the driver does out of the calls' sight (unmapping the freed segments, clearing the
pages it maps again), which a host slowed by the profiler overlaps and an unprofiled one waits for; a capture with
s2s.nocache traced, or the allocator's calls timed unprofiled, would tell.

**CUDA graphs on changing shapes.** The replay keeps each launch's grid and block and compares, kernel by kernel, the
configurations of the kernels launched in every step from one step to the next (a trip count that changes, a solver's
iterations, launches the same configurations a different number of times and is not counted). Where most steps differ
from the step before, the cuda-graphs advice says the shapes change, with the kernel whose grids change in the most
steps and the op that launched it, and the fix: a fixed padding, or a few buckets with one graph each
(` + "`torch.compile(mode=\"reduce-overhead\")`" + ` records one graph per shape). On s2s.default: 34 of the 43 kernels launched
in every step run on other grids, ` + "`aten::embedding`" + `'s copy kernel on (5, 1, 1), (10, 1, 1), (14, 1, 1), (5, 1, 1). The price
and rank stay (75.1%, first; measured 63.7% with the fixed padding, spread 18%): it is the replay at the traced shapes,
and the padding's kernel time is said to be outside it. The host19 check of the first read's miss ("the changing shapes
unsaid") now holds. Of the other trace fixtures, the steps whose configurations change (` + "`host8`" + `'s moe, ` + "`host12`" + `'s cls,
` + "`host15`" + `'s voxel, ` + "`host18`" + `'s gnn) already read GPU values to size their tensors, which keeps graphs from capture and
is said first; s2s.static, every decode and training step of ` + "`fixtures/timeline`" + ` (no ` + "`ProfilerStep#N`" + ` marks to compare)
and the rest launch the same configurations every step: no advice moved there.

**The events lever on hook's synchronizes: looked for, not changed.** On hook.bf16 (GPU busy 19.4% as traced) 125 of
the 129 ` + "`cudaDeviceSynchronize`" + ` calls of the four steps found the GPU with nothing left to run (the host bounds the step):
a synchronize there costs its own call (7.2 µs median, traced) and nothing else, so dropping the 32 a step gives back
about their calls, and the replay's 1.1% is what the trace holds; the first kernel after a synchronize starts 1.2 µs
after its launch call returns (1.6 µs for any launch to an idle GPU), its launch 132 µs after the synchronize returns,
all of it the hooks' and the next layer's Python and dispatch, which the replay keeps. Host19c timed the row again:
−5.6% (spread 50%) where host19 had 6.1% (60%): the lever measured no gain beyond the step's noise. On hook.default
(GPU-bound), 56 of the 129 synchronizes waited, returning 5.1 µs (median) after the GPU drained; the replay of
default without them lands on the events step (54.1 ms against the events processes' 54.82), and what it misses
is in the base step (59.34 ms replayed against 62.64 measured): 3.3 ms a step, about 100 µs a synchronize, as long as
the host's work traced between a synchronize's return and the next launch (101 µs median, profiled: the hooks' timer
and the next layer's Python and dispatch), which the replay keeps at the profiler's share, dense small Python calls
kept least (docs/replay.md): there the profiler's cost model takes too much away, a fit this session left alone. A
synchronize's own call and its wake after the drain, from the trace (each median less its record's cost), were
tried in the replay: hook.default → events 8.8% → 8.9%, hook.bf16 → all 1.1% → 1.2%, and every trace fixture with
a synchronize moved by up to 0.1 ms a step; not adopted for so little. The events kernels ran 60.3 ms a step as
traced against the default's 54.1 (the same kernels, back to back instead of drained 32 times a step) and 54.8 ms
unprofiled: the profiler slows back-to-back kernels, which the replay, reading the GPU's times as traced, does not
take off.
`)
	b.WriteString(`
### fixtures/host20's expected rows, written before the read

` + "`fixtures/host20`" + ` (H200, 2026-11-29 14:09–14:16) was captured on a branch the fitters never saw; these rows were
written from its unprofiled timings (four processes a variant) before profan read its traces, and committed before
the read, which is recorded below them as it came. *First* (measured) is the lever with the largest positive
measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| amp.default → amp.foreach | fused-optimizer (the EMA's loop as one ` + "`_foreach_lerp_`" + `) | yes | 21.5% | 26% |
| amp.default → amp.fused | fused-optimizer (` + "`AdamW(fused=True)`" + `: no ` + "`found_inf`" + ` read) | no | 2.5% | 28% |
| amp.default → amp.all | fused-optimizer (both) | | 37.4% | 32% |
| amp.foreach → amp.all | fused-optimizer (` + "`AdamW(fused=True)`" + `) | yes: the only lever measured | 20.2% | 32% |
| amp.fused → amp.all | fused-optimizer (the EMA's ` + "`_foreach_lerp_`" + `) | yes: the only lever measured | 35.7% | 32% |
| ctc.default → ctc.cpulen | host-read (the loss's lengths on the CPU) | no | 2.6% | 21% |
| ctc.default → ctc.every50 | step-read (the CER every 50 steps) | yes, by less than the spread | 7.9% | 53% |
| ctc.default → ctc.all | host-read+step-read | | 17.2% | 31% |
| ctc.cpulen → ctc.all | step-read | yes: the only lever measured | 15.1% | 31% |
| ctc.every50 → ctc.all | host-read | yes: the only lever measured | 10.1% | 53% |

Expected besides: no rule names a weight EMA; fused-optimizer, whose for-loop collapse is the EMA lever's
mechanism, is the rule of both amp levers, so its one estimate from amp.default meets two measured gains (the EMA's
21.5%, first, and fused AdamW's 2.5%): it holds there only if its advice prices and names the EMA's loop
(` + "`host20.py(121): update`" + `), and the row it does not price is a miss. Fused AdamW gains little while the EMA's loop
bounds the host and a fifth once the loop is gone (foreach → all 20.2%): the scaler's read and the optimizer's
launches matter only then. On ctc.default the CER every 50 steps is above the CPU lengths by 5.3 points, less than
the spread (53%): their order is not measured. CUDA graphs cannot capture amp.default or amp.foreach (GradScaler's
` + "`found_inf`" + ` read every step), nor any ctc step traced (the loss's read of the GPU lengths, or the CER's ` + "`.tolist()`" + `
every step): they are never first there. Named with their frames: GradScaler's read at ` + "`host20.py(143): step`" + ` in the
host-sync time; the EMA's Python at ` + "`host20.py(121): update`" + `; the CER's ` + "`.tolist()`" + ` at ` + "`host20.py(233): cer`" + ` (in the
host-sync time and in step-read's advice) and its edit distance at ` + "`host20.py(222): edit_distance`" + `; the loss's read
of the lengths at ` + "`host20.py(249): step`" + ` (in the host-sync time and in host-read's advice). The six traces' cause
splits sum to the wall, and no launch-bound time is named by a Python frame.

### fixtures/host20's first read

Read once with main at 85943a1 (15:25, after the last fit), ` + "`profan analyze`" + ` on each trace, text and this test, the
rows above kept as written. The replayed unprofiled steps: amp.default 22.11 ms (measured 22.70; its traced process
22.31), amp.foreach 18.12 ms (17.82; 20.25), amp.fused 22.87 ms (22.12; 23.79), ctc.default 15.28 ms (13.02; 12.42),
ctc.cpulen 10.29 ms (12.69; 12.06), ctc.every50 12.92 ms (11.99; 14.91).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| amp.default → amp.foreach | fused-optimizer | 3 | 6.2% | 21.5% | 26% | in value only: no EMA lever; cuda-graphs first |
| amp.default → amp.fused | fused-optimizer | 3 | 6.2% | 2.5% | 28% | yes |
| amp.default → amp.all | fused-optimizer | | 6.2% | 37.4% | 32% | yes, by about a point |
| amp.foreach → amp.all | fused-optimizer | 3 | 12.7% | 20.2% | 32% | in value only: cuda-graphs first |
| amp.fused → amp.all | fused-optimizer | | none | 35.7% | 32% | no: no EMA lever |
| ctc.default → ctc.cpulen | host-read | 7 | 0.0% | 2.6% | 21% | yes |
| ctc.default → ctc.every50 | step-read | 3 | 0.0% | 7.9% | 53% | in value only: torch-compile first |
| ctc.default → ctc.all | host-read+step-read | | 0.0% | 17.2% | 31% | yes |
| ctc.cpulen → ctc.all | step-read | 3 | 0.1% | 15.1% | 31% | in value only: torch-compile first |
| ctc.every50 → ctc.all | host-read | | none | 10.1% | 53% | in value only: not advised; cuda-graphs first |

The first lever is the one measured first on none of the six steps: profan's first is ` + "`cuda-graphs`" + ` on the three amp
steps (63.4%, 57.8%, 65.5%) and on ctc.every50 (71.6%), ` + "`torch-compile`" + ` on ctc.default (22.1%) and ctc.cpulen (23.0%),
none of them measured; the levers measured first are ranked third (the foreach EMA's and fused AdamW's rule on
amp.default and amp.foreach, the CER every 50 steps on ctc.default and ctc.cpulen) or not advised (the EMA on
amp.fused, the CPU lengths on ctc.every50). Nine of the ten rows land within max(0.10, spread) in value, four of them
in rank as well; the one row out, amp.fused → amp.all (none against 35.7%), is the EMA's. Missed, by mechanism:

- *No lever for a per-parameter loop outside the optimizer.* The weight EMA's loop (timm's ModelEmaV2: 102 tensors, 4
  launches each) is named in the timeline, ` + "`host20.py(120): update`" + ` in other Python (13.19 ms of amp.default's 204.56 ms
  profiled) and its ` + "`.copy_()`" + ` in copy calls (3.09 ms), but fused-optimizer's for-loop collapse reads only
  ` + "`Optimizer.step#…`" + `'s range, torch-compile only the model's forward and backward: on amp.fused, whose AdamW is fused
  (fused-optimizer in use), the EMA, measured 35.7%, is priced by nothing but CUDA graphs.
- *GradScaler's read.* ` + "`found_inf`" + `'s ` + "`.item()`" + ` in ` + "`GradScaler.step`" + ` (` + "`.item() at host20.py(143): step`" + `, 7.01 ms of the
  7.05 ms of host sync) is taken for a per-step read: step-read advises reading it every N steps, which GradScaler
  cannot do; the lever that removes it is ` + "`fused=True`" + ` (the scaler hands ` + "`found_inf`" + ` to the fused kernel), which
  fused-optimizer prices by the update's launches and bytes alone: 6.2% from default (measured 2.5%, the EMA's loop
  bounding the host) and 12.7% from foreach (measured 20.2%), each within its spread.
- *The two ctc reads, each named by the other's rule.* host-read names the CER's ` + "`.tolist()`" + ` at ` + "`host20.py(233): cer`" + ` as
  a read that sizes tensors (it sizes nothing: a metric), and step-read names the loss's syncs
  (` + "`aten::ctc_loss → cudaStreamSynchronize at host20.py(249): step`" + `, and ` + "`CtcLossBackward0`" + `'s) as a read in a loop of the
  step, about 8 a step, with the advice to test it every N iterations. Both are priced at their waits alone (0.0%):
  step-read keeps the greedy decode and the edit distance that run on the host after the CER's read, which reading
  every 50 steps also removes (measured 7.9% from default, 15.1% from cpulen). With the lengths on the CPU the loss
  still synchronizes (0.33 ms of ctc.cpulen's 0.65 ms of host sync, in ` + "`aten::ctc_loss`" + `).
- *CUDA graphs first where the step is not captured whole.* On amp.default and amp.foreach, priced for the regions
  between the scaler's read (its advice names it and says so); on ctc.every50, a step whose ` + "`aten::ctc_loss`" + ` fills run
  on grids that change with the batch's lengths and whose loss reads the lengths every step: the advice says both,
  then prices the loop's body between the reads at 71.6%. Graphs were not measured on any host20 step; on
  ctc.default and ctc.cpulen they are not priced (the CER's ` + "`.tolist()`" + ` named as blocking capture).

The six cause splits (above, with the other held-out steps) sum to the wall, and no launch-bound time is named by a
Python frame, a sync or a copy. Named with their frames: GradScaler's read at ` + "`host20.py(143): step`" + `; the EMA at
` + "`host20.py(120): update`" + `, the first read failing this check as written, ` + "`host20.py(121)`" + `, the def line: the profiler's
frame of a decorated function (` + "`@torch.no_grad()`" + `) carries the decorator's line, corrected after the read, no code
changed; the CER's ` + "`.tolist()`" + ` at ` + "`host20.py(233): cer`" + ` and its edit distance at ` + "`host20.py(222): edit_distance`" + ` (other
Python, below the first three calls); the loss's read at ` + "`host20.py(249): step`" + `. Nothing was fitted to this capture
and no pricing was changed after the read.

Fixed after the read, by mechanism, the first read kept above (the rows' table and misses give the figures now): a new
rule, ` + "`foreach-loop`" + `, reads a line of the user's code whose Python spans interleave, each step, with elementwise ops alone,
once a tensor, outside any annotated range, names it, and prices it by replaying the step with each step's loop
collapsed into multi-tensor launches, the machinery fused-optimizer collapses a for-loop step with: amp.default →
amp.foreach 15.9% (measured 21.5%, spread 26%), amp.fused → amp.all 26.8% (35.7%, 32%), each second behind CUDA graphs,
not measured; the EMA named at ` + "`host20.py(120): update`" + `. No other trace fixture's advice moved.

Fixed after the read, the ctc reads and CUDA graphs on them, by mechanism: a sync inside an op the user called that
waits for a device-to-host copy the op made is the op reading an argument held on the GPU (` + "`F.ctc_loss`" + `'s lengths and
targets): host-read names it (` + "`aten::ctc_loss → cudaStreamSynchronize at host20.py(249): step`" + `) and prices its copies'
calls and their waits, the op's uploads kept (0.0% from every50, measured 10.1%, spread 53%); a shape method's read never
between the step's launches sizes nothing: step-read names the CER's ` + "`.tolist()`" + ` at ` + "`host20.py(233): cer`" + ` and prices its
wait and the host's Python after it to its frame's last span (the greedy decode and the edit distance, no launch
between) made every 50 steps: 0.6% from default (measured 7.9%, spread 53%), 0.7% from cpulen (15.1%, 31%), the
trace's CER Python being about 0.45 ms of a 35 ms profiled step. CUDA graphs are not priced where an op reads its
arguments back every step (ctc.every50: 71.6% and first at the read). Of
torch.compile's 22.1% on ctc.default, the loss's backward (` + "`CtcLossBackward0`" + `, ` + "`LogSoftmaxBackward0`" + `), which
` + "`torch.compile(model)`" + ` leaves eager with the loss, and the dispatch of an op that keeps a GEMM's launch are no longer
taken, and a fused chain keeps each of its reductions and normalizations a kernel of its own (inductor fuses the
element-wise ops into a reduction's kernel, not two reductions into one: host20c's trace of the compiled step launches
379 kernels a step against 352 eager, its backward's layer-norm, GELU and bias reductions several Triton kernels): 14.5%,
still first, by 2.5 points over fused-optimizer, where it measured -6.1% (host20b). Compared kernel by kernel with
the eager trace, each block's backward launches 26 kernels compiled against 19 eager: each bias's gradient sum (one ATen
` + "`reduce_kernel`" + `) is a split reduction of two Triton kernels (partial sums over 208 blocks of rows, then an 8-block final),
each layer norm's weight and bias gradients (ATen's one ` + "`GammaBetaBackward`" + `) three (one partial kernel for both, a final for
each); with those launches added back, a launch's worth of host each: 11.5%, second to fused-optimizer (12.0%, measured
6.0%), in measured order. The efficient attention backward's own mul, sum, copy and fill (four ATen kernels a block)
run in the compiled backward as in the eager one, inductor calling the op as an extern kernel: no longer counted, 10.8%
(s2s.compile 14.4% → 13.5%). What the compiled trace shows and the replay still does not price: each layer norm's
backward is six Triton kernels (another split reduction, 2×50 blocks then 50, beside the input gradient's and the weight
and bias gradients'), the GELU's backward is written once for the next GEMM and again inside the bias's sum, and the
compiled regions' own Python (Dynamo's guards and AOTAutograd's wrappers around the graphs' calls: 0.9 ms and 777 Python
calls a step in the forward, 0.6 ms in the backward, profiled). Elsewhere: host19b's s2s.compile
20.6% → 16.4% (measured 15.3%), host13's mlp.compile 10.2% → 8.1% (0.8%), tf.compile 8.8% → 6.8% (7.3%), vit.compile
15.1% → 11.5% (10.4%), host20b's amp.compile 12.6% → 10.4% (15.3%), host14's unet.bf16compile 41.8% → 34.4% (62.0%),
host20c's voxel.compile 21.8% → 17.9% (48.4%, a known miss); with the split reductions, host19b's s2s.compile 16.4% →
14.4% (13.5% with the attention op's own kernels eager), host13's mlp.compile 8.1% → 7.0%, host20b's amp.compile
10.4% → 9.7%, voxel.compile 17.9% unchanged.

### fixtures/host20b: host20's unmeasured levers, measured after the read

` + "`fixtures/host20b`" + ` (` + "`host20b.py`" + `, H200, 2026-11-29 15:25–15:30, three alternating processes a variant, after the first
read) timed the compiles and the fused optimizer profan ranked on host20's traces that host20 had not timed, beside
the steps timed again in the same session: torch.compile on amp.default (12.6%, second) measured 15.3% (spread 26%);
on ctc.default (22.1%, first) -6.1% (28%), a miss in rank and, by 0.2 points, in value: the compiled recognizer ran
no faster; fused AdamW on ctc.default (12.0%, second) 6.0% (45%), the lever measured first in this session, by less
than the spread. CUDA graphs, first on the amp steps, were not timed. Nothing was fitted to it.

### fixtures/host20c: the first levers no capture had timed

` + "`fixtures/host20c`" + ` (` + "`host20c.py`" + `, H200, 2026-11-29 17:02–17:07, three alternating processes a variant, at the start
of the next session, before any fit) timed two levers profan ranked first that no capture had timed, beside the steps
timed again: on amp.default (26.01 ms), the classifier's forward and backward graphed by
` + "`torch.cuda.make_graphed_callables`" + ` (autocast without its weight cache; the scaler's read, AdamW's step and the
EMA's loop stay eager) measured 43.2% (spread 11%), above the EMA's foreach (21.5% in host20's session): CUDA graphs
are the lever measured first there, and the foreach row is no longer held first; profan priced them at 63.4%, over
by 20 points. From amp.all (16.67 ms) the same graphs measured 53.0% (no trace of amp.all prices them). On host15's
voxel.fixed (8.89 ms), ` + "`torch.compile`" + ` (first at 21.8%) measured 48.4% (spread 21%), under by 27 points, and bf16
autocast (second at 12.3%) 7.4%. Nothing was fitted to it when it landed.

Fitted after (session of 2026-11-29, 20:00–21:35), by mechanism: inductor's own gather, index_add and sums ran 3 to
5 times faster than ATen's in host20c's compiled trace (5.07, 5.68 and 3.84 ms of the four profiled steps to 1.05,
1.83 and 0.72), which launch order alone cannot price. The trace reader now keeps the bytes each kernel's aten op
moves, from the shapes, strides and types ` + "`record_shapes=True`" + ` records, and torch-compile prices a fused chain (and a
lone op between GEMMs, and each reduction kept a kernel) at the bytes its largest op moves at 92% of the DRAM
bandwidth, at most its longest ATen launch: voxel.compile 17.9% → 48.4% (measured 48.4%). With it, a reduction alone
between two GEMMs (a bias's gradient sum) now counts its split kernels' launches, which lowers the steps the host
bounds: mlm.compile 10.1% → 8.6% (1.7%), s2s 13.5% → 11.9% (15.3%), amp 9.7% → 8.9% (15.3%), ctc 10.8% → 8.6%
(−6.1%), unet.tf32compile 25.3% → 28.5% (21.6%), aug.compile 16.2% unchanged (1.6%).

### fixtures/host21b: host21's unmeasured levers, timed before the read

` + "`fixtures/host21b`" + ` (` + "`host21b.py`" + `, H200, 2026-11-29 17:45–17:51, two alternating processes a variant, three of
aug.default) timed, before host21's first read and unseen by the fitters, the levers profan then ranked on host21's
traces that host21 did not time, beside the steps timed again: on aug.default (34.20 ms), the ResNet graphed by
` + "`make_graphed_callables`" + ` (cuda-graphs, first at 42.1%) measured 14.5% (spread 13%), compiled 1.6%, and channels_last
25.3% (channels-last, 13.5%); on mlm.default (44.25 ms) the encoder compiled 1.7%. None measured above the lever host21
measured first (the batched augmentation, 32.9%; maxpred, 20.1%). Nothing was fitted to it.

Fixed after, by mechanism, on host20's amp (the rows' table and misses give the figures now). GradScaler's read of
` + "`found_inf`" + ` (` + "`.item()`" + ` in its ` + "`_maybe_opt_step`" + `, a frame the reader now keeps whole) is no read of the user's:
step-read no longer advises reading it every N steps; fused-optimizer names it and its replay drops its wait with the
update's collapse, the scaler handing the fused step ` + "`found_inf`" + ` (amp.foreach → amp.all 12.7% → 12.8%, measured 20.2%:
the host, bound by its launches, barely waits there). And where that read alone splits the step, CUDA graphs are
priced for what a graph can hold, the model's forward calls and its backward (` + "`make_graphed_callables`" + `), the scaler,
AdamW's step and the EMA's loop replayed eager: amp.default 63.4% → 39.9% (measured 43.2%, spread 11%), still first;
amp.foreach 57.8% → 37.4% (not measured). The first read's expectation that graphs never come first on the amp steps
was refuted by that measurement; the check now asks that the advice name the read and price the model alone. No
other trace fixture holds a GradScaler read, and none moved.
`)
	b.WriteString(`
### fixtures/host22b and host22c: host22's unmeasured levers, timed before the read

` + "`fixtures/host22b`" + ` (` + "`host22b.py`" + `, H200, 2026-11-29 20:27–20:34, two alternating processes a variant) and
` + "`fixtures/host22c`" + ` (20:48–20:50, three) timed, before host22's first read and unseen by the fitters, the levers
profan ranked on host22's traces at 20:25 that host22 did not time. Read once at 21:45, with main at 2e90d73:
4 of 8 rows hold. On ddpm.default (46.66 ms) the UNet graphed by ` + "`make_graphed_callables`" + ` measured 16.9% and
compiled 12.7%, where profan ranks compile first at 24.6% (over by 12 points: fused chains priced at the DRAM floor
of their ops' bytes) and graphs second at 11.6%; on ddpm.gather (40.37 ms) TF32 9.7% (10.2%), channels-last −6.3%
(5.8%: a miss, GroupNorm, not batch norm, around the convolutions) and, in host22c, compile 14.1% (20.9%, second
behind bf16-autocast, which measured −33.4%); on rec.default the fused Adam 6.7% (3.9%); on rec.nodedup the DLRM
graphed 38.9% (42.5%) and compiled 4.8% (7.9%), both under the workers' 55.3%, as profan ranks them. Nothing was
fitted to it.

### fixtures/host21's expected rows, written before the read

` + "`fixtures/host21`" + ` (H200, 2026-11-29 17:07–17:13) was captured on a branch the fitters never saw; these rows were
written from its unprofiled timings (three processes a variant, two for aug.all) before profan read its traces, and
committed before the read, which is recorded below them as it came. *First* (measured) is the lever with the largest
positive measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| mlm.default → mlm.maxpred | host-read (20 masked positions a sequence, gathered: no ` + "`nonzero`" + `) | yes | 20.1% | 30% |
| mlm.default → mlm.lazylog | step-read (the log summed on the GPU, read every 50 steps) | no | -6.3% | 17% |
| mlm.default → mlm.all | host-read+step-read | | 8.9% | 15% |
| mlm.maxpred → mlm.all | step-read | no: the only lever measured, no gain | -14.0% | 30% |
| mlm.lazylog → mlm.all | host-read | yes: the only lever measured | 14.3% | 17% |
| aug.default → aug.batched | foreach-loop (the batch augmented at once) | yes | 32.9% | 14% |
| aug.default → aug.gpumetric | step-read (the confusion matrix on the GPU, read every 50 steps) | no | 18.6% | 19% |
| aug.default → aug.all | foreach-loop+step-read | | 40.9% | 14% |
| aug.batched → aug.all | step-read | yes: the only lever measured | 11.9% | 6% |
| aug.gpumetric → aug.all | foreach-loop | yes: the only lever measured | 27.4% | 19% |

Expected besides: on mlm the boolean mask's two reads a micro-batch bound the step; the log's reads add nothing
measurable once they are gone (maxpred → all −14.0%, within its spread of 30%: one maxpred process ran 40.71 ms, the
others 31.28 and 31.54) nor while they stay (default → lazylog −6.3%, spread 17%). No rule names a per-item loop over
the batch: foreach-loop, whose collapse of a Python loop's per-tensor launches into a few multi-tensor ones is the
batched augmentation's mechanism, is the rule of that lever; it holds only if its advice prices and names the loop
(` + "`host21.py(157): aug_loop`" + `), whose ops include a reduction (the image's mean for the contrast jitter). CUDA graphs
cannot capture mlm.default or mlm.lazylog (the mask's count sizes the loss's tensors every micro-batch) nor aug.default
or aug.gpumetric (each image's crop, flip and jitter drawn by Python's ` + "`random`" + ` every step: a graph replays one
draw): they are never first there. Named with their frames: the mask's reads at ` + "`host21.py(103): mlm_loss`" + ` (in the
host-sync time of mlm.default and mlm.lazylog, and in host-read's advice), the log's ` + "`.item()`" + ` at
` + "`host21.py(129): step`" + ` (in the host-sync time of mlm.default and mlm.maxpred, and in step-read's advice), the metrics'
` + "`.cpu()`" + ` at ` + "`host21.py(215): step`" + ` (in the host-sync time of aug.default and aug.batched, and in step-read's
advice) and the per-image loop at ` + "`host21.py(157): aug_loop`" + ` (in aug.default's other Python and in foreach-loop's
advice, as written before the read; item-loop's since). The six traces' cause splits sum to the wall, and no launch-bound time is named by a Python frame.

### fixtures/host21's first read

Read once with main at 5713ddc (18:40, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace, text and this test,
the rows above kept as written. The replayed unprofiled steps: mlm.default 33.17 ms (measured 39.47; its traced process
39.47), mlm.maxpred 31.48 ms (31.54; 31.28), mlm.lazylog 35.95 ms (41.97; 37.64), aug.default 32.81 ms (30.23; 30.23),
aug.batched 18.29 ms (20.27; 19.24), aug.gpumetric 18.82 ms (24.60; 20.32).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| mlm.default → mlm.maxpred | host-read | 1 | 59.6% | 20.1% | 30% | in rank only: over by 40 points |
| mlm.default → mlm.lazylog | step-read | 4 | 0.0% | -6.3% | 17% | yes |
| mlm.default → mlm.all | host-read+step-read | | 63.9% | 8.9% | 15% | no: over by 55 points |
| mlm.maxpred → mlm.all | step-read | 4 | 0.0% | -14.0% | 30% | yes |
| mlm.lazylog → mlm.all | host-read | 1 | 62.8% | 14.3% | 17% | in rank only: over by 48 points |
| aug.default → aug.batched | foreach-loop | | none | 32.9% | 14% | no: not advised; cuda-graphs first |
| aug.default → aug.gpumetric | step-read | 3 | 15.9% | 18.6% | 19% | yes |
| aug.default → aug.all | foreach-loop+step-read | | 15.9% | 40.9% | 14% | no: under by 25 points |
| aug.batched → aug.all | step-read | 3 | 5.4% | 11.9% | 6% | in value only: torch-compile first |
| aug.gpumetric → aug.all | foreach-loop | | none | 27.4% | 19% | no: not advised |

The first lever is the one measured first on two of the five steps with a lever measured to gain: ` + "`host-read`" + ` on
mlm.default and mlm.lazylog (the fixed masked positions, measured first there). On the aug steps profan's first is
` + "`cuda-graphs`" + ` on aug.default (42.1%) and ` + "`torch-compile`" + ` on aug.batched (28.4%) and aug.gpumetric (8.8%), none
measured; the levers measured first are not advised (the batched augmentation, from default and from gpumetric) or
third (the metrics on the GPU, from batched, behind torch-compile and channels-last at 27.6%). On mlm.maxpred, where
no lever measured gains, ` + "`cuda-graphs`" + ` comes first at 52.9%, priced for the micro-batch loop's body between its
` + "`.item()`" + ` reads (a capture the step's fixed shapes allow), not measured. Four of the ten rows land within
max(0.10, spread) in value, three of them in rank as well (the two step-read rows of mlm, whose log reads profan prices
at 0.0% as measured, and aug.default → aug.gpumetric, 15.9% against 18.6%). Missed, by mechanism:

- *Gradient accumulation taken for a per-item loop.* host-read names the mask's reads at
  ` + "`aten::index → cudaStreamSynchronize at host21.py(103): mlm_loss`" + ` and the backward's
  (` + "`IndexBackward0 → cudaStreamSynchronize`" + `: 12 a step, the backward's a read the expected rows did not count), says no
  graph can capture the step, and ranks first where it is measured first; but it counts mlm_loss's reads (8 a step) as
  the entries of a loop over a batch's items, the detector's per-image postprocess it was fitted on, and replays the
  step with mlm_loss's host time and launches one read's worth: the encoder's forward, which mlm_loss calls, cut to an
  eighth. The fixed masked positions keep the four micro-batches and take the reads away alone: 59.6% against 20.1%
  from default, 62.8% against 14.3% from lazylog; its fix speaks of boxes, topk and NMS.
- *No lever for a per-item loop over the batch.* The augmentation's loop is named in the timeline,
  ` + "`host21.py(157): aug_loop`" + ` in other Python (24.92 ms of aug.default's 228.97 ms profiled) and its ops in the
  launch-bound time (` + "`aten::mul`" + `, ` + "`aten::to`" + `, ` + "`aten::sub`" + `, about 10.5 ms each), but no rule prices batching it:
  foreach-loop's per-tensor update takes elementwise ops alone, and the loop's select and slice views, flip, clamp_, mean
  and stack fall outside them. The batched augmentation, measured first from default (32.9%) and from gpumetric (27.4%),
  is priced by nothing.
- *CUDA graphs first on a step drawn on the host.* On aug.default ` + "`cuda-graphs`" + ` comes first at 42.1%, priced for the
  whole step with the metrics' read kept; its advice does not say that each image's crop, flip and jitter are drawn
  with Python's ` + "`random`" + ` every step, which a captured graph would replay as one draw. Not measured.

The six cause splits (above, with the other held-out steps) sum to the wall, and no launch-bound time is named by a
Python frame, a sync or a copy: mlm's launch-bound time (54.7% to 58.6% of the profiled wall) is named by the
backward's ops and ` + "`aten::linear`" + `, its other Python by ` + "`host21.py(129): step`" + ` (43.31 ms of mlm.default's 289.61 ms). Named
with their frames, as written: the mask's reads at ` + "`host21.py(103): mlm_loss`" + ` and the log's ` + "`.item()`" + ` at
` + "`host21.py(129): step`" + ` in host sync (mlm.default 9.24 ms, 7.31 of it the ` + "`.item()`" + `), the metrics' ` + "`.cpu()`" + ` at
` + "`host21.py(215): step`" + `, the loop at ` + "`host21.py(157): aug_loop`" + `; in the advice, host-read's and step-read's frames on mlm
and step-read's on aug. Nothing was fitted to this capture and no pricing was changed after the read.

After the read, ` + "`item-loop`" + ` (a sibling of foreach-loop) names a Python loop of the user's that takes one item of a
tensor (` + "`aten::select`" + `, at least 8 a step) and runs each other op about once an item (or once a step: the stack),
no model layer inside, outside any forward and the optimizer's step; it is priced by replaying the step with the loop's
host time and launches one iteration's worth, its kernels' time above the launch floor kept. On aug.default it names
` + "`host21.py(157): aug_loop`" + ` (64 items, 738 launches a step) at 38.4% against 32.9% measured (second, behind cuda-graphs at
42.1%), and with step-read 43.4% against 40.9%. From gpumetric it prices 0.1% against 27.4%: the replay's unprofiled
gpumetric step (18.82 ms against 24.60 ms measured) is bound by its kernels, so the loop's host time, taken away, hides
behind the GPU; that miss stays. The rows keep the first read's record in their comments.

### fixtures/host22's expected rows, written before the read

` + "`fixtures/host22`" + ` (H200, 2026-11-29 20:16–20:22) was captured after the fits began and landed at once, unread; these
rows were written from its unprofiled timings (three processes a variant, four for rec.all and ddpm.all) before
profan read its traces, and committed before the read (at 21:40, after the fitters' cutoff at 21:35), which is
recorded below them as it came. *First* (measured) is the lever with the largest positive measured gain of those
measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| rec.default → rec.workers | data-loader (4 workers, pinned, non_blocking) | yes | 36.3% | 44% |
| rec.default → rec.nodedup | host-read (each table looked up without ` + "`torch.unique`" + `) | no | 27.2% | 44% |
| rec.default → rec.all | data-loader+host-read | | 67.5% | 44% |
| rec.workers → rec.all | host-read | yes: the only lever measured | 48.9% | 27% |
| rec.nodedup → rec.all | data-loader | yes: the only lever measured | 55.3% | 29% |
| ddpm.default → ddpm.gather | step-read (the schedule gathered on the GPU: no read) | yes | 7.6% | 6% |
| ddpm.default → ddpm.bf16 | bf16-autocast | no | -1.7% | 17% |
| ddpm.default → ddpm.all | step-read+bf16-autocast | | -23.2% | 17% |
| ddpm.gather → ddpm.all | bf16-autocast | no: the only lever measured, no gain | -33.4% | 17% |
| ddpm.bf16 → ddpm.all | step-read | no: the only lever measured, no gain | -21.1% | 17% |

Expected besides: on rec the main process's loading (the line parsing and the 26 hashes an item, 256 items a step)
and the 26 ` + "`torch.unique`" + ` reads a step both cost the step, and each lever saves a little more time once the other
is applied (workers 7.09 ms from default, 7.86 from nodedup; nodedup 5.31 ms from default, 6.08 from workers), so
the combination (67.5%) is above the product of the two alone (53.6%); rec.default's spread (44%: its traced r1
process ran 26.88 ms, the others 19.53 and 18.28) makes its three rows wide. On ddpm the 64 reads a step
(` + "`[int(ti) for ti in t]`" + `: ` + "`aten::unbind`" + `, then ` + "`aten::item`" + ` once a sample) sit at the start of every step,
before the UNet's launches: the first waits for the previous step's work, so the host cannot run ahead, and the
gathered schedule takes the reads away (7.6%). bf16 autocast, the precision change, gains nothing (−1.7%, within its
spread), and with the reads gone the bf16 step measured slower still (−21.1% from bf16, −33.4% from gather; three of ddpm.all's four
processes 51.28 to 51.92 ms, one 42.92): the rows from gather and bf16 to all hold only where profan prices that
slowdown (a lever not advised counts as 0%, outside both spreads), and bf16 from default only where it is priced with the
step's host floor, not by its kernels' shrink. CUDA graphs cannot capture rec.default or rec.workers (each
table's unique count sizes its lookup) nor ddpm.default or ddpm.bf16 (64 host reads a step between its launches):
they are never first there. Named with their frames: the loading at ` + "`host22.py(102): __getitem__`" + ` under the
DataLoader's iterator (in the data time of rec.default and rec.nodedup, and in data-loader's advice), the unique
reads at ` + "`host22.py(130): forward`" + ` (in the host-sync time of rec.default and rec.workers, and in host-read's advice),
the schedule's reads at ` + "`host22.py(196): step`" + ` (in the host-sync time of ddpm.default and ddpm.bf16, and in
step-read's advice). The six traces' cause splits sum to the wall, and no launch-bound time is named by a Python frame.

### fixtures/host22's first read

Read once with main at 8a2c7ab (21:40, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace, text and this test,
the rows above kept as written. The replayed unprofiled steps: rec.default 14.31 ms (measured 19.53; its traced process
26.88), rec.workers 10.14 ms (12.44; 12.25), rec.nodedup 10.74 ms (14.22; 14.22), ddpm.default 41.69 ms (41.77; 40.35),
ddpm.gather 38.43 ms (38.59; 38.44), ddpm.bf16 32.89 ms (42.49; 41.64).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| rec.default → rec.workers | data-loader | 1 | 38.1% | 36.3% | 44% | yes, first |
| rec.default → rec.nodedup | host-read | 3 | 1.3% | 27.2% | 44% | yes, within the spread only |
| rec.default → rec.all | data-loader+host-read | | 40.1% | 67.5% | 44% | yes, within the spread only |
| rec.workers → rec.all | host-read | 2 | 0.5% | 48.9% | 27% | no: under by 48 points; fused-optimizer first |
| rec.nodedup → rec.all | data-loader | 1 | 49.6% | 55.3% | 29% | yes, first |
| ddpm.default → ddpm.gather | step-read | 7 | 0.9% | 7.6% | 6% | in value only: torch-compile first |
| ddpm.default → ddpm.bf16 | bf16-autocast | 3 | 8.8% | -1.7% | 17% | yes |
| ddpm.default → ddpm.all | step-read+bf16-autocast | | 9.1% | -23.2% | 17% | no: over by 32 points |
| ddpm.gather → ddpm.all | bf16-autocast | 1 | 21.2% | -33.4% | 17% | no: over by 55 points, and first |
| ddpm.bf16 → ddpm.all | step-read | 4 | 0.3% | -21.1% | 17% | no: over by 21 points |

The first lever is the one measured first on two of the four steps with a lever measured to gain: ` + "`data-loader`" + ` on
rec.default (38.1% against 36.3%) and rec.nodedup (49.6% against 55.3%). On rec.workers profan's first is
` + "`fused-optimizer`" + ` (7.9%, not measured), the lookup without ` + "`unique`" + ` second at 0.5% against 48.9%; on ddpm.default it
is ` + "`torch-compile`" + ` (24.6%; host22b measured the UNet compiled at 12.7% and graphed at 16.9%, both above the gathered
schedule's 7.6% in this session), step-read seventh. Where no lever measured gains, profan puts ` + "`bf16-autocast`" + ` first on
ddpm.gather (21.2%, measured −33.4%) and ` + "`cuda-graphs`" + ` first on ddpm.bf16 (29.1%, not measured). Five of the ten rows
land within max(0.10, spread) in value and rank, three of them (rec.default → rec.nodedup and → rec.all, and
ddpm.default → ddpm.bf16) inside a spread of 17% to 44% that a zero would also meet; a sixth (ddpm.default →
ddpm.gather) in value only. Named with their frames, as written: the loading at ` + "`host22.py(102): __getitem__`" + ` (data loading,
90.63 ms of rec.default's 204.32 ms profiled), the unique reads at ` + "`host22.py(130): forward`" + ` (host sync, 8.93 ms of
rec.default's) and the schedule's reads at ` + "`host22.py(196): step`" + ` (1.30 ms of ddpm.default's host sync), in the timeline
and in data-loader's, host-read's and step-read's advice; the six cause splits sum to the wall and no launch-bound time
is named by a Python frame. Missed, by mechanism:

- *A read's lever priced as its wait alone.* host-read prices the 26 ` + "`torch.unique`" + ` reads as syncs no longer waited for
  (0.05 ms a step on rec.workers), and step-read the 64 schedule reads the same way (0.36 ms a step on ddpm.default). The
  measured fixes take away more than the waits: the lookup without ` + "`unique`" + ` drops the dedup's sort, scan and select and
  the gather by the inverse, whose ` + "`IndexBackward0`" + ` accumulates with ` + "`indexing_backward_kernel`" + ` (39.1% of rec.workers'
  kernel time; 2604 launches in the four profiled steps against nodedup's 945, on a step its host bounds, GPU busy
  13.8%); the gathered schedule drops the loop around the reads, its selects, items, numpy lookups and three pageable
  uploads (` + "`host22.py(196): step`" + `'s other Python 44.35 ms of ddpm.default's profiled wall against 33.56 ms of
  gather's). The replay itself holds: ddpm's default and gather steps replay within 0.4% of their measured walls, so the
  lever's transform, not the replay, misses. host21's masked-LM rows missed the same way (the mask's ops not priced).
- *bf16 autocast priced without its own host cost.* The lever shrinks the kernels at the bf16 rate with the host floor
  kept, but adds none of autocast's casts: ddpm.bf16's trace holds 7184 launches in four steps against default's 5633
  (` + "`ToCopyBackward0`" + ` 18.66 ms of its launch-bound time), GPU busy 26.5%, launch-bound 51.8%, and its replayed step
  (32.89 ms) falls 9.6 ms short of its measured 42.49. From default the lever lands within the spread (8.8% against
  −1.7%); from gather, where the reads no longer hide the host, it comes first at 21.2% against −33.4%.
- *A slowdown no trace shows.* With the reads gone the bf16 step measured slower (ddpm.all: three of four processes 51.28
  to 51.92 ms, one 42.92; bf16 42.49): −21.1% from bf16, −23.2% from default. ddpm.all was not traced; nothing in the
  fixture says why, and no replay of bf16's trace prices it.
- *CUDA graphs first beside a read that is not a loop's.* On ddpm.bf16 ` + "`cuda-graphs`" + ` comes first at 29.1%, priced as "the
  loop's body between two reads" replayed as graphs, the reads kept; its advice names the read
  (` + "`aten::item → cudaStreamSynchronize at host22.py(196): step`" + `), but the 64 reads sit in a list comprehension over the
  batch's timesteps with no GPU work between them, so what a graph can hold is the rest of the step (the uploads, the
  UNet's forward and backward, AdamW). host22b measured that from default (the UNet graphed with the reads kept, 16.9%,
  priced 11.6%); from bf16 it is not measured, so the check written before the read (graphs never first on a step
  with a host read) may be the one refuted, as fluid's was. Nothing was fitted to this capture.

### fixtures/host23's expected rows, written before the read

` + "`fixtures/host23`" + ` (H200, 2026-11-29 23:13–23:18) was captured after the fits began and landed at once, unread; these
rows were written from its unprofiled timings (three processes a variant, two for nerf.all and ppo.all) before profan
read its traces, and committed before the read (at 00:35, after the fitters' cutoff at 00:30). *First* (measured) is
the lever with the largest positive measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| nerf.default → nerf.bf16 | bf16-autocast | yes | 47.2% | 19% |
| nerf.default → nerf.cap | host-read (fixed capacity: a ` + "`cumsum`" + ` compaction, no read) | no | 4.4% | 3% |
| nerf.default → nerf.all | host-read+bf16-autocast | | 60.6% | 5% |
| nerf.cap → nerf.all | bf16-autocast | yes: the only lever measured | 58.8% | 5% |
| nerf.bf16 → nerf.all | host-read | yes: the only lever measured | 25.4% | 19% |
| ppo.default → ppo.fused | fused-optimizer | yes | 15.3% | 16% |
| ppo.default → ppo.noread | step-read (the statistics kept on the GPU, one read an update) | no | 1.3% | 16% |
| ppo.default → ppo.all | step-read+fused-optimizer | | 8.8% | 16% |
| ppo.noread → ppo.all | fused-optimizer | yes: the only lever measured | 7.6% | 10% |
| ppo.fused → ppo.all | step-read | no: the only lever measured, no gain | -7.6% | 8% |

Expected besides: nerf's FP32 step is its MLP's GEMMs (TF32 off for matmuls, PyTorch's default) on about 160000 kept
samples, and its two mask reads a step wait for the grid lookup before the MLP can be launched: at FP32 the GPU hides
most of that (the fixed capacity gains 4.4%, and puts 10% more rows through the MLP); once bf16 shrinks the GEMMs the
step nears its host and the reads' waits show (the capacity gains 25.4% from bf16, 2.8 ms of its 11.02), so bf16 from
default must be priced with the host floor and the reads kept (47.2%, not the GEMMs' shrink alone), and the
combination above the product of the two (60.6% against 49.5%). ppo's update is launch-bound (two small MLPs, 8
minibatches a step, each with clipping and a foreach Adam): its 40 reads a step wait only for a minibatch's tail, so
removing them gains nothing measurable (1.3%, within the spread; −7.6% from fused, where the stacked statistics add
launches), while the fused Adam, fewer launches, gains 15.3%. CUDA graphs cannot capture nerf.default or nerf.bf16 (the
kept count sizes the MLP's input) nor ppo.default or ppo.fused (five host reads in every minibatch): they are never
first there. Named with their frames: the mask reads at ` + "`host23.py(158): step`" + ` (in the host-sync time of nerf.default
and nerf.bf16, and in host-read's advice) and the logging reads at ` + "`host23.py(238): step`" + ` (in the host-sync time of
ppo.default and ppo.fused, and in step-read's advice). The six traces' cause splits sum to the wall, and no
launch-bound time is named by a Python frame.

### fixtures/host23's first read

Read once with main at dc10350 (00:35, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace and this test, the
rows above kept as written. The replayed unprofiled steps: nerf.default 19.48 ms (measured 20.85; its traced process
20.38), nerf.cap 19.62 ms (19.93; 19.92), nerf.bf16 9.85 ms (11.02; 10.18), ppo.default 51.94 ms (46.23; 49.83),
ppo.noread 47.41 ms (45.61; 43.01), ppo.fused 38.23 ms (39.16; 39.16).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| nerf.default → nerf.bf16 | bf16-autocast | 1 | 58.3% | 47.2% | 19% | yes, first |
| nerf.default → nerf.cap | host-read | 4 | 7.6% | 4.4% | 3% | yes |
| nerf.default → nerf.all | host-read+bf16-autocast | | 60.9% | 60.6% | 5% | yes |
| nerf.cap → nerf.all | bf16-autocast | 1 | 57.0% | 58.8% | 5% | yes, first |
| nerf.bf16 → nerf.all | host-read | 3 | 1.9% | 25.4% | 19% | no: under by 24 points; torch-compile first |
| ppo.default → ppo.fused | fused-optimizer | 2 | 9.4% | 15.3% | 16% | in value only: cuda-graphs first |
| ppo.default → ppo.noread | step-read | 4 | 0.5% | 1.3% | 16% | yes |
| ppo.default → ppo.all | step-read+fused-optimizer | | 10.0% | 8.8% | 16% | yes |
| ppo.noread → ppo.all | fused-optimizer | 2 | 8.4% | 7.6% | 10% | in value only: cuda-graphs first |
| ppo.fused → ppo.all | step-read | 3 | 0.7% | -7.6% | 8% | yes |

Seven of the ten rows hold in value and rank, two more in value only; one misses. The first lever is the one the
rows expected on two of the five steps with a lever measured to gain: ` + "`bf16-autocast`" + ` on nerf.default (58.3% against
47.2%, TF32 second at 51.8%, which host23b measured at 44.0%) and on nerf.cap (57.0% against 58.8%). On ppo.default and
ppo.noread profan's first is ` + "`cuda-graphs`" + ` (87.5% and 87.2%), which host23 did not time and host23b, timed by the lead
before the read, measured at 80.4% and 81.4%: right by measurement, so four of the five steps have the first lever
measured first. On nerf.bf16 profan's first is ` + "`torch-compile`" + ` (15.5%; host23b measured −2.4%). Named with their
frames, as written: the mask reads at ` + "`host23.py(158): step`" + ` and the logging reads at ` + "`host23.py(238): step`" + `, in the
timeline's host-sync time and in host-read's and step-read's advice; the six cause splits sum to the wall and no
launch-bound time is named by a Python frame. Missed, by mechanism:

- *A read's lever priced as its wait alone, on a step its host bounds.* On nerf.bf16 host-read prices the three mask
  reads (` + "`aten::index`" + `, ` + "`aten::index_put_`" + `, ` + "`IndexPutBackward0`" + `) as syncs no longer waited for: 0.19 ms a step,
  where the profiled waits are 0.04 ms a step (the profiled host runs 20.2 ms a step, twice the unprofiled, and finds
  the GPU drained at each read). The replayed step (9.85 ms) stays host-bound near 9.66 ms without the waits, while
  nerf.all measured 8.22 ms, under that floor: the fixed capacity takes away more than the waits, and the lever prices
  none of it (the boolean mask's own ops hold about 1.0 ms of the profiled step's host), the mechanism of host21's mlm
  and host22's rec; nerf.all was not traced, so the rest of the 2.0 ms is not in the fixture. At FP32 the same lever
  lands (7.6% against 4.4%): the GPU bounds that step and hides the host.
- *CUDA graphs first on a loop whose reads it cannot hold, refuted by measurement.* On ppo.default and ppo.fused
  ` + "`cuda-graphs`" + ` comes first (87.5%, 84.4%), priced as the minibatch's body between its reads replayed as graphs; the
  check written before the read (graphs never first on a step with a host read) fails. host23b measured it from
  default at 80.4%: each minibatch as one graph with the logging reads kept, once the distributions' argument
  validation is off. Those validation reads (` + "`aten::is_nonzero`" + ` at ` + "`host23.py(216): forward`" + ` and ` + "`host23.py(238): step`" + `:
  ` + "`Categorical(logits=…)`" + `'s and ` + "`log_prob`" + `'s ` + "`.all()`" + ` checks) are the ones inside the minibatch; the advice names them
  but not the switch that removes them (` + "`torch.distributions.Distribution.set_default_validate_args(False)`" + `).
  They also explain why noread gained nothing: with the logging reads gone, two validation reads a minibatch remain (16 a step, against default's 56).

### fixtures/host24's expected rows, written before the read

` + "`fixtures/host24`" + ` (H200, 2026-11-30 02:15–02:20) was captured after the fits began and landed at once, unread; these
rows were written from its unprofiled timings (three processes a variant; two for tab.graphs, tab.all, spike.graphs,
spike.bf16noread, spike.bf16graphs and spike.all, whose third the budget cut) before profan read its traces, and
committed before the read (at 03:40, after the fitters' cutoff at 03:35). *First* (measured) is the lever with the
largest positive measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| tab.default → tab.workers | data-loader | yes | 67.2% | 43% |
| tab.default → tab.graphs | cuda-graphs (the model's step, the loader kept) | no | 54.7% | 43% |
| tab.default → tab.all | data-loader+cuda-graphs | | 86.7% | 43% |
| tab.workers → tab.all | cuda-graphs | yes: the only lever measured | 59.5% | 13% |
| spike.default → spike.bf16 | bf16-autocast | yes | 25.4% | 17% |
| spike.default → spike.graphs | cuda-graphs (forward, backward, clipping; the read and the step eager) | no | 4.8% | 1% |
| spike.default → spike.noread | step-read (the guard on the GPU through AdamW's ` + "`found_inf`" + `) | no | 3.3% | 1% |
| spike.default → spike.bf16noread | bf16-autocast+step-read | | 25.8% | 3.5% |
| spike.default → spike.bf16graphs | bf16-autocast+cuda-graphs | | 38.9% | 1.5% |
| spike.default → spike.all | bf16-autocast+step-read+cuda-graphs | | 40.2% | 1% |
| spike.bf16 → spike.bf16graphs | cuda-graphs | yes | 18.1% | 17% |
| spike.bf16 → spike.bf16noread | step-read | no | 0.5% | 17% |
| spike.bf16 → spike.all | step-read+cuda-graphs (the whole step one graph) | | 19.8% | 17% |
| spike.noread → spike.bf16noread | bf16-autocast | yes: the only lever measured | 23.3% | 3.5% |
| spike.noread → spike.all | bf16-autocast+cuda-graphs | | 38.2% | 1% |

Expected besides: tab's step is its loader's: 512 rows featurised one at a time in the main process, then the eager
model's launches (graphed, with the loader kept, the step falls 54.7%; with the workers it is still bound by those
launches, 8.42 ms, and graphs take it to 3.41): the data loader and its frame (` + "`host24.py(169): __getitem__`" + ` under
` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are named in the timeline's data time and in
data-loader's advice, and the workers are priced bounded by the eight workers' throughput. tab's main-process steps ran
at different speeds across the call (tab.default 15.10 to 26.18 ms), so its spreads are wide. spike's FP32 step is
its GPU's (27.02 ms; the read waits for the backward and costs a few percent: 3.3% for the GPU-side guard, 4.8% for the
graphed part), and bf16 makes it its host's: kernels shrink far more than the wall (25.4%), so bf16 must be priced
with the host floor, and from bf16 the graphs of the part before the read come first (18.1%) while the read alone
costs nothing measurable (0.5%). The guard's read is named with its frame (` + "`.item() at host24.py(366): guard_host`" + `)
in the host-sync time of spike.default and spike.bf16, in step-read's advice, and in cuda-graphs' as what bounds the
captured region; spike.noread has no host read to advise away. torch.compile was not timed (three processes of a
compiled variant did not fit the call). The five traces' cause splits sum to the wall, and no launch-bound time is
named by a Python frame.

### fixtures/host24's first read

Read once with main at b7a83cf (03:40, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace and this test, the
rows above kept as written. The replayed unprofiled steps: tab.default 43.36 ms (measured 25.68; its traced process
25.68), tab.workers 9.07 ms (8.42; 8.42), spike.default 27.02 ms (27.02; 27.02), spike.bf16 23.68 ms (20.15; 21.09),
spike.noread 26.16 ms (26.13; 26.13).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| tab.default → tab.workers | data-loader | 1 | 79.7% | 67.2% | 43% | yes, first |
| tab.default → tab.graphs | cuda-graphs | 2 | 17.5% | 54.7% | 43% | yes, through the spread only |
| tab.default → tab.all | data-loader+cuda-graphs | | 79.7% | 86.7% | 43% | yes |
| tab.workers → tab.all | cuda-graphs | 1 | 63.3% | 59.5% | 13% | yes, first |
| spike.default → spike.bf16 | bf16-autocast | 2 | 8.2% | 25.4% | 17% | no: under by 17 points; torch-compile first |
| spike.default → spike.graphs | cuda-graphs | 3 | 6.1% | 4.8% | 1% | yes |
| spike.default → spike.noread | step-read | 4 | 2.9% | 3.3% | 1% | yes |
| spike.default → spike.bf16noread | bf16-autocast+step-read | | 8.2% | 25.8% | 3.5% | no: under by 18 points |
| spike.default → spike.bf16graphs | bf16-autocast+cuda-graphs | | 39.0% | 38.9% | 1.5% | yes |
| spike.default → spike.all | bf16-autocast+step-read+cuda-graphs | | 39.0% | 40.2% | 1% | yes |
| spike.bf16 → spike.bf16graphs | cuda-graphs | 1 | 32.1% | 18.1% | 17% | yes, first (refuted by host24b) |
| spike.bf16 → spike.bf16noread | step-read | 3 | 0.0% | 0.5% | 17% | yes |
| spike.bf16 → spike.all | step-read+cuda-graphs | | 32.1% | 19.8% | 17% | yes |
| spike.noread → spike.bf16noread | bf16-autocast | 1 | 29.7% | 23.3% | 3.5% | yes, first |
| spike.noread → spike.all | bf16-autocast+cuda-graphs | | 36.9% | 38.2% | 1% | yes |

Thirteen of the fifteen rows hold; two miss, by one mechanism. The first lever is the one the rows expected on four of
the five steps: ` + "`data-loader`" + ` on tab.default, ` + "`cuda-graphs`" + ` on tab.workers and on spike.bf16, ` + "`bf16-autocast`" + ` on
spike.noread. On spike.default profan's first is ` + "`torch-compile`" + ` (21.6%), which host24 did not time and host24b, timed
by the lead before the read, measured at 26.9% (above bf16's 25.4%, within its spread): right by measurement. On
spike.bf16 host24b measured torch.compile at 44.6%, where profan prices it second at 27.2% behind cuda-graphs (32.1%,
measured 18.1%): the row's first holds as written and is refuted by that measurement. So, counting host24b, four of
the five steps have the first lever measured first, spike.bf16 not. Named with their frames, as written: the loader
(` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host24.py(169): __getitem__`" + `, 81.2% of tab.default's
profiled wall) in the data time and in data-loader's advice, the guard's read (` + "`.item() at host24.py(366): guard_host`" + `)
in the host-sync time of spike.default and spike.bf16, in step-read's advice and in cuda-graphs' as what bounds the
captured regions; the five cause splits sum to the wall, no launch-bound time is named by a Python frame, and
spike.noread has no read advised away. Missed, by mechanism:

- *The eager step's host floor replayed high, on a step bf16 makes host-bound.* From spike.default bf16-autocast
  shrinks the kernels (25.1 ms a step in the trace to about 15.8, what the traced bf16 step's kernels take) and keeps a
  host floor of about 24.8 ms a step, where bf16 measured 20.15 ms; the bf16 trace's own replay (23.68 ms against its
  traced process's 21.09) is high the same way. The replay's unprofiled host time for this eager Llama step (RMSNorm,
  rotary q and k and SwiGLU as eager ops: 2420 launches in four steps, 2900 under autocast) is 3.5 to 4.7 ms a step too
  high; the FP32 step hides it (its GPU bounds it: replayed 27.02 against 27.02 measured), and graphs take it away
  (bf16+graphs lands at 39.0% against 38.9%). bf16 with the read gone misses by the same floor (8.2% against 25.8%).
  The same floor under-prices torch.compile from bf16 (27.2% against host24b's 44.6%) and over-prices the graphs of
  the part before the read (32.1% against 18.1%, within the spread), putting graphs first.
- *The loader's Python replayed at its profiled cost.* tab.default replays at 43.36 ms against 25.68 measured in its
  traced process (+69%): the main-process loading (512 rows featurised a step, every Python and C call of
  ` + "`__getitem__`" + ` recorded by with_stack) keeps at least 34.5 ms a step (what data-loader takes off) once the profiler's cost is taken off, more than the
  whole unprofiled step. The rows hold in share (the loader's lever 79.7% against 67.2%) and the graphs of the model's
  step only through the 43% spread (17.5% against 54.7%: 7.6 ms of a replayed 43.4 ms step, where 14 ms of a 25.7 ms
  step were measured); tab.workers, whose loading is off the main thread, replays within 8% (9.07 against 8.42).
  Fixed after the read, by mechanism: the loader's records are priced at the trace's own cost of recording one
  Python call (its short built-in calls' median record, 0.25 µs here against 0.14 in host22's rec at the same
  launch's worth), five a Python call and ten an aten op, with no share of the rest taken (` + "`loaderKeep`" + `,
  docs/replay.md): the loading keeps 20.8 ms a step, tab.default replays at 28.74 ms (1.12 of measured), the
  loader's lever at 72.1% against 67.2% and the graphs of the model's step at 26.5% against 54.7%.

### fixtures/host25's expected rows, written before the read

` + "`fixtures/host25`" + ` (H200, 2026-11-30 05:05–05:10) was captured after the fits began and landed at once, unread; these
rows were written from its unprofiled timings (three processes a variant) before profan read its traces, and
committed before the read (at 06:40, after the fitters' cutoff at 06:35). *First* (measured) is the lever with the
largest positive measured gain of those measured alone from the step.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| mol.default → mol.workers | data-loader | yes | 48.0% | 34% |
| mol.default → mol.noread | step-read (the readout sized from the host, the loss checked every 50 steps) | no | −15.3% | 34% |
| mol.default → mol.graphs | step-read+cuda-graphs (padded to fixed capacity, no read, the loader kept) | | 5.6% | 34% |
| mol.default → mol.all | data-loader+step-read+cuda-graphs | | 64.6% | 34% |
| mol.workers → mol.all | step-read+cuda-graphs | | 31.9% | 6.8% |
| exit.default → exit.noread | step-read (the exit decided on the GPU by ` + "`torch.where`" + `) | no | −47.5% | 38% |
| exit.default → exit.bf16 | bf16-autocast | no | −36.3% | 63% |
| exit.default → exit.bf16noread | bf16-autocast+step-read | | −80.8% | 38% |
| exit.default → exit.all | bf16-autocast+step-read+cuda-graphs (the whole forward one graph) | | 45.4% | 38% |
| exit.bf16 → exit.bf16noread | step-read | no | −32.7% | 63% |
| exit.bf16 → exit.all | step-read+cuda-graphs | | 60.0% | 63% |

Expected besides: mol's step is its loader's: 64 molecules parsed, rotated and graphed one at a time in the main
process (with the workers the step falls 48.0%, to 9.74 ms, and padded, read-free graphs take it to 6.63). The data
loader and its frame (` + "`host25.py(136): __getitem__`" + ` under ` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are
named in the timeline's data time and in data-loader's advice; on mol.workers, whose eight workers outpace the step,
data-loader is not first. mol's two reads a step (the readout's ` + "`int(batch.max())`" + ` at ` + "`host25.py(213): forward`" + `, the
stop check's ` + "`.item()`" + ` at ` + "`host25.py(249): check`" + `) are named in the host-sync time and in step-read's advice, and cost
nothing measurable (no read: −15.3%, within the 34% spread); the foreach AdamW's 82 reads a step of its CPU step counts
wait for no GPU and are named as no sync. CUDA graphs cannot capture mol as it is (its atom and edge counts change
every batch, its readout reads): never first there, and the advice says it cannot capture; measured only with the
padding and the reads gone (31.9% from workers). exit's step is its host's: only the graphed step got faster (2.89
ms, the bf16 kernels' bound), while the GPU-side exit and bf16 autocast each made the step slower (−47.5%, −36.3%):
neither is first, and no lever measured alone gains. Its read after every block is named with its frame
(` + "`.item() at host25.py(328): forward_host`" + `) in the host-sync time of exit.default and exit.bf16 and in step-read's advice;
where cuda-graphs is advised, it names that read as what bounds each captured block (graphs with the reads kept were
not timed). torch.compile was not timed. The four traces' cause splits sum to the wall, and no launch-bound time is
named by a Python frame.

### fixtures/host25's first read

Read once with main at b50a6de (06:40, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace and this test, the
rows above kept as written; host25b's five rows (the levers profan ranked first or second that host25 did not time,
timed by the lead before the read, its prices written down before its call) added at the read. The replayed
unprofiled steps: mol.default 15.66 ms (measured 18.72; its traced process 23.74), mol.workers 9.24 ms (9.74; 9.74),
exit.default 6.52 ms (5.29; 5.24), exit.bf16 8.35 ms (7.21; 10.96).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| mol.default → mol.workers | data-loader | 1 | 45.7% | 48.0% | 34% | yes, first |
| mol.default → mol.noread | step-read | 6 | 0.0% | −15.3% | 34% | yes |
| mol.default → mol.graphs | step-read+cuda-graphs | | 52.0% | 5.6% | 34% | no: over by 46 points |
| mol.default → mol.all | data-loader+step-read+cuda-graphs | | 85.8% | 64.6% | 34% | yes |
| mol.workers → mol.all | step-read+cuda-graphs | | 59.4% | 31.9% | 6.8% | no: over by 28 points |
| exit.default → exit.noread | step-read | 3 | 1.1% | −47.5% | 38% | no: over by 49 points |
| exit.default → exit.bf16 | bf16-autocast | not advised | none | −36.3% | 63% | yes |
| exit.default → exit.bf16noread | bf16-autocast+step-read | | 1.1% | −80.8% | 38% | no: over by 82 points |
| exit.default → exit.all | bf16-autocast+step-read+cuda-graphs | | 36.6% | 45.4% | 38% | yes |
| exit.bf16 → exit.bf16noread | step-read | 3 | 0.3% | −32.7% | 63% | yes |
| exit.bf16 → exit.all | step-read+cuda-graphs | | 67.0% | 60.0% | 63% | yes |
| host25b: exit.default → blockgraphs | cuda-graphs | 1 | 34.5% | 14.0% | 79% | yes, first |
| host25b: exit.default → compile | torch-compile | 2 | 23.4% | −8.1% | 79% | yes |
| host25b: exit.bf16 → bf16blockgraphs | cuda-graphs | 1 | 64.0% | 64.7% | 61% | yes, first |
| host25b: exit.bf16 → bf16compile | torch-compile | 2 | 50.1% | 14.4% | 61% | yes |
| host25b: mol.workers → workersfused | fused-optimizer | 2 | 15.2% | 7.2% | 29% | yes |

Twelve of the sixteen rows hold (seven of host25's eleven, host25b's five); four miss, by two mechanisms. The first
lever is the one measured first on all four steps: ` + "`data-loader`" + ` on mol.default (45.7% against 48.0%), ` + "`cuda-graphs`" + ` on
exit.default (34.5%: each region between two reads graphed, host25b 14.0%, every other lever measured from the step
slower) and on exit.bf16 (64.0% against 64.7%), and ` + "`cuda-graphs`" + ` on mol.workers (59.4%), where the check written before
the read (graphs never first on a step that cannot be captured as it is) fails and is refuted by measurement: padded to
a fixed capacity with the reads gone the graphed step gained 31.9%, the largest change measured from mol.workers
(host25b's fused AdamW 7.2%), and the advice says the step cannot be captured as it is and what capture needs. Named
with their frames, as written: the loader (` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host25.py(136): __getitem__`" + `,
52.4% of mol.default's profiled wall) in the data time and in data-loader's advice, mol's two reads (` + "`host25.py(213): forward`" + `,
` + "`.item() at host25.py(249): check`" + `) and exit's (` + "`.item() at host25.py(328): forward_host`" + `) in the host-sync time and
step-read's advice, exit's read in cuda-graphs' as what bounds each captured block; AdamW's 82 CPU step-count reads
a step named as no sync; on mol.workers data-loader is not advised (in use, the workers' queue 0.21 ms a step); the
four cause splits sum to the wall and no launch-bound time is named by a Python frame. Missed, by mechanism:

- *Graphs priced at the traced shapes, where capture needs padding.* cuda-graphs on mol is priced at the unpadded
  shapes the trace holds (2.1 ms of kernels a step), as its advice says; padded to 64 × 40 + 1 atoms and 64 × 40 × 39
  edges (2.4 times a mean batch's edges) the graphed step's kernels take about 6.6 ms (mol.all is GPU-bound at 6.63
  ms), so from mol.workers the graphs are priced 59.4% against 31.9%, and from mol.default (the loader kept) 52.0%
  against 5.6%, where the graphed step measured about the loading plus the padded kernels (15.94 to 17.79 ms), not
  their overlap the replay has (mol.graphs was not traced). No lever prices the padding's kernel time.
- *A slower fix priced at no loss.* On exit the GPU-side exit and bf16 autocast each made the step slower (−47.5%,
  −36.3%; together −80.8%); profan prices the reads' waits at 1.1% and does not advise bf16-autocast there. The
  replay has the sign and size of what removing the reads saves (the step's kernels take 4.1 ms of its 5.29); the
  added ` + "`torch.where`" + ` and ` + "`|`" + ` a block (24 launches, about 0.2 ms a step) explain a tenth of the loss, and
  exit.noread was not traced, so the rest is not in the fixture. The processes' host speed varied across both calls
  (exit.default 4.97 to 9.07 ms over host25's and host25b's six processes).

### fixtures/host26d: exit's slower fix was the host's speed

` + "`fixtures/host26d`" + ` (H200, 08:08–08:10) traced exit.noread and exit.default and timed both in five alternating
processes each, probing each process: the kernels take 4.096 to 4.105 ms a step in all ten (231 launches a step in
default, 241 in noread), the SM clock 1980 MHz whenever busy with no clock event reason, while the host's issue time
a step ran 4.98 to 7.28 ms in default's processes and 3.97 to 5.30 in noread's (two noread processes GPU-bound, their
host a step's kernels ahead). Measured there, noread is 2.6% faster (4.91 ms against 5.04; spreads 18% and 43%),
and step-read on host26d's exit.default trace (replayed at 5.02 ms a step unprofiled, its process 5.00) is priced
10.2%: the row ` + "`host26d/exit.default → host26d/exit.noread`" + ` holds. host25's −47.5% was the host's speed in its three
noread processes, not the lever: the rows stay as measured, known misses, their notes saying so. bf16noread was not
timed again. The same call traced mol.graphs: its padded kernels take 6.51 ms a step unprofiled (the probe; 2.62 ms
of it index_add_ onto the one padding atom), beneath the loading, 9.42 ms a step in one process (host25's 15.94 to
17.79).

### fixtures/host26's expected rows, written before the read

` + "`fixtures/host26`" + ` (H200, 2026-11-30 08:10–08:15) was captured after the fits began and landed at once, unread; these
rows were written from its unprofiled timings (three processes a variant) before profan read its traces, and
committed before the read (at 09:42, after the fitters' cutoff at 09:37). *First* (measured) is the lever with the
largest positive measured gain of those measured alone from the step; a combination carries none.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| clip.default → clip.workers | data-loader | yes | 71.9% | 16% |
| clip.default → clip.noread | step-read (the norm's finiteness kept on the GPU, read every 50 steps) | no | 1.6% | 22% |
| clip.default → clip.bf16 | bf16-autocast | no | −1.7% | 16% |
| clip.default → clip.graphs | step-read+cuda-graphs (captions padded to 32, no read, the loader kept) | | 23.7% | 23% |
| clip.default → clip.all | data-loader+step-read+cuda-graphs | | 83.5% | 16% |
| clip.workers → clip.all | step-read+cuda-graphs | | 41.3% | 14% |
| spec.default → spec.bf16 | bf16-autocast | no | −1131% | 43% |
| spec.default → spec.static | host-read+step-read (the position on the GPU, the caches written by index, both reads gone) | | 15.5% | 82% |
| spec.default → spec.graphs | host-read+step-read+cuda-graphs | | 54.5% | 43% |
| spec.default → spec.all | bf16-autocast+host-read+step-read+cuda-graphs | | 68.7% | 43% |
| spec.bf16 → spec.all | host-read+step-read+cuda-graphs | | 97.5% | 8.9% |

Expected besides: clip's step is its loader's: 128 JPEGs decoded, cropped, flipped and normalized and 128 captions
tokenized one at a time in the main process (with the workers the step falls 71.9%, to 18.38 ms, and padded,
read-free graphs take it to 10.80). The data loader and its frame (` + "`host26.py(157): __getitem__`" + ` under
` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are named in the timeline's data time and in data-loader's
advice; on clip.workers, whose eight workers outpace the step, data-loader is not first. clip's read of the clipped
norm (` + "`.item() at host26.py(261): step`" + `, between the backward and the optimizer step) is named in the host-sync time and in
step-read's advice on both clip traces, and costs little measurable (no read: 1.6%, within the 22% spread); the
foreach AdamW's 266 reads a step of its CPU step counts wait for no GPU and are named as no sync. CUDA graphs cannot
capture clip as it is (its caption width changes every batch, its norm is read mid-step): never first there, and the
advice says it cannot capture; measured only with the padding and the read gone (41.3% from workers, 23.7% from
default with the loader kept). spec's step is its host's (its graphed step takes 3.20 ms, its eager one 7.03): the
accepted counts' ` + "`.tolist()`" + ` (a shape read: they size the slices launched after it) and the EOS check's ` + "`.item()`" + `, both
at ` + "`host26.py(392): host_step`" + `, are named in the host-sync time and in host-read's and step-read's advice; the change
measured first is the static step that takes both away and fixes the shapes (15.5%, spread 82%), so host-read or
step-read is first on spec.default and on spec.bf16 (where only the static step graphed was measured, 97.5%), and
CUDA graphs, which cannot capture the step as it is (its cache slices change with the position every step), are
never first and say so. bf16 autocast made spec 12.3 times slower (86.62 ms): its attention runs on cuDNN's SDPA
backend, which the trace shows planning each new key length on the host (about 4 ms a call, 20 calls a step); no
lever priced from the FP32 trace can see that, and the row is expected to miss. torch.compile, a fused AdamW and an
SDPA backend choice were not timed. The four traces' cause splits sum to the wall, and no launch-bound time is named
by a Python frame.

### fixtures/host26's first read

Read once with main at 05712a6 (09:42, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace and this test, the
rows above kept as written; host26b's three rows (the levers profan ranked first or second that host26 did not time,
timed by the lead before the read, its prices written down before its call) added at the read. The replayed
unprofiled steps: clip.default 65.78 ms (measured 65.42; its traced process 72.69), clip.workers 22.11 ms (18.38;
19.84), spec.default 7.55 ms (7.03; 9.79), spec.bf16 53.44 ms (86.62; 93.98).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| clip.default → clip.workers | data-loader | 1 | 75.1% | 71.9% | 16% | yes, first |
| clip.default → clip.noread | step-read | 4 | 1.5% | 1.6% | 22% | yes |
| clip.default → clip.bf16 | bf16-autocast | 9 (slower) | −4.2% | −1.7% | 16% | yes |
| clip.default → clip.graphs | step-read+cuda-graphs | | 24.7% | 23.7% | 23% | yes |
| clip.default → clip.all | data-loader+step-read+cuda-graphs | | 81.3% | 83.5% | 16% | yes |
| clip.workers → clip.all | step-read+cuda-graphs | | 53.9% | 41.3% | 14% | yes |
| spec.default → spec.bf16 | bf16-autocast | not advised | none | −1131% | 43% | no: over by 1131 points |
| spec.default → spec.static | host-read+step-read | | 0.0% | 15.5% | 82% | yes |
| spec.default → spec.graphs | host-read+step-read+cuda-graphs | | 0.0% | 54.5% | 43% | no: under by 54 points |
| spec.default → spec.all | bf16-autocast+host-read+step-read+cuda-graphs | | 0.0% | 68.7% | 43% | no: under by 69 points |
| spec.bf16 → spec.all | host-read+step-read+cuda-graphs | | 0.0% | 97.5% | 8.9% | no: under by 98 points |
| host26b: spec.default → compile | torch-compile | 1 | 34.7% | 62.7% | 33% | yes, first |
| host26b: spec.bf16 → bf16compile | torch-compile | 1 | 10.2% | 9.9% | 18% | yes, first |
| host26b: clip.workers → workersfused | fused-optimizer | 2 | 11.3% | 16.0% | 17% | yes |

Ten of the fourteen rows hold (seven of host26's eleven, host26b's three); four miss, all on spec, by two mechanisms.
The first lever is the one measured first on all four steps: ` + "`data-loader`" + ` on clip.default (75.1% against 71.9%),
` + "`cuda-graphs`" + ` on clip.workers (53.5%: the regions between the norm's read graphed; the read-free graphed step measured
41.3%, the largest change from the step, host26b's fused AdamW 16.0%), ` + "`torch-compile`" + ` on spec.default (34.7%, host26b
62.7%, above the static step's 15.5%) and on spec.bf16 (10.2% against 9.9%, the only single lever measured there).
Three checks written before the read fail and are refuted by measurement: graphs never first on clip.workers (every
batch's captions reach the 32-token cap, so the shape the check took to change every batch is fixed in all four
profiled steps, [128, 32], and the read is the only bar to capture), and host-read or step-read first on both spec
steps (host26b's compile measured above the static step). Named with their frames, as written: the loader
(` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host26.py(157): __getitem__`" + `, 67.9% of clip.default's
profiled wall) in the data time and in data-loader's advice, clip's read (` + "`.item() at host26.py(261): step`" + `) in the
host-sync time and step-read's advice on both clip steps, spec's two reads (` + "`.tolist() at host26.py(392): host_step`" + `
in host-read's advice, ` + "`.item()`" + ` at the same frame in step-read's) in the host-sync time; AdamW's 266 CPU step-count
reads a step named as no sync; on clip.workers data-loader is not advised (0.6% of the wall in the workers' queue);
cuda-graphs on spec says it cannot capture the step as it is and names the ` + "`.tolist()`" + `; the four cause splits sum to
the wall and no launch-bound time is named by a Python frame. Missed, by mechanism:

- *Graphs after host-read not priced.* On spec, cuda-graphs is advised (third) but not priced, since the step reads
  the sizes of its cache slices (` + "`.tolist()`" + `), and its advice says it composes after host-read; the combination
  host-read+step-read+cuda-graphs then replays host-read and step-read alone (the reads' waits, under 0.1%), so the
  step host-read makes capturable is priced without its graphs: 0.0% against 54.5% (spec.graphs), 68.7% (spec.all)
  and 97.5% (spec.bf16 → all). The graphed step measured 3.20 ms, where the trace's kernels take 2.05 ms a step and
  its host (launch-bound 63.9%, other Python 21.2% of the profiled wall, 1586 launches in four steps) is what goes.
- *A host op's own work read as launch-bound, and a precision change's host cost unseen.* bf16 autocast made spec
  12.3 times slower (86.62 ms against 7.03): its attention moved to cuDNN's SDPA backend
  (` + "`aten::_cudnn_attention_forward`" + `), which builds a plan on the host for each new query and key length (38 to 42 ms a
  build, two new shapes a step as the caches grow: 312 ms of spec.bf16's 402 ms of profiled wall in 8 of its 80 calls,
  the other 72 at 0.05 ms, with 1.3 ms of CUDA runtime calls inside them all). The timeline calls that time
  launch-bound (92.5%, under ` + "`aten::scaled_dot_product_attention`" + `), no lever ties it to the changing shapes (the static
  step removes it: 97.5%), and the replayed unprofiled step keeps 53.44 ms of the 86.62 measured. From the FP32 trace
  no lever can see the backend change: bf16-autocast is not advised on an inference step (bf16-weights is, 1.0%
  slower) and the row prices none against −1131%.

After the fix (hostfix26, after the read): the cause split names host time inside one aten op's own span, outside
any runtime call, in a piece of 5 ms or more (no launch costs the host that), as that op's host work, not
launch-bound: spec.bf16's launch-bound 92.5% is now launch-bound 15.9% and op host work 76.6%
(` + "`aten::scaled_dot_product_attention at host26.py(113): attend`" + `, 8 calls: the cuDNN plan builds); host15's
audio.all moves 0.5% (one 6.4 ms ` + "`aten::batch_norm`" + `, cuDNN's, with 64 us of runtime calls inside) the same way.
No row's price moves (the replay reads the spans, not the split), and the first-read records above stay as read.

After the fix (hostop27, after the read): ` + "`shape-plans`" + ` prices that op host work. Where one aten op's long calls (a piece
of its own span of 5 ms or more) recur in no more than half its calls, each at a size of its work (record_shapes) its
calls before it had not shown, it advises a fixed set of shapes (the keys padded or bucketed, the padding masked) or,
for attention, ` + "`torch.nn.attention.sdpa_kernel`" + ` with FLASH_ATTENTION or EFFICIENT_ATTENTION, naming the op and its frame,
and prices it by replay: each long call at what the op's median call costs the host, the rest of the step as traced.
On spec.bf16 it is first at 87.1% (the step replayed at 11.27 ms against 87.65), where ` + "`fixtures/host26e`" + ` (captured
after the read, hostop27's one device call) measured 91.1% with the memory-efficient backend and 91.6% with the keys
padded to a multiple of 64 (spread 49%; both rows hold); host26b's torch-compile row is no longer first (measured
9.9%). On spec.default, bf16-weights' advice now says that in 16 bits the step's SDPA, whose shapes change between
calls (28 sizes of its work in 80 calls), may run on cuDNN's attention and build a plan per shape (not priced: an FP32
trace cannot show which backend bf16 picks); bf16-autocast is still not advised on this inference step, so the row
default → bf16 stays a miss. The row bf16 → all still prices none: its combination, written before the read, holds
host-read, step-read and cuda-graphs, not shape-plans, and the graphs after host-read are not priced. A piece of one
op's own span of 5 ms or more now keeps its traced time in the replay (its records' costs taken off, not the
profiler's share: native code no hook slows, as an allocator call): the replayed unprofiled spec.bf16 step is 87.65 ms
(53.44 at the read) against 86.62 measured (127.61 in host26e's processes), shape-plans 79.2% → 87.1%, and host26b's
torch-compile row 10.2% → 6.2% (measured 9.9%); no other row moves.

After the fix (hostgraphs27, after the read): a graph on a step that a sync keeps from capture carries the sites
that block it (` + "`Lever.Blocked`" + `). Alone it replays the step as traced, so cuda-graphs stays unpriced and never
first there (third on both spec steps, 0.0%, its advice saying the step cannot be captured as it is); merged with
the lever that drops those sites (host-read's ` + "`.tolist()`" + `, here beside step-read's ` + "`.item()`" + `) the graph is
replayed on the step that lever leaves, each kernel at the largest size the traced steps show for it (the reads
sized the cache slices; a capture needs fixed shapes). spec.default → spec.graphs 0.0% → 72.8% (measured 54.5%,
spread 43%), → spec.all 0.0% → 72.8% (68.7%; bf16-autocast not advised on an inference step), spec.bf16 → spec.all
0.0% → 97.9% (97.5%, spread 8.9%): the graphed step replays bound by its kernels, 2.05 ms a step from spec.default
(measured 3.20: the static step's whole-cache attention reads more than the largest traced slice) and 1.84 ms from
spec.bf16 (measured 2.17), the host's dispatch gone with the cuDNN plan builds inside the SDPA op (op host work,
76.6% of spec.bf16's profiled wall), which a captured graph makes once. The three rows hold and their miss notes
are gone. host18's det.default → det.graphs (host-read+cuda-graphs), priced by host-read alone before, moves 67.2% →
92.0% (measured 88.4%, spread 35%) and → det.all 67.2% → 92.0% (89.9%); no other row moves. cuda-graphs' advice
on spec says the figure (composes after host-read: 71.9% of the wall on spec.default's step without the read, 97.8%
on spec.bf16's). spec.bf16's first stays shape-plans (87.1%; the static step graphed is a combination no single
lever carries); the advice's together figure on spec.default is 75.2% (34.7% before). What remains on spec: the row
spec.default → spec.bf16 (−1131%), cuDNN's plan builds under bf16, which no lever priced from the FP32 trace sees.

After the fix (hostfix28b, the plan cache): a library's plan builds are priced on the steady step, the growing
builds at the window's rate and the others once a shape over the run (docs/replay.md). spec.bf16's caches grow every
step, so its 8 builds (2 a step, 11 distinct shapes) all recur: the replayed step is 88.65 ms (87.65 as the median
building step) against 86.62 measured, shape-plans 87.1% → 87.3% (both host26e rows hold), spec.bf16 → spec.all
97.9% (holds), host26b's torch-compile 6.2% → 6.1%.

### fixtures/host27's expected rows, written before the read

` + "`fixtures/host27`" + ` (H200, 2026-11-30 11:22–11:27) was captured after the fits began and landed at once, unread (181be67);
these rows were written from its unprofiled timings before profan read its traces, and committed before the read (at
12:49, after the fitters' cutoff at 12:44). The call's budget ran out before round r3: each default has one process
(its traced one), every other variant two, so a default's own spread is unknown (the rows' spread is the other
variant's). *First* (measured) is the lever with the largest positive measured gain of those measured alone from the
step; a combination carries none.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| ts.default → ts.workers | data-loader | yes | 73.8% | 5.8% |
| ts.default → ts.noread | step-read (the loss summed on the GPU, read every 50 steps) | no | 10.7% | 44% |
| ts.default → ts.bf16 | bf16-autocast | no | 14.1% | 30% |
| ts.default → ts.graphs | step-read+cuda-graphs (no read, the loader kept) | | 43.2% | 2.1% |
| ts.default → ts.all | data-loader+step-read+cuda-graphs | | 75.7% | 0.0% |
| ts.workers → ts.all | step-read+cuda-graphs | | 7.2% | 5.8% |
| prune.default → prune.fixedk | host-read (a fixed keep ratio: topk of a constant k) | yes | 9.2% | 20% |
| prune.default → prune.bf16 | bf16-autocast | no | −194.5% | 27% |
| prune.default → prune.graphs | host-read+cuda-graphs | | 59.7% | 0.1% |
| prune.default → prune.all | bf16-autocast+host-read+cuda-graphs | | 72.3% | 0.0% |
| prune.bf16 → prune.all | host-read+cuda-graphs | | 90.6% | 27% |

Expected besides: ts's step is its loader's: 64 windows of 32 channels cut, gap-filled with ` + "`np.interp`" + ` channel by
channel, normalized and differenced in the main process (with the workers the step falls 73.8%, to 22.85 ms; graphed
with the loader kept it is still 49.56 ms, the loader's own time). The data loader and its frame
(` + "`host27.py(148): __getitem__`" + ` under ` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are named in the
timeline's data time and in data-loader's advice; on ts.workers, whose eight workers outpace the step (a batch takes
the main process about 45 ms, the step 22.85), data-loader is not first. ts's plateau check
(` + "`.item() at host27.py(229): step`" + `, after the optimizer step) is named in the host-sync time and in step-read's advice
on both ts traces; the foreach AdamW's reads of its CPU step counts wait for no GPU and are named as no sync. ts's
shapes are fixed (64 full windows a batch), so the step between its reads is capturable: CUDA graphs may rank high
on ts.workers (the read-free graphs are the only change measured from it), not above the workers on ts.default.
prune's three kept-token counts (` + "`int(...)`" + ` at ` + "`host27.py(285): prune`" + `, each sizing the ` + "`topk`" + ` and the gather after
it: shape reads) are named in the host-sync time and in host-read's advice on both prune traces; host-read is first
on prune.default (the only single lever that gains, 9.2%, within its 20% spread: the FP32 step is host-bound with or
without the reads, its graphed form 9.19 ms) and on prune.bf16 (the fixed k, graphed in bf16, 90.6%: the change
measured); CUDA graphs cannot capture either as it is (three reads inside the forward, shapes that follow them):
never first there, and the advice says it cannot capture. bf16 autocast made prune 2.9 times slower (67.13 ms
against 22.80): its attention runs on cuDNN's SDPA backend, which plans each new token count on the host (the count
changes with the data at every pruning); the FP32 trace cannot show that, and the row is expected to miss. On
prune.bf16 that plan time is the attention op's own host work, not launch-bound. torch.compile, a fused AdamW and an
SDPA backend choice were not timed. The four traces' cause splits sum to the wall, and no launch-bound time is named
by a Python frame.

### fixtures/host27's first read

Read once with main at 01da51c (12:49, after the fitters' cutoff), ` + "`profan analyze`" + ` on each trace and this test, the
rows above kept as written; host27b's four rows (the levers profan ranked first or second that host27 did not time,
timed by the lead before the read, its prices written down before its call) added at the read. The replayed
unprofiled steps: ts.default 106.00 ms (measured 87.27, its one process, the traced one), ts.workers 22.18 ms (22.85;
23.51), prune.default 23.02 ms (22.80, its one process), prune.bf16 149.36 ms (67.13; 76.31).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| ts.default → ts.workers | data-loader | 1 | 77.8% | 73.8% | 5.8% | yes, first |
| ts.default → ts.noread | step-read | 2 | 10.9% | 10.7% | 44% | yes |
| ts.default → ts.bf16 | bf16-autocast | 3 | 5.1% | 14.1% | 30% | yes |
| ts.default → ts.graphs | step-read+cuda-graphs | | 20.4% | 43.2% | 2.1% | no: under by 23 points |
| ts.default → ts.all | data-loader+step-read+cuda-graphs | | 79.1% | 75.7% | 0.0% | yes |
| ts.workers → ts.all | step-read+cuda-graphs | | 4.9% | 7.2% | 5.8% | yes |
| prune.default → prune.fixedk | host-read | not advised | none | 9.2% | 20% | no: not advised, measured first |
| prune.default → prune.bf16 | bf16-autocast | 7 (slower) | −26.6% | −194.5% | 27% | no: over by 168 points |
| prune.default → prune.graphs | host-read+cuda-graphs | | 45.7% (host-read: none) | 59.7% | 0.1% | no: under by 14 points |
| prune.default → prune.all | bf16-autocast+host-read+cuda-graphs | | 67.0% (host-read: none) | 72.3% | 0.0% | yes |
| prune.bf16 → prune.all | host-read+cuda-graphs | | 94.9% (host-read: none) | 90.6% | 27% | yes |
| host27b: ts.workers → workerscompile | torch-compile | 1 | 23.2% | 21.4% | 3.1% | in value; first where bf16 measured 22.4% |
| host27b: ts.workers → workersbf16 | bf16-autocast | 2 | 17.3% | 22.4% | 16% | in value; second, measured first by 1.0 point |
| host27b: prune.default → fused | fused-optimizer | 2 | 13.5% | 4.0% | 23% | yes |
| host27b: prune.bf16 → bf16compile | torch-compile | 3 | 3.8% | −54.7% | 13% | no: over by 58 points |

Eight of the fifteen rows hold (seven of host27's eleven, one of host27b's four, two more of host27b's in value but not
in rank). The first lever is the one measured first on one of the four steps as the checks were written: ` + "`data-loader`" + `
on ts.default (77.8% against 73.8%). On ts.workers ` + "`torch-compile`" + ` is first (23.2%, host27b 21.4%) and bf16 second
(17.3%, host27b 22.4%): a tie by measurement within a point, and the check written before host27b (step-read or
cuda-graphs, the only change host27 measured) is refuted. On both prune steps ` + "`cuda-graphs`" + ` is first (45.7% and 94.9%,
the regions between the three reads graphed, its advice saying the step cannot be captured whole and, on bf16, naming
the padding it needs), where the checks held host-read first: host-read is not advised at all. Named with their
frames, as written: the loader (` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host27.py(148): __getitem__`" + `,
80.6% of ts.default's profiled wall) in the data time and in data-loader's advice; ts's plateau read
(` + "`.item() at host27.py(229): step`" + `) in the host-sync time and in step-read's advice on both ts steps; prune's three
reads (` + "`aten::item → cudaStreamSynchronize at host27.py(285): prune`" + `) in the host-sync time (and in step-read's and
cuda-graphs' advice, not host-read's); prune.bf16's forward plans as op host work
(` + "`aten::scaled_dot_product_attention at host27.py(107): forward`" + `, 30.0% of its profiled wall); AdamW's CPU step-count
reads named as no sync; on ts.workers data-loader is not advised (its queue waits 0.28 ms a step); the four cause
splits sum to the wall and no launch-bound time is named by a Python frame. Missed, by mechanism:

- *A scalar read that sizes the next ops is not a shape read.* prune's counts are ` + "`int(...)`" + ` of a GPU sum, used as
  ` + "`torch.topk`" + `'s k: host-read's sites (` + "`.tolist()`" + `, nonzero, unique, mask indexing) do not include it, so the reads are
  taken for value reads inside a loop (step-read, under 0.1%: their waits are short on a host-bound step) on both
  traces, even on prune.bf16, whose shapes after them change (34 of 83 kernels on other grids, which cuda-graphs'
  advice counts). host-read is then priced none against 9.2% (measured first on prune.default), and the combinations
  with it replay cuda-graphs alone as region graphs with the reads kept: prune.default → graphs 45.7% against 59.7%
  (the measured step has no read, one graph, and fewer tokens: 101, 71 and 50 where the traced default kept about
  144 at 11 of its 12 prunings). prune.bf16 → all holds (94.9% against 90.6%): there the region graphs, priced at the
  largest traced shapes, take the host that the cuDNN plans and the dispatch hold.
- *A precision change's host cost unseen, and the backward's plans read as launch-bound.* bf16 autocast made prune
  2.9 times slower (67.13 ms against 22.80): its attention moved to cuDNN's SDPA, which builds a plan for each new
  token count in the forward (70.7 to 84.2 ms, the main thread) and in the backward (86.5 to 90.1 ms, autograd's
  thread), 3 of 32 calls each in four profiled steps. From the FP32 trace (memory-efficient attention, 64 calls,
  14.6 ms) bf16-autocast is priced −26.6% (slower, the direction right) against −194.5%. On prune.bf16's own trace
  the forward's plans are op host work and shape-plans prices them (46.6%, second), but the backward's, inside
  ` + "`autograd::engine::evaluate_function: ScaledDotProductCudnnAttentionBackward0`" + ` on autograd's thread, are launch-bound
  (57.3% of the wall), and the replayed step keeps 149.36 ms against 76.31 in its own process.
- *A loader's host time over-kept.* ts.default → graphs (no read, graphed, the loader kept) is priced 20.4% against
  43.2%: the replay keeps the main-process loader at 85.32 ms a step (its profiled 108.8 ms scaled), where the graphed
  step with the same loader measured 49.56 ms in all; the replayed default is 106.00 ms against 87.27 in the same
  process. The default's one process is its traced r1 one, and every eager r1 process ran slower than its r2 (noread
  94.96 against 60.92, bf16 86.40 against 63.57): part of the measured 43.2% may be that process's slow host.
- *Compile's cost on changing shapes unpriced.* host27b's compiled prune.bf16 ran 84.85 ms against 54.84 (−54.7%):
  Dynamo breaks at the first read and the shapes after it change every step; the replay prices the fused chains
  before the break (3.8%) and nothing of what the changing shapes cost the compiled step.

After the fix (hostfix27b, after the read): a long piece of an autograd node's own span on autograd's thread is op host
work as an aten op's is, and ` + "`shape-plans`" + ` prices the forward's plans and its backward's together. prune.bf16's
split: launch-bound 57.3% → 24.5%, op host work 30.0% → 62.9%
(` + "`autograd::engine::evaluate_function: ScaledDotProductCudnnAttentionBackward0`" + `, 253.27 ms); shape-plans 46.6% →
82.6% (second, behind cuda-graphs' 95.9%), the backward's 3 long calls of 32 priced at its median call. The backward's
plans now keep their traced time, so the replayed step is 186.51 ms (149.36 before) against 76.31 measured: prune.bf16
→ all 94.9% → 95.9% (holds), host27b's bf16compile 3.8% → 3.1% (still over).

After the fix (hostfix28b, the plan cache): the replay took every traced build as recurring every step (3 of the 4
steps build, so the median step was one that builds), where outside the profiler cuDNN keeps a plan a shape. Read by
its shape against the calls of its kind before it, one build a pass grows the range (step 0's 103 tokens, under the
144 and 145 before it: recurring at the window's rate, one in four steps), two fill it (109 and 136 tokens, inside the
range: a bounded set of about 64 sizes, each built once over the run); shape-plans' advice says so (6 distinct shapes
and 3 builds in the forward, the same in the backward). The steady step is 74.78 ms (186.51 before) against 76.31 in
its own process and 57.95 in the other; shape-plans 82.6% → 56.7%, cuda-graphs 95.9% → 89.8% (still first: the check
above stays a miss), prune.bf16 → all 95.9% → 89.8% against 90.6% (holds, −0.8 points), host27b's bf16compile 3.1% →
7.6% against −54.7% (still over: compile's fixed saving is a larger share of the smaller step).

After the fix (hostfix28a, after the read): a scalar read (` + "`int()`" + `, ` + "`.item()`" + `: ` + "`aten::item`" + `) between the step's
launches is a shape read where the trace shows its value sizing the work after it: at the same read a step later, the
kernels right after it run on other grids (or as another instance of their template: topk's sort picks its items per
thread by k) while the kernels right before it ran on the same grids. prune's counts do so (prune.default once, at its
second read from the first profiled step to the second: topk on 107 tokens, then 144; prune.bf16 four times), so
host-read names them with their frame on both traces and prices them at their waits (under 0.1%: the host bounds the
step), its fix a fixed k or keep ratio, not a per-item batching (the frame is entered between the model's layers, not
back to back); cuda-graphs is not priced on either step (it cannot capture them as they are) and says what the step
without the reads, graphed at the largest traced shapes, replays at (45.7% and 89.8%: the combinations' rows, as
before, now with host-read advised). mol's ` + "`int(batch.max()) + 1`" + ` (fixtures/host25) stays a value read: its readout's
fill runs on one grid every step, and the atoms that change the index_add_ after it change the kernels before it too,
so nothing it sizes is seen to change with it; mol's rows and checks do not move. Moved: prune.default → fixedk none →
0.0% (third; still a miss, now in rank only: fused-optimizer first at 13.5%); prune.default → graphs, → all and
prune.bf16 → all unchanged in value (45.7%, 67.0%, 89.8%; host27c's prune.default → graphs 45.7% too), host-read no
longer unadvised in them; host27c's prune.default → fixedk none → 0.0% (holds, as before); host27b's prune.default →
fused now a miss in rank (first: cuda-graphs' 45.7% no longer above it; the fused AdamW measured 4.0%, spread 23%, and
the fixed k 9.2% in host27's processes, −4.9% in host27c's); the checks that host-read names prune's reads on both
traces and that cuda-graphs is not first on either now hold; prune.bf16's first is shape-plans (56.7%; cuda-graphs' 89.8% before), not host-read
(a miss, as before).

After the fix (hostfix28c's, landed by hostfix28d after the read): ` + "`fixtures/host27c`" + ` timed the two defaults and their
levers again, two processes each (host27 had one for each default): ts.default 95.54 ms (88.09 to 102.98), ts.graphs
74.43 (68.37 to 80.50), so default → graphs measured 22.1% (spread 16%), which the unchanged 20.4% holds (host27c's
row); the graphed step, whose host is the main-process loader, ran 68.37 and 80.50 ms there against host27's 49.04 and
50.08, and the replay's own delta from default to graphed (106.00 → 84.4 ms) is host27c's (95.54 → 74.43): the
loader's host differs by half from one device call to the next, and the loader's keep was left as fitted (host27's row
stays a miss as written). prune's defaults repeat host27's (graphs 57.4%, priced 45.7%: a known miss as host27's; the
fixed k −4.9%, within its spread). ` + "`torch-compile`" + ` now says where a scalar read inside the forward (a value read, or a
shape read whose value sizes the work after it, as hostfix28a reads prune's counts) precedes shapes that change from
step to step (prune.bf16's ` + "`aten::item → cudaStreamSynchronize at host27.py(285): prune`" + `, 34 of 83 kernels on other
grids) and is not priced there: host27b's bf16compile 7.6%, second → unpriced (0.0%), fifth, below every priced lever
(still over, by 55 points: the compiled step's recompiles are not in the eager trace, and no guess of them is priced).
host25's mol, whose ` + "`int(batch.max()) + 1`" + ` is a value read in its forward on a step whose atoms change the grids,
loses compile's price too (mol.default 3.6%, fourth, and mol.workers 5.8%, third → unpriced; no compile timed on mol);
no other trace's torch-compile moves, and no other row or check.
### fixtures/host28's expected rows, written before the read

` + "`fixtures/host28`" + ` (H200, 2026-11-30 14:24–14:29) was captured after the fits began and landed at once, unread (6bf1df4);
these rows were written from its unprofiled timings before profan read its traces, and committed before the read (at
15:56, after the fitters' cutoff at 15:51). The call's budget ran out in round r3: the two defaults and spk.workers
have three processes, every other variant two; spk.all (workers + graphs) failed to capture with the workers running
and has no timing, so nothing was measured from spk.workers. *First* (measured) is the lever with the largest positive
measured gain of those measured alone from the step; a combination carries none, and on both defaults no single
lever gains.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| spk.default → spk.workers | data-loader | no | −196.3% | 19% |
| spk.default → spk.bf16 | bf16-autocast | no | −20.1% | 19% |
| spk.default → spk.graphs | cuda-graphs (padded to 248 frames) | no | −2.8% | 19% |
| vq.default → vq.gpurestart | host-read (the restart on the GPU) | no | −21.1% | 20% |
| vq.default → vq.bf16 | bf16-autocast | no | −51.4% | 11% |
| vq.default → vq.graphs | host-read+cuda-graphs | | 48.7% | 11% |
| vq.default → vq.all | bf16-autocast+host-read+cuda-graphs | | 56.8% | 11% |
| vq.bf16 → vq.all | host-read+cuda-graphs | | 71.5% | 8.9% |

Expected besides: spk's step is its main-process loader's (the GPU works about 2 ms of 82.89): 32 waveforms a batch
synthesized, framed, transformed (` + "`rfft`" + `), projected on 80 mel bands, normalized and masked in NumPy. The loader and
its frame (` + "`host28.py(141): __getitem__`" + ` under ` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are named
in the timeline's data time and in data-loader's advice; on spk.workers the main thread's wait on the workers
(` + "`_MultiProcessingDataLoaderIter.__next__`" + `, about 250 ms a step) is data time, not launch-bound. The workers, the
textbook fix, made the step three times slower here (245.65 ms: each workers process's first chunk ran at the
default's pace while the prefetched batches lasted, then 243 to 400 ms a step): their throughput is not in the
default's trace, so data-loader's row is expected to miss in value and rank. spk's shapes follow the batch's longest
utterance: CUDA graphs need the padding first (measured padded and graphed: −2.8%, the loader kept), so where advised
the advice says so. vq's restart reads ` + "`expired.any()`" + ` (` + "`aten::is_nonzero`" + `) and the expired codes' indices
(` + "`aten::nonzero`" + `, which sizes the picks and the writes after it: a shape read) and writes a scalar from the host
(` + "`cluster_size[idx] = V_THRESH`" + `: a pageable copy): three syncs a step under ` + "`host28.py(314): update`" + `, each a wait of
5 to 27 us on a host-bound step, named in the host-sync time and the nonzero in host-read's advice; CUDA graphs cannot
capture vq.default or vq.bf16 as they are: never first there, and where advised the advice says it cannot capture.
The read-free restart alone is slower (−21.1%: the reads cost the host-bound step microseconds, the restart on the
GPU kernels for all 1024 codes), bf16 autocast slower still (−51.4%: its casts add launches to a host-bound step); the
read-free graphs are the change measured first from both vq steps (48.7% and 71.5%, combinations). Adam's and
AdamW's reads of their CPU step counts wait for no GPU and are named as no sync. torch.compile, fused optimizers, a
worker count or thread limit for spk's workers and length buckets were not timed. The four traces' cause splits sum to
the wall, and no launch-bound time is named by a Python frame.

### fixtures/host28's first read

Read once with main at 88f83d9 (15:56, after the fitters' cutoff), this test and ` + "`profan analyze`" + ` on each trace, the
rows above kept as written (miss notes added); host28b's four rows (the levers profan ranked first or second that
host28 did not time, timed by the lead before the read, its prices written down before its call) added at the read.
The replayed unprofiled steps: spk.default 92.67 ms (measured 82.89; 82.89 in its traced process), spk.workers
101.79 ms (245.65; 243.16), vq.default 5.02 ms (4.52; 4.94), vq.bf16 6.96 ms (6.84; 6.54).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| spk.default → spk.workers | data-loader | 1 | 79.4% | −196.3% | 19% | no: over by 276 points, first |
| spk.default → spk.bf16 | bf16-autocast | 8 (slower) | −3.4% | −20.1% | 19% | yes |
| spk.default → spk.graphs | cuda-graphs | 2 | 15.8% | −2.8% | 19% | yes, by 0.7 points |
| vq.default → vq.gpurestart | host-read | 4 | 0.0% | −21.1% | 20% | no: over by 21 points |
| vq.default → vq.bf16 | bf16-autocast | 10 (slower) | −18.1% | −51.4% | 11% | no: over by 33 points |
| vq.default → vq.graphs | host-read+cuda-graphs | | 57.3% | 48.7% | 11% | yes |
| vq.default → vq.all | bf16-autocast+host-read+cuda-graphs | | 66.3% | 56.8% | 11% | yes |
| vq.bf16 → vq.all | host-read+cuda-graphs | | 74.9% | 71.5% | 8.9% | yes |
| host28b: spk.default → workers4t1 | data-loader | 1 | 79.4% | 84.3% | 15% | yes, first |
| host28b: vq.default → compile | torch-compile | 1 | 13.4% | −47.1% | 32% | no: over by 60 points, first |
| host28b: vq.default → fused | fused-optimizer | 2 | 11.1% | 17.1% | 32% | in value; second, measured first |
| host28b: vq.bf16 → bf16fused | fused-optimizer | 2 | 7.6% | −3.3% | 16% | yes |

Seven of the twelve rows hold (five of host28's eight, two of host28b's four; one more of host28b's in value but not in
rank). The first lever is the one measured first on one of the three steps levers were measured from: ` + "`data-loader`" + `
on spk.default (79.4%; its advice as written, four workers each held to one BLAS/OpenMP thread, measured 84.3% by
host28b, where host28's own eight workers with unlimited thread pools ran three times slower). On vq.default
` + "`torch-compile`" + ` is first (13.4%) and measured −47.1% (one process), the fused Adam second (11.1%, measured 17.1%: the
only single lever that gains, within the spread); on vq.bf16 torch-compile is first (25.9%), unmeasured (both compiled
processes failed), where the check held host-read first (the read-free graphs measured 71.5%). Nothing was measured from
spk.workers (spk.all failed to capture): there cuda-graphs is first at 82.0%. Named with their frames, as written: the
loader (` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host28.py(141): __getitem__`" + `, with the collate
` + "`host28.py(173): __call__`" + `: 68.6% of spk.default's profiled wall) in the data time and in data-loader's advice; the main
thread's wait on the workers (` + "`_MultiProcessingDataLoaderIter.__next__ → queue.py(154): get`" + `, 59.8% of spk.workers's) as data
time; vq's three syncs a step under ` + "`host28.py(314): update`" + ` (the scalar write's ` + "`index_put_`" + `, ` + "`is_nonzero`" + `, ` + "`nonzero`" + `) in
the host-sync time, and ` + "`.nonzero() at host28.py(314): update`" + ` in host-read's advice on both vq traces; cuda-graphs not
priced on vq ("cannot be captured as it is"), composing after host-read; Adam's and AdamW's CPU step-count reads named
as no sync; the four cause splits sum to the wall and no launch-bound time is named by a Python frame. Missed, by
mechanism:

- *The workers' throughput is not in the default's trace.* data-loader prices the loading over four workers held to one
  thread each (79.4%; host28b 84.3%, its row holds); host28's variant ran eight workers whose NumPy front end's thread
  pools were left unlimited and measured −196.3%: each process's first chunk ran at the default's pace while the
  prefetched batches lasted, then 243 to 400 ms a step. The advice names the thread limit; the row's variant did not
  follow it.
- *Shapes that follow each batch are not seen by cuda-graphs.* spk pads each batch to its longest utterance (the
  convolutions' inputs [32, 1, 234, 80], [32, 1, 247, 80] and [32, 1, 248, 80] in the four profiled steps), yet
  cuda-graphs is priced as capturable (15.8% on spk.default, 82.0% and first on spk.workers) and names no padding. Its
  row on spk.default holds (the padded, graphed step measured −2.8%, the loader kept).
- *A wait on the workers' queue dropped from the replay.* spk.workers replays at 101.79 ms a step against 243.16 in its
  own process: the main thread's 978.88 ms in ` + "`queue.py(154): get`" + ` over the four profiled steps is mostly not kept, so the
  step looks bound by its host's launches and Python, and graphs are priced at 82.0% of it.
- *What a change adds on a host-bound step.* vq's host is the step's bound (launch-bound 48.4%, other Python 27.5%):
  the read-free restart adds a randint, a gather and three where/masked_fill over all 1024 codes every step, and
  host-read prices only the reads' waits (0.0% against −21.1%, 0.7 points beyond the spread); bf16 autocast adds 64
  launches a step and every autocast op's dispatch, priced −18.1% against −51.4% (the bf16 trace replays at 6.96 ms,
  measured 6.84: the pricing from the FP32 trace is short, its own trace right). Read again by mechanism after the
  read (hostfix29b, below): neither is a cost the FP32 trace hides.
- *Compile's cost at graph breaks unpriced.* the restart's reads break Dynamo's graph inside vq's forward and the writes
  after them follow the data: compiled, vq.default ran 11.05 ms against 7.51 (−47.1%, one process; two of three
  failed in AOTAutograd), priced 13.4% and first; on vq.bf16 priced 25.9% and first, unmeasured.

After the fix (hostfix28d, after the read): torch-compile's unpriced case (a scalar read inside the forward, the
shapes after it changing from step to step; host27b's prune.bf16) does not reach vq, and vq.default → compile stays
13.4% and first, a miss as above. The mechanism is the same in Dynamo (a host read inside the compiled forward breaks
the graph, and ` + "`nonzero()`" + `'s count, which sizes the picks and writes after it, follows the data), but the
trace's reads sit in ` + "`host28.py(314): update`" + `, a method ` + "`Codebook.forward`" + ` calls (not a
forward's frame, and once a call, not looped), nor is either a count read with int() or .item() (` + "`is_nonzero`" + `
a value read that sizes nothing, ` + "`nonzero`" + ` a shape read of indices); what the compiled step's breaks and recompiles cost (−47.1% in the one process that ran, two
failing in AOTAutograd) is not in the eager trace, and no guess of it is priced.

After the fix (hostfix29a, the first read kept above): a sync site now carries the innermost call of the user's forward
methods that holds it (the frames the reader keeps whole), so a read in a method a forward calls is inside the forward:
vq's three reads sit in ` + "`host28.py(314): update`" + ` inside ` + "`host28.py(300): forward`" + ` (Codebook.forward).
torch-compile's unpriced case takes, first, a read whose count sizes the work right after it (Site.Sizes: ` + "`nonzero()`" + `,
whose indices size the random picks and the indexed writes: the gather after it on 11, 11, 9 and 8 blocks in the four
profiled steps), and names the
read's frame and the forward it runs in: vq.default → compile 13.4% and first → not priced (0.0% against −47.1%, over by 47
points, no longer first: the fused Adam is, 11.1% against 17.1%, its row now holding); vq.bf16 25.9% and first → not
priced, fused-optimizer first there (7.6% against −3.3%, a miss noted on its row). Elsewhere the same mechanism moves
torch-compile on traces no compile was timed from but one: host15's voxel.default 0.9% → not priced (its nonzero()
sizes the work after it; compiled it measured −0.1%, host15b), host12's cls.default 2.3% → not priced (a boolean
index in the forward), host8's moe.default −3.6% → not priced (the routing counts' .tolist()), host22's rec.default and
rec.workers (−0.0% and −0.1%, a unique() in the forward) → not priced, and host27's prune.default 1.7% → 1.0% (its
int() read now inside the forward, whose Python stays; still priced).

After the second fix (hostfix29a): the steps' shapes are compared by what each launch's op moves (the ops' recorded
input shapes) as well as by the grids, taken where that finds more steps changed than the grids alone. spk's
collate pads each batch to its longest utterance; the grids round most of that away (the first convolution's on
(1, 585, 1) in one step, (1, 620, 1) in the three after), where its op moves 4.78, 5.08, 5.05 and 5.08 MB: every step
changes. cuda-graphs now says the shapes change from step to step and that the inputs must be padded to one length,
or bucketed with one graph a bucket, first, and prices the step padded to the largest shapes the traced steps show:
spk.default 15.8% → 15.9% (the padded, graphed step measured −2.8%, spread 19%: the row holds), spk.workers not
priced (0.0%, the workers' wait bounds the step since hostfix28e). The two checks' misses are settled. No other
trace's cuda-graphs or torch-compile advice moves.

After the fix (hostfix28e, the first read kept above): the workers' queue wait is kept. It falls in one of the four
profiled steps (979.12 ms of ProfilerStep#5's 1044.92; 0.13 to 23.02 ms in the three before): eight workers deliver
their batches in bursts, the steps between drain the queue, and the median step the replay takes left the waiting
one out. Where the step's thread waits on the workers in some steps and not all, for at least the noise share of the
window, the wait is kept at its traced time (a blocked get is not host work the profiler slows) and the step is
floored at the window's replayed time over its steps: spk.workers replays at 347.81 ms a step (was 101.79; its
processes' steady chunks ran 243 to 400 ms a step, their medians 243.16 to 265.89), and no lever clears the noise
(cuda-graphs 82.0% → 0.0%, fused-optimizer 10.7% → 0.0%): the workers' pace bounds the step. No row moves (nothing was
measured from spk.workers); cuda-graphs is still advised there without the padding the shapes need.

Read again by mechanism (hostfix29b, after the read; no code changed): what the two vq changes add to the step is in
the traces, and neither row's miss is a cost the FP32 trace hides. The reads' restart runs in every profiled step (from
` + "`expired.any()`" + ` on, 11 aten ops, 10 launches, 3 copies and 3 syncs a step, 363 to 536 µs of the profiled host); the
restart on the GPU is 8 ops of one launch each over the 1024 codes, no copy, no sync: it skips no step's work and adds
no host work the reads' version lacks, so host-read's 0.0% (the waits dropped, the ops kept) is what the trace prices;
its two processes each timed slower than the default beside them (6.03 against 4.94 ms, 4.91 against 4.43), which the
trace does not explain. bf16's added work, 63 casts a step (30 of autocast's, the user's two ` + "`.float()`" + ` made real, 31
` + "`ToCopyBackward0`" + `), is charged as 70 casts; its own trace replays at 6.96 ms (−38.7%, itself 13 points from −51.4%),
but that process ran the work bf16 leaves in FP32 slower (` + "`Codebook.update`" + ` 902 against 852 µs a step profiled, the
Adam step 1910 against 1698, the launch unit 15.85 against 14.33 µs): at the FP32 trace's launch unit its step is about
6.29 ms, −25%, 7 points from the price; host28b timed the same pair at +6.8%, 58 points from host28's −51.4%.
`)
	if host29Read {
		b.WriteString(host29Expected + host29FirstRead)
	}
	if host30Read {
		b.WriteString(host30Expected + host30FirstRead)
	}
	if host31Read {
		b.WriteString(host31Expected + host31FirstRead)
	}
	if host32Read {
		b.WriteString(host32Expected + host32FirstRead + host32Fixed)
	}
	if host33Read {
		b.WriteString(host33Expected + host33FirstRead)
	}
	if host34Read {
		b.WriteString(host34Expected + host34FirstRead)
	}
	if host35Read {
		b.WriteString(host35Expected + host35FirstRead)
	}
	if host36Read {
		b.WriteString(host36Expected + host36FirstRead)
	}
	if host37Read {
		b.WriteString(host37Expected + host37FirstRead)
	}
	if host38Read {
		b.WriteString(host38Expected + host38FirstRead)
	}
	if host39Read {
		b.WriteString(host39Expected + host39FirstRead)
	}
	if host40Read {
		b.WriteString(host40Expected + host40FirstRead)
	}
}

// host29Expected is fixtures/host29's section, written before its read
// and rendered from it on (host29Read).
const host29Expected = `
### fixtures/host29's expected rows, written before the read

` + "`fixtures/host29`" + ` (H200, 2026-11-30 17:53–17:59) was captured after the fits began and landed at once, unread;
these rows were written from its unprofiled timings before profan read its traces, and committed before the read,
their checks skipped until it (host29Read). Every variant has three processes; nothing failed. *First* (measured) is
the lever with the largest positive measured gain of those measured alone from the step; a combination carries none.

| before → after | rule | first (measured) | measured | spread |
| --- | --- | --- | ---: | ---: |
| seg.default → seg.workers | data-loader | yes | 85.9% | 19% |
| seg.default → seg.gpumetric | step-read (the confusion on the GPU) | no | 8.4% | 19% |
| seg.default → seg.all | data-loader+step-read | | 87.1% | 19% |
| seg.workers → seg.all | step-read | yes | 8.9% | 12% |
| ode.default → ode.fixed | step-read (a fixed grid of 3 steps) | yes | 34.7% | 1.3% |
| ode.default → ode.graphs | step-read+cuda-graphs | | 36.9% | 1.3% |
| ode.default → ode.bf16 | bf16-autocast | no | −392.2% | 15% |
| ode.fixed → ode.graphs | cuda-graphs | yes | 3.3% | 0.5% |

Expected besides: seg's step is its main-process loader's (the GPU works about 15 ms of 337.05): 16 scenes a batch
rendered, rescaled, cropped, flipped, jittered and normalized in NumPy. The loader and its frame
(` + "`host29.py(155): __getitem__`" + ` under ` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`" + `) are named
in the timeline's data time and in data-loader's advice; on seg.workers the main thread's wait on the workers
(` + "`_MultiProcessingDataLoaderIter.__next__`" + `) is data time, not launch-bound. The metric's ` + "`.cpu()`" + ` of the argmax
(8 MB of int64, pageable) at ` + "`host29.py(249): step`" + ` is a host sync on both seg traces and named in step-read's
advice; on seg.default it also keeps the main-process loader from overlapping the GPU's step, which is why the GPU
metric alone gains little there (8.4%, within the spread) and 8.9% once the workers load. ode's solver reads (the
loop's test, the accept test, the step-size choice: four a solver step, 20 syncs a profiled step) sit in
` + "`host29.py(338): dopri5`" + ` (and the step-size helpers it calls), inside the forward, named in the host-sync time and
step-read's advice; CUDA graphs cannot capture ode.default as it is (the reads decide how many stages run): never
first there. ode is bound by its FP32 matmuls (34.4 ms of kernels in a 38.6 ms step as traced): the fixed grid's
34.7% is mostly the fewer dynamics evaluations (18 a forward against about 25.6: 3 fixed steps against 3.9 adaptive
attempts and the initial step's selection), which the reads' waits do not show, so step-read's row is expected to
miss in value (under); bf16 autocast, a large gain on the traced matmuls, measured five times slower (the solver took
16 to 34 steps a training step under bf16's rounding against 3 to 4): its row is expected to miss in value and sign.
Adam's reads of its CPU step counts wait for no GPU and are named as no sync. torch.compile, fused optimizers,
channels-last, bf16 on seg, another worker count and the adjoint method were not timed. The four traces' cause splits
sum to the wall, and no launch-bound time is named by a Python frame.
`

// host29FirstRead is fixtures/host29's first read (the lead's, at the
// reader's hand), rendered with host29Read.
const host29FirstRead = `
### fixtures/host29's first read

Read once with main at 36ff392 (19:01, after the fitters' cutoff), this test and ` + "`profan analyze`" + ` on each trace, the
rows above kept as written (miss notes added); host29b's four rows (the levers profan ranked first or second that
host29 did not time, timed by the lead before the read, its prices written down before its call at 2faa95e; the same
prices at 36ff392) added at the read. The replayed unprofiled steps: seg.default 369.80 ms (measured 337.05),
seg.workers 54.29 ms (47.55), ode.default 37.05 ms (38.60), ode.fixed 25.01 ms (25.19).

| before → after | rule | profan's rank | estimated | measured | spread | holds |
| --- | --- | ---: | ---: | ---: | ---: | --- |
| seg.default → seg.workers | data-loader | 1 | 76.5% | 85.9% | 19% | yes, first |
| seg.default → seg.gpumetric | step-read | not advised | none | 8.4% | 19% | yes |
| seg.default → seg.all | data-loader+step-read | | 76.5% | 87.1% | 19% | yes |
| seg.workers → seg.all | step-read | not advised | none | 8.9% | 12% | in value; not first, measured first |
| ode.default → ode.fixed | step-read | 4 | 5.0% | 34.7% | 1.3% | no: under by 30 points |
| ode.default → ode.graphs | step-read+cuda-graphs | | 8.9% | 36.9% | 1.3% | no: under by 28 points |
| ode.default → ode.bf16 | bf16-autocast | 2 | 26.0% | −392.2% | 15% | no: over by 418 points |
| ode.fixed → ode.graphs | cuda-graphs | 4 | 4.2% | 3.3% | 0.5% | in value; fourth, the row's first refuted |
| host29b: ode.default → tf32 | tf32 | 1 | 35.7% | −64.6% | 18% | no: over by 100 points, first |
| host29b: ode.fixed → fixedtf32 | tf32 | 1 | 40.3% | 29.8% | 29% | yes, first |
| host29b: ode.fixed → fixedbf16 | bf16-autocast | 2 | 23.2% | 23.3% | 29% | yes |
| host29b: ode.fixed → fixedcompile | torch-compile | 3 | 8.9% | 8.0% | 1% | yes |

Six of the twelve rows hold (three of host29's eight, three of host29b's four; two more of host29's in value but not in
rank). The first lever is the one measured first on two of the four steps levers were measured from: ` + "`data-loader`" + `
on seg.default (76.5%, measured 85.9%; its advice names the one-thread limit for each worker) and ` + "`tf32`" + ` on ode.fixed
(40.3%, measured 29.8% by host29b, above host29's graph at 3.3%). On seg.workers no lever clears the step's noise (profan
reads it as bound by the workers' feed), where the GPU metric measured 8.9%, inside its own 12% spread; on ode.default
` + "`tf32`" + ` is first (35.7%) and measured −64.6%, ` + "`bf16-autocast`" + ` second (26.0%, measured −392.2%), where the fixed grid
measured first (34.7%, step-read fourth at 5.0%). Named with their frames, as written: the loader
(` + "`enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ → host29.py(155): __getitem__`" + `: 87.4% of seg.default's profiled
wall) in the data time and in data-loader's advice; the main thread's wait on the workers
(` + "`_MultiProcessingDataLoaderIter.__next__ → queue.py(154): get`" + `, 31.1% of seg.workers's) as data time; the metric's copy
under ` + "`host29.py(249): step`" + ` in the host-sync time of both seg traces (and in pinned-memory's advice), but step-read not
advised on either; ode's solver reads under ` + "`host29.py(338): dopri5`" + ` (and its ` + "`optimal_step`" + ` and ` + "`select_initial_step`" + `) in
the host-sync time and in step-read's advice; cuda-graphs on ode.default third, priced as the loop's body between its
reads; Adam's CPU step-count reads named as no sync; the four cause splits sum to the wall and no launch-bound time is
named by a Python frame. Missed, by mechanism:

- *A precision lever on an adaptive solver changes the work, not only its rate.* tf32 and bf16 autocast are priced on
  ode.default's traced matmuls at the traced count of solver steps (35.7% and 26.0%, first and second); the solver's
  reads at ` + "`host29.py(338): dopri5`" + ` decide how many stages run, and under TF32's rounding it took 7.92 steps a training
  step against 3.92 (−64.6%, host29b), under bf16's 16 to 34 (−392.2%). On the fixed grid, where no read decides the
  count, the same levers hold (tf32 40.3% against 29.8%, bf16 23.2% against 23.3%).
- *A change of algorithm is not a read's wait.* the fixed grid's 34.7% on ode.default is mostly the fewer dynamics
  evaluations (18 a forward against about 25.6); step-read prices the solver reads' waits (5.0%; with the loop's
  body graphed 8.9% against 36.9%), as the rows written before the read expected.
- *The host's work on what it read is unpriced.* seg's metric reads the argmax with ` + "`.cpu()`" + ` and runs np.bincount over 1M
  pixels on the host every step (other Python at ` + "`host29.py(249): step`" + `: 65.99 ms of seg.default's four profiled steps,
  79.90 of seg.workers's); the read's waits are 1.81 and 0.10 ms, so step-read is not advised on either trace and the
  copy alone is priced (pinned-memory, 1.2% on seg.default). The GPU metric measured 8.4% and 8.9%, each inside its
  spread: the rows hold in value, and seg.workers's misses in rank.
- *A row's first refuted by a later timing.* ode.fixed → graphs was written first when the graph was the only change
  measured from ode.fixed (3.3%); host29b measured tf32 at 29.8% there, the lever profan ranks first.

After the first fix (hostfix30a): where a value read that Python tests (` + "`aten::is_nonzero`" + `: a while or an if on a GPU
tensor) recurs after the same kernels inside one call of the model's forward, or occurs a different number of times from
one traced step to the next, and most launches of a precision lever's kernels run from that loop's first read on, the
step's amount of work is the read's to decide: ` + "`tf32`" + `, ` + "`bf16-autocast`" + ` and ` + "`bf16-weights`" + ` name the read and its frame,
give their price at the traced count only (tf32 35.7%, bf16 26.0% on ode.default: ` + "`host29.py(338): dopri5`" + `, 9 reads
in each traced step, 1188 of the 1235 FP32 GEMM launches after its first) and are not priced, below every priced lever;
cuda-graphs' loop-body graphs (8.9%) rank after step-read there (the test decides how many times the body runs and which
ops follow it). ode.default's first is now step-read (5.0%, measured first at 34.7% by the fixed grid: first, under in
value); host29b's tf32 row 35.7% → 0.0% against −64.6% (over by 65 points), ode.bf16 26.0% → 0.0% against −392.2%. No
other trace in fixtures has such a loop, and no other row or check moves.

After the second fix (hostfix30a): a bulk read (` + "`.cpu()`" + ` of a tensor of 1 MB or more to pageable memory, pinned-memory's
sync) whose values the host's Python computes from right after, no launch between, calling functions on them (8 or more
a read: seg's 67, numpy's astype, sums and nanmean around np.bincount; host16's embed, whose features are stored into a
host array, calls one) for 1% or more of the profiled span is step-read's too: the metric computed on the GPU and read
every 50 steps, priced by the replay without the copy's wait and with that Python made every 50 steps. seg.default:
step-read none → 2.4%, second (measured 8.4%, spread 19%: holds), naming ` + "`.cpu() at host29.py(249): step`" + ` and the
54.50 ms of Python after its four copies; seg.workers: none → 0.0%, the replay keeping the step at its workers' feed (a
batch every 54.29 ms), 74.07 ms after the copies named (measured 8.9%, inside its 12% spread: in value, not first). Both
name checks now hold. No other trace's ranked levers move.
`

// causeSplit renders, and holds, the timeline's wall split by cause on the
// held-out captures of fixtures/host12, host15, host16, host17, host18, host19, host20 and host21: busy and the idle causes sum to
// the span, and no launch-bound time is named by a DataLoader, a sync or
// the user's Python.
func causeSplit(t *testing.T, b *strings.Builder, tls map[string]*analysis.Timeline, names ...string) {
	b.WriteString(`
### The held-out steps' wall, by cause

The timeline's split of the held-out "before" traces of ` + "`fixtures/host12`" + ` (cls, mlp), ` + "`fixtures/host15`" + ` (audio,
voxel), ` + "`fixtures/host16`" + ` (fluid, embed), ` + "`fixtures/host17`" + ` (rl, log), ` + "`fixtures/host18`" + ` (det, gnn), ` + "`fixtures/host19`" + ` (s2s, hook), ` + "`fixtures/host20`" + ` (amp, ctc) and ` + "`fixtures/host21`" + ` (mlm, aug), four ` + "`ProfilerStep#N`" + ` each, profiled: the GPU's busy time and each idle cause, with the calls the timeline names behind it (most idle time first).

| trace | cause | ms | share | calls behind it |
| --- | --- | ---: | ---: | --- |
`)
	for _, name := range names {
		tl := tls[name]
		sum := tl.Busy
		fmt.Fprintf(b, "| %s | busy | %.2f | %.1f%% | |\n", name, 1e3*tl.Busy, 100*tl.Busy/tl.Span)
		for _, idle := range tl.Idle {
			sum += idle.Seconds
			var calls []string
			for i, c := range idle.Calls {
				if i == 3 {
					break
				}
				s := idleCallName(c)
				calls = append(calls, fmt.Sprintf("%s (%.2f ms)", strings.ReplaceAll(s, "|", "\\|"), 1e3*c.Seconds))
				if idle.Cause == verdict.IdleLaunch {
					for _, bad := range []string{"DataLoader", "synchronize", "nonzero", "item", "cpu", "collate", "Memcpy"} {
						// aten::item of a CPU tensor (foreach Adam's step
						// count, optimizer.py's _get_value) reads no GPU
						// value: a host read is named .item() or by its
						// sync (host19's hook.default).
						if bad == "item" && !strings.Contains(s, ".item()") && !strings.Contains(s, "Synchronize") {
							continue
						}
						if strings.Contains(s, bad) {
							t.Errorf("%s: launch-bound time named by %s", name, s)
						}
					}
				}
			}
			if 1e3*idle.Seconds >= 0.005 {
				fmt.Fprintf(b, "| %s | %s | %.2f | %.1f%% | %s |\n", name, verdict.IdleLabel(idle.Cause), 1e3*idle.Seconds, 100*idle.Share, strings.Join(calls, "; "))
			}
		}
		fmt.Fprintf(b, "| %s | **wall** | %.2f | | busy + idle %.2f ms |\n", name, 1e3*tl.Span, 1e3*sum)
		if math.Abs(sum-tl.Span) > 1e-6*tl.Span {
			t.Errorf("%s: busy %.6f s and idle causes sum to %.6f s, not the span %.6f s", name, tl.Busy, sum, tl.Span)
		}
	}
}

// engineUnits renders, and holds, the host cost of the UNet's ops in
// launches' worth (docs/replay.md, "The engines' host"): in host8's pair,
// which the figures rules.engineHostUnits holds were learned on
// (convolution 2.7, GEMM 0.9), and in host11's two more rounds of
// processes, where TF32's increments must come back within 0.5 of them.
func engineUnits(t *testing.T, b *strings.Builder) {
	b.WriteString(`
### The engines' host, in launches' worth

Each op's median host time as traced, over its own trace's launch's worth (the median ` + "`aten::add`" + `, ` + "`mul`" + `,
` + "`sub`" + ` or ` + "`div`" + ` that issues one kernel): ` + "`fixtures/host8`" + `'s UNet pair, on which ` + "`tf32`" + ` and the bf16 levers'
engine costs were learned (a convolution 2.7, a linear 0.9: TF32 − FP32), and ` + "`fixtures/host11`" + `'s two more
rounds of processes (` + "`gen/host11.sh`" + `), which replicate them; bf16 is autocast, whose casts (` + "`aten::to`" + ` in
each convolution, linear and group norm) are not priced.

| trace | launch's worth | conv2d | linear | group_norm | attention | conv2d − FP32 | linear − FP32 |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
`)
	const conv, linear = 2.7, 0.9 // rules.engineHostUnits
	for _, set := range [][]string{
		{"host8/unet.fp32", "host8/unet.tf32"},
		{"host11/unet.fp32.r1", "host11/unet.tf32.r1", "host11/unet.bf16.r1"},
		{"host11/unet.fp32.r2", "host11/unet.tf32.r2", "host11/unet.bf16.r2"},
	} {
		var c0, l0 float64
		for i, name := range set {
			tl := fixtureGrouper(t, name+".json.gz").Timeline
			var u [4]float64
			for j, op := range []string{"aten::conv2d", "aten::linear", "aten::group_norm", "aten::scaled_dot_product_attention"} {
				u[j], _ = analysis.OpUnits(tl, op)
			}
			if i == 0 {
				c0, l0 = u[0], u[1]
			}
			fmt.Fprintf(b, "| %s | %.1f µs | %.2f | %.2f | %.2f | %.2f | %+.2f | %+.2f |\n", name, 1e6*analysis.LaunchUnit(tl), u[0], u[1], u[2], u[3], u[0]-c0, u[1]-l0)
			if strings.Contains(name, "tf32") && (math.Abs(u[0]-c0-conv) > 0.5 || math.Abs(u[1]-l0-linear) > 0.5) {
				t.Errorf("%s: TF32 adds %.2f launches' worth a convolution and %.2f a linear, not %.1f and %.1f", name, u[0]-c0, u[1]-l0, conv, linear)
			}
		}
	}
}

// TestCompileUnmeasured: torch-compile ranks first on check7's TF32 and
// bf16 autocast training steps, where torch.compile was never timed (it
// was on the FP32 step: 75.38 → 62.05 ms, fixtures/check7's
// timings7-train.tsv and timings7-compile1.tsv). Its price there is
// plausible by mechanism, and held to it: TF32 and autocast change the
// GEMMs (and add casts), not the element-wise, normalization and softmax
// chains compile fuses, which run as the same FP32 kernels under TF32 and
// as bf16 ones (half the bytes) under autocast; the traces hold no Python
// stack, so only the launches the chains drop come off the host, and no
// graph break applies. So compile saves at most what it saved on the FP32
// step, 13.3 ms, of a step that measured 39.18 ms (TF32) and 33.46 ms
// (bf16): at most 34% and 40% of the wall; it is priced 26.8% and 21.2%.
// On host11's bf16 UNet, where it also ranks first, it was timed since
// (fixtures/host14, hostCalibration: 62.0% measured, 33.9% priced).
func TestCompileUnmeasured(t *testing.T) {
	ms := map[string]float64{}
	for _, f := range []string{"timings7-train.tsv", "timings7-compile1.tsv"} {
		raw, err := os.ReadFile("../../fixtures/check7/" + f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
			c := strings.Split(line, "\t")
			if len(c) < 4 || c[0] != "train" {
				continue
			}
			var v float64
			if _, err := fmt.Sscan(c[3], &v); err == nil {
				ms[c[1]] = v
			}
		}
	}
	saved := ms["default"] - ms["compile"]
	if !(saved > 0) {
		t.Fatalf("check7 train: default %.2f ms, compile %.2f ms", ms["default"], ms["compile"])
	}
	for _, v := range []string{"tf32", "bf16"} {
		app := fixtureGrouper(t, "check7/train."+v+".json.gz").App()
		gain, first := wallGain(app, "torch-compile")
		if bound := saved / ms[v]; !first || !(gain > 0 && gain <= bound) {
			t.Errorf("check7 train.%s: torch-compile %.1f%% of the wall (first %v), want first and at most %.1f%% (%.2f ms saved on FP32 of a %.2f ms step)",
				v, 100*gain, first, 100*bound, saved, ms[v])
		}
	}
}

// profilerShare renders, and holds, what the traces of fixtures/host8 to
// host15, timeline and check7 say of the profiler's cost (docs/replay.md,
// "The profiler's own cost"): each trace's host time a step as traced
// and its records a step, against the step its own process timed
// unprofiled (round r1 times, then traces, in one process; timeline's
// and check7's one process a variant), and the replay's step without a
// lever. On a step its host bounds the replayed step must come within
// 0.65 to 1.25 of the measured one; on a step its GPU bounds, not above
// 1.15 of it. These are the steps the costs were fitted on.
func profilerShare(t *testing.T, b *strings.Builder) {
	b.WriteString(`
### The profiler's cost, by same-process pairs

Each "before" trace's host time a step as traced (its spans but the syncs' waits, four ` + "`ProfilerStep#N`" + `), its records a
step (aten ops, Python frames under ` + "`with_stack`" + `, kernel and copy launches), the replay's step without a lever, and the
step the same process timed unprofiled just before tracing (round r1; ` + "`host11`" + `'s two rounds each; ` + "`timeline`" + `'s and
` + "`check7`" + `'s single process a variant, an H100's host): the replay takes each record's cost off the span that holds it and
keeps ` + "`profilerKeep`" + ` of the rest (docs/replay.md); these are the steps its five figures were fitted on (a grid over
them, least squares of the log of replayed over measured, a GPU-bound step counting only where the replay is above it;
check7's three training steps added after), then moved by hand so that the levers' rows above hold (docs/replay.md).

| trace | launch's worth | ops | frames | launches | traced host | replayed | same process, unprofiled | bound by | replayed / measured |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |
`)
	first := func(file, variant string) float64 {
		raw, err := os.ReadFile("../../fixtures/" + file)
		if err != nil {
			t.Fatal(err)
		}
		model, v, _ := strings.Cut(variant, ".")
		for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
			f := strings.Split(line, "\t")
			col := 4
			switch {
			case strings.HasPrefix(file, "timeline/"):
				col = 2
			case strings.HasPrefix(file, "check7/"):
				if len(f) < 4 || f[0] != model || f[1] != v {
					continue
				}
				f[0], col = variant, 3
			}
			var ms float64
			if len(f) > col && f[0] == variant {
				if _, err := fmt.Sscan(f[col], &ms); err == nil {
					return ms
				}
			}
		}
		t.Fatalf("%s: no %s", file, variant)
		return 0
	}
	var host, gpu []float64
	for _, c := range []struct{ trace, timings, variant, bound string }{
		{"host8/moe.default", "host8/timings.tsv", "moe.default", "host"},
		{"host8/vision.default", "host8/timings.tsv", "vision.default", "host"},
		{"host10/split.default", "host10/timings.tsv", "split.default", "host"},
		{"host12/cls.default", "host12/timings.tsv", "cls.default", "host"},
		{"host12/mlp.default", "host12/timings.tsv", "mlp.default", "host"},
		{"host11/unet.bf16.r1", "host11/timings.r1.tsv", "unet.bf16", "host"},
		{"host11/unet.bf16.r2", "host11/timings.r2.tsv", "unet.bf16", "host"},
		{"host15/audio.default", "host15/timings.tsv", "audio.default", "host"},
		{"host9/copy.default", "host9/timings.tsv", "copy.default", "host"},
		{"timeline/decode_static", "timeline/timings7.tsv", "decode_static", "host"},
		{"timeline/decode_sync", "timeline/timings7.tsv", "decode_sync", "host"},
		{"timeline/decode_sync2", "timeline/timings7-timeline2.tsv", "decode_sync2", "host"},
		{"timeline/train_small_sync", "timeline/timings7-timeline2.tsv", "train_small_sync", "host"},
		{"check7/decode.default", "check7/timings7-infer.tsv", "decode.default", "host"},
		{"host10/splitl.default", "host10/timings.tsv", "splitl.default", "GPU"},
		{"host8/unet.tf32", "host8/timings.tsv", "unet.tf32", "GPU"},
		{"host8/unet.fp32", "host8/timings.tsv", "unet.fp32", "GPU"},
		{"host11/unet.tf32.r1", "host11/timings.r1.tsv", "unet.tf32", "GPU"},
		{"host11/unet.tf32.r2", "host11/timings.r2.tsv", "unet.tf32", "GPU"},
		{"host10/unet4.fp32", "host10/timings.tsv", "unet4.fp32", "GPU"},
		{"host15/voxel.default", "host15/timings.tsv", "voxel.default", "GPU"},
		{"host15/voxel.fixed", "host15/timings.tsv", "voxel.fixed", "GPU"},
		{"check7/train.default", "check7/timings7-train.tsv", "train.default", "GPU"},
		{"check7/train.tf32", "check7/timings7-train.tsv", "train.tf32", "GPU"},
		{"check7/train.bf16", "check7/timings7-train.tsv", "train.bf16", "GPU"},
	} {
		tl := fixtureGrouper(t, c.trace+".json.gz").Timeline
		ms := first(c.timings, c.variant)
		ops, frames, launches, _ := analysis.ProfilerRecords(tl)
		rep := 1e3 * analysis.ReplayedStep(tl)
		ratio := rep / ms
		if c.bound == "host" {
			host = append(host, ratio)
		} else {
			gpu = append(gpu, ratio)
		}
		fmt.Fprintf(b, "| %s | %.1f µs | %.0f | %.0f | %.0f | %.2f ms | %.2f ms | %.2f ms | %s | %.2f |\n", c.trace, 1e6*analysis.LaunchUnit(tl), ops, frames, launches,
			1e3*analysis.TracedHost(tl), rep, ms, c.bound, ratio)
	}
	slices.Sort(host)
	slices.Sort(gpu)
	fmt.Fprintf(b, "\nOn the %d steps their host bounds the replayed step is %.2f to %.2f of the measured one (median %.2f); on the %d\n", len(host), host[0], host[len(host)-1], stats.Median(host), len(gpu))
	fmt.Fprintf(b, "bound by their GPU, %.2f to %.2f. ", gpu[0], gpu[len(gpu)-1])
	b.WriteString(`The one share the replay took before (0.4 of all traced host time, fitted on host8's moe and
unet) replayed the same host-bound steps to 0.59 to 1.14 of measured: the numpy loader (` + "`audio`" + `, 0.59), the JPEG
loader (` + "`vision`" + `, 0.72), the bf16 UNet (0.67, 0.77) and the H100's steps without a stack (decode 0.76 to 0.84, the
small training step 0.67) low, the steps dense in small ops and Python (moe 1.14) high. Per-record costs alone (no
` + "`profilerKeep`" + `) fit these steps worse than one share does once the H100's decode steps are among them (their ops cost
the profiler less than the H200's small training steps', in seconds and in launches' worth alike): the best fit found
left the H200's small training steps (split, mlp) at 1.3 to 1.6 and the bf16 UNet at 0.7. The fit with the share:
` + "`profilerKeep`" + ` 0.55, an aten op 0.05 launch's worth, a Python frame 0.005, a launch 0.2, and a span never below 0.2
of its time before the share. A numpy or JPEG call keeps
0.55 of its traced time, not all of it: the data do not separate the profiler's slowing of a long C call from the
process-to-process speed the same variant shows (` + "`host11`" + `'s two bf16 processes, the same trace to within 2%, measured
10.9 and 12.8 ms).
`)
	if host[0] < 0.65 || host[len(host)-1] > 1.25 || gpu[len(gpu)-1] > 1.15 {
		t.Errorf("replayed steps %.2f to %.2f (host-bound), up to %.2f (GPU-bound) of measured: docs/replay.md's account no longer holds", host[0], host[len(host)-1], gpu[len(gpu)-1])
	}
}
