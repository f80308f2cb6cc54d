package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

const nsysPageable = "../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv"
const nvprofReduce = "../ingest/testdata/nvprof/magus-gtx1080ti-invalid-records-warning-templates.csv"

// TestGateRunFindings: gate runs the run-level rules as analyze does, so
// pageable transfers fail a gate that fails on them.
func TestGateRunFindings(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "gate", nsysPageable, "--fail-on", "pageable-memcpy")
	if code != ExitFailed || !strings.Contains(out, "[run-finding pageable-memcpy] 31 host transfers use pageable memory") {
		t.Errorf("gate --fail-on pageable-memcpy: exit %d, want 1 with the pageable transfers\n%s%s", code, out, errOut)
	}
	for _, format := range []string{"json", "junit", "sarif", "github"} {
		out, errOut, code := run(t, "gate", nsysPageable, "--fail-on", "pageable-memcpy", "--format", format)
		if code != ExitFailed || !strings.Contains(out, "31 host transfers use pageable memory") {
			t.Errorf("gate --format %s: exit %d, want 1 naming the transfers\n%s%s", format, code, out, errOut)
		}
		if format == "sarif" {
			var doc any
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			for _, e := range validateSARIF(doc) {
				t.Error("sarif:", e)
			}
		}
	}
	// The pageable transfers fail no gate that fails on other rules; a
	// rule named by its ID that the trace lacks the counters of fails
	// (nothing could be checked), one reached through a glob does not.
	if _, _, code := run(t, "gate", nsysPageable, "--fail-on", "uncoalesced-*"); code != ExitOK {
		t.Errorf("gate --fail-on uncoalesced-*: exit %d, want 0", code)
	}
	if out, _, code := run(t, "gate", nsysPageable, "--fail-on", "uncoalesced-global"); code != ExitFailed || !strings.Contains(out, "uncoalesced-global could not run") {
		t.Errorf("gate --fail-on uncoalesced-global: exit %d, want 1: the trace has no memory counters\n%s", code, out)
	}
}

// TestFailOnSourceRule: a rule that reads ncu's source page alone
// (int-division, constant-serialization, fp64-on-float, cas-loop) and is
// named by --fail-on fails a kernel whose export lacks that page, as one
// lacking counters does, where the gate passed green having looked at
// nothing (sol-check9's raw page: constant-serialization and
// fp64-on-float found with the page, nothing without); with
// --skip-missing and no page at all, nothing is checked: exit 2. A
// torch.profiler trace's kernels lack every counter, likewise.
func TestFailOnSourceRule(t *testing.T) {
	t.Parallel()
	details, source := fx+"transpose.import.details.csv", fx+"transpose.source.cuda-sass.csv"
	if out, errOut, code := run(t, "gate", details, source, "--fail-on", "int-division"); code != ExitOK {
		t.Errorf("with the source page: exit %d, want 0\n%s%s", code, out, errOut)
	}
	out, _, code := run(t, "gate", details, "--fail-on", "int-division")
	if code != ExitFailed || !strings.Contains(out, "int-division could not run: the export lacks the source page, whose SASS it reads") {
		t.Errorf("without the source page: exit %d, want 1, saying why\n%s", code, out)
	}
	if _, errOut, code := run(t, "gate", details, "--fail-on", "int-division", "--skip-missing"); code != ExitError || !strings.Contains(errOut, "--fail-on int-division: no kernel has the source page") {
		t.Errorf("--skip-missing without the source page: exit %d, want 2\n%s", code, errOut)
	}
	if _, _, code := run(t, "gate", details, "--fail-on", "int-*"); code != ExitOK {
		t.Errorf("--fail-on int-*: exit %d, want 0 (a glob holds no rule to its page)", code)
	}
	// A torch.profiler trace's kernels have no counters: a rule named
	// fails them as on an nsys trace (it passed green, looking at nothing).
	const trace = "../../fixtures/timeline/train_small.json.gz"
	out, _, code = run(t, "gate", trace, "--fail-on", "uncoalesced-global", "--min-share", "0")
	if code != ExitFailed || !strings.Contains(out, "uncoalesced-global could not run: the export lacks the counters it needs") || !strings.Contains(out, "ncu --set full -k regex:<its name>") {
		t.Errorf("a trace, --fail-on uncoalesced-global: exit %d, want 1, saying why\n%s", code, out)
	}
	if _, _, code := run(t, "gate", trace, "--fail-on", "uncoalesced-*"); code != ExitOK {
		t.Errorf("a trace, --fail-on uncoalesced-*: exit %d, want 0", code)
	}
}

// TestFailOnExclusion: one matcher applies "all,-latency-bound" left to right.
func TestFailOnExclusion(t *testing.T) {
	t.Parallel()
	out, _, code := run(t, "gate", nvprofReduce, "--fail-on", "all", "--min-share", "0")
	if code != ExitFailed || !strings.Contains(out, "FAIL") || !regexp.MustCompile(`FAIL .*\[finding latency-bound\]`).MatchString(out) {
		t.Fatalf("--fail-on all: exit %d, want latency-bound failures\n%s", code, out)
	}
	out, _, _ = run(t, "gate", nvprofReduce, "--fail-on", "all,-latency-bound", "--min-share", "0")
	if regexp.MustCompile(`FAIL .*\[finding latency-bound\]`).MatchString(out) {
		t.Errorf("--fail-on all,-latency-bound fails on latency-bound:\n%s", out)
	}
}

// TestAnalyzeSuppressions: analyze --config applies [[suppress]] (IDs and
// globs) and says how many findings it suppressed; gate agrees.
func TestAnalyzeSuppressions(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "profan.toml")
	os.WriteFile(cfg, []byte("[[suppress]]\nrule = \"small-grid\"\nreason = \"start-up kernels\"\n\n[[suppress]]\nrule = \"*-memcpy\"\nreason = \"pinned in the next release\"\n"), 0o644)
	all, _, _ := run(t, "analyze", "--format", "json", "--launches", nvprofReduce, nsysPageable)
	out, errOut, code := run(t, "analyze", "--config", cfg, nvprofReduce, nsysPageable)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "small-grid") || strings.Contains(out, "pageable-memcpy") {
		t.Errorf("suppressed rules still reported")
	}
	counts, err := ruleCounts(all)
	if err != nil {
		t.Fatal(err)
	}
	n := counts["small-grid"] + counts["pageable-memcpy"]
	if want := cfg + ": " + strconv.Itoa(n) + " finding(s) suppressed"; n == 0 || !strings.Contains(errOut, want) {
		t.Errorf("stderr %q, want %q", errOut, want)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, "report", "--config", cfg, "--html", html, nvprofReduce, nsysPageable); code != ExitOK {
		t.Fatalf("report --config: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(html); strings.Contains(string(b), `<code class="rule">small-grid</code>`) {
		t.Errorf("report --config shows suppressed small-grid findings")
	}
	db := filepath.Join(t.TempDir(), "runs.db")
	run(t, "ingest", "--db", db, nvprofReduce)
	if _, errOut, code := run(t, "report", "--config", cfg, "--html", html, "--db", db, "--run", "1"); code != ExitOK {
		t.Fatalf("report --db --config: exit %d: %s", code, errOut)
	}
	if b, _ := os.ReadFile(html); strings.Contains(string(b), `<code class="rule">small-grid</code>`) {
		t.Errorf("report --db --config shows suppressed small-grid findings")
	}
	gout, _, gcode := run(t, "gate", "--config", cfg, "--fail-on", "all,-latency-bound,-memory-bound,-compute-bound", nvprofReduce, nsysPageable)
	if strings.Contains(gout, "FAIL") && regexp.MustCompile(`FAIL .*(small-grid|pageable-memcpy)`).MatchString(gout) {
		t.Errorf("gate fails on suppressed findings (exit %d):\n%s", gcode, gout)
	}
}

// TestStoredRunFindings: ingest stores the run-level part of the verdict,
// so gate --run fails where gate on the file does.
func TestStoredRunFindings(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := run(t, "ingest", "--db", db, nsysPageable); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	out, errOut, code := run(t, "gate", "--db", db, "--run", "1", "--fail-on", "pageable-memcpy")
	if code != ExitFailed || !strings.Contains(out, "[run-finding pageable-memcpy] 31 host transfers use pageable memory") {
		t.Errorf("gate --run --fail-on pageable-memcpy: exit %d, want 1 with the stored pageable transfers\n%s%s", code, out, errOut)
	}
}

// TestStoredVerdictAgrees: gate --run and report --db read the verdict
// ingest stored, and state what gate and report state on the exports.
func TestStoredVerdictAgrees(t *testing.T) {
	t.Parallel()
	in := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := run(t, append([]string{"ingest", "--db", db}, in...)...); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	fails := func(args ...string) string {
		t.Helper()
		out, errOut, code := run(t, append([]string{"gate", "--fail-on", "all", "--format", "json"}, args...)...)
		if code == ExitError {
			t.Fatalf("gate %v: %s", args, errOut)
		}
		var g struct {
			Checks []struct{ Kernel, Kind, Name, Status string } `json:"checks"`
		}
		if err := json.Unmarshal([]byte(out), &g); err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, c := range g.Checks {
			if c.Status == "fail" {
				s = append(s, c.Kernel+" "+c.Name)
			}
		}
		return strings.Join(s, "\n")
	}
	if a, b := fails(in...), fails("--db", db, "--run", "1"); a != b || a == "" {
		t.Errorf("gate on the exports fails on\n%s\ngate --run on\n%s", a, b)
	}
	rules := func(args ...string) string {
		t.Helper()
		out := filepath.Join(t.TempDir(), "r.html")
		if _, errOut, code := run(t, append([]string{"report", "--html", out}, args...)...); code != ExitOK {
			t.Fatalf("report %v: %s", args, errOut)
		}
		b, _ := os.ReadFile(out)
		return strings.Join(regexp.MustCompile(`<code class="rule">[^<]*</code>`).FindAllString(string(b), -1), " ")
	}
	if a, b := rules(in...), rules("--db", db, "--run", "1"); a != b || a == "" {
		t.Errorf("report on the exports shows %s\nreport --db %s", a, b)
	}
}
