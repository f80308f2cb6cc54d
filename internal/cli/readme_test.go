package cli

import (
	"flag"
	"os"
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
