// Package rules is profan's rule engine. Each rule is one value in one file:
// a stable kebab-case ID that users type in --checks, --fail-on and
// suppressions (so it never changes once released), its documentation with a
// before/after example, the canonical metrics it needs, and its check.
//
// A rule reads an analysed kernel (metrics, memory model, source page) and
// reports findings with the numbers that triggered them, the fix, and an
// estimated gain: the share of the kernel's time the fix should save,
// derived from the model (for memory fixes: the share of memory traffic
// removed, weighted by how memory-bound the kernel is). Rules do no I/O.
package rules

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// Rule is one check, with every fact the engine, the config and the
// reports need about it: a new rule is its file and its line in All.
type Rule struct {
	ID       string
	Title    string
	Text     string // what it means and why it matters
	Before   string // code that triggers it
	After    string // the fix
	Severity profan.Severity
	// Cause is the limit its findings are about; a report that shortens a
	// repeated fix to "as above" does so only within one cause.
	Cause Cause
	// Scope is whose change its advice asks for, which decides what it
	// says of a library kernel (cuBLAS, cuDNN, ...).
	Scope Scope
	// Library, for a rule of scope Source, rewrites a finding on a library
	// kernel into what the kernel's caller can do; false drops it, as a
	// nil Library does.
	Library func(a *analysis.Kernel, f *profan.Finding) bool
	// Locates says its evidence exists per instruction on ncu's source
	// page: with that page, its findings name their source lines.
	Locates bool
	// NeedsSource says it finds nothing without ncu's source page: it
	// reads the SASS alone (an indexed constant load, a CAS loop, a
	// division subroutine). A gate whose --fail-on names it cannot tell
	// on a kernel without that page (SourceUnrun).
	NeedsSource bool
	// NCURule is ncu's own rule (details page, --set full) that tests the
	// same condition, "" when none: where that page is, no rule row means
	// nothing to find.
	NCURule string
	// Thresholds are the numbers of Thresholds its check compares with.
	Thresholds []*Threshold
	// Requires lists canonical metrics; the rule is skipped unless at least
	// one of each "|"-separated group is present.
	Requires []string
	// Optional lists the other canonical metrics the rule reads when the
	// export has them (the gain model's utilizations, evidence). A rule
	// reads nothing outside Requires and Optional: a test holds it.
	Optional []string
	// Check reports findings on one kernel.
	Check func(p *Pass)
	// CheckRun, for run-level rules (host transfers), reports findings on
	// the run as a whole; Requires is then ignored.
	CheckRun func(p *RunPass)
	// RemovesWork says its fix removes work the headroom counts as
	// necessary (the floating-point operations of a loop a closed form
	// replaces): its gains are bounded by the floors its check prices,
	// not by the headroom, whose ideal holds that work
	// (fixtures/sol-check29's rampTotal<0>: an arithmetic series term by
	// term, 1.29e10 FLOP, the headroom 0.65 on the FP32 pipe; its closed
	// form ran 0.94 faster).
	RemovesWork bool
	// CheckApp, for application rules (a framework lever: TF32, autocast,
	// torch.compile, CUDA graphs), recommends a change to the capture as
	// a whole; Requires and Optional then name evidence sets
	// (analysis.AppEvidenceSets), not metrics.
	CheckApp func(p *AppPass)
}

// Cause is the limit a rule's findings are about.
type Cause string

// The causes; CauseOwn is a rule's own, named by its ID.
const (
	CauseLaunch  Cause = "launch" // the grid and the warps it keeps in flight
	CauseMemory  Cause = "memory"
	CauseCompute Cause = "compute"
	CauseAtomics Cause = "atomics"
	CauseHost    Cause = "host"
	CauseOwn     Cause = "own"
)

// Scope is whose change a rule's advice asks for. A library kernel's code
// (cuBLAS, cuDNN, CUTLASS, PyTorch ATen, Triton, NCCL) is not its
// caller's: advice about its source or launch cannot be acted on, advice
// about what the caller controls can.
type Scope int

// The scopes; the zero value is none, which no rule may have.
const (
	// Source: the kernel's source or launch (access patterns, branches,
	// grid, registers). On a library kernel the rule's Library rewrites
	// the finding into what the caller can do, or it is dropped.
	Source Scope = iota + 1
	// Algorithm: what the kernel's code does as a whole (spills,
	// contended atomics, integer division). On a library kernel the
	// caller's lever is the choice of kernel (cuDNN's algorithm search,
	// another attention backend), with an unknown gain; dropped where it
	// has none.
	Algorithm
	// Caller: what the caller controls (data types, math modes, framework
	// settings, host transfers): said as is of any kernel.
	Caller
)

// Threshold is one number of Thresholds: its key in the config file and
// the range in which a rule can still fire.
type Threshold struct {
	Key      string  // as Thresholds' toml tag spells it
	Min, Max float64 // inclusive; Max is +Inf when unbounded
}

// share, percent and positive declare a threshold that is a share (of a
// kernel's sectors, of a wave, of time: at most 1), a percentage, or any
// number not negative.
func share(key string) *Threshold    { return &Threshold{Key: key, Max: 1} }
func percent(key string) *Threshold  { return &Threshold{Key: key, Max: 100} }
func positive(key string) *Threshold { return &Threshold{Key: key, Max: math.Inf(1)} }

// validate says what a rule lacks of its facts, nil when nothing.
func (r *Rule) validate() error {
	switch {
	case r.ID == "" || r.Title == "" || r.Text == "":
		return fmt.Errorf("rule %q: ID, Title and Text are required", r.ID)
	case r.Cause == "":
		return fmt.Errorf("rule %s: no Cause (CauseOwn for a cause of its own)", r.ID)
	case r.Scope < Source || r.Scope > Caller:
		return fmt.Errorf("rule %s: no Scope: say whose change its advice asks for", r.ID)
	case r.Library != nil && r.Scope != Source:
		return fmt.Errorf("rule %s: Library is for rules of scope Source", r.ID)
	case btoi(r.Check != nil)+btoi(r.CheckRun != nil)+btoi(r.CheckApp != nil) != 1:
		return fmt.Errorf("rule %s: exactly one of Check, CheckRun and CheckApp", r.ID)
	}
	for _, th := range r.Thresholds {
		if _, ok := thresholdField(th.Key); !ok {
			return fmt.Errorf("rule %s: threshold %q is no field of Thresholds", r.ID, th.Key)
		}
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// All is the registry, in documentation order.
var All = []*Rule{
	uncoalescedGlobal,
	narrowAccess,
	sharedBankConflict,
	tileSharedMemory,
	registerTile,
	uniformLoad,
	volatileReread,
	aliasReload,
	dependentLoads,
	constantSerialization,
	threadDivergence,
	atomicSerialization,
	casLoop,
	localMemory,
	intDivision,
	fp64OnFloat,
	preciseMath,
	callNotInlined,
	precisionRoundTrip,
	warpRedundant,
	invariantWork,
	bitLoop,
	serialLoop,
	neighbourRecompute,
	barrierStalls,
	unpipelinedTiles,
	fencePerAccess,
	repeatedPasses,
	smallGrid,
	tinyBlocks,
	lowOccupancy,
	pageableMemcpy,
	syncMemcpy,
	memoryBound,
	computeBound,
	latencyBound,
	tensorCoresUnused,
	// Application rules, ranked by gain in the report whatever their
	// order here.
	tf32,
	bf16Autocast,
	bf16Weights,
	sdpa,
	torchCompile,
	staticKVCache,
	shapePlans,
	channelsLast,
	fusedOptimizer,
	foreachLoop,
	itemLoopRule,
	cudnnBenchmark,
	cudaGraphs,
	hostSync,
	dataLoader,
	cpuOp,
	hostRead,
	stepRead,
	cudaSynchronize,
	allocatorChurn,
	pinnedMemory,
	copyOverlap,
	largerBatch,
}

// CauseOf is the limit the findings of rule id are about: "launch",
// "memory", "compute", "atomics" or "host"; the rule's ID for a rule of a
// cause of its own (or an unknown ID). A report that shortens a repeated
// fix to "as above" does so only within one cause.
func CauseOf(id string) string {
	if r, ok := ByID(id); ok && r.Cause != CauseOwn {
		return string(r.Cause)
	}
	return id
}

// ByID returns the rule with the given ID.
func ByID(id string) (*Rule, bool) {
	for _, r := range All {
		if r.ID == id {
			return r, true
		}
	}
	return nil, false
}

// Thresholds are the numbers the rules compare with; the config file may
// override each one.
type Thresholds struct {
	// Excess is how far above the ideal sectors (or wavefronts) per request
	// an access must be to be reported, as a ratio (1.25 = 25 % more).
	Excess float64 `toml:"excess" json:"excess"`
	// MinTrafficShare ignores accesses that carry less than this share of
	// the kernel's global sectors.
	MinTrafficShare float64 `toml:"min_traffic_share" json:"min_traffic_share"`
	// BankConflictWays reports shared accesses at or above this many
	// wavefronts per request.
	BankConflictWays float64 `toml:"bank_conflict_ways" json:"bank_conflict_ways"`
	// CacheReuse is the L2-to-DRAM traffic ratio above which tiling is
	// advised.
	CacheReuse float64 `toml:"cache_reuse" json:"cache_reuse"`
	// BranchEfficiency and WarpEfficiency (percent) below which divergence
	// is reported.
	BranchEfficiency float64 `toml:"branch_efficiency" json:"branch_efficiency"`
	WarpEfficiency   float64 `toml:"warp_efficiency" json:"warp_efficiency"`
	// TailWaste is the share of the last wave left idle above which a
	// partial wave is reported.
	TailWaste float64 `toml:"tail_waste" json:"tail_waste"`
	// OccupancyGap: achieved below this fraction of theoretical.
	OccupancyGap float64 `toml:"occupancy_gap" json:"occupancy_gap"`
	// MemcpyShare: host transfers worth reporting take at least this share
	// of the GPU time in the export.
	MemcpyShare float64 `toml:"memcpy_share" json:"memcpy_share"`
	// MinGain drops findings whose estimated gain is known and smaller:
	// advice that would save under 1% of a kernel's time is noise.
	MinGain float64 `toml:"min_gain" json:"min_gain"`
	// Bound: speed-of-light percentage under which neither memory nor
	// compute is the limit (ncu uses 60 %).
	Bound float64 `toml:"bound" json:"bound"`
	// TinyLaunch (seconds): kernels shorter than this do too little work
	// per launch (larger-batch).
	TinyLaunch float64 `toml:"tiny_launch" json:"tiny_launch"`
	// HostLaunch (seconds) is the host's cost of one eager launch, used
	// where the export holds no timeline to estimate the host's time: 12
	// µs, the wall time per launch of a launch-bound decoding step
	// (fixtures/timeline/decode_sync: 67.9 ms for 5,664 launches).
	HostLaunch float64 `toml:"host_launch" json:"host_launch"`
	// GPUBusy is the share of the wall time the GPU is busy at or above
	// which a step is GPU-bound: no CUDA-graphs advice.
	GPUBusy float64 `toml:"gpu_busy" json:"gpu_busy"`
}

// DefaultThresholds are the defaults, documented in docs/reference.md.
var DefaultThresholds = Thresholds{
	Excess: 1.25, MinTrafficShare: 0.05, BankConflictWays: 1.5, CacheReuse: 8,
	BranchEfficiency: 90, WarpEfficiency: 80, TailWaste: 0.25, OccupancyGap: 0.6,
	MemcpyShare: 0.05, Bound: 60, MinGain: 0.01,
	TinyLaunch: 10e-6, HostLaunch: 12e-6, GPUBusy: 0.9,
}

// minGain is the engine's own threshold: every kernel rule's findings
// pass it.
var minGain = share("min_gain")

// Validate refuses thresholds that are NaN, infinite or negative, or
// outside the range the rules declare for them (a share past 1, a
// percentage past 100), where a rule could never fire, silently.
func (t Thresholds) Validate() error {
	ranges := map[string]*Threshold{minGain.Key: minGain}
	for _, r := range All {
		for _, th := range r.Thresholds {
			ranges[th.Key] = th
		}
	}
	v := reflect.ValueOf(t)
	for i := range v.NumField() {
		if v.Field(i).Kind() != reflect.Float64 {
			continue
		}
		name := thresholdKey(v.Type().Field(i))
		x := v.Field(i).Float()
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("thresholds: %s = %v: want a finite number, not negative", name, x)
		}
		th, ok := ranges[name]
		if !ok {
			return fmt.Errorf("thresholds: %s: no rule declares it", name)
		}
		if x < th.Min || x > th.Max {
			what := fmt.Sprintf("a number from %v to %v", th.Min, th.Max)
			switch {
			case th.Min == 0 && th.Max == 1:
				what = "a share, at most 1 (0.25 is 25%)"
			case th.Min == 0 && th.Max == 100:
				what = "a percentage, at most 100"
			}
			return fmt.Errorf("thresholds: %s = %v: want %s", name, x, what)
		}
	}
	return nil
}

// thresholdKey is a Thresholds field's key in the config file.
func thresholdKey(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return name
}

// thresholdField reports whether key names a field of Thresholds.
func thresholdField(key string) (reflect.StructField, bool) {
	t := reflect.TypeOf(Thresholds{})
	for i := range t.NumField() {
		if thresholdKey(t.Field(i)) == key {
			return t.Field(i), true
		}
	}
	return reflect.StructField{}, false
}

// Pass is one rule's look at one kernel.
type Pass struct {
	Kernel     *analysis.Kernel // the kernel's verdict so far
	Thresholds Thresholds       // the numbers the rules compare with
	rule       *Rule
	out        []profan.Finding
	fix        map[string]int // Note.Fix to its finding in out
	// trace, when set, sees every canonical metric the rule reads.
	trace func(rule, metric string)
}

// Value returns a canonical metric.
func (p *Pass) Value(name string) (float64, bool) {
	if p.trace != nil && p.rule != nil {
		p.trace(p.rule.ID, name)
	}
	return p.Kernel.Value(name)
}

// Note is what a rule says about a kernel or a run: the finding less what
// the pass fills in (rule, kernel, severity, gain).
type Note struct {
	Message   string            // what was measured, with the numbers
	Advice    string            // what to change
	Evidence  []string          // canonical metrics the rule read, "name=value"
	Locations []profan.Location // source lines, when the export has the source page
	// Fix names the change a note asks for when several notes of one rule
	// ask for the same one (a conflict's loads and stores, one index that
	// shapes a copy's load and its store): they become one finding, so the
	// fix's gain is stated once. Each such note carries the fix's gain.
	Fix string
}

// Gain is a finding's estimated speedup, a fraction of the kernel's time,
// or unknown: every report says which.
type Gain struct {
	v     float64
	known bool
}

// unknownGain is the gain of a finding whose speedup is not estimated.
var unknownGain = Gain{}

// estimate is an estimated gain; NaN is unknown.
func estimate(v float64) Gain { return Gain{v, !math.IsNaN(v)} }

func (g Gain) value() float64 {
	if !g.known {
		return math.NaN()
	}
	return g.v
}

func (r *Rule) finding(sev profan.Severity, g Gain, n Note) profan.Finding {
	return profan.Finding{Rule: r.ID, Severity: sev, Message: n.Message, Advice: n.Advice,
		Gain: g.value(), Evidence: n.Evidence, Locations: n.Locations}
}

// report adds a finding at the rule's severity.
func (p *Pass) report(g Gain, n Note) { p.reportAs(p.rule.Severity, g, n) }

// reportAs adds a finding at another severity than the rule's.
func (p *Pass) reportAs(sev profan.Severity, g Gain, n Note) {
	f := p.rule.finding(sev, g, n)
	f.Kernel = p.Kernel.Record.ID
	if n.Fix != "" {
		if i, ok := p.fix[n.Fix]; ok {
			p.out[i] = mergeFix(p.out[i], f)
			return
		}
		if p.fix == nil {
			p.fix = map[string]int{}
		}
		p.fix[n.Fix] = len(p.out)
	}
	p.out = append(p.out, f)
}

// mergeFix joins two findings of one fix: both say what they measured,
// the gain is the fix's (each note carries it; the larger wins should
// they differ), the evidence and lines are the union.
func mergeFix(a, b profan.Finding) profan.Finding {
	a.Message += "; " + b.Message
	if b.Advice != a.Advice && !strings.Contains(a.Advice, b.Advice) {
		a.Advice += "; " + b.Advice
	}
	if b.Severity > a.Severity {
		a.Severity = b.Severity
	}
	if profan.CompareGains(b.Gain, a.Gain) < 0 {
		a.Gain = b.Gain
	}
	for _, e := range b.Evidence {
		if !slices.Contains(a.Evidence, e) {
			a.Evidence = append(a.Evidence, e)
		}
	}
	for _, l := range b.Locations {
		if !slices.Contains(a.Locations, l) {
			a.Locations = append(a.Locations, l)
		}
	}
	return a
}

// evidence formats canonical metrics as "name=value" for a finding.
func (p *Pass) evidence(names ...string) []string {
	var out []string
	for _, n := range names {
		if v, ok := p.Value(n); ok {
			if x, _ := p.Kernel.Metrics.Lookup(n); x.Estimate {
				// Not on the page: said as what it is.
				out = append(out, fmt.Sprintf("%s≈%.4g (estimate)", n, v))
				continue
			}
			out = append(out, fmt.Sprintf("%s=%.4g", n, v))
		}
	}
	return out
}

// RunPass is one run-level rule's look at a whole run.
type RunPass struct {
	Run        *profan.Run
	Thresholds Thresholds
	rule       *Rule
	out        []profan.Finding
}

// report adds a run-level finding at the rule's severity.
func (p *RunPass) report(g Gain, n Note) { p.reportAs(p.rule.Severity, g, n) }

// reportAs adds a run-level finding at another severity than the rule's.
func (p *RunPass) reportAs(sev profan.Severity, g Gain, n Note) {
	p.out = append(p.out, p.rule.finding(sev, g, n))
}

// Engine runs the rules a Selector selects with its Thresholds, and moves
// the findings a suppression names aside; it implements analysis.Ruler.
type Engine struct {
	Sel        *Selector
	Thresholds Thresholds
	// trace, when set, sees every canonical metric each rule reads (a
	// test's hook: a rule's Requires and Optional say what it reads);
	// appTrace every evidence set each application rule reads.
	trace    func(rule, metric string)
	appTrace func(rule, set string)
}

// NewEngine selects rules by a --checks spec with the default thresholds.
func NewEngine(spec string) (*Engine, error) {
	s, err := NewSelector(spec, nil, nil)
	if err != nil {
		return nil, err
	}
	return &Engine{Sel: s, Thresholds: DefaultThresholds}, nil
}

// Check runs the kernel rules on a; findings come sorted by estimated gain.
func (e *Engine) Check(a *analysis.Kernel) analysis.Result {
	var res analysis.Result
	var page pageKind // what page a.Record comes from, found once
	for _, r := range e.Sel.Rules() {
		if r.Check == nil {
			continue
		}
		if group, ok := missing(a, r.Requires); ok {
			n := needOf(r.ID, group)
			res.Skipped = append(res.Skipped, n.skipped)
			if m, ok := missingOf(a, r, n.needs, &page); ok {
				res.Missing = append(res.Missing, m)
			}
			continue
		}
		p := &Pass{Kernel: a, Thresholds: e.Thresholds, rule: r, trace: e.trace}
		r.Check(p)
		for _, f := range p.out {
			if !r.RemovesWork {
				f.Gain = boundByHeadroom(a, f.Gain)
			}
			if !math.IsNaN(f.Gain) && f.Gain < e.Thresholds.MinGain {
				continue
			}
			if a.Name.IsLibrary() && !forCaller(r, a, &f) {
				continue
			}
			if why, ok := e.Sel.Suppressed(f.Rule, a.Record); ok {
				res.Suppressed = append(res.Suppressed, analysis.Suppressed{Finding: f, Reason: why})
				continue
			}
			res.Findings = append(res.Findings, f)
		}
	}
	sortFindings(res.Findings)
	seen := map[string]bool{}
	for _, f := range res.Findings {
		if m, ok := sourceMissing(a, f); ok && !seen[f.Rule] {
			seen[f.Rule] = true
			res.Missing = append(res.Missing, m)
		}
	}
	res.Gain = boundByHeadroom(a, e.KernelGain(a, res.Findings), res.Findings...)
	return res
}

// boundByHeadroom bounds a gain by the kernel's headroom: no fix makes a
// kernel faster than its necessary work at the attainable peak. A
// finding of fs whose fix removes work the headroom counts (a rule's
// RemovesWork) raises the bound to its own gain.
func boundByHeadroom(a *analysis.Kernel, g float64, fs ...profan.Finding) float64 {
	h := a.Limiter.Headroom
	if !h.Known() {
		return g
	}
	bound := h.Share
	for _, f := range fs {
		if r, ok := ByID(f.Rule); ok && r.RemovesWork && f.Gain > bound {
			bound = f.Gain
		}
	}
	return math.Min(g, bound)
}

// CheckRun runs the run-level rules.
func (e *Engine) CheckRun(run *profan.Run) analysis.Result {
	var res analysis.Result
	for _, r := range e.Sel.Rules() {
		if r.CheckRun == nil {
			continue
		}
		p := &RunPass{Run: run, Thresholds: e.Thresholds, rule: r}
		r.CheckRun(p)
		for _, f := range p.out {
			if why, ok := e.Sel.Suppressed(f.Rule, nil); ok {
				res.Suppressed = append(res.Suppressed, analysis.Suppressed{Finding: f, Reason: why})
				continue
			}
			res.Findings = append(res.Findings, f)
		}
	}
	sortFindings(res.Findings)
	return res
}

func missing(a *analysis.Kernel, req []string) (group string, ok bool) {
	for _, group := range req {
		found := false
		for rest, more := group, true; more && !found; {
			var n string
			n, rest, more = strings.Cut(rest, "|")
			_, found = a.Value(n)
		}
		if !found {
			return group, true
		}
	}
	return "", false
}

// need is what a rule skipped for want of a group of its Requires says:
// the group's metrics ("a or b") and the skip note.
type need struct{ needs, skipped string }

// needs holds the need of each rule and group met (a bounded set), so
// that a launch's skipped rules make no string.
var needs sync.Map // [2]string{rule, group} → need

// needOf returns the need of rule id for want of group.
func needOf(id, group string) need {
	key := [2]string{id, group}
	if v, ok := needs.Load(key); ok {
		return v.(need)
	}
	miss := strings.ReplaceAll(group, "|", " or ")
	v, _ := needs.LoadOrStore(key, need{needs: intern(miss), skipped: intern(fmt.Sprintf("%s: needs %s", id, miss))})
	return v.(need)
}

// sortFindings orders findings by estimated gain, largest first; unknown
// gains go last, then by rule ID for stable output.
func sortFindings(fs []profan.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if c := profan.CompareGains(fs[i].Gain, fs[j].Gain); c != 0 {
			return c < 0
		}
		if fs[i].Severity != fs[j].Severity {
			return fs[i].Severity > fs[j].Severity
		}
		return fs[i].Rule < fs[j].Rule
	})
}

// memoryWeight (memoryWeightReads) is how memory-bound the kernel is, 0–1: the larger of ncu's
// memory speed-of-light and DRAM utilization; 1 when unknown, so a gain
// reads as "up to".
func memoryWeight(p *Pass) float64 {
	w := -1.0
	for _, n := range []string{"memory_throughput_pct", "dram_utilization", "dram_peak_pct"} {
		if v, ok := p.Value(n); ok && v/100 > w {
			w = v / 100
		}
	}
	if w < 0 {
		return 1
	}
	return math.Min(1, math.Max(0, w))
}

func clamp01(v float64) float64 { return math.Min(1, math.Max(0, v)) }

// issueWindow is what the rules that price issue slots start from: the
// kernel's duration and the warp instructions the device issues a second
// at the attainable share of its peak; ok is false without either.
func issueWindow(p *Pass) (t, issue float64, ok bool) {
	t, ok = p.Value("duration")
	if !ok || !(t > 0) || p.Kernel.Spec == nil {
		return 0, 0, false
	}
	issue = p.Kernel.Spec.PeakWarpInstructions() * attainable
	return t, issue, issue > 0
}
