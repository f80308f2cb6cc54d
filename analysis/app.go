package analysis

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/profan-dev/profan/kernelname"
)

// App is the reading of an application capture by cause: where the
// kernel time goes by category, what to change first (recommendations
// ranked by estimated gain), and what the capture leaves out.
type App struct {
	Categories      []CategoryTime
	Recommendations []Recommendation
	// Gain is what the recommendations could save together, composed per
	// kernel group as 1 − Π(1 − f) over the changes acting on it (each
	// acts on what the others leave), so two changes on one group are
	// not counted twice; changes that would slow the step are left out.
	Gain float64
	// Scope notes say what the capture holds and does not, up front.
	Scope []string
}

// CategoryTime is the capture's time in one category.
type CategoryTime struct {
	Category kernelname.Category
	Duration float64 // seconds
	Share    float64 // of the capture's kernel time, 0–1
	Launches int
	Groups   []*Group // longest first
	// Limiter is the limiter of the largest part of the category's time
	// whose limiter is known ("" when none is), and LimiterShare that
	// part's share of the category's time, 0–1: a limiter found on a few
	// launches (a light capture reads only their grids) does not speak
	// for the rest.
	Limiter      string
	LimiterShare float64
}

// Recommendation is one change a framework user makes, with the groups it
// removes or shrinks and its estimated gain.
type Recommendation struct {
	Rule    string // "channels-last", "fused-optimizer", "torch-compile", "bf16-autocast", "cuda-graphs"
	Message string // what the capture shows, with its numbers
	Fix     string // the code to change
	Groups  []*Group
	// Gain is the estimated share of the capture's kernel time saved, 0–1,
	// net of Cost.
	Gain float64
	// Cost is the share of the capture's kernel time the change adds to
	// other kernels (bf16 autocast: cuDNN's batch norm leaving for
	// PyTorch's slower kernels).
	Cost float64
	// Basis says how Gain was estimated and calibrated.
	Basis string
	// saves is the share of each group's time the change saves; the
	// capture's combined gain composes them per group, so two changes
	// acting on one kernel are not counted twice.
	saves map[*Group]float64
}

// saving maps each of gs to the share f of its time a change saves.
func saving(m map[*Group]float64, f float64, gs ...*Group) map[*Group]float64 {
	if m == nil {
		m = map[*Group]float64{}
	}
	for _, g := range gs {
		m[g] = f
	}
	return m
}

// The calibration factors: the share of the time of the groups a change
// acts on that the change saves, measured on before/after pairs of one
// step each (fixtures/pytorch2/pair.*.csv, one process per variant, the
// sum of ncu's gpu__time_duration over the step). Their table is kept by
// a test (docs/calibration-apps.md).
const (
	// channels_last removes cuDNN's NCHW↔NHWC conversions and replaces
	// its one-block-per-channel NCHW batch norm with the NHWC kernels;
	// the convolutions change too, so the factor is fitted, on the CNN
	// pair (the only layout pair).
	FactorChannelsLast = 0.65
	// A fused optimizer reads and writes each state once instead of once
	// per foreach operation: fitted on the AdamW pair, checked on SGD's.
	FactorFusedOptimizer = 0.62
	// torch.compile fuses the eager element-wise, normalization, cast,
	// loss and copy kernels into fewer Triton kernels: fitted on the
	// transformer training pair, checked on the GPT inference pair.
	FactorCompile = 0.20
	// bf16 autocast moves FP32 GEMMs from the FMA pipe to tensor cores,
	// 16× faster at peak: 1 − 1/16 of their time, not fitted.
	FactorBF16 = 1 - 1.0/16
	// TF32 tensor-core math runs at half the bf16 rate: 1/2 of its time,
	// not fitted.
	FactorTF32ToBF16 = 0.5
	// Under bf16 autocast PyTorch runs batch norm on its own kernels, not
	// cuDNN's (fp16 keeps cuDNN's): the batch norm takes longer. Fitted
	// on the CNN's channels_last pair (cuDNN's NHWC batch norm 207 µs,
	// ATen's bf16 one 310 µs: +0.50 of its time).
	PenaltyBF16BatchNorm = 0.50
)

// tinyLaunch is the mean launch duration below which launch overhead,
// which a kernel profiler does not time, rivals the kernels.
const tinyLaunch = 10e-6

var reBackward = regexp.MustCompile(`(?i)backward|dgrad|wgrad|bprop|_bwd|bwd_|_bw_|bwtr|gradinput|grad_input|gammabeta|_grad_`)

// IsBackward reports a kernel of a backward pass by its name.
func IsBackward(name string) bool { return reBackward.MatchString(name) }

// Summarize reads groups (ranked, with shares) by cause. total is the
// capture's kernel time; procs and devices count the processes and GPUs
// the launches came from.
func Summarize(gs []*Group, total float64, procs, devices int) *App {
	app := &App{}
	if len(gs) == 0 || !(total > 0) {
		return app
	}
	by := map[kernelname.Category]*CategoryTime{}
	limit := map[kernelname.Category]map[string]float64{}
	for _, g := range gs {
		c := g.Info.Category
		ct := by[c]
		if ct == nil {
			ct = &CategoryTime{Category: c}
			by[c] = ct
			limit[c] = map[string]float64{}
		}
		ct.Duration += g.Duration
		ct.Launches += g.Launches
		ct.Groups = append(ct.Groups, g)
		if g.Rep != nil {
			limit[c][g.Rep.Limiter.String()] += g.Duration
		}
	}
	for c, ct := range by {
		ct.Share = ct.Duration / total
		best := 0.0
		for l, d := range limit[c] {
			if l != "" && (d > best || d == best && l < ct.Limiter) {
				best, ct.Limiter = d, l
			}
		}
		if ct.Duration > 0 {
			ct.LimiterShare = best / ct.Duration
		}
		app.Categories = append(app.Categories, *ct)
	}
	sort.Slice(app.Categories, func(i, j int) bool {
		a, b := app.Categories[i], app.Categories[j]
		if a.Duration != b.Duration {
			return a.Duration > b.Duration
		}
		return a.Category < b.Category
	})
	app.Recommendations = recommend(gs, total)
	// Each group keeps what every change acting on it leaves; a change
	// that would slow the step is not one to make.
	keep := map[*Group]float64{}
	for _, r := range app.Recommendations {
		if r.Gain <= 0 {
			continue
		}
		for g, f := range r.saves {
			if _, ok := keep[g]; !ok {
				keep[g] = 1
			}
			keep[g] *= 1 - f
		}
	}
	for g, k := range keep {
		app.Gain += (1 - k) * g.Duration / total
	}
	app.Scope = scope(gs, procs, devices)
	return app
}

func shareOf(gs []*Group, total float64) float64 {
	d := 0.0
	for _, g := range gs {
		d += g.Duration
	}
	return d / total
}

func launchesOf(gs []*Group) int {
	n := 0
	for _, g := range gs {
		n += g.Launches
	}
	return n
}

// recommend finds the causes a framework user acts on, ranked by gain.
func recommend(gs []*Group, total float64) []Recommendation {
	var layout, bnNCHW, bnCuDNN, foreach, eager, fp32, tf32 []*Group
	tf32Conv, anyTensor := false, false
	adam := false
	for _, g := range gs {
		i := g.Info
		if i.Category == kernelname.CatTensorMath {
			anyTensor = true
			if i.Kind == kernelname.Convolution {
				tf32Conv = true
			}
		}
	}
	for _, g := range gs {
		i := g.Info
		lower := strings.ToLower(g.Name)
		switch {
		case i.Family == kernelname.FamCuDNNLayout:
			layout = append(layout, g)
		case i.Family == kernelname.FamCuDNNBatchNormCH:
			bnNCHW = append(bnNCHW, g)
			bnCuDNN = append(bnCuDNN, g)
		case i.Family == kernelname.FamCuDNNBatchNorm:
			bnCuDNN = append(bnCuDNN, g)
		case i.Family == kernelname.FamForeachOptimizer:
			foreach = append(foreach, g)
			if strings.Contains(lower, "sqrt") || strings.Contains(lower, "lerp") || strings.Contains(lower, "divides") {
				adam = true
			}
		case i.Library == kernelname.ATen && (i.Category == kernelname.CatElementwise || i.Category == kernelname.CatNorm ||
			i.Category == kernelname.CatCast || i.Category == kernelname.CatReduction ||
			i.Category == kernelname.CatMemory && i.Kind == kernelname.Copy):
			eager = append(eager, g)
		case i.Category == kernelname.CatTensorMath && i.IsLibrary() && strings.Contains(lower, "tf32"):
			tf32 = append(tf32, g)
		case i.Category == kernelname.CatFP32Math && i.IsLibrary():
			// cuDNN picks FFMA for some convolutions (three input
			// channels) even with TF32 on: not the user's precision.
			if i.Kind == kernelname.Convolution && tf32Conv {
				continue
			}
			// Split-K reductions follow their GEMM; depthwise
			// convolutions have no tensor-core path in any dtype.
			if i.Family == "cudnn.splitk-reduce" || i.Family == kernelname.FamCuDNNDepthwise || i.Family == kernelname.FamAtenDepthwise {
				continue
			}
			fp32 = append(fp32, g)
		}
	}
	var out []Recommendation
	if s := shareOf(append(append([]*Group(nil), layout...), bnNCHW...), total); s > 0 && (len(layout) > 0 || len(bnNCHW) > 0) {
		var said []string
		if len(layout) > 0 {
			said = append(said, fmt.Sprintf("converts NCHW tensors to NHWC and back around the convolutions (%d launches, %.1f%% of the time)",
				launchesOf(layout), 100*shareOf(layout, total)))
		}
		if len(bnNCHW) > 0 {
			said = append(said, fmt.Sprintf("runs NCHW batch norm with one block per channel (%d launches, %.1f%% of the time)", launchesOf(bnNCHW), 100*shareOf(bnNCHW, total)))
		}
		msg := "cuDNN " + strings.Join(said, ", and ")
		out = append(out, Recommendation{Rule: "channels-last", Message: msg,
			Fix:    "model = model.to(memory_format=torch.channels_last) and x = x.to(memory_format=torch.channels_last): the convolutions then read NHWC directly, the conversions go, and batch norm runs its NHWC kernels",
			Groups: append(append([]*Group(nil), layout...), bnNCHW...), Gain: FactorChannelsLast * s,
			saves: saving(nil, FactorChannelsLast, append(append([]*Group(nil), layout...), bnNCHW...)...),
			Basis: fmt.Sprintf("%.0f%% of the conversion and NCHW batch-norm time (measured on a CNN step)", 100*FactorChannelsLast)})
	}
	if s := shareOf(foreach, total); len(foreach) > 0 && s > 0 {
		class := "SGD(..., fused=True)"
		if adam {
			class = "Adam/AdamW(..., fused=True)"
		}
		out = append(out, Recommendation{Rule: "fused-optimizer",
			Message: fmt.Sprintf("the optimizer step runs as %d foreach kernels (%d launches, %.1f%% of the time), each reading and writing the parameter lists once", len(foreach), launchesOf(foreach), 100*s),
			Fix:     fmt.Sprintf("torch.optim.%s runs the whole update in one kernel per tensor list", class),
			Groups:  foreach, Gain: FactorFusedOptimizer * s, saves: saving(nil, FactorFusedOptimizer, foreach...),
			Basis: fmt.Sprintf("%.0f%% of the foreach kernels' time (fitted on AdamW, checked on SGD)", 100*FactorFusedOptimizer)})
	}
	if s, sbn := shareOf(eager, total), shareOf(bnNCHW, total); (len(eager) >= 3 || len(bnNCHW) > 0) && s+sbn > 0 {
		casts := 0
		for _, g := range eager {
			if g.Info.Category == kernelname.CatCast {
				casts += g.Launches
			}
		}
		msg := fmt.Sprintf("%d eager element-wise, normalization, cast, loss and copy kernels (%d launches, %.1f%% of the time) each read and write their tensors once",
			len(eager), launchesOf(eager), 100*s)
		if casts > 0 {
			msg += fmt.Sprintf("; %d of the launches are dtype casts (under autocast the weights are cast every step)", casts)
		}
		basis := fmt.Sprintf("%.0f%% of those kernels' time (fitted on a transformer training step, checked on GPT inference)", 100*FactorCompile)
		if len(bnNCHW) > 0 {
			// Inductor decomposes a training batch norm into Triton
			// reductions fused with its neighbours: cuDNN's NCHW kernel
			// goes as it does under channels_last.
			msg += fmt.Sprintf("; cuDNN's NCHW batch norm (%d launches, %.1f%% of the time) becomes fused Triton reductions", launchesOf(bnNCHW), 100*sbn)
			basis += fmt.Sprintf(", and %.0f%% of the NCHW batch norm's, as under channels_last", 100*FactorChannelsLast)
		}
		out = append(out, Recommendation{Rule: "torch-compile", Message: msg,
			Fix:    "model = torch.compile(model) fuses the chains between the GEMMs into fewer kernels (and the casts into their consumers)",
			Groups: append(append([]*Group(nil), eager...), bnNCHW...), Gain: FactorCompile*s + FactorChannelsLast*sbn,
			saves: saving(saving(nil, FactorCompile, eager...), FactorChannelsLast, bnNCHW...),
			Basis: basis})
	}
	if s32, stf := shareOf(fp32, total), shareOf(tf32, total); len(fp32)+len(tf32) > 0 && s32+stf > 0 {
		fix := "run the model under torch.autocast(\"cuda\", dtype=torch.bfloat16): the GEMMs and convolutions move to bf16 tensor cores"
		if !anyTensor {
			fix += " (or at least allow TF32: torch.set_float32_matmul_precision(\"high\"))"
		}
		var parts []string
		if len(fp32) > 0 {
			parts = append(parts, fmt.Sprintf("%d FP32 GEMM/convolution kernels run on the FMA pipe, not tensor cores (%d launches, %.1f%% of the time)", len(fp32), launchesOf(fp32), 100*s32))
		}
		if len(tf32) > 0 {
			parts = append(parts, fmt.Sprintf("%d run in TF32 on tensor cores, at half the bf16 rate (%d launches, %.1f%%)", len(tf32), launchesOf(tf32), 100*stf))
		}
		gain := FactorBF16*s32 + FactorTF32ToBF16*stf
		saves := saving(saving(nil, FactorBF16, fp32...), FactorTF32ToBF16, tf32...)
		cost := 0.0
		basis := "15/16 of the FMA kernels' time and 1/2 of the TF32 ones': bf16 tensor cores do 16× the FP32 FMA rate and 2× the TF32 rate"
		msg := strings.Join(parts, "; ")
		if sbn := shareOf(bnCuDNN, total); sbn > 0 {
			// The penalty is a negative saving of the batch norm's groups:
			// composed with channels-last or torch.compile, it applies to
			// what they leave of them.
			cost = PenaltyBF16BatchNorm * sbn
			gain -= cost
			saves = saving(saves, -PenaltyBF16BatchNorm, bnCuDNN...)
			basis += fmt.Sprintf(", less %.0f%% of cuDNN's batch-norm time (measured on a CNN step)", 100*PenaltyBF16BatchNorm)
			msg += fmt.Sprintf("; but under bf16 autocast batch norm leaves cuDNN (%d launches, %.1f%% of the time) for PyTorch's slower kernels", launchesOf(bnCuDNN), 100*sbn)
			fix += "; with batch norm in the model, fp16 autocast (dtype=torch.float16, with torch.amp.GradScaler) keeps cuDNN's batch norm"
			if gain <= 0 {
				msg = "bf16 autocast would slow this step: " + msg
			}
		}
		out = append(out, Recommendation{Rule: "bf16-autocast", Message: msg,
			Fix: fix, Groups: append(append([]*Group(nil), fp32...), tf32...), Gain: gain, Cost: cost, Basis: basis,
			saves: saves})
	}
	if n := launchesOf(gs); n >= 20 && total/float64(n) < tinyLaunch {
		out = append(out, Recommendation{Rule: "cuda-graphs",
			Message: fmt.Sprintf("%d launches average %.1f µs: launching them takes about as long as running them, a cost this kernel-time capture does not show", n, 1e6*total/float64(n)),
			Fix:     "capture the step in a CUDA graph (torch.cuda.graphs, or torch.compile(mode=\"reduce-overhead\")) and replay it",
			Groups:  nil, Gain: 0,
			Basis: "kernel time unchanged; the gain is host launch time (4.3× wall clock on a tiny MLP)"})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Gain > out[j].Gain })
	return out
}

// scope says what the capture leaves out.
func scope(gs []*Group, procs, devices int) []string {
	var notes []string
	optimizer, backward := false, false
	for _, g := range gs {
		if g.Info.Category == kernelname.CatOptimizer {
			optimizer = true
		}
		if IsBackward(g.Name) {
			backward = true
		}
	}
	if optimizer && !backward {
		notes = append(notes, "the capture holds optimizer kernels but no backward kernel: it was likely filtered to an NVTX range, which is per thread, and autograd runs the backward pass on another thread; capture with --profile-from-start off between torch.cuda.profiler.start() and stop() instead")
	}
	if backward && !optimizer {
		notes = append(notes, "the capture holds backward kernels but no optimizer kernel: it ends before the optimizer step (a launch count such as ncu -c N, or a timeout, cut it short; or it is a gradient-accumulation micro-step): shares are of what was captured; capture the whole step (-c large enough, or between torch.cuda.profiler.start() and stop())")
	}
	if procs > 1 {
		notes = append(notes, fmt.Sprintf("the kernels come from %d processes: shares are of their sum", procs))
	}
	if devices > 1 {
		notes = append(notes, fmt.Sprintf("the kernels ran on %d GPUs: shares are of their sum", devices))
	}
	return notes
}
