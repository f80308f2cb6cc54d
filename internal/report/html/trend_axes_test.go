package html

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A flat series is drawn against zero, with round ticks, not magnified into
// "3.6 … 4.4 sector".
func TestTrendFlatAxes(t *testing.T) {
	tr := Trend{Kernel: "k", Metric: "gld_transactions_per_request", Unit: "sector"}
	for i := range 6 {
		tr.Points = append(tr.Points, TrendPoint{Run: int64(i + 1), Value: 4})
	}
	svg := string(trendSVG(tr))
	if strings.Contains(svg, ">3.6") || strings.Contains(svg, ">4.4") || !strings.Contains(svg, ">0<") {
		t.Errorf("flat series axes:\n%s", svg)
	}
}

// X labels never overlap, however long the runs' labels are.
func TestTrendLabelsDoNotOverlap(t *testing.T) {
	for _, n := range []int{2, 6, 12, 13, 40} {
		tr := Trend{Kernel: "k", Metric: "duration", Unit: "s"}
		for i := range n {
			tr.Points = append(tr.Points, TrendPoint{Run: int64(i + 1), Label: fmt.Sprintf("branch=main,commit=%07x", i*7919), Value: float64(10 + i%3)})
		}
		svg := string(trendSVG(tr))
		re := regexp.MustCompile(`<text x="([0-9.]+)" y="244"[^>]*>([^<]*)</text>`)
		var xs []float64
		var w float64
		for _, m := range re.FindAllStringSubmatch(svg, -1) {
			x, _ := strconv.ParseFloat(m[1], 64)
			xs = append(xs, x)
			w = textWidth(m[2], 11)
		}
		if len(xs) == 0 {
			t.Fatalf("%d points: no x labels found:\n%s", n, svg)
		}
		for i := 1; i < len(xs); i++ {
			if xs[i]-xs[i-1] < w {
				t.Errorf("%d points: labels at %v and %v overlap (width %.0f)", n, xs[i-1], xs[i], w)
			}
		}
	}
}
