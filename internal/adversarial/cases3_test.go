package adversarial

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// connectionCases name a PostgreSQL server that is not there in every form
// libpq and pgx take, with a password, in --db and in PROFAN_DB: each is
// refused (no server), says which server, never shows the password, and
// makes no SQLite file of its name.
func connectionCases(fs []*fixture) []*tcase {
	const cat = "Connection strings"
	det := abs(fx(fs, "ncu-details").path)
	dsns := []struct{ name, dsn string }{
		{"keyword string", "host=127.0.0.1 port=1 user=ci password=hunter2 dbname=p connect_timeout=2"},
		{"keyword string, quoted password", "host=127.0.0.1 port=1 user=ci password='hunter2 x\\'y' dbname=p connect_timeout=2"},
		{"keyword string, spaces around =", "host = 127.0.0.1 port = 1 password = hunter2 connect_timeout = 2"},
		{"keyword string, unterminated quote", "host=127.0.0.1 port=1 password='hunter2"},
		{"upper case URL", "POSTGRES://ci:hunter2@127.0.0.1:1/p?connect_timeout=2"},
		{"mixed case URL, password parameter", "PostgreSQL://ci@127.0.0.1:1/p?password=hunter2&sslpassword=hunter2&connect_timeout=2"},
	}
	commands := [][]string{{"ingest", det}, {"runs"}, {"trend", "--kernel", "x", "--metric", "duration"}, {"gate", "--run", "1"}, {"migrate"}}
	check := func(e *env, r *result) string {
		if bytes.Contains(r.stdout, []byte("hunter2")) || bytes.Contains(r.stderr, []byte("hunter2")) {
			return "a message shows the password"
		}
		if !bytes.Contains(r.stderr, []byte("127.0.0.1")) {
			return "the error names no server: " + firstLine(r.stderr)
		}
		entries, _ := os.ReadDir(e.dir)
		for _, de := range entries {
			if n := de.Name(); strings.Contains(n, "host") || strings.Contains(strings.ToLower(n), "postgres") {
				return "made a file named " + strconv.Quote(n)
			}
		}
		return ""
	}
	var cs []*tcase
	for _, d := range dsns {
		for _, c := range commands {
			name := d.name + ": " + c[0]
			cs = append(cs,
				&tcase{cat: cat, name: name + " --db", codes: "2", check: check,
					prep: func(e *env) []string { return append(append([]string(nil), c...), "--db", d.dsn) }},
				&tcase{cat: cat, name: name + " with PROFAN_DB", codes: "2", check: check, env: []string{"PROFAN_DB=" + d.dsn},
					prep: func(e *env) []string { return append([]string(nil), c...) }})
		}
	}
	return cs
}

// nested is a mangled name whose template arguments nest n deep: the
// demangler recurses once per level, its work grows with n squared.
func nested(n int, tail string) string {
	return "_Z1fI" + strings.Repeat("1AI", n) + "i" + strings.Repeat("E", n+1) + "vv" + tail
}

// bombCases give the readers mangled names built to exhaust a demangler:
// nested megabytes deep, many distinct ones of the largest size it
// demangles, long flat ones; in a trace and on a details page. Each reads
// (the names kept raw past the bounds, with a note) within the time and
// memory every case is held to.
func bombCases(fs []*fixture) []*tcase {
	const cat = "Name bombs"
	tr := fx(fs, "nvprof-trace")
	det := fx(fs, "ncu-details")
	const trName = "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)"
	trace := func(names ...string) []byte {
		var b strings.Builder
		b.WriteString(join(tr.lines[:tr.hdr+2]))
		row := tr.lines[tr.rows[3]]
		for _, n := range names {
			b.WriteString(strings.Replace(row, trName, n, 1))
		}
		return []byte(b.String())
	}
	many := func(n, depth int) []string {
		var out []string
		for i := range n {
			out = append(out, nested(depth, strconv.Itoa(i)))
		}
		return out
	}
	flat := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, "_Z1fI"+strings.Repeat("1"+string(rune('a'+i%26)), 15000)+strconv.Itoa(i)+"Evv")
		}
		return out
	}
	inputs := []struct {
		name string
		data func() []byte
	}{
		{"a 4 MB nested name", func() []byte { return trace(nested(4<<20/4-64, "")) }},
		{"a 1 MB nested name", func() []byte { return trace(nested(1<<20/4, "")) }},
		{"a 30 kB nested name", func() []byte { return trace(nested(30<<10/4, "")) }},
		{"300 distinct 30 kB nested names", func() []byte { return trace(many(300, 30<<10/4)...) }},
		{"500 distinct 4 kB nested names", func() []byte { return trace(many(500, 1000)...) }},
		{"100 flat 30 kB names", func() []byte { return trace(flat(100)...) }},
		{"a 64 kB nested name on a details page", func() []byte {
			return []byte(strings.ReplaceAll(det.text, "offsetCopy(float *, const float *, int)", nested(16<<10, "")))
		}},
	}
	var cs []*tcase
	for _, in := range inputs {
		for _, args := range [][]string{{"analyze", "big.csv"}, {"ingest", "--db", "db", "big.csv"}, {"gate", "big.csv"}} {
			cs = append(cs, &tcase{cat: cat, name: in.name + ": " + args[0], codes: "01", heavy: true,
				prep: func(e *env) []string { e.write("big.csv", in.data()); return append([]string(nil), args...) }})
		}
	}
	return cs
}

// metricFloodCases give one launch more distinct metric names than a raw
// page's row may hold (refused at the row past the bound, the database
// unchanged), and one just under it (read within the memory bound).
func metricFloodCases(fs []*fixture) []*tcase {
	const cat = "Per-kernel metric floods"
	det := fx(fs, "ncu-details")
	nv := fx(fs, "nvprof-metrics")
	flood := func(f *fixture, n int) func() []byte {
		return func() []byte {
			at := f.first()
			row := f.lines[at]
			// The row's metric name is its 13th field on a details page,
			// its 4th in an nvprof metrics table.
			field := 12
			if f == nv {
				field = 3
			}
			rec, err := csv.NewReader(strings.NewReader(row)).Read()
			if err != nil || len(rec) <= field {
				panic(setupError{fmt.Errorf("%s: row %q: %v", f.name, row, err)})
			}
			metric := `"` + rec[field] + `"`
			var b strings.Builder
			b.WriteString(join(f.lines[:at+1]))
			for i := range n {
				b.WriteString(strings.Replace(row, metric, `"flood_metric_`+strconv.Itoa(i)+`"`, 1))
			}
			b.WriteString(join(f.lines[at+1:]))
			return []byte(b.String())
		}
	}
	var cs []*tcase
	for _, f := range []*fixture{det, nv} {
		for _, c := range []struct {
			what  string
			n     int
			codes string
		}{{"70,000 distinct metrics in one launch", 70000, "2"}, {"60,000 distinct metrics in one launch", 60000, "0"}} {
			if f == det && c.codes == "0" {
				// A details page's launches have one shape: one launch
				// of 60,000 more rows is refused as the others cut.
				c.codes = "2"
			}
			for _, args := range [][]string{{"analyze", "big.csv"}, {"ingest", "--db", "db", "big.csv"}} {
				tc := &tcase{cat: cat, name: f.name + ": " + c.what + ": " + args[0], codes: c.codes, heavy: true, dbKeep: true,
					prep: func(e *env) []string { e.write("big.csv", flood(f, c.n)()); return append([]string(nil), args...) }}
				if c.codes == "2" {
					tc.fileLine = "big.csv"
				}
				if c.n > 65536 {
					tc.errHas = "distinct metrics in one kernel launch"
				}
				cs = append(cs, tc)
			}
		}
	}
	return cs
}

// injections are names and labels that a spreadsheet runs as a formula or
// a GitHub Actions log as a workflow command.
var injections = []struct{ name, s string }{
	{"=HYPERLINK", `=HYPERLINK("https://x.example","y")`},
	{"+cmd", `+cmd|' /C calc'!A0`},
	{"-2+3", `-2+3+cmd|'x'!A0`},
	{"@SUM", `@SUM(1+1)*cmd|'x'!A0`},
	{"::error", `::error title=pwned::forged`},
	{"::stop-commands", `::stop-commands::tok`},
	{"::add-mask", `::add-mask::secret`},
	{"##[error]", `##[error]forged`},
	{"tab then formula", "\t=1+1"},
}

// ciChecks returns what an output does that a spreadsheet or a CI log
// would run: a CSV cell (not a number) that starts a formula, a line that
// starts a workflow command (but the GitHub format's own annotations), a
// v1 command anywhere in a line.
func ciChecks(out []byte, csvOut, github bool) string {
	for _, l := range strings.Split(string(out), "\n") {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "::") {
			if github && (strings.HasPrefix(t, "::error ") || strings.HasPrefix(t, "::warning ") || strings.HasPrefix(t, "::notice ")) {
				continue
			}
			return "a line starts a workflow command: " + strconv.Quote(firstLine([]byte(t)))
		}
		if strings.Contains(l, "##[") && !github {
			return "a line holds a ##[ command: " + strconv.Quote(firstLine([]byte(t)))
		}
	}
	if csvOut {
		recs, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil {
			return "the CSV does not parse: " + err.Error()
		}
		for _, r := range recs {
			for _, c := range r {
				if _, err := strconv.ParseFloat(c, 64); err == nil || c == "" {
					continue
				}
				if strings.ContainsRune("=+-@\t\r", rune(c[0])) {
					return "a CSV cell starts a formula: " + strconv.Quote(c)
				}
			}
		}
	}
	return ""
}

// injectionCases put each injection at the start of a kernel name and of
// a label, and read them back in every output a spreadsheet or a CI log
// reads: analyze and gate in their text formats, trend as text and CSV,
// runs, diff, and the GitHub format (whose own annotations are the only
// workflow commands).
func injectionCases(fs []*fixture) []*tcase {
	const cat = "Spreadsheet and CI-log injection"
	det := fx(fs, "ncu-details")
	var cs []*tcase
	for _, inj := range injections {
		named := []byte(strings.ReplaceAll(det.text, `"offsetCopy(`, `"`+strings.ReplaceAll(inj.s, `"`, `""`)+`offsetCopy(`))
		check := func(args []string) func(e *env, r *result) string {
			return func(e *env, r *result) string {
				if b, err := os.ReadFile(e.path("ingest-failed")); err == nil {
					return "ingest failed: " + firstLine(b)
				}
				csvOut := strings.Contains(strings.Join(args, " "), "--format csv")
				github := strings.Contains(strings.Join(args, " "), "--format github")
				if s := ciChecks(r.stdout, csvOut, github); s != "" {
					return "stdout: " + s
				}
				if s := ciChecks(r.stderr, false, false); s != "" {
					return "stderr: " + s
				}
				return ""
			}
		}
		for _, args := range [][]string{
			{"analyze", "in.csv"}, {"analyze", "-v", "in.csv"}, {"analyze", "--format", "markdown", "in.csv"},
			{"gate", "in.csv", "--fail-on", "*"}, {"gate", "in.csv", "--fail-on", "*", "--format", "junit"},
			{"gate", "in.csv", "--fail-on", "*", "--format", "markdown"}, {"gate", "in.csv", "--fail-on", "*", "--format", "github"},
			{"diff", "in.csv", abs(det.path)},
		} {
			cs = append(cs, &tcase{cat: cat, name: inj.name + " in a kernel name: " + strings.Join(args, " "), codes: "01",
				prep:  func(e *env) []string { e.write("in.csv", named); return append([]string(nil), args...) },
				check: check(args)})
		}
		key := strings.NewReplacer("=", "", "\t", "").Replace(inj.s)
		if key == "" || strings.TrimSpace(key) == "" {
			key = "k"
		}
		prepDB := func(e *env) {
			e.write("in.csv", named)
			for _, in := range []string{"in.csv", abs(det.path)} {
				r := runProfan(e.dir, []string{"ingest", "--db", "db", "--label", "note=" + inj.s, "--label", key + "=v", in}, nil)
				if r.code != 0 {
					e.write("ingest-failed", r.stderr)
				}
			}
		}
		for _, args := range [][]string{
			{"runs", "--db", "db"},
			{"trend", "--db", "db", "--kernel", ".", "--metric", "duration"},
			{"trend", "--db", "db", "--kernel", ".", "--metric", "duration", "--format", "csv"},
			{"diff", "--db", "db", "1", "2"},
			{"gate", "--db", "db", "--run", "1", "--fail-on", "*"},
			{"gate", "--db", "db", "--run", "1", "--fail-on", "*", "--format", "github"},
		} {
			cs = append(cs, &tcase{cat: cat, name: fmt.Sprintf("%s stored: %s", inj.name, strings.Join(args, " ")), codes: "01",
				prep:  func(e *env) []string { prepDB(e); return append([]string(nil), args...) },
				check: check(args)})
		}
	}
	return cs
}

// writeCases give a database that is no file, an export refused into a
// database not made yet, and a report that fails over an older one: none
// writes a database or a file it should not, or cuts one.
func writeCases(fs []*fixture) []*tcase {
	const cat = "Writes"
	det := fx(fs, "ncu-details")
	in := abs(det.path)
	var cs []*tcase
	for _, p := range []string{"/dev/stdout", "/dev/null", "/dev/stdin", "/proc/self/fd/1", "."} {
		for _, args := range [][]string{{"ingest", in}, {"runs"}, {"migrate"}} {
			cs = append(cs, cmdCase(cat, "--db "+p+": "+args[0], "2", "give the path of a database file", nil, append(append([]string(nil), args...), "--db", p)...))
		}
	}
	noDB := func(e *env, r *result) string {
		if _, err := os.Stat(e.path("new.db")); err == nil {
			return "a refused ingest made new.db"
		}
		return ""
	}
	cut := []byte(det.text[:len(det.text)-5])
	cs = append(cs,
		&tcase{cat: cat, name: "a cut export into a database not made yet", codes: "2", fileLine: "cut.csv", check: noDB,
			prep: func(e *env) []string { e.write("cut.csv", cut); return []string{"ingest", "--db", "new.db", "cut.csv"} }},
		&tcase{cat: cat, name: "a good and a cut export into a database not made yet", codes: "2", fileLine: "cut.csv", check: noDB,
			prep: func(e *env) []string {
				e.write("cut.csv", cut)
				return []string{"ingest", "--db", "new.db", in, "cut.csv"}
			}},
		&tcase{cat: cat, name: "a report that fails keeps the older one", codes: "2",
			check: func(e *env, r *result) string {
				if b, _ := os.ReadFile(e.path("out.html")); string(b) != "old" {
					return fmt.Sprintf("out.html is now %d bytes", len(b))
				}
				return ""
			},
			prep: func(e *env) []string {
				e.write("out.html", []byte("old"))
				e.write("cut.csv", cut)
				return []string{"report", "cut.csv", "--html", "out.html"}
			}},
	)
	return cs
}
