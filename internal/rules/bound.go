package rules

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// boundOf places a kernel on the roofline from the analysis's one
// limiter: "memory", "compute", "latency" or "" when the export lacks what
// it takes. The rules never decide a side of their own.
func boundOf(p *Pass) (string, string) {
	l := p.Kernel.Limiter
	switch l.Unit {
	case analysis.LimitLatency:
		return l.Bound(), "no unit near its peak (" + l.Evidence + ")"
	case analysis.LimitLaunch:
		return l.Bound(), "launch size (" + l.Evidence + ")"
	case analysis.LimitAtomics:
		return l.Bound(), "contended atomics (" + l.Evidence + ")"
	}
	return l.Bound(), l.String() + " limits it (" + l.Evidence + ")"
}

var boundRequires = []string{"memory_throughput_pct|compute_throughput_pct|instruction_byte_ratio|sm_count"}

// boundEvidence is what the three roofline rules quote.
var boundEvidence = []string{"memory_throughput_pct", "compute_throughput_pct", "instruction_byte_ratio", "machine_balance",
	"dram_peak_pct", "arithmetic_intensity", "achieved_occupancy", "waves_per_sm"}

// onRoof is the check of a roofline rule: a note when the kernel is on
// side's roof, with the advice for it and the counters it quotes.
func onRoof(side string, advice func(*Pass) string, evidence ...string) func(*Pass) {
	return func(p *Pass) {
		b, why := boundOf(p)
		if b != side {
			return
		}
		// The roofline says where the kernel is, not what a change would
		// buy: the gain belongs to the rules that name a fix.
		p.report(unknownGain, Note{
			Message:  side + "-bound: " + why,
			Advice:   advice(p),
			Evidence: p.evidence(evidence...),
		})
	}
}

// bound is the speed-of-light percentage the analysis's limiter compares
// with (analysis.Options.Bound), which the bound rules state.
var bound = percent("bound")

// memoryBound places the kernel under the memory roof.
var memoryBound = &Rule{
	ID:    "memory-bound",
	Title: "Memory-bound kernel",
	Text: `The kernel moves more bytes per instruction than the GPU's balance point: its
speed is set by memory bandwidth. Gains come from moving fewer bytes (coalescing,
reuse through shared memory, smaller types), not from faster arithmetic.`,
	Before:     `y[i] = a * x[i] + y[i];        // 12 bytes per 2 FLOPs`,
	After:      `// fuse with the producer/consumer kernel so x and y are read once`,
	Severity:   profan.Info,
	Cause:      CauseMemory,
	Scope:      Source,
	Library:    fewerBytes,
	Thresholds: []*Threshold{bound},
	Requires:   boundRequires,
	Optional:   boundEvidence,
	Check: onRoof("memory", func(*Pass) string {
		return "reduce the bytes moved: fix uncoalesced accesses first, reuse data through shared memory or registers, use smaller types, or fuse kernels"
	}, "memory_throughput_pct", "compute_throughput_pct", "instruction_byte_ratio", "machine_balance", "dram_peak_pct", "arithmetic_intensity"),
}

// computeBound places the kernel under the compute roof.
var computeBound = &Rule{
	ID:    "compute-bound",
	Title: "Compute-bound kernel",
	Text: `The kernel executes more instructions per byte than the GPU's balance point: its
speed is set by instruction throughput. Gains come from fewer or cheaper
instructions (fused multiply-add, lower precision, tensor cores, less index
arithmetic).`,
	Before:     `for (...) acc += a[i] * b[i];   // FMUL + FADD`,
	After:      `for (...) acc = fmaf(a[i], b[i], acc);`,
	Severity:   profan.Info,
	Cause:      CauseCompute,
	Scope:      Source,
	Library:    fewerFLOPs,
	Thresholds: []*Threshold{bound},
	Requires:   boundRequires,
	Optional:   boundEvidence,
	Check: onRoof("compute", func(p *Pass) string {
		if !anyTensorCores(p.Kernel) {
			return "reduce or cheapen instructions: use FMA, lower precision where accuracy allows, and hoist index arithmetic out of loops"
		}
		return "reduce or cheapen instructions: use FMA, lower precision or tensor cores where accuracy allows, and hoist index arithmetic out of loops"
	}, "memory_throughput_pct", "compute_throughput_pct", "instruction_byte_ratio", "machine_balance"),
}

// latencyBound reports kernels that reach neither roof.
var latencyBound = &Rule{
	ID:    "latency-bound",
	Title: "Latency-bound kernel",
	Text: `Neither memory nor compute throughput is near its peak: warps spend their time
waiting. More independent work in flight (more warps, more blocks, several
loads issued before their use) hides the latency.`,
	Before:     `kernel<<<4, 128>>>(...)`,
	After:      `kernel<<<numSMs * 4, 256>>>(...)  // and unroll independent loads`,
	Severity:   profan.Info,
	Cause:      CauseLaunch,
	Scope:      Source,
	Library:    moreWork,
	Thresholds: []*Threshold{bound},
	Requires:   boundRequires,
	Optional:   boundEvidence,
	Check: func(p *Pass) {
		// Only kernels that wait for work in flight: atomics on one address
		// (ncu's latency side too) wait for the L2, and atomic-serialization
		// says what to do about them.
		if u := p.Kernel.Limiter.Unit; u != analysis.LimitLatency && u != analysis.LimitLaunch {
			return
		}
		_, why := boundOf(p)
		msg := "latency-bound: " + why
		if p.Kernel.Limiter.Unit == analysis.LimitLaunch {
			msg = "latency-bound: limited by its " + why
		}
		p.report(unknownGain, Note{
			Message:  msg,
			Advice:   "put more independent work in flight: more blocks and warps, fewer dependent loads, loop unrolling with loads issued early",
			Evidence: p.evidence("memory_throughput_pct", "compute_throughput_pct", "achieved_occupancy", "waves_per_sm"),
		})
	},
}

// anyTensorCores reports whether the kernel's GPU has tensor cores of any
// kind. Unknown counts as none: advice names only what the GPU is known to
// have.
func anyTensorCores(a *analysis.Kernel) bool { return tensorCores(a).Any() }

// tensorCores are the tensor cores of the kernel's GPU, by the compute
// capability the export gives or else the GPU it was identified as.
func tensorCores(a *analysis.Kernel) gpumodel.TensorCores {
	cc := a.Record.CC
	if cc == "" && a.Spec != nil {
		cc = a.Spec.CC
	}
	return gpumodel.TensorCoresOf(cc)
}
