package analysis

import (
	"fmt"
	"math"
	"regexp"
	"sort"

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

// Advice is what the application rules say of a capture.
type Advice struct {
	Recommendations []Recommendation // ranked by Score, largest first
	Suppressed      []SuppressedRecommendation
	InUse           []LeverInUse
}

// Recommender gives the application recommendations of a capture from
// its evidence; the rules package implements it (one application rule
// per lever).
type Recommender interface {
	Recommend(ev *AppEvidence) Advice
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
	// Saves is the share of each group's time the change saves; the
	// capture's combined gain composes them per group, so two changes
	// acting on one kernel are not counted twice.
	Saves map[*Group]float64
}

var reBackward = regexp.MustCompile(`(?i)backward|dgrad|wgrad|bprop|_bwd|bwd_|_bw_|bwtr|gradinput|grad_input|gammabeta|_grad_`)

// isBackward reports a kernel of a backward pass by its name.
func isBackward(name string) bool { return reBackward.MatchString(kernelname.Head(name)) }

// summarize reads the groups of ev (ranked, with shares) by cause.
// procs and devices count the processes and GPUs the launches came from;
// rec gives the recommendations (nil: none).
func summarize(ev *AppEvidence, procs, devices int, rec Recommender) *App {
	app := &App{}
	gs, total := ev.Groups, ev.Total
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
	if rec != nil {
		ev.index()
		a := rec.Recommend(ev)
		app.Recommendations, app.Suppressed, app.InUse = a.Recommendations, a.Suppressed, a.InUse
	}
	app.Gain = combinedGain(app.Recommendations, total)
	app.WallGain = combinedWall(ev.Timeline, app.Recommendations)
	app.Scope = scope(gs, procs, devices)
	return app
}

// combinedGain is what recs could save together, a share of total: per
// group, 1 − Π(1 − f) over the changes acting on it, less those another
// change on the group replaces; changes that would slow the step are
// left out.
func combinedGain(recs []Recommendation, total float64) float64 {
	replaced := map[*Group]map[string]bool{}
	for _, r := range recs {
		if r.Gain <= 0 {
			continue
		}
		for g := range r.Saves {
			for _, id := range r.Replaces {
				if replaced[g] == nil {
					replaced[g] = map[string]bool{}
				}
				replaced[g][id] = true
			}
		}
	}
	keep := map[*Group]float64{}
	for _, r := range recs {
		if r.Gain <= 0 {
			continue
		}
		for g, f := range r.Saves {
			if replaced[g][r.Rule] {
				continue
			}
			if _, ok := keep[g]; !ok {
				keep[g] = 1
			}
			keep[g] *= 1 - f
		}
	}
	gain := 0.0
	for g, k := range keep {
		gain += (1 - k) * g.Duration / total
	}
	return gain
}

// scope says what the capture leaves out.
func scope(gs []*Group, procs, devices int) []string {
	var notes []string
	optimizer, backward := false, false
	for _, g := range gs {
		if g.Info.Category == kernelname.CatOptimizer {
			optimizer = true
		}
		if isBackward(g.Name) {
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

// combinedWall replays the recommendations' levers together on tl.
func combinedWall(tl *Timeline, recs []Recommendation) float64 {
	replaced := map[string]bool{}
	for _, r := range recs {
		if r.Rank > 0 {
			for _, id := range r.Replaces {
				replaced[id] = true
			}
		}
	}
	var ls []*Lever
	for _, r := range recs {
		if r.Lever != nil && r.Rank >= 0 && !replaced[r.Rule] {
			ls = append(ls, r.Lever)
		}
	}
	w, ok := tl.Replay(MergeLevers(ls...))
	if !ok {
		return math.NaN()
	}
	return w.Gain()
}
