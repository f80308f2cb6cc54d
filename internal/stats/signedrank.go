package stats

import (
	"fmt"
	"math"
)

// SignedRank is the outcome of a one-sided Wilcoxon signed-rank test of
// paired differences.
type SignedRank struct {
	// N is the number of differences that are neither zero nor NaN.
	N int
	// W is the sum of the ranks of |d| over the positive differences, tied
	// magnitudes sharing their mean rank; from 0 to N·(N+1)/2.
	W float64
	// P is the one-sided p-value: the probability, were each difference as
	// likely positive as negative, of a W at least as large. It is exact
	// (every sign assignment counted) for N <= maxExactSigned, else the
	// normal approximation with the tie and continuity corrections.
	P float64
	// MinP is the smallest P that N differences can give (all positive).
	MinP float64
	// Warnings say why P may mean less than it seems.
	Warnings []error
}

// maxExactSigned is the largest N for which SignedRankGreater counts the
// exact distribution: its cost grows as N³.
const maxExactSigned = 60

// SignedRankGreater tests whether paired differences d (one per pair, e.g.
// b − a of two programs timed in turn) tend to be positive, with the
// Wilcoxon signed-rank test: it assumes the differences symmetric about
// their median, nothing of their shape, and is not moved by one outlying
// pair. Zeros and NaNs are left out with a warning.
func SignedRankGreater(d []float64) SignedRank {
	var warn []error
	var mags []float64
	var pos []bool
	zeros, nans := 0, 0
	for _, x := range d {
		switch {
		case math.IsNaN(x):
			nans++
		case x == 0:
			zeros++
		default:
			mags = append(mags, math.Abs(x))
			pos = append(pos, x > 0)
		}
	}
	if nans > 0 {
		warn = append(warn, fmt.Errorf("ignored %d NaN differences", nans))
	}
	if zeros > 0 {
		warn = append(warn, fmt.Errorf("ignored %d zero differences", zeros))
	}
	n := len(mags)
	r := SignedRank{N: n, P: 1, MinP: 1, Warnings: warn}
	if n == 0 {
		r.Warnings = append(r.Warnings, fmt.Errorf("no difference to test"))
		return r
	}
	ranks, ties := rank(mags)
	obs := 0 // doubled W: ranks are multiples of ½
	twice := make([]int, n)
	for i, rk := range ranks {
		twice[i] = int(math.Round(2 * rk))
		if pos[i] {
			obs += twice[i]
		}
	}
	r.W = float64(obs) / 2
	r.MinP = math.Pow(2, -float64(n))
	if n <= maxExactSigned {
		r.P = exactSignedP(twice, obs)
	} else {
		mean := float64(n*(n+1)) / 4
		v := float64(n*(n+1)*(2*n+1))/24 - ties/48
		r.P = 0.5 * math.Erfc((r.W-mean-0.5)/math.Sqrt(v)/math.Sqrt2)
	}
	if r.MinP > DefaultThresholds.Alpha {
		r.Warnings = append(r.Warnings, fmt.Errorf("%d pairs cannot reach p < %g (at best p = %.3g); need more pairs", n, DefaultThresholds.Alpha, r.MinP))
	}
	return r
}

// exactSignedP is the share of the 2^n sign assignments of the doubled
// ranks twice whose positive sum is at least obs, counted by dynamic
// programming over the sums.
func exactSignedP(twice []int, obs int) float64 {
	total := 0
	for _, t := range twice {
		total += t
	}
	ways := make([]float64, total+1)
	ways[0] = 1
	for _, t := range twice {
		for s := total; s >= t; s-- {
			ways[s] += ways[s-t]
		}
	}
	var extreme, all float64
	for s, w := range ways {
		all += w
		if s >= obs {
			extreme += w
		}
	}
	return extreme / all
}
