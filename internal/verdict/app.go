package verdict

import (
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/kernelname"
)

// App is the reading of an application capture by cause: where the
// kernel time goes by category, what to change first (recommendations
// ranked by estimated gain), and what the capture leaves out.
type App struct {
	Categories      []CategoryTime
	Recommendations []Recommendation
	// Suppressed are the recommendations a configured suppression
	// silenced, with its reason: counted and shown, never lost.
	Suppressed []SuppressedRecommendation
	// InUse are the changes the capture shows already made, with what
	// shows it: they are not advised.
	InUse []LeverInUse
	// Gain is what the recommendations could save together, composed per
	// kernel group as 1 − Π(1 − f) over the changes acting on it (each
	// acts on what the others leave), so two changes on one group are
	// not counted twice; changes that would slow the step are left out,
	// and a change another one replaces (TF32 under bf16) counts only
	// through the one that replaces it.
	Gain float64
	// Scope notes say what the capture holds and does not, up front.
	Scope []string
	// WallGain is the share of the step's wall time the recommendations
	// save together, their levers replayed at once (not multiplied): a
	// change another replaces counts through it, a change that would
	// slow the step is left out. NaN where the capture has no step to
	// replay.
	WallGain float64
	// PricedStep is the step the levers are priced on, seconds: the
	// replay's step as captured, its host time scaled to an unprofiled
	// host (docs/replay.md), which is what a gain a step is of; 0 where
	// nothing was replayed.
	PricedStep float64
	// Feed is the pace a multi-process DataLoader's workers feed the
	// step at, seconds per step (Replayed.Feed): why no lever takes the
	// step under it; 0 for none.
	Feed float64
}

// SuppressedRecommendation is a recommendation a suppression silenced.
type SuppressedRecommendation struct {
	Recommendation
	Reason string
}

// LeverInUse is a change the capture shows already made.
type LeverInUse struct {
	Rule    string
	Message string // what shows it: "already channels_last: batch norm runs its NHWC kernels"
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
	Rule    string // the application rule's ID: "tf32", "bf16-autocast", "torch-compile", "cuda-graphs", ...
	Message string // what the capture shows, with its numbers
	Fix     string // the code to change
	Groups  []*Group
	// Gain is the estimated share of the capture's kernel time saved, 0–1,
	// net of Cost.
	Gain float64
	// WallGain is the estimated share of the step's wall time saved, 0–1,
	// where the change is priced in wall time (launch overhead, host
	// synchronisation); NaN where it is not.
	WallGain float64
	// Rank is the share of the step's wall time the change gives back,
	// the one scale recommendations are ranked on: WallGain where priced
	// in wall time, else the kernel time saved as far as the GPU, not the
	// host's launches, sets the step's pace (equal to Gain on a GPU-bound
	// step).
	Rank float64
	// Cost is the share of the capture's kernel time the change adds to
	// other kernels (bf16 autocast: cuDNN's batch norm leaving for
	// PyTorch's slower kernels).
	Cost float64
	// Basis says how Gain was estimated and calibrated.
	Basis string
	// Composes says how the change combines with the others advised.
	Composes string
	// Replaces names the changes this one does all the work of on the
	// groups they share (bf16 autocast replaces TF32 on the FP32 GEMMs):
	// the combined gain counts those groups once, through this one.
	Replaces []string
	// Lever is the change as the replay applies it (docs/replay.md);
	// nil where it is not replayed. The App's WallGain replays the
	// recommendations' levers together.
	Lever *Lever
	// After names the rules whose change must come first (CUDA graphs
	// after the lever of a sync that splits the step): ranked below them
	// where they are advised.
	After []string
	// Saves is the share of each group's time the change saves; the
	// capture's combined gain composes them per group, so two changes
	// acting on one kernel are not counted twice.
	Saves map[*Group]float64
}

// Join is the kernels of a trace matched to those of a kernel export
// (ncu) of the same program given with it: by name and order, the i-th
// launch of a kernel in the trace with the i-th launch of that kernel in
// the export. Names are compared by their base (the function's own name,
// without namespaces, template arguments or parameters): Kineto's and
// ncu's demanglers print the rest differently.
type Join struct {
	Trace, Export string // the runs' sources
	TraceLaunches int
	ExportLaunch  int
	Matched       int // launches paired
	SameShape     int // of them, with the same grid and block
	// Replay, for an nvprof metrics or events export (Export), is how its
	// per-kernel aggregates, from a replay of the program, joined the
	// trace's launches by kernel name and invocation count: ExportLaunch
	// is then the invocations of the kernels joined, Matched the traced
	// launches that took their counters.
	Replay *profan.ReplayJoin
	// CountedOnce is set when every launch of the trace matched one of
	// the export (ncu) and back: the two are one capture, its kernels
	// counted once, from the export, the trace giving the timeline.
	CountedOnce bool
}
