package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSpreadsheetAndCILogInjection stores kernels named as spreadsheet
// formulas and GitHub Actions workflow commands, with labels alike, and
// reads them back in every format a spreadsheet or a CI log reads: no CSV
// cell starts a formula, no line starts a workflow command (but the
// GitHub format's own), no "##[" command is left whole.
func TestSpreadsheetAndCILogInjection(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "i.db")
	data := string(readFixture(t, fx+"copy.details.csv"))
	data = strings.ReplaceAll(data, "offsetCopy(float *, const float *, int)", "::error title=pwned::offsetCopy")
	data = strings.ReplaceAll(data, "strideCopy(float *, const float *, int)", "=HYPERLINK(\"\"https://x.example\"\")")
	in := filepath.Join(dir, "evil.csv")
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "a=+1+cmd|' /C calc'!A0", "--label", "b=@SUM(1)", in); code != ExitOK {
		t.Fatal(errOut)
	}
	// A second run, so that trend and diff have two sides.
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "a=-2 ##[error]x", fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "trend", "--db", db, "--kernel", ".", "--metric", "duration", "--format", "csv")
	if code != ExitOK {
		t.Fatal(errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	formulas := 0
	for _, r := range recs[1:] {
		for _, cell := range r[1:4] {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q starts a formula", cell)
			}
			if strings.HasPrefix(cell, "'=") || strings.HasPrefix(cell, "'+") || strings.HasPrefix(cell, "'@") {
				formulas++
			}
		}
	}
	if formulas == 0 {
		t.Errorf("no neutralised cell in:\n%s", out)
	}
	for _, args := range [][]string{
		{"trend", "--db", db, "--kernel", ".", "--metric", "duration"},
		{"runs", "--db", db},
		{"diff", "--db", db, "1", "2"},
		{"analyze", in},
		{"analyze", "--format", "markdown", in},
		{"gate", "--format", "junit", in},
		{"gate", in},
		{"gate", "--db", db, "--run", "1", "--baseline", "2"},
		{"gate", "--format", "github", in},
	} {
		out, errOut, _ := run(t, args...)
		github := args[len(args)-2] == "github"
		for _, l := range strings.Split(out+errOut, "\n") {
			l = strings.TrimLeft(l, " \t")
			if strings.HasPrefix(l, "::") && !(github && strings.HasPrefix(l, "::error ") || github && strings.HasPrefix(l, "::notice ") || github && strings.HasPrefix(l, "::warning ")) {
				t.Errorf("%v: a line starts a workflow command: %q", args, l)
			}
			if strings.Contains(l, "##[error]") {
				t.Errorf("%v: a line holds a workflow command: %q", args, l)
			}
		}
	}
}

// TestOutWriterGuard holds the CI-log guard to the same output however
// the writes split it.
func TestOutWriterGuard(t *testing.T) {
	in := "::error x\n  ::stop-commands::t\ntime: 1 ::x\n\t##[add-mask]s a##[error]b #1 ## [\n:\n#"
	want := "'::error x\n  '::stop-commands::t\ntime: 1 ::x\n\t## [add-mask]s a## [error]b #1 ## [\n:\n#"
	for n := 1; n <= len(in); n++ {
		var b bytes.Buffer
		w := newOutWriter(&b)
		for i := 0; i < len(in); i += n {
			w.Write([]byte(in[i:min(len(in), i+n)]))
		}
		w.flush()
		if b.String() != want {
			t.Fatalf("writes of %d bytes: %q, want %q", n, b.String(), want)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestFailedWriteIsExit2 checks that output that could not be written is
// exit 2, a failed or a passed gate alike: its report reached nobody.
func TestFailedWriteIsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"gate", fx + "transpose.full.raw.csv"},                         // fails
		{"gate", "--require", "duration < 1s", fx + "copy.details.csv"}, // passes
		{"gate", "--format", "github", fx + "transpose.full.raw.csv"},   // github, fails
		{"analyze", fx + "copy.details.csv"},
	} {
		st, _, errOut := testStreams()
		st.Out = failingWriter{}
		if code := Main(args, st); code != ExitError || !strings.Contains(errOut.String(), "writing standard output: no space left on device") {
			t.Errorf("%v: exit %d, %q; want 2 and the write error", args, code, errOut)
		}
		// Said once: the command's error and Main's were once both printed.
		if n := strings.Count(errOut.String(), "no space left on device"); n != 1 {
			t.Errorf("%v: the write error said %d times: %q", args, n, errOut)
		}
	}
}

// TestFlagValues checks the messages for flag values of the wrong type or
// range and for a flag given twice.
func TestFlagValues(t *testing.T) {
	in := fx + "copy.details.csv"
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"gate", in, "--run", "latest"}, `--run "latest": want a run ID, a whole number as profan runs lists them`},
		{[]string{"report", "--run", "latest", "--html", "-"}, `--run "latest": want a run ID`},
		{[]string{"analyze", in, "--top", "99999999999999999999"}, `--top "99999999999999999999": out of range: want a whole number up to 9223372036854775807`},
		{[]string{"analyze", in, "--top", "ten"}, `--top "ten": want a whole number`},
		{[]string{"runs", "--db", "a.db", "--db", "b.db"}, `--db given twice ("a.db", then "b.db"): give it once`},
		{[]string{"gate", in, "--min-share", "1%", "--min-share", "2%"}, `--min-share given twice`},
		{[]string{"gate", in, "--min-share", "2x"}, `--min-share: "2x" is a ratio`},
	} {
		_, errOut, code := run(t, tt.args...)
		if code != ExitError || !strings.Contains(errOut, tt.msg) || strings.Contains(errOut, "strconv") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.msg)
		}
	}
	// Switches and lists may still repeat.
	if _, errOut, code := run(t, "analyze", "-v", "-v", "--format", "json", in); code != ExitOK {
		t.Errorf("-v twice: exit %d, %s", code, errOut)
	}
}

// TestReportXLabelAndAtomicWrite checks that --x-label names a label some
// run has, and that the report replaces its file whole.
func TestReportXLabelAndAtomicWrite(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "commit=abc", fx+"copy.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	html := filepath.Join(dir, "r.html")
	if _, errOut, code := run(t, "report", "--db", db, "--html", html, "--x-label", "comit"); code != ExitError || !strings.Contains(errOut, `unknown --x-label key "comit"; did you mean "commit"?`) {
		t.Errorf("--x-label comit: exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(html); err == nil {
		t.Errorf("a refused report wrote %s", html)
	}
	os.WriteFile(html, []byte("old"), 0o600)
	if _, errOut, code := run(t, "report", "--db", db, "--html", html, "--x-label", "commit"); code != ExitOK {
		t.Fatal(errOut)
	}
	b, _ := os.ReadFile(html)
	st, _ := os.Stat(html)
	if !bytes.Contains(b, []byte("</html>")) || st.Mode().Perm() != 0o600 {
		t.Errorf("report: %d bytes, mode %v", len(b), st.Mode())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".r.html.*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A report that cannot be written leaves the old file whole.
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o755)
	old := filepath.Join(ro, "r.html")
	os.WriteFile(old, []byte("old"), 0o644)
	if err := writeFileAtomic(context.Background(), old, func(w io.Writer) error { w.Write([]byte("partial")); return errors.New("killed") }); err == nil {
		t.Error("a failed write returned no error")
	}
	if b, _ := os.ReadFile(old); string(b) != "old" {
		t.Errorf("the old file is now %q", b)
	}
}

// TestConfigDomains checks that a config's gate settings and thresholds
// outside their domain are refused as the flags are: each would disarm a
// gate or a rule without a word.
func TestConfigDomains(t *testing.T) {
	dir := t.TempDir()
	in := fx + "copy.details.csv"
	for _, tt := range []struct{ body, msg string }{
		{"min_share = \"2x\"\n", `min_share: "2x" is a ratio`},
		{"min_share = 150\n", `not a share of the capture between 0 and 100%`},
		{"[thresholds]\ntail_waste = 2\n", "tail_waste = 2: want a share, at most 1"},
		{"[thresholds]\nbound = 600\n", "bound = 600: want a percentage, at most 100"},
		{"[thresholds]\ngpu_busy = 2\n", "gpu_busy = 2: want a share, at most 1"},
	} {
		p := filepath.Join(dir, "c.toml")
		os.WriteFile(p, []byte(tt.body), 0o644)
		if _, errOut, code := run(t, "gate", "--config", p, in); code != ExitError || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tt.body, code, errOut, tt.msg)
		}
	}
}

// TestConfigKeyCase checks that a config key is matched as written: one in
// another case is refused with the key it stands for.
func TestConfigKeyCase(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.toml")
	os.WriteFile(p, []byte("Min_Share = 1\n[Thresholds]\nexcess = 2\n"), 0o644)
	if _, errOut, code := run(t, "gate", "--config", p, fx+"copy.details.csv"); code != ExitError || !strings.Contains(errOut, `did you mean "min_share"?`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
	os.WriteFile(p, []byte("min_share = 1\n[thresholds]\nexcess = 2\n[[suppress]]\nrule = \"small-grid\"\nreason = \"r\"\n"), 0o644)
	if _, errOut, code := run(t, "analyze", "--config", p, fx+"copy.details.csv"); code != ExitOK {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// TestConnectionStrings checks that a libpq keyword string and an upper
// case URL, in --db or PROFAN_DB, name a PostgreSQL server (never a SQLite
// file of that name) and that no message shows their password.
func TestConnectionStrings(t *testing.T) {
	in, err := filepath.Abs(fx + "copy.details.csv")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, dsn := range []string{
		"host=127.0.0.1 port=1 user=ci password=hunter2 dbname=p connect_timeout=2",
		"POSTGRES://ci:hunter2@127.0.0.1:1/p?connect_timeout=2",
	} {
		for _, env := range []bool{false, true} {
			for _, args := range [][]string{{"ingest", in}, {"runs"}, {"migrate"}} {
				st, out, errOut := testStreams()
				if env {
					st.Getenv = func(k string) string {
						if k == "PROFAN_DB" {
							return dsn
						}
						return ""
					}
				} else {
					args = append(args, "--db", dsn)
				}
				code := Main(args, st)
				if code != ExitError || strings.Contains(out.String()+errOut.String(), "hunter2") || !strings.Contains(errOut.String(), "127.0.0.1") {
					t.Errorf("%v (PROFAN_DB %v): exit %d, %q %q", args, env, code, out, errOut)
				}
			}
		}
	}
	if files, _ := os.ReadDir(dir); len(files) > 0 {
		t.Errorf("files made: %v", files)
	}
}

// TestIngestWrites checks that a refused ingest leaves no database where
// there was none, and that a database that is no regular file (standard
// output, a pipe, a directory) is refused before anything is written.
func TestIngestWrites(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "new.db")
	bad := filepath.Join(dir, "cut.csv")
	good := readFixture(t, fx+"copy.details.csv")
	// A real export cut inside a quoted field of its last row.
	os.WriteFile(bad, good[:len(good)-5], 0o644)
	if _, errOut, code := run(t, "ingest", "--db", db, bad); code != ExitError {
		t.Errorf("a cut export: exit %d, %s", code, errOut)
	}
	if left, _ := filepath.Glob(db + "*"); len(left) > 0 {
		t.Errorf("a refused ingest left %v", left)
	}
	// A GPU the export contradicts, found by the check before the
	// database is made.
	if _, errOut, code := run(t, "ingest", "--db", db, "--device", "A100", fx+"saxpy.details.csv"); code != ExitError || !strings.Contains(errOut, "contradicts the export") {
		t.Errorf("--device A100 on an H200 export: exit %d, %s", code, errOut)
	}
	if left, _ := filepath.Glob(db + "*"); len(left) > 0 {
		t.Errorf("a refused ingest left %v", left)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{"/dev/stdout", "/dev/null", fifo, dir} {
		for _, args := range [][]string{{"ingest", fx + "copy.details.csv"}, {"runs"}} {
			_, errOut, code := run(t, append(args, "--db", p)...)
			if code != ExitError || !strings.Contains(errOut, "give the path of a database file") {
				t.Errorf("%v --db %s: exit %d, %q", args, p, code, errOut)
			}
		}
	}
}

// TestInterruptedSaysKept: an ingest interrupted after it stored a run
// says the run stays, where it once said nothing was written.
func TestInterruptedSaysKept(t *testing.T) {
	for _, c := range []struct {
		e    InterruptedError
		want string
	}{
		{InterruptedError{Signal: syscall.SIGINT}, "interrupted (SIGINT): stopped, nothing half-written"},
		{InterruptedError{Signal: syscall.SIGTERM, Kept: []string{"a.csv as run 2"}}, "interrupted (SIGTERM): stopped after storing a.csv as run 2, which stays; nothing else written"},
		{InterruptedError{Signal: syscall.SIGINT, Done: true, Kept: []string{"a.csv as run 2"}}, "interrupted (SIGINT) as it finished: its work is complete"},
		{InterruptedError{Signal: syscall.SIGINT, Kept: []string{"run 1's re-made verdict", "run 2's re-made verdict"}}, "interrupted (SIGINT): stopped after storing run 1's re-made verdict, run 2's re-made verdict, which stay; nothing else written"},
		{InterruptedError{Signal: syscall.SIGINT, Kept: []string{"run 1's", "run 2's", "run 3's", "run 4's", "run 5's", "run 6's"}}, "interrupted (SIGINT): stopped after storing run 1's, run 2's, 3 more, and run 6's, which stay;"},
	} {
		if got := c.e.Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("got %q, want %q…", got, c.want)
		}
	}
}

// TestStuckSaysKept: a command ended by the grace after a signal (blocked
// in a read, or in the database's close) says the runs it committed
// before, exit 130. An ingest interrupted as SQLite checkpointed its
// large run inside the commit once ended so, saying "nothing
// half-written" of a run it had stored.
func TestStuckSaysKept(t *testing.T) {
	kept := &keptList{}
	io := &IOStreams{kept: kept}
	io.keep("big.csv as run 2")
	var stderr strings.Builder
	code, release := endStuck(&InterruptedError{Signal: syscall.SIGINT}, nil, kept, &stderr)
	release()
	want := "profan: interrupted (SIGINT): stopped after storing big.csv as run 2, which stays"
	if code != 130 || !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("exit %d, %q; want exit 130 and %q…", code, stderr.String(), want)
	}
}
