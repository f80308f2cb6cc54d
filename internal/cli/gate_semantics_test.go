package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/profan-dev/profan/internal/tile"
)

// gateFails counts the failed checks of a text gate output by kind.
func gateFails(out string) map[string]int {
	n := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^FAIL .*\[(\S+) (\S+)\]`).FindAllStringSubmatch(out, -1) {
		n[m[1]]++
		if m[1] == "finding" {
			n[m[2]]++
		}
	}
	return n
}

// TestGateSemantics pins the gate's rules case by case: the linter stays on
// under a config of thresholds only; an export that records an
// application error stops the gate; findings gate only on kernel groups
// above --min-share; each check is made once per kernel group.
func TestGateSemantics(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	src := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	thresholds := cfg("th.toml", "[thresholds]\nbank_conflict_ways = 4\n")
	for _, tt := range []struct {
		name string
		args []string
		code ExitCode
		out  string // in stdout
		err  string // in stderr
	}{
		// A config of thresholds gives no condition: still a linter, which
		// the 32-way bank conflict fails (it once passed with "7 checks").
		{"thresholds-only config", append([]string{"gate", "--config", thresholds}, src...), ExitFailed,
			"[finding shared-bank-conflict]", "like a linter"},
		{"suppressions-only config", append([]string{"gate", "--config", cfg("sup.toml", "[[suppress]]\nrule = \"latency-bound\"\nreason = \"launch-bound by design\"\n")}, src...), ExitFailed,
			"[finding shared-bank-conflict]", "like a linter"},
		{"config with fail_on", append([]string{"gate", "--config", cfg("fail.toml", "fail_on = [\"uncoalesced-global\"]\n")}, src...), ExitFailed,
			"[finding uncoalesced-global]", ""},
		// The application returned 1 after one launch: the capture may be
		// cut short, so a passing condition must not pass the gate.
		{"application error", []string{"gate", fx + "failing.csv", "--require", "duration < 1ms"}, ExitError,
			"", "failing.csv:5: the export records an error: The application returned an error code (1).; the capture may be incomplete"},
		{"application error allowed", []string{"gate", fx + "failing.csv", "--require", "duration < 1ms", "--allow-app-errors"}, ExitOK,
			"gate passed", "failing.csv:5: warning: the export records an error, gated anyway (--allow-app-errors)"},
		{"profiler error", []string{"gate", "../ingest/testdata/ncu/gardenia-a100-cc80-details-error-preamble.csv", "--fail-on", "all"}, ExitError,
			"", `Failed to profile "gemm_shared_tile"`},
		// A condition holds for a group's median over its launches: the
		// five launches of the series are one check.
		{"median over launches", []string{"gate", fx + "series_v0.runs5.details.csv", "--require", "duration < 1s", "-v"}, ExitOK,
			"duration: median", ""},
		// A rule --fail-on names that lacks its counters on a kernel
		// cannot be checked there: the gate once passed, checking nothing.
		{"named rule without its counters", append([]string{"gate", "--fail-on", "atomic-serialization"}, src...), ExitFailed,
			"[finding atomic-serialization] atomic-serialization could not run: the export lacks the counters it needs", ""},
		{"named rule without its counters, skipped", append([]string{"gate", "--fail-on", "atomic-serialization", "--skip-missing"}, src...), ExitError,
			"", "--fail-on atomic-serialization: no kernel has the counters it needs (l2_atomic_requests), so nothing would be checked"},
		{"named rule with its counters", []string{"gate", "--fail-on", "atomic-serialization", fx + "transpose.full.raw.csv"}, ExitOK, "gate passed", ""},
		{"rule through a glob", append([]string{"gate", "--fail-on", "atomic-*"}, src...), ExitOK, "gate passed", ""},
		{"named rule without its counters, suppressed", append([]string{"gate", "--fail-on", "atomic-serialization", "--config",
			cfg("supatomic.toml", "[[suppress]]\nrule = \"atomic-serialization\"\nreason = \"no atomics in this code\"\n")}, src...), ExitOK,
			"(suppressed: no atomics in this code)", ""},
		{"bad min-share", append([]string{"gate", "--min-share", "150%"}, src...), ExitError, "", "between 0 and 100%"},
		{"bad config min_share", append([]string{"gate", "--config", cfg("ms.toml", "min_share = \"-1%\"\n")}, src...), ExitError, "", "min_share"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(errOut, tt.err) {
				t.Errorf("exit %d, want %d; stdout want %q:\n%s\nstderr want %q:\n%s", code, tt.code, tt.out, out, tt.err, errOut)
			}
		})
	}

	// The FP32 PyTorch step: per launch, the linter once failed 64 checks,
	// 42 of them small-grid. Now a warning fails once per kernel group, and
	// only on groups of at least --min-share of the capture (analyze's
	// groups say which); the others are listed and say why they pass.
	out, _, _ := run(t, "analyze", "--format", "json", pytorchStep)
	var doc struct {
		Groups []struct {
			Share    float64 `json:"time_share"`
			Findings []struct{ Rule, Severity string }
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	expect := func(minShare float64) (fails, smallGrid int) {
		for _, g := range doc.Groups {
			for _, f := range g.Findings {
				if g.Share >= minShare && (f.Severity == "warning" || f.Severity == "error") {
					fails++
					if f.Rule == "small-grid" {
						smallGrid++
					}
				}
			}
		}
		return fails, smallGrid
	}
	for _, tt := range []struct {
		name     string
		args     []string
		minShare float64
	}{
		{"default", []string{"-v"}, 0.005},
		{"min-share 0", []string{"--min-share", "0"}, 0},
		{"config min_share 0", []string{"--config", cfg("ms0.toml", "min_share = 0\n")}, 0},
		{"flag over config", []string{"--config", cfg("ms0b.toml", "min_share = 0\n"), "--min-share", "0.5%"}, 0.005},
		{"min-share 10%", []string{"--min-share", "10%"}, 0.1},
	} {
		t.Run("pytorch "+tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"gate", pytorchStep}, tt.args...)...)
			n := gateFails(out)
			fails, smallGrid := expect(tt.minShare)
			if code != ExitFailed || n["finding"] != fails || n["small-grid"] != smallGrid || fails == 0 {
				t.Errorf("exit %d, %d findings failed (%d small-grid), want 1, %d (%d)\n%s", code, n["finding"], n["small-grid"], fails, smallGrid, errOut)
			}
			if all, _ := expect(0); tt.minShare > 0 && all == fails {
				t.Errorf("--min-share %g gates as many findings as 0", tt.minShare)
			}
			if tt.name == "default" && !strings.Contains(out, "under --min-share 0.5%") {
				t.Errorf("the findings under --min-share do not say why they pass:\n%s", out)
			}
		})
	}
}

// TestChecksExclusionFirst: --checks -small-grid is every rule but
// small-grid; it once turned every rule off without a word.
func TestChecksExclusionFirst(t *testing.T) {
	t.Parallel()
	all, _, _ := run(t, "analyze", "--format", "json", pytorchStep)
	less, errOut, code := run(t, "analyze", "--format", "json", "--checks", "-small-grid", pytorchStep)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	a, err := ruleCounts(all)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ruleCounts(less)
	if err != nil {
		t.Fatal(err)
	}
	if a["small-grid"] == 0 || b["small-grid"] != 0 || len(b) != len(a)-1 {
		t.Errorf("--checks -small-grid: rules %v, all: %v", b, a)
	}
}

// TestGateLongTrace: a trace of 600,000 launches (the public matrixMul
// gpu-trace tiled) is gated per kernel group: a JUnit file of one test
// case per condition and group, far under 1 MB, and a heap far under 100
// MB (it was 145-325 MB of JUnit and about 2 GB per launch).
// TestGateNothingChecked: a gate over runs with no kernel launch (an nsys
// cuda_api_sum alone, stored or given) that makes no check stops with
// exit 2, where it once passed "0 of 0 checks" with exit 0.
func TestGateNothingChecked(t *testing.T) {
	t.Parallel()
	const sum = "../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv"
	db := filepath.Join(t.TempDir(), "g.db")
	if _, errOut, code := run(t, "ingest", "--db", db, sum); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	for _, args := range [][]string{
		{"gate", "--require", "duration < 1s", sum},
		{"gate", "--fail-on", "all", sum},
		{"gate", sum},
		{"gate", "--db", db, "--run", "1", "--require", "duration < 1s"},
		{"gate", "--db", db, "--run", "1", "-f", "junit"},
	} {
		out, errOut, code := run(t, args...)
		if code != ExitError || !strings.Contains(errOut, "no kernel launch to gate, so nothing would be checked") {
			t.Errorf("%q: exit %d, %q; want exit 2 and why", args, code, errOut)
		}
		if out != "" {
			t.Errorf("%q: a report of no check: %q", args, out)
		}
	}
}

func TestGateLongTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 97 MB trace")
	}
	// The peak heap is measured in a test process of its own: in this one,
	// what earlier tests keep alive raises the collector's target, and the
	// garbage it lets pile up above it is not the gate's.
	if os.Getenv(longTraceChild) != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGateLongTrace$", "-test.v")
		cmd.Env = append(os.Environ(), longTraceChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestGateLongTrace") {
			t.Fatalf("the measuring process: %v\n%s", err, out)
		}
		t.Log(strings.TrimSpace(string(out)))
		return
	}
	in := filepath.Join(t.TempDir(), "trace.csv")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	_, n, err := tile.Trace(f, "../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", 600000, true)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := peakHeap(t)
	out, errOut, code := run(t, "gate", "--format", "junit", "--require", "duration < 1ms", "--fail-on", "all", "--min-share", "0", in)
	heap := peak() - base.HeapAlloc
	if code != ExitFailed && code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if len(out) > 10_000 || strings.Count(out, "<testcase ") > 10 {
		t.Errorf("%d launches: %d bytes of JUnit in %d test cases, want a few per kernel group", n, len(out), strings.Count(out, "<testcase "))
	}
	if !strings.Contains(out, "median 76.48 us over 600194 launches") {
		t.Errorf("the duration check does not state the group's median:\n%s", out)
	}
	if heap > 100<<20 {
		t.Errorf("%d launches: peak heap %d MB over the test's, want under 100 MB", n, heap>>20)
	}
	t.Logf("%d launches: %d bytes of JUnit, peak heap %.1f MB", n, len(out), float64(heap)/(1<<20))
}

// longTraceChild makes the test binary the process TestGateLongTrace
// measures.
const longTraceChild = "PROFAN_LONG_TRACE_CHILD"

// peakHeap samples the heap until the returned function is called, which
// gives the largest HeapAlloc seen.
func peakHeap(t *testing.T) func() uint64 {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapAlloc)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
