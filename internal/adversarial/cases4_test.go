package adversarial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/profan-dev/profan/internal/tile"
)

// The fourth round's categories: thresholds in every unit, every
// command's database errors, every way CI starts a process, and signals.

// medianCache holds the medians gate measures on copy.details.csv, per
// kernel and metric, as exact decimals; and the regression of
// series_v0 against series_v1.
var medianCache struct {
	sync.Once
	m     map[string]map[string]string // kernel -> metric -> decimal
	reg   string                       // the largest regression, a decimal fraction
	share string                       // offsetCopy's share of the capture, a decimal fraction
	err   error
}

// thresholdMetrics are the metrics gated at their medians, one of each
// kind: a time, a fraction, a percentage, a rate.
var thresholdMetrics = []string{"duration", "achieved_occupancy", "dram_utilization", "dram_peak_bandwidth"}

// medians measures what the threshold cases gate at, once.
func medians(dir string) (map[string]map[string]string, string, error) {
	c := &medianCache
	c.Do(func() {
		args := []string{"gate", "--format", "json", abs("fixtures/ncu/copy.details.csv"), "--require", "duration >= 0s"}
		for _, m := range thresholdMetrics[1:] {
			args = append(args, "--require", m+" >= 0")
		}
		r := runProfan(dir, args, nil)
		var doc struct {
			Checks []struct {
				Kernel, Kind, Metric string
				New, Delta           *float64
				Status               string
			}
		}
		if c.err = json.Unmarshal(r.stdout, &doc); c.err != nil {
			return
		}
		c.m = map[string]map[string]string{}
		r2 := runProfan(dir, []string{"gate", "--format", "json", "--fail-on", "latency-bound", abs("fixtures/ncu/copy.details.csv")}, nil)
		var fdoc struct {
			Checks []struct {
				Kernel, Kind, Name string
				New                *float64
			}
		}
		if c.err = json.Unmarshal(r2.stdout, &fdoc); c.err != nil {
			return
		}
		for _, ch := range fdoc.Checks {
			if ch.Kind == "finding" && ch.Name == "latency-bound" && strings.HasPrefix(ch.Kernel, "offsetCopy") && ch.New != nil {
				c.share = strconv.FormatFloat(*ch.New, 'g', -1, 64) // every digit: the share exactly
			}
		}
		for _, ch := range doc.Checks {
			if ch.Kind == "require" && ch.New != nil {
				if c.m[ch.Kernel] == nil {
					c.m[ch.Kernel] = map[string]string{}
				}
				// The 15 digits a float64 holds of a decimal: 76.54% of
				// occupancy is 0.7654000000000001 once divided.
				c.m[ch.Kernel][ch.Metric] = strconv.FormatFloat(*ch.New, 'g', 15, 64)
			}
		}
		db := filepath.Join(dir, "series.db")
		if r := runProfan(dir, []string{"ingest", "--db", db, abs("fixtures/ncu/series_v1.details.csv")}, nil); r.code != 0 {
			c.err = fmt.Errorf("ingest: %s", r.stderr)
			return
		}
		r = runProfan(dir, []string{"gate", "--db", db, "--baseline", "latest", "--max-regression", "5%", "--format", "json", abs("fixtures/ncu/series_v0.details.csv")}, nil)
		if c.err = json.Unmarshal(r.stdout, &doc); c.err != nil {
			return
		}
		worst := 0.0
		for _, ch := range doc.Checks {
			if ch.Kind == "regression" && ch.Metric == "duration" && ch.Delta != nil && *ch.Delta > worst {
				worst = *ch.Delta
			}
		}
		if worst <= 0 {
			c.err = fmt.Errorf("series_v0 against series_v1: no regression")
		}
		c.reg = strconv.FormatFloat(worst, 'g', 15, 64)
	})
	return c.m, c.reg, c.err
}

// shift is the decimal d times 10^k, exactly, as a plain decimal.
func shift(d string, k int) string {
	r, ok := new(big.Rat).SetString(d)
	if !ok {
		panic(d)
	}
	p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(max(k, -k))), nil))
	if k < 0 {
		r.Quo(r, p)
	} else {
		r.Mul(r, p)
	}
	s := strings.TrimRight(r.FloatString(40), "0")
	return strings.TrimSuffix(s, ".")
}

// sci is the plain decimal d in e notation, its digits kept.
func sci(d string) string {
	r, _ := new(big.Rat).SetString(d)
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'e', -1, 64)
}

// grouped is the plain decimal d with thousands separators.
func grouped(d string) string {
	ip, frac, dot := strings.Cut(d, ".")
	var b strings.Builder
	for i := range ip {
		if i > 0 && (len(ip)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(ip[i])
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// spelling writes a value (a plain decimal in the metric's base unit) in
// one unit and notation.
type spelling struct {
	name  string
	write func(v string) string
}

func unitSpellings(metric string) []spelling {
	in := func(unit string, k int) spelling {
		return spelling{unit, func(v string) string { return shift(v, k) + unit }}
	}
	sciIn := func(unit string, k int) spelling {
		return spelling{"e notation " + unit, func(v string) string { return sci(shift(v, k)) + unit }}
	}
	groupedIn := func(unit string, k int) spelling {
		return spelling{"thousands separators " + unit, func(v string) string { return grouped(shift(v, k)) + unit }}
	}
	switch metric {
	case "duration":
		apart := spelling{"us apart", func(v string) string { return shift(v, 6) + " us" }}
		return []spelling{in("ns", 9), in("us", 6), in("µs", 6), in("μs", 6), in("ms", 3), in("s", 0), in("nsec", 9), in("usecond", 6), apart,
			sciIn("ns", 9), sciIn("us", 6), sciIn("s", 0), groupedIn("ns", 9)}
	case "achieved_occupancy":
		return []spelling{in("", 0), in("%", 2), sciIn("", 0), sciIn("%", 2)}
	case "dram_utilization":
		return []spelling{in("", 0), in("%", 0), sciIn("%", 0)}
	}
	return []spelling{in("", 0), sciIn("", 0), groupedIn("", 0)}
}

// thresholdCases gate each kernel of a real export at exactly its median,
// written in every unit and notation, and a regression at exactly its
// size as a percentage, a bare number and a ratio: one threshold whatever
// its spelling (a kernel of 72,288 ns passed <= 72288ns and failed
// <= 72.288us).
func thresholdCases() []*tcase {
	const cat = "Threshold units"
	copyD := abs("fixtures/ncu/copy.details.csv")
	var cs []*tcase
	for _, kernel := range []string{"offsetCopy(float *, const float *, int)", "strideCopy(float *, const float *, int)"} {
		for _, m := range thresholdMetrics {
			for _, sp := range unitSpellings(m) {
				for _, op := range []struct{ op, code string }{{"<=", "0"}, {">=", "0"}, {"==", "0"}, {"<", "1"}, {">", "1"}} {
					cs = append(cs, &tcase{cat: cat, name: fmt.Sprintf("%s: %s %s its median in %s", kernel[:strings.IndexByte(kernel, '(')], m, op.op, sp.name), codes: op.code,
						prep: func(e *env) []string {
							med, _, err := medians(e.dir)
							if err != nil || med[kernel][m] == "" {
								panic(setupError{fmt.Errorf("no median of %s: %v", m, err)})
							}
							return []string{"gate", "--kernel", "^" + regexp.QuoteMeta(kernel) + "$", "--require", m + " " + op.op + " " + sp.write(med[kernel][m]), copyD}
						}})
				}
			}
		}
	}
	// A kernel taking exactly --min-share of the capture is gated.
	for _, sp := range []spelling{
		{"percent", func(f string) string { return shift(f, 2) + "%" }},
		{"bare percent", func(f string) string { return shift(f, 2) }},
		{"e notation percent", func(f string) string { return sci(shift(f, 2)) + "%" }},
	} {
		cs = append(cs, &tcase{cat: cat, name: "a kernel at exactly --min-share, as a " + sp.name, codes: "1",
			prep: func(e *env) []string {
				if _, _, err := medians(e.dir); err != nil || medianCache.share == "" {
					panic(setupError{fmt.Errorf("no share: %v", err)})
				}
				return []string{"gate", "--fail-on", "latency-bound", "--min-share", sp.write(medianCache.share), "--format", "json", copyD}
			},
			check: func(e *env, r *result) string {
				var doc struct {
					Checks []struct{ Kernel, Kind, Status, Message string }
				}
				if err := json.Unmarshal(r.stdout, &doc); err != nil {
					return "gate JSON: " + err.Error()
				}
				for _, ch := range doc.Checks {
					if ch.Kind == "finding" && strings.HasPrefix(ch.Kernel, "offsetCopy") && strings.Contains(ch.Message, "latency-bound") && ch.Status != "fail" {
						return "a kernel at exactly --min-share is not gated: " + ch.Message
					}
				}
				return ""
			}})
	}
	// A regression at exactly --max-regression is within it.
	v0, v1 := abs("fixtures/ncu/series_v0.details.csv"), abs("fixtures/ncu/series_v1.details.csv")
	for _, sp := range []spelling{
		{"percent", func(f string) string { return shift(f, 2) + "%" }},
		{"bare percent", func(f string) string { return shift(f, 2) }},
		{"e notation percent", func(f string) string { return sci(shift(f, 2)) + "%" }},
		{"ratio", func(f string) string {
			r, _ := new(big.Rat).SetString(f)
			return strings.TrimRight(r.Add(r, big.NewRat(1, 1)).FloatString(40), "0") + "x"
		}},
	} {
		cs = append(cs, &tcase{cat: cat, name: "a regression at exactly --max-regression, as a " + sp.name, codes: "01",
			prep: func(e *env) []string {
				_, reg, err := medians(e.dir)
				if err != nil {
					panic(setupError{err})
				}
				if r := runProfan(e.dir, []string{"ingest", "--db", "db", v1}, nil); r.code != 0 {
					panic(setupError{fmt.Errorf("ingest: %s", r.stderr)})
				}
				return []string{"gate", "--db", "db", "--baseline", "latest", "--max-regression", sp.write(reg), "--format", "json", v0}
			},
			check: func(e *env, r *result) string {
				var doc struct {
					Checks []struct{ Kind, Metric, Status, Message string }
				}
				if err := json.Unmarshal(r.stdout, &doc); err != nil {
					return "gate JSON: " + err.Error()
				}
				for _, ch := range doc.Checks {
					if ch.Kind == "regression" && ch.Status == "fail" {
						return "a regression at exactly the threshold fails: " + ch.Message
					}
				}
				return ""
			}})
	}
	return cs
}

// dbErrorCases give every command a database it cannot read: a gate with
// --missing-baseline pass must not take it for a missing baseline, no
// command for an empty database. On PostgreSQL (PROFAN_TEST_PG), a
// database and a role that do not exist, with the server's words.
func dbErrorCases(base []byte) []*tcase {
	const cat = "Database errors"
	copyD := abs("fixtures/ncu/copy.details.csv")
	type state struct {
		name string
		prep func(e *env) string // returns --db
		// missing: the database is not there or holds no run: a
		// baseline may be missing, not an error.
		missing bool
		says    string
	}
	file := func(b func() []byte) func(e *env) string {
		return func(e *env) string { e.write("db", b()); return "db" }
	}
	flip := func(off int) func() []byte {
		return func() []byte {
			b := bytes.Clone(base)
			for j := range 32 {
				b[off+j] ^= 0x5a
			}
			return b
		}
	}
	states := []state{
		{"missing file", func(e *env) string { return "db" }, true, ""},
		{"empty file", file(func() []byte { return nil }), true, ""},
		{"a directory", func(e *env) string { os.Mkdir(e.db, 0o755); return "db" }, false, "not a regular file"},
		{"a text file", file(func() []byte { return []byte("hello\n") }), false, "not a SQLite database"},
		{"its header damaged", file(flip(0)), false, "not a SQLite database"},
		{"truncated to half", file(func() []byte { return base[:len(base)/2] }), false, ""},
		{"truncated to its header page", file(func() []byte { return base[:4096] }), false, ""},
		{"a newer schema", func(e *env) string {
			e.write("db", base)
			sqlExec(e, "INSERT INTO schema_migrations(version, name, applied) VALUES (999, 'future', '2030-01-01T00:00:00Z')")
			return "db"
		}, false, "newer"},
	}
	if pg := os.Getenv("PROFAN_TEST_PG"); pg != "" {
		if u, err := url.Parse(pg); err == nil {
			noDB, noRole := *u, *u
			noDB.Path = "/profan_no_such_database"
			noRole.User = url.User("profan_no_such_role")
			states = append(states,
				state{"PostgreSQL: a database that does not exist", func(*env) string { return noDB.String() }, false, `database "profan_no_such_database" does not exist`},
				state{"PostgreSQL: a role that does not exist", func(*env) string { return noRole.String() }, false, `role "profan_no_such_role" does not exist`})
		}
	}
	commands := []struct {
		name  string
		args  []string
		codes string // with a database that is missing
	}{
		{"gate --missing-baseline pass", []string{"gate", "--baseline", "latest", "--max-regression", "5%", "--missing-baseline", "pass", copyD}, "0"},
		{"gate --baseline 1 --missing-baseline pass", []string{"gate", "--baseline", "1", "--missing-baseline", "pass", copyD}, "02"},
		{"gate --baseline label --missing-baseline pass", []string{"gate", "--baseline", "branch=main", "--missing-baseline", "pass", copyD}, "0"},
		{"gate --missing-baseline fail", []string{"gate", "--baseline", "latest", copyD}, "2"},
		{"gate --run", []string{"gate", "--run", "1"}, "2"},
		{"runs", []string{"runs"}, "2"},
		{"runs json", []string{"runs", "--format", "json"}, "2"},
		{"trend", []string{"trend", "--kernel", ".", "--metric", "duration"}, "2"},
		{"diff", []string{"diff", "1", "latest"}, "2"},
		{"report", []string{"report", "--html", "out.html"}, "2"},
		{"ingest", []string{"ingest", copyD}, "0"},
		{"migrate", []string{"migrate"}, "02"},
	}
	var cs []*tcase
	for _, s := range states {
		for _, c := range commands {
			if (c.name == "ingest" || c.name == "migrate") && !strings.HasPrefix(s.name, "PostgreSQL") {
				continue // Database states holds them
			}
			codes := "2"
			if s.missing {
				codes = c.codes
			}
			cs = append(cs, &tcase{cat: cat, name: s.name + ": " + c.name, codes: codes, errHas: s.says, dbKeep: true,
				prep: func(e *env) []string { db := s.prep(e); return append(append([]string(nil), c.args...), "--db", db) },
				check: func(e *env, r *result) string {
					if !s.missing && bytes.Contains(r.stderr, []byte("no baseline")) {
						return "an unreadable database read as no baseline: " + firstLine(r.stderr)
					}
					if !s.missing && bytes.Contains(r.stderr, []byte("empty")) {
						return "an unreadable database read as empty: " + firstLine(r.stderr)
					}
					if s.missing && r.code == 0 && strings.HasPrefix(c.name, "gate") && !bytes.Contains(r.stderr, []byte("no baseline")) {
						return "a missing baseline not said"
					}
					return ""
				}})
		}
	}
	return cs
}

// child is the test binary run as profan in dir.
func child(dir string, args ...string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = childEnviron(dir)
	return cmd
}

// startCases start profan the ways CI runners do: standard output on
// /dev/null opened read-write (Python's subprocess.DEVNULL, systemd's
// StandardOutput=null), closed (>&-), no standard input, standard input on
// /dev/null, and standard output a pipe whose reader has gone. Each does
// what it does with a terminal's streams, but the last: its output lost,
// it exits 2 or dies of SIGPIPE, never 0 or 1 with output to give.
func startCases(base []byte) []*tcase {
	const cat = "Process start"
	copyD := abs("fixtures/ncu/copy.details.csv")
	commands := [][]string{
		{"analyze", copyD},
		{"analyze", "--format", "json", copyD},
		{"ingest", "--db", "db", copyD},
		{"gate", "--require", "duration < 1s", copyD},
		{"gate", "--require", "duration < 1ns", copyD},
		{"report", "--html", "-", copyD},
		{"runs", "--db", "base.db"},
		{"trend", "--db", "base.db", "--kernel", ".", "--metric", "duration"},
		{"diff", copyD, copyD},
	}
	ways := []struct {
		name string
		// run starts args so; pipe says stdout's reader is gone.
		run  func(dir string, args []string) (code int, stderr string, signaled bool)
		pipe bool
	}{
		{"stdout on /dev/null read-write", func(dir string, args []string) (int, string, bool) {
			null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
			if err != nil {
				panic(setupError{err})
			}
			defer null.Close()
			cmd := child(dir, args...)
			cmd.Stdout = null
			return runChild(cmd)
		}, false},
		{"stdout closed", func(dir string, args []string) (int, string, bool) {
			return runChild(shChild(dir, ">&-", args))
		}, false},
		{"stdin closed", func(dir string, args []string) (int, string, bool) {
			return runChild(shChild(dir, "<&- >/dev/null", args))
		}, false},
		{"stdin on /dev/null", func(dir string, args []string) (int, string, bool) {
			return runChild(shChild(dir, "</dev/null >/dev/null", args))
		}, false},
		{"stdout a pipe closed early", func(dir string, args []string) (int, string, bool) {
			r, w, err := os.Pipe()
			if err != nil {
				panic(setupError{err})
			}
			r.Close()
			defer w.Close()
			cmd := child(dir, args...)
			cmd.Stdout = w
			return runChild(cmd)
		}, true},
	}
	var cs []*tcase
	for _, w := range ways {
		for _, args := range commands {
			cs = append(cs, &tcase{cat: cat, name: w.name + ": " + strings.Join(args[:1], " ") + " " + args[1], custom: func(e *env) string {
				e.write("base.db", base)
				// What it does with streams of its own, into a database of
				// its own.
				ref := runProfan(e.dir, args, nil)
				os.Remove(e.db)
				code, stderr, signaled := w.run(e.dir, args)
				switch {
				case panicRE.MatchString(stderr):
					return "panic: " + stderr
				case w.pipe && len(ref.stdout) > 0 && (code == 0 || code == 1):
					return fmt.Sprintf("exit %d with its output lost", code)
				case w.pipe && len(ref.stdout) > 0 && !signaled && code != 2:
					return fmt.Sprintf("exit %d with its output lost, want 2 or SIGPIPE", code)
				case !w.pipe && code != ref.code:
					return fmt.Sprintf("exit %d, %d with its own streams: %s", code, ref.code, firstLine([]byte(stderr)))
				}
				if args[0] == "ingest" && !w.pipe {
					if r := runProfan(e.dir, []string{"runs", "--db", "db"}, nil); r.code != 0 || !bytes.Contains(r.stdout, []byte("copy.details.csv")) {
						return "the run was not stored: " + firstLine(r.stderr)
					}
				}
				return ""
			}})
		}
	}
	return cs
}

// shChild runs the test binary as profan through sh with redirections.
func shChild(dir, redirect string, args []string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command("sh", append([]string{"-c", `exec "$0" "$@" ` + redirect, exe}, args...)...)
	cmd.Dir = dir
	cmd.Env = childEnviron(dir)
	return cmd
}

// runChild runs cmd (within caseTimeout) and returns its exit code, its
// standard error, and whether a signal ended it.
func runChild(cmd *exec.Cmd) (int, string, bool) {
	var stderr bytes.Buffer
	cmd.Stderr = &limitWriter{w: &stderr, n: 1 << 20}
	if err := cmd.Start(); err != nil {
		panic(setupError{err})
	}
	t := time.AfterFunc(caseTimeout, func() { cmd.Process.Kill() })
	defer t.Stop()
	cmd.Wait()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	return cmd.ProcessState.ExitCode(), stderr.String(), ws.Signaled()
}

// bigTrace is a real PyTorch capture tiled to 150 MB (internal/tile),
// made once per directory: TestSignals and the whole trial's Signals
// cases each tile it into a temporary directory of their own, and the
// first's is removed when it ends (the trial's cases once read a path
// that no longer existed, each child exiting at once and each case
// waiting out its 120 s for a read that never came).
var bigTrace struct {
	sync.Mutex
	path map[string]string
}

func tiledTrace(dir string) (string, error) {
	bigTrace.Lock()
	defer bigTrace.Unlock()
	if p, ok := bigTrace.path[dir]; ok {
		return p, nil
	}
	p := filepath.Join(dir, "big.json")
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	if _, _, err = tile.Torch(f, abs("fixtures/timeline/decode_sync.json.gz"), 150e6); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	if bigTrace.path == nil {
		bigTrace.path = map[string]string{}
	}
	bigTrace.path[dir] = p
	return p, nil
}

// signalCases send SIGINT and SIGTERM to analyze, ingest, gate and report
// once they have read 8 MB of a 150 MB trace: each stops within a second,
// exits 130 or 143 saying so, and leaves nothing half-written: the
// database byte for byte as it was, no new database, no report file.
func signalCases(t *testing.T, base []byte) []*tcase {
	const cat = "Signals"
	shared := t.TempDir()
	commands := [][]string{
		{"analyze", "{big}"},
		{"analyze", "--format", "json", "{big}"},
		{"analyze", "-o", "out/a.txt", "{big}"},
		{"gate", "--require", "duration < 1s", "-o", "out/g.txt", "{big}"},
		{"ingest", "--db", "db", "{big}"},
		{"ingest", "--db", "out/new.db", "{big}"},
		{"gate", "--require", "duration < 1s", "{big}"},
		{"gate", "--db", "db", "--baseline", "latest", "--missing-baseline", "pass", "{big}"},
		{"report", "--html", "out/r.html", "{big}"},
	}
	var cs []*tcase
	for _, args := range commands {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			cs = append(cs, &tcase{cat: cat, name: fmt.Sprintf("%v to %s", sig, strings.Join(args, " ")), heavy: true, custom: func(e *env) string {
				big, err := tiledTrace(shared)
				if err != nil {
					panic(setupError{err})
				}
				e.write("db", base)
				os.Mkdir(e.path("out"), 0o755)
				a := append([]string(nil), args...)
				for i := range a {
					a[i] = strings.ReplaceAll(a[i], "{big}", big)
				}
				cmd := signalChild(e, a...)
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					panic(setupError{err})
				}
				for deadline := time.Now().Add(heavyTimeout); procRead(cmd.Process.Pid) < 8<<20 && time.Now().Before(deadline); {
					time.Sleep(5 * time.Millisecond)
				}
				return signalled(e, cmd, &stderr, sig, base)
			}})
		}
	}
	return cs
}

// stalledPipeCases send SIGINT and SIGTERM to analyze, ingest and gate
// reading a pipe whose writer sent half of a real export and then
// nothing. A named pipe is in Go's poller, and the cancellation ends its
// read; standard input (analyze -o, ingest into a new database) is a
// blocking read no context interrupts, which Main's grace ends (its -o
// file and new database removed). Each ends within a second, exit 130 or
// 143, the database as it was.
func stalledPipeCases(base []byte) []*tcase {
	const cat = "Signals"
	copyD := abs("fixtures/ncu/copy.details.csv")
	var cs []*tcase
	for _, args := range [][]string{{"analyze", "pipe.csv"}, {"analyze", "-o", "out/a.txt", "pipe.csv"}, {"ingest", "--db", "db", "pipe.csv"}, {"gate", "--require", "duration < 1s", "pipe.csv"},
		{"analyze", "-o", "out/a.txt", "-"}, {"ingest", "--db", "out/new.db", "-"}} {
		stdin := args[len(args)-1] == "-"
		what := "a pipe"
		if stdin {
			what = "a standard input"
		}
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			cs = append(cs, &tcase{cat: cat, name: fmt.Sprintf("%v to %s on %s that stalls", sig, strings.Join(args, " "), what), custom: func(e *env) string {
				e.write("db", base)
				os.Mkdir(e.path("out"), 0o755)
				data, err := os.ReadFile(copyD)
				if err != nil {
					panic(setupError{err})
				}
				cmd := signalChild(e, args...)
				var pr, w *os.File
				if stdin {
					if pr, w, err = os.Pipe(); err != nil {
						panic(setupError{err})
					}
					cmd.Stdin = pr
				} else if err := syscall.Mkfifo(e.path("pipe.csv"), 0o644); err != nil {
					panic(setupError{err})
				}
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				if err := cmd.Start(); err != nil {
					panic(setupError{err})
				}
				if stdin {
					pr.Close()
				} else if w, err = os.OpenFile(e.path("pipe.csv"), os.O_WRONLY, 0); err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					panic(setupError{err})
				}
				defer w.Close() // after the process ends: it never sees the end
				w.Write(data[:len(data)/2])
				for deadline := time.Now().Add(caseTimeout); procRead(cmd.Process.Pid) < int64(len(data)/2) && time.Now().Before(deadline); {
					time.Sleep(5 * time.Millisecond)
				}
				return signalled(e, cmd, &stderr, sig, base)
			}})
		}
	}
	return cs
}

// signalledFile is where a child that signalChild started writes when
// SIGINT or SIGTERM reached it (noteSignal), in its directory.
const signalledFile = ".signalled"

// signalChild is child with the process noting when a signal reaches it
// (signalledEnv), for signalled to time the stop from there.
func signalChild(e *env, args ...string) *exec.Cmd {
	cmd := child(e.dir, args...)
	cmd.Env = append(cmd.Env, signalledEnv+"="+e.path(signalledFile))
	return cmd
}

// noteSignal writes to file p, once SIGINT or SIGTERM reaches this
// process, the time it did (Unix nanoseconds). The command's own handler
// gets the same signal at the same moment (os/signal sends it to every
// channel that asked); it resets the handlers once, which takes this one
// out too, so a second signal still ends the process at once.
func noteSignal(p string) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-c
		os.WriteFile(p, strconv.AppendInt(nil, time.Now().UnixNano(), 10), 0o644)
	}()
}

// signalled sends sig to the running cmd and says what is wrong with how
// it stopped: its exit status (128 + the signal's number), whether within
// a second, whether it said so, and whether it left the database as base
// and nothing in out/. The second runs from the signal reaching the
// process (noteSignal) to its exit: on a loaded machine a busy process
// waits for a core before the kernel hands it the signal (up to 0.1 s
// at a load of 24), which is the machine's time, not the command's stop.
func signalled(e *env, cmd *exec.Cmd, stderr *bytes.Buffer, sig syscall.Signal, base []byte) string {
	sent := time.Now()
	cmd.Process.Signal(sig)
	kill := time.AfterFunc(caseTimeout, func() { cmd.Process.Kill() })
	cmd.Wait()
	kill.Stop()
	took := time.Since(sent)
	if b, err := os.ReadFile(e.path(signalledFile)); err == nil {
		if at, err := strconv.ParseInt(string(b), 10, 64); err == nil && time.Unix(0, at).After(sent) {
			took = time.Since(time.Unix(0, at))
		}
	}
	code := cmd.ProcessState.ExitCode()
	switch {
	case code != 128+int(sig):
		return fmt.Sprintf("exit %d, want %d: %s", code, 128+int(sig), firstLine(stderr.Bytes()))
	case took > time.Second:
		return fmt.Sprintf("stopped %v after the signal, want within a second", took.Round(time.Millisecond))
	case !bytes.Contains(stderr.Bytes(), []byte("interrupted")):
		return "the interruption is not said: " + firstLine(stderr.Bytes())
	}
	if b, err := os.ReadFile(e.db); err != nil || !bytes.Equal(b, base) {
		return "the database changed"
	}
	if left, _ := os.ReadDir(e.path("out")); len(left) > 0 {
		return "left " + left[0].Name()
	}
	return ""
}

// procRead is what process pid has read so far (/proc/PID/io's rchar).
func procRead(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return 0
}

// TestSignals runs the Signals cases, which the seeded subset leaves out
// (they are heavy), in every full test run: SIGINT and SIGTERM to
// analyze, ingest, gate and report mid-way.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("tiles a 150 MB trace")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	ref := &refCache{m: map[string]*result{}}
	for _, c := range append(signalCases(t, baseDB(t)), stalledPipeCases(baseDB(t))...) {
		dir := t.TempDir()
		e := &env{t: t, dir: dir, db: filepath.Join(dir, "db"), ref: ref}
		for _, f := range verdict(e, c) {
			t.Errorf("%s: %s", c.name, f)
		}
	}
}
