package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// penaltyBF16BatchNorm is the share of cuDNN's batch-norm time added when
// bf16 autocast sends batch norm to PyTorch's own kernels (fp16 keeps
// cuDNN's): on the small CNN's channels_last pair (fixtures/pytorch2),
// cuDNN's NHWC batch norm took 207 µs, ATen's bf16 one 310 µs.
const penaltyBF16BatchNorm = 0.50

// bf16Autocast advises mixed precision for a step whose GEMMs and
// convolutions multiply FP32 or TF32: a training step, or an inference
// step whose trace the replay prices the casts on (fixtures/host38's sat:
// autocast over FP32 weights under no_grad measured 13.0% faster).
var bf16Autocast = &Rule{
	ID:    "bf16-autocast",
	Title: "FP32 GEMMs: run the step under bf16 autocast",
	Text: `A step whose GEMMs and convolutions run in FP32 (on the FMA pipe) or
TF32 (tensor cores at half the bf16 rate). Under torch.autocast with
dtype=torch.bfloat16 they run on bf16 tensor cores, at twice the TF32 rate (14.8
to 16 times the FP32 FMA rate), with half the bytes; the weights stay FP32 (autocast
casts them each call) and bf16 needs no loss scaling. Where the step already
runs its GEMMs in bf16 or fp16 the rule says so and advises nothing. An
inference step is advised it only where the trace holds the host's side, so
that the replay prices the casts of the FP32 weights autocast makes on every
call; there it stands in for bf16 weights (bf16-weights) in what the advice
saves together, the two being one change made two ways. Without the host's
side, inference is advised bf16 weights alone.

The gain is each FP32 GEMM's time × (1 − the time left at the bf16 rate,
bounded below by half its DRAM traffic), and half of each TF32 one's.
Autocast halves the bytes of the memory-bound kernels it moves to bf16 too:
cuDNN's NCHW↔NHWC conversions around the convolutions (their operands bf16:
half of each launch's time beyond the 7 µs a launch takes whatever it moves,
measured on a UNet) and the activations that read the convolutions' and GEMMs'
bf16 outputs (half of their DRAM time, from their op's bytes or the DRAM
counters); what autocast keeps in FP32 (reductions, softmax, losses, the
optimizer's step) stays, and so do the activations of a step normalised by
GroupNorm or LayerNorm, whose FP32 outputs they read. FP32
scaled_dot_product_attention runs PyTorch's memory-efficient kernels, whose
products run 3xTF32 on tensor cores (TF32 leaves them as they are); in bf16
it runs FlashAttention or cuDNN's at the bf16 rate: their time scales by
the two rates (a sixth of it on an H100), where the grid is more than one
wave (a single wave is bound by one tile's latency). Under
bf16 autocast PyTorch runs batch norm on its own kernels, not cuDNN's (fp16
keeps cuDNN's): that costs half of cuDNN's batch-norm time (measured on a
CNN step), and the text then says fp16 autocast keeps cuDNN's. Where the trace
holds the host's side, the step is replayed with the kernels shrunk and the
host's cost of each op added (docs/replay.md): the tensor-core engine's
launches and autocast's casts of each op's inputs, measured on a UNet; on a
step the host bounds, autocast can make it slower. As tf32, the change is not
priced where a loop whose count the host decides from its results runs most
of these kernels (fixtures/host29: an adaptive solver took 16 to 34 steps
under bf16 against 3 to 4, 392% slower): the rule names the read and gives
the price at the traced count only.`,
	Before: `loss = loss_fn(model(x), y)   # FP32 GEMMs`,
	After: `with torch.autocast("cuda", dtype=torch.bfloat16):
    loss = loss_fn(model(x), y)
loss.backward()`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"fp32-gemm|tf32-gemm|half-gemm"},
	Optional: []string{"backward", "optimizer", "all", "batchnorm-cudnn", "fp32-attention", "layout-conversion", "activations", "fp32-norm", "compute_throughput_pct", "dram_utilization", "timeline"},
	CheckApp: func(p *AppPass) {
		training := p.training()
		if !training {
			// Inference: priced where the replay prices the casts.
			if _, ok := p.replay(analysis.Lever{}); !ok {
				return
			}
		}
		fp32, tf32s, half := p.kernels("fp32-gemm"), p.kernels("tf32-gemm"), p.kernels("half-gemm")
		if th := timeOf(half); th > timeOf(fp32)+timeOf(tf32s) {
			p.InUse("already under autocast: %d GEMM/convolution kernels run bf16 or fp16 (%s of the time)", len(half), pct(th/p.total()))
			return
		}
		ratio, bf16 := p.tensorRates()
		saves := p.bf16Saves(nil, fp32, tf32s)
		if saves == nil {
			return
		}
		var parts []string
		if len(fp32) > 0 {
			parts = append(parts, fmt.Sprintf("%d FP32 GEMM/convolution kernels run on the FMA pipe, not tensor cores (%d launches, %s of the time)", len(fp32), launchesOf(fp32), pct(timeOf(fp32)/p.total())))
		}
		if len(tf32s) > 0 {
			parts = append(parts, fmt.Sprintf("%d run in TF32 on tensor cores, at half the bf16 rate (%d launches, %s)", len(tf32s), launchesOf(tf32s), pct(timeOf(tf32s)/p.total())))
		}
		att := p.kernels("fp32-attention")
		if len(att) > 0 {
			parts = append(parts, fmt.Sprintf("%d run FP32 attention (PyTorch's memory-efficient kernels, 3xTF32 on tensor cores: %d launches, %s), which in bf16 SDPA runs as FlashAttention or cuDNN's at the bf16 rate", len(att), launchesOf(att), pct(timeOf(att)/p.total())))
		}
		msg := strings.Join(parts, "; ")
		fix := `run the forward pass and the loss under torch.autocast("cuda", dtype=torch.bfloat16): the GEMMs and convolutions move to bf16 tensor cores`
		scaler := ", with torch.amp.GradScaler"
		if !training {
			fix = `run the model's forward under torch.autocast("cuda", dtype=torch.bfloat16), its weights kept FP32: the GEMMs and convolutions move to bf16 tensor cores`
			scaler = ""
		}
		if len(att) > 0 {
			fix += ", and scaled_dot_product_attention to its bf16 kernels"
		}
		basis := fmt.Sprintf("bf16 tensor cores at %.1f× the FP32 FMA rate (%.0f%% of it reached, bounded by half each kernel's DRAM traffic) and %.0f× the TF32 rate", bf16, 100*tf32Efficiency, bf16/ratio)
		if len(att) > 0 {
			basis += fmt.Sprintf("; FP32 attention at %.0f× its 3xTF32 rate (SDPA's bf16 kernels)", fastF32Passes*bf16/ratio)
		}
		layout, act := p.autocastBytes(saves)
		if len(layout) > 0 {
			msg += fmt.Sprintf("; the layout conversions cuDNN runs around the NCHW convolutions (%d launches, %s of the time) move bf16 operands then, half the bytes", launchesOf(layout), pct(timeOf(layout)/p.total()))
			basis += fmt.Sprintf(", half of each layout conversion's time beyond %.0f µs a launch", 1e6*conversionLatency)
		}
		if len(act) > 0 {
			msg += fmt.Sprintf("; the activations on their outputs (%d launches, %s) read and write bf16, half the bytes", launchesOf(act), pct(timeOf(act)/p.total()))
			basis += ", half of each activation's DRAM time (its op's bytes or its DRAM counters)"
		}
		gain := gainOf(saves, p.total())
		cost := 0.0
		if bn := p.kernels("batchnorm-cudnn"); len(bn) > 0 {
			// The penalty is a negative saving of the batch norm's groups:
			// composed with channels-last or torch.compile, it applies to
			// what they leave of them.
			sbn := timeOf(bn) / p.total()
			cost = penaltyBF16BatchNorm * sbn
			gain -= cost
			saving(saves, -penaltyBF16BatchNorm, bn...)
			basis += fmt.Sprintf(", less %.0f%% of cuDNN's batch-norm time (measured on a CNN step)", 100*penaltyBF16BatchNorm)
			msg += fmt.Sprintf("; but under bf16 autocast batch norm leaves cuDNN (%d launches, %s of the time) for PyTorch's slower kernels", launchesOf(bn), pct(sbn))
			fix += "; with batch norm in the model, fp16 autocast (dtype=torch.float16" + scaler + ") keeps cuDNN's batch norm"
			if gain <= 0 {
				msg = "bf16 autocast would slow this step: " + msg
			}
		}
		host, casts := autocastHost(fp32, tf32s, p.kernels("all"))
		if casts != nil && p.timeline() != nil {
			msg += "; autocast adds its casts: each of these ops casts its FP32 inputs and weights to bf16 on every call (a cast launch and its host time; in a training step autograd casts their gradients back), priced in the replay on the host and as kernels on the GPU, which on a step the host bounds can outweigh the kernels' gain"
		}
		msg += sdpaPlans(p)
		replaces, composes := []string{tf32.ID}, "with the rest, in place of tf32 on the same GEMMs"
		if !training {
			replaces, composes = append(replaces, bf16Weights.ID), "with the rest, in place of tf32 and of bf16-weights on the same GEMMs"
		}
		p.recommendRounding(analysis.Recommendation{Message: msg, Fix: fix,
			Groups: append(append(append([]*analysis.Group(nil), fp32...), tf32s...), att...), Gain: gain, Cost: cost, Basis: basis, Saves: saves,
			Lever:    &analysis.Lever{Host: host, Casts: casts},
			Replaces: replaces, Composes: composes}, "bf16's rounding (an 8-bit mantissa)")
	},
}

// conversionLatency is what a launch of cuDNN's NCHW↔NHWC conversion
// takes whatever the bytes it moves: in fixtures/host11's autocast UNet
// the conversions ran 11.5 and 10.3 µs a launch in TF32 and 9.4 and 8.5
// µs in bf16, half the bytes (7.2 and 6.7 µs that halving them left), and
// in fixtures/check6's ResNet (H100, ncu) 6.3 to 9.9 µs in FP32 and 6.4 to
// 6.5 in bf16.
const conversionLatency = 7e-6

// autocastBytes adds to saves what bf16 autocast saves of the
// memory-bound kernels it moves to bf16 beside the GEMMs: cuDNN's layout
// conversions, whose operands are then the convolutions' bf16 ones (half
// of each launch's time beyond conversionLatency, at the group's mean),
// and the activations that read the convolutions' and GEMMs' bf16
// outputs (half of their DRAM time: their op's bytes at the attainable
// bandwidth, or the DRAM counters, over the launch's time). Where the
// step normalises with GroupNorm or LayerNorm, which autocast keeps in
// FP32, the activations read FP32 outputs (host11's UNet: its SiLU after
// each GroupNorm 1.33 ms in TF32, 1.30 in bf16) and are not priced; nor
// is an activation whose bytes the capture does not give. What autocast
// keeps in FP32 (reductions, softmax, losses, the optimizer's step) and
// the kernels on inputs it does not cast stay as they are. It returns the
// groups it priced.
func (p *AppPass) autocastBytes(saves map[*analysis.Group]float64) (layout, act []*analysis.Group) {
	for _, g := range p.kernels("layout-conversion") {
		if m := g.Mean(); m > conversionLatency {
			saves[g] = 0.5 * (1 - conversionLatency/m)
			layout = append(layout, g)
		}
	}
	if len(p.kernels("fp32-norm")) > 0 {
		return layout, nil
	}
	for _, g := range p.kernels("activations") {
		if s := p.dramShare(g); s > 0 {
			saves[g] = 0.5 * s
			act = append(act, g)
		}
	}
	return layout, act
}

// dramShare is the share of a memory-bound kernel's time its DRAM bytes
// take, read on its longest launch: its op's bytes at the attainable
// bandwidth (a trace with shapes), or its DRAM throughput over the
// ceiling (the counters); 0 where the capture gives neither.
func (p *AppPass) dramShare(g *analysis.Group) float64 {
	if k := g.Rep; k != nil && k.Record != nil {
		if f, d := analysis.OpFloor(k), k.Record.Duration; f > 0 && d > 0 {
			return min(1, f/d)
		}
	}
	if m, ok := p.Value(g, "dram_utilization"); ok {
		return clamp01(m / 100 / ceiling[analysis.LimitDRAM])
	}
	return 0
}

// Under bf16 autocast each eligible op casts its FP32 inputs and weights
// to bf16 on every call (aten::_to_copy), and the ops autocast keeps in
// FP32 (group and layer norm) cast theirs back: in fixtures/host11's
// autocast UNet 2.8 casts a convolution, 2.3 a linear, one a group norm.
// In a training step autograd records each forward cast, and its
// backward casts the gradient back (a ToCopyBackward0 node dispatching
// aten::_to_copy: 233 a step in fixtures/host22's ddpm against 234
// forward casts), so the backward's ops are charged the same casts as the
// forward's. The replay prices each as a cast of the trace's
// (Lever.Casts: castLaunches of its launch's worth at castKeep).
var autocastCasts = map[kernelname.Kind]float64{
	kernelname.Convolution: 2.8,
	kernelname.GEMM:        2.3,
}

// autocastNormCasts is the cast a normalization op adds under autocast.
const autocastNormCasts = 1

// The host bf16's engines add to an FP32 op, in launches' worth, beyond
// its casts: in host11's two autocast processes, a convolution 4.15 and
// 4.27 launches' worth above FP32, its 2.8 casts 3.4 of them (a cast 1.24
// and 1.22 launches' worth as traced), a linear 3.24 and 3.22, its 2.3
// casts 2.85 and 2.80; cuDNN's bf16 engine costs less than TF32's
// (engineHostUnits: 2.7), which lays NCHW tensors out for its implicit
// GEMM.
var autocastEngineUnits = map[kernelname.Kind]float64{
	kernelname.Convolution: 0.8,
	kernelname.GEMM:        0.4,
}

// autocastHost is bf16 autocast's Lever.Host and Lever.Casts: the FP32
// convolutions' and GEMMs' ops pay bf16's engine and the casts, the TF32
// ones' the casts alone (their engine is a tensor-core one already), the
// normalizations one cast; forward and backward alike (each forward cast
// has its backward cast); nil where none is.
func autocastHost(fp32, tf32s, all []*analysis.Group) (host, casts func(string) float64) {
	units, n := map[string]float64{}, map[string]float64{}
	for _, g := range fp32 {
		if c := autocastCasts[g.Info.Kind]; c > 0 && g.Info.IsLibrary() {
			units[g.Name], n[g.Name] = autocastEngineUnits[g.Info.Kind], c
		}
	}
	for _, g := range tf32s {
		if c := autocastCasts[g.Info.Kind]; c > 0 {
			n[g.Name] = c
		}
	}
	for _, g := range all {
		if g.Info.Category == kernelname.CatNorm {
			n[g.Name] = autocastNormCasts
		}
	}
	if len(units) > 0 {
		host = func(s string) float64 { return units[s] }
	}
	if len(n) > 0 {
		casts = func(s string) float64 { return n[s] }
	}
	return host, casts
}

// bf16Weights advises 16-bit (or quantised) weights for an inference step
// whose GEMMs read FP32 weights.
var bf16Weights = &Rule{
	ID:    "bf16-weights",
	Title: "FP32 weights at inference: cast the model to bf16",
	Text: `An inference step (no backward pass, no optimizer) whose GEMMs read FP32
weights. At small batch (a decoding step) the products are matrix-vector
products bound by DRAM: every weight is read once per step, and what they gain
is bytes, not tensor-core rates: bf16 or fp16 weights halve them, int8 weights
(torchao) quarter them, int4 weights take an eighth. A compute-bound GEMM
gains the bf16 tensor-core rate as under bf16 autocast. For inference the
change is model.to(torch.bfloat16), not autocast, which casts the FP32
weights again on every call.

The gain is half of each memory-bound product's time beyond its latency (the
bytes halved; the latency stays): the shortest launch of the same kernel, the
product with the fewest bytes, or the capture's shortest launch for a kernel
launched once; and each other FP32 GEMM's time × (1 − the time left at the
bf16 rate), and FP32 fused attention as under bf16 autocast.`,
	Before: `model = Model().cuda().eval()              # FP32 weights
logits = model(tokens)`,
	After: `model = Model().cuda().eval().to(torch.bfloat16)
logits = model(tokens)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"fp32-gemm|tf32-gemm|gemv|half-gemm"},
	Optional: []string{"backward", "optimizer", "fp32-attention", "compute_throughput_pct", "dram_utilization", "timeline"},
	CheckApp: func(p *AppPass) {
		if p.training() {
			return
		}
		gemv, fp32, tf32s, half := p.kernels("gemv"), p.kernels("fp32-gemm"), p.kernels("tf32-gemm"), p.kernels("half-gemm")
		var mem, rate []*analysis.Group
		for _, g := range fp32 {
			if g.Info.Family == "cublas.gemv" {
				continue // in gemv
			}
			if p.memoryBound(g) {
				mem = append(mem, g)
			} else {
				rate = append(rate, g)
			}
		}
		mem = append(mem, gemv...)
		if th := timeOf(half); th > timeOf(fp32)+timeOf(tf32s)+timeOf(gemv) {
			p.InUse("already 16-bit weights: %d GEMM kernels run bf16 or fp16 (%s of the time)", len(half), pct(th/p.total()))
			return
		}
		// Half the bytes: half of what each launch takes beyond its
		// latency, which no fewer bytes shorten: the shortest launch of
		// the same kernel (the product with the fewest bytes), or of the
		// capture for a kernel launched once.
		bytes := map[*analysis.Group]float64{}
		floor := p.evidence().Floor()
		for _, g := range mem {
			lat := floor
			if g.Launches > 1 && g.Min > lat {
				lat = g.Min
			}
			if m := g.Mean(); m > 0 && lat == lat {
				bytes[g] = 0.5 * math.Max(0, 1-lat/m)
			}
		}
		saves := p.bf16Saves(bytes, rate, tf32s)
		if saves == nil {
			saves = bytes
		}
		var parts []string
		if len(mem) > 0 {
			parts = append(parts, fmt.Sprintf("%d matrix-vector products read FP32 weights, bound by DRAM (%d launches, %s of the time): they gain from bytes, not tensor-core rates", len(mem), launchesOf(mem), pct(timeOf(mem)/p.total())))
		}
		if n := len(rate) + len(tf32s); n > 0 {
			parts = append(parts, fmt.Sprintf("%d FP32/TF32 GEMMs run below the bf16 tensor-core rate (%s of the time)", n, pct((timeOf(rate)+timeOf(tf32s))/p.total())))
		}
		p.recommendRounding(analysis.Recommendation{Message: strings.Join(parts, "; ") + sdpaPlans(p),
			Fix:    "model.to(torch.bfloat16) (or torch.float16): the weights are stored and read in 16 bits; int8 or int4 weight-only quantisation (torchao) quarters or eighths the bytes",
			Groups: append(append(append([]*analysis.Group(nil), mem...), rate...), tf32s...), Gain: gainOf(saves, p.total()), Saves: saves,
			Lever:    &analysis.Lever{Host: engineHost(rate)},
			Basis:    "half the bytes of each memory-bound product (its time beyond its kernel's shortest launch); the bf16 tensor-core rate on the others",
			Replaces: []string{tf32.ID}, Composes: "with torch.compile, a static cache and CUDA graphs, in place of tf32 on the same GEMMs"}, "16-bit weights' rounding")
	},
}

// memoryBound reports a GEMM whose longest launch the limiter reads as
// bound by memory; without the counters, a GEMM is not.
func (p *AppPass) memoryBound(g *analysis.Group) bool {
	m, ok := p.Value(g, "dram_utilization")
	c, ok2 := p.Value(g, "compute_throughput_pct")
	return ok && ok2 && m > c
}

// bf16Saves adds to saves what bf16 saves of FP32 GEMMs (their time at the
// bf16 tensor-core rate, bounded by half their DRAM traffic) and of TF32
// ones (the TF32 over the bf16 rate); nil where the GPU table has no
// rates for the capture's GPU.
func (p *AppPass) bf16Saves(saves map[*analysis.Group]float64, fp32, tf32 []*analysis.Group) map[*analysis.Group]float64 {
	ratio, bf16 := p.tensorRates()
	if bf16 == 0 || ratio == 0 {
		return nil
	}
	if saves == nil {
		saves = map[*analysis.Group]float64{}
	}
	for _, g := range fp32 {
		saves[g] = 1 - p.mathRest(g, bf16, 0.5)
	}
	for _, g := range p.kernels("fp32-attention") {
		saves[g] = 1 - p.attentionRest(g, ratio, bf16)
	}
	return saving(saves, 1-ratio/bf16, tf32...)
}

// fastF32Passes is how many TF32 products PyTorch's memory-efficient
// attention makes of each FP32 one from compute capability 8.0 (CUTLASS's
// OpMultiplyAddFastF32, 3xTF32: big×big, big×small and small×big), so
// that its FP32 products run at a third of the TF32 tensor-core rate,
// whatever allow_tf32 says: TF32 leaves it as it is (fixtures/host8's
// and host11's UNet: 446 µs a launch in TF32, 449 in FP32).
const fastF32Passes = 3

// attentionWave is the blocks an SM holds of PyTorch's FP32
// memory-efficient attention forward (its launch bounds' kMinBlocksPerSm:
// 12 warps an SM over 4 a block).
const attentionWave = 3

// attentionRest is the share of an FP32 memory-efficient attention
// kernel's time left in 16 bits: SDPA then picks FlashAttention or
// cuDNN's fused attention, whose products run once at the bf16 rate, not
// three times at the TF32 rate, the softmax between them kept on chip as
// before: the time scales by the rates (1/6 on an H100 or H200), bounded
// below by half its DRAM traffic where the export has it. Measured on
// fixtures/host19's ViT (31.4 ms of fmha_cutlass f32 kernels in four
// steps, 5.0 ms of cuDNN's flash kernels under autocast: 0.16) and
// host11's UNet forward (449 µs a launch, 41 µs: 0.09). A grid of no more
// than one wave (attentionWave blocks an SM) is one pass of a tile on
// each SM, bound by that tile's latency (its loads, one product, its
// store), not by the products' rate: left as it is (fixtures/check's
// small ViT, 192 blocks on 132 SMs: 96.5 µs of fmha kernels, 65.3 µs of
// cuDNN's in bf16, where the rates say 16).
func (p *AppPass) attentionRest(g *analysis.Group, tf32, bf16 float64) float64 {
	if k := g.Rep; k != nil && k.Record != nil && k.Spec != nil && k.Spec.SMs > 0 {
		if n := k.Record.Grid.Size(); n > 0 && n <= attentionWave*k.Spec.SMs {
			return 1
		}
	}
	rest := tf32 / (fastF32Passes * bf16)
	if m, ok := p.Value(g, "dram_utilization"); ok {
		rest = math.Max(rest, 0.5*m/100/ceiling[analysis.LimitDRAM])
	}
	return clamp01(rest)
}
