package report

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayer: report renders what it is given (Trend, Diff, GateResult,
// Run, filled by the CLI) and decides nothing, so neither it nor
// report/html imports the packages that compare runs, judge a gate or
// keep the run database.
func TestLayer(t *testing.T) {
	const internal = "github.com/profan-dev/profan/internal/"
	banned := []string{"compare", "gate", "store", "verdictdb"}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, b := range banned {
				if p == internal+b || strings.HasPrefix(p, internal+b+"/") {
					t.Errorf("%s imports %s", path, p)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
