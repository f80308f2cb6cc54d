package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignedRankGreater holds the exact test to counts done by hand, and to
// a brute-force count of every sign assignment on random differences
// (ties included), and the normal approximation to the exact value.
func TestSignedRankGreater(t *testing.T) {
	for _, c := range []struct {
		d    []float64
		w, p float64
	}{
		{[]float64{1, 2, 3, 4, 5}, 15, 1.0 / 32},
		{[]float64{-1, 2, 3, 4, 5}, 14, 2.0 / 32},    // W >= 14: {all}, {all but rank 1}
		{[]float64{-1, -2, -3, -4, -5}, 0, 1},        // every assignment has W >= 0
		{[]float64{1, -1, 2}, 4.5, 3.0 / 8},          // ranks 1.5, 1.5, 3: W >= 4.5 for +{1.5, 3} (twice) and all
		{[]float64{0, math.NaN(), 3, 4}, 3, 1.0 / 4}, // zeros and NaNs out: two left, both positive
		{[]float64{0.1, 0.2, -0.05, 0.3, 0.4, 0.5}, 20, 2.0 / 64},
	} {
		r := SignedRankGreater(c.d)
		if r.W != c.w || math.Abs(r.P-c.p) > 1e-12 {
			t.Errorf("%v: W %g, P %g; want %g, %g", c.d, r.W, r.P, c.w, c.p)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + rng.IntN(12)
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(rng.IntN(9) - 4) // ties and zeros
		}
		r := SignedRankGreater(d)
		if got, want := r.P, bruteSignedP(d); math.Abs(got-want) > 1e-12 {
			t.Errorf("%v: P %g, brute force %g", d, got, want)
		}
	}
	d := make([]float64, 40)
	for i := range d {
		d[i] = rng.NormFloat64() + 0.3
	}
	exact := SignedRankGreater(d).P
	big := append(d, d...) // beyond maxExactSigned: the normal approximation
	if r := SignedRankGreater(big); r.N != 80 || r.P >= exact {
		t.Errorf("80 differences: P %g, want below the 40's %g", r.P, exact)
	}
	if r := SignedRankGreater([]float64{1, 2, 3}); len(r.Warnings) == 0 || r.MinP != 0.125 {
		t.Errorf("3 pairs: MinP %g, warnings %v; want 0.125 and a warning", r.MinP, r.Warnings)
	}
}

// bruteSignedP counts every sign assignment of the non-zero magnitudes.
func bruteSignedP(d []float64) float64 {
	var mags []float64
	obs := 0.0
	for _, x := range d {
		if x != 0 {
			mags = append(mags, math.Abs(x))
		}
	}
	if len(mags) == 0 {
		return 1
	}
	ranks, _ := rank(mags)
	j := 0
	for _, x := range d {
		if x != 0 {
			if x > 0 {
				obs += ranks[j]
			}
			j++
		}
	}
	n := len(mags)
	ge := 0
	for m := 0; m < 1<<n; m++ {
		w := 0.0
		for i := range n {
			if m&(1<<i) != 0 {
				w += ranks[i]
			}
		}
		if w >= obs-1e-9 {
			ge++
		}
	}
	return float64(ge) / float64(int(1)<<n)
}
