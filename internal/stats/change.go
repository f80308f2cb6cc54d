package stats

import (
	"fmt"
	"math"
	"strings"
)

// Thresholds decide when a difference counts as a change.
type Thresholds struct {
	// Alpha is the significance level of the tests of noisy values.
	Alpha float64
	// MinRelChange is the smallest relative difference that counts, as a
	// fraction (0.01 = 1 %): between consecutive values of a counter,
	// between the levels of noisy values.
	MinRelChange float64
}

// DefaultThresholds suit deterministic metrics: hardware counters move by
// more than 1 % only when the code or its input changed.
var DefaultThresholds = Thresholds{Alpha: 0.05, MinRelChange: 0.01}

// NoisyThresholds suit timings, whose run-to-run spread is often a few
// percent: a change must also move the median by more than 5 %.
var NoisyThresholds = Thresholds{Alpha: 0.05, MinRelChange: 0.05}

// ChangePoints returns the indices of xs where a counter's series changes,
// with the default thresholds (see Thresholds.changePoints).
func ChangePoints(xs []float64) []int {
	cps, _ := DefaultThresholds.changePoints(xs)
	return cps
}

// changePoints returns the indices i of the series of a hardware counter
// (sectors, requests, instructions: the same code on the same input gives
// the same count), in increasing order, where xs[i] differs from the
// previous value by more than MinRelChange of it (from 0, any difference
// counts), with warnings. NaN values are skipped with a warning; indices
// refer to xs. Noisy values (times, rates) are cut into levels against
// their run-to-run spread by LevelShifts instead.
func (t Thresholds) changePoints(xs []float64) ([]int, []error) {
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
	if n < 2 {
		warn = append(warn, fmt.Errorf("series of %s: no change can be tested", points(n)))
		return nil, warn
	}
	var cps []int
	for i := 1; i < n; i++ {
		if relChange(vals[i-1], vals[i]) > t.MinRelChange {
			cps = append(cps, at[i])
		}
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
