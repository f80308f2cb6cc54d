package cli

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/store/storetest"
)

// readCommands are the commands that read a run database, each as it
// would meet one it cannot read: the gate's with --missing-baseline pass,
// which must not take an unreadable database for a missing baseline.
func readCommands(dir string) [][]string {
	return [][]string{
		{"runs"},
		{"runs", "--format", "json"},
		{"trend", "--kernel", ".", "--metric", "duration"},
		{"diff", "1", "latest"},
		{"report", "--html", filepath.Join(dir, "r.html")},
		{"gate", "--baseline", "latest", "--max-regression", "5%", "--missing-baseline", "pass", fx + "copy.details.csv"},
		{"gate", "--run", "1"},
	}
}

// TestDatabaseErrorsFailClosed: a database that cannot be opened, logged
// into or read is an error (exit 2, with the server's or SQLite's own
// words) for every command that reads one; "no baseline" and "empty" are
// only for a database that answered and holds no run. A mistyped
// PostgreSQL database or role passed a gate with --missing-baseline pass.
func TestDatabaseErrorsFailClosed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	if _, errOut, code := run(t, "ingest", "--db", good, fx+"copy.details.csv"); code != ExitOK {
		t.Fatalf("ingest: %d %s", code, errOut)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{} // name -> --db
	write := func(name string, b []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		bad[name] = p
	}
	write("text", []byte("not a database\n"))
	write("truncated", data[:min(len(data), 8192)])
	hdr := append([]byte("garbage header!!"), data[16:]...)
	write("header", hdr)
	bad["directory"] = t.TempDir()
	want := map[string]string{"text": "not a SQLite database", "truncated": "malformed", "header": "not a SQLite database", "directory": "not a regular file"}
	if pg := os.Getenv("PROFAN_TEST_PG"); pg != "" {
		u, err := url.Parse(storetest.DSN(t, "postgres"))
		if err != nil {
			t.Fatal(err)
		}
		noDB, noRole := *u, *u
		noDB.Path = "/profan_no_such_database"
		noRole.User = url.User("profan_no_such_role")
		bad["pg-database"], want["pg-database"] = noDB.String(), `database "profan_no_such_database" does not exist`
		bad["pg-role"], want["pg-role"] = noRole.String(), `role "profan_no_such_role" does not exist`
	}
	for name, db := range bad {
		cmds := readCommands(dir)
		if strings.HasPrefix(name, "pg-") {
			cmds = append(cmds, []string{"ingest", fx + "copy.details.csv"}, []string{"migrate"})
		}
		for _, args := range cmds {
			args = append(args, "--db", db)
			out, errOut, code := run(t, args...)
			if code != ExitError || !strings.Contains(errOut, want[name]) || strings.Contains(out+errOut, "no baseline") || strings.Contains(errOut, "empty") {
				t.Errorf("%s: profan %s: exit %d, want 2 saying %q:\n%s%s", name, strings.Join(args[:2], " "), code, want[name], out, errOut)
			}
		}
	}
}

// TestIngestRefusedLeavesSchema: an export refused at its last row, into
// a database of an older schema (the previous release's) or a file of
// no schema yet (zero bytes), leaves the database as it was: it was once
// migrated before the export was read through, which older profans
// sharing the database would then refuse.
func TestIngestRefusedLeavesSchema(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := os.ReadFile(fx + "copy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	// The last row cut in its middle: an unterminated quoted field.
	cut := filepath.Join(dir, "cut.csv")
	end := strings.LastIndex(strings.TrimRight(string(b), "\n"), "\n")
	if err := os.WriteFile(cut, append(b[:end+1:end+1], `"9","4375","co`+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.db")
	if err := os.WriteFile(zero, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, db := range []string{storetest.Load(t, prevRelease), zero} {
		before := fileSum(t, db)
		_, errOut, code := run(t, "ingest", "--db", db, cut)
		if code != ExitError || !strings.Contains(errOut, "cut.csv:") {
			t.Errorf("%s: exit %d, want 2 naming the file: %s", filepath.Base(db), code, errOut)
		}
		if fileSum(t, db) != before {
			t.Errorf("%s: an ingest refused changed the database", filepath.Base(db))
		}
		// The file alone may hide a migration in its write-ahead log: the
		// older schema is still the one a read command meets.
		if db != zero {
			if _, errOut, code := run(t, "runs", "--db", db); code != ExitError || !strings.Contains(errOut, "profan migrate") {
				t.Errorf("%s: runs after an ingest refused: exit %d, want 2 and profan migrate: %s", filepath.Base(db), code, errOut)
			}
		}
	}
}
