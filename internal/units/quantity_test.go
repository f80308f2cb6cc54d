package units

import (
	"math"
	"strings"
	"testing"
)

func TestParseQuantity(t *testing.T) {
	for _, c := range []struct {
		in   string
		v    float64
		unit QUnit
	}{
		{"50us", 50e-6, QSeconds}, {"50 µs", 50e-6, QSeconds}, {"1.2ms", 1.2e-3, QSeconds}, {"3ns", 3e-9, QSeconds},
		{"0.5s", 0.5, QSeconds}, {"80%", 80, QPercent}, {"2x", 2, QTimes}, {"1.5×", 1.5, QTimes},
		{"0.5", 0.5, QPlain}, {"-3", -3, QPlain}, {"1e3", 1000, QPlain},
	} {
		t.Run(c.in, func(t *testing.T) {
			q, err := ParseQuantity(c.in)
			if err != nil || math.Abs(q.Value-c.v) > 1e-12*math.Abs(c.v) || q.Unit != c.unit {
				t.Errorf("ParseQuantity(%q) = %+v, %v; want %g unit %d", c.in, q, err, c.v, c.unit)
			}
		})
	}
	for _, bad := range []string{"", "nan", "NaN%", "inf", "-Inf", "us", "5 parsecs", "50u s", "%"} {
		if q, err := ParseQuantity(bad); err == nil {
			t.Errorf("ParseQuantity(%q) = %+v, want an error", bad, q)
		}
	}
}

func TestQuantityIn(t *testing.T) {
	for _, c := range []struct {
		in       string
		unit     string
		fraction bool
		want     float64
		err      string
	}{
		{"50us", "s", false, 50e-6, ""},
		{"50", "s", false, 0, "write it with one"},
		{"10%", "s", false, 0, "percentage"},
		{"80%", "%", false, 80, ""},
		{"80", "%", false, 80, ""},
		{"30%", "", true, 0.3, ""},
		{"0.3", "", true, 0.3, ""},
		{"30", "", true, 0, "fraction 0–1"},
		{"2x", "sector", false, 2, ""},
		{"2x", "s", false, 0, "ratio"},
		{"50us", "%", false, 0, "time"},
		{"5%", "sector", false, 0, "percentage"},
	} {
		t.Run(c.in, func(t *testing.T) {
			q, err := ParseQuantity(c.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.In(c.unit, c.fraction)
			switch {
			case c.err == "" && (err != nil || math.Abs(got-c.want) > 1e-12):
				t.Errorf("%s in %q: %g, %v; want %g", c.in, c.unit, got, err, c.want)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("%s in %q: %g, %v; want an error with %q", c.in, c.unit, got, err, c.err)
			}
		})
	}
}

func TestQuantityRelative(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{{"10%", 0.1, true}, {"10", 0.1, true}, {"2x", 1, true}, {"1.1x", 0.1, true}, {"0.5x", 0, false}, {"-5%", 0, false}, {"5ms", 0, false}} {
		t.Run(c.in, func(t *testing.T) {
			q, err := ParseQuantity(c.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.Relative()
			if (err == nil) != c.ok || (c.ok && math.Abs(got-c.want) > 1e-12) {
				t.Errorf("Relative(%s) = %g, %v; want %g ok=%v", c.in, got, err, c.want, c.ok)
			}
		})
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"50us", "1.2ms", "80%", "2x", "nan", "-1e308x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err == nil && (math.IsNaN(q.Value) || math.IsInf(q.Value, 0)) {
			t.Errorf("ParseQuantity(%q) = %+v", s, q)
		}
	})
}

// TestQuantityExact: a quantity is one value whatever unit and number
// spelling wrote it, and numbers follow the input contract's grammar.
func TestQuantityExact(t *testing.T) {
	same := [][]string{
		{"72288ns", "72.288us", "72.288µs", "72.288 μs", "0.072288ms", "0.000072288s", "7.2288e-5s", "72,288ns", "72288e0ns", "7.2288E+04ns",
			"72288nsec", "72.288usec", "0.072288msec", "0.000072288sec", "72288 nsecond", "72.288usecond", "0.072288 msecond", "0.000072288second"},
		{"1.2ms", "1200us", "1,200us", "1200000ns", ".0012s", "12e-4s"},
		{"76.54%", "7654e-2%", "76.540%"},
		{"0.7654", ".7654", "7.654e-1", "0.76540"},
		{"4800000000000", "4.8e12", "4,800,000,000,000", "48e11"},
		{"1.05x", "105e-2x", "1.050×"},
	}
	for _, group := range same {
		first, err := ParseQuantity(group[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range group[1:] {
			q, err := ParseQuantity(s)
			if err != nil || q.Value != first.Value || q.Unit != first.Unit {
				t.Errorf("ParseQuantity(%q) = %v %v, want %v as %q", s, q.Value, err, first.Value, group[0])
			}
		}
	}
	for _, bad := range []string{"1_0_0us", "1_000", "0x1p3", "0x10", "0b101", "0o17", "1e", "1.2.3ms", "1,00us", "++1", "1e400", "-1e400s", "Infinity", "1e1000000000"} {
		if q, err := ParseQuantity(bad); err == nil {
			t.Errorf("ParseQuantity(%q) = %+v, want an error", bad, q)
		}
	}
	// An allowed regression or a share: 5% is 1.05x is 5.
	rel := func(s string) float64 {
		t.Helper()
		q, err := ParseQuantity(s)
		if err != nil {
			t.Fatal(err)
		}
		v, err := q.Relative()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, s := range []string{"1.05x", "5", "5.0%", "105e-2x"} {
		if got, want := rel(s), rel("5%"); got != want {
			t.Errorf("%s: relative %v, want %v as 5%%", s, got, want)
		}
	}
	// A fraction written as a percentage.
	q, _ := ParseQuantity("76.54%")
	if v, err := q.In("", true); err != nil || v != 0.7654 {
		t.Errorf("76.54%% of a fraction: %v %v, want 0.7654", v, err)
	}
}

// TestAtThreshold: a value that float arithmetic moved off its decimal
// compares as that decimal.
func TestAtThreshold(t *testing.T) {
	for _, c := range []struct{ got, want float64 }{
		{72288 * 1e-9, 72.288e-6},
		{(105e-6 - 100e-6) / 100e-6, 0.05},
		{0.7654000000000001, 0.7654},
		{0.1 + 0.2, 0.3},
		{0, 0},
	} {
		if a, b := AtThreshold(c.got), AtThreshold(c.want); a != b {
			t.Errorf("AtThreshold(%v) = %v, AtThreshold(%v) = %v", c.got, a, c.want, b)
		}
	}
	// Order is kept.
	if !(AtThreshold(1.0000000000001) > AtThreshold(1)) {
		t.Errorf("1.0000000000001 reads as 1")
	}
	if !math.IsNaN(AtThreshold(math.NaN())) {
		t.Errorf("NaN")
	}
}
