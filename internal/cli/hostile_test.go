package cli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileCommandLines is the adversarial trial's table of careless and
// hostile command lines: each is refused with exit 2 and a message saying
// why, or, for the escapes, shows no raw control character.
func TestHostileCommandLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	cfg := func(name, body string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	in := fx + "copy.details.csv"
	for _, tt := range []struct {
		name string
		args []string
		code ExitCode
		msg  string
	}{
		{"empty --db", []string{"runs", "--db", ""}, ExitError, `--db is given an empty value ""`},
		{"blank --fail-on", []string{"gate", in, "--fail-on", ",,,"}, ExitError, `--fail-on is given an empty value ",,,"`},
		{"empty --format", []string{"analyze", in, "--format", ""}, ExitError, "--format is given an empty value"},
		{"empty --metric list", []string{"report", in, "--html", filepath.Join(dir, "r.html"), "--metric", ""}, ExitError, "--metric is given an empty value"},
		{"unknown report --metric", []string{"report", in, "--html", filepath.Join(dir, "r.html"), "--metric", "nosuch"}, ExitError, `unknown metric "nosuch"`},
		{"empty --max-regression", []string{"gate", in, "--max-regression", ""}, ExitError, "--max-regression is given an empty value"},
		{"duplicate label key", []string{"ingest", "--db", db, "--label", "a=1", "--label", "a=2", in}, ExitError, `key "a" given twice`},
		{"blank label key", []string{"ingest", "--db", db, "--label", " =1", in}, ExitError, "want key=value"},
		{"blank suppression reason", []string{"analyze", in, "--config", cfg("blank.toml", "[[suppress]]\nrule = \"memory-bound\"\nreason = \"  \"\n")}, ExitError, "has no reason"},
		{"require whose kernel pattern matches nothing", []string{"gate", in, "--config", cfg("req.toml", "[[require]]\nmetric = \"duration\"\nop = \"<\"\nvalue = \"1s\"\nkernel = \"nosuchkernel\"\n")}, ExitError, `kernel pattern "nosuchkernel" matches no kernel`},
		{"config of /dev/zero", []string{"analyze", in, "--config", "/dev/zero"}, ExitError, "larger than 1048576 bytes"},
		{"run not stored: the database named", []string{"report", "--db", db, "--run", "99", "--html", "-"}, ExitError, db + ": run 99: not found"},
		{"no database at the path", []string{"runs", "--db", filepath.Join(dir, "none.db")}, ExitError, filepath.Join(dir, "none.db") + ": no such database (ingest a run first)"},
		{"a directory as an export", []string{"analyze", dir}, ExitError, dir + ": a directory, not an export file"},
		{"a directory to diff", []string{"diff", in, dir}, ExitError, dir + ": a directory, not an export file"},
		{"no export at the path", []string{"gate", "--require", "duration < 1s", filepath.Join(dir, "none.csv")}, ExitError, filepath.Join(dir, "none.csv") + ": no such file or directory"},
		{"-o in no directory", []string{"analyze", "-o", filepath.Join(dir, "no", "a.txt"), in}, ExitError, filepath.Join(dir, "no", "a.txt") + ": cannot be written: no such file or directory"},
		{"report in no directory", []string{"report", "--html", filepath.Join(dir, "no", "r.html"), in}, ExitError, filepath.Join(dir, "no", "r.html") + ": cannot be written: no such file or directory"},
		{"path with escapes", []string{"analyze", filepath.Join(dir, "no\x1b]0;x\x07such.csv")}, ExitError, `no\x1b]0;x\asuch.csv`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.msg) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, errOut, tt.code, tt.msg)
			}
			if strings.ContainsAny(errOut, "\x1b\x07") {
				t.Errorf("the message holds a raw escape: %q", errOut)
			}
		})
	}
}

// TestStoredStringsEscaped checks that labels and names read from a
// database reach no output raw, whoever wrote them: escapes and bidi
// controls are shown as exports' strings are, a newline forges no line.
func TestStoredStringsEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "e.db")
	evil := "x\x1b]0;pwned\x07y\u202ez\nRUN 99 forged"
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "k="+evil, fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	// What another program may write into a shared database.
	sdb, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`UPDATE runs SET source = ?, device = ?`, "src"+evil, "dev"+evil); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	for _, args := range [][]string{
		{"runs"}, {"runs", "--format", "json"},
		{"trend", "--kernel", "offset", "--metric", "duration"},
		{"trend", "--kernel", "offset", "--metric", "duration", "--format", "csv"},
		{"trend", "--kernel", "offset", "--metric", "duration", "--format", "json"},
	} {
		out, errOut, code := run(t, append(args, "--db", db)...)
		if code != ExitOK {
			t.Errorf("%v: exit %d: %s", args, code, errOut)
		}
		for _, raw := range []string{"\x1b", "\x07", "\u202e", "\nRUN 99"} {
			if strings.Contains(out+errOut, raw) {
				t.Errorf("%v: output holds %q raw:\n%s", args, raw, out)
			}
		}
	}
}

// TestMarkdownNoLiveLinks checks that a kernel name cannot make a link,
// an image or HTML in --format markdown.
func TestMarkdownNoLiveLinks(t *testing.T) {
	t.Parallel()
	in := filepath.Join(t.TempDir(), "link.csv")
	os.WriteFile(in, []byte(strings.ReplaceAll(string(readFixture(t, fx+"copy.details.csv")), "offsetCopy", "[l](javascript:alert(1))![i](https://x.example/a.png)<b>www.x.example</b>")), 0o644)
	out, errOut, code := run(t, "analyze", "--format", "markdown", in)
	if code != ExitOK {
		t.Fatal(errOut)
	}
	for _, live := range []string{"[l](", "![i](", "<b>", "https://", "www.x"} {
		if strings.Contains(out, live) {
			t.Errorf("markdown holds %q live", live)
		}
	}
	if !strings.Contains(out, `\[l\](javascript\:\/\/`) && !strings.Contains(out, `\[l\](javascript:alert(1))`) {
		t.Errorf("the name is not shown escaped:\n%.400s", out)
	}
}

// TestReadCommandsNeverMigrate checks that runs refuses an older schema
// with what to run, and that profan migrate makes a database.
func TestReadCommandsNeverMigrate(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "old.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	sdb, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	// An older profan's database: its newest migration not recorded.
	if _, err := sdb.Exec(`DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	if _, errOut, code := run(t, "runs", "--db", db); code != ExitError || !strings.Contains(errOut, "run `profan migrate --db "+db+"`") {
		t.Errorf("runs on an older schema: exit %d, %q", code, errOut)
	}
	// profan migrate makes a database (the store's tests update an older one).
	fresh := filepath.Join(t.TempDir(), "new.db")
	if out, errOut, code := run(t, "migrate", "--db", fresh); code != ExitOK || !strings.Contains(out, "schema version") {
		t.Errorf("migrate: exit %d, %q %q", code, out, errOut)
	}
	if _, errOut, code := run(t, "runs", "--db", fresh); code != ExitOK {
		t.Errorf("runs after migrate: exit %d, %q", code, errOut)
	}
}
