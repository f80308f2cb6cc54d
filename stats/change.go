package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// Kind says how noisy a metric is, which decides how its changes are found.
type Kind int

const (
	// Deterministic metrics are hardware counters (sectors, requests,
	// instructions, transactions): the same code on the same input gives
	// the same count, so any move beyond MinRelChange is a change.
	Deterministic Kind = iota
	// Noisy metrics are timings and what derives from them (durations,
	// throughputs): a change must be significant against the noise.
	Noisy
)

func (k Kind) String() string {
	if k == Noisy {
		return "noisy"
	}
	return "deterministic"
}

// Thresholds decide when a difference counts as a change.
type Thresholds struct {
	// Alpha is the significance level of the Mann-Whitney tests of noisy
	// series.
	Alpha float64
	// MinRelChange is the smallest relative difference that counts, as a
	// fraction (0.01 = 1 %): between consecutive values of a deterministic
	// series, between segment medians of a noisy one.
	MinRelChange float64
}

// DefaultThresholds suit deterministic metrics: hardware counters move by
// more than 1 % only when the code or its input changed.
var DefaultThresholds = Thresholds{Alpha: 0.05, MinRelChange: 0.01}

// NoisyThresholds suit timings, whose run-to-run spread is often a few
// percent: a change must also move the median by more than 5 %.
var NoisyThresholds = Thresholds{Alpha: 0.05, MinRelChange: 0.05}

// ThresholdsFor returns the default thresholds of a kind of metric.
func ThresholdsFor(k Kind) Thresholds {
	if k == Noisy {
		return NoisyThresholds
	}
	return DefaultThresholds
}

// MinSegment is the fewest points on each side of a change point in a noisy
// series.
const MinSegment = 2

// ChangePoints returns the indices of xs where a new level starts, with the
// default thresholds of kind (see Thresholds.ChangePoints).
func ChangePoints(xs []float64, kind Kind) []int {
	cps, _ := ThresholdsFor(kind).ChangePoints(xs, kind)
	return cps
}

// ChangePoints returns the indices i of xs, in increasing order, where a new
// level starts (xs[i-1] and xs[i] lie on either side of a change), with
// warnings. NaN values are skipped with a warning; indices refer to xs.
//
// A Deterministic series changes wherever a value differs from the previous
// one by more than MinRelChange of it (from 0, any difference counts).
//
// A Noisy series is cut by binary segmentation on ranks. In a segment, the
// split maximizing |z| of the Mann-Whitney U between its left and right
// parts (each at least MinSegment points) is a change point when all of:
//
//   - the Mann-Whitney test of the two parts gives p < Alpha;
//   - their medians differ by more than MinRelChange of the left one;
//   - fewer than Alpha of Permutations random orders of the segment have a
//     split with as large a |z|. This corrects for the split having been
//     chosen as the best of many, which alone would make flat noisy series
//     show changes (a rank-based relative of Pettitt's test).
//
// Both parts are then searched again. When a segment has no such step, the
// stretch [i, j) inside it (0 < i < j < end, at least MinSegment points in
// and out) maximizing |z| of inside against outside is tested the same way,
// with Alpha divided by the number of stretches (Bonferroni): this finds a
// regression that was later reverted, which binary segmentation alone
// misses; i and j are then change points. A segment of fewer than
// 2·MinSegment points cannot be tested: a series that short, or one too
// short for any split to reach p < Alpha (fewer than 8 points at Alpha
// 0.05), gets a warning. Each point is best a summary of one run (the
// median of its launches); compare the launches of two runs with
// MannWhitney.
func (t Thresholds) ChangePoints(xs []float64, kind Kind) ([]int, []error) {
	var warn []error
	vals := make([]float64, 0, len(xs))
	at := make([]int, 0, len(xs)) // index in xs of vals[i]
	for i, v := range xs {
		if !math.IsNaN(v) {
			vals = append(vals, v)
			at = append(at, i)
		}
	}
	if n := len(xs) - len(vals); n > 0 {
		warn = append(warn, fmt.Errorf("ignored %d NaN values", n))
	}
	n := len(vals)
	var cps []int
	switch kind {
	case Deterministic:
		if n < 2 {
			warn = append(warn, fmt.Errorf("series of %s: no change can be tested", points(n)))
			return nil, warn
		}
		for i := 1; i < n; i++ {
			if relChange(vals[i-1], vals[i]) > t.MinRelChange {
				cps = append(cps, i)
			}
		}
	case Noisy:
		if n < 2*MinSegment {
			warn = append(warn, fmt.Errorf("series of %s: at least %d are needed to test for a change", points(n), 2*MinSegment))
			return nil, warn
		}
		if p := minP(n-n/2, n/2); p >= t.Alpha {
			warn = append(warn, fmt.Errorf("series of %s: no split can reach p < %g (at best p = %.3g)", points(n), t.Alpha, p))
		}
		t.segment(vals, 0, n, &cps)
		sort.Ints(cps)
	default:
		return nil, []error{fmt.Errorf("unknown kind %d", kind)}
	}
	for i, c := range cps {
		cps[i] = at[c]
	}
	return cps, warn
}

func points(n int) string {
	if n == 1 {
		return "1 point"
	}
	return fmt.Sprintf("%d points", n)
}

// relChange is |b − a| relative to |a|; from a = 0, +Inf unless b = 0.
func relChange(a, b float64) float64 {
	if a == b {
		return 0
	}
	if a == 0 {
		return math.Inf(1)
	}
	return math.Abs(b-a) / math.Abs(a)
}

// Permutations is the number of random orders of a segment against which
// its best split is compared (see Thresholds.ChangePoints).
const Permutations = 999

// segment finds the change points of xs[lo:hi] and appends them to cps.
func (t Thresholds) segment(xs []float64, lo, hi int, cps *[]int) {
	n := hi - lo
	if n < 2*MinSegment {
		return
	}
	seg := xs[lo:hi]
	ranks, ties := rank(seg)
	sigmas := make([]float64, n)
	for s := MinSegment; s <= n-MinSegment; s++ {
		if sigmas[s] = sigmaU(s, n-s, ties); sigmas[s] == 0 {
			return // all values equal
		}
	}
	best, bestZ := maxZ(ranks, sigmas)
	if t.accept(seg[:best], seg[best:], 1) && t.permutationP(ranks, sigmas, bestZ) < t.Alpha {
		// The rank statistic detects the change but favours balanced
		// parts, so with three levels it can cut inside one of them.
		// Locate the cut by least squares, which has no such bias, when
		// that cut separates the parts as well.
		if ls := lsSplit(seg); ls != best && t.accept(seg[:ls], seg[ls:], 1) {
			best = ls
		}
		*cps = append(*cps, lo+best)
		t.segment(xs, lo, lo+best, cps)
		t.segment(xs, lo+best, hi, cps)
		return
	}
	// No step: look for an excursion, a stretch [i, j) away from the level
	// on both sides of it (a regression later reverted), which no single
	// split separates well.
	i, j, pairs := maxPair(ranks, ties)
	if pairs == 0 {
		return
	}
	out := append(slices.Clone(seg[:i]), seg[j:]...)
	if t.accept(out, seg[i:j], pairs) {
		*cps = append(*cps, lo+i, lo+j)
		t.segment(xs, lo, lo+i, cps)
		t.segment(xs, lo+i, lo+j, cps)
		t.segment(xs, lo+j, hi, cps)
	}
}

// accept reports whether samples a and b differ: Mann-Whitney p <
// Alpha/tests (Bonferroni over the tests the pair was chosen from) and
// medians that differ by more than MinRelChange of a's.
func (t Thresholds) accept(a, b []float64, tests int) bool {
	c := MannWhitney(a, b)
	return c.P < t.Alpha/float64(tests) && relChange(Median(a), Median(b)) > t.MinRelChange
}

// maxPair returns the stretch [i, j) of ranks, 0 < i < j < n, with at least
// MinSegment points inside and outside, that maximizes |z| of the
// Mann-Whitney U of inside against outside, and the number of stretches
// searched (0 when none fits).
func maxPair(ranks []float64, ties float64) (bi, bj, pairs int) {
	n := len(ranks)
	prefix := make([]float64, n+1)
	for k, r := range ranks {
		prefix[k+1] = prefix[k] + r
	}
	sigma := make([]float64, n)
	for m := MinSegment; m <= n-MinSegment; m++ {
		sigma[m] = sigmaU(m, n-m, ties)
	}
	best := -1.0
	for i := 1; i < n; i++ {
		for j := i + MinSegment; j < n; j++ {
			m := j - i
			if n-m < MinSegment {
				break
			}
			pairs++
			n1, n2 := float64(m), float64(n-m)
			u := prefix[j] - prefix[i] - n1*(n1+1)/2
			if z := math.Abs(u-n1*n2/2) / sigma[m]; z > best {
				bi, bj, best = i, j, z
			}
		}
	}
	return bi, bj, pairs
}

// maxZ returns the split s (MinSegment <= s <= n-MinSegment) of ranks that
// maximizes |z| of the Mann-Whitney U of ranks[:s] against ranks[s:], and
// that |z|. The rank sum of the left part grows by one rank per split, so
// each split costs O(1); sigmas[s] is the standard deviation of U at s.
func maxZ(ranks, sigmas []float64) (best int, bestZ float64) {
	n := len(ranks)
	var r1 float64
	best = MinSegment
	for s := 1; s <= n-MinSegment; s++ {
		r1 += ranks[s-1]
		if s < MinSegment {
			continue
		}
		n1, n2 := float64(s), float64(n-s)
		u := r1 - n1*(n1+1)/2
		if z := math.Abs(u-n1*n2/2) / sigmas[s]; z > bestZ {
			best, bestZ = s, z
		}
	}
	return best, bestZ
}

// permutationP returns the share of random orders of ranks whose best split
// reaches |z| >= z: the p-value of the best split of the segment, corrected
// for its having been chosen among all splits. The generator has a fixed
// seed, so results are reproducible. It stops early once the p-value cannot
// fall below Alpha.
func (t Thresholds) permutationP(ranks, sigmas []float64, z float64) float64 {
	r := rand.New(rand.NewPCG(uint64(len(ranks)), 0x70726f66616e))
	perm := slices.Clone(ranks)
	limit := int(t.Alpha * (Permutations + 1))
	exceed := 0
	for range Permutations {
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if _, pz := maxZ(perm, sigmas); pz >= z*(1-1e-12) {
			if exceed++; exceed > limit {
				return 1
			}
		}
	}
	return float64(exceed+1) / (Permutations + 1)
}

// Sparkline draws xs as a line of block characters ▁▂▃▄▅▆▇█ scaled from
// the smallest value to the largest. NaN draws as a space; a series whose
// values are all equal draws at mid height (▄).
func Sparkline(xs []float64) string {
	const bars = "▁▂▃▄▅▆▇█"
	levels := []rune(bars)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range xs {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var b strings.Builder
	for _, v := range xs {
		switch {
		case math.IsNaN(v):
			b.WriteRune(' ')
		case hi == lo || math.IsInf(hi-lo, 0):
			b.WriteRune(levels[3])
		default:
			i := int(math.Round((v - lo) / (hi - lo) * float64(len(levels)-1)))
			b.WriteRune(levels[i])
		}
	}
	return b.String()
}

// lsSplit returns the split of xs (each part at least MinSegment long)
// that minimizes the summed squared deviation of both parts from their
// means: the classic least-squares location of a single change.
func lsSplit(xs []float64) int {
	n := len(xs)
	var sum, sq float64
	pre := make([]float64, n+1)
	preSq := make([]float64, n+1)
	for i, x := range xs {
		sum += x
		sq += x * x
		pre[i+1], preSq[i+1] = sum, sq
	}
	best, bestCost := MinSegment, math.Inf(1)
	for s := MinSegment; s <= n-MinSegment; s++ {
		l, r := float64(s), float64(n-s)
		cost := (preSq[s] - pre[s]*pre[s]/l) + (preSq[n] - preSq[s] - (pre[n]-pre[s])*(pre[n]-pre[s])/r)
		if cost < bestCost {
			best, bestCost = s, cost
		}
	}
	return best
}
