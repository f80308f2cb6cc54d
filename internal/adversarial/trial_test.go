package adversarial

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/profan-dev/profan/internal/cli"
)

var (
	full     = flag.Bool("adversarial", false, "run the whole adversarial trial, not the seeded subset")
	report   = flag.String("adversarial.report", "", "write the trial's tally as Markdown to this file")
	only     = flag.String("adversarial.run", "", "run only the cases whose category/name matches this regexp")
	workers  = flag.Int("adversarial.workers", 2, "cases run at once")
	seed     = flag.Uint64("adversarial.seed", 1608, "seed of the random mutations: another seed draws a new trial of the same size")
	showPass = flag.Bool("adversarial.pass", false, "log every case, passed or not")
)

// childEnv makes the test binary run as profan: the trial runs every case
// in a process of its own, as a user would, without building the binary.
const childEnv = "PROFAN_ADVERSARIAL_CHILD"

// signalledEnv names the file where a child notes when a signal reached
// it (noteSignal).
const signalledEnv = "PROFAN_ADVERSARIAL_SIGNALLED"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if p := os.Getenv(signalledEnv); p != "" {
			noteSignal(p)
		}
		cli.SetRuntimeDefaults(os.Getenv) // as cmd/profan does
		os.Exit(int(cli.Main(os.Args[1:], cli.System())))
	}
	os.Exit(m.Run())
}

// Limits every case is held to.
const (
	maxRSS      = 500 << 20 // bytes
	caseTimeout = 30 * time.Second
	// heavyTimeout is that of the huge inputs (millions of lines, 8,000
	// kernels), on a loaded machine.
	heavyTimeout = 120 * time.Second
	killRSS      = 1500 << 20 // a watched process is killed past this
)

// repo is the repository root, from this package's directory.
const repo = "../.."

// tcase is one case of the trial.
type tcase struct {
	cat, name string
	// prep writes the case's files into e.dir and returns profan's
	// arguments; {dir} in them is the case's directory.
	prep func(e *env) []string
	// stdin, when set, feeds the process (it may never end: the write
	// fails once the process has exited).
	stdin func(w io.Writer)
	// codes are the exit codes allowed, e.g. "2", "02".
	codes string
	// errHas: an exit 2 must say this (after {dir} is replaced).
	errHas string
	// fileLine: an exit 2 must name the input file and a line, "name:N:".
	fileLine string
	// same: an exit 0 must print what these arguments print (an intact
	// input); a reference that fails must be failed too. With sameOrRefused
	// an exit 2 naming fileLine is as good.
	same          func(e *env) []string
	sameOrRefused bool
	// dbKeep: a failed command leaves {dir}/db (the file) byte for byte.
	dbKeep bool
	// check adds checks of its own; it returns what failed, or "".
	check func(e *env, r *result) string
	// custom runs the case itself (concurrency); it returns what failed.
	custom func(e *env) string
	heavy  bool // left out of the seeded subset
	// env adds to the process's environment (PROFAN_DB=...).
	env []string
}

type env struct {
	t   *testing.T
	dir string
	db  string // dir/db
	ref *refCache
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

func (e *env) write(name string, data []byte) string {
	p := e.path(name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		panic(setupError{err})
	}
	return p
}

// setupError is a case that could not be set up: a failure of the case,
// not of the worker that runs it.
type setupError struct{ err error }

type result struct {
	args   []string // profan's arguments
	code   int
	stdout []byte
	stderr []byte
	rss    int64 // bytes
	wall   time.Duration
	killed string // why the watch killed it
}

// runProfan runs the test binary as profan with args in dir.
func runProfan(dir string, args []string, stdin func(io.Writer)) *result {
	return runProfanFor(caseTimeout, dir, args, stdin)
}

// runProfanFor is runProfan with a time limit of its own.
func runProfanFor(timeout time.Duration, dir string, args []string, stdin func(io.Writer)) *result {
	return runProfanEnv(timeout, dir, args, stdin, nil)
}

// runProfanEnv is runProfanFor with variables added to the environment.
func runProfanEnv(timeout time.Duration, dir string, args []string, stdin func(io.Writer), extra []string) *result {
	exe, err := os.Executable()
	if err != nil {
		return &result{code: -1, killed: err.Error()}
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Dir = dir
	cmd.Env = append(childEnviron(dir), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout = &limitWriter{w: &out, n: 64 << 20}
	cmd.Stderr = &limitWriter{w: &errb, n: 1 << 20}
	var w io.WriteCloser
	if stdin != nil {
		w, _ = cmd.StdinPipe()
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return &result{code: -1, killed: err.Error()}
	}
	if w != nil {
		go func() {
			defer w.Close()
			stdin(w)
		}()
	}
	r := &result{args: args}
	var peak atomic.Int64
	done := make(chan struct{})
	var watch sync.WaitGroup
	watch.Go(func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
			rss, hwm := procRSS(cmd.Process.Pid)
			if hwm > peak.Load() {
				peak.Store(hwm)
			}
			if rss > killRSS {
				r.killed = fmt.Sprintf("killed at %d MB resident", rss>>20)
				cmd.Process.Kill()
				return
			}
		}
	})
	err = cmd.Wait()
	close(done)
	watch.Wait()
	r.wall = time.Since(start)
	if ctx.Err() != nil && r.killed == "" {
		r.killed = fmt.Sprintf("killed after %v", timeout)
	}
	r.code = cmd.ProcessState.ExitCode()
	// The peak resident size as the watch saw it: the child's ru_maxrss
	// starts from the parent's at fork, which holds the trial's inputs.
	r.rss = peak.Load()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && r.killed == "" {
		r.killed = err.Error()
	}
	r.stdout, r.stderr = out.Bytes(), errb.Bytes()
	return r
}

func childEnviron(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PROFAN_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "TMPDIR=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, childEnv+"=1", "HOME="+dir, "TMPDIR="+dir)
}

// procRSS is the resident size of process pid and its peak so far, in
// bytes (0 when unknown).
func procRSS(pid int) (rss, hwm int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		n, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = n << 10
		case "VmHWM:":
			hwm = n << 10
		}
	}
	return rss, hwm
}

type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	q := p
	if len(q) > l.n {
		q = q[:l.n]
	}
	l.n -= len(q)
	l.w.Write(q)
	return len(p), nil
}

// rawControl returns a description of the first raw control or bidi
// character in b (newlines and tabs excepted), or "".
func rawControl(b []byte) string {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			return fmt.Sprintf("invalid UTF-8 byte %#x at %d", b[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			lo := max(0, i-30)
			return fmt.Sprintf("raw %U at byte %d: %q", r, i, b[lo:min(len(b), i+10)])
		}
		i += n
	}
	return ""
}

var panicRE = regexp.MustCompile(`(?m)^(panic: |fatal error: |goroutine \d+ \[)`)

// verdict runs c and returns what failed ("" when it passed).
func verdict(e *env, c *tcase) (fails []string) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(setupError)
			if !ok {
				panic(r)
			}
			fails = append(fails, "setting the case up: "+se.err.Error())
		}
	}()
	if c.custom != nil {
		if f := c.custom(e); f != "" {
			fails = append(fails, f)
		}
		return fails
	}
	args := c.prep(e)
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "{dir}", e.dir)
	}
	var dbBefore []byte
	if c.dbKeep {
		dbBefore = fileSum(e.db)
	}
	limit := caseTimeout
	if c.heavy {
		limit = heavyTimeout
	}
	r := runProfanEnv(limit, e.dir, args, c.stdin, c.env)
	fails = append(fails, generic(r)...)
	if c.dbKeep && r.code != 0 && r.killed == "" {
		if !bytes.Equal(dbBefore, fileSum(e.db)) {
			fails = append(fails, "the database changed although the command failed")
		}
	}
	if r.killed != "" {
		return fails
	}
	fails = append(fails, exitFails(e, c, r)...)
	fails = append(fails, sameFails(e, c, r)...)
	if c.check != nil {
		if f := c.check(e, r); f != "" {
			fails = append(fails, f)
		}
	}
	return fails
}

// exitFails holds r's exit code to c's codes, and an exit 2 to a message
// saying what c wants it to say.
func exitFails(e *env, c *tcase, r *result) (fails []string) {
	codes := c.codes
	if codes == "" {
		codes = "0"
	}
	if !strings.ContainsRune(codes, rune('0'+r.code)) || r.code > 9 || r.code < 0 {
		fails = append(fails, fmt.Sprintf("exit %d, want one of %s: %s", r.code, codes, firstLine(r.stderr)))
	}
	if r.code != 2 {
		return fails
	}
	msg := string(r.stderr)
	if strings.TrimSpace(msg) == "" {
		fails = append(fails, "exit 2 without a message")
	}
	if c.errHas != "" && !strings.Contains(msg, strings.ReplaceAll(c.errHas, "{dir}", e.dir)) {
		fails = append(fails, fmt.Sprintf("the error does not say %q: %s", c.errHas, firstLine(r.stderr)))
	}
	if c.fileLine != "" && !regexp.MustCompile(regexp.QuoteMeta(strings.ReplaceAll(c.fileLine, "{dir}", e.dir))+`:\d+:`).MatchString(msg) {
		fails = append(fails, fmt.Sprintf("the error names no %s:LINE: %s", c.fileLine, firstLine(r.stderr)))
	}
	return fails
}

// sameFails holds r to what c's intact input gives, where c names one.
func sameFails(e *env, c *tcase, r *result) (fails []string) {
	if c.same == nil || !(r.code == 0 || r.code == 1 || r.code == 2 && !c.sameOrRefused) {
		return nil
	}
	ref := c.same(e)
	for i := range ref {
		ref[i] = strings.ReplaceAll(ref[i], "{dir}", e.dir)
	}
	want := e.ref.get(e.dir, ref)
	switch {
	case want.code != 0 && r.code == 0:
		fails = append(fails, fmt.Sprintf("exit 0 where the intact input fails (exit %d: %s)", want.code, firstLine(want.stderr)))
	case want.code == 0 && r.code == 0:
		if d := compareOutput(want.stdout, r.stdout); d != "" {
			fails = append(fails, "silent change: "+d)
		}
	case want.code == 0 && r.code != 0 && !c.sameOrRefused:
		fails = append(fails, fmt.Sprintf("exit %d where the intact input is read: %s", r.code, firstLine(r.stderr)))
	}
	return fails
}

// generic are the checks every run is held to.
func generic(r *result) (fails []string) {
	if r.killed != "" {
		fails = append(fails, r.killed)
	}
	if panicRE.Match(r.stderr) {
		fails = append(fails, "panic: "+firstLine(r.stderr))
	}
	if r.rss > maxRSS {
		fails = append(fails, fmt.Sprintf("%d MB resident, more than %d", r.rss>>20, maxRSS>>20))
	}
	if s := rawControl(r.stdout); s != "" {
		fails = append(fails, "stdout: "+s)
	}
	if s := rawControl(r.stderr); s != "" {
		fails = append(fails, "stderr: "+s)
	}
	return fails
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func fileSum(p string) []byte {
	var h []byte
	for _, suffix := range []string{"", "-wal", "-journal"} {
		b, err := os.ReadFile(p + suffix)
		if err != nil || suffix != "" && len(b) == 0 {
			// An empty log left beside the file holds nothing.
			h = append(h, '-')
			continue
		}
		s := sha256.Sum256(b)
		h = append(h, s[:]...)
	}
	return h
}

// refCache runs each reference once.
type refCache struct {
	mu sync.Mutex
	m  map[string]*result
}

func (rc *refCache) get(dir string, args []string) *result {
	key := ""
	for _, a := range args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if b, err := os.ReadFile(p); err == nil && !strings.HasPrefix(a, "-") {
			s := sha256.Sum256(b)
			key += fmt.Sprintf("%x|", s)
			continue
		}
		key += a + "|"
	}
	rc.mu.Lock()
	r, ok := rc.m[key]
	rc.mu.Unlock()
	if ok {
		return r
	}
	r = runProfan(dir, args, nil)
	rc.mu.Lock()
	rc.m[key] = r
	rc.mu.Unlock()
	return r
}

// compareOutput compares two analyze --format json outputs on what was
// read: the kernels, with their identity, shape, duration and metrics
// (the runs' sources, digests and messages may differ). Numbers agree to
// 1e-9 relative.
func compareOutput(want, got []byte) string {
	w, err1 := canonical(want)
	g, err2 := canonical(got)
	if err1 != nil || err2 != nil {
		if bytes.Equal(want, got) {
			return ""
		}
		return "the output differs from the intact input's"
	}
	if len(w) != len(g) {
		return fmt.Sprintf("%d kernels, the intact input has %d", len(g), len(w))
	}
	for i := range w {
		if d := diffValue(w[i], g[i], ""); d != "" {
			return fmt.Sprintf("kernel %d: %s", i, d)
		}
	}
	return ""
}

func canonical(b []byte) ([]any, error) {
	var doc struct {
		Kernels []map[string]any `json:"kernels"`
		Runs    []struct {
			HostCalls []any `json:"host_calls"`
			Timeline  any   `json:"timeline"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	if doc.Kernels == nil {
		return nil, errors.New("no kernels")
	}
	var out []any
	for _, k := range doc.Kernels {
		for _, drop := range []string{"run", "findings", "model", "limiter", "ncu_findings", "device_from"} {
			delete(k, drop)
		}
		out = append(out, k)
	}
	// In the order of what they hold, without their IDs: an ordinal ID
	// follows the row order, which some mutations change without changing
	// what is read (a launch lost or doubled still shows).
	key := func(k any) string {
		m := maps.Clone(k.(map[string]any))
		delete(m, "id")
		b, _ := json.Marshal(m)
		return string(b)
	}
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	for _, k := range out {
		delete(k.(map[string]any), "id")
	}
	// What a run holds beside its kernels: the host calls of an nsys API
	// summary or trace (in the order of what they hold) and the timeline
	// a trace's calls and kernels make.
	for _, r := range doc.Runs {
		calls := slices.Clone(r.HostCalls)
		sort.SliceStable(calls, func(i, j int) bool { return key(calls[i]) < key(calls[j]) })
		out = append(out, map[string]any{"host_calls": calls, "timeline": r.Timeline})
	}
	return out, nil
}

func diffValue(w, g any, path string) string {
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			return path + ": type differs"
		}
		keys := map[string]bool{}
		for k := range wv {
			keys[k] = true
		}
		for k := range gv {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		for _, k := range ks {
			if d := diffValue(wv[k], gv[k], path+"."+k); d != "" {
				return d
			}
		}
	case []any:
		gv, ok := g.([]any)
		if !ok || len(gv) != len(wv) {
			return fmt.Sprintf("%s: %d values, want %d", path, len(gv), len(wv))
		}
		for i := range wv {
			if d := diffValue(wv[i], gv[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case float64:
		gv, ok := g.(float64)
		if !ok {
			return fmt.Sprintf("%s: %v, want %v", path, g, w)
		}
		if wv != gv && math.Abs(wv-gv) > 1e-9*math.Max(math.Abs(wv), math.Abs(gv)) {
			return fmt.Sprintf("%s: %v, want %v", path, gv, wv)
		}
	default:
		if fmt.Sprint(w) != fmt.Sprint(g) {
			return fmt.Sprintf("%s: %.80v, want %.80v", path, g, w)
		}
	}
	return ""
}

// TestAdversarial runs the trial: the seeded subset by default, every case
// with -adversarial.
func TestAdversarial(t *testing.T) {
	if testing.Short() {
		t.Skip("the trial: runs without -short, as CI does")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the trial watches processes through /proc")
	}
	cases := allCases(t)
	var sel []*tcase
	var re *regexp.Regexp
	if *only != "" {
		re = regexp.MustCompile(*only)
	}
	for i, c := range cases {
		switch {
		case re != nil:
			if re.MatchString(c.cat + "/" + c.name) {
				sel = append(sel, c)
			}
		case *full:
			sel = append(sel, c)
		case i%53 == 0 && !c.heavy:
			sel = append(sel, c)
		}
	}
	ref := &refCache{m: map[string]*result{}}
	type outcome struct {
		c     *tcase
		fails []string
	}
	results := make([]outcome, len(sel))
	jobs := make(chan int)
	var wg sync.WaitGroup
	var done atomic.Int64
	start := time.Now()
	for range max(1, *workers) {
		wg.Go(func() {
			for i := range jobs {
				c := sel[i]
				dir, err := os.MkdirTemp("", "adv-*")
				if err != nil {
					t.Error(err)
					continue
				}
				e := &env{t: t, dir: dir, db: filepath.Join(dir, "db"), ref: ref}
				results[i] = outcome{c, verdict(e, c)}
				if n := done.Add(1); n%100 == 0 {
					fmt.Fprintf(os.Stderr, "adversarial: %d of %d cases, %v\n", n, len(sel), time.Since(start).Round(time.Second))
				}
				os.Chmod(dir, 0o755)
				os.RemoveAll(dir)
			}
		})
	}
	for i := range sel {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	type tally struct{ cases, failed, known int }
	knownN := 0
	byCat := map[string]*tally{}
	var cats []string
	failed := 0
	for _, o := range results {
		tl := byCat[o.c.cat]
		if tl == nil {
			tl = &tally{}
			byCat[o.c.cat] = tl
			cats = append(cats, o.c.cat)
		}
		tl.cases++
		if len(o.fails) > 0 {
			tl.failed++
			failed++
			if why := knownFailure(o.c); why != "" {
				tl.known++
				knownN++
				t.Logf("known: %s / %s: %s (%s)", o.c.cat, o.c.name, strings.Join(o.fails, "; "), why)
				continue
			}
			t.Errorf("%s / %s: %s", o.c.cat, o.c.name, strings.Join(o.fails, "; "))
		} else if *showPass {
			t.Logf("ok %s / %s", o.c.cat, o.c.name)
		}
	}
	var md strings.Builder
	fmt.Fprintf(&md, "| Category | Cases | Failed | of which known |\n|---|---:|---:|---:|\n")
	for _, c := range cats {
		fmt.Fprintf(&md, "| %s | %d | %d | %d |\n", c, byCat[c].cases, byCat[c].failed, byCat[c].known)
	}
	fmt.Fprintf(&md, "| **all** | **%d** | **%d** | **%d** |\n", len(sel), failed, knownN)
	t.Logf("%d cases in %v, %d failed\n%s", len(sel), time.Since(start).Round(time.Second), failed, md.String())
	if *report != "" {
		var fl strings.Builder
		for _, o := range results {
			if len(o.fails) > 0 {
				known := ""
				if why := knownFailure(o.c); why != "" {
					known = " (known: " + why + ")"
				}
				fmt.Fprintf(&fl, "- %s / %s: %s%s\n", o.c.cat, o.c.name, strings.Join(o.fails, "; "), known)
			}
		}
		os.WriteFile(*report, []byte(md.String()+"\n"+fl.String()), 0o644)
	}
}

// knownFailures are the failures the trial still finds and that are not
// fixed yet, each with why (docs/adversarial.md lists them): reported,
// counted, and not failing the test, so that a new failure stands out.
var knownFailures = []struct {
	re  *regexp.Regexp
	why string
}{}

func knownFailure(c *tcase) string {
	for _, k := range knownFailures {
		if k.re.MatchString(c.cat + "/" + c.name) {
			return k.why
		}
	}
	return ""
}
