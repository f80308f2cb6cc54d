package units

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// QUnit is the unit a quantity was written with on a command line or in a
// config file.
type QUnit int

const (
	// QPlain is a bare number.
	QPlain QUnit = iota
	// QSeconds is a time, written with ns, us (µs), ms or s; Value is in
	// seconds.
	QSeconds
	// QPercent is written with %; Value is the number before the sign.
	QPercent
	// QTimes is a ratio written with x (2x); Value is the number before it.
	QTimes
)

// Quantity is a number as people write thresholds: 50us, 1.2ms, 80%, 2x,
// 0.5. One grammar for every flag and config value that takes one: the
// input contract's decimal numbers (1,234.5, 8.192e+03, .5; not Go's
// 0x1p3 or 1_000), and a unit.
//
// A quantity is kept exact (a rational number) until it is converted to
// the unit it is compared in, and rounded to a float64 once there, so
// 72288ns, 72.288us and 0.072288ms are one threshold, and 5% and 1.05x
// one allowed regression.
type Quantity struct {
	// Value is the quantity in its unit's base (seconds for a time),
	// the float64 nearest the exact value.
	Value float64
	Unit  QUnit
	Text  string // as written

	exact *big.Rat // Value before rounding; nil for the zero Quantity
}

var quantitySuffixes = []struct {
	suffix string
	unit   QUnit
	scale  int // the unit is 10^scale of the base
}{
	// The time units of the exports (timeScale), longest first: a
	// suffix is matched before any it ends with.
	{"nsecond", QSeconds, -9}, {"usecond", QSeconds, -6}, {"msecond", QSeconds, -3}, {"second", QSeconds, 0},
	{"nsec", QSeconds, -9}, {"usec", QSeconds, -6}, {"msec", QSeconds, -3}, {"sec", QSeconds, 0},
	{"ns", QSeconds, -9}, {"us", QSeconds, -6}, {"µs", QSeconds, -6}, {"μs", QSeconds, -6},
	{"ms", QSeconds, -3}, {"s", QSeconds, 0}, {"%", QPercent, 0}, {"x", QTimes, 0}, {"×", QTimes, 0},
}

// QuantityUnits are the units a quantity may end with.
func QuantityUnits() []string {
	out := make([]string, len(quantitySuffixes))
	for i, u := range quantitySuffixes {
		out[i] = u.suffix
	}
	return out
}

// ParseQuantity reads a number with an optional unit: ns, us, µs, ms, s
// (or nsec, usec, msec, sec, nsecond, usecond, msecond, second, as
// exports write them; a time, converted to seconds), % or x. Space between the number and the
// unit is allowed. The number is a decimal as the input contract writes
// one (ParseNumber's grammar); NaN, infinities and numbers past float64's
// range are refused.
func ParseQuantity(s string) (Quantity, error) {
	q := Quantity{Text: strings.TrimSpace(s)}
	num, scale := q.Text, 0
	for _, u := range quantitySuffixes {
		if strings.HasSuffix(num, u.suffix) {
			num, q.Unit, scale = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.unit, u.scale
			break
		}
	}
	r, ok := exactDecimal(num)
	if !ok {
		return Quantity{}, fmt.Errorf("%q is not a number with an optional unit (50us, 1.2ms, 80%%, 2x, 0.5)", s)
	}
	q.set(r.Mul(r, exactPow10(scale)))
	if math.IsInf(q.Value, 0) {
		return Quantity{}, fmt.Errorf("%q is out of range", s)
	}
	return q, nil
}

// exactDecimal reads s, a number by ParseNumber's grammar, exactly.
func exactDecimal(s string) (*big.Rat, bool) {
	f, ok, err := ParseNumber(s)
	if !ok || err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, false
	}
	if strings.IndexByte(s, ',') >= 0 {
		t, good := appendStripped(nil, s)
		if !good {
			return nil, false
		}
		s = string(t)
	}
	// A literal exponent of more than three digits (or a very long
	// mantissa) would make big.Rat build a huge power of ten; float64
	// holds no more than such a number says anyway.
	mant, exp, _ := strings.Cut(strings.ToLower(s), "e")
	if len(mant) > 64 || len(strings.TrimLeft(exp, "+-")) > 3 {
		return new(big.Rat).SetFloat64(f), true
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// exactPow10 is 10^n, exactly.
func exactPow10(n int) *big.Rat {
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(n, -n))), nil)
	if n < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// set makes r the quantity's exact value, and Value the float64 nearest it.
func (q *Quantity) set(r *big.Rat) {
	q.exact = r
	q.Value, _ = r.Float64()
}

// rat is q's exact value.
func (q Quantity) rat() *big.Rat {
	if q.exact == nil {
		return new(big.Rat).SetFloat64(q.Value)
	}
	return new(big.Rat).Set(q.exact)
}

// scaled is q's exact value times num/den, rounded to the nearest float64.
func (q Quantity) scaled(num, den int64) float64 {
	r := q.rat()
	r.Mul(r, big.NewRat(num, den))
	f, _ := r.Float64()
	return f
}

// NonNegative returns an error when q is below zero: thresholds, margins and
// limits cannot be.
func (q Quantity) NonNegative() error {
	if q.Value < 0 {
		return fmt.Errorf("%s: a negative value is not allowed", q.Text)
	}
	return nil
}

// In converts q to the base unit of a metric: unit is the metric's unit
// ("s", "%", "sector", "" ...), fraction says the metric is a fraction 0–1
// (achieved_occupancy), so that 80% means 0.8. A time needs a metric in
// seconds, and a metric in seconds needs a time: a bare 50 on a duration is
// refused rather than read as 50 seconds. A bare number above 1 on a
// fraction is refused too (write 30% or 0.3).
func (q Quantity) In(unit string, fraction bool) (float64, error) {
	switch q.Unit {
	case QSeconds:
		if unit != "s" {
			return 0, fmt.Errorf("%s is a time, but the metric is %s", q.Text, describeUnit(unit, fraction))
		}
		return q.Value, nil
	case QPercent:
		switch {
		case unit == "%":
			return q.Value, nil
		case fraction:
			return q.scaled(1, 100), nil
		}
		return 0, fmt.Errorf("%s is a percentage, but the metric is %s", q.Text, describeUnit(unit, fraction))
	case QTimes:
		if unit == "s" || unit == "%" {
			return 0, fmt.Errorf("%s is a ratio, but the metric is %s", q.Text, describeUnit(unit, fraction))
		}
		return q.Value, nil
	}
	switch {
	case unit == "s":
		return 0, fmt.Errorf("%s has no unit, but the metric is a time: write it with one (%sus, %sms or %ss)", q.Text, q.Text, q.Text, q.Text)
	case fraction && math.Abs(q.Value) > 1:
		return 0, fmt.Errorf("%s is above 1, but the metric is a fraction 0–1: write %s%% or %g", q.Text, q.Text, q.scaled(1, 100))
	}
	return q.Value, nil
}

func describeUnit(unit string, fraction bool) string {
	switch {
	case unit == "s":
		return "a time (seconds)"
	case unit == "%":
		return "a percentage"
	case fraction:
		return "a fraction 0–1"
	case unit == "":
		return "a plain number"
	}
	return "in " + unit
}

// Relative reads q as a relative amount, such as an allowed regression: 10%
// is 0.1, 2x (twice as bad) is 1, a bare number is a percentage (10 is
// 0.1). A time is refused. The result is never negative.
func (q Quantity) Relative() (float64, error) {
	if err := q.NonNegative(); err != nil {
		return 0, err
	}
	switch q.Unit {
	case QSeconds:
		return 0, fmt.Errorf("%s is a time: want a percentage such as 10%% (or a ratio such as 1.5x)", q.Text)
	case QTimes:
		if q.Value < 1 {
			return 0, fmt.Errorf("%s: a ratio below 1x is not a change that can be allowed", q.Text)
		}
		r := q.rat()
		f, _ := r.Sub(r, big.NewRat(1, 1)).Float64()
		return f, nil
	}
	return q.scaled(1, 100), nil
}

// AtThreshold is v as it is compared with a threshold: rounded to 15
// significant digits, all a float64 holds of a decimal. A measured value
// arrives through float arithmetic (72,288 ns is 72288 × 1e-9 s, a
// regression (105 − 100) / 100): on the threshold it may differ from the
// threshold's float64 in the last bit, and which way would decide a gate.
// Thresholds and values compared through AtThreshold agree at the
// threshold whatever unit either was written in; rounding is monotone,
// so values apart by more than the rounding keep their order.
func AtThreshold(v float64) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 14, 64), 64)
	if err != nil {
		return v
	}
	return r
}
