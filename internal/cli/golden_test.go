package cli

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/report"
)

// The golden outputs of every command in every format it writes, under
// testdata/golden/<command>.<format>.golden (analyze's transpose ones at
// testdata/analyze-transpose.<format>.golden). go test ./internal/cli -run
// Golden -update rewrites them; review the diff like code. A format added
// to the report registry gets its golden files here by itself: the test
// fails until -update writes them.

// stamped are what changes from one run of a test to the next: an
// ingest's time (text, JSON and the HTML's "Generated"), rewritten to
// <time>.
var stamped = regexp.MustCompile(`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?Z?( UTC)?`)

// stable is a command's output as its golden file keeps it: stdout, then
// stderr after a "-- stderr --" line when there is any, with the times
// and the paths of this machine (the checkout, the test's database)
// rewritten.
func stable(t *testing.T, out, errOut string, dirs map[string]string) string {
	t.Helper()
	s := out
	if errOut != "" {
		s += "-- stderr --\n" + errOut
	}
	for dir, name := range dirs {
		s = strings.ReplaceAll(s, dir, name)
	}
	return stamped.ReplaceAllString(s, "<time>")
}

// TestAnalyzeGolden: analyze of the transpose capture, in every kernel
// format.
func TestAnalyzeGolden(t *testing.T) {
	t.Parallel()
	in := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	for _, format := range report.KernelFormats() {
		out, errOut, code := run(t, append([]string{"analyze", "--device", "H200", "--format", format}, in...)...)
		if code != ExitOK {
			t.Fatalf("analyze --format %s: exit %d: %s", format, code, errOut)
		}
		golden.Check(t, "testdata/analyze-transpose."+format+".golden", []byte(stable(t, out, "", nil)))
	}
}

// TestCommandsGolden: gate, diff, trend, runs, report and model on the
// transpose series (four builds, five launches each: naive, tiled,
// padded, then a regression to naive stores), in every format each writes.
func TestCommandsGolden(t *testing.T) {
	t.Parallel()
	db := series(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{filepath.Dir(db): "<tmp>", root: "<repo>"}
	for _, c := range []struct {
		name    string
		args    []string
		formats []string
		code    ExitCode
	}{
		{"gate", []string{"gate", "--db", db, "--run", "4", "--baseline", "3", "--max-regression", "10%"}, report.GateFormats(), ExitFailed},
		{"gate-pass", []string{"gate", "--db", db, "--run", "3", "--baseline", "2", "--max-regression", "10%"}, report.GateFormats(), ExitOK},
		{"gate-file", []string{"gate", "--fail-on", "uncoalesced-global", fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}, report.GateFormats(), ExitFailed},
		{"diff", []string{"diff", "--db", db, "3", "4"}, report.DiffFormats(), ExitOK},
		{"diff-files", []string{"diff", fx + "series_v2.runs5.details.csv", fx + "series_v3.runs5.details.csv"}, report.DiffFormats(), ExitOK},
		{"trend", []string{"trend", "--db", db, "--kernel", "^transpose", "--metric", "duration"}, report.TrendFormats(), ExitOK},
		{"runs", []string{"runs", "--db", db}, report.RunsFormats(), ExitOK},
		{"report", []string{"report", "--db", db, "--html", "-"}, []string{"html"}, ExitOK},
		{"model", []string{"model", "--arch", "hopper", "--threads", "10000", "--pattern", "stride:32"}, report.ModelFormats(), ExitOK},
	} {
		for _, format := range c.formats {
			args := c.args
			if c.name != "report" {
				args = append(append([]string{}, args...), "--format", format)
			}
			out, errOut, code := run(t, args...)
			if code != c.code {
				t.Errorf("%s --format %s: exit %d, want %d: %s", c.name, format, code, c.code, errOut)
				continue
			}
			golden.Check(t, filepath.Join("testdata", "golden", fmt.Sprintf("%s.%s.golden", c.name, format)), []byte(stable(t, out, errOut, dirs)))
		}
	}
}
