package html

import (
	"math"
	"testing"
	"time"
)

// TestTicksBounded pins a hang: a trend whose values differ
// by one floating-point step (a details and a raw page of one capture:
// 9.9616e-05 against 9.961599999999999e-05) looped forever in niceTicks.
func TestTicksBounded(t *testing.T) {
	cases := [][2]float64{
		{9.961599999999999e-05, 9.9616e-05},
		{1, math.Nextafter(1, 2)},
		{1e300, math.Nextafter(1e300, math.Inf(1))},
		{-1e-300, 1e-300},
		{0, 0},
		{5, 5},
		{math.NaN(), 1},
		{0, math.Inf(1)},
		{-math.MaxFloat64, math.MaxFloat64},
		{0, 1e308},
	}
	done := make(chan bool)
	go func() {
		for _, c := range cases {
			ticks := niceTicks(c[0], c[1], 5)
			if len(ticks) < 2 || len(ticks) > maxTicks {
				t.Errorf("niceTicks(%g, %g): %d ticks", c[0], c[1], len(ticks))
			}
			for i := 1; i < len(ticks); i++ {
				if !(ticks[i] > ticks[i-1]) {
					t.Errorf("niceTicks(%g, %g): ticks not increasing: %v", c[0], c[1], ticks)
					break
				}
			}
			if st := sectorTicks(c[1]); len(st) > maxTicks {
				t.Errorf("sectorTicks(%g): %d ticks", c[1], len(st))
			}
		}
		done <- true
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("tick computation does not end")
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		what string
		want string
	}{{1, "launch", "1 launch"}, {2, "launch", "2 launches"}, {3, "value", "3 values"}, {0, "change", "0 changes"}} {
		if got := plural(c.n, c.what); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.what, got, c.want)
		}
	}
}
