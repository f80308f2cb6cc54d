package units

import (
	"errors"
	"math"
	"testing"
)

func TestLookup(t *testing.T) {
	test := func(unit string, base float64, wantBase string, wantFactor float64) {
		t.Helper()
		got := Lookup(unit, base)
		if got.Base != wantBase || math.Abs(got.Factor-wantFactor) > 1e-9*wantFactor {
			t.Errorf("Lookup(%q, %v) = %v %q, want %v %q", unit, base, got.Factor, got.Base, wantFactor, wantBase)
		}
	}
	// ncu: decimal prefixes, every spelling seen in real exports.
	test("byte", Decimal, "B", 1)
	test("Kbyte", Decimal, "B", 1e3)
	test("Mbyte", Decimal, "B", 1e6)
	test("Gbyte", Decimal, "B", 1e9)
	test("byte/second", Decimal, "B/s", 1)
	test("byte/s", Decimal, "B/s", 1)
	test("Gbyte/s", Decimal, "B/s", 1e9)
	test("Tbyte/s", Decimal, "B/s", 1e12)
	test("nsecond", Decimal, "s", 1e-9)
	test("ns", Decimal, "s", 1e-9)
	test("usecond", Decimal, "s", 1e-6)
	test("us", Decimal, "s", 1e-6)
	test("msecond", Decimal, "s", 1e-3)
	test("ms", Decimal, "s", 1e-3)
	test("cycle/second", Decimal, "Hz", 1)
	test("cycle/nsecond", Decimal, "Hz", 1e9)
	test("hz", Decimal, "Hz", 1)
	test("Ghz", Decimal, "Hz", 1e9)
	test("Mhz", Decimal, "Hz", 1e6)
	test("%", Decimal, "%", 1)
	test("", Decimal, "", 1)
	test("Kbyte/block", Decimal, "B/block", 1e3)
	test("byte/block", Decimal, "B/block", 1)
	test("register/thread", Decimal, "register/thread", 1)
	test("inst/cycle", Decimal, "inst/cycle", 1)
	test("sector", Decimal, "sector", 1)
	test("sectors", Decimal, "sector", 1)
	// nvprof: binary prefixes (a 200,000-byte copy prints as 195.3125 KB).
	test("KB", Binary, "B", 1024)
	test("MB", Binary, "B", 1<<20)
	test("GB", Binary, "B", 1<<30)
	test("MB/s", Binary, "B/s", 1<<20)
	test("GB/s", Binary, "B/s", 1<<30)
	test("B/s", Binary, "B/s", 1)
}

func TestCSVFormatsExamples(t *testing.T) {
	// ncu prints 8192 B as "8.19" Kbyte; nvprof prints
	// 409,600 B in 1.028854 ms as 379.670001 MB/s.
	if v := 8.19 * Lookup("Kbyte", Decimal).Factor; math.Abs(v-8192) > 5 {
		t.Errorf("8.19 Kbyte = %v B, want about 8192", v)
	}
	if v := 379.670001 * Lookup("MB/s", Binary).Factor; math.Abs(v-409600/1.028854e-3) > 1e3 {
		t.Errorf("379.670001 MB/s = %v B/s, want %v", v, 409600/1.028854e-3)
	}
}

func TestParseNumber(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
		err  bool
	}{
		{"0", 0, true, false},
		{"1.59", 1.59, true, false},
		{"63,779", 63779, true, false},
		{"14,103,936", 14103936, true, false},
		{"58,748.42", 58748.42, true, false},
		{"5,318,969,728.00", 5318969728, true, false},
		{"16,764,800,860,160.00", 16764800860160, true, false},
		{"-1,234.5", -1234.5, true, false},
		{"8.192000e+03", 8192, true, false},
		{"8.960000e-04", 8.96e-4, true, false},
		{"57,700", 57700, true, false},
		{"n/a", 0, false, false},
		{"", 0, false, false},
		{"1,2,3", 0, false, true},
		{"12,34", 0, false, true},
		{"CachePreferNone", 0, false, true},
		{"(32, 4, 1)", 0, false, true},
		{"1e999", 0, false, true},
		{"nan", 0, false, true}, // a missing value, said by the caller
		{"nAn", 0, false, true},
		{"inf", 0, false, true},
		// Decimal notation only: strconv's wider syntax is no number here.
		{"0x1p3", 0, false, true},
		{"0x10", 0, false, true},
		{"1_000", 0, false, true},
		{"1_0.5", 0, false, true},
		{".5", 0.5, true, false},
		{"5.", 5, true, false},
		{"+2", 2, true, false},
		{"1e3", 1000, true, false},
		{"1e", 0, false, true},
		{".", 0, false, true},
		{"-", 0, false, false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			v, ok, err := ParseNumber(tt.in)
			if ok != tt.ok || (err != nil) != tt.err || (ok && math.Abs(v-tt.want) > 1e-9*math.Abs(tt.want)) {
				t.Errorf("ParseNumber(%q) = %v, %v, %v; want %v, %v, error %v", tt.in, v, ok, err, tt.want, tt.ok, tt.err)
			}
		})
	}
}

func TestSplitSuffixAndLevel(t *testing.T) {
	for _, tt := range []struct{ in, num, unit string }{
		{"45.917851GB/s", "45.917851", "GB/s"},
		{"180.277367MB/s", "180.277367", "MB/s"},
		{"0.000000B/s", "0.000000", "B/s"},
		{"29.317691%", "29.317691", "%"},
		{"40.860352KB", "40.860352", "KB"},
		{"16B", "16", "B"},
		{"0.496891", "0.496891", ""},
	} {
		t.Run(tt.in, func(t *testing.T) {
			n, u := SplitSuffix(tt.in)
			if n != tt.num || u != tt.unit {
				t.Errorf("SplitSuffix(%q) = %q %q, want %q %q", tt.in, n, u, tt.num, tt.unit)
			}
		})
	}
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{{"Idle (0)", 0, true}, {"Low (2)", 2, true}, {"Mid (5)", 5, true}, {"High (9)", 9, true}, {"Max (10)", 10, true}, {"Low (11)", 0, false}, {"Busy (3)", 0, false}} {
		t.Run(tt.in, func(t *testing.T) {
			v, ok := ParseLevel(tt.in)
			if ok != tt.ok || v != tt.want {
				t.Errorf("ParseLevel(%q) = %v %v, want %v %v", tt.in, v, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"1,234.5", "n/a", "8.192000e+03", "1,2,3", "-0", "45.9GB/s", "Low (2)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok, err := ParseNumber(s)
		if ok && (err != nil || math.IsNaN(v) || math.IsInf(v, 0)) {
			t.Fatalf("ParseNumber(%q) = %v, %v, %v", s, v, ok, err)
		}
		SplitSuffix(s)
		ParseLevel(s)
		Lookup(s, Decimal)
		Lookup(s, Binary)
	})
}

func TestParseNumberLocaleAndInfinity(t *testing.T) {
	for _, s := range []string{"inf", "-Inf", "+infinity", "1e400", "-1e400", "nan", "NaN", "-nan"} {
		if _, ok, err := ParseNumber(s); ok || !errors.Is(err, ErrInfinite) {
			t.Errorf("ParseNumber(%q): ok %v, err %v; want ErrInfinite", s, ok, err)
		}
	}
	if _, ok, err := ParseNumber("no data"); ok || err != nil {
		t.Errorf(`ParseNumber("no data"): ok %v, err %v; want missing`, ok, err)
	}
	for s, want := range map[string]float64{"2,62": 2.62, "-0,0625": -0.0625, "12,5": 12.5} {
		if v, ok := ParseDecimalComma(s); !ok || v != want {
			t.Errorf("ParseDecimalComma(%q) = %v, %v; want %v", s, v, ok, want)
		}
	}
	for _, s := range []string{"1,234", "1,2,3", "a,5", "1.5", ",5", "5,"} {
		if _, ok := ParseDecimalComma(s); ok {
			t.Errorf("ParseDecimalComma(%q) accepted", s)
		}
	}
}

func TestKnown(t *testing.T) {
	for _, u := range []string{"", "%", "ns", "usecond", "Ghz", "Kbyte", "GB/s", "byte/second", "inst/cycle", "sector/request", "%/register", "sectors", "register/thread", "cycle/nsecond"} {
		if !Known(u) {
			t.Errorf("Known(%q) = false, want true", u)
		}
	}
	for _, u := range []string{"furlong", "Tbyte/furlong", "parsec/s", "a/b/c", "Xbyte"} {
		if Known(u) {
			t.Errorf("Known(%q) = true, want false", u)
		}
	}
}
