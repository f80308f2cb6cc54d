package verdict

import (
	"fmt"
	"math"

	"github.com/profan-dev/profan/internal/metrics"
)

// The bases a gain is stated on (Gain.Basis).
const (
	// BasisWall: a share of the capture's wall span, which only a
	// capture with a timeline measures.
	BasisWall = "wall"
	// BasisKernel: a share of the capture's kernel time (an export
	// without a timeline: ncu, nvprof's metrics).
	BasisKernel = "kernel"
	// BasisWallEstimate: a change that saves host time (launch
	// overhead) on a capture without a timeline: a share of the wall
	// estimated from the launch count and the host's cost of a launch
	// (calibrated in docs/calibration-apps.md), never measured.
	BasisWallEstimate = "wall-estimate"
)

// Gain is what a recommendation could save, in time and in share, on the
// one basis the capture supports: the wall where it has a timeline, else
// the kernel time. Every surface states it from here, never a wall
// figure without a timeline.
type Gain struct {
	Basis   string  // BasisWall or BasisKernel
	Seconds float64 // time saved over the capture; NaN when unknown
	Share   float64 // Seconds over Of, 0–1; NaN when unknown
	Of      float64 // the wall span or the kernel time, seconds
	// KernelSeconds and KernelShare are the kernel time saved and its
	// share of the kernel time (NaN unknown): on a wall basis, what the
	// wall figure comes from when the change is priced in kernel time.
	KernelSeconds float64
	KernelShare   float64
	// HostSide is set for a change priced in wall time (launch overhead,
	// host synchronisation) on a capture without a timeline: it saves
	// host time, which only a timeline measures; Share is then the
	// estimate (BasisWallEstimate), Seconds unknown.
	HostSide bool
	// Steps is the steps the wall span holds (a trace's ProfilerStep#N
	// marks), 0 when it marks none; StepWall the wall of one step:
	// Share × StepWall is the gain a step. StepWall is the step the
	// levers were priced on (App.PricedStep: the replay's step, the
	// profiler's host cost taken off) where there is one, else the
	// trace's median marked step (Timeline.WallPerStep); Unprofiled says
	// the two differ, so the step is not the one the timeline shows.
	Steps      int
	StepWall   float64
	Unprofiled bool
}

// StepText is "a step of 27.07 ms", with "unprofiled" where the step is
// the replay's rather than the trace's own.
func (g Gain) StepText() string {
	s := "a step of " + metrics.Format(g.StepWall, "s")
	if g.Unprofiled {
		s += " unprofiled"
	}
	return s
}

// wallText is a gain on the wall in words: users plan per step, "~19.7 ms
// a step of 61.6 ms (32.0% of the wall)" where the trace marks steps, else
// "~1.2 ms of the 18.7 ms wall (6.4%)".
func (g Gain) wallText() string {
	if p := g.PerStep(); finite(p) {
		return fmt.Sprintf("~%s %s (%s of the wall)", metrics.Format(p, "s"), g.StepText(), metrics.ShareText(g.Share))
	}
	return "~" + timeShare(g.Seconds, g.Share, g.Of, "wall")
}

// onWall states g on the wall of v's first timeline: its span, and its
// steps where the trace marks them.
func (v *Verdict) onWall(g *Gain) {
	g.Basis, g.Of, g.Steps = BasisWall, v.Span(), v.Steps()
	if g.Steps > 0 {
		g.StepWall, g.Unprofiled = v.stepWall()
	}
}

// stepWall is the wall of one step gains a step are of, and whether it is
// the replay's unprofiled step rather than the trace's (Gain.StepWall).
func (v *Verdict) stepWall() (float64, bool) {
	w := v.Timelines[0].Timeline.WallPerStep()
	if v.App != nil && v.App.PricedStep > 0 {
		return v.App.PricedStep, math.Abs(v.App.PricedStep-w) > 0.05*w
	}
	return w, false
}

// PerStep is the gain a step: its share of the wall times the wall of
// one step; NaN where the trace marks no step.
func (g Gain) PerStep() float64 {
	if g.Steps <= 0 || !(g.StepWall > 0) {
		return math.NaN()
	}
	return g.Share * g.StepWall
}

// Steps is the steps the wall span of Span holds; 0 when the trace marks
// none, or without a timeline.
func (v *Verdict) Steps() int {
	if len(v.Timelines) == 0 {
		return 0
	}
	return v.Timelines[0].Timeline.StepCount
}

// Span is the wall span gains are stated against: the first timeline's
// (the one the application rules price with); 0 without one.
func (v *Verdict) Span() float64 {
	if len(v.Timelines) == 0 {
		return 0
	}
	return v.Timelines[0].Timeline.Span
}

// GainOf is recommendation r's gain in time and share.
func (v *Verdict) GainOf(r Recommendation) Gain {
	g := Gain{Basis: BasisKernel, Seconds: math.NaN(), Share: math.NaN(), Of: v.Total, KernelSeconds: math.NaN(), KernelShare: r.Gain}
	if !math.IsNaN(r.Gain) && v.Total > 0 {
		g.KernelSeconds = r.Gain * v.Total
	}
	wallPriced := !math.IsNaN(r.WallGain)
	if span := v.Span(); span > 0 {
		v.onWall(&g)
		g.Share = r.Rank
		if wallPriced {
			g.Share = r.WallGain
		}
		if !math.IsNaN(g.Share) {
			g.Seconds = g.Share * span
		}
		if wallPriced {
			g.KernelSeconds, g.KernelShare = math.NaN(), math.NaN()
		}
		return g
	}
	if wallPriced && !(r.Gain != 0) {
		g.HostSide, g.Basis, g.Share, g.Of = true, BasisWallEstimate, r.WallGain, math.NaN()
		g.KernelShare = math.NaN()
		return g
	}
	g.Share, g.Seconds = g.KernelShare, g.KernelSeconds
	return g
}

// Gains in words, the same on every surface: time first, then its share
// and what it is a share of.

// noWall is what a capture without a timeline says of the wall.
const noWall = "this export holds no timeline: nsys or torch.profiler measures the wall"

// GainText is r's gain in words: "~2.762 ms of the 8.635 ms wall (32.0%)",
// "~1.2 ms of the 7.1 ms kernel time (16.9%)".
func (v *Verdict) GainText(r Recommendation) string {
	g := v.GainOf(r)
	basis := ""
	if r.Basis != "" {
		basis = " (" + r.Basis + ")"
	}
	switch {
	case g.HostSide:
		return fmt.Sprintf("~%s of the wall, estimated from the launches%s", metrics.ShareText(g.Share), basis)
	case g.Share < 0 && g.Basis == BasisWall && !finite(g.KernelSeconds):
		// Priced on the wall (replayed): slower by wall time, "~1.2 ms a
		// step of 18.7 ms (6.4% of the wall) slower".
		slower := g
		slower.Seconds, slower.Share = -g.Seconds, -g.Share
		return slower.wallText() + " slower: not one to make" + basis
	case g.Share < 0 || (g.Basis == BasisKernel && g.KernelShare < 0):
		return fmt.Sprintf("~%s slower: not one to make%s", timeShare(-g.KernelSeconds, -g.KernelShare, v.Total, "kernel time"), basis)
	case g.Basis == BasisWall:
		s := g.wallText()
		if g.KernelShare > 0 && !approx(g.KernelSeconds, g.Seconds) {
			s += ", from ~" + timeShare(g.KernelSeconds, g.KernelShare, v.Total, "kernel time")
		}
		return s + basis
	}
	s := "~" + timeShare(g.Seconds, g.Share, g.Of, "kernel time")
	if r.Rank < r.Gain-0.0005 {
		// The host's launches, not the GPU, set the pace: less of it
		// shows in the wall.
		s += fmt.Sprintf(", ~%s of the wall by the launch-time estimate", metrics.ShareText(r.Rank))
	}
	return s + basis
}

// TogetherGain is what the recommendations could save together, on the
// basis their own gains are stated on: on a capture with a timeline, the
// wall their levers give replayed at once (App.WallGain); without a
// timeline, the kernel time, composed per kernel group (App.Gain). ok is
// false where there is nothing to state, and on a timeline the levers
// could not be replayed on at once; a replay whose levers clear no noise
// (Quiet) states its gain, 0 or less as it may be.
func (v *Verdict) TogetherGain() (g Gain, ok bool) {
	if v.App == nil {
		return Gain{}, false
	}
	if span := v.Span(); span > 0 && finite(v.App.WallGain) {
		g = Gain{Share: v.App.WallGain, Seconds: v.App.WallGain * span, KernelSeconds: math.NaN(), KernelShare: math.NaN()}
		v.onWall(&g)
		return g, g.Share > 0 || v.Quiet()
	} else if span > 0 {
		// A timeline the levers cannot be replayed on at once (no host
		// calls): each is priced on the wall alone, and their kernel
		// time composed would be another basis under a list ranked by
		// the wall, less than its first lever (an nsys GPU trace:
		// "together ~4.208 ms of the 39.521 ms kernel time" over a first
		// lever of 82.823 ms of the wall). Not stated.
		return Gain{}, false
	}
	g = Gain{Basis: BasisKernel, Share: v.App.Gain, Of: v.Total, Seconds: v.App.Gain * v.Total,
		KernelShare: v.App.Gain, KernelSeconds: v.App.Gain * v.Total}
	return g, v.App.Gain > 0
}

// NoiseShare is the share of the wall under which the levers replayed
// together clear no noise (the rules' default min_gain, under which a
// change is not worth making for itself).
const NoiseShare = 0.01

// Quiet reports a timeline whose advised levers, replayed at once, give
// back under NoiseShare of the wall: no lever clears the step's noise
// (fixtures/host18's gnn.workers, bound by its DataLoader's feed). Every
// surface says so: the list's head (Together), JSON's together.under_noise.
func (v *Verdict) Quiet() bool {
	return v.Span() > 0 && v.App != nil && finite(v.App.WallGain) && v.App.WallGain < NoiseShare
}

// QuietFeed is, on a Quiet timeline, the pace its multi-process
// DataLoader's workers feed the step at (App.Feed), seconds a step: what
// holds the step where no lever clears its noise (fixtures/host18's
// gnn.workers: its pin-memory thread's 5.05 ms a step over the main
// thread's 4.74 ms); 0 otherwise.
func (v *Verdict) QuietFeed() float64 {
	if !v.Quiet() {
		return 0
	}
	return v.App.Feed
}

// Together says what the recommendations could save together, and on
// what basis they are ranked: the wall replayed with every lever at once
// where the capture has a timeline ("together ~31.2 ms a step of 61.4 ms
// (50.8% of the wall), replayed at once"), not kernel time under a list
// ranked by the wall.
func (v *Verdict) Together() string {
	s := "ranked by the wall time saved, estimated from the kernel time and the launches"
	if v.Span() > 0 {
		s = "ranked by the wall time saved"
	}
	g, ok := v.TogetherGain()
	switch {
	case v.Quiet():
		// Replayed at once, the levers give back less than the noise:
		// the first of them is no advice over nothing to gain
		// (fixtures/host18's gnn.workers, bound by its DataLoader).
		s += "; no lever clears the step's noise: together under " + metrics.ShareText(NoiseShare) + " of the wall, replayed at once"
		if f := v.QuietFeed(); f > 0 {
			s += "; the DataLoader's workers feed a step every " + metrics.Format(f, "s") + ", which bounds it"
		}
	case ok && g.Basis == BasisWall:
		s += "; together " + g.wallText() + ", replayed at once"
	case ok:
		s += "; together ~" + timeShare(g.Seconds, g.Share, g.Of, "kernel time")
	case v.Span() > 0 && v.App != nil && len(v.App.Recommendations) > 1:
		s += "; not summed: without the host's calls they cannot be replayed at once"
	}
	if v.Span() <= 0 {
		s += "; " + noWall
	}
	return s
}

// KernelGain is a finding's gain on one launch: "≈0.93 ms of its 1.86 ms
// (50%)"; the share alone when the launch's duration is unknown.
func KernelGain(gain, duration float64) string {
	switch {
	case !finite(gain):
		return "gain unknown"
	case finite(duration) && duration > 0:
		return fmt.Sprintf("est. gain ≈%s of its %s (%.0f%%)", metrics.Format(gain*duration, "s"), metrics.Format(duration, "s"), 100*gain)
	}
	return fmt.Sprintf("est. gain %.0f%% of the kernel's time", 100*gain)
}

// GroupGain is what a finding on a kernel's launches could save, in
// time: "≈55.03 us of its 73.25 us (75%), 43.8% of the kernel time";
// share is of the capture's kernel time total, own the kernel's time.
func GroupGain(share, total, own float64) string {
	saved := share * total
	if !finite(saved) || !(own > 0) || !(total > 0) {
		return CaptureGain(share, total)
	}
	return fmt.Sprintf("≈%s of its %s (%.0f%%), %s of the kernel time", metrics.Format(saved, "s"), metrics.Format(own, "s"), 100*saved/own, metrics.ShareText(share))
}

// CaptureGain is a share of the capture's kernel time total, in time:
// "~1.2 ms of the 7.1 ms kernel time (16.9%)".
func CaptureGain(share, total float64) string {
	return "~" + timeShare(share*total, share, total, "kernel time")
}

// timeShare is "1.2 ms of the 7.1 ms what (16.9%)", or the share alone
// when the time is unknown.
func timeShare(sec, share, of float64, what string) string {
	if !finite(sec) || !(of > 0) {
		return fmt.Sprintf("%s of the %s", metrics.ShareText(share), what)
	}
	return fmt.Sprintf("%s of the %s %s (%s)", metrics.Format(sec, "s"), metrics.Format(of, "s"), what, metrics.ShareText(share))
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// approx reports a and b equal to 0.5%.
func approx(a, b float64) bool { return math.Abs(a-b) <= 0.005*math.Max(math.Abs(a), math.Abs(b)) }
