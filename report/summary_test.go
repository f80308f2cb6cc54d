package report

import (
	"math"
	"testing"
)

func TestShareText(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0.25, "25.0%"}, {0.0005, "0.1%"}, {0.0004, "<0.1%"}, {1e-9, "<0.1%"}, {0, "0.0%"}, {math.NaN(), "?"}} {
		if got := shareText(tc.v); got != tc.want {
			t.Errorf("shareText(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
