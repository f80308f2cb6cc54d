package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/report"
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
	series6Trend(t, db)
	series6Chart(t, db)
	series6Diff(t, db)
	series6Gate(t, db)
}

// series6Trend: trend finds the changes at runs 2, 3, 5 and 6, by history.
func series6Trend(t *testing.T, db string) {
	t.Helper()
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
}

// series6Chart: the report's chart marks the same changes.
func series6Chart(t *testing.T, db string) {
	t.Helper()
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--db", db, "-m", "duration", "--x-label", "commit", "--html", html); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(html)
	if s := string(b); !strings.Contains(s, "4 changes: at c2 (") || !strings.Contains(s, "at c5 (") ||
		!strings.Contains(s, "at c6 (") || strings.Contains(s, "at c4 (") || !strings.Contains(s, "Change detection: history") {
		t.Errorf("report: want changes at c2, c3, c5, c6 by history")
	}
}

// series6Diff: diff gives the same verdicts, with n, spread and the test,
// and names a run not found once.
func series6Diff(t *testing.T, db string) {
	t.Helper()
	for _, tt := range []struct {
		a, b    string
		verdict string
	}{{"4", "5", "worse"}, {"3", "4", "same"}, {"1", "2", "better"}, {"5", "6", "better"}} {
		t.Run(tt.a, func(t *testing.T) {
			out, errOut, code := run(t, "diff", "--db", db, "--all", "--format", "json", tt.a, tt.b)
			if code != ExitOK {
				t.Fatalf("diff: exit %d: %s", code, errOut)
			}
			var d struct {
				Kernels []struct {
					Metrics []report.MetricDelta `json:"metrics"`
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
		})
	}
	out, _, _ := run(t, "diff", "--db", db, "4", "5")
	if !regexp.MustCompile(`duration .*n=1 .*n=1 .*worse +history t-test p<0.001, run-to-run spread`).MatchString(out) {
		t.Errorf("diff 4 5 text:\n%s", out)
	}
	_, errOut, code := run(t, "diff", "--db", db, "4", "99")
	if code != ExitError || strings.Count(errOut, "run 99") != 1 || !strings.Contains(errOut, "run 99: not found") {
		t.Errorf("diff 4 99: exit %d, %q", code, errOut)
	}
}

// series6Gate: gate by label fails on runs 5 against 4 and passes where
// the duration did not get worse.
func series6Gate(t *testing.T, db string) {
	t.Helper()
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
		t.Run(tt.run, func(t *testing.T) {
			out, errOut, code := run(t, "gate", "--db", db, "--run", tt.run, "--baseline", tt.baseline, "--max-regression", "10%")
			if code != tt.code {
				t.Errorf("gate --run %s --baseline %s: exit %d, want %d\n%s%s", tt.run, tt.baseline, code, tt.code, out, errOut)
			}
		})
	}
}

// Each gate case gives its documented exit code.
func TestGateCases(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"transpose.import.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	cfg := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	req := func(value string) string {
		return cfg("req"+fmt.Sprint(len(value))+".toml", "[[require]]\nmetric = \"duration\"\nop = \"<\"\n"+value)
	}
	src := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	for _, tt := range []struct {
		name string
		args []string
		code ExitCode
		out  string // in stdout
		err  string // in stderr
	}{
		// Missing kernels: run of 2 kernels against a baseline of 5.
		{"missing kernels", []string{"gate", "--db", db, "--baseline", "1", fx + "copy.import.details.csv"}, ExitFailed,
			"FAIL transposeNaive(float *, const float *) [missing baseline kernel]", ""},
		{"missing kernels allowed", []string{"gate", "--db", db, "--baseline", "1", "--allow-missing", fx + "copy.import.details.csv"}, ExitOK,
			"SKIP transposeNaive(float *, const float *) [missing baseline kernel]", ""},
		{"missing kernels junit", []string{"gate", "--db", db, "--baseline", "1", "--format", "junit", fx + "copy.import.details.csv"}, ExitFailed,
			`<testsuite name="profan missing"`, ""},
		{"missing kernels sarif", []string{"gate", "--db", db, "--baseline", "1", "--format", "sarif", fx + "copy.import.details.csv"}, ExitFailed,
			`"ruleId": "gate/missing-kernel"`, ""},
		{"missing kernels github", []string{"gate", "--db", db, "--baseline", "1", "--format", "github", fx + "copy.import.details.csv"}, ExitFailed,
			"::error file=", ""},
		// Missing metric: saxpy.details.csv has no gld_efficiency.
		{"missing metric", []string{"gate", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80"}, ExitFailed,
			"gld_efficiency: not in this export, so the condition cannot be evaluated", ""},
		{"missing metric skipped", []string{"gate", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80", "--skip-missing"}, ExitOK,
			"1 skipped", ""},
		{"missing metric skipped github", []string{"gate", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80", "--skip-missing", "--format", "github"}, ExitOK,
			"::warning file=", ""},
		{"missing metric skipped sarif", []string{"gate", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80", "--skip-missing", "--format", "sarif"}, ExitOK,
			`"ruleId": "gate/skipped"`, ""},
		{"missing metric skipped junit", []string{"gate", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80", "--skip-missing", "--format", "junit"}, ExitOK,
			`<skipped message="gld_efficiency: not in this export`, ""},
		{"metric nowhere, skipped", []string{"gate", fx + "saxpy.details.csv", "--require", "gld_efficiency >= 80", "--skip-missing"}, ExitError,
			"", "nothing would be checked"},
		{"unknown metric", []string{"gate", fx + "saxpy.details.csv", "--require", "gld_effciency >= 80"}, ExitError,
			"", `did you mean "gld_efficiency"?`},
		// No conditions: a linter. The 32-way bank conflict fails it.
		{"no conditions", append([]string{"gate"}, src...), ExitFailed,
			"[finding shared-bank-conflict]", "failing on warning-level findings, like a linter"},
		{"no conditions, no warning", []string{"gate", fx + "transpose.details.csv"}, ExitOK, "gate passed", "like a linter"},
		// Percentages: occupancy is a fraction; 30% is 0.3 (the kernels run at 72-93%).
		{"percent of a fraction", append([]string{"gate", "--require", "achieved_occupancy < 30%"}, src...), ExitFailed,
			"achieved_occupancy = 0.88, want < 0.3", ""},
		{"unknown rule in --fail-on", append([]string{"gate", "--require", "achieved_occupancy > 30%", "--fail-on", "none-*"}, src...), ExitError,
			"", "unknown rule"},
		{"percent of a time", append([]string{"gate", "--require", "duration < 10%"}, src...), ExitError,
			"", "10% is a percentage, but the metric is a time"},
		{"bare number on a time", append([]string{"gate", "--require", "duration < 50"}, src...), ExitError,
			"", "write it with one (50us, 50ms or 50s)"},
		{"negative", append([]string{"gate", "--require", "duration < -5us"}, src...), ExitError, "", "negative"},
		{"nan", append([]string{"gate", "--require", "gld_efficiency > nan"}, src...), ExitError, "", "not a number"},
		// Config values.
		{"50us in a config", append([]string{"gate", "--config", req(`value = "50us"`)}, src...), ExitFailed,
			"[require duration < 50us] duration = 73.25 us, want < 50.00 us", ""},
		{"50 us in a config", append([]string{"gate", "--config", req(`value = "50 us"`)}, src...), ExitFailed,
			"[require duration < 50 us] duration = 73.25 us, want < 50.00 us", ""},
		{"unknown unit in a config", append([]string{"gate", "--config", req(`value = "50 parsecs"`)}, src...), ExitError,
			"", `"50 parsecs" is not a number`},
		{"config op", append([]string{"gate", "--config", cfg("op.toml", "[[require]]\nmetric = \"duration\"\nop = \"=<\"\nvalue = \"50us\"\n")}, src...), ExitError,
			"", `op "=<" is not one of`},
		{"config fail_on", append([]string{"gate", "--config", cfg("failon.toml", "fail_on = [\"no-such-rule\"]\n")}, src...), ExitError,
			"", "fail_on: unknown rule"},
		{"50 in a config on a duration", append([]string{"gate", "--config", req(`value = 50`)}, src...), ExitError,
			"", "has no unit, but the metric is a time"},
		{"config require without value", append([]string{"gate", "--config", req(``)}, src...), ExitError,
			"", "require 1 (duration <): no value"},
		{"config nan threshold", append([]string{"gate", "--config", cfg("nan.toml", "[thresholds]\nexcess = nan\n")}, src...), ExitError,
			"", "excess = NaN"},
		{"config negative threshold", append([]string{"gate", "--config", cfg("neg.toml", "[thresholds]\nexcess = -1\n")}, src...), ExitError,
			"", "excess = -1"},
		// Relative thresholds.
		{"max-regression 10%", []string{"gate", "--db", db, "--run", "1", "--baseline", "1", "--max-regression", "10%"}, ExitOK, "gate passed", ""},
		{"max-regression 1.5x", []string{"gate", "--db", db, "--run", "1", "--baseline", "1", "--max-regression", "1.5x"}, ExitOK, "gate passed", ""},
		{"max-regression -5%", []string{"gate", "--db", db, "--run", "1", "--baseline", "1", "--max-regression", "-5%"}, ExitError, "", "negative"},
		{"diff threshold 10%", []string{"diff", "--db", db, "1", "1", "--threshold", "10%"}, ExitOK, "5 unchanged kernels not listed", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("%s: exit %d, want %d; stdout want %q:\n%s\nstderr want %q:\n%s", tt.name, code, tt.code, tt.out, out, tt.err, errOut)
			}
			if code == ExitError && strings.Contains(errOut, "Usage:") {
				t.Errorf("%s: the usage buries the error:\n%s", tt.name, errOut)
			}
		})
	}
}

// --path-map rewrites the build host's paths in every output; SARIF then
// has only relative URIs against %SRCROOT%.
func TestPathMap(t *testing.T) {
	src := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	out, errOut, code := run(t, append([]string{"gate", "--format", "sarif", "--path-map", "/tmp/profan/=src/"}, src...)...)
	if code != ExitFailed {
		t.Fatalf("gate: exit %d: %s", code, errOut)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation *struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range log.Runs[0].Results {
		for _, l := range r.Locations {
			if p := l.PhysicalLocation; p != nil {
				n++
				if a := p.ArtifactLocation; !strings.HasPrefix(a.URI, "src/") || a.URIBaseID != "%SRCROOT%" {
					t.Errorf("artifact %+v, want a src/ URI against %%SRCROOT%%", a)
				}
			}
		}
	}
	if n < 2 || strings.Contains(out, "file:") || strings.Contains(out, "/tmp/profan") {
		t.Errorf("%d physical locations; file: or /tmp/profan left:\n%s", n, out)
	}
	for _, args := range [][]string{
		append([]string{"analyze", "--format", "json", "--path-map", "/tmp/profan/=src/"}, src...),
		append([]string{"analyze", "--path-map", "/tmp/profan/=src/"}, src...),
		append([]string{"gate", "--format", "github", "--path-map", "/tmp/profan/=src/"}, src...),
		append([]string{"gate", "--format", "junit", "--path-map", "/tmp/profan/=src/"}, src...),
	} {
		out, _, _ := run(t, args...)
		if strings.Contains(out, "/tmp/profan") || !strings.Contains(out, "src/transpose.cu") {
			t.Errorf("%v: /tmp/profan left or src/transpose.cu missing", args)
		}
	}
	html := filepath.Join(t.TempDir(), "r.html")
	run(t, append([]string{"report", "--html", html, "--path-map", "/tmp/profan/=src/"}, src...)...)
	if b, _ := os.ReadFile(html); strings.Contains(string(b), "/tmp/profan") || !strings.Contains(string(b), "src/transpose.cu") {
		t.Errorf("report: /tmp/profan left or src/transpose.cu missing")
	}
	if _, errOut, code := run(t, append([]string{"analyze", "--path-map", "nothing"}, src...)...); code != ExitError || !strings.Contains(errOut, "want FROM=TO") {
		t.Errorf("bad --path-map: exit %d %s", code, errOut)
	}
}

// A --set full capture (its FLOP counters per elapsed cycle) places saxpy,
// the matmuls and fmaHeavy on the roofline, in JSON and in the report.
func TestRooflineSetFull(t *testing.T) {
	skipShort(t)
	raw := "../../fixtures/calib/calib.raw.csv.gz"
	out, errOut, code := run(t, "analyze", "--format", "json", "--launches", raw)
	if code != ExitOK {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var doc struct {
		Kernels []struct {
			Name     string `json:"name"`
			Roofline *struct {
				FlopPerByte   float64 `json:"flop_per_byte"`
				FlopPerS      float64 `json:"flop_per_s"`
				LimitFlopPerS float64 `json:"limit_flop_per_s"`
			} `json:"roofline"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	placed := map[string]int{}
	for _, k := range doc.Kernels {
		for _, name := range []string{"saxpy(", "matmulNaive(", "matmulTiled(", "fmaHeavy("} {
			if !strings.HasPrefix(k.Name, name) {
				continue
			}
			r := k.Roofline
			if r == nil || !(r.FlopPerByte > 0) || !(r.FlopPerS > 0) || r.FlopPerS > r.LimitFlopPerS*1.05 {
				t.Errorf("%s: roofline %+v", k.Name, r)
				continue
			}
			placed[name]++
		}
		if strings.HasPrefix(k.Name, "void strideCopy<1>") && k.Roofline != nil {
			t.Errorf("%s: a copy does no floating-point work: %+v", k.Name, k.Roofline)
		}
	}
	for _, name := range []string{"saxpy(", "matmulNaive(", "matmulTiled(", "fmaHeavy("} {
		if placed[name] != 3 {
			t.Errorf("%s: %d of 3 launches on the roofline", name, placed[name])
		}
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--html", html, raw); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(html)
	for _, s := range []string{"Roofline of H100", "fmaHeavy(float *, const float *, int)</span>", "<circle"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("report: no %q", s)
		}
	}
}

// Typos get a "did you mean" and exit 2, without the usage.
func TestTypos(t *testing.T) {
	db := series6(t)
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"trend", "--db", db, "-k", ".", "-m", "gld_effciency"}, `unknown metric "gld_effciency"; did you mean "gld_efficiency"?`},
		{[]string{"gate", fx + "saxpy.details.csv", "--require", "duraton < 5us"}, `did you mean "duration"?`},
		{[]string{"explain", "uncoalesced"}, `did you mean "uncoalesced-global"?`},
		{[]string{"analyze", "--checks", "uncoalesced-globl", fx + "saxpy.details.csv"}, `did you mean "uncoalesced-global"?`},
		{[]string{"gate", "--fail-on", "shared-bank-conflit", fx + "saxpy.details.csv"}, `did you mean "shared-bank-conflict"?`},
		{[]string{"analyze", "--device", "H10", fx + "saxpy.details.csv"}, `unknown GPU "H10"; did you mean`},
		{[]string{"analyze", "--format", "jsn", fx + "saxpy.details.csv"}, `unknown format "jsn"; did you mean "json"?`},
		{[]string{"gate", "--format", "sarf", fx + "saxpy.details.csv"}, `did you mean "sarif"?`},
		{[]string{"trend", "--db", db, "-k", ".", "-m", "duration", "--format", "cvs"}, `did you mean "csv"?`},
		{[]string{"analyse", fx + "saxpy.details.csv"}, "Did you mean this?\n\tanalyze"},
		{[]string{"diff", "--db", db, "4", "99"}, "run 99: not found"},
		{[]string{"analyze", "--bogus", fx + "saxpy.details.csv"}, "Run 'profan analyze --help' for usage."},
	} {
		t.Run(tt.err, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != ExitError || !strings.Contains(errOut, tt.err) || strings.Contains(errOut, "Usage:") || strings.Count(errOut, "\n") > 6 {
				t.Errorf("%v: exit %d, stderr %q; want exit 2 with %q, no usage", tt.args, code, errOut, tt.err)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, code := run(t, args...)
		if code != ExitOK || !strings.HasPrefix(out, "profan ") || out != "profan "+version()+"\n" {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	// -v is --verbose, never the version.
	out, _, code := run(t, "analyze", "-v", fx+"saxpy.details.csv")
	if code != ExitOK || strings.HasPrefix(out, "profan ") {
		t.Errorf("analyze -v: exit %d, %q", code, out)
	}
	out, _, code = run(t, "gate", "-v", fx+"saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80")
	if code != ExitOK || !strings.Contains(out, "PASS saxpy(int, float, const float *, float *) [require gld_efficiency >= 80]") {
		t.Errorf("gate -v: exit %d, want the passing checks listed:\n%s", code, out)
	}
	if out, _, _ := run(t, "-v"); strings.HasPrefix(out, "profan (") || strings.HasPrefix(out, "profan v") {
		t.Errorf("profan -v printed the version: %q", out)
	}
}

// The JSON messages use the snake_case keys of the rest of the document.
func TestJSONMessagesKeys(t *testing.T) {
	out, _, _ := run(t, "analyze", "--format", "json", "../../fixtures/variants/inline.live.print-details-all.csv.gz")
	if strings.Contains(out, `"Line"`) || strings.Contains(out, `"Level"`) || strings.Contains(out, `"Text"`) {
		t.Errorf("capitalised keys in the JSON messages")
	}
	if !strings.Contains(out, `"messages"`) || !strings.Contains(out, `"level":`) {
		t.Skip("no messages in this export")
	}
}

// --path-map applies to what a database holds too: gate --run and report --db.
func TestPathMapStored(t *testing.T) {
	db := filepath.Join(t.TempDir(), "p.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"transpose.import.details.csv", fx+"transpose.source.cuda-sass.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, _, _ := run(t, "gate", "--db", db, "--run", "1", "--format", "sarif", "--path-map", "/tmp/profan/=src/")
	if strings.Contains(out, "/tmp/profan") || !strings.Contains(out, `"uri": "src/transpose.cu"`) {
		t.Errorf("gate --run: /tmp/profan left or src/transpose.cu missing:\n%s", out)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	run(t, "report", "--db", db, "--html", html, "--path-map", "/tmp/profan/=src/")
	if b, _ := os.ReadFile(html); strings.Contains(string(b), "/tmp/profan") || !strings.Contains(string(b), "src/transpose.cu") {
		t.Errorf("report --db: /tmp/profan left or src/transpose.cu missing")
	}
}

// A gate with --baseline and nothing to compare with: no database, an
// empty one, no run of the workload. It exits 2 naming --missing-baseline,
// or 0 with "no baseline" under --missing-baseline pass; it never creates
// the database it reads.
func TestGateMissingBaseline(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", fx+"transpose.import.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dir, "none.db")
	for _, tt := range []struct {
		name, db string
		files    []string
		why      string
	}{
		{"no database", none, []string{"saxpy.details.csv"}, "no run database " + none + " yet"},
		{"empty database", empty, []string{"saxpy.details.csv"}, "no run database " + empty + " yet"},
		{"other workload", db, []string{"saxpy.details.csv"}, "no stored run labelled branch=main shares a kernel with this one (program saxpy, 1 kernel name): 1 checked"},
		// Three programs' exports gated at once: 5 of their 12 kernels are the baseline's.
		{"few kernels shared", db, []string{"transpose.import.details.csv", "matmul.details.csv", "misc.details.csv"},
			"no stored run labelled branch=main is of this workload (program matmul,misc,transpose, 12 kernel names): 1 checked; the closest, run 1 (program transpose, 5 kernel names), shares 5 of its kernel names"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"gate", "--db", tt.db, "--baseline", "branch=main", "--max-regression", "5%"}
			for _, f := range tt.files {
				args = append(args, fx+f)
			}
			_, errOut, code := run(t, args...)
			if code != ExitError || !strings.Contains(errOut, tt.why) || !strings.Contains(errOut, "--missing-baseline pass") {
				t.Errorf("exit %d, want 2 with %q and the flag:\n%s", code, tt.why, errOut)
			}
			out, errOut, code := run(t, append(args, "--missing-baseline", "pass", "--format", "github")...)
			if code != ExitOK || !strings.Contains(out, "::notice title=profan gate::no baseline: "+tt.why) {
				t.Errorf("--missing-baseline pass: exit %d, want 0 and no baseline:\n%s%s", code, out, errOut)
			}
			if _, err := os.Stat(none); err == nil {
				t.Errorf("the gate created %s", none)
			}
		})
	}
	// Of the runs labelled alike, the newest of the workload is the baseline.
	for _, f := range []string{"saxpy.details.csv", "matmul.details.csv"} {
		if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", fx+f); code != ExitOK {
			t.Fatal(errOut)
		}
	}
	out, errOut, code := run(t, "gate", "--db", db, "--baseline", "branch=main", fx+"transpose.full.details.csv")
	if code != ExitOK || !strings.Contains(out, "baseline: run 1 (branch=main)") || !strings.Contains(errOut, "2 newer runs with these labels are other workloads") {
		t.Errorf("gate: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = run(t, "gate", "--db", db, "--baseline", "latest", "--missing-baseline", "maybe", fx+"saxpy.details.csv")
	if code != ExitError || !strings.Contains(errOut, "want pass or fail") {
		t.Errorf("--missing-baseline maybe: exit %d, %s", code, errOut)
	}
}

// Markdown for pull-request comments: analyze opens with the verdict
// (what to change first, time by category) and collapses the rest; gate
// says its verdict and baseline, its failures first; all fit a comment.
func TestMarkdownForPRComments(t *testing.T) {
	const commentMax = 65536 // GitHub's bound on a comment's characters
	step := "../../fixtures/check6/resnet.pair.default.csv.gz"
	out, errOut, code := run(t, "analyze", "--format", "markdown", step)
	if code != ExitOK {
		t.Fatal(errOut)
	}
	i, j, k := strings.Index(out, "#### What to change first"), strings.Index(out, "#### Time by category"), strings.Index(out, "<details><summary>")
	if !strings.HasPrefix(out, "**292 launches of 56 kernels, 4.300 ms of kernel time.**") || i < 0 || j < i || k < j ||
		!strings.Contains(out[i:j], "1. **`channels-last`** \\~1.202 ms of the 4.300 ms kernel time (28.0%)") || strings.Contains(out[:k], "| 11 |") || len(out) > commentMax {
		t.Errorf("analyze --format markdown (%d bytes):\n%s", len(out), out)
	}
	out, errOut, code = run(t, "analyze", "--format", "html", step)
	if code != ExitOK {
		t.Fatal(errOut)
	}
	if !strings.Contains(out, "<h3>What to change first</h3>") || !strings.Contains(out, "<h3>Time by category</h3>") || !strings.Contains(out, "<code class=\"change\">channels-last</code> ~1.202 ms of the 4.300 ms kernel time (28.0%)") {
		t.Errorf("analyze --format html lacks the application's reading")
	}
	db := filepath.Join(t.TempDir(), "m.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", "../../fixtures/series6/series6_b4.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code = run(t, "gate", "--db", db, "--baseline", "branch=main", "--require", "duration < 1ms", "--format", "markdown", "../../fixtures/series6/series6_b5.details.csv")
	// The verdict first, with by how much; each check named once (the
	// new finding is not also listed as a finding).
	if code != ExitFailed || !strings.HasPrefix(out, "❌ **profan gate: regressed**: kernel duration 10.85 us → 23.84 us (+119.8%, summed over the kernels compared) · 2 of 6 checks failed\n\nbaseline: run 1 (branch=main)\n") ||
		!strings.Contains(out, "\n**Failed**\n\n- transpose: duration 10.85 us → 23.84 us (+119.8%)\n") ||
		strings.Count(out, "shared-bank-conflict") != 1 || !strings.Contains(out, "<details><summary>2 more checks</summary>") {
		t.Errorf("gate --format markdown: exit %d\n%s%s", code, out, errOut)
	}
}

// Names and counts: one ranking never shows two kernels under one name;
// the missing line is short and counts launches; GitHub annotations carry
// repository-relative paths; report selects runs by label; a trend chart
// whose axis does not start at zero says so.
func TestNamesAndCounts(t *testing.T) {
	out, errOut, code := run(t, "analyze", "--format", "json", "../../fixtures/check6/resnet.pair.default.csv.gz")
	if code != ExitOK {
		t.Fatal(errOut)
	}
	var doc struct {
		Groups []struct {
			Name    string `json:"name"`
			Display string `json:"display_name"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Groups) != 56 {
		t.Fatalf("%v, %d groups", err, len(doc.Groups))
	}
	seen := map[string]string{}
	for _, g := range doc.Groups {
		if other, ok := seen[g.Display]; ok {
			t.Errorf("%q names both %q and %q", g.Display, other, g.Name)
		}
		seen[g.Display] = g.Name
	}
	for _, d := range []string{"at::multi_tensor_apply_kernel<BinaryOpListAlphaFunctor, plus, …> [TensorListMetadata<2>]",
		"cutlass__5x_cudnn::Kernel<ImplicitGemmConvolution> [GemmShape<64, 64, 32>]"} {
		if _, ok := seen[d]; !ok {
			t.Errorf("no group shown as %q", d)
		}
	}
	// An nsys kernel summary lacks every counter: one short line per
	// command that adds them, counting launches.
	out, _, _ = run(t, "analyze", "../ingest/testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv")
	var missing []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "missing:") {
			missing = append(missing, l)
		}
	}
	if len(missing) != 1 || len(missing[0]) > 160 || !strings.HasPrefix(missing[0], "missing: 16 rules lack counters on 254999 launches (") {
		t.Errorf("missing lines: %q", missing)
	}
	// Annotations: the export given from internal/cli is fixtures/... of the checkout.
	io, o, _ := testStreams()
	root, _ := filepath.Abs("../..")
	io.Getenv = func(k string) string {
		if k == "GITHUB_WORKSPACE" {
			return root
		}
		return ""
	}
	Main([]string{"gate", "--format", "github", "--path-map", "/tmp/profan/=src/", fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}, io)
	Main([]string{"gate", "--format", "github", fx + "copy.import.details.csv"}, io)
	if s := o.String(); !strings.Contains(s, "::error file=src/transpose.cu,line=41,") || !strings.Contains(s, "::error file=fixtures/ncu/copy.import.details.csv,") || strings.Contains(s, "file=../") {
		t.Errorf("github annotations:\n%s", s)
	}
	// report --label, and a zoomed axis said.
	db := series(t)
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--db", db, "--label", "build=v1", "-m", "achieved_occupancy", "--html", html); code != ExitOK {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(html)
	if !strings.Contains(string(b), "profan report: run 2 (") {
		t.Errorf("report --label build=v1 is not run 2's")
	}
	if _, errOut, code := run(t, "report", "--db", db, "-m", "achieved_occupancy", "--html", html); code != ExitOK {
		t.Fatal(errOut)
	}
	b, _ = os.ReadFile(html)
	if !strings.Contains(string(b), "axis from 0.83, not zero: its height is 6.7% of the values") {
		t.Errorf("the achieved_occupancy chart (0.84 to 0.88) does not say its axis is zoomed")
	}
	if _, errOut, code := run(t, "report", "--db", db, "--label", "build=v9", "--html", html); code != ExitError || !strings.Contains(errOut, "holds no run labelled build=v9") {
		t.Errorf("report --label build=v9: exit %d, %s", code, errOut)
	}
}

// A finding the baseline could not have had (its export lacked the rule's
// counters: ncu's default sections against --set full) is no new finding.
func TestGateNewFindingBaselineSkipped(t *testing.T) {
	db := filepath.Join(t.TempDir(), "g.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", fx+"transpose.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "gate", "--db", db, "--baseline", "branch=main", "-v", fx+"transpose.import.details.csv")
	if code != ExitOK || !strings.Contains(out, "PASS transposeCoalesced(float *, const float *) [new-finding shared-bank-conflict] not gated: the baseline's export lacks the counters this rule reads") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}

// The gate's comment on an improvement says so in its first line, by how
// much, and names the finding that went away.
func TestGateCommentImproved(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "i.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", fx+"series_v1.runs5.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "gate", "--db", db, "--baseline", "branch=main", "--format", "markdown", fx+"series_v2.runs5.details.csv")
	if code != ExitOK || !strings.HasPrefix(out, "✅ **profan gate: improved**: kernel duration 22.82 us → 9.25 us (-59.5%, summed over the kernels compared) · 1 finding resolved") ||
		!strings.Contains(out, "\n**Improved**\n\n- transpose: duration 22.82 us → 9.25 us (-59.5%)\n") ||
		!strings.Contains(out, "\n**Resolved findings**\n\n- transpose: resolved-finding `shared-bank-conflict`") {
		t.Errorf("gate --format markdown on an improvement: exit %d\n%s%s", code, out, errOut)
	}
}

// A gate of two PyTorch steps leads its comment with the step (wall and
// busy share), and its rows name kernels apart (two multi_tensor_apply
// kernels differ past their first 60 characters).
func TestGateCommentLeadsWithStep(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "s.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", "../../fixtures/timeline/train_small.json.gz"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "gate", "--db", db, "--baseline", "branch=main", "--max-regression", "5%", "--format", "markdown", "../../fixtures/timeline/train_small_graphs.json.gz")
	first, _, _ := strings.Cut(out, "\n")
	if code == ExitError || !strings.Contains(first, ": wall 62.961 ms → 8.635 ms (-86.3%), GPU busy 10.6% → 82.2% · kernel duration") {
		t.Errorf("exit %d, first line %q%s", code, first, errOut)
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "- … ") {
			if seen[l] {
				t.Errorf("listed twice: %s", l)
			}
			seen[l] = true
		}
	}
	// The text format leads with the same verdict, the step first: a
	// step whose wall fell by 86% is not called "regressed" for its
	// kernel checks; the gate failed, and on what is said.
	md := first
	out, errOut, code = run(t, "gate", "--db", db, "--baseline", "branch=main", "--max-regression", "5%", "../../fixtures/timeline/train_small_graphs.json.gz")
	first, _, _ = strings.Cut(out, "\n")
	if code == ExitError || !strings.HasPrefix(first, "profan gate: failed: wall 62.961 ms → 8.635 ms (-86.3%), GPU busy 10.6% → 82.2% · kernel duration") ||
		!strings.Contains(first, " kernel checks regressed · ") ||
		!strings.HasSuffix(md, strings.TrimPrefix(first, "profan gate: failed")) {
		t.Errorf("gate text: exit %d, first line %q, where the Markdown's is %q%s", code, first, md, errOut)
	}
}

// runs says when a PyTorch trace was captured (Kineto's
// baseTimeNanoseconds), and "-" for a CSV export, which does not say.
func TestRunsCaptured(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "c.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "../../fixtures/timeline/train_small.json.gz", fx+"transpose.import.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "runs", "--db", db)
	lines := strings.Split(out, "\n")
	if code != ExitOK || len(lines) < 3 || !strings.HasPrefix(lines[0], "RUN  CAPTURED             INGESTED") ||
		!strings.HasPrefix(lines[1], "1    2026-10-01 12:17:06  ") || !strings.HasPrefix(lines[2], "2    -                    ") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	out, _, _ = run(t, "runs", "--db", db, "-f", "json")
	if strings.Count(out, `"captured": "2026-10-01T12:17:06Z"`) != 1 || strings.Count(out, `"captured"`) != 1 {
		t.Errorf("runs -f json:\n%s", out)
	}
}

// trend states a share's move in points (10.6% → 82.2%: +71.6 points),
// as it prints the share in %, not as a relative change of the ratio.
func TestTrendSharePoints(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "p.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "../../fixtures/timeline/train_small.json.gz", "../../fixtures/timeline/train_small_graphs.json.gz"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "trend", "--db", db, "-m", "gpu_busy")
	if code != ExitOK || !strings.Contains(out, "82.2%  ▲ +71.6 points (floor)") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
}
