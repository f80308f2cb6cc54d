package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A trend over 1,000 runs of one launch each, noisy (10%) with a step.
func BenchmarkLevelShifts1000(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float64, 1000)
	for i := range xs {
		lvl := 100.0
		if i >= 500 {
			lvl = 130
		}
		xs[i] = lvl * math.Exp(0.1*r.NormFloat64())
	}
	for b.Loop() {
		NoisyThresholds.LevelShifts(xs)
	}
}
