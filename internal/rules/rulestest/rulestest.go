// Package rulestest runs profan's rules over real exports and checks the
// findings against expectation files kept beside the fixtures, in the manner
// of analysistest: every finding must be expected and every expectation
// met.
//
// An expectation file <name>.want names its inputs and lists one finding a
// line:
//
//	# input: transpose.import.details.csv transpose.source.cuda-sass.csv
//	2 uncoalesced-global stores .*strided.*transpose.cu:41
//
// that is, the kernel ID ("run" for run-level findings such as host
// transfers), the rule ID and a regular expression the
// finding's message (followed by " @ file:line" for each location) must
// match. Without an input line the input is <name>.csv. Lines starting with
// # are comments.
package rulestest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/rules"
)

// expectation is one expected finding.
type expectation struct {
	Line   int
	Kernel string
	Rule   string
	Msg    *regexp.Regexp
	met    bool
}

// finding is one finding as the test sees it.
type finding struct {
	Kernel string
	Rule   string
	Text   string
}

// findings analyses the inputs with every rule and returns the findings of
// every kernel, in order, with locations appended to the message.
func findings(inputs []string) ([]finding, error) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		return nil, err
	}
	var out []finding
	runs, err := ingest.ReadFiles(inputs, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		a := analysis.Analyze(run, k, analysis.Options{Rules: eng})
		for _, f := range a.Findings {
			text := f.Message
			for _, l := range f.Locations {
				text += fmt.Sprintf(" @ %s:%d", filepath.Base(l.File), l.Line)
			}
			out = append(out, finding{Kernel: k.ID, Rule: f.Rule, Text: text})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		for _, f := range eng.CheckRun(run).Findings {
			out = append(out, finding{Kernel: "run", Rule: f.Rule, Text: f.Message})
		}
	}
	return out, nil
}

// readWant parses an expectation file; inputs are resolved beside it.
func readWant(path string) (inputs []string, wants []*expectation, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	dir := filepath.Dir(path)
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "# input:"); ok {
			for _, in := range strings.Fields(rest) {
				inputs = append(inputs, filepath.Join(dir, in))
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 3)
		if len(parts) < 2 {
			return nil, nil, fmt.Errorf("%s:%d: want \"<kernel-id> <rule> [<message-regexp>]\"", path, n)
		}
		re := ".*"
		if len(parts) == 3 {
			re = parts[2]
		}
		rx, err := regexp.Compile(re)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		wants = append(wants, &expectation{Line: n, Kernel: parts[0], Rule: parts[1], Msg: rx})
	}
	if len(inputs) == 0 {
		inputs = []string{strings.TrimSuffix(path, ".want") + ".csv"}
	}
	return inputs, wants, sc.Err()
}

// Grouper reads the inputs as one application capture, as analyze does:
// the kernels' groups, the timeline of the first run that has one, the
// runs' host transfers.
func Grouper(inputs []string) (*analysis.Grouper, error) {
	gr := analysis.NewGrouper(false)
	s := analysis.NewStream(analysis.Options{}, false)
	runs, err := ingest.ReadFiles(inputs, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
		gr.Add(s.Kernel(run, k))
		return nil
	})
	if err != nil {
		return nil, err
	}
	gr.Runs = runs
	for _, v := range s.Finish(runs) {
		if v.Timeline != nil && gr.Timeline == nil {
			gr.Timeline = v.Timeline
		}
	}
	return gr, nil
}

// appCapture reads the inputs as one application capture (Grouper) by cause with
// eng's rules; total is its kernel time.
func appCapture(inputs []string, eng *rules.Engine) (app *analysis.App, total float64, err error) {
	gr, err := Grouper(inputs)
	if err != nil {
		return nil, 0, err
	}
	gr.Recommender = eng
	return gr.App(), gr.Total(), nil
}

// advice reads the inputs as one application capture with every rule and
// returns its recommendations, as kernel "app" (the message, " | fix: "
// and the fix), and the levers it found in use, as kernel "in-use".
func advice(inputs []string) ([]finding, error) {
	eng, err := rules.NewEngine("all")
	if err != nil {
		return nil, err
	}
	app, _, err := appCapture(inputs, eng)
	if err != nil {
		return nil, err
	}
	var out []finding
	for _, r := range app.Recommendations {
		out = append(out, finding{Kernel: "app", Rule: r.Rule, Text: r.Message + " | fix: " + r.Fix})
	}
	for _, u := range app.InUse {
		out = append(out, finding{Kernel: "in-use", Rule: u.Rule, Text: u.Message})
	}
	return out, nil
}

// Run checks one expectation file of kernel and run findings.
func Run(t *testing.T, wantPath string) {
	t.Helper()
	check(t, wantPath, findings)
}

// RunApp checks one expectation file of application advice.
func RunApp(t *testing.T, wantPath string) {
	t.Helper()
	check(t, wantPath, advice)
}

func check(t *testing.T, wantPath string, read func([]string) ([]finding, error)) {
	t.Helper()
	inputs, wants, err := readWant(wantPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := read(inputs)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		matched := false
		for _, w := range wants {
			if !w.met && w.Kernel == g.Kernel && w.Rule == g.Rule && w.Msg.MatchString(g.Text) {
				w.met, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s: unexpected finding: kernel %s %s %q", wantPath, g.Kernel, g.Rule, g.Text)
		}
	}
	for _, w := range wants {
		if !w.met {
			t.Errorf("%s:%d: no finding kernel %s %s matching %q", wantPath, w.Line, w.Kernel, w.Rule, w.Msg)
		}
	}
}

// Files returns the expectation files under dir, sorted.
func Files(dir string) []string {
	fs, _ := filepath.Glob(filepath.Join(dir, "*.want"))
	sort.Strings(fs)
	return fs
}
