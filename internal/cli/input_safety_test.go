package cli

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

const variants = "../../fixtures/variants/"

// kernelsOf counts the kernels of analyze --format json output.
func kernelsOf(t *testing.T, out string) int {
	t.Helper()
	var doc struct {
		Kernels []json.RawMessage `json:"kernels"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("json: %v", err)
	}
	return len(doc.Kernels)
}

// fifo returns a named pipe that data is written to, as process
// substitution (<(cat a b)) gives profan.
func fifo(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	return p
}

func readFixture(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAnalyzePipe pins the pipe case: an export read from a
// pipe is read once, whole (27 of 54 launches were read before).
func TestAnalyzePipe(t *testing.T) {
	t.Parallel()
	two := append(readFixture(t, variants+"variants.details.csv.gz"), readFixture(t, variants+"inline.live.print-details-all.csv.gz")...)
	out, errOut, code := run(t, "analyze", "--format", "json", "--launches", fifo(t, two))
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := kernelsOf(t, out); n != 36 {
		t.Errorf("%d kernels from the pipe, want 36", n)
	}
	// The same report twice in one input counts nothing twice.
	same := append(readFixture(t, variants+"variants.details.csv.gz"), readFixture(t, variants+"variants.raw.csv.gz")...)
	_, errOut, code = run(t, "analyze", "--format", "json", fifo(t, same))
	if code != ExitError || !strings.Contains(errOut, ":1777: launch ID 0") || !strings.Contains(errOut, "already read at line 2") {
		t.Errorf("a details and a raw page of one report in one file: exit %d, %q; want exit 2 naming both lines", code, errOut)
	}
	db := filepath.Join(t.TempDir(), "p.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fifo(t, readFixture(t, fx+"copy.details.csv"))); code != ExitOK {
		t.Fatalf("ingest from a pipe: exit %d: %s", code, errOut)
	}
	if out, _, _ := run(t, "runs", "--db", db, "--format", "json"); !strings.Contains(out, `"kernels":9`) && !strings.Contains(out, `"kernels": 9`) {
		t.Errorf("ingest from a pipe stored %s, want 9 kernels", out)
	}
}

// TestReportNeverOverwritesInputs pins the overwrite cases.
func TestReportNeverOverwritesInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := filepath.Join(dir, "copy.csv")
	data := readFixture(t, fx+"copy.details.csv")
	os.WriteFile(in, data, 0o644)
	if _, errOut, code := run(t, "report", in, "--html", in); code != ExitError || !strings.Contains(errOut, "would overwrite") {
		t.Errorf("--html onto the input: exit %d, %s", code, errOut)
	}
	if got, _ := os.ReadFile(in); !bytes.Equal(got, data) {
		t.Error("the input was changed")
	}
	db := filepath.Join(dir, "x.db")
	if _, errOut, code := run(t, "ingest", "--db", db, in); code != ExitOK {
		t.Fatalf("ingest: %s", errOut)
	}
	before, _ := os.ReadFile(db)
	if _, errOut, code := run(t, "report", "--db", db, "--html", db); code != ExitError || !strings.Contains(errOut, "would overwrite") {
		t.Errorf("--html onto the database: exit %d, %s", code, errOut)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("the database was changed")
	}
	out, errOut, code := run(t, "report", in, "--html", "-")
	if code != ExitOK || !strings.Contains(out, "<html") {
		t.Errorf("--html -: exit %d, %d bytes on stdout: %s", code, len(out), errOut)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error(`--html - wrote a file named "-"`)
	}
}

// TestDatabaseOpening pins :memory: and the read-only commands' opening.
func TestDatabaseOpening(t *testing.T) {
	t.Parallel()
	if _, errOut, code := run(t, "ingest", "--db", ":memory:", fx+"copy.details.csv"); code != ExitError || !strings.Contains(errOut, "in memory") {
		t.Errorf("--db :memory:: exit %d, %s", code, errOut)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	if _, errOut, code := run(t, "ingest", "--db", db, fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	os.Chmod(db, 0o444)
	defer os.Chmod(db, 0o644)
	for _, args := range [][]string{{"runs"}, {"trend", "--kernel", ".", "--metric", "duration"}, {"report", "--html", filepath.Join(t.TempDir(), "r.html")}} {
		if _, errOut, code := run(t, append(args, "--db", db)...); code != ExitOK {
			t.Errorf("%s on a read-only database: exit %d: %s", args[0], code, errOut)
		}
	}
	// A newer schema and a foreign SQLite file are refused, unchanged.
	os.Chmod(db, 0o644)
	sdb, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.Exec(`INSERT INTO schema_migrations (version, name, applied) VALUES (999, '999_future', '')`); err != nil {
		t.Fatal(err)
	}
	sdb.Close()
	if _, errOut, code := run(t, "runs", "--db", db); code != ExitError || !strings.Contains(errOut, "newer") {
		t.Errorf("newer schema: exit %d, %s", code, errOut)
	}
	foreign := filepath.Join(dir, "foreign.db")
	fdb, _ := sql.Open("sqlite3", foreign)
	fdb.Exec(`CREATE TABLE t (x int)`)
	fdb.Close()
	if _, errOut, code := run(t, "runs", "--db", foreign); code != ExitError || !strings.Contains(errOut, "not a profan run database") {
		t.Errorf("foreign database: exit %d, %s", code, errOut)
	}
}

// TestEmptyAndUnparseableTables pins the header-only and unparseable-value
// cases: exit 2 with file:line, nothing stored, no gate passing on nothing.
func TestEmptyAndUnparseableTables(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lines := strings.SplitAfter(string(readFixture(t, fx+"copy.details.csv")), "\n")
	header := 0
	for i, l := range lines {
		if strings.HasPrefix(l, `"ID",`) {
			header = i
			break
		}
	}
	write := func(name string, ls ...string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(strings.Join(ls, "")), 0o644)
		return p
	}
	headerOnly := write("header.csv", lines[:header+1]...)
	raw := strings.SplitAfter(string(readFixture(t, fx+"copy.metrics.raw.csv")), "\n")
	rawHeader := 0
	for i, l := range raw {
		if strings.HasPrefix(l, `"ID",`) {
			rawHeader = i
			break
		}
	}
	rawUnits := write("raw.csv", raw[:rawHeader+2]...)
	var bad []string
	for _, l := range lines {
		if strings.Contains(l, `"Duration","ns","12,544"`) {
			l = strings.Replace(l, `"12,544"`, `"12.5x"`, 1)
		}
		bad = append(bad, l)
	}
	badValue := write("bad.csv", bad...)
	db := filepath.Join(dir, "e.db")
	for _, c := range []struct {
		file, want string
	}{
		{headerOnly, "header.csv:" + strconv.Itoa(header+1) + ": ncu-details: the table has a header but no rows"},
		{rawUnits, "raw.csv:" + strconv.Itoa(rawHeader+1) + ": ncu-raw: the table has a header and units row but no rows"},
		{badValue, `is not a number`},
	} {
		t.Run(c.file, func(t *testing.T) {
			for _, args := range [][]string{{"analyze"}, {"gate"}, {"ingest", "--db", db}} {
				_, errOut, code := run(t, append(args, c.file)...)
				if code != ExitError || !strings.Contains(errOut, c.want) {
					t.Errorf("%s %s: exit %d, %q; want exit 2 and %q", args[0], filepath.Base(c.file), code, errOut, c.want)
				}
			}
		})
	}
	if _, err := os.Stat(db); err == nil {
		if n := countRuns(t, db); n != 0 {
			t.Errorf("%d runs stored from bad input", n)
		}
	}
}

// TestModelBounds pins the numeric flag bounds of profan model.
func TestModelBounds(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--threads", "1000000000000", "--pattern", "sequential"},
		{"--threads", "1000", "--pattern", "stride:9223372036854775807"},
		{"--threads", "1000", "--pattern", "offset:9223372036854775807"},
	} {
		_, errOut, code := run(t, append([]string{"model", "--arch", "volta", "--elem-bytes", "4"}, args...)...)
		if code != ExitError {
			t.Errorf("model %v: exit %d: %s", args, code, errOut)
		}
	}
}

// TestExportStringsEscaped pins the terminal-escape case: a
// kernel name with ANSI and OSC sequences and a bidi override reaches no
// output raw (analyze, gate, runs, trend, report).
func TestExportStringsEscaped(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	evil := "offset\x1b[2J\x1b]0;pwned\x07Copy\u202e"
	in := filepath.Join(dir, "evil.csv")
	os.WriteFile(in, bytes.ReplaceAll(readFixture(t, fx+"copy.details.csv"), []byte("offsetCopy"), []byte(evil)), 0o644)
	db := filepath.Join(dir, "e.db")
	html := filepath.Join(dir, "e.html")
	if _, errOut, code := run(t, "ingest", "--db", db, in); code != ExitOK {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{
		{"analyze", in}, {"analyze", "--format", "markdown", in}, {"gate", in, "--require", "duration < 1s"},
		{"runs", "--db", db}, {"trend", "--db", db, "--kernel", "offset", "--metric", "duration"},
		{"report", in, "--html", html},
	} {
		out, errOut, _ := run(t, args...)
		if args[0] == "report" {
			b, _ := os.ReadFile(html)
			out = string(b)
		}
		for _, raw := range []string{"\x1b", "\x07", "\u202e"} {
			if strings.Contains(out+errOut, raw) {
				t.Errorf("%v: output holds %q raw", args, raw)
			}
		}
		shown := `offset\x1b[2J`
		if slices.Contains(args, "markdown") {
			shown = `offset\\x1b\[2J` // Markdown's escapes: renders as the above
		}
		if args[0] == "analyze" && !strings.Contains(out, shown) {
			t.Errorf("%v: the name is not shown escaped:\n%.300s", args, out)
		}
	}
}

// TestVerboseAccounting: -v says what was read and skipped of each export.
func TestVerboseAccounting(t *testing.T) {
	t.Parallel()
	in := variants + "variants.details.print-details-all.csv.gz"
	want := "34498 lines: 18 launches in 18 kernel records, 0 activities, 34425 data rows, 1 header lines; skipped 18 indented note"
	cmds := [][]string{{"analyze", "-v", in}, {"gate", "-v", in, "--require", "duration < 1s"}, {"ingest", "-v", "--db", filepath.Join(t.TempDir(), "v.db"), in}}
	if testing.Short() {
		cmds = cmds[:1] // analyze; CI runs gate and ingest too
	}
	for _, args := range cmds {
		_, errOut, code := run(t, args...)
		if code != ExitOK || !strings.Contains(errOut, want) {
			t.Errorf("%s -v: exit %d, stderr %q", args[0], code, errOut)
		}
	}
}
