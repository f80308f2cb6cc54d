// Package golden compares test output with golden files. Run the tests with
// -update to rewrite the files; on a mismatch the actual output is written
// beside the golden file as <name>.got and a line diff is printed.
package golden

import (
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Check compares got with the file at path.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file: %v (run go test -update to create it)", err)
	}
	if string(want) == string(got) {
		os.Remove(path + ".got")
		return
	}
	os.WriteFile(path+".got", got, 0o644)
	t.Errorf("%s: output differs from golden file (got written to %s.got):\n%s", path, path, Diff(string(want), string(got)))
}

// Diff returns a line diff of want and got: lines only in want start
// with "-", lines only in got with "+", two lines of context around each
// change start with " ", and each hunk opens with the line numbers it
// starts at. The lines are matched by a longest common subsequence, so
// one inserted line is one "+" line. At most 60 changed lines are shown.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	ops := diffLines(w, g)
	const context, most = 2, 60
	var b strings.Builder
	shown, last := 0, -1 // last: the index of the last op printed
	for i, op := range ops {
		if op.kind == ' ' {
			continue
		}
		from := max(i-context, last+1)
		if from > last+1 || last < 0 {
			fmt.Fprintf(&b, "@@ want line %d, got line %d @@\n", ops[from].w+1, ops[from].g+1)
		}
		for j := from; j < i; j++ {
			fmt.Fprintf(&b, "  %s\n", ops[j].text)
		}
		fmt.Fprintf(&b, "%c %s\n", op.kind, op.text)
		last = i
		// Trailing context: up to the next change, at most context lines.
		for j := i + 1; j < len(ops) && j <= i+context && ops[j].kind == ' '; j++ {
			if next := nextChange(ops, j); next >= 0 && next-j < context {
				break
			}
			fmt.Fprintf(&b, "  %s\n", ops[j].text)
			last = j
		}
		if shown++; shown == most {
			b.WriteString("...\n")
			break
		}
	}
	return b.String()
}

// nextChange is the index of the first change at or after i, -1 if none.
func nextChange(ops []diffOp, i int) int {
	for ; i < len(ops); i++ {
		if ops[i].kind != ' ' {
			return i
		}
	}
	return -1
}

// diffOp is one line of a diff: kept (' '), removed ('-') or added ('+'),
// with its line index in want and in got.
type diffOp struct {
	kind rune
	text string
	w, g int
}

// diffLines matches w and g by their common prefix and suffix and a
// longest common subsequence of what is between; past 4M cells the middle
// is said as removed, then added.
func diffLines(w, g []string) []diffOp {
	p := 0
	for p < len(w) && p < len(g) && w[p] == g[p] {
		p++
	}
	s := 0
	for s < len(w)-p && s < len(g)-p && w[len(w)-1-s] == g[len(g)-1-s] {
		s++
	}
	var ops []diffOp
	for i := range p {
		ops = append(ops, diffOp{' ', w[i], i, i})
	}
	mw, mg := w[p:len(w)-s], g[p:len(g)-s]
	n, m := len(mw), len(mg)
	if n*m > 1<<22 {
		for i, l := range mw {
			ops = append(ops, diffOp{'-', l, p + i, p})
		}
		for j, l := range mg {
			ops = append(ops, diffOp{'+', l, p + n, p + j})
		}
	} else {
		// lcs[i][j]: the longest common subsequence of mw[i:] and mg[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if mw[i] == mg[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && mw[i] == mg[j]:
				ops = append(ops, diffOp{' ', mw[i], p + i, p + j})
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, diffOp{'-', mw[i], p + i, p + j})
				i++
			default:
				ops = append(ops, diffOp{'+', mg[j], p + i, p + j})
				j++
			}
		}
	}
	for k := range s {
		ops = append(ops, diffOp{' ', w[len(w)-s+k], len(w) - s + k, len(g) - s + k})
	}
	return ops
}

// Gunzip returns the text of the gzip-compressed fixture at path, for
// tests that cut or split a real export.
func Gunzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
