package verdict

import (
	"math"
	"strings"
	"testing"
)

// TestGainTextSlower: a change priced on the wall (replayed) that would
// slow the step says by how much wall time, not a kernel-time "?"; one
// priced in kernel time says its kernel time.
func TestGainTextSlower(t *testing.T) {
	v := &Verdict{Total: 0.010, Timelines: []RunTimeline{{Timeline: &Timeline{Span: 0.080, StepCount: 4, StepWalls: []float64{0.020, 0.020, 0.020, 0.020}}}}}
	for _, c := range []struct {
		r    Recommendation
		want string
	}{
		{Recommendation{Gain: 0.3, WallGain: -0.05, Rank: -0.05}, "~1.000 ms a step of 20.000 ms (5.0% of the wall) slower: not one to make"},
		{Recommendation{Gain: -0.1, WallGain: math.NaN(), Rank: -0.0125}, "~1.000 ms of the 10.000 ms kernel time (10.0%) slower: not one to make"},
	} {
		if got := v.GainText(c.r); got != c.want {
			t.Errorf("GainText(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestTogetherNotReplayed: on a timeline whose levers cannot be replayed
// at once (an nsys GPU trace, a stored run: no host calls), what they
// save together is not stated, where it was their kernel time composed,
// on another basis than the wall the list is ranked on and under its
// first lever; with the replay, or without a timeline, it is.
func TestTogetherNotReplayed(t *testing.T) {
	recs := []Recommendation{{Rule: "pinned-memory", Gain: 0, WallGain: 0.027, Rank: 0.027}, {Rule: "torch-compile", Gain: 0.106, WallGain: 0.001, Rank: 0.001}}
	tl := []RunTimeline{{Timeline: &Timeline{Span: 3.026}}}
	for _, c := range []struct {
		name string
		v    *Verdict
		ok   bool
		say  string
	}{
		{"a timeline, no replay", &Verdict{Total: 0.0395, Timelines: tl, App: &App{Recommendations: recs, Gain: 0.106, WallGain: math.NaN()}}, false, "not summed"},
		{"a timeline, replayed", &Verdict{Total: 0.0395, Timelines: tl, App: &App{Recommendations: recs, Gain: 0.106, WallGain: 0.03}}, true, "replayed at once"},
		{"no timeline", &Verdict{Total: 0.0395, App: &App{Recommendations: recs, Gain: 0.106, WallGain: math.NaN()}}, true, "kernel time"},
		// Replayed at once under the noise: no lever is advice (a step
		// its DataLoader's feed bounds); the gain replayed, 0 as it is,
		// is stated (JSON's together, under_noise).
		{"a timeline, replayed to no gain", &Verdict{Total: 0.0395, Timelines: tl, App: &App{Recommendations: recs, Gain: 0.106, WallGain: 0}}, true, "no lever clears the step's noise: together under 1.0% of the wall"},
		{"a timeline, replayed under the noise", &Verdict{Total: 0.0395, Timelines: tl, App: &App{Recommendations: recs, Gain: 0.106, WallGain: 0.004}}, true, "no lever clears the step's noise"},
		// And says what holds it: its workers' pace.
		{"under the noise, the workers' pace", &Verdict{Total: 0.0395, Timelines: tl, App: &App{Recommendations: recs, Gain: 0.106, WallGain: 0, Feed: 0.005047}}, true, "noise: together under 1.0% of the wall, replayed at once; the DataLoader's workers feed a step every 5.047 ms, which bounds it"},
	} {
		_, ok := c.v.TogetherGain()
		if s := c.v.Together(); ok != c.ok || !strings.Contains(s, c.say) {
			t.Errorf("%s: ok %v, %q; want %v, saying %q", c.name, ok, s, c.ok, c.say)
		}
		if quiet := strings.Contains(c.say, "noise"); c.v.Quiet() != quiet {
			t.Errorf("%s: Quiet() = %v, want %v", c.name, !quiet, quiet)
		}
	}
}
