package profan_test

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/profan-dev/profan"

// layers are the import rules of docs/design.md: for each folder (and
// those under it), a check of each profan package one of its non-test
// files imports, which names what is wrong or is "".
var layers = []struct {
	dir   string
	check func(imp string) string
}{
	// compare reads runs and verdicts; the gate's policy is the gate's.
	{"internal/compare", banned("internal/gate")},
	// ingest reads bytes into the model and nothing after it: no
	// analysis, no database (internal/ingestdb joins them).
	{"internal/ingest", only("internal/units", "internal/safe")},
	// report renders what it is given (a verdict.Verdict made once by
	// the analysis, Trend, Diff, GateResult, Run, filled by the CLI) and
	// decides nothing: neither it nor report/html imports the packages
	// that analyse, compare runs, judge a gate, run rules or keep the run
	// database.
	{"internal/report", banned("internal/analysis", "internal/compare", "internal/gate", "internal/store", "internal/verdictdb", "internal/rules")},
	// the verdict's types are data: the analysis (its Builder) makes
	// them, with a Recommender it is given; neither the engine nor the
	// rules are below them.
	{"internal/verdict", banned("internal/analysis", "internal/rules", "internal/store")},
	// store persists and judges nothing (verdictdb, a layer up, joins it
	// to the analysis).
	{"internal/store", only("internal/safe", "internal/store/blob")},
	// store/blob encodes and decodes the store's bytes without SQL (its
	// fuzz targets build without the database drivers' cgo).
	{"internal/store/blob", only("internal/safe")},
}

// only allows the model and the given packages.
func only(pkgs ...string) func(string) string {
	return func(imp string) string {
		if imp == module {
			return ""
		}
		for _, a := range pkgs {
			if imp == module+"/"+a {
				return ""
			}
		}
		return "imports only the model and " + strings.Join(pkgs, ", ")
	}
}

// banned refuses the given packages and those under them.
func banned(pkgs ...string) func(string) string {
	return func(imp string) string {
		for _, b := range pkgs {
			if imp == module+"/"+b || strings.HasPrefix(imp, module+"/"+b+"/") {
				return "may not import " + b
			}
		}
		return ""
	}
}

// TestLayers walks each layer's folder and holds its imports to its rule.
func TestLayers(t *testing.T) {
	for _, l := range layers {
		err := filepath.WalkDir(l.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, im := range f.Imports {
				p, _ := strconv.Unquote(im.Path.Value)
				if !strings.HasPrefix(p, module) {
					continue
				}
				if why := l.check(p); why != "" {
					t.Errorf("%s imports %s: %s", path, p, why)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// dataTables are the files of internal/ allowed past maxLines: tables of
// data, not code.
var dataTables = map[string]bool{"internal/gpumodel/specs.go": true}

// maxLines is the most lines a non-test file of internal/ may have.
const maxLines = 800

// TestFileSizes: a file a reader can hold. Past maxLines, split the file
// by what its parts do (ingest.go into registry, stream and table), a
// move only.
func TestFileSizes(t *testing.T) {
	err := filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || dataTables[filepath.ToSlash(path)] {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte("\n")); n > maxLines {
			t.Errorf("%s: %d lines, over %d: split it by what its parts do (a move only)", path, n, maxLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
