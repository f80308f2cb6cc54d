package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/store/storetest"
)

// prevRelease is a run database the previous release wrote (its README
// says how); prevRuns are the exports it stored, as runs 1 to 4.
const prevRelease = "testdata/prev-release.sql"

var prevRuns = []string{
	"../../fixtures/ncu/transpose.metrics.details.csv",
	"../../fixtures/ncu/misc.metrics.details.csv",
	"../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv",
	"../ingest/testdata/nvprof/ieee2017-k20c-jacobi-unroll.csv",
}

const remadeNote = "verdict made by an older profan (v1); re-made with the current rules; `profan migrate` stores it"

// gateFindings runs gate --fail-on all on args and returns its failing
// findings, "kernel rule" sorted, its exit status and its stderr.
func gateFindings(t *testing.T, args ...string) ([]string, ExitCode, string) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"gate", "--fail-on", "all", "--min-share", "0", "--format", "json"}, args...)...)
	if code == ExitError {
		t.Fatalf("gate %v: exit %d: %s", args, code, errOut)
	}
	var g struct {
		Checks []struct{ Kernel, Kind, Name, Status string } `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatalf("gate %v: %v", args, err)
	}
	var fs []string
	for _, c := range g.Checks {
		if (c.Kind == "finding" || c.Kind == "run-finding") && c.Status == "fail" {
			k := c.Kernel
			if c.Kind == "run-finding" {
				k = "run" // a run-level finding names its export, which differs
			}
			fs = append(fs, k+" "+c.Name)
		}
	}
	sort.Strings(fs)
	return fs, code, errOut
}

var htmlRule = regexp.MustCompile(`<code class="rule">([a-z0-9-]+)`)

// reportRules runs report --db on run id and returns the rules its HTML
// shows (each once), and its stderr.
func reportRules(t *testing.T, db string, id int) ([]string, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.html")
	_, errOut, code := run(t, "report", "--db", db, "--run", fmt.Sprint(id), "--html", out)
	if code != ExitOK {
		t.Fatalf("report --db --run %d: exit %d: %s", id, code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range htmlRule.FindAllStringSubmatch(string(b), -1) {
		seen[m[1]] = true
	}
	return keys(seen), errOut
}

// checkStored holds, for each stored run, that gate --run and report --db
// state the same findings, the ones gate states on the export analysed
// now, with the same exit status; and that the re-made note is said once
// per command exactly when remade.
func checkStored(t *testing.T, db string, remade bool) {
	t.Helper()
	for i, file := range prevRuns {
		id := i + 1
		t.Run(fmt.Sprintf("run %d", id), func(t *testing.T) {
			stored, code, errOut := gateFindings(t, "--db", db, "--run", fmt.Sprint(id))
			fresh, freshCode, _ := gateFindings(t, file)
			if strings.Join(stored, "\n") != strings.Join(fresh, "\n") || code != freshCode {
				t.Errorf("gate --run %d fails on\n%s\n(exit %d); gate on %s fails on\n%s\n(exit %d)", id,
					strings.Join(stored, "\n"), code, file, strings.Join(fresh, "\n"), freshCode)
			}
			want := 0
			if remade {
				want = 1
			}
			note := fmt.Sprintf("run %d: %s", id, remadeNote)
			if n := strings.Count(errOut, note); n != want {
				t.Errorf("gate --run %d says %q %d times, want %d:\n%s", id, note, n, want, errOut)
			}
			shown, repErr := reportRules(t, db, id)
			if n := strings.Count(repErr, note); n != want {
				t.Errorf("report --db --run %d says %q %d times, want %d:\n%s", id, note, n, want, repErr)
			}
			// The HTML shows the gate's findings' rules, the kernels'
			// and the run's (host transfers), each once.
			rules := map[string]bool{}
			for _, f := range stored {
				rules[f[strings.LastIndex(f, " ")+1:]] = true
			}
			if got, want := strings.Join(shown, " "), strings.Join(keys(rules), " "); got != want {
				t.Errorf("report --db --run %d shows the rules %q, gate --run fails on %q", id, got, want)
			}
		})
	}
}

// TestPreviousReleaseDatabase holds that report --db and gate --run agree
// on a database the previous release wrote: once an ingest of this build
// has migrated its schema, its runs' verdicts, made by the older maker,
// are re-made on read (and said so, nothing written), and agree with the
// exports analysed now; profan migrate then stores them, and the note goes.
func TestPreviousReleaseDatabase(t *testing.T) {
	skipShort(t)
	t.Parallel()
	db := storetest.Load(t, prevRelease)
	// Read commands never migrate the schema: an ingest does.
	if _, errOut, code := run(t, "gate", "--db", db, "--run", "1"); code != ExitError || !strings.Contains(errOut, "profan migrate") {
		t.Fatalf("gate on the previous release's schema: exit %d, want 2 and profan migrate: %s", code, errOut)
	}
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"saxpy.details.csv"); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	before := fileSum(t, db)
	checkStored(t, db, true)
	// trend reads the stored metrics as they are, and says whose are old.
	if _, errOut, code := run(t, "trend", "--db", db, "--kernel", "transpose", "--metric", "duration"); code != ExitOK || !strings.Contains(errOut, "runs 1: metrics made by an older profan, shown as stored") {
		t.Errorf("trend on older verdicts: exit %d: %s", code, errOut)
	}
	if fileSum(t, db) != before {
		t.Errorf("read commands wrote to the database")
	}
	out, errOut, code := run(t, "migrate", "--db", db)
	if code != ExitOK || !strings.Contains(out, "4 runs re-made with the current rules") || !strings.Contains(out, "run 3: verdict made by an older profan (v1) re-made and stored") {
		t.Fatalf("migrate: exit %d:\n%s%s", code, out, errOut)
	}
	checkStored(t, db, false)
	if _, errOut, _ := run(t, "trend", "--db", db, "--kernel", "transpose", "--metric", "duration"); strings.Contains(errOut, "older profan") {
		t.Errorf("trend after migrate: %s", errOut)
	}
	if out, _, _ := run(t, "migrate", "--db", db); !strings.Contains(out, "0 runs re-made") {
		t.Errorf("migrate again:\n%s", out)
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// TestCurrentDatabase is TestPreviousReleaseDatabase on a database this
// build wrote: the verdicts are read as stored, with no note.
func TestCurrentDatabase(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "runs.db")
	for _, f := range prevRuns {
		if _, errOut, code := run(t, "ingest", "--db", db, f); code != ExitOK {
			t.Fatalf("ingest %s: exit %d: %s", f, code, errOut)
		}
	}
	checkStored(t, db, false)
}
