package store

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayer: store persists and judges nothing, so it imports none of
// profan's packages but the model and the terminal-safe strings helper
// (verdictdb, a layer up, joins it to the analysis).
func TestLayer(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/profan-dev/profan"
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if strings.HasPrefix(p, mod+"/") && p != mod+"/internal/safe" {
				t.Errorf("%s imports %s", file, p)
			}
		}
	}
}
