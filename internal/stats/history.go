package stats

import (
	"fmt"
	"math"
)

// Method names what decided that two runs differ, so that every output can
// say it.
type Method string

const (
	// Exact: a hardware counter, compared exactly (a move of more than
	// MinRelChange).
	Exact Method = "exact"
	// Launches: the launches of both runs (three or more each), compared
	// with a Mann-Whitney U test.
	Launches Method = "launches"
	// History: one launch per run; the step is tested against the
	// run-to-run spread of the series' stable stretches (a t-test on the
	// logarithms, as Bencher's t-test thresholds do over recent runs).
	History Method = "history"
	// Floor: one launch per run and no run-to-run spread known yet (no
	// stretch of two runs or more at one level): the relative floor
	// MinRelChange alone decided.
	Floor Method = "floor"
)

// Spread is the run-to-run noise of a series of one value per run,
// estimated from its stable stretches: the runs between change points.
type Spread struct {
	// Sigma is the pooled standard deviation of ln(value) within the
	// stretches: about the relative spread of one run (0.02 = 2%).
	Sigma float64
	// DF is the degrees of freedom of Sigma: runs in stretches minus
	// stretches. 0 means no spread is known.
	DF int
	// Runs is the number of runs Sigma was estimated from.
	Runs int
}

// Known reports whether the spread can back a test.
func (s Spread) Known() bool { return s.DF > 0 && !math.IsNaN(s.Sigma) }

func (s Spread) String() string {
	if !s.Known() {
		return "no run-to-run spread known yet"
	}
	return fmt.Sprintf("run-to-run spread %.2g%% (%d runs, %d df)", s.Sigma*100, s.Runs, s.DF)
}

// Shift is a change of level in a series of runs.
type Shift struct {
	// Index is where the new level starts: xs[Index-1] and xs[Index] lie on
	// either side of it.
	Index int
	// P is the p-value of the test that decided it (0 when Method is Floor).
	P float64
	// Method is what decided it.
	Method Method
}

// LevelShifts finds the changes of level of a noisy series with one value
// per run (a run's single launch, or the median of its launches). It works
// on logarithms, so that steps are relative:
//
//  1. Binary segmentation by least squares, down to stretches of a single
//     run, cuts wherever the means of the two parts differ by more than
//     MinRelChange.
//  2. The run-to-run spread is pooled from the stretches between cuts
//     (Spread). While it is known, the cut whose step is least significant
//     — a two-sample t-test of the stretches on either side against the
//     pooled spread — is removed if its p-value reaches Alpha, and the
//     spread is estimated again; so a run that is merely noisy joins its
//     neighbours while a build that truly changed stays alone.
//
// Without a known spread (no stretch holds two runs), the cuts of step 1
// stand on MinRelChange alone, with Method Floor. A series with a value of
// zero or less cannot be taken logarithms of: its steps are then compared
// as relative changes of consecutive values, with Method Floor. NaN values
// are skipped; indices refer to xs.
func (t Thresholds) LevelShifts(xs []float64) ([]Shift, Spread) {
	var ys []float64
	var at []int
	positive := true
	for i, v := range xs {
		if math.IsNaN(v) {
			continue
		}
		if v <= 0 {
			positive = false
		}
		ys = append(ys, v)
		at = append(at, i)
	}
	var out []Shift
	if !positive {
		for i := 1; i < len(ys); i++ {
			if relChange(ys[i-1], ys[i]) > t.MinRelChange {
				out = append(out, Shift{Index: at[i], Method: Floor})
			}
		}
		return out, Spread{Sigma: math.NaN()}
	}
	for i, v := range ys {
		ys[i] = math.Log(v)
	}
	floor := math.Log1p(t.MinRelChange)
	var cuts []int
	lsSegment(ys, 0, len(ys), floor, &cuts)
	sortInts(cuts)
	sp := levelSpread(ys, floor)
	tests := len(ys) - 1 // the positions a cut could have been chosen from
	for sp.Known() && len(cuts) > 0 {
		worst, worstP := -1, -1.0
		for k := range cuts {
			if p := stepP(ys, cuts, k, sp); p > worstP {
				worst, worstP = k, p
			}
		}
		if worstP < t.Alpha/float64(tests) {
			break
		}
		cuts = append(cuts[:worst], cuts[worst+1:]...)
	}
	for k, c := range cuts {
		s := Shift{Index: at[c], Method: Floor}
		if sp.Known() {
			s.Method, s.P = History, stepP(ys, cuts, k, sp)
		}
		out = append(out, s)
	}
	return out, sp
}

// Comparison is the one comparison of a metric between two runs.
type Comparison struct {
	Changed bool
	P       float64
	Method  Method
}

// CompareMetric compares a metric's launches in two runs. A counter (not
// noisy) is compared exactly (a move of more than minRel); a timing with
// NoisyThresholds.CompareRuns: the launches when both runs have three or
// more, else the run-to-run spread of the kernel's history, else the 5%
// floor.
func CompareMetric(noisy bool, xa, xb []float64, hist Spread, minRel float64) Comparison {
	if !noisy {
		return Comparison{Changed: math.Abs(Rel(Median(xa), Median(xb))) > minRel && Median(xa) != Median(xb), Method: Exact}
	}
	ch, p, m := NoisyThresholds.CompareRuns(xa, xb, hist)
	return Comparison{Changed: ch, P: p, Method: m}
}

// CompareRuns decides whether run b differs from run a, given their values
// (one per launch) and the run-to-run spread of their series: with three
// launches or more on both sides, a Mann-Whitney U test of the launches;
// else, with a known spread, a t-test of the step between the runs' medians
// against it; else the relative floor. In every case the medians must also
// differ by more than MinRelChange.
func (t Thresholds) CompareRuns(a, b []float64, sp Spread) (changed bool, p float64, m Method) {
	ma, mb := Median(a), Median(b)
	big := relChange(ma, mb) > t.MinRelChange
	na, nb := countFinite(a), countFinite(b)
	switch {
	case na >= 3 && nb >= 3:
		c := mannWhitney(a, b)
		return big && c.P < t.Alpha, c.P, Launches
	case sp.Known() && ma > 0 && mb > 0:
		se := sp.Sigma * math.Sqrt(1/float64(na)+1/float64(nb))
		p = 1.0
		if se > 0 {
			p = studentTP(math.Abs(math.Log(mb)-math.Log(ma))/se, sp.DF)
		} else if ma != mb {
			p = 0
		}
		return big && p < t.Alpha, p, History
	}
	return big, 0, Floor
}

func countFinite(xs []float64) int {
	n := 0
	for _, x := range xs {
		if !math.IsNaN(x) {
			n++
		}
	}
	return n
}

// lsSegment cuts ys[lo:hi] by least squares where the means of the parts
// differ by more than floor, recursively, down to single points.
func lsSegment(ys []float64, lo, hi int, floor float64, cuts *[]int) {
	n := hi - lo
	if n < 2 {
		return
	}
	var sum float64
	for _, y := range ys[lo:hi] {
		sum += y
	}
	best, bestGain, bestStep := -1, -1.0, 0.0
	var left float64
	for s := 1; s < n; s++ {
		left += ys[lo+s-1]
		l, r := float64(s), float64(n-s)
		ml, mr := left/l, (sum-left)/r
		// Reduction of the summed squares by the cut.
		if gain := l * r / float64(n) * (ml - mr) * (ml - mr); gain > bestGain {
			best, bestGain, bestStep = s, gain, math.Abs(ml-mr)
		}
	}
	if best < 0 || bestStep <= floor {
		return
	}
	*cuts = append(*cuts, lo+best)
	lsSegment(ys, lo, lo+best, floor, cuts)
	lsSegment(ys, lo+best, hi, floor, cuts)
}

// levelSpread pools the spread of the runs that sit at one level, wherever
// they are in the series: the sorted values are grouped wherever two
// neighbours are more than floor apart, and the spread is pooled within the
// groups. A level a series returns to (a regression reverted, a variant
// rebuilt) thus informs the noise as much as a stretch of consecutive runs.
func levelSpread(ys []float64, floor float64) Spread {
	s := append([]float64(nil), ys...)
	sortFloats(s)
	gap := floor
	var sp Spread
	for range 20 {
		var cuts []int
		for i := 1; i < len(s); i++ {
			if s[i]-s[i-1] > gap {
				cuts = append(cuts, i)
			}
		}
		sp = pooledSpread(s, cuts)
		// Groups cut by gaps that the noise itself makes would bias the
		// spread low: a gap separates levels only when it is wider than
		// levelGap spreads too.
		next := gap
		if sp.Known() {
			next = math.Max(floor, levelGap*sp.Sigma)
		}
		if next <= gap {
			break
		}
		gap = next
	}
	return sp
}

// levelGap is how many run-to-run spreads apart two levels must be for
// levelSpread to tell them apart.
const levelGap = 4

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// bounds returns the stretches [b[k], b[k+1]) between cuts.
func bounds(n int, cuts []int) []int {
	b := make([]int, 0, len(cuts)+2)
	b = append(b, 0)
	b = append(b, cuts...)
	return append(b, n)
}

func mean(ys []float64) float64 {
	var s float64
	for _, y := range ys {
		s += y
	}
	return s / float64(len(ys))
}

// pooledSpread is the pooled standard deviation of ys within the
// stretches between cuts.
func pooledSpread(ys []float64, cuts []int) Spread {
	b := bounds(len(ys), cuts)
	var ss float64
	sp := Spread{}
	for k := 0; k+1 < len(b); k++ {
		seg := ys[b[k]:b[k+1]]
		if len(seg) < 2 {
			continue
		}
		m := mean(seg)
		for _, y := range seg {
			ss += (y - m) * (y - m)
		}
		sp.DF += len(seg) - 1
		sp.Runs += len(seg)
	}
	sp.Sigma = math.NaN()
	if sp.DF > 0 {
		sp.Sigma = math.Sqrt(ss / float64(sp.DF))
	}
	return sp
}

// stepP is the two-sided p-value of the step at cuts[k]: the stretches on
// either side compared with a t-test against the pooled spread.
func stepP(ys []float64, cuts []int, k int, sp Spread) float64 {
	b := bounds(len(ys), cuts)
	l, r := ys[b[k]:b[k+1]], ys[b[k+1]:b[k+2]]
	d := math.Abs(mean(r) - mean(l))
	se := sp.Sigma * math.Sqrt(1/float64(len(l))+1/float64(len(r)))
	if se == 0 {
		if d == 0 {
			return 1
		}
		return 0
	}
	return studentTP(d/se, sp.DF)
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// studentTP is the two-sided p-value of |t| >= t under Student's t
// distribution with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2).
func studentTP(t float64, df int) float64 {
	if df <= 0 || math.IsNaN(t) {
		return math.NaN()
	}
	if math.IsInf(t, 0) {
		return 0
	}
	v := float64(df)
	return regIncBeta(v/(v+t*t), v/2, 0.5)
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (Lentz's method).
func regIncBeta(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(x, a, b) / a
	}
	return 1 - front*betaCF(1-x, b, a)/b
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method; each term m takes two steps, one even and
// one odd.
func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	nonzero := func(v float64) float64 {
		if math.Abs(v) < tiny {
			return tiny
		}
		return v
	}
	c, d := 1.0, 1/nonzero(1-(a+b)*x/(a+1))
	h := d
	// step applies one coefficient and returns the factor it gives h.
	step := func(num float64) float64 {
		d = 1 / nonzero(1+num*d)
		c = nonzero(1 + num/c)
		return d * c
	}
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		h *= step(fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)))
		del := step(-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)))
		h *= del
		if math.Abs(del-1) < 1e-14 {
			break
		}
	}
	return h
}
