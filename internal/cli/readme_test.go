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

// shellWords splits a command line of the README: words separated by
// blanks, single-quoted words kept whole.
func shellWords(line string) []string {
	var out []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, w.String())
	}
	return out
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
		w := shellWords(cmd)
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
			args := shellWords(strings.ReplaceAll(step, "${{ github.sha }}", sha))
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
