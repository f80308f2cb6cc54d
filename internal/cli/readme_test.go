package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refDoc holds the generated tables.
const refDoc = "../../docs/reference.md"

var updateReadme = flag.Bool("update-readme", false, "regenerate the generated tables of docs/reference.md")

// TestReadmeTables keeps the rule and metric tables of docs/reference.md
// generated from the registries (go test ./internal/cli -update-readme
// rewrites them).
func TestReadmeTables(t *testing.T) {
	b, err := os.ReadFile(refDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, sec := range []struct{ name, body string }{{"rules", RuleTable()}, {"metrics", MetricTable()}} {
		t.Run(sec.name, func(t *testing.T) {
			begin, end := "<!-- "+sec.name+":begin -->\n", "<!-- "+sec.name+":end -->"
			i, j := strings.Index(s, begin), strings.Index(s, end)
			if i < 0 || j < i {
				t.Fatalf("%s lacks the %s markers", refDoc, sec.name)
			}
			cur := s[i+len(begin) : j]
			if cur == sec.body {
				return
			}
			if *updateReadme {
				s = s[:i+len(begin)] + sec.body + s[j:]
				return
			}
			t.Errorf("%s: the %s table is out of date: run go test ./internal/cli -update-readme", refDoc, sec.name)
		})
	}
	if *updateReadme {
		if err := os.WriteFile(refDoc, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeBlock returns the lines of the README's first fenced block of the
// given language that follows the heading.
func readmeBlock(t *testing.T, heading, lang string) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, heading)
	if i < 0 {
		t.Fatalf("README.md has no %q", heading)
	}
	s = s[i:]
	open := "```" + lang + "\n"
	i = strings.Index(s, open)
	j := strings.Index(s[i+len(open):], "```")
	if i < 0 || j < 0 {
		t.Fatalf("README.md has no %s block after %q", lang, heading)
	}
	return strings.Split(strings.TrimSpace(s[i+len(open):i+len(open)+j]), "\n")
}

// readmeCIRecipe returns the profan steps of the README's CI recipe and
// the file its ncu step writes.
func readmeCIRecipe(t *testing.T) (steps []string, capture string) {
	t.Helper()
	for _, l := range readmeBlock(t, "A GitHub Actions job", "yaml") {
		l = strings.TrimSpace(l)
		cmd, ok := strings.CutPrefix(l, "- run: ")
		if !ok {
			continue
		}
		w := splitShell(cmd)
		switch w[0] {
		case "ncu":
			for i, x := range w {
				if x == "--log-file" && i+1 < len(w) {
					capture = w[i+1]
				}
			}
		case "profan":
			steps = append(steps, strings.TrimPrefix(cmd, "profan "))
		default:
			t.Fatalf("README CI recipe: a step neither ncu nor profan: %s", l)
		}
	}
	if capture == "" || len(steps) < 2 {
		t.Fatalf("README CI recipe: want an ncu step with --log-file and profan steps, got %q and %d", capture, len(steps))
	}
	return steps, capture
}

// TestReadmeCIRecipe runs the README's CI recipe as written, job after
// job, with real captures standing for its ncu step: against no database,
// against one holding several workloads labelled alike, and on a real
// regression. No job is red but the regression's.
func TestReadmeCIRecipe(t *testing.T) {
	steps, capture := readmeCIRecipe(t)
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	// job runs the recipe on a branch with file as the capture; it returns
	// the gate step's output and exit code, and fails on any other step's.
	job := func(t *testing.T, db, file, branch, sha string) (string, ExitCode) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(capture, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var gateOut string
		gateCode := ExitError
		for _, step := range steps {
			step = strings.ReplaceAll(step, "${{ github.ref_name }}", branch)
			args := splitShell(strings.ReplaceAll(step, "${{ github.sha }}", sha))
			_, statErr := os.Stat(db)
			io, out, errOut := testStreams()
			io.Getenv = func(k string) string {
				if k == "PROFAN_DB" {
					return db
				}
				return ""
			}
			code := Main(args, io)
			if args[0] == "gate" {
				gateOut, gateCode = out.String()+errOut.String(), code
				if _, err := os.Stat(db); statErr != nil && err == nil {
					t.Errorf("the gate created the database %s", db)
				}
				continue
			}
			if code != ExitOK {
				t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
			}
		}
		return gateOut, gateCode
	}
	green := func(t *testing.T, out string, code ExitCode, want string) {
		t.Helper()
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("gate: exit %d, want 0 and %q:\n%s", code, want, out)
		}
	}
	main, pr := "fixtures/ncu/transpose.import.details.csv", "fixtures/ncu/transpose.full.details.csv"
	t.Run("no database", func(t *testing.T) {
		db := filepath.Join(dir, "first.db")
		out, code := job(t, db, main, "main", "c1")
		green(t, out, code, "no baseline: no run database")
		out, code = job(t, db, pr, "pr-1", "c2")
		green(t, out, code, "baseline: run 1 (branch=main,commit=c1,workload=app)")
	})
	t.Run("several workloads", func(t *testing.T) {
		db := filepath.Join(dir, "shared.db")
		out, code := job(t, db, main, "main", "c1")
		green(t, out, code, "no baseline")
		// Other programs gated with the recipe copied as it is: labelled
		// workload=app too, and newer.
		for _, other := range []string{"fixtures/ncu/matmul.details.csv", "fixtures/ncu/misc.details.csv", "fixtures/ncu/saxpy.details.csv"} {
			out, code := job(t, db, other, "main", "c1")
			green(t, out, code, "shares a kernel")
		}
		out, code = job(t, db, pr, "pr-1", "c2")
		green(t, out, code, "baseline: run 1 ")
	})
	t.Run("regression", func(t *testing.T) {
		db := filepath.Join(dir, "reg.db")
		job(t, db, "fixtures/series6/series6_b4.details.csv", "main", "c4")
		out, code := job(t, db, "fixtures/series6/series6_b5.details.csv", "pr-2", "c5")
		if code != ExitFailed || !strings.Contains(out, "worse by more than 5%") {
			t.Errorf("gate on a regression: exit %d, want 1:\n%s", code, out)
		}
	})
}

// readmeSampleArgs is the README's first command, whose output it shows.
var readmeSampleArgs = []string{"analyze", "--device", "H200", "fixtures/ncu/transpose.import.details.csv", "fixtures/ncu/transpose.source.cuda-sass.csv"}

// TestReadmeSample keeps the README's sample output generated: the output
// of its first command (go run ./cmd/profan analyze ...) up to the first
// kernel's first source line (go test ./internal/cli -update-readme
// rewrites it).
func TestReadmeSample(t *testing.T) {
	const readme = "../../README.md"
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, "go run ./cmd/profan "+strings.Join(readmeSampleArgs, " ")+"\n") {
		t.Errorf("README.md no longer shows the command %q", strings.Join(readmeSampleArgs, " "))
	}
	t.Chdir("../..")
	out, errOut, code := run(t, readmeSampleArgs...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		lines = append(lines, strings.TrimRight(l, " "))
		if strings.HasPrefix(l, "      at ") {
			break
		}
	}
	body := "```\n" + strings.Join(lines, "\n") + "\n```\n"
	begin, end := "<!-- sample:begin -->\n", "<!-- sample:end -->"
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("README.md lacks the sample markers")
	}
	if s[i+len(begin):j] == body {
		return
	}
	if !*updateReadme {
		t.Fatalf("README.md: the sample output is out of date: run go test ./internal/cli -run TestReadmeSample -update-readme")
	}
	s = s[:i+len(begin)] + body + s[j:]
	if err := os.WriteFile("README.md", []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeFirstCommands holds the README's first commands to a fresh
// clone: the install is from the clone (the module path is not served),
// and CI (.ci/run) runs the suite the README calls what CI runs.
func TestReadmeFirstCommands(t *testing.T) {
	install := readmeBlock(t, "## Install", "sh")
	if len(install) != 1 || !strings.HasPrefix(install[0], "go install ./cmd/profan ") {
		t.Errorf("README install: %q, want go install ./cmd/profan", install)
	}
	if _, err := os.Stat("../../cmd/profan/main.go"); err != nil {
		t.Error(err)
	}
	var quick string
	for _, l := range readmeBlock(t, "## First commands", "sh") {
		if cmd, _, _ := strings.Cut(l, "#"); strings.HasPrefix(cmd, "go test ") {
			quick = strings.TrimSpace(cmd)
		}
	}
	if quick != "go test -short ./..." {
		t.Errorf("README: the quick test run is %q, want go test -short ./...", quick)
	}
	const ci = "scripts/test"
	if readme, err := os.ReadFile("../../README.md"); err != nil || !strings.Contains(string(readme), "What CI runs is `"+ci+"`") {
		t.Errorf("README.md does not say CI runs %s (%v)", ci, err)
	}
	b, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range strings.Split(string(b), "\n") {
		found = found || (ci != "" && strings.TrimSpace(l) == ci)
	}
	if !found {
		t.Errorf(".ci/run does not run the README's CI command %q", ci)
	}
}

// TestReadmeGateExample runs the README's gate example on the README's
// capture recipe (the details and source pages of the transposes): it
// passes, gld_efficiency read from the access model where the details
// page lacks it.
func TestReadmeGateExample(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "profan gate app.details.csv app.source.csv --require 'gld_efficiency >= 80'") {
			line = l
		}
	}
	if line == "" {
		t.Fatal("README.md has no gate example on app.details.csv app.source.csv")
	}
	files := map[string]string{"app.details.csv": fx + "transpose.import.details.csv", "app.source.csv": fx + "transpose.source.cuda-sass.csv"}
	var args []string
	for _, f := range shellWords(strings.TrimPrefix(line, "profan ")) {
		if p, ok := files[f]; ok {
			f = p
		}
		args = append(args, f)
	}
	out, errOut, code := run(t, args...)
	if code != ExitOK {
		t.Errorf("%s: exit %d\n%s%s", line, code, out, errOut)
	}
}

// shellWords splits s at spaces outside single quotes, as sh does for
// the README's examples.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, any = !quoted, true
		case r == ' ' && !quoted:
			if any {
				out = append(out, cur.String())
			}
			cur.Reset()
			any = false
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		out = append(out, cur.String())
	}
	return out
}

// readmeFiles maps the README's placeholder captures to real fixtures of
// the README's capture recipe (the transposes' details and source pages).
var readmeFiles = map[string]string{
	"app.details.csv": "fixtures/ncu/transpose.import.details.csv",
	"app.source.csv":  "fixtures/ncu/transpose.source.cuda-sass.csv",
	"run.csv":         "fixtures/ncu/transpose.full.details.csv",
	"step.json.gz":    "fixtures/timeline/train_small.json.gz",
}

// TestReadmeExamples runs every profan command of the README's sh blocks
// as written, in order, in one directory (runs.db is shared as in a
// shell), the placeholder captures standing for real fixtures, a glob
// expanded, a redirection to a file dropped. Each exits 0, or the code
// its comment gives ("# exits 1: ...").
func TestReadmeExamples(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	inSh := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "```") {
			inSh = !inSh && strings.TrimSpace(l) == "```sh"
			continue
		}
		if inSh && strings.HasPrefix(l, "profan ") {
			lines = append(lines, l)
		}
	}
	if len(lines) < 5 {
		t.Fatalf("README.md: %d profan commands in sh blocks, want the examples", len(lines))
	}
	t.Chdir(t.TempDir())
	for _, line := range lines {
		cmd, comment, _ := strings.Cut(line, " #")
		cmd, _, _ = strings.Cut(cmd, " > ")
		want := ExitOK
		if n, ok := strings.CutPrefix(strings.TrimSpace(comment), "exits "); ok && n != "" {
			want = ExitCode(n[0] - '0')
		}
		var args []string
		for _, w := range shellWords(strings.TrimPrefix(strings.TrimSpace(cmd), "profan ")) {
			if p, ok := readmeFiles[w]; ok {
				w = filepath.Join(root, p)
			} else if strings.HasPrefix(w, "fixtures/") {
				m, err := filepath.Glob(filepath.Join(root, w))
				if err != nil || len(m) == 0 {
					t.Errorf("%s: %s matches no fixture", line, w)
				}
				args = append(args, m...)
				continue
			}
			args = append(args, w)
		}
		out, errOut, code := run(t, args...)
		if code != want {
			t.Errorf("README: %s: exit %d, want %d\n%s%s", line, code, want, out, errOut)
		}
	}
}
