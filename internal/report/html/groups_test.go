package html

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestGroups: a capture laid out by groups has the group table first, one
// card per group with its launches folded, and one roofline marker per
// group, larger for a larger share of the time.
func TestGroups(t *testing.T) {
	gr := analysis.NewGrouper(false)
	for _, a := range h200(t) {
		gr.Add(a)
	}
	gs := gr.Groups()
	var b bytes.Buffer
	if err := Write(&b, &Report{Groups: gs}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, `<article class="card"`) != len(gs) {
		t.Errorf("want one card per group (%d)", len(gs))
	}
	if i, j := strings.Index(page, `class="summary groups"`), strings.Index(page, `id="roofline"`); i < 0 || j < i {
		t.Errorf("group table at %d, roofline at %d: the table must come first", i, j)
	}
	// Marker radii: the first group on the chart has the largest share.
	var radii []float64
	for _, m := range regexp.MustCompile(`<g class="kernels">(?s:(.*?))</g>`).FindAllStringSubmatch(page, 1) {
		for _, r := range regexp.MustCompile(` r="([0-9.]+)"`).FindAllStringSubmatch(m[1], -1) {
			v, _ := strconv.ParseFloat(r[1], 64)
			radii = append(radii, v)
		}
	}
	if len(radii) < 2 {
		t.Skipf("markers are not circles here (%d radii found)", len(radii))
	}
	for i := 1; i < len(radii); i++ {
		if radii[i] > radii[0] {
			t.Errorf("marker %d (r=%g) is larger than the longest group's (r=%g)", i, radii[i], radii[0])
		}
	}
}
