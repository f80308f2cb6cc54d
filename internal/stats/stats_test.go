package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// The want values were computed independently: U by counting pairs, exact
// p by enumerating every assignment of the pooled ranks (itertools), normal
// p from the tie-corrected variance with continuity correction and erfc.
func TestMannWhitney(t *testing.T) {
	seq := "THHHHHTTTTTH" // Wikipedia's Aesop example: finishing order of 6 tortoises and 6 hares
	var tort, hare []float64
	for i, c := range seq {
		if c == 'T' {
			tort = append(tort, float64(i))
		} else {
			hare = append(hare, float64(i))
		}
	}
	seq25 := func(base float64) []float64 {
		var xs []float64
		for i := range 25 {
			xs = append(xs, base+0.01*float64(i))
		}
		return xs
	}
	var bx, by []float64
	for i := range 30 {
		bx = append(bx, float64(i%7))
		by = append(by, float64(i%7+1))
	}
	tests := []struct {
		name  string
		x, y  []float64
		u, z  float64
		p     float64
		exact bool
	}{
		{"separated 3+3", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, -1.7457431218879391, 0.1, true},
		{"separated 4+4", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 0, -2.165063509461097, 2.0 / 70, true},
		{"aesop", tort, hare, 25, 1.0408329997330663, 0.30952380952380953, true},
		{"ties", []float64{1, 2, 2, 3, 3, 3}, []float64{3, 4, 4, 5, 2}, 5.5, -1.7022223637379919, 0.10822510822510822, true},
		{"heavy ties", []float64{10, 10, 10, 11}, []float64{10, 11, 11, 12, 12}, 3.5, -1.5711688096991452, 0.14285714285714285, true},
		{"separated 25+25 normal", seq25(1), seq25(2), 0, -6.053689200906871, 1.4156562248495634e-09, false},
		{"ties 30+30 normal", bx, by, 330.5, -1.7754776411441027, 0.07581905416784064, false},
		{"reversed", []float64{4, 5, 6}, []float64{1, 2, 3}, 9, 1.7457431218879391, 0.1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mannWhitney(tt.x, tt.y)
			if c.U != tt.u || !near(c.Z, tt.z, 1e-9) || !near(c.P, tt.p, 1e-9) || c.Exact != tt.exact ||
				c.N1 != len(tt.x) || c.N2 != len(tt.y) {
				t.Errorf("mannWhitney(%v, %v) = U %v z %v p %v exact %v n %d,%d; want U %v z %v p %v exact %v",
					tt.x, tt.y, c.U, c.Z, c.P, c.Exact, c.N1, c.N2, tt.u, tt.z, tt.p, tt.exact)
			}
		})
	}
}

// TestMannWhitneyExactMatchesNormal checks the two p-value methods agree
// where both are good: at N1+N2 = maxExact without ties.
func TestMannWhitneyExactMatchesNormal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		var x, y []float64
		for range maxExact / 2 {
			x = append(x, r.Float64())
			y = append(y, r.Float64()+0.3)
		}
		c := mannWhitney(x, y)
		if !c.Exact {
			t.Fatal("not exact")
		}
		normal := math.Erfc(math.Abs(c.Z) / math.Sqrt2)
		if math.Abs(c.P-normal) > 0.01 {
			t.Errorf("exact p %v, normal p %v", c.P, normal)
		}
	}
}

func TestMannWhitneyWarnings(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		x, y []float64
		p    float64
		want string
	}{
		{"empty", nil, []float64{1, 2}, 1, "cannot compare: sample sizes 0 and 2"},
		{"all NaN", []float64{nan}, []float64{1, 2}, 1, "ignored 1 NaN values; cannot compare: sample sizes 0 and 2"},
		{"equal", []float64{3, 3, 3}, []float64{3, 3}, 1, "all 5 values are equal"},
		{"too few", []float64{1, 2}, []float64{3, 4}, 1.0 / 3, "samples of 2 and 2 cannot reach p < 0.05 (at best p = 0.333); need more repetitions"},
		{"NaN ignored", []float64{1, 2, 3, 4, nan}, []float64{5, 6, 7, 8}, 2.0 / 70, "ignored 1 NaN values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mannWhitney(tt.x, tt.y)
			var msgs []string
			for _, w := range c.Warnings {
				msgs = append(msgs, w.Error())
			}
			if got := strings.Join(msgs, "; "); got != tt.want || !near(c.P, tt.p, 1e-9) {
				t.Errorf("%s: p %v, warnings %q; want p %v, %q", tt.name, c.P, got, tt.p, tt.want)
			}
		})
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{
		{nil, math.NaN()},
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{math.NaN(), 1, 3}, 2},
	} {
		t.Run(fmt.Sprint(tt.xs), func(t *testing.T) {
			if got := Median(tt.xs); !near(got, tt.want, 0) {
				t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.want)
			}
		})
	}
}

// noisy returns n values around level with ±spread relative uniform noise.
func TestChangePoints(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		xs   []float64
		want []int
		warn string
	}{
		{"counter step 4→32", []float64{4, 4, 4, 32, 32, 32}, []int{3}, ""},
		{"counter flat", []float64{128, 128, 128, 128}, nil, ""},
		{"counter jitter below 1%", []float64{1000, 1004, 998, 1001}, nil, ""},
		{"counter back and forth", []float64{10, 20, 20, 10}, []int{1, 3}, ""},
		{"counter from zero", []float64{0, 0, 5}, []int{2}, ""},
		{"counter with NaN", []float64{4, nan, 4, 32}, []int{3}, "ignored 1 NaN values"},
		{"counter one point", []float64{4}, nil, "series of 1 point: no change can be tested"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warn := DefaultThresholds.changePoints(tt.xs)
			var msgs []string
			for _, w := range warn {
				msgs = append(msgs, w.Error())
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || strings.Join(msgs, "; ") != tt.warn {
				t.Errorf("ChangePoints(%v):\ngot  %v %q\nwant %v %q", Sparkline(tt.xs), got, msgs, tt.want, tt.warn)
			}
			if short := ChangePoints(tt.xs); fmt.Sprint(short) != fmt.Sprint(got) {
				t.Errorf("ChangePoints (defaults) = %v, want %v", short, got)
			}
		})
	}
}

func TestSparkline(t *testing.T) {
	for _, tt := range []struct {
		xs   []float64
		want string
	}{
		{nil, ""},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8}, "▁▂▃▄▅▆▇█"},
		{[]float64{0, 7, 0}, "▁█▁"},
		{[]float64{5, 5, 5}, "▄▄▄"},
		{[]float64{1, math.NaN(), 3}, "▁ █"},
		{[]float64{0, 3.4, 3.6, 7}, "▁▄▅█"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := Sparkline(tt.xs); got != tt.want {
				t.Errorf("Sparkline(%v) = %q, want %q", tt.xs, got, tt.want)
			}
		})
	}
}
