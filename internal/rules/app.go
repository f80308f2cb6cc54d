package rules

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/kernelname"
)

// Application rules read a capture as a framework user's program (a
// PyTorch step): each is one lever of PyTorch's performance tuning guide
// (TF32, autocast, torch.compile, CUDA graphs, ...), with the kernels it
// acts on and a gain from the mechanism by which it acts (bytes no longer
// moved, a faster pipe's rate, launches removed), never a factor fitted
// to one capture. A lever the capture shows already pulled is not
// advised; the rule says what showed it. They read the capture's
// evidence sets (analysis.AppEvidenceSets) by name, and declare them in
// Requires (the rule is skipped when every set of a group is empty) and
// Optional.

// AppPass is one application rule's look at a capture.
type AppPass struct {
	Thresholds Thresholds
	ev         *analysis.AppEvidence
	rule       *Rule
	out        []analysis.Recommendation
	inUse      []analysis.LeverInUse
	// trace, when set, sees every evidence set the rule reads.
	trace func(rule, set string)
	// bulkReads caches kindOf's look at the capture's copies.
	bulkReads *bool
	// sizingCopies caches the sync sites that are a tensor's sizing
	// read (sizingRead), by name and by method and frame (sizingCopy).
	sizingCopies map[string]bool
}

// kernels returns the groups of evidence set name, longest first.
func (p *AppPass) kernels(name string) []*analysis.Group {
	if p.trace != nil {
		p.trace(p.rule.ID, name)
	}
	return p.ev.Kernels(name)
}

// timeline is the step's timeline; nil when the export has none.
func (p *AppPass) timeline() *analysis.Timeline {
	if p.trace != nil {
		p.trace(p.rule.ID, "timeline")
	}
	return p.ev.Timeline
}

// hostCopies are the capture's host transfers.
func (p *AppPass) hostCopies() []*profan.Activity {
	if p.trace != nil {
		p.trace(p.rule.ID, "host-copies")
	}
	var out []*profan.Activity
	for _, r := range p.ev.Runs {
		for _, a := range r.Activities {
			if strings.HasPrefix(a.Kind, "memcpy HtoD") || strings.HasPrefix(a.Kind, "memcpy DtoH") {
				out = append(out, a)
			}
		}
	}
	return out
}

// hostCall is the host's CUDA API time in the calls named name, summed
// over the capture's runs (an nvprof or nsys API summary, the calls of a
// trace), and its share of all their CUDA API time; nil when no run
// holds the call.
func (p *AppPass) hostCall(name string) (*profan.APICall, float64) {
	var c *profan.APICall
	all := 0.0
	for _, r := range p.ev.Runs {
		for _, x := range r.APICalls {
			if x.OS || math.IsNaN(x.Total) {
				continue
			}
			all += x.Total
			if x.Name != name {
				continue
			}
			if c == nil {
				c = &profan.APICall{Name: name}
			}
			c.Calls += x.Calls
			c.Total += x.Total
		}
	}
	if c == nil || !(all > 0) {
		return nil, 0
	}
	return c, c.Total / all
}

// total is the capture's kernel time, seconds.
func (p *AppPass) total() float64 { return p.ev.Total }

// training reports a capture with a backward pass or an optimizer step.
func (p *AppPass) training() bool {
	return len(p.kernels("backward")) > 0 || len(p.kernels("optimizer")) > 0
}

// evidence is the capture's evidence, for what is not a set (the GPU).
func (p *AppPass) evidence() *analysis.AppEvidence { return p.ev }

// hostCount sums one of the host's counts over the capture's runs (those
// with a host side: a torch.profiler or nsys trace).
func (p *AppPass) hostCount(count func(*profan.Host) int) int {
	n := 0
	for _, r := range p.evidence().Runs {
		if r != nil && r.Host != nil {
			n += count(r.Host)
		}
	}
	return n
}

// Recommend adds a recommendation priced in kernel time.
func (p *AppPass) Recommend(r analysis.Recommendation) {
	r.Rule = p.rule.ID
	r.WallGain = math.NaN()
	p.out = append(p.out, r)
}

// InUse says the lever is already pulled, and what shows it.
func (p *AppPass) InUse(format string, args ...any) {
	p.inUse = append(p.inUse, analysis.LeverInUse{Rule: p.rule.ID, Message: fmt.Sprintf(format, args...)})
}

// Recommend runs the selected application rules on a capture's evidence:
// the recommendations ranked by gain (wall time where priced in it), the
// suppressed ones aside; it implements analysis.Recommender.
func (e *Engine) Recommend(ev *analysis.AppEvidence) analysis.Advice {
	var adv analysis.Advice
	if ev == nil || !(ev.Total > 0) {
		return adv
	}
	for _, r := range e.Sel.Rules() {
		if r.CheckApp == nil || !hasEvidence(ev, r.Requires) {
			continue
		}
		p := &AppPass{Thresholds: e.Thresholds, ev: ev, rule: r, trace: e.appTrace}
		r.CheckApp(p)
		adv.InUse = append(adv.InUse, p.inUse...)
		for _, rec := range p.out {
			if why, ok := e.Sel.suppressedApp(rec.Rule, groupNames(rec.Groups)); ok {
				adv.Suppressed = append(adv.Suppressed, analysis.SuppressedRecommendation{Recommendation: rec, Reason: why})
				continue
			}
			adv.Recommendations = append(adv.Recommendations, rec)
		}
	}
	// One scale: the share of the step's wall time. A change priced in
	// kernel time gives back wall time only where the GPU, not the host,
	// sets the pace; without a timeline the host's part is estimated from
	// the launch count (calibrated: docs/calibration-apps.md), and the
	// renderers say it is an estimate.
	host := hostTime(ev, e.Thresholds)
	replayAll(ev.Timeline, adv.Recommendations)
	for i := range adv.Recommendations {
		r := &adv.Recommendations[i]
		r.Rank = r.WallGain
		switch {
		case r.Rank == r.Rank:
		case ev.Timeline != nil && ev.Timeline.Span > 0:
			// Kernel time saved gives back at most itself of the span.
			r.Rank = r.Gain * math.Min(ev.Total, ev.Timeline.Busy) / ev.Timeline.Span
		default:
			r.Rank = wallOf(r.Gain, ev.Total, host)
		}
	}
	sort.SliceStable(adv.Recommendations, func(i, j int) bool {
		a, b := adv.Recommendations[i], adv.Recommendations[j]
		if a.Rank != b.Rank {
			return a.Rank > b.Rank
		}
		return a.Gain > b.Gain
	})
	adv.Recommendations = rankAfter(adv.Recommendations)
	marginal(adv.Recommendations, e.Thresholds.MinGain)
	return adv
}

// marginal says, of each change replayed to a wall gain under minGain
// (the share under which a kernel finding is dropped as noise), that it
// is not worth making for itself: a read or a sync the host barely waits
// for, a graph on a step the GPU bounds. It stays listed, its figure as
// replayed: its advice names the call and the frame, and it composes with
// the others (a read dropped is what lets workers' loading overlap the
// GPU). A change not priced (CUDA graphs on a step they cannot capture)
// says so already.
func marginal(recs []analysis.Recommendation, minGain float64) {
	for i := range recs {
		r := &recs[i]
		if r.Lever == nil || !r.Lever.Capturable() || !(r.WallGain >= 0 && r.WallGain < minGain) {
			continue
		}
		note := fmt.Sprintf("under %s of the wall: not worth making for itself", pct(minGain))
		if r.Basis != "" {
			note += "; " + r.Basis
		}
		r.Basis = note
	}
}

// rankAfter moves each recommendation below the advised ones its After
// names: a change comes after the one it needs. Each moves once at most
// (two that name each other do not loop).
func rankAfter(recs []analysis.Recommendation) []analysis.Recommendation {
	moved := map[string]bool{}
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if len(r.After) == 0 || moved[r.Rule] {
			continue
		}
		last := -1
		for j := i + 1; j < len(recs); j++ {
			if slices.Contains(r.After, recs[j].Rule) {
				last = j
			}
		}
		if last < 0 {
			continue
		}
		copy(recs[i:last], recs[i+1:last+1])
		recs[last] = r
		moved[r.Rule] = true
		i--
	}
	return recs
}

// hostTime is the host's time to launch the capture's kernels, estimated
// from the launch count (a kernel profiler does not time the host): the
// launches × the host cost of one eager launch (HostLaunch).
func hostTime(ev *analysis.AppEvidence, t Thresholds) float64 {
	return float64(launchesOf(ev.Kernels("all"))) * t.HostLaunch
}

// wallOf is the share of the wall time that saving gain of the kernel
// time k gives back when the host takes host to launch them: the step
// takes the longer of the two.
func wallOf(gain, k, host float64) float64 {
	wall := math.Max(k, host)
	if !(wall > 0) {
		return gain
	}
	return (wall - math.Max(host, k*(1-gain))) / wall
}

// hasEvidence reports whether each "|"-separated group of sets has one
// that is not empty.
func hasEvidence(ev *analysis.AppEvidence, req []string) bool {
	for _, group := range req {
		found := false
		for _, n := range strings.Split(group, "|") {
			if ev.Has(n) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func groupNames(gs []*analysis.Group) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = g.Name
	}
	return out
}

// timeOf is the groups' summed time, seconds.
func timeOf(gs []*analysis.Group) float64 {
	d := 0.0
	for _, g := range gs {
		d += g.Duration
	}
	return d
}

// launchesOf is the groups' launches.
func launchesOf(gs []*analysis.Group) int {
	n := 0
	for _, g := range gs {
		n += g.Launches
	}
	return n
}

// saving maps each of gs to the share f of its time a change saves.
func saving(m map[*analysis.Group]float64, f float64, gs ...*analysis.Group) map[*analysis.Group]float64 {
	if m == nil {
		m = map[*analysis.Group]float64{}
	}
	for _, g := range gs {
		m[g] = f
	}
	return m
}

// gainOf is the share of total that saves saves, summed in the groups'
// order (analysis.SortedGroups), so that a run's figures do not change in
// their last bits with the map's order.
func gainOf(saves map[*analysis.Group]float64, total float64) float64 {
	s := 0.0
	for _, g := range analysis.SortedGroups(saves) {
		s += saves[g] * g.Duration
	}
	return s / total
}

// pct formats a share as a percentage.
func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// Value reads a canonical metric of a group's representative launch.
func (p *AppPass) Value(g *analysis.Group, name string) (float64, bool) {
	if p.trace != nil {
		p.trace(p.rule.ID, name)
	}
	if g.Rep == nil {
		return 0, false
	}
	return g.Rep.Value(name)
}

// mathRest is the share of an FP32 GEMM or convolution's time left when
// its FLOPs run speedup times the FMA peak's rate on tensor cores (of
// which cuBLAS reaches tf32Efficiency) and its DRAM bytes shrink by
// bytes (1: unchanged; 0.5: 16-bit operands): the kernel's compute share
// of the FMA peak (compute_throughput_pct; 1 when the export lacks it, so
// the gain reads "up to") over the new rate, bounded below by its DRAM
// traffic at DRAM's ceiling.
func (p *AppPass) mathRest(g *analysis.Group, speedup, bytes float64) float64 {
	c := 1.0
	if v, ok := p.Value(g, "compute_throughput_pct"); ok {
		c = v / 100
	}
	rest := c / (tf32Efficiency * speedup)
	if m, ok := p.Value(g, "dram_utilization"); ok {
		rest = math.Max(rest, bytes*m/100/ceiling[analysis.LimitDRAM])
	}
	return clamp01(rest)
}

// tensorRates are the capture's GPU's dense TF32 and bf16 tensor-core
// peaks over its FP32 FMA peak (the GPU table's rates); 0 where the table
// has none.
func (p *AppPass) tensorRates() (tf32, bf16 float64) {
	tc := gpumodel.TensorCoresOf(p.ev.CC())
	return tc.Rates["tf32"], tc.Rates["bf16"]
}

// replay prices lever by replaying the pass's step (analysis.Timeline's
// Replay): the share of its wall time saved; ok is false when the capture
// holds no step to replay (no timeline, or one with no host side).
func (p *AppPass) replay(l analysis.Lever) (float64, bool) {
	r, ok := p.timeline().Replay(l)
	if !ok {
		return 0, false
	}
	return r.Gain(), true
}

// Kinds of host syncs by the method (or op) that forced them.
const (
	syncShape = "shape"  // a data-dependent shape: .tolist() of counts, nonzero, bincount, unique, masked_select
	syncValue = "value"  // a value read: .item(), .cpu(), printing, a condition on a tensor
	syncAll   = "device" // torch.cuda.synchronize
	syncCopy  = "copy"   // a copy to or from pageable memory (.to())
	syncEvent = "event"  // a wait for one recorded event (torch.cuda.Event.synchronize): a read already deferred
	// GradScaler.step's read of found_inf (analysis.Site.Scaler): no
	// read of the user's, gone with a fused optimizer (fused-optimizer's)
	syncScaler = "scaler"
	// An op that reads one of its arguments on the host: the argument
	// held on the GPU, copied back and waited for inside the op
	// (F.ctc_loss's input and target lengths); passed from the host, the
	// op reads nothing back.
	syncArg = "argument"
)

// shapeMethods read values whose number sets a shape.
var shapeMethods = map[string]bool{"tolist": true, "nonzero": true, "argwhere": true, "bincount": true, "unique": true,
	"unique_consecutive": true, "masked_select": true, "repeat_interleave": true}

// shapeOps name, in a sync site, the ops whose sync reads a count that
// sets a shape. Boolean-mask indexing (x[mask], x[mask] = v) syncs inside
// its nonzero, but the site is named by the outer op: indexing, or its
// backward, that waits for the GPU is a mask's (integer indices do not
// sync). torchvision's NMS reads the number of boxes it keeps to size
// its output (fixtures/host18's per-image postprocess).
var shapeOps = []string{"aten::nonzero", "aten::bincount", "aten::unique", "aten::_unique", "aten::masked_select", "aten::repeat_interleave",
	"aten::index →", "aten::index_put_ →", "aten::_index_put_impl_ →", "IndexBackward0 →", "IndexPutBackward0 →", "torchvision::nms"}

// syncKind classifies a sync site: by the method the user called, else
// by the aten op in its name.
func syncKind(s analysis.Site) string {
	switch {
	case s.Scaler:
		return syncScaler
	case strings.Contains(s.Site, "cudaEventSynchronize"):
		return syncEvent
	case shapeMethods[s.Method] && s.Inside > 0:
		// Read between the step's launches: the count sizes the work
		// launched after it. Never between them (after the step's last
		// launch), the values go to the host's own use (a metric, a
		// log line): a value read, below.
		return syncShape
	case s.Method == "torch.cuda.synchronize":
		return syncAll
	case s.Method == "to" || s.Method == "copy_":
		return syncCopy
	case s.Method != "":
		return syncValue
	}
	for _, op := range shapeOps {
		if strings.Contains(s.Site, op) {
			return syncShape
		}
	}
	switch {
	case strings.Contains(s.Site, "cudaDeviceSynchronize"):
		return syncAll
	case strings.Contains(s.Site, "aten::to") || strings.Contains(s.Site, "aten::copy_"):
		return syncCopy
	case s.Reads > 0 && opSync(s.Site):
		return syncArg
	}
	return syncValue
}

// valueOps are the aten ops whose sync is the user's value read
// (.item(), a tensor tested in an if or a while) where the trace has no
// Python stack to name the method.
var valueOps = map[string]bool{"aten::item": true, "aten::_local_scalar_dense": true, "aten::is_nonzero": true,
	"aten::equal": true, "aten::allclose": true}

// opSync reports a sync inside an op the user called (or its backward),
// not a read of the user's: the op synchronises for its own arguments.
func opSync(site string) bool {
	op, _, _ := strings.Cut(site, " → ")
	op = strings.TrimPrefix(op, "autograd::engine::evaluate_function: ")
	if valueOps[op] {
		return false
	}
	return strings.HasPrefix(op, "aten::") || strings.HasSuffix(op, "Backward0") || strings.HasSuffix(op, "Backward1")
}

// bulkRead is the least a device-to-host copy moves to be a transfer,
// not a value read: a feature map or a batch of outputs, where a logged
// value or a prediction moves bytes to kilobytes.
const bulkRead = 1 << 20

// kindOf is syncKind in the capture's context: a .cpu() whose copy is a
// bulk transfer to pageable memory (a device-to-host copy of bulkRead
// bytes or more from pageable memory in the capture) waits for the
// pageable copy, pinned-memory's sync, not for a value read: its lever
// is a pinned buffer copied into with non_blocking=True and waited for
// by an event a step later, not a read every N steps (the data are
// needed every step).
func (p *AppPass) kindOf(s analysis.Site) string {
	k := syncKind(s)
	if k == syncValue && sizingRead(s) || k == syncCopy && p.sizingCopy(s) {
		return syncShape
	}
	if k != syncValue || s.Method != "cpu" || !strings.Contains(s.Site, "aten::to") && !strings.Contains(s.Site, "aten::copy_") {
		return k
	}
	if p.bulkReads == nil {
		bulk := false
		for _, r := range p.ev.Runs {
			for _, a := range r.Activities {
				if strings.HasPrefix(a.Kind, "memcpy DtoH") && a.DstMemType == "Pageable" && a.Bytes >= bulkRead {
					bulk = true
				}
			}
		}
		p.bulkReads = &bulk
	}
	if *p.bulkReads {
		return syncCopy
	}
	return k
}

// sizingRead reports a scalar read (int(), float() or .item() of a GPU
// tensor: aten::item → _local_scalar_dense), or a tensor's (tensorRead),
// between the step's launches
// whose value sizes the work launched after it, as the trace shows it
// (analysis.Site.Sizes): the same kernels after it run on other grids
// from one step to the next while those before it do not
// (fixtures/host27's prune: int() of a kept-token count gives topk its
// k and the gather its rows). A shape read, not a value read: the
// shapes it makes differ from step to step, which no captured graph
// replays. A read whose following shapes stay (a loss logged, an exit
// test), or change with those before it (host25's mol, whose readout
// size int(batch.max()) + 1 is the batch's 64 molecules every step
// while its atoms change the kernels on both sides), stays a value read.
func sizingRead(s analysis.Site) bool {
	if s.Inside == 0 || s.Sizes == 0 || validation(s) {
		return false
	}
	op, _, _ := strings.Cut(s.Site, " → ")
	if m, _, ok := strings.Cut(s.Site, "() → "); ok && strings.HasPrefix(m, ".") {
		// ".item() → aten::item → …": the op after the method.
		op, _, _ = strings.Cut(strings.TrimPrefix(s.Site, m+"() → "), " → ")
	}
	if op == "aten::item" || op == "aten::_local_scalar_dense" {
		return true
	}
	return tensorRead(s)
}

// tensorRead reports a site that reads a tensor back (.to("cpu"),
// .cpu(): a device-to-host copy the host waited for): where its values
// size the work after it (sizingRead), the lengths pack_padded_sequence
// takes on the host, which set the packed batch's sizes and the LSTM's
// launches (fixtures/host37's sent).
func tensorRead(s analysis.Site) bool {
	op, _, _ := strings.Cut(s.Site, " → ")
	if m, _, ok := strings.Cut(s.Site, "() → "); ok && strings.HasPrefix(m, ".") {
		op, _, _ = strings.Cut(strings.TrimPrefix(s.Site, m+"() → "), " → ")
	}
	return s.Reads > 0 && (op == "aten::to" || op == "aten::_to_copy" || op == "aten::copy_")
}

// sizingCopy reports a .to() site, which syncKind takes for a pageable
// copy's sync, that is a tensor's sizing read (sizingRead): a site known
// by its name alone (an idle call's, a lever's drop) is looked up among
// the replayed steps' sites, by name, else by its method and frame.
func (p *AppPass) sizingCopy(s analysis.Site) bool {
	if s.Count > 0 || s.Inside > 0 {
		return sizingRead(s)
	}
	if p.sizingCopies == nil {
		p.sizingCopies = map[string]bool{}
		if tl := p.ev.Timeline; tl != nil {
			for _, x := range tl.SyncSites() {
				if syncKind(x) == syncCopy && sizingRead(x) {
					p.sizingCopies[x.Site] = true
					p.sizingCopies[x.Method+"\x00"+x.Frame] = true
				}
			}
		}
	}
	return p.sizingCopies[s.Site] || s.Method != "" && s.Frame != "" && p.sizingCopies[s.Method+"\x00"+s.Frame]
}

// loopSyncs are the sync sites of kind that recur in every replayed step
// (a sync once in the capture is the harness's), and the replay's steps.
func (p *AppPass) loopSyncs(kind string) ([]analysis.Site, int) {
	tl := p.timeline()
	r, ok := tl.Replay(analysis.Lever{})
	if !ok {
		return nil, 0
	}
	var out []analysis.Site
	for _, s := range tl.SyncSites() {
		if s.Count >= max(2, r.Steps) && p.kindOf(s) == kind {
			out = append(out, s)
		}
	}
	return out, r.Steps
}

// dropSites is a lever that no longer waits at sites.
func dropSites(sites []analysis.Site) func(string) bool {
	set := map[string]bool{}
	for _, s := range sites {
		set[s.Site] = true
	}
	return func(site string) bool { return set[site] }
}

// validation reports a read of torch.distributions' argument
// validation (ingest names its frames Distribution.__init__ and
// Distribution._validate_sample): a check the user's code did not write.
func validation(s analysis.Site) bool { return strings.HasPrefix(s.Method, "Distribution.") }

// validationOff is the fix for sites' validation reads, "" when they
// hold none: one switch removes them all.
func validationOff(sites []analysis.Site) string {
	for _, s := range sites {
		if validation(s) {
			return "turn torch.distributions' argument validation off (torch.distributions.Distribution.set_default_validate_args(False), or validate_args=False on each distribution): its constraint checks read the GPU value they test (" + s.Method + " at " + s.Frame + ")"
		}
	}
	return ""
}

// siteList names sync sites for a message: method and frame, the first few.
func siteList(sites []analysis.Site) string {
	var parts []string
	for i, s := range sites {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(sites)-3))
			break
		}
		what := s.Site
		if s.Method != "" {
			what = "." + s.Method + "()"
			switch {
			case validation(s):
				what = "torch.distributions' argument check in " + s.Method
			case strings.Contains(s.Method, "."):
				what = s.Method + "()"
			}
			if s.Frame != "" {
				what += " at " + s.Frame
			}
		}
		parts = append(parts, what)
	}
	return strings.Join(parts, ", ")
}

// replayKernels is the share of the step's wall time a kernel-side change
// saves, replayed (docs/replay.md): each group's kernels shrink by their
// saving, the host's time stays (the host floor) but for what the rule's
// lever (nil: none) adds to the ops that launch them (a new engine's,
// Lever.Host) or takes off them (the launches a fusion removes,
// Lever.Fewer, and the model's forward Python a compiler traces away,
// Lever.Forward); and the lever. NaN and nil when the capture has no step
// to replay.
func replayKernels(tl *analysis.Timeline, saves map[*analysis.Group]float64, with *analysis.Lever) (float64, *analysis.Lever) {
	left := map[string]float64{}
	for g, f := range saves {
		left[g.Name] = 1 - f
	}
	l := &analysis.Lever{Kernel: func(n string) float64 {
		if f, ok := left[n]; ok {
			return f
		}
		return 1
	}}
	if with != nil {
		l.Host, l.Casts, l.Fewer, l.More, l.Kept, l.Launcher, l.Backward, l.Forward = with.Host, with.Casts, with.Fewer, with.More, with.Kept, with.Launcher, with.Backward, with.Forward
	}
	w, ok := tl.Replay(*l)
	if !ok {
		return math.NaN(), nil
	}
	return w.Gain(), l
}

// The host a precision change adds to an op whose FP32 library kernels
// move to tensor cores, in launches' worth (the trace's host time of an
// aten::add, the replay's unit), by the op's kind. Learned from
// fixtures/host8's UNet, FP32 against TF32, each op's host time over its
// own trace's unit (the TF32 trace's host ran 1.9× slower throughout:
// in units, the ops TF32 leaves alone cost the same in both traces, a
// silu 0.91 and 0.85, a group norm 4.3 and 4.3, attention 4.2 and 4.0):
// a convolution 3.7 → 6.5 units, its cuDNN engine's launches 2.1 → 4.9
// (the NHWC implicit GEMM with its input's and filter's layout
// transforms, its output's and an init kernel); a linear 3.2 → 4.1
// units, the same launches (cuBLASLt's tensor-core kernel, chosen and
// queried for its attributes on every call). Never fitted on
// fixtures/host10's held-out unet4.
var engineHostUnits = map[kernelname.Kind]float64{
	kernelname.Convolution: 2.7,
	kernelname.GEMM:        0.9,
}

// engineHost is the Lever.Host of a precision change that moves groups,
// FP32 library kernels, onto tensor cores; nil where none is a
// convolution or GEMM.
func engineHost(groups []*analysis.Group) func(string) float64 {
	units := map[string]float64{}
	for _, g := range groups {
		if u := engineHostUnits[g.Info.Kind]; u > 0 && g.Info.IsLibrary() {
			units[g.Name] = u
		}
	}
	if len(units) == 0 {
		return nil
	}
	return func(n string) float64 { return units[n] }
}

// recommendDrop advises no longer waiting at the loop's syncs of kind,
// priced by replaying the step without their waits; message says what
// the sites do (given them and the replay's steps), r holds the rest.
func (p *AppPass) recommendDrop(kind string, message func(sites []analysis.Site, steps int) string, r analysis.Recommendation) {
	if !p.ev.PyTorch() {
		// The levers are PyTorch's (.item(), .tolist(),
		// torch.cuda.synchronize); a CUDA program's syncs are
		// host-sync's.
		return
	}
	sites, steps := p.loopSyncs(kind)
	if len(sites) == 0 {
		return
	}
	lever := analysis.Lever{Drop: dropSites(sites)}
	gain, _ := p.replay(lever)
	r.Message, r.Lever = message(sites, steps), &lever
	p.recommendWall(r, gain)
}
