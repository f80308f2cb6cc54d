package analysis

import (
	"fmt"
	"math"
	"sort"

	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/verdict"
)

// Advice is what the application rules say of a capture.
type Advice struct {
	Recommendations []Recommendation // ranked by Score, largest first
	Suppressed      []SuppressedRecommendation
	InUse           []LeverInUse
	// WallGain, where set, is the levers' wall gain replayed together as
	// an earlier analysis made it (a run database keeps the advice, not
	// the levers); nil: replayed from the recommendations' levers.
	WallGain *float64
	// PricedStep is the replayed step the levers were priced on, as an
	// earlier analysis replayed it; nil: replayed here.
	PricedStep *float64
	// Feed is the workers' pace the levers were priced against, as an
	// earlier analysis replayed it (App.Feed); nil: replayed here.
	Feed *float64
	// Scope, where not nil, is the scope notes as an earlier analysis
	// made them from the whole capture (a run database keeps them, not
	// the host's ranges they read: an optimizer step seen on the host);
	// nil: made here.
	Scope []string
}

// Recommender gives the application recommendations of a capture from
// its evidence; the rules package implements it (one application rule
// per lever).
type Recommender interface {
	Recommend(ev *AppEvidence) Advice
}

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
	stored := math.NaN()
	var storedScope []string
	if rec != nil {
		ev.index()
		a := rec.Recommend(ev)
		app.Recommendations, app.Suppressed, app.InUse = a.Recommendations, a.Suppressed, a.InUse
		storedScope = a.Scope
		if a.WallGain != nil {
			stored = *a.WallGain
		}
		if a.PricedStep != nil {
			app.PricedStep = *a.PricedStep
		}
		if a.Feed != nil {
			app.Feed = *a.Feed
		}
	}
	app.Gain = combinedGain(app.Recommendations, total)
	app.WallGain = stored
	if math.IsNaN(stored) {
		app.WallGain = combinedWall(ev.Timeline, app.Recommendations)
	}
	if app.PricedStep == 0 && len(app.Recommendations) > 0 {
		if w, ok := ev.Timeline.Replay(verdict.Lever{}); ok {
			app.PricedStep, app.Feed = w.Base, w.Feed
		}
	}
	// A per-parameter optimizer launches ATen's element-wise kernels,
	// not optimizer ones: its step shows on the host, as PyTorch's
	// Optimizer.step#… range.
	stepped := false
	for _, r := range ev.Timeline.Regions(OptimizerStep) {
		stepped = stepped || r.Launches > 0
	}
	app.Scope = scope(gs, procs, devices, stepped)
	if storedScope != nil {
		app.Scope = storedScope
	}
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
	for _, g := range SortedGroups(keep) {
		gain += (1 - keep[g]) * g.Duration / total
	}
	return gain
}

// SortedGroups is m's groups by name: sums over a map of groups taken in
// this order give the same float every run (a map's order changes the
// last bits, which the JSON and the run database print).
func SortedGroups[V any](m map[*Group]V) []*Group {
	gs := make([]*Group, 0, len(m))
	for g := range m {
		gs = append(gs, g)
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].Name < gs[j].Name })
	return gs
}

// scope says what the capture leaves out.
func scope(gs []*Group, procs, devices int, stepped bool) []string {
	var notes []string
	optimizer, backward := stepped, false
	for _, g := range gs {
		if g.Info.Category == kernelname.CatOptimizer {
			optimizer = true
		}
		if g.Backward() {
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
	if len(ls) == 0 {
		// Nothing replayed is not a gain of 0 (a run database's stored
		// advice has no levers).
		return math.NaN()
	}
	w, ok := tl.Replay(verdict.MergeLevers(ls...))
	if !ok {
		return math.NaN()
	}
	return w.Gain()
}
