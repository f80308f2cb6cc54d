package rules

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/kernelname"
)

// hostTime is hostTime of the pass's capture.
func (p *AppPass) hostTime() float64 {
	p.kernels("all")
	return hostTime(p.ev, p.Thresholds)
}

var (
	hostLaunch = positive("host_launch")
	tinyLaunch = positive("tiny_launch")
	gpuBusy    = share("gpu_busy")
)

// cudaGraphs advises capturing a launch-bound step in a CUDA graph.
var cudaGraphs = &Rule{
	ID:    "cuda-graphs",
	Title: "Launch-bound step: capture it in a CUDA graph",
	Text: `When the kernels are short, the host cannot launch them as fast as the GPU
runs them: the GPU waits between kernels, and the step's wall time is the
host's. A CUDA graph (torch.cuda.CUDAGraph, or torch.compile with
mode="reduce-overhead") records the step's launches once and replays them in
one call, so the wall time falls back to the kernels'. It needs static shapes
and addresses (a static key/value cache for decoding). A GPU-bound step (the
GPU busy at least gpu_busy of the time) gains nothing from it and is not
advised.

Priced in wall time: on a timeline (a PyTorch profiler trace, nsys), the
launch-bound idle time, the gaps the host's launches leave between kernels,
which a replayed graph closes; where the step already launches graphs the rule
says so. A kernel profiler's export holds no timeline: the host's
time is then estimated as the launches × host_launch (the cost of one eager
PyTorch launch), and the wall time as the larger of it and the kernels' time;
the text says it is an estimate, and that torch.profiler (or nsys) measures it.`,
	Before: `for _ in range(tokens):
    logits = model(tok, pos)          # hundreds of small launches per token`,
	After: `g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    logits = model(static_tok, static_pos)
for _ in range(tokens):
    g.replay()                         # or model = torch.compile(model, mode="reduce-overhead")`,
	Severity:   profan.Info,
	Cause:      CauseOwn,
	Scope:      Caller,
	Thresholds: []*Threshold{hostLaunch, gpuBusy},
	Requires:   []string{"all"},
	Optional:   []string{"timeline"},
	CheckApp: func(p *AppPass) {
		if tl := p.timeline(); tl != nil {
			graphsTimed(p, tl)
			return
		}
		all := p.kernels("all")
		n, k := launchesOf(all), p.total()
		if n < 20 {
			return
		}
		h := p.hostTime()
		if !(h > k) || k/h >= p.Thresholds.GPUBusy {
			return
		}
		wall := 1 - k/h
		p.recommendWall(analysis.Recommendation{
			Message: fmt.Sprintf("%d launches average %.1f µs: launching them (about %.2f ms at %.0f µs each) takes longer than running them (%.2f ms), so the GPU waits on the host (an estimate: this export holds no timeline; torch.profiler or nsys measures it)",
				n, 1e6*k/float64(n), 1e3*h, 1e6*p.Thresholds.HostLaunch, 1e3*k),
			Fix:      p.framework(graphsTorch, graphsCUDA),
			Basis:    fmt.Sprintf("wall time from the host's launch time to the kernels' (estimated: %.0f µs a launch)", 1e6*p.Thresholds.HostLaunch),
			Composes: "with the kernel-time changes, which then show in the wall time; needs static shapes (a static cache)",
		}, wall)
	},
}

// largerBatch advises more work per launch for a step of tiny kernels.
var largerBatch = &Rule{
	ID:    "larger-batch",
	Title: "Every kernel is tiny: a larger batch",
	Text: `When nearly all of a step's kernel time is in launches shorter than
tiny_launch, the GPU runs each kernel on a fraction of its SMs and the host's
launches set the pace: a larger batch (more sequences decoded together, more
samples per step) does more work per launch at almost the same wall time. The
gain is priced per sample, in wall time, for twice the batch: the host's
launch time stays, the kernels' time doubles, so the time per sample falls to
max(host, 2 × kernels) / (2 × max(host, kernels)); on a timeline the host's
time is the span and the kernels' the GPU's busy time, else the host's time is
estimated from the launches. On a timeline the host's per-sample work, the
data loading the step's thread waits for (a DataLoader that loads in the
main process), doubles with the batch: of the span, only the rest is held,
so the time per sample is (2 × data + max(span − data, 2 × busy)) / (2 × span).`,
	Before:     `out = model(x[:1])`,
	After:      `out = model(x[:8])     # or batch requests together`,
	Severity:   profan.Info,
	Cause:      CauseOwn,
	Scope:      Caller,
	Thresholds: []*Threshold{hostLaunch, tinyLaunch},
	Requires:   []string{"all"},
	Optional:   []string{"timeline"},
	CheckApp: func(p *AppPass) {
		all := p.kernels("all")
		tiny := 0.0
		for _, g := range all {
			if g.Mean() < p.Thresholds.TinyLaunch {
				tiny += g.Duration
			}
		}
		k := p.total()
		if launchesOf(all) < 20 || tiny/k < 0.9 {
			return
		}
		tinyShare := tiny / k // of the kernel time, before k becomes the busy time
		// The step's time: the span on a timeline, where the kernels take
		// the busy time; else the estimated host launch time.
		h, basis := math.Max(p.hostTime(), k), "per sample, for twice the batch: the host's launch time stays, the kernels' doubles (host time estimated)"
		data := 0.0 // per-sample host time, which doubles with the batch
		if tl := p.timeline(); tl != nil && tl.Span > 0 {
			h, k, basis = tl.Span, math.Min(k, tl.Busy), "per sample, for twice the batch: the step's span stays, the GPU's busy time doubles"
			// Data loading on the step's thread is per sample: a
			// main-process loader's __getitem__ and collate run twice as
			// long (fixtures/host37 sent: 23.3% of the traced wall).
			if data = math.Min(tl.IdleOf(analysis.IdleData).Seconds, h); data > 0 {
				basis = "per sample, for twice the batch: the step's span but its data loading stays, the data loading and the GPU's busy time double"
			}
		}
		wall := 1 - (2*data+math.Max(h-data, 2*k))/(2*h)
		r := analysis.Recommendation{
			Message: fmt.Sprintf("%s of the kernel time is in launches shorter than %.0f µs: each fills a fraction of the GPU", pct(tinyShare), 1e6*p.Thresholds.TinyLaunch),
			Fix:     "a larger batch (more samples per step, more sequences decoded together) does more work per launch for about the same wall time",
			Groups:  nil, Basis: basis,
			Composes: "with CUDA graphs, which remove the launch time it amortises",
		}
		if data > 0 {
			// Its price holds the step's thread loading twice the data,
			// the time data-loader takes off that thread at the same
			// batch: the loader first (fixtures/host37's sent, its
			// workers measured first; a larger batch changes the
			// training, and is priced per sample).
			r.After = []string{"data-loader"}
			r.Composes = "after data-loader, which takes the loading a larger batch doubles off the step's thread; with CUDA graphs, which remove the launch time it amortises"
		}
		p.recommendWall(r, wall)
	},
}

// recommendWall adds a recommendation priced in wall time: wall is the
// share of the step's wall time saved.
func (p *AppPass) recommendWall(r analysis.Recommendation, wall float64) {
	r.Rule = p.rule.ID
	r.WallGain = wall
	p.out = append(p.out, r)
}

// graphsTimed prices CUDA graphs on the step's timeline: the launch-bound
// idle time is what a replayed graph gives back.
func graphsTimed(p *AppPass, tl *analysis.Timeline) {
	if tl.HostLaunch.Graphs > 0 {
		p.InUse("already CUDA graphs: %d cudaGraphLaunch calls replay the step's kernels", tl.HostLaunch.Graphs)
		return
	}
	if tl.BusyShare >= p.Thresholds.GPUBusy || !(tl.Span > 0) {
		return
	}
	if sites, _ := p.loopSyncs(syncShape); len(sites) > 0 {
		// Data-dependent shapes: no graph holds the step; its sync's own
		// lever (host-read) comes first.
		uncapturable(p, fmt.Sprintf("it reads GPU values to size its tensors every step (%s), so its shapes change and the host must wait", siteList(sites)),
			"keep those counts on the GPU (see host-read)", "host-read", sites, analysis.Lever{Drop: dropSites(sites), Pad: true})
		return
	}
	if sites, _ := p.loopSyncs(syncArg); len(sites) > 0 {
		// An op that reads its arguments back every step (F.ctc_loss's
		// lengths and targets on the GPU): the copy back and its wait
		// cannot be captured; its own lever (host-read) comes first.
		uncapturable(p, fmt.Sprintf("an op reads its arguments back from the GPU every step (%s), and a capture cannot hold the copy back and its wait", siteList(sites)),
			"pass those arguments from the host (see host-read)", "host-read", sites, analysis.Lever{DropReads: dropSites(sites)})
		return
	}
	if sites := devSyncsInside(p); len(sites) > 0 {
		// A device sync several times inside the step (a timer's or a
		// hook's torch.cuda.synchronize): capture fails on it, and the
		// regions between are too many to graph one by one; its own
		// lever (cuda-synchronize, or host-sync) comes first
		// (fixtures/host19 hook: 32 a step).
		rule := "cuda-synchronize"
		if !p.ev.PyTorch() {
			rule = "host-sync"
		}
		uncapturable(p, fmt.Sprintf("the host synchronises the device inside it, several times a step (%s), and a capture cannot hold a synchronize", siteList(sites)),
			"remove those synchronizes from the step (see "+rule+"; time with CUDA events)", rule, sites, analysis.Lever{Drop: dropSites(sites)})
		return
	}
	split, loops, after := splitting(p)
	idle := tl.IdleOf(analysis.IdleLaunch)
	// A graph replaces the host's work of the captured region: the
	// launches and the Python around them.
	py := tl.IdleOf(analysis.IdlePython)
	if idle.Seconds+py.Seconds <= 0 {
		return
	}
	msg := fmt.Sprintf("the GPU is busy %s of the step's %.2f ms: %s of it is launch-bound, gaps the host's %d launches leave between kernels", pct(tl.BusyShare), 1e3*tl.Span, pct(idle.Seconds/tl.Span), tl.LaunchCount)
	if len(split) > 0 {
		msg = fmt.Sprintf("CUDA graphs cannot capture this step whole: the host waits inside it, between its launches, every step (%s), so a graph holds only the regions between those syncs; ", siteList(split)) + msg
	}
	if len(loops) > 0 {
		_, steps := p.loopSyncs(syncValue)
		msg = fmt.Sprintf("CUDA graphs cannot capture this step whole: the host reads a GPU value inside a loop of the step, about %d times a step (%s), so a graph holds only the loop's body between two reads; ",
			loops[0].Count/max(steps, 1), siteList(loops)) + msg
	}
	if py.Seconds > 0 {
		msg += fmt.Sprintf(", and %s the Python around them", pct(py.Seconds/tl.Span))
	}
	if hl := tl.HostLaunch; hl.Calls > 0 && hl.Mean == hl.Mean {
		msg += fmt.Sprintf(" (%.1f µs of host time per launch call, beside the framework's own)", 1e6*hl.Mean)
	}
	if p.evidence().Traced() {
		msg += "; a profiler that records every op slows the host, so the unprofiled step loses less: an upper bound"
	}
	// An op's CPU compute on the step's thread (analysis.CPUOps): a
	// graph replays GPU work only, and the replay keeps that time.
	msg += cpuKept(tl)
	wall, basis := (idle.Seconds+py.Seconds)/tl.Span, "the launch-bound idle time of the timeline, and the Python's around the launches"
	var lever *analysis.Lever
	if item := itemLoopOf(p); item.Name != "" && p.ev.PyTorch() && len(loops) == 0 {
		// A per-item loop of the user's over the batch (an
		// augmentation's crop, flip and jitter, one image at a time,
		// its parameters drawn by Python's random): a graph of it
		// would replay one draw, and its Python is the host's own
		// work. What a graph holds is the model, its forward and
		// backward (make_graphed_callables); the loop, the loss, the
		// optimizer's step and the code around the model stay eager
		// (fixtures/host21b's aug.graphed: 42.1% for the whole step,
		// measured 14.5%).
		if g, ok := p.replay(analysis.Lever{Graphs: true, Model: true}); ok {
			steps := float64(max(item.Count, 1))
			p.recommendWall(analysis.Recommendation{
				Lever: &analysis.Lever{Graphs: true, Model: true},
				Message: fmt.Sprintf("CUDA graphs cannot capture this step whole: a Python loop at %s runs over the batch's %d items one at a time (%.0f launches a step), its work set by the host's Python every step (random parameters, branches), which a captured graph would replay as one draw, so what a graph holds is the model, its forward and its backward; ",
					item.Name, loopItems(item), float64(item.Launches)/steps) + msg +
					"; the loop, the loss, the optimizer's step and the code around the model stay eager",
				Fix:      fmt.Sprintf("graph the model's forward and backward with torch.cuda.make_graphed_callables(model, (sample_input,)) (static shapes), the loop at %s, the loss and the optimizer left eager; or first do the loop on the whole batch with its random parameters drawn on the GPU (see item-loop), then capture the whole step", item.Name),
				Basis:    "the step replayed with the model's forward calls and its backward as graphs (their aten ops and Python gone), the per-item loop and the rest of the step eager as traced (docs/replay.md)",
				Composes: "after item-loop, which takes the loop's host time off the step and lets a graph hold more of it; with the kernel-time changes, which then show in the wall time; needs static shapes",
			}, g)
			return
		}
	}
	if model := scalerSplit(split) && p.ev.PyTorch(); model && len(loops) == 0 {
		// GradScaler's read splits the step: what a graph can hold
		// there is the model (make_graphed_callables), its forward and
		// backward; the scaler's unscale and read, the optimizer's
		// step and the code around the model stay eager.
		if g, ok := p.replay(analysis.Lever{Graphs: true, Model: true}); ok {
			p.recommendWall(analysis.Recommendation{
				Lever: &analysis.Lever{Graphs: true, Model: true},
				Message: fmt.Sprintf("CUDA graphs cannot capture this step whole: GradScaler reads found_inf on the host inside it, every step (%s), before it steps the optimizer, so what a graph holds is the model, its forward and its backward; ", siteList(split)) + msg +
					"; GradScaler's unscale and read, the optimizer's step and the code around the model stay eager",
				Fix:      "graph the model's forward and backward with torch.cuda.make_graphed_callables(model, (sample_input,)) (static shapes; autocast inside it), GradScaler and the optimizer left as they are; or build the optimizer with fused=True and capturable=True (see fused-optimizer: no read is left) and capture the whole step, its optimizer step in it",
				Basis:    "the step replayed with the model's forward calls and its backward as graphs (their aten ops and Python gone), the rest of the step eager as traced, the scaler's read kept (docs/replay.md)",
				Composes: "with fused-optimizer, whose fused=True (with capturable=True) lets a graph hold the whole step; with the kernel-time changes, which then show in the wall time; needs static shapes",
			}, g)
			return
		}
	}
	if g, ok := p.replay(analysis.Lever{Graphs: true}); ok {
		// The step replayed with its aten ops and Python gone: the syncs
		// it keeps still wait (the graph is captured between them).
		wall, basis, lever = g, "the step replayed with the host's aten ops and Python around the launches gone, its syncs kept (docs/replay.md)", &analysis.Lever{Graphs: true}
		if !p.evidence().Traced() {
			basis = "the step replayed with the host's launch calls gone, its syncs kept (docs/replay.md)"
		}
		if len(split) > 0 {
			basis = "the regions between the step's syncs replayed as graphs: the host's aten ops and Python in them gone, the syncs kept (docs/replay.md)"
		}
	}
	fix, composes := p.framework(graphsTorch, graphsCUDA),
		"with the kernel-time changes, which then show in the wall time; needs static shapes (a static cache)"
	var needs []string
	switch {
	case len(loops) > 0:
		// A read that bounds every iteration of a loop inside the step
		// (a solver's convergence test, a decode loop's token read):
		// the loop's body between two reads is one graph, replayed each
		// iteration with the read eager, which the replay prices (the
		// syncs kept); the read's own lever makes the loop capturable
		// whole. The ranking stays the replayed gain's: a decode loop's
		// step of 16 token reads (fixtures/timeline decode_sync) measured
		// graphs first, 80.3%, its read kept.
		fix = "capture the loop's body between two reads as one CUDA graph and replay it each iteration, the read left eager; or test the condition every N iterations, or run a fixed count (see " + strings.Join(after, ", ") + "), then capture the whole step, the loop in it: " + fix
		composes = "with " + strings.Join(after, " and ") + ", which makes the loop capturable whole; " + composes
		if lever != nil {
			basis = "the loop's body between its reads replayed as graphs: the host's aten ops and Python in it gone, the reads kept (docs/replay.md)"
		} else {
			needs = after
		}
		if s, _, ok := countRead(p); ok {
			// The loop's test is a branch the host takes on a GPU
			// value (an adaptive solver's while and accept tests):
			// how many times the body runs, and which ops follow each
			// test, are the read's; the graphs of the body between
			// the reads are replayed at the traced count and path,
			// and a capture of the loop needs its count fixed first
			// (fixtures/host29's ode: the fixed grid, step-read's
			// lever, measured first at 34.7%).
			msg += fmt.Sprintf("; the loop's test (%s) is a branch the host takes on the value, which decides how many times the body runs and which ops follow each test: the graphs are priced at the traced count and path, and the loop is captured whole once its count is fixed", siteList([]analysis.Site{s}))
			needs = after
		}
	case len(split) > 0 && lever != nil:
		// Priced on the regions between the syncs, which graphs capture
		// with the syncs kept (one graph a region, the read between them
		// eager): this lever needs no other first, and ranks by its
		// replayed gain (fixtures/host10's split step: graphs around the
		// read measured 61%, the read removed 15%).
		fix = "capture each region between the syncs as its own CUDA graph (torch.cuda.graphs), the read between them left eager; or remove the syncs inside the step (see " + strings.Join(after, ", ") + ") and " + fix
		composes = "with " + strings.Join(after, " and ") + ", which make the step capturable whole; " + composes
	case len(split) > 0:
		fix = "first remove the syncs inside the step (see " + strings.Join(after, ", ") + "), then " + fix
		composes = "after " + strings.Join(after, " and ") + ", which make the step capturable whole; " + composes
		needs = after
	}
	if v := validationOff(append(slices.Clone(loops), split...)); v != "" {
		// The library's own reads split the loop: one switch takes
		// them out (fixtures/host23b's ppo graphed with it, 80.4%).
		fix = v + "; then " + fix
	}
	if sh := tl.Shapes(); shapesChange(sh) {
		// The same kernels on other grids from one step to the next:
		// the tensors change shape (a batch padded to its own
		// longest), and a graph replays the shapes it captured.
		msg = "CUDA graphs cannot replay this step as it is: its shapes change from step to step (" + shapesSaid(sh) + ")" + inputsSaid(sh) + ", and a graph replays the shapes it captured; " + msg
		// The capture the fix ends or starts with is the padded one; the
		// loop's and the regions' texts lead up to it (a loop's read with
		// changing shapes once read "…bucket the shapes first)capture the
		// loop's body…").
		fix = strings.Replace(fix, p.framework(graphsTorch, graphsCUDA), p.framework(`pad the inputs to one fixed length, or to a few lengths (buckets) with one graph captured per bucket, then `+graphsTorch+` (which records one graph per shape it meets: bucket the shapes first)`,
			"fix the sizes (pad to one size, or a few with one graph each), then "+graphsCUDA), 1)
		composes = "after the fixed padding (or buckets) it needs; with the kernel-time changes, which then show in the wall time"
		if lever != nil && sh.Padded > 0 {
			// Priced on the padded step: each kernel at the largest
			// size the traced steps show for it (analysis.Lever.Pad).
			pl := *lever
			pl.Pad = true
			if g, ok := p.replay(pl); ok {
				wall, lever = g, &pl
				msg += fmt.Sprintf("; priced padded to the largest shapes the %d steps traced show, the least a capture of them needs: its kernels %.2f ms a step against %.2f as traced", sh.Steps, 1e3*sh.Padded, 1e3*sh.Busy)
				basis += "; each kernel at the largest size (its op's recorded shapes) the traced steps show for it"
				composes = "after the fixed padding (or buckets) it needs, priced at the largest shapes the traced steps show: a larger fixed size (the worst case of every batch) costs each padded kernel in proportion"
				if scatterAdds(p) {
					// fixtures/host26d's mol.graphs: every padding edge
					// added into the one padding atom, index_add_ 327 µs
					// a launch against 34.6 unpadded.
					composes += ", and padding rows a scatter adds into one row (index_add_ onto one padding slot) serialise on its atomics"
				}
				composes += "; with the kernel-time changes, which then show in the wall time"
			}
		}
	}
	if lever != nil {
		if un := tl.Unrepeated(*lever); un.Regions > 0 {
			// Regions between the syncs whose launches no other step
			// repeats (a loop the batch sets the trip count of): no
			// graph captured on one step replays them; the replay
			// prices them eager (fixtures/host30's crf).
			msg += "; " + unrepeatedSaid(un)
			basis += "; the regions whose launches no other traced step repeats replayed eager"
		}
	}
	if c := capturableClass(p); c != "" {
		// An optimizer with step counts (Adam's) captured in the graph
		// must keep them on the device.
		fix += "; the optimizer's step captured in the graph needs torch.optim." + c + "(..., capturable=True), whose step counts stay on the device"
	}
	p.recommendWall(analysis.Recommendation{
		Lever:    lever,
		Message:  msg,
		Fix:      fix,
		Basis:    basis,
		Composes: composes,
		After:    needs,
	}, wall)
}

// cpuKept is what the graphs' advice says of the ops whose own host time
// (a piece of 5 ms or more, nothing launched in it) the replay keeps
// under a graph (analysis.CPUOps): "" for none.
func cpuKept(tl *analysis.Timeline) string {
	ops := analysis.CPUOps(tl)
	if len(ops) == 0 {
		return ""
	}
	var said []string
	see := ""
	for i, o := range ops {
		if i == maxKeptSaid {
			said = append(said, fmt.Sprintf("%d more", len(ops)-i))
			break
		}
		said = append(said, fmt.Sprintf("%s %s (%.2f ms a step as traced)", o.Name, frameSaid(o.Frame), 1e3*o.Time))
	}
	for _, o := range ops {
		if o.Moves {
			see = " (see cpu-op)"
		}
	}
	return fmt.Sprintf("; an op's own CPU time, nothing launched in it, stays on the host under a graph, which replays GPU work only: %s%s", strings.Join(said, "; "), see)
}

// maxKeptSaid bounds the ops cpuKept names.
const maxKeptSaid = 3

// scatterAdds reports a step whose kernels add rows into others by an
// index (index_add_, scatter_add_: ATen's indexFunc and scatter kernels
// with ReduceAdd), where padding rows sent to one slot collide.
func scatterAdds(p *AppPass) bool {
	for _, g := range p.kernels("all") {
		if strings.Contains(g.Name, "ReduceAdd") && (strings.Contains(g.Name, "indexFunc") || strings.Contains(g.Name, "scatter")) {
			return true
		}
	}
	return false
}

// splitting lists the loop's syncs that sit between two launches of one
// step, once a step, every step: they split it into two different regions
// (no single CUDA graph holds such a step); the value reads several times
// a step between its launches, which bound a loop inside it (a solver's
// convergence test, a decode loop's token read: its body, between two
// reads, one graph holds); and the rules whose levers remove them.
func splitting(p *AppPass) (split, loops []analysis.Site, after []string) {
	for _, k := range []struct {
		kind  string
		rules []string
	}{
		{syncValue, []string{"step-read"}},
		{syncAll, []string{"cuda-synchronize"}},
		{syncCopy, []string{"pinned-memory"}},
		{syncScaler, []string{"fused-optimizer"}},
	} {
		sites, steps := p.loopSyncs(k.kind)
		found := false
		for _, s := range sites {
			switch {
			case s.Inside >= max(2, steps) && s.Count < 2*steps:
				split, found = append(split, s), true
			case s.Inside >= 2*max(2, steps) && k.kind == syncValue && p.ev.PyTorch():
				loops, found = append(loops, s), true
			}
		}
		if found && !p.ev.PyTorch() && k.kind != syncCopy {
			// A CUDA program's syncs are priced by host-sync alone.
			k.rules = []string{"host-sync"}
		}
		if found && !slices.Contains(after, k.rules[0]) {
			after = append(after, k.rules...)
		}
	}
	return split, loops, after
}

// capturableClass is the class of the trace's optimizer (its
// Optimizer.step#<Class>.step range) where a CUDA graph can hold its step
// only when built with capturable=True (torch.optim's Adam family, whose
// step counts otherwise live on the host); "" for none.
func capturableClass(p *AppPass) string {
	if !p.ev.PyTorch() {
		return ""
	}
	for _, reg := range p.timeline().Regions(analysis.OptimizerStep) {
		class, _, _ := strings.Cut(strings.TrimPrefix(reg.Name, analysis.OptimizerStep), ".")
		switch class {
		case "Adam", "AdamW", "Adamax", "NAdam", "RAdam":
			return class
		}
	}
	return ""
}

// itemLoopOf is the step's per-item loop over a batch (item-loop's,
// loopItems), outside the model's forward, with the most launches; the
// zero Region where the step has none.
func itemLoopOf(p *AppPass) (best analysis.Region) {
	for _, reg := range p.timeline().Loops() {
		if profan.ForwardFrame(reg.Name) || loopItems(reg) == 0 || loopTensors(reg) > 0 {
			continue
		}
		if reg.Launches > best.Launches {
			best = reg
		}
	}
	return best
}

// scalerSplit reports a step split by GradScaler's reads of found_inf
// alone (analysis.Site.Scaler): none of the user's.
func scalerSplit(split []analysis.Site) bool {
	for _, s := range split {
		if !s.Scaler {
			return false
		}
	}
	return len(split) > 0
}

// uncapturable states CUDA graphs unpriced on a step no graph can hold
// as it is (why), with what to change first and the lever (after) that
// prices that change (fix: its drops, and Pad where the sites size the
// step's tensors). Its lever is the graph blocked by those sites
// (analysis.Lever.Blocked): alone it changes nothing, so the graph is
// never priced or ranked on this step; merged with the lever that drops
// the sites (a combination, or the advice replayed together) it is
// replayed on the step that change leaves, padded where the sites made
// its shapes (a capture needs fixed ones: each kernel at the largest size
// the traced steps show for it, analysis.Lever.Pad).
func uncapturable(p *AppPass, why, first, after string, sites []analysis.Site, fix analysis.Lever) {
	lever := &analysis.Lever{Graphs: true, Pad: fix.Pad}
	for _, s := range sites {
		lever.Blocked = append(lever.Blocked, s.Site)
	}
	composes := "after " + after
	// What the graph gives once the sites are gone: the step without
	// their waits, graphed.
	freed := *lever
	freed.Drop, freed.DropReads = fix.Drop, fix.DropReads
	if g, ok := p.replay(freed); ok {
		composes += fmt.Sprintf(": on the step without those syncs (%s's change), the graph replays at %s of the wall", after, pct(g))
		if freed.Pad {
			composes += ", its kernels at the largest sizes the traced steps show for them (a capture needs fixed shapes)"
		}
	}
	p.recommendWall(analysis.Recommendation{
		Message:  "CUDA graphs cannot capture this step: " + why,
		Fix:      "first " + first + ", then capture the step in a CUDA graph",
		Basis:    "not priced: the step cannot be captured as it is",
		Composes: composes,
		Lever:    lever,
	}, 0)
}

// devSyncsInside lists the loop's device syncs (torch.cuda.synchronize,
// cudaDeviceSynchronize) that sit between the step's launches several
// times a step: no graph of the step holds them.
func devSyncsInside(p *AppPass) []analysis.Site {
	sites, steps := p.loopSyncs(syncAll)
	var out []analysis.Site
	for _, s := range sites {
		if s.Inside >= 2*max(2, steps) {
			out = append(out, s)
		}
	}
	return out
}

// The CUDA-graphs fix in PyTorch's terms and in CUDA's: a CUDA program
// is not told to call torch.
const (
	graphsTorch = `capture the step in a CUDA graph (torch.cuda.graphs) and replay it, or torch.compile(model, mode="reduce-overhead")`
	graphsCUDA  = `capture the step's launches in a CUDA graph (cudaStreamBeginCapture ... cudaStreamEndCapture, cudaGraphInstantiate once) and replay it with one cudaGraphLaunch a step`
)

// shapesChange reports a step whose kernels run on other grids from one
// step to the next in most of the traced steps: its tensors change shape.
func shapesChange(sh analysis.Shapes) bool {
	return sh.Steps >= 2 && 2*sh.Differ > sh.Steps-1 && sh.Kernel != ""
}

// shapesSaid says how the kernels' launch configurations change from one
// step to the next: how many of the kernels launched in every step, and
// the one that changes most, by the op that launched it, with its grids
// in each step (the first three a step).
func shapesSaid(sh analysis.Shapes) string {
	var per []string
	for _, c := range sh.Configs {
		if cs := strings.Split(c, " and "); len(cs) > 3 {
			c = strings.Join(cs[:3], " and ") + " …"
		}
		per = append(per, c)
	}
	who := kernelname.Classify(sh.Kernel).Display
	if sh.Op != "" {
		who = sh.Op + "'s " + who
	}
	if sh.Sizes {
		// Compared by the ops' recorded shapes too (record_shapes).
		return fmt.Sprintf("%d of the %d kernels launched in every step run on other grids or for ops of other input shapes (as the trace recorded them, by the bytes each op moves); %s on %s in the %d steps traced", sh.Changed, sh.Kernels, who, strings.Join(per, ", "), sh.Steps)
	}
	return fmt.Sprintf("%d of the %d kernels launched in every step run on other grids; %s on %s in the %d steps traced", sh.Changed, sh.Kernels, who, strings.Join(per, ", "), sh.Steps)
}

// inputsSaid states where a step's changing shapes come from
// (analysis.Shapes' Inputs): the batch copied in at another size each
// step, which a fixed padding of the inputs makes static, or, where
// every copy in keeps its size, an op inside the step; "" where the
// steps copy in different numbers of tensors or none.
func inputsSaid(sh analysis.Shapes) string {
	switch {
	case sh.Copies == 0:
		return ""
	case sh.Inputs == 0:
		return fmt.Sprintf("; the %d tensors copied to the device a step keep their sizes, so an op inside the step makes the shapes change, which a padding of the inputs does not fix", sh.Copies)
	}
	unit, scale, prec := "MB", 1e6, 2
	if slices.Max(sh.InputBytes) < 1e6 {
		unit, scale, prec = "kB", 1e3, 1
	}
	bs := make([]string, len(sh.InputBytes))
	for i, b := range sh.InputBytes {
		bs[i] = strconv.FormatFloat(b/scale, 'f', prec, 64)
	}
	at := ""
	if sh.Input != "" {
		at = " at " + sh.Input
	}
	return fmt.Sprintf("; they come in with the batch: %d of the %d tensors copied to the device a step change size from step to step (the largest%s: %s %s in the %d steps: the batch padded to its own longest), so a fixed padding of the inputs makes them static",
		sh.Inputs, sh.Copies, at, strings.Join(bs, ", "), unit, len(bs))
}

// unrepeatedSaid states the regions between a step's syncs that a graph
// does not hold as they are (analysis.Unrepeated): what they launch, from
// which op and frame, in each step traced, and that they are priced eager.
func unrepeatedSaid(un analysis.Unrepeated) string {
	what := ""
	if n := len(un.Counts); n > 1 && un.Kernel != "" {
		frame, who := "the step", kernelname.Classify(un.Kernel).Display
		if un.Frame != "" {
			frame = un.Frame
		}
		if un.Op != "" {
			who = un.Op + "'s " + who
		}
		cs := make([]string, n)
		for i, c := range un.Counts {
			cs[i] = strconv.Itoa(c)
		}
		what = fmt.Sprintf(": %s launches %s and %s kernels there in the %d steps (%s the most), a loop run as many times as the batch sets",
			frame, strings.Join(cs[:n-1], ", "), cs[n-1], un.Steps, who)
	}
	return fmt.Sprintf("%d of the %d regions between its syncs that launch kernels (over the %d steps traced) launch what no other step launches there%s, and a graph captured on one step replays only the launches it captured; those regions (%.2f ms of host a step) are priced eager, the graphs on the regions that repeat alone",
		un.Regions, un.Of, un.Steps, what, 1e3*un.Host)
}
