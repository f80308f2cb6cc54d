package verdict

import (
	"math"
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
