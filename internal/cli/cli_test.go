package cli

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/store/storetest"
)

const fx = "../../fixtures/ncu/"

// run executes profan in-process.
func run(t *testing.T, args ...string) (string, string, ExitCode) {
	t.Helper()
	io, out, errOut := testStreams()
	code := Main(args, io)
	return out.String(), errOut.String(), code
}

func TestAnalyzeJSONContract(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "analyze", "--format", "json", fx+"transpose.import.details.csv", fx+"transpose.source.cuda-sass.csv")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Kernels []struct {
			ID       string             `json:"id"`
			Name     string             `json:"name"`
			Device   string             `json:"device"`
			CC       string             `json:"cc"`
			Grid     [3]int             `json:"grid"`
			Block    [3]int             `json:"block"`
			Metrics  map[string]float64 `json:"metrics"`
			Findings []struct {
				Rule      string `json:"rule"`
				Locations []struct {
					File string `json:"file"`
					Line int    `json:"line"`
				} `json:"locations"`
			} `json:"findings"`
			Model map[string]json.RawMessage `json:"model"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	if len(doc.Kernels) != 5 {
		t.Fatalf("got %d kernels, want 5", len(doc.Kernels))
	}
	k := doc.Kernels[2]
	if k.ID != "2" || !strings.HasPrefix(k.Name, "transposeNaive") || k.CC != "9.0" || k.Grid != [3]int{64, 64, 1} || k.Block != [3]int{32, 8, 1} {
		t.Errorf("kernel 2 identity: %+v", k)
	}
	if got := k.Metrics["gst_transactions_per_request"]; got < 31 || got > 33 {
		t.Errorf("gst_transactions_per_request = %v, want about 32", got)
	}
	for _, space := range []string{"global_load", "global_store"} {
		var a struct {
			SPR     float64 `json:"sectors_per_request"`
			Ideal   float64 `json:"ideal_sectors_per_request"`
			Pattern string  `json:"pattern"`
		}
		if err := json.Unmarshal(k.Model[space], &a); err != nil {
			t.Fatalf("model.%s: %v", space, err)
		}
		want := map[string]string{"global_load": "coalesced", "global_store": "strided"}[space]
		if a.Pattern != want || a.Ideal != 4 {
			t.Errorf("model.%s = %+v, want pattern %s, ideal 4", space, a, want)
		}
	}
	if len(k.Findings) == 0 || k.Findings[0].Rule != "uncoalesced-global" || len(k.Findings[0].Locations) == 0 || k.Findings[0].Locations[0].Line != 41 {
		t.Errorf("kernel 2 findings: %+v, want uncoalesced-global at line 41 first", k.Findings)
	}
}

// TestModelSeed reproduces the published Volta table (10,000 threads of
// coalesced floats: 313 requests, 313 L1 and 1,250 L2 transactions)
// through the command.
func TestModelSeed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		elem, pattern string
		req, l1, l2   float64
		tolerance     float64
	}{
		{"4", "sequential", 313, 313, 1250, 0},
		{"8", "sequential", 313, 625, 2500, 0},
		{"4", "random", 313, 9566, 9895, 0.03},
		{"8", "random", 313, 9740, 9947, 0.03},
	} {
		t.Run(tt.elem, func(t *testing.T) {
			out, errOut, code := run(t, "model", "--arch", "volta", "--elem-bytes", tt.elem, "--threads", "10000", "--pattern", tt.pattern, "--format", "json")
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var got struct {
				Requests, L1 float64
				L2           float64 `json:"l2_sectors"`
			}
			var raw map[string]float64
			json.Unmarshal([]byte(strings.ReplaceAll(out, `"7.0"`, "7")), &raw)
			got.Requests, got.L1, got.L2 = raw["requests"], raw["l1_transactions"], raw["l2_sectors"]
			for _, c := range []struct {
				name      string
				got, want float64
			}{{"requests", got.Requests, tt.req}, {"l1_transactions", got.L1, tt.l1}, {"l2_sectors", got.L2, tt.l2}} {
				if d := c.got - c.want; d > tt.tolerance*c.want || -d > tt.tolerance*c.want {
					t.Errorf("%s-byte %s: %s = %v, want %v (±%.0f%%)", tt.elem, tt.pattern, c.name, c.got, c.want, tt.tolerance*100)
				}
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	trunc := filepath.Join(dir, "trunc.csv")
	b, _ := os.ReadFile(fx + "saxpy.details.csv")
	os.WriteFile(trunc, b[:len(b)*2/3], 0o644)
	garbage := filepath.Join(dir, "garbage.csv")
	os.WriteFile(garbage, []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644)
	for _, tt := range []struct {
		args []string
		code ExitCode
		msg  string
	}{
		{[]string{"analyze", fx + "bad-section.csv"}, ExitError, `bad-section.csv:\d+: ncu failed, no table in the export: Option '--section NoSuchSection' did not match any section`},
		{[]string{"analyze", fx + "failing-nokernel.csv"}, ExitError, `failing-nokernel.csv:\d+: ncu failed`},
		{[]string{"analyze", trunc}, ExitError, `trunc.csv:\d+: `},
		{[]string{"analyze", garbage}, ExitError, `garbage.csv:1: (binary data|invalid UTF-8)`},
		{[]string{"analyze", filepath.Join(dir, "missing.csv")}, ExitError, `missing.csv: no such file`},
		{[]string{"analyze"}, ExitError, `requires at least 1 arg`},
		{[]string{"analyze", "--format", "yaml", fx + "saxpy.details.csv"}, ExitError, `unknown format "yaml"`},
		{[]string{"model", "--arch", "volta", "--threads", "10", "--pattern", "zigzag"}, ExitError, `--pattern`},
		{[]string{"explain", "no-such-rule"}, ExitError, `unknown rule "no-such-rule"`},
		{[]string{"gate", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >= 80"}, ExitOK, ``},
		{[]string{"gate", fx + "transpose.metrics.details.csv", "--require", "gst_efficiency >= 80"}, ExitFailed, ``},
		{[]string{"gate", fx + "saxpy.metrics.details.csv", "--require", "no_such_metric > 1"}, ExitError, `unknown metric "no_such_metric"`},
		{[]string{"gate", fx + "saxpy.metrics.details.csv", "--require", "gld_efficiency >="}, ExitError, `want 'METRIC OP VALUE'`},
	} {
		t.Run(tt.msg, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != tt.code {
				t.Errorf("profan %s: exit %d, want %d (stderr %q)", strings.Join(tt.args, " "), code, tt.code, errOut)
				return
			}
			if tt.msg != "" && !regexp.MustCompile(tt.msg).MatchString(errOut) {
				t.Errorf("profan %s: stderr %q does not match %q", strings.Join(tt.args, " "), errOut, tt.msg)
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine") {
				t.Errorf("profan %s: panicked: %s", strings.Join(tt.args, " "), errOut)
			}
		})
	}
}

// series ingests the four builds of the transpose series into a new
// SQLite database and returns its path.
func series(t *testing.T) string {
	t.Helper()
	return seriesOn(t, filepath.Join(t.TempDir(), "runs.db"))
}

func seriesOn(t *testing.T, db string) string {
	t.Helper()
	for v := 0; v < 4; v++ {
		out, errOut, code := run(t, "ingest", "--db", db, "--label", "build=v"+string(rune('0'+v)), fx+"series_v"+string(rune('0'+v))+".runs5.details.csv")
		if code != ExitOK || !strings.Contains(out, "stored as run") {
			t.Fatalf("ingest v%d: exit %d: %s %s", v, code, out, errOut)
		}
	}
	return db
}

func TestSeries(t *testing.T) {
	t.Parallel()
	for _, backend := range storetest.Backends {
		t.Run(backend, func(t *testing.T) { testSeries(t, seriesOn(t, storetest.DSN(t, backend))) })
	}
}

// TestBackendsAgree runs the database commands on both backends and
// requires identical output.
func TestBackendsAgree(t *testing.T) {
	t.Parallel()
	dbs := map[string]string{}
	for _, b := range storetest.Backends {
		dbs[b] = seriesOn(t, storetest.DSN(t, b))
	}
	for _, args := range [][]string{
		{"trend", "--kernel", "^transpose", "--metric", "duration", "--format", "json"},
		{"trend", "--kernel", "transpose", "--metric", "gst_transactions_per_request"},
		{"trend", "--kernel", "transpose", "--metric", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "--format", "csv"},
		{"diff", "3", "4"},
		{"diff", "1", "2", "--format", "json"},
		{"gate", "--run", "4", "--baseline", "3", "--max-regression", "10%", "--format", "junit"},
		{"gate", "--run", "3", "--baseline", "2", "--format", "sarif"},
	} {
		out := map[string]string{}
		for b, db := range dbs {
			o, e, code := run(t, append(append([]string{}, args...), "--db", db)...)
			out[b] = fmt.Sprintf("exit %d\n%s%s", code, o, e)
		}
		if out["sqlite"] != out["postgres"] {
			t.Errorf("%v: the backends differ:\n%s", args, golden.Diff(out["sqlite"], out["postgres"]))
		}
	}
}

func testSeries(t *testing.T, db string) {
	// The trend shows each change of implementation.
	for _, tt := range []struct {
		metric string
		runs   []int64
	}{
		{"duration", []int64{2, 3, 4}},                       // 71 → 23 → 9 → 72 us, 5 launches each
		{"gst_transactions_per_request", []int64{2, 4}},      // 32 → 4 → 4 → 32
		{"shared_load_transactions_per_request", []int64{3}}, // 32-way → padded (v1 → v2)
	} {
		t.Run(tt.metric, func(t *testing.T) {
			out, errOut, code := run(t, "trend", "--db", db, "--kernel", "^transpose", "--metric", tt.metric, "--format", "json")
			if code != ExitOK {
				t.Fatalf("trend %s: exit %d: %s", tt.metric, code, errOut)
			}
			var doc struct {
				Points  []struct{ Run int64 } `json:"points"`
				Changes []struct{ Run int64 } `json:"changes"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, c := range doc.Changes {
				got = append(got, c.Run)
			}
			if len(got) != len(tt.runs) || (len(got) > 0 && !equalInts(got, tt.runs)) {
				t.Errorf("trend %s: changes at runs %v, want %v", tt.metric, got, tt.runs)
			}
		})
	}

	// The gate fails the regression and passes the improvements.
	for _, tt := range []struct {
		run, baseline string
		code          ExitCode
	}{
		{"4", "3", ExitFailed}, // padded tile → naive again: 8× slower, uncoalesced stores
		{"3", "2", ExitOK},     // unpadded → padded tile: faster, conflicts gone
		{"3", "1", ExitOK},     // naive → padded tile
		{"2", "1", ExitFailed}, // naive → unpadded tile: faster, but a bank conflict appears
		{"3", "3", ExitOK},
	} {
		t.Run(tt.run, func(t *testing.T) {
			out, errOut, code := run(t, "gate", "--db", db, "--run", tt.run, "--baseline", tt.baseline, "--max-regression", "10%")
			if code != tt.code {
				t.Errorf("gate --run %s --baseline %s: exit %d, want %d\n%s%s", tt.run, tt.baseline, code, tt.code, out, errOut)
			}
		})
	}

	// diff names the finding that appeared with the regression.
	out, _, code := run(t, "diff", "--db", db, "3", "4")
	if code != ExitOK || !strings.Contains(out, "+ finding uncoalesced-global appeared") {
		t.Errorf("diff 3 4: exit %d, want the uncoalesced-global finding to appear:\n%s", code, out)
	}
	out, _, _ = run(t, "diff", "--db", db, "1", "2")
	if !strings.Contains(out, "- finding uncoalesced-global disappeared") || !strings.Contains(out, "+ finding shared-bank-conflict appeared") {
		t.Errorf("diff 1 2: want uncoalesced-global gone and shared-bank-conflict new:\n%s", out)
	}

	// runs lists them with their labels.
	out, _, _ = run(t, "runs", "--db", db, "--format", "json")
	var runs []report.JSONRunRecord
	if err := json.Unmarshal([]byte(out), &runs); err != nil || len(runs) != 4 || runs[3].Labels["build"] != "v3" {
		t.Errorf("runs: %v %+v", err, runs)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func countRuns(t *testing.T, db string) int {
	t.Helper()
	out, errOut, code := run(t, "runs", "--db", db, "--format", "json")
	if code != ExitOK {
		t.Fatalf("runs: exit %d: %s", code, errOut)
	}
	var runs []report.JSONRunRecord
	json.Unmarshal([]byte(out), &runs)
	return len(runs)
}

func TestIngestBadInputLeavesDatabaseUnchanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"saxpy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	before, _ := os.ReadFile(db)
	trunc := filepath.Join(dir, "trunc.csv")
	b, _ := os.ReadFile(fx + "copy.full.details.csv")
	os.WriteFile(trunc, b[:len(b)/2], 0o644)
	for _, args := range [][]string{
		{trunc},
		{fx + "transpose.details.csv", trunc},
		{fx + "indirect.details.csv", fx + "bad-section.csv"},
	} {
		_, errOut, code := run(t, append([]string{"ingest", "--db", db}, args...)...)
		if code != ExitError || !regexp.MustCompile(`\.csv:\d+: `).MatchString(errOut) {
			t.Errorf("ingest %v: exit %d (%q), want 2 with file:line", args, code, errOut)
		}
		if n := countRuns(t, db); n != 1 {
			t.Errorf("ingest %v: %d runs in the database, want 1 (unchanged)", args, n)
		}
	}
	_ = before
	// Identical content is a no-op with a message.
	_, errOut, code := run(t, "ingest", "--db", db, fx+"saxpy.details.csv")
	if code != ExitOK || !strings.Contains(errOut, "already stored as run 1") {
		t.Errorf("re-ingest: exit %d, %q", code, errOut)
	}
	if n := countRuns(t, db); n != 1 {
		t.Errorf("re-ingest stored a second run")
	}
}

func TestGateFormats(t *testing.T) {
	t.Parallel()
	in := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	gate := func(format string) string {
		out, errOut, code := run(t, append([]string{"gate", "--fail-on", "uncoalesced-global,shared-*", "--format", format}, in...)...)
		if code != ExitFailed {
			t.Fatalf("gate --format %s: exit %d, want 1: %s", format, code, errOut)
		}
		return out
	}
	// JUnit XML parses, with the failures counted.
	var suites report.JUnitSuites
	if err := xml.Unmarshal([]byte(gate("junit")), &suites); err != nil {
		t.Fatalf("junit: %v", err)
	}
	if suites.Fails != 2 || suites.Tests == 0 {
		t.Errorf("junit: %d tests, %d failures, want 2 failures", suites.Tests, suites.Fails)
	}
	// SARIF validates against the 2.1.0 schema's rules for what it uses.
	var doc any
	if err := json.Unmarshal([]byte(gate("sarif")), &doc); err != nil {
		t.Fatal(err)
	}
	if errs := validateSARIF(doc); len(errs) > 0 {
		for _, e := range errs {
			t.Error("sarif:", e)
		}
	}
	// GitHub annotations.
	gh := gate("github")
	if !regexp.MustCompile(`(?m)^::error file=/tmp/profan/transpose\.cu,line=41,title=profan uncoalesced-global%3A transposeNaive`).MatchString(gh) {
		t.Errorf("github: no error annotation at transpose.cu:41:\n%s", gh)
	}
	for _, l := range strings.Split(strings.TrimSpace(gh), "\n") {
		if !regexp.MustCompile(`^::(error|warning|notice)( [a-z]+=[^,:]*(,[a-z]+=[^,:]*)*)?::`).MatchString(l) {
			t.Errorf("github: malformed workflow command %q", l)
		}
	}
	var js struct {
		Passed bool
		Failed int
	}
	json.Unmarshal([]byte(gate("json")), &js)
	if js.Passed || js.Failed != 2 {
		t.Errorf("json: %+v", js)
	}
}

func TestConfigSuppression(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "profan.toml")
	os.WriteFile(cfg, []byte(`fail_on = ["uncoalesced-global"]

[[suppress]]
rule = "uncoalesced-global"
kernel = "^transposeNaive"
reason = "the naive transpose is the baseline of the tutorial"
`), 0o644)
	out, errOut, code := run(t, "gate", "--config", cfg, fx+"transpose.metrics.details.csv")
	if code != ExitOK || !strings.Contains(out, "suppressed: the naive transpose") {
		t.Errorf("suppressed gate: exit %d\n%s%s", code, out, errOut)
	}
	os.WriteFile(cfg, []byte("[[suppress]]\nrule = \"uncoalesced-global\"\n"), 0o644)
	_, errOut, code = run(t, "gate", "--config", cfg, fx+"transpose.metrics.details.csv")
	if code != ExitError || !strings.Contains(errOut, "has no reason") {
		t.Errorf("suppression without a reason: exit %d, %q", code, errOut)
	}
}

var _ = bytes.NewBuffer

func TestReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	_, errOut, code := run(t, "report", "--device", "H200", "--html", out, fx+"transpose.import.details.csv", fx+"transpose.source.cuda-sass.csv")
	if code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(out)
	for _, want := range []string{"transposeNaive(float *, const float *)", "uncoalesced-global", "transpose.cu:41", "<svg"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	db := series(t)
	out = filepath.Join(dir, "trend.html")
	if _, errOut, code := run(t, "report", "--db", db, "--kernel", "transpose", "--x-label", "build", "--html", out); code != ExitOK {
		t.Fatalf("report --db: exit %d: %s", code, errOut)
	}
	b, _ = os.ReadFile(out)
	if !strings.Contains(string(b), "change") || !strings.Contains(string(b), ">v3</text>") {
		t.Errorf("trend report lacks change marks or run labels")
	}
	if _, _, code := run(t, "report", fx+"saxpy.details.csv"); code != ExitError {
		t.Errorf("report without --html: exit %d, want 2", code)
	}
}

// testStreams returns streams backed by buffers.
func testStreams() (*IOStreams, *bytes.Buffer, *bytes.Buffer) {
	out, errOut := &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: &bytes.Buffer{}, Out: out, ErrOut: errOut, Getenv: func(string) string { return "" }}, out, errOut
}

// skipShort skips a long test (a sweep over every spelling, command or
// fixture, a 30,000-launch trace) when go test runs with -short, the
// edit-test loop; CI runs it.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("long: runs without -short, as CI does")
	}
}
