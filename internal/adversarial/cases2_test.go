package adversarial

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// allCases builds every case of the trial.
func allCases(t *testing.T) []*tcase {
	fs := loadFixtures(t)
	base := baseDB(t)
	var cs []*tcase
	cs = append(cs, issueCases(fs, base)...)
	cs = append(cs, structureCases(fs)...)
	cs = append(cs, unitCases(fs)...)
	cs = append(cs, floodCases(fs)...)
	cs = append(cs, escapeCases(fs)...)
	cs = append(cs, dbCases(fs, base)...)
	cs = append(cs, concurrencyCases(fs)...)
	cs = append(cs, flagCases(fs, base)...)
	cs = append(cs, captureCases(fs, base)...)
	cs = append(cs, connectionCases(fs)...)
	cs = append(cs, bombCases(fs)...)
	cs = append(cs, metricFloodCases(fs)...)
	cs = append(cs, injectionCases(fs)...)
	cs = append(cs, writeCases(fs)...)
	cs = append(cs, traceCases(t, fs, base)...)
	cs = append(cs, thresholdCases()...)
	cs = append(cs, dbErrorCases(base)...)
	cs = append(cs, startCases(base)...)
	cs = append(cs, signalCases(t, base)...)
	cs = append(cs, stalledPipeCases(base)...)
	cs = append(cs, countedCases(t, fs, base)...)
	cs = append(cs, randomCases(fs, 550, base)...)
	return cs
}

var baseOnce struct {
	sync.Once
	b []byte
}

// baseDB is a run database holding one run (copy.details.csv), as bytes.
func baseDB(t *testing.T) []byte {
	baseOnce.Do(func() {
		dir := t.TempDir()
		in, _ := filepath.Abs(filepath.Join(repo, "fixtures/ncu/copy.details.csv"))
		r := runProfan(dir, []string{"ingest", "--db", "db", "--label", "branch=main", in}, nil)
		if r.code != 0 {
			t.Fatalf("making the base database: %s", r.stderr)
		}
		baseOnce.b, _ = os.ReadFile(filepath.Join(dir, "db"))
	})
	return baseOnce.b
}

func fx(fs []*fixture, name string) *fixture {
	for _, f := range fs {
		if f.name == name {
			return f
		}
	}
	panic(name)
}

func abs(p string) string {
	a, _ := filepath.Abs(filepath.Join(repo, p))
	return a
}

// cmdCase runs args (after prep writes what it needs) with the codes
// allowed and, for exit 2, a message that must be said.
func cmdCase(cat, name string, codes, errHas string, prep func(e *env), args ...string) *tcase {
	return &tcase{cat: cat, name: name, codes: codes, errHas: errHas,
		prep: func(e *env) []string {
			if prep != nil {
				prep(e)
			}
			return append([]string(nil), args...)
		}}
}

// issueCases are the cases the first trial found, one or more per cause.
func issueCases(fs []*fixture, base []byte) []*tcase {
	const cat = "Issue's list"
	copyD := abs("fixtures/ncu/copy.details.csv")
	saxpy := abs("fixtures/ncu/saxpy.details.csv")
	trace := fx(fs, "nvprof-trace")
	details := fx(fs, "ncu-details")
	var cs []*tcase
	one := func(e *env) []byte {
		// A one-launch page: the first launch of copy.details.csv.
		f := details
		end := 0
		for i, l := range f.lines {
			if i > f.hdr && strings.HasPrefix(l, `"1",`) {
				end = i
				break
			}
		}
		return []byte(join(f.lines[:end]))
	}
	cs = append(cs,
		&tcase{cat: cat, name: "two one-launch captures of one kernel appended are two launches", codes: "0",
			prep: func(e *env) []string {
				a, _ := os.ReadFile(abs("fixtures/ncu/saxpy.metrics.details.csv"))
				b, _ := os.ReadFile(abs("fixtures/ncu-h100/saxpy.metrics.details.csv"))
				e.write("ab.csv", append(a, b...))
				return []string{"analyze", "--format", "json", "--launches", "ab.csv"}
			},
			check: func(e *env, r *result) string { return kernelsWant(r, 2) }},
		&tcase{cat: cat, name: "a trace after a details page is read", codes: "0",
			prep: func(e *env) []string {
				e.write("dt.csv", []byte(details.text+trace.text))
				return []string{"analyze", "--format", "json", "--launches", "dt.csv"}
			},
			check: func(e *env, r *result) string {
				return kernelsWant(r, countKernels(runProfan(e.dir, []string{"analyze", "--format", "json", "--launches", abs(details.path)}, nil))+
					countKernels(runProfan(e.dir, []string{"analyze", "--format", "json", "--launches", abs(trace.path)}, nil)))
			}},
		&tcase{cat: cat, name: "the same file twice is read once", codes: "0",
			prep:  func(e *env) []string { return []string{"analyze", "--format", "json", "--launches", copyD, copyD} },
			check: func(e *env, r *result) string { return kernelsWant(r, 9) }},
		&tcase{cat: cat, name: "a file and a symbolic link to it are read once", codes: "0",
			prep: func(e *env) []string {
				os.Symlink(copyD, e.path("link.csv"))
				return []string{"analyze", "--format", "json", "--launches", copyD, "link.csv"}
			},
			check: func(e *env, r *result) string { return kernelsWant(r, 9) }},
		&tcase{cat: cat, name: "plain, gzip, CRLF, BOM and UTF-16 copies are stored as one run", codes: "0",
			prep: func(e *env) []string {
				e.write("p.csv", []byte(details.text))
				e.write("g.csv.gz", gz([]byte(details.text)))
				e.write("c.csv", []byte(strings.ReplaceAll(details.text, "\n", "\r\n")))
				e.write("b.csv", []byte("\xEF\xBB\xBF"+details.text))
				e.write("u.csv", utf16Of(details.text, binary.LittleEndian, true))
				return []string{"ingest", "--db", "db", "p.csv", "g.csv.gz", "c.csv", "b.csv", "u.csv"}
			},
			check: func(e *env, r *result) string { return runsWant(e, 1) }},
		&tcase{cat: cat, name: "a one-launch page concatenated with itself is refused", codes: "2", errHas: "",
			prep: func(e *env) []string {
				o := one(e)
				// The same capture (same process) twice: cat a.csv a.csv.
				e.write("aa.csv", append(append([]byte(nil), o...), o...))
				return []string{"analyze", "aa.csv"}
			}},
		cmdCase(cat, "config /dev/zero", "2", "larger than", nil, "analyze", copyD, "--config", "/dev/zero"),
		cmdCase(cat, "--db ''", "2", "empty value", nil, "runs", "--db", ""),
		cmdCase(cat, "--fail-on ',,,'", "2", "empty value", nil, "gate", copyD, "--fail-on", ",,,"),
		cmdCase(cat, "--max-regression ''", "2", "empty value", nil, "gate", copyD, "--max-regression", ""),
		cmdCase(cat, "duplicate label keys", "2", "given twice", nil, "ingest", "--db", "db", "--label", "a=1", "--label", "a=2", copyD),
		cmdCase(cat, "a label key over 1 kB", "2", "", nil, "ingest", "--db", "db", "--label", strings.Repeat("k", 2800)+"=1", copyD),
		cmdCase(cat, "a [[require]] matching no kernel", "2", "matches no kernel", func(e *env) {
			e.write("req.toml", []byte("[[require]]\nmetric = \"duration\"\nop = \"<\"\nvalue = \"1s\"\nkernel = \"nosuchkernel\"\n"))
		}, "gate", copyD, "--config", "req.toml"),
		cmdCase(cat, "a blank suppression reason", "2", "no reason", func(e *env) {
			e.write("s.toml", []byte("[[suppress]]\nrule = \"memory-bound\"\nreason = \"  \"\n"))
		}, "analyze", copyD, "--config", "s.toml"),
		&tcase{cat: cat, name: "runs never migrates an older schema", codes: "2", errHas: "profan migrate", dbKeep: true,
			prep: func(e *env) []string {
				e.write("db", base)
				sqlExec(e, "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)")
				return []string{"runs", "--db", "db"}
			}},
		&tcase{cat: cat, name: "ingest into a foreign SQLite database is refused, unchanged", codes: "2", dbKeep: true,
			prep: func(e *env) []string {
				sqlExec(e, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users(name) VALUES ('ann')")
				return []string{"ingest", "--db", "db", copyD}
			}},
		&tcase{cat: cat, name: "a PostgreSQL password in ?password= is not printed", codes: "2",
			prep: func(e *env) []string {
				return []string{"runs", "--db", "postgres://user:secret1@127.0.0.1:1/x?password=secret2&sslmode=disable&connect_timeout=2"}
			},
			check: func(e *env, r *result) string {
				if bytes.Contains(r.stderr, []byte("secret")) || bytes.Contains(r.stdout, []byte("secret")) {
					return "a password is printed: " + firstLine(r.stderr)
				}
				return ""
			}},
		&tcase{cat: cat, name: "a PostgreSQL password in a keyword string is not printed", codes: "2",
			prep: func(e *env) []string {
				return []string{"runs", "--db", "postgres://127.0.0.1:1/x?user=u&password=secret3&connect_timeout=2"}
			},
			check: func(e *env, r *result) string {
				if bytes.Contains(r.stderr, []byte("secret")) {
					return "a password is printed: " + firstLine(r.stderr)
				}
				return ""
			}},
		cmdCase(cat, "--html onto an input is refused", "2", "", nil, "report", saxpy, "--html", saxpy),
		&tcase{cat: cat, name: "--html onto the database is refused, unchanged", codes: "2", dbKeep: true,
			prep: func(e *env) []string { e.write("db", base); return []string{"report", "--db", "db", "--html", "db"} }},
	)
	return cs
}

func kernelsWant(r *result, n int) string {
	if got := countKernels(r); got != n {
		return fmt.Sprintf("%d kernels, want %d", got, n)
	}
	return ""
}

func countKernels(r *result) int {
	var doc struct {
		Kernels []json.RawMessage `json:"kernels"`
	}
	if json.Unmarshal(r.stdout, &doc) != nil {
		return -1
	}
	return len(doc.Kernels)
}

func runsWant(e *env, n int) string {
	r := runProfan(e.dir, []string{"runs", "--db", "db", "--format", "json"}, nil)
	var runs []json.RawMessage
	if err := json.Unmarshal(r.stdout, &runs); err != nil {
		var doc map[string][]json.RawMessage
		if json.Unmarshal(r.stdout, &doc) == nil {
			for _, v := range doc {
				runs = v
			}
		}
	}
	if len(runs) != n {
		return fmt.Sprintf("%d runs stored, want %d (%s)", len(runs), n, firstLine(r.stderr))
	}
	return ""
}

func sqlExec(e *env, q string) {
	db, err := sql.Open("sqlite3", e.db)
	if err != nil {
		panic(setupError{err})
	}
	defer db.Close()
	if _, err := db.Exec(q); err != nil {
		panic(setupError{fmt.Errorf("%s: %w", q, err)})
	}
}

// replaceField returns line with field i (0-based) replaced by v, quoted
// as the line quotes.
func replaceField(line string, i int, v string) string {
	ends := fieldEnds(strings.TrimRight(line, "\n"))
	row := strings.TrimRight(line, "\n")
	s := 0
	if i > 0 {
		s = ends[i-1] + 1
	}
	e := len(row)
	if i < len(ends) {
		e = ends[i]
	}
	if strings.HasPrefix(row[s:e], `"`) {
		v = `"` + v + `"`
	}
	return row[:s] + v + row[e:] + "\n"
}

// unitCases replace the units and values of metrics whose names say what
// they measure.
func unitCases(fs []*fixture) []*tcase {
	const cat = "Units and numbers"
	var cs []*tcase
	b, _ := os.ReadFile(abs("fixtures/ncu/copy.metrics.details.csv"))
	md := &fixture{name: "ncu-details-metrics", text: string(b)}
	md.lines = strings.SplitAfter(md.text, "\n")
	md.lines = md.lines[:len(md.lines)-1]
	find := func(f *fixture, sub string) int {
		for i, l := range f.lines {
			if strings.Contains(l, sub) {
				return i
			}
		}
		panic(sub)
	}
	dur := find(md, `"gpu__time_duration.sum","ns","12,448"`)
	byt := find(md, `"dram__bytes_read.sum","byte","16,780,288"`)
	set := func(i int, unit, value string) []byte {
		l := replaceField(md.lines[i], 13, unit)
		return []byte(md.with(i, replaceField(l, 14, value)))
	}
	for _, u := range []struct{ unit, value, oracle string }{
		{"us", "12.448", same}, {"usecond", "12.448", same}, {"ms", "0.012448", same}, {"msecond", "0.012448", same},
		{"s", "0.000012448", same}, {"second", "1.2448e-05", same}, {"nsecond", "12448", same}, {"ns", "12,448.000", same},
		{"ns", "1.2448e+04", same}, {"ns", "12448", same},
		{"furlong", "12,448", refused}, {"Tbyte/ms", "12,448", refused}, {"", "12,448", refused}, {"%", "12,448", refused},
		{"byte", "12,448", refused}, {"cycle", "12,448", refused}, {"ns/byte", "12,448", refused}, {"NS", "12,448", sameOrRefused},
		{"ns", "0x1p3", refused}, {"ns", "1_000", refused}, {"ns", "1.2.3", refused}, {"ns", "abc", refused}, {"ns", "12 448", refused},
		{"ns", "١٢", refused}, {"ns", "１２", refused}, {"ns", "--1", refused}, {"ns", "1e", refused}, {"ns", "e5", refused},
		{"ns", "-1", refused}, {"ns", "-0.5", refused}, {"ns", "+12448", sameOrRefused}, {"ns", "12448.", sameOrRefused},
		{"ns", "nan", anyOutcome}, {"ns", "NaN", anyOutcome}, {"ns", "inf", anyOutcome}, {"ns", "-inf", anyOutcome},
		{"ns", "1e400", anyOutcome}, {"ns", "n/a", anyOutcome}, {"ns", "", anyOutcome}, {"ns", "12,44,8", sameOrRefused},
		{"ns", "1,2448", anyOutcome}, {"ns", "0", anyOutcome}, {"ns", "\u202e12448", refused}, {"ns", "12448\x1b[0m", refused},
	} {
		cs = append(cs, inputCase(cat, fmt.Sprintf("duration %q %q", u.value, u.unit), md, set(dur, u.unit, u.value), u.oracle, intact))
	}
	for _, u := range []struct{ unit, value, oracle string }{
		{"Kbyte", "16,780.288", same}, {"Mbyte", "16.780288", same}, {"Gbyte", "0.016780288", same}, {"byte", "16780288", same},
		{"KB", "16,780.288", sameOrRefused}, {"KiB", "16,387", anyOutcome}, {"%", "16,780,288", refused}, {"", "16,780,288", refused},
		{"furlong", "16,780,288", refused}, {"byte/second", "16,780,288", refused}, {"ns", "16,780,288", refused},
		{"sector", "16,780,288", refused}, {"byte", "-5", refused}, {"byte", "0x10", refused}, {"byte", "1e3", same + "x"},
	} {
		if u.oracle == same+"x" {
			u.oracle = anyOutcome
		}
		cs = append(cs, inputCase(cat, fmt.Sprintf("dram bytes %q %q", u.value, u.unit), md, set(byt, u.unit, u.value), u.oracle, intact))
	}
	// nvprof metrics: every value of a row, every row of a metric, in one
	// kind of unit.
	nm := fx(fs, "nvprof-metrics")
	tp := find(nm, `"gld_requested_throughput"`)
	row := strings.TrimRight(nm.lines[tp], "\n")
	for _, v := range []struct{ avg, oracle string }{
		{"190.706924", refused}, {"190.706924%", refused}, {"190706.924MB/s", same}, {"0.190706924TB/s", same},
		{"190706924KB/s", same}, {"190.706924GB/S", sameOrRefused}, {"190.706924 GB/s", sameOrRefused}, {"190.706924furlong/s", refused},
		{"190.706924B", refused}, {"-190.706924GB/s", refused}, {"0x10GB/s", refused}, {"GB/s", refused},
	} {
		i := strings.LastIndexByte(row, ',')
		cs = append(cs, inputCase(cat, fmt.Sprintf("nvprof throughput average %q", v.avg), nm, []byte(nm.with(tp, row[:i+1]+v.avg+"\n")), v.oracle, intact))
	}
	eff := find(nm, `"branch_efficiency"`)
	for _, v := range []struct{ val, oracle string }{{"100.000000", refused}, {"1.000000GB/s", refused}, {"100.000000%%", refused}, {"1e2%", sameOrRefused}} {
		cs = append(cs, inputCase(cat, fmt.Sprintf("nvprof efficiency average %q", v.val), nm, []byte(nm.with(eff, replaceField(nm.lines[eff], 7, v.val))), v.oracle, intact))
	}
	// nvprof trace: the units row.
	tr := fx(fs, "nvprof-trace")
	units := strings.TrimRight(tr.lines[tr.hdr+1], "\n")
	for _, v := range []struct{ unit, oracle string }{{"", refused}, {"furlong", refused}, {"%", refused}, {"KB", refused}, {"MS", sameOrRefused}} {
		cs = append(cs, inputCase(cat, fmt.Sprintf("nvprof trace Duration unit %q", v.unit), tr, []byte(tr.with(tr.hdr+1, replaceField(units, 1, v.unit))), v.oracle, intact))
	}
	for _, v := range []struct{ val, oracle string }{{"0x1p3", refused}, {"1_000", refused}, {"-1.0", refused}, {"nan", anyOutcome}, {"1.028854e0", same}} {
		i := tr.first()
		cs = append(cs, inputCase(cat, fmt.Sprintf("nvprof trace Duration %q", v.val), tr, []byte(tr.with(i, replaceField(tr.lines[i], 1, v.val))), v.oracle,
			tr.with(i, replaceField(tr.lines[i], 1, "1.028854"))))
	}
	// ncu raw: the units row.
	rw := fx(fs, "ncu-raw")
	hdr := strings.Split(strings.TrimRight(rw.lines[rw.hdr], "\n"), `","`)
	col := -1
	for i, h := range hdr {
		if strings.Trim(h, `"`) == "gpu__time_duration.sum" {
			col = i
		}
	}
	if col > 0 {
		for _, v := range []struct{ unit, oracle string }{{"furlong", refused}, {"Tbyte/ms", refused}, {"", refused}, {"%", refused}, {"usecond", anyOutcome}} {
			cs = append(cs, inputCase(cat, fmt.Sprintf("ncu raw duration unit %q", v.unit), rw, []byte(rw.with(rw.hdr+1, replaceField(rw.lines[rw.hdr+1], col, v.unit))), v.oracle, intact))
		}
	}
	return cs
}

// floodCases are huge and endless inputs: each ends with an error soon, in
// bounded memory.
func floodCases(fs []*fixture) []*tcase {
	const cat = "Floods and huge inputs"
	det := fx(fs, "ncu-details")
	tr := fx(fs, "nvprof-trace")
	var cs []*tcase
	endless := func(chunk []byte) func(w io.Writer) {
		return func(w io.Writer) {
			for {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}
	blank := bytes.Repeat([]byte("\n"), 1<<16)
	for _, cmd := range [][]string{
		{"analyze", "/dev/stdin"}, {"ingest", "--db", "db", "/dev/stdin"}, {"report", "--html", "out.html", "/dev/stdin"},
		{"gate", "/dev/stdin"}, {"diff", "/dev/stdin", abs(det.path)},
	} {
		name := strings.Join(cmd[:1], " ")
		for _, s := range []struct {
			what  string
			chunk []byte
		}{
			{"yes ''", blank},
			{"yes 'a,b'", bytes.Repeat([]byte("a,b\n"), 1<<14)},
			{"==PROF== messages", bytes.Repeat([]byte("==PROF== Connected to process 1 (/x)\n"), 1<<12)},
			{"NUL bytes", make([]byte, 1<<16)},
			{"one endless line", bytes.Repeat([]byte("y"), 1<<16)},
			{"endless rows after a header", append([]byte(strings.Join(det.lines[:det.hdr+1], "")), bytes.Repeat([]byte(`"","","","","","","","","","","","","","",""`+"\n"), 1<<12)...)},
		} {
			if s.what == "endless rows after a header" {
				// The header comes once; the rows follow without end.
				head := []byte(join(det.lines[:det.hdr+1]))
				rows := bytes.Repeat([]byte("\"x\"\n"), 1<<12)
				cs = append(cs, &tcase{cat: cat, name: name + ": " + s.what, codes: "2", heavy: true, dbKeep: true,
					prep: func(e *env) []string { return append([]string(nil), cmd...) },
					stdin: func(w io.Writer) {
						if _, err := w.Write(head); err != nil {
							return
						}
						endless(rows)(w)
					}})
				continue
			}
			cs = append(cs, &tcase{cat: cat, name: name + ": " + s.what, codes: "2", heavy: true, dbKeep: true,
				prep:  func(e *env) []string { return append([]string(nil), cmd...) },
				stdin: endless(s.chunk)})
		}
		for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
			args := append([]string(nil), cmd...)
			for i := range args {
				if args[i] == "/dev/stdin" {
					args[i] = dev
				}
			}
			cs = append(cs, &tcase{cat: cat, name: name + " " + dev, codes: "2", heavy: true, dbKeep: true,
				prep: func(e *env) []string { return append([]string(nil), args...) }})
		}
	}
	big := func(name string, oracle string, make func() []byte) {
		cs = append(cs, &tcase{cat: cat, name: name, codes: oracle, heavy: true,
			prep: func(e *env) []string { e.write("big.csv", make()); return []string{"analyze", "big.csv"} }})
	}
	big("30 MB of blank lines before a table", "2", func() []byte { return append(bytes.Repeat([]byte("\n"), 30<<20), det.text...) })
	big("a 50 kB gzip of newlines", "2", func() []byte { return gz(bytes.Repeat([]byte("\n"), 200<<20)) })
	big("a row of 65,537 fields", "2", func() []byte {
		return []byte(join(det.lines[:det.first()]) + strings.Repeat(`"x",`, 1<<16) + "\"x\"\n")
	})
	big("a 5 MB line in a table", "2", func() []byte {
		return []byte(join(det.lines[:det.first()]) + `"` + strings.Repeat("a", 5<<20) + "\"\n")
	})
	big("a 1 MB kernel name", "02", func() []byte {
		return []byte(det.with(det.first(), strings.Replace(det.lines[det.first()], "offsetCopy", strings.Repeat("k", 1<<20), 1)))
	})
	names := func(n int) func() []byte {
		return func() []byte {
			var b strings.Builder
			b.WriteString(join(tr.lines[:tr.hdr+2]))
			row := tr.lines[tr.rows[3]]
			for i := range n {
				b.WriteString(strings.Replace(row, "matrixMulCUDA", fmt.Sprintf("k%d", i), 1))
			}
			return []byte(b.String())
		}
	}
	big("200,000 distinct kernel names", "2", names(200000))
	big("8,000 distinct kernel names", "0", names(8000))
	big("20,000 tables of one row", "02", func() []byte {
		var b strings.Builder
		for range 20000 {
			b.WriteString(join(tr.lines[tr.hdr : tr.hdr+2]))
			b.WriteString(tr.lines[tr.rows[3]])
		}
		return []byte(b.String())
	})
	big("2 million ==PROF== lines then a table", "02", func() []byte {
		return append(bytes.Repeat([]byte("==PROF== Connected to process 1 (/x)\n"), 2<<20), det.text...)
	})
	big("a million commas", "2", func() []byte { return append([]byte(det.text), bytes.Repeat([]byte(","), 1<<20)...) })
	cs = append(cs,
		cmdCase(cat, "a 2 MB config", "2", "larger than", func(e *env) { e.write("big.toml", bytes.Repeat([]byte("# x\n"), 512<<10)) }, "analyze", abs(det.path), "--config", "big.toml"),
		cmdCase(cat, "a 100 kB label value", "02", "", nil, "ingest", "--db", "db", "--label", "k="+strings.Repeat("v", 100<<10), abs(det.path)),
		cmdCase(cat, "a 100 kB kernel regexp", "02", "", nil, "analyze", abs(det.path), "--kernel", strings.Repeat("(a|b)*", 16<<10)),
		cmdCase(cat, "a catastrophic regexp", "02", "", nil, "analyze", abs(det.path), "--kernel", "(a*)*$"),
	)
	return cs
}

var evils = []struct{ name, s string }{
	{"ESC colour", "\x1b[31mred\x1b[0m"},
	{"OSC title with BEL", "\x1b]0;pwned\x07"},
	{"OSC 8 hyperlink", "\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\"},
	{"BEL", "ding\x07"},
	{"RLO", "abc\u202edcba"},
	{"LRI", "x\u2066y\u2069"},
	{"CR", "over\rwrite"},
	{"DEL and C1", "a\x7fb\u009bc"},
	{"markdown link", "[l](javascript:alert(1))"},
	{"HTML script", "<script>alert(1)</script>"},
	{"markdown table pipe", "a | b | c"},
	{"backticks", "`x` ``y``"},
}

// escapeCases put hostile strings in kernel names (an export) and labels
// (a database) and read them back in every format.
func escapeCases(fs []*fixture) []*tcase {
	const cat = "Escapes in names and labels"
	det := fx(fs, "ncu-details")
	var cs []*tcase
	for _, ev := range evils {
		named := []byte(strings.ReplaceAll(det.text, "offsetCopy", "offsetCopy"+strings.ReplaceAll(ev.s, `"`, `""`)))
		check := func(e *env, r *result, markdown bool) string {
			for _, p := range []string{"out.html"} {
				b, err := os.ReadFile(e.path(p))
				if err != nil {
					continue
				}
				if s := rawControl(b); s != "" {
					return p + ": " + s
				}
				if bytes.Contains(b, []byte("<script>alert(1)")) {
					return p + ": a live <script> from a name"
				}
			}
			if markdown && bytes.Contains(r.stdout, []byte("[l](javascript:")) {
				return "a live Markdown link"
			}
			if bytes.Contains(r.stdout, []byte(`href="javascript`)) {
				return "a live javascript: link"
			}
			if bytes.Contains(r.stdout, []byte("<script>alert(1)")) && bytes.Contains(r.stdout, []byte("<html")) {
				return "a live <script> in HTML"
			}
			return ""
		}
		for _, args := range [][]string{
			{"analyze", "in.csv"}, {"analyze", "--format", "json", "--launches", "in.csv"}, {"analyze", "--format", "markdown", "in.csv"},
			{"analyze", "--format", "html", "in.csv"}, {"analyze", "-v", "in.csv"},
			{"gate", "in.csv", "--fail-on", "*"}, {"gate", "in.csv", "--fail-on", "*", "--format", "json"},
			{"gate", "in.csv", "--fail-on", "*", "--format", "junit"}, {"gate", "in.csv", "--fail-on", "*", "--format", "sarif"},
			{"gate", "in.csv", "--fail-on", "*", "--format", "github"},
			{"report", "in.csv", "--html", "out.html"}, {"diff", "in.csv", abs(det.path)},
		} {
			cs = append(cs, &tcase{cat: cat, name: ev.name + " in a kernel name: " + strings.Join(args, " "), codes: "01",
				prep: func(e *env) []string { e.write("in.csv", named); return append([]string(nil), args...) },
				check: func(e *env, r *result) string {
					return check(e, r, slices.Contains(args, "markdown"))
				}})
		}
		// Stored: a label and a kernel name, read back from the database.
		prepDB := func(e *env) {
			e.write("in.csv", named)
			r := runProfan(e.dir, []string{"ingest", "--db", "db", "--label", "note=" + ev.s, "--label", "k" + ev.s + "=v", "in.csv"}, nil)
			if r.code != 0 {
				e.write("ingest-failed", r.stderr)
			}
		}
		for _, args := range [][]string{
			{"runs", "--db", "db"}, {"runs", "--db", "db", "--format", "json"},
			{"trend", "--db", "db", "--kernel", "offset", "--metric", "duration"},
			{"trend", "--db", "db", "--kernel", "offset", "--metric", "duration", "--format", "json"},
			{"trend", "--db", "db", "--kernel", "offset", "--metric", "duration", "--format", "csv"},
			{"report", "--db", "db", "--html", "out.html"},
			{"gate", "--db", "db", "--run", "1", "--fail-on", "*", "--format", "github"},
		} {
			cs = append(cs, &tcase{cat: cat, name: ev.name + " stored: " + strings.Join(args, " "), codes: "01",
				prep: func(e *env) []string { prepDB(e); return append([]string(nil), args...) },
				check: func(e *env, r *result) string {
					if b, err := os.ReadFile(e.path("ingest-failed")); err == nil {
						return "ingest failed: " + firstLine(b)
					}
					return check(e, r, false)
				}})
		}
		// In the user's input: paths and flags echoed in errors.
		cs = append(cs,
			cmdCase(cat, ev.name+" in a missing path", "2", "", nil, "analyze", "no"+ev.s+".csv"),
			cmdCase(cat, ev.name+" in a --kernel regexp", "02", "", nil, "analyze", abs(det.path), "--kernel", "("+ev.s),
			cmdCase(cat, ev.name+" in --format", "2", "", nil, "analyze", abs(det.path), "--format", ev.s),
			cmdCase(cat, ev.name+" in --require", "2", "", nil, "gate", abs(det.path), "--require", ev.s+" < 1"),
			cmdCase(cat, ev.name+" in --metric", "2", "", func(e *env) { e.write("db", baseOnce.b) }, "trend", "--db", "db", "--kernel", "x", "--metric", ev.s),
			cmdCase(cat, ev.name+" in --db", "2", "", nil, "runs", "--db", "no"+ev.s+"/x.db"),
			cmdCase(cat, ev.name+" in explain", "2", "", nil, "explain", ev.s),
		)
	}
	return cs
}

// dbCases hand every command a database in a bad state.
func dbCases(fs []*fixture, base []byte) []*tcase {
	const cat = "Database states"
	det := abs(fx(fs, "ncu-details").path)
	saxpy := abs("fixtures/ncu/saxpy.details.csv")
	type state struct {
		name string
		prep func(e *env)
		// read: what a read command must do; write: ingest's.
		read, write string
	}
	rng := rand.New(rand.NewPCG(7, 7))
	states := []state{
		{"missing file", func(e *env) {}, "2", "0"},
		{"empty file", func(e *env) { e.write("db", nil) }, "2", "02"},
		{"a directory", func(e *env) { os.Mkdir(e.db, 0o755) }, "2", "2"},
		{"a text file", func(e *env) { e.write("db", []byte("hello, world\n")) }, "2", "2"},
		{"an export", func(e *env) { b, _ := os.ReadFile(det); e.write("db", b) }, "2", "2"},
		{"a gzip file", func(e *env) { e.write("db", gz(base)) }, "2", "2"},
		{"foreign tables", func(e *env) { sqlExec(e, "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT)") }, "2", "2"},
		{"foreign tables beside profan's", func(e *env) { e.write("db", base); sqlExec(e, "CREATE TABLE users(id INTEGER PRIMARY KEY)") }, "01", "0"},
		{"older schema", func(e *env) {
			e.write("db", base)
			sqlExec(e, "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)")
		}, "2", "02"}, // its tables are already the newer ones: a simulation
		{"newer schema", func(e *env) {
			e.write("db", base)
			sqlExec(e, "INSERT INTO schema_migrations(version, name, applied) VALUES (999, 'future', '2030-01-01T00:00:00Z')")
		}, "2", "2"},
		{"no schema_migrations table", func(e *env) { e.write("db", base); sqlExec(e, "DROP TABLE schema_migrations") }, "2", "2"},
		{"a committed WAL beside it", func(e *env) { walCopy(e, base, "UPDATE runs SET source = source || '.wal'") }, "01", "0"},
		{"a stale journal file", func(e *env) { e.write("db", base); e.write("db-journal", []byte("garbage journal")) }, "012", "02"},
	}
	for i := range 14 {
		off := 0
		switch {
		case i < 3:
			off = i * 16 // the header
		case i < 6:
			off = 4096*(i-2) + rng.IntN(4096)
		default:
			off = rng.IntN(max(1, len(base)))
		}
		n := 1 + rng.IntN(64)
		states = append(states, state{fmt.Sprintf("corrupted: %d bytes at %d", n, off), func(e *env) {
			b := bytes.Clone(base)
			for j := range n {
				if off+j < len(b) {
					b[off+j] ^= byte(0x5a + j)
				}
			}
			e.write("db", b)
		}, "012", "02"})
	}
	for _, frac := range []int{1, 10, 50, 90, 99} {
		states = append(states, state{fmt.Sprintf("truncated to %d%%", frac), func(e *env) {
			e.write("db", base[:len(base)*frac/100])
		}, "012", "02"})
	}
	commands := []struct {
		name  string
		args  []string
		write bool
	}{
		{"ingest", []string{"ingest", "--db", "db", saxpy}, true},
		{"runs", []string{"runs", "--db", "db"}, false},
		{"runs json", []string{"runs", "--db", "db", "--format", "json"}, false},
		{"trend", []string{"trend", "--db", "db", "--kernel", "offset", "--metric", "duration"}, false},
		{"gate", []string{"gate", "--db", "db", "--run", "1"}, false},
		{"diff", []string{"diff", "--db", "db", "1", "1"}, false},
		{"report", []string{"report", "--db", "db", "--html", "out.html"}, false},
	}
	var cs []*tcase
	for _, s := range states {
		for _, c := range commands {
			codes := s.read
			if c.write {
				codes = s.write
			}
			if !c.write && s.name == "missing file" {
				codes = "2"
			}
			cs = append(cs, &tcase{cat: cat, name: s.name + ": " + c.name, codes: codes + "", dbKeep: true,
				prep: func(e *env) []string { s.prep(e); return append([]string(nil), c.args...) },
				check: func(e *env, r *result) string {
					if !c.write && r.code == 0 {
						// A read command creates nothing.
						if _, err := os.Stat(e.db); err != nil && s.name == "missing file" {
							return ""
						}
					}
					if !c.write && s.name == "missing file" {
						if _, err := os.Stat(e.db); err == nil {
							return "a read command created the database"
						}
					}
					return ""
				}})
		}
		// migrate: updates what it can, refuses the rest unchanged.
		cs = append(cs, &tcase{cat: cat, name: s.name + ": migrate", codes: "02", dbKeep: true,
			prep: func(e *env) []string { s.prep(e); return []string{"migrate", "--db", "db"} }})
	}
	return cs
}

// concurrencyCases run many profans on one database at once.
func concurrencyCases(fs []*fixture) []*tcase {
	const cat = "Concurrency"
	var exports []string
	for _, p := range []string{"fixtures/ncu/copy.details.csv", "fixtures/ncu/saxpy.details.csv", "fixtures/ncu/transpose.details.csv",
		"fixtures/ncu/matmul.details.csv", "fixtures/ncu/misc.details.csv", "fixtures/ncu/indirect.details.csv",
		"fixtures/ncu/series_v0.details.csv", "fixtures/ncu/series_v1.details.csv", "fixtures/ncu/series_v2.details.csv",
		"fixtures/ncu/series_v3.details.csv", "fixtures/series6/series6_b1.details.csv", "fixtures/series6/series6_b2.details.csv",
		"fixtures/series6/series6_b3.details.csv", "fixtures/series6/series6_b4.details.csv", "fixtures/series6/series6_b5.details.csv",
		"fixtures/series6/series6_b6.details.csv", "fixtures/ncu/copy.metrics.details.csv", "fixtures/ncu/saxpy.metrics.details.csv",
		"fixtures/ncu/transpose.metrics.details.csv", "fixtures/ncu/matmul.metrics.details.csv"} {
		exports = append(exports, abs(p))
	}
	parallel := func(e *env, argsOf func(i int) []string, n int) []*result {
		rs := make([]*result, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { rs[i] = runProfan(e.dir, argsOf(i), nil) })
		}
		wg.Wait()
		return rs
	}
	allOK := func(rs []*result, want int) string {
		for i, r := range rs {
			if f := generic(r); len(f) > 0 {
				return fmt.Sprintf("process %d: %s", i, strings.Join(f, "; "))
			}
			if r.code != want {
				return fmt.Sprintf("process %d: exit %d: %s", i, r.code, firstLine(r.stderr))
			}
		}
		return ""
	}
	return []*tcase{
		{cat: cat, name: "20 ingests of 20 exports into a new database", heavy: true, custom: func(e *env) string {
			if f := allOK(parallel(e, func(i int) []string { return []string{"ingest", "--db", "db", exports[i]} }, 20), 0); f != "" {
				return f
			}
			return runsWant(e, 20)
		}},
		{cat: cat, name: "20 ingests of one export", heavy: true, custom: func(e *env) string {
			if f := allOK(parallel(e, func(i int) []string { return []string{"ingest", "--db", "db", exports[0]} }, 20), 0); f != "" {
				return f
			}
			return runsWant(e, 1)
		}},
		{cat: cat, name: "20 ingests, every other one of a damaged export", heavy: true, custom: func(e *env) string {
			b, _ := os.ReadFile(exports[0])
			e.write("bad.csv", b[:len(b)/2])
			rs := parallel(e, func(i int) []string {
				if i%2 == 1 {
					return []string{"ingest", "--db", "db", "bad.csv"}
				}
				return []string{"ingest", "--db", "db", exports[i]}
			}, 20)
			for i, r := range rs {
				want := 0
				if i%2 == 1 {
					want = 2
				}
				if r.code != want || len(generic(r)) > 0 {
					return fmt.Sprintf("process %d: exit %d, want %d: %s", i, r.code, want, firstLine(r.stderr))
				}
			}
			return runsWant(e, 10)
		}},
		{cat: cat, name: "10 ingests beside 10 readers", heavy: true, custom: func(e *env) string {
			runProfan(e.dir, []string{"ingest", "--db", "db", exports[19]}, nil)
			rs := parallel(e, func(i int) []string {
				if i%2 == 1 {
					return []string{"runs", "--db", "db", "--format", "json"}
				}
				return []string{"ingest", "--db", "db", exports[i]}
			}, 20)
			if f := allOK(rs, 0); f != "" {
				return f
			}
			return runsWant(e, 11)
		}},
		{cat: cat, name: "20 ingests of 20 exports into a database with WAL", heavy: true, custom: func(e *env) string {
			e.write("db", baseOnce.b)
			sqlExec(e, "PRAGMA journal_mode=WAL")
			if f := allOK(parallel(e, func(i int) []string { return []string{"ingest", "--db", "db", exports[i]} }, 20), 0); f != "" {
				return f
			}
			return runsWant(e, 20) // copy.details.csv is the base's run
		}},
	}
}

// flagCases give every command careless flag values.
func flagCases(fs []*fixture, base []byte) []*tcase {
	const cat = "Flags"
	det := abs(fx(fs, "ncu-details").path)
	var cs []*tcase
	add := func(codes string, args ...string) {
		cs = append(cs, &tcase{cat: cat, name: strings.Join(args, " "), codes: codes, dbKeep: true,
			prep: func(e *env) []string { e.write("db", base); return append([]string(nil), args...) }})
	}
	for _, v := range []string{"", " ", "bogus", "JSON", "text,json", "-"} {
		add("2", "analyze", det, "--format", v)
		add("2", "gate", det, "--format", v)
		add("2", "runs", "--db", "db", "--format", v)
	}
	for _, v := range []string{"", "(", "[", "*", "\\", "(?P<x", "a{99999}"} {
		add("2", "analyze", det, "--kernel", v)
		add("2", "trend", "--db", "db", "--kernel", v, "--metric", "duration")
	}
	// A pattern that matches nothing is a mistake said, as gate says it.
	add("2", "analyze", det, "--kernel", "nosuchkernel")
	// Values outside a flag's type or domain, a flag of one value twice.
	add("2", "gate", "--db", "db", "--run", "latest")
	add("2", "report", "--db", "db", "--run", "latest", "--html", "out.html")
	add("2", "analyze", det, "--top", "99999999999999999999")
	add("2", "runs", "--db", "db", "--db", "other.db")
	add("2", "gate", det, "--min-share", "2x")
	add("2", "gate", det, "--min-share", "150%")
	add("2", "report", "--db", "db", "--html", "out.html", "--x-label", "nosuchkey")
	for _, v := range []string{"", "bogus", "H1000", "ncu", "\t"} {
		add("2", "analyze", det, "--device", v)
	}
	for _, v := range []string{"", "bogus", "nvprof-gputrace", "ncu-raw"} {
		add("2", "analyze", det, "--input-format", v)
	}
	for _, v := range []string{"", "foo", "duration <", "duration < abc", "duration < 1furlong", "nosuch_metric > 1", "duration < 1e999",
		"duration << 1", "duration < -1us", "duration < NaN", "< 1", "duration 1"} {
		add("2", "gate", det, "--require", v)
	}
	add("12", "gate", det, "--require", "gld_efficiency >= 200%")
	for _, v := range []string{",,,", "nosuchrule", " "} {
		add("2", "gate", det, "--fail-on", v)
	}
	add("12", "gate", det, "--fail-on", "*,")
	add("02", "gate", "--db", "db", "--run", "1", "--baseline", "1", "--max-regression", "10") // a bare number is a percentage
	for _, v := range []string{"", "abc", "-5%", "1e999%", "NaN%", "10%%", "%"} {
		add("2", "gate", "--db", "db", "--run", "1", "--baseline", "1", "--max-regression", v)
	}
	for _, v := range []string{"", "abc", "-1%", "200%", "NaN"} {
		add("2", "gate", det, "--min-share", v)
	}
	for _, v := range []string{"-1", "0", "99999", "abc", "1e3", ""} {
		add("2", "gate", "--db", "db", "--run", v)
		codes := "2"
		if v == "0" {
			codes = "02" // the default: the newest run
		}
		add(codes, "report", "--db", "db", "--run", v, "--html", "out.html")
	}
	for _, v := range []string{"", "abc", "-1%", "NaN", "0x1"} {
		add("2", "diff", det, det, "--threshold", v)
	}
	for _, v := range []string{"", "nosuch", "duration duration"} {
		add("2", "trend", "--db", "db", "--kernel", "offset", "--metric", v)
	}
	for _, v := range []string{"abc", "1e99", ""} {
		add("2", "runs", "--db", "db", "--limit", v)
	}
	add("02", "runs", "--db", "db", "--limit", "-1") // no limit
	for _, v := range []string{"=", "a", "a=", "=b", " =1", "a=1=2x"} {
		codes := "2"
		if v == "a=1=2x" || v == "a=" {
			codes = "02"
		}
		add(codes, "runs", "--db", "db", "--label", v)
		add(codes, "ingest", "--db", "db", "--label", v, det)
	}
	for _, v := range []string{"", "-", ".", "/", "/dev/full", "db", det} {
		codes := "2"
		if v == "-" || v == "db" { // db is no database here: --db is not given
			codes = "0"
		}
		add(codes, "report", det, "--html", v)
	}
	add("2", "analyze", "--no-such-flag", det)
	add("2", "analyze")
	add("2", "analyze", "")
	add("2", "analyze", "/")
	add("2", "analyze", "/nonexistent.csv")
	add("2", "ingest", "--db", "db")
	add("2", "diff", det)
	add("2", "diff", det, det, det)
	add("2", "gate")
	add("2", "nosuchcommand")
	add("2", "explain", "nosuchrule")
	add("0", "explain", "--metrics")
	add("0", "version")
	add("2", "model", "--no-such")
	add("2", "analyze", det, "--config", "/nonexistent.toml")
	add("2", "analyze", det, "--config", "/")
	add("2", "analyze", det, "--path-map", "x")
	add("2", "gate", det, "--path-map", "=")
	add("2", "report", det, "--html", "out.html", "--x-label", "")
	add("2", "report", det, "--html", "out.html", "--metric", "")
	add("2", "report", det, "--html", "out.html", "--metric", "nosuch")
	cs = append(cs,
		cmdCase(cat, "a config that is no TOML", "2", "", func(e *env) { e.write("c.toml", []byte("[[[x")) }, "analyze", det, "--config", "c.toml"),
		cmdCase(cat, "a config with an unknown key", "2", "", func(e *env) { e.write("c.toml", []byte("nosuchkey = 1\n")) }, "analyze", det, "--config", "c.toml"),
		cmdCase(cat, "a config of NUL bytes", "2", "", func(e *env) { e.write("c.toml", make([]byte, 100)) }, "analyze", det, "--config", "c.toml"),
		cmdCase(cat, "a config with a negative threshold", "2", "", func(e *env) { e.write("c.toml", []byte("[thresholds]\nmin_share = -1\n")) }, "analyze", det, "--config", "c.toml"),
	)
	return cs
}

// walCopy writes base as {dir}/db with a write-ahead log holding the
// commit of q: a copy taken while the writer still had it open.
func walCopy(e *env, base []byte, q string) {
	src := e.write("live", base)
	db, err := sql.Open("sqlite3", src)
	if err != nil {
		panic(setupError{err})
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; " + q); err != nil {
		panic(setupError{err})
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(src + suffix)
		if err != nil {
			panic(setupError{err})
		}
		e.write("db"+suffix, b)
	}
}
