package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExamples runs the Example lines of every command's help, in the
// order a reader would (ingest before the commands that read the database),
// so that the help never shows a command that does not work. Lines that
// need a file of the reader's own (run.csv), a pipe or a redirection are
// left out.
func TestExamples(t *testing.T) {
	t.Chdir("../..") // examples use paths from the repository root
	tmp := t.TempDir()
	io, _, _ := testStreams()
	root := NewRoot(io)
	order := []string{"ingest", "runs", "trend", "diff", "gate", "report", "analyze", "model", "explain"}
	ran := 0
	for _, name := range order {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Fatalf("no command %s", name)
		}
		for _, line := range strings.Split(cmd.Example, "\n") {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "profan ") || strings.ContainsAny(line, "|>$") || strings.Contains(line, "run.csv") {
				continue
			}
			args := splitShell(line)[1:]
			var expanded []string
			for _, a := range args {
				a = strings.ReplaceAll(a, "runs.db", filepath.Join(tmp, "runs.db"))
				if strings.HasSuffix(a, ".html") {
					a = filepath.Join(tmp, a)
				}
				if strings.Contains(a, "*") {
					m, _ := filepath.Glob(a)
					if len(m) == 0 {
						t.Errorf("%s: %q matches no file", line, a)
					}
					expanded = append(expanded, m...)
					continue
				}
				expanded = append(expanded, a)
			}
			_, _, code := run(t, expanded...)
			if code == ExitError {
				t.Errorf("example %q: exit 2", line)
			}
			ran++
		}
	}
	if ran < 10 {
		t.Errorf("ran %d examples, want at least 10", ran)
	}
}

// splitShell splits a command line at spaces, keeping single-quoted
// words together.
func splitShell(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, inWord := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}
