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
