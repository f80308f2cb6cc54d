package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTrendChart: the HTML trend of the transpose series, with a run of
// another kernel stored between its first two builds. The x axis names
// runs by ID (or by a chosen label key), the run lacking the metric is a
// gap in the line, and each change is labelled with trend's own figure
// and judged better or worse, in words and colour.
func TestTrendChart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	for i, f := range []string{"series_v0.runs5", "saxpy", "series_v1.runs5", "series_v2.runs5", "series_v3.runs5"} {
		if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", "--label", "build=b"+string(rune('0'+i)), fx+f+".details.csv"); code != ExitOK {
			t.Fatalf("ingest %s: %s", f, errOut)
		}
	}
	trend, _, code := run(t, "trend", "--db", db, "-k", "^transpose", "-m", "duration")
	if code != ExitOK {
		t.Fatalf("trend: exit %d", code)
	}
	var steps []string
	for _, m := range regexp.MustCompile(`[▲▼] ([+-][0-9.]+%)`).FindAllStringSubmatch(trend, -1) {
		steps = append(steps, m[1])
	}
	if len(steps) != 3 {
		t.Fatalf("trend states %d changes, want 3:\n%s", len(steps), trend)
	}
	for _, tt := range []struct {
		name  string
		args  []string
		ticks []string
		title string
	}{
		{"run IDs", nil, []string{"#1", "#2", "#3", "#4", "#5"}, "run"},
		{"label key", []string{"--x-label", "build"}, []string{"b0", "b1", "b2", "b3", "b4"}, "build"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".html")
			if _, errOut, code := run(t, append([]string{"report", "--db", db, "--run", "5", "--html", out, "-m", "duration", "-k", "^transpose"}, tt.args...)...); code != ExitOK {
				t.Fatalf("report: exit %d: %s", code, errOut)
			}
			b, _ := os.ReadFile(out)
			page := string(b)
			i := strings.Index(page, "Trend of duration")
			if i < 0 {
				t.Fatalf("no trend chart")
			}
			svg := page[i:]
			svg = svg[:strings.Index(svg, "</svg>")]
			for _, tick := range tt.ticks {
				if !strings.Contains(svg, ">"+tick+"</text>") {
					t.Errorf("no x tick %q", tick)
				}
			}
			if !strings.Contains(svg, `font-weight="600">`+tt.title+`</text>`) {
				t.Errorf("the x axis is not titled %q", tt.title)
			}
			// Run 2 (saxpy) lacks the kernel: the line lifts its pen there.
			path := regexp.MustCompile(`<path d="([^"]*)" fill="none" stroke="#0072B2"`).FindStringSubmatch(svg)
			if path == nil || strings.Count(path[1], "M") != 2 || strings.Count(path[1], "L") != 2 {
				t.Errorf("line %v, want two pieces: run 1, then runs 3 to 5", path)
			}
			for i, verdict := range []string{"better", "better", "worse"} {
				color := map[string]string{"better": "#007A5A", "worse": "#B84A00"}[verdict]
				want := `fill="` + color + `">change ` + steps[i] + " " + verdict + "</text>"
				if !strings.Contains(svg, want) {
					t.Errorf("no change label %q", want)
				}
			}
		})
	}
}
