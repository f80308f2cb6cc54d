package rules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// The bytes a foreach optimizer step moves over what the fused one does,
// in tensor passes (a read or a write of one parameter-sized tensor).
// AdamW's foreach step (torch.optim._multi_tensor_adamw): the weight decay
// (2), lerp of the first moment (3), the second moment's mul and addcmul
// (2 + 3: addcmul_(grad, grad) reads the one gradient twice, from DRAM
// once; its kernel takes the lerp's time, not the addcdiv's, on
// fixtures/pytorch2's tf, check7's train and host38's retr), sqrt,
// division and eps of the denominator (2 + 2 + 2), and addcdiv into the
// parameter (4): 20; Adam without weight decay makes no decay pass, 18,
// and Adam's L2 decay adds the parameters to the gradient out of place
// (3), 21 (adamPasses). Fused it reads the parameter, the gradient and
// both moments and writes three: 7. SGD with momentum: the buffer's mul
// and add (2 + 3) and the parameter's add (3): 8; fused 5.
const (
	adamWForeachPasses, adamForeachPasses, adamFusedPasses = 20.0, 18.0, 7.0
	sgdForeachPasses, sgdFusedPasses                       = 8.0, 5.0
)

// adamPasses is the tensor passes of the Adam step foreach makes, by its
// kernels: 18, and the weight decay's where they show it: AdamW's
// decoupled decay multiplies the parameters by a scalar (the scalar
// multiply's kernel launched twice for each launch of the eps's scalar
// add, both over one tensor list), Adam's L2 decay adds the parameters
// to the gradient (a list-and-alpha kernel). Where no scalar add shows
// (another build of the step), AdamW's 20.
func adamPasses(foreach []*analysis.Group) float64 {
	mul, add, l2 := 0, 0, false
	for _, g := range foreach {
		switch {
		case strings.Contains(g.Name, "BinaryOpScalarFunctor") && strings.Contains(g.Name, "multiplies"):
			mul += g.Launches
		case strings.Contains(g.Name, "BinaryOpScalarFunctor") && strings.Contains(g.Name, "plus"):
			add += g.Launches
		case strings.Contains(g.Name, "BinaryOpListAlphaFunctor"):
			l2 = true
		}
	}
	switch {
	case add == 0 || 2*mul >= 3*add:
		return adamWForeachPasses
	case l2:
		return adamForeachPasses + 3
	}
	return adamForeachPasses
}

// multiTensors is how many tensors of each list one multi-tensor launch
// of a fused optimizer takes (PyTorch's multi_tensor_apply: 36 at four
// lists, parameter, gradient and Adam's two moments; 48 at three, SGD's
// momentum or Adagrad's sum), by the optimizer's class, lower-case.
var multiTensors = map[string]float64{"adam": 36, "adamw": 36, "sgd": 48, "adagrad": 48}

// minPerParameter is the fewest parameters a step's most launched kernel
// runs over to call it a per-parameter (for-loop) step: a foreach or
// fused step launches each kernel once per chunk of tensors.
const minPerParameter = 8

// fusedOptimizer advises the fused implementation of the optimizer the
// kernels show.
var fusedOptimizer = &Rule{
	ID:    "fused-optimizer",
	Title: "Foreach optimizer: use the fused one",
	Text: `PyTorch's default (foreach) optimizers run the update as a kernel per
operation over the parameter lists: each reads and writes every parameter-sized
tensor it touches. The fused implementations (fused=True: Adam, AdamW, SGD,
Adagrad) do the whole update in one kernel per list, reading the parameter,
its gradient and the optimizer state once and writing them once. The rule
names the optimizer the kernels show (Adam's square root and lerp, SGD's
momentum add); where fused optimizer kernels already run, it says so.

The gain is the foreach kernels' time × (1 − fused passes / foreach passes):
AdamW 1 − 7/20, Adam without weight decay 1 − 7/18, SGD with momentum
1 − 5/8 (tensor reads and writes per parameter; Adam's addcmul reads
the one gradient twice, from DRAM once).

A for-loop step (foreach=False, or a tensor list PyTorch does not group)
runs each operation as its own launch per parameter: the trace's
Optimizer.step#… range shows it, its launches many times the kernels' kinds,
its host time the Python loop and the launches. Priced by replaying the step
(docs/replay.md) with that range's host time replaced by the fused step's few
multi-tensor launches (a launch's worth each), its kernels' time above the
launch floor kept at the fused passes' share, the floor paid once a launch.

Under torch.amp.GradScaler, scaler.step(opt) reads found_inf on the host
(.item() in GradScaler's _maybe_opt_step) before it steps an optimizer that
does not take the scaler; a fused one (fused=True) is handed the scale and
found_inf on the device and the read goes: the replay no longer waits for it,
and the host runs ahead. The trace shows the read by GradScaler's frame
(with_stack).`,
	Before:   `opt = torch.optim.AdamW(model.parameters(), lr=1e-3)`,
	After:    `opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=True)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"foreach-optimizer|fused-optimizer|timeline"},
	Optional: []string{"optimizer"},
	CheckApp: func(p *AppPass) {
		if f := p.kernels("fused-optimizer"); len(f) > 0 {
			p.InUse("already fused: the optimizer runs %s", f[0].Info.Display)
			return
		}
		foreach := optimizerOwn(p, p.kernels("foreach-optimizer"))
		if len(foreach) == 0 {
			perParameter(p)
			return
		}
		adam := false
		for _, g := range foreach {
			lower := strings.ToLower(g.Name)
			adam = adam || strings.Contains(lower, "sqrt") || strings.Contains(lower, "lerp") || strings.Contains(lower, "divides")
		}
		class, f := "SGD(..., fused=True)", 1-sgdFusedPasses/sgdForeachPasses
		if adam {
			class, f = "Adam/AdamW(..., fused=True)", 1-adamFusedPasses/adamPasses(foreach)
		}
		saves := saving(nil, f, foreach...)
		rec := analysis.Recommendation{
			Message: fmt.Sprintf("the optimizer step runs as %d foreach kernels (%d launches, %s of the time), each reading and writing the parameter lists once", len(foreach), launchesOf(foreach), pct(timeOf(foreach)/p.total())),
			Fix:     fmt.Sprintf("torch.optim.%s runs the whole update in one kernel per tensor list", class),
			Groups:  foreach, Gain: gainOf(saves, p.total()), Saves: saves,
			Basis:    fmt.Sprintf("%.0f%% of the foreach kernels' time: the tensor passes the fused kernel no longer makes", 100*f),
			Composes: "with everything",
		}
		if lever, reg, ok := foreachCollapse(p, foreach, 1-f); ok {
			// The trace marks the step: its host (the foreach
			// step's Python and its multi-tensor ops' launches)
			// becomes the fused step's launches, replayed; and
			// GradScaler's read of found_inf goes with it.
			scaled := scalerReads(p, &lever, &rec)
			if gain, ok := p.replay(lever); ok {
				rec.Lever = &lever
				rec.Basis = collapseBasis(reg, lever.Collapse.Launches, 1-f) + scaled
				p.recommendWall(rec, gain)
				return
			}
		}
		p.Recommend(rec)
	},
}

// optimizerOwn keeps the multi-tensor kernels gs that the optimizer
// launches: where the trace marks its steps (PyTorch's Optimizer.step#…
// ranges), those launched inside them; a multi-tensor kernel launched
// outside (per-parameter gradient clipping's _foreach_norm and
// _foreach_mul_, fixtures/host17's log step) is not the optimizer's.
// Without the ranges, every one.
func optimizerOwn(p *AppPass, gs []*analysis.Group) []*analysis.Group {
	regs := p.timeline().Regions(analysis.OptimizerStep)
	if len(regs) == 0 {
		return gs
	}
	var own []*analysis.Group
	for _, g := range gs {
		for _, reg := range regs {
			if reg.Kernels[g.Name] > 0 {
				own = append(own, g)
				break
			}
		}
	}
	return own
}

// foreachCollapse is the lever of a foreach step made fused, where the
// trace marks it (PyTorch's Optimizer.step#… range holding the foreach
// kernels): the range's host time, the foreach step's Python (grouping
// the tensors by device and dtype, the bias corrections) and each
// multi-tensor op's dispatch over its lists, becomes the fused step's
// launches, one a chunk of tensors (the most launched foreach kernel's
// launches a step) and one for the step counts; the range's kernels keep
// their time above the launch floor at bytes, the fused passes' share.
func foreachCollapse(p *AppPass, foreach []*analysis.Group, bytes float64) (analysis.Lever, analysis.Region, bool) {
	for _, reg := range p.timeline().Regions(analysis.OptimizerStep) {
		if reg.Count == 0 || reg.Launches == 0 {
			continue
		}
		chunks := 0
		for _, g := range foreach {
			chunks = max(chunks, reg.Kernels[g.Name])
		}
		if chunks == 0 {
			continue
		}
		floor := p.evidence().Floor()
		if math.IsNaN(floor) {
			floor = 0
		}
		after := math.Ceil(float64(chunks)/float64(reg.Count)) + 1
		return analysis.Lever{Collapse: &analysis.Collapse{Range: reg.Name, Launches: after, Floor: floor, Bytes: bytes}}, reg, true
	}
	return analysis.Lever{}, analysis.Region{}, false
}

// scalerReads adds to lever the loop's reads of GradScaler's found_inf
// (syncScaler): an optimizer built with fused=True takes the scaler's
// scale and found_inf on the device (PyTorch's
// _step_supports_amp_scaling), and GradScaler.step no longer reads
// found_inf with .item() before stepping it. It says so at the end of
// rec's message and returns what the basis adds; "" where the step
// holds no such read.
func scalerReads(p *AppPass, lever *analysis.Lever, rec *analysis.Recommendation) string {
	sites, _ := p.loopSyncs(syncScaler)
	if len(sites) == 0 {
		return ""
	}
	lever.Drop = dropSites(sites)
	rec.Fix += "; under torch.amp.GradScaler, scaler.step(opt) then hands the fused step found_inf and reads nothing on the host (capturable=True as well lets a CUDA graph hold the optimizer's step)"
	rec.Message += fmt.Sprintf("; GradScaler.step reads found_inf on the host before it steps the optimizer (%s), a read no user code makes and none can make less often: a fused optimizer is handed found_inf on the device, and the read goes", siteList(sites))
	return ", and GradScaler's read of found_inf no longer waited for: the host runs ahead"
}

// collapseBasis says what the replay of optimizer range reg collapsed
// into launches takes off the host: where the trace holds PyTorch's
// frames, the update's (Region.Update), the rest of the range kept;
// else the range's whole host, which takes what the fused step still
// runs too: an upper bound, said.
func collapseBasis(reg analysis.Region, launches, bytes float64) string {
	steps := float64(max(reg.Count, 1))
	what := fmt.Sprintf("%s's update (%.2f ms of its %.2f ms of host a step, as replayed; Optimizer.step's wrapper and _init_group's loop over the parameters, which the fused step runs too, kept)", reg.Name, 1e3*reg.Update/steps, 1e3*reg.Host/steps)
	if !(reg.Update > 0) {
		what = fmt.Sprintf("%s's whole host (%.2f ms a step, as replayed: the trace holds none of PyTorch's optimizer frames, with_stack=False, so what the fused step still runs, Optimizer.step's wrapper and _init_group's loop over the parameters, is taken too: an upper bound)", reg.Name, 1e3*reg.Host/steps)
	}
	return fmt.Sprintf("the step replayed with %s collapsed into %.0f launches (a launch's worth of host each), its kernels' time above the launch floor kept at %.0f%%", what, launches, 100*bytes)
}

// perParameter advises a fused (or foreach) optimizer where the trace's
// optimizer step runs per parameter: PyTorch's Optimizer.step#… range
// launches each of its kernels once a parameter, none of them a
// multi-tensor one. Priced by replaying the step with the range
// collapsed into the fused step's launches (analysis.Collapse).
func perParameter(p *AppPass) {
	tl := p.timeline()
	multi := map[string]bool{}
	for _, g := range p.kernels("optimizer") {
		multi[g.Name] = true
	}
	for _, reg := range tl.Regions(analysis.OptimizerStep) {
		if reg.Count == 0 || reg.Launches == 0 {
			continue
		}
		steps := float64(reg.Count)
		top, kinds := 0, 0
		for name, n := range reg.Kernels {
			if multi[name] {
				top = 0
				break
			}
			top, kinds = max(top, n), kinds+1
		}
		params := float64(top) / steps
		if params < minPerParameter {
			continue
		}
		class, _, _ := strings.Cut(strings.TrimPrefix(reg.Name, analysis.OptimizerStep), ".")
		lower := strings.ToLower(class)
		arg, bytes, after := "foreach=True", 1.0, 0.0
		if per, ok := multiTensors[lower]; ok {
			// One fused launch a chunk of tensors, and the step
			// counts' increment.
			arg, after = "fused=True", math.Ceil(params/per)+1
			switch lower {
			case "adam":
				bytes = adamFusedPasses / adamForeachPasses
			case "adamw":
				bytes = adamFusedPasses / adamWForeachPasses
			case "sgd":
				bytes = sgdFusedPasses / sgdForeachPasses
			}
		} else {
			// Each operation one foreach launch a chunk.
			after = float64(reg.Launches) / steps / params * math.Ceil(params/48)
		}
		floor := p.evidence().Floor()
		if math.IsNaN(floor) {
			floor = 0
		}
		lever := analysis.Lever{Collapse: &analysis.Collapse{Range: reg.Name, Launches: after, Floor: floor, Bytes: bytes}}
		var rec analysis.Recommendation
		scaled := ""
		if arg == "fused=True" {
			scaled = scalerReads(p, &lever, &rec)
		}
		gain, ok := p.replay(lever)
		if !ok || gain < 0.01 {
			continue
		}
		var groups []*analysis.Group
		for _, g := range p.kernels("all") {
			if reg.Kernels[g.Name] > 0 {
				groups = append(groups, g)
			}
		}
		ops := make([]string, 0, len(reg.Ops))
		for op := range reg.Ops {
			ops = append(ops, op)
		}
		slices.SortFunc(ops, func(a, b string) int { return cmp.Or(cmp.Compare(reg.Ops[b], reg.Ops[a]), cmp.Compare(a, b)) })
		if len(ops) > 4 {
			ops = append(ops[:4], fmt.Sprintf("%d more", len(reg.Ops)-4))
		}
		kept := math.Max(0, reg.Kernel-floor*float64(reg.Launches))*bytes + floor*after*steps
		where := ""
		if reg.Frame != "" {
			where = " at " + reg.Frame
		}
		r, _ := tl.Replay(analysis.Lever{})
		p.recommendWall(analysis.Recommendation{
			Message: fmt.Sprintf("the optimizer steps one parameter at a time: %s%s issues %.0f launches a step (%d kernels over %.0f parameters: %s), about %.2f ms of host a step of %.2f ms (the trace's host time scaled to an unprofiled host) and %.0f µs of kernels",
				reg.Name, where, float64(reg.Launches)/steps, kinds, params, strings.Join(ops, ", "), 1e3*reg.Host/steps, 1e3*r.Base, 1e6*reg.Kernel/steps) + rec.Message,
			Fix: fmt.Sprintf("torch.optim.%s(..., %s) where the optimizer is built (stepped%s): PyTorch's for-loop update (foreach=False, _single_tensor_%s) becomes about %.0f multi-tensor launches a step",
				class, arg, where, lower, after) + rec.Fix,
			Groups: groups, Gain: math.Max(0, reg.Kernel-kept) / p.total(), Lever: &lever,
			Basis:    collapseBasis(reg, after, bytes) + scaled,
			Composes: "with everything; under CUDA graphs its launches cost no host",
		}, gain)
	}
}
