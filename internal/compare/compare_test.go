package compare

import (
	"math"
	"testing"

	"github.com/profan-dev/profan/internal/stats"
	"github.com/profan-dev/profan/internal/store"
)

func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		name    string
		better  int
		changed bool
		a, b    float64
		want    Verdict
	}{
		{"unchanged", 1, false, 1, 2, verdictSame},
		{"no direction", 0, true, 1, 2, verdictChanged},
		{"higher is better", 1, true, 1, 2, verdictBetter},
		{"lower is better", -1, true, 1, 2, verdictWorse},
		{"lower is better, fell", -1, true, 2, 1, verdictBetter},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := verdict(tt.better, tt.changed, tt.a, tt.b); got != tt.want {
				t.Errorf("verdict(%d, %v, %g, %g) = %s, want %s", tt.better, tt.changed, tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestHalfRange(t *testing.T) {
	for _, tt := range []struct {
		name string
		xs   []float64
		want float64
	}{
		{"one sample", []float64{5}, 0},
		{"spread", []float64{9, 10, 11}, 0.1},
		{"zero median", []float64{-1, 0, 1}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := halfRange(tt.xs); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("halfRange(%v) = %g, want %g", tt.xs, got, tt.want)
			}
		})
	}
}

// TestBuildCounter: a counter is compared exactly, run by run, and one
// series is made per kernel in the order the points come.
func TestBuildCounter(t *testing.T) {
	var pts []store.Point
	for run, v := range []float64{4, 4, 8, 8} {
		pts = append(pts, store.Point{Run: int64(run + 1), Kernel: "k", Value: v})
		pts = append(pts, store.Point{Run: int64(run + 1), Kernel: "j", Value: 2})
	}
	ss := Build(pts, "gld_transactions_per_request")
	if len(ss) != 2 || ss[0].Kernel != "k" || ss[1].Kernel != "j" {
		t.Fatalf("got %d series, want k then j", len(ss))
	}
	if c := ss[0].Changes; len(c) != 1 || c[0].Run != 3 || c[0].Method != stats.Exact || c[0].Rel != 1 {
		t.Errorf("k: changes %+v, want one exact doubling at run 3", c)
	}
	if len(ss[1].Changes) != 0 {
		t.Errorf("j: changes %+v, want none", ss[1].Changes)
	}
}
