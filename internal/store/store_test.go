package store

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
)

var dump = flag.Bool("dump", false, "keep test databases and print their paths")

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helperMain(mode))
	}
	flag.Parse()
	code := m.Run()
	cleanupBench()
	os.Exit(code)
}

// testNow is the creation time of every run written by tests.
var testNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// mustOpen opens a new database: a file in a temporary directory, or under
// TestPostgres a new schema of the $PROFAN_TEST_PG database (see testDSN).
func mustOpen(t testing.TB) (*DB, string) {
	t.Helper()
	path := testDSN(t, "profan.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Now = func() time.Time { return testNow }
	t.Cleanup(func() { db.Close() })
	return db, path
}

// testDSN returns what Open takes for a new, empty database of the test's
// backend: under TestPostgres a PostgreSQL URL (pgTestDSN), else the path
// of a file called name in a temporary directory.
func testDSN(t testing.TB, name string) string {
	t.Helper()
	if onPostgres(t) {
		return pgTestDSN(t)
	}
	dir := t.TempDir()
	if *dump {
		var err error
		if dir, err = os.MkdirTemp("", "profan-store-test-"); err != nil {
			t.Fatal(err)
		}
		t.Logf("database kept in %s", dir)
	}
	return filepath.Join(dir, name)
}

// counts returns the row count of every table.
func counts(t testing.TB, db *DB) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"runs", "run_labels", "kernel_names", "kernels", "metric_names", "kernel_values", "findings", "launch_series", "schema_migrations"} {
		var n int
		if err := db.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestMigrationsFromEmpty(t *testing.T) {
	db, path := mustOpen(t)
	if db.d == pgDialect {
		golden.Check(t, "testdata/schema_pg.golden", pgSchema(t, db))
	} else {
		golden.Check(t, "testdata/schema.golden", sqliteSchema(t, db))
	}

	ms, err := db.d.migrations()
	if err != nil {
		t.Fatal(err)
	}
	applied, err := db.appliedMigrations(context.Background(), db.db)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !applied[m.version] {
			t.Errorf("migration %s not recorded", m.name)
		}
	}
	if len(applied) != len(ms) {
		t.Errorf("got %d recorded migrations, want %d", len(applied), len(ms))
	}

	// Opening again applies nothing.
	before := counts(t, db)
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if after := counts(t, db2); !sameCounts(before, after) {
		t.Errorf("reopening changed the database: %v -> %v", before, after)
	}

	if db.d != sqliteDialect {
		return
	}
	var mode string
	if err := db.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var fk int
	if err := db.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", fk, err)
	}
}

// sqliteSchema dumps sqlite_master.
func sqliteSchema(t *testing.T, db *DB) []byte {
	t.Helper()
	rows, err := db.db.Query(`SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for rows.Next() {
		var typ, name, tbl, sql string
		if err := rows.Scan(&typ, &name, &tbl, &sql); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- %s %s on %s\n%s;\n\n", typ, name, tbl, sql)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return []byte(b.String())
}

func TestNewerSchema(t *testing.T) {
	db, path := mustOpen(t)
	if _, err := db.db.Exec(`INSERT INTO schema_migrations (version, name, applied) VALUES (9999, '9999_future', '')`); err != nil {
		t.Fatal(err)
	}
	_, err := Open(path)
	if err == nil || !strings.Contains(err.Error(), "schema version 9999, newer than this profan knows") {
		t.Errorf("Open of a newer database: got %v", err)
	}
}

func TestMigrationNames(t *testing.T) {
	var names [2][]string
	for i, d := range []*dialect{sqliteDialect, pgDialect} {
		ms, err := d.migrations()
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range ms {
			if m.version != i+1 {
				t.Errorf("%s migration %s: got version %d, want %d (numbered from 1 without gaps)", d.name, m.name, m.version, i+1)
			}
		}
		for _, m := range ms {
			names[i] = append(names[i], m.name)
		}
	}
	// Both backends have the same migrations, by number and name.
	if fmt.Sprint(names[0]) != fmt.Sprint(names[1]) {
		t.Errorf("migrations differ between backends:\nsqlite   %v\npostgres %v", names[0], names[1])
	}
}

func TestOpenOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a?b#c%20d.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not created at %s: %v", path, err)
	}
}

// testKernels returns three kernels with every kind of field set.
func testKernels() []KernelRecord {
	nan := math.NaN()
	k1 := profan.NewKernel()
	k1.ID = "1"
	k1.Name = "_Z6stencilPfS_i"
	k1.Demangled = "stencil(float*, float*, int)"
	k1.Device = "NVIDIA A100-SXM4-40GB"
	k1.DeviceIndex = 0
	k1.CC = "8.0"
	k1.Process = "1234"
	k1.Stream = "7"
	k1.Grid = profan.Dim3{1024, 1, 1}
	k1.Block = profan.Dim3{256, 1, 1}
	k1.Start = 0.5
	k1.Duration = 1.5e-5
	k1.Registers = 32
	k1.StaticSMem = 4096
	k1.Metrics = []profan.Metric{
		{Name: "dram__bytes_read.sum", Section: "Memory Workload Analysis", Value: 1 << 20, Unit: "B", Min: nan, Max: nan, Raw: "1.00", RawUnit: "Mbyte"},
		{Name: "launch__cache_config", Section: "Launch Statistics", Value: nan, Min: nan, Max: nan, Text: "CachePreferNone", Raw: "CachePreferNone"},
		{Name: "smsp__sass_inst_executed_op_global_ld.sum", Value: 42, Unit: "inst", Min: 40, Max: 44, Raw: "42"},
		{Name: "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", Value: nan, Min: nan, Max: nan, Raw: "n/a"},
		{Name: "sm__warps_active.avg.pct_of_peak_sustained_active", Value: 12.5, Unit: "%", Min: nan, Max: nan,
			Samples: []float64{32, 32, 4, nan, 0}, Raw: "32.00; 32.00; 4.00; n/a; 0"},
		{Name: strings.Repeat("very_long_metric_name.", 20), Value: math.Copysign(0, -1), Min: nan, Max: nan, Raw: strings.Repeat("x", 300)},
	}
	k1.Findings = []profan.ToolFinding{
		{Section: "SOL", Rule: "SOLBottleneck", Type: "OPT", Description: "Memory is more heavily utilized than Compute.", SpeedupType: "local", Speedup: 12},
		{Section: "Occupancy", Rule: "AchievedOccupancy", Type: "INF", Description: "…", Speedup: nan},
	}
	k1.Source = []profan.SourceRecord{
		{File: "stencil.cu", Line: 12, Address: "0x7f2e3a000070", SASS: "LDG.E R2, [R2.64]", Source: "a[i] = b[i];",
			Counter: []profan.Metric{{Name: "memory_l2_theoretical_sectors_global", Value: 8, Min: nan, Max: nan}}},
		{Address: "0x7f2e3a000080", SASS: "EXIT"},
	}

	k2 := profan.NewKernel()
	k2.ID = "2"
	k2.Name = "reduce"
	k2.Invocations = 10
	k2.Metrics = []profan.Metric{profan.NewMetric("empty")}

	k3 := profan.NewKernel()
	k3.ID = "3"
	k3.Name = "_Z6stencilPfS_i"
	k3.Demangled = "stencil(float*, float*, int)"
	k3.Duration = 2e-5

	return []KernelRecord{
		{Kernel: k1,
			Canonical: []NamedValue{{"duration", 1.5e-5}, {"gld_efficiency", 25}, {"dram_read_bytes", 1 << 20}, {"l2_hit_rate", nan}},
			Findings: []profan.Finding{
				{Rule: "uncoalesced-global", Severity: profan.Warning, Kernel: "1", Message: "gld_efficiency=25%", Advice: "coalesce",
					Gain: 0.25, Evidence: []string{"gld_efficiency=25"}, Locations: []profan.Location{{File: "stencil.cu", Line: 12, SASS: "LDG.E"}}},
				{Rule: "low-occupancy", Severity: profan.Info, Kernel: "1", Gain: nan},
			}},
		{Kernel: k2, Canonical: []NamedValue{{"duration", nan}}},
		{Kernel: k3, Canonical: []NamedValue{{"duration", 2e-5}, {"gld_efficiency", 100}}},
	}
}

func testInfo(digest string, labels map[string]string) RunInfo {
	return RunInfo{Digest: digest, Source: "runs/" + digest + ".csv", Tool: profan.ToolNCU, Format: "ncu-details",
		ToolVersion: "2024.1", Device: "NVIDIA A100-SXM4-40GB", Labels: labels, Size: 1234, Verdict: 7}
}

// ingest writes a run of recs.
func ingest(t testing.TB, db *DB, info RunInfo, recs []KernelRecord) int64 {
	t.Helper()
	w, err := db.BeginRun(context.Background(), info)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	for _, r := range recs {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	id, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// dumpKernel renders every field of k, NaN included; k must have been
// built without AddMetric (whose index would differ).
func dumpKernel(k *profan.Kernel) string { return fmt.Sprintf("%#v", *k) }

func TestRoundTrip(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	recs := testKernels()
	labels := map[string]string{"commit": "abc123", "branch": "main"}
	id := ingest(t, db, testInfo("sha256:aa", labels), recs)

	run, err := db.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := RunRecord{ID: id, Digest: "sha256:aa", Source: "runs/sha256:aa.csv", Tool: "ncu", Format: "ncu-details",
		ToolVersion: "2024.1", Device: "NVIDIA A100-SXM4-40GB", Size: 1234, Labels: labels, Created: testNow, Kernels: 3, Names: 2, Verdict: 7}
	if fmt.Sprint(run) != fmt.Sprint(want) {
		t.Errorf("Run(%d):\ngot  %+v\nwant %+v", id, run, want)
	}

	got, err := db.Kernels(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("got %d kernels, want %d", len(got), len(recs))
	}
	for i, r := range recs {
		g := got[i]
		if a, b := dumpKernel(g.Kernel), dumpKernel(r.Kernel); a != b {
			t.Errorf("kernel %d:\ngot  %s\nwant %s", i, a, b)
		}
		wantCanon := map[string]float64{}
		for _, v := range r.Canonical {
			if !math.IsNaN(v.Value) {
				wantCanon[v.Name] = v.Value
			}
		}
		if fmt.Sprint(g.Canonical) != fmt.Sprint(wantCanon) {
			t.Errorf("kernel %d canonical: got %v, want %v", i, g.Canonical, wantCanon)
		}
		if a, b := fmt.Sprintf("%#v", g.Findings), fmt.Sprintf("%#v", r.Findings); a != b {
			t.Errorf("kernel %d findings:\ngot  %s\nwant %s", i, a, b)
		}
	}
	// -0 survives (the blob stores float bits).
	if v := got[0].Kernel.Metrics[5].Value; !math.Signbit(v) {
		t.Errorf("negative zero lost: %v", v)
	}

	if _, err := db.Run(ctx, id+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Run(missing): got %v, want ErrNotFound", err)
	}
	if _, err := db.Kernels(ctx, id+1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Kernels(missing): got %v, want ErrNotFound", err)
	}
}

func TestDuplicate(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	id := ingest(t, db, testInfo("sha256:aa", nil), testKernels())
	before := counts(t, db)

	_, err := db.BeginRun(ctx, testInfo("sha256:aa", map[string]string{"other": "label"}))
	var dup *DuplicateError
	if !errors.As(err, &dup) || dup.ID != id {
		t.Fatalf("second BeginRun: got %v, want DuplicateError{ID: %d}", err, id)
	}
	if after := counts(t, db); !sameCounts(before, after) {
		t.Errorf("duplicate changed the database: %v -> %v", before, after)
	}
}

// TestDuplicateRace makes the UNIQUE constraint decide: the second writer
// passes the pre-check while the first holds the write lock uncommitted,
// then waits at BEGIN IMMEDIATE (on PostgreSQL, at the insert of the digest)
// and fails on insert.
func TestDuplicateRace(t *testing.T) {
	db, path := mustOpen(t)
	db2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	ctx := context.Background()
	w, err := db.BeginRun(ctx, testInfo("sha256:race", nil))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		w2, err := db2.BeginRun(ctx, testInfo("sha256:race", nil))
		if err == nil {
			w2.Rollback()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the second writer block on the lock
	for _, r := range testKernels() {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	id, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	err = <-done
	var dup *DuplicateError
	if !errors.As(err, &dup) || dup.ID != id {
		t.Fatalf("racing BeginRun: got %v, want DuplicateError{ID: %d}", err, id)
	}
	if n := counts(t, db)["runs"]; n != 1 {
		t.Errorf("got %d runs, want 1", n)
	}
}

func TestRollback(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	before := counts(t, db)
	w, err := db.BeginRun(ctx, testInfo("sha256:aa", map[string]string{"a": "b"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testKernels() {
		if err := w.AddKernel(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := w.Rollback(); err != nil {
		t.Errorf("second Rollback: %v", err)
	}
	if _, err := w.Commit(); err == nil {
		t.Error("Commit after Rollback succeeded")
	}
	if after := counts(t, db); !sameCounts(before, after) {
		t.Errorf("rolled-back run left rows: %v -> %v", before, after)
	}
	// The digest is free again.
	ingest(t, db, testInfo("sha256:aa", nil), testKernels())
}

// TestStatementError checks that a statement failing on the writer's
// pipe (store/pipe.go), after AddKernel handed its rows over, still fails
// the run: a later AddKernel or Commit reports it, and nothing is stored.
func TestStatementError(t *testing.T) {
	db, _ := mustOpen(t)
	before := counts(t, db)
	ctx, cancel := context.WithCancel(context.Background())
	w, err := db.BeginRun(ctx, testInfo("sha256:aa", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Rollback()
	recs := testKernels()
	if err := w.AddKernel(recs[0]); err != nil {
		t.Fatal(err)
	}
	cancel()
	var failed error
	for i := 0; i < 100 && failed == nil; i++ {
		failed = w.AddKernel(recs[1+i%(len(recs)-1)])
	}
	if _, err := w.Commit(); err == nil {
		t.Fatal("Commit succeeded after its context was canceled")
	} else if failed != nil && !strings.Contains(err.Error(), "add kernel") {
		t.Errorf("Commit: %v, want the failed kernel's error", err)
	}
	if after := counts(t, db); !sameCounts(before, after) {
		t.Errorf("a failed run left rows: %v -> %v", before, after)
	}
	ingest(t, db, testInfo("sha256:aa", nil), testKernels())
}

// TestDigestLater checks a run begun before its digest is known (ingest
// hashes the export beside its parse): the digest given at the end is
// stored, one stored already makes Commit a *DuplicateError holding that
// run's ID, and a run never given one is not committed.
func TestDigestLater(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	later := func(digest string) (int64, error) {
		info := testInfo("", nil)
		info.DigestLater = true
		w, err := db.BeginRun(ctx, info)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Rollback()
		for _, r := range testKernels() {
			if err := w.AddKernel(r); err != nil {
				t.Fatal(err)
			}
		}
		if digest != "" {
			if err := w.SetDigest(digest); err != nil {
				t.Fatal(err)
			}
		}
		return w.Commit()
	}
	id, err := later("sha256:aa")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := db.DigestID(ctx, "sha256:aa"); err != nil || got != id {
		t.Errorf("DigestID: got %d, %v; want %d", got, err, id)
	}
	before := counts(t, db)
	_, err = later("sha256:aa")
	var dup *DuplicateError
	if !errors.As(err, &dup) || dup.ID != id {
		t.Errorf("the same digest again: got %v, want a *DuplicateError for run %d", err, id)
	}
	if _, err := later(""); err == nil {
		t.Error("a run without its digest was committed")
	}
	if after := counts(t, db); !sameCounts(before, after) {
		t.Errorf("runs that were not committed left rows: %v -> %v", before, after)
	}
	runs, err := db.Runs(ctx, RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if strings.HasPrefix(r.Digest, pendingDigest) {
			t.Errorf("run %d kept its placeholder digest %s", r.ID, r.Digest)
		}
	}
}

func TestBadInput(t *testing.T) {
	nk := func(name string) *profan.Kernel { k := profan.NewKernel(); k.Name = name; return k }
	tests := []struct {
		name string
		info RunInfo
		rec  KernelRecord
		want string
	}{
		{"empty digest", RunInfo{Tool: "ncu"}, KernelRecord{}, "begin run: empty digest"},
		{"empty label key", RunInfo{Digest: "d", Labels: map[string]string{"": "x"}}, KernelRecord{}, "begin run: empty label key"},
		{"nil kernel", testInfo("d", nil), KernelRecord{}, "add kernel 1: nil kernel"},
		{"no name", testInfo("d", nil), KernelRecord{Kernel: nk("")}, "add kernel 1: kernel has no name"},
		{"unnamed canonical", testInfo("d", nil), KernelRecord{Kernel: nk("k"), Canonical: []NamedValue{{"", 1}}}, "add kernel 1: canonical metric without a name"},
		{"canonical twice", testInfo("d", nil), KernelRecord{Kernel: nk("k"), Canonical: []NamedValue{{"a", 1}, {"a", 2}}}, "add kernel 1: canonical metric a given twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, path := mustOpen(t)
			ctx := context.Background()
			before := counts(t, db)
			err := func() error {
				w, err := db.BeginRun(ctx, tt.info)
				if err != nil {
					return err
				}
				defer w.Rollback()
				if err := w.AddKernel(testKernels()[0]); err != nil {
					t.Fatal(err)
				}
				if err := w.AddKernel(tt.rec); err != nil {
					if err2 := w.AddKernel(testKernels()[1]); err2 == nil {
						t.Error("AddKernel after an error succeeded")
					}
					if _, err2 := w.Commit(); err2 == nil {
						t.Error("Commit after an error succeeded")
					}
					return err
				}
				_, err = w.Commit()
				return err
			}()
			// A write's error names the database, then what failed.
			if err == nil || !strings.HasSuffix(err.Error(), tt.want) || (strings.Contains(tt.want, "add kernel") && !strings.HasPrefix(err.Error(), "database "+Display(path))) {
				t.Errorf("got error %v, want %q", err, tt.want)
			}
			if after := counts(t, db); !sameCounts(before, after) {
				t.Errorf("bad input changed the database: %v -> %v", before, after)
			}
		})
	}
}

func TestRuns(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	for i, l := range []map[string]string{
		{"branch": "main", "gpu": "a100"},
		{"branch": "dev", "gpu": "a100"},
		{"branch": "main", "gpu": "h100"},
		nil,
		{"branch": "main", "gpu": "a100"},
	} {
		ingest(t, db, testInfo(fmt.Sprintf("sha256:%d", i), l), testKernels()[:1])
	}
	tests := []struct {
		f    RunFilter
		want string
	}{
		{RunFilter{}, "[1 2 3 4 5]"},
		{RunFilter{Limit: 2}, "[4 5]"},
		{RunFilter{Labels: map[string]string{"branch": "main"}}, "[1 3 5]"},
		{RunFilter{Labels: map[string]string{"branch": "main", "gpu": "a100"}}, "[1 5]"},
		{RunFilter{Labels: map[string]string{"branch": "main", "gpu": "a100"}, Limit: 1}, "[5]"},
		{RunFilter{Labels: map[string]string{"branch": "none"}}, "[]"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			runs, err := db.Runs(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, r := range runs {
				ids = append(ids, r.ID)
				if r.Labels == nil || r.Kernels != 1 || !r.Created.Equal(testNow) {
					t.Errorf("run %d: labels %v, kernels %d, created %v", r.ID, r.Labels, r.Kernels, r.Created)
				}
			}
			if got := fmt.Sprint(ids); got != tt.want && !(got == "[]" && tt.want == "[]") {
				t.Errorf("Runs(%+v): got %s, want %s", tt.f, got, tt.want)
			}
		})
	}
	runs, _ := db.Runs(ctx, RunFilter{})
	if got := fmt.Sprint(runs[1].Labels); got != "map[branch:dev gpu:a100]" {
		t.Errorf("labels of run 2: got %s", got)
	}
}

func TestLatestRun(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	if _, err := db.LatestRun(ctx, nil, 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("empty database: got %v, want ErrNotFound", err)
	}
	for i, l := range []map[string]string{
		{"branch": "main", "commit": "a"},
		{"branch": "dev"},
		{"branch": "main", "commit": "b"},
		{"branch": "dev"},
	} {
		ingest(t, db, testInfo(fmt.Sprintf("sha256:latest%d", i), l), testKernels()[:1])
	}
	for _, tt := range []struct {
		labels map[string]string
		before int64
		want   int64
	}{
		{nil, 0, 4},
		{nil, 4, 3},
		{map[string]string{"branch": "main"}, 0, 3},
		{map[string]string{"branch": "main"}, 3, 1},
		{map[string]string{"branch": "main", "commit": "a"}, 0, 1},
		{map[string]string{"branch": "main"}, 1, 0},
		{map[string]string{"branch": "none"}, 0, 0},
	} {
		t.Run(fmt.Sprint(tt.labels), func(t *testing.T) {
			r, err := db.LatestRun(ctx, tt.labels, tt.before)
			switch {
			case tt.want == 0 && !errors.Is(err, ErrNotFound):
				t.Errorf("LatestRun(%v, %d): got %v, %v; want ErrNotFound", tt.labels, tt.before, r.ID, err)
			case tt.want != 0 && (err != nil || r.ID != tt.want):
				t.Errorf("LatestRun(%v, %d): got %d, %v; want %d", tt.labels, tt.before, r.ID, err, tt.want)
			}
		})
	}
}

func TestTrend(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	for i := range 4 {
		recs := testKernels()
		recs[0].Canonical[0].Value = float64(i + 1)              // duration of stencil launch 1
		recs[2].Canonical[0].Value = float64(10 + i)             // duration of stencil launch 3
		recs[0].Kernel.Metrics[2].Value = float64(100 * (i + 1)) // raw inst count
		branch := "main"
		if i == 2 {
			branch = "dev"
		}
		ingest(t, db, testInfo(fmt.Sprintf("sha256:%d", i), map[string]string{"branch": branch}), recs)
	}
	type pt struct {
		Run    int64
		Kernel string
		Launch string
		Value  float64
		Branch string
	}
	tests := []struct {
		name string
		q    TrendQuery
		want []pt
	}{
		{"canonical by demangled name", TrendQuery{Kernel: regexp.MustCompile(`^stencil\(`), Metric: "duration"}, []pt{
			{1, "stencil(float*, float*, int)", "1", 1, "main"}, {1, "stencil(float*, float*, int)", "3", 10, "main"},
			{2, "stencil(float*, float*, int)", "1", 2, "main"}, {2, "stencil(float*, float*, int)", "3", 11, "main"},
			{3, "stencil(float*, float*, int)", "1", 3, "dev"}, {3, "stencil(float*, float*, int)", "3", 12, "dev"},
			{4, "stencil(float*, float*, int)", "1", 4, "main"}, {4, "stencil(float*, float*, int)", "3", 13, "main"},
		}},
		{"label filter, mangled name", TrendQuery{Kernel: regexp.MustCompile(`_Z6sten`), Metric: "gld_efficiency", Labels: map[string]string{"branch": "dev"}}, []pt{
			{3, "stencil(float*, float*, int)", "1", 25, "dev"}, {3, "stencil(float*, float*, int)", "3", 100, "dev"},
		}},
		{"NaN gives no point", TrendQuery{Kernel: regexp.MustCompile(`reduce`), Metric: "duration"}, nil},
		{"all kernels", TrendQuery{Metric: "gld_efficiency", Labels: map[string]string{"branch": "main"}}, []pt{
			{1, "stencil(float*, float*, int)", "1", 25, "main"}, {1, "stencil(float*, float*, int)", "3", 100, "main"},
			{2, "stencil(float*, float*, int)", "1", 25, "main"}, {2, "stencil(float*, float*, int)", "3", 100, "main"},
			{4, "stencil(float*, float*, int)", "1", 25, "main"}, {4, "stencil(float*, float*, int)", "3", 100, "main"},
		}},
		{"raw metric", TrendQuery{Kernel: regexp.MustCompile(`stencil`), Metric: "smsp__sass_inst_executed_op_global_ld.sum"}, []pt{
			{1, "stencil(float*, float*, int)", "1", 100, "main"}, {2, "stencil(float*, float*, int)", "1", 200, "main"},
			{3, "stencil(float*, float*, int)", "1", 300, "dev"}, {4, "stencil(float*, float*, int)", "1", 400, "main"},
		}},
		{"raw text metric gives no point", TrendQuery{Metric: "launch__cache_config"}, nil},
		{"unknown metric", TrendQuery{Metric: "nope"}, nil},
		{"no kernel", TrendQuery{Kernel: regexp.MustCompile(`nope`), Metric: "duration"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts, err := db.Trend(ctx, tt.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []pt
			for _, p := range pts {
				got = append(got, pt{p.Run, p.Kernel, p.Launch, p.Value, p.Labels["branch"]})
				if !p.Created.Equal(testNow) {
					t.Errorf("point created %v, want %v", p.Created, testNow)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// TestQueryPlans pins the plans that keep trend and kernel reads fast on
// large databases: no full scan of kernels or kernel_values.
func TestQueryPlans(t *testing.T) {
	db, _ := mustOpen(t)
	trend, trendArgs := trendSQL(sqliteDialect, true, 1, []int64{1, 2}, map[string]string{"branch": "main"})
	raw, rawArgs := trendSQL(sqliteDialect, false, 0, []int64{1, 2}, nil)
	for _, tt := range []struct {
		name  string
		query string
		args  []any
		want  []string
	}{
		{"trend", trend, trendArgs, []string{"USING COVERING INDEX kernels_name_run", "SEARCH v USING PRIMARY KEY (metric_id=? AND kernel_id=?)"}},
		{"trend raw", raw, rawArgs, []string{"USING INDEX kernels_name_run"}},
		{"kernel values", kernelValuesSQL, []any{1, 2}, []string{"SEARCH v USING PRIMARY KEY (metric_id=? AND kernel_id>? AND kernel_id<?)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := db.db.Query("EXPLAIN QUERY PLAN "+tt.query, tt.args...)
			if err != nil {
				t.Fatal(err)
			}
			var plan []string
			for rows.Next() {
				var id, parent, notused int
				var detail string
				if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
					t.Fatal(err)
				}
				plan = append(plan, detail)
			}
			rows.Close()
			all := strings.Join(plan, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("%s: plan lacks %q:\n%s", tt.name, w, all)
				}
			}
			for _, bad := range []string{"SCAN k\n", "SCAN v", "SCAN kernels", "SCAN kernel_values"} {
				if strings.Contains(all+"\n", bad) {
					t.Errorf("%s: plan has %q:\n%s", tt.name, strings.TrimSpace(bad), all)
				}
			}
		})
	}
}
