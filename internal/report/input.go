package report

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/stats"
)

// The values report renders for trend, diff and gate, filled by the CLI
// from what compare and gate computed: report draws them and decides
// nothing, so it imports neither (TestLayers). Those with JSON tags are
// also the JSON those commands write.

// Trend is one metric of some kernels across runs: the stored points and
// the series with their change points.
type Trend struct {
	Metric string
	Unit   string
	Points []Point
	Series []*Series
}

// Point is one stored value of a trend: a launch's metric in a run.
type Point struct {
	Run    int64
	Labels map[string]string
	Kernel string // display name
	Launch string // the launch ID within its run
	Value  float64
}

// Series is one kernel's values run by run, with its change points and
// how they were detected (for people).
type Series struct {
	Kernel  string
	Runs    []RunValue
	Changes []Change
	Method  string
}

// RunValue is a kernel's value in one run: the median of its launches'.
type RunValue struct {
	Run      int64
	Labels   map[string]string
	Launches int
	Value    float64
}

// Change is a detected change point.
type Change struct {
	Run  int64   `json:"run"`
	From float64 `json:"from"`
	To   float64 `json:"to"`
	Rel  float64 `json:"rel_change"`
	P    float64 `json:"p,omitempty"`
	// Method is what decided the change: exact, launches, history, floor.
	Method stats.Method `json:"method"`
}

// Diff is the difference of two runs, kernel by kernel.
type Diff struct {
	A int64 `json:"a"` // run IDs; 0 for an export file
	B int64 `json:"b"`
	// NameA and NameB say what was compared: "run 3" or an export's path.
	NameA string `json:"a_name"`
	NameB string `json:"b_name"`
	// Step is what moved in the step as a whole, said first: the wall,
	// the GPU's busy share, the kernel time, the idle time by cause, the
	// kernel time by category and the changes advised on each side.
	Step    *DiffStep    `json:"step,omitempty"`
	Kernels []KernelDiff `json:"kernels"`
	Summary DiffSummary  `json:"summary"`
}

// DiffStep is the two sides' steps. Seconds; a wall of 0 is a side
// without a timeline (ncu, nvprof metrics), whose busy share is unknown.
type DiffStep struct {
	WallA     float64 `json:"wall_a_s"`
	WallB     float64 `json:"wall_b_s"`
	BusyA     float64 `json:"gpu_busy_share_a"`
	BusyB     float64 `json:"gpu_busy_share_b"`
	KernelA   float64 `json:"kernel_time_a_s"`
	KernelB   float64 `json:"kernel_time_b_s"`
	LaunchesA int     `json:"launches_a"`
	LaunchesB int     `json:"launches_b"`
	// StepWall, where both sides mark two steps or more, is the wall per
	// step on each side with its spread and the test of the move.
	StepWall *StepWall `json:"wall_per_step,omitempty"`
	// Causes are the idle time by cause (labels as the timeline prints
	// them), Categories the kernel time by category, largest move first.
	Causes     []StepMove `json:"idle_by_cause"`
	Categories []StepMove `json:"kernel_time_by_category"`
	// Levers are the changes advised on either side, with the time each
	// would save there: resolved ones (advised on the old side only, or
	// in use on the new), new ones, and the rest.
	Levers []LeverMove `json:"levers"`
}

// StepWall is the wall per step of two traces that mark their steps:
// the medians, the spreads (half the range over the median) and counts,
// and the test that decided whether it moved (stats.CompareRuns: a
// Mann-Whitney U test of the steps with three or more a side).
type StepWall struct {
	A       float64      `json:"a_s"`
	B       float64      `json:"b_s"`
	SpreadA float64      `json:"spread_a"`
	SpreadB float64      `json:"spread_b"`
	NA      int          `json:"n_a"`
	NB      int          `json:"n_b"`
	Changed bool         `json:"changed"`
	Test    stats.Method `json:"test"`
	P       float64      `json:"p"`
	// Busy is the GPU's busy share of each step, tested the same way.
	Busy *StepShare `json:"gpu_busy_per_step,omitempty"`
}

// StepShare is a share per step on each side: medians, spreads (half the
// range over the median) and the test of the move.
type StepShare struct {
	A       float64      `json:"a"`
	B       float64      `json:"b"`
	SpreadA float64      `json:"spread_a"`
	SpreadB float64      `json:"spread_b"`
	Changed bool         `json:"changed"`
	Test    stats.Method `json:"test"`
	P       float64      `json:"p"`
}

// StepMove is one cause's or category's seconds on each side.
type StepMove struct {
	Name string  `json:"name"`
	A    float64 `json:"a_s"`
	B    float64 `json:"b_s"`
}

// LeverMove is one change advised on a side: the time it would save on
// each (nil where not advised), and whether the new side has it in use.
type LeverMove struct {
	Rule  string   `json:"rule"`
	A     *float64 `json:"gain_a_s"`
	B     *float64 `json:"gain_b_s"`
	InUse bool     `json:"in_use_b,omitempty"`
	// StepA and StepB are the gains a step (the gain's share of the
	// wall times the wall of one step, as analyze says it), where both
	// sides mark their steps; the text then says those.
	StepA *float64 `json:"gain_step_a_s,omitempty"`
	StepB *float64 `json:"gain_step_b_s,omitempty"`
}

// DiffSummary is a diff's bottom line, as benchstat's geomean row: the
// kernels each side has and shares, their total time, the geometric mean
// of the shared kernels' duration ratios (new over old), and the kernels
// left out as unchanged.
type DiffSummary struct {
	KernelsA  int     `json:"kernels_a"`
	KernelsB  int     `json:"kernels_b"`
	Shared    int     `json:"kernels_shared"`
	Unchanged int     `json:"kernels_unchanged"` // shared kernels whose metrics and findings did not change; listed only with --all
	TotalA    float64 `json:"total_a_s"`         // kernel time: the sum of the launches' durations
	TotalB    float64 `json:"total_b_s"`
	// Geomean is the geometric mean over the shared kernels of their
	// median duration's ratio, new over old (0.9: 10% faster); nil when
	// no shared kernel has durations on both sides.
	Geomean *float64 `json:"geomean_ratio,omitempty"`
	Timed   int      `json:"kernels_timed"` // the shared kernels it is over
}

// Where a kernel of a diff is (KernelDiff.Status).
const (
	onlyA = "only-a"
	onlyB = "only-b"
)

// KernelDiff is one kernel's difference between two runs.
type KernelDiff struct {
	Kernel    string        `json:"kernel"`
	Status    string        `json:"status"` // both, only-a or only-b
	LaunchesA int           `json:"launches_a"`
	LaunchesB int           `json:"launches_b"`
	Metrics   []MetricDelta `json:"metrics"`
	Appeared  []string      `json:"findings_appeared"`
	Gone      []string      `json:"findings_disappeared"`
	// Missing are the metrics one side has and the other lacks: listed,
	// never compared as if they had not moved.
	Missing []MissingMetric `json:"metrics_missing"`
}

// MissingMetric is a metric only one of the two sides has.
type MissingMetric struct {
	Metric string `json:"metric"`
	In     string `json:"only_in"` // "a" or "b"
}

// MetricDelta is one metric's move, with the evidence behind its verdict
// (benchstat-style: samples, their spread, the test).
type MetricDelta struct {
	Metric string `json:"metric"`
	Unit   string `json:"unit"`
	// Better is the metric's better direction: higher, lower, or "" for
	// a metric that has none (a count of requests).
	Better  string  `json:"better"`
	A       float64 `json:"a"` // median over run A's launches
	B       float64 `json:"b"`
	NA      int     `json:"n_a"` // launches with a value
	NB      int     `json:"n_b"`
	SpreadA float64 `json:"spread_a"` // half the range of the launches, relative to their median
	SpreadB float64 `json:"spread_b"`
	Rel     float64 `json:"rel_change"`
	// Verdict is which way it moved: better, worse, changed, same,
	// better-but-slower, worse-but-faster.
	Verdict string `json:"verdict"`
	// Test is what decided the verdict: exact (a counter), launches
	// (Mann-Whitney U), history (t-test against the run-to-run spread of
	// the kernel's stored runs), floor (no spread known: the 5% floor).
	Test stats.Method `json:"test"`
	P    float64      `json:"p,omitempty"`
	// History is the run-to-run spread the history test used.
	History string `json:"history,omitempty"`
}

// GateResult is a gate's outcome: every check, how many failed, and the
// stored run compared with (nil when the gate had no --baseline).
type GateResult struct {
	Checks   []GateCheck
	Failed   int
	Baseline *GateBaseline
}

// The kinds of gate check report tells apart (GateCheck.Kind).
const (
	kindRequire    = "require"     // a condition on a metric
	kindRunFinding = "run-finding" // a rule's finding on the run
	kindRegression = "regression"  // a metric against the baseline
	kindNewFinding = "new-finding" // a finding the baseline lacked
	kindFinding    = "finding"     // a rule's finding on a kernel
	kindResolved   = "resolved-finding"
	kindMissing    = "missing" // a baseline kernel this run lacks
)

// The outcomes of a gate check (GateCheck.Status).
const (
	checkPass       = "pass"
	checkFail       = "fail"
	checkSkip       = "skip"
	checkSuppressed = "suppressed"
)

// GateCheck is one evaluated gate condition for one kernel (or run).
type GateCheck struct {
	Kernel    string
	Launch    string
	Kind      string // require, finding, run-finding, regression, new-finding, missing
	Name      string // the condition, rule or metric
	Status    string // pass, fail, skip or suppressed
	Message   string
	Source    string
	Finding   *profan.Finding
	Locations []profan.Location
	// Measure is the numbers the check compared, where it compared
	// numbers; nil else.
	Measure *GateMeasure
	// Headroom is the verdict's sentence on the kernel's headroom no
	// finding explains, on a kernel's finding checks; "" else.
	Headroom string
}

func (c GateCheck) failed() bool { return c.Status == checkFail }

// withHeadroom is the check's message with the verdict's headroom
// sentence after it, as one line: "… (headroom: ≈23 % of its time is
// headroom on FP32 pipe that no rule explains)".
func (c GateCheck) withHeadroom() string {
	if c.Headroom == "" {
		return c.Message
	}
	return c.Message + " (headroom: " + c.Headroom + ")"
}

// GateMeasure is what a check compared: a metric's median in the run (New)
// against a condition's value, or against the baseline's median (Old),
// with the largest regression allowed and the test that decided; a
// finding's kernel share against --min-share. Fields that do not apply are
// NaN (numbers) or empty.
type GateMeasure struct {
	Metric    string
	Unit      string
	Old       float64
	New       float64
	Delta     float64 // (New-Old)/Old
	Op        string  // the condition's comparison
	Threshold float64
	Test      string
	P         float64
	// OldSpan and NewSpan are the wall spans of the baseline's and the
	// run's timelines, on the busy share's regression check; NaN else.
	OldSpan, NewSpan float64
}

// GateBaseline is the stored run a gate compared with; or, when none could
// be found and the gate went on without (Missing says why), none.
type GateBaseline struct {
	Run     int64
	Labels  map[string]string
	Program string
	Missing string
}
