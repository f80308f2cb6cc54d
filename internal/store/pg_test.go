package store

// The store tests against PostgreSQL. TestPostgres runs the tests listed in
// pgTests once more, each with databases that are new schemas of the
// database $PROFAN_TEST_PG names (a postgres:// URL; scripts/pg-test-cluster
// starts a throwaway server and prints one). Without it they are skipped.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/store/blob"
)

// pgTestEnv names the environment variable holding the URL of the
// PostgreSQL database the tests may create schemas in.
const pgTestEnv = "PROFAN_TEST_PG"

// pgTests run on PostgreSQL too. Every other Test function must be in
// notOnPostgres, with the reason (TestPostgresCoverage checks).
var pgTests = []struct {
	name string
	f    func(*testing.T)
}{
	{"MigrationsFromEmpty", TestMigrationsFromEmpty},
	{"NewerSchema", TestNewerSchema},
	{"RoundTrip", TestRoundTrip},
	{"RealFindingsRoundTrip", TestRealFindingsRoundTrip},
	{"StatementError", TestStatementError},
	{"DigestLater", TestDigestLater},
	{"Duplicate", TestDuplicate},
	{"DuplicateRace", TestDuplicateRace},
	{"Rollback", TestRollback},
	{"BadInput", TestBadInput},
	{"Runs", TestRuns},
	{"LatestRun", TestLatestRun},
	{"Trend", TestTrend},
	{"LongText", TestLongText},
	{"ConcurrentNewNames", TestConcurrentNewNames},
	{"Crash", TestCrash},
	{"ConcurrentIngest", TestConcurrentIngest},
	{"LaunchSeries", TestLaunchSeries},
	{"SeriesChunks", TestSeriesChunks},
	{"SeriesAgain", TestSeriesAgain},
	{"SummaryRange", TestSummaryRange},
	{"EachKernel", TestEachKernel},
	{"AddLabels", TestAddLabels},
	{"Workload", TestWorkload},
	{"TimelineStripsRoundTrip", TestTimelineStripsRoundTrip},
}

var notOnPostgres = map[string]string{
	"TestInterruptedCreation":      "SQLite only: a half-made SQLite file; the PostgreSQL path is the same code",
	"TestDeferredMigrations":       "SQLite only: the previous release's database is a SQLite dump; migrateIn runs the same code on PostgreSQL",
	"TestRemoveUnpublished":        "SQLite only: OpenFresh makes a SQLite file beside its path",
	"TestFreshPublished":           "SQLite only: OpenFresh makes a SQLite file beside its path",
	"TestCommitThenCheckpoint":     "SQLite only: its write-ahead log's checkpoint",
	"TestHoldCommitsBounded":       "no database",
	"TestMain":                     "not a test",
	"TestIdleCausesHaveColumns":    "no database: it compares the analysis's idle causes with the columns' list",
	"TestPostgres":                 "runs pgTests",
	"TestPostgresCoverage":         "no database",
	"TestMigrationNames":           "no database; checks both backends' migrations",
	"TestOpenOddPath":              "SQLite file names",
	"TestQueryPlans":               "SQLite's planner",
	"TestBlobRoundTrip":            "no database",
	"TestBlobCorrupt":              "no database",
	"TestSegmentsRoundTrip":        "no database",
	"TestPGRebind":                 "no database",
	"TestPGURL":                    "no database",
	"TestFindingTemplate":          "no database",
	"TestFindingTemplatesReal":     "no database",
	"TestSortValues":               "no database",
	"TestBlobVersion1":             "no database",
	"TestReadOnlyWithWAL":          "SQLite's write-ahead log",
	"TestReadCommandsNeverMigrate": "SQLite file; OpenReadOnly's check is the same code on both",
	"TestForeignAndEmptyDatabases": "SQLite files",
	"TestRedact":                   "no database: connects to a closed port",
	"TestRedactMasksFieldsOnly":    "no database: connects to a closed port",
	"TestOpenStopsWithItsContext":  "no database: a socket that never answers",
}

func TestPostgres(t *testing.T) {
	if os.Getenv(pgTestEnv) == "" {
		t.Skipf("$%s is not set: PostgreSQL tests skipped (export %s=$(scripts/pg-test-cluster start) to run them)", pgTestEnv, pgTestEnv)
	}
	for _, tt := range pgTests {
		t.Run(tt.name, tt.f)
	}
}

// onPostgres reports whether t runs on PostgreSQL: a subtest of
// TestPostgres, or a benchmark whose name ends in PG.
func onPostgres(t testing.TB) bool {
	top, _, _ := strings.Cut(t.Name(), "/")
	return top == "TestPostgres" || (strings.HasPrefix(top, "Benchmark") && strings.HasSuffix(top, "PG"))
}

// TestPostgresCoverage makes sure that a new test either runs on both
// backends or says why not.
func TestPostgresCoverage(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tt := range pgTests {
		listed["Test"+tt.name] = true
	}
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
				continue
			}
			name := fd.Name.Name
			if !listed[name] && notOnPostgres[name] == "" {
				t.Errorf("%s: %s is neither in pgTests nor in notOnPostgres", fset.Position(fd.Pos()), name)
			}
		}
	}
}

var pgAdmin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// pgTestDB returns a connection pool to the $PROFAN_TEST_PG database, for
// creating and dropping schemas; it skips t when the variable is not set.
func pgTestDB(t testing.TB) (*sql.DB, string) {
	t.Helper()
	base := os.Getenv(pgTestEnv)
	if base == "" {
		t.Skipf("$%s is not set", pgTestEnv)
	}
	if !IsPostgres(base) {
		t.Fatalf("$%s must be a postgres:// URL", pgTestEnv)
	}
	pgAdmin.once.Do(func() {
		pgAdmin.db, pgAdmin.err = sql.Open("pgx", base)
		if pgAdmin.err == nil {
			pgAdmin.err = pgAdmin.db.Ping()
		}
	})
	if pgAdmin.err != nil {
		t.Fatalf("$%s: %v", pgTestEnv, pgAdmin.err)
	}
	return pgAdmin.db, base
}

// withSearchPath returns the URL base whose connections use schema.
func withSearchPath(t testing.TB, base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

var schemaChars = regexp.MustCompile(`[^a-z0-9]+`)

// pgTestDSN creates an empty schema in the $PROFAN_TEST_PG database and
// returns a URL whose connections work in it, so that each test has a
// database of its own. The schema is dropped after the test, unless -dump
// is given.
func pgTestDSN(t testing.TB) string {
	t.Helper()
	admin, base := pgTestDB(t)
	name := strings.TrimPrefix(strings.ToLower(t.Name()), "testpostgres/")
	name = strings.Trim(schemaChars.ReplaceAllString(name, "_"), "_")
	schema := fmt.Sprintf("profan_test_%.30s_%08x", name, rand.Uint32())
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	dsn := withSearchPath(t, base, schema)
	if *dump {
		t.Logf("database kept in schema %s: %s", schema, dsn)
	} else {
		t.Cleanup(func() {
			if _, err := admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); err != nil {
				t.Errorf("dropping schema %s: %v", schema, err)
			}
		})
	}
	return dsn
}

// pgSchema dumps the tables, constraints and indexes of the schema db
// works in, without the schema's name.
func pgSchema(t *testing.T, db *DB) []byte {
	t.Helper()
	var b strings.Builder
	var schema string
	if err := db.db.QueryRow(`SELECT current_schema()`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	query := func(q string, f func(cols ...string)) {
		t.Helper()
		rows, err := db.db.Query(q, schema)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i := range vals {
				vals[i] = strings.ReplaceAll(vals[i], schema+".", "")
			}
			f(vals...)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	query(`SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod),
	CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END
	|| CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY' WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END
	|| coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')
	|| CASE WHEN a.attstorage <> t.typstorage THEN ' STORAGE ' || CASE a.attstorage
		WHEN 'p' THEN 'PLAIN' WHEN 'e' THEN 'EXTERNAL' WHEN 'm' THEN 'MAIN' ELSE 'EXTENDED' END ELSE '' END
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE n.nspname = $1 AND c.relkind = 'r'
ORDER BY c.relname, a.attnum`, func(v ...string) {
		fmt.Fprintf(&b, "column %s.%s %s%s\n", v[0], v[1], v[2], v[3])
	})
	b.WriteString("\n")
	query(`SELECT c.relname, k.conname, pg_get_constraintdef(k.oid)
FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1
ORDER BY c.relname, k.conname`, func(v ...string) {
		fmt.Fprintf(&b, "constraint %s.%s %s\n", v[0], v[1], v[2])
	})
	b.WriteString("\n")
	query(`SELECT pg_get_indexdef(i.indexrelid)
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1
ORDER BY c.relname`, func(v ...string) {
		fmt.Fprintf(&b, "%s\n", v[0])
	})
	return []byte(b.String())
}

func TestPGRebind(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT id FROM runs WHERE digest = ?`, `SELECT id FROM runs WHERE digest = $1`},
		{`VALUES (?, ?), (?, ?)`, `VALUES ($1, $2), ($3, $4)`},
		{`SELECT '?', "a?b", ? -- why?` + "\n" + `, ?`, `SELECT '?', "a?b", $1 -- why?` + "\n" + `, $2`},
		{`SELECT 'it''s ?', ?`, `SELECT 'it''s ?', $1`},
		{`SELECT '?`, `SELECT '?`},
	} {
		t.Run(tt.in, func(t *testing.T) {
			if got := pgRebind(tt.in); got != tt.want {
				t.Errorf("pgRebind(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// The package's statements have as many $n as ?.
	q, _ := trendSQL(pgDialect, true, 1, []int64{1, 2, 3}, map[string]string{"a": "b"})
	if got := pgRebind(q); strings.Contains(got, "?") || !strings.Contains(got, "$9") || strings.Contains(got, "$10") {
		t.Errorf("rebound trend query: %s", got)
	}
}

func TestPGURL(t *testing.T) {
	for dsn, want := range map[string]bool{
		"postgres://u@h/db":                   true,
		"postgresql://u@/db?host=/tmp":        true,
		"profan.db":                           false,
		"/var/lib/postgres://x":               false,
		"file:postgres.db":                    false,
		"POSTGRES://u@h/db":                   true,
		"PostgreSQL://u@h/db":                 true,
		"host=db user=ci password=x dbname=p": true,
		" dbname = p":                         true,
		"host=db password='a b":               true, // refused by the driver, not a file
		"a=b.db":                              false,
		"/tmp/host=db":                        false,
	} {
		if got := IsPostgres(dsn); got != want {
			t.Errorf("IsPostgres(%q) = %v, want %v", dsn, got, want)
		}
	}
	if got := redactURL("postgres://profan:secret@db.example/profan?sslmode=require"); strings.Contains(got, "secret") {
		t.Errorf("redactURL kept the password: %s", got)
	}
	for _, dsn := range []string{
		"host=db user=ci password=hunter2 dbname=p",
		"host=db user=ci password = 'hunter2 x\\'y' dbname=p",
		"host=db sslpassword=hunter2",
		"POSTGRES://ci:hunter2@db/p?sslpassword=hunter2",
	} {
		if got := Display(dsn); strings.Contains(got, "hunter2") {
			t.Errorf("Display(%q) = %q", dsn, got)
		}
	}
	// A server that is not there, named by a keyword string or an upper
	// case URL: the message shows no password.
	for _, dsn := range []string{
		"host=127.0.0.1 port=1 user=ci password=hunter2 dbname=p connect_timeout=2",
		"host=127.0.0.1 port=1 user=ci password='hunter2 x' dbname=p connect_timeout=2",
		"POSTGRES://ci:hunter2@127.0.0.1:1/p?connect_timeout=2",
		"host=127.0.0.1 password='hunter2",
	} {
		for _, open := range []func(string) (*DB, error){Open, OpenReadOnly} {
			if _, err := open(dsn); err == nil || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("open(%q): %v", dsn, err)
			}
		}
	}
	// Opening a server that is not there fails, and the message shows no
	// password.
	_, err := Open("postgres://profan:secret@127.0.0.1:1/profan?connect_timeout=2")
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "opening postgres://profan:xxxxx@127.0.0.1:1/profan") {
		t.Errorf("Open of an unreachable server: %v", err)
	}
}

// TestLongText stores text longer than a PostgreSQL btree index entry may
// be, where it is indexed: kernel names and label values.
func TestLongText(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	long := strings.Repeat("templated_kernel<cutlass::gemm::", 400) // 12.8 kB
	recs := testKernels()
	recs[0].Kernel.Name = "_Z" + long
	recs[0].Kernel.Demangled = long
	recs[2].Kernel.Name, recs[2].Kernel.Demangled = recs[0].Kernel.Name, recs[0].Kernel.Demangled
	labels := map[string]string{"message": long}
	id := ingest(t, db, testInfo("sha256:long", labels), recs)
	ingest(t, db, testInfo("sha256:long2", labels), recs)
	got, err := db.Kernels(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Kernel.Name != "_Z"+long || got[2].Kernel.Demangled != long {
		t.Errorf("long names not read back")
	}
	if n := counts(t, db)["kernel_names"]; n != 2 {
		t.Errorf("got %d kernel names, want 2", n)
	}
	pts, err := db.Trend(ctx, TrendQuery{Kernel: regexp.MustCompile(`^templated`), Metric: "duration", Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 4 || pts[0].Kernel != long {
		t.Errorf("trend of a long name: got %d points", len(pts))
	}
	runs, err := db.Runs(ctx, RunFilter{Labels: labels})
	if err != nil || len(runs) != 2 {
		t.Errorf("runs by a long label: %d runs, %v", len(runs), err)
	}
}

// TestConcurrentNewNames has two writers add the same new kernel names in
// opposite orders while both are open: each must wait for the other at
// most once (no deadlock), and each name is stored once.
func TestConcurrentNewNames(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	kernel := func(name string) KernelRecord {
		k := profan.NewKernel()
		k.ID, k.Name = name, name
		return KernelRecord{Kernel: k, Canonical: []NamedValue{{"m_" + name, 1}}}
	}
	w1, err := db.BeginRun(ctx, testInfo("sha256:one", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer w1.Rollback()
	if err := w1.AddKernel(kernel("x")); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		// On SQLite this waits in BeginRun; on PostgreSQL in AddKernel,
		// for the dictionary lock.
		w2, err := db.BeginRun(ctx, testInfo("sha256:two", nil))
		if err != nil {
			done <- err
			return
		}
		defer w2.Rollback()
		for _, n := range []string{"y", "x"} {
			if err := w2.AddKernel(kernel(n)); err != nil {
				done <- err
				return
			}
		}
		_, err = w2.Commit()
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the second writer block
	if err := w1.AddKernel(kernel("y")); err != nil {
		t.Fatal(err)
	}
	if _, err := w1.Commit(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("second writer: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("second writer still blocked 20 s after the first committed")
	}
	c := counts(t, db)
	if c["runs"] != 2 || c["kernel_names"] != 2 || c["metric_names"] != 2 || c["kernels"] != 4 {
		t.Errorf("counts: %v", c)
	}
}

// pgBenchEnv names a schema of the $PROFAN_TEST_PG database that
// BenchmarkTrendPG keeps and reuses between runs (built when it does not
// hold the data), to skip the setup while tuning.
const pgBenchEnv = "PROFAN_STORE_BENCH_PG"

const pgBenchRuns = 10000

// BenchmarkTrendPG times BenchmarkTrend's query on PostgreSQL over 10,000
// runs × 50 kernels (10 kernel names, each launched 5 times per run), each
// with 40 canonical values: 50,000 points of 20 million values. The data is
// written with COPY, as the RunWriter of BenchmarkTrend would write it.
func BenchmarkTrendPG(b *testing.B) { benchTrend(b, pgBenchDB(b), pgBenchRuns) }

// BenchmarkIngestPG is BenchmarkIngest on PostgreSQL.
func BenchmarkIngestPG(b *testing.B) { BenchmarkIngest(b) }

// pgBenchDB returns a database of pgBenchRuns runs for BenchmarkTrendPG: in
// the schema $PROFAN_STORE_BENCH_PG names when set (kept), else in a new
// schema dropped after the benchmark.
func pgBenchDB(b *testing.B) *DB {
	b.Helper()
	var dsn string
	if schema := os.Getenv(pgBenchEnv); schema != "" {
		admin, base := pgTestDB(b)
		if _, err := admin.Exec(`CREATE SCHEMA IF NOT EXISTS ` + pgx.Identifier{schema}.Sanitize()); err != nil {
			b.Fatal(err)
		}
		dsn = withSearchPath(b, base, schema)
	} else {
		dsn = pgTestDSN(b)
	}
	db, err := Open(dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	var n int
	if err := db.db.QueryRow(`SELECT count(*) FROM runs WHERE kernels = $1`, benchKernels).Scan(&n); err != nil {
		b.Fatal(err)
	}
	if n == pgBenchRuns {
		return db
	}
	start := time.Now()
	if err := pgBenchFill(db); err != nil {
		b.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "bench setup: %d runs × %d kernels × %d canonical values in %v\n",
		pgBenchRuns, benchKernels, canonicalPerKernel, time.Since(start).Round(time.Millisecond))
	return db
}

// pgBenchFill writes the first run through a RunWriter, which adds the
// kernel names and metric keys, and copies the others in.
func pgBenchFill(db *DB) error {
	ctx := context.Background()
	if err := pgBenchFirstRun(ctx, db); err != nil {
		return err
	}
	ids, err := pgBenchReadIDs(db)
	if err != nil {
		return err
	}
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		if err := pgBenchCopy(ctx, pc, ids); err != nil {
			return err
		}
		return pgBenchVacuum(ctx, pc)
	})
}

// pgBenchInfo is the RunInfo of the benchmark's run r.
func pgBenchInfo(r int) RunInfo {
	return RunInfo{Digest: fmt.Sprintf("sha256:%d", r), Tool: "ncu", Format: "bench",
		Labels: map[string]string{"branch": []string{"main", "dev"}[r%2], "gpu": "h100"}}
}

// pgBenchFirstRun empties the database and writes run 0 through a
// RunWriter.
func pgBenchFirstRun(ctx context.Context, db *DB) error {
	for _, table := range []string{"findings", "kernel_values", "kernels", "run_labels", "runs"} {
		if _, err := db.db.Exec(`DELETE FROM ` + table); err != nil {
			return err
		}
	}
	w, err := db.BeginRun(ctx, pgBenchInfo(0))
	if err != nil {
		return err
	}
	for i := range benchKernels {
		if err := w.AddKernel(synthKernel(0, i, 10, 10)); err != nil {
			return err
		}
	}
	_, err = w.Commit()
	return err
}

// pgBenchIDs are the IDs the RunWriter gave the names and keys, and the
// first IDs of the runs and kernels copied in.
type pgBenchIDs struct {
	names, metrics        map[string]int64
	keys                  map[blob.Key]uint64
	firstRun, firstKernel int64
}

func pgBenchReadIDs(db *DB) (*pgBenchIDs, error) {
	ids := &pgBenchIDs{names: map[string]int64{}, metrics: map[string]int64{}, keys: map[blob.Key]uint64{}}
	for q, f := range map[string]func(rows *sql.Rows) error{
		`SELECT id, name FROM kernel_names`: func(rows *sql.Rows) error {
			var id int64
			var name string
			err := rows.Scan(&id, &name)
			ids.names[name] = id
			return err
		},
		`SELECT id, name, section, unit, raw_unit FROM raw_metric_keys`: func(rows *sql.Rows) error {
			var id uint64
			var k blob.Key
			err := rows.Scan(&id, &k.Name, &k.Section, &k.Unit, &k.RawUnit)
			ids.keys[k] = id
			return err
		},
		`SELECT id, name FROM metric_names`: func(rows *sql.Rows) error {
			var id int64
			var name string
			err := rows.Scan(&id, &name)
			ids.metrics[name] = id
			return err
		},
	} {
		if err := eachRow(context.Background(), db.db, q, nil, f); err != nil {
			return nil, err
		}
	}
	var runID, kernelID int64
	if err := db.db.QueryRow(`SELECT max(id) FROM runs`).Scan(&runID); err != nil {
		return nil, err
	}
	if err := db.db.QueryRow(`SELECT max(id) FROM kernels`).Scan(&kernelID); err != nil {
		return nil, err
	}
	ids.firstRun, ids.firstKernel = runID+1, kernelID+1
	return ids, nil
}

// pgBenchCopy copies runs 1 to pgBenchRuns-1 in, in one transaction.
func pgBenchCopy(ctx context.Context, pc *pgx.Conn, ids *pgBenchIDs) error {
	tx, err := pc.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	// Load kernel_values without its primary key, and add it back
	// after: building the index at once is much faster.
	defs, err := pgDropConstraints(ctx, tx)
	if err != nil {
		return err
	}
	for _, step := range []func(context.Context, pgx.Tx, *pgBenchIDs) error{pgBenchRunRows, pgBenchLabelRows, pgBenchKernelRows, pgBenchValueRows} {
		if err := step(ctx, tx, ids); err != nil {
			return err
		}
	}
	for _, def := range defs {
		if _, err := tx.Exec(ctx, def); err != nil {
			return err
		}
	}
	for _, table := range []string{"runs", "kernels"} {
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT max(id) FROM `+table+`))`, table); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// pgDropConstraints drops kernel_values' constraints and returns the
// statements that add them back.
func pgDropConstraints(ctx context.Context, tx pgx.Tx) ([]string, error) {
	rows, _ := tx.Query(ctx, `SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint
WHERE conrelid = 'kernel_values'::regclass ORDER BY contype DESC`)
	type constraint struct{ Name, Def string }
	cons, err := pgx.CollectRows(rows, pgx.RowToStructByPos[constraint])
	if err != nil {
		return nil, err
	}
	if len(cons) == 0 {
		return nil, errors.New("kernel_values has no primary key")
	}
	var defs []string
	for _, c := range cons {
		if _, err := tx.Exec(ctx, `ALTER TABLE kernel_values DROP CONSTRAINT `+c.Name); err != nil {
			return nil, err
		}
		defs = append(defs, `ALTER TABLE kernel_values ADD CONSTRAINT `+c.Name+` `+c.Def)
	}
	return defs, nil
}

// pgCopyRows copies the rows next returns, until it returns false, into
// table's columns cols.
func pgCopyRows(ctx context.Context, tx pgx.Tx, table string, cols []string, next func() ([]any, bool)) error {
	_, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromFunc(func() ([]any, error) {
		row, ok := next()
		if !ok {
			return nil, nil
		}
		return row, nil
	}))
	if err != nil {
		return fmt.Errorf("copying %s: %w", table, err)
	}
	return nil
}

func pgBenchRunRows(ctx context.Context, tx pgx.Tx, ids *pgBenchIDs) error {
	created := formatTime(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	r := int64(1)
	return pgCopyRows(ctx, tx, "runs", []string{"id", "digest", "source", "tool", "format", "created", "kernels"}, func() ([]any, bool) {
		if r == pgBenchRuns {
			return nil, false
		}
		in := pgBenchInfo(int(r))
		row := []any{ids.firstRun + r - 1, in.Digest, in.Source, in.Tool, in.Format, created, int32(benchKernels)}
		r++
		return row, true
	})
}

func pgBenchLabelRows(ctx context.Context, tx pgx.Tx, ids *pgBenchIDs) error {
	var labels [][]any
	for r := int64(1); r < pgBenchRuns; r++ {
		for k, v := range pgBenchInfo(int(r)).Labels {
			labels = append(labels, []any{ids.firstRun + r - 1, k, v})
		}
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"run_labels"}, []string{"run_id", "key", "value"}, pgx.CopyFromRows(labels))
	return err
}

func pgBenchKernelRows(ctx context.Context, tx pgx.Tx, ids *pgBenchIDs) error {
	r, i := int64(1), 0
	var raw []byte
	var lastKey []uint64
	keyFunc := func(m *profan.Metric, pos int) (uint64, error) {
		if pos < len(lastKey) {
			return lastKey[pos], nil
		}
		id, ok := ids.keys[blob.KeyOf(m)]
		if !ok {
			return 0, fmt.Errorf("no key for %s", m.Name)
		}
		lastKey = append(lastKey, id)
		return id, nil
	}
	var werr error
	err := pgCopyRows(ctx, tx, "kernels", []string{"id", "run_id", "ordinal", "launch_id", "name_id", "device", "cc", "grid", "block", "invocations", "duration", "raw"}, func() ([]any, bool) {
		if r == pgBenchRuns {
			return nil, false
		}
		rec := synthKernel(int(r), i, 10, 10)
		k := rec.Kernel
		raw, werr = encodeKernel(raw[:0], k, keyFunc, nil)
		if werr != nil {
			return nil, false
		}
		kid := ids.firstKernel + (r-1)*benchKernels + int64(i)
		row := []any{kid, ids.firstRun + r - 1, int32(i), k.ID, ids.names[k.Name], k.Device, k.CC, dim(k.Grid), dim(k.Block), int64(k.Invocations), k.Duration, raw}
		if i++; i == benchKernels {
			r, i = r+1, 0
		}
		return row, true
	})
	if err != nil || werr != nil {
		return errors.Join(err, werr)
	}
	return nil
}

func pgBenchValueRows(ctx context.Context, tx pgx.Tx, ids *pgBenchIDs) error {
	r, i, j := int64(1), 0, 0
	var rec KernelRecord
	return pgCopyRows(ctx, tx, "kernel_values", []string{"metric_id", "name_id", "kernel_id", "value"}, func() ([]any, bool) {
		if r == pgBenchRuns {
			return nil, false
		}
		if j == 0 {
			rec = synthKernel(int(r), i, 10, 0)
		}
		v := rec.Canonical[j]
		row := []any{ids.metrics[v.Name], ids.names[rec.Kernel.Name], ids.firstKernel + (r-1)*benchKernels + int64(i), v.Value}
		if j++; j == canonicalPerKernel {
			j = 0
			if i++; i == benchKernels {
				r, i = r+1, 0
			}
		}
		return row, true
	})
}

// pgBenchVacuum does what autovacuum would: statistics for the planner
// and a visibility map for index-only scans. VACUUM cannot mark pages
// all-visible while another transaction may not see their rows, such as
// autovacuum's ANALYZE of the new rows: try again then.
func pgBenchVacuum(ctx context.Context, pc *pgx.Conn) error {
	if _, err := pc.Exec(ctx, `VACUUM (ANALYZE) runs, run_labels, kernel_names, kernels, metric_names, kernel_values`); err != nil {
		return err
	}
	for try := 0; ; try++ {
		var pages, visible int64
		if err := pc.QueryRow(ctx, `SELECT sum(relpages), sum(relallvisible) FROM pg_class
WHERE oid IN ('runs'::regclass, 'run_labels'::regclass, 'kernels'::regclass, 'kernel_values'::regclass)`).Scan(&pages, &visible); err != nil {
			return err
		}
		if visible == pages || try == 20 {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
		if _, err := pc.Exec(ctx, `VACUUM runs, run_labels, kernels, kernel_values`); err != nil {
			return err
		}
	}
}
