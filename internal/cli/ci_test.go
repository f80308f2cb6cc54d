package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// series6 ingests fixtures/series6 (transpose naive, tiled, padded, padded,
// tiled, padded; one launch each on an H100) labelled commit=c1..c6.
func series6(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "s6.db")
	for i := 1; i <= 6; i++ {
		f := fmt.Sprintf("../../fixtures/series6/series6_b%d.details.csv", i)
		if _, errOut, code := run(t, "ingest", "--db", db, "--label", fmt.Sprintf("commit=c%d", i), f); code != ExitOK {
			t.Fatalf("ingest %s: exit %d: %s", f, code, errOut)
		}
	}
	return db
}

// One launch per run: trend, the report's chart, diff and gate agree that
// builds 2, 3, 5 and 6 changed the duration and build 4 did not.
func TestSeries6OneLaunchPerRun(t *testing.T) {
	db := series6(t)
	out, errOut, code := run(t, "trend", "--db", db, "-k", "transpose", "-m", "duration", "--format", "json")
	if code != ExitOK {
		t.Fatalf("trend: exit %d: %s", code, errOut)
	}
	var doc struct {
		Changes []struct {
			Run    int64   `json:"run"`
			P      float64 `json:"p"`
			Method string  `json:"method"`
		} `json:"changes"`
		Methods map[string]string `json:"methods"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var runs []int64
	for _, c := range doc.Changes {
		runs = append(runs, c.Run)
		if c.Method != "history" || c.P >= 0.05 {
			t.Errorf("change at run %d: method %s, p %g; want history, p < 0.05", c.Run, c.Method, c.P)
		}
	}
	if !equalInts(runs, []int64{2, 3, 5, 6}) {
		t.Errorf("trend: changes at runs %v, want [2 3 5 6]\n%s", runs, out)
	}
	for _, m := range doc.Methods {
		if !strings.HasPrefix(m, "history:") {
			t.Errorf("method %q, want history", m)
		}
	}
	out, _, _ = run(t, "trend", "--db", db, "-k", "transpose", "-m", "duration")
	if n := strings.Count(out, "(history, p"); n != 4 || !regexp.MustCompile(`(?m)^4 .*~$`).MatchString(out) {
		t.Errorf("trend text: want 4 history changes and run 4 unchanged:\n%s", out)
	}

	// The report's chart.
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--db", db, "-m", "duration", "--html", html); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(html)
	if s := string(b); !strings.Contains(s, "4 changes: at commit=c2") || !strings.Contains(s, "at commit=c5") ||
		!strings.Contains(s, "at commit=c6") || strings.Contains(s, "at commit=c4") || !strings.Contains(s, "Change detection: history") {
		t.Errorf("report: want changes at c2, c3, c5, c6 by history")
	}

	// diff: the same verdicts, with n, spread and the test.
	for _, tt := range []struct {
		a, b    string
		verdict string
	}{{"4", "5", "worse"}, {"3", "4", "same"}, {"1", "2", "better"}, {"5", "6", "better"}} {
		out, errOut, code := run(t, "diff", "--db", db, "--all", "--format", "json", tt.a, tt.b)
		if code != ExitOK {
			t.Fatalf("diff: exit %d: %s", code, errOut)
		}
		var d struct {
			Kernels []struct {
				Metrics []MetricDelta `json:"metrics"`
			} `json:"kernels"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Kernels) != 1 {
			t.Fatalf("diff %s %s: %v\n%s", tt.a, tt.b, err, out)
		}
		for _, m := range d.Kernels[0].Metrics {
			if m.Metric == "duration" && (m.Verdict != tt.verdict || m.Test != "history" || m.NA != 1 || m.NB != 1 || m.History == "") {
				t.Errorf("diff %s %s: duration %+v, want %s by history", tt.a, tt.b, m, tt.verdict)
			}
		}
	}
	out, _, _ = run(t, "diff", "--db", db, "4", "5")
	if !regexp.MustCompile(`duration .*n=1 .*n=1 .*worse +history t-test p<0.001, run-to-run spread`).MatchString(out) {
		t.Errorf("diff 4 5 text:\n%s", out)
	}

	// gate by label.
	for _, tt := range []struct {
		run, baseline string
		code          ExitCode
	}{
		{"5", "commit=c4", ExitFailed},
		{"5", "latest", ExitFailed},
		{"4", "commit=c3", ExitOK},
		{"6", "commit=c5", ExitOK},
		{"5", "commit=c9", ExitError},
	} {
		out, errOut, code := run(t, "gate", "--db", db, "--run", tt.run, "--baseline", tt.baseline, "--max-regression", "10%")
		if code != tt.code {
			t.Errorf("gate --run %s --baseline %s: exit %d, want %d\n%s%s", tt.run, tt.baseline, code, tt.code, out, errOut)
		}
	}
	_, errOut, code = run(t, "diff", "--db", db, "4", "99")
	if code != ExitError || strings.Count(errOut, "run 99") != 1 || !strings.Contains(errOut, "run 99: not found") {
		t.Errorf("diff 4 99: exit %d, %q", code, errOut)
	}
}
