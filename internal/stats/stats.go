// Package stats holds the statistics profan uses to tell a real change in
// a kernel's metrics from noise: the Mann-Whitney U test, change points in
// a series of runs, and sparklines. It imports only the standard library.
//
// Results carry warnings (too few samples, ignored NaNs, ties) instead of
// failing, so that callers can print them beside the numbers.
package stats

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// comparison is the outcome of a Mann-Whitney U test of two samples.
type comparison struct {
	// U is the Mann-Whitney statistic of the first sample: the number of
	// pairs (x, y) with x > y, plus half the pairs with x == y. It ranges
	// from 0 to N1·N2; N1·N2/2 means no shift.
	U float64
	// Z is U standardized under the null hypothesis (tie- and
	// continuity-corrected); positive when the first sample tends to be
	// larger. 0 when the samples cannot be compared.
	Z float64
	// P is the two-sided p-value: the probability, were both samples drawn
	// from one distribution, of a U at least as far from N1·N2/2.
	P float64
	// Exact says P comes from the exact permutation distribution of the
	// rank sums (ties included), computed when N1+N2 <= maxExact; otherwise
	// it is the normal approximation.
	Exact bool
	// N1 and N2 are the sample sizes, NaNs left out.
	N1, N2 int
	// Warnings say why P may mean less than it seems.
	Warnings []error
}

// maxExact is the largest N1+N2 for which mannWhitney computes the exact
// p-value. The cost grows as N³·min(N1,N2); at 40 it is about a millisecond.
const maxExact = 40

// mannWhitney compares samples x and y with the two-sided Mann-Whitney U
// (Wilcoxon rank-sum) test, which assumes nothing of the distributions'
// shape: it suits durations, whose noise is skewed and has outliers. NaN
// values are left out with a warning. An empty sample, or samples whose
// values are all equal, give P = 1 and a warning.
func mannWhitney(x, y []float64) comparison {
	var warn []error
	x, nx := dropNaN(x)
	y, ny := dropNaN(y)
	if nx+ny > 0 {
		warn = append(warn, fmt.Errorf("ignored %d NaN values", nx+ny))
	}
	n1, n2 := len(x), len(y)
	c := comparison{N1: n1, N2: n2, P: 1, Warnings: warn}
	if n1 == 0 || n2 == 0 {
		c.Warnings = append(c.Warnings, fmt.Errorf("cannot compare: sample sizes %d and %d", n1, n2))
		return c
	}
	all := make([]float64, 0, n1+n2)
	all = append(all, x...)
	all = append(all, y...)
	ranks, ties := rank(all)
	var r1 float64
	for _, r := range ranks[:n1] {
		r1 += r
	}
	c.U = r1 - float64(n1*(n1+1))/2
	sigma := sigmaU(n1, n2, ties)
	if sigma == 0 {
		c.Warnings = append(c.Warnings, fmt.Errorf("all %d values are equal", n1+n2))
		return c
	}
	d := c.U - float64(n1*n2)/2
	c.Z = math.Copysign(math.Max(math.Abs(d)-0.5, 0), d) / sigma
	if n1+n2 <= maxExact {
		c.P = exactP(ranks, n1)
		c.Exact = true
	} else {
		c.P = math.Min(1, math.Erfc(math.Abs(c.Z)/math.Sqrt2))
	}
	if min := minP(n1, n2); min > DefaultThresholds.Alpha {
		c.Warnings = append(c.Warnings, fmt.Errorf("samples of %d and %d cannot reach p < %g (at best p = %.3g); need more repetitions",
			n1, n2, DefaultThresholds.Alpha, min))
	}
	return c
}

// dropNaN returns xs without its NaNs and how many there were.
func dropNaN(xs []float64) ([]float64, int) {
	n := 0
	for _, v := range xs {
		if math.IsNaN(v) {
			n++
		}
	}
	if n == 0 {
		return xs, 0
	}
	out := make([]float64, 0, len(xs)-n)
	for _, v := range xs {
		if !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out, n
}

// rank returns the ranks of xs from 1, tied values sharing their mean rank,
// and the tie term Σ(t³ − t) over the groups of t tied values.
func rank(xs []float64) (ranks []float64, ties float64) {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	ranks = make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		r := float64(i+j+1) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		if t := float64(j - i); t > 1 {
			ties += t*t*t - t
		}
		i = j
	}
	return ranks, ties
}

// sigmaU is the standard deviation of U under the null hypothesis, with the
// tie correction.
func sigmaU(n1, n2 int, ties float64) float64 {
	n := float64(n1 + n2)
	v := float64(n1) * float64(n2) / 12 * ((n + 1) - ties/(n*(n-1)))
	if v <= 0 {
		return 0
	}
	return math.Sqrt(v)
}

// exactP returns the two-sided p-value of the rank sum of the first n1 of
// ranks from its exact permutation distribution: the share of all ways to
// pick n1 of the ranks whose sum is at least as far from its mean. Ranks
// are multiples of ½, so doubled they are integers and the distribution is
// counted by dynamic programming over (values picked, sum).
func exactP(ranks []float64, n1 int) float64 {
	n := len(ranks)
	k := n1
	obs := 0
	d := make([]int, n)
	total := 0
	for i, r := range ranks {
		d[i] = int(math.Round(2 * r))
		total += d[i]
		if i < n1 {
			obs += d[i]
		}
	}
	if k > n-k { // count the smaller side; the deviation is the same
		k = n - k
		obs = total - obs
	}
	// ways[j][s]: ways to pick j of the ranks seen so far with doubled sum s.
	ways := make([][]float64, k+1)
	for j := range ways {
		ways[j] = make([]float64, total+1)
	}
	ways[0][0] = 1
	for i, r := range d {
		for j := min(i+1, k); j >= 1; j-- {
			prev, cur := ways[j-1], ways[j]
			for s := total; s >= r; s-- {
				cur[s] += prev[s-r]
			}
		}
	}
	// mean doubled sum is k·(n+1); compare deviations in doubled units.
	mean2 := k * (n + 1)
	dev := abs(obs - mean2)
	var extreme, all float64
	for s, w := range ways[k] {
		all += w
		if abs(s-mean2) >= dev {
			extreme += w
		}
	}
	return math.Min(1, extreme/all)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// minP is the smallest two-sided p-value the exact test can give for
// samples of n1 and n2 without ties: 2 / C(n1+n2, n1).
func minP(n1, n2 int) float64 {
	return math.Min(1, 2/binomial(n1+n2, n1))
}

func binomial(n, k int) float64 {
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}

// Median returns the median of xs, NaNs left out; NaN when none is left.
func Median(xs []float64) float64 {
	s, _ := dropNaN(xs)
	if len(s) == 0 {
		return math.NaN()
	}
	s = slices.Clone(s)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Rel is the relative change from a to b, (b - a) / |a|: 0 when both are 0,
// +Inf when only a is.
func Rel(a, b float64) float64 {
	if a == 0 {
		if b == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return (b - a) / math.Abs(a)
}
