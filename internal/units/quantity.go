package units

import (
	"fmt"
	"math"
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
// 0.5. One grammar for every flag and config value that takes one.
type Quantity struct {
	Value float64
	Unit  QUnit
	Text  string // as written
}

var quantitySuffixes = []struct {
	suffix string
	unit   QUnit
	scale  float64
}{
	{"ns", QSeconds, 1e-9}, {"us", QSeconds, 1e-6}, {"µs", QSeconds, 1e-6}, {"μs", QSeconds, 1e-6},
	{"ms", QSeconds, 1e-3}, {"s", QSeconds, 1}, {"%", QPercent, 1}, {"x", QTimes, 1}, {"×", QTimes, 1},
}

// ParseQuantity reads a number with an optional unit: ns, us, µs, ms, s (a
// time, converted to seconds), % or x. Space between the number and the
// unit is allowed. NaN and infinities are refused.
func ParseQuantity(s string) (Quantity, error) {
	q := Quantity{Text: strings.TrimSpace(s)}
	num, scale := q.Text, 1.0
	for _, u := range quantitySuffixes {
		if strings.HasSuffix(num, u.suffix) {
			num, q.Unit, scale = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.unit, u.scale
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return Quantity{}, fmt.Errorf("%q is not a number with an optional unit (50us, 1.2ms, 80%%, 2x, 0.5)", s)
	}
	q.Value = v * scale
	return q, nil
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
			return q.Value / 100, nil
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
		return 0, fmt.Errorf("%s is above 1, but the metric is a fraction 0–1: write %s%% or %g", q.Text, q.Text, q.Value/100)
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
		return q.Value - 1, nil
	}
	return q.Value / 100, nil
}
