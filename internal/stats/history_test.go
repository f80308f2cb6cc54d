package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Two-sided critical values of Student's t from the published tables.
func TestStudentTP(t *testing.T) {
	for _, c := range []struct {
		t  float64
		df int
		p  float64
	}{
		{12.706, 1, 0.05}, {63.657, 1, 0.01}, {4.303, 2, 0.05}, {2.228, 10, 0.05},
		{3.169, 10, 0.01}, {2.042, 30, 0.05}, {0, 5, 1},
	} {
		t.Run(fmt.Sprint(c.t), func(t *testing.T) {
			if got := studentTP(c.t, c.df); !near(got, c.p, 2e-3) {
				t.Errorf("studentTP(%g, %d) = %g, want %g", c.t, c.df, got, c.p)
			}
		})
	}
	if p := studentTP(1, 0); !math.IsNaN(p) {
		t.Errorf("df 0: %g, want NaN", p)
	}
}

func shiftIdx(ss []Shift) []int {
	var out []int
	for _, s := range ss {
		out = append(out, s.Index)
	}
	return out
}

func TestLevelShifts(t *testing.T) {
	th := NoisyThresholds
	// A single step with 1% noise: one shift, decided by the history.
	xs := []float64{100, 101, 99, 100.5, 120, 121, 119.5, 120.2}
	ss, sp := th.LevelShifts(xs)
	if got := shiftIdx(ss); len(got) != 1 || got[0] != 4 || ss[0].Method != History || ss[0].P >= 0.05 {
		t.Errorf("step: %+v, spread %v", ss, sp)
	}
	// Moves within the 5% floor are never shifts.
	if ss, _ := th.LevelShifts([]float64{100, 103, 99, 102}); len(ss) != 0 {
		t.Errorf("flat: %+v", ss)
	}
	// Every run a different level: no spread known, the floor decides.
	ss, sp = th.LevelShifts([]float64{100, 50, 200})
	if got := shiftIdx(ss); len(got) != 2 || ss[0].Method != Floor || sp.Known() {
		t.Errorf("all distinct: %+v %v", ss, sp)
	}
	// A build that regressed and was reverted stands alone.
	ss, _ = th.LevelShifts([]float64{10, 10.2, 9.9, 10.1, 20, 10, 10.1})
	if got := shiftIdx(ss); len(got) != 2 || got[0] != 4 || got[1] != 5 {
		t.Errorf("excursion: %+v", ss)
	}
	// Zeros: the floor on consecutive values.
	if ss, _ := th.LevelShifts([]float64{0, 0, 5, 5}); len(ss) != 1 || ss[0].Index != 2 || ss[0].Method != Floor {
		t.Errorf("zeros: %+v", ss)
	}
	// NaNs are skipped; indices refer to the input.
	if ss, _ := th.LevelShifts([]float64{10, math.NaN(), 10.1, 30, 30.2}); len(ss) != 1 || ss[0].Index != 3 {
		t.Errorf("NaN: %+v", ss)
	}
}

// Series of pure noise (log-normal, 2% to 10% spread, 10 to 40 runs)
// rarely show a shift.
func TestLevelShiftsFalseAlarms(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	th := NoisyThresholds
	series, alarms := 0, 0
	for _, sigma := range []float64{0.02, 0.05, 0.1} {
		for _, n := range []int{10, 20, 40} {
			for range 50 {
				xs := make([]float64, n)
				for i := range xs {
					xs[i] = 100 * math.Exp(sigma*r.NormFloat64())
				}
				series++
				if ss, _ := th.LevelShifts(xs); len(ss) > 0 {
					alarms++
				}
			}
		}
	}
	if rate := float64(alarms) / float64(series); rate > 0.15 {
		t.Errorf("%d of %d noise series show a shift (%.0f%%)", alarms, series, rate*100)
	} else {
		t.Logf("%d of %d noise series show a shift", alarms, series)
	}
}

func TestCompareRuns(t *testing.T) {
	th := NoisyThresholds
	sp := Spread{Sigma: 0.02, DF: 5, Runs: 7}
	if ch, p, m := th.CompareRuns([]float64{10}, []float64{12}, sp); !ch || m != History || p >= 0.05 {
		t.Errorf("20%% step, 2%% spread: %v %g %s", ch, p, m)
	}
	if ch, _, m := th.CompareRuns([]float64{10}, []float64{10.3}, sp); ch || m != History {
		t.Errorf("3%% step: %v %s", ch, m)
	}
	if ch, _, m := th.CompareRuns([]float64{10}, []float64{12}, Spread{}); !ch || m != Floor {
		t.Errorf("no spread: %v %s", ch, m)
	}
	if _, _, m := th.CompareRuns([]float64{10, 11, 10.5}, []float64{12, 12.1, 12.2}, sp); m != Launches {
		t.Errorf("launches: %s", m)
	}
}
